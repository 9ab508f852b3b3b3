//! The header stages of a check: the army list the roster names, the
//! list's version, the optional rules, and the points limit the roster is
//! held to (the event's, the caller's, the roster's own or a scenario's).

use crate::catalogue::{ArmyList, Catalogue, GameId, ListLookup, names};
use crate::diagnostic::{Code, Diagnostic};
use crate::event::Event;
use crate::roster::{self, Header, Spanned};
use crate::source::{SourceFile, Span};
use crate::validate::{Limit, LimitOrigin};

/// The army list the roster's `Army:` line names, or the error that it
/// names none, several, or no list muster knows. A name that is part of
/// several lists' names (`Eldar`, `Imperial Guard`) is not guessed: the
/// error names them, only those of the roster's game when it is known
/// (the event's, or the one game whose lists know its entries).
pub(super) fn find_list<'c>(
    catalogue: &'c Catalogue,
    file: &SourceFile,
    parsed: &roster::Roster,
    event: Option<&Event>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<&'c ArmyList> {
    let Some(army) = &parsed.header.army else {
        let mut d = Diagnostic::error(
            Code::MissingArmy,
            "the roster does not say which army list it uses",
        )
        .at(file, file.line_span(1))
        .fix("add a first line such as `Army: Codex Astartes`");
        if parsed.entries.is_empty() {
            d = d.hint("this does not look like a roster: it has no army line and no formations");
        }
        diagnostics.push(d);
        return None;
    };
    match catalogue.lookup_list(&army.value) {
        ListLookup::Found(list) => Some(list),
        ListLookup::Ambiguous(lists) => {
            diagnostics.push(several_lists(file, army, &lists));
            None
        }
        ListLookup::NotFound(_) => {
            let game = event
                .map(|e| e.file.game)
                .or_else(|| game_of_entries(catalogue, parsed));
            let d = match catalogue.lists_with_words(&army.value, game).as_slice() {
                [] | [_] => unknown_list(catalogue, file, army, game),
                several => several_lists(file, army, several),
            };
            diagnostics.push(d);
            None
        }
    }
}

/// The error for an army name that could be any of `lists`: it asks
/// which, each candidate a hint.
fn several_lists(file: &SourceFile, army: &Spanned<String>, lists: &[&ArmyList]) -> Diagnostic {
    let names: Vec<&str> = lists.iter().map(|l| l.name.as_str()).collect();
    let games = lists.iter().any(|l| l.game != lists[0].game);
    let mut d = Diagnostic::error(
        Code::UnknownArmy,
        format!(
            "`{}` matches {} lists: {}",
            army.value,
            lists.len(),
            names.join(", ")
        ),
    )
    .at(file, army.span)
    .label("which one?");
    for list in lists {
        d = d.hint(if games {
            format!("`Army: {}` ({}, {})", list.name, list.id, list.game.game().title)
        } else {
            format!("`Army: {}` ({})", list.name, list.id)
        });
    }
    d.hint("write the list's full name or its id")
}

/// The error for an army name that names no list, with the nearest lists
/// (of `game` when it is known).
fn unknown_list(
    catalogue: &Catalogue,
    file: &SourceFile,
    army: &Spanned<String>,
    game: Option<GameId>,
) -> Diagnostic {
    let mut d = Diagnostic::error(
        Code::UnknownArmy,
        format!("muster knows no army list called `{}`", army.value),
    )
    .at(file, army.span);
    // The suggestion and the nearest lists from one pass.
    let (suggestion, nearest) = match game {
        Some(game) => catalogue.nearest_lists_of(&army.value, 3, game),
        None => catalogue.nearest_lists_memo(&army.value, 3),
    };
    if let Some(s) = suggestion {
        d = d.label(format!("did you mean `{s}`?")).fix(s);
    }
    if !nearest.is_empty() {
        d = d.hint(format!(
            "the nearest lists muster knows: {}",
            list_names(&nearest)
        ));
    }
    d.hint("`muster lists` shows every list muster knows")
}

/// The game whose lists know the most of the roster's entry names, when
/// one game alone does: evidence of the game of a roster whose army name
/// muster does not know.
fn game_of_entries(catalogue: &Catalogue, parsed: &roster::Roster) -> Option<GameId> {
    // How many of the entries each list knows, asked once per entry.
    let mut counts = vec![0usize; catalogue.lists.len()];
    for entry in &parsed.entries {
        for at in catalogue.lists_knowing_formation(&entry.item.name.value) {
            if let Some(n) = counts.get_mut(at) {
                *n += 1;
            }
        }
    }
    let mut known: Vec<(GameId, usize)> = Vec::new();
    for (list, &n) in catalogue.lists.iter().zip(&counts) {
        match known.iter_mut().find(|(g, _)| *g == list.game) {
            Some((_, most)) => *most = (*most).max(n),
            None => known.push((list.game, n)),
        }
    }
    known.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    match known.as_slice() {
        [(game, n), rest @ ..] if *n > 0 && rest.first().is_none_or(|(_, m)| m < n) => Some(*game),
        _ => None,
    }
}

/// The event a roster of `list` is held to: `None` when the event is for
/// another game, said here in one error at `span`. The event's other
/// checks (its points, versions, restrictions) would only give a roster of
/// another game fixes that do not fit it, so none of them is run.
pub(super) fn event_of_game<'e>(
    file: &SourceFile,
    event: Option<&'e Event>,
    list: &ArmyList,
    span: Span,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<&'e Event> {
    let event = event?;
    if event.file.game == list.game {
        return Some(event);
    }
    let game = list.game.game();
    diagnostics.push(
        Diagnostic::error(
            Code::EventRule,
            format!(
                "{} is for {}; this is a {} {}",
                event.file.name,
                event.file.game.game().title,
                game.title,
                if game.fleet { "fleet" } else { "army" }
            ),
        )
        .at(file, span)
        .rule("event-game", "the event file's `game`")
        .hint(format!(
            "the event's other checks are not run: bring a roster of {}, or check this one without the event",
            event.file.game.game().title
        )),
    );
    None
}

/// The error that an event does not allow `list`, at `span` (an `Army:`
/// or `Allies:` line).
pub(super) fn event_list(
    file: &SourceFile,
    event: Option<&Event>,
    list: &ArmyList,
    span: Span,
) -> Option<Diagnostic> {
    let event = event.filter(|e| !e.allows(list))?;
    Some(
        Diagnostic::error(
            Code::EventRule,
            format!(
                "{} is not one of the lists allowed at {}",
                list.name, event.file.name
            ),
        )
        .at(file, span)
        .rule("event-lists", "the event file's `lists`"),
    )
}

/// The limit the roster is held to, with a scenario's part in it (the
/// opponent's points in an event, the roster's side's points without
/// one, and the note that names the scenario), and the warning of a game
/// size outside the game's range.
pub(super) fn held_limit(
    file: &SourceFile,
    header: &Header,
    (event, given): (Option<&Event>, Option<u32>),
    scenario: Option<&crate::scenario::Applied<'_>>,
    list: &ArmyList,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Limit> {
    let army_span = header.army_line.unwrap_or_default();
    let mut limit = points_limit(file, header, (event, given), scenario, diagnostics);
    if let Some(applied) = scenario {
        match event {
            Some(event) => crate::scenario::opponent_in_event(applied, file, header, event, diagnostics),
            None => limit = crate::scenario::limit_without_event(applied, file, header, limit, diagnostics),
        }
        diagnostics.push(crate::scenario::note(applied, file, list));
    }
    if let Some(d) = points_range(file, list.game, limit, army_span) {
        diagnostics.push(d);
    }
    limit
}

/// The header's `Optional rules:` lines: each names an optional rule of
/// the list's game.
pub(super) fn optional_rules(file: &SourceFile, header: &Header, list: &ArmyList) -> Vec<Diagnostic> {
    let known = list.game.game().optional_rules;
    header
        .optional_rules
        .iter()
        .filter(|r| {
            !known
                .iter()
                .any(|k| crate::catalogue::names::same_thing(&r.value, k))
        })
        .map(|r| {
            let d = Diagnostic::error(
                Code::BadHeader,
                format!(
                    "{} has no optional rule called `{}`",
                    list.game.game().title,
                    r.value
                ),
            )
            .at(file, r.span);
            d.hint(list.game.game().optional_rules_hint())
        })
        .collect()
}

/// `Codex Astartes (codex-astartes), Imperial Fists (imperial-fists)`: lists
/// as a reader names them, with the id that picks one without doubt.
pub fn list_names(lists: &[&ArmyList]) -> String {
    lists
        .iter()
        .map(|l| format!("{} ({})", l.name, l.id))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A roster whose header names a list but that fields nothing: legal by
/// every limit of the list, and never what a player means to submit. Lines
/// the grammar could not read are reported already and are not counted as
/// nothing.
pub(super) fn no_entries(
    file: &SourceFile,
    parsed: &roster::Roster,
    list: &ArmyList,
    army_span: Span,
    diagnostics: &[Diagnostic],
) -> Option<Diagnostic> {
    if !parsed.entries.is_empty() || diagnostics.iter().any(|d| d.code == Code::ParseError) {
        return None;
    }
    let noun = list.game.entry_noun();
    Some(
        Diagnostic::error(
            Code::EmptyRoster,
            format!("the roster names {} but fields no {noun}", list.name),
        )
        .at(file, army_span)
        .hint(format!(
            "write one {noun} a line under the header; `muster new {}` prints a roster to start from",
            list.id
        )),
    )
}

/// Whether a version written in a roster names the list's version: the
/// same text, the same label, or the list's date inside it.
fn version_matches(list: &ArmyList, written: &str) -> bool {
    // Written as the list has it (nearly every roster): the same once
    // normalized, without normalizing.
    if written == list.version {
        return true;
    }
    let written = names::normalize(written);
    let version = names::normalize(&list.version);
    written == version
        || list
            .version_label
            .as_deref()
            .is_some_and(|label| names::normalize(label) == written)
        || written.contains(&version)
}

/// The version a roster names, against the list's and the event's.
pub(super) fn check_version(
    file: &SourceFile,
    header: &Header,
    list: &ArmyList,
    event: Option<&Event>,
    army_span: Span,
) -> Option<Diagnostic> {
    let allowed = event
        .and_then(|e| e.allowed(list))
        .map(|l| l.versions.as_slice())
        .filter(|v| !v.is_empty());
    let Some(version) = &header.version else {
        return Some(
            Diagnostic::note(
                Code::NoVersion,
                format!(
                    "the roster names no list version; it is checked against {} {}",
                    list.name,
                    list.version_text()
                ),
            )
            .at(file, army_span)
            .fix(format!("Army: {} ({})", list.name, list.version)),
        );
    };
    if let Some(allowed) = allowed {
        let ok = allowed.iter().any(|v| same_version(v, &version.value));
        if !ok {
            return Some(
                Diagnostic::error(
                    Code::VersionMismatch,
                    format!(
                        "the roster names version `{}`, but the event allows {} only in version {}",
                        version.value,
                        list.name,
                        allowed.join(" or ")
                    ),
                )
                .at(file, version.span)
                .rule("event-versions", "the event file's `lists` versions")
                .fix(format!("rebuild the roster for version {}", allowed.join(" or "))),
            );
        }
        return None;
    }
    if version_matches(list, &version.value) {
        return None;
    }
    if let Some(snapfire) = list.snapfire_version.as_deref()
        && names::normalize(snapfire) == names::normalize(&version.value)
    {
        return Some(
            Diagnostic::note(
                Code::VersionMismatch,
                format!(
                    "`{}` is Snapfire's version of {}; muster checks it against the tournament pack, {}",
                    version.value,
                    list.name,
                    list.version_text()
                ),
            )
            .at(file, version.span)
            .hint("where Snapfire's data is older than the pack, muster follows the pack"),
        );
    }
    Some(
        Diagnostic::warning(
            Code::VersionMismatch,
            format!(
                "the roster names version `{}`, but muster has {} version {}",
                version.value,
                list.name,
                list.version_text()
            ),
        )
        .at(file, version.span)
        .hint("the roster is checked against the version muster has"),
    )
}

fn same_version(a: &str, b: &str) -> bool {
    let (a, b) = (names::normalize(a), names::normalize(b));
    a == b || a.contains(&b) || b.contains(&a)
}

/// The limit the roster is held to: the event's, which the roster must
/// agree with when it states one; else the caller's `--points`; else the
/// roster's own; else, for a Snapfire export (whose title gives what the
/// force costs, not the game's size), one assumed from its total.
/// In an event with a scenario, the limit is the roster's side's points
/// at the event's size.
fn points_limit(
    file: &SourceFile,
    header: &Header,
    (event, given): (Option<&Event>, Option<u32>),
    scenario: Option<&crate::scenario::Applied<'_>>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Limit> {
    let own = header.points.as_ref().map(|p: &Spanned<u32>| Limit {
        points: p.value,
        span: Some(p.span),
        origin: LimitOrigin::Roster,
    });
    let Some(event) = event else {
        return match (given, own) {
            (Some(points), own) => Some(given_limit(file, points, own, diagnostics)),
            (None, Some(own)) => Some(own),
            (None, None) => assumed_limit(file, header, diagnostics),
        };
    };
    let (points, whose) = match scenario.and_then(|s| s.side.map(|side| (s, side))) {
        Some((applied, side)) => (
            applied.points_at(side, event.file.points),
            format!(" for the {}", side.as_str()),
        ),
        None => (event.file.points, String::new()),
    };
    if let Some(own) = &header.points {
        if own.value != points {
            diagnostics.push(
                Diagnostic::error(
                    Code::EventRule,
                    format!(
                        "{} is played at {points} points{whose}, but the roster is built to {}",
                        event.file.name, own.value
                    ),
                )
                .at(file, own.span)
                .rule("event-points", "the event file's `points`")
                .fix(format!("Points: {points}")),
            );
        }
    }
    Some(Limit {
        points,
        span: header.points.as_ref().map(|p| p.span),
        origin: LimitOrigin::Event,
    })
}

/// `--points N`: the limit for every roster; a roster that states another
/// is told which one counts.
fn given_limit(
    file: &SourceFile,
    points: u32,
    own: Option<Limit>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Limit {
    if let Some(own) = own.filter(|own| own.points != points) {
        diagnostics.push(
            Diagnostic::warning(
                Code::BadHeader,
                format!(
                    "the roster states a limit of {} points; it is checked at {points}, as `--points` asks",
                    own.points
                ),
            )
            .at(file, own.span.unwrap_or_default())
            .fix(format!("Points: {points}")),
        );
    }
    Limit {
        points,
        span: None,
        origin: LimitOrigin::Given,
    }
}

/// Game sizes are agreed in steps of this many points; a Snapfire export's
/// total is rounded up to the next step to guess the game it was built for.
pub const ASSUMED_STEP: u32 = 250;

/// A Snapfire export states what the force costs, not the game's size: the
/// limit is assumed to be that total rounded up to the next
/// [`ASSUMED_STEP`], and a note says so.
fn assumed_limit(file: &SourceFile, header: &Header, diagnostics: &mut Vec<Diagnostic>) -> Option<Limit> {
    let total = header.snapfire_total.as_ref()?;
    let points = total
        .value
        .div_ceil(ASSUMED_STEP)
        .max(1)
        .saturating_mul(ASSUMED_STEP);
    diagnostics.push(
        Diagnostic::note(
            Code::MissingPointsLimit,
            format!(
                "Snapfire's title gives what the force costs ({} points), not the game's size; muster assumes a {points}-point game",
                total.value
            ),
        )
        .at(file, total.span)
        .hint("give the game's size with `--points N` (or `--event`); per-points allowances and share limits depend on it"),
    );
    Some(Limit {
        points,
        span: Some(total.span),
        origin: LimitOrigin::Assumed,
    })
}

/// NetEA lists are balanced for 2,000-5,000 points (tournament rules 6.1.1).
fn points_range(
    file: &SourceFile,
    game: GameId,
    limit: Option<Limit>,
    army_span: Span,
) -> Option<Diagnostic> {
    let (low, high) = game.game().points_range?;
    let limit = limit?;
    (limit.points < low || limit.points > high).then(|| {
        Diagnostic::warning(
            Code::PointsRange,
            format!(
                "{} points is outside the {low}-{high} points the tournament lists are balanced for",
                limit.points
            ),
        )
        .at(file, limit.span.unwrap_or(army_span))
        .rule(
            "points-range",
            "NetEA tournament rules 6.1.1: armies of 2,000 to 5,000 points",
        )
        .hint("larger or smaller games may be unbalanced; the roster is still checked")
    })
}
