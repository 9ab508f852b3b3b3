//! The JSON Schemas muster publishes, generated from the Rust types.
//!
//! `muster schema` writes them to `schema/`; a test fails when the files in
//! the repository differ from what the types generate, so the two cannot
//! drift. The list-file schemas also validate every list when it loads.

use crate::catalogue::raw::{ArmyListFile, DatasheetFile, GlossaryFile, ModelsFile, ScenarioFile};
use crate::report::json::CheckOutput;
use std::sync::OnceLock;

/// File name and generator of each published schema.
pub fn all() -> Vec<(&'static str, serde_json::Value)> {
    vec![
        ("army-list.schema.json", army_list().clone()),
        ("datasheets.schema.json", datasheets().clone()),
        ("models.schema.json", models().clone()),
        ("glossary.schema.json", glossary().clone()),
        ("scenarios.schema.json", scenarios().clone()),
        ("event.schema.json", event().clone()),
        (
            "check-output.schema.json",
            to_value(schemars::schema_for!(CheckOutput)),
        ),
        (
            "check-report.schema.json",
            to_value(schemars::schema_for!(crate::report::batch_json::CheckReport)),
        ),
    ]
}

/// A schema as pretty JSON with a final newline, as written to disk.
pub fn render(schema: &serde_json::Value) -> String {
    let mut text = serde_json::to_string_pretty(schema).unwrap_or_default();
    text.push('\n');
    text
}

fn to_value(schema: schemars::Schema) -> serde_json::Value {
    schema.to_value()
}

/// A generated schema and its compiled validator, each made once.
macro_rules! schema {
    ($schema:ident, $validator:ident, $type:ty) => {
        pub fn $schema() -> &'static serde_json::Value {
            static SCHEMA: OnceLock<serde_json::Value> = OnceLock::new();
            SCHEMA.get_or_init(|| to_value(schemars::schema_for!($type)))
        }

        /// `None` only if the generated schema were itself invalid, which
        /// the schema tests rule out.
        pub fn $validator() -> Option<&'static jsonschema::Validator> {
            static VALIDATOR: OnceLock<Option<jsonschema::Validator>> = OnceLock::new();
            VALIDATOR
                .get_or_init(|| jsonschema::validator_for($schema()).ok())
                .as_ref()
        }
    };
}

schema!(army_list, army_list_validator, ArmyListFile);
schema!(datasheets, datasheets_validator, DatasheetFile);
schema!(models, models_validator, ModelsFile);
schema!(glossary, glossary_validator, GlossaryFile);
schema!(scenarios, scenarios_validator, ScenarioFile);
schema!(event, event_validator, crate::event::EventFile);

#[cfg(test)]
mod tests {
    #[test]
    fn generated_schemas_compile() {
        assert!(super::army_list_validator().is_some());
        assert!(super::datasheets_validator().is_some());
        for (_, schema) in super::all() {
            assert!(jsonschema::validator_for(&schema).is_ok());
        }
    }
}
