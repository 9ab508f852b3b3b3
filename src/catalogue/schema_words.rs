//! Schema errors in words. The JSON-Schema validator speaks in pointers and
//! keywords (`at /: Additional properties are not allowed ('pionts' was
//! unexpected)`); people editing an event or list file need "unknown key
//! `pionts`, did you mean `points`?" on the line of the key. This module
//! turns each validator error into such a diagnostic, using the schema
//! itself to know the keys and types a place allows.

use crate::catalogue::locate::Positions;
use crate::diagnostic::{Code, Diagnostic, MAX_PER_FILE, nearest};
use crate::source::SourceFile;
use jsonschema::error::ValidationErrorKind;
use serde_json::Value;

/// Every schema error of `value`, in words, each at its line. An unknown key
/// that is a near miss of a missing required one gives one error, not two.
pub fn schema_errors(
    file: &SourceFile,
    value: &Value,
    schema: &Value,
    validator: &jsonschema::Validator,
    code: Code,
    hint: &str,
) -> Vec<Diagnostic> {
    // Most files are valid: that answer is cheaper than the errors', and
    // needs no positions (which read the file's YAML again).
    if validator.is_valid(value) {
        return Vec::new();
    }
    let (found, not_read) = problems(value, schema, validator);

    // A missing key with a near-miss unknown key beside it is one typo.
    let typo_of = |pointer: &str, missing: &str| {
        found.iter().any(|(p, problem, _)| {
            p == pointer
                && matches!(problem, Problem::Unknown(keys)
                    if keys.iter().any(|k| nearest(k, [missing]).is_some()))
        })
    };

    let positions = Positions::of(file.text());
    let mut out = Vec::new();
    // Capped as a roster's findings are: 70,000 unknown keys once took
    // 23 s and printed 26 MB.
    let mut left_out = not_read;
    for (pointer, problem, instance) in &found {
        if out.len() >= MAX_PER_FILE {
            left_out += match problem {
                Problem::Unknown(keys) => keys.len(),
                _ => 1,
            };
            continue;
        }
        let place = describe(pointer);
        let known = known_keys(schema, pointer);
        match problem {
            Problem::Unknown(keys) => {
                for (i, key) in keys.iter().enumerate() {
                    if out.len() >= MAX_PER_FILE {
                        left_out += keys.len() - i;
                        break;
                    }
                    let at = format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"));
                    let mut d = Diagnostic::error(code, format!("unknown key `{key}`{place}"))
                        .at(file, positions.span(file, &at));
                    match nearest(key, known.iter().map(String::as_str)) {
                        Some(s) => d = d.label(format!("did you mean `{s}`?")).fix(s.to_string()),
                        None if !known.is_empty() => {
                            d = d.hint(format!("the keys allowed here: {}", known.join(", ")))
                        }
                        None => {}
                    }
                    out.push(d.hint(hint));
                }
            }
            Problem::Missing(key) if typo_of(pointer, key) => {}
            Problem::Missing(key) => {
                // A key missing at the top belongs to no line: the start of
                // the file, rather than whichever line comes first.
                let span = if pointer.is_empty() {
                    crate::source::Span::new(0, 0)
                } else {
                    positions.span(file, pointer)
                };
                out.push(
                    Diagnostic::error(code, format!("missing key `{key}`{place}"))
                        .at(file, span)
                        .hint(hint),
                );
            }
            Problem::Type | Problem::Kinds(_) => {
                let expected = match problem {
                    Problem::Kinds(kinds) => kinds.join(" or "),
                    _ => schema_at(schema, pointer)
                        .map(expected_type)
                        .unwrap_or_else(|| "another kind of value".to_string()),
                };
                out.push(
                    Diagnostic::error(
                        code,
                        format!("{} must be {expected}, not {}", subject(pointer), shown(instance)),
                    )
                    .at(file, positions.span(file, pointer))
                    .hint(hint),
                );
            }
            Problem::OneOf(options) => {
                let mut d = Diagnostic::error(
                    code,
                    format!("{} must be one of: {}", subject(pointer), options.join(", ")),
                )
                .at(file, positions.span(file, pointer));
                if let Some(text) = instance.as_str()
                    && let Some(s) = nearest(text, options.iter().map(String::as_str))
                {
                    d = d.label(format!("did you mean `{s}`?")).fix(s.to_string());
                }
                out.push(d.hint(hint));
            }
            Problem::Other(message) => out.push(
                Diagnostic::error(code, format!("{} {message}", subject(pointer)))
                    .at(file, positions.span(file, pointer))
                    .hint(hint),
            ),
        }
    }
    // In line order, as a user fixes the file: the validator tells a
    // mapping's keys in the schema's order.
    out.sort_by_key(|d| d.primary.as_ref().map_or(usize::MAX, |p| p.span.start));
    if left_out > 0 {
        let mut summary = Diagnostic::error(
            code,
            format!(
                "and {} more errors in this file, not shown",
                crate::diagnostic::thousands(left_out)
            ),
        );
        summary.stands_for = left_out;
        out.push(summary);
    }
    crate::diagnostic::cap(out)
}

/// The validator's errors of `value` as problems, each with its JSON
/// pointer and a copy of the value it is about; past twice the cap, only
/// counted (the second figure).
fn problems(
    value: &Value,
    schema: &Value,
    validator: &jsonschema::Validator,
) -> (Vec<(String, Problem, Value)>, usize) {
    let mut found = Vec::new();
    // Past twice the cap, errors are only counted (each kept one holds a
    // copy of the value it is about).
    let mut not_read = 0usize;
    for error in validator.iter_errors(value) {
        // One error of the validator may stand for several problems (a
        // group, which may also be empty, with both `min` and `max` too
        // high): each is told, at its own line.
        let mut errors = Vec::new();
        specific(&error, &mut errors);
        for error in errors {
            if found.len() >= 2 * MAX_PER_FILE {
                not_read += 1;
                continue;
            }
            found.push(problem(error, schema));
        }
    }
    (found, not_read)
}

/// One error of the validator as a problem, with its JSON pointer and a
/// copy of the value it is about.
fn problem(error: &jsonschema::ValidationError<'_>, schema: &Value) -> (String, Problem, Value) {
    let pointer = error.instance_path().as_str().to_string();
    let problem = match error.kind() {
        ValidationErrorKind::AdditionalProperties { unexpected } => Problem::Unknown(unexpected.clone()),
        ValidationErrorKind::Required { property } => {
            Problem::Missing(property.as_str().unwrap_or_default().to_string())
        }
        ValidationErrorKind::Type { .. } => Problem::Type,
        ValidationErrorKind::Enum { options } => Problem::OneOf(
            options
                .as_array()
                .map(|o| o.iter().filter_map(|v| v.as_str().map(str::to_string)).collect())
                .unwrap_or_default(),
        ),
        ValidationErrorKind::Minimum { limit } => Problem::Other(format!(
            "must be at least {limit}, not {}",
            shown(error.instance())
        )),
        ValidationErrorKind::Maximum { limit } => Problem::Other(format!(
            "must be at most {limit}, not {}",
            shown(error.instance())
        )),
        ValidationErrorKind::Pattern { pattern } => Problem::Other(format!(
            "is not written in the expected form (pattern `{pattern}`)"
        )),
        ValidationErrorKind::OneOfNotValid { .. } | ValidationErrorKind::AnyOf { .. } => {
            match alternatives(schema, &pointer) {
                Some(Alternatives::Constants(options)) => Problem::OneOf(options),
                Some(Alternatives::Kinds(kinds)) => Problem::Kinds(kinds),
                None => Problem::Other(error.to_string()),
            }
        }
        _ => Problem::Other(error.to_string()),
    };
    (pointer, problem, error.instance().clone().into_owned())
}

/// The most specific complaints the validator has, added to `out`: where a
/// value matches none of several shapes (`anyOf`, `oneOf`) but is of the
/// kind one of them wants (a number above its maximum, where the other
/// shape is the word `missing`; a mapping, where the other is null), every
/// complaint of that shape ("99999 is greater than the maximum of 10000",
/// at the value's own path or inside it) instead of "not valid under any
/// of the schemas". A shape is of the value's kind unless it complains of
/// the value's own type, enum or constant; complaints inside the value (a
/// mapping's bad `scope`) leave it the value's shape.
fn specific<'e, 'a>(
    error: &'e jsonschema::ValidationError<'a>,
    out: &mut Vec<&'e jsonschema::ValidationError<'a>>,
) {
    use jsonschema::error::ValidationErrorKind as Kind;
    let context = match error.kind() {
        Kind::AnyOf { context } | Kind::OneOfNotValid { context } => context,
        _ => return out.push(error),
    };
    let here = error.instance_path();
    let typed = context.iter().find(|branch| {
        !branch.is_empty()
            && branch.iter().all(|e| {
                e.instance_path() != here
                    || !matches!(
                        e.kind(),
                        Kind::Type { .. } | Kind::Enum { .. } | Kind::Constant { .. }
                    )
            })
    });
    match typed {
        Some(branch) => branch.iter().for_each(|inner| specific(inner, out)),
        None => out.push(error),
    }
}

/// Turns the words YAML 1.1 read as booleans (`yes`, `no`, `on`, `off`,
/// `True`...) into booleans wherever the schema wants one: serde_yaml reads
/// them as text, and an organiser writing `counts_as: no` means false.
pub fn read_booleans(value: &mut Value, schema: &Value) {
    fn walk(value: &mut Value, pointer: &mut String, schema: &Value) {
        match value {
            Value::String(text) => {
                let wants_bool = schema_at(schema, pointer)
                    .is_some_and(|node| node.get("type").and_then(Value::as_str) == Some("boolean"));
                if wants_bool {
                    match text.to_ascii_lowercase().as_str() {
                        "yes" | "y" | "on" | "true" => *value = Value::Bool(true),
                        "no" | "n" | "off" | "false" => *value = Value::Bool(false),
                        _ => {}
                    }
                }
            }
            Value::Object(map) => {
                for (key, child) in map.iter_mut() {
                    let len = pointer.len();
                    pointer.push('/');
                    pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
                    walk(child, pointer, schema);
                    pointer.truncate(len);
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter_mut().enumerate() {
                    let len = pointer.len();
                    pointer.push('/');
                    pointer.push_str(&i.to_string());
                    walk(child, pointer, schema);
                    pointer.truncate(len);
                }
            }
            _ => {}
        }
    }
    walk(value, &mut String::new(), schema);
}

enum Problem {
    Unknown(Vec<String>),
    Missing(String),
    Type,
    /// None of several alternatives, said as the kinds of value allowed.
    Kinds(Vec<String>),
    OneOf(Vec<String>),
    Other(String),
}

/// " in `lists[0]`" for a nested place (the path of the mapping, as jq and
/// yq write it); nothing at the top.
fn describe(pointer: &str) -> String {
    let path = dotted(pointer);
    if path.is_empty() {
        String::new()
    } else {
        format!(" in `{path}`")
    }
}

/// What a message is about: the key at `pointer` (with the path of its
/// mapping when nested), or "the file".
fn subject(pointer: &str) -> String {
    let mut parts: Vec<&str> = pointer.split('/').skip(1).collect();
    let Some(last) = parts.pop() else {
        return "the file".to_string();
    };
    let parent = dotted(&parts.iter().map(|p| format!("/{p}")).collect::<String>());
    let last = unescape(last);
    let key = if last.parse::<usize>().is_ok() {
        format!("item {last}")
    } else {
        format!("`{last}`")
    };
    if parent.is_empty() {
        key
    } else {
        format!("{key} in `{parent}`")
    }
}

/// `/sections/0/formations/1` as `sections[0].formations[1]`.
fn dotted(pointer: &str) -> String {
    let mut out = String::new();
    for part in pointer.split('/').skip(1) {
        let part = unescape(part);
        if part.parse::<usize>().is_ok() {
            out.push_str(&format!("[{part}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&part);
        }
    }
    out
}

fn unescape(part: &str) -> String {
    part.replace("~1", "/").replace("~0", "~")
}

/// A value as quoted in a message, cut short.
fn shown(value: &Value) -> String {
    let text = match value {
        Value::String(s) => format!("\"{s}\""),
        Value::Array(_) => return "a list".to_string(),
        Value::Object(_) => return "a mapping".to_string(),
        Value::Null => return "empty".to_string(),
        other => other.to_string(),
    };
    if text.chars().count() > 40 {
        format!("{}…", text.chars().take(40).collect::<String>())
    } else {
        text
    }
}

/// The kind of value a schema node wants, in words.
fn expected_type(node: &Value) -> String {
    let words = |t: &str| match t {
        "integer" => "a whole number",
        "number" => "a number",
        "string" => "text",
        "boolean" => "true or false",
        "array" => "a list",
        "object" => "a mapping of keys",
        "null" => "empty",
        _ => "another kind of value",
    };
    match node.get("type") {
        Some(Value::String(t)) => words(t).to_string(),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .filter(|t| *t != "null")
            .map(words)
            .collect::<Vec<_>>()
            .join(" or "),
        _ => "another kind of value".to_string(),
    }
}

enum Alternatives {
    /// Every alternative is a fixed value (`oneOf: [{const: netea}, ...]`,
    /// as enums with documented variants are generated).
    Constants(Vec<String>),
    /// Otherwise each alternative in words: "a whole number", "`missing`".
    Kinds(Vec<String>),
}

/// What the `oneOf`/`anyOf` (or `enum`) at `pointer` allows.
fn alternatives(schema: &Value, pointer: &str) -> Option<Alternatives> {
    let node = schema_at(schema, pointer)?;
    let mut constants: Vec<String> = Vec::new();
    let mut kinds: Vec<String> = Vec::new();
    let fixed = |values: &Vec<Value>, constants: &mut Vec<String>, kinds: &mut Vec<String>| {
        for v in values.iter().filter_map(Value::as_str) {
            constants.push(v.to_string());
            kinds.push(format!("`{v}`"));
        }
    };
    if let Some(values) = node.get("enum").and_then(Value::as_array) {
        fixed(values, &mut constants, &mut kinds);
    }
    let mut all_fixed = true;
    for key in ["oneOf", "anyOf"] {
        for alternative in node.get(key).and_then(Value::as_array).into_iter().flatten() {
            let alternative = resolve(schema, alternative, 0).unwrap_or(alternative);
            if let Some(value) = alternative.get("const").and_then(Value::as_str) {
                constants.push(value.to_string());
                kinds.push(format!("`{value}`"));
            } else if let Some(values) = alternative.get("enum").and_then(Value::as_array) {
                fixed(values, &mut constants, &mut kinds);
            } else {
                all_fixed = false;
                kinds.push(expected_type(alternative));
            }
        }
    }
    if kinds.is_empty() {
        None
    } else if all_fixed {
        Some(Alternatives::Constants(constants))
    } else {
        Some(Alternatives::Kinds(kinds))
    }
}

/// The keys a mapping at `pointer` may have, as the schema declares them.
fn known_keys(schema: &Value, pointer: &str) -> Vec<String> {
    schema_at(schema, pointer)
        .and_then(|node| node.get("properties"))
        .and_then(Value::as_object)
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default()
}

/// The schema node describing the value at `pointer`, following `$ref`s,
/// `properties`, `items` and the first alternative of `anyOf`/`oneOf`/`allOf`
/// that leads on. `None` where the schema does not say.
fn schema_at<'a>(root: &'a Value, pointer: &str) -> Option<&'a Value> {
    let mut node = resolve(root, root, 0)?;
    for part in pointer.split('/').skip(1) {
        let key = part.replace("~1", "/").replace("~0", "~");
        node = step(root, node, &key, 0)?;
    }
    Some(node)
}

/// Bound on `$ref` chains and alternatives, against a cyclic schema.
const MAX_HOPS: usize = 16;

fn step<'a>(root: &'a Value, node: &'a Value, key: &str, hops: usize) -> Option<&'a Value> {
    if hops > MAX_HOPS {
        return None;
    }
    let node = resolve(root, node, 0)?;
    if let Some(next) = node.get("properties").and_then(|p| p.get(key)) {
        return resolve(root, next, 0);
    }
    if key.parse::<usize>().is_ok()
        && let Some(items) = node.get("items")
    {
        return resolve(root, items, 0);
    }
    if let Some(extra) = node.get("additionalProperties").filter(|v| v.is_object()) {
        return resolve(root, extra, 0);
    }
    for alternatives in ["anyOf", "oneOf", "allOf"] {
        if let Some(list) = node.get(alternatives).and_then(Value::as_array) {
            for alternative in list {
                if let Some(found) = step(root, alternative, key, hops + 1) {
                    return Some(found);
                }
            }
        }
    }
    None
}

/// Follows `$ref` (local `#/...` references only).
fn resolve<'a>(root: &'a Value, node: &'a Value, hops: usize) -> Option<&'a Value> {
    match node.get("$ref").and_then(Value::as_str) {
        Some(reference) if hops <= MAX_HOPS => {
            let target = root.pointer(reference.strip_prefix('#')?)?;
            resolve(root, target, hops + 1)
        }
        Some(_) => None,
        None => Some(node),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event_errors(text: &str) -> Vec<String> {
        let file = SourceFile::new("event.yaml", text);
        let value: Value = serde_yaml::from_str(text).unwrap_or_default();
        let schema = crate::event::schema();
        let Some(validator) = crate::event::schema_validator() else {
            return vec!["no validator".into()];
        };
        schema_errors(&file, &value, schema, validator, Code::EventFile, "")
            .iter()
            .map(|d| format!("{}: {}", d.line_col().map_or(0, |(l, _)| l), d.message))
            .collect()
    }

    #[test]
    fn a_misspelt_key_is_one_error_with_a_suggestion() {
        let errors = event_errors("name: X\ngame: netea\npionts: 3000\n");
        assert_eq!(errors, vec!["3: unknown key `pionts`"]);
    }

    #[test]
    fn a_missing_key_and_a_wrong_type_are_said_in_words() {
        let errors = event_errors("name: X\ngame: netea\n");
        assert_eq!(errors, vec!["1: missing key `points`"]);
        let errors = event_errors("name: X\ngame: netea\npoints: lots\n");
        assert_eq!(errors, vec!["3: `points` must be a whole number, not \"lots\""]);
    }

    #[test]
    fn nested_unknown_keys_name_their_place() {
        let errors = event_errors("name: X\ngame: netea\npoints: 5\nlists:\n  - id: a\n    verions: []\n");
        assert_eq!(errors, vec!["6: unknown key `verions` in `lists[0]`"]);
    }

    /// The errors of an army-list file whose head is valid, `body` giving
    /// its first formation's keys and then any more of the file.
    fn list_errors(body: &str) -> Vec<String> {
        let text = format!(
            "game: netea\nid: t\nname: T\nversion: \"1\"\nsource: []\nsections:\n  - id: s\n    name: S\n    formations:\n      - id: f\n        name: F\n{body}"
        );
        let file = SourceFile::new("list.yaml", &text);
        let value: Value = serde_yaml::from_str(&text).unwrap_or_default();
        let schema = crate::catalogue::schema::army_list();
        let Some(validator) = crate::catalogue::schema::army_list_validator() else {
            return vec!["no validator".into()];
        };
        schema_errors(&file, &value, schema, validator, Code::ListData, "")
            .iter()
            .map(|d| format!("{}: {}", d.line_col().map_or(0, |(l, _)| l), d.message))
            .collect()
    }

    #[test]
    fn a_valid_list_head_has_no_errors() {
        assert_eq!(list_errors("        points: 5\n"), Vec::<String>::new());
    }

    /// A mapping that may also be empty (`group`, `fills`) holding two or
    /// three numbers out of bounds: each is told at its line, once.
    #[test]
    fn every_bad_number_of_one_mapping_is_told() {
        let errors = list_errors(
            "        points: 99999\n        group:\n          members: [a]\n          provenance: p\n          min: 1000\n          max: 2000\n",
        );
        assert_eq!(
            errors,
            vec![
                "12: `points` in `sections[0].formations[0]` must be at most 10000, not 99999",
                "16: `min` in `sections[0].formations[0].group` must be at most 100, not 1000",
                "17: `max` in `sections[0].formations[0].group` must be at most 100, not 2000",
            ]
        );
        let errors = list_errors(
            "        points: 5\nupgrades:\n  - id: u\n    name: U\n    points: [20000, 5, -30000]\n    fills:\n      unit: rhino\n      capacity: 200\n      carries: [a]\n      provenance: p\n      shared_with:\n        - { unit: a, capacity: 300 }\n        - { unit: b, capacity: 0 }\n",
        );
        assert_eq!(
            errors,
            vec![
                "16: item 0 in `upgrades[0].points` must be at most 10000, not 20000",
                "16: item 2 in `upgrades[0].points` must be at least -10000, not -30000",
                "19: `capacity` in `upgrades[0].fills` must be at most 100, not 200",
                "23: `capacity` in `upgrades[0].fills.shared_with[0]` must be at most 100, not 300",
                "24: `capacity` in `upgrades[0].fills.shared_with[1]` must be at least 1, not 0",
            ]
        );
    }

    /// Beside a number out of bounds in such a mapping, a value of the
    /// wrong kind, an unknown key or a missing one is told too (a wrong
    /// kind once made the whole mapping "must be a mapping of keys or
    /// empty"), and an enum beside a number in any mapping.
    #[test]
    fn other_errors_beside_a_bad_number_are_told_too() {
        let group = |keys: &str| {
            list_errors(&format!(
                "        points: 5\n        group:\n          members: [a]\n          provenance: p\n{keys}"
            ))
        };
        assert_eq!(
            group("          min: lots\n          max: 1000\n"),
            vec![
                "16: `min` in `sections[0].formations[0].group` must be a whole number, not \"lots\"",
                "17: `max` in `sections[0].formations[0].group` must be at most 100, not 1000",
            ]
        );
        assert_eq!(
            group("          maxx: 3\n          min: 1000\n"),
            vec![
                "16: unknown key `maxx` in `sections[0].formations[0].group`",
                "17: `min` in `sections[0].formations[0].group` must be at most 100, not 1000",
            ]
        );
        let errors = list_errors("        points: 5\n        titans: { count: 50 }\n");
        assert_eq!(
            errors,
            vec![
                "13: missing key `each` in `sections[0].formations[0].titans`",
                "13: `count` in `sections[0].formations[0].titans` must be at most 10, not 50",
            ]
        );
        let errors = list_errors(
            "        points: 5\nconstraints:\n  - { id: c, scope: armee, severity: fatal, rule: x, message: m, provenance: p }\nupgrades:\n  - { id: u, name: U, points: 10001, adds: [{ unit: a, count: 0 }] }\n",
        );
        assert_eq!(
            errors,
            vec![
                "14: `scope` in `constraints[0]` must be one of: army, formation, group",
                "14: `severity` in `constraints[0]` must be one of: error, warning",
                "16: `points` in `upgrades[0]` must be at most 10000, not 10001",
                "16: `count` in `upgrades[0].adds[0]` must be at least 1, not 0",
            ]
        );
    }

    #[test]
    fn yaml_1_1_booleans_are_read_where_a_boolean_is_wanted() {
        let mut value: Value = serde_yaml::from_str("name: yes\ncounts_as: no\n").unwrap_or_default();
        read_booleans(&mut value, crate::event::schema());
        assert_eq!(value["counts_as"], Value::Bool(false));
        assert_eq!(value["name"], Value::String("yes".into()));
    }

    #[test]
    fn schema_nodes_are_found_through_refs() {
        let schema = crate::event::schema();
        let keys = known_keys(schema, "/lists/0");
        assert!(keys.contains(&"versions".to_string()), "{keys:?}");
    }
}
