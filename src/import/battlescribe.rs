//! BattleScribe rosters, read.
//!
//! BattleScribe (and New Recruit) save a roster as XML (`.ros`) or as a zip
//! archive holding one such file (`.rosz`). The XML is
//! `roster > forces > force > selections > selection`, each selection with
//! a `name`, a `number` and a `type`, its own `costs > cost` (`name`,
//! `value`), `categories`, and the selections taken inside it. A force
//! names the catalogue it was built from (`catalogueName`,
//! `catalogueId`); the list files record which catalogues they read
//! (`imports.battlescribe`), and a catalogue they do not name is looked up
//! as a list name.
//!
//! [`read`] turns a roster into muster roster text (a top-level selection
//! is a formation; a selection inside a group formation that the group
//! admits is a member, written indented; any other selection inside is an
//! upgrade, however deep), with the points each selection states as the
//! entry's stated cost. That text goes through the ordinary pipeline; the
//! [`Imported::remap`] step then points every diagnostic about a line at
//! the XML element it came from, so a selection muster cannot map is
//! reported at its line in the `.ros`.
//!
//! Rosters are hostile input. The XML reader refuses any DTD (so no entity
//! is ever expanded, internal or external) and stops at
//! [`MAX_NODES`]; an archive is refused past [`MAX_ARCHIVE_ENTRIES`]
//! entries, [`MAX_UNZIPPED`] bytes or a compression ratio of
//! [`MAX_RATIO`], whatever its headers claim; nesting past [`MAX_DEPTH`]
//! is not followed.

use crate::catalogue::names::{Lookup, normalize};
use crate::catalogue::{ArmyList, Catalogue, ListLookup};
use crate::diagnostic::{Code, Diagnostic, Label};
use crate::source::{SourceFile, Span};
use std::fmt::Write as _;

/// The most bytes a `.rosz` may unpack to (a large roster is under 1 MiB).
pub const MAX_UNZIPPED: u64 = 4 * 1024 * 1024;
/// The most entries a `.rosz` may hold (BattleScribe writes one).
pub const MAX_ARCHIVE_ENTRIES: usize = 16;
/// The largest ratio of unpacked to packed size accepted (XML packs about
/// ten to one; a zip bomb a thousand to one).
pub const MAX_RATIO: u64 = 100;
/// The most XML nodes a roster may have.
pub const MAX_NODES: u32 = 200_000;
/// The deepest nesting of selections read.
pub const MAX_DEPTH: usize = 16;
/// The most selections read from one roster.
pub const MAX_SELECTIONS: usize = 5_000;
/// The most attributes one XML element may carry (BattleScribe writes
/// about ten): the XML reader compares each attribute with every earlier
/// one of its element, so a thousand-attribute element cost a million
/// comparisons, and a 939 KB roster 22 s.
pub const MAX_ATTRIBUTES: usize = 256;
/// The most forces read from one roster (a real one has a few).
pub const MAX_FORCES: usize = 100;

/// Whether a file is a BattleScribe roster: by its extension (`.ros`,
/// `.rosz`), a zip archive's signature, or XML whose root is `<roster`.
pub fn is_roster(name: &str, bytes: &[u8]) -> bool {
    let lower = name.to_ascii_lowercase();
    if lower.ends_with(".ros") || lower.ends_with(".rosz") {
        return true;
    }
    if bytes.starts_with(b"PK\x03\x04") {
        return true;
    }
    let head = &bytes[..bytes.len().min(2048)];
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let start = head
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(head.len());
    let head = &head[start..];
    (head.starts_with(b"<?xml") || head.starts_with(b"<roster")) && head.windows(7).any(|w| w == b"<roster")
}

/// Why a roster cannot be read at all: one error, about the whole file.
fn unreadable(message: impl Into<String>, hint: &str) -> Box<Diagnostic> {
    Box::new(Diagnostic::error(Code::UnreadableInput, message.into()).hint(hint))
}

/// The XML of a `.rosz` (or of a `.ros` as it is), with limits.
fn unpack(name: &str, bytes: &[u8]) -> Result<String, Box<Diagnostic>> {
    let zipped = bytes.starts_with(b"PK\x03\x04");
    if !zipped && name.to_ascii_lowercase().ends_with(".rosz") {
        return Err(unreadable(
            "the file is named .rosz but is not a zip archive",
            "a .rosz is a zipped .ros; save the roster again from BattleScribe, or rename a plain XML roster to .ros",
        ));
    }
    let xml = if zipped { unzip(bytes)? } else { bytes.to_vec() };
    let xml = xml.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&xml).to_vec();
    String::from_utf8(xml).map_err(|e| {
        unreadable(
            format!(
                "the roster is not UTF-8 text (bad byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
            "BattleScribe writes UTF-8; save the roster again",
        )
    })
}

#[cfg(feature = "rosz")]
fn unzip(bytes: &[u8]) -> Result<Vec<u8>, Box<Diagnostic>> {
    use std::io::Read;
    let broken = |detail: String| {
        unreadable(
            format!("the .rosz archive cannot be read: {detail}"),
            "the file may be cut short or damaged; save or download it again",
        )
    };
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(|e| broken(e.to_string()))?;
    if archive.len() > MAX_ARCHIVE_ENTRIES {
        return Err(unreadable(
            format!(
                "the .rosz archive holds {} files; a roster archive holds one (at most {MAX_ARCHIVE_ENTRIES} are looked at)",
                archive.len()
            ),
            "a .rosz is a zipped .ros, as BattleScribe saves it",
        ));
    }
    let mut found = None;
    for i in 0..archive.len() {
        let entry = archive.by_index_raw(i).map_err(|e| broken(e.to_string()))?;
        if entry.is_file() && entry.name().to_ascii_lowercase().ends_with(".ros") {
            if found.is_some() {
                return Err(unreadable(
                    "the .rosz archive holds more than one .ros roster",
                    "check each roster on its own",
                ));
            }
            found = Some(i);
        }
    }
    let Some(index) = found else {
        return Err(unreadable(
            "the .rosz archive holds no .ros roster",
            "a .rosz is a zipped .ros, as BattleScribe saves it",
        ));
    };
    let entry = archive.by_index(index).map_err(|e| broken(e.to_string()))?;
    let packed = entry.compressed_size().max(1);
    let bomb = |size: u64| {
        unreadable(
            format!(
                "the .rosz archive unpacks to more than {} from {}: refused as a zip bomb (at most {}, {MAX_RATIO} times the packed size)",
                crate::source::size_text(size),
                crate::source::size_text(packed),
                crate::source::size_text(MAX_UNZIPPED)
            ),
            "a real roster is far smaller; save it again from BattleScribe",
        )
    };
    let cap = MAX_UNZIPPED.min(packed.saturating_mul(MAX_RATIO));
    if entry.size() > cap {
        return Err(bomb(entry.size()));
    }
    // The header's size may lie: read at most one byte past the cap.
    let mut out = Vec::new();
    entry
        .take(cap + 1)
        .read_to_end(&mut out)
        .map_err(|e| broken(e.to_string()))?;
    if out.len() as u64 > cap {
        return Err(bomb(cap));
    }
    Ok(out)
}

/// A library built without the `rosz` feature reads no zip archive: a
/// `.rosz` is refused whole, as one it cannot open.
#[cfg(not(feature = "rosz"))]
fn unzip(_: &[u8]) -> Result<Vec<u8>, Box<Diagnostic>> {
    Err(unreadable(
        "this build of muster does not read .rosz archives (built without the `rosz` feature)",
        "save the roster as a plain .ros from BattleScribe, or build muster with its default features",
    ))
}

/// A roster read: muster roster text, and the XML it came from.
#[derive(Debug, Clone)]
pub struct Imported<'c> {
    pub list: &'c ArmyList,
    /// muster roster text for the same army.
    pub roster: String,
    /// The roster's XML (unpacked from a `.rosz`), for diagnostics.
    pub xml: SourceFile,
    /// Findings about the XML itself (a force of another list, a cost that
    /// is not a number), pointing into `xml`.
    pub diagnostics: Vec<Diagnostic>,
    /// Where each item of `roster` came from: (span in `roster`, span of
    /// the selection's start tag in `xml`).
    map: Vec<(Span, Span)>,
}

/// Reads a BattleScribe roster (`.ros` XML or `.rosz` archive) into muster
/// roster text. An error is a file muster cannot read at all: a refused
/// archive or XML (`unreadable-input`, as for any unreadable file), or a
/// roster with no force or for a catalogue no list reads (`battlescribe`).
pub fn read<'c>(catalogue: &'c Catalogue, name: &str, bytes: &[u8]) -> Result<Imported<'c>, Box<Diagnostic>> {
    let text = unpack(name, bytes)?;
    let xml = SourceFile::new(name, text.as_str());
    if let Some(at) = crowded_element(&text) {
        return Err(Diagnostic::error(
            Code::UnreadableInput,
            format!("an XML element of the roster has more than {MAX_ATTRIBUTES} attributes"),
        )
        .at(&xml, Span::new(at, at))
        .hint("a real roster has about ten on each; save it again from BattleScribe")
        .into());
    }
    let options = roxmltree::ParsingOptions {
        // No DTD at all: no entity is declared, so none expands; external
        // entities are never resolved (no resolver).
        allow_dtd: false,
        nodes_limit: MAX_NODES,
        entity_resolver: None,
    };
    let document = roxmltree::Document::parse_with_options(&text, options).map_err(|e| {
        let pos = e.pos();
        let at = offset_of(&text, pos.row, pos.col);
        let (message, hint) = match e {
            roxmltree::Error::DtdDetected => (
                "the roster has a document type declaration (<!DOCTYPE ...>); BattleScribe rosters have none, and muster does not read one (it could declare entities that expand without end or read other files)".to_string(),
                "save the roster again from BattleScribe",
            ),
            roxmltree::Error::NodesLimitReached => (
                format!("the roster has more than {MAX_NODES} XML nodes"),
                "a real roster is far smaller; save it again from BattleScribe",
            ),
            other => (
                format!("the roster is not well-formed XML: {other}"),
                "the file may be cut short or damaged; save it again from BattleScribe",
            ),
        };
        Diagnostic::error(Code::UnreadableInput, message)
            .at(&xml, Span::new(at, at))
            .hint(hint)
    })?;
    let root = document.root_element();
    if root.tag_name().name() != "roster" {
        return Err(Diagnostic::error(
            Code::UnreadableInput,
            format!(
                "the XML's root element is <{}>, not a BattleScribe <roster>",
                root.tag_name().name()
            ),
        )
        .at(&xml, attribute_span(&text, root, ""))
        .hint("muster reads BattleScribe rosters (.ros, .rosz), not catalogues or other XML")
        .into());
    }

    let forces = forces(root);
    let Some(first) = forces.first() else {
        return Err(Diagnostic::error(Code::BattleScribe, "the roster has no force")
            .at(&xml, attribute_span(&text, root, ""))
            .hint("add a force to the roster in BattleScribe")
            .into());
    };
    let list = find_list(catalogue, *first).map_err(|message| {
        let mut d = Diagnostic::error(Code::BattleScribe, message)
            .at(&xml, attribute_span(&text, *first, "catalogueName"));
        let wanted = first.attribute("catalogueName").unwrap_or_default();
        let near = catalogue.nearest_lists(wanted, 3);
        if near.is_empty() {
            d = d.hint("`muster lists` shows the lists muster knows");
        } else {
            let names: Vec<String> = near.iter().map(|l| format!("`{}`", l.name)).collect();
            d = d.hint(format!("the nearest lists muster has: {}", names.join(", ")));
        }
        d
    })?;

    let mut out = Writer {
        text: &text,
        xml: &xml,
        list,
        roster: String::new(),
        map: Vec::new(),
        diagnostics: Vec::new(),
        selections: 0,
    };
    let title = root.attribute("name").unwrap_or_default();
    let _ = writeln!(out.roster, "# From a BattleScribe roster: {}", sanitize(title));
    // The header's lines point back at the force and the cost limit.
    let start = out.roster.len();
    let _ = write!(out.roster, "Army: {}", list.name);
    out.map.push((
        Span::new(start, out.roster.len()),
        attribute_span(&text, *first, "catalogueName"),
    ));
    out.roster.push('\n');
    if let Some((limit, node)) = points_limit(root) {
        let start = out.roster.len();
        let _ = write!(out.roster, "Points: {limit}");
        out.map.push((
            Span::new(start, out.roster.len()),
            attribute_span(&text, node, "value"),
        ));
        out.roster.push('\n');
    }
    out.roster.push('\n');
    let mut foreign: Vec<roxmltree::Node<'_, '_>> = Vec::new();
    let mut known: Vec<(&str, &str, bool)> = Vec::new();
    for force in &forces {
        // One look-up for each catalogue named, however many forces name it.
        let key = (
            force.attribute("catalogueId").unwrap_or_default(),
            force.attribute("catalogueName").unwrap_or_default(),
        );
        let same = match known.iter().find(|(id, name, _)| (*id, *name) == key) {
            Some(&(_, _, same)) => same,
            None => {
                let same = find_list(catalogue, *force).is_ok_and(|l| std::ptr::eq(l, list));
                known.push((key.0, key.1, same));
                same
            }
        };
        if !same {
            foreign.push(*force);
            continue;
        }
        for selection in children(*force, "selections", "selection") {
            out.formation(selection, 0);
        }
    }
    if let Some(d) = foreign_forces(&foreign, list, &xml, &text) {
        out.diagnostics.push(d);
    }
    if let Some(d) = too_many_forces(root, &xml, &text) {
        out.diagnostics.push(d);
    }
    let (roster, diagnostics, map) = (out.roster, out.diagnostics, out.map);
    Ok(Imported {
        list,
        roster,
        xml,
        diagnostics,
        map,
    })
}

/// One error for the forces of other lists, however many: the first is
/// named, the others counted (130,000 such forces once printed 77 MB).
fn foreign_forces(
    foreign: &[roxmltree::Node<'_, '_>],
    list: &ArmyList,
    xml: &SourceFile,
    text: &str,
) -> Option<Diagnostic> {
    let force = foreign.first()?;
    let mut d = Diagnostic::error(
        Code::BattleScribe,
        format!(
            "force `{}` ({}) is not a force of {}; muster checks a roster against one list, so it is left out",
            sanitize(force.attribute("name").unwrap_or_default()),
            sanitize(force.attribute("catalogueName").unwrap_or_default()),
            list.name
        ),
    )
    .at(xml, attribute_span(text, *force, "catalogueName"))
    .hint("check each list's force as a roster of its own");
    if foreign.len() > 1 {
        d = d.hint(format!(
            "and {} more forces of other lists, left out too",
            crate::diagnostic::thousands(foreign.len() - 1)
        ));
    }
    Some(d)
}

/// An error when the roster has more forces than [`MAX_FORCES`], at the
/// first one not read.
fn too_many_forces(root: roxmltree::Node<'_, '_>, xml: &SourceFile, text: &str) -> Option<Diagnostic> {
    let extra = root
        .descendants()
        .filter(|n| n.is_element() && n.tag_name().name() == "force")
        .nth(MAX_FORCES)?;
    Some(
        Diagnostic::error(
            Code::BattleScribe,
            format!("the roster has more than {MAX_FORCES} forces; the rest are not read"),
        )
        .at(xml, attribute_span(text, extra, "name"))
        .hint("a real roster has a few; check each list's force as a roster of its own"),
    )
}

/// Where an element with more than [`MAX_ATTRIBUTES`] attributes starts,
/// if there is one. Reads the markup as XML does: quoted values may hold
/// `=` and `>`; comments, CDATA and processing instructions are skipped.
/// Linear; what it cannot read is left to the XML reader to refuse.
fn crowded_element(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(found) = memchr::memchr(b'<', &bytes[i..]) {
        let start = i + found;
        let rest = &bytes[start..];
        let skip_to = |end: &[u8]| {
            memchr::memmem::find(&rest[1..], end).map_or(bytes.len(), |e| start + 1 + e + end.len())
        };
        if rest.starts_with(b"<!--") {
            i = skip_to(b"-->");
            continue;
        }
        if rest.starts_with(b"<![CDATA[") {
            i = skip_to(b"]]>");
            continue;
        }
        if rest.starts_with(b"<?") {
            i = skip_to(b"?>");
            continue;
        }
        let (mut quote, mut equals, mut j) = (None, 0usize, start + 1);
        while j < bytes.len() {
            match (quote, bytes[j]) {
                (Some(q), b) if b == q => quote = None,
                (Some(_), _) => {}
                (None, q @ (b'"' | b'\'')) => quote = Some(q),
                (None, b'=') => {
                    equals += 1;
                    if equals > MAX_ATTRIBUTES {
                        return Some(start);
                    }
                }
                (None, b'>' | b'<') => break,
                (None, _) => {}
            }
            j += 1;
        }
        i = j.max(start + 1);
    }
    None
}

/// What a roster says of the lists it was built from (its game system, and
/// each force's catalogue id and name), for loading only what it needs;
/// `None` for a file [`read`] would refuse.
pub fn list_key(name: &str, bytes: &[u8]) -> Option<crate::catalogue::ListKey> {
    let text = unpack(name, bytes).ok()?;
    if crowded_element(&text).is_some() {
        return None;
    }
    let options = roxmltree::ParsingOptions {
        allow_dtd: false,
        nodes_limit: MAX_NODES,
        entity_resolver: None,
    };
    let document = roxmltree::Document::parse_with_options(&text, options).ok()?;
    let root = document.root_element();
    if root.tag_name().name() != "roster" {
        return None;
    }
    let forces: Vec<(String, String)> = forces(root)
        .into_iter()
        .map(|f| {
            let attribute = |key: &str| f.attribute(key).unwrap_or_default().to_string();
            (attribute("catalogueId"), attribute("catalogueName"))
        })
        .collect();
    let game = (root.attribute("gameSystemName")).and_then(crate::games::GameId::from_battlescribe_system);
    (!forces.is_empty()).then_some(crate::catalogue::ListKey::BattleScribe { game, forces })
}

/// Every force, nested forces included, in document order; at most
/// [`MAX_FORCES`].
fn forces<'a, 'i>(root: roxmltree::Node<'a, 'i>) -> Vec<roxmltree::Node<'a, 'i>> {
    let mut out = Vec::new();
    let mut stack: Vec<(roxmltree::Node<'a, 'i>, usize)> = vec![(root, 0)];
    while let Some((node, depth)) = stack.pop() {
        if depth > MAX_DEPTH || out.len() >= MAX_FORCES {
            continue;
        }
        let found: Vec<_> = children(node, "forces", "force").collect();
        for force in found.into_iter().rev() {
            stack.push((force, depth + 1));
        }
        if node.tag_name().name() == "force" {
            out.push(node);
        }
    }
    out
}

/// The list a force was built for: a catalogue a list records, else the
/// catalogue's name read as a list name.
fn find_list<'c>(catalogue: &'c Catalogue, force: roxmltree::Node<'_, '_>) -> Result<&'c ArmyList, String> {
    let id = force.attribute("catalogueId").unwrap_or_default();
    let name = force.attribute("catalogueName").unwrap_or_default();
    // The game system the roster names picks among lists of several games.
    let game = force
        .ancestors()
        .find(|n| n.tag_name().name() == "roster")
        .and_then(|r| r.attribute("gameSystemName"))
        .and_then(crate::games::GameId::from_battlescribe_system);
    let in_game = |list: &&ArmyList| game.is_none_or(|g| list.game == g);
    if !id.is_empty() {
        if let Some(list) = catalogue
            .lists
            .iter()
            .find(|l| l.battlescribe.iter().any(|(_, i)| i.as_deref() == Some(id)))
        {
            return Ok(list);
        }
    }
    let wanted = normalize(name);
    let recorded: Vec<&ArmyList> = catalogue
        .lists
        .iter()
        .filter(|l| l.battlescribe.iter().any(|(n, _)| normalize(n) == wanted))
        .filter(in_game)
        .collect();
    if let [one] = recorded.as_slice() {
        return Ok(one);
    }
    let lookup = match catalogue.find_list(name) {
        ListLookup::Ambiguous(lists) => {
            let lists: Vec<&ArmyList> = lists.into_iter().filter(in_game).collect();
            match lists.as_slice() {
                [one] => ListLookup::Found(one),
                [] => ListLookup::NotFound(None),
                _ => ListLookup::Ambiguous(lists),
            }
        }
        ListLookup::Found(list) if !in_game(&list) => ListLookup::NotFound(None),
        other => other,
    };
    match lookup {
        ListLookup::Found(list) if !name.is_empty() => Ok(list),
        ListLookup::Ambiguous(lists) => Err(format!(
            "BattleScribe catalogue `{}` could be any of {}; muster cannot tell which list the roster is for",
            sanitize(name),
            lists
                .iter()
                .map(|l| l.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
        _ => Err(format!(
            "muster has no list for BattleScribe catalogue `{}` (id `{}`)",
            sanitize(name),
            sanitize(id)
        )),
    }
}

/// The roster's points limit (`costLimits > costLimit name="pts"`), if it
/// states a whole positive one.
fn points_limit<'a, 'i>(root: roxmltree::Node<'a, 'i>) -> Option<(u32, roxmltree::Node<'a, 'i>)> {
    children(root, "costLimits", "costLimit")
        .filter(|c| is_points(c.attribute("name").unwrap_or_default()))
        .find_map(|c| {
            let v = u32::try_from(whole(c.attribute("value")?)?).ok()?;
            (v > 0).then_some((v, c))
        })
}

fn is_points(name: &str) -> bool {
    matches!(normalize(name).as_str(), "pts" | "points" | "pt" | "point")
}

/// A cost as BattleScribe writes it (`275.0`), if it is a whole number
/// muster can count with.
fn whole(value: &str) -> Option<i64> {
    let v: f64 = value.trim().parse().ok()?;
    (v.is_finite() && v.fract() == 0.0 && v.abs() < 1e12).then_some(v as i64)
}

/// The selections directly inside `node`, each at depth 1, as a stack
/// whose top is the first: walked depth first in document order.
fn selection_stack<'a, 'i>(node: roxmltree::Node<'a, 'i>) -> Vec<(roxmltree::Node<'a, 'i>, usize)> {
    let mut stack: Vec<_> = children(node, "selections", "selection")
        .map(|c| (c, 1))
        .collect();
    stack.reverse();
    stack
}

/// Element children of `node` named `inner` inside its `outer` children.
fn children<'a, 'i>(
    node: roxmltree::Node<'a, 'i>,
    outer: &'static str,
    inner: &'static str,
) -> impl Iterator<Item = roxmltree::Node<'a, 'i>> {
    node.children()
        .filter(move |c| c.is_element() && c.tag_name().name() == outer)
        .flat_map(move |c| {
            c.children()
                .filter(move |s| s.is_element() && s.tag_name().name() == inner)
        })
}

/// Where a finding about an element points: the value of its attribute
/// `key` (a selection's `name`, a cost's `value`), else the element's name
/// in its start tag; never the whole start tag, which runs to 150
/// characters and more.
fn attribute_span(text: &str, node: roxmltree::Node<'_, '_>, key: &str) -> Span {
    let value = node.attribute_node(key).map(|a| a.range_value());
    // roxmltree's value range is off past 65,535 bytes of name or 255
    // spaces around `=`: only a range that is text is used.
    if let Some(value) = value.filter(|v| !v.is_empty() && text.get(v.clone()).is_some()) {
        return short(text, value.start, value.end);
    }
    let start = node.range().start + 1;
    let name = text.get(start..node.range().end).map_or(0, |t| {
        t.find(|c: char| c.is_whitespace() || c == '>' || c == '/')
            .unwrap_or(t.len())
    });
    short(text, start, start + name)
}

/// At most the first line and [`SHORT_SPAN`] bytes of `start..end`, cut
/// at a character.
fn short(text: &str, start: usize, end: usize) -> Span {
    let Some(part) = text.get(start..end) else {
        return Span::new(start, start);
    };
    let mut len = part.find(['\n', '\r']).unwrap_or(part.len()).min(SHORT_SPAN);
    while !part.is_char_boundary(len) {
        len -= 1;
    }
    Span::new(start, start + len)
}

/// The most a finding underlines of an attribute's value.
const SHORT_SPAN: usize = 80;

/// The byte offset of a 1-based row and column.
fn offset_of(text: &str, row: u32, col: u32) -> usize {
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if i + 1 == row as usize {
            let col = (col as usize).saturating_sub(1);
            return offset + line.char_indices().nth(col).map_or(line.len(), |(b, _)| b);
        }
        offset += line.len();
    }
    text.len()
}

/// A name as a roster line can carry it: what a roster reserves (`,` `:`
/// `[` `]` `#`) cut or replaced, control characters dropped, at most 200
/// characters.
fn sanitize(name: &str) -> String {
    let name = name.split(',').next().unwrap_or_default();
    let name = name.replace(':', " -");
    let cleaned: String = name
        .chars()
        .filter(|c| !c.is_control() && !crate::escape::hostile_char(*c) && !matches!(c, '[' | ']' | '#'))
        .take(200)
        .collect();
    cleaned.split_whitespace().collect::<Vec<_>>().join(" ")
}

struct Writer<'t, 'c> {
    text: &'t str,
    xml: &'t SourceFile,
    list: &'c ArmyList,
    roster: String,
    map: Vec<(Span, Span)>,
    diagnostics: Vec<Diagnostic>,
    selections: usize,
}

impl Writer<'_, '_> {
    fn number(&mut self, node: roxmltree::Node<'_, '_>) -> u32 {
        match node.attribute("number") {
            None => 1,
            Some(n) => match n.trim().parse::<u32>() {
                Ok(n) => n,
                Err(_) => {
                    let d = Diagnostic::error(
                        Code::BattleScribe,
                        format!(
                            "selection `{}` has number `{}`, which is not a count",
                            sanitize(node.attribute("name").unwrap_or_default()),
                            sanitize(n)
                        ),
                    )
                    .at(self.xml, attribute_span(self.text, node, "number"));
                    self.diagnostics.push(d);
                    1
                }
            },
        }
    }

    /// The points a selection states for itself and everything in it.
    fn cost(&mut self, node: roxmltree::Node<'_, '_>) -> Option<i64> {
        let mut total: Option<i64> = None;
        let mut stack = vec![(node, 0usize)];
        while let Some((n, depth)) = stack.pop() {
            for cost in children(n, "costs", "cost") {
                if !is_points(cost.attribute("name").unwrap_or_default()) {
                    continue;
                }
                let value = cost.attribute("value").unwrap_or_default();
                match whole(value) {
                    Some(v) => total = Some(total.unwrap_or(0).saturating_add(v)),
                    None => {
                        let d = Diagnostic::error(
                            Code::BattleScribe,
                            format!("a cost of `{}` points is not a whole number", sanitize(value)),
                        )
                        .at(self.xml, attribute_span(self.text, cost, "value"));
                        self.diagnostics.push(d);
                        return None;
                    }
                }
            }
            if depth < MAX_DEPTH {
                stack.extend(children(n, "selections", "selection").map(|c| (c, depth + 1)));
            }
        }
        total
    }

    fn count(&mut self) -> bool {
        self.selections += 1;
        self.selections <= MAX_SELECTIONS
    }

    /// Writes a formation line (indented under its group, if any) and the
    /// lines of its members.
    fn formation(&mut self, node: roxmltree::Node<'_, '_>, depth: usize) {
        if !self.count() {
            if self.selections == MAX_SELECTIONS + 1 {
                let d = Diagnostic::error(
                    Code::BattleScribe,
                    format!("the roster has more than {MAX_SELECTIONS} selections; the rest are not read"),
                )
                .at(self.xml, attribute_span(self.text, node, "name"));
                self.diagnostics.push(d);
            }
            return;
        }
        let name = sanitize(node.attribute("name").unwrap_or_default());
        let number = self.number(node);
        let cost = self.cost(node);
        let formation = match self.list.formation_names.lookup(&name) {
            Lookup::Found(i) => Some(i),
            _ => None,
        };
        let indent = "  ".repeat(depth);
        self.roster.push_str(&indent);
        let start = self.roster.len();
        if number > 1 {
            let _ = write!(self.roster, "{number}x ");
        }
        self.roster
            .push_str(if name.is_empty() { "(unnamed)" } else { &name });
        self.map.push((
            Span::new(start, self.roster.len()),
            attribute_span(self.text, node, "name"),
        ));

        // Upgrades: every selection inside that is not a member, however
        // deep; members: selections the group admits.
        let mut upgrades: Vec<(roxmltree::Node<'_, '_>, String, u32)> = Vec::new();
        let mut members = Vec::new();
        // A card of several titans: each titan (a selection named after
        // the single titan card it is) is a `Titan:` line of its own.
        let each = formation
            .and_then(|f| self.list.formations[f].titans)
            .map(|(_, each)| self.list.formations[each].name.clone());
        let mut titans = Vec::new();
        let mut stack = selection_stack(node);
        while let Some((child, level)) = stack.pop() {
            let child_name = sanitize(child.attribute("name").unwrap_or_default());
            let is_member = formation
                .and_then(|f| self.list.formations[f].group.as_ref())
                .is_some_and(|g| match self.list.formation_names.lookup(&child_name) {
                    Lookup::Found(m) => g.admits(m),
                    _ => false,
                });
            if level == 1
                && each
                    .as_ref()
                    .is_some_and(|e| crate::catalogue::names::same_thing(&child_name, e))
            {
                titans.push(child);
                continue;
            }
            if is_member && level == 1 && depth < 2 {
                members.push(child);
                continue;
            }
            if !self.count() {
                continue;
            }
            self.take_upgrade(child, child_name, level, &mut upgrades, &mut stack);
        }
        self.write_upgrades(&upgrades);
        if let Some(cost) = cost.filter(|c| *c >= 0) {
            let start = self.roster.len() + 1;
            let _ = write!(self.roster, " [{cost}]");
            self.map.push((
                Span::new(start, self.roster.len()),
                attribute_span(self.text, node, "name"),
            ));
        }
        self.roster.push('\n');
        for titan in titans {
            self.titan(titan, depth + 1);
        }
        for member in members {
            self.formation(member, depth + 1);
        }
    }

    /// A selection read as an upgrade (a container of upgrades is not one
    /// itself), with the selections it holds queued to be read next.
    fn take_upgrade<'a, 'i>(
        &mut self,
        child: roxmltree::Node<'a, 'i>,
        name: String,
        level: usize,
        upgrades: &mut Vec<(roxmltree::Node<'a, 'i>, String, u32)>,
        stack: &mut Vec<(roxmltree::Node<'a, 'i>, usize)>,
    ) {
        let n = self.number(child);
        match self.list.upgrade_names.lookup(&name) {
            Lookup::NotFound if is_container(child) => {}
            _ => upgrades.push((child, name, n)),
        }
        if level < MAX_DEPTH {
            let inner: Vec<_> = children(child, "selections", "selection").collect();
            stack.extend(inner.into_iter().rev().map(|c| (c, level + 1)));
        }
    }

    /// One titan of a card of several titans: `Titan:` and every selection
    /// inside it, however deep, as its weapons (its points are the card's).
    fn titan(&mut self, node: roxmltree::Node<'_, '_>, depth: usize) {
        if !self.count() {
            return;
        }
        let number = self.number(node);
        let mut upgrades: Vec<(roxmltree::Node<'_, '_>, String, u32)> = Vec::new();
        let mut stack = selection_stack(node);
        while let Some((child, level)) = stack.pop() {
            if !self.count() {
                continue;
            }
            let child_name = sanitize(child.attribute("name").unwrap_or_default());
            self.take_upgrade(child, child_name, level, &mut upgrades, &mut stack);
        }
        self.roster.push_str(&"  ".repeat(depth));
        let start = self.roster.len();
        if number > 1 {
            let _ = write!(self.roster, "{number}x ");
        }
        self.roster.push_str(crate::games::netepic::TITAN_LINE);
        self.map.push((
            Span::new(start, self.roster.len()),
            attribute_span(self.text, node, "name"),
        ));
        self.write_upgrades(&upgrades);
        self.roster.push('\n');
    }

    /// `: A, 2x B` after a name, each item mapped to its selection.
    fn write_upgrades(&mut self, upgrades: &[(roxmltree::Node<'_, '_>, String, u32)]) {
        if !upgrades.is_empty() {
            self.roster.push_str(": ");
            for (i, (child, child_name, n)) in upgrades.iter().enumerate() {
                if i > 0 {
                    self.roster.push_str(", ");
                }
                let start = self.roster.len();
                let fills = match self.list.upgrade_names.lookup(child_name) {
                    Lookup::Found(u) => self.list.upgrades[u].fills.is_some(),
                    _ => false,
                };
                let digit_led = child_name.starts_with(|c: char| c.is_ascii_digit());
                if !fills && (*n > 1 || digit_led) {
                    let _ = write!(self.roster, "{n}x ");
                }
                self.roster.push_str(if child_name.is_empty() {
                    "(unnamed)"
                } else {
                    child_name
                });
                self.map.push((
                    Span::new(start, self.roster.len()),
                    attribute_span(self.text, *child, "name"),
                ));
            }
        }
    }
}

/// A selection that only holds others (BattleScribe's option groups
/// become selections with no cost of their own in some catalogues): read
/// through, not as an upgrade, when its name means nothing to the list.
fn is_container(node: roxmltree::Node<'_, '_>) -> bool {
    let has_children = children(node, "selections", "selection").next().is_some();
    let own_cost = children(node, "costs", "cost").any(|c| {
        is_points(c.attribute("name").unwrap_or_default())
            && whole(c.attribute("value").unwrap_or_default()).is_some_and(|v| v != 0)
    });
    has_children && !own_cost
}

impl Imported<'_> {
    /// Points diagnostics about the roster text at the XML element each
    /// line came from; the roster line stays as a secondary label. Fixes
    /// are edits of roster text (`Army: Codex Astartes (2026-02-04)`),
    /// which a BattleScribe file cannot take: they are left out.
    pub fn remap(&self, roster: &SourceFile, diagnostics: &mut [Diagnostic]) {
        for d in diagnostics.iter_mut() {
            d.fix = None;
            let Some(primary) = &d.primary else { continue };
            if primary.file.name() != roster.name() || primary.file.text() != roster.text() {
                continue;
            }
            let at = primary.span;
            let found = self
                .map
                .iter()
                .filter(|(r, _)| r.start <= at.start && at.end <= r.end.max(at.start))
                .min_by_key(|(r, _)| r.end - r.start)
                .or_else(|| {
                    // A span across items (a whole line): the line's first item.
                    self.map
                        .iter()
                        .find(|(r, _)| at.start <= r.start && r.start < at.end.max(at.start + 1))
                });
            let Some(&(_, xml_span)) = found else { continue };
            let read_as = Label {
                file: primary.file.clone(),
                span: primary.span,
                message: "read from the BattleScribe roster as this".to_string(),
            };
            d.primary = Some(Label {
                file: self.xml.clone(),
                span: xml_span,
                message: primary.message.clone(),
            });
            d.secondary.insert(0, read_as);
        }
    }
}
