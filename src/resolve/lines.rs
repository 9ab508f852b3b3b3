//! Lines a game reads under a formation itself, apart from its upgrades
//! and members: the hook [`FormationLines`] that `resolve` calls for every
//! formation, and the [`Part`]s those lines make of it. The shared stage
//! names no such line; a game's ruleset hands `resolve` its own
//! (`games::ruleset::Ruleset::formation_lines`, NetEpic Gold's `Titan:`
//! lines in `games/netepic/titans.rs`).

use super::{Resolver, Taken};
use crate::catalogue::{ArmyList, FormationIdx};
use crate::diagnostic::{Code, Diagnostic};
use crate::roster::{Entry, Item, Roster};
use crate::source::Span;

/// A part of a formation fielded part by part, `count` of them alike:
/// each stands for a formation of the list on its own (its formation
/// rules are held for each part, at the part's line, in place of the
/// whole's own count of them all) with what it took and what it costs.
/// What the parts took is in the whole's upgrades too, for its own rules
/// and cost.
#[derive(Debug, Clone)]
pub struct Part {
    /// How many the line fields (`2x`).
    pub count: u32,
    /// The formation each stands for.
    pub formation: FormationIdx,
    pub upgrades: Vec<Taken>,
    /// The cost of one of them.
    pub points: i64,
    pub points_known: bool,
    /// Where the part's line names it.
    pub span: Span,
}

/// What a game reads under a formation besides its upgrades and members.
/// `resolve` asks [`Self::owns`] of every line under a formation, hands
/// the lines owned to [`Self::read`] before it reads the others, and calls
/// [`Self::price`] once the formation's cost is worked out. No method has
/// a default: a game that owns lines must read and price them too (a line
/// owned and not read would vanish without a word). A game without such
/// lines uses [`NoLines`].
pub trait FormationLines {
    /// Whether `child`, written under `formation`, is one of the game's
    /// own lines rather than an upgrade or a member.
    fn owns(&self, list: &ArmyList, formation: FormationIdx, child: &Entry) -> bool;

    /// The parts that the lines under `entry` it owns make of `formation`;
    /// what they took is added to `taken`. `read_whole` is cleared when
    /// something could not be read (the entry's stated cost is then not
    /// compared).
    fn read(
        &self,
        reader: &mut LineReader<'_, '_, '_>,
        entry: &Entry,
        formation: FormationIdx,
        taken: &mut Vec<Taken>,
        read_whole: &mut bool,
    ) -> Vec<Part>;

    /// Prices the parts, once `points` holds the formation's cost (its
    /// rounding done). Returns whether the formation is priced part by
    /// part: `points` is then the parts' sum, and each part is worth its
    /// own cost.
    fn price(
        &self,
        reader: &mut LineReader<'_, '_, '_>,
        entry: &Entry,
        formation: FormationIdx,
        parts: &mut [Part],
        points: &mut i64,
    ) -> bool;
}

/// A game without lines of its own under a formation: owns none, so has
/// none to read or price.
pub struct NoLines;

impl FormationLines for NoLines {
    fn owns(&self, _: &ArmyList, _: FormationIdx, _: &Entry) -> bool {
        false
    }

    fn read(
        &self,
        _: &mut LineReader<'_, '_, '_>,
        _: &Entry,
        _: FormationIdx,
        _: &mut Vec<Taken>,
        _: &mut bool,
    ) -> Vec<Part> {
        Vec::new()
    }

    fn price(
        &self,
        _: &mut LineReader<'_, '_, '_>,
        _: &Entry,
        _: FormationIdx,
        _: &mut [Part],
        _: &mut i64,
    ) -> bool {
        false
    }
}

/// What a [`FormationLines`] may use of `resolve` while it reads.
pub struct LineReader<'a, 'r, 'l> {
    pub(super) resolver: &'a mut Resolver<'r, 'l>,
}

impl<'r, 'l> LineReader<'_, 'r, 'l> {
    pub fn list(&self) -> &'l ArmyList {
        self.resolver.list
    }

    pub fn roster(&self) -> &'r Roster {
        self.resolver.roster
    }

    /// Reads one upgrade `item` names for `formation` into `taken`, as an
    /// upgrade written after it is read; false (reported) when it names
    /// nothing the formation may take.
    pub fn upgrade(&mut self, item: &Item, formation: FormationIdx, taken: &mut Vec<Taken>) -> bool {
        self.resolver.upgrade(item, formation, taken)
    }

    /// An error pointing into the roster.
    pub fn error(&self, code: Code, message: String, span: Span) -> Diagnostic {
        self.resolver.error(code, message, span)
    }

    /// Adds a finding to the roster's.
    pub fn report(&mut self, d: Diagnostic) {
        self.resolver.diagnostics.push(d);
    }
}
