//! Every ship notation the fleet sections use, with the value it parses to
//! and its canonical spelling; printing and parsing again gives the value.

use super::*;

/// Parses `text`, compares with `parsed` and `canonical`, and parses the
/// canonical form again.
fn check<T: PartialEq + fmt::Debug + fmt::Display>(
    parse: impl Fn(&str) -> Result<T, NotationError>,
    table: Vec<(&str, T, &str)>,
) {
    for (text, parsed, canonical) in table {
        let got = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(got, parsed, "{text}");
        assert_eq!(got.to_string(), canonical, "{text}");
        assert_eq!(parse(canonical).as_ref(), Ok(&got), "{canonical} again");
    }
}

#[test]
fn hulls() {
    let h = |class, hits| Hull { class, hits };
    check(
        parse_hull,
        vec![
            ("Escort/1", h(HullClass::Escort, 1), "Escort/1"),
            ("Cruiser/8", h(HullClass::Cruiser, 8), "Cruiser/8"),
            ("Cruiser/6", h(HullClass::Cruiser, 6), "Cruiser/6"),
            (
                "Grand Cruiser/10",
                h(HullClass::GrandCruiser, 10),
                "Grand Cruiser/10",
            ),
            (
                "Grand Cruiser/ 10",
                h(HullClass::GrandCruiser, 10),
                "Grand Cruiser/10",
            ),
            ("Battleship/12", h(HullClass::Battleship, 12), "Battleship/12"),
            ("Battleship/ 12", h(HullClass::Battleship, 12), "Battleship/12"),
            ("battleship/14", h(HullClass::Battleship, 14), "Battleship/14"),
        ],
    );
}

#[test]
fn speeds_turns_and_counts() {
    check(
        parse_ship_speed,
        vec![("20cm", Cm(20), "20cm"), ("25 cm", Cm(25), "25cm")],
    );
    check(
        parse_turns,
        vec![
            ("45°", Turns(45), "45°"),
            ("90°", Turns(90), "90°"),
            ("90 °", Turns(90), "90°"),
        ],
    );
    for (text, n) in [("1", 1), ("4", 4), ("12", 12)] {
        assert_eq!(parse_count(text), Ok(n));
    }
}

#[test]
fn armour() {
    check(
        parse_armour,
        vec![
            ("5+", Armour::All(5), "5+"),
            ("6+", Armour::All(6), "6+"),
            ("F6+/5+", Armour::Front { front: 6, rest: 5 }, "F6+/5+"),
            ("(F6+)5+", Armour::OptionalFront { front: 6, rest: 5 }, "(F6+)5+"),
            (
                "F6+/S5+/R4+",
                Armour::Facings {
                    front: 6,
                    side: 5,
                    rear: 4,
                },
                "F6+/S5+/R4+",
            ),
        ],
    );
}

#[test]
fn ranges() {
    check(
        parse_ship_range,
        vec![
            ("30cm", ShipRange::Cm(30), "30cm"),
            ("60cm", ShipRange::Cm(60), "60cm"),
            ("(30cm)", ShipRange::Torpedo(30), "(30cm)"),
            ("30-150cm", ShipRange::Band { min: 30, max: 150 }, "30-150cm"),
            ("30–150cm", ShipRange::Band { min: 30, max: 150 }, "30-150cm"),
        ],
    );
}

#[test]
fn strengths() {
    check(
        parse_strength,
        vec![
            ("6", Strength::Dice(Dice::fixed(6)), "6"),
            ("12", Strength::Dice(Dice::fixed(12)), "12"),
            ("D6", Strength::Dice(Dice::roll(1, 6, 0)), "D6"),
            ("D6+2", Strength::Dice(Dice::roll(1, 6, 2)), "D6+2"),
            ("Special", Strength::Special, "Special"),
            ("See rules", Strength::Special, "Special"),
        ],
    );
}

#[test]
fn arcs() {
    use Arc::*;
    let a = |arcs: &[Arc]| Arcs(arcs.to_vec());
    check(
        parse_arcs,
        vec![
            ("Left", a(&[Left]), "Left"),
            ("Right", a(&[Right]), "Right"),
            ("Front", a(&[Front]), "Front"),
            ("Rear", a(&[Rear]), "Rear"),
            ("L", a(&[Left]), "Left"),
            ("L/F/R", a(&[Left, Front, Right]), "L/F/R"),
            ("F/L", a(&[Front, Left]), "F/L"),
            ("F/R", a(&[Front, Right]), "F/R"),
            ("L/R", a(&[Left, Right]), "L/R"),
            ("Left/Front/Right", a(&[Left, Front, Right]), "L/F/R"),
        ],
    );
}

#[test]
fn craft() {
    use CraftKind::*;
    let c = |kind, speed, optional| Craft {
        kind,
        speed,
        optional,
    };
    check(
        parse_craft,
        vec![
            ("Furies (30cm)", c(Furies, 30, false), "Furies (30cm)"),
            ("Starhawks (20cm)", c(Starhawks, 20, false), "Starhawks (20cm)"),
            ("(Sharks (30cm))", c(Sharks, 30, true), "(Sharks (30cm))"),
            ("(Sharks (20cm))", c(Sharks, 20, true), "(Sharks (20cm))"),
            (
                "Swiftdeaths (30cm)",
                c(Swiftdeaths, 30, false),
                "Swiftdeaths (30cm)",
            ),
            ("Doomfires (20cm)", c(Doomfires, 20, false), "Doomfires (20cm)"),
            ("Dreadclaws (30cm)", c(Dreadclaws, 30, false), "Dreadclaws (30cm)"),
            (
                "T'hawks (20cm)",
                c(Thunderhawks, 20, false),
                "Thunderhawks (20cm)",
            ),
            (
                "Thunderhawks (20cm)",
                c(Thunderhawks, 20, false),
                "Thunderhawks (20cm)",
            ),
        ],
    );
}

#[test]
fn weapon_names() {
    use Mount::*;
    use WeaponKind::*;
    let w = |mount, kind| WeaponName { mount, kind };
    check(
        parse_ship_weapon_name,
        vec![
            (
                "Port wpns battery",
                w(Some(Port), WeaponsBattery),
                "Port wpns battery",
            ),
            (
                "Stbd lance battery",
                w(Some(Starboard), LanceBattery),
                "Stbd lance battery",
            ),
            (
                "Starboard weapons battery",
                w(Some(Starboard), WeaponsBattery),
                "Stbd wpns battery",
            ),
            ("Prow torpedoes", w(Some(Prow), Torpedoes), "Prow torpedoes"),
            ("Port launch bays", w(Some(Port), LaunchBays), "Port launch bays"),
            (
                "Dorsal lance battery",
                w(Some(Dorsal), LanceBattery),
                "Dorsal lance battery",
            ),
            ("Prow nova cannon", w(Some(Prow), NovaCannon), "Prow nova cannon"),
            (
                "Prow bombardment cannon",
                w(Some(Prow), BombardmentCannon),
                "Prow bombardment cannon",
            ),
            ("Weapons battery", w(None, WeaponsBattery), "Weapons battery"),
            ("Armageddon gun", w(None, ArmageddonGun), "Armageddon gun"),
        ],
    );
}

#[test]
fn errors_carry_the_position_and_what_was_expected() {
    let e = parse_armour("F6+/5").unwrap_err();
    assert_eq!(e.column, 5, "{e}");
    assert!(e.expected.contains("score"), "{e}");
    let e = parse_hull("Cruiser/").unwrap_err();
    assert_eq!(e.column, 9, "{e}");
    let e = parse_craft("Fures (30cm)").unwrap_err();
    assert_eq!(e.column, 1, "{e}");
    assert_eq!(e.suggestion.as_deref(), Some("Furies"), "{e}");
    let e = parse_arcs("L/F/X").unwrap_err();
    assert_eq!(e.column, 5, "{e}");
    assert!(e.expected.contains("fire arc"), "{e}");
    let e = parse_turns("45").unwrap_err();
    assert_eq!(e.column, 3, "{e}");
    assert!(parse_strength("6x").is_err());
    assert!(parse_ship_range("30").is_err());
}

#[test]
fn terms_for_explain() {
    let parts =
        parse_ship_terms("Cruiser/8, F6+/5+, 45°, (30cm), L/F/R, D6+2, Furies (30cm), Prow nova cannon")
            .unwrap_or_else(|e| panic!("{e}"));
    let printed: Vec<String> = parts.iter().map(|p| p.term.to_string()).collect();
    assert_eq!(
        printed,
        [
            "Cruiser/8",
            "F6+/5+",
            "45°",
            "(30cm)",
            "L/F/R",
            "D6+2",
            "Furies (30cm)",
            "Prow nova cannon"
        ]
    );
    for part in &parts {
        for id in part.term.glossary_ids() {
            assert!(GLOSSARY_IDS.contains(&id), "{id}");
        }
    }
}
