//! The command line as clap sees it. Nothing here reaches the library: the
//! commands translate these types at the edge.

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Army-list builder and tournament validator for Epic Armageddon (NetEA)
/// and other 6mm and fleet-scale wargames.
#[derive(Debug, Parser)]
#[command(name = "muster", version, about, long_about = None, after_help = EXIT_CODES)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,

    /// Also load army lists from this folder (YAML files; a list with the
    /// same game and id as a built-in one replaces it). A check of one
    /// roster reads in full only the files its list needs (that list and
    /// the files of its game); `lists --check --lists DIR` checks them all.
    #[arg(long, global = true, value_name = "DIR")]
    pub lists: Option<PathBuf>,

    /// When to colour the output.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// Show what list authors need: each broken rule's expression with the
    /// values it compared, and its full provenance with source lines (in
    /// `muster options` too: each rule's expression and full source).
    #[arg(long, short, global = true)]
    pub verbose: bool,
}

const EXIT_CODES: &str = "Exit status: 0 all rosters legal (or command succeeded), \
1 a roster is not legal (or list data is inconsistent, or a file found in a folder is not a usable roster), \
2 a path given cannot be used (missing, unreadable, empty, binary, not UTF-8, over 1 MiB), \
the report cannot be written, wrong arguments, or a request muster cannot carry out \
(a Snapfire link for a list Snapfire does not have).";

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check rosters against their army lists.
    Check {
        /// Roster files, or folders of them (walked recursively, in path
        /// order; names starting with `.` are left out); `-` reads standard
        /// input; a Snapfire share link is checked as the roster it holds. One file prints its findings in full; several print a
        /// table with one line per roster.
        #[arg(value_name = "FILE_OR_DIR", required = true)]
        files: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Apply an event's rules too (points, lists and versions allowed,
        /// 'Counts As', extra restrictions). `muster event new` writes one.
        #[arg(long, value_name = "EVENT.yaml")]
        event: Option<PathBuf>,
        /// The game's size in points, for every roster: a Snapfire export
        /// states only what its force costs, so without this (or a
        /// `Points:` line, or an event) muster assumes the next multiple
        /// of 250 and says so.
        #[arg(long, value_name = "N", conflicts_with = "event", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
        points: Option<u32>,
        /// Also write a report of every roster and its findings; the
        /// format follows the extension: .html, .csv or .json. Written
        /// whole or not at all; a report that cannot be written is found
        /// before any roster is checked.
        #[arg(long, value_name = "OUT")]
        report: Option<PathBuf>,
    },
    /// Work with event files.
    Event {
        #[command(subcommand)]
        action: EventAction,
    },
    /// Show every army list muster knows.
    Lists {
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Load every list file and report every inconsistency. With
        /// --lists: the folder's files, and the built-in lists of each
        /// game whose datasheets the folder adds.
        #[arg(long)]
        check: bool,
        /// With --check --lists: prove every built-in file again too,
        /// with its warnings.
        #[arg(long, requires = "check")]
        built_in: bool,
    },
    /// Show an army list: its formations, upgrades, points and rules.
    Options {
        /// The list's id, name or alias.
        army: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Print a starter roster with every choice of an army list as a
    /// comment; or, with --game heresy, write a starter army list (a list
    /// file and its units' datasheet file, commented) for a game whose
    /// lists players write.
    New {
        /// The list's id, name or alias.
        #[arg(required_unless_present = "game", conflicts_with = "game")]
        army: Option<String>,
        /// Write a starter list for this game instead (`heresy`).
        #[arg(long, value_name = "GAME")]
        game: Option<String>,
        /// With --game: the folder to write the files into.
        #[arg(long, value_name = "DIR", default_value = ".", requires = "game")]
        out: PathBuf,
        /// The points limit to put in the roster [default: 3000 for Epic
        /// Armageddon, 1500 for Battlefleet Gothic].
        #[arg(long)]
        points: Option<u32>,
    },
    /// Explain datasheet notation part by part (`muster explain "MW2+,
    /// TK(D3), FxF"`, or ship values such as "F6+/5+, L/F/R"), or with
    /// --army show one unit's or ship's datasheet.
    Explain {
        /// Notation, comma-separated; with --army, a unit's or ship's name
        /// (for a fleet list, ship notation otherwise).
        text: String,
        /// The army list whose unit TEXT names.
        #[arg(long)]
        army: Option<String>,
    },
    /// Print a crib sheet of datasheets: every unit of an army list, or
    /// only the units of a roster. HTML on standard output unless --pdf or
    /// --html says where to write. For a roster, the lines it cannot place
    /// are reported and the exit status is that of `muster check`.
    #[command(group(clap::ArgGroup::new("units").required(true).args(["army", "roster"])))]
    Sheet {
        /// The list's id, name or alias (not with --roster: the roster
        /// names its army).
        #[arg(conflicts_with = "roster")]
        army: Option<String>,
        /// Only the units this roster fields.
        #[arg(long, value_name = "FILE")]
        roster: Option<PathBuf>,
        #[command(flatten)]
        print: PrintArgs,
    },
    /// Print a roster with its check result, as PDF (--pdf) or HTML. An
    /// illegal roster still prints, its errors first; the exit status is
    /// that of `muster check`.
    Roster {
        /// The roster file; `-` reads standard input.
        file: PathBuf,
        /// Append the crib sheet of the roster's units.
        #[arg(long)]
        with_sheet: bool,
        /// Check against an event's rules too.
        #[arg(long, value_name = "EVENT.yaml")]
        event: Option<PathBuf>,
        /// Print the roster's share link instead of a document: muster's
        /// own (every game; the roster itself, packed into the address),
        /// opened by the builder of any `muster serve`. The address of a
        /// muster server may follow (`--share=https://club.example/`;
        /// default http://127.0.0.1:8080/). `--share=snapfire` prints
        /// Snapfire's link instead (NetEA lists Snapfire has), at another
        /// chooser page with `--share=snapfire:https://.../chooser.html`.
        #[arg(long, value_name = "SERVER_URL|snapfire", num_args = 0..=1, require_equals = true, default_missing_value = "muster")]
        share: Option<String>,
        #[command(flatten)]
        print: PrintArgs,
    },
    /// Print a Snapfire share link or a BattleScribe roster (.ros, .rosz)
    /// as a muster roster.
    Import {
        /// The link (quote it in the shell), a file holding it, or a
        /// BattleScribe roster file; `-` reads standard input.
        #[arg(value_name = "LINK_OR_FILE")]
        link: String,
    },
    /// Start the web builder: a local page where a roster is built by
    /// clicking and checked on every change. With --submissions, players
    /// submit rosters to the event and the organiser sees them on
    /// /organiser, with the organiser's key.
    Serve {
        /// The address to listen on; only this machine by default.
        #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8080")]
        listen: String,
        /// Check every roster against an event's rules too.
        #[arg(long, value_name = "EVENT.yaml")]
        event: Option<PathBuf>,
        /// Accept submissions for the event into this folder (a file per
        /// player, replaced when they submit again) and show them on
        /// /organiser. Needs --event.
        #[arg(long, value_name = "DIR", requires = "event")]
        submissions: Option<PathBuf>,
        /// The address players use, behind a reverse proxy
        /// (`https://muster.example.org`): links use it, and requests must
        /// name its host.
        #[arg(long, value_name = "URL")]
        public_url: Option<String>,
        /// Take each client's address from the proxy's X-Forwarded-For, for
        /// the rate limits. Only behind a proxy that sets it.
        #[arg(long)]
        trust_proxy: bool,
        /// The organiser's key for /organiser (default: the
        /// MUSTER_ORGANISER_KEY environment variable, else a random key
        /// printed at start).
        #[arg(long, value_name = "KEY")]
        organiser_key: Option<String>,
        /// Connections served at once.
        #[arg(long, value_name = "N", default_value_t = 1024)]
        max_connections: usize,
        /// Checks (pages, clicks, downloads) a client may ask for a minute;
        /// 0: no limit.
        #[arg(long, value_name = "N", default_value_t = 600)]
        checks_per_minute: u32,
        /// Submissions (and organiser log-ins) a client may send a minute;
        /// 0: no limit.
        #[arg(long, value_name = "N", default_value_t = 10)]
        submissions_per_minute: u32,
    },
    /// Write the JSON Schemas of list files and of the JSON output.
    Schema {
        /// The folder to write to.
        #[arg(long, value_name = "DIR", default_value = "schema")]
        out: PathBuf,
        /// Only compare: fail if the files differ from what muster generates.
        #[arg(long)]
        check: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum EventAction {
    /// Print a commented event file to start from.
    New {
        /// The game the event plays (`netea`, `bfg`, `space-fleet`,
        /// `netepic`); its lists, each with the version muster has, and
        /// its usual points fill the template.
        #[arg(long, default_value = "netea")]
        game: String,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// Where printed documents go.
#[derive(Debug, Clone, clap::Args)]
pub struct PrintArgs {
    /// Write a PDF to this file (`-`: standard output).
    #[arg(long, value_name = "OUT.pdf")]
    pub pdf: Option<PathBuf>,
    /// Write HTML to this file (`-`: standard output, the default when
    /// --pdf is not given).
    #[arg(long, value_name = "OUT.html")]
    pub html: Option<PathBuf>,
    /// Paper size.
    #[arg(long, value_enum, default_value_t = PaperChoice::A4)]
    pub paper: PaperChoice,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PaperChoice {
    A4,
    Letter,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Args, clap::Error> {
        Args::try_parse_from(std::iter::once("muster").chain(args.iter().copied()))
    }

    #[test]
    fn check_needs_files() {
        assert!(parse(&["check"]).is_err());
        let args = parse(&["check", "a.txt", "b.txt", "--format", "json"]).unwrap();
        match args.command {
            Command::Check { files, format, .. } => {
                assert_eq!(files.len(), 2);
                assert_eq!(format, Format::Json);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn sheet_takes_an_army_or_a_roster_but_not_both() {
        assert!(parse(&["sheet"]).is_err());
        assert!(parse(&["sheet", "orks", "--roster", "r.txt"]).is_err());
        match parse(&[
            "sheet", "--roster", "r.txt", "--pdf", "out.pdf", "--paper", "letter",
        ])
        .unwrap()
        .command
        {
            Command::Sheet { army, roster, print } => {
                assert_eq!(army, None);
                assert_eq!(roster, Some(PathBuf::from("r.txt")));
                assert_eq!(print.pdf, Some(PathBuf::from("out.pdf")));
                assert_eq!(print.paper, PaperChoice::Letter);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn roster_prints_to_a4_by_default() {
        match parse(&["roster", "r.txt", "--with-sheet"]).unwrap().command {
            Command::Roster {
                with_sheet, print, ..
            } => {
                assert!(with_sheet);
                assert_eq!(print.paper, PaperChoice::A4);
                assert_eq!(print.pdf, None);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn global_flags_go_anywhere() {
        let args = parse(&["lists", "--lists", "dir", "--color", "never"]).unwrap();
        assert_eq!(args.lists, Some(PathBuf::from("dir")));
        assert_eq!(args.color, ColorChoice::Never);
    }

    #[test]
    fn new_has_a_default_limit() {
        match parse(&["new", "orks"]).unwrap().command {
            Command::New { points, .. } => assert_eq!(points, None),
            other => panic!("{other:?}"),
        }
    }
}
