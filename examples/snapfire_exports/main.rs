//! Snapfire's text export and share link, generated from Snapfire's own list
//! files, read back by muster: a differential test of the roster reader.
//!
//! For every NetEA list that names its Snapfire file (`imports.snapfire_file`)
//! it reads that file, builds random forces (random formations; Snapfire's
//! mandatory picks, swaps among their options and further picks from the
//! formation's own upgrade list, within Snapfire's maximum counts; legality
//! is not required), writes each as Snapfire's `Force.plainText` and
//! `Force.pickle` would (war/js/Force.js), and checks that muster reads back
//! the formations, the picks (through the list's recorded ids) and
//! Snapfire's points.
//!
//! `cargo run --release --example snapfire_exports -- [DIR] [FORCES] [SEED]`
//! from the repository's root (defaults `../shared/reference/snapfire-netea`,
//! or `../../shared/...` from a worktree, 300 forces a list, seed 1). It needs the
//! Snapfire files, so it is not part of `cargo test`; every misread it finds
//! becomes a fixture under `tests/`. `MUSTER_LISTS=DIR` checks against the
//! list files in DIR (as `--lists` does) instead of the built-in ones, and
//! `ONLY=id,id` runs only those lists.

mod model;

use model::{Force, Rng, SfList};
use muster::catalogue::{ArmyList, Catalogue, Checks, GameId, load_embedded, load_with};
use muster::check::check_text;
use muster::diagnostic::Code;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What a force read back as, or how it differed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    MisreadFormation,
    MisreadPick,
    /// Picks read otherwise, but the same units at the same points: where
    /// Snapfire's text says no more (a core item and a paid extra of the
    /// same name at the same cost, in an order a swap made).
    Equivalent,
    PointsDiffer,
    PriceDecision,
    /// A pick Snapfire sells in a formation where the pack does not offer
    /// it: read, and refused by name (`upgrade-not-allowed`).
    PackForbids,
}

impl Kind {
    fn label(self) -> &'static str {
        match self {
            Kind::MisreadFormation => "misread formation",
            Kind::MisreadPick => "misread pick",
            Kind::Equivalent => "same units and points, picks ambiguous in Snapfire's text",
            Kind::PointsDiffer => "points differ",
            Kind::PriceDecision => "price differs from the pack (list decision)",
            Kind::PackForbids => "pick the pack does not offer there, refused by name (list decision)",
        }
    }
}

/// One finding: its kind, whether it came from the link, and what differed.
struct Finding {
    kind: Kind,
    link: bool,
    detail: String,
}

#[derive(Default)]
struct Tally {
    forces: usize,
    identical: usize,
    equivalent: usize,
    by_kind: BTreeMap<(Kind, bool), (usize, Vec<String>)>,
}

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().map_or_else(default_dir, PathBuf::from);
    let forces: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(300);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let catalogue = match std::env::var_os("MUSTER_LISTS") {
        Some(dir) => load_with(Some(Path::new(&dir)), Checks::Added).catalogue,
        None => load_embedded().catalogue,
    };
    let only: Vec<String> = std::env::var("ONLY")
        .map(|o| o.split(',').map(|s| s.trim().to_string()).collect())
        .unwrap_or_default();
    let lists: Vec<&ArmyList> = catalogue
        .lists
        .iter()
        .filter(|l| l.game == GameId::Netea && l.snapfire.file.is_some())
        .filter(|l| only.is_empty() || only.contains(&l.id))
        .collect();
    let (mut all_forces, mut all_identical, mut all_equivalent) = (0, 0, 0);
    for list in &lists {
        match run_list(&catalogue, list, &dir, forces, seed) {
            Ok(tally) => {
                all_forces += tally.forces;
                all_identical += tally.identical;
                all_equivalent += tally.equivalent;
                print_tally(list, &tally);
            }
            Err(e) => println!("{}: not run: {e}", list.id),
        }
    }
    println!(
        "\nall {} lists: {all_forces} forces, {all_identical} read back identically, {all_equivalent} with the same units and points",
        lists.len()
    );
}

/// `../shared/reference/snapfire-netea`, or one level further up from a
/// worktree under `wt/`.
fn default_dir() -> PathBuf {
    let near = PathBuf::from("../shared/reference/snapfire-netea");
    let far = PathBuf::from("../../shared/reference/snapfire-netea");
    if near.is_dir() || !far.is_dir() { near } else { far }
}

fn run_list(
    catalogue: &Catalogue,
    list: &ArmyList,
    dir: &Path,
    forces: usize,
    seed: u64,
) -> Result<Tally, String> {
    let stem = list.snapfire.file.as_deref().unwrap_or_default();
    let path = dir.join(format!("{stem}.json"));
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let sf = SfList::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut rng =
        Rng::new(seed ^ (list.id.len() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ hash(&list.id));
    let mut tally = Tally::default();
    let usable = sf.usable_formations(list);
    if usable.is_empty() {
        return Err("no formation of Snapfire's file has an id muster knows".to_string());
    }
    for n in 0..forces {
        let force = Force::random(&sf, list, &usable, &mut rng, n);
        let findings = compare(catalogue, list, &sf, &force, stem);
        tally.forces += 1;
        if findings.iter().all(|f| f.kind == Kind::PriceDecision) {
            tally.identical += 1;
        } else if findings
            .iter()
            .all(|f| matches!(f.kind, Kind::PriceDecision | Kind::Equivalent | Kind::PackForbids))
        {
            tally.equivalent += 1;
        }
        for f in findings {
            let entry = tally.by_kind.entry((f.kind, f.link)).or_default();
            entry.0 += 1;
            if entry.1.len() < 3 {
                entry.1.push(f.detail);
            }
        }
    }
    Ok(tally)
}

fn hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

fn print_tally(list: &ArmyList, tally: &Tally) {
    println!(
        "{}: {} forces, {} read back identically, {} with the same units and points",
        list.id, tally.forces, tally.identical, tally.equivalent
    );
    for ((kind, link), (count, examples)) in &tally.by_kind {
        let from = if *link { "share link" } else { "text export" };
        println!("  {} ({from}): {count}", kind.label());
        for e in examples {
            println!("    - {}", e.replace('\n', "\n      "));
        }
    }
}

/// The force read back from its text export and from its share link.
fn compare(catalogue: &Catalogue, list: &ArmyList, sf: &SfList, force: &Force, stem: &str) -> Vec<Finding> {
    let mut findings = Vec::new();
    for (link, text) in [(false, force.plain_text(sf)), (true, force.share_link(stem))] {
        let checked = check_text(catalogue, "generated", &text);
        let read = checked.army.map(|a| a.formations).unwrap_or_default();
        let notes: Vec<String> = checked
            .diagnostics
            .iter()
            .filter(|d| d.code.is_unplaced() || d.code == Code::SnapfireLink)
            .map(|d| format!("{}: {}", d.code.as_str(), d.message))
            .collect();
        let mut add = |kind: Kind, what: String| {
            let detail = format!("{what}\n{}\n{}", notes.join("\n"), shown(&text, link));
            findings.push(Finding { kind, link, detail });
        };
        let expected = force.expected(list);
        if read.len() != expected.len() || read.iter().zip(&expected).any(|(r, e)| r.id != e.id) {
            let ids: Vec<&str> = read.iter().map(|r| r.id.as_str()).collect();
            let want: Vec<&str> = expected.iter().map(|e| e.id.as_str()).collect();
            add(Kind::MisreadFormation, format!("read {ids:?}, expected {want:?}"));
            continue;
        }
        for ((r, e), made) in read.iter().zip(&expected).zip(&force.formations) {
            let got: BTreeMap<String, u32> = r.upgrades.iter().cloned().collect();
            if got != e.upgrades {
                let same_units = model::units(list, &got) == model::units(list, &e.upgrades);
                let same = same_units && r.points == made.points(sf);
                let refused = |name: &String| {
                    checked.diagnostics.iter().any(|d| {
                        d.code.as_str() == "upgrade-not-allowed"
                            && d.message.ends_with(&format!(" may not take {name}"))
                    })
                };
                let missing: Vec<&String> = e
                    .upgrades
                    .keys()
                    .filter(|n| got.get(*n) != e.upgrades.get(*n))
                    .collect();
                let kind = if same {
                    Kind::Equivalent
                } else if same_units && made.price_differs(sf, list) {
                    Kind::PriceDecision
                } else if missing.iter().any(|n| refused(n)) && {
                    // What is left once the refused picks are left out
                    // (a 0-point pick that adds nothing may read as the
                    // formation's own unit).
                    let kept: BTreeMap<String, u32> = e
                        .upgrades
                        .iter()
                        .filter(|(n, _)| !refused(n))
                        .map(|(n, c)| (n.clone(), *c))
                        .collect();
                    missing.iter().all(|n| refused(n))
                        || model::units(list, &got) == model::units(list, &kept)
                } {
                    Kind::PackForbids
                } else {
                    Kind::MisreadPick
                };
                add(kind, format!("{}: read {got:?}, expected {:?}", r.id, e.upgrades));
            } else if r.points != made.points(sf) {
                let kind = if made.price_differs(sf, list) {
                    Kind::PriceDecision
                } else {
                    Kind::PointsDiffer
                };
                add(
                    kind,
                    format!("{}: muster {}, Snapfire {}", r.id, r.points, made.points(sf)),
                );
            }
        }
    }
    findings
}

/// The generated roster as shown in a report: a link whole, an export
/// without its header.
fn shown(text: &str, link: bool) -> String {
    if link {
        text.to_string()
    } else {
        text.lines()
            .skip(3)
            .filter(|l| !l.trim().is_empty())
            .collect::<Vec<_>>()
            .join("\n")
    }
}
