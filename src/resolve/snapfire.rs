//! Snapfire's text export read as Snapfire writes it (`Force.plainText`,
//! war/js/Force.js): a heading is one formation, its name upper-cased,
//! whatever number it starts with (`2 STORM TALONS [200]`); a details line
//! writes each pick once, `N Name` when taken N times, where the name may
//! itself be counted (`3 2x Tyranid Warriors`: three picks of a pair) or be
//! several units (`2 4 Rangers, 3 War Walkers`: two picks of that pack).
//!
//! [`reread`] rewrites the items so that the ordinary resolution reads them
//! as those picks: counts multiplied into the names they count.

use super::counted;
use crate::catalogue::names::{self, Lookup, NameIndex};
use crate::catalogue::{ArmyList, FormationIdx, UpgradeIdx};
use crate::roster::{Dialect, Entry, Item, MAX_COUNT, Roster, Spanned};
use crate::source::Span;

/// The roster with its Snapfire items reread, or `None` when it is not a
/// Snapfire export or nothing needs rereading.
pub(super) fn reread(roster: &Roster, list: &ArmyList) -> Option<Roster> {
    if roster.dialect != Dialect::Snapfire
        || !(list.snapfire.has_pick_names() || roster.entries.iter().any(needs))
    {
        return None;
    }
    let mut copy = roster.clone();
    let text = roster.file.text();
    for entry in &mut copy.entries {
        reread_entry(entry, text, list);
    }
    Some(copy)
}

/// Whether an entry has a counted heading or upgrade (an upgrade whose
/// count may reach into its name, or a pack taken more than once).
fn needs(entry: &Entry) -> bool {
    entry.item.counted || entry.upgrades.iter().any(|u| u.counted)
}

fn reread_entry(entry: &mut Entry, text: &str, list: &ArmyList) {
    // Snapfire writes no count on a heading: a number there is the name's.
    if entry.item.counted {
        entry.item.count = 1;
        entry.item.counted = false;
    }
    // Which items a count before a counted name multiplied (`2 4 Rangers`):
    // their outer count, for the pack they may begin.
    let mut outer = vec![None; entry.upgrades.len()];
    for (item, outer) in entry.upgrades.iter_mut().zip(&mut outer) {
        if whole_is_snapfire_name(item, text, list) {
            continue;
        }
        if let Some((n, start, name)) = inner_count(item, text, &list.upgrade_names) {
            *outer = Some((item.count, n));
            item.name.value = name.to_string();
            item.name.span.start = start;
            item.count = item.count.saturating_mul(n).min(MAX_COUNT * MAX_COUNT);
            item.counted = true;
        }
    }
    if let Lookup::Found(formation) = list.formation_names.lookup(&entry.item.name.value) {
        multiply_packs(&mut entry.upgrades, &outer, formation, list);
    }
    let items = std::mem::take(&mut entry.upgrades);
    entry.upgrades = items
        .into_iter()
        .flat_map(|item| {
            named_pick(&item, list)
                .or_else(|| parts(&item, text, &list.upgrade_names))
                .unwrap_or_else(|| vec![item])
        })
        .collect();
}

/// An item named as a pick Snapfire prints under a name of its own
/// (`Replace 2 chaos marine units with 2 Havok units`): what the pick
/// gives, each upgrade by its name, times the item's count.
fn named_pick(item: &Item, list: &ArmyList) -> Option<Vec<Item>> {
    let gives = list.snapfire.pick_named(&item.name.value)?;
    Some(
        gives
            .iter()
            .map(|&(u, n)| Item {
                count: item.count.saturating_mul(n).min(MAX_COUNT * MAX_COUNT),
                counted: true,
                name: Spanned::new(list.upgrades[u].name.clone(), item.name.span),
                span: item.span,
            })
            .collect(),
    )
}

/// An item whose name, or whose whole text with its count, is a name
/// Snapfire prints for an upgrade (`snapfire_names`): the whole is read as
/// that name, once (`2 Bunkers + Trenches` is one pick).
fn whole_is_snapfire_name(item: &mut Item, text: &str, list: &ArmyList) -> bool {
    if list.snapfire.named(&item.name.value).next().is_some() {
        return true;
    }
    let Some(whole) = text.get(item.span.start..item.name.span.end) else {
        return false;
    };
    if !item.counted || list.snapfire.named(whole).next().is_none() {
        return false;
    }
    item.name.value = whole.to_string();
    item.name.span.start = item.span.start;
    item.count = 1;
    item.counted = false;
    true
}

/// `2x Tyranid Warriors` read as a count and a name, where the name as
/// written is no upgrade of the list but the rest is: the count, and the
/// rest with its start in the file.
fn inner_count<'t>(item: &Item, text: &'t str, names: &NameIndex) -> Option<(u32, usize, &'t str)> {
    if !matches!(names.lookup(&item.name.value), Lookup::NotFound) {
        return None;
    }
    let (n, rest) = counted(&item.name.value);
    let numeric = item.name.value.starts_with(|c: char| c.is_ascii_digit());
    if !numeric || rest.is_empty() || matches!(names.lookup(rest), Lookup::NotFound) {
        return None;
    }
    let start = item.name.span.end.checked_sub(rest.len())?;
    Some((n, start, text.get(start..item.name.span.end)?))
}

/// A pick named by its parts in parentheses (`4 Hammerhead Gunships (1
/// Fusionhead, 1 Ionhead, 2 Railhead)`), where the whole is no upgrade of
/// the list but each part is and the parts add up to the number before
/// them: the parts as items (times Snapfire's count, `2 4 Hammerhead
/// Gunships (...)`).
fn parts(item: &Item, text: &str, names: &NameIndex) -> Option<Vec<Item>> {
    let name = &item.name;
    let open = name.value.find('(')?;
    let inner = name.value[open + 1..].strip_suffix(')')?;
    if !matches!(names.lookup(&name.value), Lookup::NotFound) || !inner.contains(',') {
        return None;
    }
    let (total, times) = match name.value.starts_with(|c: char| c.is_ascii_digit()) {
        true => (counted(&name.value).0, item.count),
        false => (item.count, 1),
    };
    let mut out = Vec::new();
    let mut at = name.span.start + open + 1;
    for part in inner.split(',') {
        let start = at + (part.len() - part.trim_start().len());
        at += part.len() + 1;
        let (n, rest) = counted(part);
        if rest.is_empty() || matches!(names.lookup(rest), Lookup::NotFound) {
            return None;
        }
        let end = start + part.trim().len();
        let rest_start = end - rest.len();
        out.push(Item {
            count: n.saturating_mul(times),
            counted: true,
            name: Spanned::new(text.get(rest_start..end)?.to_string(), Span::new(rest_start, end)),
            span: Span::new(start, end),
        });
    }
    let sum = out.iter().fold(0u32, |sum, i| sum.saturating_add(i.count));
    (sum == total.saturating_mul(times)).then_some(out)
}

/// A pick of several upgrades (`4 Rangers, 3 War Walkers`) taken K times
/// is written `K 4 Rangers, 3 War Walkers`: the count reaches only the
/// first item, so the others are multiplied by K here. `outer` holds, for
/// each item a count before a counted name multiplied, that count and the
/// inner one.
fn multiply_packs(
    items: &mut [Item],
    outer: &[Option<(u32, u32)>],
    formation: FormationIdx,
    list: &ArmyList,
) {
    let upgrade_of = |item: &Item| match list.upgrade_names.lookup(&item.name.value) {
        Lookup::Found(u) => Some(u),
        _ => None,
    };
    let mut i = 0;
    while i < items.len() {
        let found = outer[i]
            .zip(upgrade_of(&items[i]))
            .and_then(|((times, each), first)| {
                list.snapfire
                    .writings_in(formation)
                    .filter(|p| p.gives.len() > 1 && p.gives.contains(&(first, each)))
                    .find_map(|p| pack_len(&items[i + 1..], &p.gives, first, &upgrade_of))
                    .map(|len| (times, len))
            });
        match found {
            Some((times, len)) => {
                for item in &mut items[i + 1..i + len] {
                    item.count = item.count.saturating_mul(times);
                }
                i += len;
            }
            None => i += 1,
        }
    }
}

/// How many items a pack that gives `gives` spans when `rest` follows its
/// first item (which names `first`): the pack's other upgrades, each with
/// its count exactly.
fn pack_len(
    rest: &[Item],
    gives: &[(UpgradeIdx, u32)],
    first: UpgradeIdx,
    upgrade_of: &dyn Fn(&Item) -> Option<UpgradeIdx>,
) -> Option<usize> {
    let others = rest.get(..gives.len() - 1)?;
    let all_there = gives.iter().filter(|&&(u, _)| u != first).all(|&(u, n)| {
        others
            .iter()
            .any(|item| upgrade_of(item) == Some(u) && item.count == n)
    });
    all_there.then_some(gives.len())
}

/// How a Snapfire entry's items may be read where `snapfire_names` give a
/// name more than one meaning: each reading is the upgrade of every item
/// (`None`: looked up as usual), Snapfire's own order first (the k-th item
/// of a name takes its k-th meaning, core items first), then the others,
/// at most [`MAX_READINGS`]. Empty when no item has such a name.
pub(super) fn readings(
    entry: &Entry,
    formation: FormationIdx,
    list: &ArmyList,
) -> Vec<Vec<Option<UpgradeIdx>>> {
    let meanings: Vec<Vec<UpgradeIdx>> = entry
        .upgrades
        .iter()
        .map(|item| meanings(&item.name.value, formation, list))
        .collect();
    if meanings.iter().all(Vec::is_empty) {
        return Vec::new();
    }
    let first: Vec<Option<UpgradeIdx>> = meanings
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let name = &entry.upgrades[i].name.value;
            let before = entry.upgrades[..i]
                .iter()
                .filter(|e| names::same_thing(&e.name.value, name))
                .count();
            m.get(before % m.len().max(1)).copied()
        })
        .collect();
    let mut all = vec![first];
    // Later items first: Snapfire writes a formation's core items first,
    // so a later item of a shared name is the likelier paid extra.
    for (i, m) in meanings.iter().enumerate().rev().filter(|(_, m)| m.len() > 1) {
        let so_far = all.len();
        for reading in 0..so_far {
            for &u in m {
                if all.len() < MAX_READINGS && all[reading][i] != Some(u) {
                    let mut other = all[reading].clone();
                    other[i] = Some(u);
                    all.push(other);
                }
            }
        }
    }
    all
}

/// The most readings of one entry tried against its cost.
const MAX_READINGS: usize = 32;

/// What a name may mean in `formation` when some upgrade's
/// `snapfire_names` has it: those upgrades first, then what the name
/// means as usual, each only if the formation takes it. Empty when no
/// `snapfire_names` has it.
fn meanings(name: &str, formation: FormationIdx, list: &ArmyList) -> Vec<UpgradeIdx> {
    let mut out: Vec<UpgradeIdx> = list.snapfire.named(name).collect();
    if out.is_empty() {
        return out;
    }
    match list.upgrade_names.lookup(name) {
        Lookup::Found(u) => out.push(u),
        Lookup::Ambiguous(candidates) => out.extend(candidates.iter().copied()),
        Lookup::NotFound => {}
    }
    let takes = &list.formations[formation].upgrades;
    let mut seen = Vec::new();
    out.retain(|u| {
        takes.contains(u) && !seen.contains(u) && {
            seen.push(*u);
            true
        }
    });
    out
}
