//! Event files against the built-in catalogue.
#![no_main]

use libfuzzer_sys::fuzz_target;
use muster::catalogue::{Catalogue, load_embedded};
use muster::source::SourceFile;
use std::sync::OnceLock;

fn catalogue() -> &'static Catalogue {
    static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();
    CATALOGUE.get_or_init(|| load_embedded().catalogue)
}

fuzz_target!(|text: &str| {
    let _ = muster::event::load(SourceFile::new("fuzz.yaml", text), catalogue());
});
