//! Event files: what an organiser adds to the lists' own rules for one
//! event: the points limit, the lists and versions allowed, whether
//! 'Counts As' is allowed, and extra restrictions in the constraint
//! language. `muster check --event EVENT.yaml` applies them to every roster.
//!
//! This module reads and compiles event files; `check` applies them.

use crate::catalogue::locate;
use crate::catalogue::raw::{Constraint as RawConstraint, GameId};
use crate::catalogue::scenarios::{self, ScenarioLookup};
use crate::catalogue::schema_words;
use crate::catalogue::{ArmyList, Catalogue, Constraint};
use crate::diagnostic::{Code, Diagnostic};
use crate::rules::{self, Item};
use crate::source::{SourceFile, Span};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// An event file, as written.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EventFile {
    pub name: String,
    /// `YYYY-MM-DD`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^\d{4}-\d{2}-\d{2}$"))]
    pub date: Option<String>,
    /// When submissions to `muster serve` close: `YYYY-MM-DD` (the end of
    /// that day) or `YYYY-MM-DD HH:MM`, in UTC unless an offset follows
    /// (`Z`, `+01:00`). Until then a player may replace or withdraw their
    /// submission through its private link; after it, neither.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})?)?$"))]
    pub deadline: Option<String>,
    pub game: GameId,
    /// The points limit every roster is built to (1 to 100,000).
    #[schemars(range(min = 1, max = 100_000))]
    pub points: u32,
    /// The lists allowed, with the versions allowed; empty allows every list
    /// of the game in any version.
    #[serde(default)]
    pub lists: Vec<EventList>,
    /// Whether 'Counts As' declarations are allowed.
    #[serde(default = "yes")]
    pub counts_as: bool,
    /// Extra rules for every roster, in the constraint language of list
    /// files (`lists/README.md`). Ids and tags a list lacks match nothing.
    #[serde(default)]
    pub restrictions: Vec<RawConstraint>,
    /// The scenario every game of the event plays, by name or number, in a
    /// game that has scenarios (`lists/<game>/scenarios.yaml`). `points` is
    /// then the agreed size: the side the scenario gives a share of the
    /// other's points gets that share of it, the other side builds to it.
    /// Every roster says its `Side:`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
    /// Optional rules of the game every roster is checked under, as a
    /// roster's `Optional rules:` lines name them (NetEpic Gold: `titan
    /// battle groups`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub optional_rules: Vec<String>,
}

fn yes() -> bool {
    true
}

/// A list allowed at the event.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EventList {
    /// The list's id.
    pub id: String,
    /// The versions allowed; empty allows any.
    #[serde(default)]
    pub versions: Vec<String>,
}

/// A loaded event, its restrictions compiled for each list it allows.
#[derive(Debug)]
pub struct Event {
    pub file: EventFile,
    pub source: SourceFile,
    restrictions: HashMap<String, Vec<Constraint>>,
}

impl Event {
    /// The event's restrictions as they apply to one list.
    pub fn restrictions(&self, list: &ArmyList) -> &[Constraint] {
        self.restrictions.get(&list.id).map_or(&[], Vec::as_slice)
    }

    /// `None` when every list of the game is allowed.
    pub fn allowed(&self, list: &ArmyList) -> Option<&EventList> {
        self.file.lists.iter().find(|l| l.id == list.id)
    }

    pub fn allows(&self, list: &ArmyList) -> bool {
        list.game == self.file.game && (self.file.lists.is_empty() || self.allowed(list).is_some())
    }
}

/// Reads an event file and compiles it against the catalogue. Every problem
/// is reported, with the line it is on.
/// Whether `text` is a real calendar date written `YYYY-MM-DD` (the
/// schema checks only the shape, so `2026-99-99` passed).
fn valid_date(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    let [y, m, d] = parts.as_slice() else { return false };
    if y.len() != 4 || m.len() != 2 || d.len() != 2 {
        return false;
    }
    let (Ok(year), Ok(month), Ok(day)) = (y.parse::<u32>(), m.parse::<u32>(), d.parse::<u32>()) else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// A `date` or `deadline` that is not a real date (and time), at its line.
fn date_problems(file: &EventFile, source: &SourceFile, positions: &locate::Positions) -> Vec<Diagnostic> {
    let mut problems = Vec::new();
    if let Some(date) = file.date.as_deref().filter(|d| !valid_date(d)) {
        problems.push(
            Diagnostic::error(Code::EventFile, format!("`{date}` is not a date"))
                .at(source, positions.span(source, "/date"))
                .fix("write the date as YYYY-MM-DD, e.g. `date: 2026-12-05`"),
        );
    }
    if let Some(deadline) = file.deadline.as_deref().filter(|d| deadline_seconds(d).is_none()) {
        problems.push(
            Diagnostic::error(Code::EventFile, format!("`{deadline}` is not a date and time"))
                .at(source, positions.span(source, "/deadline"))
                .fix("write the deadline as YYYY-MM-DD or YYYY-MM-DD HH:MM (UTC, or with an offset such as +01:00), e.g. `deadline: 2026-12-04 18:00`"),
        );
    }
    problems
}

/// The moment a deadline names, in seconds since 1970 (UTC): a date alone
/// is the end of that day; a time without an offset is UTC. `None` when it
/// is not a real date and time.
pub fn deadline_seconds(text: &str) -> Option<i64> {
    let text = text.trim();
    let date = text.get(..10)?;
    if !valid_date(date) {
        return None;
    }
    let year: i64 = date[..4].parse().ok()?;
    let month: i64 = date[5..7].parse().ok()?;
    let day: i64 = date[8..10].parse().ok()?;
    let days = days_from_civil(year, month, day);
    let rest = &text[10..];
    if rest.is_empty() {
        return Some((days + 1) * 86_400);
    }
    let rest = rest.strip_prefix(['T', ' '])?;
    let two = |s: &str| -> Option<i64> {
        (s.len() == 2 && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok())?
    };
    let (hour, minute) = (two(rest.get(..2)?)?, two(rest.get(3..5)?)?);
    if rest.get(2..3)? != ":" || hour > 23 || minute > 59 {
        return None;
    }
    let offset = match rest.get(5..)? {
        "" | "Z" => 0,
        zone => {
            let sign = match zone.get(..1)? {
                "+" => 1,
                "-" => -1,
                _ => return None,
            };
            let (h, m) = (two(zone.get(1..3)?)?, two(zone.get(4..6)?)?);
            if zone.len() != 6 || zone.get(3..4)? != ":" || h > 14 || m > 59 {
                return None;
            }
            sign * (h * 3600 + m * 60)
        }
    };
    Some(days * 86_400 + hour * 3600 + minute * 60 - offset)
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

// `schema()`: the event file's JSON Schema, `schema/event.schema.json`
// (generated from `EventFile`); and `schema_validator()`, compiled from it
// once.
crate::catalogue::schema::generated!(schema, schema_validator, EventFile, "event");

pub fn load(source: SourceFile, catalogue: &Catalogue) -> Result<Event, Vec<Diagnostic>> {
    let (mut value, positions) = locate::parse_yaml_at(&source, Code::EventFile).map_err(|d| vec![*d])?;
    // `counts_as: yes` means what an organiser thinks it means.
    schema_words::read_booleans(&mut value, schema());
    let mut problems = schema_validator().map_or_else(Vec::new, |validator| {
        schema_words::schema_errors(
            &source,
            &value,
            schema(),
            validator,
            Code::EventFile,
            "`muster event new` prints a commented template; the schema is schema/event.schema.json",
        )
    });
    // With schema errors, what can be read is still checked, so that every
    // problem is told at once, not the rest only once those are fixed.
    let file = if problems.is_empty() {
        serde_json::from_value::<EventFile>(value).map_err(|e| {
            vec![
                Diagnostic::error(Code::EventFile, format!("cannot read the event file: {e}"))
                    .at(&source, source.line_span(1)),
            ]
        })?
    } else {
        match readable_part(&value) {
            Some(file) => file,
            None => return Err(problems),
        }
    };
    let schema_problems = problems.len();
    let (file, restrictions) = check_against(file, catalogue, &source, &positions, &mut problems);
    told_once(&mut problems, schema_problems);
    if problems.is_empty() {
        Ok(Event {
            file,
            source,
            restrictions,
        })
    } else {
        // In line order (a problem with no place last), capped as a
        // roster's findings are.
        problems.sort_by_key(|d| d.primary.as_ref().map_or(usize::MAX, |p| p.span.start));
        Err(crate::diagnostic::cap(problems))
    }
}

/// The game and the lists an event file names, read without the
/// catalogue, so that a check against it loads only those lists; `None`
/// when the file does not say them plainly (everything is loaded then,
/// and [`load`] says what is wrong).
pub fn lists_named(source: &SourceFile) -> Option<crate::catalogue::EventLists> {
    #[derive(Deserialize)]
    struct Named {
        game: GameId,
        #[serde(default)]
        lists: Vec<NamedList>,
    }
    #[derive(Deserialize)]
    struct NamedList {
        id: String,
    }
    let (value, _) = locate::parse_yaml_at(source, Code::EventFile).ok()?;
    let named: Named = serde_json::from_value(value).ok()?;
    Some(crate::catalogue::EventLists {
        game: named.game,
        lists: named.lists.into_iter().map(|l| l.id).collect(),
    })
}

/// The keys of an event file that has schema errors that can still be
/// read, each on its own (a key that cannot is left empty); `None` when
/// the game cannot be read, which every other check needs.
fn readable_part(value: &serde_json::Value) -> Option<EventFile> {
    fn key<T: serde::de::DeserializeOwned + Default>(value: &serde_json::Value, key: &str) -> T {
        value
            .get(key)
            .and_then(|v| serde_json::from_value(v.clone()).ok())
            .unwrap_or_default()
    }
    Some(EventFile {
        game: serde_json::from_value(value.get("game")?.clone()).ok()?,
        name: key(value, "name"),
        date: key(value, "date"),
        deadline: key(value, "deadline"),
        points: key(value, "points"),
        lists: key(value, "lists"),
        counts_as: true,
        restrictions: key(value, "restrictions"),
        scenario: key(value, "scenario"),
        optional_rules: key(value, "optional_rules"),
    })
}

/// One mistake told once: a value the schema refuses that a later check
/// reads again (a date not written `YYYY-MM-DD`, which the schema's
/// pattern and the date check both refuse) keeps only the later check's
/// words, which say more. `problems` holds the schema's first (`schema`
/// of them), then the later checks'.
fn told_once(problems: &mut Vec<Diagnostic>, schema: usize) {
    let later: std::collections::HashSet<Span> = problems[schema.min(problems.len())..]
        .iter()
        .filter_map(|d| d.primary.as_ref().map(|p| p.span))
        // An empty place is no place (a key missing at the top).
        .filter(|span| span.start < span.end)
        .collect();
    let mut index = 0;
    problems.retain(|d| {
        index += 1;
        index > schema || !d.primary.as_ref().is_some_and(|p| later.contains(&p.span))
    });
}

/// Every check of an event file against the catalogue (its dates, lists
/// and their versions, scenario, optional rules and restrictions); the
/// file with its lists named by id, and the restrictions compiled.
fn check_against(
    mut file: EventFile,
    catalogue: &Catalogue,
    source: &SourceFile,
    positions: &locate::Positions,
    problems: &mut Vec<Diagnostic>,
) -> (EventFile, HashMap<String, Vec<Constraint>>) {
    let at = |pointer: &str| positions.span(source, pointer);
    problems.extend(date_problems(&file, source, positions));
    let allowed = allowed_lists(&mut file, catalogue, source, &at, problems);
    problems.extend(scenario_problem(&file, catalogue, source, &at));
    let known = file.game.game().optional_rules;
    for (i, rule) in file.optional_rules.iter().enumerate() {
        if !known.iter().any(|k| crate::catalogue::names::same_thing(rule, k)) {
            let d = Diagnostic::error(
                Code::EventFile,
                format!("{} has no optional rule called `{rule}`", file.game.title()),
            )
            .at(source, at(&format!("/optional_rules/{i}")));
            problems.push(d.hint(file.game.game().optional_rules_hint()));
        }
    }
    let restrictions = compile_restrictions(&file, &allowed, source, &at, problems);
    (file, restrictions)
}

/// The lists the event allows (every list of its game when it names
/// none), each named by its id in `file`; a list muster lacks, or a
/// version pin that is not the list's version, is a problem.
fn allowed_lists<'c>(
    file: &mut EventFile,
    catalogue: &'c Catalogue,
    source: &SourceFile,
    at: &dyn Fn(&str) -> Span,
    problems: &mut Vec<Diagnostic>,
) -> Vec<&'c ArmyList> {
    let mut allowed: Vec<&ArmyList> = Vec::new();
    if file.lists.is_empty() {
        allowed.extend(catalogue.lists.iter().filter(|l| l.game == file.game));
    }
    let game = file.game;
    for (i, entry) in file.lists.iter_mut().enumerate() {
        // By id, name or alias, as a roster names its list; kept as the id.
        let wanted = crate::catalogue::ListName::new(&entry.id);
        match catalogue.lists.iter().find(|l| {
            l.game == game && (l.id == entry.id || l.name_keys.iter().any(|k| wanted.matches_key(k)))
        }) {
            Some(list) => {
                entry.id.clone_from(&list.id);
                allowed.push(list);
                for (j, pin) in entry.versions.iter().enumerate() {
                    if !list.is_version(pin) {
                        problems.push(version_problem(
                            list,
                            pin,
                            source,
                            at(&format!("/lists/{i}/versions/{j}")),
                        ));
                    }
                }
            }
            None => {
                let ids = catalogue
                    .lists
                    .iter()
                    .filter(|l| l.game == game)
                    .map(|l| l.id.as_str());
                let mut d = Diagnostic::error(
                    Code::EventFile,
                    format!("muster has no {} list with the id `{}`", game.title(), entry.id),
                )
                .at(source, at(&format!("/lists/{i}/id")));
                if let Some(s) = crate::diagnostic::nearest(&entry.id, ids) {
                    d = d.label(format!("did you mean `{s}`?")).fix(s.to_string());
                }
                problems.push(d);
            }
        }
    }
    allowed
}

/// A version pin that is not the list's version: no roster built to the
/// list muster has could be allowed.
fn version_problem(list: &ArmyList, pin: &str, source: &SourceFile, span: Span) -> Diagnostic {
    Diagnostic::error(
        Code::EventFile,
        format!(
            "muster has {} only in version `{}`, not `{pin}`",
            list.name, list.version
        ),
    )
    .at(source, span)
    .hint(format!("that is {}", list.version_text()))
    .fix(format!("versions: [\"{}\"]", list.version))
}

/// The scenario named, when the game has no scenario of that name.
fn scenario_problem(
    file: &EventFile,
    catalogue: &Catalogue,
    source: &SourceFile,
    at: &dyn Fn(&str) -> Span,
) -> Option<Diagnostic> {
    let written = file.scenario.as_ref()?;
    match catalogue.find_scenario(file.game, written) {
        ScenarioLookup::Found(_) => None,
        ScenarioLookup::OtherGame(s) => Some(
            Diagnostic::error(
                Code::EventFile,
                format!(
                    "`{written}` is a scenario of {}, and the event is for {}",
                    s.game.title(),
                    file.game.title()
                ),
            )
            .at(source, at("/scenario"))
            .hint(scenarios::available(catalogue, file.game)),
        ),
        ScenarioLookup::NotFound(nearest) => {
            let mut d = Diagnostic::error(
                Code::EventFile,
                scenarios::unknown_message(catalogue, file.game, written),
            )
            .at(source, at("/scenario"));
            if let Some(s) = nearest {
                d = d.label(format!("did you mean `{s}`?")).fix(s);
            }
            Some(d.hint(scenarios::available(catalogue, file.game)))
        }
    }
}

/// The event's restrictions compiled for each list it allows; a
/// restriction that does not parse, or names nothing in any allowed list,
/// is a problem.
fn compile_restrictions(
    file: &EventFile,
    allowed: &[&ArmyList],
    source: &SourceFile,
    at: &dyn Fn(&str) -> Span,
    problems: &mut Vec<Diagnostic>,
) -> HashMap<String, Vec<Constraint>> {
    let mut restrictions: HashMap<String, Vec<Constraint>> = HashMap::new();
    let compilers: Vec<_> = allowed.iter().map(|list| list.foreign_rules()).collect();
    for (r, raw) in file.restrictions.iter().enumerate() {
        let pointer = format!("/restrictions/{r}/rule");
        let cond = match rules::parse(&raw.rule) {
            Ok(cond) => cond,
            Err(e) => {
                problems.push(
                    Diagnostic::error(
                        Code::EventFile,
                        format!(
                            "restriction `{}` does not parse at column {}: {}",
                            raw.id,
                            e.span.start + 1,
                            e.message
                        ),
                    )
                    .at(source, at(&pointer)),
                );
                continue;
            }
        };
        // An item must mean something in at least one allowed list, or it
        // is a typo.
        let mut items: Vec<Item> = cond
            .selectors()
            .into_iter()
            .flat_map(|s| s.items.iter().chain(&s.within).map(|(item, _)| item.clone()))
            .collect();
        items.extend(raw.applies_to.iter().filter_map(|text| rules::parse_item(text)));
        for item in &items {
            if !allowed.iter().any(|list| list.knows_item(item)) {
                let name = match item {
                    Item::Id(id) => format!("`{id}`"),
                    Item::Tag(tag) => format!("`tag:{tag}`"),
                    Item::Everything => "`*`".to_string(),
                };
                problems.push(
                    Diagnostic::error(
                        Code::EventFile,
                        format!("restriction `{}`: {name} names nothing in any list the event allows", raw.id),
                    )
                    .at(source, at(&pointer))
                    .hint("tags shared by lists, such as `tag:spacecraft` or `tag:one-third`, work across lists"),
                );
            }
        }
        for (list, compiler) in allowed.iter().zip(&compilers) {
            match compiler.compile(raw) {
                Ok(c) => restrictions.entry(list.id.clone()).or_default().push(c),
                Err(message) => problems.push(
                    Diagnostic::error(Code::EventFile, format!("{message} (for {})", list.name))
                        .at(source, at(&pointer)),
                ),
            }
        }
    }
    restrictions
}

/// The commented template of `muster event new` for a game; an error names
/// the games muster has lists for when `game` is not one of them.
pub fn template(catalogue: &Catalogue, game: &str) -> Result<String, String> {
    let with_lists: Vec<GameId> = GameId::ALL
        .into_iter()
        .filter(|g| catalogue.lists.iter().any(|l| l.game == *g))
        .collect();
    let offered = with_lists
        .iter()
        .map(|g| g.as_str())
        .collect::<Vec<_>>()
        .join(" | ");
    let Some(game) = GameId::from_id(game).filter(|g| with_lists.contains(g)) else {
        return Err(format!(
            "muster has no lists for the game `{game}`; an event can be for: {}",
            offered.replace(" | ", ", ")
        ));
    };
    let mut lists: Vec<&ArmyList> = catalogue.lists.iter().filter(|l| l.game == game).collect();
    lists.sort_by(|a, b| a.id.cmp(&b.id));
    let (example, example_version) = lists
        .first()
        .map_or(("LIST-ID", "VERSION"), |l| (l.id.as_str(), l.version.as_str()));
    let mut out = format!(
        "# An event for `muster check --event THIS_FILE rosters/`. Written by `muster event new`.\n\
         # Its schema is event.schema.json: `muster schema --out DIR` writes it, and an editor\n\
         # then checks this file with `# yaml-language-server: $schema=DIR/event.schema.json`.\n\
         name: My {title} Tournament\n\
         date: 2026-12-05            # YYYY-MM-DD\n\
         game: {id:<22}# {offered}\n\
         points: {points:<20}# every roster must be built to this limit\n\
         counts_as: true             # false forbids 'Counts as:' declarations\n\
         \n\
         # The lists allowed (by id, name or alias), each optionally with the\n\
         # versions allowed (a roster naming another version is an error); each\n\
         # list's comment gives the version muster has. Leave the list empty to\n\
         # allow every list of the game.\n\
         lists:\n",
        title = game.title(),
        id = game.as_str(),
        points = game.game().typical_points,
    );
    let width = lists.iter().map(|l| l.id.len()).max().unwrap_or(0);
    for list in &lists {
        out.push_str(&format!(
            "  - id: {:<width$}  # version \"{}\"\n",
            list.id, list.version
        ));
    }
    out.push_str(&format!(
        "  # - id: {example}\n\
         \x20 #   versions: [\"{example_version}\"]\n\
         \n\
         # Extra restrictions, in the constraint language of list files\n\
         # (lists/README.md in muster's repository). Ids or tags a list lacks\n\
         # match nothing, so shared tags work across lists.\n\
         restrictions: []\n\
         # restrictions:\n\
         #   - id: no-titans\n\
         #     scope: army\n\
         #     rule: \"count(tag:titan) == 0\"\n\
         #     message: \"Titans are not allowed at this event.\"\n\
         #     provenance: \"My {title} Tournament player pack\"\n",
        title = game.title(),
    ));
    if let Some(first) = game.game().optional_rules.first() {
        out.push_str(&format!(
            "\n\
             # Optional rules of the game every roster is checked under (a roster\n\
             # may also take them with `Optional rules: {first}`).\n\
             # optional_rules: [{first}]\n",
        ));
    }
    if let Some(first) = catalogue.scenarios_of(game).next() {
        out.push_str(&format!(
            "\n\
             # The scenario every game plays, by name or number (`{name}`, `1`);\n\
             # `muster options LIST` lists them. `points` is then the agreed size:\n\
             # the side the scenario gives a share of the other's points (Jump Point:\n\
             # the attacker, half) gets that share, the other side builds to `points`.\n\
             # Every roster then says `Side: attacker` or `Side: defender`.\n\
             # scenario: {name}\n",
            name = first.name,
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::deadline_seconds;

    #[test]
    fn deadlines_are_dates_or_times_in_utc_or_with_an_offset() {
        // 2026-12-04 is day 20,791 since 1970.
        let day = 20_791 * 86_400;
        assert_eq!(deadline_seconds("2026-12-04"), Some(day + 86_400));
        assert_eq!(deadline_seconds("2026-12-04 18:00"), Some(day + 18 * 3600));
        assert_eq!(deadline_seconds("2026-12-04T18:00Z"), Some(day + 18 * 3600));
        assert_eq!(deadline_seconds("2026-12-04 18:00+01:00"), Some(day + 17 * 3600));
        assert_eq!(
            deadline_seconds("2026-12-04 18:00-00:30"),
            Some(day + 18 * 3600 + 1800)
        );
        assert_eq!(deadline_seconds("1970-01-01 00:00"), Some(0));
        for bad in [
            "2026-13-04",
            "2026-02-30",
            "2026-12-04 24:00",
            "2026-12-04 18:60",
            "2026-12-04 18",
            "2026-12-04 18:00+1",
            "2026-12-04 18:00 CET",
            "04/12/2026",
            "",
            "2026-12-04 1８:00",
        ] {
            assert_eq!(deadline_seconds(bad), None, "{bad}");
        }
    }
}
