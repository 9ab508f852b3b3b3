//! What several test modules need: running the muster binary the way the
//! printing tests do (from the repository, no colour, a fixed date).

use std::path::PathBuf;
use std::process::Command;

/// `SOURCE_DATE_EPOCH` for printed documents:
/// 2026-11-22, so the printed date is stable.
pub const DATE_EPOCH: &str = "1795305600";

pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub status: i32,
}

/// Runs muster from the repository's root.
pub fn muster(args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_muster"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .env("SOURCE_DATE_EPOCH", DATE_EPOCH)
        .output()
        .expect("muster runs");
    Run {
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        status: output.status.code().unwrap_or(-1),
    }
}

/// A folder for one test module's output files.
pub fn out_dir(module: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("muster-{module}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
