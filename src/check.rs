//! One roster through the whole pipeline: bytes, text, syntax tree, army,
//! diagnostics. This is the library's main entry point; the CLI and the
//! tests call [`check_bytes`] or [`check_text`] and render the result.

use crate::catalogue::{ArmyList, Catalogue, ListLookup, names};
use crate::diagnostic::{Code, Diagnostic};
use crate::resolve::{Army, resolve};
use crate::roster::{self, Dialect, Header};
use crate::source::SourceFile;
use crate::validate::validate;

/// A formation as it appears in results.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormationSummary {
    pub name: String,
    pub id: String,
    pub points: i64,
    /// 1-based line of the roster entry.
    pub line: usize,
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
}

/// Points of a resolved army.
#[derive(Debug, Clone)]
pub struct ArmySummary {
    pub total: i64,
    pub total_incomplete: bool,
    pub formations: Vec<FormationSummary>,
}

impl Checked<'_> {
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

    pub fn limit(&self) -> Option<u32> {
        self.header.points.as_ref().map(|p| p.value)
    }
}

/// Checks a roster given as raw bytes (from a file or standard input).
pub fn check_bytes<'c>(catalogue: &'c Catalogue, name: &str, bytes: &[u8]) -> Checked<'c> {
    match roster::decode(bytes) {
        Ok(text) => check_text(catalogue, name, &text),
        Err(d) => Checked {
            name: name.to_string(),
            file: None,
            dialect: None,
            header: Header::default(),
            list: None,
            army: None,
            diagnostics: vec![d.diagnostic()],
        },
    }
}

/// Checks a roster given as text.
pub fn check_text<'c>(catalogue: &'c Catalogue, name: &str, text: &str) -> Checked<'c> {
    let file = SourceFile::new(name, text);
    let mut checked = Checked {
        name: name.to_string(),
        file: Some(file.clone()),
        dialect: None,
        header: Header::default(),
        list: None,
        army: None,
        diagnostics: Vec::new(),
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
                .at(&file, army.span)
                .hint("`muster lists` shows every list muster knows");
                if let Some(s) = suggestion {
                    d = d.label(format!("did you mean `{s}`?")).fix(s);
                }
                diagnostics.push(d);
                None
            }
        },
    };

    if let Some(list) = list {
        checked.list = Some(list);
        if let Some(version) = &parsed.header.version {
            if !version_matches(list, &version.value) {
                diagnostics.push(
                    Diagnostic::warning(
                        Code::VersionMismatch,
                        format!(
                            "the roster names version `{}`, but muster has {} version {}",
                            version.value,
                            list.name,
                            list.version_text()
                        ),
                    )
                    .at(&file, version.span)
                    .hint("the roster is checked against the version muster has"),
                );
            }
        }
        let (army, resolve_diagnostics) = resolve(&parsed, list);
        diagnostics.extend(resolve_diagnostics);
        diagnostics.extend(validate(&parsed, &army));
        checked.army = Some(summary(&file, &army));
    }

    sort(&mut diagnostics);
    checked.diagnostics = diagnostics;
    checked
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

fn summary(file: &SourceFile, army: &Army<'_>) -> ArmySummary {
    ArmySummary {
        total: army.total,
        total_incomplete: army.total_incomplete,
        formations: army
            .formations
            .iter()
            .map(|f| {
                let formation = &army.list.formations[f.formation];
                FormationSummary {
                    name: formation.name.clone(),
                    id: formation.id.clone(),
                    points: f.points,
                    line: file.line_col(f.name_span.start).0,
                }
            })
            .collect(),
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
