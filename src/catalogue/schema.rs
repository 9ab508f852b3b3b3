//! The JSON Schemas of the list files, generated from their `raw` types,
//! and their compiled validators: every `--lists` file (and, for `muster
//! lists --check` and the tests, every file) is checked against them when
//! it loads. `muster schema` publishes them with the others (`cli`).

use super::raw::{ArmyListFile, DatasheetFile, GlossaryFile, ModelsFile, ScenarioFile};

/// A schema and its compiled validator, each made once:
/// `generated!(schema, validator, Type, "name")` defines `schema()`, the
/// published `schema/name.schema.json` as the build packed it (generated
/// from `Type` only when the build could not read it), and `validator()`.
/// `muster schema` writes what the types generate, and a test proves the
/// published files are that. Also used for the event file's (`event`).
macro_rules! generated {
    ($schema:ident, $validator:ident, $type:ty, $name:literal) => {
        pub fn $schema() -> &'static serde_json::Value {
            static SCHEMA: std::sync::OnceLock<serde_json::Value> = std::sync::OnceLock::new();
            SCHEMA.get_or_init(|| {
                $crate::catalogue::schema::published($name)
                    .unwrap_or_else(|| schemars::schema_for!($type).to_value())
            })
        }

        /// `None` only if the generated schema were itself invalid, which
        /// the schema tests rule out.
        pub fn $validator() -> Option<&'static jsonschema::Validator> {
            static VALIDATOR: std::sync::OnceLock<Option<jsonschema::Validator>> = std::sync::OnceLock::new();
            VALIDATOR
                .get_or_init(|| $crate::catalogue::schema::compile($schema()))
                .as_ref()
        }
    };
}
pub(crate) use generated;

/// The validator of a generated schema, compiled as draft 7 with no
/// `format` checked: the schemas say draft 2020-12, but use only keywords
/// that mean the same in draft 7 (`$ref` beside nothing but annotations;
/// `format`, which 2020-12 does not check, only of unchecked kinds), and
/// compiling for draft 7 (checking the schema against its much smaller
/// meta-schema first) cost a third of compiling for 2020-12: most of a
/// check with `--lists` (issue 33). A test proves the keywords.
pub fn compile(schema: &serde_json::Value) -> Option<jsonschema::Validator> {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft7)
        .should_validate_formats(false)
        .build(schema)
        .ok()
}

generated!(army_list, army_list_validator, ArmyListFile, "army-list");
generated!(datasheets, datasheets_validator, DatasheetFile, "datasheets");
generated!(models, models_validator, ModelsFile, "models");
generated!(glossary, glossary_validator, GlossaryFile, "glossary");
generated!(scenarios, scenarios_validator, ScenarioFile, "scenarios");

/// The published schemas, packed by `build.rs`.
mod embedded {
    use crate::catalogue::packed::Packed;
    include!(concat!(env!("OUT_DIR"), "/embedded_schemas.rs"));
}

/// The published schema `schema/{name}.schema.json` as the build packed
/// it; `None` when the build could not read it.
pub(crate) fn published(name: &str) -> Option<serde_json::Value> {
    let (_, packed) = embedded::SCHEMAS.iter().find(|(n, _)| *n == name)?;
    packed.is_some().then(|| packed.decode().ok()).flatten()
}

#[cfg(test)]
mod tests {
    #[test]
    fn generated_schemas_compile() {
        assert!(super::army_list_validator().is_some());
        assert!(super::datasheets_validator().is_some());
        assert!(super::models_validator().is_some());
        assert!(super::glossary_validator().is_some());
        assert!(super::scenarios_validator().is_some());
        assert!(crate::event::schema_validator().is_some());
    }

    /// Every keyword of the generated schemas means the same in draft 7 as
    /// in the draft 2020-12 they name (see [`super::compile`]): a `$ref`
    /// has nothing beside it but annotations, and no keyword is one
    /// draft 7 does not know or reads otherwise.
    #[test]
    fn generated_schemas_read_the_same_as_draft_7() {
        const SAME: &[&str] = &[
            "$schema",
            "$ref",
            "$defs",
            "title",
            "description",
            "default",
            "type",
            "properties",
            "additionalProperties",
            "required",
            "items",
            "anyOf",
            "oneOf",
            "enum",
            "const",
            "minimum",
            "maximum",
            "pattern",
            "format",
        ];
        const ANNOTATIONS: &[&str] = &["$ref", "title", "description", "default"];
        fn walk(node: &serde_json::Value, at: &str, problems: &mut Vec<String>) {
            match node {
                serde_json::Value::Object(map) => {
                    for (key, value) in map {
                        if !SAME.contains(&key.as_str()) {
                            problems.push(format!("{at}/{key}"));
                        }
                        if map.contains_key("$ref") && !ANNOTATIONS.contains(&key.as_str()) {
                            problems.push(format!("{at}/{key} beside $ref"));
                        }
                        match key.as_str() {
                            // Maps of names to schemas.
                            "properties" | "$defs" => {
                                for (name, schema) in value.as_object().into_iter().flatten() {
                                    walk(schema, &format!("{at}/{key}/{name}"), problems);
                                }
                            }
                            // Values, not schemas.
                            "default" | "enum" | "const" | "required" => {}
                            _ => walk(value, &format!("{at}/{key}"), problems),
                        }
                    }
                }
                serde_json::Value::Array(items) => {
                    for (i, item) in items.iter().enumerate() {
                        walk(item, &format!("{at}/{i}"), problems);
                    }
                }
                _ => {}
            }
        }
        for schema in [
            super::army_list(),
            super::datasheets(),
            super::models(),
            super::glossary(),
            super::scenarios(),
            crate::event::schema(),
        ] {
            let mut problems = Vec::new();
            walk(schema, "", &mut problems);
            assert!(problems.is_empty(), "{problems:?}");
            // `format` only of kinds no draft checks.
            let text = schema.to_string();
            for format in ["date", "time", "email", "uri", "ipv4", "regex", "uuid"] {
                assert!(!text.contains(&format!("\"format\":\"{format}")), "{format}");
            }
        }
    }
}
