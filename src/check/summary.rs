//! An army's summary, as every output prints it: its forces, formations
//! with their points and facts, cards, titans, and what the game's own
//! rules add ([`GameFacts`]).

use crate::catalogue::{CardVp, Catalogue, GameId};
use crate::games::heresy::battlegroups::HeresyFacts;
use crate::games::netea::facts::{self, FormationFacts};
use crate::games::netepic::victory_points_of_cost;
use crate::resolve::Army;
use crate::source::{SourceFile, Span};
use crate::validate::Limit;

/// A formation as it appears in results.
#[derive(Debug, Clone)]
pub struct FormationSummary {
    pub name: String,
    pub id: String,
    pub points: i64,
    /// 1-based line of the roster entry.
    pub line: usize,
    /// Upgrades taken, with counts.
    pub upgrades: Vec<(String, u32)>,
    pub facts: FormationFacts,
    /// The group (squadron) it belongs to: an index into
    /// `ArmySummary::formations`.
    pub group: Option<usize>,
    /// Whether it is a group (a squadron) rather than a formation of its own.
    pub is_group: bool,
    /// The force it belongs to: an index into `ArmySummary::forces` (0 is
    /// the core army).
    pub force: usize,
    /// NetEpic Gold: the card's break point and victory points.
    pub card: Option<CardSummary>,
    /// NetEpic Gold: a card of several titans armed titan by titan, each
    /// line's titans (`Titan:` lines), in roster order.
    pub titans: Vec<TitanSummary>,
}

/// One line of titans of a card of several titans, armed alike.
#[derive(Debug, Clone)]
pub struct TitanSummary {
    pub count: u32,
    /// Weapons with counts.
    pub upgrades: Vec<(String, u32)>,
    /// The cost of one of them (rounded under the optional rule of titan
    /// battle groups).
    pub points: i64,
}

/// What breaking a card is worth; `None` where the sources lack it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardSummary {
    pub break_point: Option<u32>,
    pub victory_points: Option<u32>,
    /// A titan or praetorian bought with its weapons (victory points per
    /// 100 points): it has no break point, its victory points go to the
    /// enemy when it is destroyed (NetEpic Gold 6.1, step 4), whatever the
    /// catalogue's break point (0) says.
    pub broken_when_destroyed: bool,
}

/// One force of the army: the core army (first) or an allied force
/// (`Allies: <list>`).
#[derive(Debug, Clone)]
pub struct ForceSummary {
    pub list_id: String,
    pub list_name: String,
    pub points: i64,
    /// 1-based line of its `Army:` or `Allies:` line (0 when unwritten).
    pub line: usize,
    pub ally: bool,
}

/// The army's victory facts (NetEpic Gold, core rules 1.1): the sums of
/// its cards' break points and victory points, and the victory points a
/// player needs to win a game of its size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VictorySummary {
    pub break_points: u64,
    pub victory_points: u64,
    /// Some card's value is missing from the sources: the sums leave it out.
    pub incomplete: bool,
    pub to_win: u32,
    /// The army size the figure is for (the points limit, else the total).
    pub army_size: u32,
}

/// What a game's own rules add to an army's summary, one variant a kind
/// (`games::ruleset::Ruleset::facts`): every output matches on it.
#[derive(Debug, Clone)]
pub enum GameFacts {
    /// Nothing of the game's own: NetEA, Battlefleet Gothic, Space Fleet
    /// (and an allied force's part, before it joins the army).
    None,
    /// NetEpic Gold: the break points and victory points of the army's
    /// cards.
    Cards(VictorySummary),
    /// Heresy: battlegroups with their break points and victory points,
    /// objectives and the victory points needed.
    Heresy(HeresyFacts),
}

/// Points and facts of a resolved army.
#[derive(Debug, Clone)]
pub struct ArmySummary {
    pub total: i64,
    pub total_incomplete: bool,
    /// The points limit the roster was held to (its own, or the event's).
    pub limit: Option<u32>,
    pub game: GameId,
    pub strategy_rating: Option<u8>,
    /// Battlefleet Gothic: the fleet's attack rating.
    pub attack_rating: Option<u8>,
    /// The list's figures for this army (`figures` in the list file), by
    /// name: a Tyranid hive fleet's command cards.
    pub figures: Vec<(String, i64)>,
    /// The list's share rules as budgets (`validate::budgets`): made with
    /// the facts (`Wants::facts`), for the web builder's bars.
    pub budgets: Vec<crate::validate::Budget>,
    /// The scenario the roster was checked under, and its side.
    pub scenario: Option<ScenarioSummary>,
    pub formations: Vec<FormationSummary>,
    /// `Counts as:` declarations, model and target, as written.
    pub counts_as: Vec<(String, String)>,
    /// The core army and its allied forces, in roster order.
    pub forces: Vec<ForceSummary>,
    /// What the game's own rules add (its ruleset's facts).
    pub game_facts: GameFacts,
}

/// A scenario as results name it.
#[derive(Debug, Clone)]
pub struct ScenarioSummary {
    pub id: String,
    pub name: String,
    /// `attacker` or `defender`; `None` when the roster did not say.
    pub side: Option<&'static str>,
}

impl ArmySummary {
    /// The members of formation `i` when it is a group (a squadron's
    /// ships), in roster order; none otherwise.
    pub fn members(&self, i: usize) -> impl Iterator<Item = &FormationSummary> {
        self.formations.iter().filter(move |m| m.group == Some(i))
    }

    /// The points of formation `i` as a reader counts them: a group's are
    /// its own and its members' (a squadron is the sum of its ships), a
    /// formation's are its own. Every output prints this one figure.
    pub fn points_of(&self, i: usize) -> i64 {
        self.formations
            .get(i)
            .map_or(0, |f| f.points + self.members(i).map(|m| m.points).sum::<i64>())
    }
}

pub(crate) fn summary(
    file: &SourceFile,
    army: &Army<'_>,
    catalogue: &Catalogue,
    limit: Option<Limit>,
    army_line: Option<Span>,
    with_facts: bool,
) -> ArmySummary {
    let facts = if with_facts {
        facts::derive(army, catalogue)
    } else {
        facts::blank(army)
    };
    let line = |span: Option<Span>| span.map_or(0, |s| file.line_of(s.start));
    ArmySummary {
        forces: vec![ForceSummary {
            list_id: army.list.id.clone(),
            list_name: army.list.name.clone(),
            points: army.total,
            line: line(army_line),
            ally: false,
        }],
        total: army.total,
        total_incomplete: army.total_incomplete,
        limit: limit.map(|l| l.points),
        game: army.list.game,
        strategy_rating: facts.strategy_rating,
        attack_rating: crate::validate::attack_rating(army, limit),
        figures: crate::validate::figures(army, limit),
        budgets: if with_facts {
            crate::validate::budgets(army, limit.map(|l| l.points))
        } else {
            Vec::new()
        },
        scenario: None,
        formations: army
            .formations
            .iter()
            .zip(facts.formations)
            .map(|(f, facts)| {
                let formation = &army.list.formations[f.formation];
                FormationSummary {
                    name: formation.name.clone(),
                    id: formation.id.clone(),
                    points: f.points,
                    line: file.line_of(f.name_span.start),
                    upgrades: f
                        .upgrades
                        .iter()
                        .map(|t| (army.list.upgrades[t.upgrade].name.clone(), t.count))
                        .collect(),
                    facts,
                    group: f.group,
                    is_group: formation.group.is_some(),
                    force: 0,
                    titans: f
                        .parts
                        .iter()
                        .map(|t| TitanSummary {
                            count: t.count,
                            upgrades: t
                                .upgrades
                                .iter()
                                .map(|w| (army.list.upgrades[w.upgrade].name.clone(), w.count))
                                .collect(),
                            points: t.points,
                        })
                        .collect(),
                    card: formation.card.map(|card| CardSummary {
                        break_point: card.break_point,
                        victory_points: match card.victory_points {
                            CardVp::Fixed(n) => Some(n),
                            CardVp::Missing => None,
                            // Under the optional rule of titan battle
                            // groups each titan is worth its own cost.
                            CardVp::PerHundredPoints if f.priced_by_parts => Some(
                                f.parts
                                    .iter()
                                    .map(|t| victory_points_of_cost(t.points).saturating_mul(t.count))
                                    .fold(0, u32::saturating_add),
                            ),
                            CardVp::PerHundredPoints => Some(victory_points_of_cost(f.points)),
                        },
                        broken_when_destroyed: card.victory_points == CardVp::PerHundredPoints,
                    }),
                }
            })
            .collect(),
        counts_as: army
            .counts_as
            .iter()
            .map(|d| (d.model.value.clone(), d.target.value.clone()))
            .collect(),
        game_facts: GameFacts::None,
    }
}

pub(crate) fn summary_of_force(
    file: &SourceFile,
    army: &Army<'_>,
    catalogue: &Catalogue,
    limit: Option<Limit>,
    line: Span,
) -> ArmySummary {
    summary(file, army, catalogue, limit, Some(line), true)
}
