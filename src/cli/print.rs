//! The commands that explain and print: `explain`, `sheet` and `roster`
//! (and its `--share` link), and `import`. They find the list, check the
//! roster, build the views and write the files; the documents themselves
//! come from `crate::print`, links from `crate::import::snapfire`.

use super::io::{find, load_event, read_input, usage, write_atomically};
use super::{Output, PaperChoice, PrintArgs, status};
use crate::catalogue::kinds::{HeresyKind, NetEpicKind, SfShipKind, ShipKind};
use crate::catalogue::{AnySheet, ArmyList, Catalogue, Datasheet, GameId, Sheet, SheetKind, names};
use crate::check::{self, Checked};
use crate::games::Notation;
use crate::import::snapfire;
use crate::notation::{self, netepic, ship, space_fleet};
use crate::print::{self, CribSheet, Paper, PrintError, RosterSheet};
use crate::report::{explain as text, terminal};
use std::fmt::Write as _;
use std::path::Path;

impl From<PaperChoice> for Paper {
    fn from(choice: PaperChoice) -> Paper {
        match choice {
            PaperChoice::A4 => Paper::A4,
            PaperChoice::Letter => Paper::Letter,
        }
    }
}

/// Today's date, or the one `SOURCE_DATE_EPOCH` gives (for reproducible
/// output, as build tools use it).
fn today() -> String {
    let seconds = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(0))
        });
    print::date_from_unix(seconds)
}

pub fn explain(catalogue: &Catalogue, text: &str, army: Option<&str>) -> Output {
    if let Some(army) = army {
        let list = match find(catalogue, army) {
            Ok(list) => list,
            Err(out) => return out,
        };
        let glossary = catalogue.glossary(list.game);
        let fleet = FleetExplain {
            catalogue,
            list,
            name: text,
        };
        match list.game.game().notation {
            Notation::Ship => {
                let notation = |text: &str| {
                    ship::parse_ship_terms(text).map(|parts| text::ship_notation(text, &parts, glossary))
                };
                return fleet.explain::<ShipKind, _>(&notation, &[',', '/', '(', '+', '°']);
            }
            Notation::SpaceFleet => {
                let notation = |text: &str| {
                    space_fleet::parse_terms(text).map(|parts| text::sf_notation(text, &parts, glossary))
                };
                return fleet.explain::<SfShipKind, _>(&notation, &[',', '/', '"', '+']);
            }
            Notation::Heresy => {
                let notation = |text: &str| {
                    notation::heresy::parse_terms(text)
                        .map(|parts| text::heresy_notation(text, &parts, glossary))
                };
                return fleet.explain::<HeresyKind, _>(&notation, &[',', '/', '(', '+']);
            }
            Notation::NetEpic => {
                let notation = |text: &str| {
                    netepic::parse_terms(text).map(|parts| text::ne_notation(text, &parts, glossary))
                };
                return fleet.explain::<NetEpicKind, _>(&notation, &[',', ':', '(', '+']);
            }
            Notation::Epic | Notation::None => {}
        }
        return match find_unit(catalogue, list, text) {
            Ok(sheet) => Output {
                stdout: text::sheet(AnySheet::Epic(sheet), &list.name, catalogue.glossary(list.game)),
                ..Output::default()
            },
            Err(message) => usage(message),
        };
    }
    match notation::parse_terms(text) {
        Ok(parts) => Output {
            stdout: text::notation(text, &parts, bare_glossary(catalogue, Notation::Epic)),
            ..Output::default()
        },
        Err(error) => {
            // A unit's name is not notation, but it is what the user wants
            // explained: show its datasheet when only one unit has it, and
            // ask which when several armies (or games) have one.
            if let Some(out) = shared_unit_name(catalogue, text) {
                return out;
            }
            // One datasheet of any kind by that name (`shared_unit_name`
            // answered for several).
            let wanted = names::normalize(text);
            let mut sheets = catalogue
                .every_sheet()
                .filter(|s| s.all_names().any(|n| names::normalize(n) == wanted));
            if let (Some(sheet), None) = (sheets.next(), sheets.next()) {
                return Output {
                    stdout: text::sheet(
                        sheet,
                        &fielded_by(catalogue, sheet.game(), sheet.id()),
                        catalogue.glossary(sheet.game()),
                    ),
                    ..Output::default()
                };
            }
            // Not Epic notation: perhaps a ship's values (`F6+/5+, L/F/R`).
            let error = match ship::parse_ship_terms(text) {
                Ok(parts) => {
                    return Output {
                        stdout: text::ship_notation(text, &parts, bare_glossary(catalogue, Notation::Ship)),
                        ..Output::default()
                    };
                }
                // The reading that got further says more about the mistake.
                Err(ship_error) if ship_error.offset > error.offset => ship_error,
                Err(_) => error,
            };
            // Or a Heresy stat line's (`5/4/3, Regeneration (5)`).
            let error = match notation::heresy::parse_terms(text) {
                Ok(parts) => {
                    return Output {
                        stdout: text::heresy_notation(
                            text,
                            &parts,
                            bare_glossary(catalogue, Notation::Heresy),
                        ),
                        ..Output::default()
                    };
                }
                Err(heresy_error) if heresy_error.offset > error.offset => heresy_error,
                Err(_) => error,
            };
            if let Some(out) = unit_suggestions(catalogue, text) {
                return out;
            }
            // No format width: one past `u16::MAX` panics, and the text is
            // the user's, any length. The caret goes under the character.
            let pad = " ".repeat(error.column.saturating_sub(1));
            let text = crate::report::terminal::escape(text);
            usage(format!(
                "`{text}` is not datasheet notation\n  {text}\n  {pad}^ {error}\nhint: separate parts with commas; `muster explain UNIT --army ARMY` shows a unit's datasheet"
            ))
        }
    }
}

/// The glossary of notation written bare: that of the first game written
/// in it (the registry's, so no game is named here).
fn bare_glossary(catalogue: &Catalogue, notation: Notation) -> Option<&crate::catalogue::glossary::Glossary> {
    notation.first_game().and_then(|game| catalogue.glossary(game))
}

/// The lists that field a datasheet, by name, for a card's heading: players
/// know lists, not the faction ids datasheet files are grouped by. Every
/// one is named: a player looks for their own.
fn fielded_by(catalogue: &Catalogue, game: GameId, id: &str) -> String {
    let names = lists_fielding(catalogue, game, id);
    if names.is_empty() {
        game.title().to_string()
    } else {
        names.join(", ")
    }
}

/// The names of the lists of `game` that field datasheet `id`.
fn lists_fielding<'c>(catalogue: &'c Catalogue, game: GameId, id: &str) -> Vec<&'c str> {
    catalogue
        .lists
        .iter()
        .filter(|l| l.game == game && l.units.iter().any(|u| u == id))
        .map(|l| l.name.as_str())
        .collect()
}

/// Every unit and ship of every game: its names, id and game.
fn every_sheet(catalogue: &Catalogue) -> Vec<(Vec<&str>, &str, GameId)> {
    catalogue
        .every_sheet()
        .map(|s| (s.all_names().collect(), s.id(), s.game()))
        .collect()
}

/// When several armies (or games: a Gothic sails in Battlefleet Gothic and
/// in Space Fleet) have a unit called `text`: the choice, as an error,
/// every list that fields it named, one game a line.
fn shared_unit_name(catalogue: &Catalogue, text: &str) -> Option<Output> {
    let wanted = names::normalize(text);
    let sheets: Vec<(&str, GameId)> = every_sheet(catalogue)
        .into_iter()
        .filter(|(names, ..)| names.iter().any(|n| names::normalize(n) == wanted))
        .map(|(_, id, game)| (id, game))
        .collect();
    if sheets.len() < 2 {
        return None;
    }
    let mut games: Vec<(GameId, Vec<&str>)> = Vec::new();
    for &(id, game) in &sheets {
        let at = match games.iter().position(|(g, _)| *g == game) {
            Some(at) => at,
            None => {
                games.push((game, Vec::new()));
                games.len() - 1
            }
        };
        for name in lists_fielding(catalogue, game, id) {
            if !games[at].1.contains(&name) {
                games[at].1.push(name);
            }
        }
    }
    let lines: Vec<String> = games
        .iter()
        .map(|(game, lists)| match lists.as_slice() {
            [] => format!("  {}", game.title()),
            lists => format!("  {}: {}", game.title(), lists.join(", ")),
        })
        .collect();
    let text = crate::report::terminal::escape(text);
    Some(usage(format!(
        "`{text}` is a unit of several armies:\n{}\nhint: say which with `muster explain \"{text}\" --army ARMY`",
        lines.join("\n")
    )))
}

/// When `text` reads as a name rather than notation: the unit names it is
/// close to, from every list of every game.
fn unit_suggestions(catalogue: &Catalogue, text: &str) -> Option<Output> {
    // Notation has digits, `+` and `/`; a name has none of them.
    if text.chars().any(|c| c.is_ascii_digit() || c == '+' || c == '/') || text.trim().is_empty() {
        return None;
    }
    let entries = every_sheet(catalogue);
    let text = crate::report::terminal::escape(text);
    let lower = text.to_lowercase();
    let mut near: Vec<(f64, &str)> = entries
        .iter()
        .flat_map(|(names, ..)| names.iter().skip(1))
        .filter_map(|n| crate::diagnostic::closeness(&lower, n).map(|score| (score, *n)))
        .collect();
    near.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    let mut shown: Vec<&str> = Vec::new();
    for (_, name) in near {
        if !shown
            .iter()
            .any(|s| names::normalize(s) == names::normalize(name))
        {
            shown.push(name);
        }
        if shown.len() == 3 {
            break;
        }
    }
    if shown.is_empty() {
        return None;
    }
    Some(usage(format!(
        "no unit or ship is called `{text}`, and it is not datasheet notation\nhint: did you mean {}?",
        shown
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ")
    )))
}

/// The datasheets (units or ships) one of whose names is `name`.
fn named<'a, T, I>(items: &[&'a T], name: &str, names_of: impl Fn(&'a T) -> I) -> Vec<&'a T>
where
    I: Iterator<Item = &'a str>,
{
    let wanted = names::normalize(name);
    items
        .iter()
        .copied()
        .filter(|item| names_of(item).any(|n| names::normalize(n) == wanted))
        .collect()
}

/// `explain TEXT --army LIST` for a game whose datasheets are not Epic
/// notation: a datasheet of the list by name, or else the game's notation.
struct FleetExplain<'c> {
    catalogue: &'c Catalogue,
    list: &'c ArmyList,
    /// The text to explain.
    name: &'c str,
}

impl FleetExplain<'_> {
    /// A datasheet of kind `K` of the list by name, or else `notation`'s
    /// explanation of the text; `punctuation` shows text was meant as
    /// notation.
    fn explain<K, E>(self, notation: &dyn Fn(&str) -> Result<String, E>, punctuation: &[char]) -> Output
    where
        K: SheetKind<Stored = Sheet<K>>,
        E: std::fmt::Display,
    {
        let (list, name) = (self.list, self.name);
        let sheets: Vec<&Sheet<K>> = (list.units.iter())
            .filter_map(|id| self.catalogue.find::<K>(list.game, id))
            .collect();
        let found = named(&sheets, name, |s| K::any(s).all_names());
        match found.as_slice() {
            [one] => Output {
                stdout: text::sheet(K::any(one), &list.name, self.catalogue.glossary(list.game)),
                ..Output::default()
            },
            [] => match notation(name) {
                Ok(stdout) => Output {
                    stdout,
                    ..Output::default()
                },
                Err(error) => {
                    let names = sheets.iter().flat_map(|s| K::any(s).all_names().skip(1));
                    let suggestion = crate::diagnostic::nearest(name, names);
                    // Text with notation's punctuation was meant as notation:
                    // say where it stops making sense.
                    let as_notation = if name.contains(punctuation) {
                        format!("\nhint: read as {}, it fails {error}", K::NOTATION)
                    } else {
                        String::new()
                    };
                    let noun = list.game.game().sheet_noun;
                    usage(format!(
                        "{} has no {noun} called `{name}`, and it is not {}{}{as_notation}\nhint: `muster sheet {}` prints every {noun} of the list",
                        list.name,
                        K::NOTATION,
                        suggestion
                            .map(|s| format!("; did you mean `{s}`?"))
                            .unwrap_or_default(),
                        list.id
                    ))
                }
            },
            many => {
                let ids: Vec<&str> = many.iter().map(|s| s.id()).collect();
                usage(format!(
                    "`{name}` names more than one {}: {}; use its id",
                    list.game.game().sheet_noun,
                    ids.join(", ")
                ))
            }
        }
    }
}

fn unit_names(sheet: &Datasheet) -> impl Iterator<Item = &str> {
    AnySheet::Epic(sheet).all_names()
}

/// The datasheet of `list` a name means: its id, name or an alias.
fn find_unit<'c>(catalogue: &'c Catalogue, list: &ArmyList, name: &str) -> Result<&'c Datasheet, String> {
    let sheets: Vec<&Datasheet> = list
        .units
        .iter()
        .filter_map(|id| catalogue.datasheet(list.game, id))
        .collect();
    let found = named(&sheets, name, unit_names);
    match found.as_slice() {
        [one] => Ok(one),
        [] => {
            let suggestion =
                crate::diagnostic::nearest(name, sheets.iter().flat_map(|d| unit_names(d).skip(1)));
            Err(format!(
                "{} has no unit called `{name}`{}\nhint: `muster sheet {}` prints every unit of the list",
                list.name,
                suggestion
                    .map(|s| format!("; did you mean `{s}`?"))
                    .unwrap_or_default(),
                list.id
            ))
        }
        many => {
            let ids: Vec<&str> = many.iter().map(|d| d.id.as_str()).collect();
            Err(format!(
                "`{name}` names more than one unit: {}; use its id",
                ids.join(", ")
            ))
        }
    }
}

/// Whether an output path means standard output.
fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Writes what `print` asks for: a PDF, an HTML file, or either on
/// standard output (`-`, everywhere a file is written; HTML is the default
/// when no --pdf is given). With a PDF on standard output, what was
/// written is said on standard error so the PDF's bytes stay whole.
fn write(
    print: &PrintArgs,
    inputs: &[&Path],
    html: impl FnOnce(Paper) -> Result<String, PrintError>,
    pdf: impl FnOnce(Paper) -> Result<print::Pdf, PrintError>,
) -> Output {
    let paper = Paper::from(print.paper);
    let mut out = Output::default();
    let html_to = match (&print.html, &print.pdf) {
        (Some(path), _) => Some(path.as_path()),
        (None, None) => Some(Path::new("-")),
        (None, Some(_)) => None,
    };
    let pdf_to_stdout = print.pdf.as_deref().is_some_and(is_stdout);
    if pdf_to_stdout && html_to.is_some_and(is_stdout) {
        return usage("--pdf - and --html - cannot both write to standard output".into());
    }
    for path in print.pdf.as_deref().into_iter().chain(html_to) {
        if let Err(message) = super::io::can_write(path, inputs) {
            return usage(message);
        }
    }
    let fail = |out: &mut Output, message: String| {
        let _ = writeln!(out.stderr, "error: {}", terminal::escape_lines(&message));
        out.status = status::UNUSABLE;
    };
    let wrote = |out: &mut Output, path: &Path| {
        let line = format!("wrote {}\n", terminal::escape(&path.display().to_string()));
        if pdf_to_stdout {
            out.stderr.push_str(&line);
        } else {
            out.stdout.push_str(&line);
        }
    };
    if let Some(path) = &print.pdf {
        match pdf(paper) {
            Ok(document) => {
                if !document.unprintable.is_empty() {
                    // The characters themselves, escaped: they come from the input.
                    let shown: String = document.unprintable.iter().take(40).collect();
                    let _ = writeln!(
                        out.stderr,
                        "warning: {} ({})",
                        print::unprintable_note(&document.unprintable),
                        crate::report::terminal::escape(&shown)
                    );
                }
                if is_stdout(path) {
                    out.bytes = document.bytes;
                } else {
                    match write_atomically(path, &document.bytes, inputs) {
                        Ok(()) => wrote(&mut out, path),
                        Err(e) => fail(
                            &mut out,
                            format!("cannot write {}: {}", path.display(), crate::source::io_error(&e)),
                        ),
                    }
                }
            }
            Err(e) => fail(&mut out, e.to_string()),
        }
    }
    if let Some(path) = html_to {
        match html(paper) {
            Ok(page) if is_stdout(path) => out.stdout.push_str(&page),
            Ok(page) => match write_atomically(path, page.as_bytes(), inputs) {
                Ok(()) => wrote(&mut out, path),
                Err(e) => fail(
                    &mut out,
                    format!("cannot write {}: {}", path.display(), crate::source::io_error(&e)),
                ),
            },
            Err(e) => fail(&mut out, e.to_string()),
        }
    }
    out
}

fn checked<'c>(
    catalogue: &'c Catalogue,
    file: &Path,
    event: Option<&crate::event::Event>,
) -> Result<Checked<'c>, Output> {
    if let Some(link) = link_argument(file) {
        return Ok(check::check_text_for(catalogue, event, link_name(link), link));
    }
    let name = if file.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        file.display().to_string()
    };
    let bytes = read_input(file).map_err(usage)?;
    Ok(check::check_bytes_for(catalogue, event, &name, &bytes))
}

/// The roster problems that leave a unit out of its crib sheet: names and
/// lines muster could not place.
fn unplaced(checked: &Checked<'_>) -> Vec<crate::diagnostic::Diagnostic> {
    checked
        .diagnostics
        .iter()
        .filter(|d| d.is_error() && d.code.is_unplaced())
        .cloned()
        .collect()
}

pub fn sheet(
    catalogue: &Catalogue,
    army: Option<&str>,
    roster: Option<&Path>,
    print: &PrintArgs,
    color: bool,
) -> Output {
    let date = today();
    // For a roster: the check, to report what the sheet leaves out and to
    // exit as `muster check` would.
    let mut roster_checked: Option<Checked<'_>> = None;
    let sheet = match (army, roster) {
        (Some(army), _) => match find(catalogue, army) {
            Ok(list) => CribSheet::for_list(catalogue, list, &date),
            Err(out) => return out,
        },
        (None, Some(file)) => {
            let checked = match checked(catalogue, file, None) {
                Ok(checked) => checked,
                Err(out) => return out,
            };
            let view = RosterSheet::new(&checked, catalogue, &date, true);
            let Some(mut sheet) = view.sheet else {
                // No list, so no sheet; the status is still `check`'s.
                return Output {
                    stderr: format!(
                        "{}error: muster cannot tell which army {} uses, so it has no datasheets to print\n",
                        terminal::diagnostics(&checked.diagnostics, color),
                        checked.name
                    ),
                    status: if checked.unusable() {
                        status::UNUSABLE
                    } else {
                        status::FAILED
                    },
                    ..Output::default()
                };
            };
            // A roster's crib sheet leaves the army's rules to the roster
            // pages; printed alone, it carries them.
            sheet.army_rules = view.army_rules;
            roster_checked = Some(checked);
            sheet
        }
        (None, None) => return usage("give an army list or --roster FILE".into()),
    };
    let mut out = write(
        print,
        &roster.into_iter().collect::<Vec<_>>(),
        |paper| print::crib_html(&sheet, paper),
        |paper| print::crib_pdf_document(&sheet, paper),
    );
    if let Some(checked) = roster_checked.filter(|_| out.status == status::OK) {
        let unplaced = unplaced(&checked);
        if !unplaced.is_empty() {
            let _ = writeln!(
                out.stderr,
                "{}{}: the crib sheet leaves out what {} of the roster could not place",
                terminal::diagnostics(&unplaced, color),
                checked.name,
                if unplaced.len() == 1 {
                    "this line"
                } else {
                    "these lines"
                }
            );
        }
        out.status = if checked.unusable() {
            status::UNUSABLE
        } else if checked.legal() {
            status::OK
        } else {
            if unplaced.is_empty() {
                let _ = writeln!(
                    out.stderr,
                    "{}: NOT legal ({} error{}); `muster check {}` shows them",
                    checked.name,
                    checked.errors(),
                    if checked.errors() == 1 { "" } else { "s" },
                    checked.name
                );
            }
            status::FAILED
        };
    }
    out
}

pub fn roster(
    catalogue: &Catalogue,
    file: &Path,
    with_sheet: bool,
    event: Option<&Path>,
    print: &PrintArgs,
    color: bool,
) -> Output {
    let event_path = event;
    let event = match event.map(|path| load_event(path, catalogue, color)) {
        Some(Ok(event)) => Some(event),
        Some(Err(out)) => return out,
        None => None,
    };
    let checked = match checked(catalogue, file, event.as_ref()) {
        Ok(checked) => checked,
        Err(out) => return out,
    };
    // An empty, binary or oversized file holds no roster: nothing to print.
    if checked.unusable() {
        return Output {
            stderr: format!(
                "{}error: {} holds no roster to print; nothing was written\n",
                terminal::diagnostics(&checked.diagnostics, color),
                terminal::escape(&checked.name)
            ),
            status: status::UNUSABLE,
            ..Output::default()
        };
    }
    let view = RosterSheet::new(&checked, catalogue, &today(), with_sheet);
    let inputs: Vec<&Path> = std::iter::once(file).chain(event_path).collect();
    let mut out = write(
        print,
        &inputs,
        |paper| print::roster_html(&view, paper),
        |paper| print::roster_pdf_document(&view, paper),
    );
    if out.status == status::OK {
        out.status = if checked.unusable() {
            status::UNUSABLE
        } else if checked.legal() {
            status::OK
        } else {
            status::FAILED
        };
        if !checked.legal() {
            let _ = writeln!(
                out.stderr,
                "{}: {}; the errors are listed on the roster's first page",
                checked.name, view.verdict
            );
        }
    }
    out
}

/// The name a roster given as a link on the command line is checked under.
pub(super) const LINK_NAME: &str = "<snapfire link>";
pub(super) const SHARE_LINK_NAME: &str = "<share link>";

/// A command-line argument that is a Snapfire link or a muster share
/// link rather than a path (a file of that name wins).
pub(super) fn link_argument(path: &Path) -> Option<&str> {
    let text = path.to_str()?;
    ((snapfire::is_link(text) || crate::share::is_link(text)) && !path.exists()).then_some(text)
}

/// The name findings give a link read from the command line.
fn link_name(link: &str) -> &'static str {
    if crate::share::is_link(link) {
        SHARE_LINK_NAME
    } else {
        LINK_NAME
    }
}

/// What `--share` asks for: muster's own link on a muster server's
/// address (the default), or Snapfire's link (`snapfire`, `snapfire:URL`,
/// or a URL of Snapfire's `chooser.html`).
enum ShareKind<'a> {
    Muster(&'a str),
    Snapfire(&'a str),
}

fn share_kind(value: &str) -> ShareKind<'_> {
    if value.is_empty() || value == "muster" {
        return ShareKind::Muster(crate::share::DEFAULT_BASE);
    }
    if value == "snapfire" {
        return ShareKind::Snapfire(snapfire::PUBLIC_URL);
    }
    if let Some(url) = value.strip_prefix("snapfire:") {
        return ShareKind::Snapfire(url);
    }
    let path = value.split(['?', '#']).next().unwrap_or_default();
    if path.ends_with("chooser.html") {
        ShareKind::Snapfire(value)
    } else {
        ShareKind::Muster(value)
    }
}

/// `muster roster FILE --share`: the roster's share link on standard
/// output (muster's own, any game; or Snapfire's, NetEA lists Snapfire
/// has); the status is that of `muster check`, or 2 where Snapfire
/// cannot hold the list.
pub fn share(catalogue: &Catalogue, file: &Path, event: Option<&Path>, kind: &str, color: bool) -> Output {
    let event = match event.map(|path| load_event(path, catalogue, color)) {
        Some(Ok(event)) => Some(event),
        Some(Err(out)) => return out,
        None => None,
    };
    let checked = match checked(catalogue, file, event.as_ref()) {
        Ok(checked) => checked,
        Err(out) => return out,
    };
    let mut out = Output::default();
    let status = if checked.unusable() {
        status::UNUSABLE
    } else if checked.legal() {
        status::OK
    } else {
        status::FAILED
    };
    let base = match share_kind(kind) {
        ShareKind::Muster(base) => return muster_share(&checked, base, status, color),
        ShareKind::Snapfire(base) => base,
    };
    match (&checked.share, checked.list) {
        (Some(Ok(shared)), _) => {
            out.stdout = format!("{}\n", shared.link.url(base));
            for formation in &shared.dropped {
                let _ = writeln!(
                    out.stderr,
                    "warning: Snapfire drops the {formation} when it opens the link (its id is under 500, which Snapfire reads as an upgrade); muster reads it"
                );
            }
            for left in &shared.left_out {
                let _ = writeln!(
                    out.stderr,
                    "note: left out of the link, Snapfire has no pick for it: {left}"
                );
            }
            not_legal_warning(&checked, &mut out.stderr);
            out.status = status;
        }
        // What Snapfire cannot hold is a request muster cannot carry
        // out (2), not a fault of the roster (1).
        (Some(Err(error)), _) => {
            let _ = writeln!(
                out.stderr,
                "error: {}",
                terminal::escape_lines(&error.to_string())
            );
            out.status = status::UNUSABLE;
        }
        (None, Some(list)) => {
            let _ = writeln!(
                out.stderr,
                "error: {} has no Snapfire counterpart, so it has no share link",
                list.name
            );
            out.status = status::UNUSABLE;
        }
        (None, None) => {
            out.stderr = terminal::diagnostics(&checked.diagnostics, color);
            let _ = writeln!(
                out.stderr,
                "error: {}: the roster names no list muster knows, so it has no share link",
                checked.name
            );
            out.status = if status == status::OK {
                status::FAILED
            } else {
                status
            };
        }
    }
    out
}

/// muster's own link: the roster text as it is, whatever its game; an
/// unusable roster gets its findings and no link.
fn muster_share(checked: &Checked<'_>, base: &str, status: u8, color: bool) -> Output {
    let mut out = Output {
        status,
        ..Output::default()
    };
    let text = checked.file.as_ref().map(|f| f.text()).unwrap_or_default();
    if checked.unusable() || text.trim().is_empty() {
        out.stderr = terminal::diagnostics(&checked.diagnostics, color);
        let _ = writeln!(
            out.stderr,
            "error: {}: muster cannot read this roster, so it makes no share link",
            checked.name
        );
        out.status = status::UNUSABLE;
        return out;
    }
    out.stdout = format!("{}\n", crate::share::link(base, text));
    not_legal_warning(checked, &mut out.stderr);
    out
}

/// `muster import LINK`: the link as a muster roster on standard output.
/// `muster import ROSTER.ros`: the BattleScribe roster as muster roster
/// text; findings about the XML itself (a force of another list, a cost
/// that is not a number) go to standard error, and the roster is printed
/// all the same.
fn import_battlescribe(catalogue: &Catalogue, name: &str, bytes: &[u8], color: bool) -> Output {
    match crate::import::battlescribe::read(catalogue, name, bytes) {
        Ok(imported) => Output {
            stdout: imported.roster,
            stderr: if imported.diagnostics.is_empty() {
                String::new()
            } else {
                terminal::diagnostics(&imported.diagnostics, color)
            },
            ..Output::default()
        },
        Err(d) => Output {
            stderr: terminal::diagnostics(&[*d], color),
            status: status::UNUSABLE,
            ..Output::default()
        },
    }
}

pub fn import(catalogue: &Catalogue, argument: &str, color: bool) -> Output {
    let path = Path::new(argument);
    let text = match link_argument(path) {
        Some(link) => link.to_string(),
        None if snapfire::is_link(argument) => argument.to_string(),
        None => match read_input(path) {
            Ok(bytes) if crate::import::battlescribe::is_roster(argument, &bytes) => {
                return import_battlescribe(catalogue, argument, &bytes, color);
            }
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(message) => return usage(message),
        },
    };
    if crate::share::is_link(&text) {
        return match crate::share::read(&text) {
            Ok(roster) => Output {
                stdout: roster,
                ..Output::default()
            },
            Err(error) => Output {
                stderr: format!("error: {error}\n"),
                status: status::UNUSABLE,
                ..Output::default()
            },
        };
    }
    let name = if snapfire::is_link(argument) {
        LINK_NAME.to_string()
    } else {
        path.display().to_string()
    };
    let read = snapfire::Link::parse(&text).and_then(|link| snapfire::to_roster(&link, catalogue));
    match read {
        Ok(imported) => Output {
            stdout: imported.roster,
            ..Output::default()
        },
        Err(error) => {
            let file = crate::source::SourceFile::new(name, text.as_str());
            let mut d = crate::diagnostic::Diagnostic::error(
                crate::diagnostic::Code::SnapfireLink,
                error.to_string(),
            )
            .at(&file, error.span);
            if let Some(hint) = error.hint() {
                d = d.hint(hint);
            }
            Output {
                stderr: terminal::diagnostics(&[d], color),
                status: status::UNUSABLE,
                ..Output::default()
            }
        }
    }
}

/// The warning a printed or shared roster that is not legal gets on
/// standard error: how many errors, and where they are listed.
fn not_legal_warning(checked: &Checked<'_>, stderr: &mut String) {
    if !checked.legal() {
        let _ = writeln!(
            stderr,
            "warning: {} is not legal ({} error{}); `muster check` lists them",
            checked.name,
            checked.errors(),
            if checked.errors() == 1 { "" } else { "s" }
        );
    }
}
