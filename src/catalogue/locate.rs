//! Finds the line of a path inside a YAML file, so that a schema error can
//! point at `lists/netea/x.yaml:42` rather than at `/sections/0/formations/3`.
//!
//! The value and the positions come from one pass of yaml-rust2's event
//! parser (`super::yaml`).

use crate::diagnostic::{Code, Diagnostic};
use crate::source::{SourceFile, Span};

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

use super::yaml::{Fault, read};
pub use super::yaml::{MAX_YAML_DEPTH, MAX_YAML_NODES, Positions};

/// Reads YAML text as a JSON value, or says why not (see
/// [`super::yaml`]): not YAML, nested past [`MAX_YAML_DEPTH`], more than
/// [`MAX_YAML_NODES`] nodes, or a key given twice in one mapping (YAML
/// readers keep the second silently: a second `id:` once made one army's
/// data replace another's).
pub fn parse_yaml(file: &SourceFile, code: Code) -> Result<serde_json::Value, Box<Diagnostic>> {
    parse_yaml_at(file, code).map(|(value, _)| value)
}

/// [`parse_yaml`], with the positions of the nodes.
pub fn parse_yaml_at(
    file: &SourceFile,
    code: Code,
) -> Result<(serde_json::Value, Positions), Box<Diagnostic>> {
    let read = read(file.text());
    let fault = match read.value {
        Ok(value) => return Ok((value, read.positions)),
        Err(fault) => fault,
    };
    let diagnostic = match fault {
        Fault::Invalid { line, message } => {
            Diagnostic::error(code, format!("not valid YAML: {message}")).at(file, file.line_span(line))
        }
        Fault::TooDeep { line } => Diagnostic::error(
            code,
            format!("the YAML nests more than {MAX_YAML_DEPTH} levels deep"),
        )
        .at(file, file.line_span(line)),
        Fault::TooWide { line } => Diagnostic::error(
            code,
            format!(
                "a `[...]` or `{{...}}` inside another holds more than {} `[` or `{{`; muster reads no more in one",
                super::yaml::MAX_LOOKAHEAD_OPENERS
            ),
        )
        .at(file, file.line_span(line))
        .hint("write a long list as a block list, one `- ` item a line"),
        Fault::TooMany { line } => Diagnostic::error(
            code,
            format!(
                "the YAML holds more than {} values; a list or event file may hold at most that many",
                crate::diagnostic::thousands(MAX_YAML_NODES)
            ),
        )
        .at(file, file.line_span(line)),
        Fault::Duplicate {
            key,
            first,
            second,
            others,
        } => {
            let mut d = Diagnostic::error(
                code,
                format!("the key `{key}` is given twice in one mapping (lines {first} and {second})"),
            )
            .at(file, file.line_span(second))
            .also(file, file.line_span(first), "first given here")
            .hint("keep one of them: YAML readers would silently keep only the second");
            if others > 0 {
                d = d.hint(format!("{others} more keys are given twice in this file"));
            }
            d
        }
    };
    Err(Box::new(diagnostic))
}

impl Positions {
    /// Reads the positions of `text`; what does not parse gives those
    /// read before the fault.
    pub fn of(text: &str) -> Positions {
        read(text).positions
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
