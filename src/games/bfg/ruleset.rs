//! Battlefleet Gothic's ruleset: a note for each ship whose datasheet has
//! faults.

use crate::diagnostic::Diagnostic;
use crate::games::ruleset::{Force, Ruleset};

pub struct Bfg;

impl Ruleset for Bfg {
    fn check_army(&self, force: &Force<'_>) -> Vec<Diagnostic> {
        super::faults::faulty_datasheets(force.file, force.army, force.catalogue)
    }
}
