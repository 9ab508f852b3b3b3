//! Heresy: a list its players write (the test fixture in
//! `tests/fixtures/heresy/`, loaded as `--lists` would load it), commanders
//! over battlegroups over detachments, and a roster case that breaks and
//! one that satisfies every construction rule of the fixture.

use muster::catalogue::{Catalogue, load};
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/heresy")
}

fn catalogue() -> Catalogue {
    let report = load(Some(&fixtures()));
    assert!(!report.has_errors(), "{:#?}", report.diagnostics);
    report.catalogue
}

fn cases() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(fixtures().join("rosters"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    paths
}

#[test]
fn the_fixture_list_loads_as_a_heresy_list() {
    let catalogue = catalogue();
    let list = catalogue
        .lists
        .iter()
        .find(|l| l.id == "heresy-test-legion")
        .expect("the fixture list is in the catalogue");
    assert_eq!(list.game.as_str(), "heresy");
}

#[test]
fn every_heresy_roster_case_gives_exactly_its_annotated_diagnostics() {
    let catalogue = catalogue();
    let paths = cases();
    assert!(paths.len() > 20, "only {} Heresy roster cases", paths.len());
    let failures: Vec<String> = paths
        .iter()
        .filter_map(|p| crate::rosters::check_one(&catalogue, p).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

struct Id<'a> {
    id: &'a str,
}

#[test]
fn every_fixture_constraint_has_a_broken_and_an_ok_case() {
    let catalogue = catalogue();
    let list = catalogue
        .lists
        .iter()
        .find(|l| l.id == "heresy-test-legion")
        .expect("the fixture list is in the catalogue");
    let dir = fixtures().join("rosters");
    let mut missing = Vec::new();
    // The rules muster checks in code (`battlegroups::check`), and every
    // constraint: the list's and the game's.
    let code_rules = [
        "heresy-battlegroup-has-commander",
        "heresy-detachment-in-battlegroup",
        "heresy-psychic-cards",
    ];
    let ids = list.constraints.iter().map(|c| c.id.as_str()).chain(code_rules);
    for id in ids {
        let c = Id { id };
        for kind in ["ok", "broken"] {
            if !dir.join(format!("{}.{kind}.txt", c.id)).exists() {
                missing.push(format!("{}.{kind}.txt", c.id));
            }
        }
        let broken = std::fs::read_to_string(dir.join(format!("{}.broken.txt", c.id))).unwrap_or_default();
        if !broken.contains(&format!("list-rule:{}", c.id)) {
            missing.push(format!("{}.broken.txt does not expect its rule", c.id));
        }
    }
    assert!(missing.is_empty(), "missing cases: {missing:?}");
}

#[test]
fn the_legal_roster_costs_what_its_groups_add_up_to() {
    let catalogue = catalogue();
    let path = fixtures().join("rosters/legal.ok.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let result = muster::check::check_text_for(&catalogue, None, "legal.ok.txt", &text);
    let army = result.army.as_ref().expect("the roster resolves");
    assert_eq!(army.total, 2050);
}

#[test]
fn groups_nested_past_three_levels_are_refused_without_recursing() {
    let catalogue = catalogue();
    let mut text = String::from("Army: Heresy Test Legion\nPoints: 3000\n\n");
    for depth in 0..2000 {
        let indent = "  ".repeat(depth);
        let name = if depth == 0 {
            "Lord Commander"
        } else {
            "Battlegroup"
        };
        text.push_str(&format!("{indent}{name}\n"));
    }
    let result = muster::check::check_text_for(&catalogue, None, "deep.txt", &text);
    let deep = result
        .diagnostics
        .iter()
        .filter(|d| d.message.contains("groups nest at most 3 levels"))
        .count();
    assert_eq!(deep, 1, "{:#?}", result.diagnostics);
}

#[test]
fn a_group_that_admits_itself_is_refused_when_the_list_loads() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixtures().join("test-legion.yaml"))
        .unwrap()
        .replace(
            "members: [tag:detachment]",
            "members: [tag:detachment, tag:battlegroup]",
        );
    std::fs::write(dir.path().join("test-legion.yaml"), text).unwrap();
    let report = load(Some(dir.path()));
    assert!(
        report
            .diagnostics
            .iter()
            .any(|d| d.message.contains("a group cannot be a member of itself")),
        "{:#?}",
        report.diagnostics
    );
}
