//! Datasheet values through the notation grammar (`crate::notation`), for
//! the games whose datasheets are written in it (Epic Armageddon), and ship
//! datasheet values through the ship notation (Battlefleet Gothic).
//!
//! Returns the parsed sheet, or every value that is not notation with the
//! path of the field inside the datasheet, so that `link` can report the
//! file, unit, field and position. It reports nothing itself.

use super::raw::{self, GameId, Known};
use crate::notation::heresy::{self, HeresySheet};
use crate::notation::ship::{self, ShipSheet, ShipWeaponLine, Stat};
use crate::notation::space_fleet::{self, SfSheet};
use crate::notation::{self, NotationError, Sheet, WeaponLine};

/// A value that does not parse: the path below the unit (`weapons/0/range`),
/// the field for humans, the value and what is wrong.
#[derive(Debug)]
pub struct FieldError {
    pub path: String,
    pub field: String,
    pub value: String,
    pub error: NotationError,
}

fn known(value: &Known<String>) -> Option<&str> {
    value.value().map(String::as_str)
}

/// Whether a game's datasheets use the notation grammar.
pub(super) fn has_notation(game: GameId) -> bool {
    game.game().notation == crate::games::Notation::Epic
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

/// A ship datasheet's values through the ship notation. A `missing` value
/// stays missing; a value that does not parse is a `FieldError` with its
/// path below the ship (`weapons/2/arc`).
pub(super) fn parse_ship(ship: &raw::ShipDatasheet) -> Result<ShipSheet, Vec<FieldError>> {
    let mut fields = Fields { errors: Vec::new() };
    let hull = stat(&mut fields, "type", "type".into(), &ship.hull, ship::parse_hull);
    let speed = stat(
        &mut fields,
        "speed",
        "speed".into(),
        &ship.speed,
        ship::parse_ship_speed,
    );
    let turns = stat(
        &mut fields,
        "turns",
        "turns".into(),
        &ship.turns,
        ship::parse_turns,
    );
    let shields = stat(
        &mut fields,
        "shields",
        "shields".into(),
        &ship.shields,
        ship::parse_count,
    );
    let armour = stat(
        &mut fields,
        "armour",
        "armour".into(),
        &ship.armour,
        ship::parse_armour,
    );
    let turrets = stat(
        &mut fields,
        "turrets",
        "turrets".into(),
        &ship.turrets,
        ship::parse_count,
    );
    let mut weapons = Vec::new();
    for (w, weapon) in ship.weapons.iter().enumerate() {
        let label = format!("weapon {} ({})", w + 1, weapon.name);
        let path = |field: &str| format!("weapons/{w}/{field}");
        let name = fields.take(
            path("name"),
            format!("{label} name"),
            &weapon.name,
            ship::parse_ship_weapon_name,
        );
        let range = weapon.range.as_ref().map(|r| {
            stat(
                &mut fields,
                &path("range"),
                format!("{label} range"),
                r,
                ship::parse_ship_range,
            )
        });
        let strength = stat(
            &mut fields,
            &path("firepower"),
            format!("{label} firepower"),
            &weapon.firepower,
            ship::parse_strength,
        );
        let arc = weapon.arc.as_ref().map(|a| {
            stat(
                &mut fields,
                &path("arc"),
                format!("{label} arc"),
                a,
                ship::parse_arcs,
            )
        });
        let craft: Vec<_> = (weapon.craft.iter().enumerate())
            .filter_map(|(c, text)| {
                fields.take(
                    path(&format!("craft/{c}")),
                    format!("{label} craft {}", c + 1),
                    text,
                    ship::parse_craft,
                )
            })
            .collect();
        if let (Some(name), Some(range), Some(strength), Some(arc)) =
            (name, optional(range), strength, optional(arc))
        {
            weapons.push(ShipWeaponLine {
                name,
                range,
                strength,
                arc,
                craft,
            });
        }
    }
    match (hull, speed, turns, shields, armour, turrets) {
        (Some(hull), Some(speed), Some(turns), Some(shields), Some(armour), Some(turrets))
            if fields.errors.is_empty() =>
        {
            Ok(ShipSheet {
                hull,
                speed,
                turns,
                shields,
                armour,
                turrets,
                weapons,
            })
        }
        _ => Err(fields.errors),
    }
}

/// A value that may be `missing`: `Some(Stat::Missing)` for that, `None`
/// when it does not parse (the error is recorded).
fn stat<T>(
    fields: &mut Fields,
    path: &str,
    field: String,
    value: &Known<String>,
    parse: impl Fn(&str) -> Result<T, NotationError>,
) -> Option<Stat<T>> {
    match value.value() {
        None => Some(Stat::Missing),
        Some(text) => fields.take(path.to_string(), field, text, parse).map(Stat::Known),
    }
}

/// A field a row may lack: `Some(None)` when absent, `Some(Some(v))` when
/// it parsed, `None` when it did not.
fn optional<T>(field: Option<Option<T>>) -> Option<Option<T>> {
    field.map_or(Some(None), |parsed| parsed.map(Some))
}

/// A Space Fleet datasheet's values through its notation. A line the
/// sheet lacks stays `None`, a `missing` value stays missing; a value that
/// does not parse, or a weapon whose dice do not match the sheet's range
/// bands, is a `FieldError` with its path below the ship.
pub(super) fn parse_sf_ship(ship: &raw::SfShipDatasheet) -> Result<SfSheet, Vec<FieldError>> {
    let mut fields = Fields { errors: Vec::new() };
    let speed = sf_line(&mut fields, "speed", &ship.speed, space_fleet::parse_speed);
    let damage = sf_line(&mut fields, "damage", &ship.damage, space_fleet::parse_number);
    let wounds = sf_line(&mut fields, "wounds", &ship.wounds, space_fleet::parse_number);
    let command_cards = sf_line(
        &mut fields,
        "command_cards",
        &ship.command_cards,
        space_fleet::parse_cards,
    );
    let points = sf_line(&mut fields, "points", &ship.points, space_fleet::parse_points);
    let squadrons = sf_line(
        &mut fields,
        "squadrons",
        &ship.squadrons,
        space_fleet::parse_limit,
    );
    let ships = sf_line(&mut fields, "ships", &ship.ships, space_fleet::parse_limit);
    let shields = sf_line(&mut fields, "shields", &ship.shields, space_fleet::parse_shields);
    let bands = sf_line(&mut fields, "bands", &ship.bands, space_fleet::parse_bands);
    let band_count = match &bands {
        Some(Some(Stat::Known(b))) => Some(b.0.len()),
        _ => None,
    };
    let mut weapons = Vec::new();
    for (w, weapon) in ship.weapons.iter().enumerate() {
        let label = format!("weapon {} ({})", w + 1, weapon.name);
        let path = |field: &str| format!("weapons/{w}/{field}");
        let name = fields.take(
            path("name"),
            format!("{label} name"),
            &weapon.name,
            space_fleet::parse_weapon,
        );
        let arc = stat(
            &mut fields,
            &path("arc"),
            format!("{label} arc"),
            &weapon.arc,
            space_fleet::parse_arc,
        );
        let mut dice = stat(
            &mut fields,
            &path("dice"),
            format!("{label} dice"),
            &weapon.dice,
            space_fleet::parse_dice,
        );
        if let (Some(Stat::Known(space_fleet::Dice::Bands(cells))), Some(count), Some(text)) =
            (&dice, band_count, weapon.dice.value())
            && cells.len() != count
        {
            fields.errors.push(FieldError {
                path: path("dice"),
                field: format!("{label} dice"),
                value: text.clone(),
                error: NotationError {
                    offset: 0,
                    column: 1,
                    expected: format!(
                        "one value per range band of the sheet ({count}), not {}",
                        cells.len()
                    ),
                    suggestion: None,
                },
            });
            dice = None;
        }
        if let (Some(name), Some(arc), Some(dice)) = (name, arc, dice) {
            weapons.push(space_fleet::WeaponLine { name, arc, dice });
        }
    }
    if !fields.errors.is_empty() {
        return Err(fields.errors);
    }
    Ok(SfSheet {
        speed: speed.flatten(),
        damage: damage.flatten(),
        wounds: wounds.flatten(),
        command_cards: command_cards.flatten(),
        points: points.flatten(),
        squadrons: squadrons.flatten(),
        ships: ships.flatten(),
        shields: shields.flatten(),
        bands: bands.flatten(),
        weapons,
    })
}

/// An optional line: `None` when the sheet lacks it, `Some(None)` when it
/// does not parse (the error is recorded).
fn sf_line<T>(
    fields: &mut Fields,
    key: &str,
    value: &Option<Known<String>>,
    parse: impl Fn(&str) -> Result<T, NotationError>,
) -> Option<Option<Stat<T>>> {
    value
        .as_ref()
        .map(|v| stat(fields, key, key.to_string(), v, parse))
}

/// A value that parsed but lies outside what the rules allow.
fn out_of_bounds(expected: String) -> NotationError {
    NotationError {
        offset: 0,
        column: 1,
        expected,
        suggestion: None,
    }
}

/// A rating that must lie between `low` and `high` (armour and accuracy
/// 1 to 10, leadership 1 to 10: 004 lines 303 and 713).
fn bounded(low: u32, high: u32) -> impl Fn(&str) -> Result<u32, NotationError> {
    move |text| {
        let n = heresy::parse_rating(text)?;
        if (low..=high).contains(&n) {
            Ok(n)
        } else {
            Err(out_of_bounds(format!("a number from {low} to {high}")))
        }
    }
}

/// Morale falls as a battlegroup loses heart: no level may be above the
/// one before it (`5/4/3`, 004 lines 741-745).
fn morale(text: &str) -> Result<heresy::Morale, NotationError> {
    let m = heresy::parse_morale(text)?;
    if m.fresh > 10 || m.fatigued > m.fresh || m.routed > m.fatigued {
        return Err(out_of_bounds(
            "morale as fresh/fatigued/routed, each at most the one before and fresh at most 10".into(),
        ));
    }
    Ok(m)
}

/// Short range within long range.
fn range(text: &str) -> Result<heresy::Range, NotationError> {
    let r = heresy::parse_range(text)?;
    if let heresy::Range::ShortLong(a, b) = r
        && a >= b
    {
        return Err(out_of_bounds(format!(
            "a short range below the long one, not {a} then {b}"
        )));
    }
    Ok(r)
}

/// Penetration 0 to 5 (004 line 309 gives 1 to 5; 0 is allowed for a weapon
/// that adds nothing).
fn penetration(text: &str) -> Result<heresy::Penetration, NotationError> {
    let p = heresy::parse_penetration(text)?;
    if let heresy::Penetration::Bonus(n) = p
        && n > 5
    {
        return Err(out_of_bounds("a penetration from +0 to +5".into()));
    }
    Ok(p)
}

/// A Heresy datasheet's values through its notation. A `missing` value
/// stays missing; a value that does not parse or lies outside the rules'
/// bounds is a `FieldError` with its path below the unit.
pub(super) fn parse_heresy_unit(unit: &raw::HeresyUnitDatasheet) -> Result<HeresySheet, Vec<FieldError>> {
    let mut fields = Fields { errors: Vec::new() };
    let propulsion = stat(
        &mut fields,
        "type",
        "type".into(),
        &unit.propulsion,
        heresy::parse_propulsion,
    );
    let movement = stat(
        &mut fields,
        "move",
        "move".into(),
        &unit.movement,
        heresy::parse_move,
    );
    let armour = stat(
        &mut fields,
        "armour",
        "armour".into(),
        &unit.armour,
        bounded(1, 10),
    );
    let accuracy = stat(
        &mut fields,
        "accuracy",
        "accuracy".into(),
        &unit.accuracy,
        bounded(1, 10),
    );
    let assault = stat(
        &mut fields,
        "assault",
        "assault".into(),
        &unit.assault,
        heresy::parse_rating,
    );
    let morale = stat(&mut fields, "morale", "morale".into(), &unit.morale, morale);
    let leadership = sf_line(&mut fields, "leadership", &unit.leadership, bounded(1, 10));
    let mastery = sf_line(&mut fields, "mastery", &unit.mastery, bounded(1, 99));
    let damage = sf_line(&mut fields, "damage", &unit.damage, bounded(1, 99));
    let mut weapons = Vec::new();
    for (w, weapon) in unit.weapons.iter().enumerate() {
        let label = format!("weapon {} ({})", w + 1, weapon.name);
        let path = |field: &str| format!("weapons/{w}/{field}");
        let range = stat(
            &mut fields,
            &path("range"),
            format!("{label} range"),
            &weapon.range,
            range,
        );
        let penetration = stat(
            &mut fields,
            &path("penetration"),
            format!("{label} penetration"),
            &weapon.penetration,
            penetration,
        );
        let firepower = stat(
            &mut fields,
            &path("firepower"),
            format!("{label} firepower"),
            &weapon.firepower,
            heresy::parse_firepower,
        );
        let weapon_type = stat(
            &mut fields,
            &path("type"),
            format!("{label} type"),
            &weapon.weapon_type,
            heresy::parse_weapon_type,
        );
        let mount = weapon.mount.as_ref().map(|m| {
            stat(
                &mut fields,
                &path("mount"),
                format!("{label} mount"),
                m,
                heresy::parse_mount,
            )
        });
        if let (Some(range), Some(penetration), Some(firepower), Some(weapon_type), Some(mount)) =
            (range, penetration, firepower, weapon_type, optional(mount))
        {
            weapons.push(heresy::WeaponLine {
                name: weapon.name.clone(),
                range,
                penetration,
                firepower,
                weapon_type,
                mount,
            });
        }
    }
    let mut skills = Vec::new();
    for (i, text) in unit.skills.iter().enumerate() {
        if let Some(skill) = fields.take(
            format!("skills/{i}"),
            format!("skill {}", i + 1),
            text,
            heresy::parse_skill,
        ) {
            skills.push(skill);
        }
    }
    if !fields.errors.is_empty() {
        return Err(fields.errors);
    }
    match (propulsion, movement, armour, accuracy, assault, morale) {
        (Some(propulsion), Some(movement), Some(armour), Some(accuracy), Some(assault), Some(morale)) => {
            Ok(HeresySheet {
                propulsion,
                movement,
                armour,
                accuracy,
                assault,
                morale,
                leadership: leadership.flatten(),
                mastery: mastery.flatten(),
                damage: damage.flatten(),
                weapons,
                skills,
            })
        }
        // Every `None` above recorded an error.
        _ => Err(fields.errors),
    }
}

/// A NetEpic datasheet's values through its notation. A `missing` value
/// stays missing; a value that does not parse is a `FieldError` with its
/// path below the unit.
pub(super) fn parse_ne_unit(
    unit: &raw::NeUnitDatasheet,
) -> Result<crate::notation::netepic::NeSheet, Vec<FieldError>> {
    use crate::notation::netepic as ne;
    let mut fields = Fields { errors: Vec::new() };
    let class = stat(
        &mut fields,
        "class",
        "class".into(),
        &unit.class,
        ne::parse_classes,
    );
    let moves = stat(&mut fields, "move", "move".into(), &unit.moves, ne::parse_move);
    let save = stat(&mut fields, "save", "save".into(), &unit.save, ne::parse_save);
    let caf = stat(&mut fields, "caf", "CAF".into(), &unit.caf, ne::parse_caf);
    let morale = unit
        .morale
        .as_ref()
        .map(|m| stat(&mut fields, "morale", "morale".into(), m, ne::parse_morale));
    let mut weapons = Vec::new();
    for (w, text) in unit.weapons.iter().enumerate() {
        if let Some(weapon) = fields.take(
            format!("weapons/{w}"),
            format!("weapon {}", w + 1),
            text,
            ne::parse_weapon,
        ) {
            weapons.push(weapon);
        }
    }
    let mut abilities = Vec::new();
    for (a, text) in unit.abilities.iter().enumerate() {
        if let Some(ability) = fields.take(
            format!("abilities/{a}"),
            format!("ability {}", a + 1),
            text,
            ne::parse_ability,
        ) {
            abilities.push(ability);
        }
    }
    if !fields.errors.is_empty() {
        return Err(fields.errors);
    }
    match (class, moves, save, caf) {
        (Some(class), Some(moves), Some(save), Some(caf)) => Ok(ne::NeSheet {
            class,
            moves,
            save,
            caf,
            morale: morale.flatten(),
            weapons,
            abilities,
        }),
        _ => Err(Vec::new()),
    }
}
