//! The constraint language of list files (`grammar/rules.pest`).
//!
//! A list states its limits as small expressions over counts and points
//! ("count(tag:spacecraft) <= 1"). This module owns their syntax tree, the
//! parser and the evaluator. It knows nothing of rosters or list files: the
//! catalogue resolves the names in selectors (see [`Expr::map_selectors`]) and
//! the validator supplies the numbers through [`Facts`].

mod fast;
mod parse;

pub use parse::{RuleError, parse, parse_item, parse_item_reference, parse_reference};

use crate::source::Span;

/// Which tally a measure reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// The rule's own scope: the army for army rules, one formation for
    /// formation rules.
    Local,
    /// The whole army, from a formation rule (`army.count(...)`).
    Army,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    Count,
    Points,
    Units,
    /// How many different entries (formation and upgrade ids) match.
    Kinds,
}

/// `most(...)` or `least(...)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extreme {
    Most,
    Least,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rounding {
    Floor,
    Ceil,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compare {
    Le,
    Ge,
    Eq,
    Ne,
    Lt,
    Gt,
}

impl Compare {
    pub fn symbol(self) -> &'static str {
        match self {
            Compare::Le => "<=",
            Compare::Ge => ">=",
            Compare::Eq => "==",
            Compare::Ne => "!=",
            Compare::Lt => "<",
            Compare::Gt => ">",
        }
    }

    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Compare::Le => a <= b,
            Compare::Ge => a >= b,
            Compare::Eq => a == b,
            Compare::Ne => a != b,
            Compare::Lt => a < b,
            Compare::Gt => b < a,
        }
    }
}

/// One item of a selector, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    Id(String),
    Tag(String),
    Everything,
}

/// A selector as written: `a, tag:b in c`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelectorSyntax {
    pub items: Vec<(Item, Span)>,
    /// After `in`.
    pub within: Vec<(Item, Span)>,
    /// After `with`.
    pub with: Vec<(Item, Span)>,
}

/// A condition.
#[derive(Debug, Clone, PartialEq)]
pub enum Cond<S> {
    Compare(Box<Num<S>>, Compare, Box<Num<S>>),
    Not(Box<Cond<S>>),
    And(Vec<Cond<S>>),
    Or(Vec<Cond<S>>),
    Implies(Box<Cond<S>>, Box<Cond<S>>),
}

/// An integer expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Num<S> {
    Int(i64),
    Limit,
    Measure(Reach, Measure, Option<S>),
    /// The largest or smallest per-formation value over the army.
    Across(Extreme, Measure, Option<S>),
    Add(Box<Num<S>>, Box<Num<S>>),
    Sub(Box<Num<S>>, Box<Num<S>>),
    Mul(Box<Num<S>>, Box<Num<S>>),
    Neg(Box<Num<S>>),
    Div(Rounding, Box<Num<S>>, Box<Num<S>>),
    Min(Box<Num<S>>, Box<Num<S>>),
    Max(Box<Num<S>>, Box<Num<S>>),
}

/// The numbers a rule is evaluated against.
pub trait Facts<S> {
    fn measure(&self, reach: Reach, measure: Measure, selector: Option<&S>) -> i64;
    /// The largest or smallest value of `measure` over the army's
    /// formations, each taken alone (0 for an empty army).
    fn across(&self, extreme: Extreme, measure: Measure, selector: Option<&S>) -> i64;
    fn limit(&self) -> i64;
}

/// Why a rule could not be evaluated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EvalError {
    DivisionByZero,
    Overflow,
}

impl<S> Cond<S> {
    /// Replaces every selector, failing on the first one `f` rejects.
    pub fn map_selectors<T, E>(self, f: &mut impl FnMut(S) -> Result<T, E>) -> Result<Cond<T>, E> {
        Ok(match self {
            Cond::Compare(a, op, b) => {
                Cond::Compare(Box::new(a.map_selectors(f)?), op, Box::new(b.map_selectors(f)?))
            }
            Cond::Not(c) => Cond::Not(Box::new(c.map_selectors(f)?)),
            Cond::And(cs) => Cond::And(map_all(cs, f)?),
            Cond::Or(cs) => Cond::Or(map_all(cs, f)?),
            Cond::Implies(a, b) => {
                Cond::Implies(Box::new(a.map_selectors(f)?), Box::new(b.map_selectors(f)?))
            }
        })
    }

    pub fn eval(&self, facts: &impl Facts<S>) -> Result<bool, EvalError> {
        Ok(match self {
            Cond::Compare(a, op, b) => op.holds(a.value(facts)?, b.value(facts)?),
            Cond::Not(c) => !c.eval(facts)?,
            Cond::And(cs) => {
                for c in cs {
                    if !c.eval(facts)? {
                        return Ok(false);
                    }
                }
                true
            }
            Cond::Or(cs) => {
                for c in cs {
                    if c.eval(facts)? {
                        return Ok(true);
                    }
                }
                false
            }
            Cond::Implies(a, b) => !a.eval(facts)? || b.eval(facts)?,
        })
    }

    /// Whether any measure of the condition is `m` (points costs may not
    /// depend on points).
    pub fn uses(&self, m: Measure) -> bool {
        match self {
            Cond::Compare(a, _, b) => a.uses(m) || b.uses(m),
            Cond::Not(c) => c.uses(m),
            Cond::And(cs) | Cond::Or(cs) => cs.iter().any(|c| c.uses(m)),
            Cond::Implies(a, b) => a.uses(m) || b.uses(m),
        }
    }

    /// The first `most(...)` or `least(...)` of the condition, if any: a
    /// broken rule about the dearest formation points at that formation.
    pub fn first_across(&self) -> Option<(Extreme, Measure, Option<&S>)> {
        match self {
            Cond::Compare(a, _, b) => a.first_across().or_else(|| b.first_across()),
            Cond::Not(c) => c.first_across(),
            Cond::And(cs) | Cond::Or(cs) => cs.iter().find_map(Cond::first_across),
            Cond::Implies(a, b) => b.first_across().or_else(|| a.first_across()),
        }
    }

    /// Every selector in the order written (the validator points at what
    /// the first one matches).
    pub fn selectors(&self) -> Vec<&S> {
        self.measures().into_iter().filter_map(|(_, s)| s).collect()
    }

    /// Every measure with its selector, in the order written
    /// (`count(x)`, `points()`): what the rule weighs.
    pub fn measures(&self) -> Vec<(Measure, Option<&S>)> {
        let mut out = Vec::new();
        self.collect_measures(&mut out);
        out
    }

    fn collect_measures<'a>(&'a self, out: &mut Vec<(Measure, Option<&'a S>)>) {
        match self {
            Cond::Compare(a, _, b) => {
                a.collect_measures(out);
                b.collect_measures(out);
            }
            Cond::Not(c) => c.collect_measures(out),
            Cond::And(cs) | Cond::Or(cs) => cs.iter().for_each(|c| c.collect_measures(out)),
            Cond::Implies(a, b) => {
                a.collect_measures(out);
                b.collect_measures(out);
            }
        }
    }
}

type Pair<T> = (Box<Num<T>>, Box<Num<T>>);

fn both<S, T, E>(a: Num<S>, b: Num<S>, f: &mut impl FnMut(S) -> Result<T, E>) -> Result<Pair<T>, E> {
    Ok((Box::new(a.map_selectors(f)?), Box::new(b.map_selectors(f)?)))
}

fn map_all<S, T, E>(cs: Vec<Cond<S>>, f: &mut impl FnMut(S) -> Result<T, E>) -> Result<Vec<Cond<T>>, E> {
    cs.into_iter().map(|c| c.map_selectors(f)).collect()
}

impl<S> Num<S> {
    fn map_selectors<T, E>(self, f: &mut impl FnMut(S) -> Result<T, E>) -> Result<Num<T>, E> {
        Ok(match self {
            Num::Int(n) => Num::Int(n),
            Num::Limit => Num::Limit,
            Num::Measure(reach, m, s) => Num::Measure(reach, m, s.map(&mut *f).transpose()?),
            Num::Across(e, m, s) => Num::Across(e, m, s.map(&mut *f).transpose()?),
            Num::Add(a, b) => {
                let (a, b) = both(*a, *b, f)?;
                Num::Add(a, b)
            }
            Num::Sub(a, b) => {
                let (a, b) = both(*a, *b, f)?;
                Num::Sub(a, b)
            }
            Num::Mul(a, b) => {
                let (a, b) = both(*a, *b, f)?;
                Num::Mul(a, b)
            }
            Num::Min(a, b) => {
                let (a, b) = both(*a, *b, f)?;
                Num::Min(a, b)
            }
            Num::Max(a, b) => {
                let (a, b) = both(*a, *b, f)?;
                Num::Max(a, b)
            }
            Num::Div(r, a, b) => {
                let (a, b) = both(*a, *b, f)?;
                Num::Div(r, a, b)
            }
            Num::Neg(a) => Num::Neg(Box::new(a.map_selectors(f)?)),
        })
    }

    /// [`Num::eval`], with the leaves most rules are made of (a number, a
    /// measure) read in place rather than through a call.
    #[inline(always)]
    pub fn value(&self, facts: &impl Facts<S>) -> Result<i64, EvalError> {
        match self {
            Num::Int(n) => Ok(*n),
            Num::Measure(reach, m, s) => Ok(facts.measure(*reach, *m, s.as_ref())),
            _ => self.eval(facts),
        }
    }

    pub fn eval(&self, facts: &impl Facts<S>) -> Result<i64, EvalError> {
        use EvalError::Overflow;
        Ok(match self {
            Num::Int(n) => *n,
            Num::Limit => facts.limit(),
            Num::Measure(reach, m, s) => facts.measure(*reach, *m, s.as_ref()),
            Num::Across(e, m, s) => facts.across(*e, *m, s.as_ref()),
            Num::Add(a, b) => a.value(facts)?.checked_add(b.value(facts)?).ok_or(Overflow)?,
            Num::Sub(a, b) => a.value(facts)?.checked_sub(b.value(facts)?).ok_or(Overflow)?,
            Num::Mul(a, b) => a.value(facts)?.checked_mul(b.value(facts)?).ok_or(Overflow)?,
            Num::Neg(a) => a.value(facts)?.checked_neg().ok_or(Overflow)?,
            Num::Min(a, b) => a.value(facts)?.min(b.value(facts)?),
            Num::Max(a, b) => a.value(facts)?.max(b.value(facts)?),
            Num::Div(rounding, a, b) => {
                let (a, b) = (a.value(facts)?, b.value(facts)?);
                if b == 0 {
                    return Err(EvalError::DivisionByZero);
                }
                let q = a.checked_div_euclid(b).ok_or(Overflow)?;
                let exact = a.checked_rem_euclid(b).ok_or(Overflow)? == 0;
                match rounding {
                    Rounding::Floor => {
                        if b < 0 && !exact {
                            q + 1
                        } else {
                            q
                        }
                    }
                    Rounding::Ceil => {
                        if exact || b < 0 {
                            q
                        } else {
                            q + 1
                        }
                    }
                }
            }
        })
    }

    fn first_across(&self) -> Option<(Extreme, Measure, Option<&S>)> {
        match self {
            Num::Int(_) | Num::Limit | Num::Measure(..) => None,
            Num::Across(e, m, s) => Some((*e, *m, s.as_ref())),
            Num::Add(a, b)
            | Num::Sub(a, b)
            | Num::Mul(a, b)
            | Num::Min(a, b)
            | Num::Max(a, b)
            | Num::Div(_, a, b) => a.first_across().or_else(|| b.first_across()),
            Num::Neg(a) => a.first_across(),
        }
    }

    /// Whether any measure of the number is `m`.
    pub fn uses(&self, m: Measure) -> bool {
        match self {
            Num::Int(_) | Num::Limit => false,
            Num::Measure(_, own, _) | Num::Across(_, own, _) => *own == m,
            Num::Add(a, b)
            | Num::Sub(a, b)
            | Num::Mul(a, b)
            | Num::Min(a, b)
            | Num::Max(a, b)
            | Num::Div(_, a, b) => a.uses(m) || b.uses(m),
            Num::Neg(a) => a.uses(m),
        }
    }

    fn collect_measures<'a>(&'a self, out: &mut Vec<(Measure, Option<&'a S>)>) {
        match self {
            Num::Int(_) | Num::Limit => {}
            Num::Measure(_, m, s) | Num::Across(_, m, s) => out.push((*m, s.as_ref())),
            Num::Add(a, b)
            | Num::Sub(a, b)
            | Num::Mul(a, b)
            | Num::Min(a, b)
            | Num::Max(a, b)
            | Num::Div(_, a, b) => {
                a.collect_measures(out);
                b.collect_measures(out);
            }
            Num::Neg(a) => a.collect_measures(out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Facts where `count(x)` is the number in the id ("n7" → 7).
    struct Numbers {
        limit: i64,
    }

    impl Facts<SelectorSyntax> for Numbers {
        fn measure(&self, reach: Reach, m: Measure, s: Option<&SelectorSyntax>) -> i64 {
            let base: i64 = s
                .into_iter()
                .flat_map(|s| &s.items)
                .map(|(item, _)| match item {
                    Item::Id(id) => id.trim_start_matches('n').parse().unwrap_or(0),
                    Item::Tag(_) => 100,
                    Item::Everything => 1000,
                })
                .sum();
            let reach = if reach == Reach::Army { 10_000 } else { 0 };
            let m = match m {
                Measure::Count => 0,
                Measure::Points => 1,
                Measure::Units => 2,
                Measure::Kinds => 3,
            };
            base + reach + m
        }
        fn across(&self, e: Extreme, m: Measure, s: Option<&SelectorSyntax>) -> i64 {
            let one = self.measure(Reach::Local, m, s);
            match e {
                Extreme::Most => one + 50_000,
                Extreme::Least => one - 50_000,
            }
        }
        fn limit(&self) -> i64 {
            self.limit
        }
    }

    fn holds(rule: &str) -> bool {
        let cond = parse(rule).unwrap_or_else(|e| panic!("{rule}: {e:?}"));
        cond.eval(&Numbers { limit: 3000 }).unwrap()
    }

    #[test]
    fn arithmetic_and_rounding() {
        assert!(holds("count(n3) + 2 * count(n4) == 11"));
        assert!(holds("floor(limit / 1000) == 3 and ceil(2001 / 1000) == 3"));
        assert!(holds(
            "floor(7 / 2) == 3 and ceil(7 / 2) == 4 and floor(-7 / 2) == -4"
        ));
        assert!(holds("ceil(-7 / 2) == -3"));
        assert!(holds("min(count(n3), 2) == 2 and max(1, count(n3)) == 3"));
        assert!(holds("-count(n2) == -2 and (1 + 2) * 3 == 9"));
        assert!(holds("3 * points(n10) <= limit"));
        assert!(holds("units(n5) == 7 and points() == 1"));
        assert!(holds("army.count(n1) == 10001"));
        assert!(holds(
            "count(n1, n2) == 3 and count(tag:x) == 100 and count(*) == 1000"
        ));
    }

    #[test]
    fn logic() {
        assert!(holds("not count(n1) > 1"));
        assert!(holds("count(n1) == 1 or count(n1) == 2"));
        assert!(!holds("count(n1) == 1 and count(n1) == 2"));
        assert!(holds("count(n0) > 0 => count(n1) > 5"));
        assert!(!holds("count(n1) > 0 => count(n1) > 5"));
        assert!(holds(
            "(count(n1) == 1 or count(n2) == 1) and not (count(n3) < 3)"
        ));
        assert!(holds("count(n1) != 2 and count(n2) >= 2 and count(n2) < 3"));
    }

    #[test]
    fn selectors_with_in() {
        let cond = parse("count(warlord in great-gargant, gargant) == 1").unwrap();
        let sels = cond.selectors();
        assert_eq!(sels.len(), 1);
        assert_eq!(sels[0].items[0].0, Item::Id("warlord".into()));
        assert_eq!(sels[0].within.len(), 2);
    }

    #[test]
    fn across_kinds_and_with() {
        assert!(holds("kinds(n4) == 7"));
        assert!(holds("most(points(n1)) == 50002 and least(count(n1)) == -49999"));
        assert!(holds("most(count()) == 50000"));
        let cond = parse("2 * count(strike with tag:refit) <= count(strike)").unwrap();
        let sels = cond.selectors();
        assert_eq!(sels[0].items[0].0, Item::Id("strike".into()));
        assert_eq!(sels[0].with[0].0, Item::Tag("refit".into()));
        assert!(sels[0].within.is_empty());
        let cond = parse("count(a in b with c) == 0").unwrap();
        let sel = cond.selectors()[0];
        assert_eq!((sel.within.len(), sel.with.len()), (1, 1));
        assert!(parse("most(3)").is_err());
        assert!(parse("most(army.points())").is_err());
        assert!(cond.uses(Measure::Count) && !cond.uses(Measure::Points));
    }

    #[test]
    fn division_by_zero_is_an_error() {
        let cond = parse("floor(4 / count(n0)) == 1").unwrap();
        assert_eq!(cond.eval(&Numbers { limit: 0 }), Err(EvalError::DivisionByZero));
    }
}
