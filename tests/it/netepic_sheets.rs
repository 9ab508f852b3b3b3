//! NetEpic Gold unit datasheets and printables: every shipped value parses,
//! prints in its canonical form and parses again to the same value; every
//! notation form reads, and a bad one says where; the glossary explains
//! exactly what the notation produces; a bad value fails the load naming
//! file, line, unit and field; the cards field their units; crib sheets
//! and rosters (as army cards) print as HTML (snapshots) and PDF (read
//! back); `muster explain` shows a unit and takes notation apart.

use super::common::muster;
use muster::catalogue::GameId;
use muster::notation::netepic as ne;
use muster::notation::ship::Stat;
use std::collections::BTreeSet;
use std::path::PathBuf;

const ROSTER: &str = "tests/fixtures/netepic/astartes-cards.txt";

fn out_dir() -> PathBuf {
    super::common::out_dir("netepic-sheets")
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

fn pdf_text(path: &std::path::Path) -> (usize, String) {
    let doc = lopdf::Document::load(path).expect("a PDF lopdf can read");
    let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
    (pages.len(), doc.extract_text(&pages).expect("text"))
}

#[test]
fn every_shipped_netepic_value_parses_prints_canonically_and_parses_again() {
    let report = crate::common::embedded();
    assert!(!report.has_errors(), "{:#?}", report.diagnostics);
    let units: Vec<_> = report
        .catalogue
        .ne_units
        .iter()
        .filter(|u| u.game == GameId::Netepic)
        .collect();
    // Every unit profile of the 14 catalogues, and the game system's
    // titans that the books' cards use.
    assert!(units.len() > 900, "{} units", units.len());
    let mut values = 0;
    for u in &units {
        let id = &u.data.id;
        let sheet = u.sheet().unwrap_or_else(|| panic!("{id} was not parsed"));
        assert_eq!(sheet.weapons.len(), u.data.weapons.len(), "{id}");
        assert_eq!(sheet.abilities.len(), u.data.abilities.len(), "{id}");
        // The file is written in canonical form: each value prints back as
        // it is written, and parses again to the same value.
        let mut again = |same: bool, written: Option<&String>, printed: String| {
            assert!(same, "{id}: `{printed}` does not parse back to the same value");
            if let Some(written) = written {
                assert_eq!(*written, printed, "{id}: not written in canonical form");
            }
            values += 1;
        };
        if let Some(v) = sheet.class.known() {
            again(
                ne::parse_classes(&v.to_string()).as_ref() == Ok(v),
                u.data.class.value(),
                v.to_string(),
            );
        }
        if let Some(v) = sheet.moves.known() {
            again(
                ne::parse_move(&v.to_string()) == Ok(*v),
                u.data.moves.value(),
                v.to_string(),
            );
        }
        if let Some(v) = sheet.save.known() {
            again(
                ne::parse_save(&v.to_string()) == Ok(*v),
                u.data.save.value(),
                v.to_string(),
            );
        }
        if let Some(v) = sheet.caf.known() {
            again(
                ne::parse_caf(&v.to_string()) == Ok(*v),
                u.data.caf.value(),
                v.to_string(),
            );
        }
        if let Some(v) = sheet.morale.as_ref().and_then(Stat::known) {
            again(
                ne::parse_morale(&v.to_string()) == Ok(*v),
                u.data.morale.as_ref().and_then(|m| m.value()),
                v.to_string(),
            );
        }
        for (w, written) in sheet.weapons.iter().zip(&u.data.weapons) {
            again(
                ne::parse_weapon(&w.to_string()).as_ref() == Ok(w),
                Some(written),
                w.to_string(),
            );
        }
        for (a, written) in sheet.abilities.iter().zip(&u.data.abilities) {
            again(
                ne::parse_ability(&a.to_string()) == Ok(*a),
                Some(written),
                a.to_string(),
            );
        }
    }
    assert!(values > 5000, "{values} values");
}

#[test]
fn every_notation_form_reads_and_a_bad_one_says_where() {
    // Unit classes and the pinning class of Appendix A.
    let classes = ne::parse_classes("Superheavy, Skimmer").unwrap();
    assert_eq!(classes.to_string(), "Superheavy, Skimmer");
    assert_eq!(classes.pinning_class(), Some(4));
    assert_eq!(
        ne::parse_classes("light artillery").unwrap().pinning_class(),
        Some(1)
    );
    assert_eq!(ne::parse_classes("Flyer").unwrap().pinning_class(), None);
    // Move, save, CAF, morale: each form and `-`.
    assert_eq!(ne::parse_move("25cm"), Ok(ne::Move::Cm(25)));
    assert_eq!(ne::parse_move("-"), Ok(ne::Move::None));
    assert_eq!(ne::parse_save("3+"), Ok(ne::Save::Armour(3)));
    assert_eq!(ne::parse_save("4+ fixed"), Ok(ne::Save::Fixed(4)));
    assert_eq!(
        ne::parse_save("5+ / 6+ fixed"),
        Ok(ne::Save::Both { armour: 5, fixed: 6 })
    );
    assert_eq!(ne::parse_save("-"), Ok(ne::Save::None));
    assert_eq!(ne::parse_caf("+14"), Ok(ne::Caf(14)));
    assert_eq!(ne::parse_caf("-3"), Ok(ne::Caf(-3)));
    assert_eq!(ne::parse_morale("2+"), Ok(ne::Morale::Roll(2)));
    assert_eq!(ne::parse_morale("-"), Ok(ne::Morale::None));
    // Weapons: range or template, dice or barrages, to-hit, TSM, abilities.
    let w = ne::parse_weapon("Siege Mortar: 50-150cm 6BP 4+ (-3)").unwrap();
    let p = w.profile.as_ref().unwrap();
    assert_eq!(p.range, Some(ne::Range::Span(50, 150)));
    assert_eq!(
        p.attacks,
        Some(ne::Attacks {
            count: Some(ne::Count::Fixed(6)),
            kind: ne::AttackKind::BarragePoints
        })
    );
    assert_eq!(
        (p.to_hit, p.tsm),
        (Some(ne::ToHit::Roll(4)), Some(ne::Tsm::Minus(3)))
    );
    let w = ne::parse_weapon("Flamer: LT 4+ (0)").unwrap();
    let p = w.profile.as_ref().unwrap();
    assert_eq!(
        (p.range, p.attacks, p.tsm),
        (Some(ne::Range::LargeTeardrop), None, Some(ne::Tsm::Zero))
    );
    let w = ne::parse_weapon("Conversion Beam Cannon: 100cm 2d 4+ (-D6) Penetrating +1, Turret").unwrap();
    let p = w.profile.as_ref().unwrap();
    assert_eq!(p.tsm, Some(ne::Tsm::MinusDie(6)));
    assert_eq!(
        p.abilities,
        [ne::WeaponAbility::Penetrating(1), ne::WeaponAbility::Turret]
    );
    let w = ne::parse_weapon("Earthshaker Cannon: 150cm 2SB (-2)").unwrap();
    assert_eq!(w.profile.unwrap().to_hit, None);
    assert_eq!(ne::parse_weapon("Kustom Shootas: missing").unwrap().profile, None);
    // Abilities, with and without a figure.
    assert_eq!(
        ne::parse_ability("Transport (2)").unwrap().to_string(),
        "Transport (2)"
    );
    assert_eq!(ne::parse_ability("hit & run").unwrap().to_string(), "Hit & Run");
    // Mistakes point at the character and suggest a spelling.
    let e = ne::parse_save("5+ fxd").unwrap_err();
    assert_eq!(e.column, 4, "{e}");
    let e = ne::parse_weapon("Bolters: 50cm 1d 5+ 0").unwrap_err();
    assert_eq!(e.column, 21, "{e}");
    assert!(e.expected.contains("target save modifier"), "{e}");
    let e = ne::parse_ability("Infiltraton").unwrap_err();
    assert_eq!(e.suggestion.as_deref(), Some("Infiltration"));
    assert!(ne::parse_caf("3").is_err());
    assert!(ne::parse_move("10").is_err());
    assert!(ne::parse_classes("Tank").is_err());
}

#[test]
fn the_netepic_glossary_explains_exactly_the_terms_the_notation_has() {
    let report = crate::common::embedded();
    let glossary = report
        .catalogue
        .glossary(GameId::Netepic)
        .expect("a NetEpic glossary");
    let notation: BTreeSet<&str> = ne::glossary_ids().into_iter().collect();
    let defined: BTreeSet<&str> = glossary.entries.iter().map(|e| e.id.as_str()).collect();
    let missing: Vec<_> = notation.difference(&defined).collect();
    let orphans: Vec<_> = defined.difference(&notation).collect();
    assert!(missing.is_empty(), "no glossary entry for {missing:?}");
    assert!(
        orphans.is_empty(),
        "entries the notation never produces: {orphans:?}"
    );
    for u in &report.catalogue.ne_units {
        for id in u.sheet().map(|s| s.glossary_ids()).unwrap_or_default() {
            assert!(notation.contains(id), "{}: {id}", u.data.id);
        }
    }
    for entry in &glossary.entries {
        assert!(entry.summary.ends_with('.'), "{}: one sentence", entry.id);
        assert!(!entry.summary.contains('\n'), "{}: one line", entry.id);
    }
}

#[test]
fn values_the_catalogue_lacks_are_missing_with_a_fault() {
    let report = crate::common::embedded();
    let unit = |id: &str| {
        report
            .catalogue
            .ne_unit(GameId::Netepic, id)
            .unwrap_or_else(|| panic!("no {id}"))
    };
    // A titan's save is on its hit-location template, not a figure.
    let titan = unit("titan-legions-warlord-titan");
    assert_eq!(titan.sheet().expect("parsed").save, Stat::Missing);
    assert!(
        titan.data.faults.iter().any(|f| f.starts_with("save:")),
        "{:?}",
        titan.data.faults
    );
    // A unit with every value: no fault.
    let tactical = unit("adeptus-astartes-tactical-squad");
    let sheet = tactical.sheet().expect("parsed");
    assert_eq!(sheet.save, Stat::Known(ne::Save::Armour(5)));
    assert!(tactical.data.faults.is_empty());
    // Every missing value of every unit has a fault saying why.
    for u in &report.catalogue.ne_units {
        let s = u.sheet().expect("parsed");
        let lacks = s.class == Stat::Missing
            || s.moves == Stat::Missing
            || s.save == Stat::Missing
            || s.caf == Stat::Missing
            || s.morale == Some(Stat::Missing)
            || s.weapons.iter().any(|w| w.profile.is_none());
        assert!(
            !lacks || !u.data.faults.is_empty(),
            "{}: missing without a fault",
            u.data.id
        );
    }
}

#[test]
fn netepic_cards_field_their_units() {
    let report = crate::common::embedded();
    let list = report
        .catalogue
        .lists
        .iter()
        .find(|l| l.id == "netepic-adeptus-astartes")
        .expect("the Space Marine list");
    let card = list
        .formations
        .iter()
        .find(|f| f.id == "tactical-company")
        .expect("a Tactical Company");
    let units: Vec<(String, u32)> = card
        .units
        .iter()
        .map(|&(u, n)| (list.units[u].clone(), n))
        .collect();
    // A company HQ with its command Rhino, three detachments of six
    // squads and three Rhinos each.
    assert_eq!(
        units,
        [
            ("adeptus-astartes-company-hq-squad".to_string(), 1),
            ("adeptus-astartes-rhino".to_string(), 10),
            ("adeptus-astartes-tactical-squad".to_string(), 18),
        ]
    );
    // Most cards of every book hold units (fortifications are bought from
    // the core rules' table and have no unit profile).
    for list in report
        .catalogue
        .lists
        .iter()
        .filter(|l| l.game == GameId::Netepic)
    {
        let cards: Vec<_> = list
            .formations
            .iter()
            .filter(|f| !f.tags.contains("fortification"))
            .collect();
        let fielding = cards.iter().filter(|f| !f.units.is_empty()).count();
        assert!(
            fielding * 10 >= cards.len() * 8,
            "{}: {fielding} of {} cards hold units",
            list.id,
            cards.len()
        );
    }
}

#[test]
fn a_bad_value_fails_the_load_naming_file_line_unit_and_field() {
    let dir = out_dir().join("bad");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("bad.yaml"),
        "game: netepic\nid: bad-units\nname: Bad\nsource: [{ document: test }]\nne_units:\n  - id: bad-squad\n    name: Bad Squad\n    class: Infantry\n    move: 10cm\n    save: 5+ fxd\n    caf: \"+2\"\n    morale: 2+\n    weapons:\n      - \"Bolters: 50cm 1d 5+ 0\"\n",
    )
    .unwrap();
    let run = muster(&["lists", "--check", "--lists", &dir.display().to_string()]);
    assert_eq!(run.status, 1, "{}", run.stdout);
    let file = dir.join("bad.yaml").display().to_string();
    assert_contains(
        &run.stdout,
        &[
            "unit datasheet `bad-squad`, save: `5+ fxd` is not NetEpic notation at character 4",
            &format!("{file}:10:"),
            "unit datasheet `bad-squad`, weapon 1: `Bolters: 50cm 1d 5+ 0` is not NetEpic notation at character 21",
            &format!("{file}:14:"),
        ],
    );
}

#[test]
fn explain_shows_a_netepic_unit_and_takes_notation_apart() {
    let run = muster(&["explain", "Land Raider", "--army", "NetEpic Space Marines"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    insta::assert_snapshot!("explain_unit", run.stdout);
    let run = muster(&[
        "explain",
        "save 4+ / 6+ fixed, CAF -1, move 10cm, morale -, Hellion Missile: 75cm 2d 3+ (-4) One Shot, Penetrating +2, Point Defence (3), Knight",
        "--army",
        "netepic-imperial-guard",
    ]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    insta::assert_snapshot!("explain_notation", run.stdout);
    let run = muster(&["explain", "Tactical Sqad", "--army", "netepic-adeptus-astartes"]);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("has no unit called"), "{}", run.stderr);
    assert!(
        run.stderr.contains("did you mean `Tactical Squad`"),
        "{}",
        run.stderr
    );
}

#[test]
fn weapons_read_by_shape_explain_and_print() {
    // Several profiles in one, a multiplier in the name, D3 hits.
    let run = muster(&["explain", "Scorpion", "--army", "netepic-eldar"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    insta::assert_snapshot!("explain_weapon_shapes_unit", run.stdout);
    // Every new form of the notation, taken apart.
    let run = muster(&[
        "explain",
        "Harpoon Missile: LoS auto (-2) Special, Doom Mortars: 2x 75cm 4SB 5+ (-1), Goliath Mega-Cannon: 50-250cm D6+4BP (-3), Lightning Claw: CC Special, Havoc Missiles: 75cm 8BP 3+ (-1) 6 Shots per Game",
        "--army",
        "netepic-chaos",
    ]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    insta::assert_snapshot!("explain_weapon_shapes_notation", run.stdout);
}

#[test]
fn a_netepic_crib_sheet_of_a_roster_as_html() {
    let run = muster(&["sheet", "--roster", ROSTER]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    insta::assert_snapshot!("crib_sheet_html", run.stdout);
}

/// Every piece of text the PDF draws, with its page and where it starts:
/// (page, x, y, text), as the content streams place it (each cell line is
/// drawn as its own piece).
fn placed_texts(path: &std::path::Path) -> Vec<(u32, f32, f32, String)> {
    let doc = lopdf::Document::load(path).expect("a PDF lopdf can read");
    let number = |o: &lopdf::Object| {
        o.as_float()
            .or_else(|_| o.as_i64().map(|i| i as f32))
            .expect("a number")
    };
    let mut out = Vec::new();
    for (page, id) in doc.get_pages() {
        let fonts = doc.get_page_fonts(id).expect("the page's fonts");
        let content = lopdf::content::Content::decode(&doc.get_page_content(id)).expect("decodable content");
        let (mut font, mut at) = (None, (0.0, 0.0));
        for op in &content.operations {
            match op.operator.as_str() {
                "Tf" => font = op.operands[0].as_name().ok().and_then(|n| fonts.get(n)),
                "Td" => at = (number(&op.operands[0]), number(&op.operands[1])),
                "Tj" => {
                    let encoding = font
                        .expect("a font set")
                        .get_font_encoding(&doc)
                        .expect("encoding");
                    let bytes = op.operands[0].as_str().expect("a string");
                    let text = lopdf::Document::decode_text(&encoding, bytes).expect("text");
                    out.push((page, at.0, at.1, text));
                }
                _ => {}
            }
        }
    }
    out
}

/// The left edges (to a tenth of a point) of the pieces of text that are
/// exactly one of `texts`, one per text found.
fn lefts(placed: &[(u32, f32, f32, String)], texts: &[&str]) -> Vec<(String, i64)> {
    texts
        .iter()
        .filter_map(|t| {
            (placed.iter().find(|(_, _, _, p)| p == t))
                .map(|(_, x, _, _)| (t.to_string(), (x * 10.0).round() as i64))
        })
        .collect()
}

#[test]
fn a_netepic_crib_sheet_is_one_grid_whose_columns_line_up_across_cards_in_pdf() {
    // Each card was a table of its own, its characteristics a line of
    // text: a player could not read across the cards.
    let path = out_dir().join("aligned.pdf");
    let run = muster(&["sheet", "--roster", ROSTER, "--pdf", &path.display().to_string()]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let placed = placed_texts(&path);
    for column in [
        // CAF: Company HQ, Tactical Squad, Devastator, Warlord Titan, Mole Mortar.
        &["+3", "+2", "+1", "+14", "-3"][..],
        // Move: Land Raider, Warlord Titan, Mole Mortar.
        &["20cm", "15cm", "5cm"][..],
        // Weapons, and their ranges.
        &[
            "Bolt Pistols",
            "Bolters",
            "Heavy Weapons",
            "Lascannons",
            "Chain Fist (arm)",
        ][..],
        &["50cm", "75cm", "100cm", "LoS"][..],
        // Attack dice, to-hit rolls and TSMs.
        &["1d", "2d", "4d"][..],
        &["(0)", "(-1)", "(-2)", "(-4)"][..],
    ] {
        let found = lefts(&placed, column);
        assert_eq!(
            found.len(),
            column.len(),
            "{column:?} not all drawn alone: {found:?}"
        );
        assert!(
            found.windows(2).all(|w| w[0].1 == w[1].1),
            "not one column: {found:?}"
        );
    }
    // Each card keeps what it said.
    let text: String = placed
        .iter()
        .map(|(_, _, _, t)| t.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    assert_contains(
        &text,
        &[
            "Warlord Titan",
            "not in the sources",
            "Penetrating +3",
            "Class: Titan · Pinning class: 5",
            "Source fault: weapon ‘Chain Fist’: no shooting profile",
            "Army book rules: Ignores Cover, Ignores Shields",
        ],
    );
}

#[test]
fn a_netepic_crib_sheet_is_one_grid_in_html_with_widths_set_once() {
    let run = muster(&["sheet", "netepic-adeptus-astartes"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let html = &run.stdout;
    assert_eq!(html.matches("<table").count(), 1, "one table for every card");
    assert!(!html.contains("<section class=\"unit\">"), "a card of its own");
    assert_eq!(html.matches("<colgroup>").count(), 1);
    let cols = html.matches("<col style=\"width:").count();
    let heads = html
        .split_once("<thead>")
        .and_then(|(_, rest)| rest.split_once("</thead>"))
        .map_or(0, |(head, _)| head.matches("<th>").count());
    assert_eq!(cols, heads, "a width for each column");
    let total: f32 = html
        .split("<col style=\"width:")
        .skip(1)
        .filter_map(|c| c.split_once('%').and_then(|(w, _)| w.parse::<f32>().ok()))
        .sum();
    assert!((total - 100.0).abs() < 0.5, "the widths add up to {total}%");
    let cards = html.matches("<tbody class=\"unit\">").count();
    assert!(cards > 100, "{cards} cards");
}

#[test]
fn a_netepic_roster_prints_as_army_cards_in_html() {
    let run = muster(&["roster", ROSTER, "--with-sheet", "--html", "-"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    // Cards, not the Epic formation table.
    assert!(!run.stdout.contains("<th>Initiative</th>"));
    insta::assert_snapshot!("roster_html", run.stdout);
}

#[test]
fn a_netepic_roster_and_its_crib_sheet_read_back_from_pdf() {
    let path = out_dir().join("roster.pdf");
    let run = muster(&[
        "roster",
        ROSTER,
        "--with-sheet",
        "--pdf",
        &path.display().to_string(),
    ]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let (pages, text) = pdf_text(&path);
    assert!(pages >= 2, "{pages} pages");
    assert_contains(
        &text,
        &[
            "Army cards",
            "Tactical Company",
            "Company card",
            "750 pts · break point 15 · victory points 8",
            "↳ Devastator Detachment",
            "Support card",
            "↳ Warlord Titan",
            "Special card",
            "Options: Volcano Cannon, Vortex Missile, Gatling Blaster, Chain Fist",
            "Units: Company HQ Squad, 10 Rhinos, 18 Tactical Squads",
            "Army: break points 38 · victory points 33 · victory points to win 40 (for 3000 points)",
            "Imre Tóth",
            // A titan has no break point (core rules 6.1): not "0".
            "850 pts · break point none (broken when destroyed) · victory points 9",
            // The crib sheet.
            "Tactical Squad",
            "Class: Infantry · Pinning class: 1",
            "Bolters",
            "Point Defence (1), Transport (2)",
            "Target save modifier",
        ],
    );
    let path = out_dir().join("orks.pdf");
    let run = muster(&["sheet", "netepic-orks", "--pdf", &path.display().to_string()]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let (pages, text) = pdf_text(&path);
    assert!(pages > 3, "{pages} pages");
    assert_contains(
        &text,
        &[
            "NetEpic Orks: crib sheet",
            "Nobz Squad",
            "Lotsa Big Shootas",
            "Close assault factor",
        ],
    );
}

/// A variant's army rules (a Chapter's) print on a roster only when a
/// force fields that variant's cards; the book's own rules always do.
#[test]
fn a_roster_prints_the_army_rules_of_the_variants_it_fields() {
    let plain = "tests/rosters/netepic/netepic-adeptus-astartes/legal-3000.ok.txt";
    let blood = "tests/rosters/netepic/netepic-adeptus-astartes/book-blood-angels-death-company.ok.txt";
    for (roster, fielded) in [(plain, false), (blood, true)] {
        let html = muster(&["roster", roster, "--html", "-"]);
        assert_eq!(html.status, 0, "{}", html.stderr);
        let stem = std::path::Path::new(roster)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("roster");
        let path = out_dir().join(format!("{stem}.pdf"));
        let pdf = muster(&["roster", roster, "--pdf", &path.display().to_string()]);
        assert_eq!(pdf.status, 0, "{}", pdf.stderr);
        let (_, pdf) = pdf_text(&path);
        for text in [squeeze(&html.stdout), squeeze(&pdf)] {
            assert_eq!(
                text.contains(&squeeze("Blood Angels - Black Rage")),
                fielded,
                "{roster}"
            );
            assert_eq!(
                text.contains(&squeeze("Psychic Power : Quickening")),
                fielded,
                "{roster}"
            );
            for other in [
                "Black Templars - Zeal",
                "Iron Hands - Pride",
                "Raven Guard - Pin-Point Accuracy",
            ] {
                assert!(!text.contains(&squeeze(other)), "{roster}: {other}");
            }
        }
    }
}

/// A titan card has no break point: the roster says it counts when
/// destroyed, where another card shows its number (HTML and terminal).
#[test]
fn a_titan_card_has_no_break_point_of_zero() {
    let roster = "tests/rosters/netepic/netepic-adeptus-astartes/legal-3000.ok.txt";
    let html = muster(&["roster", roster, "--html", "-"]);
    assert_eq!(html.status, 0, "{}", html.stderr);
    assert!(
        html.stdout
            .contains("850 pts · break point none (broken when destroyed) · victory points 9"),
        "{}",
        html.stdout
    );
    assert!(
        html.stdout.contains("350 pts · break point 5 · victory points 4"),
        "{}",
        html.stdout
    );
    assert!(!html.stdout.contains("break point 0 "), "{}", html.stdout);
    let text = muster(&["check", roster]);
    let titan = text
        .stdout
        .lines()
        .find(|l| l.contains("Warlord Titan") && l.contains("850"))
        .unwrap_or_default();
    assert!(titan.contains("850    -    9"), "{titan}");
}

/// Issue 34: the converter gave plain units the abilities of their command
/// variants (every Imperial Guard Chimera was a Command unit, because the
/// catalogue's `Command Chimera` shows the Chimera's profile). A plain unit
/// carries Command or HQ only where every entry of the catalogue showing it
/// links them; a unit named as a command unit keeps them.
#[test]
fn plain_units_do_not_carry_their_command_variants_abilities() {
    let report = crate::common::embedded();
    let units: Vec<_> = report
        .catalogue
        .ne_units
        .iter()
        .filter(|u| u.game == GameId::Netepic)
        .collect();
    let has = |u: &&&muster::catalogue::NeUnit, ability: &str| u.data.abilities.iter().any(|a| a == ability);
    // Each shown plain (`Chimeras`) and as a command variant (`Command
    // Chimera`, `Mechanized Tactical Company HQ`) by its book.
    for plain in [
        "imperial-guard-chimera",
        "imperial-guard-rhino",
        "imperial-guard-gorgon",
        "imperial-guard-tactical-squad",
        "adeptus-mechanicus-chimera",
        "adeptus-mechanicus-knight-errant",
        "adeptus-mechanicus-knight-paladin",
        "adeptus-astartes-land-raider-crusader",
        "adeptus-astartes-white-scars-scout-bike-squad",
    ] {
        let u = units.iter().find(|u| u.data.id == plain).expect(plain);
        assert!(
            !has(&u, "Command") && !has(&u, "HQ"),
            "{plain}: {:?}",
            u.data.abilities
        );
    }
    // A unit named as a command unit keeps what its entries link.
    for command in [
        "adeptus-astartes-command-land-raider",
        "chaos-command-chaos-land-raider",
    ] {
        if let Some(u) = units.iter().find(|u| u.data.id == command) {
            assert!(has(&u, "Command"), "{command}: {:?}", u.data.abilities);
        }
    }
    // Every Nobz entry of the Ork book links Command, Elite and HQ: kept.
    let nobz = units
        .iter()
        .find(|u| u.data.id == "orks-nobz-squad")
        .expect("Nobz");
    assert!(
        has(&nobz, "Command") && has(&nobz, "HQ"),
        "{:?}",
        nobz.data.abilities
    );
}
