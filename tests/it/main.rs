//! All integration tests in one binary: one link instead of one per file,
//! which is most of a cold `cargo test` and of `target/`'s size.

mod batch;
mod battlescribe;
mod cli;
mod common;
mod data;
mod docs;
mod fielded;
mod fuzz_seeds;
mod generated;
mod heresy;
mod hostile;
mod netepic;
mod netepic_sheets;
mod notation;
mod print;
mod readme;
mod robustness;
mod roster_reader;
mod roster_syntax;
mod rosters;
mod rules_reader;
mod serve;
mod serve_browser;
mod serve_inbox;
mod serve_process;
mod ships;
mod snapfire_exports;
mod snapfire_links;
mod space_fleet;
mod tidy;
mod wording;
