//! Space Fleet ship datasheets: every shipped value parses, prints in its
//! canonical form and parses again to the same value; the glossary explains
//! exactly what the notation produces; a bad value fails the load naming
//! file, line, ship and field; the fleets print (HTML and PDF) and
//! `muster explain` shows a ship.

use super::common::{assert_widths_set, muster, ship_tables};
use muster::catalogue::GameId;
use muster::notation::space_fleet as sf;
use std::collections::BTreeSet;
use std::path::PathBuf;

fn out_dir() -> PathBuf {
    super::common::out_dir("space-fleet")
}

fn squeeze(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

fn assert_contains(text: &str, wanted: &[&str]) {
    let squeezed = squeeze(text);
    for w in wanted {
        assert!(squeezed.contains(&squeeze(w)), "`{w}` is missing from:\n{text}");
    }
}

#[test]
fn every_shipped_space_fleet_value_parses_prints_canonically_and_parses_again() {
    let report = crate::common::embedded();
    assert!(!report.has_errors(), "{:#?}", report.diagnostics);
    let ships: Vec<_> = report
        .catalogue
        .sf_ships
        .iter()
        .filter(|s| s.game == GameId::SpaceFleet)
        .collect();
    // 27 ships and the asteroid.
    assert_eq!(ships.len(), 28);
    let mut values = 0;
    for s in &ships {
        let id = &s.data.id;
        let sheet = s.sheet().unwrap_or_else(|| panic!("{id} was not parsed"));
        assert_eq!(sheet.weapons.len(), s.data.weapons.len(), "{id}");
        let mut again = |ok: bool, text: String| {
            assert!(ok, "{id}: `{text}` does not parse back to the same value");
            values += 1;
        };
        if let Some(v) = sheet.speed.as_ref().and_then(|v| v.known()) {
            again(sf::parse_speed(&v.to_string()) == Ok(*v), v.to_string());
        }
        for v in [&sheet.damage, &sheet.wounds]
            .into_iter()
            .flatten()
            .filter_map(|v| v.known())
        {
            again(sf::parse_number(&v.to_string()) == Ok(*v), v.to_string());
        }
        if let Some(v) = sheet.command_cards.as_ref().and_then(|v| v.known()) {
            again(sf::parse_cards(&v.to_string()) == Ok(*v), v.to_string());
        }
        if let Some(v) = sheet.points.as_ref().and_then(|v| v.known()) {
            again(sf::parse_points(&v.to_string()) == Ok(*v), v.to_string());
        }
        for v in [&sheet.squadrons, &sheet.ships]
            .into_iter()
            .flatten()
            .filter_map(|v| v.known())
        {
            again(sf::parse_limit(&v.to_string()) == Ok(*v), v.to_string());
        }
        if let Some(v) = sheet.shields.as_ref().and_then(|v| v.known()) {
            again(sf::parse_shields(&v.to_string()) == Ok(*v), v.to_string());
        }
        if let Some(v) = sheet.bands.as_ref().and_then(|v| v.known()) {
            again(sf::parse_bands(&v.to_string()).as_ref() == Ok(v), v.to_string());
        }
        for w in &sheet.weapons {
            again(
                sf::parse_weapon(&w.name.to_string()) == Ok(w.name),
                w.name.to_string(),
            );
            if let Some(v) = w.arc.known() {
                again(sf::parse_arc(&v.to_string()) == Ok(*v), v.to_string());
            }
            if let Some(v) = w.dice.known() {
                again(sf::parse_dice(&v.to_string()).as_ref() == Ok(v), v.to_string());
            }
        }
    }
    assert!(values > 250, "{values} values");
}

#[test]
fn the_space_fleet_glossary_explains_exactly_the_terms_the_notation_has() {
    let report = crate::common::embedded();
    let glossary = report
        .catalogue
        .glossary(GameId::SpaceFleet)
        .expect("a Space Fleet glossary");
    let notation: BTreeSet<&str> = sf::GLOSSARY_IDS.iter().copied().collect();
    let defined: BTreeSet<&str> = glossary.entries.iter().map(|e| e.id.as_str()).collect();
    let missing: Vec<_> = notation.difference(&defined).collect();
    let orphans: Vec<_> = defined.difference(&notation).collect();
    assert!(missing.is_empty(), "no glossary entry for {missing:?}");
    assert!(
        orphans.is_empty(),
        "entries the notation never produces: {orphans:?}"
    );
    for s in &report.catalogue.sf_ships {
        for id in s.sheet().map(|s| s.glossary_ids()).unwrap_or_default() {
            assert!(notation.contains(id), "{}: {id}", s.data.id);
        }
    }
    for entry in &glossary.entries {
        assert!(entry.summary.ends_with('.'), "{}: one sentence", entry.id);
        assert!(!entry.summary.contains('\n'), "{}: one line", entry.id);
    }
}

#[test]
fn the_source_faults_are_missing_values_with_faults() {
    let report = crate::common::embedded();
    let ship = |id: &str| {
        report
            .catalogue
            .sf_ship(GameId::SpaceFleet, id)
            .unwrap_or_else(|| panic!("no {id}"))
    };
    let ironclad = ship("ironclad");
    let sheet = ironclad.sheet().expect("parsed");
    assert_eq!(sheet.ships, Some(muster::notation::ship::Stat::Missing));
    assert!(!ironclad.data.faults.is_empty());
    let prowler = ship("dark-prowler");
    let sheet = prowler.sheet().expect("parsed");
    assert_eq!(sheet.weapons[1].dice, muster::notation::ship::Stat::Missing);
    assert!(!prowler.data.faults.is_empty());
}

#[test]
fn every_space_fleet_ship_formation_fields_its_datasheet() {
    let report = crate::common::embedded();
    let lists: Vec<_> = report
        .catalogue
        .lists
        .iter()
        .filter(|l| l.game == GameId::SpaceFleet)
        .collect();
    assert_eq!(lists.len(), 3);
    let fielded: BTreeSet<&str> = lists
        .iter()
        .flat_map(|l| l.units.iter().map(String::as_str))
        .collect();
    for s in &report.catalogue.sf_ships {
        if s.data.id != "asteroid" {
            assert!(
                fielded.contains(s.data.id.as_str()),
                "{} is in no list",
                s.data.id
            );
        }
    }
}

#[test]
fn a_bad_value_fails_the_load_naming_file_line_ship_and_field() {
    let dir = out_dir().join("bad-sf");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("bad.yaml"),
        "game: space-fleet\nid: bad\nname: Bad\nsource: [{ document: test }]\nsf_ships:\n  - id: bad-cruiser\n    name: Bad Cruiser\n    speed: 8 Supermanoeuvring\n    damage: \"4\"\n    bands: 1-6\" 7-12\"\n    weapons:\n      - { name: Laser Batteries, arc: Broadsides, dice: 3/1/- }\n",
    )
    .unwrap();
    let run = muster(&["lists", "--check", "--lists", &dir.display().to_string()]);
    assert_eq!(run.status, 1, "{}", run.stdout);
    let file = dir.join("bad.yaml").display().to_string();
    assert_contains(
        &run.stdout,
        &[
            "ship datasheet `bad-cruiser`, speed: `8 Supermanoeuvring` is not Space Fleet notation at character 3",
            &format!("{file}:8:"),
            "ship datasheet `bad-cruiser`, weapon 1 (Laser Batteries) dice: `3/1/-` is not Space Fleet notation at character 1: expected one value per range band of the sheet (2), not 3",
            &format!("{file}:12:"),
        ],
    );
}

#[test]
fn explain_shows_a_ship_of_the_fleet_and_takes_notation_apart() {
    let run = muster(&["explain", "Emperor", "--army", "imperial-battlefleet"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_contains(
        &run.stdout,
        &[
            "Emperor-class Capital Ship (Imperial Battlefleet)",
            "Speed 6 Unmanoeuvrable",
            "Shields Front 12/Flanks 8",
            "Laser Batteries  Broadsides  8  4  -",
            "Critical 4: ram destroyed",
            "Unmanoeuvrable: Turns less freely",
        ],
    );
    let run = muster(&["explain", "Dark Prowler", "--army", "space-fleet-tyranids"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_contains(
        &run.stdout,
        &["Hullgrinder  Broadsides  not in the sources", "Source fault:"],
    );
    let run = muster(&[
        "explain",
        "Front 6/Flanks 4/Rear 4, Fixed Front, 8/4/-",
        "--army",
        "eldar-battlefleet",
    ]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_contains(
        &run.stdout,
        &[
            "Front 6/Flanks 4/Rear 4  (Space Fleet shields)",
            "Fixed Forward  (Space Fleet fire arc; written `Fixed Front`)",
            "8/4/-",
        ],
    );
    let run = muster(&["explain", "Wraithshp", "--army", "eldar-battlefleet"]);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("did you mean"), "{}", run.stderr);
}

#[test]
fn space_fleet_ship_tables_share_their_column_widths_in_html() {
    // Each ship's table sized its own columns to what it held, so the
    // columns were ragged from ship to ship (the PDF was aligned).
    for list in [
        "imperial-battlefleet",
        "eldar-battlefleet",
        "space-fleet-tyranids",
    ] {
        let run = muster(&["sheet", list]);
        assert_eq!(run.status, 0, "{list}: {}", run.stderr);
        let html = &run.stdout;
        let tables = ship_tables(html);
        assert!(tables.len() >= 2, "{list}: {} ship tables", tables.len());
        for (i, (widths, heads)) in tables.iter().enumerate() {
            assert_widths_set(html, widths, *heads);
            // Weapon and fire arc alike on every ship, so the dice start
            // at the same place; ships with as many range bands alike in
            // every column.
            assert_eq!(widths[..2], ["28.0%", "22.0%"], "{list}: ship table {i}");
            for (other, _) in tables.iter().filter(|(w, _)| w.len() == widths.len()) {
                assert_eq!(widths, other, "{list}: ship table {i}");
            }
        }
    }
    // The Imperial ships all have three range bands: one set of widths.
    let html = muster(&["sheet", "imperial-battlefleet"]).stdout;
    let tables = ship_tables(&html);
    assert!(tables.iter().all(|(w, _)| w == &tables[0].0), "{tables:?}");
    // The Tyranid sheets print one, two or three bands.
    let html = muster(&["sheet", "space-fleet-tyranids"]).stdout;
    let counts: BTreeSet<usize> = ship_tables(&html).iter().map(|(_, h)| *h).collect();
    assert_eq!(counts, BTreeSet::from([3, 4, 5]));
}

#[test]
fn space_fleet_crib_sheets_print_every_ship_as_html_and_pdf() {
    for (list, wanted) in [
        (
            "imperial-battlefleet",
            vec![
                "Emperor-class Capital Ship",
                "Stalwart-class Escort Frigate",
                "Vortex Torpedo",
            ],
        ),
        (
            "eldar-battlefleet",
            vec!["Eldar Wraithship", "Plasma Torpedo", "2-6 Super-Manoeuvrable"],
        ),
        (
            "space-fleet-tyranids",
            vec!["Hiveship", "Ramsmiter Kraken", "Command cards"],
        ),
    ] {
        let run = muster(&["sheet", list]);
        assert_eq!(run.status, 0, "{list}: {}", run.stderr);
        assert_contains(&run.stdout, &wanted);
        assert_contains(&run.stdout, &["Critical damage"]);
        let path = out_dir().join(format!("{list}.pdf"));
        let path_text = path.display().to_string();
        let run = muster(&["sheet", list, "--pdf", &path_text]);
        assert_eq!(run.status, 0, "{list}: {}", run.stderr);
        let doc = lopdf::Document::load(&path).expect("a PDF lopdf can read");
        let text: String = doc
            .get_pages()
            .keys()
            .map(|&p| doc.extract_text(&[p]).expect("text of the page"))
            .collect();
        assert_contains(&text, &wanted);
    }
}

const HAND: &str = "tests/rosters/space-fleet/space-fleet-tyranids/command-card-example.ok.txt";
const AMBUSH: &str = "tests/rosters/space-fleet/scenarios/naming/by-number.ok.txt";
const TEN_GOTHICS: &str = "tests/rosters/space-fleet/imperial-battlefleet/ten-gothics.ok.txt";
const ELEVEN_SQUADRONS: &str =
    "tests/rosters/space-fleet/imperial-battlefleet/squadron-commanders.broken.txt";

/// The JSON `muster check --format json` printed, checked against its
/// published schema.
fn check_output(stdout: &str) -> serde_json::Value {
    let value: serde_json::Value = serde_json::from_str(stdout).expect("one JSON document");
    let schema_text = std::fs::read_to_string("schema/check-output.schema.json").unwrap();
    let schema: serde_json::Value = serde_json::from_str(&schema_text).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator.iter_errors(&value).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    value
}

/// The source's own example (002 lines 823-833): a Hiveship, a swarm each
/// of Dark Prowlers, Void Fiends and Wardrones, three Drone swarms, five
/// spore mines and two Kraken hold a hand of 11 command cards.
#[test]
fn the_sources_hive_fleet_holds_a_hand_of_eleven_command_cards() {
    let report = crate::common::embedded();
    let text = std::fs::read_to_string(HAND).unwrap();
    let checked = muster::check::check_text(&report.catalogue, HAND, &text);
    assert!(checked.legal(), "{:#?}", checked.diagnostics);
    let army = checked.army.expect("resolved");
    assert_eq!(army.figures, vec![("Command cards".to_string(), 11)]);

    // One Hiveship more is six cards more; a Drone swarm adds none.
    let more = text.replace("Hiveship                         [120]", "2x Hiveship\nDrone");
    let checked = muster::check::check_text(&report.catalogue, HAND, &more);
    assert_eq!(checked.army.expect("resolved").figures[0].1, 17);

    let run = muster(&["check", HAND]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.stdout.contains("command cards 11"), "{}", run.stdout);
    let run = muster(&["check", "--format", "json", HAND]);
    let value = check_output(&run.stdout);
    assert_eq!(value["rosters"][0]["figures"][0]["name"], "Command cards");
    assert_eq!(value["rosters"][0]["figures"][0]["value"], 11);
}

/// Each ship's speed tag (what the scenarios limit) is the top speed its
/// datasheet prints, and every ship with a speed has one.
#[test]
fn every_ships_speed_tag_is_its_datasheets_top_speed() {
    let report = crate::common::embedded();
    let mut checked = 0;
    for list in report
        .catalogue
        .lists
        .iter()
        .filter(|l| l.game == GameId::SpaceFleet)
    {
        for formation in &list.formations {
            let tags: Vec<&str> = formation
                .tags
                .iter()
                .map(String::as_str)
                .filter(|t| t.starts_with("speed-"))
                .collect();
            let Some((unit, _)) = formation.units.first() else {
                assert!(tags.is_empty(), "{}: a speed tag on a squadron", formation.id);
                continue;
            };
            let id = &list.units[*unit];
            let ship = report
                .catalogue
                .sf_ship(GameId::SpaceFleet, id)
                .unwrap_or_else(|| panic!("no datasheet {id}"));
            let speed = ship
                .sheet()
                .and_then(|s| s.speed.as_ref())
                .and_then(|s| s.known());
            match speed {
                Some(speed) => {
                    assert_eq!(tags, vec![format!("speed-{}", speed.max)], "{}", formation.id);
                    checked += 1;
                }
                None => assert!(tags.is_empty(), "{}: a speed tag without a speed", formation.id),
            }
        }
    }
    assert_eq!(checked, 17, "every Imperial and Eldar ship");
}

#[test]
fn an_event_naming_an_unknown_or_foreign_scenario_is_refused() {
    let report = crate::common::embedded();
    let load = |text: &str| {
        muster::event::load(
            muster::source::SourceFile::new("event.yaml", text),
            &report.catalogue,
        )
    };
    let errors = load("name: Night\ngame: space-fleet\npoints: 1000\nscenario: Jump Pint\n").unwrap_err();
    let d = &errors[0];
    assert_eq!(d.code.as_str(), "event-file");
    assert_eq!(d.line_col().map(|(l, _)| l), Some(4));
    assert!(
        d.message.contains("no Space Fleet scenario called `Jump Pint`"),
        "{}",
        d.message
    );
    assert_eq!(d.fix.as_deref(), Some("Jump Point"));

    let errors = load("name: Night\ngame: netea\npoints: 3000\nscenario: Jump Point\n").unwrap_err();
    assert!(
        errors[0].message.contains("is a scenario of Space Fleet"),
        "{}",
        errors[0].message
    );
    let errors = load("name: Night\ngame: netea\npoints: 3000\nscenario: Anything\n").unwrap_err();
    assert!(
        errors[0].message.contains("no scenarios for"),
        "{}",
        errors[0].message
    );

    let event = load("name: Night\ngame: space-fleet\npoints: 1000\nscenario: \"3\"\n")
        .expect("Blockade by its number");
    assert_eq!(event.file.scenario.as_deref(), Some("3"));
}

/// Every scenario of the source's table is there, numbered 1 to 20, and
/// found by its number, its name written loosely, or both.
#[test]
fn the_twenty_scenarios_are_found_by_number_and_name() {
    use muster::catalogue::scenarios::ScenarioLookup;
    let report = crate::common::embedded();
    let numbers: Vec<u32> = report
        .catalogue
        .scenarios_of(GameId::SpaceFleet)
        .filter_map(|s| s.number)
        .collect();
    assert_eq!(numbers, (1..=20).collect::<Vec<_>>());
    for written in [
        "18",
        "wolf pack",
        "Wolf-Pack",
        "Scenario 18",
        "18. Wolf Pack",
        "#18",
    ] {
        match report.catalogue.find_scenario(GameId::SpaceFleet, written) {
            ScenarioLookup::Found(s) => assert_eq!(s.id, "wolf-pack", "{written}"),
            other => panic!("{written}: {other:?}"),
        }
    }
    match report.catalogue.find_scenario(GameId::SpaceFleet, "Wolf Pak") {
        ScenarioLookup::NotFound(Some(s)) => assert_eq!(s, "Wolf Pack"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn space_fleet_check_output() {
    let run = muster(&["check", AMBUSH]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    insta::assert_snapshot!(run.stdout);
    let run = muster(&["check", ELEVEN_SQUADRONS]);
    assert_eq!(run.status, 1, "{}", run.stderr);
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn space_fleet_json_follows_its_schema() {
    let run = muster(&["check", "--format", "json", TEN_GOTHICS, HAND, AMBUSH]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let value = check_output(&run.stdout);
    let gothics = &value["rosters"][0];
    assert_eq!(gothics["game"], "space-fleet");
    assert_eq!(gothics["points"], 1000);
    assert_eq!(gothics["attack_rating"], serde_json::Value::Null);
    let ships = gothics["formations"].as_array().unwrap();
    let flagship = ships
        .iter()
        .find(|s| s["upgrades"].as_array().is_some_and(|u| !u.is_empty()))
        .expect("the flagship");
    assert_eq!(flagship["upgrades"][0]["name"], "Flagship");
    assert_eq!(value["rosters"][1]["figures"][0]["value"], 11);
    assert_eq!(gothics["scenario"], serde_json::Value::Null);
    let ambush = &value["rosters"][2]["scenario"];
    assert_eq!(ambush["id"], "ambush");
    assert_eq!(ambush["name"], "Ambush");
    assert_eq!(ambush["side"], "defender");
}

/// A Space Fleet roster as HTML and PDF: squadrons with their ships, the
/// flagship and the bonus rolls bought, the scenario and side, the
/// command-card hand; no attack rating, which the game has not.
#[test]
fn space_fleet_rosters_print_as_html_and_pdf() {
    let bonus = "tests/rosters/space-fleet/imperial-battlefleet/flagship-bonus-cap.ok.txt";
    let run = muster(&["roster", bonus]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    insta::assert_snapshot!(run.stdout);
    assert!(!run.stdout.contains("Attack rating"), "{}", run.stdout);

    for (roster, wanted) in [
        (
            bonus,
            vec![
                "Imperial Battlefleet roster",
                "Emperor squadron",
                "Emperor-class capital ship",
                "Flagship, 6× Flagship bonus roll",
                "Gothic squadron",
                "Legal",
            ],
        ),
        (HAND, vec!["Command cards", "11", "Hiveship", "Ramsmiter Kraken"]),
        (AMBUSH, vec!["Scenario", "5, def", "Cobra squadron"]),
    ] {
        let run = muster(&["roster", roster]);
        assert_eq!(run.status, 0, "{roster}: {}", run.stderr);
        assert_contains(&run.stdout, &wanted);
        let name = std::path::Path::new(roster)
            .file_name()
            .unwrap()
            .to_string_lossy();
        let path = out_dir().join(format!("{name}.pdf"));
        let path_text = path.display().to_string();
        let run = muster(&["roster", roster, "--with-sheet", "--pdf", &path_text]);
        assert_eq!(run.status, 0, "{roster}: {}", run.stderr);
        let doc = lopdf::Document::load(&path).expect("a PDF lopdf can read");
        let text: String = doc
            .get_pages()
            .keys()
            .map(|&p| doc.extract_text(&[p]).expect("text of the page"))
            .collect();
        assert_contains(&text, &wanted);
        assert!(!text.contains("Attack rating"), "{roster}");
        assert_contains(&text, &["Critical damage"]);
    }
}

proptest::proptest! {
    /// Any text to every Space Fleet parser: an error or a value, never a
    /// panic, and a value always prints back to itself.
    #[test]
    fn space_fleet_parsers_never_panic_and_round_trip(text in "\\PC{0,24}") {
        if let Ok(v) = sf::parse_speed(&text) {
            proptest::prop_assert_eq!(sf::parse_speed(&v.to_string()), Ok(v));
        }
        if let Ok(v) = sf::parse_points(&text) {
            proptest::prop_assert_eq!(sf::parse_points(&v.to_string()), Ok(v));
        }
        if let Ok(v) = sf::parse_limit(&text) {
            proptest::prop_assert_eq!(sf::parse_limit(&v.to_string()), Ok(v));
        }
        if let Ok(v) = sf::parse_shields(&text) {
            proptest::prop_assert_eq!(sf::parse_shields(&v.to_string()), Ok(v));
        }
        if let Ok(v) = sf::parse_dice(&text) {
            proptest::prop_assert_eq!(sf::parse_dice(&v.to_string()), Ok(v));
        }
        if let Ok(v) = sf::parse_bands(&text) {
            proptest::prop_assert_eq!(sf::parse_bands(&v.to_string()), Ok(v));
        }
        let _ = sf::parse_cards(&text);
        let _ = sf::parse_arc(&text);
        let _ = sf::parse_weapon(&text);
        let _ = sf::parse_terms(&text);
    }

    /// Values built the way the datasheets write them parse, and print and
    /// parse again to the same value.
    #[test]
    fn generated_space_fleet_values_round_trip(
        low in 1u32..12,
        span in 0u32..8,
        keyword in proptest::sample::select(vec!["", " Unmanoeuvrable", " Super-Manoeuvrable"]),
        dice in proptest::collection::vec(proptest::option::of(1u32..20), 1..4),
        front in 0u32..20,
        flanks in 0u32..20,
    ) {
        let speed = if span == 0 { format!("{low}{keyword}") } else { format!("{low}-{}{keyword}", low + span) };
        let v = sf::parse_speed(&speed).map_err(|e| proptest::test_runner::TestCaseError::fail(format!("{speed}: {e:?}")))?;
        proptest::prop_assert_eq!(v.max, low + span);
        proptest::prop_assert_eq!(sf::parse_speed(&v.to_string()), Ok(v));

        let cells: Vec<String> = dice.iter().map(|d| d.map_or("-".to_string(), |n| n.to_string())).collect();
        let text = cells.join("/");
        let v = sf::parse_dice(&text).map_err(|e| proptest::test_runner::TestCaseError::fail(format!("{text}: {e:?}")))?;
        proptest::prop_assert_eq!(sf::parse_dice(&v.to_string()), Ok(v));

        let text = format!("Front {front}/Flanks {flanks}");
        let v = sf::parse_shields(&text).map_err(|e| proptest::test_runner::TestCaseError::fail(format!("{text}: {e:?}")))?;
        proptest::prop_assert_eq!(sf::parse_shields(&v.to_string()), Ok(v));
    }
}

/// `muster options` lists the game's scenarios and what each asks of the
/// fleet by side; `muster new` writes the scenario lines as comments.
#[test]
fn options_and_new_show_the_scenarios() {
    let run = muster(&["options", "eldar-battlefleet"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    insta::assert_snapshot!(run.stdout);
    let run = muster(&["new", "imperial-battlefleet"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with("# An Imperial Battlefleet roster"),
        "{}",
        run.stdout
    );
    assert_contains(
        &run.stdout,
        &[
            "# Scenario: Jump Point",
            "# Side: attacker",
            "# Opponent points: 1000",
        ],
    );
    let run = muster(&["new", "codex-astartes"]);
    assert!(!run.stdout.contains("Scenario"), "{}", run.stdout);

    // The event template of a game with scenarios offers one, and loads
    // with it.
    let run = muster(&["event", "new", "--game", "space-fleet"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("\n# scenario: Jump Point\n"),
        "{}",
        run.stdout
    );
    let report = crate::common::embedded();
    let text = run
        .stdout
        .replace("\n# scenario: Jump Point\n", "\nscenario: Jump Point\n");
    let event = muster::event::load(
        muster::source::SourceFile::new("event.yaml", text),
        &report.catalogue,
    )
    .expect("the template loads");
    assert_eq!(event.file.scenario.as_deref(), Some("Jump Point"));
    let run = muster(&["event", "new", "--game", "netea"]);
    assert!(!run.stdout.contains("scenario"), "{}", run.stdout);
}

/// A scenario file with faults fails `lists --check`, each fault at its
/// line: both sides given a share, a rule naming nothing in any list, a
/// waived rule no list has, a rule that does not parse, a number twice.
#[test]
fn a_bad_scenario_file_fails_the_load_at_its_lines() {
    let dir = out_dir().join("bad-scenarios");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("scenarios.yaml"),
        "game: space-fleet
source: [{ document: test }]
scenarios:
  - id: both-shares
    number: 1
    name: Both Shares
    summary: test
    attacker: { points: { times: 1, per: 2 } }
    defender: { points: { times: 2, per: 1 } }
  - id: typos
    number: 1
    name: Typos
    summary: test
    defender:
      rules:
        - { id: no-frigates, scope: army, rule: \"count(tag:frigate) == 0\", message: m, provenance: p }
        - { id: broken, scope: army, rule: \"count(tag:warship) <=\", message: m, provenance: p }
      waives: [no-such-rule]
",
    )
    .unwrap();
    let run = muster(&["lists", "--check", "--lists", &dir.display().to_string()]);
    assert_eq!(run.status, 1, "{}", run.stdout);
    let file = dir.join("scenarios.yaml").display().to_string();
    assert_contains(
        &run.stdout,
        &[
            "scenario `both-shares` gives both sides a share of the other's points",
            &format!("{file}:9:"),
            "scenario number 1 is used twice",
            &format!("{file}:11:"),
            "rule `no-frigates` of scenario `typos`: `tag:frigate` names nothing in any list of the game",
            &format!("{file}:16:"),
            "rule `broken` of scenario `typos` does not parse",
            &format!("{file}:17:"),
            "scenario `typos` waives `no-such-rule`, which is no constraint of any list of the game",
            &format!("{file}:18:"),
        ],
    );
}
