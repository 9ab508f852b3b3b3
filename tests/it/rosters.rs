//! Tests as data: every roster under `tests/rosters/` is checked, and its
//! diagnostics must be exactly the ones annotated on its lines with `#!`
//! (see `tests/rosters/README.md`).

use muster::catalogue::Catalogue;
use muster::check::check_text_for;
use muster::diagnostic::Severity;
use muster::event::Event;
use muster::source::SourceFile;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// (line, severity, code, rule)
type Expectation = (usize, String, String, Option<String>);

fn expectations(text: &str) -> Vec<Expectation> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        for annotation in line.split("#!").skip(1) {
            if annotation.trim_start().starts_with("event ") {
                continue;
            }
            let mut words = annotation.split_whitespace();
            let (Some(severity), Some(code)) = (words.next(), words.next()) else {
                panic!("line {}: an annotation is `#! error CODE[:RULE]`", i + 1)
            };
            let (code, rule) = match code.split_once(':') {
                Some((code, rule)) => (code.to_string(), Some(rule.to_string())),
                None => (code.to_string(), None),
            };
            out.push((i + 1, severity.to_string(), code, rule));
        }
    }
    out
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "txt") {
            out.push(path);
        }
    }
}

/// Every roster case under `tests/rosters/`, in path order.
fn roster_cases() -> Vec<PathBuf> {
    let mut paths = Vec::new();
    files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rosters"),
        &mut paths,
    );
    paths.sort();
    paths
}

/// A roster case checked for an event says so on a line of its own:
/// `#! event events/name.yaml` (relative to `tests/`).
fn event_of(catalogue: &Catalogue, text: &str) -> Result<Option<Event>, String> {
    let Some(path) = text
        .lines()
        .find_map(|l| l.split_once("#! event ").map(|(_, p)| p.trim().to_string()))
    else {
        return Ok(None);
    };
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join(&path);
    let source = SourceFile::new(
        path.clone(),
        std::fs::read_to_string(&full).map_err(|e| format!("{path}: {e}"))?,
    );
    muster::event::load(source, catalogue)
        .map(Some)
        .map_err(|d| format!("{path} does not load: {d:#?}"))
}

/// The roster as muster reads it: each `#!` annotation blanked to spaces
/// (positions kept), so a case in Snapfire's export shape, which has no
/// comments, can carry annotations too.
fn blank_annotations(text: &str) -> String {
    text.split_inclusive('\n')
        .map(|line| match line.find("#!") {
            Some(at) => {
                let end = line.trim_end_matches(['\n', '\r']).len();
                format!("{}{}{}", &line[..at], " ".repeat(end - at), &line[end..])
            }
            None => line.to_string(),
        })
        .collect()
}

pub(crate) fn check_one(catalogue: &Catalogue, path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).unwrap();
    let name = path.display().to_string();
    let event = event_of(catalogue, &text)?;
    let result = check_text_for(catalogue, event.as_ref(), &name, &blank_annotations(&text));
    let expected = expectations(&text);
    let mut problems = Vec::new();

    let actual_errors: BTreeSet<(usize, String, Option<String>)> = result
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| {
            let line = d.line_col().map_or(0, |(l, _)| l);
            (
                line,
                d.code.as_str().to_string(),
                d.rule.as_ref().map(|r| r.id.clone()),
            )
        })
        .collect();
    let expected_errors: BTreeSet<(usize, String, Option<String>)> = expected
        .iter()
        .filter(|e| e.1 == "error")
        .map(|(line, _, code, rule)| (*line, code.clone(), rule.clone()))
        .collect();
    // An annotation without a rule matches a diagnostic of that code with any rule.
    let matches = |e: &(usize, String, Option<String>), a: &(usize, String, Option<String>)| {
        e.0 == a.0 && e.1 == a.1 && (e.2.is_none() || e.2 == a.2)
    };
    for e in &expected_errors {
        if !actual_errors.iter().any(|a| matches(e, a)) {
            problems.push(format!("expected error {} {:?} on line {}", e.1, e.2, e.0));
        }
    }
    for a in &actual_errors {
        if !expected_errors.iter().any(|e| matches(e, a)) {
            problems.push(format!("unexpected error {} {:?} on line {}", a.1, a.2, a.0));
        }
    }
    for (line, severity, code, rule) in expected.iter().filter(|e| e.1 != "error") {
        let found = result.diagnostics.iter().any(|d| {
            d.severity.as_str() == severity
                && d.code.as_str() == code
                && d.line_col().map_or(0, |(l, _)| l) == *line
                && (rule.is_none() || d.rule.as_ref().map(|r| &r.id) == rule.as_ref())
        });
        if !found {
            problems.push(format!("expected {severity} {code} {rule:?} on line {line}"));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{name}:\n  {}\n--- muster said:\n{}",
            problems.join("\n  "),
            muster::report::terminal::diagnostics(&result.diagnostics, false)
        ))
    }
}

#[test]
fn every_roster_case_gives_exactly_its_annotated_diagnostics() {
    let report = crate::common::embedded();
    assert!(!report.has_errors(), "{:#?}", report.diagnostics);
    let paths = roster_cases();
    assert!(paths.len() > 100, "only {} roster cases", paths.len());
    let failures: Vec<String> = paths
        .iter()
        .filter_map(|p| check_one(&report.catalogue, p).err())
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} roster cases failed:\n\n{}",
        failures.len(),
        paths.len(),
        failures.join("\n\n")
    );
}

/// Every constraint of every shipped list has a case that breaks it and one
/// that satisfies it.
#[test]
fn every_constraint_has_a_broken_and_an_ok_case() {
    let report = crate::common::embedded();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rosters");
    let mut missing = Vec::new();
    for list in &report.catalogue.lists {
        let dir = root.join(list.game.as_str()).join(&list.id);
        for c in &list.constraints {
            for kind in ["ok", "broken"] {
                let path = dir.join(format!("{}.{kind}.txt", c.id));
                if !path.exists() {
                    missing.push(path.display().to_string());
                }
            }
            let broken = dir.join(format!("{}.broken.txt", c.id));
            if let Ok(text) = std::fs::read_to_string(&broken) {
                let wanted = format!("list-rule:{}", c.id);
                if !text.contains(&wanted) {
                    missing.push(format!("{} does not expect {wanted}", broken.display()));
                }
            }
        }
    }
    assert!(missing.is_empty(), "missing cases:\n{}", missing.join("\n"));
}

/// Every rule of every scenario, and every points share, has a case that
/// breaks it and one that satisfies it, for the side it applies to:
/// `tests/rosters/<game>/scenarios/<scenario>/<side>-<rule>.{ok,broken}.txt`
/// (`<side>-points` for the share).
#[test]
fn every_scenario_rule_has_a_broken_and_an_ok_case() {
    use muster::catalogue::scenarios::Side;
    let report = crate::common::embedded();
    assert!(!report.has_errors(), "{:#?}", report.diagnostics);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rosters");
    let mut missing = Vec::new();
    let mut rules = 0;
    for scenario in &report.catalogue.scenarios {
        let dir = root
            .join(scenario.game.as_str())
            .join("scenarios")
            .join(&scenario.id);
        for side in [Side::Attacker, Side::Defender] {
            let part = scenario.side(side);
            let mut ids: BTreeSet<(String, String)> = report
                .catalogue
                .lists
                .iter()
                .flat_map(|l| part.rules_for(&l.id))
                .map(|c| (c.id.clone(), format!("scenario-rule:{}", c.id)))
                .collect();
            if part.points.is_some() {
                ids.insert(("points".into(), "scenario-rule:scenario-points".into()));
            }
            for (id, wanted) in ids {
                rules += 1;
                for kind in ["ok", "broken"] {
                    let path = dir.join(format!("{}-{id}.{kind}.txt", side.as_str()));
                    if !path.exists() {
                        missing.push(path.display().to_string());
                    }
                }
                let broken = dir.join(format!("{}-{id}.broken.txt", side.as_str()));
                if let Ok(text) = std::fs::read_to_string(&broken) {
                    if !text.contains(&wanted) {
                        missing.push(format!("{} does not expect {wanted}", broken.display()));
                    }
                }
            }
        }
    }
    assert!(rules >= 30, "only {rules} scenario rules and shares");
    assert!(missing.is_empty(), "missing cases:\n{}", missing.join("\n"));
}

/// `muster check --event E ROSTER` loads only the roster's list and the
/// lists the event allows (`catalogue::load_for_event`): every event case
/// reads the same with that catalogue as with every list, the event's own
/// findings and the roster's.
#[test]
fn an_event_check_reads_the_same_with_only_the_lists_it_needs() {
    let full = crate::common::catalogue();
    let paths = roster_cases();
    let mut smaller = 0;
    for path in &paths {
        let text = std::fs::read_to_string(path).unwrap();
        let Some(event_path) = text
            .lines()
            .find_map(|l| l.split_once("#! event ").map(|(_, p)| p.trim()))
        else {
            continue;
        };
        let roster = blank_annotations(&text);
        let Some(army) = muster::roster::army_name(&SourceFile::new("r.txt", roster.clone())) else {
            continue;
        };
        let event_text = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests")
                .join(event_path),
        )
        .unwrap();
        let source = SourceFile::new(event_path, event_text);
        let lists = muster::event::lists_named(&source).expect("the event names its game and lists");
        let key = muster::catalogue::ListKey::Name(army);
        let report = muster::catalogue::load_for_event(None, &key, &lists, false);
        assert!(!report.has_errors(), "{:#?}", report.diagnostics);
        let some = &report.catalogue;
        if some.lists.len() < full.lists.len() {
            smaller += 1;
        }
        let read = |catalogue: &Catalogue| match muster::event::load(source.clone(), catalogue) {
            Ok(event) => {
                let result = check_text_for(catalogue, Some(&event), "r.txt", &roster);
                muster::report::terminal::diagnostics(&result.diagnostics, false)
            }
            Err(problems) => muster::report::terminal::diagnostics(&problems, false),
        };
        assert_eq!(read(some), read(full), "{}", path.display());
    }
    assert!(smaller >= 10, "only {smaller} event cases loaded fewer lists");
}
