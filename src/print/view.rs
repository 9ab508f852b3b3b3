//! What a printed page says, as plain strings: crib sheets built from the
//! catalogue's datasheets and glossary, rosters built from a checked roster.
//!
//! Both renderers (`html`, `pdf`) read only these types, so the two outputs
//! say the same things. Building a view does no I/O and makes no decision a
//! checker should make: legality, points and derived facts come from
//! `check::Checked`.

use super::card::{Card, GlossaryLine, Look, StatKey};
use super::ships::FleetView;
use crate::catalogue::fielded::{self, Applied, Stat};
use crate::catalogue::glossary::Glossary;
use crate::catalogue::raw::ProfileChange;
use crate::catalogue::{ArmyList, Catalogue, Datasheet};
use crate::check::Checked;
use crate::diagnostic::Severity;
use std::collections::BTreeSet;

/// A crib sheet: one card per datasheet, then the glossary of the terms
/// the cards use.
#[derive(Debug, Clone, Default)]
pub struct CribSheet {
    pub title: String,
    pub subtitle: String,
    /// The list's army-wide special rules (They Shall Know No Fear...),
    /// which every unit on the table plays by.
    pub army_rules: Vec<ArmyRule>,
    /// The cards of an Epic sheet, printed as one grid (`grid`).
    pub units: Vec<Card>,
    /// The cards of a Battlefleet Gothic, Space Fleet or Heresy sheet
    /// (empty for other games).
    pub cards: Vec<Card>,
    /// NetEpic Gold unit datasheets (empty for other games).
    pub ne_units: Vec<Card>,
    pub glossary: Vec<GlossaryLine>,
    /// Who made it and when: `muster 0.1.0, 2026-11-22`.
    pub stamp: String,
}

/// An army-wide special rule of a list: its name and what it does.
#[derive(Debug, Clone)]
pub struct ArmyRule {
    pub name: String,
    pub summary: String,
}

/// The army-wide special rules of a list, in the list's order.
pub fn army_rules(list: &ArmyList) -> Vec<ArmyRule> {
    list.special_rules
        .iter()
        .map(|r| ArmyRule {
            name: r.name.clone(),
            summary: r.summary.clone(),
        })
        .collect()
}

/// The army-wide special rules a roster fields: the list's own, and those
/// of the codex variants (a Chapter, a Craftworld) whose cards the roster
/// takes from this list; a variant's rule is left out when none of its
/// cards is fielded.
pub fn fielded_army_rules(list: &ArmyList, army: Option<&crate::check::ArmySummary>) -> Vec<ArmyRule> {
    let fielded = |name: &str| -> bool {
        let Some(army) = army else { return false };
        let Some(variant) = crate::games::netepic::variants_of(&list.id).find(|v| v.name == name) else {
            return false;
        };
        army.formations.iter().any(|f| {
            list.formations
                .iter()
                .find(|x| x.id == f.id)
                .is_some_and(|x| variant.card_of(|t| x.tags.contains(t)))
        })
    };
    list.special_rules
        .iter()
        .filter(|r| r.variants.is_empty() || r.variants.iter().any(|v| fielded(v)))
        .map(|r| ArmyRule {
            name: r.name.clone(),
            summary: r.summary.clone(),
        })
        .collect()
}

/// Shown for a value the sources do not give.
const MISSING: &str = "?";

/// `muster 0.1.0, 2026-11-22`.
pub fn stamp(date: &str) -> String {
    format!("muster {}, {date}", env!("CARGO_PKG_VERSION"))
}

impl CribSheet {
    /// Every datasheet a list uses, in the order the list first uses them.
    pub fn for_list(catalogue: &Catalogue, list: &ArmyList, date: &str) -> CribSheet {
        let mut slots: Vec<usize> = Vec::new();
        for f in 0..list.formations.len() {
            for slot in formation_slots(list, f) {
                if !slots.contains(&slot) {
                    slots.push(slot);
                }
            }
        }
        let sheets: Vec<&Datasheet> = slots
            .iter()
            .filter_map(|&u| list.units.get(u))
            .filter_map(|id| catalogue.datasheet(list.game, id))
            .collect();
        let ids: Vec<&str> = slots
            .iter()
            .filter_map(|&u| list.units.get(u).map(String::as_str))
            .collect();
        let what = list.game.game().sheet_noun;
        CribSheet::build(
            catalogue,
            list,
            &sheets,
            &ids,
            format!("{}: crib sheet", list.name),
            format!("{}, every {what} of the list", list.version_text()),
            date,
        )
    }

    /// The datasheets of the given unit ids of `list`, in that order.
    pub fn for_units(
        catalogue: &Catalogue,
        list: &ArmyList,
        ids: &[&str],
        subtitle: String,
        date: &str,
    ) -> CribSheet {
        let sheets: Vec<&Datasheet> = ids
            .iter()
            .filter_map(|id| catalogue.datasheet(list.game, id))
            .collect();
        CribSheet::build(
            catalogue,
            list,
            &sheets,
            ids,
            format!("{}: crib sheet", list.name),
            subtitle,
            date,
        )
    }

    fn build(
        catalogue: &Catalogue,
        list: &ArmyList,
        sheets: &[&Datasheet],
        ids: &[&str],
        title: String,
        subtitle: String,
        date: &str,
    ) -> CribSheet {
        let glossary = catalogue.glossary(list.game);
        // Ship datasheets are looked up only for fleets, so an Epic sheet
        // stays exactly as it was.
        let ships = if list.game.game().notation == crate::games::Notation::Ship {
            super::ships::ships(catalogue, list, ids)
        } else {
            Vec::new()
        };
        let sf_ships = if list.game.game().notation == crate::games::Notation::SpaceFleet {
            super::space_fleet::ships(catalogue, list, ids)
        } else {
            Vec::new()
        };
        let heresy_units = if list.game.game().notation == crate::games::Notation::Heresy {
            super::heresy::units(catalogue, list, ids)
        } else {
            Vec::new()
        };
        let ne_units = if list.game.game().notation == crate::games::Notation::NetEpic {
            super::netepic::units(catalogue, list, ids)
        } else {
            Vec::new()
        };
        let mut lines = super::epic::glossary_lines(glossary, sheets);
        lines.extend(super::ships::glossary_lines(glossary, &ships));
        lines.extend(super::space_fleet::glossary_lines(glossary, &sf_ships));
        lines.extend(super::heresy::glossary_lines(glossary, &heresy_units));
        lines.extend(super::netepic::glossary_lines(glossary, &ne_units));
        CribSheet {
            title,
            subtitle,
            army_rules: army_rules(list),
            units: sheets.iter().map(|s| super::epic::card(s, glossary)).collect(),
            cards: (ships.into_iter().map(super::ships::card))
                .chain(heresy_units.into_iter().map(super::heresy::card))
                .chain(sf_ships.into_iter().map(super::space_fleet::card))
                .collect(),
            ne_units: ne_units.into_iter().map(super::netepic::card).collect(),
            glossary: lines,
            stamp: stamp(date),
        }
    }

    /// The notes under the cards on the values the sources do not give:
    /// one for each mark the cards print for a missing stat (`?` on Epic
    /// cards, the words on the others), none where no card prints one.
    pub fn missing_notes(&self) -> Vec<String> {
        let mut notes: Vec<String> = Vec::new();
        let cards = self.units.iter().chain(&self.cards).chain(&self.ne_units);
        for note in cards.filter_map(Card::missing_note) {
            if !notes.contains(&note) {
                notes.push(note);
            }
        }
        notes
    }
}

impl CribSheet {
    /// The NetEpic cards as one grid (see [`NeGrid`](super::netepic::NeGrid)).
    pub fn ne_grid(&self) -> super::netepic::NeGrid<'_> {
        super::netepic::NeGrid::new(&self.ne_units)
    }

    /// The Epic units as one grid (see [`CribGrid`](super::epic::CribGrid)).
    pub fn grid(&self) -> super::epic::CribGrid<'_> {
        super::epic::CribGrid::new(&self.units)
    }
}

/// A printed roster.
#[derive(Debug, Clone)]
pub struct RosterSheet {
    /// The file the roster was read from.
    pub file: String,
    pub player: Option<String>,
    pub event: Option<String>,
    /// The scenario and side, as the roster writes them (`Jump Point,
    /// attacker`).
    pub scenario: Option<String>,
    /// The army's own name (Snapfire's first line), if it has one.
    pub army_name: Option<String>,
    /// The list, or what the roster wrote when muster does not know it.
    pub army: String,
    /// The list version muster checked against.
    pub version: Option<String>,
    /// The version the roster names, when it differs in wording.
    pub version_written: Option<String>,
    pub points: Option<String>,
    pub limit: Option<u32>,
    pub strategy_rating: Option<u8>,
    /// The core army and its allied forces (one entry without allies).
    pub forces: Vec<crate::check::ForceSummary>,
    /// NetEpic Gold: the army's break points, victory points and the
    /// victory points needed to win.
    pub victory: Option<crate::check::VictorySummary>,
    pub formations: Vec<FormationRow>,
    /// The list's army-wide special rules (empty when the list is unknown).
    pub army_rules: Vec<ArmyRule>,
    /// What the formations (or the fleet) section says when it has none:
    /// why nothing could be read, naming an army list muster does not know
    /// and the nearest ones it does.
    pub no_formations: String,
    /// Battlefleet Gothic: the fleet, in place of `formations`.
    pub fleet: Option<FleetView>,
    /// Heresy: each battlegroup's break point and victory points, the
    /// objectives and the victory points needed.
    pub battlegroups: Option<super::heresy::BattlegroupsView>,
    /// NetEpic Gold: the army cards, in place of `formations`.
    pub cards: Option<super::netepic::CardsView>,
    pub counts_as: Vec<(String, String)>,
    pub legal: bool,
    /// `Legal` or `NOT legal: 3 errors`.
    pub verdict: String,
    pub errors: Vec<Finding>,
    pub warnings: Vec<Finding>,
    pub notes: Vec<Finding>,
    /// `Checked by muster 0.1.0 on 2026-11-22`.
    pub checked_by: String,
    pub stamp: String,
    pub sheet: Option<CribSheet>,
}

#[derive(Debug, Clone)]
pub struct FormationRow {
    pub name: String,
    /// `6 Tactical, 3 Rhino, Captain`.
    pub units: String,
    /// The upgrades that field no unit of their own (`Drop Pods`, a
    /// refit): those that do are counted in `units`, under their
    /// datasheet's name, so a row names each thing once.
    pub upgrades: String,
    pub initiative: String,
    pub points: i64,
    /// The most expensive formation: the Break Their Spirit target.
    pub break_their_spirit: bool,
    /// NetEpic Gold: the card's break point and victory points.
    pub card: Option<crate::check::CardSummary>,
    /// The force it belongs to (an index into `RosterSheet::forces`).
    pub force: usize,
}

/// A diagnostic, as a roster prints it.
#[derive(Debug, Clone)]
pub struct Finding {
    /// `line 6`, or empty for findings about the whole roster.
    pub place: String,
    pub code: String,
    pub message: String,
    pub fix: Option<String>,
    /// What a note about unchecked rules leaves to the player: the rules
    /// themselves, so the printed roster says which.
    pub details: Vec<String>,
}

/// Which of the formations table's optional columns a roster prints: a
/// column empty on every row (a Heresy army's initiative, a roster with
/// no upgrade of its own) is left out, its width given to the units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FormationColumns {
    pub units: bool,
    pub upgrades: bool,
    pub initiative: bool,
}

impl FormationColumns {
    /// Each column's header and share of the width in the PDF, in order:
    /// `#`, formation, the optional ones present, points.
    pub fn widths(self) -> Vec<(&'static str, f32)> {
        self.layout([4, 22, 43, 18, 6, 7])
            .into_iter()
            .map(|(name, w)| (name, f32::from(w) / 100.0))
            .collect()
    }

    /// The same for the HTML page, as CSS widths (`41%`).
    pub fn html_widths(self) -> Vec<(&'static str, String)> {
        self.layout([5, 21, 41, 18, 7, 8])
            .into_iter()
            .map(|(name, w)| (name, format!("{w}%")))
            .collect()
    }

    /// The columns present with their widths in hundredths, from the
    /// widths of all six.
    fn layout(
        self,
        [number, mut formation, mut units, upgrades, initiative, points]: [u8; 6],
    ) -> Vec<(&'static str, u8)> {
        if !self.upgrades {
            units += upgrades;
        }
        if !self.initiative {
            units += initiative;
        }
        if !self.units {
            formation += units;
        }
        let mut out = vec![("#", number), ("Formation", formation)];
        if self.units {
            out.push(("Units", units));
        }
        if self.upgrades {
            out.push(("Other upgrades", upgrades));
        }
        if self.initiative {
            out.push(("Init.", initiative));
        }
        out.push(("Points", points));
        out
    }
}

impl RosterSheet {
    /// The formations table's optional columns that some row fills.
    pub fn formation_columns(&self) -> FormationColumns {
        let any = |cell: fn(&FormationRow) -> &str| super::card::filled(self.formations.iter().map(cell));
        FormationColumns {
            units: any(|f| &f.units),
            upgrades: any(|f| &f.upgrades),
            initiative: any(|f| &f.initiative),
        }
    }

    /// The roster's points fact: `2750 of 3000`, `2750 (no limit given)`,
    /// or, where the army could not be counted (a list muster does not
    /// know), that it was not, with no made-up denominator.
    pub fn points_fact(&self) -> String {
        match (&self.points, self.limit) {
            (Some(points), Some(limit)) => format!("{points} of {limit}"),
            (Some(points), None) => format!("{points} (no limit given)"),
            (None, Some(limit)) => format!("not counted (the roster gives a limit of {limit})"),
            (None, None) => "not counted".to_string(),
        }
    }

    /// A roster sheet for a checked roster; `with_sheet` appends the crib
    /// sheet of the units it fields.
    pub fn new(checked: &Checked<'_>, catalogue: &Catalogue, date: &str, with_sheet: bool) -> RosterSheet {
        let header = &checked.header;
        let list = checked.list;
        let army = checked.army.as_ref();
        let resolved = resolve_units(checked);
        let units_of = |i: usize| {
            (resolved.as_ref())
                .and_then(|r| r.formations.get(i))
                .map(|units| describe_units(catalogue, list, units))
                .unwrap_or_default()
        };
        let fleet = army
            .filter(|a| a.game.game().fleet)
            .map(|a| FleetView::new(a, &|f| ship_hits(catalogue, list, f)));
        let cards = army.filter(|a| a.game.game().cards).map(|a| {
            let units: Vec<String> = (0..a.formations.len()).map(units_of).collect();
            super::netepic::CardsView::new(a, catalogue, list, &units)
        });
        let formations = army
            .filter(|_| fleet.is_none())
            .map(|a| formation_rows(a, list, &units_of))
            .unwrap_or_default();
        let of = |severity: Severity| -> Vec<Finding> {
            (checked.diagnostics.iter())
                .filter(|d| d.severity == severity)
                .map(Finding::new)
                .collect()
        };
        let errors = of(Severity::Error);
        let legal = checked.legal();
        let verdict = if legal {
            "Legal".to_string()
        } else {
            format!(
                "NOT legal: {} error{}",
                errors.len(),
                if errors.len() == 1 { "" } else { "s" }
            )
        };
        let sheet = match (with_sheet, list, &resolved) {
            (true, Some(list), Some(resolved)) => Some(fielded_sheet(catalogue, list, resolved, date)),
            _ => None,
        };
        RosterSheet {
            file: checked.name.clone(),
            player: header.player.as_ref().map(|p| p.value.clone()),
            event: header.event.as_ref().map(|e| e.value.clone()),
            scenario: header.scenario.as_ref().map(|s| match &header.side {
                Some(side) => format!("{}, {}", s.value, side.value),
                None => s.value.clone(),
            }),
            army_name: header.title.as_ref().map(|t| t.value.clone()),
            army: list
                .map(|l| l.name.clone())
                .or_else(|| header.army.as_ref().map(|a| a.value.clone()))
                .unwrap_or_else(|| "no army named".to_string()),
            version: list.map(ArmyList::version_text),
            version_written: header
                .version
                .as_ref()
                .map(|v| v.value.clone())
                .filter(|v| list.is_none_or(|l| !l.version_text().contains(v.as_str()))),
            points: army.map(|a| format!("{}{}", a.total, if a.total_incomplete { "+" } else { "" })),
            limit: checked.limit(),
            strategy_rating: army.and_then(|a| a.strategy_rating),
            forces: army.map(|a| a.forces.clone()).unwrap_or_default(),
            victory: army.and_then(victory_of),
            formations,
            army_rules: list.map(|l| fielded_army_rules(l, army)).unwrap_or_default(),
            no_formations: no_formations(checked, catalogue),
            fleet,
            battlegroups: army.and_then(super::heresy::BattlegroupsView::new),
            cards,
            counts_as: army.map(|a| a.counts_as.clone()).unwrap_or_default(),
            legal,
            verdict,
            errors,
            warnings: of(Severity::Warning),
            notes: of(Severity::Note),
            checked_by: format!("Checked by muster {} on {date}", env!("CARGO_PKG_VERSION")),
            stamp: stamp(date),
            sheet,
        }
    }
}

/// A ship's hits (or damage points) from its datasheet, for a formation
/// of one ship.
fn ship_hits(
    catalogue: &Catalogue,
    list: Option<&ArmyList>,
    f: &crate::check::FormationSummary,
) -> Option<u32> {
    let list = list?;
    let formation = list.formations.iter().find(|x| x.id == f.id)?;
    let &[(unit, _)] = formation.units.as_slice() else {
        return None;
    };
    let id = &list.units[unit];
    match catalogue.ship(list.game, id) {
        Some(ship) => ship.sheet().and_then(|s| s.hull.known()).map(|h| h.hits),
        None => catalogue
            .sf_ship(list.game, id)
            .and_then(|s| s.sheet())
            .and_then(|s| s.damage.as_ref().or(s.wounds.as_ref()))
            .and_then(|d| d.known().copied()),
    }
}

/// The formations table: a row per formation, `units_of` describing the
/// units of the army's `i`th.
fn formation_rows(
    a: &crate::check::ArmySummary,
    list: Option<&ArmyList>,
    units_of: &dyn Fn(usize) -> String,
) -> Vec<FormationRow> {
    (a.formations.iter().enumerate())
        .map(|(i, f)| FormationRow {
            name: format!("{}{}", nesting(a, i), f.name),
            units: units_of(i),
            upgrades: other_upgrades(list, &f.upgrades),
            initiative: if a.game.game().battlegroups {
                String::new()
            } else {
                f.facts.initiative.clone().unwrap_or_else(|| MISSING.into())
            },
            points: f.points,
            break_their_spirit: f.facts.break_their_spirit,
            card: f.card,
            force: f.force,
        })
        .collect()
}

impl Finding {
    fn new(d: &crate::diagnostic::Diagnostic) -> Finding {
        Finding {
            place: d
                .line_col()
                .map(|(line, _)| format!("line {line}"))
                .unwrap_or_default(),
            code: d.code.as_str().to_string(),
            message: d.message.clone(),
            fix: d.fix.clone(),
            // The rules only: a command to run is for the terminal.
            details: if d.code == crate::diagnostic::Code::Unchecked {
                d.hints
                    .iter()
                    .filter(|h| !h.starts_with("`muster "))
                    .map(|h| crate::diagnostic::quoted(h))
                    .collect()
            } else {
                Vec::new()
            },
        }
    }
}

/// The crib sheet of the units a roster fields, each card as fielded
/// (with its refits), and the glossary of the terms those cards use.
fn fielded_sheet(catalogue: &Catalogue, list: &ArmyList, resolved: &ResolvedUnits, date: &str) -> CribSheet {
    let ids: Vec<&str> = (resolved.unit_order.iter())
        .filter_map(|&u| list.units.get(u).map(String::as_str))
        .collect();
    let what = format!("{}s", list.game.game().sheet_noun);
    let mut sheet = CribSheet::for_units(
        catalogue,
        list,
        &ids,
        format!("{}, the {what} of this roster", list.version_text()),
        date,
    );
    // The roster pages print the army's rules already.
    sheet.army_rules.clear();
    let glossary = catalogue.glossary(list.game);
    // The glossary follows the cards as fielded: a refit may
    // bring a term the stock datasheets do not use.
    let mut terms: BTreeSet<&'static str> = BTreeSet::new();
    let notation = list.game.game().notation;
    let ships = notation == crate::games::Notation::Ship;
    let fielding =
        !sheet.units.is_empty() || (ships && !sheet.cards.is_empty()) || !sheet.ne_units.is_empty();
    sheet.units = std::mem::take(&mut sheet.units)
        .into_iter()
        .flat_map(|card| fielded_units(catalogue, list, resolved, glossary, card, &mut terms))
        .collect();
    if ships {
        sheet.cards = std::mem::take(&mut sheet.cards)
            .into_iter()
            .flat_map(|card| fielded_ships(catalogue, list, resolved, card, &mut terms))
            .collect();
    }
    sheet.ne_units = std::mem::take(&mut sheet.ne_units)
        .into_iter()
        .flat_map(|card| fielded_ne_units(catalogue, list, resolved, card, &mut terms))
        .collect();
    if let (true, Some(glossary)) = (fielding, glossary) {
        sheet.glossary = glossary
            .entries_for(&terms)
            .into_iter()
            .map(GlossaryLine::from_entry)
            .collect();
    }
    if notation == crate::games::Notation::Heresy {
        for card in &mut sheet.cards {
            card.set_fielded(fielded(list, resolved, &card.id));
        }
    }
    sheet
}

/// The army's break points and victory points, in a game whose cards
/// carry them.
fn victory_of(army: &crate::check::ArmySummary) -> Option<crate::check::VictorySummary> {
    match &army.game_facts {
        crate::check::GameFacts::Cards(v) => Some(*v),
        crate::check::GameFacts::Heresy(_) | crate::check::GameFacts::None => None,
    }
}

/// `↳ ` once per level of nesting below the first, for games whose
/// groups nest (a Heresy commander over battlegroups over detachments);
/// nothing elsewhere, so other games print as before.
fn nesting(army: &crate::check::ArmySummary, i: usize) -> String {
    if !army.game.game().battlegroups {
        return String::new();
    }
    let mut depth = 0;
    let mut at = i;
    while let Some(g) = army.formations.get(at).and_then(|f| f.group) {
        if g >= at || depth >= crate::resolve::MAX_GROUP_DEPTH {
            break;
        }
        depth += 1;
        at = g;
    }
    "↳ ".repeat(depth)
}

/// Why a roster sheet shows no formation: the army line muster could not
/// follow, or nothing readable under it.
fn no_formations(checked: &Checked<'_>, catalogue: &Catalogue) -> String {
    use crate::catalogue::ListLookup;
    if let Some(list) = checked.list {
        return format!("No {} could be read.", list.game.entry_noun());
    }
    let Some(army) = &checked.header.army else {
        return "No formation could be read: the roster does not say which army list it uses \
                (a first line such as `Army: Codex Astartes`)."
            .to_string();
    };
    let named = &army.value;
    match catalogue.find_list(named) {
        ListLookup::Ambiguous(lists) => format!(
            "No formation could be read: the army `{named}` names more than one list: {}.",
            crate::check::list_names(&lists)
        ),
        _ => {
            let nearest = catalogue.nearest_lists(named, 3);
            let hint = if nearest.is_empty() {
                "`muster lists` shows every list it knows".to_string()
            } else {
                format!("the nearest it knows: {}", crate::check::list_names(&nearest))
            };
            format!("No formation could be read: muster knows no army list called `{named}`; {hint}.")
        }
    }
}

/// The upgrades a formation took that add no unit (`Drop Pods`,
/// `2× Lance Battery`), as the list names them; an upgrade that adds units
/// (a Captain, Rhinos enough to carry the formation) shows in the units.
/// Every upgrade when the list is unknown.
fn other_upgrades(list: Option<&ArmyList>, taken: &[(String, u32)]) -> String {
    let adds_units = |name: &str| {
        list.and_then(|l| l.upgrades.iter().find(|u| u.name == name))
            .is_some_and(|u| !u.adds.is_empty() || u.fills.is_some())
    };
    taken
        .iter()
        .filter(|(name, _)| !adds_units(name))
        .map(|(name, count)| counted(*count, name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `2× Rhino`, or the name alone for one.
fn counted(count: u32, name: &str) -> String {
    if count == 1 {
        name.to_string()
    } else {
        format!("{count}× {name}")
    }
}

/// The units of a formation in the order a reader expects: the
/// formation's own units, then those its upgrades add, then any other.
fn formation_slots(list: &ArmyList, formation: usize) -> Vec<usize> {
    let mut slots: Vec<usize> = Vec::new();
    let mut add = |slot: usize| {
        if !slots.contains(&slot) {
            slots.push(slot);
        }
    };
    if let Some(f) = list.formations.get(formation) {
        f.units.iter().for_each(|&(u, _)| add(u));
        for &upgrade in &f.upgrades {
            if let Some(upgrade) = list.upgrades.get(upgrade) {
                upgrade.adds.iter().for_each(|&(u, _)| add(u));
            }
        }
    }
    (0..list.units.len()).for_each(add);
    slots
}

/// Each formation's units, as (list unit index, count) in reading order,
/// and every unit index in the order the roster first fields it.
struct ResolvedUnits {
    formations: Vec<Vec<(usize, i64)>>,
    unit_order: Vec<usize>,
    /// Each formation's own units (list unit indices) and the refits it
    /// took: upgrades that add, replace and fill nothing, so they change
    /// the formation's own units (a ship's Nova Cannon).
    refits: Vec<(Vec<usize>, Vec<usize>)>,
    /// How many of each refit, aligned with `refits` (a titan's two
    /// Gatling Blasters).
    refit_counts: Vec<Vec<(usize, u32)>>,
}

/// What the roster bought that changes the unit `id` itself, one line a
/// refit with the list's note on what it changes, and how many of the
/// formations fielding the unit took it when not all did.
fn fielded(list: &ArmyList, resolved: &ResolvedUnits, id: &str) -> Vec<String> {
    let Some(slot) = list.units.iter().position(|u| u == id) else {
        return Vec::new();
    };
    let fielding: Vec<&Vec<usize>> = resolved
        .refits
        .iter()
        .filter(|(units, _)| units.contains(&slot))
        .map(|(_, refits)| refits)
        .collect();
    let mut taken: Vec<usize> = Vec::new();
    for &u in fielding.iter().copied().flatten() {
        if !taken.contains(&u) {
            taken.push(u);
        }
    }
    taken
        .into_iter()
        .filter_map(|u| {
            let upgrade = list.upgrades.get(u)?;
            let by = fielding.iter().filter(|r| r.contains(&u)).count();
            let share = if by == fielding.len() {
                String::new()
            } else {
                format!(" ({by} of {})", fielding.len())
            };
            Some(match &upgrade.note {
                Some(note) => format!("{}{share}: {note}", upgrade.name),
                None => format!("{}{share}", upgrade.name),
            })
        })
        .collect()
}

/// One way a roster fields a datasheet: the refits (upgrade indices, in
/// list order) and how many of the formations fielding it took exactly
/// those.
struct Variant {
    refits: Vec<usize>,
    by: usize,
}

/// The distinct refit sets the roster's formations field datasheet `id`
/// with, in the roster's order, and how many formations field it.
fn variants(list: &ArmyList, resolved: &ResolvedUnits, id: &str) -> (Vec<Variant>, usize) {
    let Some(slot) = list.units.iter().position(|u| u == id) else {
        return (Vec::new(), 0);
    };
    let mut out: Vec<Variant> = Vec::new();
    let mut total = 0;
    for (units, refits) in &resolved.refits {
        if !units.contains(&slot) {
            continue;
        }
        total += 1;
        let mut set = refits.clone();
        set.sort_unstable();
        set.dedup();
        match out.iter_mut().find(|v| v.refits == set) {
            Some(v) => v.by += 1,
            None => out.push(Variant { refits: set, by: 1 }),
        }
    }
    (out, total)
}

/// The profile changes of `refits` that apply to datasheet `id`.
fn changes_for<'l>(list: &'l ArmyList, refits: &[usize], id: &str) -> Vec<&'l ProfileChange> {
    refits
        .iter()
        .filter_map(|&u| list.upgrades.get(u).map(|up| (u, up)))
        .flat_map(|(u, up)| {
            up.fielded
                .iter()
                .filter(move |c| fielded::applies(&list.formations, &list.units, u, c, id))
        })
        .collect()
}

/// The crib-sheet lines for a variant: each refit with the list's note,
/// and, where the card could not show it, that it is not shown as fielded.
fn refit_lines(
    list: &ArmyList,
    variant: &Variant,
    total: usize,
    id: &str,
    failed: Option<&str>,
) -> Vec<String> {
    let share = if variant.by == total {
        String::new()
    } else {
        format!(" ({} of {total})", variant.by)
    };
    if variant.refits.is_empty() {
        return if share.is_empty() {
            Vec::new()
        } else {
            vec![format!("no {}s{share}", list.game.game().upgrade_noun)]
        };
    }
    variant
        .refits
        .iter()
        .filter_map(|&u| {
            let upgrade = list.upgrades.get(u)?;
            let shown = !changes_for(list, &[u], id).is_empty();
            let why = match (failed, &upgrade.not_shown) {
                (Some(error), _) if shown => Some(error.to_string()),
                (_, Some(reason)) if !shown => Some(reason.clone()),
                _ => None,
            };
            Some(match (why, &upgrade.note) {
                (Some(why), _) => format!("{}{share}: not shown as fielded ({why})", upgrade.name),
                (None, Some(note)) => format!("{}{share}: {note}", upgrade.name),
                (None, None) => format!("{}{share}", upgrade.name),
            })
        })
        .collect()
}

/// A value a refit (an upgrade, in Epic) changed, marked so in the
/// game's word.
fn refit_value(value: &mut String, noun: &str) {
    value.push_str(" (");
    value.push_str(noun);
    value.push(')');
}

/// The printed value of `stat` on `card`, where its kind of card has it.
fn card_value(card: &mut Card, stat: Stat) -> Option<&mut String> {
    let key = match stat {
        // A ship's hull is printed as its kind, after its name.
        Stat::Hull => return (card.look == Look::Ship).then_some(&mut card.kind),
        Stat::Speed => StatKey::Speed,
        Stat::Turns => StatKey::Turns,
        Stat::Shields => StatKey::Shields,
        Stat::Armour => StatKey::Armour,
        Stat::Turrets => StatKey::Turrets,
        Stat::Cc => StatKey::Cc,
        Stat::Ff => StatKey::Ff,
    };
    card.stat_mut(key)
}

/// Marks the weapon rows of `card` that `changed` says a refit put or
/// changed, in the game's word for it (`noun`).
fn mark_rows(card: &mut Card, changed: &[bool], noun: &'static str) {
    for (row, &changed) in card.weapons.rows.iter_mut().zip(changed) {
        if let Some(name) = row.first_mut() {
            name.mark = changed.then_some(noun);
        }
    }
}

/// The cards of `card` as the roster fields it: one per distinct set of
/// refits, each with its weapons and values as fielded. `field` applies
/// changes (with the list's weapon choices for the unit) to its stock
/// datasheet and prints the result; `None` where there is no datasheet.
fn fielded_cards(
    list: &ArmyList,
    resolved: &ResolvedUnits,
    card: Card,
    mut field: impl FnMut(&[&ProfileChange], &[String]) -> Option<Result<Applied<Card>, String>>,
) -> Vec<Card> {
    let (variants, total) = variants(list, resolved, &card.id);
    if variants.is_empty() {
        return vec![card];
    }
    let optional = fielded::choices(list, &card.id);
    variants
        .iter()
        .map(|v| {
            let changes = changes_for(list, &v.refits, &card.id);
            let applied = if changes.is_empty() {
                None
            } else {
                field(&changes, &optional)
            };
            let (mut out, failed) = match applied {
                Some(Ok(applied)) => {
                    let mut out = applied.sheet;
                    mark_rows(&mut out, &applied.changed_rows, list.game.game().upgrade_noun);
                    for stat in applied.changed_stats {
                        if let Some(value) = card_value(&mut out, stat) {
                            refit_value(value, list.game.game().upgrade_noun);
                        }
                    }
                    (out, None)
                }
                Some(Err(e)) => (card.clone(), Some(e)),
                None => (card.clone(), None),
            };
            let lines = refit_lines(list, v, total, &out.id, failed.as_deref());
            out.set_fielded(lines);
            out
        })
        .collect()
}

/// The cards of ship `card` as the roster fields it (`fielded_cards`).
fn fielded_ships(
    catalogue: &Catalogue,
    list: &ArmyList,
    resolved: &ResolvedUnits,
    card: Card,
    terms: &mut BTreeSet<&'static str>,
) -> Vec<Card> {
    let stock = catalogue.ship(list.game, &card.id);
    terms.extend(
        stock
            .and_then(|s| s.sheet())
            .map(|s| s.glossary_ids())
            .unwrap_or_default(),
    );
    fielded_cards(list, resolved, card, |changes, optional| {
        let ship = stock?;
        let applied = fielded::ship(catalogue, list.game, &ship.data, changes, optional);
        Some(applied.map(|applied| {
            applied.map(|sheet| {
                let fielded = ship.with_data(sheet);
                terms.extend(fielded.sheet().map(|s| s.glossary_ids()).unwrap_or_default());
                super::ships::card(&fielded)
            })
        }))
    })
}

/// The cards of Epic unit `card` as the roster fields it
/// (`fielded_cards`).
fn fielded_units(
    catalogue: &Catalogue,
    list: &ArmyList,
    resolved: &ResolvedUnits,
    glossary: Option<&Glossary>,
    card: Card,
    terms: &mut BTreeSet<&'static str>,
) -> Vec<Card> {
    let stock = catalogue.datasheet(list.game, &card.id);
    terms.extend(stock.map(|d| d.glossary_ids()).unwrap_or_default());
    fielded_cards(list, resolved, card, |changes, optional| {
        let sheet = stock?;
        let applied = fielded::epic(catalogue, list.game, sheet.written(), changes, optional);
        Some(applied.map(|applied| {
            applied.map(|written| {
                let fielded = sheet.with_written(written);
                terms.extend(fielded.glossary_ids());
                super::epic::card(&fielded, glossary)
            })
        }))
    })
}

/// The cards of NetEpic unit `card` as the roster bought it: one per
/// distinct set of weapons (a titan's), each with only the weapons chosen
/// of those its list offers as choices (`super::netepic::as_bought`).
fn fielded_ne_units(
    catalogue: &Catalogue,
    list: &ArmyList,
    resolved: &ResolvedUnits,
    card: Card,
    terms: &mut BTreeSet<&'static str>,
) -> Vec<Card> {
    let stock = catalogue.ne_unit(list.game, &card.id);
    let ids = |unit: Option<&crate::catalogue::NeUnit>| {
        unit.and_then(|u| u.sheet())
            .map(|s| s.glossary_ids())
            .unwrap_or_default()
    };
    let (variants, total) = variants(list, resolved, &card.id);
    let Some(unit) = stock.filter(|_| !variants.is_empty()) else {
        terms.extend(ids(stock));
        return vec![card];
    };
    let optional = crate::catalogue::fielded::choices(list, &card.id);
    let several = variants.len() > 1;
    variants
        .iter()
        .map(|v| {
            let changes = changes_for(list, &v.refits, &card.id);
            let applied = (!changes.is_empty())
                .then(|| {
                    crate::catalogue::fielded::netepic(catalogue, list.game, &unit.data, &changes, &optional)
                        .ok()
                })
                .flatten();
            match applied {
                Some(applied) => {
                    let fielded = unit.with_data(applied.sheet);
                    terms.extend(ids(Some(&fielded)));
                    let mut out = super::netepic::card(&fielded);
                    super::netepic::as_bought(&mut out, several.then_some((v.by, total)));
                    for (upgrade, count) in refit_counts(resolved, &unit.data.id, list, v) {
                        let chosen: Vec<&String> = changes_for(list, &[upgrade], &card.id)
                            .into_iter()
                            .flat_map(|c| &c.choose)
                            .collect();
                        super::netepic::times(&mut out, &chosen, count);
                    }
                    out
                }
                None => {
                    terms.extend(ids(Some(unit)));
                    card.clone()
                }
            }
        })
        .collect()
}

/// The refits of variant `v` of datasheet `id` taken more than once, with
/// how many, where every formation (or titan) fielding the variant took
/// the same number.
fn refit_counts(resolved: &ResolvedUnits, id: &str, list: &ArmyList, v: &Variant) -> Vec<(usize, u32)> {
    let Some(slot) = list.units.iter().position(|u| u == id) else {
        return Vec::new();
    };
    let mut agreed: Option<Vec<(usize, u32)>> = None;
    for ((units, refits), counts) in resolved.refits.iter().zip(&resolved.refit_counts) {
        let mut set = refits.clone();
        set.sort_unstable();
        set.dedup();
        if !units.contains(&slot) || set != v.refits {
            continue;
        }
        let mut counts = counts.clone();
        counts.sort_unstable();
        match &agreed {
            None => agreed = Some(counts),
            Some(a) if *a == counts => {}
            Some(_) => return Vec::new(),
        }
    }
    agreed
        .unwrap_or_default()
        .into_iter()
        .filter(|&(_, n)| n > 1)
        .collect()
}

/// The roster parsed and resolved again, for the unit counts `Checked`
/// does not keep. Same input, same list: the formations line up.
fn resolve_units(checked: &Checked<'_>) -> Option<ResolvedUnits> {
    let (file, list) = (checked.file.as_ref()?, checked.list?);
    let (mut roster, _) = crate::roster::parse(file);
    // Allied forces resolve against their own lists; the core army's
    // formations come first and line up with `Checked`'s.
    if let Some(first) = roster.header.allies.first() {
        roster.entries.truncate(first.first);
    }
    let lines = crate::games::registry::ruleset(list.game).formation_lines();
    let (army, _) = crate::resolve::resolve(&roster, list, lines);
    let formations: Vec<Vec<(usize, i64)>> = army
        .formations
        .iter()
        .map(|f| {
            formation_slots(list, f.formation)
                .into_iter()
                .filter_map(|u| f.units.get(u).map(|&count| (u, count)))
                .filter(|&(_, count)| count > 0)
                .collect()
        })
        .collect();
    let mut unit_order = Vec::new();
    for &(u, _) in formations.iter().flatten() {
        if !unit_order.contains(&u) {
            unit_order.push(u);
        }
    }
    let is_refit = |u: &usize| {
        list.upgrades
            .get(*u)
            .is_some_and(|u| u.adds.is_empty() && u.replaces.is_empty() && u.fills.is_none())
    };
    let counted = |taken: &[crate::resolve::Taken]| -> Vec<(usize, u32)> {
        taken
            .iter()
            .map(|t| (t.upgrade, t.count))
            .filter(|(u, _)| is_refit(u))
            .collect()
    };
    // A card armed titan by titan fields each titan with its own weapons.
    let (refits, refit_counts): (Vec<_>, Vec<_>) = army
        .formations
        .iter()
        .flat_map(|f| {
            let own: Vec<usize> = list
                .formations
                .get(f.formation)
                .map(|lf| lf.units.iter().map(|&(u, _)| u).collect())
                .unwrap_or_default();
            if f.parts.is_empty() {
                let counts = counted(&f.upgrades);
                let refits = counts.iter().map(|&(u, _)| u).collect();
                return vec![((own, refits), counts)];
            }
            f.parts
                .iter()
                .flat_map(|t| {
                    let counts = counted(&t.upgrades);
                    let refits: Vec<usize> = counts.iter().map(|&(u, _)| u).collect();
                    std::iter::repeat_n(((own.clone(), refits), counts), t.count as usize)
                })
                .collect()
        })
        .unzip();
    Some(ResolvedUnits {
        formations,
        unit_order,
        refits,
        refit_counts,
    })
}

fn describe_units(catalogue: &Catalogue, list: Option<&ArmyList>, units: &[(usize, i64)]) -> String {
    let Some(list) = list else {
        return String::new();
    };
    units
        .iter()
        .filter_map(|&(u, count)| {
            let id = list.units.get(u)?;
            let name = catalogue
                .datasheet(list.game, id)
                .map(|d| d.name.as_str())
                .or_else(|| catalogue.heresy_unit(list.game, id).map(|u| u.data.name.as_str()))
                .or_else(|| catalogue.ne_unit(list.game, id).map(|u| u.data.name.as_str()))
                .unwrap_or(id.as_str());
            Some(if count == 1 {
                crate::plural::singular(name)
            } else {
                crate::plural::count(count, name)
            })
        })
        .collect::<Vec<_>>()
        .join(", ")
}
