//! Consistency of the built-in data beyond what loading checks.

use std::collections::BTreeMap;
use std::path::Path;

/// A datasheet id defined in two built-in files would silently take the
/// later one (overriding is for `--lists` files): every id is defined once
/// per game.
#[test]
fn no_datasheet_id_is_defined_twice_in_the_built_in_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("lists");
    let mut seen: BTreeMap<(String, String), String> = BTreeMap::new();
    let mut twice = Vec::new();
    for game in std::fs::read_dir(&root).unwrap().flatten() {
        let dir = game.path().join("datasheets");
        let Ok(files) = std::fs::read_dir(&dir) else {
            continue;
        };
        for file in files.flatten() {
            let text = std::fs::read_to_string(file.path()).unwrap();
            let value: serde_json::Value = serde_yaml::from_str(&text).unwrap();
            for key in ["units", "ships"] {
                for unit in value.get(key).and_then(|u| u.as_array()).into_iter().flatten() {
                    let id = unit["id"].as_str().unwrap_or_default().to_string();
                    let here = file.path().display().to_string();
                    let key = (game.file_name().to_string_lossy().to_string(), id);
                    if let Some(before) = seen.insert(key.clone(), here.clone()) {
                        twice.push(format!("{}/{}: {before} and {here}", key.0, key.1));
                    }
                }
            }
        }
    }
    assert!(
        twice.is_empty(),
        "datasheet ids defined twice:\n{}",
        twice.join("\n")
    );
}

/// A roster names its list by id, name or alias; two lists answering to
/// the same name (in any game) would make that roster ambiguous.
#[test]
fn no_two_lists_answer_to_the_same_name() {
    let report = muster::catalogue::load_embedded();
    let lists = &report.catalogue.lists;
    let mut clashes = Vec::new();
    for (i, a) in lists.iter().enumerate() {
        for b in &lists[i + 1..] {
            for name in a.all_names() {
                if b.all_names()
                    .any(|n| muster::catalogue::ListName::new(name).matches(n))
                {
                    clashes.push(format!("`{name}`: {} and {}", a.id, b.id));
                }
            }
        }
    }
    assert!(
        clashes.is_empty(),
        "names shared by two lists:\n{}",
        clashes.join("\n")
    );
}
