//! Finds the line of a path inside a YAML file, so that a schema error can
//! point at `lists/netea/x.yaml:42` rather than at `/sections/0/formations/3`.
//!
//! serde_yaml keeps no positions, so the text is read a second time with
//! yaml-rust2's event parser, which reports a mark for every node.

use crate::diagnostic::{Code, Diagnostic};
use crate::source::{SourceFile, Span};
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::Marker;

/// Reports problems in one file, pointing at JSON-pointer paths inside it
/// (the positions found on the first report).
pub(crate) struct FileErrors<'a> {
    pub(crate) file: &'a SourceFile,
    positions: Option<Positions>,
    pub(crate) diagnostics: &'a mut Vec<Diagnostic>,
    errors: usize,
}

impl<'a> FileErrors<'a> {
    pub(crate) fn new(file: &'a SourceFile, diagnostics: &'a mut Vec<Diagnostic>) -> FileErrors<'a> {
        FileErrors {
            file,
            positions: None,
            diagnostics,
            errors: 0,
        }
    }

    pub(crate) fn span(&mut self, pointer: &str) -> Span {
        let file = self.file;
        self.positions
            .get_or_insert_with(|| Positions::of(file.text()))
            .span(file, pointer)
    }

    pub(crate) fn error(&mut self, pointer: &str, message: String) {
        let span = self.span(pointer);
        self.errors += 1;
        self.diagnostics
            .push(Diagnostic::error(Code::ListData, message).at(self.file, span));
    }

    /// How many errors were reported.
    pub(crate) fn count(&self) -> usize {
        self.errors
    }
}

/// How deep YAML may nest. Real list and event files nest six or seven
/// levels; serde_yaml stops at 128, and the positions of deeper nodes
/// (each with its whole path) grew with the square of the depth.
pub const MAX_YAML_DEPTH: usize = 64;

/// Reads YAML text as a JSON value, or says where it is not YAML. A key
/// given twice in one mapping is an error naming both lines (serde would
/// keep the second silently: a second `id:` once made one army's data
/// replace another's), and so is nesting deeper than [`MAX_YAML_DEPTH`].
pub fn parse_yaml(file: &SourceFile, code: Code) -> Result<serde_json::Value, Box<Diagnostic>> {
    let positions = Positions::of(file.text());
    if let Some(line) = positions.too_deep {
        let span = file.line_span(line);
        return Err(Box::new(
            Diagnostic::error(
                code,
                format!("the YAML nests more than {MAX_YAML_DEPTH} levels deep"),
            )
            .at(file, span),
        ));
    }
    if let Some(d) = positions.duplicates.first() {
        let mut diagnostic = Diagnostic::error(
            code,
            format!(
                "the key `{}` is given twice in one mapping (lines {} and {})",
                d.key, d.first, d.second
            ),
        )
        .at(file, file.line_span(d.second))
        .also(file, file.line_span(d.first), "first given here")
        .hint("keep one of them: YAML readers would silently keep only the second");
        if positions.duplicates.len() > 1 {
            diagnostic = diagnostic.hint(format!(
                "{} more keys are given twice in this file",
                positions.duplicates.len() - 1
            ));
        }
        return Err(Box::new(diagnostic));
    }
    serde_yaml::from_str(file.text()).map_err(|e| {
        let span = e
            .location()
            .map(|l| Span::new(l.index(), l.index()))
            .unwrap_or_default();
        Box::new(Diagnostic::error(code, format!("not valid YAML: {e}")).at(file, span))
    })
}

/// Where each node of a YAML document starts: (path, line, column), 1-based.
#[derive(Debug, Default)]
pub struct Positions {
    nodes: Vec<(Vec<String>, usize, usize)>,
    /// Keys given twice in one mapping.
    pub duplicates: Vec<Duplicate>,
    /// The line where the nesting first went past [`MAX_YAML_DEPTH`].
    pub too_deep: Option<usize>,
}

/// A key given twice in one mapping, with both 1-based lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    pub key: String,
    pub first: usize,
    pub second: usize,
}

enum Frame {
    Map {
        path: Vec<String>,
        key: Option<String>,
        seen: std::collections::HashMap<String, usize>,
    },
    Seq {
        path: Vec<String>,
        index: usize,
    },
}

#[derive(Default)]
struct Collector {
    stack: Vec<Frame>,
    nodes: Vec<(Vec<String>, usize, usize)>,
    duplicates: Vec<Duplicate>,
    /// Collections open past the depth limit, which are not recorded.
    beyond: usize,
    too_deep: Option<usize>,
}

impl Collector {
    /// The path of the node starting now; `None` when it is a mapping key.
    fn enter(&mut self, scalar: Option<&str>, mark: Marker) -> Option<Vec<String>> {
        let position = (mark.line().max(1), mark.col() + 1);
        let path = match self.stack.last_mut() {
            None => Vec::new(),
            Some(Frame::Map { path, key, seen }) => match key.take() {
                None => {
                    // A key: remember it; its position stands for the entry.
                    let name = scalar.unwrap_or_default().to_string();
                    if let Some(&first) = seen.get(&name) {
                        self.duplicates.push(Duplicate {
                            key: name.clone(),
                            first,
                            second: position.0,
                        });
                    } else {
                        seen.insert(name.clone(), position.0);
                    }
                    let mut full = path.clone();
                    full.push(name.clone());
                    self.nodes.push((full, position.0, position.1));
                    *key = Some(name);
                    return None;
                }
                Some(name) => {
                    let mut full = path.clone();
                    full.push(name);
                    full
                }
            },
            Some(Frame::Seq { path, index }) => {
                let mut full = path.clone();
                full.push(index.to_string());
                *index += 1;
                self.nodes.push((full.clone(), position.0, position.1));
                full
            }
        };
        if path.is_empty() {
            self.nodes.push((Vec::new(), position.0, position.1));
        }
        Some(path)
    }
}

impl MarkedEventReceiver for Collector {
    fn on_event(&mut self, event: Event, mark: Marker) {
        if self.beyond > 0
            || (self.stack.len() >= MAX_YAML_DEPTH
                && !matches!(event, Event::MappingEnd | Event::SequenceEnd))
        {
            // Past the limit nothing is recorded; only the nesting is
            // followed, to know when it comes back.
            match event {
                Event::MappingStart(..) | Event::SequenceStart(..) => {
                    self.beyond += 1;
                    self.too_deep.get_or_insert(mark.line().max(1));
                }
                Event::MappingEnd | Event::SequenceEnd if self.beyond > 0 => self.beyond -= 1,
                Event::MappingEnd | Event::SequenceEnd => {
                    self.stack.pop();
                }
                _ => {}
            }
            return;
        }
        match event {
            Event::Scalar(value, ..) => {
                self.enter(Some(&value), mark);
            }
            Event::Alias(_) => {
                self.enter(None, mark);
            }
            Event::MappingStart(..) => {
                if let Some(path) = self.enter(None, mark) {
                    self.stack.push(Frame::Map {
                        path,
                        key: None,
                        seen: std::collections::HashMap::new(),
                    });
                }
            }
            Event::SequenceStart(..) => {
                if let Some(path) = self.enter(None, mark) {
                    self.stack.push(Frame::Seq { path, index: 0 });
                }
            }
            Event::MappingEnd | Event::SequenceEnd => {
                self.stack.pop();
            }
            _ => {}
        }
    }
}

impl Positions {
    /// Reads the positions of `text`; a text that does not parse gives none.
    pub fn of(text: &str) -> Positions {
        let mut collector = Collector::default();
        let mut parser = Parser::new_from_str(text);
        // A parse error leaves the positions gathered so far, which is the
        // best there is; serde_yaml reports the error itself.
        let _ = parser.load(&mut collector, false);
        Positions {
            nodes: collector.nodes,
            duplicates: collector.duplicates,
            too_deep: collector.too_deep,
        }
    }

    /// The rest of the line where the node at `pointer` starts.
    pub fn span(&self, file: &SourceFile, pointer: &str) -> Span {
        self.find(pointer)
            .map(|(line, col)| {
                let line_span = file.line_span(line);
                Span::new((line_span.start + col - 1).min(line_span.end), line_span.end)
            })
            .unwrap_or_default()
    }

    /// Line and column of the deepest known node on a JSON-pointer path.
    pub fn find(&self, pointer: &str) -> Option<(usize, usize)> {
        let mut wanted: Vec<String> = pointer
            .split('/')
            .skip(1)
            .map(|s| s.replace("~1", "/").replace("~0", "~"))
            .collect();
        loop {
            if let Some((_, line, col)) = self.nodes.iter().find(|(path, ..)| *path == wanted) {
                return Some((*line, *col));
            }
            wanted.pop()?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_keys_and_items() {
        let text = "game: netea\nsections:\n  - id: a\n    formations:\n      - { id: b, points: 5 }\n      - id: c\n        points: x\n";
        let p = Positions::of(text);
        assert_eq!(p.find("/game"), Some((1, 1)));
        assert_eq!(p.find("/sections/0/id"), Some((3, 5)));
        assert_eq!(p.find("/sections/0/formations/0/points"), Some((5, 18)));
        assert_eq!(p.find("/sections/0/formations/1/points"), Some((7, 9)));
        assert_eq!(p.find("/sections/0/formations/1/nothing"), Some((6, 11)));
    }
}
