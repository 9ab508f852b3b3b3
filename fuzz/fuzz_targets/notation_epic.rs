//! Fuzz target `notation_epic`: the body is `muster::fuzz_support::notation_epic`, which the
//! tests also run over the seeds on stable (see fuzz/README.md).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| muster::fuzz_support::notation_epic(text));
