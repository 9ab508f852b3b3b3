//! NetEpic Gold: army cards (company, support, special) from the army books.
//! Unit datasheets in the game's own notation (`grammar/netepic.pest`):
//! class, move, save, CAF, morale, weapons, special abilities.

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
    cards: true,
    fleet: false,
    notation: Notation::NetEpic,
};

/// The pinning class of a unit class (core rules, Appendix A): 1 infantry
/// and light artillery, 2 cavalry and walkers, 3 vehicles and heavy
/// artillery, 4 superheavies and knights, 5 titans and praetorians. `None`
/// for a class the table does not name (Flyer, Skimmer, Floater).
pub fn pinning_class(class: &str) -> Option<u8> {
    match class.to_ascii_lowercase().as_str() {
        "infantry" | "light artillery" => Some(1),
        "cavalry" | "walker" => Some(2),
        "vehicle" | "heavy artillery" => Some(3),
        "superheavy" | "knight" => Some(4),
        "titan" | "praetorian" => Some(5),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn pinning_classes_follow_appendix_a() {
        assert_eq!(super::pinning_class("Infantry"), Some(1));
        assert_eq!(super::pinning_class("Light Artillery"), Some(1));
        assert_eq!(super::pinning_class("Walker"), Some(2));
        assert_eq!(super::pinning_class("Heavy Artillery"), Some(3));
        assert_eq!(super::pinning_class("Knight"), Some(4));
        assert_eq!(super::pinning_class("Praetorian"), Some(5));
        assert_eq!(super::pinning_class("Flyer"), None);
    }
}
