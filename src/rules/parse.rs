//! From rule text to [`Cond`], one function per grammar rule.

use super::{Compare, Cond, Extreme, Item, Measure, Num, Reach, Rounding, SelectorSyntax};
use crate::source::Span;
use pest::Parser;
use pest::iterators::Pair;
use pest_derive::Parser;

#[derive(Parser)]
#[grammar = "../grammar/rules.pest"]
struct RulesParser;

/// A rule that does not parse, with the place in the rule text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleError {
    pub span: Span,
    pub message: String,
}

/// The longest rule text read: the longest shipped rule is about 500 bytes.
pub const MAX_RULE_BYTES: usize = 4096;
/// The deepest nesting of parentheses, and the most prefix operators (`not`,
/// unary `-`), in one rule: the parser and the evaluator recurse on both,
/// and 5,000 parentheses overflowed the stack. Shipped rules nest 3 deep.
pub const MAX_RULE_DEPTH: usize = 32;
/// The most operators in one rule (each makes a level of the tree the
/// evaluator recurses on).
pub const MAX_RULE_OPERATORS: usize = 256;

/// Checks the bounds above with one pass over the text, before the grammar
/// (which recurses) sees it; also refuses integers too large for the
/// arithmetic instead of clamping them.
fn bounds(text: &str) -> Result<(), RuleError> {
    let error = |start: usize, end: usize, message: String| RuleError {
        span: Span::new(start, end),
        message,
    };
    if text.len() > MAX_RULE_BYTES {
        return Err(error(
            0,
            text.len(),
            format!(
                "the rule is {} bytes; a rule may be at most {MAX_RULE_BYTES}",
                text.len()
            ),
        ));
    }
    let bytes = text.as_bytes();
    let (mut depth, mut prefix, mut operators) = (0usize, 0usize, 0usize);
    // Whether the text so far ends with an operand, so a `-` is binary.
    let mut after_operand = false;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if WORD_BYTES[usize::from(b)] {
            let start = i;
            i += 1;
            while bytes.get(i).is_some_and(|&b| WORD_BYTES[usize::from(b)]) {
                i += 1;
            }
            let word = &bytes[start..i];
            // Any number of 18 digits or fewer fits an `i64`.
            if word.len() > 18
                && b.is_ascii_digit()
                && word.iter().all(u8::is_ascii_digit)
                && text[start..i].parse::<i64>().is_err()
            {
                let word = &text[start..i];
                return Err(error(start, i, format!("`{word}` is too large a number")));
            }
            // Keywords compared without case as one number (a comparison
            // per keyword per word was most of this pass).
            match short_word(word) {
                Some(NOT) => {
                    prefix += 1;
                    after_operand = false;
                }
                Some(AND | OR | IN | WITH) => {
                    operators += 1;
                    after_operand = false;
                }
                _ => after_operand = true,
            }
            if prefix > MAX_RULE_DEPTH {
                return Err(error(
                    start,
                    i,
                    format!("more than {MAX_RULE_DEPTH} `not`s and `-`s in one rule"),
                ));
            }
        } else {
            match b {
                b'(' => {
                    depth += 1;
                    after_operand = false;
                    if depth > MAX_RULE_DEPTH {
                        return Err(error(
                            i,
                            i + 1,
                            format!("parentheses nest more than {MAX_RULE_DEPTH} deep"),
                        ));
                    }
                }
                b')' => {
                    depth = depth.saturating_sub(1);
                    after_operand = true;
                }
                b'-' if !after_operand => {
                    prefix += 1;
                    if prefix > MAX_RULE_DEPTH {
                        return Err(error(
                            i,
                            i + 1,
                            format!("more than {MAX_RULE_DEPTH} `not`s and `-`s in one rule"),
                        ));
                    }
                }
                b' ' | b'\t' | b'\n' | b'\r' => {}
                _ => {
                    operators += 1;
                    after_operand = false;
                }
            }
            if operators > MAX_RULE_OPERATORS {
                return Err(error(
                    i,
                    i + 1,
                    format!("more than {MAX_RULE_OPERATORS} operators in one rule"),
                ));
            }
            i += 1;
        }
    }
    Ok(())
}

/// The characters of a word, for [`bounds`], by byte: a table, read once
/// per byte.
const WORD_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b':');
        b += 1;
    }
    table
};

/// A word of at most four bytes as one number, lower case, its length in
/// the top byte; `None` for a longer word.
const fn short_word(word: &[u8]) -> Option<u64> {
    if word.len() > 4 {
        return None;
    }
    let mut key = (word.len() as u64) << 32;
    let mut i = 0;
    while i < word.len() {
        key |= (word[i].to_ascii_lowercase() as u64) << (8 * i);
        i += 1;
    }
    Some(key)
}

const fn keyword(word: &str) -> u64 {
    match short_word(word.as_bytes()) {
        Some(key) => key,
        None => u64::MAX,
    }
}

const NOT: u64 = keyword("not");
const AND: u64 = keyword("and");
const OR: u64 = keyword("or");
const IN: u64 = keyword("in");
const WITH: u64 = keyword("with");

/// Parses one constraint expression: by the hand-written reader
/// (`fast.rs`), and by pest when that refuses, so errors are the grammar's.
pub fn parse(text: &str) -> Result<Cond<SelectorSyntax>, RuleError> {
    bounds(text)?;
    match super::fast::constraint(text) {
        Some(cond) => Ok(cond),
        None => parse_with_pest(text),
    }
}

/// [`parse`] by the grammar alone: the reference the fast reader is
/// tested against.
pub fn parse_reference(text: &str) -> Result<Cond<SelectorSyntax>, RuleError> {
    bounds(text)?;
    parse_with_pest(text)
}

fn parse_with_pest(text: &str) -> Result<Cond<SelectorSyntax>, RuleError> {
    let mut pairs = RulesParser::parse(Rule::constraint, text).map_err(|e| {
        let (start, end) = match e.location {
            pest::error::InputLocation::Pos(p) => (p, p),
            pest::error::InputLocation::Span(s) => s,
        };
        let e = e.renamed_rules(rule_name);
        let message = match &e.variant {
            pest::error::ErrorVariant::ParsingError { positives, .. } if !positives.is_empty() => {
                format!("expected {}", join_or(positives.iter().map(rule_name)))
            }
            pest::error::ErrorVariant::ParsingError { .. } => "unexpected text".to_string(),
            pest::error::ErrorVariant::CustomError { message } => message.clone(),
        };
        RuleError {
            span: Span::new(start, end),
            message,
        }
    })?;
    let constraint = pairs.next().ok_or_else(|| RuleError {
        span: Span::default(),
        message: "empty rule".into(),
    })?;
    let expr = constraint.into_inner().next().ok_or_else(|| RuleError {
        span: Span::default(),
        message: "empty rule".into(),
    })?;
    Ok(parse_expr(expr))
}

/// Parses one selector item (`id`, `tag:x` or `*`), as `applies_to` lists them.
pub fn parse_item(text: &str) -> Option<Item> {
    let text = text.trim();
    if let Some(item) = super::fast::item(text) {
        return Some(item);
    }
    parse_item_reference(text)
}

/// [`parse_item`] by the grammar alone.
pub fn parse_item_reference(text: &str) -> Option<Item> {
    let text = text.trim();
    let pair = RulesParser::parse(Rule::item, text).ok()?.next()?;
    (pair.as_str().len() == text.len()).then(|| parse_item_pair(pair).0)
}

fn join_or(names: impl Iterator<Item = String>) -> String {
    let mut names: Vec<String> = names.collect();
    names.dedup();
    match names.len() {
        0 => String::new(),
        1 => names.remove(0),
        _ => {
            let last = names.pop().unwrap_or_default();
            format!("{} or {}", names.join(", "), last)
        }
    }
}

/// User-facing names for grammar rules. Exhaustive, so a new rule must be
/// named here.
fn rule_name(rule: &Rule) -> String {
    match rule {
        Rule::constraint | Rule::expr | Rule::disjunction | Rule::conjunction => "a condition",
        Rule::negation | Rule::comparison => "a comparison",
        Rule::op_implies => "`=>`",
        Rule::op_or => "`or`",
        Rule::op_and => "`and`",
        Rule::op_not => "`not`",
        Rule::op_compare => "a comparison operator (<=, >=, ==, !=, <, >)",
        Rule::sum | Rule::product | Rule::factor | Rule::negate => "a number or a measure",
        Rule::op_add => "`+` or `-`",
        Rule::op_mul => "`*`",
        Rule::call | Rule::measure | Rule::measure_fn => "count(...), points(...), units(...) or kinds(...)",
        Rule::across | Rule::across_fn => "most(MEASURE(...)) or least(MEASURE(...))",
        Rule::rounding | Rule::rounding_fn => "floor(a / b) or ceil(a / b)",
        Rule::extreme | Rule::extreme_fn => "min(a, b) or max(a, b)",
        Rule::army_prefix => "`army.`",
        Rule::limit => "`limit`",
        Rule::selector | Rule::items | Rule::item => "an id, tag:NAME or *",
        Rule::tag => "tag:NAME",
        Rule::everything => "`*`",
        Rule::kw_in => "`in`",
        Rule::kw_with => "`with`",
        Rule::id | Rule::ident_char => "an id",
        Rule::integer => "an integer",
        Rule::EOI => "the end of the rule",
        Rule::WHITESPACE => "white space",
    }
    .to_string()
}

fn span_of(pair: &Pair<'_, Rule>) -> Span {
    Span::new(pair.as_span().start(), pair.as_span().end())
}

fn parse_expr(pair: Pair<'_, Rule>) -> Cond<SelectorSyntax> {
    let mut inner = pair.into_inner();
    let mut cond = inner.next().map(parse_disjunction).unwrap_or(Cond::And(vec![]));
    while let Some(op) = inner.next() {
        debug_assert_eq!(op.as_rule(), Rule::op_implies);
        if let Some(rhs) = inner.next() {
            cond = Cond::Implies(Box::new(cond), Box::new(parse_disjunction(rhs)));
        }
    }
    cond
}

fn parse_disjunction(pair: Pair<'_, Rule>) -> Cond<SelectorSyntax> {
    let mut parts: Vec<_> = pair
        .into_inner()
        .filter(|p| p.as_rule() == Rule::conjunction)
        .map(parse_conjunction)
        .collect();
    if parts.len() == 1 {
        parts.remove(0)
    } else {
        Cond::Or(parts)
    }
}

fn parse_conjunction(pair: Pair<'_, Rule>) -> Cond<SelectorSyntax> {
    let mut parts: Vec<_> = pair
        .into_inner()
        .filter(|p| p.as_rule() == Rule::negation)
        .map(parse_negation)
        .collect();
    if parts.len() == 1 {
        parts.remove(0)
    } else {
        Cond::And(parts)
    }
}

fn parse_negation(pair: Pair<'_, Rule>) -> Cond<SelectorSyntax> {
    let mut inner = pair.into_inner();
    match inner.next() {
        Some(p) if p.as_rule() == Rule::op_not => match inner.next() {
            Some(n) => Cond::Not(Box::new(parse_negation(n))),
            None => unreachable!("`not` without operand (parse_negation)"),
        },
        Some(p) if p.as_rule() == Rule::comparison => parse_comparison(p),
        Some(p) if p.as_rule() == Rule::expr => parse_expr(p),
        other => unreachable!("{other:?} not supposed to get there (parse_negation)"),
    }
}

fn parse_comparison(pair: Pair<'_, Rule>) -> Cond<SelectorSyntax> {
    let mut inner = pair.into_inner();
    let (Some(a), Some(op), Some(b)) = (inner.next(), inner.next(), inner.next()) else {
        unreachable!("comparison without three parts (parse_comparison)")
    };
    let op = match op.as_str() {
        "<=" => Compare::Le,
        ">=" => Compare::Ge,
        "==" => Compare::Eq,
        "!=" => Compare::Ne,
        "<" => Compare::Lt,
        ">" => Compare::Gt,
        other => unreachable!("{other} not supposed to get there (parse_comparison)"),
    };
    Cond::Compare(Box::new(parse_sum(a)), op, Box::new(parse_sum(b)))
}

fn parse_sum(pair: Pair<'_, Rule>) -> Num<SelectorSyntax> {
    let mut inner = pair.into_inner();
    let mut acc = inner.next().map(parse_product).unwrap_or(Num::Int(0));
    while let (Some(op), Some(rhs)) = (inner.next(), inner.next()) {
        let rhs = Box::new(parse_product(rhs));
        acc = if op.as_str() == "+" {
            Num::Add(Box::new(acc), rhs)
        } else {
            Num::Sub(Box::new(acc), rhs)
        };
    }
    acc
}

fn parse_product(pair: Pair<'_, Rule>) -> Num<SelectorSyntax> {
    let mut inner = pair.into_inner();
    let mut acc = inner.next().map(parse_factor).unwrap_or(Num::Int(1));
    while let (Some(_op), Some(rhs)) = (inner.next(), inner.next()) {
        acc = Num::Mul(Box::new(acc), Box::new(parse_factor(rhs)));
    }
    acc
}

fn parse_factor(pair: Pair<'_, Rule>) -> Num<SelectorSyntax> {
    let Some(inner) = pair.into_inner().next() else {
        unreachable!("empty factor (parse_factor)")
    };
    match inner.as_rule() {
        // The grammar only admits digits; a number too large for i64 is
        // clamped, and checked arithmetic reports the overflow.
        Rule::integer => Num::Int(inner.as_str().parse().unwrap_or(i64::MAX)),
        Rule::negate => match inner.into_inner().next() {
            Some(f) => Num::Neg(Box::new(parse_factor(f))),
            None => unreachable!("negation without operand (parse_factor)"),
        },
        Rule::sum => parse_sum(inner),
        Rule::call => parse_call(inner),
        other => unreachable!("{other:?} not supposed to get there (parse_factor)"),
    }
}

fn parse_call(pair: Pair<'_, Rule>) -> Num<SelectorSyntax> {
    let Some(call) = pair.into_inner().next() else {
        unreachable!("empty call (parse_call)")
    };
    match call.as_rule() {
        Rule::limit => Num::Limit,
        Rule::rounding => {
            let mut inner = call.into_inner();
            let (Some(f), Some(a), Some(b)) = (inner.next(), inner.next(), inner.next()) else {
                unreachable!("rounding without operands (parse_call)")
            };
            let rounding = if f.as_str() == "floor" {
                Rounding::Floor
            } else {
                Rounding::Ceil
            };
            Num::Div(rounding, Box::new(parse_sum(a)), Box::new(parse_sum(b)))
        }
        Rule::extreme => {
            let mut inner = call.into_inner();
            let (Some(f), Some(a), Some(b)) = (inner.next(), inner.next(), inner.next()) else {
                unreachable!("min/max without operands (parse_call)")
            };
            let (a, b) = (Box::new(parse_sum(a)), Box::new(parse_sum(b)));
            if f.as_str() == "min" {
                Num::Min(a, b)
            } else {
                Num::Max(a, b)
            }
        }
        Rule::across => {
            let mut extreme = Extreme::Most;
            let mut measure = Measure::Count;
            let mut selector = None;
            for part in call.into_inner() {
                match part.as_rule() {
                    Rule::across_fn if part.as_str() == "least" => extreme = Extreme::Least,
                    Rule::across_fn => extreme = Extreme::Most,
                    Rule::measure_fn => measure = measure_of(part.as_str()),
                    Rule::selector => selector = Some(parse_selector(part)),
                    other => unreachable!("{other:?} not supposed to get there (parse_call)"),
                }
            }
            Num::Across(extreme, measure, selector)
        }
        Rule::measure => {
            let mut reach = Reach::Local;
            let mut measure = Measure::Count;
            let mut selector = None;
            for part in call.into_inner() {
                match part.as_rule() {
                    Rule::army_prefix => reach = Reach::Army,
                    Rule::measure_fn => measure = measure_of(part.as_str()),
                    Rule::selector => selector = Some(parse_selector(part)),
                    other => unreachable!("{other:?} not supposed to get there (parse_call)"),
                }
            }
            Num::Measure(reach, measure, selector)
        }
        other => unreachable!("{other:?} not supposed to get there (parse_call)"),
    }
}

fn measure_of(name: &str) -> Measure {
    match name {
        "count" => Measure::Count,
        "points" => Measure::Points,
        "kinds" => Measure::Kinds,
        _ => Measure::Units,
    }
}

fn parse_selector(pair: Pair<'_, Rule>) -> SelectorSyntax {
    let mut selector = SelectorSyntax {
        items: Vec::new(),
        within: Vec::new(),
        with: Vec::new(),
    };
    // Which list the next `items` fills: 0 the items, 1 after `in`, 2 after `with`.
    let mut slot = 0;
    for part in pair.into_inner() {
        match part.as_rule() {
            Rule::items => {
                let items = part.into_inner().map(parse_item_pair).collect();
                match slot {
                    0 => selector.items = items,
                    1 => selector.within = items,
                    _ => selector.with = items,
                }
            }
            Rule::kw_in => slot = 1,
            Rule::kw_with => slot = 2,
            other => unreachable!("{other:?} not supposed to get there (parse_selector)"),
        }
    }
    selector
}

fn parse_item_pair(pair: Pair<'_, Rule>) -> (Item, Span) {
    let span = span_of(&pair);
    let Some(inner) = pair.into_inner().next() else {
        unreachable!("empty item (parse_item)")
    };
    let item = match inner.as_rule() {
        Rule::tag => Item::Tag(inner.as_str().trim_start_matches("tag:").to_string()),
        Rule::everything => Item::Everything,
        Rule::id => Item::Id(inner.as_str().to_string()),
        other => unreachable!("{other:?} not supposed to get there (parse_item)"),
    };
    (item, span)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `bounds` as it was first written, a keyword at a time: the reference.
    fn bounds_reference(text: &str) -> Result<(), RuleError> {
        let error = |start: usize, end: usize, message: String| RuleError {
            span: Span::new(start, end),
            message,
        };
        if text.len() > MAX_RULE_BYTES {
            return Err(error(
                0,
                text.len(),
                format!(
                    "the rule is {} bytes; a rule may be at most {MAX_RULE_BYTES}",
                    text.len()
                ),
            ));
        }
        let bytes = text.as_bytes();
        let (mut depth, mut prefix, mut operators) = (0usize, 0usize, 0usize);
        // Whether the text so far ends with an operand, so a `-` is binary.
        let mut after_operand = false;
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            let word_char = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':');
            if word_char(b) {
                let start = i;
                while i < bytes.len() && word_char(bytes[i]) {
                    i += 1;
                }
                let word = &text[start..i];
                if b.is_ascii_digit()
                    && word.bytes().all(|b| b.is_ascii_digit())
                    && word.parse::<i64>().is_err()
                {
                    return Err(error(start, i, format!("`{word}` is too large a number")));
                }
                // Compared without case and without a lower-case copy (one
                // allocation per word was a third of reading a rule), and only
                // for words as short as the keywords.
                let is = |keyword: &str| word.eq_ignore_ascii_case(keyword);
                if word.len() > 4 {
                    after_operand = true;
                } else if is("not") {
                    prefix += 1;
                    after_operand = false;
                } else if is("and") || is("or") || is("in") || is("with") {
                    operators += 1;
                    after_operand = false;
                } else {
                    after_operand = true;
                }
                if prefix > MAX_RULE_DEPTH {
                    return Err(error(
                        start,
                        i,
                        format!("more than {MAX_RULE_DEPTH} `not`s and `-`s in one rule"),
                    ));
                }
            } else {
                match b {
                    b'(' => {
                        depth += 1;
                        after_operand = false;
                        if depth > MAX_RULE_DEPTH {
                            return Err(error(
                                i,
                                i + 1,
                                format!("parentheses nest more than {MAX_RULE_DEPTH} deep"),
                            ));
                        }
                    }
                    b')' => {
                        depth = depth.saturating_sub(1);
                        after_operand = true;
                    }
                    b'-' if !after_operand => {
                        prefix += 1;
                        if prefix > MAX_RULE_DEPTH {
                            return Err(error(
                                i,
                                i + 1,
                                format!("more than {MAX_RULE_DEPTH} `not`s and `-`s in one rule"),
                            ));
                        }
                    }
                    b' ' | b'\t' | b'\n' | b'\r' => {}
                    _ => {
                        operators += 1;
                        after_operand = false;
                    }
                }
                if operators > MAX_RULE_OPERATORS {
                    return Err(error(
                        i,
                        i + 1,
                        format!("more than {MAX_RULE_OPERATORS} operators in one rule"),
                    ));
                }
                i += 1;
            }
        }
        Ok(())
    }

    /// The bounds pass says what its reference says, error and place,
    /// over rules made of the words and characters it looks at.
    #[test]
    fn bounds_agree_with_their_reference() {
        let tokens = [
            "not",
            "NOT",
            "Not",
            "and",
            "AnD",
            "or",
            "OR",
            "in",
            "with",
            "WITH",
            "withx",
            "nota",
            "count",
            "tag:a",
            "a.b",
            "x_y",
            "(",
            ")",
            "-",
            "+",
            "*",
            "<=",
            ",",
            " ",
            "\t",
            "\n",
            "5",
            "123456789012345678",
            "9223372036854775807",
            "9223372036854775808",
            "99999999999999999999",
            "12a",
            "é",
            "army.count",
            "ÿ",
            "",
        ];
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..20_000 {
            let len = next(60);
            let mut text = String::new();
            for _ in 0..len {
                text.push_str(tokens[next(tokens.len())]);
                if next(3) == 0 {
                    text.push(' ');
                }
            }
            assert_eq!(bounds(&text), bounds_reference(&text), "{text:?}");
        }
        for text in [
            "(".repeat(40),
            "-".repeat(40),
            "not ".repeat(40),
            "a + ".repeat(300),
            "a and ".repeat(300),
            "x".repeat(MAX_RULE_BYTES + 1),
        ] {
            assert!(bounds(&text).is_err(), "{text:?}");
            assert_eq!(bounds(&text), bounds_reference(&text), "{text:?}");
        }
    }

    #[test]
    fn errors_point_at_the_problem() {
        let e = parse("count(a) <= ").unwrap_err();
        assert_eq!(e.span.start, 12);
        assert!(e.message.contains("a number or a measure"), "{}", e.message);
        let e = parse("count(a) 3").unwrap_err();
        assert!(e.message.contains("comparison operator"), "{}", e.message);
        assert!(parse("floor(3)").is_err());
        assert!(parse("count(A B) == 1").is_err());
        assert!(parse("").is_err());
    }

    #[test]
    fn spans_of_items() {
        let cond = parse("count(x, tag:y) == 1").unwrap();
        let sel = cond.selectors()[0];
        assert_eq!(sel.items[0].1, Span::new(6, 7));
        assert_eq!(sel.items[1], (Item::Tag("y".into()), Span::new(9, 14)));
    }
}
