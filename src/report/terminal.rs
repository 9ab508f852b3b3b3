//! rustc-style text for terminals, through codespan-reporting.

use crate::check::{Checked, GameFacts};
use crate::diagnostic::{Diagnostic, Severity};
use crate::source::{SourceFile, Span};
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files;
use codespan_reporting::term::{self, termcolor::Buffer};
use std::fmt::Write as _;

/// Renders diagnostics the way rustc does; `color` adds ANSI colours.
///
/// Each label is shown on an excerpt of its line (at most
/// [`EXCERPT_BYTES`] around it, with its real line and column numbers), and
/// every piece of input text (the excerpt, file names, messages) has its
/// control and bidirectional-override characters written as escapes, so a
/// roster can neither flood the terminal with one long line per finding nor
/// send it escape sequences (clearing the screen, setting the title,
/// hyperlinks, a carriage return over the verdict).
pub fn diagnostics(diagnostics: &[Diagnostic], color: bool) -> String {
    let mut buffer = if color { Buffer::ansi() } else { Buffer::no_color() };
    let config = term::Config::default();
    for d in diagnostics {
        let all: Vec<(bool, &crate::diagnostic::Label)> = d
            .primary
            .iter()
            .map(|p| (true, p))
            .chain(d.secondary.iter().map(|s| (false, s)))
            .collect();
        let mut files = Excerpts(Vec::new());
        let places: Vec<(SourceFile, Span)> = all.iter().map(|(_, l)| (l.file.clone(), l.span)).collect();
        let ranges = files.build(&places);
        let labels = all
            .iter()
            .zip(ranges)
            .map(|((primary, label), (id, range))| {
                let style = if *primary {
                    cs::LabelStyle::Primary
                } else {
                    cs::LabelStyle::Secondary
                };
                cs::Label::new(style, id, range).with_message(escape(&label.message))
            })
            .collect();
        let mut notes = Vec::new();
        if let Some(rule) = &d.rule {
            notes.push(format!("rule: {} [{}]", rule.provenance, rule.id));
            if let Some(expression) = &rule.expression {
                notes.push(format!("the rule is {expression}"));
            }
        }
        notes.extend(d.hints.iter().map(|h| format!("hint: {h}")));
        if let Some(fix) = &d.fix {
            notes.push(format!("fix: {fix}"));
        }
        let notes = notes.iter().map(|n| escape(n).into_owned()).collect();
        let severity = match d.severity {
            Severity::Error => cs::Severity::Error,
            Severity::Warning => cs::Severity::Warning,
            Severity::Note => cs::Severity::Note,
        };
        let diagnostic = cs::Diagnostic::new(severity)
            .with_code(d.code.as_str())
            .with_message(escape(&d.message))
            .with_labels(labels)
            .with_notes(notes);
        // Labels only ever point into the excerpts registered above.
        let _ = term::emit_to_write_style(&mut buffer, &config, &files, &diagnostic);
    }
    String::from_utf8_lossy(buffer.as_slice()).into_owned()
}

/// At most this many bytes of a line are shown around a label.
pub const EXCERPT_BYTES: usize = 240;

pub use crate::escape::{escape, escape_lines, hostile_char};

/// The lines of one file that a diagnostic's labels point at, each cut
/// around its labels and escaped, for codespan.
struct Excerpt {
    name: String,
    text: String,
    /// Per line of `text`: its start in `text`, its 1-based line number in
    /// the file, and the characters of the real line before the cut.
    lines: Vec<(usize, usize, usize)>,
}

struct Excerpts(Vec<Excerpt>);

impl Excerpts {
    /// Builds one excerpt per file the places point into; returns each
    /// place's excerpt id and range within it.
    fn build(&mut self, places: &[(SourceFile, Span)]) -> Vec<(usize, std::ops::Range<usize>)> {
        let mut out = vec![(0, 0..0); places.len()];
        let mut done = vec![false; places.len()];
        for i in 0..places.len() {
            if done[i] {
                continue;
            }
            let file = &places[i].0;
            let mine: Vec<usize> = (i..places.len())
                .filter(|&j| !done[j] && places[j].0.same(file))
                .collect();
            let mut line_numbers: Vec<usize> =
                mine.iter().map(|&j| file.line_of(places[j].1.start)).collect();
            line_numbers.sort_unstable();
            line_numbers.dedup();
            let id = self.0.len();
            let mut excerpt = Excerpt {
                name: escape(file.name()).into_owned(),
                text: String::new(),
                lines: Vec::new(),
            };
            for &line in &line_numbers {
                let here: Vec<usize> = mine
                    .iter()
                    .copied()
                    .filter(|&j| file.line_of(places[j].1.start) == line)
                    .collect();
                let line_span = file.line_span(line);
                let text = file
                    .text()
                    .get(line_span.start..line_span.end)
                    .unwrap_or_default();
                let local = |offset: usize| offset.clamp(line_span.start, line_span.end) - line_span.start;
                let first = here.iter().map(|&j| local(places[j].1.start)).min().unwrap_or(0);
                let mut start = first.saturating_sub(EXCERPT_BYTES / 4);
                while !text.is_char_boundary(start) {
                    start -= 1;
                }
                let mut end = (start + EXCERPT_BYTES).min(text.len());
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                let base = excerpt.text.len();
                excerpt.lines.push((base, line, text[..start].chars().count()));
                // Where each original byte of the cut lands in the excerpt.
                let mut map = Vec::with_capacity(end - start + 1);
                for (k, c) in text[start..end].char_indices() {
                    while map.len() <= k {
                        map.push(excerpt.text.len());
                    }
                    if hostile_char(c) {
                        excerpt.text.extend(c.escape_unicode());
                    } else {
                        excerpt.text.push(c);
                    }
                }
                while map.len() <= end - start {
                    map.push(excerpt.text.len());
                }
                let to_excerpt = |offset: usize| {
                    let k = local(offset).clamp(start, end) - start;
                    map.get(k).copied().unwrap_or(excerpt.text.len())
                };
                for &j in &here {
                    let from = to_excerpt(places[j].1.start);
                    let until = if places[j].1.end <= line_span.end {
                        to_excerpt(places[j].1.end)
                    } else {
                        to_excerpt(line_span.end)
                    };
                    out[j] = (id, from..until.max(from));
                    done[j] = true;
                }
                excerpt.text.push('\n');
            }
            self.0.push(excerpt);
        }
        out
    }

    fn get(&self, id: usize) -> Result<&Excerpt, files::Error> {
        self.0.get(id).ok_or(files::Error::FileMissing)
    }
}

impl<'a> files::Files<'a> for Excerpts {
    type FileId = usize;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: usize) -> Result<&'a str, files::Error> {
        Ok(&self.get(id)?.name)
    }

    fn source(&'a self, id: usize) -> Result<&'a str, files::Error> {
        Ok(&self.get(id)?.text)
    }

    fn line_index(&'a self, id: usize, byte_index: usize) -> Result<usize, files::Error> {
        let e = self.get(id)?;
        Ok(e.lines
            .partition_point(|&(start, _, _)| start <= byte_index)
            .saturating_sub(1))
    }

    fn line_number(&'a self, id: usize, line_index: usize) -> Result<usize, files::Error> {
        let e = self.get(id)?;
        Ok(e.lines
            .get(line_index)
            .map_or(line_index + 1, |&(_, number, _)| number))
    }

    fn column_number(
        &'a self,
        id: usize,
        line_index: usize,
        byte_index: usize,
    ) -> Result<usize, files::Error> {
        let e = self.get(id)?;
        let (start, _, column) = e.lines.get(line_index).copied().unwrap_or((0, 0, 0));
        let before = e
            .text
            .get(start..byte_index.max(start).min(e.text.len()))
            .unwrap_or_default();
        Ok(column + before.chars().count() + 1)
    }

    fn line_range(&'a self, id: usize, line_index: usize) -> Result<std::ops::Range<usize>, files::Error> {
        let e = self.get(id)?;
        let start = e.lines.get(line_index).map(|&(start, _, _)| start);
        let end = e
            .lines
            .get(line_index + 1)
            .map_or(e.text.len(), |&(start, _, _)| start);
        match start {
            Some(start) => Ok(start..end),
            None => Err(files::Error::LineTooLarge {
                given: line_index,
                max: e.lines.len().saturating_sub(1),
            }),
        }
    }
}

/// The verdict line for one roster: `file: legal, Codex Astartes, 2990/3000 points`.
pub fn verdict(c: &Checked<'_>) -> String {
    let mut line = String::new();
    let _ = write!(line, "{}: ", escape(&c.name));
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
    // NetEpic cards carry a break point and victory points: two columns.
    let cards = army.formations.iter().any(|f| f.card.is_some());
    let value = |v: Option<u32>| v.map_or_else(|| "?".to_string(), |n| n.to_string());
    let card = |f: &crate::check::FormationSummary| {
        f.card.map_or_else(
            || format!("{:>3}  {:>3}  ", "", ""),
            |c| {
                // A titan has no break point (NetEpic Gold 6.1).
                let bp = if c.broken_when_destroyed {
                    "-".to_string()
                } else {
                    value(c.break_point)
                };
                format!("{bp:>3}  {:>3}  ", value(c.victory_points))
            },
        )
    };
    // A heading per force when the army has allies.
    let mut rows: Vec<(String, String, String, String)> = Vec::new();
    for (i, f) in army.formations.iter().enumerate() {
        if army.forces.len() > 1 && (i == 0 || army.formations[i - 1].force != f.force) {
            if let Some(force) = army.forces.get(f.force) {
                let role = if force.ally { "allies" } else { "core army" };
                rows.push((
                    format!("{role}: {}", force.list_name),
                    force.points.to_string(),
                    String::new(),
                    String::new(),
                ));
            }
        }
        if f.group.is_none() {
            group_rows(army, i, 0, &card, &mut rows);
        }
    }
    let width = rows
        .iter()
        .map(|r| r.0.chars().count())
        .max()
        .unwrap_or(0)
        .max(noun.len())
        .min(super::MAX_COLUMN);
    let mut out = String::new();
    let head = if cards {
        format!("{:>3}  {:>3}  ", "BP", "VP")
    } else {
        String::new()
    };
    let _ = writeln!(out, "  {noun:<width$}  {:>6}  {head}options", "points");
    for (name, points, card, options) in rows {
        let card = if cards { card.as_str() } else { "" };
        let _ = writeln!(out, "  {name:<width$}  {points:>6}  {card}{options}");
    }
    let (victory, heresy) = match &army.game_facts {
        GameFacts::None => (None, None),
        GameFacts::Cards(v) => (Some(v), None),
        GameFacts::Heresy(h) => (None, Some(h)),
    };
    if let Some(v) = victory {
        let _ = writeln!(
            out,
            "  break points {}, victory points {}{}; {} victory points win a {}-point game",
            v.break_points,
            v.victory_points,
            if v.incomplete {
                " (some values not in the sources)"
            } else {
                ""
            },
            v.to_win,
            v.army_size
        );
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
    if let Some(heresy) = heresy {
        out.push_str(&heresy_lines(heresy));
    }
    for (name, value) in &army.figures {
        let _ = writeln!(out, "  {} {value}", name.to_lowercase());
    }
    out.lines().map(|l| format!("{}\n", l.trim_end())).collect()
}

/// One entry and, under a group, its members at every level (a Heresy
/// commander over battlegroups over detachments), indented by depth.
fn group_rows(
    army: &crate::check::ArmySummary,
    i: usize,
    depth: usize,
    card: &dyn Fn(&crate::check::FormationSummary) -> String,
    rows: &mut Vec<(String, String, String, String)>,
) {
    let Some(f) = army.formations.get(i) else { return };
    let indent = "  ".repeat(depth);
    if f.is_group {
        // A group's own options show only where groups take them (a Heresy
        // battlegroup held in reserve); elsewhere the column stays empty.
        let mut note = if army.game.game().battlegroups {
            options(f)
        } else {
            String::new()
        };
        let heresy = match &army.game_facts {
            GameFacts::Heresy(h) => Some(h),
            GameFacts::Cards(_) | GameFacts::None => None,
        };
        if let Some(bg) = heresy.and_then(|h| h.battlegroups.iter().find(|b| b.index == i)) {
            if !note.is_empty() {
                note.push_str("; ");
            }
            note.push_str(&battlegroup_note(bg));
        }
        rows.push((
            format!("{indent}{}", f.name),
            points_within(army, i).to_string(),
            card(f),
            note,
        ));
        // Members come after their group; depth is bounded by resolve.
        for (m, member) in army.formations.iter().enumerate() {
            if member.group == Some(i) && depth < crate::resolve::MAX_GROUP_DEPTH {
                group_rows(army, m, depth + 1, card, rows);
            }
        }
    } else {
        rows.push((
            format!("{indent}{}", f.name),
            f.points.to_string(),
            card(f),
            options(f),
        ));
    }
}

/// A group's points with everything under it, at every level.
fn points_within(army: &crate::check::ArmySummary, i: usize) -> i64 {
    army.formations
        .iter()
        .enumerate()
        .filter(|(m, _)| *m == i || is_within(army, *m, i))
        .map(|(_, f)| f.points)
        .sum()
}

fn is_within(army: &crate::check::ArmySummary, mut m: usize, ancestor: usize) -> bool {
    for _ in 0..=crate::resolve::MAX_GROUP_DEPTH {
        match army.formations.get(m).and_then(|f| f.group) {
            Some(g) if g == ancestor => return true,
            Some(g) if g < m => m = g,
            _ => return false,
        }
    }
    false
}

/// `12 models, morale 8, breaks after 10 lost, VP 35/70`.
pub fn battlegroup_note(bg: &crate::games::heresy::battlegroups::Battlegroup) -> String {
    let unknown = || "?".to_string();
    format!(
        "{} model{}, morale {}, breaks after {} lost, VP {}/{}",
        bg.models,
        if bg.models == 1 { "" } else { "s" },
        bg.fresh_morale.map_or_else(unknown, |m| m.to_string()),
        bg.break_point.map_or_else(unknown, |m| m.to_string()),
        bg.vp_broken.map_or_else(unknown, |m| m.to_string()),
        bg.vp_destroyed.map_or_else(unknown, |m| m.to_string()),
    )
}

/// Objectives and the victory points needed, Table 7 rows off its own
/// pattern marked.
fn heresy_lines(heresy: &crate::games::heresy::battlegroups::HeresyFacts) -> String {
    let mut out = String::new();
    if let Some(n) = heresy.objectives {
        let _ = writeln!(out, "  objectives {n} (one per full 1,000 points)");
    }
    if !heresy.vp_needed.is_empty() {
        let levels: Vec<String> = heresy
            .vp_needed
            .iter()
            .map(|v| format!("{} {}{}", v.level.name(), v.vp, if v.flagged { "*" } else { "" }))
            .collect();
        let _ = writeln!(out, "  victory points to win: {}", levels.join(", "));
        if heresy.vp_needed.iter().any(|v| v.flagged) {
            let _ = writeln!(
                out,
                "  * as Table 7 prints it, off the table's own steps of 12.5/25/37.5 a 500 points"
            );
        }
    }
    out
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
        .max("formation".len())
        .min(super::MAX_COLUMN);
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
