//! The 'Counts As' rule (NetEA tournament pack 6.2.1): declarations like
//! `Counts as: Squigoth = Battlewagon` are part of the roster and are
//! checked: the target must be in the list (checked in `resolve`), a model
//! with its own entry may not stand in for anything else, one model may not
//! count as two things, a target the roster does not use is suspicious, and
//! a model whose unit type differs from the target's is worth a warning.

use crate::catalogue::names::{Lookup, normalize};
use crate::catalogue::{ArmyList, Catalogue, UnitIdx, UnitType};
use crate::diagnostic::{Code, Diagnostic};
use crate::resolve::{Army, Declaration};
use crate::roster::Roster;

const RULE: &str = "counts-as";
const PROVENANCE: &str = "NetEA tournament rules 6.2.1: the 'Counts As' rule";

/// Checks every declaration of a roster. `allowed` is false when the event
/// forbids 'Counts As'.
pub fn check(roster: &Roster, army: &Army<'_>, catalogue: &Catalogue, allowed: bool) -> Vec<Diagnostic> {
    let file = &roster.file;
    let list = army.list;
    let mut out = Vec::new();
    for (i, d) in army.counts_as.iter().enumerate() {
        if !allowed {
            out.push(
                Diagnostic::error(
                    Code::EventRule,
                    "this event does not allow 'Counts As' declarations",
                )
                .at(file, d.model.span.to(d.target.span))
                .rule("counts-as-allowed", "the event file: counts_as: false"),
            );
            continue;
        }
        let target_units = target_units(list, catalogue, d);

        if let Some(own) = own_entry(list, catalogue, &d.model.value) {
            let same = own_is_target(list, &own, d, &target_units);
            if !same {
                out.push(
                    Diagnostic::error(
                        Code::CountsAs,
                        format!(
                            "`{}` has its own entry in {} ({}), so it must be used as itself, not as `{}`",
                            d.model.value,
                            list.name,
                            own.describe(),
                            d.target.value
                        ),
                    )
                    .at(file, d.model.span)
                    .rule(RULE, PROVENANCE)
                    .hint("'Counts As' is for models the list does not cover, such as models no longer made"),
                );
                continue;
            }
        }

        let model = normalize(&d.model.value);
        if let Some(first) = army.counts_as[..i]
            .iter()
            .find(|earlier| normalize(&earlier.model.value) == model)
        {
            if normalize(&first.target.value) != normalize(&d.target.value) {
                out.push(
                    Diagnostic::error(
                        Code::CountsAs,
                        format!(
                            "every `{}` must count as the same entry: it is already declared as `{}`",
                            d.model.value, first.target.value
                        ),
                    )
                    .at(file, d.target.span)
                    .also(file, first.target.span, "first declared here")
                    .rule(RULE, PROVENANCE),
                );
            }
            continue;
        }

        let resolved = d.formation.is_some() || d.upgrade.is_some() || !target_units.is_empty();
        if resolved && !used(army, d, &target_units) {
            out.push(
                Diagnostic::warning(
                    Code::CountsAsUnused,
                    format!(
                        "the roster declares `{}` but takes no `{}`",
                        d.model.value, d.target.value
                    ),
                )
                .at(file, d.target.span)
                .rule(RULE, PROVENANCE)
                .hint("remove the declaration, or add what the models stand in for"),
            );
        }

        if let Some(model_type) = model_type(catalogue, list, &d.model.value) {
            let types: Vec<UnitType> = target_units
                .iter()
                .filter_map(|&u| catalogue.datasheet(list.game, &list.units[u]))
                .map(|sheet| sheet.unit_type)
                .filter(|t| *t != UnitType::Character)
                .collect();
            if !types.is_empty() && !types.iter().any(|t| class(*t) == class(model_type)) {
                out.push(
                    Diagnostic::warning(
                        Code::CountsAsType,
                        format!(
                            "`{}` is {} but `{}` is {}: a model should count as something of roughly the same size and function",
                            d.model.value,
                            type_name(model_type),
                            d.target.value,
                            type_name(types[0])
                        ),
                    )
                    .at(file, d.model.span.to(d.target.span))
                    .rule(RULE, PROVENANCE),
                );
            }
        }
    }
    out
}

/// What a model name already is in the list.
enum Own {
    Formation(usize),
    Upgrade(usize),
    Unit(UnitIdx),
}

impl Own {
    fn describe(&self) -> &'static str {
        match self {
            Own::Formation(_) => "a formation",
            Own::Upgrade(_) => "an upgrade",
            Own::Unit(_) => "a unit",
        }
    }
}

fn own_entry(list: &ArmyList, catalogue: &Catalogue, model: &str) -> Option<Own> {
    if let Lookup::Found(f) = list.formation_names.lookup(model) {
        return Some(Own::Formation(f));
    }
    if let Lookup::Found(u) = list.upgrade_names.lookup(model) {
        return Some(Own::Upgrade(u));
    }
    unit_by_name(list, catalogue, model).map(Own::Unit)
}

fn own_is_target(list: &ArmyList, own: &Own, d: &Declaration, target_units: &[UnitIdx]) -> bool {
    match own {
        Own::Formation(f) => d.formation == Some(*f),
        Own::Upgrade(u) => d.upgrade == Some(*u),
        Own::Unit(u) => target_units == [*u] && list.units.get(*u).is_some(),
    }
}

/// A unit of the list whose datasheet name or alias is `name`.
fn unit_by_name(list: &ArmyList, catalogue: &Catalogue, name: &str) -> Option<UnitIdx> {
    let wanted = normalize(name);
    let singular = wanted.strip_suffix('s').map(str::to_string);
    list.units.iter().position(|id| {
        catalogue.datasheet(list.game, id).is_some_and(|sheet| {
            std::iter::once(&sheet.name).chain(&sheet.aliases).any(|n| {
                let n = normalize(n);
                n == wanted || Some(&n) == singular.as_ref()
            })
        })
    })
}

/// The units a declaration's target stands for.
fn target_units(list: &ArmyList, catalogue: &Catalogue, d: &Declaration) -> Vec<UnitIdx> {
    if let Some(u) = d.upgrade {
        return list.upgrades[u].adds.iter().map(|&(unit, _)| unit).collect();
    }
    if let Some(f) = d.formation {
        return list.formations[f].units.iter().map(|&(unit, _)| unit).collect();
    }
    unit_by_name(list, catalogue, &d.target.value)
        .into_iter()
        .collect()
}

fn used(army: &Army<'_>, d: &Declaration, target_units: &[UnitIdx]) -> bool {
    army.formations.iter().any(|f| {
        d.formation == Some(f.formation)
            || d.upgrade
                .is_some_and(|u| f.upgrades.iter().any(|t| t.upgrade == u))
            || target_units
                .iter()
                .any(|&u| f.units.get(u).is_some_and(|&n| n > 0))
    })
}

fn model_type(catalogue: &Catalogue, list: &ArmyList, model: &str) -> Option<UnitType> {
    let wanted = normalize(model);
    catalogue
        .models
        .iter()
        .filter(|m| m.game == list.game)
        .find(|m| {
            std::iter::once(&m.name)
                .chain(&m.aliases)
                .any(|n| normalize(n) == wanted)
        })
        .map(|m| m.unit_type)
}

/// Broad classes of unit: a light vehicle may stand in for an armoured one
/// (the pack's own Squigoth-as-Battlewagon example), infantry for a war
/// engine may not.
fn class(t: UnitType) -> u8 {
    match t {
        UnitType::Infantry => 0,
        UnitType::LightVehicle | UnitType::ArmouredVehicle => 1,
        UnitType::WarEngine => 2,
        UnitType::Aircraft | UnitType::AircraftWarEngine => 3,
        UnitType::Spacecraft => 4,
        UnitType::Character => 5,
    }
}

fn type_name(t: UnitType) -> &'static str {
    match t {
        UnitType::Infantry => "infantry",
        UnitType::LightVehicle => "a light vehicle",
        UnitType::ArmouredVehicle => "an armoured vehicle",
        UnitType::WarEngine => "a war engine",
        UnitType::Aircraft => "an aircraft",
        UnitType::AircraftWarEngine => "an aircraft war engine",
        UnitType::Spacecraft => "a spacecraft",
        UnitType::Character => "a character",
    }
}
