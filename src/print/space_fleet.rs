//! Space Fleet views: ship cards (a Space Fleet datasheet in canonical
//! notation, its weapon table with a dice column per range band, the
//! critical damage table, notes and the source's faults). Plain strings,
//! like `view`; both renderers and `muster explain` read them.

use super::card::{GlossaryLine, NOT_IN_SOURCES};
use crate::catalogue::glossary::Glossary;
use crate::catalogue::raw::Known;
use crate::catalogue::{ArmyList, Catalogue, SfShip};
use crate::notation::ship::Stat;
use std::collections::BTreeSet;
use std::fmt::Display;

/// One Space Fleet datasheet, every value in canonical notation.
#[derive(Debug, Clone)]
pub struct SfShipCard {
    pub name: String,
    /// The characteristics the sheet prints, in order: (`Speed`, `4`).
    pub stats: Vec<(String, String)>,
    /// The column heads of the dice: `1-6"`, `7-12"`, `12-24"`.
    pub bands: Vec<String>,
    pub weapons: Vec<SfWeaponRow>,
    /// The critical damage table, one line per roll.
    pub critical: Vec<String>,
    pub notes: Vec<String>,
    /// What the sources got wrong, so a reader knows why a value is missing.
    pub faults: Vec<String>,
}

/// One weapon row: a dice cell per range band of the sheet.
#[derive(Debug, Clone)]
pub struct SfWeaponRow {
    pub name: String,
    pub arc: String,
    pub dice: Vec<String>,
}

fn stat<T: Display>(value: &Stat<T>) -> String {
    value
        .known()
        .map_or_else(|| NOT_IN_SOURCES.to_string(), ToString::to_string)
}

fn raw(value: &Known<String>) -> String {
    value
        .value()
        .cloned()
        .unwrap_or_else(|| NOT_IN_SOURCES.to_string())
}

impl SfShipCard {
    pub fn new(ship: &SfShip) -> SfShipCard {
        let data = &ship.data;
        let labels = [
            "Speed",
            "Damage",
            "Wounds",
            "Command cards",
            "Points",
            "Squadrons",
            "Ships per squadron",
            "Shields",
        ];
        let (values, bands, weapons): (Vec<Option<String>>, Vec<String>, Vec<SfWeaponRow>) =
            match ship.sheet() {
                Some(s) => {
                    let bands: Vec<String> = match &s.bands {
                        Some(Stat::Known(b)) => b.0.iter().map(ToString::to_string).collect(),
                        Some(Stat::Missing) => vec![NOT_IN_SOURCES.to_string()],
                        None => Vec::new(),
                    };
                    let weapons = s
                        .weapons
                        .iter()
                        .map(|w| SfWeaponRow {
                            name: w.name.to_string(),
                            arc: stat(&w.arc),
                            dice: pad(
                                w.dice
                                    .known()
                                    .map_or_else(|| vec![NOT_IN_SOURCES.to_string()], |d| d.cells()),
                                bands.len(),
                            ),
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
                        weapons,
                    )
                }
                // Not parsed (the load reported why): the values as written.
                None => {
                    let bands: Vec<String> = data.bands.as_ref().map(raw).into_iter().collect();
                    let weapons = data
                        .weapons
                        .iter()
                        .map(|w| SfWeaponRow {
                            name: w.name.clone(),
                            arc: raw(&w.arc),
                            dice: pad(vec![raw(&w.dice)], bands.len()),
                        })
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
                        weapons,
                    )
                }
            };
        SfShipCard {
            name: data.name.clone(),
            stats: labels
                .iter()
                .zip(values)
                .filter_map(|(label, value)| value.map(|v| (label.to_string(), v)))
                .collect(),
            bands,
            weapons,
            critical: data.critical.clone(),
            notes: data.notes.clone(),
            faults: data.faults.clone(),
        }
    }

    /// `Speed 4 · Damage 8 · Points 100 · ...`.
    pub fn stats_line(&self) -> String {
        self.stats
            .iter()
            .map(|(label, value)| format!("{label} {value}"))
            .collect::<Vec<_>>()
            .join(" · ")
    }

    /// The weapon table's column widths as fractions of the text width
    /// (`weapon_widths` of its number of dice columns).
    pub fn widths(&self) -> Vec<f32> {
        weapon_widths(self.bands.len().max(1))
    }

    /// The weapon table's header: weapon, arc, then a column per band.
    pub fn header(&self) -> Vec<String> {
        let mut head = vec!["Weapon".to_string(), "Fire arc".to_string()];
        head.extend(self.bands.iter().cloned());
        if self.bands.is_empty() {
            head.push("Dice".to_string());
        }
        head
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
    let Some(glossary) = glossary else {
        return Vec::new();
    };
    let mut ids: BTreeSet<&str> = ships
        .iter()
        .filter_map(|s| s.sheet())
        .flat_map(|s| s.glossary_ids())
        .collect();
    if ships.iter().any(|s| !s.data.critical.is_empty()) {
        ids.insert("critical-damage");
    }
    glossary
        .entries_for(&ids)
        .into_iter()
        .map(GlossaryLine::from_entry)
        .collect()
}

/// The Space Fleet datasheets of `ids` in `list`'s game, in that order,
/// skipping ids that name none.
pub fn ships<'c>(catalogue: &'c Catalogue, list: &ArmyList, ids: &[&str]) -> Vec<&'c SfShip> {
    ids.iter()
        .filter_map(|id| catalogue.sf_ship(list.game, id))
        .collect()
}
