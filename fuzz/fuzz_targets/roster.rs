//! The roster parser: any bytes, decoded then parsed, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use muster::roster::{decode, parse};
use muster::source::SourceFile;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = decode(data) {
        let file = SourceFile::new("fuzz.txt", text);
        let _ = parse(&file);
    }
});
