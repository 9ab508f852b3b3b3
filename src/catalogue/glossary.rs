//! Glossaries: every abbreviation and special rule of a game's datasheets,
//! with its full name and a one-line summary (`lists/<game>/glossary.yaml`).
//!
//! Linking checks that ids are unique and that every term the game's parsed
//! datasheets use has an entry, so a crib sheet never prints a note it
//! cannot expand. Rendering is not done here.

use super::locate::Positions;
use super::raw::{GameId, GlossaryFile, TermKind};
use super::{Catalogue, Datasheet};
use crate::diagnostic::{Code, Diagnostic};
use crate::source::{SourceFile, Span};
use std::collections::BTreeSet;

/// One game's glossary.
#[derive(Debug, Clone)]
pub struct Glossary {
    pub game: GameId,
    pub entries: Vec<Entry>,
}

/// One abbreviation or special rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub id: String,
    pub abbreviation: Option<String>,
    pub name: String,
    pub kind: TermKind,
    pub summary: String,
}

impl Entry {
    /// `MW (Macro-weapon)`, or the name alone where there is no
    /// abbreviation.
    pub fn title(&self) -> String {
        match &self.abbreviation {
            Some(a) if a != &self.name => format!("{a} ({})", self.name),
            _ => self.name.clone(),
        }
    }
}

impl Glossary {
    pub fn entry(&self, id: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.id == id)
    }

    /// Entries for `ids`, in glossary order, skipping unknown ids.
    pub fn entries_for<'g>(&'g self, ids: &BTreeSet<&str>) -> Vec<&'g Entry> {
        self.entries
            .iter()
            .filter(|e| ids.contains(e.id.as_str()))
            .collect()
    }
}

impl Catalogue {
    pub fn glossary(&self, game: GameId) -> Option<&Glossary> {
        self.glossaries.iter().find(|g| g.game == game)
    }
}

impl Datasheet {
    /// Every glossary id its datasheet uses: unit type, the column heads a
    /// crib sheet prints (CC, FF), and every parsed value.
    pub fn glossary_ids(&self) -> Vec<&'static str> {
        let mut ids: Vec<&'static str> = self.unit_type.glossary_ids().to_vec();
        ids.extend(["close-combat", "firefight"]);
        if self.critical_hit.is_some() {
            ids.push("critical-hit");
        }
        if let Some(sheet) = self.sheet() {
            for id in sheet.glossary_ids() {
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
        }
        ids
    }
}

/// Adds the glossaries to the catalogue (a later file for the same game
/// replaces an earlier one) and checks them against the datasheets.
pub(super) fn link(
    catalogue: &mut Catalogue,
    files: Vec<(GlossaryFile, SourceFile)>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let mut sources: Vec<(GameId, SourceFile)> = Vec::new();
    for (file, source) in files {
        let mut positions: Option<Positions> = None;
        let mut seen = BTreeSet::new();
        for (i, term) in file.terms.iter().enumerate() {
            if !seen.insert(term.id.as_str()) {
                let positions = positions.get_or_insert_with(|| Positions::of(source.text()));
                let span = positions
                    .find(&format!("/terms/{i}/id"))
                    .map(|(line, _)| source.line_span(line))
                    .unwrap_or_default();
                diagnostics.push(
                    Diagnostic::error(Code::ListData, format!("glossary id `{}` is used twice", term.id))
                        .at(&source, span),
                );
            }
        }
        let glossary = Glossary {
            game: file.game,
            entries: file
                .terms
                .into_iter()
                .map(|t| Entry {
                    id: t.id,
                    abbreviation: t.abbreviation,
                    name: t.name,
                    kind: t.kind,
                    summary: t.summary,
                })
                .collect(),
        };
        sources.retain(|(game, _)| *game != glossary.game);
        sources.push((glossary.game, source));
        catalogue.glossaries.retain(|g| g.game != glossary.game);
        catalogue.glossaries.push(glossary);
    }

    // Every term a parsed datasheet uses must be in its game's glossary.
    let mut missing: Vec<(GameId, &'static str, &str)> = Vec::new();
    // Only what was parsed while loading: a run that prints no datasheet
    // parses none (`lists --check` and the tests parse every one).
    for sheet in catalogue.every_sheet() {
        let Some(ids) = sheet.glossary_ids_at_load() else {
            continue;
        };
        let game = sheet.game();
        for id in ids {
            let known = catalogue.glossary(game).is_some_and(|g| g.entry(id).is_some());
            if !known && !missing.iter().any(|(g, m, _)| *g == game && *m == id) {
                missing.push((game, id, sheet.id()));
            }
        }
    }
    for (game, id, unit) in missing {
        let message = format!(
            "the {} glossary has no entry `{id}`, which datasheet `{unit}` uses",
            game.as_str()
        );
        let d = Diagnostic::error(Code::ListData, message).hint(format!(
            "add it to lists/{}/glossary.yaml (the format is schema/glossary.schema.json)",
            game.as_str()
        ));
        diagnostics.push(match sources.iter().find(|(g, _)| *g == game) {
            Some((_, source)) => d.at(source, Span::default()),
            None => d,
        });
    }
}
