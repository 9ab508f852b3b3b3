//! Printed documents: crib sheets (the datasheets of an army or of a
//! roster, with a glossary of the terms they use) and rosters (a checked
//! roster with its formations, points, derived facts and verdict).
//!
//! `view` turns the catalogue and a `check::Checked` into plain views;
//! `html` renders them through the askama templates in `templates/`, `pdf`
//! through printpdf with the font shipped in `assets/fonts/`. Nothing here
//! reads or writes files, checks rules or prints: the CLI does the I/O.

pub mod card;
pub mod epic;
pub mod heresy;
mod html;
pub mod netepic;
#[cfg(feature = "pdf")]
mod pdf;
pub mod ships;
pub mod space_fleet;
pub mod view;

#[cfg(feature = "pdf")]
pub use pdf::{Pdf, unprintable_note};
pub use view::{CribSheet, RosterSheet};

/// Paper the pages are laid out for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Paper {
    #[default]
    A4,
    Letter,
}

/// A document that could not be produced.
#[derive(Debug, thiserror::Error)]
pub enum PrintError {
    #[error("the HTML template could not be rendered: {0}")]
    Template(String),
    #[error("the embedded font could not be read")]
    Font,
    #[error("the PDF could not be written: {0}")]
    Write(String),
}

pub fn crib_html(sheet: &CribSheet, paper: Paper) -> Result<String, PrintError> {
    html::crib(sheet, paper)
}

#[cfg(feature = "pdf")]
pub fn crib_pdf(sheet: &CribSheet, paper: Paper) -> Result<Vec<u8>, PrintError> {
    pdf::crib(sheet, paper).map(|pdf| pdf.bytes)
}

/// The crib sheet's PDF with the characters its font could not show.
#[cfg(feature = "pdf")]
pub fn crib_pdf_document(sheet: &CribSheet, paper: Paper) -> Result<Pdf, PrintError> {
    pdf::crib(sheet, paper)
}

pub fn roster_html(roster: &RosterSheet, paper: Paper) -> Result<String, PrintError> {
    html::roster(roster, paper)
}

#[cfg(feature = "pdf")]
pub fn roster_pdf(roster: &RosterSheet, paper: Paper) -> Result<Vec<u8>, PrintError> {
    pdf::roster(roster, paper).map(|pdf| pdf.bytes)
}

/// The roster's PDF with the characters its font could not show.
#[cfg(feature = "pdf")]
pub fn roster_pdf_document(roster: &RosterSheet, paper: Paper) -> Result<Pdf, PrintError> {
    pdf::roster(roster, paper)
}

/// A date `YYYY-MM-DD` from seconds since the Unix epoch (UTC).
/// Options as a card prints them, a count before those taken more than
/// once: `Volcano Cannon, 2× Chain Fist`.
pub(crate) fn counted_names(upgrades: &[(String, u32)]) -> String {
    upgrades
        .iter()
        .map(|(name, count)| match count {
            1 => name.clone(),
            n => format!("{n}× {name}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn date_from_unix(seconds: i64) -> String {
    // Civil-from-days, after Howard Hinnant's algorithm.
    let days = seconds.div_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn dates_from_unix_time() {
        assert_eq!(super::date_from_unix(0), "1970-01-01");
        assert_eq!(super::date_from_unix(951_782_400), "2000-02-29");
        assert_eq!(super::date_from_unix(1_795_305_600), "2026-11-22");
        assert_eq!(super::date_from_unix(-86_400), "1969-12-31");
    }
}
