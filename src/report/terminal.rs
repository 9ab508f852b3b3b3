//! rustc-style text for terminals, through codespan-reporting.

use crate::check::Checked;
use crate::diagnostic::{Diagnostic, Severity};
use crate::source::SourceFile;
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, termcolor::Buffer};
use std::fmt::Write as _;

/// Renders diagnostics the way rustc does; `color` adds ANSI colours.
pub fn diagnostics(diagnostics: &[Diagnostic], color: bool) -> String {
    let mut files = SimpleFiles::new();
    let mut ids: Vec<(SourceFile, usize)> = Vec::new();
    for label in diagnostics
        .iter()
        .flat_map(|d| d.primary.iter().chain(&d.secondary))
    {
        if !ids.iter().any(|(f, _)| f.same(&label.file)) {
            let id = files.add(label.file.name().to_string(), label.file.text().to_string());
            ids.push((label.file.clone(), id));
        }
    }
    let id_of =
        |file: &SourceFile| -> usize { ids.iter().find(|(f, _)| f.same(file)).map_or(0, |(_, id)| *id) };
    let mut buffer = if color { Buffer::ansi() } else { Buffer::no_color() };
    let config = term::Config::default();
    for d in diagnostics {
        let mut labels = Vec::new();
        if let Some(p) = &d.primary {
            labels
                .push(cs::Label::primary(id_of(&p.file), p.span.start..p.span.end).with_message(&p.message));
        }
        for s in &d.secondary {
            labels.push(
                cs::Label::secondary(id_of(&s.file), s.span.start..s.span.end).with_message(&s.message),
            );
        }
        let mut notes = Vec::new();
        if let Some(rule) = &d.rule {
            notes.push(format!("rule: {} [{}]", rule.provenance, rule.id));
        }
        notes.extend(d.hints.iter().map(|h| format!("hint: {h}")));
        if let Some(fix) = &d.fix {
            notes.push(format!("fix: {fix}"));
        }
        let severity = match d.severity {
            Severity::Error => cs::Severity::Error,
            Severity::Warning => cs::Severity::Warning,
            Severity::Note => cs::Severity::Note,
        };
        let diagnostic = cs::Diagnostic::new(severity)
            .with_code(d.code.as_str())
            .with_message(&d.message)
            .with_labels(labels)
            .with_notes(notes);
        // Labels only ever point into files registered above.
        let _ = term::emit_to_write_style(&mut buffer, &config, &files, &diagnostic);
    }
    String::from_utf8_lossy(buffer.as_slice()).into_owned()
}

/// The verdict line for one roster: `file: legal, Codex Astartes, 2990/3000 points`.
pub fn verdict(c: &Checked<'_>) -> String {
    let mut line = String::new();
    let _ = write!(line, "{}: ", c.name);
    if c.unusable() {
        line.push_str("not a usable roster");
        return line;
    }
    let errors = c.errors();
    if errors == 0 {
        line.push_str("legal");
    } else {
        let _ = write!(
            line,
            "NOT legal ({errors} error{})",
            if errors == 1 { "" } else { "s" }
        );
    }
    if let Some(list) = c.list {
        let _ = write!(line, ", {} ({})", list.name, list.version_text());
    }
    if let Some(army) = &c.army {
        let _ = write!(line, ", {}", army.total);
        if let Some(limit) = c.limit() {
            let _ = write!(line, "/{limit}");
        }
        line.push_str(" points");
        if army.total_incomplete {
            line.push_str(" (some costs unknown)");
        }
    }
    line
}

/// A fleet at a glance: each ship with its points and options, squadrons
/// with their ships under them, and the attack rating.
fn grouped(army: &crate::check::ArmySummary) -> String {
    let game = army.game.game();
    let noun = if game.fleet { "ship" } else { game.entry_noun };
    let mut rows: Vec<(String, String, String)> = Vec::new();
    for (i, f) in army.formations.iter().enumerate() {
        if f.group.is_some() {
            continue;
        }
        if f.is_group {
            rows.push((f.name.clone(), army.points_of(i).to_string(), String::new()));
            for m in army.members(i) {
                rows.push((format!("  {}", m.name), m.points.to_string(), options(m)));
            }
        } else {
            rows.push((f.name.clone(), f.points.to_string(), options(f)));
        }
    }
    let width = rows
        .iter()
        .map(|r| r.0.chars().count())
        .max()
        .unwrap_or(0)
        .max(noun.len());
    let mut out = String::new();
    let _ = writeln!(out, "  {noun:<width$}  {:>6}  options", "points");
    for (name, points, options) in rows {
        let _ = writeln!(out, "  {name:<width$}  {points:>6}  {options}");
    }
    if let Some(rating) = game.rating {
        let value = match rating {
            crate::games::Rating::Attack => army.attack_rating,
            crate::games::Rating::Strategy => army.strategy_rating,
        };
        let _ = writeln!(
            out,
            "  {} {}",
            rating.name(),
            value.map_or_else(|| "not in the sources".to_string(), |s| s.to_string())
        );
    }
    out.lines().map(|l| format!("{}\n", l.trim_end())).collect()
}

fn options(f: &crate::check::FormationSummary) -> String {
    let parts: Vec<String> = f
        .upgrades
        .iter()
        .map(|(name, n)| {
            if *n > 1 {
                format!("{n}x {name}")
            } else {
                name.clone()
            }
        })
        .collect();
    parts.join(", ")
}

/// The army at a glance: points, initiative, garrison and reserve per
/// formation, the Break Their Spirit target, strategy rating and counts-as.
pub fn formations(c: &Checked<'_>) -> String {
    let Some(army) = &c.army else { return String::new() };
    if army.formations.is_empty() {
        return String::new();
    }
    // Epic's table has initiative, garrison, reserve and strength; other
    // games print their entries with groups (squadrons, company cards)
    // and their members under them.
    if !army.game.game().epic_facts {
        return grouped(army);
    }
    let width = army
        .formations
        .iter()
        .map(|f| f.name.chars().count())
        .max()
        .unwrap_or(0)
        .max("formation".len());
    let mut out = String::new();
    let _ = writeln!(
        out,
        "  {:<width$}  {:>6}  {:<4}  {:<8}  {:<7}  {:>8}",
        "formation", "points", "init", "garrison", "reserve", "strength"
    );
    for f in &army.formations {
        let _ = writeln!(
            out,
            "  {:<width$}  {:>6}  {:<4}  {:<8}  {:<7}  {:>8}{}",
            f.name,
            f.points,
            f.facts.initiative.as_deref().unwrap_or("?"),
            f.facts.garrison.word(),
            f.facts.reserve.word(),
            f.facts
                .strength
                .map_or_else(|| "?".to_string(), |s| s.to_string()),
            if f.facts.break_their_spirit {
                "  <- Break Their Spirit target"
            } else {
                ""
            }
        );
    }
    let _ = writeln!(
        out,
        "  strategy rating {}",
        army.strategy_rating
            .map_or_else(|| "unknown".to_string(), |s| s.to_string())
    );
    for (model, target) in &army.counts_as {
        let _ = writeln!(out, "  counts as: {model} = {target}");
    }
    out
}
