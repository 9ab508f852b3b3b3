//! One roster through the whole pipeline: bytes, text, syntax tree, army,
//! diagnostics. This is the library's main entry point; the CLI and the
//! tests call [`check_bytes`] or [`check_text`] and render the result.
//!
//! The input is first made roster text (`crate::intake`); then the stages
//! run in the order [`check_file`] and `check_army` give: the header
//! (`header`: the list, its version, optional rules, the points limit),
//! the core army resolved and validated, the 'Counts As' rule, the game's
//! own checks (its ruleset, `crate::games::ruleset`), the summary
//! (`summary`), the allied forces (`forces`), the game's checks over all
//! forces and its facts.

mod forces;
mod header;
pub mod summary;

pub use forces::MAX_ALLIED_FORCES;
pub use header::{ASSUMED_STEP, list_names};
pub use summary::{
    ArmySummary, CardSummary, ForceSummary, FormationSummary, GameFacts, ScenarioSummary, TitanSummary,
    VictorySummary,
};

use crate::catalogue::{ArmyList, Catalogue};
use crate::diagnostic::{Code, Diagnostic};
use crate::event::Event;
use crate::games::netea::counts_as;
use crate::games::registry::ruleset;
use crate::games::ruleset::{Force, Forces};
use crate::import::snapfire;
use crate::intake::{self, Intake};
use crate::resolve::resolve;
use crate::roster::{self, Dialect, Header, Spanned};
use crate::source::{SourceFile, Span};
use crate::validate::validate;

/// Everything muster found out about one roster.
#[derive(Debug)]
pub struct Checked<'c> {
    /// The name the roster was read under (a path, or `<stdin>`).
    pub name: String,
    /// The roster text, when it could be read.
    pub file: Option<SourceFile>,
    pub dialect: Option<Dialect>,
    pub header: Header,
    pub list: Option<&'c ArmyList>,
    pub army: Option<ArmySummary>,
    pub diagnostics: Vec<Diagnostic>,
    /// The army's Snapfire share link, or why it has none; `None` when the
    /// list has no Snapfire counterpart or the army did not resolve.
    pub share: Option<Result<snapfire::Shared, snapfire::ShareError>>,
}

impl Checked<'_> {
    /// A result for an input that could not be read at all.
    pub fn unusable_input(name: &str, diagnostic: Diagnostic) -> Self {
        Checked {
            name: name.to_string(),
            file: None,
            dialect: None,
            header: Header::default(),
            list: None,
            army: None,
            diagnostics: vec![diagnostic],
            share: None,
        }
    }

    /// Legal means no error-severity diagnostics.
    pub fn legal(&self) -> bool {
        !self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// Whether the input could not be used at all (unreadable, not a roster).
    pub fn unusable(&self) -> bool {
        self.diagnostics.iter().any(|d| d.code == Code::UnreadableInput)
    }

    pub fn errors(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }

    /// The points limit the roster was held to: its own, or the event's.
    pub fn limit(&self) -> Option<u32> {
        self.army
            .as_ref()
            .and_then(|a| a.limit)
            .or_else(|| self.header.points.as_ref().map(|p| p.value))
    }
}

/// Checks a roster given as raw bytes (from a file or standard input).
pub fn check_bytes<'c>(catalogue: &'c Catalogue, name: &str, bytes: &[u8]) -> Checked<'c> {
    check_bytes_for(catalogue, None, name, bytes)
}

/// Checks a roster given as text.
pub fn check_text<'c>(catalogue: &'c Catalogue, name: &str, text: &str) -> Checked<'c> {
    check_text_for(catalogue, None, name, text)
}

/// What the caller asks of a check: the game's size when it gives one,
/// and what to make beyond the findings and the army's summary (a batch
/// whose reports have no share links does not make them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wants {
    /// The points limit the caller sets (`--points N`): it holds for every
    /// roster, and a roster's own `Points:` that differs gets a warning.
    pub points: Option<u32>,
    /// The army's Snapfire share link ([`Checked::share`]).
    pub share_link: bool,
    /// Each formation's facts and the strategy rating in the army's
    /// summary (garrison, reserve, strength, victory points: what the
    /// detailed outputs print). Without it the core army's formations
    /// carry blank facts (`Verdict::Unknown` with no reason) and no
    /// strategy rating: a table of rows, which prints none of them, does
    /// not work them out.
    pub facts: bool,
}

impl Wants {
    /// Everything: what [`check_bytes`] and [`check_text`] make.
    pub const ALL: Wants = Wants {
        points: None,
        share_link: true,
        facts: true,
    };
}

/// [`check_bytes`] for an event: its rules apply as well as the list's.
pub fn check_bytes_for<'c>(
    catalogue: &'c Catalogue,
    event: Option<&Event>,
    name: &str,
    bytes: &[u8],
) -> Checked<'c> {
    check_bytes_with(catalogue, event, name, bytes, Wants::ALL)
}

/// [`check_bytes_for`] making only what `wants` asks for beyond the
/// findings (`Checked::share` stays `None` without `share_link`).
pub fn check_bytes_with<'c>(
    catalogue: &'c Catalogue,
    event: Option<&Event>,
    name: &str,
    bytes: &[u8],
    wants: Wants,
) -> Checked<'c> {
    let intake = intake::from_bytes(catalogue, name, bytes);
    check_intake(catalogue, event, name, intake, wants)
}

/// [`check_text`] for an event: its rules apply as well as the list's.
pub fn check_text_for<'c>(
    catalogue: &'c Catalogue,
    event: Option<&Event>,
    name: &str,
    text: &str,
) -> Checked<'c> {
    let intake = intake::from_file(catalogue, SourceFile::new(name, text));
    check_intake(catalogue, event, name, intake, Wants::ALL)
}

/// The check of a roster made roster text, with what its result says of
/// where the text came from.
fn check_intake<'c>(
    catalogue: &'c Catalogue,
    event: Option<&Event>,
    name: &str,
    intake: Intake<'c>,
    wants: Wants,
) -> Checked<'c> {
    match intake {
        Intake::Text(file) => check_file(catalogue, event, name, file, wants),
        Intake::Link { file, army_name } => {
            let mut result = check_file(catalogue, event, name, file, wants);
            if let Some(Ok(shared)) = &mut result.share {
                shared.link.name.clone_from(&army_name);
            }
            result.header.title = Some(Spanned::new(army_name, Span::default()));
            result
        }
        Intake::BattleScribe { file, imported } => {
            let mut result = check_file(catalogue, event, name, file, wants);
            if let Some(file) = result.file.clone() {
                imported.remap(&file, &mut result.diagnostics);
            }
            result.diagnostics.splice(0..0, imported.diagnostics);
            result
        }
        Intake::Refused { file, diagnostic } => {
            let mut result = Checked::unusable_input(name, diagnostic);
            result.file = file;
            result
        }
    }
}

/// The stages of a check over roster text: read it, find its list, and
/// check the army against it.
fn check_file<'c>(
    catalogue: &'c Catalogue,
    event: Option<&Event>,
    name: &str,
    file: SourceFile,
    wants: Wants,
) -> Checked<'c> {
    let text = file.text();
    let mut checked = Checked {
        name: name.to_string(),
        file: Some(file.clone()),
        dialect: None,
        header: Header::default(),
        list: None,
        army: None,
        diagnostics: Vec::new(),
        share: None,
    };
    if text
        .lines()
        .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
    {
        checked.diagnostics.push(
            Diagnostic::error(Code::UnreadableInput, "the file is empty: no roster in it")
                .hint("`muster new ARMY` prints a roster to start from"),
        );
        return checked;
    }

    let (mut parsed, mut diagnostics) = roster::parse(&file);
    checked.dialect = Some(parsed.dialect);
    // The header as written goes to the result at the end, moved rather
    // than copied (an event's optional rules, added to it below, taken off).
    let written_rules = parsed.header.optional_rules.len();
    if let Some(list) = header::find_list(catalogue, &file, &parsed, event, &mut diagnostics) {
        checked.list = Some(list);
        let run = Run {
            catalogue,
            event,
            file: &file,
            wants,
        };
        let (summary, share) = run.check_army(&mut parsed, list, &mut diagnostics);
        checked.army = Some(summary);
        checked.share = share;
    }

    parsed.header.optional_rules.truncate(written_rules);
    checked.header = std::mem::take(&mut parsed.header);
    sort(&mut diagnostics);
    checked.diagnostics = crate::diagnostic::cap(diagnostics);
    checked
}

/// A Snapfire share link of an army, or why it has none.
type Share = Result<snapfire::Shared, snapfire::ShareError>;

/// What every stage of one check reads.
struct Run<'a, 'c> {
    catalogue: &'c Catalogue,
    event: Option<&'a Event>,
    file: &'a SourceFile,
    wants: Wants,
}

impl<'c> Run<'_, 'c> {
    /// The stages of a roster whose list is known, in order: the header
    /// and the limit, the core army resolved and validated, the 'Counts
    /// As' rule and the game's own checks, the summary, the allied forces,
    /// the game's checks over the forces and its facts.
    fn check_army(
        &self,
        parsed: &mut roster::Roster,
        list: &'c ArmyList,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> (ArmySummary, Option<Share>) {
        let (file, catalogue) = (self.file, self.catalogue);
        let army_span = parsed.header.army_line.unwrap_or_default();
        let event = header::event_of_game(file, self.event, list, army_span, diagnostics);
        diagnostics.extend(header::event_list(file, event, list, army_span));
        diagnostics.extend(header::check_version(
            file,
            &parsed.header,
            list,
            event,
            army_span,
        ));
        diagnostics.extend(header::optional_rules(file, &parsed.header, list));
        // The event's optional rules hold for every roster, as if written.
        if let Some(event) = event {
            for rule in &event.file.optional_rules {
                parsed
                    .header
                    .optional_rules
                    .push(Spanned::new(rule.clone(), Default::default()));
            }
        }
        let parsed = &*parsed;
        let scenario = crate::scenario::find(
            catalogue,
            file,
            &parsed.header,
            list,
            event,
            army_span,
            diagnostics,
        );
        let limit = header::held_limit(
            file,
            &parsed.header,
            (event, self.wants.points),
            scenario.as_ref(),
            list,
            diagnostics,
        );
        if let Some(d) = header::no_entries(file, parsed, list, army_span, diagnostics) {
            diagnostics.push(d);
        }
        // With `Allies:` lines, the core army is the entries before the
        // first of them, checked on its own like each allied force.
        let core_only;
        let core = if parsed.header.allies.is_empty() {
            parsed
        } else {
            core_only = forces::force_roster(parsed, None);
            &core_only
        };
        let rules = ruleset(list.game);
        let (army, resolve_diagnostics) = resolve(core, list, rules.formation_lines());
        diagnostics.extend(resolve_diagnostics);
        let extra = crate::validate::Extra {
            event: event.map_or(&[][..], |e| e.restrictions(list)),
            scenario: scenario.as_ref().map_or(&[][..], |s| s.rules(list)),
            waived: scenario.as_ref().map_or(&[][..], |s| s.waived()),
        };
        let mut validated = validate(core, &army, limit, extra);
        if core.header.allies.len() != parsed.header.allies.len() {
            // The limit holds for the forces together (below).
            validated.retain(|d| d.code != Code::OverPointsLimit);
        }
        diagnostics.extend(validated);
        let counts_as_allowed = event.is_none_or(|e| e.file.counts_as);
        diagnostics.extend(counts_as::check(core, &army, catalogue, counts_as_allowed));
        let force = Force {
            file,
            header: &parsed.header,
            army: &army,
            catalogue,
            scenario: scenario.as_ref(),
            limit: limit.map(|l| l.points),
        };
        diagnostics.extend(rules.check_army(&force));
        let mut summary = summary::summary(
            file,
            &army,
            catalogue,
            limit,
            parsed.header.army_line,
            self.wants.facts,
        );
        let lists = if parsed.header.allies.is_empty() {
            Vec::new()
        } else {
            forces::allied_forces(
                file,
                parsed,
                (catalogue, event),
                list,
                limit,
                &mut summary,
                diagnostics,
            )
        };
        let forces = Forces {
            file,
            parsed,
            core: list,
            lists: &lists,
            summary: &summary,
        };
        rules.check_forces(&forces, diagnostics);
        summary.game_facts = rules.facts(&force, &summary);
        summary.scenario = scenario.as_ref().map(|s| ScenarioSummary {
            id: s.scenario.id.clone(),
            name: s.scenario.name.clone(),
            side: s.side.map(|side| side.as_str()),
        });
        let share = (self.wants.share_link && list.snapfire.file.is_some()).then(|| {
            let title = parsed.header.title.as_ref().map(|t| t.value.as_str());
            snapfire::share(&army, title.unwrap_or(&list.name))
        });
        (summary, share)
    }
}

/// Roster order: by position, then errors before warnings before notes;
/// findings without a position last.
fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by_key(|d| {
        (
            d.primary.as_ref().map_or(usize::MAX, |p| p.span.start),
            d.severity,
        )
    });
}
