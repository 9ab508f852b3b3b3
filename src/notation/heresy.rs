//! Heresy datasheet notation (`grammar/heresy.pest`) as typed data: move,
//! plain ratings, morale as fresh/fatigued/routed, weapon ranges,
//! penetration, firepower, weapon types, mounts, how a model moves and the
//! model skills with their parameters. Like the other notations, each value
//! prints back in one canonical form, names the glossary entries that
//! explain it, and fails with the character where it stops making sense.
//!
//! It knows nothing of files: the catalogue parses Heresy datasheets with
//! it, and the limits a value must keep (armour 1 to 10, morale that does
//! not rise as it falls) are checked there, where the field is known.

use super::NotationError;
use super::ship::Stat;
use crate::source::Span;
use pest::iterators::Pair;
use pest_derive::Parser;
use std::fmt;

#[derive(Parser)]
#[grammar = "../grammar/heresy.pest"]
struct HeresyParser;

/// Rebuild when the grammar changes.
const _GRAMMAR: &str = include_str!("../../grammar/heresy.pest");

// ============================================================ TYPES

/// How far a model moves, or `-` where it has no move of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    None,
    Cm(u32),
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::None => f.write_str("-"),
            Move::Cm(n) => write!(f, "{n}cm"),
        }
    }
}

/// Morale target numbers at each level: `5/4/3`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Morale {
    pub fresh: u32,
    pub fatigued: u32,
    pub routed: u32,
}

impl fmt::Display for Morale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}/{}", self.fresh, self.fatigued, self.routed)
    }
}

/// A weapon's reach: short and long (`15/30cm`) or one figure (`60cm`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Range {
    Single(u32),
    ShortLong(u32, u32),
}

impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Range::Single(n) => write!(f, "{n}cm"),
            Range::ShortLong(a, b) => write!(f, "{a}/{b}cm"),
        }
    }
}

impl Range {
    pub fn glossary_ids(self) -> Vec<&'static str> {
        match self {
            Range::Single(_) => vec!["range", "range-single"],
            Range::ShortLong(..) => vec!["range", "range-short-long"],
        }
    }

    pub fn describe(self) -> String {
        match self {
            Range::Single(n) => format!("reaches {n}cm, with no short or long range"),
            Range::ShortLong(a, b) => format!(
                "no penalty up to {a}cm, -2 to hit and to penetrate up to {b}cm (artillery: fires no nearer than {a}cm)"
            ),
        }
    }
}

/// Added to the penetration roll: `+2`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Penetration {
    Bonus(u32),
    Special,
}

impl fmt::Display for Penetration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Penetration::Bonus(n) => write!(f, "+{n}"),
            Penetration::Special => f.write_str("Special"),
        }
    }
}

/// Attack dice, or a template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Firepower {
    Dice(u32),
    Template,
    Special,
}

impl fmt::Display for Firepower {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Firepower::Dice(n) => write!(f, "{n}"),
            Firepower::Template => f.write_str("Template"),
            Firepower::Special => f.write_str("Special"),
        }
    }
}

impl Firepower {
    pub fn glossary_ids(self) -> Vec<&'static str> {
        match self {
            Firepower::Dice(_) => vec!["firepower"],
            Firepower::Template => vec!["firepower", "template"],
            Firepower::Special => vec!["firepower", "special"],
        }
    }
}

macro_rules! keywords {
    ($(#[$doc:meta])* $name:ident { $($variant:ident => $text:literal, $id:literal;)* }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name { $($variant,)* }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text,)* }
            }

            pub fn glossary_id(self) -> &'static str {
                match self { $($name::$variant => $id,)* }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

keywords! {
    /// The three broad kinds of weapon.
    WeaponType {
        AllPurpose => "All-purpose", "all-purpose";
        ArmourPiercing => "Armour-piercing", "armour-piercing";
        AntiInfantry => "Anti-infantry", "anti-infantry";
    }
}

keywords! {
    /// What a weapon sits on, which gives its fire arc.
    Mount {
        Turret => "Turret", "turret";
        TraverseTurret => "Traverse turret", "traverse-turret";
        Swivel => "Swivel mount", "swivel-mount";
        Fixed => "Fixed mount", "fixed-mount";
    }
}

keywords! {
    /// How a model moves.
    Propulsion {
        Foot => "Foot", "foot";
        Cavalry => "Cavalry", "cavalry";
        Wheeled => "Wheeled", "wheeled";
        Tracked => "Tracked", "tracked";
        Grav => "Grav", "grav";
        Walker => "Walker", "walker";
        Flier => "Flier", "flier";
    }
}

keywords! {
    /// The model skills of the rulebook (and the fliers' and psychology
    /// rules that work as skills).
    SkillKind {
        ArchaicTroops => "Archaic troops", "archaic-troops";
        ArmouredUnit => "Armoured unit", "armoured-unit";
        ArtificialIntelligence => "Artificial intelligence", "artificial-intelligence";
        BattlefieldRepairs => "Battlefield repairs", "battlefield-repairs";
        CloseSupport => "Close support", "close-support";
        DemonHunters => "Demon hunters", "demon-hunters";
        EnhancedFireControl => "Enhanced fire control", "enhanced-fire-control";
        FirstStrike => "First strike", "first-strike";
        Flak => "Flak", "flak";
        FlightPacks => "Flight packs", "flight-packs";
        FrenziedAssault => "Frenzied assault", "frenzied-assault";
        HeavyTank => "Heavy tank", "heavy-tank";
        Hero => "Hero", "hero";
        Infiltrate => "Infiltrate", "infiltrate";
        IndependentUnit => "Independent unit", "independent-unit";
        InspiringPresence => "Inspiring presence", "inspiring-presence";
        Invulnerability => "Invulnerability", "invulnerability";
        JumpPacks => "Jump packs", "jump-packs";
        Knight => "Knight", "knight";
        LightUnit => "Light unit", "light-unit";
        Medic => "Medic", "medic";
        MobileArtillery => "Mobile artillery", "mobile-artillery";
        Psyker => "Psyker", "psyker";
        PsychicImmunity => "Psychic immunity", "psychic-immunity";
        Rampage => "Rampage", "rampage";
        RapidFire => "Rapid fire", "rapid-fire";
        Recon => "Recon", "recon";
        Regeneration => "Regeneration", "regeneration";
        Siege => "Siege", "siege";
        Sniper => "Sniper", "sniper";
        Static => "Static", "static";
        Stealth => "Stealth", "stealth";
        Stubborn => "Stubborn", "stubborn";
        TankKiller => "Tank-killer", "tank-killer";
        Transport => "Transport", "transport";
        Tunneler => "Tunneler", "tunneler";
        Unreliable => "Unreliable", "unreliable";
        Intercept => "Intercept", "intercept";
        FlyingFortress => "Flying fortress", "flying-fortress";
        Fear => "Fear", "fear";
        Terror => "Terror", "terror";
        Fearless => "Fearless", "fearless";
    }
}

/// What a skill's brackets hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Param {
    /// `Regeneration (5)`, `Unreliable (2)`, `Transport (4)`.
    Number(u32),
    /// `Intercept (+1)`.
    Bonus(u32),
    /// `Frenzied Assault (Orks)`: the race the bonus is against.
    Race(String),
}

/// A model skill with its parameter, if it takes one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skill {
    pub kind: SkillKind,
    pub param: Option<Param>,
}

impl fmt::Display for Skill {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind.as_str())?;
        match &self.param {
            Some(Param::Number(n)) => write!(f, " ({n})"),
            Some(Param::Bonus(n)) => write!(f, " (+{n})"),
            Some(Param::Race(r)) => write!(f, " ({r})"),
            None => Ok(()),
        }
    }
}

impl Skill {
    /// What the parameter says, where there is one.
    pub fn describe(&self) -> Option<String> {
        match (&self.kind, &self.param) {
            (SkillKind::Regeneration, Some(Param::Number(n))) => Some(format!(
                "each damage point lost comes back on a d10 roll of {n} or more"
            )),
            (SkillKind::Unreliable, Some(Param::Number(n))) => Some(format!(
                "a natural to-hit roll of {n} or less is a malfunction: the model takes a hit"
            )),
            (SkillKind::Transport, Some(Param::Number(n))) => Some(format!("carries {n}")),
            (SkillKind::Intercept, Some(Param::Bonus(n))) => Some(format!(
                "+{n} to intercept reaction rolls and to its morale checks when hit"
            )),
            (SkillKind::FrenziedAssault, Some(Param::Race(r))) => {
                Some(format!("the assault bonus counts only against {r}"))
            }
            _ => None,
        }
    }
}

// ============================================================ SHEETS

/// One weapon row, parsed. `mount` is `None` where the row gives none
/// (infantry weapons).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WeaponLine {
    pub name: String,
    pub range: Stat<Range>,
    pub penetration: Stat<Penetration>,
    pub firepower: Stat<Firepower>,
    pub weapon_type: Stat<WeaponType>,
    pub mount: Option<Stat<Mount>>,
}

/// A Heresy datasheet's values, parsed. An optional line is `None` where
/// the sheet has none (leadership for a model that does not lead).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeresySheet {
    pub propulsion: Stat<Propulsion>,
    pub movement: Stat<Move>,
    pub armour: Stat<u32>,
    pub accuracy: Stat<u32>,
    pub assault: Stat<u32>,
    pub morale: Stat<Morale>,
    pub leadership: Option<Stat<u32>>,
    pub mastery: Option<Stat<u32>>,
    pub damage: Option<Stat<u32>>,
    pub weapons: Vec<WeaponLine>,
    pub skills: Vec<Skill>,
}

impl HeresySheet {
    /// Every glossary entry its values use, in first-use order, without
    /// repeats.
    pub fn glossary_ids(&self) -> Vec<&'static str> {
        let mut ids: Vec<&'static str> = Vec::new();
        let mut add = |id: &'static str| {
            if !ids.contains(&id) {
                ids.push(id);
            }
        };
        if let Some(p) = self.propulsion.known() {
            add(p.glossary_id());
        }
        for id in ["move", "armour", "accuracy", "assault", "morale"] {
            add(id);
        }
        if self.leadership.is_some() {
            add("leadership");
        }
        if self.mastery.is_some() {
            add("mastery");
        }
        if self.damage.is_some() {
            add("damage-rating");
        }
        for weapon in &self.weapons {
            match weapon.range.known() {
                Some(r) => r.glossary_ids().into_iter().for_each(&mut add),
                None => add("range"),
            }
            add("penetration");
            match weapon.firepower.known() {
                Some(f) => f.glossary_ids().into_iter().for_each(&mut add),
                None => add("firepower"),
            }
            if let Some(t) = weapon.weapon_type.known() {
                add(t.glossary_id());
            }
            if let Some(Stat::Known(m)) = &weapon.mount {
                add(m.glossary_id());
            }
        }
        for skill in &self.skills {
            add(skill.kind.glossary_id());
        }
        ids
    }

    /// Whether a model of this sheet has the skill.
    pub fn has(&self, kind: SkillKind) -> bool {
        self.skills.iter().any(|s| s.kind == kind)
    }
}

/// Every glossary id the Heresy notation can produce (the glossary must
/// have exactly these).
pub fn glossary_ids() -> Vec<&'static str> {
    let mut ids = vec![
        "move",
        "armour",
        "accuracy",
        "assault",
        "morale",
        "leadership",
        "mastery",
        "damage-rating",
        "range",
        "range-single",
        "range-short-long",
        "penetration",
        "firepower",
        "template",
        "special",
    ];
    ids.extend(WeaponType::ALL.iter().map(|t| t.glossary_id()));
    ids.extend(Mount::ALL.iter().map(|t| t.glossary_id()));
    ids.extend(Propulsion::ALL.iter().map(|t| t.glossary_id()));
    ids.extend(SkillKind::ALL.iter().map(|t| t.glossary_id()));
    ids
}

// ============================================================ EXPLAIN

/// One part of a text given to `muster explain`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeresyTerm {
    Range(Range),
    Morale(Morale),
    Penetration(Penetration),
    Template,
    WeaponType(WeaponType),
    Mount(Mount),
    Propulsion(Propulsion),
    Skill(Skill),
}

impl fmt::Display for HeresyTerm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeresyTerm::Range(x) => x.fmt(f),
            HeresyTerm::Morale(x) => x.fmt(f),
            HeresyTerm::Penetration(x) => x.fmt(f),
            HeresyTerm::Template => f.write_str("Template"),
            HeresyTerm::WeaponType(x) => x.fmt(f),
            HeresyTerm::Mount(x) => x.fmt(f),
            HeresyTerm::Propulsion(x) => x.fmt(f),
            HeresyTerm::Skill(x) => x.fmt(f),
        }
    }
}

impl super::Explain for HeresyTerm {
    fn kind(&self) -> &'static str {
        match self {
            HeresyTerm::Range(Range::Single(_)) => "range, or a move",
            HeresyTerm::Range(_) => "range",
            HeresyTerm::Morale(_) => "morale",
            HeresyTerm::Penetration(_) => "penetration",
            HeresyTerm::Template => "firepower",
            HeresyTerm::WeaponType(_) => "weapon type",
            HeresyTerm::Mount(_) => "mount",
            HeresyTerm::Propulsion(_) => "how it moves",
            HeresyTerm::Skill(_) => "model skill",
        }
    }

    fn describe(&self) -> Option<String> {
        match self {
            HeresyTerm::Range(r) => Some(r.describe()),
            HeresyTerm::Morale(m) => Some(format!(
                "morale checks pass on {} or less while fresh, {} fatigued, {} routed; breaks after losing {}% of its models",
                m.fresh,
                m.fatigued,
                m.routed,
                m.fresh.saturating_mul(10)
            )),
            HeresyTerm::Penetration(Penetration::Bonus(n)) => {
                Some(format!("adds {n} to each d10 rolled against armour"))
            }
            HeresyTerm::Penetration(Penetration::Special) => Some("its own rules say".into()),
            HeresyTerm::Skill(s) => s.describe(),
            HeresyTerm::Template
            | HeresyTerm::WeaponType(_)
            | HeresyTerm::Mount(_)
            | HeresyTerm::Propulsion(_) => None,
        }
    }

    fn glossary_ids(&self) -> Vec<&'static str> {
        match self {
            HeresyTerm::Range(r) => r.glossary_ids(),
            HeresyTerm::Morale(_) => vec!["morale"],
            HeresyTerm::Penetration(Penetration::Bonus(_)) => vec!["penetration"],
            HeresyTerm::Penetration(Penetration::Special) => vec!["penetration", "special"],
            HeresyTerm::Template => vec!["template"],
            HeresyTerm::WeaponType(t) => vec![t.glossary_id()],
            HeresyTerm::Mount(m) => vec![m.glossary_id()],
            HeresyTerm::Propulsion(p) => vec![p.glossary_id()],
            HeresyTerm::Skill(s) => vec![s.kind.glossary_id()],
        }
    }
}

/// A term and where it is written in the explained text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeresyPart {
    pub term: HeresyTerm,
    pub span: Span,
}

// ============================================================ PARSING

pub fn parse_move(text: &str) -> Result<Move, NotationError> {
    value(Rule::move_value, text).map(movement)
}

/// Armour, accuracy, assault, leadership, mastery, damage rating.
pub fn parse_rating(text: &str) -> Result<u32, NotationError> {
    value(Rule::rating_value, text).map(number_in)
}

/// Leadership or mastery, where `-` says the model has none.
pub fn parse_optional_rating(text: &str) -> Result<Option<u32>, NotationError> {
    value(Rule::optional_value, text).map(|p| match p.as_rule() {
        Rule::none => None,
        _ => Some(number_in(p)),
    })
}

pub fn parse_morale(text: &str) -> Result<Morale, NotationError> {
    value(Rule::morale_value, text).map(morale)
}

pub fn parse_range(text: &str) -> Result<Range, NotationError> {
    value(Rule::range_value, text).map(range)
}

pub fn parse_penetration(text: &str) -> Result<Penetration, NotationError> {
    value(Rule::penetration_value, text).map(penetration)
}

pub fn parse_firepower(text: &str) -> Result<Firepower, NotationError> {
    value(Rule::firepower_value, text).map(firepower)
}

pub fn parse_weapon_type(text: &str) -> Result<WeaponType, NotationError> {
    value(Rule::weapon_type_value, text).map(weapon_type)
}

pub fn parse_mount(text: &str) -> Result<Mount, NotationError> {
    value(Rule::mount_value, text).map(mount)
}

pub fn parse_propulsion(text: &str) -> Result<Propulsion, NotationError> {
    value(Rule::propulsion_value, text).map(propulsion)
}

pub fn parse_skill(text: &str) -> Result<Skill, NotationError> {
    value(Rule::skill_value, text).map(skill).map_err(|error| {
        // A skill that needs its number, written without one.
        let bare = text.trim();
        match SkillKind::ALL.iter().find(|k| {
            matches!(
                k,
                SkillKind::Regeneration | SkillKind::Unreliable | SkillKind::Transport | SkillKind::Intercept
            ) && k.as_str().eq_ignore_ascii_case(bare)
        }) {
            Some(kind) => NotationError {
                offset: text.len(),
                column: text.chars().count() + 1,
                expected: format!(
                    "its number in brackets, as in {} ({})",
                    kind.as_str(),
                    if *kind == SkillKind::Intercept { "+1" } else { "5" }
                ),
                suggestion: None,
            },
            None => error,
        }
    })
}

/// Comma-separated Heresy notation of any kind, as `muster explain` takes
/// it.
pub fn parse_terms(text: &str) -> Result<Vec<HeresyPart>, NotationError> {
    let parts = super::pest_glue::terms::<HeresyParser, Rule, _>(&GRAMMAR, Rule::term, text, term)?;
    Ok(parts
        .into_iter()
        .map(|(term, span)| HeresyPart { term, span })
        .collect())
}

const GRAMMAR: super::pest_glue::Grammar<Rule> = super::pest_glue::Grammar {
    terms: Rule::terms,
    eoi: Rule::EOI,
    name: rule_label,
    suggest,
};

fn rule_label(rule: &Rule) -> String {
    rule_name(rule).to_string()
}

fn value(rule: Rule, text: &str) -> Result<Pair<'_, Rule>, NotationError> {
    super::pest_glue::value::<HeresyParser, Rule>(&GRAMMAR, rule, text)
}

/// Spellings to suggest for a keyword that does not parse.
fn suggest(entry: Rule, text: &str) -> Option<String> {
    let word = text.trim();
    // A skill's parameter is not part of its name.
    let word = word.split('(').next().unwrap_or(word).trim();
    if word.chars().count() < 3 {
        return None;
    }
    let candidates: Vec<&str> = match entry {
        Rule::skill_value | Rule::terms => SkillKind::ALL.iter().map(|s| s.as_str()).collect(),
        Rule::weapon_type_value => WeaponType::ALL.iter().map(|s| s.as_str()).collect(),
        Rule::mount_value => Mount::ALL.iter().map(|s| s.as_str()).collect(),
        Rule::propulsion_value => Propulsion::ALL.iter().map(|s| s.as_str()).collect(),
        Rule::firepower_value => vec!["Template", "Special"],
        _ => return None,
    };
    crate::diagnostic::nearest(word, candidates.iter().copied())
        .filter(|s| !s.eq_ignore_ascii_case(word))
        .map(str::to_string)
}

/// User-facing names for grammar rules.
fn rule_name(rule: &Rule) -> &'static str {
    match rule {
        Rule::EOI | Rule::term_end => "the end of the value",
        Rule::WHITESPACE => "a space",
        Rule::number | Rule::rating | Rule::rating_value => "a number",
        Rule::optional_value => "a number, or - for none",
        Rule::boundary => "the end of a word",
        Rule::cm => "cm",
        Rule::none => "-",
        Rule::move_value | Rule::movement => "a move such as 10cm, or - for none",
        Rule::morale_value | Rule::morale => "morale as fresh/fatigued/routed, such as 5/4/3",
        Rule::range_value | Rule::range => "a range such as 15/30cm or 60cm",
        Rule::penetration_value | Rule::penetration => "a penetration such as +2",
        Rule::special => "Special",
        Rule::firepower_value | Rule::firepower | Rule::template => "firepower such as 3 or Template",
        Rule::weapon_type_value
        | Rule::weapon_type
        | Rule::all_purpose
        | Rule::armour_piercing
        | Rule::anti_infantry => "a weapon type: All-purpose, Armour-piercing or Anti-infantry",
        Rule::mount_value
        | Rule::mount
        | Rule::traverse_turret
        | Rule::turret
        | Rule::swivel
        | Rule::fixed => "a mount: Turret, Traverse turret, Swivel mount or Fixed mount",
        Rule::propulsion_value
        | Rule::propulsion
        | Rule::foot
        | Rule::cavalry
        | Rule::wheeled
        | Rule::tracked
        | Rule::grav
        | Rule::walker
        | Rule::flier => "how it moves: Foot, Cavalry, Wheeled, Tracked, Grav, Walker or Flier",
        Rule::bonus => "a bonus such as +1",
        Rule::race => "the race the skill works against",
        Rule::skill_with_number
        | Rule::number_skill
        | Rule::regeneration
        | Rule::unreliable
        | Rule::transport => "a skill with a number, such as Regeneration (5)",
        Rule::skill_with_bonus | Rule::intercept => "Intercept with a bonus, such as Intercept (+1)",
        Rule::skill_with_race | Rule::frenzied_assault => "Frenzied Assault, or Frenzied Assault (RACE)",
        Rule::skill_value
        | Rule::skill
        | Rule::skill_name
        | Rule::archaic_troops
        | Rule::armoured_unit
        | Rule::artificial_intelligence
        | Rule::battlefield_repairs
        | Rule::close_support
        | Rule::demon_hunters
        | Rule::enhanced_fire_control
        | Rule::first_strike
        | Rule::flak
        | Rule::flight_packs
        | Rule::heavy_tank
        | Rule::hero
        | Rule::infiltrate
        | Rule::independent_unit
        | Rule::inspiring_presence
        | Rule::invulnerability
        | Rule::jump_packs
        | Rule::knight
        | Rule::light_unit
        | Rule::medic
        | Rule::mobile_artillery
        | Rule::psychic_immunity
        | Rule::psyker
        | Rule::rampage
        | Rule::rapid_fire
        | Rule::recon
        | Rule::siege
        | Rule::sniper
        | Rule::static_model
        | Rule::stealth
        | Rule::stubborn
        | Rule::tank_killer
        | Rule::tunneler
        | Rule::flying_fortress
        | Rule::fearless
        | Rule::fear
        | Rule::terror => "a model skill such as Stealth or Regeneration (5)",
        Rule::terms | Rule::term => "Heresy notation",
    }
}

fn number(pair: Pair<'_, Rule>) -> u32 {
    // At most three digits, so this always fits.
    pair.as_str().trim().parse().unwrap_or(0)
}

/// The first number inside a pair.
fn number_in(pair: Pair<'_, Rule>) -> u32 {
    if pair.as_rule() == Rule::number {
        return number(pair);
    }
    pair.into_inner()
        .flatten()
        .find(|p| p.as_rule() == Rule::number)
        .map_or(0, number)
}

fn numbers(pair: Pair<'_, Rule>) -> Vec<u32> {
    pair.into_inner()
        .flatten()
        .filter(|p| p.as_rule() == Rule::number)
        .map(number)
        .collect()
}

/// The first child of a pair the grammar says has one.
fn only<'i>(pair: Pair<'i, Rule>, function: &str) -> Pair<'i, Rule> {
    match pair.into_inner().next() {
        Some(child) => child,
        None => unreachable!("an empty pair (in {function})"),
    }
}

fn movement(pair: Pair<'_, Rule>) -> Move {
    let n = numbers(pair);
    match n.first() {
        Some(&cm) => Move::Cm(cm),
        None => Move::None,
    }
}

fn morale(pair: Pair<'_, Rule>) -> Morale {
    let n = numbers(pair);
    Morale {
        fresh: n.first().copied().unwrap_or(0),
        fatigued: n.get(1).copied().unwrap_or(0),
        routed: n.get(2).copied().unwrap_or(0),
    }
}

fn range(pair: Pair<'_, Rule>) -> Range {
    let n = numbers(pair);
    match (n.first(), n.get(1)) {
        (Some(&a), Some(&b)) => Range::ShortLong(a, b),
        (Some(&a), None) => Range::Single(a),
        _ => Range::Single(0),
    }
}

fn penetration(pair: Pair<'_, Rule>) -> Penetration {
    let n = numbers(pair.clone());
    match n.first() {
        Some(&p) => Penetration::Bonus(p),
        None => Penetration::Special,
    }
}

fn firepower(pair: Pair<'_, Rule>) -> Firepower {
    let inner = only(pair, "firepower");
    match inner.as_rule() {
        Rule::number => Firepower::Dice(number(inner)),
        Rule::template => Firepower::Template,
        Rule::special => Firepower::Special,
        other => unreachable!("{other:?} not supposed to get there (firepower)"),
    }
}

fn weapon_type(pair: Pair<'_, Rule>) -> WeaponType {
    match only(pair, "weapon type").as_rule() {
        Rule::all_purpose => WeaponType::AllPurpose,
        Rule::armour_piercing => WeaponType::ArmourPiercing,
        Rule::anti_infantry => WeaponType::AntiInfantry,
        other => unreachable!("{other:?} not supposed to get there (weapon type)"),
    }
}

fn mount(pair: Pair<'_, Rule>) -> Mount {
    match only(pair, "mount").as_rule() {
        Rule::turret => Mount::Turret,
        Rule::traverse_turret => Mount::TraverseTurret,
        Rule::swivel => Mount::Swivel,
        Rule::fixed => Mount::Fixed,
        other => unreachable!("{other:?} not supposed to get there (mount)"),
    }
}

fn propulsion(pair: Pair<'_, Rule>) -> Propulsion {
    match only(pair, "propulsion").as_rule() {
        Rule::foot => Propulsion::Foot,
        Rule::cavalry => Propulsion::Cavalry,
        Rule::wheeled => Propulsion::Wheeled,
        Rule::tracked => Propulsion::Tracked,
        Rule::grav => Propulsion::Grav,
        Rule::walker => Propulsion::Walker,
        Rule::flier => Propulsion::Flier,
        other => unreachable!("{other:?} not supposed to get there (propulsion)"),
    }
}

fn skill(pair: Pair<'_, Rule>) -> Skill {
    let inner = only(pair, "skill");
    match inner.as_rule() {
        Rule::skill_with_number => {
            let mut parts = inner.into_inner();
            let kind = match parts.next().map(|p| only(p, "skill").as_rule()) {
                Some(Rule::regeneration) => SkillKind::Regeneration,
                Some(Rule::unreliable) => SkillKind::Unreliable,
                Some(Rule::transport) => SkillKind::Transport,
                other => unreachable!("{other:?} not supposed to get there (skill)"),
            };
            Skill {
                kind,
                param: parts.next().map(|p| Param::Number(number(p))),
            }
        }
        Rule::skill_with_bonus => Skill {
            kind: SkillKind::Intercept,
            param: inner
                .into_inner()
                .find(|p| p.as_rule() == Rule::bonus)
                .map(|p| Param::Bonus(number_in(p))),
        },
        Rule::skill_with_race => Skill {
            kind: SkillKind::FrenziedAssault,
            param: inner
                .into_inner()
                .find(|p| p.as_rule() == Rule::race)
                .map(|p| p.as_str().trim().to_string())
                .filter(|r| !r.is_empty())
                .map(Param::Race),
        },
        Rule::skill_name => Skill {
            kind: skill_name(only(inner, "skill").as_rule()),
            param: None,
        },
        other => unreachable!("{other:?} not supposed to get there (skill)"),
    }
}

fn skill_name(rule: Rule) -> SkillKind {
    match rule {
        Rule::archaic_troops => SkillKind::ArchaicTroops,
        Rule::armoured_unit => SkillKind::ArmouredUnit,
        Rule::artificial_intelligence => SkillKind::ArtificialIntelligence,
        Rule::battlefield_repairs => SkillKind::BattlefieldRepairs,
        Rule::close_support => SkillKind::CloseSupport,
        Rule::demon_hunters => SkillKind::DemonHunters,
        Rule::enhanced_fire_control => SkillKind::EnhancedFireControl,
        Rule::first_strike => SkillKind::FirstStrike,
        Rule::flak => SkillKind::Flak,
        Rule::flight_packs => SkillKind::FlightPacks,
        Rule::heavy_tank => SkillKind::HeavyTank,
        Rule::hero => SkillKind::Hero,
        Rule::infiltrate => SkillKind::Infiltrate,
        Rule::independent_unit => SkillKind::IndependentUnit,
        Rule::inspiring_presence => SkillKind::InspiringPresence,
        Rule::invulnerability => SkillKind::Invulnerability,
        Rule::jump_packs => SkillKind::JumpPacks,
        Rule::knight => SkillKind::Knight,
        Rule::light_unit => SkillKind::LightUnit,
        Rule::medic => SkillKind::Medic,
        Rule::mobile_artillery => SkillKind::MobileArtillery,
        Rule::psychic_immunity => SkillKind::PsychicImmunity,
        Rule::psyker => SkillKind::Psyker,
        Rule::rampage => SkillKind::Rampage,
        Rule::rapid_fire => SkillKind::RapidFire,
        Rule::recon => SkillKind::Recon,
        Rule::siege => SkillKind::Siege,
        Rule::sniper => SkillKind::Sniper,
        Rule::static_model => SkillKind::Static,
        Rule::stealth => SkillKind::Stealth,
        Rule::stubborn => SkillKind::Stubborn,
        Rule::tank_killer => SkillKind::TankKiller,
        Rule::tunneler => SkillKind::Tunneler,
        Rule::flying_fortress => SkillKind::FlyingFortress,
        Rule::fearless => SkillKind::Fearless,
        Rule::fear => SkillKind::Fear,
        Rule::terror => SkillKind::Terror,
        other => unreachable!("{other:?} not supposed to get there (skill name)"),
    }
}

fn term(pair: Pair<'_, Rule>) -> HeresyTerm {
    let inner = only(pair, "term");
    match inner.as_rule() {
        Rule::range => HeresyTerm::Range(range(inner)),
        Rule::morale => HeresyTerm::Morale(morale(inner)),
        Rule::penetration => HeresyTerm::Penetration(penetration(inner)),
        Rule::template => HeresyTerm::Template,
        Rule::weapon_type => HeresyTerm::WeaponType(weapon_type(inner)),
        Rule::mount => HeresyTerm::Mount(mount(inner)),
        Rule::propulsion => HeresyTerm::Propulsion(propulsion(inner)),
        Rule::skill => HeresyTerm::Skill(skill(inner)),
        other => unreachable!("{other:?} not supposed to get there (term)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canonical<T: fmt::Display>(parsed: Result<T, NotationError>) -> String {
        parsed.map_or_else(|e| format!("error {e}"), |v| v.to_string())
    }

    #[test]
    fn values_parse_and_print_canonically() {
        assert_eq!(canonical(parse_move("10cm")), "10cm");
        assert_eq!(canonical(parse_move("-")), "-");
        assert_eq!(canonical(parse_morale("5/4/3")), "5/4/3");
        assert_eq!(canonical(parse_range("15/30cm")), "15/30cm");
        assert_eq!(canonical(parse_range("15cm/30cm")), "15/30cm");
        assert_eq!(canonical(parse_range("60 cm")), "60cm");
        assert_eq!(canonical(parse_penetration("2")), "+2");
        assert_eq!(canonical(parse_penetration("+0")), "+0");
        assert_eq!(canonical(parse_firepower("template")), "Template");
        assert_eq!(canonical(parse_weapon_type("armor piercing")), "Armour-piercing");
        assert_eq!(canonical(parse_mount("traverse turret")), "Traverse turret");
        assert_eq!(canonical(parse_mount("Swivel")), "Swivel mount");
        assert_eq!(canonical(parse_propulsion("flyer")), "Flier");
        assert_eq!(canonical(parse_skill("Regeneration (5)")), "Regeneration (5)");
        assert_eq!(canonical(parse_skill("regeneration(5)")), "Regeneration (5)");
        assert_eq!(canonical(parse_skill("Intercept (1)")), "Intercept (+1)");
        assert_eq!(
            canonical(parse_skill("Frenzied Assault (Orks)")),
            "Frenzied assault (Orks)"
        );
        assert_eq!(canonical(parse_skill("Frenzied assault")), "Frenzied assault");
        assert_eq!(canonical(parse_skill("Armored unit")), "Armoured unit");
        assert_eq!(canonical(parse_skill("Fear")), "Fear");
        assert_eq!(canonical(parse_skill("Fearless")), "Fearless");
        assert_eq!(parse_optional_rating("-"), Ok(None));
        assert_eq!(parse_optional_rating("7"), Ok(Some(7)));
    }

    #[test]
    fn errors_say_where_and_suggest() {
        let e = parse_skill("Regeneraton (5)").err();
        assert_eq!(e.and_then(|e| e.suggestion).as_deref(), Some("Regeneration"));
        // Regeneration needs its target number.
        assert!(parse_skill("Regeneration").is_err());
        let e = parse_morale("5/4").err();
        assert!(e.is_some_and(|e| e.expected.contains("fresh/fatigued/routed")));
        let e = parse_skill("Stealth, Hero").err();
        assert_eq!(e.map(|e| e.column), Some(8));
        assert!(parse_range("15/30").is_err());
    }

    #[test]
    fn every_glossary_id_is_unique() {
        let ids = glossary_ids();
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), ids.len());
    }

    #[test]
    fn terms_read_each_kind() {
        let parts =
            parse_terms("5/4/3, 15/30cm, +2, Anti-infantry, Turret, Tracked, Regeneration (5), Template");
        let kinds: Vec<String> = parts
            .map(|p| {
                p.iter()
                    .map(|p| super::super::Explain::kind(&p.term).to_string())
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(
            kinds,
            [
                "morale",
                "range",
                "penetration",
                "weapon type",
                "mount",
                "how it moves",
                "model skill",
                "firepower"
            ]
        );
    }
}
