//! Space Fleet ship datasheets: every shipped value parses, prints in its
//! canonical form and parses again to the same value; the glossary explains
//! exactly what the notation produces; a bad value fails the load naming
//! file, line, ship and field; the fleets print (HTML and PDF) and
//! `muster explain` shows a ship.

use super::common::muster;
use muster::catalogue::{self, GameId};
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
    let report = catalogue::load_embedded();
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
    let report = catalogue::load_embedded();
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
    let report = catalogue::load_embedded();
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
    let report = catalogue::load_embedded();
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
