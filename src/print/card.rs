//! The printed card every game's datasheets become: a name with what kind
//! of thing it is, its stat line, a weapons table and the lines under it
//! (notes, skills, faults, what the roster fielded). The stat keys, the
//! weapons table's columns and the lines' labels are typed, each printed
//! heading written once here. Each game's card module (`epic`, `ships`,
//! `space_fleet`, `heresy`, `netepic`) only builds `Card`s from its
//! datasheets; the renderers (`pdf::compose`, `templates/card.html`) draw
//! any card alike. Also what every game's cards share: the lines under
//! the table (`Line::listed`, `Line::faults`, `Line::plain`), a value as
//! printed or the words for one the sources do not give (`stat`, `raw`,
//! `NOT_IN_SOURCES`), and the glossary lines printed under the cards. It
//! imports none of the game modules.

use crate::catalogue::glossary::{Entry, Glossary};
use crate::catalogue::raw::Known;
use crate::notation::ship::Stat;
use std::collections::BTreeSet;
use std::fmt::Display;

/// Printed for a value the sources do not give.
pub const NOT_IN_SOURCES: &str = "not in the sources";

/// A parsed value as printed: in canonical notation, or the words for a
/// value the sources do not give.
pub fn stat<T: Display>(value: &Stat<T>) -> String {
    value
        .known()
        .map_or_else(|| NOT_IN_SOURCES.to_string(), ToString::to_string)
}

/// A value as written (where its sheet did not parse), or the words for
/// a value the sources do not give.
pub fn raw(value: &Known<String>) -> String {
    value
        .value()
        .cloned()
        .unwrap_or_else(|| NOT_IN_SOURCES.to_string())
}

/// A characteristic a card's stat line (or a grid's stat column) prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatKey {
    Speed,
    Turns,
    Shields,
    Armour,
    Turrets,
    Move,
    Accuracy,
    Assault,
    Morale,
    Leadership,
    Mastery,
    Damage,
    Wounds,
    CommandCards,
    Points,
    Squadrons,
    ShipsPerSquadron,
    PinningClass,
    Save,
    Caf,
    /// An Epic unit's type (`INF`).
    Type,
    Cc,
    Ff,
}

impl StatKey {
    /// The printed heading.
    pub fn heading(self) -> &'static str {
        match self {
            StatKey::Speed => "Speed",
            StatKey::Turns => "Turns",
            StatKey::Shields => "Shields",
            StatKey::Armour => "Armour",
            StatKey::Turrets => "Turrets",
            StatKey::Move => "Move",
            StatKey::Accuracy => "Accuracy",
            StatKey::Assault => "Assault",
            StatKey::Morale => "Morale",
            StatKey::Leadership => "Leadership",
            StatKey::Mastery => "Mastery",
            StatKey::Damage => "Damage",
            StatKey::Wounds => "Wounds",
            StatKey::CommandCards => "Command cards",
            StatKey::Points => "Points",
            StatKey::Squadrons => "Squadrons",
            StatKey::ShipsPerSquadron => "Ships per squadron",
            StatKey::PinningClass => "Pinning class",
            StatKey::Save => "Save",
            StatKey::Caf => "CAF",
            StatKey::Type => "Type",
            StatKey::Cc => "CC",
            StatKey::Ff => "FF",
        }
    }

    /// What an abbreviated heading stands for (HTML's `<abbr title>`).
    pub fn title(self) -> Option<&'static str> {
        match self {
            StatKey::Cc => Some("Close Combat"),
            StatKey::Ff => Some("Firefight"),
            _ => None,
        }
    }
}

/// A column of a weapons table (or of a grid of units).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Column {
    /// A grid's first column: the unit's name.
    Unit,
    Weapon,
    Range,
    /// Battlefleet Gothic: a gun's range, or the craft a bay launches.
    RangeOrCraft,
    Firepower,
    Arc,
    FireArc,
    Penetration,
    /// A Heresy weapon's type (`Light`, `Blast`).
    WeaponType,
    Mount,
    /// Space Fleet's dice at one range band, headed by the band (`1-6"`).
    Band(String),
    /// Space Fleet's dice where the sheet gives no bands.
    Dice,
    Attacks,
    ToHit,
    Tsm,
    Notes,
}

impl Column {
    /// The printed heading.
    pub fn heading(&self) -> &str {
        match self {
            Column::Unit => "Unit",
            Column::Weapon => "Weapon",
            Column::Range => "Range",
            Column::RangeOrCraft => "Range or craft",
            Column::Firepower => "Firepower",
            Column::Arc => "Arc",
            Column::FireArc => "Fire arc",
            Column::Penetration => "Penetration",
            Column::WeaponType => "Type",
            Column::Mount => "Mount",
            Column::Band(band) => band,
            Column::Dice => "Dice",
            Column::Attacks => "Attacks",
            Column::ToHit => "To hit",
            Column::Tsm => "TSM",
            Column::Notes => "Notes",
        }
    }

    /// The heading where a terminal's narrow table shortens it.
    pub fn short(&self) -> &str {
        match self {
            Column::Penetration => "Pen.",
            Column::Firepower => "FP",
            other => other.heading(),
        }
    }
}

/// One cell of a weapons table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cell {
    pub text: String,
    /// On a roster's crib sheet, in a weapon's name cell: the game's word
    /// for what the roster bought that put or changed the row (`refit`).
    pub mark: Option<&'static str>,
    /// Each note with its full name, for HTML's `<abbr title>` (Epic's
    /// notes); empty where the text prints as it is.
    pub abbrs: Vec<Abbr>,
}

impl Cell {
    pub fn new(text: impl Into<String>) -> Cell {
        Cell {
            text: text.into(),
            ..Cell::default()
        }
    }
}

/// An abbreviation and what it stands for (empty when unknown).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Abbr {
    pub text: String,
    pub title: String,
}

/// A card's weapons: the columns, each heading written once in `Column`,
/// and a row of cells per weapon, one per column.
#[derive(Debug, Clone, Default)]
pub struct WeaponTable {
    pub columns: Vec<Column>,
    /// Each column's share of the text width, the same for every card of
    /// a kind, so a sheet's columns line up from card to card.
    pub widths: Vec<f32>,
    pub rows: Vec<Vec<Cell>>,
}

impl WeaponTable {
    /// The headings, in order.
    pub fn headings(&self) -> Vec<&str> {
        self.columns.iter().map(Column::heading).collect()
    }
}

/// Whether a column of a printed table is printed: a column no row fills
/// (a Heresy army's initiative in a roster's formations) is dropped, its
/// width given to another. The one rule for every table that drops
/// columns.
pub fn filled<'a>(mut cells: impl Iterator<Item = &'a str>) -> bool {
    cells.any(|c| !c.trim().is_empty())
}

/// What a line under the table is, by its printed label.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKey {
    /// Said when a ship lists no weapons: the sources lost them.
    Weapons,
    Notes,
    Skills,
    CriticalDamage,
    CriticalHit,
    Class,
    PinningClass,
    Abilities,
    ArmyBookRules,
    SourceFault,
    AsFielded,
}

impl LineKey {
    /// The printed label, without its colon.
    pub fn label(self) -> &'static str {
        match self {
            LineKey::Weapons => "Weapons",
            LineKey::Notes => "Notes",
            LineKey::Skills => "Skills",
            LineKey::CriticalDamage => "Critical damage",
            LineKey::CriticalHit => "Critical hit",
            LineKey::Class => "Class",
            LineKey::PinningClass => "Pinning class",
            LineKey::Abilities => "Abilities",
            LineKey::ArmyBookRules => "Army book rules",
            LineKey::SourceFault => "Source fault",
            LineKey::AsFielded => "As fielded",
        }
    }
}

/// A line under a card's table: its label (none for a note printed as
/// it is) and its items, joined by `sep` when printed.
#[derive(Debug, Clone)]
pub struct Line {
    pub key: Option<LineKey>,
    pub items: Vec<String>,
    pub sep: &'static str,
}

impl Line {
    pub fn new(key: Option<LineKey>, items: Vec<String>, sep: &'static str) -> Line {
        Line { key, items, sep }
    }

    /// One item under a label.
    pub fn one(key: LineKey, item: impl Into<String>) -> Line {
        Line::new(Some(key), vec![item.into()], "")
    }

    /// A note printed as it is, with no label.
    pub fn plain(text: impl Into<String>) -> Line {
        Line::new(None, vec![text.into()], "")
    }

    /// `items` under `key` as one line joined by `sep`: a group of that
    /// line, or of none where there are no items.
    pub fn listed(key: LineKey, items: Vec<String>, sep: &'static str) -> Vec<Line> {
        match items.is_empty() {
            true => Vec::new(),
            false => vec![Line::new(Some(key), items, sep)],
        }
    }

    /// A line for each of the source's faults, in order.
    pub fn faults(faults: &[String]) -> Vec<Line> {
        (faults.iter())
            .map(|f| Line::one(LineKey::SourceFault, f.clone()))
            .collect()
    }

    /// The label as printed before the text: `Notes: `; empty for none.
    pub fn label(&self) -> String {
        self.key.map_or_else(String::new, |k| format!("{}: ", k.label()))
    }

    /// The text as printed: the items joined, a source fault's names
    /// quoted typographically.
    pub fn text(&self) -> String {
        let text = self.items.join(self.sep);
        match self.key {
            Some(LineKey::SourceFault) => crate::diagnostic::quoted(&text),
            _ => text,
        }
    }

    /// What the roster fielded: printed apart from the sheet's own lines.
    pub fn fielded(&self) -> bool {
        self.key == Some(LineKey::AsFielded)
    }
}

/// How a card sets off its kind and is classed on the page: a ship's hull
/// after its name in plain type, or a unit's kind set in its own style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Look {
    Ship,
    Unit,
}

/// One printed datasheet of any game.
#[derive(Debug, Clone)]
pub struct Card {
    /// The datasheet id.
    pub id: String,
    pub name: String,
    /// What kind of thing it is, after the name: a hull (`Cruiser/8`), a
    /// propulsion (`Foot`), a class; empty for none.
    pub kind: String,
    /// What `kind` stands for where it is an abbreviation (`Infantry` for
    /// `INF`, HTML's `<abbr title>`); empty otherwise.
    pub kind_name: String,
    pub look: Look,
    /// The stat line, in the card's order.
    pub stats: Vec<(StatKey, String)>,
    pub weapons: WeaponTable,
    /// Said in place of the weapons table when it has no rows, where that
    /// says something (a ship's weapons the sources lost).
    pub no_weapons: Option<Line>,
    /// The lines under the table, in order, in groups: the lines of a
    /// group run on in the HTML source, each group on a source line of
    /// its own (a card of each game keeps the groups it always had).
    pub groups: Vec<Vec<Line>>,
    /// What the card prints for a stat the sources do not give: `?` on
    /// an Epic card, `NOT_IN_SOURCES` on the others.
    pub missing_mark: &'static str,
}

impl Card {
    /// `Speed 20cm · Turns 45° · Shields 2`.
    pub fn stats_line(&self) -> String {
        self.stats_joined(" · ")
    }

    /// The stat line with `sep` between the values.
    pub fn stats_joined(&self, sep: &str) -> String {
        self.stats
            .iter()
            .map(|(k, v)| format!("{} {v}", k.heading()))
            .collect::<Vec<_>>()
            .join(sep)
    }

    /// The value of `key`, where the card has it.
    pub fn stat(&self, key: StatKey) -> Option<&str> {
        self.stats
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.as_str())
    }

    pub fn stat_mut(&mut self, key: StatKey) -> Option<&mut String> {
        self.stats.iter_mut().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    /// The lines under the table, in order.
    pub fn lines(&self) -> impl Iterator<Item = &Line> {
        self.groups.iter().flatten()
    }

    /// The items of the lines labelled `key`.
    pub fn items(&self, key: LineKey) -> impl Iterator<Item = &String> {
        self.lines()
            .filter(move |l| l.key == Some(key))
            .flat_map(|l| &l.items)
    }

    /// Whether a stat it prints is missing from the sources.
    pub fn has_missing(&self) -> bool {
        self.stats.iter().any(|(_, v)| v == self.missing_mark)
    }

    /// The note under a sheet that says what the card's mark for a
    /// missing value means, where a stat it prints is one: `? marks a
    /// value the sources do not give.`; a mark in words is quoted.
    pub fn missing_note(&self) -> Option<String> {
        let mark = match self.missing_mark.chars().count() {
            1 => self.missing_mark.to_string(),
            _ => crate::diagnostic::quoted(&format!("`{}`", self.missing_mark)),
        };
        self.has_missing()
            .then(|| format!("{mark} marks a value the sources do not give."))
    }

    /// What the roster fielded, replaced by `fielded`: after the card's
    /// own lines, in their last group.
    pub fn set_fielded(&mut self, fielded: Vec<String>) {
        for group in &mut self.groups {
            group.retain(|l| !l.fielded());
        }
        if self.groups.is_empty() {
            self.groups.push(Vec::new());
        }
        if let Some(last) = self.groups.last_mut() {
            last.extend(fielded.into_iter().map(|f| Line::one(LineKey::AsFielded, f)));
        }
    }
}

/// A glossary line: `MW`, `Macro-weapon`, summary. `name` is empty when the
/// term is its own name (`Walker`).
#[derive(Debug, Clone)]
pub struct GlossaryLine {
    pub term: String,
    pub name: String,
    pub summary: String,
}

/// The glossary lines of the terms `ids`, in glossary order; none where
/// the game has no glossary.
pub fn glossary_lines(glossary: Option<&Glossary>, ids: &BTreeSet<&str>) -> Vec<GlossaryLine> {
    let Some(glossary) = glossary else {
        return Vec::new();
    };
    (glossary.entries_for(ids).into_iter())
        .map(GlossaryLine::from_entry)
        .collect()
}

impl GlossaryLine {
    pub fn from_entry(e: &Entry) -> GlossaryLine {
        match &e.abbreviation {
            Some(a) if a != &e.name => GlossaryLine {
                term: a.clone(),
                name: e.name.clone(),
                summary: e.summary.clone(),
            },
            _ => GlossaryLine {
                term: e.name.clone(),
                name: String::new(),
                summary: e.summary.clone(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card() -> Card {
        Card {
            id: "cobra".into(),
            name: "Cobra".into(),
            kind: "Escort/1".into(),
            kind_name: String::new(),
            look: Look::Ship,
            stats: vec![(StatKey::Speed, "30cm".into()), (StatKey::Turns, "90°".into())],
            weapons: WeaponTable::default(),
            no_weapons: None,
            groups: vec![
                vec![Line::new(
                    Some(LineKey::Notes),
                    vec!["Fast.".into(), "Small.".into()],
                    " ",
                )],
                vec![Line::one(LineKey::SourceFault, "the `Cobra` speed")],
            ],
            missing_mark: NOT_IN_SOURCES,
        }
    }

    #[test]
    fn a_card_prints_its_keys_headings_and_its_lines_labels() {
        let card = card();
        assert_eq!(card.stats_line(), "Speed 30cm · Turns 90°");
        assert_eq!(card.stats_joined("   "), "Speed 30cm   Turns 90°");
        let lines: Vec<(String, String)> = card.lines().map(|l| (l.label(), l.text())).collect();
        assert_eq!(
            lines,
            [
                ("Notes: ".to_string(), "Fast. Small.".to_string()),
                // A fault's names quoted typographically.
                (
                    "Source fault: ".to_string(),
                    "the \u{2018}Cobra\u{2019} speed".to_string()
                ),
            ]
        );
        assert_eq!(StatKey::Cc.title(), Some("Close Combat"));
        assert_eq!(Column::Band("1-6\"".into()).heading(), "1-6\"");
        assert_eq!(Column::Penetration.short(), "Pen.");
    }

    #[test]
    fn what_the_roster_fielded_replaces_the_last_and_goes_last() {
        let mut card = card();
        card.set_fielded(vec!["Nova Cannon".into()]);
        card.set_fielded(vec!["Power Ram".into(), "Targeting Matrix".into()]);
        let fielded: Vec<&String> = card.items(LineKey::AsFielded).collect();
        assert_eq!(fielded, ["Power Ram", "Targeting Matrix"]);
        assert_eq!(card.groups.len(), 2);
        assert!(card.groups[1].iter().skip(1).all(Line::fielded));
    }

    #[test]
    fn a_list_makes_a_line_only_when_it_has_items_and_each_fault_its_own() {
        assert!(Line::listed(LineKey::Notes, Vec::new(), " ").is_empty());
        let notes = Line::listed(LineKey::Skills, vec!["Jink".into(), "Deep Strike".into()], ", ");
        let texts: Vec<String> = notes.iter().map(|l| l.label() + &l.text()).collect();
        assert_eq!(texts, ["Skills: Jink, Deep Strike"]);
        let faults = Line::faults(&["speed `x`".into(), "no turns".into()]);
        let texts: Vec<String> = faults.iter().map(|l| l.label() + &l.text()).collect();
        assert_eq!(
            texts,
            ["Source fault: speed \u{2018}x\u{2019}", "Source fault: no turns"]
        );
        let plain = Line::plain("Fearless.");
        assert_eq!((plain.label(), plain.text()), (String::new(), "Fearless.".into()));
    }

    #[test]
    fn a_value_prints_as_given_or_as_the_words_for_missing() {
        use crate::catalogue::raw::MissingMarker;
        assert_eq!(stat(&Stat::Known(45)), "45");
        assert_eq!(stat::<u8>(&Stat::Missing), NOT_IN_SOURCES);
        assert_eq!(raw(&Known::Value("20cm".into())), "20cm");
        assert_eq!(raw(&Known::Missing(MissingMarker::Missing)), NOT_IN_SOURCES);
        assert!(glossary_lines(None, &BTreeSet::from(["lance"])).is_empty());
    }

    #[test]
    fn a_column_no_row_fills_is_dropped() {
        assert!(!filled(["", " ", ""].into_iter()));
        assert!(filled(["", "2+"].into_iter()));
    }

    #[test]
    fn a_missing_stat_is_noted_by_the_mark_the_card_prints() {
        let mut card = card();
        assert_eq!(card.missing_note(), None);
        card.stats.push((StatKey::Shields, NOT_IN_SOURCES.into()));
        assert!(card.has_missing());
        assert_eq!(
            card.missing_note().as_deref(),
            Some("\u{2018}not in the sources\u{2019} marks a value the sources do not give.")
        );
        // An Epic card prints `?`: the words do not count there.
        card.missing_mark = "?";
        assert_eq!(card.missing_note(), None);
        card.stats.push((StatKey::Armour, "?".into()));
        assert_eq!(
            card.missing_note().as_deref(),
            Some("? marks a value the sources do not give.")
        );
    }
}
