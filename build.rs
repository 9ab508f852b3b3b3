//! Embeds every file under `lists/` in the binary, so muster needs no data
//! files at run time. Adding a list is adding a file: no code changes.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    // Read at run time: `env!` would bake in the folder the build script was
    // compiled in, and a copied `target/` would then embed another tree's lists.
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let root = Path::new(&manifest_dir).join("lists");
    println!("cargo:rerun-if-changed=lists");
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    // Each file is embedded twice: the YAML, for error positions and
    // `--lists`-style reporting, and the same data as JSON, which parses
    // an order of magnitude faster at every start. A file that is not
    // valid YAML gets no JSON; the run-time load then reports the error.
    let dest = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into()));
    let mut out = String::from("pub static EMBEDDED: &[(&str, &str, &str)] = &[\n");
    for (i, file) in files.iter().enumerate() {
        let relative = file.strip_prefix(&root).unwrap_or(file);
        let name = relative.to_string_lossy().replace('\\', "/");
        let json = std::fs::read_to_string(file)
            .ok()
            .and_then(|text| serde_yaml::from_str::<serde_json::Value>(&text).ok())
            .map(|value| value.to_string())
            .unwrap_or_default();
        let json_path = dest.join(format!("list-{i}.json"));
        if let Err(e) = std::fs::write(&json_path, json) {
            println!("cargo:warning=cannot write {}: {e}", json_path.display());
        }
        let _ = writeln!(
            out,
            "    ({name:?}, include_str!({:?}), include_str!({:?})),",
            file.display().to_string(),
            json_path.display().to_string()
        );
    }
    out.push_str("];\n");
    if let Err(e) = std::fs::write(dest.join("embedded_lists.rs"), out) {
        println!("cargo:warning=cannot write embedded_lists.rs: {e}");
    }
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
