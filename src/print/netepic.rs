//! NetEpic Gold views: unit cards (a datasheet in canonical notation, its
//! pinning class, weapon table, special abilities, the army book's rules by
//! name and the source's faults) and the roster as army cards (each
//! Company card with the Support and Special cards under it, points,
//! break point and victory points per card). Plain strings, like `view`;
//! both renderers and `muster explain` read them.

use super::card::{
    self, Card, Cell, Column, GlossaryLine, Line, LineKey, Look, NOT_IN_SOURCES, StatKey, WeaponTable, raw,
    stat,
};
use crate::catalogue::glossary::Glossary;
use crate::catalogue::{ArmyList, Catalogue, NeUnit};
use crate::check::{ArmySummary, FormationSummary, GameFacts};

/// The weapon columns of a NetEpic card (and grid, after the unit's).
pub const WEAPON_COLUMNS: [Column; 6] = [
    Column::Weapon,
    Column::Range,
    Column::Attacks,
    Column::ToHit,
    Column::Tsm,
    Column::Notes,
];

/// One weapon's row: `-` where the profile has no such part.
fn weapon_row(w: &crate::notation::netepic::Weapon) -> Vec<Cell> {
    let Some(p) = &w.profile else {
        let mut row = vec![Cell::new(w.name.clone()), Cell::new(NOT_IN_SOURCES)];
        row.resize(WEAPON_COLUMNS.len(), Cell::default());
        return row;
    };
    // A weapon that works by a rule may have no range.
    let range = p.range.map_or_else(
        || match p
            .abilities
            .contains(&crate::notation::netepic::WeaponAbility::Special)
        {
            true => "-".to_string(),
            false => NOT_IN_SOURCES.to_string(),
        },
        |r| r.to_string(),
    );
    let attacks = match (p.times, p.attacks) {
        (Some(n), Some(a)) => format!("{n}x {a}"),
        (Some(n), None) => format!("{n}x"),
        (None, a) => a.map_or_else(|| "-".to_string(), |a| a.to_string()),
    };
    [
        w.name.clone(),
        range,
        attacks,
        p.to_hit.map_or_else(|| "-".to_string(), |h| h.to_string()),
        p.tsm.map_or_else(|| "-".to_string(), |t| t.to_string()),
        p.abilities
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", "),
    ]
    .map(Cell::new)
    .to_vec()
}

/// One NetEpic datasheet as a card, every value in canonical notation:
/// its class, its pinning class and characteristics in the order of a
/// card, its weapons, special abilities, the army book's rules by name and
/// the source's faults.
pub fn card(unit: &NeUnit) -> Card {
    let data = &unit.data;
    let (class, stats, rows, abilities) = match unit.sheet() {
        Some(s) => {
            let pinning = match s.class.known() {
                Some(c) => c
                    .pinning_class()
                    .map_or_else(|| "none in the table".to_string(), |p| p.to_string()),
                None => NOT_IN_SOURCES.to_string(),
            };
            let mut stats = vec![
                (StatKey::PinningClass, pinning),
                (StatKey::Move, stat(&s.moves)),
                (StatKey::Save, stat(&s.save)),
                (StatKey::Caf, stat(&s.caf)),
            ];
            if let Some(m) = &s.morale {
                stats.push((StatKey::Morale, stat(m)));
            }
            (
                stat(&s.class),
                stats,
                s.weapons.iter().map(weapon_row).collect(),
                s.abilities.iter().map(ToString::to_string).collect(),
            )
        }
        // Not parsed (the load reported why): the values as written.
        None => {
            let mut stats = vec![
                (StatKey::Move, raw(&data.moves)),
                (StatKey::Save, raw(&data.save)),
                (StatKey::Caf, raw(&data.caf)),
            ];
            if let Some(m) = &data.morale {
                stats.push((StatKey::Morale, raw(m)));
            }
            let rows = data
                .weapons
                .iter()
                .map(|w| {
                    let mut row = vec![Cell::new(w.clone())];
                    row.resize(WEAPON_COLUMNS.len(), Cell::default());
                    row
                })
                .collect();
            (raw(&data.class), stats, rows, data.abilities.clone())
        }
    };
    let mut lines = Line::listed(LineKey::Abilities, abilities, ", ");
    lines.extend(Line::listed(LineKey::ArmyBookRules, data.rules.clone(), ", "));
    lines.extend(Line::faults(&data.faults));
    Card {
        id: data.id.clone(),
        name: data.name.clone(),
        kind: class,
        kind_name: String::new(),
        look: Look::Unit,
        stats,
        weapons: WeaponTable {
            columns: WEAPON_COLUMNS.to_vec(),
            widths: Vec::new(),
            rows,
        },
        no_weapons: None,
        groups: vec![lines],
        missing_mark: NOT_IN_SOURCES,
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
    /// `Save`, `CAF`, `Morale` (a key no card has gets no column; the
    /// pinning class is printed with the class, under them).
    pub stats: Vec<StatKey>,
    pub units: Vec<NeGridUnit<'a>>,
}

/// One card of a [`NeGrid`].
#[derive(Debug, Clone)]
pub struct NeGridUnit<'a> {
    pub card: &'a Card,
    /// One value per column of `NeGrid::stats`; empty where the card
    /// states none (a datasheet without a morale value).
    pub stats: Vec<&'a str>,
    /// The class, pinning class, abilities and the army book's rules by
    /// their labels, printed on one line.
    pub notes: Vec<(LineKey, String)>,
    /// The source's faults, one line each, names quoted typographically.
    pub faults: Vec<String>,
}

/// The steps in which [`NeGrid::widths`] hands out room: this share of
/// the width at a time.
const STEP: f32 = 0.005;

impl NeGridUnit<'_> {
    /// Rows the unit's weapons take (at least one, for its name and stats).
    pub fn weapon_rows(&self) -> usize {
        self.card.weapons.rows.len().max(1)
    }

    /// Rows the unit takes: its weapon rows, one for its class and notes,
    /// and one for each fault (so that a titan's long list of them may
    /// run on to the next page).
    pub fn rows(&self) -> usize {
        self.weapon_rows() + 1 + self.faults.len()
    }
}

impl<'a> NeGrid<'a> {
    pub fn new(cards: &'a [Card]) -> NeGrid<'a> {
        // The keys of every card, each after the one before it on its
        // card, so that the columns keep the order of a card.
        let mut stats: Vec<StatKey> = Vec::new();
        for card in cards {
            let mut at = 0;
            for &(key, _) in card.stats.iter().filter(|(k, _)| *k != StatKey::PinningClass) {
                match stats.iter().position(|s| *s == key) {
                    Some(i) => at = i + 1,
                    None => {
                        stats.insert(at, key);
                        at += 1;
                    }
                }
            }
        }
        let units = cards
            .iter()
            .map(|card| {
                let mut notes = vec![(LineKey::Class, card.kind.clone())];
                if let Some(pinning) = card.stat(StatKey::PinningClass) {
                    notes.push((LineKey::PinningClass, pinning.to_string()));
                }
                notes.extend(
                    card.lines()
                        .filter(|l| l.key != Some(LineKey::SourceFault))
                        .filter_map(|l| Some((l.key?, l.text()))),
                );
                NeGridUnit {
                    card,
                    stats: stats.iter().map(|&key| card.stat(key).unwrap_or("")).collect(),
                    notes,
                    faults: card
                        .lines()
                        .filter(|l| l.key == Some(LineKey::SourceFault))
                        .map(Line::text)
                        .collect(),
                }
            })
            .collect();
        NeGrid { stats, units }
    }

    /// The column headings: `Unit`, the characteristics, then the weapon
    /// columns.
    pub fn header(&self) -> Vec<&'static str> {
        let mut header = vec![Column::Unit.heading()];
        header.extend(self.stats.iter().map(|k| k.heading()));
        header.extend(WEAPON_COLUMNS.iter().map(Column::heading));
        header
    }

    /// Every cell whose text sets a column's width: its column, text,
    /// weight, the lines it may take for free (the rows it runs down) and
    /// the weapon row it shares its height with, if any.
    fn cells(&self) -> Vec<WidthCell<'_>> {
        let weapons = 1 + self.stats.len();
        let mut cells = Vec::new();
        let mut row = 0;
        for unit in &self.units {
            let card = unit.card;
            cells.push(WidthCell::new(0, &card.name, true, unit.rows(), None));
            for (i, value) in unit.stats.iter().enumerate() {
                cells.push(WidthCell::new(1 + i, value, false, unit.weapon_rows(), None));
            }
            for w in &card.weapons.rows {
                for (i, cell) in w.iter().enumerate() {
                    cells.push(WidthCell::new(weapons + i, &cell.text, false, 1, Some(row)));
                }
                row += 1;
            }
        }
        cells
    }

    /// The width of each column as a share of `total`, computed once for
    /// the whole sheet from what its cells hold, so that the grid takes
    /// as few lines as it can. Each column gets at least its longest word
    /// (or heading word), so no word breaks; then the room left is handed
    /// out to the column where it saves the most lines per step of
    /// width, looking at every width the room allows (a text fits only
    /// once its column has grown by its whole overhang). A weapon row is as high
    /// as its highest cell, so widening one of its cells saves a line only
    /// if none of the others wraps; a name or a characteristic runs down
    /// its unit's rows and wraps at no cost within them (a titan's save
    /// down twenty weapon rows may take three lines). Room no line needs
    /// goes to the columns whose longest texts still wrap, else to every
    /// column alike. `measure` gives a text's width (bold or not) in the
    /// unit of `total`; `pad` is a cell's padding, both sides together.
    pub fn widths(&self, measure: impl Fn(&str, bool) -> f32, total: f32, pad: f32) -> Vec<f32> {
        let header = self.header();
        let space = measure(" ", false);
        let mut cells = self.cells();
        for c in &mut cells {
            c.words = c.text.split(' ').map(|w| measure(w, c.bold)).collect();
        }
        let mut least: Vec<f32> = header
            .iter()
            .map(|h| h.split(' ').map(|w| measure(w, true)).fold(0.0, f32::max))
            .collect();
        let mut most = least.clone();
        for c in &cells {
            least[c.col] = c.words.iter().copied().fold(least[c.col], f32::max);
            // What it needs to take no more lines than it has rows.
            most[c.col] = most[c.col].max(measure(c.text, c.bold) / f32::from(c.free.max(1)));
        }
        let least: Vec<f32> = least.iter().map(|l| l + pad).collect();
        let most: Vec<f32> = most.iter().map(|m| m + pad).collect();
        let sum_least: f32 = least.iter().sum();
        if sum_least >= total {
            // Not even the longest words fit: they break in every column
            // alike.
            return least.iter().map(|l| l / sum_least).collect();
        }
        let step = total * STEP;
        let levels = ((total - sum_least) / step) as usize;
        // The lines each cell takes beyond its free ones, at each level
        // of its column (its least width and so many steps more).
        let extra: Vec<Vec<u16>> = cells
            .iter()
            .map(|c| {
                let mut out = Vec::with_capacity(levels + 1);
                for k in 0..=levels {
                    let lines = match out.last() {
                        Some(0) => 0,
                        _ => c
                            .lines(least[c.col] - pad + k as f32 * step, space)
                            .saturating_sub(c.free),
                    };
                    out.push(lines);
                }
                out
            })
            .collect();
        let mut by_row: Vec<Vec<usize>> = Vec::new();
        for (i, c) in cells.iter().enumerate() {
            if let Some(r) = c.row {
                by_row.resize_with(by_row.len().max(r + 1), Vec::new);
                by_row[r].push(i);
            }
        }
        let mut by_col: Vec<Vec<usize>> = vec![Vec::new(); header.len()];
        for (i, c) in cells.iter().enumerate() {
            by_col[c.col].push(i);
        }
        let mut level = vec![0usize; header.len()];
        let mut left = levels;
        // For column `col`, the lines it saves at each number of steps
        // more than it has (index 0: none).
        let saves = |level: &[usize], col: usize, left: usize| -> Vec<i64> {
            let from = level[col];
            let mut gains = vec![0i64; left + 1];
            for &i in &by_col[col] {
                if extra[i][from] == 0 {
                    continue;
                }
                let others = cells[i].row.map_or(0, |r| {
                    (by_row[r].iter())
                        .filter(|&&j| j != i)
                        .map(|&j| extra[j][level[cells[j].col]])
                        .max()
                        .unwrap_or(0)
                });
                let old = extra[i][from].max(others);
                for (ahead, gain) in gains.iter_mut().enumerate().skip(1) {
                    *gain += i64::from(old) - i64::from(extra[i][from + ahead].max(others));
                }
            }
            gains
        };
        loop {
            let mut best: Option<(usize, usize, f32)> = None;
            for col in 0..header.len() {
                for (ahead, gain) in saves(&level, col, left).into_iter().enumerate().skip(1) {
                    let rate = gain as f32 / ahead as f32;
                    if gain > 0 && best.is_none_or(|(_, _, r)| rate > r) {
                        best = Some((col, ahead, rate));
                    }
                }
            }
            let Some((col, ahead, _)) = best else { break };
            level[col] += ahead;
            left -= ahead;
        }
        let mut widths: Vec<f32> = (least.iter().zip(&level))
            .map(|(l, k)| l + *k as f32 * step)
            .collect();
        let room = total - widths.iter().sum::<f32>();
        let lack: Vec<f32> = (most.iter().zip(&widths))
            .map(|(m, w)| (m - w).max(0.0))
            .collect();
        let (weights, sum) = match lack.iter().sum::<f32>() {
            sum if sum > 0.0 => (lack, sum),
            _ => (widths.clone(), widths.iter().sum()),
        };
        for (w, weight) in widths.iter_mut().zip(&weights) {
            *w += room * weight / sum;
        }
        widths.iter().map(|w| w / total).collect()
    }
}

/// A cell of a [`NeGrid`] as its column's width sees it.
#[derive(Debug, Clone)]
struct WidthCell<'a> {
    col: usize,
    text: &'a str,
    bold: bool,
    /// The width of each of its words.
    words: Vec<f32>,
    /// The lines it takes at no cost: the rows it runs down.
    free: u16,
    /// The weapon row it is in (a row is as high as its highest cell).
    row: Option<usize>,
}

impl<'a> WidthCell<'a> {
    fn new(col: usize, text: &'a str, bold: bool, rows: usize, row: Option<usize>) -> WidthCell<'a> {
        WidthCell {
            col,
            text,
            bold,
            words: Vec::new(),
            free: u16::try_from(rows).unwrap_or(u16::MAX),
            row,
        }
    }

    /// The lines its words take wrapped at `width`, as the renderers
    /// wrap: greedily, a space between words.
    fn lines(&self, width: f32, space: f32) -> u16 {
        let mut lines: u16 = 1;
        let mut x: Option<f32> = None;
        for &w in &self.words {
            x = match x {
                Some(at) if at + space + w > width => {
                    lines = lines.saturating_add(1);
                    Some(w)
                }
                Some(at) => Some(at + space + w),
                None => Some(w),
            };
        }
        lines
    }
}

/// A unit card as a roster bought it (its weapons already chosen): the
/// source's faults about weapons it does not carry are left out, and when
/// the roster fields the unit in several ways, the card says how many of
/// `total` it stands for.
pub fn as_bought(card: &mut Card, share: Option<(usize, usize)>) {
    let names: Vec<String> = (card.weapons.rows.iter())
        .filter_map(|row| row.first().map(|c| c.text.clone()))
        .collect();
    let carried = |name: &str| {
        names
            .iter()
            .any(|w| w == name || w.starts_with(&format!("{name} (")))
    };
    for group in &mut card.groups {
        group.retain(|line| {
            line.key != Some(LineKey::SourceFault)
                || line.items.iter().all(|f| {
                    f.strip_prefix("weapon `")
                        .and_then(|rest| rest.split_once('`'))
                        .is_none_or(|(name, _)| carried(name))
                })
        });
    }
    if let Some((by, total)) = share {
        card.name = format!("{} ({by} of {total} as bought)", card.name);
    }
}

/// Marks the weapon rows `rows` (by name) of a card as carried `count`
/// times: `2× Gatling Blaster (carapace or arm)`.
pub fn times(card: &mut Card, rows: &[&String], count: u32) {
    for name in (card.weapons.rows.iter_mut())
        .filter_map(|row| row.first_mut())
        .filter(|c| rows.iter().any(|r| r.eq_ignore_ascii_case(&c.text)))
    {
        name.text = format!("{count}× {}", name.text);
    }
}

/// The glossary lines for what `units` use, in glossary order.
pub fn glossary_lines(glossary: Option<&Glossary>, units: &[&NeUnit]) -> Vec<GlossaryLine> {
    let ids = (units.iter().filter_map(|u| u.sheet()))
        .flat_map(|s| s.glossary_ids())
        .collect();
    card::glossary_lines(glossary, &ids)
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
fn kind(tags: &crate::catalogue::Tags) -> String {
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
        .filter(|t| tags.contains(t))
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
        let (break_points, victory_points, to_win) = match &army.game_facts {
            GameFacts::Cards(v) => {
                let mark = if v.incomplete { "+?" } else { "" };
                (
                    format!("{}{mark}", v.break_points),
                    format!("{}{mark}", v.victory_points),
                    Some(format!("{} (for {} points)", v.to_win, v.army_size)),
                )
            }
            GameFacts::Heresy(_) | GameFacts::None => ("?".to_string(), "?".to_string(), None),
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

    fn card(name: &str, stats: &[(StatKey, &str)], weapons: &[&str]) -> Card {
        Card {
            id: name.to_lowercase(),
            name: name.to_string(),
            kind: "Infantry".to_string(),
            kind_name: String::new(),
            look: Look::Unit,
            stats: stats.iter().map(|(k, v)| (*k, v.to_string())).collect(),
            weapons: WeaponTable {
                columns: WEAPON_COLUMNS.to_vec(),
                widths: Vec::new(),
                rows: weapons
                    .iter()
                    .map(|w| [*w, "50cm", "1d", "5+", "(0)", ""].map(Cell::new).to_vec())
                    .collect(),
            },
            no_weapons: None,
            groups: vec![vec![
                Line::one(LineKey::Abilities, "Elite"),
                Line::one(LineKey::SourceFault, "weapon `Bolters`: odd"),
            ]],
            missing_mark: NOT_IN_SOURCES,
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
                &[
                    (StatKey::PinningClass, "1"),
                    (StatKey::Move, "10cm"),
                    (StatKey::Save, "6+"),
                    (StatKey::Caf, "+1"),
                ],
                &["Bolters"],
            ),
            card(
                "Marines",
                &[
                    (StatKey::PinningClass, "1"),
                    (StatKey::Move, "10cm"),
                    (StatKey::Save, "5+"),
                    (StatKey::Caf, "+2"),
                    (StatKey::Morale, "2+"),
                ],
                &[],
            ),
        ];
        let grid = NeGrid::new(&cards);
        assert_eq!(
            grid.stats,
            [StatKey::Move, StatKey::Save, StatKey::Caf, StatKey::Morale]
        );
        assert_eq!(grid.header().len(), 1 + 4 + WEAPON_COLUMNS.len());
        // A card without a morale value leaves its cell empty.
        assert_eq!(grid.units[0].stats, ["10cm", "6+", "+1", ""]);
        assert_eq!(grid.units[1].stats, ["10cm", "5+", "+2", "2+"]);
        // The class and pinning class go on the line under the stats.
        assert_eq!(
            grid.units[0].notes,
            [
                (LineKey::Class, "Infantry".to_string()),
                (LineKey::PinningClass, "1".to_string()),
                (LineKey::Abilities, "Elite".to_string())
            ]
        );
        assert_eq!(grid.units[0].faults, ["weapon ‘Bolters’: odd"]);
        // A card without weapons still takes a row, and one for its line,
        // and one for each fault.
        assert_eq!((grid.units[1].weapon_rows(), grid.units[1].rows()), (1, 3));
    }

    #[test]
    fn every_column_gets_its_longest_word_and_the_widths_fill_the_line() {
        let mut cards: Vec<Card> = (0..10)
            .map(|i| card(&format!("Squad {i}"), &[(StatKey::Move, "10cm")], &["Bolters"]))
            .collect();
        cards.push(card(
            "Titan",
            &[(StatKey::Move, "not in the sources")],
            &["Gatling Blaster (carapace or arm)"],
        ));
        let grid = NeGrid::new(&cards);
        for total in [40.0, 60.0, 100.0, 300.0] {
            let widths = grid.widths(chars, total, 1.0);
            assert_eq!(widths.len(), grid.header().len());
            assert!((widths.iter().sum::<f32>() - 1.0).abs() < 1e-4, "{widths:?}");
            if total >= 60.0 {
                // Move: `sources`, and the padding.
                assert!(widths[1] * total >= 8.0 - 1e-3, "{widths:?} of {total}");
                // Weapon: `(carapace`, and the padding.
                assert!(widths[2] * total >= 10.0 - 1e-3, "{widths:?} of {total}");
            }
        }
        // With room to spare, every text is on one line.
        let widths = grid.widths(chars, 300.0, 1.0);
        assert!(
            widths[1] * 300.0 >= 19.0 && widths[2] * 300.0 >= 34.0,
            "{widths:?}"
        );
    }

    #[test]
    fn the_room_goes_where_it_saves_the_most_lines() {
        // Ten weapons whose range is missing, one with a long name: room
        // for only one of them to fit on a line goes to the ranges.
        let mut cards: Vec<Card> = (0..10)
            .map(|i| card(&format!("Squad {i}"), &[(StatKey::Move, "10cm")], &["Bolters"]))
            .collect();
        for c in &mut cards {
            c.weapons.rows[0][1].text = NOT_IN_SOURCES.to_string();
        }
        cards.push(card(
            "Tank",
            &[(StatKey::Move, "10cm")],
            &["Twin Linked Heavy Bolters"],
        ));
        let grid = NeGrid::new(&cards);
        let least: f32 = grid.header().iter().map(|h| chars(h, true) + 1.0).sum::<f32>() + 4.0;
        let total = least + 16.0;
        let widths: Vec<f32> = grid.widths(chars, total, 1.0).iter().map(|w| w * total).collect();
        assert!(widths[3] >= 19.0 - 1e-3, "the ranges fit: {widths:?}");
        assert!(widths[2] < 26.0, "the long name wraps: {widths:?}");
    }

    #[test]
    fn a_value_down_many_rows_wraps_at_no_cost() {
        // A titan's save down twenty weapon rows takes three lines rather
        // than widening its column for every unit.
        let weapons: Vec<String> = (0..20).map(|i| format!("Weapon {i} (carapace or arm)")).collect();
        let names: Vec<&str> = weapons.iter().map(String::as_str).collect();
        let cards = [
            card("Titan", &[(StatKey::Save, NOT_IN_SOURCES)], &names),
            card("Squad", &[(StatKey::Save, "5+")], &["Bolters"]),
        ];
        let grid = NeGrid::new(&cards);
        let total = 70.0;
        let widths: Vec<f32> = grid.widths(chars, total, 1.0).iter().map(|w| w * total).collect();
        assert!(widths[1] < 10.0, "the save wraps: {widths:?}");
        assert!(widths[2] >= 26.0 - 1e-3, "the weapons fit: {widths:?}");
    }
}
