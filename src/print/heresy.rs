//! Heresy views: unit cards (a model's stat line in canonical notation,
//! its weapons, skills and notes) and a roster's battlegroups (models,
//! morale, break point, victory points) with the objectives and victory
//! points needed. Plain strings, like `view`; both renderers and `muster
//! explain` read them.

use super::card::{GlossaryLine, NOT_IN_SOURCES};
use crate::catalogue::glossary::Glossary;
use crate::catalogue::{ArmyList, Catalogue, HeresyUnit};
use crate::check::{ArmySummary, GameFacts};
use crate::notation::ship::Stat;
use std::collections::BTreeSet;
use std::fmt::Display;

/// The weapon table's column widths (fractions of the text width), the
/// same on every card of a sheet and in both renderers, so the columns line
/// up from unit to unit: Weapon, Range, Penetration, Firepower, Type, Mount.
pub const WEAPON_WIDTHS: [f32; 6] = [0.26, 0.14, 0.13, 0.12, 0.18, 0.17];

/// One Heresy datasheet, every value in canonical notation.
#[derive(Debug, Clone)]
pub struct HeresyCard {
    pub id: String,
    pub name: String,
    /// How it moves: `Foot`, `Tracked`.
    pub propulsion: String,
    /// The stat line in order: (`Move`, `10cm`), (`Morale`, `5/4/3`)...
    pub stats: Vec<(String, String)>,
    pub weapons: Vec<HeresyWeaponRow>,
    pub skills: Vec<String>,
    pub notes: Vec<String>,
    /// Roster crib sheets: how the roster fields it (`Tactical detachment: 6`).
    pub fielded: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct HeresyWeaponRow {
    pub name: String,
    pub range: String,
    pub penetration: String,
    pub firepower: String,
    pub weapon_type: String,
    pub mount: String,
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

impl HeresyCard {
    pub fn new(unit: &HeresyUnit) -> HeresyCard {
        let data = &unit.data;
        let mut stats: Vec<(String, String)> = Vec::new();
        let weapons;
        let propulsion;
        let skills;
        match unit.sheet() {
            Some(sheet) => {
                propulsion = stat(&sheet.propulsion);
                stats.push(("Move".into(), stat(&sheet.movement)));
                stats.push(("Armour".into(), stat(&sheet.armour)));
                stats.push(("Accuracy".into(), stat(&sheet.accuracy)));
                stats.push(("Assault".into(), stat(&sheet.assault)));
                stats.push(("Morale".into(), stat(&sheet.morale)));
                for (label, value) in [
                    ("Leadership", &sheet.leadership),
                    ("Mastery", &sheet.mastery),
                    ("Damage", &sheet.damage),
                ] {
                    if let Some(value) = value {
                        stats.push((label.into(), stat(value)));
                    }
                }
                weapons = sheet
                    .weapons
                    .iter()
                    .map(|w| HeresyWeaponRow {
                        name: w.name.clone(),
                        range: stat(&w.range),
                        penetration: stat(&w.penetration),
                        firepower: stat(&w.firepower),
                        weapon_type: stat(&w.weapon_type),
                        mount: w.mount.as_ref().map(stat).unwrap_or_default(),
                    })
                    .collect();
                skills = sheet.skills.iter().map(ToString::to_string).collect();
            }
            // A sheet that does not parse (only from a file nobody proved):
            // print it as written.
            None => {
                propulsion = raw(&data.propulsion);
                stats.push(("Move".into(), raw(&data.movement)));
                stats.push(("Armour".into(), raw(&data.armour)));
                stats.push(("Accuracy".into(), raw(&data.accuracy)));
                stats.push(("Assault".into(), raw(&data.assault)));
                stats.push(("Morale".into(), raw(&data.morale)));
                weapons = data
                    .weapons
                    .iter()
                    .map(|w| HeresyWeaponRow {
                        name: w.name.clone(),
                        range: raw(&w.range),
                        penetration: raw(&w.penetration),
                        firepower: raw(&w.firepower),
                        weapon_type: raw(&w.weapon_type),
                        mount: w.mount.as_ref().map(raw).unwrap_or_default(),
                    })
                    .collect();
                skills = data.skills.clone();
            }
        }
        HeresyCard {
            id: data.id.clone(),
            name: data.name.clone(),
            propulsion,
            stats,
            weapons,
            skills,
            notes: data.notes.clone(),
            fielded: Vec::new(),
        }
    }

    /// `Move 10cm · Armour 5 · Accuracy 7 · Assault 4 · Morale 7/6/4`.
    pub fn stats_line(&self) -> String {
        self.stats
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(" · ")
    }

    pub fn has_missing(&self) -> bool {
        self.stats.iter().any(|(_, v)| v == NOT_IN_SOURCES)
    }
}

/// The glossary lines for what `units` use, in glossary order.
pub fn glossary_lines(glossary: Option<&Glossary>, units: &[&HeresyUnit]) -> Vec<GlossaryLine> {
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
