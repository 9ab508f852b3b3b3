//! Reads the YAML of list and event files into a JSON value, bounded before
//! anything is built (issue 36): one pass over yaml-rust2's events builds
//! the value, records where each node starts and finds keys given twice,
//! so the check for duplicates and the value the program uses come from
//! the same parser and cannot disagree (a text scan once missed a key
//! followed by a tab, or a line ended by U+2028, and a second `id:` won).
//!
//! Every input costs time and memory linear in its size under a fixed cap:
//! at most [`MAX_YAML_DEPTH`] levels of nesting of any kind, at most
//! [`MAX_YAML_NODES`] nodes (aliases count what they repeat), and the
//! scanner may not read ahead past [`MAX_LOOKAHEAD_OPENERS`] `[` or `{`
//! without yielding an event (its look-ahead for a key in a flow
//! collection went over every open level for every character: 80,000 `[`
//! took 30 s).

use rustc_hash::FxHashMap;
use serde_json::{Map, Value};
use std::cell::Cell;
use std::rc::Rc;
use yaml_rust2::parser::{Event, Parser, Tag};
use yaml_rust2::scanner::{Marker, TScalarStyle};

/// How deep YAML may nest, `[`, `{` and block collections alike. Real list
/// and event files nest six or seven levels.
pub const MAX_YAML_DEPTH: usize = 64;

/// How many nodes (scalars, collections, and what aliases repeat) one file
/// may hold. The largest shipped list holds about 20,000.
pub const MAX_YAML_NODES: usize = 200_000;

/// How many `[` and `{` the scanner may read ahead of the last event: a
/// flow collection inside another is read to its end before its start is
/// known, and each character read costs one step per open level.
pub const MAX_LOOKAHEAD_OPENERS: usize = 256;

/// Why a text was refused, and where (1-based lines).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// Not YAML, or not YAML muster reads (a multi-document stream, a key
    /// that is a collection).
    Invalid {
        line: usize,
        message: String,
    },
    TooDeep {
        line: usize,
    },
    /// More than [`MAX_LOOKAHEAD_OPENERS`] `[` or `{` read before the
    /// parser could say what the first of them is.
    TooWide {
        line: usize,
    },
    TooMany {
        line: usize,
    },
    /// The first key given twice in one mapping, and how many others.
    Duplicate {
        key: String,
        first: usize,
        second: usize,
        others: usize,
    },
}

/// Where each node of a YAML document starts, by its place in the tree.
#[derive(Debug, Default)]
pub struct Positions {
    /// Line and column (1-based) of each node; the root is node 0.
    nodes: Vec<(u32, u32)>,
    /// A node's children by key (a mapping's key, a sequence's index).
    children: FxHashMap<(u32, Box<str>), u32>,
}

impl Positions {
    fn add(&mut self, parent: Option<(u32, Box<str>)>, mark: Marker) -> u32 {
        let id = self.nodes.len() as u32;
        let line = mark.line().max(1).min(u32::MAX as usize) as u32;
        let col = (mark.col() + 1).min(u32::MAX as usize) as u32;
        self.nodes.push((line, col));
        if let Some(key) = parent {
            self.children.insert(key, id);
        }
        id
    }

    fn line_of(&self, node: u32) -> usize {
        self.nodes.get(node as usize).map_or(1, |n| n.0 as usize)
    }

    /// Line and column of the deepest known node on a JSON-pointer path.
    pub fn find(&self, pointer: &str) -> Option<(usize, usize)> {
        let mut node = 0u32;
        let &(mut line, mut col) = self.nodes.first()?;
        for part in pointer.split('/').skip(1) {
            let key = part.replace("~1", "/").replace("~0", "~");
            match self.children.get(&(node, key.into_boxed_str())) {
                Some(&child) => {
                    node = child;
                    (line, col) = self.nodes[child as usize];
                }
                None => break,
            }
        }
        Some((line as usize, col as usize))
    }
}

/// A collection being built: its node, anchor, the node count when it
/// started, and what it holds so far.
struct Frame {
    node: u32,
    anchor: usize,
    start: usize,
    kind: Kind,
}

enum Kind {
    Seq(Vec<Value>),
    /// The entries, and the key waiting for its value (with its node).
    Map(Map<String, Value>, Option<(String, u32)>),
}

/// A text's value (or why it has none) and its positions, which hold what
/// was read before a fault.
pub struct Read {
    pub value: Result<Value, Fault>,
    pub positions: Positions,
}

/// The characters of the text, cut short when the scanner reads too many
/// openers ahead of the parser's events.
struct Guarded<'a> {
    chars: std::str::Chars<'a>,
    openers: Rc<Cell<usize>>,
    cut: Rc<Cell<bool>>,
}

impl Iterator for Guarded<'_> {
    type Item = char;
    fn next(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if matches!(c, '[' | '{') {
            self.openers.set(self.openers.get() + 1);
            if self.openers.get() > MAX_LOOKAHEAD_OPENERS {
                self.cut.set(true);
                return None;
            }
        }
        Some(c)
    }
}

/// Reads `text`: its value when it is YAML within the bounds and without a
/// key given twice.
pub fn read(text: &str) -> Read {
    let openers = Rc::new(Cell::new(0));
    let cut = Rc::new(Cell::new(false));
    let guarded = Guarded {
        chars: text.chars(),
        openers: Rc::clone(&openers),
        cut: Rc::clone(&cut),
    };
    let mut parser = Parser::new(guarded);
    let mut builder = Builder::default();
    let mut line = 1;
    let value = loop {
        let next = parser.next_token();
        openers.set(0);
        if cut.get() {
            break Err(Fault::TooWide { line });
        }
        let (event, mark) = match next {
            Ok(e) => e,
            // yaml-rust2's own guard on nested flow mappings.
            Err(e) if e.info().contains("recursion limit") => {
                break Err(Fault::TooDeep {
                    line: e.marker().line().max(1),
                });
            }
            Err(e) => {
                break Err(Fault::Invalid {
                    line: e.marker().line().max(1),
                    message: e.info().to_string(),
                });
            }
        };
        line = mark.line().max(1);
        match builder.event(event, mark) {
            Ok(Some(value)) => break Ok(value),
            Ok(None) => {}
            Err(fault) => break Err(fault),
        }
    };
    let value = value.and_then(|v| match builder.duplicates.take() {
        Some((key, first, second)) => Err(Fault::Duplicate {
            key,
            first,
            second,
            others: builder.more_duplicates,
        }),
        None => Ok(v),
    });
    Read {
        value,
        positions: builder.positions,
    }
}

#[derive(Default)]
struct Builder {
    stack: Vec<Frame>,
    positions: Positions,
    nodes: usize,
    /// Anchored values, with the nodes each holds.
    anchors: FxHashMap<usize, (Value, usize)>,
    documents: usize,
    root: Option<Value>,
    duplicates: Option<(String, usize, usize)>,
    more_duplicates: usize,
}

fn invalid(line: usize, message: &str) -> Fault {
    Fault::Invalid {
        line,
        message: message.to_string(),
    }
}

impl Builder {
    /// Takes one event; the document's value once the stream ends.
    fn event(&mut self, event: Event, mark: Marker) -> Result<Option<Value>, Fault> {
        let line = mark.line().max(1);
        match event {
            Event::StreamEnd => return Ok(Some(self.root.take().unwrap_or(Value::Null))),
            Event::DocumentStart => {
                self.documents += 1;
                if self.documents > 1 {
                    return Err(invalid(line, "more than one YAML document in one file"));
                }
            }
            Event::Scalar(text, style, anchor, tag) => {
                self.count(1, line)?;
                if self.is_key() {
                    self.key(text, mark);
                } else {
                    let value = scalar(text, style, tag.as_ref());
                    let node = self.place(mark);
                    if anchor != 0 {
                        self.anchors.insert(anchor, (value.clone(), 1));
                    }
                    self.put(value, node);
                }
            }
            Event::Alias(id) => {
                let Some((value, nodes)) = self.anchors.get(&id).cloned() else {
                    return Err(invalid(line, "an alias to an unknown anchor"));
                };
                self.count(nodes, line)?;
                if self.is_key() {
                    return Err(invalid(line, "an alias used as a key"));
                }
                let node = self.place(mark);
                self.put(value, node);
            }
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                self.count(1, line)?;
                if self.stack.len() >= MAX_YAML_DEPTH {
                    return Err(Fault::TooDeep { line });
                }
                if self.is_key() {
                    return Err(invalid(line, "a key that is a list or a mapping"));
                }
                let node = self.place(mark);
                let kind = match event {
                    Event::SequenceStart(..) => Kind::Seq(Vec::new()),
                    _ => Kind::Map(Map::new(), None),
                };
                let start = self.nodes;
                self.stack.push(Frame {
                    node,
                    anchor,
                    start,
                    kind,
                });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(frame) = self.stack.pop() else {
                    return Ok(None);
                };
                let value = match frame.kind {
                    Kind::Seq(items) => Value::Array(items),
                    Kind::Map(map, _) => Value::Object(map),
                };
                if frame.anchor != 0 {
                    // What the anchor repeats counts as many nodes again.
                    let inside = self.nodes - frame.start + 1;
                    self.anchors.insert(frame.anchor, (value.clone(), inside));
                }
                self.put(value, frame.node);
            }
            _ => {}
        }
        Ok(None)
    }

    fn count(&mut self, nodes: usize, line: usize) -> Result<(), Fault> {
        self.nodes = self.nodes.saturating_add(nodes);
        if self.nodes > MAX_YAML_NODES {
            return Err(Fault::TooMany { line });
        }
        Ok(())
    }

    /// Whether the next node is a mapping's key.
    fn is_key(&self) -> bool {
        matches!(
            self.stack.last(),
            Some(Frame {
                kind: Kind::Map(_, None),
                ..
            })
        )
    }

    /// A mapping's key: its position stands for the entry; a key given
    /// twice in one mapping is noted with both lines.
    fn key(&mut self, name: String, mark: Marker) {
        let Some(Frame {
            node: parent,
            kind: Kind::Map(_, key),
            ..
        }) = self.stack.last_mut()
        else {
            return;
        };
        let parent = *parent;
        let line = mark.line().max(1);
        let child = (parent, Box::from(name.as_str()));
        let node = match self.positions.children.get(&child) {
            Some(&first) => {
                let first = self.positions.line_of(first);
                if self.duplicates.is_none() {
                    self.duplicates = Some((name.clone(), first, line));
                } else {
                    self.more_duplicates += 1;
                }
                // Not indexed: the path keeps naming the first.
                self.positions.add(None, mark)
            }
            None => self.positions.add(Some(child), mark),
        };
        *key = Some((name, node));
    }

    /// Records where a node that is not a key starts: in a mapping, the
    /// entry (its key's node); in a sequence, the next item.
    fn place(&mut self, mark: Marker) -> u32 {
        let parent = match self.stack.last() {
            None => None,
            Some(Frame {
                kind: Kind::Map(_, Some((_, entry))),
                ..
            }) => return *entry,
            Some(Frame {
                node,
                kind: Kind::Seq(items),
                ..
            }) => Some((*node, items.len().to_string().into_boxed_str())),
            Some(Frame { node, .. }) => return *node,
        };
        self.positions.add(parent, mark)
    }

    /// Puts a finished value in its place: the root, a sequence's next
    /// item, a mapping's value.
    fn put(&mut self, value: Value, _node: u32) {
        match self.stack.last_mut() {
            None => self.root = Some(value),
            Some(Frame {
                kind: Kind::Seq(items),
                ..
            }) => items.push(value),
            Some(Frame {
                kind: Kind::Map(map, key),
                ..
            }) => {
                if let Some((name, _)) = key.take() {
                    map.insert(name, value);
                }
            }
        }
    }
}

/// A plain scalar's value as serde_yaml reads it into JSON (YAML 1.2's core
/// schema); a quoted, literal or folded one, or one tagged `!!str`, is text.
fn scalar(text: String, style: TScalarStyle, tag: Option<&Tag>) -> Value {
    let is_str_tag =
        tag.is_some_and(|t| matches!(t.handle.as_str(), "tag:yaml.org,2002:" | "!!") && t.suffix == "str");
    if style != TScalarStyle::Plain || is_str_tag {
        return Value::String(text);
    }
    match text.as_str() {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        _ => {}
    }
    if let Some(n) = integer(&text) {
        return n;
    }
    if !leading_zero_digits(&text) {
        if let Some(f) = float(&text) {
            return serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number);
        }
    }
    Value::String(text)
}

/// An integer in decimal, or after `0x`, `0o` or `0b`, with an optional sign.
fn integer(text: &str) -> Option<Value> {
    let (negative, unsigned) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    if unsigned.starts_with(['+', '-']) {
        return None;
    }
    let (digits, radix) = if let Some(rest) = unsigned.strip_prefix("0x") {
        (rest, 16)
    } else if let Some(rest) = unsigned.strip_prefix("0o") {
        (rest, 8)
    } else if let Some(rest) = unsigned.strip_prefix("0b") {
        (rest, 2)
    } else {
        (unsigned, 10)
    };
    if digits.starts_with(['+', '-']) || (radix == 10 && leading_zero_digits(text)) {
        return None;
    }
    let magnitude = u64::from_str_radix(digits, radix).ok()?;
    if !negative {
        return Some(Value::from(magnitude));
    }
    if magnitude == 0 {
        return Some(Value::from(0u64));
    }
    let n = 0i64.checked_sub_unsigned(magnitude)?;
    Some(Value::from(n))
}

/// `0123`: digits after a leading zero are text in YAML 1.2.
fn leading_zero_digits(text: &str) -> bool {
    let t = text.strip_prefix(['-', '+']).unwrap_or(text);
    t.len() > 1 && t.starts_with('0') && t[1..].bytes().all(|b| b.is_ascii_digit())
}

fn float(text: &str) -> Option<f64> {
    let unsigned = match text.strip_prefix('+') {
        Some(rest) if rest.starts_with(['+', '-']) => return None,
        Some(rest) => rest,
        None => text,
    };
    match unsigned {
        ".inf" | ".Inf" | ".INF" => return Some(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => return Some(f64::NEG_INFINITY),
        ".nan" | ".NaN" | ".NAN" => return Some(f64::NAN),
        _ => {}
    }
    unsigned.parse::<f64>().ok().filter(|f| f.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(text: &str) -> Result<Value, Fault> {
        read(text).value
    }

    #[test]
    fn reads_what_serde_yaml_reads() {
        for text in [
            "a: 1\nb: [x, 'y', \"z\"]\nc: {d: -2, e: 0x1f, f: 0o17, g: 0b11, h: +3}\n",
            "a: 1.5\nb: .inf\nc: 0123\nd: ~\ne: null\nf: True\ng: FALSE\nh:\ni: 1e3\nj: -0\n",
            "a: &x [1, 2]\nb: *x\nc: !!str 5\nd: |\n  text\n  more\ne: >\n  folded\n",
            "- 18446744073709551615\n- -9223372036854775808\n- 1_000\n",
            "",
            "# only a comment\n",
        ] {
            let expected: Value = serde_yaml::from_str(text).unwrap_or(Value::Null);
            assert_eq!(value(text), Ok(expected), "{text:?}");
        }
    }

    #[test]
    fn finds_keys_and_items() {
        let text = "game: netea\nsections:\n  - id: a\n    formations:\n      - { id: b, points: 5 }\n      - id: c\n        points: x\n";
        let p = read(text).positions;
        assert_eq!(p.find("/game"), Some((1, 1)));
        assert_eq!(p.find("/sections/0/id"), Some((3, 5)));
        assert_eq!(p.find("/sections/0/formations/0/points"), Some((5, 18)));
        assert_eq!(p.find("/sections/0/formations/1/points"), Some((7, 9)));
        assert_eq!(p.find("/sections/0/formations/1/nothing"), Some((6, 11)));
    }

    /// Whatever follows the second key (a tab, U+2028, U+2029, NEL), the
    /// file never reads as a value that kept one of the two silently.
    #[test]
    fn a_key_given_twice_is_never_read() {
        for sep in [
            " ", "\t", " \t", "\t ", "\u{2028}", "\u{2029}", "\u{85}", "\r", "\r\n",
        ] {
            for text in [
                format!("id: feral-orks\nid:{sep}steel-legion\n"),
                format!("id:\tfirst\nname: x\nid:{sep}steel-legion{sep}\n"),
                format!("id: feral-orks{sep}\nid: steel-legion\n"),
                format!("a:\n  id: feral-orks{sep}\n  id: steel-legion\n"),
                format!("{{id: x,{sep}id: y}}\n"),
            ] {
                match value(&text) {
                    // Read as two keys (`\u{2028}id` is not `id` to this
                    // parser): the second did not replace the first.
                    Ok(v) => assert!(
                        v.get("id").is_some_and(|id| id != "steel-legion" && id != "y")
                            || v.get("a")
                                .and_then(|a| a.get("id"))
                                .is_some_and(|id| id != "steel-legion"),
                        "{text:?} read as {v}"
                    ),
                    Err(Fault::Duplicate { key, .. }) => assert_eq!(key, "id", "{text:?}"),
                    Err(_) => {}
                }
            }
        }
    }

    #[test]
    fn deep_and_large_yaml_is_refused_quickly() {
        for deep in [
            "[".repeat(80_000),
            "{".repeat(80_000),
            "{a: ".repeat(40_000),
            "[{".repeat(40_000),
        ] {
            let started = std::time::Instant::now();
            let read = value(&deep);
            assert!(
                matches!(read, Err(Fault::TooDeep { .. } | Fault::TooWide { .. })),
                "{}: {read:?}",
                &deep[..10]
            );
            assert!(started.elapsed().as_secs_f64() < 1.0, "{:?}", started.elapsed());
        }
        let nested = format!("a: {}1{}\n", "[".repeat(65), "]".repeat(65));
        assert!(matches!(value(&nested), Err(Fault::TooDeep { line: 1 })));
        let block: String = (0..70).map(|i| format!("{}- \n", "  ".repeat(i))).collect();
        assert!(matches!(value(&block), Err(Fault::TooDeep { .. })), "{block}");
        let many = format!("[{}]", "a, ".repeat(MAX_YAML_NODES));
        assert!(matches!(value(&many), Err(Fault::TooMany { .. })));
        // Aliases count what they repeat.
        let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 0..9 {
            bomb.push_str(&format!(
                "{}: &{} [*{}, *{}, *{}, *{}, *{}, *{}, *{}, *{}, *{}, *{}]\n",
                (b'b' + i) as char,
                (b'b' + i) as char,
                (b'a' + i) as char,
                (b'a' + i) as char,
                (b'a' + i) as char,
                (b'a' + i) as char,
                (b'a' + i) as char,
                (b'a' + i) as char,
                (b'a' + i) as char,
                (b'a' + i) as char,
                (b'a' + i) as char,
                (b'a' + i) as char
            ));
        }
        assert!(matches!(value(&bomb), Err(Fault::TooMany { .. })));
        // Within the bounds, a long flow sequence in a flow mapping reads;
        // past them, it is refused in linear time.
        let wide = format!("{{a: [{}1]}}\n", "[1], ".repeat(200));
        assert!(value(&wide).is_ok());
        let wide = format!("{{a: [{}1]}}\n", "[1], ".repeat(100_000));
        let started = std::time::Instant::now();
        assert!(matches!(value(&wide), Err(Fault::TooWide { line: 1 })));
        assert!(started.elapsed().as_secs_f64() < 1.0, "{:?}", started.elapsed());
        let long = format!("{{a: [{}1]}}\n", "1, ".repeat(50_000));
        assert!(value(&long).is_ok());
    }

    #[test]
    fn more_than_one_document_is_refused() {
        assert!(matches!(value("a: 1\n---\nb: 2\n"), Err(Fault::Invalid { .. })));
    }
}
