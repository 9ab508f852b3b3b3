//! The datasheet notations (Epic and ship), part by part and whole.
#![no_main]

use libfuzzer_sys::fuzz_target;
use muster::notation::{self, ship};

fuzz_target!(|text: &str| {
    let _ = notation::parse_terms(text);
    let _ = notation::parse_firepower(text);
    let _ = notation::parse_range(text);
    let _ = notation::parse_unit_note(text);
    let _ = notation::parse_weapon_note(text);
    let _ = ship::parse_ship_terms(text);
    let _ = ship::parse_armour(text);
    let _ = ship::parse_craft(text);
    // What parses prints and parses again to the same value.
    if let Ok(firepower) = notation::parse_firepower(text) {
        assert_eq!(notation::parse_firepower(&firepower.to_string()).ok(), Some(firepower));
    }
});
