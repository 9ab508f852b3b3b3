//! NetEpic Gold's titans of a battle group, read in `resolve`: a card of
//! several titans (`titans: { count, each }` in its list) may arm each
//! titan on a line of its own under the card (`Titan: Volcano Cannon,
//! Chain Fist`, `2x Titan: ...` for two armed alike). Each line is a part
//! of the card ([`Part`]) standing for the book's single titan card, so
//! `validate` holds it to that card's mount rules; under the optional rule
//! of titan battle groups (core rules 6.1) each titan is priced on its own.

use super::{TITAN_BATTLE_GROUPS, TITAN_LINE};
use crate::catalogue::names;
use crate::catalogue::{ArmyList, FormationIdx};
use crate::diagnostic::{Code, Diagnostic};
use crate::resolve::{FormationLines, LineReader, Part, Taken, offered_cost, round_up};
use crate::roster::Entry;

/// NetEpic Gold's `Titan:` lines.
pub struct TitanLines;

impl FormationLines for TitanLines {
    fn owns(&self, list: &ArmyList, formation: FormationIdx, child: &Entry) -> bool {
        list.formations[formation].titans.is_some() && names::same_thing(&child.item.name.value, TITAN_LINE)
    }

    /// Reads the `Titan:` lines under a card of several titans: each
    /// line's weapons go to its titans and to the card (`taken`). The
    /// lines must arm every titan of the card, and then the card's own
    /// line names no weapon.
    fn read(
        &self,
        reader: &mut LineReader<'_, '_, '_>,
        entry: &Entry,
        formation: FormationIdx,
        taken: &mut Vec<Taken>,
        read_whole: &mut bool,
    ) -> Vec<Part> {
        let list = reader.list();
        let Some((count, each)) = list.formations[formation].titans else {
            return Vec::new();
        };
        let f = &list.formations[formation];
        let mut titans = Vec::new();
        for child in entry.children.iter().filter(|c| self.owns(list, formation, c)) {
            if !child.children.is_empty() || child.cost.is_some() {
                let d = reader.error(
                    Code::BadNesting,
                    format!(
                        "a titan of the {} is one line: `{TITAN_LINE}:` and its weapons, with no cost and nothing under it",
                        f.name
                    ),
                    child.line_span,
                );
                reader.report(d);
                *read_whole = false;
            }
            let mut own: Vec<Taken> = Vec::new();
            for item in &child.upgrades {
                *read_whole &= reader.upgrade(item, formation, &mut own);
            }
            add_to_card(&own, child.item.count, taken);
            titans.push(Part {
                count: child.item.count,
                formation: each,
                upgrades: own,
                points: i64::from(list.formations[each].points.unwrap_or(0)),
                points_known: list.formations[each].points.is_some(),
                span: child.item.name.span,
            });
        }
        if titans.is_empty() {
            if !entry.upgrades.is_empty() {
                let d = Diagnostic::note(
                    Code::Unchecked,
                    format!(
                        "the weapons of the {} are counted for its {count} titans together, so each titan's own mounts are not checked",
                        f.name
                    ),
                )
                .at(&reader.roster().file, entry.item.name.span)
                .hint(format!(
                    "arm each titan on a `{TITAN_LINE}:` line under the card to check it (`2x {TITAN_LINE}: ...` for two armed alike)"
                ));
                reader.report(d);
            }
            return titans;
        }
        all_armed(reader, entry, formation, &titans, read_whole);
        titans
    }

    /// Prices the titans of a card armed titan by titan: each costs its
    /// hull and weapons, and under the optional rule of titan battle
    /// groups (6.1) that is rounded up titan by titan and the card costs
    /// their sum (`points`). Returns whether the rule priced the card.
    fn price(
        &self,
        reader: &mut LineReader<'_, '_, '_>,
        entry: &Entry,
        formation: FormationIdx,
        titans: &mut [Part],
        points: &mut i64,
    ) -> bool {
        let list = reader.list();
        let f = &list.formations[formation];
        let Some((_, each)) = f.titans else {
            return false;
        };
        for t in titans.iter_mut() {
            for w in &t.upgrades {
                match offered_cost(list, formation, w.upgrade) {
                    Some(cost) => t.points += cost.of(w.count),
                    None => t.points_known = false,
                }
            }
        }
        let rule_on = reader
            .roster()
            .header
            .optional_rules
            .iter()
            .any(|r| names::same_thing(&r.value, TITAN_BATTLE_GROUPS));
        if !rule_on || !list.game.game().optional_rules.contains(&TITAN_BATTLE_GROUPS) {
            return false;
        }
        let to = list.formations[each].round_up_to;
        if titans.is_empty() {
            let d = reader
                .error(
                    Code::ListRule,
                    format!(
                        "under the optional rule of titan battle groups each titan of the {} is priced on its own: arm each on a `{TITAN_LINE}:` line under the card",
                        f.name
                    ),
                    entry.item.name.span,
                )
                .rule(
                    "titan-battle-group-rounding",
                    "NetEpic Gold core rules 6.1, optional rule Titan Battle Groups (lines 926-928): each titan's cost is rounded up to 50 points, then added",
                );
            reader.report(d);
            return false;
        }
        for t in titans.iter_mut() {
            t.points = round_up(t.points, to);
        }
        *points = titans
            .iter()
            .map(|t| t.points.saturating_mul(i64::from(t.count)))
            .fold(0, i64::saturating_add);
        true
    }
}

/// A titan line's weapons (`own`, for each of its `times` titans) added
/// to the card's (`taken`), for the card's own rules and cost.
fn add_to_card(own: &[Taken], times: u32, taken: &mut Vec<Taken>) {
    for t in own {
        let times = t.count.saturating_mul(times);
        match taken.iter_mut().find(|x| x.upgrade == t.upgrade) {
            Some(x) => {
                x.count = x.count.saturating_add(times);
                x.spans.extend(t.spans.iter().copied());
            }
            None => taken.push(Taken {
                upgrade: t.upgrade,
                count: times,
                spans: t.spans.clone(),
            }),
        }
    }
}

/// The `Titan:` lines arm every titan of the card, and the card's own
/// line names no weapon: each an error, and the card not read whole.
fn all_armed(
    reader: &mut LineReader<'_, '_, '_>,
    entry: &Entry,
    formation: FormationIdx,
    titans: &[Part],
    read_whole: &mut bool,
) {
    let list = reader.list();
    let f = &list.formations[formation];
    let Some((count, _)) = f.titans else {
        return;
    };
    let written: u32 = titans.iter().map(|t| t.count).fold(0, u32::saturating_add);
    if written != count {
        let d = reader.error(
            Code::BadNesting,
            format!(
                "the {} holds {count} titans, and {written} are armed on `{TITAN_LINE}:` lines under it",
                f.name
            ),
            entry.item.name.span,
        );
        reader.report(d.hint(format!(
            "write one `{TITAN_LINE}:` line for each of its {count} titans (`2x {TITAN_LINE}: ...` for two armed alike), or name all the weapons on the card's line"
        )));
        *read_whole = false;
    }
    if let Some(first) = entry.upgrades.first() {
        let d = reader.error(
            Code::BadNesting,
            format!(
                "the {}'s titans are armed on their own lines: name this weapon on one of them",
                f.name
            ),
            first.span,
        );
        reader.report(d);
        *read_whole = false;
    }
}
