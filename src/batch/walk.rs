//! Paths from the command line to inputs: files as given, folders walked
//! recursively with each folder's entries in name order, so a run lists its
//! results in the same order on every machine.
//!
//! Nothing here reads a file's content; problems found while walking (a
//! folder that cannot be listed, a link to a folder, a device) become inputs
//! that carry the problem, so they are reported like any unreadable file.

use super::inputs::{Inputs, Origin, Other};
use std::path::{Path, PathBuf};

/// A path as shown: UTF-8 as it is, any other byte as `\xNN`, so two
/// different file names never show as one (a lossy conversion gave both
/// `\xff.txt` and `\xfe.txt` the name `�.txt`).
pub fn display_name(path: &Path) -> String {
    let bytes = path.as_os_str().as_encoded_bytes();
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// Files a run writes, never rosters: a report written inside the folder
/// it checks is left out of the next run instead of failing it.
const OUTPUT_EXTENSIONS: &[&str] = &["html", "htm", "csv", "json", "pdf"];

/// The identity of an existing file (device and inode), to tell two names
/// of one file.
fn identity(path: &Path) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// Expands command-line paths: `-` is standard input, a folder gives every
/// file under it (hidden files and folders, whose names start with `.`,
/// are left out: they are editor and system files, not submissions), any
/// other path is taken as a file. Paths given keep their order.
pub fn collect(paths: &[PathBuf]) -> Inputs {
    let mut inputs = Inputs::default();
    // The files named, to check one named twice once, not report it as a
    // duplicate of itself.
    let mut named = std::collections::HashSet::new();
    for path in paths {
        if path.as_os_str() == "-" {
            let stdin = Other {
                origin: Some(Origin::Stdin),
                path: Some(path.as_path().into()),
                ..Other::default()
            };
            inputs.push("<stdin>", stdin);
            continue;
        }
        // A Snapfire share link or a muster one is a roster in itself (a
        // file of that name wins).
        if let Some(link) = path
            .to_str()
            .filter(|p| (crate::import::snapfire::is_link(p) || crate::share::is_link(p)) && !path.exists())
        {
            let name = if crate::share::is_link(link) {
                "<share link>"
            } else {
                "<snapfire link>"
            };
            let link = Other {
                origin: Some(Origin::Named),
                path: Some(path.as_path().into()),
                text: Some(link.trim().to_string()),
                ..Other::default()
            };
            inputs.push(name, link);
            continue;
        }
        // A path that does not exist stays an input: reading it reports why.
        if !std::fs::metadata(path).is_ok_and(|m| m.is_dir()) {
            if identity(path).is_none_or(|id| named.insert(id)) {
                push_path(&mut inputs, path, Origin::Named);
            }
            continue;
        }
        let before = inputs.len();
        if let Err(e) = walk(path, &mut inputs) {
            push_path(&mut inputs, path, Origin::Named);
            inputs.set_problem(format!(
                "cannot read the folder {}: {}",
                path.display(),
                crate::source::io_error(&e)
            ));
        } else if inputs.len() == before {
            push_path(&mut inputs, path, Origin::Named);
            inputs.set_problem(format!("the folder {} holds no files to check", path.display()));
        }
    }
    // Kept until the reports are written: no room to spare.
    inputs.shrink_to_fit();
    inputs
}

/// The name of the file at `path`: the path itself when it is UTF-8.
fn name_of(path: &Path) -> std::borrow::Cow<'_, str> {
    match path.to_str() {
        Some(name) => name.into(),
        None => display_name(path).into(),
    }
}

/// Adds the file at `path`, named by [`name_of`].
fn push_path(inputs: &mut Inputs, path: &Path, origin: Origin) {
    let other = Other {
        origin: Some(origin),
        // Read by its path when the name is not the path.
        path: path.to_str().is_none().then(|| path.into()),
        ..Other::default()
    };
    inputs.push(&name_of(path), other);
}

/// Adds the files under `dir`, depth first, each folder's entries sorted by
/// name. Fails only when `dir` itself cannot be listed; a subfolder that
/// cannot be listed becomes an input carrying the problem.
fn walk(dir: &Path, inputs: &mut Inputs) -> std::io::Result<()> {
    // Each entry's path, made once (the entry joins it to `dir`).
    let mut entries: Vec<(PathBuf, std::fs::FileType)> = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        if file_name(&path).starts_with(b".") {
            continue;
        }
        entries.push((path, entry.file_type()?));
    }
    // Every entry has the same parent: ordering their paths is ordering
    // their names, byte by byte; and names in a folder are unique, so an
    // unstable sort gives the one order.
    entries.sort_unstable_by(|a, b| {
        a.0.as_os_str()
            .as_encoded_bytes()
            .cmp(b.0.as_os_str().as_encoded_bytes())
    });
    for (path, kind) in entries {
        if kind.is_dir() {
            if let Err(e) = walk(&path, inputs) {
                push_path(inputs, &path, Origin::Walked);
                inputs.set_problem(format!(
                    "cannot read the folder {}: {}",
                    path.display(),
                    crate::source::io_error(&e)
                ));
            }
            continue;
        }
        if is_output(file_name(&path)) {
            continue;
        }
        push_path(inputs, &path, Origin::Walked);
        // Links found in a folder are not followed at all: one to a folder
        // could loop, and one to a file could put a file from outside the
        // folder (`/etc/passwd`) into a report. Name a file to check it.
        if kind.is_symlink() {
            inputs.set_problem(format!(
                "{} is a symbolic link; links inside a folder are not followed (name the file itself to check it)",
                name_of(&path)
            ));
        } else if !kind.is_file() {
            // Not a link, so the entry's own type is the file's (no `stat`
            // per file); a file that went away is reported when it is
            // read. Opening a pipe or a device could block or never end.
            inputs.set_problem(format!("{} is not a regular file", name_of(&path)));
        }
    }
    Ok(())
}

/// The last part of a path a folder's entry gave (its name in the folder),
/// as bytes: what follows the last `/`.
fn file_name(path: &Path) -> &[u8] {
    let bytes = path.as_os_str().as_encoded_bytes();
    bytes
        .iter()
        .rposition(|&b| std::path::is_separator(char::from(b)))
        .map_or(bytes, |at| &bytes[at + 1..])
}

/// Whether a file's name has the extension of a file a run writes
/// ([`OUTPUT_EXTENSIONS`], any case), as `Path::extension` reads an
/// extension: after the last `.`, unless that dot starts the name.
fn is_output(name: &[u8]) -> bool {
    let Some(dot) = name.iter().rposition(|&b| b == b'.') else {
        return false;
    };
    dot > 0
        && OUTPUT_EXTENSIONS
            .iter()
            .any(|o| o.as_bytes().eq_ignore_ascii_case(&name[dot + 1..]))
}

#[cfg(test)]
mod tests {
    use super::{file_name, is_output};
    use std::path::Path;

    /// `is_output` reads a name's extension as `Path::extension` does.
    #[test]
    fn output_files_are_told_by_their_extension_as_paths_read_it() {
        for name in [
            "r.html",
            "r.HTM",
            "a.b.csv",
            "x.Json",
            "y.pdf",
            "z.txt",
            "html",
            ".html",
            "..",
            "x.",
            "x.html.txt",
            "report.html.",
            "a..csv",
            "noext",
        ] {
            let path = Path::new("/tmp/d").join(name);
            let by_path = path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| super::OUTPUT_EXTENSIONS.iter().any(|o| o.eq_ignore_ascii_case(e)));
            assert_eq!(is_output(file_name(&path)), by_path, "{name}");
        }
        assert_eq!(file_name(Path::new("/tmp/d/a.txt")), b"a.txt");
        assert_eq!(file_name(Path::new("a.txt")), b"a.txt");
    }
}
