//! The shipped data against the notation grammar and the glossary: every
//! datasheet value parses and prints back to a form that parses to the same
//! value, and the glossary explains exactly the terms the notation has.

use muster::catalogue::{GameId, UnitType};
use muster::notation::{self, NamedNote, Term};
use std::collections::BTreeSet;

#[test]
fn every_shipped_datasheet_value_parses_and_round_trips() {
    let report = crate::common::embedded();
    assert!(!report.has_errors(), "{:#?}", report.diagnostics);
    let sheets: Vec<_> = report
        .catalogue
        .datasheets
        .iter()
        .filter(|d| d.game == GameId::Netea)
        .collect();
    assert!(sheets.len() > 90, "{} datasheets", sheets.len());
    let mut values = 0;
    for d in sheets {
        let sheet = d.sheet().unwrap_or_else(|| panic!("{} was not parsed", d.id));
        assert_eq!(sheet.weapons.len(), d.weapons.len(), "{}", d.id);
        assert_eq!(sheet.notes.len(), d.notes.len(), "{}", d.id);
        for (parsed, raw) in sheet.weapons.iter().zip(&d.weapons) {
            assert_eq!(
                notation::parse_range(&parsed.range.to_string()),
                Ok(parsed.range),
                "{}",
                raw.range
            );
            assert_eq!(
                notation::parse_firepower(&parsed.firepower.to_string()).as_ref(),
                Ok(&parsed.firepower),
                "{}",
                raw.firepower
            );
            assert_eq!(
                notation::parse_weapon_name(&parsed.name.to_string()).as_ref(),
                Ok(&parsed.name),
                "{}",
                raw.name
            );
            for note in &parsed.notes {
                assert_eq!(notation::parse_weapon_note(&note.to_string()), Ok(*note));
                values += 1;
            }
            values += 3;
        }
        for note in &sheet.notes {
            assert_eq!(notation::parse_unit_note(&note.to_string()), Ok(*note));
            values += 1;
        }
        for roll in [sheet.armour, sheet.cc, sheet.ff].into_iter().flatten() {
            assert_eq!(notation::parse_roll(&roll.to_string()), Ok(roll));
            values += 1;
        }
        if let Some(speed) = sheet.speed {
            assert_eq!(notation::parse_speed(&speed.to_string()), Ok(speed));
            values += 1;
        }
    }
    assert!(values > 1000, "{values} values");
}

/// Every kind of term the notation knows, one example each.
fn every_term() -> Vec<Term> {
    let text = "Small Arms, Assault Weapons, 2BP, 2x AP5+/AT6+/AA4+, MW2+, (bc), (15cm), 30-150cm, \
        MW, TK(D3), EA(+1), IC, Ind, D, FS, L, S, SS, Slw, GM, WM, FxF, FwA, Left, Right, RrA, \
        Damage Capacity 3, 4 Void Shields, D3 Power Fields, 2 Shadowfields, Brood (2), Synapse (2), \
        Augmented Summoning (+2), Fighter, Bomber, Fighter-bomber, \
        INF, LV, AV, WE, AC, SC, CH, CC, FF, DC, BP, AP, AT, AA, EA";
    let mut terms: Vec<Term> = notation::parse_terms(text)
        .expect("the examples parse")
        .into_iter()
        .map(|p| p.term)
        .collect();
    terms.extend(
        NamedNote::ALL
            .iter()
            .map(|&n| Term::UnitNote(notation::UnitNote::Named(n))),
    );
    terms
}

#[test]
fn the_glossary_explains_exactly_the_terms_the_notation_has() {
    let report = crate::common::embedded();
    let glossary = report
        .catalogue
        .glossary(GameId::Netea)
        .expect("a NetEA glossary");
    let mut used: BTreeSet<&str> = every_term().iter().flat_map(Term::glossary_ids).collect();
    for t in [
        UnitType::Infantry,
        UnitType::LightVehicle,
        UnitType::ArmouredVehicle,
        UnitType::WarEngine,
        UnitType::Aircraft,
        UnitType::AircraftWarEngine,
        UnitType::Spacecraft,
        UnitType::Character,
    ] {
        used.extend(t.glossary_ids());
    }
    used.insert("critical-hit");
    let defined: BTreeSet<&str> = glossary.entries.iter().map(|e| e.id.as_str()).collect();
    let missing: Vec<_> = used.difference(&defined).collect();
    let orphans: Vec<_> = defined.difference(&used).collect();
    assert!(missing.is_empty(), "no glossary entry for {missing:?}");
    assert!(
        orphans.is_empty(),
        "glossary entries no notation produces: {orphans:?}"
    );
    for entry in &glossary.entries {
        assert!(
            !entry.summary.is_empty() && !entry.name.is_empty(),
            "{}",
            entry.id
        );
        assert!(
            entry.summary.ends_with('.'),
            "{}: one sentence, ending with a full stop",
            entry.id
        );
    }
}
