//! The JSON report of a batch (`muster check DIR --report OUT.json`), with
//! its schema in `schema/check-report.schema.json`. Each roster carries the
//! same fields as in `muster check --format json`, plus its status, first
//! error and duplicates. Fields are only ever added.

use super::json::RosterReport;
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
    /// Rosters this one duplicates: every other roster of each of its
    /// sets, up to 50 a set.
    pub duplicates: Vec<DuplicateReport>,
    /// Other rosters of its sets not in `duplicates` (a set of more than
    /// 51); absent when there are none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub duplicates_not_listed: usize,
    #[serde(flatten)]
    pub roster: RosterReport,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct DuplicateReport {
    /// `same-player` or `same-list`.
    pub kind: String,
    /// The other roster's file.
    pub file: String,
}

/// The JSON documents of a batch written a roster at a time: each roster's
/// part is serialized when it is checked ([`fragment`]) and kept outside
/// memory by the caller; [`write_output`] and [`write_report`] then write
/// the document around the parts, byte for byte what `serde_json` prints
/// for [`super::json::CheckOutput`] and [`CheckReport`] built whole.
pub mod stream {
    use super::super::json::RosterReport;
    use super::super::summary::{Rows, Status};
    use super::{DuplicateReport, Totals};
    use crate::check::Checked;
    use serde::Serialize;
    use std::io::{self, Write};

    /// The rosters of a document sit two levels deep.
    const LEVEL: usize = 2;

    /// Pretty JSON of `value`, every line indented by `level` levels: what
    /// `serde_json::to_string_pretty` prints, that much deeper.
    fn indented<T: Serialize>(value: &T, level: usize) -> String {
        super::super::pretty::indented(value, level).unwrap_or_else(|e| {
            let mut out = "  ".repeat(level);
            out.push_str(&format!("{{\"error\": \"{e}\"}}"));
            out
        })
    }

    /// One roster's part of either document, as it will be printed.
    pub fn fragment(c: &Checked<'_>) -> String {
        indented(&RosterReport::from(c), LEVEL)
    }

    /// An object's fields without its closing brace, to add more after.
    fn open(text: &str) -> &str {
        text.trim_end().strip_suffix('}').unwrap_or(text).trim_end()
    }

    fn rosters<W: Write + ?Sized>(
        out: &mut W,
        head: &str,
        parts: &mut dyn Iterator<Item = io::Result<Vec<u8>>>,
        mut lead: impl FnMut(usize) -> io::Result<Option<String>>,
    ) -> io::Result<()> {
        write!(out, "{},\n  \"rosters\": [", open(head))?;
        let mut any = false;
        for (i, part) in parts.enumerate() {
            let part = part?;
            out.write_all(if any { b",\n" } else { b"\n" })?;
            any = true;
            match lead(i)? {
                // The report's own fields come first, then the roster's
                // (flattened into the same object).
                Some(lead) => {
                    let body = memchr::memchr(b'\n', &part).map_or(&[][..], |at| &part[at + 1..]);
                    writeln!(out, "{},", open(&lead))?;
                    out.write_all(body)?;
                }
                None => out.write_all(&part)?,
            }
        }
        out.write_all(if any { b"\n  ]\n}\n" } else { b"]\n}\n" })
    }

    #[derive(Serialize)]
    struct OutputHead<'a> {
        muster: &'a str,
        event: Option<&'a str>,
        legal: bool,
    }

    /// `muster check --format json`: the parts of every roster, in order.
    pub fn write_output<W: Write + ?Sized>(
        out: &mut W,
        event: Option<&str>,
        legal: bool,
        parts: &mut dyn Iterator<Item = io::Result<Vec<u8>>>,
    ) -> io::Result<()> {
        let head = serde_json::to_string_pretty(&OutputHead {
            muster: env!("CARGO_PKG_VERSION"),
            event,
            legal,
        })
        .map_err(io::Error::other)?;
        rosters(out, &head, parts, |_| Ok(None))
    }

    #[derive(Serialize)]
    struct ReportHead<'a> {
        muster: &'a str,
        event: Option<&'a str>,
        legal: bool,
        totals: Totals,
    }

    #[derive(Serialize)]
    struct Lead<'a> {
        status: &'a str,
        army_name: Option<&'a str>,
        first_error: Option<&'a str>,
        duplicates: Vec<DuplicateReport>,
        #[serde(skip_serializing_if = "super::is_zero")]
        duplicates_not_listed: usize,
    }

    /// `--report OUT.json`: the rows with the parts of the same rosters,
    /// in order, a roster at a time.
    pub fn write_report<W: Write + ?Sized>(
        out: &mut W,
        rows: &dyn Rows,
        parts: &mut dyn Iterator<Item = io::Result<Vec<u8>>>,
    ) -> io::Result<()> {
        let statuses = rows.statuses();
        let count = |status: Status| statuses.iter().filter(|&&s| s == status).count();
        let totals = Totals {
            rosters: statuses.len(),
            legal: count(Status::Legal),
            illegal: count(Status::Illegal),
            unreadable: count(Status::Unreadable),
            not_a_roster: count(Status::NotARoster),
            duplicates: rows.duplicate_sets(),
        };
        let head = serde_json::to_string_pretty(&ReportHead {
            muster: env!("CARGO_PKG_VERSION"),
            event: rows.event(),
            legal: statuses.iter().all(|&s| s == Status::Legal),
            totals,
        })
        .map_err(io::Error::other)?;
        // A row is read as its roster's part is written.
        let mut read = rows.read()?;
        let lead = |_| {
            let Some(r) = read.next().transpose()? else {
                return Ok(None);
            };
            let duplicates_not_listed = r.duplicates.iter().map(|d| d.more).sum();
            let duplicates = r
                .duplicates
                .into_iter()
                .flat_map(|d| {
                    let kind = d.kind.as_str();
                    d.files.into_iter().map(move |file| DuplicateReport {
                        kind: kind.to_string(),
                        file,
                    })
                })
                .collect();
            let lead = Lead {
                status: r.status.as_str(),
                army_name: r.army.as_deref(),
                first_error: r.first_error.as_deref(),
                duplicates,
                duplicates_not_listed,
            };
            Ok(Some(indented(&lead, LEVEL)))
        };
        rosters(out, &head, parts, lead)
    }
}
