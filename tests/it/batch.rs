//! `muster check` over an event's worth of rosters: folders walked in path
//! order, every kind of bad file reported without stopping the run, exit
//! statuses, duplicates, and the HTML, CSV and JSON reports (escaped,
//! written atomically).
//!
//! Each test builds its own temporary folder of submissions and runs the
//! real binary inside it, so file names in the output are short and stable.

use std::path::Path;
use std::process::{Command, Stdio};

struct Run {
    stdout: String,
    stderr: String,
    status: i32,
}

fn muster_in(dir: &Path, args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_muster"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("muster runs");
    Run {
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        status: output.status.code().unwrap_or(-1),
    }
}

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name),
    )
    .unwrap()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

const ORKS: &str =
    "Army: Ghazghkull Thraka's War Horde\nPoints: 3000\nPlayer: Grukk\n\nWarband: Warlord, Battlewagon\n";

/// A folder as an organiser's inbox looks: good lists, bad lists, and
/// files that are not lists at all, some in a subfolder.
fn inbox() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    write(&subs, "alice.txt", &fixture("legal.txt"));
    write(&subs, "bob.txt", &fixture("illegal.txt"));
    write(&subs, "carol-snapfire.txt", &fixture("snapfire.txt"));
    write(&subs, "late/grukk.txt", ORKS.as_bytes());
    write(&subs, "late/empty.txt", b"\n   \n# nothing yet\n");
    write(&subs, "photo.jpg", b"\xff\xd8\xff\xe0\x00\x10JFIF\x00");
    write(&subs, "latin1.txt", b"Army: Codex Astartes\nPlayer: Ren\xe9\n");
    write(&subs, "huge.txt", &vec![b'#'; (1 << 20) + 1]);
    write(
        &subs,
        "notes.txt",
        b"Dear organiser, my list follows next week.\nCheers\n",
    );
    write(&subs, ".DS_Store", b"\x00\x00\x00\x01Bud1");
    dir
}

#[test]
fn a_folder_is_walked_in_path_order_and_every_file_gets_a_line() {
    let dir = inbox();
    let run = muster_in(dir.path(), &["check", "subs"]);
    assert_eq!(run.status, 1, "{}{}", run.stdout, run.stderr);
    // No progress bar when the output is not a terminal.
    assert_eq!(run.stderr, "");
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn json_lists_rosters_in_path_order() {
    let dir = inbox();
    let run = muster_in(dir.path(), &["check", "--format", "json", "subs"]);
    assert_eq!(run.status, 1);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let files: Vec<&str> = value["rosters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["file"].as_str().unwrap())
        .collect();
    assert_eq!(
        files,
        [
            "subs/alice.txt",
            "subs/bob.txt",
            "subs/carol-snapfire.txt",
            "subs/huge.txt",
            "subs/late/empty.txt",
            "subs/late/grukk.txt",
            "subs/latin1.txt",
            "subs/notes.txt",
            "subs/photo.jpg",
        ]
    );
}

#[test]
fn exit_statuses_tell_a_bad_submission_from_a_bad_command() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "good/a.txt", &fixture("legal.txt"));
    write(dir.path(), "good/b.txt", &fixture("snapfire.txt"));
    assert_eq!(muster_in(dir.path(), &["check", "good"]).status, 0);

    // An unreadable file inside a folder is a bad submission: 1.
    write(dir.path(), "mixed/a.txt", &fixture("legal.txt"));
    write(dir.path(), "mixed/b.bin", b"\x00\x01\x02");
    let run = muster_in(dir.path(), &["check", "mixed"]);
    assert_eq!(run.status, 1, "{}", run.stdout);
    assert!(run.stdout.contains("binary"), "{}", run.stdout);

    // A path the user named that does not exist, or a named folder with
    // nothing in it, is a mistake in the command: 2.
    let run = muster_in(dir.path(), &["check", "good", "no-such-folder"]);
    assert_eq!(run.status, 2);
    assert!(run.stdout.contains("no-such-folder"), "{}", run.stdout);
    std::fs::create_dir_all(dir.path().join("nothing")).unwrap();
    let run = muster_in(dir.path(), &["check", "nothing"]);
    assert_eq!(run.status, 2);
    assert!(run.stdout.contains("holds no files"), "{}", run.stdout);

    // So is a report name whose format cannot be told; nothing is checked.
    let run = muster_in(dir.path(), &["check", "good", "--report", "out.txt"]);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains(".html, .csv or .json"), "{}", run.stderr);
    assert_eq!(run.stdout, "");
}

#[test]
fn one_file_still_gets_its_findings_in_full() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "bob.txt", &fixture("illegal.txt"));
    let run = muster_in(dir.path(), &["check", "bob.txt"]);
    assert_eq!(run.status, 1);
    assert!(run.stdout.contains("error[unknown-formation]"), "{}", run.stdout);
    assert!(!run.stdout.contains("FIRST ERROR"), "{}", run.stdout);
    // A folder holding one file gets the table.
    write(dir.path(), "one/bob.txt", &fixture("illegal.txt"));
    let run = muster_in(dir.path(), &["check", "one"]);
    assert!(run.stdout.starts_with("FILE"), "{}", run.stdout);
}

#[test]
fn duplicates_are_flagged_but_do_not_make_a_list_illegal() {
    let dir = tempfile::tempdir().unwrap();
    let legal = String::from_utf8(fixture("legal.txt")).unwrap();
    write(dir.path(), "in/jane.txt", legal.as_bytes());
    // The same list sent again under another name, with different spacing,
    // comments and case: still the same list.
    let resent = legal
        .replace("Player: Jane Doe", "Player: J. Doe")
        .replace("Tactical Detachment:", "TACTICAL   detachment :")
        .replace("[200]", "[200]   # the cruiser");
    let resent = format!("# sent again\n\n{resent}");
    write(dir.path(), "in/jd-again.txt", resent.as_bytes());
    // Jane again, with another list.
    let other = "Army: Steel Legion\nPoints: 2000\nPlayer:   jane   DOE\n\nInfantry Company\n";
    write(dir.path(), "in/jane-2.txt", other.as_bytes());
    let run = muster_in(dir.path(), &["check", "in", "--format", "text"]);
    assert!(
        run.stdout
            .contains("duplicate: in/jane-2.txt and in/jane.txt name the same player (jane   DOE)"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("duplicate: in/jane.txt and in/jd-again.txt hold the same list"),
        "{}",
        run.stdout
    );
    assert!(
        !run.stdout.contains("in/jane-2.txt and in/jd-again.txt"),
        "{}",
        run.stdout
    );

    let run = muster_in(dir.path(), &["check", "in", "--report", "r.json"]);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("r.json")).unwrap()).unwrap();
    let jane = report["rosters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["file"] == "in/jane.txt")
        .unwrap();
    assert_eq!(jane["status"], "legal", "{}", run.stdout);
    assert_eq!(
        jane["duplicates"],
        serde_json::json!([
            {"kind": "same-player", "file": "in/jane-2.txt"},
            {"kind": "same-list", "file": "in/jd-again.txt"},
        ])
    );
    assert_eq!(report["totals"]["duplicates"], 2);
}

/// A set of three or more duplicates: each roster's row in every report
/// names every other roster of the set (issue 34, item 10), as the
/// terminal's line does, not only the one it is linked to.
#[test]
fn every_report_row_names_the_whole_set_of_duplicates() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["a", "b", "c", "d"] {
        write(dir.path(), &format!("in/{name}.txt"), &fixture("legal.txt"));
    }
    let run = muster_in(dir.path(), &["check", "in", "--report", "r.json"]);
    assert!(
        run.stdout
            .contains("duplicate: in/a.txt, in/b.txt, in/c.txt and 1 more hold the same list"),
        "{}",
        run.stdout
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("r.json")).unwrap()).unwrap();
    for roster in report["rosters"].as_array().unwrap() {
        let me = roster["file"].as_str().unwrap();
        let others: Vec<&str> = roster["duplicates"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["kind"] == "same-list")
            .map(|d| d["file"].as_str().unwrap())
            .collect();
        let expected: Vec<String> = ["a", "b", "c", "d"]
            .iter()
            .map(|n| format!("in/{n}.txt"))
            .filter(|f| f != me)
            .collect();
        assert_eq!(others, expected, "{roster}");
        assert!(roster.get("duplicates_not_listed").is_none(), "{roster}");
    }

    muster_in(dir.path(), &["check", "in", "--report", "r.csv"]);
    let csv = std::fs::read_to_string(dir.path().join("r.csv")).unwrap();
    let row = csv.lines().find(|l| l.starts_with("in/c.txt,")).unwrap();
    assert!(
        row.contains("same list as in/a.txt, in/b.txt and in/d.txt"),
        "{row}"
    );

    muster_in(dir.path(), &["check", "in", "--report", "r.html"]);
    let html = std::fs::read_to_string(dir.path().join("r.html")).unwrap();
    assert!(
        html.contains("same list as in/a.txt, in/c.txt and in/d.txt"),
        "{html}"
    );
}

#[test]
fn reports_in_each_format() {
    let dir = inbox();
    let run = muster_in(dir.path(), &["check", "subs", "--report", "out/report.html"]);
    // The report's folder must exist: muster writes files, not folders.
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("cannot write out/report.html"),
        "{}",
        run.stderr
    );
    assert!(!dir.path().join("out").exists());

    std::fs::create_dir_all(dir.path().join("out")).unwrap();
    for name in ["report.html", "report.csv", "report.json"] {
        let run = muster_in(dir.path(), &["check", "subs", "--report", &format!("out/{name}")]);
        assert_eq!(run.status, 1, "{}", run.stderr);
        assert_eq!(run.stderr, format!("wrote out/{name}\n"));
    }
    // Written through a temporary file that was renamed: nothing else left.
    let mut left: Vec<String> = std::fs::read_dir(dir.path().join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["report.csv", "report.html", "report.json"]);

    let read = |name: &str| std::fs::read_to_string(dir.path().join("out").join(name)).unwrap();
    insta::assert_snapshot!("html_report", read("report.html"));
    insta::assert_snapshot!("csv_report", read("report.csv"));

    let json: serde_json::Value = serde_json::from_str(&read("report.json")).unwrap();
    let schema_text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/check-report.schema.json"),
    )
    .unwrap();
    let schema: serde_json::Value = serde_json::from_str(&schema_text).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator.iter_errors(&json).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    assert_eq!(json["legal"], false);
    assert_eq!(
        json["totals"],
        serde_json::json!({
            "rosters": 9, "legal": 3, "illegal": 1, "unreadable": 4, "not_a_roster": 1, "duplicates": 0
        })
    );
    let bob = &json["rosters"][1];
    assert_eq!(bob["file"], "subs/bob.txt");
    assert_eq!(bob["status"], "illegal");
    assert_eq!(bob["army_name"], "Codex Astartes");
    assert_eq!(
        bob["first_error"],
        "line 5: Codex Astartes has no formation called `Tacticle`"
    );
    let codes: Vec<&str> = bob["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["severity"] == "error")
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(
        codes,
        ["unknown-formation", "unknown-upgrade", "list-rule", "list-rule"]
    );
}

#[test]
fn a_failed_write_keeps_the_previous_report() {
    let dir = inbox();
    std::fs::write(dir.path().join("report.html"), "previous report").unwrap();
    // A folder in the report's place cannot be replaced by a file.
    std::fs::create_dir_all(dir.path().join("taken.csv")).unwrap();
    let run = muster_in(dir.path(), &["check", "subs", "--report", "taken.csv"]);
    assert_eq!(run.status, 2);
    assert!(dir.path().join("taken.csv").is_dir());
    let leftovers = std::fs::read_dir(dir.path())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .contains("muster-report")
        })
        .count();
    assert_eq!(leftovers, 0, "the temporary file is removed");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("report.html")).unwrap(),
        "previous report"
    );
}

/// Markup and quotes in every field a roster has: header values, names of
/// formations and upgrades, counts-as, comments, and the file name.
const HOSTILE: &str = r#"'"><script>alert(1)</script><img src=x onerror=alert(2)>"#;

#[test]
fn everything_a_roster_contains_is_escaped_in_the_html_report() {
    let dir = tempfile::tempdir().unwrap();
    let h = HOSTILE;
    let rosters = [
        format!("Army: {h}\nPoints: 2000\nPlayer: {h}\nEvent: {h}\n\nTactical\n"),
        format!(
            "Army: Codex Astartes ({h})\nPoints: 2000\nPlayer: {h}\nEvent: {h}\n\n{h}: {h}, 2x {h} [1]  # {h}\nTactical: {h}\n    {h}\nCounts as: {h} = {h}\n"
        ),
        format!(
            "{h}, 3000 POINTS\nCodex Astartes ({h})\n=====\n\n{h} [325]\n6 Tacticals plus transport, {h}\n"
        ),
        format!("{h}\n"),
    ];
    for (i, text) in rosters.iter().enumerate() {
        write(dir.path(), &format!("in/{i}.txt"), text.as_bytes());
    }
    // The file name carries markup too (quotes and angle brackets are
    // legal in Unix file names); `/` is not, so the payload is shortened.
    write(
        dir.path(),
        "in/\"><script>alert(3)<\\script>'.txt",
        rosters[1].as_bytes(),
    );

    let run = muster_in(dir.path(), &["check", "in", "--report", "report.html"]);
    assert_eq!(run.status, 1, "{}", run.stderr);
    let html = std::fs::read_to_string(dir.path().join("report.html")).unwrap();
    // The payload reached the report (escaped), so the test means something.
    assert!(
        html.contains("&#60;script&#62;alert(1)&#60;/script&#62;"),
        "{html}"
    );
    assert!(html.contains("alert(3)"), "{html}");
    // No markup of the roster's survives: the only script is muster's own,
    // there is no image, and no quote broke out of an attribute.
    assert_eq!(html.matches("<script").count(), 1);
    assert_eq!(html.matches("</script>").count(), 1);
    assert!(!html.contains("<img"));
    assert!(!html.contains("'\">"));
    // Every tag is one of the template's own: the roster's text, escaped,
    // has no `<` of its own, so no tag and no attribute carries it.
    for tag in html.split('<').skip(1).map(|t| t.split('>').next().unwrap_or(t)) {
        assert!(!tag.contains("alert"), "a roster's text reached a tag: <{tag}>");
    }
}

#[test]
fn duplicates_are_found_on_the_text_that_matters() {
    let report = crate::common::embedded();
    let catalogue = &report.catalogue;
    let check = |name: &str, text: &str| muster::check::check_bytes(catalogue, name, text.as_bytes());
    let results = [
        check(
            "a",
            "Army: Codex Astartes\nPoints: 2000\nPlayer: A\n\nTactical: Captain\n",
        ),
        check(
            "b",
            "# again\nARMY:  codex astartes\npoints: 2000\nPlayer: B\nTactical:Captain # x\n",
        ),
        check(
            "c",
            "Army: Codex Astartes\nPoints: 2000\nPlayer: a\n\nTactical: Captain, Rhinos\n",
        ),
        check("d", "\u{0}binary"),
    ];
    let found = muster::batch::duplicates(&results);
    use muster::batch::{Duplicate, DuplicateKind::*};
    assert_eq!(
        found[0],
        [
            Duplicate {
                kind: SamePlayer,
                other: 2
            },
            Duplicate {
                kind: SameList,
                other: 1
            }
        ]
    );
    assert_eq!(
        found[1],
        [Duplicate {
            kind: SameList,
            other: 0
        }]
    );
    assert_eq!(
        found[2],
        [Duplicate {
            kind: SamePlayer,
            other: 0
        }]
    );
    assert!(found[3].is_empty());
}

/// Issue 19: the HTML report showed a squadron at 0 points (its own cost)
/// where the terminal and the PDF give its ships' sum; every output takes
/// the one figure, `ArmySummary::points_of`.
#[test]
fn the_html_report_prices_a_squadron_as_the_terminal_does() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "fleet.txt", &fixture("fleet.txt"));
    write(dir.path(), "legal.txt", &fixture("legal.txt"));
    let run = muster_in(dir.path(), &["check", "fleet.txt"]);
    let squadron = run
        .stdout
        .lines()
        .find(|l| l.trim_start().starts_with("Escort squadron"))
        .unwrap_or_else(|| panic!("{}", run.stdout));
    let points: i64 = squadron.split_whitespace().nth(2).unwrap().parse().unwrap();
    assert!(points > 0, "{squadron}");
    muster_in(dir.path(), &["check", ".", "--report", "r.html"]);
    let html = std::fs::read_to_string(dir.path().join("r.html")).unwrap();
    assert!(
        html.contains(&format!(
            "<tr><td>Escort squadron</td><td class=\"num\">{points}</td></tr>"
        )),
        "{html}"
    );
    assert!(html.contains("<tr><td>↳ Firestorm-class frigate</td>"), "{html}");
}

/// Duplicates are found in linear time and reported once per set: 2,000
/// copies of one list give 2,000 links and one line, not 4 million pairs;
/// Snapfire's force name does not make a list different.
#[test]
fn duplicates_are_reported_once_per_set_in_linear_size() {
    let report = crate::common::embedded();
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/codex-astartes-3000.txt"),
    )
    .unwrap()
    .replace("Player:", "# Player:");
    let results: Vec<_> = (0..2000)
        .map(|i| muster::check::check_text(&report.catalogue, &format!("in/{i:04}.txt"), &text))
        .collect();
    let links = muster::batch::duplicates(&results);
    assert_eq!(links.iter().map(Vec::len).sum::<usize>(), 2000);
    let groups = muster::batch::duplicate_groups(&links);
    assert_eq!(groups.len(), 1);
    assert_eq!(groups[0].members.len(), 2000);
    let summary = muster::report::summary::Summary::new(&results, &links, None);
    let table = muster::report::summary::table(&summary);
    assert!(
        table.contains("duplicate: in/0000.txt, in/0001.txt, in/0002.txt and 1997 more hold the same list"),
        "{}",
        &table[table.len().saturating_sub(400)..]
    );
    assert!(
        table.contains("; 1 set of duplicates"),
        "{}",
        &table[table.len().saturating_sub(200)..]
    );

    // The same Snapfire export under two force names is one list.
    let export =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/snapfire.txt"))
            .unwrap();
    let first_line = export.lines().next().unwrap().to_string();
    let renamed = export.replacen(
        &first_line,
        &first_line.replacen(|c: char| c.is_alphabetic(), "Z", 1),
        1,
    );
    assert_ne!(export, renamed);
    let pair = [
        muster::check::check_text(&report.catalogue, "a.txt", &export),
        muster::check::check_text(&report.catalogue, "b.txt", &renamed),
    ];
    assert_eq!(
        muster::batch::duplicate_groups(&muster::batch::duplicates(&pair)).len(),
        1
    );
}

/// What a batch skips for its table (share links, formation facts) changes
/// nothing it prints: over every roster case, the findings, the row and the
/// duplicate keys are those of a full check; and an unknown army's hints,
/// remembered after the first roster that names it, are the same for the
/// rosters after.
#[test]
fn a_check_for_the_table_finds_what_a_full_check_finds() {
    let report = crate::common::embedded();
    let catalogue = &report.catalogue;
    let mut paths = Vec::new();
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rosters")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                paths.push(path);
            }
        }
    }
    paths.sort();
    assert!(paths.len() > 100, "{} roster cases", paths.len());
    let table = muster::check::Wants {
        points: None,
        share_link: false,
        facts: false,
    };
    let seen = |c: &muster::check::Checked<'_>| {
        let findings: Vec<String> = c
            .diagnostics
            .iter()
            .map(|d| format!("{:?} {:?} {:?} {}", d.severity, d.code, d.line_col(), d.message))
            .collect();
        let row = muster::report::summary::Row::of(c);
        (
            findings,
            format!("{row:?}"),
            muster::batch::Keys::of(c),
            c.army.as_ref().map(|a| (a.total, a.formations.len())),
        )
    };
    for path in &paths {
        let bytes = std::fs::read(path).unwrap();
        let name = path.display().to_string();
        let full = muster::check::check_bytes_with(catalogue, None, &name, &bytes, muster::check::Wants::ALL);
        let slim = muster::check::check_bytes_with(catalogue, None, &name, &bytes, table);
        assert_eq!(seen(&full), seen(&slim), "{name}");
        assert!(slim.share.is_none(), "{name}");
    }

    let unknown = "Army: Squats of Doom\nPoints: 3000\nTactical\n";
    let first = muster::check::check_text(catalogue, "a.txt", unknown);
    let again = muster::check::check_text(catalogue, "a.txt", unknown);
    assert_eq!(
        format!("{:?}", first.diagnostics),
        format!("{:?}", again.diagnostics)
    );
    let d = &first.diagnostics[0];
    assert_eq!(d.code, muster::diagnostic::Code::UnknownArmy);
    assert!(
        d.hints
            .iter()
            .any(|h| h.starts_with("the nearest lists muster knows: ")),
        "{:?}",
        d.hints
    );
}

/// More rosters than the batch checks at a time and than the table writes
/// in one block: every line still in path order, with its own roster's
/// cells, every column aligned under its heading.
#[test]
fn a_large_folder_keeps_its_order_across_chunks_and_blocks() {
    let dir = tempfile::tempdir().unwrap();
    let count = 1100;
    for i in 0..count {
        // Names of different lengths, one cut in the table.
        let player = match i % 3 {
            0 => format!("P{i}"),
            1 => format!("Player number {i}"),
            _ => format!("A player whose name is far too long {i}"),
        };
        let text = ORKS.replace("Grukk", &player);
        write(dir.path(), &format!("in/{}/{i:05}.txt", i % 4), text.as_bytes());
    }
    let run = muster_in(dir.path(), &["check", "in"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    let mut expected: Vec<usize> = (0..count).collect();
    expected.sort_by_key(|i| (i % 4, *i));
    let header = lines[0];
    let player_at = header.find("PLAYER").unwrap();
    // The heading is ASCII: its byte offsets are character counts.
    let status_at = header.find("STATUS").unwrap();
    for (line, i) in lines[1..=count].iter().zip(&expected) {
        assert!(line.starts_with(&format!("in/{}/{i:05}.txt ", i % 4)), "{line}");
        let player = &line[player_at..];
        assert!(
            player.starts_with(&format!("P{i} "))
                || player.starts_with(&format!("Player number {i} "))
                || player.starts_with("A player whose name is …"),
            "{line}"
        );
        // By characters: a cut name ends in a character of several bytes.
        let status: String = line.chars().skip(status_at).collect();
        assert!(status.starts_with("legal"), "{line}");
    }
    // One list sent under many names: one set of duplicates.
    assert_eq!(
        lines[count + 1..],
        [
            "",
            "duplicate: in/0/00000.txt, in/0/00004.txt, in/0/00008.txt and 1097 more hold the same list",
            "",
            "1100 rosters: 1100 legal, 0 not legal, 0 unreadable; 1 set of duplicates",
        ]
    );
    // A named path that cannot be read, in the last chunk, is still told
    // apart from the walked files before it: a usage error.
    let run = muster_in(dir.path(), &["check", "in", "missing.txt"]);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stdout.contains("\nmissing.txt "), "{}", run.stdout);
}

/// A batch keeps no rows: the table's cells and the reports' rows wait in
/// temporary files and are read back in order. What it prints and writes is
/// what the library makes from rows kept in memory (as `muster serve`
/// does), with duplicates of both kinds, a control character and
/// non-ASCII names.
#[test]
fn a_batch_writes_what_rows_kept_in_memory_give() {
    use muster::report::{batch_json::stream, csv, html, summary};
    let dir = tempfile::tempdir().unwrap();
    let legal = String::from_utf8(fixture("legal.txt")).unwrap();
    write(dir.path(), "in/jane.txt", legal.as_bytes());
    let again = legal.replace("Player: Jane Doe", "Player: Jérôme \u{7}Ünïcode");
    write(dir.path(), "in/jane-again.txt", again.as_bytes());
    let other = "Army: Steel Legion\nPoints: 2000\nPlayer: jane doe\n\nInfantry Company\n";
    write(dir.path(), "in/jérôme.txt", other.as_bytes());
    write(dir.path(), "in/empty.txt", b"");
    let folder = dir.path().join("in");
    let folder_arg = folder.to_str().unwrap();

    // Kept: every result checked whole, then the rows made of them.
    let report = crate::common::embedded();
    let inputs = muster::batch::collect(std::slice::from_ref(&folder));
    let results = muster::batch::check_all(
        &inputs,
        |bytes, name| muster::check::check_bytes(&report.catalogue, name, bytes),
        &|| {},
    );
    let links = muster::batch::duplicates(&results);
    let kept = summary::Summary::new(&results, &links, None);
    let table = summary::table(&kept);
    assert!(table.contains("name the same player (Jane Doe)"), "{table}");
    assert!(table.contains("hold the same list"), "{table}");
    assert!(table.contains("Jérôme ?Ünïcode"), "{table}");

    let run = muster_in(dir.path(), &["check", folder_arg]);
    let hint = "hint: `--report report.html` writes every finding of every roster\n";
    assert_eq!(run.stdout, format!("{table}{hint}"));
    assert_eq!(run.status, 1);

    let mut expected_csv = Vec::new();
    csv::write(&kept, &mut expected_csv).unwrap();
    let expected_html = html::render(&kept, &results).unwrap();
    let mut expected_json = Vec::new();
    let mut parts = results.iter().map(|c| Ok(stream::fragment(c).into_bytes()));
    stream::write_report(&mut expected_json, &kept, &mut parts).unwrap();
    for (name, expected) in [
        ("r.csv", expected_csv),
        ("r.html", expected_html.into_bytes()),
        ("r.json", expected_json),
    ] {
        let run = muster_in(dir.path(), &["check", folder_arg, "--report", name]);
        assert_eq!(run.stdout, table, "{name}");
        assert_eq!(run.status, 1, "{name}");
        let written = std::fs::read(dir.path().join(name)).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&written),
            String::from_utf8_lossy(&expected),
            "{name}"
        );
    }
}
