//! Rendering speed: a roster PDF and a full army's crib-sheet PDF (the two
//! documents players print), a full fleet's ship crib sheet, with their HTML
//! for comparison.
//!
//! `cargo bench --bench render`

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

criterion_group!(benches, render);
criterion_main!(benches);
