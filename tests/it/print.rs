//! Crib sheets and printed rosters, through the real binary: the HTML is
//! snapshotted; the PDFs are read back with lopdf and checked for page
//! count, paper size, the embedded font, unit names and expanded
//! abbreviations.

use super::common::{Run, muster};
use std::path::{Path, PathBuf};
use std::process::Command;

fn out_dir() -> PathBuf {
    super::common::out_dir("print")
}

/// Runs muster with `--pdf OUT` and reads the file back.
fn pdf(args: &[&str], name: &str) -> (Run, Pdf) {
    let path = out_dir().join(name);
    let path_text = path.display().to_string();
    let mut full: Vec<&str> = args.to_vec();
    full.extend(["--pdf", &path_text]);
    let run = muster(&full);
    assert!(path.exists(), "no PDF written: {}", run.stderr);
    let pdf = Pdf::read(&path);
    (run, pdf)
}

struct Pdf {
    doc: lopdf::Document,
}

impl Pdf {
    fn read(path: &Path) -> Pdf {
        let doc = lopdf::Document::load(path).expect("a PDF lopdf can read");
        Pdf { doc }
    }

    fn pages(&self) -> usize {
        self.doc.get_pages().len()
    }

    fn text(&self, page: u32) -> String {
        self.doc.extract_text(&[page]).expect("text of the page")
    }

    fn all_text(&self) -> String {
        let pages: Vec<u32> = self.doc.get_pages().keys().copied().collect();
        self.doc.extract_text(&pages).expect("text")
    }

    /// Width and height of the first page, in points.
    fn media_box(&self) -> (f32, f32) {
        let (_, &id) = self.doc.get_pages().iter().next().expect("a page");
        let page = self.doc.get_dictionary(id).expect("page dictionary");
        let media = page
            .get(b"MediaBox")
            .and_then(|m| m.as_array())
            .expect("MediaBox");
        let number = |o: &lopdf::Object| o.as_float().or_else(|_| o.as_i64().map(|i| i as f32)).unwrap();
        // Whole points: the page size goes through millimetres on the way.
        let round = |v: f32| (v * 100.0).round() / 100.0;
        (
            round(number(&media[2]) - number(&media[0])),
            round(number(&media[3]) - number(&media[1])),
        )
    }

    /// Base names of the fonts whose program is embedded (`FontFile2`).
    fn embedded_fonts(&self) -> Vec<String> {
        let mut names = Vec::new();
        for object in self.doc.objects.values() {
            let Ok(dict) = object.as_dict() else { continue };
            if dict.get(b"Type").and_then(|t| t.as_name()).ok() != Some(b"FontDescriptor".as_slice()) {
                continue;
            }
            if dict.get(b"FontFile2").is_ok() {
                let name = dict
                    .get(b"FontName")
                    .and_then(|n| n.as_name())
                    .unwrap_or_default();
                names.push(String::from_utf8_lossy(name).into_owned());
            }
        }
        names
    }
}

impl Pdf {
    /// Each embedded font program (`FontFile2`): its `FontName` and its
    /// length once decompressed.
    fn font_programs(&self) -> Vec<(String, usize)> {
        let mut programs = Vec::new();
        for object in self.doc.objects.values() {
            let Ok(dict) = object.as_dict() else { continue };
            let Ok(file) = dict.get(b"FontFile2").and_then(|f| f.as_reference()) else {
                continue;
            };
            let name = dict
                .get(b"FontName")
                .and_then(|n| n.as_name())
                .unwrap_or_default();
            let stream = self
                .doc
                .get_object(file)
                .and_then(|o| o.as_stream())
                .expect("a font stream");
            let program = stream
                .decompressed_content()
                .expect("a font program flate decodes");
            programs.push((String::from_utf8_lossy(name).into_owned(), program.len()));
        }
        programs.sort();
        programs
    }
}

/// The fonts are embedded as subsets of the characters printed (muster
/// subsets them itself, see print/pdf.rs), each named with a subset tag of
/// six capitals; whole fonts would put 1.3 MB in every PDF.
#[test]
fn a_pdf_embeds_subsets_of_its_fonts_not_the_whole_fonts() {
    let whole_regular = std::fs::metadata("assets/fonts/DejaVuSansCondensed.ttf")
        .unwrap()
        .len() as usize;
    let (run, first) = pdf(&["roster", "tests/fixtures/legal.txt"], "subset.pdf");
    assert_eq!(run.status, 0, "{}", run.stderr);
    let programs = first.font_programs();
    assert_eq!(programs.len(), 2, "{programs:?}");
    for (name, length) in &programs {
        let (tag, base) = name.split_once('+').expect("a subset tag");
        assert!(
            tag.len() == 6 && tag.chars().all(|c| c.is_ascii_uppercase()),
            "{name}"
        );
        assert!(base.starts_with("DejaVuSansCondensed"), "{name}");
        assert!(*length < whole_regular / 10, "{name}: {length} bytes");
    }
    let size = std::fs::metadata(out_dir().join("subset.pdf")).unwrap().len();
    assert!(size < 100_000, "{size} bytes");
    // The same roster prints the same subsets, under the same tags.
    let (_, again) = pdf(&["roster", "tests/fixtures/legal.txt"], "subset-2.pdf");
    assert_eq!(again.font_programs(), programs);
    assert_contains(&first.all_text(), &["Tactical"]);
}

/// Most documents draw only ASCII, Latin-1 and muster's own signs: they
/// embed one common subset of each weight (made once per process, issue
/// 20's render goal), the same for every such document. A document that
/// draws anything else embeds a subset of exactly its characters.
#[test]
fn a_pdf_outside_the_common_characters_gets_its_own_subset() {
    let (run, legal) = pdf(&["roster", "tests/fixtures/legal.txt"], "common-1.pdf");
    assert_eq!(run.status, 0, "{}", run.stderr);
    let (run, other) = pdf(&["roster", "examples/codex-astartes-3000.txt"], "common-2.pdf");
    assert_eq!(run.status, 0, "{}", run.stderr);
    // Two rosters with different text, one common subset per weight.
    assert_eq!(legal.font_programs(), other.font_programs());

    let roster = std::fs::read_to_string("tests/fixtures/legal.txt")
        .unwrap()
        .replace("Player: Jane Doe", "Player: Łukasz Żółć");
    let path = out_dir().join("polish.txt");
    std::fs::write(&path, roster).unwrap();
    let (run, polish) = pdf(&["roster", path.to_str().unwrap()], "polish.pdf");
    assert_eq!(run.status, 0, "{}", run.stderr);
    let programs = polish.font_programs();
    assert_eq!(programs.len(), 2, "{programs:?}");
    let regular = |p: &[(String, usize)]| {
        p.iter()
            .find(|(name, _)| name.ends_with("+DejaVuSansCondensed"))
            .cloned()
            .expect("the regular weight")
    };
    // Its own regular subset (another tag), still a subset; the bold
    // weight draws nothing outside the common characters.
    assert_ne!(regular(&programs), regular(&legal.font_programs()));
    let whole = std::fs::metadata("assets/fonts/DejaVuSansCondensed.ttf")
        .unwrap()
        .len() as usize;
    assert!(regular(&programs).1 < whole / 10, "{programs:?}");
    assert_contains(&polish.all_text(), &["Łukasz Żółć", "Tactical"]);
    assert_contains(&legal.all_text(), &["Jane Doe", "Tactical"]);
}

/// Text extraction may break lines anywhere; compare without white space.
fn squeeze(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

fn assert_contains(text: &str, wanted: &[&str]) {
    let squeezed = squeeze(text);
    for w in wanted {
        assert!(squeezed.contains(&squeeze(w)), "`{w}` is missing from:\n{text}");
    }
}

#[test]
fn a_full_army_crib_sheet_prints_every_unit_and_expands_its_abbreviations() {
    let (run, pdf) = pdf(&["sheet", "codex-astartes"], "codex-astartes.pdf");
    assert_eq!(run.status, 0, "{}", run.stderr);
    // One grid of units, shared weapons once, a two-column glossary: three
    // pages, where cards one under another took six (issue 19).
    assert_eq!(pdf.pages(), 3);
    assert_eq!(pdf.media_box(), (595.28, 841.89));
    let fonts = pdf.embedded_fonts();
    assert!(
        fonts.iter().any(|f| f.ends_with("+DejaVuSansCondensed"))
            && fonts.iter().any(|f| f.ends_with("-Bold")),
        "{fonts:?}"
    );
    let text = pdf.all_text();
    assert_contains(
        &text,
        &[
            "Tactical",
            "Land Raider",
            "Warlord Class Titan",
            "Thunderhawk Gunship",
            "2× Missile Launcher",
            "AP5+/AT6+",
            "TK(D3)",
            // The glossary expands what the cards abbreviate.
            "(Macro-weapon):",
            "(Titan Killer (x)):",
            "(Fixed Forward Fire Arc):",
            "(Extra Attacks (+x)):",
            "Reinforced Armour",
            "Abbreviations and rules used",
        ],
    );
}

#[test]
fn letter_paper_is_letter_sized() {
    let (run, pdf) = pdf(
        &["sheet", "ork war horde", "--paper", "letter"],
        "orks-letter.pdf",
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(pdf.media_box(), (612.0, 792.0));
    assert_contains(
        &pdf.all_text(),
        &["Gargant", "D3 Power Fields", "Stop damage like void shields"],
    );
}

#[test]
fn a_legal_roster_prints_on_one_page_with_its_facts() {
    let (run, pdf) = pdf(&["roster", "tests/fixtures/legal.txt"], "legal.pdf");
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(pdf.pages(), 1);
    assert_contains(
        &pdf.text(1),
        &[
            "Jane Doe",
            "Test Event",
            "Codex Astartes, NetEA Tournament Pack (2026-02-04)",
            "1700 of 2000",
            "Legal",
            "Checked by muster 0.1.0 on 2026-11-22",
            "6 Tacticals, Captain, 2 Razorbacks (Twin Heavy Bolter), 2 Rhinos",
            "Terminator ▶ Break Their Spirit target",
            "Strategy rating 5",
        ],
    );
}

#[test]
fn with_sheet_appends_the_crib_sheet_of_the_rosters_units() {
    let (run, pdf) = pdf(
        &["roster", "tests/fixtures/legal.txt", "--with-sheet"],
        "legal-sheet.pdf",
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(pdf.pages(), 3);
    let sheet = pdf.text(2) + &pdf.text(3);
    assert_contains(
        &sheet,
        &[
            "Codex Astartes: crib sheet",
            "Land Speeder Tornado",
            "Warhound Class Titan",
        ],
    );
    // Only the roster's units: no Land Raider, which it does not field.
    assert!(!squeeze(&sheet).contains("LandRaider"), "{sheet}");
}

#[test]
fn an_illegal_roster_still_prints_with_its_errors_on_the_first_page() {
    let (run, pdf) = pdf(
        &["roster", "tests/fixtures/illegal.txt", "--paper", "letter"],
        "illegal.pdf",
    );
    assert_eq!(run.status, 1);
    assert!(run.stderr.contains("NOT legal: 4 errors"), "{}", run.stderr);
    assert_contains(
        &pdf.text(1),
        &[
            "NOT legal: 4 errors",
            "line 5: Codex Astartes has no formation called `Tacticle`",
            "An army may include only one spacecraft",
        ],
    );
}

#[test]
fn accents_curly_quotes_and_the_multiplication_sign_print() {
    let (run, pdf) = pdf(
        &["roster", "tests/fixtures/typography.txt", "--with-sheet"],
        "typography.pdf",
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_contains(
        &pdf.text(1),
        &["Zoë O’Brien", "“Grand Tournoi” de Montréal", "Ærø Walker"],
    );
    // The roster counts units as `2 Razorback`; the crib sheet's
    // firepower keeps the sign (the Warhound's `2× MW2+`).
    assert_contains(&pdf.all_text(), &["2× MW2+"]);
}

/// Characters the embedded font lacks (CJK here: a CJK font would weigh
/// more than muster itself) do not vanish without a word: they print as
/// U+FFFD, the PDF ends with a note naming their code points, and the run
/// warns on standard error (issue 21). Emoji DejaVu has (U+1F600) print.
#[test]
fn characters_the_font_lacks_are_replaced_and_named() {
    let roster = std::fs::read_to_string("tests/fixtures/typography.txt").unwrap();
    let player = roster.lines().find(|l| l.starts_with("Player:")).unwrap();
    let path = out_dir().join("cjk.txt");
    std::fs::write(&path, roster.replacen(player, "Player: 山田 \u{1F600}", 1)).unwrap();
    let (run, document) = pdf(&["roster", path.to_str().unwrap()], "cjk.pdf");
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("no glyph for 2 characters") && run.stderr.contains("U+5C71, U+7530"),
        "{}",
        run.stderr
    );
    let text = document.all_text();
    assert_contains(&text, &["Not printed:", "U+5C71, U+7530", "\u{fffd}\u{fffd}"]);
    assert!(!text.contains('山'), "{text}");
    // A document the font covers has no such note.
    let (run, pdf) = pdf(&["roster", "tests/fixtures/typography.txt"], "typography-2.pdf");
    assert!(!run.stderr.contains("no glyph"), "{}", run.stderr);
    assert!(!pdf.all_text().contains("Not printed"));
}

#[test]
fn crib_sheet_of_a_roster_as_html() {
    let run = muster(&["sheet", "--roster", "tests/fixtures/legal.txt"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn an_illegal_roster_as_html() {
    let run = muster(&["roster", "tests/fixtures/illegal.txt"]);
    assert_eq!(run.status, 1);
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn a_roster_with_counts_as_and_accents_as_html() {
    let run = muster(&["roster", "tests/fixtures/typography.txt", "--html", "-"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn html_escapes_whatever_a_roster_contains() {
    let dir = out_dir();
    let roster = dir.join("script.txt");
    std::fs::write(
        &roster,
        "Army: Codex Astartes\nPoints: 2000\nPlayer: <script>alert(\"x\")</script> & co\n\nTactical: <b>Captain</b>\n",
    )
    .unwrap();
    let run = muster(&["roster", &roster.display().to_string()]);
    assert_eq!(run.status, 1);
    assert!(!run.stdout.contains("<script>"), "{}", run.stdout);
    assert!(!run.stdout.contains("<b>Captain"), "{}", run.stdout);
    assert!(run.stdout.contains("&#60;script&#62;") || run.stdout.contains("&lt;script&gt;"));
}

#[test]
fn html_files_are_written_where_asked() {
    let path = out_dir().join("sheet.html");
    let run = muster(&["sheet", "steel-legion", "--html", &path.display().to_string()]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.stdout, format!("wrote {}\n", path.display()));
    let html = std::fs::read_to_string(&path).unwrap();
    assert!(html.contains("<h1>Steel Legion: crib sheet</h1>"));
    assert!(html.contains("@page { size: A4;"));
}

#[test]
fn a_roster_muster_cannot_read_gives_2() {
    let run = muster(&["roster", "tests/fixtures/no-such-file.txt"]);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("cannot read"), "{}", run.stderr);
    let run = muster(&["sheet", "--roster", "tests/fixtures/no-such-file.txt"]);
    assert_eq!(run.status, 2);
}

#[test]
fn explain_takes_notation_apart() {
    let run = muster(&["explain", "MW2+, TK(D3), FxF"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn explain_shows_a_units_datasheet() {
    let run = muster(&["explain", "Land Raider", "--army", "codex-astartes"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn explain_points_at_what_it_cannot_read() {
    let run = muster(&["explain", "MW2+, Reinforced Armor"]);
    assert_eq!(run.status, 2);
    assert_eq!(
        run.stderr,
        "error: `MW2+, Reinforced Armor` is not datasheet notation\n  MW2+, Reinforced Armor\n        ^ at character 7: expected datasheet notation (did you mean `Reinforced Armour`?)\nhint: separate parts with commas; `muster explain UNIT --army ARMY` shows a unit's datasheet\n"
    );
    let run = muster(&["explain", "Landraider", "--army", "codex-astartes"]);
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("did you mean `Land Raider`?"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_datasheet_in_unknown_notation_fails_the_load_naming_file_unit_field_and_position() {
    let dir = out_dir().join("bad-lists");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("bad.yaml"),
        "game: netea\nid: bad\nname: Bad\nsource: [{ document: test }]\nunits:\n  - id: bad-tank\n    name: Bad Tank\n    type: AV\n    speed: 20cm\n    armour: 4+\n    cc: 6+\n    ff: 5+\n    weapons:\n      - { name: Gun, range: 45cm, firepower: AP5+/XT6+, notes: [MW] }\n    notes: [Reinforced Armor]\n",
    )
    .unwrap();
    let run = muster(&["lists", "--check", "--lists", &dir.display().to_string()]);
    assert_eq!(run.status, 1);
    let file = dir.join("bad.yaml").display().to_string();
    assert!(
        run.stdout.contains(
            "datasheet `bad-tank`, weapon 1 (Gun) firepower: `AP5+/XT6+` is not datasheet notation at character 6: expected AP, AT, AA or MW"
        ),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains(&format!("{file}:14:")), "{}", run.stdout);
    assert!(
        run.stdout.contains(
            "datasheet `bad-tank`, unit note 1: `Reinforced Armor` is not datasheet notation at character 1"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("did you mean `Reinforced Armour`?"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains(&format!("{file}:15:")), "{}", run.stdout);
}

/// Issue 19: a roster whose army muster does not know printed "No formation
/// could be read" and nothing else; it names the army and the nearest lists,
/// in the HTML and the PDF alike.
#[test]
fn a_roster_of_an_unknown_army_names_it_and_the_nearest_lists() {
    let roster = out_dir().join("unknown-army.txt");
    std::fs::write(
        &roster,
        "Army: Codex Astartis\nPoints: 3000\nPlayer: P\n\nTactical: Captain, Rhinos [325]\n",
    )
    .unwrap();
    let roster = roster.display().to_string();
    let run = muster(&["roster", &roster]);
    assert_eq!(run.status, 1, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("muster knows no army list called `Codex Astartis`; the nearest it knows: Codex Astartes (codex-astartes)"),
        "{}",
        run.stdout
    );
    let (_, pdf) = pdf(&["roster", &roster], "unknown-army.pdf");
    let text = pdf.all_text();
    assert!(text.contains("Codex Astartis"), "{text}");
    assert!(text.contains("nearest it knows"), "{text}");

    let check = muster(&["check", &roster]);
    assert_eq!(check.status, 1);
    assert!(
        check
            .stdout
            .contains("the nearest lists muster knows: Codex Astartes (codex-astartes)")
            || check
                .stderr
                .contains("the nearest lists muster knows: Codex Astartes (codex-astartes)"),
        "{}{}",
        check.stdout,
        check.stderr
    );
}

/// Issue 19: `sheet --roster` left out the units of a misspelled line and
/// said nothing; it names the lines it could not place and exits as
/// `check` does.
#[test]
fn a_crib_sheet_of_a_roster_reports_what_it_could_not_place() {
    let roster = out_dir().join("misspelled.txt");
    std::fs::write(
        &roster,
        "Army: Codex Astartes\nPoints: 3000\nPlayer: P\n\nTactical: Captain, Rhinos\nWarhund Titan\nDevastator: Land Raidre\n",
    )
    .unwrap();
    let roster = roster.display().to_string();
    let run = muster(&["sheet", "--roster", &roster]);
    assert_eq!(run.status, 1, "{}", run.stderr);
    assert!(run.stdout.contains("Tactical"), "the sheet is still printed");
    assert!(
        run.stderr.contains("no formation called `Warhund Titan`"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("no upgrade called `Land Raidre`"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("the crib sheet leaves out what these lines of the roster could not place"),
        "{}",
        run.stderr
    );
    // An army muster does not know: no sheet, and `check`'s status (1).
    let unknown = out_dir().join("unknown-army-sheet.txt");
    std::fs::write(&unknown, "Army: Codex Astartis\nPoints: 3000\n\nTactical\n").unwrap();
    let run = muster(&["sheet", "--roster", &unknown.display().to_string()]);
    assert_eq!(run.status, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("no army list called `Codex Astartis`"),
        "{}",
        run.stderr
    );
    // A legal roster prints its sheet quietly and exits 0, as before.
    let run = muster(&["sheet", "--roster", "tests/fixtures/legal.txt"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
}

/// Issue 19: the army's special rules (the list's `special_rules`) are on
/// every crib sheet and printed roster, HTML and PDF, once per document.
#[test]
fn army_special_rules_are_printed() {
    let rule = "They Shall Know No Fear";
    let count = |text: &str| text.matches(rule).count();
    let run = muster(&["sheet", "codex-astartes"]);
    assert_eq!(count(&run.stdout), 1, "{}", run.stdout);
    assert!(run.stdout.contains("<h2>Army special rules</h2>"));
    let run = muster(&["sheet", "--roster", "tests/fixtures/legal.txt"]);
    assert_eq!(count(&run.stdout), 1, "{}", run.stdout);
    let run = muster(&["roster", "tests/fixtures/legal.txt", "--with-sheet"]);
    assert_eq!(count(&run.stdout), 1, "{}", run.stdout);

    let (_, sheet) = pdf(&["sheet", "codex-astartes"], "rules-sheet.pdf");
    let squeezed = |text: &str| squeeze(text).matches(&squeeze(rule)).count();
    assert_eq!(squeezed(&sheet.all_text()), 1);
    let (_, roster) = pdf(&["roster", "tests/fixtures/legal.txt"], "rules-roster.pdf");
    let text = roster.all_text();
    assert_contains(&text, &["Army special rules"]);
    assert_eq!(squeezed(&text), 1, "{text}");
}

/// Issue 19: `--pdf -` wrote a file named `-`; `-` is standard output for
/// the PDF as for the HTML, and both cannot go there at once.
#[test]
fn a_pdf_goes_to_standard_output_with_a_dash() {
    let dir = out_dir().join("dash");
    std::fs::create_dir_all(&dir).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_muster"))
        .args(["roster", "--pdf", "-"])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/legal.txt"))
        .current_dir(&dir)
        .output()
        .expect("muster runs");
    assert_eq!(output.status.code(), Some(0));
    assert!(
        output.stdout.starts_with(b"%PDF-"),
        "{:?}",
        String::from_utf8_lossy(&output.stdout[..output.stdout.len().min(200)])
    );
    assert!(lopdf::Document::load_mem(&output.stdout).is_ok());
    assert!(!dir.join("-").exists(), "a file named - was written");

    let sheet = muster(&["sheet", "steel-legion", "--pdf", "-"]);
    assert_eq!(sheet.status, 0, "{}", sheet.stderr);
    assert!(sheet.stdout.starts_with("%PDF-"));

    let html = out_dir().join("with-pdf.html");
    let both = muster(&[
        "sheet",
        "steel-legion",
        "--pdf",
        "-",
        "--html",
        &html.display().to_string(),
    ]);
    assert_eq!(both.status, 0, "{}", both.stderr);
    assert!(
        both.stdout.starts_with("%PDF-"),
        "the 'wrote' line goes to stderr"
    );
    assert!(both.stderr.contains("wrote "), "{}", both.stderr);

    let clash = muster(&["sheet", "steel-legion", "--pdf", "-", "--html", "-"]);
    assert_eq!(clash.status, 2);
    assert!(
        clash.stderr.contains("cannot both write to standard output"),
        "{}",
        clash.stderr
    );
}

#[test]
fn a_printed_roster_says_which_rules_were_not_checked() {
    // "2 rules are not checked" is no use at the table without the rules.
    let (run, pdf) = pdf(
        &["roster", "examples/codex-astartes-3000.txt"],
        "unchecked-rules.pdf",
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let text = pdf.all_text();
    assert!(text.contains("1 rule of Codex Astartes is not checked"), "{text}");
    assert!(text.contains("Units arriving by Drop Pod"), "{text}");
    let html = muster(&["roster", "examples/codex-astartes-3000.txt", "--html", "-"]);
    assert!(
        html.stdout.contains("<li>Units arriving by Drop Pod"),
        "{}",
        html.stdout
    );
    assert!(!html.stdout.contains("`muster options"), "{}", html.stdout);
}

#[test]
fn a_printed_fleet_has_room_for_names_leadership_and_hits() {
    // At the table a fleet needs each ship's name, its rolled Leadership and
    // boxes to tick off its hits (an Emperor has 12).
    let html = muster(&["roster", "examples/armageddon-sector-1500.txt", "--html", "-"]);
    assert_eq!(html.status, 0, "{}", html.stderr);
    assert!(
        html.stdout.contains("<th>Name</th><th>Ld</th><th>Hits</th>"),
        "{}",
        html.stdout
    );
    assert!(
        html.stdout
            .contains("Emperor-class battleship</td><td class=\"fill\"></td><td class=\"fill\"></td><td class=\"boxes\">☐☐☐☐☐ ☐☐☐☐☐ ☐☐</td>"),
        "{}",
        html.stdout
    );
    let (run, pdf) = pdf(
        &["roster", "examples/armageddon-sector-1500.txt"],
        "fleet-hits.pdf",
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let text = pdf.all_text();
    assert!(text.contains("Hits"), "{text}");
    assert!(text.contains("☐☐☐☐☐ ☐☐☐☐☐ ☐☐"), "{text}");
}

#[test]
fn a_weapon_several_units_carry_prints_its_profile_once() {
    let run = muster(&["sheet", "codex-astartes"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let html = &run.stdout;
    let count = |needle: &str| html.matches(needle).count();
    // The Power Weapon of the Captain, Chaplain, Librarian and Supreme
    // Commander: one row of the shared table, named under each unit.
    assert_eq!(count("<h2>Shared weapons</h2>"), 1);
    assert_eq!(count("<td>Power Weapon</td><td>(bc)</td>"), 1, "{html}");
    assert_eq!(count("<b>Shared:</b> Power Weapon"), 4, "{html}");
    // A name with a second profile (the Marauder's anti-aircraft
    // lascannons) keeps that profile in full under its unit, so
    // `Shared: Twin Lascannon` means one line only.
    assert_eq!(
        count("<td>Twin Lascannon</td><td>45cm</td><td>AT4+</td>"),
        1,
        "{html}"
    );
    assert_eq!(
        count("<td>Twin Lascannon</td><td>45cm</td><td>AT4+/AA4+</td>"),
        1,
        "{html}"
    );
    // One grid: every unit's columns line up under one header.
    assert_eq!(count("<table class=\"crib units\">"), 1);
    assert_eq!(count("<tbody class=\"unit\">"), 36);
}

#[test]
fn a_weapon_only_one_unit_carries_prints_in_full_under_it() {
    let run = muster(&["sheet", "codex-astartes"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    // The Vindicator's Demolisher: no other unit has one.
    assert!(
        run.stdout
            .contains("<td>Demolisher</td><td>30cm</td><td>AP3+/AT4+</td>"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("<b>Shared:</b> Demolisher"));
}

#[test]
fn a_printed_roster_names_each_unit_and_upgrade_once() {
    let run = muster(&["roster", "examples/codex-astartes-3000.txt"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let html = &run.stdout;
    // The Captain, Rhinos and Razorbacks field units: counted under Units,
    // by their datasheet names, and not named again as upgrades.
    assert!(
        html.contains("<td>6 Tacticals, Captain, 2 Razorbacks (Twin Heavy Bolter), 2 Rhinos</td><td></td>"),
        "{html}"
    );
    // Drop Pods field no unit of their own: the other-upgrades column.
    assert!(
        html.contains("<td>6 Tacticals, Dreadnought (Hellfire)</td><td>Drop Pods</td>"),
        "{html}"
    );
    // One spelling: the datasheet's `Land Speeder Tornado`, not the
    // upgrade's `Landspeeder Tornado`.
    assert!(!html.contains("Landspeeder"), "{html}");
    assert!(html.contains("<th>Other upgrades</th>"));
}

#[test]
fn long_names_wrap_inside_their_roster_column() {
    let dir = out_dir();
    let roster = dir.join("long-names.txt");
    std::fs::write(
        &roster,
        "Army: Codex Astartes (2026-02-04)\nPoints: 3000\nPlayer: Somebody-With-An-Extraordinarily-Long-Hyphenated-Name-For-Testing\n\n\
         Tactical: Captain, Rhinos, 2x Razorback (Twin Heavy Bolter)\nTactical\n    Dreadnought (Hellfire)\n    Drop Pods\n",
    )
    .unwrap();
    let path = dir.join("long-names.pdf");
    let run = muster(&[
        "roster",
        &roster.display().to_string(),
        "--pdf",
        &path.display().to_string(),
    ]);
    assert!(path.exists(), "{}", run.stderr);
    let pdf = Pdf::read(&path);
    // Everything printed, on one page: the cells wrap rather than run on.
    assert_eq!(pdf.pages(), 1);
    assert_contains(
        &pdf.all_text(),
        &["Razorbacks (Twin Heavy Bolter)", "Drop Pods", "Other upgrades"],
    );
}

/// Issue 34: a glossary that fits on one page is printed whole on one, not
/// split with a few lines spilt onto a last page of their own (the Knight
/// World sheet left two lines of it on its third page).
#[test]
fn a_crib_sheet_glossary_is_kept_on_one_page() {
    let path = out_dir().join("knight-world-sheet.pdf");
    let run = muster(&["sheet", "knight-world", "--pdf", &path.to_string_lossy()]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let pdf = Pdf::read(&path);
    let last = pdf.pages() as u32;
    let heading = (1..=last)
        .find(|&p| pdf.text(p).contains("Abbreviations and rules used"))
        .expect("a glossary");
    assert_eq!(heading, last, "the glossary starts on page {heading} of {last}");
}

/// The crib sheet's note on the values the sources do not give, for the
/// made-up lists of `tests/fixtures/missing-values`: the `lost` list's one
/// card prints a stat as missing (`printed`), the `whole` list's none.
/// The note comes, in the HTML, the PDF and `explain` of the unit
/// (`unit`, its name with `Lost` or `Whole` before it), exactly when a
/// card prints one.
fn assert_missing_noted(game: &str, printed: &str, unit: &str) {
    let lists = "tests/fixtures/missing-values";
    let note = "\u{2018}not in the sources\u{2019} marks a value the sources do not give.";
    for (which, noted) in [("lost", true), ("whole", false)] {
        let id = format!("missing-values-{game}-{which}");
        let run = muster(&["sheet", "--lists", lists, &id]);
        assert_eq!(run.status, 0, "{id}: {}", run.stderr);
        assert_eq!(run.stdout.contains(printed), noted, "{id} prints {printed}");
        assert_eq!(run.stdout.contains(&format!("<p>{note}</p>")), noted, "{id}");
        assert!(!run.stdout.contains("? marks"), "{id}");
        let (run, pdf) = pdf(&["sheet", "--lists", lists, &id], &format!("{id}.pdf"));
        assert_eq!(run.status, 0, "{id}: {}", run.stderr);
        let text = pdf.all_text();
        assert_eq!(
            text.contains("marks a value the sources do not give"),
            noted,
            "{id} PDF"
        );
        let name = format!("{} {unit}", if noted { "Lost" } else { "Whole" });
        let run = muster(&["--lists", lists, "explain", "--army", &id, &name]);
        assert_eq!(run.status, 0, "{id} {name}: {}", run.stderr);
        assert_eq!(
            run.stdout.contains(&format!("  {note}\n")),
            noted,
            "{id} explain: {}",
            run.stdout
        );
    }
}

#[test]
fn a_fleet_sheet_notes_a_missing_stat_only_where_a_ship_prints_one() {
    assert_missing_noted("bfg", "Speed not in the sources", "Frigate");
}

#[test]
fn a_space_fleet_sheet_notes_a_missing_stat_only_where_a_ship_prints_one() {
    assert_missing_noted("sf", "Damage not in the sources", "Cruiser");
}

#[test]
fn a_netepic_sheet_notes_a_missing_stat_only_where_a_unit_prints_one() {
    assert_missing_noted("ne", "<td rowspan=\"1\">not in the sources</td>", "Squad");
}

#[test]
fn a_heresy_sheet_notes_a_missing_stat_by_the_words_it_prints() {
    assert_missing_noted("heresy", "Armour not in the sources", "stand");
}
