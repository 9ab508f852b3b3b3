//! muster's own share link: the roster text itself, deflated and written
//! in URL-safe base64 (RFC 4648 §5, no padding) in the `r` query value of
//! a muster server's address, after the format's version:
//! `http://127.0.0.1:8080/?r=1.PAYLOAD`. Any muster server opens it on the
//! same roster (the address before `?` only says which server); the link
//! carries the text, not ids, so it serves every game and keeps comments,
//! the player's name and lines muster cannot read yet.
//!
//! Reading is bounded: the link at [`MAX_LINK_BYTES`], the inflated text
//! at [`MAX_TEXT_BYTES`] (read through a cap, whatever the stream claims),
//! and the text must be UTF-8.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use flate2::Compression;
use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;
use std::io::{Read as _, Write as _};

/// The query key that holds the roster.
pub const KEY: &str = "r";
/// The version of the format, written before the payload (`1.`): a `.` is
/// not in the base64url alphabet, so a later format can be told apart.
pub const VERSION: &str = "1.";
/// Where `muster roster --share` points when no server is named: the
/// address `muster serve` listens on by default.
pub const DEFAULT_BASE: &str = "http://127.0.0.1:8080/";
/// The longest link read. A 3,000-point roster makes a link of well under
/// 1 KiB.
pub const MAX_LINK_BYTES: usize = 64 * 1024;
/// The longest roster text a link may unpack to (a roster file's limit).
pub const MAX_TEXT_BYTES: usize = 1024 * 1024;

/// Why a link could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    #[error("the share link is longer than {} KiB", MAX_LINK_BYTES / 1024)]
    TooLong,
    #[error("the share link holds no roster (`r=1.` and the roster are missing)")]
    NoRoster,
    #[error("the share link was made by a newer muster (format `{0}`); update muster to open it")]
    Version(String),
    #[error("the share link is cut short or altered: its roster cannot be unpacked")]
    Damaged,
    #[error("the share link's roster is larger than {} MiB", MAX_TEXT_BYTES / (1024 * 1024))]
    TooLarge,
    #[error("the share link's roster is not text (not UTF-8)")]
    NotText,
}

/// The payload of `text`: `1.` and the deflated text in base64url.
pub fn encode(text: &str) -> String {
    let mut encoder = DeflateEncoder::new(Vec::new(), Compression::best());
    // Writing into a Vec cannot fail.
    let packed: Vec<u8> = encoder
        .write_all(text.as_bytes())
        .and_then(|()| encoder.finish())
        .unwrap_or_default();
    format!("{VERSION}{}", URL_SAFE_NO_PAD.encode(packed))
}

/// The share link of `text` on the muster server at `base` (its address;
/// a query of its own is kept, the roster added after it).
pub fn link(base: &str, text: &str) -> String {
    let separator = if base.contains('?') { '&' } else { '?' };
    format!("{base}{separator}{KEY}={}", encode(text))
}

/// The roster text a payload (`1.…`) holds.
pub fn decode(payload: &str) -> Result<String, LinkError> {
    let payload = payload.trim();
    if payload.len() > MAX_LINK_BYTES {
        return Err(LinkError::TooLong);
    }
    let Some(data) = payload.strip_prefix(VERSION) else {
        return Err(match payload.split_once('.') {
            Some((version, _)) if !version.is_empty() && version.len() <= 8 => {
                LinkError::Version(version.to_string())
            }
            _ if payload.is_empty() => LinkError::NoRoster,
            _ => LinkError::Damaged,
        });
    };
    // A link copied from a page may have its padding or `=` escaped.
    let data = data.trim_end_matches('=').trim_end_matches("%3D");
    let packed = URL_SAFE_NO_PAD.decode(data).map_err(|_| LinkError::Damaged)?;
    let mut text = Vec::new();
    let limit = u64::try_from(MAX_TEXT_BYTES).unwrap_or(u64::MAX) + 1;
    DeflateDecoder::new(packed.as_slice())
        .take(limit)
        .read_to_end(&mut text)
        .map_err(|_| LinkError::Damaged)?;
    if text.len() > MAX_TEXT_BYTES {
        return Err(LinkError::TooLarge);
    }
    String::from_utf8(text).map_err(|_| LinkError::NotText)
}

/// The payload of a link: the value of its `r` key, from a whole address
/// or from its query alone (`?r=…`, `r=…`).
pub fn payload(link: &str) -> Option<&str> {
    let link = link.trim();
    let query = match link.split_once('?') {
        Some((_, query)) => query,
        None => link,
    };
    let query = query.split('#').next().unwrap_or_default();
    query.split('&').find_map(|pair| {
        let (key, value) = pair.split_once('=')?;
        (key == KEY).then_some(value)
    })
}

/// Whether `text` is a muster share link (one line holding `r=1.`, or a
/// later format's `r=N.`), not roster text.
pub fn is_link(text: &str) -> bool {
    let text = text.trim();
    !text.contains('\n')
        && !text.contains(' ')
        && payload(text).is_some_and(|p| {
            p.split_once('.')
                .is_some_and(|(v, _)| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
        })
}

/// The roster text of a whole link.
pub fn read(link: &str) -> Result<String, LinkError> {
    if link.len() > MAX_LINK_BYTES {
        return Err(LinkError::TooLong);
    }
    decode(payload(link).ok_or(LinkError::NoRoster)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROSTER: &str = "Army: NetEpic Eldar (5.0)\nPoints: 3000\nPlayer: Ann ~ & ? = + /\n\nEldrad Ulthran, Farseer of Ulthwe\n# a comment: ünïcödé\n";

    #[test]
    fn a_link_reads_back_the_same_text() {
        let link = link(DEFAULT_BASE, ROSTER);
        assert!(link.starts_with("http://127.0.0.1:8080/?r=1."), "{link}");
        let query = link.split_once('?').map(|(_, q)| q).unwrap_or_default();
        assert!(
            query
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_.=".contains(&b)),
            "URL-safe: {query}"
        );
        assert!(is_link(&link));
        assert_eq!(read(&link).as_deref(), Ok(ROSTER));
        assert_eq!(read(&format!("  {link}  ")).as_deref(), Ok(ROSTER));
        // The query alone, or after other keys of the server's own.
        assert_eq!(read(&format!("?r={}", encode(ROSTER))).as_deref(), Ok(ROSTER));
        let other = super::link("https://club.example/muster/?lang=en", ROSTER);
        assert!(other.contains("?lang=en&r=1."), "{other}");
        assert_eq!(read(&other).as_deref(), Ok(ROSTER));
        assert_eq!(decode(&encode("")).as_deref(), Ok(""));
    }

    #[test]
    fn a_link_is_compressed() {
        let big = "Tactical: Rhinos, Dreadnought\n".repeat(40);
        assert!(encode(&big).len() < big.len() / 4, "{}", encode(&big).len());
    }

    #[test]
    fn roster_text_and_other_links_are_not_muster_links() {
        assert!(!is_link(ROSTER));
        assert!(!is_link("Points: 3000"));
        assert!(!is_link(
            "https://example.org/chooser.html?list=SM_codex_NETEA&force=x~1"
        ));
        assert!(!is_link("http://127.0.0.1:8080/?roster=Army%3A+x"));
        assert!(is_link("http://127.0.0.1:8080/?r=2.abc"));
    }

    #[test]
    fn a_damaged_link_says_why() {
        let good = encode(ROSTER);
        assert_eq!(read("http://h/?x=1"), Err(LinkError::NoRoster));
        assert_eq!(read("http://h/?r="), Err(LinkError::NoRoster));
        assert_eq!(read("http://h/?r=2.AAAA"), Err(LinkError::Version("2".into())));
        assert_eq!(decode(&good[..good.len() / 2]), Err(LinkError::Damaged));
        assert_eq!(decode("1.!!!"), Err(LinkError::Damaged));
        assert_eq!(decode("zzz"), Err(LinkError::Damaged));
        assert_eq!(read(&"a".repeat(MAX_LINK_BYTES + 1)), Err(LinkError::TooLong));
        let mut latin = DeflateEncoder::new(Vec::new(), Compression::fast());
        latin.write_all(b"Army: \xe9").expect("vec");
        let latin = format!("1.{}", URL_SAFE_NO_PAD.encode(latin.finish().expect("vec")));
        assert_eq!(decode(&latin), Err(LinkError::NotText));
    }

    #[test]
    fn a_bomb_stops_at_the_cap() {
        // 4 MiB of one byte packs into a few KiB.
        let bomb = encode(&"a".repeat(4 * MAX_TEXT_BYTES));
        assert!(bomb.len() < MAX_LINK_BYTES);
        assert_eq!(decode(&bomb), Err(LinkError::TooLarge));
        let fits = "a".repeat(MAX_TEXT_BYTES);
        assert_eq!(decode(&encode(&fits)).map(|t| t.len()), Ok(MAX_TEXT_BYTES));
    }
}
