//! What a roster tells a player at the table (NetEA tournament rules 6.1):
//! the army's strategy rating, each formation's initiative, the formations
//! the opponent's Break Their Spirit goal targets, which formations may be
//! set up as garrisons or kept in reserve, and each formation's strength and
//! victory-point values for the tiebreak.
//!
//! Derived from the resolved army and the datasheets; never a source of
//! diagnostics. Where a datasheet value is missing, the answer says so.

use crate::catalogue::{Catalogue, Datasheet, UnitType};
use crate::resolve::{Army, ArmyFormation};
use std::borrow::Cow;

/// A yes/no answer with its reason (most reasons are fixed words, kept
/// without a copy).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Yes(Cow<'static, str>),
    /// Yes, on a condition muster does not check.
    If(Cow<'static, str>),
    No(Cow<'static, str>),
    /// The sources lack a value the answer needs.
    Unknown(Cow<'static, str>),
}

impl Verdict {
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Yes(_) => "yes",
            Verdict::If(_) => "if",
            Verdict::No(_) => "no",
            Verdict::Unknown(_) => "unknown",
        }
    }

    pub fn reason(&self) -> &str {
        match self {
            Verdict::Yes(r) | Verdict::If(r) | Verdict::No(r) | Verdict::Unknown(r) => r,
        }
    }
}

#[derive(Debug, Clone)]
pub struct FormationFacts {
    pub initiative: Option<String>,
    pub garrison: Verdict,
    pub reserve: Verdict,
    /// Units, with war engines counted by damage capacity; `None` when a
    /// war engine's damage capacity is not known.
    pub strength: Option<i64>,
    /// Victory points to the opponent if destroyed (or broken at half
    /// strength), and half of that, rounded up.
    pub vp_full: i64,
    pub vp_half: i64,
    /// A target of the opponent's Break Their Spirit goal.
    pub break_their_spirit: bool,
}

#[derive(Debug, Clone)]
pub struct ArmyFacts {
    pub strategy_rating: Option<u8>,
    pub formations: Vec<FormationFacts>,
}

struct Unit<'a> {
    sheet: &'a Datasheet,
    count: i64,
}

fn units<'a>(army: &Army<'_>, f: &ArmyFormation, catalogue: &'a Catalogue) -> Result<Vec<Unit<'a>>, String> {
    let mut out = Vec::new();
    for (i, &count) in f.units.iter().enumerate() {
        if count <= 0 {
            continue;
        }
        let id = &army.list.units[i];
        let sheet = catalogue
            .datasheet(army.list.game, id)
            .ok_or_else(|| format!("no datasheet for `{id}`"))?;
        // Characters join a unit; they are not units themselves.
        if sheet.unit_type != UnitType::Character {
            out.push(Unit { sheet, count });
        }
    }
    Ok(out)
}

/// Speed in cm: `Some(0)` for immobile units, `None` for aircraft speeds
/// (`Fighter`, `Bomber`) and values the sources lack.
fn speed(sheet: &Datasheet) -> Option<i64> {
    // Case aside without a lower-case copy: the words sought are ASCII, and
    // only ASCII letters lower to them (the Kelvin sign lowers to `k`,
    // which none of them has), and a number's digits have no case.
    let text = sheet.speed.as_deref()?.trim();
    if text.eq_ignore_ascii_case("immobile") {
        return Some(0);
    }
    strip_suffix_ignore_case(text, "cm")?.trim().parse().ok()
}

fn has_note(sheet: &Datasheet, note: &str) -> bool {
    sheet.notes.iter().any(|n| n.eq_ignore_ascii_case(note))
}

fn damage_capacity(sheet: &Datasheet) -> Option<i64> {
    // As `speed`: case aside, without a copy.
    sheet.notes.iter().find_map(|n| {
        strip_prefix_ignore_case(n, "damage capacity ")?
            .trim()
            .parse()
            .ok()
    })
}

/// `text` without its prefix `prefix` (ASCII), case aside.
fn strip_prefix_ignore_case<'t>(text: &'t str, prefix: &str) -> Option<&'t str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix).then(|| &text[prefix.len()..])
}

/// `text` without its suffix `suffix` (ASCII), case aside.
fn strip_suffix_ignore_case<'t>(text: &'t str, suffix: &str) -> Option<&'t str> {
    let at = text.len().checked_sub(suffix.len())?;
    let tail = text.get(at..)?;
    tail.eq_ignore_ascii_case(suffix).then(|| &text[..at])
}

fn is_aircraft(t: UnitType) -> bool {
    matches!(t, UnitType::Aircraft | UnitType::AircraftWarEngine)
}

/// A list's own limit on garrisons (`garrison_units`), before the
/// tournament rules: `None` when the list has none or the formation is made
/// of the units it allows.
fn listed_garrison(army: &Army<'_>, units: &[Unit<'_>]) -> Option<Verdict> {
    let (allowed, rule) = army.list.garrison_units.as_ref()?;
    let outsider = units.iter().find(|u| !allowed.contains(&u.sheet.id));
    match (outsider, units.is_empty()) {
        (Some(u), _) => Some(Verdict::No(format!("{rule} ({} may not)", u.sheet.name).into())),
        (None, true) => Some(Verdict::No(rule.clone().into())),
        (None, false) => None,
    }
}

fn garrison(units: &[Unit<'_>]) -> Verdict {
    if units.is_empty() {
        return Verdict::Unknown("the formation has no units with datasheets".into());
    }
    if units
        .iter()
        .any(|u| is_aircraft(u.sheet.unit_type) || u.sheet.unit_type == UnitType::Spacecraft)
    {
        return Verdict::No("aircraft and spacecraft are never set up on the table".into());
    }
    let total: i64 = units.iter().map(|u| u.count).sum();
    let scouts: i64 = units
        .iter()
        .filter(|u| has_note(u.sheet, "Scout"))
        .map(|u| u.count)
        .sum();
    if scouts * 2 >= total {
        return Verdict::Yes("half or more of its units are scouts".into());
    }
    // Each unit's speed read once: whether one is 0, the first one the
    // sources lack, and how many units are fast.
    let mut immobile = false;
    let mut unknown = None;
    let mut fast: i64 = 0;
    for u in units {
        match speed(u.sheet) {
            Some(0) => immobile = true,
            Some(s) if s > 15 => fast += u.count,
            Some(_) => {}
            None => unknown = unknown.or(Some(u)),
        }
    }
    if immobile {
        return Verdict::Yes("it includes a unit of speed 0".into());
    }
    if let Some(u) = unknown {
        return Verdict::Unknown(format!("the speed of {} is not in the sources", u.sheet.name).into());
    }
    let war_engines = units.iter().any(|u| u.sheet.unit_type == UnitType::WarEngine);
    match (fast <= 1, war_engines) {
        (true, false) => {
            Verdict::Yes("no more than one unit moves faster than 15cm, and none is a war engine".into())
        }
        (_, true) => Verdict::No("it includes a war engine".into()),
        (false, false) => Verdict::No(format!("{fast} of its units move faster than 15cm").into()),
    }
}

fn reserve(army: &Army<'_>, f: &ArmyFormation, units: &[Unit<'_>], transports: bool) -> Verdict {
    if units.is_empty() {
        return Verdict::Unknown("the formation has no units with datasheets".into());
    }
    if units.iter().all(|u| is_aircraft(u.sheet.unit_type)) {
        return Verdict::Yes("aircraft".into());
    }
    if units.iter().any(|u| u.sheet.unit_type == UnitType::Spacecraft) {
        return Verdict::No("spacecraft are set up before the battle, not kept in reserve".into());
    }
    if units.iter().all(|u| has_note(u.sheet, "Teleport")) {
        return Verdict::Yes("every unit can teleport".into());
    }
    let planetfall = f
        .upgrades
        .iter()
        .any(|t| army.list.upgrades[t.upgrade].tags.contains("planetfall"));
    if planetfall {
        return Verdict::Yes("it arrives by planetfall".into());
    }
    if transports && !units.iter().any(|u| u.sheet.unit_type == UnitType::WarEngine) {
        return Verdict::If("if the army's transport aircraft carry it (capacity is not checked)".into());
    }
    Verdict::No("it is neither aircraft nor able to arrive by air, planetfall or teleport".into())
}

fn strength(units: &[Unit<'_>]) -> Option<i64> {
    units
        .iter()
        .map(|u| {
            if matches!(
                u.sheet.unit_type,
                UnitType::WarEngine | UnitType::AircraftWarEngine
            ) {
                damage_capacity(u.sheet).map(|dc| dc * u.count)
            } else {
                Some(u.count)
            }
        })
        .sum()
}

/// Facts not worked out, for a result whose outputs print none: no
/// strategy rating, and each formation's verdicts unknown with no reason.
pub fn blank(army: &Army<'_>) -> ArmyFacts {
    let none = || FormationFacts {
        initiative: None,
        garrison: Verdict::Unknown(Cow::Borrowed("")),
        reserve: Verdict::Unknown(Cow::Borrowed("")),
        strength: None,
        vp_full: 0,
        vp_half: 0,
        break_their_spirit: false,
    };
    ArmyFacts {
        strategy_rating: None,
        formations: army.formations.iter().map(|_| none()).collect(),
    }
}

/// Works out the facts of a resolved army.
pub fn derive(army: &Army<'_>, catalogue: &Catalogue) -> ArmyFacts {
    // Break Their Spirit is an Epic Armageddon victory condition; other
    // games have no such target.
    let most = army
        .formations
        .iter()
        .map(|f| f.points)
        .max()
        .filter(|_| army.list.game.game().epic_facts);
    let epic = army.list.game.game().epic_facts;
    let all_units: Vec<Result<Vec<Unit<'_>>, String>> = army
        .formations
        .iter()
        .map(|f| {
            if epic {
                units(army, f, catalogue)
            } else {
                Ok(Vec::new())
            }
        })
        .collect();
    let transports = all_units.iter().flatten().flatten().any(|u| {
        is_aircraft(u.sheet.unit_type)
            && u.sheet
                .notes
                .iter()
                .any(|n| strip_prefix_ignore_case(n, "transport").is_some())
    });
    let formations = army
        .formations
        .iter()
        .zip(&all_units)
        .map(|(f, units)| {
            let (garrison, reserve, strength) = match units {
                _ if !epic => {
                    let na = || Verdict::Unknown("an Epic Armageddon rule; this game has none".into());
                    (na(), na(), None)
                }
                Ok(units) => (
                    listed_garrison(army, units).unwrap_or_else(|| garrison(units)),
                    reserve(army, f, units, transports),
                    strength(units),
                ),
                Err(e) => (
                    Verdict::Unknown(e.clone().into()),
                    Verdict::Unknown(e.clone().into()),
                    None,
                ),
            };
            FormationFacts {
                initiative: crate::resolve::initiative_of(army.list, f),
                garrison,
                reserve,
                strength,
                vp_full: f.points,
                // The pack rounds fractions up unless a rule says otherwise.
                vp_half: (f.points + 1).div_euclid(2),
                break_their_spirit: Some(f.points) == most,
            }
        })
        .collect();
    ArmyFacts {
        strategy_rating: army.list.strategy_rating,
        formations,
    }
}
