//! How names are normalized before they are compared. Plain `std`, so that
//! `build.rs` includes this file too and the manifest carries every list
//! name already normalized (a run does not normalize them again).

/// Lower case, one kind of quote, single spaces.
pub fn normalize(name: &str) -> String {
    if name.is_ascii() {
        normalize_ascii(name)
    } else {
        normalize_chars(name)
    }
}

/// [`normalize`] of any text, a character at a time.
pub(crate) fn normalize_chars(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for word in name.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        for c in word.chars() {
            match c {
                '\u{2018}' | '\u{2019}' | '`' => out.push('\''),
                '\u{00d7}' => out.push('x'),
                c if c.is_ascii() => out.push(c.to_ascii_lowercase()),
                c => out.extend(c.to_lowercase()),
            }
        }
    }
    out
}

/// [`normalize`] of ASCII text, a byte at a time (nearly every name, and
/// several times cheaper): the same words (`char::is_whitespace` of ASCII
/// is tab to carriage return, and space), the same characters.
fn normalize_ascii(text: &str) -> String {
    let name = text.as_bytes();
    // Nearly every name is already spaced as `normalize` leaves it (words
    // apart by one space, no other white space, no backtick): then it is
    // only lowered, which is a copy rather than a byte-by-byte rebuild.
    // Folds without an early exit, which the compiler turns into a few
    // instructions per 16 or 32 bytes.
    let controls = name
        .iter()
        .fold(false, |seen, &b| seen | (b < b' ') | (b == b'`'));
    let doubled = (name.iter().zip(name.iter().skip(1)))
        .fold(false, |seen, (&a, &b)| seen | ((a == b' ') & (b == b' ')));
    let tidy = !controls
        && !doubled
        && name.first().is_some_and(|&b| b != b' ')
        && name.last().is_some_and(|&b| b != b' ');
    if tidy {
        // A `String` lowered in place: no check that it is UTF-8 again.
        return text.to_ascii_lowercase();
    }
    let mut out = Vec::with_capacity(name.len());
    let mut gap = false;
    for &b in name {
        if b == b' ' || (0x09..=0x0d).contains(&b) {
            gap = !out.is_empty();
            continue;
        }
        if gap {
            out.push(b' ');
            gap = false;
        }
        out.push(match b {
            b'`' => b'\'',
            b => b.to_ascii_lowercase(),
        });
    }
    // ASCII in, ASCII out: always UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

/// Only letters and digits: "Land-Raider" and "land raider" meet here.
pub fn compact(normalized: &str) -> String {
    if normalized.is_ascii() {
        let mut kept = Vec::with_capacity(normalized.len());
        kept.extend(normalized.bytes().filter(u8::is_ascii_alphanumeric));
        // ASCII in, ASCII out: always UTF-8.
        String::from_utf8(kept).unwrap_or_default()
    } else {
        compact_chars(normalized)
    }
}

/// [`compact`] of any text, a character at a time.
pub(crate) fn compact_chars(normalized: &str) -> String {
    normalized.chars().filter(|c| c.is_alphanumeric()).collect()
}
