//! Tidy tests, in the spirit of rust-analyzer's: the source of `src/` read
//! as text for what the architecture forbids.
//!
//! `no_import_cycles`: the file-level import graph of `src/` has no cycle.
//! A module file imports another when its code names it by a path that
//! starts with `crate::`, `super::` or `self::` (in a `use` tree or in
//! code); the file named is the longest prefix of the path that is a module
//! file, so `crate::catalogue::UnitType` names `src/catalogue/mod.rs` and
//! `crate::catalogue::raw::Stat` names `src/catalogue/raw.rs`. Comments
//! (doc comments too), string and character literals, and test code (items
//! under `#[cfg(test)]`, and module files declared under it) are left out.
//! A path through a module's own child (`link::link` in
//! `catalogue/mod.rs`) is the module tree, not an import, and `mod`
//! declarations are not imports either.
//!
//! `the_core_depends_on_no_edge`: the library without its default features
//! (the core: `cargo build --no-default-features --lib`) reaches none of
//! the crates of the edges (the web server, PDF, `.rosz` archives).
//!
//! `no_long_functions`: no function in `src/` is longer than
//! `MAX_FUNCTION_LINES`, from its `fn` to its closing brace (test code left
//! out as above), but the known ones in `LONG_FUNCTIONS`, which may only
//! shrink.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::Path;

/// Import cycles that are known, each with what removing it needs. An
/// entry is the exact set of files of one cycle (a strongly connected
/// component of the graph): the test fails when the cycle grows, shrinks or
/// disappears, so an entry cannot outlive its cycle.
const ALLOWED_CYCLES: &[&[&str]] = &[];

/// Every game's folder under `src/games/` (`netepic`, `space_fleet`...):
/// a game added is a folder more, so the tests below check it too.
fn game_folders(root: &Path) -> Vec<String> {
    let mut games: Vec<String> = std::fs::read_dir(root.join("src/games"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_dir())
        .map(|path| path.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    games.sort();
    games
}

/// A path a macro builds counts as an import of every file it may name:
/// the games' registry imports each game's ruleset.
#[test]
fn macro_paths_are_imports() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    read_sources(&root.join("src"), root, &mut files);
    let graph = Graph::new(&files);
    let index = |name: &str| graph.files.iter().position(|f| f == name).unwrap();
    let registry = index("src/games/registry.rs");
    let games = game_folders(root);
    assert!(games.len() >= 5, "{games:?}");
    for game in games {
        let ruleset = index(&format!("src/games/{game}/ruleset.rs"));
        assert!(
            graph.edges[registry].iter().any(|e| e.to == ruleset),
            "registry.rs does not import {game}/ruleset.rs"
        );
    }
}

/// The shared stages that read every game's rosters: `resolve` and
/// `validate`, with their child modules.
const SHARED_STAGES: &[&str] = &["src/resolve", "src/validate"];

/// The shared stages name no game: neither a game's folder (`netepic`,
/// `heresy`...) nor a game's own words (`titan`) in their code. What a game
/// adds reaches them through its ruleset (`Ruleset::formation_lines`).
#[test]
fn the_shared_stages_name_no_game() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    read_sources(&root.join("src"), root, &mut files);
    let games = game_folders(root);
    assert!(games.iter().any(|g| g == "netepic"), "{games:?}");
    let (kept, lexed) = non_test_code(&files);
    let mut problems = Vec::new();
    for &i in &kept {
        let file = &files[i].0;
        let shared = SHARED_STAGES
            .iter()
            .any(|stage| file == &format!("{stage}.rs") || file.starts_with(&format!("{stage}/")));
        if !shared {
            continue;
        }
        for token in &lexed[i].0 {
            let Tok::Ident(word) = &token.tok else { continue };
            if games.contains(word) || word.to_lowercase().contains("titan") {
                problems.push(format!("{file}:{}: `{word}`", token.line));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "the shared stages name a game (move the code into the game's folder, behind its ruleset):\n\n{}",
        problems.join("\n")
    );
}

#[test]
fn no_import_cycles() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    read_sources(&root.join("src"), root, &mut files);
    let graph = Graph::new(&files);
    let cycles = graph.cycles();
    let mut problems = Vec::new();
    for cycle in &cycles {
        let names: Vec<&str> = cycle.iter().map(|&m| graph.files[m].as_str()).collect();
        if !ALLOWED_CYCLES.iter().any(|allowed| same_files(allowed, &names)) {
            problems.push(graph.describe(cycle));
        }
    }
    for allowed in ALLOWED_CYCLES {
        let found = cycles.iter().any(|cycle| {
            let names: Vec<&str> = cycle.iter().map(|&m| graph.files[m].as_str()).collect();
            same_files(allowed, &names)
        });
        if !found {
            problems.push(format!(
                "the allowed import cycle of {} is gone or has changed: update or delete its \
                 entry in ALLOWED_CYCLES (tests/it/tidy.rs)",
                allowed.join(", ")
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "import cycles in src/ (a module file imports another through `crate::`, `super::` \
         or `self::` paths):\n\n{}",
        problems.join("\n\n")
    );
}

/// Crates only the edges may use: the web server's, the PDF writer and
/// the zip reader. None may be reachable from the core library.
const EDGE_CRATES: &[&str] = &["axum", "tokio", "hyper", "printpdf", "zip"];

#[test]
fn the_core_depends_on_no_edge() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read =
        |name: &str| std::fs::read_to_string(root.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let manifest = manifest_dependencies(&read("Cargo.toml"));
    let lock = lock_graph(&read("Cargo.lock"));
    let core: Vec<&str> = manifest
        .iter()
        .filter(|d| !d.optional)
        .map(|d| d.package.as_str())
        .collect();
    let all: Vec<&str> = manifest.iter().map(|d| d.package.as_str()).collect();
    // The reading is sound: every edge crate is reached from all the
    // dependencies, and the core has dependencies (serde among them).
    let everything = reachable(&lock, &all);
    assert!(
        core.contains(&"serde"),
        "no core dependency read from Cargo.toml: {core:?}"
    );
    for edge in EDGE_CRATES {
        assert!(
            everything.contains(*edge),
            "{edge} is not in Cargo.lock's graph any more: update EDGE_CRATES"
        );
    }
    // Cargo.lock records every optional dependency any feature enables, so
    // what it reaches from the core is at least what a core build compiles.
    let from_core = reachable(&lock, &core);
    let found: Vec<&&str> = EDGE_CRATES
        .iter()
        .filter(|edge| from_core.contains(**edge))
        .collect();
    assert!(
        found.is_empty(),
        "the core library (no default features) depends on {found:?}: make the dependency \
         that brings it `optional = true`, enabled by the feature of its edge (Cargo.toml)"
    );
}

/// A dependency of `Cargo.toml`: the package it names and whether a
/// feature must enable it.
struct Dependency {
    package: String,
    optional: bool,
}

/// The normal dependencies of `Cargo.toml` (`[dependencies]` and the
/// target-specific ones), each written on one line.
fn manifest_dependencies(manifest: &str) -> Vec<Dependency> {
    let mut normal = false;
    let mut out = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            normal = line == "[dependencies]"
                || (line.starts_with("[target.") && line.ends_with(".dependencies]"));
            continue;
        }
        let Some((key, value)) = line.split_once('=').filter(|_| normal && !line.starts_with('#')) else {
            continue;
        };
        let renamed = value
            .split_once("package = \"")
            .and_then(|(_, rest)| rest.split_once('"'))
            .map(|(package, _)| package.to_string());
        out.push(Dependency {
            package: renamed.unwrap_or_else(|| key.trim().to_string()),
            optional: value.contains("optional = true"),
        });
    }
    out
}

/// Each package of `Cargo.lock` by name, with the names of its
/// dependencies (all versions of a name together).
fn lock_graph(lock: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut name = String::new();
    let mut in_dependencies = false;
    for line in lock.lines().map(str::trim) {
        if let Some(value) = line.strip_prefix("name = \"") {
            name = value.trim_end_matches('"').to_string();
            graph.entry(name.clone()).or_default();
        } else if line == "dependencies = [" {
            in_dependencies = true;
        } else if line == "]" {
            in_dependencies = false;
        } else if in_dependencies {
            let dependency = line.trim_matches(|c| c == '"' || c == ',');
            let dependency = dependency.split(' ').next().unwrap_or(dependency);
            graph
                .entry(name.clone())
                .or_default()
                .insert(dependency.to_string());
        }
    }
    graph
}

/// The packages reached from `start` (themselves included).
fn reachable(graph: &BTreeMap<String, BTreeSet<String>>, start: &[&str]) -> BTreeSet<String> {
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut queue: VecDeque<String> = start.iter().map(|s| s.to_string()).collect();
    while let Some(package) = queue.pop_front() {
        if seen.insert(package.clone()) {
            queue.extend(graph.get(&package).into_iter().flatten().cloned());
        }
    }
    seen
}

/// The most lines a function may take, from its `fn` to its closing brace.
const MAX_FUNCTION_LINES: usize = 150;

/// Functions known to be longer than `MAX_FUNCTION_LINES`: file, name and
/// the most lines each may take today. The test fails when one grows past
/// its figure, and when one is no longer too long (delete its entry), so
/// the list only shrinks.
const LONG_FUNCTIONS: &[(&str, &str, usize)] = &[];

#[test]
fn no_long_functions() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    read_sources(&root.join("src"), root, &mut files);
    let found = long_functions(&files, MAX_FUNCTION_LINES);
    let mut problems = Vec::new();
    for (file, name, lines) in &found {
        match LONG_FUNCTIONS.iter().find(|(f, n, _)| f == file && n == name) {
            None => problems.push(format!(
                "{file}: `fn {name}` is {lines} lines, more than {MAX_FUNCTION_LINES}: split it"
            )),
            Some((_, _, most)) if lines > most => problems.push(format!(
                "{file}: `fn {name}` is {lines} lines, more than the {most} LONG_FUNCTIONS \
                 allows it (tests/it/tidy.rs): split it"
            )),
            Some(_) => {}
        }
    }
    for (file, name, _) in LONG_FUNCTIONS {
        if !found.iter().any(|(f, n, _)| f == file && n == name) {
            problems.push(format!(
                "{file}: `fn {name}` is no longer longer than {MAX_FUNCTION_LINES} lines (or is \
                 gone): delete its entry in LONG_FUNCTIONS (tests/it/tidy.rs)"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "long functions in src/:\n\n{}",
        problems.join("\n")
    );
}

/// The functions of `sources` longer than `most` lines, outside test code
/// (items under `#[cfg(test)]` and the module files declared under it):
/// file, name and lines, the longest of a name in a file once.
fn long_functions(sources: &[(String, String)], most: usize) -> Vec<(String, String, usize)> {
    let (kept, lexed) = non_test_code(sources);
    let mut out: Vec<(String, String, usize)> = Vec::new();
    for index in kept {
        let tokens = &lexed[index].0;
        for (name, lines) in functions(tokens) {
            if lines <= most {
                continue;
            }
            let file = &sources[index].0;
            match out.iter_mut().find(|(f, n, _)| f == file && *n == name) {
                Some(seen) => seen.2 = seen.2.max(lines),
                None => out.push((file.clone(), name, lines)),
            }
        }
    }
    out
}

/// Each function with a body in `tokens`: its name and its lines, from the
/// line of `fn` to the line of its closing brace.
fn functions(tokens: &[Token]) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for (at, token) in tokens.iter().enumerate() {
        if token.tok != Tok::Ident("fn".into()) {
            continue;
        }
        // `fn(u8) -> u16` is a type, not a function.
        let Some(Tok::Ident(name)) = tokens.get(at + 1).map(|t| &t.tok) else {
            continue;
        };
        // The body: the first `{` outside the generics and the arguments,
        // unless a `;` ends the declaration first.
        let mut depth = 0usize;
        let mut j = at + 2;
        let mut open = None;
        while j < tokens.len() {
            match tokens[j].tok {
                Tok::Punct('(' | '[' | '<') => depth += 1,
                Tok::Punct(')' | ']') => depth = depth.saturating_sub(1),
                Tok::Punct('>') if !is_punct(tokens, j.wrapping_sub(1), '-') => {
                    depth = depth.saturating_sub(1)
                }
                Tok::Punct('{') if depth == 0 => {
                    open = Some(j);
                    break;
                }
                Tok::Punct(';') if depth == 0 => break,
                _ => {}
            }
            j += 1;
        }
        let Some(open) = open else {
            continue;
        };
        let end = skip_group(tokens, open);
        let last = tokens[end.saturating_sub(1).max(open)].line;
        out.push((name.clone(), last - token.line + 1));
    }
    out
}

fn same_files(allowed: &[&str], found: &[&str]) -> bool {
    let allowed: BTreeSet<&str> = allowed.iter().copied().collect();
    let found: BTreeSet<&str> = found.iter().copied().collect();
    allowed == found
}

/// Every `.rs` file under `dir` but `src/main.rs` (the binary, a crate of
/// its own), as its path from `root` with `/` and its text.
fn read_sources(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            read_sources(&path, root, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            let name = path
                .strip_prefix(root)
                .unwrap()
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            if name != "src/main.rs" {
                let text = std::fs::read_to_string(&path).unwrap();
                out.push((name, text));
            }
        }
    }
}

/// The module path of a file under `src/`: `src/lib.rs` is the crate,
/// `src/a/mod.rs` and `src/a.rs` are `a`, `src/a/b.rs` is `a::b`.
fn module_path(file: &str) -> Vec<String> {
    let inside = file.strip_prefix("src/").unwrap_or(file);
    let inside = inside.strip_suffix(".rs").unwrap_or(inside);
    let mut path: Vec<String> = inside.split('/').map(str::to_string).collect();
    if path.last().is_some_and(|last| last == "mod" || last == "lib") {
        path.pop();
    }
    path
}

/// The sources lexed without their test code, and the indexes of those
/// that are not test module files (declared under `#[cfg(test)]`).
#[allow(clippy::type_complexity)]
fn non_test_code(sources: &[(String, String)]) -> (Vec<usize>, Vec<(Vec<Token>, BTreeSet<Vec<String>>)>) {
    let lexed: Vec<(Vec<Token>, BTreeSet<Vec<String>>)> = sources
        .iter()
        .map(|(file, text)| {
            let (tokens, test_children) = without_test_code(tokens(&code_only(text)));
            let here = module_path(file);
            let test_modules = test_children
                .into_iter()
                .map(|child| here.iter().cloned().chain([child]).collect())
                .collect();
            (tokens, test_modules)
        })
        .collect();
    let test_modules: BTreeSet<&Vec<String>> = lexed.iter().flat_map(|(_, t)| t).collect();
    let kept: Vec<usize> = (0..sources.len())
        .filter(|&i| {
            let path = module_path(&sources[i].0);
            !test_modules.iter().any(|test| path.starts_with(test))
        })
        .collect();
    (kept, lexed)
}

/// One import: the file that names another, where, and the path written.
struct Edge {
    to: usize,
    line: usize,
    path: String,
}

struct Graph {
    files: Vec<String>,
    /// For each file, its imports, the first place each other file is named.
    edges: Vec<Vec<Edge>>,
}

impl Graph {
    fn new(sources: &[(String, String)]) -> Graph {
        let (kept, lexed) = non_test_code(sources);
        let files: Vec<String> = kept.iter().map(|&i| sources[i].0.clone()).collect();
        let by_path: BTreeMap<Vec<String>, usize> = files
            .iter()
            .enumerate()
            .map(|(index, file)| (module_path(file), index))
            .collect();
        let edges = kept
            .iter()
            .enumerate()
            .map(|(index, &source)| {
                let here = module_path(&files[index]);
                let mut edges: Vec<Edge> = Vec::new();
                for named in paths(&lexed[source].0, &here) {
                    for to in resolve_all(&named.segments, &by_path) {
                        if to != index && !edges.iter().any(|edge| edge.to == to) {
                            edges.push(Edge {
                                to,
                                line: named.line,
                                path: named.written.clone(),
                            });
                        }
                    }
                }
                edges
            })
            .collect();
        Graph { files, edges }
    }

    /// The cycles: each strongly connected component of more than one
    /// file, its files sorted, in order of their first file.
    fn cycles(&self) -> Vec<Vec<usize>> {
        let mut tarjan = Tarjan {
            graph: self,
            index: vec![None; self.files.len()],
            low: vec![0; self.files.len()],
            on_stack: vec![false; self.files.len()],
            stack: Vec::new(),
            next: 0,
            components: Vec::new(),
        };
        for file in 0..self.files.len() {
            if tarjan.index[file].is_none() {
                tarjan.visit(file);
            }
        }
        let mut cycles: Vec<Vec<usize>> = tarjan
            .components
            .into_iter()
            .filter(|component| component.len() > 1)
            .map(|mut component| {
                component.sort_by(|&a, &b| self.files[a].cmp(&self.files[b]));
                component
            })
            .collect();
        cycles.sort_by(|a, b| self.files[a[0]].cmp(&self.files[b[0]]));
        cycles
    }

    /// A cycle in words: its files, and the shortest way round from its
    /// first file with the line and path of each import.
    fn describe(&self, cycle: &[usize]) -> String {
        let members: BTreeSet<usize> = cycle.iter().copied().collect();
        let start = cycle[0];
        // Breadth first from `start` inside the cycle, back to `start`.
        let mut came_from: BTreeMap<usize, (usize, usize)> = BTreeMap::new();
        let mut queue = VecDeque::from([start]);
        let mut last = None;
        'search: while let Some(file) = queue.pop_front() {
            for (e, edge) in self.edges[file].iter().enumerate() {
                if !members.contains(&edge.to) {
                    continue;
                }
                if edge.to == start {
                    last = Some((file, e));
                    break 'search;
                }
                if let std::collections::btree_map::Entry::Vacant(slot) = came_from.entry(edge.to) {
                    slot.insert((file, e));
                    queue.push_back(edge.to);
                }
            }
        }
        let mut steps = Vec::new();
        let mut at = last;
        while let Some((file, e)) = at {
            steps.push((file, e));
            at = came_from.get(&file).copied();
        }
        steps.reverse();
        let mut text = format!(
            "a cycle of {} files: {}\n  for example:",
            cycle.len(),
            cycle
                .iter()
                .map(|&m| self.files[m].as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
        for (file, e) in steps {
            let edge = &self.edges[file][e];
            text.push_str(&format!(
                "\n    {} -> {} ({}:{}: `{}`)",
                self.files[file], self.files[edge.to], self.files[file], edge.line, edge.path
            ));
        }
        text
    }
}

struct Tarjan<'a> {
    graph: &'a Graph,
    index: Vec<Option<usize>>,
    low: Vec<usize>,
    on_stack: Vec<bool>,
    stack: Vec<usize>,
    next: usize,
    components: Vec<Vec<usize>>,
}

impl Tarjan<'_> {
    fn visit(&mut self, file: usize) {
        self.index[file] = Some(self.next);
        self.low[file] = self.next;
        self.next += 1;
        self.stack.push(file);
        self.on_stack[file] = true;
        for edge in &self.graph.edges[file] {
            match self.index[edge.to] {
                None => {
                    self.visit(edge.to);
                    self.low[file] = self.low[file].min(self.low[edge.to]);
                }
                Some(index) if self.on_stack[edge.to] => {
                    self.low[file] = self.low[file].min(index);
                }
                Some(_) => {}
            }
        }
        if Some(self.low[file]) == self.index[file] {
            let mut component = Vec::new();
            while let Some(top) = self.stack.pop() {
                self.on_stack[top] = false;
                component.push(top);
                if top == file {
                    break;
                }
            }
            self.components.push(component);
        }
    }
}

/// The module files a path names. A macro's metavariable (`$folder` in
/// `super::$folder::ruleset::$ruleset`, the games' registry) stands for
/// every module at its place, so a path a macro builds still counts as
/// importing each file it may name.
fn resolve_all(segments: &[String], by_path: &BTreeMap<Vec<String>, usize>) -> Vec<usize> {
    let Some(wild) = segments.iter().position(|s| s.starts_with('$')) else {
        return resolve(segments, by_path).into_iter().collect();
    };
    let prefix = &segments[..wild];
    let mut found: Vec<usize> = by_path
        .keys()
        .filter(|path| path.len() > wild && path.starts_with(prefix))
        .flat_map(|path| {
            let mut filled = segments.to_vec();
            filled[wild] = path[wild].clone();
            resolve_all(&filled, by_path)
        })
        .collect();
    found.sort_unstable();
    found.dedup();
    if found.is_empty() {
        found.extend(resolve(prefix, by_path));
    }
    found
}

/// The module file a path names: the longest prefix of it that is one.
fn resolve(segments: &[String], by_path: &BTreeMap<Vec<String>, usize>) -> Option<usize> {
    (0..=segments.len())
        .rev()
        .find_map(|len| by_path.get(&segments[..len]).copied())
}

/// The text with every comment and the inside of every string and
/// character literal blanked out (spaces; line breaks kept, so lines still
/// count).
fn code_only(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for byte in &mut out[from..to.min(bytes.len())] {
            if *byte != b'\n' {
                *byte = b' ';
            }
        }
    };
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        let after_ident = i > 0 && ident(bytes[i - 1]);
        if rest.starts_with(b"//") {
            let end = memchr_from(bytes, i, b'\n');
            blank(&mut out, i, end);
            i = end;
        } else if rest.starts_with(b"/*") {
            let mut depth = 0;
            let mut j = i;
            while j < bytes.len() {
                if bytes[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if bytes[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            blank(&mut out, i, j);
            i = j;
        } else if let Some(hashes) = (!after_ident).then(|| raw_string_start(rest)).flatten() {
            // r"..", r#".."#, br"..", cr"..": no escapes, closed by `"` and
            // as many `#`.
            let open = rest.iter().position(|&b| b == b'"').unwrap_or(0) + 1;
            let mut j = i + open;
            while j < bytes.len() {
                if bytes[j] == b'"' && bytes[j + 1..].iter().take_while(|&&b| b == b'#').count() >= hashes {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            blank(&mut out, i + open, j.saturating_sub(1 + hashes));
            i = j;
        } else if bytes[i] == b'"' {
            let mut j = i + 1;
            while j < bytes.len() && bytes[j] != b'"' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            blank(&mut out, i + 1, j);
            i = j + 1;
        } else if bytes[i] == b'\'' {
            // A character literal ('a', '\n', '\'', 'é'), or a lifetime or
            // label ('a, 'static), which is left as it is.
            if rest.get(1) == Some(&b'\\') {
                let mut j = i + 3;
                while j < bytes.len() && bytes[j] != b'\'' {
                    j += 1;
                }
                blank(&mut out, i + 1, j);
                i = j + 1;
            } else {
                let width = rest.get(1).map_or(1, |&b| utf8_width(b));
                if rest.get(1 + width) == Some(&b'\'') {
                    blank(&mut out, i + 1, i + 1 + width);
                    i += 2 + width;
                } else {
                    i += 1;
                }
            }
        } else {
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

fn memchr_from(bytes: &[u8], from: usize, needle: u8) -> usize {
    bytes[from..]
        .iter()
        .position(|&b| b == needle)
        .map_or(bytes.len(), |at| from + at)
}

/// The number of `#` of a raw string starting here (`r`, `br` or `cr`,
/// then `#`s and `"`), if one does.
fn raw_string_start(rest: &[u8]) -> Option<usize> {
    let after_prefix = match rest {
        [b'r', ..] => &rest[1..],
        [b'b' | b'c', b'r', ..] => &rest[2..],
        _ => return None,
    };
    let hashes = after_prefix.iter().take_while(|&&b| b == b'#').count();
    (after_prefix.get(hashes) == Some(&b'"')).then_some(hashes)
}

fn utf8_width(first: u8) -> usize {
    match first {
        0xF0.. => 4,
        0xE0.. => 3,
        0xC0.. => 2,
        _ => 1,
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    /// An identifier or keyword (`$crate` included).
    Ident(String),
    /// `::`
    PathSep,
    /// Any other character that is not space.
    Punct(char),
}

#[derive(Debug, Clone)]
struct Token {
    tok: Tok,
    line: usize,
}

fn tokens(code: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut line = 1;
    let mut chars = code.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if c == '\n' {
            line += 1;
        } else if c.is_whitespace() {
        } else if c.is_alphanumeric() || c == '_' || c == '$' {
            let mut end = at + c.len_utf8();
            while let Some(&(next, n)) = chars.peek() {
                if !(n.is_alphanumeric() || n == '_') {
                    break;
                }
                end = next + n.len_utf8();
                chars.next();
            }
            out.push(Token {
                tok: Tok::Ident(code[at..end].to_string()),
                line,
            });
        } else if c == ':' && chars.peek().is_some_and(|&(_, n)| n == ':') {
            chars.next();
            out.push(Token {
                tok: Tok::PathSep,
                line,
            });
        } else {
            out.push(Token {
                tok: Tok::Punct(c),
                line,
            });
        }
    }
    out
}

fn is_punct(tokens: &[Token], at: usize, c: char) -> bool {
    tokens.get(at).is_some_and(|t| t.tok == Tok::Punct(c))
}

fn is_ident(tokens: &[Token], at: usize, word: &str) -> bool {
    tokens
        .get(at)
        .is_some_and(|t| matches!(&t.tok, Tok::Ident(s) if s == word))
}

/// The tokens without the items, fields and statements under
/// `#[cfg(test)]`, and the names of the module files declared under it
/// (`#[cfg(test)] mod tests;`).
fn without_test_code(tokens: Vec<Token>) -> (Vec<Token>, Vec<String>) {
    const CFG_TEST: [&str; 7] = ["#", "[", "cfg", "(", "test", ")", "]"];
    let matches_at = |at: usize| {
        CFG_TEST.iter().enumerate().all(|(k, want)| {
            tokens.get(at + k).is_some_and(|t| match &t.tok {
                Tok::Ident(s) => s == want,
                Tok::Punct(c) => want.len() == 1 && want.starts_with(*c),
                Tok::PathSep => false,
            })
        })
    };
    let mut kept = Vec::new();
    let mut test_children = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if !matches_at(i) {
            kept.push(tokens[i].clone());
            i += 1;
            continue;
        }
        let mut j = i + CFG_TEST.len();
        // Further attributes on the same item.
        while is_punct(&tokens, j, '#') && is_punct(&tokens, j + 1, '[') {
            j = skip_group(&tokens, j + 1);
        }
        let start = j;
        // An item (which ends with `;` or its block) or else a field, an
        // argument or a statement (which may end with `,`).
        let mut word = start;
        if is_ident(&tokens, word, "pub") {
            word += 1;
            if is_punct(&tokens, word, '(') {
                word = skip_group(&tokens, word);
            }
        }
        let item_words = [
            "fn",
            "mod",
            "impl",
            "struct",
            "enum",
            "trait",
            "use",
            "const",
            "static",
            "type",
            "macro_rules",
            "unsafe",
            "async",
            "extern",
        ];
        let is_item = item_words.iter().any(|w| is_ident(&tokens, word, w));
        let mut depth = 0usize;
        while j < tokens.len() {
            match &tokens[j].tok {
                Tok::Punct('(' | '[') => depth += 1,
                Tok::Punct('{') => {
                    if depth == 0 && !tokens[start..j].iter().any(|t| t.tok == Tok::Ident("use".into())) {
                        j = skip_group(&tokens, j);
                        break;
                    }
                    depth += 1;
                }
                Tok::Punct(')' | ']' | '}') => {
                    if depth == 0 {
                        // The end of the enclosing group: a field or
                        // argument that was the last one.
                        break;
                    }
                    depth -= 1;
                }
                Tok::Punct(';') if depth == 0 => {
                    j += 1;
                    break;
                }
                Tok::Punct(',') if depth == 0 && !is_item => {
                    j += 1;
                    break;
                }
                _ => {}
            }
            j += 1;
        }
        // `mod name;`, with any visibility before it.
        let item = &tokens[start..j.min(tokens.len())];
        if let [.., a, b, c] = item
            && a.tok == Tok::Ident("mod".into())
            && c.tok == Tok::Punct(';')
            && let Tok::Ident(name) = &b.tok
        {
            test_children.push(name.clone());
        }
        i = j;
    }
    (kept, test_children)
}

/// The index just past the group that opens at `open` (`(`, `[` or `{`).
fn skip_group(tokens: &[Token], open: usize) -> usize {
    let mut depth = 0usize;
    let mut j = open;
    while j < tokens.len() {
        match tokens[j].tok {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return j + 1;
                }
            }
            _ => {}
        }
        j += 1;
    }
    j
}

/// A path the code names, made absolute (from the crate root).
struct Named {
    segments: Vec<String>,
    line: usize,
    written: String,
}

/// Every path starting with `crate`, `super` or `self` in `use` trees and
/// in code, made absolute from `here` (the file's module) and the inline
/// modules (`mod name { .. }`) around it.
fn paths(tokens: &[Token], here: &[String]) -> Vec<Named> {
    let mut out = Vec::new();
    // Inline modules open around the current token: name and the brace
    // depth inside them.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i].tok {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => {
                if inline.last().is_some_and(|&(_, inside)| inside == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            Tok::Ident(word) if word == "mod" => {
                if let Some(Tok::Ident(name)) = tokens.get(i + 1).map(|t| &t.tok)
                    && is_punct(tokens, i + 2, '{')
                {
                    depth += 1;
                    inline.push((name.clone(), depth));
                    i += 3;
                    continue;
                }
            }
            Tok::Ident(word) if word == "use" => {
                let line = tokens[i].line;
                let mut trees = Vec::new();
                i = use_tree(tokens, i + 1, Vec::new(), &mut trees);
                for tree in trees {
                    if let Some(segments) = absolute(&tree, &scope(here, &inline)) {
                        out.push(Named {
                            segments,
                            line,
                            written: format!("use {}", tree.join("::")),
                        });
                    }
                }
                continue;
            }
            Tok::Ident(word)
                if ["crate", "$crate", "super", "self"].contains(&word.as_str())
                    && tokens.get(i + 1).is_some_and(|t| t.tok == Tok::PathSep)
                    && !(i > 0 && tokens[i - 1].tok == Tok::PathSep) =>
            {
                let line = tokens[i].line;
                let mut path = vec![word.clone()];
                let mut j = i + 1;
                while tokens.get(j).is_some_and(|t| t.tok == Tok::PathSep) {
                    let Some(Tok::Ident(next)) = tokens.get(j + 1).map(|t| &t.tok) else {
                        break;
                    };
                    path.push(next.clone());
                    j += 2;
                }
                if let Some(segments) = absolute(&path, &scope(here, &inline)) {
                    out.push(Named {
                        segments,
                        line,
                        written: path.join("::"),
                    });
                }
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The module a token is in: the file's, then the inline modules open.
fn scope(here: &[String], inline: &[(String, usize)]) -> Vec<String> {
    here.iter()
        .cloned()
        .chain(inline.iter().map(|(name, _)| name.clone()))
        .collect()
}

/// Reads a `use` tree from `at`, adding each full path it names (a glob or
/// a group's `self` names the path before it); returns the index past it.
fn use_tree(tokens: &[Token], mut at: usize, mut path: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    loop {
        match tokens.get(at).map(|t| &t.tok) {
            Some(Tok::PathSep) => at += 1,
            Some(Tok::Ident(word)) if word != "as" => {
                if word != "self" || path.is_empty() {
                    path.push(word.clone());
                }
                at += 1;
                if tokens.get(at).is_some_and(|t| t.tok == Tok::PathSep) {
                    at += 1;
                } else {
                    break;
                }
            }
            Some(Tok::Punct('{')) => {
                at += 1;
                while at < tokens.len() && !is_punct(tokens, at, '}') {
                    let before = at;
                    at = use_tree(tokens, at, path.clone(), out);
                    // Past the comma, or past a token the tree did not
                    // read (so a malformed tree cannot stop the scan).
                    if is_punct(tokens, at, ',') || at == before {
                        at += 1;
                    }
                }
                return at + 1;
            }
            Some(Tok::Punct('*')) => {
                at += 1;
                break;
            }
            _ => break,
        }
    }
    if is_ident(tokens, at, "as") {
        at += 2;
    }
    out.push(path);
    at
}

/// A path made absolute: `crate::a` is `a`, `super::a` in `x::y` is `x::a`,
/// `self::a` in `x` is `x::a`. Any other path (a dependency, a child
/// module, a local name) is `None`.
fn absolute(path: &[String], scope: &[String]) -> Option<Vec<String>> {
    let (first, rest) = path.split_first()?;
    let mut base: Vec<String> = match first.as_str() {
        "crate" | "$crate" => Vec::new(),
        "self" => scope.to_vec(),
        "super" => scope[..scope.len().checked_sub(1)?].to_vec(),
        _ => return None,
    };
    let mut rest = rest;
    while let Some((next, after)) = rest.split_first()
        && next == "super"
    {
        base.pop()?;
        rest = after;
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(files: &[(&str, &str)]) -> Graph {
        let files: Vec<(String, String)> = files
            .iter()
            .map(|(name, text)| (name.to_string(), text.to_string()))
            .collect();
        Graph::new(&files)
    }

    fn imports(graph: &Graph, file: &str) -> Vec<String> {
        let at = graph.files.iter().position(|f| f == file).unwrap();
        let mut names: Vec<String> = graph.edges[at]
            .iter()
            .map(|edge| graph.files[edge.to].clone())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn imports_are_use_trees_and_paths_in_code() {
        let graph = graph(&[
            ("src/lib.rs", "pub mod a; pub mod b; pub mod c; pub mod d;"),
            (
                "src/a/mod.rs",
                "mod child; use crate::{b::{self, Thing}, c::*};\n\
                 fn f() { let _ = crate::d::x::Y::new(); child::g(); }",
            ),
            ("src/a/child.rs", "use super::super::b as other; pub fn g() {}"),
            ("src/b.rs", "pub struct Thing;"),
            ("src/c.rs", ""),
            ("src/d/mod.rs", "pub mod x;"),
            (
                "src/d/x.rs",
                "pub struct Y; impl Y { pub fn new() -> Self { Y } }",
            ),
        ]);
        assert_eq!(
            imports(&graph, "src/a/mod.rs"),
            ["src/b.rs", "src/c.rs", "src/d/x.rs"]
        );
        assert_eq!(imports(&graph, "src/a/child.rs"), ["src/b.rs"]);
        assert!(graph.cycles().is_empty());
    }

    #[test]
    fn comments_strings_and_test_code_are_not_imports() {
        let graph = graph(&[
            ("src/lib.rs", "pub mod a; pub mod b;"),
            (
                "src/a.rs",
                "//! See [`crate::b`].\n\
                 /* crate::b::X /* nested */ crate::b::Y */\n\
                 const S: &str = \"crate::b::Z\";\n\
                 const R: &str = r#\"use crate::b; \"#;\n\
                 const C: char = '\"'; const Q: char = '\\'';\n\
                 fn f<'a>(x: &'a str) -> &'a str { x }\n\
                 struct S { #[cfg(test)] seen: crate::b::W, kept: u8 }\n\
                 #[cfg(test)]\n\
                 mod tests { use crate::b::V; }\n\
                 #[cfg(test)]\n\
                 mod more;\n",
            ),
            ("src/a/more.rs", "use crate::b::U;"),
            ("src/b.rs", "use crate::a::S;"),
        ]);
        assert_eq!(imports(&graph, "src/a.rs"), Vec::<String>::new());
        assert!(!graph.files.contains(&"src/a/more.rs".to_string()));
        assert_eq!(imports(&graph, "src/b.rs"), ["src/a.rs"]);
    }

    #[test]
    fn super_in_an_inline_module_is_the_file_itself() {
        let graph = graph(&[
            ("src/lib.rs", "pub mod a;"),
            (
                "src/a.rs",
                "pub mod inner { use super::X; } pub struct X; fn f() { self::inner::g(); }",
            ),
        ]);
        assert_eq!(imports(&graph, "src/lib.rs"), Vec::<String>::new());
        assert_eq!(imports(&graph, "src/a.rs"), Vec::<String>::new());
    }

    #[test]
    fn function_lines_run_from_fn_to_its_closing_brace() {
        let code = "fn a() -> Vec<u8> {\n    vec![]\n}\ntrait T { fn b(&self); }\n\
                    fn c<F: Fn(u8) -> u8>(f: F)\nwhere\n    F: Copy,\n{\n    let g: fn(u8) -> u8 = f;\n}\n\
                    #[cfg(test)]\nfn d() {\n}\n";
        let (tokens, _) = without_test_code(tokens(&code_only(code)));
        assert_eq!(functions(&tokens), [("a".to_string(), 3), ("c".to_string(), 6)]);
    }

    #[test]
    fn a_cycle_is_named_with_where_each_import_is() {
        let graph = graph(&[
            ("src/lib.rs", "pub mod a; pub mod b; pub mod c;"),
            ("src/a.rs", "use crate::b::B;"),
            ("src/b.rs", "pub struct B;\nfn f() { crate::c::g() }"),
            ("src/c.rs", "pub fn g() { let _ = super::a::A; }"),
        ]);
        let cycles = graph.cycles();
        assert_eq!(cycles.len(), 1);
        assert_eq!(
            graph.describe(&cycles[0]),
            "a cycle of 3 files: src/a.rs, src/b.rs, src/c.rs\n  for example:\n    \
             src/a.rs -> src/b.rs (src/a.rs:1: `use crate::b::B`)\n    \
             src/b.rs -> src/c.rs (src/b.rs:2: `crate::c::g`)\n    \
             src/c.rs -> src/a.rs (src/c.rs:1: `super::a::A`)"
        );
    }
}

/// A test that cannot run here says so where `cargo test` shows it: the
/// browser test is ignored with its reason (listed and counted as ignored,
/// not passed in silence), and CI runs it.
#[test]
fn the_browser_test_is_ignored_with_a_reason_and_run_by_ci() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let test = std::fs::read_to_string(root.join("tests/it/serve_browser.rs")).unwrap();
    let at = test
        .find("fn a_player_builds_breaks_prints_and_submits_in_chromium")
        .unwrap();
    let before = &test[..at];
    let attributes = &before[before.rfind("#[test]").unwrap()..];
    assert!(attributes.contains("#[ignore = \"needs Chromium"), "{attributes}");
    let ci = std::fs::read_to_string(root.join(".ci/run")).unwrap();
    assert!(ci.contains("--include-ignored"), "{ci}");
}
