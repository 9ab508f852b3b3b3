//! Fuzz target `yaml`: the body is `muster::fuzz_support::yaml`, which the
//! tests also run over the seeds on stable (see fuzz/README.md).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| muster::fuzz_support::yaml(&String::from_utf8_lossy(data)));
