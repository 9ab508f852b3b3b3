//! Temporary output files removed when a run is interrupted.
//!
//! An output (`--pdf`, `--html`, `--report`) is written to a temporary file
//! beside its destination and renamed over it (`io::write_atomically`).
//! A run stopped in between (Ctrl-C, `kill`, a closed terminal) would leave
//! that `.muster-*.tmp` file behind. Every temporary file is registered here
//! while it exists; the first time one is made, a thread starts that waits
//! for SIGINT, SIGTERM or SIGHUP, removes every registered file, and then
//! ends the process as the signal would have (so the shell still sees
//! "interrupted"). SIGXFSZ (a file size limit reached) is caught too, so
//! the write fails as an error instead of killing the run. A run that
//! writes no file installs nothing.
//!
//! The registry's lock is held while a temporary file is created and
//! registered, and by the thread while it removes them, so a file cannot be
//! created unseen between the two. Elsewhere than Unix nothing is installed:
//! a temporary file may be left there.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// A registered temporary file; dropping it takes it off the register
/// (after it was renamed into place or removed).
pub struct Registered(PathBuf);

impl Drop for Registered {
    fn drop(&mut self) {
        let mut pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = pending.iter().position(|p| *p == self.0) {
            pending.swap_remove(i);
        }
    }
}

/// Creates a temporary file in `dir` and registers it for removal on an
/// interruption.
pub fn temp_file_in(dir: &Path) -> std::io::Result<(tempfile::NamedTempFile, Registered)> {
    watch();
    let mut pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
    let temp = tempfile::Builder::new()
        .prefix(".muster-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    let path = temp.path().to_path_buf();
    pending.push(path.clone());
    Ok((temp, Registered(path)))
}

/// Removes every registered file; what the watching thread does.
fn remove_pending() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    let pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
    for path in pending.iter() {
        let _ = std::fs::remove_file(path);
    }
    pending
}

#[cfg(unix)]
fn watch() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // A file size limit (`ulimit -f`) stops the process at the write
        // that passes it unless SIGXFSZ is caught; caught, the write fails
        // with "File too large", the temporary file is dropped and the
        // error reported like any other.
        let _ = signal_hook::flag::register(
            signal_hook::consts::SIGXFSZ,
            std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
        );
        // Without the thread an interruption still stops the run; only the
        // temporary file would stay.
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        let _ = std::thread::Builder::new()
            .name("interrupt".to_string())
            .spawn(move || {
                if let Some(signal) = signals.forever().next() {
                    // Held until the process ends: no new file is made.
                    let _pending = remove_pending();
                    let _ = signal_hook::low_level::emulate_default_handler(signal);
                    std::process::exit(128 + signal);
                }
            });
    });
}

#[cfg(not(unix))]
fn watch() {
    let _ = remove_pending;
}
