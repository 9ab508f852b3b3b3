//! Unit statistics of a NetEpic Gold BattleScribe catalogue, as muster
//! datasheets in the game's own notation (`grammar/netepic.pest`), and the
//! contents of each card (which units, how many).
//!
//! Kept apart from the card conversion so that both can change on their
//! own: `datasheets` writes `lists/netepic/datasheets/<book>.yaml`, and
//! `card_units` gives a card's `units:`.
//!
//! Only facts cross over: a profile's unit class, move, save, CAF, morale,
//! weapons (range, attack dice or barrage points, to-hit, TSM and the
//! weapon abilities the rules name) and the special abilities the
//! catalogue links to the units that use the profile. A value that does not
//! read as one of the notation's forms is `missing`, and a fault says, in
//! our words, what the catalogue gives instead; no free text of the
//! catalogue is copied.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// One unit profile, read from the catalogue.
pub struct Unit {
    pub id: String,
    pub name: String,
    pub class: Option<String>,
    pub moves: Option<String>,
    pub save: Option<String>,
    pub caf: Option<String>,
    /// `None` where the profile type has no morale line (Tyranids).
    pub morale: Option<Option<String>>,
    pub weapons: Vec<String>,
    pub abilities: BTreeSet<String>,
    /// The command abilities ([`ROLES`]) linked by the entries showing
    /// the unit's profile: those named as the unit (`Chimeras` for the
    /// Chimera), those not named as a command unit, and all of them
    /// (`settle_roles` decides).
    pub same_named: Tally,
    pub plain: Tally,
    pub any: Tally,
    pub rules: BTreeSet<String>,
    pub faults: Vec<String>,
    /// Defined in the catalogue itself (not only in the game system).
    pub local: bool,
    /// Some card of the book holds it.
    pub used: bool,
    /// The titan weapons of the cards that hold it: name, the mounts that
    /// take it (none for a fixed weapon), `Name: profile`.
    pub titan_weapons: Vec<(String, Vec<String>, String)>,
    /// Readings of scrambled weapon texts (`profiles::read`), for the
    /// file's decisions.
    pub readings: Vec<String>,
}

/// The profiles of a catalogue (and of the game system it links to) that
/// describe units, by profile id.
pub struct Profiles<'a, 'i> {
    by_id: BTreeMap<&'a str, roxmltree::Node<'a, 'i>>,
    /// Ids of the profiles of the first root (the catalogue).
    local: BTreeSet<&'a str>,
}

fn is_unit_profile(p: roxmltree::Node) -> bool {
    p.has_tag_name("profile")
        && matches!(p.attribute("typeName"), Some("Unit") | Some("Tyranid Unit"))
        && p.attribute("hidden") != Some("true")
}

impl<'a, 'i> Profiles<'a, 'i> {
    pub fn new(roots: &[roxmltree::Node<'a, 'i>]) -> Self {
        let mut by_id = BTreeMap::new();
        let mut local = BTreeSet::new();
        for (i, root) in roots.iter().enumerate() {
            for p in root.descendants().filter(|p| is_unit_profile(*p)) {
                if let Some(id) = p.attribute("id") {
                    by_id.entry(id).or_insert(p);
                    if i == 0 {
                        local.insert(id);
                    }
                }
            }
        }
        Profiles { by_id, local }
    }
}

fn tidy(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn characteristic(p: roxmltree::Node, name: &str) -> Option<String> {
    p.descendants()
        .find(|c| c.has_tag_name("characteristic") && c.attribute("name") == Some(name))
        .map(|c| c.text().unwrap_or_default().trim().to_string())
}

/// Unit classes of Appendix A, as the notation spells them.
const CLASSES: &[&str] = &[
    "Infantry",
    "Cavalry",
    "Walker",
    "Knight",
    "Vehicle",
    "Light Artillery",
    "Heavy Artillery",
    "Flyer",
    "Superheavy",
    "Praetorian",
    "Titan",
    "Skimmer",
    "Floater",
];

fn class(raw: &str) -> Option<String> {
    let mut out = Vec::new();
    for part in raw.split([',', '/']) {
        let part = tidy(part);
        let known = CLASSES.iter().find(|c| c.eq_ignore_ascii_case(&part))?;
        out.push(*known);
    }
    (!out.is_empty()).then(|| out.join(", "))
}

fn none(raw: &str) -> bool {
    matches!(raw, "N/A" | "N.A" | "None" | "-")
}

fn moves(raw: &str) -> Option<String> {
    if none(raw) {
        return Some("-".into());
    }
    let n = raw.strip_suffix("cm")?;
    n.parse::<u32>().ok().map(|n| format!("{n}cm"))
}

fn roll(raw: &str) -> Option<u32> {
    raw.strip_suffix('+')?.parse::<u32>().ok().filter(|n| *n <= 6)
}

fn save(raw: &str) -> Option<String> {
    if none(raw) {
        return Some("-".into());
    }
    let parts: Vec<&str> = raw.split(',').map(str::trim).collect();
    match parts.as_slice() {
        [one] => {
            if let Some(fixed) = one.strip_suffix(" Fixed") {
                roll(fixed).map(|n| format!("{n}+ fixed"))
            } else {
                roll(one).map(|n| format!("{n}+"))
            }
        }
        [armour, fixed] => {
            let a = roll(armour)?;
            let f = roll(fixed.strip_suffix(" Fixed")?)?;
            Some(format!("{a}+ / {f}+ fixed"))
        }
        _ => None,
    }
}

fn caf(raw: &str) -> Option<String> {
    if raw == "0" {
        return Some("+0".into());
    }
    let (sign, n) = raw.split_at(raw.find(|c: char| c.is_ascii_digit())?);
    let n: u32 = n.parse().ok()?;
    match sign {
        "+" => Some(format!("+{n}")),
        "-" if n > 0 => Some(format!("-{n}")),
        "-" => Some("+0".into()),
        _ => None,
    }
}

fn morale(raw: &str) -> Option<String> {
    if none(raw) {
        return Some("-".into());
    }
    roll(raw).map(|n| format!("{n}+"))
}

/// What a value that is not a plain figure is instead, in our words.
fn why_not_plain(raw: &str) -> &'static str {
    let lower = raw.to_ascii_lowercase();
    if lower.contains("template") {
        "on the unit's hit-location template, not a figure"
    } else if lower.contains("card") {
        "printed on the card, not in the catalogue"
    } else if lower.starts_with("see") {
        "given by a special rule, not a figure"
    } else if lower.contains("charge") || lower.contains("advance") {
        "depends on the unit's orders"
    } else if lower.contains("d6") || lower.contains("random") {
        "rolled, not a fixed figure"
    } else {
        "not a plain figure in the catalogue (several values, or a qualified one)"
    }
}

/// Weapon abilities the notation knows, as the catalogue writes them and
/// as the notation writes them.
const WEAPON_ABILITIES: &[(&str, &str)] = &[
    ("turret", "Turret"),
    ("one shot", "One Shot"),
    ("ignores cover", "Ignores Cover"),
    ("damages buildings", "Damages Buildings"),
    ("destroys buildings", "Destroys Buildings"),
    ("anti-aircraft", "Anti-Aircraft"),
];

fn count(raw: &str) -> Option<String> {
    // `2`, `D6`, `2-10`.
    if let Ok(n) = raw.parse::<u32>() {
        return Some(n.to_string());
    }
    if let Some(d) = raw.strip_prefix('D').or(raw.strip_prefix('d')) {
        return d.parse::<u32>().ok().map(|d| format!("D{d}"));
    }
    let (a, b) = raw.split_once('-')?;
    let (a, b) = (a.parse::<u32>().ok()?, b.parse::<u32>().ok()?);
    (a < b).then(|| format!("{a}-{b}"))
}

fn attacks(raw: &str) -> Option<String> {
    for kind in ["BP", "SB", "LB"] {
        if let Some(n) = raw.strip_suffix(kind) {
            return if n.is_empty() {
                Some(kind.into())
            } else {
                count(n).map(|n| format!("{n}{kind}"))
            };
        }
    }
    let n = raw.strip_suffix('d')?;
    count(n).map(|n| format!("{n}d"))
}

fn tsm(raw: &str) -> Option<String> {
    let inner = raw.strip_prefix('(')?.strip_suffix(')')?.trim();
    if inner == "0" || inner == "-0" {
        return Some("0".into());
    }
    let n = inner.strip_prefix('-')?;
    if let Ok(n) = n.parse::<u32>() {
        return Some(format!("-{n}"));
    }
    let d = n.strip_prefix('D')?.parse::<u32>().ok()?;
    Some(format!("-D{d}"))
}

/// `Bolters : 50cm, 1d 5+ (0) - Turret` as `Bolters: 50cm 1d 5+ (0) Turret`;
/// `None` when the profile is not in the usual form.
fn weapon_profile(profile: &str) -> Option<String> {
    let (main, tail) = match profile.split_once(" - ") {
        Some((m, t)) => (m.trim(), Some(t.trim())),
        None => (profile.trim(), None),
    };
    let mut abilities = Vec::new();
    if let Some(tail) = tail {
        for a in tail.split(',').map(str::trim) {
            let lower = a.to_ascii_lowercase();
            if let Some(p) = lower.strip_prefix("penetrating +") {
                abilities.push(format!("Penetrating +{}", p.parse::<u32>().ok()?));
                continue;
            }
            let (_, canonical) = WEAPON_ABILITIES.iter().find(|(k, _)| *k == lower)?;
            abilities.push(canonical.to_string());
        }
    }
    // Range, then the rest: `50cm, 1d 5+ (0)`, `LT, 4+ (0)`, `2d 5+ (-1)`.
    let (range, rest) = match main.split_once(',') {
        Some((r, rest)) => (Some(r.trim()), rest.trim()),
        None => (None, main),
    };
    let range = match range {
        None => None,
        Some("LT") => Some("LT".to_string()),
        Some("ST") => Some("ST".to_string()),
        Some(r) => {
            let cm = r.strip_suffix("cm")?;
            if let Some((a, b)) = cm.split_once('-') {
                Some(format!("{}-{}cm", a.parse::<u32>().ok()?, b.parse::<u32>().ok()?))
            } else {
                Some(format!("{}cm", cm.parse::<u32>().ok()?))
            }
        }
    };
    // `1d6+` is `1d 6+` run together.
    let mut words: Vec<&str> = rest.split_whitespace().collect();
    if let [joined, t] = words.as_slice()
        && let Some(at) = joined.find('d')
        && joined.ends_with('+')
        && at > 0
    {
        let (a, h) = joined.split_at(at + 1);
        words = vec![a, h, t];
    }
    let (attack, to_hit, save_mod) = match words.as_slice() {
        [a, h, t] => (Some(attacks(a)?), Some(roll(h)?), tsm(t)?),
        [x, t] => match roll(x) {
            Some(h) => (None, Some(h), tsm(t)?),
            None => (Some(attacks(x.trim_end_matches(','))?), None, tsm(t)?),
        },
        _ => return None,
    };
    let mut out = String::new();
    for part in [
        range,
        attack,
        to_hit.map(|h| format!("{h}+")),
        Some(format!("({save_mod})")),
    ]
    .into_iter()
    .flatten()
    {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&part);
    }
    if !abilities.is_empty() {
        out.push(' ');
        out.push_str(&abilities.join(", "));
    }
    Some(out)
}

/// A weapon line not in the usual form, read by `profiles::read`.
fn unusual_weapon(name: &str, profile: &str, unit: &mut Unit) {
    let reading = super::profiles::read(name, profile);
    unit.weapons.extend(reading.lines);
    unit.faults.extend(reading.faults);
    unit.readings.extend(reading.decisions);
}

/// A titan weapon's text not in the usual form, read by
/// `profiles::titan`: its lines (`Name: value`, one per mode), and the
/// faults of what stays missing.
fn unusual_titan_weapon(name: &str, range: &str, body: &str, prose: bool) -> (String, Vec<String>) {
    let reading = super::profiles::titan(name, range, body, prose);
    let converted = reading.lines.iter().any(|l| !l.ends_with(": missing"));
    // A slip read in a titan's weapon would need a decision of its own:
    // none is read there, so the weapon stays missing.
    if !converted || !reading.decisions.is_empty() {
        let fault = reading.faults.into_iter().next().unwrap_or_else(|| {
            format!("weapon `{name}`: the catalogue's profile is not in the usual form (range, attack dice, to-hit, TSM); see the army book")
        });
        return (format!("{name}: missing"), vec![fault]);
    }
    (reading.lines.join("\n"), reading.faults)
}

/// Lines that say the unit has no ranged weapon.
fn no_weapon(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    none(line) || lower.starts_with("close combat only") || lower.starts_with("close combat weapons")
}

/// A weapon name as the notation can hold it (no colon, no brackets).
fn weapon_name(raw: &str) -> String {
    tidy(&raw.replace([':', '[', ']', '#', '"'], " "))
}

fn weapons(raw: &str, unit: &mut Unit) {
    for line in raw.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if no_weapon(line) {
            continue;
        }
        if let Some(pd) = line
            .strip_prefix("Point Defence (")
            .and_then(|r| r.split_once(')'))
            .and_then(|(n, rest)| Some((n.parse::<u32>().ok()?, rest)))
        {
            unit.abilities.insert(format!("Point Defence ({})", pd.0));
            if !pd.1.trim().is_empty() {
                unit.faults.push(
                    "the catalogue adds a condition to the point defence dice (see the army book)".into(),
                );
            }
            continue;
        }
        match line.split_once(" : ").or_else(|| line.split_once(" :")) {
            Some((name, profile)) => {
                let name = weapon_name(name);
                match weapon_profile(profile) {
                    Some(p) if !name.is_empty() => unit.weapons.push(format!("{name}: {p}")),
                    _ if !name.is_empty() => unusual_weapon(&name, profile, unit),
                    _ => unit
                        .faults
                        .push("a weapon line of the catalogue has no name".into()),
                }
            }
            None => {
                let lower = line.to_ascii_lowercase();
                unit.faults.push(
                    if ["choose", "pick", "+"].iter().any(|w| lower.starts_with(w)) {
                        "weapons: chosen on the card (the card's options), not given on the unit"
                    } else if lower.contains("profile") {
                        "weapons: in weapon profiles of their own in the catalogue, not converted; see the army book"
                    } else {
                        "a weapon line of the catalogue is not a weapon profile (it refers to the card's rules); see the army book"
                    }
                    .into(),
                )
            }
        }
    }
}

/// Special abilities of the rules (Appendix B, and the parameterised ones
/// of Appendix A) as the catalogue names its rules, and as the notation
/// writes them. Rule names not here are the army book's own rules.
const ABILITIES: &[(&str, &str)] = &[
    ("agile", "Agile"),
    ("all-around armour", "All-Around Armour"),
    ("anti-aircraft", "Anti-Aircraft"),
    ("artificial intelligence", "Artificial Intelligence"),
    ("cold blooded", "Cold Blooded"),
    ("combat engineer", "Combat Engineer"),
    ("combat engineers", "Combat Engineer"),
    ("combat leader", "Combat Leader"),
    ("command", "Command"),
    ("daemonic", "Daemonic"),
    ("daemon hunter", "Daemon Hunter"),
    ("daemon hunters", "Daemon Hunter"),
    ("deep strike", "Deep Strike"),
    ("elite", "Elite"),
    ("fear", "Fear"),
    ("fearless", "Fearless"),
    ("fire on the fly", "Fire on the Fly"),
    ("forward observer (fo)", "Forward Observer"),
    ("forward observer", "Forward Observer"),
    ("hard to hit", "Hard to Hit"),
    ("headquarters (hq)", "HQ"),
    ("hit and run", "Hit & Run"),
    ("hit & run", "Hit & Run"),
    ("independent", "Independent"),
    ("infiltration", "Infiltration"),
    ("inorganic", "Inorganic"),
    ("inspirational", "Inspirational"),
    ("jump packs", "Jump Packs"),
    ("medic", "Medic"),
    ("mechanic", "Mechanic"),
    ("open-top vehicle (otv)", "Open-Top Vehicle"),
    ("psychic save", "Psychic Save"),
    ("psyker", "Psyker"),
    ("quickdraw", "Quickdraw"),
    ("regeneration", "Regeneration"),
    ("robot", "Robot"),
    ("robotic", "Robot"),
    ("skimmer", "Skimmer"),
    ("sniper", "Sniper"),
    ("static artillery", "Static Artillery"),
    ("stealth", "Stealth"),
    ("teleport", "Teleport"),
    ("terror", "Terror"),
    ("tunneler", "Tunneler"),
];

/// Abilities that make a unit its detachment's command (Appendix B): the
/// catalogue shows a plain unit's profile in its command variant too
/// (`Command Chimera` and `Chimeras` both show the Chimera, only the first
/// links Command), so a unit has one only where every entry showing its
/// profile links it.
const ROLES: &[&str] = &["Command", "HQ"];

/// How many entries were read, and how many of them link each command
/// ability.
#[derive(Debug, Default)]
pub struct Tally {
    entries: u32,
    roles: BTreeMap<String, u32>,
}

impl Tally {
    fn add(&mut self, roles: &BTreeSet<String>) {
        self.entries += 1;
        for role in roles {
            *self.roles.entry(role.clone()).or_default() += 1;
        }
    }

    /// The abilities every entry links; `None` when no entry was read.
    fn common(&self) -> Option<Vec<String>> {
        (self.entries > 0).then(|| {
            self.roles
                .iter()
                .filter(|&(_, &n)| n >= self.entries)
                .map(|(role, _)| role.clone())
                .collect()
        })
    }
}

/// Whether a name marks a command unit (`Command Rhino`, `Land Raider HQ`,
/// `Predator CHQ`).
fn command_name(name: &str) -> bool {
    name.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| matches!(w, "Command" | "HQ" | "CHQ"))
}

/// Whether an entry is named as the unit, in the singular or the plural.
fn same_name(entry: &str, unit: &str) -> bool {
    let entry = entry.trim().to_ascii_lowercase();
    let unit = unit.trim().to_ascii_lowercase();
    entry == unit || entry == format!("{unit}s") || entry == format!("{unit}es")
}

/// Notes the rules one entry (named `entry`) links on the unit whose
/// profile it shows: abilities of the notation (a command ability
/// counted, see [`ROLES`]), or the army book's own rules.
fn note<'r>(unit: &mut Unit, entry: Option<&str>, rules: impl IntoIterator<Item = &'r str>) {
    let mut roles: BTreeSet<String> = BTreeSet::new();
    for rule in rules {
        match ability(rule) {
            Some(a) if ROLES.contains(&a.as_str()) => {
                roles.insert(a);
            }
            Some(a) => {
                unit.abilities.insert(a);
            }
            None => {
                unit.rules.insert(tidy(rule));
            }
        }
    }
    let entry = entry.unwrap_or_default();
    if same_name(entry, &unit.name) {
        unit.same_named.add(&roles);
    }
    if !command_name(entry) {
        unit.plain.add(&roles);
    }
    unit.any.add(&roles);
}

/// Gives each unit its command abilities once all the entries are read.
/// A profile named as a command unit (`Command Land Raider`, `Predator
/// CHQ`) keeps every one its entries link. Otherwise the entries named as
/// the unit decide (`Chimeras`, not `Command Chimera`): it has an ability
/// every one of them links; without such entries, those not named as a
/// command unit decide alike; a unit only ever shown under command names
/// (`Ravenwing Command`) keeps what they link.
pub fn settle_roles(units: &mut BTreeMap<String, Unit>) {
    for unit in units.values_mut() {
        let kept = if command_name(&unit.name) {
            unit.any.roles.keys().cloned().collect()
        } else {
            unit.same_named
                .common()
                .or_else(|| unit.plain.common())
                .or_else(|| unit.any.common())
                .unwrap_or_default()
        };
        unit.abilities.extend(kept);
    }
}

/// A linked rule as an ability of the notation, if it is one.
fn ability(rule: &str) -> Option<String> {
    let lower = tidy(rule).to_ascii_lowercase();
    if let Some((_, a)) = ABILITIES.iter().find(|(k, _)| *k == lower) {
        return Some(a.to_string());
    }
    for (prefix, name) in [
        ("transport (", "Transport"),
        ("point defence (", "Point Defence"),
        ("void shields (", "Void Shields"),
    ] {
        if let Some(rest) = lower.strip_prefix(prefix) {
            let n = rest.strip_suffix(')')?.trim().parse::<u32>().ok()?;
            return Some(format!("{name} ({n})"));
        }
    }
    None
}

fn slug(text: &str) -> String {
    let mut out = String::new();
    for word in text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        if !out.is_empty() {
            out.push('-');
        }
        out.push_str(&word.to_ascii_lowercase());
    }
    out
}

/// The catalogue's unit profiles, keyed by profile id; ids are the book's
/// prefix and the profile's name (with `-2`... for a name used twice).
pub fn read_units(profiles: &Profiles, prefix: &str) -> BTreeMap<String, Unit> {
    let mut out = BTreeMap::new();
    let mut used: BTreeSet<String> = BTreeSet::new();
    for (pid, p) in &profiles.by_id {
        let name = tidy(p.attribute("name").unwrap_or_default());
        let mut id = format!("{prefix}-{}", slug(&name));
        let base = id.clone();
        let mut n = 2;
        while used.contains(&id) {
            id = format!("{base}-{n}");
            n += 1;
        }
        used.insert(id.clone());
        let mut unit = Unit {
            id,
            name,
            class: None,
            moves: None,
            save: None,
            caf: None,
            morale: None,
            weapons: Vec::new(),
            abilities: BTreeSet::new(),
            same_named: Tally::default(),
            plain: Tally::default(),
            any: Tally::default(),
            rules: BTreeSet::new(),
            faults: Vec::new(),
            local: profiles.local.contains(pid),
            used: false,
            titan_weapons: Vec::new(),
            readings: Vec::new(),
        };
        let field = |u: &mut Unit, label: &str, raw: Option<String>, read: fn(&str) -> Option<String>| {
            let raw = raw.unwrap_or_default();
            let raw = raw.trim();
            let value = read(raw);
            if value.is_none() {
                u.faults.push(if raw.is_empty() {
                    format!("{label}: the catalogue leaves it blank")
                } else {
                    format!("{label}: {}; see the army book", why_not_plain(raw))
                });
            }
            value
        };
        unit.class = field(&mut unit, "class", characteristic(*p, "Type"), class);
        unit.moves = field(&mut unit, "move", characteristic(*p, "Move"), moves);
        unit.save = field(&mut unit, "save", characteristic(*p, "Save"), save);
        unit.caf = field(&mut unit, "CAF", characteristic(*p, "CAF"), caf);
        if p.attribute("typeName") == Some("Unit") {
            unit.morale = Some(field(&mut unit, "morale", characteristic(*p, "Morale"), morale));
        }
        weapons(&characteristic(*p, "Weapons").unwrap_or_default(), &mut unit);
        out.insert(pid.to_string(), unit);
    }
    out
}

/// The unit profile an entry shows, if any: a linked or an inline one.
fn entry_profile<'a>(entry: roxmltree::Node<'a, '_>, profiles: &Profiles) -> Option<&'a str> {
    for child in entry.children().filter(|c| c.is_element()) {
        match child.tag_name().name() {
            "infoLinks" => {
                for l in child.children().filter(|l| l.has_tag_name("infoLink")) {
                    if l.attribute("type") == Some("profile")
                        && let Some(t) = l.attribute("targetId")
                        && profiles.by_id.contains_key(t)
                    {
                        return Some(t);
                    }
                }
            }
            "profiles" => {
                for p in child.children().filter(|p| is_unit_profile(*p)) {
                    if let Some(id) = p.attribute("id") {
                        return Some(id);
                    }
                }
            }
            _ => {}
        }
    }
    None
}

/// The rules an entry links to, by name.
fn entry_rules<'a>(entry: roxmltree::Node<'a, '_>) -> impl Iterator<Item = &'a str> {
    entry
        .children()
        .filter(|c| c.has_tag_name("infoLinks"))
        .flat_map(|c| c.children().filter(|l| l.has_tag_name("infoLink")))
        .filter(|l| l.attribute("type") == Some("rule"))
        .filter_map(|l| l.attribute("name"))
}

/// The least number of selections an entry's constraints ask of its parent.
fn at_least(entry: roxmltree::Node) -> Option<u32> {
    entry
        .children()
        .filter(|c| c.has_tag_name("constraints"))
        .flat_map(|c| c.children().filter(|k| k.has_tag_name("constraint")))
        .find(|k| {
            k.attribute("type") == Some("min")
                && k.attribute("field") == Some("selections")
                && k.attribute("scope") == Some("parent")
        })
        .and_then(|k| k.attribute("value"))
        .and_then(|v| v.parse::<f64>().ok())
        .map(|v| v.max(0.0) as u32)
}

type SharedEntries<'a, 'i> = BTreeMap<&'a str, roxmltree::Node<'a, 'i>>;

/// Notes on each unit the rules linked to any entry that shows its profile,
/// anywhere in `roots` (in a card, among a card's choices, in the shared
/// entries): abilities of the notation, or the army book's own rules.
pub fn note_rules(
    roots: &[roxmltree::Node],
    shared: &SharedEntries,
    profiles: &Profiles,
    units: &mut BTreeMap<String, Unit>,
) {
    for root in roots {
        for entry in root
            .descendants()
            .filter(|e| e.has_tag_name("selectionEntry") || e.has_tag_name("entryLink"))
            .filter(|e| e.attribute("hidden") != Some("true"))
        {
            let target = match entry.tag_name().name() {
                "entryLink" => match entry.attribute("targetId").and_then(|t| shared.get(t)) {
                    Some(t) => *t,
                    None => continue,
                },
                _ => entry,
            };
            let Some(pid) = entry_profile(target, profiles).or_else(|| entry_profile(entry, profiles)) else {
                continue;
            };
            let Some(unit) = units.get_mut(pid) else {
                continue;
            };
            let mut rules: Vec<&str> = entry_rules(entry).collect();
            if target != entry {
                rules.extend(entry_rules(target));
            }
            note(unit, entry.attribute("name"), rules);
        }
    }
}

/// The units a card always holds: every entry with a unit profile that the
/// card must take (a `min` constraint of at least one, or none at all on a
/// leaf), times the counts of the entries around it. Optional entries are
/// options, not contents. The rules each entry links are noted on its unit.
pub fn card_units(
    card: roxmltree::Node,
    shared: &SharedEntries,
    profiles: &Profiles,
    units: &mut BTreeMap<String, Unit>,
) -> Vec<(String, u32)> {
    let mut out: Vec<(String, u32)> = Vec::new();
    // A card may show its unit itself (a titan card).
    if let Some(unit) = entry_profile(card, profiles).and_then(|pid| units.get_mut(pid)) {
        unit.used = true;
        note(unit, card.attribute("name"), entry_rules(card));
        out.push((unit.id.clone(), 1));
    }
    walk(card, 1, 0, false, shared, profiles, units, &mut out);
    out
}

/// `choice`: `node` is (inside) a group of entries, whose entries without
/// a count of their own are picks, not contents.
#[allow(clippy::too_many_arguments)] // one recursion, every argument its own
fn walk(
    node: roxmltree::Node,
    times: u32,
    depth: u32,
    choice: bool,
    shared: &SharedEntries,
    profiles: &Profiles,
    units: &mut BTreeMap<String, Unit>,
    out: &mut Vec<(String, u32)>,
) {
    if depth > 8 {
        return;
    }
    for child in node.children().filter(|c| c.is_element()) {
        let (entry, target) = match child.tag_name().name() {
            "selectionEntries" | "selectionEntryGroups" | "entryLinks" => {
                walk(child, times, depth + 1, choice, shared, profiles, units, out);
                continue;
            }
            "selectionEntry" | "selectionEntryGroup" => (child, child),
            "entryLink" => match child.attribute("targetId").and_then(|t| shared.get(t)) {
                Some(t) => (child, *t),
                None => continue,
            },
            _ => continue,
        };
        if entry.attribute("hidden") == Some("true") {
            continue;
        }
        let profile = entry_profile(target, profiles).or_else(|| entry_profile(entry, profiles));
        let n = match at_least(entry).or_else(|| at_least(target)) {
            Some(0) => continue,
            Some(n) => n,
            // A pick of a group, without a count of its own: an option.
            None if choice => continue,
            // An entry with no count is taken once (a card's single unit).
            None => 1,
        };
        if entry.tag_name().name() == "selectionEntryGroup" && at_least(entry).is_none() {
            // A choice among entries: its picks are options.
            continue;
        }
        let Some(total) = times.checked_mul(n) else {
            continue;
        };
        if let Some(pid) = profile {
            if let Some(unit) = units.get_mut(pid) {
                unit.used = true;
                note(
                    unit,
                    entry.attribute("name"),
                    entry_rules(target).chain(entry_rules(entry)),
                );
                match out.iter_mut().find(|(id, _)| *id == unit.id) {
                    Some((_, c)) => *c += total,
                    None => out.push((unit.id.clone(), total)),
                }
            }
        } else {
            let group = target.tag_name().name() == "selectionEntryGroup";
            walk(target, total, depth + 1, group, shared, profiles, units, out);
        }
    }
}

/// A linked rule that only names an ability with a figure (`Point Defence
/// (X)`) says nothing the unit's own figure does not: it is dropped where
/// the unit has that ability with its figure.
fn generic_covered(rule: &str, abilities: &BTreeSet<String>) -> bool {
    let Some(head) = rule.trim().strip_suffix("(X)") else {
        return false;
    };
    let head = head.trim().to_ascii_lowercase();
    abilities
        .iter()
        .any(|a| a.to_ascii_lowercase().starts_with(&format!("{head} (")))
}

/// The decisions about weapon profiles not in the usual form: how their
/// shapes are read, then each reading of a scrambled text, by unit.
fn profile_decisions(units: &BTreeMap<String, Unit>) -> Vec<String> {
    let mut out = vec![
        "Weapon profiles in another form than range, attack dice, to-hit and TSM are read by their shape where the core rules define it (tools/netepic-import/src/profiles.rs): a large or small teardrop named in words is LT or ST, `Unlimited in LoS` is the range LoS, `Auto Hit` the to-hit `auto`, rolled barrage points (`D6+3=BP`) are `D6+3BP`, a minimum range in words is `50-150cm`, `Barrage Template` is SB (the rules' 6 cm barrage template), `2x` or `fires twice` is the multiplier `2x`, and `Varies` beside barrage points is no fixed to-hit (the barrage table of the core rules gives it).".to_string(),
        "A weapon whose effect, or a part of its profile, is a rule of its army book (`See Special Rules`, `Special`, a TSM given as special, a restriction written beside the profile such as a fire arc or air-to-air only) carries `Special` in place of what the rule sets; the rule itself is not copied. So does a weapon on a template of its army book's own (a warp or a triangle template). Weapon abilities of the core rules written beside a profile (Penetrating +X, Ignores Cover, Destroys Buildings, a 360-degree arc as Turret), `D3 hits` and a number of shots per game are kept as abilities.".to_string(),
        "A weapon with several profiles (`A OR B`, named modes, range bands) is one line per profile, the mode or band in brackets after the name (`profile 1`, `profile 2` where the catalogue names none), a range band being that profile's range (`26-50cm`: from 26 to 50 cm); a titan's weapon of several modes gives one line per mode too, each with the weapon's mounts. A text that reads two ways (a template the core rules do not name, dice written `d18`, `LBP`, a rolled range, a to-hit per die) stays missing with a fault saying why.".to_string(),
    ];
    let mut sorted: Vec<&Unit> = units.values().filter(|u| u.local || u.used).collect();
    sorted.sort_by(|a, b| a.id.cmp(&b.id));
    for u in sorted {
        let mut seen = BTreeSet::new();
        for d in &u.readings {
            if seen.insert(d) {
                out.push(format!("Unit {} (`{}`), weapon {d}", u.name, u.id));
            }
        }
    }
    out
}

fn quote(text: &str) -> String {
    serde_json::to_string(text).expect("a string serialises")
}

/// The datasheet file of a book: every unit profile, in profile-name order.
pub fn datasheets(
    file_id: &str,
    book_name: &str,
    catalogue_file: &str,
    revision: &str,
    units: &BTreeMap<String, Unit>,
) -> String {
    let mut y = String::new();
    let w = &mut y;
    let _ = writeln!(
        w,
        "# yaml-language-server: $schema=../../../schema/datasheets.schema.json"
    );
    let _ = writeln!(
        w,
        "# Generated by tools/netepic-import --datasheets from the BattleScribe catalogue {}; edit the converter, not this file.",
        quote(catalogue_file)
    );
    let _ = writeln!(w, "game: netepic");
    let _ = writeln!(w, "id: {file_id}");
    let _ = writeln!(w, "name: {}", quote(&format!("{book_name} units")));
    let _ = writeln!(w, "source:");
    let _ = writeln!(
        w,
        "  - document: {}",
        quote(&format!(
            "NetEpic Gold BattleScribe data (release v10), catalogue {catalogue_file}, revision {revision}"
        ))
    );
    let _ = writeln!(
        w,
        "    covers: \"unit profiles (class, move, save, CAF, morale, weapons) and the names of the rules the catalogue links to the units; converted by tools/netepic-import\""
    );
    let _ = writeln!(
        w,
        "  - document: \"NetEpic Gold core rules (shared source 003), 003_8736bab83ee21ec8.txt\""
    );
    let _ = writeln!(
        w,
        "    covers: \"unit classes and pinning classes (Appendix A, lines 1013-1060), special abilities (Appendix B, lines 1062-1277)\""
    );
    let _ = writeln!(w, "decisions:");
    for d in [
        "Every unit profile of the catalogue is one datasheet, whether or not a card uses it; its id is the book's and the profile's name.",
        "Values are rewritten in muster's NetEpic notation (grammar/netepic.pest): `-` where the catalogue says N/A or None (no save, no morale value, no move), `5+ / 6+ fixed` for an armour save with a fixed save beside it, weapons as `Name: range dice to-hit (TSM) abilities`.",
        "A value that is not a plain figure (a save on a hit-location template, a move that depends on orders, a weapon that refers to the card's rules) is `missing`, and the unit's faults say so; muster does not guess it. The catalogue's free-text special rules are not copied.",
        "Abilities are the rules the catalogue links to the entries that use a profile, across every card, where the rule is one of the core rules' special abilities (Appendix A and B) or Transport, Point Defence and Void Shields with their figure; other linked rules are the army book's own and are named under `rules`. Command and HQ are the exception: the catalogue shows a plain unit's profile in its command variant too (a `Command Chimera` shows the Chimera and links Command, the `Chimeras` beside it do not), so the entries named as the unit decide: it carries them where every entry named as it links them (the `Chimeras`, not the `Command Chimera`); where no entry is named as it, the entries not named as a command unit decide alike; a profile named as a command unit (`Command Land Raider`, `Predator CHQ`), or shown only under command names, keeps what its entries link.",
        "Point Defence given as a weapon line (`Point Defence (2)`) is the ability, not a weapon. Lines saying the unit fights only in close combat give no weapon.",
        "Titans, praetorians and gargants: the weapons of a card's weapon groups, and the weapons the unit always carries, are on the unit's datasheet, each once, the mounts that take it in brackets (`Gatling Blaster (carapace or arm)`). A weapon with no shooting profile (close-combat weapons, heads, devices) or a profile read neither in the usual form nor by its shape (below) is `missing`, and a special rule the catalogue writes in prose is a fault naming the weapon, not copied (a weapon read by its shape carries `Special` for it instead). Weapon abilities are the rules the catalogue links to the weapon, and a special rule that only lists abilities; a weapon that fires all around (360 degrees) is `Turret`.",
        "The pinning class is not in the catalogue: muster derives it from the unit class with the table of Appendix A (1 infantry and light artillery, 2 cavalry and walkers, 3 vehicles and heavy artillery, 4 superheavies and knights, 5 titans and praetorians); a class the table does not name (Flyer) has none.",
    ] {
        let _ = writeln!(w, "  - {}", quote(d));
    }
    for d in profile_decisions(units) {
        let _ = writeln!(w, "  - {}", quote(&d));
    }
    let _ = writeln!(w, "ne_units:");
    let mut sorted: Vec<&Unit> = units.values().filter(|u| u.local || u.used).collect();
    sorted.sort_by(|a, b| a.id.cmp(&b.id));
    let known = |v: &Option<String>| v.as_deref().map(quote).unwrap_or_else(|| "missing".into());
    for u in sorted {
        let _ = writeln!(w, "  - id: {}", u.id);
        let _ = writeln!(w, "    name: {}", quote(&u.name));
        let _ = writeln!(w, "    class: {}", known(&u.class));
        let _ = writeln!(w, "    move: {}", known(&u.moves));
        let _ = writeln!(w, "    save: {}", known(&u.save));
        let _ = writeln!(w, "    caf: {}", known(&u.caf));
        if let Some(m) = &u.morale {
            let _ = writeln!(w, "    morale: {}", known(m));
        }
        let mut lines = u.weapons.clone();
        for (name, mounts, value) in &u.titan_weapons {
            // A titan with one mount of no name (`weapon`) names none.
            let named: Vec<&str> = mounts
                .iter()
                .map(String::as_str)
                .filter(|m| *m != "weapon")
                .collect();
            // One line per profile (a weapon of several modes has several,
            // each named with its mode).
            for line in value.lines() {
                let (line_name, profile) = match line.split_once(": ") {
                    Some((n, p)) if n.starts_with(name.as_str()) => (n, p),
                    _ => (name.as_str(), line),
                };
                lines.push(if named.is_empty() {
                    format!("{line_name}: {profile}")
                } else {
                    format!("{line_name} ({}): {profile}", named.join(" or "))
                });
            }
        }
        if !lines.is_empty() {
            let _ = writeln!(w, "    weapons:");
            for weapon in &lines {
                let _ = writeln!(w, "      - {}", quote(weapon));
            }
        }
        if !u.abilities.is_empty() {
            let q: Vec<String> = u.abilities.iter().map(|a| quote(a)).collect();
            let _ = writeln!(w, "    abilities: [{}]", q.join(", "));
        }
        let rules: Vec<&String> = u
            .rules
            .iter()
            .filter(|r| !generic_covered(r, &u.abilities))
            .collect();
        if !rules.is_empty() {
            let q: Vec<String> = rules.iter().map(|a| quote(a)).collect();
            let _ = writeln!(w, "    rules: [{}]", q.join(", "));
        }
        if !u.faults.is_empty() {
            let _ = writeln!(w, "    faults:");
            let mut seen = BTreeSet::new();
            for f in &u.faults {
                if seen.insert(f) {
                    let _ = writeln!(w, "      - {}", quote(f));
                }
            }
        }
    }
    y
}

// ---------------------------------------------------------------------------
// Titan, praetorian and gargant weapons (issue 15): their profiles, and the
// mounts of the cards that buy them.

/// A weapon profile of the catalogue's titan weapon profile types
/// (`Imperial Titan Weapons`, `Ork Gargant Weapons`, ...).
fn is_weapon_profile(p: roxmltree::Node) -> bool {
    p.has_tag_name("profile")
        && p.attribute("typeName").is_some_and(|t| t.contains("Weapons"))
        && p.attribute("hidden") != Some("true")
}

/// The weapon profiles of a catalogue and of the game system, by id.
pub struct WeaponProfiles<'a, 'i> {
    by_id: BTreeMap<&'a str, roxmltree::Node<'a, 'i>>,
}

impl<'a, 'i> WeaponProfiles<'a, 'i> {
    pub fn new(roots: &[roxmltree::Node<'a, 'i>]) -> Self {
        let mut by_id = BTreeMap::new();
        for root in roots {
            for p in root.descendants().filter(|p| is_weapon_profile(*p)) {
                if let Some(id) = p.attribute("id") {
                    by_id.entry(id).or_insert(p);
                }
            }
        }
        WeaponProfiles { by_id }
    }

    /// The weapon profile an entry shows, linked or inline.
    fn of(&self, entry: roxmltree::Node<'a, 'i>) -> Option<roxmltree::Node<'a, 'i>> {
        for child in entry.children().filter(|c| c.is_element()) {
            match child.tag_name().name() {
                "infoLinks" => {
                    for l in child.children().filter(|l| l.has_tag_name("infoLink")) {
                        if let Some(p) = l.attribute("targetId").and_then(|t| self.by_id.get(t)) {
                            return Some(*p);
                        }
                    }
                }
                "profiles" => {
                    if let Some(p) = child.children().find(|p| is_weapon_profile(*p)) {
                        return Some(p);
                    }
                }
                _ => {}
            }
        }
        None
    }
}

/// A weapon ability the catalogue links to a weapon as a rule, as the
/// notation writes it: `Ignores Cover`, `Penetrating (+1)` as `Penetrating +1`.
fn weapon_ability(rule: &str) -> Option<String> {
    let lower = tidy(rule).to_ascii_lowercase();
    if let Some(n) = lower
        .strip_prefix("penetrating")
        .map(|r| r.trim().trim_start_matches('(').trim_end_matches(')').trim())
        .and_then(|r| r.strip_prefix('+'))
    {
        return n.parse::<u32>().ok().map(|n| format!("Penetrating +{n}"));
    }
    WEAPON_ABILITIES
        .iter()
        .find(|(k, _)| *k == lower)
        .map(|(_, a)| a.to_string())
}

/// The special rules of a weapon profile, where they are only weapon
/// abilities the notation knows (`Penetrating +3`, `Ignores Cover, Damages
/// Buildings`), or a fire arc all around (the notation's `Turret`).
fn rules_as_abilities(text: &str) -> Option<Vec<String>> {
    let text = tidy(text);
    if text.is_empty() {
        return Some(Vec::new());
    }
    let lower = text.to_ascii_lowercase();
    if lower == "this weapon fires in a 360° arc." {
        return Some(vec!["Turret".to_string()]);
    }
    text.trim_end_matches('.')
        .split(',')
        .map(|part| weapon_ability(part.trim()))
        .collect()
}

/// One weapon a titan carries or may take.
pub struct TitanWeapon {
    /// The catalogue's entry name (as the card's upgrade is named).
    pub name: String,
    /// `Name: profile` in the notation, without the mount.
    pub value: String,
    pub faults: Vec<String>,
}

/// A weapon entry's profile in the notation, from its weapon profile (range
/// and shooting profile, or range, attack dice, to-hit and TSM) and the
/// weapon abilities its rule links name.
fn titan_weapon(
    entry: roxmltree::Node,
    target: roxmltree::Node,
    weapons: &WeaponProfiles,
) -> Option<TitanWeapon> {
    let p = weapons.of(target).or_else(|| weapons.of(entry))?;
    let name = weapon_name(&tidy(
        entry
            .attribute("name")
            .or(target.attribute("name"))
            .unwrap_or_default(),
    ));
    let get = |label: &str| characteristic(p, label).unwrap_or_default();
    let range = tidy(&get("Range"));
    let body = match characteristic(p, "Shooting Profile") {
        Some(shooting) => tidy(&shooting),
        None => {
            let dice = tidy(&get("Attack Dice"));
            let dice = if dice.parse::<u32>().is_ok() {
                format!("{dice}d")
            } else {
                dice
            };
            let tsm = tidy(&get("TSM"));
            format!("{dice} {} ({tsm})", tidy(&get("To Hit")))
        }
    };
    let mut faults = Vec::new();
    let mut abilities: Vec<String> = Vec::new();
    for rule in entry_rules(target).chain(entry_rules(entry)) {
        if let Some(a) = weapon_ability(rule)
            && !abilities.contains(&a)
        {
            abilities.push(a);
        }
    }
    let prose = match rules_as_abilities(&get("Special Rules")) {
        Some(more) => {
            for a in more {
                if !abilities.contains(&a) {
                    abilities.push(a);
                }
            }
            false
        }
        None => true,
    };
    let shoots = !(none(&range) || range.eq_ignore_ascii_case("close combat only"));
    let profile = if shoots {
        weapon_profile(&format!("{range}, {body}"))
    } else {
        None
    };
    let value = match profile {
        Some(mut p) => {
            // Abilities the profile does not already carry.
            let extra: Vec<&String> = abilities.iter().filter(|a| !p.contains(a.as_str())).collect();
            if !extra.is_empty() {
                let joined = extra.iter().map(|a| a.as_str()).collect::<Vec<_>>().join(", ");
                if p.ends_with(')') {
                    p.push(' ');
                } else {
                    p.push_str(", ");
                }
                p.push_str(&joined);
            }
            if prose {
                faults.push(format!(
                    "weapon `{name}`: has a special rule the catalogue gives in prose, not converted; see the army book"
                ));
            }
            format!("{name}: {p}")
        }
        None if shoots => {
            let (value, more) = unusual_titan_weapon(&name, &range, &body, prose);
            faults.extend(more);
            value
        }
        None => {
            faults.push(if shoots {
                format!("weapon `{name}`: the catalogue's profile is not in the usual form (range, attack dice, to-hit, TSM), or depends on a special rule; see the army book")
            } else {
                format!("weapon `{name}`: no shooting profile (a close-combat weapon or a device); what it does is a special rule, see the army book")
            });
            format!("{name}: missing")
        }
    };
    Some(TitanWeapon { name, value, faults })
}

/// One mount of a titan: the weapons it takes and how many.
pub struct Mount {
    /// `arm`, `carapace`, `head`.
    pub name: String,
    pub min: u32,
    pub max: u32,
    /// Entry names of the weapons that fit, with the most of each.
    pub weapons: Vec<(String, u32)>,
}

/// A titan card's mounts, for each of its titans.
pub struct TitanMounts {
    /// How many titans of the kind the card holds.
    pub times: u32,
    pub mounts: Vec<Mount>,
}

fn parent_bounds(entry: roxmltree::Node) -> (Option<u32>, Option<u32>) {
    let mut min = None;
    let mut max = None;
    for k in entry
        .children()
        .filter(|c| c.has_tag_name("constraints"))
        .flat_map(|c| c.children().filter(|k| k.has_tag_name("constraint")))
        .filter(|k| k.attribute("field") == Some("selections") && k.attribute("scope") == Some("parent"))
    {
        let v = k
            .attribute("value")
            .and_then(|v| v.parse::<f64>().ok())
            .map(|v| v.max(0.0) as u32);
        match k.attribute("type") {
            Some("min") => min = v,
            Some("max") => max = v,
            _ => {}
        }
    }
    (min, max)
}

/// The mount a group of weapons names: `Warlord Titan Carapace Weapons`
/// is `carapace`; a group naming none is the titan's `weapon` mount.
fn mount_name(group: &str) -> String {
    const WORDS: &[&str] = &[
        "carapace",
        "arm",
        "head",
        "tail",
        "wing",
        "centerline",
        "turret",
        "miscellaneous",
        "primary",
    ];
    let lower = tidy(group).to_ascii_lowercase();
    for word in lower.split(|c: char| !c.is_ascii_alphanumeric()) {
        let single = word.strip_suffix('s').unwrap_or(word);
        if let Some(w) = WORDS.iter().find(|w| **w == word || **w == single) {
            return w.to_string();
        }
    }
    "weapon".to_string()
}

/// Each child entry of a group (selection entries and entry links), with
/// its target.
fn group_entries<'a, 'i>(
    group: roxmltree::Node<'a, 'i>,
    shared: &SharedEntries<'a, 'i>,
) -> Vec<(roxmltree::Node<'a, 'i>, roxmltree::Node<'a, 'i>)> {
    group
        .children()
        .filter(|c| c.has_tag_name("selectionEntries") || c.has_tag_name("entryLinks"))
        .flat_map(|l| l.children().filter(|c| c.is_element()))
        .filter(|c| c.attribute("hidden") != Some("true"))
        .filter_map(|c| match c.tag_name().name() {
            "selectionEntry" => Some((c, c)),
            "entryLink" => c
                .attribute("targetId")
                .and_then(|t| shared.get(t))
                .map(|t| (c, *t)),
            _ => None,
        })
        .collect()
}

/// The selection entry groups directly under `node`, linked ones followed.
fn entry_groups<'a, 'i>(
    node: roxmltree::Node<'a, 'i>,
    shared: &SharedEntries<'a, 'i>,
) -> Vec<(roxmltree::Node<'a, 'i>, roxmltree::Node<'a, 'i>)> {
    node.children()
        .filter(|c| c.has_tag_name("selectionEntryGroups") || c.has_tag_name("entryLinks"))
        .flat_map(|l| l.children().filter(|c| c.is_element()))
        .filter(|c| c.attribute("hidden") != Some("true"))
        .filter_map(|c| match c.tag_name().name() {
            "selectionEntryGroup" => Some((c, c)),
            "entryLink" => c
                .attribute("targetId")
                .and_then(|t| shared.get(t))
                .filter(|t| t.has_tag_name("selectionEntryGroup"))
                .map(|t| (c, *t)),
            _ => None,
        })
        .collect()
}

/// The titan weapons of a card: each titan unit's weapons (fixed ones and
/// every weapon its mounts offer, the mounts named after the weapon) are
/// added to its datasheet, and the card's mounts are returned, if the card
/// holds titans of one kind whose groups of weapons have a maximum.
pub fn titan_weapons(
    card: roxmltree::Node,
    shared: &SharedEntries,
    profiles: &Profiles,
    weapons: &WeaponProfiles,
    units: &mut BTreeMap<String, Unit>,
) -> Option<TitanMounts> {
    let (unit_node, times) = titan_node(card, shared, profiles, 1, 0)?;
    let mut mounts: Vec<Mount> = Vec::new();
    // Weapon name, its value, the mounts it fits.
    let mut found: Vec<(TitanWeapon, Vec<String>)> = Vec::new();
    let note = |w: TitanWeapon, mount: Option<&str>, found: &mut Vec<(TitanWeapon, Vec<String>)>| match found
        .iter_mut()
        .find(|(f, _)| f.name == w.name)
    {
        Some((_, ms)) => {
            if let Some(m) = mount
                && !ms.iter().any(|x| x == m)
            {
                ms.push(m.to_string());
            }
        }
        None => found.push((w, mount.map(|m| vec![m.to_string()]).unwrap_or_default())),
    };
    // Fixed weapons: entries of the unit itself with a weapon profile.
    for (entry, target) in group_entries(unit_node, shared) {
        if let Some(w) = titan_weapon(entry, target, weapons) {
            note(w, None, &mut found);
        }
    }
    for (group, target) in entry_groups(unit_node, shared) {
        let (min, max) = parent_bounds(group);
        let (tmin, tmax) = parent_bounds(target);
        let (min, max) = (min.or(tmin), max.or(tmax));
        let entries = group_entries(target, shared);
        let mut in_group: Vec<(String, u32)> = Vec::new();
        let name = mount_name(group.attribute("name").unwrap_or_default());
        for (entry, t) in entries {
            let Some(w) = titan_weapon(entry, t, weapons) else {
                continue;
            };
            let most = parent_bounds(entry).1.or(parent_bounds(t).1).unwrap_or(u32::MAX);
            let entry_name = tidy(
                entry
                    .attribute("name")
                    .or(t.attribute("name"))
                    .unwrap_or_default(),
            );
            in_group.push((entry_name, most));
            note(w, max.map(|_| name.as_str()), &mut found);
        }
        if let Some(max) = max
            && !in_group.is_empty()
        {
            match mounts.iter_mut().find(|m| m.name == name) {
                // Two groups naming one mount: one mount, summed.
                Some(m) => {
                    m.min += min.unwrap_or(0);
                    m.max += max;
                    m.weapons.extend(in_group);
                }
                None => mounts.push(Mount {
                    name,
                    min: min.unwrap_or(0),
                    max,
                    weapons: in_group,
                }),
            }
        }
    }
    // The weapons go on the unit's datasheet, each once, its mounts named.
    let pid = entry_profile(unit_node, profiles)?;
    if let Some(unit) = units.get_mut(pid)
        && !found.is_empty()
        // A profile that lists its weapons itself keeps them.
        && unit.weapons.is_empty()
    {
        for (w, ms) in &found {
            match unit.titan_weapons.iter_mut().find(|(n, ..)| *n == w.name) {
                // Another card of the same titan: the mounts of both.
                Some((_, mounts, _)) => {
                    for m in ms {
                        if !mounts.contains(m) {
                            mounts.push(m.clone());
                        }
                    }
                }
                None => {
                    unit.titan_weapons
                        .push((w.name.clone(), ms.clone(), w.value.clone()));
                    unit.faults.extend(w.faults.iter().cloned());
                }
            }
        }
        unit.faults.retain(|f| {
            !f.starts_with("weapons: chosen on the card") && !f.starts_with("weapons: in weapon profiles")
        });
    }
    if mounts.is_empty() {
        return None;
    }
    Some(TitanMounts { times, mounts })
}

/// The entry of a card that holds a titan's weapons: the card itself, or
/// the unit inside it, with how many such titans the card holds. A card
/// offering a choice of titans (a mob of several kinds) has none.
fn titan_node<'a, 'i>(
    node: roxmltree::Node<'a, 'i>,
    shared: &SharedEntries<'a, 'i>,
    profiles: &Profiles,
    times: u32,
    depth: u32,
) -> Option<(roxmltree::Node<'a, 'i>, u32)> {
    if depth > 4 {
        return None;
    }
    let has_weapons = entry_groups(node, shared)
        .iter()
        .any(|(_, g)| !group_entries(*g, shared).is_empty())
        || group_entries(node, shared)
            .iter()
            .any(|(_, t)| t.attribute("type") == Some("upgrade"));
    if entry_profile(node, profiles).is_some() && has_weapons {
        return Some((node, times));
    }
    for (entry, target) in group_entries(node, shared) {
        let (min, max) = parent_bounds(entry);
        let n = match (min, max) {
            (Some(a), Some(b)) if a == b && a > 0 => a,
            (None, None) => 1,
            _ => continue,
        };
        if let Some(found) = titan_node(target, shared, profiles, times.checked_mul(n)?, depth + 1) {
            return Some(found);
        }
    }
    None
}

/// Whether anything a card offers, however deep, is a titan weapon.
pub fn offers_titan_weapons(
    node: roxmltree::Node,
    shared: &SharedEntries,
    weapons: &WeaponProfiles,
    depth: u32,
) -> bool {
    if depth > 8 {
        return false;
    }
    node.descendants()
        .filter(|e| e.has_tag_name("selectionEntry") || e.has_tag_name("entryLink"))
        .any(|e| {
            weapons.of(e).is_some()
                || (e.has_tag_name("entryLink")
                    && e.attribute("targetId")
                        .and_then(|t| shared.get(t))
                        .is_some_and(|t| offers_titan_weapons(*t, shared, weapons, depth + 1)))
        })
}
