//! Epic Armageddon, the NetEA tournament lists.

pub mod counts_as;
pub mod facts;
pub mod ruleset;

use super::GameId;
use super::{Game, Notation, Rating};

pub const GAME: Game = Game {
    id: GameId::Netea,
    title: "Epic Armageddon (NetEA)",
    entry_noun: "formation",
    sheet_noun: "unit",
    upgrade_noun: "upgrade",
    rating: Some(Rating::Strategy),
    initiative: true,
    typical_points: 3000,
    // NetEA lists are balanced for 2,000-5,000 points (tournament rules 6.1.1).
    points_range: Some((2000, 5000)),
    epic_facts: true,
    cards: false,
    fleet: false,
    rules: &[],
    battlegroups: false,
    notation: Notation::Epic,
    allies: false,
    victory_points_to_win: None,
    battlescribe_systems: &["epic armageddon", "netea", "epic a"],
    optional_rules: &[],
};
