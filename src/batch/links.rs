//! Which rosters of a batch duplicate which, from their [`Keys`]: for each
//! roster and each kind of duplicate, the one other roster it links to
//! (a set of identical rosters links each member to the set's first, and
//! the first to the second), and the sets those links make.
//!
//! Packed, since a batch keeps the links of every roster until its reports
//! are written: two indices a roster, `u32::MAX` for no link, 8 bytes where
//! a vector of links was 24 and, for a roster with any, 64 more.
//! [`duplicates`] gives them as a vector a roster, for results kept in
//! memory (`muster serve`, the library).

use super::duplicates::{Duplicate, DuplicateGroup, DuplicateKind, Keys};
use crate::check::Checked;

/// No link, or an empty slot of [`link`]'s table.
const NONE: u32 = u32::MAX;

/// The kinds, in the order of each roster's pair and of its links.
const KINDS: [DuplicateKind; 2] = [DuplicateKind::SamePlayer, DuplicateKind::SameList];

/// The key a kind compares.
type KeyOf = fn(&Keys) -> Option<u64>;

/// For each result, the results it duplicates, by kind then order, in
/// linear time and space: a group of identical rosters links each member
/// to the group's first, and the first to the second, so 2,000 copies of
/// one list give 2,000 links, not 4 million. [`duplicate_groups`] gives the groups.
pub fn duplicates(results: &[Checked<'_>]) -> Vec<Vec<Duplicate>> {
    let keys: Vec<Keys> = results.iter().map(Keys::of).collect();
    duplicates_of(&keys)
}

/// [`duplicates`] from each roster's [`Keys`]: [`Links::find`], a vector
/// a roster.
pub fn duplicates_of(keys: &[Keys]) -> Vec<Vec<Duplicate>> {
    Links::find(keys).to_vecs()
}

/// The groups behind [`duplicates`], each once, ordered by their first
/// member.
pub fn duplicate_groups(duplicates: &[Vec<Duplicate>]) -> Vec<DuplicateGroup> {
    let links = duplicates.iter().enumerate();
    groups(links.flat_map(|(i, links)| links.iter().map(move |&d| (i, d))))
}

/// Each roster's links: the other roster of each kind, or [`NONE`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Links(Vec<[u32; 2]>);

impl Links {
    /// The links of rosters with these keys, in linear time, with four to
    /// eight bytes a key beside the links while a kind is linked. Rosters
    /// past the 4,294,967,294th get none.
    pub fn find(keys: &[Keys]) -> Links {
        let mut links = vec![[NONE; 2]; keys.len()];
        let linked = &keys[..keys.len().min(NONE as usize)];
        let kinds: [KeyOf; 2] = [Keys::player, Keys::list];
        for (kind, key) in kinds.into_iter().enumerate() {
            link(linked, key, kind, &mut links);
        }
        Links(links)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Roster `i`'s links, by kind (none past the end).
    pub fn of(&self, i: usize) -> impl Iterator<Item = Duplicate> + use<> {
        let pair = self.0.get(i).copied().unwrap_or([NONE; 2]);
        KINDS
            .into_iter()
            .zip(pair)
            .filter(|&(_, other)| other != NONE)
            .map(|(kind, other)| Duplicate {
                kind,
                other: other as usize,
            })
    }

    /// Every roster's links in a vector of its own.
    pub fn to_vecs(&self) -> Vec<Vec<Duplicate>> {
        (0..self.len()).map(|i| self.of(i).collect()).collect()
    }

    /// The sets of duplicates, each once, ordered by their first member.
    pub fn groups(&self) -> Vec<DuplicateGroup> {
        groups((0..self.len()).flat_map(|i| self.of(i).map(move |d| (i, d))))
    }
}

/// Links the rosters whose `key` is the same, as the `kind`th of their
/// pair: a table (open addressing, at most half full) holds the first
/// roster of each key; a later one links to it, and the first to the first
/// later one.
fn link(keys: &[Keys], key: KeyOf, kind: usize, links: &mut [[u32; 2]]) {
    let count = keys.iter().filter(|k| key(k).is_some()).count();
    let bits = (2 * count.max(1)).next_power_of_two().trailing_zeros();
    let mask = (1 << bits) - 1;
    let mut table = vec![NONE; mask + 1];
    for (i, k) in keys.iter().enumerate() {
        let Some(k) = key(k) else { continue };
        let mut at = slot(k, bits);
        loop {
            let first = table[at];
            if first == NONE {
                table[at] = i as u32;
                break;
            }
            if key(&keys[first as usize]) == Some(k) {
                links[i][kind] = first;
                let its = &mut links[first as usize][kind];
                if *its == NONE {
                    *its = i as u32;
                }
                break;
            }
            at = (at + 1) & mask;
        }
    }
}

/// Where a key's search starts in a table of `2^bits` slots: the key
/// multiplied by an odd constant, the top bits, so that keys that are not
/// digests (as in the tests) spread too.
fn slot(k: u64, bits: u32) -> usize {
    let mixed = k.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (mixed >> (64 - bits)) as usize
}

/// The sets behind links given in roster order (each roster's by kind),
/// each once, ordered by their first member then kind: the first of a set
/// links to a later member, every other member to the first.
fn groups(links: impl Iterator<Item = (usize, Duplicate)>) -> Vec<DuplicateGroup> {
    let mut groups: Vec<DuplicateGroup> = Vec::new();
    for (i, d) in links {
        if d.other > i {
            groups.push(DuplicateGroup {
                kind: d.kind,
                members: vec![i],
            });
            continue;
        }
        let first = |g: &DuplicateGroup| (g.members.first().copied().unwrap_or(usize::MAX), g.kind);
        match groups.binary_search_by_key(&(d.other, d.kind), first) {
            Ok(at) => groups[at].members.push(i),
            // Links not made by `Links::find`: the first did not link on.
            Err(at) => groups.insert(
                at,
                DuplicateGroup {
                    kind: d.kind,
                    members: vec![d.other, i],
                },
            ),
        }
    }
    // Kept until the reports are written: no room to spare.
    for group in &mut groups {
        group.members.shrink_to_fit();
    }
    groups.shrink_to_fit();
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each roster's pair packs its two links, `NONE` standing for none:
    /// what `of` gives back is what was found, kind by kind.
    #[test]
    fn links_pack_both_kinds_and_none() {
        let keys = [
            Keys::new(Some(1), Some(7)),
            Keys::new(Some(1), None),
            Keys::new(None, Some(7)),
            Keys::new(Some(1), Some(8)),
            Keys::default(),
        ];
        let links = Links::find(&keys);
        let of =
            |i: usize| -> Vec<(DuplicateKind, usize)> { links.of(i).map(|d| (d.kind, d.other)).collect() };
        use DuplicateKind::*;
        assert_eq!(of(0), [(SamePlayer, 1), (SameList, 2)]);
        assert_eq!(of(1), [(SamePlayer, 0)]);
        assert_eq!(of(2), [(SameList, 0)]);
        assert_eq!(of(3), [(SamePlayer, 0)]);
        assert_eq!(of(4), []);
        assert_eq!(of(5), [], "past the end");
        assert_eq!(links.0[4], [NONE, NONE]);
        let groups = links.groups();
        assert_eq!(
            groups,
            [
                DuplicateGroup {
                    kind: SamePlayer,
                    members: vec![0, 1, 3]
                },
                DuplicateGroup {
                    kind: SameList,
                    members: vec![0, 2]
                },
            ]
        );
        assert_eq!(duplicate_groups(&links.to_vecs()), groups);
        assert!(Links::find(&[]).is_empty());
    }
}
