//! Snapfire share links, read and written.
//!
//! Snapfire (the NetEA army builder) shares a force as a link:
//! `chooser.html?list=SM_codex_NETEA&force=Incompertus~543~15x1~23x2~532`.
//! `list` is the name of Snapfire's list file; `force` is the force's name
//! and then, separated by `~`, a formation id (500 and above) followed by
//! its upgrade picks, `IDxN` for N picks of upgrade ID, then the next
//! formation. The force is URL-encoded.
//!
//! Reading a link ([`Link::parse`], then [`to_roster`]) gives muster roster
//! text, which goes through the ordinary pipeline, so a link is checked
//! exactly as the same army written by hand. Writing one ([`share`])
//! expresses a resolved army's upgrades as Snapfire's picks.
//!
//! The ids are facts recorded in the list files (`snapfire_id`,
//! `snapfire_ids`, `imports.snapfire_picks`), linked by
//! `catalogue::snapfire`. Links are hostile input: their length, the number
//! of entries and every count are bounded, and nothing here panics.

use crate::catalogue::snapfire::Pick;
use crate::catalogue::{ArmyList, Catalogue, UpgradeIdx};
use crate::resolve::Army;
use crate::source::Span;
use std::fmt;

/// The longest link read, in bytes. A 5,000-point army is well under 1 KiB.
pub const MAX_LINK_BYTES: usize = 64 * 1024;
/// The most formations and picks a link may hold.
pub const MAX_ENTRIES: usize = 1_000;
/// The most picks of one upgrade in one formation (`IDxN`).
pub const MAX_COUNT: u32 = 100;
/// Where links point when no other address is given: Snapfire's chooser
/// page, relative to wherever Snapfire is served.
pub const DEFAULT_BASE: &str = "chooser.html";
/// Snapfire's chooser page where players use it (the NetEA army
/// compendium's builder): where the web builder's "Snapfire link" and
/// `muster roster --share=snapfire` point.
pub const PUBLIC_URL: &str = "https://armyforge.net/chooser.html";

/// A share link, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The address before `?` (empty when only the query was given).
    pub base: String,
    /// Snapfire's list file name (`SM_codex_NETEA`).
    pub list: String,
    /// The force's name.
    pub name: String,
    pub formations: Vec<LinkFormation>,
}

/// A formation of a link, with its picks in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkFormation {
    pub id: u32,
    pub picks: Vec<LinkPick>,
    /// Where the id is written in the link.
    pub span: Span,
}

/// `IDxN`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkPick {
    pub id: u32,
    pub count: u32,
    pub span: Span,
}

/// Why a link cannot be read; `span` points into the link text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkError {
    pub kind: LinkErrorKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkErrorKind {
    TooLong {
        bytes: usize,
    },
    /// No `list=` or `force=` in the link.
    Missing {
        parameter: &'static str,
    },
    /// The link ends inside a `%XX` escape or an `IDx` pick.
    Truncated,
    /// `%` not followed by two hexadecimal digits, or bytes that are not
    /// UTF-8 once decoded.
    BadEscape,
    /// A `~`-separated part that is neither a number nor `IDxN`.
    BadEntry {
        text: String,
    },
    /// `IDxN` before any formation.
    PickBeforeFormation {
        id: u32,
    },
    /// `IDx0` or more than [`MAX_COUNT`].
    BadCount {
        id: u32,
        count: String,
    },
    TooManyEntries,
    NoFormations,
    UnknownList {
        file: String,
        suggestion: Option<String>,
    },
    /// The list is known but records no Snapfire ids yet.
    NoIds {
        list: String,
    },
    UnknownFormation {
        id: u32,
        list: String,
        last: bool,
    },
    UnknownUpgrade {
        id: u32,
        list: String,
        last: bool,
    },
}

impl fmt::Display for LinkErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use LinkErrorKind::*;
        match self {
            TooLong { bytes } => write!(
                f,
                "the link is {bytes} bytes long; a Snapfire link may be at most {MAX_LINK_BYTES}"
            ),
            Missing { parameter } => write!(f, "the Snapfire link has no `{parameter}=` part"),
            Truncated => write!(f, "the Snapfire link is cut short"),
            BadEscape => write!(f, "the link has a `%` escape that is not valid"),
            BadEntry { text } => write!(
                f,
                "`{text}` in the force is neither a formation id nor an upgrade pick (`IDxN`)"
            ),
            PickBeforeFormation { id } => {
                write!(f, "upgrade pick {id} comes before any formation")
            }
            BadCount { id, count } => write!(
                f,
                "upgrade pick {id} is taken {count} times; a link may take a pick 1 to {MAX_COUNT} times"
            ),
            TooManyEntries => write!(
                f,
                "the link holds more than {MAX_ENTRIES} formations and upgrade picks"
            ),
            NoFormations => write!(f, "the Snapfire link holds no formations"),
            UnknownList { file, .. } => write!(f, "muster knows no Snapfire list `{file}`"),
            NoIds { list } => write!(
                f,
                "muster has not recorded Snapfire's ids for {list} yet, so it cannot read its links"
            ),
            UnknownFormation { id, list, .. } => {
                write!(f, "{list} has no formation with Snapfire id {id}")
            }
            UnknownUpgrade { id, list, .. } => {
                write!(f, "{list} has no upgrade with Snapfire id {id}")
            }
        }
    }
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind.fmt(f)
    }
}

impl LinkError {
    fn at(kind: LinkErrorKind, span: Span) -> LinkError {
        LinkError { kind, span }
    }

    /// Advice for the user, if any.
    pub fn hint(&self) -> Option<String> {
        use LinkErrorKind::*;
        match &self.kind {
            Truncated | NoFormations | Missing { .. } => Some(
                "copy the whole link again: chat programs and e-mail sometimes cut long links".to_string(),
            ),
            UnknownFormation { last: true, .. } | UnknownUpgrade { last: true, .. } => {
                Some("it is the link's last entry: the link may have been cut short".to_string())
            }
            UnknownFormation { .. } | UnknownUpgrade { .. } => {
                Some("the link may come from another version of the Snapfire list than muster's".to_string())
            }
            UnknownList {
                suggestion: Some(s), ..
            } => Some(format!("did you mean `{s}`?")),
            UnknownList { .. } => Some("`muster lists` shows the lists muster knows".to_string()),
            _ => None,
        }
    }
}

/// Whether `text` (a command-line argument, or a whole file) is a share
/// link rather than a roster: one line with a `list=` or `force=` query.
pub fn is_link(text: &str) -> bool {
    let text = text.trim();
    !text.contains('\n')
        && ["?list=", "&list=", "?force=", "&force="]
            .iter()
            .any(|p| text.contains(p))
}

impl Link {
    /// Reads a link: the whole address, or only its query. Spans point
    /// into `text`.
    pub fn parse(text: &str) -> Result<Link, LinkError> {
        if text.len() > MAX_LINK_BYTES {
            return Err(LinkError::at(
                LinkErrorKind::TooLong { bytes: text.len() },
                Span::new(0, 0),
            ));
        }
        let start = text.len() - text.trim_start().len();
        let trimmed = text.trim();
        // A `#` that encodeURIComponent did not encode starts a fragment.
        let trimmed = trimmed.split('#').next().unwrap_or_default();
        let (base, query, query_at) = match trimmed.find('?') {
            Some(q) => (&trimmed[..q], &trimmed[q + 1..], start + q + 1),
            None => ("", trimmed, start),
        };
        let mut list = None;
        let mut force = None;
        let mut at = query_at;
        for part in query.split('&') {
            if let Some((key, value)) = part.split_once('=') {
                let value_at = at + key.len() + 1;
                match key {
                    "list" => list = Some((value, value_at)),
                    "force" => force = Some((value, value_at)),
                    _ => {}
                }
            }
            at += part.len() + 1;
        }
        let end = Span::new(start + trimmed.len(), start + trimmed.len());
        let (list_text, list_at) =
            list.ok_or(LinkError::at(LinkErrorKind::Missing { parameter: "list" }, end))?;
        let (force_text, force_at) =
            force.ok_or(LinkError::at(LinkErrorKind::Missing { parameter: "force" }, end))?;
        let list = decode(list_text, list_at)?;

        let mut formations: Vec<LinkFormation> = Vec::new();
        let mut name = String::new();
        let mut entries = 0usize;
        let mut at = force_at;
        let parts: Vec<&str> = force_text.split('~').collect();
        for (i, raw) in parts.iter().enumerate() {
            let span = Span::new(at, at + raw.len());
            at += raw.len() + 1;
            let part = decode(raw, span.start)?;
            if i == 0 {
                name = part;
                continue;
            }
            if part.is_empty() {
                continue;
            }
            entries += 1;
            if entries > MAX_ENTRIES {
                return Err(LinkError::at(LinkErrorKind::TooManyEntries, span));
            }
            let last = i + 1 == parts.len();
            match entry(&part) {
                Entry::Formation(id) => formations.push(LinkFormation {
                    id,
                    picks: Vec::new(),
                    span,
                }),
                Entry::Pick(id, count) => {
                    let count = match count.parse::<u32>() {
                        Ok(n) if (1..=MAX_COUNT).contains(&n) => n,
                        _ => {
                            return Err(LinkError::at(
                                LinkErrorKind::BadCount {
                                    id,
                                    count: count.chars().take(12).collect(),
                                },
                                span,
                            ));
                        }
                    };
                    let Some(formation) = formations.last_mut() else {
                        return Err(LinkError::at(LinkErrorKind::PickBeforeFormation { id }, span));
                    };
                    formation.picks.push(LinkPick { id, count, span });
                }
                Entry::Cut if last => return Err(LinkError::at(LinkErrorKind::Truncated, span)),
                Entry::Cut | Entry::Bad => {
                    return Err(LinkError::at(
                        LinkErrorKind::BadEntry {
                            text: part.chars().take(40).collect(),
                        },
                        span,
                    ));
                }
            }
        }
        if formations.is_empty() {
            return Err(LinkError::at(LinkErrorKind::NoFormations, end));
        }
        Ok(Link {
            base: base.to_string(),
            list,
            name,
            formations,
        })
    }

    /// The `force` value before encoding, as Snapfire writes it.
    pub fn force(&self) -> String {
        let mut out = self.name.clone();
        for formation in &self.formations {
            out.push_str(&format!("~{}", formation.id));
            for pick in &formation.picks {
                out.push_str(&format!("~{}x{}", pick.id, pick.count));
            }
        }
        out
    }

    /// The whole link, against `base` (Snapfire's chooser page). A `~` in
    /// the force's name is written `%7E`: left bare (`encodeURIComponent`
    /// keeps it), it would split the name into entries when read back.
    pub fn url(&self, base: &str) -> String {
        let force = self.force();
        let entries = force.get(self.name.len()..).unwrap_or_default();
        format!(
            "{base}?list={}&force={}{}",
            encode(&self.list),
            encode(&self.name).replace('~', "%7E"),
            encode(entries)
        )
    }
}

enum Entry<'a> {
    Formation(u32),
    Pick(u32, &'a str),
    /// `IDx` with no count: a link cut short.
    Cut,
    Bad,
}

fn entry(part: &str) -> Entry<'_> {
    let number = |s: &str| -> Option<u32> {
        if s.is_empty() || s.len() > 9 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    };
    match part.split_once('x') {
        None => number(part).map_or(Entry::Bad, Entry::Formation),
        Some((id, "")) => number(id).map_or(Entry::Bad, |_| Entry::Cut),
        Some((id, count)) => match number(id) {
            Some(id) if count.bytes().all(|b| b.is_ascii_digit()) => Entry::Pick(id, count),
            _ => Entry::Bad,
        },
    }
}

/// `decodeURIComponent`: `%XX` escapes of UTF-8 bytes.
fn decode(text: &str, at: usize) -> Result<String, LinkError> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'%' {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        let span = Span::new(at + i, at + (i + 3).min(bytes.len()));
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes.get(i + 1), bytes.get(i + 2)) {
            (Some(&a), Some(&b)) => match (hex(a), hex(b)) {
                (Some(a), Some(b)) => out.push((a * 16 + b) as u8),
                _ => return Err(LinkError::at(LinkErrorKind::BadEscape, span)),
            },
            _ => return Err(LinkError::at(LinkErrorKind::Truncated, span)),
        }
        i += 3;
    }
    String::from_utf8(out)
        .map_err(|_| LinkError::at(LinkErrorKind::BadEscape, Span::new(at, at + text.len())))
}

/// `encodeURIComponent`.
fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A link turned into roster text.
#[derive(Debug, Clone)]
pub struct Imported<'c> {
    pub list: &'c ArmyList,
    /// muster roster text for the same army.
    pub roster: String,
}

/// The list a link names, found by Snapfire's file name.
pub fn find_list<'c>(catalogue: &'c Catalogue, file: &str) -> Option<&'c ArmyList> {
    catalogue.lists.iter().find(|l| {
        l.snapfire
            .file
            .as_deref()
            .is_some_and(|f| f.eq_ignore_ascii_case(file))
    })
}

/// The roster a link stands for, as muster roster text: the list's name,
/// then each formation with its upgrades and counts (Snapfire's picks
/// converted with the list's recorded ids).
pub fn to_roster<'c>(link: &Link, catalogue: &'c Catalogue) -> Result<Imported<'c>, LinkError> {
    let first = link.formations.first().map_or(Span::new(0, 0), |f| f.span);
    let Some(list) = find_list(catalogue, &link.list) else {
        let files = catalogue.lists.iter().filter_map(|l| l.snapfire.file.as_deref());
        return Err(LinkError::at(
            LinkErrorKind::UnknownList {
                file: link.list.clone(),
                suggestion: crate::diagnostic::nearest(&link.list, files).map(str::to_string),
            },
            first,
        ));
    };
    let ids = &list.snapfire;
    if !ids.has_ids() {
        return Err(LinkError::at(
            LinkErrorKind::NoIds {
                list: list.name.clone(),
            },
            first,
        ));
    }
    let last_span = link
        .formations
        .last()
        .map(|f| f.picks.last().map_or(f.span, |p| p.span));
    let is_last = |span: Span| Some(span) == last_span;

    let mut text = String::new();
    text.push_str(&format!(
        "# From a Snapfire share link ({}): {}\n",
        sanitize(&link.list),
        sanitize(&link.name)
    ));
    text.push_str(&format!("Army: {}\n\n", list.name));
    for formation in &link.formations {
        let Some(f) = ids.formation(formation.id) else {
            return Err(LinkError::at(
                LinkErrorKind::UnknownFormation {
                    id: formation.id,
                    list: list.name.clone(),
                    last: is_last(formation.span),
                },
                formation.span,
            ));
        };
        // Upgrades in the order the link first names them.
        let mut counts: Vec<(UpgradeIdx, u32)> = Vec::new();
        for pick in &formation.picks {
            let takes = |u: UpgradeIdx| list.formations[f].upgrades.contains(&u);
            let Some(found) = ids.pick_in(pick.id, takes) else {
                return Err(LinkError::at(
                    LinkErrorKind::UnknownUpgrade {
                        id: pick.id,
                        list: list.name.clone(),
                        last: is_last(pick.span),
                    },
                    pick.span,
                ));
            };
            for &(upgrade, each) in &found.gives {
                // Bounded: MAX_COUNT picks, each giving a handful.
                let n = each.saturating_mul(pick.count);
                match counts.iter_mut().find(|(u, _)| *u == upgrade) {
                    Some((_, total)) => *total = total.saturating_add(n),
                    None => counts.push((upgrade, n)),
                }
            }
        }
        text.push_str(&list.formations[f].name);
        // What the formation does not take and would change nothing there
        // (Snapfire's allegiance on the Black Legion's Daemon Pool, its
        // count of a formation's own units) is left out, with a comment.
        let (inert, counts): (Vec<_>, Vec<_>) = counts
            .into_iter()
            .partition(|&(u, n)| crate::resolve::no_effect_on(list, f, u, n));
        let items: Vec<String> = counts
            .iter()
            .map(|&(u, n)| {
                let upgrade = &list.upgrades[u];
                let name = &upgrade.name;
                let digit_led = name.starts_with(|c: char| c.is_ascii_digit());
                if upgrade.fills.is_some() || (n == 1 && !digit_led) {
                    name.clone()
                } else {
                    format!("{n}x {name}")
                }
            })
            .collect();
        if !items.is_empty() {
            text.push_str(": ");
            text.push_str(&items.join(", "));
        }
        text.push('\n');
        for (u, _) in inert {
            let (upgrade, formation) = (&list.upgrades[u].name, &list.formations[f].name);
            text.push_str(&format!(
                "# {upgrade}: no effect on {formation}, which does not take it\n"
            ));
        }
    }
    Ok(Imported { list, roster: text })
}

/// Text from a link made safe for one comment line.
fn sanitize(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(200)
        .collect()
}

/// Why an army cannot be written as a Snapfire link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShareError {
    /// The list has no Snapfire counterpart.
    NoSnapfireList {
        list: String,
    },
    NoIds {
        list: String,
    },
    /// A formation with no Snapfire id.
    Formation {
        formation: String,
    },
    /// Upgrades no combination of Snapfire's picks gives exactly.
    Upgrades {
        formation: String,
        upgrades: String,
    },
}

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShareError::NoSnapfireList { list } => {
                write!(f, "{list} has no Snapfire counterpart, so it has no share link")
            }
            ShareError::NoIds { list } => write!(
                f,
                "muster has not recorded Snapfire's ids for {list} yet, so it cannot write its links"
            ),
            ShareError::Formation { formation } => {
                write!(f, "{formation} has no Snapfire id, so a link cannot carry it")
            }
            ShareError::Upgrades { formation, upgrades } => write!(
                f,
                "{formation}: no combination of Snapfire's picks gives exactly {upgrades}"
            ),
        }
    }
}

/// A link for an army.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shared {
    pub link: Link,
    /// Upgrades muster has and Snapfire does not (`imports.snapfire_none`),
    /// left out of the link: `formation: upgrade`.
    pub left_out: Vec<String>,
    /// Formations whose Snapfire id is under 500: muster reads them back,
    /// but Snapfire takes such an id for an upgrade and drops them.
    pub dropped: Vec<String>,
}

/// How many tries the search for picks may take per formation, so that a
/// hostile roster (a count of a billion) ends quickly.
const SEARCH_BUDGET: u32 = 20_000;

/// The Snapfire link of a resolved army, named `name`. Each formation's
/// upgrades are written as Snapfire's picks, the largest picks first
/// (`2x Land Raider` rather than two `Land Raider`s, as Snapfire prices
/// them).
pub fn share(army: &Army<'_>, name: &str) -> Result<Shared, ShareError> {
    let list = army.list;
    let ids = &list.snapfire;
    let Some(file) = &ids.file else {
        return Err(ShareError::NoSnapfireList {
            list: list.name.clone(),
        });
    };
    if !ids.has_ids() {
        return Err(ShareError::NoIds {
            list: list.name.clone(),
        });
    }
    let mut formations = Vec::new();
    let mut left_out = Vec::new();
    let mut dropped = Vec::new();
    for f in &army.formations {
        let formation = &list.formations[f.formation];
        let Some(id) = ids.formation_ids.get(f.formation).copied().flatten() else {
            return Err(ShareError::Formation {
                formation: formation.name.clone(),
            });
        };
        if id < 500 {
            dropped.push(formation.name.clone());
        }
        let mut target: Vec<(UpgradeIdx, u32)> = Vec::new();
        for taken in &f.upgrades {
            let upgrade = &list.upgrades[taken.upgrade];
            let count = if upgrade.fills.is_some() { 1 } else { taken.count };
            if count == 0 {
                continue;
            }
            let carried = ids.upgrade_picks[taken.upgrade].is_empty()
                && !ids
                    .writings()
                    .any(|p| p.gives.iter().any(|&(u, _)| u == taken.upgrade));
            if carried {
                left_out.push(format!("{}: {}", formation.name, upgrade.name));
                continue;
            }
            match target.iter_mut().find(|(u, _)| *u == taken.upgrade) {
                Some((_, n)) => *n = n.saturating_add(count),
                None => target.push((taken.upgrade, count)),
            }
        }
        let picks = decompose(ids.writings(), |p| ids.offers(f.formation, p), &target).ok_or_else(|| {
            ShareError::Upgrades {
                formation: formation.name.clone(),
                upgrades: target
                    .iter()
                    .map(|&(u, n)| crate::plural::count(i64::from(n), &list.upgrades[u].name))
                    .collect::<Vec<_>>()
                    .join(", "),
            }
        })?;
        formations.push(LinkFormation {
            id,
            picks: picks
                .into_iter()
                .map(|(id, count)| LinkPick {
                    id,
                    count,
                    span: Span::default(),
                })
                .collect(),
            span: Span::default(),
        });
    }
    Ok(Shared {
        link: Link {
            base: String::new(),
            list: file.clone(),
            name: name.to_string(),
            formations,
        },
        left_out,
        dropped,
    })
}

/// Picks (id, how many) that give exactly `target`, or `None`. Larger
/// picks are tried first, then the list's order; the search is bounded.
/// The answer is in id order.
fn decompose<'a>(
    picks: impl Iterator<Item = &'a Pick>,
    offered: impl Fn(&Pick) -> bool,
    target: &[(UpgradeIdx, u32)],
) -> Option<Vec<(u32, u32)>> {
    // Nothing to give: no picks (the search would find nothing left to
    // give before it looked at any).
    if target.iter().all(|&(_, n)| n == 0) {
        return Some(Vec::new());
    }
    let wanted = |u: UpgradeIdx| target.iter().find(|(t, _)| *t == u).map_or(0, |&(_, n)| n);
    // Whether a pick fits the target first (cheap, and rules out nearly
    // every pick), then whether the formation is offered it (a map lookup).
    let mut candidates: Vec<&Pick> = picks
        .filter(|p| p.gives.iter().all(|&(u, n)| n <= wanted(u)) && offered(p))
        .collect();
    let size = |p: &Pick| p.gives.iter().map(|&(_, n)| u64::from(n)).sum::<u64>();
    // Stable: equal sizes keep the order of ids.
    candidates.sort_by_key(|p| std::cmp::Reverse(size(p)));
    let mut remaining: Vec<(UpgradeIdx, u32)> = target.to_vec();
    let mut chosen = Vec::new();
    let mut budget = SEARCH_BUDGET;
    if !search(&candidates, 0, &mut remaining, &mut chosen, &mut budget) {
        return None;
    }
    // One entry per id, in id order: the same army gives the same link
    // whichever reading of a pick the search used.
    chosen.sort_unstable();
    let mut merged: Vec<(u32, u32)> = Vec::with_capacity(chosen.len());
    for (id, k) in chosen {
        match merged.last_mut() {
            Some((last, n)) if *last == id => *n = n.saturating_add(k),
            _ => merged.push((id, k)),
        }
    }
    Some(merged)
}

fn search(
    candidates: &[&Pick],
    from: usize,
    remaining: &mut [(UpgradeIdx, u32)],
    chosen: &mut Vec<(u32, u32)>,
    budget: &mut u32,
) -> bool {
    if remaining.iter().all(|&(_, n)| n == 0) {
        return true;
    }
    let Some(pick) = candidates.get(from) else {
        return false;
    };
    let left = |remaining: &[(UpgradeIdx, u32)], u: UpgradeIdx| {
        remaining.iter().find(|(t, _)| *t == u).map_or(0, |&(_, n)| n)
    };
    let most = pick
        .gives
        .iter()
        .map(|&(u, n)| left(remaining, u) / n.max(1))
        .min()
        .unwrap_or(0);
    let mut k = most;
    loop {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        apply(remaining, pick, k, false);
        if k > 0 {
            chosen.push((pick.id, k));
        }
        if search(candidates, from + 1, remaining, chosen, budget) {
            return true;
        }
        if k > 0 {
            chosen.pop();
        }
        apply(remaining, pick, k, true);
        if k == 0 {
            return false;
        }
        k -= 1;
    }
}

/// Takes `k` of `pick` from `remaining` (or gives them back).
fn apply(remaining: &mut [(UpgradeIdx, u32)], pick: &Pick, k: u32, back: bool) {
    for &(u, n) in &pick.gives {
        if let Some((_, left)) = remaining.iter_mut().find(|(t, _)| *t == u) {
            let amount = n.saturating_mul(k);
            *left = if back {
                left.saturating_add(amount)
            } else {
                left.saturating_sub(amount)
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_is_read_with_its_spans() {
        let text = "https://x/chooser.html?list=SM_codex_NETEA&force=My%20Army~543~15x1~23x2~532";
        let link = Link::parse(text).unwrap();
        assert_eq!(link.list, "SM_codex_NETEA");
        assert_eq!(link.name, "My Army");
        assert_eq!(link.formations.len(), 2);
        assert_eq!(link.formations[0].picks[1].id, 23);
        assert_eq!(link.formations[0].picks[1].count, 2);
        let span = link.formations[0].picks[1].span;
        assert_eq!(&text[span.start..span.end], "23x2");
        assert_eq!(link.force(), "My Army~543~15x1~23x2~532");
        assert_eq!(
            link.url("chooser.html"),
            "chooser.html?list=SM_codex_NETEA&force=My%20Army~543~15x1~23x2~532"
        );
    }

    #[test]
    fn cut_links_say_so() {
        for text in [
            "chooser.html?list=SM_codex_NETEA&force=A~543~15x",
            "chooser.html?list=SM_codex_NETEA&force=A%2",
            "chooser.html?list=SM_codex_NETEA&force=A",
            "chooser.html?list=SM_codex_NETEA&for",
        ] {
            let error = Link::parse(text).unwrap_err();
            assert!(error.hint().is_some_and(|h| h.contains("cut")), "{text}: {error}");
        }
    }

    #[test]
    fn hostile_links_are_refused() {
        let many = format!("?list=L&force=A{}", "~543".repeat(MAX_ENTRIES + 1));
        assert_eq!(
            Link::parse(&many).unwrap_err().kind,
            LinkErrorKind::TooManyEntries
        );
        let huge = "?list=L&force=A~543~15x4294967296";
        assert!(matches!(
            Link::parse(huge).unwrap_err().kind,
            LinkErrorKind::BadCount { .. }
        ));
        let zero = "?list=L&force=A~543~15x0";
        assert!(matches!(
            Link::parse(zero).unwrap_err().kind,
            LinkErrorKind::BadCount { .. }
        ));
        let long = format!("?list=L&force={}", "a".repeat(MAX_LINK_BYTES));
        assert!(matches!(
            Link::parse(&long).unwrap_err().kind,
            LinkErrorKind::TooLong { .. }
        ));
        let early = "?list=L&force=A~15x1~543";
        assert!(matches!(
            Link::parse(early).unwrap_err().kind,
            LinkErrorKind::PickBeforeFormation { id: 15 }
        ));
        assert!(matches!(
            Link::parse("?list=L&force=A~5x3y").unwrap_err().kind,
            LinkErrorKind::BadEntry { .. }
        ));
    }

    /// Found by cargo-fuzz (`fuzz/regressions/snapfire_link`): a name
    /// holding `~` (read from `%7E`, or a roster's title) printed it bare,
    /// so the printed link read back as a different name and a bad entry.
    #[test]
    fn a_tilde_in_the_name_survives_the_link() {
        let link = Link::parse("?list=L&force=Waaagh%7E%20Ghazghkull~502~58x3").unwrap();
        assert_eq!(link.name, "Waaagh~ Ghazghkull");
        let url = link.url(DEFAULT_BASE);
        assert_eq!(url, "chooser.html?list=L&force=Waaagh%7E%20Ghazghkull~502~58x3");
        let again = Link::parse(&url).unwrap();
        assert_eq!((again.force(), again.name), (link.force(), link.name));
    }

    #[test]
    fn names_round_trip_through_encoding() {
        let name = "Ça & <co> ~ 100%";
        assert_eq!(decode(&encode(name), 0).unwrap(), name);
    }

    #[test]
    fn links_are_told_from_rosters() {
        assert!(is_link("https://a/chooser.html?list=X&force=Y~500\n"));
        assert!(!is_link("Army: Codex Astartes\nTactical\n"));
        assert!(!is_link("Tactical: Captain"));
    }
}
