//! The JSON Schemas muster publishes (`muster schema`), generated from the
//! Rust types: the list files' (`catalogue::schema`), the event file's
//! (`event`), and the JSON output's (`report`). A test fails when the files
//! in `schema/` differ from what the types generate, so the two cannot
//! drift.

use crate::catalogue::schema as lists;
use crate::report::batch_json::CheckReport;
use crate::report::json::CheckOutput;

/// File name and contents of each published schema.
pub fn all() -> Vec<(&'static str, serde_json::Value)> {
    vec![
        ("army-list.schema.json", lists::army_list().clone()),
        ("datasheets.schema.json", lists::datasheets().clone()),
        ("models.schema.json", lists::models().clone()),
        ("glossary.schema.json", lists::glossary().clone()),
        ("scenarios.schema.json", lists::scenarios().clone()),
        ("event.schema.json", crate::event::schema().clone()),
        (
            "check-output.schema.json",
            schemars::schema_for!(CheckOutput).to_value(),
        ),
        (
            "check-report.schema.json",
            schemars::schema_for!(CheckReport).to_value(),
        ),
    ]
}

/// A schema as pretty JSON with a final newline, as written to disk.
pub fn render(schema: &serde_json::Value) -> String {
    let mut text = serde_json::to_string_pretty(schema).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    #[test]
    fn published_schemas_compile() {
        for (_, schema) in super::all() {
            assert!(jsonschema::validator_for(&schema).is_ok());
        }
    }
}
