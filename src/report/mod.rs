//! Results as people and programs read them: rustc-style terminal text and
//! the JSON document of `--format json`; for a batch of rosters, the summary
//! table and the HTML, CSV and JSON reports. Rendering does no checking and
//! no I/O; the CLI decides where the output goes.

/// The widest a padded table column gets. Wider values are printed whole
/// and push their row out; a format width past `u16::MAX` would panic, and a
/// 70,000-character name in a list file is no reason to pad every row.
pub const MAX_COLUMN: usize = 60;

pub mod batch_json;
pub mod csv;
pub mod explain;
pub mod html;
pub mod json;
pub mod options;
pub mod pretty;
mod scan;
pub mod summary;
pub mod terminal;
