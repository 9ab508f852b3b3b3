//! The catalogue: every army list and datasheet muster knows, checked and
//! cross-referenced.
//!
//! `raw` mirrors the YAML files; `load` reads them (embedded in the binary, or
//! from `--lists DIR`), validates them against their JSON Schema and turns
//! them into the types below via `build`. Past this module, every id is
//! resolved to an index and every rule is parsed: the validator never looks a
//! name up by string or meets a malformed rule.

pub mod fielded;
pub mod glossary;
mod header;
pub mod kinds;
mod link;
mod load;
pub mod locate;
pub mod names;
mod normalize;
mod packed;
pub mod raw;
pub mod scenarios;
pub mod schema;
pub mod schema_words;
mod sheets;
pub mod snapfire;
pub mod yaml;

pub use kinds::{AnySheet, Sheet, SheetKind};
pub use load::{
    Checks, EventLists, ListKey, LoadReport, Origin, list_files_read, load, load_embedded, load_for_army,
    load_for_check, load_for_check_with, load_for_event, load_for_key, load_with,
};
pub use raw::{Cost, GameId, RuleSeverity, Scope, SourceRef, UnitType};

use crate::rules::Cond;
use names::NameIndex;

/// Everything loaded.
#[derive(Debug, Default)]
pub struct Catalogue {
    pub lists: Vec<ArmyList>,
    pub datasheets: Vec<Datasheet>,
    /// Models without an entry of their own, for the 'Counts As' rule.
    pub models: Vec<ModelEntry>,
    /// One glossary per game whose datasheets use abbreviations.
    pub glossaries: Vec<glossary::Glossary>,
    /// Battlefleet Gothic ship datasheets.
    pub ships: Vec<Ship>,
    /// Space Fleet ship datasheets.
    pub sf_ships: Vec<SfShip>,
    /// Heresy unit datasheets.
    pub heresy_units: Vec<HeresyUnit>,
    /// NetEpic Gold unit datasheets.
    pub ne_units: Vec<NeUnit>,
    /// Every game's scenarios (`lists/<game>/scenarios.yaml`).
    pub scenarios: Vec<scenarios::Scenario>,
    /// The lists by each of their names' keys, made on the first lookup
    /// (a batch finds a list per roster).
    list_index: std::sync::OnceLock<ListIndex>,
    /// The datasheets by id, made on the first lookup (the army's facts
    /// look up every unit of every roster).
    datasheet_index: std::sync::OnceLock<DatasheetIndex>,
    /// Which lists know a formation name, made on the first roster whose
    /// army muster does not know (`Catalogue::lists_knowing_formation`).
    formation_keys: std::sync::OnceLock<FormationKeys>,
    /// The hints for names that match no list, by the name as written
    /// (`Catalogue::nearest_lists_memo`): a batch meets the same unknown
    /// army in many rosters.
    near_lists: std::sync::Mutex<NearLists>,
}

/// The memo behind [`Catalogue::nearest_lists_memo`]: a name as written to
/// its suggestion and the positions of its nearest lists; made for the
/// catalogue's lists at `lists` (a catalogue given more lists clears it),
/// for the number of lists asked for.
#[derive(Debug, Default)]
struct NearLists {
    lists: usize,
    by_name:
        std::collections::HashMap<String, (usize, Option<String>, Vec<usize>), rustc_hash::FxBuildHasher>,
    /// [`Catalogue::nearest_lists_of`]'s answers, by name, game and number.
    of_game: names::KeyMap<(String, GameId, usize), Nearest>,
    /// [`Catalogue::lists_with_words`]'s answers, by name and game.
    with_words: names::KeyMap<(String, Option<GameId>), Vec<usize>>,
}

impl NearLists {
    /// The memo for a catalogue of `lists` lists: emptied when it was made
    /// for another number.
    fn for_lists(&mut self, lists: usize) -> &mut NearLists {
        if self.lists != lists {
            *self = NearLists {
                lists,
                ..NearLists::default()
            };
        }
        self
    }
}

/// A suggested name and the positions of the nearest lists.
type Nearest = (Option<String>, Vec<usize>);

/// At most this many names are remembered, so a folder of many different
/// unknown armies does not grow memory.
const NEAR_LISTS_KEPT: usize = 256;

/// Each datasheet id to the datasheets that have it (game, position), in
/// catalogue order.
#[derive(Debug, Default)]
struct DatasheetIndex {
    /// How many datasheets there were when it was made: a catalogue given
    /// more afterwards is searched one datasheet at a time instead.
    datasheets: usize,
    by_id: std::collections::HashMap<String, Vec<(GameId, usize)>, rustc_hash::FxBuildHasher>,
}

/// Each list name's forms (`ListName`) to the lists that have it, in
/// catalogue order.
#[derive(Debug, Default)]
struct ListIndex {
    /// How many lists there were when it was made: a catalogue given more
    /// lists afterwards is searched one list at a time instead.
    lists: usize,
    normalized:
        std::collections::HashMap<std::borrow::Cow<'static, str>, Vec<usize>, rustc_hash::FxBuildHasher>,
    compact: std::collections::HashMap<std::borrow::Cow<'static, str>, Vec<usize>, rustc_hash::FxBuildHasher>,
}

/// Every list's formation name keys (`NameIndex::keys`), each to the
/// lists that have it: one look-up per key for all the lists at once.
#[derive(Debug, Default)]
struct FormationKeys {
    /// How many lists there were when it was made (as [`ListIndex`]).
    lists: usize,
    exact: names::KeyMap<String, Vec<usize>>,
    compact: names::KeyMap<String, Vec<usize>>,
}

impl FormationKeys {
    fn new(lists: &[ArmyList]) -> FormationKeys {
        let mut index = FormationKeys {
            lists: lists.len(),
            ..FormationKeys::default()
        };
        for (i, list) in lists.iter().enumerate() {
            let (exact, compact) = list.formation_names.keys();
            for (map, keys) in [
                (&mut index.exact, exact.collect::<Vec<_>>()),
                (&mut index.compact, compact.collect()),
            ] {
                for key in keys {
                    note_list(map, key.to_string(), i);
                }
            }
        }
        index
    }
}

impl ListIndex {
    fn new(lists: &[ArmyList]) -> ListIndex {
        let mut index = ListIndex {
            lists: lists.len(),
            ..ListIndex::default()
        };
        for (i, list) in lists.iter().enumerate() {
            for key in &list.name_keys {
                for (map, form) in [
                    (&mut index.normalized, &key.normalized),
                    (&mut index.compact, &key.compact),
                ] {
                    note_list(map, form.clone(), i);
                }
            }
        }
        index
    }
}

/// Notes that list `i` has `key`, for an index of keys to lists: the lists
/// come in order, so one with the key twice is noted once.
fn note_list<K: Eq + std::hash::Hash>(map: &mut names::KeyMap<K, Vec<usize>>, key: K, i: usize) {
    let lists = map.entry(key).or_default();
    if lists.last() != Some(&i) {
        lists.push(i);
    }
}

/// A list name as a roster writes it, ready to compare with a list's
/// names: case, spacing and punctuation do not matter. One definition for
/// finding a list in the catalogue and for choosing which files to load.
#[derive(Debug, Clone)]
pub struct ListName {
    /// Borrowed from the build's manifest for a built-in list's own names
    /// ([`ListName::prepared`]).
    normalized: std::borrow::Cow<'static, str>,
    compact: std::borrow::Cow<'static, str>,
}

impl ListName {
    pub fn new(written: &str) -> ListName {
        let normalized = names::normalize(written);
        let compact = names::compact(&normalized);
        ListName {
            normalized: normalized.into(),
            compact: compact.into(),
        }
    }

    /// A name's forms as the build prepared them (`names::normalize`,
    /// then `names::compact`).
    pub(crate) fn prepared(normalized: &'static str, compact: &'static str) -> ListName {
        ListName {
            normalized: normalized.into(),
            compact: compact.into(),
        }
    }

    /// [`ListName::matches`] with the other name's forms prepared at build
    /// time (the manifest's `keys`).
    pub(crate) fn matches_prepared(&self, normalized: &str, compact: &str) -> bool {
        normalized == self.normalized || compact == self.compact
    }

    /// Whether `name` (a list's id, name, alias or import name) is this one.
    pub fn matches(&self, name: &str) -> bool {
        self.matches_key(&ListName::new(name))
    }

    /// [`ListName::matches`] with the other name already prepared, as a
    /// list keeps its own (`ArmyList::name_keys`).
    pub fn matches_key(&self, other: &ListName) -> bool {
        other.normalized == self.normalized || other.compact == self.compact
    }
}

/// The tags of a formation or an upgrade: sorted, each once, and each
/// shared by every entry of its list that has it (a `BTreeSet` of copies
/// was a tree and a string per tag per entry, on every load). Read as a
/// set of `String`s was.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tags(Box<[std::sync::Arc<String>]>);

impl Tags {
    /// Tags from any order, repeats dropped.
    pub(crate) fn new(tags: impl IntoIterator<Item = std::sync::Arc<String>>) -> Tags {
        let mut tags: Vec<std::sync::Arc<String>> = tags.into_iter().collect();
        tags.sort_unstable();
        tags.dedup();
        Tags(tags.into_boxed_slice())
    }

    pub fn contains(&self, tag: &str) -> bool {
        self.0.binary_search_by(|t| t.as_str().cmp(tag)).is_ok()
    }

    /// In order.
    pub fn iter(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|t| &**t)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A Battlefleet Gothic ship's datasheet, as written.
pub type Ship = Sheet<kinds::ShipKind>;
/// A Space Fleet ship's datasheet, as written.
pub type SfShip = Sheet<kinds::SfShipKind>;
/// A Heresy model's stat line, as written.
pub type HeresyUnit = Sheet<kinds::HeresyKind>;
/// A NetEpic Gold unit's datasheet, as written.
pub type NeUnit = Sheet<kinds::NetEpicKind>;

/// A model without an entry of its own in the lists.
#[derive(Debug, Clone)]
pub struct ModelEntry {
    pub game: GameId,
    pub name: String,
    pub aliases: Vec<String>,
    pub armies: Vec<String>,
    pub unit_type: UnitType,
}

impl Catalogue {
    /// Finds a list by id, name, alias or Snapfire id.
    pub fn find_list(&self, name: &str) -> ListLookup<'_> {
        match self.lookup_list(name) {
            ListLookup::NotFound(_) => ListLookup::NotFound(
                crate::diagnostic::nearest(name, self.lists.iter().flat_map(|l| l.all_names()))
                    .map(str::to_string),
            ),
            found => found,
        }
    }

    /// [`Catalogue::find_list`] without the suggestion for a name that
    /// matches no list (`NotFound(None)`): see
    /// [`Catalogue::nearest_lists_and_name`] for both hints at once.
    pub fn lookup_list(&self, name: &str) -> ListLookup<'_> {
        let wanted = ListName::new(name);
        let index = self.list_index.get_or_init(|| ListIndex::new(&self.lists));
        let found: Vec<&ArmyList> = if index.lists == self.lists.len() {
            let mut at: Vec<usize> = [
                index.normalized.get(&wanted.normalized),
                index.compact.get(&wanted.compact),
            ]
            .into_iter()
            .flatten()
            .flatten()
            .copied()
            .collect();
            at.sort_unstable();
            at.dedup();
            at.into_iter().filter_map(|i| self.lists.get(i)).collect()
        } else {
            let matches = |list: &&ArmyList| list.name_keys.iter().any(|k| wanted.matches_key(k));
            self.lists.iter().filter(matches).collect()
        };
        match found.as_slice() {
            [] => ListLookup::NotFound(None),
            [one] => ListLookup::Found(one),
            many => ListLookup::Ambiguous(many.to_vec()),
        }
    }

    /// The lists, of `game` when given, one of whose names holds every
    /// word of `name` (a plural standing for its singular): what a name too
    /// general to pick one list could mean (`Eldar`, `Imperial Guard`).
    pub fn lists_with_words(&self, name: &str, game: Option<GameId>) -> Vec<&ArmyList> {
        let key = (name.to_string(), game);
        let lists = self.lists.len();
        if let Ok(mut memo) = self.near_lists.lock()
            && let Some(at) = memo.for_lists(lists).with_words.get(&key)
        {
            return at.iter().filter_map(|&i| self.lists.get(i)).collect();
        }
        let found = self.lists_with_words_anew(name, game);
        if let Ok(mut memo) = self.near_lists.lock() {
            let memo = memo.for_lists(lists);
            if memo.with_words.len() < NEAR_LISTS_KEPT {
                memo.with_words.insert(key, self.positions(&found));
            }
        }
        found
    }

    /// The positions in `lists` of some of its lists.
    fn positions(&self, some: &[&ArmyList]) -> Vec<usize> {
        (some.iter())
            .filter_map(|l| self.lists.iter().position(|x| std::ptr::eq(x, *l)))
            .collect()
    }

    /// [`Catalogue::lists_with_words`] worked out.
    fn lists_with_words_anew(&self, name: &str, game: Option<GameId>) -> Vec<&ArmyList> {
        /// A word without a plural `s` (`orks`, `ork`; `marines`, `marine`).
        fn stem(word: &str) -> &str {
            match word.strip_suffix('s') {
                Some(stem) if stem.len() >= 3 => stem,
                _ => word,
            }
        }
        let normalized = names::normalize(name);
        let words: Vec<&str> = normalized.split_whitespace().map(stem).collect();
        if words.is_empty() {
            return Vec::new();
        }
        self.lists
            .iter()
            .filter(|l| game.is_none_or(|g| l.game == g))
            .filter(|l| {
                l.name_keys.iter().any(|k| {
                    let have: Vec<&str> = k.normalized.split_whitespace().map(stem).collect();
                    words.iter().all(|w| have.contains(w))
                })
            })
            .collect()
    }

    /// The positions of the lists where a formation called `name` is
    /// found (`formation_names.lookup` is not `NotFound`), in order.
    pub fn lists_knowing_formation(&self, name: &str) -> Vec<usize> {
        let index = self
            .formation_keys
            .get_or_init(|| FormationKeys::new(&self.lists));
        if index.lists != self.lists.len() {
            return (self.lists.iter().enumerate())
                .filter(|(_, l)| !matches!(l.formation_names.lookup(name), names::Lookup::NotFound))
                .map(|(i, _)| i)
                .collect();
        }
        let keys = names::LookupKeys::of(name);
        let mut at: Vec<usize> = (keys.exact.iter().filter_map(|k| index.exact.get(k.as_str())))
            .chain(keys.compact.iter().filter_map(|k| index.compact.get(k.as_str())))
            .flatten()
            .copied()
            .collect();
        at.sort_unstable();
        at.dedup();
        at
    }

    /// The lists nearest to a name that matches none, closest first, at
    /// most `n`: those one of whose names is a near spelling, or failing
    /// any, those sharing a word with it (`Imperial Navy` for `Navy`).
    pub fn nearest_lists(&self, name: &str, n: usize) -> Vec<&ArmyList> {
        self.nearest_lists_and_name(name, n).1
    }

    /// [`Catalogue::nearest_lists`] and the suggestion
    /// [`Catalogue::find_list`] makes for a name that matches no list (the
    /// nearest of all lists' names), from one pass over the names.
    pub fn nearest_lists_and_name(&self, name: &str, n: usize) -> (Option<&str>, Vec<&ArmyList>) {
        let lower = name.to_lowercase();
        let near = crate::diagnostic::Near::new(&lower);
        // As `diagnostic::nearest`: the first of the closest names.
        let mut best: Option<(f64, &str)> = None;
        let mut scored: Vec<(f64, &ArmyList)> = Vec::new();
        for list in &self.lists {
            let mut top: Option<f64> = None;
            for candidate in list.all_names() {
                let Some(score) = near.closeness(candidate) else {
                    continue;
                };
                if best.is_none_or(|(s, _)| score > s) {
                    best = Some((score, candidate));
                }
                if top.is_none_or(|t| t.total_cmp(&score).is_le()) {
                    top = Some(score);
                }
            }
            if let Some(top) = top {
                scored.push((top, list));
            }
        }
        let suggestion = best.map(|(_, name)| name);
        if scored.is_empty() {
            let words: Vec<String> = names::normalize(name)
                .split_whitespace()
                .filter(|w| w.chars().count() >= 4)
                .map(str::to_string)
                .collect();
            scored = self
                .lists
                .iter()
                .filter_map(|list| {
                    // `name_keys` holds every name normalized already.
                    let shared = list
                        .name_keys
                        .iter()
                        .map(|n| {
                            n.normalized
                                .split_whitespace()
                                .filter(|w| words.iter().any(|x| x == w))
                                .count()
                        })
                        .max()
                        .unwrap_or(0);
                    (shared > 0).then(|| (f64::from(u32::try_from(shared).unwrap_or(u32::MAX)), list))
                })
                .collect();
        }
        // Closest first; equals in the catalogue's order.
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        let nearest = scored.into_iter().take(n).map(|(_, list)| list).collect();
        (suggestion, nearest)
    }

    /// [`Catalogue::nearest_lists_and_name`] among the lists of `game`
    /// alone: a roster of a known game is not sent to another game's list.
    pub fn nearest_lists_of(&self, name: &str, n: usize, game: GameId) -> (Option<String>, Vec<&ArmyList>) {
        let key = (name.to_string(), game, n);
        let lists = self.lists.len();
        if let Ok(mut memo) = self.near_lists.lock()
            && let Some((suggestion, at)) = memo.for_lists(lists).of_game.get(&key)
        {
            return (
                suggestion.clone(),
                at.iter().filter_map(|&i| self.lists.get(i)).collect(),
            );
        }
        let (suggestion, nearest) = self.nearest_lists_of_anew(name, n, game);
        if let Ok(mut memo) = self.near_lists.lock() {
            let memo = memo.for_lists(lists);
            if memo.of_game.len() < NEAR_LISTS_KEPT {
                memo.of_game
                    .insert(key, (suggestion.clone(), self.positions(&nearest)));
            }
        }
        (suggestion, nearest)
    }

    /// [`Catalogue::nearest_lists_of`] worked out.
    fn nearest_lists_of_anew(&self, name: &str, n: usize, game: GameId) -> (Option<String>, Vec<&ArmyList>) {
        let lists = self.lists.iter().filter(|l| l.game == game);
        let suggestion = crate::diagnostic::nearest(name, lists.clone().flat_map(|l| l.all_names()));
        let suggestion = suggestion.map(str::to_string);
        let (_, nearest) = self.nearest_lists_and_name(name, usize::MAX);
        let nearest = nearest.into_iter().filter(|l| l.game == game).take(n).collect();
        (suggestion, nearest)
    }

    /// [`Catalogue::nearest_lists_and_name`], remembered per name as
    /// written (up to a bound): the same answer, worked out once for each
    /// distinct unknown army of a batch.
    pub fn nearest_lists_memo(&self, name: &str, n: usize) -> (Option<String>, Vec<&ArmyList>) {
        let lists = self.lists.len();
        let recall = |memo: &NearLists| {
            let (kept, suggestion, at) = memo.by_name.get(name).filter(|_| memo.lists == lists)?;
            let nearest = at.iter().filter_map(|&i| self.lists.get(i)).collect();
            (*kept == n).then(|| (suggestion.clone(), nearest))
        };
        if let Ok(memo) = self.near_lists.lock()
            && let Some(found) = recall(&memo)
        {
            return found;
        }
        let (suggestion, nearest) = self.nearest_lists_and_name(name, n);
        let suggestion = suggestion.map(str::to_string);
        if let Ok(mut memo) = self.near_lists.lock() {
            let memo = memo.for_lists(lists);
            if memo.by_name.len() < NEAR_LISTS_KEPT {
                memo.by_name.insert(
                    name.to_string(),
                    (n, suggestion.clone(), self.positions(&nearest)),
                );
            }
        }
        (suggestion, nearest)
    }

    pub fn list(&self, id: &str) -> Option<&ArmyList> {
        self.lists.iter().find(|l| l.id == id)
    }

    pub fn datasheet(&self, game: GameId, id: &str) -> Option<&Datasheet> {
        let index = self.datasheet_index.get_or_init(|| {
            let mut index = DatasheetIndex {
                datasheets: self.datasheets.len(),
                ..DatasheetIndex::default()
            };
            for (i, d) in self.datasheets.iter().enumerate() {
                index.by_id.entry(d.id.clone()).or_default().push((d.game, i));
            }
            index
        });
        if index.datasheets != self.datasheets.len() {
            return self.datasheets.iter().find(|d| d.game == game && d.id == id);
        }
        // The first of that game, as a search in order finds.
        let (_, at) = index.by_id.get(id)?.iter().find(|(g, _)| *g == game)?;
        self.datasheets.get(*at)
    }

    pub fn heresy_unit(&self, game: GameId, id: &str) -> Option<&HeresyUnit> {
        self.find(game, id)
    }

    pub fn ship(&self, game: GameId, id: &str) -> Option<&Ship> {
        self.find(game, id)
    }

    pub fn sf_ship(&self, game: GameId, id: &str) -> Option<&SfShip> {
        self.find(game, id)
    }

    pub fn ne_unit(&self, game: GameId, id: &str) -> Option<&NeUnit> {
        self.find(game, id)
    }
}

pub enum ListLookup<'a> {
    Found(&'a ArmyList),
    Ambiguous(Vec<&'a ArmyList>),
    NotFound(Option<String>),
}

/// One army list, resolved.
#[derive(Debug)]
pub struct ArmyList {
    pub game: GameId,
    pub id: String,
    pub name: String,
    pub aliases: Vec<String>,
    pub version: String,
    pub version_label: Option<String>,
    /// The version string of Snapfire's file for this list, when it is
    /// not the pack's (`imports.snapfire_version`).
    pub snapfire_version: Option<String>,
    pub snapfire_id: Option<String>,
    /// BattleScribe catalogues read as this list: name and id.
    pub battlescribe: Vec<(String, Option<String>)>,
    /// Snapfire's ids of the formations and upgrades, for share links.
    pub snapfire: snapfire::SnapfireIds,
    pub source: Vec<SourceRef>,
    pub decisions: Vec<String>,
    pub strategy_rating: Option<u8>,
    /// Battlefleet Gothic: the fleet's attack rating.
    pub attack_rating: Option<u8>,
    /// Ratings that replace it when the army meets a condition, first
    /// match first (`None`: the sources lack that rating).
    pub attack_rating_when: Vec<(Cond<Selector>, Option<u8>)>,
    /// Only formations of these datasheet ids may garrison, for the reason
    /// given (`None`: the tournament rules alone decide).
    pub garrison_units: Option<(Vec<String>, String)>,
    pub special_rules: Vec<SpecialRule>,
    pub sections: Vec<Section>,
    pub formations: Vec<Formation>,
    pub upgrades: Vec<Upgrade>,
    /// Datasheet ids the list uses; `UnitIdx` indexes this table.
    pub units: Vec<String>,
    pub constraints: Vec<Constraint>,
    pub not_enforced: Vec<NotEnforced>,
    /// Numbers worked out from the army and printed with it.
    pub figures: Vec<Figure>,
    /// `all_names`, prepared for comparison once rather than per roster.
    pub name_keys: Vec<ListName>,
    pub formation_names: NameIndex,
    pub upgrade_names: NameIndex,
    pub origin: Origin,
}

impl ArmyList {
    /// Every name a roster may use for the list.
    pub fn all_names(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.id.as_str())
            .chain(std::iter::once(self.name.as_str()))
            .chain(self.aliases.iter().map(String::as_str))
            .chain(self.snapfire_id.as_deref())
    }

    /// The version for humans: the pack's label, with the version itself
    /// where the label does not contain it.
    pub fn version_text(&self) -> String {
        // One shape for every list, `Pack name (version)`, whatever shape
        // the builder's label had.
        let version = &self.version;
        match &self.version_label {
            Some(label) if label.contains(&format!("({version})")) => label.clone(),
            Some(label) => match label.trim_end().strip_suffix(version.as_str()) {
                Some(base) => format!("{} ({version})", base.trim_end_matches([' ', ','])),
                None if label.contains(version.as_str()) => label.clone(),
                None => format!("{} ({version})", label.trim_end_matches([' ', ','])),
            },
            None => version.clone(),
        }
    }

    /// Whether an event's version pin names this list's version: the
    /// version, the pack's label or [`ArmyList::version_text`], spacing and
    /// case aside (`revision 5` is not `revision 50`).
    pub fn is_version(&self, pin: &str) -> bool {
        let pin = names::normalize(pin);
        std::iter::once(self.version.clone())
            .chain(self.version_label.clone())
            .chain(std::iter::once(self.version_text()))
            .any(|v| names::normalize(&v) == pin)
    }
}

pub type FormationIdx = usize;
pub type UpgradeIdx = usize;
pub type UnitIdx = usize;

#[derive(Debug, Clone)]
pub struct SpecialRule {
    pub id: String,
    pub name: String,
    pub summary: String,
    /// The variants whose rule this is (empty: the whole list's).
    pub variants: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct Section {
    pub id: String,
    pub name: String,
    pub formations: Vec<FormationIdx>,
}

#[derive(Debug, Clone)]
pub struct Formation {
    pub id: String,
    pub name: String,
    pub aliases: Vec<String>,
    pub section: usize,
    /// `None`: the sources do not give it.
    pub points: Option<i32>,
    pub initiative: Option<String>,
    /// Initiatives that replace it when the formation took something,
    /// first match first (`None`: missing from the sources).
    pub initiative_when: Vec<(Cond<Selector>, Option<String>)>,
    pub units: Vec<(UnitIdx, u32)>,
    pub upgrades: Vec<UpgradeIdx>,
    pub tags: Tags,
    pub note: Option<String>,
    pub snapfire_units: Option<String>,
    /// Heresy: victory points for breaking and for destroying it.
    pub heresy_vp: Option<raw::BrokenDestroyed>,
    /// Set when the formation is a group (squadron, company card): what it
    /// may hold.
    pub group: Option<GroupSpec>,
    /// The group formation this one is always a member of; a roster line
    /// naming it alone forms a group of its own.
    pub grouped_in: Option<FormationIdx>,
    /// NetEpic Gold's card values, when the list gives them.
    pub card: Option<CardValues>,
    /// The total (with upgrades) rounded up to a multiple of this.
    pub round_up_to: Option<u32>,
    /// A card of several titans: how many, and the formation each titan
    /// is (its rules apply to each titan a roster arms on its own line).
    pub titans: Option<(u32, FormationIdx)>,
}

/// What breaking a card is worth (NetEpic Gold): `None` inside means the
/// sources lack the value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardValues {
    pub break_point: Option<u32>,
    pub victory_points: CardVp,
}

/// A card's victory points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardVp {
    Fixed(u32),
    Missing,
    /// One per 100 points of the card's cost as bought, rounded up.
    PerHundredPoints,
}

/// What a group formation may hold.
#[derive(Debug, Clone)]
pub struct GroupSpec {
    /// Which formations may be members.
    pub members: Vec<bool>,
    pub min: u32,
    pub max: Option<u32>,
    pub provenance: String,
}

impl GroupSpec {
    pub fn admits(&self, formation: FormationIdx) -> bool {
        self.members.get(formation).copied().unwrap_or(false)
    }
}

#[derive(Debug, Clone)]
pub struct Upgrade {
    pub id: String,
    pub name: String,
    pub aliases: Vec<String>,
    /// `None`: the sources do not give it.
    pub cost: Option<Cost>,
    pub adds: Vec<(UnitIdx, u32)>,
    pub replaces: Vec<(UnitIdx, u32)>,
    pub tags: Tags,
    pub note: Option<String>,
    pub fills: Option<Fills>,
    /// Costs that depend on the formation taking the upgrade: the first
    /// whose condition holds over that formation applies (`None`: missing).
    pub cost_when: Vec<(Cond<Selector>, Option<Cost>)>,
    /// What it does to the profile of the units it is bought for (see
    /// `fielded`); proven against those datasheets while linking.
    pub fielded: Vec<raw::ProfileChange>,
    /// Why its change to the unit cannot be shown as fielded.
    pub not_shown: Option<String>,
}

/// Exactly enough transports: see `raw::Fills`.
#[derive(Debug, Clone)]
pub struct Fills {
    pub unit: UnitIdx,
    pub capacity: u32,
    pub carries: Vec<UnitIdx>,
    pub shared_with: Vec<(UnitIdx, u32)>,
    pub provenance: String,
}

impl Fills {
    /// How many transports `units` (net counts by unit index) need.
    pub fn needed(&self, units: &[i64]) -> i64 {
        let at = |i: usize| units.get(i).copied().unwrap_or(0).max(0);
        let carried: i64 = self.carries.iter().map(|&u| at(u)).sum();
        let shared: i64 = self.shared_with.iter().map(|&(u, c)| at(u) * i64::from(c)).sum();
        let capacity = i64::from(self.capacity.max(1));
        let need = (carried - shared).max(0);
        (need + capacity - 1) / capacity
    }
}

impl Cost {
    /// The cost of taking `count` of the upgrade in one formation.
    pub fn of(&self, count: u32) -> i64 {
        match self {
            Cost::Each(each) => i64::from(*each) * i64::from(count),
            Cost::Successive(costs) => {
                // The listed costs, then the last one for every further
                // copy: O(len), whatever the count.
                let last = costs.last().copied().unwrap_or(0);
                let listed = costs.len().min(count as usize);
                let head: i64 = costs.iter().take(listed).map(|&c| i64::from(c)).sum();
                let rest = i64::from(count).saturating_sub(listed as i64);
                head.saturating_add(rest.saturating_mul(i64::from(last)))
            }
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Cost::Each(each) => format!("{each}"),
            Cost::Successive(costs) => {
                let parts: Vec<String> = costs.iter().map(|c| c.to_string()).collect();
                format!("{} (successive)", parts.join(", then "))
            }
        }
    }
}

/// A compiled selector: which formations, upgrades and units it matches.
#[derive(Debug, Clone, PartialEq)]
pub struct Selector {
    pub formations: Vec<bool>,
    pub upgrades: Vec<bool>,
    pub units: Vec<bool>,
    /// `x in y`: only upgrades taken by formations this mask matches.
    pub within: Option<Vec<bool>>,
    /// `x with y`: formations count only if they took an upgrade this mask
    /// matches.
    pub with: Option<Vec<bool>>,
}

impl Selector {
    pub fn formation(&self, i: FormationIdx) -> bool {
        self.formations.get(i).copied().unwrap_or(false)
    }
    pub fn upgrade(&self, i: UpgradeIdx) -> bool {
        self.upgrades.get(i).copied().unwrap_or(false)
    }
    pub fn unit(&self, i: UnitIdx) -> bool {
        self.units.get(i).copied().unwrap_or(false)
    }
    /// `x with y`: whether a formation that took `upgrades` passes.
    pub fn has_with(&self, mut upgrades: impl Iterator<Item = UpgradeIdx>) -> bool {
        match &self.with {
            None => true,
            Some(mask) => upgrades.any(|u| mask.get(u).copied().unwrap_or(false)),
        }
    }

    pub fn admits_formation(&self, i: FormationIdx) -> bool {
        self.within
            .as_ref()
            .is_none_or(|mask| mask.get(i).copied().unwrap_or(false))
    }
}

#[derive(Debug, Clone)]
pub struct Constraint {
    pub id: String,
    pub scope: Scope,
    /// Formation rules: which formations; `None` for all.
    pub applies_to: Option<Vec<bool>>,
    pub cond: Cond<Selector>,
    pub text: String,
    pub message: String,
    pub provenance: String,
    pub severity: RuleSeverity,
}

impl Constraint {
    pub fn applies_to(&self, formation: FormationIdx) -> bool {
        self.applies_to
            .as_ref()
            .is_none_or(|mask| mask.get(formation).copied().unwrap_or(false))
    }
}

/// A number worked out from the army (`figures` in a list file).
#[derive(Debug, Clone)]
pub struct Figure {
    pub id: String,
    pub name: String,
    pub value: crate::rules::Num<Selector>,
    pub text: String,
    pub provenance: String,
}

#[derive(Debug, Clone)]
pub struct NotEnforced {
    pub id: String,
    pub rule: String,
    pub why: String,
    /// Where the rule comes from, apart from its words.
    pub source: Option<String>,
}

/// One datasheet, as written (the notation is parsed by later stages).
#[derive(Debug, Clone)]
pub struct Datasheet {
    pub game: GameId,
    pub id: String,
    pub name: String,
    pub aliases: Vec<String>,
    pub unit_type: UnitType,
    pub speed: Option<String>,
    pub armour: Option<String>,
    pub cc: Option<String>,
    pub ff: Option<String>,
    pub weapons: Vec<raw::Weapon>,
    pub notes: Vec<String>,
    pub critical_hit: Option<String>,
    pub faction: String,
    /// What the notation cannot say, in our words.
    pub remarks: Vec<String>,
    /// Why a value is missing, where one is.
    pub missing_why: Option<String>,
    /// The values parsed by `crate::notation`, on first use: a check never
    /// prints a datasheet, so it never pays for parsing one. Files the run
    /// must prove (`--lists`, `lists --check`, the tests) are parsed while
    /// loading, and their errors reported then.
    pub(crate) parsed: std::sync::OnceLock<Option<crate::notation::Sheet>>,
    /// The datasheet as written, for that later parse: put back together
    /// from the fields above on first use (a check never asks for it), so
    /// loading does not copy every weapon of every datasheet.
    pub(crate) written: std::sync::OnceLock<Box<raw::Datasheet>>,
}

impl Datasheet {
    /// This datasheet with other values as written (a unit as fielded);
    /// they are parsed on first use.
    pub fn with_written(&self, written: raw::Datasheet) -> Datasheet {
        kinds::datasheet(self.game, &self.faction, written, std::sync::OnceLock::new())
    }

    /// The datasheet as written.
    pub fn written(&self) -> &raw::Datasheet {
        self.written.get_or_init(|| {
            let known = |value: &Option<String>| match value {
                Some(v) => raw::Known::Value(v.clone()),
                None => raw::Known::Missing(raw::MissingMarker::Missing),
            };
            Box::new(raw::Datasheet {
                id: self.id.clone(),
                name: self.name.clone(),
                aliases: self.aliases.clone(),
                unit_type: self.unit_type,
                speed: known(&self.speed),
                armour: known(&self.armour),
                cc: known(&self.cc),
                ff: known(&self.ff),
                weapons: self.weapons.clone(),
                notes: self.notes.clone(),
                remarks: self.remarks.clone(),
                critical_hit: self.critical_hit.clone(),
                missing_why: self.missing_why.clone(),
            })
        })
    }

    /// The values parsed; `None` for games whose datasheets are not written
    /// in the notation, or when a value does not parse (`lists --check`
    /// reports it).
    pub fn sheet(&self) -> Option<&crate::notation::Sheet> {
        self.parsed
            .get_or_init(|| {
                sheets::has_notation(self.game)
                    .then(|| sheets::parse(self.written()).ok())
                    .flatten()
            })
            .as_ref()
    }

    /// Whether the values were parsed while loading (so load-time checks
    /// may look at them without parsing the rest).
    pub(crate) fn parsed_at_load(&self) -> bool {
        self.parsed.get().is_some()
    }
}
