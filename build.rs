//! Embeds every file under `lists/` in the binary, so muster needs no data
//! files at run time. Adding a list is adding a file: no code changes.
//! Also packs the published schemas of the files a user writes (`schema/`),
//! which a run validates those files against.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

// The run's own name normalization, so the manifest's names need none.
#[path = "src/catalogue/normalize.rs"]
mod normalize;

// The packed form the run reads the built-in files from.
#[path = "src/catalogue/packed/encode.rs"]
mod encode;

fn main() {
    // Read at run time: `env!` would bake in the folder the build script was
    // compiled in, and a copied `target/` would then embed another tree's lists.
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let root = Path::new(&manifest_dir).join("lists");
    println!("cargo:rerun-if-changed=lists");
    println!("cargo:rerun-if-changed=src/catalogue/normalize.rs");
    println!("cargo:rerun-if-changed=src/catalogue/packed/encode.rs");
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    // Each file is embedded twice: the YAML, for error positions and
    // `--lists`-style reporting, and its data read once here and packed
    // (`catalogue::packed`), which a run reads without parsing any text.
    // A file that is not valid YAML is not packed; the run-time load then
    // reports the error.
    let dest = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into()));
    let mut out = String::from("pub static EMBEDDED: &[(&str, &str, Packed)] = &[\n");
    let mut manifest = String::from("pub static MANIFEST: &[FileFacts] = &[\n");
    // The manifest's strings, one after the other (see `packed::Texts`).
    let mut text = String::new();
    let mut all_facts = Vec::with_capacity(files.len());
    for (i, file) in files.iter().enumerate() {
        let relative = file.strip_prefix(&root).unwrap_or(file);
        let name = relative.to_string_lossy().replace('\\', "/");
        let value = std::fs::read_to_string(file)
            .ok()
            .and_then(|text| serde_yaml::from_str::<serde_json::Value>(&text).ok());
        all_facts.push(facts(value.as_ref(), &mut text));
        let _ = writeln!(
            out,
            "    ({name:?}, include_str!({:?}), {}),",
            file.display().to_string(),
            packed(&dest, &format!("list-{i}"), value.as_ref())
        );
    }
    out.push_str("];\n");
    for (i, facts) in all_facts.iter().enumerate() {
        // The datasheet files a list needs: those of its game defining a
        // unit it uses (both lists of ids sorted), found here once rather
        // than on every run.
        let sheets: Vec<usize> = if facts.kind == "List" {
            (all_facts.iter().enumerate())
                .filter(|(j, f)| {
                    *j != i
                        && f.kind == "Datasheets"
                        && f.game == facts.game
                        && sorted_overlap(&f.units, &facts.units)
                })
                .map(|(j, _)| j)
                .collect()
        } else {
            Vec::new()
        };
        let _ = writeln!(
            manifest,
            "    FileFacts {{ {}, sheets: &{sheets:?} }},",
            facts.fields
        );
    }
    manifest.push_str("];\n");
    out.push_str(&manifest);
    let text_path = dest.join("manifest.text");
    if let Err(e) = std::fs::write(&text_path, &text) {
        println!("cargo:warning=cannot write {}: {e}", text_path.display());
    }
    let _ = writeln!(
        out,
        "const MANIFEST_TEXT: &str = include_str!({:?});",
        text_path.display().to_string()
    );
    if let Err(e) = std::fs::write(dest.join("embedded_lists.rs"), out) {
        println!("cargo:warning=cannot write embedded_lists.rs: {e}");
    }
    pack_schemas(Path::new(&manifest_dir), &dest);
}

/// The published schemas (every `schema/*.schema.json`; a run validates
/// user files against those of the list and event files), packed as the
/// lists are (`catalogue::schema::published`): generating them from their
/// types cost every `--lists` check about 0.9 M instructions. A schema this
/// cannot read is packed empty, and the run then generates it.
/// A test proves each published file is what its type generates.
fn pack_schemas(root: &Path, dest: &Path) {
    let folder = root.join("schema");
    println!("cargo:rerun-if-changed={}", folder.display());
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".schema.json").map(str::to_string)
        })
        .collect();
    names.sort();
    let mut out = String::from("pub(crate) static SCHEMAS: &[(&str, Packed)] = &[\n");
    for name in &names {
        let file = folder.join(format!("{name}.schema.json"));
        println!("cargo:rerun-if-changed={}", file.display());
        let value = std::fs::read_to_string(&file)
            .ok()
            .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok());
        let _ = writeln!(
            out,
            "    ({name:?}, {}),",
            packed(dest, &format!("schema-{name}"), value.as_ref())
        );
    }
    out.push_str("];\n");
    if let Err(e) = std::fs::write(dest.join("embedded_schemas.rs"), out) {
        println!("cargo:warning=cannot write embedded_schemas.rs: {e}");
    }
}

/// Packs `value` (nothing when the build could not read it) into
/// `{stem}.tree` and `{stem}.strings` in `dest`, and returns the
/// `Packed { .. }` expression that embeds them.
fn packed(dest: &Path, stem: &str, value: Option<&serde_json::Value>) -> String {
    let (tree, strings) = value.map(encode::encode).unwrap_or_default();
    let tree_path = dest.join(format!("{stem}.tree"));
    let strings_path = dest.join(format!("{stem}.strings"));
    for (path, bytes) in [(&tree_path, tree.as_slice()), (&strings_path, strings.as_bytes())] {
        if let Err(e) = std::fs::write(path, bytes) {
            println!("cargo:warning=cannot write {}: {e}", path.display());
        }
    }
    format!(
        "Packed {{ tree: include_bytes!({:?}), strings: include_str!({:?}) }}",
        tree_path.display().to_string(),
        strings_path.display().to_string()
    )
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        println!("cargo:rerun-if-changed={}", path.display());
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            out.push(path);
        }
    }
}

/// What a run needs to know of a file to decide whether to load it: its
/// kind and game, a list's names, the unit ids a list uses or a datasheet
/// file defines. A check then parses only the list its roster names and
/// the files that list needs (see `catalogue::load`).
/// A file's facts: its kind, game and unit ids, and the fields of its
/// `FileFacts` but for `sheets`.
struct Facts {
    kind: &'static str,
    game: String,
    units: Vec<String>,
    fields: String,
}

/// Whether two sorted lists share an item (as `catalogue::load` asks).
fn sorted_overlap(a: &[String], b: &[String]) -> bool {
    let (mut i, mut j) = (0, 0);
    while let (Some(x), Some(y)) = (a.get(i), b.get(j)) {
        match x.cmp(y) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => return true,
        }
    }
    false
}

fn facts(value: Option<&serde_json::Value>, text: &mut String) -> Facts {
    const NONE: &str = "Texts { text: MANIFEST_TEXT, from: 0, ends: &[] }";
    let unknown = Facts {
        kind: "",
        game: String::new(),
        units: Vec::new(),
        fields: format!(
            "known: false, kind: FileKind::List, game: \"\", keys: {NONE}, snapfire_file: {NONE}, battlescribe: {NONE}, #[cfg(test)] units: {NONE}, names: {NONE}"
        ),
    };
    let Some(value) = value else {
        return unknown;
    };
    let kind = if value.get("sections").is_some() {
        "List"
    } else if value.get("units").is_some()
        || value.get("ships").is_some()
        || value.get("sf_ships").is_some()
        || value.get("heresy_units").is_some()
        || value.get("ne_units").is_some()
    {
        "Datasheets"
    } else if value.get("models").is_some() {
        "Models"
    } else if value.get("terms").is_some() {
        "Glossary"
    } else if value.get("scenarios").is_some() {
        "Scenarios"
    } else {
        return unknown;
    };
    let game = value.get("game").and_then(|g| g.as_str()).unwrap_or("");
    let mut names = Vec::new();
    let mut units = Vec::new();
    let mut entries = Vec::new();
    let mut snapfire_file = Vec::new();
    let mut battlescribe = Vec::new();
    if kind == "List" {
        for key in ["id", "name"] {
            if let Some(n) = value.get(key).and_then(|n| n.as_str()) {
                names.push(n.to_string());
            }
        }
        if let Some(aliases) = value.get("aliases").and_then(|a| a.as_array()) {
            names.extend(aliases.iter().filter_map(|a| a.as_str()).map(str::to_string));
        }
        if let Some(s) = value.pointer("/imports/snapfire").and_then(|s| s.as_str()) {
            names.push(s.to_string());
        }
        if let Some(s) = value.pointer("/imports/snapfire_file").and_then(|s| s.as_str()) {
            snapfire_file.push(s.to_string());
        }
        // Each BattleScribe catalogue as its name normalized, then its id
        // (empty when none is recorded).
        for catalogue in (value.pointer("/imports/battlescribe").and_then(|b| b.as_array()))
            .into_iter()
            .flatten()
        {
            let name = catalogue.get("name").and_then(|n| n.as_str()).unwrap_or("");
            let id = catalogue.get("id").and_then(|n| n.as_str()).unwrap_or("");
            battlescribe.push(normalize::normalize(name));
            battlescribe.push(id.to_string());
        }
        used_units(value, &mut units);
        entry_names(value, &mut entries);
    } else if kind == "Datasheets" {
        for key in ["units", "ships", "sf_ships", "heresy_units", "ne_units"] {
            for unit in value.get(key).and_then(|u| u.as_array()).into_iter().flatten() {
                if let Some(id) = unit.get("id").and_then(|i| i.as_str()) {
                    units.push(id.to_string());
                }
            }
        }
    }
    units.sort();
    units.dedup();
    // Each name's normalized and compact forms, one after the other.
    let forms = |names: &[String]| -> Vec<String> {
        names
            .iter()
            .flat_map(|n| {
                let normalized = normalize::normalize(n);
                let compact = normalize::compact(&normalized);
                [normalized, compact]
            })
            .collect()
    };
    let keys = texts(&forms(&names), text);
    let snapfire_file = texts(&snapfire_file, text);
    let battlescribe = texts(&battlescribe, text);
    let unit_texts = texts(&units, text);
    let names = texts(&forms(&entries), text);
    Facts {
        kind,
        game: game.to_string(),
        units,
        fields: format!(
            "known: true, kind: FileKind::{kind}, game: {game:?}, keys: {keys}, snapfire_file: {snapfire_file}, battlescribe: {battlescribe}, #[cfg(test)] units: {unit_texts}, names: {names}"
        ),
    }
}

/// `strings` added to the manifest's text, as the `Texts` that finds them
/// there.
fn texts(strings: &[String], text: &mut String) -> String {
    let from = text.len();
    let mut ends = Vec::with_capacity(strings.len());
    for s in strings {
        text.push_str(s);
        ends.push(text.len());
    }
    format!("Texts {{ text: MANIFEST_TEXT, from: {from}, ends: &{ends:?} }}")
}

/// The names and aliases of a list's upgrades, then of its formations
/// section by section, in the order the linker indexes them
/// (`catalogue::link`); none if any is not text (the run then
/// normalizes them itself).
fn entry_names(value: &serde_json::Value, out: &mut Vec<String>) {
    let upgrades = value.get("upgrades").and_then(|u| u.as_array());
    let formations = (value
        .get("sections")
        .and_then(|s| s.as_array())
        .into_iter()
        .flatten())
    .flat_map(|s| {
        s.get("formations")
            .and_then(|f| f.as_array())
            .into_iter()
            .flatten()
    });
    for entry in upgrades.into_iter().flatten().chain(formations) {
        let Some(name) = entry.get("name").and_then(|n| n.as_str()) else {
            out.clear();
            return;
        };
        out.push(name.to_string());
        for alias in entry
            .get("aliases")
            .and_then(|a| a.as_array())
            .into_iter()
            .flatten()
        {
            let Some(alias) = alias.as_str() else {
                out.clear();
                return;
            };
            out.push(alias.to_string());
        }
    }
}

/// Every datasheet id a list file names: `unit:` anywhere, and `carries:`.
fn used_units(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, v) in map {
                match (key.as_str(), v) {
                    ("unit", serde_json::Value::String(s)) => out.push(s.clone()),
                    ("carries", serde_json::Value::Array(items)) => {
                        out.extend(items.iter().filter_map(|i| i.as_str()).map(str::to_string))
                    }
                    _ => used_units(v, out),
                }
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|i| used_units(i, out)),
        _ => {}
    }
}
