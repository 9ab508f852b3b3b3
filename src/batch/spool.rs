//! A part of each roster (its JSON, the HTML of its findings, its report
//! row, its table cells), in order, in an unnamed temporary file (gone when
//! the process ends): written as rosters are checked, read back while the
//! documents are written. Each part is written after its length (four
//! bytes), so memory keeps nothing per part: only how many there are.

use std::io::{Read, Write as _};

/// The buffer of a spool's writes and reads, and of a document's output:
/// a folder's JSON is tens of megabytes, and with the default 8 KiB it
/// was written and read back in tens of thousands of system calls.
pub const IO_BUFFER: usize = 64 * 1024;

/// Parts being written, in the inputs' order.
pub struct Spool {
    file: std::io::BufWriter<std::fs::File>,
    count: usize,
    error: Option<std::io::Error>,
}

impl Spool {
    pub fn new() -> std::io::Result<Spool> {
        Ok(Spool {
            file: std::io::BufWriter::with_capacity(IO_BUFFER, tempfile::tempfile()?),
            count: 0,
            error: None,
        })
    }

    /// Appends a part; the first error is kept for [`Spool::finish`].
    pub fn push(&mut self, part: &str) {
        if self.error.is_some() {
            return;
        }
        let length = u32::try_from(part.len()).map_err(std::io::Error::other);
        let written = length.and_then(|n| {
            self.file.write_all(&n.to_le_bytes())?;
            self.file.write_all(part.as_bytes())
        });
        match written {
            Ok(()) => self.count += 1,
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
            count: self.count,
        })
    }
}

/// A finished [`Spool`], read from the start as often as needed.
#[derive(Clone)]
pub struct Spooled {
    file: std::sync::Arc<std::fs::File>,
    count: usize,
}

impl Spooled {
    /// The parts in the order they were pushed, as their bytes: what a
    /// document copies whole (a roster's JSON, its HTML) needs no check
    /// that the text it wrote is still UTF-8, nor a zeroed buffer to read
    /// into.
    pub fn parts(&self) -> std::io::Result<impl Iterator<Item = std::io::Result<Vec<u8>>> + use<>> {
        use std::io::Seek;
        let mut file: &std::fs::File = &self.file;
        file.seek(std::io::SeekFrom::Start(0))?;
        let mut reader = std::io::BufReader::with_capacity(IO_BUFFER, self.file.try_clone()?);
        Ok((0..self.count).map(move |_| {
            let mut length = [0; 4];
            reader.read_exact(&mut length)?;
            let length = u32::from_le_bytes(length) as usize;
            let mut part = Vec::with_capacity(length);
            (&mut reader).take(length as u64).read_to_end(&mut part)?;
            if part.len() == length {
                Ok(part)
            } else {
                Err(std::io::ErrorKind::UnexpectedEof.into())
            }
        }))
    }

    /// The parts as text, for a reader that reads into them.
    pub fn texts(&self) -> std::io::Result<impl Iterator<Item = std::io::Result<String>> + use<>> {
        Ok(self
            .parts()?
            .map(|part| String::from_utf8(part?).map_err(std::io::Error::other)))
    }
}

#[cfg(test)]
mod tests {
    use super::Spool;

    /// Parts of any length, the empty one too, come back as they went in,
    /// as often as they are read.
    #[test]
    fn parts_come_back_in_order_after_their_lengths() {
        let long = "x".repeat(100_000);
        let parts = ["a", "", "é\n{}", long.as_str(), ""];
        let mut spool = Spool::new().unwrap();
        for part in parts {
            spool.push(part);
        }
        let spooled = spool.finish().unwrap();
        for _ in 0..2 {
            let read: Vec<String> = spooled.texts().unwrap().collect::<Result<_, _>>().unwrap();
            assert_eq!(read, parts);
            let bytes: Vec<Vec<u8>> = spooled.parts().unwrap().collect::<Result<_, _>>().unwrap();
            assert!(bytes.iter().zip(parts).all(|(b, p)| b == p.as_bytes()));
        }
    }
}
