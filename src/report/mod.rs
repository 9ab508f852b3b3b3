//! Results as people and programs read them: rustc-style terminal text and
//! the JSON document of `--format json`; for a batch of rosters, the summary
//! table and the HTML, CSV and JSON reports. Rendering does no checking and
//! no I/O; the CLI decides where the output goes.

pub mod batch_json;
pub mod csv;
pub mod explain;
pub mod html;
pub mod json;
pub mod options;
pub mod summary;
pub mod terminal;
