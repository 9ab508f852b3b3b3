//! HTML pages from the views, through the askama templates in `templates/`
//! (one struct per page, autoescaped: a roster's text never becomes markup).

use super::card::{Column, LineKey, Look};
use super::netepic::NeGrid;
use super::view::{CribSheet, RosterSheet};
use super::{Paper, PrintError};
use askama::Template;

#[derive(Template)]
#[template(path = "sheet.html", whitespace = "minimize")]
struct SheetPage<'a> {
    sheet: &'a CribSheet,
    title: &'a str,
    paper: &'static str,
    stamp: &'a str,
}

#[derive(Template)]
#[template(path = "roster.html", whitespace = "minimize")]
struct RosterPage<'a> {
    roster: &'a RosterSheet,
    title: String,
    paper: &'static str,
    stamp: &'a str,
}

fn css_size(paper: Paper) -> &'static str {
    match paper {
        Paper::A4 => "A4",
        Paper::Letter => "letter",
    }
}

pub fn crib(sheet: &CribSheet, paper: Paper) -> Result<String, PrintError> {
    SheetPage {
        sheet,
        title: &sheet.title,
        paper: css_size(paper),
        stamp: &sheet.stamp,
    }
    .render()
    .map_err(|e| PrintError::Template(e.to_string()))
}

pub fn roster(roster: &RosterSheet, paper: Paper) -> Result<String, PrintError> {
    RosterPage {
        roster,
        title: format!("{} roster: {}", roster.army, roster.file),
        paper: css_size(paper),
        stamp: &roster.stamp,
    }
    .render()
    .map_err(|e| PrintError::Template(e.to_string()))
}

/// The NetEpic grid's column widths as CSS percentages, computed once per
/// sheet (`NeGrid::widths`) for the page's text: 190 mm of 9 pt DejaVu
/// Sans Condensed, cells padded 3 pt a side.
pub fn ne_widths(grid: &NeGrid<'_>) -> Vec<String> {
    const EM: f32 = 9.0;
    let total = 190.0 / 25.4 * 72.0 / EM;
    let pad = 7.0 / EM;
    percent(&grid.widths(approximate_width, total, pad))
}

/// Column widths (fractions of the text width) as CSS percentages.
pub fn percent(widths: &[f32]) -> Vec<String> {
    widths.iter().map(|w| format!("{:.1}%", w * 100.0)).collect()
}

/// A text's width in ems, near enough to the browser's for column widths
/// (DejaVu Sans Condensed's advances by kind of character; the PDF
/// measures the font itself, but parsing it would cost an HTML page more
/// than the rest of its work).
fn approximate_width(text: &str, bold: bool) -> f32 {
    let ems: f32 = text
        .chars()
        .map(|c| match c {
            'i' | 'j' | 'l' | 'I' | 'J' | '\'' | '.' | ',' | ':' | ';' | '!' | '|' | ' ' => 0.27,
            'f' | 't' | 'r' | '(' | ')' | '[' | ']' | '-' | '/' => 0.34,
            'm' | 'w' | 'M' | 'W' | '@' | '%' => 0.85,
            c if c.is_uppercase() => 0.63,
            '+' | '<' | '>' | '=' | '×' => 0.75,
            _ => 0.55,
        })
        .sum();
    if bold { ems * 1.1 } else { ems }
}
