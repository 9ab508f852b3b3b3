//! Heresy: battlegroups under commanders, in lists its players write.

use super::GameId;
use super::{Game, Notation};

pub const GAME: Game = Game {
    id: GameId::Heresy,
    title: "Heresy",
    entry_noun: "detachment",
    sheet_noun: "unit",
    rating: None,
    initiative: false,
    typical_points: 3000,
    points_range: None,
    epic_facts: false,
    fleet: false,
    notation: Notation::None,
};
