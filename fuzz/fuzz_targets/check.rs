//! The whole check of one roster, and its terminal and JSON renderings.
#![no_main]

use libfuzzer_sys::fuzz_target;
use muster::catalogue::{Catalogue, load_embedded};
use std::sync::OnceLock;

fn catalogue() -> &'static Catalogue {
    static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();
    CATALOGUE.get_or_init(|| load_embedded().catalogue)
}

fuzz_target!(|data: &[u8]| {
    let checked = muster::check::check_bytes(catalogue(), "fuzz.txt", data);
    let _ = muster::report::terminal::diagnostics(&checked.diagnostics, false);
});
