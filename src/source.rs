//! Source texts and spans: the one place that turns byte offsets into lines
//! and columns.
//!
//! Every diagnostic points into a [`SourceFile`]; rosters, list files and
//! rule expressions all go through here, so positions are computed one way.

use std::sync::Arc;

/// A byte range in one source text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// A span moved by `offset` bytes (for spans parsed from a slice).
    pub fn shifted(self, offset: usize) -> Span {
        Span::new(self.start + offset, self.end + offset)
    }

    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// A named text with its line starts, shared cheaply between diagnostics.
#[derive(Debug, Clone)]
pub struct SourceFile {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    name: String,
    /// Borrowed for a built-in list (its YAML is in the binary), so that
    /// loading one does not copy it.
    text: std::borrow::Cow<'static, str>,
    /// Found on first use: most files (the built-in lists) never report a
    /// position, and scanning them for line breaks was a tenth of a check.
    line_starts: std::sync::OnceLock<Vec<usize>>,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        SourceFile {
            inner: Arc::new(Inner {
                name: name.into(),
                text: std::borrow::Cow::Owned(text.into()),
                line_starts: std::sync::OnceLock::new(),
            }),
        }
    }

    /// A text built into the binary, not copied.
    pub fn embedded(name: impl Into<String>, text: &'static str) -> SourceFile {
        SourceFile {
            inner: Arc::new(Inner {
                name: name.into(),
                text: std::borrow::Cow::Borrowed(text),
                line_starts: std::sync::OnceLock::new(),
            }),
        }
    }

    pub fn name(&self) -> &str {
        &self.inner.name
    }

    pub fn text(&self) -> &str {
        &self.inner.text
    }

    pub fn line_starts(&self) -> &[usize] {
        self.inner.line_starts.get_or_init(|| {
            // `\n` is never part of a longer UTF-8 character, so the bytes
            // are searched, sixteen at a time. The roster reader reads its
            // lines from here, so a roster's lines are found once, for the
            // reader and for every diagnostic after it.
            let text = self.inner.text.as_bytes();
            let mut starts = Vec::with_capacity(text.len() / 24 + 2);
            starts.push(0);
            starts.extend(memchr::memchr_iter(b'\n', text).map(|i| i + 1));
            starts
        })
    }

    /// 1-based line of a byte offset, without counting characters.
    pub fn line_of(&self, offset: usize) -> usize {
        let offset = offset.min(self.inner.text.len());
        match self.line_starts().binary_search(&offset) {
            Ok(i) => i + 1,
            Err(i) => i,
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.inner.text.len());
        let line = match self.line_starts().binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts()[line];
        let column = self
            .inner
            .text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        (line + 1, column + 1)
    }

    /// The byte span of 1-based line `line`, without its line break.
    pub fn line_span(&self, line: usize) -> Span {
        let starts = self.line_starts();
        let Some(&start) = starts.get(line.wrapping_sub(1)) else {
            return Span::new(self.inner.text.len(), self.inner.text.len());
        };
        let end = starts
            .get(line)
            .map_or(self.inner.text.len(), |&next| next.saturating_sub(1));
        let text = &self.inner.text[start..end];
        let trimmed = text.strip_suffix('\r').unwrap_or(text);
        Span::new(start, start + trimmed.len())
    }

    pub fn same(&self, other: &SourceFile) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }
}

/// Why a file from the user's disk was not read.
#[derive(Debug)]
pub enum ReadError {
    /// Not a regular file: a folder, a pipe, a device, a socket.
    NotAFile(&'static str),
    /// Larger than the limit; the size found (or read, for a file that
    /// grew).
    TooLarge(u64),
    Io(std::io::Error),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::NotAFile(kind) => write!(f, "it is a {kind}, not a regular file"),
            ReadError::TooLarge(size) => write!(f, "it is {}, more than muster reads", size_text(*size)),
            ReadError::Io(e) => write!(f, "{}", io_error(e)),
        }
    }
}

/// An operating system's error in words for whoever ran muster, after
/// `cannot read FILE: `: `no such file`, `permission denied`, without the
/// `(os error 2)` and capital letter of its `Display`. Every I/O error a
/// user sees goes through here.
pub fn io_error(e: &std::io::Error) -> String {
    use std::io::ErrorKind as K;
    let words = match e.kind() {
        K::NotFound => "no such file",
        K::PermissionDenied => "permission denied",
        K::AlreadyExists => "it already exists",
        K::IsADirectory => "it is a folder",
        K::NotADirectory => "a part of its path is not a folder",
        K::StorageFull => "the disk is full",
        K::ReadOnlyFilesystem => "the file system is read-only",
        K::InvalidFilename => "the name is not a valid file name",
        K::DirectoryNotEmpty => "the folder is not empty",
        K::CrossesDevices => "it is on another file system",
        K::Interrupted => "interrupted",
        K::TimedOut => "timed out",
        K::UnexpectedEof => "the file ended early",
        _ => {
            // Another kind, or an error muster made itself (`Error::other`):
            // its own words, without the code.
            let mut text = e.to_string();
            // tempfile adds the temporary file's name, which is not the
            // user's: they named the file being written.
            if let Some(at) = text.find(" at path \"") {
                text.truncate(at);
            }
            let text = match text.rfind(" (os error ") {
                Some(at) if text.ends_with(')') => text[..at].to_string(),
                _ => text,
            };
            let mut chars = text.chars();
            return match chars.next() {
                Some(first) if chars.next().is_some_and(char::is_lowercase) => {
                    first.to_lowercase().chain(text.chars().skip(1)).collect()
                }
                _ => text,
            };
        }
    };
    words.to_string()
}

/// A size for a limit or a file over one: `1 MiB`, `4.3 MiB`, `64 KiB`,
/// `300 bytes`; rounded up, so a file over a limit never reads as the
/// limit.
pub fn size_text(bytes: u64) -> String {
    const KIB: u64 = 1024;
    const MIB: u64 = 1024 * KIB;
    let (unit, name) = match bytes {
        b if b >= MIB => (MIB, "MiB"),
        b if b >= KIB => (KIB, "KiB"),
        1 => return "1 byte".to_string(),
        b => return format!("{b} bytes"),
    };
    if bytes % unit == 0 {
        return format!("{} {name}", bytes / unit);
    }
    let tenths = u128::from(bytes).saturating_mul(10).div_ceil(u128::from(unit));
    if tenths % 10 == 0 {
        format!("{} {name}", tenths / 10)
    } else {
        format!("{}.{} {name}", tenths / 10, tenths % 10)
    }
}

/// Reads a regular file of at most `limit` bytes. Anything else is refused
/// before it is read (a pipe would block, `/dev/zero` never ends), and the
/// read stops one byte past the limit whatever the file does meanwhile.
/// Symbolic links are followed to what they name, which must itself be a
/// regular file. On Unix the file is opened without blocking and checked
/// on the open handle, so a file swapped for a pipe between the check and
/// the open cannot block the run either.
pub fn read_regular(path: &std::path::Path, limit: usize) -> Result<Vec<u8>, ReadError> {
    use std::io::Read;
    let meta = std::fs::metadata(path).map_err(ReadError::Io)?;
    if !meta.is_file() {
        return Err(ReadError::NotAFile(kind(&meta.file_type())));
    }
    if meta.len() > limit as u64 {
        return Err(ReadError::TooLarge(meta.len()));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(ReadError::Io)?;
    let meta = file.metadata().map_err(ReadError::Io)?;
    if !meta.is_file() {
        return Err(ReadError::NotAFile(kind(&meta.file_type())));
    }
    // Sized from the file's length, so it is read in one call (then one
    // that finds its end) rather than from 32 bytes up, doubling: six
    // reads of a 4 KiB roster, most of a folder's system calls.
    let mut bytes = Vec::with_capacity(meta.len().min(limit as u64) as usize + 1);
    file.take(limit as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() > limit {
        return Err(ReadError::TooLarge(bytes.len() as u64));
    }
    Ok(bytes)
}

/// What a file that is not a regular file is, in words.
pub fn kind(file_type: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "pipe";
        }
        if file_type.is_char_device() || file_type.is_block_device() {
            return "device";
        }
        if file_type.is_socket() {
            return "socket";
        }
    }
    if file_type.is_dir() {
        "folder"
    } else if file_type.is_symlink() {
        "symbolic link"
    } else {
        "special file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_are_one_based() {
        let f = SourceFile::new("t", "ab\ncdé\n\nx");
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(3), (2, 1));
        assert_eq!(f.line_col(7), (2, 4));
        assert_eq!(f.line_col(8), (3, 1));
        assert_eq!(f.line_col(9), (4, 1));
        assert_eq!(f.line_span(2), Span::new(3, 7));
        assert_eq!(f.line_span(3), Span::new(8, 8));
    }

    #[test]
    fn sizes_read_in_mib_rounded_up() {
        assert_eq!(size_text(1 << 20), "1 MiB");
        assert_eq!(size_text((1 << 20) + 1), "1.1 MiB");
        assert_eq!(size_text(4 * (1 << 20)), "4 MiB");
        assert_eq!(size_text(64 * 1024), "64 KiB");
        assert_eq!(size_text(300), "300 bytes");
        assert_eq!(size_text(u64::MAX), "17592186044416 MiB");
    }

    #[test]
    fn os_errors_read_without_their_codes() {
        let gone = std::io::Error::from_raw_os_error(2);
        assert!(gone.to_string().contains("os error 2"));
        assert_eq!(io_error(&gone), "no such file");
        assert_eq!(
            io_error(&std::io::Error::other("Something broke")),
            "something broke"
        );
        assert_eq!(io_error(&std::io::Error::other("I/O failed")), "I/O failed");
    }
}
