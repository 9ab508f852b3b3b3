//! NetEpic Gold unit notation (`grammar/netepic.pest`) as typed data: unit
//! classes, move, armour save (with a fixed save), close assault factor,
//! morale, weapons (range or template, attack dice or barrages, to-hit,
//! target save modifier, weapon abilities) and special abilities. Each value
//! prints back in one canonical form, names the glossary entries that
//! explain it, and fails with the character where it stops making sense.
//!
//! It knows nothing of files: the catalogue parses NetEpic datasheets with
//! it. The pinning class follows from the unit class (`games::netepic`).

use super::NotationError;
use super::ship::Stat;
use crate::source::Span;
use pest::iterators::Pair;
use pest_derive::Parser;
use std::fmt;

#[derive(Parser)]
#[grammar = "../grammar/netepic.pest"]
struct NetEpicParser;

/// Rebuild when the grammar changes.
const _GRAMMAR: &str = include_str!("../../grammar/netepic.pest");

// ============================================================ TYPES

/// The unit classes of Appendix A, and the two movement classes the
/// catalogues write beside them (Skimmer, Floater).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Infantry,
    Cavalry,
    Walker,
    Knight,
    Vehicle,
    LightArtillery,
    HeavyArtillery,
    Flyer,
    Superheavy,
    Praetorian,
    Titan,
    Skimmer,
    Floater,
}

impl Class {
    pub const ALL: &[Class] = &[
        Class::Infantry,
        Class::Cavalry,
        Class::Walker,
        Class::Knight,
        Class::Vehicle,
        Class::LightArtillery,
        Class::HeavyArtillery,
        Class::Flyer,
        Class::Superheavy,
        Class::Praetorian,
        Class::Titan,
        Class::Skimmer,
        Class::Floater,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Class::Infantry => "Infantry",
            Class::Cavalry => "Cavalry",
            Class::Walker => "Walker",
            Class::Knight => "Knight",
            Class::Vehicle => "Vehicle",
            Class::LightArtillery => "Light Artillery",
            Class::HeavyArtillery => "Heavy Artillery",
            Class::Flyer => "Flyer",
            Class::Superheavy => "Superheavy",
            Class::Praetorian => "Praetorian",
            Class::Titan => "Titan",
            Class::Skimmer => "Skimmer",
            Class::Floater => "Floater",
        }
    }

    pub fn glossary_id(self) -> &'static str {
        match self {
            Class::Infantry => "infantry",
            Class::Cavalry => "cavalry",
            Class::Walker => "walker",
            Class::Knight => "knight",
            Class::Vehicle => "vehicle",
            Class::LightArtillery => "light-artillery",
            Class::HeavyArtillery => "heavy-artillery",
            Class::Flyer => "flyer",
            Class::Superheavy => "superheavy",
            Class::Praetorian => "praetorian",
            Class::Titan => "titan",
            Class::Skimmer => "skimmer",
            Class::Floater => "floater",
        }
    }
}

/// A unit's classes, as the datasheet lists them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classes(pub Vec<Class>);

impl Classes {
    /// The pinning class (Appendix A): the largest of its classes', or
    /// `None` where no class of it is in the table.
    pub fn pinning_class(&self) -> Option<u8> {
        self.0
            .iter()
            .filter_map(|c| crate::games::netepic::pinning_class(c.as_str()))
            .max()
    }
}

impl fmt::Display for Classes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.0.iter().map(|c| c.as_str()).collect();
        f.write_str(&names.join(", "))
    }
}

/// Move in centimetres, or `-`: the unit does not move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    Cm(u32),
    None,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Cm(n) => write!(f, "{n}cm"),
            Move::None => f.write_str("-"),
        }
    }
}

/// Armour save: `5+`, `6+ fixed` (no modifier applies), `4+ / 6+ fixed`,
/// `-` (none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Save {
    Armour(u32),
    Fixed(u32),
    Both { armour: u32, fixed: u32 },
    None,
}

impl fmt::Display for Save {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Save::Armour(n) => write!(f, "{n}+"),
            Save::Fixed(n) => write!(f, "{n}+ fixed"),
            Save::Both { armour, fixed } => write!(f, "{armour}+ / {fixed}+ fixed"),
            Save::None => f.write_str("-"),
        }
    }
}

impl Save {
    pub fn glossary_ids(self) -> Vec<&'static str> {
        match self {
            Save::Armour(_) => vec!["save"],
            Save::Fixed(_) | Save::Both { .. } => vec!["save", "fixed-save"],
            Save::None => vec!["save", "none"],
        }
    }

    pub fn describe(self) -> String {
        match self {
            Save::Armour(n) => format!("survives a hit on {n}+, less the weapon's TSM"),
            Save::Fixed(n) => format!("survives a hit on {n}+, whatever the weapon's TSM"),
            Save::Both { armour, fixed } => format!(
                "survives a hit on {armour}+ less the weapon's TSM, or else on {fixed}+ whatever the TSM"
            ),
            Save::None => "no armour save".into(),
        }
    }
}

/// Close assault factor, added to 2D6 in close combat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caf(pub i32);

impl fmt::Display for Caf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 < 0 {
            write!(f, "{}", self.0)
        } else {
            write!(f, "+{}", self.0)
        }
    }
}

/// Morale: the roll to pass a morale test, or `-` (no morale value).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Morale {
    Roll(u32),
    None,
}

impl fmt::Display for Morale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Morale::Roll(n) => write!(f, "{n}+"),
            Morale::None => f.write_str("-"),
        }
    }
}

/// How far a weapon reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Range {
    Cm(u32),
    /// Minimum and maximum range.
    Span(u32, u32),
    LargeTeardrop,
    SmallTeardrop,
    /// Any distance the firer can see.
    LineOfSight,
    /// A close-combat weapon.
    CloseCombat,
}

impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Range::Cm(n) => write!(f, "{n}cm"),
            Range::Span(a, b) => write!(f, "{a}-{b}cm"),
            Range::LargeTeardrop => f.write_str("LT"),
            Range::SmallTeardrop => f.write_str("ST"),
            Range::LineOfSight => f.write_str("LoS"),
            Range::CloseCombat => f.write_str("CC"),
        }
    }
}

/// A number of dice or barrages: `2`, `D6`, `D6+3`, `2-10`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Count {
    Fixed(u32),
    Die(u32),
    /// A die roll plus a figure: `D6+3`.
    DiePlus(u32, u32),
    Span(u32, u32),
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Count::Fixed(n) => write!(f, "{n}"),
            Count::Die(n) => write!(f, "D{n}"),
            Count::DiePlus(n, plus) => write!(f, "D{n}+{plus}"),
            Count::Span(a, b) => write!(f, "{a}-{b}"),
        }
    }
}

/// What a weapon's count counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttackKind {
    Dice,
    BarragePoints,
    StandardBarrage,
    LargeBarrage,
}

impl AttackKind {
    pub fn as_str(self) -> &'static str {
        match self {
            AttackKind::Dice => "d",
            AttackKind::BarragePoints => "BP",
            AttackKind::StandardBarrage => "SB",
            AttackKind::LargeBarrage => "LB",
        }
    }

    pub fn glossary_id(self) -> &'static str {
        match self {
            AttackKind::Dice => "attack-dice",
            AttackKind::BarragePoints => "barrage-points",
            AttackKind::StandardBarrage => "standard-barrage",
            AttackKind::LargeBarrage => "large-barrage",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attacks {
    pub count: Option<Count>,
    pub kind: AttackKind,
}

impl fmt::Display for Attacks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(c) = self.count {
            write!(f, "{c}")?;
        }
        f.write_str(self.kind.as_str())
    }
}

/// The to-hit roll: `5+`, or `auto` (hits without a roll).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToHit {
    Roll(u32),
    Auto,
}

impl fmt::Display for ToHit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToHit::Roll(n) => write!(f, "{n}+"),
            ToHit::Auto => f.write_str("auto"),
        }
    }
}

/// Target save modifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tsm {
    Zero,
    Minus(u32),
    /// `-D6`: a roll.
    MinusDie(u32),
}

impl fmt::Display for Tsm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tsm::Zero => f.write_str("(0)"),
            Tsm::Minus(n) => write!(f, "(-{n})"),
            Tsm::MinusDie(n) => write!(f, "(-D{n})"),
        }
    }
}

/// Abilities written after a weapon's profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WeaponAbility {
    Penetrating(u32),
    Turret,
    OneShot,
    IgnoresCover,
    DamagesBuildings,
    DestroysBuildings,
    AntiAircraft,
    /// The weapon also works by a rule of its army book.
    Special,
    /// Each hit counts as this many.
    Hits(Count),
    /// Fires this many times a game.
    ShotsPerGame(u32),
}

impl fmt::Display for WeaponAbility {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeaponAbility::Penetrating(n) => write!(f, "Penetrating +{n}"),
            WeaponAbility::Turret => f.write_str("Turret"),
            WeaponAbility::OneShot => f.write_str("One Shot"),
            WeaponAbility::IgnoresCover => f.write_str("Ignores Cover"),
            WeaponAbility::DamagesBuildings => f.write_str("Damages Buildings"),
            WeaponAbility::DestroysBuildings => f.write_str("Destroys Buildings"),
            WeaponAbility::AntiAircraft => f.write_str("Anti-Aircraft"),
            WeaponAbility::Special => f.write_str("Special"),
            WeaponAbility::Hits(c) => write!(f, "{c} Hits"),
            WeaponAbility::ShotsPerGame(n) => write!(f, "{n} Shots per Game"),
        }
    }
}

impl WeaponAbility {
    pub fn glossary_id(self) -> &'static str {
        match self {
            WeaponAbility::Penetrating(_) => "penetrating",
            WeaponAbility::Turret => "turret",
            WeaponAbility::OneShot => "one-shot",
            WeaponAbility::IgnoresCover => "ignores-cover",
            WeaponAbility::DamagesBuildings => "damages-buildings",
            WeaponAbility::DestroysBuildings => "destroys-buildings",
            WeaponAbility::AntiAircraft => "anti-aircraft",
            WeaponAbility::Special => "special-rule",
            WeaponAbility::Hits(_) => "multiple-hits",
            WeaponAbility::ShotsPerGame(_) => "shots-per-game",
        }
    }
}

/// A weapon's profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    /// `2x`: fired that many times.
    pub times: Option<u32>,
    pub range: Option<Range>,
    pub attacks: Option<Attacks>,
    pub to_hit: Option<ToHit>,
    /// `None` only where a rule gives it: the abilities then start with
    /// `Special`.
    pub tsm: Option<Tsm>,
    pub abilities: Vec<WeaponAbility>,
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        parts.extend(self.times.map(|n| format!("{n}x")));
        parts.extend(self.range.map(|r| r.to_string()));
        parts.extend(self.attacks.map(|a| a.to_string()));
        parts.extend(self.to_hit.map(|h| h.to_string()));
        parts.extend(self.tsm.map(|t| t.to_string()));
        if !self.abilities.is_empty() {
            let a: Vec<String> = self.abilities.iter().map(|a| a.to_string()).collect();
            parts.push(a.join(", "));
        }
        f.write_str(&parts.join(" "))
    }
}

/// A weapon: its name and its profile, `None` where the sources give none
/// in this form (`Name: missing`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weapon {
    pub name: String,
    pub profile: Option<Profile>,
}

impl fmt::Display for Weapon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.profile {
            Some(p) => write!(f, "{}: {p}", self.name),
            None => write!(f, "{}: missing", self.name),
        }
    }
}

impl Weapon {
    pub fn glossary_ids(&self) -> Vec<&'static str> {
        let Some(p) = &self.profile else {
            return vec!["missing"];
        };
        let mut ids = Vec::new();
        if p.times.is_some() {
            ids.push("times");
        }
        match p.range {
            Some(Range::Cm(_)) => ids.push("range"),
            Some(Range::Span(..)) => ids.extend(["range", "minimum-range"]),
            Some(Range::LargeTeardrop) => ids.push("large-teardrop"),
            Some(Range::SmallTeardrop) => ids.push("small-teardrop"),
            Some(Range::LineOfSight) => ids.extend(["range", "line-of-sight"]),
            Some(Range::CloseCombat) => ids.push("close-combat-weapon"),
            None => {}
        }
        if let Some(a) = p.attacks {
            ids.push(a.kind.glossary_id());
        }
        match p.to_hit {
            Some(ToHit::Roll(_)) => ids.push("to-hit"),
            Some(ToHit::Auto) => ids.extend(["to-hit", "auto-hit"]),
            None => {}
        }
        if p.tsm.is_some() {
            ids.push("tsm");
        }
        ids.extend(p.abilities.iter().map(|a| a.glossary_id()));
        ids
    }

    /// The profile in words, for `explain` and the crib sheet.
    pub fn describe(&self) -> String {
        let Some(p) = &self.profile else {
            return "profile not in the sources in this form; see the army book".into();
        };
        let mut out: Vec<String> = Vec::new();
        if let Some(n) = p.times {
            out.push(format!("fires {n} times"));
        }
        match p.range {
            Some(Range::LineOfSight) => out.push("any range in line of sight".into()),
            Some(Range::CloseCombat) => out.push("close combat only".into()),
            Some(Range::Cm(n)) => out.push(format!("range {n}cm")),
            Some(Range::Span(a, b)) => out.push(format!("range {a}cm to {b}cm")),
            Some(Range::LargeTeardrop) => out.push("large teardrop template".into()),
            Some(Range::SmallTeardrop) => out.push("small teardrop template".into()),
            None => {}
        }
        if let Some(a) = p.attacks {
            let n = a.count.map(|c| c.to_string());
            out.push(match (a.kind, n) {
                (AttackKind::Dice, Some(n)) => format!("{n} attack dice"),
                (AttackKind::Dice, None) => "attack dice".into(),
                (AttackKind::BarragePoints, n) => format!("{} barrage points", n.unwrap_or_default()),
                (AttackKind::StandardBarrage, n) => format!("{} standard barrage", n.unwrap_or_default()),
                (AttackKind::LargeBarrage, n) => format!("{} large barrage", n.unwrap_or_default()),
            });
        }
        match p.to_hit {
            Some(ToHit::Roll(h)) => out.push(format!("hits on {h}+")),
            Some(ToHit::Auto) => out.push("hits without a roll".into()),
            None => {}
        }
        match p.tsm {
            Some(Tsm::Zero) => out.push("no save modifier".into()),
            Some(Tsm::Minus(n)) => out.push(format!("target's save -{n}")),
            Some(Tsm::MinusDie(n)) => out.push(format!("target's save -D{n}")),
            None => {}
        }
        for a in &p.abilities {
            out.push(match a {
                WeaponAbility::Special => "and a rule of its army book".into(),
                WeaponAbility::Hits(c) => format!("each hit counts {c} times"),
                WeaponAbility::ShotsPerGame(n) => format!("{n} shots a game"),
                other => other.to_string(),
            });
        }
        out.join(", ").replace("  ", " ").trim().to_string()
    }
}

/// Special abilities with a figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counted {
    Transport,
    PointDefence,
    VoidShields,
}

impl Counted {
    pub fn as_str(self) -> &'static str {
        match self {
            Counted::Transport => "Transport",
            Counted::PointDefence => "Point Defence",
            Counted::VoidShields => "Void Shields",
        }
    }

    pub fn glossary_id(self) -> &'static str {
        match self {
            Counted::Transport => "transport",
            Counted::PointDefence => "point-defence",
            Counted::VoidShields => "void-shields",
        }
    }
}

/// Special abilities without a figure, canonical spelling and glossary id.
pub const NAMED: &[(&str, &str)] = &[
    ("Agile", "agile"),
    ("All-Around Armour", "all-around-armour"),
    ("Anti-Aircraft", "anti-aircraft"),
    ("Artificial Intelligence", "artificial-intelligence"),
    ("Cold Blooded", "cold-blooded"),
    ("Combat Engineer", "combat-engineer"),
    ("Combat Leader", "combat-leader"),
    ("Command", "command"),
    ("Daemonic", "daemonic"),
    ("Daemon Hunter", "daemon-hunter"),
    ("Deep Strike", "deep-strike"),
    ("Elite", "elite"),
    ("Fear", "fear"),
    ("Fearless", "fearless"),
    ("Fire on the Fly", "fire-on-the-fly"),
    ("Forward Observer", "forward-observer"),
    ("Hard to Hit", "hard-to-hit"),
    ("HQ", "hq"),
    ("Hit & Run", "hit-and-run"),
    ("Independent", "independent"),
    ("Infiltration", "infiltration"),
    ("Inorganic", "inorganic"),
    ("Inspirational", "inspirational"),
    ("Jump Packs", "jump-packs"),
    ("Medic", "medic"),
    ("Mechanic", "mechanic"),
    ("Open-Top Vehicle", "open-top-vehicle"),
    ("Psychic Save", "psychic-save"),
    ("Psyker", "psyker"),
    ("Quickdraw", "quickdraw"),
    ("Regeneration", "regeneration"),
    ("Robot", "robot"),
    ("Skimmer", "skimmer"),
    ("Sniper", "sniper"),
    ("Static Artillery", "static-artillery"),
    ("Stealth", "stealth"),
    ("Teleport", "teleport"),
    ("Terror", "terror"),
    ("Tunneler", "tunneler"),
];

/// A special ability of a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ability {
    Counted(Counted, u32),
    /// Index into `NAMED`.
    Named(usize),
}

impl fmt::Display for Ability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ability::Counted(k, n) => write!(f, "{} ({n})", k.as_str()),
            Ability::Named(i) => f.write_str(NAMED.get(*i).map_or("", |n| n.0)),
        }
    }
}

impl Ability {
    pub fn glossary_id(self) -> &'static str {
        match self {
            Ability::Counted(k, _) => k.glossary_id(),
            Ability::Named(i) => NAMED.get(i).map_or("", |n| n.1),
        }
    }
}

/// A NetEpic datasheet's values, parsed. `morale` is `None` where the
/// profile has no morale line (Tyranid creatures).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NeSheet {
    pub class: Stat<Classes>,
    pub moves: Stat<Move>,
    pub save: Stat<Save>,
    pub caf: Stat<Caf>,
    pub morale: Option<Stat<Morale>>,
    pub weapons: Vec<Weapon>,
    pub abilities: Vec<Ability>,
}

impl NeSheet {
    /// Every glossary entry its values use, in first-use order, without
    /// repeats.
    pub fn glossary_ids(&self) -> Vec<&'static str> {
        let mut ids: Vec<&'static str> = Vec::new();
        let mut add = |id: &'static str| {
            if !id.is_empty() && !ids.contains(&id) {
                ids.push(id);
            }
        };
        add("pinning-class");
        if let Some(c) = self.class.known() {
            c.0.iter().for_each(|c| add(c.glossary_id()));
        }
        add("move");
        if self.moves.known() == Some(&Move::None) {
            add("none");
        }
        match self.save.known() {
            Some(s) => s.glossary_ids().into_iter().for_each(&mut add),
            None => add("save"),
        }
        add("caf");
        if let Some(m) = &self.morale {
            add("morale");
            if m.known() == Some(&Morale::None) {
                add("none");
            }
        }
        for w in &self.weapons {
            w.glossary_ids().into_iter().for_each(&mut add);
        }
        for a in &self.abilities {
            add(a.glossary_id());
        }
        ids
    }
}

/// One part of a text given to `muster explain`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NeTerm {
    Save(Save),
    Caf(Caf),
    Move(Move),
    Morale(Morale),
    Weapon(Weapon),
    Ability(Ability),
    Class(Class),
}

impl fmt::Display for NeTerm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NeTerm::Save(x) => write!(f, "save {x}"),
            NeTerm::Caf(x) => write!(f, "CAF {x}"),
            NeTerm::Move(x) => write!(f, "move {x}"),
            NeTerm::Morale(x) => write!(f, "morale {x}"),
            NeTerm::Weapon(x) => x.fmt(f),
            NeTerm::Ability(x) => x.fmt(f),
            NeTerm::Class(x) => f.write_str(x.as_str()),
        }
    }
}

impl super::Explain for NeTerm {
    fn kind(&self) -> &'static str {
        match self {
            NeTerm::Save(_) => "armour save",
            NeTerm::Caf(_) => "close assault factor",
            NeTerm::Move(_) => "move",
            NeTerm::Morale(_) => "morale",
            NeTerm::Weapon(_) => "weapon",
            NeTerm::Ability(_) => "special ability",
            NeTerm::Class(_) => "unit class",
        }
    }

    fn describe(&self) -> Option<String> {
        match self {
            NeTerm::Save(s) => Some(s.describe()),
            NeTerm::Caf(Caf(n)) if *n < 0 => Some(format!("takes {} from its 2D6 in close combat", -n)),
            NeTerm::Caf(Caf(n)) => Some(format!("adds {n} to its 2D6 in close combat")),
            NeTerm::Move(Move::Cm(n)) => Some(format!("moves up to {n}cm")),
            NeTerm::Move(Move::None) => Some("does not move".into()),
            NeTerm::Morale(Morale::Roll(n)) => Some(format!("passes a morale test on {n}+")),
            NeTerm::Morale(Morale::None) => Some("has no morale value".into()),
            NeTerm::Weapon(w) => Some(w.describe()),
            NeTerm::Ability(Ability::Counted(Counted::Transport, n)) => {
                Some(format!("carries up to {n} infantry stands"))
            }
            NeTerm::Ability(Ability::Counted(Counted::PointDefence, n)) => {
                Some(format!("{n} point defence dice"))
            }
            NeTerm::Ability(Ability::Counted(Counted::VoidShields, n)) => Some(format!("{n} void shields")),
            NeTerm::Ability(Ability::Named(_)) => None,
            NeTerm::Class(c) => Some(match crate::games::netepic::pinning_class(c.as_str()) {
                Some(p) => format!("pinning class {p}"),
                None => "no pinning class in the table of Appendix A".into(),
            }),
        }
    }

    fn glossary_ids(&self) -> Vec<&'static str> {
        match self {
            NeTerm::Save(s) => s.glossary_ids(),
            NeTerm::Caf(_) => vec!["caf"],
            NeTerm::Move(Move::Cm(_)) => vec!["move"],
            NeTerm::Move(Move::None) => vec!["move", "none"],
            NeTerm::Morale(Morale::Roll(_)) => vec!["morale"],
            NeTerm::Morale(Morale::None) => vec!["morale", "none"],
            NeTerm::Weapon(w) => w.glossary_ids(),
            NeTerm::Ability(a) => vec![a.glossary_id()],
            NeTerm::Class(c) => vec![c.glossary_id(), "pinning-class"],
        }
    }
}

/// A term and where it is written in the explained text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NePart {
    pub term: NeTerm,
    pub span: Span,
}

/// Every glossary id the NetEpic notation can produce (the glossary must
/// have exactly these).
pub fn glossary_ids() -> Vec<&'static str> {
    let mut ids = vec![
        "pinning-class",
        "move",
        "none",
        "save",
        "fixed-save",
        "caf",
        "morale",
        "missing",
        "range",
        "minimum-range",
        "large-teardrop",
        "small-teardrop",
        "attack-dice",
        "barrage-points",
        "standard-barrage",
        "large-barrage",
        "to-hit",
        "tsm",
        "times",
        "line-of-sight",
        "close-combat-weapon",
        "auto-hit",
        "special-rule",
        "multiple-hits",
        "shots-per-game",
        "penetrating",
        "turret",
        "one-shot",
        "ignores-cover",
        "damages-buildings",
        "destroys-buildings",
        "transport",
        "point-defence",
        "void-shields",
    ];
    ids.extend(Class::ALL.iter().map(|c| c.glossary_id()));
    for (_, id) in NAMED {
        if !ids.contains(id) {
            ids.push(id);
        }
    }
    ids
}

// ============================================================ PARSING

pub fn parse_classes(text: &str) -> Result<Classes, NotationError> {
    value(Rule::class_value, text).map(classes)
}

pub fn parse_move(text: &str) -> Result<Move, NotationError> {
    value(Rule::move_value, text).map(move_)
}

pub fn parse_save(text: &str) -> Result<Save, NotationError> {
    value(Rule::save_value, text).map(save)
}

pub fn parse_caf(text: &str) -> Result<Caf, NotationError> {
    value(Rule::caf_value, text).map(caf)
}

pub fn parse_morale(text: &str) -> Result<Morale, NotationError> {
    value(Rule::morale_value, text).map(morale)
}

pub fn parse_weapon(text: &str) -> Result<Weapon, NotationError> {
    value(Rule::weapon_value, text).map(weapon)
}

pub fn parse_ability(text: &str) -> Result<Ability, NotationError> {
    value(Rule::ability_value, text).map(ability)
}

/// Comma-separated NetEpic notation of any kind, as `muster explain`
/// takes it.
pub fn parse_terms(text: &str) -> Result<Vec<NePart>, NotationError> {
    let parts = super::pest_glue::terms::<NetEpicParser, Rule, _>(&GRAMMAR, Rule::term, text, term)?;
    Ok(parts
        .into_iter()
        .map(|(term, span)| NePart { term, span })
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
    super::pest_glue::value::<NetEpicParser, Rule>(&GRAMMAR, rule, text)
}

/// Spellings to suggest for an ability or class that does not parse.
fn suggest(entry: Rule, text: &str) -> Option<String> {
    let word = text.trim();
    if word.chars().count() < 4 {
        return None;
    }
    let candidates: Vec<&str> = match entry {
        Rule::ability_value | Rule::terms => NAMED
            .iter()
            .map(|n| n.0)
            .chain(["Transport", "Point Defence", "Void Shields"])
            .chain(Class::ALL.iter().map(|c| c.as_str()))
            .collect(),
        Rule::class_value => Class::ALL.iter().map(|c| c.as_str()).collect(),
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
        Rule::number => "a number",
        Rule::boundary => "the end of a word",
        Rule::none => "- (none)",
        Rule::class_value | Rule::classes | Rule::class => "a unit class such as Infantry, Vehicle or Titan",
        Rule::move_value | Rule::move_ | Rule::cm | Rule::labelled_move => "a move such as 10cm, or -",
        Rule::roll => "a roll such as 5+",
        Rule::save_value | Rule::save | Rule::armour_save | Rule::fixed_save | Rule::labelled_save => {
            "a save such as 5+, 6+ fixed, 4+ / 6+ fixed or -"
        }
        Rule::caf_value | Rule::caf | Rule::labelled_caf => "a close assault factor such as +2 or -1",
        Rule::morale_value | Rule::morale | Rule::labelled_morale => "a morale value such as 2+, or -",
        Rule::weapon_value | Rule::weapon | Rule::weapon_name => {
            "a weapon such as `Lascannons: 75cm 2d 5+ (-2)`"
        }
        Rule::missing => "missing",
        Rule::profile => "a weapon profile such as 50cm 1d 5+ (0)",
        Rule::range | Rule::span_cm | Rule::teardrop | Rule::line_of_sight | Rule::close_combat => {
            "a range such as 50cm, 50-150cm, LT, ST, LoS or CC"
        }
        Rule::times => "a multiplier such as 2x",
        Rule::to_hit | Rule::auto_hit => "a to-hit roll such as 5+, or auto",
        Rule::attacks
        | Rule::count
        | Rule::dice_plus
        | Rule::dice_count
        | Rule::span_count
        | Rule::attack_kind => "attacks such as 2d, D6d, 6BP, D6+3BP, 2SB or 8LB",
        Rule::tsm | Rule::tsm_zero | Rule::tsm_minus | Rule::tsm_dice => {
            "a target save modifier such as (0), (-2) or (-D6)"
        }
        Rule::weapon_abilities
        | Rule::weapon_ability
        | Rule::penetrating
        | Rule::turret
        | Rule::one_shot
        | Rule::ignores_cover
        | Rule::damages_buildings
        | Rule::destroys_buildings
        | Rule::anti_aircraft
        | Rule::special
        | Rule::hits
        | Rule::per_game => "a weapon ability such as Turret, One Shot, Penetrating +1 or Special",
        Rule::ability_value | Rule::ability | Rule::counted | Rule::counted_kind | Rule::named_ability => {
            "a special ability such as Command, Elite or Transport (2)"
        }
        Rule::terms | Rule::term => "NetEpic notation",
    }
}

fn number(pair: Pair<'_, Rule>) -> u32 {
    // At most three digits, so this always fits.
    pair.as_str().trim().parse().unwrap_or(0)
}

/// The number inside a pair (`5+`, `D6`, `-2`).
fn first_number(pair: Pair<'_, Rule>) -> u32 {
    pair.into_inner()
        .find(|p| p.as_rule() == Rule::number)
        .map_or(0, number)
}

fn numbers(pair: Pair<'_, Rule>) -> Vec<u32> {
    pair.into_inner()
        .filter(|p| p.as_rule() == Rule::number)
        .map(number)
        .collect()
}

fn class(pair: Pair<'_, Rule>) -> Class {
    let text = pair.as_str().trim();
    Class::ALL
        .iter()
        .copied()
        .find(|c| c.as_str().eq_ignore_ascii_case(text))
        .unwrap_or(Class::Infantry)
}

fn classes(pair: Pair<'_, Rule>) -> Classes {
    Classes(pair.into_inner().map(class).collect())
}

fn move_(pair: Pair<'_, Rule>) -> Move {
    match pair.into_inner().next() {
        Some(p) if p.as_rule() == Rule::cm => Move::Cm(first_number(p)),
        _ => Move::None,
    }
}

fn save(pair: Pair<'_, Rule>) -> Save {
    let parts: Vec<Pair<'_, Rule>> = pair.into_inner().collect();
    let roll_of = |p: &Pair<'_, Rule>| p.clone().into_inner().next().map_or(0, first_number);
    match parts.as_slice() {
        [a, f] => Save::Both {
            armour: roll_of(a),
            fixed: roll_of(f),
        },
        [p] if p.as_rule() == Rule::fixed_save => Save::Fixed(roll_of(p)),
        [p] if p.as_rule() == Rule::armour_save => Save::Armour(roll_of(p)),
        _ => Save::None,
    }
}

fn caf(pair: Pair<'_, Rule>) -> Caf {
    let text = pair.as_str().trim();
    let n = i32::try_from(first_number(pair)).unwrap_or(0);
    Caf(if text.starts_with('-') { -n } else { n })
}

fn morale(pair: Pair<'_, Rule>) -> Morale {
    match pair.into_inner().next() {
        Some(p) if p.as_rule() == Rule::roll => Morale::Roll(first_number(p)),
        _ => Morale::None,
    }
}

fn weapon(pair: Pair<'_, Rule>) -> Weapon {
    let mut name = String::new();
    let mut profile = None;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::weapon_name => name = p.as_str().trim().to_string(),
            Rule::profile => profile = Some(weapon_profile(p)),
            _ => {}
        }
    }
    Weapon { name, profile }
}

fn weapon_profile(pair: Pair<'_, Rule>) -> Profile {
    let mut profile = Profile {
        times: None,
        range: None,
        attacks: None,
        to_hit: None,
        tsm: None,
        abilities: Vec::new(),
    };
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::times => profile.times = Some(first_number(p)),
            Rule::range => profile.range = p.into_inner().next().map(range),
            Rule::attacks => profile.attacks = Some(attacks(p)),
            Rule::to_hit => {
                profile.to_hit = p.into_inner().next().map(|h| match h.as_rule() {
                    Rule::roll => ToHit::Roll(first_number(h)),
                    _ => ToHit::Auto,
                })
            }
            Rule::tsm => profile.tsm = Some(tsm(p)),
            Rule::weapon_abilities => profile.abilities.extend(
                p.into_inner()
                    .filter_map(|a| a.into_inner().next())
                    .map(weapon_ability),
            ),
            // `special` standing for the TSM, then abilities after it.
            Rule::special => profile.abilities.push(WeaponAbility::Special),
            Rule::weapon_ability => profile
                .abilities
                .extend(p.into_inner().next().map(weapon_ability)),
            _ => {}
        }
    }
    profile
}

fn range(pair: Pair<'_, Rule>) -> Range {
    match pair.as_rule() {
        Rule::span_cm => {
            let n = numbers(pair);
            Range::Span(n.first().copied().unwrap_or(0), n.get(1).copied().unwrap_or(0))
        }
        Rule::teardrop if pair.as_str().starts_with('S') => Range::SmallTeardrop,
        Rule::teardrop => Range::LargeTeardrop,
        Rule::line_of_sight => Range::LineOfSight,
        Rule::close_combat => Range::CloseCombat,
        _ => Range::Cm(first_number(pair)),
    }
}

fn attacks(pair: Pair<'_, Rule>) -> Attacks {
    let mut out = Attacks {
        count: None,
        kind: AttackKind::Dice,
    };
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::count => out.count = p.into_inner().next().map(count),
            Rule::attack_kind => {
                out.kind = match p.as_str() {
                    "BP" => AttackKind::BarragePoints,
                    "SB" => AttackKind::StandardBarrage,
                    "LB" => AttackKind::LargeBarrage,
                    _ => AttackKind::Dice,
                }
            }
            _ => {}
        }
    }
    out
}

fn count(c: Pair<'_, Rule>) -> Count {
    match c.as_rule() {
        Rule::dice_count => Count::Die(first_number(c)),
        Rule::dice_plus => {
            let n = numbers(c);
            Count::DiePlus(n.first().copied().unwrap_or(0), n.get(1).copied().unwrap_or(0))
        }
        Rule::span_count => {
            let n = numbers(c);
            Count::Span(n.first().copied().unwrap_or(0), n.get(1).copied().unwrap_or(0))
        }
        _ => Count::Fixed(number(c)),
    }
}

fn tsm(pair: Pair<'_, Rule>) -> Tsm {
    match pair.into_inner().next() {
        Some(p) if p.as_rule() == Rule::tsm_minus => Tsm::Minus(first_number(p)),
        Some(p) if p.as_rule() == Rule::tsm_dice => Tsm::MinusDie(first_number(p)),
        _ => Tsm::Zero,
    }
}

fn weapon_ability(pair: Pair<'_, Rule>) -> WeaponAbility {
    match pair.as_rule() {
        Rule::penetrating => WeaponAbility::Penetrating(first_number(pair)),
        Rule::turret => WeaponAbility::Turret,
        Rule::one_shot => WeaponAbility::OneShot,
        Rule::ignores_cover => WeaponAbility::IgnoresCover,
        Rule::damages_buildings => WeaponAbility::DamagesBuildings,
        Rule::destroys_buildings => WeaponAbility::DestroysBuildings,
        Rule::special => WeaponAbility::Special,
        Rule::hits => WeaponAbility::Hits(pair.into_inner().next().map_or(Count::Fixed(0), count)),
        Rule::per_game => WeaponAbility::ShotsPerGame(first_number(pair)),
        _ => WeaponAbility::AntiAircraft,
    }
}

fn ability(pair: Pair<'_, Rule>) -> Ability {
    let Some(inner) = pair.into_inner().next() else {
        return Ability::Named(0);
    };
    match inner.as_rule() {
        Rule::counted => {
            let mut kind = Counted::Transport;
            let mut n = 0;
            for p in inner.into_inner() {
                match p.as_rule() {
                    Rule::counted_kind => {
                        let k = p.as_str().to_ascii_lowercase();
                        kind = if k.starts_with("point") {
                            Counted::PointDefence
                        } else if k.starts_with("void") {
                            Counted::VoidShields
                        } else {
                            Counted::Transport
                        };
                    }
                    Rule::number => n = number(p),
                    _ => {}
                }
            }
            Ability::Counted(kind, n)
        }
        _ => {
            let text = inner.as_str().trim();
            Ability::Named(
                NAMED
                    .iter()
                    .position(|(name, _)| name.eq_ignore_ascii_case(text))
                    .unwrap_or(0),
            )
        }
    }
}

fn first(pair: Pair<'_, Rule>) -> Option<Pair<'_, Rule>> {
    pair.into_inner().next()
}

fn term(pair: Pair<'_, Rule>) -> NeTerm {
    let Some(inner) = pair.into_inner().next() else {
        return NeTerm::Move(Move::None);
    };
    match inner.as_rule() {
        Rule::labelled_save => first(inner).map_or(NeTerm::Save(Save::None), |p| NeTerm::Save(save(p))),
        Rule::labelled_caf => first(inner).map_or(NeTerm::Caf(Caf(0)), |p| NeTerm::Caf(caf(p))),
        Rule::labelled_move => first(inner).map_or(NeTerm::Move(Move::None), |p| NeTerm::Move(move_(p))),
        Rule::labelled_morale => {
            first(inner).map_or(NeTerm::Morale(Morale::None), |p| NeTerm::Morale(morale(p)))
        }
        Rule::weapon => NeTerm::Weapon(weapon(inner)),
        Rule::ability => NeTerm::Ability(ability(inner)),
        _ => NeTerm::Class(class(inner)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_reads_and_prints_back() {
        for text in ["10cm", "-"] {
            assert_eq!(parse_move(text).map(|m| m.to_string()).as_deref(), Ok(text));
        }
        for text in ["5+", "6+ fixed", "4+ / 6+ fixed", "-"] {
            assert_eq!(parse_save(text).map(|m| m.to_string()).as_deref(), Ok(text));
        }
        for text in ["+2", "-3", "+0"] {
            assert_eq!(parse_caf(text).map(|m| m.to_string()).as_deref(), Ok(text));
        }
        for text in [
            "Bolters: 50cm 1d 5+ (0)",
            "Earthshaker Cannon: 150cm 2SB (-2)",
            "Flamer: LT 4+ (0)",
            "Siege Mortar: 50-150cm 6BP 4+ (-3)",
            "Talos Stinger: 50cm D6d 5+ (-1)",
            "Kustom Kannon: 75cm 2-10d 5+ (-2)",
            "Conversion Cannon: 75cm 2d 4+ (-D6) Turret",
            "Hellion Missile: 75cm 2d 3+ (-4) One Shot, Penetrating +2",
            "Heavy Weapons: 2d 5+ (-1)",
            "Kustom Shootas: missing",
            "Ancient Plague Cannon: 2x 8BP 3+ (-1)",
            "Doom Mortars: 2x 75cm 4SB 5+ (-1)",
            "Goliath Mega-Cannon: 50-250cm D6+4BP (-3)",
            "Heavy Flamer: 5cm 1d auto (0)",
            "Harpoon Missile: LoS auto (-2)",
            "Lightning Claw: CC Special",
            "Vortex Missile: LoS Special",
            "Trident: 25cm 1d 3+ Special",
            "Sonic Disruptor: LT 2+ Special",
            "Plague Catapult: 75cm 2SB (0) Special",
            "Pulse Laser: 75cm 1d 3+ (-2) D3 Hits, Damages Buildings",
            "Hunter-Killer Missiles: 50cm 1d 4+ (-2) 2 Shots per Game",
            "Spore Pod: 25cm (-1) Special",
        ] {
            assert_eq!(parse_weapon(text).map(|m| m.to_string()).as_deref(), Ok(text));
        }
        for text in [
            "Command",
            "Transport (2)",
            "Point Defence (4)",
            "Hit & Run",
            "Fearless",
            "Fear",
        ] {
            assert_eq!(parse_ability(text).map(|m| m.to_string()).as_deref(), Ok(text));
        }
        assert_eq!(
            parse_classes("Superheavy, Vehicle").map(|c| c.pinning_class()),
            Ok(Some(4))
        );
        assert_eq!(parse_classes("Flyer").map(|c| c.pinning_class()), Ok(None));
    }

    #[test]
    fn bad_values_say_where() {
        let e = parse_save("5+ fixd").unwrap_err();
        assert_eq!(e.column, 4);
        assert!(parse_caf("2").is_err());
        assert!(parse_weapon("Bolters: 50cm 1d 5+").is_err());
        // `Special` stands for a TSM only as the first word after the rest.
        assert!(parse_weapon("Bolters: 50cm 1d 5+ Turret, Special").is_err());
        assert!(parse_weapon("Bolters: 2x").is_err());
        let e = parse_ability("Comand").unwrap_err();
        assert_eq!(e.suggestion.as_deref(), Some("Command"));
    }

    #[test]
    fn terms_read_every_kind() {
        let parts = parse_terms("save 4+ / 6+ fixed, CAF +3, Bolters: 50cm 1d 5+ (0), Elite, Titan").unwrap();
        let shown: Vec<String> = parts.iter().map(|p| p.term.to_string()).collect();
        assert_eq!(
            shown,
            [
                "save 4+ / 6+ fixed",
                "CAF +3",
                "Bolters: 50cm 1d 5+ (0)",
                "Elite",
                "Titan"
            ]
        );
    }
}
