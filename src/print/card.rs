//! What the cards of every game share: the glossary lines printed under
//! them, and the words for a value the sources do not give. Each game's
//! card module (`ships`, `space_fleet`, `heresy`, `netepic`) and `view`
//! import it; it imports none of them.

use crate::catalogue::glossary::Entry;

/// Printed for a value the sources do not give.
pub const NOT_IN_SOURCES: &str = "not in the sources";

/// A glossary line: `MW`, `Macro-weapon`, summary. `name` is empty when the
/// term is its own name (`Walker`).
#[derive(Debug, Clone)]
pub struct GlossaryLine {
    pub term: String,
    pub name: String,
    pub summary: String,
}

impl GlossaryLine {
    pub fn from_entry(e: &Entry) -> GlossaryLine {
        match &e.abbreviation {
            Some(a) if a != &e.name => GlossaryLine {
                term: a.clone(),
                name: e.name.clone(),
                summary: e.summary.clone(),
            },
            _ => GlossaryLine {
                term: e.name.clone(),
                name: String::new(),
                summary: e.summary.clone(),
            },
        }
    }
}
