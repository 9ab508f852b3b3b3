//! Name matching: how a name a player writes finds an entry of a list.
//!
//! Case-insensitive, tolerant of plurals, spacing, hyphens and quote styles,
//! and honest about ambiguity: a name that fits two entries is reported, not
//! guessed.

use rustc_hash::FxBuildHasher;
use std::borrow::Cow;
use std::collections::HashMap;
use std::collections::hash_map::Entry;

/// A `HashMap` for the catalogue's own short keys (names, ids, tags), with
/// rustc's Fx hash: SipHash, the std default, costs more than the rest of a
/// lookup for keys this short. The keys come from the list files; a name a
/// roster writes only probes what the list put there.
pub type KeyMap<K, V> = HashMap<K, V, FxBuildHasher>;

/// The result of looking a name up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    Found(usize),
    Ambiguous(Vec<usize>),
    NotFound,
}

/// Names and aliases of one kind of entry (formations, or upgrades).
#[derive(Debug, Clone, Default)]
pub struct NameIndex {
    /// Keys borrowed from the build's prepared names of a built-in list
    /// (`NameIndex::insert_prepared`), owned otherwise.
    exact: KeyMap<Key, Entries>,
    compact: KeyMap<Key, Entries>,
    /// Every name and alias as written, for suggestions: one after the
    /// other in `written`, each as its end there (one allocation for all).
    written: String,
    ends: Vec<usize>,
    /// [`NameIndex::suggest`]'s answers, remembered per name as written.
    suggested: SuggestMemo,
}

/// How many misspelt names a [`NameIndex`] remembers its suggestion for: a
/// folder of rosters misspells the same names again and again, and each
/// suggestion compares the name with every name of the index.
const SUGGESTIONS_KEPT: usize = 256;

/// A name as written to the place of its suggestion in `written` (start,
/// end), or `None` when nothing is near. A clone starts empty.
#[derive(Debug, Default)]
struct SuggestMemo(std::sync::Mutex<KeyMap<String, Option<(usize, usize)>>>);

impl Clone for SuggestMemo {
    fn clone(&self) -> Self {
        SuggestMemo::default()
    }
}

pub use super::normalize::{compact, normalize};

/// The singular forms a plural might stand for.
fn singulars(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(stem) = name.strip_suffix("ies") {
        out.push(format!("{stem}y"));
    }
    if let Some(stem) = name.strip_suffix("es") {
        out.push(stem.to_string());
    }
    if let Some(stem) = name.strip_suffix('s') {
        out.push(stem.to_string());
    }
    out
}

/// Whether a name as written means `known`, as the name index would match
/// it: case, spacing, punctuation and a plural aside (`Warhound Class
/// Titans` means `Warhound Class Titan`).
pub fn same_thing(written: &str, known: &str) -> bool {
    let known = compact(&normalize(known));
    let written = normalize(written);
    std::iter::once(written.clone())
        .chain(singulars(&written))
        .any(|w| compact(&w) == known)
}

/// The entries one key names: nearly always one, so without a `Vec`.
#[derive(Debug, Clone)]
enum Entries {
    One([usize; 1]),
    Many(Vec<usize>),
}

impl Entries {
    fn as_slice(&self) -> &[usize] {
        match self {
            Entries::One(one) => one,
            Entries::Many(many) => many,
        }
    }

    fn add(&mut self, index: usize) {
        match self {
            Entries::One([one]) if *one != index => *self = Entries::Many(vec![*one, index]),
            Entries::Many(many) if !many.contains(&index) => many.push(index),
            _ => {}
        }
    }
}

/// A key of a [`NameIndex`]: text of the binary's, or its own.
type Key = Cow<'static, str>;

fn push(map: &mut KeyMap<Key, Entries>, key: Key, index: usize) {
    match map.entry(key) {
        Entry::Occupied(mut entry) => entry.get_mut().add(index),
        Entry::Vacant(entry) => {
            entry.insert(Entries::One([index]));
        }
    }
}

/// [`push`] of the first `len` bytes of a key (a singular cut from a
/// plural): borrowed when the key is, else copied only when it is new.
fn push_stem(map: &mut KeyMap<Key, Entries>, whole: &Key, len: usize, index: usize) {
    let Some(stem) = whole.get(..len) else {
        return;
    };
    if let Some(entry) = map.get_mut(stem) {
        entry.add(index);
        return;
    }
    let key = match whole {
        Cow::Borrowed(text) => Cow::Borrowed(text.get(..len).unwrap_or_default()),
        Cow::Owned(_) => Cow::Owned(stem.to_string()),
    };
    map.insert(key, Entries::One([index]));
}

/// `stem` followed by `y`.
fn with_y(stem: &str) -> String {
    let mut key = String::with_capacity(stem.len() + 1);
    key.push_str(stem);
    key.push('y');
    key
}

impl NameIndex {
    /// An index with room for `names` names (and their plural forms)
    /// without growing.
    pub fn with_capacity(names: usize) -> Self {
        let keys = names + names / 2;
        NameIndex {
            exact: KeyMap::with_capacity_and_hasher(keys, Default::default()),
            compact: KeyMap::with_capacity_and_hasher(keys, Default::default()),
            written: String::with_capacity(names * 24),
            ends: Vec::with_capacity(names),
            suggested: SuggestMemo::default(),
        }
    }

    pub fn insert(&mut self, name: &str, index: usize) {
        let n = normalize(name);
        let c = compact(&n);
        self.insert_keys(name, Cow::Owned(n), Cow::Owned(c), index);
    }

    /// [`NameIndex::insert`] of a name whose normalized and compact forms
    /// the build prepared (`normalize`, then `compact`, of `name`): the
    /// keys borrow them.
    pub(crate) fn insert_prepared(
        &mut self,
        name: &str,
        normalized: &'static str,
        compact: &'static str,
        index: usize,
    ) {
        self.insert_keys(name, Cow::Borrowed(normalized), Cow::Borrowed(compact), index);
    }

    fn insert_keys(&mut self, name: &str, n: Key, c: Key, index: usize) {
        if let Ok(memo) = self.suggested.0.get_mut() {
            memo.clear();
        }
        self.written.push_str(name);
        self.ends.push(self.written.len());
        // The singulars the name might stand for, as `singulars`. Their
        // compact forms are cut from the name's (the suffixes are letters,
        // which `compact` keeps), not compacted again.
        if let (Some(stem), Some(compact_stem)) = (n.strip_suffix("ies"), c.strip_suffix("ies")) {
            push(&mut self.exact, Cow::Owned(with_y(stem)), index);
            push(&mut self.compact, Cow::Owned(with_y(compact_stem)), index);
        }
        if n.ends_with("es") && c.ends_with("es") {
            push_stem(&mut self.exact, &n, n.len() - 2, index);
            push_stem(&mut self.compact, &c, c.len() - 2, index);
        }
        if n.ends_with('s') && c.ends_with('s') {
            push_stem(&mut self.exact, &n, n.len() - 1, index);
            push_stem(&mut self.compact, &c, c.len() - 1, index);
        }
        push(&mut self.compact, c, index);
        push(&mut self.exact, n, index);
    }

    pub fn lookup(&self, name: &str) -> Lookup {
        // The name as written, then the singulars it might stand for, each
        // tried exactly and then compacted; on the path every roster takes
        // (the name is in the index as written) only the normalized name is
        // built. `singulars` in the same order, without allocating.
        let n = normalize(name);
        if let Some(found) = self.exact.get(n.as_str()) {
            return verdict(found.as_slice());
        }
        let ies = n.strip_suffix("ies").map(|stem| format!("{stem}y"));
        let singular = [ies.as_deref(), n.strip_suffix("es"), n.strip_suffix('s')];
        for key in singular.into_iter().flatten() {
            if let Some(found) = self.exact.get(key) {
                return verdict(found.as_slice());
            }
        }
        let mut compacted = String::with_capacity(n.len());
        for key in std::iter::once(n.as_str()).chain(singular.into_iter().flatten()) {
            compacted.clear();
            compacted.extend(key.chars().filter(|c| c.is_alphanumeric()));
            if let Some(found) = self.compact.get(compacted.as_str()) {
                return verdict(found.as_slice());
            }
        }
        Lookup::NotFound
    }

    /// Every key of the index: the exact keys, then the compact ones. A
    /// name is in the index when one of its [`LookupKeys`] is among them.
    pub(crate) fn keys(&self) -> (impl Iterator<Item = &str>, impl Iterator<Item = &str>) {
        (
            self.exact.keys().map(|k| k.as_ref()),
            self.compact.keys().map(|k| k.as_ref()),
        )
    }

    /// Keys (normalized names) shared by two different entries.
    pub fn clashes(&self) -> Vec<(String, Vec<usize>)> {
        let mut out: Vec<_> = self
            .exact
            .iter()
            .filter(|(_, v)| v.as_slice().len() > 1)
            .map(|(k, v)| (k.to_string(), v.as_slice().to_vec()))
            .collect();
        out.sort();
        out
    }

    /// The closest known name, for "did you mean".
    /// Worked out once per name as written (up to [`SUGGESTIONS_KEPT`]).
    pub fn suggest(&self, name: &str) -> Option<&str> {
        if let Ok(memo) = self.suggested.0.lock()
            && let Some(&found) = memo.get(name)
        {
            return found.and_then(|(start, end)| self.written.get(start..end));
        }
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        let names = starts
            .zip(&self.ends)
            .filter_map(|(start, &end)| self.written.get(start..end).map(|n| (start, n)));
        let lower = name.to_lowercase();
        let near = crate::diagnostic::Near::new(&lower);
        // As `diagnostic::nearest`: the first of the closest names.
        let mut best: Option<(f64, usize, &str)> = None;
        for (start, candidate) in names {
            let Some(score) = near.closeness_over(candidate, best.map(|(s, _, _)| s)) else {
                continue;
            };
            if best.is_none_or(|(s, _, _)| score > s) {
                best = Some((score, start, candidate));
            }
        }
        if let Ok(mut memo) = self.suggested.0.lock()
            && memo.len() < SUGGESTIONS_KEPT
        {
            let at = best.map(|(_, start, n)| (start, start + n.len()));
            memo.insert(name.to_string(), at);
        }
        best.map(|(_, _, n)| n)
    }
}

impl NameIndex {
    /// Every key and its entries, exact then compact, sorted: what two
    /// indexes of the same names must agree on.
    #[cfg(test)]
    pub(crate) fn sorted_keys(&self) -> Vec<(bool, String, Vec<usize>)> {
        let mut out: Vec<_> = (self.exact.iter().map(|(k, v)| (true, k, v)))
            .chain(self.compact.iter().map(|(k, v)| (false, k, v)))
            .map(|(exact, k, v)| (exact, k.to_string(), v.as_slice().to_vec()))
            .collect();
        out.sort();
        out
    }
}

/// The keys [`NameIndex::lookup`] tries for a name, worked out once: the
/// name is in an index (not `Lookup::NotFound`) exactly when one of
/// `exact` is among its exact keys or one of `compact` among its compact
/// ones. For asking many indexes about the same name.
#[derive(Debug)]
pub(crate) struct LookupKeys {
    pub exact: Vec<String>,
    pub compact: Vec<String>,
}

impl LookupKeys {
    pub(crate) fn of(name: &str) -> LookupKeys {
        let n = normalize(name);
        let ies = n.strip_suffix("ies").map(|stem| format!("{stem}y"));
        let singular = [ies.as_deref(), n.strip_suffix("es"), n.strip_suffix('s')];
        let mut exact = vec![n.clone()];
        exact.extend(singular.into_iter().flatten().map(str::to_string));
        let compact = exact
            .iter()
            .map(|key| key.chars().filter(|c| c.is_alphanumeric()).collect())
            .collect();
        LookupKeys { exact, compact }
    }
}

fn verdict(found: &[usize]) -> Lookup {
    match found {
        [one] => Lookup::Found(*one),
        many => Lookup::Ambiguous(many.to_vec()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte-at-a-time forms of ASCII names say what the general ones
    /// say.
    #[test]
    fn ascii_fast_paths_agree() {
        let names = [
            "Land Raider",
            "  LAND \t\t raider ",
            "Blitz Brigade (`Uge)",
            "a\x0bb\x0cc\rd\ne",
            "",
            " ",
            "Warhound-Class Titans x2",
            "\x1f odd \x7f bytes",
            "Space Wolves - Great Company",
            "already tidy",
            "Café Crème",
        ];
        for name in names {
            assert_eq!(
                normalize(name),
                super::super::normalize::normalize_chars(name),
                "{name:?}"
            );
            let n = normalize(name);
            assert_eq!(
                compact(&n),
                super::super::normalize::compact_chars(&n),
                "{name:?}"
            );
        }
    }

    #[test]
    fn plurals_case_and_spacing() {
        let mut index = NameIndex::default();
        index.insert("Land Raider", 0);
        index.insert("Tactical Detachment", 1);
        index.insert("Tacticals", 1);
        index.insert("Blitz Brigade ('Uge)", 2);
        index.insert("Sentry", 3);
        assert_eq!(index.lookup("land raiders"), Lookup::Found(0));
        assert_eq!(index.lookup("LAND  RAIDER"), Lookup::Found(0));
        assert_eq!(index.lookup("Land-Raider"), Lookup::Found(0));
        assert_eq!(index.lookup("tactical"), Lookup::Found(1));
        assert_eq!(index.lookup("Blitz Brigade (\u{2019}Uge)"), Lookup::Found(2));
        assert_eq!(index.lookup("sentries"), Lookup::Found(3));
        assert_eq!(index.lookup("Predator"), Lookup::NotFound);
    }

    #[test]
    fn ambiguity_is_reported() {
        let mut index = NameIndex::default();
        index.insert("Warhound", 0);
        index.insert("Warhounds", 1);
        assert_eq!(index.lookup("warhound"), Lookup::Ambiguous(vec![0, 1]));
        assert_eq!(index.clashes().len(), 1);
    }

    /// A remembered suggestion is the one worked out, and a name added
    /// later is not hidden by it.
    #[test]
    fn suggestions_are_remembered_until_a_name_is_added() {
        let mut index = NameIndex::default();
        index.insert("Land Raider", 0);
        index.insert("Tactical Detachment", 1);
        let names: Vec<&str> = vec!["Land Raider", "Tactical Detachment"];
        let expected = crate::diagnostic::nearest("Tactcal Detachment", names.iter().copied());
        assert_eq!(expected, Some("Tactical Detachment"));
        assert_eq!(index.suggest("Tactcal Detachment"), expected);
        assert_eq!(index.suggest("Tactcal Detachment"), expected);
        assert_eq!(index.suggest("Predator"), None);
        assert_eq!(index.suggest("Predator"), None);
        index.insert("Predator", 2);
        assert_eq!(index.suggest("Predatr"), Some("Predator"));
        assert_eq!(index.suggest("Predator"), Some("Predator"));
        assert_eq!(index.clone().suggest("Land Raidr"), Some("Land Raider"));
    }
}
