//! Battlefleet Gothic views: ship cards (a ship datasheet in canonical
//! notation, as a `card::Card`) and the fleet part of a printed roster (ships with their
//! options and points, squadrons with their ships under them, the attack
//! rating). Plain strings, like `view`; both renderers read them.

use super::card::{
    self, Card, Cell, Column, GlossaryLine, Line, LineKey, Look, NOT_IN_SOURCES, StatKey, WeaponTable, raw,
    stat,
};
use crate::catalogue::glossary::Glossary;
use crate::catalogue::{ArmyList, Catalogue, Ship};
use crate::check::{ArmySummary, FormationSummary};

/// The weapon table's column widths (weapon, range or craft, firepower,
/// arc) as fractions of the text width: the same for every ship, in the
/// PDF and the HTML, so a sheet's columns line up from ship to ship.
pub const WEAPON_WIDTHS: [f32; 4] = [0.3, 0.38, 0.14, 0.18];

/// One weapon row: its name, its range (or, for a launch bay, the craft it
/// launches: the pack prints craft in that column too), firepower and arc.
fn weapon_row(name: String, range: String, craft: String, firepower: String, arc: String) -> Vec<Cell> {
    let reach = if range.is_empty() { craft } else { range };
    [name, reach, firepower, arc].map(Cell::new).to_vec()
}

/// One ship datasheet as a card, every value in canonical notation: its
/// hull after its name, then speed, turns, shields, armour and turrets.
pub fn card(ship: &Ship) -> Card {
    let data = &ship.data;
    let (hull, values, rows): (String, [String; 5], Vec<Vec<Cell>>) = match ship.sheet() {
        Some(s) => (
            stat(&s.hull),
            [
                stat(&s.speed),
                stat(&s.turns),
                stat(&s.shields),
                stat(&s.armour),
                stat(&s.turrets),
            ],
            s.weapons
                .iter()
                .map(|w| {
                    weapon_row(
                        w.name.to_string(),
                        w.range.as_ref().map(stat).unwrap_or_default(),
                        w.craft
                            .iter()
                            .map(crate::notation::ship::Craft::printed)
                            .collect::<Vec<_>>()
                            .join(", "),
                        stat(&w.strength),
                        w.arc.as_ref().map(stat).unwrap_or_default(),
                    )
                })
                .collect(),
        ),
        // Not parsed (the load reported why): the values as written.
        None => (
            raw(&data.hull),
            [
                &data.speed,
                &data.turns,
                &data.shields,
                &data.armour,
                &data.turrets,
            ]
            .map(raw),
            data.weapons
                .iter()
                .map(|w| {
                    weapon_row(
                        w.name.clone(),
                        w.range.as_ref().map(raw).unwrap_or_default(),
                        w.craft.join(", "),
                        raw(&w.firepower),
                        w.arc.as_ref().map(raw).unwrap_or_default(),
                    )
                })
                .collect(),
        ),
    };
    let keys = [
        StatKey::Speed,
        StatKey::Turns,
        StatKey::Shields,
        StatKey::Armour,
        StatKey::Turrets,
    ];
    // Every ship has weapons: none listed means the sources lost them.
    let no_weapons = rows
        .is_empty()
        .then(|| Line::one(LineKey::Weapons, NOT_IN_SOURCES));
    Card {
        id: data.id.clone(),
        name: data.name.clone(),
        kind: hull,
        kind_name: String::new(),
        look: Look::Ship,
        stats: keys.into_iter().zip(values).collect(),
        weapons: WeaponTable {
            columns: vec![
                Column::Weapon,
                Column::RangeOrCraft,
                Column::Firepower,
                Column::Arc,
            ],
            widths: WEAPON_WIDTHS.to_vec(),
            rows,
        },
        no_weapons,
        groups: vec![
            Line::listed(LineKey::Notes, data.notes.clone(), " "),
            Line::faults(&data.faults),
        ],
        missing_mark: NOT_IN_SOURCES,
    }
}

/// The glossary lines for what `ships` use, in glossary order.
pub fn glossary_lines(glossary: Option<&Glossary>, ships: &[&Ship]) -> Vec<GlossaryLine> {
    let ids = (ships.iter().filter_map(|s| s.sheet()))
        .flat_map(|s| s.glossary_ids())
        .collect();
    card::glossary_lines(glossary, &ids)
}

/// The ship datasheets of `ids` in `list`'s game, in that order, skipping
/// ids that name none.
pub fn ships<'c>(catalogue: &'c Catalogue, list: &ArmyList, ids: &[&str]) -> Vec<&'c Ship> {
    ids.iter()
        .filter_map(|id| catalogue.ship(list.game, id))
        .collect()
}

/// The fleet part of a printed roster.
#[derive(Debug, Clone)]
pub struct FleetView {
    /// The attack rating, or the words for a missing one; `None` in a game
    /// without one (Space Fleet).
    pub attack_rating: Option<String>,
    /// The list's figures for the fleet (a hive fleet's command cards).
    pub figures: Vec<(String, String)>,
    pub rows: Vec<FleetRow>,
}

/// A ship, a squadron, or a ship of a squadron (`member`).
#[derive(Debug, Clone)]
pub struct FleetRow {
    pub name: String,
    /// One box per hit (or damage point, or wound) to tick off at the
    /// table; empty for a squadron, or where the datasheet gives none.
    pub hits: String,
    pub options: String,
    /// A squadron's points are its ships' and its own.
    pub points: i64,
    pub squadron: bool,
    pub member: bool,
}

/// `☐☐☐☐☐ ☐☐☐` for 8 hits: boxes in fives, so they count at a glance.
pub fn hit_boxes(hits: u32) -> String {
    let mut out = String::new();
    for i in 0..hits.min(MAX_BOXES) {
        if i > 0 && i % 5 == 0 {
            out.push(' ');
        }
        out.push('\u{2610}');
    }
    if hits > MAX_BOXES {
        out.push_str(&format!(" +{}", hits - MAX_BOXES));
    }
    out
}

/// More boxes than any ship has would only fill the page.
const MAX_BOXES: u32 = 30;

impl FleetView {
    /// `hits` gives a ship's hits (or damage points) from its datasheet.
    pub fn new(army: &ArmySummary, hits: &dyn Fn(&FormationSummary) -> Option<u32>) -> FleetView {
        let boxes = |f: &FormationSummary| hits(f).map(hit_boxes).unwrap_or_default();
        let options = |f: &FormationSummary| super::counted_names(&f.upgrades);
        let mut rows = Vec::new();
        for (i, f) in army.formations.iter().enumerate() {
            if f.group.is_some() {
                continue;
            }
            if f.is_group {
                rows.push(FleetRow {
                    name: f.name.clone(),
                    hits: String::new(),
                    options: options(f),
                    points: army.points_of(i),
                    squadron: true,
                    member: false,
                });
                rows.extend(army.members(i).map(|m| FleetRow {
                    name: m.name.clone(),
                    hits: boxes(m),
                    options: options(m),
                    points: m.points,
                    squadron: false,
                    member: true,
                }));
            } else {
                rows.push(FleetRow {
                    name: f.name.clone(),
                    hits: boxes(f),
                    options: options(f),
                    points: f.points,
                    squadron: false,
                    member: false,
                });
            }
        }
        FleetView {
            attack_rating: (army.game.game().rating == Some(crate::games::Rating::Attack)).then(|| {
                army.attack_rating
                    .map_or_else(|| NOT_IN_SOURCES.to_string(), |r| r.to_string())
            }),
            figures: army
                .figures
                .iter()
                .map(|(name, value)| (name.clone(), value.to_string()))
                .collect(),
            rows,
        }
    }
}
