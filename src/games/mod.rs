//! What differs between the games muster knows, in one folder per game.
//!
//! The engine is shared: lists, groups, constraints, resolution and
//! validation know no game. What a game changes is described in its folder
//! (`games/<game>/`): as data in its `mod.rs` (the words used for an entry,
//! the army-wide rating printed with a roster, the usual game size, whether
//! Epic Armageddon's derived facts apply, whether a roster prints as a
//! fleet, and which datasheet notation its units are written in), which
//! code elsewhere asks through `games::of(id)` instead of matching on a
//! game; and as code in its ruleset (`games/<game>/ruleset.rs`, the
//! [`ruleset::Ruleset`] trait), the game's own checks and facts that
//! `check` runs between its shared stages, found by [`registry::ruleset`].
//!
//! Two layers: this file and each game's `mod.rs` are the lowest layer and
//! import nothing from the rest of muster; the rulesets and the files
//! beside them (`heresy/battlegroups.rs`, `netepic/allies.rs`...) sit above
//! the shared stages they are run from.

pub mod bfg;
pub mod heresy;
pub mod netea;
pub mod netepic;
pub mod registry;
pub mod ruleset;
pub mod space_fleet;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Every game muster knows, each on one line: its doc comment (which the
/// published schemas carry), its [`GameId`] variant, its id in files and
/// on the command line, its folder under `games/` and its ruleset's type.
/// Adding a game is a line here; `macro` is handed the lines and builds
/// from them what it needs ([`GameId`] and [`of`] below, the ruleset
/// look-up in `registry`), so no other list of the games is kept.
macro_rules! with_games {
    ($macro:ident) => {
        $macro! {
            /// Epic Armageddon with the NetEA tournament lists.
            Netea "netea" netea NetEa;
            /// Battlefleet Gothic.
            Bfg "bfg" bfg Bfg;
            /// Space Fleet.
            SpaceFleet "space-fleet" space_fleet SpaceFleet;
            /// NetEpic Gold.
            Netepic "netepic" netepic NetEpic;
            /// Heresy.
            Heresy "heresy" heresy Heresy;
        }
    };
}
pub(crate) use with_games;

/// [`GameId`], its list of every game and its ids; [`of`].
macro_rules! game_ids {
    ($($(#[doc = $doc:literal])* $variant:ident $id:literal $folder:ident $ruleset:ident;)*) => {
        // The only file-format type outside `catalogue::raw` (which
        // re-exports it), because every layer names games.
        /// The games muster knows. The game decides the roster dialect and the small
        /// amount of game-specific checking; everything else is data.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize, Serialize, JsonSchema)]
        pub enum GameId {
            $($(#[doc = $doc])* #[serde(rename = $id)] $variant,)*
        }

        impl GameId {
            /// Every game, in the order muster lists them.
            pub const ALL: [GameId; [$($id),*].len()] = [$(GameId::$variant),*];

            pub fn as_str(self) -> &'static str {
                match self {
                    $(GameId::$variant => $id,)*
                }
            }
        }

        /// The description of a game.
        pub fn of(id: GameId) -> &'static Game {
            match id {
                $(GameId::$variant => &$folder::GAME,)*
            }
        }
    };
}
with_games!(game_ids);

impl GameId {
    /// The game whose id is `text` (`netea`, `bfg`, `space-fleet`...).
    pub fn from_id(text: &str) -> Option<GameId> {
        GameId::ALL
            .into_iter()
            .find(|g| g.as_str() == text.trim().to_ascii_lowercase())
    }

    /// What a roster entry is called in the game, for messages.
    pub fn entry_noun(self) -> &'static str {
        of(self).entry_noun
    }

    pub fn title(self) -> &'static str {
        of(self).title
    }

    /// The game's description.
    pub fn game(self) -> &'static Game {
        of(self)
    }

    /// The game a BattleScribe game system's name stands for: the game
    /// with the longest of its `battlescribe_systems` in the name.
    pub fn from_battlescribe_system(name: &str) -> Option<GameId> {
        let name = name.to_lowercase();
        GameId::ALL
            .into_iter()
            .filter_map(|g| {
                of(g)
                    .battlescribe_systems
                    .iter()
                    .filter(|w| name.contains(**w))
                    .map(|w| w.len())
                    .max()
                    .map(|len| (len, g))
            })
            .max_by_key(|&(len, _)| len)
            .map(|(_, g)| g)
    }
}

/// The army-wide rating a game's lists carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rating {
    /// Epic Armageddon's strategy rating (`strategy_rating`).
    Strategy,
    /// Battlefleet Gothic's attack rating (`attack_rating`).
    Attack,
}

impl Rating {
    pub fn name(self) -> &'static str {
        match self {
            Rating::Strategy => "strategy rating",
            Rating::Attack => "attack rating",
        }
    }
}

/// How a game's datasheets are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notation {
    /// Epic Armageddon's (`grammar/notation.pest`).
    Epic,
    /// Battlefleet Gothic's ship notation (`grammar/ship.pest`).
    Ship,
    /// Space Fleet's ship notation (`grammar/space-fleet.pest`).
    SpaceFleet,
    /// Heresy's stat lines (`grammar/heresy.pest`).
    Heresy,
    /// NetEpic Gold's unit notation (`grammar/netepic.pest`).
    NetEpic,
    /// Not yet: the facts are in the entries' notes.
    None,
}

impl Notation {
    /// The game whose glossary explains this notation written bare, with
    /// no army to say whose it is (`muster explain 30cm, 4+`): the first
    /// game, in [`GameId::ALL`]'s order, whose datasheets are written in it.
    pub fn first_game(self) -> Option<GameId> {
        GameId::ALL.into_iter().find(|&g| of(g).notation == self)
    }
}

/// One game, as the rest of muster needs to know it.
#[derive(Debug)]
pub struct Game {
    pub id: GameId,
    pub title: &'static str,
    /// A roster entry, in messages ("formation", "ship or squadron").
    pub entry_noun: &'static str,
    /// What a datasheet describes ("unit", "ship").
    pub sheet_noun: &'static str,
    /// What the game calls an option bought for an entry, where crib
    /// sheets say what it changed ("refit" in Battlefleet Gothic,
    /// "upgrade" in Epic).
    pub upgrade_noun: &'static str,
    /// The rating every list of the game must state, if any.
    pub rating: Option<Rating>,
    /// Whether formations carry an initiative rating (required then).
    pub initiative: bool,
    /// The points limit `muster new` writes.
    pub typical_points: u32,
    /// Limits outside which a game is unbalanced (a warning), if the
    /// game's tournament rules give them.
    pub points_range: Option<(u32, u32)>,
    /// Epic Armageddon's garrison, reserve and strength facts.
    pub epic_facts: bool,
    /// A roster prints as army cards: Support and Special cards under
    /// their Company card, with break points and victory points.
    pub cards: bool,
    /// A roster prints as a fleet: ships under their squadrons.
    pub fleet: bool,
    pub notation: Notation,
    /// Whether a roster may field allied forces (`Allies:` lines); without
    /// them such a line is refused. Who may ally with whom is the game's
    /// ruleset's (NetEpic Gold's ally tables).
    pub allies: bool,
    /// Victory points needed to win for an army of so many points, when
    /// the game's cards carry break points and victory points.
    pub victory_points_to_win: Option<fn(u32) -> u32>,
    /// Rules of the game itself that every list of it gets, as if written
    /// in its `constraints` (a list's constraint with the same id replaces
    /// one). Their selectors name conventional tags; a list without the tag
    /// has nothing the rule counts, and a rule that applies to formations
    /// the list does not have is left out.
    pub rules: &'static [GameRule],
    /// Commanders over battlegroups over detachments (Heresy): rosters get
    /// the battlegroup facts and checks of `heresy::battlegroups`.
    pub battlegroups: bool,
    /// Words a BattleScribe game system's name holds for this game
    /// (`NetEpic Gold`), lower case: a roster's `gameSystemName` picks
    /// among lists of the same catalogue name in several games.
    pub battlescribe_systems: &'static [&'static str],
    /// The optional rules of the game a roster may take (`Optional rules:
    /// titan battle groups`), as written in lower case.
    pub optional_rules: &'static [&'static str],
}

impl Game {
    /// The hint for an optional rule the game does not have: the ones it has.
    pub fn optional_rules_hint(&self) -> String {
        match self.optional_rules {
            [] => format!("{} has no optional rules muster knows", self.title),
            known => format!(
                "the optional rules muster knows: {}",
                known
                    .iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

/// Where a game rule runs (the list files' `scope`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleScope {
    Army,
    Formation,
    Group,
}

/// A rule of a game, in the constraint language (`lists/README.md`).
#[derive(Debug)]
pub struct GameRule {
    pub id: &'static str,
    pub scope: RuleScope,
    /// Ids or `tag:NAME`; empty for every formation.
    pub applies_to: &'static [&'static str],
    pub rule: &'static str,
    /// In our words.
    pub message: &'static str,
    pub provenance: &'static str,
}

/// The starter files `muster new --game GAME` writes (file name, text),
/// for a game whose army lists players write; `None` for other games.
pub fn starter_files(game: &str) -> Option<&'static [(&'static str, &'static str)]> {
    match game.trim().to_ascii_lowercase().as_str() {
        "heresy" => Some(heresy::STARTER_FILES),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_describes_itself() {
        for id in GameId::ALL {
            assert_eq!(GameId::from_id(id.as_str()), Some(id));
            let game = of(id);
            assert_eq!(game.id, id);
            assert!(game.typical_points > 0);
            // Epic's facts need Epic datasheets.
            assert!(!game.epic_facts || game.notation == Notation::Epic);
        }
    }

    /// Bare notation is explained with the glossary of the first game
    /// written in it: NetEA's for Epic's, Battlefleet Gothic's for ships.
    #[test]
    fn a_notation_finds_its_first_game() {
        assert_eq!(Notation::Epic.first_game(), Some(GameId::Netea));
        assert_eq!(Notation::Ship.first_game(), Some(GameId::Bfg));
        assert_eq!(Notation::Heresy.first_game(), Some(GameId::Heresy));
        assert_eq!(Notation::None.first_game(), None);
        for id in GameId::ALL {
            let first = of(id).notation.first_game().map(|g| of(g).notation);
            assert_eq!(first, Some(of(id).notation), "{id:?}");
        }
    }
}
