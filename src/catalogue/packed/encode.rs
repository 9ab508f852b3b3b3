//! The packed form of a list file, written by `build.rs` (which includes
//! this file) and read by `catalogue::packed`.
//!
//! A file's data (the YAML as a JSON value) becomes two parts: a tree of
//! tagged values, and the text of its strings, one after the other, so
//! that a reader takes each string's bytes from where the last one ended.
//! The keys of objects come first, each distinct key once, and the tree
//! names a key by its number; the strings that are values follow, in the
//! order of the tree. Numbers are LEB128 varints.
//!
//! The tree: the number of keys and each key's length, then the value.
//!
//! | tag | value | followed by |
//! |---|---|---|
//! | 0 | null | |
//! | 1, 2 | false, true | |
//! | 3 | an integer from 0 up | the integer |
//! | 4 | a negative integer `n` | `-(n + 1)` |
//! | 5 | any other number | its `f64` bits, 8 bytes little-endian |
//! | 6 | a string | its length in bytes |
//! | 7 | an array | the number of items, then each item |
//! | 8 | an object | the number of entries, then each key's number and value |

/// The tags of the packed form.
pub(crate) const NULL: u8 = 0;
pub(crate) const FALSE: u8 = 1;
pub(crate) const TRUE: u8 = 2;
pub(crate) const UNSIGNED: u8 = 3;
pub(crate) const NEGATIVE: u8 = 4;
pub(crate) const FLOAT: u8 = 5;
pub(crate) const STRING: u8 = 6;
pub(crate) const ARRAY: u8 = 7;
pub(crate) const OBJECT: u8 = 8;

/// A file's packed form: the tree, and the text of its strings.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn encode(value: &serde_json::Value) -> (Vec<u8>, String) {
    let mut keys = Vec::new();
    let mut numbers = std::collections::HashMap::new();
    collect_keys(value, &mut keys, &mut numbers);
    let mut packer = Packer {
        tree: Vec::new(),
        strings: String::new(),
        numbers,
    };
    packer.varint(keys.len() as u64);
    for key in &keys {
        packer.varint(key.len() as u64);
        packer.strings.push_str(key);
    }
    packer.value(value);
    (packer.tree, packer.strings)
}

/// Every distinct key of the objects in `value`, numbered in the order met.
fn collect_keys<'a>(
    value: &'a serde_json::Value,
    keys: &mut Vec<&'a str>,
    numbers: &mut std::collections::HashMap<&'a str, u64>,
) {
    match value {
        serde_json::Value::Array(items) => items.iter().for_each(|i| collect_keys(i, keys, numbers)),
        serde_json::Value::Object(map) => {
            for (key, item) in map {
                numbers.entry(key.as_str()).or_insert_with(|| {
                    keys.push(key.as_str());
                    keys.len() as u64 - 1
                });
                collect_keys(item, keys, numbers);
            }
        }
        _ => {}
    }
}

struct Packer<'a> {
    tree: Vec<u8>,
    strings: String,
    numbers: std::collections::HashMap<&'a str, u64>,
}

impl<'a> Packer<'a> {
    fn value(&mut self, value: &'a serde_json::Value) {
        use serde_json::Value;
        match value {
            Value::Null => self.tree.push(NULL),
            Value::Bool(false) => self.tree.push(FALSE),
            Value::Bool(true) => self.tree.push(TRUE),
            Value::Number(n) => {
                if let Some(u) = n.as_u64() {
                    self.tree.push(UNSIGNED);
                    self.varint(u);
                } else if let Some(i) = n.as_i64() {
                    self.tree.push(NEGATIVE);
                    // Negative here: -(i + 1) is at least 0 and cannot overflow.
                    self.varint((-(i + 1)) as u64);
                } else {
                    self.tree.push(FLOAT);
                    let bits = n.as_f64().unwrap_or(f64::NAN).to_bits();
                    self.tree.extend_from_slice(&bits.to_le_bytes());
                }
            }
            Value::String(s) => {
                self.tree.push(STRING);
                self.varint(s.len() as u64);
                self.strings.push_str(s);
            }
            Value::Array(items) => {
                self.tree.push(ARRAY);
                self.varint(items.len() as u64);
                for item in items {
                    self.value(item);
                }
            }
            Value::Object(map) => {
                self.tree.push(OBJECT);
                self.varint(map.len() as u64);
                for (key, item) in map {
                    let number = self.numbers.get(key.as_str()).copied().unwrap_or_default();
                    self.varint(number);
                    self.value(item);
                }
            }
        }
    }

    fn varint(&mut self, mut n: u64) {
        while n >= 0x80 {
            self.tree.push((n as u8) | 0x80);
            n >>= 7;
        }
        self.tree.push(n as u8);
    }
}
