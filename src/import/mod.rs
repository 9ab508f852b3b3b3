//! Rosters from other tools, turned into muster's own roster text so that
//! they go through the one pipeline (`check`) like any hand-written roster.
//!
//! [`snapfire`]: Snapfire share links, read and written.
//! [`battlescribe`]: BattleScribe rosters (`.ros`, `.rosz`), read.

pub mod battlescribe;
pub mod snapfire;
