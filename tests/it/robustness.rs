//! No input makes muster panic: arbitrary text goes through the parser and
//! the whole check, and must come back as diagnostics.

use muster::catalogue::Catalogue;
use muster::check::{check_bytes, check_text};
use proptest::prelude::*;

fn catalogue() -> &'static Catalogue {
    crate::common::catalogue()
}

/// Lines that look like rosters, so the generator reaches deep into the
/// resolver and validator instead of stopping at the parser.
fn roster_like() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        Just("Army: Codex Astartes".to_string()),
        Just("Army: Steel Legion (2023-01-03)".to_string()),
        Just("Army: Orks".to_string()),
        Just("Points: 3000".to_string()),
        Just("Counts as: Squigoth = Battlewagon".to_string()),
        Just("Army: Armageddon Sector".to_string()),
        Just("Army: Chaos Black Crusade (2023-08-29)".to_string()),
        Just("Escort squadron".to_string()),
        "[ \t]{0,6}[0-9]{0,2}x? ?(Escort squadron|Capital ship squadron|Lunar|Sword|Nova|Idolator|Murder|Despoiler)(: (Admiral|Chaos Lord|Daemonship|Mark of Khorne|Nova Cannon|Power Ram|2 extra re-rolls))?",
        "[0-9]{0,3}x? ?(Tactical|Warband|Tank Company|Warhound|Gargant|Kroozer|[A-Za-z' ()-]{1,20})(: [A-Za-z0-9 ,()x'-]{0,40})?( \\[[0-9]{1,4}\\])?",
        "[ \t]{0,4}[A-Za-z0-9 ]{0,20}",
        ".{0,30}",
    ];
    prop::collection::vec(line, 0..20).prop_map(|lines| lines.join("\n"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn any_text_gives_diagnostics_not_a_panic(text in ".{0,300}") {
        let _ = check_text(catalogue(), "fuzz.txt", &text);
    }

    #[test]
    fn any_bytes_give_diagnostics_not_a_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let result = check_bytes(catalogue(), "fuzz.bin", &bytes);
        // Every diagnostic with a position points inside the text.
        if let Some(file) = &result.file {
            for d in &result.diagnostics {
                if let Some(p) = &d.primary {
                    prop_assert!(p.span.end <= file.text().len());
                    prop_assert!(file.text().is_char_boundary(p.span.start));
                }
            }
        }
    }

    #[test]
    fn roster_like_text_is_checked_without_panicking(text in roster_like()) {
        let result = check_text(catalogue(), "fuzz.txt", &text);
        let rendered = muster::report::terminal::diagnostics(&result.diagnostics, false);
        prop_assert!(result.legal() || !rendered.is_empty());
    }
}

#[test]
fn the_catalogue_loads_without_errors() {
    let report = crate::common::embedded();
    assert!(!report.has_errors(), "{:#?}", report.diagnostics);
}

#[test]
fn a_roster_over_one_mebibyte_is_refused_cleanly() {
    let big = "# filler\n".repeat(200_000);
    let result = check_bytes(catalogue(), "big.txt", big.as_bytes());
    assert!(result.unusable());
    assert!(result.diagnostics[0].message.contains("1 MiB"));
}

#[test]
fn text_that_is_not_utf8_is_refused_cleanly() {
    let result = check_bytes(catalogue(), "latin1.txt", b"Army: Orks\nPlayer: Ren\xe9\n");
    assert!(result.unusable());
    assert!(result.diagnostics[0].message.contains("UTF-8"));
}

#[test]
fn deeply_nested_and_long_lines_are_fine() {
    let mut text = String::from("Army: Orks\nPoints: 3000\n");
    for depth in 0..500 {
        text.push_str(&" ".repeat(depth));
        text.push_str("Warband\n");
    }
    text.push_str("Warband: ");
    text.push_str(&"Boyz, ".repeat(5000));
    let _ = check_text(catalogue(), "deep.txt", &text);
}

#[test]
fn squadrons_nested_as_deep_as_a_roster_allows_are_reported_not_a_crash() {
    // About 1,400 levels of indentation fit in the 1 MiB a roster may have;
    // checked on a thread with a small stack, as a batch worker would.
    let mut text = String::from("Army: Armageddon Sector\nPoints: 1500\n");
    for depth in 0..1400 {
        text.push_str(&" ".repeat(depth));
        text.push_str("Escort squadron\n");
    }
    let handle = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || check_text(catalogue(), "deep.txt", &text).errors())
        .unwrap();
    let errors = handle.join().expect("no stack overflow");
    assert!(errors > 0);
}
