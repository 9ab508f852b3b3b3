//! Space Fleet views: ship cards (a Space Fleet datasheet in canonical
//! notation as a `card::Card`, its weapon table with a dice column per range band, the
//! critical damage table, notes and the source's faults). Plain strings,
//! like `view`; both renderers and `muster explain` read them.

use super::card::{
    self, Card, Cell, Column, GlossaryLine, Line, LineKey, Look, NOT_IN_SOURCES, StatKey, WeaponTable, raw,
    stat,
};
use crate::catalogue::glossary::Glossary;
use crate::catalogue::{ArmyList, Catalogue, SfShip};
use crate::notation::ship::Stat;
use std::collections::BTreeSet;

/// The characteristics a sheet may print, in order.
const KEYS: [StatKey; 8] = [
    StatKey::Speed,
    StatKey::Damage,
    StatKey::Wounds,
    StatKey::CommandCards,
    StatKey::Points,
    StatKey::Squadrons,
    StatKey::ShipsPerSquadron,
    StatKey::Shields,
];

/// One weapon row: name, fire arc, then a dice cell per range band.
fn weapon_row(name: String, arc: String, dice: Vec<String>, bands: usize) -> Vec<Cell> {
    let mut row = vec![Cell::new(name), Cell::new(arc)];
    row.extend(pad(dice, bands).into_iter().map(Cell::new));
    row
}

/// One Space Fleet datasheet as a card, every value in canonical notation:
/// the characteristics it prints, the weapon table with a dice column per
/// range band, the critical damage table, notes and the source's faults.
pub fn card(ship: &SfShip) -> Card {
    let data = &ship.data;
    let (values, bands, rows): (Vec<Option<String>>, Vec<String>, Vec<Vec<Cell>>) = match ship.sheet() {
        Some(s) => {
            let bands: Vec<String> = match &s.bands {
                Some(Stat::Known(b)) => b.0.iter().map(ToString::to_string).collect(),
                Some(Stat::Missing) => vec![NOT_IN_SOURCES.to_string()],
                None => Vec::new(),
            };
            let rows = s
                .weapons
                .iter()
                .map(|w| {
                    let dice = w
                        .dice
                        .known()
                        .map_or_else(|| vec![NOT_IN_SOURCES.to_string()], |d| d.cells());
                    weapon_row(w.name.to_string(), stat(&w.arc), dice, bands.len())
                })
                .collect();
            (
                vec![
                    s.speed.as_ref().map(stat),
                    s.damage.as_ref().map(stat),
                    s.wounds.as_ref().map(stat),
                    s.command_cards.as_ref().map(stat),
                    s.points.as_ref().map(stat),
                    s.squadrons.as_ref().map(stat),
                    s.ships.as_ref().map(stat),
                    s.shields.as_ref().map(stat),
                ],
                bands,
                rows,
            )
        }
        // Not parsed (the load reported why): the values as written.
        None => {
            let bands: Vec<String> = data.bands.as_ref().map(raw).into_iter().collect();
            let rows = data
                .weapons
                .iter()
                .map(|w| weapon_row(w.name.clone(), raw(&w.arc), vec![raw(&w.dice)], bands.len()))
                .collect();
            (
                vec![
                    data.speed.as_ref().map(raw),
                    data.damage.as_ref().map(raw),
                    data.wounds.as_ref().map(raw),
                    data.command_cards.as_ref().map(raw),
                    data.points.as_ref().map(raw),
                    data.squadrons.as_ref().map(raw),
                    data.ships.as_ref().map(raw),
                    data.shields.as_ref().map(raw),
                ],
                bands,
                rows,
            )
        }
    };
    // The weapon table's header: weapon, arc, then a column per band.
    let mut columns = vec![Column::Weapon, Column::FireArc];
    if bands.is_empty() {
        columns.push(Column::Dice);
    }
    columns.extend(bands.iter().cloned().map(Column::Band));
    Card {
        id: data.id.clone(),
        name: data.name.clone(),
        kind: String::new(),
        kind_name: String::new(),
        look: Look::Ship,
        stats: KEYS
            .into_iter()
            .zip(values)
            .filter_map(|(key, value)| value.map(|v| (key, v)))
            .collect(),
        weapons: WeaponTable {
            columns,
            widths: weapon_widths(bands.len().max(1)),
            rows,
        },
        no_weapons: None,
        groups: vec![
            Line::listed(LineKey::CriticalDamage, data.critical.clone(), "; "),
            Line::listed(LineKey::Notes, data.notes.clone(), " "),
            Line::faults(&data.faults),
        ],
        missing_mark: NOT_IN_SOURCES,
    }
}

/// A weapon table's column widths for `dice` dice columns, as fractions
/// of the text width: weapon and fire arc the same on every ship, the dice
/// sharing the rest evenly, so every ship's first dice column starts at
/// the same place and ships with as many bands line up column for column
/// (in the PDF and the HTML alike).
pub fn weapon_widths(dice: usize) -> Vec<f32> {
    let dice = dice.max(1);
    let mut widths = vec![0.28, 0.22];
    widths.extend(std::iter::repeat_n(0.5 / dice as f32, dice));
    widths
}

/// Cells padded with blanks to one per band (a `Special` weapon has one).
fn pad(mut cells: Vec<String>, bands: usize) -> Vec<String> {
    while cells.len() < bands {
        cells.push(String::new());
    }
    cells
}

/// The glossary lines for what `ships` use, in glossary order.
pub fn glossary_lines(glossary: Option<&Glossary>, ships: &[&SfShip]) -> Vec<GlossaryLine> {
    let mut ids: BTreeSet<&str> = (ships.iter().filter_map(|s| s.sheet()))
        .flat_map(|s| s.glossary_ids())
        .collect();
    if ships.iter().any(|s| !s.data.critical.is_empty()) {
        ids.insert("critical-damage");
    }
    card::glossary_lines(glossary, &ids)
}

/// The Space Fleet datasheets of `ids` in `list`'s game, in that order,
/// skipping ids that name none.
pub fn ships<'c>(catalogue: &'c Catalogue, list: &ArmyList, ids: &[&str]) -> Vec<&'c SfShip> {
    ids.iter()
        .filter_map(|id| catalogue.sf_ship(list.game, id))
        .collect()
}
