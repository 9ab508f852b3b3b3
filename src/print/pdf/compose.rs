//! The views as blocks for the layout: a crib sheet's and a roster's
//! headings, tables and cards.

use super::Pdf;
use super::fonts::*;
use super::layout::*;
use crate::print::card::{Card, Cell, Column, LineKey, Look};
use crate::print::epic::{self, CribGrid};
use crate::print::netepic::{CardsView, NeGrid, WEAPON_COLUMNS};
use crate::print::ships::FleetView;
use crate::print::view::{ArmyRule, CribSheet, RosterSheet};
use crate::print::{Paper, PrintError};

fn crib_blocks(sheet: &CribSheet, fonts: &Fonts, text_width: f32, blocks: &mut Vec<Block>) {
    blocks.push(Block::Title(sheet.title.clone()));
    blocks.push(Block::Text {
        runs: vec![plain(sheet.subtitle.clone())],
        size: BODY,
    });
    blocks.push(Block::Gap(4.0));
    army_rule_blocks(&sheet.army_rules, blocks);
    if !sheet.units.is_empty() {
        epic_grid_blocks(&sheet.grid(), blocks);
    }
    for card in &sheet.cards {
        blocks.push(Block::Keep(sheet_card(card)));
    }
    if !sheet.ne_units.is_empty() {
        ne_grid_blocks(&sheet.ne_grid(), fonts, text_width, blocks);
    }
    for note in sheet.missing_notes() {
        blocks.push(Block::Text {
            runs: vec![plain(note)],
            size: BODY,
        });
    }
    if !sheet.glossary.is_empty() {
        let mut glossary = vec![Block::Heading("Abbreviations and rules used".into())];
        // Two entries a row, each a paragraph: `AP (Anti-personnel): ...`.
        let entry = |g: &crate::print::card::GlossaryLine| {
            let mut runs = vec![bold(g.term.clone())];
            if g.name.is_empty() {
                runs.push(plain(": "));
            } else {
                runs.push(plain(format!(" ({}): ", g.name)));
            }
            runs.push(plain(g.summary.clone()));
            runs
        };
        let groups = sheet
            .glossary
            .chunks(2)
            .map(|pair| {
                vec![
                    pair.iter()
                        .enumerate()
                        .map(|(i, g)| cell(i, 1, entry(g)))
                        .collect(),
                ]
            })
            .collect();
        glossary.push(Block::Grid(Grid {
            widths: vec![0.5, 0.5],
            header: Vec::new(),
            groups,
            ruled: false,
            size: GLOSSARY,
        }));
        // Kept on one page where it fits on one: not a few lines spilt
        // onto a last page of their own.
        blocks.push(Block::Keep(glossary));
    }
}

/// Epic units as one grid (see `epic::CribGrid`): the shared weapons in
/// two side-by-side columns, then a row group per unit.
fn epic_grid_blocks(grid: &CribGrid<'_>, blocks: &mut Vec<Block>) {
    let weapon_cells = |w: &[Cell], col: usize| -> Vec<GridCell> {
        (w.iter().enumerate())
            .map(|(i, c)| cell(col + i, 1, refit_name(&c.text, c.mark)))
            .collect()
    };
    if !grid.shared.is_empty() {
        blocks.push(Block::Heading("Shared weapons".into()));
        // Split in two near the middle, between two weapons rather than
        // between the profiles of one.
        let mut half = grid.shared.len().div_ceil(2);
        let name = |i: usize| grid.shared[i].first().map(|c| c.text.as_str());
        while half < grid.shared.len() && half > 0 && name(half) == name(half - 1) {
            half += 1;
        }
        let (first, second) = grid.shared.split_at(half);
        let rows = first
            .iter()
            .enumerate()
            .map(|(i, w)| {
                let mut row = weapon_cells(w, 0);
                if let Some(w) = second.get(i) {
                    row.extend(weapon_cells(w, 4));
                }
                vec![row]
            })
            .collect();
        blocks.push(Block::Grid(Grid {
            widths: vec![0.2, 0.07, 0.135, 0.095, 0.2, 0.07, 0.135, 0.095],
            header: (epic::WEAPON_COLUMNS.iter())
                .chain(&epic::WEAPON_COLUMNS)
                .map(|c| c.heading().to_string())
                .collect(),
            groups: rows,
            ruled: true,
            size: BODY,
        }));
    }
    let groups = grid
        .units
        .iter()
        .map(|u| {
            let c = u.card;
            let mut rows: Vec<Vec<GridCell>> = Vec::new();
            rows.extend(u.own.iter().map(|w| weapon_cells(w, 6)));
            if !u.shared.is_empty() {
                rows.push(vec![cell(6, 4, vec![bold("Shared: "), plain(u.shared.clone())])]);
            }
            if rows.is_empty() {
                rows.push(vec![cell(6, 4, Vec::new())]);
            }
            let stats = std::iter::once(vec![bold(c.name.clone())])
                .chain(std::iter::once(vec![plain(c.kind.clone())]))
                .chain(c.stats.iter().map(|(_, v)| vec![plain(v.clone())]));
            let down = rows.len();
            if let Some(first) = rows.first_mut() {
                let stats = stats.enumerate().map(|(col, runs)| GridCell {
                    rows: down,
                    ..cell(col, 1, runs)
                });
                first.splice(0..0, stats);
            }
            if !u.lines.is_empty() {
                let mut runs = Vec::new();
                for (i, (label, text)) in u.lines.iter().enumerate() {
                    if i > 0 {
                        runs.push(plain(" · "));
                    }
                    if !label.is_empty() {
                        runs.push(bold(label.clone()));
                    }
                    runs.push(plain(text.clone()));
                }
                rows.push(vec![cell(1, 9, runs)]);
            }
            rows
        })
        .collect();
    blocks.push(Block::Grid(Grid {
        widths: vec![0.175, 0.06, 0.08, 0.075, 0.04, 0.04, 0.18, 0.065, 0.135, 0.15],
        header: std::iter::once(Column::Unit.heading())
            .chain(epic::STATS.iter().map(|k| k.heading()))
            .chain(epic::WEAPON_COLUMNS.iter().map(Column::heading))
            .map(String::from)
            .collect(),
        groups,
        ruled: true,
        size: BODY,
    }));
    blocks.push(Block::Gap(6.0));
}

/// The army's special rules: a heading and a table of names and
/// summaries, as the glossary is laid out.
fn army_rule_blocks(rules: &[ArmyRule], blocks: &mut Vec<Block>) {
    if rules.is_empty() {
        return;
    }
    blocks.push(Block::Heading("Army special rules".into()));
    blocks.push(Block::Table(Table {
        widths: vec![0.25, 0.75],
        header: Vec::new(),
        rows: rules
            .iter()
            .map(|r| Row {
                cells: vec![vec![bold(r.name.clone())], vec![plain(r.summary.clone())]],
                bold: false,
            })
            .collect(),
        right: Vec::new(),
        borders: false,
    }));
    blocks.push(Block::Gap(6.0));
}

/// A weapon's name cell, tagged when a refit the roster bought put or
/// changed the row.
fn refit_name(name: &str, mark: Option<&str>) -> Vec<Run> {
    let mut cell = vec![plain(name.to_string())];
    if let Some(mark) = mark {
        cell.push(bold(format!(" [{mark}]")));
    }
    cell
}

/// Any datasheet's card (see `card::Card`): a bar with its name, its kind
/// and its stat line, the weapons table, then its lines (notes, skills,
/// faults, what the roster fielded), kept on one page.
fn sheet_card(c: &Card) -> Vec<Block> {
    let mut left = vec![bold(c.name.clone())];
    if !c.kind.is_empty() {
        // A ship's hull stands apart from its name; a unit's kind follows.
        let gap = match c.look {
            Look::Ship => "  ",
            Look::Unit => " ",
        };
        left.push(plain(format!("{gap}{}", c.kind)));
    }
    let mut card = vec![Block::Bar {
        left,
        right: c.stats_line(),
    }];
    let table = &c.weapons;
    if !table.rows.is_empty() {
        card.push(Block::Table(Table {
            widths: table.widths.clone(),
            header: table.headings().into_iter().map(String::from).collect(),
            rows: table
                .rows
                .iter()
                .map(|row| Row {
                    cells: row.iter().map(|cell| refit_name(&cell.text, cell.mark)).collect(),
                    bold: false,
                })
                .collect(),
            right: Vec::new(),
            borders: true,
        }));
    }
    let no_weapons = c.no_weapons.iter().filter(|_| table.rows.is_empty());
    for line in no_weapons.chain(c.lines()) {
        let mut runs = Vec::new();
        if line.key.is_some() {
            runs.push(bold(line.label()));
        }
        runs.push(plain(line.text()));
        card.push(Block::Boxed(runs));
    }
    card.push(Block::Gap(6.0));
    card
}

/// NetEpic units as one grid (see `netepic::NeGrid`): a row group per
/// card, its name down all its rows, its characteristics down its weapon
/// rows, its class, pinning class, abilities and the army book's rules on
/// the line under them and each source fault on a row of its own; the column widths measured once for the whole sheet.
fn ne_grid_blocks(grid: &NeGrid<'_>, fonts: &Fonts, text_width: f32, blocks: &mut Vec<Block>) {
    let header: Vec<String> = grid.header().into_iter().map(String::from).collect();
    let columns = header.len();
    let weapons = columns - WEAPON_COLUMNS.len();
    // Half a point more than the padding, so that a word measured to fit
    // still fits after rounding.
    let widths = grid.widths(|t, b| fonts.width(t, b, BODY), text_width, 2.0 * PAD_X + 0.5);
    let groups = grid
        .units
        .iter()
        .map(|u| {
            let c = u.card;
            let mut rows: Vec<Vec<GridCell>> = c
                .weapons
                .rows
                .iter()
                .map(|w| {
                    (w.iter().enumerate())
                        .map(|(i, text)| cell(weapons + i, 1, vec![plain(text.text.clone())]))
                        .collect()
                })
                .collect();
            if rows.is_empty() {
                rows.push(vec![cell(weapons, WEAPON_COLUMNS.len(), Vec::new())]);
            }
            let down = rows.len();
            let stats = (u.stats.iter().enumerate()).map(|(i, v)| GridCell {
                rows: down,
                ..cell(1 + i, 1, vec![plain(v.to_string())])
            });
            let name = GridCell {
                rows: u.rows(),
                ..cell(0, 1, vec![bold(c.name.clone())])
            };
            if let Some(first) = rows.first_mut() {
                first.splice(0..0, std::iter::once(name).chain(stats));
            }
            let mut runs = Vec::new();
            for (i, (key, text)) in u.notes.iter().enumerate() {
                if i > 0 {
                    runs.push(plain(" · "));
                }
                runs.push(bold(format!("{}: ", key.label())));
                runs.push(plain(text.clone()));
            }
            rows.push(vec![cell(1, columns - 1, runs)]);
            for fault in &u.faults {
                rows.push(vec![cell(
                    1,
                    columns - 1,
                    vec![
                        bold(format!("{}: ", LineKey::SourceFault.label())),
                        plain(fault.clone()),
                    ],
                )]);
            }
            rows
        })
        .collect();
    blocks.push(Block::Grid(Grid {
        widths,
        header,
        groups,
        ruled: true,
        size: BODY,
    }));
    blocks.push(Block::Gap(6.0));
}

pub fn crib(sheet: &CribSheet, paper: Paper) -> Result<Pdf, PrintError> {
    let mut blocks = Vec::new();
    crib_blocks(sheet, fonts()?, text_width(paper), &mut blocks);
    render(
        &sheet.title,
        &format!("{} · {}", sheet.title, sheet.stamp),
        &blocks,
        paper,
    )
}

/// Ships with options and points; a squadron in bold, its ships under it.
fn fleet_blocks(fleet: &FleetView, blocks: &mut Vec<Block>) {
    blocks.push(Block::Heading("Fleet".into()));
    if fleet.rows.is_empty() {
        blocks.push(Block::Text {
            runs: vec![plain("No ship could be read.")],
            size: BODY,
        });
        return;
    }
    blocks.push(Block::Table(Table {
        // Name and Leadership are left blank: players name their ships and
        // roll Leadership at the table.
        widths: vec![0.26, 0.14, 0.05, 0.2, 0.27, 0.08],
        header: ["Ship", "Name", "Ld", "Hits", "Options", "Points"]
            .map(String::from)
            .to_vec(),
        rows: fleet
            .rows
            .iter()
            .map(|r| {
                let name = if r.member {
                    format!("↳ {}", r.name)
                } else {
                    r.name.clone()
                };
                Row {
                    cells: vec![
                        vec![plain(name)],
                        Vec::new(),
                        Vec::new(),
                        vec![plain(r.hits.clone())],
                        vec![plain(r.options.clone())],
                        vec![plain(r.points.to_string())],
                    ],
                    bold: r.squadron,
                }
            })
            .collect(),
        right: vec![5],
        borders: true,
    }));
}

/// NetEpic army cards: each Company card as a bar (name and kind; points,
/// break point, victory points) over its units, its Support and Special
/// cards after it the same way, marked ↳; the army's sums at the end.
fn card_blocks(cards: &CardsView, none: &str, blocks: &mut Vec<Block>) {
    blocks.push(Block::Heading("Army cards".into()));
    if cards.cards.is_empty() {
        blocks.push(Block::Text {
            runs: vec![plain(none.to_string())],
            size: BODY,
        });
        return;
    }
    let mut group: Vec<Block> = Vec::new();
    for card in &cards.cards {
        if !card.member && !group.is_empty() {
            blocks.push(Block::Keep(std::mem::take(&mut group)));
        }
        let name = if card.member {
            format!("↳ {}", card.name)
        } else {
            card.name.clone()
        };
        group.push(Block::Bar {
            left: vec![bold(name), plain(format!("  {}", card.kind))],
            right: format!(
                "{} pts · break point {} · victory points {}",
                card.points, card.break_point, card.victory_points
            ),
        });
        let mut runs = vec![
            bold("Units: "),
            plain(if card.units.is_empty() {
                "none listed".to_string()
            } else {
                card.units.clone()
            }),
        ];
        if !card.upgrades.is_empty() {
            runs.push(bold("\nOptions: "));
            runs.push(plain(card.upgrades.clone()));
        }
        group.push(Block::Boxed(runs));
        group.push(Block::Gap(if card.member { 2.0 } else { 3.0 }));
    }
    if !group.is_empty() {
        blocks.push(Block::Keep(group));
    }
    blocks.push(Block::Text {
        runs: vec![
            bold("Army: "),
            plain(format!(
                "break points {} · victory points {}{}",
                cards.break_points,
                cards.victory_points,
                cards
                    .to_win
                    .as_ref()
                    .map(|w| format!(" · victory points to win {w}"))
                    .unwrap_or_default()
            )),
        ],
        size: BODY,
    });
}

/// A roster's header: player, event, scenario, list, points, ratings.
fn header_blocks(roster: &RosterSheet, blocks: &mut Vec<Block>) {
    let mut facts: Vec<(&str, String)> = Vec::new();
    if let Some(player) = &roster.player {
        facts.push(("Player", player.clone()));
    }
    if let Some(event) = &roster.event {
        facts.push(("Event", event.clone()));
    }
    if let Some(scenario) = &roster.scenario {
        facts.push(("Scenario", scenario.clone()));
    }
    let mut list = roster.army.clone();
    if let Some(version) = &roster.version {
        list.push_str(&format!(", {version}"));
    }
    if let Some(written) = &roster.version_written {
        list.push_str(&format!(" (the roster names {written})"));
    }
    facts.push(("Army list", list));
    facts.push(("Points", roster.points_fact()));
    if let Some(rating) = roster.strategy_rating {
        facts.push(("Strategy rating", rating.to_string()));
    }
    if let Some(fleet) = &roster.fleet {
        if let Some(rating) = &fleet.attack_rating {
            facts.push(("Attack rating", rating.clone()));
        }
        for (name, value) in &fleet.figures {
            facts.push((name.as_str(), value.clone()));
        }
    }
    blocks.push(Block::Table(Table {
        widths: vec![0.2, 0.8],
        header: Vec::new(),
        rows: facts
            .into_iter()
            .map(|(k, v)| Row {
                cells: vec![vec![bold(k)], vec![plain(v)]],
                bold: false,
            })
            .collect(),
        right: Vec::new(),
        borders: true,
    }));
}

/// A roster's errors, numbered.
fn error_blocks(roster: &RosterSheet, blocks: &mut Vec<Block>) {
    if !roster.errors.is_empty() {
        blocks.push(Block::Heading("Errors".into()));
        for (i, e) in roster.errors.iter().enumerate() {
            let mut runs = vec![bold(format!("{}. ", i + 1))];
            if !e.place.is_empty() {
                runs.push(bold(format!("{}: ", e.place)));
            }
            runs.push(plain(format!("{} [{}]", e.message, e.code)));
            if let Some(fix) = &e.fix {
                runs.push(plain(format!(" Fix: {fix}")));
            }
            blocks.push(Block::Text { runs, size: BODY });
        }
    }
}

/// A Heresy roster's battlegroups: a table, then their lines.
fn battlegroup_blocks(bgs: &crate::print::heresy::BattlegroupsView, blocks: &mut Vec<Block>) {
    blocks.push(Block::Heading("Battlegroups".into()));
    if !bgs.rows.is_empty() {
        blocks.push(Block::Table(Table {
            widths: vec![0.46, 0.1, 0.1, 0.12, 0.22],
            header: [
                "Battlegroup",
                "Models",
                "Morale",
                "Breaks after",
                "VP broken / destroyed",
            ]
            .map(String::from)
            .to_vec(),
            rows: bgs
                .rows
                .iter()
                .map(|r| Row {
                    cells: vec![
                        vec![plain(r.name.clone())],
                        vec![plain(r.models.clone())],
                        vec![plain(r.morale.clone())],
                        vec![plain(r.break_point.clone())],
                        vec![plain(r.victory_points.clone())],
                    ],
                    bold: false,
                })
                .collect(),
            right: vec![1, 2, 3],
            borders: true,
        }));
    }
    for line in &bgs.lines {
        blocks.push(Block::Text {
            runs: vec![plain(line.clone())],
            size: BODY,
        });
    }
}

pub fn roster(roster: &RosterSheet, paper: Paper) -> Result<Pdf, PrintError> {
    let mut blocks = Vec::new();
    let title = match &roster.army_name {
        Some(name) => format!("{name}: {} roster", roster.army),
        None => format!("{} roster", roster.army),
    };
    blocks.push(Block::Title(title.clone()));
    blocks.push(Block::Text {
        runs: vec![plain(roster.file.clone())],
        size: SMALL,
    });
    blocks.push(Block::Gap(3.0));

    header_blocks(roster, &mut blocks);
    blocks.push(Block::Verdict {
        text: roster.verdict.clone(),
        legal: roster.legal,
    });
    blocks.push(Block::Text {
        runs: vec![plain(roster.checked_by.clone())],
        size: BODY,
    });
    error_blocks(roster, &mut blocks);
    if let Some(fleet) = &roster.fleet {
        fleet_blocks(fleet, &mut blocks);
    } else if let Some(cards) = &roster.cards {
        card_blocks(cards, &roster.no_formations, &mut blocks);
    } else if roster.formations.is_empty() {
        blocks.push(Block::Heading("Formations".into()));
        blocks.push(Block::Text {
            runs: vec![plain(roster.no_formations.clone())],
            size: BODY,
        });
    } else {
        blocks.push(Block::Heading("Formations".into()));
        let columns = roster.formation_columns();
        let (header, widths): (Vec<&str>, Vec<f32>) = columns.widths().into_iter().unzip();
        let points_column = header.len() - 1;
        blocks.push(Block::Table(Table {
            widths,
            header: header.into_iter().map(String::from).collect(),
            rows: roster
                .formations
                .iter()
                .enumerate()
                .map(|(i, f)| {
                    let mut name = vec![plain(f.name.clone())];
                    if f.break_their_spirit {
                        name.push(bold("\n▶ Break Their Spirit target"));
                    }
                    let mut cells = vec![vec![plain((i + 1).to_string())], name];
                    for (shown, text) in [
                        (columns.units, &f.units),
                        (columns.upgrades, &f.upgrades),
                        (columns.initiative, &f.initiative),
                    ] {
                        if shown {
                            cells.push(vec![plain(text.clone())]);
                        }
                    }
                    cells.push(vec![plain(f.points.to_string())]);
                    Row {
                        cells,
                        bold: f.break_their_spirit,
                    }
                })
                .collect(),
            right: vec![0, points_column],
            borders: true,
        }));
    }
    if let Some(bgs) = &roster.battlegroups {
        battlegroup_blocks(bgs, &mut blocks);
    }
    army_rule_blocks(&roster.army_rules, &mut blocks);
    if !roster.counts_as.is_empty() {
        blocks.push(Block::Heading("Counts as".into()));
        blocks.push(Block::Table(Table {
            widths: vec![0.5, 0.5],
            header: ["Model", "Counts as"].map(String::from).to_vec(),
            rows: roster
                .counts_as
                .iter()
                .map(|(model, target)| Row {
                    cells: vec![vec![plain(model.clone())], vec![plain(target.clone())]],
                    bold: false,
                })
                .collect(),
            right: Vec::new(),
            borders: true,
        }));
    }
    if !roster.warnings.is_empty() || !roster.notes.is_empty() {
        blocks.push(Block::Heading("Warnings and notes".into()));
        let findings = roster
            .warnings
            .iter()
            .map(|w| ("Warning", w))
            .chain(roster.notes.iter().map(|n| ("Note", n)));
        for (kind, f) in findings {
            let mut runs = vec![bold(format!("{kind}: "))];
            if !f.place.is_empty() {
                runs.push(plain(format!("{}: ", f.place)));
            }
            runs.push(plain(format!("{} [{}]", f.message, f.code)));
            blocks.push(Block::Text { runs, size: BODY });
            for detail in &f.details {
                blocks.push(Block::Text {
                    runs: vec![plain(format!("    \u{2013} {detail}"))],
                    size: BODY,
                });
            }
        }
    }
    if let Some(sheet) = &roster.sheet {
        blocks.push(Block::PageBreak);
        crib_blocks(sheet, fonts()?, text_width(paper), &mut blocks);
    }
    render(
        &title,
        &format!("{title} · {}", roster.checked_by),
        &blocks,
        paper,
    )
}
