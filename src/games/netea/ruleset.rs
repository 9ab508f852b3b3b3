//! Epic Armageddon's ruleset: its formations' facts (`facts`) and the
//! 'Counts As' rule (`counts_as`) run in the shared stages, for every
//! game's rosters; nothing else of its own.

use crate::games::ruleset::Ruleset;

pub struct NetEa;

impl Ruleset for NetEa {}
