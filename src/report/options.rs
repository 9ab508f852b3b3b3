//! What a list offers, for `muster options` (text and JSON) and the starter
//! roster of `muster new`.

use crate::catalogue::{ArmyList, Catalogue, Cost, Scope};
use crate::diagnostic::plain_source;
use crate::games::Rating;
use serde::Serialize;
use std::fmt::Write as _;

#[derive(Serialize)]
pub struct OptionsView<'a> {
    game: &'a str,
    id: &'a str,
    name: &'a str,
    version: &'a str,
    version_label: Option<&'a str>,
    /// Epic's strategy rating; null where the sources do not give it, absent
    /// in games without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    strategy_rating: Option<Option<u8>>,
    /// A fleet's attack rating; null where the sources do not give it,
    /// absent in games without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    attack_rating: Option<Option<u8>>,
    sections: Vec<SectionView<'a>>,
    upgrades: Vec<UpgradeView<'a>>,
    rules: Vec<RuleView<'a>>,
    not_enforced: Vec<NotEnforcedView<'a>>,
    special_rules: Vec<SpecialRuleView<'a>>,
}

#[derive(Serialize)]
struct SectionView<'a> {
    name: &'a str,
    formations: Vec<FormationView<'a>>,
}

#[derive(Serialize)]
struct FormationView<'a> {
    id: &'a str,
    name: &'a str,
    aliases: &'a [String],
    points: Option<i32>,
    initiative: Option<&'a str>,
    units: Vec<UnitView>,
    upgrades: Vec<&'a str>,
    tags: Vec<&'a str>,
    note: Option<&'a str>,
}

#[derive(Serialize)]
struct UnitView {
    unit: String,
    count: u32,
}

#[derive(Serialize)]
struct UpgradeView<'a> {
    id: &'a str,
    name: &'a str,
    aliases: &'a [String],
    /// Successive costs where the list prices the first, second... apart.
    points: Option<Vec<i32>>,
    adds: Vec<UnitView>,
    replaces: Vec<UnitView>,
    note: Option<&'a str>,
}

#[derive(Serialize)]
struct RuleView<'a> {
    id: &'a str,
    scope: &'static str,
    rule: &'a str,
    message: &'a str,
    provenance: &'a str,
}

#[derive(Serialize)]
struct NotEnforcedView<'a> {
    id: &'a str,
    rule: &'a str,
    why: &'a str,
}

#[derive(Serialize)]
struct SpecialRuleView<'a> {
    id: &'a str,
    name: &'a str,
    summary: &'a str,
}

fn unit_name(list: &ArmyList, catalogue: &Catalogue, unit: usize) -> String {
    let id = &list.units[unit];
    catalogue
        .datasheet(list.game, id)
        .map(|d| d.name.clone())
        .or_else(|| catalogue.ship(list.game, id).map(|s| s.data.name.clone()))
        .or_else(|| catalogue.sf_ship(list.game, id).map(|s| s.data.name.clone()))
        .or_else(|| catalogue.ne_unit(list.game, id).map(|u| u.data.name.clone()))
        .unwrap_or_else(|| id.clone())
}

/// An upgrade's price as offered to one formation: a `points_when` cost
/// that holds for the formation alone, else the upgrade's own, marked
/// "from" when other upgrades could change it.
fn offered_cost(list: &ArmyList, formation: usize, upgrade: usize) -> String {
    let u = &list.upgrades[upgrade];
    let cost = crate::resolve::offered_cost(list, formation, upgrade);
    let text = cost_text(&cost.cloned());
    if u.cost_when.is_empty() || cost != u.cost.as_ref() {
        text
    } else {
        format!("{text}; other options may change it")
    }
}

fn costs(cost: &Option<Cost>) -> Option<Vec<i32>> {
    cost.as_ref().map(|c| match c {
        Cost::Each(each) => vec![*each],
        Cost::Successive(all) => all.clone(),
    })
}

impl<'a> OptionsView<'a> {
    pub fn new(list: &'a ArmyList, catalogue: &Catalogue) -> OptionsView<'a> {
        let units = |counts: &[(usize, u32)]| -> Vec<UnitView> {
            counts
                .iter()
                .map(|&(u, count)| UnitView {
                    unit: unit_name(list, catalogue, u),
                    count,
                })
                .collect()
        };
        OptionsView {
            game: list.game.as_str(),
            id: &list.id,
            name: &list.name,
            version: &list.version,
            version_label: list.version_label.as_deref(),
            strategy_rating: (list.game.game().rating == Some(Rating::Strategy))
                .then_some(list.strategy_rating),
            attack_rating: (list.game.game().rating == Some(Rating::Attack)).then_some(list.attack_rating),
            sections: list
                .sections
                .iter()
                .map(|s| SectionView {
                    name: &s.name,
                    formations: s
                        .formations
                        .iter()
                        .map(|&f| {
                            let f = &list.formations[f];
                            FormationView {
                                id: &f.id,
                                name: &f.name,
                                aliases: &f.aliases,
                                points: f.points,
                                initiative: f.initiative.as_deref(),
                                units: units(&f.units),
                                upgrades: f.upgrades.iter().map(|&u| list.upgrades[u].id.as_str()).collect(),
                                tags: f.tags.iter().map(String::as_str).collect(),
                                note: f.note.as_deref(),
                            }
                        })
                        .collect(),
                })
                .collect(),
            upgrades: list
                .upgrades
                .iter()
                .map(|u| UpgradeView {
                    id: &u.id,
                    name: &u.name,
                    aliases: &u.aliases,
                    points: costs(&u.cost),
                    adds: units(&u.adds),
                    replaces: units(&u.replaces),
                    note: u.note.as_deref(),
                })
                .collect(),
            rules: list
                .constraints
                .iter()
                .map(|c| RuleView {
                    id: &c.id,
                    scope: match c.scope {
                        Scope::Army => "army",
                        Scope::Formation => "formation",
                        Scope::Group => "group",
                    },
                    rule: &c.text,
                    message: &c.message,
                    provenance: &c.provenance,
                })
                .collect(),
            not_enforced: list
                .not_enforced
                .iter()
                .map(|n| NotEnforcedView {
                    id: &n.id,
                    rule: &n.rule,
                    why: &n.why,
                })
                .collect(),
            special_rules: list
                .special_rules
                .iter()
                .map(|r| SpecialRuleView {
                    id: &r.id,
                    name: &r.name,
                    summary: &r.summary,
                })
                .collect(),
        }
    }
}

/// The points column: `250 pts`, or `no price` where the sources give
/// none (the entry's note says why), in as many characters.
fn points_text(points: Option<i32>) -> String {
    match points {
        Some(p) => format!("{p:>5} pts"),
        None => format!("{:>9}", "no price"),
    }
}

fn signed(points: i32) -> String {
    if points >= 0 {
        format!("+{points}")
    } else {
        points.to_string()
    }
}

fn cost_text(cost: &Option<Cost>) -> String {
    match cost {
        None => "no price".to_string(),
        Some(Cost::Each(each)) => signed(*each),
        Some(Cost::Successive(all)) => successive_text(all),
    }
}

/// Costs that differ for the first, second... copy, in words: runs of one
/// cost together, the last run for every further copy (`+50 for the 1st,
/// +0 from the 2nd`).
fn successive_text(costs: &[i32]) -> String {
    let mut runs: Vec<(i32, usize, usize)> = Vec::new();
    for (i, &c) in costs.iter().enumerate() {
        match runs.last_mut() {
            Some((cost, _, last)) if *cost == c => *last = i + 1,
            _ => runs.push((c, i + 1, i + 1)),
        }
    }
    let count = runs.len();
    runs.iter()
        .enumerate()
        .map(|(i, &(cost, first, last))| {
            let cost = signed(cost);
            if i + 1 == count {
                if count == 1 {
                    format!("{cost} each")
                } else {
                    format!("{cost} from the {}", ordinal(first))
                }
            } else if first == last {
                format!("{cost} for the {}", ordinal(first))
            } else {
                format!("{cost} for the {} to {}", ordinal(first), ordinal(last))
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The width of the name column of `muster options`: the longest name
/// that heads a line, so that no name pushes its points out of line.
fn name_width(list: &ArmyList) -> usize {
    list.formations
        .iter()
        .map(|f| crate::roster::writable_name(&f.name, &f.aliases).chars().count())
        .max()
        .unwrap_or(0)
        .max(32)
}

/// The readable form of `muster options`.
/// `verbose`: each rule's expression and full provenance, for list
/// authors; players get the rule and where it comes from.
pub fn text(list: &ArmyList, catalogue: &Catalogue, verbose: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} ({}), {}",
        list.name,
        list.version_text(),
        list.game.title()
    );
    let _ = writeln!(out, "id: {}", list.id);
    let value = match list.game.game().rating {
        Some(Rating::Attack) => Some(list.attack_rating),
        Some(Rating::Strategy) => Some(list.strategy_rating),
        None => None,
    };
    if let (Some(rating), Some(value)) = (list.game.game().rating, value) {
        let _ = writeln!(
            out,
            "{}: {}",
            rating.name(),
            value.map_or_else(|| "not in the sources".to_string(), |s| s.to_string())
        );
    }
    let width = name_width(list);
    // A section with nothing in it (a fleet's commanders, which are
    // bought as refits of its ships) is no heading.
    for section in list.sections.iter().filter(|s| !s.formations.is_empty()) {
        let _ = writeln!(out, "\n{}", section.name.to_uppercase());
        for &fi in &section.formations {
            let f = &list.formations[fi];
            let initiative = if list.game.game().initiative {
                format!("  initiative {}", f.initiative.as_deref().unwrap_or("?"))
            } else {
                String::new()
            };
            let name = crate::roster::writable_name(&f.name, &f.aliases);
            let pad = width.saturating_sub(name.chars().count());
            let _ = writeln!(out, "  {name}{:pad$} {}{initiative}", "", points_text(f.points));
            if !f.units.is_empty() {
                let units: Vec<String> = f
                    .units
                    .iter()
                    .map(|&(u, n)| crate::plural::count(i64::from(n), &unit_name(list, catalogue, u)))
                    .collect();
                let _ = writeln!(out, "      units: {}", units.join(", "));
            }
            if !f.upgrades.is_empty() {
                let ups: Vec<String> = f
                    .upgrades
                    .iter()
                    .map(|&u| {
                        let up = &list.upgrades[u];
                        let name = crate::roster::writable_name(&up.name, &up.aliases);
                        format!("{name} ({})", offered_cost(list, fi, u))
                    })
                    .collect();
                let _ = writeln!(out, "      upgrades: {}", ups.join(", "));
            }
            if let Some(note) = &f.note {
                let _ = writeln!(out, "      note: {note}");
            }
        }
    }
    if !list.constraints.is_empty() {
        let _ = writeln!(out, "\nRULES");
        for c in &list.constraints {
            let _ = writeln!(out, "  {}: {}", c.id, c.message);
            if verbose {
                let _ = writeln!(out, "      {}  [{}]", c.text, c.provenance);
            } else {
                let _ = writeln!(out, "      [{}]", plain_source(&c.provenance));
            }
        }
    }
    if !list.not_enforced.is_empty() {
        let _ = writeln!(out, "\nNOT CHECKED BY MUSTER");
        for n in &list.not_enforced {
            let why = if verbose {
                n.why.clone()
            } else {
                plain_source(&n.why)
            };
            let _ = writeln!(out, "  {}: {} ({why})", n.id, n.rule);
        }
    }
    if !list.special_rules.is_empty() {
        let _ = writeln!(out, "\nSPECIAL RULES");
        for r in &list.special_rules {
            let _ = writeln!(out, "  {}: {}", r.name, r.summary);
        }
    }
    scenarios(&mut out, list, catalogue);
    out
}

/// The game's scenarios and what each asks of this list's fleet, side by
/// side.
fn scenarios(out: &mut String, list: &ArmyList, catalogue: &Catalogue) {
    use crate::catalogue::scenarios::Side;
    let mut any = false;
    for scenario in catalogue.scenarios_of(list.game) {
        if !any {
            let _ = writeln!(
                out,
                "\nSCENARIOS (checked when a roster names one: `Scenario: NAME`, `Side: attacker|defender`)"
            );
            any = true;
        }
        let number = scenario.number.map(|n| format!("{n} ")).unwrap_or_default();
        let _ = writeln!(out, "  {number}{}: {}", scenario.name, scenario.summary);
        for side in [Side::Attacker, Side::Defender] {
            let part = scenario.side(side);
            let name = side.as_str();
            if let Some(share) = part.points {
                let of = format!("the {}'s points", side.other().as_str());
                let _ = writeln!(
                    out,
                    "      {name}: {}",
                    crate::scenario::describe_share(share, &of)
                );
            }
            for c in part.rules_for(&list.id) {
                let _ = writeln!(out, "      {name} {}: {}", c.id, c.message);
            }
            let waived: Vec<&str> = part
                .waives
                .iter()
                .filter(|id| list.constraints.iter().any(|c| &c.id == *id))
                .map(String::as_str)
                .collect();
            if !waived.is_empty() {
                let _ = writeln!(out, "      {name} sets aside: {}", waived.join(", "));
            }
            for n in &part.not_enforced {
                let _ = writeln!(out, "      {name}, not checked: {} ({})", n.rule, n.why);
            }
        }
        for n in &scenario.not_enforced {
            let _ = writeln!(out, "      not checked: {} ({})", n.rule, n.why);
        }
    }
}

/// How a roster of `game` nests its entries, in the game's own words, for
/// the starter roster's opening comment.
fn nesting_help(game: &crate::games::Game) -> &'static [&'static str] {
    if game.fleet {
        &[
            "A squadron is a line of its own with its ships indented under it;",
            "`4x Name` on a line of its own is a squadron of four.",
        ]
    } else if game.cards {
        &["A Company card's Support and Special cards go indented under it."]
    } else if game.battlegroups {
        &["Detachments go indented under their battlegroup, battlegroups under their commander."]
    } else {
        &["An entry's parts go indented under it."]
    }
}

/// A roster to start from: the header filled in, every formation and its
/// upgrades as comments.
pub fn starter(list: &ArmyList, catalogue: &Catalogue, points: u32) -> String {
    let mut out = String::new();
    let article = match list.name.chars().next() {
        Some('A' | 'E' | 'I' | 'O' | 'U') => "An",
        _ => "A",
    };
    let _ = writeln!(out, "# {article} {} roster, written by `muster new`.", list.name);
    let noun = if list.game.game().fleet {
        "ship"
    } else {
        list.game.entry_noun()
    };
    let _ = writeln!(
        out,
        "# Remove the `#` before each {noun} you take; put its upgrades after"
    );
    let _ = writeln!(
        out,
        "# the colon, with counts (`2x Name`). Then run `muster check` on this file."
    );
    if list.formations.iter().any(|f| f.group.is_some()) {
        for line in nesting_help(list.game.game()) {
            let _ = writeln!(out, "# {line}");
        }
    }
    let _ = writeln!(out, "Army: {} ({})", list.name, list.version);
    let _ = writeln!(out, "Points: {points}");
    let _ = writeln!(out, "# Player: your name");
    let _ = writeln!(out, "# Event: the event's name");
    if let Some(first) = catalogue.scenarios_of(list.game).next() {
        let _ = writeln!(
            out,
            "# Scenario: {}      # by name or number; `muster options {}` lists them",
            first.name, list.id
        );
        let _ = writeln!(out, "# Side: attacker      # or defender");
        let _ = writeln!(out, "# Opponent points: {points}");
    }
    for section in list.sections.iter().filter(|s| !s.formations.is_empty()) {
        let _ = writeln!(out, "\n# --- {} ---", section.name);
        for &fi in &section.formations {
            let f = &list.formations[fi];
            let name = crate::roster::writable_name(&f.name, &f.aliases);
            // A cost the roster can state as written; an unknown or negative
            // base (bought through upgrades) is a comment, so that the line
            // still reads once its `#` is gone.
            match f.points {
                Some(p) if p >= 0 => {
                    let _ = writeln!(out, "# {name}  [{p}]");
                }
                Some(p) => {
                    let _ = writeln!(out, "# {name}  # {p} points before its upgrades");
                }
                None => {
                    let _ = writeln!(out, "# {name}  # points not in the sources");
                }
            }
            if !f.upgrades.is_empty() {
                let ups: Vec<String> = f
                    .upgrades
                    .iter()
                    .map(|&u| {
                        let up = &list.upgrades[u];
                        let name = crate::roster::writable_name(&up.name, &up.aliases);
                        match offered_cost(list, fi, u) {
                            // Costs in words are bracketed: they hold commas.
                            cost if cost.contains(' ') => format!("{name} ({cost})"),
                            cost => format!("{name} {cost}"),
                        }
                    })
                    .collect();
                let _ = writeln!(out, "#   upgrades: {}", ups.join(", "));
            }
        }
    }
    if !list.constraints.is_empty() {
        let _ = writeln!(out, "\n# The list's rules (muster checks each):");
        for c in &list.constraints {
            let _ = writeln!(out, "#   {}", c.message);
        }
    }
    out
}
