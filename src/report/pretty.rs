//! Pretty JSON, byte for byte what `serde_json::to_string_pretty` prints,
//! each line shifted right by whole levels: a folder's JSON document and
//! report are a roster's part after another, each two levels deep.
//!
//! Its own serializer rather than `serde_json`'s with a formatter, for the
//! strings: `serde_json` looks each byte of each string up in a table, and
//! that was a quarter of a folder's `--format json`. Here a string is
//! first checked for any byte that needs an escape (`"`, `\`, the control
//! characters) sixteen bytes at a time, and copied whole when it has none,
//! as nearly all have. Numbers are written as `serde_json` writes them
//! (floats by `serde_json` itself).

use serde::ser::{self, Serialize};
use std::fmt::Display;

/// Pretty JSON of `value`, every line indented by `level` levels (two
/// spaces each), the first one too.
pub fn indented<T: Serialize + ?Sized>(value: &T, level: usize) -> Result<String, Error> {
    let mut writer = Pretty {
        out: String::with_capacity(4096),
        level,
        has_value: false,
    };
    writer.indent_only();
    value.serialize(&mut writer)?;
    Ok(writer.out)
}

/// Why a value could not be written: a map key that is not a string,
/// or an error of the value's own `Serialize`.
#[derive(Debug)]
pub struct Error(String);

impl Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: Display>(msg: T) -> Error {
        Error(msg.to_string())
    }
}

/// The text so far, how deep it is, and whether the collection being
/// written has a value yet (as `serde_json`'s `PrettyFormatter`).
struct Pretty {
    out: String,
    level: usize,
    has_value: bool,
}

/// A line break and up to 32 levels of indent, written in one piece.
const BREAK: &str = "\n                                                                ";

impl Pretty {
    fn indent_only(&mut self) {
        self.spaces(2 * self.level);
    }

    fn spaces(&mut self, mut n: usize) {
        while n > 0 {
            let part = n.min(BREAK.len() - 1);
            self.out.push_str(&BREAK[1..=part]);
            n -= part;
        }
    }

    /// A line break, then the indent: one piece up to 32 levels.
    fn new_line(&mut self) {
        let spaces = 2 * self.level;
        match BREAK.get(..=spaces) {
            Some(piece) => self.out.push_str(piece),
            None => {
                self.out.push('\n');
                self.indent_only();
            }
        }
    }

    fn open(&mut self, bracket: char) {
        self.level += 1;
        self.has_value = false;
        self.out.push(bracket);
    }

    fn close(&mut self, bracket: char) {
        self.level -= 1;
        if self.has_value {
            self.new_line();
        }
        self.out.push(bracket);
    }

    /// Before an item or a key: a comma unless it is the first.
    fn item(&mut self, first: bool) {
        if !first {
            self.out.push(',');
        }
        self.new_line();
    }

    fn string(&mut self, s: &str) {
        self.out.reserve(s.len() + 2);
        self.out.push('"');
        escape_into(&mut self.out, s);
        self.out.push('"');
    }

    fn integer(&mut self, n: impl itoa::Integer) {
        self.out.push_str(itoa::Buffer::new().format(n));
    }

    /// A float as `serde_json` writes it (`null` when not finite).
    fn float<F: Serialize>(&mut self, f: F) -> Result<(), Error> {
        let text = serde_json::to_string(&f).map_err(|e| Error(e.to_string()))?;
        self.out.push_str(&text);
        Ok(())
    }

    /// A collection opened with `bracket`; `variant` when it is the value
    /// of an enum's `{ "variant": ... }`, which it closes too.
    fn compound(&mut self, bracket: char, variant: bool) -> Compound<'_> {
        self.open(bracket);
        Compound {
            writer: self,
            first: true,
            variant,
        }
    }

    /// `{ "variant": ` of an enum's non-unit variant.
    fn variant_open(&mut self, variant: &str) {
        self.open('{');
        self.item(true);
        self.string(variant);
        self.out.push_str(": ");
    }

    fn variant_close(&mut self) {
        self.has_value = true;
        self.close('}');
    }
}

/// The escape of each byte that needs one: the letter after `\`, or `u`
/// for `\u00XX`; 0 for a byte written as it is.
const ESCAPE: [u8; 256] = {
    let mut table = [0; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = b'u';
        b += 1;
    }
    table[0x08] = b'b';
    table[0x09] = b't';
    table[0x0a] = b'n';
    table[0x0c] = b'f';
    table[0x0d] = b'r';
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table
};

/// Whether a byte of `bytes` needs an escape in JSON.
fn needs_escape(bytes: &[u8]) -> bool {
    super::scan::any_byte(bytes, |b| (b < 0x20) | (b == b'"') | (b == b'\\'))
}

/// `s` as the inside of a JSON string, as `serde_json` escapes it: copied
/// whole when no byte needs an escape, else copied between the escapes.
fn escape_into(out: &mut String, s: &str) {
    if !needs_escape(s.as_bytes()) {
        out.push_str(s);
        return;
    }
    let mut start = 0;
    for (at, &byte) in s.as_bytes().iter().enumerate() {
        let escape = ESCAPE[byte as usize];
        if escape == 0 {
            continue;
        }
        // `at` is an ASCII byte, so a character boundary.
        out.push_str(&s[start..at]);
        out.push('\\');
        out.push(char::from(escape));
        if escape == b'u' {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("00");
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 0xf)]));
        }
        start = at + 1;
    }
    out.push_str(&s[start..]);
}

/// A collection being written: whether the next item is its first.
pub struct Compound<'a> {
    writer: &'a mut Pretty,
    first: bool,
    /// Whether it closes an enum variant's `{ "variant": ... }` too.
    variant: bool,
}

impl Compound<'_> {
    fn value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.writer.item(self.first);
        self.first = false;
        value.serialize(&mut *self.writer)?;
        self.writer.has_value = true;
        Ok(())
    }

    fn key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.writer.item(self.first);
        self.first = false;
        // Keys are never on the way of a report's rosters (they have no
        // maps): `serde_json` writes the key, and what is not already a
        // string is quoted when `serde_json` would accept it as a key.
        let text = serde_json::to_string(key).map_err(|e| Error(e.to_string()))?;
        let scalar = text == "true" || text == "false" || text.parse::<f64>().is_ok();
        if text.starts_with('"') {
            self.writer.out.push_str(&text);
        } else if scalar {
            self.writer.out.push('"');
            self.writer.out.push_str(&text);
            self.writer.out.push('"');
        } else {
            return Err(Error("key must be a string".to_string()));
        }
        self.writer.out.push_str(": ");
        Ok(())
    }

    /// A struct's field name, as a key.
    fn field(&mut self, key: &str) {
        self.writer.item(self.first);
        self.first = false;
        self.writer.string(key);
        self.writer.out.push_str(": ");
    }

    fn map_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut *self.writer)?;
        self.writer.has_value = true;
        Ok(())
    }

    fn end(self, bracket: char) -> Result<(), Error> {
        self.writer.close(bracket);
        if self.variant {
            self.writer.variant_close();
        }
        Ok(())
    }
}

/// The integer methods of the serializer, each calling `$write(self, v)`.
macro_rules! integers {
    ($write:ident) => {
        integers!($write: serialize_i8 i8, serialize_i16 i16, serialize_i32 i32, serialize_i64 i64,
            serialize_i128 i128, serialize_u8 u8, serialize_u16 u16, serialize_u32 u32,
            serialize_u64 u64, serialize_u128 u128);
    };
    ($write:ident: $($method:ident $type:ty),*) => {
        $(fn $method(self, v: $type) -> Result<(), Error> {
            $write(self, v)
        })*
    };
}

fn integer_to_text(writer: &mut Pretty, n: impl itoa::Integer) -> Result<(), Error> {
    writer.integer(n);
    Ok(())
}

impl<'a> ser::Serializer for &'a mut Pretty {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.out.push_str(if v { "true" } else { "false" });
        Ok(())
    }
    integers!(integer_to_text);
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        self.float(v)
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        self.float(v)
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.string(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.string(v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        use ser::SerializeSeq;
        let mut seq = self.serialize_seq(Some(v.len()))?;
        for byte in v {
            seq.serialize_element(byte)?;
        }
        ser::SerializeSeq::end(seq)
    }
    fn serialize_none(self) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Error> {
        self.out.push_str("null");
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.variant_open(variant);
        value.serialize(&mut *self)?;
        self.variant_close();
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a>, Error> {
        Ok(self.compound('[', false))
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>, Error> {
        self.variant_open(variant);
        Ok(self.compound('[', true))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a>, Error> {
        Ok(self.compound('{', false))
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a>, Error> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>, Error> {
        self.variant_open(variant);
        Ok(self.compound('{', true))
    }
}

/// The serde traits of a sequence, each item written by `Compound::value`.
macro_rules! sequence {
    ($($trait:ident $method:ident),*) => {
        $(impl ser::$trait for Compound<'_> {
            type Ok = ();
            type Error = Error;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
                self.value(value)
            }
            fn end(self) -> Result<(), Error> {
                Compound::end(self, ']')
            }
        })*
    };
}

sequence!(
    SerializeSeq serialize_element,
    SerializeTuple serialize_element,
    SerializeTupleStruct serialize_field,
    SerializeTupleVariant serialize_field
);

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.key(key)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.map_value(value)
    }
    fn end(self) -> Result<(), Error> {
        Compound::end(self, '}')
    }
}

/// The serde traits of a struct, each field a key and its value.
macro_rules! structure {
    ($($trait:ident),*) => {
        $(impl ser::$trait for Compound<'_> {
            type Ok = ();
            type Error = Error;
            fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Error> {
                self.field(key);
                self.map_value(value)
            }
            fn end(self) -> Result<(), Error> {
                Compound::end(self, '}')
            }
        })*
    };
}

structure!(SerializeStruct, SerializeStructVariant);

#[cfg(test)]
mod tests {
    use super::{escape_into, indented};
    use proptest::prelude::*;
    use serde_json::{Value, json};

    /// `serde_json`'s pretty text, each line shifted right by `level`.
    fn shifted(value: &Value, level: usize) -> String {
        let pretty = serde_json::to_string_pretty(value).unwrap_or_default();
        let indent = "  ".repeat(level);
        let lines: Vec<String> = pretty.lines().map(|l| format!("{indent}{l}")).collect();
        lines.join("\n")
    }

    #[test]
    fn nested_values_print_as_serde_json_prints_them() {
        let value = json!({
            "file": "a\nb \"c\" \\ \u{1} \u{1f} \u{7f} é \t\r\u{8}\u{c}",
            "empty": [],
            "none": {},
            "list": [1, -2, 3.5, 1e300, {"x": [true, null], "y": {}}, [[]], "z"],
            "nested": {"a": {"b": {"c": 1.5}}}
        });
        for level in [0, 1, 2, 40] {
            assert_eq!(indented(&value, level).unwrap(), shifted(&value, level));
        }
        let mut deep = json!("end");
        for level in 0..40 {
            deep = json!({ format!("k{level}"): [deep, level] });
        }
        assert_eq!(indented(&deep, 1).unwrap(), shifted(&deep, 1));
    }

    #[derive(serde::Serialize)]
    enum Kinds {
        Unit,
        Newtype(u8),
        Tuple(u8, &'static str),
        Struct { a: Option<u8>, b: Vec<u8> },
    }

    /// What JSON has no direct form for (enums, tuples, floats that are
    /// not finite, maps keyed by numbers) comes out as `serde_json`
    /// writes it, or fails where it fails.
    #[test]
    fn every_serde_shape_prints_as_serde_json_prints_it() {
        let shapes = (
            [
                Kinds::Unit,
                Kinds::Newtype(3),
                Kinds::Tuple(1, "t"),
                Kinds::Struct { a: None, b: vec![] },
            ],
            Kinds::Struct {
                a: Some(1),
                b: vec![2],
            },
            (f64::NAN, f32::INFINITY, 'q', (), [0u8; 0]),
            std::collections::BTreeMap::from([(1, "one"), (-2, "minus two")]),
            std::collections::BTreeMap::from([(true, 'x')]),
            u128::MAX,
            i128::MIN,
        );
        let theirs = serde_json::to_string_pretty(&shapes).unwrap();
        assert_eq!(indented(&shapes, 0).unwrap(), theirs);
        let chars = std::collections::BTreeMap::from([('"', 1), ('k', 2)]);
        assert_eq!(
            indented(&chars, 1).unwrap(),
            format!(
                "  {}",
                serde_json::to_string_pretty(&chars)
                    .unwrap()
                    .replace('\n', "\n  ")
            )
        );
        let bad_key = std::collections::BTreeMap::from([(vec![1], 1)]);
        assert!(serde_json::to_string_pretty(&bad_key).is_err());
        assert!(indented(&bad_key, 0).is_err());
        let unit_key = std::collections::BTreeMap::from([((), 1)]);
        assert!(serde_json::to_string_pretty(&unit_key).is_err());
        assert!(indented(&unit_key, 0).is_err());
    }

    /// An escape at every place of strings up to three words long, and
    /// text of several bytes a character about it.
    #[test]
    fn escapes_at_every_place_of_a_word_are_written() {
        for len in 0..24 {
            for at in 0..len {
                for special in ['"', '\\', '\n', '\u{1}', '\u{1f}', 'é', '\u{7f}', ' '] {
                    let text: String = (0..len).map(|i| if i == at { special } else { 'x' }).collect();
                    let mut out = String::new();
                    escape_into(&mut out, &text);
                    assert_eq!(format!("\"{out}\""), serde_json::to_string(&text).unwrap());
                }
            }
        }
    }

    fn any_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            any::<String>().prop_map(Value::String),
            "[\"\\\\\\x00-\\x1f a-z]{0,20}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 64, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::btree_map(any::<String>(), inner, 0..6)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn strings_escape_as_serde_json_escapes_them(s in any::<String>(), t in "[\"\\\\\\x00-\\x1f a-z]{0,40}") {
            for text in [&s, &t] {
                let mut out = String::new();
                escape_into(&mut out, text);
                let theirs = serde_json::to_string(text).unwrap();
                prop_assert_eq!(format!("\"{out}\""), theirs);
            }
        }

        #[test]
        fn any_value_prints_as_serde_json_prints_it(value in any_value(), level in 0usize..3) {
            prop_assert_eq!(indented(&value, level).unwrap(), shifted(&value, level));
        }
    }
}
