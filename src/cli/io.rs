//! What several commands share: reading a roster or an event file,
//! finding the army list a command names, the full findings of a check, a
//! usage error, and writing an output file atomically. The commands
//! (`commands`, `batch`, `print`, `serve`) import this; it imports none of
//! them.

use super::{Output, status};
use crate::catalogue::{ArmyList, Catalogue, ListLookup};
use crate::check::Checked;
use crate::diagnostic::Diagnostic;
use crate::event::Event;
use crate::report::terminal;
use crate::source::ReadError;
use std::fmt::Write as _;
use std::io::{Read, Write as _};
use std::path::{Path, PathBuf};

/// A roster's bytes: a file's, or standard input's for `-`, at most
/// `roster::MAX_ROSTER_BYTES` of them (a larger file reads as one byte
/// too many, which `decode` reports).
pub fn read_input(path: &Path) -> Result<Vec<u8>, String> {
    if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        // Read one byte past the limit, so an oversized input is reported
        // as such without reading all of it.
        let limit = crate::roster::MAX_ROSTER_BYTES as u64 + 1;
        std::io::stdin()
            .lock()
            .take(limit)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read standard input: {}", crate::source::io_error(&e)))?;
        if bytes.len() > crate::roster::MAX_ROSTER_BYTES {
            return Err(format!(
                "standard input is more than {0}; a roster may be at most {0}",
                crate::source::size_text(crate::roster::MAX_ROSTER_BYTES as u64)
            ));
        }
        return Ok(bytes);
    }
    let meta = std::fs::metadata(path)
        .map_err(|e| format!("cannot read {}: {}", path.display(), crate::source::io_error(&e)))?;
    if meta.is_dir() {
        return Err(format!("{} is a folder, not a roster file", path.display()));
    }
    match crate::source::read_regular(path, crate::roster::MAX_ROSTER_BYTES) {
        Ok(bytes) => Ok(bytes),
        // `decode` reports the size.
        Err(ReadError::TooLarge(_)) => Ok(vec![b' '; crate::roster::MAX_ROSTER_BYTES + 1]),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

/// The largest event file read: real ones are a few kilobytes.
pub const MAX_EVENT_BYTES: usize = 1 << 20;

/// An event file as a source, within [`MAX_EVENT_BYTES`], or why it cannot
/// be read.
pub fn event_source(path: &Path) -> Result<crate::source::SourceFile, String> {
    let text = crate::source::read_regular(path, MAX_EVENT_BYTES)
        .map_err(|e| format!("cannot read the event file {}: {e}", path.display()))
        .and_then(|bytes| {
            String::from_utf8(bytes)
                .map_err(|_| format!("the event file {} is not UTF-8 text", path.display()))
        })?;
    Ok(crate::source::SourceFile::new(path.display().to_string(), text))
}

pub fn load_event(path: &Path, catalogue: &Catalogue, color: bool) -> Result<Event, Output> {
    let source = event_source(path).map_err(usage)?;
    crate::event::load(source, catalogue).map_err(|diagnostics| Output {
        stderr: format!(
            "{}error: the event file cannot be used\n",
            terminal::diagnostics(&diagnostics, color)
        ),
        status: status::UNUSABLE,
        ..Output::default()
    })
}

/// The findings of each roster in full, for a check of one file.
pub fn detailed(results: &[Checked<'_>], color: bool, verbose: bool) -> String {
    let mut out = String::new();
    for c in results {
        let mut shown = with_file_name(c);
        if !verbose {
            shown = shown.iter().map(Diagnostic::for_players).collect();
        }
        out.push_str(&terminal::diagnostics(&shown, color));
        let _ = writeln!(out, "{}", terminal::verdict(c));
        out.push_str(&terminal::formations(c));
    }
    out
}

/// Diagnostics without a place in the roster still name the file.
fn with_file_name(c: &Checked<'_>) -> Vec<Diagnostic> {
    c.diagnostics
        .iter()
        .map(|d| {
            if d.primary.is_none() && c.file.is_none() {
                let mut d = d.clone();
                d.message = format!("{}: {}", c.name, d.message);
                d
            } else {
                d.clone()
            }
        })
        .collect()
}

pub fn find<'c>(catalogue: &'c Catalogue, army: &str) -> Result<&'c ArmyList, Output> {
    match catalogue.find_list(army) {
        ListLookup::Found(list) => Ok(list),
        ListLookup::Ambiguous(lists) => {
            let ids: Vec<&str> = lists.iter().map(|l| l.id.as_str()).collect();
            Err(usage(format!(
                "`{army}` names more than one list: {}; use its id",
                ids.join(", ")
            )))
        }
        ListLookup::NotFound(_) if catalogue.lists_with_words(army, None).len() > 1 => {
            let fits = catalogue.lists_with_words(army, None);
            Err(usage(format!(
                "`{army}` matches {} lists: {}\nhint: name one by its name or id",
                fits.len(),
                crate::check::list_names(&fits)
            )))
        }
        ListLookup::NotFound(suggestion) => Err(usage(format!(
            "muster knows no army list called `{army}`{}\nhint: `muster lists` shows every list",
            suggestion
                .map(|s| format!("; did you mean `{s}`?"))
                .unwrap_or_default()
        ))),
    }
}

pub fn usage(message: String) -> Output {
    Output {
        // The message may echo an argument or a path: escaped as the
        // terminal's diagnostics are.
        stderr: format!("error: {}\n", crate::report::terminal::escape_lines(&message)),
        status: status::UNUSABLE,
        ..Output::default()
    }
}

/// Whether a file can be written at `path`, asked before any work is done
/// so that a check of a thousand rosters does not end in `cannot write`:
/// its folder exists and a file can be made in it (a temporary one,
/// removed at once). Standard output (`-`) and a device or named pipe
/// pass; `inputs` are refused as [`write_atomically_with`] refuses them.
/// The error is the message to show.
pub fn can_write(path: &Path, inputs: impl IntoIterator<Item = impl AsRef<Path>>) -> Result<(), String> {
    if path.as_os_str() == "-" {
        return Ok(());
    }
    // Not escaped here: the callers' `error:` lines escape what they show.
    let cannot = |why: String| Err(format!("cannot write {}: {why}", path.display()));
    if is_one_of(path, inputs) {
        return cannot("it is one of the files being read".into());
    }
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => return cannot("it is a folder".into()),
        Ok(meta) if !meta.is_file() => return Ok(()),
        _ => {}
    }
    let dir = folder_of(path);
    if !dir.is_dir() {
        return cannot(format!("the folder {} does not exist", dir.display()));
    }
    match super::interrupt::temp_file_in(dir) {
        Ok(_removed_when_dropped) => Ok(()),
        Err(e) => cannot(crate::source::io_error(&e)),
    }
}

/// The folder a file is written in: `.` for a bare name.
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Writes `bytes` atomically: see [`write_atomically_with`].
pub fn write_atomically(path: &Path, bytes: &[u8], inputs: &[&Path]) -> std::io::Result<()> {
    write_atomically_with(path, inputs, |w| w.write_all(bytes))
}

/// Writes what `write` writes to a temporary file beside `path`, then renames it over
/// `path`: a run that is interrupted or fails leaves the old file or none,
/// never half of one, and a symbolic link at `path` is replaced, not
/// followed. A `path` that is one of `inputs` (the same file, by any name)
/// is refused: `roster x.txt --html x.txt` once overwrote the roster. A
/// device or a named pipe at `path` is written in place (see `open_stream`).
pub fn write_atomically_with(
    path: &Path,
    inputs: impl IntoIterator<Item = impl AsRef<Path>>,
    write: impl FnOnce(&mut std::io::BufWriter<&mut std::fs::File>) -> std::io::Result<()>,
) -> std::io::Result<()> {
    // The list files a `--lists` folder gave are inputs as well.
    let lists = crate::catalogue::list_files_read();
    let lists: Vec<&Path> = lists.iter().map(PathBuf::as_path).collect();
    if is_one_of(path, inputs) || is_one_of(path, &lists) {
        return Err(std::io::Error::other("it is one of the files being read"));
    }
    if let Some(mut device) = open_stream(path)? {
        let mut out = std::io::BufWriter::with_capacity(crate::batch::IO_BUFFER, &mut device);
        write(&mut out)?;
        return out.flush();
    }
    let dir = folder_of(path);
    if !dir.is_dir() {
        return Err(std::io::Error::other(format!(
            "the folder {} does not exist",
            dir.display()
        )));
    }
    // Registered, so an interruption before the rename removes it.
    let (mut temp, _registered) = super::interrupt::temp_file_in(dir)?;
    {
        let mut out = std::io::BufWriter::with_capacity(crate::batch::IO_BUFFER, temp.as_file_mut());
        write(&mut out)?;
        out.flush()?;
    }
    temp.as_file().sync_all()?;
    pause_for_tests();
    // Temporary files are private to their owner; a report is for sharing.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        temp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))?;
    }
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// A destination that is a stream rather than a file (`/dev/null`,
/// `/dev/stdout`, a named pipe), opened to be written in place: renaming a
/// file over it would replace the device, which a run as root can do
/// (`--report /dev/null` once left a plain file there, and every later
/// program that read "nothing" from it read an old report). A block device
/// is refused: a PDF written over a disk is never what was meant.
fn open_stream(path: &Path) -> std::io::Result<Option<std::fs::File>> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let Ok(meta) = std::fs::metadata(path) else {
            return Ok(None);
        };
        let kind = meta.file_type();
        if kind.is_block_device() {
            return Err(std::io::Error::other("it is a block device, not a file"));
        }
        if kind.is_char_device() || kind.is_fifo() {
            return std::fs::OpenOptions::new().write(true).open(path).map(Some);
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(None)
}

/// `MUSTER_TEST_PAUSE_BEFORE_RENAME_MS`: a pause between writing the
/// temporary file and renaming it, so that `tests/it/hostile.rs` can
/// interrupt a run at that point. Not for users; capped at ten seconds.
fn pause_for_tests() {
    if let Some(ms) = std::env::var("MUSTER_TEST_PAUSE_BEFORE_RENAME_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        std::thread::sleep(std::time::Duration::from_millis(ms.min(10_000)));
    }
}

/// Whether `path` names an existing file that is one of `inputs` (followed
/// through links, by any name). `path` is looked up once: a report that
/// does not exist yet, the usual case, costs no look-up per input (those
/// were 5% of a 10,000-file check with a report).
fn is_one_of(path: &Path, inputs: impl IntoIterator<Item = impl AsRef<Path>>) -> bool {
    let Ok(target) = std::fs::metadata(path) else {
        return false;
    };
    inputs
        .into_iter()
        .filter(|input| input.as_ref().as_os_str() != "-")
        .any(|input| match std::fs::metadata(input.as_ref()) {
            #[cfg(unix)]
            Ok(input) => {
                use std::os::unix::fs::MetadataExt;
                input.dev() == target.dev() && input.ino() == target.ino()
            }
            #[cfg(not(unix))]
            Ok(_) => std::fs::canonicalize(path).ok() == std::fs::canonicalize(input.as_ref()).ok(),
            Err(_) => false,
        })
}
