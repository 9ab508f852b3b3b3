//! The one datasheet model: every kind of datasheet (an Epic unit, a
//! Battlefleet Gothic ship, a Space Fleet ship, a Heresy unit, a NetEpic
//! unit) is described by a [`SheetKind`]: its form as written, how it is
//! parsed, named and where the catalogue keeps it. The four kinds whose
//! datasheets are kept as written are one generic [`Sheet`]; the Epic
//! datasheet is kept flattened (`Datasheet`, read by every check) and
//! takes part through the same trait.
//!
//! Code that treats every kind alike (placing, the glossary check,
//! `explain`) goes through [`Catalogue::every_sheet`] and [`AnySheet`],
//! whose matches are exhaustive: a new kind is a new impl here, a
//! variant there and its name in `with_kinds!` (whence [`FIELDS`], the
//! keys that make a file a datasheet file).

use super::raw::{self, DatasheetFile, GameId};
use super::sheets::{self, FieldError};
use super::{Catalogue, Datasheet};
use std::sync::OnceLock;

/// One kind of datasheet: its raw form, parse, names and where it lives.
pub trait SheetKind: Sized + 'static {
    /// The datasheet as written in a datasheet file.
    type Raw;
    /// Its values through the game's notation.
    type Parsed;
    /// What the catalogue keeps of one.
    type Stored;
    /// The key of this kind's list in a datasheet file (`ships`).
    const FIELD: &'static str;
    /// What messages call one (`ship datasheet`).
    const NOUN: &'static str;
    /// What messages call its notation (`ship notation`).
    const NOTATION: &'static str;
    fn id(raw: &Self::Raw) -> &str;
    fn name(raw: &Self::Raw) -> &str;
    fn aliases(raw: &Self::Raw) -> &[String];
    /// Whether `game`'s datasheets of this kind are written in notation.
    fn has_notation(_game: GameId) -> bool {
        true
    }
    /// The values through the notation, or every value that is not.
    fn parse(raw: &Self::Raw) -> Result<Self::Parsed, Vec<FieldError>>;
    /// This kind's datasheets of a file.
    fn in_file(file: &DatasheetFile) -> &[Self::Raw];
    /// This kind's datasheets of a file, taken out of it.
    fn take(file: &mut DatasheetFile) -> Vec<Self::Raw>;
    /// The catalogue's datasheets of this kind.
    fn stored(catalogue: &Catalogue) -> &Vec<Self::Stored>;
    fn stored_mut(catalogue: &mut Catalogue) -> &mut Vec<Self::Stored>;
    /// What the catalogue keeps of a datasheet, with its values parsed
    /// already or to be parsed on first use.
    fn store(
        game: GameId,
        faction: &str,
        raw: Self::Raw,
        parsed: OnceLock<Option<Self::Parsed>>,
    ) -> Self::Stored;
    /// One kept datasheet, of whatever kind.
    fn any(stored: &Self::Stored) -> AnySheet<'_>;
}

/// A datasheet of one kind, as written (the Epic datasheet excepted, see
/// the module's text).
#[derive(Debug)]
pub struct Sheet<K: SheetKind> {
    pub game: GameId,
    /// The datasheet file's id (`imperial-navy`).
    pub faction: String,
    pub data: K::Raw,
    /// The values, parsed on first use (see `Datasheet::parsed`).
    pub(crate) parsed: OnceLock<Option<K::Parsed>>,
}

impl<K: SheetKind> Clone for Sheet<K>
where
    K::Raw: Clone,
    K::Parsed: Clone,
{
    fn clone(&self) -> Self {
        Sheet {
            game: self.game,
            faction: self.faction.clone(),
            data: self.data.clone(),
            parsed: self.parsed.clone(),
        }
    }
}

impl<K: SheetKind> Sheet<K> {
    /// This datasheet with other values as written (a unit or ship as
    /// fielded); they are parsed on first use.
    pub fn with_data(&self, data: K::Raw) -> Sheet<K> {
        Sheet {
            game: self.game,
            faction: self.faction.clone(),
            data,
            parsed: OnceLock::new(),
        }
    }

    /// The values, parsed; `None` when one does not parse (`lists --check`
    /// reports it).
    pub fn sheet(&self) -> Option<&K::Parsed> {
        self.parsed.get_or_init(|| K::parse(&self.data).ok()).as_ref()
    }

    /// Whether the values were parsed while loading.
    pub(crate) fn parsed_at_load(&self) -> bool {
        self.parsed.get().is_some()
    }

    pub fn id(&self) -> &str {
        K::id(&self.data)
    }
}

/// Battlefleet Gothic ships.
#[derive(Debug, Clone, Copy)]
pub enum ShipKind {}
/// Space Fleet ships.
#[derive(Debug, Clone, Copy)]
pub enum SfShipKind {}
/// Heresy units.
#[derive(Debug, Clone, Copy)]
pub enum HeresyKind {}
/// NetEpic Gold units.
#[derive(Debug, Clone, Copy)]
pub enum NetEpicKind {}
/// Epic Armageddon (and other Epic-notation) units, kept flattened.
#[derive(Debug, Clone, Copy)]
pub enum EpicKind {}

/// The parts every kind as written shares, and where it is kept.
macro_rules! written_kind {
    ($kind:ty, $raw:ty, $parsed:ty, $field:ident, $noun:literal, $notation:literal, $parse:path, $variant:ident) => {
        impl SheetKind for $kind {
            type Raw = $raw;
            type Parsed = $parsed;
            type Stored = Sheet<$kind>;
            const FIELD: &'static str = stringify!($field);
            const NOUN: &'static str = $noun;
            const NOTATION: &'static str = $notation;
            fn id(raw: &$raw) -> &str {
                &raw.id
            }
            fn name(raw: &$raw) -> &str {
                &raw.name
            }
            fn aliases(raw: &$raw) -> &[String] {
                &raw.aliases
            }
            fn parse(raw: &$raw) -> Result<Self::Parsed, Vec<FieldError>> {
                $parse(raw)
            }
            fn in_file(file: &DatasheetFile) -> &[$raw] {
                &file.$field
            }
            fn take(file: &mut DatasheetFile) -> Vec<$raw> {
                std::mem::take(&mut file.$field)
            }
            fn stored(catalogue: &Catalogue) -> &Vec<Sheet<$kind>> {
                &catalogue.$field
            }
            fn stored_mut(catalogue: &mut Catalogue) -> &mut Vec<Sheet<$kind>> {
                &mut catalogue.$field
            }
            fn store(
                game: GameId,
                faction: &str,
                data: $raw,
                parsed: OnceLock<Option<Self::Parsed>>,
            ) -> Sheet<$kind> {
                Sheet {
                    game,
                    faction: faction.to_string(),
                    data,
                    parsed,
                }
            }
            fn any(stored: &Sheet<$kind>) -> AnySheet<'_> {
                AnySheet::$variant(stored)
            }
        }
    };
}

written_kind!(
    ShipKind,
    raw::ShipDatasheet,
    crate::notation::ship::ShipSheet,
    ships,
    "ship datasheet",
    "ship notation",
    sheets::parse_ship,
    Ship
);
written_kind!(
    SfShipKind,
    raw::SfShipDatasheet,
    crate::notation::space_fleet::SfSheet,
    sf_ships,
    "ship datasheet",
    "Space Fleet notation",
    sheets::parse_sf_ship,
    SfShip
);
written_kind!(
    HeresyKind,
    raw::HeresyUnitDatasheet,
    crate::notation::heresy::HeresySheet,
    heresy_units,
    "unit datasheet",
    "Heresy notation",
    sheets::parse_heresy_unit,
    Heresy
);
written_kind!(
    NetEpicKind,
    raw::NeUnitDatasheet,
    crate::notation::netepic::NeSheet,
    ne_units,
    "unit datasheet",
    "NetEpic notation",
    sheets::parse_ne_unit,
    NetEpic
);

impl SheetKind for EpicKind {
    type Raw = raw::Datasheet;
    type Parsed = crate::notation::Sheet;
    type Stored = Datasheet;
    const FIELD: &'static str = "units";
    const NOUN: &'static str = "datasheet";
    const NOTATION: &'static str = "datasheet notation";
    fn id(raw: &raw::Datasheet) -> &str {
        &raw.id
    }
    fn name(raw: &raw::Datasheet) -> &str {
        &raw.name
    }
    fn aliases(raw: &raw::Datasheet) -> &[String] {
        &raw.aliases
    }
    fn has_notation(game: GameId) -> bool {
        sheets::has_notation(game)
    }
    fn parse(raw: &raw::Datasheet) -> Result<crate::notation::Sheet, Vec<FieldError>> {
        sheets::parse(raw)
    }
    fn in_file(file: &DatasheetFile) -> &[raw::Datasheet] {
        &file.units
    }
    fn take(file: &mut DatasheetFile) -> Vec<raw::Datasheet> {
        std::mem::take(&mut file.units)
    }
    fn stored(catalogue: &Catalogue) -> &Vec<Datasheet> {
        &catalogue.datasheets
    }
    fn stored_mut(catalogue: &mut Catalogue) -> &mut Vec<Datasheet> {
        &mut catalogue.datasheets
    }
    fn store(
        game: GameId,
        faction: &str,
        raw: raw::Datasheet,
        parsed: OnceLock<Option<crate::notation::Sheet>>,
    ) -> Datasheet {
        datasheet(game, faction, raw, parsed)
    }
    fn any(stored: &Datasheet) -> AnySheet<'_> {
        AnySheet::Epic(stored)
    }
}

/// A datasheet's value that does not parse, as a message naming the
/// datasheet and the kind's notation.
pub(super) fn field_message<K: SheetKind>(field: &FieldError, id: &str) -> String {
    format!(
        "{} `{id}`, {}: `{}` is not {} {}",
        K::NOUN,
        field.field,
        field.value,
        K::NOTATION,
        field.error
    )
}

/// One datasheet of any kind (exhaustive matches: a renderer says what it
/// does with each).
#[derive(Debug, Clone, Copy)]
pub enum AnySheet<'a> {
    Epic(&'a Datasheet),
    Ship(&'a Sheet<ShipKind>),
    SfShip(&'a Sheet<SfShipKind>),
    Heresy(&'a Sheet<HeresyKind>),
    NetEpic(&'a Sheet<NetEpicKind>),
}

impl<'a> AnySheet<'a> {
    pub fn game(self) -> GameId {
        match self {
            AnySheet::Epic(d) => d.game,
            AnySheet::Ship(s) => s.game,
            AnySheet::SfShip(s) => s.game,
            AnySheet::Heresy(s) => s.game,
            AnySheet::NetEpic(s) => s.game,
        }
    }

    pub fn id(self) -> &'a str {
        self.names().0
    }

    /// Id, name and aliases.
    fn names(self) -> (&'a str, &'a str, &'a [String]) {
        fn of<K: SheetKind>(raw: &K::Raw) -> (&str, &str, &[String]) {
            (K::id(raw), K::name(raw), K::aliases(raw))
        }
        match self {
            AnySheet::Epic(d) => (&d.id, &d.name, &d.aliases),
            AnySheet::Ship(s) => of::<ShipKind>(&s.data),
            AnySheet::SfShip(s) => of::<SfShipKind>(&s.data),
            AnySheet::Heresy(s) => of::<HeresyKind>(&s.data),
            AnySheet::NetEpic(s) => of::<NetEpicKind>(&s.data),
        }
    }

    /// Every name a user may call it by: id, name, then aliases.
    pub fn all_names(self) -> impl Iterator<Item = &'a str> {
        let (id, name, aliases) = self.names();
        [id, name].into_iter().chain(aliases.iter().map(String::as_str))
    }

    /// The glossary ids of a datasheet parsed while loading, which its
    /// game's glossary must have; `None` when it was not parsed then (a
    /// run that prints no datasheet parses none) or does not parse.
    pub fn glossary_ids_at_load(self) -> Option<Vec<&'static str>> {
        match self {
            AnySheet::Epic(d) => (d.parsed_at_load() && d.sheet().is_some()).then(|| d.glossary_ids()),
            AnySheet::Ship(s) => s.parsed_at_load().then(|| s.sheet())?.map(|p| p.glossary_ids()),
            AnySheet::SfShip(s) => {
                let mut ids = s.parsed_at_load().then(|| s.sheet())??.glossary_ids();
                if !s.data.critical.is_empty() {
                    ids.push("critical-damage");
                }
                Some(ids)
            }
            AnySheet::Heresy(s) => s.parsed_at_load().then(|| s.sheet())?.map(|p| p.glossary_ids()),
            AnySheet::NetEpic(s) => s.parsed_at_load().then(|| s.sheet())?.map(|p| p.glossary_ids()),
        }
    }
}

/// Every kind, each named once, handed to `then`: Epic units, then ships,
/// Space Fleet ships, Heresy units and NetEpic units. The one list of the
/// kinds: [`FIELDS`] and [`Catalogue::every_sheet`] are built from it.
macro_rules! with_kinds {
    ($then:ident) => {
        $then!(EpicKind, ShipKind, SfShipKind, HeresyKind, NetEpicKind)
    };
}

/// Each kind's key in a datasheet file (`units`, `ships`...), in
/// `with_kinds!`' order: a file with one of them is a datasheet file.
pub const FIELDS: &[&str] = {
    macro_rules! fields {
        ($($kind:ident),*) => {
            &[$($kind::FIELD),*]
        };
    }
    with_kinds!(fields)
};

impl Catalogue {
    /// Every datasheet of every kind: Epic units, then ships, Space Fleet
    /// ships, Heresy units and NetEpic units, each in catalogue order.
    pub fn every_sheet(&self) -> impl Iterator<Item = AnySheet<'_>> {
        fn of<K: SheetKind>(catalogue: &Catalogue) -> impl Iterator<Item = AnySheet<'_>> {
            K::stored(catalogue).iter().map(K::any)
        }
        let catalogue = self;
        macro_rules! chained {
            ($first:ident $(, $kind:ident)*) => {
                of::<$first>(catalogue)$(.chain(of::<$kind>(catalogue)))*
            };
        }
        with_kinds!(chained)
    }

    /// The datasheet of a kind kept as written, by game and id.
    pub fn find<K: SheetKind<Stored = Sheet<K>>>(&self, game: GameId, id: &str) -> Option<&Sheet<K>> {
        K::stored(self).iter().find(|s| s.game == game && s.id() == id)
    }
}

/// A written Epic datasheet as the catalogue keeps it.
pub(super) fn datasheet(
    game: raw::GameId,
    faction: &str,
    unit: raw::Datasheet,
    parsed: std::sync::OnceLock<Option<crate::notation::Sheet>>,
) -> Datasheet {
    Datasheet {
        game,
        id: unit.id,
        name: unit.name,
        aliases: unit.aliases,
        unit_type: unit.unit_type,
        speed: known_value(unit.speed),
        armour: known_value(unit.armour),
        cc: known_value(unit.cc),
        ff: known_value(unit.ff),
        weapons: unit.weapons,
        notes: unit.notes,
        critical_hit: unit.critical_hit,
        faction: faction.to_string(),
        remarks: unit.remarks,
        missing_why: unit.missing_why,
        parsed,
        written: std::sync::OnceLock::new(),
    }
}

fn known_value<T>(value: raw::Known<T>) -> Option<T> {
    match value {
        raw::Known::Value(v) => Some(v),
        raw::Known::Missing(_) => None,
    }
}
