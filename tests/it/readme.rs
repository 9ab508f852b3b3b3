//! Every `console` example in README.md runs, and prints what the README
//! says it prints, so the documentation cannot drift from the program.
//!
//! In a ```console block, a line `$ muster ARGS` is a command and the lines
//! up to the next `$` are its output (standard output, then standard
//! error). A line `...` in the output stands for any number of lines; a
//! command whose comment says `first lines` shows only the start of its
//! output. Files a command writes (`--pdf`, `--html`, `--report`) go to a
//! temporary folder.

use std::path::Path;
use std::process::Command;

struct Example {
    line: usize,
    args: Vec<String>,
    expected: Vec<String>,
    prefix: bool,
}

/// Splits a command line as a shell would, for the quoting the README uses.
fn split(command: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in command.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    out.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            c => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(word);
    }
    out
}

fn examples(readme: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut in_console = false;
    for (i, line) in readme.lines().enumerate() {
        if line.starts_with("```") {
            in_console = line.trim() == "```console";
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ muster ") {
            let (command, comment) = match command.find("  #") {
                Some(at) => (&command[..at], &command[at..]),
                None => (command, ""),
            };
            out.push(Example {
                line: i + 1,
                args: split(command),
                expected: Vec::new(),
                prefix: comment.contains("first lines"),
            });
        } else if let Some(example) = out.last_mut() {
            example.expected.push(line.trim_end().to_string());
        }
    }
    out
}

/// Whether `actual` is what `expected` shows, `...` matching any lines.
fn matches(expected: &[String], actual: &[String], prefix: bool) -> bool {
    match expected.split_first() {
        None => prefix || actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..], prefix))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(a, more)| a == first && matches(rest, more, prefix)),
    }
}

#[test]
fn every_readme_example_prints_what_the_readme_shows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let examples = examples(&readme);
    assert!(examples.len() >= 10, "only {} examples found", examples.len());
    let out_dir = tempfile::tempdir().unwrap();
    let out = out_dir.path().display().to_string();
    let mut failures = Vec::new();
    let mut blessed: Vec<(usize, usize, Vec<String>)> = Vec::new();
    for example in &examples {
        // `dir/*.ext` expands as a shell would, in name order.
        let mut args: Vec<String> = Vec::new();
        for arg in &example.args {
            match arg.split_once("/*") {
                Some((dir, suffix)) if !arg.starts_with('-') => {
                    let mut found: Vec<String> = std::fs::read_dir(root.join(dir))
                        .unwrap()
                        .flatten()
                        .map(|e| e.file_name().to_string_lossy().to_string())
                        .filter(|n| n.ends_with(suffix) && !n.starts_with('.'))
                        .map(|n| format!("{dir}/{n}"))
                        .collect();
                    found.sort();
                    args.extend(found);
                }
                _ => args.push(arg.clone()),
            }
        }
        for i in 1..args.len() {
            if matches!(args[i - 1].as_str(), "--pdf" | "--html" | "--report") && args[i] != "-" {
                args[i] = format!("{out}/{}", args[i]);
            }
        }
        let run = Command::new(env!("CARGO_BIN_EXE_muster"))
            .args(&args)
            .current_dir(root)
            .env("NO_COLOR", "1")
            .env("SOURCE_DATE_EPOCH", "1764000000")
            .env_remove("CI")
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&run.stdout),
            String::from_utf8_lossy(&run.stderr)
        )
        .replace(&format!("{out}/"), "");
        let actual: Vec<String> = text.lines().map(|l| l.trim_end().to_string()).collect();
        let mut expected = example.expected.clone();
        while expected.last().is_some_and(|l| l.is_empty()) {
            expected.pop();
        }
        let mut actual_trimmed = actual.clone();
        while actual_trimmed.last().is_some_and(|l| l.is_empty()) {
            actual_trimmed.pop();
        }
        if !matches(&expected, &actual_trimmed, example.prefix) {
            let shown = if example.prefix {
                actual_trimmed[..expected.len().min(actual_trimmed.len())].to_vec()
            } else {
                actual_trimmed.clone()
            };
            blessed.push((example.line, example.expected.len(), shown));
            failures.push(format!(
                "README.md line {}: `muster {}`\n--- README shows:\n{}\n--- muster prints:\n{}",
                example.line,
                example.args.join(" "),
                expected.join("\n"),
                actual_trimmed.join("\n")
            ));
        }
    }
    if !failures.is_empty() && std::env::var("MUSTER_BLESS").is_ok_and(|v| v == "1") {
        // Replace each drifted output with what muster prints, from the
        // bottom up so earlier line numbers stay right.
        let mut lines: Vec<String> = readme.lines().map(str::to_string).collect();
        for (line, old, new) in blessed.into_iter().rev() {
            let start = line; // the output starts on the line after the command
            let mut old = old;
            while old > 0 && lines.get(start + old - 1).is_some_and(|l| l.trim().is_empty()) {
                old -= 1;
            }
            lines.splice(start..start + old, new);
        }
        std::fs::write(root.join("README.md"), lines.join("\n") + "\n").unwrap();
        return;
    }
    assert!(
        failures.is_empty(),
        "{} README examples drifted (MUSTER_BLESS=1 rewrites them; review the diff):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Every roster the README shows as an example of the format (a ```text
/// block with an `Army:` line) is a legal roster.
#[test]
fn every_roster_in_the_readme_is_legal() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let report = crate::common::embedded();
    let mut blocks = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (i, line) in readme.lines().enumerate() {
        match (&mut current, line.trim()) {
            (None, "```text") => current = Some((i + 2, String::new())),
            (Some(_), "```") => blocks.extend(current.take()),
            (Some((_, text)), _) => {
                text.push_str(line);
                text.push('\n');
            }
            _ => {}
        }
    }
    let rosters: Vec<_> = blocks.iter().filter(|(_, t)| t.contains("Army:")).collect();
    assert!(!rosters.is_empty());
    for (line, text) in rosters {
        let checked = muster::check::check_text(&report.catalogue, "README.md", text);
        assert!(
            checked.legal(),
            "the roster at README.md line {line} is not legal:\n{}",
            muster::report::terminal::diagnostics(&checked.diagnostics, false)
        );
    }
}
