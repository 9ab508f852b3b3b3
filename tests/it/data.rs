//! Consistency of the built-in data beyond what loading checks.

use std::collections::BTreeMap;
use std::path::Path;

/// A datasheet id defined in two built-in files would silently take the
/// later one (overriding is for `--lists` files): every id is defined once
/// per game.
#[test]
fn no_datasheet_id_is_defined_twice_in_the_built_in_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("lists");
    let mut seen: BTreeMap<(String, String), String> = BTreeMap::new();
    let mut twice = Vec::new();
    for game in std::fs::read_dir(&root).unwrap().flatten() {
        let dir = game.path().join("datasheets");
        let Ok(files) = std::fs::read_dir(&dir) else {
            continue;
        };
        for file in files.flatten() {
            let text = std::fs::read_to_string(file.path()).unwrap();
            let value: serde_json::Value = serde_yaml::from_str(&text).unwrap();
            for key in ["units", "ships", "sf_ships", "heresy_units", "ne_units"] {
                for unit in value.get(key).and_then(|u| u.as_array()).into_iter().flatten() {
                    let id = unit["id"].as_str().unwrap_or_default().to_string();
                    let here = file.path().display().to_string();
                    let key = (game.file_name().to_string_lossy().to_string(), id);
                    if let Some(before) = seen.insert(key.clone(), here.clone()) {
                        twice.push(format!("{}/{}: {before} and {here}", key.0, key.1));
                    }
                }
            }
        }
    }
    assert!(
        twice.is_empty(),
        "datasheet ids defined twice:\n{}",
        twice.join("\n")
    );
}

/// A roster names its list by id, name or alias; two lists answering to
/// the same name (in any game) would make that roster ambiguous.
#[test]
fn no_two_lists_answer_to_the_same_name() {
    let report = crate::common::embedded();
    let lists = &report.catalogue.lists;
    let mut clashes = Vec::new();
    for (i, a) in lists.iter().enumerate() {
        for b in &lists[i + 1..] {
            for name in a.all_names() {
                if b.all_names()
                    .any(|n| muster::catalogue::ListName::new(name).matches(n))
                {
                    clashes.push(format!("`{name}`: {} and {}", a.id, b.id));
                }
            }
        }
    }
    assert!(
        clashes.is_empty(),
        "names shared by two lists:\n{}",
        clashes.join("\n")
    );
}

/// An alias that is part of another list's name in the same game
/// (`Eldar`: Biel-Tan, Alaitoc, Iyanden, ...) would silently pick one of
/// them: such a name is asked about instead (`Catalogue::lists_with_words`),
/// so no list may claim it as its own. An alias holding every word of its
/// list's name (`Crusade Fleet List`, `NetEpic Gold Eldar`) is as plain as
/// the name.
#[test]
fn no_alias_is_a_name_several_lists_of_its_game_fit() {
    let catalogue = super::common::catalogue();
    let words = |name: &str| -> Vec<String> {
        name.to_lowercase()
            .replace('\'', "")
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(|w| {
                w.strip_suffix('s')
                    .filter(|s| s.len() >= 3)
                    .unwrap_or(w)
                    .to_string()
            })
            .collect()
    };
    let mut general = Vec::new();
    for list in &catalogue.lists {
        let own = words(&list.name);
        for alias in &list.aliases {
            let written = words(alias);
            if own.iter().all(|w| written.contains(w)) {
                continue;
            }
            let fits: Vec<&str> = catalogue
                .lists_with_words(alias, Some(list.game))
                .iter()
                .map(|l| l.id.as_str())
                .collect();
            if fits != [list.id.as_str()] {
                general.push(format!("`{alias}` of {}: {}", list.id, fits.join(", ")));
            }
        }
    }
    assert!(
        general.is_empty(),
        "aliases several lists fit:\n{}",
        general.join("\n")
    );
}

/// Every shipped list prints: a crib sheet of all its datasheets as HTML
/// names every unit or ship it fields, and its PDF is a real PDF.
#[test]
fn every_list_prints_a_crib_sheet() {
    use muster::print::{self, Paper, view::CribSheet};
    let report = crate::common::embedded();
    let catalogue = &report.catalogue;
    let mut problems = Vec::new();
    for list in &catalogue.lists {
        let sheet = CribSheet::for_list(catalogue, list, "2026-11-24");
        match print::crib_html(&sheet, Paper::A4) {
            Ok(html) => {
                for unit in &list.units {
                    let name = catalogue
                        .datasheet(list.game, unit)
                        .map(|d| d.name.clone())
                        .or_else(|| catalogue.ship(list.game, unit).map(|s| s.data.name.clone()))
                        .or_else(|| catalogue.sf_ship(list.game, unit).map(|s| s.data.name.clone()))
                        .or_else(|| catalogue.ne_unit(list.game, unit).map(|u| u.data.name.clone()));
                    match name {
                        Some(name) if !html.contains(&askama_escape(&name)) => {
                            problems.push(format!("{}: {name} is not on the crib sheet", list.id))
                        }
                        None => problems.push(format!("{}: no datasheet for {unit}", list.id)),
                        _ => {}
                    }
                }
            }
            Err(e) => problems.push(format!("{}: HTML: {e}", list.id)),
        }
    }
    // PDFs take longer: one list per game is enough to prove the layout.
    for game in ["netea", "bfg", "space-fleet", "netepic"] {
        let list = catalogue
            .lists
            .iter()
            .rev()
            .find(|l| l.game.as_str() == game)
            .unwrap();
        let pdf = print::crib_pdf(&CribSheet::for_list(catalogue, list, "2026-11-24"), Paper::A4).unwrap();
        assert!(pdf.starts_with(b"%PDF-"), "{}", list.id);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// HTML-escaped as askama escapes text.
fn askama_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&#34;")
        .replace('\'', "&#39;")
}

/// A list's own limit on garrisons reaches the garrison column: in
/// Biel-Tan only Rangers and War Walkers may garrison, in a Dark Eldar
/// army nothing may.
#[test]
fn a_lists_garrison_limit_reaches_the_derived_facts() {
    let report = crate::common::embedded();
    let check = |text: &str| {
        // Legal or not (these three need a Warhost), the facts are derived.
        let checked = muster::check::check_text(&report.catalogue, "g.txt", text);
        checked
            .army
            .unwrap()
            .formations
            .iter()
            .map(|f| (f.name.clone(), f.facts.garrison.word()))
            .collect::<Vec<_>>()
    };
    let biel_tan = check(
        "Army: Biel-Tan\nPoints: 3000\n\nRanger Troupe: 6 Ranger\nWar Walker Troupe: 4 War Walker\nWindrider Troupe: 4 Jetbikes, 2 Vyper\n",
    );
    let word = |facts: &[(String, &str)], name: &str| {
        facts
            .iter()
            .find(|(n, _)| n.contains(name))
            .unwrap()
            .1
            .to_string()
    };
    assert_eq!(word(&biel_tan, "Ranger"), "yes", "{biel_tan:?}");
    assert_eq!(word(&biel_tan, "War Walker"), "yes", "{biel_tan:?}");
    assert_eq!(word(&biel_tan, "Windrider"), "no", "{biel_tan:?}");
}

/// Every list's version prints in one shape, `Pack name (version)` (or a
/// label that already names the version, such as `NetEA v3.24`).
#[test]
fn versions_print_in_one_shape() {
    let report = crate::common::embedded();
    let odd: Vec<String> = report
        .catalogue
        .lists
        .iter()
        .map(|l| (l, l.version_text()))
        .filter(|(l, text)| {
            !text.ends_with(&format!("({})", l.version))
                && !text.contains(&format!("v{}", l.version))
                && !text.contains(&format!("{} rules", l.version))
        })
        .map(|(l, text)| format!("{}: {text}", l.id))
        .collect();
    assert!(odd.is_empty(), "{odd:?}");
}

/// Two upgrades may share a name only when no formation offers both.
#[test]
fn a_shared_upgrade_name_is_refused_where_one_formation_offers_both() {
    let list = |offers: &str| {
        format!(
            "game: netea\nid: shared-names\nname: Shared Names\nversion: \"1\"\nsource: [{{ document: test }}]\nstrategy_rating: 1\n\
             sections:\n  - id: s\n    name: S\n    formations:\n\
             \x20     - {{ id: a, name: Alpha, points: 100, initiative: \"1+\", upgrades: [{offers}] }}\n\
             \x20     - {{ id: b, name: Beta, points: 100, initiative: \"1+\", upgrades: [two] }}\n\
             upgrades:\n  - {{ id: one, name: Nobz, points: 35 }}\n  - {{ id: two, name: Big Nobz, aliases: [Nobz], points: 50 }}\n"
        )
    };
    for (offers, refused) in [("one", false), ("one, two", true)] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("shared.yaml"), list(offers)).unwrap();
        let report = muster::catalogue::load(Some(dir.path()));
        let said: Vec<String> = report
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.message.clone())
            .collect();
        assert_eq!(
            said.iter().any(|m| m.contains("the name `nobz` fits upgrades")),
            refused,
            "{offers}: {said:?}"
        );
    }
}

/// A formation's initiative may follow what it took: an Iyanden Spirit
/// Warhost is 2+, and 1+ with the Wraithseer.
#[test]
fn an_initiative_may_follow_the_formations_upgrades() {
    let report = crate::common::embedded();
    let initiative = |upgrades: &str| {
        let text = format!("Army: Iyanden\nPoints: 3000\n\nSpirit Wraithguard Warhost: {upgrades}\n");
        let checked = muster::check::check_text(&report.catalogue, "i.txt", &text);
        checked.army.unwrap().formations[0].facts.initiative.clone()
    };
    assert_eq!(initiative("Spiritseer").as_deref(), Some("2+"));
    assert_eq!(initiative("Wraithseer").as_deref(), Some("1+"));
}

/// Finding a list by any of its names goes through an index of the names'
/// forms: it finds what comparing the name with every list's names finds,
/// and an unknown name's suggestion and nearest lists come from one pass.
#[test]
fn every_list_name_finds_its_list_through_the_index() {
    use muster::catalogue::{ListLookup, ListName};
    let report = crate::common::embedded();
    let catalogue = &report.catalogue;
    let ids = |lookup: ListLookup<'_>| -> Vec<String> {
        match lookup {
            ListLookup::Found(list) => vec![list.id.clone()],
            ListLookup::Ambiguous(lists) => lists.iter().map(|l| l.id.clone()).collect(),
            ListLookup::NotFound(_) => Vec::new(),
        }
    };
    let mut written: Vec<String> = Vec::new();
    for list in &catalogue.lists {
        for name in list.all_names() {
            written.push(name.to_string());
            written.push(name.to_uppercase());
            written.push(name.replace(' ', "-"));
        }
    }
    written.extend(["Squats of Doom", "Imperial", "navy", ""].map(str::to_string));
    for name in &written {
        let wanted = ListName::new(name);
        let by_scan: Vec<String> = catalogue
            .lists
            .iter()
            .filter(|l| l.name_keys.iter().any(|k| wanted.matches_key(k)))
            .map(|l| l.id.clone())
            .collect();
        assert_eq!(ids(catalogue.lookup_list(name)), by_scan, "{name}");
        assert_eq!(ids(catalogue.find_list(name)), by_scan, "{name}");
    }
    for list in &catalogue.lists {
        assert!(ids(catalogue.lookup_list(&list.name)).contains(&list.id));
    }
    // An unknown name: the suggestion is the nearest of all names.
    for name in ["Squats of Doom", "Codex Astartez", "Imperial Nav", "Eldar"] {
        let (suggestion, nearest) = catalogue.nearest_lists_and_name(name, 3);
        let alone = muster::diagnostic::nearest(name, catalogue.lists.iter().flat_map(|l| l.all_names()));
        assert_eq!(suggestion, alone, "{name}");
        let nearest: Vec<&str> = nearest.iter().map(|l| l.id.as_str()).collect();
        let again: Vec<&str> = catalogue
            .nearest_lists(name, 3)
            .iter()
            .map(|l| l.id.as_str())
            .collect();
        assert_eq!(nearest, again, "{name}");
    }
    assert!(matches!(
        catalogue.find_list("Codex Astartez"),
        ListLookup::NotFound(Some(_))
    ));
}

/// Every unit a NetEA list fields has a datasheet with every statistic
/// (speed, armour, close combat, firefight, each weapon's range and
/// firepower), or says why a value is `missing` (`missing_why`): a crib
/// sheet never shows a blank that nobody explained.
#[test]
fn every_netea_unit_has_complete_statistics_or_says_why_not() {
    let report = crate::common::embedded();
    let catalogue = &report.catalogue;
    let game = muster::games::GameId::Netea;
    let mut faults = BTreeMap::<String, Vec<String>>::new();
    for list in catalogue.lists.iter().filter(|l| l.game == game) {
        for id in &list.units {
            let Some(sheet) = catalogue.datasheet(game, id) else {
                faults
                    .entry(id.clone())
                    .or_default()
                    .push(format!("no datasheet ({})", list.id));
                continue;
            };
            let mut missing: Vec<&str> = [
                ("speed", &sheet.speed),
                ("armour", &sheet.armour),
                ("cc", &sheet.cc),
                ("ff", &sheet.ff),
            ]
            .into_iter()
            .filter(|(_, v)| v.is_none())
            .map(|(k, _)| k)
            .collect();
            for weapon in &sheet.weapons {
                if [&weapon.range, &weapon.firepower]
                    .iter()
                    .any(|v| v.trim() == "missing")
                {
                    missing.push("a weapon's range or firepower");
                }
            }
            let why = sheet.missing_why.as_deref().is_some_and(|w| !w.trim().is_empty());
            if !missing.is_empty() && !why {
                faults
                    .entry(id.clone())
                    .or_default()
                    .push(format!("missing {} with no missing_why", missing.join(", ")));
            }
        }
    }
    let faults: Vec<String> = faults
        .into_iter()
        .map(|(id, mut f)| {
            f.dedup();
            format!("{id}: {}", f.join("; "))
        })
        .collect();
    assert!(
        faults.is_empty(),
        "NetEA datasheets lacking statistics:\n{}",
        faults.join("\n")
    );
}

/// Every name muster prints reads back: each card, formation or ship line
/// of `muster new` (uncommented), and each upgrade after its formation's
/// colon, is a roster line muster places, for every list. NetEpic's
/// personalities have commas in their names (`Eldrad Ulthran, Farseer of
/// Ulthwe`).
#[test]
fn every_name_muster_prints_reads_back_as_a_roster_line() {
    let report = crate::common::embedded();
    let catalogue = &report.catalogue;
    let mut problems = Vec::new();
    for list in &catalogue.lists {
        let starter = muster::report::options::starter(list, catalogue, 3000);
        let mut lines: Vec<String> = Vec::new();
        let mut in_sections = false;
        for line in starter.lines() {
            if line.starts_with("# --- ") {
                in_sections = true;
            } else if line.starts_with("# The list's rules") {
                in_sections = false;
            } else if in_sections && line.starts_with("# ") && !line.starts_with("#   ") {
                lines.push(line[2..].to_string());
            }
        }
        for f in &list.formations {
            for &u in &f.upgrades {
                let up = &list.upgrades[u];
                lines.push(format!(
                    "{}: {}",
                    muster::roster::writable_name(&f.name, &f.aliases),
                    muster::roster::writable_name(&up.name, &up.aliases)
                ));
            }
        }
        for line in lines {
            let text = format!("Army: {}\nPoints: 3000\n\n{line}\n", list.id);
            let checked = muster::check::check_text(catalogue, "names.txt", &text);
            // A squadron alone lacks its ships: that is its nesting, not
            // its name.
            let read = |d: &&muster::diagnostic::Diagnostic| {
                d.code.is_unplaced() && d.code != muster::diagnostic::Code::BadNesting
            };
            for d in checked.diagnostics.iter().filter(read) {
                problems.push(format!("{}: `{line}`: {}", list.id, d.message));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} lines do not read back:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// What list authors need and players do not: source line numbers,
/// Snapfire's rules and ids, the pack's file names.
fn bookkeeping(text: &str) -> Option<&'static str> {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    let three_digits = |w: &str| {
        let w = w.trim_start_matches('(').trim_end_matches([')', '.', ';']);
        w.len() == 3 && w.bytes().all(|b| b.is_ascii_digit())
    };
    let number = |w: &str| w.bytes().next().is_some_and(|b| b.is_ascii_digit());
    for pair in words.windows(2) {
        if three_digits(pair[0]) && pair[1].starts_with("line") {
            return Some("a source line");
        }
        if matches!(pair[0], "id" | "ids") && number(pair[1]) {
            return Some("an id");
        }
    }
    // `max 1 of 507`: a count of Snapfire's ids.
    for three in words.windows(3) {
        if number(three[0]) && three[1] == "of" && three_digits(three[2]) {
            return Some("an id");
        }
    }
    ["maxPercent", "decisions", ".md", ".html", "capacities from"]
        .into_iter()
        .find(|marker| text.contains(marker))
}

/// Default output keeps provenance plain: a rule's source as players see
/// it (`= rule:`), the rules not checked (hints), and `muster options`
/// carry no source lines, Snapfire ids or pack file names; `-v` and JSON
/// keep them.
#[test]
fn default_output_keeps_bookkeeping_out() {
    let report = crate::common::embedded();
    let catalogue = &report.catalogue;
    let mut problems = Vec::new();
    for list in &catalogue.lists {
        for c in &list.constraints {
            let rule = muster::diagnostic::RuleRef {
                id: c.id.clone(),
                provenance: c.provenance.clone(),
                expression: None,
            };
            let plain = rule.plain_provenance();
            if let Some(what) = bookkeeping(&plain) {
                problems.push(format!("{} {}: {what} in `{plain}`", list.id, c.id));
            }
            if let Some(what) = bookkeeping(&c.message) {
                problems.push(format!("{} {}: {what} in `{}`", list.id, c.id, c.message));
            }
        }
        for n in &list.not_enforced {
            if let Some(what) = bookkeeping(&n.rule) {
                problems.push(format!("{} {}: {what} in `{}`", list.id, n.id, n.rule));
            }
        }
        let options = muster::report::options::text(list, catalogue, false);
        for line in options.lines() {
            if let Some(what) = bookkeeping(line) {
                problems.push(format!("{} options: {what} in `{}`", list.id, line.trim()));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} places:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// The catalogue-wide look-up of which lists know a formation name (used to
/// find the game of a roster whose army is unknown) answers as asking every
/// list's own index: over every name and alias of every list, their
/// plurals, spellings without spaces, and names no list has.
#[test]
fn lists_knowing_a_formation_are_the_lists_whose_index_finds_it() {
    let report = crate::common::embedded();
    let catalogue = &report.catalogue;
    let mut names: Vec<String> = Vec::new();
    for list in &catalogue.lists {
        for f in &list.formations {
            for name in std::iter::once(&f.name).chain(&f.aliases) {
                names.push(name.clone());
                names.push(format!("{name}s"));
                names.push(name.replace(' ', ""));
                names.push(name.to_uppercase());
            }
        }
    }
    names.extend(["", " ", "Nothing Known", "Companies", "Battery", "Batteries"].map(String::from));
    assert!(names.len() > 1000, "{} names", names.len());
    for name in names.iter().step_by(crate::common::stride()) {
        let asked: Vec<usize> = (catalogue.lists.iter().enumerate())
            .filter(|(_, l)| {
                !matches!(
                    l.formation_names.lookup(name),
                    muster::catalogue::names::Lookup::NotFound
                )
            })
            .map(|(i, _)| i)
            .collect();
        assert_eq!(catalogue.lists_knowing_formation(name), asked, "{name:?}");
    }
}
