//! A part of each roster (its JSON, the HTML of its findings, its report
//! row, its table cells), in order, in an unnamed temporary file (gone when
//! the process ends): written as rosters are checked, read back while the
//! documents are written. Memory keeps a length per part.

use std::io::Write as _;

/// Parts being written, in the inputs' order.
pub struct Spool {
    file: std::io::BufWriter<std::fs::File>,
    lengths: Vec<u32>,
    error: Option<std::io::Error>,
}

impl Spool {
    pub fn new() -> std::io::Result<Spool> {
        Ok(Spool {
            file: std::io::BufWriter::new(tempfile::tempfile()?),
            lengths: Vec::new(),
            error: None,
        })
    }

    /// Appends a part; the first error is kept for [`Spool::finish`].
    pub fn push(&mut self, part: &str) {
        if self.error.is_some() {
            return;
        }
        let length = u32::try_from(part.len()).map_err(std::io::Error::other);
        match length.and_then(|n| self.file.write_all(part.as_bytes()).map(|()| n)) {
            Ok(n) => self.lengths.push(n),
            Err(e) => self.error = Some(e),
        }
    }

    /// Records an error that makes the spool unusable.
    pub fn fail(&mut self, e: std::io::Error) {
        self.error.get_or_insert(e);
    }

    /// The parts written, or the first error met writing them.
    pub fn finish(self) -> std::io::Result<Spooled> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let file = self.file.into_inner().map_err(|e| e.into_error())?;
        Ok(Spooled {
            file: std::sync::Arc::new(file),
            lengths: std::sync::Arc::new(self.lengths),
        })
    }
}

/// A finished [`Spool`], read from the start as often as needed.
#[derive(Clone)]
pub struct Spooled {
    file: std::sync::Arc<std::fs::File>,
    lengths: std::sync::Arc<Vec<u32>>,
}

impl Spooled {
    /// The parts in the order they were pushed.
    pub fn parts(&self) -> std::io::Result<impl Iterator<Item = std::io::Result<String>> + use<>> {
        use std::io::{Read, Seek};
        let mut file: &std::fs::File = &self.file;
        file.seek(std::io::SeekFrom::Start(0))?;
        let mut reader = std::io::BufReader::new(self.file.try_clone()?);
        let lengths = std::sync::Arc::clone(&self.lengths);
        Ok((0..lengths.len()).map(move |i| {
            let mut part = vec![0; lengths[i] as usize];
            reader.read_exact(&mut part)?;
            String::from_utf8(part).map_err(std::io::Error::other)
        }))
    }
}
