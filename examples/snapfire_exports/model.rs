//! Snapfire's list file and forces as its builder makes them (war/js/
//! ArmyList.js, Force.js, chooser.js): mandatory picks, swaps, added picks
//! within the maximum counts, the points, the text export and the link.

use muster::catalogue::ArmyList;
use muster::resolve::no_effect_on;
use serde_json::Value;
use std::collections::BTreeMap;

/// A small deterministic generator (xorshift64*).
pub struct Rng(u64);

impl Rng {
    /// Every seed its own sequence: the seed is spread over all bits
    /// first (`seed | 1` alone made seeds 2 and 3 the same run).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(17) | 1)
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d);
        if n == 0 { 0 } else { (x >> 33) as usize % n }
    }
}

pub struct SfFormation {
    pub id: u32,
    pub name: String,
    pub pts: i64,
    pub units: Option<String>,
    pub upgrades: Vec<u32>,
}

pub struct SfUpgrade {
    pub name: String,
    /// One price, or Snapfire's successive prices (cycled).
    pub pts: Vec<i64>,
}

pub struct SfConstraint {
    pub from: Vec<u32>,
    pub min: u32,
    pub max: u32,
    /// `None`: every formation.
    pub applies_to: Option<Vec<u32>>,
    pub per_army: bool,
}

impl SfConstraint {
    fn applies(&self, formation: u32) -> bool {
        self.applies_to.as_ref().is_none_or(|f| f.contains(&formation))
    }

    /// `ArmyList.init`: a minimum outside a per-army rule makes picks.
    fn mandatory(&self) -> bool {
        self.min > 0 && !self.per_army
    }
}

pub struct SfList {
    pub id: String,
    pub version: String,
    pub formations: Vec<SfFormation>,
    pub upgrades: BTreeMap<u32, SfUpgrade>,
    pub constraints: Vec<SfConstraint>,
}

fn ids(v: &Value) -> Vec<u32> {
    v.as_array()
        .map(|a| a.iter().filter_map(|x| x.as_u64()).map(|x| x as u32).collect())
        .unwrap_or_default()
}

fn text(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or_default().to_string()
}

impl SfList {
    pub fn parse(json: &str) -> Result<SfList, String> {
        let v: Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
        let mut formations = Vec::new();
        for section in v["sections"].as_array().into_iter().flatten() {
            for f in section["formations"].as_array().into_iter().flatten() {
                formations.push(SfFormation {
                    id: f["id"].as_u64().ok_or("a formation without an id")? as u32,
                    name: text(f, "name"),
                    pts: f["pts"].as_i64().unwrap_or(0),
                    units: f["units"].as_str().filter(|u| !u.is_empty()).map(str::to_string),
                    upgrades: ids(&f["upgrades"]),
                });
            }
        }
        let mut upgrades = BTreeMap::new();
        for u in v["upgrades"].as_array().into_iter().flatten() {
            let pts = match &u["pts"] {
                Value::Array(a) => a.iter().filter_map(Value::as_i64).collect(),
                other => vec![other.as_i64().unwrap_or(0)],
            };
            let id = u["id"].as_u64().ok_or("an upgrade without an id")? as u32;
            upgrades.insert(
                id,
                SfUpgrade {
                    name: text(u, "name"),
                    pts,
                },
            );
        }
        let constraints = v["upgradeConstraints"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| {
                let min = c["min"].as_u64().unwrap_or(0) as u32;
                let max = c["max"].as_u64().map_or(1_000_000, |m| m as u32);
                SfConstraint {
                    from: ids(&c["from"]),
                    min,
                    max,
                    applies_to: c.get("appliesTo").map(ids),
                    per_army: c["perArmy"].as_bool().unwrap_or(false),
                }
            })
            .collect();
        Ok(SfList {
            id: text(&v, "id"),
            version: text(&v, "version"),
            formations,
            upgrades,
            constraints,
        })
    }

    /// The formations muster knows by id (indices into `formations`).
    pub fn usable_formations(&self, list: &ArmyList) -> Vec<usize> {
        (0..self.formations.len())
            .filter(|&i| list.snapfire.formation(self.formations[i].id).is_some())
            .collect()
    }

    fn known(&self, list: &ArmyList, id: u32) -> bool {
        self.upgrades.contains_key(&id) && list.snapfire.pick(id).is_some()
    }

    fn name(&self, id: u32) -> &str {
        self.upgrades.get(&id).map_or("", |u| u.name.as_str())
    }
}

/// One formation of a force: its type and its picks, in the order Snapfire
/// keeps them (`formation.upgrades`).
pub struct Made {
    pub formation: usize,
    pub formation_id: u32,
    pub picks: Vec<u32>,
}

pub struct Expected {
    pub id: String,
    pub upgrades: BTreeMap<String, u32>,
}

pub struct Force {
    pub name: String,
    pub formations: Vec<Made>,
}

impl Force {
    pub fn random(sf: &SfList, list: &ArmyList, usable: &[usize], rng: &mut Rng, n: usize) -> Force {
        let mut force = Force {
            // Snapfire's force name is free text: a comma or a number in
            // it must not be read as the points. (Not a `~`: Snapfire's
            // link leaves it bare and splits on it.)
            name: match n % 3 {
                0 => format!("Generated force {n}"),
                1 => format!("Waaagh, {n} POINTS of it"),
                _ => format!("Force {n}, the 2nd & last (of 3)"),
            },
            formations: Vec::new(),
        };
        for _ in 0..=rng.below(8) {
            let formation = usable[rng.below(usable.len())];
            let made = Made {
                formation,
                formation_id: sf.formations[formation].id,
                picks: defaults(sf, list, sf.formations[formation].id),
            };
            force.formations.push(made);
            let at = force.formations.len() - 1;
            for _ in 0..rng.below(12) {
                match rng.below(5) {
                    0 => force.swap(sf, list, at, rng),
                    1 => force.remove(sf, at, rng),
                    2 => force.repeat(sf, at, rng),
                    _ => force.add(sf, list, at, rng),
                }
            }
        }
        force
    }

    /// Every pick of the force.
    fn army_picks(&self) -> Vec<u32> {
        self.formations
            .iter()
            .flat_map(|f| f.picks.iter().copied())
            .collect()
    }

    /// Whether `id` can be added to a formation of type `formation` with
    /// `picks` as its picks and `army` as the army's (`cannotAdd`).
    fn allowed(sf: &SfList, formation: u32, id: u32, picks: &[u32], army: &[u32]) -> bool {
        sf.constraints
            .iter()
            .filter(|c| c.applies(formation) && c.from.contains(&id))
            .all(|c| {
                let pool = if c.per_army { army } else { picks };
                pool.iter().filter(|p| c.from.contains(p)).count() < c.max as usize
            })
    }

    fn add(&mut self, sf: &SfList, list: &ArmyList, at: usize, rng: &mut Rng) {
        let f = &sf.formations[self.formations[at].formation];
        let offered: Vec<u32> = f
            .upgrades
            .iter()
            .copied()
            .filter(|&u| sf.known(list, u))
            .collect();
        if offered.is_empty() {
            return;
        }
        let id = offered[rng.below(offered.len())];
        let army = self.army_picks();
        if Force::allowed(sf, f.id, id, &self.formations[at].picks, &army) {
            self.formations[at].picks.push(id);
        }
    }

    /// Takes one of the formation's picks once more, where its limits
    /// allow (Snapfire's `N Name`).
    fn repeat(&mut self, sf: &SfList, at: usize, rng: &mut Rng) {
        let f = &sf.formations[self.formations[at].formation];
        let picks = &self.formations[at].picks;
        let offered: Vec<u32> = picks.iter().copied().filter(|p| f.upgrades.contains(p)).collect();
        if offered.is_empty() {
            return;
        }
        let id = offered[rng.below(offered.len())];
        let army = self.army_picks();
        if Force::allowed(sf, f.id, id, picks, &army) {
            self.formations[at].picks.push(id);
        }
    }

    /// Swaps a mandatory pick for another of its options (`swapUpgrade`).
    fn swap(&mut self, sf: &SfList, list: &ArmyList, at: usize, rng: &mut Rng) {
        let f = &sf.formations[self.formations[at].formation];
        let picks = &self.formations[at].picks;
        if picks.is_empty() {
            return;
        }
        let old = picks[rng.below(picks.len())];
        let Some(c) = sf
            .constraints
            .iter()
            .find(|c| c.mandatory() && c.applies(f.id) && c.from.contains(&old))
        else {
            return;
        };
        let options: Vec<u32> = c
            .from
            .iter()
            .copied()
            .filter(|&o| o != old && sf.known(list, o))
            .collect();
        if options.is_empty() {
            return;
        }
        let new = options[rng.below(options.len())];
        let mut without = picks.clone();
        remove_first(&mut without, old);
        let mut army = self.army_picks();
        remove_first(&mut army, old);
        if Force::allowed(sf, f.id, new, &without, &army) {
            let picks = &mut self.formations[at].picks;
            picks.push(new);
            remove_first(picks, old);
        }
    }

    /// Removes a pick unless a minimum forbids it (`canRemove`).
    fn remove(&mut self, sf: &SfList, at: usize, rng: &mut Rng) {
        let f = &sf.formations[self.formations[at].formation];
        let picks = &mut self.formations[at].picks;
        if picks.is_empty() {
            return;
        }
        let old = picks[rng.below(picks.len())];
        let kept = sf
            .constraints
            .iter()
            .find(|c| c.mandatory() && c.applies(f.id) && c.from.contains(&old))
            .is_none_or(|c| picks.iter().filter(|p| c.from.contains(p)).count() > c.min as usize);
        if kept {
            remove_first(picks, old);
        }
    }

    /// `Force.plainText`, byte for byte.
    pub fn plain_text(&self, sf: &SfList) -> String {
        let total: i64 = self.formations.iter().map(|f| f.points(sf)).sum();
        let mut txt = format!("{}, {total} POINTS \n", self.name);
        txt += &format!("{} ({}) \n", sf.id, sf.version);
        txt += "================================================== \n";
        for made in &self.formations {
            let f = &sf.formations[made.formation];
            txt += &format!("\n{} [{}] \n", f.name.to_uppercase(), made.points(sf));
            let mut units: Vec<String> = f.units.iter().cloned().collect();
            for id in uniq(&made.picks) {
                let count = made.picks.iter().filter(|&&p| p == id).count();
                let prefix = if count > 1 {
                    format!("{count} ")
                } else {
                    String::new()
                };
                units.push(format!("{prefix}{}", sf.name(id)));
            }
            txt += &units.join(", ");
            if !units.is_empty() {
                txt += "\n";
            }
        }
        txt + "\n\n"
    }

    /// The share link (`viewLink`: `encodeURIComponent(Force.pickle())`).
    pub fn share_link(&self, stem: &str) -> String {
        let mut out = self.name.clone();
        for made in &self.formations {
            out += &format!("~{}", made.formation_id);
            for id in uniq(&made.picks) {
                let count = made.picks.iter().filter(|&&p| p == id).count();
                out += &format!("~{id}x{count}");
            }
        }
        format!(
            "https://example.org/indexNETEA.html?list={stem}&force={}",
            encode_uri_component(&out)
        )
    }

    /// What muster should read: each formation by id, and the upgrades its
    /// picks give (a transport that fills the formation, once).
    pub fn expected(&self, list: &ArmyList) -> Vec<Expected> {
        self.formations
            .iter()
            .filter_map(|made| {
                let f = list.snapfire.formation(made.formation_id)?;
                let mut upgrades = BTreeMap::new();
                for &id in &made.picks {
                    let takes = |u: usize| list.formations[f].upgrades.contains(&u);
                    let gives = list.snapfire.pick_in(id, takes).map_or(&[][..], |p| &p.gives);
                    // What changes nothing on the formation is read with a note.
                    let count = made.picks.iter().filter(|&&p| p == id).count() as u32;
                    for &(u, n) in gives
                        .iter()
                        .filter(|&&(u, n)| !no_effect_on(list, f, u, n * count))
                    {
                        let upgrade = &list.upgrades[u];
                        let count = upgrades.entry(upgrade.name.clone()).or_insert(0);
                        *count = if upgrade.fills.is_some() { 1 } else { *count + n };
                    }
                }
                Some(Expected {
                    id: list.formations[f].id.clone(),
                    upgrades,
                })
            })
            .collect()
    }
}

impl Made {
    /// `formation.calcPoints`: successive prices cycle, counted by name.
    pub fn points(&self, sf: &SfList) -> i64 {
        let mut counted: BTreeMap<&str, usize> = BTreeMap::new();
        let mut total = sf.formations[self.formation].pts;
        for &id in &self.picks {
            let Some(u) = sf.upgrades.get(&id) else { continue };
            let n = counted.entry(u.name.as_str()).or_insert(0);
            total += u.pts.get(*n % u.pts.len().max(1)).copied().unwrap_or(0);
            *n += 1;
        }
        total
    }

    /// Whether muster's price of something the formation took differs
    /// from Snapfire's: the formation's own, or a pick's (an upgrade whose
    /// price depends on the formation counts as differing).
    pub fn price_differs(&self, sf: &SfList, list: &ArmyList) -> bool {
        let f = &sf.formations[self.formation];
        let Some(own) = list.snapfire.formation(f.id) else {
            return true;
        };
        if list.formations[own].points.map(i64::from) != Some(f.pts) {
            return true;
        }
        uniq(&self.picks).into_iter().any(|id| {
            let count = self.picks.iter().filter(|&&p| p == id).count() as u32;
            let Some(pick) = list.snapfire.pick(id) else {
                return true;
            };
            let theirs: i64 = sf.upgrades.get(&id).map_or(0, |u| {
                (0..count as usize)
                    .map(|i| u.pts.get(i % u.pts.len().max(1)).copied().unwrap_or(0))
                    .sum()
            });
            let ours: Option<i64> = pick.gives.iter().try_fold(0, |sum, &(u, n)| {
                let upgrade = &list.upgrades[u];
                let cost = upgrade.cost.as_ref().filter(|_| upgrade.cost_when.is_empty())?;
                Some(sum + cost.of(n * count))
            });
            ours != Some(theirs)
        })
    }
}

/// `ArmyList.defaultUpgrades`: each mandatory rule's first option, as
/// many times as its minimum.
fn defaults(sf: &SfList, list: &ArmyList, formation: u32) -> Vec<u32> {
    let mut picks = Vec::new();
    for c in sf
        .constraints
        .iter()
        .filter(|c| c.mandatory() && c.applies(formation))
    {
        if let Some(&first) = c.from.first().filter(|&&id| sf.known(list, id)) {
            picks.extend(std::iter::repeat_n(first, c.min as usize));
        }
    }
    picks
}

fn uniq(picks: &[u32]) -> Vec<u32> {
    let mut seen = Vec::new();
    for &p in picks {
        if !seen.contains(&p) {
            seen.push(p);
        }
    }
    seen
}

fn remove_first(picks: &mut Vec<u32>, id: u32) {
    if let Some(i) = picks.iter().position(|&p| p == id) {
        picks.remove(i);
    }
}

/// JavaScript's `encodeURIComponent`.
fn encode_uri_component(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&b) {
            out.push(b as char);
        } else {
            out += &format!("%{b:02X}");
        }
    }
    out
}

/// The units a formation's upgrades add, less those they replace, by
/// datasheet id.
pub fn units(list: &ArmyList, upgrades: &BTreeMap<String, u32>) -> BTreeMap<String, i64> {
    let mut out: BTreeMap<String, i64> = BTreeMap::new();
    for (name, &count) in upgrades {
        let Some(u) = list.upgrades.iter().find(|u| &u.name == name) else {
            continue;
        };
        for &(unit, n) in &u.adds {
            *out.entry(list.units[unit].clone()).or_insert(0) += i64::from(n * count);
        }
        for &(unit, n) in &u.replaces {
            *out.entry(list.units[unit].clone()).or_insert(0) -= i64::from(n * count);
        }
    }
    out.retain(|_, n| *n != 0);
    out
}
