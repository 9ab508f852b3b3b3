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
    let mut out = String::from("pub static EMBEDDED: &[(&str, &str)] = &[\n");
    for file in &files {
        let relative = file.strip_prefix(&root).unwrap_or(file);
        let name = relative.to_string_lossy().replace('\\', "/");
        let _ = writeln!(
            out,
            "    ({name:?}, include_str!({:?})),",
            file.display().to_string()
        );
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into()));
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
