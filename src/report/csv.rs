//! The CSV report of a batch (`muster check DIR --report OUT.csv`): one line
//! per roster, for a spreadsheet. Columns are only ever added at the end.
//!
//! Text a roster wrote that a spreadsheet would run as a formula (a cell
//! starting with `=`, `+`, `-`, `@`, tab or carriage return) gets a leading
//! `'`, so opening the file runs nothing. No I/O here.

use super::summary::{DuplicateRow, Rows};

/// The column names, in order.
pub const COLUMNS: [&str; 12] = [
    "file",
    "player",
    "army",
    "army_id",
    "version",
    "points",
    "limit",
    "status",
    "errors",
    "warnings",
    "first_error",
    "duplicates",
];

/// The report as CSV with a header line, written to `out` a row at a time.
pub fn write<W: std::io::Write>(rows: &dyn Rows, out: W) -> Result<(), csv::Error> {
    let mut writer = csv::Writer::from_writer(out);
    writer.write_record(COLUMNS)?;
    for r in rows.read()? {
        let r = r?;
        let duplicates: Vec<String> = r.duplicates.iter().map(DuplicateRow::describe).collect();
        writer.write_record([
            defuse(&r.file),
            defuse(r.who().as_deref().unwrap_or("")),
            defuse(r.army.as_deref().unwrap_or("")),
            r.army_id.clone().unwrap_or_default(),
            defuse(r.version.as_deref().unwrap_or("")),
            r.points.map(|p| p.to_string()).unwrap_or_default(),
            r.limit.map(|l| l.to_string()).unwrap_or_default(),
            r.status.as_str().to_string(),
            r.errors.to_string(),
            r.warnings.to_string(),
            defuse(r.first_error.as_deref().unwrap_or("")),
            defuse(&duplicates.join("; ")),
        ])?;
    }
    writer.flush()?;
    Ok(())
}

/// Text a spreadsheet would take for a formula, made plain text.
fn defuse(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn formulas_are_defused() {
        assert_eq!(super::defuse("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
        assert_eq!(super::defuse("Jane"), "Jane");
    }
}
