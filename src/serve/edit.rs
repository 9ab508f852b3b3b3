//! Edits of roster text, one click each: the builder's state is the roster
//! text itself, so every button of the page is a function from text to
//! text. Lines are 1-based, as diagnostics give them. An edit keeps every
//! line it does not touch as written (comments, spacing, stated costs).

use crate::catalogue::ArmyList;
use crate::catalogue::names::Lookup;
use crate::roster::{self, Entry};
use crate::source::SourceFile;

/// The lines of `text`, without their line ends.
fn lines(text: &str) -> Vec<&str> {
    text.lines().collect()
}

fn join(lines: &[String]) -> String {
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

fn is_blank_or_comment(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('#')
}

/// The last line (1-based) of the block that starts at `line`: the lines
/// indented deeper than it, up to the first that is not (blank lines and
/// comments after the block are not part of it).
pub fn block_end(text: &str, line: usize) -> usize {
    let all = lines(text);
    let Some(first) = all.get(line.wrapping_sub(1)) else {
        return line;
    };
    let indent = indent_of(first);
    let mut end = line;
    for (i, l) in all.iter().enumerate().skip(line) {
        if is_blank_or_comment(l) {
            continue;
        }
        if indent_of(l) > indent {
            end = i + 1;
        } else {
            break;
        }
    }
    end
}

/// Sets a header line (`Points: 3000`): replaces the first line that has
/// the key, or adds one after the army line (at the top without one).
pub fn set_header(text: &str, key: &str, value: &str) -> String {
    let value: String = value.chars().filter(|c| !c.is_control()).collect();
    let value = value.trim();
    let mut out: Vec<String> = lines(text).into_iter().map(str::to_string).collect();
    let wanted = key.to_ascii_lowercase();
    let key_of = |line: &str| -> Option<String> {
        let (k, _) = line.split_once(':')?;
        let k = k.trim().to_ascii_lowercase();
        (!k.is_empty() && k.len() <= 12).then_some(k)
    };
    // Only the header: the lines before the first formation, which for
    // this purpose is the first line that is neither blank, a comment nor
    // `Key: value` with a header key.
    const KEYS: [&str; 6] = ["army", "points", "player", "event", "list", "version"];
    let mut header_end = 0;
    let mut army_line = None;
    let mut found = None;
    for (i, line) in out.iter().enumerate() {
        if is_blank_or_comment(line) {
            continue;
        }
        match key_of(line) {
            Some(k) if KEYS.contains(&k.as_str()) && indent_of(line) == 0 => {
                header_end = i + 1;
                if k == "army" {
                    army_line = Some(i);
                }
                if k == wanted && found.is_none() {
                    found = Some(i);
                }
            }
            _ => break,
        }
    }
    let new_line = format!("{key}: {value}");
    match (found, value.is_empty()) {
        (Some(i), true) => {
            out.remove(i);
        }
        (Some(i), false) => out[i] = new_line,
        (None, true) => {}
        (None, false) => {
            let at = army_line.map_or(header_end, |a| a + 1);
            out.insert(at.min(out.len()), new_line);
        }
    }
    join(&out)
}

/// Adds a formation line at the end of the roster.
pub fn add_formation(text: &str, name: &str) -> String {
    let mut out: Vec<String> = lines(text).into_iter().map(str::to_string).collect();
    while out.last().is_some_and(|l| l.trim().is_empty()) {
        out.pop();
    }
    if out.last().is_some_and(|l| roster_header_line(l)) {
        out.push(String::new());
    }
    out.push(name.to_string());
    join(&out)
}

fn roster_header_line(line: &str) -> bool {
    line.split_once(':').is_some_and(|(k, _)| {
        matches!(
            k.trim().to_ascii_lowercase().as_str(),
            "army" | "points" | "player" | "event"
        )
    })
}

/// Adds a member formation under the group formation on `line`, after the
/// group's last member, indented like its members (two spaces deeper than
/// the group without any).
pub fn add_member(text: &str, line: usize, name: &str) -> String {
    let mut out: Vec<String> = lines(text).into_iter().map(str::to_string).collect();
    let Some(group) = out.get(line.wrapping_sub(1)) else {
        return add_formation(text, name);
    };
    let end = block_end(text, line);
    let indent = if end > line {
        out.get(line)
            .map(|l| indent_of(l))
            .unwrap_or(indent_of(group) + 2)
            .max(indent_of(group) + 1)
    } else {
        indent_of(group) + 2
    };
    out.insert(end, format!("{}{name}", " ".repeat(indent)));
    join(&out)
}

/// Removes the formation on `line` with everything indented under it.
pub fn remove(text: &str, line: usize) -> String {
    let all = lines(text);
    if line == 0 || line > all.len() {
        return text.to_string();
    }
    let end = block_end(text, line);
    let out: Vec<String> = all
        .iter()
        .enumerate()
        .filter(|(i, _)| *i + 1 < line || *i + 1 > end)
        .map(|(_, l)| l.to_string())
        .collect();
    join(&out)
}

/// The roster entry that starts on `line`, anywhere in the tree.
fn entry_at<'e>(entries: &'e [Entry], file: &SourceFile, line: usize) -> Option<&'e Entry> {
    for e in entries {
        if file.line_col(e.line_span.start).0 == line {
            return Some(e);
        }
        if let Some(found) = entry_at(&e.children, file, line) {
            return Some(found);
        }
    }
    None
}

/// An upgrade as written on the roster: its name and count.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Written {
    name: String,
    count: u32,
}

/// Changes the number of `upgrade` taken by the formation on `line` by
/// `delta` (+1 or -1). The formation's upgrades are rewritten after a colon
/// on its own line (upgrades written on lines of their own under it are
/// moved there; member formations, `members`, stay where they are), and a
/// stated cost on the line is dropped, since it no longer holds.
pub fn change_upgrade(
    text: &str,
    list: &ArmyList,
    line: usize,
    members: &[usize],
    upgrade: usize,
    delta: i32,
) -> String {
    let file = SourceFile::new("roster", text);
    let (parsed, _) = roster::parse(&file);
    let Some(entry) = entry_at(&parsed.entries, &file, line) else {
        return text.to_string();
    };
    let source = file.text();
    let item_text = source
        .get(entry.item.span.start..entry.item.span.end)
        .unwrap_or_default();
    // What the entry carries: upgrades after its colon, and lines under it
    // that are not member formations.
    let mut written: Vec<Written> = entry
        .upgrades
        .iter()
        .map(|u| Written {
            name: u.name.value.clone(),
            count: u.count,
        })
        .collect();
    let mut dropped_lines = Vec::new();
    for child in &entry.children {
        let child_line = file.line_col(child.line_span.start).0;
        if members.contains(&child_line) {
            continue;
        }
        written.push(Written {
            name: child.item.name.value.clone(),
            count: child.item.count,
        });
        written.extend(child.upgrades.iter().map(|u| Written {
            name: u.name.value.clone(),
            count: u.count,
        }));
        dropped_lines.push((child_line, block_end(text, child_line)));
    }
    let is_it = |w: &Written| list.upgrade_names.lookup(&w.name) == Lookup::Found(upgrade);
    match written.iter().position(is_it) {
        Some(i) => {
            let count = i64::from(written[i].count) + i64::from(delta);
            if count <= 0 {
                written.remove(i);
            } else {
                written[i].count = u32::try_from(count).unwrap_or(u32::MAX);
            }
        }
        None if delta > 0 => written.push(Written {
            name: list
                .upgrades
                .get(upgrade)
                .map(|u| u.name.clone())
                .unwrap_or_default(),
            count: 1,
        }),
        None => return text.to_string(),
    }
    let all = lines(text);
    let Some(own) = line.checked_sub(1).and_then(|i| all.get(i)) else {
        return text.to_string();
    };
    let mut new_line = format!("{}{}", " ".repeat(indent_of(own)), item_text.trim());
    if !written.is_empty() {
        let parts: Vec<String> = written
            .iter()
            .map(|w| match w.count {
                1 => w.name.clone(),
                n => format!("{n}x {}", w.name),
            })
            .collect();
        new_line.push_str(": ");
        new_line.push_str(&parts.join(", "));
    }
    let out: Vec<String> = all
        .iter()
        .enumerate()
        .filter(|(i, _)| !dropped_lines.iter().any(|&(a, b)| (a..=b).contains(&(i + 1))))
        .map(|(i, l)| {
            if i + 1 == line {
                new_line.clone()
            } else {
                l.to_string()
            }
        })
        .collect();
    join(&out)
}

/// The name the builder writes for a formation: its own, unless the
/// roster grammar would read a `:` or a `,` in it as the start of its
/// upgrades (`Salamanders - 8th Company : Firedrakes`, `Angron, Primarch
/// of the World Eaters`); then its first alias without either. The builder
/// never writes a line it then rejects.
pub fn written_name(f: &crate::catalogue::Formation) -> &str {
    let plain = |name: &str| !name.contains([':', ',']);
    if plain(&f.name) {
        return &f.name;
    }
    f.aliases
        .iter()
        .find(|a| plain(a))
        .map_or(f.name.as_str(), String::as_str)
}

/// The header keys a fix may set as a whole line (`Points: 3000`).
const FIX_KEYS: [&str; 6] = ["Army", "Points", "Player", "Scenario", "Side", "Opponent points"];

/// A finding's fix applied to `text`, when the fix is a concrete edit: a
/// header line (`Points: 3000`), a name for the one it points at (`did you
/// mean ...?`), or a stated cost (`[250]`). Advice in words gives `None`.
pub fn apply_fix(text: &str, d: &crate::diagnostic::Diagnostic) -> Option<String> {
    let fix = d.fix.as_deref()?.trim();
    if let Some((key, value)) = fix.split_once(": ")
        && let Some(key) = FIX_KEYS.iter().find(|k| k.eq_ignore_ascii_case(key.trim()))
        && !value.trim().is_empty()
        && !value.contains('`')
    {
        return Some(set_header(text, key, value));
    }
    let label = d.primary.as_ref()?;
    if label.file.text() != text || fix.contains('\n') {
        return None;
    }
    let span = label.span;
    let written = text.get(span.start..span.end)?;
    let replacement = if label.message == format!("did you mean `{fix}`?") {
        fix.to_string()
    } else if let Some(cost) = fix.strip_prefix('[').and_then(|f| f.strip_suffix(']'))
        && cost.bytes().all(|b| b.is_ascii_digit())
    {
        if written.starts_with('[') {
            fix.to_string()
        } else if written.bytes().all(|b| b.is_ascii_digit()) {
            cost.to_string()
        } else {
            return None;
        }
    } else {
        return None;
    };
    let mut out = String::with_capacity(text.len() + replacement.len());
    out.push_str(&text[..span.start]);
    out.push_str(&replacement);
    out.push_str(&text[span.end..]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_replaced_or_added() {
        let t = "Army: Codex Astartes\nPoints: 3000\n\nTactical\n";
        assert_eq!(
            set_header(t, "Points", "2500"),
            "Army: Codex Astartes\nPoints: 2500\n\nTactical\n"
        );
        assert_eq!(
            set_header(t, "Player", "Ann"),
            "Army: Codex Astartes\nPlayer: Ann\nPoints: 3000\n\nTactical\n"
        );
        assert_eq!(set_header(t, "Points", ""), "Army: Codex Astartes\n\nTactical\n");
        // A formation line with a colon is not a header.
        let t = "Army: X\nTactical: Rhinos\n";
        assert_eq!(
            set_header(t, "Points", "1"),
            "Army: X\nPoints: 1\nTactical: Rhinos\n"
        );
    }

    #[test]
    fn blocks_follow_indentation() {
        let t = "Army: X\n\nA\n  b\n\n  c\n# note\nD\n";
        assert_eq!(block_end(t, 3), 6);
        assert_eq!(remove(t, 3), "Army: X\n\n# note\nD\n");
        assert_eq!(
            add_member(t, 3, "e"),
            "Army: X\n\nA\n  b\n\n  c\n  e\n# note\nD\n"
        );
        assert_eq!(
            add_member(t, 8, "e"),
            "Army: X\n\nA\n  b\n\n  c\n# note\nD\n  e\n"
        );
        assert_eq!(add_formation("Army: X\n", "A"), "Army: X\n\nA\n");
    }

    #[test]
    fn fixes_that_are_edits_apply_and_advice_does_not() {
        use crate::diagnostic::{Code, Diagnostic};
        use crate::source::Span;
        let t = "Army: Codex Astartes\nPoints: 300O\n\nTactcal [175]\n";
        let file = SourceFile::new("roster", t);
        let header = Diagnostic::error(Code::ListRule, "no limit").fix("Points: 3000");
        assert_eq!(
            apply_fix(t, &header).as_deref(),
            Some("Army: Codex Astartes\nPoints: 3000\n\nTactcal [175]\n")
        );
        let start = t.find("Tactcal").unwrap_or_default();
        let name = Diagnostic::error(Code::UnknownFormation, "no Tactcal")
            .at(&file, Span::new(start, start + 7))
            .label("did you mean `Tactical`?")
            .fix("Tactical");
        assert_eq!(
            apply_fix(t, &name).as_deref(),
            Some("Army: Codex Astartes\nPoints: 300O\n\nTactical [175]\n")
        );
        let at = t.find("175").unwrap_or_default();
        let cost = Diagnostic::error(Code::CostMismatch, "cost")
            .at(&file, Span::new(at, at + 3))
            .label("computed: 200")
            .fix("[200]");
        assert_eq!(
            apply_fix(t, &cost).as_deref(),
            Some("Army: Codex Astartes\nPoints: 300O\n\nTactcal [200]\n")
        );
        let advice = Diagnostic::error(Code::ListRule, "x").fix("add a line such as `Points: 3000`");
        assert_eq!(apply_fix(t, &advice), None);
        // A finding about other text (a link read into a roster) is not applied.
        assert_eq!(apply_fix("Army: Codex Astartes\n", &name), None);
    }
}
