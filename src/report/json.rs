//! The JSON output of `muster check --format json`: part of the CLI
//! contract, with its schema in `schema/check-output.schema.json`. Fields
//! are only ever added.

use crate::check::Checked;
use crate::diagnostic::Diagnostic;
use schemars::JsonSchema;
use serde::Serialize;

/// Everything `muster check --format json` prints.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CheckOutput {
    /// The muster version that produced the document.
    pub muster: String,
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
    pub formations: Vec<FormationReport>,
    pub diagnostics: Vec<DiagnosticReport>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct FormationReport {
    pub name: String,
    /// The formation's id in the list.
    pub id: String,
    pub points: i64,
    /// 1-based line of the roster entry.
    pub line: usize,
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
            formations: c
                .army
                .iter()
                .flat_map(|a| &a.formations)
                .map(|f| FormationReport {
                    name: f.name.clone(),
                    id: f.id.clone(),
                    points: f.points,
                    line: f.line,
                })
                .collect(),
            diagnostics: c.diagnostics.iter().map(DiagnosticReport::from).collect(),
        }
    }
}

impl CheckOutput {
    pub fn new(results: &[Checked<'_>]) -> CheckOutput {
        CheckOutput {
            muster: env!("CARGO_PKG_VERSION").to_string(),
            legal: results.iter().all(Checked::legal),
            rosters: results.iter().map(RosterReport::from).collect(),
        }
    }
}
