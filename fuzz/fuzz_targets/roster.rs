//! Fuzz target `roster`: the body is `muster::fuzz_support::roster`, which the
//! tests also run over the seeds on stable (see fuzz/README.md).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| muster::fuzz_support::roster(data));
