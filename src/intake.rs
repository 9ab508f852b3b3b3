//! The intake stage: what a roster arrives as (roster text, a Snapfire
//! share link, a BattleScribe roster) turned into roster text, before the
//! check's stages (`crate::check`) read it, with what the result must say
//! of where the text came from.

use crate::catalogue::Catalogue;
use crate::diagnostic::{Code, Diagnostic};
use crate::import::{battlescribe, snapfire};
use crate::roster;
use crate::source::SourceFile;

/// A roster as the check's stages take it.
pub enum Intake<'c> {
    /// Roster text, as written.
    Text(SourceFile),
    /// A Snapfire share link read into roster text (diagnostics point into
    /// that text); the result takes the link's army name as its title and
    /// its share link's name.
    Link { file: SourceFile, army_name: String },
    /// A BattleScribe roster (`.ros`, `.rosz`) read into roster text, which
    /// has a name of its own (its lines are not the XML's); each finding
    /// about a line then points at the XML element the line came from.
    BattleScribe {
        file: SourceFile,
        imported: battlescribe::Imported<'c>,
    },
    /// Input that gives no roster text: the one finding about it, and the
    /// text it was, if any.
    Refused {
        file: Option<SourceFile>,
        diagnostic: Diagnostic,
    },
}

/// A roster given as raw bytes (from a file or standard input): a
/// BattleScribe roster, else text (decoded) as [`from_file`] takes it.
pub fn from_bytes<'c>(catalogue: &'c Catalogue, name: &str, bytes: &[u8]) -> Intake<'c> {
    if battlescribe::is_roster(name, bytes) {
        // A file that cannot be read at all (a refused archive, XML that is
        // not well-formed, a catalogue no list reads) gives one
        // `battlescribe` error.
        return match battlescribe::read(catalogue, name, bytes) {
            Ok(imported) => {
                let read_as = format!("{name} (as muster reads it)");
                let file = SourceFile::new(&read_as, &imported.roster);
                Intake::BattleScribe { file, imported }
            }
            Err(diagnostic) => Intake::Refused {
                file: None,
                diagnostic: *diagnostic,
            },
        };
    }
    match roster::decode(bytes) {
        // The decoded text becomes the file as it is, without a copy.
        Ok(text) => from_file(catalogue, SourceFile::new(name, text)),
        Err(d) => Intake::Refused {
            file: None,
            diagnostic: d.diagnostic(),
        },
    }
}

/// A roster given as text: a muster share link (`crate::share`), a
/// Snapfire share link (read into roster text;
/// a link that cannot be read gives one error pointing into the link),
/// else roster text.
pub fn from_file<'c>(catalogue: &'c Catalogue, file: SourceFile) -> Intake<'c> {
    let text = file.text();
    // muster's own share link: the roster text it carries, as it is.
    if crate::share::is_link(text) {
        return match crate::share::read(text) {
            Ok(roster) => from_file(catalogue, SourceFile::new(file.name(), roster)),
            Err(error) => Intake::Refused {
                diagnostic: Diagnostic::error(Code::ShareLink, error.to_string()),
                file: Some(file),
            },
        };
    }
    if !snapfire::is_link(text) {
        return Intake::Text(file);
    }
    let imported = snapfire::Link::parse(text)
        .and_then(|link| snapfire::to_roster(&link, catalogue).map(|imported| (link, imported)));
    match imported {
        Ok((link, imported)) => Intake::Link {
            file: SourceFile::new(file.name(), &imported.roster),
            army_name: link.name,
        },
        Err(error) => {
            let mut d = Diagnostic::error(Code::SnapfireLink, error.to_string()).at(&file, error.span);
            if let Some(hint) = error.hint() {
                d = d.hint(hint);
            }
            Intake::Refused {
                file: Some(file),
                diagnostic: d,
            }
        }
    }
}
