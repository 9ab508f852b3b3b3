//! Battlefleet Gothic: the ships whose datasheets the sources lost or
//! scrambled, noted where the roster fields them.

use crate::catalogue::Catalogue;
use crate::diagnostic::{Code, Diagnostic};
use crate::resolve::Army;
use crate::source::SourceFile;

/// A note for each ship whose datasheet the sources lost or scrambled,
/// at its first line: its crib sheet lacks what `faults` describes.
pub fn faulty_datasheets(file: &SourceFile, army: &Army<'_>, catalogue: &Catalogue) -> Vec<Diagnostic> {
    // Most games have no ship datasheets: no looking each unit up then.
    if !catalogue.ships.iter().any(|s| s.game == army.list.game) {
        return Vec::new();
    }
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for f in &army.formations {
        for (unit, n) in f.units.iter().enumerate() {
            let Some(id) = army.list.units.get(unit).filter(|_| *n > 0) else {
                continue;
            };
            let Some(ship) = catalogue.ship(army.list.game, id) else {
                continue;
            };
            if ship.data.faults.is_empty() || seen.contains(&id) {
                continue;
            }
            seen.push(id);
            let more = match ship.data.faults.len() {
                1 => String::new(),
                n => format!(" ({} more)", n - 1),
            };
            out.push(
                Diagnostic::note(
                    Code::Unchecked,
                    format!(
                        "the sources' datasheet of the {} has faults{more}; its printed profile may be incomplete",
                        ship.data.name
                    ),
                )
                .at(file, f.name_span)
                .hint(ship.data.faults[0].clone())
                .hint(format!("`muster sheet {}` prints every fault", army.list.id)),
            );
        }
    }
    out
}
