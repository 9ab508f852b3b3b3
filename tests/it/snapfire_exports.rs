//! Snapfire's text export read exactly as Snapfire writes it (issue 30):
//! each fixture under `tests/fixtures/snapfire-exports/` is an export as
//! `Force.plainText` writes it (trailing blanks and all), of a force that
//! muster once misread; the test says what it holds. The generator that
//! found them is `examples/snapfire_exports` (README, the section on tools
//! that need the reference data beside the repository).

use muster::catalogue::Catalogue;
use muster::check::{Checked, check_text};
use muster::diagnostic::{Code, Severity};
use std::path::Path;

fn catalogue() -> &'static Catalogue {
    crate::common::catalogue()
}

fn read(fixture: &str) -> Checked<'static> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/snapfire-exports")
        .join(fixture);
    let text = std::fs::read_to_string(&path).unwrap();
    check_text(catalogue(), fixture, &text)
}

/// A formation as read: id, upgrades with counts (sorted), points.
type Formation = (String, Vec<(String, u32)>, i64);

/// Every formation read, and that nothing in the export went unread (a
/// stated cost may differ where muster prices as the pack does: the
/// tests say the points they expect).
fn formations(checked: &Checked<'_>) -> Vec<Formation> {
    let unread: Vec<String> = checked
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error && d.code.is_unplaced())
        .map(|d| format!("{}: {}", d.code.as_str(), d.message))
        .collect();
    assert!(unread.is_empty(), "{}: {unread:#?}", checked.name);
    let army = checked.army.as_ref().expect("the army resolves");
    army.formations
        .iter()
        .map(|f| {
            let mut upgrades = f.upgrades.clone();
            upgrades.sort();
            (f.id.clone(), upgrades, f.points)
        })
        .collect()
}

fn formation(id: &str, upgrades: &[(&str, u32)], points: i64) -> Formation {
    let mut upgrades: Vec<(String, u32)> = upgrades.iter().map(|&(n, c)| (n.to_string(), c)).collect();
    upgrades.sort();
    (id.to_string(), upgrades, points)
}

#[test]
fn a_count_before_a_counted_name_is_that_many_picks_of_it() {
    // `3 2x Tyranid Warriors`: three picks of a pair.
    assert_eq!(
        formations(&read("count-before-counted-name.txt")),
        vec![
            formation(
                "tyranid-swarm-large",
                &[("Termagants", 18), ("Tyranid Warriors", 6)],
                525
            ),
            formation(
                "tyranid-swarm-medium",
                &[("Termagants", 12), ("Tyranid Warriors", 4)],
                375
            ),
        ]
    );
    // `2 2x Land Raider`, `2 2x Land Raider Crusader`.
    let codex = formations(&read("codex-two-pairs.txt"));
    assert_eq!(codex[0].1, vec![("Land Raider".to_string(), 4)]);
    assert_eq!(codex[0].2, 525);
    let scions = formations(&read("scions-two-pairs.txt"));
    assert_eq!(scions[0].1, vec![("Land Raider Crusader".to_string(), 4)]);
    assert_eq!(scions[0].2, 600);
}

#[test]
fn commas_inside_parentheses_are_part_of_one_pick() {
    // `2 2 Gun Drone units` is four Gun Drones; the Hammerhead choice with
    // commas in its parentheses is one pick of four tanks.
    let read = formations(&read("tau-drones-and-hammerheads.txt"));
    assert_eq!(read[0].0, "broadside-group");
    assert!(read[0].1.contains(&("Gun Drones".to_string(), 4)), "{read:?}");
    assert_eq!(
        read[1],
        formation(
            "armour-support-group",
            &[
                ("Hammerhead Gunship (Fusionhead)", 1),
                ("Hammerhead Gunship (Ionhead)", 1),
                ("Hammerhead Gunship (Railhead)", 2)
            ],
            225
        )
    );
}

#[test]
fn a_formation_whose_name_starts_with_a_number_is_one_formation() {
    // `2 STORM TALONS [200]`: Snapfire's formation "2 Storm Talons".
    assert_eq!(
        formations(&read("numbered-formation.txt")),
        vec![formation("storm-talons", &[], 200)]
    );
}

#[test]
fn free_core_items_written_as_the_paid_extras_are_read_by_their_cost() {
    // A Fortress Mob's two core Battlefortresses and a paid one; a Warband
    // whose core Nobz swapped for Nob Warbikes, with paid Nob Warbikes as
    // well; a Warband with its core Nobz and paid Nob Warbikes.
    let read = formations(&read("speed-freeks-core-and-extras.txt"));
    assert_eq!(
        read[0],
        formation(
            "fortress-mob",
            &[("Battlefortress (core)", 2), ("Battlefortress", 1)],
            390
        )
    );
    assert_eq!(
        read[1],
        formation(
            "speed-freaks-warband",
            &[("Nob Warbikes (core)", 1), ("Nob Warbikes", 1)],
            135
        )
    );
    assert_eq!(
        read[2],
        formation(
            "speed-freaks-warband",
            &[("Nobz (core)", 1), ("Warbuggy", 4), ("Nob Warbikes", 1)],
            235
        )
    );
}

#[test]
fn a_name_means_what_the_formation_takes() {
    // Feral Orks: `6 Boyz` are a Warband's core Boyz, and Boyz riding
    // Junkatrukks in a Junka Brigade.
    let read = formations(&read("feral-boyz.txt"));
    assert_eq!(read[0].0, "warband");
    assert!(
        read[0].1.contains(&("Boyz + (optional) Grotz".to_string(), 6)),
        "{read:?}"
    );
    assert_eq!(read[0].2, 200);
    assert_eq!(
        read[1],
        formation("junka-brigade", &[("Boyz with a Junkatrukk", 6)], 175)
    );
}

#[test]
fn an_allegiance_on_a_formation_without_one_has_no_effect() {
    // Snapfire gives every Black Legion formation an allegiance, the Daemon
    // Pool's too: read, with a note.
    let checked = read("allegiance-on-daemon-pool.txt");
    let read = formations(&checked);
    assert_eq!(read[0], formation("daemon-pool", &[], 0));
    let note = checked
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Note && d.code == Code::UpgradeNotAllowed)
        .expect("a note on the allegiance");
    assert!(
        note.message.contains("has no effect on Daemon Pool"),
        "{}",
        note.message
    );
    assert_eq!(note.line_col().map(|(l, _)| l), Some(6));
    assert!(
        read[1].1.contains(&("Chaos Undivided".to_string(), 1)),
        "{read:?}"
    );
}

#[test]
fn a_pick_whose_name_starts_with_a_number_is_one_pick() {
    // `2 Bunkers + Trenches` is Snapfire's name of one pick, not two.
    assert_eq!(
        formations(&read("numbered-pick-names.txt")),
        vec![
            formation("devastator", &[("Bunkers + Trenches", 1)], 250),
            formation("tactical", &[("Bunkers + Minefields", 1)], 275),
        ]
    );
    // `4 Land Raider Helios` is the Terminators' pack of four Helios, not
    // four Close Support Land Raider Helios.
    assert_eq!(
        formations(&read("salamanders-helios-pack.txt")),
        vec![formation("terminator", &[("Helios", 4)], 675)]
    );
}

#[test]
fn a_pack_multiplies_only_the_items_of_that_pack() {
    // `6 Fire Warriors, 3 Devilfish` and `2 Pathfinders, 1 Devilfish` are
    // two picks: the three Devilfish of the first do not make three picks
    // of the second.
    let read = formations(&read("tau-pathfinders-after-devilfish.txt"));
    assert_eq!(read[0].0, "fire-warrior-cadre");
    assert!(read[0].1.contains(&("Pathfinders".to_string(), 2)), "{read:?}");
    assert!(read[0].1.contains(&("Devilfish".to_string(), 4)), "{read:?}");
}

/// A share link read back: formations with their upgrades (sorted).
fn link(list: &str, force: &str) -> Vec<Formation> {
    let text = format!("https://example.org/indexNETEA.html?list={list}&force=Test~{force}");
    formations(&check_text(catalogue(), "link", &text))
}

#[test]
fn share_links_read_picks_as_the_formation_takes_them() {
    // Feral Orks pick 12 ("Boyz"): a Warband's core Boyz, Boyz with a
    // Junkatrukk in a Junka Brigade.
    let read = link("ORK_feral_NETEA", "500~13x2~12x6~39x2~511~12x6");
    assert!(
        read[0].1.contains(&("Boyz + (optional) Grotz".to_string(), 6)),
        "{read:?}"
    );
    assert_eq!(read[1].1, vec![("Boyz with a Junkatrukk".to_string(), 6)]);
    // Knight World pick 3 is the battery's three Gun Emplacements.
    assert_eq!(
        link("AMTL_knight_world_NETEA", "521~3x1"),
        vec![formation("howitzer-battery", &[("Gun Emplacement", 3)], 175)]
    );
    // White Scars pick 34 counts a Scout formation's own four Scouts, and
    // the Black Legion allegiance has no effect on the Daemon Pool.
    assert_eq!(link("SM_scars_NETEA", "507~34x4")[0].1, vec![]);
    assert_eq!(link("CHAOS_legion_NETEA", "551~15x1")[0].1, vec![]);
}

#[test]
fn a_paid_pick_written_like_the_formations_own_units_is_an_upgrade() {
    // A Warband's own `2 Nobz, 6 Boyz, 2 Grotz`, then two paid Nobz.
    let read = formations(&read("ghazghkull-paid-nobz-after-units.txt"));
    assert_eq!(read[0].0, "warband");
    assert!(read[0].1.contains(&("Nobz".to_string(), 2)), "{read:?}");
    assert_eq!(read[0].2, 295);
}

#[test]
fn a_pack_of_several_upgrades_taken_twice_doubles_each() {
    // `2 4 Rangers, 3 War Walkers`: as Snapfire would write pick 48 taken
    // twice (its limit is one, so written by hand here).
    let read = formations(&read("alaitoc-pack-taken-twice.txt"));
    assert_eq!(read[0].0, "ranger-warhost");
    let mut upgrades = read[0].1.clone();
    upgrades.retain(|(name, _)| name == "Ranger" || name == "War Walker");
    assert_eq!(
        upgrades,
        vec![("Ranger".to_string(), 8), ("War Walker".to_string(), 6)]
    );
}
