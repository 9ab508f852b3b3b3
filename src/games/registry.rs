//! The games' rulesets by game id, from the one list of the games
//! (`games::with_games`).

use super::GameId;
use super::ruleset::Ruleset;

macro_rules! rulesets {
    ($($(#[doc = $doc:literal])* $variant:ident $id:literal $folder:ident $ruleset:ident;)*) => {
        /// The ruleset of a game.
        pub fn ruleset(game: GameId) -> &'static dyn Ruleset {
            match game {
                $(GameId::$variant => &super::$folder::ruleset::$ruleset,)*
            }
        }
    };
}
super::with_games!(rulesets);
