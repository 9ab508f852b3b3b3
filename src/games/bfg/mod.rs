//! Battlefleet Gothic, the fleet lists of the NetEA pack.

pub mod faults;
pub mod ruleset;

use super::GameId;
use super::{Game, Notation, Rating};

pub const GAME: Game = Game {
    id: GameId::Bfg,
    title: "Battlefleet Gothic",
    entry_noun: "ship or squadron",
    sheet_noun: "ship",
    upgrade_noun: "refit",
    rating: Some(Rating::Attack),
    initiative: false,
    typical_points: 1500,
    points_range: None,
    epic_facts: false,
    cards: false,
    fleet: true,
    rules: &[],
    battlegroups: false,
    notation: Notation::Ship,
    allies: false,
    victory_points_to_win: None,
    battlescribe_systems: &["battlefleet gothic", "bfg"],
    optional_rules: &[],
};
