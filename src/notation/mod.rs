//! The datasheet notation (`grammar/notation.pest`) as typed data: ranges,
//! firepower, weapon notes, unit notes, speeds and rolls, each printing back
//! in the pack's canonical form (`2× AP5+/AT6+`, `TK(D3)`, `EA(+1)`).
//!
//! This module owns the syntax and the meaning of one value: what a parsed
//! value says (`describe`) and which glossary entries explain it
//! (`glossary_ids`). It must not know about files, lists or rosters: the
//! catalogue parses datasheets with it and reports errors with positions in
//! the list files; `muster explain` and the crib sheets read the result.

pub mod heresy;
pub mod netepic;
mod parse;
mod pest_glue;
pub mod ship;
pub mod space_fleet;

pub use parse::{
    NotationError, parse_firepower, parse_range, parse_roll, parse_speed, parse_terms, parse_unit_note,
    parse_weapon_name, parse_weapon_note,
};

use crate::source::Span;
use std::fmt;

/// A number or a dice roll: `2`, `D3`, `2D3`, `D6+3`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dice {
    /// How many dice, or the fixed number when `sides` is `None`.
    pub count: u32,
    /// Sides of each die; `None` for a fixed number.
    pub sides: Option<u32>,
    pub plus: u32,
}

impl Dice {
    pub fn fixed(n: u32) -> Dice {
        Dice {
            count: n,
            sides: None,
            plus: 0,
        }
    }

    pub fn roll(count: u32, sides: u32, plus: u32) -> Dice {
        Dice {
            count,
            sides: Some(sides),
            plus,
        }
    }

    /// `Some(n)` for a fixed number.
    pub fn as_fixed(self) -> Option<u32> {
        match self.sides {
            None => Some(self.count + self.plus),
            Some(_) => None,
        }
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.sides {
            None => write!(f, "{}", self.count + self.plus),
            Some(sides) => {
                if self.count != 1 {
                    write!(f, "{}", self.count)?;
                }
                write!(f, "D{sides}")?;
                if self.plus > 0 {
                    write!(f, "+{}", self.plus)?;
                }
                Ok(())
            }
        }
    }
}

/// A weapon's range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Range {
    /// `45cm`.
    Distance(u32),
    /// `30-150cm`: a minimum and a maximum.
    Band { min: u32, max: u32 },
    /// `(15cm)`: used in firefights only.
    Firefight(u32),
    /// `(bc)`: used in base contact only.
    BaseContact,
    /// `Unlimited`.
    Unlimited,
    /// `n/a`.
    NotApplicable,
}

impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Range::Distance(cm) => write!(f, "{cm}cm"),
            Range::Band { min, max } => write!(f, "{min}-{max}cm"),
            Range::Firefight(cm) => write!(f, "({cm}cm)"),
            Range::BaseContact => f.write_str("(bc)"),
            Range::Unlimited => f.write_str("Unlimited"),
            Range::NotApplicable => f.write_str("n/a"),
        }
    }
}

/// What a shot can hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ShotKind {
    /// `AP`: infantry and light vehicles.
    AntiPersonnel,
    /// `AT`: armoured and light vehicles, war engines.
    AntiTank,
    /// `AA`: aircraft.
    AntiAircraft,
    /// `MW`: any target, as a macro-weapon.
    Macro,
}

impl ShotKind {
    pub fn abbreviation(self) -> &'static str {
        match self {
            ShotKind::AntiPersonnel => "AP",
            ShotKind::AntiTank => "AT",
            ShotKind::AntiAircraft => "AA",
            ShotKind::Macro => "MW",
        }
    }

    fn targets(self) -> &'static str {
        match self {
            ShotKind::AntiPersonnel => "infantry and light vehicles",
            ShotKind::AntiTank => "armoured vehicles, light vehicles and war engines",
            ShotKind::AntiAircraft => "aircraft",
            ShotKind::Macro => "any target",
        }
    }

    fn glossary_id(self) -> &'static str {
        match self {
            ShotKind::AntiPersonnel => "anti-personnel",
            ShotKind::AntiTank => "anti-tank",
            ShotKind::AntiAircraft => "anti-aircraft",
            ShotKind::Macro => "macro-weapon",
        }
    }
}

/// One firepower value: `AT6+`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shot {
    pub kind: ShotKind,
    /// The D6 score needed to hit.
    pub score: u8,
}

impl fmt::Display for Shot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}+", self.kind.abbreviation(), self.score)
    }
}

/// A weapon's firepower.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Firepower {
    /// `Small Arms`: adds to firefight attacks.
    SmallArms,
    /// `Assault Weapons`: adds to close combat attacks.
    AssaultWeapons,
    /// `2BP`, `D6+1BP`: barrage points.
    Barrage(Dice),
    /// `AP5+/AT6+`, `2× MW2+`: one or more values to choose from.
    Shots {
        multiplier: Option<Dice>,
        shots: Vec<Shot>,
    },
}

impl fmt::Display for Firepower {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Firepower::SmallArms => f.write_str("Small Arms"),
            Firepower::AssaultWeapons => f.write_str("Assault Weapons"),
            Firepower::Barrage(points) => write!(f, "{points}BP"),
            Firepower::Shots { multiplier, shots } => {
                if let Some(m) = multiplier {
                    write!(f, "{m}× ")?;
                }
                for (i, shot) in shots.iter().enumerate() {
                    if i > 0 {
                        f.write_str("/")?;
                    }
                    write!(f, "{shot}")?;
                }
                Ok(())
            }
        }
    }
}

/// Where a weapon may fire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FireArc {
    FixedForward,
    Forward,
    Left,
    Right,
    Rear,
}

/// A weapon note.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WeaponNote {
    MacroWeapon,
    /// `TK`, `TK(D3)`: damage dealt to a war engine, one when not given.
    TitanKiller(Option<Dice>),
    /// `EA(+1)`: extra attacks.
    ExtraAttacks(Dice),
    IgnoreCover,
    IndirectFire,
    Disrupt,
    FirstStrike,
    Lance,
    Sniper,
    SingleShot,
    SlowFiring,
    GuidedMissile,
    WeaponMount,
    Arc(FireArc),
}

impl fmt::Display for WeaponNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeaponNote::MacroWeapon => f.write_str("MW"),
            WeaponNote::TitanKiller(None) => f.write_str("TK"),
            WeaponNote::TitanKiller(Some(d)) => write!(f, "TK({d})"),
            WeaponNote::ExtraAttacks(d) => write!(f, "EA(+{d})"),
            WeaponNote::IgnoreCover => f.write_str("IC"),
            WeaponNote::IndirectFire => f.write_str("Ind"),
            WeaponNote::Disrupt => f.write_str("D"),
            WeaponNote::FirstStrike => f.write_str("FS"),
            WeaponNote::Lance => f.write_str("L"),
            WeaponNote::Sniper => f.write_str("S"),
            WeaponNote::SingleShot => f.write_str("SS"),
            WeaponNote::SlowFiring => f.write_str("Slw"),
            WeaponNote::GuidedMissile => f.write_str("GM"),
            WeaponNote::WeaponMount => f.write_str("WM"),
            WeaponNote::Arc(FireArc::FixedForward) => f.write_str("FxF"),
            WeaponNote::Arc(FireArc::Forward) => f.write_str("FwA"),
            WeaponNote::Arc(FireArc::Left) => f.write_str("Left"),
            WeaponNote::Arc(FireArc::Right) => f.write_str("Right"),
            WeaponNote::Arc(FireArc::Rear) => f.write_str("RrA"),
        }
    }
}

impl WeaponNote {
    pub fn glossary_id(self) -> &'static str {
        match self {
            WeaponNote::MacroWeapon => "macro-weapon",
            WeaponNote::TitanKiller(_) => "titan-killer",
            WeaponNote::ExtraAttacks(_) => "extra-attacks",
            WeaponNote::IgnoreCover => "ignore-cover",
            WeaponNote::IndirectFire => "indirect-fire",
            WeaponNote::Disrupt => "disrupt",
            WeaponNote::FirstStrike => "first-strike",
            WeaponNote::Lance => "lance",
            WeaponNote::Sniper => "sniper",
            WeaponNote::SingleShot => "single-shot",
            WeaponNote::SlowFiring => "slow-firing",
            WeaponNote::GuidedMissile => "guided-missile",
            WeaponNote::WeaponMount => "weapon-mount",
            WeaponNote::Arc(FireArc::FixedForward) => "fixed-forward-arc",
            WeaponNote::Arc(FireArc::Forward) => "forward-arc",
            WeaponNote::Arc(FireArc::Left) => "left-arc",
            WeaponNote::Arc(FireArc::Right) => "right-arc",
            WeaponNote::Arc(FireArc::Rear) => "rear-arc",
        }
    }

    /// What the note's parameter says, where it has one.
    pub fn describe(self) -> Option<String> {
        match self {
            WeaponNote::TitanKiller(None) => {
                Some("a war engine it hits loses 1 point of damage capacity".into())
            }
            WeaponNote::TitanKiller(Some(d)) => Some(format!(
                "a war engine it hits loses {d} point{} of damage capacity",
                plural_dice(d)
            )),
            WeaponNote::ExtraAttacks(d) => Some(format!("{d} extra attack{}", plural_dice(d))),
            _ => None,
        }
    }
}

fn plural_dice(d: Dice) -> &'static str {
    if d.as_fixed() == Some(1) { "" } else { "s" }
}

macro_rules! named_notes {
    ($($variant:ident = $text:literal, $id:literal;)*) => {
        /// A unit note without a parameter.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum NamedNote { $($variant,)* }

        impl NamedNote {
            pub const ALL: &'static [NamedNote] = &[$(NamedNote::$variant,)*];

            /// The canonical spelling.
            pub fn as_str(self) -> &'static str {
                match self { $(NamedNote::$variant => $text,)* }
            }

            pub fn glossary_id(self) -> &'static str {
                match self { $(NamedNote::$variant => $id,)* }
            }
        }
    };
}

named_notes! {
    ReinforcedArmour = "Reinforced Armour", "reinforced-armour";
    ThickRearArmour = "Thick Rear Armour", "thick-rear-armour";
    Walker = "Walker", "walker";
    Skimmer = "Skimmer", "skimmer";
    Scout = "Scout", "scout";
    Leader = "Leader", "leader";
    Inspiring = "Inspiring", "inspiring";
    Infiltrator = "Infiltrator", "infiltrator";
    Commander = "Commander", "commander";
    SupremeCommander = "Supreme Commander", "supreme-commander";
    Teleport = "Teleport", "teleport";
    Mounted = "Mounted", "mounted";
    JumpPacks = "Jump Packs", "jump-packs";
    Expendable = "Expendable", "expendable";
    Planetfall = "Planetfall", "planetfall";
    SelfPlanetfall = "Self Planetfall", "self-planetfall";
    Fearless = "Fearless", "fearless";
    InvulnerableSave = "Invulnerable Save", "invulnerable-save";
    Transport = "Transport", "transport";
    DaemonicFocus = "Daemonic Focus", "daemonic-focus";
    Holofield = "Holofield", "holofield";
    LivingMetal = "Living Metal", "living-metal";
    KnightShield = "Knight Shield", "knight-shield";
    Farsight = "Farsight", "farsight";
    Sniper = "Sniper", "sniper";
    SlowAndSteady = "Slow and Steady", "slow-and-steady";
    Necron = "Necron", "necron";
    Markerlights = "Markerlights", "markerlights";
    WebwayPortal = "Webway Portal", "webway-portal";
    Regeneration = "Regeneration", "regeneration";
    CoordinatedFire = "Coordinated Fire", "coordinated-fire";
    Tunneler = "Tunneler", "tunneler";
    TauJetPacks = "Tau Jet Packs", "tau-jet-packs";
    Portal = "Portal", "portal";
    SupportCraft = "Support Craft", "support-craft";
    DeflectorShield = "Deflector Shield", "deflector-shield";
    Automaton = "Automaton", "automaton";
    FirstStrike = "First Strike", "first-strike";
}

/// A unit note.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnitNote {
    Named(NamedNote),
    /// `Damage Capacity 3`.
    DamageCapacity(u32),
    /// `4 Void Shields`.
    VoidShields(u32),
    /// `D3+3 Power Fields`.
    PowerFields(Dice),
    /// `2 Shadowfields`.
    Shadowfields(u32),
    /// `Brood (2)`.
    Brood(u32),
    /// `Synapse (2)`.
    Synapse(u32),
    /// `Synapse (+1)`: adds to the synapse of the unit a character joins.
    SynapseBonus(u32),
    /// `Augmented Summoning (+2D3)`.
    AugmentedSummoning(Dice),
}

impl fmt::Display for UnitNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = |n: u32| if n == 1 { "" } else { "s" };
        match self {
            UnitNote::Named(note) => f.write_str(note.as_str()),
            UnitNote::DamageCapacity(n) => write!(f, "Damage Capacity {n}"),
            UnitNote::VoidShields(n) => write!(f, "{n} Void Shield{}", s(*n)),
            UnitNote::PowerFields(d) => write!(f, "{d} Power Field{}", plural_dice(*d)),
            UnitNote::Shadowfields(n) => write!(f, "{n} Shadowfield{}", s(*n)),
            UnitNote::Brood(n) => write!(f, "Brood ({n})"),
            UnitNote::Synapse(n) => write!(f, "Synapse ({n})"),
            UnitNote::SynapseBonus(n) => write!(f, "Synapse (+{n})"),
            UnitNote::AugmentedSummoning(d) => write!(f, "Augmented Summoning (+{d})"),
        }
    }
}

impl UnitNote {
    pub fn glossary_id(self) -> &'static str {
        match self {
            UnitNote::Named(note) => note.glossary_id(),
            UnitNote::DamageCapacity(_) => "damage-capacity",
            UnitNote::VoidShields(_) => "void-shields",
            UnitNote::PowerFields(_) => "power-fields",
            UnitNote::Shadowfields(_) => "shadowfields",
            UnitNote::Brood(_) => "brood",
            UnitNote::Synapse(_) | UnitNote::SynapseBonus(_) => "synapse",
            UnitNote::AugmentedSummoning(_) => "augmented-summoning",
        }
    }

    /// What the note's parameter says, where it has one.
    pub fn describe(self) -> Option<String> {
        let s = |n: u32| if n == 1 { "" } else { "s" };
        match self {
            UnitNote::Named(_) => None,
            UnitNote::DamageCapacity(n) => Some(format!("it takes {n} point{} of damage to destroy", s(n))),
            UnitNote::VoidShields(n) => Some(format!(
                "{n} shield{} to knock down before damage gets through",
                s(n)
            )),
            UnitNote::PowerFields(d) => Some(format!(
                "{d} field{} to knock down before damage gets through",
                plural_dice(d)
            )),
            UnitNote::Shadowfields(n) => {
                Some(format!("{n} field{} to knock down before hits get through", s(n)))
            }
            UnitNote::Brood(n) => Some(format!("costs {n} swarm point{} to bring back", s(n))),
            UnitNote::Synapse(n) => Some(format!("gives its formation {n} swarm point{}", s(n))),
            UnitNote::SynapseBonus(n) => Some(format!("adds {n} to the synapse value of the unit it joins")),
            UnitNote::AugmentedSummoning(d) => Some(format!("adds {d} summoning points")),
        }
    }

    /// Damage capacity, for war engines.
    pub fn damage_capacity(self) -> Option<u32> {
        match self {
            UnitNote::DamageCapacity(n) => Some(n),
            _ => None,
        }
    }
}

/// A unit's speed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Speed {
    Cm(u32),
    Fighter,
    Bomber,
    FighterBomber,
    Immobile,
    NotApplicable,
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Speed::Cm(cm) => write!(f, "{cm}cm"),
            Speed::Fighter => f.write_str("Fighter"),
            Speed::Bomber => f.write_str("Bomber"),
            Speed::FighterBomber => f.write_str("Fighter-bomber"),
            Speed::Immobile => f.write_str("Immobile"),
            Speed::NotApplicable => f.write_str("n/a"),
        }
    }
}

impl Speed {
    pub fn glossary_id(self) -> Option<&'static str> {
        match self {
            Speed::Fighter => Some("fighter"),
            Speed::Bomber => Some("bomber"),
            Speed::FighterBomber => Some("fighter-bomber"),
            Speed::Cm(_) | Speed::Immobile | Speed::NotApplicable => None,
        }
    }
}

/// Armour, close combat or firefight value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Roll {
    /// `4+`: the D6 score needed.
    Score(u8),
    /// `-`: none at all.
    None,
    /// `n/a`: does not apply (characters, spacecraft).
    NotApplicable,
}

impl fmt::Display for Roll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Roll::Score(n) => write!(f, "{n}+"),
            Roll::None => f.write_str("-"),
            Roll::NotApplicable => f.write_str("n/a"),
        }
    }
}

/// A weapon's name with its multiplier: `2× Lascannon`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WeaponName {
    pub multiplier: Option<Dice>,
    pub name: String,
}

impl fmt::Display for WeaponName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.multiplier {
            write!(f, "{m}× ")?;
        }
        f.write_str(&self.name)
    }
}

/// Abbreviations that stand alone: unit types and column heads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Abbreviation {
    Infantry,
    LightVehicle,
    ArmouredVehicle,
    WarEngine,
    Aircraft,
    Spacecraft,
    Character,
    CloseCombat,
    Firefight,
    DamageCapacity,
    BarragePoints,
    AntiPersonnel,
    AntiTank,
    AntiAircraft,
    ExtraAttacks,
}

impl Abbreviation {
    pub fn as_str(self) -> &'static str {
        match self {
            Abbreviation::Infantry => "INF",
            Abbreviation::LightVehicle => "LV",
            Abbreviation::ArmouredVehicle => "AV",
            Abbreviation::WarEngine => "WE",
            Abbreviation::Aircraft => "AC",
            Abbreviation::Spacecraft => "SC",
            Abbreviation::Character => "CH",
            Abbreviation::CloseCombat => "CC",
            Abbreviation::Firefight => "FF",
            Abbreviation::DamageCapacity => "DC",
            Abbreviation::BarragePoints => "BP",
            Abbreviation::AntiPersonnel => "AP",
            Abbreviation::AntiTank => "AT",
            Abbreviation::AntiAircraft => "AA",
            Abbreviation::ExtraAttacks => "EA",
        }
    }

    pub fn glossary_id(self) -> &'static str {
        match self {
            Abbreviation::Infantry => "infantry",
            Abbreviation::LightVehicle => "light-vehicle",
            Abbreviation::ArmouredVehicle => "armoured-vehicle",
            Abbreviation::WarEngine => "war-engine",
            Abbreviation::Aircraft => "aircraft",
            Abbreviation::Spacecraft => "spacecraft",
            Abbreviation::Character => "character",
            Abbreviation::CloseCombat => "close-combat",
            Abbreviation::Firefight => "firefight",
            Abbreviation::DamageCapacity => "damage-capacity",
            Abbreviation::BarragePoints => "barrage-points",
            Abbreviation::AntiPersonnel => "anti-personnel",
            Abbreviation::AntiTank => "anti-tank",
            Abbreviation::AntiAircraft => "anti-aircraft",
            Abbreviation::ExtraAttacks => "extra-attacks",
        }
    }
}

/// One part of a text given to `muster explain`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Term {
    Firepower(Firepower),
    Range(Range),
    Roll(Roll),
    WeaponNote(WeaponNote),
    UnitNote(UnitNote),
    Speed(Speed),
    Abbreviation(Abbreviation),
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Term::Firepower(x) => x.fmt(f),
            Term::Range(x) => x.fmt(f),
            Term::Roll(x) => x.fmt(f),
            Term::WeaponNote(x) => x.fmt(f),
            Term::UnitNote(x) => x.fmt(f),
            Term::Speed(x) => x.fmt(f),
            Term::Abbreviation(x) => f.write_str(x.as_str()),
        }
    }
}

impl Term {
    /// What kind of notation it is, for humans.
    pub fn kind(&self) -> &'static str {
        match self {
            Term::Firepower(_) => "firepower",
            Term::Range(_) => "range",
            Term::Roll(_) => "armour, close combat or firefight value",
            Term::WeaponNote(_) => "weapon note",
            Term::UnitNote(_) => "unit note",
            Term::Speed(_) => "speed",
            Term::Abbreviation(_) => "abbreviation",
        }
    }

    /// What this value says, in words (the glossary explains the terms).
    pub fn describe(&self) -> Option<String> {
        match self {
            Term::Firepower(x) => Some(x.describe()),
            Term::Range(x) => Some(x.describe()),
            Term::Roll(Roll::Score(n)) => Some(format!("succeeds on a D6 roll of {n} or more")),
            Term::Roll(Roll::None) => Some("none at all".into()),
            Term::Roll(Roll::NotApplicable) => Some("does not apply to this unit".into()),
            Term::WeaponNote(x) => x.describe(),
            Term::UnitNote(x) => x.describe(),
            Term::Speed(Speed::Cm(cm)) => Some(format!("moves up to {cm}cm and still fires normally")),
            Term::Speed(Speed::Immobile) => Some("cannot move".into()),
            Term::Speed(_) | Term::Abbreviation(_) => None,
        }
    }

    /// The glossary entries that explain it.
    pub fn glossary_ids(&self) -> Vec<&'static str> {
        match self {
            Term::Firepower(x) => x.glossary_ids(),
            Term::Range(x) => x.glossary_id().into_iter().collect(),
            Term::Roll(_) => Vec::new(),
            Term::WeaponNote(x) => vec![x.glossary_id()],
            Term::UnitNote(x) => vec![x.glossary_id()],
            Term::Speed(x) => x.glossary_id().into_iter().collect(),
            Term::Abbreviation(x) => vec![x.glossary_id()],
        }
    }
}

impl Range {
    pub fn describe(&self) -> String {
        match self {
            Range::Distance(cm) => format!("fires at targets up to {cm}cm away"),
            Range::Band { min, max } => format!("fires at targets from {min}cm to {max}cm away"),
            Range::Firefight(cm) => format!("used only in assaults, as a firefight attack within {cm}cm"),
            Range::BaseContact => "used only in close combat, against enemies in base contact".into(),
            Range::Unlimited => "fires at targets anywhere on the table".into(),
            Range::NotApplicable => "has no range of its own".into(),
        }
    }

    pub fn glossary_id(&self) -> Option<&'static str> {
        match self {
            Range::Firefight(_) => Some("firefight-range"),
            Range::BaseContact => Some("base-contact"),
            Range::Band { .. } => Some("minimum-range"),
            Range::Distance(_) | Range::Unlimited | Range::NotApplicable => None,
        }
    }
}

impl Firepower {
    pub fn describe(&self) -> String {
        match self {
            Firepower::SmallArms => {
                "fights only in assaults, through the unit's firefight value; its notes add to it".into()
            }
            Firepower::AssaultWeapons => {
                "fights only in assaults, through the unit's close combat value; its notes add to it".into()
            }
            Firepower::Barrage(points) => format!("a barrage worth {points} barrage points"),
            Firepower::Shots { multiplier, shots } => {
                let dice = match multiplier {
                    None => "rolls one die".to_string(),
                    Some(m) if m.as_fixed() == Some(1) => "rolls one die".to_string(),
                    Some(m) => format!("rolls {m} dice"),
                };
                let parts: Vec<String> = shots
                    .iter()
                    .map(|s| match s.kind {
                        ShotKind::Macro => format!("any target on {}+ as a macro-weapon (MW)", s.score),
                        kind => format!("{} on {}+ ({})", kind.targets(), s.score, kind.abbreviation()),
                    })
                    .collect();
                if parts.len() == 1 {
                    format!("{dice} to hit {}", parts.join(""))
                } else {
                    format!(
                        "{dice} to hit {}: one of these each time it fires",
                        parts.join(", or ")
                    )
                }
            }
        }
    }

    pub fn glossary_ids(&self) -> Vec<&'static str> {
        match self {
            Firepower::SmallArms => vec!["small-arms"],
            Firepower::AssaultWeapons => vec!["assault-weapons"],
            Firepower::Barrage(_) => vec!["barrage-points"],
            Firepower::Shots { multiplier, shots } => {
                let mut ids: Vec<&'static str> = Vec::new();
                if multiplier.is_some() {
                    ids.push("multiplier");
                }
                for shot in shots {
                    let id = shot.kind.glossary_id();
                    if !ids.contains(&id) {
                        ids.push(id);
                    }
                }
                ids
            }
        }
    }
}

/// What `muster explain` says of any parsed value, Epic or ship.
pub trait Explain: fmt::Display {
    /// What kind of notation it is (`firepower`, `armour`).
    fn kind(&self) -> &'static str;
    /// What its values say, in words.
    fn describe(&self) -> Option<String>;
    /// The glossary entries that explain it.
    fn glossary_ids(&self) -> Vec<&'static str>;
}

impl Explain for Term {
    fn kind(&self) -> &'static str {
        Term::kind(self)
    }
    fn describe(&self) -> Option<String> {
        Term::describe(self)
    }
    fn glossary_ids(&self) -> Vec<&'static str> {
        Term::glossary_ids(self)
    }
}

/// A term and where it is written in the explained text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    pub term: Term,
    pub span: Span,
}

/// One weapon line of a datasheet, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WeaponLine {
    pub name: WeaponName,
    pub range: Range,
    pub firepower: Firepower,
    pub notes: Vec<WeaponNote>,
}

/// A datasheet's values, parsed. `None` stats are values the sources lack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sheet {
    pub speed: Option<Speed>,
    pub armour: Option<Roll>,
    pub cc: Option<Roll>,
    pub ff: Option<Roll>,
    pub weapons: Vec<WeaponLine>,
    pub notes: Vec<UnitNote>,
}

impl Sheet {
    /// Every glossary entry its values use, in first-use order, without
    /// repeats (unit types and column heads are the caller's).
    pub fn glossary_ids(&self) -> Vec<&'static str> {
        let mut ids = Vec::new();
        let mut add = |id: &'static str| {
            if !ids.contains(&id) {
                ids.push(id);
            }
        };
        if let Some(id) = self.speed.and_then(Speed::glossary_id) {
            add(id);
        }
        for weapon in &self.weapons {
            if weapon.name.multiplier.is_some() {
                add("multiplier");
            }
            if let Some(id) = weapon.range.glossary_id() {
                add(id);
            }
            for id in weapon.firepower.glossary_ids() {
                add(id);
            }
            for note in &weapon.notes {
                add(note.glossary_id());
            }
        }
        for note in &self.notes {
            add(note.glossary_id());
        }
        ids
    }

    pub fn damage_capacity(&self) -> Option<u32> {
        self.notes.iter().find_map(|n| n.damage_capacity())
    }
}

#[cfg(test)]
mod tests;
