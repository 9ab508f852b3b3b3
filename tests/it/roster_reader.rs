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

/// Every roster text the project holds: the roster cases, the fixtures,
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
fn both_readers_agree_on_every_roster_of_the_project() {
    let corpus = corpus();
    assert!(corpus.len() > 2000, "only {} rosters found", corpus.len());
    let failures: Vec<String> = corpus
        .iter()
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
    let step = (corpus.len() / 400).max(1);
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
    for n in 0..6_000 {
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
