//! The hand-written reader of roster lines: the same language as
//! `grammar/roster.pest`, read byte by byte with no backtracking beyond a
//! word, in a few instructions per byte.
//!
//! The pest grammar stays the documented truth: this reader accepts exactly
//! the lines the grammar accepts and builds the same pieces with the same
//! spans (`tests/it/roster_reader.rs` runs both over every test roster and
//! over generated ones). It never reports an error itself: a line it cannot
//! read goes to the pest parser, whose message is the diagnostic, so every
//! message and span stays the grammar's.
//!
//! Each function mirrors one rule; `skip` is pest's implicit whitespace
//! between the parts of a non-atomic rule. Positions are byte offsets into
//! the line. Every byte the grammar treats specially is ASCII, so a byte
//! that is part of a multi-byte character is always a letter here, and a
//! word never ends inside a character.

use super::syntax::{Body, HeaderKey, NativeLine};
use super::{Item, Spanned};
use crate::source::Span;

/// What each byte is to the grammar, one lookup a byte: `WHITESPACE`,
/// `name_char`, `value_char` (of a header's value).
const WS: u8 = 1;
const NAME: u8 = 2;
const VALUE: u8 = 4;
const CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match b as u8 {
            b' ' | b'\t' => WS,
            b'#' => 0,
            b',' | b':' | b'[' | b']' | b'=' => VALUE,
            _ => NAME | VALUE,
        };
        b += 1;
    }
    table
};

#[inline]
fn is_ws(b: u8) -> bool {
    CLASS[usize::from(b)] & WS != 0
}

/// `name_char`: anything but `, : [ ] # =` and blanks.
#[inline]
fn is_name(b: u8) -> bool {
    CLASS[usize::from(b)] & NAME != 0
}

/// `value_char`: anything but `#` and blanks.
#[inline]
fn is_value(b: u8) -> bool {
    CLASS[usize::from(b)] & VALUE != 0
}

/// The header keys a line may start with, by its first two bytes in either
/// case, in the grammar's order: the first key that matches is the one
/// taken. (`b | 0x20` is a letter's lower case, and no other byte's.)
fn keys_from(first: u8, second: u8) -> &'static [HeaderKey] {
    use HeaderKey::*;
    match (first | 0x20, second | 0x20) {
        (b'a', b'r') => &[Army],
        (b'a', b'l') => &[Allies, Ally],
        (b'l', b'i') => &[List, Limit],
        (b'p', b'o') => &[PointsLimit, Points],
        (b'p', b'l') => &[Player],
        (b'e', b'v') => &[Event],
        (b'v', b'e') => &[Version],
        (b's', b'c') => &[Scenario],
        (b's', b'i') => &[Side],
        (b'o', b'p') => &[OpponentPoints, OptionalRules],
        _ => &[],
    }
}

struct Reader<'a> {
    b: &'a [u8],
    text: &'a str,
    /// Where the line starts in the file, added to every span.
    offset: usize,
}

impl Reader<'_> {
    #[inline]
    fn at(&self, p: usize) -> Option<u8> {
        self.b.get(p).copied()
    }

    /// `WHITESPACE*`.
    #[inline]
    fn ws(&self, mut p: usize) -> usize {
        while self.at(p).is_some_and(is_ws) {
            p += 1;
        }
        p
    }

    /// `name_word`: one or more name characters or parenthesised parts;
    /// the end.
    #[inline]
    fn word(&self, p: usize) -> Option<usize> {
        let mut q = p;
        while let Some(b) = self.at(q).filter(|&b| is_name(b)) {
            q = if b == b'(' { self.paren_group(q) } else { q + 1 };
        }
        (q > p).then_some(q)
    }

    /// `paren_group` at the `(` at `p`: past its `)` when one comes before
    /// any `(` or `#`, else past the `(` alone (an ordinary name character).
    fn paren_group(&self, p: usize) -> usize {
        let rest = &self.b[p + 1..];
        match memchr::memchr3(b'(', b')', b'#', rest) {
            Some(i) if rest[i] == b')' => p + i + 2,
            _ => p + 1,
        }
    }

    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.offset + start, self.offset + end)
    }

    fn string(&self, start: usize, end: usize) -> Spanned<String> {
        Spanned::new(self.text[start..end].to_string(), self.span(start, end))
    }

    /// Case-insensitive ASCII literal, as pest's `^"..."`. Every literal
    /// of the grammar is lower-case letters and spaces, so a byte matches
    /// when it is the letter in either case (`| 0x20`, which makes a
    /// lower-case letter of its upper case and of nothing else) or the
    /// space itself (NUL is the one other byte that `| 0x20` makes a space).
    #[inline]
    fn literal_ci(&self, p: usize, lit: &str) -> Option<usize> {
        debug_assert!(lit.bytes().all(|b| b == b' ' || b.is_ascii_lowercase()));
        let end = p + lit.len();
        let slice = self.b.get(p..end)?;
        slice
            .iter()
            .zip(lit.bytes())
            .all(|(&a, b)| a | 0x20 == b && a != 0)
            .then_some(end)
    }

    /// `times`: `x`, `X` or `×`.
    #[inline]
    fn times(&self, p: usize) -> Option<usize> {
        match self.at(p)? {
            b'x' | b'X' => Some(p + 1),
            0xC3 if self.at(p + 1) == Some(0x97) => Some(p + 2),
            _ => None,
        }
    }

    /// `number`: one to nine digits, greedy; the end and the value.
    #[inline]
    fn number(&self, p: usize) -> Option<(usize, u32)> {
        let mut q = p;
        let mut value: u32 = 0;
        while q - p < 9 {
            match self.at(q) {
                Some(d @ b'0'..=b'9') => {
                    value = value * 10 + u32::from(d - b'0');
                    q += 1;
                }
                _ => break,
            }
        }
        (q > p).then_some((q, value))
    }

    /// `count_suffix`: `x2` not followed by a name character.
    fn count_suffix(&self, p: usize) -> Option<(usize, u32)> {
        let q = self.times(p)?;
        let (end, value) = self.number(q)?;
        if self.at(end).is_some_and(is_name) {
            return None;
        }
        Some((end, value))
    }

    /// `count_prefix`: `2x` or `2` followed by a blank.
    fn count_prefix(&self, p: usize) -> Option<(usize, u32)> {
        let (q, value) = self.number(p)?;
        if let Some(r) = self.times(q)
            && self.at(r).is_some_and(is_ws)
        {
            return Some((r, value));
        }
        self.at(q).is_some_and(is_ws).then_some((q, value))
    }

    /// `name`: words separated by blanks, ended by a count suffix that is
    /// followed by a blank, the end, `,`, `:`, `[` or `#`.
    fn name(&self, p: usize) -> Option<usize> {
        let mut end = self.word(p)?;
        loop {
            let q = self.ws(end);
            if q == end {
                return Some(end);
            }
            if let Some((s, _)) = self.count_suffix(q)
                && self
                    .at(s)
                    .is_none_or(|b| is_ws(b) || matches!(b, b',' | b':' | b'[' | b'#'))
            {
                return Some(end);
            }
            match self.word(q) {
                Some(e) => end = e,
                None => return Some(end),
            }
        }
    }

    /// `plain_name`: words separated by blanks.
    fn plain_name(&self, p: usize) -> Option<usize> {
        let mut end = self.word(p)?;
        loop {
            let q = self.ws(end);
            match (q > end).then(|| self.word(q)).flatten() {
                Some(e) => end = e,
                None => return Some(end),
            }
        }
    }

    /// `head_name`: names joined by commas (`Eldrad Ulthran, Farseer of
    /// Ulthwe`).
    fn head_name(&self, p: usize) -> Option<usize> {
        let mut end = self.name(p)?;
        while self.at(end) == Some(b',') {
            match self.name(self.ws(end + 1)) {
                Some(e) => end = e,
                None => break,
            }
        }
        Some(end)
    }

    /// `item`: a name with an optional count before or after it.
    fn item(&self, p: usize) -> Option<(usize, Item)> {
        self.counted(p, Self::name)
    }

    /// `head`: the entry's own name, commas and all, with its count.
    fn head(&self, p: usize) -> Option<(usize, Item)> {
        self.counted(p, Self::head_name)
    }

    /// A name read by `name_rule` with an optional count before or after it.
    fn counted(&self, p: usize, name_rule: fn(&Self, usize) -> Option<usize>) -> Option<(usize, Item)> {
        let mut count = None;
        let mut q = p;
        if let Some((e, value)) = self.count_prefix(p) {
            count = Some(value);
            q = self.ws(e);
        }
        let name_end = name_rule(self, q)?;
        let mut end = name_end;
        let r = self.ws(name_end);
        if r > name_end
            && let Some((s, value)) = self.count_suffix(r)
        {
            count = Some(value);
            end = s;
        }
        Some((
            end,
            Item {
                count: count.unwrap_or(1),
                counted: count.is_some(),
                name: self.string(q, name_end),
                span: self.span(p, end),
            },
        ))
    }

    /// `upgrades`: items separated by commas, with an optional last comma.
    fn upgrades(&self, p: usize) -> Option<(usize, Vec<Item>)> {
        let (mut end, first) = self.item(p)?;
        // Room for an item after each comma left on the line (a few at
        // most: a line of commas is not a list of upgrades).
        let commas = self.b[end..].iter().filter(|&&b| b == b',').count();
        let mut items = Vec::with_capacity(1 + commas.min(7));
        items.push(first);
        loop {
            let q = self.ws(end);
            if self.at(q) == Some(b',')
                && let Some((e, item)) = self.item(self.ws(q + 1))
            {
                end = e;
                items.push(item);
                continue;
            }
            break;
        }
        let q = self.ws(end);
        if self.at(q) == Some(b',') {
            end = q + 1;
        }
        Some((end, items))
    }

    /// `cost`: `[325]`, `[325 pts]`, `[325 points]`.
    fn cost(&self, p: usize) -> Option<(usize, Spanned<u32>)> {
        if self.at(p) != Some(b'[') {
            return None;
        }
        let (q, value) = self.number(self.ws(p + 1))?;
        let q = self.ws(q);
        let q = self
            .literal_ci(q, "points")
            .or_else(|| self.literal_ci(q, "pts"))
            .or_else(|| self.literal_ci(q, "pt"))
            .unwrap_or(q);
        let q = self.ws(q);
        if self.at(q) != Some(b']') {
            return None;
        }
        Some((q + 1, Spanned::new(value, self.span(p, q + 1))))
    }

    /// `entry`: an item, then a cost and upgrades in either order.
    fn entry(&self, p: usize) -> Option<(usize, Body)> {
        let (e, item) = self.head(p)?;
        let q = self.ws(e);
        let mut upgrades = Vec::new();
        if let Some((c, cost)) = self.cost(q) {
            let mut end = self.ws(c);
            if self.at(end) == Some(b':') {
                end = self.ws(end + 1);
                if let Some((u, items)) = self.upgrades(end) {
                    end = u;
                    upgrades = items;
                }
            }
            return Some((
                end,
                Body::Entry {
                    item,
                    upgrades,
                    cost: Some(cost),
                },
            ));
        }
        let mut end = q;
        if self.at(end) == Some(b':') {
            end = self.ws(end + 1);
            if let Some((u, items)) = self.upgrades(end) {
                end = u;
                upgrades = items;
            }
        }
        end = self.ws(end);
        let mut cost = None;
        if let Some((c, value)) = self.cost(end) {
            end = c;
            cost = Some(value);
        }
        Some((end, Body::Entry { item, upgrades, cost }))
    }

    /// `counts_as`: `Counts as: model = target`.
    fn counts_as(&self, p: usize) -> Option<(usize, Body)> {
        if self.at(p)? | 0x20 != b'c' {
            return None;
        }
        let q = self.ws(self.literal_ci(p, "counts as")?);
        if self.at(q) != Some(b':') {
            return None;
        }
        let model_start = self.ws(q + 1);
        let model_end = self.plain_name(model_start)?;
        let r = self.ws(model_end);
        if self.at(r) != Some(b'=') {
            return None;
        }
        let target_start = self.ws(r + 1);
        let target_end = self.plain_name(target_start)?;
        Some((
            target_end,
            Body::CountsAs {
                model: self.string(model_start, model_end),
                target: self.string(target_start, target_end),
            },
        ))
    }

    /// `header`: `Key: value`, the value's words up to a comment.
    fn header(&self, p: usize) -> Option<(usize, Body)> {
        let (k, key) = keys_from(self.at(p)?, self.at(p + 1)?)
            .iter()
            .find_map(|key| self.literal_ci(p, key.text()).map(|end| (end, *key)))?;
        let q = self.ws(k);
        if self.at(q) != Some(b':') {
            return None;
        }
        let start = self.ws(q + 1);
        let value_char = is_value;
        let mut end = start;
        while self.at(end).is_some_and(value_char) {
            end += 1;
        }
        if end > start {
            loop {
                let s = self.ws(end);
                if s > end && self.at(s).is_some_and(value_char) {
                    end = s;
                    while self.at(end).is_some_and(value_char) {
                        end += 1;
                    }
                } else {
                    break;
                }
            }
        }
        Some((
            end,
            Body::Header {
                key,
                value: self.string(start, end),
            },
        ))
    }

    /// `line`: indentation, a body, blanks, a comment, the end.
    fn line(&self) -> Option<NativeLine> {
        let indent_end = self.ws(0);
        // A tab counts four: one, and three more for each.
        let tabs = self.b[..indent_end].iter().filter(|&&b| b == b'\t').count();
        let indent = indent_end + 3 * tabs;
        let (end, body) = match self
            .counts_as(indent_end)
            .or_else(|| self.header(indent_end))
            .or_else(|| self.entry(indent_end))
        {
            Some((end, body)) => (end, Some(body)),
            None => (indent_end, None),
        };
        let end = self.ws(end);
        if end == self.b.len() || self.at(end) == Some(b'#') {
            Some(NativeLine { indent, body })
        } else {
            None
        }
    }
}

/// Reads one line of a native roster, or `None` when the grammar would not
/// accept it (the pest parser then says why).
pub(super) fn native_line(text: &str, offset: usize) -> Option<NativeLine> {
    Reader {
        b: text.as_bytes(),
        text,
        offset,
    }
    .line()
}

/// `snapfire_heading`: `TACTICAL [325]`; the item and the cost.
pub(super) fn snapfire_heading(text: &str, offset: usize) -> Option<(Item, Spanned<u32>)> {
    let r = Reader {
        b: text.as_bytes(),
        text,
        offset,
    };
    let (e, item) = r.item(r.ws(0))?;
    let (c, cost) = r.cost(r.ws(e))?;
    (r.ws(c) == text.len()).then_some((item, cost))
}

/// `snapfire_details`: `6 Tacticals plus transport, Captain, Rhinos`.
pub(super) fn snapfire_details(text: &str, offset: usize) -> Option<Vec<Item>> {
    let r = Reader {
        b: text.as_bytes(),
        text,
        offset,
    };
    let (e, items) = r.upgrades(r.ws(0))?;
    (r.ws(e) == text.len()).then_some(items)
}

/// `snapfire_rule`: three or more `=` and nothing but blanks after them.
pub(super) fn snapfire_rule(text: &str) -> bool {
    let b = text.as_bytes();
    let rule = b.iter().take_while(|&&c| c == b'=').count();
    rule >= 3 && b[rule..].iter().all(|&c| is_ws(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `keys_from` offers every key the grammar has, under its first
    /// letter in either case, in the grammar's order.
    #[test]
    fn header_keys_by_first_letter_keep_the_grammar_order() {
        for key in HeaderKey::ALL {
            let [a, b, ..] = *key.text().as_bytes() else {
                panic!("{key:?}")
            };
            let in_grammar: Vec<HeaderKey> = HeaderKey::ALL
                .into_iter()
                .filter(|k| k.text().as_bytes()[..2] == [a, b])
                .collect();
            for (x, y) in [(a, b), (a.to_ascii_uppercase(), b), (a, b.to_ascii_uppercase())] {
                assert_eq!(keys_from(x, y), &in_grammar[..], "{key:?}");
            }
        }
        // Nothing offered for any other pair.
        for x in 0..=255u8 {
            for y in 0..=255u8 {
                let offered = keys_from(x, y);
                assert!(
                    offered
                        .iter()
                        .all(|k| k.text().as_bytes()[..2].eq_ignore_ascii_case(&[x, y]))
                );
            }
        }
    }
}
