//! NetEpic Gold views: unit cards (a datasheet in canonical notation, its
//! pinning class, weapon table, special abilities, the army book's rules by
//! name and the source's faults) and the roster as army cards (each
//! Company card with the Support and Special cards under it, points,
//! break point and victory points per card). Plain strings, like `view`;
//! both renderers and `muster explain` read them.

use super::ships::NOT_IN_SOURCES;
use super::view::GlossaryLine;
use crate::catalogue::glossary::Glossary;
use crate::catalogue::{ArmyList, Catalogue, NeUnit};
use crate::check::{ArmySummary, FormationSummary};
use crate::notation::ship::Stat;
use std::collections::BTreeSet;
use std::fmt::Display;

/// One NetEpic datasheet, every value in canonical notation.
#[derive(Debug, Clone)]
pub struct NeUnitCard {
    /// The datasheet id.
    pub id: String,
    pub name: String,
    /// `Infantry`, `Vehicle, Skimmer`.
    pub class: String,
    /// The characteristics, in the order of a card: (`Move`, `10cm`).
    pub stats: Vec<(String, String)>,
    pub weapons: Vec<NeWeaponRow>,
    /// `Command, Transport (2)`.
    pub abilities: Vec<String>,
    /// The army book's own rules, by name.
    pub rules: Vec<String>,
    pub faults: Vec<String>,
}

/// The label of a card's pinning class, its first characteristic.
pub const PINNING: &str = "Pinning class";

/// One weapon: `-` where the profile has no such part.
#[derive(Debug, Clone)]
pub struct NeWeaponRow {
    pub name: String,
    pub range: String,
    pub attacks: String,
    pub to_hit: String,
    pub tsm: String,
    pub notes: String,
}

fn stat<T: Display>(value: &Stat<T>) -> String {
    value
        .known()
        .map_or_else(|| NOT_IN_SOURCES.to_string(), ToString::to_string)
}

fn raw(value: &crate::catalogue::raw::Known<String>) -> String {
    value
        .value()
        .cloned()
        .unwrap_or_else(|| NOT_IN_SOURCES.to_string())
}

impl NeUnitCard {
    pub fn new(unit: &NeUnit) -> NeUnitCard {
        let data = &unit.data;
        let (class, stats, weapons, abilities) = match unit.sheet() {
            Some(s) => {
                let pinning = match s.class.known() {
                    Some(c) => c
                        .pinning_class()
                        .map_or_else(|| "none in the table".to_string(), |p| p.to_string()),
                    None => NOT_IN_SOURCES.to_string(),
                };
                let mut stats = vec![
                    (PINNING.to_string(), pinning),
                    ("Move".to_string(), stat(&s.moves)),
                    ("Save".to_string(), stat(&s.save)),
                    ("CAF".to_string(), stat(&s.caf)),
                ];
                if let Some(m) = &s.morale {
                    stats.push(("Morale".to_string(), stat(m)));
                }
                let weapons = s
                    .weapons
                    .iter()
                    .map(|w| match &w.profile {
                        Some(p) => NeWeaponRow {
                            name: w.name.clone(),
                            range: p.range.map_or_else(
                                // A weapon that works by a rule may have no range.
                                || match p
                                    .abilities
                                    .contains(&crate::notation::netepic::WeaponAbility::Special)
                                {
                                    true => "-".to_string(),
                                    false => NOT_IN_SOURCES.to_string(),
                                },
                                |r| r.to_string(),
                            ),
                            attacks: match (p.times, p.attacks) {
                                (Some(n), Some(a)) => format!("{n}x {a}"),
                                (Some(n), None) => format!("{n}x"),
                                (None, a) => a.map_or_else(|| "-".to_string(), |a| a.to_string()),
                            },
                            to_hit: p.to_hit.map_or_else(|| "-".to_string(), |h| h.to_string()),
                            tsm: p.tsm.map_or_else(|| "-".to_string(), |t| t.to_string()),
                            notes: p
                                .abilities
                                .iter()
                                .map(ToString::to_string)
                                .collect::<Vec<_>>()
                                .join(", "),
                        },
                        None => NeWeaponRow {
                            name: w.name.clone(),
                            range: NOT_IN_SOURCES.to_string(),
                            attacks: String::new(),
                            to_hit: String::new(),
                            tsm: String::new(),
                            notes: String::new(),
                        },
                    })
                    .collect();
                (
                    stat(&s.class),
                    stats,
                    weapons,
                    s.abilities.iter().map(ToString::to_string).collect(),
                )
            }
            // Not parsed (the load reported why): the values as written.
            None => {
                let mut stats = vec![
                    ("Move".to_string(), raw(&data.moves)),
                    ("Save".to_string(), raw(&data.save)),
                    ("CAF".to_string(), raw(&data.caf)),
                ];
                if let Some(m) = &data.morale {
                    stats.push(("Morale".to_string(), raw(m)));
                }
                let weapons = data
                    .weapons
                    .iter()
                    .map(|w| NeWeaponRow {
                        name: w.clone(),
                        range: String::new(),
                        attacks: String::new(),
                        to_hit: String::new(),
                        tsm: String::new(),
                        notes: String::new(),
                    })
                    .collect();
                (raw(&data.class), stats, weapons, data.abilities.clone())
            }
        };
        NeUnitCard {
            id: data.id.clone(),
            name: data.name.clone(),
            class,
            stats,
            weapons,
            abilities,
            rules: data.rules.clone(),
            faults: data.faults.clone(),
        }
    }

    /// `Pinning class 1 · Move 10cm · Save 5+ · CAF +2 · Morale 2+`.
    pub fn stats_line(&self) -> String {
        self.stats
            .iter()
            .map(|(label, value)| format!("{label} {value}"))
            .collect::<Vec<_>>()
            .join(" · ")
    }
}

/// A NetEpic crib sheet laid out as one grid, so that a player reads
/// across the units: each card a row group, its name with its class and
/// pinning class under it, its characteristics down its weapon rows, its abilities, the army
/// book's rules and the source's faults on a line under them. Every card
/// keeps all it says; only the layout is shared. Built on demand from
/// `CribSheet::ne_units`, so both renderers lay out the same thing, and
/// its column widths are computed once for the whole sheet
/// ([`NeGrid::widths`]).
#[derive(Debug, Clone)]
pub struct NeGrid<'a> {
    /// The characteristics' columns, in the cards' order: `Move`,
    /// `Save`, `CAF`, `Morale` (a label no card has gets no column; the
    /// pinning class is printed with the class, under them).
    pub stats: Vec<&'a str>,
    pub units: Vec<NeGridUnit<'a>>,
}

/// One card of a [`NeGrid`].
#[derive(Debug, Clone)]
pub struct NeGridUnit<'a> {
    pub card: &'a NeUnitCard,
    /// One value per column of `NeGrid::stats`; empty where the card
    /// states none (a datasheet without a morale value).
    pub stats: Vec<&'a str>,
    /// The class, pinning class, abilities and the army book's rules with
    /// their labels, printed on one line (`Class: `, `Pinning class: `,
    /// `Abilities: `, `Army book rules: `).
    pub notes: Vec<(&'static str, String)>,
    /// The source's faults, one line each, names quoted typographically.
    pub faults: Vec<String>,
}

/// The weapon columns of a NetEpic grid, after the unit's.
pub const WEAPON_COLUMNS: [&str; 6] = ["Weapon", "Range", "Attacks", "To hit", "TSM", "Notes"];

/// No column takes more than this share of the width for its longest
/// text: the others still get what their words need.
const MOST: f32 = 0.3;

impl NeGridUnit<'_> {
    /// Rows the unit's weapons take (at least one, for its name and stats).
    pub fn weapon_rows(&self) -> usize {
        self.card.weapons.len().max(1)
    }

    /// Rows the unit takes: its weapon rows, one for its class and notes,
    /// and one for each fault (so that a titan's long list of them may
    /// run on to the next page).
    pub fn rows(&self) -> usize {
        self.weapon_rows() + 1 + self.faults.len()
    }
}

impl<'a> NeGrid<'a> {
    pub fn new(cards: &'a [NeUnitCard]) -> NeGrid<'a> {
        // The labels of every card, each after the one before it on its
        // card, so that the columns keep the order of a card.
        let mut stats: Vec<&str> = Vec::new();
        for card in cards {
            let mut at = 0;
            for (label, _) in card.stats.iter().filter(|(l, _)| l != PINNING) {
                match stats.iter().position(|s| *s == label.as_str()) {
                    Some(i) => at = i + 1,
                    None => {
                        stats.insert(at, label.as_str());
                        at += 1;
                    }
                }
            }
        }
        let units = cards
            .iter()
            .map(|card| {
                let mut notes = vec![("Class: ", card.class.clone())];
                if let Some((_, pinning)) = card.stats.iter().find(|(l, _)| l == PINNING) {
                    notes.push(("Pinning class: ", pinning.clone()));
                }
                if !card.abilities.is_empty() {
                    notes.push(("Abilities: ", card.abilities.join(", ")));
                }
                if !card.rules.is_empty() {
                    notes.push(("Army book rules: ", card.rules.join(", ")));
                }
                NeGridUnit {
                    card,
                    stats: stats
                        .iter()
                        .map(|label| {
                            (card.stats.iter())
                                .find(|(l, _)| l == label)
                                .map_or("", |(_, v)| v.as_str())
                        })
                        .collect(),
                    notes,
                    faults: card.faults.iter().map(|f| crate::diagnostic::quoted(f)).collect(),
                }
            })
            .collect();
        NeGrid { stats, units }
    }

    /// The column headings: `Unit`, the characteristics, then the weapon
    /// columns.
    pub fn header(&self) -> Vec<&str> {
        let mut header = vec!["Unit"];
        header.extend(&self.stats);
        header.extend(WEAPON_COLUMNS);
        header
    }

    /// Each column's cells, as (text, bold, the rows it runs down): the
    /// unit's name is bold and runs down all the unit's rows, its
    /// characteristics down its weapon rows.
    fn columns(&self) -> Vec<Vec<(&str, bool, usize)>> {
        let weapons = 1 + self.stats.len();
        let mut columns: Vec<Vec<(&str, bool, usize)>> = vec![Vec::new(); weapons + WEAPON_COLUMNS.len()];
        for unit in &self.units {
            let card = unit.card;
            columns[0].push((card.name.as_str(), true, unit.rows()));
            for (i, value) in unit.stats.iter().enumerate() {
                columns[1 + i].push((value, false, unit.weapon_rows()));
            }
            for w in &card.weapons {
                let cells = [&w.name, &w.range, &w.attacks, &w.to_hit, &w.tsm, &w.notes];
                for (i, text) in cells.into_iter().enumerate() {
                    columns[weapons + i].push((text.as_str(), false, 1));
                }
            }
        }
        columns
    }

    /// The width of each column as a share of `total`, computed once for
    /// the whole sheet from what its cells hold. Each column gets at least
    /// its longest word (or heading word), so no word breaks; then the
    /// room left goes first to giving nine cells in ten of each column
    /// no more lines than the rows they run down (a rare long value, such
    /// as "not in the sources" among ranges, may wrap: it does not widen
    /// its column for every other unit; a titan's save, down twenty weapon
    /// rows, may take three lines), then to the longest texts (at most [`MOST`] of the width),
    /// each in proportion to what its column still lacks; what is left
    /// after that widens every column alike. `measure` gives a text's
    /// width (bold or not) in the unit of `total`; `pad` is a cell's
    /// padding, both sides together.
    pub fn widths(&self, measure: impl Fn(&str, bool) -> f32, total: f32, pad: f32) -> Vec<f32> {
        let words = |text: &str, bold: bool| text.split(' ').map(|w| measure(w, bold)).fold(0.0f32, f32::max);
        // Per column: its longest word, the width nine cells in ten fit
        // in, its longest text.
        let needs: Vec<[f32; 3]> = self
            .header()
            .iter()
            .zip(self.columns())
            .map(|(head, cells)| {
                let least = cells
                    .iter()
                    .map(|(t, b, _)| words(t, *b))
                    .fold(words(head, true), f32::max);
                // What a cell needs to take no more lines than its rows
                // (near enough: a text wraps at its words).
                let mut full: Vec<f32> = cells
                    .iter()
                    .map(|(t, b, rows)| measure(t, *b) / *rows as f32)
                    .collect();
                full.sort_by(f32::total_cmp);
                let most = full.last().copied().unwrap_or(0.0).min(total * MOST).max(least);
                let nine = (full.len() * 9).div_ceil(10);
                let usual = full
                    .get(nine.saturating_sub(1))
                    .copied()
                    .unwrap_or(0.0)
                    .clamp(least, most);
                [least + pad, usual + pad, most + pad]
            })
            .collect();
        let sum = |level: usize| needs.iter().map(|n| n[level]).sum::<f32>();
        let widths: Vec<f32> = match (0..3).find(|&level| sum(level) >= total) {
            // Not even the longest words fit: they break in every column
            // alike.
            Some(0) => needs.iter().map(|n| n[0] * total / sum(0)).collect(),
            // Between two levels: the lower one, and the room left shared
            // in proportion to what each column lacks of the higher one.
            Some(level) => {
                let (room, lack) = (total - sum(level - 1), sum(level) - sum(level - 1));
                needs
                    .iter()
                    .map(|n| n[level - 1] + room * (n[level] - n[level - 1]) / lack.max(f32::EPSILON))
                    .collect()
            }
            // Everything fits on one line: every column a little wider.
            None => needs
                .iter()
                .map(|n| n[2] * total / sum(2).max(f32::EPSILON))
                .collect(),
        };
        widths.iter().map(|w| w / total).collect()
    }
}

impl super::view::CribSheet {
    /// The NetEpic cards as one grid (see [`NeGrid`]).
    pub fn ne_grid(&self) -> NeGrid<'_> {
        NeGrid::new(&self.ne_units)
    }
}

/// A unit card as a roster bought it (its weapons already chosen): the
/// source's faults about weapons it does not carry are left out, and when
/// the roster fields the unit in several ways, the card says how many of
/// `total` it stands for.
pub fn as_bought(card: &mut NeUnitCard, share: Option<(usize, usize)>) {
    let carried = |name: &str| {
        card.weapons
            .iter()
            .any(|w| w.name == name || w.name.starts_with(&format!("{name} (")))
    };
    let faults: Vec<String> = card
        .faults
        .iter()
        .filter(|f| {
            f.strip_prefix("weapon `")
                .and_then(|rest| rest.split_once('`'))
                .is_none_or(|(name, _)| carried(name))
        })
        .cloned()
        .collect();
    card.faults = faults;
    if let Some((by, total)) = share {
        card.name = format!("{} ({by} of {total} as bought)", card.name);
    }
}

/// Marks the weapon rows `rows` (by name) of a card as carried `count`
/// times: `2× Gatling Blaster (carapace or arm)`.
pub fn times(card: &mut NeUnitCard, rows: &[&String], count: u32) {
    for w in card
        .weapons
        .iter_mut()
        .filter(|w| rows.iter().any(|r| r.eq_ignore_ascii_case(&w.name)))
    {
        w.name = format!("{count}× {}", w.name);
    }
}

/// The glossary lines for what `units` use, in glossary order.
pub fn glossary_lines(glossary: Option<&Glossary>, units: &[&NeUnit]) -> Vec<GlossaryLine> {
    let Some(glossary) = glossary else {
        return Vec::new();
    };
    let ids: BTreeSet<&str> = units
        .iter()
        .filter_map(|u| u.sheet())
        .flat_map(|s| s.glossary_ids())
        .collect();
    glossary
        .entries_for(&ids)
        .into_iter()
        .map(GlossaryLine::from_entry)
        .collect()
}

/// The NetEpic datasheets of `ids` in `list`'s game, in that order,
/// skipping ids that name none.
pub fn units<'c>(catalogue: &'c Catalogue, list: &ArmyList, ids: &[&str]) -> Vec<&'c NeUnit> {
    ids.iter()
        .filter_map(|id| catalogue.ne_unit(list.game, id))
        .collect()
}

// ============================================================ ROSTER CARDS

/// The roster as army cards: each card with what it holds and is worth,
/// Support and Special cards under their Company card.
#[derive(Debug, Clone)]
pub struct CardsView {
    pub cards: Vec<CardView>,
    /// The army's break points and victory points, summed over its cards;
    /// `+?` marks a sum that leaves out a card whose value the sources lack.
    pub break_points: String,
    pub victory_points: String,
    /// The victory points needed to win a game of the army's size.
    pub to_win: Option<String>,
}

/// The break point of a titan or praetorian card (NetEpic Gold 6.1).
pub const DESTROYED: &str = "none (broken when destroyed)";

#[derive(Debug, Clone)]
pub struct CardView {
    pub name: String,
    /// `Company card`, `Support card (free)`, `Special card (unique)`.
    pub kind: String,
    /// `18 Tactical Squad, 10 Rhino, Company HQ Squad`.
    pub units: String,
    pub upgrades: String,
    /// The card's own points (a company's members are their own cards).
    pub points: i64,
    pub break_point: String,
    pub victory_points: String,
    /// A Support or Special card under a Company card.
    pub member: bool,
}

/// A card armed titan by titan: `2× Titan (850 points each): Volcano
/// Cannon, Chain Fist; Titan (800 points): Quake Cannon, Power Fist`.
fn titans(titans: &[crate::check::TitanSummary]) -> String {
    titans
        .iter()
        .map(|t| {
            let (who, each) = match t.count {
                1 => ("Titan".to_string(), ""),
                n => (format!("{n}× Titan"), " each"),
            };
            format!(
                "{who} ({} points{each}): {}",
                t.points,
                super::counted_names(&t.upgrades)
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// `Company card`, with `free`, `unique`, `personality` after it.
fn kind(tags: &BTreeSet<String>) -> String {
    let base = if tags.contains("company") {
        "Company card"
    } else if tags.contains("special") {
        "Special card"
    } else if tags.contains("support") {
        "Support card"
    } else {
        "Card"
    };
    let marks: Vec<&str> = ["free", "unique", "personality"]
        .into_iter()
        .filter(|t| tags.contains(*t))
        .collect();
    if marks.is_empty() {
        base.to_string()
    } else {
        format!("{base} ({})", marks.join(", "))
    }
}

impl CardsView {
    /// `units` gives each formation's units as text, in army order. Each
    /// card's kind comes from the list of the force it belongs to; its
    /// break point and victory points, and the army's sums, from `check`.
    pub fn new(
        army: &ArmySummary,
        catalogue: &Catalogue,
        list: Option<&ArmyList>,
        units: &[String],
    ) -> CardsView {
        let figure = |n: Option<u32>| n.map_or_else(|| "?".to_string(), |n| n.to_string());
        let card = |f: &FormationSummary, i: usize, member: bool| {
            let force_list = army
                .forces
                .get(f.force)
                .and_then(|force| catalogue.lists.iter().find(|l| l.id == force.list_id))
                .or(list);
            let formation = force_list.and_then(|l| l.formations.iter().find(|x| x.id == f.id));
            let mut kind = formation.map_or_else(|| "Card".to_string(), |x| kind(&x.tags));
            if let Some(force) = army.forces.get(f.force).filter(|force| force.ally) {
                kind.push_str(&format!(", allied force: {}", force.list_name));
            }
            CardView {
                name: f.name.clone(),
                kind,
                units: units.get(i).cloned().unwrap_or_default(),
                upgrades: if f.titans.is_empty() {
                    super::counted_names(&f.upgrades)
                } else {
                    titans(&f.titans)
                },
                points: f.points,
                // A titan has no break point: it counts when destroyed.
                break_point: if f.card.is_some_and(|c| c.broken_when_destroyed) {
                    DESTROYED.to_string()
                } else {
                    figure(f.card.and_then(|c| c.break_point))
                },
                victory_points: figure(f.card.and_then(|c| c.victory_points)),
                member,
            }
        };
        let mut cards = Vec::new();
        for (i, f) in army.formations.iter().enumerate() {
            if f.group.is_some() {
                continue;
            }
            cards.push(card(f, i, false));
            for (j, m) in army.formations.iter().enumerate() {
                if m.group == Some(i) {
                    cards.push(card(m, j, true));
                }
            }
        }
        let (break_points, victory_points, to_win) = match &army.victory {
            Some(v) => {
                let mark = if v.incomplete { "+?" } else { "" };
                (
                    format!("{}{mark}", v.break_points),
                    format!("{}{mark}", v.victory_points),
                    Some(format!("{} (for {} points)", v.to_win, v.army_size)),
                )
            }
            None => ("?".to_string(), "?".to_string(), None),
        };
        CardsView {
            cards,
            break_points,
            victory_points,
            to_win,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(name: &str, stats: &[(&str, &str)], weapons: &[&str]) -> NeUnitCard {
        NeUnitCard {
            id: name.to_lowercase(),
            name: name.to_string(),
            class: "Infantry".to_string(),
            stats: stats
                .iter()
                .map(|(l, v)| (l.to_string(), v.to_string()))
                .collect(),
            weapons: weapons
                .iter()
                .map(|w| NeWeaponRow {
                    name: w.to_string(),
                    range: "50cm".to_string(),
                    attacks: "1d".to_string(),
                    to_hit: "5+".to_string(),
                    tsm: "(0)".to_string(),
                    notes: String::new(),
                })
                .collect(),
            abilities: vec!["Elite".to_string()],
            rules: Vec::new(),
            faults: vec!["weapon `Bolters`: odd".to_string()],
        }
    }

    fn chars(text: &str, _bold: bool) -> f32 {
        text.chars().count() as f32
    }

    #[test]
    fn the_grid_has_a_column_for_each_characteristic_any_card_states() {
        let cards = [
            card(
                "Scouts",
                &[(PINNING, "1"), ("Move", "10cm"), ("Save", "6+"), ("CAF", "+1")],
                &["Bolters"],
            ),
            card(
                "Marines",
                &[
                    (PINNING, "1"),
                    ("Move", "10cm"),
                    ("Save", "5+"),
                    ("CAF", "+2"),
                    ("Morale", "2+"),
                ],
                &[],
            ),
        ];
        let grid = NeGrid::new(&cards);
        assert_eq!(grid.stats, ["Move", "Save", "CAF", "Morale"]);
        assert_eq!(grid.header().len(), 1 + 4 + WEAPON_COLUMNS.len());
        // A card without a morale value leaves its cell empty.
        assert_eq!(grid.units[0].stats, ["10cm", "6+", "+1", ""]);
        assert_eq!(grid.units[1].stats, ["10cm", "5+", "+2", "2+"]);
        // The class and pinning class go on the line under the stats.
        assert_eq!(
            grid.units[0].notes,
            [
                ("Class: ", "Infantry".to_string()),
                ("Pinning class: ", "1".to_string()),
                ("Abilities: ", "Elite".to_string())
            ]
        );
        assert_eq!(grid.units[0].faults, ["weapon ‘Bolters’: odd"]);
        // A card without weapons still takes a row, and one for its line,
        // and one for each fault.
        assert_eq!((grid.units[1].weapon_rows(), grid.units[1].rows()), (1, 3));
    }

    #[test]
    fn every_column_gets_its_longest_word_and_the_widths_fill_the_line() {
        let mut cards: Vec<NeUnitCard> = (0..10)
            .map(|i| card(&format!("Squad {i}"), &[("Move", "10cm")], &["Bolters"]))
            .collect();
        cards.push(card(
            "Titan",
            &[("Move", "not in the sources")],
            &["Gatling Blaster (carapace or arm)"],
        ));
        let grid = NeGrid::new(&cards);
        for total in [60.0, 100.0, 300.0] {
            let widths = grid.widths(chars, total, 1.0);
            assert_eq!(widths.len(), grid.header().len());
            assert!((widths.iter().sum::<f32>() - 1.0).abs() < 1e-4, "{widths:?}");
            if total >= 100.0 {
                // Move: its heading, `sources`, and the padding.
                assert!(widths[1] * total >= 8.0 - 1e-3, "{widths:?} of {total}");
                // Weapon: `(carapace`, and the padding.
                assert!(widths[2] * total >= 10.0 - 1e-3, "{widths:?} of {total}");
            }
        }
        // Short of room, one long move among ten short ones does not take
        // the width of its whole text: it wraps.
        let widths = grid.widths(chars, 60.0, 1.0);
        assert!(widths[1] * 60.0 < 19.0, "{widths:?}");
        // With room to spare, every text is on one line.
        let widths = grid.widths(chars, 300.0, 1.0);
        assert!(
            widths[1] * 300.0 >= 19.0 && widths[2] * 300.0 >= 34.0,
            "{widths:?}"
        );
    }
}
