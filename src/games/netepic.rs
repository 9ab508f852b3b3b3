//! NetEpic Gold: army cards (company, support, special) from the army books.

use super::GameId;
use super::{Game, Notation};

pub const GAME: Game = Game {
    id: GameId::Netepic,
    title: "NetEpic Gold",
    entry_noun: "card",
    sheet_noun: "unit",
    rating: None,
    initiative: false,
    typical_points: 3000,
    points_range: None,
    epic_facts: false,
    fleet: false,
    notation: Notation::None,
    battlescribe_systems: &["netepic"],
};
