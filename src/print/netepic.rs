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
                    ("Pinning class".to_string(), pinning),
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
