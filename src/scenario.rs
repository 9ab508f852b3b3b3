//! A scenario named by a roster (`Scenario:`, `Side:`, `Opponent points:`)
//! or by an event file (`scenario:`), applied to one roster: which scenario
//! and side it is, the side's points limit, the side's rules and the list
//! rules the scenario sets aside. `check` calls it; `validate` runs the
//! rules.
//!
//! A scenario that compares the two forces (the attacker spends half the
//! defender's points) is checked for one force from the other's points:
//! in an event, the event's `points` is the agreed size, which the side
//! without a share builds to, and the side with a share gets its share of
//! it; without an event, the roster gives `Opponent points:`.
//!
//! Game-agnostic: scenarios are data (`catalogue::scenarios`).

use crate::catalogue::raw::PointsShare;
use crate::catalogue::scenarios::{Scenario, ScenarioLookup, Side, available, unknown_message};
use crate::catalogue::{ArmyList, Catalogue, Constraint};
use crate::diagnostic::{Code, Diagnostic};
use crate::event::Event;
use crate::roster::Header;
use crate::source::{SourceFile, Span};
use crate::validate::Limit;

/// The scenario a roster is checked under, and its side.
#[derive(Debug, Clone, Copy)]
pub struct Applied<'c> {
    pub scenario: &'c Scenario,
    /// `None` when the scenario asks nothing of either side, or the roster
    /// did not say (already reported).
    pub side: Option<Side>,
    /// Where the side was written, else where the scenario was.
    pub span: Span,
}

impl<'c> Applied<'c> {
    /// The side's rules for one list.
    pub fn rules(&self, list: &ArmyList) -> &'c [Constraint] {
        match self.side {
            Some(side) => self.scenario.side(side).rules_for(&list.id),
            None => &[],
        }
    }

    /// The list constraints set aside for the side.
    pub fn waived(&self) -> &'c [String] {
        match self.side {
            Some(side) => &self.scenario.side(side).waives,
            None => &[],
        }
    }

    fn share(&self, side: Side) -> Option<PointsShare> {
        self.scenario.side(side).points
    }

    /// A side's points when the agreed size is `base`: its share of it if
    /// it has one, else `base`.
    pub fn points_at(&self, side: Side, base: u32) -> u32 {
        self.share(side).map_or(base, |s| share_of(s, base))
    }
}

/// `floor(points * times / per) + plus`, saturating.
pub fn share_of(share: PointsShare, points: u32) -> u32 {
    let value =
        u64::from(points) * u64::from(share.times) / u64::from(share.per.max(1)) + u64::from(share.plus);
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// `half the defender's points`, `twice ...`, `three-quarters of ...`,
/// `as much as ...`, with any extra points: `of` is what the share is of.
pub fn describe_share(share: PointsShare, of: &str) -> String {
    let base = match (share.times, share.per) {
        (1, 2) => format!("half {of}"),
        (2, 1) => format!("twice {of}"),
        (3, 4) => format!("three-quarters of {of}"),
        (t, p) if t == p => format!("as much as {of}"),
        (t, 1) => format!("{t} times {of}"),
        (t, p) => format!("{t}/{p} of {of}"),
    };
    match share.plus {
        0 => base,
        plus => format!("{base} plus {plus}"),
    }
}

/// Finds the scenario and side a roster is checked under, reporting what
/// is wrong with them. `None` when no scenario is named (or the named one
/// is unknown, which is reported).
pub fn find<'c>(
    catalogue: &'c Catalogue,
    file: &SourceFile,
    header: &Header,
    list: &ArmyList,
    event: Option<&Event>,
    army_span: Span,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Applied<'c>> {
    let from_event = event.and_then(|e| e.file.scenario.as_deref()).and_then(|name| {
        match catalogue.find_scenario(list.game, name) {
            ScenarioLookup::Found(s) => Some(s),
            _ => None,
        }
    });
    let scenario = match (from_event, &header.scenario) {
        (Some(s), Some(written)) => {
            if !s.is_named(&written.value) {
                diagnostics.push(
                    Diagnostic::error(
                        Code::Scenario,
                        format!(
                            "the event plays {}, but the roster names the scenario `{}`",
                            s.title(),
                            written.value
                        ),
                    )
                    .at(file, written.span)
                    .rule("event-scenario", "the event file's `scenario`")
                    .fix(format!("Scenario: {}", s.name)),
                );
            }
            s
        }
        (Some(s), None) => s,
        (None, Some(written)) => match lookup(catalogue, file, list, written.value.as_str(), written.span) {
            Ok(s) => s,
            Err(d) => {
                diagnostics.push(*d);
                return None;
            }
        },
        (None, None) => {
            for (key, span) in [
                ("Side", header.side.as_ref().map(|s| s.span)),
                ("Opponent points", header.opponent_points.as_ref().map(|p| p.span)),
            ] {
                if let Some(span) = span {
                    diagnostics.push(
                        Diagnostic::warning(
                            Code::Scenario,
                            format!("`{key}:` means something only in a scenario, and the roster names none"),
                        )
                        .at(file, span)
                        .hint("name the scenario with a line such as `Scenario: Jump Point`, or remove the line"),
                    );
                }
            }
            return None;
        }
    };
    let span = header
        .side
        .as_ref()
        .map(|s| s.span)
        .or(header.scenario.as_ref().map(|s| s.span))
        .unwrap_or(army_span);
    let asks = scenario.attacker.asks_anything() || scenario.defender.asks_anything();
    let side = match &header.side {
        Some(written) => match Side::parse(&written.value) {
            Some(side) => Some(side),
            None => {
                let mut d = Diagnostic::error(
                    Code::Scenario,
                    format!(
                        "`{}` is not a side: a scenario has an attacker and a defender",
                        written.value
                    ),
                )
                .at(file, written.span);
                if let Some(s) = crate::diagnostic::nearest(&written.value, ["attacker", "defender"]) {
                    d = d.label(format!("did you mean `{s}`?")).fix(format!("Side: {s}"));
                } else {
                    d = d.fix("Side: attacker");
                }
                diagnostics.push(d);
                None
            }
        },
        None if asks => {
            diagnostics.push(
                Diagnostic::error(
                    Code::Scenario,
                    format!(
                        "{} asks different things of the attacker and the defender: say which side this roster plays",
                        scenario.title()
                    ),
                )
                .at(file, header.scenario.as_ref().map_or(army_span, |s| s.span))
                .rule("scenario-side", "the scenario's briefing names an attacker and a defender")
                .fix("Side: attacker"),
            );
            None
        }
        None => None,
    };
    Some(Applied { scenario, side, span })
}

/// A scenario named in a roster, looked up in the list's game.
fn lookup<'c>(
    catalogue: &'c Catalogue,
    file: &SourceFile,
    list: &ArmyList,
    written: &str,
    span: Span,
) -> Result<&'c Scenario, Box<Diagnostic>> {
    match catalogue.find_scenario(list.game, written) {
        ScenarioLookup::Found(s) => Ok(s),
        ScenarioLookup::OtherGame(s) => Err(Box::new(
            Diagnostic::error(
                Code::Scenario,
                format!(
                    "`{written}` is a scenario of {}, and {} is a list of {}",
                    s.game.title(),
                    list.name,
                    list.game.title()
                ),
            )
            .at(file, span)
            .hint(available(catalogue, list.game)),
        )),
        ScenarioLookup::NotFound(nearest) => {
            let mut d = Diagnostic::error(Code::Scenario, unknown_message(catalogue, list.game, written))
                .at(file, span);
            if let Some(s) = nearest {
                d = d
                    .label(format!("did you mean `{s}`?"))
                    .fix(format!("Scenario: {s}"));
            }
            Err(Box::new(d.hint(available(catalogue, list.game))))
        }
    }
}

/// The points limit a roster is held to in a scenario without an event:
/// its own `Points:`, capped by its share of `Opponent points:` when its
/// side has one. Reports a `Points:` over the share, and a share that
/// cannot be checked for want of the opponent's points.
pub fn limit_without_event(
    applied: &Applied<'_>,
    file: &SourceFile,
    header: &Header,
    own: Option<Limit>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Limit> {
    let Some(side) = applied.side else { return own };
    let Some(share) = applied.share(side) else {
        return own;
    };
    let scenario = applied.scenario;
    let rule = format!(
        "{}: the {} spends {}",
        scenario.title(),
        side.as_str(),
        describe_share(share, &format!("the {}'s points", side.other().as_str()))
    );
    let Some(opponent) = &header.opponent_points else {
        diagnostics.push(
            Diagnostic::note(
                Code::Unchecked,
                format!("{rule}; the roster does not give the opponent's points, so this is not checked"),
            )
            .at(file, applied.span)
            .fix("add a line such as `Opponent points: 1000`"),
        );
        return own;
    };
    let cap = share_of(share, opponent.value);
    let explained = format!(
        "{rule}: at most {cap} against the {}'s {}",
        side.other().as_str(),
        opponent.value
    );
    match own {
        Some(own) if own.points > cap => {
            diagnostics.push(
                Diagnostic::error(
                    Code::ScenarioRule,
                    format!("the roster is built to {} points; {explained}", own.points),
                )
                .at(file, own.span.unwrap_or(applied.span))
                .also(file, opponent.span, "the opponent's points")
                .rule("scenario-points", scenario.title())
                .fix(format!("Points: {cap}")),
            );
            Some(Limit {
                points: cap,
                span: own.span,
                origin: own.origin,
            })
        }
        Some(own) => Some(own),
        None => {
            diagnostics.push(Diagnostic::note(Code::Scenario, explained).at(file, opponent.span));
            Some(Limit {
                points: cap,
                span: Some(opponent.span),
                origin: crate::validate::LimitOrigin::Roster,
            })
        }
    }
}

/// In an event with a scenario: the roster's `Opponent points:`, if it
/// gives them, must be what the event gives the other side.
pub fn opponent_in_event(
    applied: &Applied<'_>,
    file: &SourceFile,
    header: &Header,
    event: &Event,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let (Some(side), Some(opponent)) = (applied.side, &header.opponent_points) else {
        return;
    };
    let theirs = applied.points_at(side.other(), event.file.points);
    if opponent.value != theirs {
        diagnostics.push(
            Diagnostic::error(
                Code::Scenario,
                format!(
                    "in {} at {}, the {} has {theirs} points, but the roster gives the opponent {}",
                    applied.scenario.title(),
                    event.file.name,
                    side.other().as_str(),
                    opponent.value
                ),
            )
            .at(file, opponent.span)
            .rule("event-scenario", "the event file's `points` and `scenario`")
            .fix(format!("Opponent points: {theirs}")),
        );
    }
}

/// A note saying what the scenario changes for the roster's side, what it
/// sets aside and what muster does not check.
pub fn note(applied: &Applied<'_>, file: &SourceFile, list: &ArmyList) -> Diagnostic {
    let scenario = applied.scenario;
    let mut d = Diagnostic::note(
        Code::Scenario,
        match applied.side {
            Some(side) => format!("checked as the {} in {}", side.as_str(), scenario.title()),
            None => format!("checked for {}", scenario.title()),
        },
    )
    .at(file, applied.span)
    .hint(scenario.summary.clone());
    let waived: Vec<&String> = applied
        .waived()
        .iter()
        .filter(|id| list.constraints.iter().any(|c| &c.id == *id))
        .collect();
    if !waived.is_empty() {
        let ids: Vec<String> = waived.iter().map(|id| format!("`{id}`")).collect();
        let rules = if ids.len() == 1 { "rule" } else { "rules" };
        d = d.hint(format!(
            "the scenario sets aside the list's {rules} {}",
            ids.join(", ")
        ));
    }
    let side_rules = applied.side.map(|s| &scenario.side(s).not_enforced);
    for rule in scenario
        .not_enforced
        .iter()
        .chain(side_rules.into_iter().flatten())
    {
        d = d.hint(format!("not checked: {} ({})", rule.rule, rule.why));
    }
    d
}
