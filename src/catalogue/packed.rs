//! The built-in list files in the form `build.rs` prepares them: their
//! data read once at build time (YAML into a JSON value) and packed into a
//! tree of tagged values and the text of its strings (the format is
//! described in `packed/encode.rs`, which the build script shares).
//!
//! Reading it is a serde deserializer that parses nothing: no text to
//! scan, no escapes, no numbers to read, every string borrowed from the
//! text, every key known by its number, every array and object sized in
//! advance. It hands serde the
//! same values, in the same order, as `serde_json` reading the same data,
//! so the typed structs come out the same (a test proves it for every
//! built-in file). A value that does not fit its type is an error with no
//! words: the caller then takes the long way (`load::parse_file`), which
//! says what is wrong.

pub(crate) mod encode;

use encode::{ARRAY, FALSE, FLOAT, NEGATIVE, NULL, OBJECT, STRING, TRUE, UNSIGNED};
use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, Visitor};
use serde::forward_to_deserialize_any;

/// A built-in file's packed data: the tree and its strings. Both empty
/// when the build could not read the file.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Packed {
    pub tree: &'static [u8],
    pub strings: &'static str,
}

impl Packed {
    /// Whether the build packed the file.
    pub fn is_some(&self) -> bool {
        !self.tree.is_empty()
    }

    /// The file's data as `T`, every byte of the tree and the text read.
    pub fn decode<T: de::Deserialize<'static>>(&self) -> Result<T, Error> {
        let mut reader = Reader {
            tree: self.tree,
            strings: self.strings,
            keys: Vec::new(),
        };
        let keys = reader.count()?;
        reader.keys.reserve(keys);
        for _ in 0..keys {
            let key = reader.string()?;
            reader.keys.push(key);
        }
        let value = T::deserialize(&mut reader)?;
        if reader.tree.is_empty() && reader.strings.is_empty() {
            Ok(value)
        } else {
            Err(Error("data left after the value"))
        }
    }
}

/// Strings the build wrote one after the other into one text, each known
/// by where it ends (`from` is where the first starts). A list of `&str`
/// in static data costs a relocation per string, which the dynamic loader
/// applies on every start of the program, whatever it then does (the
/// manifest's thousands of names and ids were a tenth of `--version`); a
/// list of offsets costs none.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Texts {
    pub text: &'static str,
    pub from: u32,
    pub ends: &'static [u32],
}

impl Texts {
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Every string, in order (one the text does not hold, which the
    /// build never writes, is left out).
    pub fn iter(&self) -> impl Iterator<Item = &'static str> + use<> {
        let Texts { text, from, ends } = *self;
        let starts = std::iter::once(from).chain(ends.iter().copied());
        starts
            .zip(ends)
            .filter_map(move |(start, &end)| text.get(start as usize..end as usize))
    }

    /// The strings two by two, for lists written as pairs.
    pub fn pairs(&self) -> impl Iterator<Item = (&'static str, &'static str)> + use<> {
        let mut strings = self.iter();
        std::iter::from_fn(move || Some((strings.next()?, strings.next()?)))
    }
}

/// Why packed data could not be read. It keeps no message of serde's:
/// formatting one would cost more than the read, and the caller only
/// needs to know to take the long way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Error(&'static str);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for Error {}

impl de::Error for Error {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Error("the data does not fit its type")
    }
}

const TRUNCATED: Error = Error("the packed data ends early");

/// The tree and the text not read yet, and the keys of the file.
struct Reader<'de> {
    tree: &'de [u8],
    strings: &'de str,
    keys: Vec<&'de str>,
}

impl<'de> Reader<'de> {
    fn byte(&mut self) -> Result<u8, Error> {
        let (&first, rest) = self.tree.split_first().ok_or(TRUNCATED)?;
        self.tree = rest;
        Ok(first)
    }

    fn peek(&self) -> Result<u8, Error> {
        self.tree.first().copied().ok_or(TRUNCATED)
    }

    /// A varint: most are one byte (counts, lengths), read inline.
    #[inline]
    fn varint(&mut self) -> Result<u64, Error> {
        match self.tree.split_first() {
            Some((&b, rest)) if b < 0x80 => {
                self.tree = rest;
                Ok(u64::from(b))
            }
            _ => self.long_varint(),
        }
    }

    fn long_varint(&mut self) -> Result<u64, Error> {
        let mut n = 0u64;
        let mut shift = 0;
        loop {
            let b = self.byte()?;
            if shift >= 64 {
                return Err(Error("a number too long"));
            }
            n |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Ok(n);
            }
            shift += 7;
        }
    }

    fn count(&mut self) -> Result<usize, Error> {
        // A count is at most the bytes left: each item takes one at least,
        // so a damaged count cannot make serde reserve much.
        let n = self.varint()?;
        usize::try_from(n)
            .ok()
            .filter(|&n| n <= self.tree.len())
            .ok_or(Error("a count larger than the data"))
    }

    /// The next string of the text, as long as the tree says.
    fn string(&mut self) -> Result<&'de str, Error> {
        let len = usize::try_from(self.varint()?).map_err(|_| TRUNCATED)?;
        let (string, rest) = self
            .strings
            .split_at_checked(len)
            .ok_or(Error("a string beyond the text"))?;
        self.strings = rest;
        Ok(string)
    }

    /// A key, by its number.
    fn key(&mut self) -> Result<&'de str, Error> {
        let number = self.varint()?;
        usize::try_from(number)
            .ok()
            .and_then(|n| self.keys.get(n))
            .copied()
            .ok_or(Error("an unknown key"))
    }

    /// Reads past one value.
    fn skip(&mut self) -> Result<(), Error> {
        match self.byte()? {
            NULL | FALSE | TRUE => {}
            UNSIGNED | NEGATIVE => {
                self.varint()?;
            }
            FLOAT => {
                self.tree = self.tree.get(8..).ok_or(TRUNCATED)?;
            }
            STRING => {
                self.string()?;
            }
            ARRAY => {
                for _ in 0..self.count()? {
                    self.skip()?;
                }
            }
            OBJECT => {
                for _ in 0..self.count()? {
                    self.key()?;
                    self.skip()?;
                }
            }
            _ => return Err(Error("an unknown tag")),
        }
        Ok(())
    }
}

impl<'de> Deserializer<'de> for &mut Reader<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.byte()? {
            NULL => visitor.visit_unit(),
            FALSE => visitor.visit_bool(false),
            TRUE => visitor.visit_bool(true),
            UNSIGNED => visitor.visit_u64(self.varint()?),
            NEGATIVE => {
                let n = i64::try_from(self.varint()?).map_err(|_| Error("a number out of range"))?;
                visitor.visit_i64(-n - 1)
            }
            FLOAT => {
                let (bits, rest) = self.tree.split_first_chunk::<8>().ok_or(TRUNCATED)?;
                self.tree = rest;
                visitor.visit_f64(f64::from_bits(u64::from_le_bytes(*bits)))
            }
            STRING => visitor.visit_borrowed_str(self.string()?),
            ARRAY => {
                let left = self.count()?;
                visitor.visit_seq(Items { reader: self, left })
            }
            OBJECT => {
                let left = self.count()?;
                visitor.visit_map(Items { reader: self, left })
            }
            _ => Err(Error("an unknown tag")),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        if self.peek()? == NULL {
            self.tree = &self.tree[1..];
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    /// An enum as JSON writes one: a unit variant as its name, any other
    /// as an object of one entry, the variant's name to its content.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.byte()? {
            STRING => visitor.visit_enum(self.string()?.into_deserializer()),
            OBJECT if self.count()? == 1 => visitor.visit_enum(Variant { reader: self }),
            _ => Err(Error("an enum that is neither a name nor an object of one entry")),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.skip()?;
        visitor.visit_unit()
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct identifier
    }
}

/// The items of an array, or the entries of an object, not read yet.
struct Items<'a, 'de> {
    reader: &'a mut Reader<'de>,
    left: usize,
}

impl<'de> de::SeqAccess<'de> for Items<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.reader).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

impl<'de> de::MapAccess<'de> for Items<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let key = self.reader.key()?;
        seed.deserialize(de::value::BorrowedStrDeserializer::new(key))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        seed.deserialize(&mut *self.reader)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

/// An enum written as an object of one entry: the variant's name, then its
/// content.
struct Variant<'a, 'de> {
    reader: &'a mut Reader<'de>,
}

impl<'a, 'de> de::EnumAccess<'de> for Variant<'a, 'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), Error> {
        let name = self.reader.key()?;
        let value = seed.deserialize(de::value::BorrowedStrDeserializer::new(name))?;
        Ok((value, self))
    }
}

impl<'de> de::VariantAccess<'de> for Variant<'_, 'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        de::Deserialize::deserialize(&mut *self.reader)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        seed.deserialize(&mut *self.reader)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        self.reader.deserialize_any(visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.reader.deserialize_any(visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn leak(value: &serde_json::Value) -> Packed {
        let (tree, strings) = encode::encode(value);
        Packed {
            tree: Vec::leak(tree),
            strings: String::leak(strings),
        }
    }

    #[test]
    fn every_kind_of_value_reads_back_the_same() {
        let value = json!({
            "null": null, "yes": true, "no": false, "zero": 0, "big": u64::MAX,
            "minus": -1, "least": i64::MIN, "float": 2.5, "text": "missing",
            "again": "missing", "empty": "", "list": [1, "two", [3], {"four": 4}],
            "nested": {"a": {"b": []}}, "unicode": "2× Lascannon"
        });
        let back: serde_json::Value = leak(&value).decode().expect("reads back");
        assert_eq!(back, value);
    }

    #[test]
    fn keys_are_stored_once_and_strings_in_order() {
        let (_, strings) = encode::encode(&json!(["a", {"name": "b"}, {"id": "c"}, {"name": "d"}]));
        assert_eq!(strings, "nameidabcd");
    }

    #[test]
    fn damaged_data_is_an_error_not_a_panic() {
        let packed = leak(&json!({"units": [{"id": "a", "count": 300}], "f": 1.5}));
        for cut in 0..packed.tree.len() {
            let short = Packed {
                tree: &packed.tree[..cut],
                strings: packed.strings,
            };
            assert!(short.decode::<serde_json::Value>().is_err(), "cut at {cut}");
        }
        for at in 0..packed.tree.len() {
            for byte in [0x00, 0x07, 0x08, 0x09, 0x7f, 0xff] {
                let mut tree = packed.tree.to_vec();
                tree[at] = byte;
                let damaged = Packed {
                    tree: Vec::leak(tree),
                    strings: packed.strings,
                };
                let _ = damaged.decode::<serde_json::Value>();
            }
        }
        let no_text = Packed {
            tree: packed.tree,
            strings: "",
        };
        assert!(no_text.decode::<serde_json::Value>().is_err());
    }

    #[test]
    fn a_value_that_does_not_fit_its_type_is_an_error() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Unit {
            count: u8,
        }
        assert!(leak(&json!({"count": 300})).decode::<Unit>().is_err());
        assert!(leak(&json!({"count": -1})).decode::<Unit>().is_err());
        assert!(leak(&json!({"count": 3})).decode::<Unit>().is_ok());
    }
}
