//! What the two notation grammars (Epic's and the ships') share: reading
//! one anchored value and turning pest's errors into a `NotationError`.
//! Each grammar supplies its rule names and spelling suggestions.

use super::NotationError;
use crate::source::Span;
use pest::iterators::Pair;
use pest::{Parser, RuleType};

/// One grammar's words for errors.
pub(super) struct Grammar<R> {
    /// The rule for comma-separated terms, where a failure is reported for
    /// the one term that failed.
    pub terms: R,
    pub eoi: R,
    pub name: fn(&R) -> String,
    pub suggest: fn(R, &str) -> Option<String>,
}

/// Parses `text` with an anchored entry rule and returns the pair inside it.
pub(super) fn value<'i, P: Parser<R>, R: RuleType>(
    grammar: &Grammar<R>,
    rule: R,
    text: &'i str,
) -> Result<Pair<'i, R>, NotationError> {
    match P::parse(rule, text) {
        Ok(mut pairs) => pairs
            .next()
            .and_then(|entry| entry.into_inner().next())
            .ok_or_else(|| NotationError {
                offset: 0,
                column: 1,
                expected: (grammar.name)(&rule),
                suggestion: None,
            }),
        Err(e) => Err(error(grammar, rule, text, e)),
    }
}

/// Comma-separated terms, as `muster explain` takes them: each `term_rule`
/// pair converted by `convert`, with its place in `text`.
pub(super) fn terms<'i, P: Parser<R>, R: RuleType, T>(
    grammar: &Grammar<R>,
    term_rule: R,
    text: &'i str,
    convert: impl Fn(Pair<'i, R>) -> T,
) -> Result<Vec<(T, Span)>, NotationError> {
    let terms = match P::parse(grammar.terms, text) {
        Ok(mut pairs) => pairs.next(),
        Err(e) => return Err(error(grammar, grammar.terms, text, e)),
    };
    Ok(terms
        .into_iter()
        .flat_map(Pair::into_inner)
        .filter(|p| p.as_rule() == term_rule)
        .map(|p| {
            let span = Span::new(p.as_span().start(), p.as_span().end());
            (convert(p), span)
        })
        .collect())
}

/// A pest error as a `NotationError`: where, what was expected, and a
/// spelling suggestion for the part that failed.
fn error<R: RuleType>(grammar: &Grammar<R>, entry: R, text: &str, e: pest::error::Error<R>) -> NotationError {
    let offset = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((start, _)) => start,
    };
    let offset = offset.min(text.len());
    let mut expected: Vec<String> = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            positives.iter().map(grammar.name).collect()
        }
        pest::error::ErrorVariant::CustomError { message } => vec![message.clone()],
    };
    expected.sort();
    expected.dedup();
    // Between comma-separated terms, another term is the useful expectation.
    if entry == grammar.terms && expected.len() > 1 {
        let eoi = (grammar.name)(&grammar.eoi);
        expected.retain(|e| *e != eoi);
    }
    if expected.is_empty() {
        expected.push((grammar.name)(&entry));
    }
    let column = text.get(..offset).map_or(offset, |s| s.chars().count()) + 1;
    // Suggest for the part that failed, not the whole list of terms.
    let part = if entry == grammar.terms {
        let start = text.get(..offset).and_then(|s| s.rfind(',')).map_or(0, |i| i + 1);
        let end = text
            .get(offset..)
            .and_then(|s| s.find(','))
            .map_or(text.len(), |i| offset + i);
        text.get(start..end).unwrap_or(text)
    } else {
        text
    };
    NotationError {
        offset,
        column,
        expected: join_or(expected),
        suggestion: (grammar.suggest)(entry, part),
    }
}

fn join_or(mut names: Vec<String>) -> String {
    match names.len() {
        0 => String::new(),
        1 => names.remove(0),
        _ => {
            let last = names.pop().unwrap_or_default();
            format!("{} or {}", names.join(", "), last)
        }
    }
}
