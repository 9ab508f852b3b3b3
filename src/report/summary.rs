//! One row per roster of a batch (file, player, army, version, points,
//! status, first error, duplicates), shared by every batch report format,
//! and the terminal table made of those rows.
//!
//! Rows are plain text as the roster wrote it; each format escapes for its
//! own medium (the table replaces control characters, HTML escapes markup,
//! CSV quotes and defuses formulas). Nothing here does I/O.

use crate::batch::{Duplicate, DuplicateGroup, DuplicateKind};
use crate::check::Checked;
use std::fmt::Write as _;

/// A roster's verdict in a batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum Status {
    Legal,
    Illegal,
    /// Not read at all: empty, binary, not UTF-8, too large, missing.
    Unreadable,
    /// Text, but nothing of a roster in it: no army, points, player or
    /// event line (a letter, notes, a list in some other form).
    NotARoster,
}

impl Status {
    /// Stable text, used in the JSON and CSV reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Legal => "legal",
            Status::Illegal => "illegal",
            Status::Unreadable => "unreadable",
            Status::NotARoster => "not-a-roster",
        }
    }

    fn of(c: &Checked<'_>) -> Status {
        let h = &c.header;
        if c.unusable() {
            Status::Unreadable
        } else if c.legal() {
            Status::Legal
        } else if c.list.is_none()
            && h.army.is_none()
            && h.points.is_none()
            && h.player.is_none()
            && h.event.is_none()
            && h.title.is_none()
        {
            Status::NotARoster
        } else {
            Status::Illegal
        }
    }
}

/// At most this many other files a report row names of one set of
/// duplicates: a set larger than that (a folder of copies) gives a count
/// of the rest, so a report grows with its rosters, not with their pairs.
pub const SET_NAMED: usize = 50;

/// A set of duplicates as a report row of one of its rosters shows it:
/// every other roster of the set.
#[derive(Debug, Clone)]
pub struct DuplicateRow {
    pub kind: DuplicateKind,
    /// The other rosters' files, in row order, at most [`SET_NAMED`].
    pub files: Vec<String>,
    /// The other rosters of the set not in `files`.
    pub more: usize,
}

impl DuplicateRow {
    /// Row `i`'s sets, from its links ([`crate::batch::duplicates`]) and
    /// the sets they belong to ([`crate::batch::duplicate_groups`]), each
    /// other member named by `file`.
    pub fn of_links(
        i: usize,
        links: &[Duplicate],
        groups: &[DuplicateGroup],
        file: impl Fn(usize) -> Option<String>,
    ) -> Vec<DuplicateRow> {
        links
            .iter()
            .filter_map(|d| {
                // A set is found by its first member: this row, or the one
                // it links to.
                let key = (i.min(d.other), d.kind);
                let at = groups
                    .binary_search_by_key(&key, |g| {
                        (g.members.first().copied().unwrap_or(usize::MAX), g.kind)
                    })
                    .ok()?;
                let others = groups[at].members.iter().filter(|&&m| m != i);
                let files: Vec<String> = others.clone().take(SET_NAMED).filter_map(|&m| file(m)).collect();
                let more = others.count().saturating_sub(files.len());
                Some(DuplicateRow {
                    kind: d.kind,
                    files,
                    more,
                })
            })
            .collect()
    }

    /// `same list as a.txt, b.txt and c.txt`, `same player as a.txt`, as
    /// the reports say it.
    pub fn describe(&self) -> String {
        let kind = match self.kind {
            DuplicateKind::SamePlayer => "same player as",
            DuplicateKind::SameList => "same list as",
        };
        let who = match (self.files.as_slice(), self.more) {
            (named, more) if more > 0 => format!("{} and {more} more", named.join(", ")),
            ([rest @ .., last], _) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            (named, _) => named.join(", "),
        };
        format!("{kind} {who}")
    }
}

/// One roster of a batch: what every report shows of it, owned, so a batch
/// keeps its rows and lets the results go. Serialized in the server's
/// inbox records (`serve::inbox`); in a batch's temporary file it waits as
/// `batch::row_part` writes it. Never with its duplicates, which are found
/// after every roster is checked.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Row {
    /// The file, as the batch names it.
    pub file: String,
    pub status: Status,
    pub player: Option<String>,
    /// Snapfire's force name (the first line of its export), if any.
    pub title: Option<String>,
    /// The army list's name, when the roster names a known list.
    pub army: Option<String>,
    /// The army list's id, when the roster names a known list.
    pub army_id: Option<String>,
    pub version: Option<String>,
    pub points: Option<i64>,
    pub limit: Option<u32>,
    pub errors: usize,
    pub warnings: usize,
    /// The first error, prefixed with its line when it has one.
    pub first_error: Option<String>,
    #[serde(skip)]
    pub duplicates: Vec<DuplicateRow>,
}

impl Row {
    /// The row of one result; its duplicates come later ([`Summary::link`]).
    pub fn of(c: &Checked<'_>) -> Row {
        let first_error = c
            .diagnostics
            .iter()
            .find(|d| d.is_error())
            .map(|d| match d.line_col() {
                Some((line, _)) => format!("line {line}: {}", d.message),
                None => d.message.clone(),
            });
        Row {
            file: c.name.clone(),
            status: Status::of(c),
            player: c.header.player.as_ref().map(|p| p.value.clone()),
            title: c.header.title.as_ref().map(|t| t.value.clone()),
            army: c.list.map(|l| l.name.clone()),
            army_id: c.list.map(|l| l.id.clone()),
            version: c.list.map(|l| l.version.clone()),
            points: c.army.as_ref().map(|a| a.total),
            limit: c.limit(),
            errors: c.errors(),
            // Warnings only: notes (unchecked rules, the version assumed)
            // are not something to fix.
            warnings: c
                .diagnostics
                .iter()
                .filter(|d| d.severity == crate::diagnostic::Severity::Warning)
                .count(),
            first_error,
            duplicates: Vec::new(),
        }
    }

    /// Who the roster is for: the player, or else the force name a Snapfire
    /// export carries (its first line), marked as such since it names the
    /// army, not the person.
    pub fn who(&self) -> Option<String> {
        self.player
            .clone()
            .or_else(|| self.title.as_ref().map(|t| format!("{t} (force)")))
    }

    /// `2750/3000`, `2750`, or empty: a limit alone (`/3000`) would be a
    /// denominator with nothing over it, as for a roster of an army muster
    /// does not know.
    pub fn points_text(&self) -> String {
        match (self.points, self.limit) {
            (Some(p), Some(l)) => format!("{p}/{l}"),
            (Some(p), None) => p.to_string(),
            (None, _) => String::new(),
        }
    }

    /// `legal`, `NOT legal (3)`, `unreadable` or `not a roster`.
    pub fn status_text(&self) -> String {
        match self.status {
            Status::Legal => "legal".to_string(),
            Status::Illegal => format!("NOT legal ({})", self.errors),
            Status::Unreadable => "unreadable".to_string(),
            Status::NotARoster => "not a roster".to_string(),
        }
    }
}

/// Every row of a batch, with the counts.
#[derive(Debug)]
pub struct Summary {
    pub rows: Vec<Row>,
    /// The event the rosters were checked for, if any.
    pub event: Option<String>,
    /// The sets of duplicates, each once ([`Summary::link`]).
    pub groups: Vec<DuplicateGroup>,
}

impl Summary {
    /// Rows for `results`; `duplicates` is [`crate::batch::duplicates`] of
    /// the same results.
    pub fn new(results: &[Checked<'_>], duplicates: &[Vec<Duplicate>], event: Option<String>) -> Self {
        let mut summary = Summary {
            rows: results.iter().map(Row::of).collect(),
            event,
            groups: Vec::new(),
        };
        summary.link(duplicates);
        summary
    }

    /// Fills each row's duplicates, and the sets, from
    /// [`crate::batch::duplicates`] (or `duplicates_of`) of the same
    /// rosters.
    pub fn link(&mut self, duplicates: &[Vec<Duplicate>]) {
        self.groups = crate::batch::duplicate_groups(duplicates);
        for (i, links) in duplicates.iter().enumerate() {
            let found = DuplicateRow::of_links(i, links, &self.groups, |m| {
                self.rows.get(m).map(|r| r.file.clone())
            });
            if let Some(row) = self.rows.get_mut(i) {
                row.duplicates = found;
            }
        }
    }

    /// Each set of duplicates once, members in row order.
    pub fn duplicate_groups(&self) -> Vec<DuplicateGroup> {
        self.groups.clone()
    }
}

/// The rows of a batch as the CSV, HTML and JSON reports read them: kept
/// in memory ([`Summary`]) or read back from where a large batch put them
/// (`muster check`'s temporary file), so the reports never need every row
/// at once.
pub trait Rows {
    /// The event the rosters were checked for, if any.
    fn event(&self) -> Option<&str>;
    /// Each roster's status, in order.
    fn statuses(&self) -> std::borrow::Cow<'_, [Status]>;
    /// How many sets of duplicates there are.
    fn duplicate_sets(&self) -> usize;
    /// Every row, in order, with its duplicates filled in; read from the
    /// start again on each call.
    fn read(&self) -> std::io::Result<Box<dyn Iterator<Item = std::io::Result<Row>> + '_>>;

    /// The closing line: `5 rosters: 2 legal, 2 not legal, 1 unreadable`.
    fn totals(&self) -> String {
        totals_line(&self.statuses(), self.duplicate_sets())
    }
}

impl Rows for Summary {
    fn event(&self) -> Option<&str> {
        self.event.as_deref()
    }

    fn statuses(&self) -> std::borrow::Cow<'_, [Status]> {
        self.rows.iter().map(|r| r.status).collect()
    }

    fn duplicate_sets(&self) -> usize {
        self.duplicate_groups().len()
    }

    fn read(&self) -> std::io::Result<Box<dyn Iterator<Item = std::io::Result<Row>> + '_>> {
        Ok(Box::new(self.rows.iter().cloned().map(Ok)))
    }
}

/// Column widths past which the table cuts a cell (with `…`); file names
/// are never cut, since the organiser needs them to find the file.
const PLAYER_WIDTH: usize = 24;
const ARMY_WIDTH: usize = 30;
const ERROR_WIDTH: usize = 70;

/// The totals line: how many rosters, how many have each status (one
/// status a roster), how many sets of duplicates.
pub fn totals_line(statuses: &[Status], groups: usize) -> String {
    let n = statuses.len();
    let count = |s: Status| statuses.iter().filter(|&&x| x == s).count();
    let mut line = format!(
        "{n} roster{}: {} legal, {} not legal, {} unreadable",
        if n == 1 { "" } else { "s" },
        count(Status::Legal),
        count(Status::Illegal),
        count(Status::Unreadable)
    );
    let strays = count(Status::NotARoster);
    if strays > 0 {
        let _ = write!(line, ", {strays} not a roster");
    }
    if groups > 0 {
        let _ = write!(
            line,
            "; {groups} set{} of duplicates",
            if groups == 1 { "" } else { "s" }
        );
    }
    line
}

/// A row's seven cells as the table prints them (cleaned, cut, with their
/// widths in characters), made apart from the table so a batch makes them
/// on the thread that checked the roster: what is left to [`write_rows`],
/// on one thread, is the widths' maximum and the copying.
#[derive(Debug, Clone)]
pub struct Cells {
    /// The cells one after another.
    text: String,
    /// Where each cell ends in `text`.
    ends: [u32; 7],
    /// Each cell's width in characters.
    widths: [u32; 7],
}

impl Cells {
    pub fn of(r: &Row) -> Cells {
        let mut cells = Cells {
            text: String::with_capacity(r.file.len() + 160),
            ends: [0; 7],
            widths: [0; 7],
        };
        let file = cells.push_cell(&r.file, usize::MAX);
        cells.end(0, file);
        let who = match (&r.player, &r.title) {
            (Some(p), _) => cells.push_cell(p, PLAYER_WIDTH),
            (None, Some(t)) => cells.push_cell(&format!("{t} (force)"), PLAYER_WIDTH),
            (None, None) => cells.push_cell("-", PLAYER_WIDTH),
        };
        cells.end(1, who);
        let army = cells.push_cell(r.army.as_deref().unwrap_or("-"), ARMY_WIDTH);
        cells.end(2, army);
        let version = cells.push_cell(r.version.as_deref().unwrap_or("-"), ARMY_WIDTH);
        cells.end(3, version);
        // `points_text`, written in place.
        let start = cells.text.len();
        if let Some(p) = r.points {
            cells.text.push_str(itoa::Buffer::new().format(p));
            if let Some(l) = r.limit {
                cells.text.push('/');
                cells.text.push_str(itoa::Buffer::new().format(l));
            }
        }
        cells.end(4, cells.text.len() - start);
        // `status_text`, written in place.
        let start = cells.text.len();
        match r.status {
            Status::Legal => cells.text.push_str("legal"),
            Status::Illegal => {
                cells.text.push_str("NOT legal (");
                cells.text.push_str(itoa::Buffer::new().format(r.errors));
                cells.text.push(')');
            }
            Status::Unreadable => cells.text.push_str("unreadable"),
            Status::NotARoster => cells.text.push_str("not a roster"),
        }
        cells.end(5, cells.text.len() - start);
        let error = cells.push_cell(r.first_error.as_deref().unwrap_or(""), ERROR_WIDTH);
        cells.end(6, error);
        cells
    }

    /// The cells, each with its width.
    fn iter(&self) -> impl Iterator<Item = (&str, usize)> {
        let mut start = 0;
        self.ends.iter().zip(self.widths).map(move |(&end, width)| {
            let end = end as usize;
            let cell = self.text.get(start..end).unwrap_or("");
            start = end;
            (cell, width as usize)
        })
    }

    /// Widens `widths` to this row's cells.
    pub fn widen(&self, widths: &mut [usize; 7]) {
        for (w, width) in widths.iter_mut().zip(self.widths) {
            *w = (*w).max(width as usize);
        }
    }

    /// The cells as one part of a spool (the text, a unit separator, then
    /// the cells' ends and widths), read back by [`Cells::from_part`].
    pub fn into_part(self) -> String {
        let mut part = self.text;
        part.push('\u{1f}');
        for n in self.ends.iter().chain(&self.widths) {
            part.push_str(itoa::Buffer::new().format(*n));
            part.push(',');
        }
        part
    }

    /// The cells [`Cells::into_part`] wrote, or `None` for anything else.
    pub fn from_part(mut part: String) -> Option<Cells> {
        let (_, numbers) = part.rsplit_once('\u{1f}')?;
        let mut values = numbers.split_terminator(',').map(str::parse::<u32>);
        let mut ends = [0; 7];
        let mut widths = [0; 7];
        for n in ends.iter_mut().chain(widths.iter_mut()) {
            *n = values.next()?.ok()?;
        }
        if values.next().is_some() {
            return None;
        }
        let text_len = part.len() - numbers.len() - 1;
        part.truncate(text_len);
        if ends.iter().any(|&e| e as usize > part.len()) {
            return None;
        }
        Some(Cells {
            text: part,
            ends,
            widths,
        })
    }

    /// The second cell: the player (cleaned and cut), or the force name.
    pub fn who(&self) -> &str {
        self.iter().nth(1).map_or("", |(cell, _)| cell)
    }

    /// Ends cell `i` here, `width` characters wide.
    fn end(&mut self, i: usize, width: usize) {
        // A cell is a roster's value or a path: far below 4 GiB.
        self.ends[i] = u32::try_from(self.text.len()).unwrap_or(u32::MAX);
        self.widths[i] = u32::try_from(width).unwrap_or(u32::MAX);
    }

    /// Adds [`clean`] of `text` to the cells' text; its width in characters.
    fn push_cell(&mut self, text: &str, width: usize) -> usize {
        // Printable ASCII, the usual case, told in one pass without an
        // early exit, which the compiler turns into a few wide compares.
        let printable = text.bytes().fold(true, |ok, b| ok & (b' '..0x7f).contains(&b));
        if !printable && !text.is_ascii() {
            let cleaned = clean(text, width);
            self.text.push_str(&cleaned);
            return cleaned.chars().count();
        }
        // A byte a character, as `clean` cuts an ASCII text.
        let cut = if text.len() > width {
            width.saturating_sub(1)
        } else {
            text.len()
        };
        let kept = text.get(..cut).unwrap_or(text);
        if printable {
            self.text.push_str(kept);
        } else {
            self.text.extend(
                kept.bytes()
                    .map(|b| if b.is_ascii_control() { '?' } else { char::from(b) }),
            );
        }
        if cut < text.len() {
            self.text.push('…');
            return cut + 1;
        }
        cut
    }
}

/// The terminal table of rows kept in memory: a header, one line per
/// roster, the duplicates, and the totals. `muster check` writes the same
/// text from cells it read back from a temporary file, a block at a time
/// (`cli::batch`), with the same pieces: [`write_header`], [`write_rows`],
/// [`write_tail`].
pub fn table(summary: &Summary) -> String {
    let cells: Vec<Cells> = summary.rows.iter().map(Cells::of).collect();
    let widths = column_widths(&cells);
    let groups = summary.duplicate_groups();
    let name = |i: usize| summary.rows.get(i).map(|r| clean(&r.file, usize::MAX));
    let player = |i: usize| {
        let player = summary.rows.get(i).and_then(|r| r.player.as_deref());
        clean(player.unwrap_or(""), PLAYER_WIDTH)
    };
    let mut out = Vec::new();
    // Writing to a vector cannot fail, and every piece is a `str`.
    let _ = write_header(&mut out, &widths)
        .and_then(|()| write_rows(&mut out, &widths, &cells))
        .and_then(|()| write_tail(&mut out, &groups, name, player, &summary.totals()));
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// The table's column titles.
const HEADER: [&str; 7] = [
    "FILE",
    "PLAYER",
    "ARMY",
    "VERSION",
    "POINTS",
    "STATUS",
    "FIRST ERROR",
];

/// Each column's title's width, the least it can be.
pub fn header_widths() -> [usize; 7] {
    HEADER.map(|h| h.chars().count())
}

/// Each column's width: its widest cell or its title.
pub fn column_widths(cells: &[Cells]) -> [usize; 7] {
    let mut widths = header_widths();
    for row in cells {
        row.widen(&mut widths);
    }
    widths
}

/// The table's lines [`write_rows`] makes on one thread of the pool.
pub const ROWS_A_BLOCK: usize = 1024;

/// The table's lines written at once: a block for each thread of the pool
/// (two at least), so the rows and text held do not grow with the rosters
/// (eight blocks were 4 MB).
pub fn rows_at_once() -> usize {
    ROWS_A_BLOCK * rayon::current_num_threads().max(2)
}

/// The table's first line, its column titles.
pub fn write_header(w: &mut dyn std::io::Write, widths: &[usize; 7]) -> std::io::Result<()> {
    let mut out = String::with_capacity(256);
    line(&mut out, HEADER.iter().copied().zip(header_widths()), widths);
    w.write_all(out.as_bytes())
}

/// The lines of `rows` (at most [`rows_at_once`] at a time, so the text
/// held stays small), padded to `widths`.
pub fn write_rows(w: &mut dyn std::io::Write, widths: &[usize; 7], rows: &[Cells]) -> std::io::Result<()> {
    // The longest a line can be: every column at its width, the gaps, the
    // line break (more only where a character takes several bytes).
    let longest = widths.iter().sum::<usize>() + 2 * (widths.len() - 1) + 1;
    const BLOCK: usize = ROWS_A_BLOCK;
    if rows.len() > BLOCK {
        use rayon::prelude::*;
        let texts: Vec<String> = rows
            .par_chunks(BLOCK)
            .map(|block| {
                let mut text = String::with_capacity(block.len() * longest);
                for row in block {
                    line(&mut text, row.iter(), widths);
                }
                text
            })
            .collect();
        for text in texts {
            w.write_all(text.as_bytes())?;
        }
        return Ok(());
    }
    let mut out = String::with_capacity(rows.len() * longest);
    for row in rows {
        line(&mut out, row.iter(), widths);
    }
    w.write_all(out.as_bytes())
}

/// The table's end: a line per set of duplicates and the totals. `name`
/// gives a row's file as its cell shows it, `player` the player of a row
/// (cleaned and cut as its cell).
pub fn write_tail(
    w: &mut dyn std::io::Write,
    groups: &[crate::batch::DuplicateGroup],
    name: impl Fn(usize) -> Option<String>,
    player: impl Fn(usize) -> String,
    totals: &str,
) -> std::io::Result<()> {
    let mut out = String::new();
    if !groups.is_empty() {
        out.push('\n');
    }
    for group in groups {
        // Written a block at a time: 20,000 sets are 3.5 MB of lines.
        if out.len() >= 64 * 1024 {
            w.write_all(out.as_bytes())?;
            out.clear();
        }
        // Name a few members; a group of thousands stays one line.
        const NAMED: usize = 3;
        let names: Vec<String> = group
            .members
            .iter()
            .take(NAMED)
            .filter_map(|&i| name(i))
            .collect();
        let who = match (names.as_slice(), group.members.len()) {
            ([a, b], 2) => format!("{a} and {b}"),
            (named, n) if n > NAMED => format!("{} and {} more", named.join(", "), n - NAMED),
            ([rest @ .., last], _) => format!("{} and {last}", rest.join(", ")),
            ([], _) => continue,
        };
        let _ = match group.kind {
            DuplicateKind::SamePlayer => {
                let player = group.members.first().map(|&i| player(i)).unwrap_or_default();
                writeln!(out, "duplicate: {who} name the same player ({player})")
            }
            DuplicateKind::SameList => writeln!(out, "duplicate: {who} hold the same list"),
        };
    }
    out.push('\n');
    out.push_str(totals);
    out.push('\n');
    w.write_all(out.as_bytes())
}

/// Writes one line of the table: each cell padded to its column's width
/// and two spaces, the last one not, and no blanks at the end.
fn line<'a>(out: &mut String, cells: impl Iterator<Item = (&'a str, usize)>, widths: &[usize; 7]) {
    // Padding is copied from here rather than pushed a space at a time.
    const SPACES: &str = "                                                                ";
    let start = out.len();
    for (i, (cell, count)) in cells.enumerate() {
        out.push_str(cell);
        if let Some(width) = widths.get(i).filter(|_| i + 1 < widths.len()) {
            let mut pad = width.saturating_sub(count) + 2;
            while pad > 0 {
                let n = pad.min(SPACES.len());
                out.push_str(&SPACES[..n]);
                pad -= n;
            }
        }
    }
    let kept = out[start..].trim_end().len();
    out.truncate(start + kept);
    out.push('\n');
}

/// A file's cell: its name with control characters shown as `?`.
pub fn file_cell(name: &str) -> String {
    clean(name, usize::MAX)
}

/// A cell for the terminal: control characters (which could move the
/// cursor or change colours) shown as `?`, and cut to `width` characters.
fn clean(text: &str, width: usize) -> String {
    if text.is_ascii() {
        // A byte a character: cut and replace without decoding.
        let cut = if text.len() > width {
            width.saturating_sub(1)
        } else {
            text.len()
        };
        let mut out = String::with_capacity(cut + 3);
        out.extend(
            text.bytes()
                .take(cut)
                .map(|b| if b.is_ascii_control() { '?' } else { char::from(b) }),
        );
        if cut < text.len() {
            out.push('…');
        }
        return out;
    }
    // The terminal's own test of what may not be shown raw (controls and
    // bidirectional overrides, which reorder the row around them).
    let mut out: String = text
        .chars()
        .map(|c| {
            if c.is_control() || crate::escape::hostile_char(c) {
                '?'
            } else {
                c
            }
        })
        .collect();
    if out.chars().count() > width {
        out = out.chars().take(width.saturating_sub(1)).collect();
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    /// [`clean`] borrowing `text` where it is clean already, with its width
    /// in characters.
    fn cell(text: &str, width: usize) -> (Cow<'_, str>, usize) {
        if text.is_ascii() && !text.bytes().any(|b| b.is_ascii_control()) && text.len() <= width {
            return (Cow::Borrowed(text), text.len());
        }
        let cleaned = clean(text, width);
        let count = cleaned.chars().count();
        (Cow::Owned(cleaned), count)
    }

    /// A cell that needs no cleaning, with its width in characters.
    fn counted(text: Cow<'_, str>) -> (Cow<'_, str>, usize) {
        let count = text.chars().count();
        (text, count)
    }

    /// The cells as the table made them before [`Cells`]: one `Cow` each.
    fn cells_the_long_way(r: &Row) -> Vec<(String, usize)> {
        let who = match (&r.player, &r.title) {
            (Some(p), _) => cell(p, PLAYER_WIDTH),
            (None, Some(t)) => counted(Cow::Owned(clean(&format!("{t} (force)"), PLAYER_WIDTH))),
            (None, None) => cell("-", PLAYER_WIDTH),
        };
        let points = match r.points {
            None => Cow::Borrowed(""),
            Some(_) => Cow::Owned(r.points_text()),
        };
        [
            cell(&r.file, usize::MAX),
            who,
            cell(r.army.as_deref().unwrap_or("-"), ARMY_WIDTH),
            cell(r.version.as_deref().unwrap_or("-"), ARMY_WIDTH),
            counted(points),
            counted(Cow::Owned(r.status_text())),
            cell(r.first_error.as_deref().unwrap_or(""), ERROR_WIDTH),
        ]
        .into_iter()
        .map(|(c, n)| (c.into_owned(), n))
        .collect()
    }

    /// Cells made in place are the cells the table printed before: cut,
    /// cleaned and counted alike, numbers as `Display` writes them.
    #[test]
    fn cells_are_cut_cleaned_and_counted_as_before() {
        let texts = [
            "",
            "-",
            "Ann",
            "a\u{1b}[31mb",
            "tab\there",
            "x".repeat(24).leak(),
            "y".repeat(25).leak(),
            "z".repeat(200).leak(),
            "Jérôme",
            "é".repeat(40).leak(),
            "ctrl \u{7f} and \u{85} in é",
            "line 3: the army costs 5375 points, 2375 over the limit of 3000 and a good deal more besides",
        ];
        let numbers = [
            (None, None, 0),
            (Some(0), Some(0), 1),
            (Some(-5), None, 9),
            (None, Some(3000), 10),
            (Some(i64::MIN), Some(u32::MAX), 123),
            (Some(i64::MAX), Some(1), usize::MAX),
        ];
        let statuses = [
            Status::Legal,
            Status::Illegal,
            Status::Unreadable,
            Status::NotARoster,
        ];
        let mut rows = 0;
        for (i, text) in texts.iter().enumerate() {
            for (j, &(points, limit, errors)) in numbers.iter().enumerate() {
                let other = texts[(i + j + 1) % texts.len()];
                let row = Row {
                    file: format!("dir/{text}.txt"),
                    status: statuses[(i + j) % statuses.len()],
                    player: (j % 3 != 0).then(|| text.to_string()),
                    title: (j % 2 == 0).then(|| other.to_string()),
                    army: (j != 1).then(|| other.to_string()),
                    army_id: None,
                    version: (j != 2).then(|| text.to_string()),
                    points,
                    limit,
                    errors,
                    warnings: 0,
                    first_error: (j != 3).then(|| format!("line {i}: {other}{text}")),
                    duplicates: Vec::new(),
                };
                let made: Vec<(String, usize)> =
                    Cells::of(&row).iter().map(|(c, n)| (c.to_string(), n)).collect();
                assert_eq!(made, cells_the_long_way(&row), "{row:?}");
                rows += 1;
            }
        }
        assert_eq!(rows, texts.len() * numbers.len());
    }
    #[test]
    fn cells_lose_control_characters_and_are_cut() {
        assert_eq!(clean("a\u{1b}[31mb", 100), "a?[31mb");
        assert_eq!(clean("abcdef", 4), "abc…");
        assert_eq!(clean("abc", 3), "abc");
    }

    /// A table larger than the blocks written at once (8 x 1,024 lines)
    /// comes out whole and in order, the same as writing it a line at a
    /// time with the same widths.
    #[test]
    fn a_large_table_is_written_whole_and_in_order() {
        let rows: Vec<Row> = (0..9_000)
            .map(|i| Row {
                file: format!("dir/roster-{i:05}.txt"),
                status: if i % 7 == 0 {
                    Status::Legal
                } else {
                    Status::Illegal
                },
                player: (i % 3 != 0).then(|| format!("Player {}", i % 1_000)),
                title: None,
                army: Some("Codex Astartes".to_string()),
                army_id: None,
                version: Some("2023-01-03".to_string()),
                points: Some(3_000 - i64::from(i % 400)),
                limit: Some(3_000),
                errors: usize::try_from(i % 5).unwrap_or(0),
                warnings: 0,
                first_error: (i % 7 != 0).then(|| format!("line {}: something is wrong", i % 40)),
                duplicates: Vec::new(),
            })
            .collect();
        let summary = Summary {
            rows,
            event: None,
            groups: Vec::new(),
        };
        let cells: Vec<Cells> = summary.rows.iter().map(Cells::of).collect();
        let table = table(&summary);
        let lines: Vec<&str> = table.lines().collect();
        for (i, line) in lines.iter().skip(1).take(9_000).enumerate() {
            assert!(
                line.starts_with(&format!("dir/roster-{i:05}.txt ")),
                "line {i}: {line}"
            );
        }
        // The same widths, one line at a time.
        let first = lines.first().copied().unwrap_or_default();
        let widths = column_widths(&cells);
        let mut by_line = String::new();
        for row in &cells {
            line(&mut by_line, row.iter(), &widths);
        }
        assert!(first.starts_with("FILE"));
        assert!(
            table.contains(&by_line),
            "the rows differ from the line-at-a-time table"
        );
        assert!(table.ends_with(&format!("{}\n", summary.totals())));
    }

    /// A row's cells read back from a spool are the cells written; any
    /// other text is refused.
    #[test]
    fn cells_read_back_from_a_spool_are_the_cells_written() {
        for (file, player) in [
            ("a.txt", Some("Ann")),
            ("dir/é \u{7}.txt", Some("Jérôme")),
            ("x", None),
        ] {
            let row = Row {
                file: file.to_string(),
                status: Status::Illegal,
                player: player.map(str::to_string),
                title: Some("Waaagh".to_string()),
                army: None,
                army_id: None,
                version: Some("1.0".to_string()),
                points: Some(-5),
                limit: Some(3_000),
                errors: 2,
                warnings: 0,
                first_error: Some("line 3: wrong".to_string()),
                duplicates: Vec::new(),
            };
            let cells = Cells::of(&row);
            let written: Vec<(String, usize)> = cells.iter().map(|(c, n)| (c.to_string(), n)).collect();
            let back = Cells::from_part(cells.into_part()).unwrap_or_else(|| panic!("{row:?}"));
            let read: Vec<(String, usize)> = back.iter().map(|(c, n)| (c.to_string(), n)).collect();
            assert_eq!(read, written);
        }
        for bad in [
            "",
            "text",
            "text\u{1f}1,2,3,",
            "t\u{1f}1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,",
            "t\u{1f}9,9,9,9,9,9,9,1,1,1,1,1,1,1,",
        ] {
            assert!(Cells::from_part(bad.to_string()).is_none(), "{bad:?}");
        }
    }
}
