//! The hand-written roster reader against the pest grammar it replaces on
//! the hot path (`grammar/roster.pest`, the documented truth): both must
//! give the same syntax tree and the same diagnostics, spans included, on
//! every roster the project has and on generated ones (random line edits,
//! odd blanks, Unicode, truncation, lines made of the grammar's own tokens).

use muster::roster::{army_name, parse, parse_reference, reader_disagreements};
use muster::source::SourceFile;
use std::path::{Path, PathBuf};

/// Both readers over one text; the first difference, shown whole.
fn agree(name: &str, text: &str) -> Result<(), String> {
    let file = SourceFile::new(name, text);
    let lines = reader_disagreements(&file);
    if !lines.is_empty() {
        return Err(format!(
            "{name}: the readers differ on lines\n  {}",
            lines.join("\n  ")
        ));
    }
    let header = parse(&file).0.header;
    let army = header.army.filter(|_| header.allies.is_empty()).map(|a| a.value);
    if army_name(&file) != army {
        return Err(format!(
            "{name}: army_name gives {:?}, parse {army:?}",
            army_name(&file)
        ));
    }
    let fast = format!("{:#?}", parse(&file));
    let reference = format!("{:#?}", parse_reference(&file));
    if fast == reference {
        return Ok(());
    }
    let (line, (f, r)) = fast
        .lines()
        .zip(reference.lines())
        .enumerate()
        .find(|(_, (f, r))| f != r)
        .unwrap_or((0, ("(shorter)", "(shorter)")));
    Err(format!(
        "{name}: the readers differ at line {line} of the tree\n  fast:      {f}\n  reference: {r}\ntext:\n{text:?}"
    ))
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "txt") {
            out.push(path);
        }
    }
}

/// Every roster text the project holds (a sweep takes one in
/// `common::stride()`): the roster cases, the fixtures,
/// the examples, and the README's roster blocks.
fn corpus() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    for dir in ["tests/rosters", "tests/fixtures", "examples"] {
        files(&root.join(dir), &mut paths);
    }
    let mut out: Vec<(String, String)> = paths
        .iter()
        .filter_map(|p| Some((p.display().to_string(), std::fs::read_to_string(p).ok()?)))
        .collect();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let mut block: Option<String> = None;
    for line in readme.lines() {
        match (&mut block, line.trim()) {
            (None, "```text") => block = Some(String::new()),
            (Some(text), "```") => {
                out.push(("README.md".to_string(), std::mem::take(text)));
                block = None;
            }
            (Some(text), _) => {
                text.push_str(line);
                text.push('\n');
            }
            _ => {}
        }
    }
    out
}

#[test]
fn both_readers_agree_on_the_rosters_of_the_project() {
    let corpus = corpus();
    assert!(corpus.len() > 2000, "only {} rosters found", corpus.len());
    let failures: Vec<String> = (corpus.iter().step_by(crate::common::stride()))
        .filter_map(|(name, text)| agree(name, text).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// xorshift64*: the same cases on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }
}

/// The pieces the grammar gives meaning to, and some it does not.
const TOKENS: &[&str] = &[
    " ",
    "  ",
    "\t",
    " \t ",
    ":",
    ",",
    ",,",
    "[",
    "]",
    "#",
    "=",
    "x",
    "X",
    "×",
    "2",
    "12",
    "2x",
    "x2",
    "×3",
    "1234567890",
    "0",
    "Tactical",
    "Land Raider",
    "Captain",
    "pts",
    "points",
    "pt",
    "PTS",
    "Army",
    "army",
    "List",
    "Points",
    "points limit",
    "Points  limit",
    "Limit",
    "Player",
    "Event",
    "Version",
    "Counts as",
    "counts  as",
    "COUNTS AS",
    "(2026-02-04)",
    "(",
    ")",
    "(1 Fusionhead, 3 Railhead)",
    "(a #b)",
    "é",
    "Ü",
    "\u{a0}",
    "\u{2019}",
    "ß",
    "日本",
    "🙂",
    "\u{200b}",
    "-",
    "'",
    "\"",
    "\r",
    "[325]",
    "[ 325 pts ]",
    "[325points]",
    "[3 pt]",
    "===",
    "====",
    "Incompertus, 3000 POINTS",
    "Codex Astartes (NetEA Tournament Pack (2026-02-04))",
];

/// A line made of random tokens.
fn token_line(rng: &mut Rng) -> String {
    let mut line = String::new();
    for _ in 0..rng.below(9) {
        line.push_str(rng.pick(TOKENS));
    }
    line
}

/// Char boundaries of `s`, and its end.
fn boundaries(s: &str) -> Vec<usize> {
    s.char_indices().map(|(i, _)| i).chain([s.len()]).collect()
}

/// One random edit of a roster.
fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    if lines.is_empty() {
        lines.push(String::new());
    }
    let i = rng.below(lines.len());
    match rng.below(9) {
        // Insert a token somewhere in a line.
        0 | 1 => {
            let at = boundaries(&lines[i]);
            let at = at[rng.below(at.len())];
            lines[i].insert_str(at, rng.pick(TOKENS));
        }
        // Delete a run of characters.
        2 => {
            let at = boundaries(&lines[i]);
            let a = rng.below(at.len());
            let b = (a + 1 + rng.below(4)).min(at.len() - 1);
            if a < b {
                lines[i].replace_range(at[a]..at[b], "");
            }
        }
        // Replace a line with random tokens, or add one.
        3 => lines[i] = token_line(rng),
        4 => lines.insert(i, token_line(rng)),
        // Odd blanks: tabs for spaces, blanks doubled, leading and trailing.
        5 => {
            lines[i] = match rng.below(4) {
                0 => lines[i].replace(' ', "\t"),
                1 => lines[i].replace(' ', "  "),
                2 => format!("{}{}", rng.pick(&[" ", "\t", "    ", " \t"]), lines[i]),
                _ => format!("{}{}", lines[i], rng.pick(&[" ", "\t", " # note", "\t#"])),
            }
        }
        // Case.
        6 => {
            lines[i] = if rng.below(2) == 0 {
                lines[i].to_uppercase()
            } else {
                lines[i].to_lowercase()
            }
        }
        // Swap two lines.
        7 => {
            let j = rng.below(lines.len());
            lines.swap(i, j);
        }
        // Truncate the text at a character.
        _ => {
            let joined = lines.join("\n");
            let at = boundaries(&joined);
            return joined[..at[rng.below(at.len())]].to_string();
        }
    }
    lines.join(if rng.below(8) == 0 { "\r\n" } else { "\n" })
}

#[test]
fn both_readers_agree_on_mutated_rosters() {
    let corpus = corpus();
    let mut rng = Rng(0x5DEE_CE66_D1CE_4E5B);
    let mut failures = Vec::new();
    // A sample of the corpus, every file when there are few.
    let step = (corpus.len() / 400).max(1) * crate::common::stride();
    for (name, text) in corpus.iter().step_by(step) {
        for _ in 0..8 {
            let mut mutated = text.clone();
            for _ in 0..1 + rng.below(4) {
                mutated = mutate(&mut rng, &mutated);
            }
            if let Err(e) = agree(name, &mutated) {
                failures.push(e);
            }
        }
        if failures.len() > 5 {
            break;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn both_readers_agree_on_lines_of_grammar_tokens() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut failures = Vec::new();
    for n in 0..6_000 / crate::common::stride() {
        // Mostly native lines after a header, some under a Snapfire header.
        let mut text = if n % 5 == 0 {
            "Incompertus, 3000 POINTS\nCodex Astartes (NetEA Tournament Pack (2026-02-04))\n=====\n"
                .to_string()
        } else {
            "Army: Codex Astartes\n".to_string()
        };
        for _ in 0..1 + rng.below(3) {
            text.push_str(&token_line(&mut rng));
            text.push('\n');
        }
        if let Err(e) = agree("generated", &text) {
            failures.push(e);
            if failures.len() > 5 {
                break;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The cases the hand-written reader and the line finding single out, each
/// read by both readers: line endings, blanks that are not ASCII, tabs,
/// header keys in every case and close to a key, NUL where a key has a
/// space, versions that repeat the name, comments, the last line.
#[test]
fn both_readers_agree_on_the_cases_the_fast_paths_single_out() {
    let cases: &[&str] = &[
        // Windows and mixed line endings, a lone CR inside a line, no final break.
        "Army: Codex Astartes\r\nPoints: 3000\r\n\r\nTactical: Captain\r\n",
        "Army: Codex Astartes\nPoints: 3000\r\nTactical: Captain\rRhinos\nWarhound",
        "Army: Codex Astartes\r\n\r\n",
        // Blank lines of every whitespace `str::trim` knows, and lines that
        // only look blank.
        "Army: X\n \t \n\u{a0}\n\u{3000}\n\u{2028}\n\u{0b}\n\u{0c}\n \u{85}\nTactical\n",
        "Army: X\n\u{200b}\n\u{1c}\n \u{a0}Tactical\n",
        // Comment lines and comments after a body, with text that is not ASCII.
        "# über\nArmy: X # naïve\n\t# only a comment\n  #\nTactical: Captain # ×2\n",
        // Tabs and spaces as indentation, deeper and shallower.
        "Army: X\nCompany\n\tSupport\n    Support\n\t Ship\n  Back\nNext\n",
        // Names that are not ASCII, counts with `×`.
        "Army: X\nTactïcal Ünit: 2× Capitão, Gefreiter ×2 [25]\n日本 x3\n",
        // Header keys in any case, with blanks before the colon, and words
        // that start like a key but are not one.
        "ARMY: X\nPoInTs LiMiT : 3000\nPoints  limit: 2\nPLAYER:Ann\nEvent:\nVersion: 1\n",
        "Army: X\nArmylist: y\nAlliesx: y\nAlly: Orks\nLimits: 2\nSideways\nScenarios: 3\nOptional rulesx: 2\n",
        "Army: X\nPoints\u{0}limit: 3000\nCounts\u{0}as: a = b\nCounts as: Rhino = Razorback\n",
        "Army: X\nOpponent points: 1000\nOptional rules: titan battle groups\nScenario: Jump Point\nSide: attacker\n",
        // A version in parentheses, its text also in the name.
        "Army: 2026 (2026)\nAllies: Blitz (x9) (9)\nTactical\n",
        // Allied forces with indented entries in each.
        "Army: X\nCompany\n  Support\nAllies: Y (1)\n  Stray\nCard\n  Under\n\tUnder too\nAllies: Z\nLast\n",
        // Lines of one or two bytes, and a key cut short.
        "A\nAr\nArm\nArmy\nArmy:\nP\n#\n:\n",
        // Snapfire's export: with Windows line endings, blank lines and a
        // comment before it, tabs, names that are not ASCII, costs in
        // every form.
        "Incompertus, 3000 POINTS\r\nCodex Astartes (NetEA Tournament Pack (2026-02-04))\r\n=====\r\n\r\nTACTICAL [325]\r\n6 Tacticals plus transport, Captain, Rhinos\r\n",
        "\n# sent by mail\n \t\nDie Ünbeugsamen, 2000 points\nCodex Astartes (2026-02-04)\n====\t\nTACTICAL [ 325 pts ]\n\t6 Tacticals, Capitão ×2,\nSUPREME COMMANDER [100points]\nTERMINATOR [ 300 ]: Land Raider\n",
    ];
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|text| agree("case", text).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Entries nest by indentation within each allied force, and a roster with
/// no indentation keeps every entry at the top, in order.
#[test]
fn entries_nest_within_each_force_and_flat_rosters_stay_flat() {
    let text = "Army: X\nCompany\n  Support\nAllies: Y\n  Stray\nCard\n  Under\n  Under too\n\tDeeper\nAllies: Z\nLast\n";
    let (roster, _) = parse(&SourceFile::new("allies.txt", text));
    let shape: Vec<(String, Vec<String>)> = roster
        .entries
        .iter()
        .map(|e| {
            let children = e.children.iter().map(|c| c.item.name.value.clone()).collect();
            (e.item.name.value.clone(), children)
        })
        .collect();
    let named = |n: &str, c: &[&str]| (n.to_string(), c.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    assert_eq!(
        shape,
        [
            named("Company", &["Support"]),
            named("Stray", &[]),
            named("Card", &["Under", "Under too"]),
            named("Last", &[]),
        ]
    );
    assert_eq!(
        roster.entries[2].children[1].children[0].item.name.value,
        "Deeper"
    );
    let firsts: Vec<usize> = roster.header.allies.iter().map(|a| a.first).collect();
    assert_eq!(firsts, [1, 3]);

    let (flat, _) = parse(&SourceFile::new("flat.txt", "Army: X\nA\nB\n  C\nD\n"));
    let names: Vec<&str> = flat.entries.iter().map(|e| e.item.name.value.as_str()).collect();
    assert_eq!(names, ["A", "B", "D"]);
    assert_eq!(flat.entries[1].children[0].item.name.value, "C");
    let (flat, _) = parse(&SourceFile::new("flat.txt", "Army: X\n  A\n B\nC\n"));
    let names: Vec<&str> = flat.entries.iter().map(|e| e.item.name.value.as_str()).collect();
    assert_eq!(names, ["A", "B", "C"]);
    assert!(flat.entries.iter().all(|e| e.children.is_empty()));
}
