//! The rosters of a batch, as the walk found them, kept until the reports
//! are written: so packed, since a batch can hold 100,000 of them. Every
//! name is in one string, each folder's path once for the files in it
//! that follow each other, and each input's end in it four bytes; the few
//! inputs that are not a file found in a folder under its own name (a
//! path given on the command line, standard input, a share link, a name
//! that is not UTF-8, a problem found while walking) keep the rest beside,
//! by index.

use std::borrow::Cow;
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
    /// The folders' paths and the rest of each name, one after another.
    names: String,
    /// Where the rest of each input's name ends in `names`.
    ends: Vec<u32>,
    /// Where the folders' paths are in `names` (start, end), each with the
    /// first input of the run of inputs in that folder: an input's name is
    /// its run's folder, then the rest (before any run, no folder).
    folders: Vec<(usize, [u32; 2])>,
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
#[derive(Debug, Clone)]
pub struct Input<'a> {
    /// The name results carry: the path as given or walked, or `<stdin>`.
    pub name: Cow<'a, str>,
    pub origin: Origin,
    other: Option<&'a Other>,
}

impl<'a> Input<'a> {
    /// Where to read it (unused for standard input).
    pub fn path(&self) -> &Path {
        let other = self.other.and_then(|o| o.path.as_deref());
        other.unwrap_or(Path::new(&*self.name))
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
        let other = self.other(i);
        let name = match other.and_then(|o| o.name.as_deref()) {
            Some(name) => Cow::Borrowed(name),
            None => self.name(i),
        };
        Input {
            name,
            origin: other.and_then(|o| o.origin).unwrap_or(Origin::Walked),
            other,
        }
    }

    /// How input `i` came to be checked, without making its name.
    pub fn origin(&self, i: usize) -> Origin {
        self.other(i).and_then(|o| o.origin).unwrap_or(Origin::Walked)
    }

    fn other(&self, i: usize) -> Option<&Other> {
        let at = self.others.binary_search_by_key(&i, |(at, _)| *at).ok()?;
        Some(&self.others[at].1)
    }

    /// Input `i`'s name from `names`: its folder, then the rest.
    fn name(&self, i: usize) -> Cow<'_, str> {
        if i >= self.len() {
            return Cow::Borrowed("");
        }
        let part = |[start, end]: [u32; 2]| self.names.get(start as usize..end as usize).unwrap_or_default();
        let run = self
            .folders
            .partition_point(|(first, _)| *first <= i)
            .checked_sub(1);
        let (folder, first) = run.map_or(([0, 0], 0), |r| (self.folders[r].1, self.folders[r].0));
        // The rest starts where the previous input's ends, or after the
        // folder's path for the first of a run.
        let start = match i.checked_sub(1) {
            Some(previous) if i != first => self.ends.get(previous).copied().unwrap_or(0),
            _ => folder[1],
        };
        let rest = part([start, self.ends.get(i).copied().unwrap_or(start)]);
        match part(folder) {
            "" => Cow::Borrowed(rest),
            folder => {
                let mut name = String::with_capacity(folder.len() + rest.len());
                name.push_str(folder);
                name.push_str(rest);
                Cow::Owned(name)
            }
        }
    }

    pub fn iter(&self) -> impl ExactSizeIterator<Item = Input<'_>> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Adds an input named `name`, with what it has beside (nothing for a
    /// file found by a walk under its own name).
    pub fn push(&mut self, name: &str, mut other: Other) {
        other.name = None;
        // The folder: up to the last separator, which it keeps (`/`, or
        // the platform's own).
        let separator = std::path::MAIN_SEPARATOR as u8;
        let cut = memchr::memrchr2(b'/', separator, name.as_bytes()).map_or(0, |at| at + 1);
        let (folder, rest) = name.split_at(cut);
        let fits = u32::try_from(self.names.len() + folder.len() + rest.len()).is_ok();
        if !fits {
            other.name = Some(name.into());
        } else {
            let current = self.folders.last().map_or([0, 0], |f| f.1);
            if self.names.get(current[0] as usize..current[1] as usize) != Some(folder) {
                let start = self.names.len() as u32;
                self.names.push_str(folder);
                self.folders
                    .push((self.ends.len(), [start, self.names.len() as u32]));
            }
            self.names.push_str(rest);
        }
        self.ends.push(self.names.len() as u32);
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
        self.folders.shrink_to_fit();
        self.others.shrink_to_fit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a test compares of an input.
    fn seen(input: Input<'_>) -> (String, Origin, std::path::PathBuf, Option<String>) {
        (
            input.name.to_string(),
            input.origin,
            input.path().to_path_buf(),
            input.problem_found().map(str::to_string),
        )
    }

    /// Names come back whole and in order, whatever folders they are in
    /// and in whatever order the folders come back; plain walked files
    /// keep nothing beside them, the others what they were given.
    #[test]
    fn inputs_round_trip_their_names_origins_and_problems() {
        let mut inputs = Inputs::default();
        assert!(inputs.is_empty());
        let names = [
            "d/a.txt",
            "d/b.txt",
            "d/e/c.txt",
            "d/é.txt",
            "",
            "/",
            "top.txt",
            "d/e/c.txt",
            "d/",
            "d//x",
        ];
        for name in names {
            inputs.push(name, Other::default());
        }
        inputs.set_problem("d//x is a symbolic link".into());
        let stdin = Other {
            origin: Some(Origin::Stdin),
            path: Some(Path::new("-").into()),
            ..Other::default()
        };
        inputs.push("<stdin>", stdin);
        let named = Other {
            origin: Some(Origin::Named),
            ..Other::default()
        };
        inputs.push("x/y.txt", named);
        inputs.set_problem("the folder x/y.txt holds no files".into());
        inputs.shrink_to_fit();
        assert_eq!(inputs.len(), names.len() + 2);
        assert_eq!(inputs.others.len(), 3, "plain walked files keep nothing beside");
        for (i, name) in names.iter().enumerate() {
            let problem = (i == 9).then(|| "d//x is a symbolic link".to_string());
            let want = (
                name.to_string(),
                Origin::Walked,
                Path::new(name).to_path_buf(),
                problem,
            );
            assert_eq!(seen(inputs.get(i)), want, "{i}");
            assert_eq!(inputs.origin(i), Origin::Walked);
        }
        let stdin = ("<stdin>".to_string(), Origin::Stdin, "-".into(), None);
        assert_eq!(seen(inputs.get(10)), stdin);
        let problem = Some("the folder x/y.txt holds no files".to_string());
        let named = ("x/y.txt".to_string(), Origin::Named, "x/y.txt".into(), problem);
        assert_eq!(seen(inputs.get(11)), named);
        assert_eq!(inputs.origin(11), Origin::Named);
        assert_eq!(inputs.get(99).name, "");
        // A folder's path is kept once for the files that follow in it.
        assert_eq!(
            inputs.names,
            "d/a.txtb.txtd/e/c.txtd/é.txt/top.txtd/e/c.txtd/d//x<stdin>x/y.txt"
        );
    }
}
