//! Heresy: a list its players write (the test fixture in
//! `tests/fixtures/heresy/`, loaded as `--lists` would load it), commanders
//! over battlegroups over detachments, and a roster case that breaks and
//! one that satisfies every construction rule of the fixture.

use muster::catalogue::{Catalogue, load};
use muster::check::{ArmySummary, GameFacts};
use muster::games::heresy::battlegroups::HeresyFacts;
use std::path::{Path, PathBuf};

/// The Heresy facts of an army's summary.
fn heresy_facts(army: &ArmySummary) -> Option<&HeresyFacts> {
    match &army.game_facts {
        GameFacts::Heresy(facts) => Some(facts),
        GameFacts::Cards(_) | GameFacts::None => None,
    }
}

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
        "heresy-reserves",
        "heresy-attacker-twice",
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

fn check<'c>(catalogue: &'c Catalogue, text: &str) -> muster::check::Checked<'c> {
    muster::check::check_text_for(catalogue, None, "case.txt", text)
}

#[test]
fn the_rulebooks_terminator_battlegroup_breaks_after_ten_losses() {
    // 004 lines 920-926: 8 Terminator stands and 4 Land Raiders, fresh
    // morale 8: 80% of 12 models is 9.6, so 10.
    let catalogue = catalogue();
    let result = check(
        &catalogue,
        "Army: Heresy Test Legion\nPoints: 3000\n\nLord Commander\n  Battlegroup\n    Terminator detachment\n    Land Raider detachment\n",
    );
    assert!(result.legal(), "{:#?}", result.diagnostics);
    let army = result.army.as_ref().unwrap();
    let heresy = heresy_facts(army).expect("Heresy facts");
    let bg = &heresy.battlegroups[0];
    assert_eq!(army.formations[bg.index].line, 5);
    assert_eq!(
        (bg.models, bg.fresh_morale, bg.break_point),
        (12, Some(8), Some(10))
    );
    assert_eq!((bg.vp_broken, bg.vp_destroyed), (Some(35), Some(70)));
    assert_eq!(heresy.objectives, Some(3));
}

#[test]
fn a_battlegroup_takes_the_morale_most_of_its_models_have_and_the_lower_on_a_tie() {
    let catalogue = catalogue();
    // 6 tactical stands (7), 8 Terminators and 4 Land Raiders (8): 12 at
    // 8 against 6 at 7.
    let result = check(
        &catalogue,
        "Army: Heresy Test Legion\nPoints: 3000\n\nLord Commander\n  Battlegroup\n    Tactical detachment\n    Terminator detachment\n    Land Raider detachment\n  Battlegroup\n    Terminator detachment\n    Tactical detachment\n    Scout detachment\n",
    );
    let heresy = heresy_facts(result.army.as_ref().unwrap()).cloned().unwrap();
    assert_eq!(heresy.battlegroups[0].fresh_morale, Some(8));
    // 8 at 8 against 6 + 4 = 10 at 7.
    assert_eq!(heresy.battlegroups[1].fresh_morale, Some(7));
    // 6 guns at 6 against 6 tactical stands at 7: the lower.
    let result = check(
        &catalogue,
        "Army: Heresy Test Legion\nPoints: 3000\n\nLord Commander\n  Battlegroup\n    Tactical detachment\n    Field battery\n    Heavy battery\n",
    );
    let heresy = heresy_facts(result.army.as_ref().unwrap()).cloned().unwrap();
    assert_eq!(heresy.battlegroups[0].fresh_morale, Some(6));
    // A card without victory points leaves the battlegroup's unknown.
    let result = check(
        &catalogue,
        "Army: Heresy Test Legion\nPoints: 3000\n\nLord Commander\n  Battlegroup\n    Warhound titan\n",
    );
    let heresy = heresy_facts(result.army.as_ref().unwrap()).cloned().unwrap();
    assert_eq!(heresy.battlegroups[0].vp_broken, None);
    assert_eq!(heresy.battlegroups[0].break_point, Some(1));
}

#[test]
fn victory_points_needed_come_from_table_7_with_its_odd_rows_flagged() {
    let catalogue = catalogue();
    let at = |points: u32| {
        let text = format!(
            "Army: Heresy Test Legion\nPoints: {points}\n\nCaptain\n  Battlegroup\n    Tactical detachment\n"
        );
        let result = check(&catalogue, &text);
        let heresy = heresy_facts(result.army.as_ref().unwrap()).cloned().unwrap();
        (
            heresy.objectives,
            heresy
                .vp_needed
                .iter()
                .map(|v| (v.vp, v.flagged))
                .collect::<Vec<_>>(),
        )
    };
    assert_eq!(at(3000), (Some(3), vec![(75, false), (150, false), (225, false)]));
    assert_eq!(at(4000), (Some(4), vec![(90, true), (200, false), (300, false)]));
    assert_eq!(at(5500), (Some(5), vec![(128, true), (300, true), (418, true)]));
}

#[test]
fn the_json_output_carries_the_battlegroups() {
    let catalogue = catalogue();
    let text = std::fs::read_to_string(fixtures().join("rosters/legal.ok.txt")).unwrap();
    let result = check(&catalogue, &text);
    let report = muster::report::json::CheckOutput::new(std::slice::from_ref(&result), None);
    let json = serde_json::to_value(&report).unwrap();
    let heresy = &json["rosters"][0]["heresy"];
    assert_eq!(heresy["objectives"], 3);
    assert_eq!(heresy["battlegroups"][0]["line"], 7);
    assert_eq!(heresy["battlegroups"][0]["break_point"], 14);
    assert_eq!(heresy["victory_points_needed"][2]["victory_points"], 225);
}

#[test]
fn a_users_list_with_a_mistake_of_every_kind_has_each_reported_at_its_line() {
    let run = crate::common::muster(&["lists", "--check", "--lists", "tests/fixtures/heresy-errors"]);
    assert_eq!(run.status, 1, "{}{}", run.stdout, run.stderr);
    let out = format!("{}{}", run.stdout, run.stderr);
    // (file:line, what the message says)
    let expected = [
        ("bad-schema.yaml:15:", "unknown key `victory_point`"),
        ("bad-units.yaml:11:", "type: `Hover` is not Heresy notation"),
        (
            "bad-units.yaml:12:",
            "move: `10` is not Heresy notation at character 3: expected cm",
        ),
        (
            "bad-units.yaml:13:",
            "armour: `11` is not Heresy notation at character 1: expected a number from 1 to 10",
        ),
        ("bad-units.yaml:16:", "morale: `5/6/3` is not Heresy notation"),
        (
            "bad-units.yaml:19:",
            "a short range below the long one, not 30 then 15",
        ),
        ("bad-units.yaml:20:", "a penetration from +0 to +5"),
        ("bad-units.yaml:21:", "firepower: `many`"),
        ("bad-units.yaml:22:", "type: `Anti-tank`"),
        ("bad-units.yaml:23:", "mount: `Sponson`"),
        ("bad-units.yaml:24:14", "did you mean `Regeneration`?"),
        (
            "bad-units.yaml:24:31",
            "its number in brackets, as in Regeneration (5)",
        ),
        ("bad-units.yaml:33:", "datasheet id `good-trooper` is used twice"),
        ("bad-list.yaml:17:", "no datasheet `no-such-model` for heresy"),
        (
            "bad-list.yaml:18:",
            "no formation or upgrade has the tag `battlegroups`",
        ),
        ("bad-list.yaml:32:", "id `troops` is already used"),
        (
            "bad-list.yaml:37:",
            "no formation or upgrade has the tag `support`",
        ),
        ("bad-list.yaml:43:", "does not parse at column 26"),
    ];
    // Each diagnostic is its message line, then the line with its place.
    let lines: Vec<&str> = out.lines().collect();
    let mut missing = Vec::new();
    for (place, message) in expected {
        let found = lines
            .windows(2)
            .any(|w| w[0].contains(message) && w[1].contains(place));
        if !found {
            missing.push(format!("{place} {message}"));
        }
    }
    assert!(missing.is_empty(), "not reported: {missing:#?}\n{out}");
}

#[test]
fn the_starter_list_loads_without_a_problem_and_checks_a_roster() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let run = crate::common::muster(&["new", "--game", "heresy", "--out", out]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let report = muster::catalogue::load_with(Some(dir.path()), muster::catalogue::Checks::All);
    let own: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.primary.as_ref().is_some_and(|p| p.file.name().contains(out)))
        .collect();
    assert!(own.is_empty(), "{own:#?}");
    let roster = dir.path().join("roster.txt");
    std::fs::write(
        &roster,
        "Army: My Heresy Army\nPoints: 2000\n\nExample Commander\n  Battlegroup\n    Example line detachment: Wargear card\n",
    )
    .unwrap();
    let run = crate::common::muster(&["check", "--lists", out, roster.to_str().unwrap()]);
    assert_eq!(run.status, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("breaks after"), "{}", run.stdout);
    // Never over a file that is there.
    let again = crate::common::muster(&["new", "--game", "heresy", "--out", out]);
    assert_eq!(again.status, 2);
    assert!(again.stderr.contains("exists already"), "{}", again.stderr);
}

#[test]
fn the_heresy_glossary_explains_exactly_the_terms_the_notation_has() {
    use std::collections::BTreeSet;
    let catalogue = catalogue();
    let glossary = catalogue
        .glossary(muster::catalogue::GameId::Heresy)
        .expect("a Heresy glossary");
    let notation: BTreeSet<&str> = muster::notation::heresy::glossary_ids().into_iter().collect();
    let defined: BTreeSet<&str> = glossary.entries.iter().map(|e| e.id.as_str()).collect();
    let missing: Vec<_> = notation.difference(&defined).collect();
    let orphans: Vec<_> = defined.difference(&notation).collect();
    assert!(missing.is_empty(), "no glossary entry for {missing:?}");
    assert!(
        orphans.is_empty(),
        "entries the notation never produces: {orphans:?}"
    );
    for entry in &glossary.entries {
        assert!(entry.summary.ends_with('.'), "{}: one sentence", entry.id);
        assert!(!entry.summary.contains('\n'), "{}: one line", entry.id);
    }
}

#[test]
fn every_fixture_value_prints_canonically_and_reads_back_the_same() {
    use muster::notation::heresy as h;
    let catalogue = catalogue();
    let units: Vec<_> = catalogue
        .heresy_units
        .iter()
        .filter(|u| u.faction == "test-legion-units")
        .collect();
    assert!(units.len() >= 15, "{} units", units.len());
    let mut values = 0;
    for unit in units {
        let sheet = unit.sheet().expect("every fixture sheet parses");
        let morale = sheet.morale.known().unwrap();
        assert_eq!(h::parse_morale(&morale.to_string()).as_ref(), Ok(morale));
        let movement = sheet.movement.known().unwrap();
        assert_eq!(h::parse_move(&movement.to_string()).as_ref(), Ok(movement));
        for w in &sheet.weapons {
            let range = w.range.known().unwrap();
            assert_eq!(h::parse_range(&range.to_string()).as_ref(), Ok(range));
            let pen = w.penetration.known().unwrap();
            assert_eq!(h::parse_penetration(&pen.to_string()).as_ref(), Ok(pen));
            let fp = w.firepower.known().unwrap();
            assert_eq!(h::parse_firepower(&fp.to_string()).as_ref(), Ok(fp));
            let t = w.weapon_type.known().unwrap();
            assert_eq!(h::parse_weapon_type(&t.to_string()).as_ref(), Ok(t));
            values += 4;
        }
        for skill in &sheet.skills {
            assert_eq!(h::parse_skill(&skill.to_string()).as_ref(), Ok(skill));
            values += 1;
        }
        values += 2;
    }
    assert!(values > 60, "{values} values");
}

#[test]
fn crib_sheets_and_rosters_print_heresy_units_and_battlegroups() {
    let dir = crate::common::out_dir("heresy");
    let lists = "tests/fixtures/heresy";
    let roster = "tests/fixtures/heresy/rosters/legal.ok.txt";
    let pdf = dir.join("roster.pdf");
    let html = dir.join("roster.html");
    let run = crate::common::muster(&[
        "roster",
        "--lists",
        lists,
        "--with-sheet",
        roster,
        "--pdf",
        pdf.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let page = std::fs::read_to_string(&html).unwrap();
    let wanted = [
        "Battlegroups",
        "Battlegroup (line 7), under Lord Commander",
        "Objectives: 3 (one per full 1,000 points)",
        "Victory points to win: minor contact 75, fully engaged 150, bloodbath 225",
        "Lord Commander stand",
        "Morale 9/8/6",
        "Leadership 8",
        "15/30cm",
        "Anti-infantry",
        "Intercept (+1)",
        "Short/long range",
    ];
    for w in wanted {
        assert!(page.contains(w), "HTML lacks {w}");
    }
    let doc = lopdf::Document::load(&pdf).expect("a PDF lopdf can read");
    let text: String = doc
        .get_pages()
        .keys()
        .map(|&p| doc.extract_text(&[p]).expect("text of the page"))
        .collect();
    for w in wanted {
        assert!(text.contains(w), "PDF lacks {w}");
    }
    let run = crate::common::muster(&["sheet", "--lists", lists, "heresy-test-legion"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    insta::assert_snapshot!("heresy_crib_sheet", run.stdout);
    let run = crate::common::muster(&["roster", "--lists", lists, roster]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    insta::assert_snapshot!("heresy_roster", run.stdout);
    let run = crate::common::muster(&["check", "--lists", lists, roster]);
    insta::assert_snapshot!("heresy_check", run.stdout);
}

#[test]
fn mak_ordnance_priced_off_half_the_battery_is_a_warning_on_the_list() {
    let text =
        "Army: Heresy Test Legion\nPoints: 3000\n\nCaptain\n  Battlegroup\n    Heavy battery: MAK ordnance\n";
    // The fixture prices it at 88 for a 175-point battery: as decided.
    let catalogue = catalogue();
    let result = check(&catalogue, text);
    assert!(
        !result
            .diagnostics
            .iter()
            .any(|d| d.rule.as_ref().is_some_and(|r| r.id == "heresy-mak-ordnance")),
        "{:#?}",
        result.diagnostics
    );
    // A list that rounds the half down is told so, at the upgrade.
    let dir = tempfile::tempdir().unwrap();
    for name in ["test-legion.yaml", "datasheets/test-legion-units.yaml"] {
        let from = std::fs::read_to_string(fixtures().join(name)).unwrap();
        let to = dir.path().join(name);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::write(to, from.replace("points: 88 }", "points: 87 }")).unwrap();
    }
    let report = load(Some(dir.path()));
    let result = check(&report.catalogue, text);
    let warning = result
        .diagnostics
        .iter()
        .find(|d| d.rule.as_ref().is_some_and(|r| r.id == "heresy-mak-ordnance"))
        .expect("a warning on the list's price");
    assert_eq!(warning.line_col().map(|(line, _)| line), Some(6));
    assert!(
        warning
            .message
            .contains("at 87 points, but half the battery's 175 is 88"),
        "{}",
        warning.message
    );
}

#[test]
fn a_heresy_scenario_in_another_games_roster_is_named_as_heresys() {
    // Scenarios are looked up in the list's game (`crate::scenario`): a
    // Heresy scenario in an Epic roster is an error saying whose it is.
    let catalogue = crate::common::catalogue();
    let result = check(
        catalogue,
        "Army: Codex Astartes\nPoints: 3000\nScenario: Set piece battle\n\nTactical\n",
    );
    let error = result
        .diagnostics
        .iter()
        .find(|d| d.code == muster::diagnostic::Code::Scenario)
        .expect("a scenario error");
    assert_eq!(error.line_col().map(|(l, _)| l), Some(3));
    assert!(
        error.message.contains("is a scenario of Heresy"),
        "{}",
        error.message
    );
}

#[test]
fn a_heresy_roster_naming_a_heresy_scenario_gets_no_scenario_error() {
    let catalogue = crate::common::catalogue();
    for scenario in ["Set piece battle", "Seize the objective", "attack and defend"] {
        let scenarios: Vec<_> = catalogue
            .scenarios_of(muster::catalogue::GameId::Heresy)
            .filter(|s| s.is_named(scenario))
            .collect();
        assert_eq!(scenarios.len(), 1, "{scenario}");
    }
}

#[test]
fn heresy_weapon_tables_share_one_set_of_column_widths_in_html() {
    // Each unit's weapon table sized its own columns, so they were ragged
    // from unit to unit; the PDF was aligned.
    let run = crate::common::muster(&["sheet", "--lists", "tests/fixtures/heresy", "heresy-test-legion"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let html = &run.stdout;
    let tables: Vec<&str> = html
        .split("<table class=\"weapons\">")
        .skip(1)
        .map(|t| t.split("</table>").next().unwrap_or(""))
        .collect();
    assert!(tables.len() >= 2, "{} weapon tables", tables.len());
    let colgroup = |t: &str| t.split("</colgroup>").next().unwrap_or("").to_string();
    for table in &tables {
        let widths: Vec<String> = table
            .split("<col style=\"width:")
            .skip(1)
            .filter_map(|c| c.split_once('"').map(|(w, _)| w.to_string()))
            .collect();
        let heads = table.split("</tr>").next().unwrap_or("").matches("<th>").count();
        crate::common::assert_widths_set_in(html, "table.weapons", &widths, heads);
        assert_eq!(colgroup(table), colgroup(tables[0]), "one set of widths");
    }
}

/// A check with `--lists` reads in full only the files its roster's list
/// needs (issue 33): a broken file of another game, or another broken list,
/// does not stop it, while `lists --check` still reports every file. A file
/// whose top a scan cannot tell (here a flow mapping) is read whole, and a
/// broken one still stops the check.
#[test]
fn a_check_with_a_lists_folder_reads_only_what_its_list_needs() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = std::path::Path::new("tests/fixtures/heresy");
    for file in ["test-legion.yaml", "datasheets/test-legion-units.yaml"] {
        let to = dir.path().join(file);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(fixture.join(file), to).unwrap();
    }
    let lists = dir.path().to_str().unwrap();
    let roster = "tests/fixtures/heresy/rosters/legal.ok.txt";
    let broken = [
        (
            "other-game.yaml",
            "game: bfg\nid: other\nname: Other\nsections: [{pionts: 1}]\n",
        ),
        (
            "other-list.yaml",
            "game: heresy\nid: another\nname: Another\nsections: 7\n",
        ),
    ];
    for (name, text) in broken {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let run = crate::common::muster(&["check", "--lists", lists, roster]);
    assert_eq!(run.status, 0, "{}{}", run.stdout, run.stderr);
    assert!(!run.stderr.contains("other-"), "{}", run.stderr);
    let all = crate::common::muster(&["lists", "--check", "--lists", lists]);
    assert_eq!(all.status, 1, "{}", all.stdout);
    for (name, _) in broken {
        assert!(all.stdout.contains(name), "{name} not reported: {}", all.stdout);
    }

    // A broken datasheet file of the list's own game is read, and stops it.
    std::fs::write(
        dir.path().join("datasheets/more.yaml"),
        "game: heresy\nid: more\nname: More\nheresy_units: [{id: x, nmae: y}]\n",
    )
    .unwrap();
    let run = crate::common::muster(&["check", "--lists", lists, roster]);
    assert_eq!(run.status, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("more.yaml"), "{}", run.stderr);
    std::fs::remove_file(dir.path().join("datasheets/more.yaml")).unwrap();

    // A file a scan cannot tell is read whole, with every other file.
    std::fs::write(
        dir.path().join("flow.yaml"),
        "{game: bfg, id: flow, sections: 7}\n",
    )
    .unwrap();
    let run = crate::common::muster(&["check", "--lists", lists, roster]);
    assert_eq!(run.status, 2, "{}{}", run.stdout, run.stderr);
    for name in ["flow.yaml", "other-game.yaml", "other-list.yaml"] {
        assert!(run.stderr.contains(name), "{name}: {}", run.stderr);
    }
}

/// Dead data in a list being proven is a warning at its line: a formation
/// with nothing in it, an upgrade no formation is offered. A note saying
/// why (a fortification, an id kept for imports) makes it deliberate.
#[test]
fn dead_data_is_a_warning_unless_a_note_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = fixtures();
    std::fs::create_dir_all(dir.path().join("datasheets")).unwrap();
    let units = "datasheets/test-legion-units.yaml";
    std::fs::copy(fixture.join(units), dir.path().join(units)).unwrap();
    let list = std::fs::read_to_string(fixture.join("test-legion.yaml")).unwrap();
    let formations = "      - { id: empty-line, name: Empty line, points: 10, units: [], tags: [line] }\n      - { id: trench-line, name: Trench line, points: 10, units: [], tags: [line], note: \"A fortification.\" }\n";
    let upgrades = "upgrades:\n  - { id: lost-banner, name: Lost banner, points: 5 }\n  - { id: kept-banner, name: Kept banner, points: 5, note: \"An id kept for imports.\" }\n";
    let at = list.find("      - id: lord-commander").unwrap();
    let list = format!("{}{formations}{}", &list[..at], &list[at..]).replacen("upgrades:\n", upgrades, 1);
    std::fs::write(dir.path().join("test-legion.yaml"), &list).unwrap();
    let line_of = |text: &str| list.lines().position(|l| l.contains(text)).unwrap() + 1;
    let report = load(Some(dir.path()));
    assert!(!report.has_errors(), "{:#?}", report.diagnostics);
    let warnings: Vec<(String, usize)> = (report.diagnostics.iter())
        .map(|d| (d.message.clone(), d.line_col().map_or(0, |(line, _)| line)))
        .collect();
    assert_eq!(
        warnings,
        [
            (
                "upgrade `lost-banner` is not offered to any formation".to_string(),
                line_of("lost-banner")
            ),
            (
                "formation `empty-line` has no units and no upgrades".to_string(),
                line_of("empty-line")
            ),
        ]
    );
}

/// `lists --check` counts a folder's lists and datasheets of every kind
/// with the built-in ones (the fixture: one list, 15 Heresy units).
#[test]
fn a_folder_check_counts_the_folders_lists_and_datasheets() {
    let run = crate::common::muster(&["--lists", "tests/fixtures/heresy", "lists", "--check"]);
    assert_eq!(run.status, 0, "{}", run.stdout);
    let built_in = crate::common::catalogue();
    let counts = format!(
        "{} army lists, {} datasheets,",
        built_in.lists.len() + 1,
        built_in.every_sheet().count() + 15
    );
    assert!(run.stdout.contains(&counts), "{counts}: {}", run.stdout);
}
