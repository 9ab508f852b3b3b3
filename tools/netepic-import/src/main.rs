//! Converts one NetEpic Gold BattleScribe catalogue (`.cat`) into a muster
//! army list (YAML on standard output).
//!
//! ```text
//! cargo run -p netepic-import -- "Orks.cat" > lists/netepic/orks.yaml
//! ```
//!
//! Each shipped file is named after its list id less `netepic-`
//! (`Adeptus Astartes.cat` gives `netepic-adeptus-astartes`, written to
//! `lists/netepic/adeptus-astartes.yaml`); `BOOKS` below maps every
//! catalogue, by file name, to its list. The game system file
//! `NetEpic Gold.gst` is read from beside the catalogue, for the entries
//! catalogues link to (Imperial titan weapons). Generated files are
//! committed after review; edit the converter, not them.
//!
//! Only facts cross over: card names, card types, points, break points,
//! victory points, the Unique and Free marks, the catalogue's sub-faction
//! categories, and the names of the army-wide rules of its force entries
//! (listed as not enforced). Every sentence the output contains is written
//! here, not copied from the catalogue.
//!
//! The catalogue is read with `roxmltree`, which does not expand external
//! entities. Each top-level `selectionEntry` is one army card:
//!
//! - its primary category says the card type (the game system's
//!   Company, Support, Special and Free categories, matched by id, whatever
//!   name the catalogue's link gives them);
//! - its `pts`, ` VP` and ` Break Point` costs are the card's points,
//!   victory points and break point;
//! - an info link named `Unique` makes it unique;
//! - its other categories become tags (slugs), for sub-factions.
//!
//! Company cards become groups whose members are the Support and Special
//! cards of the same book; the card rules of the core rules (five Support
//! and one Special per Company card, one Free card per Company card, Unique
//! cards per full 3,000 points, personalities once) become constraints.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::process::ExitCode;

// Unit profiles and card contents (datasheets), kept apart from the cards.
mod sheets;

// Weapon profiles not in the usual form (issue 15), read by shape.
mod profiles;

/// Category ids of the game system (`NetEpic Gold.gst`).
const COMPANY: &str = "704c-e54e-0e5c-2d2f";
const SUPPORT: &str = "4462-e6f9-41a2-4e47";
const SPECIAL: &str = "224e-9fab-b2e1-8a4f";
const FREE: &str = "8e49-5810-e088-7dc4";
/// Cost type ids of the game system: points, victory points, break point.
const PTS: &str = "52f8-db9e-3336-8db6";
const VP: &str = "points";
const BP: &str = "25ab-cb1a-141e-dc75";

/// The core rules, for provenance.
const CORE: &str = "NetEpic Gold core rules (shared source 003)";

/// What the converter knows about each book that the catalogue does not
/// say: the list id, name and aliases muster uses, and which cards are
/// personalities (named characters: never duplicated).
struct Book {
    catalogue: &'static str,
    id: &'static str,
    name: &'static str,
    aliases: &'static [&'static str],
    personalities: &'static [&'static str],
    /// Categories of the catalogue that are sub-factions of which an army
    /// takes at most one inside one codex variant (the Legions of the
    /// Chaos Space Marines); the variants themselves, and one variant per
    /// force, are game code (`games::netepic::VARIANTS`).
    exclusive: &'static [&'static str],
    /// Primary categories of the book that are Special cards under another
    /// name (Chaos Greater Daemons, Dark Eldar Archons).
    special_aliases: &'static [&'static str],
    /// A book built from other entry types than cards (Tyranids).
    extra: Option<&'static Extra>,
}

/// What a book without army cards needs: its entry categories as sections,
/// the army rules it states and its own decisions.
struct Extra {
    /// Primary category id, section id, section name, tag.
    kinds: &'static [(&'static str, &'static str, &'static str, &'static str)],
    /// Constraint id, rule, message, provenance.
    rules: &'static [(&'static str, &'static str, &'static str, &'static str)],
    /// Force-entry rules the constraints above enforce.
    enforced: &'static [&'static str],
    decisions: &'static [&'static str],
}

const TYRANIDS: Extra = Extra {
    kinds: &[
        (
            "d13c-fa76-f3c4-be10",
            "synapse-creatures",
            "Synapse Creatures",
            "synapse",
        ),
        (
            "fa4f-2348-fdc8-4c09",
            "brood-creatures",
            "Brood Creatures",
            "brood",
        ),
    ],
    rules: &[(
        "dominatrix-required",
        "count(dominatrix) >= 1",
        "A Tyranid swarm always includes at least one Dominatrix.",
        "Tyranids catalogue, force entry rule 'Must take 1+ Dominatrix'",
    )],
    enforced: &["Must take 1+ Dominatrix"],
    decisions: &[
        "The Tyranid book has no Company, Support or Special cards: its entries are Synapse and Brood creatures (the catalogue's primary categories), converted as two sections tagged `synapse` and `brood`. The card rules of the core rules (five Support and one Special per Company card) have nothing to count here and are not written as constraints.",
        "The catalogue's extra cost ` Mind` is kept in each entry's note as it is, without reading what it stands for.",
    ],
};

const BOOKS: &[Book] = &[
    Book {
        catalogue: "Orks",
        id: "netepic-orks",
        name: "NetEpic Orks",
        aliases: &["NetEpic Gold Orks", "NetEpic Ork Army"],
        personalities: &["Ghazghkull Thraka", "Mad Doc Grotsnik"],
        exclusive: &[],
        special_aliases: &[],
        extra: None,
    },
    Book {
        catalogue: "Adeptus Astartes",
        id: "netepic-adeptus-astartes",
        name: "NetEpic Adeptus Astartes",
        aliases: &["NetEpic Space Marines", "NetEpic Gold Space Marines"],
        personalities: &[
            "Space Wolves - Ulrik The Slayer",
            "Space Wolves - Njal Stormcaller",
            "Space Wolves - Ragnar Blackmane",
        ],
        exclusive: &[],
        special_aliases: &[],
        extra: None,
    },
    Book {
        catalogue: "Adepta Sororitas",
        id: "netepic-adepta-sororitas",
        name: "NetEpic Adepta Sororitas",
        aliases: &["NetEpic Sisters of Battle"],
        personalities: &[],
        exclusive: &[],
        special_aliases: &[],
        extra: None,
    },
    Book {
        catalogue: "Adeptus Mechanicus",
        id: "netepic-adeptus-mechanicus",
        name: "NetEpic Adeptus Mechanicus",
        aliases: &["NetEpic Knight Households"],
        personalities: &[],
        exclusive: &[],
        special_aliases: &[],
        extra: None,
    },
    Book {
        catalogue: "Chaos",
        id: "netepic-chaos",
        name: "NetEpic Chaos",
        aliases: &["NetEpic Gold Chaos"],
        personalities: &[
            "Angron, Primarch of the World Eaters",
            "Mortarion, Primarch of the Death Guard",
            "Magnus the Red, Primarch of the Thousand Sons",
            "Fulgrim, Primarch of the Emperor's Children",
        ],
        exclusive: &[
            "Alpha Legion",
            "Iron Warriors",
            "Night Lords",
            "Word Bearers",
            "Black Legion",
        ],
        special_aliases: &["013c-3347-c2b8-2c7c"],
        extra: None,
    },
    Book {
        catalogue: "Dark Eldar",
        id: "netepic-dark-eldar",
        name: "NetEpic Dark Eldar",
        aliases: &["NetEpic Gold Dark Eldar"],
        personalities: &[],
        exclusive: &[],
        special_aliases: &["0904-744f-a1b5-0816"],
        extra: None,
    },
    Book {
        catalogue: "Eldar",
        id: "netepic-eldar",
        name: "NetEpic Eldar",
        aliases: &["NetEpic Gold Eldar"],
        personalities: &[
            "Eldrad Ulthran, Farseer of Ulthwe",
            "Karandras, The Shadow Hunter",
            "Jain Zar, The Storm Of Silence",
        ],
        exclusive: &[],
        special_aliases: &[],
        extra: None,
    },
    Book {
        catalogue: "Imperial Guard",
        id: "netepic-imperial-guard",
        name: "NetEpic Imperial Guard",
        aliases: &["NetEpic Adeptus Militaris"],
        personalities: &["Commissar Yarrick"],
        exclusive: &[],
        special_aliases: &[],
        extra: None,
    },
    Book {
        catalogue: "Necrons",
        id: "netepic-necrons",
        name: "NetEpic Necrons",
        aliases: &["NetEpic Gold Necrons"],
        personalities: &[],
        exclusive: &[],
        special_aliases: &[],
        extra: None,
    },
    Book {
        catalogue: "Slann",
        id: "netepic-slann",
        name: "NetEpic Slann",
        aliases: &["NetEpic Gold Slann"],
        personalities: &[],
        exclusive: &[],
        special_aliases: &[],
        extra: None,
    },
    Book {
        catalogue: "Squats",
        id: "netepic-squats",
        name: "NetEpic Squats",
        aliases: &["NetEpic Gold Squats"],
        personalities: &["Grand Warlord Grimtrek"],
        exclusive: &[],
        special_aliases: &[],
        extra: None,
    },
    Book {
        catalogue: "Tau",
        id: "netepic-tau",
        name: "NetEpic Tau",
        aliases: &["NetEpic Gold Tau"],
        personalities: &[],
        exclusive: &[],
        special_aliases: &[],
        extra: None,
    },
    Book {
        catalogue: "Tyranids",
        id: "netepic-tyranids",
        name: "NetEpic Tyranids",
        aliases: &["NetEpic Gold Tyranids", "NetEpic Tyranid Swarm"],
        personalities: &[],
        exclusive: &[],
        special_aliases: &[],
        extra: Some(&TYRANIDS),
    },
    Book {
        catalogue: "Titan Legions",
        id: "netepic-titan-legions",
        name: "NetEpic Titan Legions",
        aliases: &["NetEpic Gold Titan Legions"],
        personalities: &[],
        exclusive: &[],
        special_aliases: &[],
        extra: None,
    },
];

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Kind {
    Company,
    Support,
    Special,
    /// A section of a book without cards: index into `Extra::kinds`.
    Other(usize),
}

struct Card {
    id: String,
    name: String,
    aliases: Vec<String>,
    kind: Kind,
    free: bool,
    unique: bool,
    personality: bool,
    points: i64,
    vp: Option<f64>,
    bp: Option<f64>,
    /// The catalogue's own cost types (Necron Phase Out), name and value.
    extra: Vec<(String, f64)>,
    tags: Vec<String>,
    /// Priced options inside the card (titan weapons, extra vehicles):
    /// name and points, first cost met for each name.
    options: Vec<(String, i64)>,
    /// Upgrade ids offered to the card, filled in once all cards are read.
    upgrades: Vec<String>,
    /// The units the card always holds: datasheet id and count.
    units: Vec<(String, u32)>,
    /// What the card's entries say about it (forward observers, tunnelers).
    marks: Marks,
    /// A titan card's weapon mounts.
    mounts: Option<sheets::TitanMounts>,
    /// The card offers titan weapons (mounted or not).
    titan_weapons: bool,
}

/// An upgrade of the list: one priced option name, with the cost most
/// cards give it and the cards that price it otherwise.
struct Upgrade {
    id: String,
    name: String,
    points: i64,
    otherwise: Vec<(String, i64)>,
    /// Mount tags: which mounts of which titan card take it.
    tags: Vec<String>,
    /// The titan datasheet rows it chooses, with their datasheet ids.
    fielded: Vec<(String, Vec<String>)>,
}

/// Shared entries (of the catalogue and of the game system) by id, for
/// following entry links.
type Shared<'a, 'i> = BTreeMap<&'a str, roxmltree::Node<'a, 'i>>;

/// Every priced entry inside `node`, following entry links; `depth` guards
/// against links that loop.
fn options(node: roxmltree::Node, shared: &Shared, depth: u32, out: &mut Vec<(String, i64)>) {
    if depth > 8 {
        return;
    }
    for child in node.children().filter(|n| n.is_element()) {
        match child.tag_name().name() {
            "selectionEntries" | "selectionEntryGroups" | "selectionEntryGroup" | "entryLinks" => {
                options(child, shared, depth + 1, out)
            }
            "selectionEntry" => {
                note_option(child, child, out);
                options(child, shared, depth + 1, out);
            }
            "entryLink" => {
                if let Some(target) = child.attribute("targetId").and_then(|t| shared.get(t)) {
                    note_option(child, *target, out);
                    options(*target, shared, depth + 1, out);
                }
            }
            _ => {}
        }
    }
}

fn note_option(named: roxmltree::Node, priced: roxmltree::Node, out: &mut Vec<(String, i64)>) {
    let points = cost(priced, PTS).unwrap_or(0.0);
    if points > 0.0 && priced.attribute("hidden") != Some("true") {
        let name = tidy(
            named
                .attribute("name")
                .or(priced.attribute("name"))
                .unwrap_or_default(),
        );
        if !out.iter().any(|(n, _)| *n == name) {
            out.push((name, points.round() as i64));
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (path, datasheets) = match args.as_slice() {
        [path] => (path, false),
        [flag, path] if flag == "--datasheets" => (path, true),
        _ => {
            eprintln!(
                "usage: netepic-import [--datasheets] CATALOGUE.cat > lists/netepic/[datasheets/]BOOK.yaml"
            );
            return ExitCode::from(2);
        }
    };
    match run(path, datasheets) {
        Ok(yaml) => {
            print!("{yaml}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("netepic-import: {path}: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Lower-case words joined by `-`, as muster's ids are.
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

/// The name with its spacing tidied (the catalogue has trailing and doubled
/// spaces).
fn tidy(name: &str) -> String {
    name.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The name as a roster can write it: cut at a comma, a colon between
/// words read as a dash, other characters a roster reserves dropped.
fn writable(name: &str) -> String {
    let head = name.split(',').next().unwrap_or_default();
    let dashed = head.replace(" : ", " - ");
    tidy(&dashed.replace([':', '[', ']', '#', '='], " "))
}

/// A YAML double-quoted scalar.
fn quote(text: &str) -> String {
    serde_json::to_string(text).expect("a string serialises")
}

fn number(n: f64) -> String {
    if n.fract() == 0.0 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

fn cost(entry: roxmltree::Node, type_id: &str) -> Option<f64> {
    entry
        .children()
        .find(|n| n.has_tag_name("costs"))?
        .children()
        .find(|n| n.has_tag_name("cost") && n.attribute("typeId") == Some(type_id))?
        .attribute("value")?
        .parse()
        .ok()
}

fn children<'a, 'i>(
    node: roxmltree::Node<'a, 'i>,
    list: &'static str,
    item: &'static str,
) -> impl Iterator<Item = roxmltree::Node<'a, 'i>> {
    node.children()
        .filter(move |n| n.has_tag_name(list))
        .flat_map(move |n| n.children().filter(move |c| c.has_tag_name(item)))
}

fn run(path: &str, datasheets: bool) -> Result<String, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let doc = roxmltree::Document::parse(&text).map_err(|e| e.to_string())?;
    let root = doc.root_element();
    // The game system beside the catalogue holds the entries many books
    // link to (Imperial titan weapons).
    let gst_path = std::path::Path::new(path).with_file_name("NetEpic Gold.gst");
    let gst_text = std::fs::read_to_string(&gst_path).unwrap_or_default();
    let gst = if gst_text.is_empty() {
        None
    } else {
        Some(roxmltree::Document::parse(&gst_text).map_err(|e| format!("{}: {e}", gst_path.display()))?)
    };
    let mut shared: Shared = BTreeMap::new();
    for r in std::iter::once(root).chain(gst.as_ref().map(|g| g.root_element())) {
        for list in ["sharedSelectionEntries", "sharedSelectionEntryGroups"] {
            for n in r.children().filter(|n| n.has_tag_name(list)) {
                for e in n.children().filter(|e| e.is_element()) {
                    if let Some(id) = e.attribute("id") {
                        shared.insert(id, e);
                    }
                }
            }
        }
    }
    if !root.has_tag_name("catalogue") {
        return Err("not a BattleScribe catalogue".into());
    }
    let cat_name = root.attribute("name").unwrap_or_default();
    let revision = root.attribute("revision").unwrap_or("missing");
    let file_path = std::path::Path::new(path);
    let file = file_path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    // The catalogue's `name` is not always the book's ("Space Marines" in
    // "Adeptus Astartes.cat"): the file name decides.
    let stem = file_path
        .file_stem()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let book = BOOKS
        .iter()
        .find(|b| b.catalogue == stem)
        .ok_or_else(|| format!("no book is set up for `{stem}` (catalogue `{cat_name}`)"))?;

    // Names of the catalogue's own categories, for sub-faction tags.
    let mut category_names: BTreeMap<&str, String> = BTreeMap::new();
    for c in children(root, "categoryEntries", "categoryEntry") {
        if let (Some(id), Some(name)) = (c.attribute("id"), c.attribute("name")) {
            category_names.insert(id, tidy(name));
        }
    }

    // Unit profiles, of the catalogue and of the game system it links to.
    let roots: Vec<roxmltree::Node> = std::iter::once(root)
        .chain(gst.as_ref().map(|g| g.root_element()))
        .collect();
    let profiles = sheets::Profiles::new(&roots);
    let weapon_profiles = sheets::WeaponProfiles::new(&roots);
    let book_key = book.id.strip_prefix("netepic-").unwrap_or(book.id);
    let mut units = sheets::read_units(&profiles, book_key);
    sheets::note_rules(&roots, &shared, &profiles, &mut units);

    // Cost types the catalogue adds to the game system's (Phase Out).
    let extra_costs: Vec<(&str, String)> = children(root, "costTypes", "costType")
        .filter_map(|c| Some((c.attribute("id")?, tidy(c.attribute("name")?))))
        .collect();
    let mut cards: Vec<Card> = Vec::new();
    let mut used_ids: BTreeSet<String> = BTreeSet::new();
    let mut skipped: Vec<String> = Vec::new();
    for entry in children(root, "selectionEntries", "selectionEntry") {
        let name = tidy(entry.attribute("name").unwrap_or_default());
        if entry.attribute("hidden") == Some("true") {
            skipped.push(format!("{name} (hidden)"));
            continue;
        }
        let links: Vec<roxmltree::Node> = children(entry, "categoryLinks", "categoryLink").collect();
        let primary = links
            .iter()
            .find(|l| l.attribute("primary") == Some("true"))
            .and_then(|l| l.attribute("targetId"))
            .unwrap_or_default();
        let (kind, free) = match primary {
            COMPANY => (Kind::Company, false),
            SUPPORT => (Kind::Support, false),
            SPECIAL => (Kind::Special, false),
            FREE => (Kind::Support, true),
            other if book.special_aliases.contains(&other) => (Kind::Special, false),
            other => match book.extra.and_then(|e| e.kinds.iter().position(|k| k.0 == other)) {
                Some(i) => (Kind::Other(i), false),
                None => {
                    skipped.push(format!("{name} (no card type)"));
                    continue;
                }
            },
        };
        let unique = children(entry, "infoLinks", "infoLink")
            .any(|l| l.attribute("name").map(tidy).as_deref() == Some("Unique"));
        let mut tags: Vec<String> = Vec::new();
        for l in &links {
            let target = l.attribute("targetId").unwrap_or_default();
            if l.attribute("primary") == Some("true") {
                continue;
            }
            if [COMPANY, SUPPORT, SPECIAL].contains(&target) {
                continue;
            }
            if target == FREE {
                continue;
            }
            let label = category_names
                .get(target)
                .cloned()
                .or_else(|| l.attribute("name").map(tidy))
                .unwrap_or_default();
            let tag = slug(&label);
            if !tag.is_empty() && !tags.contains(&tag) && tag != "new-categorylink" {
                tags.push(tag);
            }
        }
        let mut id = slug(&name);
        if used_ids.contains(&id) {
            let mut n = 2;
            while used_ids.contains(&format!("{id}-{n}")) {
                n += 1;
            }
            id = format!("{id}-{n}");
        }
        used_ids.insert(id.clone());
        let points = cost(entry, PTS).unwrap_or(0.0);
        if points.fract() != 0.0 {
            return Err(format!("card `{name}` costs {points}, not a whole number"));
        }
        // "Space Wolves - Ulrik The Slayer": the part after the dash is what
        // players write.
        // A roster cannot write `,`, `:` and a few other characters in a
        // name ("Angron, Primarch of the World Eaters"): such a card also
        // gets the name cut where a roster could not go on.
        let mut aliases: Vec<String> = Vec::new();
        let short = name.split_once(" - ").map(|(_, rest)| rest.trim().to_string());
        for candidate in std::iter::once(name.clone()).chain(short) {
            for a in [candidate.clone(), writable(&candidate)] {
                if !a.is_empty() && a != name && !aliases.contains(&a) && writable(&a) == a {
                    aliases.push(a);
                }
            }
        }
        let mut opts = Vec::new();
        options(entry, &shared, 0, &mut opts);
        let card_units = sheets::card_units(entry, &shared, &profiles, &mut units);
        let mounts = sheets::titan_weapons(entry, &shared, &profiles, &weapon_profiles, &mut units);
        // A titan's mounts may offer weapons at no cost (a Command Head):
        // they are upgrades too, so that a roster can name them.
        if let Some(m) = &mounts
            && !opts.is_empty()
            && cost(entry, BP) == Some(0.0)
        {
            for (name, _) in m.mounts.iter().flat_map(|m| &m.weapons) {
                if !opts.iter().any(|(n, _)| n == name) {
                    opts.push((name.clone(), 0));
                }
            }
        }
        cards.push(Card {
            id,
            personality: book.personalities.contains(&name.as_str()),
            name,
            aliases,
            kind,
            free,
            unique,
            points: points as i64,
            vp: cost(entry, VP),
            bp: cost(entry, BP),
            extra: extra_costs
                .iter()
                .filter_map(|(id, name)| Some((name.clone(), cost(entry, id)?)))
                .collect(),
            tags,
            marks: marks(entry, &shared),
            mounts,
            titan_weapons: sheets::offers_titan_weapons(entry, &shared, &weapon_profiles, 0),
            options: opts,
            upgrades: Vec::new(),
            units: card_units,
        });
    }
    // Cards the game code counts by what they field, read from their
    // names (the Tau book's Kroot units, whatever force the catalogue
    // offers them in).
    for (id, prefix, tag) in NAME_TAGS {
        if *id == book.id {
            for c in cards.iter_mut().filter(|c| c.name.starts_with(prefix)) {
                c.tags.push(tag.to_string());
            }
        }
    }
    // Barrages of a book with no Forward Observer and no rule of its own
    // for calling them need an observer of an allied force, unless the
    // card's own rule places it without one.
    let observers = cards.iter().any(|c| c.marks.observer);
    if !observers && !OBSERVER_EXCEPTIONS.iter().any(|(id, _)| *id == book.id) {
        for c in cards.iter_mut().filter(|c| c.marks.barrage_vp.is_some()) {
            if !OBSERVER_FREE
                .iter()
                .any(|(id, name, _)| *id == book.id && *name == c.name)
            {
                c.tags.push("needs-observer".to_string());
            }
        }
    }
    for p in book.personalities {
        if !cards.iter().any(|c| c.name == *p) {
            return Err(format!("personality `{p}` is not a card of the catalogue"));
        }
    }
    // An alias that is another card's name, or shared by two cards, is
    // dropped: it would make a roster ambiguous.
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for c in &cards {
        *seen.entry(c.name.to_lowercase()).or_default() += 1;
        for a in &c.aliases {
            *seen.entry(a.to_lowercase()).or_default() += 1;
        }
    }
    for c in &mut cards {
        c.aliases.retain(|a| seen[&a.to_lowercase()] == 1);
    }

    // Options become upgrades: one per option name, priced as most cards
    // price it, with `points_when` for the cards that differ.
    let mut by_name: BTreeMap<String, Vec<(String, i64)>> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    for c in &cards {
        for (name, points) in &c.options {
            if !by_name.contains_key(name) {
                order.push(name.clone());
            }
            by_name
                .entry(name.clone())
                .or_default()
                .push((c.id.clone(), *points));
        }
    }
    let mut upgrades: Vec<Upgrade> = Vec::new();
    for name in order {
        let priced = &by_name[&name];
        let mut tally: BTreeMap<i64, usize> = BTreeMap::new();
        for (_, p) in priced {
            *tally.entry(*p).or_default() += 1;
        }
        let points = tally
            .iter()
            .max_by_key(|(p, n)| (**n, std::cmp::Reverse(**p)))
            .map(|(p, _)| *p)
            .unwrap_or(0);
        let mut id = slug(&name);
        if used_ids.contains(&id) {
            id = format!("{id}-option");
        }
        let mut n = 2;
        while used_ids.contains(&id) {
            id = format!("{}-{n}", slug(&name));
            n += 1;
        }
        used_ids.insert(id.clone());
        for (card, _) in priced {
            if let Some(c) = cards.iter_mut().find(|c| c.id == *card) {
                c.upgrades.push(id.clone());
            }
        }
        upgrades.push(Upgrade {
            id,
            name,
            points,
            otherwise: priced.iter().filter(|(_, p)| *p != points).cloned().collect(),
            tags: Vec::new(),
            fielded: Vec::new(),
        });
    }
    sheets::settle_roles(&mut units);
    mount_tags(&cards, &mut upgrades);
    titan_fielded(&cards, &units, &mut upgrades);

    if datasheets {
        return Ok(sheets::datasheets(
            &format!("{book_key}-units"),
            book.name,
            &file,
            revision,
            &units,
        ));
    }

    let force_rules: Vec<String> = children(root, "forceEntries", "forceEntry")
        .flat_map(|f| children(f, "rules", "rule"))
        .filter_map(|r| r.attribute("name").map(tidy))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    // The codex variant each force entry stands for (none: the book's
    // standard force), and so the variants each force rule belongs to.
    // In a book with variants, a force entry past the first (the standard
    // force) that no variant stands for is a Chapter muster cannot read
    // from the cards (Raven Guard): its rules are tied to its name, which
    // no roster fields.
    let has_variants = muster::games::netepic::variants_of(book.id).next().is_some();
    let mut rule_forces: BTreeMap<String, Vec<Option<String>>> = BTreeMap::new();
    for (i, f) in children(root, "forceEntries", "forceEntry").enumerate() {
        let name = f.attribute("name").map(tidy).unwrap_or_default();
        let variant = force_variant(book.id, &name)
            .map(str::to_string)
            .or_else(|| (has_variants && i > 0).then(|| name.clone()));
        for r in children(f, "rules", "rule") {
            if let Some(name) = r.attribute("name") {
                rule_forces.entry(tidy(name)).or_default().push(variant.clone());
            }
        }
    }
    let rule_variants: BTreeMap<String, Vec<String>> = rule_forces
        .into_iter()
        .filter(|(_, v)| v.iter().all(Option::is_some))
        .map(|(r, v)| {
            (
                r,
                v.into_iter()
                    .flatten()
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .collect(),
            )
        })
        .collect();
    let forces: Vec<String> = children(root, "forceEntries", "forceEntry")
        .filter_map(|f| f.attribute("name").map(tidy))
        .collect();

    let cat_id = root.attribute("id").unwrap_or_default();
    Ok(render(
        book,
        (cat_name, cat_id),
        &upgrades,
        &file,
        revision,
        &cards,
        &skipped,
        &force_rules,
        &rule_variants,
        &forces,
    ))
}

/// A rule's words and its trailing reference: `A card is taken as printed
/// (core rules 1.2.1).` is the sentence and `NetEpic Gold core rules
/// 1.2.1`; a line of the core rules is written as a source line
/// (`003 line 685`), which players' messages leave out.
fn split_source(rule: &str) -> (String, Option<String>) {
    let body = rule.strip_suffix(").").and_then(|r| r.rsplit_once(" ("));
    match body {
        Some((words, inside))
            if inside.starts_with("core rules") || inside.starts_with("fortification table") =>
        {
            let source = match inside.split_once(", line ") {
                Some((what, line)) => format!("NetEpic Gold core rules, {what} (003 line {line})"),
                None => format!("NetEpic Gold {inside}"),
            };
            (format!("{words}."), Some(source))
        }
        _ => (rule.to_string(), None),
    }
}

/// The codex variant (games::netepic::VARIANTS) a catalogue's force entry
/// stands for: its name is the variant's card tag (`Blood Angels`,
/// `Alaitoc Craftworld`, `Eldar Knights - Ally only`). A variant without
/// tags is the book's standard army, and no force entry is read as it.
fn force_variant(list: &str, force: &str) -> Option<&'static str> {
    use muster::games::netepic::variants_of;
    let force = slug(force);
    variants_of(list)
        .find(|v| {
            v.tags
                .iter()
                .any(|t| force == *t || force.strip_prefix(t).is_some_and(|rest| rest.starts_with('-')))
        })
        .map(|v| v.name)
}

#[allow(clippy::too_many_arguments)] // one call, every argument a different part of the file
fn render(
    book: &Book,
    // The catalogue's `name` and `id`, as a roster's force names them.
    catalogue: (&str, &str),
    upgrades: &[Upgrade],
    file: &str,
    revision: &str,
    cards: &[Card],
    skipped: &[String],
    force_rules: &[String],
    rule_variants: &BTreeMap<String, Vec<String>>,
    forces: &[String],
) -> String {
    let mut y = String::new();
    let w = &mut y;
    let _ = writeln!(
        w,
        "# yaml-language-server: $schema=../../schema/army-list.schema.json"
    );
    let _ = writeln!(
        w,
        "# Generated by tools/netepic-import from the BattleScribe catalogue {}; edit the converter, not this file.",
        quote(file)
    );
    let _ = writeln!(w, "game: netepic");
    let _ = writeln!(w, "id: {}", book.id);
    let _ = writeln!(w, "name: {}", quote(book.name));
    let _ = writeln!(w, "aliases:");
    for a in book.aliases {
        let _ = writeln!(w, "  - {}", quote(a));
    }
    let _ = writeln!(w, "version: {}", quote(&format!("revision {revision}")));
    let _ = writeln!(
        w,
        "version_label: {}",
        quote(&format!(
            "NetEpic Gold BattleScribe data, {} catalogue revision {revision}",
            book.catalogue
        ))
    );
    let _ = writeln!(w, "imports:");
    let _ = writeln!(w, "  battlescribe:");
    let _ = writeln!(
        w,
        "    - {{ name: {}, id: {} }}",
        quote(catalogue.0),
        quote(catalogue.1)
    );
    let _ = writeln!(w, "source:");
    let _ = writeln!(
        w,
        "  - document: {}",
        quote(&format!(
            "NetEpic Gold BattleScribe data (release v10), catalogue {file}, revision {revision}"
        ))
    );
    let _ = writeln!(
        w,
        "    covers: \"card names, card types (primary category), points, victory points and break points (card costs), Unique marks (info links), sub-faction categories (tags); converted by tools/netepic-import\""
    );
    let _ = writeln!(
        w,
        "  - document: {}",
        quote(&format!("{CORE}, 003_8736bab83ee21ec8.txt"))
    );
    let _ = writeln!(
        w,
        "    covers: \"army cards: Company, Support, Special, Free and Unique (lines 182-190); allies (192-231); victory points (154-160); titans (915-932); fortifications (677-685); off-board artillery (794)\""
    );

    // Decisions.
    let has_company = cards.iter().any(|c| c.kind == Kind::Company);
    let mut d: Vec<String> = vec![
        "Every top-level entry of the catalogue is one army card and one formation; its primary category (matched by the game system's category id, whatever the link is named) gives its type: Company, Support or Special. Entries without a card type are left out and named here.".into(),
        "Points, victory points and break points are the card's own costs in the catalogue (pts, VP, Break Point), written as each card's `points`, `victory_points` and `break_point`; a value the catalogue lacks is `missing`.".into(),
        "A Company card is a group: the Support and Special cards written indented under it in a roster are its members. The group allows no members (`min: 0`): a company card may be written with nothing under it. Support and Special cards written on their own still count against the army-wide limits.".into(),
        "Free cards (the catalogue's Free category) cost what the catalogue says (usually nothing), carry the tags `free` and `support`, and so count against the five Support cards of their company (core rules 1.2.1). The rules let a Free card count as Special where the card says so; no Free card's text in the catalogues says it, so every Free card counts as Support.".into(),
        "Unique: the core rules say both that a Unique card may be taken only once (line 184, the opening of 1.2.1) and once for every full 3,000 points of the army (line 190, the Unique Cards row). The specific row wins: each Unique card may be taken floor(limit / 3,000) times, so none below 3,000 points. The same row says Unique cards usually count as Special cards; the catalogue's card type is kept.".into(),
        "Personalities (named characters) are never taken twice, whatever the army's size. The catalogue does not mark them; the converter names them by hand from the card names (a named character the catalogue does not mark Unique, such as a Primarch, is still a personality).".into(),
        "A card whose name a roster cannot write (a comma or a colon in it) also answers to the name cut before the comma, or with the colon read as a dash.".into(),
        "A card's `units` are the units it always holds: every entry inside it that shows a unit profile and that the card must take (its least count, times the counts of the entries around it). Optional entries and choices are not contents. The units' statistics are the book's datasheets (lists/netepic/datasheets/, written by this converter with --datasheets).".into(),
        "Priced options inside a card (titan and gargant weapons, the titans of a battle group, extra vehicles), found by following the catalogue's entries and links into the game system, are upgrades of that card at the catalogue's price: `Warlord Titan: Volcano Cannon, Chain Fist`. An option two cards price differently costs what each card says. Titan weapons are held to their mounts (see the decision on titan weapon mounts); how many of any other option a card may take is not checked.".into(),
        "Prices are the catalogue's. The core rules' titan example (6.1) uses figures of its own (a Gatling Blaster at 60 points) that are not read as prices; where the catalogue's author re-priced titan weapons, his figures stand.".into(),
        "Cards carry the catalogue's other categories as tags (sub-factions such as clans or chapters, and unit classes); they are informative unless a constraint below uses them.".into(),
    ];
    if !has_company {
        // The card decisions above say how cards would be read; a book
        // without cards keeps only what applies to it.
        d.retain(|line| {
            !line.contains("Company card")
                && !line.starts_with("Every top-level entry")
                && !line.starts_with("Free cards")
                && !line.starts_with("Unique:")
        });
    }
    if let Some(extra) = book.extra {
        d.extend(extra.decisions.iter().map(|x| x.to_string()));
    }
    d.extend(construction_decisions(book, has_company));
    if !mount_plans(cards).is_empty() {
        d.push(MOUNT_DECISION.to_string());
        d.extend(battle_group_decision(cards));
    }
    if !forces.is_empty() {
        d.push(format!(
            "The catalogue offers these forces, all converted into this one list: {}.",
            forces.join("; ")
        ));
    }
    if !skipped.is_empty() {
        d.push(format!("Entries left out: {}.", skipped.join("; ")));
    }
    d.extend(variant_decisions(book));
    if !book.exclusive.is_empty() {
        d.push(format!(
            "Legions of which a Chaos Space Marine army takes at most one (core rules 1.2.4, Chaos Marines row: that Legion, with the standard lists): {}.",
            book.exclusive.join(", ")
        ));
    }
    let by_game: Vec<&str> = force_rules
        .iter()
        .filter(|r| matches!(book_rule(r), Some(BookRule::Game)))
        .map(String::as_str)
        .collect();
    if !by_game.is_empty() {
        d.push(format!(
            "Army-book rules applied by muster's game code (the ally tables and the codex variants, games::netepic), not by constraints of this file: {}.",
            by_game.join("; ")
        ));
    }
    let _ = writeln!(w, "decisions:");
    for line in &d {
        let _ = writeln!(w, "  - {}", quote(line));
    }
    // Army-book rules of play, in our words.
    let play: Vec<(&String, &str)> = force_rules
        .iter()
        .filter_map(|r| match book_rule(r) {
            Some(BookRule::Play(summary)) => Some((r, *summary)),
            _ => None,
        })
        .collect();
    if !play.is_empty() {
        let _ = writeln!(w, "special_rules:");
        for (name, summary) in play {
            let _ = writeln!(w, "  - id: book-{}", slug(name));
            let _ = writeln!(w, "    name: {}", quote(name));
            let _ = writeln!(w, "    summary: {}", quote(summary));
            if let Some(variants) = rule_variants.get(name.as_str()) {
                let names: Vec<String> = variants.iter().map(|v| quote(v)).collect();
                let _ = writeln!(w, "    variants: [{}]", names.join(", "));
            }
        }
    }

    // Sections.
    let mut sections = vec![
        (Kind::Company, "company-cards", "Company Cards", "company"),
        (Kind::Support, "support-cards", "Support Cards", "support"),
        (Kind::Special, "special-cards", "Special Cards", "special"),
    ];
    if let Some(extra) = book.extra {
        for (i, k) in extra.kinds.iter().enumerate() {
            sections.push((Kind::Other(i), k.1, k.2, k.3));
        }
    }
    let has_special = cards.iter().any(|c| c.kind == Kind::Special);
    let has_support = cards.iter().any(|c| c.kind == Kind::Support);
    let mut members: Vec<&str> = Vec::new();
    if has_support {
        members.push("tag:support");
    }
    if has_special {
        members.push("tag:special");
    }
    let _ = writeln!(w, "sections:");
    for (kind, id, name, tag) in sections {
        let in_section: Vec<&Card> = cards.iter().filter(|c| c.kind == kind).collect();
        if in_section.is_empty() {
            continue;
        }
        let _ = writeln!(w, "  - id: {id}");
        let _ = writeln!(w, "    name: {name}");
        let _ = writeln!(w, "    tags: [{tag}]");
        let _ = writeln!(w, "    formations:");
        for c in in_section {
            let _ = writeln!(w, "      - id: {}", c.id);
            let _ = writeln!(w, "        name: {}", quote(&c.name));
            if !c.aliases.is_empty() {
                let quoted: Vec<String> = c.aliases.iter().map(|a| quote(a)).collect();
                let _ = writeln!(w, "        aliases: [{}]", quoted.join(", "));
            }
            let _ = writeln!(w, "        points: {}", c.points);
            if c.units.is_empty() {
                let _ = writeln!(w, "        units: []");
            } else {
                let _ = writeln!(w, "        units:");
                for (unit, count) in &c.units {
                    let _ = writeln!(w, "          - {{ unit: {unit}, count: {count} }}");
                }
            }
            if !c.upgrades.is_empty() {
                let _ = writeln!(w, "        upgrades: [{}]", c.upgrades.join(", "));
            }
            let mut tags = c.tags.clone();
            if c.free {
                tags.push("free".into());
            }
            if c.unique {
                tags.push("unique".into());
            }
            if c.personality {
                tags.push("personality".into());
            }
            tags.extend(mark_tags(c, kind));
            if !tags.is_empty() {
                let _ = writeln!(w, "        tags: [{}]", tags.join(", "));
            }
            if kind == Kind::Company && !members.is_empty() {
                let _ = writeln!(
                    w,
                    "        group: {{ members: [{}], min: 0, provenance: \"core rules 1.2.1: Support and Special cards belong to a Company card\" }}",
                    members.join(", ")
                );
            }
            card_values(w, c);
            if let Some((count, each)) = titan_each(c, cards) {
                let _ = writeln!(w, "        titans: {{ count: {count}, each: {} }}", each.id);
            }
            let mut note = format!(
                "{}.",
                match (kind, c.free) {
                    (_, true) => "Free card".to_string(),
                    (Kind::Company, _) => "Company card".to_string(),
                    (Kind::Support, _) => "Support card".to_string(),
                    (Kind::Special, _) => "Special card".to_string(),
                    (Kind::Other(_), _) => format!("{name} entry"),
                },
            );
            if titan(c) && titan_group(c) {
                note.push_str(
                    " Titans bought with their weapons: worth one victory point per 100 points of the card.",
                );
            } else if titan(c) {
                note.push_str(" Bought with its weapons: the total is rounded up to 50 points, and worth one victory point per 100 points.");
            }
            if let Some(mounts) = mount_summary(c) {
                let _ = write!(note, " {mounts}");
            }
            if titan_each(c, cards).is_some() {
                note.push_str(" A roster may arm each titan on a `Titan:` line under the card.");
            }
            for (name, value) in &c.extra {
                let _ = write!(note, " {name} {}.", number(*value));
            }
            if c.personality {
                note.push_str(" Personality: never more than one.");
            } else if c.unique {
                note.push_str(" Unique: one per full 3,000 points.");
            }
            let _ = writeln!(w, "        note: {}", quote(&note));
        }
    }

    render_fortifications(w);

    // Upgrades.
    if !upgrades.is_empty() {
        let _ = writeln!(w, "upgrades:");
        for u in upgrades {
            let _ = writeln!(w, "  - id: {}", u.id);
            let _ = writeln!(w, "    name: {}", quote(&u.name));
            let _ = writeln!(w, "    points: {}", u.points);
            if !u.tags.is_empty() {
                let _ = writeln!(w, "    tags: [{}]", u.tags.join(", "));
            }
            if !u.otherwise.is_empty() {
                let _ = writeln!(w, "    points_when:");
                for (card, p) in &u.otherwise {
                    let _ = writeln!(w, "      - {{ when: \"count({card}) >= 1\", points: {p} }}");
                }
            }
            titan_weapon_fielded(w, u);
        }
    }

    // Constraints.
    let _ = writeln!(w, "constraints:");
    let mut rule =
        |id: &str, scope: &str, applies: Option<&str>, rule: &str, message: &str, provenance: &str| {
            let _ = writeln!(w, "  - id: {id}");
            let _ = writeln!(w, "    scope: {scope}");
            if let Some(a) = applies {
                let _ = writeln!(w, "    applies_to: [{a}]");
            }
            let _ = writeln!(w, "    rule: {}", quote(rule));
            let _ = writeln!(w, "    message: {}", quote(message));
            let _ = writeln!(w, "    provenance: {}", quote(provenance));
        };
    let cards_row = format!("{CORE} 1.2.1 Army Cards (lines 182-190)");
    if has_support {
        rule(
            "five-support-per-company",
            "group",
            Some("tag:company"),
            &format!("count(tag:support){} <= 5", barrage_slots(cards)),
            "A Company card takes at most five Support cards, Free cards included; an off-board barrage takes one Support slot for each victory point it offers.",
            &cards_row,
        );
        rule(
            "support-needs-company",
            "army",
            None,
            &format!(
                "count(tag:support){} <= 5 * count(tag:company)",
                barrage_slots(cards)
            ),
            "Support cards need Company cards: at most five Support cards (Free cards included, an off-board barrage taking one slot per victory point it offers) for each Company card of the army.",
            &cards_row,
        );
    }
    if has_special {
        rule(
            "one-special-per-company",
            "group",
            Some("tag:company"),
            "count(tag:special) <= 1",
            "A Company card takes at most one Special card.",
            &cards_row,
        );
        rule(
            "special-needs-company",
            "army",
            None,
            "count(tag:special) <= count(tag:company)",
            "Special cards need Company cards: at most one Special card for each Company card of the army.",
            &cards_row,
        );
    }
    if cards.iter().any(|c| c.free) {
        rule(
            "one-free-per-company",
            "group",
            Some("tag:company"),
            "count(tag:free) <= 1",
            "A Company card takes at most one Free card.",
            &cards_row,
        );
        rule(
            "free-needs-company",
            "army",
            None,
            "count(tag:free) <= count(tag:company)",
            "At most one Free card for each Company card of the army.",
            &cards_row,
        );
    }
    let uniques: Vec<&Card> = cards.iter().filter(|c| c.unique).collect();
    if !uniques.is_empty() {
        let r = uniques
            .iter()
            .map(|c| format!("count({}) <= floor(limit / 3000)", c.id))
            .collect::<Vec<_>>()
            .join(" and ");
        let names = uniques
            .iter()
            .map(|c| c.name.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        rule(
            "unique-per-3000",
            "army",
            None,
            &r,
            &format!(
                "Each Unique card ({names}) may be taken once for every full 3,000 points of the army, so not at all below 3,000 points."
            ),
            &format!("{cards_row}; Unique marks from the catalogue"),
        );
    }
    let personalities: Vec<&Card> = cards.iter().filter(|c| c.personality).collect();
    if !personalities.is_empty() {
        let r = personalities
            .iter()
            .map(|c| format!("count({}) <= 1", c.id))
            .collect::<Vec<_>>()
            .join(" and ");
        let names = personalities
            .iter()
            .map(|c| c.name.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        rule(
            "personality-once",
            "army",
            None,
            &r,
            &format!("A personality ({names}) is never taken twice, however large the army."),
            &cards_row,
        );
    }
    if !book.exclusive.is_empty() {
        let present: Vec<String> = book
            .exclusive
            .iter()
            .map(|e| slug(e))
            .filter(|t| cards.iter().any(|c| c.tags.contains(t)))
            .collect();
        // One term per sub-faction (1 when the army has any of its cards),
        // so the rule grows with the sub-factions, not with their pairs.
        let terms: Vec<String> = present
            .iter()
            .map(|t| format!("min(1, count(tag:{t}))"))
            .collect();
        if terms.len() > 1 {
            rule(
                "one-sub-faction",
                "army",
                None,
                &format!("{} <= 1", terms.join(" + ")),
                "Cards of two different sub-factions (chapters, craftworlds, legions) never share an army: take one sub-faction's cards, with standard cards.",
                &format!(
                    "{CORE} 1.2.4 Codex armies (lines 202-231): a chapter army is that chapter and the standard list"
                ),
            );
        }
    }

    if let Some(extra) = book.extra {
        for (id, r, message, provenance) in extra.rules {
            rule(id, "army", None, r, message, provenance);
        }
    }
    for (id, scope, applies, r, message, provenance) in mount_rules(cards, upgrades) {
        rule(&id, scope, applies.as_deref(), &r, &message, &provenance);
    }
    for (id, scope, applies, r, message, provenance) in construction_rules(book, cards, has_support) {
        rule(&id, scope, applies, &r, &message, &provenance);
    }
    for name in force_rules {
        if let Some(BookRule::Rules(rules) | BookRule::Partly(rules, _)) = book_rule(name) {
            for (id, scope, applies, r, message) in *rules {
                rule(
                    id,
                    scope,
                    *applies,
                    r,
                    message,
                    &format!("{} catalogue, force entry rule '{name}'", book.catalogue),
                );
            }
        }
    }

    // Not enforced.
    let _ = writeln!(w, "not_enforced:");
    // The rule in words for players; its reference (`(core rules 6.1)`)
    // goes to `source`, the rule's provenance.
    let mut skip = |id: &str, rule: &str, why: &str| {
        let (rule, source) = split_source(rule);
        let _ = writeln!(w, "  - id: {id}");
        let _ = writeln!(w, "    rule: {}", quote(&rule));
        let _ = writeln!(w, "    why: {}", quote(why));
        if let Some(source) = source {
            let _ = writeln!(w, "    source: {}", quote(&source));
        }
    };
    for (id, rule, why) in construction_not_enforced() {
        skip(id, rule, why);
    }
    for (id, rule, why) in battle_group_not_enforced(cards) {
        skip(id, &rule, why);
    }
    for (id, rule, why) in mount_not_enforced(cards) {
        skip(id, &rule, &why);
    }
    skip(
        "no-substitutions",
        "A card is taken as printed: no detachment swapped for another (core rules 1.2.1).",
        "Cards have no options in this conversion, so there is nothing a roster could swap.",
    );
    if !book.special_aliases.is_empty() {
        skip(
            "special-card-variants",
            "Cards of this book's own card categories (Greater Daemons, Archons) have their own limits in the army book.",
            "They are converted as Special cards; the book's own limits are not in the catalogue's data.",
        );
    }
    for r in force_rules
        .iter()
        .filter(|r| !book.extra.is_some_and(|e| e.enforced.contains(&r.as_str())))
    {
        let why = match book_rule(r) {
            Some(BookRule::Declared(why)) => *why,
            Some(BookRule::Partly(_, why)) => *why,
            Some(_) => continue,
            None => {
                "An army-book rule kept in the catalogue as text only; it is not converted into a constraint."
            }
        };
        skip(
            &format!("book-{}", slug(r)),
            &format!("Army-book rule: {r}."),
            why,
        );
    }
    y
}

// ---------------------------------------------------------------------------
// Construction rules beyond the card limits (issue 15): card values, titans,
// off-board barrages, forward observers, tunneler companies, fortifications,
// allies. Kept apart from the card conversion above so that the unit
// profiles can be converted beside it.

/// The BattleScribe rule a unit's Forward Observer ability links to, and the
/// Imperial Guard's observer for off-table barrages only.
const FORWARD_OBSERVER_RULES: &[&str] = &["b99f-ff4d-1584-d7fe", "8518-819c-dec3-96e2"];
/// The Tunneler special ability (game system).
const TUNNELER_RULE: &str = "5102-7431-7e05-cfab";
/// The Imperial Guard's rule on tunneler companies' support cards.
const TUNNELER_COMPANY_RULE: &str = "Tunneler Company Support";
/// The game system's Infantry unit category.
const INFANTRY: &str = "55ef-63f2-5290-498f";

/// What a card's entries say about it, read from the rules and categories
/// its units link to.
#[derive(Debug, Default, Clone, Copy)]
struct Marks {
    /// A unit of the card may call off-board barrages.
    observer: bool,
    /// A unit of the card has the Tunneler ability.
    tunneler: bool,
    /// The card is a company of tunnelers (its support must tunnel too).
    tunneler_company: bool,
    /// A unit of the card is infantry.
    infantry: bool,
    /// An off-board barrage card: the victory points it offers.
    barrage_vp: Option<u32>,
}

fn marks(entry: roxmltree::Node, shared: &Shared) -> Marks {
    let mut m = Marks::default();
    // The barrage's own info links: `VP Cost : 2`.
    for link in children(entry, "infoLinks", "infoLink") {
        let name = link.attribute("name").unwrap_or_default();
        if let Some(n) = name.strip_prefix("VP Cost :") {
            m.barrage_vp = n.trim().parse().ok();
        }
    }
    scan(entry, shared, 0, &mut m);
    m
}

/// Every rule link, category link and entry under `node`, following entry
/// links into shared entries; `depth` guards against links that loop.
fn scan(node: roxmltree::Node, shared: &Shared, depth: u32, m: &mut Marks) {
    if depth > 10 {
        return;
    }
    for child in node.children().filter(|n| n.is_element()) {
        match child.tag_name().name() {
            "infoLink" => {
                let target = child.attribute("targetId").unwrap_or_default();
                let name = child.attribute("name").unwrap_or_default();
                m.observer |= FORWARD_OBSERVER_RULES.contains(&target);
                m.tunneler |= target == TUNNELER_RULE;
                m.tunneler_company |= name == TUNNELER_COMPANY_RULE;
            }
            "categoryLink" => {
                m.infantry |= child.attribute("targetId") == Some(INFANTRY);
            }
            "entryLink" => {
                if let Some(target) = child.attribute("targetId").and_then(|t| shared.get(t)) {
                    scan(*target, shared, depth + 1, m);
                }
            }
            _ => scan(child, shared, depth + 1, m),
        }
    }
}

/// A titan, gargant or praetorian bought with its weapons (core rules 6.1):
/// a card with priced options whose catalogue break point is 0, the
/// catalogue's mark for war machines that are destroyed, not broken.
fn titan(c: &Card) -> bool {
    !c.options.is_empty() && c.bp == Some(0.0)
}

/// A card of several titans (a battle group, squadron, host or big mob),
/// by its name: the catalogue prices its weapons for the card as a whole.
fn titan_group(c: &Card) -> bool {
    let name = c.name.to_lowercase();
    [
        "battlegroup",
        "battle group",
        "squadron",
        "detachment",
        "host",
        "mob",
        "brood",
    ]
    .iter()
    .any(|w| name.contains(w))
}

/// `break_point`, `victory_points` and, for a single titan, `round_up_to`.
fn card_values(w: &mut String, c: &Card) {
    let whole = |v: Option<f64>| match v {
        Some(n) if n.fract() == 0.0 && n >= 0.0 => number(n),
        _ => "missing".to_string(),
    };
    let _ = writeln!(w, "        break_point: {}", whole(c.bp));
    if titan(c) {
        let _ = writeln!(w, "        victory_points: per-100-points");
        if !titan_group(c) {
            let _ = writeln!(w, "        round_up_to: 50");
        }
    } else {
        let _ = writeln!(w, "        victory_points: {}", whole(c.vp));
    }
}

/// Tags the construction rules count.
fn mark_tags(c: &Card, kind: Kind) -> Vec<String> {
    let mut tags = Vec::new();
    if c.marks.observer {
        tags.push("forward-observer".to_string());
    }
    if let Some(vp) = c.marks.barrage_vp {
        tags.push("off-board".to_string());
        if vp > 1 {
            tags.push(format!("off-board-vp-{vp}"));
        }
    }
    if kind == Kind::Company && c.marks.tunneler_company {
        tags.push("tunneler-company".to_string());
    }
    if matches!(kind, Kind::Support | Kind::Special) && (c.marks.tunneler || c.marks.infantry) {
        tags.push("tunneler-support".to_string());
    }
    tags
}

/// The extra Support slots off-board barrages take: a barrage offering N
/// victory points takes N slots, one counted already as a Support card.
fn barrage_slots(cards: &[Card]) -> String {
    let vps: BTreeSet<u32> = cards
        .iter()
        .filter_map(|c| c.marks.barrage_vp)
        .filter(|&v| v > 1)
        .collect();
    vps.iter()
        .map(|&vp| match vp - 1 {
            1 => format!(" + count(tag:off-board-vp-{vp})"),
            n => format!(" + {n} * count(tag:off-board-vp-{vp})"),
        })
        .collect()
}

/// Army-book exceptions to "only Forward Observers call off-board
/// barrages": the book's own rule names who calls them.
const OBSERVER_EXCEPTIONS: &[(&str, &str)] = &[
    (
        "netepic-orks",
        "Ork Warbosses and Warlords call the barrages (Orks army-book rule)",
    ),
    (
        "netepic-tau",
        "Tau barrages are called on Markerlight-marked targets (Tau army-book rule)",
    ),
];

/// Tags given by the start of a card's name: book, prefix, tag.
const NAME_TAGS: &[(&str, &str, &str)] = &[("netepic-tau", "Kroot", "kroot-unit")];

/// Barrage cards whose own rule places them without a Forward Observer.
const OBSERVER_FREE: &[(&str, &str, &str)] = &[(
    "netepic-dark-eldar",
    "Orbital Web Bomb",
    "its own rule lets the player place the web anywhere on the table",
)];

type Rule = (String, &'static str, Option<&'static str>, String, String, String);

/// Constraints for off-board barrages and tunneler companies.
fn construction_rules(book: &Book, cards: &[Card], has_support: bool) -> Vec<Rule> {
    let mut out = Vec::new();
    if cards.iter().any(|c| c.kind == Kind::Company) {
        out.push((
            "company-card".to_string(),
            "army",
            None,
            "count(tag:company) >= 1".to_string(),
            "An army, and each allied force, has at least one Company card.".to_string(),
            format!("{CORE} 1.2.1-1.2.2 (lines 186 and 200)"),
        ));
    }
    let barrages = cards.iter().any(|c| c.marks.barrage_vp.is_some());
    let observers = cards.iter().any(|c| c.marks.observer);
    if has_support && barrages && observers && !OBSERVER_EXCEPTIONS.iter().any(|(id, _)| *id == book.id) {
        out.push((
            "forward-observer".to_string(),
            "army",
            None,
            "count(tag:off-board) == 0 or count(tag:forward-observer) >= 1".to_string(),
            "Off-board barrages are called in by Forward Observers: an army that takes one needs a card with a Forward Observer.".to_string(),
            format!("{CORE} 4.4.8 Off-Board Artillery (lines 790-794)"),
        ));
    }
    if cards
        .iter()
        .any(|c| c.kind == Kind::Company && c.marks.tunneler_company)
    {
        out.push((
            "tunneler-company".to_string(),
            "group",
            Some("tag:tunneler-company"),
            "count(tag:support) + count(tag:special) <= count(tag:tunneler-support)".to_string(),
            "A company of tunnelers takes only tunnelers, or infantry to ride in them, as its Support and Special cards.".to_string(),
            format!("{CORE} 3.4.3 Tunnelers (line 411), and the book's Tunneler Company Support rule"),
        ));
    }
    out
}

/// The fortification purchase table (core rules, lines 677-685), from the
/// hand-written table in `games::netepic`, as a section of every book.
fn render_fortifications(w: &mut String) {
    let _ = writeln!(w, "  - id: fortifications");
    let _ = writeln!(w, "    name: Fortifications");
    let _ = writeln!(w, "    tags: [fortification]");
    let _ = writeln!(w, "    formations:");
    for f in muster::games::netepic::FORTIFICATIONS {
        let _ = writeln!(w, "      - id: {}", f.id);
        let _ = writeln!(w, "        name: {}", quote(f.name));
        let _ = writeln!(
            w,
            "        points: {}",
            f.points.map_or("missing".to_string(), |p| p.to_string())
        );
        let _ = writeln!(w, "        units: []");
        let _ = writeln!(
            w,
            "        break_point: {}",
            f.break_point.map_or("missing".to_string(), |p| p.to_string())
        );
        let _ = writeln!(
            w,
            "        victory_points: {}",
            f.victory_points.map_or("missing".to_string(), |p| p.to_string())
        );
        let mut note = format!("Fortification: {}.", f.contents);
        if let Some(remark) = f.remark {
            let _ = write!(note, " It {remark}.");
        }
        note.push_str(" Takes no card slot.");
        let _ = writeln!(w, "        note: {}", quote(&note));
    }
}

/// Decisions of the construction rules, the same in every book.
fn construction_decisions(book: &Book, has_company: bool) -> Vec<String> {
    let mut d = vec![
        "Titans, gargants and praetorians bought with their weapons (core rules 6.1, lines 915-925) are the cards with priced options whose catalogue break point is 0 (the catalogue's mark for war machines): a single titan's total, hull and weapons, is rounded up to 50 points (`round_up_to: 50`), and every such card is worth one victory point per 100 points of its cost, rounded up (`victory_points: per-100-points`). A card of several titans (a battle group, squadron, host or big mob, by its name) is not rounded as a whole: its victory points are counted on the card's total, unless the roster arms each titan and takes the optional rule of battle groups (see the decision on titans of a battle group).".to_string(),
        "Fortifications (core rules, lines 677-685) are a section of every book, from the purchase table kept by hand in muster's game code (games::netepic::FORTIFICATIONS). They take no Support or Special slot and need no Company card: the table gives them none. The Stronghold costs 100 points plus a weapon the core rules do not price, so its points and victory points are `missing`; roads and barricades break at 50 cm of length, not at a number of models, so their break point is `missing`.".to_string(),
    ];
    if has_company {
        d.push("Off-board barrages (core rules 4.4.8, lines 790-794) are the catalogue's barrage Support cards, which state the victory points they offer (`VP Cost`): each takes one Support slot per victory point (tags `off-board` and `off-board-vp-N`, counted by the five-Support rules), and an army with one needs a card whose units are Forward Observers (tag `forward-observer`, read from the units' Forward Observer rule links).".to_string());
        d.push("Tunnelers (core rules 3.4.3, line 411): a Company card is a company of tunnelers when the catalogue gives it the book's Tunneler Company Support rule; its Support and Special cards must be cards with tunnelers or infantry (tag `tunneler-support`). That the infantry start the game inside the tunnelers is not checked.".to_string());
    }
    if book.id == "netepic-dark-eldar" {
        let free: Vec<String> = OBSERVER_FREE
            .iter()
            .filter(|(id, _, _)| *id == book.id)
            .map(|(_, name, why)| format!("the {name} needs none: {why}"))
            .collect();
        d.push(format!(
            "Forward Observers (core rules 4.4.8): no unit of this book is a Forward Observer, and no rule of the book says who calls its barrages; {}. Its other barrages (tag `needs-observer`) follow the core rule, which names no army: the army needs a card with a Forward Observer in one of its forces, an allied force's included (`forward-observer`, checked over the whole army by muster's game code).",
            free.join("; ")
        ));
    }
    if let Some((_, why)) = OBSERVER_EXCEPTIONS.iter().find(|(id, _)| *id == book.id) {
        d.push(format!(
            "Off-board barrages need no Forward Observer in this book: {why}."
        ));
    }
    d.extend(ally_decisions().into_iter().map(str::to_string));
    d
}

/// The ally tables (core rules 1.2.2-1.2.4, lines 192-231), as muster's
/// game code applies them (games::netepic::ALLIES).
fn ally_decisions() -> Vec<&'static str> {
    vec![
        "Allies: a roster writes its allied force after an `Allies: <list>` line; the cards before it are the core army, named by `Army:`. Each force is resolved and checked against its own list (its own Company cards, five Support and one Special per Company), so no card of one list joins the other; the points limit and Unique cards count the whole army.",
        "Allies: Standard lists are Adeptus Mechanicus (the Imperial Knights row), Adeptus Astartes, Imperial Guard (the Adeptus Militaris row), Chaos, Eldar and Orks (1.2.3); Codex armies, at least 75% in the core army, are Titan Legions, Adepta Sororitas, Dark Eldar, Squats, Slann and Tau (1.2.4); Tyranids take no allies (100%). Only a Standard list is an ally. Forbidden pairs are read from each core army's row only: Space Marines and Eldar take no Chaos, Chaos no Eldar or Space Marines, Dark Eldar no Eldar, Squats no Orks; Sisters of Battle take one of Adeptus Astartes, Adeptus Mechanicus, Imperial Guard or Eldar; Slann any number of Standard lists; Titan Legions count a standard Adeptus Mechanicus force as part of the core army and take one other Standard list.",
        "Allies: rows the text conversion broke. Nurgle, Slaanesh and Tzeentch (lines 221-223) are empty rows that share the Khorne row's cells; Craftworld Eldar and Knights (line 225) lost their allies column, which the Chaos Marines row (line 224) seems to hold. The catalogues merge each codex with its standard list (Chaos with its Powers and Legions, Adeptus Astartes with its Chapters, Eldar with its Craftworlds, Imperial Guard with the PDF): a force is read as its list's Standard row unless it takes a variant's cards, which make it that Codex variant (see the variant decisions). The Kroot Mercenaries row (line 211) is the Tau book's force of Kroot cards alone. The Necrons are in no row: their allies and share are reported as unchecked.",
        "Allies: the core army is the force with the most points (an allied force with more is an error); its share is counted against the army's total points, not the limit.",
    ]
}

/// Construction rules not enforced, with the reason.
fn construction_not_enforced() -> Vec<(&'static str, &'static str, &'static str)> {
    vec![(
        "stronghold-weapon",
        "A Stronghold costs 100 points plus its weapon (fortification table, line 685).",
        "The core rules do not price the weapon; the Stronghold's points are missing and reported as unchecked.",
    )]
}

/// Decisions about the codex variants of a book (game code:
/// `games::netepic::VARIANTS` and `SHARE_CAPS`).
fn variant_decisions(book: &Book) -> Vec<String> {
    use muster::games::netepic::{ArmyKind, variants_of};
    let mut d = Vec::new();
    let named: Vec<String> = variants_of(book.id)
        .filter(|v| !v.tags.is_empty())
        .map(|v| {
            let tags: Vec<String> = v.tags.iter().map(|t| format!("`{t}`")).collect();
            let kind = match v.kind {
                ArmyKind::Codex => format!("Codex, {}%", v.core_percent),
                _ => format!("Standard, {}%", v.core_percent),
            };
            format!("{} ({}; {kind})", v.name, tags.join(", "))
        })
        .collect();
    if !named.is_empty() {
        d.push(format!(
            "Codex variants (core rules 1.2.3-1.2.4): the catalogue merges them with this book's standard list, so a force fields a variant by taking its cards, the cards carrying its tags; no roster line names it. A force with none of them is the standard army of the book. A force with cards of two variants is an error (`one-variant`). The core army's variant sets its share of the army's points and its allies (`codex-share`, the ally rules), and a force of a Codex variant is never another army's ally. The army rules of a variant's force entry carry that variant (`variants`) and are printed on a roster only when a force takes its cards. This book's variants, with the tags of their cards: {}.",
            named.join("; ")
        ));
    }
    let extra: &[&str] = match book.id {
        "netepic-chaos" => &[
            "Chaos variants: the Legions of the four Powers count with their Power (World Eaters with Khorne, Death Guard with Nurgle, Emperor's Children with Slaanesh, Thousand Sons with Tzeentch), as the book's force compositions say. The Chaos Space Marine cards and the other five Legions make the Chaos Space Marines variant: the catalogue's force of that name reads the core rules' Chaos Marines row (line 224, 'the Standard Adeptus Astartes List') as the Chaos Space Marine cards of this book, and its reading is followed. Another Power may join as an allied force of this same book (an `Allies: NetEpic Chaos` line with that Power's cards): any or all of the other Powers for a Power or Chaos Space Marine army, one Power for the standard (Undivided) army, in place of a Standard list.",
        ],
        "netepic-adeptus-astartes" => &[
            "Chapters: some Chapter cards also carry the catalogue's Space Marines category (Blood Angels, Black Templars); the Chapter's own tag decides, so they make the force that Chapter's army. The catalogue has a Raven Guard force but no Raven Guard card, so no force can be read as a Raven Guard army; that force's rules are listed as not enforced.",
            "Iron Hands armies take allies from the Standard Imperial lists only, Adeptus Mechanicus or Imperial Guard (the book's Unwilling Allies; the Chapters it names are Codex armies and never allies anyway).",
        ],
        "netepic-eldar" => &[
            "Eldar variants: the catalogue tags many cards of its standard Eldar force `eldar-knights` or `exodites` as well as `eldar`; only the cards without `eldar` (such as the Knight Warhost or the Exodite hosts) make a force an Eldar Knights or Exodite army. A Craftworld, Exodite or Eldar Knights army may take one other Craftworld, the Exodites, the Eldar Knights or the Harlequins as its allied force from this same book (an `Allies: NetEpic Eldar` line), in place of a Standard list. Eldar Knights joining so may hold up to half the army's points, whatever the core army's codex share. A force of Harlequin Masque cards is only ever an allied force (`never-core`), of an army that may take Eldar allies; its allies and share are those of its core army.",
        ],
        "netepic-tau" => &[
            "Kroot Mercenaries (core rules 1.2.3, line 211; the Tau book): the Kroot units are the cards named Kroot or Krootox (tag `kroot-unit`, read from the names: the catalogue tags the Kroot companies and specials `kroot` but the Kroot support cards `tau`). A force whose cards are all Kroot units is the Kroot Mercenaries Standard army: at least 50% as the core army, and a Standard list any army may take as its ally. A force with other Tau cards is the Tau Codex army (75%), which may take a Kroot Mercenaries force of this same book as its ally; Kroot units inside it may support Tau companies, but all Kroot units of that force together hold at most 25% of the army's points (`kroot-share`).",
        ],
        "netepic-imperial-guard" => &[
            "The Planetary Defence Force is the Imperial Guard book's codex variant. The catalogue tags the cards of its PDF force `planetary-defence-force`; those tagged `imperial-guard` as well are offered in its Imperial Guard force too, so they are standard cards, and only a card of the PDF force alone (tagged `planetary-defence-force` only, such as the Militia Company) makes a force a PDF army, which holds 75% of the army's points.",
        ],
        _ => &[],
    };
    d.extend(extra.iter().map(|s| s.to_string()));
    d
}

/// What muster does with an army-book rule of a catalogue's force entries.
enum BookRule {
    /// Constraints on the roster: id, scope, applies_to, rule, message.
    Rules(
        &'static [(
            &'static str,
            &'static str,
            Option<&'static str>,
            &'static str,
            &'static str,
        )],
    ),
    /// Constraints for part of the rule, and why the rest is not checked.
    Partly(
        &'static [(
            &'static str,
            &'static str,
            Option<&'static str>,
            &'static str,
            &'static str,
        )],
        &'static str,
    ),
    /// Applied by muster's game code (the variants and ally tables).
    Game,
    /// A rule of play, not of building the list: a special rule of the
    /// list, summarised in our words.
    Play(&'static str),
    /// A rule about the list that muster cannot check, and why.
    Declared(&'static str),
}

/// The army books' force-entry rules, by name. A rule the table does not
/// name is listed as not enforced, kept as text.
const BOOK_RULES: &[(&str, BookRule)] = &[
    // Adepta Sororitas
    ("Sisters of Battle Force Composition", BookRule::Game),
    ("Frateris Militia Force Composition", BookRule::Game),
    (
        "Frateris Militia - New List",
        BookRule::Declared(
            "The Frateris Militia cards need the opponent's consent before the game; a roster cannot show an agreement, so muster accepts them.",
        ),
    ),
    // Adeptus Astartes
    ("Standard Space Marines Force Composition", BookRule::Game),
    ("Codex Chapter - Allies", BookRule::Game),
    ("Iron Hands - Unwilling Allies", BookRule::Game),
    (
        "Black Templars - Emperor's Champion",
        BookRule::Rules(&[(
            "book-black-templars-emperor-s-champion",
            "army",
            None,
            "count(tag:black-templars) == 0 or count(black-templars-emperor-s-champion) >= 1",
            "A Black Templars army spends one of its Special cards on the Emperor's Champion.",
        )]),
    ),
    (
        "Black Templars - Prohibited Units",
        BookRule::Rules(&[(
            "book-black-templars-prohibited-units",
            "army",
            None,
            "count(tag:black-templars) == 0 or count(attack-bike-squad, battle-company, land-raider-company, librarian, marine-bike-company, marine-bike-squad, scout-company, scout-detachment, tactical-company, tactical-detachment, veteran-company, veteran-tactical-detachment) == 0",
            "A Black Templars army takes none of these standard cards: Attack Bikes, Battle Company, Land Raider Company, Librarian, Marine Bike Company and Squad, Scout Company and Detachment, Tactical Company and Detachment, Veteran Company and Detachment.",
        )]),
    ),
    (
        "Black Templars - Vow (Optional)",
        BookRule::Play(
            "Optional: after building the army and before terrain is set up, the Black Templars player picks a Vow, which the opponent must accept.",
        ),
    ),
    (
        "Black Templars - Zeal",
        BookRule::Play(
            "A broken Black Templars infantry detachment that fails its morale check takes Charge orders beside its Fall Back orders and must try to assault the nearest enemy it sees.",
        ),
    ),
    (
        "Blood Angels - Death Company",
        BookRule::Partly(
            &[
                (
                    "book-blood-angels-death-company",
                    "army",
                    None,
                    "count(tag:blood-angels) == 0 or count(blood-angels-death-company) >= 1",
                    "A Blood Angels army takes the Death Company card.",
                ),
                (
                    "book-blood-angels-death-company-alone",
                    "group",
                    Some("blood-angels-death-company"),
                    "count(tag:support) + count(tag:special) == 0",
                    "The Death Company stands alone: it takes no Support or Special cards.",
                ),
            ],
            "Which stands the Death Company draws from the other infantry detachments is decided after the army is chosen, on the table.",
        ),
    ),
    (
        "Blood Angels - Black Rage",
        BookRule::Play(
            "Blood Angels infantry gain +1 CAF when they charge into close combat; each turn, after initiative, an infantry detachment rolling a 1 must take Charge orders and go for the nearest enemy it sees.",
        ),
    ),
    (
        "Psychic Power : Quickening",
        BookRule::Play(
            "Blood Angels Librarians use Quickening in place of Mind Blast: one friendly infantry, cavalry or walker model within 25 cm and in sight gains +3 CAF until the End Phase.",
        ),
    ),
    (
        "Blood Angels - Prohibited Units",
        BookRule::Rules(&[(
            "book-blood-angels-prohibited-units",
            "army",
            None,
            "count(tag:blood-angels) == 0 or count(assault-scatolo-squad, veteran-company, veteran-tactical-detachment) == 0",
            "A Blood Angels army takes no Assault Scatolo Squad, Veteran Company or Veteran Detachment.",
        )]),
    ),
    (
        "Crimson Fists - First Company",
        BookRule::Declared(
            "The First Company is the catalogue's only Crimson Fists card, so a force is a Crimson Fists army exactly when it takes it: the requirement holds by itself. That the First Company takes no other infantry Support cards is not checked: the catalogue does not mark which Support cards are infantry.",
        ),
    ),
    (
        "Crimson Fists - Prohibited Units",
        BookRule::Rules(&[(
            "book-crimson-fists-prohibited-units",
            "army",
            None,
            "count(tag:crimson-fists) == 0 or count(terminator-company, veteran-company) == 0",
            "A Crimson Fists army takes no Terminator Company or Veteran Company.",
        )]),
    ),
    (
        "Crimson Suns - Death Before Dishonour",
        BookRule::Play(
            "The Crimson Suns re-roll one morale check a turn; the enemy scores two victory points in every End Phase for each of their units on Fall Back orders.",
        ),
    ),
    (
        "Crimson Suns - Honour Quest",
        BookRule::Play(
            "After set-up the Crimson Suns name one objective outside their half: it is worth double to them, and they lose 5 victory points while the enemy holds or contests it.",
        ),
    ),
    (
        "Crimson Suns - Prohibited Units",
        BookRule::Rules(&[(
            "book-crimson-suns-prohibited-units",
            "army",
            None,
            "count(tag:crimson-suns) == 0 or count(battle-company, devastator-company, devastator-detachment, scout-company, scout-detachment, terminator-company, terminator-detachment, veteran-company, veteran-tactical-detachment) == 0",
            "A Crimson Suns army takes no Battle, Devastator, Scout, Terminator or Veteran Company or Detachment.",
        )]),
    ),
    (
        "Dark Angels - Prohibited Units",
        BookRule::Rules(&[(
            "book-dark-angels-prohibited-units",
            "army",
            None,
            "count(tag:dark-angels) == 0 or count(veteran-company, veteran-tactical-detachment) == 0",
            "A Dark Angels army takes no Veteran Company or Veteran Detachment.",
        )]),
    ),
    (
        "Iron Hands - Well-Rounded",
        BookRule::Rules(&[
            (
                "book-iron-hands-clan-per-siege",
                "army",
                None,
                "count(tag:iron-hands) == 0 or count(iron-hands-siege-company) <= count(iron-hands-clan-company)",
                "An Iron Hands army takes a Clan Company for each Siege Company.",
            ),
            (
                "book-iron-hands-two-support",
                "group",
                Some("tag:company"),
                "army.count(tag:iron-hands) == 0 or count(tag:support) >= 2",
                "In an Iron Hands army every Company card takes at least two Support cards.",
            ),
        ]),
    ),
    (
        "Iron Hands - Pride",
        BookRule::Play(
            "An Iron Hands army fielded with any other force rolls initiative at -1, and Iron Hands gain nothing from the abilities of units outside the Chapter (Apothecaries, Chaplains, Techmarines).",
        ),
    ),
    (
        "Iron Hands - Siege Specialists",
        BookRule::Play("Units fighting Iron Hands in close combat get no CAF bonus from fortifications."),
    ),
    (
        "Iron Hands - Bionics",
        BookRule::Play(
            "Iron Hands elite infantry and characters regenerate on 5+; the better armour of their Veterans and Terminators is already in their statistics.",
        ),
    ),
    (
        "Iron Hands - Victory Point Bonus",
        BookRule::Play(
            "Iron Hands score +1 victory point for every enemy detachment wiped out; some of their own units give the enemy half as many victory points again.",
        ),
    ),
    (
        "Iron Hands - Prohibited Units",
        BookRule::Rules(&[(
            "book-iron-hands-prohibited-units",
            "army",
            None,
            "count(tag:iron-hands) == 0 or count(assault-company, chaplain, devastator-company, tactical-company, terminator-company, terminator-detachment, veteran-company, veteran-tactical-detachment) == 0",
            "An Iron Hands army takes no Assault, Devastator, Tactical or Veteran Company, Terminator Company or Detachment, Veteran Detachment or Chaplain.",
        )]),
    ),
    (
        "Mentor Legion - Mutually Exclusive",
        BookRule::Rules(&[(
            "book-mentor-legion-mutually-exclusive",
            "army",
            None,
            "(count(mentor-legion-tutor-detachment) == 0 or count(mentor-legion-mentor-elite-cadre-detachment) == 0) and count(mentor-legion-tutor-detachment, mentor-legion-mentor-elite-cadre-detachment) <= 3",
            "An army takes Tutor Detachments or Mentor Elite Cadre Detachments, not both, and three of them at most.",
        )]),
    ),
    (
        "Mentor Legion - Prohibited Units",
        BookRule::Rules(&[(
            "book-mentor-legion-prohibited-units",
            "army",
            None,
            "count(tag:mentor-legion) == 0 or count(veteran-company, veteran-tactical-detachment) == 0",
            "A Mentor Legion army takes no Veteran Marines (Veteran Company or Detachment).",
        )]),
    ),
    (
        "Raptor Legion - Hatred",
        BookRule::Play(
            "Raptor Legion Marines must get into close combat with Emperor's Children Marines they can see as soon as they can.",
        ),
    ),
    (
        "Raven Guard - Limited Heavy Support",
        BookRule::Declared(
            "The catalogue has a Raven Guard force but no Raven Guard card, so no roster can be read as a Raven Guard army (and the rule counts detachments inside cards).",
        ),
    ),
    (
        "Raven Guard - Pin-Point Accuracy",
        BookRule::Play(
            "Raven Guard may re-roll the scatter of a Drop Pod assault's first target point; each pod still scatters as usual.",
        ),
    ),
    (
        "Raven Guard - Careful Reconnaissance",
        BookRule::Play(
            "A Raven Guard army with Scout Marines adds +1 to its first initiative roll of the game.",
        ),
    ),
    (
        "Raven Guard - Commander Jump Packs",
        BookRule::Play(
            "A Raven Guard character may swap its Rhino for a jump pack at no cost, moving 15 cm; break and victory points stay as they are.",
        ),
    ),
    (
        "Salamanders - Weapon Preference",
        BookRule::Declared(
            "Devastators of the 9th Company may be Flaming Devastators: a swap inside a card, and cards have no options in this conversion.",
        ),
    ),
    (
        "Salamanders - Optional Weapons",
        BookRule::Declared(
            "A Tactical Detachment of a Tactical or Battle Company may be swapped for a Flamer Detachment: a swap inside a card, and cards have no options in this conversion.",
        ),
    ),
    (
        "Salamanders - Support Card Restriction",
        BookRule::Rules(&[(
            "book-salamanders-support-card-restriction",
            "army",
            None,
            "count(tag:salamanders) == 0 or count(assault-detachment, salamanders-assault-flamer-detachment, marine-bike-squad, attack-bike-squad, land-speeder-squad, land-speeder-tornado-squad, land-speeder-typhoon-squad) <= count(tag:company)",
            "A Salamanders army takes at most one Support card per Company card from Assault Marines, Assault Flamer Marines, Marine Bikes, Attack Bikes and Land Speeders together.",
        )]),
    ),
    (
        "Salamanders - Never Give Up",
        BookRule::Play(
            "Salamanders on Fall Back orders keep their full CAF, though a failed morale test on Fall Back orders still destroys them.",
        ),
    ),
    (
        "Salamanders - Prohibited Units",
        BookRule::Rules(&[(
            "book-salamanders-prohibited-units",
            "army",
            None,
            "count(tag:salamanders) == 0 or count(assault-company, marine-bike-company) == 0",
            "A Salamanders army takes no Assault Company or Bike Company.",
        )]),
    ),
    (
        "Space Wolves - Organization",
        BookRule::Rules(&[(
            "book-space-wolves-organization",
            "army",
            None,
            "count(space-wolves-great-company, space-wolves-great-company-with-terminators) <= 12",
            "A Space Wolves army has at most twelve Great Companies, with or without Terminators.",
        )]),
    ),
    (
        "Space Wolves - Prohibited Units",
        BookRule::Rules(&[(
            "book-space-wolves-prohibited-units",
            "army",
            None,
            "count(tag:space-wolves) == 0 or count(assault-company, assault-detachment, devastator-company, devastator-detachment, flamer-detachment, scout-company, scout-detachment, tactical-company, tactical-detachment, terminator-company, terminator-detachment, terminator-assault-detachment, veteran-company, veteran-tactical-detachment, apothecary, chaplain, librarian, marine-bike-company, marine-bike-squad, attack-bike-squad, land-speeder-squad, land-speeder-tornado-squad, land-speeder-typhoon-squad) == 0",
            "A Space Wolves army takes none of the standard Assault, Devastator, Flamer, Scout, Tactical, Terminator or Veteran Marines, no Apothecary, Chaplain or Librarian, no bikes and no Land Speeders.",
        )]),
    ),
    // Adeptus Mechanicus, Chaos, Dark Eldar, Tau, Titan Legions: force
    // compositions, applied by the ally tables and the variants.
    (
        "Adeptus Mechanicus / Knight Households Force Composition",
        BookRule::Game,
    ),
    ("Chaos Undivided Force Composition", BookRule::Game),
    ("Khorne Force Composition", BookRule::Game),
    ("Nurgle Force Composition", BookRule::Game),
    ("Slaanesh Force Composition", BookRule::Game),
    ("Tzeentch Force Composition", BookRule::Game),
    ("Chaos Space Marines Force Composition", BookRule::Game),
    ("Dark Eldar Force Composition", BookRule::Game),
    ("Tau Army Composition", BookRule::Game),
    ("Kroot Mercenaries Army Composition", BookRule::Game),
    ("Titan Legions Force Composition", BookRule::Game),
    // Eldar
    ("Eldar Craftworld Force Composition (Standard)", BookRule::Game),
    ("Alaitoc Craftworld Force Composition", BookRule::Game),
    ("Biel-Tan Craftworld Force Composition", BookRule::Game),
    ("Iyanden Craftworld Force Composition", BookRule::Game),
    ("Saim-Hann Craftworld Force Composition", BookRule::Game),
    ("Ulthwe Craftworld Force Composition", BookRule::Game),
    ("Exodites Force Composition", BookRule::Game),
    ("Eldar Knights - Ally only - Force Composition", BookRule::Game),
    (
        "Harlequin Masque Force Composition",
        BookRule::Rules(&[(
            "book-harlequin-one-masque",
            "army",
            None,
            "count(harlequins-harlequin-masque) <= 1",
            "Only one Harlequin Masque card, whatever the army's size (its Support and Special cards as for any Company card).",
        )]),
    ),
    (
        "Eldar Knights Force Composition",
        BookRule::Declared(
            "An Eldar Knights core army must take the Knight Warhost, the Defender Warhost and the Jetbike Host; a list constraint applies to every force of the list, and an Eldar Knights force that is another army's ally need not take them, so the three cards are not required. Its share and allies are game code.",
        ),
    ),
    (
        "Exodite Scouts",
        BookRule::Play(
            "Before the game an Exodite core army rolls a D6 for each detachment of Exodite scouts (Lethosaur and Raptor Knights) and picks one result of the book's table: extra woods, rearranged terrain and the like.",
        ),
    ),
    (
        "Iyanden Craftworld - No Guardian Hosts",
        BookRule::Rules(&[(
            "book-iyanden-no-guardian-hosts",
            "army",
            None,
            "count(tag:iyanden) == 0 or count(guardian-host) == 0",
            "An Iyanden army takes no Guardian Host.",
        )]),
    ),
    (
        "Saim-Hann Craftworld - No Tempest Hosts",
        BookRule::Rules(&[(
            "book-saim-hann-no-tempest-hosts",
            "army",
            None,
            "count(tag:saim-hann) == 0 or count(tempest-host) == 0",
            "A Saim-Hann army takes no Tempest Host.",
        )]),
    ),
    (
        "Saim-Hann Craftworld - No Phantom Titan Hosts",
        BookRule::Rules(&[(
            "book-saim-hann-no-phantom-titan-hosts",
            "army",
            None,
            "count(tag:saim-hann) == 0 or count(phantom-titan-host) == 0",
            "A Saim-Hann army takes no Phantom Titan Host.",
        )]),
    ),
    // Imperial Guard
    ("Imperial Guard Force Composition", BookRule::Game),
    ("PDF Force Composition", BookRule::Game),
    (
        "The Chain Of Command",
        BookRule::Play(
            "Imperial Guard and PDF troops, titans and praetorians apart, take orders down a chain of command from their headquarters; a detachment out of the chain's reach is slowed while it waits for orders.",
        ),
    ),
    (
        "Planetary Defence Force - Free Fortifications",
        BookRule::Declared(
            "A PDF army gets one Barricades or Trenches card free per Company card; muster prices every fortification card at the table's cost and does not know which are the free ones, so a roster should leave the free ones out.",
        ),
    ),
    (
        "Planetary Defence Force - Terrain Setup",
        BookRule::Play(
            "The PDF player may rearrange the terrain a little to favour the defence, and then sets up all his units (infiltrators apart) first.",
        ),
    ),
    (
        "Planetary Defence Force - Initial Setup",
        BookRule::Play(
            "Before other units are placed, the PDF player may put one PDF detachment in each of his fortifications, even outside his deployment zone.",
        ),
    ),
    // Necrons
    (
        "Necrons - Allies",
        BookRule::Declared(
            "The book names the Necrons' allies as peoples (humans, Eldar, Ork leaders; never Tyranids), not as lists, and the core rules' ally tables do not name the Necrons: their allies are reported as unchecked.",
        ),
    ),
    (
        "Necrons - Phase Out",
        BookRule::Play(
            "Most Necron Support cards add their break points and victory points to the Company they join, worked out before the game; a Company that breaks phases out.",
        ),
    ),
    (
        "Necrons - Scoring Points",
        BookRule::Play(
            "Necrons score nothing for objectives; they score a unit's victory points when it breaks and again when it is wiped out or leaves the table, double for units without a break point.",
        ),
    ),
    (
        "Necrons - Reserves",
        BookRule::Play(
            "Necron units other than flyers may start in reserve and reach the table through Portals or abilities such as Deep Strike or Teleport.",
        ),
    ),
    (
        "Necrons - Portals",
        BookRule::Play(
            "Crossing a Portal moves a unit into or out of reserve for 5 cm of its move; any number of units may cross one Portal each turn.",
        ),
    ),
    (
        "Necrons - Vs Tyranids",
        BookRule::Play(
            "Against Tyranids, a Necron Company that phases out gives the Tyranid player its cost and its Support cards' cost divided by 50 in victory points, in place of the cards' own values.",
        ),
    ),
    // Orks
    (
        "Orks - Leadership",
        BookRule::Declared(
            "An Ork army of three or more clans needs a Warboss, Warlord or Gargant that takes no Special slot; a roster does not say which leader card is the free one, so the five-Support and one-Special counts cannot tell a required leader from a Special card.",
        ),
    ),
    (
        "Orks - Gargants",
        BookRule::Declared(
            "Gargant Big Mobs, Mega-Gargants and Mekboy Gargants need at least half the army to be Orks: an Ork core army always holds half by its Standard row; an Ork allied force with one of them (which would need exactly half) is not checked.",
        ),
    ),
    (
        "Orks - No Duplicate Clans",
        BookRule::Rules(&[(
            "book-orks-no-duplicate-clans",
            "army",
            None,
            "count(deathskull-clan) <= min(count(blood-axe-clan), min(count(bad-moon-clan), min(count(evil-sunz-clan), min(count(goff-clan), min(count(snakebite-clan), count(kult-of-speed)))))) + 1 and count(blood-axe-clan) <= min(count(deathskull-clan), min(count(bad-moon-clan), min(count(evil-sunz-clan), min(count(goff-clan), min(count(snakebite-clan), count(kult-of-speed)))))) + 1 and count(bad-moon-clan) <= min(count(deathskull-clan), min(count(blood-axe-clan), min(count(evil-sunz-clan), min(count(goff-clan), min(count(snakebite-clan), count(kult-of-speed)))))) + 1 and count(evil-sunz-clan) <= min(count(deathskull-clan), min(count(blood-axe-clan), min(count(bad-moon-clan), min(count(goff-clan), min(count(snakebite-clan), count(kult-of-speed)))))) + 1 and count(goff-clan) <= min(count(deathskull-clan), min(count(blood-axe-clan), min(count(bad-moon-clan), min(count(evil-sunz-clan), min(count(snakebite-clan), count(kult-of-speed)))))) + 1 and count(snakebite-clan) <= min(count(deathskull-clan), min(count(blood-axe-clan), min(count(bad-moon-clan), min(count(evil-sunz-clan), min(count(goff-clan), count(kult-of-speed)))))) + 1 and count(kult-of-speed) <= min(count(deathskull-clan), min(count(blood-axe-clan), min(count(bad-moon-clan), min(count(evil-sunz-clan), min(count(goff-clan), count(snakebite-clan)))))) + 1",
            "An Ork army takes a second card of a clan only once it has one of every other clan (Wildboyz Hordes and Mega Gargants are not clans).",
        )]),
    ),
    (
        "Orks - Mekboy Support Cards",
        BookRule::Rules(&[(
            "book-orks-mekboy-support-cards",
            "group",
            Some("tag:company"),
            "count(mekboy-lifta-droppa-speedsta, mekboy-kustom-kannon-speedsta, mekboy-destruktor-rokkits-speedsta, mekboy-dragsta, mekboy-bubble-chukka-speedsta) <= min(5, 1 + count(blood-axe-clan, evil-sunz-clan) + 4 * count(kult-of-speed, renegade-mekboyz))",
            "A clan takes one Mekboy Support card; Blood Axes and Evil Sunz two; the Kult of Speed, or a clan with the Renegade Mekboyz, five.",
        )]),
    ),
    (
        "Orks - Mob Rule",
        BookRule::Play(
            "Ork Support cards join the mobs of the same troops in their clan, changing the mobs' break points and victory points, worked out before the game.",
        ),
    ),
    (
        "Orks - Clan Break Points",
        BookRule::Play(
            "A clan breaks only at its own break point plus those of its Support cards, and gives its victory points only then; each mob then tests morale on its own.",
        ),
    ),
    ("Orks Force Composition", BookRule::Game),
    (
        "Orks - Hordes (Optional Rule)",
        BookRule::Declared(
            "Optional rule: a clan may take five more Support cards, all Extra Boyz; muster applies the core limit of five, since a roster does not say the players agreed to the option.",
        ),
    ),
    // Slann
    (
        "True Slann Army Composition",
        BookRule::Declared(
            "The book makes the True Slann a Standard army (50%) and the Dracon and Exodus Slann Codex armies with allies of their own; muster follows the core rules' one Slann row (line 229: Codex, 75%, any Standard lists) for the whole book, and does not tell the three apart.",
        ),
    ),
    (
        "Dracon Army Composition",
        BookRule::Declared(
            "The book makes the Dracon a Codex army whose allies are the other Slann, Eldar or Orks; muster follows the core rules' one Slann row (line 229) for the whole book.",
        ),
    ),
    (
        "Exodus Slann Army Composition",
        BookRule::Declared(
            "The book makes the Exodus Slann a Codex army whose allies are the other Slann, Eldar or Orks, with Dracon cards outside the allies' share; muster follows the core rules' one Slann row (line 229) for the whole book.",
        ),
    ),
    // Squats
    ("Squat Brotherhood Force Composition", BookRule::Game),
    (
        "Squats - Eldar Antipathy (Optional Rule)",
        BookRule::Play(
            "Optional, suggestions to pick from: a Squat-Eldar army rolls initiative at -1, or may only face Chaos or Tyranids, or Squats near Eldar test morale at -1.",
        ),
    ),
    (
        "Squats On The Defensive (Optional Rule)",
        BookRule::Play(
            "Optional, scenario or campaign only: Squat infantry defending their home world re-roll close combat dice as they do against Orks.",
        ),
    ),
    (
        "Squats - Defensive Aerial Fire (Optional Rule)",
        BookRule::Play(
            "Squat flyers on Advance orders may snap fire at incoming enemy flyers, and on First Fire orders snap fire without the -1.",
        ),
    ),
    ("Makurtu Gabe Force Composition", BookRule::Declared(BROTHERHOOD)),
    (
        "Makurtu Gabe : Enhanced CC Mastery",
        BookRule::Declared(BROTHERHOOD),
    ),
    (
        "Makurtu Gabe : Accurate Tunnelling",
        BookRule::Declared(BROTHERHOOD),
    ),
    (
        "Makurtu Gabe : Targeting Priorities",
        BookRule::Declared(BROTHERHOOD),
    ),
    ("Makurtu Gabe : Restrictions", BookRule::Declared(BROTHERHOOD)),
    ("Makurtu Gabe : Prohibited Units", BookRule::Declared(BROTHERHOOD)),
    ("Zutik Force Composition", BookRule::Declared(BROTHERHOOD)),
    ("Zutik : Fast Cavalry", BookRule::Declared(BROTHERHOOD)),
    ("Zutik : Untouchable Cavalry", BookRule::Declared(BROTHERHOOD)),
    ("Zutik : Mechanized", BookRule::Declared(BROTHERHOOD)),
    ("Zutik : Prohibited Units", BookRule::Declared(BROTHERHOOD)),
    ("Zutik : Restrictions", BookRule::Declared(BROTHERHOOD)),
    (
        "Zutik : Extra Superheavy & Praetorian VP",
        BookRule::Declared(BROTHERHOOD),
    ),
    ("Zutik : Poor Endurance", BookRule::Declared(BROTHERHOOD)),
    (
        "Commercial World Clan Force Composition",
        BookRule::Declared(BROTHERHOOD),
    ),
    (
        "Commercial World Clan : You Owe Us!",
        BookRule::Declared(BROTHERHOOD),
    ),
    (
        "Commercial World Clan : Prohibited Units",
        BookRule::Declared(BROTHERHOOD),
    ),
    (
        "Commercial World Clan : Restrictions",
        BookRule::Declared(BROTHERHOOD),
    ),
    (
        "Commercial World Clan : Allied Imperial Guard Command",
        BookRule::Declared(BROTHERHOOD),
    ),
    (
        "Commercial World Clan : Decreased CC Mastery",
        BookRule::Declared(BROTHERHOOD),
    ),
    // Tyranids
    (
        "Genestealer Cults",
        BookRule::Declared(
            "Optional rule, with the opponent's agreement: a Tyranid army may put up to a quarter of its points into the PDF list; muster keeps the Tyranids without allies, as the core rules' Tyranid row says.",
        ),
    ),
    ("No Allies", BookRule::Game),
    (
        "Multi-wound creatures, Regeneration & Superheavies",
        BookRule::Play(
            "A wound a Tyranid creature fails to regenerate in the End Phase is lost for the rest of the game; only the wounds still standing may be regenerated later.",
        ),
    ),
    (
        "Tyranid Morale",
        BookRule::Play(
            "Tyranids take no morale checks and never fall back; a broken brood takes a Hive Mind test, and an Instinctive brood that fails it reverts to its instinctive orders.",
        ),
    ),
    (
        "Victory Points",
        BookRule::Play(
            "Tyranids score nothing for objectives but may deny them; they score a unit's victory points when it breaks and again when it is wiped out.",
        ),
    ),
    (
        "Hive Mind Cards",
        BookRule::Play(
            "Before the game and in each End Phase the Tyranid player draws one Hive Mind card per full 5 Hive Mind points of his unbroken Synapse broods.",
        ),
    ),
    (
        "Tyranid Movement",
        BookRule::Play(
            "Tyranid knights, walkers and cavalry cross terrain as infantry do, though they still cannot enter buildings.",
        ),
    ),
    (
        "Instinctive Behaviour",
        BookRule::Play(
            "Instinctive broods within Hive Mind range of an unbroken Synapse brood take orders as usual; outside it, or failing a Hive Mind test when broken, they follow their instinctive orders.",
        ),
    ),
];

/// Why a Squat brotherhood's rules are not checked.
const BROTHERHOOD: &str = "The catalogue offers the Squat brotherhoods (Makurtu Gabe, Zutik, Commercial World Clan) as forces of their own, but their cards are the standard Squat cards, so no roster can be read as one brotherhood's army; its limits, allies and special rules are not applied.";

/// What muster does with the army-book rule called `name`.
fn book_rule(name: &str) -> Option<&'static BookRule> {
    BOOK_RULES.iter().find(|(n, _)| *n == name).map(|(_, r)| r)
}

// ---------------------------------------------------------------------------
// Titan weapon mounts (issue 15): which weapon goes on which mount, how
// many each mount holds, and which mounts must be armed. A roster names a
// titan's weapons, not their mounts, so the rules ask whether the weapons
// can be mounted: Hall's condition for each set of mounts that weapons tie
// together (no more weapons that only these mounts take than they hold),
// and for each set of mounts that must be armed, enough weapons that fit
// them.

/// For each titan card, its mounts, and for each weapon it may take, the
/// mounts (bits) that take it and the most of it each mount holds.
struct MountPlan<'c> {
    card: &'c Card,
    times: u32,
    mounts: &'c [sheets::Mount],
    /// Weapon entry name, mount bits.
    weapons: Vec<(String, u32)>,
}

fn mount_plans(cards: &[Card]) -> Vec<MountPlan<'_>> {
    let mut out = Vec::new();
    for c in cards.iter().filter(|c| titan(c)) {
        let Some(m) = &c.mounts else { continue };
        let mut weapons: Vec<(String, u32)> = Vec::new();
        for (i, mount) in m.mounts.iter().enumerate() {
            for (name, _) in &mount.weapons {
                match weapons.iter_mut().find(|(n, _)| n == name) {
                    Some((_, bits)) => *bits |= 1 << i,
                    None => weapons.push((name.clone(), 1 << i)),
                }
            }
        }
        out.push(MountPlan {
            card: c,
            times: m.times,
            mounts: &m.mounts,
            weapons,
        });
    }
    out
}

/// The tag of the weapons that exactly the mounts `bits` of a card take.
fn mount_tag(card: &Card, mounts: &[sheets::Mount], bits: u32) -> String {
    let names: Vec<&str> = mounts
        .iter()
        .enumerate()
        .filter(|(i, _)| bits & (1 << i) != 0)
        .map(|(_, m)| m.name.as_str())
        .collect();
    format!("mount-{}-{}", card.id, names.join("-"))
}

/// Tags each upgrade with the mounts that take it, per titan card.
fn mount_tags(cards: &[Card], upgrades: &mut [Upgrade]) {
    for plan in mount_plans(cards) {
        for (name, bits) in &plan.weapons {
            if let Some(u) = upgrades.iter_mut().find(|u| u.name == *name) {
                let tag = mount_tag(plan.card, plan.mounts, *bits);
                if !u.tags.contains(&tag) {
                    u.tags.push(tag);
                }
            }
        }
    }
}

/// Whether the mounts `set` are tied together by the weapon classes
/// `edges` (each a set of mounts), so that none of its parts stands alone.
fn tied(set: u32, edges: &[u32]) -> bool {
    let mut reached = set & set.wrapping_neg();
    loop {
        let before = reached;
        for e in edges.iter().map(|e| e & set) {
            if e & reached != 0 {
                reached |= e;
            }
        }
        if reached == before {
            return reached == set;
        }
    }
}

type MountRule = (String, &'static str, Option<String>, String, String, String);

/// `titan-weapon-mounts` and `titan-required-weapons`, one rule each over
/// every titan card of the book.
fn mount_rules(cards: &[Card], upgrades: &[Upgrade]) -> Vec<MountRule> {
    let plans = mount_plans(cards);
    let mut upper: Vec<(String, String)> = Vec::new();
    let mut lower: Vec<(String, String)> = Vec::new();
    for plan in &plans {
        let k = plan.mounts.len().min(16) as u32;
        let classes: BTreeSet<u32> = plan.weapons.iter().map(|(_, b)| *b).collect();
        let classes: Vec<u32> = classes.into_iter().collect();
        let tags = |of: &dyn Fn(u32) -> bool| -> String {
            classes
                .iter()
                .filter(|c| of(**c))
                .map(|c| format!("tag:{}", mount_tag(plan.card, plan.mounts, *c)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let held = |set: u32, f: fn(&sheets::Mount) -> u32| -> u32 {
            plan.mounts
                .iter()
                .enumerate()
                .filter(|(i, _)| set & (1 << i) != 0)
                .map(|(_, m)| f(m))
                .sum::<u32>()
                * plan.times
        };
        let mut ups = Vec::new();
        let mut lows = Vec::new();
        for set in 1..(1u32 << k) {
            let inside: Vec<u32> = classes.iter().copied().filter(|c| c & !set == 0).collect();
            if !inside.is_empty() && tied(set, &inside) && inside.iter().fold(0, |a, c| a | c) == set {
                ups.push(format!(
                    "count({}) <= {}",
                    tags(&|c| c & !set == 0),
                    held(set, |m| m.max)
                ));
            }
            let musts = plan
                .mounts
                .iter()
                .enumerate()
                .all(|(i, m)| set & (1 << i) == 0 || m.min > 0);
            let touching: Vec<u32> = classes.iter().copied().filter(|c| c & set != 0).collect();
            if musts && tied(set, &touching) {
                lows.push(format!(
                    "count({}) >= {}",
                    tags(&|c| c & set != 0),
                    held(set, |m| m.min)
                ));
            }
        }
        // A weapon the catalogue allows fewer of than its mounts hold.
        for (name, bits) in &plan.weapons {
            let mut most = 0u32;
            let mut room = 0u32;
            for (i, m) in plan.mounts.iter().enumerate() {
                if bits & (1 << i) != 0 {
                    let each = m.weapons.iter().find(|(n, _)| n == name).map_or(0, |(_, n)| *n);
                    most = most.saturating_add(each.min(m.max));
                    room += m.max;
                }
            }
            if most < room
                && let Some(u) = upgrades.iter().find(|u| u.name == *name)
            {
                ups.push(format!("count({}) <= {}", u.id, most * plan.times));
            }
        }
        if !ups.is_empty() {
            upper.push((plan.card.id.clone(), ups.join(" and ")));
        }
        if !lows.is_empty() {
            lower.push((plan.card.id.clone(), lows.join(" and ")));
        }
    }
    let provenance = format!(
        "{CORE} 6.1 Titans (lines 915-925): titans are bought with their weapons; the mounts, how many weapons each holds and which weapons fit it are the catalogue's weapon groups of each titan"
    );
    let mut out = Vec::new();
    for (id, parts, message) in [
        (
            "titan-weapon-mounts",
            &upper,
            "A titan carries only weapons its mounts take, and no more than its mounts hold; the card's note lists its mounts.",
        ),
        (
            "titan-required-weapons",
            &lower,
            "A titan is bought with its weapons: every mount that must be armed has its weapon; the card's note lists its mounts.",
        ),
    ] {
        if parts.is_empty() {
            continue;
        }
        let rule = parts
            .iter()
            .map(|(card, r)| format!("(count({card}) == 0 or ({r}))"))
            .collect::<Vec<_>>()
            .join(" and ");
        out.push((
            id.to_string(),
            "formation",
            Some(
                parts
                    .iter()
                    .map(|(c, _)| c.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            rule,
            message.to_string(),
            provenance.clone(),
        ));
    }
    out
}

/// The mounts of a titan card, for its note: `Mounts: 2 carapace, 2 arm
/// (must be armed), 1 head.`
fn mount_summary(c: &Card) -> Option<String> {
    let m = c.mounts.as_ref().filter(|_| titan(c))?;
    let each: Vec<String> = m
        .mounts
        .iter()
        .map(|m| match (m.min, m.max) {
            (0, max) => format!("{max} {}", m.name),
            (min, max) if min == max => format!("{max} {} (must be armed)", m.name),
            (min, max) => format!("{max} {} (at least {min} armed)", m.name),
        })
        .collect();
    Some(match m.times {
        1 => format!("Mounts: {}.", each.join(", ")),
        n => format!("Mounts of each of its {n} titans: {}.", each.join(", ")),
    })
}

/// What the mount rules leave unchecked, with the reason.
fn mount_not_enforced(cards: &[Card]) -> Vec<(&'static str, String, String)> {
    let mut out = Vec::new();
    let titans: Vec<&Card> = cards.iter().filter(|c| titan(c)).collect();
    let groups: Vec<&str> = titans
        .iter()
        .filter(|c| c.mounts.as_ref().is_some_and(|m| m.times > 1) && titan_each(c, cards).is_none())
        .map(|c| c.name.as_str())
        .collect();
    if !groups.is_empty() {
        out.push((
            "titan-weapon-mounts-per-titan",
            format!(
                "Each titan of a card of several titans ({}) has its own mounts (core rules 6.1).",
                groups.join(", ")
            ),
            "These cards' titans are not the book's single titan cards (another unit, other mounts or another price), so a roster names the weapons on the card, as the catalogue prices them: the mounts are counted for the card's titans together (three titans hold six arm weapons), so one titan with three arm weapons beside one with one is not found.".to_string(),
        ));
    }
    let unread: Vec<&str> = titans
        .iter()
        .filter(|c| c.mounts.is_none() && c.titan_weapons)
        .map(|c| c.name.as_str())
        .collect();
    if !unread.is_empty() {
        out.push((
            "titan-weapon-mounts-unread",
            format!(
                "Which weapon fits which mount, and how many weapons each titan carries, for {} (core rules 6.1).",
                unread.join(", ")
            ),
            "The catalogue gives these cards no weapon groups with a number of mounts (or a choice between titans of different kinds), so their weapons are upgrades at their prices and nothing else.".to_string(),
        ));
    }
    out
}

const MOUNT_DECISION: &str = "Titan weapon mounts: the catalogue's weapon groups of a titan are its mounts (arm, carapace, head, ...), with the most weapons each holds and the least it must hold; a group without a most is the weapons the titan always carries. A roster names a titan's weapons, not their mounts, so `titan-weapon-mounts` asks whether they can be mounted (for every set of mounts that weapons tie together, no more weapons that only these mounts take than the mounts hold; a weapon the catalogue allows fewer of than its mounts hold, no more than that) and `titan-required-weapons` whether every mount that must be armed can be (enough weapons that fit each set of such mounts). Weapons carry the tags `mount-<card>-<mounts>` naming the mounts of that card that take them. A mount's options that cost nothing (a Command Head) are upgrades at 0 points. A card of several titans counts the mounts of all its titans together; a card offering a choice of titans of different kinds is not checked.";

// Titans of a battle group (issue 15): a card of several titans whose
// titans are each the book's single-titan card of that kind (the same
// unit, mounts and weapons, hulls at the card's price) carries
// `titans: { count, each }`. A roster then arms each titan on a line of
// its own under the card, each titan is held to the single card's mount
// rules, and the optional battle group rule rounds each titan's cost.

/// The single-titan card each titan of `c` is, and how many titans `c`
/// holds; `None` for a single titan or where no card matches.
fn titan_each<'c>(c: &Card, cards: &'c [Card]) -> Option<(u32, &'c Card)> {
    let m = c.mounts.as_ref().filter(|m| titan(c) && m.times > 1)?;
    let [(unit, count)] = c.units.as_slice() else {
        return None;
    };
    if *count != m.times {
        return None;
    }
    let same_mounts = |a: &[sheets::Mount], b: &[sheets::Mount]| {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(x, y)| x.name == y.name && x.min == y.min && x.max == y.max && x.weapons == y.weapons)
    };
    cards
        .iter()
        .find(|o| {
            titan(o)
                && !titan_group(o)
                && o.units.as_slice() == [(unit.clone(), 1)]
                && o.mounts
                    .as_ref()
                    .is_some_and(|om| om.times == 1 && same_mounts(&om.mounts, &m.mounts))
                && c.upgrades.iter().all(|u| o.upgrades.contains(u))
                && o.points.checked_mul(i64::from(m.times)) == Some(c.points)
        })
        .map(|o| (m.times, o))
}

/// The optional rule of battle groups, where a card of several titans
/// cannot be split into its titans.
fn battle_group_not_enforced(cards: &[Card]) -> Vec<(&'static str, String, &'static str)> {
    let whole: Vec<&str> = cards
        .iter()
        .filter(|c| titan(c) && titan_group(c) && titan_each(c, cards).is_none())
        .map(|c| c.name.as_str())
        .collect();
    if whole.is_empty() {
        return Vec::new();
    }
    vec![(
        "titan-battle-group-rounding",
        format!(
            "With the optional rule of titan battle groups, each titan's cost is rounded up to 50 points before they are added ({}; core rules 6.1).",
            whole.join(", ")
        ),
        "The catalogue does not say which titan of these cards takes which weapon, or their titans are not the book's single titan cards, so a roster cannot arm each titan: the card's cost is its hulls and weapons, not rounded, and its victory points one per 100 points of that total.",
    )]
}

/// The decision about titan battle groups, for a book that has any.
fn battle_group_decision(cards: &[Card]) -> Option<String> {
    let split: Vec<String> = cards
        .iter()
        .filter_map(|c| titan_each(c, cards).map(|(n, o)| format!("{} ({n} of {})", c.name, o.name)))
        .collect();
    if split.is_empty() {
        return None;
    }
    Some(format!(
        "Titans of a battle group: a card of several titans whose titans are the book's single titan cards ({}) carries `titans: {{ count, each }}`. A roster may arm each titan on a line of its own under the card (`Titan: Volcano Cannon, Chain Fist`, with a count for titans armed alike); each titan is then held to the mount rules of its single card, at its line. Weapons written on the card's own line are counted for its titans together, as before, and the check notes that each titan's mounts are then not checked. The optional rule of battle groups (core rules 6.1: each titan's hull and weapons rounded up to 50 points, then added) applies when the roster says `Optional rules: titan battle groups`; each titan is then worth one victory point per 100 points of its rounded cost.",
        split.join(", ")
    ))
}

// Titans as bought (issue 15): a titan's datasheet lists every weapon it
// may carry, each with the mounts that take it (`Volcano Cannon (carapace
// or arm)`); each weapon upgrade chooses its row on the datasheet of every
// titan whose mounts take it (`fielded: choose`), so a roster's crib sheet
// prints the weapons bought and no other.

/// The datasheet rows each weapon upgrade chooses: for each titan card
/// whose mounts take it, the row of that weapon on the card's titan's
/// datasheet (named after the weapon and the mounts that take it).
fn titan_fielded(cards: &[Card], units: &BTreeMap<String, sheets::Unit>, upgrades: &mut [Upgrade]) {
    for plan in mount_plans(cards) {
        let [(unit_id, _)] = plan.card.units.as_slice() else {
            continue;
        };
        let Some(unit) = units.values().find(|x| x.id == *unit_id) else {
            continue;
        };
        for (weapon, _) in &plan.weapons {
            let Some(u) = upgrades.iter_mut().find(|u| u.name == *weapon) else {
                continue;
            };
            // The rows as `sheets::datasheets` names them: one per profile
            // (a weapon of several modes has several, named with the mode).
            let Some((_, mounts, value)) = unit.titan_weapons.iter().find(|(n, _, _)| n == weapon) else {
                continue;
            };
            let named: Vec<&str> = mounts
                .iter()
                .map(String::as_str)
                .filter(|m| *m != "weapon")
                .collect();
            for line in value.lines() {
                let line_name = match line.split_once(": ") {
                    Some((n, _)) if n.starts_with(weapon.as_str()) => n,
                    _ => weapon.as_str(),
                };
                let row = if named.is_empty() {
                    line_name.to_string()
                } else {
                    format!("{line_name} ({})", named.join(" or "))
                };
                match u.fielded.iter_mut().find(|(r, _)| *r == row) {
                    Some((_, ids)) => {
                        if !ids.contains(unit_id) {
                            ids.push(unit_id.clone());
                        }
                    }
                    None => u.fielded.push((row, vec![unit_id.clone()])),
                }
            }
        }
    }
}

/// `fielded:` of a weapon upgrade: the rows it chooses.
fn titan_weapon_fielded(w: &mut String, u: &Upgrade) {
    if u.fielded.is_empty() {
        return;
    }
    let _ = writeln!(w, "    fielded:");
    for (row, units) in &u.fielded {
        let _ = writeln!(
            w,
            "      - {{ units: [{}], choose: [{}] }}",
            units.join(", "),
            quote(row)
        );
    }
}
