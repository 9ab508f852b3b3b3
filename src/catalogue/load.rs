//! Reading list files: embedded ones, then those of `--lists DIR`.
//!
//! Each file is parsed as YAML, validated against its JSON Schema, then
//! deserialized and linked. Every problem becomes a diagnostic naming the
//! file, the path inside it and the line; a broken file is left out and the
//! rest still load.

use super::locate;
use super::raw::{ArmyListFile, DatasheetFile, GlossaryFile, ModelsFile};
use super::{Catalogue, link};
use crate::diagnostic::{Code, Diagnostic};
use crate::source::SourceFile;
use std::path::{Path, PathBuf};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded_lists.rs"));
}

/// Where a list came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// Built into the binary; the path below `lists/`.
    Embedded(String),
    /// Read from a folder given with `--lists`.
    File(PathBuf),
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::Embedded(path) => write!(f, "built-in lists/{path}"),
            Origin::File(path) => write!(f, "{}", path.display()),
        }
    }
}

/// The catalogue, and everything wrong with the files it came from.
#[derive(Debug)]
pub struct LoadReport {
    pub catalogue: Catalogue,
    pub diagnostics: Vec<Diagnostic>,
    /// How many files were read.
    pub files: usize,
}

impl LoadReport {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Loads the lists built into the binary.
pub fn load_embedded() -> LoadReport {
    load(None)
}

/// Loads the built-in lists, then adds or overrides from `extra`.
pub fn load(extra: Option<&Path>) -> LoadReport {
    let mut diagnostics = Vec::new();
    let mut sources: Vec<(SourceFile, Origin)> = embedded::EMBEDDED
        .iter()
        .map(|(name, text)| {
            (
                SourceFile::new(format!("lists/{name}"), *text),
                Origin::Embedded((*name).to_string()),
            )
        })
        .collect();
    if let Some(dir) = extra {
        read_dir(dir, &mut sources, &mut diagnostics);
    }
    let files = sources.len();

    let mut lists = Vec::new();
    let mut sheets = Vec::new();
    let mut models = Vec::new();
    let mut glossaries = Vec::new();
    for (file, origin) in sources {
        match parse_file(&file, &mut diagnostics) {
            Some(Parsed::List(list)) => lists.push((list, file, origin)),
            Some(Parsed::Datasheets(d)) => sheets.push((d, file)),
            Some(Parsed::Models(m)) => models.push(m),
            Some(Parsed::Glossary(g)) => glossaries.push((g, file)),
            None => {}
        }
    }
    let mut catalogue = link::link(lists, sheets, models, &mut diagnostics);
    super::glossary::link(&mut catalogue, glossaries, &mut diagnostics);
    LoadReport {
        catalogue,
        diagnostics,
        files,
    }
}

fn read_dir(dir: &Path, out: &mut Vec<(SourceFile, Origin)>, diagnostics: &mut Vec<Diagnostic>) {
    let mut paths = Vec::new();
    if let Err(e) = walk(dir, &mut paths) {
        diagnostics.push(Diagnostic::error(
            Code::ListData,
            format!("cannot read the list folder {}: {e}", dir.display()),
        ));
        return;
    }
    paths.sort();
    for path in paths {
        match std::fs::read(&path) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(text) => out.push((
                    SourceFile::new(path.display().to_string(), text),
                    Origin::File(path),
                )),
                Err(_) => diagnostics.push(Diagnostic::error(
                    Code::ListData,
                    format!("{} is not UTF-8 text", path.display()),
                )),
            },
            Err(e) => diagnostics.push(Diagnostic::error(
                Code::ListData,
                format!("cannot read {}: {e}", path.display()),
            )),
        }
    }
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            out.push(path);
        }
    }
    Ok(())
}

enum Parsed {
    List(Box<ArmyListFile>),
    Datasheets(DatasheetFile),
    Models(ModelsFile),
    Glossary(GlossaryFile),
}

/// The kinds of file `lists/` holds, told apart by their top-level key.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    List,
    Datasheets,
    Models,
    Glossary,
}

fn parse_file(file: &SourceFile, diagnostics: &mut Vec<Diagnostic>) -> Option<Parsed> {
    let value = match locate::parse_yaml(file, Code::ListData) {
        Ok(value) => value,
        Err(d) => {
            diagnostics.push(*d);
            return None;
        }
    };
    let kind = if value.get("sections").is_some() {
        Kind::List
    } else if value.get("units").is_some() || value.get("ships").is_some() {
        Kind::Datasheets
    } else if value.get("models").is_some() {
        Kind::Models
    } else if value.get("terms").is_some() {
        Kind::Glossary
    } else {
        diagnostics.push(
            Diagnostic::error(
                Code::ListData,
                "not a list file: an army list has `sections:`, a datasheet file `units:` or `ships:`, a model file `models:`, a glossary `terms:`",
            )
            .at(file, file.line_span(1)),
        );
        return None;
    };
    let (validator, schema) = match kind {
        Kind::List => (crate::schema::army_list_validator(), "army-list"),
        Kind::Datasheets => (crate::schema::datasheets_validator(), "datasheets"),
        Kind::Models => (crate::schema::models_validator(), "models"),
        Kind::Glossary => (crate::schema::glossary_validator(), "glossary"),
    };
    let hint = format!("the format is described in lists/README.md and schema/{schema}.schema.json");
    let errors = locate::schema_errors(file, &value, validator, Code::ListData, &hint);
    if !errors.is_empty() {
        diagnostics.extend(errors);
        return None;
    }
    let parsed = match kind {
        Kind::List => serde_json::from_value::<ArmyListFile>(value).map(|l| Parsed::List(Box::new(l))),
        Kind::Datasheets => serde_json::from_value::<DatasheetFile>(value).map(Parsed::Datasheets),
        Kind::Models => serde_json::from_value::<ModelsFile>(value).map(Parsed::Models),
        Kind::Glossary => serde_json::from_value::<GlossaryFile>(value).map(Parsed::Glossary),
    };
    match parsed {
        Ok(parsed) => Some(parsed),
        Err(e) => {
            diagnostics.push(
                Diagnostic::error(Code::ListData, format!("cannot read the file: {e}"))
                    .at(file, file.line_span(1)),
            );
            None
        }
    }
}
