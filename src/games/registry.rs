//! The games' rulesets by game id: the one place that names them all.

use super::GameId;
use super::ruleset::Ruleset;

/// The ruleset of a game.
pub fn ruleset(game: GameId) -> &'static dyn Ruleset {
    match game {
        GameId::Netea => &super::netea::ruleset::NetEa,
        GameId::Bfg => &super::bfg::ruleset::Bfg,
        GameId::SpaceFleet => &super::space_fleet::ruleset::SpaceFleet,
        GameId::Netepic => &super::netepic::ruleset::NetEpic,
        GameId::Heresy => &super::heresy::ruleset::Heresy,
    }
}
