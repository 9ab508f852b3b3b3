//! Datasheet values through the notation grammar (`crate::notation`), for
//! the games whose datasheets are written in it (Epic Armageddon).
//!
//! Returns the parsed sheet, or every value that is not notation with the
//! path of the field inside the datasheet, so that `link` can report the
//! file, unit, field and position. It reports nothing itself.

use super::raw::{self, GameId, Known};
use crate::notation::{self, NotationError, Sheet, WeaponLine};

/// A value that does not parse: the path below the unit (`weapons/0/range`),
/// the field for humans, the value and what is wrong.
#[derive(Debug)]
pub(super) struct FieldError {
    pub path: String,
    pub field: String,
    pub value: String,
    pub error: NotationError,
}

impl FieldError {
    pub fn message(&self, unit: &str) -> String {
        format!(
            "datasheet `{unit}`, {}: `{}` is not datasheet notation {}",
            self.field, self.value, self.error
        )
    }
}

fn known(value: &Known<String>) -> Option<&str> {
    value.value().map(String::as_str)
}

/// Whether a game's datasheets use the notation grammar.
pub(super) fn has_notation(game: GameId) -> bool {
    game == GameId::Netea
}

pub(super) fn parse(unit: &raw::Datasheet) -> Result<Sheet, Vec<FieldError>> {
    let mut fields = Fields { errors: Vec::new() };
    let stat = |fields: &mut Fields, key: &str, value: &Known<String>| {
        known(value).and_then(|v| fields.take(key.into(), key.into(), v, notation::parse_roll))
    };
    let speed = known(&unit.speed)
        .and_then(|v| fields.take("speed".into(), "speed".into(), v, notation::parse_speed));
    let armour = stat(&mut fields, "armour", &unit.armour);
    let cc = stat(&mut fields, "cc", &unit.cc);
    let ff = stat(&mut fields, "ff", &unit.ff);
    let mut weapons = Vec::new();
    for (w, weapon) in unit.weapons.iter().enumerate() {
        let label = format!("weapon {} ({})", w + 1, weapon.name);
        let path = |field: &str| format!("weapons/{w}/{field}");
        let name = fields.take(
            path("name"),
            format!("{label} name"),
            &weapon.name,
            notation::parse_weapon_name,
        );
        let range = fields.take(
            path("range"),
            format!("{label} range"),
            &weapon.range,
            notation::parse_range,
        );
        let firepower = fields.take(
            path("firepower"),
            format!("{label} firepower"),
            &weapon.firepower,
            notation::parse_firepower,
        );
        let notes: Vec<_> = (weapon.notes.iter().enumerate())
            .filter_map(|(n, note)| {
                fields.take(
                    path(&format!("notes/{n}")),
                    format!("{label} note {}", n + 1),
                    note,
                    notation::parse_weapon_note,
                )
            })
            .collect();
        if let (Some(name), Some(range), Some(firepower)) = (name, range, firepower) {
            weapons.push(WeaponLine {
                name,
                range,
                firepower,
                notes,
            });
        }
    }
    let notes = (unit.notes.iter().enumerate())
        .filter_map(|(n, note)| {
            fields.take(
                format!("notes/{n}"),
                format!("unit note {}", n + 1),
                note,
                notation::parse_unit_note,
            )
        })
        .collect();
    if !fields.errors.is_empty() {
        return Err(fields.errors);
    }
    Ok(Sheet {
        speed,
        armour,
        cc,
        ff,
        weapons,
        notes,
    })
}

/// Collects the values that do not parse.
struct Fields {
    errors: Vec<FieldError>,
}

impl Fields {
    fn take<T>(
        &mut self,
        path: String,
        field: String,
        value: &str,
        parse: impl Fn(&str) -> Result<T, NotationError>,
    ) -> Option<T> {
        match parse(value) {
            Ok(parsed) => Some(parsed),
            Err(error) => {
                self.errors.push(FieldError {
                    path,
                    field,
                    value: value.to_string(),
                    error,
                });
                None
            }
        }
    }
}
