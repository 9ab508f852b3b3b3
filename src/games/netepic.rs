//! NetEpic Gold: army cards (company, support, special) from the army books,
//! and the core rules' tables that are game code rather than list data:
//! who may ally with whom (1.2.2-1.2.4), the victory points needed to win
//! (1.1), the fortification purchase table and titan victory points (6.1).
//!
//! Line numbers are those of the core rules text (shared source 003).

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
    allies: ALLIES,
    victory_points_to_win: Some(victory_points_to_win),
};

/// Victory points needed to win for an army of `points` (core rules 1.1,
/// lines 154-160): 30 at 1,000 points and 5 more for every further 1,000
/// ("Etc."). The table gives whole thousands only; an army between two rows
/// plays to the larger one (2,500 points needs 40, as 3,000 does), and one
/// below 1,000 points to 30.
pub fn victory_points_to_win(points: u32) -> u32 {
    let thousands = points.div_ceil(1000).max(1);
    25u32.saturating_add(thousands.saturating_mul(5))
}

/// Victory points of a card whose worth follows its cost (titans and
/// praetorians, 6.1 step 4, lines 921-925): one per 100 points, rounded up.
pub fn victory_points_of_cost(points: i64) -> u32 {
    if points <= 0 {
        return 0;
    }
    u32::try_from((points - 1) / 100 + 1).unwrap_or(u32::MAX)
}

/// A titan's hull and weapons are rounded up to this many points (6.1
/// step 3, line 923).
pub const TITAN_ROUNDING: u32 = 50;

/// What kind of army a list makes as the core army (1.2.2, lines 192-198).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArmyKind {
    /// At least 50% of the points in the core army; any Standard list may
    /// be its ally.
    Standard,
    /// At least 75% in the core army.
    Codex,
    /// 100% from the one book: no allies at all (Tyranids).
    Alone,
    /// The core rules' tables do not name the list: its share and allies
    /// are not checked, and it is not known to be a Standard list.
    Unlisted,
}

/// Which lists a core army may take as allies (always Standard lists).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Allowed {
    /// One Standard list, none of these.
    OneExcept(&'static [&'static str]),
    /// One of these Standard lists only.
    OneOf(&'static [&'static str]),
    /// Any number of Standard lists, none of these.
    SeveralExcept(&'static [&'static str]),
    /// None.
    Nothing,
}

/// One list's row of the ally tables.
#[derive(Debug, Clone, Copy)]
pub struct ListAllies {
    pub list: &'static str,
    pub kind: ArmyKind,
    /// The least share of the army's points the core army must hold, in
    /// percent.
    pub core_percent: u32,
    /// Lists whose force counts as part of the core army rather than as
    /// its ally (Titan Legions with the standard Adeptus Mechanicus list).
    pub core_with: &'static [&'static str],
    pub allies: Allowed,
    /// Where the row is, for diagnostics.
    pub provenance: &'static str,
}

impl ListAllies {
    /// Whether a force of `ally` may join this core army as its ally.
    pub fn admits(&self, ally: &str) -> bool {
        match self.allies {
            Allowed::OneExcept(no) | Allowed::SeveralExcept(no) => !no.contains(&ally),
            Allowed::OneOf(yes) => yes.contains(&ally),
            Allowed::Nothing => false,
        }
    }

    /// How many allied lists the core army may take.
    pub fn most_allies(&self) -> usize {
        match self.allies {
            Allowed::OneExcept(_) | Allowed::OneOf(_) => 1,
            Allowed::SeveralExcept(_) => usize::MAX,
            Allowed::Nothing => 0,
        }
    }
}

/// The row of `list`, if the tables name it.
pub fn allies_of(list: &str) -> Option<&'static ListAllies> {
    ALLIES.iter().find(|row| row.list == list)
}

const MARINES: &str = "netepic-adeptus-astartes";
const CHAOS: &str = "netepic-chaos";
const ELDAR: &str = "netepic-eldar";
const ORKS: &str = "netepic-orks";
const MECHANICUS: &str = "netepic-adeptus-mechanicus";
const GUARD: &str = "netepic-imperial-guard";

/// The ally tables (1.2.3 and 1.2.4, lines 202-231) for the shipped army
/// books. The decisions about rows the text conversion broke are written
/// in every book's `decisions` (by `examples/netepic_import.rs`).
pub const ALLIES: &[ListAllies] = &[
    ListAllies {
        list: MECHANICUS,
        kind: ArmyKind::Standard,
        core_percent: 50,
        core_with: &[],
        allies: Allowed::OneExcept(&[]),
        provenance: "NetEpic Gold core rules 1.2.3, Imperial Knights row (line 205): the standard Adeptus Mechanicus list",
    },
    ListAllies {
        list: MARINES,
        kind: ArmyKind::Standard,
        core_percent: 50,
        core_with: &[],
        allies: Allowed::OneExcept(&[CHAOS]),
        provenance: "NetEpic Gold core rules 1.2.3, Space Marines row (line 206): no Chaos allies",
    },
    ListAllies {
        list: GUARD,
        kind: ArmyKind::Standard,
        core_percent: 50,
        core_with: &[],
        allies: Allowed::OneExcept(&[]),
        provenance: "NetEpic Gold core rules 1.2.3, Imperial Guard row (line 207)",
    },
    ListAllies {
        list: CHAOS,
        kind: ArmyKind::Standard,
        core_percent: 50,
        core_with: &[],
        allies: Allowed::OneExcept(&[ELDAR, MARINES]),
        provenance: "NetEpic Gold core rules 1.2.3, Chaos row (line 208): no Eldar or Space Marine allies",
    },
    ListAllies {
        list: ELDAR,
        kind: ArmyKind::Standard,
        core_percent: 50,
        core_with: &[],
        allies: Allowed::OneExcept(&[CHAOS]),
        provenance: "NetEpic Gold core rules 1.2.3, Eldar row (line 209): no Chaos allies",
    },
    ListAllies {
        list: ORKS,
        kind: ArmyKind::Standard,
        core_percent: 50,
        core_with: &[],
        allies: Allowed::OneExcept(&[]),
        provenance: "NetEpic Gold core rules 1.2.3, Orks row (line 210)",
    },
    ListAllies {
        list: "netepic-titan-legions",
        kind: ArmyKind::Codex,
        core_percent: 75,
        core_with: &[MECHANICUS],
        allies: Allowed::OneExcept(&[]),
        provenance: "NetEpic Gold core rules 1.2.4, Titan Legions row (line 216): 75% in Titan Legions and the standard Adeptus Mechanicus list, up to 25% in any one Standard list",
    },
    ListAllies {
        list: "netepic-adepta-sororitas",
        kind: ArmyKind::Codex,
        core_percent: 75,
        core_with: &[],
        allies: Allowed::OneOf(&[MARINES, MECHANICUS, GUARD, ELDAR]),
        provenance: "NetEpic Gold core rules 1.2.4, Sisters of Battle row (line 219): one Standard Imperial or Eldar list",
    },
    ListAllies {
        list: "netepic-dark-eldar",
        kind: ArmyKind::Codex,
        core_percent: 75,
        core_with: &[],
        allies: Allowed::OneExcept(&[ELDAR]),
        provenance: "NetEpic Gold core rules 1.2.4, Dark Eldar row (line 227): no Eldar allies",
    },
    ListAllies {
        list: "netepic-squats",
        kind: ArmyKind::Codex,
        core_percent: 75,
        core_with: &[],
        allies: Allowed::OneExcept(&[ORKS]),
        provenance: "NetEpic Gold core rules 1.2.4, Squats row (line 228): no Ork allies",
    },
    ListAllies {
        list: "netepic-slann",
        kind: ArmyKind::Codex,
        core_percent: 75,
        core_with: &[],
        allies: Allowed::SeveralExcept(&[]),
        provenance: "NetEpic Gold core rules 1.2.4, Slaan row (line 229): any other Standard lists",
    },
    ListAllies {
        list: "netepic-tau",
        kind: ArmyKind::Codex,
        core_percent: 75,
        core_with: &[],
        allies: Allowed::OneExcept(&[]),
        provenance: "NetEpic Gold core rules 1.2.4, Tau row (line 230): any one Standard list",
    },
    ListAllies {
        list: "netepic-tyranids",
        kind: ArmyKind::Alone,
        core_percent: 100,
        core_with: &[],
        allies: Allowed::Nothing,
        provenance: "NetEpic Gold core rules 1.2.2 and 1.2.4, Tyranids row (line 231): 100% from the Tyranid book, and Tyranids ally with no one",
    },
    ListAllies {
        list: "netepic-necrons",
        kind: ArmyKind::Unlisted,
        core_percent: 0,
        core_with: &[],
        allies: Allowed::OneExcept(&[]),
        provenance: "NetEpic Gold core rules 1.2.3-1.2.4 (lines 202-231) do not name the Necrons",
    },
];

/// One row of the fortification purchase table (lines 677-685).
#[derive(Debug, Clone, Copy)]
pub struct Fortification {
    pub id: &'static str,
    pub name: &'static str,
    pub contents: &'static str,
    /// `None` where the table gives a length or "Building" instead of a
    /// number of models.
    pub break_point: Option<u32>,
    /// `None` where the table says "Varies".
    pub victory_points: Option<u32>,
    /// `None` where the cost depends on a weapon ("100+Weapon").
    pub points: Option<u32>,
    /// What the row says in place of a number, in our words.
    pub remark: Option<&'static str>,
}

/// The fortification purchase table (lines 677-685), as facts.
pub const FORTIFICATIONS: &[Fortification] = &[
    Fortification {
        id: "road",
        name: "Road",
        contents: "100 cm of road",
        break_point: None,
        victory_points: Some(1),
        points: Some(100),
        remark: Some("breaks when 50 cm of it is destroyed"),
    },
    Fortification {
        id: "barricades",
        name: "Barricades",
        contents: "100 cm of barricades",
        break_point: None,
        victory_points: Some(2),
        points: Some(150),
        remark: Some("breaks when 50 cm of it is destroyed"),
    },
    Fortification {
        id: "trenches",
        name: "Trenches",
        contents: "five trench sections of 3 by 10 cm",
        break_point: Some(3),
        victory_points: Some(2),
        points: Some(150),
        remark: None,
    },
    Fortification {
        id: "minefields",
        name: "Minefields",
        contents: "five minefields of 5 by 10 cm",
        break_point: Some(3),
        victory_points: Some(2),
        points: Some(150),
        remark: None,
    },
    Fortification {
        id: "infantry-bunkers",
        name: "Infantry Bunkers",
        contents: "five infantry bunkers",
        break_point: Some(3),
        victory_points: Some(2),
        points: Some(150),
        remark: None,
    },
    Fortification {
        id: "artillery-emplacements",
        name: "Artillery Emplacements",
        contents: "five artillery emplacements",
        break_point: Some(3),
        victory_points: Some(2),
        points: Some(150),
        remark: None,
    },
    Fortification {
        id: "composite-bunkers",
        name: "Composite Bunkers",
        contents: "five composite bunkers",
        break_point: Some(3),
        victory_points: Some(3),
        points: Some(225),
        remark: None,
    },
    Fortification {
        id: "stronghold",
        name: "Stronghold",
        contents: "one stronghold with a weapon",
        break_point: None,
        victory_points: None,
        points: None,
        remark: Some(
            "costs 100 points plus its weapon, which the core rules do not price; it breaks as a building; its victory points vary",
        ),
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn victory_points_to_win_follows_the_table() {
        // Lines 154-160.
        assert_eq!(victory_points_to_win(1000), 30);
        assert_eq!(victory_points_to_win(2000), 35);
        assert_eq!(victory_points_to_win(3000), 40);
        assert_eq!(victory_points_to_win(4000), 45);
        assert_eq!(victory_points_to_win(5000), 50);
        assert_eq!(victory_points_to_win(6000), 55);
        assert_eq!(victory_points_to_win(2500), 40);
        assert_eq!(victory_points_to_win(500), 30);
        assert_eq!(victory_points_to_win(0), 30);
        assert_eq!(victory_points_to_win(u32::MAX), 25 + 5 * 4_294_968);
    }

    #[test]
    fn titan_victory_points_round_up() {
        // The core rules' example (6.1): an 850-point Warlord is worth 9.
        assert_eq!(victory_points_of_cost(850), 9);
        assert_eq!(victory_points_of_cost(800), 8);
        assert_eq!(victory_points_of_cost(801), 9);
        assert_eq!(victory_points_of_cost(125), 2);
        assert_eq!(victory_points_of_cost(0), 0);
        assert_eq!(victory_points_of_cost(-5), 0);
    }

    #[test]
    fn ally_rows_are_consistent() {
        for row in ALLIES {
            assert!(row.list.starts_with("netepic-"));
        }
        let chaos = allies_of(CHAOS).map(|r| r.admits(ELDAR));
        assert_eq!(chaos, Some(false));
        assert_eq!(
            allies_of("netepic-tyranids").map(ListAllies::most_allies),
            Some(0)
        );
        assert_eq!(
            allies_of("netepic-slann").map(ListAllies::most_allies),
            Some(usize::MAX)
        );
    }
}
