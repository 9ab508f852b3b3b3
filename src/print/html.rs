//! HTML pages from the views, through the askama templates in `templates/`
//! (one struct per page, autoescaped: a roster's text never becomes markup).

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
