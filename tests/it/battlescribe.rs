//! BattleScribe rosters (issue 17): `.ros` and `.rosz` fixtures written for
//! these tests (`tests/fixtures/battlescribe/`), one legal roster per game
//! muster has BattleScribe data for, mistakes reported at their XML line,
//! and hostile files refused with a clear error in bounded time.

use crate::common::{CpuClock, muster};
use muster::catalogue::Catalogue;
use muster::check::{Checked, check_bytes};
use muster::diagnostic::{Code, Diagnostic};
use std::path::Path;
use std::time::Duration;

fn catalogue() -> &'static Catalogue {
    crate::common::catalogue()
}

const DIR: &str = "tests/fixtures/battlescribe";

fn path(name: &str) -> String {
    format!("{DIR}/{name}")
}

fn check(name: &str) -> Checked<'static> {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(DIR).join(name);
    let bytes = std::fs::read(&file).unwrap();
    check_bytes(catalogue(), &path(name), &bytes)
}

fn errors(checked: &Checked<'_>) -> Vec<String> {
    checked
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("{}: {}", d.code, d.message))
        .collect()
}

/// The file and 1-based line a diagnostic's primary label points at.
fn place(d: &Diagnostic) -> (String, usize) {
    let label = d.primary.as_ref().expect("the diagnostic points somewhere");
    (
        label.file.name().to_string(),
        label.file.line_of(label.span.start),
    )
}

/// The 1-based line of the first line of `text` containing `needle`
/// after `skip` earlier matches.
fn line_of(text: &str, needle: &str, skip: usize) -> usize {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.contains(needle))
        .nth(skip)
        .map(|(i, _)| i + 1)
        .unwrap_or_else(|| panic!("no {needle}"))
}

fn fixture_text(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(DIR).join(name)).unwrap()
}

#[test]
fn a_netea_roster_is_legal_at_its_points() {
    let checked = check("netea-codex-astartes.ros");
    assert!(checked.legal(), "{:?}", errors(&checked));
    assert_eq!(checked.list.map(|l| l.id.as_str()), Some("codex-astartes"));
    let army = checked.army.as_ref().unwrap();
    assert_eq!(army.total, 3000);
    assert_eq!(army.formations.len(), 10);
    assert_eq!(checked.limit(), Some(3000));
}

#[test]
fn a_battlefleet_gothic_rosz_is_legal_with_its_squadrons() {
    let checked = check("bfg-armageddon-sector.rosz");
    assert!(checked.legal(), "{:?}", errors(&checked));
    assert_eq!(checked.list.map(|l| l.id.as_str()), Some("armageddon-sector"));
    let army = checked.army.as_ref().unwrap();
    assert_eq!(army.total, 1500);
    // The two squadrons hold their ships.
    let members = army.formations.iter().filter(|f| f.group.is_some()).count();
    assert_eq!(
        members,
        8,
        "{:?}",
        army.formations.iter().map(|f| &f.id).collect::<Vec<_>>()
    );
}

#[test]
fn a_netepic_roster_is_legal_by_its_catalogue_id() {
    let checked = check("netepic-orks.ros");
    assert!(checked.legal(), "{:?}", errors(&checked));
    assert_eq!(checked.list.map(|l| l.id.as_str()), Some("netepic-orks"));
    assert_eq!(checked.army.as_ref().unwrap().total, 1700);
}

#[test]
fn unmapped_selections_and_wrong_costs_point_at_their_xml_line() {
    let checked = check("netea-mistakes.ros");
    let text = fixture_text("netea-mistakes.ros");
    let file = path("netea-mistakes.ros");
    let find = |code: Code| {
        checked
            .diagnostics
            .iter()
            .find(|d| d.code == code)
            .unwrap_or_else(|| panic!("no {code}: {:?}", errors(&checked)))
    };
    let formation = find(Code::UnknownFormation);
    assert!(formation.message.contains("Tactikal"), "{}", formation.message);
    assert_eq!(
        place(formation),
        (file.clone(), line_of(&text, "name=\"Tactikal\"", 0))
    );
    // The roster line it was read as stays as a secondary label.
    assert!(
        formation
            .secondary
            .iter()
            .any(|l| l.message.contains("read from the BattleScribe roster"))
    );

    let upgrade = find(Code::UnknownUpgrade);
    assert!(upgrade.message.contains("Chaplian"), "{}", upgrade.message);
    assert_eq!(
        place(upgrade),
        (file.clone(), line_of(&text, "name=\"Chaplian\"", 0))
    );

    let cost = find(Code::CostMismatch);
    assert!(cost.message.contains("999"), "{}", cost.message);
    assert_eq!(place(cost), (file, line_of(&text, "name=\"Assault\"", 0)));
    assert!(!checked.legal());
}

#[test]
fn an_unknown_catalogue_is_named_at_its_force() {
    let checked = check("unknown-catalogue.ros");
    assert_eq!(checked.diagnostics.len(), 1, "{:?}", errors(&checked));
    let d = &checked.diagnostics[0];
    assert_eq!(d.code, Code::BattleScribe);
    assert!(
        d.message
            .contains("no list for BattleScribe catalogue `Squiggoth Herders`"),
        "{}",
        d.message
    );
    let text = fixture_text("unknown-catalogue.ros");
    assert_eq!(place(d).1, line_of(&text, "<force ", 0));
}

#[test]
fn hostile_files_are_refused_quickly_with_a_clear_error() {
    // The lists load before the clock starts: the bound is on the files.
    catalogue();
    for (name, wanted) in [
        ("hostile-bomb.rosz", "zip bomb"),
        ("hostile-many-entries.rosz", "holds 41 files"),
        ("hostile-truncated.rosz", "cannot be read"),
        ("hostile-not-zip.rosz", "not a zip archive"),
        ("hostile-billion-laughs.ros", "document type declaration"),
        ("hostile-external-entity.ros", "document type declaration"),
    ] {
        let start = CpuClock::start();
        let checked = check(name);
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{name}: {:?}",
            start.elapsed()
        );
        assert!(checked.unusable(), "{name}");
        let d = &checked.diagnostics[0];
        assert_eq!(d.code, Code::UnreadableInput, "{name}: {}", d.message);
        assert!(d.message.contains(wanted), "{name}: {}", d.message);
    }
    // The external entity's file is never read into the roster.
    let checked = check("hostile-external-entity.ros");
    assert!(!checked.diagnostics[0].message.contains("root:"));
}

#[test]
fn an_archive_whose_header_lies_about_its_size_is_refused() {
    // 8 MiB packed to a few KiB, its headers claiming 1,000 bytes: the
    // read stops at the cap (or at the first byte past the claimed size)
    // whatever the header says.
    let start = CpuClock::start();
    let checked = check("hostile-lying-size.rosz");
    assert!(start.elapsed() < Duration::from_secs(5));
    assert!(checked.unusable(), "{:?}", errors(&checked));
    let d = &checked.diagnostics[0];
    assert!(
        ["zip bomb", "cannot be read", "not well-formed"]
            .iter()
            .any(|w| d.message.contains(w)),
        "{}",
        d.message
    );
}

#[test]
fn rosters_are_told_by_extension_or_content() {
    use muster::import::battlescribe::is_roster;
    assert!(is_roster("army.ROS", b"anything"));
    assert!(is_roster("army.rosz", b"anything"));
    assert!(is_roster("-", b"PK\x03\x04rest"));
    assert!(is_roster(
        "-",
        b"\xEF\xBB\xBF  <?xml version=\"1.0\"?>\n<roster name=\"x\">"
    ));
    assert!(!is_roster("army.txt", b"Army: Codex Astartes\nTactical\n"));
    assert!(!is_roster("-", b"<?xml version=\"1.0\"?><catalogue/>"));
}

#[test]
fn the_commands_check_and_import_rosters() {
    let checked = muster(&["check", &path("netea-codex-astartes.ros")]);
    assert_eq!(checked.status, 0, "{}{}", checked.stdout, checked.stderr);
    assert!(checked.stdout.contains("legal"), "{}", checked.stdout);

    let imported = muster(&["import", &path("netepic-orks.ros")]);
    assert_eq!(imported.status, 0, "{}", imported.stderr);
    insta::assert_snapshot!("battlescribe_import_netepic", imported.stdout);

    let mistakes = muster(&["check", &path("netea-mistakes.ros")]);
    assert_eq!(mistakes.status, 1);
    assert!(
        mistakes
            .stdout
            .contains(&format!("{}:", path("netea-mistakes.ros"))),
        "{}",
        mistakes.stdout
    );

    let refused = muster(&["import", &path("hostile-bomb.rosz")]);
    assert_eq!(refused.status, 2, "{}", refused.stderr);
    assert!(refused.stderr.contains("zip bomb"), "{}", refused.stderr);

    // A folder of rosters: every file gives one row, the hostile ones too.
    let folder = muster(&["check", DIR]);
    assert_eq!(folder.status, 1, "{}", folder.stdout);
    for name in [
        "bfg-armageddon-sector.rosz",
        "hostile-bomb.rosz",
        "netepic-orks.ros",
    ] {
        assert!(folder.stdout.contains(name), "{name}\n{}", folder.stdout);
    }
}

#[test]
fn mutated_rosters_never_panic() {
    // Every fixture cut at many places and with bytes changed: each gives
    // a result, never a panic, in bounded time.
    let start = CpuClock::start();
    let mut seed: u64 = 17;
    let mut next = move || {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        (seed >> 33) as usize
    };
    for name in [
        "netea-codex-astartes.ros",
        "netea-mistakes.ros",
        "netepic-orks.ros",
        "bfg-armageddon-sector.rosz",
    ] {
        let bytes = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(DIR).join(name)).unwrap();
        for cut in (0..bytes.len()).step_by(bytes.len() / 40 + 1) {
            let _ = check_bytes(catalogue(), name, &bytes[..cut]);
        }
        for _ in 0..60 {
            let mut changed = bytes.clone();
            for _ in 0..3 {
                let at = next() % changed.len();
                changed[at] = b"<>\"&=x0 \n/"[next() % 10];
            }
            let _ = check_bytes(catalogue(), name, &changed);
        }
    }
    assert!(start.elapsed() < Duration::from_secs(60), "{:?}", start.elapsed());
}

#[test]
fn the_game_system_picks_between_lists_of_the_same_catalogue_name() {
    // "Necrons" is a NetEpic Gold catalogue the NetEpic book records, and
    // the name of a NetEA list: the roster's game system decides.
    let roster = |system: &str| {
        format!(
            "<?xml version=\"1.0\"?>\n<roster name=\"R\" gameSystemName=\"{system}\">\n  <forces>\n    <force name=\"Army\" catalogueName=\"Necrons\">\n      <selections>\n        <selection name=\"Nothing Known\" number=\"1\" type=\"unit\"/>\n      </selections>\n    </force>\n  </forces>\n</roster>\n"
        )
    };
    let netea = check_bytes(catalogue(), "a.ros", roster("Epic Armageddon").as_bytes());
    assert_eq!(
        netea.list.map(|l| l.id.as_str()),
        Some("necrons"),
        "{:?}",
        errors(&netea)
    );
    let netepic = check_bytes(catalogue(), "b.ros", roster("NetEpic Gold").as_bytes());
    assert_eq!(
        netepic.list.map(|l| l.id.as_str()),
        Some("netepic-necrons"),
        "{:?}",
        errors(&netepic)
    );
    // The selection no list has is reported at its line in the XML.
    let d = netea
        .diagnostics
        .iter()
        .find(|d| d.code == Code::UnknownFormation)
        .unwrap();
    assert_eq!(place(d), ("a.ros".to_string(), 6));
}

#[test]
fn a_netepic_battle_group_arms_each_titan_on_its_own_line() {
    // Each titan of the battlegroup is a selection named after the single
    // titan card: a `Titan:` line with its weapons, not a Support card.
    let imported = muster(&["import", &path("netepic-titan-battlegroup.ros")]);
    assert_eq!(imported.status, 0, "{}", imported.stderr);
    assert!(
        imported.stdout.contains(
            "Warlord Titan Battlegroup [2425]\n  Titan: Volcano Cannon, Vortex Missile, Gatling Blaster, Chain Fist\n"
        ),
        "{}",
        imported.stdout
    );
    assert!(
        imported
            .stdout
            .contains("  Titan: Quake Cannon, Warp Missile, Power Fist, Laser Burner\n")
    );
    let checked = check("netepic-titan-battlegroup.ros");
    assert!(checked.legal(), "{:?}", errors(&checked));
    let army = checked.army.as_ref().unwrap();
    assert_eq!((army.total, army.formations.len()), (2425, 1));
    assert_eq!(army.formations[0].titans.len(), 3);
    // A titan with three arm weapons breaks its own mounts, at its XML line.
    let text =
        fixture_text("netepic-titan-battlegroup.ros").replacen("\"Warp Missile\"", "\"Chain Fist\"", 1);
    let checked = check_bytes(
        catalogue(),
        &path("netepic-titan-battlegroup.ros"),
        text.as_bytes(),
    );
    // (The selection still states the Warp Missile's price: a cost mismatch too.)
    let broken: Vec<&Diagnostic> = checked
        .diagnostics
        .iter()
        .filter(|d| d.rule.as_ref().is_some_and(|r| r.id == "titan-weapon-mounts"))
        .collect();
    assert_eq!(broken.len(), 1, "{:?}", errors(&checked));
    // The third titan's selection.
    let titan = line_of(&text, "name=\"Warlord Titan\" entryId", 4);
    assert_eq!(place(broken[0]), (path("netepic-titan-battlegroup.ros"), titan));
}

/// A finding on a BattleScribe roster underlines the name or value it is
/// about, not the whole element (150 carets and more), and offers no fix
/// that edits roster text, which a BattleScribe file cannot take (issue 34,
/// item 13).
#[test]
fn findings_underline_the_name_and_offer_no_text_fixes() {
    for name in [
        "netea-mistakes.ros",
        "netea-codex-astartes.ros",
        "unknown-catalogue.ros",
        "bfg-armageddon-sector.rosz",
    ] {
        let checked = check(name);
        for d in &checked.diagnostics {
            if let Some(label) = &d.primary {
                let shown = &label.file.text()[label.span.start..label.span.end];
                assert!(
                    shown.len() <= 40 && !shown.contains('<'),
                    "{name}: {}: `{shown}`",
                    d.message
                );
            }
            assert_eq!(d.fix, None, "{name}: {}", d.message);
        }
    }
    let checked = check("netea-mistakes.ros");
    let formation = checked
        .diagnostics
        .iter()
        .find(|d| d.code == Code::UnknownFormation)
        .unwrap();
    let label = formation.primary.as_ref().unwrap();
    assert_eq!(&label.file.text()[label.span.start..label.span.end], "Tactikal");

    let checked = check("netea-codex-astartes.ros");
    assert!(
        checked.diagnostics.iter().any(|d| d.code == Code::NoVersion),
        "{:?}",
        checked.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>()
    );
    let run = muster(&["check", "-v", &path("netea-codex-astartes.ros")]);
    assert!(!run.stdout.contains("fix: Army:"), "{}", run.stdout);
    assert!(!run.stdout.contains(&"^".repeat(41)), "{}", run.stdout);
}
