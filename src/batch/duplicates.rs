//! Duplicate submissions: the same player twice, or the same list twice.
//!
//! "The same list" is judged on the roster's text with what does not change
//! the army taken out: comments, blank lines, all spacing, letter case, and the
//! `Player:` and `Event:` lines (so one list sent under two names is found).
//! Duplicates are findings for the organiser; they do not make a roster
//! illegal.

use crate::catalogue::names;
use crate::check::Checked;
use std::collections::HashMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum DuplicateKind {
    /// Both rosters name the same player.
    SamePlayer,
    /// Both rosters hold the same list.
    SameList,
}

impl DuplicateKind {
    /// Stable text, used in the JSON and CSV reports.
    pub fn as_str(self) -> &'static str {
        match self {
            DuplicateKind::SamePlayer => "same-player",
            DuplicateKind::SameList => "same-list",
        }
    }
}

/// One roster's duplicate: which other result, and how they match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Duplicate {
    pub kind: DuplicateKind,
    /// Index of the other result.
    pub other: usize,
}

/// For each result, the other results it duplicates, by kind then order.
pub fn duplicates(results: &[Checked<'_>]) -> Vec<Vec<Duplicate>> {
    let mut found = vec![Vec::new(); results.len()];
    let mut by_player: HashMap<String, Vec<usize>> = HashMap::new();
    let mut by_list: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, c) in results.iter().enumerate() {
        if let Some(player) = &c.header.player {
            let key = names::normalize(&player.value);
            if !key.is_empty() {
                by_player.entry(key).or_default().push(i);
            }
        }
        if let Some(key) = fingerprint(c) {
            by_list.entry(key).or_default().push(i);
        }
    }
    for (groups, kind) in [
        (by_player, DuplicateKind::SamePlayer),
        (by_list, DuplicateKind::SameList),
    ] {
        for group in groups.into_values().filter(|g| g.len() > 1) {
            for &i in &group {
                found[i].extend(
                    group
                        .iter()
                        .filter(|&&j| j != i)
                        .map(|&other| Duplicate { kind, other }),
                );
            }
        }
    }
    for list in &mut found {
        list.sort_by_key(|d| (d.kind, d.other));
    }
    found
}

/// The roster's text with everything that does not change the army left
/// out; `None` for a roster that could not be read or holds nothing.
pub fn fingerprint(c: &Checked<'_>) -> Option<String> {
    let file = c.file.as_ref()?;
    // Lines naming the player or the event do not make a list different.
    let skip: Vec<usize> = [&c.header.player, &c.header.event]
        .into_iter()
        .flatten()
        .map(|s| file.line_col(s.span.start).0)
        .collect();
    let mut out = String::new();
    for (n, line) in file.text().lines().enumerate() {
        if skip.contains(&(n + 1)) {
            continue;
        }
        let line = line.split_once('#').map_or(line, |(before, _)| before);
        // Case and quotes as names are matched; spacing dropped altogether,
        // so `Tactical:Captain` and `Tactical : Captain` meet.
        let line: String = names::normalize(line)
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        if !line.is_empty() {
            out.push_str(&line);
            out.push('\n');
        }
    }
    (!out.is_empty()).then_some(out)
}
