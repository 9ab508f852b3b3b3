//! The list files as they are written: serde and schemars mirrors of the YAML.
//!
//! These types are the on-disk contract for list maintainers and the source of
//! the JSON Schemas in `schema/`. They are deliberately dumb: no cross-references
//! are checked here. `catalogue::build` turns them into the domain model, and
//! nothing outside `catalogue` should depend on them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A value the sources may not give. `missing` says so explicitly, so that
/// muster can tell the user the value was not checked instead of guessing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Known<T> {
    /// The literal string `missing`: the sources do not give this value.
    Missing(MissingMarker),
    /// The value, as the sources give it.
    Value(T),
}

/// The keyword `missing`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub enum MissingMarker {
    #[serde(rename = "missing")]
    Missing,
}

impl<T> Known<T> {
    pub fn value(&self) -> Option<&T> {
        match self {
            Known::Value(v) => Some(v),
            Known::Missing(_) => None,
        }
    }
}

/// By hand rather than `#[serde(untagged)]`: the derived form buffers
/// every value, tries it as `missing`, formats that failure and drops it,
/// which was a third of loading a list. Here the value is looked at once:
/// the string `missing`, or handed to `T` as it stands. A value that is
/// neither fails with the words the derived form used.
impl<'de, T: Deserialize<'de>> Deserialize<'de> for Known<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(KnownVisitor(std::marker::PhantomData))
    }
}

struct KnownVisitor<T>(std::marker::PhantomData<T>);

const NO_VARIANT: &str = "data did not match any variant of untagged enum Known";

impl<'de, T: Deserialize<'de>> KnownVisitor<T> {
    fn value<E: serde::de::Error, D: serde::Deserializer<'de>>(d: D) -> Result<Known<T>, E> {
        T::deserialize(d)
            .map(Known::Value)
            .map_err(|_| E::custom(NO_VARIANT))
    }
}

impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for KnownVisitor<T> {
    type Value = Known<T>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("`missing` or a value")
    }

    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Self::Value, E> {
        Self::value(serde::de::value::BoolDeserializer::<E>::new(v))
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Self::value(serde::de::value::I64Deserializer::<E>::new(v))
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Self::value(serde::de::value::U64Deserializer::<E>::new(v))
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Self::Value, E> {
        Self::value(serde::de::value::F64Deserializer::<E>::new(v))
    }

    fn visit_borrowed_str<E: serde::de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        if v == "missing" {
            return Ok(Known::Missing(MissingMarker::Missing));
        }
        Self::value(serde::de::value::BorrowedStrDeserializer::<E>::new(v))
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
        if v == "missing" {
            return Ok(Known::Missing(MissingMarker::Missing));
        }
        Self::value(serde::de::value::StrDeserializer::<E>::new(v))
    }

    fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Self::Value, E> {
        if v == "missing" {
            return Ok(Known::Missing(MissingMarker::Missing));
        }
        Self::value(serde::de::value::StringDeserializer::<E>::new(v))
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
        Self::value(serde::de::value::UnitDeserializer::<E>::new())
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        Self::value(serde::de::value::SeqAccessDeserializer::new(seq))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        Self::value(serde::de::value::MapAccessDeserializer::new(map))
    }
}

// The game id is part of every file format, and every layer names games,
// so it lives with the games (the lowest layer) and is re-exported here.
pub use crate::games::GameId;

/// Where a file's facts come from.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SourceRef {
    /// The document (title, file, commit or page).
    pub document: String,
    /// What was taken from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub covers: Option<String>,
}

/// One army list, fleet list or card list: `lists/<game>/<id>.yaml`.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArmyListFile {
    pub game: GameId,
    /// Stable identifier, lower-case words joined by `-`; rosters may use it.
    #[schemars(regex(pattern = r"^[a-z0-9]+(-[a-z0-9]+)*$"))]
    pub id: String,
    /// The list's name as players know it.
    pub name: String,
    /// Other names a roster may use for this list.
    #[serde(default)]
    pub aliases: Vec<String>,
    /// The version of the pack the list follows, as a date `YYYY-MM-DD` where
    /// the pack gives one.
    pub version: String,
    /// The pack's own name for that version, as builders print it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version_label: Option<String>,
    /// How other builders name this list, for importing their exports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imports: Option<Imports>,
    /// Where the facts come from.
    pub source: Vec<SourceRef>,
    /// Decisions taken where sources disagree or are silent, in our words.
    #[serde(default)]
    pub decisions: Vec<String>,
    /// The army's strategy rating (Epic Armageddon lists; required there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strategy_rating: Option<Known<u8>>,
    /// The fleet's attack rating (Battlefleet Gothic lists; required there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack_rating: Option<Known<u8>>,
    /// Attack ratings that replace `attack_rating` when the fleet meets a
    /// condition (a fortress-monastery, a named commander): the first that
    /// holds applies.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attack_rating_when: Vec<RatingWhen>,
    /// Epic Armageddon lists whose rules limit garrisons: only formations
    /// made of these units may be set up as garrisons (none, when empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub garrison_units: Option<GarrisonUnits>,
    /// The list's special rules, summarised in our own words.
    #[serde(default)]
    pub special_rules: Vec<SpecialRule>,
    /// The list's tables, in the order the list gives them.
    pub sections: Vec<Section>,
    /// Everything a formation may add or swap.
    #[serde(default)]
    pub upgrades: Vec<Upgrade>,
    /// The list's limits, in muster's constraint language.
    #[serde(default)]
    pub constraints: Vec<Constraint>,
    /// Rules of the list that muster does not check yet; each is reported to
    /// the user as not checked.
    #[serde(default)]
    pub not_enforced: Vec<NotEnforced>,
    /// Figures worked out from the army and printed with it (a Tyranid
    /// hive fleet's command-card hand), each a number in the constraint
    /// language.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub figures: Vec<Figure>,
}

/// A number worked out from the army and printed with it.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Figure {
    #[schemars(regex(pattern = r"^[a-z0-9]+(-[a-z0-9]+)*$"))]
    pub id: String,
    /// What it is called on the roster ("Command cards").
    pub name: String,
    /// The number, in the constraint language: `6 * count(hiveship) + count(tag:swarm)`.
    pub value: String,
    /// Where the rule comes from.
    pub provenance: String,
}

/// Names other builders use for a list.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Imports {
    /// The list id Snapfire prints on the second line of its text export.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapfire: Option<String>,
    /// The name of Snapfire's list file without `.json` (`SM_codex_NETEA`):
    /// what a share link carries in `list=`. With it, every formation and
    /// upgrade needs a Snapfire id (or a place in `snapfire_none` or in a
    /// pick's `gives`), checked by `muster lists --check`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^[A-Za-z0-9_.-]+$"))]
    pub snapfire_file: Option<String>,
    /// The version string Snapfire's list file carries (`"NetEA v3.24
    /// *APPROVED*"`), as its text export prints it after the list name.
    /// A roster naming it is read as this list's version (the pack's), with
    /// a note where the two differ.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapfire_version: Option<String>,
    /// Snapfire picks that are not simply one of the upgrade whose
    /// `snapfire_ids` name them: `2x Land Raider` is two Land Raiders,
    /// `6 Fire Warriors, 3 Devilfish` is two upgrades at once. An id given
    /// again records another way of writing the same pick (read as its
    /// first entry).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub snapfire_picks: Vec<SnapfirePick>,
    /// Formations and upgrades that no Snapfire pick stands for (muster's
    /// own entries: an automatic transport, a rule's free character).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub snapfire_none: Vec<String>,
    /// BattleScribe catalogues whose rosters (`.ros`, `.rosz`) are checked
    /// against this list: a force whose `catalogueId` or `catalogueName`
    /// is one of these reads as this list.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub battlescribe: Vec<BattleScribeCatalogue>,
}

/// A BattleScribe catalogue, as a roster's force names it.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BattleScribeCatalogue {
    /// The catalogue's `name` (a force's `catalogueName`).
    pub name: String,
    /// The catalogue's `id` (a force's `catalogueId`), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
}

/// What one Snapfire upgrade pick stands for in muster's terms.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SnapfirePick {
    /// The pick's Snapfire id, one of the `snapfire_ids` of an upgrade
    /// named in `gives`.
    pub id: u32,
    /// Upgrade ids and how many of each one pick gives (1 to 100).
    #[schemars(with = "std::collections::BTreeMap<String, BoundedCount>")]
    pub gives: std::collections::BTreeMap<String, u32>,
    /// What Snapfire's text export prints for the pick, where that is no
    /// upgrade's name (`Replace 2 chaos marine units with 2 Havok units`):
    /// an export's item of that name reads as what the pick gives.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpecialRule {
    #[schemars(regex(pattern = r"^[a-z0-9]+(-[a-z0-9]+)*$"))]
    pub id: String,
    pub name: String,
    /// One or two sentences in our own words.
    pub summary: String,
    /// The codex variants (by name, NetEpic: `games::netepic::VARIANTS`)
    /// whose rule this is; empty for a rule of the whole list. A roster
    /// prints it only when a force fields one of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variants: Vec<String>,
}

/// A table of the list ("Space Marine Detachments", "Titan Legions").
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Section {
    #[schemars(regex(pattern = r"^[a-z0-9]+(-[a-z0-9]+)*$"))]
    pub id: String,
    pub name: String,
    /// Tags every formation of the section carries.
    #[serde(default)]
    pub tags: Vec<String>,
    /// Upgrades (ids, or `tag:NAME` for every upgrade with that tag) every
    /// formation of the section may take, besides its own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub upgrades: Vec<String>,
    pub formations: Vec<Formation>,
}

/// A formation (or squadron, card, battlegroup) a roster can take.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Formation {
    /// Unique within the list, across formations and upgrades.
    #[schemars(regex(pattern = r"^[a-z0-9]+(-[a-z0-9]+)*$"))]
    pub id: String,
    pub name: String,
    /// Other names a roster may use: short forms, plurals, a builder's names.
    #[serde(default)]
    pub aliases: Vec<String>,
    /// Cost of the formation before upgrades (negative where a list prices a
    /// larger formation as a discount on its upgrades). At most 10,000 either
    /// way.
    #[schemars(with = "Known<BoundedPoints>")]
    pub points: Known<i32>,
    /// Initiative rating, such as `1+` (Epic Armageddon lists; required there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initiative: Option<Known<Initiative>>,
    /// Initiatives that replace `initiative` when the formation took
    /// something (`count(wraithseer) >= 1`): the first that holds applies.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub initiative_when: Vec<InitiativeWhen>,
    /// The units the formation always has.
    #[serde(default)]
    pub units: Vec<UnitCount>,
    /// The upgrades the formation may take: ids, or `tag:NAME` for every
    /// upgrade with that tag.
    #[serde(default)]
    pub upgrades: Vec<String>,
    /// Makes this entry a group (a squadron, a company card, a commander's
    /// battlegroup): roster entries indented under it are formations of
    /// their own, its members.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<Group>,
    /// The group (a formation id with `group`) this formation always
    /// belongs to: written on its own line, it forms a group of its own,
    /// `4x Sword` being a squadron of four.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grouped_in: Option<String>,
    /// Tags for constraints (`spacecraft`, `one-third`, `core`, ...).
    #[serde(default)]
    pub tags: Vec<String>,
    /// A note in our own words, shown by `muster options`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The unit line Snapfire prints before the upgrades, where it prints one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapfire_units: Option<String>,
    /// Snapfire's numeric id of this formation (500 and above), for share
    /// links; a fact of that builder's list file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapfire_id: Option<u32>,
    /// NetEpic Gold: the casualties at which the card breaks (printed on
    /// the card).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub break_point: Option<Known<u32>>,
    /// NetEpic Gold: the victory points the enemy earns by breaking the
    /// card: a number, or `per-100-points` (one per full or part 100 points
    /// the card cost as bought, for titans and praetorians bought with their
    /// weapons). Heresy: `{ broken: N, destroyed: M }`, what the enemy
    /// earns for breaking the detachment and for destroying it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub victory_points: Option<VictoryPoints>,
    /// The formation's total (with its upgrades) is rounded up to a
    /// multiple of this (NetEpic titans: 50).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub round_up_to: Option<u32>,
    /// NetEpic Gold: a card of several titans whose titans are each
    /// another card of the list (a Warlord Titan Battlegroup holds three
    /// `warlord-titan`s). A roster may arm each titan on a line of its own
    /// under the card; each is then held to the formation rules of `each`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub titans: Option<Titans>,
}

/// The titans of a card of several titans.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Titans {
    /// How many titans the card holds.
    #[schemars(range(min = 2, max = 10))]
    pub count: u32,
    /// The formation id of the single titan each one is.
    pub each: String,
}

/// A card's victory points: as printed, derived from its cost, or missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum VictoryPoints {
    /// As printed on the card.
    Fixed(u32),
    /// `missing`: the sources do not give them.
    Missing(MissingMarker),
    /// `per-100-points`: one per 100 points of its cost, rounded up.
    FromCost(FromCostMarker),
    /// Heresy: for breaking and for destroying the detachment.
    BrokenDestroyed(BrokenDestroyed),
}

/// The keyword `per-100-points`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub enum FromCostMarker {
    #[serde(rename = "per-100-points")]
    PerHundredPoints,
}

/// A Heresy card's two victory point values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BrokenDestroyed {
    /// Given for breaking (or leaving routed) the detachment.
    pub broken: u32,
    /// Given for destroying it; not added to `broken`.
    pub destroyed: u32,
}

/// What a group formation holds.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Group {
    /// The formations that may be members: ids, or `tag:NAME`.
    pub members: Vec<String>,
    /// The fewest members (at most 100).
    #[serde(default = "one")]
    #[schemars(range(max = 100))]
    pub min: u32,
    /// The most members, if there is a limit (at most 100).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = 100))]
    pub max: Option<u32>,
    /// Where the limits come from.
    pub provenance: String,
}

fn one() -> u32 {
    1
}

/// An initiative rating: `1+` to `6+`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(transparent)]
pub struct Initiative(#[schemars(regex(pattern = r"^[1-6]\+$"))] pub String);

/// A number of units of one datasheet.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitCount {
    /// Datasheet id.
    pub unit: String,
    /// 1 to 100.
    #[schemars(range(min = 1, max = 100))]
    pub count: u32,
}

/// Something a formation may add or swap.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Upgrade {
    #[schemars(regex(pattern = r"^[a-z0-9]+(-[a-z0-9]+)*$"))]
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub aliases: Vec<String>,
    /// Cost of one, or successive costs (`[50, 25]`: the first costs 50, the
    /// second 25, and any further one the last figure).
    pub points: Known<Cost>,
    /// Costs that depend on the formation taking the upgrade: the first
    /// whose `when` holds replaces `points`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub points_when: Vec<CostWhen>,
    /// Units the upgrade adds to the formation.
    #[serde(default)]
    pub adds: Vec<UnitCount>,
    /// Units the upgrade takes out of the formation.
    #[serde(default)]
    pub replaces: Vec<UnitCount>,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// For "enough transports to carry the formation": the number of units
    /// is worked out from the formation, and a count written in a roster
    /// must match it exactly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fills: Option<Fills>,
    /// Snapfire's numeric ids of this upgrade (below 500), for share links.
    /// Several where Snapfire sells one upgrade as several picks
    /// ("Land Raider" and "2x Land Raider").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub snapfire_ids: Vec<u32>,
    /// Formations where Snapfire offers only some of `snapfire_ids`
    /// (Big Gun in Warbands, Big Gunz in Mekboy Gunzmobs): formation id to
    /// the ids a share link writes there. Formations not named may use
    /// every id; reading a link accepts every id anywhere.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub snapfire_ids_by_formation: std::collections::BTreeMap<String, Vec<u32>>,
    /// Names Snapfire's text export prints for this upgrade that are
    /// another upgrade's name or alias: a free core item written as the
    /// paid extra of the same name (a Fortress Mob's core `Battlefortress`),
    /// or a pick that means this upgrade in some formations (`Boyz` in a
    /// Feral Warband). In a Snapfire export such a name reads as whichever
    /// of the upgrades the formation takes; where it takes both, the one
    /// that gives the cost the export states.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub snapfire_names: Vec<String>,
    /// What the upgrade does to the profile of the units it is bought
    /// for, so that a roster's crib sheet prints them as fielded (weapons
    /// gone, added or changed, values changed). `muster lists --check`
    /// proves every weapon named here is on the datasheets it applies to.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fielded: Vec<ProfileChange>,
    /// The upgrade changes its unit in a way `fielded` cannot show: why,
    /// in our words. A roster's crib sheet then says the option is not
    /// shown as fielded, rather than printing the stock profile silently.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_shown: Option<String>,
}

/// One change an upgrade makes to a unit's profile. Weapons are named as
/// the datasheet's rows name them; every row of a name is meant (a weapon
/// with two profiles has two rows). Applied in this order: `remove`,
/// `change`, `add` (in place of the first removed row), `choose`,
/// `stats`, `notes`.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProfileChange {
    /// The datasheet ids this change is for. Empty: every datasheet of
    /// every formation offered the upgrade, each of which must have the
    /// weapons named here.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub units: Vec<String>,
    /// Weapon rows taken off, by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remove: Vec<String>,
    /// Weapon rows whose values change.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub change: Vec<WeaponChange>,
    /// Weapon rows put on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub add: Vec<AddedWeapon>,
    /// A weapon choice: the datasheet lists every weapon the unit may
    /// carry, and a unit that takes choices carries, of the weapons any
    /// choice offered for it names, only those it chose.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choose: Vec<String>,
    /// Unit values that change.
    #[serde(default, skip_serializing_if = "StatChanges::is_empty")]
    pub stats: StatChanges,
    /// Notes the unit gains: our words on a ship, the notation on an Epic
    /// unit (`Leader`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// New values for one weapon's rows; what is not given stays.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WeaponChange {
    /// The row's name on the datasheet.
    pub weapon: String,
    /// Only the rows of that name with this range (a Tyrant has 45cm and
    /// 30cm rows both named `Port wpns battery`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub only_range: Option<String>,
    /// A new name for the row.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<String>,
    /// Firepower or strength.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub firepower: Option<String>,
    /// Ships only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arc: Option<String>,
    /// Epic only: the weapon's notes, all of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<Vec<String>>,
    /// Ships only: the craft a launch bay launches, all of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub craft: Option<Vec<String>>,
}

/// A weapon an upgrade puts on: a full profile in the game's notation, or
/// `from` a datasheet that already has a row of that name. On a ship, a
/// value the sources do not give is written `missing`.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddedWeapon {
    pub name: String,
    /// A datasheet id of the same game: its rows named `name` are copied,
    /// and nothing else may be given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub firepower: Option<String>,
    /// Ships only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arc: Option<String>,
    /// Ships only: launch bays' craft.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub craft: Vec<String>,
    /// Epic only: weapon notes in the notation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// New unit values, in the game's notation. Ships have `hull`, `speed`,
/// `turns`, `shields`, `armour`, `turrets`; Epic units `speed`, `armour`,
/// `cc`, `ff`.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StatChanges {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hull: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turns: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shields: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub armour: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turrets: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cc: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ff: Option<String>,
}

/// A unit value an upgrade may change: the keys of `StatChanges`. Ships
/// have `Hull` to `Turrets`, Epic units `Speed`, `Armour`, `Cc` and `Ff`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stat {
    Hull,
    Speed,
    Turns,
    Shields,
    Armour,
    Turrets,
    Cc,
    Ff,
}

/// A ship's six values of `$sheet` (a datasheet as written or a printed
/// card: both name them alike), borrowed mutably in print order, for
/// `Stat::of_ship`.
macro_rules! ship_values {
    ($sheet:expr) => {{
        let s = $sheet;
        [
            &mut s.hull,
            &mut s.speed,
            &mut s.turns,
            &mut s.shields,
            &mut s.armour,
            &mut s.turrets,
        ]
    }};
}
pub(crate) use ship_values;

/// An Epic unit's four values of `$sheet`, as `ship_values`.
macro_rules! epic_values {
    ($sheet:expr) => {{
        let s = $sheet;
        [&mut s.speed, &mut s.armour, &mut s.cc, &mut s.ff]
    }};
}
pub(crate) use epic_values;

impl Stat {
    /// This stat's value among a ship's six, given in the order datasheets
    /// print them; `None` for a value ships do not have.
    pub fn of_ship<T>(self, [hull, speed, turns, shields, armour, turrets]: [T; 6]) -> Option<T> {
        match self {
            Stat::Hull => Some(hull),
            Stat::Speed => Some(speed),
            Stat::Turns => Some(turns),
            Stat::Shields => Some(shields),
            Stat::Armour => Some(armour),
            Stat::Turrets => Some(turrets),
            Stat::Cc | Stat::Ff => None,
        }
    }

    /// This stat's value among an Epic unit's four, in print order; `None`
    /// for a value Epic units do not have.
    pub fn of_epic<T>(self, [speed, armour, cc, ff]: [T; 4]) -> Option<T> {
        match self {
            Stat::Speed => Some(speed),
            Stat::Armour => Some(armour),
            Stat::Cc => Some(cc),
            Stat::Ff => Some(ff),
            Stat::Hull | Stat::Turns | Stat::Shields | Stat::Turrets => None,
        }
    }

    /// The key a list file writes under `stats`.
    pub fn key(self) -> &'static str {
        match self {
            Stat::Hull => "hull",
            Stat::Speed => "speed",
            Stat::Turns => "turns",
            Stat::Shields => "shields",
            Stat::Armour => "armour",
            Stat::Turrets => "turrets",
            Stat::Cc => "cc",
            Stat::Ff => "ff",
        }
    }
}

impl std::fmt::Display for Stat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
}

impl StatChanges {
    pub fn is_empty(&self) -> bool {
        self.entries().next().is_none()
    }

    /// `(stat, value)` for each value given.
    pub fn entries(&self) -> impl Iterator<Item = (Stat, &str)> {
        [
            (Stat::Hull, &self.hull),
            (Stat::Speed, &self.speed),
            (Stat::Turns, &self.turns),
            (Stat::Shields, &self.shields),
            (Stat::Armour, &self.armour),
            (Stat::Turrets, &self.turrets),
            (Stat::Cc, &self.cc),
            (Stat::Ff, &self.ff),
        ]
        .into_iter()
        .filter_map(|(n, v)| v.as_deref().map(|v| (n, v)))
    }
}

/// The units a list lets garrison, and where that comes from.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GarrisonUnits {
    /// Datasheet ids.
    pub units: Vec<String>,
    /// The rule, as the roster's garrison column explains it (our words).
    pub rule: String,
}

/// An initiative that applies when a condition on the formation holds.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InitiativeWhen {
    /// A condition in the constraint language over the formation alone
    /// (its id, tags and upgrades; not points).
    pub when: String,
    pub initiative: Known<Initiative>,
}

/// A rating that applies when a condition on the whole army holds.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RatingWhen {
    /// A condition in the constraint language over the whole army
    /// (`count(fortress-monastery) >= 1`).
    pub when: String,
    pub rating: Known<u8>,
    /// Where the rule comes from.
    pub provenance: String,
}

/// A cost that applies when a condition on the formation holds.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CostWhen {
    /// A condition in the constraint language, evaluated over the formation
    /// that takes the upgrade (`count(tag:battleship) == 1`). It may not
    /// use `points`, which this cost feeds.
    pub when: String,
    pub points: Known<Cost>,
}

/// Exactly enough transport vehicles for the formation.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Fills {
    /// The transport's datasheet id.
    pub unit: String,
    /// How many units one transport carries (1 to 100).
    #[schemars(range(min = 1, max = 100))]
    pub capacity: u32,
    /// Datasheet ids of the units that need carrying.
    pub carries: Vec<String>,
    /// Other transports in the formation that carry some of them first.
    #[serde(default)]
    pub shared_with: Vec<TransportSlot>,
    /// Where the rule comes from.
    pub provenance: String,
}

/// A transport already in the formation and how many units it carries.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TransportSlot {
    pub unit: String,
    /// 1 to 100.
    #[schemars(range(min = 1, max = 100))]
    pub capacity: u32,
}

/// Points of one formation or upgrade as the schema bounds them: a list
/// file is checked against it, so a hostile `--lists` file cannot make a
/// total run away (issue 21). Only the schema uses it.
#[derive(JsonSchema)]
#[serde(transparent)]
#[allow(dead_code)]
pub struct BoundedPoints(#[schemars(range(min = -10_000, max = 10_000))] i32);

/// A count in a list file as the schema bounds it (1 to 100, the most a
/// roster may write, `roster::MAX_COUNT`). Only the schema uses it.
#[derive(JsonSchema)]
#[serde(transparent)]
#[allow(dead_code)]
pub struct BoundedCount(#[schemars(range(min = 1, max = 100))] u32);

/// An upgrade's cost.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Cost {
    Each(#[schemars(range(min = -10_000, max = 10_000))] i32),
    Successive(#[schemars(inner(range(min = -10_000, max = 10_000)))] Vec<i32>),
}

/// Where a constraint is evaluated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Scope {
    /// Once, over the whole army.
    Army,
    /// Once per formation it applies to.
    Formation,
    /// Once per group (squadron, company, battlegroup) it applies to, over
    /// the group and its members.
    Group,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RuleSeverity {
    #[default]
    Error,
    Warning,
}

/// A limit of the list, in muster's constraint language (see `lists/README.md`).
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Constraint {
    #[schemars(regex(pattern = r"^[a-z0-9]+(-[a-z0-9]+)*$"))]
    pub id: String,
    pub scope: Scope,
    /// With `scope: formation`: the formations (ids or `tag:x`) it applies
    /// to; all formations when empty.
    #[serde(default)]
    pub applies_to: Vec<String>,
    /// The expression that must hold.
    pub rule: String,
    /// What the user is told when it does not hold, in our words.
    pub message: String,
    /// Where the rule comes from ("Codex Astartes: one-third limit").
    pub provenance: String,
    #[serde(default)]
    pub severity: RuleSeverity,
}

/// A rule of the list that muster does not check yet.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NotEnforced {
    #[schemars(regex(pattern = r"^[a-z0-9]+(-[a-z0-9]+)*$"))]
    pub id: String,
    /// The rule, in our words.
    pub rule: String,
    /// Why it is not checked (needs models on the table, needs data we lack...).
    pub why: String,
    /// Where the rule comes from (`NetEpic Gold core rules 6.1`), kept out
    /// of `rule` so that players read the rule alone; shown as the unchecked
    /// note's provenance (`--verbose`, JSON).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// The datasheets of one faction: `lists/<game>/datasheets/<id>.yaml`.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DatasheetFile {
    pub game: GameId,
    #[schemars(regex(pattern = r"^[a-z0-9]+(-[a-z0-9]+)*$"))]
    pub id: String,
    pub name: String,
    pub source: Vec<SourceRef>,
    #[serde(default)]
    pub decisions: Vec<String>,
    /// Epic Armageddon unit datasheets.
    #[serde(default)]
    pub units: Vec<Datasheet>,
    /// Battlefleet Gothic ship datasheets.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ships: Vec<ShipDatasheet>,
    /// Space Fleet ship datasheets.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sf_ships: Vec<SfShipDatasheet>,
    /// Heresy unit datasheets (one model's stat line).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub heresy_units: Vec<HeresyUnitDatasheet>,
    /// NetEpic Gold unit datasheets.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ne_units: Vec<NeUnitDatasheet>,
}

/// A Heresy model's stat line, values in the game's notation
/// (`grammar/heresy.pest`). A value the list's author does not have is
/// `missing`, and muster says so instead of guessing.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HeresyUnitDatasheet {
    /// Unique within the game; a detachment's `units:` name it.
    #[schemars(regex(pattern = r"^[a-z0-9]+(-[a-z0-9]+)*$"))]
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub aliases: Vec<String>,
    /// How it moves: `Foot`, `Cavalry`, `Wheeled`, `Tracked`, `Grav`,
    /// `Walker`, `Flier`.
    #[serde(rename = "type")]
    pub propulsion: Known<String>,
    /// `10cm`; `-` for a model without a move of its own (fliers, static
    /// guns).
    #[serde(rename = "move")]
    pub movement: Known<String>,
    /// Armour value, 1 to 10: `6`.
    pub armour: Known<String>,
    /// The d10 roll that hits, 1 to 10: `7`.
    pub accuracy: Known<String>,
    /// Assault value: `4`.
    pub assault: Known<String>,
    /// Target numbers fresh/fatigued/routed, none above the one before:
    /// `5/4/3`.
    pub morale: Known<String>,
    /// Commanders only, 1 to 10: `7`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leadership: Option<Known<String>>,
    /// Psykers only: `3`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mastery: Option<Known<String>>,
    /// Damage rating, where a model takes more than one hit: `3`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<Known<String>>,
    #[serde(default)]
    pub weapons: Vec<HeresyWeapon>,
    /// Model skills, with a parameter in brackets where the skill takes
    /// one: `Stealth`, `Regeneration (5)`, `Intercept (+1)`.
    #[serde(default)]
    pub skills: Vec<String>,
    /// What the notation cannot say, in the author's own words.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// One weapon of a Heresy model.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HeresyWeapon {
    /// Any name: `Bolter`, `Battle cannon`.
    pub name: String,
    /// Short/long in cm (`15/30cm`), or one figure (`60cm`).
    pub range: Known<String>,
    /// Added to the penetration roll, 0 to 5: `+2`.
    pub penetration: Known<String>,
    /// Attack dice, or `Template`: `3`.
    pub firepower: Known<String>,
    /// `All-purpose`, `Armour-piercing` or `Anti-infantry`.
    #[serde(rename = "type")]
    pub weapon_type: Known<String>,
    /// `Turret`, `Traverse turret`, `Swivel mount`, `Fixed mount`; left
    /// out for weapons carried by hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mount: Option<Known<String>>,
}

/// A NetEpic Gold unit's datasheet, values in the game's notation
/// (`grammar/netepic.pest`). A value the sources do not give as a plain
/// figure is `missing`, and `faults` says why.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NeUnitDatasheet {
    /// Unique within the game.
    #[schemars(regex(pattern = r"^[a-z0-9]+(-[a-z0-9]+)*$"))]
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub aliases: Vec<String>,
    /// Unit classes: `Infantry`, `Vehicle, Skimmer`, `Titan`.
    pub class: Known<String>,
    /// `10cm`, `-` (does not move).
    #[serde(rename = "move")]
    pub moves: Known<String>,
    /// `5+`, `6+ fixed`, `4+ / 6+ fixed`, `-` (none).
    pub save: Known<String>,
    /// Close assault factor: `+2`, `-1`.
    pub caf: Known<String>,
    /// `2+`, `-` (no morale value); left out where the profile has no
    /// morale line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub morale: Option<Known<String>>,
    /// `Lascannons: 75cm 2d 5+ (-2)`, `Flamer: LT 4+ (0)`,
    /// `Kustom Shootas: missing`.
    #[serde(default)]
    pub weapons: Vec<String>,
    /// Special abilities: `Command`, `Transport (2)`, `Point Defence (1)`.
    #[serde(default)]
    pub abilities: Vec<String>,
    /// Names of the army book's own rules the unit follows (not notation).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<String>,
    /// What is wrong with the source for this unit, in our words.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub faults: Vec<String>,
}

/// A Space Fleet ship's datasheet (or a space object's), values in the
/// game's notation (`grammar/space-fleet.pest`). A line the sheet does not
/// print is left out; a value the source lost or scrambled is `missing`,
/// and `faults` says what is wrong with the source.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SfShipDatasheet {
    /// Unique within the game.
    #[schemars(regex(pattern = r"^[a-z0-9]+(-[a-z0-9]+)*$"))]
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub aliases: Vec<String>,
    /// Inches a turn and the manoeuvre keyword: `4`, `6 Unmanoeuvrable`,
    /// `2-6 Super-Manoeuvrable`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed: Option<Known<String>>,
    /// Damage points (ships): `8`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<Known<String>>,
    /// Wounds (Tyranid vessels): `12`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wounds: Option<Known<String>>,
    /// Command cards that may be played on it each turn: `2`, `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command_cards: Option<Known<String>>,
    /// `100`, `Free`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<Known<String>>,
    /// Squadrons per battlefleet: `0-3`, `1-6`, `0+`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub squadrons: Option<Known<String>>,
    /// Ships per squadron: `1-3`, `2`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ships: Option<Known<String>>,
    /// Shield points per facing: `Front 12/Flanks 8`, `Front 6/Flanks 4/Rear 4`,
    /// `All round 1`, `None`, `Special`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shields: Option<Known<String>>,
    /// The range bands of the weapon table, in inches: `1-6" 7-12" 12-24"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bands: Option<Known<String>>,
    #[serde(default)]
    pub weapons: Vec<SfWeapon>,
    /// The critical damage table, one line per roll, in our own words:
    /// `1: shield generators; every shield is lost`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub critical: Vec<String>,
    /// Limits and special rules printed on the sheet, in our own words.
    #[serde(default)]
    pub notes: Vec<String>,
    /// What is wrong with the source for this ship, in our words.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub faults: Vec<String>,
}

/// One weapon row of a Space Fleet datasheet.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SfWeapon {
    /// `Laser Batteries`, `Vortex Torpedo`, `Hullgrinder`.
    pub name: String,
    /// `Broadsides`, `Forward Arc`, `Fixed Forward`, `Any`, `L/R/F`, `Special`.
    pub arc: Known<String>,
    /// Attack dice per range band of the sheet, `/` between bands and `-`
    /// where it cannot reach: `8/4/-`; or `Special`, `Area Effect`.
    pub dice: Known<String>,
}

/// A Battlefleet Gothic ship's datasheet, values as the source writes them.
/// A value the source lost or scrambled is `missing`, and `faults` says what
/// is wrong with the source.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ShipDatasheet {
    /// Unique within the game.
    #[schemars(regex(pattern = r"^[a-z0-9]+(-[a-z0-9]+)*$"))]
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub aliases: Vec<String>,
    /// Class and hits: `Escort/1`, `Cruiser/8`, `Grand Cruiser/10`,
    /// `Battleship/12`.
    #[serde(rename = "type")]
    pub hull: Known<String>,
    /// `20cm`.
    pub speed: Known<String>,
    /// `45°`, `90°`.
    pub turns: Known<String>,
    /// Number of shields.
    pub shields: Known<String>,
    /// `5+`, `6+`, `F6+/5+`, `(F6+)5+`, `F6+/S5+/R4+`.
    pub armour: Known<String>,
    /// Number of turrets.
    pub turrets: Known<String>,
    #[serde(default)]
    pub weapons: Vec<ShipWeapon>,
    /// The ship's special rules and printed notes, in our own words.
    #[serde(default)]
    pub notes: Vec<String>,
    /// What is wrong with the source for this ship, in our words.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub faults: Vec<String>,
}

/// One weapon row of a ship datasheet.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ShipWeapon {
    /// `Port wpns battery`, `Prow torpedoes`, `Dorsal lance battery`.
    pub name: String,
    /// `30cm`, `(30cm)` for torpedoes, `30-150cm`; absent for launch bays,
    /// whose craft carry their own speed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<Known<String>>,
    /// Firepower, strength or squadrons launched: `6`, `D6+2`, `Special`.
    pub firepower: Known<String>,
    /// `Left`, `Right`, `Front`, `L/F/R`; absent for launch bays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arc: Option<Known<String>>,
    /// Launch bays: the attack craft they may launch, with speed:
    /// `Furies (30cm)`, `Starhawks (20cm)`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub craft: Vec<String>,
}

/// Unit types of Epic Armageddon datasheets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
pub enum UnitType {
    #[serde(rename = "INF")]
    Infantry,
    #[serde(rename = "LV")]
    LightVehicle,
    #[serde(rename = "AV")]
    ArmouredVehicle,
    #[serde(rename = "WE")]
    WarEngine,
    #[serde(rename = "AC")]
    Aircraft,
    #[serde(rename = "AC/WE")]
    AircraftWarEngine,
    #[serde(rename = "SC")]
    Spacecraft,
    #[serde(rename = "CH")]
    Character,
}

impl UnitType {
    /// The glossary ids of the unit type (`INF`, `AC/WE`).
    pub fn glossary_ids(self) -> &'static [&'static str] {
        match self {
            UnitType::Infantry => &["infantry"],
            UnitType::LightVehicle => &["light-vehicle"],
            UnitType::ArmouredVehicle => &["armoured-vehicle"],
            UnitType::WarEngine => &["war-engine"],
            UnitType::Aircraft => &["aircraft"],
            UnitType::AircraftWarEngine => &["aircraft", "war-engine"],
            UnitType::Spacecraft => &["spacecraft"],
            UnitType::Character => &["character"],
        }
    }
}

/// One unit's datasheet, values in the pack's notation.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Datasheet {
    /// Unique within the game.
    #[schemars(regex(pattern = r"^[a-z0-9]+(-[a-z0-9]+)*$"))]
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub aliases: Vec<String>,
    #[serde(rename = "type")]
    pub unit_type: UnitType,
    /// `15cm`, `0cm`, `Fighter`, `Bomber`, `Fighter-bomber`, or `n/a`.
    pub speed: Known<String>,
    pub armour: Known<String>,
    pub cc: Known<String>,
    pub ff: Known<String>,
    #[serde(default)]
    pub weapons: Vec<Weapon>,
    /// Unit notes in the pack's notation (`Walker`, `Damage Capacity 3`).
    #[serde(default)]
    pub notes: Vec<String>,
    /// What the notation cannot say (what a transport carries, what a
    /// piece of wargear does), in our own words; printed on crib sheets.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remarks: Vec<String>,
    /// War engines: what a critical hit does, in our words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub critical_hit: Option<String>,
    /// Why a value above is `missing` (which sources lack it), in our
    /// words. Every NetEA datasheet with a missing value says why (a test
    /// holds them to it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missing_why: Option<String>,
}

/// One weapon line of a datasheet (a weapon with two profiles has two lines).
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    /// Name, with any multiplier: `2× Lascannon`.
    pub name: String,
    pub range: String,
    pub firepower: String,
    /// Weapon notes in the pack's notation (`MW`, `TK(D3)`, `FxF`).
    #[serde(default)]
    pub notes: Vec<String>,
}

/// Models that have no entry of their own in the lists (out of production,
/// or from older editions), with their unit type, for the 'Counts As' rule:
/// `lists/<game>/models.yaml`.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ModelsFile {
    pub game: GameId,
    pub source: Vec<SourceRef>,
    #[serde(default)]
    pub decisions: Vec<String>,
    pub models: Vec<Model>,
}

#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Model {
    pub name: String,
    #[serde(default)]
    pub aliases: Vec<String>,
    /// The list ids whose players are likely to own it.
    pub armies: Vec<String>,
    #[serde(rename = "type")]
    pub unit_type: UnitType,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The abbreviations and special rules of one game's datasheets, each with
/// its full name and a one-line summary in our own words:
/// `lists/<game>/glossary.yaml`.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GlossaryFile {
    pub game: GameId,
    pub source: Vec<SourceRef>,
    #[serde(default)]
    pub decisions: Vec<String>,
    pub terms: Vec<GlossaryTerm>,
}

/// One abbreviation or special rule.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GlossaryTerm {
    /// The id muster's notation module uses for it (`macro-weapon`).
    #[schemars(regex(pattern = r"^[a-z0-9]+(-[a-z0-9]+)*$"))]
    pub id: String,
    /// How datasheets abbreviate it (`MW`, `TK(x)`), if they do.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abbreviation: Option<String>,
    /// The full name (`Macro-weapon`).
    pub name: String,
    pub kind: TermKind,
    /// One line, in our own words.
    pub summary: String,
}

/// Where on a datasheet a term appears.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum TermKind {
    UnitType,
    Characteristic,
    Speed,
    Range,
    Firepower,
    WeaponNote,
    UnitNote,
    /// Battlefleet Gothic: what a weapon is (lance, torpedoes...).
    Weapon,
    /// Battlefleet Gothic: where on the hull a weapon sits (port, prow...).
    Mount,
    /// Battlefleet Gothic: a fire arc (left, front, right, rear).
    Arc,
    /// Battlefleet Gothic: attack craft a launch bay carries.
    Craft,
}

/// A game's scenarios: `lists/<game>/scenarios.yaml`. A roster or an
/// event that names one is held to the scenario's rules for its side.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    pub game: GameId,
    pub source: Vec<SourceRef>,
    #[serde(default)]
    pub decisions: Vec<String>,
    pub scenarios: Vec<Scenario>,
}

/// One scenario: what it changes in how the two fleets (or armies) are
/// chosen. Rules of play, set-up and victory are not listed.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    #[schemars(regex(pattern = r"^[a-z0-9]+(-[a-z0-9]+)*$"))]
    pub id: String,
    /// Its number in the source's table, if it has one; a roster may name
    /// the scenario by it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<u32>,
    pub name: String,
    #[serde(default)]
    pub aliases: Vec<String>,
    /// What it changes for the forces, in one line of our words.
    pub summary: String,
    #[serde(default)]
    pub attacker: ScenarioSide,
    #[serde(default)]
    pub defender: ScenarioSide,
    /// Rules about both forces that muster does not check, with why.
    #[serde(default)]
    pub not_enforced: Vec<NotEnforced>,
}

/// What a scenario asks of one side's force.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScenarioSide {
    /// The side's points limit as a share of the opponent's points; at
    /// most one side of a scenario has one (the other builds to the agreed
    /// size).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<PointsShare>,
    /// Rules for this side's force, in the constraint language of list
    /// files; ids and tags a list lacks match nothing.
    #[serde(default)]
    pub rules: Vec<Constraint>,
    /// Ids of list constraints the scenario sets aside for this side.
    #[serde(default)]
    pub waives: Vec<String>,
    #[serde(default)]
    pub not_enforced: Vec<NotEnforced>,
}

/// `floor(opponent * times / per) + plus`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PointsShare {
    #[schemars(range(min = 1))]
    pub times: u32,
    #[schemars(range(min = 1))]
    pub per: u32,
    #[serde(default)]
    pub plus: u32,
}
