//! The forces of a roster: the core army (the entries before the first
//! `Allies:` line) and each allied force, resolved and validated against
//! its own list, its formations added to the army's summary, and the
//! points limit over the forces together. Which lists may ally is the
//! game's (its ruleset's `check_forces`).

use super::header::{check_version, event_list, list_names};
use super::summary::{ArmySummary, ForceSummary, summary_of_force};
use crate::catalogue::{ArmyList, Catalogue, ListLookup};
use crate::diagnostic::{Code, Diagnostic};
use crate::event::Event;
use crate::games::registry::ruleset;
use crate::resolve::resolve;
use crate::roster;
use crate::source::{SourceFile, Span};
use crate::validate::{Limit, validate};

/// The most allied forces a roster is checked with (`Allies:` lines).
pub const MAX_ALLIED_FORCES: usize = 8;

/// The part of a roster that is one force: the core army (`ally: None`,
/// the entries before the first `Allies:` line) or allied force `i`, whose
/// header is its `Allies:` line. Counts-as declarations stay with the core.
pub(super) fn force_roster(parsed: &roster::Roster, ally: Option<usize>) -> roster::Roster {
    let allies = &parsed.header.allies;
    let end_of = |i: usize| allies.get(i).map_or(parsed.entries.len(), |a| a.first);
    let (start, end) = match ally {
        None => (0, end_of(0)),
        Some(i) => (end_of(i), end_of(i + 1)),
    };
    let entries = parsed
        .entries
        .get(start..end.max(start))
        .unwrap_or_default()
        .to_vec();
    // Built field by field: cloning the whole header would copy every
    // `Allies:` line once per force (quadratic in a hostile roster).
    let h = &parsed.header;
    let mut header = roster::Header {
        army: h.army.clone(),
        version: h.version.clone(),
        points: h.points.clone(),
        snapfire_total: h.snapfire_total.clone(),
        player: h.player.clone(),
        event: h.event.clone(),
        title: h.title.clone(),
        army_line: h.army_line,
        allies: Vec::new(),
        scenario: h.scenario.clone(),
        side: h.side.clone(),
        opponent_points: h.opponent_points.clone(),
        optional_rules: h.optional_rules.clone(),
    };
    let mut counts_as = Vec::new();
    match ally.and_then(|i| allies.get(i)) {
        Some(a) => {
            header.army = Some(a.army.clone());
            header.version = a.version.clone();
            header.army_line = Some(a.line);
        }
        None => counts_as.clone_from(&parsed.counts_as),
    }
    roster::Roster {
        file: parsed.file.clone(),
        dialect: parsed.dialect,
        header,
        entries,
        counts_as,
    }
}

/// The allied forces of a roster (`Allies: <list>` lines): each resolved
/// and validated against its own list, as the game's ally rules require
/// ("each force legal on its own"), its cards added to the summary, then
/// the points limit over all forces together. Returns each force's list,
/// `None` where it names none muster may use.
pub(super) fn allied_forces<'c>(
    file: &SourceFile,
    parsed: &roster::Roster,
    (catalogue, event): (&'c Catalogue, Option<&Event>),
    core: &ArmyList,
    limit: Option<Limit>,
    summary: &mut ArmySummary,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Option<&'c ArmyList>> {
    let game = core.game.game();
    let army_span = parsed.header.army_line.unwrap_or_default();
    if !game.allies {
        for allied in &parsed.header.allies {
            diagnostics.push(
                Diagnostic::error(Code::AllyRule, format!("{} armies take no allied forces", game.title))
                    .at(file, allied.line)
                    .rule("allies", "the game has no allies")
                    .hint("write every entry under the one `Army:` list; the entries after this line are not checked"),
            );
        }
        return Vec::new();
    }
    if let Some(d) = too_many_allies(file, parsed) {
        diagnostics.push(d);
    }
    let mut lists: Vec<Option<&'c ArmyList>> = Vec::new();
    for (i, allied) in parsed.header.allies.iter().enumerate().take(MAX_ALLIED_FORCES) {
        let Some(list) = allied_list(file, allied, catalogue, core, diagnostics) else {
            lists.push(None);
            continue;
        };
        lists.push(Some(list));
        diagnostics.extend(event_list(file, event, list, allied.army.span));
        let force = force_roster(parsed, Some(i));
        diagnostics.extend(
            check_version(file, &force.header, list, event, allied.line).map(|mut d| {
                // The version goes on the `Allies:` line.
                if let Some(fix) = d.fix.take() {
                    d.fix = Some(fix.replacen("Army:", "Allies:", 1));
                }
                d
            }),
        );
        if force.entries.is_empty() {
            diagnostics.push(
                Diagnostic::error(
                    Code::EmptyRoster,
                    format!("the allied force of {} fields no {}", list.name, game.entry_noun),
                )
                .at(file, allied.line)
                .hint("write the allied force's cards on the lines after its `Allies:` line"),
            );
        }
        add_force(
            file,
            &force,
            (catalogue, event),
            list,
            limit,
            allied.line,
            summary,
            diagnostics,
        );
    }
    if let Some(limit) = limit.filter(|l| summary.total > i64::from(l.points)) {
        diagnostics.push(crate::validate::over_limit(
            file,
            army_span,
            limit,
            (summary.total, "the army and its allies cost", "card"),
        ));
    }
    mixed_cards(file, parsed, core, &lists, diagnostics);
    lists
}

/// The error for `Allies:` lines past [`MAX_ALLIED_FORCES`]: the most
/// lists a core army may ally with is the Standard lists of the game (the
/// Slann take any of them); more lines are reported once, and what
/// follows them is not read.
fn too_many_allies(file: &SourceFile, parsed: &roster::Roster) -> Option<Diagnostic> {
    let extra = parsed.header.allies.get(MAX_ALLIED_FORCES)?;
    let more = parsed.header.allies.len() - MAX_ALLIED_FORCES;
    Some(
        Diagnostic::error(
            Code::AllyRule,
            match more {
                1 => format!(
                    "a roster has at most {MAX_ALLIED_FORCES} allied forces; this `Allies:` line and its cards are not checked"
                ),
                _ => format!(
                    "a roster has at most {MAX_ALLIED_FORCES} allied forces; this `Allies:` line, the {} after it and their cards are not checked",
                    more - 1
                ),
            },
        )
        .at(file, extra.line)
        .rule("allies", "NetEpic Gold core rules 1.2.2 (lines 192-200)"),
    )
}

/// The list an `Allies:` line names, if muster knows exactly one by that
/// name and it is of the core army's game.
fn allied_list<'c>(
    file: &SourceFile,
    allied: &roster::Allied,
    catalogue: &'c Catalogue,
    core: &ArmyList,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<&'c ArmyList> {
    let game = core.game.game();
    let list = match catalogue.find_list(&allied.army.value) {
        ListLookup::Found(list) => Some(list),
        ListLookup::Ambiguous(found) => {
            diagnostics.push(
                Diagnostic::error(
                    Code::UnknownArmy,
                    format!(
                        "`{}` names more than one list: {}",
                        allied.army.value,
                        list_names(&found)
                    ),
                )
                .at(file, allied.army.span)
                .hint("use the list's id"),
            );
            None
        }
        ListLookup::NotFound(suggestion) => {
            let mut d = Diagnostic::error(
                Code::UnknownArmy,
                format!("muster knows no army list called `{}`", allied.army.value),
            )
            .at(file, allied.army.span);
            if let Some(s) = suggestion {
                d = d.label(format!("did you mean `{s}`?")).fix(s);
            }
            diagnostics.push(d);
            None
        }
    };
    list.filter(|l| {
        let same_game = l.game == core.game;
        if !same_game {
            diagnostics.push(
                Diagnostic::error(
                    Code::AllyRule,
                    format!(
                        "{} is a {} list; a {} army cannot take it as an ally",
                        l.name,
                        l.game.title(),
                        game.title
                    ),
                )
                .at(file, allied.army.span)
                .rule("ally-same-game", "allies come from lists of the same game"),
            );
        }
        same_game
    })
}

/// One allied force resolved and validated against its list (the points
/// limit is the army's, checked over the forces together), its formations
/// and points added to the army's summary.
#[allow(clippy::too_many_arguments)] // one call, from `allied_forces`
fn add_force(
    file: &SourceFile,
    force: &roster::Roster,
    (catalogue, event): (&Catalogue, Option<&Event>),
    list: &ArmyList,
    limit: Option<Limit>,
    line: Span,
    summary: &mut ArmySummary,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let lines = ruleset(list.game).formation_lines();
    let (army, resolve_diagnostics) = resolve(force, list, lines);
    diagnostics.extend(resolve_diagnostics);
    let extra = crate::validate::Extra {
        event: event.map_or(&[][..], |e| e.restrictions(list)),
        scenario: &[],
        waived: &[],
    };
    diagnostics.extend(
        validate(force, &army, limit, extra)
            .into_iter()
            .filter(|d| !matches!(d.code, Code::OverPointsLimit | Code::MissingPointsLimit)),
    );
    let mut part = summary_of_force(file, &army, catalogue, limit, line);
    let offset = summary.formations.len();
    let index = summary.forces.len();
    for f in &mut part.formations {
        f.force = index;
        f.group = f.group.map(|g| g + offset);
    }
    summary.formations.append(&mut part.formations);
    summary
        .forces
        .extend(part.forces.into_iter().map(|f| ForceSummary { ally: true, ..f }));
    summary.total += army.total;
    summary.total_incomplete |= army.total_incomplete;
}

/// A card a force's list does not have, but another force's list does: a
/// hint says where it belongs, since cards never cross lists (NetEpic Gold
/// 1.2.2, line 200).
fn mixed_cards(
    file: &SourceFile,
    parsed: &roster::Roster,
    core: &ArmyList,
    lists: &[Option<&ArmyList>],
    diagnostics: &mut [Diagnostic],
) {
    use crate::catalogue::names::Lookup;
    let allies = &parsed.header.allies;
    // Each force's list with the byte where its lines start.
    let forces: Vec<(usize, &ArmyList, Option<&roster::Allied>)> = std::iter::once((0, core, None))
        .chain(
            allies
                .iter()
                .zip(lists)
                .filter_map(|(a, l)| l.map(|l| (a.line.start, l, Some(a)))),
        )
        .collect();
    for d in diagnostics
        .iter_mut()
        .filter(|d| d.code == Code::UnknownFormation)
    {
        let Some(span) = d.primary.as_ref().map(|p| p.span) else {
            continue;
        };
        let Some(name) = file.text().get(span.start..span.end) else {
            continue;
        };
        let own = forces
            .iter()
            .rev()
            .find(|f| f.0 <= span.start)
            .map(|f| f.1.id.as_str());
        let home = forces.iter().find(|f| {
            Some(f.1.id.as_str()) != own && matches!(f.1.formation_names.lookup(name), Lookup::Found(_))
        });
        if let Some((_, list, allied)) = home {
            d.hints.push(match allied {
                Some(_) => format!(
                    "`{name}` is a card of {}: write it after that force's `Allies:` line; cards never cross lists",
                    list.name
                ),
                None => format!(
                    "`{name}` is a card of the core army's list, {}: write it above the first `Allies:` line; cards never cross lists",
                    list.name
                ),
            });
        }
    }
}
