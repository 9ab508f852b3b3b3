//! From raw files to the catalogue: ids become indices, rules are parsed and
//! their selectors resolved, and every dangling reference is reported.

use super::kinds::{EpicKind, HeresyKind, NetEpicKind, SfShipKind, SheetKind, ShipKind, field_message};
use super::locate::FileErrors;
use super::names::KeyMap;
use super::packed::Texts;
use super::raw::{self, ArmyListFile, DatasheetFile, Known};
use super::{
    ArmyList, Catalogue, Constraint, Formation, NotEnforced, Origin, Section, Selector, SpecialRule, Tags,
    Upgrade, names::NameIndex,
};
use crate::diagnostic::{Code, Diagnostic};
use crate::rules::{self, Item, SelectorSyntax};
use crate::source::{SourceFile, Span};
use std::collections::BTreeSet;

/// A set of the catalogue's short keys, hashed as [`KeyMap`] is.
type KeySet<K> = std::collections::HashSet<K, rustc_hash::FxBuildHasher>;

/// A list file to link: its data and text, where it came from, what the
/// build prepared of its names (a built-in list's), and `true` when the
/// file is being proven, so warnings about dead data are worth their cost
/// (finding their lines parses the YAML).
pub(super) type ListFile = (Box<ArmyListFile>, SourceFile, Origin, Option<PreparedNames>, bool);

pub fn link(
    lists: Vec<ListFile>,
    // `true`: parse the notation now and report its errors (see
    // `Datasheet::sheet`).
    sheets: Vec<(DatasheetFile, SourceFile, bool)>,
    models: Vec<raw::ModelsFile>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Catalogue {
    let mut catalogue = Catalogue::default();
    for file in models {
        for model in file.models {
            catalogue.models.push(super::ModelEntry {
                game: file.game,
                name: model.name,
                aliases: model.aliases,
                armies: model.armies,
                unit_type: model.unit_type,
            });
        }
    }
    let mut placed = PlacedSheets::default();
    placed.reserve(&mut catalogue, &sheets);
    for (mut file, source, eager) in sheets {
        let mut errors = FileErrors::new(&source, diagnostics);
        // Ids repeat across files only to override (a `--lists` file over
        // a built-in one); within one file a repeat is a slip.
        let mut place = PlaceFile {
            catalogue: &mut catalogue,
            errors: &mut errors,
            in_this_file: KeySet::with_capacity_and_hasher(sheet_count(&file), Default::default()),
            eager,
        };
        place.kind::<ShipKind>(&mut placed.ships, &mut file);
        place.kind::<SfShipKind>(&mut placed.sf_ships, &mut file);
        place.kind::<HeresyKind>(&mut placed.heresy_units, &mut file);
        place.kind::<NetEpicKind>(&mut placed.ne_units, &mut file);
        place.kind::<EpicKind>(&mut placed.datasheets, &mut file);
    }
    // Each game's datasheet ids, gathered once for all its lists (every
    // list of a game used to gather them again: a twelfth of loading every
    // file).
    let mut linked: Vec<ArmyList> = Vec::with_capacity(lists.len());
    {
        let mut sheet_ids: Vec<(raw::GameId, KeySet<&str>)> = Vec::new();
        for (file, source, origin, prepared, prove) in lists {
            let game = file.game;
            let at = match sheet_ids.iter().position(|(g, _)| *g == game) {
                Some(at) => at,
                None => {
                    sheet_ids.push((game, game_sheet_ids(&catalogue, game)));
                    sheet_ids.len() - 1
                }
            };
            let with = With {
                catalogue: &catalogue,
                sheet_ids: &sheet_ids[at].1,
                prepared,
            };
            if let Some(list) = link_list(*file, &source, origin, prove, with, diagnostics) {
                match linked.iter_mut().find(|l| l.game == list.game && l.id == list.id) {
                    Some(existing) => *existing = list,
                    None => linked.push(list),
                }
            }
        }
    }
    catalogue.lists = linked;
    catalogue
}

/// Where the datasheets of each kind are (see [`Placed`]).
#[derive(Default)]
struct PlacedSheets {
    ships: Placed,
    sf_ships: Placed,
    heresy_units: Placed,
    ne_units: Placed,
    datasheets: Placed,
}

impl PlacedSheets {
    /// Room for every file's datasheets at once: each is large, and
    /// growing the vectors file by file copied the earlier files' again.
    fn reserve(&self, catalogue: &mut Catalogue, files: &[(DatasheetFile, SourceFile, bool)]) {
        fn kind<K: SheetKind>(catalogue: &mut Catalogue, files: &[(DatasheetFile, SourceFile, bool)]) {
            let total = files.iter().map(|(f, _, _)| K::in_file(f).len()).sum();
            K::stored_mut(catalogue).reserve(total);
        }
        kind::<ShipKind>(catalogue, files);
        kind::<SfShipKind>(catalogue, files);
        kind::<HeresyKind>(catalogue, files);
        kind::<NetEpicKind>(catalogue, files);
        kind::<EpicKind>(catalogue, files);
    }
}

/// How many datasheets of every kind a file has.
fn sheet_count(file: &DatasheetFile) -> usize {
    file.ships.len() + file.sf_ships.len() + file.heresy_units.len() + file.ne_units.len() + file.units.len()
}

/// One datasheet file being placed in the catalogue.
struct PlaceFile<'c, 'e> {
    catalogue: &'c mut Catalogue,
    errors: &'c mut FileErrors<'e>,
    /// The ids of the file's datasheets so far, of every kind.
    in_this_file: KeySet<String>,
    /// `true`: parse the notation now and report its errors (see
    /// `Datasheet::sheet`).
    eager: bool,
}

impl PlaceFile<'_, '_> {
    /// The file's datasheets of kind `K`, each parsed now when the file is
    /// being proven; a later file (from --lists) overrides a built-in
    /// datasheet of the same game and id.
    fn kind<K: SheetKind>(&mut self, placed: &mut Placed, file: &mut DatasheetFile) {
        let game = file.game;
        for (i, sheet) in K::take(file).into_iter().enumerate() {
            let id = K::id(&sheet);
            if !self.in_this_file.insert(id.to_string()) {
                let message = format!("datasheet id `{id}` is used twice");
                self.errors.error(&format!("/{}/{i}/id", K::FIELD), message);
                continue;
            }
            let parsed = std::sync::OnceLock::new();
            if self.eager {
                let _ = parsed.set(self.parse::<K>(game, i, &sheet));
            }
            let stored = K::store(game, &file.id, sheet, parsed);
            placed.place(K::stored_mut(self.catalogue), stored, |x| {
                let any = K::any(x);
                (any.game(), any.id())
            });
        }
    }

    /// The values of datasheet `i` of kind `K`, or `None` with each value
    /// that does not parse reported.
    fn parse<K: SheetKind>(&mut self, game: raw::GameId, i: usize, sheet: &K::Raw) -> Option<K::Parsed> {
        if !K::has_notation(game) {
            return None;
        }
        match K::parse(sheet) {
            Ok(parsed) => Some(parsed),
            Err(fields) => {
                for field in fields {
                    let pointer = format!("/{}/{i}/{}", K::FIELD, field.path);
                    self.errors
                        .error(&pointer, field_message::<K>(&field, K::id(sheet)));
                }
                None
            }
        }
    }
}

/// Where each datasheet of one kind is in its vector, by a hash of its
/// game and id, so that a later file's datasheet replaces the one of the
/// same game and id (a `--lists` file over a built-in one) without a scan
/// of them all for each (which was quadratic in the datasheets: a
/// fourteenth of loading every file). A hash names the first datasheet
/// that had it; another with the same hash is found by a scan.
#[derive(Default)]
struct Placed(KeyMap<u64, usize>);

impl Placed {
    fn place<T>(&mut self, items: &mut Vec<T>, item: T, key: impl Fn(&T) -> (raw::GameId, &str)) {
        use std::hash::{BuildHasher, Hash, Hasher};
        let hash = {
            let (game, id) = key(&item);
            let mut hasher = rustc_hash::FxBuildHasher.build_hasher();
            game.hash(&mut hasher);
            id.hash(&mut hasher);
            hasher.finish()
        };
        let Some(&at) = self.0.get(&hash) else {
            // No datasheet has this hash, so none has this game and id.
            self.0.insert(hash, items.len());
            items.push(item);
            return;
        };
        let same = |x: &T| key(x) == key(&item);
        let found = match items.get(at) {
            Some(x) if same(x) => Some(at),
            _ => items.iter().position(same),
        };
        match found.and_then(|i| items.get_mut(i)) {
            Some(existing) => *existing = item,
            None => items.push(item),
        }
    }
}

/// Every datasheet id of one game, of every kind of datasheet.
fn game_sheet_ids(catalogue: &Catalogue, game: raw::GameId) -> KeySet<&str> {
    let every = || catalogue.every_sheet();
    let mut ids = KeySet::with_capacity_and_hasher(every().size_hint().0, Default::default());
    ids.extend(every().filter(|s| s.game() == game).map(|s| s.id()));
    ids
}

/// A card's break point and victory points, when the file gives either.
fn card_values(formation: &raw::Formation) -> Option<super::CardValues> {
    if formation.break_point.is_none() && formation.victory_points.is_none() {
        return None;
    }
    // Heresy's two values are its battlegroups' (`crate::battlegroups`).
    if formation.break_point.is_none()
        && matches!(
            formation.victory_points,
            Some(raw::VictoryPoints::BrokenDestroyed(_))
        )
    {
        return None;
    }
    Some(super::CardValues {
        break_point: formation.break_point.clone().and_then(known),
        victory_points: match formation.victory_points {
            Some(raw::VictoryPoints::Fixed(n)) => super::CardVp::Fixed(n),
            Some(raw::VictoryPoints::FromCost(_)) => super::CardVp::PerHundredPoints,
            Some(raw::VictoryPoints::BrokenDestroyed(vp)) => super::CardVp::Fixed(vp.broken),
            Some(raw::VictoryPoints::Missing(_)) | None => super::CardVp::Missing,
        },
    })
}

fn known<T>(value: Known<T>) -> Option<T> {
    match value {
        Known::Value(v) => Some(v),
        Known::Missing(_) => None,
    }
}

/// Strings kept once and shared (a list's tags).
#[derive(Default)]
struct Interned(KeySet<Shared>);

/// A shared string, found in a set by its text.
#[derive(PartialEq, Eq)]
struct Shared(std::sync::Arc<String>);

impl std::hash::Hash for Shared {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        // As `str` hashes, which `Borrow<str>` requires.
        self.0.as_str().hash(state);
    }
}

impl std::borrow::Borrow<str> for Shared {
    fn borrow(&self) -> &str {
        self.0.as_str()
    }
}

impl Interned {
    fn intern(&mut self, text: &str) -> std::sync::Arc<String> {
        if let Some(kept) = self.0.get(text) {
            return kept.0.clone();
        }
        let kept = std::sync::Arc::new(text.to_string());
        self.0.insert(Shared(kept.clone()));
        kept
    }
}

/// What the build prepared of a built-in list's names
/// (`load::prepared_names`): normalized and compact forms, in pairs.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PreparedNames {
    pub list: Texts,
    pub entries: Texts,
}

/// What a list is linked against.
#[derive(Clone, Copy)]
struct With<'a> {
    /// The datasheets, models and lists linked so far.
    catalogue: &'a Catalogue,
    /// The list's game's datasheet ids (`game_sheet_ids`).
    sheet_ids: &'a KeySet<&'a str>,
    /// A built-in list's names as the build normalized them.
    prepared: Option<PreparedNames>,
}

/// Links one list file, or reports why it cannot be: each phase is a
/// method of [`Linker`], run in the order their errors are reported.
fn link_list(
    mut file: ArmyListFile,
    source: &SourceFile,
    origin: Origin,
    prove: bool,
    with: With<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<ArmyList> {
    let mut linker = Linker::new(&file, source, prove, with, diagnostics);
    linker.unique_ids(&file);
    let (mut upgrades, upgrade_names) = linker.upgrades(&mut file.upgrades);
    let (sections, mut formations, formation_names) = linker.sections(&mut file.sections, &file.upgrades);
    // Every datasheet the list uses is met by now.
    let units = std::mem::take(&mut linker.units);
    let snapfire = super::snapfire::link(&file, &formations, &upgrades, prove, &mut linker.errors);
    linker.prove_fielded(&formations, &upgrades, &units);
    linker.name_clashes(&formations, &upgrades, &formation_names, &upgrade_names);
    // One index of ids and tags for every selector of the list.
    let item_index = ItemIndex::of_file(&file.sections, &file.upgrades, &units);
    let scope = Resolver::shared(&formations, &upgrades, &units, false, &item_index);
    let later = linker.selectors(&file, &formations, &scope);
    linker.no_group_circle(&later, &formations);
    later.put_in_place(&mut formations, &mut upgrades);
    let scope = Resolver::shared(&formations, &upgrades, &units, false, &item_index);
    let lenient = Resolver::shared(&formations, &upgrades, &units, true, &item_index);
    let constraints = linker.constraints(&mut file.constraints, &scope, &lenient);
    linker.garrison_units(&file);
    let attack_rating_when = linker.attack_rating_when(&file, &scope);
    let figures = linker.figures(&file, &scope);
    linker.ratings(&file);
    linker.dead_data(&sections, &formations, &upgrades);
    linker.repeated_rule_ids(&file);
    if linker.errors.count() > 0 {
        return None;
    }
    let linked = Linked {
        sections,
        formations,
        upgrades,
        units,
        constraints,
        attack_rating_when,
        figures,
        snapfire,
        formation_names,
        upgrade_names,
    };
    Some(linked.into_list(file, origin, with.prepared))
}

/// Where an id was first defined; its pointer is written only for an
/// error (formatting one per id was a tenth of linking a large list).
#[derive(Clone, Copy)]
enum Defined {
    Upgrade(usize),
    Formation(usize, usize),
}

impl std::fmt::Display for Defined {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Defined::Upgrade(u) => write!(f, "/upgrades/{u}/id"),
            Defined::Formation(s, i) => write!(f, "/sections/{s}/formations/{i}/id"),
        }
    }
}

/// How many names (name and aliases) the upgrades have.
fn upgrade_name_count(upgrades: &[raw::Upgrade]) -> usize {
    upgrades.iter().map(|u| 1 + u.aliases.len()).sum()
}

/// How many names (name and aliases) the formations have.
fn formation_name_count(sections: &[raw::Section]) -> usize {
    (sections.iter())
        .flat_map(|s| &s.formations)
        .map(|f| 1 + f.aliases.len())
        .sum()
}

/// The build's forms of names, in pairs (normalized, compact).
type PreparedPairs = Box<dyn Iterator<Item = (&'static str, &'static str)>>;

/// One list file being linked: what every phase reads, the errors they
/// report, and the datasheets the list uses, met as the phases go.
struct Linker<'a, 'd> {
    catalogue: &'a Catalogue,
    /// The list's game's datasheet ids (`game_sheet_ids`).
    sheet_ids: &'a KeySet<&'a str>,
    game: raw::GameId,
    /// `true`: the file is being proven (see [`ListFile`]).
    prove: bool,
    errors: FileErrors<'d>,
    /// Datasheet ids the list uses, in the order met; `UnitIdx` indexes it.
    units: Vec<String>,
    unit_at: KeyMap<&'a str, usize>,
    /// The build's normalized names, one per name the indexes take in the
    /// same order (upgrades, then formations), or none.
    prepared_entries: Option<PreparedPairs>,
    /// Each tag once, shared by the entries that have it.
    tag_names: Interned,
}

impl<'a, 'd> Linker<'a, 'd> {
    fn new(
        file: &ArmyListFile,
        source: &'d SourceFile,
        prove: bool,
        with: With<'a>,
        diagnostics: &'d mut Vec<Diagnostic>,
    ) -> Self {
        let names = upgrade_name_count(&file.upgrades) + formation_name_count(&file.sections);
        let prepared_entries = (with.prepared)
            .map(|p| p.entries)
            .filter(|e| e.len() == 2 * names)
            .map(|e| Box::new(e.pairs()) as PreparedPairs);
        // Room for the units a list is likely to use (at most its game's).
        let room = with.sheet_ids.len().min(256);
        Linker {
            catalogue: with.catalogue,
            sheet_ids: with.sheet_ids,
            game: file.game,
            prove,
            errors: FileErrors::new(source, diagnostics),
            units: Vec::new(),
            unit_at: KeyMap::with_capacity_and_hasher(room, Default::default()),
            prepared_entries,
            tag_names: Interned::default(),
        }
    }

    /// Ids: unique across formations and upgrades.
    fn unique_ids(&mut self, file: &ArmyListFile) {
        let formation_count = file.sections.iter().map(|s| s.formations.len()).sum::<usize>();
        let mut ids: KeyMap<&str, Defined> =
            KeyMap::with_capacity_and_hasher(formation_count + file.upgrades.len(), Default::default());
        let upgrades =
            (file.upgrades.iter().enumerate()).map(|(u, upgrade)| (&upgrade.id, Defined::Upgrade(u)));
        let formations = (file.sections.iter().enumerate()).flat_map(|(s, section)| {
            (section.formations.iter().enumerate())
                .map(move |(f, formation)| (&formation.id, Defined::Formation(s, f)))
        });
        for (id, here) in upgrades.chain(formations) {
            if let Some(first) = ids.insert(id, here) {
                self.errors
                    .error(&here.to_string(), format!("id `{id}` is already used at {first}"));
            }
        }
    }

    /// Where datasheet `id` is in the list's units, or `None` with an
    /// error when the game has no such datasheet (`pointer` is only
    /// written then).
    fn unit_slot(&mut self, id: &str, pointer: &dyn Fn() -> String) -> Option<usize> {
        let Some(&known) = self.sheet_ids.get(id) else {
            let message = format!("no datasheet `{id}` for {}", self.game.as_str());
            self.errors.error(&pointer(), message);
            return None;
        };
        let units = &mut self.units;
        Some(*self.unit_at.entry(known).or_insert_with(|| {
            units.push(known.to_string());
            units.len() - 1
        }))
    }

    /// Adds a name to an index, with the build's forms of it when there
    /// are some.
    fn index_name(&mut self, names: &mut NameIndex, name: &str, index: usize) {
        match self.prepared_entries.as_mut().and_then(Iterator::next) {
            Some((normalized, compact)) => names.insert_prepared(name, normalized, compact, index),
            None => names.insert(name, index),
        }
    }

    /// The upgrades and the index of their names. What the linked entries
    /// keep that nothing reads from the file later (names, aliases, notes,
    /// profile changes) is moved out of it rather than copied; ids and
    /// tags stay, for the indexes of later phases.
    fn upgrades(&mut self, file_upgrades: &mut [raw::Upgrade]) -> (Vec<Upgrade>, NameIndex) {
        let mut upgrades = Vec::with_capacity(file_upgrades.len());
        let mut names = NameIndex::with_capacity(upgrade_name_count(file_upgrades));
        for (u, upgrade) in file_upgrades.iter_mut().enumerate() {
            let adds = self.unit_counts(&upgrade.adds, &|| format!("/upgrades/{u}/adds"));
            let replaces = self.unit_counts(&upgrade.replaces, &|| format!("/upgrades/{u}/replaces"));
            let fills = upgrade.fills.as_ref().and_then(|f| self.fills(f, u));
            for name in std::iter::once(&upgrade.name).chain(&upgrade.aliases) {
                self.index_name(&mut names, name, u);
            }
            upgrades.push(Upgrade {
                id: upgrade.id.clone(),
                name: std::mem::take(&mut upgrade.name),
                aliases: std::mem::take(&mut upgrade.aliases),
                cost: known(upgrade.points.clone()),
                adds,
                replaces,
                tags: Tags::new(upgrade.tags.iter().map(|t| self.tag_names.intern(t))),
                note: upgrade.note.take(),
                fills,
                cost_when: Vec::new(),
                fielded: std::mem::take(&mut upgrade.fielded),
                not_shown: upgrade.not_shown.take(),
            });
        }
        (upgrades, names)
    }

    /// Units and their counts (an upgrade's `adds`, a formation's
    /// `units`), each unit at `{base}/{i}/unit`.
    fn unit_counts(&mut self, list: &[raw::UnitCount], base: &dyn Fn() -> String) -> Vec<(usize, u32)> {
        (list.iter().enumerate())
            .filter_map(|(i, c)| {
                let slot = self.unit_slot(&c.unit, &|| format!("{}/{i}/unit", base()))?;
                Some((slot, c.count))
            })
            .collect()
    }

    /// What a transport upgrade fills, its units found.
    fn fills(&mut self, f: &raw::Fills, u: usize) -> Option<super::Fills> {
        let base = || format!("/upgrades/{u}/fills");
        let unit = self.unit_slot(&f.unit, &|| format!("{}/unit", base()))?;
        let carries = (f.carries.iter().enumerate())
            .filter_map(|(i, c)| self.unit_slot(c, &|| format!("{}/carries/{i}", base())))
            .collect();
        let shared_with = (f.shared_with.iter().enumerate())
            .filter_map(|(i, t)| {
                let pointer = || format!("{}/shared_with/{i}/unit", base());
                self.unit_slot(&t.unit, &pointer).map(|u| (u, t.capacity))
            })
            .collect();
        Some(super::Fills {
            unit,
            capacity: f.capacity,
            carries,
            shared_with,
            provenance: f.provenance.clone(),
        })
    }

    /// The sections, their formations and the index of the formations'
    /// names (moved out of the file, as `upgrades` does).
    fn sections(
        &mut self,
        file_sections: &mut [raw::Section],
        file_upgrades: &[raw::Upgrade],
    ) -> (Vec<Section>, Vec<Formation>, NameIndex) {
        let offers = Offers::new(file_upgrades);
        let formation_count = file_sections.iter().map(|s| s.formations.len()).sum::<usize>();
        let mut sections = Vec::with_capacity(file_sections.len());
        let mut formations = Vec::with_capacity(formation_count);
        let mut names = NameIndex::with_capacity(formation_name_count(file_sections));
        for (s, section) in file_sections.iter_mut().enumerate() {
            let mut members = Vec::with_capacity(section.formations.len());
            for (f, formation) in section.formations.iter_mut().enumerate() {
                let base = || format!("/sections/{s}/formations/{f}");
                let index = formations.len();
                members.push(index);
                let units = self.unit_counts(&formation.units, &|| format!("{}/units", base()));
                let allowed = self.offered(&offers, &section.upgrades, formation, s, f);
                for name in std::iter::once(&formation.name).chain(&formation.aliases) {
                    self.index_name(&mut names, name, index);
                }
                let tags = (section.tags.iter().chain(&formation.tags)).map(|t| self.tag_names.intern(t));
                let tags = Tags::new(tags);
                let initiative = self.initiative(formation, &base);
                formations.push(formation_of(formation, s, units, allowed, tags, initiative));
            }
            sections.push(Section {
                id: section.id.clone(),
                name: section.name.clone(),
                formations: members,
            });
        }
        (sections, formations, names)
    }

    /// The upgrades a formation is offered, by its section and itself
    /// (an id, or `tag:` and a tag), each once.
    fn offered(
        &mut self,
        offers: &Offers<'_>,
        in_section: &[String],
        formation: &raw::Formation,
        s: usize,
        f: usize,
    ) -> Vec<usize> {
        let mut allowed = Vec::with_capacity(in_section.len() + formation.upgrades.len());
        let offered = (in_section.iter().enumerate())
            .map(|(i, id)| (true, i, id))
            .chain((formation.upgrades.iter().enumerate()).map(|(i, id)| (false, i, id)));
        for (by_section, i, id) in offered {
            let found = offers.find(id);
            if found.is_empty() {
                let pointer = if by_section {
                    format!("/sections/{s}/upgrades/{i}")
                } else {
                    format!("/sections/{s}/formations/{f}/upgrades/{i}")
                };
                let message = format!(
                    "formation `{}` is offered `{id}`, which names no upgrade of the list",
                    formation.id
                );
                self.errors.error(&pointer, message);
            }
            for &u in found {
                if !allowed.contains(&u) {
                    allowed.push(u);
                }
            }
        }
        allowed
    }

    /// A formation's initiative; an error where the game needs one and
    /// the file gives none.
    fn initiative(&mut self, formation: &raw::Formation, base: &dyn Fn() -> String) -> Option<String> {
        match &formation.initiative {
            Some(i) => known(i.clone()).map(|i| i.0),
            None if self.game.game().initiative => {
                let message = format!(
                    "formation `{}` has no initiative (write `missing` if the sources lack it)",
                    formation.id
                );
                self.errors.error(&base(), message);
                None
            }
            None => None,
        }
    }

    /// What upgrades do to their units' profiles names real weapons:
    /// proven for a file being proven (`--lists`, `lists --check`, the
    /// tests); a built-in file was proven so before it was built in, and a
    /// check does not pay for it again (as with its datasheets' notation).
    fn prove_fielded(&mut self, formations: &[Formation], upgrades: &[Upgrade], units: &[String]) {
        if !self.prove {
            return;
        }
        for (u, upgrade) in upgrades.iter().enumerate() {
            if upgrade.fielded.is_empty() {
                continue;
            }
            let found = super::fielded::check(self.catalogue, self.game, formations, units, u, upgrade, true);
            for (pointer, message) in found {
                self.errors.error(&pointer, message);
            }
        }
    }

    /// Names that fit two formations, or two upgrades one formation is
    /// offered. Two upgrades may share a name when no formation offers
    /// both: the formation a roster writes it under tells them apart
    /// (Snapfire names a 35-point and a 50-point upgrade "Nobz" in
    /// different formations).
    fn name_clashes(
        &mut self,
        formations: &[Formation],
        upgrades: &[Upgrade],
        formation_names: &NameIndex,
        upgrade_names: &NameIndex,
    ) {
        for (key, clash) in formation_names.clashes() {
            let names: Vec<&str> = clash.iter().map(|&i| formations[i].id.as_str()).collect();
            let message = format!("the name `{key}` fits formations {}", names.join(", "));
            self.errors.error("/sections", message);
        }
        for (key, clash) in upgrade_names.clashes() {
            let both = formations
                .iter()
                .find(|f| clash.iter().filter(|u| f.upgrades.contains(u)).count() > 1);
            if let Some(f) = both {
                let names: Vec<&str> = clash.iter().map(|&i| upgrades[i].id.as_str()).collect();
                let message = format!(
                    "the name `{key}` fits upgrades {} which formation `{}` both offers",
                    names.join(", "),
                    f.id
                );
                self.errors.error("/upgrades", message);
            }
        }
    }

    /// Groups, and costs that depend on the formation: their selectors
    /// need every formation and upgrade in place, so they are put in
    /// place afterwards ([`Later::put_in_place`]).
    fn selectors(&mut self, file: &ArmyListFile, formations: &[Formation], scope: &Resolver<'_>) -> Later {
        let mut later = Later::default();
        let places = FormationPlaces::new(file, formations);
        for (s, section) in file.sections.iter().enumerate() {
            for (f, formation) in section.formations.iter().enumerate() {
                if formation.group.is_some() || formation.grouped_in.is_some() || formation.titans.is_some() {
                    let at = (s, f, places.index(&formation.id));
                    self.group(&mut later, formation, at, scope);
                    self.titans_and_grouped_in(&mut later, file, formation, at, formations, &places);
                }
            }
        }
        self.initiative_when(&mut later, file, &places, scope);
        self.cost_when(&mut later, file, scope);
        later
    }

    /// A group formation's members (`at`: section, formation in it, and
    /// index among the list's formations).
    fn group(
        &mut self,
        later: &mut Later,
        formation: &raw::Formation,
        at: (usize, usize, usize),
        scope: &Resolver<'_>,
    ) {
        let (s, f, index) = at;
        let base = || format!("/sections/{s}/formations/{f}");
        let Some(group) = &formation.group else { return };
        if group.max.is_some_and(|max| group.min > max) {
            let message = format!(
                "the group's min ({}) is more than its max ({}): no roster could satisfy it",
                group.min,
                group.max.unwrap_or_default()
            );
            self.errors.error(&format!("{}/group", base()), message);
        }
        match scope.items_mask(&group.members) {
            // Groups may hold groups (a Heresy commander over
            // battlegroups); the roster's nesting is bounded when it
            // resolves. A group that admits itself is a mistake in the
            // list, not a deeper army.
            Ok(mask) if mask.formations.get(index).copied().unwrap_or(false) => {
                let message = "a group cannot be a member of itself".to_string();
                self.errors.error(&format!("{}/group/members", base()), message);
            }
            Ok(mask) => {
                later.group_pointers.push((s, f));
                later.groups.push((
                    index,
                    super::GroupSpec {
                        members: mask.formations,
                        min: group.min,
                        max: group.max,
                        provenance: group.provenance.clone(),
                    },
                ));
            }
            Err(message) => self.errors.error(&format!("{}/group/members", base()), message),
        }
    }

    /// A card of several titans, and the group a formation always
    /// belongs to.
    fn titans_and_grouped_in(
        &mut self,
        later: &mut Later,
        file: &ArmyListFile,
        formation: &raw::Formation,
        (s, f, index): (usize, usize, usize),
        formations: &[Formation],
        places: &FormationPlaces<'_>,
    ) {
        let base = || format!("/sections/{s}/formations/{f}");
        if formation.group.is_some() && formation.grouped_in.is_some() {
            // `grouped_in` puts a lone line in a group of its own; on a
            // group it could loop, so only member formations have it.
            let message = "a group formation cannot itself belong to a group".to_string();
            self.errors.error(&format!("{}/grouped_in", base()), message);
        }
        if let Some(t) = &formation.titans {
            let target = formations.iter().position(|g| g.id == t.each);
            let several = |g: &&raw::Formation| g.id == t.each && (g.group.is_some() || g.titans.is_some());
            match target {
                Some(e)
                    if e != index
                        && formations[e].group.is_none()
                        && !file
                            .sections
                            .iter()
                            .flat_map(|s| &s.formations)
                            .any(|g| several(&g)) =>
                {
                    later.titans.push((index, t.count, e));
                }
                _ => {
                    let message = format!(
                        "`{}` is not another formation of this list that is neither a group nor a card of several titans",
                        t.each
                    );
                    self.errors.error(&format!("{}/titans/each", base()), message);
                }
            }
        }
        if let Some(id) = &formation.grouped_in {
            match places.at.get(id.as_str()).copied() {
                Some(g) if places.groups.contains(id.as_str()) => later.grouped_in.push((index, g)),
                _ => {
                    let message = format!("`{id}` is not a group formation of this list (one with `group`)");
                    self.errors.error(&format!("{}/grouped_in", base()), message);
                }
            }
        }
    }

    /// Initiatives that change when the army meets a condition.
    fn initiative_when(
        &mut self,
        later: &mut Later,
        file: &ArmyListFile,
        places: &FormationPlaces<'_>,
        scope: &Resolver<'_>,
    ) {
        for (s, section) in file.sections.iter().enumerate() {
            for (f, formation) in section.formations.iter().enumerate() {
                let index = places.index(&formation.id);
                for (w, alternative) in formation.initiative_when.iter().enumerate() {
                    let pointer = || format!("/sections/{s}/formations/{f}/initiative_when/{w}/when");
                    match compile_condition(&alternative.when, scope) {
                        Ok(cond) if cond.uses(rules::Measure::Points) => {
                            let message = "an initiative cannot depend on points".to_string();
                            self.errors.error(&pointer(), message);
                        }
                        Ok(cond) => {
                            let initiative = known(alternative.initiative.clone()).map(|i| i.0);
                            later.initiative_when.push((index, cond, initiative));
                        }
                        Err(message) => self.errors.error(&pointer(), message),
                    }
                }
            }
        }
    }

    /// Upgrade costs that change when the army meets a condition.
    fn cost_when(&mut self, later: &mut Later, file: &ArmyListFile, scope: &Resolver<'_>) {
        for (u, upgrade) in file.upgrades.iter().enumerate() {
            for (w, alternative) in upgrade.points_when.iter().enumerate() {
                let pointer = || format!("/upgrades/{u}/points_when/{w}/when");
                match compile_condition(&alternative.when, scope) {
                    Ok(cond) if cond.uses(rules::Measure::Points) => {
                        let message = "a cost cannot depend on points, which it is part of".to_string();
                        self.errors.error(&pointer(), message);
                    }
                    Ok(cond) => later.cost_when.push((u, cond, known(alternative.points.clone()))),
                    Err(message) => self.errors.error(&pointer(), message),
                }
            }
        }
    }

    /// Groups that admit each other in a circle could nest without end.
    fn no_group_circle(&mut self, later: &Later, formations: &[Formation]) {
        let groups = &later.groups;
        let Some(circle) = group_circle(groups) else {
            return;
        };
        let names: Vec<String> = circle
            .iter()
            .chain(circle.first())
            .map(|&g| format!("`{}`", formations.get(groups[g].0).map_or("?", |f| f.id.as_str())))
            .collect();
        let (s, f) = later.group_pointers[circle[0]];
        let message = format!(
            "groups admit each other in a circle ({}): no roster could nest them",
            names.join(" admits ")
        );
        self.errors
            .error(&format!("/sections/{s}/formations/{f}/group/members"), message);
    }

    /// The list's constraints, then the game's own rules for those the
    /// list does not write one of the same id.
    fn constraints(
        &mut self,
        file_constraints: &mut [raw::Constraint],
        scope: &Resolver<'_>,
        lenient: &Resolver<'_>,
    ) -> Vec<Constraint> {
        let mut constraints = Vec::with_capacity(file_constraints.len());
        for (c, constraint) in file_constraints.iter_mut().enumerate() {
            match compile_parts(constraint, scope) {
                // The texts move from the file; its ids stay, for the
                // check of repeated ids.
                Ok(compiled) => {
                    let texts = [
                        std::mem::take(&mut constraint.rule),
                        std::mem::take(&mut constraint.message),
                        std::mem::take(&mut constraint.provenance),
                    ];
                    constraints.push(assemble(constraint, compiled, texts));
                }
                Err((field, message)) => self.errors.error(&format!("/constraints/{c}/{field}"), message),
            }
        }
        for rule in self.game.game().rules {
            if constraints.iter().any(|c: &Constraint| c.id == rule.id) {
                continue;
            }
            // A rule for formations the list does not have does not apply.
            if let Ok(compiled) = compile(&game_rule(rule), lenient)
                && compiled.applies_to.as_ref().is_none_or(|m| m.iter().any(|&x| x))
            {
                constraints.push(compiled);
            }
        }
        constraints
    }

    /// Only formations of these datasheets may garrison: each must be one.
    fn garrison_units(&mut self, file: &ArmyListFile) {
        let units = file.garrison_units.iter().flat_map(|g| g.units.iter());
        for (i, unit) in units.enumerate() {
            if self.catalogue.datasheet(file.game, unit).is_none() {
                let message = format!("`{unit}` is not a datasheet id");
                self.errors.error(&format!("/garrison_units/units/{i}"), message);
            }
        }
    }

    /// Attack ratings that change when the army meets a condition.
    fn attack_rating_when(
        &mut self,
        file: &ArmyListFile,
        scope: &Resolver<'_>,
    ) -> Vec<(rules::Cond<Selector>, Option<u8>)> {
        let mut found = Vec::new();
        for (i, rating) in file.attack_rating_when.iter().enumerate() {
            let compiled = rules::parse(&rating.when)
                .map_err(|e| {
                    format!(
                        "`{}` does not parse at column {}: {}",
                        rating.when,
                        e.span.start + 1,
                        e.message
                    )
                })
                .and_then(|cond| cond.map_selectors(&mut |s| scope.selector(&s)));
            match compiled {
                Ok(cond) => found.push((cond, known(rating.rating.clone()))),
                Err(message) => self
                    .errors
                    .error(&format!("/attack_rating_when/{i}/when"), message),
            }
        }
        found
    }

    /// Numbers worked out from the army and printed with it.
    fn figures(&mut self, file: &ArmyListFile, scope: &Resolver<'_>) -> Vec<super::Figure> {
        let mut figures = Vec::new();
        for (i, figure) in file.figures.iter().enumerate() {
            // A number is read as the left side of `NUMBER >= 0`, so that
            // the constraint grammar serves for both.
            let compiled = rules::parse(&format!("{} >= 0", figure.value))
                .map_err(|e| {
                    format!(
                        "`{}` does not parse at column {}: {}",
                        figure.value,
                        e.span.start + 1,
                        e.message
                    )
                })
                .and_then(|cond| cond.map_selectors(&mut |s| scope.selector(&s)));
            let pointer = format!("/figures/{i}/value");
            match compiled {
                Ok(rules::Cond::Compare(value, rules::Compare::Ge, zero))
                    if matches!(*zero, rules::Num::Int(0)) =>
                {
                    figures.push(super::Figure {
                        id: figure.id.clone(),
                        name: figure.name.clone(),
                        value: *value,
                        text: figure.value.clone(),
                        provenance: figure.provenance.clone(),
                    });
                }
                Ok(_) => {
                    let message = format!(
                        "`{}` is not a number: write a sum such as `6 * count(hiveship)`",
                        figure.value
                    );
                    self.errors.error(&pointer, message);
                }
                Err(message) => self.errors.error(&pointer, message),
            }
        }
        figures
    }

    /// The army's rating, where its game has one.
    fn ratings(&mut self, file: &ArmyListFile) {
        let needed = match (
            file.game.game().rating,
            &file.strategy_rating,
            &file.attack_rating,
        ) {
            (Some(crate::games::Rating::Strategy), None, _) => "strategy_rating",
            (Some(crate::games::Rating::Attack), _, None) => "attack_rating",
            _ => return,
        };
        let message = format!(
            "a {} list needs `{needed}` (write `missing` if the sources lack it)",
            file.game.title()
        );
        self.errors.error("", message);
    }

    /// Dead data is a sign of a transcription slip: say so, without
    /// refusing the list (only for a file being proven): an upgrade no
    /// formation is offered, a formation with nothing in it. Not where
    /// its note says why (a Snapfire id kept for imports, a fortification,
    /// a barrage): that is deliberate.
    fn dead_data(&mut self, sections: &[Section], formations: &[Formation], upgrades: &[Upgrade]) {
        if !self.prove {
            return;
        }
        for (u, upgrade) in upgrades.iter().enumerate() {
            if upgrade.note.is_none() && !formations.iter().any(|f| f.upgrades.contains(&u)) {
                let message = format!("upgrade `{}` is not offered to any formation", upgrade.id);
                self.warning(&format!("/upgrades/{u}/id"), message);
            }
        }
        // Only where the game has datasheets: elsewhere (Space Fleet,
        // NetEpic for now) every entry is without units and the warning
        // says nothing.
        if self.game.game().notation == crate::games::Notation::None {
            return;
        }
        for (f, formation) in formations.iter().enumerate() {
            let empty =
                formation.units.is_empty() && formation.upgrades.is_empty() && formation.group.is_none();
            if empty && formation.note.is_none() {
                let section = formation.section;
                let index = sections[section]
                    .formations
                    .iter()
                    .position(|&i| i == f)
                    .unwrap_or(0);
                let message = format!("formation `{}` has no units and no upgrades", formation.id);
                self.warning(&format!("/sections/{section}/formations/{index}/id"), message);
            }
        }
    }

    fn warning(&mut self, pointer: &str, message: String) {
        let span = self.errors.span(pointer);
        let source = self.errors.file;
        (self.errors.diagnostics).push(Diagnostic::warning(Code::ListData, message).at(source, span));
    }

    /// Each rule id once.
    fn repeated_rule_ids(&mut self, file: &ArmyListFile) {
        let mut seen = BTreeSet::new();
        for (c, constraint) in file.constraints.iter().enumerate() {
            if !seen.insert(&constraint.id) {
                let message = format!("rule id `{}` is used twice", constraint.id);
                self.errors.error(&format!("/constraints/{c}/id"), message);
            }
        }
    }
}

/// The upgrades a formation may be offered: by id, and by tag (in the
/// file's order).
struct Offers<'f> {
    by_id: KeyMap<&'f str, usize>,
    by_tag: KeyMap<&'f str, Vec<usize>>,
}

impl<'f> Offers<'f> {
    fn new(upgrades: &'f [raw::Upgrade]) -> Self {
        let mut by_id: KeyMap<&str, usize> =
            KeyMap::with_capacity_and_hasher(upgrades.len(), Default::default());
        for (u, upgrade) in upgrades.iter().enumerate() {
            by_id.insert(&upgrade.id, u);
        }
        let mut by_tag: KeyMap<&str, Vec<usize>> = KeyMap::default();
        for (u, upgrade) in upgrades.iter().enumerate() {
            for tag in &upgrade.tags {
                let tagged = by_tag.entry(tag.as_str()).or_default();
                if tagged.last() != Some(&u) {
                    tagged.push(u);
                }
            }
        }
        Offers { by_id, by_tag }
    }

    /// The upgrades an offer (`id` or `tag:TAG`) names.
    fn find(&self, offer: &str) -> &[usize] {
        match offer.strip_prefix("tag:") {
            Some(tag) => self.by_tag.get(tag).map_or(&[], Vec::as_slice),
            None => self.by_id.get(offer).map_or(&[], std::slice::from_ref),
        }
    }
}

/// A formation as linked, its names and notes moved out of the file.
fn formation_of(
    formation: &mut raw::Formation,
    section: usize,
    units: Vec<(usize, u32)>,
    upgrades: Vec<usize>,
    tags: Tags,
    initiative: Option<String>,
) -> Formation {
    Formation {
        id: formation.id.clone(),
        name: std::mem::take(&mut formation.name),
        aliases: std::mem::take(&mut formation.aliases),
        section,
        points: known(formation.points.clone()),
        initiative,
        initiative_when: Vec::new(),
        units,
        upgrades,
        tags,
        note: formation.note.take(),
        snapfire_units: formation.snapfire_units.take(),
        heresy_vp: match formation.victory_points {
            Some(raw::VictoryPoints::BrokenDestroyed(vp)) => Some(vp),
            _ => None,
        },
        group: None,
        grouped_in: None,
        card: card_values(formation),
        round_up_to: formation.round_up_to.filter(|&n| n > 0),
        titans: None,
    }
}

/// Each formation id's first index among the list's formations, and the
/// ids of group formations.
struct FormationPlaces<'f> {
    at: KeyMap<&'f str, usize>,
    groups: KeySet<&'f str>,
}

impl<'f> FormationPlaces<'f> {
    fn new(file: &'f ArmyListFile, formations: &'f [Formation]) -> Self {
        let mut at: KeyMap<&str, usize> =
            KeyMap::with_capacity_and_hasher(formations.len(), Default::default());
        for (i, f) in formations.iter().enumerate() {
            at.entry(f.id.as_str()).or_insert(i);
        }
        let groups = (file.sections.iter())
            .flat_map(|s| &s.formations)
            .filter(|g| g.group.is_some())
            .map(|g| g.id.as_str())
            .collect();
        FormationPlaces { at, groups }
    }

    fn index(&self, id: &str) -> usize {
        self.at.get(id).copied().unwrap_or(usize::MAX)
    }
}

/// What the selectors phase found, by formation or upgrade index.
#[derive(Default)]
struct Later {
    groups: Vec<(usize, super::GroupSpec)>,
    /// Each group's section and place in it, for an error.
    group_pointers: Vec<(usize, usize)>,
    grouped_in: Vec<(usize, usize)>,
    titans: Vec<(usize, u32, usize)>,
    initiative_when: Vec<(usize, rules::Cond<Selector>, Option<String>)>,
    cost_when: Vec<(usize, rules::Cond<Selector>, Option<super::Cost>)>,
}

impl Later {
    fn put_in_place(self, formations: &mut [Formation], upgrades: &mut [Upgrade]) {
        for (f, group) in self.groups {
            if let Some(formation) = formations.get_mut(f) {
                formation.group = Some(group);
            }
        }
        for (f, g) in self.grouped_in {
            if let Some(formation) = formations.get_mut(f) {
                formation.grouped_in = Some(g);
            }
        }
        for (f, count, each) in self.titans {
            if let Some(formation) = formations.get_mut(f) {
                formation.titans = Some((count, each));
            }
        }
        for (f, cond, initiative) in self.initiative_when {
            if let Some(formation) = formations.get_mut(f) {
                formation.initiative_when.push((cond, initiative));
            }
        }
        for (u, cond, cost) in self.cost_when {
            if let Some(upgrade) = upgrades.get_mut(u) {
                upgrade.cost_when.push((cond, cost));
            }
        }
    }
}

/// One of the game's own rules, as a list would write it.
fn game_rule(rule: &crate::games::GameRule) -> raw::Constraint {
    raw::Constraint {
        id: rule.id.to_string(),
        scope: match rule.scope {
            crate::games::RuleScope::Army => raw::Scope::Army,
            crate::games::RuleScope::Formation => raw::Scope::Formation,
            crate::games::RuleScope::Group => raw::Scope::Group,
        },
        applies_to: rule.applies_to.iter().map(|s| (*s).to_string()).collect(),
        rule: rule.rule.to_string(),
        message: rule.message.to_string(),
        provenance: rule.provenance.to_string(),
        severity: raw::RuleSeverity::default(),
    }
}

/// A list's parts, linked without an error.
struct Linked {
    sections: Vec<Section>,
    formations: Vec<Formation>,
    upgrades: Vec<Upgrade>,
    units: Vec<String>,
    constraints: Vec<Constraint>,
    attack_rating_when: Vec<(rules::Cond<Selector>, Option<u8>)>,
    figures: Vec<super::Figure>,
    snapfire: super::snapfire::SnapfireIds,
    formation_names: NameIndex,
    upgrade_names: NameIndex,
}

impl Linked {
    /// The list: these parts and what the file says of the list as a
    /// whole, with its names' forms (the build's, for a built-in list).
    fn into_list(self, file: ArmyListFile, origin: Origin, prepared: Option<PreparedNames>) -> ArmyList {
        let imports = file.imports.as_ref();
        let mut list = ArmyList {
            game: file.game,
            id: file.id,
            name: file.name,
            aliases: file.aliases,
            version: file.version,
            version_label: file.version_label,
            snapfire_version: imports.and_then(|i| i.snapfire_version.clone()),
            battlescribe: imports
                .map(|i| {
                    i.battlescribe
                        .iter()
                        .map(|c| (c.name.clone(), c.id.clone()))
                        .collect()
                })
                .unwrap_or_default(),
            snapfire_id: file.imports.and_then(|i| i.snapfire),
            snapfire: self.snapfire,
            source: file.source,
            decisions: file.decisions,
            strategy_rating: file.strategy_rating.and_then(known),
            attack_rating: file.attack_rating.and_then(known),
            attack_rating_when: self.attack_rating_when,
            garrison_units: file.garrison_units.map(|g| (g.units, g.rule)),
            special_rules: file.special_rules.into_iter().map(special_rule).collect(),
            sections: self.sections,
            formations: self.formations,
            upgrades: self.upgrades,
            units: self.units,
            constraints: self.constraints,
            not_enforced: file.not_enforced.into_iter().map(not_enforced).collect(),
            figures: self.figures,
            name_keys: Vec::new(),
            formation_names: self.formation_names,
            upgrade_names: self.upgrade_names,
            origin,
        };
        list.name_keys = match prepared.map(|p| p.list) {
            Some(keys) if keys.len() == 2 * list.all_names().count() => keys
                .pairs()
                .map(|(normalized, compact)| super::ListName::prepared(normalized, compact))
                .collect(),
            _ => list.all_names().map(super::ListName::new).collect(),
        };
        list
    }
}

fn special_rule(r: raw::SpecialRule) -> SpecialRule {
    SpecialRule {
        id: r.id,
        name: r.name,
        summary: r.summary,
        variants: r.variants,
    }
}

fn not_enforced(n: raw::NotEnforced) -> NotEnforced {
    NotEnforced {
        id: n.id,
        rule: n.rule,
        why: n.why,
        source: n.source,
    }
}

/// Parses a constraint and resolves its selectors against one list. The
/// error names the field at fault and says what is wrong.
fn compile(constraint: &raw::Constraint, scope: &Resolver<'_>) -> Result<Constraint, (&'static str, String)> {
    let compiled = compile_parts(constraint, scope)?;
    let texts = [
        constraint.rule.clone(),
        constraint.message.clone(),
        constraint.provenance.clone(),
    ];
    Ok(assemble(constraint, compiled, texts))
}

/// The constraint `raw` compiled to, with its rule, message and
/// provenance (`texts`, copied from it or moved out of it).
fn assemble(
    raw: &raw::Constraint,
    (applies_to, cond): Compiled,
    [text, message, provenance]: [String; 3],
) -> Constraint {
    Constraint {
        id: raw.id.clone(),
        scope: raw.scope,
        applies_to,
        cond,
        text,
        message,
        provenance,
        severity: raw.severity,
    }
}

/// A constraint's formations (`applies_to`) and its condition, compiled
/// as [`compile`] does.
type Compiled = (Option<Vec<bool>>, rules::Cond<Selector>);

/// What [`compile`] makes of a constraint, without copying its texts.
fn compile_parts(
    constraint: &raw::Constraint,
    scope: &Resolver<'_>,
) -> Result<Compiled, (&'static str, String)> {
    let cond = rules::parse(&constraint.rule).map_err(|e| {
        (
            "rule",
            format!(
                "rule `{}` does not parse at column {}: {}",
                constraint.id,
                e.span.start + 1,
                e.message
            ),
        )
    })?;
    let cond = cond
        .map_selectors(&mut |s| scope.selector(&s))
        .map_err(|message| ("rule", format!("rule `{}`: {message}", constraint.id)))?;
    let applies_to = if constraint.applies_to.is_empty() {
        None
    } else {
        let items: Vec<(Item, Span)> = constraint
            .applies_to
            .iter()
            .map(|text| {
                rules::parse_item(text)
                    .map(|item| (item, Span::default()))
                    .ok_or_else(|| ("applies_to", format!("`{text}` is not an id, tag:NAME or *")))
            })
            .collect::<Result<_, _>>()?;
        let selector = scope
            .selector(&SelectorSyntax {
                items,
                within: Vec::new(),
                with: Vec::new(),
            })
            .map_err(|message| ("applies_to", format!("rule `{}`: {message}", constraint.id)))?;
        Some(selector.formations)
    };
    if constraint.scope == raw::Scope::Group {
        let groups: Vec<bool> = scope.formations.iter().map(|f| f.group.is_some()).collect();
        let mask = applies_to.clone().unwrap_or_else(|| groups.clone());
        if !mask.iter().any(|&m| m) || mask.iter().zip(&groups).any(|(&m, &g)| m && !g) {
            return Err((
                "applies_to",
                format!(
                    "rule `{}` has group scope; applies_to must name group formations (those with `group`)",
                    constraint.id
                ),
            ));
        }
    }
    if constraint.scope == raw::Scope::Army && applies_to.is_some() {
        return Err((
            "applies_to",
            format!(
                "rule `{}` has army scope; applies_to is for formation rules",
                constraint.id
            ),
        ));
    }
    Ok((applies_to, cond))
}

/// Parses a condition written outside `constraints` (an upgrade's
/// `points_when`) and resolves its selectors.
fn compile_condition(text: &str, scope: &Resolver<'_>) -> Result<rules::Cond<Selector>, String> {
    let cond = rules::parse(text).map_err(|e| {
        format!(
            "`{text}` does not parse at column {}: {}",
            e.span.start + 1,
            e.message
        )
    })?;
    cond.map_selectors(&mut |s| scope.selector(&s))
}

/// A circle of groups each admitting the next (`a` admits `b`, `b` admits
/// `a`), as indices into `groups`, if there is one. A group admitting
/// itself is reported where it is read. Iterative depth-first search:
/// linear in the groups and their member masks, whatever the file holds.
fn group_circle(groups: &[(usize, super::GroupSpec)]) -> Option<Vec<usize>> {
    // The group of each formation index (the last one, as a map built in
    // order would keep), by index: this runs on every load of a list.
    // Only a formation some group's members mask covers can be admitted.
    let size = groups
        .iter()
        .map(|(_, spec)| spec.members.len())
        .max()
        .unwrap_or(0);
    let mut group_at: Vec<Option<usize>> = vec![None; size];
    for (g, (f, _)) in groups.iter().enumerate() {
        if let Some(slot) = group_at.get_mut(*f) {
            *slot = Some(g);
        }
    }
    // The formations that are groups, in order: only they can be
    // admitted, so a group's mask is read only there.
    let group_formations: Vec<usize> = (group_at.iter().enumerate())
        .filter(|(_, g)| g.is_some())
        .map(|(f, _)| f)
        .collect();
    let admits = |g: usize| -> Vec<usize> {
        let (own, spec) = &groups[g];
        (group_formations.iter())
            .filter(|&&f| f != *own && spec.members.get(f).copied().unwrap_or(false))
            .filter_map(|&f| group_at.get(f).copied().flatten())
            .collect()
    };
    // 0: not seen, 1: on the current path, 2: done.
    let mut state = vec![0u8; groups.len()];
    for start in 0..groups.len() {
        if state[start] != 0 {
            continue;
        }
        let mut path: Vec<(usize, Vec<usize>)> = vec![(start, admits(start))];
        state[start] = 1;
        while let Some((g, next)) = path.last_mut() {
            let g = *g;
            match next.pop() {
                Some(h) if state[h] == 1 => {
                    let from = path.iter().position(|(p, _)| *p == h).unwrap_or(0);
                    return Some(path[from..].iter().map(|(p, _)| *p).collect());
                }
                Some(h) if state[h] == 0 => {
                    state[h] = 1;
                    path.push((h, admits(h)));
                }
                Some(_) => {}
                None => {
                    state[g] = 2;
                    path.pop();
                }
            }
        }
    }
    None
}

impl ArmyList {
    /// Compiles a constraint written outside the list (an event's
    /// restriction) against it. Lenient: an id or tag the list lacks
    /// matches nothing, since one event serves many lists.
    pub fn compile_foreign(&self, constraint: &raw::Constraint) -> Result<Constraint, String> {
        self.foreign_rules().compile(constraint)
    }

    /// [`ArmyList::compile_foreign`] for many constraints: the list's ids
    /// and tags are indexed once for all of them.
    pub fn foreign_rules(&self) -> ForeignRules<'_> {
        ForeignRules(Resolver::new(&self.formations, &self.upgrades, &self.units, true))
    }

    /// Whether a selector item names anything in this list.
    pub fn knows_item(&self, item: &Item) -> bool {
        let scope = Resolver::new(&self.formations, &self.upgrades, &self.units, false);
        let mut selector = scope.empty();
        scope.mark(item, &mut selector).is_ok()
    }
}

/// Compiles constraints written outside one list against it (see
/// [`ArmyList::foreign_rules`]).
pub struct ForeignRules<'a>(Resolver<'a>);

impl ForeignRules<'_> {
    /// [`ArmyList::compile_foreign`].
    pub fn compile(&self, constraint: &raw::Constraint) -> Result<Constraint, String> {
        compile(constraint, &self.0).map_err(|(_, message)| message)
    }
}

/// Resolves selector items against one list.
struct Resolver<'a> {
    formations: &'a [Formation],
    upgrades: &'a [Upgrade],
    units: &'a [String],
    /// Unknown ids and tags match nothing instead of being errors.
    lenient: bool,
    /// Which formations, upgrades and units each id and tag names: a
    /// list's rules name hundreds of items, and a scan of every formation,
    /// upgrade and unit per item was most of the linking of a large list
    /// (NetEpic's army books).
    index: IndexSlot<'a>,
}

/// The index a resolver reads: one shared by the resolvers of one
/// linking, or its own, built on the first item.
enum IndexSlot<'a> {
    Shared(&'a ItemIndex<'a>),
    Own(std::cell::OnceCell<ItemIndex<'a>>),
}

/// One kind of entry an item can name, and its index.
#[derive(Debug, Clone, Copy)]
enum Hit {
    Formation(usize),
    Upgrade(usize),
    Unit(usize),
}

/// Ids and tags to the entries they name: each key's last hit, and a
/// chain through `hits` to the others (one allocation for them all).
#[derive(Default)]
struct ItemIndex<'a> {
    ids: KeyMap<&'a str, usize>,
    tags: KeyMap<&'a str, usize>,
    /// A hit and the index of the next one of the same key.
    hits: Vec<(Hit, usize)>,
}

impl<'a> ItemIndex<'a> {
    const END: usize = usize::MAX;

    fn with_capacity(keys: usize) -> Self {
        ItemIndex {
            ids: KeyMap::with_capacity_and_hasher(keys, Default::default()),
            tags: KeyMap::default(),
            hits: Vec::with_capacity(keys),
        }
    }

    fn add(map: &mut KeyMap<&'a str, usize>, hits: &mut Vec<(Hit, usize)>, key: &'a str, hit: Hit) {
        let at = hits.len();
        let next = map.insert(key, at).unwrap_or(Self::END);
        hits.push((hit, next));
    }

    fn id(&mut self, key: &'a str, hit: Hit) {
        Self::add(&mut self.ids, &mut self.hits, key, hit);
    }

    fn tag(&mut self, key: &'a str, hit: Hit) {
        Self::add(&mut self.tags, &mut self.hits, key, hit);
    }

    /// The index of linked entries.
    fn of_list(formations: &'a [Formation], upgrades: &'a [Upgrade], units: &'a [String]) -> Self {
        let mut index = ItemIndex::with_capacity(formations.len() + upgrades.len() + units.len());
        for (i, f) in formations.iter().enumerate() {
            index.id(&f.id, Hit::Formation(i));
            f.tags.iter().for_each(|t| index.tag(t, Hit::Formation(i)));
        }
        for (i, u) in upgrades.iter().enumerate() {
            index.id(&u.id, Hit::Upgrade(i));
            u.tags.iter().for_each(|t| index.tag(t, Hit::Upgrade(i)));
        }
        for (i, unit) in units.iter().enumerate() {
            index.id(unit, Hit::Unit(i));
        }
        index
    }

    /// The same index from the file the entries are linked from (a
    /// formation's tags are its section's and its own; a repeated tag
    /// only marks twice), so that it does not borrow the entries while
    /// linking completes them.
    fn of_file(sections: &'a [raw::Section], upgrades: &'a [raw::Upgrade], units: &'a [String]) -> Self {
        let formations = sections.iter().map(|s| s.formations.len()).sum::<usize>();
        let mut index = ItemIndex::with_capacity(formations + upgrades.len() + units.len());
        let mut i = 0;
        for section in sections {
            for f in &section.formations {
                index.id(&f.id, Hit::Formation(i));
                section
                    .tags
                    .iter()
                    .chain(&f.tags)
                    .for_each(|t| index.tag(t, Hit::Formation(i)));
                i += 1;
            }
        }
        for (i, u) in upgrades.iter().enumerate() {
            index.id(&u.id, Hit::Upgrade(i));
            u.tags.iter().for_each(|t| index.tag(t, Hit::Upgrade(i)));
        }
        for (i, unit) in units.iter().enumerate() {
            index.id(unit, Hit::Unit(i));
        }
        index
    }

    /// Every hit of a key (of `ids` or `tags`).
    fn hits(&self, first: Option<&usize>) -> impl Iterator<Item = Hit> + '_ {
        let mut at = first.copied().unwrap_or(Self::END);
        std::iter::from_fn(move || {
            let (hit, next) = *self.hits.get(at)?;
            at = next;
            Some(hit)
        })
    }
}

impl<'a> Resolver<'a> {
    fn new(formations: &'a [Formation], upgrades: &'a [Upgrade], units: &'a [String], lenient: bool) -> Self {
        Resolver {
            formations,
            upgrades,
            units,
            lenient,
            index: IndexSlot::Own(std::cell::OnceCell::new()),
        }
    }

    /// A resolver reading an index already built (`ItemIndex::of_file`).
    fn shared(
        formations: &'a [Formation],
        upgrades: &'a [Upgrade],
        units: &'a [String],
        lenient: bool,
        index: &'a ItemIndex<'a>,
    ) -> Self {
        Resolver {
            formations,
            upgrades,
            units,
            lenient,
            index: IndexSlot::Shared(index),
        }
    }

    fn index(&self) -> &ItemIndex<'a> {
        match &self.index {
            IndexSlot::Shared(index) => index,
            IndexSlot::Own(cell) => {
                cell.get_or_init(|| ItemIndex::of_list(self.formations, self.upgrades, self.units))
            }
        }
    }
}

impl Resolver<'_> {
    fn empty(&self) -> Selector {
        Selector {
            formations: vec![false; self.formations.len()],
            upgrades: vec![false; self.upgrades.len()],
            units: vec![false; self.units.len()],
            within: None,
            with: None,
        }
    }

    /// The formations and upgrades a list of written items (`id`, `tag:x`)
    /// matches.
    fn items_mask(&self, items: &[String]) -> Result<Selector, String> {
        let mut selector = self.empty();
        for text in items {
            let item =
                rules::parse_item(text).ok_or_else(|| format!("`{text}` is not an id, tag:NAME or *"))?;
            self.mark(&item, &mut selector)?;
        }
        Ok(selector)
    }

    fn selector(&self, syntax: &SelectorSyntax) -> Result<Selector, String> {
        let mut selector = self.empty();
        for (item, _) in &syntax.items {
            self.mark(item, &mut selector)?;
        }
        if !syntax.within.is_empty() {
            let mut within = self.empty();
            for (item, _) in &syntax.within {
                self.mark(item, &mut within)?;
            }
            selector.within = Some(within.formations);
        }
        if !syntax.with.is_empty() {
            let mut with = self.empty();
            for (item, _) in &syntax.with {
                self.mark(item, &mut with)?;
            }
            selector.with = Some(with.upgrades);
        }
        Ok(selector)
    }

    fn mark(&self, item: &Item, selector: &mut Selector) -> Result<(), String> {
        let index = self.index();
        let first = match item {
            Item::Everything => {
                selector.formations.iter_mut().for_each(|m| *m = true);
                selector.upgrades.iter_mut().for_each(|m| *m = true);
                selector.units.iter_mut().for_each(|m| *m = true);
                return Ok(());
            }
            Item::Id(id) => index.ids.get(id.as_str()),
            Item::Tag(tag) => index.tags.get(tag.as_str()),
        };
        let mut any = false;
        for hit in index.hits(first) {
            let slot = match hit {
                Hit::Formation(i) => selector.formations.get_mut(i),
                Hit::Upgrade(i) => selector.upgrades.get_mut(i),
                Hit::Unit(i) => selector.units.get_mut(i),
            };
            if let Some(slot) = slot {
                *slot = true;
            }
            any = true;
        }
        if any || self.lenient || matches!(item, Item::Everything) {
            Ok(())
        } else {
            Err(match item {
                Item::Id(id) => format!("`{id}` is not a formation, upgrade or unit of this list"),
                Item::Tag(tag) => format!("no formation or upgrade has the tag `{tag}`"),
                Item::Everything => unreachable!("`*` always matches (Resolver::mark)"),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::load::{self, FileKind};

    /// A datasheet of a game and id already placed is replaced, another
    /// is added, and a hash shared by two ids still finds each.
    #[test]
    fn placed_datasheets_replace_their_own_id() {
        use raw::GameId::{Bfg, Netea};
        fn key<'a>(x: &'a (raw::GameId, &'static str, u32)) -> (raw::GameId, &'a str) {
            (x.0, x.1)
        }
        let mut placed = Placed::default();
        let mut items = Vec::new();
        placed.place(&mut items, (Netea, "a", 1), key);
        placed.place(&mut items, (Bfg, "a", 2), key);
        placed.place(&mut items, (Netea, "a", 3), key);
        assert_eq!(items, [(Netea, "a", 3), (Bfg, "a", 2)]);
        // "b" given the hash of the first: found by a scan.
        let mut other = Placed::default();
        other.place(&mut Vec::new(), (Netea, "b", 0), key);
        let hash_of_b = *other.0.keys().next().expect("one hash");
        placed.0.insert(hash_of_b, 0);
        placed.place(&mut items, (Netea, "b", 4), key);
        placed.place(&mut items, (Netea, "b", 5), key);
        assert_eq!(items, [(Netea, "a", 3), (Bfg, "a", 2), (Netea, "b", 5)]);
    }

    /// A built-in list's names, as the build normalized them
    /// (`load::prepared_names`), index it exactly as normalizing them
    /// while linking does: the same keys to the same entries, and the
    /// same forms of the list's own names.
    #[test]
    fn prepared_names_index_as_normalizing_does() {
        let catalogue = load::load_embedded().catalogue;
        let mut lists = 0;
        for (name, yaml, packed, kind) in load::built_in() {
            if kind != FileKind::List {
                continue;
            }
            let origin = Origin::Embedded(name.to_string());
            let prepared = load::prepared_names(&origin);
            assert!(prepared.is_some_and(|p| p.entries.len() >= 2), "{name}");
            let link = |prepared| {
                let file: ArmyListFile = packed.decode().expect("built-in packed data reads");
                let ids = game_sheet_ids(&catalogue, file.game);
                let source = SourceFile::new(format!("lists/{name}"), yaml);
                let mut diagnostics = Vec::new();
                let with = With {
                    catalogue: &catalogue,
                    sheet_ids: &ids,
                    prepared,
                };
                let list = link_list(file, &source, origin.clone(), false, with, &mut diagnostics);
                assert!(diagnostics.is_empty(), "{name}: {diagnostics:?}");
                list.expect("a built-in list links")
            };
            let (fast, slow) = (link(prepared), link(None));
            assert_eq!(
                fast.formation_names.sorted_keys(),
                slow.formation_names.sorted_keys(),
                "{name}"
            );
            assert_eq!(
                fast.upgrade_names.sorted_keys(),
                slow.upgrade_names.sorted_keys(),
                "{name}"
            );
            assert_eq!(
                format!("{:?}", fast.name_keys),
                format!("{:?}", slow.name_keys),
                "{name}"
            );
            lists += 1;
        }
        assert!(lists > 50, "{lists}");
    }
}
