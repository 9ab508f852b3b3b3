//! The roster notation, one feature at a time: what each line form parses to.

use muster::diagnostic::Code;
use muster::roster::{Dialect, Roster, parse};
use muster::source::SourceFile;

fn read(text: &str) -> (Roster, Vec<muster::diagnostic::Diagnostic>) {
    parse(&SourceFile::new("test.txt", text))
}

fn clean(text: &str) -> Roster {
    let (roster, diagnostics) = read(text);
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");
    roster
}

/// `(count, name)` of every top-level entry.
fn items(roster: &Roster) -> Vec<(u32, String)> {
    roster
        .entries
        .iter()
        .map(|e| (e.item.count, e.item.name.value.clone()))
        .collect()
}

fn upgrades(roster: &Roster, entry: usize) -> Vec<(u32, String)> {
    roster.entries[entry]
        .upgrades
        .iter()
        .map(|u| (u.count, u.name.value.clone()))
        .collect()
}

#[test]
fn header_keys_in_any_case() {
    let r = clean(
        "ARMY: Codex Astartes\npoints limit: 3,000\nPlayer:  Jane Doe \nEVENT: Sheffield\nVersion: 2026-02-04\n",
    );
    assert_eq!(r.header.army.as_ref().unwrap().value, "Codex Astartes");
    assert_eq!(r.header.points.as_ref().unwrap().value, 3000);
    assert_eq!(r.header.player.as_ref().unwrap().value, "Jane Doe");
    assert_eq!(r.header.event.as_ref().unwrap().value, "Sheffield");
    assert_eq!(r.header.version.as_ref().unwrap().value, "2026-02-04");
    assert_eq!(r.dialect, Dialect::Native);

    let r = clean("List: Orks\nLimit: 2500pts\n");
    assert_eq!(r.header.army.as_ref().unwrap().value, "Orks");
    assert_eq!(r.header.points.as_ref().unwrap().value, 2500);
}

#[test]
fn the_version_can_follow_the_army_name() {
    let r = clean("Army: Steel Legion (2023-01-03)\n");
    assert_eq!(r.header.army.as_ref().unwrap().value, "Steel Legion");
    assert_eq!(r.header.version.as_ref().unwrap().value, "2023-01-03");
    // Parentheses without a version stay part of the name.
    let r = clean("Army: Blitz (Big)\n");
    assert_eq!(r.header.army.as_ref().unwrap().value, "Blitz (Big)");
}

#[test]
fn header_mistakes_are_reported() {
    let (_, d) = read("Army: A\nArmy: B\nPoints: lots\n");
    let codes: Vec<(Code, usize)> = d.iter().map(|d| (d.code, d.line_col().unwrap().0)).collect();
    assert_eq!(codes, vec![(Code::BadHeader, 2), (Code::BadHeader, 3)]);
    assert_eq!(d[0].secondary[0].file.line_col(d[0].secondary[0].span.start).0, 1);
}

#[test]
fn comments_and_blank_lines_go_anywhere() {
    let r = clean("# a roster\n\n   \nArmy: X   # the army\n\n# formations\nTactical  # six marines\n\n");
    assert_eq!(items(&r), vec![(1, "Tactical".to_string())]);
}

#[test]
fn counts_before_and_after_names() {
    let r =
        clean("2x Warhound\n3 Basilisks\nLand Raider x2\n2\u{00d7} Vulture\nSentinel \u{00d7}4\nWarlord\n");
    assert_eq!(
        items(&r),
        vec![
            (2, "Warhound".to_string()),
            (3, "Basilisks".to_string()),
            (2, "Land Raider".to_string()),
            (2, "Vulture".to_string()),
            (4, "Sentinel".to_string()),
            (1, "Warlord".to_string()),
        ]
    );
    assert!(r.entries[0].item.counted);
    assert!(!r.entries[5].item.counted);
}

#[test]
fn upgrades_follow_a_colon_with_counts() {
    let r = clean("Tactical: Captain, 2x Razorback (Twin Heavy Bolter), Rhinos x3, 4 Snipers,\n");
    assert_eq!(
        upgrades(&r, 0),
        vec![
            (1, "Captain".to_string()),
            (2, "Razorback (Twin Heavy Bolter)".to_string()),
            (3, "Rhinos".to_string()),
            (4, "Snipers".to_string()),
        ]
    );
}

#[test]
fn names_keep_their_punctuation() {
    let r = clean(
        "Mekboy Stompamob ('Uge): Supa-Stompa (with 2x Soopagunz and Mega-Choppa), Stompa (with 2x Big guns and Kombat'Ammer)\n",
    );
    assert_eq!(r.entries[0].item.name.value, "Mekboy Stompamob ('Uge)");
    assert_eq!(
        upgrades(&r, 0),
        vec![
            (1, "Supa-Stompa (with 2x Soopagunz and Mega-Choppa)".to_string()),
            (1, "Stompa (with 2x Big guns and Kombat'Ammer)".to_string()),
        ]
    );
}

/// An entry's own name may hold commas (NetEpic's `Eldrad Ulthran,
/// Farseer of Ulthwe`); the upgrades after its colon are still split at
/// each comma.
#[test]
fn an_entrys_name_may_hold_commas() {
    let r = clean(
        "Eldrad Ulthran, Farseer of Ulthwe  [250]
2x Angron, Primarch of the World Eaters: Foo, Bar x2
",
    );
    assert_eq!(
        items(&r),
        vec![
            (1, "Eldrad Ulthran, Farseer of Ulthwe".to_string()),
            (2, "Angron, Primarch of the World Eaters".to_string()),
        ]
    );
    assert_eq!(
        upgrades(&r, 1),
        vec![(1, "Foo".to_string()), (2, "Bar".to_string())]
    );
}

/// A formation and its upgrades with the colon left out read as one name;
/// the check says where the colon goes.
#[test]
fn a_left_out_colon_is_put_back_by_the_fix() {
    let report = crate::common::embedded();
    let text = "Army: Codex Astartes\nPoints: 3000\n\nTactical Detachment, Rhinos, Captain\n";
    let checked = muster::check::check_text(&report.catalogue, "t.txt", text);
    let d = checked
        .diagnostics
        .iter()
        .find(|d| d.code == Code::UnknownFormation)
        .expect("an unknown formation");
    assert_eq!(
        d.fix.as_deref(),
        Some("Tactical Detachment: Rhinos, Captain"),
        "{d:#?}"
    );
}

#[test]
fn stated_costs_in_brackets() {
    let r = clean("Tactical [325]\nDevastator: Rhinos [ 250 pts ]\nBike: 5 Bike Unit [250 points]\n");
    let costs: Vec<u32> = r.entries.iter().map(|e| e.cost.as_ref().unwrap().value).collect();
    assert_eq!(costs, vec![325, 250, 250]);
}

/// Issue 19: the cost before the colon, as Snapfire's headings put it, is
/// the same entry as the cost at the end; only one cost a line.
#[test]
fn stated_cost_before_the_colon() {
    let r = clean("Tactical [325]: Captain, Rhinos\n2x Devastator [500 pts]:Rhinos\nBike [250]:\n");
    let costs: Vec<u32> = r.entries.iter().map(|e| e.cost.as_ref().unwrap().value).collect();
    assert_eq!(costs, vec![325, 500, 250]);
    assert_eq!(
        items(&r),
        vec![
            (1, "Tactical".to_string()),
            (2, "Devastator".to_string()),
            (1, "Bike".to_string())
        ]
    );
    assert_eq!(
        upgrades(&r, 0),
        vec![(1, "Captain".to_string()), (1, "Rhinos".to_string())]
    );
    assert_eq!(upgrades(&r, 1), vec![(1, "Rhinos".to_string())]);
    let same = clean("Tactical: Captain, Rhinos [325]\n");
    assert_eq!(same.entries[0].upgrades.len(), r.entries[0].upgrades.len());

    let (r, d) = read("Tactical [325]: Captain [325]\n");
    assert!(r.entries.is_empty());
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].code, Code::ParseError);
}

#[test]
fn counts_as_declarations() {
    let r = clean(
        "Army: Orks\nCounts as: Squigoth = Battlewagon\ncounts as:  Old Stompa=Stompa (with 3x Big guns)\n",
    );
    let pairs: Vec<(String, String)> = r
        .counts_as
        .iter()
        .map(|c| (c.model.value.clone(), c.target.value.clone()))
        .collect();
    assert_eq!(
        pairs,
        vec![
            ("Squigoth".to_string(), "Battlewagon".to_string()),
            ("Old Stompa".to_string(), "Stompa (with 3x Big guns)".to_string()),
        ]
    );
}

#[test]
fn indented_lines_nest_under_the_entry_above() {
    let r = clean("Tactical [325]\n    Captain\n    2x Razorback\n\tDrop Pods\nDevastator\n  Rhinos\n");
    assert_eq!(
        items(&r),
        vec![(1, "Tactical".to_string()), (1, "Devastator".to_string())]
    );
    let children: Vec<(u32, String)> = r.entries[0]
        .children
        .iter()
        .map(|c| (c.item.count, c.item.name.value.clone()))
        .collect();
    assert_eq!(
        children,
        vec![
            (1, "Captain".to_string()),
            (2, "Razorback".to_string()),
            (1, "Drop Pods".to_string())
        ]
    );
    assert_eq!(r.entries[1].children.len(), 1);
}

#[test]
fn deeper_nesting_is_kept_for_games_that_use_it() {
    let r = clean("Squadron\n  Sword\n    Refit\n  Sword\n");
    assert_eq!(r.entries[0].children.len(), 2);
    assert_eq!(r.entries[0].children[0].children[0].item.name.value, "Refit");
}

#[test]
fn windows_line_endings() {
    let r = clean("Army: X\r\nPoints: 2000\r\nTactical: Captain [325]\r\n");
    assert_eq!(r.header.points.as_ref().unwrap().value, 2000);
    assert_eq!(upgrades(&r, 0), vec![(1, "Captain".to_string())]);
}

#[test]
fn a_bad_line_is_reported_with_its_position_and_the_rest_still_parses() {
    let (r, d) = read("Army: X\nTactical: Captain [abc]\nDevastator\n= oops\n");
    assert_eq!(items(&r), vec![(1, "Devastator".to_string())]);
    let positions: Vec<(usize, usize)> = d.iter().map(|d| d.line_col().unwrap()).collect();
    assert_eq!(positions, vec![(2, 20), (4, 1)]);
    assert!(d.iter().all(|d| d.code == Code::ParseError));
    assert!(d[0].message.contains("expected"), "{}", d[0].message);
}

#[test]
fn snapfire_export() {
    let r = clean(
        "Incompertus, 3000 POINTS\nCodex Astartes (NetEA Tournament Pack (2026-02-04))\n==================================================\n\nTACTICAL [325]\n6 Tacticals plus transport, Captain, Rhinos\n\nSTRIKE CRUISER [200]\n\nLAND SPEEDER [200]\n5x Landspeeder Tornado\n",
    );
    assert_eq!(r.dialect, Dialect::Snapfire);
    assert_eq!(r.header.title.as_ref().unwrap().value, "Incompertus");
    // The title's number is what the force costs, not a points limit.
    assert_eq!(r.header.snapfire_total.as_ref().unwrap().value, 3000);
    assert!(r.header.points.is_none());
    assert_eq!(r.header.army.as_ref().unwrap().value, "Codex Astartes");
    assert_eq!(
        r.header.version.as_ref().unwrap().value,
        "NetEA Tournament Pack (2026-02-04)"
    );
    assert_eq!(
        items(&r),
        vec![
            (1, "TACTICAL".to_string()),
            (1, "STRIKE CRUISER".to_string()),
            (1, "LAND SPEEDER".to_string())
        ]
    );
    assert_eq!(r.entries[0].cost.as_ref().unwrap().value, 325);
    assert_eq!(
        r.entries[0].details.as_ref().unwrap().value,
        "6 Tacticals plus transport, Captain, Rhinos"
    );
    assert_eq!(upgrades(&r, 2), vec![(5, "Landspeeder Tornado".to_string())]);
    assert!(r.entries[1].upgrades.is_empty());
}

#[test]
fn snapfire_export_problems_are_reported() {
    let (r, d) = read(
        "Army, 2000 POINTS\nCodex Astartes (NetEA Tournament Pack (2026-02-04))\n=====\nCaptain, Rhinos\nTACTICAL [325]\nRhinos\nCaptain\n",
    );
    assert_eq!(r.dialect, Dialect::Snapfire);
    let lines: Vec<usize> = d.iter().map(|d| d.line_col().unwrap().0).collect();
    assert_eq!(lines, vec![4, 7]);
}

#[test]
fn a_text_that_only_looks_a_bit_like_snapfire_is_read_natively() {
    let r = clean("Army: X\nPoints: 2000\nTactical\n");
    assert_eq!(r.dialect, Dialect::Native);
}

#[test]
fn fleet_squadrons_nest_ships_with_their_options() {
    let r = clean(
        "Army: Armageddon Sector\nPoints: 1500\n\
         Emperor-class battleship: Admiral, 2 extra re-rolls, Shark assault boats [545]\n\
         Escort squadron [155]\n  3x Falchion-class frigate\n  Rapid Strike Vessel (Cobra): Enemy Contacts bonus\n  Sword-class frigate x2\n\
         Lunar-class cruiser\n  Nova Cannon\n",
    );
    assert_eq!(
        items(&r),
        vec![
            (1, "Emperor-class battleship".to_string()),
            (1, "Escort squadron".to_string()),
            (1, "Lunar-class cruiser".to_string()),
        ]
    );
    assert_eq!(
        upgrades(&r, 0),
        vec![
            (1, "Admiral".to_string()),
            (2, "extra re-rolls".to_string()),
            (1, "Shark assault boats".to_string()),
        ]
    );
    assert_eq!(r.entries[0].cost.as_ref().unwrap().value, 545);
    let squadron = &r.entries[1];
    assert_eq!(squadron.cost.as_ref().unwrap().value, 155);
    let ships: Vec<(u32, &str)> = squadron
        .children
        .iter()
        .map(|c| (c.item.count, c.item.name.value.as_str()))
        .collect();
    assert_eq!(
        ships,
        vec![
            (3, "Falchion-class frigate"),
            (1, "Rapid Strike Vessel (Cobra)"),
            (2, "Sword-class frigate"),
        ]
    );
    assert_eq!(
        squadron.children[1].upgrades[0].name.value,
        "Enemy Contacts bonus"
    );
    // An option on its own indented line stays under its ship.
    assert_eq!(r.entries[2].children[0].item.name.value, "Nova Cannon");
}
