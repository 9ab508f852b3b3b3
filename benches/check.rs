//! Latency of one check, the player's case: an Epic army and a fleet,
//! each through the whole pipeline with the catalogue already loaded, and
//! the catalogue load itself (what every process pays once), whole and as
//! a check of one roster loads it.
//!
//! `cargo bench --bench check`

use criterion::{Criterion, criterion_group, criterion_main};
use muster::catalogue;
use muster::check;
use std::hint::black_box;

const ARMY: &str = include_str!("../examples/codex-astartes-3000.txt");
const FLEET: &str = include_str!("../examples/armageddon-sector-1500.txt");
const BROKEN_FLEET: &str = include_str!("../examples/black-crusade-mistakes.txt");

fn check(c: &mut Criterion) {
    let report = catalogue::load_embedded();
    let catalogue = &report.catalogue;
    c.bench_function("load the embedded catalogue", |b| {
        b.iter(catalogue::load_embedded)
    });
    // What `muster check ROSTER` loads: the one list, its datasheets,
    // models and scenarios.
    c.bench_function("load what one Codex Astartes roster needs", |b| {
        b.iter(|| catalogue::load_for_check(None, black_box("Codex Astartes")))
    });
    // What `muster check ROSTER` loads for a roster without a `Scenario:`
    // line, per game (a NetEpic army book is the largest list): the files'
    // packed data decoded (`catalogue::packed`), then linked.
    for army in [
        "Codex Astartes",
        "Armageddon Sector",
        "NetEpic Adeptus Astartes",
        "Space Fleet Tyranid Hive Fleet",
    ] {
        c.bench_function(
            &format!("load what one {army} roster without a scenario needs"),
            |b| b.iter(|| catalogue::load_for_check_with(None, black_box(army), false)),
        );
    }
    c.bench_function("check an Epic army (codex-astartes-3000.txt)", |b| {
        b.iter(|| check::check_text(catalogue, "army.txt", black_box(ARMY)))
    });
    c.bench_function("check a legal fleet (armageddon-sector-1500.txt)", |b| {
        b.iter(|| check::check_text(catalogue, "fleet.txt", black_box(FLEET)))
    });
    c.bench_function(
        "check a fleet with six errors (black-crusade-mistakes.txt)",
        |b| b.iter(|| check::check_text(catalogue, "fleet.txt", black_box(BROKEN_FLEET))),
    );
}

criterion_group!(benches, check);
criterion_main!(benches);
