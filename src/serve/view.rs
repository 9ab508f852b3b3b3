//! What the builder page shows, built from one check of the roster text:
//! plain data for the askama templates in `templates/serve/`. Every string
//! here may come from a user; the templates escape all of them.

use super::edit;
use crate::catalogue::{ArmyList, Catalogue, Cost};
use crate::check::{ArmySummary, Checked, FormationSummary};
use crate::diagnostic::{Diagnostic, Severity};
use crate::event::Event;
use crate::games::GameId;

/// The builder: everything inside the form that the script swaps.
pub struct Builder {
    pub roster: String,
    /// `r=1....`: the share link's query (`crate::share`).
    pub share_query: String,
    /// The list's id, for the player's saved lists.
    pub list_id: String,
    /// Entries at the top level: formations, or ships and squadrons (the
    /// number of activations), worded (`5 formations`).
    pub activations: Option<String>,
    /// The list's share rules, as bars.
    pub budgets: Vec<BudgetView>,
    pub list: Option<ListHead>,
    pub verdict: String,
    pub legal: bool,
    /// `1,200 / 3,000 points` and the points left.
    pub total: Option<String>,
    pub left: Option<String>,
    pub over: bool,
    pub facts: Vec<(String, String)>,
    pub formations: Vec<FormationRow>,
    /// Findings not about one entry (the header, the army as a whole).
    pub general: Vec<DiagnosticView>,
    pub sections: Vec<SectionOffer>,
    pub points: String,
    pub player: String,
    pub snapfire: Option<String>,
    pub event: Option<String>,
    pub submit: bool,
    pub epic: bool,
    pub noun: &'static str,
}

pub struct ListHead {
    pub name: String,
    pub version: String,
    pub game: &'static str,
}

pub struct FormationRow {
    pub index: usize,
    pub name: String,
    pub points: i64,
    /// 0 for a formation of its own, 1 for a member of a group, ...
    pub depth: usize,
    pub upgrades: Vec<Taken>,
    pub offers: Vec<Offer>,
    /// For a group: the formations it admits.
    pub members: Vec<Offer>,
    pub facts: Vec<String>,
    pub diagnostics: Vec<DiagnosticView>,
    pub errors: bool,
}

pub struct Taken {
    pub upgrade: usize,
    pub name: String,
    pub count: u32,
}

pub struct Offer {
    /// The upgrade's or formation's index in its list.
    pub id: usize,
    pub label: String,
}

pub struct SectionOffer {
    pub name: String,
    pub formations: Vec<Offer>,
}

/// One share rule as a bar: `used` of `allowed`.
pub struct BudgetView {
    pub label: String,
    pub message: String,
    pub used: i64,
    pub allowed: i64,
    /// The bar's full length: the allowed amount, or what is used when it
    /// is more, so that a bar over its rule is drawn past the mark (red:
    /// above `high`, away from `optimum`) instead of full and green.
    pub scale: i64,
    /// `750 / 1,000 points`, `3 / 4`.
    pub text: String,
    pub over: bool,
}

impl BudgetView {
    fn new(b: &crate::validate::Budget) -> BudgetView {
        let mut label = b.id.replace('-', " ");
        if let Some(first) = label.get(..1) {
            label = format!("{}{}", first.to_uppercase(), &label[1..]);
        }
        BudgetView {
            label,
            message: b.message.clone(),
            used: b.used,
            allowed: b.allowed.max(0),
            scale: b.allowed.max(b.used).max(0),
            text: format!(
                "{} / {}{}",
                thousands(b.used),
                thousands(b.allowed),
                if b.points { " points" } else { "" }
            ),
            over: b.used > b.allowed,
        }
    }
}

pub struct DiagnosticView {
    pub severity: &'static str,
    pub code: &'static str,
    pub line: Option<usize>,
    pub message: String,
    pub rule: Option<String>,
    pub hints: Vec<String>,
    pub fix: Option<String>,
    /// The button that applies the fix (`fix:N`), when it is an edit.
    pub fix_op: Option<String>,
}

impl DiagnosticView {
    pub fn new(d: &Diagnostic) -> DiagnosticView {
        DiagnosticView {
            severity: d.severity.as_str(),
            code: d.code.as_str(),
            line: d.line_col().map(|(l, _)| l),
            message: d.message.clone(),
            rule: d.rule.as_ref().map(|r| format!("{} [{}]", r.provenance, r.id)),
            hints: d.hints.iter().filter_map(|h| web_hint(h)).collect(),
            fix: d.fix.clone(),
            fix_op: None,
        }
    }
}

/// A hint as the page words it: advice to run a command is for the
/// terminal (the page has its own list of formations, its own downloads),
/// so a hint that is only that is left out, and one that ends with it
/// keeps what comes before.
pub fn web_hint(hint: &str) -> Option<String> {
    let Some(at) = hint.find("`muster ") else {
        return Some(hint.to_string());
    };
    let before = hint[..at].trim_end_matches([' ', ';', ',', '(', ':']).trim();
    (!before.is_empty()).then(|| before.to_string())
}

/// A cost as a button label shows it: `+25`, `+10/+15`, `?` when unknown.
pub fn cost_text(cost: Option<&Cost>) -> String {
    match cost {
        None => "?".to_string(),
        Some(Cost::Each(each)) if *each >= 0 => format!("+{each}"),
        Some(Cost::Each(each)) => format!("{each}"),
        Some(Cost::Successive(all)) => all.iter().map(|c| format!("+{c}")).collect::<Vec<_>>().join("/"),
    }
}

fn thousands(n: i64) -> String {
    let digits = crate::diagnostic::thousands(usize::try_from(n.unsigned_abs()).unwrap_or(usize::MAX));
    if n < 0 { format!("-{digits}") } else { digits }
}

/// URL-encodes a query value (`application/x-www-form-urlencoded`).
pub fn urlencode(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 3 / 2);
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(b as char),
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The formations a list offers, by section, with their costs.
pub fn sections(list: &ArmyList) -> Vec<SectionOffer> {
    list.sections
        .iter()
        .map(|s| SectionOffer {
            name: s.name.clone(),
            formations: s
                .formations
                .iter()
                .filter_map(|&f| {
                    let formation = list.formations.get(f)?;
                    Some(Offer {
                        id: f,
                        label: format!(
                            "{} ({})",
                            formation.name,
                            formation
                                .points
                                .map_or_else(|| "?".to_string(), |p| p.to_string())
                        ),
                    })
                })
                .collect(),
        })
        .filter(|s| !s.formations.is_empty())
        .collect()
}

impl Builder {
    pub fn new(checked: &Checked<'_>, text: &str, event: Option<&Event>, submit: bool) -> Builder {
        let list = checked.list;
        let game = list.map(|l| l.game);
        let epic = game.is_some_and(|g| g.game().epic_facts);
        let mut builder = Builder {
            roster: text.to_string(),
            share_query: format!("{}={}", crate::share::KEY, crate::share::encode(text)),
            list_id: list.map(|l| l.id.clone()).unwrap_or_default(),
            activations: None,
            budgets: Vec::new(),
            list: list.map(|l| ListHead {
                name: l.name.clone(),
                version: l.version_text(),
                game: l.game.title(),
            }),
            verdict: verdict(checked),
            legal: checked.legal(),
            total: None,
            left: None,
            over: false,
            facts: Vec::new(),
            formations: Vec::new(),
            general: Vec::new(),
            sections: list.map(sections).unwrap_or_default(),
            points: checked
                .header
                .points
                .as_ref()
                .map(|p| p.value.to_string())
                .unwrap_or_default(),
            player: checked
                .header
                .player
                .as_ref()
                .map(|p| p.value.clone())
                .unwrap_or_default(),
            snapfire: match &checked.share {
                Some(Ok(shared)) => Some(shared.link.url(crate::import::snapfire::PUBLIC_URL)),
                _ => None,
            },
            event: event.map(|e| e.file.name.clone()),
            submit,
            epic,
            noun: game.map_or("formation", GameId::entry_noun),
        };
        let mut owners: Vec<(usize, usize, usize)> = Vec::new(); // (start, end, row)
        if let (Some(army), Some(list)) = (&checked.army, list) {
            builder.army_totals(army);
            builder.army_facts(army, epic);
            for (i, f) in army.formations.iter().enumerate() {
                let Some(row) = FormationRow::new(list, army, i, epic) else {
                    continue;
                };
                let start = f.line;
                let end = edit::block_end(text, start);
                owners.push((start, end, builder.formations.len()));
                builder.formations.push(row);
            }
        }
        builder.place(checked, text, &owners);
        builder
    }
}

impl Builder {
    /// The total against the limit, the points left, the share rules as
    /// bars and the number of activations.
    fn army_totals(&mut self, army: &ArmySummary) {
        self.total = Some(match army.limit {
            Some(limit) => format!(
                "{}{} / {} points",
                thousands(army.total),
                if army.total_incomplete { "+" } else { "" },
                thousands(i64::from(limit))
            ),
            None => format!("{} points", thousands(army.total)),
        });
        if let Some(limit) = army.limit {
            let left = i64::from(limit) - army.total;
            self.over = left < 0;
            self.left = Some(if left >= 0 {
                format!("{} left", thousands(left))
            } else {
                format!("{} over", thousands(-left))
            });
        }
        self.budgets = army.budgets.iter().map(BudgetView::new).collect();
        let top = army.formations.iter().filter(|f| f.group.is_none()).count();
        let noun = self.noun;
        self.activations = Some(match (top, noun) {
            (1, _) => format!("1 {noun}"),
            (_, "ship or squadron") => format!("{top} ships and squadrons"),
            _ => format!("{top} {noun}s"),
        });
    }

    /// The army-wide facts: ratings, Break Their Spirit targets, victory
    /// points and counts-as models.
    fn army_facts(&mut self, army: &ArmySummary, epic: bool) {
        if let Some(sr) = army.strategy_rating {
            self.facts.push(("Strategy rating".into(), sr.to_string()));
        } else if epic {
            self.facts.push(("Strategy rating".into(), "unknown".into()));
        }
        if let Some(ar) = army.attack_rating {
            self.facts.push(("Attack rating".into(), ar.to_string()));
        }
        let targets: Vec<&str> = army
            .formations
            .iter()
            .filter(|f| f.facts.break_their_spirit)
            .map(|f| f.name.as_str())
            .collect();
        if epic && !targets.is_empty() {
            self.facts
                .push(("Break Their Spirit target".into(), targets.join(", ")));
        }
        if epic {
            let vp: i64 = army.formations.iter().map(|f| f.facts.vp_full).sum();
            self.facts
                .push(("Victory points if all destroyed".into(), thousands(vp)));
        }
        for (model, target) in &army.counts_as {
            self.facts
                .push(("Counts as".into(), format!("{model} = {target}")));
        }
    }
}

impl FormationRow {
    /// The row of the army's `i`th formation: what it took, what its list
    /// offers it, and its facts; `None` for a formation its list lacks.
    fn new(list: &ArmyList, army: &ArmySummary, i: usize, epic: bool) -> Option<FormationRow> {
        let f = &army.formations[i];
        let fi = list.formations.iter().position(|lf| lf.id == f.id)?;
        let formation = &list.formations[fi];
        let mut depth = 0;
        let mut g = f.group;
        while let Some(up) = g.filter(|_| depth < 8) {
            depth += 1;
            g = army.formations.get(up).and_then(|p| p.group);
        }
        let upgrades = f
            .upgrades
            .iter()
            .filter_map(|(name, count)| {
                let u = list.upgrades.iter().position(|u| &u.name == name)?;
                Some(Taken {
                    upgrade: u,
                    name: name.clone(),
                    count: *count,
                })
            })
            .collect();
        let offers = formation
            .upgrades
            .iter()
            .filter_map(|&u| {
                let upgrade = list.upgrades.get(u)?;
                Some(Offer {
                    id: u,
                    label: format!(
                        "{} ({})",
                        upgrade.name,
                        cost_text(crate::resolve::offered_cost(list, fi, u))
                    ),
                })
            })
            .collect();
        let members = formation
            .group
            .as_ref()
            .map(|g| {
                list.formations
                    .iter()
                    .enumerate()
                    .filter(|(m, _)| g.admits(*m))
                    .map(|(m, mf)| Offer {
                        id: m,
                        label: format!(
                            "{} ({})",
                            mf.name,
                            mf.points.map_or_else(|| "?".to_string(), |p| p.to_string())
                        ),
                    })
                    .collect()
            })
            .unwrap_or_default();
        Some(FormationRow {
            index: i,
            name: f.name.clone(),
            points: army.points_of(i),
            depth,
            upgrades,
            offers,
            members,
            facts: if epic { epic_facts(f) } else { Vec::new() },
            diagnostics: Vec::new(),
            errors: false,
        })
    }
}

/// An Epic Armageddon formation's facts, as the builder lists them.
fn epic_facts(f: &FormationSummary) -> Vec<String> {
    let mut facts = Vec::new();
    if let Some(init) = &f.facts.initiative {
        facts.push(format!("initiative {init}"));
    }
    facts.push(format!("garrison: {}", f.facts.garrison.word()));
    facts.push(format!("reserve: {}", f.facts.reserve.word()));
    if let Some(s) = f.facts.strength {
        facts.push(format!("strength {s}"));
    }
    facts.push(format!("VP {} (half {})", f.facts.vp_full, f.facts.vp_half));
    if f.facts.break_their_spirit {
        facts.push("Break Their Spirit target".to_string());
    }
    facts
}

impl Builder {
    /// Puts each finding under the innermost entry whose block (`owners`:
    /// first line, last line, row) holds its line, the others in
    /// `general`; a fix that is an edit gets its button.
    fn place(&mut self, checked: &Checked<'_>, text: &str, owners: &[(usize, usize, usize)]) {
        let empty = self.formations.is_empty() && self.list.is_some();
        for (n, d) in checked.diagnostics.iter().enumerate() {
            // A new roster has no formation yet: the page says so in its
            // own words, with the list beside it.
            if empty && d.code == crate::diagnostic::Code::EmptyRoster {
                continue;
            }
            let mut view = DiagnosticView::new(d);
            if edit::apply_fix(text, d).is_some() {
                view.fix_op = Some(format!("fix:{n}"));
            }
            // A member's finding goes to the member, not to its squadron.
            let row = view.line.and_then(|line| {
                owners
                    .iter()
                    .filter(|(s, e, _)| (*s..=*e).contains(&line))
                    .max_by_key(|(s, _, _)| *s)
                    .map(|&(_, _, r)| r)
            });
            match row {
                Some(r) => {
                    self.formations[r].errors |= d.severity == Severity::Error;
                    self.formations[r].diagnostics.push(view);
                }
                None => self.general.push(view),
            }
        }
    }
}

/// The verdict line, as `muster check` words it.
fn verdict(c: &Checked<'_>) -> String {
    if c.unusable() {
        return "Not a usable roster".to_string();
    }
    let errors = c.errors();
    let warnings = c
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    let mut out = if errors == 0 {
        "Legal".to_string()
    } else {
        format!("NOT legal: {errors} error{}", if errors == 1 { "" } else { "s" })
    };
    if warnings > 0 {
        out.push_str(&format!(
            ", {warnings} warning{}",
            if warnings == 1 { "" } else { "s" }
        ));
    }
    out
}

/// One game with its lists, for the picker.
pub struct GameLists {
    pub game: &'static str,
    pub lists: Vec<(String, String)>,
}

/// Every list the picker offers (only the event's, with an event), by game.
pub fn pickable(catalogue: &Catalogue, event: Option<&Event>) -> Vec<GameLists> {
    let mut out: Vec<GameLists> = Vec::new();
    for list in &catalogue.lists {
        if event.is_some_and(|e| !e.allows(list)) {
            continue;
        }
        let title = list.game.title();
        let label = format!("{} ({})", list.name, list.version_text());
        match out.iter_mut().find(|g| g.game == title) {
            Some(g) => g.lists.push((list.id.clone(), label)),
            None => out.push(GameLists {
                game: title,
                lists: vec![(list.id.clone(), label)],
            }),
        }
    }
    out
}
