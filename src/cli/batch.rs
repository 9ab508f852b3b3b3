//! `muster check`: one roster or a whole event's worth. Expands the paths
//! (folders walked), checks every roster in parallel with a progress bar on
//! a terminal, prints the detailed findings for a single file or the summary
//! table for several, writes `--report OUT` atomically, and picks the exit
//! status.
//!
//! The library does the work (`batch`, `check`, `report`); this module only
//! decides what goes where.

use super::commands::{detailed, to_json, usage};
use super::{Format, Output, status};
use crate::batch::{self, Input, Origin};
use crate::catalogue::Catalogue;
use crate::check::{self, Checked};
use crate::event::Event;
use crate::report::json::CheckOutput;
use crate::report::summary::{self, Status, Summary};
use std::fmt::Write as _;
use std::io::{IsTerminal, Write as _};
use std::path::{Path, PathBuf};

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
    event: Option<&Event>,
    files: &[PathBuf],
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
    let inputs = batch::collect(files);
    let bar = progress_bar(inputs.len());
    let results = batch::check_all(
        &inputs,
        // The seam for whatever applies to every roster (here, the event).
        |bytes, name| check::check_bytes_for(catalogue, event, name, bytes),
        &|| {
            if let Some(bar) = &bar {
                bar.inc(1);
            }
        },
    );
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let duplicates = batch::duplicates(&results);
    let summary = Summary::new(&results, &duplicates, event.map(|e| e.file.name.clone()));

    let single = inputs.len() == 1 && inputs[0].origin != Origin::Walked;
    let mut out = Output {
        status: exit_status(&inputs, &results),
        ..Output::default()
    };
    out.stdout = match format {
        Format::Json => to_json(&CheckOutput::new(&results, event)),
        Format::Text if single => detailed(&results, color, verbose),
        Format::Text => {
            let mut text = summary::table(&summary);
            if report.is_none() && summary.rows.iter().any(|r| r.status != Status::Legal) {
                text.push_str("hint: `--report report.html` writes every finding of every roster\n");
            }
            text
        }
    };
    if let Some((path, format)) = report {
        match render(&summary, format).and_then(|text| {
            let read: Vec<&Path> = inputs.iter().map(|i| i.path.as_path()).collect();
            write_atomically(path, text.as_bytes(), &read)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))
        }) {
            Ok(()) => {
                let _ = writeln!(out.stderr, "wrote {}", path.display());
            }
            Err(message) => {
                let _ = writeln!(out.stderr, "error: {message}");
                out.status = status::UNUSABLE;
            }
        }
    }
    out
}

/// 2 when a path the user named (or standard input) cannot be used: that
/// is a mistake in the command. A file found inside a folder that cannot be
/// used is a bad submission, like an illegal roster: 1.
fn exit_status(inputs: &[Input], results: &[Checked<'_>]) -> u8 {
    let named_unusable = inputs
        .iter()
        .zip(results)
        .any(|(input, c)| input.origin != Origin::Walked && c.unusable());
    if named_unusable {
        status::UNUSABLE
    } else if results.iter().all(Checked::legal) {
        status::OK
    } else {
        status::FAILED
    }
}

fn render(summary: &Summary<'_, '_>, format: ReportFormat) -> Result<String, String> {
    match format {
        ReportFormat::Html => crate::report::html::render(summary).map_err(|e| e.to_string()),
        ReportFormat::Csv => crate::report::csv::render(summary).map_err(|e| e.to_string()),
        ReportFormat::Json => Ok(to_json(&crate::report::batch_json::CheckReport::new(summary))),
    }
}

/// Writes `bytes` to a temporary file beside `path`, then renames it over
/// `path`: a run that is interrupted or fails leaves the old file or none,
/// never half of one, and a symbolic link at `path` is replaced, not
/// followed. A `path` that is one of `inputs` (the same file, by any name)
/// is refused: `roster x.txt --html x.txt` once overwrote the roster.
pub fn write_atomically(path: &Path, bytes: &[u8], inputs: &[&Path]) -> std::io::Result<()> {
    if inputs.iter().any(|input| same_file(path, input)) {
        return Err(std::io::Error::other("it is one of the files being read"));
    }
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    // Registered, so an interruption before the rename removes it.
    let (mut temp, _registered) = super::interrupt::temp_file_in(dir)?;
    temp.write_all(bytes)?;
    temp.as_file().sync_all()?;
    pause_for_tests();
    // Temporary files are private to their owner; a report is for sharing.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        temp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))?;
    }
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// `MUSTER_TEST_PAUSE_BEFORE_RENAME_MS`: a pause between writing the
/// temporary file and renaming it, so that `tests/it/hostile.rs` can
/// interrupt a run at that point. Not for users; capped at ten seconds.
fn pause_for_tests() {
    if let Some(ms) = std::env::var("MUSTER_TEST_PAUSE_BEFORE_RENAME_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        std::thread::sleep(std::time::Duration::from_millis(ms.min(10_000)));
    }
}

/// Whether two paths name the same existing file (followed through links).
fn same_file(a: &Path, b: &Path) -> bool {
    if b.as_os_str() == "-" {
        return false;
    }
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        #[cfg(unix)]
        (Ok(a), Ok(b)) => {
            use std::os::unix::fs::MetadataExt;
            a.dev() == b.dev() && a.ino() == b.ino()
        }
        #[cfg(not(unix))]
        (Ok(_), Ok(_)) => std::fs::canonicalize(a).ok() == std::fs::canonicalize(b).ok(),
        _ => false,
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
