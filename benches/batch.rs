//! Organiser-scale throughput: generates rosters from the shipped lists
//! (legal and broken), checks them in parallel with the whole catalogue
//! loaded, and reports rosters per second and peak memory.
//!
//! `cargo bench --bench batch` runs 10,000 and 100,000 rosters in memory
//! (generated and checked in chunks, results folded into counts, so memory
//! must not grow with the number of rosters), then 10,000 roster files in a
//! temporary folder through `batch::collect` and `batch::check_each`, the
//! path `muster check DIR` takes. `RAYON_NUM_THREADS` sets the threads.
//! Arguments replace the in-memory sizes: `cargo bench --bench batch -- 5000`.
//! `cargo bench --bench batch -- --write DIR 50000` only writes a folder of
//! that many rosters, to time the binary over it or measure its memory.

use muster::catalogue::{ArmyList, Catalogue};
use muster::check::{self, Checked};
use rayon::prelude::*;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// The binary's allocator (`src/main.rs`), so the bench measures what
/// `muster check` does.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Rosters generated and checked at a time: enough to keep every thread
/// busy, small enough that memory stays flat.
const CHUNK: usize = 4096;

/// A small deterministic generator (xorshift64*), so every run checks the
/// same rosters.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// Roster `n`: a few formations of one list with some upgrades; about a
/// third carry a deliberate mistake (a misspelt name, an unknown upgrade, a
/// wrong stated cost, a low points limit or an unknown army).
fn roster(catalogue: &Catalogue, n: usize) -> String {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (n as u64 + 1).wrapping_mul(0xBF58_476D_1CE4_E5B9));
    let list: &ArmyList = &catalogue.lists[rng.below(catalogue.lists.len())];
    let mistake = if rng.chance(35) { rng.below(5) + 1 } else { 0 };
    let mut text = String::new();
    let army = if mistake == 5 {
        "Squats of Doom"
    } else {
        list.name.as_str()
    };
    let _ = writeln!(text, "# generated roster {n}");
    let _ = writeln!(text, "Army: {army} ({})", list.version);
    let _ = writeln!(text, "Points: {}", if mistake == 4 { 1000 } else { 3000 });
    let _ = writeln!(text, "Player: Player {n}\n");
    let formations = 3 + rng.below(6);
    let broken_line = rng.below(formations);
    for i in 0..formations {
        let formation = &list.formations[rng.below(list.formations.len())];
        let mut name = formation.name.clone();
        if mistake == 1 && i == broken_line && name.len() > 3 {
            // Swap two letters: the kind of typo a "did you mean" answers.
            let mut chars: Vec<char> = name.chars().collect();
            chars.swap(1, 2);
            name = chars.into_iter().collect();
        }
        text.push_str(&name);
        let mut upgrades: Vec<String> = Vec::new();
        for _ in 0..rng.below(3) {
            if formation.upgrades.is_empty() {
                break;
            }
            let upgrade = &list.upgrades[formation.upgrades[rng.below(formation.upgrades.len())]];
            if rng.chance(20) {
                upgrades.push(format!("2x {}", upgrade.name));
            } else {
                upgrades.push(upgrade.name.clone());
            }
        }
        if mistake == 2 && i == broken_line {
            upgrades.push("Frobnication Engine".to_string());
        }
        if !upgrades.is_empty() {
            let _ = write!(text, ": {}", upgrades.join(", "));
        }
        if mistake == 3 && i == broken_line {
            text.push_str("   [1]");
        }
        text.push_str("   # a comment\n");
    }
    text
}

#[derive(Default, Clone, Copy)]
struct Counts {
    rosters: usize,
    legal: usize,
    diagnostics: usize,
}

impl Counts {
    fn of(c: &Checked<'_>) -> Counts {
        Counts {
            rosters: 1,
            legal: usize::from(c.legal()),
            diagnostics: c.diagnostics.len(),
        }
    }

    fn add(self, o: Counts) -> Counts {
        Counts {
            rosters: self.rosters + o.rosters,
            legal: self.legal + o.legal,
            diagnostics: self.diagnostics + o.diagnostics,
        }
    }
}

/// Peak resident memory of this process (Linux's VmHWM), in MiB.
fn peak_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

fn mib(value: Option<f64>) -> String {
    value.map_or_else(|| "unknown".to_string(), |v| format!("{v:.1} MiB"))
}

/// Generates and checks `total` rosters chunk by chunk; returns the counts
/// and the time spent checking (generation excluded).
fn in_memory(catalogue: &Catalogue, total: usize) -> (Counts, Duration) {
    let mut counts = Counts::default();
    let mut checking = Duration::ZERO;
    let mut start = 0;
    while start < total {
        let end = (start + CHUNK).min(total);
        let texts: Vec<String> = (start..end)
            .into_par_iter()
            .map(|n| roster(catalogue, n))
            .collect();
        let t = Instant::now();
        let chunk = texts
            .par_iter()
            .enumerate()
            .map(|(i, text)| {
                Counts::of(&check::check_text(
                    catalogue,
                    &format!("r{}.txt", start + i),
                    text,
                ))
            })
            .reduce(Counts::default, Counts::add);
        checking += t.elapsed();
        counts = counts.add(chunk);
        start = end;
    }
    (counts, checking)
}

fn report(label: &str, counts: Counts, elapsed: Duration) {
    let secs = elapsed.as_secs_f64();
    println!(
        "{label}: {} rosters ({} legal, {} diagnostics) in {secs:.3} s: {:.0} rosters/s; peak memory {}",
        counts.rosters,
        counts.legal,
        counts.diagnostics,
        counts.rosters as f64 / secs,
        mib(peak_mib()),
    );
}

/// Writes `count` generated rosters under `dir` (50 subfolders), as the
/// file run reads them and as `muster check DIR` can be timed over.
fn write_folder(catalogue: &Catalogue, dir: &std::path::Path, count: usize) -> std::io::Result<()> {
    for n in 0..count {
        let sub = dir.join(format!("batch-{:02}", n % 50));
        std::fs::create_dir_all(&sub)?;
        std::fs::write(sub.join(format!("roster-{n:06}.txt")), roster(catalogue, n))?;
    }
    Ok(())
}

fn main() {
    // As the binary sets it (`src/main.rs`): freed memory returned at once.
    // SAFETY: stores a number in mimalloc's option table (option 15,
    // `mi_option_purge_delay`).
    unsafe { libmimalloc_sys::mi_option_set(15, 0) };
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `-- --write DIR N`: only write a folder of N rosters (for timing the
    // binary over it, or its peak memory), then stop.
    if let Some(at) = args.iter().position(|a| a == "--write") {
        let dir = args.get(at + 1).map(std::path::PathBuf::from).unwrap_or_default();
        let count = args.get(at + 2).and_then(|n| n.parse().ok()).unwrap_or(10_000);
        let report_ = muster::catalogue::load_embedded();
        match write_folder(&report_.catalogue, &dir, count) {
            Ok(()) => println!("wrote {count} rosters under {}", dir.display()),
            Err(e) => eprintln!("cannot write the rosters: {e}"),
        }
        return;
    }
    // `cargo bench` passes `--bench`; numbers replace the default sizes.
    let mut sizes: Vec<usize> = args.iter().filter_map(|a| a.parse().ok()).collect();
    if sizes.is_empty() {
        sizes = vec![10_000, 100_000];
    }
    let t = Instant::now();
    let report_ = muster::catalogue::load_embedded();
    let catalogue = &report_.catalogue;
    println!(
        "catalogue: {} lists, {} datasheets loaded in {:.1} ms; {} threads; peak memory {}",
        catalogue.lists.len(),
        catalogue.datasheets.len(),
        t.elapsed().as_secs_f64() * 1000.0,
        rayon::current_num_threads(),
        mib(peak_mib()),
    );
    for &size in &sizes {
        let (counts, elapsed) = in_memory(catalogue, size);
        report(&format!("in memory, {size}"), counts, elapsed);
    }

    // The CLI's path: files on disk, walked, read with the cap, checked,
    // results kept (the table needs them).
    let files = sizes.first().copied().unwrap_or(10_000).min(10_000);
    let dir = match tempfile::tempdir() {
        Ok(dir) => dir,
        Err(e) => {
            eprintln!("no temporary folder for the file run: {e}");
            return;
        }
    };
    if let Err(e) = write_folder(catalogue, dir.path(), files) {
        eprintln!("cannot write the rosters: {e}");
        return;
    }
    // What `cat` does over the same files: walk and read each, nothing more
    // (both runs find the files in the page cache: this one warms it).
    let t = Instant::now();
    let inputs = muster::batch::collect(&[dir.path().to_path_buf()]);
    let bytes: usize = inputs
        .iter()
        .filter_map(|i| std::fs::read(i.path()).ok())
        .map(|b| b.len())
        .sum();
    let reading = t.elapsed();
    println!(
        "files, {files}: walk and read only ({bytes} bytes) in {:.3} s: {:.0} files/s",
        reading.as_secs_f64(),
        files as f64 / reading.as_secs_f64()
    );
    let t = Instant::now();
    let inputs = muster::batch::collect(&[dir.path().to_path_buf()]);
    // As `muster check DIR` does: each result cut down to its row and
    // duplicate keys as soon as it is checked.
    let mut rows = Vec::with_capacity(inputs.len());
    let mut keys = Vec::with_capacity(inputs.len());
    let mut counts = Counts::default();
    muster::batch::check_each(
        &inputs,
        // As the CLI checks for its table: no share links and no
        // formation facts, which only the detailed documents print.
        |bytes, name| {
            let wants = check::Wants {
                points: None,
                share_link: false,
                facts: false,
            };
            check::check_bytes_with(catalogue, None, name, bytes, wants)
        },
        |c| {
            (
                Counts::of(&c),
                muster::report::summary::Row::of(&c),
                muster::batch::Keys::of(&c),
            )
        },
        &|| {},
        |_, (c, row, key)| {
            counts = counts.add(c);
            rows.push(row);
            keys.push(key);
        },
    );
    let duplicates = muster::batch::duplicates_of(&keys);
    let elapsed = t.elapsed();
    report(
        &format!("files, {files} (walk, read, check, rows, duplicates)"),
        counts,
        elapsed,
    );
    println!(
        "  {:.2}x the time of walking and reading alone",
        elapsed.as_secs_f64() / reading.as_secs_f64()
    );
    let flagged = duplicates.iter().filter(|d| !d.is_empty()).count();
    println!("  {flagged} rosters flagged as duplicates");
}
