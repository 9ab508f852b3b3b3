//! Validation: a resolved army checked against the points limit and every
//! constraint of its list.
//!
//! All findings are collected; nothing stops at the first. Where a rule is
//! broken, the diagnostic points at the roster entry that tipped it over
//! (the last one counted), with the others as secondary labels.

use crate::catalogue::{Constraint, RuleSeverity, Scope, Selector};
use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::resolve::{Army, ArmyFormation};
use crate::roster::Roster;
use crate::rules::{Compare, Cond, EvalError, Extreme, Facts, Measure, Num, Reach};
use crate::source::{SourceFile, Span};

mod held;

/// The points limit a roster is held to, and where it was written (`None`
/// when it comes from the event file rather than the roster).
#[derive(Debug, Clone, Copy)]
pub struct Limit {
    pub points: u32,
    pub span: Option<Span>,
    /// Where the limit comes from, for the words of an over-limit error.
    pub origin: LimitOrigin,
}

/// Who set a roster's points limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitOrigin {
    /// The roster's own `Points:` line (or a scenario's cap of it).
    Roster,
    /// The event file's `points`.
    Event,
    /// The caller's `--points N`.
    Given,
    /// Worked out from the total of a Snapfire export, which states no limit.
    Assumed,
}

/// Checks an army against its list's constraints and any extra
/// `restrictions` (an event's); returns the diagnostics.
/// The fleet's attack rating: the first `attack_rating_when` whose
/// condition the army meets, else the list's own (`None`: not in the
/// sources).
pub fn attack_rating(army: &Army<'_>, limit: Option<Limit>) -> Option<u8> {
    let facts = ArmyFacts {
        army,
        limit: limit.map_or(army.total, |l| i64::from(l.points)),
    };
    army.list
        .attack_rating_when
        .iter()
        .find(|(cond, _)| cond.eval(&facts).unwrap_or(false))
        .map_or(army.list.attack_rating, |(_, rating)| *rating)
}

/// Rules from outside the list that a roster is also held to.
#[derive(Debug, Default, Clone, Copy)]
pub struct Extra<'a> {
    /// An event's restrictions.
    pub event: &'a [Constraint],
    /// A scenario's rules for the roster's side.
    pub scenario: &'a [Constraint],
    /// Ids of list constraints the scenario sets aside.
    pub waived: &'a [String],
}

/// The list's figures for the army (a hive fleet's command-card hand), by
/// name; a figure that cannot be worked out (an overflow) is left out.
pub fn figures(army: &Army<'_>, limit: Option<Limit>) -> Vec<(String, i64)> {
    let facts = ArmyFacts {
        army,
        limit: limit.map_or(army.total, |l| i64::from(l.points)),
    };
    army.list
        .figures
        .iter()
        .filter_map(|f| f.value.eval(&facts).ok().map(|v| (f.name.clone(), v)))
        .collect()
}

/// A share rule of the list as a budget: how much the army uses of what
/// the rule allows (a third of the points, one card per 500 points, two
/// Support per Company), for the builder's bars.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Budget {
    /// The rule's id (`one-third`).
    pub id: String,
    /// The rule, in the list's words.
    pub message: String,
    pub used: i64,
    pub allowed: i64,
    /// Whether the amounts are points (else counts).
    pub points: bool,
}

/// The list's army rules of the form `X <= Y` (or `k * X <= Y`, or
/// `Y >= X`) where `Y` depends on the army or its limit: the share rules.
/// A rule with a fixed allowance (`count(x) <= 1`) is not a budget.
pub fn budgets(army: &Army<'_>, limit: Option<u32>) -> Vec<Budget> {
    let facts = ArmyFacts {
        army,
        limit: limit.map_or(army.total, i64::from),
    };
    let mut out = Vec::new();
    for c in army.list.constraints.iter().filter(|c| c.scope == Scope::Army) {
        let Cond::Compare(lhs, op, rhs) = &c.cond else {
            continue;
        };
        let (small, big, strict) = match op {
            Compare::Le => (lhs, rhs, false),
            Compare::Lt => (lhs, rhs, true),
            Compare::Ge => (rhs, lhs, false),
            Compare::Gt => (rhs, lhs, true),
            _ => continue,
        };
        let (small, factor) = match &**small {
            Num::Mul(k, x) | Num::Mul(x, k) if matches!(**k, Num::Int(n) if n > 0) => {
                (&**x, if let Num::Int(n) = **k { n } else { 1 })
            }
            other => (other, 1),
        };
        if is_fixed(big) || is_fixed(small) {
            continue;
        }
        let (Ok(used), Ok(room)) = (small.eval(&facts), big.eval(&facts)) else {
            continue;
        };
        let allowed = room.div_euclid(factor) - i64::from(strict && room % factor == 0);
        out.push(Budget {
            id: c.id.clone(),
            message: c.message.clone(),
            used,
            allowed,
            points: small.uses(Measure::Points),
        });
    }
    out
}

/// Whether a number is the same for every army (no measure, no limit).
fn is_fixed(n: &Num<Selector>) -> bool {
    match n {
        Num::Int(_) => true,
        Num::Limit | Num::Measure(..) | Num::Across(..) => false,
        Num::Neg(a) => is_fixed(a),
        Num::Add(a, b)
        | Num::Sub(a, b)
        | Num::Mul(a, b)
        | Num::Min(a, b)
        | Num::Max(a, b)
        | Num::Div(_, a, b) => is_fixed(a) && is_fixed(b),
    }
}

pub fn validate(roster: &Roster, army: &Army<'_>, limit: Option<Limit>, extra: Extra<'_>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let file = &roster.file;
    let army_span = roster.header.army_line.unwrap_or_default();

    out.extend(limit_finding(file, army, limit, army_span));

    let facts = ArmyFacts {
        army,
        limit: limit.map_or(army.total, |l| i64::from(l.points)),
    };
    let mut tally = Tally::new(army.formations.len());
    let mut held = held::Held::new(army);
    let rules = army
        .list
        .constraints
        .iter()
        .filter(|c| !extra.waived.contains(&c.id))
        .map(|c| (c, Code::ListRule))
        .chain(extra.event.iter().map(|c| (c, Code::EventRule)))
        .chain(extra.scenario.iter().map(|c| (c, Code::ScenarioRule)));
    for (constraint, code) in rules {
        match constraint.scope {
            Scope::Army => {
                if held.hold(army, constraint, 0..army.formations.len()) {
                    continue;
                }
                if let Some(d) = check(constraint, code, &facts, &facts, roster, army_span) {
                    out.push(d);
                }
            }
            Scope::Formation | Scope::Group => {
                for (i, f) in army.formations.iter().enumerate() {
                    if tally.full(i) {
                        // Past the findings a line shows: only counted
                        // (3,000 rules over 1,190 formations once built
                        // 3.5 million findings, 8 s and 1 GB, to show 200).
                        if constraint.applies_to(f.formation) && f.parts.is_empty() {
                            let with_members = army.list.formations[f.formation].group.is_some();
                            if constraint.scope == Scope::Group && !with_members {
                                continue;
                            }
                            let local = FormationFacts {
                                army: &facts,
                                index: i,
                                with_members: constraint.scope == Scope::Group,
                            };
                            if !matches!(constraint.cond.eval(&local), Ok(true)) {
                                tally.left_out(i, constraint, code);
                            }
                            continue;
                        }
                    }
                    // A formation fielded part by part: the rules of the
                    // formation a part stands for hold for each part, in
                    // place of the whole's own count of them all. (Only a
                    // formation with parts looks: most pairs of a rule and
                    // a formation end at `applies_to` below.)
                    let by_parts = constraint.scope == Scope::Formation
                        && f.parts.iter().any(|p| constraint.applies_to(p.formation));
                    if by_parts {
                        if held.hold_formation(army, constraint, i, false) {
                            continue;
                        }
                        out.extend(part_rules(constraint, code, &facts, army, f, roster));
                        continue;
                    }
                    if !constraint.applies_to(f.formation) {
                        continue;
                    }
                    let is_group = army.list.formations[f.formation].group.is_some();
                    let local = match constraint.scope {
                        Scope::Group if is_group => FormationFacts {
                            army: &facts,
                            index: i,
                            with_members: true,
                        },
                        Scope::Group => continue,
                        _ => FormationFacts {
                            army: &facts,
                            index: i,
                            with_members: false,
                        },
                    };
                    if held.hold_formation(army, constraint, i, local.with_members) {
                        continue;
                    }
                    if let Some(d) = check(constraint, code, &local, &local, roster, f.name_span) {
                        tally.shown(i);
                        out.push(d);
                    }
                }
            }
        }
    }

    out.extend(tally.summaries(roster, army));
    out.extend(held.notes(roster, army));
    out.extend(group_sizes(roster, army));

    for f in army.formations.iter().filter(|f| !f.points_known) {
        let formation = &army.list.formations[f.formation];
        out.push(
            Diagnostic::warning(
                Code::Unchecked,
                format!(
                    "a cost in {} is missing from the sources, so its points and the total are not checked",
                    formation.name
                ),
            )
            .at(file, f.name_span),
        );
    }

    out.extend(not_enforced(army));

    out
}

/// The error for an army over its points limit: `total` points, said as
/// `costs` ("the army costs"), and the `entry` a player removes or shrinks
/// ("formation", or a NetEpic "card").
pub fn over_limit(
    file: &SourceFile,
    army_span: Span,
    limit: Limit,
    (total, costs, entry): (i64, &str, &str),
) -> Diagnostic {
    Diagnostic::error(
        Code::OverPointsLimit,
        format!(
            "{costs} {total} points, {} over the limit of {}",
            total - i64::from(limit.points),
            limit.points
        ),
    )
    .at(file, limit.span.unwrap_or(army_span))
    .rule(
        "points-limit",
        "tournament rules: formations total the agreed points or less",
    )
    .hint(format!(
        "remove or shrink a {entry}, or raise the limit if the event allows it"
    ))
}

/// The army over its points limit (an error), or no limit at all (a
/// warning).
fn limit_finding(
    file: &SourceFile,
    army: &Army<'_>,
    limit: Option<Limit>,
    army_span: Span,
) -> Option<Diagnostic> {
    match limit {
        Some(limit) if army.total > i64::from(limit.points) => {
            let mut d = over_limit(
                file,
                army_span,
                limit,
                (army.total, "the army costs", "formation"),
            );
            d = d.label(match (limit.origin, limit.span) {
                (LimitOrigin::Given, _) => format!("`--points` sets the limit to {}", limit.points),
                (LimitOrigin::Assumed, _) => format!("assumed limit {}", limit.points),
                (_, Some(_)) => format!("limit {}", limit.points),
                (_, None) => format!("the event's limit is {}", limit.points),
            });
            Some(d)
        }
        Some(_) => None,
        None => Some(
            Diagnostic::warning(
                Code::MissingPointsLimit,
                "the roster states no points limit; limits that depend on it use the army's total",
            )
            .at(file, army_span)
            .fix("add a line such as `Points: 3000`"),
        ),
    }
}

/// The note that names the list's rules muster does not check.
fn not_enforced(army: &Army<'_>) -> Option<Diagnostic> {
    if army.list.not_enforced.is_empty() {
        return None;
    }
    // Written in place (most rosters' lists have such rules, so this
    // note is in most results).
    let name = &army.list.name;
    let mut message = String::with_capacity(name.len() + 64);
    match army.list.not_enforced.len() {
        1 => {
            message.push_str("1 rule of ");
            message.push_str(name);
            message.push_str(" is not checked by muster; check it by hand");
        }
        n => {
            message.push_str(itoa::Buffer::new().format(n));
            message.push_str(" rules of ");
            message.push_str(name);
            message.push_str(" are not checked by muster; check them by hand");
        }
    }
    let mut d = Diagnostic::note(Code::Unchecked, message);
    for rule in &army.list.not_enforced {
        d = d.hint(rule.rule.clone());
    }
    // Where the rules come from: the provenance (players read it
    // without source lines; `--verbose` and JSON in full).
    let sources: Vec<&str> = army
        .list
        .not_enforced
        .iter()
        .filter_map(|r| r.source.as_deref())
        .fold(Vec::new(), |mut all, s| {
            if !all.contains(&s) {
                all.push(s);
            }
            all
        });
    if !sources.is_empty() {
        d = d.rule("not-enforced", sources.join("; "));
    }
    let mut options = String::with_capacity(army.list.id.len() + 48);
    options.push_str("`muster options ");
    options.push_str(&army.list.id);
    options.push_str("` says why each is not checked");
    Some(d.hint(options))
}

/// Formation rules' findings per formation line: past
/// [`crate::diagnostic::MAX_PER_LINE`] on one line, only counted, and
/// summed up in one summary that `diagnostic::cap` counts as them.
struct Tally {
    shown: Vec<usize>,
    left_out: Vec<(usize, Severity, Code)>,
}

impl Tally {
    fn new(formations: usize) -> Tally {
        Tally {
            shown: vec![0; formations],
            left_out: vec![(0, Severity::Note, Code::ListRule); formations],
        }
    }

    fn full(&self, i: usize) -> bool {
        self.shown
            .get(i)
            .is_some_and(|&n| n >= crate::diagnostic::MAX_PER_LINE)
    }

    fn shown(&mut self, i: usize) {
        if let Some(n) = self.shown.get_mut(i) {
            *n += 1;
        }
    }

    fn left_out(&mut self, i: usize, constraint: &Constraint, code: Code) {
        let severity = match constraint.severity {
            RuleSeverity::Error => Severity::Error,
            RuleSeverity::Warning => Severity::Warning,
        };
        if let Some(slot) = self.left_out.get_mut(i) {
            if slot.0 == 0 {
                slot.2 = code;
            }
            slot.0 += 1;
            slot.1 = slot.1.min(severity);
        }
    }

    fn summaries(&self, roster: &Roster, army: &Army<'_>) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for (f, &(n, severity, code)) in army.formations.iter().zip(&self.left_out) {
            if n > 0 {
                let mut d = Diagnostic::new(
                    severity,
                    code,
                    format!(
                        "and {} more on this line, not shown",
                        crate::diagnostic::thousands(n)
                    ),
                )
                .at(&roster.file, f.name_span);
                d.stands_for = n;
                out.push(d);
            }
        }
        out
    }
}

fn check<F: Facts<Selector> + Locate>(
    constraint: &Constraint,
    code: Code,
    facts: &F,
    locate: &F,
    roster: &Roster,
    fallback: Span,
) -> Option<Diagnostic> {
    let file = &roster.file;
    let severity = match constraint.severity {
        RuleSeverity::Error => Severity::Error,
        RuleSeverity::Warning => Severity::Warning,
    };
    match eval_seen(&constraint.cond, facts) {
        Ok((true, _)) => None,
        Ok((false, seen)) => {
            let (primary, others) = match constraint.scope {
                Scope::Formation | Scope::Group => (fallback, Vec::new()),
                Scope::Army => locate.locate(&constraint.cond).unwrap_or((fallback, Vec::new())),
            };
            let message = match seen {
                Some(compared) => with_numbers(&constraint.message, compared),
                None => constraint.message.clone(),
            };
            let mut d = Diagnostic::new(severity, code, message)
                .at(file, primary)
                .rule(&constraint.id, &constraint.provenance)
                .expression({
                    // One string, written in place.
                    let mut expression = String::with_capacity(constraint.text.len() + 24);
                    expression.push('`');
                    expression.push_str(&constraint.text);
                    expression.push('`');
                    if let Some(Compared { a, op, b, .. }) = seen {
                        explain(a, op, b, &mut expression);
                    }
                    expression
                });
            for span in others.into_iter().take(6) {
                d = d.also(file, span, "counted here");
            }
            Some(d)
        }
        Err(e) => Some(
            // Blame the file the rule came from: an event's restriction is
            // a fault of the event file, not of the list data.
            Diagnostic::error(
                if code == Code::EventRule {
                    Code::EventFile
                } else {
                    Code::ListData
                },
                format!(
                    "rule `{}` of the {} cannot be evaluated ({}); this is a fault in the {}",
                    constraint.id,
                    if code == Code::EventRule { "event" } else { "list" },
                    match e {
                        EvalError::DivisionByZero => "division by zero",
                        EvalError::Overflow => "a number too large",
                    },
                    if code == Code::EventRule {
                        "event file"
                    } else {
                        "list data"
                    }
                ),
            )
            .at(file, fallback),
        ),
    }
}

/// A rule's verdict, with the two numbers of the comparison that decided
/// it: the rule itself, what its `=>` implies (`a => b`, broken, is `b`
/// broken), the first broken part of an `and`, the last broken part of an
/// `or` that has numbers (`count(x) == 0 or (...)`: the part after the way
/// out). [`explain`] and [`with_numbers`] show them, and they are worked
/// out once for both. The verdict is [`Cond::eval`]'s, errors included.
type Seen = Option<Compared>;

/// The two numbers of a comparison, in the order written.
#[derive(Debug, Clone, Copy)]
struct Compared {
    a: i64,
    op: Compare,
    b: i64,
    /// Whether the left side is a fixed number and the right one is not
    /// (`1 <= count(x)`): the count is then the right one.
    fixed_left: bool,
    /// The count's side written `k * X` (`3 * points(...) <= limit`): `k`,
    /// by which both numbers are divided to say `X`; else 1.
    factor: i64,
}

/// `k` of a number written `k * X` or `X * k` (`k` a whole number above 0),
/// else 1.
fn factor_of(n: &Num<Selector>) -> i64 {
    match n {
        Num::Mul(k, _) | Num::Mul(_, k) if matches!(**k, Num::Int(k) if k > 0) => match **k {
            Num::Int(k) => k,
            _ => 1,
        },
        _ => 1,
    }
}

fn eval_seen<F: Facts<Selector>>(cond: &Cond<Selector>, facts: &F) -> Result<(bool, Seen), EvalError> {
    match cond {
        Cond::Compare(left, op, right) => {
            let (a, b) = (left.value(facts)?, right.value(facts)?);
            let fixed_left = is_fixed(left) && !is_fixed(right);
            let factor = factor_of(if fixed_left { right } else { left });
            let compared = Compared {
                a,
                op: *op,
                b,
                fixed_left,
                factor,
            };
            Ok((op.holds(a, b), Some(compared)))
        }
        Cond::Implies(a, b) => {
            if a.eval(facts)? {
                eval_seen(b, facts)
            } else {
                Ok((true, None))
            }
        }
        Cond::And(parts) => {
            for part in parts {
                let (holds, seen) = eval_seen(part, facts)?;
                if !holds {
                    return Ok((false, seen));
                }
            }
            Ok((true, None))
        }
        Cond::Or(parts) => {
            let mut last = None;
            for part in parts {
                let (holds, seen) = eval_seen(part, facts)?;
                if holds {
                    return Ok((true, None));
                }
                last = seen.or(last);
            }
            Ok((false, last))
        }
        Cond::Not(_) => Ok((cond.eval(facts)?, None)),
    }
}

/// A broken rule's message with the numbers that broke it, the count
/// first: `A troupe has exactly six units (found 5; exactly 6 needed).`
fn with_numbers(message: &str, compared: Compared) -> String {
    let Compared {
        a,
        op,
        b,
        fixed_left,
        factor,
    } = compared;
    // The count on the left: `1 <= count(x)` reads `count(x) >= 1`.
    let (found, op, bound) = if fixed_left {
        let flipped = match op {
            Compare::Le => Compare::Ge,
            Compare::Ge => Compare::Le,
            Compare::Lt => Compare::Gt,
            Compare::Gt => Compare::Lt,
            same => same,
        };
        (b, flipped, a)
    } else {
        (a, op, b)
    };
    let (found, op, bound) = per_one(found, op, bound, factor);
    // Written piece by piece: a folder's rosters break tens of thousands
    // of rules, and the formatter was most of the cost of saying so.
    let (words, number) = match op {
        Compare::Eq | Compare::Le if bound == 0 => ("none allowed", None),
        Compare::Lt if bound == 1 => ("none allowed", None),
        Compare::Eq => ("exactly", Some((bound, " needed"))),
        Compare::Ne => ("anything but", Some((bound, " needed"))),
        Compare::Le => ("at most", Some((bound, " allowed"))),
        Compare::Lt => ("at most", Some((bound.saturating_sub(1), " allowed"))),
        Compare::Ge => ("at least", Some((bound, " needed"))),
        Compare::Gt => ("at least", Some((bound.saturating_add(1), " needed"))),
    };
    let (text, stop) = match message.strip_suffix('.') {
        Some(text) => (text, "."),
        None => (message, ""),
    };
    let mut out = String::with_capacity(text.len() + 48);
    out.push_str(text);
    out.push_str(" (found ");
    out.push_str(itoa::Buffer::new().format(found));
    out.push_str("; ");
    out.push_str(words);
    if let Some((n, tail)) = number {
        out.push(' ');
        out.push_str(itoa::Buffer::new().format(n));
        out.push_str(tail);
    }
    out.push(')');
    out.push_str(stop);
    out
}

/// `k * X op b` said of `X`: `X` and the bound on it, rounded as the
/// comparison allows whole numbers (`3 * X <= 2000` is `X <= 666`). A
/// comparison that does not divide evenly (`3 * X == 10`) stays as written.
fn per_one(found: i64, op: Compare, bound: i64, k: i64) -> (i64, Compare, i64) {
    if k <= 1 || found % k != 0 {
        return (found, op, bound);
    }
    let x = found / k;
    match op {
        Compare::Le => (x, Compare::Le, bound.div_euclid(k)),
        Compare::Lt => (x, Compare::Le, (bound - 1).div_euclid(k)),
        Compare::Ge => (x, Compare::Ge, -(-bound).div_euclid(k)),
        Compare::Gt => (x, Compare::Ge, bound.div_euclid(k) + 1),
        Compare::Eq if bound % k == 0 => (x, Compare::Eq, bound / k),
        _ => (found, op, bound),
    }
}

/// The numbers behind a broken comparison, added to `out`:
/// ` (here: 2 <= 1)`.
fn explain(a: i64, op: Compare, b: i64, out: &mut String) {
    out.push_str(" (here: ");
    out.push_str(itoa::Buffer::new().format(a));
    out.push(' ');
    out.push_str(op.symbol());
    out.push(' ');
    out.push_str(itoa::Buffer::new().format(b));
    out.push(')');
}

/// `kinds(s)` over `formations`: how many different kinds they hold.
fn kinds<'f>(formations: impl Iterator<Item = &'f ArmyFormation>, s: Option<&Selector>) -> i64 {
    let mut kinds = Vec::new();
    for f in formations {
        f.kinds(s, &mut kinds);
    }
    kinds.sort_unstable();
    kinds.dedup();
    kinds.len() as i64
}

/// Where to point when an army rule is broken.
trait Locate {
    fn locate(&self, cond: &Cond<Selector>) -> Option<(Span, Vec<Span>)>;
}

struct ArmyFacts<'a, 'l> {
    army: &'a Army<'l>,
    limit: i64,
}

impl ArmyFacts<'_, '_> {
    fn points_in(&self, f: &ArmyFormation, s: Option<&Selector>) -> i64 {
        let Some(s) = s else { return f.points };
        if !f.admits(s) {
            return 0;
        }
        if f.is(s) {
            return f.points;
        }
        f.upgrades
            .iter()
            .filter(|t| s.upgrade(t.upgrade))
            .filter_map(|t| {
                self.army.list.upgrades[t.upgrade]
                    .cost
                    .as_ref()
                    .map(|c| c.of(t.count))
            })
            .sum()
    }

    /// A measure over the formations `which` admits (by index in the army).
    fn measure_over(
        &self,
        which: impl Fn(usize, &ArmyFormation) -> bool,
        m: Measure,
        s: Option<&Selector>,
    ) -> i64 {
        let formations = self
            .army
            .formations
            .iter()
            .enumerate()
            .filter(|(i, f)| which(*i, f))
            .map(|(_, f)| f);
        // The measure decided once, not once a formation.
        match (m, s) {
            (Measure::Kinds, _) => kinds(formations, s),
            (Measure::Count, Some(s)) => formations.map(|f| f.count(s)).sum(),
            (Measure::Count, None) => formations.count() as i64,
            (Measure::Points, s) => formations.map(|f| self.points_in(f, s)).sum(),
            (Measure::Units, s) => formations.map(|f| f.units_of(s)).sum(),
        }
    }

    fn measure_one(&self, f: &ArmyFormation, m: Measure, s: Option<&Selector>) -> i64 {
        match (m, s) {
            (Measure::Count, Some(s)) => f.count(s),
            (Measure::Count, None) => 1,
            (Measure::Points, s) => self.points_in(f, s),
            (Measure::Units, s) => f.units_of(s),
            (Measure::Kinds, s) => kinds(std::iter::once(f), s),
        }
    }

    /// The largest or smallest value of a measure over the formations the
    /// selector matches (the formation itself, or something it took or
    /// holds; all formations without a selector), with the formation.
    /// Formations it does not match are left out rather than counted as 0,
    /// so that `least(points(tag:capital))` is the cheapest capital ship.
    fn extreme(&self, e: Extreme, m: Measure, s: Option<&Selector>) -> Option<(i64, &ArmyFormation)> {
        let values = self
            .army
            .formations
            .iter()
            .filter(|f| s.is_none_or(|s| self.has_span_in(f, s)))
            .map(|f| (self.measure_one(f, m, s), f));
        match e {
            Extreme::Most => values.max_by_key(|(v, _)| *v),
            Extreme::Least => values.min_by_key(|(v, _)| *v),
        }
    }

    /// The spans a selector matches in one formation, in roster order,
    /// added to `spans`.
    fn spans_in(&self, f: &ArmyFormation, s: &Selector, spans: &mut Vec<Span>) {
        if !f.admits(s) {
            return;
        }
        // The units (the list's whole unit table) only when the formation
        // itself does not match.
        if f.is(s) || f.units.iter().enumerate().any(|(u, n)| *n > 0 && s.unit(u)) {
            spans.push(f.name_span);
        }
        for t in f.upgrades.iter().filter(|t| s.upgrade(t.upgrade)) {
            spans.extend(&t.spans);
        }
    }

    /// Whether [`Self::spans_in`] would find any span, without collecting
    /// them.
    fn has_span_in(&self, f: &ArmyFormation, s: &Selector) -> bool {
        f.admits(s)
            && (f.is(s)
                || f.units.iter().enumerate().any(|(u, n)| *n > 0 && s.unit(u))
                || f.upgrades
                    .iter()
                    .any(|t| s.upgrade(t.upgrade) && !t.spans.is_empty()))
    }
}

impl Facts<Selector> for ArmyFacts<'_, '_> {
    fn measure(&self, _reach: Reach, m: Measure, s: Option<&Selector>) -> i64 {
        self.measure_over(|_, _| true, m, s)
    }

    fn across(&self, e: Extreme, m: Measure, s: Option<&Selector>) -> i64 {
        self.extreme(e, m, s).map_or(0, |(value, _)| value)
    }

    fn limit(&self) -> i64 {
        self.limit
    }
}

impl Locate for ArmyFacts<'_, '_> {
    fn locate(&self, cond: &Cond<Selector>) -> Option<(Span, Vec<Span>)> {
        if let Some((extreme, m, s)) = cond.first_across() {
            if let Some((_, f)) = self.extreme(extreme, m, s) {
                return Some((f.name_span, Vec::new()));
            }
        }
        for s in cond.selectors() {
            let mut spans: Vec<Span> = Vec::new();
            for f in &self.army.formations {
                self.spans_in(f, s, &mut spans);
            }
            spans.sort_by_key(|s| s.start);
            spans.dedup();
            if let Some(last) = spans.pop() {
                return Some((last, spans));
            }
        }
        None
    }
}

/// One formation's view: its own counts, or with `with_members` a group's
/// counts over itself and its members.
struct FormationFacts<'a, 'b, 'l> {
    army: &'a ArmyFacts<'b, 'l>,
    index: usize,
    with_members: bool,
}

impl Facts<Selector> for FormationFacts<'_, '_, '_> {
    fn measure(&self, reach: Reach, m: Measure, s: Option<&Selector>) -> i64 {
        match reach {
            Reach::Army => self.army.measure(reach, m, s),
            // One formation is read directly: formation rules run once per
            // formation, so scanning the army here would make them quadratic.
            Reach::Local if !self.with_members => self
                .army
                .army
                .formations
                .get(self.index)
                .map_or(0, |f| self.army.measure_one(f, m, s)),
            Reach::Local => self.army.measure_over(
                |i, _| crate::resolve::within(&self.army.army.formations, i, self.index),
                m,
                s,
            ),
        }
    }

    fn across(&self, e: Extreme, m: Measure, s: Option<&Selector>) -> i64 {
        self.army.across(e, m, s)
    }

    fn limit(&self) -> i64 {
        self.army.limit
    }
}

impl Locate for FormationFacts<'_, '_, '_> {
    fn locate(&self, _cond: &Cond<Selector>) -> Option<(Span, Vec<Span>)> {
        None
    }
}

/// A formation rule over every part of formation `whole` that it applies
/// to, each part as if it were the formation it stands for, alone.
fn part_rules(
    constraint: &Constraint,
    code: Code,
    facts: &ArmyFacts<'_, '_>,
    army: &Army<'_>,
    whole: &ArmyFormation,
    roster: &Roster,
) -> Vec<Diagnostic> {
    whole
        .parts
        .iter()
        .filter(|p| constraint.applies_to(p.formation))
        .filter_map(|p| {
            let mut units = vec![0i64; army.list.units.len()];
            for &(unit, count) in &army.list.formations[p.formation].units {
                if let Some(slot) = units.get_mut(unit) {
                    *slot += i64::from(count);
                }
            }
            let one = ArmyFormation {
                formation: p.formation,
                upgrades: p.upgrades.clone(),
                points: p.points,
                points_known: p.points_known,
                name_span: p.span,
                units,
                group: None,
                parts: Vec::new(),
                priced_by_parts: false,
                unread: None,
            };
            let local = PartFacts { army: facts, one };
            check(constraint, code, &local, &local, roster, p.span)
        })
        .collect()
}

/// One part of a formation fielded part by part, seen as the formation it
/// stands for.
struct PartFacts<'a, 'b, 'l> {
    army: &'a ArmyFacts<'b, 'l>,
    one: ArmyFormation,
}

impl Facts<Selector> for PartFacts<'_, '_, '_> {
    fn measure(&self, reach: Reach, m: Measure, s: Option<&Selector>) -> i64 {
        match reach {
            Reach::Army => self.army.measure(reach, m, s),
            Reach::Local => self.army.measure_one(&self.one, m, s),
        }
    }

    fn across(&self, e: Extreme, m: Measure, s: Option<&Selector>) -> i64 {
        self.army.across(e, m, s)
    }

    fn limit(&self) -> i64 {
        self.army.limit
    }
}

impl Locate for PartFacts<'_, '_, '_> {
    fn locate(&self, _cond: &Cond<Selector>) -> Option<(Span, Vec<Span>)> {
        None
    }
}

/// Every group (squadron) holds as many members as its list allows.
fn group_sizes(roster: &Roster, army: &Army<'_>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (i, f) in army.formations.iter().enumerate() {
        let formation = &army.list.formations[f.formation];
        let Some(spec) = &formation.group else { continue };
        let members = army.formations.iter().filter(|m| m.group == Some(i)).count();
        let members = u32::try_from(members).unwrap_or(u32::MAX);
        let (broken, wanted) = match spec.max {
            Some(max) if members > max => (true, format!("at most {max}")),
            _ if members < spec.min && members > 0 => (true, format!("at least {}", spec.min)),
            _ => (false, String::new()),
        };
        if broken {
            let mut d = Diagnostic::error(
                Code::ListRule,
                format!(
                    "this {} has {members} members; it may have {wanted}",
                    formation.name.to_lowercase()
                ),
            )
            .at(&roster.file, f.name_span)
            .rule(format!("{}-size", formation.id), spec.provenance.clone());
            if spec.max.is_some_and(|max| members > max) {
                d = d.hint(format!("split it into two {}s", formation.name.to_lowercase()));
            }
            out.push(d);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{Compared, with_numbers};
    use crate::rules::Compare;

    fn said(a: i64, op: Compare, b: i64, fixed_left: bool, factor: i64) -> String {
        let compared = Compared {
            a,
            op,
            b,
            fixed_left,
            factor,
        };
        with_numbers("A rule.", compared)
    }

    #[test]
    fn a_broken_rule_says_what_was_found_and_what_is_needed() {
        assert_eq!(
            said(5, Compare::Eq, 6, false, 1),
            "A rule (found 5; exactly 6 needed)."
        );
        assert_eq!(
            said(3, Compare::Le, 2, false, 1),
            "A rule (found 3; at most 2 allowed)."
        );
        assert_eq!(
            said(3, Compare::Lt, 3, false, 1),
            "A rule (found 3; at most 2 allowed)."
        );
        assert_eq!(
            said(1, Compare::Ge, 2, false, 1),
            "A rule (found 1; at least 2 needed)."
        );
        assert_eq!(
            said(2, Compare::Gt, 2, false, 1),
            "A rule (found 2; at least 3 needed)."
        );
        assert_eq!(
            said(1, Compare::Eq, 0, false, 1),
            "A rule (found 1; none allowed)."
        );
        assert_eq!(
            said(2, Compare::Le, 0, false, 1),
            "A rule (found 2; none allowed)."
        );
        assert_eq!(
            said(1, Compare::Ne, 1, false, 1),
            "A rule (found 1; anything but 1 needed)."
        );
        // `1 <= count(x)` with none: the count first.
        assert_eq!(
            said(1, Compare::Le, 0, true, 1),
            "A rule (found 0; at least 1 needed)."
        );
        // A message without a full stop gets none.
        let compared = Compared {
            a: 0,
            op: Compare::Ge,
            b: 1,
            fixed_left: false,
            factor: 1,
        };
        assert_eq!(
            with_numbers("No stop", compared),
            "No stop (found 0; at least 1 needed)"
        );
    }

    #[test]
    fn a_count_written_k_times_is_said_once() {
        // `3 * points(x) <= limit`: 825 points where 666 are allowed.
        assert_eq!(
            said(2475, Compare::Le, 2000, false, 3),
            "A rule (found 825; at most 666 allowed)."
        );
        assert_eq!(
            said(6, Compare::Lt, 6, false, 2),
            "A rule (found 3; at most 2 allowed)."
        );
        assert_eq!(
            said(2, Compare::Ge, 5, false, 2),
            "A rule (found 1; at least 3 needed)."
        );
        assert_eq!(
            said(4, Compare::Gt, 5, false, 2),
            "A rule (found 2; at least 3 needed)."
        );
        assert_eq!(
            said(4, Compare::Eq, 5, false, 2),
            "A rule (found 4; exactly 5 needed)."
        );
    }
}
