//! The JSON Schemas muster publishes (`muster schema`), generated from the
//! Rust types: the list files' (`catalogue::schema`), the event file's
//! (`event`), and the JSON output's (`report`). A test fails when the files
//! in `schema/` differ from what the types generate, so the two cannot
//! drift.

use crate::catalogue::raw::{ArmyListFile, DatasheetFile, GlossaryFile, ModelsFile, ScenarioFile};
use crate::event::EventFile;
use crate::report::batch_json::CheckReport;
use crate::report::json::CheckOutput;
use schemars::schema_for;

/// File name and contents of each published schema, as the types generate
/// them (a run validates against the published files, packed at build
/// time: `catalogue::schema::published`).
pub fn all() -> Vec<(&'static str, serde_json::Value)> {
    vec![
        ("army-list.schema.json", schema_for!(ArmyListFile).to_value()),
        ("datasheets.schema.json", schema_for!(DatasheetFile).to_value()),
        ("models.schema.json", schema_for!(ModelsFile).to_value()),
        ("glossary.schema.json", schema_for!(GlossaryFile).to_value()),
        ("scenarios.schema.json", schema_for!(ScenarioFile).to_value()),
        ("event.schema.json", schema_for!(EventFile).to_value()),
        ("check-output.schema.json", schema_for!(CheckOutput).to_value()),
        ("check-report.schema.json", schema_for!(CheckReport).to_value()),
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
    /// What a run validates against (the published files, as the build
    /// packed them) is what the types generate.
    #[test]
    fn the_packed_schemas_are_the_generated_ones() {
        use crate::catalogue::schema as lists;
        let packed = [
            lists::army_list(),
            lists::datasheets(),
            lists::models(),
            lists::glossary(),
            lists::scenarios(),
            crate::event::schema(),
        ];
        let all = super::all();
        for (name, generated) in &all {
            let published = crate::catalogue::schema::published(name.trim_end_matches(".schema.json"));
            assert_eq!(
                published.as_ref(),
                Some(generated),
                "{name}: run `cargo run -- schema`"
            );
        }
        for ((name, generated), packed) in all.iter().zip(packed) {
            assert_eq!(packed, generated, "{name}");
        }
    }

    #[test]
    fn published_schemas_compile() {
        for (_, schema) in super::all() {
            assert!(jsonschema::validator_for(&schema).is_ok());
        }
    }
}
