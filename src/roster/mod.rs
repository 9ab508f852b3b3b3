//! Rosters as written: the syntax tree of `grammar/roster.pest`.
//!
//! Parsing never fails: [`parse`] returns a [`Roster`] with whatever it could
//! read and a diagnostic for every line it could not. Names stay strings
//! here; `resolve` matches them against a list.

mod fast;
mod parse;
mod syntax;

pub use parse::{
    MAX_COUNT, MAX_FORMATIONS, MAX_ROSTER_BYTES, Unreadable, army_and_scenario, army_name, decode, parse,
    parse_reference, reader_disagreements, reads_back, writable_name,
};

use crate::source::{SourceFile, Span};

/// A value with the place it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(value: T, span: Span) -> Spanned<T> {
        Spanned { value, span }
    }
}

/// Which format the roster was written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// muster's own format: `Key: value` header, one entry a line.
    Native,
    /// Snapfire's plain-text export.
    Snapfire,
}

#[derive(Debug, Clone)]
pub struct Roster {
    pub file: SourceFile,
    pub dialect: Dialect,
    pub header: Header,
    pub entries: Vec<Entry>,
    pub counts_as: Vec<CountsAs>,
}

#[derive(Debug, Clone, Default)]
pub struct Header {
    /// The army list named, without any version in parentheses.
    pub army: Option<Spanned<String>>,
    /// The list version named (`Army: X (2026-02-04)`, `Version:`, or
    /// Snapfire's version string).
    pub version: Option<Spanned<String>>,
    /// The points limit the roster states (`Points: 3000`).
    pub points: Option<Spanned<u32>>,
    /// The number in Snapfire's title line (`Name, 2995 POINTS`): what the
    /// force costs, not the game's size.
    pub snapfire_total: Option<Spanned<u32>>,
    pub player: Option<Spanned<String>>,
    pub event: Option<Spanned<String>>,
    /// Snapfire's army name (the first line of its export).
    pub title: Option<Spanned<String>>,
    /// The whole line naming the army, for diagnostics about the army.
    pub army_line: Option<Span>,
    /// `Allies: <list>` lines (NetEpic Gold): each starts an allied force,
    /// the entries after it up to the next one.
    pub allies: Vec<Allied>,
    /// The scenario played (`Scenario: Jump Point`, Heresy's `Scenario:
    /// Attack and defend`), in games that have them.
    pub scenario: Option<Spanned<String>>,
    /// The side the roster plays in the scenario (`Side: attacker`).
    pub side: Option<Spanned<String>>,
    /// The opponent's points (`Opponent points: 1000`), for a scenario that
    /// sets one side's points from the other's.
    pub opponent_points: Option<Spanned<u32>>,
    /// Optional rules of the game the roster plays by (`Optional rules:
    /// titan battle groups`), one value a line, in games that have them.
    pub optional_rules: Vec<Spanned<String>>,
}

/// An `Allies: <list>` line: the entries written after it (up to the next
/// such line) are a force of that list, checked on its own.
#[derive(Debug, Clone)]
pub struct Allied {
    /// The list named, without any version in parentheses.
    pub army: Spanned<String>,
    pub version: Option<Spanned<String>>,
    /// The whole line.
    pub line: Span,
    /// Index in `Roster::entries` of the force's first entry (its entries
    /// run to the next allied force's `first`, or to the end).
    pub first: usize,
}

/// A name with a count, as in `2x Land Raider`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub count: u32,
    /// Whether a count was written at all.
    pub counted: bool,
    pub name: Spanned<String>,
    /// The whole item, count included.
    pub span: Span,
}

/// One formation line with what hangs under it.
#[derive(Debug, Clone)]
pub struct Entry {
    pub item: Item,
    /// Upgrades after the colon, or on a Snapfire details line.
    pub upgrades: Vec<Item>,
    pub cost: Option<Spanned<u32>>,
    /// Entries indented under this one.
    pub children: Vec<Entry>,
    /// The whole line.
    pub line_span: Span,
    /// Snapfire: the details line, for stripping the unit description.
    pub details: Option<Spanned<String>>,
}

#[derive(Debug, Clone)]
pub struct CountsAs {
    pub model: Spanned<String>,
    pub target: Spanned<String>,
    pub span: Span,
}
