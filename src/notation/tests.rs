//! Every notation the pack uses (the list and the sources README's),
//! with the value it parses to and its canonical spelling.

use super::*;

fn d(n: u32) -> Dice {
    Dice::fixed(n)
}

/// (text, parsed, canonical)
#[test]
fn ranges() {
    let table = [
        ("45cm", Range::Distance(45), "45cm"),
        ("0cm", Range::Distance(0), "0cm"),
        ("(15cm)", Range::Firefight(15), "(15cm)"),
        ("(15 cm)", Range::Firefight(15), "(15cm)"),
        ("(contact)", Range::BaseContact, "(bc)"),
        ("(bc)", Range::BaseContact, "(bc)"),
        ("(base contact)", Range::BaseContact, "(bc)"),
        ("30-150cm", Range::Band { min: 30, max: 150 }, "30-150cm"),
        ("Unlimited", Range::Unlimited, "Unlimited"),
        ("n/a", Range::NotApplicable, "n/a"),
    ];
    for (text, parsed, canonical) in table {
        let got = parse_range(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(got, parsed, "{text}");
        assert_eq!(got.to_string(), canonical, "{text}");
    }
}

fn shots(multiplier: Option<Dice>, shots: &[(ShotKind, u8)]) -> Firepower {
    Firepower::Shots {
        multiplier,
        shots: shots.iter().map(|&(kind, score)| Shot { kind, score }).collect(),
    }
}

#[test]
fn firepower() {
    use ShotKind::*;
    let table = [
        ("Small Arms", Firepower::SmallArms, "Small Arms"),
        ("Assault Weapons", Firepower::AssaultWeapons, "Assault Weapons"),
        ("AP5+", shots(None, &[(AntiPersonnel, 5)]), "AP5+"),
        ("AT6+", shots(None, &[(AntiTank, 6)]), "AT6+"),
        ("AA4+", shots(None, &[(AntiAircraft, 4)]), "AA4+"),
        (
            "AP5+/AT6+",
            shots(None, &[(AntiPersonnel, 5), (AntiTank, 6)]),
            "AP5+/AT6+",
        ),
        (
            "AT4+/AA4+",
            shots(None, &[(AntiTank, 4), (AntiAircraft, 4)]),
            "AT4+/AA4+",
        ),
        (
            "AP5+/AT6+/AA5+",
            shots(None, &[(AntiPersonnel, 5), (AntiTank, 6), (AntiAircraft, 5)]),
            "AP5+/AT6+/AA5+",
        ),
        ("2x AP4+", shots(Some(d(2)), &[(AntiPersonnel, 4)]), "2× AP4+"),
        ("2× AP4+", shots(Some(d(2)), &[(AntiPersonnel, 4)]), "2× AP4+"),
        ("3× AP5+", shots(Some(d(3)), &[(AntiPersonnel, 5)]), "3× AP5+"),
        (
            "D3× AP5+",
            shots(Some(Dice::roll(1, 3, 0)), &[(AntiPersonnel, 5)]),
            "D3× AP5+",
        ),
        (
            "D6+3x AP5+/AA6+",
            shots(
                Some(Dice::roll(1, 6, 3)),
                &[(AntiPersonnel, 5), (AntiAircraft, 6)],
            ),
            "D6+3× AP5+/AA6+",
        ),
        ("2BP", Firepower::Barrage(d(2)), "2BP"),
        ("1BP", Firepower::Barrage(d(1)), "1BP"),
        ("14BP", Firepower::Barrage(d(14)), "14BP"),
        ("D6+1BP", Firepower::Barrage(Dice::roll(1, 6, 1)), "D6+1BP"),
        ("MW2+", shots(None, &[(Macro, 2)]), "MW2+"),
        ("MW 2+", shots(None, &[(Macro, 2)]), "MW2+"),
        ("2x MW2+", shots(Some(d(2)), &[(Macro, 2)]), "2× MW2+"),
        (
            "MW5+/AA5+",
            shots(None, &[(Macro, 5), (AntiAircraft, 5)]),
            "MW5+/AA5+",
        ),
    ];
    for (text, parsed, canonical) in table {
        let got = parse_firepower(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(got, parsed, "{text}");
        assert_eq!(got.to_string(), canonical, "{text}");
    }
}

#[test]
fn weapon_notes() {
    use WeaponNote::*;
    let table = [
        ("MW", MacroWeapon, "MW"),
        ("Macro-weapon", MacroWeapon, "MW"),
        ("Macro Weapon", MacroWeapon, "MW"),
        ("TK", TitanKiller(None), "TK"),
        ("TK(D3)", TitanKiller(Some(Dice::roll(1, 3, 0))), "TK(D3)"),
        ("TK(D6)", TitanKiller(Some(Dice::roll(1, 6, 0))), "TK(D6)"),
        (
            "Titan Killer (D3)",
            TitanKiller(Some(Dice::roll(1, 3, 0))),
            "TK(D3)",
        ),
        ("Titan Killer", TitanKiller(None), "TK"),
        ("EA(+1)", ExtraAttacks(d(1)), "EA(+1)"),
        ("EA(+2)", ExtraAttacks(d(2)), "EA(+2)"),
        ("EA(+3)", ExtraAttacks(d(3)), "EA(+3)"),
        ("EA(+4)", ExtraAttacks(d(4)), "EA(+4)"),
        ("EA(+D3)", ExtraAttacks(Dice::roll(1, 3, 0)), "EA(+D3)"),
        ("Extra Attacks (+2)", ExtraAttacks(d(2)), "EA(+2)"),
        ("+1A", ExtraAttacks(d(1)), "EA(+1)"),
        ("+D3A", ExtraAttacks(Dice::roll(1, 3, 0)), "EA(+D3)"),
        ("IC", IgnoreCover, "IC"),
        ("Ignore Cover", IgnoreCover, "IC"),
        ("Ind", IndirectFire, "Ind"),
        ("Indirect Fire", IndirectFire, "Ind"),
        ("D", Disrupt, "D"),
        ("Disrupt", Disrupt, "D"),
        ("FS", FirstStrike, "FS"),
        ("First Strike", FirstStrike, "FS"),
        ("L", Lance, "L"),
        ("Lance", Lance, "L"),
        ("S", Sniper, "S"),
        ("Sniper", Sniper, "S"),
        ("SS", SingleShot, "SS"),
        ("Single Shot", SingleShot, "SS"),
        ("Slw", SlowFiring, "Slw"),
        ("Slow Firing", SlowFiring, "Slw"),
        ("GM", GuidedMissile, "GM"),
        ("Guided Missiles", GuidedMissile, "GM"),
        ("WM", WeaponMount, "WM"),
        ("Weapon Mount", WeaponMount, "WM"),
        ("FxF", Arc(FireArc::FixedForward), "FxF"),
        ("Fixed Forward", Arc(FireArc::FixedForward), "FxF"),
        ("Fixed Forward Arc", Arc(FireArc::FixedForward), "FxF"),
        ("Fixed Forward Fire Arc", Arc(FireArc::FixedForward), "FxF"),
        ("FwA", Arc(FireArc::Forward), "FwA"),
        ("Forward Fire Arc", Arc(FireArc::Forward), "FwA"),
        ("Left", Arc(FireArc::Left), "Left"),
        ("Left Fire Arc", Arc(FireArc::Left), "Left"),
        ("Right", Arc(FireArc::Right), "Right"),
        ("Right Arc", Arc(FireArc::Right), "Right"),
        ("RrA", Arc(FireArc::Rear), "RrA"),
        ("Rear Fire Arc", Arc(FireArc::Rear), "RrA"),
    ];
    for (text, parsed, canonical) in table {
        let got = parse_weapon_note(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(got, parsed, "{text}");
        assert_eq!(got.to_string(), canonical, "{text}");
    }
}

#[test]
fn unit_notes_with_parameters() {
    use UnitNote::*;
    let table = [
        ("Damage Capacity 3", DamageCapacity(3), "Damage Capacity 3"),
        ("Damage Capacity 12", DamageCapacity(12), "Damage Capacity 12"),
        ("DC4", DamageCapacity(4), "Damage Capacity 4"),
        ("4 Void Shields", VoidShields(4), "4 Void Shields"),
        ("1 Void Shield", VoidShields(1), "1 Void Shield"),
        (
            "D3 Power Fields",
            PowerFields(Dice::roll(1, 3, 0)),
            "D3 Power Fields",
        ),
        (
            "D3+3 Power Fields",
            PowerFields(Dice::roll(1, 3, 3)),
            "D3+3 Power Fields",
        ),
        (
            "D6+6 Power Fields",
            PowerFields(Dice::roll(1, 6, 6)),
            "D6+6 Power Fields",
        ),
        ("2 Shadowfields", Shadowfields(2), "2 Shadowfields"),
        ("Brood (1)", Brood(1), "Brood (1)"),
        ("Brood (2)", Brood(2), "Brood (2)"),
        ("Synapse (1)", Synapse(1), "Synapse (1)"),
        ("Synapse (2)", Synapse(2), "Synapse (2)"),
        ("Synapse (+1)", SynapseBonus(1), "Synapse (+1)"),
        (
            "Augmented Summoning (+2)",
            AugmentedSummoning(d(2)),
            "Augmented Summoning (+2)",
        ),
        (
            "Augmented Summoning (+2D3)",
            AugmentedSummoning(Dice::roll(2, 3, 0)),
            "Augmented Summoning (+2D3)",
        ),
    ];
    for (text, parsed, canonical) in table {
        let got = parse_unit_note(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(got, parsed, "{text}");
        assert_eq!(got.to_string(), canonical, "{text}");
    }
}

#[test]
fn every_named_unit_note_parses_in_its_canonical_spelling() {
    for &note in NamedNote::ALL {
        let text = note.as_str();
        assert_eq!(parse_unit_note(text), Ok(UnitNote::Named(note)), "{text}");
        assert_eq!(
            parse_unit_note(&text.to_lowercase()),
            Ok(UnitNote::Named(note)),
            "{text}"
        );
        assert_eq!(UnitNote::Named(note).to_string(), text);
    }
    // The sources README's list, and the spelling variants the pack uses.
    let readme = [
        "Reinforced Armour",
        "Thick Rear Armour",
        "Walker",
        "Skimmer",
        "Scout",
        "Leader",
        "Inspiring",
        "Infiltrator",
        "Commander",
        "Supreme Commander",
        "Teleport",
        "Mounted",
        "Jump Packs",
        "Expendable",
        "Planetfall",
        "Fearless",
        "Invulnerable Save",
        "Transport",
        "Daemonic Focus",
        "Holofield",
        "Living Metal",
        "Knight Shield",
        "Farsight",
        "Sniper",
        "Slow and Steady",
        "Necron",
        "Markerlights",
        "Webway Portal",
        "Regeneration",
        "Coordinated Fire",
        "Tunneler",
        "Tau Jet Packs",
        "Portal",
        "Support Craft",
        "Deflector Shield",
        "Self Planetfall",
        "Automaton",
        "Automata",
    ];
    for text in readme {
        assert!(matches!(parse_unit_note(text), Ok(UnitNote::Named(_))), "{text}");
    }
    assert_eq!(
        parse_unit_note("Automata"),
        Ok(UnitNote::Named(NamedNote::Automaton))
    );
}

#[test]
fn speeds_rolls_and_weapon_names() {
    assert_eq!(parse_speed("15cm"), Ok(Speed::Cm(15)));
    assert_eq!(parse_speed("Fighter-bomber"), Ok(Speed::FighterBomber));
    assert_eq!(parse_speed("Fighter"), Ok(Speed::Fighter));
    assert_eq!(parse_speed("Bomber"), Ok(Speed::Bomber));
    assert_eq!(parse_speed("Immobile"), Ok(Speed::Immobile));
    assert_eq!(parse_speed("n/a"), Ok(Speed::NotApplicable));
    assert_eq!(parse_roll("4+"), Ok(Roll::Score(4)));
    assert_eq!(parse_roll("-"), Ok(Roll::None));
    assert_eq!(parse_roll("n/a"), Ok(Roll::NotApplicable));
    let name = parse_weapon_name("2x Missile Launcher").unwrap();
    assert_eq!(name.multiplier, Some(d(2)));
    assert_eq!(name.to_string(), "2× Missile Launcher");
    let name = parse_weapon_name("Deathstrike Missile").unwrap();
    assert_eq!(name.multiplier, None);
    assert_eq!(name.to_string(), "Deathstrike Missile");
    let name = parse_weapon_name("D3x Xenos Cannon").unwrap();
    assert_eq!(name.to_string(), "D3× Xenos Cannon");
}

#[test]
fn keywords_stop_at_word_boundaries() {
    // `L` is Lance, `Left` a fire arc; `MW` alone a note, `MW2+` firepower.
    assert_eq!(parse_weapon_note("Left"), Ok(WeaponNote::Arc(FireArc::Left)));
    assert_eq!(parse_weapon_note("L"), Ok(WeaponNote::Lance));
    assert!(parse_weapon_note("MW2+").is_err());
    assert!(parse_weapon_note("Lx").is_err());
    assert!(parse_unit_note("Walkers").is_err());
}

#[test]
fn unknown_notation_says_where_and_what() {
    let e = parse_firepower("AP5+/XT6+").unwrap_err();
    assert_eq!(e.column, 6);
    assert_eq!(e.expected, "AP, AT, AA or MW");
    let e = parse_unit_note("Reinforced Armor").unwrap_err();
    assert_eq!(e.column, 1);
    assert_eq!(e.suggestion.as_deref(), Some("Reinforced Armour"));
    assert!(e.to_string().contains("did you mean `Reinforced Armour`?"), "{e}");
    let e = parse_weapon_note("Macro-wepon").unwrap_err();
    assert_eq!(e.suggestion.as_deref(), Some("Macro-weapon"));
    let e = parse_range("45 inches").unwrap_err();
    assert!(e.expected.contains("range"), "{e}");
    let e = parse_weapon_note("EA(+1").unwrap_err();
    assert_eq!(e.column, 6, "{e}");
}

#[test]
fn terms_split_on_commas_and_keep_their_place() {
    let parts = parse_terms("MW2+, TK(D3), FxF").unwrap();
    let shown: Vec<String> = parts.iter().map(|p| p.term.to_string()).collect();
    assert_eq!(shown, ["MW2+", "TK(D3)", "FxF"]);
    assert_eq!(parts[1].span, Span::new(6, 12));
    assert!(matches!(parts[0].term, Term::Firepower(_)));
    assert!(matches!(
        parts[1].term,
        Term::WeaponNote(WeaponNote::TitanKiller(_))
    ));

    let parts = parse_terms("INF, CC, 4 Void Shields, (bc), 4+, Walker, BP").unwrap();
    let kinds: Vec<&str> = parts.iter().map(|p| p.term.kind()).collect();
    assert_eq!(
        kinds,
        [
            "abbreviation",
            "abbreviation",
            "unit note",
            "range",
            "armour, close combat or firefight value",
            "unit note",
            "abbreviation"
        ]
    );
    assert!(parse_terms("MW2+, Wibble").is_err());
    assert!(parse_terms("").is_err());
}

#[test]
fn descriptions_use_the_parameters() {
    let t = |s: &str| parse_terms(s).unwrap().remove(0).term;
    assert_eq!(
        t("TK(D3)").describe().as_deref(),
        Some("a war engine it hits loses D3 points of damage capacity")
    );
    assert_eq!(t("EA(+1)").describe().as_deref(), Some("1 extra attack"));
    assert_eq!(
        t("2x AP5+/AT6+").describe().as_deref(),
        Some(
            "rolls 2 dice to hit infantry and light vehicles on 5+ (AP), or armoured vehicles, light vehicles and war engines on 6+ (AT): one of these each time it fires"
        )
    );
    assert_eq!(
        t("Damage Capacity 3").describe().as_deref(),
        Some("it takes 3 points of damage to destroy")
    );
    assert_eq!(t("Walker").describe(), None);
    assert_eq!(t("2× AP5+").glossary_ids(), ["multiplier", "anti-personnel"]);
}

proptest::proptest! {
    /// Any text gives a value or an error, never a panic; an error's
    /// position is inside the text.
    #[test]
    fn any_text_parses_or_says_where_it_stops(text in "\\PC{0,40}") {
        let chars = text.chars().count() + 1;
        let check = |e: NotationError| {
            assert!(e.column <= chars && e.offset <= text.len(), "{text:?}: {e:?}");
        };
        let _ = parse_terms(&text).map_err(check);
        let _ = parse_firepower(&text).map_err(check);
        let _ = parse_range(&text).map_err(check);
        let _ = parse_weapon_note(&text).map_err(check);
        let _ = parse_unit_note(&text).map_err(check);
        let _ = parse_speed(&text).map_err(check);
        let _ = parse_roll(&text).map_err(check);
        let _ = parse_weapon_name(&text).map_err(check);
    }

    /// Notation-shaped text (the grammar's own alphabet) round-trips.
    #[test]
    fn what_parses_prints_back_to_itself(text in "[0-9DxAPTMWBSLICFRrwa+/() ,-]{1,16}") {
        if let Ok(parts) = parse_terms(&text) {
            for part in parts {
                let again = parse_terms(&part.term.to_string());
                proptest::prop_assert_eq!(again.map(|p| p.into_iter().map(|p| p.term).collect::<Vec<_>>()), Ok(vec![part.term]));
            }
        }
    }
}
