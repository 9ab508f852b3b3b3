//! NetEpic Gold's army rules over the forces of a roster (core rules
//! 1.2.2-1.2.4): the variant each force fields (a Chapter, a Power, a
//! Craftworld), the share caps of the army books, the Forward Observer
//! that off-board barrages need, the ally tables, and the army's break
//! points and victory points.

use super::{ALLIES, ArmyKind, ListAllies, SHARE_CAPS, Variant, variants_of};
use crate::catalogue::{ArmyList, GameId};
use crate::check::summary::{ArmySummary, ForceSummary, FormationSummary, VictorySummary};
use crate::diagnostic::{Code, Diagnostic};
use crate::roster;
use crate::source::{SourceFile, Span};
use std::collections::BTreeSet;

const WHY: &str = "NetEpic Gold core rules 1.2.2 (lines 192-200)";

/// The army rules of a game with allies (NetEpic Gold 1.2.2-1.2.4) over
/// the forces of a roster: the variant each force fields (a Chapter, a
/// Power, a Craftworld: `games::netepic::VARIANTS`), at most one per
/// force, the share caps of the army books, and, with allied forces, the
/// ally rules.
pub fn army_rules(
    file: &SourceFile,
    parsed: &roster::Roster,
    core: &ArmyList,
    lists: &[Option<&ArmyList>],
    summary: &ArmySummary,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let forces: Vec<&ArmyList> = std::iter::once(core)
        .chain(lists.iter().flatten().copied())
        .collect();
    let variants: Vec<Option<&'static Variant>> = forces
        .iter()
        .enumerate()
        .map(|(i, list)| force_variant(file, list, summary, i, diagnostics))
        .collect();
    let line_of = |i: usize| -> Span {
        match i {
            0 => parsed.header.army_line.unwrap_or_default(),
            _ => parsed
                .header
                .allies
                .iter()
                .zip(lists)
                .filter(|(_, l)| l.is_some())
                .nth(i - 1)
                .map(|(a, _)| a.line)
                .unwrap_or_default(),
        }
    };
    if let Some(v) = variants.first().copied().flatten().filter(|v| v.never_core) {
        diagnostics.push(
            Diagnostic::error(
                Code::AllyRule,
                format!(
                    "a {} force is only ever an allied force, never the core army",
                    v.name
                ),
            )
            .at(file, line_of(0))
            .rule("never-core", v.provenance)
            .hint("write it after an `Allies:` line, beside a core army that may take it"),
        );
    }
    let total = summary.total.max(0);
    for (i, list) in forces.iter().enumerate() {
        for cap in SHARE_CAPS.iter().filter(|c| c.list == list.id) {
            // A force that is the variant made of these cards alone (Kroot
            // Mercenaries) is not capped by its own cards.
            if variants[i].is_some_and(|v| v.only && v.tags.contains(&cap.tag)) {
                continue;
            }
            let tags = tags_by_id(list);
            let points: i64 = summary
                .formations
                .iter()
                .filter(|f| f.force == i && tags.get(f.id.as_str()).is_some_and(|t| t.contains(cap.tag)))
                .map(|f| f.points)
                .sum();
            if total > 0 && points.saturating_mul(100) > i64::from(cap.percent).saturating_mul(total) {
                diagnostics.push(
                    Diagnostic::error(
                        Code::AllyRule,
                        format!(
                            "{} cost {points} of the army's {total} points; they may hold at most {}%",
                            cap.what, cap.percent
                        ),
                    )
                    .at(file, line_of(i))
                    .rule(cap.id, cap.provenance),
                );
            }
        }
    }
    // Barrages whose book has no Forward Observer (the Dark Eldar) need
    // one in some force of the army (core rules 4.4.8).
    let tag_sets: Vec<_> = forces.iter().map(|l| tags_by_id(l)).collect();
    let tagged = |f: &&FormationSummary, tag: &str| {
        tag_sets
            .get(f.force)
            .and_then(|tags| tags.get(f.id.as_str()))
            .is_some_and(|t| t.contains(tag))
    };
    if !summary.formations.iter().any(|f| tagged(&f, "forward-observer")) {
        for card in summary.formations.iter().filter(|f| tagged(f, "needs-observer")) {
            diagnostics.push(
                Diagnostic::error(
                    Code::ListRule,
                    format!(
                        "`{}` is an off-board barrage, and only a Forward Observer calls one in: its book has none, and no force of the army has one",
                        card.name
                    ),
                )
                .at(file, file.line_span(card.line))
                .rule("forward-observer", "NetEpic Gold core rules 4.4.8 Off-Board Artillery (lines 790-794)")
                .hint("add an allied force with a Forward Observer card, or leave the barrage out"),
            );
        }
    }
    if !parsed.header.allies.is_empty() {
        ally_rules(file, parsed, core, lists, summary, &variants, diagnostics);
    }
}

/// Each formation id of `list` with its tags.
fn tags_by_id(list: &ArmyList) -> TagsById<'_> {
    TagsById(list)
}

/// The tags of a list's formations by id, found when asked: a roster names
/// a few of a list's many formations, so no map of them all is made.
struct TagsById<'l>(&'l ArmyList);

impl<'l> TagsById<'l> {
    fn get(&self, id: &str) -> Option<&'l crate::catalogue::Tags> {
        // The last of equal ids, as a map collected from them would keep.
        self.0
            .formations
            .iter()
            .rev()
            .find(|f| f.id == id)
            .map(|f| &f.tags)
    }
}

/// The variant force `force` of the summary fields, from its cards; a
/// force with cards of two variants is an error at the first card of the
/// second, and counts as the first.
fn force_variant(
    file: &SourceFile,
    list: &ArmyList,
    summary: &ArmySummary,
    force: usize,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<&'static Variant> {
    let variants: Vec<&'static Variant> = variants_of(&list.id).collect();
    if variants.is_empty() {
        return None;
    }
    let tags = tags_by_id(list);
    let cards: Vec<(&FormationSummary, &crate::catalogue::Tags)> = summary
        .formations
        .iter()
        .filter(|f| f.force == force)
        .filter_map(|f| Some((f, tags.get(f.id.as_str())?)))
        .filter(|(_, t)| !t.contains("fortification"))
        .collect();
    let has = |v: &Variant, t: &crate::catalogue::Tags| v.card_of(|x| t.contains(x));
    // A variant made of its cards alone (Kroot Mercenaries).
    if let Some(v) = variants
        .iter()
        .find(|v| v.only && !cards.is_empty() && cards.iter().all(|(_, t)| has(v, t)))
    {
        return Some(v);
    }
    let mut found: Option<&'static Variant> = None;
    for (card, t) in &cards {
        let Some(v) = variants.iter().find(|v| !v.only && has(v, t)) else {
            continue;
        };
        match found {
            None => found = Some(v),
            Some(first) if first.name == v.name => {}
            Some(first) => {
                let span = file.line_span(card.line);
                diagnostics.push(
                    Diagnostic::error(
                        Code::AllyRule,
                        format!(
                            "`{}` is a card of {}, and this force already fields {}: a force fields one variant of its book",
                            card.name, v.name, first.name
                        ),
                    )
                    .at(file, span)
                    .rule(
                        "one-variant",
                        "NetEpic Gold core rules 1.2.4 (lines 213-231): a Codex army is one codex and its standard list",
                    )
                    .hint(format!(
                        "take the standard cards and those of one variant; {} may join as an allied force where the core army allows it",
                        v.name
                    )),
                );
            }
        }
    }
    // No variant's cards: the list's standard army, where the book
    // describes it as a variant of its own.
    found.or_else(|| variants.iter().find(|v| v.tags.is_empty()).copied())
}

/// The game's ally rules over the forces (NetEpic Gold 1.2.2-1.2.4): which
/// lists may ally with the core army's, how many allies it takes, that the
/// core army has the most points and at least its share of them. A force's
/// variant (`variants`, by force) stands for its list's row where it has
/// one: a Chapter army is a Codex army, and may take a sibling variant of
/// its own book (another Craftworld, another Power) as its ally.
fn ally_rules(
    file: &SourceFile,
    parsed: &roster::Roster,
    core: &ArmyList,
    lists: &[Option<&ArmyList>],
    summary: &ArmySummary,
    variants: &[Option<&'static Variant>],
    diagnostics: &mut Vec<Diagnostic>,
) {
    let army_span = parsed.header.army_line.unwrap_or_default();
    let core_variant = variants.first().copied().flatten();
    let Some(row) = core_row(file, core, core_variant, army_span, diagnostics) else {
        return;
    };
    // The army named in messages: the variant where the force fields one.
    let core_name = match core_variant.filter(|v| !v.tags.is_empty()) {
        Some(v) => format!("the {} army", v.name),
        None => core.name.clone(),
    };
    let at = Core {
        file,
        core,
        core_variant,
        row,
        core_name,
    };
    // Points of the core army (with the forces that count as core) and of
    // each force, by position in `summary.forces` (0 is the core).
    let mut tally = Tally {
        core_points: summary.forces.first().map_or(0, |f| f.points),
        core_percent: row.core_percent,
        real_allies: 0,
        sibling_allies: 0,
    };
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    // Forces of lists that resolved, in order: summary.forces[1..].
    let resolved: Vec<Resolved<'_>> = parsed
        .header
        .allies
        .iter()
        .zip(lists)
        .filter_map(|(a, l)| l.map(|l| (a, l)))
        .zip(summary.forces.iter().skip(1))
        .zip(variants.iter().skip(1))
        .map(|(((a, l), f), v)| (a, l, f, *v))
        .collect();
    for &(allied, list, force, variant) in &resolved {
        if list.id == core.id {
            at.own_book(allied, list, force.points, variant, &mut tally, diagnostics);
            continue;
        }
        if row.core_with.contains(&list.id.as_str()) {
            tally.core_points += force.points;
            continue;
        }
        if !seen.insert(list.id.as_str()) {
            diagnostics.push(
                Diagnostic::error(
                    Code::AllyRule,
                    format!(
                        "{} is named by two `Allies:` lines; write its force once",
                        list.name
                    ),
                )
                .at(file, allied.army.span)
                .rule("ally-once", WHY),
            );
        }
        tally.real_allies += 1;
        if row.kind == ArmyKind::Unlisted {
            continue;
        }
        if row.kind == ArmyKind::Alone {
            diagnostics.push(
                Diagnostic::error(Code::AllyRule, format!("{} take no allies at all", core.name))
                    .at(file, allied.army.span)
                    .rule("ally-none", row.provenance)
                    .hint("the army is fielded from its own book alone"),
            );
            continue;
        }
        at.other_list(allied, list, variant, tally.real_allies, diagnostics);
    }
    if row.kind == ArmyKind::Unlisted || row.kind == ArmyKind::Alone {
        return;
    }
    at.core_share(army_span, &resolved, &tally, summary, diagnostics);
}

/// An allied force that resolved: its `Allies:` line, list, summary and
/// variant.
type Resolved<'a> = (
    &'a roster::Allied,
    &'a ArmyList,
    &'a ForceSummary,
    Option<&'static Variant>,
);

/// The row of the ally tables the core army is held to: its variant's,
/// else its list's; `None` (with a warning) when the tables name neither.
fn core_row(
    file: &SourceFile,
    core: &ArmyList,
    core_variant: Option<&'static Variant>,
    army_span: Span,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<ListAllies> {
    let variant_row = core_variant.map(|v| v.row());
    let Some(row) = variant_row.or_else(|| ALLIES.iter().find(|r| r.list == core.id).copied()) else {
        diagnostics.push(
            Diagnostic::warning(
                Code::Unchecked,
                format!(
                    "the ally tables do not name {}: its allies and its share of the points are not checked",
                    core.name
                ),
            )
            .at(file, army_span)
            .rule("allies", WHY),
        );
        return None;
    };
    if row.kind == ArmyKind::Unlisted {
        diagnostics.push(
            Diagnostic::warning(
                Code::Unchecked,
                format!(
                    "the core rules' ally tables do not name {}: whom it may ally with and its share of the points are not checked",
                    core.name
                ),
            )
            .at(file, army_span)
            .rule("allies", row.provenance),
        );
    }
    Some(row)
}

/// The core army as the ally rules see it.
struct Core<'a> {
    file: &'a SourceFile,
    core: &'a ArmyList,
    core_variant: Option<&'static Variant>,
    row: ListAllies,
    core_name: String,
}

/// What the ally rules count over the forces.
struct Tally {
    /// Points of the core army, with the forces that count as core.
    core_points: i64,
    core_percent: u32,
    real_allies: usize,
    sibling_allies: usize,
}

impl Core<'_> {
    /// An allied force of the core army's own list: another variant of the
    /// same book where the core army's variant takes it (another
    /// Craftworld, another Power), else cards that belong in the core army.
    fn own_book(
        &self,
        allied: &roster::Allied,
        list: &ArmyList,
        points: i64,
        variant: Option<&'static Variant>,
        tally: &mut Tally,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        let (file, core_variant, core_name) = (self.file, self.core_variant, &self.core_name);
        let sibling = variant
            .filter(|v| core_variant.is_some_and(|c| c.name != v.name && c.siblings.contains(&v.name)));
        if let Some(v) = sibling {
            tally.real_allies += 1;
            tally.sibling_allies += 1;
            if let Some(p) = v.as_ally_core_percent {
                tally.core_percent = tally.core_percent.min(p);
            }
            let several = core_variant.is_some_and(|c| c.several_siblings);
            let most = if several && tally.sibling_allies == tally.real_allies {
                usize::MAX
            } else {
                self.row.most_allies()
            };
            if tally.real_allies > most {
                diagnostics.push(
                    Diagnostic::error(
                        Code::AllyRule,
                        format!("{core_name} takes one allied force; this is a second"),
                    )
                    .at(file, allied.army.span)
                    .rule("one-ally", self.row.provenance)
                    .hint("field the cards of one allied force only"),
                );
            }
            return;
        }
        diagnostics.push(
            Diagnostic::error(
                Code::AllyRule,
                match variant.filter(|v| !v.tags.is_empty()) {
                    Some(v) => format!(
                        "{core_name} may not take a force of {} from its own book as its ally",
                        v.name
                    ),
                    None => format!(
                        "{} is the core army's own list; its cards belong in the core army",
                        list.name
                    ),
                },
            )
            .at(file, allied.army.span)
            .rule("ally-other-list", WHY)
            .hint("write these cards above the `Allies:` line"),
        );
        tally.core_points += points;
    }

    /// An allied force of another list: a Standard list, one the core army
    /// admits, and no more of them than it takes.
    fn other_list(
        &self,
        allied: &roster::Allied,
        list: &ArmyList,
        variant: Option<&'static Variant>,
        real_allies: usize,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        let (file, row, core_name) = (self.file, &self.row, &self.core_name);
        let ally_variant = variant.filter(|v| !v.tags.is_empty());
        let kind = match ally_variant {
            Some(v) => Some(v.kind),
            None => ALLIES.iter().find(|r| r.list == list.id).map(|r| r.kind),
        };
        match kind {
            Some(ArmyKind::Standard) => {}
            Some(ArmyKind::Unlisted) | None => diagnostics.push(
                Diagnostic::warning(
                    Code::Unchecked,
                    format!(
                        "the core rules' ally tables do not say whether {} is a Standard list an army may ally with",
                        list.name
                    ),
                )
                .at(file, allied.army.span)
                .rule("ally-standard", "NetEpic Gold core rules 1.2.3 (lines 202-211): allies come from Standard lists"),
            ),
            Some(_) => diagnostics.push(
                Diagnostic::error(
                    Code::AllyRule,
                    match ally_variant {
                        Some(v) => format!(
                            "a force with {} cards is a Codex army, and only a Standard list can be an ally",
                            v.name
                        ),
                        None => format!(
                            "{} is not a Standard list, and only a Standard list can be an ally",
                            list.name
                        ),
                    },
                )
                .at(file, allied.army.span)
                .rule("ally-standard", "NetEpic Gold core rules 1.2.2-1.2.3 (lines 192-211): allies come from Standard lists"),
            ),
        }
        if !row.admits(&list.id) {
            diagnostics.push(
                Diagnostic::error(
                    Code::AllyRule,
                    format!("{core_name} may not take {} as allies", list.name),
                )
                .at(file, allied.army.span)
                .rule("ally-forbidden", row.provenance),
            );
        }
        if real_allies > row.most_allies() && row.kind != ArmyKind::Alone {
            diagnostics.push(
                Diagnostic::error(
                    Code::AllyRule,
                    format!("{core_name} takes one allied list; this is a second"),
                )
                .at(file, allied.army.span)
                .rule("one-ally", row.provenance)
                .hint("field the cards of one allied list only"),
            );
        }
    }

    /// The core army is the force with the most points, and holds at least
    /// its share of the army's.
    fn core_share(
        &self,
        army_span: Span,
        resolved: &[Resolved<'_>],
        tally: &Tally,
        summary: &ArmySummary,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        let (file, core, row, core_name) = (self.file, self.core, &self.row, &self.core_name);
        let (core_points, core_percent) = (tally.core_points, tally.core_percent);
        for &(allied, list, force, _) in resolved {
            if list.id != core.id && !row.core_with.contains(&list.id.as_str()) && force.points > core_points
            {
                diagnostics.push(
                    Diagnostic::error(
                        Code::AllyRule,
                        format!(
                            "the allied force of {} ({} points) has more points than the core army ({core_points}): the core army is the one with the most points",
                            force.list_name, force.points
                        ),
                    )
                    .at(file, allied.line)
                    .rule("core-most-points", WHY)
                    .hint("make the larger force the `Army:` and the other the `Allies:`"),
                );
            }
        }
        let total = summary.total.max(0);
        if total > 0 && core_points.saturating_mul(100) < i64::from(core_percent).saturating_mul(total) {
            let is_variant = self
                .core_variant
                .is_some_and(|v| !v.tags.is_empty() && v.kind == ArmyKind::Codex);
            diagnostics.push(
                Diagnostic::error(
                    Code::AllyRule,
                    format!(
                        "the core army holds {core_points} of the army's {total} points; {core_name} must hold at least {core_percent}%",
                    ),
                )
                .at(file, army_span)
                .rule(if is_variant { "codex-share" } else { "core-share" }, row.provenance)
                .hint("move points from the allies to the core army"),
            );
        }
    }
}

/// The army's break points and victory points, in games whose cards
/// carry them, with the victory points needed to win for its size.
pub fn victory(summary: &ArmySummary, game: GameId) -> Option<VictorySummary> {
    let to_win = game.game().victory_points_to_win?;
    let cards = summary.formations.iter().filter_map(|f| f.card);
    let mut out = VictorySummary {
        break_points: 0,
        victory_points: 0,
        incomplete: false,
        to_win: 0,
        army_size: summary
            .limit
            .unwrap_or_else(|| u32::try_from(summary.total.max(0)).unwrap_or(u32::MAX)),
    };
    for card in cards {
        match card.break_point {
            Some(n) => out.break_points += u64::from(n),
            None => out.incomplete = true,
        }
        match card.victory_points {
            Some(n) => out.victory_points += u64::from(n),
            None => out.incomplete = true,
        }
    }
    out.to_win = to_win(out.army_size);
    Some(out)
}
