//! Duplicate submissions: the same player twice, or the same list twice.
//!
//! "The same list" is judged on the roster's text with what does not change
//! the army taken out: comments, blank lines, all spacing, letter case, and the
//! `Player:` and `Event:` lines (so one list sent under two names is found).
//! Duplicates are findings for the organiser; they do not make a roster
//! illegal.

use crate::catalogue::names;
use crate::check::Checked;
use std::collections::HashMap;
use std::collections::hash_map::Entry;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum DuplicateKind {
    /// Both rosters name the same player.
    SamePlayer,
    /// Both rosters hold the same list.
    SameList,
}

impl DuplicateKind {
    /// Stable text, used in the JSON and CSV reports.
    pub fn as_str(self) -> &'static str {
        match self {
            DuplicateKind::SamePlayer => "same-player",
            DuplicateKind::SameList => "same-list",
        }
    }
}

/// One roster's duplicate: which other result, and how they match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Duplicate {
    pub kind: DuplicateKind,
    /// Index of the other result.
    pub other: usize,
}

/// For each result, the results it duplicates, by kind then order, in
/// linear time and space: a group of identical rosters links each member
/// to the group's first, and the first to the second, so 2,000 copies of
/// one list give 2,000 links, not 4 million. [`duplicate_groups`] gives the groups.
pub fn duplicates(results: &[Checked<'_>]) -> Vec<Vec<Duplicate>> {
    let keys: Vec<Keys> = results.iter().map(Keys::of).collect();
    duplicates_of(&keys)
}

/// What [`duplicates`] compares of one roster: a digest of its player,
/// normalized, and the [`fingerprint`] of its list. Fixed size with nothing
/// on the heap, so a batch can keep these and let the results go.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Keys {
    pub player: Option<[u64; 2]>,
    pub list: Option<[u64; 2]>,
}

impl Keys {
    pub fn of(c: &Checked<'_>) -> Keys {
        Keys {
            player: c
                .header
                .player
                .as_ref()
                .map(|p| names::normalize(&p.value))
                .filter(|k| !k.is_empty())
                .map(|k| digest(k.as_bytes())),
            list: fingerprint(c).map(|f| [(f >> 64) as u64, f as u64]),
        }
    }
}

/// A 128-bit digest of `bytes`: two independent 64-bit lanes, each word
/// folded in by a full 64x64-bit multiplication; a collision in both is not
/// a concern at any number of rosters an event receives. Made here rather
/// than with SipHash twice, which was most of a roster's keys.
fn digest(bytes: &[u8]) -> [u64; 2] {
    const K: [u64; 4] = [
        0xa076_1d64_78bd_642f,
        0xe703_7ed1_a0b4_28db,
        0x8ebc_6af0_9c88_c6e3,
        0x5899_65cc_7537_4cc3,
    ];
    let fold = |x: u64, k: u64| {
        let p = u128::from(x) * u128::from(k);
        (p as u64) ^ ((p >> 64) as u64)
    };
    let (mut a, mut b) = (K[2], K[3]);
    let mut words = bytes.chunks_exact(8);
    let mut step = |w: u64| {
        a = fold(a ^ w, K[0]);
        b = fold(b ^ w.rotate_left(29), K[1]);
    };
    for w in &mut words {
        let mut word = [0u8; 8];
        word.copy_from_slice(w);
        step(u64::from_le_bytes(word));
    }
    let mut last = [0u8; 8];
    last[..words.remainder().len()].copy_from_slice(words.remainder());
    step(u64::from_le_bytes(last));
    step(bytes.len() as u64);
    [fold(a, K[1]), fold(b, K[0])]
}

/// Which of a roster's [`Keys`] a kind of duplicate compares.
type KeyOf = fn(&Keys) -> Option<[u64; 2]>;

/// [`duplicates`] from each roster's [`Keys`]. One kind at a time, with a
/// map from each key to the first two rosters that have it (nothing per
/// group beyond that), so a batch of many rosters needs little memory here.
pub fn duplicates_of(keys: &[Keys]) -> Vec<Vec<Duplicate>> {
    let mut found: Vec<Vec<Duplicate>> = vec![Vec::new(); keys.len()];
    // In `DuplicateKind` order, so each roster's links come out sorted by
    // kind; each roster has at most one link of each kind.
    let kinds: [(DuplicateKind, KeyOf); 2] = [
        (DuplicateKind::SamePlayer, |k| k.player),
        (DuplicateKind::SameList, |k| k.list),
    ];
    for (kind, key) in kinds {
        // The first roster with a key, and the second if there is one.
        let mut firsts: HashMap<Digest, (usize, Option<usize>), DigestHasher> =
            HashMap::with_capacity_and_hasher(keys.len(), DigestHasher);
        for (i, k) in keys.iter().enumerate() {
            if let Some(k) = key(k) {
                match firsts.entry(Digest(k)) {
                    Entry::Vacant(v) => {
                        v.insert((i, None));
                    }
                    Entry::Occupied(mut o) => {
                        o.get_mut().1.get_or_insert(i);
                    }
                }
            }
        }
        for (i, k) in keys.iter().enumerate() {
            let Some((first, Some(second))) = key(k).and_then(|k| firsts.get(&Digest(k)).copied()) else {
                continue;
            };
            // The first links to the second, every other member to the first.
            let other = if i == first { second } else { first };
            found[i].push(Duplicate { kind, other });
        }
    }
    found
}

/// A key of [`duplicates_of`]'s maps: a 128-bit digest, whose words are
/// already as mixed as a hash, so it is hashed by its first word and one
/// multiplication (SipHash over the 16 bytes was most of finding the
/// duplicates of a batch, all of it on one thread after the checks).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Digest([u64; 2]);

impl std::hash::Hash for Digest {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.0[0]);
    }
}

/// The hasher of [`Digest`] keys: the word written, multiplied by an odd
/// constant so that its high bits (which the map's tags use) vary even for
/// a key that is not a digest, as in the tests.
#[derive(Clone, Copy, Default)]
struct DigestHasher;

impl std::hash::BuildHasher for DigestHasher {
    type Hasher = WordHasher;
    fn build_hasher(&self) -> WordHasher {
        WordHasher(0)
    }
}

/// See [`DigestHasher`].
struct WordHasher(u64);

impl std::hash::Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Only `write_u64` is used by `Digest`; anything else is folded in.
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// A set of rosters that duplicate each other, in input order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateGroup {
    pub kind: DuplicateKind,
    pub members: Vec<usize>,
}

/// The groups behind [`duplicates`], each once, ordered by their first
/// member.
pub fn duplicate_groups(duplicates: &[Vec<Duplicate>]) -> Vec<DuplicateGroup> {
    // A member links to the first; the first links to a later member.
    let mut by_first: std::collections::BTreeMap<(usize, DuplicateKind), Vec<usize>> = Default::default();
    for (i, links) in duplicates.iter().enumerate() {
        for d in links {
            if d.other < i {
                by_first
                    .entry((d.other, d.kind))
                    .or_insert_with(|| vec![d.other])
                    .push(i);
            }
        }
    }
    by_first
        .into_iter()
        .map(|((_, kind), members)| DuplicateGroup { kind, members })
        .collect()
}

/// A digest of the roster's text with everything that does not change the
/// army left out; `None` for a roster that could not be read or holds
/// nothing. A digest, not the text, so memory does not grow with rosters;
/// the text is hashed as it is normalized, line by line, never copied whole.
pub fn fingerprint(c: &Checked<'_>) -> Option<u128> {
    let mut text = Vec::new();
    normalized_lines(c, &mut text)?;
    let [a, b] = (!text.is_empty()).then(|| digest(&text))?;
    Some((u128::from(a) << 64) | u128::from(b))
}

/// The roster's text as [`fingerprint`] compares it, into `out`, each line
/// with its line break; `None` when there is no text.
fn normalized_lines(c: &Checked<'_>, out: &mut Vec<u8>) -> Option<()> {
    let file = c.file.as_ref()?;
    // Lines naming the player, the event or Snapfire's force name do not
    // make a list different.
    let mut skip = [0usize; 3];
    for (slot, s) in skip
        .iter_mut()
        .zip([&c.header.player, &c.header.event, &c.header.title])
    {
        if let Some(s) = s {
            *slot = file.line_of(s.span.start);
        }
    }
    normalize_text(file.text(), &skip, out);
    Some(())
}

/// [`normalized_lines`] of `text`, leaving out the 1-based lines `skip`.
fn normalize_text(text: &str, skip: &[usize; 3], out: &mut Vec<u8>) {
    out.reserve(text.len());
    // NUL is kept as it is, so it takes the general path (it is no
    // roster's text: a file with one is refused as binary).
    if text.is_ascii() && !text.as_bytes().contains(&0) {
        ascii_lines(text.as_bytes(), skip, out);
        return;
    }
    let mut buffer = [0u8; 4];
    for (n, line) in text.lines().enumerate() {
        if skip.contains(&(n + 1)) {
            continue;
        }
        let line = line.split_once('#').map_or(line, |(before, _)| before);
        // Case and quotes as names are matched (`names::normalize`, written
        // straight into the text); spacing dropped altogether, so
        // `Tactical:Captain` and `Tactical : Captain` meet.
        let start = out.len();
        if line.is_ascii() {
            for b in line.bytes() {
                match b {
                    // `char::is_whitespace` of the ASCII characters.
                    b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r' => {}
                    b'`' => out.push(b'\''),
                    b => out.push(b.to_ascii_lowercase()),
                }
            }
        } else {
            let mut push = |c: char| out.extend_from_slice(c.encode_utf8(&mut buffer).as_bytes());
            for c in line.chars().filter(|c| !c.is_whitespace()) {
                match c {
                    '\u{2018}' | '\u{2019}' | '`' => push('\''),
                    '\u{00d7}' => push('x'),
                    c if c.is_ascii() => push(c.to_ascii_lowercase()),
                    c => c.to_lowercase().for_each(&mut push),
                }
            }
        }
        if out.len() > start {
            out.push(b'\n');
        }
    }
}

/// What [`ascii_lines`] writes for each ASCII byte: 0 for nothing (the
/// blanks of `char::is_whitespace`: tab to carriage return, and space),
/// else the byte lowercased, `` ` `` as `'`.
const ASCII_KEPT: [u8; 128] = {
    let mut table = [0u8; 128];
    let mut b = 0;
    while b < 128 {
        table[b] = match b as u8 {
            0x09..=0x0d | b' ' => 0,
            b'`' => b'\'',
            c => c.to_ascii_lowercase(),
        };
        b += 1;
    }
    table
};

/// [`normalized_lines`] of an ASCII text: each line up to its `#`, its
/// bytes mapped through [`ASCII_KEPT`] without a branch a byte.
fn ascii_lines(text: &[u8], skip: &[usize; 3], out: &mut Vec<u8>) {
    for (n, line) in text.split(|&b| b == b'\n').enumerate() {
        if skip.contains(&(n + 1)) {
            continue;
        }
        let line = line
            .iter()
            .position(|&b| b == b'#')
            .map_or(line, |at| &line[..at]);
        let start = out.len();
        out.resize(start + line.len() + 1, 0);
        let mut len = start;
        for &b in line {
            let kept = ASCII_KEPT[usize::from(b & 0x7f)];
            out[len] = kept;
            len += usize::from(kept != 0);
        }
        if len > start {
            out[len] = b'\n';
            len += 1;
        }
        out.truncate(len);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every group linked in a line, as `duplicates_of` promises, written
    /// the plain way: a list of members per key.
    fn by_groups(keys: &[Keys]) -> Vec<Vec<Duplicate>> {
        let mut found = vec![Vec::new(); keys.len()];
        for (kind, key) in [
            (
                DuplicateKind::SamePlayer,
                (|k: &Keys| k.player) as fn(&Keys) -> Option<[u64; 2]>,
            ),
            (DuplicateKind::SameList, |k: &Keys| k.list),
        ] {
            let mut groups: Vec<([u64; 2], Vec<usize>)> = Vec::new();
            for (i, k) in keys.iter().enumerate() {
                let Some(k) = key(k) else { continue };
                match groups.iter_mut().find(|(g, _)| *g == k) {
                    Some((_, members)) => members.push(i),
                    None => groups.push((k, vec![i])),
                }
            }
            for (_, group) in groups {
                let [first, second, ..] = group[..] else { continue };
                found[first].push(Duplicate { kind, other: second });
                for &member in &group[1..] {
                    found[member].push(Duplicate { kind, other: first });
                }
            }
        }
        for links in &mut found {
            links.sort_by_key(|d| (d.kind, d.other));
        }
        found
    }

    #[test]
    fn ascii_text_is_normalized_as_any_other() {
        let text = "Army: Codex Astartes\r\nPlayer: Ann\n\n  Tactical :  Captain, `x`  # two\n\t# only\nSUPREME\u{0b}Commander[100]\n";
        for text in [text, text.trim_end(), &text.replace('\n', "\r\n")] {
            let mut fast = Vec::new();
            normalize_text(text, &[2, 0, 0], &mut fast);
            // The same text with a letter past the comment mark takes the
            // general path; the comment is left out, so the result is the same.
            let mut general = Vec::new();
            normalize_text(&text.replace("# two", "# twö"), &[2, 0, 0], &mut general);
            assert_eq!(
                String::from_utf8_lossy(&fast),
                "army:codexastartes\ntactical:captain,'x'\nsupremecommander[100]\n"
            );
            assert_eq!(fast, general);
        }
    }

    #[test]
    fn groups_are_linked_in_a_line_whatever_the_order() {
        // Few distinct keys, so groups of every size, interleaved.
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let keys: Vec<Keys> = (0..500)
            .map(|_| {
                let (p, l) = (next() % 40, next() % 60);
                Keys {
                    player: (p < 35).then_some([p, 1]),
                    list: (l < 50).then_some([l, 2]),
                }
            })
            .collect();
        let found = duplicates_of(&keys);
        assert_eq!(
            found.iter().map(Vec::len).sum::<usize>(),
            by_groups(&keys).iter().map(Vec::len).sum::<usize>()
        );
        assert_eq!(found, by_groups(&keys));
        assert!(
            duplicates_of(&[Keys::default(), Keys::default()])
                .iter()
                .all(Vec::is_empty)
        );
    }
}
