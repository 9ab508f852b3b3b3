//! Heresy views: unit cards (a model's stat line in canonical notation,
//! its weapons, skills and notes, as a `card::Card`) and a roster's battlegroups (models,
//! morale, break point, victory points) with the objectives and victory
//! points needed. Plain strings, like `view`; both renderers and `muster
//! explain` read them.

use super::card::{
    self, Card, Cell, Column, GlossaryLine, Line, LineKey, Look, NOT_IN_SOURCES, StatKey, WeaponTable, raw,
    stat,
};
use crate::catalogue::glossary::Glossary;
use crate::catalogue::{ArmyList, Catalogue, HeresyUnit};
use crate::check::{ArmySummary, GameFacts};

/// The weapon table's column widths (fractions of the text width), the
/// same on every card of a sheet and in both renderers, so the columns line
/// up from unit to unit: Weapon, Range, Penetration, Firepower, Type, Mount.
pub const WEAPON_WIDTHS: [f32; 6] = [0.26, 0.14, 0.13, 0.12, 0.18, 0.17];

/// The five values every Heresy stat line has, in order.
const KEYS: [StatKey; 5] = [
    StatKey::Move,
    StatKey::Armour,
    StatKey::Accuracy,
    StatKey::Assault,
    StatKey::Morale,
];

/// One Heresy datasheet as a card, every value in canonical notation: its
/// propulsion after its name, its stat line, weapons, skills and notes.
pub fn card(unit: &HeresyUnit) -> Card {
    let data = &unit.data;
    let (propulsion, stats, rows, skills) = match unit.sheet() {
        Some(sheet) => {
            let values = [
                stat(&sheet.movement),
                stat(&sheet.armour),
                stat(&sheet.accuracy),
                stat(&sheet.assault),
                stat(&sheet.morale),
            ];
            let mut stats: Vec<(StatKey, String)> = KEYS.into_iter().zip(values).collect();
            for (key, value) in [
                (StatKey::Leadership, &sheet.leadership),
                (StatKey::Mastery, &sheet.mastery),
                (StatKey::Damage, &sheet.damage),
            ] {
                if let Some(value) = value {
                    stats.push((key, stat(value)));
                }
            }
            let rows: Vec<Vec<Cell>> = sheet
                .weapons
                .iter()
                .map(|w| {
                    [
                        w.name.clone(),
                        stat(&w.range),
                        stat(&w.penetration),
                        stat(&w.firepower),
                        stat(&w.weapon_type),
                        w.mount.as_ref().map(stat).unwrap_or_default(),
                    ]
                    .map(Cell::new)
                    .to_vec()
                })
                .collect();
            (
                stat(&sheet.propulsion),
                stats,
                rows,
                sheet.skills.iter().map(ToString::to_string).collect(),
            )
        }
        // A sheet that does not parse (only from a file nobody proved):
        // print it as written.
        None => {
            let values = [
                &data.movement,
                &data.armour,
                &data.accuracy,
                &data.assault,
                &data.morale,
            ];
            let rows: Vec<Vec<Cell>> = data
                .weapons
                .iter()
                .map(|w| {
                    [
                        w.name.clone(),
                        raw(&w.range),
                        raw(&w.penetration),
                        raw(&w.firepower),
                        raw(&w.weapon_type),
                        w.mount.as_ref().map(raw).unwrap_or_default(),
                    ]
                    .map(Cell::new)
                    .to_vec()
                })
                .collect();
            (
                raw(&data.propulsion),
                KEYS.into_iter().zip(values.map(raw)).collect(),
                rows,
                data.skills.clone(),
            )
        }
    };
    Card {
        id: data.id.clone(),
        name: data.name.clone(),
        kind: propulsion,
        kind_name: String::new(),
        look: Look::Unit,
        stats,
        weapons: WeaponTable {
            columns: vec![
                Column::Weapon,
                Column::Range,
                Column::Penetration,
                Column::Firepower,
                Column::WeaponType,
                Column::Mount,
            ],
            widths: WEAPON_WIDTHS.to_vec(),
            rows,
        },
        no_weapons: None,
        groups: vec![
            Line::listed(LineKey::Skills, skills, ", "),
            data.notes.iter().cloned().map(Line::plain).collect(),
        ],
        missing_mark: NOT_IN_SOURCES,
    }
}

/// The glossary lines for what `units` use, in glossary order.
pub fn glossary_lines(glossary: Option<&Glossary>, units: &[&HeresyUnit]) -> Vec<GlossaryLine> {
    let ids = (units.iter().filter_map(|u| u.sheet()))
        .flat_map(|s| s.glossary_ids())
        .collect();
    card::glossary_lines(glossary, &ids)
}

/// The Heresy datasheets of `ids` in `list`'s game, in that order,
/// skipping ids that name none.
pub fn units<'c>(catalogue: &'c Catalogue, list: &ArmyList, ids: &[&str]) -> Vec<&'c HeresyUnit> {
    ids.iter()
        .filter_map(|id| catalogue.heresy_unit(list.game, id))
        .collect()
}

/// A roster's battlegroups, and the game's figures at its points limit.
#[derive(Debug, Clone)]
pub struct BattlegroupsView {
    pub rows: Vec<BattlegroupRow>,
    /// `Objectives: 3 (one per full 1,000 points)`, victory points needed.
    pub lines: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct BattlegroupRow {
    /// `Battlegroup (line 7), under Lord Commander`.
    pub name: String,
    pub models: String,
    pub morale: String,
    /// Models lost before it breaks.
    pub break_point: String,
    /// `35 / 70`: for breaking it, for destroying it.
    pub victory_points: String,
}

impl BattlegroupsView {
    pub fn new(army: &ArmySummary) -> Option<BattlegroupsView> {
        let heresy = match &army.game_facts {
            GameFacts::Heresy(heresy) => heresy,
            GameFacts::Cards(_) | GameFacts::None => return None,
        };
        let unknown = || "?".to_string();
        let rows = heresy
            .battlegroups
            .iter()
            .map(|bg| {
                let f = army.formations.get(bg.index);
                let commander = f
                    .and_then(|f| f.group)
                    .and_then(|g| army.formations.get(g))
                    .map(|c| format!(", under {}", c.name))
                    .unwrap_or_default();
                BattlegroupRow {
                    name: format!(
                        "{} (line {}){commander}",
                        f.map_or("Battlegroup", |f| f.name.as_str()),
                        f.map_or(0, |f| f.line)
                    ),
                    models: bg.models.to_string(),
                    morale: bg.fresh_morale.map_or_else(unknown, |m| m.to_string()),
                    break_point: bg.break_point.map_or_else(unknown, |m| m.to_string()),
                    victory_points: format!(
                        "{} / {}",
                        bg.vp_broken.map_or_else(unknown, |m| m.to_string()),
                        bg.vp_destroyed.map_or_else(unknown, |m| m.to_string())
                    ),
                }
            })
            .collect();
        let mut lines = Vec::new();
        if let Some(n) = heresy.objectives {
            lines.push(format!("Objectives: {n} (one per full 1,000 points)"));
        }
        if !heresy.vp_needed.is_empty() {
            let levels: Vec<String> = heresy
                .vp_needed
                .iter()
                .map(|v| {
                    format!(
                        "{} {}{}",
                        v.level.name(),
                        v.vp,
                        if v.flagged {
                            " (as printed, off the table's own steps)"
                        } else {
                            ""
                        }
                    )
                })
                .collect();
            lines.push(format!("Victory points to win: {}", levels.join(", ")));
        }
        Some(BattlegroupsView { rows, lines })
    }
}
