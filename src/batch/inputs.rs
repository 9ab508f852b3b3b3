//! The rosters of a batch, as the walk found them, kept until the reports
//! are written: so packed, since a batch can hold 100,000 of them. Every
//! name is in one string, each input's end in it four bytes; the few
//! inputs that are not a file found in a folder under its own name (a
//! path given on the command line, standard input, a share link, a name
//! that is not UTF-8, a problem found while walking) keep the rest beside,
//! by index.

use std::path::Path;

/// How an input came to be checked. The exit status depends on it: a path
/// the user named that cannot be used is a usage problem (status 2); a file
/// found inside a folder that cannot be used is a bad submission (status 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// A path given on the command line.
    Named,
    /// A file found by walking a folder given on the command line.
    Walked,
    /// `-`: standard input.
    Stdin,
}

/// Every input of a batch, in order.
#[derive(Debug, Default)]
pub struct Inputs {
    /// The names, one after another.
    names: String,
    /// Where each input's name ends in `names`.
    ends: Vec<u32>,
    /// What the inputs that are not plain walked files have beside their
    /// name, by index, in order.
    others: Vec<(usize, Other)>,
}

/// What an input has beyond a name that is its path and found by a walk.
#[derive(Debug, Clone, Default)]
pub struct Other {
    pub origin: Option<Origin>,
    /// Where to read it, when that is not its name (a path that is not
    /// UTF-8, standard input, a share link).
    pub path: Option<Box<Path>>,
    /// Why it cannot be read, when that is known without opening it.
    pub problem: Option<String>,
    /// The roster itself, when the command line gave it rather than a path
    /// (a Snapfire share link).
    pub text: Option<String>,
    /// The name, when `names` has no room left for it (past 4 GiB): set
    /// by [`Inputs::push`], whatever it is given.
    pub name: Option<Box<str>>,
}

/// One input of a batch, borrowed from its [`Inputs`].
#[derive(Debug, Clone, Copy)]
pub struct Input<'a> {
    /// The name results carry: the path as given or walked, or `<stdin>`.
    pub name: &'a str,
    pub origin: Origin,
    other: Option<&'a Other>,
}

impl<'a> Input<'a> {
    /// Where to read it (unused for standard input).
    pub fn path(&self) -> &'a Path {
        let other = self.other.and_then(|o| o.path.as_deref());
        other.unwrap_or(Path::new(self.name))
    }

    /// Why it cannot be read, when that is known without opening it.
    pub fn problem_found(&self) -> Option<&'a str> {
        self.other?.problem.as_deref()
    }

    /// The roster itself, when the command line gave it rather than a path.
    pub fn text(&self) -> Option<&'a str> {
        self.other?.text.as_deref()
    }
}

impl Inputs {
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Input `i`; an index past the end gives an empty name.
    pub fn get(&self, i: usize) -> Input<'_> {
        let other = self
            .others
            .binary_search_by_key(&i, |(at, _)| *at)
            .ok()
            .map(|at| &self.others[at].1);
        let start = i
            .checked_sub(1)
            .and_then(|p| self.ends.get(p))
            .map_or(0, |&e| e as usize);
        let end = self.ends.get(i).map_or(start, |&e| e as usize);
        let name = match other.and_then(|o| o.name.as_deref()) {
            Some(name) => name,
            None => self.names.get(start..end).unwrap_or_default(),
        };
        Input {
            name,
            origin: other.and_then(|o| o.origin).unwrap_or(Origin::Walked),
            other,
        }
    }

    pub fn iter(&self) -> impl ExactSizeIterator<Item = Input<'_>> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Adds an input named `name`, with what it has beside (nothing for a
    /// file found by a walk under its own name).
    pub fn push(&mut self, name: &str, mut other: Other) {
        other.name = None;
        let end = u32::try_from(self.names.len() + name.len()).ok();
        match end {
            Some(end) => {
                self.names.push_str(name);
                self.ends.push(end);
            }
            None => {
                other.name = Some(name.into());
                self.ends.push(self.ends.last().copied().unwrap_or(0));
            }
        }
        if other.origin.is_some_and(|o| o != Origin::Walked)
            || other.path.is_some()
            || other.problem.is_some()
            || other.text.is_some()
            || other.name.is_some()
        {
            self.others.push((self.ends.len() - 1, other));
        }
    }

    /// The last input's problem, set (the walk finds some after the name).
    pub fn set_problem(&mut self, problem: String) {
        let Some(last) = self.len().checked_sub(1) else {
            return;
        };
        match self.others.last_mut() {
            Some((at, other)) if *at == last => other.problem = Some(problem),
            _ => self.others.push((
                last,
                Other {
                    problem: Some(problem),
                    ..Other::default()
                },
            )),
        }
    }

    /// Kept until the reports are written: no room to spare.
    pub fn shrink_to_fit(&mut self) {
        self.names.shrink_to_fit();
        self.ends.shrink_to_fit();
        self.others.shrink_to_fit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names come back whole and in order, plain walked files keep
    /// nothing beside them, and the others keep what they were given.
    #[test]
    fn inputs_round_trip_their_names_origins_and_problems() {
        let mut inputs = Inputs::default();
        assert!(inputs.is_empty());
        inputs.push("d/a.txt", Other::default());
        inputs.push("", Other::default());
        inputs.push(
            "<stdin>",
            Other {
                origin: Some(Origin::Stdin),
                path: Some(Path::new("-").into()),
                ..Other::default()
            },
        );
        inputs.push("d/é.txt", Other::default());
        inputs.set_problem("d/é.txt is a symbolic link".into());
        inputs.push(
            "x.txt",
            Other {
                origin: Some(Origin::Named),
                ..Other::default()
            },
        );
        inputs.set_problem("the folder x.txt holds no files".into());
        inputs.shrink_to_fit();
        assert_eq!(inputs.others.len(), 3, "plain walked files keep nothing beside");
        let seen: Vec<_> = inputs
            .iter()
            .map(|i| (i.name, i.origin, i.path(), i.problem_found()))
            .collect();
        assert_eq!(
            seen,
            [
                ("d/a.txt", Origin::Walked, Path::new("d/a.txt"), None),
                ("", Origin::Walked, Path::new(""), None),
                ("<stdin>", Origin::Stdin, Path::new("-"), None),
                (
                    "d/é.txt",
                    Origin::Walked,
                    Path::new("d/é.txt"),
                    Some("d/é.txt is a symbolic link")
                ),
                (
                    "x.txt",
                    Origin::Named,
                    Path::new("x.txt"),
                    Some("the folder x.txt holds no files")
                ),
            ]
        );
        assert_eq!(inputs.get(9).name, "");
    }
}
