//! Heresy's ruleset: battlegroups under commanders, their checks and the
//! scenario's, and their break points and victory points.

use super::battlegroups;
use crate::check::summary::{ArmySummary, GameFacts};
use crate::diagnostic::Diagnostic;
use crate::games::ruleset::{Force, Ruleset};

pub struct Heresy;

impl Ruleset for Heresy {
    fn check_army(&self, force: &Force<'_>) -> Vec<Diagnostic> {
        let mut out = battlegroups::check(force.file, force.army, force.catalogue);
        out.extend(battlegroups::check_scenario(
            force.file,
            force.header,
            force.scenario,
            force.army,
            force.limit,
        ));
        out
    }

    fn facts(&self, force: &Force<'_>, _summary: &ArmySummary) -> GameFacts {
        battlegroups::derive(force.army, force.catalogue, force.limit)
            .map_or(GameFacts::None, GameFacts::Heresy)
    }
}
