//! A batch checked into the documents asked of it (`muster check` of many
//! rosters): each result is cut down as soon as it is checked, and what
//! the documents need of it goes to temporary files ([`Spool`]): the JSON
//! parts, the HTML findings, the reports' rows, the terminal table's
//! cells. Memory keeps a status, the duplicate links and the column
//! widths: it does not grow with the rosters beyond a few bytes each.
//! The documents are then written from the spools, a part at a time.
//!
//! This module decides nothing about where documents go or what the exit
//! status is: the caller (the CLI) does.

use super::spool::{Spool, Spooled};
use super::{DuplicateGroup, DuplicateKind, Inputs, Keys, Links, Origin};
use crate::catalogue::Catalogue;
use crate::check::{self, Checked};
use crate::event::Event;
use crate::report::batch_json::stream;
use crate::report::summary::{self, Cells, Row, Status};
use std::path::Path;

/// What `--report OUT` writes, from OUT's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportFormat {
    Html,
    Csv,
    Json,
}

impl ReportFormat {
    pub fn from_path(path: &Path) -> Result<ReportFormat, String> {
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match extension.as_deref() {
            Some("html" | "htm") => Ok(ReportFormat::Html),
            Some("csv") => Ok(ReportFormat::Csv),
            Some("json") => Ok(ReportFormat::Json),
            _ => Err(format!(
                "cannot tell the report format from `{}`: name it .html, .csv or .json",
                path.display()
            )),
        }
    }
}

/// The documents a batch is asked for.
#[derive(Debug, Clone, Copy, Default)]
pub struct Wanted {
    /// The JSON document (`--format json`) or the JSON report.
    pub json: bool,
    /// The HTML report's findings.
    pub html: bool,
    /// The rows of a report (any format).
    pub rows: bool,
    /// The terminal table.
    pub table: bool,
    /// Every result whole: the detailed text of a single roster.
    pub whole: bool,
}

/// A temporary file that could not be used.
#[derive(Debug)]
pub enum SpoolError {
    Create(std::io::Error),
    Write(std::io::Error),
}

/// A batch checked: what is kept of each roster, and the spooled parts of
/// the documents asked for.
pub struct Documents<'c> {
    /// Each input's status, in order.
    pub statuses: Vec<Status>,
    /// Each input's duplicate links.
    pub duplicates: Links,
    /// The sets of duplicates, each once.
    pub groups: Vec<DuplicateGroup>,
    /// Whether an input the user named (not one found in a folder) could
    /// not be used.
    pub named_unusable: bool,
    /// Whether every roster is legal.
    pub all_legal: bool,
    /// The results kept whole ([`Wanted::whole`]).
    pub kept: Vec<Checked<'c>>,
    /// Each roster's part of the JSON document.
    pub json: Option<Spooled>,
    /// Each roster's findings in the HTML report.
    pub html: Option<Spooled>,
    /// Each roster's report row, as JSON.
    pub rows: Option<Spooled>,
    /// Each roster's cells of the terminal table.
    pub table: Option<Spooled>,
    /// The terminal table's column widths.
    pub table_widths: [usize; 7],
}

/// The temporary files a batch writes as it checks.
struct Spools {
    json: Option<Spool>,
    html: Option<Spool>,
    rows: Option<Spool>,
    table: Option<Spool>,
}

/// What the batch keeps of one checked roster: its status, its duplicate
/// keys, and its parts of the documents asked for, made on the thread that
/// checked it.
struct Cut<'c> {
    unusable: bool,
    legal: bool,
    status: Status,
    /// The row, serialized for the report, when one is written.
    row: Option<Result<String, String>>,
    /// The row's cells in the terminal table, when it is printed.
    cells: Option<Cells>,
    keys: Keys,
    json: Option<String>,
    html: Option<Result<String, String>>,
    /// The whole result, for the detailed text of a single roster.
    whole: Option<Checked<'c>>,
}

/// Checks every input against `catalogue` (with the event and the
/// `--points` limit, either of which applies to every roster) and spools
/// the documents `wanted`; `progress` is called once per finished input.
pub fn check_into<'c>(
    catalogue: &'c Catalogue,
    (event, points): (Option<&Event>, Option<u32>),
    inputs: &Inputs,
    wanted: Wanted,
    progress: &(dyn Fn() + Sync),
) -> Result<Documents<'c>, SpoolError> {
    let spools = (|| -> std::io::Result<Spools> {
        let spool = |yes: bool| yes.then(Spool::new).transpose();
        Ok(Spools {
            json: spool(wanted.json)?,
            html: spool(wanted.html)?,
            rows: spool(wanted.rows)?,
            table: spool(wanted.table)?,
        })
    })();
    let Spools {
        json: mut spool,
        mut html,
        rows: mut row_spool,
        table: mut table_spool,
    } = spools.map_err(SpoolError::Create)?;
    let mut table_widths = summary::header_widths();
    let mut statuses = Vec::with_capacity(inputs.len());
    let mut keys = Vec::with_capacity(inputs.len());
    let mut kept: Vec<Checked<'c>> = Vec::new();
    let (mut named_unusable, mut all_legal) = (false, true);
    // Facts (garrison, reserve, strength, victory points) are printed
    // by the JSON documents, the HTML findings and the detailed text of a
    // single roster; the table, the CSV and the rows print none.
    let wants = check::Wants {
        points,
        share_link: wanted.json,
        facts: wanted.json || wanted.html || wanted.whole,
    };
    super::check_each(
        inputs,
        // The seam for whatever applies to every roster (here, the event).
        // Share links are only in the JSON documents.
        |bytes, name| check::check_bytes_with(catalogue, event, name, bytes, wants),
        // On the checking thread: what is kept of each result.
        |checked| {
            let row = Row::of(&checked);
            Cut {
                unusable: checked.unusable(),
                legal: checked.legal(),
                status: row.status,
                cells: wanted.table.then(|| Cells::of(&row)),
                row: wanted.rows.then(|| Ok::<_, String>(super::row_part::write(&row))),
                keys: Keys::of(&checked),
                json: wanted.json.then(|| stream::fragment(&checked)),
                html: wanted
                    .html
                    .then(|| crate::report::html::findings(&checked).map_err(|e| e.to_string())),
                whole: wanted.whole.then_some(checked),
            }
        },
        progress,
        |i, cut| {
            named_unusable |= inputs.origin(i) != Origin::Walked && cut.unusable;
            all_legal &= cut.legal;
            statuses.push(cut.status);
            keys.push(cut.keys);
            if let (Some(spool), Some(cells)) = (&mut table_spool, cut.cells) {
                cells.widen(&mut table_widths);
                spool.push(&cells.into_part());
            }
            for (spool, part) in [(&mut row_spool, cut.row), (&mut html, cut.html)] {
                match (spool, part) {
                    (Some(spool), Some(Ok(part))) => spool.push(&part),
                    (Some(spool), Some(Err(e))) => spool.fail(std::io::Error::other(e)),
                    _ => {}
                }
            }
            if let (Some(spool), Some(part)) = (&mut spool, &cut.json) {
                spool.push(part);
            }
            kept.extend(cut.whole);
        },
    );
    let duplicates = Links::find(&keys);
    drop(keys);
    let groups = duplicates.groups();
    let finish = |spool: Option<Spool>| spool.map(Spool::finish).transpose().map_err(SpoolError::Write);
    Ok(Documents {
        statuses,
        duplicates,
        groups,
        named_unusable,
        all_legal,
        kept,
        json: finish(spool)?,
        html: finish(html)?,
        rows: finish(row_spool)?,
        table: finish(table_spool)?,
        table_widths,
    })
}

/// The JSON document (`--format json`) from its spooled parts.
pub fn write_json(
    w: &mut dyn std::io::Write,
    json: &Spooled,
    event: Option<&str>,
    all_legal: bool,
) -> std::io::Result<()> {
    stream::write_output(w, event, all_legal, &mut json.parts()?)
}

/// A report (`--report OUT`) from the spooled parts its format needs.
pub fn write_report(
    w: &mut dyn std::io::Write,
    format: ReportFormat,
    documents: &Documents<'_>,
    rows: &Spooled,
    event: Option<&str>,
    inputs: &Inputs,
) -> std::io::Result<()> {
    let rows = SpooledRows {
        rows,
        event,
        statuses: &documents.statuses,
        duplicates: &documents.duplicates,
        groups: &documents.groups,
        inputs,
    };
    match format {
        ReportFormat::Html => match &documents.html {
            Some(html) => crate::report::html::write(&rows, w, &mut html.parts()?),
            None => Err(std::io::Error::other("no HTML was kept")),
        },
        ReportFormat::Csv => crate::report::csv::write(&rows, w).map_err(std::io::Error::other),
        ReportFormat::Json => match &documents.json {
            Some(spooled) => stream::write_report(w, &rows, &mut spooled.parts()?),
            None => Err(std::io::Error::other("no JSON was kept")),
        },
    }
}

/// The terminal table from the cells a batch spooled, in blocks of
/// [`summary::rows_at_once`]: the same text as [`summary::table`] makes
/// from rows kept in memory.
pub fn write_table(
    w: &mut dyn std::io::Write,
    spooled: &Spooled,
    widths: [usize; 7],
    groups: &[DuplicateGroup],
    inputs: &Inputs,
    statuses: &[Status],
) -> std::io::Result<()> {
    // The duplicates' lines name the first member's player, as its cell
    // shows it: kept as the rows go by.
    let mut wanted: Vec<usize> = groups
        .iter()
        .filter(|g| g.kind == DuplicateKind::SamePlayer)
        .filter_map(|g| g.members.first().copied())
        .collect();
    wanted.sort_unstable();
    let mut players = std::collections::HashMap::new();
    summary::write_header(w, &widths)?;
    let mut parts = spooled.texts()?.enumerate().peekable();
    let at_once = summary::rows_at_once();
    let mut rows = Vec::with_capacity(at_once.min(statuses.len()));
    while parts.peek().is_some() {
        rows.clear();
        for (i, part) in parts.by_ref().take(at_once) {
            let row = Cells::from_part(part?)
                .ok_or_else(|| std::io::Error::other("the table's temporary file reads back wrong"))?;
            if wanted.binary_search(&i).is_ok() {
                players.insert(i, row.who().to_string());
            }
            rows.push(row);
        }
        summary::write_rows(w, &widths, &rows)?;
    }
    let name = |i: usize| (i < inputs.len()).then(|| summary::file_cell(&inputs.get(i).name));
    let player = |i: usize| players.get(&i).cloned().unwrap_or_default();
    summary::write_tail(
        w,
        groups,
        name,
        player,
        &summary::totals_line(statuses, groups.len()),
    )
}

/// The rows of a batch for its report: read back from their temporary
/// file, each given its duplicates (named by the inputs) as it is read.
struct SpooledRows<'a> {
    rows: &'a Spooled,
    event: Option<&'a str>,
    statuses: &'a [Status],
    duplicates: &'a Links,
    groups: &'a [DuplicateGroup],
    inputs: &'a Inputs,
}

impl summary::Rows for SpooledRows<'_> {
    fn event(&self) -> Option<&str> {
        self.event
    }

    fn statuses(&self) -> std::borrow::Cow<'_, [Status]> {
        std::borrow::Cow::Borrowed(self.statuses)
    }

    fn duplicate_sets(&self) -> usize {
        self.groups.len()
    }

    fn read(&self) -> std::io::Result<Box<dyn Iterator<Item = std::io::Result<Row>> + '_>> {
        let rows = self.rows.parts()?.enumerate().map(|(i, part)| {
            let mut row = super::row_part::read(&part?)
                .ok_or_else(|| std::io::Error::other("the report's temporary file reads back wrong"))?;
            let links: Vec<_> = self.duplicates.of(i).collect();
            row.duplicates = summary::DuplicateRow::of_links(i, &links, self.groups, |m| {
                (m < self.inputs.len()).then(|| self.inputs.get(m).name.into_owned())
            });
            Ok(row)
        });
        Ok(Box::new(rows))
    }
}

#[cfg(test)]
mod tests {
    use super::ReportFormat;
    use std::path::Path;

    #[test]
    fn the_report_format_comes_from_the_extension() {
        assert_eq!(
            ReportFormat::from_path(Path::new("out/r.HTML")),
            Ok(ReportFormat::Html)
        );
        assert_eq!(
            ReportFormat::from_path(Path::new("r.htm")),
            Ok(ReportFormat::Html)
        );
        assert_eq!(ReportFormat::from_path(Path::new("r.csv")), Ok(ReportFormat::Csv));
        assert_eq!(
            ReportFormat::from_path(Path::new("r.json")),
            Ok(ReportFormat::Json)
        );
        assert!(ReportFormat::from_path(Path::new("r.txt")).is_err());
        assert!(ReportFormat::from_path(Path::new("report")).is_err());
    }
}
