//! A hand-written reader of the constraint language: one function per rule
//! of `grammar/rules.pest`, with the grammar's ordered choices, building
//! the same tree with the same spans as `parse.rs` does from pest's pairs.
//! Where the alternatives of a choice start differently (a call's name, a
//! factor's first character) the reader looks once and tries only the one
//! that can match, which is what the ordered choice would end with; the one
//! real ambiguity, a `(` that opens either a sum or a condition, is tried in
//! the grammar's order with the sum read inside remembered (`memo`), so the
//! second reading does not read it again. It reads a rule in a few hundred
//! instructions instead of pest's tens of thousands, and every list loads
//! dozens of rules on every run.
//!
//! It only ever accepts: a rule it refuses (`None`) goes to pest, whose
//! error is the message, so every error stays the grammar's. The tests
//! below compare both readers over every shipped rule and generated ones.

use super::{Compare, Cond, Extreme, Item, Measure, Num, Reach, Rounding, SelectorSyntax};
use crate::source::Span;

/// `constraint = { SOI ~ expr ~ EOI }`.
pub(super) fn constraint(text: &str) -> Option<Cond<SelectorSyntax>> {
    let mut r = Reader {
        text: text.as_bytes(),
        pos: 0,
        src: text,
        memo: None,
    };
    r.skip();
    let cond = r.expr()?;
    r.skip();
    (r.pos == r.text.len()).then_some(cond)
}

/// `item`, alone, as `parse_item` reads it (the text already trimmed).
pub(super) fn item(text: &str) -> Option<Item> {
    let mut r = Reader {
        text: text.as_bytes(),
        pos: 0,
        src: text,
        memo: None,
    };
    let (item, _) = r.item()?;
    (r.pos == r.text.len()).then_some(item)
}

struct Reader<'a> {
    text: &'a [u8],
    src: &'a str,
    pos: usize,
    /// A `sum` read inside `(` that turned out not to close with `)`: its
    /// start, its end and the sum. `sum` at that start takes it instead of
    /// reading it again (a sum at a position is the same wherever it is
    /// asked for), which is what `(` of a condition does next.
    memo: Option<(usize, usize, Num<SelectorSyntax>)>,
}

fn ident_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.')
}

impl Reader<'_> {
    /// `WHITESPACE*`, which pest puts between the parts of every
    /// non-atomic rule.
    fn skip(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.text.get(self.pos) {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.pos).copied()
    }

    /// The next character after white space, without consuming anything.
    fn next_byte(&self) -> Option<u8> {
        let mut at = self.pos;
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.text.get(at) {
            at += 1;
        }
        self.text.get(at).copied()
    }

    /// The identifier characters after white space (`ident_char*`), without
    /// consuming anything: a keyword matches only the whole of them.
    fn next_word(&self) -> &[u8] {
        let mut at = self.pos;
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.text.get(at) {
            at += 1;
        }
        let from = at;
        while self.text.get(at).copied().is_some_and(ident_char) {
            at += 1;
        }
        &self.text[from..at]
    }

    /// A literal, after white space; nothing consumed when it is not there.
    fn lit(&mut self, s: &str) -> bool {
        let start = self.pos;
        self.skip();
        if self.text[self.pos..].starts_with(s.as_bytes()) {
            self.pos += s.len();
            true
        } else {
            self.pos = start;
            false
        }
    }

    /// An atomic keyword not followed by an identifier character
    /// (`@{ "word" ~ !ident_char }`), after white space; `insensitive` for
    /// `^"word"`.
    fn keyword(&mut self, word: &str, insensitive: bool) -> bool {
        let start = self.pos;
        self.skip();
        let end = self.pos + word.len();
        let matched = self.text.get(self.pos..end).is_some_and(|s| {
            if insensitive {
                s.eq_ignore_ascii_case(word.as_bytes())
            } else {
                s == word.as_bytes()
            }
        });
        if matched && !self.text.get(end).copied().is_some_and(ident_char) {
            self.pos = end;
            true
        } else {
            self.pos = start;
            false
        }
    }

    /// The first of `words` that matches as a keyword.
    fn one_of<'w>(&mut self, words: &[&'w str]) -> Option<&'w str> {
        words.iter().copied().find(|w| self.keyword(w, false))
    }

    /// Runs `f`, putting the position back when it fails.
    fn attempt<T>(&mut self, f: impl FnOnce(&mut Self) -> Option<T>) -> Option<T> {
        let start = self.pos;
        let out = f(self);
        if out.is_none() {
            self.pos = start;
        }
        out
    }

    /// `expr = { disjunction ~ (op_implies ~ disjunction)? }`
    fn expr(&mut self) -> Option<Cond<SelectorSyntax>> {
        self.attempt(|r| {
            let lhs = r.disjunction()?;
            let rhs = r.attempt(|r| {
                if !r.lit("=>") {
                    return None;
                }
                r.disjunction()
            });
            Some(match rhs {
                Some(rhs) => Cond::Implies(Box::new(lhs), Box::new(rhs)),
                None => lhs,
            })
        })
    }

    /// `disjunction = { conjunction ~ (op_or ~ conjunction)* }`
    fn disjunction(&mut self) -> Option<Cond<SelectorSyntax>> {
        self.attempt(|r| {
            // One part (nearly always) needs no `Vec`.
            let mut first = Some(r.conjunction()?);
            let mut parts = Vec::new();
            while let Some(next) = r.attempt(|r| {
                if !r.keyword("or", true) {
                    return None;
                }
                r.conjunction()
            }) {
                parts.extend(first.take());
                parts.push(next);
            }
            Some(first.unwrap_or(Cond::Or(parts)))
        })
    }

    /// `conjunction = { negation ~ (op_and ~ negation)* }`
    fn conjunction(&mut self) -> Option<Cond<SelectorSyntax>> {
        self.attempt(|r| {
            let mut first = Some(r.negation()?);
            let mut parts = Vec::new();
            while let Some(next) = r.attempt(|r| {
                if !r.keyword("and", true) {
                    return None;
                }
                r.negation()
            }) {
                parts.extend(first.take());
                parts.push(next);
            }
            Some(first.unwrap_or(Cond::And(parts)))
        })
    }

    /// `negation = { op_not ~ negation | comparison | "(" ~ expr ~ ")" }`
    fn negation(&mut self) -> Option<Cond<SelectorSyntax>> {
        // After `not` nothing else can match: a comparison starts with a
        // number, `-`, `(` or a call's name, and `not` names no call.
        if self.next_word().eq_ignore_ascii_case(b"not") {
            return self.attempt(|r| {
                if !r.keyword("not", true) {
                    return None;
                }
                Some(Cond::Not(Box::new(r.negation()?)))
            });
        }
        if let Some(c) = self.comparison() {
            return Some(c);
        }
        if self.next_byte() != Some(b'(') {
            return None;
        }
        self.attempt(|r| {
            if !r.lit("(") {
                return None;
            }
            let e = r.expr()?;
            r.lit(")").then_some(e)
        })
    }

    /// `comparison = { sum ~ op_compare ~ sum }`
    fn comparison(&mut self) -> Option<Cond<SelectorSyntax>> {
        self.attempt(|r| {
            let a = r.sum()?;
            // `op_compare`, its alternatives in the grammar's order.
            r.skip();
            let rest = &r.text[r.pos..];
            let (op, len) = match rest {
                [b'<', b'=', ..] => (Compare::Le, 2),
                [b'>', b'=', ..] => (Compare::Ge, 2),
                [b'=', b'=', ..] => (Compare::Eq, 2),
                [b'!', b'=', ..] => (Compare::Ne, 2),
                [b'<', ..] => (Compare::Lt, 1),
                [b'>', ..] => (Compare::Gt, 1),
                _ => return None,
            };
            r.pos += len;
            let b = r.sum()?;
            Some(Cond::Compare(Box::new(a), op, Box::new(b)))
        })
    }

    /// `sum = { product ~ (op_add ~ product)* }`
    fn sum(&mut self) -> Option<Num<SelectorSyntax>> {
        if self.memo.as_ref().is_some_and(|(start, _, _)| *start == self.pos)
            && let Some((_, end, sum)) = self.memo.take()
        {
            self.pos = end;
            return Some(sum);
        }
        self.attempt(|r| {
            let mut acc = r.product()?;
            while let Some((plus, rhs)) = r.attempt(|r| {
                let plus = if r.lit("+") {
                    true
                } else if r.lit("-") {
                    false
                } else {
                    return None;
                };
                Some((plus, r.product()?))
            }) {
                acc = if plus {
                    Num::Add(Box::new(acc), Box::new(rhs))
                } else {
                    Num::Sub(Box::new(acc), Box::new(rhs))
                };
            }
            Some(acc)
        })
    }

    /// `product = { factor ~ (op_mul ~ factor)* }`
    fn product(&mut self) -> Option<Num<SelectorSyntax>> {
        self.attempt(|r| {
            let mut acc = r.factor()?;
            while let Some(rhs) = r.attempt(|r| {
                if !r.lit("*") {
                    return None;
                }
                r.factor()
            }) {
                acc = Num::Mul(Box::new(acc), Box::new(rhs));
            }
            Some(acc)
        })
    }

    /// `factor = { negate | integer | call | "(" ~ sum ~ ")" }`
    ///
    /// The four start with different characters (`-`, a digit, a call's
    /// name, `(`), so the first one tells which to read.
    fn factor(&mut self) -> Option<Num<SelectorSyntax>> {
        match self.next_byte()? {
            b'-' => self.attempt(|r| {
                if !r.lit("-") {
                    return None;
                }
                Some(Num::Neg(Box::new(r.factor()?)))
            }),
            b'0'..=b'9' => self.integer(),
            b'(' => self.attempt(|r| {
                if !r.lit("(") {
                    return None;
                }
                let from = r.pos;
                let s = r.sum()?;
                if r.lit(")") {
                    return Some(s);
                }
                // Not a sum in parentheses: most likely a condition's, which
                // `negation` reads next from the same place.
                r.memo = Some((from, r.pos, s));
                None
            }),
            _ => self.call(),
        }
    }

    /// `integer = @{ ASCII_DIGIT+ }`
    fn integer(&mut self) -> Option<Num<SelectorSyntax>> {
        let start = self.pos;
        self.skip();
        let from = self.pos;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.pos += 1;
        }
        if self.pos == from {
            self.pos = start;
            return None;
        }
        Some(Num::Int(self.src[from..self.pos].parse().unwrap_or(i64::MAX)))
    }

    /// `call = { rounding | extreme | across | measure | limit }`: each
    /// starts with its own keyword (the measure's, or `army.`), so the word
    /// ahead tells which to read.
    fn call(&mut self) -> Option<Num<SelectorSyntax>> {
        match self.next_word() {
            b"floor" | b"ceil" => self.rounding(),
            b"min" | b"max" => self.extreme(),
            b"most" | b"least" => self.across(),
            b"limit" => self.keyword("limit", false).then_some(Num::Limit),
            b"count" | b"points" | b"units" | b"kinds" => self.measure(),
            word if word.starts_with(b"army.") => self.measure(),
            _ => None,
        }
    }

    /// `rounding = { rounding_fn ~ "(" ~ sum ~ "/" ~ sum ~ ")" }`
    fn rounding(&mut self) -> Option<Num<SelectorSyntax>> {
        self.attempt(|r| {
            let f = match r.one_of(&["floor", "ceil"])? {
                "floor" => Rounding::Floor,
                _ => Rounding::Ceil,
            };
            if !r.lit("(") {
                return None;
            }
            let a = r.sum()?;
            if !r.lit("/") {
                return None;
            }
            let b = r.sum()?;
            r.lit(")").then(|| Num::Div(f, Box::new(a), Box::new(b)))
        })
    }

    /// `extreme = { extreme_fn ~ "(" ~ sum ~ "," ~ sum ~ ")" }`
    fn extreme(&mut self) -> Option<Num<SelectorSyntax>> {
        self.attempt(|r| {
            let min = r.one_of(&["min", "max"])? == "min";
            if !r.lit("(") {
                return None;
            }
            let a = r.sum()?;
            if !r.lit(",") {
                return None;
            }
            let b = r.sum()?;
            let (a, b) = (Box::new(a), Box::new(b));
            if !r.lit(")") {
                return None;
            }
            Some(if min { Num::Min(a, b) } else { Num::Max(a, b) })
        })
    }

    /// `across = { across_fn ~ "(" ~ measure_fn ~ "(" ~ selector? ~ ")" ~ ")" }`
    fn across(&mut self) -> Option<Num<SelectorSyntax>> {
        self.attempt(|r| {
            let extreme = match r.one_of(&["most", "least"])? {
                "least" => Extreme::Least,
                _ => Extreme::Most,
            };
            if !r.lit("(") {
                return None;
            }
            let measure = r.measure_fn()?;
            if !r.lit("(") {
                return None;
            }
            let selector = r.selector();
            if !r.lit(")") || !r.lit(")") {
                return None;
            }
            Some(Num::Across(extreme, measure, selector))
        })
    }

    /// `measure = { army_prefix? ~ measure_fn ~ "(" ~ selector? ~ ")" }`
    fn measure(&mut self) -> Option<Num<SelectorSyntax>> {
        self.attempt(|r| {
            // `army_prefix = @{ "army." }`
            let reach = if r.lit("army.") { Reach::Army } else { Reach::Local };
            let measure = r.measure_fn()?;
            if !r.lit("(") {
                return None;
            }
            let selector = r.selector();
            r.lit(")").then_some(Num::Measure(reach, measure, selector))
        })
    }

    /// `measure_fn = @{ ("count" | "points" | "units" | "kinds") ~ !ident_char }`
    fn measure_fn(&mut self) -> Option<Measure> {
        Some(match self.one_of(&["count", "points", "units", "kinds"])? {
            "count" => Measure::Count,
            "points" => Measure::Points,
            "kinds" => Measure::Kinds,
            _ => Measure::Units,
        })
    }

    /// `selector = { items ~ (kw_in ~ items)? ~ (kw_with ~ items)? }`
    fn selector(&mut self) -> Option<SelectorSyntax> {
        self.attempt(|r| {
            let items = r.items()?;
            let within = r
                .attempt(|r| if r.keyword("in", false) { r.items() } else { None })
                .unwrap_or_default();
            let with = r
                .attempt(|r| if r.keyword("with", false) { r.items() } else { None })
                .unwrap_or_default();
            Some(SelectorSyntax { items, within, with })
        })
    }

    /// `items = { item ~ ("," ~ item)* }`
    fn items(&mut self) -> Option<Vec<(Item, Span)>> {
        self.attempt(|r| {
            r.skip();
            let mut items = vec![r.item()?];
            while let Some(next) = r.attempt(|r| {
                if !r.lit(",") {
                    return None;
                }
                r.skip();
                r.item()
            }) {
                items.push(next);
            }
            Some(items)
        })
    }

    /// `item = { tag | everything | id }`, `tag = ${ "tag:" ~ id }`: at
    /// the current position (no white space first).
    fn item(&mut self) -> Option<(Item, Span)> {
        let start = self.pos;
        if self.text[start..].starts_with(b"tag:") {
            self.pos += 4;
            if self.id() {
                let tag = Item::Tag(self.src[start + 4..self.pos].to_string());
                return Some((tag, Span::new(start, self.pos)));
            }
            self.pos = start;
        }
        if self.peek() == Some(b'*') {
            self.pos += 1;
            return Some((Item::Everything, Span::new(start, self.pos)));
        }
        if self.id() {
            let id = Item::Id(self.src[start..self.pos].to_string());
            return Some((id, Span::new(start, self.pos)));
        }
        self.pos = start;
        None
    }

    /// `id = @{ ASCII_ALPHANUMERIC+ ~ ("-" ~ ASCII_ALPHANUMERIC+)* }`
    fn id(&mut self) -> bool {
        let alnum = |r: &mut Self| {
            let from = r.pos;
            while r.peek().is_some_and(|b| b.is_ascii_alphanumeric()) {
                r.pos += 1;
            }
            r.pos > from
        };
        if !alnum(self) {
            return false;
        }
        loop {
            let at = self.pos;
            if self.peek() == Some(b'-') {
                self.pos += 1;
                if alnum(self) {
                    continue;
                }
            }
            self.pos = at;
            return true;
        }
    }
}
