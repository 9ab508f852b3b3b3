//! The hand-written rules reader (`src/rules/fast.rs`) against the pest
//! grammar it stands in for: same tree, same spans, same errors, over every
//! rule the project ships, mutations of them and rules made of the
//! grammar's tokens.

use muster::catalogue::GameId;
use muster::rules::{parse, parse_item, parse_item_reference, parse_reference};
use proptest::prelude::*;
use std::path::Path;

/// Every rule text of the shipped list files (`rule:` and `when:`
/// anywhere), and the games' own rules.
fn shipped_rules() -> Vec<String> {
    fn collect(value: &serde_json::Value, out: &mut Vec<String>) {
        match value {
            serde_json::Value::Object(map) => {
                for (key, v) in map {
                    match (key.as_str(), v) {
                        ("rule" | "when", serde_json::Value::String(s)) => out.push(s.clone()),
                        _ => collect(v, out),
                    }
                }
            }
            serde_json::Value::Array(items) => items.iter().for_each(|i| collect(i, out)),
            _ => {}
        }
    }
    fn walk(dir: &Path, out: &mut Vec<String>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("lists/ is readable")
            .flatten()
            .map(|e| e.path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "yaml") {
                let text = std::fs::read_to_string(&path).expect("a list file is text");
                let value: serde_json::Value = serde_yaml::from_str(&text).expect("a list file is YAML");
                collect(&value, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("lists"), &mut out);
    for game in GameId::ALL {
        out.extend(game.game().rules.iter().map(|r| r.rule.to_string()));
    }
    out
}

fn same(text: &str) {
    assert_eq!(parse(text), parse_reference(text), "{text:?}");
}

#[test]
fn every_shipped_rule_reads_the_same() {
    let rules = shipped_rules();
    // `rule:` is also the prose of `not_enforced` entries, which do not
    // parse; both readers must refuse those alike.
    let parsing = rules.iter().filter(|r| parse_reference(r).is_ok()).count();
    assert!(parsing > 200, "only {parsing} rules parse");
    for rule in &rules {
        same(rule);
    }
}

#[test]
fn shipped_rules_cut_short_and_mutated_read_the_same() {
    // Every 32nd rule that parses (every 128th in a plain `cargo test`,
    // `common::stride`): the pest side is slow in a debug build, and the
    // fuzz target `rule` compares the two readers on millions of inputs
    // grown from all of them (fuzz/README.md).
    let rules: Vec<String> = shipped_rules()
        .into_iter()
        .filter(|r| parse_reference(r).is_ok())
        .step_by(32 * crate::common::stride())
        .collect();
    for rule in rules {
        let chars: Vec<(usize, char)> = rule.char_indices().collect();
        for &(i, c) in &chars {
            // Cut short, one character dropped, one doubled, one replaced
            // by a character the grammar gives meaning to.
            same(&rule[..i]);
            same(&format!("{}{}", &rule[..i], &rule[i + c.len_utf8()..]));
            same(&format!("{}{c}{}", &rule[..i], &rule[i..]));
            for r in [" ", "(", "-", ",", "A"] {
                same(&format!("{}{r}{}", &rule[..i], &rule[i + c.len_utf8()..]));
            }
        }
    }
}

#[test]
fn hand_picked_corners_read_the_same() {
    for text in [
        "",
        " ",
        "count(a) <= 1",
        "  count( a , tag:b in c with d ) <= 1  ",
        "COUNT(a) <= 1",
        "count(a) <= 1 OR count(b) >= 2 And NOT count(c) == 0",
        "count(a) <= 1 or",
        "notcount(a) <= 1",
        "not count(a) <= 1",
        "not(count(a) <= 1)",
        "(count(a) <= 1)",
        "(count(a)) + 1 <= 2",
        "((count(a) + 1)) <= 2",
        "(count(a) + 1 <= 2)",
        "count(a) <= 1 => count(b) >= 1",
        "count(a) <= 1 => count(b) >= 1 => count(c) == 1",
        "army.count(a) <= 1",
        "army. count(a) <= 1",
        "army .count(a) <= 1",
        "count() == 0",
        "count(*) == 0",
        "count(tag:) == 0",
        "count(tag: x) == 0",
        "count(tag:a-b-c) == 0",
        "count(a-) == 0",
        "count(a--b) == 0",
        "count(a_b) == 0",
        "count(in) == 0",
        "count(a in) == 0",
        "count(a with b in c) == 0",
        "count(a, in) == 0",
        "count(a)<=limit",
        "count(a) <= limitless",
        "count(a) <= limit.x",
        "floor(count(a) / 2) >= ceil(points(b) / 3)",
        "floor (count(a) / 2) >= 1",
        "floorx(count(a) / 2) >= 1",
        "min(count(a), 3) == max(1, units(b))",
        "most(points(tag:capital)) <= least(kinds())",
        "most(points (tag:capital)) <= 1",
        "most(army.points(a)) <= 1",
        "- - 3 < --count(a) * 2 * -1",
        "3 - -count(a) != 2",
        "count(a) = 1",
        "count(a) =< 1",
        "count(a) <> 1",
        "1 < 2 < 3",
        "count(a) <= 99999999999",
        "count(a)\n<=\r\n1",
        "count(a) <= 1 )",
        "count(a)) <= 1",
        "count(a) <= 1 and and count(b) <= 1",
        "count(é) <= 1",
        "count(a) <= 1 ôr count(b) <= 1",
        "kinds(a) >= 2 or units(b) > 0",
        // A `(` opening a condition, a sum, or both, at several depths (the
        // reader remembers the sum it read inside one and reads it again
        // from there), and the words a call is told apart by.
        "((count(a) <= 1))",
        "((count(a) <= 1) and (count(b) + 1) * 2 >= 3)",
        "(((count(a)))) == 1",
        "((count(a)) == 1)",
        "((count(a)) + (count(b) - 1) == 1 or (count(c) == 0))",
        "(count(a) == 0 or (count(b) <= 2 and (count(c)) <= 1)) and (count(d) == 0)",
        "( count(a) ) <= 1",
        "(count(a) <= 1",
        "((count(a) <= 1)",
        "(count(a) + ) <= 1",
        "NOT count(a) == 0",
        "Not(count(a) == 0)",
        "not not count(a) == 0",
        "not",
        "not count(a)",
        "note(a) == 0",
        "army.count.x(a) == 1",
        "army.floor(1 / 2) == 0",
        "army(a) == 1",
        "limit(a) == 1",
        "limit_x == 1",
        "floor(3) == 1",
        "min(1) == 1",
        "most(count) == 1",
        "counts(a) == 1",
        "-(count(a)) < 0",
        "-x < 0",
        "9 == 9",
    ] {
        same(text);
    }
}

#[test]
fn items_read_the_same() {
    for text in [
        "a",
        " a ",
        "tag:a",
        "tag:",
        "tag",
        "*",
        "**",
        "a-b",
        "a-",
        "a b",
        "",
        "tag:a-b",
        "A9",
        "é",
        "tag:tag:a",
        "a,b",
    ] {
        assert_eq!(parse_item(text), parse_item_reference(text), "{text:?}");
    }
}

/// The grammar's tokens, so that generated rules often parse.
fn token() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "count(", "points(", "units(", "kinds(", "army.", "most(", "least(", "floor(", "ceil(", "min(",
        "max(", "limit", "(", ")", ",", "/", "*", "+", "-", "<=", ">=", "==", "!=", "<", ">", "=>", "and",
        "or", "not", "AND", "in", "with", "tag:", "a", "b-c", "*", "1", "23", " ", " ", "\n",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn generated_rules_read_the_same(tokens in prop::collection::vec(token(), 0..24)) {
        let text = tokens.concat();
        prop_assert_eq!(parse(&text), parse_reference(&text), "{:?}", text);
    }
}
