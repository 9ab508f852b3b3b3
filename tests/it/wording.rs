//! What players and organisers read (issue 34, item 14): counts agree with
//! their nouns, nothing made up or hidden, each game's own words.

use crate::common::{muster, out_dir};

fn roster_file(name: &str, text: &str) -> String {
    let path = out_dir("wording").join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn a_fix_for_one_transport_names_it_in_the_singular() {
    let file = roster_file(
        "one-rhino.txt",
        "Army: Codex Astartes\nPoints: 2000\n\nTactical: 2x Land Raider, Rhinos x3\n",
    );
    let run = muster(&["check", &file]);
    assert_eq!(run.status, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("fix: 1 Rhino\n"), "{}", run.stdout);
    assert!(!run.stdout.contains("1 Rhinos"), "{}", run.stdout);
}

#[test]
fn printed_rosters_count_units_in_the_plural() {
    let run = muster(&[
        "roster",
        "tests/rosters/netea/codex-astartes/bike-composition.ok.txt",
        "--html",
        "-",
    ]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.stdout.contains("<td>5 Attack Bikes</td>"), "{}", run.stdout);
    assert!(run.stdout.contains("2 Attack Bikes, 3 Bikes"), "{}", run.stdout);
    assert!(!run.stdout.contains("5 Attack Bike<"), "{}", run.stdout);
    let options = muster(&["options", "alaitoc"]);
    assert!(
        options.stdout.contains("units: 1 Farseer, 4 Wave Serpents\n"),
        "{}",
        options.stdout
    );
}

#[test]
fn an_unknown_army_has_no_made_up_points_denominator() {
    let file = roster_file(
        "unknown-army.txt",
        "Army: Blorg\nPoints: 3000\n\nTactical Detachment\n",
    );
    let legal = "tests/rosters/netea/codex-astartes/bike-composition.ok.txt";
    let run = muster(&["check", &file, legal]);
    assert_eq!(run.status, 1, "{}{}", run.stdout, run.stderr);
    let unknown = run
        .stdout
        .lines()
        .find(|l| l.contains("unknown-army.txt"))
        .unwrap();
    assert!(!unknown.contains("/3000"), "{}", run.stdout);
    assert!(
        run.stdout.contains("750/3000"),
        "the known army keeps its: {}",
        run.stdout
    );
    let report = out_dir("wording").join("report.html");
    let run = muster(&["check", &file, "--report", &report.to_string_lossy()]);
    assert_eq!(run.status, 1);
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(!html.contains("/3000"), "{html}");
    let printed = muster(&["roster", &file, "--html", "-"]);
    assert!(!printed.stdout.contains("? of"), "{}", printed.stdout);
    assert!(
        printed
            .stdout
            .contains("<tr><th>Points</th><td>not counted (the roster gives a limit of 3000)</td></tr>"),
        "{}",
        printed.stdout
    );
}

#[test]
fn explain_names_every_list_that_has_the_unit() {
    let run = muster(&["explain", "Rhino"]);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(!run.stderr.contains("more lists"), "{}", run.stderr);
    for list in [
        "Codex Astartes",
        "White Scars",
        "Space Wolves",
        "NetEpic Squats",
        "NetEpic Chaos",
    ] {
        assert!(run.stderr.contains(list), "{list}: {}", run.stderr);
    }
    // One line a game, not one per datasheet.
    assert_eq!(run.stderr.matches("NetEpic Gold:").count(), 1, "{}", run.stderr);
}

#[test]
fn sheet_asks_for_an_army_or_a_roster() {
    let run = muster(&["sheet"]);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("<ARMY|--roster <FILE>>"), "{}", run.stderr);
    let run = muster(&[
        "sheet",
        "--roster",
        "tests/rosters/netea/codex-astartes/bike-composition.ok.txt",
    ]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.stdout.contains("Attack Bike"));
}

#[test]
fn epic_crib_sheets_speak_of_upgrades_not_refits() {
    let run = muster(&[
        "sheet",
        "--roster",
        "tests/rosters/netea/codex-astartes/bike-composition.ok.txt",
    ]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(!run.stdout.contains("no refits"), "{}", run.stdout);
    assert!(run.stdout.contains("no upgrades (2 of 4)"), "{}", run.stdout);
}

#[test]
fn optional_craft_read_without_nested_brackets() {
    let run = muster(&["explain", "Emperor", "--army", "gothic-sector"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("Sharks (30cm, paid option)"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("(Sharks ("), "{}", run.stdout);
}

#[test]
fn a_heresy_roster_prints_no_empty_initiative_column() {
    let run = muster(&[
        "--lists",
        "tests/fixtures/heresy",
        "roster",
        "tests/fixtures/heresy/rosters/heresy-reserves.ok.txt",
        "--html",
        "-",
    ]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(!run.stdout.contains("<th>Init.</th>"), "{}", run.stdout);
    assert!(
        run.stdout.contains("<th>Other upgrades</th>"),
        "reserves are upgrades: {}",
        run.stdout
    );
    let epic = muster(&[
        "roster",
        "tests/rosters/netea/codex-astartes/bike-composition.ok.txt",
        "--html",
        "-",
    ]);
    assert!(epic.stdout.contains("<th>Init.</th>"), "{}", epic.stdout);
}

#[test]
fn the_netepic_starter_explains_cards_not_squadrons() {
    let run = muster(&["new", "netepic-orks"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(!run.stdout.contains("A squadron is"), "{}", run.stdout);
    assert!(run.stdout.contains("Company card"), "{}", run.stdout);
    let fleet = muster(&["new", "gothic-sector"]);
    assert!(fleet.stdout.contains("A squadron is"), "{}", fleet.stdout);
}

#[test]
fn options_has_no_empty_heading_nor_unexplained_costs() {
    let run = muster(&["options", "armageddon-sector"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(!run.stdout.contains("FLEET COMMANDER\n\n"), "{}", run.stdout);
    assert!(
        run.stdout.contains(
            "Extra re-roll (+25 for the 1st, +50 for the 2nd, +75 from the 3rd; other options may change it)"
        ),
        "{}",
        run.stdout
    );
    let starter = muster(&["new", "armageddon-sector"]);
    assert!(
        !starter.stdout.contains("# --- Fleet Commander ---"),
        "{}",
        starter.stdout
    );
    let run = muster(&["options", "alaitoc"]);
    assert!(
        run.stdout
            .contains("Support Weapon Platform (+50 for the 1st, +0 from the 2nd)"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("/+0"), "{}", run.stdout);
}

#[test]
fn options_points_stay_in_their_column() {
    for army in [
        "netepic-orks",
        "kor-or-vesh",
        "bakka-sector",
        "codex-astartes-fleet",
    ] {
        let run = muster(&["options", army]);
        assert_eq!(run.status, 0, "{army}: {}", run.stderr);
        assert!(!run.stdout.contains("? pts"), "{army}: {}", run.stdout);
        // Every entry line ends its points at the same column.
        let ends: Vec<usize> = run
            .stdout
            .lines()
            .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
            .filter_map(|l| {
                let head = l.split("  initiative").next().unwrap_or(l);
                (head.ends_with(" pts") || head.ends_with(" no price")).then_some(head.len())
            })
            .collect();
        assert!(!ends.is_empty(), "{army}");
        assert!(
            ends.iter().all(|&e| e == ends[0]),
            "{army}: {ends:?}\n{}",
            run.stdout
        );
    }
    let run = muster(&["options", "netepic-orks"]);
    assert!(run.stdout.contains("Stronghold"), "{}", run.stdout);
    assert!(run.stdout.contains("no price"), "{}", run.stdout);
}
