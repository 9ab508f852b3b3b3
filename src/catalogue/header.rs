//! What a `--lists` file says of itself at its top: its top-level keys
//! (which tell its kind) and the values of the few that tell which list
//! it is (`game`, `id`, `name`, `aliases`, `imports`), read without
//! parsing the rest, so that a check reads in full only the files its
//! roster's list needs (issue 33: parsing and checking every file of a
//! folder was most of a `--lists` check).
//!
//! The scan is sure or says nothing: each line at column 0 must be blank,
//! a comment or a plain `key:`; the lines of the keys read (their first
//! line and the indented ones under it) are then read by the same YAML
//! reader as the whole file (`super::yaml`), so a value means what it
//! means there. Anything else (a flow mapping at the top, a `---`, a
//! quoted or merged key, a key given twice, a tab or a line break YAML
//! and a text scan could disagree on) leaves the file to be read whole.

use rustc_hash::FxHashSet;
use serde_json::Value;

/// The top-level keys whose values are read.
const READ: [&str; 5] = ["game", "id", "name", "aliases", "imports"];

/// A file's top-level keys, and the values of those in [`READ`].
#[derive(Debug)]
pub(crate) struct Header<'a> {
    pub keys: Vec<&'a str>,
    /// A mapping of the keys of [`READ`] the file has.
    pub value: Value,
}

impl Header<'_> {
    pub fn has(&self, key: &str) -> bool {
        self.keys.contains(&key)
    }
}

/// The header of `text`, or `None` when a scan cannot be sure of it.
pub(crate) fn read(text: &str) -> Option<Header<'_>> {
    // Characters some reader might take for a line break (or a mark
    // before the first key), and a carriage return not before a newline.
    if text.contains(['\u{85}', '\u{2028}', '\u{2029}', '\u{feff}'])
        || (text.contains('\r')
            && text
                .split('\n')
                .any(|l| l.strip_suffix('\r').unwrap_or(l).contains('\r')))
    {
        return None;
    }
    let mut keys: Vec<&str> = Vec::new();
    // A hostile file may have many thousands of keys: no linear search.
    let mut seen: FxHashSet<&str> = FxHashSet::default();
    let mut read = String::new();
    let mut reading = false;
    for line in text.split_inclusive('\n') {
        match line.as_bytes().first() {
            // Under the last key (a blank line, a comment, or indented).
            None | Some(b'\n' | b'\r' | b'#' | b' ') => {}
            Some(_) => {
                let key = key_of(line)?;
                if !seen.insert(key) {
                    return None;
                }
                keys.push(key);
                reading = READ.contains(&key);
            }
        }
        if reading {
            read.push_str(line);
        }
    }
    let value = super::yaml::read(&read).value.ok()?;
    // An empty text reads as null: none of the keys is there.
    let value = if value.is_null() {
        Value::Object(serde_json::Map::new())
    } else {
        value
    };
    value.is_object().then_some(Header { keys, value })
}

/// The key a line at column 0 gives, when it is a plain `key:` followed by
/// a space, a tab or the end of the line.
fn key_of(line: &str) -> Option<&str> {
    let end = line.find(':')?;
    let key = &line[..end];
    let plain = !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        && !key.starts_with('-');
    let after = line[end + 1..].bytes().next();
    (plain && matches!(after, None | Some(b' ' | b'\t' | b'\n' | b'\r'))).then_some(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys_and_value(text: &str) -> Option<(Vec<&str>, Value)> {
        read(text).map(|h| (h.keys, h.value))
    }

    #[test]
    fn the_top_keys_and_the_values_that_name_a_list_are_read() {
        let text = "# a comment\ngame: heresy\nid: test # its id\nname: \"Test Legion\"\naliases:\n  - One\n  - 'Two'\n\nimports:\n  snapfire: X\nsections:\n  - id: a\n    name: id\nupgrades: []\n";
        let (keys, value) = keys_and_value(text).expect("a plain file");
        assert_eq!(
            keys,
            ["game", "id", "name", "aliases", "imports", "sections", "upgrades"]
        );
        assert_eq!(
            value,
            serde_json::json!({
                "game": "heresy", "id": "test", "name": "Test Legion",
                "aliases": ["One", "Two"], "imports": {"snapfire": "X"}
            })
        );
        let crlf = text.replace('\n', "\r\n");
        assert_eq!(keys_and_value(&crlf).map(|(_, v)| v), Some(value));
    }

    #[test]
    fn anything_a_scan_could_misread_is_left_to_the_whole_read() {
        for text in [
            "{game: heresy, id: x, sections: []}\n",
            "---\nid: x\nsections: []\n",
            "\"id\": x\nsections: []\n",
            "id: x\nid: y\nsections: []\n",
            "id: x\nsections:\n- a\n",
            "<<: *base\nsections: []\n",
            "id: x\u{2028}sections: []\n",
            "\u{feff}id: x\nsections: []\n",
            "id: x\rname: y\nsections: []\n",
            "\tid: x\nsections: []\n",
            "id: [x\nsections: []\n",
            "name: *other\nsections: []\n",
            "id: x\nid : y\n",
        ] {
            assert!(read(text).is_none(), "{text:?}");
        }
        // Values of keys not read are not looked at.
        assert!(read("id: x\ndecisions: *other\nsections: []\n").is_some());
        assert_eq!(read("").map(|h| h.keys.len()), Some(0));
    }
}
