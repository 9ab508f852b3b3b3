//! Name resolution: a roster's entries matched against one army list.
//!
//! Produces an [`Army`] (formations with their upgrades, counts and points)
//! and diagnostics for every name that matches nothing, matches too much, or
//! is not allowed where it stands. Costs are computed here; limits are
//! checked by `validate`.

use crate::catalogue::names::{self, Lookup};
use crate::catalogue::{ArmyList, Cost, FormationIdx, Selector, UnitIdx, UpgradeIdx};
use crate::diagnostic::{Code, Diagnostic};
use crate::roster::{Dialect, Entry, Item, Roster, Spanned};
use crate::rules::{Extreme, Facts, Measure, Reach};
use crate::source::Span;

mod lines;
mod snapfire;

pub use lines::{FormationLines, LineReader, NoLines, Part};

/// A roster resolved against its list.
#[derive(Debug)]
pub struct Army<'l> {
    pub list: &'l ArmyList,
    pub formations: Vec<ArmyFormation>,
    /// Sum of known points.
    pub total: i64,
    /// Whether any cost is missing from the sources, so `total` is a floor.
    pub total_incomplete: bool,
    pub counts_as: Vec<Declaration>,
}

/// One formation of the army (a `2x` entry gives two).
#[derive(Debug, Clone)]
pub struct ArmyFormation {
    pub formation: FormationIdx,
    pub upgrades: Vec<Taken>,
    pub points: i64,
    pub points_known: bool,
    /// Where the formation's name is written.
    pub name_span: Span,
    /// Net units by the list's unit table index.
    pub units: Vec<i64>,
    /// The group (squadron, battlegroup, commander) this formation is a
    /// member of: its index in `Army::formations`. A group may itself be a
    /// member of a group, [`MAX_GROUP_DEPTH`] levels at most.
    pub group: Option<usize>,
    /// The parts that the game's own lines under it make of it
    /// ([`FormationLines`]; NetEpic Gold's titans of a card armed on
    /// lines of their own), in roster order. What they took is in
    /// `upgrades` too, for the formation's own rules and cost.
    pub parts: Vec<Part>,
    /// The formation is priced part by part ([`FormationLines::price`]):
    /// its cost is the parts' sum, and each part is worth its own cost.
    pub priced_by_parts: bool,
    /// Where the first item of the formation that names nothing it may be
    /// is written (an unknown or ambiguous upgrade): rules that could
    /// count it are not judged on this formation (`validate`).
    pub unread: Option<Span>,
}

/// How many levels groups nest: a Heresy commander holds battlegroups,
/// which hold detachments, and one level more is allowed. A group written
/// deeper is reported and its lines are not read.
pub const MAX_GROUP_DEPTH: usize = 3;

/// Whether formation `i` of `formations` is `ancestor` or sits inside it,
/// at any depth. Members come after their group, so the walk ends.
pub fn within(formations: &[ArmyFormation], mut i: usize, ancestor: usize) -> bool {
    loop {
        if i == ancestor {
            return true;
        }
        match formations.get(i).and_then(|f| f.group) {
            Some(parent) if parent < i => i = parent,
            _ => return false,
        }
    }
}

impl ArmyFormation {
    /// Whether `s` matches the formation itself (its id or tags, and any
    /// `with` condition on its upgrades).
    pub fn is(&self, s: &Selector) -> bool {
        s.formation(self.formation) && self.admits(s)
    }

    /// Whether `s` looks into this formation at all: `x in y` names it, and
    /// with `x with z` it took a `z`. A formation it does not admit
    /// contributes nothing, neither itself nor its upgrades.
    pub fn admits(&self, s: &Selector) -> bool {
        s.admits_formation(self.formation) && s.has_with(self.upgrades.iter().map(|t| t.upgrade))
    }

    /// `count(s)` over this formation alone: itself, plus its upgrades.
    pub fn count(&self, s: &Selector) -> i64 {
        // `admits` once (`is` would ask it again), then one pass over the
        // upgrades taken.
        if !self.admits(s) {
            return 0;
        }
        let mut n = i64::from(s.formation(self.formation));
        for t in &self.upgrades {
            if s.upgrade(t.upgrade) {
                n += i64::from(t.count);
            }
        }
        n
    }

    /// `units(s)` over this formation alone.
    pub fn units_of(&self, s: Option<&Selector>) -> i64 {
        if s.is_some_and(|s| !self.admits(s)) {
            return 0;
        }
        self.units
            .iter()
            .enumerate()
            .filter(|(unit, _)| s.is_none_or(|s| s.unit(*unit)))
            .map(|(_, n)| *n)
            .sum()
    }

    /// The entries (formation and upgrades, as `(is_upgrade, index)`) that
    /// `s` matches here, for `kinds(s)`.
    pub fn kinds(&self, s: Option<&Selector>, out: &mut Vec<(bool, usize)>) {
        let Some(s) = s else {
            out.push((false, self.formation));
            out.extend(self.upgrades.iter().map(|t| (true, t.upgrade)));
            return;
        };
        if !self.admits(s) {
            return;
        }
        if self.is(s) {
            out.push((false, self.formation));
        }
        out.extend(
            self.upgrades
                .iter()
                .filter(|t| s.upgrade(t.upgrade))
                .map(|t| (true, t.upgrade)),
        );
    }
}

/// One formation's own counts, for costs that depend on what it took
/// (`points_when`). Points are not available: the cost is part of them.
struct OwnTally<'a>(&'a ArmyFormation);

impl Facts<Selector> for OwnTally<'_> {
    fn measure(&self, _reach: Reach, m: Measure, s: Option<&Selector>) -> i64 {
        match (m, s) {
            (Measure::Count, Some(s)) => self.0.count(s),
            (Measure::Count, None) => 1,
            (Measure::Units, s) => self.0.units_of(s),
            (Measure::Kinds, s) => {
                let mut kinds = Vec::new();
                self.0.kinds(s, &mut kinds);
                kinds.sort_unstable();
                kinds.dedup();
                kinds.len() as i64
            }
            // Refused when the list loads (`points_when` may not use points).
            (Measure::Points, _) => 0,
        }
    }

    fn across(&self, _e: Extreme, m: Measure, s: Option<&Selector>) -> i64 {
        self.measure(Reach::Local, m, s)
    }

    fn limit(&self) -> i64 {
        0
    }
}

/// An upgrade taken by a formation, all mentions added up.
#[derive(Debug, Clone)]
pub struct Taken {
    pub upgrade: UpgradeIdx,
    pub count: u32,
    /// Where each mention is written.
    pub spans: Vec<Span>,
}

/// A `Counts as:` declaration, resolved as far as the list allows.
#[derive(Debug, Clone)]
pub struct Declaration {
    pub model: Spanned<String>,
    pub target: Spanned<String>,
    /// The formation the target names, if it names one.
    pub formation: Option<FormationIdx>,
    /// The upgrade the target names, if it names one.
    pub upgrade: Option<UpgradeIdx>,
}

/// `roster` resolved against `list`, with the lines its game reads under a
/// formation itself (`lines`, from the game's ruleset).
pub fn resolve<'l>(
    roster: &Roster,
    list: &'l ArmyList,
    lines: &dyn FormationLines,
) -> (Army<'l>, Vec<Diagnostic>) {
    let reread = whole_names(roster, list);
    let roster = reread.as_ref().unwrap_or(roster);
    let snapfire_read = snapfire::reread(roster, list);
    let roster = snapfire_read.as_ref().unwrap_or(roster);
    let mut resolver = Resolver {
        roster,
        list,
        lines,
        diagnostics: Vec::new(),
        unread: Vec::new(),
    };
    let mut formations = Vec::new();
    for entry in &roster.entries {
        resolver.entry(entry, &mut formations, None, 0);
    }
    let counts_as = roster.counts_as.iter().map(|c| resolver.declaration(c)).collect();
    let total = formations.iter().map(|f: &ArmyFormation| f.points).sum();
    let total_incomplete = formations.iter().any(|f| !f.points_known);
    (
        Army {
            list,
            formations,
            total,
            total_incomplete,
            counts_as,
        },
        resolver.diagnostics,
    )
}

struct Resolver<'r, 'l> {
    roster: &'r Roster,
    list: &'l ArmyList,
    /// The lines the game reads under a formation itself.
    lines: &'r dyn FormationLines,
    diagnostics: Vec<Diagnostic>,
    /// Where each item that names no upgrade is written, in reading order.
    unread: Vec<Span>,
}

impl Resolver<'_, '_> {
    /// An error pointing into the roster.
    fn error(&self, code: Code, message: String, span: Span) -> Diagnostic {
        Diagnostic::error(code, message).at(&self.roster.file, span)
    }

    /// Resolves one entry into `out`. Returns whether every part of it was
    /// read: a stated cost is compared only then, since a cost computed
    /// without the part that could not be read is not the entry's cost.
    /// `depth` is how many group lines enclose it in the text, admitted or
    /// not.
    fn entry(
        &mut self,
        entry: &Entry,
        out: &mut Vec<ArmyFormation>,
        parent: Option<usize>,
        depth: usize,
    ) -> bool {
        self.entry_as(entry, out, parent, depth, None)
    }

    /// [`Self::entry`], with the upgrade each item names given (a Snapfire
    /// export's reading chosen by its cost), or `None` to look them up.
    fn entry_as(
        &mut self,
        entry: &Entry,
        out: &mut Vec<ArmyFormation>,
        parent: Option<usize>,
        depth: usize,
        chosen: Option<&[Option<UpgradeIdx>]>,
    ) -> bool {
        let list = self.list;
        let name = &entry.item.name;
        let Some(formation) = self.formation_named(name) else {
            return false;
        };
        if entry.item.count == 0 {
            self.diagnostics.push(
                Diagnostic::warning(Code::ParseError, "a count of 0 adds nothing")
                    .at(&self.roster.file, entry.item.span),
            );
            return true;
        }
        if list.formations[formation].group.is_some() {
            return self.group(entry, formation, out, parent, depth);
        }
        let parent = match parent {
            Some(group) => {
                let spec = list.formations[out[group].formation].group.as_ref();
                if spec.is_some_and(|g| g.admits(formation)) {
                    Some(group)
                } else {
                    let group_name = list.formations[out[group].formation].name.to_lowercase();
                    let ship = &list.formations[formation].name;
                    let d = self.error(
                        Code::BadNesting,
                        format!("{ship} cannot be part of this {group_name}"),
                        name.span,
                    );
                    self.diagnostics
                        .push(d.hint(format!("give {ship} a line of its own")));
                    // Counted as if written on its own line, so that the
                    // points and the other rules still see it.
                    self.grouped_alone(formation, name.span, out)
                }
            }
            // A ship that always flies in a squadron, written alone, is a
            // squadron of its own: `4x Sword` is four Swords in one squadron.
            None => self.grouped_alone(formation, name.span, out),
        };

        let mut taken: Vec<Taken> = Vec::new();
        let mut read_whole = true;
        let unread_from = self.unread.len();
        let skip_until = self.snapfire_units_end(entry, formation);
        let contents = self.own_units_written(entry, formation);
        let chosen = match chosen {
            Some(chosen) => chosen.to_vec(),
            None => self.snapfire_reading(entry, formation),
        };
        for (i, item) in entry
            .upgrades
            .iter()
            .enumerate()
            .filter(|(i, item)| item.span.end > skip_until && *i >= contents)
        {
            read_whole &= match chosen.get(i).copied().flatten() {
                Some(upgrade) => self.take(item, formation, upgrade, &mut taken),
                None => self.upgrade(item, formation, &mut taken),
            };
        }
        let mut parts = self.game_lines(entry, formation, &mut taken, &mut read_whole);
        read_whole &= self.upgrade_lines(entry, formation, &mut taken);

        let f = &list.formations[formation];
        let mut points = i64::from(f.points.unwrap_or(0));
        let mut points_known = f.points.is_some();
        let mut units = vec![0i64; list.units.len()];
        for &(unit, count) in &f.units {
            units[unit] += i64::from(count);
        }
        // The formation as written, for costs that depend on what it took
        // (`cost_when`); only made when a taken upgrade has such a cost.
        let own = taken
            .iter()
            .any(|t| !list.upgrades[t.upgrade].cost_when.is_empty())
            .then(|| ArmyFormation {
                formation,
                upgrades: taken.clone(),
                points: 0,
                points_known: true,
                name_span: name.span,
                units: units.clone(),
                group: parent,
                parts: Vec::new(),
                priced_by_parts: false,
                unread: None,
            });
        for t in &taken {
            let u = &list.upgrades[t.upgrade];
            let cost = match &own {
                Some(own) => cost_for(u, own),
                None => u.cost.as_ref(),
            };
            match cost {
                Some(cost) => points += cost.of(t.count),
                None => points_known = false,
            }
            for &(unit, count) in &u.adds {
                units[unit] += i64::from(count) * i64::from(t.count);
            }
            for &(unit, count) in &u.replaces {
                units[unit] -= i64::from(count) * i64::from(t.count);
            }
        }

        points = round_up(points, f.round_up_to);
        let priced_by_parts = self.price_parts(entry, formation, &mut parts, &mut points);

        // Transports that fill the formation come after every other unit is
        // counted, since what they carry depends on the rest.
        self.fill_transports(entry, formation, &taken, &mut units);

        if read_whole && points_known {
            self.stated_cost(entry, formation, points);
        }

        // `2x` gives copies; the last (nearly always the only one) takes
        // what was worked out rather than a copy.
        let one = ArmyFormation {
            formation,
            upgrades: taken,
            points,
            points_known,
            name_span: name.span,
            units,
            group: parent,
            parts,
            priced_by_parts,
            unread: self.unread.get(unread_from).copied(),
        };
        for _ in 1..entry.item.count {
            out.push(one.clone());
        }
        out.push(one);
        read_whole
    }

    /// The formation a roster entry names, or `None` with the error that
    /// it names none or several.
    fn formation_named(&mut self, name: &Spanned<String>) -> Option<FormationIdx> {
        let list = self.list;
        match list.formation_names.lookup(&name.value) {
            Lookup::Found(f) => Some(f),
            Lookup::Ambiguous(candidates) => {
                let names: Vec<String> = candidates
                    .iter()
                    .map(|&f| format!("`{}`", list.formations[f].name))
                    .collect();
                let d = self.error(
                    Code::AmbiguousName,
                    format!("`{}` could be any of {}", name.value, names.join(", ")),
                    name.span,
                );
                self.diagnostics
                    .push(d.hint("write the full name of the formation you mean"));
                None
            }
            Lookup::NotFound => {
                self.unknown_formation(name);
                None
            }
        }
    }

    /// Transports that fill the formation (`fills`): as many as carry the
    /// rest of its units, added to them; a roster that writes another
    /// number of them is told the one needed.
    fn fill_transports(
        &mut self,
        entry: &Entry,
        formation: FormationIdx,
        taken: &[Taken],
        units: &mut [i64],
    ) {
        let list = self.list;
        let f = &list.formations[formation];
        for t in taken {
            let Some(fills) = &list.upgrades[t.upgrade].fills else {
                continue;
            };
            let needed = fills.needed(units);
            units[fills.unit] += needed;
            let written = written_count(entry, t.upgrade, list);
            if let Some(written) = written.filter(|&n| i64::from(n) != needed) {
                let upgrade = &list.upgrades[t.upgrade];
                let d = Diagnostic::error(
                    Code::ListRule,
                    format!(
                        "{} takes exactly as many {} as it needs to be carried: {needed}, not {written}",
                        f.name, upgrade.name
                    ),
                )
                .at(&self.roster.file, t.spans[0])
                .rule("exact-transport", fills.provenance.clone())
                .fix(if needed == 0 {
                    format!("remove {}", upgrade.name)
                } else {
                    crate::plural::count(needed, &upgrade.name)
                });
                self.diagnostics.push(d);
            }
        }
    }

    /// The lines under a formation that are not the game's own
    /// ([`FormationLines`]): its upgrades, one a line. Whether every one
    /// was read.
    fn upgrade_lines(&mut self, entry: &Entry, formation: FormationIdx, taken: &mut Vec<Taken>) -> bool {
        let list = self.list;
        let lines = self.lines;
        let mut read_whole = true;
        for child in entry.children.iter().filter(|c| !lines.owns(list, formation, c)) {
            if !child.upgrades.is_empty() || !child.children.is_empty() || child.cost.is_some() {
                let d = self.error(
                    Code::BadNesting,
                    format!(
                        "in {} lists, lines under a formation are its upgrades, one a line",
                        list.game.title()
                    ),
                    child.line_span,
                );
                self.diagnostics.push(d);
                read_whole = false;
                continue;
            }
            read_whole &= self.upgrade(&child.item, formation, taken);
        }
        read_whole
    }

    /// An entry's stated cost `[N]` against the one worked out, `points`
    /// a formation.
    fn stated_cost(&mut self, entry: &Entry, formation: FormationIdx, points: i64) {
        let Some(stated) = &entry.cost else {
            return;
        };
        let expected = points * i64::from(entry.item.count);
        if i64::from(stated.value) != expected {
            let each = if entry.item.count > 1 {
                format!(" ({} formations at {points})", entry.item.count)
            } else {
                String::new()
            };
            let what = format!("{} costs {expected}{each}", self.list.formations[formation].name);
            self.cost_mismatch(stated, &what, expected);
        }
    }

    /// A stated cost `[N]` that differs from the computed one.
    fn cost_mismatch(&mut self, stated: &Spanned<u32>, what: &str, expected: i64) {
        let d = self.error(
            Code::CostMismatch,
            format!("the stated cost is {} but {what}", stated.value),
            stated.span,
        );
        self.diagnostics.push(
            d.label(format!("computed: {expected}"))
                .fix(format!("[{expected}]")),
        );
    }

    /// A formation written on its own line that always belongs to a group
    /// (an escort) gets a group of its own; others stand alone.
    fn grouped_alone(
        &self,
        formation: FormationIdx,
        span: Span,
        out: &mut Vec<ArmyFormation>,
    ) -> Option<usize> {
        self.list.formations[formation].grouped_in.map(|g| {
            out.push(self.group_formation(g, span));
            out.len() - 1
        })
    }

    /// A group formation (a squadron, a Heresy commander, a company card)
    /// that members join, with the units it holds itself (a squadron none,
    /// a Heresy commander its stand, a NetEpic company card its companies
    /// of troops).
    fn group_formation(&self, formation: FormationIdx, span: Span) -> ArmyFormation {
        let f = &self.list.formations[formation];
        let mut units = vec![0; self.list.units.len()];
        for &(unit, count) in &f.units {
            if let Some(slot) = units.get_mut(unit) {
                *slot += i64::from(count);
            }
        }
        ArmyFormation {
            formation,
            upgrades: Vec::new(),
            points: i64::from(f.points.unwrap_or(0)),
            points_known: f.points.is_some(),
            name_span: span,
            units,
            group: None,
            parts: Vec::new(),
            priced_by_parts: false,
            unread: None,
        }
    }

    /// A group entry (`Escort squadron`, a commander, a battlegroup) and the
    /// member formations indented under it, groups among them if it admits
    /// them.
    fn group(
        &mut self,
        entry: &Entry,
        formation: FormationIdx,
        out: &mut Vec<ArmyFormation>,
        parent: Option<usize>,
        depth: usize,
    ) -> bool {
        let (list, lines) = (self.list, self.lines);
        let f = &list.formations[formation];
        // A group inside a group it may not join is reported; it and its
        // members still count, as if it were written without indentation.
        let parent = parent.filter(|&p| {
            let outer = &list.formations[out[p].formation];
            let admitted = outer.group.as_ref().is_some_and(|g| g.admits(formation));
            if !admitted {
                let d = self.error(
                    Code::BadNesting,
                    format!(
                        "`{}` is a group and cannot sit inside this {}",
                        f.name,
                        outer.name.to_lowercase()
                    ),
                    entry.item.name.span,
                );
                self.diagnostics.push(d.hint("write it without indentation"));
            }
            admitted
        });
        if entry.item.count > 1 {
            let d = self.error(
                Code::BadNesting,
                format!(
                    "write each {} on a line of its own, with its members under it",
                    f.name
                ),
                entry.item.span,
            );
            self.diagnostics.push(d);
        }
        let mut group = self.group_formation(formation, entry.item.name.span);
        group.group = parent;
        let mut taken = Vec::new();
        let mut read_whole = true;
        let unread_from = self.unread.len();
        for item in &entry.upgrades {
            read_whole &= self.upgrade(item, formation, &mut taken);
        }
        let mut parts = self.game_lines(entry, formation, &mut taken, &mut read_whole);
        group.unread = self.unread.get(unread_from).copied();
        for t in &taken {
            match cost_for(&list.upgrades[t.upgrade], &group) {
                Some(cost) => group.points += cost.of(t.count),
                None => group.points_known = false,
            }
        }
        group.points = round_up(group.points, f.round_up_to);
        group.priced_by_parts = self.price_parts(entry, formation, &mut parts, &mut group.points);
        group.parts = parts;
        group.upgrades = taken;
        out.push(group);
        let index = out.len() - 1;
        // A group that may be empty (`min: 0`, a NetEpic company card with
        // no support cards) is legal bare; the group-size rule judges the rest.
        let may_be_empty = f.group.as_ref().is_some_and(|g| g.min == 0);
        if entry.children.is_empty() && !may_be_empty {
            let members = if list.game.game().fleet {
                "ships"
            } else {
                "members"
            };
            let d = self.error(
                Code::BadNesting,
                format!(
                    "this {} has no members: indent its {members} under it",
                    f.name.to_lowercase()
                ),
                entry.item.name.span,
            );
            self.diagnostics.push(d);
        }
        for child in entry.children.iter().filter(|c| !lines.owns(list, formation, c)) {
            // Groups nest a bounded number of levels deep in the text, so a
            // hostile roster cannot make this recursion deep: a group past
            // the bound is reported and not read.
            let is_group = |e: &Entry| matches!(list.formation_names.lookup(&e.item.name.value), Lookup::Found(f) if list.formations[f].group.is_some());
            if depth + 1 >= MAX_GROUP_DEPTH && is_group(child) {
                let d = self.error(
                    Code::BadNesting,
                    format!(
                        "`{}` would be a group {} levels deep; groups nest at most {MAX_GROUP_DEPTH} levels, so its lines are not read",
                        child.item.name.value,
                        depth + 2
                    ),
                    child.item.name.span,
                );
                self.diagnostics
                    .push(d.hint("write it with less indentation, under a group that admits it"));
                read_whole = false;
                continue;
            }
            read_whole &= self.entry(child, out, Some(index), depth + 1);
        }
        if let Some(stated) = entry.cost.as_ref().filter(|_| read_whole) {
            let inside = (index..out.len()).filter(|&i| within(out, i, index));
            let known = inside.clone().all(|i| out[i].points_known);
            let expected = inside.map(|i| out[i].points).sum::<i64>();
            if known && i64::from(stated.value) != expected {
                let what = format!("the {} costs {expected}", f.name.to_lowercase());
                self.cost_mismatch(stated, &what, expected);
            }
        }
        read_whole
    }

    /// The parts the game's own lines under `entry` make of `formation`
    /// ([`FormationLines::read`]).
    fn game_lines(
        &mut self,
        entry: &Entry,
        formation: FormationIdx,
        taken: &mut Vec<Taken>,
        read_whole: &mut bool,
    ) -> Vec<Part> {
        let lines = self.lines;
        lines.read(
            &mut LineReader { resolver: self },
            entry,
            formation,
            taken,
            read_whole,
        )
    }

    /// The parts priced once the formation's cost is `points`
    /// ([`FormationLines::price`]); whether the formation is priced part
    /// by part.
    fn price_parts(
        &mut self,
        entry: &Entry,
        formation: FormationIdx,
        parts: &mut [Part],
        points: &mut i64,
    ) -> bool {
        let lines = self.lines;
        lines.price(
            &mut LineReader { resolver: self },
            entry,
            formation,
            parts,
            points,
        )
    }

    /// The upgrade each item of a Snapfire export names where a name may
    /// mean more than one (`snapfire_names`): of those the formation takes,
    /// the reading whose cost is the one the export states, else Snapfire's
    /// own order (a core item, always there, before the paid extra of the
    /// same name). Empty when no item needs it.
    fn snapfire_reading(&mut self, entry: &Entry, formation: FormationIdx) -> Vec<Option<UpgradeIdx>> {
        if self.roster.dialect != Dialect::Snapfire {
            return Vec::new();
        }
        let readings = snapfire::readings(entry, formation, self.list);
        let Some(first) = readings.first() else {
            return Vec::new();
        };
        let Some(stated) = entry.cost.as_ref().filter(|_| readings.len() > 1) else {
            return first.clone();
        };
        let costs = |reading: &&Vec<Option<UpgradeIdx>>| {
            let mut scratch = Resolver {
                roster: self.roster,
                list: self.list,
                lines: self.lines,
                diagnostics: Vec::new(),
                unread: Vec::new(),
            };
            let mut out = Vec::new();
            scratch.entry_as(entry, &mut out, None, 0, Some(reading));
            out.last().map(|f| f.points * i64::from(entry.item.count)) == Some(i64::from(stated.value))
        };
        readings.iter().find(costs).unwrap_or(first).clone()
    }

    /// Snapfire prints a formation's unit description before its upgrades;
    /// returns the offset where that description ends, if it is there.
    fn snapfire_units_end(&self, entry: &Entry, formation: FormationIdx) -> usize {
        let (Some(details), Some(units)) = (&entry.details, &self.list.formations[formation].snapfire_units)
        else {
            return 0;
        };
        let text = details.value.to_lowercase();
        let prefix = units.trim().to_lowercase();
        // The whole description, ending where an item ends (`2x Warhound
        // Class Titans` retyped is not Snapfire's `2x Warhound Class Titan`).
        let ends_an_item = |rest: &str| rest.trim_start().is_empty() || rest.trim_start().starts_with(',');
        match text.strip_prefix(prefix.as_str()) {
            Some(rest) if ends_an_item(rest) => details.span.start + prefix.len(),
            _ => 0,
        }
    }

    /// How many of an entry's leading items name the formation's own units
    /// with their counts, as a Snapfire export edited by hand does (`4
    /// Scouts`, `2x Warhound Class Titans`): Snapfire's unit description
    /// item by item, or a unit of the formation by its id or the
    /// formation's name. Such items are its contents, not upgrades.
    fn own_units_written(&self, entry: &Entry, formation: FormationIdx) -> usize {
        // After Snapfire's own description (skipped by its span), every
        // item is a pick: `4 Havocs` after a Havoc Company's `4 Havocs` is
        // Snapfire's paid pick, not the formation's units again.
        if entry.details.is_none() || self.snapfire_units_end(entry, formation) > 0 {
            return 0;
        }
        let f = &self.list.formations[formation];
        let described: Vec<(u32, &str)> = f
            .snapfire_units
            .as_deref()
            .map(|text| text.split(',').map(counted).collect())
            .unwrap_or_default();
        let single_unit = f.units.len() == 1;
        // What each item may stand for: a piece of the description, then
        // a unit of the formation; each stands for one item at most (a
        // paid `2 Nobz` after a Warband's own `2 Nobz` is an upgrade).
        let is_unit = |item: &Item, unit: UnitIdx| {
            names::same_thing(&item.name.value, &self.list.units[unit].replace('-', " "))
                || (single_unit
                    && std::iter::once(&f.name)
                        .chain(&f.aliases)
                        .any(|name| names::same_thing(&item.name.value, name)))
        };
        let stands_for = |item: &Item, slot: usize| {
            let count = if item.counted { item.count } else { 1 };
            match described.get(slot) {
                Some(&(n, name)) => n == count && names::same_thing(&item.name.value, name),
                None => {
                    f.units[slot - described.len()].1 == count
                        && is_unit(item, f.units[slot - described.len()].0)
                }
            }
        };
        let mut used = vec![false; described.len() + f.units.len()];
        entry
            .upgrades
            .iter()
            .take_while(|item| {
                let slots: Vec<usize> = (0..used.len()).filter(|&k| stands_for(item, k)).collect();
                let fresh = !slots.is_empty() && slots.iter().all(|&k| !used[k]);
                slots.iter().for_each(|&k| used[k] = true);
                fresh
            })
            .count()
    }

    fn unknown_formation(&mut self, name: &Spanned<String>) {
        let list = self.list;
        let mut d = Diagnostic::error(
            Code::UnknownFormation,
            format!(
                "{} has no {} called `{}`",
                list.name,
                list.game.entry_noun(),
                name.value
            ),
        )
        .at(&self.roster.file, name.span);
        // `Tactical Detachment, Rhinos`: a formation and its upgrades with
        // the colon left out (a name may hold commas, so it reads as one).
        let colon = name
            .value
            .split_once(',')
            .filter(|(head, _)| matches!(list.formation_names.lookup(head.trim()), Lookup::Found(_)));
        if let Some((head, rest)) = colon {
            let fixed = format!("{}: {}", head.trim(), rest.trim());
            d = d
                .label(format!(
                    "a colon goes after the {}: `{fixed}`",
                    list.game.entry_noun()
                ))
                .fix(fixed);
        } else if let Some(suggestion) = list.formation_names.suggest(&name.value) {
            d = d
                .label(format!("did you mean `{suggestion}`?"))
                .fix(suggestion.to_string());
        }
        if let Lookup::Found(u) = list.upgrade_names.lookup(&name.value) {
            d = d.hint(format!(
                "`{}` is an upgrade: write it after a formation, as in `Formation: {}`",
                list.upgrades[u].name, list.upgrades[u].name
            ));
        }
        d = d.hint(format!("`muster options {}` lists every formation", list.id));
        self.diagnostics.push(d);
    }

    /// Reads one upgrade of a formation into `taken`; false when it could
    /// not be (unknown, ambiguous or not allowed), which is reported here.
    fn upgrade(&mut self, item: &Item, formation: FormationIdx, taken: &mut Vec<Taken>) -> bool {
        match self.upgrade_named(item, formation) {
            Some(upgrade) => self.take(item, formation, upgrade, taken),
            None => {
                self.unread.push(item.name.span);
                false
            }
        }
    }

    /// The upgrade an item names, or `None` (reported here) when it names
    /// none or could be several the formation takes.
    fn upgrade_named(&mut self, item: &Item, formation: FormationIdx) -> Option<UpgradeIdx> {
        let list = self.list;
        let f = &list.formations[formation];
        let upgrade = match list.upgrade_names.lookup(&item.name.value) {
            Lookup::Found(u) => u,
            Lookup::Ambiguous(candidates) => {
                let allowed: Vec<UpgradeIdx> = candidates
                    .iter()
                    .copied()
                    .filter(|u| f.upgrades.contains(u))
                    .collect();
                if let [one] = allowed.as_slice() {
                    *one
                } else {
                    let names: Vec<String> = candidates
                        .iter()
                        .map(|&u| format!("`{}`", list.upgrades[u].name))
                        .collect();
                    let d = self.error(
                        Code::AmbiguousName,
                        format!("`{}` could be any of {}", item.name.value, names.join(", ")),
                        item.name.span,
                    );
                    self.diagnostics.push(d);
                    return None;
                }
            }
            Lookup::NotFound => {
                let allowed = f.upgrades.iter().flat_map(|&u| {
                    std::iter::once(list.upgrades[u].name.as_str())
                        .chain(list.upgrades[u].aliases.iter().map(String::as_str))
                });
                let suggestion = crate::diagnostic::nearest(&item.name.value, allowed)
                    .or_else(|| list.upgrade_names.suggest(&item.name.value));
                let mut d = Diagnostic::error(
                    Code::UnknownUpgrade,
                    format!("{} has no upgrade called `{}`", list.name, item.name.value),
                )
                .at(&self.roster.file, item.name.span);
                if let Some(s) = suggestion {
                    d = d.label(format!("did you mean `{s}`?")).fix(s.to_string());
                }
                if let Lookup::Found(other) = list.formation_names.lookup(&item.name.value) {
                    d = d.hint(format!(
                        "`{}` is a formation: give it a line of its own",
                        list.formations[other].name
                    ));
                }
                self.diagnostics.push(d.hint(allowed_hint(list, formation)));
                return None;
            }
        };
        Some(upgrade)
    }

    /// Takes `upgrade` as `item` wrote it into `taken`; false when the
    /// formation may not take it (reported here).
    fn take(
        &mut self,
        item: &Item,
        formation: FormationIdx,
        upgrade: UpgradeIdx,
        taken: &mut Vec<Taken>,
    ) -> bool {
        let list = self.list;
        let f = &list.formations[formation];
        if !f.upgrades.contains(&upgrade) {
            if self.no_effect(item, formation, upgrade) {
                return true;
            }
            let d = Diagnostic::error(
                Code::UpgradeNotAllowed,
                format!("{} may not take {}", f.name, list.upgrades[upgrade].name),
            )
            .at(&self.roster.file, item.name.span)
            .hint(allowed_hint(list, formation));
            self.diagnostics.push(d);
            return false;
        }
        // An option that fills the formation with transports is taken once,
        // whatever number of vehicles is written; the number is checked apart.
        let count = if list.upgrades[upgrade].fills.is_some() {
            1
        } else {
            item.count
        };
        match taken.iter_mut().find(|t| t.upgrade == upgrade) {
            Some(t) => {
                t.count = t.count.saturating_add(count);
                t.spans.push(item.span);
            }
            None => taken.push(Taken {
                upgrade,
                count,
                spans: vec![item.span],
            }),
        }
        true
    }

    /// An upgrade a Snapfire export writes on a formation that does not
    /// take it, which would cost nothing and add nothing there (the
    /// allegiance Snapfire gives every Black Legion formation, the Daemon
    /// Pool's too): read, with a note that it has no effect.
    fn no_effect(&mut self, item: &Item, formation: FormationIdx, upgrade: UpgradeIdx) -> bool {
        if self.roster.dialect != Dialect::Snapfire
            || !no_effect_on(self.list, formation, upgrade, item.count)
        {
            return false;
        }
        let u = &self.list.upgrades[upgrade];
        let f = &self.list.formations[formation].name;
        let d = Diagnostic::note(
            Code::UpgradeNotAllowed,
            format!(
                "{} has no effect on {f}: Snapfire writes it there, but {f} does not take it",
                u.name
            ),
        )
        .at(&self.roster.file, item.name.span);
        self.diagnostics.push(d);
        true
    }

    fn declaration(&mut self, c: &crate::roster::CountsAs) -> Declaration {
        let list = self.list;
        let formation = match list.formation_names.lookup(&c.target.value) {
            Lookup::Found(f) => Some(f),
            _ => None,
        };
        let upgrade = match list.upgrade_names.lookup(&c.target.value) {
            Lookup::Found(u) => Some(u),
            _ => None,
        };
        let unit = list.units.iter().any(|id| {
            crate::catalogue::names::normalize(id) == crate::catalogue::names::normalize(&c.target.value)
        });
        if formation.is_none() && upgrade.is_none() && !unit {
            let suggestion = list
                .formation_names
                .suggest(&c.target.value)
                .or_else(|| list.upgrade_names.suggest(&c.target.value));
            let mut d = Diagnostic::error(
                Code::CountsAs,
                format!(
                    "`{}` is not an entry of {}: a model can only count as something in the list",
                    c.target.value, list.name
                ),
            )
            .at(&self.roster.file, c.target.span);
            if let Some(s) = suggestion {
                d = d.label(format!("did you mean `{s}`?")).fix(s.to_string());
            }
            self.diagnostics.push(d);
        }
        Declaration {
            model: c.model.clone(),
            target: c.target.clone(),
            formation,
            upgrade,
        }
    }
}

/// An upgrade's price as a formation is offered it, before it takes
/// anything else (what `muster options` and `muster new` print).
/// Whether `count` of `upgrade` would change nothing on `formation`: the
/// formation does not take it, it costs nothing, and it adds nothing but
/// units the formation has already (what a Snapfire export or link may
/// carry there: the allegiance on the Black Legion's Daemon Pool, the
/// White Scars' four Scouts of a Scout formation; read with a note).
pub fn no_effect_on(list: &ArmyList, formation: FormationIdx, upgrade: UpgradeIdx, count: u32) -> bool {
    let u = &list.upgrades[upgrade];
    let f = &list.formations[formation];
    let free = match &u.cost {
        Some(Cost::Each(each)) => *each == 0,
        Some(Cost::Successive(costs)) => costs.iter().all(|&c| c == 0),
        None => false,
    };
    let has = |unit: UnitIdx, n: u32| {
        f.units
            .iter()
            .any(|&(own, had)| own == unit && u64::from(had) >= u64::from(n) * u64::from(count))
    };
    let own_units = u.adds.iter().all(|&(unit, n)| has(unit, n));
    let inert = own_units && u.replaces.is_empty() && u.fills.is_none() && u.cost_when.is_empty();
    free && inert && !f.upgrades.contains(&upgrade)
}

pub fn offered_cost(list: &ArmyList, formation: FormationIdx, upgrade: UpgradeIdx) -> Option<&Cost> {
    let bare = ArmyFormation {
        formation,
        upgrades: Vec::new(),
        points: 0,
        points_known: true,
        name_span: Span::default(),
        units: vec![0; list.units.len()],
        group: None,
        parts: Vec::new(),
        priced_by_parts: false,
        unread: None,
    };
    cost_for(&list.upgrades[upgrade], &bare)
}

/// The formation's initiative: the first `initiative_when` whose condition
/// holds over what it took, else its own.
pub fn initiative_of(list: &ArmyList, formation: &ArmyFormation) -> Option<String> {
    let def = &list.formations[formation.formation];
    let tally = OwnTally(formation);
    def.initiative_when
        .iter()
        .find(|(cond, _)| cond.eval(&tally).unwrap_or(false))
        .map_or(def.initiative.clone(), |(_, initiative)| initiative.clone())
}

/// A formation's total rounded up to a multiple of `to` (a NetEpic titan's
/// hull and weapons to 50 points).
pub fn round_up(points: i64, to: Option<u32>) -> i64 {
    match to.map(i64::from).filter(|&n| n > 0) {
        Some(n) if points > 0 => ((points - 1) / n + 1).saturating_mul(n),
        _ => points,
    }
}

/// An upgrade's cost for one formation: the first `points_when` whose
/// condition holds over it, else its own (`None`: missing from the sources).
fn cost_for<'u>(upgrade: &'u crate::catalogue::Upgrade, formation: &ArmyFormation) -> Option<&'u Cost> {
    let tally = OwnTally(formation);
    upgrade
        .cost_when
        .iter()
        .find(|(cond, _)| cond.eval(&tally).unwrap_or(false))
        .map_or(upgrade.cost.as_ref(), |(_, cost)| cost.as_ref())
}

/// The count written for an upgrade, if the roster wrote one (`3 Rhinos`).
fn written_count(entry: &Entry, upgrade: UpgradeIdx, list: &ArmyList) -> Option<u32> {
    entry
        .upgrades
        .iter()
        .chain(entry.children.iter().map(|c| &c.item))
        .filter(|item| item.counted)
        .find(|item| matches!(list.upgrade_names.lookup(&item.name.value), Lookup::Found(u) if u == upgrade))
        .map(|item| item.count)
}

fn allowed_hint(list: &ArmyList, formation: FormationIdx) -> String {
    let f = &list.formations[formation];
    if f.upgrades.is_empty() {
        format!("{} takes no upgrades", f.name)
    } else {
        let names: Vec<&str> = f
            .upgrades
            .iter()
            .map(|&u| list.upgrades[u].name.as_str())
            .collect();
        format!("{} may take: {}", f.name, names.join(", "))
    }
}

/// A name may start with a number (`45cm batteries`, `3 Support Weapon
/// Platforms`): the roster grammar reads that number as a count. Where the
/// rest of the name is not a name of the list but the item as written is,
/// the item is read whole, once. `None` when nothing needs rereading, which
/// is almost always, so the roster is copied only when something does.
fn whole_names(roster: &Roster, list: &ArmyList) -> Option<Roster> {
    use crate::catalogue::names::NameIndex;
    fn whole<'t>(item: &Item, text: &'t str, names: &NameIndex) -> Option<&'t str> {
        if !item.counted || !matches!(names.lookup(&item.name.value), Lookup::NotFound) {
            return None;
        }
        let whole = text.get(item.span.start..item.span.end)?.trim();
        (!matches!(names.lookup(whole), Lookup::NotFound)).then_some(whole)
    }
    // An indented line may be a member formation or an upgrade of the
    // line above; which one is decided later, so either kind of name counts.
    fn entry_name<'t>(item: &Item, text: &'t str, list: &ArmyList) -> Option<&'t str> {
        // Only a name read with a count can need rereading (`whole`).
        if !item.counted {
            return None;
        }
        let both = |names: &NameIndex| matches!(names.lookup(&item.name.value), Lookup::NotFound);
        if !both(&list.formation_names) || !both(&list.upgrade_names) {
            return None;
        }
        whole(item, text, &list.formation_names).or_else(|| whole(item, text, &list.upgrade_names))
    }
    fn any(entries: &[Entry], text: &str, list: &ArmyList) -> bool {
        entries.iter().any(|e| {
            entry_name(&e.item, text, list).is_some()
                || e.upgrades
                    .iter()
                    .any(|u| whole(u, text, &list.upgrade_names).is_some())
                || any(&e.children, text, list)
        })
    }
    fn reread(item: &mut Item, name: Option<&str>) {
        if let Some(name) = name {
            item.name.value = name.to_string();
            item.name.span = item.span;
            item.count = 1;
            item.counted = false;
        }
    }
    fn walk(entries: &mut [Entry], text: &str, list: &ArmyList) {
        for entry in entries {
            let name = entry_name(&entry.item, text, list);
            reread(&mut entry.item, name);
            for upgrade in &mut entry.upgrades {
                let name = whole(upgrade, text, &list.upgrade_names);
                reread(upgrade, name);
            }
            walk(&mut entry.children, text, list);
        }
    }
    let text = roster.file.text();
    if !any(&roster.entries, text, list) {
        return None;
    }
    let mut copy = roster.clone();
    walk(&mut copy.entries, text, list);
    Some(copy)
}

/// `2x Warhound Class Titan`, `4 Scouts`, `One Ark` or `Farseer` as a count
/// and a name.
fn counted(text: &str) -> (u32, &str) {
    let text = text.trim();
    let (first, rest) = text.split_once(' ').unwrap_or((text, ""));
    let number = first.strip_suffix(['x', 'X']).unwrap_or(first);
    match (number.parse::<u32>(), first.to_ascii_lowercase().as_str()) {
        (Ok(n), _) => (n, rest.trim()),
        (_, "one") => (1, rest.trim()),
        (_, "two") => (2, rest.trim()),
        (_, "three") => (3, rest.trim()),
        _ => (1, text),
    }
}
