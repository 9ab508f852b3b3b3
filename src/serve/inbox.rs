//! The submissions of an event, kept so that nothing acknowledged is lost:
//! the folder of rosters (`DIR/NAME.txt`, what `muster check DIR` reads)
//! and beside them, hidden, one record per submission
//! (`DIR/.muster/TOKEN.json`: its private token, player, times, and the
//! summary row of its check, which the organiser page shows without
//! re-checking anything). Every file is written to a temporary file,
//! synced, renamed into place, and the folder synced, before the player is
//! told it is received; a restart reads the same inbox back. Memory holds
//! only the records (a few hundred bytes each), at most
//! [`super::net::Limits::max_submissions`] of them.

use crate::report::summary::Row;
use crate::roster::MAX_ROSTER_BYTES;
use crate::source::ReadError;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// One submission: the player's latest roster.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Record {
    /// The secret of its private link (`/mine/TOKEN`), 32 hex digits.
    pub token: String,
    /// The roster's file name in the folder.
    pub file: String,
    pub player: String,
    /// The submission form's one-time mark: the same form sent twice
    /// replaces, never duplicates.
    pub once: String,
    /// First submitted and last replaced, seconds since 1970.
    pub submitted: i64,
    pub updated: i64,
    /// FNV-1a of the roster file, to notice a file changed behind the
    /// record's back (by the organiser, or a crash between two writes).
    pub digest: u64,
    pub row: Row,
}

/// How a roster is checked into its summary row (the file name, the text).
pub type CheckFn<'a> = &'a (dyn Fn(&str, &str) -> Row + Sync);

pub struct Inbox {
    dir: PathBuf,
    records: Mutex<HashMap<String, Record>>,
    /// Bumped by every change, so exports made from the folder are kept
    /// until it changes.
    generation: AtomicU64,
    max: usize,
}

/// Why a submission was not stored.
#[derive(Debug)]
pub enum Refused {
    Full,
    Io(std::io::Error),
}

impl From<std::io::Error> for Refused {
    fn from(e: std::io::Error) -> Self {
        Refused::Io(e)
    }
}

const META: &str = ".muster";

impl Inbox {
    /// Reads the inbox of `dir` back: every record whose roster is still
    /// there (re-checked when the file changed), and every roster file
    /// without a record (put there by hand, or by an older muster) adopted
    /// with a new token.
    pub fn open(dir: &Path, max: usize, check: CheckFn<'_>) -> std::io::Result<Inbox> {
        let meta = dir.join(META);
        std::fs::create_dir_all(&meta)?;
        let mut records = HashMap::new();
        for entry in std::fs::read_dir(&meta)? {
            let path = entry?.path();
            let is_record = path.extension().is_some_and(|x| x == "json")
                && path.file_stem().and_then(|s| s.to_str()).is_some_and(valid_token);
            if !is_record {
                continue;
            }
            let Ok(bytes) = std::fs::read(&path) else { continue };
            let Ok(mut record) = serde_json::from_slice::<Record>(&bytes) else {
                continue;
            };
            match read_roster(dir, &record.file) {
                Err(ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
                    let _ = std::fs::remove_file(&path);
                }
                read => {
                    let digest = digest_of(&read);
                    if digest != record.digest || digest == REFUSED {
                        record.row = row_of(&record.file, read, check);
                        record.digest = digest;
                        write_durably(&meta, &format!("{}.json", record.token), &to_json(&record)?)?;
                    }
                    records.insert(record.token.clone(), record);
                }
            }
        }
        let inbox = Inbox {
            dir: dir.to_path_buf(),
            records: Mutex::new(records),
            generation: AtomicU64::new(1),
            max,
        };
        inbox.adopt(check)?;
        Ok(inbox)
    }

    fn adopt(&self, check: CheckFn<'_>) -> std::io::Result<()> {
        let known: std::collections::HashSet<String> = self.lock().values().map(|r| r.file.clone()).collect();
        for entry in std::fs::read_dir(&self.dir)? {
            let entry = entry?;
            let Some(name) = entry.file_name().to_str().map(str::to_string) else {
                continue;
            };
            // Folders and links are not the inbox's (`muster check DIR`
            // does not follow links either); anything else is read as a
            // roster, or refused.
            let kind = entry.file_type()?;
            if name.starts_with('.') || known.contains(&name) || kind.is_dir() || kind.is_symlink() {
                continue;
            }
            let read = read_roster(&self.dir, &name);
            let digest = digest_of(&read);
            let row = row_of(&name, read, check);
            let modified = entry
                .metadata()?
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(0));
            let record = Record {
                token: token()?,
                file: name,
                player: row.player.clone().unwrap_or_default(),
                once: String::new(),
                submitted: modified,
                updated: modified,
                digest,
                row,
            };
            self.save(&record)?;
            self.lock().insert(record.token.clone(), record);
        }
        Ok(())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Record>> {
        self.records
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn save(&self, record: &Record) -> std::io::Result<()> {
        write_durably(
            &self.dir.join(META),
            &format!("{}.json", record.token),
            &to_json(record)?,
        )
    }

    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::SeqCst)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn get(&self, token: &str) -> Option<Record> {
        self.lock().get(token).cloned()
    }

    /// The submission a form with this one-time mark made, if any.
    pub fn by_once(&self, once: &str) -> Option<Record> {
        if once.is_empty() {
            return None;
        }
        self.lock().values().find(|r| r.once == once).cloned()
    }

    /// Every submission, by player then time.
    pub fn list(&self) -> Vec<Record> {
        let mut all: Vec<Record> = self.lock().values().cloned().collect();
        all.sort_by(|a, b| {
            a.player
                .to_lowercase()
                .cmp(&b.player.to_lowercase())
                .then(a.updated.cmp(&b.updated))
                .then(a.file.cmp(&b.file))
        });
        all
    }

    /// A submission's roster, read as every roster is: a regular file of at
    /// most [`MAX_ROSTER_BYTES`].
    pub fn read(&self, record: &Record) -> Result<String, ReadError> {
        let bytes = read_roster(&self.dir, &record.file)?;
        String::from_utf8(bytes)
            .map_err(|e| ReadError::Io(std::io::Error::new(std::io::ErrorKind::InvalidData, e)))
    }

    /// Stores a new submission; its record carries the new private token.
    pub fn create(
        &self,
        player: &str,
        once: &str,
        roster: &str,
        check: CheckFn<'_>,
    ) -> Result<Record, Refused> {
        // One writer at a time: the lock is held across the writes, so two
        // posts of one form cannot both create.
        let mut records = self.lock();
        if let Some(existing) = records
            .values()
            .find(|r| !once.is_empty() && r.once == once)
            .cloned()
        {
            drop(records);
            return self
                .replace(&existing.token, player, roster, check)
                .map(|r| r.unwrap_or(existing));
        }
        if records.len() >= self.max {
            return Err(Refused::Full);
        }
        let now = now();
        let token = token()?;
        let slug = match super::slug(player) {
            s if s.is_empty() => "player".to_string(),
            s => s,
        };
        let file = write_new(&self.dir, &format!("{slug}-{}", &token[..8]), roster.as_bytes())?;
        let record = Record {
            token,
            row: check(&file, roster),
            file,
            player: player.to_string(),
            once: once.to_string(),
            submitted: now,
            updated: now,
            digest: fnv(roster.as_bytes()),
        };
        self.save(&record)?;
        records.insert(record.token.clone(), record.clone());
        self.generation.fetch_add(1, Ordering::SeqCst);
        Ok(record)
    }

    /// Replaces a submission's roster (and player); `None` if there is
    /// none with that token.
    pub fn replace(
        &self,
        token: &str,
        player: &str,
        roster: &str,
        check: CheckFn<'_>,
    ) -> Result<Option<Record>, Refused> {
        let mut records = self.lock();
        let Some(mut record) = records.get(token).cloned() else {
            return Ok(None);
        };
        write_durably(&self.dir, &record.file, roster.as_bytes())?;
        record.player = player.to_string();
        record.updated = now();
        record.digest = fnv(roster.as_bytes());
        record.row = check(&record.file, roster);
        self.save(&record)?;
        records.insert(record.token.clone(), record.clone());
        self.generation.fetch_add(1, Ordering::SeqCst);
        Ok(Some(record))
    }

    /// Withdraws a submission: its roster and record are removed.
    pub fn withdraw(&self, token: &str) -> std::io::Result<bool> {
        let mut records = self.lock();
        let Some(record) = records.get(token).cloned() else {
            return Ok(false);
        };
        // The record goes last: a crash between leaves a record without a
        // file, which the next start drops.
        remove_if_there(&self.dir.join(&record.file))?;
        sync_dir(&self.dir)?;
        let meta = self.dir.join(META);
        remove_if_there(&meta.join(format!("{token}.json")))?;
        sync_dir(&meta)?;
        records.remove(token);
        self.generation.fetch_add(1, Ordering::SeqCst);
        Ok(true)
    }
}

/// The digest of a roster file that was refused, not read: never a file's
/// (a refused file is read again at the next start).
const REFUSED: u64 = 0;

/// A roster file of the folder, read as `muster check DIR` reads it: a
/// regular file of at most [`MAX_ROSTER_BYTES`], never more of it.
fn read_roster(dir: &Path, file: &str) -> Result<Vec<u8>, ReadError> {
    crate::source::read_regular(&dir.join(file), MAX_ROSTER_BYTES)
}

/// The digest of a roster file as read, or [`REFUSED`].
fn digest_of(read: &Result<Vec<u8>, ReadError>) -> u64 {
    read.as_ref().map_or(REFUSED, |bytes| fnv(bytes))
}

/// The row of a roster file as read: its check, or for a refused file why,
/// as a check of the folder says it.
fn row_of(file: &str, read: Result<Vec<u8>, ReadError>, check: CheckFn<'_>) -> Row {
    match read {
        Ok(bytes) => check(file, &String::from_utf8_lossy(&bytes)),
        Err(e) => Row::of(&crate::batch::unusable(file, crate::batch::unreadable(file, e))),
    }
}

fn remove_if_there(path: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

fn to_json(record: &Record) -> std::io::Result<Vec<u8>> {
    serde_json::to_vec_pretty(record).map_err(std::io::Error::other)
}

/// Whether `text` has the shape of a token: 32 lower-case hex digits.
pub fn valid_token(text: &str) -> bool {
    text.len() == 32 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// 128 random bits from the operating system, as 32 hex digits.
pub fn token() -> std::io::Result<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| std::io::Error::other(format!("no random numbers: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(0))
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn temporary(dir: &Path, bytes: &[u8]) -> std::io::Result<tempfile::NamedTempFile> {
    // Hidden, so a folder run skips it.
    let mut file = tempfile::Builder::new().prefix(".submission").tempfile_in(dir)?;
    file.write_all(bytes)?;
    file.as_file().sync_all()?;
    Ok(file)
}

/// Writes `name` in `dir`: a synced temporary file renamed over it, then
/// the folder synced, so the name holds the old bytes or the new, whole.
fn write_durably(dir: &Path, name: &str, bytes: &[u8]) -> std::io::Result<()> {
    temporary(dir, bytes)?
        .persist(dir.join(name))
        .map_err(|e| e.error)?;
    sync_dir(dir)
}

/// Writes a new file `BASE.txt` (or `BASE-2.txt`, ...) in `dir`, never
/// over another, durably; its name.
fn write_new(dir: &Path, base: &str, bytes: &[u8]) -> std::io::Result<String> {
    let mut file = temporary(dir, bytes)?;
    for n in 1..1000 {
        let name = if n == 1 {
            format!("{base}.txt")
        } else {
            format!("{base}-{n}.txt")
        };
        match file.persist_noclobber(dir.join(&name)) {
            Ok(_) => {
                sync_dir(dir)?;
                return Ok(name);
            }
            Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => file = e.file,
            Err(e) => return Err(e.error),
        }
    }
    Err(std::io::Error::other("no free name for the submission"))
}

fn sync_dir(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::fs::File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::summary::Status;

    fn row(name: &str, text: &str) -> Row {
        Row {
            file: name.to_string(),
            status: if text.contains("bad") {
                Status::Illegal
            } else {
                Status::Legal
            },
            player: text
                .lines()
                .find_map(|l| l.strip_prefix("Player: "))
                .map(str::to_string),
            title: None,
            army: None,
            army_id: None,
            version: None,
            points: None,
            limit: None,
            errors: usize::from(text.contains("bad")),
            warnings: 0,
            first_error: None,
            duplicates: Vec::new(),
        }
    }

    #[test]
    fn an_inbox_reads_back_what_it_stored() {
        let dir = tempfile::tempdir().expect("dir");
        std::fs::write(dir.path().join("by-hand.txt"), "Player: Cy\n").expect("file");
        let inbox = Inbox::open(dir.path(), 10, &row).expect("open");
        assert_eq!(inbox.list().len(), 1, "a file put there by hand is adopted");
        let ann = inbox
            .create("Ann", "once-1", "Player: Ann\nbad\n", &row)
            .expect("create");
        assert!(valid_token(&ann.token));
        assert_eq!(ann.file, format!("ann-{}.txt", &ann.token[..8]));
        // The same form again replaces.
        let again = inbox
            .create("Ann", "once-1", "Player: Ann\n", &row)
            .expect("again");
        assert_eq!(again.token, ann.token);
        assert_eq!(again.row.status, Status::Legal);
        let bob = inbox.create("Bob", "once-2", "Player: Bob\n", &row).expect("bob");
        assert_eq!(inbox.list().len(), 3);
        assert!(inbox.withdraw(&bob.token).expect("withdraw"));
        assert!(!dir.path().join(&bob.file).exists());
        drop(inbox);
        // A file changed behind the inbox's back is re-checked.
        std::fs::write(dir.path().join(&ann.file), "Player: Ann\nbad\n").expect("edit");
        let inbox = Inbox::open(dir.path(), 10, &row).expect("reopen");
        let players: Vec<String> = inbox.list().into_iter().map(|r| r.player).collect();
        assert_eq!(players, ["Ann", "Cy"]);
        assert_eq!(inbox.get(&ann.token).expect("ann").row.status, Status::Illegal);
        assert_eq!(inbox.by_once("once-1").map(|r| r.token), Some(ann.token));
        // Full.
        let small = Inbox::open(dir.path(), 2, &row).expect("reopen");
        assert!(matches!(
            small.create("Dee", "", "Player: Dee\n", &row),
            Err(Refused::Full)
        ));
    }

    /// A check that fails the test when handed more than a roster may be.
    fn capped_row(name: &str, text: &str) -> Row {
        assert!(text.len() <= MAX_ROSTER_BYTES, "{name} was read whole");
        row(name, text)
    }

    /// Files put in the folder by hand are read as `muster check DIR` reads
    /// them: one larger than a roster may be, or a pipe, is refused with its
    /// reason (never read whole, never opened to block), and the rest of
    /// the folder is adopted; a recorded roster that grows too large is
    /// refused the same way at the next start, and checked again once fixed.
    #[test]
    fn an_inbox_refuses_what_a_check_refuses() {
        let dir = tempfile::tempdir().expect("dir");
        let big = format!("Player: Big\n{}", "x".repeat(MAX_ROSTER_BYTES));
        std::fs::write(dir.path().join("big.txt"), &big).expect("big");
        std::fs::write(dir.path().join("fine.txt"), "Player: Fine\n").expect("fine");
        // A pipe, where `mkfifo` makes one.
        let piped = std::process::Command::new("mkfifo")
            .arg(dir.path().join("pipe.txt"))
            .status()
            .is_ok_and(|s| s.success());
        let inbox = Inbox::open(dir.path(), 10, &capped_row).expect("open");
        let by_file =
            |inbox: &Inbox, file: &str| inbox.list().into_iter().find(|r| r.file == file).expect(file);
        let fine = by_file(&inbox, "fine.txt");
        assert_eq!((fine.row.status, fine.player.as_str()), (Status::Legal, "Fine"));
        let refused = by_file(&inbox, "big.txt");
        assert_eq!(refused.row.status, Status::Unreadable);
        let why = refused.row.first_error.clone().unwrap_or_default();
        assert!(why.contains("a roster may be at most 1 MiB"), "{why}");
        assert!(matches!(inbox.read(&refused), Err(ReadError::TooLarge(_))));
        if piped {
            let pipe = by_file(&inbox, "pipe.txt");
            assert_eq!(pipe.row.status, Status::Unreadable);
            let why = pipe.row.first_error.clone().unwrap_or_default();
            assert!(why.contains("pipe.txt is a pipe, not a roster file"), "{why}");
            assert!(matches!(inbox.read(&pipe), Err(ReadError::NotAFile("pipe"))));
        }
        assert_eq!(inbox.read(&fine).expect("fine"), "Player: Fine\n");
        drop(inbox);
        // A recorded roster grown too large, then fixed.
        std::fs::write(dir.path().join("fine.txt"), &big).expect("grown");
        let inbox = Inbox::open(dir.path(), 10, &capped_row).expect("reopen");
        assert_eq!(by_file(&inbox, "fine.txt").row.status, Status::Unreadable);
        drop(inbox);
        std::fs::write(dir.path().join("fine.txt"), "Player: Fine\nbad\n").expect("fixed");
        let inbox = Inbox::open(dir.path(), 10, &capped_row).expect("reopen");
        assert_eq!(by_file(&inbox, "fine.txt").row.status, Status::Illegal);
        assert_eq!(inbox.list().len(), 2 + usize::from(piped));
    }
}
