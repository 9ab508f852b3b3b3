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
    allies: &[],
    victory_points_to_win: None,
};

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
