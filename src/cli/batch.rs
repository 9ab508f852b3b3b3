//! `muster check`: one roster or a whole event's worth. Expands the paths
//! (folders walked), checks every roster in parallel with a progress bar on
//! a terminal, prints the detailed findings for a single file or the summary
//! table for several, writes `--report OUT` atomically, and picks the exit
//! status.
//!
//! The library does the work (`batch`, `check`, `report`); this module only
//! decides what goes where.

use super::io::{detailed, usage, write_atomically_with};
use super::{Format, Output, Stream, status};
use crate::batch::{self, Keys, Origin};
use crate::catalogue::Catalogue;
use crate::check::{self, Checked};
use crate::event::Event;
use crate::report::batch_json::stream;
use crate::report::summary::{self, Cells, Row, Status};
use std::fmt::Write as _;
use std::io::{IsTerminal, Write as _};
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

pub fn check(
    catalogue: &Catalogue,
    // The event and the `--points` limit, either of which applies to every roster.
    (event, points): (Option<&Event>, Option<u32>),
    // The paths given, expanded (`batch::collect`).
    inputs: Vec<batch::Input>,
    format: Format,
    report: Option<&Path>,
    color: bool,
    verbose: bool,
) -> Output {
    // A wrong report name is found before any work is done.
    let report = match report.map(|path| ReportFormat::from_path(path).map(|f| (path, f))) {
        Some(Err(message)) => return usage(message),
        Some(Ok(report)) => Some(report),
        None => None,
    };
    let bar = progress_bar(inputs.len());
    let single = inputs.len() == 1 && inputs[0].origin != Origin::Walked;
    let report_format = report.map(|(_, f)| f);
    let want_table = format == Format::Text && !single;
    // Each result is cut down as soon as it is checked, and what the
    // documents need of it goes to temporary files (`Spool`): the JSON
    // parts, the HTML findings, the reports' rows, the terminal table's
    // cells. Memory keeps a status, the duplicate links and the column
    // widths: it does not grow with the rosters beyond a few bytes each.
    let spools = (|| -> std::io::Result<Spools> {
        let wanted = |yes: bool| yes.then(Spool::new).transpose();
        Ok(Spools {
            json: wanted(format == Format::Json || report_format == Some(ReportFormat::Json))?,
            html: wanted(report_format == Some(ReportFormat::Html))?,
            rows: wanted(report.is_some())?,
            table: wanted(want_table)?,
        })
    })();
    let Spools {
        json: mut spool,
        mut html,
        rows: mut row_spool,
        table: mut table_spool,
    } = match spools {
        Ok(spools) => spools,
        Err(e) => {
            return Output {
                stderr: format!("error: cannot create a temporary file: {e}\n"),
                status: status::UNUSABLE,
                ..Output::default()
            };
        }
    };
    let mut table_widths = summary::header_widths();
    let mut statuses = Vec::with_capacity(inputs.len());
    let mut keys = Vec::with_capacity(inputs.len());
    let mut kept: Vec<Checked<'_>> = Vec::new();
    let (mut named_unusable, mut all_legal) = (false, true);
    let (want_json, want_html, want_rows) = (spool.is_some(), html.is_some(), row_spool.is_some());
    let keep_whole = single && format == Format::Text;
    // Facts (garrison, reserve, strength, victory points) are printed
    // by the JSON documents, the HTML findings and the detailed text of a
    // single roster; the table, the CSV and the rows print none.
    let wants = check::Wants {
        points,
        share_link: want_json,
        facts: want_json || want_html || keep_whole,
    };
    batch::check_each(
        &inputs,
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
                cells: want_table.then(|| Cells::of(&row)),
                row: want_rows.then(|| serde_json::to_string(&row).map_err(|e| e.to_string())),
                keys: Keys::of(&checked),
                json: want_json.then(|| stream::fragment(&checked)),
                html: want_html.then(|| crate::report::html::findings(&checked).map_err(|e| e.to_string())),
                whole: keep_whole.then_some(checked),
            }
        },
        &|| {
            if let Some(bar) = &bar {
                bar.inc(1);
            }
        },
        |i, cut| {
            named_unusable |= inputs[i].origin != Origin::Walked && cut.unusable;
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
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let duplicates = batch::duplicates_of(&keys);
    drop(keys);
    let groups = batch::duplicate_groups(&duplicates);
    let event_name = event.map(|e| e.file.name.clone());

    let mut out = Output {
        // 2 when a path the user named (or standard input) cannot be used:
        // that is a mistake in the command. A file found inside a folder
        // that cannot be used is a bad submission, like an illegal roster: 1.
        status: if named_unusable {
            status::UNUSABLE
        } else if all_legal {
            status::OK
        } else {
            status::FAILED
        },
        ..Output::default()
    };
    let finished = (|| -> std::io::Result<_> {
        let finish = |spool: Option<Spool>| spool.map(Spool::finish).transpose();
        Ok((
            finish(spool)?,
            finish(html)?,
            finish(row_spool)?,
            finish(table_spool)?,
        ))
    })();
    let (spooled, html, rows, table) = match finished {
        Ok(spooled) => spooled,
        Err(e) => {
            out.stderr = format!("error: cannot write a temporary file: {e}\n");
            out.status = status::UNUSABLE;
            return out;
        }
    };
    match format {
        Format::Json => {
            let event = event_name.clone();
            out.stream = spooled.clone().map(|spooled| {
                Stream(Box::new(move |w: &mut dyn std::io::Write| {
                    stream::write_output(w, event.as_deref(), all_legal, &mut spooled.parts()?)
                }))
            });
        }
        Format::Text if single => out.stdout = detailed(&kept, color, verbose),
        // Streamed after the report is written (see the end).
        Format::Text => {}
    }
    if let (Some((path, format)), Some(rows)) = (report, rows) {
        let rows = SpooledRows {
            rows,
            event: event_name.as_deref(),
            statuses: &statuses,
            duplicates: &duplicates,
            duplicate_sets: groups.len(),
            inputs: &inputs,
        };
        let read: Vec<&Path> = inputs.iter().map(batch::Input::path).collect();
        let written = write_atomically_with(path, &read, |w| match format {
            ReportFormat::Html => match &html {
                Some(html) => crate::report::html::write(&rows, w, &mut html.parts()?),
                None => Err(std::io::Error::other("no HTML was kept")),
            },
            ReportFormat::Csv => crate::report::csv::write(&rows, w).map_err(std::io::Error::other),
            ReportFormat::Json => match &spooled {
                Some(spooled) => stream::write_report(w, &rows, &mut spooled.parts()?),
                None => Err(std::io::Error::other("no JSON was kept")),
            },
        });
        match written {
            Ok(()) => {
                let _ = writeln!(out.stderr, "wrote {}", path.display());
            }
            Err(e) => {
                let _ = writeln!(
                    out.stderr,
                    "error: cannot write {}: {e}",
                    crate::report::terminal::escape(&path.display().to_string())
                );
                out.status = status::UNUSABLE;
            }
        }
    }
    if let Some(table) = table {
        // Read back and written a few thousand lines at a time: memory
        // holds the widths, a status and a name per roster, not the table.
        let hint = report.is_none() && statuses.iter().any(|&s| s != Status::Legal);
        out.stream = Some(Stream(Box::new(move |w: &mut dyn std::io::Write| {
            write_spooled_table(w, &table, table_widths, &groups, &inputs, &statuses)?;
            if hint {
                w.write_all(b"hint: `--report report.html` writes every finding of every roster\n")?;
            }
            // Freed on the thread pool, idle by now, while this thread
            // finishes: freeing 10,000 names and links cost as much as
            // writing the table.
            rayon::spawn(move || drop((inputs, duplicates, statuses)));
            Ok(())
        })));
    } else if inputs.len() > 1 {
        rayon::spawn(move || drop((inputs, duplicates, statuses)));
    }
    out
}

/// The temporary files a batch writes as it checks (see [`Spool`]).
struct Spools {
    json: Option<Spool>,
    html: Option<Spool>,
    rows: Option<Spool>,
    table: Option<Spool>,
}

/// The terminal table from the cells a batch spooled (see `Spool`), in
/// blocks of [`summary::ROWS_AT_ONCE`]: the same text as
/// [`summary::table`] makes from rows kept in memory.
fn write_spooled_table(
    w: &mut dyn std::io::Write,
    spooled: &Spooled,
    widths: [usize; 7],
    groups: &[batch::DuplicateGroup],
    inputs: &[batch::Input],
    statuses: &[Status],
) -> std::io::Result<()> {
    // The duplicates' lines name the first member's player, as its cell
    // shows it: kept as the rows go by.
    let mut wanted: Vec<usize> = groups
        .iter()
        .filter(|g| g.kind == batch::DuplicateKind::SamePlayer)
        .filter_map(|g| g.members.first().copied())
        .collect();
    wanted.sort_unstable();
    let mut players = std::collections::HashMap::new();
    summary::write_header(w, &widths)?;
    let mut parts = spooled.parts()?.enumerate().peekable();
    let mut rows = Vec::with_capacity(summary::ROWS_AT_ONCE.min(statuses.len()));
    while parts.peek().is_some() {
        rows.clear();
        for (i, part) in parts.by_ref().take(summary::ROWS_AT_ONCE) {
            let row = Cells::from_part(part?)
                .ok_or_else(|| std::io::Error::other("the table's temporary file reads back wrong"))?;
            if wanted.binary_search(&i).is_ok() {
                players.insert(i, row.who().to_string());
            }
            rows.push(row);
        }
        summary::write_rows(w, &widths, &rows)?;
    }
    let name = |i: usize| inputs.get(i).map(|input| summary::file_cell(&input.name));
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
    rows: Spooled,
    event: Option<&'a str>,
    statuses: &'a [Status],
    duplicates: &'a [Vec<batch::Duplicate>],
    duplicate_sets: usize,
    inputs: &'a [batch::Input],
}

impl summary::Rows for SpooledRows<'_> {
    fn event(&self) -> Option<&str> {
        self.event
    }

    fn statuses(&self) -> std::borrow::Cow<'_, [Status]> {
        std::borrow::Cow::Borrowed(self.statuses)
    }

    fn duplicate_sets(&self) -> usize {
        self.duplicate_sets
    }

    fn read(&self) -> std::io::Result<Box<dyn Iterator<Item = std::io::Result<Row>> + '_>> {
        let rows = self.rows.parts()?.enumerate().map(|(i, part)| {
            let mut row: Row = serde_json::from_str(&part?).map_err(std::io::Error::other)?;
            let links = self.duplicates.get(i).map_or(&[][..], Vec::as_slice);
            row.duplicates = links
                .iter()
                .filter_map(|d| {
                    Some(summary::DuplicateRow {
                        kind: d.kind,
                        other: d.other,
                        file: self.inputs.get(d.other)?.name.clone(),
                    })
                })
                .collect();
            Ok(row)
        });
        Ok(Box::new(rows))
    }
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

/// A part of each roster (its JSON, the HTML of its findings, its row, its
/// table cells), in order, in an unnamed temporary file (gone when the
/// process ends): written as rosters are checked, read back while the
/// documents are written.
struct Spool {
    file: std::io::BufWriter<std::fs::File>,
    lengths: Vec<u32>,
    error: Option<std::io::Error>,
}

impl Spool {
    fn new() -> std::io::Result<Spool> {
        Ok(Spool {
            file: std::io::BufWriter::new(tempfile::tempfile()?),
            lengths: Vec::new(),
            error: None,
        })
    }

    fn push(&mut self, part: &str) {
        if self.error.is_some() {
            return;
        }
        let length = u32::try_from(part.len()).map_err(std::io::Error::other);
        match length.and_then(|n| self.file.write_all(part.as_bytes()).map(|()| n)) {
            Ok(n) => self.lengths.push(n),
            Err(e) => self.error = Some(e),
        }
    }

    fn fail(&mut self, e: std::io::Error) {
        self.error.get_or_insert(e);
    }

    fn finish(self) -> std::io::Result<Spooled> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let file = self.file.into_inner().map_err(|e| e.into_error())?;
        Ok(Spooled {
            file: std::sync::Arc::new(file),
            lengths: std::sync::Arc::new(self.lengths),
        })
    }
}

/// A finished [`Spool`], read from the start as often as needed.
#[derive(Clone)]
struct Spooled {
    file: std::sync::Arc<std::fs::File>,
    lengths: std::sync::Arc<Vec<u32>>,
}

impl Spooled {
    fn parts(&self) -> std::io::Result<impl Iterator<Item = std::io::Result<String>> + use<>> {
        use std::io::{Read, Seek};
        let mut file: &std::fs::File = &self.file;
        file.seek(std::io::SeekFrom::Start(0))?;
        let mut reader = std::io::BufReader::new(self.file.try_clone()?);
        let lengths = std::sync::Arc::clone(&self.lengths);
        Ok((0..lengths.len()).map(move |i| {
            let mut part = vec![0; lengths[i] as usize];
            reader.read_exact(&mut part)?;
            String::from_utf8(part).map_err(std::io::Error::other)
        }))
    }
}

/// A progress bar on standard error, only for several rosters, only on a
/// terminal, and never in CI (whose logs are not terminals even when they
/// pretend to be).
fn progress_bar(count: usize) -> Option<indicatif::ProgressBar> {
    if count < 2 || !std::io::stderr().is_terminal() || std::env::var_os("CI").is_some() {
        return None;
    }
    let bar =
        indicatif::ProgressBar::with_draw_target(Some(count as u64), indicatif::ProgressDrawTarget::stderr());
    if let Ok(style) = indicatif::ProgressStyle::with_template("checking {bar:40} {pos}/{len} rosters") {
        bar.set_style(style);
    }
    Some(bar)
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
