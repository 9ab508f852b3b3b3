//! From notation text to the types of [`super`], one function per grammar
//! rule. The grammar guarantees each pair's shape; a shape it does not allow
//! is a bug in this file, reported by `unreachable!` naming the function.

use super::{
    Abbreviation, Dice, FireArc, Firepower, NamedNote, Part, Range, Roll, Shot, ShotKind, Speed, Term,
    UnitNote, WeaponName, WeaponNote,
};
use pest::iterators::Pair;
use pest_derive::Parser;
use std::fmt;

#[derive(Parser)]
#[grammar = "../grammar/notation.pest"]
struct NotationParser;

/// Rebuild when the grammar changes.
const _GRAMMAR: &str = include_str!("../../grammar/notation.pest");

/// Text that is not notation, with the place it stops making sense.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotationError {
    /// Byte offset in the text.
    pub offset: usize,
    /// 1-based character position in the text.
    pub column: usize,
    /// What was expected there.
    pub expected: String,
    /// A known spelling close to the text, if there is one.
    pub suggestion: Option<String>,
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at character {}: expected {}", self.column, self.expected)?;
        if let Some(s) = &self.suggestion {
            write!(f, " (did you mean `{s}`?)")?;
        }
        Ok(())
    }
}

pub fn parse_range(text: &str) -> Result<Range, NotationError> {
    value(Rule::range_value, text).map(range)
}

pub fn parse_firepower(text: &str) -> Result<Firepower, NotationError> {
    value(Rule::firepower_value, text).map(firepower)
}

pub fn parse_weapon_note(text: &str) -> Result<WeaponNote, NotationError> {
    value(Rule::weapon_note_value, text).map(weapon_note)
}

pub fn parse_unit_note(text: &str) -> Result<UnitNote, NotationError> {
    value(Rule::unit_note_value, text).map(unit_note)
}

pub fn parse_speed(text: &str) -> Result<Speed, NotationError> {
    value(Rule::speed_value, text).map(speed)
}

/// Armour, close combat and firefight values.
pub fn parse_roll(text: &str) -> Result<Roll, NotationError> {
    value(Rule::roll_value, text).map(roll)
}

pub fn parse_weapon_name(text: &str) -> Result<WeaponName, NotationError> {
    value(Rule::weapon_name_value, text).map(weapon_name)
}

const GRAMMAR: super::pest_glue::Grammar<Rule> = super::pest_glue::Grammar {
    terms: Rule::terms,
    eoi: Rule::EOI,
    name: rule_name,
    suggest,
};

fn value(rule: Rule, text: &str) -> Result<Pair<'_, Rule>, NotationError> {
    super::pest_glue::value::<NotationParser, Rule>(&GRAMMAR, rule, text)
}

/// Comma-separated notation of any kind, as `muster explain` takes it.
pub fn parse_terms(text: &str) -> Result<Vec<Part>, NotationError> {
    let parts = super::pest_glue::terms::<NotationParser, Rule, _>(&GRAMMAR, Rule::term, text, term)?;
    Ok(parts
        .into_iter()
        .map(|(term, span)| Part { term, span })
        .collect())
}

/// Spellings to suggest for a value that does not parse.
fn suggest(entry: Rule, text: &str) -> Option<String> {
    const WEAPON_NOTES: &[&str] = &[
        "MW",
        "Macro-weapon",
        "TK",
        "Titan Killer",
        "EA(+1)",
        "Extra Attacks",
        "IC",
        "Ignore Cover",
        "Ind",
        "Indirect Fire",
        "D",
        "Disrupt",
        "FS",
        "First Strike",
        "L",
        "Lance",
        "S",
        "Sniper",
        "SS",
        "Single Shot",
        "Slw",
        "Slow Firing",
        "GM",
        "Guided Missile",
        "WM",
        "Weapon Mount",
        "FxF",
        "Fixed Forward",
        "FwA",
        "Forward Fire Arc",
        "Left",
        "Right",
        "RrA",
        "Rear Fire Arc",
    ];
    const OTHER: &[&str] = &[
        "Small Arms",
        "Assault Weapons",
        "Unlimited",
        "Fighter",
        "Bomber",
        "Fighter-bomber",
        "Immobile",
        "Damage Capacity",
        "Void Shields",
        "Power Fields",
        "Shadowfields",
        "Brood",
        "Synapse",
        "Augmented Summoning",
    ];
    let named = NamedNote::ALL.iter().map(|n| n.as_str());
    let candidates: Vec<&str> = match entry {
        Rule::weapon_note_value => WEAPON_NOTES.to_vec(),
        Rule::unit_note_value => named.chain(OTHER[7..].iter().copied()).collect(),
        Rule::firepower_value => OTHER[..2].to_vec(),
        Rule::speed_value => OTHER[3..7].to_vec(),
        _ => WEAPON_NOTES
            .iter()
            .copied()
            .chain(named)
            .chain(OTHER.iter().copied())
            .collect(),
    };
    // Short abbreviations are one edit from anything; only suggest for words.
    let text = text.trim();
    if text.chars().count() < 4 {
        return None;
    }
    crate::diagnostic::nearest(text, candidates.iter().copied().filter(|c| c.len() > 3))
        .filter(|s| !s.eq_ignore_ascii_case(text))
        .map(str::to_string)
}

/// User-facing names for grammar rules. Exhaustive, so a new rule must be
/// named here.
fn rule_name(rule: &Rule) -> String {
    match rule {
        Rule::EOI => "the end of the value",
        Rule::WHITESPACE => "a space",
        Rule::number => "a number",
        Rule::die | Rule::dice | Rule::dice_plus => "a number or dice roll (2, D3, D6+3)",
        Rule::score => "a score such as 4+",
        Rule::boundary => "the end of a word",
        Rule::range_value
        | Rule::range
        | Rule::distance
        | Rule::range_band
        | Rule::firefight_range
        | Rule::base_contact
        | Rule::unlimited
        | Rule::not_applicable => "a range such as 45cm, (15cm), (bc) or 30-150cm",
        Rule::firepower_value
        | Rule::firepower
        | Rule::small_arms
        | Rule::assault_weapons
        | Rule::barrage
        | Rule::shots => "a firepower such as AP5+/AT6+, MW2+, 2BP, Small Arms or Assault Weapons",
        Rule::multiplier => "a multiplier such as 2×",
        Rule::shot => "a firepower value such as AP5+",
        Rule::shot_kind => "AP, AT, AA or MW",
        Rule::weapon_note_value
        | Rule::weapon_note
        | Rule::extra_attacks
        | Rule::ea_keyword
        | Rule::plus_attacks
        | Rule::titan_killer
        | Rule::tk_keyword
        | Rule::macro_weapon
        | Rule::ignore_cover
        | Rule::indirect_fire
        | Rule::disrupt
        | Rule::first_strike
        | Rule::lance
        | Rule::single_shot
        | Rule::slow_firing
        | Rule::guided_missile
        | Rule::weapon_mount
        | Rule::fire_arc
        | Rule::arc_suffix
        | Rule::arc_fixed_forward
        | Rule::arc_forward
        | Rule::arc_left
        | Rule::arc_right
        | Rule::arc_rear => "a weapon note such as MW, TK(D3), EA(+1), IC or FxF",
        Rule::sniper => "a weapon or unit note",
        Rule::unit_note_value
        | Rule::unit_note
        | Rule::damage_capacity
        | Rule::dc_keyword
        | Rule::void_shields
        | Rule::void_shield_word
        | Rule::power_fields
        | Rule::power_field_word
        | Rule::shadowfields
        | Rule::shadowfield_word
        | Rule::brood
        | Rule::brood_keyword
        | Rule::synapse
        | Rule::synapse_keyword
        | Rule::synapse_bonus
        | Rule::augmented_summoning
        | Rule::summoning_keyword
        | Rule::named_note
        | Rule::reinforced_armour
        | Rule::thick_rear_armour
        | Rule::walker
        | Rule::skimmer
        | Rule::scout
        | Rule::leader
        | Rule::inspiring
        | Rule::infiltrator
        | Rule::supreme_commander
        | Rule::commander
        | Rule::teleport
        | Rule::mounted
        | Rule::jump_packs
        | Rule::expendable
        | Rule::self_planetfall
        | Rule::planetfall
        | Rule::fearless
        | Rule::invulnerable_save
        | Rule::transport
        | Rule::daemonic_focus
        | Rule::holofield
        | Rule::living_metal
        | Rule::knight_shield
        | Rule::farsight
        | Rule::slow_and_steady
        | Rule::necron
        | Rule::markerlights
        | Rule::webway_portal
        | Rule::regeneration
        | Rule::coordinated_fire
        | Rule::tunneler
        | Rule::tau_jet_packs
        | Rule::portal
        | Rule::support_craft
        | Rule::deflector_shield
        | Rule::automaton => "a unit note such as Walker, Damage Capacity 3 or 4 Void Shields",
        Rule::speed_value
        | Rule::speed
        | Rule::fighter_bomber
        | Rule::fighter
        | Rule::bomber
        | Rule::immobile => "a speed such as 15cm, Fighter or Bomber",
        Rule::roll_value | Rule::roll | Rule::no_value => "a score such as 4+, or - for none, or n/a",
        Rule::weapon_name_value | Rule::weapon_name | Rule::name_text => "a weapon name",
        Rule::terms | Rule::term => "datasheet notation",
        Rule::abbreviation => "an abbreviation such as INF or CC",
    }
    .to_string()
}

fn number(pair: Pair<'_, Rule>) -> u32 {
    // The grammar allows at most four digits, so this always fits.
    pair.as_str().parse().unwrap_or(0)
}

fn dice(pair: Pair<'_, Rule>) -> Dice {
    let mut count = None;
    let mut sides = None;
    let mut plus = 0;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::number => count = Some(number(p)),
            Rule::die => sides = p.as_str().get(1..).and_then(|s| s.parse().ok()),
            Rule::dice_plus => plus = p.into_inner().next().map_or(0, number),
            other => unreachable!("{other:?} not supposed to get there (dice)"),
        }
    }
    match sides {
        Some(sides) => Dice::roll(count.unwrap_or(1), sides, plus),
        None => Dice::fixed(count.unwrap_or(0)),
    }
}

/// The first child of a pair the grammar says has one.
fn only<'i>(pair: Pair<'i, Rule>, function: &str) -> Pair<'i, Rule> {
    match pair.into_inner().next() {
        Some(child) => child,
        None => unreachable!("an empty pair (in {function})"),
    }
}

fn first_number(pair: Pair<'_, Rule>) -> u32 {
    pair.into_inner()
        .find(|p| p.as_rule() == Rule::number)
        .map_or(0, number)
}

fn first_dice(pair: Pair<'_, Rule>) -> Option<Dice> {
    pair.into_inner().find(|p| p.as_rule() == Rule::dice).map(dice)
}

fn range(pair: Pair<'_, Rule>) -> Range {
    let inner = only(pair, "range");
    match inner.as_rule() {
        Rule::distance => Range::Distance(first_number(inner)),
        Rule::range_band => {
            let mut numbers = inner
                .into_inner()
                .filter(|p| p.as_rule() == Rule::number)
                .map(number);
            let min = numbers.next().unwrap_or(0);
            let max = numbers.next().unwrap_or(0);
            Range::Band { min, max }
        }
        Rule::firefight_range => Range::Firefight(first_number(only(inner, "range"))),
        Rule::base_contact => Range::BaseContact,
        Rule::unlimited => Range::Unlimited,
        Rule::not_applicable => Range::NotApplicable,
        other => unreachable!("{other:?} not supposed to get there (range)"),
    }
}

fn score(pair: Pair<'_, Rule>) -> u8 {
    pair.as_str().bytes().next().map_or(0, |b| b.saturating_sub(b'0'))
}

fn firepower(pair: Pair<'_, Rule>) -> Firepower {
    let inner = only(pair, "firepower");
    match inner.as_rule() {
        Rule::small_arms => Firepower::SmallArms,
        Rule::assault_weapons => Firepower::AssaultWeapons,
        Rule::barrage => Firepower::Barrage(first_dice(inner).unwrap_or(Dice::fixed(0))),
        Rule::shots => {
            let mut multiplier = None;
            let mut shots = Vec::new();
            for p in inner.into_inner() {
                match p.as_rule() {
                    Rule::multiplier => multiplier = first_dice(p),
                    Rule::shot => shots.push(shot(p)),
                    other => unreachable!("{other:?} not supposed to get there (firepower)"),
                }
            }
            Firepower::Shots { multiplier, shots }
        }
        other => unreachable!("{other:?} not supposed to get there (firepower)"),
    }
}

fn shot(pair: Pair<'_, Rule>) -> Shot {
    let mut kind = ShotKind::AntiPersonnel;
    let mut value = 0;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::shot_kind => {
                kind = match p.as_str().to_ascii_uppercase().as_str() {
                    "AP" => ShotKind::AntiPersonnel,
                    "AT" => ShotKind::AntiTank,
                    "AA" => ShotKind::AntiAircraft,
                    "MW" => ShotKind::Macro,
                    other => unreachable!("{other:?} not supposed to get there (shot)"),
                }
            }
            Rule::score => value = score(p),
            other => unreachable!("{other:?} not supposed to get there (shot)"),
        }
    }
    Shot { kind, score: value }
}

fn weapon_note(pair: Pair<'_, Rule>) -> WeaponNote {
    let inner = only(pair, "weapon_note");
    match inner.as_rule() {
        Rule::extra_attacks => WeaponNote::ExtraAttacks(extra_attacks(inner)),
        Rule::titan_killer => WeaponNote::TitanKiller(first_dice(inner)),
        Rule::macro_weapon => WeaponNote::MacroWeapon,
        Rule::ignore_cover => WeaponNote::IgnoreCover,
        Rule::indirect_fire => WeaponNote::IndirectFire,
        Rule::disrupt => WeaponNote::Disrupt,
        Rule::first_strike => WeaponNote::FirstStrike,
        Rule::lance => WeaponNote::Lance,
        Rule::single_shot => WeaponNote::SingleShot,
        Rule::slow_firing => WeaponNote::SlowFiring,
        Rule::sniper => WeaponNote::Sniper,
        Rule::guided_missile => WeaponNote::GuidedMissile,
        Rule::weapon_mount => WeaponNote::WeaponMount,
        Rule::fire_arc => WeaponNote::Arc(match only(inner, "weapon_note").as_rule() {
            Rule::arc_fixed_forward => FireArc::FixedForward,
            Rule::arc_forward => FireArc::Forward,
            Rule::arc_left => FireArc::Left,
            Rule::arc_right => FireArc::Right,
            Rule::arc_rear => FireArc::Rear,
            other => unreachable!("{other:?} not supposed to get there (weapon_note)"),
        }),
        other => unreachable!("{other:?} not supposed to get there (weapon_note)"),
    }
}

fn extra_attacks(pair: Pair<'_, Rule>) -> Dice {
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::dice => return dice(p),
            Rule::plus_attacks => return first_dice(p).unwrap_or(Dice::fixed(1)),
            Rule::ea_keyword => {}
            other => unreachable!("{other:?} not supposed to get there (extra_attacks)"),
        }
    }
    Dice::fixed(1)
}

fn unit_note(pair: Pair<'_, Rule>) -> UnitNote {
    let inner = only(pair, "unit_note");
    match inner.as_rule() {
        Rule::damage_capacity => UnitNote::DamageCapacity(first_number(inner)),
        Rule::void_shields => UnitNote::VoidShields(first_number(inner)),
        Rule::power_fields => UnitNote::PowerFields(first_dice(inner).unwrap_or(Dice::fixed(0))),
        Rule::shadowfields => UnitNote::Shadowfields(first_number(inner)),
        Rule::brood => UnitNote::Brood(first_number(inner)),
        Rule::synapse => {
            let value = inner.into_inner().find(|p| p.as_rule() != Rule::synapse_keyword);
            match value {
                Some(p) if p.as_rule() == Rule::synapse_bonus => UnitNote::SynapseBonus(first_number(p)),
                Some(p) => UnitNote::Synapse(number(p)),
                None => UnitNote::Synapse(0),
            }
        }
        Rule::augmented_summoning => {
            UnitNote::AugmentedSummoning(first_dice(inner).unwrap_or(Dice::fixed(0)))
        }
        Rule::named_note => UnitNote::Named(named_note(only(inner, "unit_note"))),
        other => unreachable!("{other:?} not supposed to get there (unit_note)"),
    }
}

fn named_note(pair: Pair<'_, Rule>) -> NamedNote {
    match pair.as_rule() {
        Rule::reinforced_armour => NamedNote::ReinforcedArmour,
        Rule::thick_rear_armour => NamedNote::ThickRearArmour,
        Rule::walker => NamedNote::Walker,
        Rule::skimmer => NamedNote::Skimmer,
        Rule::scout => NamedNote::Scout,
        Rule::leader => NamedNote::Leader,
        Rule::inspiring => NamedNote::Inspiring,
        Rule::infiltrator => NamedNote::Infiltrator,
        Rule::supreme_commander => NamedNote::SupremeCommander,
        Rule::commander => NamedNote::Commander,
        Rule::teleport => NamedNote::Teleport,
        Rule::mounted => NamedNote::Mounted,
        Rule::jump_packs => NamedNote::JumpPacks,
        Rule::expendable => NamedNote::Expendable,
        Rule::self_planetfall => NamedNote::SelfPlanetfall,
        Rule::planetfall => NamedNote::Planetfall,
        Rule::fearless => NamedNote::Fearless,
        Rule::invulnerable_save => NamedNote::InvulnerableSave,
        Rule::transport => NamedNote::Transport,
        Rule::daemonic_focus => NamedNote::DaemonicFocus,
        Rule::holofield => NamedNote::Holofield,
        Rule::living_metal => NamedNote::LivingMetal,
        Rule::knight_shield => NamedNote::KnightShield,
        Rule::farsight => NamedNote::Farsight,
        Rule::sniper => NamedNote::Sniper,
        Rule::slow_and_steady => NamedNote::SlowAndSteady,
        Rule::necron => NamedNote::Necron,
        Rule::markerlights => NamedNote::Markerlights,
        Rule::webway_portal => NamedNote::WebwayPortal,
        Rule::regeneration => NamedNote::Regeneration,
        Rule::coordinated_fire => NamedNote::CoordinatedFire,
        Rule::tunneler => NamedNote::Tunneler,
        Rule::tau_jet_packs => NamedNote::TauJetPacks,
        Rule::portal => NamedNote::Portal,
        Rule::support_craft => NamedNote::SupportCraft,
        Rule::deflector_shield => NamedNote::DeflectorShield,
        Rule::automaton => NamedNote::Automaton,
        Rule::first_strike => NamedNote::FirstStrike,
        other => unreachable!("{other:?} not supposed to get there (named_note)"),
    }
}

fn speed(pair: Pair<'_, Rule>) -> Speed {
    let inner = only(pair, "speed");
    match inner.as_rule() {
        Rule::distance => Speed::Cm(first_number(inner)),
        Rule::fighter_bomber => Speed::FighterBomber,
        Rule::fighter => Speed::Fighter,
        Rule::bomber => Speed::Bomber,
        Rule::immobile => Speed::Immobile,
        Rule::not_applicable => Speed::NotApplicable,
        other => unreachable!("{other:?} not supposed to get there (speed)"),
    }
}

fn roll(pair: Pair<'_, Rule>) -> Roll {
    let inner = only(pair, "roll");
    match inner.as_rule() {
        Rule::score => Roll::Score(score(inner)),
        Rule::no_value => Roll::None,
        Rule::not_applicable => Roll::NotApplicable,
        other => unreachable!("{other:?} not supposed to get there (roll)"),
    }
}

fn weapon_name(pair: Pair<'_, Rule>) -> WeaponName {
    let mut multiplier = None;
    let mut name = String::new();
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::multiplier => multiplier = first_dice(p),
            // Only the grammar's blanks: `trim` also took a vertical tab, so
            // a name of one printed as nothing (found by fuzzing).
            Rule::name_text => name = p.as_str().trim_matches([' ', '\t']).to_string(),
            other => unreachable!("{other:?} not supposed to get there (weapon_name)"),
        }
    }
    WeaponName { multiplier, name }
}

fn abbreviation(pair: Pair<'_, Rule>) -> Abbreviation {
    match pair.as_str().to_ascii_uppercase().as_str() {
        "INF" => Abbreviation::Infantry,
        "LV" => Abbreviation::LightVehicle,
        "AV" => Abbreviation::ArmouredVehicle,
        "WE" => Abbreviation::WarEngine,
        "AC" => Abbreviation::Aircraft,
        "SC" => Abbreviation::Spacecraft,
        "CH" => Abbreviation::Character,
        "CC" => Abbreviation::CloseCombat,
        "FF" => Abbreviation::Firefight,
        "DC" => Abbreviation::DamageCapacity,
        "BP" => Abbreviation::BarragePoints,
        "AP" => Abbreviation::AntiPersonnel,
        "AT" => Abbreviation::AntiTank,
        "AA" => Abbreviation::AntiAircraft,
        "EA" => Abbreviation::ExtraAttacks,
        other => unreachable!("{other:?} not supposed to get there (abbreviation)"),
    }
}

fn term(pair: Pair<'_, Rule>) -> Term {
    let inner = only(pair, "term");
    match inner.as_rule() {
        Rule::firepower => Term::Firepower(firepower(inner)),
        Rule::range => Term::Range(range(inner)),
        Rule::roll => Term::Roll(roll(inner)),
        Rule::weapon_note => Term::WeaponNote(weapon_note(inner)),
        Rule::unit_note => Term::UnitNote(unit_note(inner)),
        Rule::speed => Term::Speed(speed(inner)),
        Rule::abbreviation => Term::Abbreviation(abbreviation(inner)),
        other => unreachable!("{other:?} not supposed to get there (term)"),
    }
}
