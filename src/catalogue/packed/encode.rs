//! The packed form of a list file, written by `build.rs` (which includes
//! this file) and read by `catalogue::packed`.
//!
//! A file's data (the YAML as a JSON value) becomes two parts: a string
//! table, every distinct string (keys and values) once, one after the
//! other; and a tree of tagged values, each string in it written as its
//! place in the table. Numbers are LEB128 varints.
//!
//! | tag | value | followed by |
//! |---|---|---|
//! | 0 | null | |
//! | 1, 2 | false, true | |
//! | 3 | an integer from 0 up | the integer |
//! | 4 | a negative integer `n` | `-(n + 1)` |
//! | 5 | any other number | its `f64` bits, 8 bytes little-endian |
//! | 6 | a string | its offset in the table, its length in bytes |
//! | 7 | an array | the number of items, then each item |
//! | 8 | an object | the number of entries, then each key (offset, length) and value |

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

/// A file's packed form: the tree, and the string table it points into.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn encode(value: &serde_json::Value) -> (Vec<u8>, String) {
    let mut packer = Packer {
        tree: Vec::new(),
        strings: String::new(),
        placed: std::collections::HashMap::new(),
    };
    packer.value(value);
    (packer.tree, packer.strings)
}

struct Packer<'a> {
    tree: Vec<u8>,
    strings: String,
    placed: std::collections::HashMap<&'a str, (usize, usize)>,
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
                self.string(s);
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
                    self.string(key);
                    self.value(item);
                }
            }
        }
    }

    fn string(&mut self, s: &'a str) {
        let (offset, len) = match self.placed.get(s) {
            Some(&place) => place,
            None => {
                let place = (self.strings.len(), s.len());
                self.strings.push_str(s);
                self.placed.insert(s, place);
                place
            }
        };
        self.varint(offset as u64);
        self.varint(len as u64);
    }

    fn varint(&mut self, mut n: u64) {
        while n >= 0x80 {
            self.tree.push((n as u8) | 0x80);
            n >>= 7;
        }
        self.tree.push(n as u8);
    }
}
