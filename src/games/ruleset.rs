//! What a game adds to the shared stages of a check (`crate::check`): the
//! lines it reads under a formation itself, its own checks of the core
//! army, its checks over all the army's forces, and its facts for the
//! army's summary. Each game implements [`Ruleset`] in
//! its folder (`games/<game>/ruleset.rs`); `games::registry` finds it by
//! game id.

use crate::catalogue::{ArmyList, Catalogue};
use crate::check::summary::{ArmySummary, GameFacts};
use crate::diagnostic::Diagnostic;
use crate::resolve::{Army, FormationLines, NoLines};
use crate::roster::{Header, Roster};
use crate::scenario::Applied;
use crate::source::SourceFile;

/// The core army as the shared stages leave it: resolved and validated.
pub struct Force<'a> {
    pub file: &'a SourceFile,
    pub header: &'a Header,
    pub army: &'a Army<'a>,
    pub catalogue: &'a Catalogue,
    pub scenario: Option<&'a Applied<'a>>,
    /// The points limit the roster is held to.
    pub limit: Option<u32>,
}

/// Every force of the army: the roster, the core army's list, each allied
/// force's list (`None` where its `Allies:` line names no list muster may
/// use) and the army's summary with every force in it.
pub struct Forces<'a> {
    pub file: &'a SourceFile,
    pub parsed: &'a Roster,
    pub core: &'a ArmyList,
    pub lists: &'a [Option<&'a ArmyList>],
    pub summary: &'a ArmySummary,
}

/// A game's own rules, run by `check` between its shared stages. Every
/// method has a default that adds nothing.
pub trait Ruleset: Sync {
    /// The lines the game reads under a formation itself, apart from its
    /// upgrades and members, which `resolve` hands to it (NetEpic Gold's
    /// titans armed on `Titan:` lines).
    fn formation_lines(&self) -> &dyn FormationLines {
        &NoLines
    }

    /// The game's own checks of the core army, after it is validated.
    fn check_army(&self, _force: &Force<'_>) -> Vec<Diagnostic> {
        Vec::new()
    }

    /// The game's own checks over the army's forces, once the allied forces
    /// have joined the summary.
    fn check_forces(&self, _forces: &Forces<'_>, _diagnostics: &mut Vec<Diagnostic>) {}

    /// What the game's own rules add to the army's summary.
    fn facts(&self, _force: &Force<'_>, _summary: &ArmySummary) -> GameFacts {
        GameFacts::None
    }
}
