//! Weapon profiles of a NetEpic BattleScribe catalogue that are not in the
//! usual form (`range, attack dice to-hit (TSM)`), read into the notation
//! where the rules define the shape (issue 15).
//!
//! Kept apart from `sheets.rs` (which reads the usual form and the titans'
//! mounts) so that both change on their own. `read` takes one weapon (its
//! name and the catalogue's text) and gives the notation's lines, or the
//! precise reason it cannot, and every reading of a scrambled text that it
//! made, for the file's `decisions`. Nothing is guessed: a text that reads
//! two ways stays `missing`.
//!
//! The shapes, in the order they are tried:
//!
//! - no weapon: a close-combat-only profile of a unit with two profiles;
//! - several profiles in one: `A OR B`, `X Mode : A Y Mode : B`, range bands
//!   (`0-25cm : A 26-50cm : B`): one line per profile, the mode in brackets;
//! - two weapons on one line (`Heavy Flamer : Lascannon : 75cm, ...`);
//! - the rule is the weapon (`See Special Rules`, `Special`): `Special`,
//!   with the range where one is given;
//! - templates (`LT`, `ST`, a large or small teardrop in words), ranges in
//!   line of sight (`Unlimited in LoS`), a minimum range in words, barrages
//!   with rolled points (`D6+3=BP`), multipliers (`2x`), automatic hits;
//! - a rule written beside the profile (`- See Special Rule`, `- Air to
//!   Air`): the abilities the notation has, else `Special`;
//! - typing slips the text leaves no doubt about (`50cn`, `(-2_`, `(2)` for
//!   a TSM), each written down as a decision.

use muster::notation::netepic::{WeaponAbility, parse_weapon};

/// What the converter makes of one weapon.
#[derive(Debug, Default, PartialEq)]
pub struct Reading {
    /// `Name: value` lines in the notation; none for a close-combat-only
    /// profile.
    pub lines: Vec<String>,
    pub faults: Vec<String>,
    /// Readings of a scrambled text, in our words, for `decisions`.
    pub decisions: Vec<String>,
}

fn tidy(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A weapon name as the notation can hold it (no colon, no brackets).
fn clean_name(raw: &str) -> String {
    tidy(&raw.replace([':', '[', ']', '#', '"', ','], " "))
}

/// Reads `profile`, the catalogue's text for the weapon `name`.
pub fn read(name: &str, profile: &str) -> Reading {
    let mut out = Reading::default();
    let mut name = clean_name(name);
    let mut text = tidy(profile);
    // A range written into the name: `Goliath Mega-Cannon - 50cm-250cm`.
    if let Some((head, r)) = name.clone().split_once(" - ")
        && let Some(r) = range(r.trim())
    {
        name = head.trim().to_string();
        text = format!("{r}, {text}");
    }
    let lower = text.to_ascii_lowercase();

    // A unit with a melee and a ranged profile: the melee one is no weapon,
    // the ranged one is the weapon it names.
    if name.to_ascii_lowercase().starts_with("profile ") {
        if lower == "close combat only" {
            return out;
        }
        if let Some((inner, rest)) = text.split_once(" : ") {
            let named = format!("{} (ranged profile)", clean_name(inner));
            out.decisions.push(format!(
                "`{name}` names a second profile of the unit; its weapon is written `{named}`, the unit's other profile fighting only in close combat."
            ));
            let inner = read(&named, rest);
            out.lines.extend(inner.lines);
            out.faults.extend(inner.faults);
            out.decisions.extend(inner.decisions);
            return out;
        }
    }

    // A second weapon's name run into the line: the first weapon has no
    // profile, the second has this one.
    if let Some((second, rest)) = text.split_once(" : ")
        && !second.contains(|c: char| c.is_ascii_digit())
        && !lower.contains(" mode")
        && !lower.contains("round")
        && !lower.contains("fire :")
    {
        out.lines.push(format!("{name}: missing"));
        out.faults.push(format!(
            "weapon `{name}`: the catalogue gives it no profile (its line holds the next weapon's); see the army book"
        ));
        out.decisions.push(format!(
            "`{name}`: the catalogue's line runs the name `{}` and its profile into this weapon's; read as two weapons, `{name}` without a profile.",
            clean_name(second)
        ));
        let inner = read(second, rest);
        out.lines.extend(inner.lines);
        out.faults.extend(inner.faults);
        out.decisions.extend(inner.decisions);
        return out;
    }

    // Several profiles in one.
    if let Some(parts) = modes(&text) {
        let mut lines = Vec::new();
        for (mode, body) in &parts {
            let named = format!("{name} ({mode})");
            match one(&named, body, &mut out.decisions) {
                Ok(value) => lines.push(format!("{named}: {value}")),
                Err(why) => {
                    lines.push(format!("{named}: missing"));
                    out.faults
                        .push(format!("weapon `{named}`: {why}; see the army book"));
                }
            }
        }
        out.lines = lines;
        return out;
    }

    match one(&name, &text, &mut out.decisions) {
        Ok(value) => out.lines.push(format!("{name}: {value}")),
        Err(why) => {
            out.lines.push(format!("{name}: missing"));
            out.faults
                .push(format!("weapon `{name}`: {why}; see the army book"));
        }
    }
    out
}

/// Reads a titan weapon's profile, given as a range and a shooting profile
/// (`Penetration Mode : 6BP 4+ (-1) Shotgun Mode : ...` with one range, or
/// a range and a profile per mode, or range bands in the range), with
/// `Special` on every profile read where the weapon has a rule in prose.
pub fn titan(name: &str, range: &str, body: &str, prose: bool) -> Reading {
    let range = tidy(range);
    let body = tidy(body);
    let text = if body.is_empty() && !range.contains(" : ") {
        String::new()
    } else if body.eq_ignore_ascii_case("see range profile") {
        range.clone()
    } else if range.contains(" : ") {
        // A range per mode and a profile per mode, paired by the mode's
        // first word (`Klanger Round : 100cm` and `Klanger : 1d 3+ (-3)`).
        match (labelled(&range), labelled(&body)) {
            (Some(ranges), Some(bodies)) if ranges.len() == bodies.len() => {
                let first = |l: &str| {
                    l.split_whitespace()
                        .next()
                        .unwrap_or_default()
                        .to_ascii_lowercase()
                };
                let mut parts = Vec::new();
                for (label, r) in &ranges {
                    match bodies.iter().find(|(b, _)| first(b) == first(label)) {
                        Some((_, b)) => parts.push(format!("{label} : {r}, {b}")),
                        None => return unread(name),
                    }
                }
                parts.join(" ")
            }
            _ => return unread(name),
        }
    } else {
        // `Concentrated Fire - A Spread Fire - B`: modes named with ` - `.
        if body.matches(" Fire - ").count() > 1 {
            format!("{range}, {}", body.replace(" Fire - ", " Fire : "))
        } else if prose {
            // One profile: `Special` may stand for what the rule sets.
            format!("{range}, {body} - See Special Rules")
        } else {
            format!("{range}, {body}")
        }
    };
    let mut out = read(name, &text);
    if prose {
        for line in &mut out.lines {
            if let Ok(mut w) = parse_weapon(line)
                && let Some(p) = &mut w.profile
                && !p.abilities.contains(&WeaponAbility::Special)
            {
                p.abilities.push(WeaponAbility::Special);
                *line = w.to_string();
            }
        }
    }
    out
}

fn unread(name: &str) -> Reading {
    Reading {
        lines: vec![format!("{name}: missing")],
        faults: vec![format!(
            "weapon `{name}`: the catalogue's ranges and profiles of its modes do not pair up; see the army book"
        )],
        decisions: Vec::new(),
    }
}

/// `Energized Mode : 100cm Overcharged Mode : 150cm` as its labels and
/// values.
fn labelled(text: &str) -> Option<Vec<(String, String)>> {
    let pieces: Vec<&str> = text.split(" : ").collect();
    if pieces.len() < 2 {
        return None;
    }
    let mut labels = vec![pieces[0].trim().to_string()];
    let mut values = Vec::new();
    for piece in &pieces[1..pieces.len() - 1] {
        let words: Vec<&str> = piece.split_whitespace().collect();
        let at = words.iter().rposition(|w| {
            w.ends_with(')') || w.ends_with('+') || w.ends_with("cm") || w.parse::<u32>().is_ok()
        })?;
        let (value, label) = words.split_at(at + 1);
        if label.is_empty() {
            return None;
        }
        values.push(value.join(" "));
        labels.push(label.join(" "));
    }
    values.push(pieces[pieces.len() - 1].trim().to_string());
    Some(labels.into_iter().zip(values).collect())
}

/// The profiles of a text holding several: `A OR B` (`profile 1`,
/// `profile 2`), `Penetration Mode : A Blast Mode : B` (the modes named),
/// range bands (`0-25cm : A 26-50cm : B`).
fn modes(text: &str) -> Option<Vec<(String, String)>> {
    if text.contains(" OR ") {
        let parts: Vec<&str> = text.split(" OR ").collect();
        return Some(
            parts
                .iter()
                .enumerate()
                .map(|(i, p)| (format!("profile {}", i + 1), p.trim().to_string()))
                .collect(),
        );
    }
    // `Label : body` pairs, a label being the words before ` : `.
    let pieces: Vec<&str> = text.split(" : ").collect();
    if pieces.len() < 3 {
        return None;
    }
    // pieces[0] is the first label; each middle piece ends with the next
    // label, which starts at its last capitalised run of words (`... (0)
    // Shotgun Mode`) or at a range band (`... Penetrating +5 26-50cm`).
    // `100cm, Penetration Mode : ...`: a range for every mode.
    let (shared, first) = match pieces[0].split_once(", ") {
        Some((r, label)) if range(r.trim()).is_some() => (Some(r.trim().to_string()), label),
        _ => (None, pieces[0]),
    };
    let mut labels = vec![first.trim().to_string()];
    let mut bodies = Vec::new();
    for piece in &pieces[1..pieces.len() - 1] {
        let words: Vec<&str> = piece.split_whitespace().collect();
        let at = words
            .iter()
            .rposition(|w| w.ends_with(')') || w.ends_with('+') || w.parse::<u32>().is_ok())?;
        let (body, label) = words.split_at(at + 1);
        if label.is_empty() {
            return None;
        }
        bodies.push(body.join(" "));
        labels.push(label.join(" "));
    }
    bodies.push(pieces[pieces.len() - 1].trim().to_string());
    let bands = labels.iter().all(|l| band(l).is_some());
    let named = labels
        .iter()
        .all(|l| l.ends_with("Mode") || l.ends_with("Round") || l.ends_with("Fire"));
    if !bands && !named {
        return None;
    }
    Some(
        labels
            .into_iter()
            .zip(bodies)
            .map(|(label, body)| match band(&label) {
                // A range band is the profile's range.
                Some(range) => (label, format!("{range}, {body}")),
                None => match &shared {
                    Some(r) => (label.to_ascii_lowercase(), format!("{r}, {body}")),
                    None => (label.to_ascii_lowercase(), body),
                },
            })
            .collect(),
    )
}

/// `0-25cm` as the range `25cm`, `26-50cm` as `26-50cm`.
fn band(label: &str) -> Option<String> {
    let cm = label.strip_suffix("cm")?;
    let (a, b) = cm.split_once('-')?;
    let (a, b) = (a.parse::<u32>().ok()?, b.parse::<u32>().ok()?);
    (a < b).then(|| {
        if a == 0 {
            format!("{b}cm")
        } else {
            format!("{a}-{b}cm")
        }
    })
}

/// Why a text cannot be read, in our words.
type Why = String;

/// One profile in the notation, or why not.
fn one(name: &str, text: &str, decisions: &mut Vec<String>) -> Result<String, Why> {
    let lower = text.to_ascii_lowercase();
    if text.is_empty() {
        return Err("the catalogue leaves the profile blank".into());
    }
    if lower.starts_with("see ") || lower == "special" || lower.starts_with("special rules") {
        return Ok("Special".into());
    }
    if lower.contains("special rules for") {
        return Err("a rule of the army book sets part of its profile (its barrage points or to-hit roll), which the notation does not hold beside the rest".into());
    }
    if lower.contains("counter") {
        return Err("its profile depends on the plasma counters given to it each turn".into());
    }
    if lower.contains("d6x10cm") {
        return Err("its range is rolled each time it fires".into());
    }
    if lower.contains("(4+,5+,6+)") || lower.contains("(4+, 5+, 6+)") {
        return Err("the catalogue gives a to-hit roll for each attack die, a rule of the army book the notation does not hold".into());
    }
    if lower.contains("lbp") {
        return Err("`LBP` reads both as barrage points and as large barrages".into());
    }
    if lower.contains(" d18 ") || lower.starts_with("d18") || lower.contains(", d18") {
        return Err(
            "the attack dice are written `d18`, which reads neither as a number of dice nor as a die".into(),
        );
    }
    if lower.ends_with(',') {
        return Err("the catalogue's profile stops after the range".into());
    }
    if text.starts_with('(') && text.ends_with(')') {
        return Err(
            "the catalogue gives no attack dice (the profile is bracketed, its TSM without brackets)".into(),
        );
    }
    // A template of the army book's own (not one of the core rules'
    // four): where it falls and what it does are its rule.
    for own in ["Warp Template", "Triangle Template"] {
        if let Some(at) = text.find(own) {
            let before = &text[..at];
            let after = text[at + own.len()..].split(" - ").next().unwrap_or_default();
            return one(name, &format!("{before}Special{after}"), decisions);
        }
    }
    if let Some(which) = unnamed_template(&lower) {
        return Err(format!(
            "the catalogue names {which}, not one of the core rules' four (large and small teardrop, standard and large barrage)"
        ));
    }

    let mut t = text.to_string();
    // The parts before and after the profile: ` - rule` or a rule written
    // inside the TSM's brackets.
    let (main, tail) = match t.split_once(" - ") {
        Some((m, rest)) => (m.trim().to_string(), rest.trim().to_string()),
        None => (t.clone(), String::new()),
    };
    t = main;
    let mut clauses: Vec<String> = tail.split(',').map(tidy).filter(|c| !c.is_empty()).collect();

    // Slips, each a decision.
    let mut slip = |from: &str, to: &str, why: &str, t: &mut String| {
        if t.contains(from) {
            *t = t.replace(from, to);
            decisions.push(format!(
                "`{name}`: the catalogue writes `{from}`; read as `{to}` ({why})."
            ));
        }
    };
    for unit in ["50cn", "75c,"] {
        let to = if unit == "50cn" { "50cm" } else { "75cm," };
        slip(unit, to, "a centimetre range mistyped", &mut t);
    }
    slip("_-", "(-", "a bracket mistyped", &mut t);
    slip(" 2s ", " 2d ", "attack dice mistyped, `s` for `d`", &mut t);
    if t.ends_with('_') {
        let fixed = format!("{})", t.trim_end_matches('_'));
        decisions.push(format!(
            "`{name}`: the catalogue closes the TSM with `_`; read as `)` (a bracket mistyped)."
        ));
        t = fixed;
    }

    // Words the notation writes shorter.
    for (from, to) in [
        ("Large Teardrop", "LT"),
        ("Unlimited in LoS", "LoS"),
        ("Unlimited in LOS", "LoS"),
        ("Auto Hit", "auto"),
        ("=BP", "BP"),
        (" Varies", ""),
        ("8BP per Template", "8BP"),
        ("Barrage Template", "SB"),
    ] {
        t = t.replace(from, to);
    }
    if let Some(rest) = t.strip_prefix("Large Template") {
        decisions.push(format!(
            "`{name}`: the catalogue names a large template for a flamer; read as the large teardrop (LT), the template the rules give flamers."
        ));
        t = format!("LT{rest}");
    }
    if let Some(rest) = t.strip_prefix("ST (5x10cm)") {
        decisions.push(format!(
            "`{name}`: the catalogue gives the template's size (5 by 10 cm), the size of the rules' small teardrop: read as ST."
        ));
        t = format!("ST{rest}");
    }
    if let Some(rest) = t.strip_prefix("Minimum ")
        && let Some((range, rest)) = rest.split_once(',')
        && let Some((a, b)) = range.split_once('/')
    {
        t = format!("{}-{}, {rest}", a.trim().trim_end_matches("cm"), b.trim());
    }
    // A TSM written with words: `-3TSM`, `(-D3 TSM)`, `(Special)`,
    // `(See Special rules)`.
    t = t.replace(" TSM)", ")");
    if let Some(at) = t.find("TSM") {
        let before = t[..at].trim_end();
        let start = before.rfind([' ', ',']).map_or(0, |i| i + 1);
        t = format!(
            "{} ({})",
            before[..start].trim_end().trim_end_matches(','),
            &before[start..]
        );
    }
    // `D3 additonal (see Special Rules)` inside the profile: a rule.
    let lower_t = t.to_ascii_lowercase();
    if let Some(at) = lower_t.find(", d3 additonal (see special rules)") {
        t = format!(
            "{}{}",
            &t[..at],
            &t[at + ", D3 additonal (see Special Rules)".len()..]
        );
        clauses.push("Special".into());
    }
    let lower_t = t.to_ascii_lowercase();
    if let Some(at) = lower_t.find("(special)").or_else(|| lower_t.find("(see special")) {
        t = format!("{} Special", t[..at].trim_end());
    }
    // `See Special Rules` where a figure would be.
    for from in [
        "See Special Rules",
        "See Special Rule",
        "See special rules",
        "See special rule",
    ] {
        t = t.replace(from, "Special");
    }
    // Rules written inside the TSM's brackets: `(-2, D3 hits, Damages
    // Buildings)`.
    if let Some(open) = t.rfind('(')
        && let Some(close) = t[open..].find(')').map(|c| c + open)
        && t[open..close].contains(',')
    {
        let inner = t[open + 1..close].to_string();
        let mut parts = inner.split(',').map(tidy);
        let tsm = parts.next().unwrap_or_default();
        clauses.extend(parts);
        let after = t[close + 1..].to_string();
        t = format!("{}({tsm}){after}", &t[..open]);
    }
    // `4+, D3 Hits, (-2)`: a clause in the middle.
    if let Some(at) = t.find(" Hits,") {
        let before = &t[..at];
        let start = before.rfind(' ').map_or(0, |i| i + 1);
        clauses.push(format!("{} Hits", &before[start..]));
        t = format!("{}{}", &t[..start], &t[at + " Hits,".len()..]);
    }
    // A rule run after the TSM without ` - `: `(-2) Ground to Ground, Turret`.
    if tail.is_empty()
        && let Some(close) = t.rfind(')')
        && close + 1 < t.len()
    {
        clauses.extend(t[close + 1..].split(',').map(tidy).filter(|c| !c.is_empty()));
        t = t[..=close].to_string();
    }

    // The words of the profile.
    let words: Vec<String> = t
        .replace(',', " ")
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let mut p = Parts::default();
    let mut i = 0;
    while i < words.len() {
        let w = words[i].as_str();
        if let Some(n) = w.strip_suffix('x').and_then(|n| n.parse::<u32>().ok()) {
            if p.times.is_some() || p.attacks.is_some() {
                return Err(format!("`{w}` is not where a multiplier stands"));
            }
            p.times = Some(n);
        } else if let Some(r) = range(w) {
            if p.range.is_some() || p.attacks.is_some() {
                return Err("it gives two ranges (a distance and a template)".into());
            }
            p.range = Some(r);
        } else if let Some(a) = attacks(w) {
            if p.attacks.is_some() || p.to_hit.is_some() {
                return Err("two attack values".into());
            }
            p.attacks = Some(a);
        } else if w == "auto" || roll(w).is_some() {
            if p.to_hit.is_some() || p.tsm.is_some() {
                return Err("two to-hit rolls".into());
            }
            // A bare count before the to-hit is the attack dice.
            p.to_hit = Some(w.to_string());
        } else if let Some(tsm) = tsm(w) {
            if p.tsm.is_some() {
                return Err("two TSMs".into());
            }
            let positive = w.trim_matches(['(', ')']);
            if positive.parse::<u32>().is_ok_and(|n| n > 0) {
                decisions.push(format!(
                    "`{name}`: the catalogue writes the TSM `{w}`, without its sign; a TSM is a penalty to the save (core rules, Appendix A), so read as `{tsm}`."
                ));
            }
            p.tsm = Some(tsm);
        } else if w.eq_ignore_ascii_case("special") {
            p.special = true;
        } else if let Some(n) = bare_count(w)
            && p.attacks.is_none()
            && p.to_hit.is_none()
            && words.get(i + 1).is_some_and(|next| roll(next).is_some())
        {
            decisions.push(format!(
                "`{name}`: the catalogue gives the attack dice as `{w}`, without `d`; read as `{n}d` (the figure between range and to-hit)."
            ));
            p.attacks = Some(format!("{n}d"));
        } else {
            return Err(format!("`{w}` is not part of a weapon profile the rules define"));
        }
        i += 1;
    }
    // The clauses: abilities the notation has, or `Special`.
    let mut abilities: Vec<String> = Vec::new();
    let mut special = p.special;
    for c in &clauses {
        match clause(c) {
            Clause::Ability(a) => {
                if !abilities.contains(&a) {
                    abilities.push(a)
                }
            }
            Clause::Times(n) => {
                if p.times.is_some() {
                    return Err("two multipliers".into());
                }
                p.times = Some(n);
            }
            Clause::Rule => special = true,
        }
    }
    if special {
        abilities.push("Special".into());
    }
    if p.tsm.is_none() {
        if !special {
            return Err("the catalogue gives no TSM".into());
        }
        // `Special` stands in place of the TSM: first of the abilities.
        abilities.retain(|a| a != "Special");
        abilities.insert(0, "Special".into());
    }
    let mut value = Vec::new();
    value.extend(p.times.map(|n| format!("{n}x")));
    value.extend(p.range);
    value.extend(p.attacks);
    value.extend(p.to_hit);
    value.extend(p.tsm);
    if !abilities.is_empty() {
        value.push(abilities.join(", "));
    }
    let value = value.join(" ");
    // The notation must take it back.
    match parse_weapon(&format!("{name}: {value}")) {
        Ok(w) if w.to_string() == format!("{name}: {value}") => Ok(value),
        _ => Err(format!("`{value}` does not read back in the notation")),
    }
}

#[derive(Default)]
struct Parts {
    times: Option<u32>,
    range: Option<String>,
    attacks: Option<String>,
    to_hit: Option<String>,
    tsm: Option<String>,
    special: bool,
}

/// Which template a text names without saying which, if it does.
fn unnamed_template(lower: &str) -> Option<&'static str> {
    if lower.contains("triangle template") {
        Some("a triangle template")
    } else if lower.contains("cm template") {
        Some("a template by its size")
    } else if lower.contains("template")
        && !lower.contains("barrage template")
        && !lower.contains("large template")
        && !lower.contains("per template")
    {
        Some("a template")
    } else {
        None
    }
}

fn roll(w: &str) -> Option<u32> {
    w.strip_suffix('+')?
        .parse::<u32>()
        .ok()
        .filter(|n| (1..=6).contains(n))
}

fn range(w: &str) -> Option<String> {
    match w {
        "LT" | "ST" | "LoS" | "CC" => return Some(w.to_string()),
        _ => {}
    }
    let cm = w.strip_suffix("cm")?;
    if let Some((a, b)) = cm.split_once('-') {
        let (a, b) = (
            a.trim_end_matches("cm").parse::<u32>().ok()?,
            b.parse::<u32>().ok()?,
        );
        return (a < b).then(|| format!("{a}-{b}cm"));
    }
    cm.parse::<u32>().ok().map(|n| format!("{n}cm"))
}

/// `2`, `D6`, `D6+3`, `2-10`.
fn count(raw: &str) -> Option<String> {
    if let Ok(n) = raw.parse::<u32>() {
        return Some(n.to_string());
    }
    if let Some(d) = raw.strip_prefix('D') {
        if let Some((d, plus)) = d.split_once('+') {
            return Some(format!(
                "D{}+{}",
                d.parse::<u32>().ok()?,
                plus.parse::<u32>().ok()?
            ));
        }
        return d.parse::<u32>().ok().map(|d| format!("D{d}"));
    }
    let (a, b) = raw.split_once('-')?;
    let (a, b) = (a.parse::<u32>().ok()?, b.parse::<u32>().ok()?);
    (a < b).then(|| format!("{a}-{b}"))
}

/// A count without its kind, as attack dice: `2`, `D6`.
fn bare_count(w: &str) -> Option<String> {
    if w.contains('-') {
        return None;
    }
    count(w)
}

fn attacks(w: &str) -> Option<String> {
    for kind in ["BP", "SB", "LB"] {
        if let Some(n) = w.strip_suffix(kind) {
            return if n.is_empty() {
                Some(kind.into())
            } else {
                count(n).map(|n| format!("{n}{kind}"))
            };
        }
    }
    let n = w.strip_suffix('d')?;
    count(n).map(|n| format!("{n}d"))
}

/// `(0)`, `(-2)`, `(-D3)`; a TSM without its sign, `(2)`, is a penalty.
fn tsm(w: &str) -> Option<String> {
    let inner = w.strip_prefix('(')?.strip_suffix(')')?.trim();
    if inner == "0" || inner == "-0" {
        return Some("(0)".into());
    }
    let n = inner.strip_prefix('-').unwrap_or(inner);
    if let Ok(n) = n.parse::<u32>() {
        return Some(format!("(-{n})"));
    }
    let d = n.strip_prefix('D')?.parse::<u32>().ok()?;
    Some(format!("(-D{d})"))
}

enum Clause {
    Ability(String),
    Times(u32),
    Rule,
}

/// A clause written beside a profile: a weapon ability the notation has,
/// how many times the weapon fires, or a rule of the army book.
fn clause(c: &str) -> Clause {
    let lower = c.to_ascii_lowercase();
    let known = [
        ("turret", "Turret"),
        ("one shot", "One Shot"),
        ("ignores cover", "Ignores Cover"),
        ("damages buildings", "Damages Buildings"),
        ("destroys buildings", "Destroys Buildings"),
        ("anti-aircraft", "Anti-Aircraft"),
        ("360° arc of fire", "Turret"),
    ];
    if let Some((_, a)) = known.iter().find(|(k, _)| *k == lower) {
        return Clause::Ability(a.to_string());
    }
    if let Some(n) = lower
        .strip_prefix("penetrating +")
        .and_then(|n| n.parse::<u32>().ok())
    {
        return Clause::Ability(format!("Penetrating +{n}"));
    }
    if let Some(n) = lower
        .strip_suffix(" hits")
        .and_then(|n| count(&n.to_ascii_uppercase()))
    {
        return Clause::Ability(format!("{n} Hits"));
    }
    let number = |w: &str| match w {
        "one" => Some(1),
        "two" => Some(2),
        "three" => Some(3),
        w => w.parse::<u32>().ok(),
    };
    if let Some(n) = lower.strip_suffix(" shots per game").and_then(number) {
        return Clause::Ability(format!("{n} Shots per Game"));
    }
    if lower == "fires twice" {
        return Clause::Times(2);
    }
    if let Some(n) = lower
        .strip_prefix("fires ")
        .and_then(|r| r.strip_suffix(" times per turn"))
        .and_then(number)
    {
        return Clause::Times(n);
    }
    Clause::Rule
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(name: &str, text: &str) -> Vec<String> {
        read(name, text).lines
    }

    #[test]
    fn templates_and_ranges() {
        assert_eq!(lines("Heavy Flamer", "LT 4+ (0)"), ["Heavy Flamer: LT 4+ (0)"]);
        let r = read("Heavy Flamer", "Large Template 5+ (0)");
        assert_eq!(r.lines, ["Heavy Flamer: LT 5+ (0)"]);
        assert_eq!(r.decisions.len(), 1);
        assert_eq!(
            lines("Web Spinner", "ST (5x10cm) 3+ (0)"),
            ["Web Spinner: ST 3+ (0)"]
        );
        assert_eq!(
            lines("Siege Mortar", "Minimum 50cm/150cm, 3BP (-3)"),
            ["Siege Mortar: 50-150cm 3BP (-3)"]
        );
        assert_eq!(
            lines("Magna Kannon", "LoS, 1d 5+ (0)"),
            ["Magna Kannon: LoS 1d 5+ (0)"]
        );
        assert_eq!(
            lines("Barrage Missile Launcher", "Unlimited in LoS, 8BP 3+ (-2)"),
            ["Barrage Missile Launcher: LoS 8BP 3+ (-2)"]
        );
        // A template the text does not name stays missing.
        let r = read("Pyro-Acid Spray", "Template, 3+ (-2)");
        assert_eq!(r.lines, ["Pyro-Acid Spray: missing"]);
        assert!(
            r.faults[0].contains("not one of the core rules' four"),
            "{:?}",
            r.faults
        );
    }

    #[test]
    fn barrages() {
        assert_eq!(lines("Thudd Gun", "2BP, (0)"), ["Thudd Gun: 2BP (0)"]);
        assert_eq!(lines("Tesla Cannon", "4BP, 5+ (0)"), ["Tesla Cannon: 4BP 5+ (0)"]);
        assert_eq!(lines("Melta Bombs", "D6+2=BP (-2)"), ["Melta Bombs: D6+2BP (-2)"]);
        assert_eq!(
            lines("Imperator Main Battery", "200cm, D6+3BP, -3TSM"),
            ["Imperator Main Battery: 200cm D6+3BP (-3)"]
        );
        assert_eq!(
            lines("Doomsday Cannon", "200cm, D6+3BP Varies (-3)"),
            ["Doomsday Cannon: 200cm D6+3BP (-3)"]
        );
        assert_eq!(
            lines("Doomsday Cannon", "200cm, D6+3=BP, (-3) - 90° Front Arc"),
            ["Doomsday Cannon: 200cm D6+3BP (-3) Special"]
        );
        assert_eq!(
            lines("Ancient Plague Cannon", "2x 8BP 3+ (-1)"),
            ["Ancient Plague Cannon: 2x 8BP 3+ (-1)"]
        );
        assert_eq!(
            lines("Doom Mortars", "75cm, 2x 4SB 5+ (-1)"),
            ["Doom Mortars: 2x 75cm 4SB 5+ (-1)"]
        );
        assert_eq!(
            lines("Multi-Launchers", "50cm, 6BP 4+ (-1) - fires twice"),
            ["Multi-Launchers: 2x 50cm 6BP 4+ (-1)"]
        );
        assert_eq!(
            lines("Scarab Swarm", "25cm, 4BP 5+ (0) - fires 3 times per turn"),
            ["Scarab Swarm: 3x 25cm 4BP 5+ (0)"]
        );
        assert_eq!(
            lines("Void Spinner", "100cm, 8SB, 3+ (-3)"),
            ["Void Spinner: 100cm 8SB 3+ (-3)"]
        );
        let r = read(
            "Multiple Rocket Launcher",
            "100cm, Penetration Mode : 6BP 4+ (-1) Shotgun Mode : 4LBP 5+ (0)",
        );
        assert_eq!(
            r.lines,
            [
                "Multiple Rocket Launcher (penetration mode): 100cm 6BP 4+ (-1)",
                "Multiple Rocket Launcher (shotgun mode): missing",
            ]
        );
        assert!(r.faults[0].contains("LBP"), "{r:?}");
        assert_eq!(
            lines("Goliath Mega-Cannon - 50cm-250cm", "D6+4=BP (-3)"),
            ["Goliath Mega-Cannon: 50-250cm D6+4BP (-3)"]
        );
    }

    #[test]
    fn the_rule_is_the_weapon() {
        assert_eq!(
            lines("Nurgle's Rot", "See Special Rule"),
            ["Nurgle's Rot: Special"]
        );
        assert_eq!(lines("Warp Cannon", "Special"), ["Warp Cannon: Special"]);
        assert_eq!(
            lines("Vibro-Cannon", "75cm, See Special Rules"),
            ["Vibro-Cannon: 75cm Special"]
        );
        assert_eq!(
            lines("Stasis Beam", "75cm - See Special Rules"),
            ["Stasis Beam: 75cm Special"]
        );
        assert_eq!(
            lines("Lightning Claw", "CC, See Special Rules"),
            ["Lightning Claw: CC Special"]
        );
        assert_eq!(
            lines("Trident", "25cm, 1d 3+ (Special)"),
            ["Trident: 25cm 1d 3+ Special"]
        );
        assert_eq!(
            lines("Neuro-Disruptor Missiles", "75cm, 4+ (See Special rules)"),
            ["Neuro-Disruptor Missiles: 75cm 4+ Special"]
        );
        assert_eq!(
            lines("Plague Catapult", "75cm, 2SB (0) - See Special Rules"),
            ["Plague Catapult: 75cm 2SB (0) Special"]
        );
        assert_eq!(
            lines("Psychic Blaster", "LT - Special"),
            ["Psychic Blaster: LT Special"]
        );
        assert_eq!(
            lines("Vortex Missile", "Unlimited in LoS, See Special Rules"),
            ["Vortex Missile: LoS Special"]
        );
        assert_eq!(
            lines("Harpoon Missile", "Unlimited in LoS, Auto Hit (-2)"),
            ["Harpoon Missile: LoS auto (-2)"]
        );
        assert_eq!(
            lines("Heavy Flamer", "5cm, 1d Auto Hit (0)"),
            ["Heavy Flamer: 5cm 1d auto (0)"]
        );
        // A template of the army book's own.
        assert_eq!(
            lines("Snapper", "Triangle Template, 2+ (0)"),
            ["Snapper: 2+ (0) Special"]
        );
        assert_eq!(
            lines(
                "Warp Missile",
                "Unlimited in LOS, Warp Template - hits all on a 3+ except buildings"
            ),
            ["Warp Missile: LoS Special"]
        );
    }

    #[test]
    fn rules_beside_a_profile() {
        assert_eq!(
            lines("Battlecannons", "3d 4+ (-2) - Air to Air, Turret"),
            ["Battlecannons: 3d 4+ (-2) Turret, Special"]
        );
        let r = read("Lascannons", "75cm, 2 4+ (-2) Ground to Ground, Turret");
        assert_eq!(r.lines, ["Lascannons: 75cm 2d 4+ (-2) Turret, Special"]);
        assert_eq!(r.decisions.len(), 1, "{r:?}");
        assert_eq!(
            lines("Hunter-Killer Missiles", "50cm, 1d 4+ (-2) - Two Shots per game"),
            ["Hunter-Killer Missiles: 50cm 1d 4+ (-2) 2 Shots per Game"]
        );
        assert_eq!(
            lines(
                "Last Word Railgun",
                "125cm, 2d 3+ (-5) - 360° arc of fire, Destroys Buildings, Penetrating +3, downs D3 shields per hit"
            ),
            ["Last Word Railgun: 125cm 2d 3+ (-5) Turret, Destroys Buildings, Penetrating +3, Special"]
        );
        assert_eq!(
            lines("Reaper (Single Target)", "75cm, 4+, D3 Hits, (-2)"),
            ["Reaper (Single Target): 75cm 4+ (-2) D3 Hits"]
        );
        assert_eq!(
            lines("Bombs", "2-10SB, D3 additonal (see Special Rules), (-1)"),
            ["Bombs: 2-10SB (-1) Special"]
        );
    }

    #[test]
    fn several_profiles_in_one() {
        assert_eq!(
            lines(
                "2x Pulse Laser",
                "75cm, 1d 3+ (-2, D3 hits, Damages Buildings) OR 8BP, 3+ (0)"
            ),
            [
                "2x Pulse Laser (profile 1): 75cm 1d 3+ (-2) D3 Hits, Damages Buildings",
                "2x Pulse Laser (profile 2): 8BP 3+ (0)",
            ]
        );
        assert_eq!(
            lines(
                "Railcannons",
                "Penetration Mode : 2d 4+ (-4) Blast Mode : 2x 6BP 4+ (0)"
            ),
            [
                "Railcannons (penetration mode): 2d 4+ (-4)",
                "Railcannons (blast mode): 2x 6BP 4+ (0)",
            ]
        );
        assert_eq!(
            lines(
                "Heat Lance",
                "0-25cm : 1d 2+ (-5) - Penetrating +5 26-50cm : 1d 3+ (-4) - Penetrating +4 51-75cm : 1d 4+ (-3) - Penetrating +3"
            ),
            [
                "Heat Lance (0-25cm): 25cm 1d 2+ (-5) Penetrating +5",
                "Heat Lance (26-50cm): 26-50cm 1d 3+ (-4) Penetrating +4",
                "Heat Lance (51-75cm): 51-75cm 1d 4+ (-3) Penetrating +3",
            ]
        );
        let r = read("Profile 2 (Ranged)", "Heavy Weapons : 75cm, 2d 5+ (-1)");
        assert_eq!(r.lines, ["Heavy Weapons (ranged profile): 75cm 2d 5+ (-1)"]);
        assert_eq!(read("Profile 1 (Melee)", "Close Combat Only"), Reading::default());
    }

    #[test]
    fn titan_weapons_of_several_modes() {
        let r = titan(
            "Plasma Annihilator",
            "Energized Mode : 100cm Overcharged Mode : 150cm",
            "Energized Mode : 2d 4+ (-4) Overcharged Mode : 3d 3+ (-6)",
            true,
        );
        assert_eq!(
            r.lines,
            [
                "Plasma Annihilator (energized mode): 100cm 2d 4+ (-4) Special",
                "Plasma Annihilator (overcharged mode): 150cm 3d 3+ (-6) Special",
            ]
        );
        let r = titan(
            "Magnum Mega-Kannon",
            "Klanger Round : 100cm Banger Round : 75cm",
            "Klanger : 1d 3+ (-3) Banger : 8BP, 3+ (0)",
            false,
        );
        assert_eq!(
            r.lines,
            [
                "Magnum Mega-Kannon (klanger round): 100cm 1d 3+ (-3)",
                "Magnum Mega-Kannon (banger round): 75cm 8BP 3+ (0)",
            ]
        );
        let r = titan(
            "Pulsar",
            "100cm",
            "Concentrated Fire - 1d 2+ (-2, D3 Hits, Damages Buildings) Spread Fire - 10BP 2+ (0)",
            false,
        );
        assert_eq!(
            r.lines,
            [
                "Pulsar (concentrated fire): 100cm 1d 2+ (-2) D3 Hits, Damages Buildings",
                "Pulsar (spread fire): 100cm 10BP 2+ (0)",
            ]
        );
        let r = titan(
            "Heat Lance",
            "0-25cm : 1d 2+ (-5) - Penetrating +5 26-50cm : 1d 3+ (-4) - Penetrating +4",
            "See range profile",
            false,
        );
        assert_eq!(
            r.lines,
            [
                "Heat Lance (0-25cm): 25cm 1d 2+ (-5) Penetrating +5",
                "Heat Lance (26-50cm): 26-50cm 1d 3+ (-4) Penetrating +4",
            ]
        );
        // A blank profile stays missing.
        assert_eq!(
            titan("Leviathan Lascannon Array", "75cm", "", true).lines,
            ["Leviathan Lascannon Array: missing"]
        );
    }

    #[test]
    fn slips_are_read_once_and_written_down() {
        for (text, want) in [
            ("50cn, 1d 5+ (0)", "50cm 1d 5+ (0)"),
            ("75c, 2d 5+ (-1)", "75cm 2d 5+ (-1)"),
            ("15cm, 1d 3+ _-3)", "15cm 1d 3+ (-3)"),
            ("25cm, 1d 3+ (-2_", "25cm 1d 3+ (-2)"),
            ("25cm, 1d 3+ (2)", "25cm 1d 3+ (-2)"),
            ("50cm, 2s 5+ (-1)", "50cm 2d 5+ (-1)"),
            ("50cm, D6, 5+ (-1)", "50cm D6d 5+ (-1)"),
            ("50cm, 1d 5+ (-D3 TSM)", "50cm 1d 5+ (-D3)"),
        ] {
            let r = read("Gun", text);
            assert_eq!(r.lines, [format!("Gun: {want}")], "{text}");
            if !text.contains("TSM)") {
                assert_eq!(r.decisions.len(), 1, "{text}: {r:?}");
            }
        }
        let r = read("Heavy Flamer", "Lascannon : 75cm, 2d 4+ (-2)");
        assert_eq!(r.lines, ["Heavy Flamer: missing", "Lascannon: 75cm 2d 4+ (-2)"]);
        assert_eq!(r.faults.len(), 1);
    }

    #[test]
    fn what_reads_two_ways_stays_missing_with_its_reason() {
        for (text, why) in [
            ("(50cm, 4+ -3)", "no attack dice"),
            ("20cm, LT 3+ (-6)", "two ranges"),
            ("20cm, d18 3+ (-1)", "d18"),
            ("25cm,", "stops after the range"),
            ("", "blank"),
            ("50cm, 3d (4+,5+,6+) (0)", "for each attack die"),
            ("2d6x10cm, Special 4+ (0)", "rolled"),
            ("LoS, 12cm Template, 1d 3+ (-1)", "by its size"),
        ] {
            let r = read("Gun", text);
            assert_eq!(r.lines, ["Gun: missing"], "{text}");
            assert!(r.faults[0].contains(why), "{text}: {:?}", r.faults);
        }
    }
}
