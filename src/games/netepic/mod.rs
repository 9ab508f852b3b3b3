//! NetEpic Gold: army cards (company, support, special) from the army books,
//! and the core rules' tables that are game code rather than list data:
//! who may ally with whom (1.2.2-1.2.4), the victory points needed to win
//! (1.1), the fortification purchase table and titan victory points (6.1).
//!
//! Unit datasheets are in the game's own notation (`grammar/netepic.pest`);
//! the pinning class of a unit class is here (Appendix A).
//!
//! Line numbers are those of the core rules text (shared source 003).

pub mod allies;
pub mod ruleset;
pub mod titans;

use super::GameId;
use super::{Game, Notation};

pub const GAME: Game = Game {
    id: GameId::Netepic,
    title: "NetEpic Gold",
    entry_noun: "card",
    sheet_noun: "unit",
    upgrade_noun: "upgrade",
    rating: None,
    initiative: false,
    typical_points: 3000,
    points_range: None,
    epic_facts: false,
    cards: true,
    fleet: false,
    rules: &[],
    battlegroups: false,
    notation: Notation::NetEpic,
    allies: true,
    victory_points_to_win: Some(victory_points_to_win),
    battlescribe_systems: &["netepic"],
    optional_rules: &[TITAN_BATTLE_GROUPS],
};

/// The optional rule of titan battle groups (6.1, lines 926-928): each
/// titan of a battle group is rounded up to 50 points on its own, then
/// added, and is worth victory points for its own cost.
pub const TITAN_BATTLE_GROUPS: &str = "titan battle groups";

/// The word that starts the line of a titan under a card of several
/// titans: `Titan: Volcano Cannon, Chain Fist` (read by `titans`).
pub const TITAN_LINE: &str = "Titan";

/// Victory points needed to win for an army of `points` (core rules 1.1,
/// lines 154-160): 30 at 1,000 points and 5 more for every further 1,000
/// ("Etc."). The table gives whole thousands only; an army between two rows
/// plays to the larger one (2,500 points needs 40, as 3,000 does), and one
/// below 1,000 points to 30.
pub fn victory_points_to_win(points: u32) -> u32 {
    let thousands = points.div_ceil(1000).max(1);
    25u32.saturating_add(thousands.saturating_mul(5))
}

/// Victory points of a card whose worth follows its cost (titans and
/// praetorians, 6.1 step 4, lines 921-925): one per 100 points, rounded up.
pub fn victory_points_of_cost(points: i64) -> u32 {
    if points <= 0 {
        return 0;
    }
    u32::try_from((points - 1) / 100 + 1).unwrap_or(u32::MAX)
}

/// What kind of army a list makes as the core army (1.2.2, lines 192-198).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArmyKind {
    /// At least 50% of the points in the core army; any Standard list may
    /// be its ally.
    Standard,
    /// At least 75% in the core army.
    Codex,
    /// 100% from the one book: no allies at all (Tyranids).
    Alone,
    /// The core rules' tables do not name the list: its share and allies
    /// are not checked, and it is not known to be a Standard list.
    Unlisted,
}

/// Which lists a core army may take as allies (always Standard lists).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Allowed {
    /// One Standard list, none of these.
    OneExcept(&'static [&'static str]),
    /// One of these Standard lists only.
    OneOf(&'static [&'static str]),
    /// Any number of Standard lists, none of these.
    SeveralExcept(&'static [&'static str]),
    /// None.
    Nothing,
}

/// One list's row of the ally tables.
#[derive(Debug, Clone, Copy)]
pub struct ListAllies {
    pub list: &'static str,
    pub kind: ArmyKind,
    /// The least share of the army's points the core army must hold, in
    /// percent.
    pub core_percent: u32,
    /// Lists whose force counts as part of the core army rather than as
    /// its ally (Titan Legions with the standard Adeptus Mechanicus list).
    pub core_with: &'static [&'static str],
    pub allies: Allowed,
    /// Where the row is, for diagnostics.
    pub provenance: &'static str,
}

impl ListAllies {
    /// Whether a force of `ally` may join this core army as its ally.
    pub fn admits(&self, ally: &str) -> bool {
        match self.allies {
            Allowed::OneExcept(no) | Allowed::SeveralExcept(no) => !no.contains(&ally),
            Allowed::OneOf(yes) => yes.contains(&ally),
            Allowed::Nothing => false,
        }
    }

    /// How many allied lists the core army may take.
    pub fn most_allies(&self) -> usize {
        match self.allies {
            Allowed::OneExcept(_) | Allowed::OneOf(_) => 1,
            Allowed::SeveralExcept(_) => usize::MAX,
            Allowed::Nothing => 0,
        }
    }
}

const MARINES: &str = "netepic-adeptus-astartes";
const CHAOS: &str = "netepic-chaos";
const ELDAR: &str = "netepic-eldar";
const ORKS: &str = "netepic-orks";
const MECHANICUS: &str = "netepic-adeptus-mechanicus";
const GUARD: &str = "netepic-imperial-guard";

/// The ally tables (1.2.3 and 1.2.4, lines 202-231) for the shipped army
/// books. The decisions about rows the text conversion broke are written
/// in every book's `decisions` (by `tools/netepic-import`).
pub const ALLIES: &[ListAllies] = &[
    ListAllies {
        list: MECHANICUS,
        kind: ArmyKind::Standard,
        core_percent: 50,
        core_with: &[],
        allies: Allowed::OneExcept(&[]),
        provenance: "NetEpic Gold core rules 1.2.3, Imperial Knights row (line 205): the standard Adeptus Mechanicus list",
    },
    ListAllies {
        list: MARINES,
        kind: ArmyKind::Standard,
        core_percent: 50,
        core_with: &[],
        allies: Allowed::OneExcept(&[CHAOS]),
        provenance: "NetEpic Gold core rules 1.2.3, Space Marines row (line 206): no Chaos allies",
    },
    ListAllies {
        list: GUARD,
        kind: ArmyKind::Standard,
        core_percent: 50,
        core_with: &[],
        allies: Allowed::OneExcept(&[]),
        provenance: "NetEpic Gold core rules 1.2.3, Imperial Guard row (line 207)",
    },
    ListAllies {
        list: CHAOS,
        kind: ArmyKind::Standard,
        core_percent: 50,
        core_with: &[],
        allies: Allowed::OneExcept(&[ELDAR, MARINES]),
        provenance: "NetEpic Gold core rules 1.2.3, Chaos row (line 208): no Eldar or Space Marine allies",
    },
    ListAllies {
        list: ELDAR,
        kind: ArmyKind::Standard,
        core_percent: 50,
        core_with: &[],
        allies: Allowed::OneExcept(&[CHAOS]),
        provenance: "NetEpic Gold core rules 1.2.3, Eldar row (line 209): no Chaos allies",
    },
    ListAllies {
        list: ORKS,
        kind: ArmyKind::Standard,
        core_percent: 50,
        core_with: &[],
        allies: Allowed::OneExcept(&[]),
        provenance: "NetEpic Gold core rules 1.2.3, Orks row (line 210)",
    },
    ListAllies {
        list: "netepic-titan-legions",
        kind: ArmyKind::Codex,
        core_percent: 75,
        core_with: &[MECHANICUS],
        allies: Allowed::OneExcept(&[]),
        provenance: "NetEpic Gold core rules 1.2.4, Titan Legions row (line 216): 75% in Titan Legions and the standard Adeptus Mechanicus list, up to 25% in any one Standard list",
    },
    ListAllies {
        list: "netepic-adepta-sororitas",
        kind: ArmyKind::Codex,
        core_percent: 75,
        core_with: &[],
        allies: Allowed::OneOf(&[MARINES, MECHANICUS, GUARD, ELDAR]),
        provenance: "NetEpic Gold core rules 1.2.4, Sisters of Battle row (line 219): one Standard Imperial or Eldar list",
    },
    ListAllies {
        list: "netepic-dark-eldar",
        kind: ArmyKind::Codex,
        core_percent: 75,
        core_with: &[],
        allies: Allowed::OneExcept(&[ELDAR]),
        provenance: "NetEpic Gold core rules 1.2.4, Dark Eldar row (line 227): no Eldar allies",
    },
    ListAllies {
        list: "netepic-squats",
        kind: ArmyKind::Codex,
        core_percent: 75,
        core_with: &[],
        allies: Allowed::OneExcept(&[ORKS]),
        provenance: "NetEpic Gold core rules 1.2.4, Squats row (line 228): no Ork allies",
    },
    ListAllies {
        list: "netepic-slann",
        kind: ArmyKind::Codex,
        core_percent: 75,
        core_with: &[],
        allies: Allowed::SeveralExcept(&[]),
        provenance: "NetEpic Gold core rules 1.2.4, Slaan row (line 229): any other Standard lists",
    },
    ListAllies {
        list: "netepic-tau",
        kind: ArmyKind::Codex,
        core_percent: 75,
        core_with: &[],
        allies: Allowed::OneExcept(&[]),
        provenance: "NetEpic Gold core rules 1.2.4, Tau row (line 230): any one Standard list",
    },
    ListAllies {
        list: "netepic-tyranids",
        kind: ArmyKind::Alone,
        core_percent: 100,
        core_with: &[],
        allies: Allowed::Nothing,
        provenance: "NetEpic Gold core rules 1.2.2 and 1.2.4, Tyranids row (line 231): 100% from the Tyranid book, and Tyranids ally with no one",
    },
    ListAllies {
        list: "netepic-necrons",
        kind: ArmyKind::Unlisted,
        core_percent: 0,
        core_with: &[],
        allies: Allowed::OneExcept(&[]),
        provenance: "NetEpic Gold core rules 1.2.3-1.2.4 (lines 202-231) do not name the Necrons",
    },
];

/// A variant inside one army book (core rules 1.2.3-1.2.4, lines
/// 202-231): a Space Marine Chapter, a Chaos Power or Legion, a
/// Craftworld, the Planetary Defence Force, Kroot Mercenaries. The
/// catalogues merge each codex with its standard list, so a force fields a
/// variant by taking its cards (cards carrying one of `tags`); a force with
/// none of them is the list's standard army, described by the list's
/// variant without tags where it has one (Chaos Undivided), else by its
/// row of [`ALLIES`].
#[derive(Debug, Clone, Copy)]
pub struct Variant {
    pub list: &'static str,
    pub name: &'static str,
    /// Tags of the cards that make a force this variant.
    pub tags: &'static [&'static str],
    /// A card that also carries one of these tags is shared with the
    /// standard list and does not make the variant (the Imperial Guard
    /// cards the catalogue offers in its PDF force as well).
    pub unless: &'static [&'static str],
    /// The force is this variant only when every one of its cards carries
    /// one of `tags` (Kroot Mercenaries: Kroot units alone); otherwise one
    /// such card is enough.
    pub only: bool,
    /// Standard or Codex, the least share of the army's points the core
    /// army holds, and the other lists it may take as allies.
    pub kind: ArmyKind,
    pub core_percent: u32,
    pub allies: Allowed,
    /// Variants of the same book (by name) that may be this army's allied
    /// force, beside or in place of a Standard list.
    pub siblings: &'static [&'static str],
    /// Whether several of `siblings` may join at once (a Chaos Power takes
    /// any or all of the other Powers).
    pub several_siblings: bool,
    /// When this variant is an ally, the least share its core army then
    /// needs (Eldar Knights: up to half the points, whatever the codex).
    pub as_ally_core_percent: Option<u32>,
    /// The variant is only ever an allied force (Harlequins).
    pub never_core: bool,
    pub provenance: &'static str,
}

impl Variant {
    /// The variant as a row of the ally tables, for the rules the rows
    /// share.
    pub fn row(&self) -> ListAllies {
        ListAllies {
            list: self.list,
            kind: self.kind,
            core_percent: self.core_percent,
            core_with: &[],
            allies: self.allies,
            provenance: self.provenance,
        }
    }
}

impl Variant {
    /// Whether a card with the tags `has` says it has is one of this
    /// variant's cards.
    pub fn card_of(&self, has: impl Fn(&str) -> bool) -> bool {
        self.tags.iter().any(|x| has(x)) && !self.unless.iter().any(|x| has(x))
    }
}

/// The variants of `list`.
pub fn variants_of(list: &str) -> impl Iterator<Item = &'static Variant> + '_ {
    VARIANTS.iter().filter(move |v| v.list == list)
}

/// A cap on the points of some cards of a list, as a share of the army's
/// total (the Tau book: Kroot units at most a quarter of the army).
#[derive(Debug, Clone, Copy)]
pub struct ShareCap {
    /// The rule's id in diagnostics.
    pub id: &'static str,
    pub list: &'static str,
    pub tag: &'static str,
    pub what: &'static str,
    pub percent: u32,
    pub provenance: &'static str,
}

/// The share caps of the army books.
pub const SHARE_CAPS: &[ShareCap] = &[ShareCap {
    id: "kroot-share",
    list: TAU,
    tag: "kroot-unit",
    what: "Kroot units",
    percent: 25,
    provenance: "Tau book, Tau Army Composition: Kroot cards may support Tau companies, but all Kroot together are at most 25% of the army",
}];

const TAU: &str = "netepic-tau";
const CRAFTWORLDS: &[&str] = &["Alaitoc", "Biel-Tan", "Iyanden", "Saim-Hann", "Ulthwe"];
const ELDAR_SIBLINGS: &[&str] = &[
    "Alaitoc",
    "Biel-Tan",
    "Iyanden",
    "Saim-Hann",
    "Ulthwe",
    "Eldar Knights",
    "Exodites",
    "Harlequin Masque",
];
const POWERS: &[&str] = &["Khorne", "Nurgle", "Slaanesh", "Tzeentch"];

/// A Space Marine Chapter (1.2.4, Marine Chapter row, line 217).
const fn chapter(name: &'static str, tags: &'static [&'static str]) -> Variant {
    Variant {
        list: MARINES,
        name,
        tags,
        unless: &[],
        only: false,
        kind: ArmyKind::Codex,
        core_percent: 75,
        allies: Allowed::OneExcept(&[CHAOS]),
        siblings: &[],
        several_siblings: false,
        as_ally_core_percent: None,
        never_core: false,
        provenance: "NetEpic Gold core rules 1.2.4, Marine Chapter row (line 217): 75% in the Chapter and the standard Adeptus Astartes list, up to 25% in one Standard list but Chaos",
    }
}

/// A Craftworld, the Exodites or the Eldar Knights (1.2.4, lines 225-226,
/// and the Eldar book's force compositions).
const fn eldar_codex(name: &'static str, tags: &'static [&'static str]) -> Variant {
    Variant {
        list: ELDAR,
        name,
        tags,
        unless: &[],
        only: false,
        kind: ArmyKind::Codex,
        core_percent: 75,
        allies: Allowed::OneExcept(&[CHAOS]),
        siblings: ELDAR_SIBLINGS,
        several_siblings: false,
        as_ally_core_percent: None,
        never_core: false,
        provenance: "NetEpic Gold core rules 1.2.4 (lines 225-226) and the Eldar book's force compositions: 75% in that codex and the standard Eldar list, up to 25% in one other Craftworld, the Eldar Knights, the Exodites or one Standard list but Chaos",
    }
}

/// A Chaos Power with its Legion (1.2.4, lines 220-223, and the Chaos
/// book's force compositions).
const fn power(name: &'static str, tags: &'static [&'static str]) -> Variant {
    Variant {
        list: CHAOS,
        name,
        tags,
        unless: &[],
        only: false,
        kind: ArmyKind::Codex,
        core_percent: 75,
        allies: Allowed::OneExcept(&[ELDAR, MARINES]),
        siblings: POWERS,
        several_siblings: true,
        as_ally_core_percent: None,
        never_core: false,
        provenance: "NetEpic Gold core rules 1.2.4, Khorne to Tzeentch rows (lines 220-223), and the Chaos book: 75% in that Power (with its Legion) and the standard Chaos list, up to 25% in any or all of the other Powers, or in one Standard list but Eldar or Space Marines",
    }
}

/// The codex variants of the army books, and the standard armies a book
/// holds beside its codex (Kroot Mercenaries). The decisions behind them
/// are written in each book's `decisions` (by `tools/netepic-import`).
pub const VARIANTS: &[Variant] = &[
    chapter("Black Templars", &["black-templars"]),
    chapter("Blood Angels", &["blood-angels"]),
    chapter("Crimson Fists", &["crimson-fists"]),
    chapter("Crimson Suns", &["crimson-suns"]),
    chapter("Dark Angels", &["dark-angels"]),
    chapter("Desert Lions", &["desert-lions"]),
    chapter("Flesh Eaters", &["flesh-eaters"]),
    // Iron Hands never ally with a force that is not Imperial (the book's
    // Unwilling Allies); the other Chapters they refuse are Codex armies,
    // never allies anyway.
    Variant {
        allies: Allowed::OneOf(&[MECHANICUS, GUARD]),
        provenance: "NetEpic Gold core rules 1.2.4, Marine Chapter row (line 217), and the Adeptus Astartes book's Iron Hands Unwilling Allies: 75% in the Chapter and the standard list, up to 25% in one Standard Imperial list",
        ..chapter("Iron Hands", &["iron-hands"])
    },
    chapter("Mentor Legion", &["mentor-legion"]),
    chapter("Raptor Legion", &["raptor-legion"]),
    chapter("Salamanders", &["salamanders"]),
    chapter("Silver Skulls", &["silver-skulls"]),
    chapter("Space Wolves", &["space-wolves"]),
    chapter("White Scars", &["white-scars"]),
    power("Khorne", &["khorne", "world-eaters"]),
    power("Nurgle", &["nurgle", "death-guard"]),
    power("Slaanesh", &["slaanesh", "emperor-s-children"]),
    power("Tzeentch", &["tzeentch", "thousand-sons"]),
    Variant {
        list: CHAOS,
        name: "Chaos Space Marines",
        tags: &[
            "chaos-space-marines",
            "alpha-legion",
            "black-legion",
            "iron-warriors",
            "night-lords",
            "word-bearers",
        ],
        unless: &[],
        only: false,
        kind: ArmyKind::Codex,
        core_percent: 75,
        allies: Allowed::OneExcept(&[ELDAR, MARINES]),
        siblings: POWERS,
        several_siblings: true,
        as_ally_core_percent: None,
        never_core: false,
        provenance: "NetEpic Gold core rules 1.2.4, Chaos Marines row (line 224), and the Chaos book's Chaos Space Marines force composition: 75% in the Legion, the standard Chaos list and the Chaos Space Marine cards, up to 25% in any of the Powers, or in one Standard list but Eldar or Space Marines",
    },
    // A force with no variant's cards: the standard Chaos army, whose
    // other half may be one Power instead of a Standard list.
    Variant {
        list: CHAOS,
        name: "Chaos Undivided",
        tags: &[],
        unless: &[],
        only: false,
        kind: ArmyKind::Standard,
        core_percent: 50,
        allies: Allowed::OneExcept(&[ELDAR, MARINES]),
        siblings: POWERS,
        several_siblings: false,
        as_ally_core_percent: None,
        never_core: false,
        provenance: "NetEpic Gold core rules 1.2.3, Chaos row (line 208), and the Chaos book's Chaos Undivided force composition: 50% in the standard Chaos list, the rest in one Power or one Standard list but Eldar or Space Marines",
    },
    eldar_codex(CRAFTWORLDS[0], &["alaitoc"]),
    eldar_codex(CRAFTWORLDS[1], &["biel-tan"]),
    eldar_codex(CRAFTWORLDS[2], &["iyanden"]),
    eldar_codex(CRAFTWORLDS[3], &["saim-hann"]),
    eldar_codex(CRAFTWORLDS[4], &["ulthwe"]),
    // Cards the catalogue tags `eldar` as well are offered in its standard
    // Eldar force too: they are standard cards.
    Variant {
        unless: &["eldar"],
        ..eldar_codex("Exodites", &["exodites"])
    },
    Variant {
        unless: &["eldar"],
        as_ally_core_percent: Some(50),
        ..eldar_codex("Eldar Knights", &["eldar-knights"])
    },
    Variant {
        list: ELDAR,
        name: "Harlequin Masque",
        tags: &["harlequin-masque"],
        unless: &[],
        only: false,
        kind: ArmyKind::Standard,
        core_percent: 50,
        allies: Allowed::Nothing,
        siblings: &[],
        several_siblings: false,
        as_ally_core_percent: None,
        never_core: true,
        provenance: "Eldar book, Harlequin Masque force composition: the Masque is only ever an allied force, of an army that may take Eldar allies",
    },
    Variant {
        list: GUARD,
        name: "Planetary Defence Force",
        tags: &["planetary-defence-force"],
        unless: &["imperial-guard"],
        only: false,
        kind: ArmyKind::Codex,
        core_percent: 75,
        allies: Allowed::OneExcept(&[]),
        siblings: &[],
        several_siblings: false,
        as_ally_core_percent: None,
        never_core: false,
        provenance: "NetEpic Gold core rules 1.2.4, PDF row (line 218): 75% in the Planetary Defence Force list, up to 25% in one Standard list",
    },
    // A Tau force with cards other than Kroot: the Tau codex, whose
    // quarter may be a force of Kroot Mercenaries.
    Variant {
        list: TAU,
        name: "Tau",
        tags: &[],
        unless: &[],
        only: false,
        kind: ArmyKind::Codex,
        core_percent: 75,
        allies: Allowed::OneExcept(&[]),
        siblings: &["Kroot Mercenaries"],
        several_siblings: false,
        as_ally_core_percent: None,
        never_core: false,
        provenance: "NetEpic Gold core rules 1.2.4, Tau row (line 230), and the Tau book's Tau Army Composition: 75% in Tau units, up to 25% in one Standard list or in Kroot units",
    },
    Variant {
        list: TAU,
        name: "Kroot Mercenaries",
        tags: &["kroot-unit"],
        unless: &[],
        only: true,
        kind: ArmyKind::Standard,
        core_percent: 50,
        allies: Allowed::OneExcept(&[]),
        siblings: &[],
        several_siblings: false,
        as_ally_core_percent: None,
        never_core: false,
        provenance: "NetEpic Gold core rules 1.2.3, Kroot Mercenaries row (line 211), and the Tau book: a Standard army of the book's Kroot units, 50% in them, up to 50% in one Standard list",
    },
];

/// One row of the fortification purchase table (lines 677-685).
#[derive(Debug, Clone, Copy)]
pub struct Fortification {
    pub id: &'static str,
    pub name: &'static str,
    pub contents: &'static str,
    /// `None` where the table gives a length or "Building" instead of a
    /// number of models.
    pub break_point: Option<u32>,
    /// `None` where the table says "Varies".
    pub victory_points: Option<u32>,
    /// `None` where the cost depends on a weapon ("100+Weapon").
    pub points: Option<u32>,
    /// What the row says in place of a number, in our words.
    pub remark: Option<&'static str>,
}

/// The fortification purchase table (lines 677-685), as facts.
pub const FORTIFICATIONS: &[Fortification] = &[
    Fortification {
        id: "road",
        name: "Road",
        contents: "100 cm of road",
        break_point: None,
        victory_points: Some(1),
        points: Some(100),
        remark: Some("breaks when 50 cm of it is destroyed"),
    },
    Fortification {
        id: "barricades",
        name: "Barricades",
        contents: "100 cm of barricades",
        break_point: None,
        victory_points: Some(2),
        points: Some(150),
        remark: Some("breaks when 50 cm of it is destroyed"),
    },
    Fortification {
        id: "trenches",
        name: "Trenches",
        contents: "five trench sections of 3 by 10 cm",
        break_point: Some(3),
        victory_points: Some(2),
        points: Some(150),
        remark: None,
    },
    Fortification {
        id: "minefields",
        name: "Minefields",
        contents: "five minefields of 5 by 10 cm",
        break_point: Some(3),
        victory_points: Some(2),
        points: Some(150),
        remark: None,
    },
    Fortification {
        id: "infantry-bunkers",
        name: "Infantry Bunkers",
        contents: "five infantry bunkers",
        break_point: Some(3),
        victory_points: Some(2),
        points: Some(150),
        remark: None,
    },
    Fortification {
        id: "artillery-emplacements",
        name: "Artillery Emplacements",
        contents: "five artillery emplacements",
        break_point: Some(3),
        victory_points: Some(2),
        points: Some(150),
        remark: None,
    },
    Fortification {
        id: "composite-bunkers",
        name: "Composite Bunkers",
        contents: "five composite bunkers",
        break_point: Some(3),
        victory_points: Some(3),
        points: Some(225),
        remark: None,
    },
    Fortification {
        id: "stronghold",
        name: "Stronghold",
        contents: "one stronghold with a weapon",
        break_point: None,
        victory_points: None,
        points: None,
        remark: Some(
            "costs 100 points plus its weapon, which the core rules do not price; it breaks as a building; its victory points vary",
        ),
    },
];

/// The pinning class of a unit class (core rules, Appendix A, lines
/// 1013-1060): 1 infantry and light artillery, 2 cavalry and walkers, 3
/// vehicles and heavy artillery, 4 superheavies and knights, 5 titans and
/// praetorians. `None` for a class the table does not name (Flyer,
/// Skimmer, Floater).
pub fn pinning_class(class: &str) -> Option<u8> {
    match class.to_ascii_lowercase().as_str() {
        "infantry" | "light artillery" => Some(1),
        "cavalry" | "walker" => Some(2),
        "vehicle" | "heavy artillery" => Some(3),
        "superheavy" | "knight" => Some(4),
        "titan" | "praetorian" => Some(5),
        _ => None,
    }
}

#[cfg(test)]
mod pinning_tests {
    #[test]
    fn pinning_classes_follow_appendix_a() {
        assert_eq!(super::pinning_class("Infantry"), Some(1));
        assert_eq!(super::pinning_class("Light Artillery"), Some(1));
        assert_eq!(super::pinning_class("Walker"), Some(2));
        assert_eq!(super::pinning_class("Heavy Artillery"), Some(3));
        assert_eq!(super::pinning_class("Knight"), Some(4));
        assert_eq!(super::pinning_class("Praetorian"), Some(5));
        assert_eq!(super::pinning_class("Flyer"), None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn victory_points_to_win_follows_the_table() {
        // Lines 154-160.
        assert_eq!(victory_points_to_win(1000), 30);
        assert_eq!(victory_points_to_win(2000), 35);
        assert_eq!(victory_points_to_win(3000), 40);
        assert_eq!(victory_points_to_win(4000), 45);
        assert_eq!(victory_points_to_win(5000), 50);
        assert_eq!(victory_points_to_win(6000), 55);
        assert_eq!(victory_points_to_win(2500), 40);
        assert_eq!(victory_points_to_win(500), 30);
        assert_eq!(victory_points_to_win(0), 30);
        assert_eq!(victory_points_to_win(u32::MAX), 25 + 5 * 4_294_968);
    }

    #[test]
    fn titan_victory_points_round_up() {
        // The core rules' example (6.1): an 850-point Warlord is worth 9.
        assert_eq!(victory_points_of_cost(850), 9);
        assert_eq!(victory_points_of_cost(800), 8);
        assert_eq!(victory_points_of_cost(801), 9);
        assert_eq!(victory_points_of_cost(125), 2);
        assert_eq!(victory_points_of_cost(0), 0);
        assert_eq!(victory_points_of_cost(-5), 0);
    }

    fn allies_of(list: &str) -> Option<&'static ListAllies> {
        ALLIES.iter().find(|row| row.list == list)
    }

    #[test]
    fn ally_rows_are_consistent() {
        for row in ALLIES {
            assert!(row.list.starts_with("netepic-"));
        }
        let chaos = allies_of(CHAOS).map(|r| r.admits(ELDAR));
        assert_eq!(chaos, Some(false));
        assert_eq!(
            allies_of("netepic-tyranids").map(ListAllies::most_allies),
            Some(0)
        );
        assert_eq!(
            allies_of("netepic-slann").map(ListAllies::most_allies),
            Some(usize::MAX)
        );
    }
}
