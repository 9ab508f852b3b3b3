//! NetEpic Gold construction rules beyond the card limits: titans bought
//! with their weapons (rounding and victory points), fortifications from the
//! purchase table, the army's victory facts, and allied forces as the
//! roster, the terminal and the JSON output show them. The rules' broken
//! and satisfied cases are roster files under `tests/rosters/netepic/`.

use muster::catalogue::Catalogue;
use muster::check::{ArmySummary, Checked, GameFacts, VictorySummary, check_text};
use muster::report::json::CheckOutput;

/// The break points and victory points of an army's summary.
fn victory(army: &ArmySummary) -> Option<VictorySummary> {
    match &army.game_facts {
        GameFacts::Cards(v) => Some(*v),
        GameFacts::Heresy(_) | GameFacts::None => None,
    }
}

fn catalogue() -> &'static Catalogue {
    let report = crate::common::embedded();
    assert!(!report.has_errors(), "{:#?}", report.diagnostics);
    &report.catalogue
}

fn check(text: &str) -> Checked<'static> {
    check_text(catalogue(), "roster.txt", text)
}

fn errors(c: &Checked<'_>) -> Vec<String> {
    c.diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("{} {}", d.code.as_str(), d.message))
        .collect()
}

#[test]
fn a_titan_is_rounded_up_to_50_points_and_worth_one_vp_per_100() {
    // Core rules 6.1's example: a Warlord with a Volcano Cannon, a Vortex
    // Missile, a Gatling Blaster and a Chain Fist. At the catalogue's prices
    // the hull and weapons come to 825, rounded up to 850: 9 victory points.
    let c = check(
        "Army: NetEpic Adeptus Astartes\nPoints: 3000\n\nTactical Company\n  Warlord Titan: Volcano Cannon, Vortex Missile, Gatling Blaster, Chain Fist [850]\n",
    );
    assert!(errors(&c).is_empty(), "{:?}", errors(&c));
    let army = c.army.as_ref().unwrap();
    let titan = army
        .formations
        .iter()
        .find(|f| f.name == "Warlord Titan")
        .unwrap();
    assert_eq!(titan.points, 850);
    assert_eq!(titan.card.unwrap().victory_points, Some(9));
    assert_eq!(titan.card.unwrap().break_point, Some(0));
}

#[test]
fn a_titan_without_weapons_still_rounds_and_a_stated_hull_price_is_refused() {
    let c = check("Army: NetEpic Chaos\nPoints: 3000\n\nChaos Renegades\n  Warhound Titan [125]\n");
    let errs = errors(&c);
    assert_eq!(errs.len(), 2, "{errs:?}");
    assert!(errs.iter().any(|e| e.starts_with("cost-mismatch")), "{errs:?}");
    // A Warhound's two weapon mounts must be armed.
    assert!(
        errs.iter()
            .any(|e| e.starts_with("list-rule A titan is bought with its weapons")),
        "{errs:?}"
    );
    let warhound = &c.army.as_ref().unwrap().formations[1];
    assert_eq!(
        (warhound.points, warhound.card.unwrap().victory_points),
        (150, Some(2))
    );
}

#[test]
fn titan_weapons_go_where_their_mounts_take_them() {
    let rule = |c: &Checked<'_>| -> Vec<(usize, String)> {
        c.diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| {
                let line = d.primary.as_ref().map_or(0, |l| l.file.line_col(l.span.start).0);
                (line, d.rule.as_ref().map(|r| r.id.clone()).unwrap_or_default())
            })
            .collect()
    };
    let army = "Army: NetEpic Titan Legions\nPoints: 5000\n\nImperator Titan\n";
    // A Warlord's arms take a Chain Fist and a Gatling Blaster (which fits
    // an arm or the carapace); the two missiles fit only the carapace.
    let ok = check(&format!(
        "{army}  Warlord Titan: Chain Fist, Gatling Blaster, Warp Missile, Vortex Missile\n"
    ));
    assert!(rule(&ok).is_empty(), "{:?}", rule(&ok));
    // Two Chain Fists take both arms: the Gatling Blaster and the two
    // missiles are three weapons for two carapace mounts.
    let broken = check(&format!(
        "{army}  Warlord Titan: 2x Chain Fist, Gatling Blaster, Warp Missile, Vortex Missile\n"
    ));
    assert_eq!(rule(&broken), vec![(5, "titan-weapon-mounts".to_string())]);
    // Only carapace weapons: the arms, which must be armed, have none.
    let bare = check(&format!("{army}  Warlord Titan: Warp Missile, Vortex Missile\n"));
    assert_eq!(rule(&bare), vec![(5, "titan-required-weapons".to_string())]);
    // One Carapace Landing Pad per Warlord, though the carapace holds two.
    let twice = check(&format!(
        "{army}  Warlord Titan: 2x Chain Fist, 2x Carapace Landing Pad\n"
    ));
    assert_eq!(rule(&twice), vec![(5, "titan-weapon-mounts".to_string())]);
}

#[test]
fn a_titan_datasheet_shows_its_weapons_and_their_mounts() {
    let warlord = catalogue()
        .ne_units
        .iter()
        .find(|u| u.data.id == "titan-legions-warlord-titan")
        .unwrap();
    let weapons = &warlord.data.weapons;
    for w in [
        "Volcano Cannon (carapace or arm): 100cm 1d 3+ (-4) Penetrating +3",
        "Doomburner (carapace or arm): 75cm 1d 3+ (-3) Ignores Cover, Damages Buildings, Penetrating +1",
        "Inferno Gun (carapace or arm): LT 4+ (0) Ignores Cover",
        "Warp Missile (carapace): LoS Special",
        "Multiple Rocket Launcher (penetration mode) (carapace or arm): 100cm 6BP 4+ (-1) Special",
        "Chain Fist (arm): missing",
        "Weapon Head (head): 25cm 1d 5+ (-1)",
    ] {
        assert!(weapons.iter().any(|x| x == w), "{w} not in {weapons:#?}");
    }
    // What is not a figure is said, in our words, not copied.
    assert!(
        warlord
            .data
            .faults
            .iter()
            .any(|f| f.starts_with("weapon `Chain Fist`: no shooting profile"))
    );
    assert!(
        !warlord
            .data
            .faults
            .iter()
            .any(|f| f.contains("chosen on the card"))
    );
    // The Imperator carries its weapons: no mounts named.
    let imperator = catalogue()
        .ne_units
        .iter()
        .find(|u| u.data.id == "titan-legions-imperator-titan")
        .unwrap();
    assert!(
        imperator
            .data
            .weapons
            .iter()
            .any(|w| w == "Imperator Gun Towers: 75cm 4d 4+ (-2)"),
        "{:#?}",
        imperator.data.weapons
    );
}

#[test]
fn a_titan_battle_group_is_not_rounded_and_counts_vp_on_its_total() {
    let c = check("Army: NetEpic Titan Legions\nPoints: 3000\n\nWarlord Titan Battlegroup: Volcano Cannon\n");
    let group = &c.army.as_ref().unwrap().formations[0];
    let bare = check("Army: NetEpic Titan Legions\nPoints: 3000\n\nWarlord Titan Battlegroup\n");
    // Three hulls at the catalogue's 1,500, not rounded; the weapon adds its
    // price as it is.
    assert_eq!(bare.army.as_ref().unwrap().formations[0].points, 1500);
    assert!(group.points > 1500);
    assert_eq!(
        group.card.unwrap().victory_points,
        Some(u32::try_from(group.points).unwrap().div_ceil(100))
    );
}

#[test]
fn fortifications_come_from_the_purchase_table() {
    // Lines 677-685: Composite Bunkers 225 points, break point 3, 3 VP;
    // Trenches 150, 3, 2.
    let c = check("Army: NetEpic Orks\nPoints: 3000\n\nGoff Clan\nComposite Bunkers\nTrenches\n");
    assert!(errors(&c).is_empty(), "{:?}", errors(&c));
    let army = c.army.as_ref().unwrap();
    let bunkers = &army.formations[1];
    assert_eq!(bunkers.points, 225);
    assert_eq!(
        bunkers.card.map(|c| (c.break_point, c.victory_points)),
        Some((Some(3), Some(3)))
    );
    let trenches = &army.formations[2];
    assert_eq!(trenches.points, 150);
    assert_eq!(
        trenches.card.map(|c| (c.break_point, c.victory_points)),
        Some((Some(3), Some(2)))
    );
    assert_eq!(army.total, 650 + 225 + 150);
}

#[test]
fn a_stronghold_has_no_price_in_the_rules_and_says_so() {
    let c = check("Army: NetEpic Orks\nPoints: 3000\n\nGoff Clan\nStronghold\n");
    assert!(errors(&c).is_empty(), "{:?}", errors(&c));
    let army = c.army.as_ref().unwrap();
    assert!(army.total_incomplete);
    let v = victory(army).unwrap();
    assert!(v.incomplete);
    // The roster is told, at the Stronghold's line, that its points are
    // not checked (stronghold-weapon).
    let told = c.diagnostics.iter().any(|d| {
        d.code == muster::diagnostic::Code::Unchecked
            && d.message.contains("Stronghold")
            && d.primary
                .as_ref()
                .is_some_and(|l| l.file.line_col(l.span.start).0 == 5)
    });
    assert!(told, "{:#?}", c.diagnostics);
}

#[test]
fn the_army_sums_its_cards_and_knows_what_wins() {
    // Goff Clan: break point 12, 7 VP; Goff Extra Boyz 2 and 1.
    let c = check("Army: NetEpic Orks\nPoints: 3000\n\nGoff Clan\n  Goff Extra Boyz\n");
    let v = victory(c.army.as_ref().unwrap()).unwrap();
    assert_eq!((v.break_points, v.victory_points, v.incomplete), (14, 8, false));
    assert_eq!((v.to_win, v.army_size), (40, 3000));
    // Lines 154-160: 2,000 points need 35; between rows, the larger.
    let c = check("Army: NetEpic Orks\nPoints: 2000\n\nGoff Clan\n");
    assert_eq!(victory(c.army.as_ref().unwrap()).unwrap().to_win, 35);
    let c = check("Army: NetEpic Orks\nPoints: 4500\n\nGoff Clan\n");
    assert_eq!(victory(c.army.as_ref().unwrap()).unwrap().to_win, 50);
    // Other games have no victory facts.
    let c = check("Army: Codex Astartes\nPoints: 3000\n\nTactical Detachment\n");
    assert!(victory(c.army.as_ref().unwrap()).is_none());
}

const ALLIED: &str = "Army: NetEpic Orks\nPoints: 3000\n\nGoff Clan\n  Goff Extra Boyz\nBad Moon Clan\n\nAllies: NetEpic Imperial Guard\n  Tactical Infantry Company\n    Tactical Infantry Platoon\n";

#[test]
fn an_allied_force_is_resolved_against_its_own_list() {
    let c = check(ALLIED);
    assert!(errors(&c).is_empty(), "{:?}", errors(&c));
    let army = c.army.as_ref().unwrap();
    let forces: Vec<(&str, i64, bool)> = army
        .forces
        .iter()
        .map(|f| (f.list_id.as_str(), f.points, f.ally))
        .collect();
    assert_eq!(
        forces,
        [
            ("netepic-orks", 1350, false),
            ("netepic-imperial-guard", 800, true)
        ]
    );
    assert_eq!(army.total, 2150);
    let names: Vec<(&str, usize, Option<usize>)> = army
        .formations
        .iter()
        .map(|f| (f.name.as_str(), f.force, f.group))
        .collect();
    // The indented allied company is not nested under the Ork clan before
    // the Allies line: each force nests on its own.
    assert_eq!(
        names,
        [
            ("Goff Clan", 0, None),
            ("Goff Extra Boyz", 0, Some(0)),
            ("Bad Moon Clan", 0, None),
            ("Tactical Infantry Company", 1, None),
            ("Tactical Infantry Platoon", 1, Some(3)),
        ]
    );
}

#[test]
fn terminal_and_json_show_the_forces_and_the_victory_facts() {
    let c = check(ALLIED);
    let text = muster::report::terminal::formations(&c);
    insta::assert_snapshot!(text);
    let json = serde_json::to_value(CheckOutput::new(std::slice::from_ref(&c), None)).unwrap();
    let roster = &json["rosters"][0];
    assert_eq!(roster["forces"][1]["army"], "netepic-imperial-guard");
    assert_eq!(roster["forces"][1]["ally"], true);
    assert_eq!(roster["formations"][3]["force"], 1);
    assert_eq!(roster["formations"][0]["card"]["break_point"], 12);
    assert_eq!(roster["victory"]["to_win"], 40);
    assert!(roster["formations"][0].get("force").is_none());
}

#[test]
fn a_roster_without_allies_prints_no_forces_in_json() {
    let c = check("Army: NetEpic Orks\nPoints: 3000\n\nGoff Clan\n");
    let json = serde_json::to_value(CheckOutput::new(std::slice::from_ref(&c), None)).unwrap();
    assert!(json["rosters"][0].get("forces").is_none());
}

#[test]
fn the_printed_roster_view_carries_the_forces_and_card_values() {
    let c = check(ALLIED);
    let sheet = muster::print::view::RosterSheet::new(&c, catalogue(), "2026-11-24", false);
    assert_eq!(sheet.forces.len(), 2);
    assert_eq!(sheet.victory.map(|v| v.to_win), Some(40));
    let company = sheet
        .formations
        .iter()
        .find(|f| f.name == "Tactical Infantry Company")
        .unwrap();
    assert_eq!(company.force, 1);
    assert_eq!(company.card.and_then(|c| c.break_point), Some(17));
}

#[test]
fn a_card_written_in_the_wrong_force_is_pointed_to_its_list() {
    let c = check(
        "Army: NetEpic Orks\nPoints: 3000\n\nGoff Clan\n  Tactical Infantry Platoon\n\nAllies: NetEpic Imperial Guard\nTactical Infantry Company\n",
    );
    let d = c
        .diagnostics
        .iter()
        .find(|d| d.code.as_str() == "unknown-formation")
        .expect("the Guard card is not an Ork card");
    assert_eq!(d.line_col().map(|(l, _)| l), Some(5));
    assert!(
        d.hints
            .iter()
            .any(|h| h.contains("is a card of NetEpic Imperial Guard")),
        "{:?}",
        d.hints
    );
}

/// Players read NetEpic's rules in words with the section they come from;
/// the source line stays in `--verbose` and JSON (issue 19).
#[test]
fn players_messages_keep_source_lines_out_and_verbose_and_json_keep_them() {
    let roster = "tests/rosters/netepic/netepic-adeptus-astartes/company-card.broken.txt";
    let plain = super::common::muster(&["check", roster]);
    assert_eq!(plain.status, 1, "{}", plain.stderr);
    assert!(
        plain
            .stdout
            .contains("hint: A Stronghold costs 100 points plus its weapon."),
        "{}",
        plain.stdout
    );
    assert!(plain.stdout.contains("fortification table"), "{}", plain.stdout);
    for internal in [
        "line 685",
        "(core rules",
        "(fortification table",
        "shared source",
        "(lines ",
    ] {
        assert!(
            !plain.stdout.contains(internal),
            "`{internal}` in:\n{}",
            plain.stdout
        );
    }
    let verbose = super::common::muster(&["check", "--verbose", roster]);
    assert!(
        verbose.stdout.contains("fortification table (003 line 685)"),
        "{}",
        verbose.stdout
    );
    assert!(
        verbose.stdout.contains("(shared source 003)"),
        "{}",
        verbose.stdout
    );
    let json = super::common::muster(&["check", "--format", "json", roster]);
    assert!(
        json.stdout.contains("fortification table (003 line 685)"),
        "{}",
        json.stdout
    );
}

/// Titans of a battle group armed titan by titan (`Titan:` lines), under
/// the optional rule of titan battle groups (core rules 6.1).
const BATTLEGROUP: &str = "tests/fixtures/netepic/titan-battlegroup.txt";

#[test]
fn the_optional_rule_rounds_each_titan_of_a_battle_group_and_counts_its_victory_points() {
    // The core rules' example: three Warlords at 850 each make a battle
    // group of 2550, each titan worth 9 victory points.
    let text = "Army: NetEpic Titan Legions\nPoints: 3000\nOptional rules: titan battle groups\n\nWarlord Titan Battlegroup [2550]\n  3x Titan: Volcano Cannon, Vortex Missile, Gatling Blaster, Chain Fist\n";
    let c = check(text);
    assert!(errors(&c).is_empty(), "{:?}", errors(&c));
    let group = &c.army.as_ref().unwrap().formations[0];
    assert_eq!(
        (group.points, group.card.unwrap().victory_points),
        (2550, Some(27))
    );
    assert_eq!(group.titans.len(), 1);
    assert_eq!((group.titans[0].count, group.titans[0].points), (3, 850));
    // Without the rule: hulls and weapons added, and victory points on the
    // card's total.
    let c = check(
        &text
            .replace("Optional rules: titan battle groups\n", "")
            .replace(" [2550]", ""),
    );
    assert!(errors(&c).is_empty(), "{:?}", errors(&c));
    let group = &c.army.as_ref().unwrap().formations[0];
    assert_eq!(
        (group.points, group.card.unwrap().victory_points),
        (2475, Some(25))
    );
    // The rule's name is read forgivingly; another game has no such rule.
    let c = check(&text.replace("titan battle groups", "Titan Battle Groups"));
    assert!(errors(&c).is_empty(), "{:?}", errors(&c));
    let c = check(
        "Army: Codex Astartes\nPoints: 3000\nOptional rules: titan battle groups\n\nTactical: Rhinos\n",
    );
    assert!(
        errors(&c)
            .iter()
            .any(|e| e.starts_with("bad-header") && e.contains("no optional rule")),
        "{:?}",
        errors(&c)
    );
}

#[test]
fn a_rosters_crib_sheet_shows_each_titan_with_the_weapons_it_was_bought_with() {
    let run = super::common::muster(&["sheet", "--roster", BATTLEGROUP]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let html = &run.stdout;
    for wanted in [
        "Warlord Titan (2 of 4 as bought)",
        "Warlord Titan (1 of 4 as bought)",
        "Volcano Cannon (carapace or arm)",
        "Warp Missile (carapace)",
        "Plasma Destructor (carapace or arm)",
        // A weapon a titan carries twice.
        "2× Gatling Blaster (carapace or arm)",
    ] {
        assert!(html.contains(wanted), "`{wanted}` is missing");
    }
    // Weapons nobody bought are not on the roster's sheet.
    for unwanted in [
        "Doomburner",
        "Deathstrike Cannon",
        "Plasma Destructor (with dedicated reactor)",
    ] {
        assert!(!html.contains(unwanted), "`{unwanted}` is on the sheet");
    }
    insta::assert_snapshot!("titans_as_bought_html", run.stdout);
    // The army's sheet keeps every weapon a titan may carry, with its mounts.
    let run = super::common::muster(&["sheet", "netepic-titan-legions"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.stdout.contains("Doomburner (carapace or arm)"));
    assert!(run.stdout.contains("Deathstrike Cannon (head)"));
}

#[test]
fn a_battle_group_armed_titan_by_titan_reads_back_from_pdf() {
    let path = super::common::out_dir("netepic-titans").join("battlegroup.pdf");
    let run = super::common::muster(&[
        "roster",
        BATTLEGROUP,
        "--with-sheet",
        "--pdf",
        &path.display().to_string(),
    ]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let doc = lopdf::Document::load(&path).expect("a PDF lopdf can read");
    let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
    let text: String = doc
        .extract_text(&pages)
        .expect("text")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    for wanted in [
        "2500 pts · break point none (broken when destroyed) · victory points 26",
        "2× Titan (850 points each): Volcano Cannon, Vortex Missile, Gatling Blaster, Chain Fist; Titan (800 points): Quake Cannon, Warp Missile, Power Fist, Laser Burner",
        "Warlord Titan (2 of 4 as bought)",
        "Quake Cannon (carapace or arm)",
        "Laser Burner (arm)",
    ] {
        let w: String = wanted.chars().filter(|c| !c.is_whitespace()).collect();
        assert!(text.contains(&w), "`{wanted}` is missing from the PDF");
    }
    assert!(
        !text.contains("Doomburner"),
        "a weapon nobody bought is in the PDF"
    );
}

#[test]
fn an_event_names_only_optional_rules_its_game_has() {
    let load = |text: &str| {
        muster::event::load(
            muster::source::SourceFile::new("event.yaml".to_string(), text.to_string()),
            catalogue(),
        )
    };
    let ok = "name: Titan Night\ngame: netepic\npoints: 5000\noptional_rules: [Titan Battle Groups]\n";
    assert!(load(ok).is_ok());
    let Err(problems) = load(&ok.replace("Titan Battle Groups", "big titans")) else {
        panic!("an unknown optional rule loads");
    };
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0]
            .message
            .contains("no optional rule called `big titans`")
    );
    let line = problems[0]
        .primary
        .as_ref()
        .map(|l| l.file.line_col(l.span.start).0);
    assert_eq!(line, Some(4));
    let Err(problems) =
        load("name: Club\ngame: netea\npoints: 3000\noptional_rules: [titan battle groups]\n")
    else {
        panic!("a NetEA event takes a NetEpic optional rule");
    };
    assert!(
        problems[0]
            .message
            .contains("Epic Armageddon (NetEA) has no optional rule"),
        "{problems:#?}"
    );
}

#[test]
fn json_shows_each_titan_line_of_a_battle_group() {
    let run = super::common::muster(&["check", "--format", "json", BATTLEGROUP]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON document");
    let schema_text = std::fs::read_to_string("schema/check-output.schema.json").unwrap();
    let schema: serde_json::Value = serde_json::from_str(&schema_text).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator.iter_errors(&value).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let group = &value["rosters"][0]["formations"][0];
    assert_eq!(group["card"]["victory_points"], 26);
    let titans = group["titans"].as_array().expect("titans");
    assert_eq!(titans.len(), 2);
    assert_eq!(
        (titans[0]["count"].as_u64(), titans[0]["points"].as_i64()),
        (Some(2), Some(850))
    );
    assert_eq!(titans[1]["upgrades"][0]["name"], "Quake Cannon");
    // A card armed on its own line has no titans in the output.
    assert!(value["rosters"][0]["formations"][1].get("titans").is_none());
}
