//! `muster explain`: datasheet notation explained part by part, and one
//! unit's (or ship's) datasheet with its terms expanded, as terminal text.
//!
//! The meaning of each value comes from `notation` (what its parameters
//! say) and the game's glossary (what the rule is); this module only lays
//! them out.

use crate::catalogue::glossary::Glossary;
use crate::catalogue::{AnySheet, Datasheet, SfShip, Ship};
use crate::notation::Part;
use crate::notation::ship::ShipPart;
use crate::print::card::{Card, Column, LineKey, WeaponTable};
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// Each part of `text`: its canonical form, what kind of notation it is,
/// what its values say and the glossary lines of its terms.
pub fn notation(text: &str, parts: &[Part], glossary: Option<&Glossary>) -> String {
    explain_parts(text, parts.iter().map(|p| (&p.term, p.span)), "", glossary)
}

/// Each part: canonical form, kind (after `game`, where the game must be
/// said), the written form if it differs, what it says, its glossary lines.
fn explain_parts<'a, T: crate::notation::Explain + 'a>(
    text: &str,
    parts: impl Iterator<Item = (&'a T, crate::source::Span)>,
    game: &str,
    glossary: Option<&Glossary>,
) -> String {
    let mut out = String::new();
    for (i, (term, span)) in parts.enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let canonical = term.to_string();
        let written = text.get(span.start..span.end).unwrap_or_default().trim();
        let _ = write!(out, "{canonical}  ({game}{}", term.kind());
        if !written.eq_ignore_ascii_case(&canonical) {
            let _ = write!(out, "; written `{written}`");
        }
        out.push_str(")\n");
        if let Some(description) = term.describe() {
            let _ = writeln!(out, "  {description}");
        }
        for id in term.glossary_ids() {
            match glossary.and_then(|g| g.entry(id)) {
                Some(entry) => {
                    let _ = writeln!(out, "  {}: {}", entry.title(), entry.summary);
                }
                None => {
                    let _ = writeln!(out, "  ({id}: no glossary entry)");
                }
            }
        }
    }
    out
}

/// One datasheet of any kind as a small table, then the glossary of what
/// it uses; `list_name` names who fields it.
pub fn sheet(sheet: AnySheet<'_>, list_name: &str, glossary: Option<&Glossary>) -> String {
    match sheet {
        AnySheet::Epic(d) => datasheet(d, list_name, glossary),
        AnySheet::Ship(s) => ship(s, list_name, glossary),
        AnySheet::SfShip(s) => sf_ship(s, list_name, glossary),
        AnySheet::Heresy(u) => heresy_unit(u, list_name, glossary),
        AnySheet::NetEpic(u) => ne_unit(u, list_name, glossary),
    }
}

/// One datasheet as a small table, then the glossary of what it uses.
fn datasheet(sheet: &Datasheet, list_name: &str, glossary: Option<&Glossary>) -> String {
    let card = crate::print::epic::card(sheet, glossary);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} ({list_name}): {}, {}",
        card.name, card.kind, card.kind_name
    );
    let _ = writeln!(out, "  {}", card.stats_joined("   "));
    write_weapons(&mut out, &card.weapons, Column::heading);
    for line in card.lines() {
        let _ = writeln!(out, "  {}{}", line.label(), line.text());
    }
    write_missing_note(&mut out, &card);
    if let Some(glossary) = glossary {
        write_glossary_entries(&mut out, glossary, sheet.glossary_ids());
    }
    out
}

/// Ship notation part by part, as `notation` does for Epic values.
pub fn ship_notation(text: &str, parts: &[ShipPart], glossary: Option<&Glossary>) -> String {
    explain_parts(
        text,
        parts.iter().map(|p| (&p.term, p.span)),
        "Battlefleet Gothic ",
        glossary,
    )
}

/// Space Fleet notation part by part.
pub fn sf_notation(
    text: &str,
    parts: &[crate::notation::space_fleet::SfPart],
    glossary: Option<&Glossary>,
) -> String {
    explain_parts(
        text,
        parts.iter().map(|p| (&p.term, p.span)),
        "Space Fleet ",
        glossary,
    )
}

/// One Space Fleet datasheet as a small table, then the glossary of what
/// it uses.
fn sf_ship(ship: &SfShip, list_name: &str, glossary: Option<&Glossary>) -> String {
    let card = crate::print::space_fleet::card(ship);
    let mut out = String::new();
    let _ = writeln!(out, "{} ({list_name})", card.name);
    if !card.stats.is_empty() {
        let _ = writeln!(out, "  {}", stats(&card));
    }
    write_weapons(&mut out, &card.weapons, Column::heading);
    for line in card.items(LineKey::CriticalDamage) {
        let _ = writeln!(out, "  Critical {line}");
    }
    write_notes_and_faults(&mut out, &card);
    write_missing_note(&mut out, &card);
    write_glossary_lines(
        &mut out,
        crate::print::space_fleet::glossary_lines(glossary, &[ship]),
    );
    out
}

/// A card's stat line, three spaces apart: `Speed 4   Damage 8`.
fn stats(card: &Card) -> String {
    card.stats_joined("   ")
}

/// A card's weapons table, if it has weapons, under the headings `head`
/// gives.
fn write_weapons(out: &mut String, table: &WeaponTable, head: fn(&Column) -> &str) {
    if table.rows.is_empty() {
        return;
    }
    let heads: Vec<&str> = table.columns.iter().map(head).collect();
    let rows = table
        .rows
        .iter()
        .map(|row| row.iter().map(|c| c.text.clone()).collect())
        .collect();
    write_table(out, &heads, rows);
}

/// A ship card's notes and the source's faults, a line each.
fn write_notes_and_faults(out: &mut String, card: &Card) {
    for note in card.items(LineKey::Notes) {
        let _ = writeln!(out, "  Note: {note}");
    }
    for fault in card.items(LineKey::SourceFault) {
        let _ = writeln!(out, "  Source fault: {fault}");
    }
}

/// What the card's mark for a missing stat means, as its crib sheet says
/// it, when a stat it prints is missing.
fn write_missing_note(out: &mut String, card: &Card) {
    if let Some(note) = card.missing_note() {
        let _ = writeln!(out, "  {note}");
    }
}

/// NetEpic notation part by part.
pub fn ne_notation(
    text: &str,
    parts: &[crate::notation::netepic::NePart],
    glossary: Option<&Glossary>,
) -> String {
    explain_parts(
        text,
        parts.iter().map(|p| (&p.term, p.span)),
        "NetEpic ",
        glossary,
    )
}

/// One NetEpic datasheet: its characteristics, weapons, abilities, the
/// army book's rules and faults, then the glossary of what it uses.
fn ne_unit(unit: &crate::catalogue::NeUnit, list_name: &str, glossary: Option<&Glossary>) -> String {
    let card = crate::print::netepic::card(unit);
    let mut out = String::new();
    let _ = writeln!(out, "{} ({list_name}): {}", card.name, card.kind);
    let _ = writeln!(out, "  {}", card.stats_line().replace(" · ", "   "));
    write_weapons(&mut out, &card.weapons, Column::heading);
    for key in [LineKey::Abilities, LineKey::ArmyBookRules] {
        for line in card.lines().filter(|l| l.key == Some(key)) {
            let _ = writeln!(out, "  {}{}", line.label(), line.text());
        }
    }
    for fault in card.items(LineKey::SourceFault) {
        let _ = writeln!(out, "  Source fault: {fault}");
    }
    write_missing_note(&mut out, &card);
    write_glossary_lines(&mut out, crate::print::netepic::glossary_lines(glossary, &[unit]));
    out
}

/// One ship datasheet as a small table, then the glossary of what it uses.
fn ship(ship: &Ship, list_name: &str, glossary: Option<&Glossary>) -> String {
    let card = crate::print::ships::card(ship);
    let mut out = String::new();
    let _ = writeln!(out, "{} ({list_name}): {}", card.name, card.kind);
    let _ = writeln!(out, "  {}", stats(&card));
    write_weapons(&mut out, &card.weapons, Column::heading);
    if card.weapons.rows.is_empty() {
        let _ = writeln!(out, "  Weapons: {}", crate::print::card::NOT_IN_SOURCES);
    }
    write_notes_and_faults(&mut out, &card);
    write_missing_note(&mut out, &card);
    write_glossary_lines(&mut out, crate::print::ships::glossary_lines(glossary, &[ship]));
    out
}

/// Heresy notation part by part.
pub fn heresy_notation(
    text: &str,
    parts: &[crate::notation::heresy::HeresyPart],
    glossary: Option<&Glossary>,
) -> String {
    explain_parts(text, parts.iter().map(|p| (&p.term, p.span)), "Heresy ", glossary)
}

/// One Heresy datasheet: its stat line, a weapon table, its skills, then
/// the glossary of what it uses.
fn heresy_unit(unit: &crate::catalogue::HeresyUnit, list_name: &str, glossary: Option<&Glossary>) -> String {
    let card = crate::print::heresy::card(unit);
    let mut out = String::new();
    let _ = writeln!(out, "{} ({list_name}): {}", card.name, card.kind);
    let _ = writeln!(out, "  {}", card.stats_line().replace(" · ", "   "));
    write_weapons(&mut out, &card.weapons, Column::short);
    let skills: Vec<&str> = card.items(LineKey::Skills).map(String::as_str).collect();
    if !skills.is_empty() {
        let _ = writeln!(out, "  Skills: {}", skills.join(", "));
    }
    for note in card.lines().filter(|l| l.key.is_none()) {
        let _ = writeln!(out, "  {}", note.text());
    }
    write_missing_note(&mut out, &card);
    if let (Some(glossary), Some(sheet)) = (glossary, unit.sheet()) {
        write_glossary_entries(&mut out, glossary, sheet.glossary_ids());
    }
    out
}

/// A weapon table as every `explain` card prints it: indented two spaces,
/// columns two apart, each but the last padded to its widest cell, capped
/// at `MAX_COLUMN` so one long cell does not push the rest off screen.
fn write_table(out: &mut String, head: &[&str], rows: Vec<Vec<String>>) {
    let head: Vec<String> = head.iter().map(|c| (*c).to_owned()).collect();
    let table: Vec<Vec<String>> = std::iter::once(head).chain(rows).collect();
    let columns = table.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|i| {
            let widest = table
                .iter()
                .map(|r| r.get(i).map_or(0, |c| c.chars().count()))
                .max();
            widest.unwrap_or(0).min(super::MAX_COLUMN)
        })
        .collect();
    for row in &table {
        let mut line = String::from(" ");
        for (i, width) in widths.iter().enumerate() {
            let cell = row.get(i).map_or("", String::as_str);
            if i + 1 == columns {
                let _ = write!(line, " {cell}");
            } else {
                let _ = write!(line, " {cell:<width$} ");
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
}

/// The glossary lines of a fleet or NetEpic card, after a blank line.
fn write_glossary_lines(out: &mut String, lines: Vec<crate::print::card::GlossaryLine>) {
    if lines.is_empty() {
        return;
    }
    out.push('\n');
    for line in lines {
        if line.name.is_empty() {
            let _ = writeln!(out, "{}: {}", line.term, line.summary);
        } else {
            let _ = writeln!(out, "{} ({}): {}", line.term, line.name, line.summary);
        }
    }
}

/// The glossary entries a datasheet's terms name, after a blank line.
fn write_glossary_entries<'a>(out: &mut String, glossary: &Glossary, ids: impl IntoIterator<Item = &'a str>) {
    let ids: BTreeSet<&str> = ids.into_iter().collect();
    let entries = glossary.entries_for(&ids);
    if entries.is_empty() {
        return;
    }
    out.push('\n');
    for entry in entries {
        let _ = writeln!(out, "{}: {}", entry.title(), entry.summary);
    }
}
