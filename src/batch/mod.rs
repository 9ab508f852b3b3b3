//! Many rosters at once, as an organiser receives them: the paths given on
//! the command line expanded into inputs (folders walked recursively, in
//! path order), each input read with the size cap and checked in parallel,
//! and duplicate submissions found across the results.
//!
//! This module owns reading roster files and the order of results. It does
//! not check a roster itself (the caller passes the per-roster check as a
//! closure, so event rules or anything else plug in without this module
//! knowing), and it does not render or print: `report` and `cli` do.
//!
//! Invariant: one input gives exactly one [`Checked`], whatever its bytes
//! are; a file that cannot be read is a result, never an early return.

pub mod documents;
mod duplicates;
mod inputs;
mod links;
mod row_part;
mod spool;
mod walk;

pub use duplicates::{Duplicate, DuplicateGroup, DuplicateKind, Keys};
pub use inputs::{Input, Inputs, Origin};
pub use links::{Links, duplicate_groups, duplicates, duplicates_of};
pub use spool::{IO_BUFFER, Spool, Spooled};
pub use walk::collect;

use crate::check::Checked;
use crate::diagnostic::{Code, Diagnostic};
use crate::roster::{MAX_ROSTER_BYTES, Unreadable};
use crate::source::ReadError;
use rayon::prelude::*;
use std::io::Read;
use std::ops::Range;

/// Checks every input in parallel and returns the results in the inputs'
/// order. `check` is the per-roster check (bytes and display name);
/// `progress` is called once per finished input, from any thread.
pub fn check_all<'c, F>(inputs: &Inputs, check: F, progress: &(dyn Fn() + Sync)) -> Vec<Checked<'c>>
where
    F: Fn(&[u8], &str) -> Checked<'c> + Sync,
{
    map_all(inputs, 0..inputs.len(), &|input| checked(input, &check), progress)
}

/// Each input's [`Checked`]: its bytes checked, or why they cannot be read.
fn checked<'c>(input: Input<'_>, check: &(impl Fn(&[u8], &str) -> Checked<'c> + ?Sized)) -> Checked<'c> {
    match read(&input) {
        Ok(bytes) => check(&bytes, &input.name),
        Err(diagnostic) => unusable(&input.name, *diagnostic),
    }
}

/// `each` over the inputs `range` in parallel, results in their order.
fn map_all<T: Send>(
    inputs: &Inputs,
    range: Range<usize>,
    each: &(dyn Fn(Input<'_>) -> T + Sync),
    progress: &(dyn Fn() + Sync),
) -> Vec<T> {
    // One input (the player's `muster check ROSTER`) is checked on this
    // thread: starting the pool's threads cost more CPU than the check.
    if range.len() == 1 {
        let done = each(inputs.get(range.start));
        progress();
        return vec![done];
    }
    // `collect` on an indexed parallel iterator keeps the input order, so
    // the output is the same however the work was spread over threads.
    range
        .into_par_iter()
        .map(|i| {
            let done = each(inputs.get(i));
            progress();
            done
        })
        .collect()
}

/// Inputs checked at a time by [`check_each`]: enough to keep every thread
/// busy, few enough that the results in flight stay small.
pub const CHUNK: usize = 256;

/// Checks every input in parallel, a chunk at a time, and hands each result
/// to `each` in the inputs' order as soon as its chunk is done, so a caller
/// that keeps only what it needs of each result (a row, a line written
/// out) runs in memory that does not grow with the number of inputs.
///
/// `keep` cuts a result down to what the caller keeps, on the thread that
/// checked it: everything per roster (rows, fingerprints, report parts)
/// runs in parallel, and only `each`, in order, is serial. `each` takes a
/// chunk's results while the next chunk is checked, so the threads do not
/// wait for it between chunks (two chunks' results are in flight).
pub fn check_each<'c, F, T: Send>(
    inputs: &Inputs,
    check: F,
    keep: impl Fn(Checked<'c>) -> T + Sync,
    progress: &(dyn Fn() + Sync),
    mut each: impl FnMut(usize, T) + Send,
) where
    F: Fn(&[u8], &str) -> Checked<'c> + Sync,
{
    let one = |input: Input<'_>| keep(checked(input, &check));
    // A chunk's results, and the index of its first input.
    let mut done: (Vec<T>, usize) = (Vec::new(), 0);
    let mut hand_over = |(results, first): (Vec<T>, usize)| {
        for (i, kept) in results.into_iter().enumerate() {
            each(first + i, kept);
        }
    };
    for first in (0..inputs.len()).step_by(CHUNK) {
        let chunk = first..inputs.len().min(first + CHUNK);
        if inputs.len() <= CHUNK {
            // One chunk (one roster, too, which is checked on this
            // thread: see `map_all`): nothing to overlap.
            done = (map_all(inputs, chunk, &one, progress), 0);
            break;
        }
        let previous = std::mem::take(&mut done);
        let (results, ()) = rayon::join(|| map_all(inputs, chunk, &one, progress), || hand_over(previous));
        done = (results, first);
    }
    hand_over(done);
}

/// A result for an input that could not be read at all.
pub fn unusable<'c>(name: &str, diagnostic: Diagnostic) -> Checked<'c> {
    Checked::unusable_input(name, diagnostic)
}

/// The bytes of an input, at most [`MAX_ROSTER_BYTES`] + 1 of them (so an
/// oversized file is recognised without reading all of it), or why it
/// cannot be read.
pub fn read(input: &Input<'_>) -> Result<Vec<u8>, Box<Diagnostic>> {
    if let Some(problem) = input.problem_found() {
        return Err(Box::new(Diagnostic::error(
            Code::UnreadableInput,
            problem.to_string(),
        )));
    }
    let cannot = |e: std::io::Error| Box::new(unreadable(&input.name, ReadError::Io(e)));
    if let Some(text) = input.text() {
        return Ok(text.as_bytes().to_vec());
    }
    let limit = MAX_ROSTER_BYTES as u64 + 1;
    let mut bytes = Vec::new();
    if input.origin == Origin::Stdin {
        std::io::stdin()
            .lock()
            .take(limit)
            .read_to_end(&mut bytes)
            .map_err(cannot)?;
        if bytes.len() > MAX_ROSTER_BYTES {
            return Err(Box::new(Unreadable::TooLongStream.diagnostic()));
        }
        return Ok(bytes);
    }
    // Only regular files are opened: a pipe named on the command line
    // would block the run, a device would never end.
    crate::source::read_regular(input.path(), MAX_ROSTER_BYTES)
        .map_err(|e| Box::new(unreadable(&input.name, e)))
}

/// Why the roster file `name` could not be read ([`crate::source::read_regular`]
/// with [`MAX_ROSTER_BYTES`]), as every report of a check says it.
pub fn unreadable(name: &str, error: ReadError) -> Diagnostic {
    match error {
        ReadError::NotAFile("folder") => Diagnostic::error(
            Code::UnreadableInput,
            format!("{name} is a folder, not a roster file"),
        ),
        ReadError::NotAFile(kind) => Diagnostic::error(
            Code::UnreadableInput,
            format!("{name} is a {kind}, not a roster file"),
        )
        .hint("to check what a pipe carries, give `-` and send it to standard input"),
        // The real size rather than the bytes read.
        ReadError::TooLarge(size) => {
            Unreadable::TooLarge(usize::try_from(size).unwrap_or(usize::MAX)).diagnostic()
        }
        ReadError::Io(e) => Diagnostic::error(
            Code::UnreadableInput,
            format!("cannot read {name}: {}", crate::source::io_error(&e)),
        ),
    }
}
