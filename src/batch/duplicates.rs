//! Duplicate submissions: the same player twice, or the same list twice.
//!
//! "The same list" is judged on the roster's text with what does not change
//! the army taken out: comments, blank lines, all spacing, letter case, and the
//! `Player:` and `Event:` lines (so one list sent under two names is found).
//! Duplicates are findings for the organiser; they do not make a roster
//! illegal.

use crate::catalogue::names;
use crate::check::Checked;

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

/// What [`super::duplicates`] compares of one roster: a digest of its player,
/// normalized, and the [`fingerprint`] of its list, each folded to 64
/// bits. Fixed size with nothing on the heap, so a batch can keep these
/// and let the results go; packed, a missing key [`NO_KEY`] rather than
/// `None`: 16 bytes a roster where two optional 128-bit digests were 48.
/// Two different lists (or players) in a batch of 100,000 have one
/// chance in 3,700,000,000 of a digest in common.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keys {
    player: u64,
    list: u64,
}

/// A missing key. A digest that folds to it (one chance in 2^64) is kept
/// as 1, as if it were that one.
const NO_KEY: u64 = 0;

fn pack(key: Option<u64>) -> u64 {
    match key {
        None => NO_KEY,
        Some(NO_KEY) => 1,
        Some(key) => key,
    }
}

fn unpack(key: u64) -> Option<u64> {
    (key != NO_KEY).then_some(key)
}

/// A 128-bit digest folded to 64 bits: its two lanes are independent
/// digests, so their exclusive or is as good as either.
fn fold_lanes([a, b]: [u64; 2]) -> u64 {
    a ^ b
}

impl Default for Keys {
    fn default() -> Keys {
        Keys::new(None, None)
    }
}

impl Keys {
    pub fn new(player: Option<u64>, list: Option<u64>) -> Keys {
        Keys {
            player: pack(player),
            list: pack(list),
        }
    }

    /// The digest of the player, normalized, if the roster names one.
    pub fn player(&self) -> Option<u64> {
        unpack(self.player)
    }

    /// The [`fingerprint`] of the list, if the roster holds one.
    pub fn list(&self) -> Option<u64> {
        unpack(self.list)
    }

    pub fn of(c: &Checked<'_>) -> Keys {
        let player = c
            .header
            .player
            .as_ref()
            .map(|p| names::normalize(&p.value))
            .filter(|k| !k.is_empty())
            .map(|k| fold_lanes(digest(k.as_bytes())));
        let list = fingerprint(c).map(|f| fold_lanes([(f >> 64) as u64, f as u64]));
        Keys::new(player, list)
    }
}

/// A 128-bit digest of `bytes`: two independent 64-bit lanes, each word
/// folded in by a full 64x64-bit multiplication; a collision in both is not
/// a concern at any number of rosters an event receives. Made here rather
/// than with SipHash twice, which was most of a roster's keys.
fn digest(bytes: &[u8]) -> [u64; 2] {
    Digest::new().finish(bytes)
}

const K: [u64; 4] = [
    0xa076_1d64_78bd_642f,
    0xe703_7ed1_a0b4_28db,
    0x8ebc_6af0_9c88_c6e3,
    0x5899_65cc_7537_4cc3,
];

#[inline]
fn fold(x: u64, k: u64) -> u64 {
    let p = u128::from(x) * u128::from(k);
    (p as u64) ^ ((p >> 64) as u64)
}

/// [`digest`] fed a piece at a time: whole words as they come, then the
/// rest; the same value as `digest` of the pieces joined.
struct Digest {
    a: u64,
    b: u64,
    len: u64,
}

impl Digest {
    fn new() -> Digest {
        Digest {
            a: K[2],
            b: K[3],
            len: 0,
        }
    }

    #[inline]
    fn word(&mut self, w: u64) {
        self.a = fold(self.a ^ w, K[0]);
        self.b = fold(self.b ^ w.rotate_left(29), K[1]);
    }

    /// Whole words: `bytes` is a multiple of eight long.
    fn words(&mut self, bytes: &[u8]) {
        for w in bytes.chunks_exact(8) {
            self.word(word_at(w, 0));
        }
        self.len += bytes.len() as u64;
    }

    /// The last piece, any length, and the digest.
    fn finish(mut self, bytes: &[u8]) -> [u64; 2] {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.word(word_at(w, 0));
        }
        let mut last = [0u8; 8];
        last[..words.remainder().len()].copy_from_slice(words.remainder());
        self.word(u64::from_le_bytes(last));
        self.word(self.len + bytes.len() as u64);
        [fold(self.a, K[1]), fold(self.b, K[0])]
    }
}

/// The eight bytes of `b` from `at` as a little-endian word, past its end
/// filled with line breaks (which end the last line, as the end does).
#[inline]
fn word_at(b: &[u8], at: usize) -> u64 {
    let mut word = [b'\n'; 8];
    match b.get(at..at + 8) {
        Some(w) => word.copy_from_slice(w),
        None => {
            let rest = b.get(at..).unwrap_or_default();
            word[..rest.len()].copy_from_slice(rest);
        }
    }
    u64::from_le_bytes(word)
}

/// A set of rosters that duplicate each other, in input order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateGroup {
    pub kind: DuplicateKind,
    pub members: Vec<usize>,
}

/// A digest of the roster's text with everything that does not change the
/// army left out; `None` for a roster that could not be read or holds
/// nothing. A digest, not the text, so memory does not grow with rosters;
/// the text is hashed as it is normalized, never copied whole.
pub fn fingerprint(c: &Checked<'_>) -> Option<u128> {
    let file = c.file.as_ref()?;
    // Lines naming the player, the event or Snapfire's force name do not
    // make a list different: where they start.
    let mut skip = [usize::MAX; 3];
    for (slot, s) in skip
        .iter_mut()
        .zip([&c.header.player, &c.header.event, &c.header.title])
    {
        if let Some(s) = s {
            let line = file.line_of(s.span.start);
            *slot = line
                .checked_sub(1)
                .and_then(|i| file.line_starts().get(i).copied())
                .unwrap_or(usize::MAX);
        }
    }
    let [a, b] = text_digest(file.text(), &skip)?;
    Some((u128::from(a) << 64) | u128::from(b))
}

/// The [`digest`] of `text` as [`normalize_text`] makes it, leaving out
/// the lines that start at `skip`; `None` when nothing is left.
fn text_digest(text: &str, skip: &[usize; 3]) -> Option<[u64; 2]> {
    if let Some(ascii) = ascii_digest(text.as_bytes(), skip) {
        return ascii;
    }
    let mut out = Vec::with_capacity(text.len());
    normalize_text(text, skip, &mut out);
    (!out.is_empty()).then(|| digest(&out))
}

/// The roster's text as [`fingerprint`] compares it, into `out`: each
/// line (but those that start at `skip`) up to its `#`, without spacing,
/// lowercased as names are (`names::normalize`: quotes alike, `×` as
/// `x`), and a line break after each line that keeps anything. So
/// `Tactical:Captain` and `Tactical : Captain` meet. The reference
/// [`ascii_digest`] is tested against, and the path of a text that is not
/// ASCII.
fn normalize_text(text: &str, skip: &[usize; 3], out: &mut Vec<u8>) {
    let mut buffer = [0u8; 4];
    let mut start = 0;
    for piece in text.split_inclusive('\n') {
        let line_start = start;
        start += piece.len();
        if skip.contains(&line_start) {
            continue;
        }
        let line = piece.strip_suffix('\n').unwrap_or(piece);
        let line = line.split_once('#').map_or(line, |(before, _)| before);
        let before = out.len();
        let mut push = |c: char| out.extend_from_slice(c.encode_utf8(&mut buffer).as_bytes());
        for c in line.chars().filter(|c| !c.is_whitespace()) {
            match c {
                '\u{2018}' | '\u{2019}' | '`' => push('\''),
                '\u{00d7}' => push('x'),
                c if c.is_ascii() => push(c.to_ascii_lowercase()),
                c => c.to_lowercase().for_each(&mut push),
            }
        }
        if out.len() > before {
            out.push(b'\n');
        }
    }
}

const ONES: u64 = 0x0101_0101_0101_0101;
const TOP: u64 = 0x8080_8080_8080_8080;
const LOW: u64 = !TOP;

/// The top bit of each byte of `x` that is zero, exact in the lowest one
/// (a byte above a zero one may be marked too: only the lowest is used).
#[inline]
fn zero_bytes(x: u64) -> u64 {
    x.wrapping_sub(ONES) & !x & TOP
}

/// The first `\n` at or after `p`, or the end.
fn next_newline(t: &[u8], p: usize) -> usize {
    let rest = t.get(p..).unwrap_or_default();
    memchr::memchr(b'\n', rest).map_or(t.len(), |i| p + i)
}

/// [`text_digest`] of an ASCII text, eight bytes at a time: each word
/// lowercased, its spaces squeezed out as it is copied into a small
/// buffer that is digested whenever it fills; a line break, a tab or other
/// control byte, a `#`, a `` ` `` or the end is met one at a time. `None`
/// at the first byte that is not ASCII (outside a comment): the text then
/// goes the general way.
fn ascii_digest(t: &[u8], skip: &[usize; 3]) -> Option<Option<[u64; 2]>> {
    const FLUSH: usize = 256;
    let end = t.len();
    let mut buf = [0u8; FLUSH + 32];
    let mut len = 0;
    let mut digest = Digest::new();
    // Bytes digested so far.
    let mut flushed = 0;
    let mut p = 0;
    'lines: while p <= end {
        // At a line's start: leave out the lines not compared.
        if skip.contains(&p) {
            p = next_newline(t, p) + 1;
            continue;
        }
        // What was written before this line.
        let line_from = flushed + len;
        loop {
            if len >= FLUSH {
                digest.words(&buf[..FLUSH]);
                buf.copy_within(FLUSH..len, 0);
                len -= FLUSH;
                flushed += FLUSH;
            }
            let x = match t.get(p..p + 8).and_then(|w| <[u8; 8]>::try_from(w).ok()) {
                Some(w) => u64::from_le_bytes(w),
                None => word_at(t, p),
            };
            // For each ASCII byte (the top bit of its byte): at least a
            // space, at least `!`, an upper-case letter. A byte that is not
            // ASCII is special, and nothing after a special byte is used.
            let low = x & LOW;
            let blank_or_more = (low + ONES * (0x80 - 0x20)) & TOP;
            let printable = (low + ONES * (0x80 - 0x21)) & TOP;
            let upper = (low + ONES * (0x80 - 0x41)) & !(low + ONES * (0x80 - 0x5b)) & TOP;
            let special = ((x | !blank_or_more) & TOP)
                | zero_bytes(x ^ (ONES * u64::from(b'#')))
                | zero_bytes(x ^ (ONES * u64::from(b'`')));
            let kept = x | (upper >> 2);
            // The bytes up to the first special one, spaces left out.
            let n = (special.trailing_zeros() / 8) as usize;
            let mut from = 0;
            let mut gaps = blank_or_more & !printable & special.wrapping_sub(1) & !special;
            while gaps != 0 {
                let at = (gaps.trailing_zeros() / 8) as usize;
                buf[len..len + 8].copy_from_slice(&(kept >> (8 * from)).to_le_bytes());
                len += at - from;
                from = at + 1;
                gaps &= gaps - 1;
            }
            if from < n {
                buf[len..len + 8].copy_from_slice(&(kept >> (8 * from)).to_le_bytes());
                len += n - from;
            }
            p += n;
            if n == 8 {
                continue;
            }
            match t.get(p) {
                // The end of a line, or of the text; a comment runs to it.
                None | Some(b'\n' | b'#') => {
                    p = next_newline(t, p);
                    if flushed + len > line_from {
                        buf[len] = b'\n';
                        len += 1;
                    }
                    p += 1;
                    continue 'lines;
                }
                Some(b'`') => {
                    buf[len] = b'\'';
                    len += 1;
                    p += 1;
                }
                Some(&b) if !b.is_ascii() => return None,
                // The other blanks of `char::is_whitespace`.
                Some(b'\t' | 0x0b | 0x0c | b'\r') => p += 1,
                // Any other control byte is kept as it is.
                Some(&b) => {
                    buf[len] = b;
                    len += 1;
                    p += 1;
                }
            }
        }
    }
    Some((flushed + len > 0).then(|| digest.finish(&buf[..len])))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::duplicates_of;

    /// Every group linked in a line, as `duplicates_of` promises, written
    /// the plain way: a list of members per key.
    fn by_groups(keys: &[Keys]) -> Vec<Vec<Duplicate>> {
        let mut found = vec![Vec::new(); keys.len()];
        for (kind, key) in [
            (
                DuplicateKind::SamePlayer,
                Keys::player as fn(&Keys) -> Option<u64>,
            ),
            (DuplicateKind::SameList, Keys::list),
        ] {
            let mut groups: Vec<(u64, Vec<usize>)> = Vec::new();
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

    /// Where 1-based line `n` of `text` starts.
    fn start_of(text: &str, n: usize) -> usize {
        std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .nth(n - 1)
            .unwrap_or(usize::MAX)
    }

    /// The general way: the text normalized, then digested whole.
    fn general(text: &str, skip: &[usize; 3]) -> Option<[u64; 2]> {
        let mut out = Vec::new();
        normalize_text(text, skip, &mut out);
        (!out.is_empty()).then(|| digest(&out))
    }

    #[test]
    fn text_is_normalized_without_spacing_case_comments_and_skipped_lines() {
        let text = "Army: Codex Astartes\r\nPlayer: Ann\n\n  Tactical :  Captain, `x`  # two\n\t# only\nSUPREME\u{0b}Commander[100]\n";
        for text in [text, text.trim_end(), &text.replace('\n', "\r\n")] {
            let skip = [start_of(text, 2), usize::MAX, usize::MAX];
            let mut out = Vec::new();
            normalize_text(text, &skip, &mut out);
            assert_eq!(
                String::from_utf8_lossy(&out),
                "army:codexastartes\ntactical:captain,'x'\nsupremecommander[100]\n"
            );
            // The word-at-a-time way gives the digest of the same bytes, and
            // so does a letter that is not ASCII past the comment mark.
            assert_eq!(ascii_digest(text.as_bytes(), &skip), Some(Some(digest(&out))));
            let accented = text.replace("# two", "# tw\u{f6}");
            assert_eq!(ascii_digest(accented.as_bytes(), &skip), Some(Some(digest(&out))));
            // One outside a comment: the general way.
            assert_eq!(ascii_digest("Tactical: Capt\u{e4}in".as_bytes(), &skip), None);
        }
        assert_eq!(text_digest("", &[usize::MAX; 3]), None);
        assert_eq!(text_digest(" \t\n# only a comment\n\r\n", &[usize::MAX; 3]), None);
        assert_eq!(text_digest("Player: Ann\n", &[0, usize::MAX, usize::MAX]), None);
    }

    /// The word-at-a-time digest against the general way on texts made of
    /// the bytes it treats apart, every length across word and buffer
    /// boundaries, with lines left out.
    #[test]
    fn ascii_digest_is_the_digest_of_the_normalized_text() {
        const PIECES: &[&str] = &[
            " ",
            "  ",
            "\t",
            "\r",
            "\n",
            "\r\n",
            "\u{0b}",
            "\u{0c}",
            "\u{1}",
            "\u{1f}",
            "\u{7f}",
            "\0",
            "#",
            "# c ",
            "`",
            "'",
            "A",
            "Z",
            "a",
            "z",
            "@",
            "[",
            "^",
            "{",
            "Tactical",
            "LAND RAIDER",
            "2x",
            ",",
            ":",
            "[325]",
            "x\u{e9}",
        ];
        let mut state = 0x2545_F491_4F6C_DD1D_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for n in 0..3_000 {
            let mut text = String::new();
            let pieces = 1 + next() % if n % 10 == 0 { 400 } else { 40 };
            for _ in 0..pieces {
                // Mostly ASCII; one text in a few has a letter that is not.
                let k = next() as usize % PIECES.len();
                if PIECES[k] != "x\u{e9}" || n % 4 == 0 {
                    text.push_str(PIECES[k]);
                }
            }
            let lines = text.matches('\n').count() + 1;
            let mut skip = [usize::MAX; 3];
            for slot in skip.iter_mut().take(next() as usize % 4) {
                *slot = start_of(&text, 1 + next() as usize % lines);
            }
            let want = general(&text, &skip);
            assert_eq!(text_digest(&text, &skip), want, "{text:?} {skip:?}");
            if let Some(fast) = ascii_digest(text.as_bytes(), &skip) {
                assert_eq!(fast, want, "{text:?} {skip:?}");
            } else {
                assert!(!text.is_ascii(), "{text:?}");
            }
        }
    }

    /// Keys come back as they were made; a missing one is the sentinel, and
    /// a digest that is the sentinel stays a key (as `[0, 1]`).
    #[test]
    fn keys_pack_a_missing_key_as_the_sentinel() {
        for key in [None, Some(1), Some(2), Some(u64::MAX), Some(1 << 63)] {
            for other in [None, Some(5)] {
                let keys = Keys::new(key, other);
                assert_eq!((keys.player(), keys.list()), (key, other));
                let keys = Keys::new(other, key);
                assert_eq!((keys.player(), keys.list()), (other, key));
            }
        }
        let zero = Keys::new(Some(NO_KEY), Some(NO_KEY));
        assert_eq!((zero.player(), zero.list()), (Some(1), Some(1)));
        assert_eq!(Keys::default(), Keys::new(None, None));
        assert_eq!((Keys::default().player(), Keys::default().list()), (None, None));
        assert_eq!(std::mem::size_of::<Keys>(), 16);
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
                Keys::new((p < 35).then_some(p + 1), (l < 50).then_some(l + 100))
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
