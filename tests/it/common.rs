//! What several test modules need: running the muster binary the way the
//! printing tests do (from the repository, no colour, a fixed date).

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

/// `SOURCE_DATE_EPOCH` for printed documents:
/// 2026-11-22, so the printed date is stable.
pub const DATE_EPOCH: &str = "1795305600";

pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub status: i32,
}

/// One case in how many a sweep over a corpus or over generated cases
/// takes (every one with `MUSTER_FULL_TESTS=1`, as `.ci/run` sets): the
/// sweeps compare two readers or proofs case by case, and all of them
/// together were most of a debug `cargo test`. A stride, not a random
/// pick: every run tests the same cases.
pub fn stride() -> usize {
    if std::env::var_os("MUSTER_FULL_TESTS").is_some_and(|v| v == "1") {
        1
    } else {
        4
    }
}

/// Runs muster from the repository's root.
pub fn muster(args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_muster"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .env("SOURCE_DATE_EPOCH", DATE_EPOCH)
        .output()
        .expect("muster runs");
    Run {
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        status: output.status.code().unwrap_or(-1),
    }
}

/// A folder for one test module's output files, under cargo's scratch
/// folder for tests (`target/tmp`): runs reuse it, so nothing piles up in
/// the system's temporary folder.
pub fn out_dir(module: &str) -> PathBuf {
    let dir = scratch(module);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// An empty folder of that scratch folder for one test alone (`name`
/// must be its own), emptied if a run left it.
pub fn fresh_dir(name: &str) -> PathBuf {
    let dir = scratch(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn scratch(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("muster-{name}"))
}

/// The weapon tables of the ships on an HTML crib sheet, in order: each
/// table's column widths (its `<col>`s, none when it has no `<colgroup>`)
/// and how many column heads its first row has. A ship without a weapon
/// table is left out.
pub fn ship_tables(html: &str) -> Vec<(Vec<String>, usize)> {
    html.split("<section class=\"unit ship\">")
        .skip(1)
        .filter_map(|section| {
            let section = section.split("</section>").next().unwrap_or("");
            let (_, table) = section.split_once("<table")?;
            let table = table.split("</table>").next().unwrap_or("");
            let widths = table
                .split("<col style=\"width:")
                .skip(1)
                .filter_map(|c| c.split_once('"').map(|(w, _)| w.to_string()))
                .collect();
            let heads = table
                .split_once("<tr>")
                .and_then(|(_, row)| row.split_once("</tr>"))
                .map_or(0, |(row, _)| row.matches("<th>").count());
            Some((widths, heads))
        })
        .collect()
}

/// Asserts that a ship table's widths are set (a width for each column,
/// in a fixed table layout) and add up to the whole width.
pub fn assert_widths_set(html: &str, widths: &[String], heads: usize) {
    assert_widths_set_in(html, "table.ship", widths, heads);
}

/// [`assert_widths_set`] for tables of the CSS class `class`
/// (`table.weapons`, say).
pub fn assert_widths_set_in(html: &str, class: &str, widths: &[String], heads: usize) {
    assert_eq!(widths.len(), heads, "a width for each column: {widths:?}");
    let total: f32 = widths
        .iter()
        .filter_map(|w| w.strip_suffix('%').and_then(|w| w.parse::<f32>().ok()))
        .sum();
    assert!((total - 100.0).abs() < 0.5, "the widths add up to {total}%");
    assert!(
        html.lines()
            .any(|l| l.contains(class) && l.contains("table-layout: fixed")),
        "the browser keeps the widths only in a fixed layout"
    );
}

/// CPU time, not wall time, for the tests that bound how long something
/// takes: a loaded machine stretches the wall clock many times over, but
/// not the work done (issue 33: no test waits on the wall clock). Read from
/// Linux's `/proc` (`utime` and `stime`, in 1/100 s); elsewhere the wall
/// clock stands in.
pub struct CpuClock {
    start: Option<Duration>,
    wall: std::time::Instant,
}

impl CpuClock {
    /// Starts counting the CPU time of the calling thread.
    pub fn start() -> CpuClock {
        CpuClock {
            start: proc_cpu("/proc/thread-self/stat"),
            wall: std::time::Instant::now(),
        }
    }

    /// The calling thread's CPU time since `start`.
    pub fn elapsed(&self) -> Duration {
        match (self.start, proc_cpu("/proc/thread-self/stat")) {
            (Some(start), Some(now)) => now.saturating_sub(start),
            _ => self.wall.elapsed(),
        }
    }
}

/// The CPU time (user and system) of process `pid` so far, also once it
/// has exited and is not yet reaped; `None` where `/proc` is missing.
pub fn process_cpu(pid: u32) -> Option<Duration> {
    proc_cpu(&format!("/proc/{pid}/stat"))
}

fn proc_cpu(path: &str) -> Option<Duration> {
    let stat = std::fs::read_to_string(path).ok()?;
    // The command name (field 2) may hold spaces: count after its `)`.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i)?.parse::<u64>().ok();
    // utime and stime are fields 14 and 15; 12 and 13 after the `)`.
    let total = ticks(11)? + ticks(12)?;
    Some(Duration::from_millis(total * 10))
}

/// The built-in lists, loaded once for the whole test binary: a debug
/// build spends seconds of CPU loading them, which every test that loaded
/// its own paid again (issue 33: the suite's own run).
pub fn embedded() -> &'static muster::catalogue::LoadReport {
    static REPORT: std::sync::OnceLock<muster::catalogue::LoadReport> = std::sync::OnceLock::new();
    REPORT.get_or_init(muster::catalogue::load_embedded)
}

/// The built-in catalogue (see [`embedded`]).
pub fn catalogue() -> &'static muster::catalogue::Catalogue {
    &embedded().catalogue
}
