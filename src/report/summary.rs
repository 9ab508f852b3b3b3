//! One row per roster of a batch (file, player, army, version, points,
//! status, first error, duplicates), shared by every batch report format,
//! and the terminal table made of those rows.
//!
//! Rows are plain text as the roster wrote it; each format escapes for its
//! own medium (the table replaces control characters, HTML escapes markup,
//! CSV quotes and defuses formulas). Nothing here does I/O.

use crate::batch::{Duplicate, DuplicateKind};
use crate::check::Checked;
use std::fmt::Write as _;

/// A roster's verdict in a batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
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

/// A duplicate as the reports show it.
#[derive(Debug, Clone)]
pub struct DuplicateRow {
    pub kind: DuplicateKind,
    /// The other roster's row.
    pub other: usize,
    /// The other roster's file.
    pub file: String,
}

/// One roster of a batch.
#[derive(Debug)]
pub struct Row<'a, 'c> {
    pub checked: &'a Checked<'c>,
    pub status: Status,
    pub player: Option<String>,
    /// The army list's name, when the roster names a known list.
    pub army: Option<String>,
    pub version: Option<String>,
    pub points: Option<i64>,
    pub limit: Option<u32>,
    pub errors: usize,
    pub warnings: usize,
    /// The first error, prefixed with its line when it has one.
    pub first_error: Option<String>,
    pub duplicates: Vec<DuplicateRow>,
}

impl Row<'_, '_> {
    /// Who the roster is for: the player, or else the force name a Snapfire
    /// export carries (its first line), marked as such since it names the
    /// army, not the person.
    pub fn who(&self) -> Option<String> {
        self.player.clone().or_else(|| {
            self.checked
                .header
                .title
                .as_ref()
                .map(|t| format!("{} (force)", t.value))
        })
    }

    /// `2750/3000`, `2750`, `/3000` or empty.
    pub fn points_text(&self) -> String {
        match (self.points, self.limit) {
            (Some(p), Some(l)) => format!("{p}/{l}"),
            (Some(p), None) => p.to_string(),
            (None, Some(l)) => format!("/{l}"),
            (None, None) => String::new(),
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
pub struct Summary<'a, 'c> {
    pub rows: Vec<Row<'a, 'c>>,
    /// The event the rosters were checked for, if any.
    pub event: Option<String>,
}

impl<'a, 'c> Summary<'a, 'c> {
    /// Rows for `results`; `duplicates` is [`crate::batch::duplicates`] of
    /// the same results.
    pub fn new(results: &'a [Checked<'c>], duplicates: &[Vec<Duplicate>], event: Option<String>) -> Self {
        let rows = results
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let status = Status::of(c);
                let first_error = c
                    .diagnostics
                    .iter()
                    .find(|d| d.is_error())
                    .map(|d| match d.line_col() {
                        Some((line, _)) => format!("line {line}: {}", d.message),
                        None => d.message.clone(),
                    });
                Row {
                    checked: c,
                    status,
                    player: c.header.player.as_ref().map(|p| p.value.clone()),
                    army: c.list.map(|l| l.name.clone()),
                    version: c.list.map(|l| l.version.clone()),
                    points: c.army.as_ref().map(|a| a.total),
                    limit: c.limit(),
                    errors: c.errors(),
                    // Warnings only: notes (unchecked rules, the version
                    // assumed) are not something to fix.
                    warnings: c
                        .diagnostics
                        .iter()
                        .filter(|d| d.severity == crate::diagnostic::Severity::Warning)
                        .count(),
                    first_error,
                    duplicates: duplicates
                        .get(i)
                        .into_iter()
                        .flatten()
                        .filter_map(|d| {
                            results.get(d.other).map(|o| DuplicateRow {
                                kind: d.kind,
                                other: d.other,
                                file: o.name.clone(),
                            })
                        })
                        .collect(),
                }
            })
            .collect();
        Summary { rows, event }
    }

    pub fn count(&self, status: Status) -> usize {
        self.rows.iter().filter(|r| r.status == status).count()
    }

    /// Each set of duplicates once, members in row order.
    pub fn duplicate_groups(&self) -> Vec<crate::batch::DuplicateGroup> {
        let links: Vec<Vec<crate::batch::Duplicate>> = self
            .rows
            .iter()
            .map(|r| {
                r.duplicates
                    .iter()
                    .map(|d| crate::batch::Duplicate {
                        kind: d.kind,
                        other: d.other,
                    })
                    .collect()
            })
            .collect();
        crate::batch::duplicate_groups(&links)
    }

    /// The closing line: `5 rosters: 2 legal, 2 not legal, 1 unreadable`.
    pub fn totals(&self) -> String {
        let n = self.rows.len();
        let mut line = format!(
            "{n} roster{}: {} legal, {} not legal, {} unreadable",
            if n == 1 { "" } else { "s" },
            self.count(Status::Legal),
            self.count(Status::Illegal),
            self.count(Status::Unreadable)
        );
        let strays = self.count(Status::NotARoster);
        if strays > 0 {
            let _ = write!(line, ", {strays} not a roster");
        }
        let groups = self.duplicate_groups().len();
        if groups > 0 {
            let _ = write!(
                line,
                "; {groups} set{} of duplicates",
                if groups == 1 { "" } else { "s" }
            );
        }
        line
    }
}

/// Column widths past which the table cuts a cell (with `…`); file names
/// are never cut, since the organiser needs them to find the file.
const PLAYER_WIDTH: usize = 24;
const ARMY_WIDTH: usize = 30;
const ERROR_WIDTH: usize = 70;

/// The terminal table: a header, one line per roster, the duplicates, and
/// the totals.
pub fn table(summary: &Summary<'_, '_>) -> String {
    let header = [
        "FILE",
        "PLAYER",
        "ARMY",
        "VERSION",
        "POINTS",
        "STATUS",
        "FIRST ERROR",
    ];
    let cells: Vec<[String; 7]> = summary
        .rows
        .iter()
        .map(|r| {
            [
                clean(&r.checked.name, usize::MAX),
                clean(r.who().as_deref().unwrap_or("-"), PLAYER_WIDTH),
                clean(r.army.as_deref().unwrap_or("-"), ARMY_WIDTH),
                clean(r.version.as_deref().unwrap_or("-"), ARMY_WIDTH),
                r.points_text(),
                r.status_text(),
                clean(r.first_error.as_deref().unwrap_or(""), ERROR_WIDTH),
            ]
        })
        .collect();
    let mut widths = header.map(|h| h.chars().count());
    for row in &cells {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let mut line = |cells: &[&str]| {
        let mut text = String::new();
        for (i, (cell, width)) in cells.iter().zip(widths).enumerate() {
            if i + 1 == cells.len() {
                text.push_str(cell);
            } else {
                let pad = width - cell.chars().count();
                let _ = write!(text, "{cell}{}  ", " ".repeat(pad));
            }
        }
        out.push_str(text.trim_end());
        out.push('\n');
    };
    line(&header);
    for row in &cells {
        line(&row.each_ref().map(String::as_str));
    }
    let groups = summary.duplicate_groups();
    if !groups.is_empty() {
        out.push('\n');
    }
    for group in groups {
        // Name a few members; a group of thousands stays one line.
        const NAMED: usize = 3;
        let names: Vec<String> = group
            .members
            .iter()
            .take(NAMED)
            .filter_map(|&i| summary.rows.get(i))
            .map(|r| clean(&r.checked.name, usize::MAX))
            .collect();
        let who = match (names.as_slice(), group.members.len()) {
            ([a, b], 2) => format!("{a} and {b}"),
            (named, n) if n > NAMED => format!("{} and {} more", named.join(", "), n - NAMED),
            ([rest @ .., last], _) => format!("{} and {last}", rest.join(", ")),
            ([], _) => continue,
        };
        let _ = match group.kind {
            DuplicateKind::SamePlayer => {
                let player = group
                    .members
                    .first()
                    .and_then(|&i| summary.rows.get(i))
                    .and_then(|r| r.player.as_deref())
                    .unwrap_or("");
                writeln!(
                    out,
                    "duplicate: {who} name the same player ({})",
                    clean(player, PLAYER_WIDTH)
                )
            }
            DuplicateKind::SameList => writeln!(out, "duplicate: {who} hold the same list"),
        };
    }
    out.push('\n');
    out.push_str(&summary.totals());
    out.push('\n');
    out
}

/// A cell for the terminal: control characters (which could move the
/// cursor or change colours) shown as `?`, and cut to `width` characters.
fn clean(text: &str, width: usize) -> String {
    let mut out: String = text
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if out.chars().count() > width {
        out = out.chars().take(width.saturating_sub(1)).collect();
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::clean;

    #[test]
    fn cells_lose_control_characters_and_are_cut() {
        assert_eq!(clean("a\u{1b}[31mb", 100), "a?[31mb");
        assert_eq!(clean("abcdef", 4), "abc…");
        assert_eq!(clean("abc", 3), "abc");
    }
}
