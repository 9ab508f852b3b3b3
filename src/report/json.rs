//! The JSON output of `muster check --format json`: part of the CLI
//! contract, with its schema in `schema/check-output.schema.json`. Fields
//! are only ever added.

use crate::check::{Checked, GameFacts};
use crate::diagnostic::Diagnostic;
use schemars::JsonSchema;
use serde::Serialize;

/// Everything `muster check --format json` prints.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CheckOutput {
    /// The muster version that produced the document.
    pub muster: String,
    /// The event the rosters were checked for (`--event`), if any.
    pub event: Option<String>,
    /// Whether every roster is legal.
    pub legal: bool,
    pub rosters: Vec<RosterReport>,
}

/// One roster's result.
#[derive(Debug, Serialize, JsonSchema)]
pub struct RosterReport {
    /// The path the roster was read from, or `<stdin>`.
    pub file: String,
    /// Game id (`netea`, `bfg`, ...); null when the army is unknown.
    pub game: Option<String>,
    /// Army list id; null when the roster names no known list.
    pub army: Option<String>,
    /// Version of the list the roster was checked against.
    pub version: Option<String>,
    /// The roster's total points (known costs only).
    pub points: Option<i64>,
    /// The roster's points limit.
    pub limit: Option<u32>,
    /// No errors.
    pub legal: bool,
    pub player: Option<String>,
    /// The army's strategy rating; null where the sources lack it.
    pub strategy_rating: Option<u8>,
    /// Battlefleet Gothic: the fleet's attack rating; null where the sources
    /// lack it or for other games.
    pub attack_rating: Option<u8>,
    /// Numbers the list works out from the army (a Space Fleet hive
    /// fleet's command cards); empty for most lists.
    pub figures: Vec<FigureReport>,
    /// The scenario the roster was checked under (Space Fleet), if any.
    pub scenario: Option<ScenarioReport>,
    pub formations: Vec<FormationReport>,
    /// `Counts as:` declarations.
    pub counts_as: Vec<CountsAsReport>,
    pub diagnostics: Vec<DiagnosticReport>,
    /// The army's Snapfire share link (from `chooser.html`); null when its
    /// list has no Snapfire counterpart or the army cannot be written as one.
    pub share: Option<String>,
    /// Heresy: battlegroups, objectives and victory points needed; absent
    /// for other games.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heresy: Option<HeresyReport>,
    /// The core army (first) and its allied forces (`Allies:` lines).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forces: Vec<ForceReport>,
    /// NetEpic Gold: the army's break points and victory points, and the
    /// victory points needed to win; absent for other games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub victory: Option<VictoryReport>,
}

/// What a Heresy roster tells its player beyond points.
#[derive(Debug, Serialize, JsonSchema)]
pub struct HeresyReport {
    pub battlegroups: Vec<BattlegroupReport>,
    /// Objectives on the table: one per full 1,000 points of the limit.
    pub objectives: Option<u32>,
    /// Table 7 at the points limit, one entry per lethality level.
    pub victory_points_needed: Vec<VpNeededReport>,
}

/// One battlegroup.
#[derive(Debug, Serialize, JsonSchema)]
pub struct BattlegroupReport {
    /// Its index in `formations`.
    pub formation: usize,
    /// 1-based line of the roster entry.
    pub line: usize,
    /// Models in its detachments.
    pub models: u32,
    /// Fresh morale of most of its models (the lowest on a tie); null when
    /// a datasheet lacks it.
    pub fresh_morale: Option<u32>,
    /// Models lost before it breaks: fresh morale x 10% of its models,
    /// rounded to the nearest.
    pub break_point: Option<u64>,
    /// Victory points for breaking it and for destroying it; null when a
    /// card lacks them.
    pub vp_broken: Option<u32>,
    pub vp_destroyed: Option<u32>,
}

/// The victory points needed at one lethality level.
#[derive(Debug, Serialize, JsonSchema)]
pub struct VpNeededReport {
    /// `minor contact`, `fully engaged` or `bloodbath`.
    pub level: String,
    pub victory_points: u32,
    /// The Table 7 row read does not follow the table's own steps.
    pub off_pattern: bool,
}

/// One force of the army.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ForceReport {
    /// Army list id.
    pub army: String,
    pub name: String,
    pub points: i64,
    /// 1-based line of its `Army:` or `Allies:` line.
    pub line: usize,
    pub ally: bool,
}

/// The army's victory facts (NetEpic Gold, core rules 1.1).
#[derive(Debug, Serialize, JsonSchema)]
pub struct VictoryReport {
    /// The sum of the cards' break points.
    pub break_points: u64,
    /// The sum of the cards' victory points: what the opponent earns by
    /// breaking every card.
    pub victory_points: u64,
    /// A card's value is missing from the sources and left out of the sums.
    pub incomplete: bool,
    /// Victory points a player needs to win a game of this size.
    pub to_win: u32,
    /// The army size `to_win` is for: the points limit, else the total.
    pub army_size: u32,
}

/// A card's break point and victory points (NetEpic Gold); null values are
/// missing from the sources.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CardReport {
    pub break_point: Option<u32>,
    pub victory_points: Option<u32>,
}

/// A scenario and the side the roster plays in it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ScenarioReport {
    pub id: String,
    pub name: String,
    /// `attacker` or `defender`; null when the roster does not say.
    pub side: Option<String>,
}

/// A number worked out from the army, with its name.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FigureReport {
    pub name: String,
    pub value: i64,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct CountsAsReport {
    pub model: String,
    pub target: String,
}

/// A yes/no answer with its reason.
#[derive(Debug, Serialize, JsonSchema)]
pub struct VerdictReport {
    /// `yes`, `if` (on a condition muster does not check), `no` or `unknown`.
    pub answer: String,
    pub reason: String,
}

impl From<&crate::games::netea::facts::Verdict> for VerdictReport {
    fn from(v: &crate::games::netea::facts::Verdict) -> VerdictReport {
        VerdictReport {
            answer: v.word().to_string(),
            reason: v.reason().to_string(),
        }
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct UpgradeReport {
    pub name: String,
    pub count: u32,
}

/// A formation's or a titan's upgrades, by name with their count.
fn upgrade_reports(upgrades: &[(String, u32)]) -> Vec<UpgradeReport> {
    upgrades
        .iter()
        .map(|(name, count)| UpgradeReport {
            name: name.clone(),
            count: *count,
        })
        .collect()
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct FormationReport {
    pub name: String,
    /// The formation's id in the list.
    pub id: String,
    pub points: i64,
    /// 1-based line of the roster entry.
    pub line: usize,
    pub upgrades: Vec<UpgradeReport>,
    /// Initiative rating such as `1+`; null where the sources lack it.
    pub initiative: Option<String>,
    /// Whether the formation may be set up as a garrison.
    pub garrison: VerdictReport,
    /// Whether the formation may be kept in reserve.
    pub reserve: VerdictReport,
    /// Units, war engines counted by damage capacity; null if unknown.
    pub strength: Option<i64>,
    /// Victory points the opponent scores for it in a tiebreak: in full, or half.
    pub vp_full: i64,
    pub vp_half: i64,
    /// The most expensive formation: the target of Break Their Spirit.
    pub break_their_spirit: bool,
    /// Whether this entry is a group (a squadron) whose members follow it.
    pub is_group: bool,
    /// The group (squadron) it belongs to: an index into `formations`.
    pub group: Option<usize>,
    /// The force it belongs to: an index into `forces` (0, the core army,
    /// when the roster has no allies, and then left out).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub force: usize,
    /// NetEpic Gold: the card's break point and victory points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<CardReport>,
    /// NetEpic Gold: a card of several titans armed titan by titan (its
    /// `Titan:` lines), in roster order; left out otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub titans: Vec<TitanReport>,
}

/// One `Titan:` line: how many titans it arms, their weapons and the cost
/// of one of them (rounded under the optional rule of titan battle groups).
#[derive(Debug, Serialize, JsonSchema)]
pub struct TitanReport {
    pub count: u32,
    pub upgrades: Vec<UpgradeReport>,
    pub points: i64,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct DiagnosticReport {
    /// Stable code, such as `list-rule` or `unknown-formation`.
    pub code: String,
    /// `error`, `warning` or `note`.
    pub severity: String,
    pub message: String,
    /// 1-based; null for findings about the whole file.
    pub line: Option<usize>,
    /// 1-based, in characters; null for findings about the whole file.
    pub column: Option<usize>,
    /// The list rule's id, for `list-rule` diagnostics.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// Where the rule comes from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provenance: Option<String>,
    /// The rule in the list's constraint language, with the values it
    /// compared: `count(x) <= 1` (here: 2 <= 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expression: Option<String>,
    /// A replacement that would fix it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
    /// Advice, possibly empty.
    pub hints: Vec<String>,
}

impl From<&Diagnostic> for DiagnosticReport {
    fn from(d: &Diagnostic) -> DiagnosticReport {
        let (line, column) = d.line_col().unzip();
        DiagnosticReport {
            code: d.code.as_str().to_string(),
            severity: d.severity.as_str().to_string(),
            message: d.message.clone(),
            line,
            column,
            rule: d.rule.as_ref().map(|r| r.id.clone()),
            provenance: d.rule.as_ref().map(|r| r.provenance.clone()),
            expression: d.rule.as_ref().and_then(|r| r.expression.clone()),
            fix: d.fix.clone(),
            hints: d.hints.clone(),
        }
    }
}

impl From<&Checked<'_>> for RosterReport {
    fn from(c: &Checked<'_>) -> RosterReport {
        RosterReport {
            file: c.name.clone(),
            game: c.list.map(|l| l.game.as_str().to_string()),
            army: c.list.map(|l| l.id.clone()),
            version: c.list.map(|l| l.version.clone()),
            points: c.army.as_ref().map(|a| a.total),
            limit: c.limit(),
            legal: c.legal(),
            player: c.header.player.as_ref().map(|p| p.value.clone()),
            strategy_rating: c.army.as_ref().and_then(|a| a.strategy_rating),
            attack_rating: c.army.as_ref().and_then(|a| a.attack_rating),
            figures: c
                .army
                .iter()
                .flat_map(|a| &a.figures)
                .map(|(name, value)| FigureReport {
                    name: name.clone(),
                    value: *value,
                })
                .collect(),
            scenario: c
                .army
                .as_ref()
                .and_then(|a| a.scenario.as_ref())
                .map(|s| ScenarioReport {
                    id: s.id.clone(),
                    name: s.name.clone(),
                    side: s.side.map(str::to_string),
                }),
            formations: c
                .army
                .iter()
                .flat_map(|a| &a.formations)
                .map(|f| FormationReport {
                    name: f.name.clone(),
                    id: f.id.clone(),
                    points: f.points,
                    line: f.line,
                    upgrades: upgrade_reports(&f.upgrades),
                    initiative: f.facts.initiative.clone(),
                    garrison: VerdictReport::from(&f.facts.garrison),
                    reserve: VerdictReport::from(&f.facts.reserve),
                    strength: f.facts.strength,
                    vp_full: f.facts.vp_full,
                    vp_half: f.facts.vp_half,
                    break_their_spirit: f.facts.break_their_spirit,
                    is_group: f.is_group,
                    group: f.group,
                    force: f.force,
                    card: f.card.map(|c| CardReport {
                        break_point: c.break_point,
                        victory_points: c.victory_points,
                    }),
                    titans: f
                        .titans
                        .iter()
                        .map(|t| TitanReport {
                            count: t.count,
                            upgrades: upgrade_reports(&t.upgrades),
                            points: t.points,
                        })
                        .collect(),
                })
                .collect(),
            counts_as: c
                .army
                .iter()
                .flat_map(|a| &a.counts_as)
                .map(|(model, target)| CountsAsReport {
                    model: model.clone(),
                    target: target.clone(),
                })
                .collect(),
            diagnostics: c.diagnostics.iter().map(DiagnosticReport::from).collect(),
            share: match &c.share {
                Some(Ok(shared)) => Some(shared.link.url(crate::import::snapfire::DEFAULT_BASE)),
                _ => None,
            },
            heresy: c.army.as_ref().and_then(|a| {
                let h = match &a.game_facts {
                    GameFacts::Heresy(h) => h,
                    GameFacts::Cards(_) | GameFacts::None => return None,
                };
                Some(HeresyReport {
                    battlegroups: h
                        .battlegroups
                        .iter()
                        .map(|b| BattlegroupReport {
                            formation: b.index,
                            line: a.formations.get(b.index).map_or(0, |f| f.line),
                            models: b.models,
                            fresh_morale: b.fresh_morale,
                            break_point: b.break_point,
                            vp_broken: b.vp_broken,
                            vp_destroyed: b.vp_destroyed,
                        })
                        .collect(),
                    objectives: h.objectives,
                    victory_points_needed: h
                        .vp_needed
                        .iter()
                        .map(|v| VpNeededReport {
                            level: v.level.name().to_string(),
                            victory_points: v.vp,
                            off_pattern: v.flagged,
                        })
                        .collect(),
                })
            }),
            // Printed only where a roster has allies, so other documents
            // are unchanged.
            forces: c
                .army
                .iter()
                .filter(|a| a.forces.len() > 1)
                .flat_map(|a| &a.forces)
                .map(|f| ForceReport {
                    army: f.list_id.clone(),
                    name: f.list_name.clone(),
                    points: f.points,
                    line: f.line,
                    ally: f.ally,
                })
                .collect(),
            victory: c
                .army
                .as_ref()
                .and_then(|a| match &a.game_facts {
                    GameFacts::Cards(v) => Some(*v),
                    GameFacts::Heresy(_) | GameFacts::None => None,
                })
                .map(|v| VictoryReport {
                    break_points: v.break_points,
                    victory_points: v.victory_points,
                    incomplete: v.incomplete,
                    to_win: v.to_win,
                    army_size: v.army_size,
                }),
        }
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl CheckOutput {
    pub fn new(results: &[Checked<'_>], event: Option<&crate::event::Event>) -> CheckOutput {
        CheckOutput {
            muster: env!("CARGO_PKG_VERSION").to_string(),
            event: event.map(|e| e.file.name.clone()),
            legal: results.iter().all(Checked::legal),
            rosters: results.iter().map(RosterReport::from).collect(),
        }
    }
}
