//! Snapfire share links (issue 17): links generated from the legal test
//! roster of every NetEA list read back to the same army, legal at the same
//! points, and give the same link again; unknown ids, cut and hostile links
//! are clear errors in bounded time; the commands. (The README's example
//! runs in `readme.rs`.)

use crate::common::CpuClock;
use muster::catalogue::Catalogue;
use muster::check::{Checked, check_text};
use muster::diagnostic::Code;
use muster::import::snapfire::{self, Link};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

fn catalogue() -> &'static Catalogue {
    crate::common::catalogue()
}

/// NetEA lists whose Snapfire ids are not recorded yet: their links are
/// refused with a clear error. Remove a list from here once its ids land.
const WITHOUT_IDS: &[&str] = &[];

/// Lists whose test army a link carries only in Snapfire's terms: Death
/// Korps Commissars are not Snapfire picks (the link leaves them out) and
/// Snapfire sells "3 Hydra or Heavy AA Platform" as one pick (read back as
/// three Hydras, at the same points); Scions of Iron Rhinos are free and
/// not a Snapfire pick either.
const LOSSY: &[&str] = &["death-korps-of-krieg", "scions-of-iron"];

fn legal_rosters() -> Vec<(String, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rosters/netea");
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(&root)
        .unwrap()
        .filter_map(|e| {
            let dir = e.ok()?.path();
            let file = dir.join("legal-3000.txt");
            file.is_file()
                .then(|| (dir.file_name().unwrap().to_string_lossy().into_owned(), file))
        })
        .collect();
    out.sort();
    out
}

fn link_of(checked: &Checked<'_>) -> String {
    match &checked.share {
        Some(Ok(shared)) => shared.link.url(snapfire::DEFAULT_BASE),
        other => panic!("{}: no link: {other:?}", checked.name),
    }
}

/// A formation id with its upgrades and counts.
type Formation = (String, Vec<(String, u32)>);

/// What a check found, for comparing two checks of the same army.
fn army(checked: &Checked<'_>) -> (i64, Vec<Formation>) {
    let army = checked.army.as_ref().expect("the army resolves");
    let mut formations: Vec<Formation> = army
        .formations
        .iter()
        .map(|f| {
            let mut upgrades = f.upgrades.clone();
            upgrades.sort();
            (f.id.clone(), upgrades)
        })
        .collect();
    formations.sort();
    (army.total, formations)
}

fn errors(checked: &Checked<'_>) -> Vec<String> {
    checked
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("{}: {}", d.code, d.message))
        .collect()
}

#[test]
fn every_legal_netea_roster_round_trips_through_a_link() {
    let catalogue = catalogue();
    let mut tried = 0;
    for (list_id, path) in legal_rosters() {
        let text = std::fs::read_to_string(&path).unwrap();
        let original = check_text(catalogue, &path.display().to_string(), &text);
        assert!(original.legal(), "{}: {:?}", path.display(), errors(&original));
        let list = original.list.expect("the roster names its list");
        assert!(list.snapfire.file.is_some(), "{list_id} names no Snapfire file");
        if WITHOUT_IDS.contains(&list_id.as_str()) {
            assert!(
                !list.snapfire.has_ids(),
                "{list_id} has ids now: drop it from WITHOUT_IDS"
            );
            assert!(matches!(
                original.share,
                Some(Err(snapfire::ShareError::NoIds { .. }))
            ));
            continue;
        }
        let link = link_of(&original);

        // link -> roster, checked as any roster.
        let imported = check_text(catalogue, "<link>", &link);
        assert!(
            imported.legal(),
            "{list_id}: {link}\n{:?}\n{}",
            errors(&imported),
            imported
                .file
                .as_ref()
                .map(|f| f.text().to_string())
                .unwrap_or_default()
        );
        assert_eq!(imported.list.map(|l| &l.id), Some(&list.id), "{list_id}");

        // -> link again: the same.
        assert_eq!(link_of(&imported), link, "{list_id}");
        if LOSSY.contains(&list_id.as_str()) {
            assert_eq!(army(&imported).0, army(&original).0, "{list_id}: the same points");
        } else {
            assert_eq!(army(&imported), army(&original), "{list_id}: {link}");
        }
        tried += 1;
    }
    assert!(tried >= 23, "only {tried} lists round-tripped");
}

#[test]
fn the_imported_roster_text_checks_like_the_link() {
    let catalogue = catalogue();
    let (_, path) = legal_rosters().into_iter().find(|(id, _)| id == "tau").unwrap();
    let original = check_text(catalogue, "tau", &std::fs::read_to_string(path).unwrap());
    let link = Link::parse(&link_of(&original)).unwrap();
    let imported = snapfire::to_roster(&link, catalogue).unwrap();
    let from_text = check_text(catalogue, "text", &imported.roster);
    let from_link = check_text(catalogue, "link", &link.url("chooser.html"));
    assert_eq!(army(&from_text), army(&from_link));
    assert_eq!(errors(&from_text), errors(&from_link));
    assert!(
        imported.roster.starts_with("# From a Snapfire share link"),
        "{}",
        imported.roster
    );
}

fn white_scars_link() -> String {
    let (_, path) = legal_rosters()
        .into_iter()
        .find(|(id, _)| id == "white-scars")
        .unwrap();
    link_of(&check_text(
        catalogue(),
        "ws",
        &std::fs::read_to_string(path).unwrap(),
    ))
}

fn link_error(text: &str) -> String {
    let checked = check_text(catalogue(), "<link>", text);
    let d = checked
        .diagnostics
        .iter()
        .find(|d| d.code == Code::SnapfireLink)
        .unwrap_or_else(|| panic!("no snapfire-link error for {text}: {:?}", errors(&checked)));
    assert!(!checked.legal());
    format!("{} | {}", d.message, d.hints.join(" | "))
}

#[test]
fn unknown_ids_name_the_id_and_the_list() {
    let link = white_scars_link();
    let parsed = Link::parse(&link).unwrap();
    let formation = parsed.formations[0].id;
    let unknown_formation = link.replacen(&format!("~{formation}"), "~999", 1);
    let message = link_error(&unknown_formation);
    assert!(
        message.contains("White Scars has no formation with Snapfire id 999"),
        "{message}"
    );

    let pick = parsed.formations.iter().flat_map(|f| &f.picks).next().unwrap();
    let unknown_pick = link.replacen(&format!("~{}x", pick.id), "~498x", 1);
    let message = link_error(&unknown_pick);
    assert!(
        message.contains("White Scars has no upgrade with Snapfire id 498"),
        "{message}"
    );

    let unknown_list = link.replace("SM_scars_NETEA", "SM_scarz_NETEA");
    let message = link_error(&unknown_list);
    assert!(message.contains("no Snapfire list `SM_scarz_NETEA`"), "{message}");
    assert!(message.contains("did you mean `SM_scars_NETEA`"), "{message}");

    // An id Snapfire defines that muster leaves unmapped (Steel Legion's
    // unused '3 Basilisks') is an unknown id too.
    let steel = "chooser.html?list=IG_steelLegion_NETEA&force=A~502~41x1";
    let message = link_error(steel);
    assert!(
        message.contains("Steel Legion has no upgrade with Snapfire id 41"),
        "{message}"
    );
}

#[test]
fn a_link_cut_anywhere_is_an_error_or_a_smaller_army() {
    let link = white_scars_link();
    let force = link.find("force=").unwrap() + "force=".len();
    for end in 0..link.len() {
        let cut = &link[..end];
        let checked = check_text(catalogue(), "<cut>", cut);
        // Either it reads as fewer formations, or it says what is wrong;
        // it never panics and never reads as the whole army.
        if end > force && !checked.diagnostics.iter().any(|d| d.code == Code::SnapfireLink) {
            let read = Link::parse(cut).unwrap();
            assert!(read.formations.len() <= Link::parse(&link).unwrap().formations.len());
        }
    }
    // Cut inside a pick or an escape: the message says so.
    let inside_pick = &link[..link.rfind('x').unwrap() + 1];
    assert!(link_error(inside_pick).contains("cut short"), "{inside_pick}");
    let no_force = &link[..force - 3];
    assert!(link_error(no_force).contains("no `force=` part"));
    assert!(link_error(no_force).contains("cut long links"));
}

#[test]
fn hostile_links_fail_fast() {
    let base = "chooser.html?list=SM_scars_NETEA&force=A";
    // The lists load before the clock starts: the bound is on the links.
    catalogue();
    let start = CpuClock::start();
    let thousands = format!("{base}{}", "~511~11x1".repeat(5_000));
    assert!(link_error(&thousands).contains("more than 1000"));
    let huge = format!("{base}~511~11x99999999999999999999");
    assert!(link_error(&huge).contains("1 to 100 times"));
    let long = format!("{base}{}", "%41".repeat(100_000));
    assert!(link_error(&long).contains("at most"));
    let junk = format!("{base}~511~%ZZ");
    assert!(link_error(&junk).contains("escape"));
    let newline = format!("{base}%0AArmy%3A%20Tau~511");
    // A name cannot smuggle roster lines in: it stays in the comment.
    let checked = check_text(catalogue(), "<link>", &newline);
    let text = checked.file.as_ref().unwrap().text().to_string();
    assert!(text.contains("Army: White Scars"), "{text}");
    assert_eq!(text.matches("\nArmy:").count(), 1, "{text}");
    assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
}

#[test]
fn a_roster_with_absurd_counts_shares_quickly_or_says_why() {
    let start = CpuClock::start();
    let roster = "Army: White Scars\nPoints: 3000\n\nLand Raider: 999999999x Land Raider\n";
    let checked = check_text(catalogue(), "r", roster);
    assert!(checked.share.is_some());
    assert!(start.elapsed() < Duration::from_secs(5));
}

struct Run {
    stdout: String,
    stderr: String,
    status: i32,
}

fn muster(args: &[&str], input: Option<&str>) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_muster"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("muster runs");
    if let Some(input) = input {
        child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    }
    drop(child.stdin.take());
    let output = child.wait_with_output().unwrap();
    Run {
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        status: output.status.code().unwrap_or(-1),
    }
}

#[test]
fn the_commands_read_and_write_links() {
    let roster = "tests/rosters/netea/white-scars/legal-3000.txt";
    // muster's own link by default, Snapfire's on request (relative to
    // a chooser page given, or at Snapfire itself).
    let own = muster(&["roster", roster, "--share"], None);
    assert_eq!(own.status, 0, "{}", own.stderr);
    assert!(
        own.stdout.starts_with("http://127.0.0.1:8080/?r=1."),
        "{}",
        own.stdout
    );
    let own_checked = muster(&["check", own.stdout.trim()], None);
    assert_eq!(
        own_checked.status, 0,
        "{}{}",
        own_checked.stdout, own_checked.stderr
    );
    let own_imported = muster(&["import", own.stdout.trim()], None);
    assert_eq!(
        own_imported.stdout,
        std::fs::read_to_string(roster).unwrap(),
        "the link carries the roster as written"
    );
    let at_snapfire = muster(&["roster", roster, "--share=snapfire"], None);
    assert!(
        at_snapfire.stdout.starts_with(&format!(
            "{}?list=SM_scars_NETEA&force=",
            muster::import::snapfire::PUBLIC_URL
        )),
        "{}",
        at_snapfire.stdout
    );
    let shared = muster(&["roster", roster, "--share=snapfire:chooser.html"], None);
    assert_eq!(shared.status, 0, "{}", shared.stderr);
    let link = shared.stdout.trim().to_string();
    assert!(
        link.starts_with("chooser.html?list=SM_scars_NETEA&force="),
        "{link}"
    );
    assert_eq!(link, white_scars_link());

    let based = muster(
        &["roster", roster, "--share=https://example.org/chooser.html"],
        None,
    );
    assert!(
        based.stdout.starts_with("https://example.org/chooser.html?list="),
        "{}",
        based.stdout
    );

    let json = muster(&["check", roster, "--format", "json"], None);
    let json: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(json["rosters"][0]["share"], serde_json::json!(link));

    let checked = muster(&["check", &link], None);
    assert_eq!(checked.status, 0, "{}{}", checked.stdout, checked.stderr);
    assert!(checked.stdout.contains("legal"), "{}", checked.stdout);

    let imported = muster(&["import", &link], None);
    assert_eq!(imported.status, 0, "{}", imported.stderr);
    assert!(
        imported.stdout.contains("Army: White Scars"),
        "{}",
        imported.stdout
    );
    let again = muster(&["check", "-"], Some(&imported.stdout));
    assert_eq!(again.status, 0, "{}{}", again.stdout, again.stderr);

    // A file holding the link, and standard input.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("link.txt");
    std::fs::write(&file, format!("{link}\n")).unwrap();
    let from_file = muster(&["check", file.to_str().unwrap()], None);
    assert_eq!(from_file.status, 0, "{}{}", from_file.stdout, from_file.stderr);
    let from_stdin = muster(&["import", "-"], Some(&link));
    assert_eq!(from_stdin.stdout, imported.stdout);

    let bad = muster(
        &["check", "chooser.html?list=SM_scars_NETEA&force=A~511~11x"],
        None,
    );
    assert_eq!(bad.status, 1, "{}{}", bad.stdout, bad.stderr);
    assert!(bad.stdout.contains("snapfire-link"), "{}", bad.stdout);
    let bad_import = muster(
        &["import", "chooser.html?list=SM_scars_NETEA&force=A~511~11x"],
        None,
    );
    assert_eq!(bad_import.status, 2);
    assert!(bad_import.stderr.contains("cut short"), "{}", bad_import.stderr);

    let fleet_path = "tests/rosters/bfg/armageddon-sector/legal-1500.ok.txt";
    let own = muster(&["roster", "--share", fleet_path], None);
    assert_eq!(own.status, 0, "every game has muster's link: {}", own.stderr);
    let own = muster(&["check", own.stdout.trim()], None);
    assert_eq!(own.status, 0, "{}{}", own.stdout, own.stderr);
    // A link Snapfire cannot hold is a request muster cannot carry out:
    // the usage status (2), as the README's exit-status table says.
    let fleet = muster(&["roster", "--share=snapfire", fleet_path], None);
    assert_eq!(fleet.status, 2, "{}{}", fleet.stdout, fleet.stderr);
    assert!(
        fleet.stderr.contains("no Snapfire counterpart"),
        "{}",
        fleet.stderr
    );
}

#[test]
fn lists_check_refuses_clashing_and_missing_snapfire_ids() {
    let dir = tempfile::tempdir().unwrap();
    let list = "game: netea\nid: sf-test\nname: SF Test\nversion: '1'\nsource: []\nstrategy_rating: 2\n\
imports: { snapfire: SF, snapfire_file: SF_test_NETEA, snapfire_picks: [{ id: 7, gives: { nothing: 2 } }] }\n\
sections:\n  - id: s\n    name: S\n    formations:\n      - id: f\n        name: F\n        points: 100\n        initiative: 2+\n        snapfire_id: 500\n        upgrades: [u, v]\n      - id: g\n        name: G\n        points: 100\n        initiative: 2+\n        upgrades: [u]\n\
upgrades:\n  - id: u\n    name: U\n    points: 10\n    snapfire_ids: [500]\n  - id: v\n    name: V\n    points: 10\n";
    std::fs::write(dir.path().join("sf.yaml"), list).unwrap();
    let run = muster(
        &["--lists", dir.path().to_str().unwrap(), "lists", "--check"],
        None,
    );
    assert_eq!(run.status, 1, "{}", run.stdout);
    for wanted in [
        "Snapfire id 500 is already used at /sections/0/formations/0/snapfire_id",
        "formation `g` has no `snapfire_id`",
        "upgrade `v` has no `snapfire_ids`",
        "pick 7 gives `nothing`, which names no upgrade of the list",
    ] {
        assert!(run.stdout.contains(wanted), "{wanted}\n{}", run.stdout);
    }
}

/// `snapfire_ids_by_formation` of every NetEA list file, read from the
/// YAML: (list id, formation id, upgrade id, the ids a link writes there).
fn restricted_ids() -> Vec<(String, String, String, Vec<u32>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("lists/netea");
    let mut out = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    for file in files {
        let yaml: serde_yaml::Value = serde_yaml::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let Some(upgrades) = yaml["upgrades"].as_sequence() else {
            continue;
        };
        let list = yaml["id"].as_str().unwrap_or_default().to_string();
        for upgrade in upgrades {
            let Some(map) = upgrade["snapfire_ids_by_formation"].as_mapping() else {
                continue;
            };
            for (formation, ids) in map {
                let ids = ids
                    .as_sequence()
                    .unwrap()
                    .iter()
                    .map(|i| u32::try_from(i.as_u64().unwrap()).unwrap())
                    .collect();
                out.push((
                    list.clone(),
                    formation.as_str().unwrap().to_string(),
                    upgrade["id"].as_str().unwrap().to_string(),
                    ids,
                ));
            }
        }
    }
    out
}

#[test]
fn per_formation_ids_are_read_and_written_in_their_formation() {
    let catalogue = catalogue();
    let cases = restricted_ids();
    assert!(cases.len() >= 100, "only {} restricted pairs", cases.len());
    let mut upgrades = std::collections::BTreeSet::new();
    for (list_id, formation_id, upgrade_id, allowed) in &cases {
        upgrades.insert((list_id.clone(), upgrade_id.clone()));
        let list = catalogue.list(list_id).unwrap();
        let f = list
            .formations
            .iter()
            .position(|f| &f.id == formation_id)
            .unwrap();
        let formation_sf = list.snapfire.formation_ids[f].unwrap();
        let file = list.snapfire.file.as_deref().unwrap();
        let u = list.upgrades.iter().position(|u| &u.id == upgrade_id).unwrap();
        for &id in allowed {
            // A link taking that id once in that formation reads as the
            // upgrade, and is written back with the formation's ids only.
            let link = format!("chooser.html?list={file}&force=A~{formation_sf}~{id}x1");
            let checked = check_text(catalogue, "<link>", &link);
            let army = checked
                .army
                .as_ref()
                .unwrap_or_else(|| panic!("{link}: {:?}", errors(&checked)));
            let taken = &army.formations[0].upgrades;
            assert!(
                taken.iter().any(|(name, _)| name == &list.upgrades[u].name),
                "{link}: {upgrade_id} not read: {taken:?}"
            );
            let again = link_of(&checked);
            let read = Link::parse(&again).unwrap();
            for pick in &read.formations[0].picks {
                let gives_it = list
                    .snapfire
                    .pick(pick.id)
                    .unwrap()
                    .gives
                    .iter()
                    .any(|&(g, _)| g == u);
                assert!(
                    !gives_it || allowed.contains(&pick.id),
                    "{list_id}: {formation_id} writes {upgrade_id} as pick {} (allowed {allowed:?}): {link} -> {again}",
                    pick.id
                );
            }
            // The same upgrades again (ids that read alike, such as two
            // single Land Raider picks, may come back as the lowest).
            let back = check_text(catalogue, "<again>", &again);
            let mut first = taken.clone();
            let mut second = back.army.as_ref().unwrap().formations[0].upgrades.clone();
            first.sort();
            second.sort();
            assert_eq!(
                first, second,
                "{list_id}: {formation_id}, {upgrade_id}: {link} -> {again}"
            );
            if allowed.len() == 1 {
                assert_eq!(again, link, "{list_id}: {formation_id}, {upgrade_id}");
            }
        }
    }
    // 36 once the lists followed the pack (2026-11): several per-formation
    // ids became entries of their own.
    assert!(upgrades.len() >= 30, "only {} upgrades", upgrades.len());
}

#[test]
fn per_formation_ids_written_by_another_formation_are_read_and_corrected() {
    // Big Gun (56) is the Warband's pick and Big Gunz (43) the Gunzmob's;
    // a link with them the wrong way round still reads, and the link
    // muster writes back uses each formation's own id.
    let link = "chooser.html?list=ORK_ghazgkhull_NETEA&force=A~500~43x2~513~56x5";
    let checked = check_text(catalogue(), "<link>", link);
    assert!(checked.army.is_some(), "{:?}", errors(&checked));
    assert_eq!(
        link_of(&checked),
        "chooser.html?list=ORK_ghazgkhull_NETEA&force=A~500~56x2~513~43x5"
    );
}

#[test]
fn lists_check_refuses_bad_per_formation_ids() {
    let dir = tempfile::tempdir().unwrap();
    let list = "game: netea\nid: sf-test-two\nname: SF Test Two\nversion: '1'\nsource: []\nstrategy_rating: 2\n\
imports: { snapfire: SF2, snapfire_file: SF_two_NETEA }\n\
sections:\n  - id: s\n    name: S\n    formations:\n      - id: f\n        name: F\n        points: 100\n        initiative: 2+\n        snapfire_id: 500\n        upgrades: [u]\n      - id: g\n        name: G\n        points: 100\n        initiative: 2+\n        snapfire_id: 501\n        upgrades: []\n\
upgrades:\n  - id: u\n    name: U\n    points: 10\n    snapfire_ids: [1, 2]\n    snapfire_ids_by_formation: { f: [3], g: [1], nowhere: [2] }\n";
    std::fs::write(dir.path().join("sf.yaml"), list).unwrap();
    let run = muster(
        &["--lists", dir.path().to_str().unwrap(), "lists", "--check"],
        None,
    );
    assert_eq!(run.status, 1, "{}", run.stdout);
    for wanted in [
        "Snapfire id 3 is not a pick of `u`",
        "formation `g` does not offer `u`",
        "`nowhere` in `snapfire_ids_by_formation` names no formation of the list",
    ] {
        assert!(run.stdout.contains(wanted), "{wanted}\n{}", run.stdout);
    }
}
