//! The JSON Schemas of the list files, generated from their `raw` types,
//! and their compiled validators: every `--lists` file (and, for `muster
//! lists --check` and the tests, every file) is checked against them when
//! it loads. `muster schema` publishes them with the others (`cli`).

use super::raw::{ArmyListFile, DatasheetFile, GlossaryFile, ModelsFile, ScenarioFile};

/// A schema generated from a type and its compiled validator, each made
/// once: `generated!(schema, validator, Type)` defines `schema()` and
/// `validator()`. Also used for the event file's (`event`).
macro_rules! generated {
    ($schema:ident, $validator:ident, $type:ty) => {
        pub fn $schema() -> &'static serde_json::Value {
            static SCHEMA: std::sync::OnceLock<serde_json::Value> = std::sync::OnceLock::new();
            SCHEMA.get_or_init(|| schemars::schema_for!($type).to_value())
        }

        /// `None` only if the generated schema were itself invalid, which
        /// the schema tests rule out.
        pub fn $validator() -> Option<&'static jsonschema::Validator> {
            static VALIDATOR: std::sync::OnceLock<Option<jsonschema::Validator>> = std::sync::OnceLock::new();
            VALIDATOR
                .get_or_init(|| jsonschema::validator_for($schema()).ok())
                .as_ref()
        }
    };
}
pub(crate) use generated;

generated!(army_list, army_list_validator, ArmyListFile);
generated!(datasheets, datasheets_validator, DatasheetFile);
generated!(models, models_validator, ModelsFile);
generated!(glossary, glossary_validator, GlossaryFile);
generated!(scenarios, scenarios_validator, ScenarioFile);

#[cfg(test)]
mod tests {
    #[test]
    fn generated_schemas_compile() {
        assert!(super::army_list_validator().is_some());
        assert!(super::datasheets_validator().is_some());
        assert!(super::models_validator().is_some());
        assert!(super::glossary_validator().is_some());
        assert!(super::scenarios_validator().is_some());
    }
}
