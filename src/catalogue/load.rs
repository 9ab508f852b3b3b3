//! Reading list files: embedded ones, then those of `--lists DIR`.
//!
//! Each file is parsed as YAML, validated against its JSON Schema, then
//! deserialized and linked. Every problem becomes a diagnostic naming the
//! file, the path inside it and the line; a broken file is left out and the
//! rest still load.

use super::Catalogue;
use super::GameId;
use super::header::{self, Header};
use super::link::{self, PreparedNames};
use super::packed::{Packed, Texts};
use super::raw::{ArmyListFile, DatasheetFile, GlossaryFile, ModelsFile, ScenarioFile};
use super::{locate, schema_words};
use crate::diagnostic::{Code, Diagnostic};
use crate::source::SourceFile;
use std::path::{Path, PathBuf};

mod embedded {
    use super::Texts;
    use super::{FileFacts, FileKind};
    use crate::catalogue::packed::Packed;
    include!(concat!(env!("OUT_DIR"), "/embedded_lists.rs"));
}

/// What `build.rs` records of each built-in file, so that a run can choose
/// the files it needs without parsing the others.
pub(crate) struct FileFacts {
    /// False when the build could not read the file; it is then always
    /// loaded, so that its error is reported.
    known: bool,
    kind: FileKind,
    game: &'static str,
    /// A list's id, name, aliases and import names, normalized and
    /// compacted (`names::normalize`, `names::compact`) by the build: in
    /// pairs.
    keys: Texts,
    /// A list's Snapfire file name (`imports.snapfire_file`), if any.
    snapfire_file: Texts,
    /// A list's BattleScribe catalogues (`imports.battlescribe`): each its
    /// name normalized, then its id (empty when none is recorded).
    battlescribe: Texts,
    /// Datasheet ids a list uses, or a datasheet file defines, sorted: for
    /// the tests, which prove `sheets` from them.
    #[cfg(test)]
    units: Texts,
    /// A list's entry names, normalized and compacted by the build, in the
    /// order the linker indexes them (see [`prepared_names`]): in pairs.
    names: Texts,
    /// The datasheet files (by index) of a list's game that define a unit
    /// it uses, which the build found (`sorted_overlap` of `units`).
    sheets: &'static [usize],
}

/// What the build prepared of a built-in list's names: its own names
/// (id, name, aliases, Snapfire name) and its entries' names and aliases
/// (upgrades, then formations), normalized and compacted in the order
/// the linker reads them, so that linking it normalizes none. `None` for
/// a file that is not built in.
pub(crate) fn prepared_names(origin: &Origin) -> Option<PreparedNames> {
    let Origin::Embedded(path) = origin else {
        return None;
    };
    let at = embedded::EMBEDDED.iter().position(|(name, _, _)| name == path)?;
    let facts = embedded::MANIFEST
        .get(at)
        .filter(|f| f.known && f.kind == FileKind::List)?;
    Some(PreparedNames {
        list: facts.keys,
        entries: facts.names,
    })
}

/// Every built-in file: its path below `lists/`, its YAML, its packed
/// data and its kind.
#[cfg(test)]
pub(crate) fn built_in() -> impl Iterator<Item = (&'static str, &'static str, Packed, FileKind)> {
    (embedded::EMBEDDED.iter().zip(embedded::MANIFEST))
        .map(|((name, text, packed), f)| (*name, *text, *packed, f.kind))
}

/// Where a list came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// Built into the binary; the path below `lists/`.
    Embedded(String),
    /// Read from a folder given with `--lists`.
    File(PathBuf),
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::Embedded(path) => write!(f, "built-in lists/{path}"),
            Origin::File(path) => write!(f, "{}", path.display()),
        }
    }
}

/// The catalogue, and everything wrong with the files it came from.
#[derive(Debug)]
pub struct LoadReport {
    pub catalogue: Catalogue,
    pub diagnostics: Vec<Diagnostic>,
    /// How many files were read.
    pub files: usize,
}

impl LoadReport {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Loads the lists built into the binary, checking every file against
/// its schema.
pub fn load_embedded() -> LoadReport {
    load_with(None, Checks::All)
}

/// How much to check while loading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Checks {
    /// Every file against its JSON Schema (`muster lists --check`, tests).
    All,
    /// Only files from `--lists`: the built-in ones were proven against
    /// their schemas by `muster lists --check` and the tests before they
    /// were built in, so every run need not repeat it.
    Added,
    /// As `Added`, and the built-in lists of every game whose datasheets
    /// the folder adds are proven too: a datasheet the folder replaces
    /// may no longer fit what such a list changes of it (`muster lists
    /// --check --lists DIR`).
    Folder,
}

/// Loads the built-in lists, then adds or overrides from `extra`.
pub fn load(extra: Option<&Path>) -> LoadReport {
    load_with(extra, Checks::Added)
}

/// [`load`], checking as much as `checks` says.
pub fn load_with(extra: Option<&Path>, checks: Checks) -> LoadReport {
    load_selected(extra, checks, None)
}

/// Loads what a roster that names `army` needs: that built-in list, the
/// datasheet files defining the units it uses, and its game's glossary and
/// models, so a check costs the same however many lists are built in.
/// Everything is loaded when the name matches no built-in list or several
/// (the full catalogue then says which names come close), or when `extra`
/// adds files, which may override anything.
pub fn load_for_army(extra: Option<&Path>, army: &str) -> LoadReport {
    let selection = if extra.is_none() {
        select(army, true, true)
    } else {
        None
    };
    load_selected(extra, Checks::Added, selection)
}

/// [`load_for_army`] for checking a roster, which prints no datasheet and
/// so needs no glossary: the game's glossary is not loaded either.
pub fn load_for_check(extra: Option<&Path>, army: &str) -> LoadReport {
    load_for_check_with(extra, army, true)
}

/// [`load_for_check`] of a roster that names no scenario when `scenarios`
/// is false: no scenario file is loaded either (a check without an event
/// looks at them only for a roster's `Scenario:` line).
pub fn load_for_check_with(extra: Option<&Path>, army: &str, scenarios: bool) -> LoadReport {
    let selection = if extra.is_none() {
        select(army, false, scenarios)
    } else {
        None
    };
    load_selected(extra, Checks::Added, selection)
}

/// The lists an event allows, as its file names them: its game, and
/// each list by id, name or alias (none named: every list of the game).
/// Read before the catalogue loads (`event::lists_named`), so that a check
/// against the event loads those lists and not every game's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventLists {
    pub game: GameId,
    pub lists: Vec<String>,
}

/// [`load_for_key`] for a roster checked against an event: the roster's
/// list and the lists the event allows, with all that each needs, and
/// every game's scenario files (an event may name one). Everything is
/// loaded when any of them is not certain, or with `extra`.
pub fn load_for_event(extra: Option<&Path>, key: &ListKey, event: &EventLists, glossary: bool) -> LoadReport {
    let selection = if extra.is_none() {
        event_selection(key, event, glossary)
    } else {
        None
    };
    load_selected(extra, Checks::Added, selection)
}

/// The built-in files [`load_for_event`] loads, or `None` for all. A list
/// the event names is found as the event finds it, among its game's lists.
fn event_selection(key: &ListKey, event: &EventLists, glossary: bool) -> Option<Vec<bool>> {
    let game = event.game.as_str();
    let mut lists = vec![list_of(key)?];
    if event.lists.is_empty() {
        lists.extend(
            (embedded::MANIFEST.iter().enumerate())
                .filter(|(_, f)| f.known && f.kind == FileKind::List && f.game == game)
                .map(|(i, _)| i),
        );
    }
    for name in &event.lists {
        let wanted = super::ListName::new(name);
        lists.push(only_list(|f| {
            f.game == game && f.keys.pairs().any(|(n, c)| wanted.matches_prepared(n, c))
        })?);
    }
    let mut chosen = vec![false; embedded::MANIFEST.len()];
    for index in lists {
        for (marked, wanted) in chosen.iter_mut().zip(selection(index, glossary, true)?) {
            *marked |= wanted;
        }
    }
    Some(chosen)
}

/// What a roster says of the list it was built from, for choosing the
/// built-in files to load (see [`load_for_key`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListKey {
    /// A list's id, name or alias, as a text roster's `Army:` line or a
    /// command's argument gives it.
    Name(String),
    /// The file name a Snapfire share link gives (its `list=`).
    Snapfire(String),
    /// A BattleScribe roster: the game its `gameSystemName` names, and
    /// each force's `catalogueId` and `catalogueName`.
    BattleScribe {
        game: Option<GameId>,
        forces: Vec<(String, String)>,
    },
}

/// [`load_for_army`] (with `glossary`) or [`load_for_check_with`] for a
/// roster known by `key`: the built-in files that list needs, when the
/// manifest tells the list as the import would find it; everything
/// otherwise, or with `extra`.
pub fn load_for_key(extra: Option<&Path>, key: &ListKey, glossary: bool, scenarios: bool) -> LoadReport {
    load_chosen(extra, Checks::Added, |added| {
        if extra.is_none() {
            return Chosen {
                built_in: list_of(key).and_then(|index| selection(index, glossary, scenarios)),
                folder: None,
            };
        }
        let ListKey::Name(army) = key else {
            // A folder's lists are found by name only.
            return Chosen::all();
        };
        // A file whose header a scan cannot be sure of may be the list
        // named: every file is read then.
        let headers: Option<Vec<Header>> = added.iter().map(|(file, _)| header::read(file.text())).collect();
        headers
            .and_then(|headers| with_added(army, &headers, scenarios))
            .unwrap_or_else(Chosen::all)
    })
}

/// The files to load: the built-in ones (by their index in the manifest)
/// and those of `--lists` (in the folder's order); `None` for all of them.
struct Chosen {
    built_in: Option<Vec<bool>>,
    folder: Option<Vec<bool>>,
}

impl Chosen {
    fn all() -> Chosen {
        Chosen {
            built_in: None,
            folder: None,
        }
    }
}

/// The files a roster naming `army` needs, of those built in and of
/// `--lists` (whose headers are `added`), or `None` for all.
///
/// When one list of the folder answers to the name: that list, every
/// built-in file of its game but the lists (it may use any datasheet),
/// and the folder's files of its game but its other lists. When one
/// built-in list does and no list of the folder is of its game (which
/// could replace it): what that list needs, and the folder's files of its
/// game. The game's glossary always: the added datasheets are checked
/// against it; scenario files of every game when `scenarios`. A folder
/// file of another game, or another list, is not read, so its errors are
/// not reported (`muster lists --check DIR` reads every file); one whose
/// header says no kind is read, and reported.
fn with_added(army: &str, added: &[Header], scenarios: bool) -> Option<Chosen> {
    let wanted = super::ListName::new(army);
    let lists: Vec<(usize, &serde_json::Value)> = (added.iter().enumerate())
        .filter(|(_, header)| header.has("sections"))
        .map(|(i, header)| (i, &header.value))
        .collect();
    let answers = |value: &serde_json::Value| {
        let aliases = value.get("aliases").and_then(|a| a.as_array());
        let snapfire = value.pointer("/imports/snapfire").and_then(|s| s.as_str());
        (text_of(value, "id").into_iter().chain(text_of(value, "name")))
            .chain(
                aliases
                    .into_iter()
                    .flatten()
                    .filter_map(|a| a.as_str())
                    .map(str::to_string),
            )
            .chain(snapfire.map(str::to_string))
            .any(|name| wanted.matches(&name))
    };
    let named: Vec<&(usize, &serde_json::Value)> = lists.iter().filter(|(_, l)| answers(l)).collect();
    let built_in = (embedded::MANIFEST.iter().enumerate())
        .filter(|(_, f)| {
            f.known && f.kind == FileKind::List && f.keys.pairs().any(|(n, c)| wanted.matches_prepared(n, c))
        })
        .map(|(i, _)| i)
        .collect::<Vec<_>>();
    let game_of = |value: &serde_json::Value| text_of(value, "game").unwrap_or_default();
    let folder = |game: &str, named: Option<usize>| {
        (added.iter().enumerate())
            .map(|(i, header)| Some(i) == named || folder_file_needed(header, game, scenarios))
            .collect()
    };
    match (named.as_slice(), built_in.as_slice()) {
        ([(at, list)], others) => {
            let game = game_of(list);
            let id = text_of(list, "id");
            // A built-in list of the same name must be the one it replaces:
            // of its game, its id the same (its keys hold it normalized).
            let replaced = |i: &usize| {
                embedded::MANIFEST.get(*i).is_some_and(|f| {
                    f.game == game
                        && id.as_deref().is_some_and(|id| {
                            let id = super::names::normalize(id);
                            f.keys.pairs().next().is_some_and(|(n, _)| n == id)
                        })
                })
            };
            // Another list of the folder of its game and id would replace
            // it as the files load.
            let twin = |(i, l): &&(usize, &serde_json::Value)| {
                i != at && game_of(l) == game && text_of(l, "id") == id
            };
            if !others.iter().all(replaced) || lists.iter().any(|l| twin(&l)) {
                return None;
            }
            let built_in = (embedded::MANIFEST.iter())
                .map(|f| {
                    !f.known
                        || (f.kind == FileKind::Scenarios && scenarios)
                        || (f.game == game
                            && match f.kind {
                                FileKind::List => false,
                                // The folder's datasheets are checked
                                // against their game's glossary.
                                FileKind::Glossary => true,
                                FileKind::Datasheets | FileKind::Models => true,
                                FileKind::Scenarios => scenarios,
                            })
                })
                .collect();
            Some(Chosen {
                built_in: Some(built_in),
                folder: Some(folder(&game, Some(*at))),
            })
        }
        ([], [index]) => {
            let game = embedded::MANIFEST.get(*index)?.game;
            if lists.iter().any(|(_, l)| game_of(l) == game) {
                return None;
            }
            Some(Chosen {
                built_in: Some(selection(*index, true, scenarios)?),
                folder: Some(folder(game, None)),
            })
        }
        _ => None,
    }
}

/// A text value of a file's header.
fn text_of(value: &serde_json::Value, key: &str) -> Option<String> {
    value.get(key).and_then(|v| v.as_str()).map(str::to_string)
}

/// Whether a `--lists` file other than the list named is read for a
/// list of `game`: not another list; a file of its game, or of no game
/// muster knows (whose error is then reported); a scenario file when
/// `scenarios`; a file of no kind, which is reported.
fn folder_file_needed(header: &Header, game: &str, scenarios: bool) -> bool {
    match kind_of(|key| header.has(key)) {
        None => true,
        Some(FileKind::List) => false,
        Some(FileKind::Scenarios) if scenarios => true,
        Some(_) => header
            .value
            .get("game")
            .and_then(|g| g.as_str())
            .is_none_or(|g| g == game || GameId::ALL.iter().all(|known| known.as_str() != g)),
    }
}

/// Which built-in files a roster naming `army` needs, or `None` for all;
/// the game's glossary only when `glossary`.
#[cfg(test)]
fn select_for(army: &str, glossary: bool) -> Option<Vec<bool>> {
    select(army, glossary, true)
}

/// [`select_for`], with every game's scenario files only when `scenarios`.
fn select(army: &str, glossary: bool, scenarios: bool) -> Option<Vec<bool>> {
    selection(list_named(army)?, glossary, scenarios)
}

/// The one built-in list (its index in the manifest) whose id, name or an
/// alias is `army`; `None` when none is, or several are.
fn list_named(army: &str) -> Option<usize> {
    let wanted = super::ListName::new(army);
    only_list(|f| f.keys.pairs().any(|(n, c)| wanted.matches_prepared(n, c)))
}

/// The one built-in list for which `test` holds, or `None`.
fn only_list(test: impl Fn(&FileFacts) -> bool) -> Option<usize> {
    let mut found = (embedded::MANIFEST.iter().enumerate())
        .filter(|(_, f)| f.known && f.kind == FileKind::List && test(f));
    let (index, _) = found.next()?;
    found.next().is_none().then_some(index)
}

/// The built-in list a roster known by `key` is read against, found from
/// the manifest as the importers find it in the catalogue
/// (`import::snapfire::find_list`, `import::battlescribe`'s `find_list`);
/// `None` whenever that is not certain, and everything is loaded.
fn list_of(key: &ListKey) -> Option<usize> {
    match key {
        ListKey::Name(army) => list_named(army),
        ListKey::Snapfire(file) => {
            only_list(|f| f.snapfire_file.iter().any(|s| s.eq_ignore_ascii_case(file)))
        }
        ListKey::BattleScribe { game, forces } => {
            // Every force must come to the same list: a force of another
            // list is reported by that list's name.
            let mut lists = forces.iter().map(|(id, name)| battlescribe_list(*game, id, name));
            let first = lists.next()??;
            lists.all(|l| l == Some(first)).then_some(first)
        }
    }
}

/// The built-in list a BattleScribe force is read against: the one
/// recording its catalogue's id, else the one in the roster's game
/// recording its catalogue's name, else the one so named.
fn battlescribe_list(game: Option<GameId>, id: &str, name: &str) -> Option<usize> {
    let in_game = |f: &FileFacts| game.is_none_or(|g| f.game == g.as_str());
    if !id.is_empty() {
        let recorded = |f: &FileFacts| f.battlescribe.pairs().any(|(_, i)| i == id);
        if embedded::MANIFEST.iter().any(|f| f.known && recorded(f)) {
            return only_list(recorded);
        }
    }
    let wanted = super::names::normalize(name);
    let recorded = |f: &FileFacts| in_game(f) && f.battlescribe.pairs().any(|(n, _)| n == wanted);
    if let Some(index) = only_list(recorded) {
        return Some(index);
    }
    let index = list_named(name)?;
    let facts = embedded::MANIFEST.get(index)?;
    (!name.is_empty() && in_game(facts)).then_some(index)
}

/// The built-in files list `index` of the manifest needs.
fn selection(index: usize, glossary: bool, scenarios: bool) -> Option<Vec<bool>> {
    let manifest = embedded::MANIFEST;
    let list = manifest.get(index)?;
    Some(
        manifest
            .iter()
            .enumerate()
            .map(|(i, f)| {
                // Every game's scenarios: small, and a roster naming
                // another game's scenario is told which game it is of.
                !f.known
                    || i == index
                    || (f.kind == FileKind::Scenarios && scenarios)
                    || (f.game == list.game
                        && match f.kind {
                            FileKind::List => false,
                            // Chosen by the build (`FileFacts::sheets`).
                            FileKind::Datasheets => list.sheets.contains(&i),
                            FileKind::Glossary => glossary,
                            FileKind::Models => true,
                            FileKind::Scenarios => scenarios,
                        })
            })
            .collect(),
    )
}

/// Whether two sorted lists share an item: one pass over both.
#[cfg(test)]
fn sorted_overlap<'a>(a: impl Iterator<Item = &'a str>, b: impl Iterator<Item = &'a str>) -> bool {
    let (mut a, mut b) = (a.peekable(), b.peekable());
    while let (Some(x), Some(y)) = (a.peek(), b.peek()) {
        match x.cmp(y) {
            std::cmp::Ordering::Less => _ = a.next(),
            std::cmp::Ordering::Greater => _ = b.next(),
            std::cmp::Ordering::Equal => return true,
        }
    }
    false
}

/// Loads the built-in files `selection` marks (all without one), then `extra`.
fn load_selected(extra: Option<&Path>, checks: Checks, selection: Option<Vec<bool>>) -> LoadReport {
    load_chosen(extra, checks, |_| Chosen {
        built_in: selection,
        folder: None,
    })
}

/// A file of `--lists DIR`, read but not parsed.
type Added = (SourceFile, Origin);

/// Loads the files `choose` marks, told what `extra` holds, of those
/// built in and of `extra`.
fn load_chosen(extra: Option<&Path>, checks: Checks, choose: impl FnOnce(&[Added]) -> Chosen) -> LoadReport {
    let mut diagnostics = Vec::new();
    let mut added = Vec::new();
    if let Some(dir) = extra {
        read_dir(dir, &mut added, &mut diagnostics);
    }
    let Chosen { built_in, folder } = choose(&added);
    let marked = |selection: &Option<Vec<bool>>, i: usize| {
        selection
            .as_ref()
            .is_none_or(|s| s.get(i).copied().unwrap_or(true))
    };
    type Source = (SourceFile, Origin, Option<Packed>, Option<FileKind>);
    let mut sources: Vec<Source> = embedded::EMBEDDED
        .iter()
        .zip(embedded::MANIFEST)
        .enumerate()
        .filter(|(i, _)| marked(&built_in, *i))
        .map(|(_, ((name, text, packed), facts))| {
            (
                SourceFile::embedded(format!("lists/{name}"), text),
                Origin::Embedded((*name).to_string()),
                Some(*packed).filter(Packed::is_some),
                facts.known.then_some(facts.kind),
            )
        })
        .collect();
    sources.extend(
        (added.into_iter().enumerate())
            .filter(|(i, _)| marked(&folder, *i))
            .map(|(_, (file, origin))| (file, origin, None, None)),
    );
    let files = sources.len();

    // Each file is decoded on its own: over the thread pool when every
    // file is loaded (a folder's check, `lists`), on this thread for the
    // few files of one list (starting the pool would cost more). Each
    // file's diagnostics are kept apart and added in the files' order.
    let parse = |(file, origin, packed, kind): Source| {
        let validate = checks == Checks::All || !matches!(origin, Origin::Embedded(_));
        let mut found = Vec::new();
        // A built-in file nobody asked to prove goes straight from its
        // packed form into the typed structs; anything unusual takes the
        // long way, which says what is wrong.
        let fast = match (validate, packed, kind) {
            (false, Some(packed), Some(kind)) => parse_typed(packed, kind),
            _ => None,
        };
        let parsed = fast.or_else(|| parse_file(&file, packed, validate, &mut found));
        (file, origin, validate, parsed, found)
    };
    let parsed: Vec<_> = if built_in.is_none() {
        use rayon::prelude::*;
        sources.into_par_iter().map(parse).collect()
    } else {
        sources.into_iter().map(parse).collect()
    };
    link_parsed(parsed, diagnostics, files, checks)
}

/// A file read: whether it was proven, what it holds (`None` when it
/// could not be read) and its diagnostics.
type Read = (SourceFile, Origin, bool, Option<Parsed>, Vec<Diagnostic>);

/// Links the files read into a catalogue.
fn link_parsed(
    parsed: Vec<Read>,
    mut diagnostics: Vec<Diagnostic>,
    files: usize,
    checks: Checks,
) -> LoadReport {
    let reproven = games_with_added_sheets(&parsed, checks);
    let mut lists = Vec::new();
    let mut sheets = Vec::new();
    let mut models = Vec::new();
    let mut glossaries = Vec::new();
    let mut scenarios = Vec::new();
    for (file, origin, validate, parsed, found) in parsed {
        diagnostics.extend(found);
        match parsed {
            Some(Parsed::List(list)) => {
                let prepared = prepared_names(&origin);
                let prove = validate || reproven.contains(&list.game);
                lists.push((list, file, origin, prepared, prove));
            }
            Some(Parsed::Datasheets(d)) => sheets.push((d, file, validate)),
            Some(Parsed::Models(m)) => models.push(m),
            Some(Parsed::Glossary(g)) => glossaries.push((g, file)),
            Some(Parsed::Scenarios(s)) => scenarios.push((s, file, validate)),
            None => {}
        }
    }
    let mut catalogue = link::link(lists, sheets, models, &mut diagnostics);
    super::glossary::link(&mut catalogue, glossaries, &mut diagnostics);
    super::scenarios::link(&mut catalogue, scenarios, &mut diagnostics);
    LoadReport {
        catalogue,
        // Capped as a roster's findings are: a file of 70,000 unknown keys
        // once printed 26 MB.
        diagnostics: crate::diagnostic::cap(diagnostics),
        files,
    }
}

/// With [`Checks::Folder`], the games whose datasheets the folder adds:
/// their built-in lists are proven against them.
fn games_with_added_sheets(parsed: &[Read], checks: Checks) -> Vec<GameId> {
    if checks != Checks::Folder {
        return Vec::new();
    }
    (parsed.iter())
        .filter_map(|(_, origin, _, parsed, _)| match (origin, parsed) {
            (Origin::Embedded(_), _) => None,
            (_, Some(Parsed::Datasheets(d))) => Some(d.game),
            _ => None,
        })
        .collect()
}

/// Every file read from a `--lists` folder in this process, so that no
/// output (`--pdf`, `--html`, `--report`) is written over one of them, as
/// none is written over a roster or an event file.
static READ_FROM_FOLDERS: std::sync::Mutex<std::collections::BTreeSet<PathBuf>> =
    std::sync::Mutex::new(std::collections::BTreeSet::new());

/// The list files read from `--lists` folders so far (see
/// [`READ_FROM_FOLDERS`]).
pub fn list_files_read() -> Vec<PathBuf> {
    READ_FROM_FOLDERS
        .lock()
        .map(|files| files.iter().cloned().collect())
        .unwrap_or_default()
}

fn remember(paths: &[PathBuf]) {
    if let Ok(mut files) = READ_FROM_FOLDERS.lock() {
        files.extend(paths.iter().cloned());
    }
}

fn read_dir(dir: &Path, out: &mut Vec<(SourceFile, Origin)>, diagnostics: &mut Vec<Diagnostic>) {
    let mut paths = Vec::new();
    if let Err(e) = walk(dir, &mut paths) {
        diagnostics.push(Diagnostic::error(
            Code::ListData,
            format!(
                "cannot read the list folder {}: {}",
                dir.display(),
                crate::source::io_error(&e)
            ),
        ));
        return;
    }
    paths.sort();
    remember(&paths);
    for path in paths {
        match crate::source::read_regular(&path, MAX_LIST_BYTES) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(text) => out.push((
                    SourceFile::new(path.display().to_string(), text),
                    Origin::File(path),
                )),
                Err(_) => diagnostics.push(Diagnostic::error(
                    Code::ListData,
                    format!("{} is not UTF-8 text", path.display()),
                )),
            },
            Err(e) => diagnostics.push(Diagnostic::error(
                Code::ListData,
                format!("cannot read {}: {e}", path.display()),
            )),
        }
    }
}

/// The largest list file read: the largest shipped one is under 40 KB.
pub const MAX_LIST_BYTES: usize = 1 << 20;

/// How deep `--lists` folders are walked.
const MAX_LIST_DEPTH: usize = 16;

/// The YAML files under `dir`. Links to folders are not followed (two links
/// to each other's folders once made the walk endless, and one loop read
/// the same file 41 times); a link to a file is read if what it names is a
/// regular file, which `read_regular` checks.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    fn go(dir: &Path, out: &mut Vec<PathBuf>, depth: usize) -> std::io::Result<()> {
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            let path = entry.path();
            if entry.file_type()?.is_dir() {
                if depth < MAX_LIST_DEPTH {
                    go(&path, out, depth + 1)?;
                }
            } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
                out.push(path);
            }
        }
        Ok(())
    }
    go(dir, out, 0)
}

enum Parsed {
    List(Box<ArmyListFile>),
    Datasheets(DatasheetFile),
    Models(ModelsFile),
    Glossary(GlossaryFile),
    Scenarios(ScenarioFile),
}

/// The kinds of file `lists/` holds, told apart by their top-level key.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum FileKind {
    List,
    Datasheets,
    Models,
    Glossary,
    Scenarios,
}

/// The kind of a file that has the top-level keys `has` says it has, or
/// `None` when it has none of those that tell one.
fn kind_of(has: impl Fn(&str) -> bool) -> Option<FileKind> {
    if has("sections") {
        Some(FileKind::List)
    } else if super::kinds::FIELDS.iter().any(|key| has(key)) {
        Some(FileKind::Datasheets)
    } else if has("models") {
        Some(FileKind::Models)
    } else if has("terms") {
        Some(FileKind::Glossary)
    } else if has("scenarios") {
        Some(FileKind::Scenarios)
    } else {
        None
    }
}

/// The keys of a datasheet file, for messages: `` `units:`, `ships:` or
/// `ne_units:` ``.
fn datasheet_keys() -> String {
    let keys: Vec<String> = super::kinds::FIELDS
        .iter()
        .map(|key| format!("`{key}:`"))
        .collect();
    match keys.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, others)) => format!("{} or {last}", others.join(", ")),
        None => String::new(),
    }
}

/// A built-in file's packed data read directly as the kind the build
/// recorded.
fn parse_typed(packed: Packed, kind: FileKind) -> Option<Parsed> {
    match kind {
        FileKind::List => packed.decode().ok().map(|l| Parsed::List(Box::new(l))),
        FileKind::Datasheets => packed.decode().ok().map(Parsed::Datasheets),
        FileKind::Models => packed.decode().ok().map(Parsed::Models),
        FileKind::Glossary => packed.decode().ok().map(Parsed::Glossary),
        FileKind::Scenarios => packed.decode().ok().map(Parsed::Scenarios),
    }
}

/// Reads one file: from its packed data when built in (`packed`), else
/// from its YAML; checked against its schema when `validate`.
fn parse_file(
    file: &SourceFile,
    packed: Option<Packed>,
    validate: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Parsed> {
    let pre_converted = packed.and_then(|p| p.decode::<serde_json::Value>().ok());
    let parsed = match pre_converted {
        Some(value) => Ok(value),
        None => locate::parse_yaml(file, Code::ListData),
    };
    let value = match parsed {
        Ok(value) => value,
        Err(d) => {
            diagnostics.push(*d);
            return None;
        }
    };
    let Some(kind) = kind_of(|key| value.get(key).is_some()) else {
        diagnostics.push(
            Diagnostic::error(
                Code::ListData,
                format!(
                    "not a list file: an army list has `sections:`, a datasheet file {}, a model file `models:`, a glossary `terms:`, a scenario file `scenarios:`",
                    datasheet_keys()
                ),
            )
            .at(file, file.line_span(1)),
        );
        return None;
    };
    // A validator is compiled on first use, so a run that validates
    // nothing compiles none.
    let errors = if validate {
        let (validator, schema, name) = match kind {
            FileKind::List => (
                super::schema::army_list_validator(),
                super::schema::army_list(),
                "army-list",
            ),
            FileKind::Datasheets => (
                super::schema::datasheets_validator(),
                super::schema::datasheets(),
                "datasheets",
            ),
            FileKind::Models => (
                super::schema::models_validator(),
                super::schema::models(),
                "models",
            ),
            FileKind::Glossary => (
                super::schema::glossary_validator(),
                super::schema::glossary(),
                "glossary",
            ),
            FileKind::Scenarios => (
                super::schema::scenarios_validator(),
                super::schema::scenarios(),
                "scenarios",
            ),
        };
        let hint = format!("the format is described in lists/README.md and schema/{name}.schema.json");
        validator.map_or_else(Vec::new, |validator| {
            schema_words::schema_errors(file, &value, schema, validator, Code::ListData, &hint)
        })
    } else {
        Vec::new()
    };
    if !errors.is_empty() {
        diagnostics.extend(errors);
        return None;
    }
    let parsed = match kind {
        FileKind::List => serde_json::from_value::<ArmyListFile>(value).map(|l| Parsed::List(Box::new(l))),
        FileKind::Datasheets => serde_json::from_value::<DatasheetFile>(value).map(Parsed::Datasheets),
        FileKind::Models => serde_json::from_value::<ModelsFile>(value).map(Parsed::Models),
        FileKind::Glossary => serde_json::from_value::<GlossaryFile>(value).map(Parsed::Glossary),
        FileKind::Scenarios => serde_json::from_value::<ScenarioFile>(value).map(Parsed::Scenarios),
    };
    match parsed {
        Ok(parsed) => Some(parsed),
        Err(e) => {
            diagnostics.push(
                Diagnostic::error(Code::ListData, format!("cannot read the file: {e}"))
                    .at(file, file.line_span(1)),
            );
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The data packed beside each built-in file says exactly what its
    /// YAML says, and reads into the same typed structs as the YAML's
    /// value does through `serde_json`, so reading the packed form changes
    /// nothing.
    #[test]
    fn packed_data_matches_the_yaml() {
        assert!(!embedded::EMBEDDED.is_empty());
        for ((name, yaml, packed), facts) in embedded::EMBEDDED.iter().zip(embedded::MANIFEST) {
            let file = SourceFile::new(format!("lists/{name}"), *yaml);
            let from_yaml = locate::parse_yaml(&file, Code::ListData).expect("built-in YAML parses");
            let from_packed: serde_json::Value = packed.decode().expect("built-in packed data reads");
            assert_eq!(from_yaml, from_packed, "{name}");
            assert!(facts.known, "{name}");
            let typed = |parsed: Option<Parsed>| match parsed {
                Some(Parsed::List(l)) => format!("{l:?}"),
                Some(Parsed::Datasheets(d)) => format!("{d:?}"),
                Some(Parsed::Models(m)) => format!("{m:?}"),
                Some(Parsed::Glossary(g)) => format!("{g:?}"),
                Some(Parsed::Scenarios(s)) => format!("{s:?}"),
                None => String::new(),
            };
            let fast = typed(parse_typed(*packed, facts.kind));
            let mut diagnostics = Vec::new();
            let long_way = typed(parse_file(&file, None, false, &mut diagnostics));
            assert!(diagnostics.is_empty(), "{name}: {diagnostics:?}");
            assert!(!fast.is_empty(), "{name}");
            assert_eq!(fast, long_way, "{name}");
        }
    }
}

/// The scan of a file's top (`header`) reads every built-in file, and
/// says what reading the whole file says: its kind, and the values of the
/// keys it reads.
#[cfg(test)]
#[test]
fn headers_agree_with_the_whole_read() {
    for (name, yaml, _, kind) in built_in() {
        let header = header::read(yaml).unwrap_or_else(|| panic!("{name}: no header"));
        let file = SourceFile::new(name.to_string(), yaml);
        let value = locate::parse_yaml(&file, Code::ListData).expect("built-in YAML parses");
        assert!(kind_of(|key| header.has(key)) == Some(kind), "{name}");
        for key in ["game", "id", "name", "aliases", "imports"] {
            assert_eq!(header.value.get(key), value.get(key), "{name}: {key}");
        }
    }
}

/// The keys that make a file a datasheet file are exactly the datasheet
/// kinds' (`kinds::FIELDS`): each alone is one, a near miss or another
/// kind's key is not, and the message for a file of no kind names them.
#[cfg(test)]
#[test]
fn datasheet_files_are_told_by_the_kinds_keys() {
    let fields = super::kinds::FIELDS;
    assert!(
        fields.contains(&"units") && fields.contains(&"ne_units"),
        "{fields:?}"
    );
    for field in fields {
        assert!(
            kind_of(|key| key == *field) == Some(FileKind::Datasheets),
            "{field}"
        );
    }
    let others = ["unit", "ship", "sheets", "datasheets", "game", "id", "name"];
    for other in others {
        assert!(kind_of(|key| key == other).is_none(), "{other}");
    }
    let checked = ["sections", "models", "terms", "scenarios"];
    let recognised: Vec<&str> = (fields.iter().chain(&checked).chain(&others))
        .copied()
        .filter(|k| kind_of(|key| key == *k) == Some(FileKind::Datasheets))
        .collect();
    assert_eq!(recognised, fields);
    let keys = datasheet_keys();
    for field in fields {
        assert_eq!(keys.matches(&format!("`{field}:`")).count(), 1, "{keys}");
    }
    assert!(
        keys.ends_with(&format!(" or `{}:`", fields[fields.len() - 1])),
        "{keys}"
    );
    // The build, which cannot ask `kinds`, tells built-in files apart and
    // lists their datasheets' ids by the same keys.
    let build = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/build.rs"));
    for field in fields {
        assert!(
            build.matches(&format!("\"{field}\"")).count() >= 2,
            "build.rs lacks {field}"
        );
    }
}

#[cfg(test)]
mod selection {
    use super::*;

    #[test]
    fn a_list_name_selects_that_list_and_the_files_it_uses() {
        let chosen = select_for("codex space marines", true).expect("an alias of Codex Astartes");
        let names: Vec<&str> = embedded::EMBEDDED
            .iter()
            .zip(&chosen)
            .filter(|(_, c)| **c)
            .map(|((name, _, _), _)| *name)
            .collect();
        assert!(names.contains(&"netea/codex-astartes.yaml"), "{names:?}");
        assert!(
            names.contains(&"netea/datasheets/space-marines.yaml"),
            "{names:?}"
        );
        assert!(names.contains(&"netea/glossary.yaml"), "{names:?}");
        assert!(!names.contains(&"netea/steel-legion.yaml"), "{names:?}");
        assert!(!names.iter().any(|n| n.starts_with("bfg/")), "{names:?}");
        let for_check = select_for("codex space marines", false).expect("an alias of Codex Astartes");
        let glossary = embedded::EMBEDDED
            .iter()
            .position(|(name, _, _)| *name == "netea/glossary.yaml")
            .expect("the NetEA glossary is built in");
        assert!(chosen[glossary] && !for_check[glossary]);
    }

    /// `select` intersects the manifest's unit ids by merging them.
    #[test]
    fn manifest_units_are_sorted_and_merged() {
        for facts in embedded::MANIFEST {
            let units: Vec<&str> = facts.units.iter().collect();
            assert_eq!(units.len(), facts.units.len());
            assert!(units.windows(2).all(|w| w[0] < w[1]), "{units:?}");
        }
        // The datasheet files the build chose for each list are those of
        // its game that define a unit it uses.
        for list in embedded::MANIFEST.iter().filter(|f| f.kind == FileKind::List) {
            for (i, f) in embedded::MANIFEST.iter().enumerate() {
                let needed = f.kind == FileKind::Datasheets
                    && f.game == list.game
                    && sorted_overlap(f.units.iter(), list.units.iter());
                assert_eq!(list.sheets.contains(&i), needed, "{i}");
            }
        }
        let overlap =
            |a: &[&'static str], b: &[&'static str]| sorted_overlap(a.iter().copied(), b.iter().copied());
        assert!(overlap(&["a", "c", "e"], &["b", "e"]));
        assert!(!overlap(&["a", "c"], &["b", "d"]));
        assert!(!overlap(&[], &["b"]));
    }

    /// An event's lists are loaded with the roster's: those it names, as
    /// it finds them among its game's lists, or every list of its game;
    /// everything when one of them is not certain.
    #[test]
    fn an_event_adds_the_lists_it_allows() {
        let names = |chosen: &[bool]| -> Vec<&str> {
            (embedded::EMBEDDED.iter().zip(chosen))
                .filter(|(_, c)| **c)
                .map(|((name, _, _), _)| *name)
                .collect()
        };
        let roster = ListKey::Name("Steel Legion".into());
        let event = |lists: &[&str]| EventLists {
            game: GameId::Netea,
            lists: lists.iter().map(|l| (*l).to_string()).collect(),
        };
        let club = event_selection(
            &roster,
            &event(&["codex-astartes", "Ghazghkull Thraka's War Horde"]),
            false,
        )
        .expect("lists named by id and by name");
        let chosen = names(&club);
        for wanted in [
            "netea/steel-legion.yaml",
            "netea/codex-astartes.yaml",
            "netea/ghazghkull-war-horde.yaml",
            "netea/datasheets/space-marines.yaml",
        ] {
            assert!(chosen.contains(&wanted), "{wanted} in {chosen:?}");
        }
        assert!(!chosen.contains(&"netea/biel-tan.yaml"), "{chosen:?}");
        assert!(!chosen.contains(&"netea/glossary.yaml"), "{chosen:?}");
        // Every game's scenarios (an event may name one), no other game's file.
        assert!(chosen.contains(&"space-fleet/scenarios.yaml"), "{chosen:?}");
        assert!(!chosen.iter().any(|n| n.starts_with("bfg/")), "{chosen:?}");
        let every = names(&event_selection(&roster, &event(&[]), true).expect("every NetEA list"));
        let netea_lists = (embedded::MANIFEST.iter())
            .filter(|f| f.kind == FileKind::List && f.game == "netea")
            .count();
        assert_eq!(
            (every.iter())
                .filter(|n| n.starts_with("netea/") && n.matches('/').count() == 1)
                .filter(|n| !["glossary", "models", "scenarios"].iter().any(|k| n.contains(k)))
                .count(),
            netea_lists,
            "{every:?}"
        );
        assert!(every.contains(&"netea/glossary.yaml"), "{every:?}");
        assert!(event_selection(&roster, &event(&["no-such-list"]), false).is_none());
        // A list of another game is not one the event can name.
        assert!(event_selection(&roster, &event(&["armageddon-sector"]), false).is_none());
        let unknown = ListKey::Name("no such army".into());
        assert!(event_selection(&unknown, &event(&[]), false).is_none());
    }

    #[test]
    fn an_unknown_name_loads_everything() {
        assert!(select_for("no such army", true).is_none());
    }

    /// A Snapfire link's file name and a BattleScribe force's catalogue
    /// choose, from the manifest alone, the very list the importers find
    /// in the whole catalogue, so a link or a `.ros` loads one list.
    #[test]
    fn snapfire_files_and_battlescribe_catalogues_choose_the_list_the_import_finds() {
        let report = load(None);
        let file_of = |index: usize| embedded::EMBEDDED.get(index).map(|(name, _, _)| *name);
        let mut tried = 0;
        for list in &report.catalogue.lists {
            let Origin::Embedded(path) = &list.origin else {
                continue;
            };
            if let Some(file) = &list.snapfire.file {
                let found = crate::import::snapfire::find_list(&report.catalogue, file).map(|l| &l.id);
                assert_eq!(found, Some(&list.id));
                let chosen = list_of(&ListKey::Snapfire(file.to_lowercase()));
                assert_eq!(chosen.and_then(file_of), Some(path.as_str()), "{file}");
                tried += 1;
            }
            for (name, id) in &list.battlescribe {
                let forces = vec![(id.clone().unwrap_or_default(), name.clone())];
                let key = ListKey::BattleScribe {
                    game: Some(list.game),
                    forces: forces.clone(),
                };
                assert_eq!(list_of(&key).and_then(file_of), Some(path.as_str()), "{name}");
                // A second force of another catalogue: everything is loaded.
                let two = ListKey::BattleScribe {
                    game: Some(list.game),
                    forces: [forces, vec![("0000-other".into(), "No Such Army".into())]].concat(),
                };
                assert_eq!(list_of(&two), None);
                tried += 1;
            }
        }
        assert!(tried > 20, "{tried} imports tried");
        // A catalogue no list records, read as a list name of its game.
        let codex = ListKey::BattleScribe {
            game: Some(GameId::Netea),
            forces: vec![("0000-netea-codex".into(), "Codex Astartes".into())],
        };
        assert_eq!(
            list_of(&codex).and_then(file_of),
            Some("netea/codex-astartes.yaml")
        );
        let elsewhere = ListKey::BattleScribe {
            game: Some(GameId::Bfg),
            forces: vec![("0000-netea-codex".into(), "Codex Astartes".into())],
        };
        assert_eq!(list_of(&elsewhere), None);
        assert_eq!(list_of(&ListKey::Snapfire("NO_such_list".into())), None);
    }

    /// With `--lists`, a roster naming a folder's list loads no built-in
    /// list and only its own game's other files; one naming a built-in list
    /// loads what that list needs unless the folder has a list of its game.
    #[test]
    fn a_lists_folder_is_read_for_the_list_named() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/heresy");
        let mut added = Vec::new();
        read_dir(&dir, &mut added, &mut Vec::new());
        let headers: Vec<Header> = (added.iter())
            .map(|(file, _)| header::read(file.text()).expect("plain files"))
            .collect();
        let names = |chosen: &Chosen| -> Vec<&str> {
            let built_in = chosen.built_in.as_deref().expect("a selection");
            (embedded::EMBEDDED.iter().zip(built_in))
                .filter(|(_, c)| **c)
                .map(|((name, _, _), _)| *name)
                .collect()
        };
        let heresy = with_added("heresy-test-legion", &headers, false).expect("the folder's list");
        assert_eq!(heresy.folder.as_deref(), Some(&[true, true][..]));
        let heresy = names(&heresy);
        assert!(heresy.iter().all(|n| n.starts_with("heresy/")), "{heresy:?}");
        let codex = with_added("codex astartes", &headers, false).expect("a built-in list");
        // The folder holds only Heresy files: none is read.
        assert_eq!(codex.folder.as_deref(), Some(&[false, false][..]));
        let codex = names(&codex);
        assert!(codex.contains(&"netea/codex-astartes.yaml"), "{codex:?}");
        assert!(!codex.iter().any(|n| n.starts_with("heresy/")), "{codex:?}");
        assert!(with_added("no such army", &headers, false).is_none());
        // The folder's list, checked with only these files, as with all.
        let roster = dir.join("rosters/legal.ok.txt");
        let text = std::fs::read_to_string(&roster).expect("the fixture");
        let chosen = load_for_key(
            Some(&dir),
            &ListKey::Name("heresy-test-legion".into()),
            false,
            false,
        );
        let every = load(Some(&dir));
        assert!(chosen.catalogue.lists.len() < every.catalogue.lists.len());
        let one = crate::check::check_text(&chosen.catalogue, "legal.ok.txt", &text);
        let all = crate::check::check_text(&every.catalogue, "legal.ok.txt", &text);
        let shown = |d: &[Diagnostic]| crate::report::terminal::diagnostics(d, false);
        assert_eq!(shown(&one.diagnostics), shown(&all.diagnostics));
        assert!(one.legal());
    }
}
