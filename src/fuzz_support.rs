//! The bodies of the fuzz targets (`fuzz/fuzz_targets/*.rs`, issue 21).
//!
//! Each target is one line calling a function here, and
//! `tests/it/hostile.rs` runs the same functions over the seed inputs and the
//! saved findings (`fuzz/regressions/`) on every `cargo test`, so the harness
//! is compiled and exercised on stable even though fuzzing needs nightly.
//!
//! A function panics only when muster is wrong: a parser that panics, a
//! value that does not print and parse back to itself, a finding without a
//! line, an output carrying a raw control character.

use crate::catalogue::Catalogue;
use crate::notation::{self, heresy, netepic, ship, space_fleet};
use crate::source::SourceFile;
use std::fmt::Display;

/// The targets, by name: what `fuzz/fuzz_targets/<name>.rs` calls and what
/// `fuzz/regressions/<name>/` holds findings for.
pub const TARGETS: &[&str] = &[
    "roster",
    "notation_epic",
    "notation_bfg",
    "notation_space_fleet",
    "notation_heresy",
    "notation_netepic",
    "rule",
    "event",
    "check",
    "snapfire_link",
    "battlescribe",
    "yaml",
];

/// Runs the target `name` on `data` (what a test does with a saved input).
/// Returns false for an unknown name.
pub fn run(name: &str, data: &[u8], catalogue: &Catalogue) -> bool {
    // As a `|text: &str|` target reads its bytes (the `arbitrary` crate):
    // their longest prefix that is UTF-8, so a saved finding replays as
    // the text that failed.
    let text = || match std::str::from_utf8(data) {
        Ok(text) => text,
        Err(e) => std::str::from_utf8(&data[..e.valid_up_to()]).unwrap_or_default(),
    };
    match name {
        "roster" => roster(data),
        "notation_epic" => notation_epic(text()),
        "notation_bfg" => notation_bfg(text()),
        "notation_space_fleet" => notation_space_fleet(text()),
        "notation_heresy" => notation_heresy(text()),
        "notation_netepic" => notation_netepic(text()),
        "rule" => rule(text()),
        "event" => event(text(), catalogue),
        "check" => check(data, catalogue),
        "snapfire_link" => snapfire_link(text(), catalogue),
        "battlescribe" => battlescribe(data, catalogue),
        "yaml" => yaml(&String::from_utf8_lossy(data)),
        _ => return false,
    }
    true
}

/// Any bytes, decoded then parsed: every finding of the parser names a line
/// of the file.
pub fn roster(data: &[u8]) {
    if let Ok(text) = crate::roster::decode(data) {
        let file = SourceFile::new("fuzz.txt", text);
        let (_, diagnostics) = crate::roster::parse(&file);
        for d in &diagnostics {
            for label in d.primary.iter().chain(&d.secondary) {
                let text = label.file.text();
                assert!(text.get(label.span.start..label.span.end).is_some(), "{d:?}");
            }
        }
    }
}

/// Parses `text` with `parse`; what parses prints and parses back to itself.
fn round_trip<T, E>(text: &str, parse: impl Fn(&str) -> Result<T, E>)
where
    T: Display + PartialEq + std::fmt::Debug,
{
    if let Ok(value) = parse(text) {
        let printed = value.to_string();
        match parse(&printed) {
            Ok(again) => assert_eq!(again, value, "{text:?} printed as {printed:?}"),
            Err(_) => panic!("{text:?} parsed, but its printed form {printed:?} does not"),
        }
    }
}

/// Epic Armageddon datasheet notation, part by part and whole.
pub fn notation_epic(text: &str) {
    let _ = notation::parse_terms(text);
    round_trip(text, notation::parse_range);
    round_trip(text, notation::parse_firepower);
    round_trip(text, notation::parse_weapon_note);
    round_trip(text, notation::parse_unit_note);
    round_trip(text, notation::parse_speed);
    round_trip(text, notation::parse_roll);
    round_trip(text, notation::parse_weapon_name);
}

/// Battlefleet Gothic ship notation.
pub fn notation_bfg(text: &str) {
    let _ = ship::parse_ship_terms(text);
    let _ = ship::parse_count(text);
    round_trip(text, ship::parse_hull);
    round_trip(text, ship::parse_ship_speed);
    round_trip(text, ship::parse_turns);
    round_trip(text, ship::parse_armour);
    round_trip(text, ship::parse_ship_range);
    round_trip(text, ship::parse_strength);
    round_trip(text, ship::parse_arcs);
    round_trip(text, ship::parse_craft);
    round_trip(text, ship::parse_ship_weapon_name);
}

/// Space Fleet ship notation.
pub fn notation_space_fleet(text: &str) {
    let _ = space_fleet::parse_terms(text);
    let _ = space_fleet::parse_number(text);
    round_trip(text, space_fleet::parse_speed);
    round_trip(text, space_fleet::parse_cards);
    round_trip(text, space_fleet::parse_points);
    round_trip(text, space_fleet::parse_limit);
    round_trip(text, space_fleet::parse_shields);
    round_trip(text, space_fleet::parse_bands);
    round_trip(text, space_fleet::parse_dice);
    round_trip(text, space_fleet::parse_arc);
    round_trip(text, space_fleet::parse_weapon);
}

/// Heresy stat-line values, part by part and whole.
pub fn notation_heresy(text: &str) {
    let _ = heresy::parse_terms(text);
    let _ = heresy::parse_optional_rating(text);
    round_trip(text, heresy::parse_move);
    round_trip(text, heresy::parse_rating);
    round_trip(text, heresy::parse_morale);
    round_trip(text, heresy::parse_range);
    round_trip(text, heresy::parse_penetration);
    round_trip(text, heresy::parse_firepower);
    round_trip(text, heresy::parse_weapon_type);
    round_trip(text, heresy::parse_mount);
    round_trip(text, heresy::parse_propulsion);
    round_trip(text, heresy::parse_skill);
}

/// NetEpic Gold datasheet values (Appendix A and B), part by part.
pub fn notation_netepic(text: &str) {
    let _ = netepic::parse_terms(text);
    round_trip(text, netepic::parse_classes);
    round_trip(text, netepic::parse_move);
    round_trip(text, netepic::parse_save);
    round_trip(text, netepic::parse_caf);
    round_trip(text, netepic::parse_morale);
    round_trip(text, netepic::parse_weapon);
    round_trip(text, netepic::parse_ability);
}

/// The constraint language: a rule and an item.
pub fn rule(text: &str) {
    let _ = crate::rules::parse(text);
    let _ = crate::rules::parse_item(text);
}

/// An event file against the built-in lists: what it reports reaches the
/// terminal with nothing raw; a file that loads, with one of its keys given
/// again at the end, does not.
pub fn event(text: &str, catalogue: &Catalogue) {
    match crate::event::load(SourceFile::new("fuzz.yaml", text), catalogue) {
        Err(diagnostics) => assert_shown_safely(&crate::report::terminal::diagnostics(&diagnostics, false)),
        Ok(event) => {
            // A second `points:` is not taken silently.
            let again = format!("{text}\npoints: 1\n");
            if let Ok(second) = crate::event::load(SourceFile::new("fuzz.yaml", again.as_str()), catalogue) {
                assert_eq!(second.file.points, event.file.points, "{again:?}");
            }
        }
    }
}

/// Any text as YAML: within the bounds or refused, and a key given twice
/// in one mapping is never read: the text with its first key given again
/// at the end is refused, or reads with the first value kept.
pub fn yaml(text: &str) {
    use crate::catalogue::yaml::read;
    let Ok(serde_json::Value::Object(map)) = read(text).value else {
        return;
    };
    let Some((key, first)) = map.iter().next() else {
        return;
    };
    let Ok(quoted) = serde_json::to_string(key) else {
        return;
    };
    let sentinel = serde_json::Value::from("fuzz-second-value");
    for sep in [" ", "\t"] {
        let again = format!("{text}\n{quoted}:{sep}fuzz-second-value\n");
        if let Ok(value) = read(&again).value {
            assert!(
                value.get(key) != Some(&sentinel) || first == &sentinel,
                "{again:?} read as {value}: the second `{key}` won"
            );
        }
    }
}

/// A BattleScribe roster (`.ros` XML, or a `.rosz` when the bytes are a
/// zip archive): read in bounded time, what it prints and reports carries
/// nothing raw, and the roster it prints reads back as a roster of the
/// list it was read for, the same each time.
pub fn battlescribe(data: &[u8], catalogue: &Catalogue) {
    let name = if data.starts_with(b"PK\x03\x04") {
        "fuzz.rosz"
    } else {
        "fuzz.ros"
    };
    match crate::import::battlescribe::read(catalogue, name, data) {
        Err(d) => assert_shown_safely(&crate::report::terminal::diagnostics(&[*d], false)),
        Ok(imported) => {
            assert_shown_safely(&imported.roster);
            assert_shown_safely(&crate::report::terminal::diagnostics(
                &imported.diagnostics,
                false,
            ));
            let file = SourceFile::new("fuzz.txt", imported.roster.as_str());
            let (roster, _) = crate::roster::parse(&file);
            let army = roster.header.army.as_ref().map(|a| a.value.as_str());
            assert_eq!(army, Some(imported.list.name.as_str()), "{:?}", imported.roster);
            let again = crate::import::battlescribe::read(catalogue, name, data).map(|i| i.roster);
            assert_eq!(again.ok().as_deref(), Some(imported.roster.as_str()));
            let checked = crate::check::check_text(catalogue, "fuzz.txt", &imported.roster);
            assert_shown_safely(&crate::report::terminal::diagnostics(&checked.diagnostics, false));
        }
    }
}

/// Nothing shown carries a raw control character (tabs and line breaks
/// aside) or a bidirectional override.
fn assert_shown_safely(shown: &str) {
    assert!(
        !shown
            .chars()
            .any(|c| (c.is_control() && !matches!(c, '\n' | '\t'))
                || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')),
        "a control character reached the terminal: {shown:?}"
    );
}

/// One roster through the whole pipeline, then the terminal renderer:
/// nothing it prints carries a raw control character (tabs and line
/// breaks aside) or a bidirectional override.
pub fn check(data: &[u8], catalogue: &Catalogue) {
    let checked = crate::check::check_bytes(catalogue, "fuzz.txt", data);
    assert_shown_safely(&crate::report::terminal::diagnostics(&checked.diagnostics, false));
    assert_shown_safely(&crate::report::terminal::verdict(&checked));
}

/// A Snapfire share link: read, turned into a roster and checked; a link
/// that reads prints as a link that reads the same.
pub fn snapfire_link(text: &str, catalogue: &Catalogue) {
    use crate::import::snapfire::{DEFAULT_BASE, Link};
    let Ok(link) = Link::parse(text) else {
        return;
    };
    let url = link.url(DEFAULT_BASE);
    let again = Link::parse(&url).unwrap_or_else(|e| panic!("{text:?} printed as {url:?}: {e:?}"));
    assert_eq!(
        (&again.list, &again.name, again.formations.len()),
        (&link.list, &link.name, link.formations.len()),
        "{text:?} printed as {url:?}"
    );
    if crate::import::snapfire::to_roster(&link, catalogue).is_ok() {
        let _ = crate::check::check_text(catalogue, "fuzz.txt", text);
    }
}
