//! Issue 19: a roster's crib sheet shows each unit as fielded (the
//! upgrades' `fielded` changes applied: weapons gone, added or changed,
//! values changed, tagged "refit"), for ships and for Epic units; a plain
//! sheet prints the datasheets as written; and `lists --check` refuses a
//! change that names a weapon its datasheet lacks.

use super::common::{Run, muster};
use std::path::PathBuf;

const ARMAGEDDON: &str = "tests/fixtures/fielded/armageddon.txt";
const TYRANIDS: &str = "tests/fixtures/fielded/tyranids.txt";
const BASTION: &str = "tests/fixtures/fielded/bastion.txt";
const BIO_TITANS: &str = "tests/fixtures/fielded/bio-titans.txt";

/// The crib-sheet cards of an HTML page as plain text, one line per
/// heading, table row and paragraph, so a snapshot reads like the sheet.
/// An Epic unit is a row group of the crib grid (`<tbody class="unit">`),
/// a ship a `<section>`; the shared weapons table comes first.
fn cards(html: &str) -> String {
    let start = [
        "<h2>Shared weapons",
        "<table class=\"crib units",
        "<section class=\"unit",
    ]
    .iter()
    .filter_map(|m| html.find(m))
    .min()
    .unwrap_or(0);
    let end = [("</section>", "</section>".len()), ("</table>", "</table>".len())]
        .iter()
        .filter_map(|(m, len)| html.rfind(m).map(|e| e + len))
        .max()
        .unwrap_or(html.len());
    let mut text = html[start..end].to_string();
    for (from, to) in [
        ("<span class=\"refit\">refit</span>", " [refit]"),
        ("<span class=\"refit\">upgrade</span>", " [upgrade]"),
        ("<section", "\n=== <section"),
        ("<tbody class=\"unit\">", "\n=== <tbody"),
        ("<tr>", "\n"),
        ("<p", "\n<p"),
        ("</td>", " | "),
        ("</th>", " | "),
    ] {
        text = text.replace(from, to);
    }
    let mut out = String::new();
    let mut in_tag = false;
    for c in text.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&amp;", "&")
        .replace("&#x27;", "'")
        .replace("&quot;", "\"")
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
        .replace("===\n", "=== ")
}

/// The card (plain text) whose heading starts with `name`, the `nth` of
/// them (0-based).
fn card(text: &str, name: &str, nth: usize) -> String {
    text.split("=== ")
        .filter(|c| c.starts_with(name))
        .nth(nth)
        .unwrap_or_else(|| panic!("no card {nth} for {name} in:\n{text}"))
        .to_string()
}

fn out_dir() -> PathBuf {
    super::common::out_dir("fielded")
}

fn pdf_text(args: &[&str], name: &str) -> (Run, String) {
    let path = out_dir().join(name);
    let path_text = path.display().to_string();
    let mut full: Vec<&str> = args.to_vec();
    full.extend(["--pdf", &path_text]);
    let run = muster(&full);
    let doc = lopdf::Document::load(&path).expect("a PDF lopdf can read");
    let text = doc
        .get_pages()
        .keys()
        .map(|&p| doc.extract_text(&[p]).expect("text of the page"))
        .collect::<Vec<_>>()
        .join("\n");
    (run, text.chars().filter(|c| !c.is_whitespace()).collect())
}

#[test]
fn a_lunar_with_a_nova_cannon_prints_with_it_and_without_its_torpedoes() {
    let run = muster(&["sheet", "--roster", ARMAGEDDON]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let text = cards(&run.stdout);
    let refitted = card(&text, "Lunar", 0);
    assert!(
        refitted.contains("Prow nova cannon [refit] | 30-150cm | 1 | Front |"),
        "{refitted}"
    );
    assert!(!refitted.contains("Prow torpedoes"), "{refitted}");
    // The other Lunar of the roster bought nothing: stock profile.
    let stock = card(&text, "Lunar", 1);
    assert!(stock.contains("Prow torpedoes | (30cm) | 6 | Front |"), "{stock}");
    assert!(!stock.contains("refit]"), "{stock}");
    assert!(stock.contains("As fielded: no refits (1 of 2)"), "{stock}");
    insta::assert_snapshot!(text);

    let (_, pdf) = pdf_text(&["sheet", "--roster", ARMAGEDDON], "armageddon.pdf");
    for wanted in [
        "Prownovacannon[refit]30-150cm1Front",
        "Portwpnsbattery[refit]45cm6Left",
        "Shields2(refit)",
        "Prowlancebattery[refit]30cm1L/F/R",
    ] {
        assert!(pdf.contains(wanted), "`{wanted}` is not in the PDF:\n{pdf}");
    }
}

#[test]
fn tyrant_batteries_and_strike_cruiser_refits_print_as_fielded() {
    let run = muster(&["sheet", "--roster", ARMAGEDDON]);
    let text = cards(&run.stdout);
    let tyrant = card(&text, "Tyrant", 0);
    // Only the 30cm broadsides reach 45cm; the 45cm ones were already there.
    assert!(
        tyrant.contains("Port wpns battery | 45cm | 4 | Left |"),
        "{tyrant}"
    );
    assert!(
        tyrant.contains("Port wpns battery [refit] | 45cm | 6 | Left |"),
        "{tyrant}"
    );
    assert!(!tyrant.contains("30cm | 6"), "{tyrant}");
    let strike = card(&text, "Strike Cruiser", 0);
    assert!(strike.contains("Shields 2 (refit)"), "{strike}");
    assert!(
        strike.contains("Prow lance battery [refit] | 30cm | 1 | L/F/R |"),
        "{strike}"
    );
    assert!(!strike.contains("Prow bombardment cannon |"), "{strike}");
}

#[test]
fn a_plain_sheet_prints_the_datasheets_as_written() {
    let run = muster(&["sheet", "armageddon-sector"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let text = cards(&run.stdout);
    let lunar = card(&text, "Lunar", 0);
    assert!(lunar.contains("Prow torpedoes | (30cm) | 6 | Front |"), "{lunar}");
    assert!(!text.contains("refit"), "a list's sheet fields nothing");
    assert!(!text.contains("As fielded"), "a list's sheet fields nothing");
    let run = muster(&["sheet", "tyranids"]);
    let hierodule = card(&cards(&run.stdout), "Hierodule", 0);
    for weapon in ["Bile Launcher", "Cluster Spines", "Pyro-Acid Spray", "Razorclaw"] {
        assert!(hierodule.contains(weapon), "{hierodule}");
    }
}

#[test]
fn a_bio_titan_prints_only_the_weapons_it_chose() {
    let run = muster(&["sheet", "--roster", TYRANIDS]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let text = cards(&run.stdout);
    let first = card(&text, "Hierodule", 0);
    assert!(
        first.contains("Bile Launcher [upgrade] | 60cm | 3BP |"),
        "{first}"
    );
    assert!(
        first.contains("Razorclaw [upgrade] | (15cm) | Small Arms |"),
        "{first}"
    );
    assert!(first.contains("Massive Scything Talons | (bc)"), "{first}");
    for gone in ["Cluster Spines", "Pyro-Acid Spray", "Bio-Cannon"] {
        assert!(!first.contains(&format!("{gone} |")), "{gone} in {first}");
    }
    let second = card(&text, "Hierodule", 1);
    assert!(!second.contains("Bile Launcher |"), "{second}");
    insta::assert_snapshot!(text);

    let (_, pdf) = pdf_text(&["sheet", "--roster", TYRANIDS], "tyranids.pdf");
    assert!(pdf.contains("BileLauncher[upgrade]60cm3BP"), "{pdf}");
}

#[test]
fn a_refit_weapon_two_units_carry_is_shared_with_its_tag() {
    // A Hierodule and a Hierophant both chose the Bile Launcher: one row of
    // the shared weapons table, tagged refit, named under each unit.
    let run = muster(&["sheet", "--roster", BIO_TITANS]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let html = &run.stdout;
    let shared = html
        .split("<table class=\"crib shared\">")
        .nth(1)
        .and_then(|rest| rest.split("</table>").next())
        .unwrap_or_else(|| panic!("no shared weapons table in:\n{html}"));
    assert!(
        shared
            .contains("<td>Bile Launcher<span class=\"refit\">upgrade</span></td><td>60cm</td><td>3BP</td>"),
        "{shared}"
    );
    assert_eq!(html.matches("<b>Shared:</b> Bile Launcher").count(), 2, "{html}");
    // The weapons only one of them chose print in full under it.
    let text = cards(html);
    assert!(
        card(&text, "Hierophant", 0).contains("Cluster Spines [upgrade] |"),
        "{text}"
    );
    assert!(!shared.contains("Cluster Spines"), "{shared}");

    // Two cards of one datasheet (two Hierodules fielded with different
    // weapons) share nothing: each prints its Massive Scything Talons.
    let run = muster(&["sheet", "--roster", TYRANIDS]);
    assert!(!run.stdout.contains("<h2>Shared weapons</h2>"), "{}", run.stdout);
    let text = cards(&run.stdout);
    for nth in 0..2 {
        assert!(
            card(&text, "Hierodule", nth).contains("2× Massive Scything Talons | (bc)"),
            "{text}"
        );
    }

    let (_, pdf) = pdf_text(&["sheet", "--roster", BIO_TITANS], "bio-titans.pdf");
    assert!(pdf.contains("BileLauncher[upgrade]60cm3BP"), "{pdf}");
    assert!(pdf.contains("Shared:BileLauncher"), "{pdf}");
}

#[test]
fn an_option_that_cannot_be_shown_says_so() {
    let run = muster(&["sheet", "--roster", BASTION]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let text = cards(&run.stdout);
    let exorcist = card(&text, "Exorcist", 0);
    assert!(
        exorcist.contains(
            "As fielded: Shark assault boats: not shown as fielded (the Exorcist has no datasheet in the sources)"
        ),
        "{exorcist}"
    );
}

/// The card texts of a roster's crib sheet (`sheet --roster`), which must
/// exit 0 (the fixtures are legal).
fn fielded_cards(roster: &str) -> String {
    let run = muster(&["sheet", "--roster", roster]);
    assert_eq!(run.status, 0, "{roster}: {}", run.stderr);
    cards(&run.stdout)
}

/// Asserts that `card` has every line part of `wanted` and none of `gone`.
fn shows(card: &str, wanted: &[&str], gone: &[&str]) {
    for w in wanted {
        assert!(card.contains(w), "`{w}` is not in:\n{card}");
    }
    for g in gone {
        assert!(!card.contains(g), "`{g}` is in:\n{card}");
    }
}

#[test]
fn a_deflector_shield_raises_the_front_armour_of_the_ship_that_bought_it() {
    let text = fielded_cards("tests/fixtures/fielded/kor-or-vesh.txt");
    let deflector = "Deflector shield: front armour 6+ until a prow critical hit.";
    shows(
        &card(&text, "Emissary (Dal", 0),
        &["Armour F6+/5+ (refit)", deflector],
        &[],
    );
    shows(&card(&text, "Emissary (Dal", 1), &["Armour 5+ ·"], &[deflector]);
    insta::assert_snapshot!(text);
}

#[test]
fn ork_warlord_upgrades_print_on_the_warlords_ship() {
    let text = fielded_cards("tests/fixtures/fielded/ork-pirates.txt");
    shows(&card(&text, "Terror Ship", 0), &["Shields 2 (refit)"], &[]);
    shows(
        &card(&text, "Kill Kroozer", 0),
        &[
            "Looted torpedoes: a strength roll for its torpedo salvos may be rolled again.",
            "Prow torpedoes [refit] | (30cm) | D6+2 | Front |",
            "Shields 1 ·",
        ],
        &[],
    );
    shows(
        &card(&text, "Kill Kroozer", 1),
        &["Maniac Gunners: a firepower roll"],
        &["Looted"],
    );
    insta::assert_snapshot!(text);
}

#[test]
fn a_shadowhunter_prints_only_the_prow_weapon_it_chose() {
    let text = fielded_cards("tests/fixtures/fielded/iyanden.txt");
    shows(
        &card(&text, "Shadowhunter", 0),
        &["Lance battery [refit] | 30cm | 1 | Front |"],
        &["Prow wpns battery |"],
    );
    shows(
        &card(&text, "Shadowhunter", 1),
        &["Prow wpns battery [refit] | 30cm | 3 | Front |"],
        &["Lance battery"],
    );
    insta::assert_snapshot!(text);
}

#[test]
fn a_torture_with_impalers_drops_the_other_systems_and_a_corsair_says_not_shown() {
    let text = fielded_cards("tests/fixtures/fielded/dark-eldar.txt");
    shows(
        &card(&text, "Torture", 0),
        &[
            "Armed with Impaler assault modules",
            "Mimic engines: a free move after deployment",
        ],
        &["Launch bay |", "Prow lance |", "Prow torpedoes |"],
    );
    shows(
        &card(&text, "Torture", 1),
        &["Prow torpedoes [refit] | (30cm) | 4 | Front |"],
        &["Impaler assault modules (one"],
    );
    shows(
        &card(&text, "Corsair", 0),
        &[
            "Impaler Assault Module: not shown as fielded (the Corsair&#39;s datasheet lists every system it may choose; the card shows them all)",
        ],
        &[],
    );
    insta::assert_snapshot!(text);
}

#[test]
fn the_mark_of_nurgle_adds_a_hit_to_the_printed_hull() {
    let text = fielded_cards("tests/fixtures/fielded/plaguefleet.txt");
    shows(
        &card(&text, "Carnage Cruiser/9 (refit)", 0),
        &["Mark of Nurgle: One more hit, and the ship cannot be boarded."],
        &[],
    );
    // A Plaguefleet daemonship bears the Mark in its price; the others
    // keep their hits.
    for heading in [
        "Slaughter Cruiser/9 (refit)",
        "Slaughter Cruiser/8",
        "Inferno Cruiser/8",
    ] {
        card(&text, heading, 0);
    }
    insta::assert_snapshot!(text);
}

#[test]
fn a_thunderhawk_refit_halves_the_bays_where_halving_is_exact() {
    let text = fielded_cards("tests/fixtures/fielded/black-crusade.txt");
    shows(
        &card(&text, "Devastation", 0),
        &[
            "Port launch bays [refit] | Thunderhawks (20cm) | 1 |",
            "Stbd launch bays [refit] | Thunderhawks (20cm) | 1 |",
        ],
        &["Swiftdeaths"],
    );
    shows(
        &card(&text, "Devastation", 1),
        &["Port launch bays | Swiftdeaths (30cm), Doomfires (20cm), Dreadclaws (30cm) | 2 |"],
        &["[refit]"],
    );
    // The Styx's scrambled rows print no bays: not shown, and said so.
    shows(
        &card(&text, "Styx", 0),
        &["Thunderhawk refit: not shown as fielded (its bays of three squadrons do not halve exactly"],
        &[],
    );
    shows(
        &card(&text, "Carnage Cruiser/9 (refit)", 0),
        &["Mark of Nurgle"],
        &[],
    );
    insta::assert_snapshot!(text);
}

/// A list folder with one list whose upgrade names a weapon.
fn list_naming(game: &str, unit: &str, formation: &str, fielded: &str) -> PathBuf {
    let dir = out_dir().join(format!("lists-{game}-{unit}"));
    std::fs::create_dir_all(&dir).unwrap();
    let rating = if game == "bfg" { "" } else { "strategy_rating: 2\n" };
    let initiative = if game == "bfg" {
        ""
    } else {
        "        initiative: 2+\n"
    };
    std::fs::write(
        dir.join("fielded.yaml"),
        format!(
            "game: {game}\nid: fielded-test\nname: Fielded Test\nversion: '1'\nsource: []\n{rating}\
             sections:\n  - id: s\n    name: S\n    formations:\n      - id: f\n        name: {formation}\n\
             {initiative}        points: 100\n        units: [{{ unit: {unit}, count: 1 }}]\n        upgrades: [refit]\n\
             upgrades:\n  - id: refit\n    name: Refit\n    points: 0\n    fielded:\n{fielded}"
        ),
    )
    .unwrap();
    dir
}

#[test]
fn a_change_naming_a_weapon_the_datasheet_lacks_is_a_list_error() {
    // BFG: a Lunar has `Prow torpedoes`, not `Prow torpedos`.
    let dir = list_naming(
        "bfg",
        "lunar",
        "Test Lunar",
        "      - remove: [Prow torpedos]\n        add: [{ name: Prow nova cannon, range: 30-150cm, firepower: \"1\", arc: Front }]\n",
    );
    let run = muster(&["--lists", dir.to_str().unwrap(), "lists", "--check"]);
    assert_eq!(run.status, 1, "{}", run.stdout);
    assert!(
        run.stdout.contains(
            "error[list-data]: upgrade `refit` as fielded: removes `Prow torpedos`, which datasheet `lunar` does not have"
        ),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("fielded.yaml:20:"), "{}", run.stdout);

    // The same change, spelled right, is consistent.
    let dir = list_naming(
        "bfg",
        "lunar",
        "Test Lunar",
        "      - remove: [Prow torpedoes]\n        add: [{ name: Prow nova cannon, range: 30-150cm, firepower: \"1\", arc: Front }]\n",
    );
    let run = muster(&["--lists", dir.to_str().unwrap(), "lists", "--check"]);
    assert!(!run.stdout.contains("as fielded"), "{}", run.stdout);

    // Epic: a weapon choice the Hierodule has no row for.
    let dir = list_naming(
        "netea",
        "hierodule",
        "Test Hierodule",
        "      - choose: [Bile Cannon]\n",
    );
    let run = muster(&["--lists", dir.to_str().unwrap(), "lists", "--check"]);
    assert_eq!(run.status, 1, "{}", run.stdout);
    assert!(
        run.stdout.contains(
            "upgrade `refit` as fielded: chooses `Bile Cannon`, which datasheet `hierodule` does not have"
        ),
        "{}",
        run.stdout
    );

    // An added weapon the ship notation cannot read.
    let dir = list_naming(
        "bfg",
        "lunar",
        "Test Lunar",
        "      - add: [{ name: Front bombardment cannon, range: 30cm, firepower: \"5\", arc: Front }]\n",
    );
    let run = muster(&["--lists", dir.to_str().unwrap(), "lists", "--check"]);
    assert_eq!(run.status, 1, "{}", run.stdout);
    assert!(
        run.stdout
            .contains("`Front bombardment cannon` is not ship notation"),
        "{}",
        run.stdout
    );
}
