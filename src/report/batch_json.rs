//! The JSON report of a batch (`muster check DIR --report OUT.json`), with
//! its schema in `schema/check-report.schema.json`. Each roster carries the
//! same fields as in `muster check --format json`, plus its status, first
//! error and duplicates. Fields are only ever added.

use super::json::RosterReport;
use super::summary::{Status, Summary};
use schemars::JsonSchema;
use serde::Serialize;

/// Everything `--report OUT.json` writes.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CheckReport {
    /// The muster version that produced the document.
    pub muster: String,
    /// The event the rosters were checked for (`--event`), if any.
    pub event: Option<String>,
    /// Whether every roster is legal.
    pub legal: bool,
    pub totals: Totals,
    /// In the order checked: paths as given, folders walked in path order.
    pub rosters: Vec<ReportedRoster>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Totals {
    pub rosters: usize,
    pub legal: usize,
    pub illegal: usize,
    pub unreadable: usize,
    /// Text files with nothing of a roster in them.
    pub not_a_roster: usize,
    /// Sets of rosters that duplicate each other (same player or same
    /// list), each counted once however many rosters it holds.
    pub duplicates: usize,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ReportedRoster {
    /// `legal`, `illegal`, `unreadable` (empty, binary, not UTF-8, over
    /// 1 MiB, missing) or `not-a-roster` (text with no army, points, player
    /// or event line).
    pub status: String,
    /// The army list's name; null when the roster names no known list.
    pub army_name: Option<String>,
    /// The first error, with its line (`line 3: ...`).
    pub first_error: Option<String>,
    /// Rosters this one duplicates: the first of its set, or for the
    /// first, the next (each set is linked in a line, not every pair).
    pub duplicates: Vec<DuplicateReport>,
    #[serde(flatten)]
    pub roster: RosterReport,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct DuplicateReport {
    /// `same-player` or `same-list`.
    pub kind: String,
    /// The other roster's file.
    pub file: String,
}

impl CheckReport {
    pub fn new(summary: &Summary<'_, '_>) -> CheckReport {
        CheckReport {
            muster: env!("CARGO_PKG_VERSION").to_string(),
            event: summary.event.clone(),
            legal: summary.rows.iter().all(|r| r.status == Status::Legal),
            totals: Totals {
                rosters: summary.rows.len(),
                legal: summary.count(Status::Legal),
                illegal: summary.count(Status::Illegal),
                unreadable: summary.count(Status::Unreadable),
                not_a_roster: summary.count(Status::NotARoster),
                duplicates: summary.duplicate_groups().len(),
            },
            rosters: summary
                .rows
                .iter()
                .map(|r| ReportedRoster {
                    status: r.status.as_str().to_string(),
                    army_name: r.army.clone(),
                    first_error: r.first_error.clone(),
                    duplicates: r
                        .duplicates
                        .iter()
                        .map(|d| DuplicateReport {
                            kind: d.kind.as_str().to_string(),
                            file: d.file.clone(),
                        })
                        .collect(),
                    roster: RosterReport::from(r.checked),
                })
                .collect(),
        }
    }
}
