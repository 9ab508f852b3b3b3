//! Heresy's facts and checks over a resolved army: commanders over
//! battlegroups over detachments (`games::Game::battlegroups`).
//!
//! Facts: each battlegroup's models, morale (the fresh target number most
//! of its models share, the lowest on a tie), break point and victory
//! points for breaking and destroying it; the army's objectives and the
//! victory points needed at each lethality level (Table 7, rows that break
//! the table's own pattern flagged). The arithmetic is `games::heresy`'s;
//! this module gathers its inputs from the army and the datasheets.
//!
//! Checks the rule language cannot say: every battlegroup under a
//! commander, every detachment in a battlegroup, psychic cards no more
//! than a detachment's mastery levels.
//!
//! It never decides legality by itself beyond these diagnostics, and
//! answers `None` where a datasheet or a card's value is missing.

use crate::catalogue::{ArmyList, Catalogue};
use crate::diagnostic::{Code, Diagnostic};
use crate::games::heresy::{self, Lethality};
use crate::resolve::{Army, within};
use crate::source::SourceFile;

/// One battlegroup as a player needs it at the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Battlegroup {
    /// Index into `Army::formations` (and `ArmySummary::formations`).
    pub index: usize,
    /// Models in its detachments.
    pub models: u32,
    /// The battlegroup's fresh morale; `None` when a model's datasheet or
    /// morale is missing.
    pub fresh_morale: Option<u32>,
    /// Models lost before it breaks.
    pub break_point: Option<u64>,
    /// Victory points the enemy gets for breaking it and for destroying
    /// it (sums over its detachments' cards); `None` when a card lacks
    /// them.
    pub vp_broken: Option<u32>,
    pub vp_destroyed: Option<u32>,
}

/// The victory points needed at one lethality level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VpNeeded {
    pub level: Lethality,
    pub vp: u32,
    /// The Table 7 row read breaks the table's own pattern.
    pub flagged: bool,
}

/// Everything derived for a Heresy roster.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HeresyFacts {
    pub battlegroups: Vec<Battlegroup>,
    /// Objectives on the table at the points limit.
    pub objectives: Option<u32>,
    /// Table 7 at the points limit: minor contact, fully engaged, bloodbath.
    pub vp_needed: Vec<VpNeeded>,
}

fn tagged(list: &ArmyList, formation: usize, tag: &str) -> bool {
    list.formations
        .get(formation)
        .is_some_and(|f| f.tags.contains(tag))
}

/// The facts, for a game with battlegroups; `None` for other games.
pub fn derive(army: &Army<'_>, catalogue: &Catalogue, limit: Option<u32>) -> Option<HeresyFacts> {
    if !army.list.game.game().battlegroups {
        return None;
    }
    let list = army.list;
    let mut out = HeresyFacts::default();
    for (b, group) in army.formations.iter().enumerate() {
        if !tagged(list, group.formation, "battlegroup") {
            continue;
        }
        // Fresh morale -> models with it.
        let mut morale: Vec<(u32, u32)> = Vec::new();
        let mut models: u32 = 0;
        let mut known = true;
        let mut vp = Some((0u32, 0u32));
        for (i, f) in army.formations.iter().enumerate() {
            if i == b || !within(&army.formations, i, b) {
                continue;
            }
            let formation = &list.formations[f.formation];
            if formation.group.is_some() {
                continue;
            }
            vp = match (vp, formation.heresy_vp) {
                (Some((broken, destroyed)), Some(card)) => Some((
                    broken.saturating_add(card.broken),
                    destroyed.saturating_add(card.destroyed),
                )),
                _ => None,
            };
            for (u, &n) in f.units.iter().enumerate() {
                let Ok(n) = u32::try_from(n) else { continue };
                if n == 0 {
                    continue;
                }
                models = models.saturating_add(n);
                let fresh = list
                    .units
                    .get(u)
                    .and_then(|id| catalogue.heresy_unit(list.game, id))
                    .and_then(|unit| unit.sheet())
                    .and_then(|sheet| sheet.morale.known().map(|m| m.fresh));
                match fresh {
                    Some(fresh) => match morale.iter_mut().find(|(m, _)| *m == fresh) {
                        Some((_, count)) => *count = count.saturating_add(n),
                        None => morale.push((fresh, n)),
                    },
                    None => known = false,
                }
            }
        }
        // The most common value; the lowest of those tied.
        let fresh_morale = morale
            .iter()
            .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
            .map(|(m, _)| *m)
            .filter(|_| known);
        out.battlegroups.push(Battlegroup {
            index: b,
            models,
            fresh_morale,
            break_point: fresh_morale.map(|m| heresy::break_point(m, models)),
            vp_broken: vp.map(|v| v.0),
            vp_destroyed: vp.map(|v| v.1),
        });
    }
    if let Some(limit) = limit {
        out.objectives = Some(heresy::objectives(limit));
        out.vp_needed = Lethality::ALL
            .iter()
            .map(|&level| {
                let (vp, flagged) = heresy::victory_points_needed(limit, level);
                VpNeeded { level, vp, flagged }
            })
            .collect();
    }
    Some(out)
}

const COMMANDER_RULE: &str = "heresy-battlegroup-has-commander";
const DETACHMENT_RULE: &str = "heresy-detachment-in-battlegroup";
const PSYCHIC_RULE: &str = "heresy-psychic-cards";
/// MAK ordnance priced other than at half the battery's cost (a half
/// point up, `games::heresy::mak_cost`): a warning on the list's data,
/// where a roster takes it.
fn mak_price(file: &SourceFile, army: &Army<'_>, f: &crate::resolve::ArmyFormation) -> Vec<Diagnostic> {
    let list = army.list;
    let formation = &list.formations[f.formation];
    let Some(base) = formation.points.and_then(|p| u32::try_from(p).ok()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for taken in &f.upgrades {
        let upgrade = &list.upgrades[taken.upgrade];
        if !upgrade.tags.contains("ordnance") {
            continue;
        }
        let expected = heresy::mak_cost(base);
        let priced = match crate::resolve::offered_cost(list, f.formation, taken.upgrade) {
            Some(crate::catalogue::Cost::Each(n)) => *n,
            _ => continue,
        };
        if i64::from(priced) != i64::from(expected) {
            out.push(
                Diagnostic::warning(
                    Code::ListData,
                    format!(
                        "{} prices {} for the {} at {priced} points, but half the battery's {base} is {expected}",
                        list.name, upgrade.name, formation.name
                    ),
                )
                .at(file, taken.spans.last().copied().unwrap_or(f.name_span))
                .rule(
                    MAK_RULE,
                    "Heresy v2.0, Artillery ordnance: MAK raises a battery's cost by 50% (004 line 459); muster rounds a half point up",
                )
                .hint("the roster is priced as the list says; correct the list if it is a slip"),
            );
        }
    }
    out
}

const MAK_RULE: &str = "heresy-mak-ordnance";
const RESERVE_RULE: &str = "heresy-reserves";
const ATTACKER_RULE: &str = "heresy-attacker-twice";

/// The scenario, side and reserves of a roster: the scenario and side as
/// the shared scenario lookup found them (`crate::scenario::find`, from
/// `lists/heresy/scenarios.yaml` and the roster's `Scenario:` and `Side:`
/// or the event's `scenario`, which reports an unknown one), the header's
/// `Opponent points:`, and an upgrade tagged `reserve` on a commander or
/// battlegroup, which holds it and everything under it back.
pub fn check_scenario(
    file: &SourceFile,
    header: &crate::roster::Header,
    applied: Option<&crate::scenario::Applied<'_>>,
    army: &Army<'_>,
    limit: Option<u32>,
) -> Vec<Diagnostic> {
    use crate::catalogue::scenarios::Side as Played;
    use heresy::{Scenario, Side};
    let list = army.list;
    if !list.game.game().battlegroups {
        return Vec::new();
    }
    let mut out = Vec::new();
    let scenario = applied.and_then(|a| Scenario::from_id(&a.scenario.id));
    let side = match (applied.and_then(|a| a.side), &header.side) {
        (Some(played), _) if scenario == Some(Scenario::AttackAndDefend) => Some(match played {
            Played::Attacker => Side::Attacker,
            Played::Defender => Side::Defender,
        }),
        (Some(_), Some(s)) => {
            out.push(
                Diagnostic::warning(
                    Code::Scenario,
                    "a side is played only in Attack and defend; it is not checked",
                )
                .at(file, s.span)
                .hint("remove the line, or name the scenario with `Scenario: Attack and defend`"),
            );
            None
        }
        _ => None,
    };
    // Reserves: formations under a group that took a `reserve` upgrade.
    let held: Vec<usize> = army
        .formations
        .iter()
        .enumerate()
        .filter(|(_, f)| {
            f.upgrades
                .iter()
                .any(|t| list.upgrades[t.upgrade].tags.contains("reserve"))
        })
        .map(|(i, _)| i)
        .collect();
    if let Some(&first) = held.first() {
        let points: i64 = army
            .formations
            .iter()
            .enumerate()
            .filter(|(i, _)| held.iter().any(|&h| within(&army.formations, *i, h)))
            .map(|(_, f)| f.points)
            .sum();
        let span = army.formations[first].name_span;
        if scenario.is_some_and(|s| !s.allows_reserves(side)) {
            out.push(
                Diagnostic::error(
                    Code::ListRule,
                    "the defender of an attack and defend game keeps nothing in reserve",
                )
                .at(file, span)
                .rule(
                    RESERVE_RULE,
                    "Heresy v2.0, Attack and defend: the defender deploys the whole force (004 line 976)",
                ),
            );
        } else if limit.is_some() {
            // A quarter of the force fielded (reserves included), not of
            // the points limit: an army below its limit holds back less.
            let fielded = u32::try_from(army.total.max(0)).unwrap_or(u32::MAX);
            let most = heresy::reserve_limit(fielded);
            if points > i64::from(most) {
                out.push(
                    Diagnostic::error(
                        Code::ListRule,
                        format!(
                            "{points} points are held in reserve; at most {most} (25% of the {fielded} points fielded) may be"
                        ),
                    )
                    .at(file, span)
                    .rule(
                        RESERVE_RULE,
                        "Heresy v2.0, Set piece battle and Seize the objective: up to 25% of the force in reserve (004 lines 938 and 972)",
                    ),
                );
            }
        }
    }
    if let (Some(side), Some(limit)) = (side, limit) {
        match &header.opponent_points {
            Some(opponent) => {
                let (attacker, defender) = match side {
                    Side::Attacker => (limit, opponent.value),
                    Side::Defender => (opponent.value, limit),
                };
                if !heresy::attacker_points_ok(attacker, defender) {
                    out.push(
                        Diagnostic::error(
                            Code::ListRule,
                            format!(
                                "the attacker has {attacker} points against the defender's {defender}; it needs at least twice as many"
                            ),
                        )
                        .at(file, opponent.span)
                        .rule(
                            ATTACKER_RULE,
                            "Heresy v2.0, Attack and defend: the attacker has at least twice the defender's points (004 line 976)",
                        ),
                    );
                }
            }
            None => {
                if let Some(s) = &header.side {
                    out.push(
                        Diagnostic::note(
                            Code::Unchecked,
                            "the other side's points are not given; the attacker's twice the defender's is not checked",
                        )
                        .at(file, s.span)
                        .hint("add `Opponent points: N`"),
                    );
                }
            }
        }
    }
    out
}

/// The construction rules the rule language cannot say, for a game with
/// battlegroups.
pub fn check(file: &SourceFile, army: &Army<'_>, catalogue: &Catalogue) -> Vec<Diagnostic> {
    let list = army.list;
    if !list.game.game().battlegroups {
        return Vec::new();
    }
    let mut out = Vec::new();
    for f in &army.formations {
        let parent = f.group.and_then(|g| army.formations.get(g)).map(|g| g.formation);
        let formation = &list.formations[f.formation];
        // A line written without indentation; an indented one that its
        // group does not admit is reported by `resolve` already.
        let top_level = file.line_col(f.name_span.start).1 == 1;
        if tagged(list, f.formation, "battlegroup") && parent.is_none() && top_level {
            out.push(
                Diagnostic::error(
                    Code::ListRule,
                    format!("this {} has no commander", formation.name.to_lowercase()),
                )
                .at(file, f.name_span)
                .rule(
                    COMMANDER_RULE,
                    "Heresy v2.0, Basic army construction: every battlegroup starts with a commander (004 line 1092)",
                )
                .hint("indent it under a commander"),
            );
        }
        if tagged(list, f.formation, "detachment") && parent.is_none() && top_level {
            out.push(
                Diagnostic::error(
                    Code::ListRule,
                    format!("{} is in no battlegroup", formation.name),
                )
                .at(file, f.name_span)
                .rule(
                    DETACHMENT_RULE,
                    "Heresy v2.0, Basic army construction: detachments make up battlegroups (004 line 1096)",
                )
                .hint("indent it under a battlegroup, itself under a commander"),
            );
        }
        if formation.tags.contains("artillery") {
            out.extend(mak_price(file, army, f));
        }
        let cards: u32 = f
            .upgrades
            .iter()
            .filter(|t| list.upgrades[t.upgrade].tags.contains("psychic"))
            .map(|t| t.count)
            .sum();
        if cards == 0 {
            continue;
        }
        let mut mastery: Option<u32> = Some(0);
        for (u, &n) in f.units.iter().enumerate() {
            let Ok(n) = u32::try_from(n) else { continue };
            if n == 0 {
                continue;
            }
            let level = list
                .units
                .get(u)
                .and_then(|id| catalogue.heresy_unit(list.game, id))
                .and_then(|unit| unit.sheet())
                .map(|sheet| match &sheet.mastery {
                    None => Some(0),
                    Some(stat) => stat.known().copied(),
                });
            mastery = match (mastery, level.flatten()) {
                (Some(total), Some(level)) => Some(total.saturating_add(level.saturating_mul(n))),
                _ => None,
            };
        }
        let span = f
            .upgrades
            .iter()
            .filter(|t| list.upgrades[t.upgrade].tags.contains("psychic"))
            .flat_map(|t| t.spans.last())
            .last()
            .copied()
            .unwrap_or(f.name_span);
        match mastery {
            Some(levels) if cards > levels => out.push(
                Diagnostic::error(
                    Code::ListRule,
                    format!(
                        "{} draws {cards} psychic card{}, but its psykers have {levels} mastery level{}",
                        formation.name,
                        if cards == 1 { "" } else { "s" },
                        if levels == 1 { "" } else { "s" }
                    ),
                )
                .at(file, span)
                .rule(
                    PSYCHIC_RULE,
                    "Heresy v2.0, Psychic combat, Setup: one psychic card per mastery level",
                ),
            ),
            Some(_) => {}
            None => out.push(
                Diagnostic::warning(
                    Code::Unchecked,
                    format!(
                        "{}'s mastery level is missing from its datasheet; its psychic cards are not checked",
                        formation.name
                    ),
                )
                .at(file, span)
                .rule(PSYCHIC_RULE, "Heresy v2.0, Psychic combat, Setup"),
            ),
        }
    }
    out
}
