//! NetEpic Gold's ruleset: the titans of a card armed on lines of their
//! own, the army rules over its forces (variants, share caps, allies) and
//! its cards' break points and victory points.

use super::{allies, titans};
use crate::check::summary::{ArmySummary, GameFacts};
use crate::diagnostic::Diagnostic;
use crate::games::ruleset::{Force, Forces, Ruleset};
use crate::resolve::FormationLines;

pub struct NetEpic;

impl Ruleset for NetEpic {
    fn formation_lines(&self) -> &dyn FormationLines {
        &titans::TitanLines
    }

    fn check_forces(&self, forces: &Forces<'_>, diagnostics: &mut Vec<Diagnostic>) {
        allies::army_rules(
            forces.file,
            forces.parsed,
            forces.core,
            forces.lists,
            forces.summary,
            diagnostics,
        );
    }

    fn facts(&self, force: &Force<'_>, summary: &ArmySummary) -> GameFacts {
        allies::victory(summary, force.army.list.game).map_or(GameFacts::None, GameFacts::Cards)
    }
}
