//! Fuzz target `battlescribe`: the body is `muster::fuzz_support::battlescribe`, which the
//! tests also run over the seeds on stable (see fuzz/README.md).
#![no_main]

use libfuzzer_sys::fuzz_target;
use muster::catalogue::{Catalogue, load_embedded};
use std::sync::OnceLock;

fn catalogue() -> &'static Catalogue {
    static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();
    CATALOGUE.get_or_init(|| load_embedded().catalogue)
}

fuzz_target!(|data: &[u8]| muster::fuzz_support::battlescribe(data, catalogue()));
