//! The command line: argument parsing, the commands, and the one place that
//! prints and picks the exit status.
//!
//! Commands return an [`Output`] (text for stdout and stderr, and a status)
//! instead of printing, so they are tested without a process and so output
//! is written exactly once.

mod args;
mod batch;
mod commands;
mod interrupt;
mod io;
mod print;
mod schema;
mod serve;

pub use args::{Args, ColorChoice, Command, EventAction, Format, PaperChoice, PrintArgs};

use clap::Parser;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

/// Exit statuses: part of the CLI contract.
pub mod status {
    /// Every roster legal; the command did what it was asked.
    pub const OK: u8 = 0;
    /// A roster is not legal, or list data is inconsistent.
    pub const FAILED: u8 = 1;
    /// An input could not be used, or the arguments are wrong.
    pub const UNUSABLE: u8 = 2;
}

/// What a command has to say.
#[derive(Debug, Default)]
pub struct Output {
    pub stdout: String,
    /// Bytes for standard output after `stdout`: a PDF asked for with
    /// `--pdf -`.
    pub bytes: Vec<u8>,
    pub stderr: String,
    pub status: u8,
    /// Written to standard output after `bytes`, as it is produced: a
    /// document too large to build whole (`check --format json` over a
    /// folder).
    pub stream: Option<Stream>,
}

/// Writes a document to where it is given.
pub type WriteTo = dyn FnOnce(&mut dyn Write) -> std::io::Result<()>;

/// A document written to standard output piece by piece.
pub struct Stream(pub Box<WriteTo>);

impl std::fmt::Debug for Stream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Stream")
    }
}

/// Runs muster with the process's arguments and prints the result.
pub fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(e) if e.use_stderr() => {
            // A usage error may echo an argument (`--game <ESC>...`):
            // escaped as every other message, so printed without colour.
            let text = e.render().to_string();
            let _ = std::io::stderr().write_all(crate::report::terminal::escape_lines(&text).as_bytes());
            return ExitCode::from(status::UNUSABLE);
        }
        Err(e) => {
            // clap prints help and version to stdout.
            let _ = e.print();
            return ExitCode::from(status::OK);
        }
    };
    let color = match args.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    };
    let output = run(&args, color);
    emit(output)
}

/// Runs a parsed command.
pub fn run(args: &Args, color: bool) -> Output {
    commands::run(args, color)
}

fn emit(output: Output) -> ExitCode {
    // A closed pipe (`muster check ... | head`) is not an error.
    let write = |mut w: Box<dyn Write>, bytes: &[u8]| match w.write_all(bytes).and_then(|()| w.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(()),
        _ => Ok(()),
    };
    if write(Box::new(std::io::stdout().lock()), output.stdout.as_bytes()).is_err()
        || write(Box::new(std::io::stdout().lock()), &output.bytes).is_err()
    {
        return ExitCode::SUCCESS;
    }
    let mut status = output.status;
    let mut stderr = output.stderr;
    if let Some(Stream(stream)) = output.stream {
        let mut out = std::io::BufWriter::with_capacity(crate::batch::IO_BUFFER, std::io::stdout().lock());
        match stream(&mut out).and_then(|()| out.flush()) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return ExitCode::SUCCESS,
            Err(e) => {
                stderr.push_str(&format!(
                    "error: cannot write the output: {}\n",
                    crate::source::io_error(&e)
                ));
                status = status::UNUSABLE;
            }
            Ok(()) => {}
        }
    }
    let _ = write(Box::new(std::io::stderr().lock()), stderr.as_bytes());
    ExitCode::from(status)
}
