//! Epic (NetEA) views: unit cards (a datasheet in canonical notation, its
//! type, weapons with their notes spelt out, notes, critical hit and
//! remarks, as a `card::Card`) and the crib sheet's grid of them, with the
//! weapons several units share printed once. Plain strings, like `view`;
//! both renderers and `muster explain` read them.

use super::card::{self, Abbr, Card, Cell, Column, GlossaryLine, Line, LineKey, Look, StatKey, WeaponTable};
use crate::catalogue::glossary::Glossary;
use crate::catalogue::{Datasheet, UnitType};

/// Shown for a value the sources do not give.
const MISSING: &str = "?";

/// The characteristics a grid prints for each unit, after its name: its
/// type, then its stat line.
pub const STATS: [StatKey; 5] = [
    StatKey::Type,
    StatKey::Speed,
    StatKey::Armour,
    StatKey::Cc,
    StatKey::Ff,
];

/// The columns of an Epic weapons table.
pub const WEAPON_COLUMNS: [Column; 4] = [Column::Weapon, Column::Range, Column::Firepower, Column::Notes];

/// One weapon's row: name, range, firepower and its notes, each note with
/// its full name from the glossary where it has one.
fn weapon_row(name: String, range: String, firepower: String, notes: Vec<Abbr>) -> Vec<Cell> {
    let text = join(notes.iter().map(|n| n.text.clone()));
    let mut row = [name, range, firepower].map(Cell::new).to_vec();
    row.push(Cell {
        abbrs: notes,
        ..Cell::new(text)
    });
    row
}

/// One datasheet as a card, every value in canonical notation.
pub fn card(sheet: &Datasheet, glossary: Option<&Glossary>) -> Card {
    let title = |id: &str| {
        glossary
            .and_then(|g| g.entry(id))
            .map_or(String::new(), |e| e.name.clone())
    };
    let stat = |parsed: Option<String>, raw: &Option<String>| {
        parsed
            .or_else(|| raw.clone())
            .unwrap_or_else(|| MISSING.to_string())
    };
    let parsed = sheet.sheet();
    let rows = match parsed {
        Some(p) => p
            .weapons
            .iter()
            .map(|w| {
                let notes = (w.notes.iter())
                    .map(|n| {
                        let text = n.to_string();
                        let title = with_parameter(&title(n.glossary_id()), &text);
                        Abbr { text, title }
                    })
                    .collect();
                weapon_row(
                    w.name.to_string(),
                    w.range.to_string(),
                    w.firepower.to_string(),
                    notes,
                )
            })
            .collect(),
        None => (sheet.weapons.iter())
            .map(|w| {
                let notes = (w.notes.iter())
                    .map(|n| Abbr {
                        text: n.clone(),
                        title: String::new(),
                    })
                    .collect();
                weapon_row(w.name.clone(), w.range.clone(), w.firepower.clone(), notes)
            })
            .collect(),
    };
    let notes: Vec<String> = match parsed {
        Some(p) => p.notes.iter().map(ToString::to_string).collect(),
        None => sheet.notes.clone(),
    };
    let mut lines = Line::listed(LineKey::Notes, notes, ", ");
    if let Some(critical) = &sheet.critical_hit {
        lines.push(Line::one(LineKey::CriticalHit, critical.clone()));
    }
    lines.extend(sheet.remarks.iter().cloned().map(Line::plain));
    Card {
        id: sheet.id.clone(),
        name: sheet.name.clone(),
        kind: type_abbreviation(sheet.unit_type).to_string(),
        kind_name: type_name(sheet.unit_type).to_string(),
        look: Look::Unit,
        stats: vec![
            (
                StatKey::Speed,
                stat(parsed.and_then(|p| p.speed).map(|s| s.to_string()), &sheet.speed),
            ),
            (
                StatKey::Armour,
                stat(
                    parsed.and_then(|p| p.armour).map(|s| s.to_string()),
                    &sheet.armour,
                ),
            ),
            (
                StatKey::Cc,
                stat(parsed.and_then(|p| p.cc).map(|s| s.to_string()), &sheet.cc),
            ),
            (
                StatKey::Ff,
                stat(parsed.and_then(|p| p.ff).map(|s| s.to_string()), &sheet.ff),
            ),
        ],
        weapons: WeaponTable {
            columns: WEAPON_COLUMNS.to_vec(),
            widths: Vec::new(),
            rows,
        },
        no_weapons: None,
        groups: vec![lines],
        missing_mark: MISSING,
    }
}

/// A glossary name with its placeholder filled from the written note:
/// `Titan Killer (x)` and `TK(D3)` give `Titan Killer (D3)`; `TK` gives
/// `Titan Killer`.
fn with_parameter(name: &str, written: &str) -> String {
    let Some(open) = name.find('(') else {
        return name.to_string();
    };
    match written.find('(') {
        Some(at) => format!("{}{}", &name[..open], &written[at..]),
        None => name[..open].trim_end().to_string(),
    }
}

fn join(parts: impl Iterator<Item = String>) -> String {
    parts.collect::<Vec<_>>().join(", ")
}

pub fn type_abbreviation(t: UnitType) -> &'static str {
    match t {
        UnitType::Infantry => "INF",
        UnitType::LightVehicle => "LV",
        UnitType::ArmouredVehicle => "AV",
        UnitType::WarEngine => "WE",
        UnitType::Aircraft => "AC",
        UnitType::AircraftWarEngine => "AC/WE",
        UnitType::Spacecraft => "SC",
        UnitType::Character => "CH",
    }
}

pub fn type_name(t: UnitType) -> &'static str {
    match t {
        UnitType::Infantry => "Infantry",
        UnitType::LightVehicle => "Light Vehicle",
        UnitType::ArmouredVehicle => "Armoured Vehicle",
        UnitType::WarEngine => "War Engine",
        UnitType::Aircraft => "Aircraft",
        UnitType::AircraftWarEngine => "Aircraft / War Engine",
        UnitType::Spacecraft => "Spacecraft",
        UnitType::Character => "Character",
    }
}

/// The glossary lines for what `sheets` use, in glossary order.
pub fn glossary_lines(glossary: Option<&Glossary>, sheets: &[&Datasheet]) -> Vec<GlossaryLine> {
    let ids = sheets.iter().flat_map(|s| s.glossary_ids()).collect();
    card::glossary_lines(glossary, &ids)
}

/// A weapon row of a card: its cells, in `WEAPON_COLUMNS` order.
pub type Row = [Cell];

/// An Epic crib sheet laid out as one grid: the weapons several units
/// carry with the same profile, printed once, then each unit with its
/// other weapons in full and the shared ones by name. Built on demand from
/// the sheet's Epic cards, so both renderers lay out the same thing.
#[derive(Debug, Clone)]
pub struct CribGrid<'a> {
    /// The profile rows of the shared weapons, by name.
    pub shared: Vec<&'a Row>,
    pub units: Vec<GridUnit<'a>>,
}

/// One unit of a [`CribGrid`].
#[derive(Debug, Clone)]
pub struct GridUnit<'a> {
    pub card: &'a Card,
    /// Weapon rows printed in full: the weapons no other unit shares.
    pub own: Vec<&'a Row>,
    /// The shared weapons it carries, by name with their count:
    /// `Power Weapon, 2× Heavy Bolter`.
    pub shared: String,
    /// Notes, critical hit, remarks and what the roster fielded, one line
    /// each with its label (`Notes: `, `Critical hit: `, empty).
    pub lines: Vec<(String, String)>,
}

impl GridUnit<'_> {
    /// Rows the unit's weapons take (at least one, for its name and stats).
    pub fn weapon_rows(&self) -> usize {
        (self.own.len() + usize::from(!self.shared.is_empty())).max(1)
    }

    /// Rows the unit takes: its weapon rows, and one for its notes.
    pub fn rows(&self) -> usize {
        self.weapon_rows() + usize::from(!self.lines.is_empty())
    }
}

/// A weapon's name without the count in front: `2× Heavy Bolter` is
/// `Heavy Bolter`.
fn weapon_base_name(name: &str) -> &str {
    match name.split_once("× ") {
        Some((count, rest)) if !count.is_empty() && count.chars().all(|c| c.is_ascii_digit()) => rest,
        _ => name,
    }
}

/// A row's cell `col`'s text (empty past its end).
fn text(row: &Row, col: usize) -> &str {
    row.get(col).map_or("", |c| c.text.as_str())
}

/// A unit's weapons grouped by name, in order: a weapon with several
/// profile rows (a ranged and an assault one) is one group.
fn weapon_groups(card: &Card) -> Vec<(&str, Vec<&Row>)> {
    let mut groups: Vec<(&str, Vec<&Row>)> = Vec::new();
    for w in &card.weapons.rows {
        match groups.last_mut() {
            Some((name, rows)) if *name == text(w, 0) => rows.push(w),
            _ => groups.push((text(w, 0), vec![w])),
        }
    }
    groups
}

/// A weapon's rows as compared for sharing: range, firepower, notes and
/// whether a refit put or changed the row (a refitted row of one unit is
/// not the weapon another unit carries as written).
type Profile<'a> = Vec<(&'a str, &'a str, &'a str, bool)>;

fn profile<'a>(rows: &[&'a Row]) -> Profile<'a> {
    rows.iter()
        .map(|w| {
            let marked = w.first().is_some_and(|c| c.mark.is_some());
            (text(w, 1), text(w, 2), text(w, 3), marked)
        })
        .collect()
}

impl<'a> CribGrid<'a> {
    /// The Epic units as one grid. A weapon profile is shared when at
    /// least two datasheets carry it under one name (two cards of one
    /// datasheet, fielded with different refits, do not make a weapon
    /// shared: each prints its rows in full); when a name has two such
    /// profiles (one with an anti-aircraft value), only the one more units
    /// carry is shared, so `Shared: Twin Lascannon` always means one line
    /// of the shared table; the other profile prints in full under each
    /// unit.
    pub fn new(cards: &'a [Card]) -> CribGrid<'a> {
        // (base name, profile) -> the datasheets carrying it and its first
        // rows, in the order first seen.
        let mut seen: Vec<(&str, Profile<'_>, Vec<&str>, Vec<&Row>)> = Vec::new();
        for card in cards {
            for (name, rows) in weapon_groups(card) {
                let (base, p) = (weapon_base_name(name), profile(&rows));
                let at = match seen.iter().position(|(n, q, _, _)| *n == base && *q == p) {
                    Some(at) => at,
                    None => {
                        seen.push((base, p, Vec::new(), rows.clone()));
                        seen.len() - 1
                    }
                };
                if !seen[at].2.contains(&card.id.as_str()) {
                    seen[at].2.push(card.id.as_str());
                }
            }
        }
        // The shared profile of each name: carried by two units or more,
        // and by more units than any other profile of that name.
        let mut shared_at: Vec<usize> = Vec::new();
        for (at, (name, _, units, _)) in seen.iter().enumerate() {
            let best = seen
                .iter()
                .enumerate()
                .filter(|(_, (n, _, _, _))| n == name)
                .max_by_key(|(i, (_, _, u, _))| (u.len(), std::cmp::Reverse(*i)))
                .map(|(i, _)| i);
            if units.len() >= 2 && best == Some(at) {
                shared_at.push(at);
            }
        }
        shared_at.sort_by_key(|&at| seen[at].0.to_lowercase());
        let is_shared =
            |base: &str, p: &Profile<'_>| shared_at.iter().any(|&at| seen[at].0 == base && seen[at].1 == *p);
        let shared = shared_at
            .iter()
            .flat_map(|&at| seen[at].3.iter().copied())
            .collect();
        let units = cards
            .iter()
            .map(|card| {
                let mut own = Vec::new();
                let mut by_name = Vec::new();
                for (name, rows) in weapon_groups(card) {
                    if is_shared(weapon_base_name(name), &profile(&rows)) {
                        by_name.push(name);
                    } else {
                        own.extend(rows);
                    }
                }
                GridUnit {
                    card,
                    own,
                    shared: by_name.join(", "),
                    lines: card.lines().map(|l| (l.label(), l.text())).collect(),
                }
            })
            .collect();
        CribGrid { shared, units }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(id: &str, weapons: &[(&str, bool)]) -> Card {
        Card {
            id: id.into(),
            name: id.into(),
            kind: "AV".into(),
            kind_name: "Armoured Vehicle".into(),
            look: Look::Unit,
            stats: vec![
                (StatKey::Speed, "20cm".into()),
                (StatKey::Armour, "4+".into()),
                (StatKey::Cc, "6+".into()),
                (StatKey::Ff, "5+".into()),
            ],
            weapons: WeaponTable {
                columns: WEAPON_COLUMNS.to_vec(),
                widths: Vec::new(),
                rows: weapons
                    .iter()
                    .map(|&(name, refit)| {
                        let mut row = weapon_row(name.into(), "45cm".into(), "AT5+".into(), Vec::new());
                        row[0].mark = refit.then_some("upgrade");
                        row
                    })
                    .collect(),
            },
            no_weapons: None,
            groups: Vec::new(),
            missing_mark: MISSING,
        }
    }

    #[test]
    fn a_refit_row_is_not_the_plain_row_of_another_unit() {
        // Same name and profile, but one unit's row is a refit: both print
        // in full under their units, nothing is shared.
        let cards = [
            card("a", &[("Lascannon", true)]),
            card("b", &[("Lascannon", false)]),
        ];
        let grid = CribGrid::new(&cards);
        assert!(grid.shared.is_empty());
        assert!(grid.units.iter().all(|u| u.own.len() == 1 && u.shared.is_empty()));
        // Two plain rows of two datasheets are one shared weapon.
        let cards = [
            card("a", &[("Lascannon", false)]),
            card("b", &[("Lascannon", false)]),
        ];
        let grid = CribGrid::new(&cards);
        assert_eq!(grid.shared.len(), 1);
        assert!(
            grid.units
                .iter()
                .all(|u| u.own.is_empty() && u.shared == "Lascannon")
        );
        // Two refit rows of two datasheets are one shared weapon, tagged.
        let cards = [
            card("a", &[("Lascannon", true)]),
            card("b", &[("Lascannon", true)]),
        ];
        let grid = CribGrid::new(&cards);
        assert_eq!(grid.shared.len(), 1);
        assert_eq!(grid.shared[0][0].mark, Some("upgrade"));
    }

    #[test]
    fn two_cards_of_one_datasheet_share_nothing() {
        let cards = [
            card("a", &[("Lascannon", false)]),
            card("a", &[("Lascannon", false)]),
        ];
        let grid = CribGrid::new(&cards);
        assert!(grid.shared.is_empty());
        assert!(grid.units.iter().all(|u| u.own.len() == 1));
    }

    #[test]
    fn glossary_names_take_the_written_parameter() {
        assert_eq!(with_parameter("Titan Killer (x)", "TK(D3)"), "Titan Killer (D3)");
        assert_eq!(with_parameter("Titan Killer (x)", "TK"), "Titan Killer");
        assert_eq!(
            with_parameter("Extra Attacks (+x)", "EA(+1)"),
            "Extra Attacks (+1)"
        );
        assert_eq!(with_parameter("Macro-weapon", "MW"), "Macro-weapon");
    }
}
