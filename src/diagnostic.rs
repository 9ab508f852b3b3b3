//! Diagnostics: what muster tells the user, as data.
//!
//! Every stage returns its findings as [`Diagnostic`]s and keeps going; only
//! the CLI decides how they are printed. A diagnostic carries a stable
//! [`Code`] (scripts match on it), a severity, where it points, the rule it
//! comes from and, where muster knows one, a fix.

use crate::source::{SourceFile, Span};
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Note,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

macro_rules! codes {
    ($($(#[$doc:meta])* $variant:ident = $text:literal,)*) => {
        /// Stable diagnostic codes. The text form is part of the CLI contract:
        /// never rename one, only add.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code { $($(#[$doc])* $variant,)* }

        impl Code {
            /// Every code's text, for the test that they are unique.
            #[cfg(test)]
            const TEXTS: &'static [&'static str] = &[$($text,)*];

            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $text,)* }
            }
        }
    };
}

codes! {
    /// A line the roster grammar cannot read.
    ParseError = "parse-error",
    /// The roster is empty, binary, not UTF-8 or too large.
    UnreadableInput = "unreadable-input",
    /// The roster names no army.
    MissingArmy = "missing-army",
    /// The roster names an army muster does not know.
    UnknownArmy = "unknown-army",
    /// A header key given twice, or a header value that is not valid.
    BadHeader = "bad-header",
    /// The roster names a list version other than the one muster has.
    VersionMismatch = "version-mismatch",
    /// A formation name that matches nothing in the list.
    UnknownFormation = "unknown-formation",
    /// An upgrade name that matches nothing in the list.
    UnknownUpgrade = "unknown-upgrade",
    /// A name that matches more than one entry.
    AmbiguousName = "ambiguous-name",
    /// An upgrade the formation may not take.
    UpgradeNotAllowed = "upgrade-not-allowed",
    /// Nesting the game does not allow.
    BadNesting = "bad-nesting",
    /// The stated cost differs from the computed cost.
    CostMismatch = "cost-mismatch",
    /// The total is over the points limit.
    OverPointsLimit = "over-points-limit",
    /// The roster has no points limit.
    MissingPointsLimit = "missing-points-limit",
    /// A limit of the army list is broken.
    ListRule = "list-rule",
    /// Something could not be checked (a value the sources lack, a rule
    /// muster does not enforce yet).
    Unchecked = "unchecked",
    /// A `Counts as:` declaration that cannot be read.
    CountsAs = "counts-as",
    /// An inconsistency in the list data itself.
    ListData = "list-data",
    /// A problem in an event file.
    EventFile = "event-file",
    /// A rule of the event the roster is checked for.
    EventRule = "event-rule",
    /// A points limit outside the range the lists are balanced for.
    PointsRange = "points-range",
    /// A roster that names no list version.
    NoVersion = "no-version",
    /// A 'Counts As' declaration whose target the roster does not use.
    CountsAsUnused = "counts-as-unused",
    /// A 'Counts As' declaration whose model and target differ in unit type.
    CountsAsType = "counts-as-type",
    /// A roster with a header and no formation (or ship) at all.
    EmptyRoster = "empty-roster",
    /// A Snapfire share link that cannot be read: cut short, malformed, or
    /// naming a list or an id muster does not know.
    SnapfireLink = "snapfire-link",
    /// A muster share link (`?r=1.…`) that cannot be unpacked: cut short,
    /// altered, or of a newer format.
    ShareLink = "share-link",
    /// An allied force the game's ally rules refuse (NetEpic Gold: a
    /// forbidden pair, too many points on allies, a list that takes none).
    AllyRule = "ally-rule",
    /// A scenario that cannot be used: unknown, of another game, or a
    /// roster that does not say its side.
    Scenario = "scenario",
    /// A rule of the scenario the roster is checked under, for its side.
    ScenarioRule = "scenario-rule",
    /// A part of a BattleScribe roster (`.ros`, `.rosz`) muster cannot
    /// map: a catalogue no list reads, a force of another list, a count or
    /// cost that is not a number. (A file refused whole, as a zip bomb or
    /// a DTD, is `unreadable-input`.)
    BattleScribe = "battlescribe",
}

impl Code {
    /// A name or line of the roster that muster could not place (a parse
    /// error, an unknown or ambiguous name, bad nesting, an upgrade the
    /// formation may not take): what a crib sheet leaves out and what a
    /// read-back of an export must not have.
    pub fn is_unplaced(self) -> bool {
        matches!(
            self,
            Code::ParseError
                | Code::UnknownFormation
                | Code::UnknownUpgrade
                | Code::AmbiguousName
                | Code::BadNesting
                | Code::UpgradeNotAllowed
        )
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A place in a source text, with an optional note.
#[derive(Debug, Clone)]
pub struct Label {
    pub file: SourceFile,
    pub span: Span,
    pub message: String,
}

/// A source as players read it, without the bookkeeping list authors need:
/// source line references such as `(000 line 2208)`, citations of the
/// pack's files such as `(pack squat.html)`, notes about Snapfire or the
/// list's decisions in parentheses (nested ones too), and clauses after a
/// `;` that are such notes (`; Snapfire rule exactly one of 17, 19`,
/// `; capacities from _units/rhino.md`).
pub fn plain_source(text: &str) -> String {
    // A report asks once per roster that breaks a rule for the same few
    // hundred sources: each thread keeps what it worked out (the words were
    // 137 M of a 10,000-roster HTML report's 1,946 M instructions).
    let memo = PLAIN.try_with(|memo| {
        if let Some(plain) = memo.borrow().get(text) {
            return plain.to_string();
        }
        let plain = plain_source_of(text);
        let mut memo = memo.borrow_mut();
        if memo.len() >= PLAIN_KEPT {
            memo.clear();
        }
        memo.insert(text.into(), plain.as_str().into());
        plain
    });
    // Only while the thread is ending is there no memo.
    memo.unwrap_or_else(|_| plain_source_of(text))
}

thread_local! {
    /// [`plain_source`]'s words by source, for this thread.
    static PLAIN: std::cell::RefCell<rustc_hash::FxHashMap<Box<str>, Box<str>>> = Default::default();
}

/// Sources [`PLAIN`] keeps before it starts again (a list folder may
/// bring any number).
const PLAIN_KEPT: usize = 4096;

/// [`plain_source`], worked out.
fn plain_source_of(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let stripped = strip_bookkeeping_parentheses(text);
    for (i, clause) in stripped.split("; ").enumerate() {
        let clause = clause.trim();
        if clause.is_empty() || (i > 0 && is_bookkeeping(clause)) {
            continue;
        }
        if !out.is_empty() {
            out.push_str("; ");
        }
        out.push_str(clause);
    }
    out
}

/// Whether a piece of a source is for list authors only.
fn is_bookkeeping(inside: &str) -> bool {
    let three_digit_line = inside.len() > 4
        && inside.as_bytes()[..3].iter().all(u8::is_ascii_digit)
        && inside[3..].trim_start().starts_with("line");
    inside.contains("Snapfire")
        || inside.contains("decisions")
        || inside.contains(".md")
        || inside.contains(".html")
        || inside.starts_with("pack ")
        || inside.starts_with("earlier edition")
        || inside.starts_with("shared source")
        || inside.starts_with("line ")
        || inside.starts_with("lines ")
        || inside.starts_with("capacities from")
        || three_digit_line
}

/// `text` without its parenthesised bookkeeping; a `(` whose `)` never
/// comes is kept as written.
fn strip_bookkeeping_parentheses(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('(') {
        let mut depth = 0usize;
        let close = rest[open..].char_indices().find_map(|(i, c)| {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            (depth == 0).then_some(open + i)
        });
        let Some(close) = close else {
            break;
        };
        if is_bookkeeping(&rest[open + 1..close]) {
            out.push_str(rest[..open].trim_end());
        } else {
            out.push_str(&rest[..=close]);
        }
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out.trim().to_string()
}

/// The rule a diagnostic enforces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleRef {
    /// The constraint id within its list.
    pub id: String,
    /// Where the rule comes from, for humans.
    pub provenance: String,
    /// The rule as written in the list's constraint language, with the
    /// values it compared (`count(x) <= 1` (here: 2 <= 1)): for list
    /// authors (`--verbose`, JSON), not for players.
    pub expression: Option<String>,
}

impl RuleRef {
    /// The provenance without the bookkeeping list authors need and players
    /// do not (see [`plain_source`]).
    pub fn plain_provenance(&self) -> String {
        plain_source(&self.provenance)
    }
}

#[derive(Debug, Clone)]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: Code,
    pub message: String,
    /// Where it points; `None` for findings about a whole file.
    pub primary: Option<Label>,
    /// Other places that explain it ("first defined here").
    pub secondary: Vec<Label>,
    pub rule: Option<RuleRef>,
    /// Free-standing advice.
    pub hints: Vec<String>,
    /// A concrete change that would fix it.
    pub fix: Option<String>,
    /// For a summary made where the findings were found ("and 2,990 more
    /// on this line"), how many it stands for: [`cap`] counts them, not
    /// it. 0 for an ordinary finding.
    pub stands_for: usize,
}

impl Diagnostic {
    pub fn new(severity: Severity, code: Code, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity,
            code,
            message: message.into(),
            primary: None,
            secondary: Vec::new(),
            rule: None,
            hints: Vec::new(),
            fix: None,
            stands_for: 0,
        }
    }

    pub fn error(code: Code, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Error, code, message)
    }

    pub fn warning(code: Code, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Warning, code, message)
    }

    pub fn note(code: Code, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Note, code, message)
    }

    pub fn at(mut self, file: &SourceFile, span: Span) -> Diagnostic {
        self.primary = Some(Label {
            file: file.clone(),
            span,
            message: String::new(),
        });
        self
    }

    pub fn label(mut self, message: impl Into<String>) -> Diagnostic {
        if let Some(primary) = &mut self.primary {
            primary.message = message.into();
        }
        self
    }

    pub fn also(mut self, file: &SourceFile, span: Span, message: impl Into<String>) -> Diagnostic {
        self.secondary.push(Label {
            file: file.clone(),
            span,
            message: message.into(),
        });
        self
    }

    pub fn rule(mut self, id: impl Into<String>, provenance: impl Into<String>) -> Diagnostic {
        self.rule = Some(RuleRef {
            id: id.into(),
            provenance: provenance.into(),
            expression: None,
        });
        self
    }

    /// The rule's expression, on a diagnostic that has a rule.
    pub fn expression(mut self, expression: impl Into<String>) -> Diagnostic {
        if let Some(rule) = &mut self.rule {
            rule.expression = Some(expression.into());
        }
        self
    }

    /// The diagnostic as a player reads it: the rule's provenance without
    /// source bookkeeping, and no expression.
    pub fn for_players(&self) -> Diagnostic {
        let mut d = self.clone();
        if let Some(rule) = &mut d.rule {
            rule.provenance = rule.plain_provenance();
            rule.expression = None;
        }
        d
    }

    pub fn hint(mut self, hint: impl Into<String>) -> Diagnostic {
        self.hints.push(hint.into());
        self
    }

    pub fn fix(mut self, fix: impl Into<String>) -> Diagnostic {
        self.fix = Some(fix.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// 1-based line and column of the primary label.
    pub fn line_col(&self) -> Option<(usize, usize)> {
        self.primary
            .as_ref()
            .map(|label| label.file.line_col(label.span.start))
    }
}

/// At most this many findings are kept for one line of a roster.
pub const MAX_PER_LINE: usize = 10;
/// At most this many findings are kept for one roster.
pub const MAX_PER_FILE: usize = 200;

/// Caps repeated findings, in place and in order: past [`MAX_PER_LINE`] on
/// one line and [`MAX_PER_FILE`] in all, the rest become one summary ("and
/// 19,990 more on this line") with the worst severity among them, so the
/// verdict never changes and the output stays in proportion to what a
/// reader can use, whatever the input (one line naming 20,000 unknown
/// things once made 20,000 findings, each printing the whole line).
pub fn cap(diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    /// Findings left out: how many, and the first (its code and place, and
    /// the worst severity among them).
    type Dropped = Option<(usize, Diagnostic)>;
    fn add(slot: &mut Dropped, n: usize, d: Diagnostic) {
        match slot {
            Some((count, first)) => {
                *count += n;
                first.severity = first.severity.min(d.severity);
            }
            None => *slot = Some((n, d)),
        }
    }
    fn flush(line: &mut Dropped, file: &mut Dropped, out: &mut Vec<Diagnostic>) {
        let Some((n, first)) = line.take() else { return };
        if out.len() >= MAX_PER_FILE {
            add(file, n, first);
            return;
        }
        let mut summary = Diagnostic::new(
            first.severity,
            first.code,
            format!("and {} more on this line, not shown", thousands(n)),
        );
        summary.primary = first.primary.map(|mut label| {
            label.message.clear();
            label
        });
        summary.stands_for = n;
        out.push(summary);
    }

    if diagnostics.len() <= MAX_PER_LINE && diagnostics.iter().all(|d| d.stands_for == 0) {
        return diagnostics;
    }
    let mut out: Vec<Diagnostic> = Vec::new();
    let mut current: Option<(SourceFile, usize)> = None;
    let mut on_line = 0usize;
    let mut dropped_line: Dropped = None;
    let mut dropped_file: Dropped = None;
    for d in diagnostics {
        let key = d
            .primary
            .as_ref()
            .map(|p| (p.file.clone(), p.file.line_of(p.span.start)));
        let same = match (&key, &current) {
            (Some((f, l)), Some((g, m))) => l == m && f.same(g),
            _ => false,
        };
        if !same {
            flush(&mut dropped_line, &mut dropped_file, &mut out);
            current = key;
            on_line = 0;
        }
        if d.stands_for > 0 {
            // A summary made upstream: its findings join this line's.
            let n = d.stands_for;
            if out.len() >= MAX_PER_FILE || d.primary.is_none() {
                add(&mut dropped_file, n, d);
            } else {
                add(&mut dropped_line, n, d);
            }
            continue;
        }
        on_line += 1;
        if out.len() >= MAX_PER_FILE {
            add(&mut dropped_file, 1, d);
        } else if current.is_some() && on_line > MAX_PER_LINE {
            add(&mut dropped_line, 1, d);
        } else {
            out.push(d);
        }
    }
    flush(&mut dropped_line, &mut dropped_file, &mut out);
    if let Some((n, first)) = dropped_file {
        let mut summary = Diagnostic::new(
            first.severity,
            first.code,
            format!("and {} more findings, not shown", thousands(n)),
        );
        summary.stands_for = n;
        out.push(summary);
    }
    out
}

/// `19990` as `19,990`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// "Did you mean" for a name among candidates, by edit distance, the way
/// rustc and just suggest. Returns the closest candidate within reach.
pub fn nearest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = name.to_lowercase();
    let near = Near::new(&lower);
    let mut best: Option<(f64, &'a str)> = None;
    for candidate in candidates {
        let Some(score) = near.closeness_over(candidate, best.map(|(s, _)| s)) else {
            continue;
        };
        if best.is_none_or(|(s, _)| score > s) {
            best = Some((score, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// How close `candidate` is to `name` (already lower case), higher being
/// closer; `None` when it is too far to suggest. [`nearest`]'s measure.
pub fn closeness(name: &str, candidate: &str) -> Option<f64> {
    Near::new(name).closeness(candidate)
}

/// A name (already lower case) prepared to be compared with many
/// candidates: its length and its letter counts are worked out once.
pub struct Near<'n> {
    name: &'n str,
    /// In characters.
    length: usize,
    /// Whether the name is ASCII (then measured a byte at a time).
    ascii: bool,
    /// How often each ASCII letter occurs, case aside; `None` for a name
    /// that is not ASCII, or so long that a count might not fit a byte.
    letters: Option<[u8; 128]>,
}

impl<'n> Near<'n> {
    pub fn new(name: &'n str) -> Near<'n> {
        let ascii = name.is_ascii();
        let letters = (ascii && name.len() <= usize::from(u8::MAX)).then(|| {
            let mut count = [0u8; 128];
            for &x in name.as_bytes() {
                let slot = &mut count[usize::from(LOWER[usize::from(x & 0x7f)] & 0x7f)];
                *slot = slot.saturating_add(1);
            }
            count
        });
        Near {
            name,
            length: name.chars().count(),
            ascii,
            letters,
        }
    }

    /// [`Near::closeness`] for a search that keeps the first of the
    /// closest candidates: `None` also for a candidate that cannot score
    /// above `floor` (the best so far), told from the lengths alone before
    /// anything is measured. A score is at most 3 less the share of the
    /// longer name the lengths differ by (the edit distance is at least
    /// that difference, and `f64` division and subtraction keep the order),
    /// so a candidate ruled out here would not have been taken.
    pub fn closeness_over(&self, candidate: &str, floor: Option<f64>) -> Option<f64> {
        if let Some(floor) = floor
            && self.ascii
            && candidate.is_ascii()
        {
            let (n, c) = (self.name.len(), candidate.len());
            let longer = n.max(c);
            let best = if longer == 0 {
                3.0
            } else {
                2.0 + (1.0 - (n.abs_diff(c) as f64) / (longer as f64))
            };
            if best <= floor {
                return None;
            }
        }
        self.closeness(candidate)
    }

    /// [`closeness`] of `candidate` to the prepared name.
    pub fn closeness(&self, candidate: &str) -> Option<f64> {
        let (name, length) = (self.name, self.length);
        // Most candidates are ruled out by length alone: for an ASCII one
        // (nearly all), that is decided before a lower-case copy is made.
        if candidate.is_ascii() {
            let (n, c) = (name.as_bytes(), candidate.as_bytes());
            let other = c.len();
            let allowed = (length.max(other) / 4).clamp(1, 4);
            let prefix = (other >= n.len() && c[..n.len()].eq_ignore_ascii_case(n))
                || (n.len() >= other && n[..other].eq_ignore_ascii_case(c));
            if !prefix && length.abs_diff(other) > allowed {
                return None;
            }
            // Nor can it be within reach when the letters differ too much:
            // see [`letters_apart`].
            if let Some(letters) = &self.letters
                && !prefix
                && letters_apart(letters, n.len(), c) > 2 * allowed
            {
                return None;
            }
            // Both ASCII and short (nearly every name): the same measure a
            // byte at a time, without a lower-case copy on the heap.
            if self.ascii
                && let Some(score) = closeness_ascii(n, c)
            {
                return score;
            }
        }
        closeness_text(name, length, candidate)
    }
}

/// [`Near::closeness`] of any text: `name` (of `length` characters) and
/// `candidate` lowered, measured by `strsim`.
fn closeness_text(name: &str, length: usize, candidate: &str) -> Option<f64> {
    let lower = candidate.to_lowercase();
    let other = lower.chars().count();
    // Short names tolerate fewer edits; long names a few more.
    let allowed = (length.max(other) / 4).clamp(1, 4);
    let prefix = lower.starts_with(name) || name.starts_with(&lower);
    // The edit distance is at least the difference in length: most
    // candidates are ruled out without computing it.
    if !prefix && length.abs_diff(other) > allowed {
        return None;
    }
    let distance = strsim::osa_distance(name, &lower);
    if distance > allowed && !prefix {
        return None;
    }
    Some(if prefix && distance > allowed {
        0.5 + strsim::normalized_levenshtein(name, &lower)
    } else {
        2.0 + strsim::normalized_levenshtein(name, &lower)
    })
}

/// The longest ASCII name [`closeness_ascii`] compares on the stack.
const SHORT: usize = 64;

/// [`Near::closeness`] of two ASCII names of at most [`SHORT`] bytes
/// (`name` as given, `candidate` lowered), a byte at a time: `None` when
/// either is longer (the caller then measures as for any text). The
/// distance is only compared with what is allowed, so it is worked out
/// within that bound ([`osa_within`]); the score's Levenshtein distance is
/// exact, and the score the same `f64` as `strsim` gives.
fn closeness_ascii(name: &[u8], candidate: &[u8]) -> Option<Option<f64>> {
    if name.len() > SHORT || candidate.len() > SHORT {
        return None;
    }
    let mut buffer = [0u8; SHORT];
    let lower = &mut buffer[..candidate.len()];
    lower.copy_from_slice(candidate);
    lower.make_ascii_lowercase();
    let lower = &*lower;
    let (length, other) = (name.len(), lower.len());
    let allowed = (length.max(other) / 4).clamp(1, 4);
    let prefix = lower.starts_with(name) || name.starts_with(lower);
    if !prefix && length.abs_diff(other) > allowed {
        return Some(None);
    }
    let within = osa_within(name, lower, allowed);
    if !within && !prefix {
        return Some(None);
    }
    let similar = if length == 0 && other == 0 {
        1.0
    } else {
        1.0 - (levenshtein_bytes(name, lower) as f64) / (length.max(other) as f64)
    };
    Some(Some(if prefix && !within {
        0.5 + similar
    } else {
        2.0 + similar
    }))
}

/// Whether the optimal string alignment distance of `a` and `b` (edits
/// and swaps of neighbours, as `strsim::osa_distance`) is at most `bound`,
/// for names of at most [`SHORT`] bytes. Only the cells within `bound` of
/// the diagonal can be within reach (each step off it costs an edit, and a
/// swap stays on it), values are capped at `bound + 1`, and the search
/// stops at a row with nothing within reach (no later row can come back
/// under it).
fn osa_within(a: &[u8], b: &[u8], bound: usize) -> bool {
    if a.len().abs_diff(b.len()) > bound {
        return false;
    }
    if a.len() > SHORT || b.len() > SHORT {
        return strsim_osa(a, b) <= bound;
    }
    // The distance is at most the longer length.
    if bound >= SHORT {
        return true;
    }
    let far = u8::try_from(bound + 1).unwrap_or(u8::MAX);
    let cap = |n: usize| u8::try_from(n).unwrap_or(u8::MAX).min(far);
    // Three rows, turned over by reference rather than copied.
    let mut rows = [[far; SHORT + 1]; 3];
    let [before, previous, current] = &mut rows;
    let (mut before, mut previous, mut current) = (before, previous, current);
    for (j, cell) in previous.iter_mut().enumerate().take(b.len() + 1) {
        *cell = cap(j);
    }
    for i in 1..=a.len() {
        let low = i.saturating_sub(bound).max(1);
        let high = (i + bound).min(b.len());
        current[0] = cap(i);
        if low > 1 {
            current[low - 1] = far;
        }
        let mut least = current[0].min(current[low - 1]);
        for j in low..=high {
            let same = a[i - 1] == b[j - 1];
            let mut d = (current[j - 1] + 1)
                .min(previous[j] + 1)
                .min(previous[j - 1] + u8::from(!same));
            if i > 1 && j > 1 && !same && a[i - 1] == b[j - 2] && b[j - 1] == a[i - 2] {
                d = d.min(before[j - 2] + 1);
            }
            let d = d.min(far);
            current[j] = d;
            least = least.min(d);
        }
        if high < b.len() {
            current[high + 1] = far;
        }
        if least >= far {
            return false;
        }
        let spare = before;
        before = previous;
        previous = current;
        current = spare;
    }
    usize::from(previous[b.len()]) <= bound
}

/// `strsim::osa_distance` of two ASCII names.
fn strsim_osa(a: &[u8], b: &[u8]) -> usize {
    match (std::str::from_utf8(a), std::str::from_utf8(b)) {
        (Ok(a), Ok(b)) => strsim::osa_distance(a, b),
        _ => usize::MAX,
    }
}

/// `strsim::levenshtein` of two ASCII names of at most [`SHORT`] bytes (one
/// byte is one character), by the same recurrence, on the stack.
fn levenshtein_bytes(a: &[u8], b: &[u8]) -> usize {
    let mut cache = [0usize; SHORT];
    let cache = &mut cache[..b.len()];
    for (j, cell) in cache.iter_mut().enumerate() {
        *cell = j + 1;
    }
    let mut result = b.len();
    for (i, &x) in a.iter().enumerate() {
        result = i + 1;
        let mut diagonal = i;
        for (j, &y) in b.iter().enumerate() {
            let through = diagonal + usize::from(x != y);
            diagonal = cache[j];
            result = (result + 1).min(through.min(diagonal + 1));
            cache[j] = result;
        }
    }
    result
}

/// How many letters two ASCII names do not share (each letter counted as
/// often as it occurs; case aside): a cheap bound on the edit distance,
/// which is at least half of it, since an insertion or a deletion changes
/// the count by one, a substitution by at most two and a transposition not
/// at all. Lets [`closeness`] skip the distance for most candidates.
/// `letters` are the first name's counts, `total` its length; the sum of
/// the differences is kept as each letter of `b` is taken away.
/// (A count is a byte: the name has at most 255 bytes, so none overflows,
/// and one taken below 0 stays at 0, which counts as below 0 would.)
fn letters_apart(letters: &[u8; 128], total: usize, b: &[u8]) -> usize {
    let mut count = *letters;
    let mut apart = total;
    for &x in b {
        let slot = &mut count[usize::from(LOWER[usize::from(x & 0x7f)] & 0x7f)];
        // Taking a letter the first name still has brings them closer;
        // any other takes them further apart.
        if *slot > 0 {
            apart -= 1;
        } else {
            apart += 1;
        }
        *slot = slot.saturating_sub(1);
    }
    apart
}

/// Each ASCII byte lowered: one load where `to_ascii_lowercase` is a few
/// operations, in the loop over every candidate's letters.
static LOWER: [u8; 128] = {
    let mut table = [0u8; 128];
    let mut i = 0;
    while i < 128 {
        table[i] = (i as u8).to_ascii_lowercase();
        i += 1;
    }
    table
};

/// Messages quote names in backticks, as a terminal shows them; a page
/// shows typographic quotes instead (`Squigoth` becomes ‘Squigoth’). The
/// text stays text: askama escapes it as before.
pub fn quoted(text: &str) -> String {
    // Run by run between backticks (a report quotes every finding of every
    // roster; char by char was a third of an HTML report's own work).
    let mut out = String::with_capacity(text.len() + 8);
    let mut open = false;
    let mut rest = text;
    // A backtick is one byte, so the text splits at a character boundary.
    while let Some(at) = memchr::memchr(b'`', rest.as_bytes()) {
        out.push_str(&rest[..at]);
        out.push(if open { '\u{2019}' } else { '\u{2018}' });
        open = !open;
        rest = &rest[at + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn backticks_become_typographic_quotes_in_pairs() {
        assert_eq!(super::quoted("no quotes, café"), "no quotes, café");
        assert_eq!(
            super::quoted("every `Squigoth` and `x`"),
            "every \u{2018}Squigoth\u{2019} and \u{2018}x\u{2019}"
        );
        assert_eq!(
            super::quoted("`Squigoth` and `Ork Kommandos`."),
            "\u{2018}Squigoth\u{2019} and \u{2018}Ork Kommandos\u{2019}."
        );
        // An unpaired backtick opens a quote that never closes.
        assert_eq!(super::quoted("é`ü` `"), "é\u{2018}ü\u{2019} \u{2018}");
        assert_eq!(super::quoted(""), "");
    }

    /// The words a thread remembers are the words worked out, past the
    /// number it keeps too.
    #[test]
    fn plain_sources_remembered_are_those_worked_out() {
        let sources: Vec<String> = (0..super::PLAIN_KEPT + 100)
            .map(|i| format!("Rule {i} (pack list{i}.html); Snapfire rule {i}"))
            .collect();
        for _ in 0..2 {
            for source in &sources {
                assert_eq!(super::plain_source(source), super::plain_source_of(source));
            }
        }
        assert_eq!(super::plain_source(&sources[7]), "Rule 7");
    }

    #[test]
    fn players_see_provenance_without_source_bookkeeping() {
        let rule = |provenance: &str| super::RuleRef {
            id: "r".into(),
            provenance: provenance.into(),
            expression: None,
        };
        assert_eq!(
            rule("Squats: War Engines, up to a third (pack squat.html)").plain_provenance(),
            "Squats: War Engines, up to a third"
        );
        assert_eq!(
            rule("Black Legion (pack 2026-02-04): 0-1 Spacecraft (Devastation or Despoiler)")
                .plain_provenance(),
            "Black Legion: 0-1 Spacecraft (Devastation or Despoiler)"
        );
        assert_eq!(
            rule("Steel Legion: one spacecraft (000 lines 2204-2208) (Snapfire maxPercent 33.34)")
                .plain_provenance(),
            "Steel Legion: one spacecraft"
        );
    }

    /// [`letters_apart`] as first written: every letter's count in
    /// both names, then the sum of the differences.
    fn letters_apart_plain(a: &[u8], b: &[u8]) -> usize {
        let mut count = [0i32; 128];
        for &x in a {
            count[usize::from(x.to_ascii_lowercase() & 0x7f)] += 1;
        }
        for &x in b {
            count[usize::from(x.to_ascii_lowercase() & 0x7f)] -= 1;
        }
        count.iter().map(|&n| n.unsigned_abs() as usize).sum()
    }

    #[test]
    fn letters_apart_counts_from_prepared_letters() {
        let pairs = [
            ("squats of doom", "Codex Astartes"),
            ("codex astartez", "Codex Astartes"),
            ("aaa", "AAAA"),
            ("", "Titan Legions"),
            ("imperial nav", "imperial-navy"),
            ("zzz", ""),
        ];
        for (a, b) in pairs {
            let Some(letters) = Near::new(a).letters else {
                panic!("{a} is ASCII");
            };
            assert_eq!(
                super::letters_apart(&letters, a.len(), b.as_bytes()),
                letters_apart_plain(a.as_bytes(), b.as_bytes()),
                "{a} / {b}"
            );
        }
    }

    use super::*;

    /// Names over a few letters, every one up to `len` long: enough to
    /// meet swaps, repeats and prefixes of every kind.
    fn small_names(letters: &[u8], len: usize) -> Vec<Vec<u8>> {
        let mut all = vec![Vec::new()];
        let mut last = vec![Vec::new()];
        for _ in 0..len {
            let mut next = Vec::new();
            for name in &last {
                for &l in letters {
                    let mut longer = name.clone();
                    longer.push(l);
                    next.push(longer);
                }
            }
            all.extend(next.iter().cloned());
            last = next;
        }
        all
    }

    /// The bounded distance says what `strsim`'s full one says, for every
    /// bound, on every pair of small names over three letters.
    #[test]
    fn bounded_osa_agrees_with_strsim() {
        let names = small_names(b"abc", 5);
        for a in &names {
            for b in &names {
                let (Ok(x), Ok(y)) = (std::str::from_utf8(a), std::str::from_utf8(b)) else {
                    panic!("ASCII");
                };
                let distance = strsim::osa_distance(x, y);
                assert_eq!(
                    super::levenshtein_bytes(a, b),
                    strsim::levenshtein(x, y),
                    "{x} / {y}"
                );
                for bound in 0..7 {
                    assert_eq!(
                        super::osa_within(a, b, bound),
                        distance <= bound,
                        "{x} / {y} within {bound}"
                    );
                }
            }
        }
    }

    /// The byte-at-a-time score is the one the text measure gives, to the
    /// bit, for typos of real names, cases, prefixes and strangers.
    #[test]
    fn ascii_closeness_agrees_with_the_text_measure() {
        let names = [
            "Tactical Detachment",
            "Terminator Detachment",
            "Whirlwind",
            "Land Raider",
            "Warhound Titan",
            "Tactcal Detachment",
            "tactical",
            "whirlwnd",
            "Frobnication Engine",
            "Imperial Navy",
            "imperial nav",
            "aTcitcal Detachment",
            "Thunderhawk Gunship",
            "Thudnerhawk",
            "x",
            "",
            "LAND RAIDER",
            "Land  Raider",
            "Space Marine Tactical Detachment with a very long name indeed here",
        ];
        let mut pairs = Vec::new();
        for a in names {
            for b in names {
                pairs.push((a.to_lowercase(), b.to_string()));
                pairs.push((a.to_string(), b.to_string()));
            }
        }
        for a in small_names(b"ab", 6) {
            for b in small_names(b"aB", 4) {
                pairs.push((
                    String::from_utf8(a.clone()).unwrap_or_default(),
                    String::from_utf8(b).unwrap_or_default(),
                ));
            }
        }
        for (name, candidate) in &pairs {
            let expected = super::closeness_text(name, name.chars().count(), candidate);
            match super::closeness_ascii(name.as_bytes(), candidate.as_bytes()) {
                Some(found) => assert_eq!(
                    found.map(f64::to_bits),
                    expected.map(f64::to_bits),
                    "{name:?} / {candidate:?}"
                ),
                None => assert!(name.len() > super::SHORT || candidate.len() > super::SHORT),
            }
        }
    }

    /// Ruling candidates out by length against the best so far never
    /// changes which one a search keeps.
    #[test]
    fn closeness_over_keeps_the_same_best() {
        let names = [
            "Tactical Detachment",
            "Terminator Detachment",
            "Tactical",
            "Tactcal Detachment",
            "Whirlwind",
            "Whirlwinds",
            "Land Raider",
            "Land Raiders",
            "Thunderhawk Gunship",
            "Tac",
            "",
            "Café",
        ];
        for written in names
            .iter()
            .chain(&["tactical detachmen", "whirlwnd", "land", "xyz", "thunderhawk"])
        {
            let lower = written.to_lowercase();
            let near = Near::new(&lower);
            let mut plain: Option<(f64, &str)> = None;
            for c in names {
                if let Some(s) = near.closeness(c)
                    && plain.is_none_or(|(b, _)| s > b)
                {
                    plain = Some((s, c));
                }
            }
            assert_eq!(nearest(written, names), plain.map(|(_, c)| c), "{written}");
        }
    }

    #[test]
    fn nearest_finds_typos_and_prefixes() {
        let names = ["Tactical Detachment", "Terminator Detachment", "Whirlwind"];
        assert_eq!(nearest("Whirlwnd", names), Some("Whirlwind"));
        assert_eq!(nearest("tactical", names), Some("Tactical Detachment"));
        assert_eq!(nearest("Baneblade", names), None);
    }

    #[test]
    fn codes_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for text in Code::TEXTS {
            assert!(seen.insert(text), "{text} twice");
        }
    }
}
