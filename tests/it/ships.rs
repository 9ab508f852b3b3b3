//! Battlefleet Gothic ship datasheets: every shipped value parses and
//! round-trips, the BFG glossary explains exactly what the ship notation
//! produces, and fleets print (crib sheets and rosters as HTML snapshots,
//! PDFs read back with lopdf). The Epic outputs are covered by
//! `tests/print.rs`, whose snapshots must not change.

use super::common::{Run, assert_widths_set, muster, ship_tables};
use muster::catalogue::GameId;
use muster::notation::ship;
use std::collections::BTreeSet;
use std::path::PathBuf;

/// 2026-11-22, so the printed date is stable.
const FLEET: &str = "tests/fixtures/fleet.txt";

fn out_dir() -> PathBuf {
    super::common::out_dir("ships")
}

/// Runs muster with `--pdf OUT` and returns the text of every page.
fn pdf(args: &[&str], name: &str) -> (Run, Vec<String>) {
    let path = out_dir().join(name);
    let path_text = path.display().to_string();
    let mut full: Vec<&str> = args.to_vec();
    full.extend(["--pdf", &path_text]);
    let run = muster(&full);
    assert!(path.exists(), "no PDF written: {}", run.stderr);
    let doc = lopdf::Document::load(&path).expect("a PDF lopdf can read");
    let pages = doc
        .get_pages()
        .keys()
        .map(|&p| doc.extract_text(&[p]).expect("text of the page"))
        .collect();
    (run, pages)
}

/// Text extraction may break lines anywhere; compare without white space.
fn squeeze(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

fn assert_contains(text: &str, wanted: &[&str]) {
    let squeezed = squeeze(text);
    for w in wanted {
        assert!(squeezed.contains(&squeeze(w)), "`{w}` is missing from:\n{text}");
    }
}

fn assert_lacks(text: &str, unwanted: &[&str]) {
    let squeezed = squeeze(text);
    for w in unwanted {
        assert!(!squeezed.contains(&squeeze(w)), "`{w}` should not be in:\n{text}");
    }
}

#[test]
fn every_shipped_ship_datasheet_parses_and_round_trips() {
    let report = crate::common::embedded();
    assert!(!report.has_errors(), "{:#?}", report.diagnostics);
    let ships = &report.catalogue.ships;
    assert!(ships.len() >= 40, "{} ships", ships.len());
    let mut values = 0;
    for s in ships {
        let sheet = s
            .sheet()
            .unwrap_or_else(|| panic!("{} was not parsed", s.data.id));
        assert_eq!(sheet.weapons.len(), s.data.weapons.len(), "{}", s.data.id);
        let again = |text: String, parse: &dyn Fn(&str) -> bool| {
            assert!(parse(&text), "{}: `{text}` does not parse back", s.data.id);
        };
        if let Some(h) = sheet.hull.known() {
            again(h.to_string(), &|t| ship::parse_hull(t) == Ok(*h));
            values += 1;
        }
        if let Some(v) = sheet.speed.known() {
            again(v.to_string(), &|t| ship::parse_ship_speed(t) == Ok(*v));
            values += 1;
        }
        if let Some(v) = sheet.turns.known() {
            again(v.to_string(), &|t| ship::parse_turns(t) == Ok(*v));
            values += 1;
        }
        for v in [sheet.shields.known(), sheet.turrets.known()]
            .into_iter()
            .flatten()
        {
            again(v.to_string(), &|t| ship::parse_count(t) == Ok(*v));
            values += 1;
        }
        if let Some(v) = sheet.armour.known() {
            again(v.to_string(), &|t| ship::parse_armour(t) == Ok(*v));
            values += 1;
        }
        for w in &sheet.weapons {
            again(w.name.to_string(), &|t| {
                ship::parse_ship_weapon_name(t) == Ok(w.name)
            });
            if let Some(r) = w.range.as_ref().and_then(|r| r.known()) {
                again(r.to_string(), &|t| ship::parse_ship_range(t) == Ok(*r));
                values += 1;
            }
            if let Some(v) = w.strength.known() {
                again(v.to_string(), &|t| ship::parse_strength(t) == Ok(*v));
                values += 1;
            }
            if let Some(a) = w.arc.as_ref().and_then(|a| a.known()) {
                again(a.to_string(), &|t| ship::parse_arcs(t).as_ref() == Ok(a));
                values += 1;
            }
            for c in &w.craft {
                again(c.to_string(), &|t| ship::parse_craft(t) == Ok(*c));
                values += 1;
            }
            values += 1;
        }
    }
    assert!(values > 500, "{values} values");
}

#[test]
fn the_bfg_glossary_explains_exactly_the_terms_the_ship_notation_has() {
    let report = crate::common::embedded();
    let glossary = report
        .catalogue
        .glossary(GameId::Bfg)
        .expect("a Battlefleet Gothic glossary");
    let notation: BTreeSet<&str> = ship::GLOSSARY_IDS.iter().copied().collect();
    let defined: BTreeSet<&str> = glossary.entries.iter().map(|e| e.id.as_str()).collect();
    let missing: Vec<_> = notation.difference(&defined).collect();
    let orphans: Vec<_> = defined.difference(&notation).collect();
    assert!(missing.is_empty(), "no glossary entry for {missing:?}");
    assert!(
        orphans.is_empty(),
        "entries the notation never produces: {orphans:?}"
    );
    // Every id a shipped ship uses is one the notation declares.
    for s in &report.catalogue.ships {
        for id in s.sheet().map(|s| s.glossary_ids()).unwrap_or_default() {
            assert!(notation.contains(id), "{}: {id}", s.data.id);
        }
    }
    for entry in &glossary.entries {
        assert!(
            !entry.summary.is_empty() && !entry.name.is_empty(),
            "{}",
            entry.id
        );
        assert!(entry.summary.ends_with('.'), "{}: one sentence", entry.id);
        assert!(!entry.summary.contains('\n'), "{}: one line", entry.id);
    }
}

#[test]
fn a_ship_value_in_unknown_notation_fails_the_load_naming_file_ship_field_and_position() {
    let dir = out_dir().join("bad-ships");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("bad.yaml"),
        "game: bfg\nid: bad\nname: Bad\nsource: [{ document: test }]\nships:\n  - id: bad-cruiser\n    name: Bad Cruiser\n    type: Cruiser/8\n    speed: 20cm\n    turns: 45°\n    shields: \"2\"\n    armour: F6+/5\n    turrets: \"2\"\n    weapons:\n      - { name: Port wpns battery, range: 30cm, firepower: \"6\", arc: L/F/X }\n",
    )
    .unwrap();
    let run = muster(&["lists", "--check", "--lists", &dir.display().to_string()]);
    assert_eq!(run.status, 1, "{}", run.stdout);
    let file = dir.join("bad.yaml").display().to_string();
    assert_contains(
        &run.stdout,
        &[
            "ship datasheet `bad-cruiser`, armour: `F6+/5` is not ship notation at character 5: expected a score such as 5+",
            &format!("{file}:12:"),
            "ship datasheet `bad-cruiser`, weapon 1 (Port wpns battery) arc: `L/F/X` is not ship notation at character 5: expected a fire arc",
            &format!("{file}:15:"),
        ],
    );
}

#[test]
fn missing_values_print_as_not_in_the_sources_with_the_faults() {
    let dir = out_dir().join("missing-ships");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("gappy.yaml"),
        "game: bfg\nid: gappy\nname: Gappy\nsource: [{ document: test }]\nships:\n  - id: gappy-cruiser\n    name: Gappy Cruiser\n    type: Cruiser/8\n    speed: missing\n    turns: 45°\n    shields: \"2\"\n    armour: 5+\n    turrets: \"2\"\n    weapons:\n      - { name: Prow torpedoes, range: missing, firepower: \"6\", arc: Front }\n    faults: [\"The speed and the torpedo speed are lost in the source.\"]\n",
    )
    .unwrap();
    let run = muster(&["explain", "Gappy Cruiser", "--lists", &dir.display().to_string()]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_contains(
        &run.stdout,
        &[
            "Speed not in the sources",
            "Prow torpedoes  not in the sources  6",
            "Source fault: The speed and the torpedo speed are lost in the source.",
        ],
    );
    // A shipped ship whose weapon rows the source scrambled.
    let run = muster(&["explain", "Hecate"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_contains(&run.stdout, &["Weapons: not in the sources", "Source fault:"]);
}

#[test]
fn explain_takes_ship_notation_apart() {
    let run = muster(&[
        "explain",
        "F6+/5+, L/F/R, Grand Cruiser/10, 90°, (Sharks (30cm)), D6+2",
    ]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    insta::assert_snapshot!(run.stdout);
    let run = muster(&["explain", "Lunar", "--army", "armageddon-sector"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_contains(
        &run.stdout,
        &[
            "Lunar (Armageddon Sector): Cruiser/8",
            "Prow torpedoes",
            "(30cm)",
            "Stbd (Starboard):",
        ],
    );
    let run = muster(&["explain", "F6+/5"]);
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("at character 5: expected a score such as 5+"),
        "{}",
        run.stderr
    );
}

#[test]
fn fleet_crib_sheet_as_html() {
    let run = muster(&["sheet", "--roster", FLEET]);
    // The fixture breaks the battleship ratio: the sheet prints, and the
    // status is that of `muster check` (issue 19).
    assert_eq!(run.status, 1, "{}", run.stderr);
    assert!(run.stderr.contains("NOT legal (1 error)"), "{}", run.stderr);
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn a_fleet_crib_sheets_ship_tables_share_one_set_of_column_widths_in_html() {
    // Each ship's table sized its own columns to what it held, so the
    // columns were ragged from ship to ship (the PDF was aligned).
    for args in [
        &["sheet", "armageddon-sector"][..],
        &["sheet", "--roster", FLEET][..],
        &["sheet", "--roster", "examples/armageddon-sector-1500.txt"][..],
    ] {
        let run = muster(args);
        let html = &run.stdout;
        let tables = ship_tables(html);
        assert!(tables.len() >= 3, "{args:?}: {} ship tables", tables.len());
        let (first, heads) = &tables[0];
        assert_widths_set(html, first, *heads);
        // The PDF's widths (`ships::WEAPON_WIDTHS`).
        assert_eq!(first, &["30.0%", "38.0%", "14.0%", "18.0%"], "{args:?}");
        for (i, (widths, _)) in tables.iter().enumerate() {
            assert_eq!(widths, first, "{args:?}: ship table {i}");
        }
    }
}

#[test]
fn fleet_roster_as_html() {
    let run = muster(&["roster", FLEET]);
    assert_eq!(run.status, 1, "{}", run.stderr);
    insta::assert_snapshot!(run.stdout);
    assert_lacks(
        &run.stdout,
        &[
            "Strategy rating",
            "Initiative",
            "Break Their Spirit",
            "Formations",
        ],
    );
}

#[test]
fn a_fleet_crib_sheet_pdf_names_every_ship_and_expands_its_terms() {
    let (run, pages) = pdf(&["sheet", "armageddon-sector"], "armageddon-sector.pdf");
    assert_eq!(run.status, 0, "{}", run.stderr);
    let text = pages.concat();
    assert_contains(
        &text,
        &[
            "Armageddon Sector: crib sheet",
            "every ship of the list",
            "Emperor",
            "Battleship/12",
            "Lunar",
            "Cruiser/8",
            "Firestorm",
            "Escort/1",
            "Turns 45°",
            "Armour F6+/5+",
            "Furies (30cm), Starhawks (20cm), Sharks (30cm, paid option)",
            "30-150cm",
            "L/F/R",
            "Source fault:",
            // The glossary expands what the cards abbreviate.
            "Abbreviations and rules used",
            "Stbd",
            "(Starboard):",
            "wpns battery",
            "(Weapons battery):",
            "Ordnance speed",
            "(Front armour):",
            "Nova cannon",
            "Thunderhawks",
        ],
    );
}

#[test]
fn a_fleet_roster_pdf_lists_ships_squadrons_and_the_attack_rating() {
    let (run, pages) = pdf(&["roster", FLEET, "--with-sheet"], "fleet.pdf");
    assert_eq!(run.status, 1, "{}", run.stderr);
    let first = &pages[0];
    assert_contains(
        first,
        &[
            "Armageddon Sector roster",
            "Attack rating 2",
            "Emperor-class battleship",
            "Admiral, Shark assault boats",
            "470",
            "Lunar-class cruiser",
            "Nova Cannon",
            "Escort squadron",
            "↳ Firestorm-class frigate",
            "NOT legal: 1 error",
        ],
    );
    assert_lacks(
        first,
        &["Strategy rating", "Init.", "Break Their Spirit", "Formations"],
    );
    let rest = pages[1..].concat();
    assert_contains(
        &rest,
        &[
            "the ships of this roster",
            "Emperor",
            "Lunar",
            "Firestorm",
            "Prow lance battery",
        ],
    );
}

proptest::proptest! {
    /// Any text to every ship parser: an error or a value, never a panic,
    /// and a value always prints back to itself.
    #[test]
    fn ship_parsers_never_panic(text in "\\PC{0,24}") {
        let _ = ship::parse_hull(&text);
        let _ = ship::parse_ship_speed(&text);
        let _ = ship::parse_turns(&text);
        let _ = ship::parse_count(&text);
        if let Ok(a) = ship::parse_armour(&text) {
            proptest::prop_assert_eq!(ship::parse_armour(&a.to_string()), Ok(a));
        }
        let _ = ship::parse_ship_range(&text);
        if let Ok(s) = ship::parse_strength(&text) {
            proptest::prop_assert_eq!(ship::parse_strength(&s.to_string()), Ok(s));
        }
        let _ = ship::parse_arcs(&text);
        let _ = ship::parse_craft(&text);
        let _ = ship::parse_ship_weapon_name(&text);
        let _ = ship::parse_ship_terms(&text);
    }

    /// Text built from the notation's own pieces parses or fails cleanly.
    #[test]
    fn ship_terms_from_pieces_never_panic(parts in proptest::collection::vec(
        proptest::sample::select(vec![
            "F", "6+", "/", "5+", "(", ")", "S", "R", "L", "Left", "Cruiser", "/8", "45", "°",
            "cm", "30", "-", "D6", "+2", "Furies", "Sharks", " ", ",", "Prow", "wpns battery",
        ]),
        0..12,
    )) {
        let text: String = parts.concat();
        let _ = ship::parse_ship_terms(&text);
        let _ = ship::parse_armour(&text);
        let _ = ship::parse_craft(&text);
    }
}

/// A fleet's attack rating follows what it holds where its list says so
/// (`attack_rating_when`): a fortress-monastery lowers a Crusade fleet's
/// to 1, Prince Yriel raises an Iyanden fleet's to 4.
#[test]
fn the_attack_rating_follows_the_fleet() {
    let report = crate::common::embedded();
    let rating = |case: &str| {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/rosters/bfg")
            .join(case);
        let text = std::fs::read_to_string(&path).unwrap();
        let checked = muster::check::check_text(&report.catalogue, case, &text);
        assert!(checked.legal(), "{case} is not legal");
        checked.army.and_then(|a| a.attack_rating)
    };
    assert_eq!(rating("crusade-fleet/legal-1500.txt"), Some(3));
    assert_eq!(
        rating("crusade-fleet/fortress-monastery-2000-points.ok.txt"),
        Some(1)
    );
    assert_eq!(rating("iyanden-fleet/legal-1500.ok.txt"), Some(3));
    assert_eq!(rating("iyanden-fleet/reroll-allowance-yriel.ok.txt"), Some(4));
}

/// Issue 19: a roster's crib sheet printed a Lunar that bought a Nova
/// Cannon as if it had not. The card now says what the roster bought for
/// that ship and what it changes, in the HTML and the PDF; a list's crib
/// sheet, which fields nothing, says nothing of the kind.
#[test]
fn a_rosters_crib_sheet_shows_the_refits_each_ship_took() {
    let run = muster(&["sheet", "--roster", FLEET]);
    let lunar = run
        .stdout
        .split("<section class=\"unit ship\">")
        .find(|card| card.contains("Lunar"))
        .unwrap_or_else(|| panic!("no Lunar card:\n{}", run.stdout));
    assert!(
        lunar.contains("<b>As fielded:</b> Nova Cannon: Replaces the prow torpedoes"),
        "{lunar}"
    );
    let emperor = run
        .stdout
        .split("<section class=\"unit ship\">")
        .find(|card| card.contains("Emperor"))
        .unwrap_or_else(|| panic!("no Emperor card:\n{}", run.stdout));
    assert!(emperor.contains("Shark assault boats"), "{emperor}");
    assert!(!emperor.contains("Nova Cannon"), "{emperor}");

    let (_, pages) = pdf(&["sheet", "--roster", FLEET], "fielded.pdf");
    assert_contains(&pages.join("\n"), &["As fielded: Nova Cannon"]);

    let list = muster(&["sheet", "armageddon-sector"]);
    assert!(
        !list.stdout.contains("As fielded"),
        "a list's sheet fields nothing"
    );
}

/// Issue 34: the Dominion list has no Imperial Navy ship, so a Space Marine
/// Captain (25 points, for Navy battleships, grand cruisers and
/// battlecruisers only) belongs nowhere in it: not offered, not explained
/// among the army's rules; only the not-checked note keeps his cost.
#[test]
fn the_dominion_fleet_offers_no_space_marine_captain() {
    let options = muster(&["options", "dominion-fleet"]);
    assert_eq!(options.status, 0, "{}", options.stderr);
    let mentions: Vec<&str> = options.stdout.lines().filter(|l| l.contains("Captain")).collect();
    assert_eq!(mentions.len(), 1, "{mentions:#?}");
    assert!(
        mentions[0].contains("not checked") || mentions[0].contains("imperial-navy-vessels"),
        "{mentions:#?}"
    );
    let sheet = muster(&["sheet", "dominion-fleet"]);
    assert_eq!(sheet.status, 0, "{}", sheet.stderr);
    assert!(
        !sheet.stdout.contains("Captain"),
        "the crib sheet explains a Captain no roster can take"
    );
    let starter = muster(&["new", "dominion-fleet"]);
    assert!(!starter.stdout.contains("Captain"), "{}", starter.stdout);
}
