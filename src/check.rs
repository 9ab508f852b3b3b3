//! One roster through the whole pipeline: bytes, text, syntax tree, army,
//! diagnostics. This is the library's main entry point; the CLI and the
//! tests call [`check_bytes`] or [`check_text`] and render the result.

use crate::catalogue::{ArmyList, CardVp, Catalogue, GameId, ListLookup, names};
use crate::diagnostic::{Code, Diagnostic};
use crate::event::Event;
use crate::facts::{self, FormationFacts};
use crate::games::netepic::Variant;
use crate::import::{battlescribe, snapfire};
use crate::resolve::{Army, resolve};
use crate::roster::{self, Dialect, Header, Spanned};
use crate::source::SourceFile;
use crate::validate::{Limit, LimitOrigin, validate};

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
    /// Heresy: battlegroups with their break points and victory points,
    /// objectives and the victory points needed.
    pub heresy: Option<crate::battlegroups::HeresyFacts>,
    /// The core army and its allied forces, in roster order.
    pub forces: Vec<ForceSummary>,
    /// Break points and victory points, in games whose cards have them.
    pub victory: Option<VictorySummary>,
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
    if battlescribe::is_roster(name, bytes) {
        return check_battlescribe(catalogue, event, name, bytes, wants);
    }
    match roster::decode(bytes) {
        // The decoded text becomes the file as it is, without a copy.
        Ok(text) => check_file(catalogue, event, name, SourceFile::new(name, text), wants),
        Err(d) => Checked::unusable_input(name, d.diagnostic()),
    }
}

/// [`check_text`] for an event: its rules apply as well as the list's.
pub fn check_text_for<'c>(
    catalogue: &'c Catalogue,
    event: Option<&Event>,
    name: &str,
    text: &str,
) -> Checked<'c> {
    check_file(catalogue, event, name, SourceFile::new(name, text), Wants::ALL)
}

/// [`check_text_for`] of a roster already made a [`SourceFile`].
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
    if snapfire::is_link(text) || crate::share::is_link(text) {
        return check_link(catalogue, event, checked, text, wants);
    }
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

    let list = match &parsed.header.army {
        None => {
            let mut d = Diagnostic::error(
                Code::MissingArmy,
                "the roster does not say which army list it uses",
            )
            .at(&file, file.line_span(1))
            .fix("add a first line such as `Army: Codex Astartes`");
            if parsed.entries.is_empty() {
                d = d.hint("this does not look like a roster: it has no army line and no formations");
            }
            diagnostics.push(d);
            None
        }
        Some(army) => match catalogue.lookup_list(&army.value) {
            ListLookup::Found(list) => Some(list),
            ListLookup::Ambiguous(lists) => {
                let ids: Vec<String> = lists.iter().map(|l| format!("`{}`", l.id)).collect();
                diagnostics.push(
                    Diagnostic::error(
                        Code::UnknownArmy,
                        format!("`{}` names more than one list: {}", army.value, ids.join(", ")),
                    )
                    .at(&file, army.span)
                    .hint("use the list's id"),
                );
                None
            }
            ListLookup::NotFound(_) => {
                let mut d = Diagnostic::error(
                    Code::UnknownArmy,
                    format!("muster knows no army list called `{}`", army.value),
                )
                .at(&file, army.span);
                // The suggestion and the nearest lists from one pass.
                let (suggestion, nearest) = catalogue.nearest_lists_memo(&army.value, 3);
                if let Some(s) = suggestion {
                    d = d.label(format!("did you mean `{s}`?")).fix(s);
                }
                if !nearest.is_empty() {
                    d = d.hint(format!(
                        "the nearest lists muster knows: {}",
                        list_names(&nearest)
                    ));
                }
                d = d.hint("`muster lists` shows every list muster knows");
                diagnostics.push(d);
                None
            }
        },
    };

    if let Some(list) = list {
        checked.list = Some(list);
        let army_span = parsed.header.army_line.unwrap_or_default();
        if let Some(event) = event.filter(|e| !e.allows(list)) {
            diagnostics.push(
                Diagnostic::error(
                    Code::EventRule,
                    format!(
                        "{} is not one of the lists allowed at {}",
                        list.name, event.file.name
                    ),
                )
                .at(&file, army_span)
                .rule("event-lists", "the event file's `lists`"),
            );
        }
        diagnostics.extend(check_version(&file, &parsed.header, list, event, army_span));
        diagnostics.extend(optional_rules(&file, &parsed.header, list));
        // The event's optional rules hold for every roster, as if written.
        if let Some(event) = event {
            for rule in &event.file.optional_rules {
                parsed
                    .header
                    .optional_rules
                    .push(Spanned::new(rule.clone(), Default::default()));
            }
        }
        let scenario = crate::scenario::find(
            catalogue,
            &file,
            &parsed.header,
            list,
            event,
            army_span,
            &mut diagnostics,
        );
        let mut limit = points_limit(
            &file,
            &parsed.header,
            (event, wants.points),
            scenario.as_ref(),
            &mut diagnostics,
        );
        if let Some(applied) = &scenario {
            match event {
                Some(event) => crate::scenario::opponent_in_event(
                    applied,
                    &file,
                    &parsed.header,
                    event,
                    &mut diagnostics,
                ),
                None => {
                    limit = crate::scenario::limit_without_event(
                        applied,
                        &file,
                        &parsed.header,
                        limit,
                        &mut diagnostics,
                    )
                }
            }
            diagnostics.push(crate::scenario::note(applied, &file, list));
        }
        if let Some(d) = points_range(&file, list.game, limit, army_span) {
            diagnostics.push(d);
        }
        if let Some(d) = no_entries(&file, &parsed, list, army_span, &diagnostics) {
            diagnostics.push(d);
        }
        // With `Allies:` lines, the core army is the entries before the
        // first of them, checked on its own like each allied force.
        let core_only;
        let core = if parsed.header.allies.is_empty() {
            &parsed
        } else {
            core_only = force_roster(&parsed, None);
            &core_only
        };
        let (army, resolve_diagnostics) = resolve(core, list);
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
        diagnostics.extend(crate::counts_as::check(core, &army, catalogue, counts_as_allowed));
        diagnostics.extend(faulty_datasheets(&file, &army, catalogue));
        diagnostics.extend(crate::battlegroups::check(&file, &army, catalogue));
        diagnostics.extend(crate::battlegroups::check_scenario(
            &file,
            &parsed.header,
            scenario.as_ref(),
            &army,
            limit.map(|l| l.points),
        ));
        let mut summary = summary(
            &file,
            &army,
            catalogue,
            limit,
            parsed.header.army_line,
            wants.facts,
        );
        let lists = if parsed.header.allies.is_empty() {
            Vec::new()
        } else {
            allied_forces(
                &file,
                &parsed,
                catalogue,
                event,
                list,
                limit,
                &mut summary,
                &mut diagnostics,
            )
        };
        if !list.game.game().allies.is_empty() {
            army_rules(&file, &parsed, list, &lists, &summary, &mut diagnostics);
        }
        summary.victory = victory(&summary, list.game);
        summary.scenario = scenario.as_ref().map(|s| ScenarioSummary {
            id: s.scenario.id.clone(),
            name: s.scenario.name.clone(),
            side: s.side.map(|side| side.as_str()),
        });
        checked.army = Some(summary);
        if wants.share_link && list.snapfire.file.is_some() {
            let title = parsed.header.title.as_ref().map(|t| t.value.as_str());
            checked.share = Some(snapfire::share(&army, title.unwrap_or(&list.name)));
        }
    }

    parsed.header.optional_rules.truncate(written_rules);
    checked.header = std::mem::take(&mut parsed.header);
    sort(&mut diagnostics);
    checked.diagnostics = crate::diagnostic::cap(diagnostics);
    checked
}

/// The header's `Optional rules:` lines: each names an optional rule of
/// the list's game.
fn optional_rules(file: &SourceFile, header: &Header, list: &ArmyList) -> Vec<Diagnostic> {
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
fn no_entries(
    file: &SourceFile,
    parsed: &roster::Roster,
    list: &ArmyList,
    army_span: crate::source::Span,
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

/// A Snapfire share link (or muster's own, sent on to
/// [`check_share_link`]): read into roster text, which is checked like any
/// roster (diagnostics point into that text); a link that cannot be read
/// gives one error pointing into the link.
fn check_link<'c>(
    catalogue: &'c Catalogue,
    event: Option<&Event>,
    mut checked: Checked<'c>,
    text: &str,
    wants: Wants,
) -> Checked<'c> {
    if crate::share::is_link(text) {
        return check_share_link(catalogue, event, checked, text, wants);
    }
    let imported = snapfire::Link::parse(text)
        .and_then(|link| snapfire::to_roster(&link, catalogue).map(|imported| (link, imported)));
    match imported {
        Ok((link, imported)) => {
            let file = SourceFile::new(&checked.name, &imported.roster);
            let mut result = check_file(catalogue, event, &checked.name, file, wants);
            if let Some(Ok(shared)) = &mut result.share {
                shared.link.name.clone_from(&link.name);
            }
            result.header.title = Some(Spanned::new(link.name, crate::source::Span::default()));
            result
        }
        Err(error) => {
            let file = SourceFile::new(&checked.name, text);
            let mut d = Diagnostic::error(Code::SnapfireLink, error.to_string()).at(&file, error.span);
            if let Some(hint) = error.hint() {
                d = d.hint(hint);
            }
            checked.file = Some(file);
            checked.diagnostics.push(d);
            checked
        }
    }
}

/// A muster share link: the roster text it carries is checked as it is;
/// a link that cannot be unpacked gives one `share-link` error.
fn check_share_link<'c>(
    catalogue: &'c Catalogue,
    event: Option<&Event>,
    mut checked: Checked<'c>,
    text: &str,
    wants: Wants,
) -> Checked<'c> {
    match crate::share::read(text) {
        Ok(roster) => {
            let file = SourceFile::new(&checked.name, &roster);
            check_file(catalogue, event, &checked.name, file, wants)
        }
        Err(error) => {
            let file = SourceFile::new(&checked.name, text);
            checked.file = Some(file);
            checked
                .diagnostics
                .push(Diagnostic::error(Code::ShareLink, error.to_string()));
            checked
        }
    }
}

/// A BattleScribe roster (`.ros`, `.rosz`): read into roster text, which is
/// checked like any roster; each finding about a line then points at the
/// XML element the line came from. A file that cannot be read at all (a
/// refused archive, XML that is not well-formed, a catalogue no list
/// reads) gives one `battlescribe` error.
fn check_battlescribe<'c>(
    catalogue: &'c Catalogue,
    event: Option<&Event>,
    name: &str,
    bytes: &[u8],
    wants: Wants,
) -> Checked<'c> {
    match battlescribe::read(catalogue, name, bytes) {
        Ok(imported) => {
            // The roster text has a name of its own: its lines are not the
            // XML's.
            let read_as = format!("{name} (as muster reads it)");
            let file = SourceFile::new(&read_as, &imported.roster);
            let mut result = check_file(catalogue, event, &read_as, file, wants);
            result.name = name.to_string();
            if let Some(file) = result.file.clone() {
                imported.remap(&file, &mut result.diagnostics);
            }
            result.diagnostics.splice(0..0, imported.diagnostics);
            result
        }
        Err(d) => Checked::unusable_input(name, *d),
    }
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
fn check_version(
    file: &SourceFile,
    header: &Header,
    list: &ArmyList,
    event: Option<&Event>,
    army_span: crate::source::Span,
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
    army_span: crate::source::Span,
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

fn summary(
    file: &SourceFile,
    army: &Army<'_>,
    catalogue: &Catalogue,
    limit: Option<Limit>,
    army_line: Option<crate::source::Span>,
    with_facts: bool,
) -> ArmySummary {
    let facts = if with_facts {
        facts::derive(army, catalogue)
    } else {
        facts::blank(army)
    };
    let line = |span: Option<crate::source::Span>| span.map_or(0, |s| file.line_of(s.start));
    ArmySummary {
        forces: vec![ForceSummary {
            list_id: army.list.id.clone(),
            list_name: army.list.name.clone(),
            points: army.total,
            line: line(army_line),
            ally: false,
        }],
        victory: None,
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
                        .titans
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
                            CardVp::PerHundredPoints if f.titans_rounded => Some(
                                f.titans
                                    .iter()
                                    .map(|t| {
                                        crate::games::netepic::victory_points_of_cost(t.points)
                                            .saturating_mul(t.count)
                                    })
                                    .fold(0, u32::saturating_add),
                            ),
                            CardVp::PerHundredPoints => {
                                Some(crate::games::netepic::victory_points_of_cost(f.points))
                            }
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
        heresy: crate::battlegroups::derive(army, catalogue, limit.map(|l| l.points)),
    }
}

/// The most allied forces a roster is checked with (`Allies:` lines).
pub const MAX_ALLIED_FORCES: usize = 8;

/// The part of a roster that is one force: the core army (`ally: None`,
/// the entries before the first `Allies:` line) or allied force `i`, whose
/// header is its `Allies:` line. Counts-as declarations stay with the core.
fn force_roster(parsed: &roster::Roster, ally: Option<usize>) -> roster::Roster {
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
/// the ally rules over the forces: lists that may ally, the core army's
/// share of the points, and the points limit over all forces together.
#[allow(clippy::too_many_arguments)] // one call, from the pipeline
fn allied_forces<'c>(
    file: &SourceFile,
    parsed: &roster::Roster,
    catalogue: &'c Catalogue,
    event: Option<&Event>,
    core: &ArmyList,
    limit: Option<Limit>,
    summary: &mut ArmySummary,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Option<&'c ArmyList>> {
    let game = core.game.game();
    let army_span = parsed.header.army_line.unwrap_or_default();
    if game.allies.is_empty() {
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
    // The most lists a core army may ally with is the Standard lists of
    // the game (the Slann take any of them); more `Allies:` lines are
    // reported once, and what follows them is not read.
    if let Some(extra) = parsed.header.allies.get(MAX_ALLIED_FORCES) {
        let more = parsed.header.allies.len() - MAX_ALLIED_FORCES;
        diagnostics.push(
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
        );
    }
    let mut lists: Vec<Option<&'c ArmyList>> = Vec::new();
    for (i, allied) in parsed.header.allies.iter().enumerate().take(MAX_ALLIED_FORCES) {
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
        let Some(list) = list.filter(|l| {
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
        }) else {
            lists.push(None);
            continue;
        };
        lists.push(Some(list));
        if let Some(event) = event.filter(|e| !e.allows(list)) {
            diagnostics.push(
                Diagnostic::error(
                    Code::EventRule,
                    format!(
                        "{} is not one of the lists allowed at {}",
                        list.name, event.file.name
                    ),
                )
                .at(file, allied.army.span)
                .rule("event-lists", "the event file's `lists`"),
            );
        }
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
        let (army, resolve_diagnostics) = resolve(&force, list);
        diagnostics.extend(resolve_diagnostics);
        let extra = crate::validate::Extra {
            event: event.map_or(&[][..], |e| e.restrictions(list)),
            scenario: &[],
            waived: &[],
        };
        diagnostics.extend(
            validate(&force, &army, limit, extra)
                .into_iter()
                .filter(|d| !matches!(d.code, Code::OverPointsLimit | Code::MissingPointsLimit)),
        );
        let mut part = summary_of_force(file, &army, catalogue, limit, allied.line);
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

    if let Some(limit) = limit.filter(|l| summary.total > i64::from(l.points)) {
        diagnostics.push(
            Diagnostic::error(
                Code::OverPointsLimit,
                format!(
                    "the army and its allies cost {} points, {} over the limit of {}",
                    summary.total,
                    summary.total - i64::from(limit.points),
                    limit.points
                ),
            )
            .at(file, limit.span.unwrap_or(army_span))
            .rule(
                "points-limit",
                "tournament rules: formations total the agreed points or less",
            )
            .hint("remove or shrink a card, or raise the limit if the event allows it"),
        );
    }
    mixed_cards(file, parsed, core, &lists, diagnostics);
    lists
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

fn summary_of_force(
    file: &SourceFile,
    army: &Army<'_>,
    catalogue: &Catalogue,
    limit: Option<Limit>,
    line: crate::source::Span,
) -> ArmySummary {
    summary(file, army, catalogue, limit, Some(line), true)
}

/// The army rules of a game with allies (NetEpic Gold 1.2.2-1.2.4) over
/// the forces of a roster: the variant each force fields (a Chapter, a
/// Power, a Craftworld: `games::netepic::VARIANTS`), at most one per
/// force, the share caps of the army books, and, with allied forces, the
/// ally rules.
fn army_rules(
    file: &SourceFile,
    parsed: &roster::Roster,
    core: &ArmyList,
    lists: &[Option<&ArmyList>],
    summary: &ArmySummary,
    diagnostics: &mut Vec<Diagnostic>,
) {
    use crate::games::netepic::SHARE_CAPS;
    let forces: Vec<&ArmyList> = std::iter::once(core)
        .chain(lists.iter().flatten().copied())
        .collect();
    let variants: Vec<Option<&'static Variant>> = forces
        .iter()
        .enumerate()
        .map(|(i, list)| force_variant(file, list, summary, i, diagnostics))
        .collect();
    let line_of = |i: usize| -> crate::source::Span {
        match i {
            0 => parsed.header.army_line.unwrap_or_default(),
            _ => parsed
                .header
                .allies
                .iter()
                .zip(lists)
                .filter(|(_, l)| l.is_some())
                .nth(i - 1)
                .map(|(a, _)| a.line)
                .unwrap_or_default(),
        }
    };
    if let Some(v) = variants.first().copied().flatten().filter(|v| v.never_core) {
        diagnostics.push(
            Diagnostic::error(
                Code::AllyRule,
                format!(
                    "a {} force is only ever an allied force, never the core army",
                    v.name
                ),
            )
            .at(file, line_of(0))
            .rule("never-core", v.provenance)
            .hint("write it after an `Allies:` line, beside a core army that may take it"),
        );
    }
    let total = summary.total.max(0);
    for (i, list) in forces.iter().enumerate() {
        for cap in SHARE_CAPS.iter().filter(|c| c.list == list.id) {
            // A force that is the variant made of these cards alone (Kroot
            // Mercenaries) is not capped by its own cards.
            if variants[i].is_some_and(|v| v.only && v.tags.contains(&cap.tag)) {
                continue;
            }
            let tags = tags_by_id(list);
            let points: i64 = summary
                .formations
                .iter()
                .filter(|f| f.force == i && tags.get(f.id.as_str()).is_some_and(|t| t.contains(cap.tag)))
                .map(|f| f.points)
                .sum();
            if total > 0 && points.saturating_mul(100) > i64::from(cap.percent).saturating_mul(total) {
                diagnostics.push(
                    Diagnostic::error(
                        Code::AllyRule,
                        format!(
                            "{} cost {points} of the army's {total} points; they may hold at most {}%",
                            cap.what, cap.percent
                        ),
                    )
                    .at(file, line_of(i))
                    .rule(cap.id, cap.provenance),
                );
            }
        }
    }
    // Barrages whose book has no Forward Observer (the Dark Eldar) need
    // one in some force of the army (core rules 4.4.8).
    let tag_sets: Vec<_> = forces.iter().map(|l| tags_by_id(l)).collect();
    let tagged = |f: &&FormationSummary, tag: &str| {
        tag_sets
            .get(f.force)
            .and_then(|tags| tags.get(f.id.as_str()))
            .is_some_and(|t| t.contains(tag))
    };
    if !summary.formations.iter().any(|f| tagged(&f, "forward-observer")) {
        for card in summary.formations.iter().filter(|f| tagged(f, "needs-observer")) {
            diagnostics.push(
                Diagnostic::error(
                    Code::ListRule,
                    format!(
                        "`{}` is an off-board barrage, and only a Forward Observer calls one in: its book has none, and no force of the army has one",
                        card.name
                    ),
                )
                .at(file, file.line_span(card.line))
                .rule("forward-observer", "NetEpic Gold core rules 4.4.8 Off-Board Artillery (lines 790-794)")
                .hint("add an allied force with a Forward Observer card, or leave the barrage out"),
            );
        }
    }
    if !parsed.header.allies.is_empty() {
        ally_rules(file, parsed, core, lists, summary, &variants, diagnostics);
    }
}

/// Each formation id of `list` with its tags.
fn tags_by_id(list: &ArmyList) -> TagsById<'_> {
    TagsById(list)
}

/// The tags of a list's formations by id, found when asked: a roster names
/// a few of a list's many formations, so no map of them all is made.
struct TagsById<'l>(&'l ArmyList);

impl<'l> TagsById<'l> {
    fn get(&self, id: &str) -> Option<&'l crate::catalogue::Tags> {
        // The last of equal ids, as a map collected from them would keep.
        self.0
            .formations
            .iter()
            .rev()
            .find(|f| f.id == id)
            .map(|f| &f.tags)
    }
}

/// The variant force `force` of the summary fields, from its cards; a
/// force with cards of two variants is an error at the first card of the
/// second, and counts as the first.
fn force_variant(
    file: &SourceFile,
    list: &ArmyList,
    summary: &ArmySummary,
    force: usize,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<&'static Variant> {
    use crate::games::netepic::variants_of;
    let variants: Vec<&'static Variant> = variants_of(&list.id).collect();
    if variants.is_empty() {
        return None;
    }
    let tags = tags_by_id(list);
    let cards: Vec<(&FormationSummary, &crate::catalogue::Tags)> = summary
        .formations
        .iter()
        .filter(|f| f.force == force)
        .filter_map(|f| Some((f, tags.get(f.id.as_str())?)))
        .filter(|(_, t)| !t.contains("fortification"))
        .collect();
    let has = |v: &Variant, t: &crate::catalogue::Tags| v.card_of(|x| t.contains(x));
    // A variant made of its cards alone (Kroot Mercenaries).
    if let Some(v) = variants
        .iter()
        .find(|v| v.only && !cards.is_empty() && cards.iter().all(|(_, t)| has(v, t)))
    {
        return Some(v);
    }
    let mut found: Option<&'static Variant> = None;
    for (card, t) in &cards {
        let Some(v) = variants.iter().find(|v| !v.only && has(v, t)) else {
            continue;
        };
        match found {
            None => found = Some(v),
            Some(first) if first.name == v.name => {}
            Some(first) => {
                let span = file.line_span(card.line);
                diagnostics.push(
                    Diagnostic::error(
                        Code::AllyRule,
                        format!(
                            "`{}` is a card of {}, and this force already fields {}: a force fields one variant of its book",
                            card.name, v.name, first.name
                        ),
                    )
                    .at(file, span)
                    .rule(
                        "one-variant",
                        "NetEpic Gold core rules 1.2.4 (lines 213-231): a Codex army is one codex and its standard list",
                    )
                    .hint(format!(
                        "take the standard cards and those of one variant; {} may join as an allied force where the core army allows it",
                        v.name
                    )),
                );
            }
        }
    }
    // No variant's cards: the list's standard army, where the book
    // describes it as a variant of its own.
    found.or_else(|| variants.iter().find(|v| v.tags.is_empty()).copied())
}

/// The game's ally rules over the forces (NetEpic Gold 1.2.2-1.2.4): which
/// lists may ally with the core army's, how many allies it takes, that the
/// core army has the most points and at least its share of them. A force's
/// variant (`variants`, by force) stands for its list's row where it has
/// one: a Chapter army is a Codex army, and may take a sibling variant of
/// its own book (another Craftworld, another Power) as its ally.
fn ally_rules(
    file: &SourceFile,
    parsed: &roster::Roster,
    core: &ArmyList,
    lists: &[Option<&ArmyList>],
    summary: &ArmySummary,
    variants: &[Option<&'static Variant>],
    diagnostics: &mut Vec<Diagnostic>,
) {
    use crate::games::netepic::ArmyKind;
    let game = core.game.game();
    let allies = &parsed.header.allies;
    let army_span = parsed.header.army_line.unwrap_or_default();
    const WHY: &str = "NetEpic Gold core rules 1.2.2 (lines 192-200)";
    let core_variant = variants.first().copied().flatten();
    let variant_row = core_variant.map(|v| v.row());
    let Some(row) = variant_row
        .as_ref()
        .or_else(|| game.allies.iter().find(|r| r.list == core.id))
    else {
        diagnostics.push(
            Diagnostic::warning(
                Code::Unchecked,
                format!(
                    "the ally tables do not name {}: its allies and its share of the points are not checked",
                    core.name
                ),
            )
            .at(file, army_span)
            .rule("allies", WHY),
        );
        return;
    };
    if row.kind == ArmyKind::Unlisted {
        diagnostics.push(
            Diagnostic::warning(
                Code::Unchecked,
                format!(
                    "the core rules' ally tables do not name {}: whom it may ally with and its share of the points are not checked",
                    core.name
                ),
            )
            .at(file, army_span)
            .rule("allies", row.provenance),
        );
    }
    // The army named in messages: the variant where the force fields one.
    let core_name = match core_variant.filter(|v| !v.tags.is_empty()) {
        Some(v) => format!("the {} army", v.name),
        None => core.name.clone(),
    };
    // Points of the core army (with the forces that count as core) and of
    // each force, by position in `summary.forces` (0 is the core).
    let mut core_points = summary.forces.first().map_or(0, |f| f.points);
    let mut core_percent = row.core_percent;
    let mut real_allies = 0usize;
    let mut sibling_allies = 0usize;
    let mut seen: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
    // Forces of lists that resolved, in order: summary.forces[1..].
    let resolved: Vec<(
        &roster::Allied,
        &ArmyList,
        &ForceSummary,
        Option<&'static Variant>,
    )> = allies
        .iter()
        .zip(lists)
        .filter_map(|(a, l)| l.map(|l| (a, l)))
        .zip(summary.forces.iter().skip(1))
        .zip(variants.iter().skip(1))
        .map(|(((a, l), f), v)| (a, l, f, *v))
        .collect();
    for &(allied, list, force, variant) in &resolved {
        let points = force.points;
        if list.id == core.id {
            // Another variant of the same book, where the core army's
            // variant takes it (another Craftworld, another Power).
            let sibling = variant
                .filter(|v| core_variant.is_some_and(|c| c.name != v.name && c.siblings.contains(&v.name)));
            if let Some(v) = sibling {
                real_allies += 1;
                sibling_allies += 1;
                if let Some(p) = v.as_ally_core_percent {
                    core_percent = core_percent.min(p);
                }
                let several = core_variant.is_some_and(|c| c.several_siblings);
                let most = if several && sibling_allies == real_allies {
                    usize::MAX
                } else {
                    row.most_allies()
                };
                if real_allies > most {
                    diagnostics.push(
                        Diagnostic::error(
                            Code::AllyRule,
                            format!("{core_name} takes one allied force; this is a second"),
                        )
                        .at(file, allied.army.span)
                        .rule("one-ally", row.provenance)
                        .hint("field the cards of one allied force only"),
                    );
                }
                continue;
            }
            diagnostics.push(
                Diagnostic::error(
                    Code::AllyRule,
                    match variant.filter(|v| !v.tags.is_empty()) {
                        Some(v) => format!(
                            "{core_name} may not take a force of {} from its own book as its ally",
                            v.name
                        ),
                        None => format!(
                            "{} is the core army's own list; its cards belong in the core army",
                            list.name
                        ),
                    },
                )
                .at(file, allied.army.span)
                .rule("ally-other-list", WHY)
                .hint("write these cards above the `Allies:` line"),
            );
            core_points += points;
            continue;
        }
        if row.core_with.contains(&list.id.as_str()) {
            core_points += points;
            continue;
        }
        if !seen.insert(list.id.as_str()) {
            diagnostics.push(
                Diagnostic::error(
                    Code::AllyRule,
                    format!(
                        "{} is named by two `Allies:` lines; write its force once",
                        list.name
                    ),
                )
                .at(file, allied.army.span)
                .rule("ally-once", WHY),
            );
        }
        real_allies += 1;
        if row.kind == ArmyKind::Unlisted {
            continue;
        }
        if row.kind == ArmyKind::Alone {
            diagnostics.push(
                Diagnostic::error(Code::AllyRule, format!("{} take no allies at all", core.name))
                    .at(file, allied.army.span)
                    .rule("ally-none", row.provenance)
                    .hint("the army is fielded from its own book alone"),
            );
            continue;
        }
        let ally_variant = variant.filter(|v| !v.tags.is_empty());
        let kind = match ally_variant {
            Some(v) => Some(v.kind),
            None => game.allies.iter().find(|r| r.list == list.id).map(|r| r.kind),
        };
        match kind {
            Some(ArmyKind::Standard) => {}
            Some(ArmyKind::Unlisted) | None => diagnostics.push(
                Diagnostic::warning(
                    Code::Unchecked,
                    format!(
                        "the core rules' ally tables do not say whether {} is a Standard list an army may ally with",
                        list.name
                    ),
                )
                .at(file, allied.army.span)
                .rule("ally-standard", "NetEpic Gold core rules 1.2.3 (lines 202-211): allies come from Standard lists"),
            ),
            Some(_) => diagnostics.push(
                Diagnostic::error(
                    Code::AllyRule,
                    match ally_variant {
                        Some(v) => format!(
                            "a force with {} cards is a Codex army, and only a Standard list can be an ally",
                            v.name
                        ),
                        None => format!(
                            "{} is not a Standard list, and only a Standard list can be an ally",
                            list.name
                        ),
                    },
                )
                .at(file, allied.army.span)
                .rule("ally-standard", "NetEpic Gold core rules 1.2.2-1.2.3 (lines 192-211): allies come from Standard lists"),
            ),
        }
        if !row.admits(&list.id) {
            diagnostics.push(
                Diagnostic::error(
                    Code::AllyRule,
                    format!("{core_name} may not take {} as allies", list.name),
                )
                .at(file, allied.army.span)
                .rule("ally-forbidden", row.provenance),
            );
        }
        if real_allies > row.most_allies() && row.kind != ArmyKind::Alone {
            diagnostics.push(
                Diagnostic::error(
                    Code::AllyRule,
                    format!("{core_name} takes one allied list; this is a second"),
                )
                .at(file, allied.army.span)
                .rule("one-ally", row.provenance)
                .hint("field the cards of one allied list only"),
            );
        }
    }
    if row.kind == ArmyKind::Unlisted || row.kind == ArmyKind::Alone {
        return;
    }
    // The core army is the force with the most points.
    for &(allied, list, force, _) in &resolved {
        if list.id != core.id && !row.core_with.contains(&list.id.as_str()) && force.points > core_points {
            diagnostics.push(
                Diagnostic::error(
                    Code::AllyRule,
                    format!(
                        "the allied force of {} ({} points) has more points than the core army ({core_points}): the core army is the one with the most points",
                        force.list_name, force.points
                    ),
                )
                .at(file, allied.line)
                .rule("core-most-points", WHY)
                .hint("make the larger force the `Army:` and the other the `Allies:`"),
            );
        }
    }
    let total = summary.total.max(0);
    if total > 0 && core_points.saturating_mul(100) < i64::from(core_percent).saturating_mul(total) {
        let is_variant = core_variant.is_some_and(|v| !v.tags.is_empty() && v.kind == ArmyKind::Codex);
        diagnostics.push(
            Diagnostic::error(
                Code::AllyRule,
                format!(
                    "the core army holds {core_points} of the army's {total} points; {core_name} must hold at least {core_percent}%",
                ),
            )
            .at(file, army_span)
            .rule(if is_variant { "codex-share" } else { "core-share" }, row.provenance)
            .hint("move points from the allies to the core army"),
        );
    }
}

/// The army's break points and victory points, in games whose cards
/// carry them, with the victory points needed to win for its size.
fn victory(summary: &ArmySummary, game: GameId) -> Option<VictorySummary> {
    let to_win = game.game().victory_points_to_win?;
    let cards = summary.formations.iter().filter_map(|f| f.card);
    let mut out = VictorySummary {
        break_points: 0,
        victory_points: 0,
        incomplete: false,
        to_win: 0,
        army_size: summary
            .limit
            .unwrap_or_else(|| u32::try_from(summary.total.max(0)).unwrap_or(u32::MAX)),
    };
    for card in cards {
        match card.break_point {
            Some(n) => out.break_points += u64::from(n),
            None => out.incomplete = true,
        }
        match card.victory_points {
            Some(n) => out.victory_points += u64::from(n),
            None => out.incomplete = true,
        }
    }
    out.to_win = to_win(out.army_size);
    Some(out)
}

/// A note for each ship whose datasheet the sources lost or scrambled,
/// at its first line: its crib sheet lacks what `faults` describes.
fn faulty_datasheets(file: &SourceFile, army: &Army<'_>, catalogue: &Catalogue) -> Vec<Diagnostic> {
    // Most games have no ship datasheets: no looking each unit up then.
    if !catalogue.ships.iter().any(|s| s.game == army.list.game) {
        return Vec::new();
    }
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for f in &army.formations {
        for (unit, n) in f.units.iter().enumerate() {
            let Some(id) = army.list.units.get(unit).filter(|_| *n > 0) else {
                continue;
            };
            let Some(ship) = catalogue.ship(army.list.game, id) else {
                continue;
            };
            if ship.data.faults.is_empty() || seen.contains(&id) {
                continue;
            }
            seen.push(id);
            let more = match ship.data.faults.len() {
                1 => String::new(),
                n => format!(" ({} more)", n - 1),
            };
            out.push(
                Diagnostic::note(
                    Code::Unchecked,
                    format!(
                        "the sources' datasheet of the {} has faults{more}; its printed profile may be incomplete",
                        ship.data.name
                    ),
                )
                .at(file, f.name_span)
                .hint(ship.data.faults[0].clone())
                .hint(format!("`muster sheet {}` prints every fault", army.list.id)),
            );
        }
    }
    out
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
