//! Battlefleet Gothic ship notation (`grammar/ship.pest`) as typed data:
//! hulls, turns, armour by facing, weapon ranges, strengths, fire arcs,
//! launch-bay craft and weapon names. Like the Epic notation, each value
//! prints back in the pack's canonical form, says which glossary entries
//! explain it, and fails with the character where it stops making sense.
//!
//! It knows nothing of files: the catalogue parses ship datasheets with it.

use super::{Dice, NotationError};
use crate::source::Span;
use pest::iterators::Pair;
use pest_derive::Parser;
use std::fmt;

#[derive(Parser)]
#[grammar = "../grammar/ship.pest"]
struct ShipParser;

/// Rebuild when the grammar changes.
const _GRAMMAR: &str = include_str!("../../grammar/ship.pest");

// ============================================================ TYPES

/// A ship's class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HullClass {
    Escort,
    Cruiser,
    GrandCruiser,
    Battleship,
}

impl HullClass {
    pub fn as_str(self) -> &'static str {
        match self {
            HullClass::Escort => "Escort",
            HullClass::Cruiser => "Cruiser",
            HullClass::GrandCruiser => "Grand Cruiser",
            HullClass::Battleship => "Battleship",
        }
    }

    fn glossary_id(self) -> &'static str {
        match self {
            HullClass::Escort => "escort",
            HullClass::Cruiser => "cruiser",
            HullClass::GrandCruiser => "grand-cruiser",
            HullClass::Battleship => "battleship",
        }
    }
}

/// `Cruiser/8`: class and hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hull {
    pub class: HullClass,
    pub hits: u32,
}

impl fmt::Display for Hull {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.class.as_str(), self.hits)
    }
}

/// A distance or speed in centimetres: `20cm`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cm(pub u32);

impl fmt::Display for Cm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}cm", self.0)
    }
}

/// How far the ship may turn, in degrees: `45°`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Turns(pub u32);

impl fmt::Display for Turns {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}°", self.0)
    }
}

/// Armour: the D6 score a hit needs, by facing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Armour {
    /// `5+`: every facing.
    All(u8),
    /// `F6+/5+`: the front, then every other facing.
    Front { front: u8, rest: u8 },
    /// `(F6+)5+`: a front value only some versions of the ship have.
    OptionalFront { front: u8, rest: u8 },
    /// `F6+/S5+/R4+`: front, sides, rear.
    Facings { front: u8, side: u8, rear: u8 },
}

impl fmt::Display for Armour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Armour::All(n) => write!(f, "{n}+"),
            Armour::Front { front, rest } => write!(f, "F{front}+/{rest}+"),
            Armour::OptionalFront { front, rest } => write!(f, "(F{front}+){rest}+"),
            Armour::Facings { front, side, rear } => write!(f, "F{front}+/S{side}+/R{rear}+"),
        }
    }
}

impl Armour {
    pub fn glossary_ids(self) -> Vec<&'static str> {
        match self {
            Armour::All(_) => vec!["armour"],
            Armour::Front { .. } => vec!["armour", "front-armour"],
            Armour::OptionalFront { .. } => vec!["armour", "front-armour", "optional-value"],
            Armour::Facings { .. } => vec!["armour", "front-armour", "side-armour", "rear-armour"],
        }
    }

    pub fn describe(self) -> String {
        match self {
            Armour::All(n) => format!("hits need {n}+ on every facing"),
            Armour::Front { front, rest } => {
                format!("hits need {front}+ on the front and {rest}+ on the sides and rear")
            }
            Armour::OptionalFront { front, rest } => {
                format!("hits need {rest}+; some versions of the ship have {front}+ on the front")
            }
            Armour::Facings { front, side, rear } => {
                format!("hits need {front}+ on the front, {side}+ on the sides and {rear}+ on the rear")
            }
        }
    }
}

/// A weapon's range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShipRange {
    /// `30cm`.
    Cm(u32),
    /// `(30cm)`: torpedoes, which move that far each turn.
    Torpedo(u32),
    /// `30-150cm`: a minimum and a maximum.
    Band { min: u32, max: u32 },
}

impl fmt::Display for ShipRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShipRange::Cm(cm) => write!(f, "{cm}cm"),
            ShipRange::Torpedo(cm) => write!(f, "({cm}cm)"),
            ShipRange::Band { min, max } => write!(f, "{min}-{max}cm"),
        }
    }
}

impl ShipRange {
    pub fn glossary_id(self) -> Option<&'static str> {
        match self {
            ShipRange::Cm(_) => None,
            ShipRange::Torpedo(_) => Some("ordnance-speed"),
            ShipRange::Band { .. } => Some("minimum-range"),
        }
    }

    pub fn describe(self) -> String {
        match self {
            ShipRange::Cm(cm) => format!("fires at targets up to {cm}cm away"),
            ShipRange::Torpedo(cm) => format!("launched as markers that move {cm}cm each turn"),
            ShipRange::Band { min, max } => format!("fires at targets from {min}cm to {max}cm away"),
        }
    }
}

/// Firepower, strength or squadrons launched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strength {
    /// `6`, `D6+2`.
    Dice(Dice),
    /// `Special`: the weapon's own rules say.
    Special,
}

impl fmt::Display for Strength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Strength::Dice(d) => d.fmt(f),
            Strength::Special => f.write_str("Special"),
        }
    }
}

impl Strength {
    pub fn glossary_id(self) -> &'static str {
        match self {
            Strength::Dice(_) => "firepower-strength",
            Strength::Special => "special",
        }
    }
}

/// One fire arc.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arc {
    Left,
    Front,
    Right,
    Rear,
}

impl Arc {
    fn word(self) -> &'static str {
        match self {
            Arc::Left => "Left",
            Arc::Front => "Front",
            Arc::Right => "Right",
            Arc::Rear => "Rear",
        }
    }

    /// The letter `L/F/R` uses; the rear has none, as `R` is the right.
    fn letter(self) -> &'static str {
        match self {
            Arc::Left => "L",
            Arc::Front => "F",
            Arc::Right => "R",
            Arc::Rear => "Rear",
        }
    }

    pub fn glossary_id(self) -> &'static str {
        match self {
            Arc::Left => "arc-left",
            Arc::Front => "arc-front",
            Arc::Right => "arc-right",
            Arc::Rear => "arc-rear",
        }
    }
}

/// The arcs a weapon fires into: `Left`, `L/F/R`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arcs(pub Vec<Arc>);

impl fmt::Display for Arcs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // One arc is spelled out; several are letters, as the pack does.
        match self.0.as_slice() {
            [one] => f.write_str(one.word()),
            many => {
                let letters: Vec<&str> = many.iter().map(|a| a.letter()).collect();
                f.write_str(&letters.join("/"))
            }
        }
    }
}

impl Arcs {
    pub fn glossary_ids(&self) -> Vec<&'static str> {
        let mut ids: Vec<&'static str> = Vec::new();
        for arc in &self.0 {
            if !ids.contains(&arc.glossary_id()) {
                ids.push(arc.glossary_id());
            }
        }
        ids
    }

    pub fn describe(&self) -> String {
        let words: Vec<String> = self.0.iter().map(|a| a.word().to_ascii_lowercase()).collect();
        match words.as_slice() {
            [one] => format!("fires into the {one} arc"),
            _ => format!("fires into any of the {} arcs", words.join(", ")),
        }
    }
}

/// Attack craft a launch bay may launch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CraftKind {
    Furies,
    Starhawks,
    Sharks,
    Swiftdeaths,
    Doomfires,
    Dreadclaws,
    Thunderhawks,
}

impl CraftKind {
    pub const ALL: [CraftKind; 7] = [
        CraftKind::Furies,
        CraftKind::Starhawks,
        CraftKind::Sharks,
        CraftKind::Swiftdeaths,
        CraftKind::Doomfires,
        CraftKind::Dreadclaws,
        CraftKind::Thunderhawks,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            CraftKind::Furies => "Furies",
            CraftKind::Starhawks => "Starhawks",
            CraftKind::Sharks => "Sharks",
            CraftKind::Swiftdeaths => "Swiftdeaths",
            CraftKind::Doomfires => "Doomfires",
            CraftKind::Dreadclaws => "Dreadclaws",
            CraftKind::Thunderhawks => "Thunderhawks",
        }
    }

    pub fn glossary_id(self) -> &'static str {
        match self {
            CraftKind::Furies => "furies",
            CraftKind::Starhawks => "starhawks",
            CraftKind::Sharks => "sharks",
            CraftKind::Swiftdeaths => "swiftdeaths",
            CraftKind::Doomfires => "doomfires",
            CraftKind::Dreadclaws => "dreadclaws",
            CraftKind::Thunderhawks => "thunderhawks",
        }
    }
}

/// `Furies (30cm)`, or `(Sharks (30cm))` when carried only with an option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Craft {
    pub kind: CraftKind,
    pub speed: u32,
    pub optional: bool,
}

impl fmt::Display for Craft {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.optional {
            write!(f, "({} ({}cm))", self.kind.as_str(), self.speed)
        } else {
            write!(f, "{} ({}cm)", self.kind.as_str(), self.speed)
        }
    }
}

impl Craft {
    /// As a datasheet prints it for a reader: the brackets of an optional
    /// craft become words (`Sharks (30cm, paid option)`, not `(Sharks
    /// (30cm))`). `Display` keeps the notation as written.
    pub fn printed(&self) -> String {
        if self.optional {
            format!("{} ({}cm, paid option)", self.kind.as_str(), self.speed)
        } else {
            self.to_string()
        }
    }

    pub fn glossary_ids(self) -> Vec<&'static str> {
        let mut ids = vec![self.kind.glossary_id()];
        if self.optional {
            ids.push("optional-value");
        }
        ids
    }
}

/// Where on the hull a weapon sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mount {
    Port,
    Starboard,
    Prow,
    Dorsal,
    Keel,
}

impl Mount {
    /// As the pack abbreviates it.
    fn as_str(self) -> &'static str {
        match self {
            Mount::Port => "Port",
            Mount::Starboard => "Stbd",
            Mount::Prow => "Prow",
            Mount::Dorsal => "Dorsal",
            Mount::Keel => "Keel",
        }
    }

    pub fn glossary_id(self) -> &'static str {
        match self {
            Mount::Port => "port",
            Mount::Starboard => "starboard",
            Mount::Prow => "prow",
            Mount::Dorsal => "dorsal",
            Mount::Keel => "keel",
        }
    }
}

/// What a weapon is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WeaponKind {
    WeaponsBattery,
    LanceBattery,
    LaunchBays,
    Torpedoes,
    NovaCannon,
    BombardmentCannon,
    ArmageddonGun,
}

impl WeaponKind {
    /// As the pack writes it after a mount (`Port wpns battery`).
    fn as_str(self) -> &'static str {
        match self {
            WeaponKind::WeaponsBattery => "wpns battery",
            WeaponKind::LanceBattery => "lance battery",
            WeaponKind::LaunchBays => "launch bays",
            WeaponKind::Torpedoes => "torpedoes",
            WeaponKind::NovaCannon => "nova cannon",
            WeaponKind::BombardmentCannon => "bombardment cannon",
            WeaponKind::ArmageddonGun => "Armageddon gun",
        }
    }

    /// Standing alone, spelled out and capitalised.
    fn alone(self) -> &'static str {
        match self {
            WeaponKind::WeaponsBattery => "Weapons battery",
            WeaponKind::LanceBattery => "Lance battery",
            WeaponKind::LaunchBays => "Launch bays",
            WeaponKind::Torpedoes => "Torpedoes",
            WeaponKind::NovaCannon => "Nova cannon",
            WeaponKind::BombardmentCannon => "Bombardment cannon",
            WeaponKind::ArmageddonGun => "Armageddon gun",
        }
    }

    pub fn glossary_id(self) -> &'static str {
        match self {
            WeaponKind::WeaponsBattery => "weapons-battery",
            WeaponKind::LanceBattery => "lance",
            WeaponKind::LaunchBays => "launch-bays",
            WeaponKind::Torpedoes => "torpedoes",
            WeaponKind::NovaCannon => "nova-cannon",
            WeaponKind::BombardmentCannon => "bombardment-cannon",
            WeaponKind::ArmageddonGun => "armageddon-gun",
        }
    }
}

/// `Port wpns battery`: mount and kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WeaponName {
    pub mount: Option<Mount>,
    pub kind: WeaponKind,
}

impl fmt::Display for WeaponName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mount {
            Some(mount) => write!(f, "{} {}", mount.as_str(), self.kind.as_str()),
            None => f.write_str(self.kind.alone()),
        }
    }
}

impl WeaponName {
    pub fn glossary_ids(self) -> Vec<&'static str> {
        let mut ids: Vec<&'static str> = self.mount.map(Mount::glossary_id).into_iter().collect();
        ids.push(self.kind.glossary_id());
        ids
    }
}

/// A value the sources give, or one they lack (`missing` in the data).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stat<T> {
    Known(T),
    Missing,
}

impl<T> Stat<T> {
    pub fn known(&self) -> Option<&T> {
        match self {
            Stat::Known(v) => Some(v),
            Stat::Missing => None,
        }
    }
}

/// One weapon row, parsed. `range` and `arc` are `None` where the row has
/// none (launch bays).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShipWeaponLine {
    pub name: WeaponName,
    pub range: Option<Stat<ShipRange>>,
    pub strength: Stat<Strength>,
    pub arc: Option<Stat<Arcs>>,
    pub craft: Vec<Craft>,
}

/// A ship datasheet's values, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShipSheet {
    pub hull: Stat<Hull>,
    pub speed: Stat<Cm>,
    pub turns: Stat<Turns>,
    pub shields: Stat<u32>,
    pub armour: Stat<Armour>,
    pub turrets: Stat<u32>,
    pub weapons: Vec<ShipWeaponLine>,
}

impl ShipSheet {
    /// Every glossary entry its values use, in first-use order, without
    /// repeats. The column heads a card prints come first.
    pub fn glossary_ids(&self) -> Vec<&'static str> {
        let mut ids: Vec<&'static str> = Vec::new();
        let mut add = |id: &'static str| {
            if !ids.contains(&id) {
                ids.push(id);
            }
        };
        if let Some(hull) = self.hull.known() {
            add(hull.class.glossary_id());
            add("hits");
        }
        for id in ["turns", "shields"] {
            add(id);
        }
        match self.armour.known() {
            Some(armour) => armour.glossary_ids().into_iter().for_each(&mut add),
            None => add("armour"),
        }
        add("turrets");
        for weapon in &self.weapons {
            weapon.name.glossary_ids().into_iter().for_each(&mut add);
            if let Some(id) = weapon
                .range
                .as_ref()
                .and_then(|r| r.known())
                .and_then(|r| r.glossary_id())
            {
                add(id);
            }
            if let Some(strength) = weapon.strength.known() {
                add(strength.glossary_id());
            }
            if let Some(arcs) = weapon.arc.as_ref().and_then(|a| a.known()) {
                arcs.glossary_ids().into_iter().for_each(&mut add);
            }
            for craft in &weapon.craft {
                craft.glossary_ids().into_iter().for_each(&mut add);
            }
        }
        ids
    }
}

/// One part of a text given to `muster explain`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShipTerm {
    Hull(Hull),
    Turns(Turns),
    Armour(Armour),
    Range(ShipRange),
    Strength(Strength),
    Arcs(Arcs),
    Craft(Craft),
    WeaponName(WeaponName),
}

impl fmt::Display for ShipTerm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShipTerm::Hull(x) => x.fmt(f),
            ShipTerm::Turns(x) => x.fmt(f),
            ShipTerm::Armour(x) => x.fmt(f),
            ShipTerm::Range(x) => x.fmt(f),
            ShipTerm::Strength(x) => x.fmt(f),
            ShipTerm::Arcs(x) => x.fmt(f),
            ShipTerm::Craft(x) => x.fmt(f),
            ShipTerm::WeaponName(x) => x.fmt(f),
        }
    }
}

impl ShipTerm {
    pub fn kind(&self) -> &'static str {
        match self {
            ShipTerm::Hull(_) => "ship type and hits",
            ShipTerm::Turns(_) => "turns",
            ShipTerm::Armour(_) => "armour",
            ShipTerm::Range(_) => "weapon range",
            ShipTerm::Strength(_) => "firepower or strength",
            ShipTerm::Arcs(_) => "fire arc",
            ShipTerm::Craft(_) => "attack craft",
            ShipTerm::WeaponName(_) => "weapon",
        }
    }

    pub fn describe(&self) -> Option<String> {
        match self {
            ShipTerm::Hull(h) => Some(format!(
                "a {} destroyed by {} hit{} of damage, crippled at half",
                h.class.as_str().to_ascii_lowercase(),
                h.hits,
                if h.hits == 1 { "" } else { "s" }
            )),
            ShipTerm::Turns(t) => Some(format!("may turn up to {}° when it turns", t.0)),
            ShipTerm::Armour(a) => Some(a.describe()),
            ShipTerm::Range(r) => Some(r.describe()),
            ShipTerm::Strength(Strength::Dice(d)) => Some(format!("{d} shots, torpedoes or squadrons")),
            ShipTerm::Strength(Strength::Special) => Some("its own rules give what it does".into()),
            ShipTerm::Arcs(a) => Some(a.describe()),
            ShipTerm::Craft(c) => Some(format!(
                "{} moving {}cm{}",
                c.kind.as_str(),
                c.speed,
                if c.optional {
                    ", carried only when the option is bought"
                } else {
                    ""
                }
            )),
            ShipTerm::WeaponName(_) => None,
        }
    }

    pub fn glossary_ids(&self) -> Vec<&'static str> {
        match self {
            ShipTerm::Hull(h) => vec![h.class.glossary_id(), "hits"],
            ShipTerm::Turns(_) => vec!["turns"],
            ShipTerm::Armour(a) => a.glossary_ids(),
            ShipTerm::Range(r) => r.glossary_id().into_iter().collect(),
            ShipTerm::Strength(s) => vec![s.glossary_id()],
            ShipTerm::Arcs(a) => a.glossary_ids(),
            ShipTerm::Craft(c) => c.glossary_ids(),
            ShipTerm::WeaponName(w) => w.glossary_ids(),
        }
    }
}

impl super::Explain for ShipTerm {
    fn kind(&self) -> &'static str {
        ShipTerm::kind(self)
    }
    fn describe(&self) -> Option<String> {
        ShipTerm::describe(self)
    }
    fn glossary_ids(&self) -> Vec<&'static str> {
        ShipTerm::glossary_ids(self)
    }
}

/// A term and where it is written in the explained text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShipPart {
    pub term: ShipTerm,
    pub span: Span,
}

/// Every glossary id the ship notation can produce (the glossary must have
/// exactly these).
pub const GLOSSARY_IDS: &[&str] = &[
    "escort",
    "cruiser",
    "grand-cruiser",
    "battleship",
    "hits",
    "turns",
    "shields",
    "armour",
    "front-armour",
    "side-armour",
    "rear-armour",
    "optional-value",
    "turrets",
    "ordnance-speed",
    "minimum-range",
    "firepower-strength",
    "special",
    "arc-left",
    "arc-front",
    "arc-right",
    "arc-rear",
    "furies",
    "starhawks",
    "sharks",
    "swiftdeaths",
    "doomfires",
    "dreadclaws",
    "thunderhawks",
    "port",
    "starboard",
    "prow",
    "dorsal",
    "keel",
    "weapons-battery",
    "lance",
    "launch-bays",
    "torpedoes",
    "nova-cannon",
    "bombardment-cannon",
    "armageddon-gun",
];

// ============================================================ PARSING

pub fn parse_hull(text: &str) -> Result<Hull, NotationError> {
    value(Rule::hull_value, text).map(hull)
}

pub fn parse_ship_speed(text: &str) -> Result<Cm, NotationError> {
    value(Rule::speed_value, text).map(|p| Cm(first_number(p)))
}

pub fn parse_turns(text: &str) -> Result<Turns, NotationError> {
    value(Rule::turns_value, text).map(|p| Turns(first_number(p)))
}

/// Shields and turrets.
pub fn parse_count(text: &str) -> Result<u32, NotationError> {
    value(Rule::count_value, text).map(number)
}

pub fn parse_armour(text: &str) -> Result<Armour, NotationError> {
    value(Rule::armour_value, text).map(armour)
}

pub fn parse_ship_range(text: &str) -> Result<ShipRange, NotationError> {
    value(Rule::range_value, text).map(range)
}

pub fn parse_strength(text: &str) -> Result<Strength, NotationError> {
    value(Rule::strength_value, text).map(strength)
}

pub fn parse_arcs(text: &str) -> Result<Arcs, NotationError> {
    value(Rule::arcs_value, text).map(arcs)
}

pub fn parse_craft(text: &str) -> Result<Craft, NotationError> {
    value(Rule::craft_value, text).map(craft_entry)
}

pub fn parse_ship_weapon_name(text: &str) -> Result<WeaponName, NotationError> {
    value(Rule::weapon_name_value, text).map(weapon_name)
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
    super::pest_glue::value::<ShipParser, Rule>(&GRAMMAR, rule, text)
}

/// Comma-separated ship notation of any kind, as `muster explain` takes it.
pub fn parse_ship_terms(text: &str) -> Result<Vec<ShipPart>, NotationError> {
    let parts = super::pest_glue::terms::<ShipParser, Rule, _>(&GRAMMAR, Rule::term, text, term)?;
    Ok(parts
        .into_iter()
        .map(|(term, span)| ShipPart { term, span })
        .collect())
}

/// Spellings to suggest for a craft or weapon that does not parse.
fn suggest(entry: Rule, text: &str) -> Option<String> {
    let text = text.trim();
    if text.chars().count() < 4 {
        return None;
    }
    let craft = CraftKind::ALL.iter().map(|c| c.as_str());
    const WEAPONS: &[&str] = &[
        "Weapons battery",
        "Lance battery",
        "Launch bays",
        "Torpedoes",
        "Nova cannon",
        "Bombardment cannon",
        "Armageddon gun",
    ];
    const HULLS: &[&str] = &["Escort", "Cruiser", "Grand Cruiser", "Battleship"];
    let candidates: Vec<&str> = match entry {
        Rule::craft_value => craft.collect(),
        Rule::weapon_name_value => WEAPONS.to_vec(),
        Rule::hull_value => HULLS.to_vec(),
        Rule::arcs_value => vec!["Left", "Right", "Front", "Rear"],
        Rule::strength_value => vec!["Special"],
        _ => return None,
    };
    // Compare the words only: `Fures (30cm)` is close to `Furies`.
    let word = text
        .trim_start_matches('(')
        .split(['(', '/'])
        .next()
        .unwrap_or(text)
        .trim();
    // Short words are one edit from anything; only suggest for words.
    if word.chars().count() < 4 {
        return None;
    }
    crate::diagnostic::nearest(word, candidates.iter().copied())
        .filter(|s| !s.eq_ignore_ascii_case(word))
        .map(str::to_string)
}

/// User-facing names for grammar rules. Exhaustive, so a new rule must be
/// named here.
fn rule_name(rule: &Rule) -> &'static str {
    match rule {
        Rule::EOI => "the end of the value",
        Rule::WHITESPACE => "a space",
        Rule::number | Rule::count | Rule::count_value => "a number",
        Rule::die | Rule::dice | Rule::dice_plus => "a number or dice roll (6, D6+2)",
        Rule::score => "a score such as 5+",
        Rule::boundary => "the end of a word",
        Rule::hull_value
        | Rule::hull
        | Rule::hull_class
        | Rule::escort
        | Rule::grand_cruiser
        | Rule::cruiser
        | Rule::battleship => "a ship type such as Escort/1, Cruiser/8 or Battleship/12",
        Rule::speed_value | Rule::distance => "a distance such as 20cm",
        Rule::turns_value | Rule::turns | Rule::degree => "turns such as 45° or 90°",
        Rule::armour_value
        | Rule::armour
        | Rule::armour_facings
        | Rule::armour_front
        | Rule::armour_optional
        | Rule::armour_all => "armour such as 5+, F6+/5+, (F6+)5+ or F6+/S5+/R4+",
        Rule::range_value | Rule::range | Rule::range_band | Rule::torpedo_range => {
            "a range such as 30cm, (30cm) or 30-150cm"
        }
        Rule::strength_value | Rule::strength | Rule::special => {
            "a firepower or strength such as 6, D6+2 or Special"
        }
        Rule::arcs_value
        | Rule::arcs
        | Rule::arc
        | Rule::arc_left
        | Rule::arc_front
        | Rule::arc_rear
        | Rule::arc_right => "a fire arc such as Left, Front, Right or L/F/R",
        Rule::craft_value
        | Rule::craft_entry
        | Rule::optional_craft
        | Rule::craft
        | Rule::craft_kind
        | Rule::furies
        | Rule::starhawks
        | Rule::sharks
        | Rule::swiftdeaths
        | Rule::doomfires
        | Rule::dreadclaws
        | Rule::thunderhawks => "attack craft such as Furies (30cm) or (Sharks (30cm))",
        Rule::weapon_name_value
        | Rule::weapon_name
        | Rule::mount
        | Rule::port
        | Rule::starboard
        | Rule::prow
        | Rule::dorsal
        | Rule::keel
        | Rule::weapon_kind
        | Rule::weapons_battery
        | Rule::lance_battery
        | Rule::launch_bays
        | Rule::torpedoes
        | Rule::nova_cannon
        | Rule::bombardment_cannon
        | Rule::armageddon_gun => {
            "a weapon such as Port wpns battery, Prow torpedoes or Dorsal lance battery"
        }
        Rule::terms | Rule::term => "ship notation",
    }
}

fn number(pair: Pair<'_, Rule>) -> u32 {
    // The grammar allows at most four digits, so this always fits.
    pair.as_str().trim().parse().unwrap_or(0)
}

fn first_number(pair: Pair<'_, Rule>) -> u32 {
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

fn scores(pair: Pair<'_, Rule>) -> Vec<u8> {
    pair.into_inner()
        .filter(|p| p.as_rule() == Rule::score)
        .map(|p| p.as_str().bytes().next().map_or(0, |b| b.saturating_sub(b'0')))
        .collect()
}

/// The first child of a pair the grammar says has one.
fn only<'i>(pair: Pair<'i, Rule>, function: &str) -> Pair<'i, Rule> {
    match pair.into_inner().next() {
        Some(child) => child,
        None => unreachable!("an empty pair (in {function})"),
    }
}

fn hull(pair: Pair<'_, Rule>) -> Hull {
    let mut class = HullClass::Cruiser;
    let mut hits = 0;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::hull_class => {
                class = match only(p, "hull").as_rule() {
                    Rule::escort => HullClass::Escort,
                    Rule::cruiser => HullClass::Cruiser,
                    Rule::grand_cruiser => HullClass::GrandCruiser,
                    Rule::battleship => HullClass::Battleship,
                    other => unreachable!("{other:?} not supposed to get there (hull)"),
                }
            }
            Rule::number => hits = number(p),
            other => unreachable!("{other:?} not supposed to get there (hull)"),
        }
    }
    Hull { class, hits }
}

fn armour(pair: Pair<'_, Rule>) -> Armour {
    let inner = only(pair, "armour");
    let rule = inner.as_rule();
    let s = scores(inner);
    let at = |i: usize| s.get(i).copied().unwrap_or(0);
    match rule {
        Rule::armour_all => Armour::All(at(0)),
        Rule::armour_front => Armour::Front {
            front: at(0),
            rest: at(1),
        },
        Rule::armour_optional => Armour::OptionalFront {
            front: at(0),
            rest: at(1),
        },
        Rule::armour_facings => Armour::Facings {
            front: at(0),
            side: at(1),
            rear: at(2),
        },
        other => unreachable!("{other:?} not supposed to get there (armour)"),
    }
}

fn range(pair: Pair<'_, Rule>) -> ShipRange {
    let inner = only(pair, "range");
    match inner.as_rule() {
        Rule::distance => ShipRange::Cm(first_number(inner)),
        Rule::torpedo_range => ShipRange::Torpedo(first_number(inner)),
        Rule::range_band => {
            let n = numbers(inner);
            ShipRange::Band {
                min: n.first().copied().unwrap_or(0),
                max: n.get(1).copied().unwrap_or(0),
            }
        }
        other => unreachable!("{other:?} not supposed to get there (range)"),
    }
}

fn dice(pair: Pair<'_, Rule>) -> Dice {
    let mut count = None;
    let mut sides = None;
    let mut plus = 0;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::number => count = Some(number(p)),
            Rule::die => sides = p.as_str().get(1..).and_then(|s| s.parse().ok()),
            Rule::dice_plus => plus = first_number(p),
            other => unreachable!("{other:?} not supposed to get there (dice)"),
        }
    }
    match sides {
        Some(sides) => Dice::roll(count.unwrap_or(1), sides, plus),
        None => Dice::fixed(count.unwrap_or(0)),
    }
}

fn strength(pair: Pair<'_, Rule>) -> Strength {
    let inner = only(pair, "strength");
    match inner.as_rule() {
        Rule::special => Strength::Special,
        Rule::dice => Strength::Dice(dice(inner)),
        other => unreachable!("{other:?} not supposed to get there (strength)"),
    }
}

fn arcs(pair: Pair<'_, Rule>) -> Arcs {
    Arcs(
        pair.into_inner()
            .map(|arc| match only(arc, "arcs").as_rule() {
                Rule::arc_left => Arc::Left,
                Rule::arc_front => Arc::Front,
                Rule::arc_right => Arc::Right,
                Rule::arc_rear => Arc::Rear,
                other => unreachable!("{other:?} not supposed to get there (arcs)"),
            })
            .collect(),
    )
}

fn craft_entry(pair: Pair<'_, Rule>) -> Craft {
    let inner = only(pair, "craft_entry");
    match inner.as_rule() {
        Rule::optional_craft => Craft {
            optional: true,
            ..craft(only(inner, "craft_entry"))
        },
        Rule::craft => craft(inner),
        other => unreachable!("{other:?} not supposed to get there (craft_entry)"),
    }
}

fn craft(pair: Pair<'_, Rule>) -> Craft {
    let mut kind = CraftKind::Furies;
    let mut speed = 0;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::craft_kind => {
                kind = match only(p, "craft").as_rule() {
                    Rule::furies => CraftKind::Furies,
                    Rule::starhawks => CraftKind::Starhawks,
                    Rule::sharks => CraftKind::Sharks,
                    Rule::swiftdeaths => CraftKind::Swiftdeaths,
                    Rule::doomfires => CraftKind::Doomfires,
                    Rule::dreadclaws => CraftKind::Dreadclaws,
                    Rule::thunderhawks => CraftKind::Thunderhawks,
                    other => unreachable!("{other:?} not supposed to get there (craft)"),
                }
            }
            Rule::distance => speed = first_number(p),
            other => unreachable!("{other:?} not supposed to get there (craft)"),
        }
    }
    Craft {
        kind,
        speed,
        optional: false,
    }
}

fn weapon_name(pair: Pair<'_, Rule>) -> WeaponName {
    let mut mount = None;
    let mut kind = WeaponKind::WeaponsBattery;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::mount => {
                mount = Some(match only(p, "weapon_name").as_rule() {
                    Rule::port => Mount::Port,
                    Rule::starboard => Mount::Starboard,
                    Rule::prow => Mount::Prow,
                    Rule::dorsal => Mount::Dorsal,
                    Rule::keel => Mount::Keel,
                    other => unreachable!("{other:?} not supposed to get there (weapon_name)"),
                })
            }
            Rule::weapon_kind => {
                kind = match only(p, "weapon_name").as_rule() {
                    Rule::weapons_battery => WeaponKind::WeaponsBattery,
                    Rule::lance_battery => WeaponKind::LanceBattery,
                    Rule::launch_bays => WeaponKind::LaunchBays,
                    Rule::torpedoes => WeaponKind::Torpedoes,
                    Rule::nova_cannon => WeaponKind::NovaCannon,
                    Rule::bombardment_cannon => WeaponKind::BombardmentCannon,
                    Rule::armageddon_gun => WeaponKind::ArmageddonGun,
                    other => unreachable!("{other:?} not supposed to get there (weapon_name)"),
                }
            }
            other => unreachable!("{other:?} not supposed to get there (weapon_name)"),
        }
    }
    WeaponName { mount, kind }
}

fn term(pair: Pair<'_, Rule>) -> ShipTerm {
    let inner = only(pair, "term");
    match inner.as_rule() {
        Rule::hull => ShipTerm::Hull(hull(inner)),
        Rule::turns => ShipTerm::Turns(Turns(first_number(inner))),
        Rule::armour => ShipTerm::Armour(armour(inner)),
        Rule::range => ShipTerm::Range(range(inner)),
        Rule::strength => ShipTerm::Strength(strength(inner)),
        Rule::arcs => ShipTerm::Arcs(arcs(inner)),
        Rule::craft_entry => ShipTerm::Craft(craft_entry(inner)),
        Rule::weapon_name => ShipTerm::WeaponName(weapon_name(inner)),
        other => unreachable!("{other:?} not supposed to get there (term)"),
    }
}

#[cfg(test)]
mod tests;
