//! Rendering speed: a roster PDF and a full army's crib-sheet PDF (the two
//! documents players print), a full fleet's ship crib sheet, with their HTML
//! for comparison; and the two PDFs as the user waits for them, the whole
//! `muster` process (start, built-in lists, check, layout, fonts, writing
//! the file) beside `muster --version`, the floor of any run (issue 33,
//! goal 3: within 3 and 5 times it). `benches/paths.sh` counts the same
//! processes' instructions.
//!
//! `cargo bench --bench render` (build the binary at the same profile:
//! the process benches run `target/release/muster` when there is one)

use criterion::{Criterion, criterion_group, criterion_main};
use muster::catalogue;
use muster::check;
use muster::print::{self, CribSheet, Paper, RosterSheet};
use std::hint::black_box;

const ROSTER: &str = include_str!("../tests/fixtures/legal.txt");
const DATE: &str = "2026-11-22";

fn render(c: &mut Criterion) {
    let report = catalogue::load_embedded();
    let catalogue = &report.catalogue;
    let checked = check::check_text(catalogue, "legal.txt", ROSTER);
    let roster = RosterSheet::new(&checked, catalogue, DATE, false);
    let list = catalogue
        .list("codex-astartes")
        .expect("Codex Astartes is shipped");
    let sheet = CribSheet::for_list(catalogue, list, DATE);
    // Parse the embedded font once, as a process does on its first PDF.
    let _ = print::roster_pdf(&roster, Paper::A4);

    c.bench_function("roster pdf (legal.txt, 1 page)", |b| {
        b.iter(|| print::roster_pdf(black_box(&roster), Paper::A4))
    });
    c.bench_function("roster pdf from text (check + view + pdf)", |b| {
        b.iter(|| {
            let checked = check::check_text(catalogue, "legal.txt", black_box(ROSTER));
            let view = RosterSheet::new(&checked, catalogue, DATE, false);
            print::roster_pdf(&view, Paper::A4)
        })
    });
    c.bench_function("crib sheet pdf (codex-astartes, every unit)", |b| {
        b.iter(|| print::crib_pdf(black_box(&sheet), Paper::A4))
    });
    let fleet = catalogue
        .list("armageddon-sector")
        .map(|list| CribSheet::for_list(catalogue, list, DATE));
    if let Some(fleet) = &fleet {
        c.bench_function("crib sheet pdf (armageddon-sector, every ship)", |b| {
            b.iter(|| print::crib_pdf(black_box(fleet), Paper::A4))
        });
    }
    c.bench_function("roster html (legal.txt)", |b| {
        b.iter(|| print::roster_html(black_box(&roster), Paper::A4))
    });
    c.bench_function("crib sheet html (codex-astartes)", |b| {
        b.iter(|| print::crib_html(black_box(&sheet), Paper::A4))
    });
}

/// The binary the process benches run: the release build's when there is
/// one (`cargo build --release`), else the one cargo built for this bench.
fn binary() -> Option<std::path::PathBuf> {
    let release = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/muster");
    if release.is_file() {
        return Some(release);
    }
    option_env!("CARGO_BIN_EXE_muster").map(Into::into)
}

/// The whole process a user waits on, as `NO_COLOR=1
/// SOURCE_DATE_EPOCH=1795305600 muster ARGS` from the repository.
fn process(c: &mut Criterion) {
    let Some(bin) = binary() else {
        eprintln!("no muster binary: the process benches are skipped");
        return;
    };
    let dir = tempfile::tempdir().expect("a temporary folder");
    let roster = dir.path().join("r.pdf");
    let sheet = dir.path().join("s.pdf");
    let runs: [(&str, Vec<&std::ffi::OsStr>); 3] = [
        (
            "process: muster --version (the floor)",
            vec!["--version".as_ref()],
        ),
        (
            "process: muster roster --pdf (legal.txt)",
            vec![
                "roster".as_ref(),
                "--pdf".as_ref(),
                roster.as_os_str(),
                "tests/fixtures/legal.txt".as_ref(),
            ],
        ),
        (
            "process: muster sheet --pdf codex-astartes",
            vec![
                "sheet".as_ref(),
                "--pdf".as_ref(),
                sheet.as_os_str(),
                "codex-astartes".as_ref(),
            ],
        ),
    ];
    for (name, args) in runs {
        c.bench_function(name, |b| {
            b.iter(|| {
                let status = std::process::Command::new(&bin)
                    .args(&args)
                    .current_dir(env!("CARGO_MANIFEST_DIR"))
                    .env("NO_COLOR", "1")
                    .env("SOURCE_DATE_EPOCH", "1795305600")
                    .stdout(std::process::Stdio::null())
                    .status()
                    .expect("muster runs");
                assert!(status.success(), "{name}: {status}");
            })
        });
    }
}

criterion_group!(benches, render, process);
criterion_main!(benches);
