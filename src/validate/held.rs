//! Rules held back by an item that could not be read: a formation that
//! wrote an upgrade name muster does not know (or that could be several)
//! is missing that item, so a rule that could count it would judge a
//! formation the player did not write. Such a rule is not judged there;
//! one note per formation says how many were held back and why, after the
//! error that names the item.

use crate::catalogue::{ArmyList, Constraint, FormationIdx, Selector};
use crate::diagnostic::{Code, Diagnostic};
use crate::resolve::{Army, within};
use crate::roster::Roster;
use crate::rules::{Cond, Measure};

/// How many rules were held back on each formation of the army.
pub(super) struct Held {
    /// Whether any formation has an unread item (else nothing is held).
    any: bool,
    per: Vec<usize>,
}

impl Held {
    pub(super) fn new(army: &Army<'_>) -> Held {
        let any = army.formations.iter().any(|f| f.unread.is_some());
        Held {
            any,
            per: if any {
                vec![0; army.formations.len()]
            } else {
                Vec::new()
            },
        }
    }

    /// Whether `constraint` is held back where it would judge the
    /// formations `judged` (indices into the army), counting it on the
    /// first of them whose unread item it could count.
    pub(super) fn hold(
        &mut self,
        army: &Army<'_>,
        constraint: &Constraint,
        judged: impl Iterator<Item = usize>,
    ) -> bool {
        if !self.any {
            return false;
        }
        let mut judged = judged;
        let found = judged.find(|&i| {
            army.formations[i].unread.is_some()
                && could_count(&constraint.cond, army.list, army.formations[i].formation)
        });
        match found.and_then(|i| self.per.get_mut(i)) {
            Some(n) => {
                *n += 1;
                true
            }
            None => false,
        }
    }

    /// [`Held::hold`] for a rule of formation `i`, with its members when
    /// `with_members` (a group's rule).
    pub(super) fn hold_formation(
        &mut self,
        army: &Army<'_>,
        constraint: &Constraint,
        i: usize,
        with_members: bool,
    ) -> bool {
        let n = if with_members {
            army.formations.len()
        } else {
            i + 1
        };
        self.hold(
            army,
            constraint,
            (i..n).filter(|&j| within(&army.formations, j, i)),
        )
    }

    /// One note per formation with rules held back, at its unread item.
    pub(super) fn notes(&self, roster: &Roster, army: &Army<'_>) -> Vec<Diagnostic> {
        let text = roster.file.text();
        let mut out = Vec::new();
        for (f, &n) in army.formations.iter().zip(&self.per) {
            let Some(span) = f.unread.filter(|_| n > 0) else {
                continue;
            };
            let name = text.get(span.start..span.end).unwrap_or("an item");
            let rules = if n == 1 {
                "1 rule that could count it is".to_string()
            } else {
                format!("{n} rules that could count it are")
            };
            let message = format!("`{name}` could not be read, so {rules} not checked on this line");
            out.push(
                Diagnostic::note(Code::Unchecked, message)
                    .at(&roster.file, span)
                    .hint("correct the name and check again: they are checked once it reads"),
            );
        }
        out
    }
}

/// Whether `cond` could count an item of `formation` that was not read,
/// whatever upgrade the formation is offered it was meant to be: a count
/// of what matches such an upgrade, the points of the formation or of
/// such an upgrade, the units such an upgrade adds, or a measure of
/// everything. A count of formations alone does not wait.
fn could_count(cond: &Cond<Selector>, list: &ArmyList, formation: FormationIdx) -> bool {
    let offered = &list.formations[formation].upgrades;
    let takes = |s: &Selector| offered.iter().any(|&u| s.upgrade(u));
    let adds = |s: &Selector| {
        offered.iter().any(|&u| {
            let upgrade = &list.upgrades[u];
            (upgrade.adds.iter().chain(&upgrade.replaces)).any(|&(unit, _)| s.unit(unit))
                || upgrade.fills.as_ref().is_some_and(|f| s.unit(f.unit))
        })
    };
    cond.measures().into_iter().any(|(m, s)| match (m, s) {
        (Measure::Count, None) => false,
        (_, None) => true,
        (Measure::Count | Measure::Kinds, Some(s)) => takes(s),
        (Measure::Points, Some(s)) => s.formation(formation) || takes(s),
        (Measure::Units, Some(s)) => adds(s),
    })
}
