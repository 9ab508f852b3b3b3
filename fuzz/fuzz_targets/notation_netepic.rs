//! Fuzz target `notation_netepic`: the body is `muster::fuzz_support::notation_netepic`, which the
//! tests also run over the seeds on stable (see fuzz/README.md).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| muster::fuzz_support::notation_netepic(text));
