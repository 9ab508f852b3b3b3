//! Space Fleet, the 1991 rules (source 002): squadrons with commanders,
//! flagships, support ships. Ship datasheets in the game's own notation
//! (`grammar/space-fleet.pest`): dice per range band, shields per facing.

pub mod ruleset;

use super::GameId;
use super::{Game, Notation};

pub const GAME: Game = Game {
    id: GameId::SpaceFleet,
    title: "Space Fleet",
    entry_noun: "ship or squadron",
    sheet_noun: "ship",
    upgrade_noun: "option",
    rating: None,
    initiative: false,
    typical_points: 1000,
    points_range: None,
    epic_facts: false,
    cards: false,
    fleet: true,
    rules: &[],
    battlegroups: false,
    notation: Notation::SpaceFleet,
    allies: false,
    victory_points_to_win: None,
    battlescribe_systems: &["space fleet"],
    optional_rules: &[],
};
