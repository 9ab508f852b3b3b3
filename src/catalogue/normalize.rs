//! How names are normalized before they are compared. Plain `std`, so that
//! `build.rs` includes this file too and the manifest carries every list
//! name already normalized (a run does not normalize them again).

/// Lower case, one kind of quote, single spaces.
pub fn normalize(name: &str) -> String {
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

/// Only letters and digits: "Land-Raider" and "land raider" meet here.
pub fn compact(normalized: &str) -> String {
    normalized.chars().filter(|c| c.is_alphanumeric()).collect()
}
