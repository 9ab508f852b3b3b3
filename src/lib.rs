//! muster: army-list builder and tournament validator.
//!
//! The pipeline, one module a stage, data flowing one way:
//!
//! 1. [`catalogue`]: list files (YAML, checked against their JSON Schema) to
//!    a cross-referenced catalogue of armies, formations, upgrades, rules.
//! 2. [`roster`]: roster text (`grammar/roster.pest`) to a syntax tree.
//! 3. [`resolve`]: the tree's names matched against one army list, giving an
//!    [`resolve::Army`] with points.
//! 4. [`validate`]: the army checked against its list's rules
//!    ([`rules`], `grammar/rules.pest`) and the game's, giving diagnostics.
//! 5. [`report`]: results as terminal text and JSON; [`cli`] is the edge.
//!
//! [`import`] turns other tools' rosters (Snapfire share links, BattleScribe
//! files) into roster text for the same pipeline, and writes share links
//! back; [`intake`] is the stage that does so before [`check`]'s stages.
//! Each game's own rules are in its folder under [`games`], behind its
//! ruleset (`games::ruleset::Ruleset`).
//!
//! [`serve`] is the local web builder (`muster serve`) on the same engine.
//!
//! [`batch`] runs the pipeline over many rosters at once (folders walked,
//! files checked in parallel, duplicates found) for organisers.
//!
//! There is no semantic-versioning promise for this library API; the CLI and
//! its JSON output are the contract.

pub mod batch;
pub mod catalogue;
pub mod check;
#[cfg(feature = "cli")]
pub mod cli;
pub mod diagnostic;
pub mod escape;
pub mod event;
/// The bodies of the fuzz targets (`fuzz/`), run by the tests on stable.
#[doc(hidden)]
pub mod fuzz_support;
pub mod games;
pub mod import;
pub mod intake;
pub mod notation;
pub mod plural;
pub mod print;
pub mod report;
pub mod resolve;
pub mod roster;
pub mod rules;
pub mod scenario;
#[cfg(feature = "serve")]
pub mod serve;
pub mod share;
pub mod source;
pub mod validate;
