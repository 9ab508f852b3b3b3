//! The constraint language: parse, never panic, never overflow the stack.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let _ = muster::rules::parse(text);
    let _ = muster::rules::parse_item(text);
});
