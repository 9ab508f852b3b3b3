//! The roster parser: bytes to text, text to lines, lines to a [`Roster`].

use super::syntax::{Body, HeaderKey, NativeLine};
use super::{CountsAs, Dialect, Entry, Header, Item, Roster, Spanned};
use crate::diagnostic::{Code, Diagnostic};
use crate::source::{SourceFile, Span};
use pest::Parser;
use pest::iterators::Pair;
use pest_derive::Parser;

#[derive(Parser)]
#[grammar = "../grammar/roster.pest"]
struct RosterParser;

/// Rosters larger than this are refused: no real roster comes close, and a
/// limit keeps a stray file from costing seconds.
pub const MAX_ROSTER_BYTES: usize = 1 << 20;

/// The largest count one item may have (`100x Tactical`). The largest count
/// a shipped list admits is in the twenties (an Ork 'Uge warband's boyz);
/// a larger one is a typo or an attack, and nothing downstream should
/// allocate or loop in proportion to it.
pub const MAX_COUNT: u32 = 100;

/// The most formations the counts of a roster's entries may add up to; past
/// it every further entry counts once, so the work stays in proportion to
/// the roster's length, not to the numbers written in it. A 3,000-point
/// army has a few dozen.
pub const MAX_FORMATIONS: u32 = 1000;

/// Why bytes are not roster text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unreadable {
    /// Larger than [`MAX_ROSTER_BYTES`]; the size.
    TooLarge(usize),
    /// A stream (standard input) that went on past [`MAX_ROSTER_BYTES`]:
    /// its size is not known, only that it is too large.
    TooLongStream,
    /// Contains NUL bytes.
    Binary,
    /// Not UTF-8; the offset of the first bad byte.
    NotUtf8(usize),
}

impl Unreadable {
    pub fn diagnostic(self) -> Diagnostic {
        match self {
            Unreadable::TooLongStream => Diagnostic::error(
                Code::UnreadableInput,
                format!(
                    "the input is more than {0}; a roster may be at most {0}",
                    crate::source::size_text(MAX_ROSTER_BYTES as u64)
                ),
            ),
            Unreadable::TooLarge(size) => Diagnostic::error(
                Code::UnreadableInput,
                format!(
                    "the file is {}; a roster may be at most {}",
                    crate::source::size_text(size as u64),
                    crate::source::size_text(MAX_ROSTER_BYTES as u64)
                ),
            ),
            Unreadable::Binary => Diagnostic::error(
                Code::UnreadableInput,
                "the file is binary (it contains NUL bytes), not a roster",
            ),
            Unreadable::NotUtf8(offset) => Diagnostic::error(
                Code::UnreadableInput,
                format!("the file is not UTF-8 text (invalid byte at offset {offset})"),
            )
            .hint("save the roster as UTF-8 text"),
        }
    }
}

/// Turns raw bytes into roster text, or says why they are not one.
pub fn decode(bytes: &[u8]) -> Result<String, Unreadable> {
    if bytes.len() > MAX_ROSTER_BYTES {
        return Err(Unreadable::TooLarge(bytes.len()));
    }
    // UTF-16 with its byte-order mark (what some Windows editors save) is
    // text, not binary, though it is full of NUL bytes.
    let text = if let Some(rest) = bytes.strip_prefix(b"\xFF\xFE") {
        utf16(rest, u16::from_le_bytes)?
    } else if let Some(rest) = bytes.strip_prefix(b"\xFE\xFF") {
        utf16(rest, u16::from_be_bytes)?
    } else {
        // Each question asked once of the bytes, sixteen at a time: NUL,
        // UTF-8 (validated once, here), carriage returns.
        if memchr::memchr(0, bytes).is_some() {
            return Err(Unreadable::Binary);
        }
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        match std::str::from_utf8(bytes) {
            Ok(text) => return Ok(old_mac_endings(text.to_string())),
            Err(e) => return Err(Unreadable::NotUtf8(e.valid_up_to())),
        }
    };
    if memchr::memchr(0, text.as_bytes()).is_some() {
        return Err(Unreadable::Binary);
    }
    Ok(old_mac_endings(text))
}

/// Old Mac line endings (CR alone) end lines too; a same-length change, so
/// every offset stays what it was.
fn old_mac_endings(text: String) -> String {
    let b = text.as_bytes();
    if memchr::memchr(b'\r', b).is_some() && memchr::memchr(b'\n', b).is_none() {
        return text.replace('\r', "\n");
    }
    text
}

/// UTF-16 code units to text; a lone surrogate is not text.
fn utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16) -> Result<String, Unreadable> {
    let units = bytes.chunks(2).map(|pair| match *pair {
        [a, b] => unit([a, b]),
        _ => 0xD800,
    });
    let mut out = String::with_capacity(bytes.len() / 2);
    for (i, c) in char::decode_utf16(units).enumerate() {
        match c {
            Ok(c) => out.push(c),
            Err(_) => return Err(Unreadable::NotUtf8(2 + 2 * i)),
        }
    }
    Ok(out)
}

/// One line of the text: its byte range without the line break.
#[derive(Clone, Copy)]
struct Line<'a> {
    text: &'a str,
    start: usize,
}

/// The lines of a roster, read from its file's line starts: found once,
/// for the reader here and for every diagnostic after it. A text ending
/// in a line break has an empty last line, which every reader skips as
/// blank.
#[derive(Clone, Copy)]
struct Lines<'a> {
    text: &'a str,
    starts: &'a [usize],
}

impl<'a> Lines<'a> {
    fn of(file: &'a SourceFile) -> Lines<'a> {
        Lines {
            text: file.text(),
            starts: file.line_starts(),
        }
    }

    fn len(self) -> usize {
        self.starts.len()
    }

    /// Line `i` (0-based), without its `\n` and one `\r` before it.
    fn get(self, i: usize) -> Line<'a> {
        let start = self.starts[i];
        let end = self.starts.get(i + 1).map_or(self.text.len(), |&next| next - 1);
        let body = &self.text[start..end];
        Line {
            text: body.strip_suffix('\r').unwrap_or(body),
            start,
        }
    }

    fn iter(self) -> impl Iterator<Item = Line<'a>> {
        (0..self.len()).map(move |i| self.get(i))
    }
}

/// Whether a line holds nothing but whitespace (`char::is_whitespace`,
/// as `str::trim` sees it), looking at its first bytes only when they
/// are ASCII.
fn is_blank(text: &str) -> bool {
    let b = text.as_bytes();
    match b.iter().position(|&c| c != b' ' && c != b'\t') {
        None => true,
        Some(i) if b[i].is_ascii() && !(0x0a..=0x0d).contains(&b[i]) => false,
        Some(i) => text[i..].trim_start().is_empty(),
    }
}

/// Parses a roster. Every line that cannot be read gives a diagnostic; the
/// rest is still returned.
pub fn parse(file: &SourceFile) -> (Roster, Vec<Diagnostic>) {
    parse_with(file, Reader::Fast)
}

/// [`parse`] with the pest grammar alone reading every line: the reference
/// the hand-written reader is tested against. Same result, only slower.
#[doc(hidden)]
pub fn parse_reference(file: &SourceFile) -> (Roster, Vec<Diagnostic>) {
    parse_with(file, Reader::Pest)
}

/// The one army list a roster needs (what [`parse`] puts in
/// `header.army`; none when it names allies), from its lines without
/// building the roster: a command that loads one list learns which from
/// this, and the check then builds the roster once.
pub fn army_name(file: &SourceFile) -> Option<String> {
    army_and_scenario(file).map(|(army, _)| army)
}

/// [`army_name`], and whether the roster may name a scenario (a
/// `Scenario:` line; a Snapfire export is assumed to): a check of a roster
/// that names none needs no scenario file.
pub fn army_and_scenario(file: &SourceFile) -> Option<(String, bool)> {
    let all = Lines::of(file);
    let mut builder = Builder::new(file, 0);
    if snapfire_header(all, &mut builder, Reader::Fast).is_some() {
        return builder.header.army.map(|a| (a.value, true));
    }
    // The first army line names the list; a roster with allied forces
    // needs their lists too, so it names none here (everything is loaded).
    let mut army = None;
    let mut scenario = false;
    for line in all.iter() {
        if is_blank(line.text) {
            continue;
        }
        let parsed = super::fast::native_line(line.text, line.start).or_else(|| pest_native_line(line).ok());
        if let Some(NativeLine {
            body: Some(Body::Header { key, value }),
            ..
        }) = parsed
        {
            match key {
                HeaderKey::Allies | HeaderKey::Ally => return None,
                HeaderKey::Army | HeaderKey::List if army.is_none() => {
                    army = Some(split_version(&value.value).0.to_string());
                }
                HeaderKey::Scenario => scenario = true,
                _ => {}
            }
        }
    }
    army.map(|army| (army, scenario))
}

/// Whether a roster line of `name` alone reads back as an entry of that
/// name: no `:`, `[`, `#` or count that a roster would read otherwise.
pub fn reads_back(name: &str) -> bool {
    matches!(
        super::fast::native_line(name, 0),
        Some(NativeLine {
            indent: 0,
            body: Some(Body::Entry { item, upgrades, cost: None }),
        }) if upgrades.is_empty() && !item.counted && item.name.value == name
    )
}

/// The name a roster should write for an entry called `name`: the name
/// itself when a roster line reads it back, else its first alias that
/// does (`Salamanders - 8th Company - Firedrakes` for a card whose name
/// holds ` : `).
pub fn writable_name<'a>(name: &'a str, aliases: &'a [String]) -> &'a str {
    if reads_back(name) {
        return name;
    }
    aliases
        .iter()
        .map(String::as_str)
        .find(|a| reads_back(a))
        .unwrap_or(name)
}

/// Each line on which the hand-written reader and the grammar differ, read
/// as a native line, a Snapfire heading and a Snapfire details line: what
/// one gave and what the other did. [`parse`] would hide a line the fast
/// reader refuses wrongly (the grammar reads it after), so the tests look
/// here too.
#[doc(hidden)]
pub fn reader_disagreements(file: &SourceFile) -> Vec<String> {
    let mut out = Vec::new();
    for line in Lines::of(file).iter() {
        if is_blank(line.text) {
            continue;
        }
        let fast = super::fast::native_line(line.text, line.start);
        let pest = pest_native_line(line).ok();
        if fast != pest {
            out.push(format!("native {:?}: fast {fast:?}, grammar {pest:?}", line.text));
        }
        let fast = super::fast::snapfire_heading(line.text, line.start);
        let pest = pest_snapfire_heading(line);
        if fast != pest {
            out.push(format!(
                "heading {:?}: fast {fast:?}, grammar {pest:?}",
                line.text
            ));
        }
        let fast = super::fast::snapfire_details(line.text, line.start);
        let pest = pest_snapfire_details(line).ok();
        if fast != pest {
            out.push(format!(
                "details {:?}: fast {fast:?}, grammar {pest:?}",
                line.text
            ));
        }
        let fast = super::fast::snapfire_rule(line.text);
        let pest = RosterParser::parse(Rule::snapfire_rule, line.text).is_ok();
        if fast != pest {
            out.push(format!("rule {:?}: fast {fast}, grammar {pest}", line.text));
        }
    }
    out
}

fn parse_with(file: &SourceFile, reader: Reader) -> (Roster, Vec<Diagnostic>) {
    let all = Lines::of(file);
    // Most lines are entries; a bound, so a huge file grows as it goes.
    let mut parser = Builder::new(file, all.len().min(64));
    let dialect = if let Some(body) = snapfire_header(all, &mut parser, reader) {
        parser.snapfire_body(all, body, reader);
        Dialect::Snapfire
    } else {
        for line in all.iter() {
            parser.native_line(line, reader);
        }
        Dialect::Native
    };
    limit_counts(&mut parser.flat, file, &mut parser.diagnostics);
    // Each allied force nests on its own: a line indented under an
    // `Allies:` line never joins an entry of the force before it.
    let mut flat = std::mem::take(&mut parser.flat);
    let mut indented = std::mem::take(&mut parser.indented);
    let mut forces = Vec::new();
    for &at in parser.allied_at.iter().rev() {
        let at = at.min(flat.len());
        let force: Vec<(usize, usize)> = indented
            .iter()
            .filter(|&&(i, _)| i >= at)
            .map(|&(i, indent)| (i - at, indent))
            .collect();
        indented.retain(|&(i, _)| i < at);
        forces.push(nest(flat.split_off(at), &force));
    }
    let mut entries = nest(flat, &indented);
    for (ally, nested) in forces.into_iter().rev().enumerate() {
        if let Some(allied) = parser.header.allies.get_mut(ally) {
            allied.first = entries.len();
        }
        entries.extend(nested);
    }
    (
        Roster {
            file: file.clone(),
            dialect,
            header: parser.header,
            entries,
            counts_as: parser.counts_as,
        },
        parser.diagnostics,
    )
}

struct Builder<'f> {
    file: &'f SourceFile,
    header: Header,
    /// For each `Allies:` line, the number of entries read before it.
    allied_at: Vec<usize>,
    /// The entries in the order written, not yet nested.
    flat: Vec<Entry>,
    /// The entries of `flat` that are indented: their index and their
    /// indentation (the others have none). Apart, and only for those, so
    /// that a roster with no nesting keeps `flat` as its entries, without
    /// moving them or allocating for their indentation.
    indented: Vec<(usize, usize)>,
    counts_as: Vec<CountsAs>,
    diagnostics: Vec<Diagnostic>,
}

fn span(pair: &Pair<'_, Rule>, offset: usize) -> Span {
    Span::new(pair.as_span().start(), pair.as_span().end()).shifted(offset)
}

fn parse_error(file: &SourceFile, line: Line<'_>, e: pest::error::Error<Rule>) -> Diagnostic {
    let at = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let expected = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let mut names: Vec<&str> = positives.iter().map(rule_name).collect();
            names.sort();
            names.dedup();
            names.join(", ")
        }
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
    };
    let found = line.text[at.min(line.text.len())..].chars().next();
    let message = match (found, expected.is_empty()) {
        (Some(c), false) => format!("unexpected `{c}`: expected {expected}"),
        (Some(c), true) => format!("unexpected `{c}`"),
        (None, false) => format!("the line ends too early: expected {expected}"),
        (None, true) => "the line ends too early".to_string(),
    };
    let start = line.start + at.min(line.text.len());
    // The whole character found, not its first byte: a span ending inside
    // `×` cut it in two (found by fuzzing).
    let end = start + found.map_or(0, char::len_utf8);
    Diagnostic::error(Code::ParseError, message)
        .at(file, Span::new(start, end))
        .hint("a roster line is `Key: value`, `Formation: upgrade, 2x upgrade [cost]`, or `Counts as: model = entry`")
}

/// Names for grammar rules in messages. Exhaustive: a new rule must be named.
fn rule_name(rule: &Rule) -> &'static str {
    match rule {
        Rule::line | Rule::body => "a roster line",
        Rule::indent | Rule::WHITESPACE => "a space",
        Rule::comment => "a comment",
        Rule::header | Rule::header_key => "a header key",
        Rule::header_value => "a value",
        Rule::counts_as => "`Counts as: model = entry`",
        Rule::entry
        | Rule::head
        | Rule::head_name
        | Rule::item
        | Rule::name
        | Rule::name_word
        | Rule::paren_group
        | Rule::plain_name => "a name",
        Rule::upgrades => "an upgrade",
        Rule::count_prefix | Rule::count_suffix | Rule::times => "a count",
        Rule::number => "a number",
        Rule::name_char | Rule::value_char | Rule::list_char => "a letter",
        Rule::cost => "a cost like `[325]`",
        Rule::snapfire_title | Rule::title_text => "`Name, 3000 POINTS`",
        Rule::snapfire_army | Rule::snapfire_list | Rule::snapfire_version => "`List (version)`",
        Rule::snapfire_rule => "`=====`",
        Rule::snapfire_heading => "`FORMATION [cost]`",
        Rule::snapfire_details => "a comma-separated list of upgrades",
        Rule::EOI => "the end of the line",
    }
}

fn number(text: &str) -> u32 {
    // The grammar caps numbers at nine digits, so this cannot overflow.
    text.parse().unwrap_or(u32::MAX)
}

fn parse_item(pair: Pair<'_, Rule>, offset: usize) -> Item {
    let whole = span(&pair, offset);
    let mut count = 1;
    let mut counted = false;
    let mut name = Spanned::new(String::new(), whole);
    for part in pair.into_inner() {
        match part.as_rule() {
            Rule::count_prefix | Rule::count_suffix => {
                if let Some(n) = part.into_inner().find(|p| p.as_rule() == Rule::number) {
                    count = number(n.as_str());
                    counted = true;
                }
            }
            Rule::name | Rule::head_name => {
                name = Spanned::new(part.as_str().to_string(), span(&part, offset));
            }
            other => unreachable!("{other:?} not supposed to get there (parse_item)"),
        }
    }
    Item {
        count,
        counted,
        name,
        span: whole,
    }
}

fn parse_upgrades(pair: Pair<'_, Rule>, offset: usize) -> Vec<Item> {
    pair.into_inner()
        .filter(|p| p.as_rule() == Rule::item)
        .map(|p| parse_item(p, offset))
        .collect()
}

fn parse_cost(pair: Pair<'_, Rule>, offset: usize) -> Spanned<u32> {
    let whole = span(&pair, offset);
    let value = pair
        .into_inner()
        .find(|p| p.as_rule() == Rule::number)
        .map_or(0, |n| number(n.as_str()));
    Spanned::new(value, whole)
}

/// Points as people write them: `3000`, `3,000`, `3000 points`.
fn parse_points(value: &str) -> Option<u32> {
    // Digits alone (nearly every roster): what the general path makes of
    // them, without its copies.
    if (1..=9).contains(&value.len()) && value.bytes().all(|b| b.is_ascii_digit()) {
        return value.parse().ok();
    }
    let lower = value.to_lowercase();
    let digits = lower
        .trim()
        .trim_end_matches("points")
        .trim_end_matches("pts")
        .trim_end_matches("pt")
        .trim()
        .replace([',', '_', ' '], "");
    if digits.is_empty() || digits.len() > 9 || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Where the version [`split_version`] cut from `value` starts in it: it
/// ends at the closing parenthesis, the value's last character but blanks.
/// (The version's text searched for in the value, as before, pointed at
/// the name when the name repeats it: `2026 (2026)`.)
fn version_at(value: &str, version: &str) -> usize {
    value.trim_end().len().saturating_sub(1 + version.len())
}

/// Splits `Codex Astartes (2026-02-04)` into the name and the version, when
/// the parenthesis holds something with a digit in it.
fn split_version(value: &str) -> (&str, Option<&str>) {
    let trimmed = value.trim_end();
    if let Some(inner) = trimmed.strip_suffix(')') {
        // Bytes, not characters: a parenthesis is never part of a longer
        // UTF-8 character.
        let mut depth = 0usize;
        for (i, &c) in inner.as_bytes().iter().enumerate().rev() {
            match c {
                b')' => depth += 1,
                b'(' if depth == 0 => {
                    let version = &inner[i + 1..];
                    if version.bytes().any(|c| c.is_ascii_digit()) {
                        return (inner[..i].trim_end(), Some(version));
                    }
                    break;
                }
                b'(' => depth -= 1,
                _ => {}
            }
        }
    }
    (trimmed, None)
}

fn indent_width(text: &str) -> usize {
    text.chars().map(|c| if c == '\t' { 4 } else { 1 }).sum()
}

impl<'f> Builder<'f> {
    fn new(file: &'f SourceFile, entries: usize) -> Builder<'f> {
        Builder {
            file,
            header: Header::default(),
            allied_at: Vec::new(),
            flat: Vec::with_capacity(entries),
            indented: Vec::new(),
            counts_as: Vec::new(),
            diagnostics: Vec::new(),
        }
    }

    fn set<T: Clone>(
        diagnostics: &mut Vec<Diagnostic>,
        file: &SourceFile,
        slot: &mut Option<Spanned<T>>,
        value: Spanned<T>,
        key: &str,
    ) {
        if let Some(first) = slot {
            diagnostics.push(
                Diagnostic::error(Code::BadHeader, format!("`{key}` is given twice"))
                    .at(file, value.span)
                    .also(file, first.span, "first given here")
                    .fix(format!("keep one `{key}:` line")),
            );
        } else {
            *slot = Some(value);
        }
    }

    fn native_line(&mut self, line: Line<'_>, reader: Reader) {
        if is_blank(line.text) {
            return;
        }
        let fast = match reader {
            Reader::Fast => super::fast::native_line(line.text, line.start),
            Reader::Pest => None,
        };
        let parsed = match fast {
            Some(parsed) => parsed,
            // The grammar's own parser: for the reference run, and for a line
            // the fast reader refused, so that the message is the grammar's.
            None => match pest_native_line(line) {
                Ok(parsed) => parsed,
                Err(e) => {
                    self.diagnostics.push(parse_error(self.file, line, e));
                    return;
                }
            },
        };
        let line_span = Span::new(line.start, line.start + line.text.len());
        match parsed.body {
            None => {}
            Some(Body::Header { key, value }) => self.header_value(key, value, line_span),
            Some(Body::CountsAs { model, target }) => self.counts_as.push(CountsAs {
                model,
                target,
                span: line_span,
            }),
            Some(Body::Entry { item, upgrades, cost }) => {
                if parsed.indent > 0 {
                    self.indented.push((self.flat.len(), parsed.indent));
                }
                self.flat.push(Entry {
                    item,
                    upgrades,
                    cost,
                    children: Vec::new(),
                    line_span,
                    details: None,
                });
            }
        }
    }

    fn header_value(&mut self, key: HeaderKey, value: Spanned<String>, line_span: Span) {
        let (file, diagnostics, header) = (self.file, &mut self.diagnostics, &mut self.header);
        match key {
            HeaderKey::Army | HeaderKey::List => {
                let (name, version) = split_version(&value.value);
                let name_span = Span::new(value.span.start, value.span.start + name.len());
                if let Some(version) = version {
                    let start = value.span.start + version_at(&value.value, version);
                    let v = Spanned::new(version.to_string(), Span::new(start, start + version.len()));
                    Self::set(diagnostics, file, &mut header.version, v, "version");
                }
                if header.army.is_none() {
                    header.army_line = Some(line_span);
                }
                // The name is the value's beginning: the value's own string,
                // cut, rather than a copy.
                let name_len = name.len();
                let mut name = value.value;
                name.truncate(name_len);
                Self::set(
                    diagnostics,
                    file,
                    &mut header.army,
                    Spanned::new(name, name_span),
                    "Army",
                );
            }
            HeaderKey::Allies | HeaderKey::Ally => {
                let (name, version) = split_version(&value.value);
                let name_span = Span::new(value.span.start, value.span.start + name.len());
                let version = version.map(|v| {
                    let start = value.span.start + version_at(&value.value, v);
                    Spanned::new(v.to_string(), Span::new(start, start + v.len()))
                });
                header.allies.push(super::Allied {
                    army: Spanned::new(name.to_string(), name_span),
                    version,
                    line: line_span,
                    first: 0,
                });
                self.allied_at.push(self.flat.len());
            }
            HeaderKey::Version => Self::set(diagnostics, file, &mut header.version, value, "Version"),
            HeaderKey::Points | HeaderKey::PointsLimit | HeaderKey::Limit => match parse_points(&value.value)
            {
                Some(points) => Self::set(
                    diagnostics,
                    file,
                    &mut header.points,
                    Spanned::new(points, value.span),
                    "Points",
                ),
                None => diagnostics.push(
                    Diagnostic::error(
                        Code::BadHeader,
                        format!("`{}` is not a points limit", value.value),
                    )
                    .at(file, value.span)
                    .fix("write the limit as a whole number, e.g. `Points: 3000`"),
                ),
            },
            HeaderKey::Player => Self::set(diagnostics, file, &mut header.player, value, "Player"),
            HeaderKey::Event => Self::set(diagnostics, file, &mut header.event, value, "Event"),
            HeaderKey::Scenario => Self::set(diagnostics, file, &mut header.scenario, value, "Scenario"),
            HeaderKey::Side => Self::set(diagnostics, file, &mut header.side, value, "Side"),
            HeaderKey::OpponentPoints => match parse_points(&value.value) {
                Some(points) => Self::set(
                    diagnostics,
                    file,
                    &mut header.opponent_points,
                    Spanned::new(points, value.span),
                    "Opponent points",
                ),
                None => diagnostics.push(
                    Diagnostic::error(
                        Code::BadHeader,
                        format!("`{}` is not a number of points", value.value),
                    )
                    .at(file, value.span)
                    .fix("write the opponent's points as a whole number, e.g. `Opponent points: 1000`"),
                ),
            },
            HeaderKey::OptionalRules => header.optional_rules.push(value),
        }
    }

    fn snapfire_body(&mut self, all: Lines<'_>, body: usize, reader: Reader) {
        for line in (body..all.len()).map(|i| all.get(i)) {
            let line = &line;
            let trimmed = line.text.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let line_span = Span::new(line.start, line.start + line.text.len());
            let heading = match reader {
                Reader::Fast => super::fast::snapfire_heading(line.text, line.start),
                Reader::Pest => pest_snapfire_heading(*line),
            };
            if let Some((item, cost)) = heading {
                self.flat.push(Entry {
                    item,
                    upgrades: Vec::new(),
                    cost: Some(cost),
                    children: Vec::new(),
                    line_span,
                    details: None,
                });
                continue;
            }
            let Some(current) = self.flat.last_mut() else {
                self.diagnostics.push(
                    Diagnostic::error(
                        Code::ParseError,
                        "expected a formation heading such as `TACTICAL [325]`",
                    )
                    .at(self.file, line_span),
                );
                continue;
            };
            if current.details.is_some() {
                self.diagnostics.push(
                    Diagnostic::error(
                        Code::ParseError,
                        "a second details line: Snapfire writes one line of units and upgrades under each formation",
                    )
                    .at(self.file, line_span),
                );
                continue;
            }
            let details = match reader {
                Reader::Fast => super::fast::snapfire_details(line.text, line.start),
                Reader::Pest => None,
            };
            match details.map_or_else(|| pest_snapfire_details(*line), Ok) {
                Ok(upgrades) => {
                    current.upgrades = upgrades;
                    let start = line.start + (line.text.len() - line.text.trim_start().len());
                    current.details = Some(Spanned::new(
                        trimmed.to_string(),
                        Span::new(start, start + trimmed.len()),
                    ));
                }
                Err(e) => self.diagnostics.push(parse_error(self.file, *line, e)),
            }
        }
    }
}

/// Which reader reads the lines: the hand-written one (pest only for the
/// message of a line it refuses), or the grammar's alone (the reference
/// the tests compare against).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reader {
    Fast,
    Pest,
}

/// A native line through the pest grammar.
fn pest_native_line(line: Line<'_>) -> Result<NativeLine, pest::error::Error<Rule>> {
    let pairs = RosterParser::parse(Rule::line, line.text)?;
    let offset = line.start;
    let mut out = NativeLine {
        indent: 0,
        body: None,
    };
    for pair in pairs.flat_map(|p| p.into_inner()) {
        match pair.as_rule() {
            Rule::indent => out.indent = indent_width(pair.as_str()),
            Rule::body => {
                for inner in pair.into_inner() {
                    out.body = pest_body(inner, offset);
                }
            }
            Rule::comment | Rule::EOI => {}
            other => unreachable!("{other:?} not supposed to get there (native_line)"),
        }
    }
    Ok(out)
}

fn pest_body(pair: Pair<'_, Rule>, offset: usize) -> Option<Body> {
    match pair.as_rule() {
        Rule::header => {
            let mut key = None;
            let mut value = None;
            for part in pair.into_inner() {
                match part.as_rule() {
                    Rule::header_key => key = HeaderKey::from_text(part.as_str()),
                    Rule::header_value => {
                        value = Some(Spanned::new(part.as_str().to_string(), span(&part, offset)));
                    }
                    other => unreachable!("{other:?} not supposed to get there (header)"),
                }
            }
            Some(Body::Header {
                key: key?,
                value: value?,
            })
        }
        Rule::counts_as => {
            let mut names = pair
                .into_inner()
                .map(|p| Spanned::new(p.as_str().to_string(), span(&p, offset)));
            let (model, target) = (names.next()?, names.next()?);
            Some(Body::CountsAs { model, target })
        }
        Rule::entry => {
            let mut item = None;
            let mut upgrades = Vec::new();
            let mut cost = None;
            for part in pair.into_inner() {
                match part.as_rule() {
                    Rule::head => item = Some(parse_item(part, offset)),
                    Rule::upgrades => upgrades = parse_upgrades(part, offset),
                    Rule::cost => cost = Some(parse_cost(part, offset)),
                    other => unreachable!("{other:?} not supposed to get there (entry)"),
                }
            }
            Some(Body::Entry {
                item: item?,
                upgrades,
                cost,
            })
        }
        other => unreachable!("{other:?} not supposed to get there (body)"),
    }
}

/// A Snapfire heading through the pest grammar.
fn pest_snapfire_heading(line: Line<'_>) -> Option<(Item, Spanned<u32>)> {
    let mut pairs = RosterParser::parse(Rule::snapfire_heading, line.text).ok()?;
    let mut item = None;
    let mut cost = None;
    for part in pairs.next().into_iter().flat_map(|p| p.into_inner()) {
        match part.as_rule() {
            Rule::item => item = Some(parse_item(part, line.start)),
            Rule::cost => cost = Some(parse_cost(part, line.start)),
            Rule::EOI => {}
            other => unreachable!("{other:?} not supposed to get there (snapfire_body)"),
        }
    }
    Some((item?, cost?))
}

/// A Snapfire details line through the pest grammar.
fn pest_snapfire_details(line: Line<'_>) -> Result<Vec<Item>, pest::error::Error<Rule>> {
    let pairs = RosterParser::parse(Rule::snapfire_details, line.text)?;
    Ok(pairs
        .flat_map(|p| p.into_inner())
        .filter(|p| p.as_rule() == Rule::upgrades)
        .flat_map(|p| parse_upgrades(p, line.start))
        .collect())
}

/// Recognises Snapfire's three header lines; returns the index of the
/// first line after them.
fn snapfire_header(all: Lines<'_>, builder: &mut Builder<'_>, reader: Reader) -> Option<usize> {
    let mut non_blank = all.iter().enumerate().filter(|(_, l)| !is_blank(l.text));
    let (_, title) = non_blank.next()?;
    let (_, army) = non_blank.next()?;
    let (rule_index, rule) = non_blank.next()?;
    // The rule line first, by hand: it is what a native roster lacks, and
    // all three lines must match, so the order of the tests changes nothing.
    match reader {
        Reader::Fast => super::fast::snapfire_rule(rule.text).then_some(())?,
        Reader::Pest => RosterParser::parse(Rule::snapfire_rule, rule.text)
            .ok()
            .map(|_| ())?,
    }
    let title_pairs = RosterParser::parse(Rule::snapfire_title, title.text).ok()?;
    let army_pairs = RosterParser::parse(Rule::snapfire_army, army.text).ok()?;

    for part in title_pairs.flat_map(|p| p.into_inner()) {
        match part.as_rule() {
            Rule::title_text => {
                builder.header.title = Some(Spanned::new(
                    part.as_str().trim().to_string(),
                    span(&part, title.start),
                ));
            }
            Rule::number => {
                builder.header.snapfire_total =
                    Some(Spanned::new(number(part.as_str()), span(&part, title.start)));
            }
            _ => {}
        }
    }
    builder.header.army_line = Some(Span::new(army.start, army.start + army.text.len()));
    for part in army_pairs.flat_map(|p| p.into_inner()) {
        match part.as_rule() {
            Rule::snapfire_list => {
                builder.header.army = Some(Spanned::new(
                    part.as_str().trim().to_string(),
                    span(&part, army.start),
                ));
            }
            Rule::snapfire_version => {
                builder.header.version =
                    Some(Spanned::new(part.as_str().to_string(), span(&part, army.start)));
            }
            _ => {}
        }
    }
    Some(rule_index + 1)
}

/// Bounds every count: one over [`MAX_COUNT`] is an error and counts once,
/// and once the formations add up to [`MAX_FORMATIONS`] every further entry
/// counts once (one error for the roster).
fn limit_counts(flat: &mut [Entry], file: &SourceFile, diagnostics: &mut Vec<Diagnostic>) {
    let mut total: u32 = 0;
    let mut over_total = false;
    for entry in flat.iter_mut() {
        for item in std::iter::once(&mut entry.item).chain(entry.upgrades.iter_mut()) {
            if item.count > MAX_COUNT {
                diagnostics.push(
                    Diagnostic::error(
                        Code::ParseError,
                        format!(
                            "a count of {} is more than any army list allows; muster reads counts up to {MAX_COUNT} and counts this once",
                            item.count
                        ),
                    )
                    .at(file, item.span)
                    .fix(format!("write the number of {} the army takes", item.name.value)),
                );
                item.count = 1;
            }
        }
        total = total.saturating_add(entry.item.count);
        if total > MAX_FORMATIONS && entry.item.count > 1 {
            if !over_total {
                diagnostics.push(
                    Diagnostic::error(
                        Code::ParseError,
                        format!(
                            "the counts add up to more than {MAX_FORMATIONS} formations; from here on each entry counts once"
                        ),
                    )
                    .at(file, entry.item.span),
                );
                over_total = true;
            }
            entry.item.count = 1;
        }
    }
}

/// Builds the tree of entries from their indentation (`indented`: the
/// index in `flat` and the indentation of each entry that has one).
fn nest(flat: Vec<Entry>, indented: &[(usize, usize)]) -> Vec<Entry> {
    fn attach(done: Entry, stack: &mut [(usize, Entry)], roots: &mut Vec<Entry>) {
        match stack.last_mut() {
            Some((_, parent)) => parent.children.push(done),
            None => roots.push(done),
        }
    }
    // No entry indented deeper than the one before it (most rosters): no
    // entry has children, every entry is a root, in order, where it is.
    if indented.is_empty() {
        return flat;
    }
    let mut indents = vec![0; flat.len()];
    for &(i, indent) in indented {
        if let Some(slot) = indents.get_mut(i) {
            *slot = indent;
        }
    }
    if indents.windows(2).all(|w| w[1] <= w[0]) {
        return flat;
    }
    let mut roots = Vec::with_capacity(flat.len());
    let mut stack: Vec<(usize, Entry)> = Vec::new();
    for (indent, entry) in indents.iter().copied().zip(flat) {
        while stack.last().is_some_and(|(top, _)| *top >= indent) {
            if let Some((_, done)) = stack.pop() {
                attach(done, &mut stack, &mut roots);
            }
        }
        stack.push((indent, entry));
    }
    while let Some((_, done)) = stack.pop() {
        attach(done, &mut stack, &mut roots);
    }
    roots
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_split_from_army_names() {
        assert_eq!(
            split_version("Codex Astartes (2026-02-04)"),
            ("Codex Astartes", Some("2026-02-04"))
        );
        assert_eq!(
            split_version("Codex Astartes (NetEA Tournament Pack (2026-02-04))"),
            ("Codex Astartes", Some("NetEA Tournament Pack (2026-02-04)"))
        );
        assert_eq!(split_version("Blitz (Big)"), ("Blitz (Big)", None));
    }

    #[test]
    fn a_version_is_placed_where_it_stands() {
        for (value, at) in [
            ("Codex Astartes (2026-02-04)", 16),
            ("Codex Astartes (2026-02-04)  ", 16),
            ("2026 (2026)", 6),
            ("a(1) (1)", 6),
            ("(9)", 1),
            ("Blitz (x9) (9)", 12),
            ("Codex Astartes (NetEA Tournament Pack (2026-02-04))", 16),
        ] {
            let (_, version) = split_version(value);
            let version = version.unwrap();
            assert_eq!(version_at(value, version), at, "{value}");
            assert_eq!(&value[at..at + version.len()], version, "{value}");
        }
    }

    #[test]
    fn points_forms() {
        assert_eq!(parse_points("3000"), Some(3000));
        assert_eq!(parse_points("3,000 points"), Some(3000));
        assert_eq!(parse_points("2500pts"), Some(2500));
        assert_eq!(parse_points("lots"), None);
        assert_eq!(parse_points("99999999999"), None);
    }
}
