//! Heresy: battlegroups under commanders, in lists its players write.

pub mod battlegroups;
pub mod ruleset;

use super::GameId;
use super::{Game, GameRule, Notation, RuleScope};

pub const GAME: Game = Game {
    id: GameId::Heresy,
    title: "Heresy",
    entry_noun: "detachment",
    sheet_noun: "unit",
    upgrade_noun: "upgrade",
    rating: None,
    initiative: false,
    typical_points: 3000,
    points_range: None,
    epic_facts: false,
    cards: false,
    fleet: false,
    notation: Notation::Heresy,
    allies: false,
    victory_points_to_win: None,
    rules: RULES,
    battlegroups: true,
    battlescribe_systems: &[],
    optional_rules: &[],
};

/// What `muster new --game heresy` writes: a list file and its units'
/// datasheet file, commented for a player writing a first list. Proven by
/// a test (schema-valid, loading with no error).
pub const STARTER_FILES: &[(&str, &str)] = &[
    (
        "my-heresy-army.yaml",
        include_str!("../../../assets/heresy/starter-list.yaml"),
    ),
    (
        "my-heresy-army-units.yaml",
        include_str!("../../../assets/heresy/starter-units.yaml"),
    ),
];

/// The rulebook's construction rules that hold for every army, whoever
/// writes its list. They count formations by conventional tags, which a
/// Heresy list gives its entries (`lists/README.md`, "Heresy lists"):
/// `commander`, `battlegroup`, `detachment`, `line`, `support`, `special`,
/// `flier`, `infiltrator`, `independent`, `hero`, `titan`, `artillery`; upgrades
/// `wargear`, `psychic`, `ordnance`. Each commander type's own limits are
/// numbers of the list, so the list writes them (`scope: group`).
///
/// Not here, because the rule language cannot say them, but in
/// `battlegroups`: a battlegroup under a commander and a detachment
/// in a battlegroup, psychic cards by mastery level, reserves and the
/// attacker's points.
pub const RULES: &[GameRule] = &[
    GameRule {
        id: "heresy-fliers-together",
        scope: RuleScope::Group,
        applies_to: &["tag:battlegroup"],
        rule: "count(tag:flier) == 0 or count(tag:flier) == count(tag:detachment)",
        message: "Fliers form battlegroups of fliers only.",
        provenance: "Heresy v2.0, Flier and AA rules: fliers belong only to battlegroups made of fliers",
    },
    GameRule {
        id: "heresy-infiltrators-together",
        scope: RuleScope::Group,
        applies_to: &["tag:battlegroup"],
        rule: "count(tag:infiltrator) == 0 or count(tag:infiltrator) == count(tag:detachment)",
        message: "Infiltrators infiltrate only in a battlegroup of infiltrators.",
        provenance: "Heresy v2.0, Model skills, Infiltrate (004 lines 862-863)",
    },
    GameRule {
        id: "heresy-independent-together",
        scope: RuleScope::Group,
        applies_to: &["tag:battlegroup"],
        rule: "count(tag:independent) == 0 or count(tag:independent) == count(tag:detachment)",
        message: "Independent detachments form battlegroups of independent detachments only.",
        provenance: "Heresy v2.0, Model skills, Independent unit (004 lines 864-865)",
    },
    GameRule {
        id: "heresy-hero-one-battlegroup",
        scope: RuleScope::Group,
        applies_to: &["tag:hero"],
        rule: "count(tag:battlegroup) <= 1",
        message: "A hero commands at most one other battlegroup.",
        provenance: "Heresy v2.0, Model skills, Hero (004 lines 858-859)",
    },
    GameRule {
        id: "heresy-wargear-per-1000",
        scope: RuleScope::Army,
        applies_to: &[],
        rule: "count(tag:wargear) <= floor(limit / 1000)",
        message: "An army receives one wargear card per full 1,000 points.",
        provenance: "Heresy v2.0, Wargear cards (004 line 1084)",
    },
    GameRule {
        id: "heresy-wargear-max-15",
        scope: RuleScope::Army,
        applies_to: &[],
        rule: "count(tag:wargear) <= 15",
        message: "No side has more than 15 wargear cards in play.",
        provenance: "Heresy v2.0, Wargear cards (004 line 1084)",
    },
    GameRule {
        id: "heresy-no-wargear-on-titans",
        scope: RuleScope::Formation,
        applies_to: &["tag:titan"],
        rule: "count(tag:wargear) == 0",
        message: "Titans never receive wargear cards.",
        provenance: "Heresy v2.0, Wargear cards (004 line 1086)",
    },
];

/// MAK ordnance raises an artillery battery's cost by half (004 line 459).
/// The rulebook does not say how to round; muster rounds a half point up,
/// as Table 7 rounds its halves up (12.5 is printed 13).
pub fn mak_cost(battery_points: u32) -> u32 {
    battery_points.div_ceil(2)
}

/// Objectives on the table: one per full 1,000 points played (004 lines
/// 972 and 976), and at least one (a smaller game still has something to
/// hold). The rulebook does not say how to count a part of 1,000; muster
/// counts full thousands.
pub fn objectives(points: u32) -> u32 {
    (points / 1000).max(1)
}

/// The most of a force of `points` (what it fields, reserves included,
/// not its limit) held in reserve: 25% (004 lines 938 and 972),
/// rounded down (a reserve may not pass a quarter).
pub fn reserve_limit(points: u32) -> u32 {
    points / 4
}

/// The scenario a Heresy game is played as (004 lines 930-980), which
/// decides reserves and the attacker's points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scenario {
    SetPiece,
    SeizeTheObjective,
    AttackAndDefend,
}

impl Scenario {
    /// The scenario of an id in `lists/heresy/scenarios.yaml` (the shared
    /// scenario lookup finds it from what the roster or event wrote).
    pub fn from_id(id: &str) -> Option<Scenario> {
        match id {
            "set-piece" => Some(Scenario::SetPiece),
            "seize-the-objective" => Some(Scenario::SeizeTheObjective),
            "attack-and-defend" => Some(Scenario::AttackAndDefend),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Scenario::SetPiece => "Set piece battle",
            Scenario::SeizeTheObjective => "Seize the objective",
            Scenario::AttackAndDefend => "Attack and defend",
        }
    }

    /// Whether some of the force may wait in reserve: not for the
    /// defender of an attack and defend game, who deploys everything.
    pub fn allows_reserves(self, side: Option<Side>) -> bool {
        !(self == Scenario::AttackAndDefend && side == Some(Side::Defender))
    }
}

/// Which side a roster plays in an attack and defend game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Attacker,
    Defender,
}

/// The attacker should have at least twice the defender's points (004
/// line 976).
pub fn attacker_points_ok(attacker: u32, defender: u32) -> bool {
    u64::from(attacker) >= 2 * u64::from(defender)
}

/// A battlegroup's break point: how many of its `models` must be lost
/// before it breaks. The rulebook (004 lines 910-926) multiplies the fresh
/// morale target number by 10 to get a percentage of the battlegroup's
/// models, rounded to the nearest whole model; a half is rounded up (the
/// rulebook does not say, and its one example has no half).
pub fn break_point(fresh_morale: u32, models: u32) -> u64 {
    let tenths = u64::from(models) * u64::from(fresh_morale) * 10;
    (tenths + 50) / 100
}

/// Victory points needed to win (Table 7, 004 lines 956-970), by the
/// lethality level chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lethality {
    MinorContact,
    FullyEngaged,
    Bloodbath,
}

impl Lethality {
    pub const ALL: [Lethality; 3] = [
        Lethality::MinorContact,
        Lethality::FullyEngaged,
        Lethality::Bloodbath,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Lethality::MinorContact => "minor contact",
            Lethality::FullyEngaged => "fully engaged",
            Lethality::Bloodbath => "bloodbath",
        }
    }
}

/// One row of Table 7 as printed: the points played per side it goes up
/// to, and the victory points for each lethality level.
struct Row {
    up_to: u32,
    vp: [u32; 3],
}

const TABLE_7: [Row; 11] = [
    Row {
        up_to: 500,
        vp: [13, 25, 38],
    },
    Row {
        up_to: 1000,
        vp: [25, 50, 75],
    },
    Row {
        up_to: 1500,
        vp: [38, 75, 113],
    },
    Row {
        up_to: 2000,
        vp: [50, 100, 150],
    },
    Row {
        up_to: 2500,
        vp: [63, 125, 188],
    },
    Row {
        up_to: 3000,
        vp: [75, 150, 225],
    },
    Row {
        up_to: 3500,
        vp: [88, 175, 263],
    },
    Row {
        up_to: 4000,
        vp: [90, 200, 300],
    },
    Row {
        up_to: 4500,
        vp: [103, 225, 338],
    },
    Row {
        up_to: 5000,
        vp: [115, 250, 375],
    },
    Row {
        up_to: 5500,
        vp: [128, 300, 418],
    },
];

/// What each further 500 points adds past the table's last row.
const TABLE_7_STEP: [u32; 3] = [13, 25, 38];

/// The victory points needed at `points` per side, read from Table 7 as
/// printed, and whether the row read breaks the table's own pattern (12.5,
/// 25 and 37.5 points a step of 500, rounded): minor contact from 4,000
/// points (90 where 100 would follow), fully engaged and bloodbath at 5,500
/// (300 and 418 where 275 and 413 would). Past 5,500 points the printed
/// step is added to the last row, so a flagged row carries into them.
pub fn victory_points_needed(points: u32, level: Lethality) -> (u32, bool) {
    let column = level as usize;
    let pattern = |up_to: u32| {
        let step = [125u32, 250, 375][column];
        // Half-steps round up: 12.5 -> 13, 37.5 -> 38.
        (u64::from(up_to / 500) * u64::from(step)).div_ceil(10)
    };
    for row in &TABLE_7 {
        if points <= row.up_to {
            let vp = row.vp[column];
            return (vp, u64::from(vp) != pattern(row.up_to));
        }
    }
    let last = &TABLE_7[TABLE_7.len() - 1];
    let extra = (points - last.up_to).div_ceil(500);
    let vp = last.vp[column].saturating_add(extra.saturating_mul(TABLE_7_STEP[column]));
    (vp, u64::from(last.vp[column]) != pattern(last.up_to))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_terminator_example_breaks_at_ten_models() {
        // 8 Terminator stands and 4 Land Raiders, fresh morale 8: 80% of 12
        // is 9.6, so 10 models (004 lines 920-926).
        assert_eq!(break_point(8, 12), 10);
        assert_eq!(break_point(5, 3), 2); // 1.5 rounds up
        assert_eq!(break_point(7, 10), 7);
    }

    #[test]
    fn costs_and_counts_round_as_decided() {
        assert_eq!(mak_cost(175), 88);
        assert_eq!(mak_cost(150), 75);
        assert_eq!(objectives(2999), 2);
        assert_eq!(objectives(500), 1);
        assert_eq!(reserve_limit(3000), 750);
        assert_eq!(reserve_limit(2250), 562);
        assert!(attacker_points_ok(3000, 1500));
        assert!(!attacker_points_ok(2999, 1500));
        assert_eq!(
            Scenario::from_id("attack-and-defend"),
            Some(Scenario::AttackAndDefend)
        );
        assert_eq!(Scenario::from_id("set-piece"), Some(Scenario::SetPiece));
        assert_eq!(Scenario::from_id("jump-point"), None);
    }

    #[test]
    fn table_7_is_read_as_printed_and_its_odd_rows_flagged() {
        use Lethality::*;
        assert_eq!(victory_points_needed(500, MinorContact), (13, false));
        assert_eq!(victory_points_needed(1500, Bloodbath), (113, false));
        assert_eq!(victory_points_needed(3000, FullyEngaged), (150, false));
        assert_eq!(victory_points_needed(3500, MinorContact), (88, false));
        assert_eq!(victory_points_needed(4000, MinorContact), (90, true));
        assert_eq!(victory_points_needed(4000, FullyEngaged), (200, false));
        assert_eq!(victory_points_needed(5000, Bloodbath), (375, false));
        assert_eq!(victory_points_needed(5500, FullyEngaged), (300, true));
        assert_eq!(victory_points_needed(5500, Bloodbath), (418, true));
        assert_eq!(victory_points_needed(6000, MinorContact), (141, true));
        assert_eq!(victory_points_needed(1, MinorContact), (13, false));
    }
}
