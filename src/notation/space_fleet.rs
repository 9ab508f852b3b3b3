//! Space Fleet ship notation (`grammar/space-fleet.pest`) as typed data:
//! speed with its manoeuvre keyword, counts (damage, wounds), command
//! cards, points, squadron limits, shields per facing, range bands in
//! inches, dice per band, fire arcs and weapon names. Like the other
//! notations, each value prints back in one canonical form, names the
//! glossary entries that explain it, and fails with the character where it
//! stops making sense.
//!
//! It knows nothing of files: the catalogue parses Space Fleet datasheets
//! with it.

use super::NotationError;
use super::ship::Stat;
use crate::source::Span;
use pest::iterators::Pair;
use pest_derive::Parser;
use std::fmt;

#[derive(Parser)]
#[grammar = "../grammar/space-fleet.pest"]
struct SpaceFleetParser;

/// Rebuild when the grammar changes.
const _GRAMMAR: &str = include_str!("../../grammar/space-fleet.pest");

// ============================================================ TYPES

/// How a ship handles, beyond its speed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Manoeuvre {
    SuperManoeuvrable,
    Unmanoeuvrable,
}

impl Manoeuvre {
    pub fn as_str(self) -> &'static str {
        match self {
            Manoeuvre::SuperManoeuvrable => "Super-Manoeuvrable",
            Manoeuvre::Unmanoeuvrable => "Unmanoeuvrable",
        }
    }

    pub fn glossary_id(self) -> &'static str {
        match self {
            Manoeuvre::SuperManoeuvrable => "super-manoeuvrable",
            Manoeuvre::Unmanoeuvrable => "unmanoeuvrable",
        }
    }
}

/// `4`, `6 Unmanoeuvrable`, `2-6 Super-Manoeuvrable` (a speed that
/// depends on the solar wind).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Speed {
    pub min: u32,
    pub max: u32,
    pub manoeuvre: Option<Manoeuvre>,
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.min == self.max {
            write!(f, "{}", self.max)?;
        } else {
            write!(f, "{}-{}", self.min, self.max)?;
        }
        match self.manoeuvre {
            Some(m) => write!(f, " {}", m.as_str()),
            None => Ok(()),
        }
    }
}

impl Speed {
    pub fn glossary_ids(self) -> Vec<&'static str> {
        let mut ids = vec!["speed"];
        if self.min != self.max {
            ids.push("speed-by-wind");
        }
        ids.extend(self.manoeuvre.map(Manoeuvre::glossary_id));
        ids
    }

    pub fn describe(self) -> String {
        let moves = if self.min == self.max {
            format!("moves up to {}\" a turn", self.max)
        } else {
            format!(
                "moves up to {}\" to {}\" a turn, by where the solar wind blows from",
                self.min, self.max
            )
        };
        match self.manoeuvre {
            Some(Manoeuvre::SuperManoeuvrable) => format!("{moves}; turns more freely than other ships"),
            Some(Manoeuvre::Unmanoeuvrable) => format!("{moves}; turns less freely than other ships"),
            None => moves,
        }
    }
}

/// Command cards a Tyranid vessel may have played on it each turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cards {
    None,
    Up(u32),
}

impl fmt::Display for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cards::None => f.write_str("None"),
            Cards::Up(n) => write!(f, "{n}"),
        }
    }
}

/// A ship's cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Points {
    Free,
    Cost(u32),
}

impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Points::Free => f.write_str("Free"),
            Points::Cost(n) => write!(f, "{n}"),
        }
    }
}

/// Squadrons per fleet or ships per squadron: `0-3`, `0+` (no upper
/// limit), `2` (exactly).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    pub min: u32,
    /// `None`: no upper limit.
    pub max: Option<u32>,
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.max {
            Some(max) if max == self.min => write!(f, "{max}"),
            Some(max) => write!(f, "{}-{max}", self.min),
            None => write!(f, "{}+", self.min),
        }
    }
}

/// Shield points by facing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shields {
    /// `Front 12/Flanks 8/Rear 4`: flanks and rear only where the sheet
    /// gives them.
    Facings {
        front: u32,
        flanks: Option<u32>,
        rear: Option<u32>,
    },
    /// `All round 1`: one pool for every facing.
    AllRound(u32),
    /// `None`.
    None,
    /// `Special`: the ship's own rules say.
    Special,
}

impl fmt::Display for Shields {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shields::Facings { front, flanks, rear } => {
                write!(f, "Front {front}")?;
                if let Some(n) = flanks {
                    write!(f, "/Flanks {n}")?;
                }
                if let Some(n) = rear {
                    write!(f, "/Rear {n}")?;
                }
                Ok(())
            }
            Shields::AllRound(n) => write!(f, "All round {n}"),
            Shields::None => f.write_str("None"),
            Shields::Special => f.write_str("Special"),
        }
    }
}

impl Shields {
    pub fn glossary_ids(self) -> Vec<&'static str> {
        match self {
            Shields::Facings { flanks, rear, .. } => {
                let mut ids = vec!["shields", "shields-front"];
                if flanks.is_some() {
                    ids.push("shields-flanks");
                }
                if rear.is_some() {
                    ids.push("shields-rear");
                }
                ids
            }
            Shields::AllRound(_) => vec!["shields", "shields-all-round"],
            Shields::None => vec!["shields"],
            Shields::Special => vec!["shields", "special"],
        }
    }

    pub fn describe(self) -> String {
        match self {
            Shields::Facings { front, flanks, rear } => {
                let mut parts = vec![format!("{front} on the front")];
                if let Some(n) = flanks {
                    parts.push(format!("{n} on each flank"));
                }
                if let Some(n) = rear {
                    parts.push(format!("{n} on the rear"));
                }
                format!("shield points that absorb hits: {}", parts.join(", "))
            }
            Shields::AllRound(n) => format!(
                "{n} shield point{} for every facing",
                if n == 1 { "" } else { "s" }
            ),
            Shields::None => "no shields: every hit damages the hull".into(),
            Shields::Special => "its own rules say how its shields work".into(),
        }
    }
}

/// One range band in inches: `1-6"`, `1"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Band {
    pub min: u32,
    pub max: u32,
}

impl fmt::Display for Band {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.min == self.max {
            write!(f, "{}\"", self.max)
        } else {
            write!(f, "{}-{}\"", self.min, self.max)
        }
    }
}

/// The range bands a sheet's dice columns stand for: `1-6" 7-12" 12-24"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bands(pub Vec<Band>);

impl fmt::Display for Bands {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bands: Vec<String> = self.0.iter().map(ToString::to_string).collect();
        f.write_str(&bands.join(" "))
    }
}

/// Attack dice by range band, or a weapon that works by its own rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dice {
    /// `8/4/-`: one cell per band, `None` where the weapon cannot reach.
    Bands(Vec<Option<u32>>),
    /// `Special`.
    Special,
    /// `Area Effect`.
    Area,
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dice::Bands(cells) => {
                let cells: Vec<String> = cells
                    .iter()
                    .map(|c| c.map_or_else(|| "-".to_string(), |n| n.to_string()))
                    .collect();
                f.write_str(&cells.join("/"))
            }
            Dice::Special => f.write_str("Special"),
            Dice::Area => f.write_str("Area Effect"),
        }
    }
}

impl Dice {
    pub fn glossary_ids(&self) -> Vec<&'static str> {
        match self {
            Dice::Bands(cells) if cells.iter().any(Option::is_none) => vec!["attack-dice", "out-of-reach"],
            Dice::Bands(_) => vec!["attack-dice"],
            Dice::Special => vec!["special"],
            Dice::Area => vec!["area-effect"],
        }
    }

    /// The cells, one per band (empty for `Special` and `Area Effect`).
    pub fn cells(&self) -> Vec<String> {
        match self {
            Dice::Bands(cells) => cells
                .iter()
                .map(|c| c.map_or_else(|| "-".to_string(), |n| n.to_string()))
                .collect(),
            other => vec![other.to_string()],
        }
    }
}

/// A weapon's fire arc.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arc {
    Broadsides,
    Forward,
    FixedForward,
    Any,
    Turret,
    Special,
}

impl Arc {
    pub fn as_str(self) -> &'static str {
        match self {
            Arc::Broadsides => "Broadsides",
            Arc::Forward => "Forward Arc",
            Arc::FixedForward => "Fixed Forward",
            Arc::Any => "Any",
            Arc::Turret => "L/R/F",
            Arc::Special => "Special",
        }
    }

    pub fn glossary_id(self) -> &'static str {
        match self {
            Arc::Broadsides => "arc-broadsides",
            Arc::Forward => "arc-forward",
            Arc::FixedForward => "arc-fixed-forward",
            Arc::Any => "arc-any",
            Arc::Turret => "arc-turret",
            Arc::Special => "special",
        }
    }
}

impl fmt::Display for Arc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a weapon is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Weapon {
    LaserBatteries,
    ProwLaser,
    VortexTorpedo,
    PlasmaTorpedo,
    AnnihilatorCannon,
    InfernoCannon,
    FusionCannon,
    Tentacles,
    MindAssault,
    Hullgrinder,
    SporeMine,
    Deathburner,
    PowerBite,
    ShockRam,
    Boneram,
}

impl Weapon {
    pub const ALL: [Weapon; 15] = [
        Weapon::LaserBatteries,
        Weapon::ProwLaser,
        Weapon::VortexTorpedo,
        Weapon::PlasmaTorpedo,
        Weapon::AnnihilatorCannon,
        Weapon::InfernoCannon,
        Weapon::FusionCannon,
        Weapon::Tentacles,
        Weapon::MindAssault,
        Weapon::Hullgrinder,
        Weapon::SporeMine,
        Weapon::Deathburner,
        Weapon::PowerBite,
        Weapon::ShockRam,
        Weapon::Boneram,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Weapon::LaserBatteries => "Laser Batteries",
            Weapon::ProwLaser => "Prow Laser",
            Weapon::VortexTorpedo => "Vortex Torpedo",
            Weapon::PlasmaTorpedo => "Plasma Torpedo",
            Weapon::AnnihilatorCannon => "Annihilator Cannon",
            Weapon::InfernoCannon => "Inferno Cannon",
            Weapon::FusionCannon => "Fusion Cannon",
            Weapon::Tentacles => "Tentacles",
            Weapon::MindAssault => "Mind Assault",
            Weapon::Hullgrinder => "Hullgrinder",
            Weapon::SporeMine => "Spore Mine",
            Weapon::Deathburner => "Deathburner",
            Weapon::PowerBite => "Power Bite",
            Weapon::ShockRam => "Shock Ram",
            Weapon::Boneram => "Boneram",
        }
    }

    pub fn glossary_id(self) -> &'static str {
        match self {
            Weapon::LaserBatteries => "laser-batteries",
            Weapon::ProwLaser => "prow-laser",
            Weapon::VortexTorpedo => "vortex-torpedo",
            Weapon::PlasmaTorpedo => "plasma-torpedo",
            Weapon::AnnihilatorCannon => "annihilator-cannon",
            Weapon::InfernoCannon => "inferno-cannon",
            Weapon::FusionCannon => "fusion-cannon",
            Weapon::Tentacles => "tentacles",
            Weapon::MindAssault => "mind-assault",
            Weapon::Hullgrinder => "hullgrinder",
            Weapon::SporeMine => "spore-mine",
            Weapon::Deathburner => "deathburner",
            Weapon::PowerBite => "power-bite",
            Weapon::ShockRam => "shock-ram",
            Weapon::Boneram => "boneram",
        }
    }
}

impl fmt::Display for Weapon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One weapon row, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WeaponLine {
    pub name: Weapon,
    pub arc: Stat<Arc>,
    pub dice: Stat<Dice>,
}

/// A Space Fleet datasheet's values, parsed. A field is `None` where the
/// sheet has no such line (a Tyranid vessel has wounds, not damage).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SfSheet {
    pub speed: Option<Stat<Speed>>,
    pub damage: Option<Stat<u32>>,
    pub wounds: Option<Stat<u32>>,
    pub command_cards: Option<Stat<Cards>>,
    pub points: Option<Stat<Points>>,
    pub squadrons: Option<Stat<Limit>>,
    pub ships: Option<Stat<Limit>>,
    pub shields: Option<Stat<Shields>>,
    pub bands: Option<Stat<Bands>>,
    pub weapons: Vec<WeaponLine>,
}

impl SfSheet {
    /// Every glossary entry its values use, in first-use order, without
    /// repeats.
    pub fn glossary_ids(&self) -> Vec<&'static str> {
        let mut ids: Vec<&'static str> = Vec::new();
        let mut add = |id: &'static str| {
            if !ids.contains(&id) {
                ids.push(id);
            }
        };
        match &self.speed {
            Some(Stat::Known(s)) => s.glossary_ids().into_iter().for_each(&mut add),
            Some(Stat::Missing) => add("speed"),
            None => {}
        }
        if self.damage.is_some() {
            add("damage");
        }
        if self.wounds.is_some() {
            add("wounds");
        }
        if self.command_cards.is_some() {
            add("command-cards");
        }
        if let Some(points) = &self.points {
            add("points");
            if points.known() == Some(&Points::Free) {
                add("free");
            }
        }
        if self.squadrons.is_some() {
            add("squadrons");
        }
        if self.ships.is_some() {
            add("ships-per-squadron");
        }
        match &self.shields {
            Some(Stat::Known(s)) => s.glossary_ids().into_iter().for_each(&mut add),
            Some(Stat::Missing) => add("shields"),
            None => {}
        }
        if self.bands.is_some() {
            add("range-bands");
        }
        for weapon in &self.weapons {
            add(weapon.name.glossary_id());
            if let Some(arc) = weapon.arc.known() {
                add(arc.glossary_id());
            }
            if let Some(dice) = weapon.dice.known() {
                dice.glossary_ids().into_iter().for_each(&mut add);
            }
        }
        ids
    }
}

/// One part of a text given to `muster explain`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SfTerm {
    Speed(Speed),
    Shields(Shields),
    Bands(Bands),
    Arc(Arc),
    Weapon(Weapon),
    Points(Points),
    Dice(Dice),
}

impl fmt::Display for SfTerm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SfTerm::Speed(x) => x.fmt(f),
            SfTerm::Shields(x) => x.fmt(f),
            SfTerm::Bands(x) => x.fmt(f),
            SfTerm::Arc(x) => x.fmt(f),
            SfTerm::Weapon(x) => x.fmt(f),
            SfTerm::Points(x) => x.fmt(f),
            SfTerm::Dice(x) => x.fmt(f),
        }
    }
}

impl super::Explain for SfTerm {
    fn kind(&self) -> &'static str {
        match self {
            SfTerm::Speed(_) => "speed",
            SfTerm::Shields(_) => "shields",
            SfTerm::Bands(_) => "range bands",
            SfTerm::Arc(_) => "fire arc",
            SfTerm::Weapon(_) => "weapon",
            SfTerm::Points(_) => "points",
            SfTerm::Dice(_) => "attack dice",
        }
    }

    fn describe(&self) -> Option<String> {
        match self {
            SfTerm::Speed(s) => Some(s.describe()),
            SfTerm::Shields(s) => Some(s.describe()),
            SfTerm::Bands(b) => Some(format!(
                "{} range band{}, each a column of attack dice",
                b.0.len(),
                if b.0.len() == 1 { "" } else { "s" }
            )),
            SfTerm::Arc(_) | SfTerm::Weapon(_) => None,
            SfTerm::Points(Points::Free) => Some("costs no points".into()),
            SfTerm::Points(Points::Cost(n)) => Some(format!("costs {n} points")),
            SfTerm::Dice(Dice::Bands(cells)) => Some(format!(
                "attack dice by range band, nearest first: {}",
                cells
                    .iter()
                    .map(|c| c.map_or_else(|| "out of reach".to_string(), |n| n.to_string()))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            SfTerm::Dice(Dice::Special) => Some("its own rules give what it does".into()),
            SfTerm::Dice(Dice::Area) => Some("attacks an area, not a ship".into()),
        }
    }

    fn glossary_ids(&self) -> Vec<&'static str> {
        match self {
            SfTerm::Speed(s) => s.glossary_ids(),
            SfTerm::Shields(s) => s.glossary_ids(),
            SfTerm::Bands(_) => vec!["range-bands"],
            SfTerm::Arc(a) => vec![a.glossary_id()],
            SfTerm::Weapon(w) => vec![w.glossary_id()],
            SfTerm::Points(Points::Free) => vec!["points", "free"],
            SfTerm::Points(Points::Cost(_)) => vec!["points"],
            SfTerm::Dice(d) => d.glossary_ids(),
        }
    }
}

/// A term and where it is written in the explained text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SfPart {
    pub term: SfTerm,
    pub span: Span,
}

/// Every glossary id the Space Fleet notation can produce, and the
/// critical damage table a card prints (the glossary must have exactly
/// these).
pub const GLOSSARY_IDS: &[&str] = &[
    "speed",
    "speed-by-wind",
    "super-manoeuvrable",
    "unmanoeuvrable",
    "damage",
    "wounds",
    "command-cards",
    "points",
    "free",
    "squadrons",
    "ships-per-squadron",
    "shields",
    "shields-front",
    "shields-flanks",
    "shields-rear",
    "shields-all-round",
    "special",
    "range-bands",
    "attack-dice",
    "out-of-reach",
    "area-effect",
    "arc-broadsides",
    "arc-forward",
    "arc-fixed-forward",
    "arc-any",
    "arc-turret",
    "laser-batteries",
    "prow-laser",
    "vortex-torpedo",
    "plasma-torpedo",
    "annihilator-cannon",
    "inferno-cannon",
    "fusion-cannon",
    "tentacles",
    "mind-assault",
    "hullgrinder",
    "spore-mine",
    "deathburner",
    "power-bite",
    "shock-ram",
    "boneram",
    "critical-damage",
];

// ============================================================ PARSING

pub fn parse_speed(text: &str) -> Result<Speed, NotationError> {
    value(Rule::speed_value, text).map(speed)
}

/// Damage and wounds.
pub fn parse_number(text: &str) -> Result<u32, NotationError> {
    value(Rule::number_value, text).map(number)
}

pub fn parse_cards(text: &str) -> Result<Cards, NotationError> {
    value(Rule::cards_value, text).map(cards)
}

pub fn parse_points(text: &str) -> Result<Points, NotationError> {
    value(Rule::points_value, text).map(points)
}

pub fn parse_limit(text: &str) -> Result<Limit, NotationError> {
    value(Rule::limit_value, text).map(limit)
}

pub fn parse_shields(text: &str) -> Result<Shields, NotationError> {
    value(Rule::shields_value, text).map(shields)
}

pub fn parse_bands(text: &str) -> Result<Bands, NotationError> {
    value(Rule::bands_value, text).map(bands)
}

pub fn parse_dice(text: &str) -> Result<Dice, NotationError> {
    value(Rule::dice_value, text).map(dice)
}

pub fn parse_arc(text: &str) -> Result<Arc, NotationError> {
    value(Rule::arc_value, text).map(arc)
}

pub fn parse_weapon(text: &str) -> Result<Weapon, NotationError> {
    value(Rule::weapon_name_value, text).map(weapon)
}

/// Comma-separated Space Fleet notation of any kind, as `muster explain`
/// takes it.
pub fn parse_terms(text: &str) -> Result<Vec<SfPart>, NotationError> {
    let parts = super::pest_glue::terms::<SpaceFleetParser, Rule, _>(&GRAMMAR, Rule::term, text, term)?;
    Ok(parts
        .into_iter()
        .map(|(term, span)| SfPart { term, span })
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
    super::pest_glue::value::<SpaceFleetParser, Rule>(&GRAMMAR, rule, text)
}

/// Spellings to suggest for a weapon or arc that does not parse.
fn suggest(entry: Rule, text: &str) -> Option<String> {
    let word = text.trim();
    if word.chars().count() < 4 {
        return None;
    }
    let candidates: Vec<&str> = match entry {
        Rule::weapon_name_value => Weapon::ALL.iter().map(|w| w.as_str()).collect(),
        Rule::arc_value => vec!["Broadsides", "Forward Arc", "Fixed Forward", "Any", "Special"],
        Rule::speed_value => vec!["Unmanoeuvrable", "Super-Manoeuvrable"],
        Rule::shields_value => vec!["None", "Special"],
        Rule::dice_value => vec!["Special", "Area Effect"],
        _ => return None,
    };
    crate::diagnostic::nearest(word, candidates.iter().copied())
        .filter(|s| !s.eq_ignore_ascii_case(word))
        .map(str::to_string)
}

/// User-facing names for grammar rules. Exhaustive, so a new rule must be
/// named here.
fn rule_name(rule: &Rule) -> &'static str {
    match rule {
        Rule::EOI | Rule::term_end => "the end of the value",
        Rule::WHITESPACE => "a space",
        Rule::number | Rule::number_value => "a number",
        Rule::boundary => "the end of a word",
        Rule::speed_value
        | Rule::speed
        | Rule::speed_range
        | Rule::manoeuvre
        | Rule::super_manoeuvrable
        | Rule::unmanoeuvrable => "a speed such as 4, 6 Unmanoeuvrable or 2-6 Super-Manoeuvrable",
        Rule::cards_value | Rule::cards | Rule::none => "a number of command cards or None",
        Rule::points_value | Rule::points | Rule::free => "points such as 100 or Free",
        Rule::limit_value | Rule::limit | Rule::limit_max | Rule::limit_open => {
            "a limit such as 0-3, 0+ or 2"
        }
        Rule::shields_value
        | Rule::shields
        | Rule::shield_facings
        | Rule::shield_front
        | Rule::shield_flanks
        | Rule::shield_rear
        | Rule::shield_all => "shields such as Front 12/Flanks 8, All round 1, None or Special",
        Rule::special => "Special",
        Rule::bands_value | Rule::bands | Rule::band | Rule::inch => {
            "range bands in inches such as 1-6\" 7-12\" 12-24\""
        }
        Rule::dice_value | Rule::dice | Rule::dice_bands | Rule::die_cell | Rule::no_dice | Rule::area => {
            "attack dice per range band such as 8/4/-, Special or Area Effect"
        }
        Rule::arc_value
        | Rule::arc
        | Rule::arc_broadside
        | Rule::arc_forward
        | Rule::arc_fixed
        | Rule::arc_any
        | Rule::arc_turret => "a fire arc such as Broadsides, Forward Arc, Fixed Forward, Any or L/R/F",
        Rule::weapon_name_value
        | Rule::weapon_name
        | Rule::laser_batteries
        | Rule::prow_laser
        | Rule::vortex_torpedo
        | Rule::plasma_torpedo
        | Rule::annihilator_cannon
        | Rule::inferno_cannon
        | Rule::fusion_cannon
        | Rule::tentacles
        | Rule::mind_assault
        | Rule::hullgrinder
        | Rule::spore_mine
        | Rule::deathburner
        | Rule::power_bite
        | Rule::shock_ram
        | Rule::boneram => "a weapon such as Laser Batteries, Vortex Torpedo or Hullgrinder",
        Rule::terms | Rule::term => "Space Fleet notation",
    }
}

fn number(pair: Pair<'_, Rule>) -> u32 {
    // At most three digits, so this always fits.
    pair.as_str().trim().parse().unwrap_or(0)
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

fn speed(pair: Pair<'_, Rule>) -> Speed {
    let mut out = Speed {
        min: 0,
        max: 0,
        manoeuvre: None,
    };
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::speed_range => {
                let n = numbers(p);
                out.min = n.first().copied().unwrap_or(0);
                out.max = n.get(1).copied().unwrap_or(out.min);
            }
            Rule::manoeuvre => {
                out.manoeuvre = Some(match only(p, "speed").as_rule() {
                    Rule::super_manoeuvrable => Manoeuvre::SuperManoeuvrable,
                    Rule::unmanoeuvrable => Manoeuvre::Unmanoeuvrable,
                    other => unreachable!("{other:?} not supposed to get there (speed)"),
                })
            }
            other => unreachable!("{other:?} not supposed to get there (speed)"),
        }
    }
    out
}

fn cards(pair: Pair<'_, Rule>) -> Cards {
    let inner = only(pair, "cards");
    match inner.as_rule() {
        Rule::none => Cards::None,
        Rule::number => Cards::Up(number(inner)),
        other => unreachable!("{other:?} not supposed to get there (cards)"),
    }
}

fn points(pair: Pair<'_, Rule>) -> Points {
    let inner = only(pair, "points");
    match inner.as_rule() {
        Rule::free => Points::Free,
        Rule::number => Points::Cost(number(inner)),
        other => unreachable!("{other:?} not supposed to get there (points)"),
    }
}

fn limit(pair: Pair<'_, Rule>) -> Limit {
    let mut min = 0;
    let mut max = None;
    let mut open = false;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::number => min = number(p),
            Rule::limit_max => max = numbers(p).first().copied(),
            Rule::limit_open => open = true,
            other => unreachable!("{other:?} not supposed to get there (limit)"),
        }
    }
    Limit {
        min,
        max: if open { None } else { Some(max.unwrap_or(min)) },
    }
}

fn shields(pair: Pair<'_, Rule>) -> Shields {
    let inner = only(pair, "shields");
    match inner.as_rule() {
        Rule::none => Shields::None,
        Rule::special => Shields::Special,
        Rule::shield_all => Shields::AllRound(numbers(inner).first().copied().unwrap_or(0)),
        Rule::shield_facings => {
            let mut front = 0;
            let mut flanks = None;
            let mut rear = None;
            for p in inner.into_inner() {
                let rule = p.as_rule();
                let n = numbers(p).first().copied().unwrap_or(0);
                match rule {
                    Rule::shield_front => front = n,
                    Rule::shield_flanks => flanks = Some(n),
                    Rule::shield_rear => rear = Some(n),
                    other => unreachable!("{other:?} not supposed to get there (shields)"),
                }
            }
            Shields::Facings { front, flanks, rear }
        }
        other => unreachable!("{other:?} not supposed to get there (shields)"),
    }
}

fn bands(pair: Pair<'_, Rule>) -> Bands {
    Bands(
        pair.into_inner()
            .map(|band| {
                let n = numbers(band);
                let min = n.first().copied().unwrap_or(0);
                Band {
                    min,
                    max: n.get(1).copied().unwrap_or(min),
                }
            })
            .collect(),
    )
}

fn dice(pair: Pair<'_, Rule>) -> Dice {
    let inner = only(pair, "dice");
    match inner.as_rule() {
        Rule::special => Dice::Special,
        Rule::area => Dice::Area,
        Rule::dice_bands => Dice::Bands(
            inner
                .into_inner()
                .map(|cell| {
                    let c = only(cell, "dice");
                    match c.as_rule() {
                        Rule::number => Some(number(c)),
                        Rule::no_dice => None,
                        other => unreachable!("{other:?} not supposed to get there (dice)"),
                    }
                })
                .collect(),
        ),
        other => unreachable!("{other:?} not supposed to get there (dice)"),
    }
}

fn arc(pair: Pair<'_, Rule>) -> Arc {
    let inner = only(pair, "arc");
    match inner.as_rule() {
        Rule::arc_broadside => Arc::Broadsides,
        Rule::arc_forward => Arc::Forward,
        Rule::arc_fixed => Arc::FixedForward,
        Rule::arc_any => Arc::Any,
        Rule::arc_turret => Arc::Turret,
        Rule::special => Arc::Special,
        other => unreachable!("{other:?} not supposed to get there (arc)"),
    }
}

fn weapon(pair: Pair<'_, Rule>) -> Weapon {
    match only(pair, "weapon").as_rule() {
        Rule::laser_batteries => Weapon::LaserBatteries,
        Rule::prow_laser => Weapon::ProwLaser,
        Rule::vortex_torpedo => Weapon::VortexTorpedo,
        Rule::plasma_torpedo => Weapon::PlasmaTorpedo,
        Rule::annihilator_cannon => Weapon::AnnihilatorCannon,
        Rule::inferno_cannon => Weapon::InfernoCannon,
        Rule::fusion_cannon => Weapon::FusionCannon,
        Rule::tentacles => Weapon::Tentacles,
        Rule::mind_assault => Weapon::MindAssault,
        Rule::hullgrinder => Weapon::Hullgrinder,
        Rule::spore_mine => Weapon::SporeMine,
        Rule::deathburner => Weapon::Deathburner,
        Rule::power_bite => Weapon::PowerBite,
        Rule::shock_ram => Weapon::ShockRam,
        Rule::boneram => Weapon::Boneram,
        other => unreachable!("{other:?} not supposed to get there (weapon)"),
    }
}

fn term(pair: Pair<'_, Rule>) -> SfTerm {
    let inner = only(pair, "term");
    match inner.as_rule() {
        Rule::speed => SfTerm::Speed(speed(inner)),
        Rule::shields => SfTerm::Shields(shields(inner)),
        Rule::bands => SfTerm::Bands(bands(inner)),
        Rule::arc => SfTerm::Arc(arc(inner)),
        Rule::weapon_name => SfTerm::Weapon(weapon(inner)),
        Rule::points => SfTerm::Points(points(inner)),
        Rule::dice => SfTerm::Dice(dice(inner)),
        other => unreachable!("{other:?} not supposed to get there (term)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_parse_and_print_canonically() {
        let speed = |t: &str| parse_speed(t).map(|v| v.to_string());
        assert_eq!(speed("6 Unmanoeuvrable").as_deref(), Ok("6 Unmanoeuvrable"));
        assert_eq!(
            speed("2-6 super manoeuvrable").as_deref(),
            Ok("2-6 Super-Manoeuvrable")
        );
        assert_eq!(speed("4").as_deref(), Ok("4"));
        let shields = |t: &str| parse_shields(t).map(|v| v.to_string());
        assert_eq!(
            shields("Front 6/Flanks 4/Rear 4").as_deref(),
            Ok("Front 6/Flanks 4/Rear 4")
        );
        assert_eq!(shields("all round 1").as_deref(), Ok("All round 1"));
        assert_eq!(shields("None").as_deref(), Ok("None"));
        let bands = |t: &str| parse_bands(t).map(|v| v.to_string());
        assert_eq!(
            bands("1-6\" 7-12\" 12-24\"").as_deref(),
            Ok("1-6\" 7-12\" 12-24\"")
        );
        assert_eq!(bands("1\"").as_deref(), Ok("1\""));
        let dice = |t: &str| parse_dice(t).map(|v| v.to_string());
        assert_eq!(dice("8/4/-").as_deref(), Ok("8/4/-"));
        assert_eq!(dice("area effect").as_deref(), Ok("Area Effect"));
        assert_eq!(parse_limit("0+").map(|l| l.max), Ok(None));
        assert_eq!(parse_limit("2").map(|l| l.to_string()).as_deref(), Ok("2"));
        assert_eq!(parse_limit("1-3").map(|l| l.to_string()).as_deref(), Ok("1-3"));
        assert_eq!(parse_arc("Fixed Front"), Ok(Arc::FixedForward));
        assert_eq!(parse_arc("Broadside"), Ok(Arc::Broadsides));
        assert_eq!(parse_weapon("Laser batteries"), Ok(Weapon::LaserBatteries));
        assert_eq!(parse_points("FREE"), Ok(Points::Free));
        assert_eq!(parse_cards("None"), Ok(Cards::None));
    }

    #[test]
    fn errors_say_where_and_suggest() {
        let e = parse_weapon("Laser Batteris").err();
        assert_eq!(e.and_then(|e| e.suggestion).as_deref(), Some("Laser Batteries"));
        let e = parse_dice("8/4/x").err();
        assert_eq!(e.map(|e| e.column), Some(5));
    }

    #[test]
    fn terms_read_each_kind() {
        let parts = parse_terms("Front 12/Flanks 8, Broadsides, 8/4/-, 6 Unmanoeuvrable, 1-6\" 7-12\"");
        let kinds: Vec<String> = parts
            .map(|p| {
                p.iter()
                    .map(|p| super::super::Explain::kind(&p.term).to_string())
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(
            kinds,
            ["shields", "fire arc", "attack dice", "speed", "range bands"]
        );
    }
}
