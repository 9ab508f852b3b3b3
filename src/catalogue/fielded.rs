//! Units as fielded: an upgrade's `fielded` changes (`raw::ProfileChange`)
//! applied to a datasheet as written, giving the datasheet a roster's unit
//! really has (a Lunar with a Nova Cannon and no prow torpedoes).
//!
//! The result is a datasheet in the file format, so the usual parse and
//! print paths read it; the rows and values the changes touched are marked
//! for the crib sheet. Linking proves each change against the datasheets
//! it applies to (`check`), so printing never meets a name it cannot find.

use super::kinds::{EpicKind, NetEpicKind, SheetKind, ShipKind, field_message};
pub use super::raw::Stat;
use super::raw::{self, AddedWeapon, Known, ProfileChange, WeaponChange};
use super::{Catalogue, Formation, GameId};

/// A datasheet with changes applied, and what they touched.
#[derive(Debug, Clone)]
pub struct Applied<T> {
    pub sheet: T,
    /// One flag per weapon row of `sheet`: changed, added or chosen.
    pub changed_rows: Vec<bool>,
    /// The unit values changed.
    pub changed_stats: Vec<Stat>,
    /// How many notes at the end of the sheet's notes were added.
    pub added_notes: usize,
}

impl<T> Applied<T> {
    /// The same changes over what `f` makes of the sheet (a printed card).
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Applied<U> {
        Applied {
            sheet: f(self.sheet),
            changed_rows: self.changed_rows,
            changed_stats: self.changed_stats,
            added_notes: self.added_notes,
        }
    }
}

/// The datasheet ids a change of upgrade `upgrade` applies to: those it
/// names, or else the units of every formation offered the upgrade.
pub fn targets(
    formations: &[Formation],
    units: &[String],
    upgrade: usize,
    change: &ProfileChange,
) -> Vec<String> {
    if !change.units.is_empty() {
        return change.units.clone();
    }
    let mut out: Vec<String> = Vec::new();
    for f in formations.iter().filter(|f| f.upgrades.contains(&upgrade)) {
        for &(u, _) in &f.units {
            if let Some(id) = units.get(u)
                && !out.contains(id)
            {
                out.push(id.clone());
            }
        }
    }
    out
}

/// Whether a change of upgrade `upgrade` applies to datasheet `id`.
pub fn applies(
    formations: &[Formation],
    units: &[String],
    upgrade: usize,
    change: &ProfileChange,
    id: &str,
) -> bool {
    targets(formations, units, upgrade, change)
        .iter()
        .any(|t| t == id)
}

/// The weapons the list's weapon choices name for datasheet `id`: a unit
/// that took any choice carries only the chosen ones of these.
pub fn choices(list: &super::ArmyList, id: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (u, upgrade) in list.upgrades.iter().enumerate() {
        for change in &upgrade.fielded {
            if applies(&list.formations, &list.units, u, change, id) {
                for name in &change.choose {
                    if !out.iter().any(|o| same(o, name)) {
                        out.push(name.clone());
                    }
                }
            }
        }
    }
    out
}

fn same(a: &str, b: &str) -> bool {
    a.trim().eq_ignore_ascii_case(b.trim())
}

/// A weapon row of one game's datasheets.
trait Row: Clone {
    fn name(&self) -> &str;
    /// The range as written (empty for none).
    fn range(&self) -> &str;
    fn set(&mut self, change: &WeaponChange) -> Result<(), String>;
    fn added(weapon: &AddedWeapon) -> Result<Self, String>;
}

/// A ship value as written: `missing` where the sources do not give it.
fn ship_value(text: &str) -> Known<String> {
    if text == "missing" {
        Known::Missing(raw::MissingMarker::Missing)
    } else {
        Known::Value(text.to_string())
    }
}

impl Row for raw::ShipWeapon {
    fn name(&self) -> &str {
        &self.name
    }

    fn range(&self) -> &str {
        self.range
            .as_ref()
            .and_then(Known::value)
            .map_or("", String::as_str)
    }

    fn set(&mut self, change: &WeaponChange) -> Result<(), String> {
        if change.notes.is_some() {
            return Err(format!(
                "changes the notes of `{}`, which ship weapons do not have",
                change.weapon
            ));
        }
        if let Some(name) = &change.name {
            self.name = name.clone();
        }
        if let Some(range) = &change.range {
            self.range = Some(ship_value(range));
        }
        if let Some(firepower) = &change.firepower {
            self.firepower = ship_value(firepower);
        }
        if let Some(arc) = &change.arc {
            self.arc = Some(Known::Value(arc.clone()));
        }
        if let Some(craft) = &change.craft {
            self.craft = craft.clone();
        }
        Ok(())
    }

    fn added(w: &AddedWeapon) -> Result<Self, String> {
        if !w.notes.is_empty() {
            return Err(format!(
                "adds `{}` with notes, which ship weapons do not have",
                w.name
            ));
        }
        let Some(firepower) = &w.firepower else {
            return Err(format!(
                "adds `{}` without a firepower (or `from` a datasheet)",
                w.name
            ));
        };
        Ok(raw::ShipWeapon {
            name: w.name.clone(),
            range: w.range.as_deref().map(ship_value),
            firepower: ship_value(firepower),
            arc: w.arc.as_deref().map(ship_value),
            craft: w.craft.clone(),
        })
    }
}

impl Row for raw::Weapon {
    fn name(&self) -> &str {
        &self.name
    }

    fn range(&self) -> &str {
        &self.range
    }

    fn set(&mut self, change: &WeaponChange) -> Result<(), String> {
        if change.arc.is_some() || change.craft.is_some() {
            return Err(format!(
                "gives `{}` an arc or craft, which Epic weapons do not have",
                change.weapon
            ));
        }
        if let Some(name) = &change.name {
            self.name = name.clone();
        }
        if let Some(range) = &change.range {
            self.range = range.clone();
        }
        if let Some(firepower) = &change.firepower {
            self.firepower = firepower.clone();
        }
        if let Some(notes) = &change.notes {
            self.notes = notes.clone();
        }
        Ok(())
    }

    fn added(w: &AddedWeapon) -> Result<Self, String> {
        if w.arc.is_some() || !w.craft.is_empty() {
            return Err(format!(
                "adds `{}` with an arc or craft, which Epic weapons do not have",
                w.name
            ));
        }
        let (Some(range), Some(firepower)) = (&w.range, &w.firepower) else {
            return Err(format!(
                "adds `{}` without a range and firepower (or `from` a datasheet)",
                w.name
            ));
        };
        Ok(raw::Weapon {
            name: w.name.clone(),
            range: range.clone(),
            firepower: firepower.clone(),
            notes: w.notes.clone(),
        })
    }
}

/// A NetEpic weapon as written (`Volcano Cannon (carapace or arm): 100cm
/// 1d 3+ (-4)`); its name is what comes before the profile. Only chosen,
/// removed or copied from another datasheet: its profile is notation the
/// changes do not rewrite.
#[derive(Debug, Clone)]
struct NeWeapon(String);

impl Row for NeWeapon {
    fn name(&self) -> &str {
        // The notation's weapon name runs to the first colon.
        self.0.split(':').next().unwrap_or_default().trim()
    }

    fn range(&self) -> &str {
        ""
    }

    fn set(&mut self, change: &WeaponChange) -> Result<(), String> {
        Err(format!(
            "changes `{}`, but NetEpic weapons are only chosen, removed or added from another datasheet",
            change.weapon
        ))
    }

    fn added(weapon: &AddedWeapon) -> Result<Self, String> {
        Err(format!(
            "adds `{}` with values, but NetEpic weapons are added only `from` another datasheet",
            weapon.name
        ))
    }
}

/// The weapon rows with `changes` applied, each flagged when touched.
/// `from` gives another datasheet's rows (for `add.from`).
fn rows<R: Row>(
    unit: &str,
    stock: &[R],
    changes: &[&ProfileChange],
    optional: &[String],
    from: &dyn Fn(&str) -> Option<Vec<R>>,
) -> Result<Vec<(R, bool)>, String> {
    let mut rows: Vec<(R, bool)> = stock.iter().cloned().map(|r| (r, false)).collect();
    let names = |rows: &[(R, bool)]| {
        rows.iter()
            .map(|(r, _)| format!("`{}`", r.name()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let missing = |what: &str, name: &str, rows: &[(R, bool)]| {
        format!(
            "{what} `{name}`, which datasheet `{unit}` does not have (its weapons: {})",
            if rows.is_empty() {
                "none".to_string()
            } else {
                names(rows)
            }
        )
    };
    let mut chosen: Vec<&str> = Vec::new();
    for change in changes {
        let mut at: Option<usize> = None;
        for name in &change.remove {
            let first = rows.iter().position(|(r, _)| same(r.name(), name));
            let Some(first) = first else {
                return Err(missing("removes", name, &rows));
            };
            at = Some(at.map_or(first, |a: usize| a.min(first)));
            rows.retain(|(r, _)| !same(r.name(), name));
        }
        for c in &change.change {
            let mut found = false;
            let picked = |r: &R| {
                same(r.name(), &c.weapon) && c.only_range.as_ref().is_none_or(|range| same(r.range(), range))
            };
            for (row, touched) in rows.iter_mut().filter(|(r, _)| picked(r)) {
                row.set(c)?;
                *touched = true;
                found = true;
            }
            if !found {
                let what = match &c.only_range {
                    Some(range) => format!("{} at {range}", c.weapon),
                    None => c.weapon.clone(),
                };
                return Err(missing("changes", &what, &rows));
            }
        }
        let mut added: Vec<(R, bool)> = Vec::new();
        for w in &change.add {
            match &w.from {
                Some(other) => {
                    if w.range.is_some()
                        || w.firepower.is_some()
                        || w.arc.is_some()
                        || !w.notes.is_empty()
                        || !w.craft.is_empty()
                    {
                        return Err(format!(
                            "adds `{}` from `{other}` and gives values too: give one or the other",
                            w.name
                        ));
                    }
                    let Some(theirs) = from(other) else {
                        return Err(format!(
                            "adds `{}` from `{other}`, which is no datasheet of the game",
                            w.name
                        ));
                    };
                    let copied: Vec<R> = theirs.into_iter().filter(|r| same(r.name(), &w.name)).collect();
                    if copied.is_empty() {
                        return Err(format!(
                            "adds `{}` from `{other}`, which has no weapon of that name",
                            w.name
                        ));
                    }
                    added.extend(copied.into_iter().map(|r| (r, true)));
                }
                None => added.push((R::added(w)?, true)),
            }
        }
        let at = at.unwrap_or(rows.len()).min(rows.len());
        rows.splice(at..at, added);
        for name in &change.choose {
            if !rows.iter().any(|(r, _)| same(r.name(), name)) {
                return Err(missing("chooses", name, &rows));
            }
            chosen.push(name);
        }
    }
    if !chosen.is_empty() {
        rows.retain(|(r, _)| {
            let optional = optional.iter().any(|o| same(o, r.name()));
            !optional || chosen.iter().any(|c| same(c, r.name()))
        });
        for (row, touched) in &mut rows {
            if chosen.iter().any(|c| same(c, row.name())) {
                *touched = true;
            }
        }
    }
    Ok(rows)
}

/// A datasheet as written whose weapons, values and notes upgrades change.
trait Written: Clone {
    type Row: Row;
    /// What a message calls it (`ship datasheet`).
    const KIND: &'static str;
    fn id(&self) -> &str;
    /// The value of `stat`, where this kind of datasheet has it.
    fn stat(&mut self, stat: Stat) -> Option<&mut Known<String>>;
    /// The weapon rows and the notes.
    fn lists(&mut self) -> (&mut Vec<Self::Row>, &mut Vec<String>);
}

/// `Written` for a datasheet type whose fields are named alike: its row
/// type, what messages call it, and how `Stat` picks its values.
macro_rules! written {
    ($sheet:ty, $row:ty, $kind:literal, $of:ident, $values:ident) => {
        impl Written for $sheet {
            type Row = $row;
            const KIND: &'static str = $kind;

            fn id(&self) -> &str {
                &self.id
            }

            fn stat(&mut self, stat: Stat) -> Option<&mut Known<String>> {
                stat.$of(raw::$values!(self))
            }

            fn lists(&mut self) -> (&mut Vec<$row>, &mut Vec<String>) {
                (&mut self.weapons, &mut self.notes)
            }
        }
    };
}

written!(
    raw::ShipDatasheet,
    raw::ShipWeapon,
    "ship datasheet",
    of_ship,
    ship_values
);
written!(raw::Datasheet, raw::Weapon, "datasheet", of_epic, epic_values);

/// `written` with `changes` applied: weapon rows (`optional` as for
/// `epic`; `from` gives another datasheet's rows), then values, then notes.
fn apply<S: Written>(
    written: &S,
    changes: &[&ProfileChange],
    optional: &[String],
    from: &dyn Fn(&str) -> Option<Vec<S::Row>>,
) -> Result<Applied<S>, String> {
    let mut sheet = written.clone();
    let (weapons, _) = sheet.lists();
    let changed_rows;
    (*weapons, changed_rows) = rows(written.id(), weapons, changes, optional, from)?
        .into_iter()
        .unzip();
    let mut changed_stats: Vec<Stat> = Vec::new();
    for (stat, value) in changes.iter().flat_map(|c| c.stats.entries()) {
        let Some(field) = sheet.stat(stat) else {
            return Err(format!(
                "changes `{stat}`, which {} `{}` does not have",
                S::KIND,
                written.id()
            ));
        };
        *field = Known::Value(value.to_string());
        if !changed_stats.contains(&stat) {
            changed_stats.push(stat);
        }
    }
    let (_, notes) = sheet.lists();
    let before = notes.len();
    notes.extend(changes.iter().flat_map(|c| c.notes.iter().cloned()));
    let added_notes = notes.len() - before;
    Ok(Applied {
        sheet,
        changed_rows,
        changed_stats,
        added_notes,
    })
}

/// A ship datasheet as fielded with `changes`; `optional` as for `epic`.
pub fn ship(
    catalogue: &Catalogue,
    game: GameId,
    ship: &raw::ShipDatasheet,
    changes: &[&ProfileChange],
    optional: &[String],
) -> Result<Applied<raw::ShipDatasheet>, String> {
    let from = |id: &str| catalogue.ship(game, id).map(|s| s.data.weapons.clone());
    apply(ship, changes, optional, &from)
}

/// An Epic datasheet as fielded with `changes`; `optional` are the
/// weapons the list's choices name for it (`choices`).
pub fn epic(
    catalogue: &Catalogue,
    game: GameId,
    unit: &raw::Datasheet,
    changes: &[&ProfileChange],
    optional: &[String],
) -> Result<Applied<raw::Datasheet>, String> {
    let from = |id: &str| catalogue.datasheet(game, id).map(|d| d.weapons.clone());
    apply(unit, changes, optional, &from)
}

/// A NetEpic datasheet as fielded with `changes` (weapons chosen, removed
/// or added from another datasheet; abilities added); `optional` as for
/// `epic`.
pub fn netepic(
    catalogue: &Catalogue,
    game: GameId,
    unit: &raw::NeUnitDatasheet,
    changes: &[&ProfileChange],
    optional: &[String],
) -> Result<Applied<raw::NeUnitDatasheet>, String> {
    let from = |id: &str| {
        catalogue
            .ne_unit(game, id)
            .map(|u| u.data.weapons.iter().cloned().map(NeWeapon).collect())
    };
    let stock: Vec<NeWeapon> = unit.weapons.iter().cloned().map(NeWeapon).collect();
    let (weapons, changed_rows): (Vec<NeWeapon>, Vec<bool>) =
        rows(&unit.id, &stock, changes, optional, &from)?
            .into_iter()
            .unzip();
    if let Some((stat, _)) = changes.iter().flat_map(|c| c.stats.entries()).next() {
        return Err(format!(
            "changes `{stat}`, which NetEpic datasheet `{}` does not change",
            unit.id
        ));
    }
    let mut sheet = unit.clone();
    sheet.weapons = weapons.into_iter().map(|w| w.0).collect();
    let before = sheet.abilities.len();
    sheet
        .abilities
        .extend(changes.iter().flat_map(|c| c.notes.iter().cloned()));
    let added_notes = sheet.abilities.len() - before;
    Ok(Applied {
        sheet,
        changed_rows,
        changed_stats: Vec::new(),
        added_notes,
    })
}

/// Proves the changes of upgrade number `upgrade` (`of`) against every
/// datasheet they apply to: each error is (JSON pointer inside the list
/// file, message).
pub(super) fn check(
    catalogue: &Catalogue,
    game: GameId,
    formations: &[Formation],
    units: &[String],
    upgrade: usize,
    of: &super::Upgrade,
    parse: bool,
) -> Vec<(String, String)> {
    let id = &of.id;
    let mut errors = Vec::new();
    for (i, change) in of.fielded.iter().enumerate() {
        let pointer = format!("/upgrades/{upgrade}/fielded/{i}");
        let targets = targets(formations, units, upgrade, change);
        if targets.is_empty() {
            errors.push((
                pointer.clone(),
                format!(
                    "upgrade `{id}` changes the profile of no unit: no formation with units is offered it (name them in `units`)"
                ),
            ));
        }
        for unit in targets {
            let result = if let Some(found) = catalogue.ship(game, &unit) {
                ship(catalogue, game, &found.data, &[change], &change.choose)
                    .and_then(|a| proven::<ShipKind>(parse, game, &a.sheet, &unit))
            } else if let Some(sheet) = catalogue.datasheet(game, &unit) {
                epic(catalogue, game, sheet.written(), &[change], &change.choose)
                    .and_then(|a| proven::<EpicKind>(parse, game, &a.sheet, &unit))
            } else if let Some(ne) = catalogue.ne_unit(game, &unit) {
                netepic(catalogue, game, &ne.data, &[change], &change.choose)
                    .and_then(|a| proven::<NetEpicKind>(parse, game, &a.sheet, &unit))
            } else {
                Err(format!(
                    "changes datasheet `{unit}`, which is no ship, Epic or NetEpic datasheet of {}",
                    game.as_str()
                ))
            };
            if let Err(message) = result {
                errors.push((pointer.clone(), format!("upgrade `{id}` as fielded: {message}")));
            }
        }
    }
    errors
}

/// `Ok` when a datasheet as fielded parses as its kind (or need not be
/// proven: `parse` is false, or the game's datasheets are not notation);
/// else every value that does not, in one message.
fn proven<K: SheetKind>(parse: bool, game: GameId, sheet: &K::Raw, unit: &str) -> Result<(), String> {
    if !parse || !K::has_notation(game) {
        return Ok(());
    }
    K::parse(sheet).map(|_| ()).map_err(|fields| {
        fields
            .iter()
            .map(|f| field_message::<K>(f, unit))
            .collect::<Vec<_>>()
            .join("; ")
    })
}
