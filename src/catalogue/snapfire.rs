//! Snapfire's numeric ids of one list, linked: which formation a share
//! link's formation id is, and what each upgrade pick gives, in indices.
//!
//! The ids are facts of Snapfire's list files, recorded in ours
//! (`snapfire_id`, `snapfire_ids`, `imports.snapfire_picks`). This module
//! checks them (unique within the list; with `imports.snapfire_file`, every
//! formation and upgrade reachable) and builds [`SnapfireIds`];
//! `crate::import::snapfire` reads and writes the links.

use super::locate::FileErrors;
use super::raw::{ArmyListFile, SnapfirePick};
use super::{Formation, FormationIdx, Upgrade, UpgradeIdx};
use crate::diagnostic::{Code, Diagnostic};
use std::collections::{BTreeMap, BTreeSet};

/// A list's Snapfire ids.
#[derive(Debug, Clone, Default)]
pub struct SnapfireIds {
    /// Snapfire's list file stem (`SM_codex_NETEA`), as links carry it.
    pub file: Option<String>,
    /// Snapfire's id of each formation, by `FormationIdx`.
    pub formation_ids: Vec<Option<u32>>,
    formations: BTreeMap<u32, FormationIdx>,
    picks: BTreeMap<u32, Pick>,
    /// Other readings of picks, used only when writing a link: Snapfire's
    /// "3 Hydra or Heavy AA Platform" is also two of one and one of the
    /// other.
    alternates: Vec<Pick>,
    /// Each upgrade's pick ids, in the order the file gives them.
    pub upgrade_picks: Vec<Vec<u32>>,
    /// The only ids a link writes for an upgrade in a formation, where
    /// Snapfire offers only some of them there (`snapfire_ids_by_formation`).
    /// (Fx-hashed: a share link asks it for each pick a formation could use.)
    restricted: super::names::KeyMap<(FormationIdx, UpgradeIdx), Vec<u32>>,
    /// `snapfire_names`: a name Snapfire's export prints and the upgrade
    /// it may mean.
    names: Vec<(String, UpgradeIdx)>,
    /// `imports.snapfire_picks` with a `name`: what the export prints for
    /// the pick, and what it gives.
    pick_names: Vec<(String, Vec<(UpgradeIdx, u32)>)>,
}

/// What one upgrade pick gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pick {
    pub id: u32,
    /// Upgrades and counts, at least one.
    pub gives: Vec<(UpgradeIdx, u32)>,
}

impl SnapfireIds {
    /// Whether the list records any Snapfire id at all.
    pub fn has_ids(&self) -> bool {
        !self.formations.is_empty() || !self.picks.is_empty()
    }

    pub fn formation(&self, id: u32) -> Option<FormationIdx> {
        self.formations.get(&id).copied()
    }

    pub fn pick(&self, id: u32) -> Option<&Pick> {
        self.picks.get(&id)
    }

    /// Every pick, by id.
    pub fn picks(&self) -> impl Iterator<Item = &Pick> {
        self.picks.values()
    }

    /// Every way of writing upgrades as a pick: each pick's reading, then
    /// the other readings the list records.
    pub fn writings(&self) -> impl Iterator<Item = &Pick> {
        self.picks.values().chain(&self.alternates)
    }

    /// [`Self::writings`] that Snapfire offers in `formation`: a pick
    /// giving an upgrade whose ids the formation restricts must be one of
    /// those ids.
    pub fn writings_in(&self, formation: FormationIdx) -> impl Iterator<Item = &Pick> {
        self.writings().filter(move |p| self.offers(formation, p))
    }

    /// What a pick whose printed name is `name` gives (`imports.snapfire_picks`
    /// with a `name`).
    pub fn pick_named(&self, name: &str) -> Option<&[(UpgradeIdx, u32)]> {
        self.pick_names
            .iter()
            .find(|(n, _)| super::names::same_thing(name, n))
            .map(|(_, gives)| gives.as_slice())
    }

    /// Whether any pick has a printed name of its own.
    pub fn has_pick_names(&self) -> bool {
        !self.pick_names.is_empty()
    }

    /// The upgrades whose `snapfire_names` include `name`.
    pub fn named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = UpgradeIdx> + 'a {
        self.names
            .iter()
            .filter(move |(n, _)| super::names::same_thing(name, n))
            .map(|&(_, u)| u)
    }

    /// The reading of pick `id` in a formation that takes every upgrade
    /// `takes` accepts: the pick's own, else another reading the list
    /// records for the same id (`Boyz`, which a Feral Junka Brigade takes
    /// with Junkatrukks, are a Warband's core Boyz), else the pick's own.
    pub fn pick_in(&self, id: u32, takes: impl Fn(UpgradeIdx) -> bool) -> Option<&Pick> {
        let own = self.picks.get(&id)?;
        let fits = |p: &&Pick| p.gives.iter().all(|&(u, _)| takes(u));
        if fits(&own) {
            return Some(own);
        }
        Some(
            self.alternates
                .iter()
                .filter(|p| p.id == id)
                .find(fits)
                .unwrap_or(own),
        )
    }

    /// Whether Snapfire offers pick `p` in `formation` (see
    /// [`Self::writings_in`]).
    pub fn offers(&self, formation: FormationIdx, p: &Pick) -> bool {
        self.restricted.is_empty()
            || p.gives.iter().all(|&(u, _)| {
                self.restricted
                    .get(&(formation, u))
                    .is_none_or(|ids| ids.contains(&p.id))
            })
    }
}

/// Checks and links the Snapfire ids of `file`, whose formations and
/// upgrades are already linked (same order as in the file).
pub(super) fn link(
    file: &ArmyListFile,
    formations: &[Formation],
    upgrades: &[Upgrade],
    // Warnings only when the file is being proven (see `link::link`).
    prove: bool,
    errors: &mut FileErrors<'_>,
) -> SnapfireIds {
    let upgrade_index: super::names::KeyMap<&str, UpgradeIdx> = upgrades
        .iter()
        .enumerate()
        .map(|(i, u)| (u.id.as_str(), i))
        .collect();
    let mut ids = SnapfireIds {
        file: file.imports.as_ref().and_then(|i| i.snapfire_file.clone()),
        formation_ids: vec![None; formations.len()],
        upgrade_picks: vec![Vec::new(); upgrades.len()],
        ..SnapfireIds::default()
    };
    claim_ids(file, &mut ids, errors);
    let given = link_picks(file, upgrades, &upgrade_index, &mut ids, errors);
    link_restricted(file, formations, &mut ids, errors);
    let none = linked_none(file, formations, &upgrade_index, errors);
    if ids.file.is_some() {
        if !ids.has_ids() {
            if prove {
                warn_no_ids(file, errors);
            }
        } else {
            require_ids(file, &ids, &given, &none, errors);
        }
    }
    ids
}

/// Where a Snapfire id was claimed: its pointer is written only for an
/// error.
#[derive(Clone, Copy)]
enum Claimed {
    Formation(usize, usize),
    Upgrade(usize, usize),
}

impl std::fmt::Display for Claimed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Claimed::Formation(s, i) => write!(f, "/sections/{s}/formations/{i}/snapfire_id"),
            Claimed::Upgrade(u, i) => write!(f, "/upgrades/{u}/snapfire_ids/{i}"),
        }
    }
}

/// The formations' and upgrades' own ids, unique within the list,
/// formations and upgrades together.
fn claim_ids(file: &ArmyListFile, ids: &mut SnapfireIds, errors: &mut FileErrors<'_>) {
    let mut seen: super::names::KeyMap<u32, Claimed> = super::names::KeyMap::default();
    let mut claim = |id: u32, here: Claimed, errors: &mut FileErrors<'_>| {
        if let Some(first) = seen.get(&id) {
            errors.error(
                &here.to_string(),
                format!("Snapfire id {id} is already used at {first}"),
            );
            false
        } else {
            seen.insert(id, here);
            true
        }
    };
    let mut index = 0;
    for (s, section) in file.sections.iter().enumerate() {
        for (f, formation) in section.formations.iter().enumerate() {
            if let Some(id) = formation.snapfire_id {
                if claim(id, Claimed::Formation(s, f), errors) {
                    ids.formations.insert(id, index);
                    ids.formation_ids[index] = Some(id);
                }
            }
            index += 1;
        }
    }
    for (u, upgrade) in file.upgrades.iter().enumerate() {
        for (i, &id) in upgrade.snapfire_ids.iter().enumerate() {
            if claim(id, Claimed::Upgrade(u, i), errors) {
                ids.picks.insert(
                    id,
                    Pick {
                        id,
                        gives: vec![(u, 1)],
                    },
                );
                ids.upgrade_picks[u].push(id);
            }
        }
        for name in &upgrade.snapfire_names {
            ids.names.push((name.clone(), u));
        }
    }
}

/// Picks that give more than one of their upgrade
/// (`imports.snapfire_picks`). Returns the upgrades some pick gives.
fn link_picks(
    file: &ArmyListFile,
    upgrades: &[Upgrade],
    upgrade_index: &super::names::KeyMap<&str, UpgradeIdx>,
    ids: &mut SnapfireIds,
    errors: &mut FileErrors<'_>,
) -> BTreeSet<UpgradeIdx> {
    let mut given: BTreeSet<UpgradeIdx> = BTreeSet::new();
    let mut described = BTreeSet::new();
    let picks = file.imports.as_ref().map_or(&[][..], |i| &i.snapfire_picks);
    for (p, pick) in picks.iter().enumerate() {
        let pointer = format!("/imports/snapfire_picks/{p}");
        let first = described.insert(pick.id);
        let gives = pick_gives(pick, &pointer, upgrade_index, errors);
        if let Some(name) = &pick.name {
            ids.pick_names.push((name.clone(), gives.clone()));
        }
        let Some(recorded) = ids.picks.get_mut(&pick.id) else {
            errors.error(
                &format!("{pointer}/id"),
                format!("pick {} is not among any upgrade's `snapfire_ids`", pick.id),
            );
            continue;
        };
        let owner = recorded.gives[0].0;
        if first && !gives.iter().any(|&(u, _)| u == owner) {
            errors.error(
                &format!("{pointer}/gives"),
                format!(
                    "pick {} is recorded on `{}`, which its `gives` leaves out",
                    pick.id, upgrades[owner].id
                ),
            );
            continue;
        }
        given.extend(gives.iter().map(|&(u, _)| u));
        if first {
            recorded.gives = gives;
        } else {
            ids.alternates.push(Pick { id: pick.id, gives });
        }
    }
    given
}

/// What one described pick gives, each upgrade named by the list.
fn pick_gives(
    pick: &SnapfirePick,
    pointer: &str,
    upgrade_index: &super::names::KeyMap<&str, UpgradeIdx>,
    errors: &mut FileErrors<'_>,
) -> Vec<(UpgradeIdx, u32)> {
    let mut gives = Vec::new();
    for (upgrade, &count) in &pick.gives {
        match upgrade_index.get(upgrade.as_str()) {
            Some(&u) if count > 0 => gives.push((u, count)),
            Some(_) => errors.error(
                &format!("{pointer}/gives/{upgrade}"),
                format!(
                    "pick {} gives no `{upgrade}`: write a count of 1 or more",
                    pick.id
                ),
            ),
            None => errors.error(
                &format!("{pointer}/gives/{upgrade}"),
                format!(
                    "pick {} gives `{upgrade}`, which names no upgrade of the list",
                    pick.id
                ),
            ),
        }
    }
    gives
}

/// Ids restricted per formation: the formation offers the upgrade, and
/// each id is one the upgrade's picks use.
fn link_restricted(
    file: &ArmyListFile,
    formations: &[Formation],
    ids: &mut SnapfireIds,
    errors: &mut FileErrors<'_>,
) {
    let formation_index: super::names::KeyMap<&str, FormationIdx> = formations
        .iter()
        .enumerate()
        .map(|(i, f)| (f.id.as_str(), i))
        .collect();
    for (u, upgrade) in file.upgrades.iter().enumerate() {
        for (formation, list) in &upgrade.snapfire_ids_by_formation {
            let pointer = format!("/upgrades/{u}/snapfire_ids_by_formation/{formation}");
            let Some(&f) = formation_index.get(formation.as_str()) else {
                errors.error(
                    &pointer,
                    format!("`{formation}` in `snapfire_ids_by_formation` names no formation of the list"),
                );
                continue;
            };
            if !formations[f].upgrades.contains(&u) {
                errors.error(
                    &pointer,
                    format!(
                        "formation `{formation}` does not offer `{}`, so no link writes its ids there",
                        upgrade.id
                    ),
                );
                continue;
            }
            if list.is_empty() {
                errors.error(
                    &pointer,
                    "an empty list of ids: name at least one, or leave the formation out".to_string(),
                );
                continue;
            }
            let mut ok = true;
            for (i, id) in list.iter().enumerate() {
                let gives = ids
                    .picks
                    .get(id)
                    .is_some_and(|p| p.gives.iter().any(|&(g, _)| g == u));
                if !gives {
                    errors.error(
                        &format!("{pointer}/{i}"),
                        format!(
                            "Snapfire id {id} is not a pick of `{}` (its `snapfire_ids`)",
                            upgrade.id
                        ),
                    );
                    ok = false;
                }
            }
            if ok {
                ids.restricted.insert((f, u), list.clone());
            }
        }
    }
}

/// The ids of `imports.snapfire_none`, each naming a formation or upgrade.
fn linked_none<'f>(
    file: &'f ArmyListFile,
    formations: &[Formation],
    upgrade_index: &super::names::KeyMap<&str, UpgradeIdx>,
    errors: &mut FileErrors<'_>,
) -> BTreeSet<&'f str> {
    let mut none: BTreeSet<&str> = BTreeSet::new();
    let listed = file.imports.as_ref().map_or(&[][..], |i| &i.snapfire_none);
    for (n, id) in listed.iter().enumerate() {
        let known = formations.iter().any(|f| &f.id == id) || upgrade_index.contains_key(id.as_str());
        if !known {
            errors.error(
                &format!("/imports/snapfire_none/{n}"),
                format!("`{id}` in `snapfire_none` names no formation or upgrade of the list"),
            );
        }
        none.insert(id);
    }
    none
}

/// A list that names its Snapfire file but records no ids: links for it
/// are refused.
fn warn_no_ids(file: &ArmyListFile, errors: &mut FileErrors<'_>) {
    let span = errors.span("/imports/snapfire_file");
    errors.diagnostics.push(
        Diagnostic::warning(
            Code::ListData,
            format!(
                "list `{}` names its Snapfire file but records no Snapfire ids: share links for it are refused",
                file.id
            ),
        )
        .at(errors.file, span),
    );
}

/// With a file name, links are offered for the list: every formation and
/// upgrade must be something a link can say.
fn require_ids(
    file: &ArmyListFile,
    ids: &SnapfireIds,
    given: &BTreeSet<UpgradeIdx>,
    none: &BTreeSet<&str>,
    errors: &mut FileErrors<'_>,
) {
    let mut index = 0;
    for (s, section) in file.sections.iter().enumerate() {
        for (f, formation) in section.formations.iter().enumerate() {
            if ids.formation_ids[index].is_none() && !none.contains(formation.id.as_str()) {
                errors.error(
                    &format!("/sections/{s}/formations/{f}/id"),
                    format!(
                        "formation `{}` has no `snapfire_id`: a share link could not carry it (or list it in `imports.snapfire_none`)",
                        formation.id
                    ),
                );
            }
            index += 1;
        }
    }
    for (u, upgrade) in file.upgrades.iter().enumerate() {
        if ids.upgrade_picks[u].is_empty() && !given.contains(&u) && !none.contains(upgrade.id.as_str()) {
            errors.error(
                &format!("/upgrades/{u}/id"),
                format!(
                    "upgrade `{}` has no `snapfire_ids` and no pick gives it: a share link could not carry it (or list it in `imports.snapfire_none`)",
                    upgrade.id
                ),
            );
        }
    }
}
