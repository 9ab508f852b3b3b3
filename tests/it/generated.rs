//! Generated armies for every shipped list, from a fixed seed.
//!
//! 1. **Legal stays legal.** Each list's legal test rosters are rewritten
//!    hundreds of times the ways players write the same army: any of the
//!    entries' names and aliases, any case, `2x`/`x2`/`2 ` counts, upgrades
//!    after a colon or on indented lines, entries reordered, stated costs,
//!    comments and blank lines. Every variant must be legal at the same
//!    points, and the points must equal the sum the test works out itself
//!    from the list's prices.
//! 2. **One step past a limit is caught.** From a legal army: a points limit
//!    one below its total; for every counting limit of the list
//!    (`count(SEL) <= N` over the army or a formation), just enough more of
//!    what it counts; for every army minimum (`count(SEL) >= N` over
//!    formations), the army without what it counts. Each must give the
//!    list's own rule, with its code.
//!
//! The bases are the `legal*` cases under `tests/rosters/<game>/<list>/`;
//! every shipped list must have one.

use muster::catalogue::{ArmyList, Catalogue, Selector};
use muster::check::{ArmySummary, check_text};
use muster::diagnostic::{Code, Severity};
use muster::rules::{Compare, Cond, Num, Reach, Rounding};
use std::path::{Path, PathBuf};

/// Rewrites of each legal base.
const VARIANTS: usize = 200;

/// xorshift64*: small, seeded, the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn pick<'a>(&mut self, items: &'a [String]) -> &'a str {
        &items[self.below(items.len())]
    }
}

fn legal_bases(list: &ArmyList) -> Vec<(PathBuf, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/rosters")
        .join(list.game.as_str())
        .join(&list.id);
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let path = entry.path();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        if name.starts_with("legal") && name.ends_with(".txt") {
            let text = std::fs::read_to_string(&path).unwrap();
            if !text.contains("#! error") && !text.contains("#! event") {
                out.push((path, text));
            }
        }
    }
    // Native rosters first: the mutations append native lines.
    out.sort_by_key(|(path, text)| {
        (
            !text.lines().any(|l| l.trim_start().starts_with("Army:")),
            path.clone(),
        )
    });
    out
}

/// Every name a roster may give an entry, in the spellings players use.
fn spellings(rng: &mut Rng, name: &str, aliases: &[String]) -> String {
    let mut all = vec![name.to_string()];
    all.extend(aliases.iter().cloned());
    let chosen = rng.pick(&all).to_string();
    match rng.below(4) {
        0 => chosen.to_lowercase(),
        1 => chosen.to_uppercase(),
        _ => chosen,
    }
}

fn counted(rng: &mut Rng, count: u32, name: &str) -> String {
    if count == 1 {
        return name.to_string();
    }
    // `2 3 Gun Transporters` would be ambiguous; `2x` is not.
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        return format!("{count}x {name}");
    }
    match rng.below(3) {
        0 => format!("{count}x {name}"),
        1 => format!("{name} x{count}"),
        _ => format!("{count} {name}"),
    }
}

/// One top-level roster entry and the members indented under it.
struct Block {
    lines: Vec<String>,
}

/// Writes the army again, as a player might have written it.
fn rewrite(rng: &mut Rng, list: &ArmyList, army: &ArmySummary, limit: u32) -> String {
    let formation = |id: &str| list.formations.iter().find(|f| f.id == id).unwrap();
    let upgrade = |name: &str| list.upgrades.iter().find(|u| u.name == name).unwrap();
    let entry = |rng: &mut Rng, i: usize, indent: &str, member: bool| -> Vec<String> {
        let f = &army.formations[i];
        let def = formation(&f.id);
        let name = spellings(rng, &def.name, &def.aliases);
        let ups: Vec<String> = f
            .upgrades
            .iter()
            .map(|(u, n)| {
                let def = upgrade(u);
                let written = spellings(rng, &def.name, &def.aliases);
                counted(rng, *n, &written)
            })
            .collect();
        // A stated cost is the entry's own points; a group's is its total.
        let stated = if !member && rng.chance(30) {
            let total: i64 = f.points
                + army
                    .formations
                    .iter()
                    .filter(|m| m.group == Some(i))
                    .map(|m| m.points)
                    .sum::<i64>();
            format!("   [{total}]")
        } else {
            String::new()
        };
        if ups.is_empty() {
            vec![format!("{indent}{name}{stated}")]
        } else if !member && !f.is_group && rng.chance(30) {
            let mut lines = vec![format!("{indent}{name}{stated}")];
            lines.extend(ups.iter().map(|u| format!("{indent}    {u}")));
            lines
        } else {
            vec![format!("{indent}{name}: {}{stated}", ups.join(", "))]
        }
    };
    let mut blocks: Vec<Block> = Vec::new();
    for (i, f) in army.formations.iter().enumerate() {
        if f.group.is_some() {
            continue;
        }
        let mut lines = entry(rng, i, "", false);
        for (m, member) in army.formations.iter().enumerate() {
            if member.group == Some(i) {
                lines.extend(entry(rng, m, "    ", true));
            }
        }
        blocks.push(Block { lines });
    }
    // Shuffle the entries (Fisher-Yates).
    for i in (1..blocks.len()).rev() {
        let j = rng.below(i + 1);
        blocks.swap(i, j);
    }
    let mut names = vec![list.name.clone(), list.id.clone()];
    names.extend(list.aliases.iter().cloned());
    let mut text = format!("Army: {}\nPoints: {limit}\n", rng.pick(&names));
    if rng.chance(50) {
        text.push_str("Player: Generated\n");
    }
    text.push('\n');
    for block in blocks {
        if rng.chance(20) {
            text.push_str("# a comment between entries\n");
        }
        if rng.chance(20) {
            text.push('\n');
        }
        for line in block.lines {
            text.push_str(&line);
            text.push('\n');
        }
    }
    text
}

/// The army's points as the list's prices give them: formation points plus
/// each upgrade's cost, where neither depends on the formation (`None`
/// when one does, or a price is missing).
fn priced(list: &ArmyList, army: &ArmySummary) -> Option<i64> {
    let mut total = 0;
    for f in &army.formations {
        let def = list.formations.iter().find(|d| d.id == f.id)?;
        let mut own = i64::from(def.points?);
        for (name, count) in &f.upgrades {
            let u = list.upgrades.iter().find(|u| &u.name == name)?;
            if !u.cost_when.is_empty() || u.fills.is_some() {
                return None;
            }
            own += u.cost.as_ref()?.of(*count);
        }
        // A NetEpic titan's total is rounded up to 50 points.
        if let Some(step) = def.round_up_to.map(i64::from) {
            own = (own + step - 1) / step * step;
        }
        total += own;
    }
    Some(total)
}

fn errors(text: &str, catalogue: &Catalogue) -> Vec<(Code, Option<String>)> {
    check_text(catalogue, "generated.txt", text)
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| (d.code, d.rule.as_ref().map(|r| r.id.clone())))
        .collect()
}

#[test]
fn every_shipped_list_has_a_legal_roster_case() {
    let report = crate::common::embedded();
    let missing: Vec<String> = report
        .catalogue
        .lists
        .iter()
        .filter(|l| legal_bases(l).is_empty())
        .map(|l| format!("{}/{}", l.game.as_str(), l.id))
        .collect();
    assert!(missing.is_empty(), "no legal*.txt case for: {missing:?}");
}

#[test]
fn rewritten_legal_armies_stay_legal_at_the_same_points() {
    let report = crate::common::embedded();
    let catalogue = &report.catalogue;
    let mut rng = Rng(0x0005_eed0_fa11_1157);
    let mut failures = Vec::new();
    let mut checked = 0;
    for list in &catalogue.lists {
        for (path, text) in legal_bases(list) {
            let base = check_text(catalogue, &path.display().to_string(), &text);
            let Some(army) = base.army.as_ref() else {
                failures.push(format!("{}: no army", path.display()));
                continue;
            };
            assert!(base.legal(), "{} is not legal", path.display());
            if let Some(expected) = priced(list, army) {
                if expected != army.total {
                    failures.push(format!(
                        "{}: muster says {} points, the list's prices add up to {expected}",
                        path.display(),
                        army.total
                    ));
                }
            }
            let limit = army.limit.unwrap_or(army.total as u32);
            for _ in 0..VARIANTS / crate::common::stride() {
                let variant = rewrite(&mut rng, list, army, limit);
                let result = check_text(catalogue, "variant.txt", &variant);
                checked += 1;
                let total = result.army.as_ref().map(|a| a.total);
                if !result.legal() || total != Some(army.total) {
                    failures.push(format!(
                        "{}: a rewrite is {} at {total:?} points (base {}):\n{variant}\n{}",
                        path.display(),
                        if result.legal() { "legal" } else { "not legal" },
                        army.total,
                        muster::report::terminal::diagnostics(&result.diagnostics, false)
                    ));
                    break;
                }
            }
        }
    }
    assert!(checked > 0);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A number that does not depend on the army: integers and the limit.
fn constant(num: &Num<Selector>, limit: i64) -> Option<i64> {
    Some(match num {
        Num::Int(n) => *n,
        Num::Limit => limit,
        Num::Add(a, b) => constant(a, limit)? + constant(b, limit)?,
        Num::Sub(a, b) => constant(a, limit)? - constant(b, limit)?,
        Num::Mul(a, b) => constant(a, limit)? * constant(b, limit)?,
        Num::Min(a, b) => constant(a, limit)?.min(constant(b, limit)?),
        Num::Max(a, b) => constant(a, limit)?.max(constant(b, limit)?),
        Num::Div(rounding, a, b) => {
            let (a, b) = (constant(a, limit)?, constant(b, limit)?);
            if b == 0 {
                return None;
            }
            match rounding {
                Rounding::Floor => a.div_euclid(b),
                Rounding::Ceil => -(-a).div_euclid(b),
            }
        }
        _ => return None,
    })
}

/// `count(SEL) <= N` (or `< N`) with a plain selector: the selector and
/// the most it allows.
fn upper_limit(cond: &Cond<Selector>, limit: i64) -> Option<(&Selector, i64)> {
    let Cond::Compare(left, op, right) = cond else {
        return None;
    };
    let Num::Measure(Reach::Local, muster::rules::Measure::Count, Some(sel)) = left.as_ref() else {
        return None;
    };
    if sel.within.is_some() || sel.with.is_some() {
        return None;
    }
    let bound = constant(right, limit)?;
    match op {
        Compare::Le => Some((sel, bound)),
        Compare::Lt => Some((sel, bound - 1)),
        _ => None,
    }
}

/// `count(SEL) >= N` (or `> N`, `== N`) with N at least one, over formations only.
fn lower_limit(cond: &Cond<Selector>, limit: i64) -> Option<&Selector> {
    let Cond::Compare(left, op, right) = cond else {
        return None;
    };
    let Num::Measure(Reach::Local, muster::rules::Measure::Count, Some(sel)) = left.as_ref() else {
        return None;
    };
    let bound = constant(right, limit)?;
    let at_least = match op {
        Compare::Ge | Compare::Eq => bound,
        Compare::Gt => bound + 1,
        _ => return None,
    };
    (at_least >= 1 && sel.within.is_none() && sel.with.is_none() && !sel.upgrades.iter().any(|u| *u))
        .then_some(sel)
}

/// A roster line that adds `count` of what `sel` matches: a formation it
/// matches, or a formation offering an upgrade it matches (the formation
/// must satisfy `host`).
fn addition(list: &ArmyList, sel: &Selector, count: i64, host: &dyn Fn(usize) -> bool) -> Option<String> {
    let plain = |i: usize| {
        let f = &list.formations[i];
        f.group.is_none() && f.grouped_in.is_none() && f.points.is_some()
    };
    if let Some(i) = (0..list.formations.len()).find(|&i| sel.formation(i) && plain(i) && host(i)) {
        let name = &list.formations[i].name;
        return Some(vec![name.clone(); count as usize].join("\n"));
    }
    for (u, upgrade) in list.upgrades.iter().enumerate() {
        // A transport worked out from the formation is not counted by hand.
        if !sel.upgrades.get(u).copied().unwrap_or(false) || upgrade.fills.is_some() {
            continue;
        }
        if let Some(f) = (0..list.formations.len())
            .find(|&f| plain(f) && host(f) && list.formations[f].upgrades.contains(&u))
        {
            return Some(format!("{}: {count}x {}", list.formations[f].name, upgrade.name));
        }
    }
    None
}

#[test]
fn one_step_past_each_limit_is_caught_with_the_lists_rule() {
    let report = crate::common::embedded();
    let catalogue = &report.catalogue;
    let mut failures = Vec::new();
    let mut mutations = 0;
    for list in &catalogue.lists {
        let Some((path, text)) = legal_bases(list).into_iter().next() else {
            continue;
        };
        let base = check_text(catalogue, "base.txt", &text);
        let Some(army) = base.army.as_ref() else {
            continue;
        };
        let limit = i64::from(army.limit.unwrap_or(army.total as u32));

        // Points: one below the army's total.
        let over = text
            .lines()
            .map(|l| {
                if l.trim_start().to_lowercase().starts_with("points:") {
                    format!("Points: {}", army.total - 1)
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        mutations += 1;
        if over != text
            && !errors(&over, catalogue)
                .iter()
                .any(|(c, _)| *c == Code::OverPointsLimit)
        {
            failures.push(format!(
                "{}: a limit one below the total is not caught",
                path.display()
            ));
        }

        for c in &list.constraints {
            if c.severity != muster::catalogue::RuleSeverity::Error {
                continue;
            }
            let expect = |mutated: &str, what: &str, failures: &mut Vec<String>| {
                let found = errors(mutated, catalogue);
                if !found
                    .iter()
                    .any(|(code, rule)| *code == Code::ListRule && rule.as_deref() == Some(&c.id))
                {
                    failures.push(format!(
                        "{}/{}: {what} does not break `{}` ({}):\n{mutated}\nfound: {found:?}",
                        list.game.as_str(),
                        list.id,
                        c.id,
                        c.text
                    ));
                }
            };
            match c.scope {
                muster::catalogue::Scope::Army => {
                    if let Some((sel, most)) = upper_limit(&c.cond, limit) {
                        if !(0..=40).contains(&most) {
                            continue;
                        }
                        if let Some(line) = addition(list, sel, most + 1, &|_| true) {
                            mutations += 1;
                            expect(
                                &format!("{text}\n{line}\n"),
                                &format!("adding `{line}`"),
                                &mut failures,
                            );
                        }
                    } else if let Some(sel) = lower_limit(&c.cond, limit) {
                        let lines: Vec<&str> = text.lines().collect();
                        let kept: Vec<&str> = lines
                            .iter()
                            .enumerate()
                            .filter(|(n, _)| {
                                !army.formations.iter().any(|f| {
                                    f.line == n + 1
                                        && list
                                            .formations
                                            .iter()
                                            .position(|d| d.id == f.id)
                                            .is_some_and(|i| sel.formation(i))
                                })
                            })
                            .map(|(_, l)| *l)
                            .collect();
                        if kept.len() < lines.len() {
                            mutations += 1;
                            expect(&kept.join("\n"), "removing what it counts", &mut failures);
                        }
                    }
                }
                muster::catalogue::Scope::Formation => {
                    let Some((sel, most)) = upper_limit(&c.cond, limit) else {
                        continue;
                    };
                    if !(0..=40).contains(&most) || sel.formations.iter().any(|f| *f) {
                        continue;
                    }
                    if let Some(line) = addition(list, sel, most + 1, &|f| c.applies_to(f)) {
                        mutations += 1;
                        expect(
                            &format!("{text}\n{line}\n"),
                            &format!("adding `{line}`"),
                            &mut failures,
                        );
                    }
                }
                _ => {}
            }
        }
    }
    assert!(mutations > 0);
    assert!(
        failures.is_empty(),
        "{} failures:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// A check loads only the list its roster names (and what that list
/// uses); it must say exactly what the whole catalogue says.
#[test]
fn a_catalogue_of_one_list_checks_like_the_whole_catalogue() {
    let full = crate::common::embedded();
    let mut compared = 0;
    for list in &full.catalogue.lists {
        for (path, text) in legal_bases(list) {
            let one = muster::catalogue::load_for_army(None, &list.name);
            assert!(!one.has_errors(), "{:?}", one.diagnostics);
            assert_eq!(one.catalogue.lists.len(), 1, "{}", list.id);
            let a = check_text(&full.catalogue, "x.txt", &text);
            let b = check_text(&one.catalogue, "x.txt", &text);
            let said =
                |c: &muster::check::Checked<'_>| muster::report::terminal::diagnostics(&c.diagnostics, false);
            assert_eq!(said(&a), said(&b), "{}", path.display());
            assert_eq!(
                a.army.map(|x| x.total),
                b.army.map(|x| x.total),
                "{}",
                path.display()
            );
            compared += 1;
        }
    }
    assert!(compared > 20);
}
