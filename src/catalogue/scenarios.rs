//! Scenarios: what a game's scenarios change in how forces are chosen
//! (`lists/<game>/scenarios.yaml`). Linking compiles each side's rules
//! against every loaded list of the game, so a check never parses a rule;
//! applying them to a roster is `crate::scenario`'s job. The look-ups that
//! `scenario` and `event` share (a scenario by name, the list of a game's
//! scenarios for a hint) are here, below both.
//!
//! The engine knows no scenario by name: a scenario is a points share of
//! the opponent's force, rules in the constraint language, list rules it
//! sets aside, and rules it declares unchecked, all data.

use super::locate::Positions;
use super::raw::{self, GameId, PointsShare, ScenarioFile};
use super::{Catalogue, Constraint, NotEnforced};
use crate::diagnostic::{Code, Diagnostic};
use crate::rules::{self, Item};
use crate::source::SourceFile;
use std::collections::HashMap;

/// The two sides a scenario's briefing names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    Attacker,
    Defender,
}

impl Side {
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Attacker => "attacker",
            Side::Defender => "defender",
        }
    }

    pub fn other(self) -> Side {
        match self {
            Side::Attacker => Side::Defender,
            Side::Defender => Side::Attacker,
        }
    }

    /// `attacker`, `Attacking`, `att`, `defence`...: the side a roster
    /// means, forgivingly; `None` when it is neither.
    pub fn parse(text: &str) -> Option<Side> {
        let word = super::names::normalize(text);
        let word = word.trim_start_matches("the ").trim();
        let starts = |prefixes: &[&str]| prefixes.iter().any(|p| word.starts_with(p));
        if (word.len() >= 3 && "attacker".starts_with(word)) || starts(&["attack"]) {
            Some(Side::Attacker)
        } else if (word.len() >= 3 && "defender".starts_with(word)) || starts(&["defend", "defenc", "defens"])
        {
            Some(Side::Defender)
        } else {
            None
        }
    }
}

/// One side's part of a scenario, compiled.
#[derive(Debug, Clone, Default)]
pub struct ScenarioSide {
    pub points: Option<PointsShare>,
    /// The side's rules, per list id.
    pub rules: HashMap<String, Vec<Constraint>>,
    /// Whether the side has rules at all (whatever lists are loaded).
    pub has_rules: bool,
    /// List constraint ids set aside for this side.
    pub waives: Vec<String>,
    pub not_enforced: Vec<NotEnforced>,
}

impl ScenarioSide {
    /// The side's rules as they apply to one list.
    pub fn rules_for(&self, list: &str) -> &[Constraint] {
        self.rules.get(list).map_or(&[], Vec::as_slice)
    }

    /// Whether the side has anything to check.
    pub fn asks_anything(&self) -> bool {
        self.points.is_some() || self.has_rules || !self.waives.is_empty() || !self.not_enforced.is_empty()
    }
}

/// One scenario of one game.
#[derive(Debug, Clone)]
pub struct Scenario {
    pub game: GameId,
    pub id: String,
    pub number: Option<u32>,
    pub name: String,
    pub aliases: Vec<String>,
    pub summary: String,
    pub attacker: ScenarioSide,
    pub defender: ScenarioSide,
    pub not_enforced: Vec<NotEnforced>,
}

impl Scenario {
    pub fn side(&self, side: Side) -> &ScenarioSide {
        match side {
            Side::Attacker => &self.attacker,
            Side::Defender => &self.defender,
        }
    }

    /// `Jump Point (scenario 1)`.
    pub fn title(&self) -> String {
        match self.number {
            Some(n) => format!("{} (scenario {n})", self.name),
            None => self.name.clone(),
        }
    }

    /// Every name a roster may use: id, name, aliases.
    pub fn all_names(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.id.as_str())
            .chain(std::iter::once(self.name.as_str()))
            .chain(self.aliases.iter().map(String::as_str))
    }

    /// Whether `written` names this scenario: any of its names with case,
    /// spacing and punctuation ignored, its number (`1`, `Scenario 1`,
    /// `#1`), or its number and name (`1. Jump Point`).
    pub fn is_named(&self, written: &str) -> bool {
        let key = scenario_key(written);
        if key.is_empty() {
            return false;
        }
        if let Some(n) = self.number {
            let number = n.to_string();
            if key == number {
                return true;
            }
            if let Some(rest) = key.strip_prefix(&number) {
                if self.all_names().any(|name| scenario_key(name) == rest) {
                    return true;
                }
            }
        }
        self.all_names().any(|name| scenario_key(name) == key)
    }
}

/// Letters and digits, lower case, without a leading word `scenario`.
fn scenario_key(text: &str) -> String {
    let compact: String = super::names::normalize(text)
        .chars()
        .filter(|c| c.is_alphanumeric())
        .collect();
    match compact.strip_prefix("scenario") {
        Some(rest) if !rest.is_empty() => rest.to_string(),
        _ => compact,
    }
}

/// What looking a scenario up found.
#[derive(Debug)]
pub enum ScenarioLookup<'c> {
    Found(&'c Scenario),
    /// A scenario of another game.
    OtherGame(&'c Scenario),
    /// Nothing; the nearest name of the game's scenarios, if any is close.
    NotFound(Option<String>),
}

impl Catalogue {
    /// The scenarios of a game, in file order.
    pub fn scenarios_of(&self, game: GameId) -> impl Iterator<Item = &Scenario> {
        self.scenarios.iter().filter(move |s| s.game == game)
    }

    /// A scenario named as a roster or an event writes it.
    pub fn find_scenario(&self, game: GameId, written: &str) -> ScenarioLookup<'_> {
        if let Some(s) = self.scenarios_of(game).find(|s| s.is_named(written)) {
            return ScenarioLookup::Found(s);
        }
        // A number names a scenario only in its own game.
        if let Some(s) = self
            .scenarios
            .iter()
            .find(|s| s.game != game && s.all_names().any(|n| scenario_key(n) == scenario_key(written)))
        {
            return ScenarioLookup::OtherGame(s);
        }
        let nearest = crate::diagnostic::nearest(written, self.scenarios_of(game).map(|s| s.name.as_str()))
            .map(str::to_string);
        ScenarioLookup::NotFound(nearest)
    }
}

/// "muster knows no Space Fleet scenario called `X`" or "... has no scenarios".
pub fn unknown_message(catalogue: &Catalogue, game: GameId, written: &str) -> String {
    if catalogue.scenarios_of(game).next().is_none() {
        format!(
            "muster knows no scenarios for {}, so `{written}` cannot be checked",
            game.title()
        )
    } else {
        format!("muster knows no {} scenario called `{written}`", game.title())
    }
}

/// The scenarios of a game, numbered, for a hint.
pub fn available(catalogue: &Catalogue, game: GameId) -> String {
    let names: Vec<String> = catalogue
        .scenarios_of(game)
        .map(|s| match s.number {
            Some(n) => format!("{n} {}", s.name),
            None => s.name.clone(),
        })
        .collect();
    if names.is_empty() {
        format!(
            "{} has no scenarios in muster; remove the `Scenario:` line",
            game.title()
        )
    } else {
        format!("the {} scenarios: {}", game.title(), names.join(", "))
    }
}

/// Adds the scenario files to the catalogue. `prove` (the file is being
/// proven, and every list is loaded) also checks that every id and tag a
/// rule names, and every constraint it waives, exists in some list of the
/// game.
pub(super) fn link(
    catalogue: &mut Catalogue,
    files: Vec<(ScenarioFile, SourceFile, bool)>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    for (file, source, prove) in files {
        let mut positions: Option<Positions> = None;
        let mut at = |pointer: &str| {
            positions
                .get_or_insert_with(|| Positions::of(source.text()))
                .span(&source, pointer)
        };
        let mut problems: Vec<(String, String)> = Vec::new();
        let lists: Vec<&super::ArmyList> = catalogue.lists.iter().filter(|l| l.game == file.game).collect();
        let mut scenarios = Vec::new();
        for (i, raw) in file.scenarios.iter().enumerate() {
            let base = format!("/scenarios/{i}");
            if file.scenarios[..i].iter().any(|s| s.id == raw.id) {
                problems.push((
                    format!("{base}/id"),
                    format!("scenario id `{}` is used twice", raw.id),
                ));
            }
            if let Some(n) = raw.number {
                if file.scenarios[..i].iter().any(|s| s.number == Some(n)) {
                    problems.push((
                        format!("{base}/number"),
                        format!("scenario number {n} is used twice"),
                    ));
                }
            }
            if raw.attacker.points.is_some() && raw.defender.points.is_some() {
                problems.push((
                    format!("{base}/defender/points"),
                    format!(
                        "scenario `{}` gives both sides a share of the other's points; give it to one side, the other builds to the agreed size",
                        raw.id
                    ),
                ));
            }
            let mut sides = Vec::new();
            for (name, side) in [("attacker", &raw.attacker), ("defender", &raw.defender)] {
                sides.push(link_side(
                    side,
                    &lists,
                    prove,
                    &format!("{base}/{name}"),
                    &raw.id,
                    &mut problems,
                ));
            }
            let defender = sides.pop().unwrap_or_default();
            let attacker = sides.pop().unwrap_or_default();
            scenarios.push(Scenario {
                game: file.game,
                id: raw.id.clone(),
                number: raw.number,
                name: raw.name.clone(),
                aliases: raw.aliases.clone(),
                summary: raw.summary.clone(),
                attacker,
                defender,
                not_enforced: raw.not_enforced.iter().map(not_enforced).collect(),
            });
        }
        for (pointer, message) in problems {
            diagnostics.push(Diagnostic::error(Code::ListData, message).at(&source, at(&pointer)));
        }
        // A later file for the same game (from --lists) replaces the
        // built-in one.
        catalogue.scenarios.retain(|s| s.game != file.game);
        catalogue.scenarios.extend(scenarios);
    }
}

fn not_enforced(raw: &raw::NotEnforced) -> NotEnforced {
    NotEnforced {
        id: raw.id.clone(),
        rule: raw.rule.clone(),
        why: raw.why.clone(),
        source: raw.source.clone(),
    }
}

fn link_side(
    side: &raw::ScenarioSide,
    lists: &[&super::ArmyList],
    prove: bool,
    base: &str,
    scenario: &str,
    problems: &mut Vec<(String, String)>,
) -> ScenarioSide {
    let mut rules: HashMap<String, Vec<Constraint>> = HashMap::new();
    // With no list of the game loaded and nothing to prove, a rule would
    // be parsed only to be dropped: a check of one roster loads one list,
    // yet every game's scenarios (built-in files, proven by the tests).
    let wanted = prove || !lists.is_empty();
    let compilers: Vec<_> = lists.iter().map(|list| list.foreign_rules()).collect();
    for (r, raw) in side.rules.iter().enumerate().filter(|_| wanted) {
        let pointer = format!("{base}/rules/{r}/rule");
        let cond = match rules::parse(&raw.rule) {
            Ok(cond) => cond,
            Err(e) => {
                problems.push((
                    pointer,
                    format!(
                        "rule `{}` of scenario `{scenario}` does not parse at column {}: {}",
                        raw.id,
                        e.span.start + 1,
                        e.message
                    ),
                ));
                continue;
            }
        };
        if prove {
            let mut items: Vec<Item> = cond
                .selectors()
                .into_iter()
                .flat_map(|s| s.items.iter().chain(&s.within).map(|(item, _)| item.clone()))
                .collect();
            items.extend(raw.applies_to.iter().filter_map(|text| rules::parse_item(text)));
            for item in &items {
                if !lists.iter().any(|list| list.knows_item(item)) {
                    let name = match item {
                        Item::Id(id) => format!("`{id}`"),
                        Item::Tag(tag) => format!("`tag:{tag}`"),
                        Item::Everything => "`*`".to_string(),
                    };
                    problems.push((
                        pointer.clone(),
                        format!(
                            "rule `{}` of scenario `{scenario}`: {name} names nothing in any list of the game",
                            raw.id
                        ),
                    ));
                }
            }
        }
        for (list, compiler) in lists.iter().zip(&compilers) {
            match compiler.compile(raw) {
                Ok(c) => rules.entry(list.id.clone()).or_default().push(c),
                Err(message) => problems.push((pointer.clone(), format!("{message} (for {})", list.name))),
            }
        }
    }
    if prove {
        for (w, id) in side.waives.iter().enumerate() {
            if !lists.iter().any(|l| l.constraints.iter().any(|c| &c.id == id)) {
                problems.push((
                    format!("{base}/waives/{w}"),
                    format!(
                        "scenario `{scenario}` waives `{id}`, which is no constraint of any list of the game"
                    ),
                ));
            }
        }
    }
    ScenarioSide {
        points: side.points,
        rules,
        has_rules: !side.rules.is_empty(),
        waives: side.waives.clone(),
        not_enforced: side.not_enforced.iter().map(not_enforced).collect(),
    }
}
