//! Space Fleet's ruleset: nothing of its own beyond its lists.

use crate::games::ruleset::Ruleset;

pub struct SpaceFleet;

impl Ruleset for SpaceFleet {}
