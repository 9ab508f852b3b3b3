//! Results as people and programs read them: rustc-style terminal text and
//! the JSON document of `--format json`. Rendering does no checking and no
//! I/O; the CLI decides where the output goes.

pub mod explain;
pub mod json;
pub mod options;
pub mod terminal;
