//! The subcommands. Each turns its arguments into library calls and its
//! results into an [`Output`].

use super::io::{find, load_event, usage, write_atomically};
use super::{Args, Command, EventAction, Format, Output, status};
use crate::catalogue::{self, ArmyList, Catalogue, ListKey, LoadReport};
use crate::diagnostic::Diagnostic;
use crate::import::snapfire::Link;
use crate::report::terminal;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::Path;

/// The one army list a command needs, when it needs only one: then the
/// catalogue loads only that list and what it uses (and, with an event,
/// the lists it allows: see [`load`]). A roster file is read here just
/// for its header (a Snapfire link for its list, a BattleScribe roster for
/// its catalogues); a check of several files needs every list. With it,
/// whether the command may need the scenario files (only a check of a
/// roster with no `Scenario:` line does not).
fn army_named(command: &Command) -> Option<(ListKey, bool)> {
    let from_roster = |path: &Path| -> Option<(ListKey, bool)> {
        let link = |text: &str| Some((ListKey::Snapfire(Link::parse(text).ok()?.list), false));
        if let Some(text) = super::print::link_argument(path) {
            return link(text);
        }
        // Only a regular file of a roster's size; anything else is left to
        // the command, which reports it.
        let bytes = crate::source::read_regular(path, crate::roster::MAX_ROSTER_BYTES).ok()?;
        let name = path.display().to_string();
        if crate::import::battlescribe::is_roster(&name, &bytes) {
            // Read into text with no `Scenario:` line.
            return crate::import::battlescribe::list_key(&name, &bytes).map(|key| (key, false));
        }
        let text = crate::roster::decode(&bytes).ok()?;
        if crate::import::snapfire::is_link(&text) {
            return link(&text);
        }
        let file = crate::source::SourceFile::new(name, text);
        crate::roster::army_and_scenario(&file).map(|(army, scenario)| (ListKey::Name(army), scenario))
    };
    let named = |army: &String| Some((ListKey::Name(army.clone()), true));
    match command {
        Command::Check { files, .. } if files.len() == 1 && files[0].as_os_str() != "-" => {
            from_roster(&files[0])
        }
        Command::Options { army, .. } => named(army),
        Command::New { army: Some(army), .. } => named(army),
        Command::Explain { army: Some(army), .. } => named(army),
        Command::Sheet { army: Some(army), .. } => named(army),
        Command::Sheet {
            army: None,
            roster: Some(path),
            ..
        } => from_roster(path),
        Command::Roster { file, .. } => from_roster(file),
        _ => None,
    }
}

/// Which files the command proves while loading. A check of the user's
/// folder proves the folder's files, and the built-in lists its
/// datasheets may no longer fit: the built-in files were proven before
/// they were built in (`--built-in` proves them all again).
fn checks(args: &Args) -> catalogue::Checks {
    match &args.command {
        Command::Lists {
            check: true,
            built_in,
            ..
        } if args.lists.is_none() || *built_in => catalogue::Checks::All,
        Command::Lists { check: true, .. } => catalogue::Checks::Folder,
        _ => catalogue::Checks::Added,
    }
}

/// The catalogue a command needs: with `checks` proven, and, for one
/// roster, only its list and what that uses ([`army_named`]). A check
/// against an event loads the lists the event allows as well, which it
/// is checked against; all of them when its file cannot be read for them.
fn load(args: &Args, checks: catalogue::Checks) -> LoadReport {
    let extra = args.lists.as_deref();
    let named = army_named(&args.command).filter(|_| checks == catalogue::Checks::Added);
    // A check prints no datasheet, so it needs no glossary.
    let glossary = !matches!(args.command, Command::Check { .. });
    let event = match &args.command {
        Command::Check { event, .. } | Command::Roster { event, .. } => event.as_deref(),
        _ => None,
    };
    match (named, event) {
        (Some((key, _)), Some(path)) => match event_lists(path) {
            Some(lists) => catalogue::load_for_event(extra, &key, &lists, glossary),
            None => catalogue::load_with(extra, checks),
        },
        (Some((key, scenarios)), None) if !glossary => catalogue::load_for_key(extra, &key, false, scenarios),
        (Some((key, _)), None) => catalogue::load_for_key(extra, &key, true, true),
        _ => catalogue::load_with(extra, checks),
    }
}

/// The lists an event file allows, read for [`load`] before the
/// catalogue; `None` when it cannot be read (its check says why).
fn event_lists(path: &Path) -> Option<catalogue::EventLists> {
    crate::event::lists_named(&super::io::event_source(path).ok()?)
}

pub fn run(args: &Args, color: bool) -> Output {
    let checks = checks(args);
    let load = || load(args, checks);
    // A check of several files or of a folder walks them while the
    // catalogue loads (every list, since its rosters may name any): the
    // two are independent, and each was a serial part of the run.
    let (report, walked) = match &args.command {
        Command::Check { files, .. } if files.len() > 1 || files.first().is_some_and(|f| f.is_dir()) => {
            let (report, inputs) = rayon::join(load, || crate::batch::collect(files));
            (report, Some(inputs))
        }
        _ => (load(), None),
    };
    // The catalogue lives as long as the process: leaking it skips freeing
    // thousands of small allocations just before exit.
    let report: &'static LoadReport = Box::leak(Box::new(report));
    match &args.command {
        Command::Lists {
            format,
            check,
            built_in,
        } => {
            // A check of the user's folder reports on the folder: the
            // built-in lists' warnings only on request.
            let own = args.lists.as_deref().filter(|_| !*built_in);
            lists(report, *format, (*check, own), color)
        }
        Command::Schema { out, check } => schema(out, *check),
        other => {
            if report.has_errors() {
                return Output {
                    stderr: format!(
                        "{}error: the army lists could not be loaded; fix the files above or run without --lists\n",
                        terminal::diagnostics(&report.diagnostics, color)
                    ),
                    status: status::UNUSABLE,
                    ..Output::default()
                };
            }
            let catalogue = &report.catalogue;
            match other {
                Command::Check {
                    files,
                    format,
                    event,
                    points,
                    report,
                } => {
                    let event = match event.as_deref().map(|path| load_event(path, catalogue, color)) {
                        Some(Ok(event)) => Some(event),
                        Some(Err(out)) => return out,
                        None => None,
                    };
                    super::batch::check(
                        catalogue,
                        (event.as_ref(), *points),
                        walked.unwrap_or_else(|| crate::batch::collect(files)),
                        *format,
                        report.as_deref(),
                        color,
                        args.verbose,
                    )
                }
                Command::Event {
                    action: EventAction::New { game },
                } => match crate::event::template(catalogue, game) {
                    Ok(stdout) => Output {
                        stdout,
                        ..Output::default()
                    },
                    Err(message) => usage(message),
                },
                Command::Options { army, format } => options(catalogue, army, *format, args.verbose),
                Command::New {
                    army: Some(army),
                    points,
                    ..
                } => new(catalogue, army, *points),
                Command::New {
                    army: None,
                    game,
                    out,
                    ..
                } => new_list(game.as_deref().unwrap_or_default(), out),
                Command::Explain { text, army } => super::print::explain(catalogue, text, army.as_deref()),
                Command::Sheet { army, roster, print } => {
                    super::print::sheet(catalogue, army.as_deref(), roster.as_deref(), print, color)
                }
                Command::Roster {
                    file,
                    with_sheet,
                    event,
                    share: Some(base),
                    ..
                } if !*with_sheet => super::print::share(catalogue, file, event.as_deref(), base, color),
                Command::Roster {
                    file,
                    with_sheet,
                    event,
                    share,
                    print,
                } => {
                    if share.is_some() {
                        return usage(
                            "--share prints a link, not a document: leave out --with-sheet".to_string(),
                        );
                    }
                    super::print::roster(catalogue, file, *with_sheet, event.as_deref(), print, color)
                }
                Command::Import { link } => super::print::import(catalogue, link, color),
                Command::Serve { .. } => serve(other, catalogue, color),
                Command::Lists { .. } | Command::Schema { .. } => Output::default(),
            }
        }
    }
}

/// `muster serve`: the event, if any, then the server until it stops.
fn serve(command: &Command, catalogue: &'static Catalogue, color: bool) -> Output {
    let Command::Serve {
        listen,
        event,
        submissions,
        public_url,
        trust_proxy,
        organiser_key,
        max_connections,
        checks_per_minute,
        submissions_per_minute,
    } = command
    else {
        return Output::default();
    };
    let event = match event.as_deref().map(|path| load_event(path, catalogue, color)) {
        Some(Ok(event)) => Some(event),
        Some(Err(out)) => return out,
        None => None,
    };
    let hosting = super::serve::Hosting {
        listen,
        submissions: submissions.as_deref(),
        public_url: public_url.as_deref(),
        trust_proxy: *trust_proxy,
        organiser_key: organiser_key.clone(),
        max_connections: *max_connections,
        checks_per_minute: *checks_per_minute,
        submissions_per_minute: *submissions_per_minute,
    };
    super::serve::serve(catalogue, event, &hosting)
}

pub(super) fn to_json<T: Serialize>(value: &T) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    text.push('\n');
    text
}

#[derive(Serialize)]
struct ListRow<'a> {
    game: &'a str,
    id: &'a str,
    name: &'a str,
    version: &'a str,
    version_label: Option<&'a str>,
}

/// The findings of a list check to show: with the user's folder, its
/// files' findings and every error; and how many were left out.
fn own_diagnostics(all: &[Diagnostic], own: Option<&Path>) -> (Vec<Diagnostic>, usize) {
    let Some(dir) = own else {
        return (all.to_vec(), 0);
    };
    let (shown, hidden): (Vec<&Diagnostic>, Vec<&Diagnostic>) = all.iter().partition(|d| {
        d.is_error()
            || d.primary
                .as_ref()
                .is_none_or(|p| Path::new(p.file.name()).starts_with(dir))
    });
    (shown.into_iter().cloned().collect(), hidden.len())
}

/// `check`: whether to check, and the user's folder when only its files'
/// warnings are wanted.
fn lists(report: &LoadReport, format: Format, check: (bool, Option<&Path>), color: bool) -> Output {
    let (check, own) = check;
    let catalogue = &report.catalogue;
    let mut sorted: Vec<&ArmyList> = catalogue.lists.iter().collect();
    sorted.sort_by(|a, b| (a.game, &a.id).cmp(&(b.game, &b.id)));
    let mut out = Output::default();
    if check {
        let (shown, hidden) = own_diagnostics(&report.diagnostics, own);
        out.stdout.push_str(&terminal::diagnostics(&shown, color));
        let rules: usize = catalogue.lists.iter().map(|l| l.constraints.len()).sum();
        let unchecked: usize = catalogue.lists.iter().map(|l| l.not_enforced.len()).sum();
        let errors = report.diagnostics.iter().filter(|d| d.is_error()).count();
        let _ = writeln!(
            out.stdout,
            "{} files: {} army lists, {} datasheets, {} rules enforced, {} listed as not enforced; {}",
            report.files,
            catalogue.lists.len(),
            catalogue.every_sheet().count(),
            rules,
            unchecked,
            if errors == 0 {
                "all consistent".to_string()
            } else {
                format!("{errors} problem{} found", if errors == 1 { "" } else { "s" })
            }
        );
        if hidden > 0 {
            let _ = writeln!(
                out.stdout,
                "({hidden} warning{} about the built-in lists not shown: `--built-in` shows them)",
                if hidden == 1 { "" } else { "s" }
            );
        }
        out.status = if errors == 0 { status::OK } else { status::FAILED };
        return out;
    }
    if report.has_errors() {
        out.stderr = terminal::diagnostics(&report.diagnostics, color);
        out.status = status::UNUSABLE;
    }
    match format {
        Format::Json => {
            let rows: Vec<ListRow<'_>> = sorted
                .iter()
                .map(|l| ListRow {
                    game: l.game.as_str(),
                    id: &l.id,
                    name: &l.name,
                    version: &l.version,
                    version_label: l.version_label.as_deref(),
                })
                .collect();
            out.stdout = to_json(&rows);
        }
        Format::Text => {
            let column = |w: usize| w.min(crate::report::MAX_COLUMN);
            let id_width = column(sorted.iter().map(|l| l.id.len()).max().unwrap_or(0));
            let name_width = column(sorted.iter().map(|l| l.name.chars().count()).max().unwrap_or(0));
            for l in sorted {
                let _ = writeln!(
                    out.stdout,
                    "{:<6} {:<id_width$}  {:<name_width$}  {}",
                    l.game.as_str(),
                    l.id,
                    l.name,
                    l.version_text()
                );
            }
        }
    }
    out
}

fn options(catalogue: &Catalogue, army: &str, format: Format, verbose: bool) -> Output {
    let list = match find(catalogue, army) {
        Ok(list) => list,
        Err(out) => return out,
    };
    let stdout = match format {
        Format::Json => to_json(&crate::report::options::OptionsView::new(list, catalogue)),
        Format::Text => crate::report::options::text(list, catalogue, verbose),
    };
    Output {
        stdout,
        ..Output::default()
    }
}

fn new(catalogue: &Catalogue, army: &str, points: Option<u32>) -> Output {
    match find(catalogue, army) {
        Ok(list) => Output {
            stdout: crate::report::options::starter(
                list,
                catalogue,
                points.unwrap_or(typical_points(list.game)),
            ),
            ..Output::default()
        },
        Err(out) => out,
    }
}

/// `muster new --game heresy`: the starter list and datasheet files of a
/// game whose lists players write, into `out`, never over a file there.
fn new_list(game: &str, out: &Path) -> Output {
    let Some(files) = crate::games::starter_files(game) else {
        return usage(format!(
            "`{}` has no starter list: --game takes heresy (the other games' lists are built in; `muster new ARMY` starts a roster)",
            crate::report::terminal::escape(game)
        ));
    };
    let mut result = Output::default();
    for (name, _) in files {
        let path = out.join(name);
        if path.exists() {
            return usage(format!(
                "{} exists already; muster does not write over it (choose another --out folder)",
                path.display()
            ));
        }
    }
    for (name, text) in files {
        let path = out.join(name);
        match write_atomically(&path, text.as_bytes(), &[]) {
            Ok(()) => {
                let _ = writeln!(result.stdout, "wrote {}", path.display());
            }
            Err(e) => {
                return Output {
                    stderr: format!(
                        "error: cannot write {}: {}\n",
                        crate::report::terminal::escape(&path.display().to_string()),
                        crate::source::io_error(&e)
                    ),
                    status: status::UNUSABLE,
                    ..Output::default()
                };
            }
        }
    }
    let _ = writeln!(
        result.stdout,
        "next: edit them, then `muster lists --check --lists {}`",
        out.display()
    );
    result
}

/// The size of a typical tournament game, for `muster new`.
fn typical_points(game: crate::catalogue::GameId) -> u32 {
    game.game().typical_points
}

fn schema(out: &Path, check: bool) -> Output {
    let mut result = Output::default();
    for (name, schema) in super::schema::all() {
        let path = out.join(name);
        let text = super::schema::render(&schema);
        if check {
            match std::fs::read_to_string(&path) {
                Ok(existing) if existing == text => {}
                _ => {
                    let _ = writeln!(
                        result.stderr,
                        "error: {} is stale; run `muster schema`",
                        path.display()
                    );
                    result.status = status::FAILED;
                }
            }
            continue;
        }
        if let Err(e) = std::fs::create_dir_all(out).and_then(|()| std::fs::write(&path, text)) {
            let _ = writeln!(
                result.stderr,
                "error: cannot write {}: {}",
                crate::report::terminal::escape(&path.display().to_string()),
                crate::source::io_error(&e)
            );
            result.status = status::UNUSABLE;
        } else {
            let _ = writeln!(result.stdout, "wrote {}", path.display());
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Code;
    use crate::source::{SourceFile, Span};

    /// `lists --check` proves every file; with `--lists`, the folder's
    /// (and what its datasheets touch), unless `--built-in` asks for all;
    /// any other command only the folder's.
    #[test]
    fn lists_check_proves_what_it_is_asked_to() {
        use crate::catalogue::Checks;
        use clap::Parser;
        let checks_of = |line: &str| checks(&Args::parse_from(line.split(' ')));
        assert_eq!(checks_of("muster lists --check"), Checks::All);
        assert_eq!(checks_of("muster lists --check --lists d"), Checks::Folder);
        assert_eq!(
            checks_of("muster lists --check --built-in --lists d"),
            Checks::All
        );
        assert_eq!(checks_of("muster lists --lists d"), Checks::Added);
        assert_eq!(checks_of("muster check --lists d r.txt"), Checks::Added);
    }

    /// With a folder: its findings, and errors anywhere; the built-in
    /// lists' warnings are counted, not shown. Without: everything.
    #[test]
    fn a_folder_check_shows_its_own_findings_and_counts_the_others() {
        let folder = SourceFile::new("/tmp/mine/list.yaml", "id: x\n");
        let built_in = SourceFile::new("lists/netea/other.yaml", "id: y\n");
        let at = |d: Diagnostic, file: &SourceFile| d.at(file, Span::new(0, 2));
        let all = [
            at(Diagnostic::warning(Code::ListData, "mine"), &folder),
            at(Diagnostic::warning(Code::ListData, "built-in warning"), &built_in),
            at(Diagnostic::error(Code::ListData, "built-in error"), &built_in),
            Diagnostic::warning(Code::ListData, "no place"),
        ];
        let (shown, hidden) = own_diagnostics(&all, Some(Path::new("/tmp/mine")));
        let shown: Vec<&str> = shown.iter().map(|d| d.message.as_str()).collect();
        assert_eq!((shown, hidden), (vec!["mine", "built-in error", "no place"], 1));
        let (everything, none) = own_diagnostics(&all, None);
        assert_eq!((everything.len(), none), (4, 0));
    }
}
