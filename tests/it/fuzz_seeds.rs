//! The fuzz harness on stable (issue 21). The bodies of the cargo-fuzz
//! targets (`fuzz/fuzz_targets/*.rs`) are `muster::fuzz_support`; this runs
//! every one of them over
//!
//! - its seed corpus, collected here from the tests and the shipped data
//!   (`MUSTER_FUZZ_SEEDS=fuzz/corpus cargo test --test it fuzz_seeds`
//!   writes it out for `cargo fuzz`, see `fuzz/README.md`),
//! - a bounded number of seeded mutations of those seeds, and
//! - every finding of a fuzzing run, kept in `fuzz/regressions/<target>/`,
//!
//! so the harness cannot rot and no finding comes back.

use muster::catalogue::Catalogue;
use muster::fuzz_support::{self, TARGETS};
use std::path::{Path, PathBuf};

fn catalogue() -> &'static Catalogue {
    crate::common::catalogue()
}

fn files(dir: &Path, ext: Option<&str>, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, ext, out);
        } else if ext.is_none_or(|ext| path.extension().is_some_and(|e| e == ext)) {
            out.push(path);
        }
    }
    out.sort();
}

/// Every string value in the YAML files under `dir` for which `keep(key)`
/// holds (`key` is the mapping key it sits under, if any).
fn yaml_strings(dir: &str, keep: &dyn Fn(Option<&str>) -> bool) -> Vec<Vec<u8>> {
    fn walk(
        value: &serde_yaml::Value,
        key: Option<&str>,
        keep: &dyn Fn(Option<&str>) -> bool,
        out: &mut Vec<Vec<u8>>,
    ) {
        match value {
            serde_yaml::Value::String(s) if keep(key) && s.len() < 200 => out.push(s.as_bytes().to_vec()),
            serde_yaml::Value::Sequence(items) => items.iter().for_each(|v| walk(v, key, keep, out)),
            serde_yaml::Value::Mapping(map) => {
                for (k, v) in map {
                    walk(v, k.as_str(), keep, out);
                }
            }
            _ => {}
        }
    }
    let mut paths = Vec::new();
    files(Path::new(dir), Some("yaml"), &mut paths);
    let mut out = Vec::new();
    for path in paths {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        if let Ok(value) = serde_yaml::from_str::<serde_yaml::Value>(&text) {
            walk(&value, None, keep, &mut out);
        }
    }
    out.sort();
    out.dedup();
    out
}

fn read_all(paths: &[PathBuf]) -> Vec<Vec<u8>> {
    paths.iter().filter_map(|p| std::fs::read(p).ok()).collect()
}

/// Datasheet values: strings under keys that hold notation.
fn notation_key(key: Option<&str>) -> bool {
    !matches!(
        key,
        None | Some(
            "name"
                | "id"
                | "aliases"
                | "document"
                | "covers"
                | "decisions"
                | "faults"
                | "summary"
                | "notes_text"
                | "text"
                | "game"
                | "version"
                | "source"
                | "description"
        )
    )
}

/// The seed corpus of `target`.
fn seeds(target: &str) -> Vec<Vec<u8>> {
    let mut rosters = Vec::new();
    files(Path::new("tests/rosters"), Some("txt"), &mut rosters);
    files(Path::new("tests/fixtures"), Some("txt"), &mut rosters);
    match target {
        "roster" | "check" => {
            let mut out = read_all(&rosters);
            if target == "check" {
                out.extend(seeds("snapfire_link"));
            }
            out
        }
        "event" => {
            let mut events = Vec::new();
            files(Path::new("tests/events"), Some("yaml"), &mut events);
            read_all(&events)
        }
        "rule" => {
            let mut out = yaml_strings("lists", &|k| k == Some("rule"));
            out.extend(yaml_strings("tests/events", &|k| k == Some("rule")));
            out.extend(yaml_strings("tests/fixtures", &|k| k == Some("rule")));
            out
        }
        "notation_epic" => yaml_strings("lists/netea", &notation_key),
        "notation_bfg" => yaml_strings("lists/bfg", &notation_key),
        "notation_space_fleet" => yaml_strings("lists/space-fleet", &notation_key),
        "notation_netepic" => yaml_strings("lists/netepic/datasheets", &notation_key),
        "notation_heresy" => {
            // No Heresy list ships: the made-up fixture and the starter.
            let mut out = yaml_strings("tests/fixtures/heresy", &notation_key);
            out.extend(yaml_strings("assets/heresy", &notation_key));
            out
        }
        "snapfire_link" => {
            // The link of every legal NetEA test roster that has one.
            let mut legal = Vec::new();
            files(Path::new("tests/rosters/netea"), Some("txt"), &mut legal);
            let mut out: Vec<Vec<u8>> = legal
                .iter()
                .filter(|p| p.file_name().is_some_and(|n| n == "legal-3000.txt"))
                .filter_map(|p| {
                    let text = std::fs::read_to_string(p).ok()?;
                    let checked = muster::check::check_text(catalogue(), "seed.txt", &text);
                    let shared = checked.share?.ok()?;
                    Some(
                        shared
                            .link
                            .url(muster::import::snapfire::DEFAULT_BASE)
                            .into_bytes(),
                    )
                })
                .collect();
            out.push(b"chooser.html?list=SM_scars_NETEA&force=A~511~11x".to_vec());
            out
        }
        "battlescribe" => {
            let mut paths = Vec::new();
            files(Path::new("tests/fixtures/battlescribe"), None, &mut paths);
            read_all(&paths)
        }
        "yaml" => {
            let mut out = seeds("event");
            let mut lists = Vec::new();
            files(Path::new("lists/netea"), Some("yaml"), &mut lists);
            out.extend(read_all(&lists));
            out
        }
        other => panic!("no seeds for {other}"),
    }
}

/// The saved findings of `target`, and its corpus as a libFuzzer run left
/// it, minimised (`fuzz/corpus-min/<target>/`, see `fuzz/README.md`).
fn regressions(target: &str) -> Vec<Vec<u8>> {
    let mut paths = Vec::new();
    files(&Path::new("fuzz/regressions").join(target), None, &mut paths);
    files(&Path::new("fuzz/corpus-min").join(target), None, &mut paths);
    read_all(&paths)
}

/// A small deterministic generator (xorshift), so a failure reproduces.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Pieces that reached faults before: long runs, counts, nesting, escapes.
const SPLICES: &[&[u8]] = &[
    b"999999999x ",
    b"                                        ",
    b"\t\t\t\t\t\t\t\t",
    b"((((((((((",
    b"))))))))))",
    b"not not not ",
    b"- - - - ",
    b"\x1b[2J",
    b"\r",
    b"\n  ",
    b", Zq, Zq, Zq",
    b"[[[[[[[[",
    b"{a: {a: {a: ",
    b"9223372036854775808",
    b"\xff\xfe",
    b"\0",
    b"#",
    b":",
    b"~",
    b"%",
    b"\t",
    "\u{2028}".as_bytes(),
    "\u{85}".as_bytes(),
    "\u{202e}".as_bytes(),
    b"id: x\nid: y\n",
    b" a=\"1\" b=\"2\"",
    b"<force catalogueName=\"Orks\"/>",
];

/// One mutation of `seed`: bytes flipped, cut, duplicated or spliced.
fn mutate(seed: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = seed.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(out.len() + 1);
        match rng.below(5) {
            0 if !out.is_empty() => {
                let i = rng.below(out.len());
                out[i] = rng.next() as u8;
            }
            1 if !out.is_empty() => {
                let end = (at + rng.below(16)).min(out.len());
                out.drain(at..end);
            }
            2 if !out.is_empty() => {
                let end = (at + 1 + rng.below(32)).min(out.len());
                let piece = out[at.min(end)..end].to_vec();
                for _ in 0..1 + rng.below(50) {
                    out.splice(at..at, piece.iter().copied());
                }
            }
            _ => {
                let splice = SPLICES[rng.below(SPLICES.len())];
                out.splice(at..at, splice.iter().copied());
            }
        }
    }
    out
}

/// Mutations per target on every `cargo test`: a cheap stand-in for a run.
const MUTATIONS: usize = 300;

fn run_target(target: &str) {
    let seeds = seeds(target);
    assert!(!seeds.is_empty(), "{target}: no seeds");
    if let Some(dir) = std::env::var_os("MUSTER_FUZZ_SEEDS") {
        let dir = Path::new(&dir).join(target);
        std::fs::create_dir_all(&dir).unwrap();
        for (i, seed) in seeds.iter().enumerate() {
            std::fs::write(dir.join(format!("seed-{i:05}")), seed).unwrap();
        }
    }
    let catalogue = catalogue();
    let stride = crate::common::stride();
    for input in seeds.iter().step_by(stride).chain(&regressions(target)) {
        assert!(fuzz_support::run(target, input, catalogue));
    }
    // `MUSTER_FUZZ_MUTATIONS=N` runs more (a poor man's fuzzer on stable).
    let mutations = std::env::var("MUSTER_FUZZ_MUTATIONS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(MUTATIONS / stride);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ target.len() as u64);
    for _ in 0..mutations {
        let input = mutate(&seeds[rng.below(seeds.len())], &mut rng);
        fuzz_support::run(target, &input, catalogue);
    }
}

#[test]
fn fuzz_seeds_every_target_is_tested() {
    let mut targets: Vec<String> = std::fs::read_dir("fuzz/fuzz_targets")
        .unwrap()
        .flatten()
        .filter_map(|e| Some(e.path().file_stem()?.to_str()?.to_string()))
        .collect();
    targets.sort();
    let mut known: Vec<String> = TARGETS.iter().map(|t| t.to_string()).collect();
    known.sort();
    assert_eq!(targets, known);
    // Findings are kept only for targets that exist.
    if let Ok(entries) = std::fs::read_dir("fuzz/regressions") {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            assert!(TARGETS.contains(&name.as_str()), "fuzz/regressions/{name}");
        }
    }
}

#[test]
fn fuzz_seeds_roster() {
    run_target("roster");
}

#[test]
fn fuzz_seeds_notation_epic() {
    run_target("notation_epic");
}

#[test]
fn fuzz_seeds_notation_bfg() {
    run_target("notation_bfg");
}

#[test]
fn fuzz_seeds_notation_space_fleet() {
    run_target("notation_space_fleet");
}

#[test]
fn fuzz_seeds_notation_heresy() {
    run_target("notation_heresy");
}

#[test]
fn fuzz_seeds_notation_netepic() {
    run_target("notation_netepic");
}

#[test]
fn fuzz_seeds_rule() {
    run_target("rule");
}

#[test]
fn fuzz_seeds_event() {
    run_target("event");
}

#[test]
fn fuzz_seeds_check() {
    run_target("check");
}

#[test]
fn fuzz_seeds_snapfire_link() {
    run_target("snapfire_link");
}

#[test]
fn fuzz_seeds_battlescribe() {
    run_target("battlescribe");
}

#[test]
fn fuzz_seeds_yaml() {
    run_target("yaml");
}
