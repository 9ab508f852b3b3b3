//! `muster check`: one roster or a whole event's worth. Checks the
//! expanded paths with a progress bar on a terminal, prints the detailed
//! findings for a single file or the summary table for several, writes
//! `--report OUT` atomically, and picks the exit status.
//!
//! The library does the work (`batch::documents` checks and spools,
//! `check`, `report`); this module only decides what goes where.

use super::io::{detailed, usage, write_atomically_with};
use super::{Format, Output, Stream, status};
use crate::batch::documents::{self, ReportFormat, SpoolError, Wanted};
use crate::batch::{self, Origin};
use crate::catalogue::Catalogue;
use crate::event::Event;
use crate::report::summary::Status;
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::Path;

pub fn check(
    catalogue: &Catalogue,
    // The event and the `--points` limit, either of which applies to every roster.
    (event, points): (Option<&Event>, Option<u32>),
    // The paths given, expanded (`batch::collect`).
    inputs: batch::Inputs,
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
    if let Some((path, _)) = report {
        // Each input's path, as it is compared: not a vector of 100,000.
        if let Err(message) =
            super::io::can_write(path, inputs.iter().map(|input| input.path().to_path_buf()))
        {
            return usage(message);
        }
    }
    let bar = progress_bar(inputs.len());
    let single = inputs.len() == 1 && inputs.origin(0) != Origin::Walked;
    let report_format = report.map(|(_, f)| f);
    let wanted = Wanted {
        json: format == Format::Json || report_format == Some(ReportFormat::Json),
        html: report_format == Some(ReportFormat::Html),
        rows: report.is_some(),
        table: format == Format::Text && !single,
        whole: single && format == Format::Text,
    };
    let progress = || {
        if let Some(bar) = &bar {
            bar.inc(1);
        }
    };
    let checked = documents::check_into(catalogue, (event, points), &inputs, wanted, &progress);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let documents = match checked {
        Ok(documents) => documents,
        Err(SpoolError::Create(e)) => {
            return unusable(format!(
                "cannot create a temporary file: {}",
                crate::source::io_error(&e)
            ));
        }
        Err(SpoolError::Write(e)) => {
            return unusable(format!(
                "cannot write a temporary file: {}",
                crate::source::io_error(&e)
            ));
        }
    };
    let event_name = event.map(|e| e.file.name.clone());
    let mut out = Output {
        // 2 when a path the user named (or standard input) cannot be used:
        // that is a mistake in the command. A file found inside a folder
        // that cannot be used is a bad submission, like an illegal roster: 1.
        status: if documents.named_unusable {
            status::UNUSABLE
        } else if documents.all_legal {
            status::OK
        } else {
            status::FAILED
        },
        ..Output::default()
    };
    match format {
        Format::Json => {
            let (event, all_legal) = (event_name.clone(), documents.all_legal);
            out.stream = documents.json.clone().map(|json| {
                Stream(Box::new(move |w: &mut dyn std::io::Write| {
                    documents::write_json(w, &json, event.as_deref(), all_legal)
                }))
            });
        }
        Format::Text if single => out.stdout = detailed(&documents.kept, color, verbose),
        // Streamed after the report is written (see the end).
        Format::Text => {}
    }
    if let (Some((path, format)), Some(rows)) = (report, &documents.rows) {
        let read = inputs.iter().map(|input| input.path().to_path_buf());
        let written = write_atomically_with(path, read, |w| {
            documents::write_report(w, format, &documents, rows, event_name.as_deref(), &inputs)
        });
        match written {
            Ok(()) => {
                let _ = writeln!(out.stderr, "wrote {}", path.display());
            }
            Err(e) => {
                let _ = writeln!(
                    out.stderr,
                    "error: cannot write {}: {}",
                    crate::report::terminal::escape(&path.display().to_string()),
                    crate::source::io_error(&e)
                );
                out.status = status::UNUSABLE;
            }
        }
    }
    let documents::Documents {
        statuses,
        duplicates,
        groups,
        table,
        table_widths,
        ..
    } = documents;
    if let Some(table) = table {
        // Read back and written a few thousand lines at a time: memory
        // holds the widths, a status and a name per roster, not the table.
        let hint = report.is_none() && statuses.iter().any(|&s| s != Status::Legal);
        out.stream = Some(Stream(Box::new(move |w: &mut dyn std::io::Write| {
            documents::write_table(w, &table, table_widths, &groups, &inputs, &statuses)?;
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

/// A temporary file could not be used: nothing is written.
fn unusable(message: String) -> Output {
    Output {
        stderr: format!("error: {message}\n"),
        status: status::UNUSABLE,
        ..Output::default()
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
