//! One roster through the whole pipeline: bytes, text, syntax tree, army,
//! diagnostics. This is the library's main entry point; the CLI and the
//! tests call [`check_bytes`] or [`check_text`] and render the result.

use crate::catalogue::{ArmyList, Catalogue, GameId, ListLookup, names};
use crate::diagnostic::{Code, Diagnostic};
use crate::event::Event;
use crate::facts::{self, FormationFacts};
use crate::import::{battlescribe, snapfire};
use crate::resolve::{Army, resolve};
use crate::roster::{self, Dialect, Header, Spanned};
use crate::source::SourceFile;
use crate::validate::{Limit, validate};

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
    pub formations: Vec<FormationSummary>,
    /// `Counts as:` declarations, model and target, as written.
    pub counts_as: Vec<(String, String)>,
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

/// [`check_bytes`] for an event: its rules apply as well as the list's.
pub fn check_bytes_for<'c>(
    catalogue: &'c Catalogue,
    event: Option<&Event>,
    name: &str,
    bytes: &[u8],
) -> Checked<'c> {
    if battlescribe::is_roster(name, bytes) {
        return check_battlescribe(catalogue, event, name, bytes);
    }
    match roster::decode(bytes) {
        Ok(text) => check_text_for(catalogue, event, name, &text),
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
    let file = SourceFile::new(name, text);
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
    if snapfire::is_link(text) {
        return check_link(catalogue, event, checked, text);
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

    let (parsed, mut diagnostics) = roster::parse(&file);
    checked.dialect = Some(parsed.dialect);
    checked.header = parsed.header.clone();

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
        Some(army) => match catalogue.find_list(&army.value) {
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
            ListLookup::NotFound(suggestion) => {
                let mut d = Diagnostic::error(
                    Code::UnknownArmy,
                    format!("muster knows no army list called `{}`", army.value),
                )
                .at(&file, army.span);
                if let Some(s) = suggestion {
                    d = d.label(format!("did you mean `{s}`?")).fix(s);
                }
                let nearest = catalogue.nearest_lists(&army.value, 3);
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
        let limit = points_limit(&file, &parsed.header, event, &mut diagnostics);
        if let Some(d) = points_range(&file, list.game, limit, army_span) {
            diagnostics.push(d);
        }
        if let Some(d) = no_entries(&file, &parsed, list, army_span, &diagnostics) {
            diagnostics.push(d);
        }
        let (army, resolve_diagnostics) = resolve(&parsed, list);
        diagnostics.extend(resolve_diagnostics);
        let restrictions = event.map_or(&[][..], |e| e.restrictions(list));
        diagnostics.extend(validate(&parsed, &army, limit, restrictions));
        let counts_as_allowed = event.is_none_or(|e| e.file.counts_as);
        diagnostics.extend(crate::counts_as::check(
            &parsed,
            &army,
            catalogue,
            counts_as_allowed,
        ));
        diagnostics.extend(faulty_datasheets(&file, &army, catalogue));
        checked.army = Some(summary(&file, &army, catalogue, limit));
        if list.snapfire.file.is_some() {
            let title = parsed.header.title.as_ref().map(|t| t.value.as_str());
            checked.share = Some(snapfire::share(&army, title.unwrap_or(&list.name)));
        }
    }

    sort(&mut diagnostics);
    checked.diagnostics = crate::diagnostic::cap(diagnostics);
    checked
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

/// A Snapfire share link: read into roster text, which is checked like any
/// roster (diagnostics point into that text); a link that cannot be read
/// gives one error pointing into the link.
fn check_link<'c>(
    catalogue: &'c Catalogue,
    event: Option<&Event>,
    mut checked: Checked<'c>,
    text: &str,
) -> Checked<'c> {
    let imported = snapfire::Link::parse(text)
        .and_then(|link| snapfire::to_roster(&link, catalogue).map(|imported| (link, imported)));
    match imported {
        Ok((link, imported)) => {
            let mut result = check_text_for(catalogue, event, &checked.name, &imported.roster);
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
) -> Checked<'c> {
    match battlescribe::read(catalogue, name, bytes) {
        Ok(imported) => {
            // The roster text has a name of its own: its lines are not the
            // XML's.
            let read_as = format!("{name} (as muster reads it)");
            let mut result = check_text_for(catalogue, event, &read_as, &imported.roster);
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
/// agree with when it states one; otherwise the roster's own.
fn points_limit(
    file: &SourceFile,
    header: &Header,
    event: Option<&Event>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Limit> {
    let own = header.points.as_ref().map(|p: &Spanned<u32>| Limit {
        points: p.value,
        span: Some(p.span),
    });
    let Some(event) = event else { return own };
    if let Some(own) = &header.points {
        if own.value != event.file.points {
            diagnostics.push(
                Diagnostic::error(
                    Code::EventRule,
                    format!(
                        "{} is played at {} points, but the roster is built to {}",
                        event.file.name, event.file.points, own.value
                    ),
                )
                .at(file, own.span)
                .rule("event-points", "the event file's `points`")
                .fix(format!("Points: {}", event.file.points)),
            );
        }
    }
    Some(Limit {
        points: event.file.points,
        span: header.points.as_ref().map(|p| p.span),
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

fn summary(file: &SourceFile, army: &Army<'_>, catalogue: &Catalogue, limit: Option<Limit>) -> ArmySummary {
    let facts = facts::derive(army, catalogue);
    ArmySummary {
        total: army.total,
        total_incomplete: army.total_incomplete,
        limit: limit.map(|l| l.points),
        game: army.list.game,
        strategy_rating: facts.strategy_rating,
        attack_rating: crate::validate::attack_rating(army, limit),
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
                    line: file.line_col(f.name_span.start).0,
                    upgrades: f
                        .upgrades
                        .iter()
                        .map(|t| (army.list.upgrades[t.upgrade].name.clone(), t.count))
                        .collect(),
                    facts,
                    group: f.group,
                    is_group: formation.group.is_some(),
                }
            })
            .collect(),
        counts_as: army
            .counts_as
            .iter()
            .map(|d| (d.model.value.clone(), d.target.value.clone()))
            .collect(),
    }
}

/// A note for each ship whose datasheet the sources lost or scrambled,
/// at its first line: its crib sheet lacks what `faults` describes.
fn faulty_datasheets(file: &SourceFile, army: &Army<'_>, catalogue: &Catalogue) -> Vec<Diagnostic> {
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
