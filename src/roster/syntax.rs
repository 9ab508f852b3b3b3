//! The syntax of one native roster line, as both readers build it: the
//! hand-written one (`fast.rs`) and the pest grammar's (`parse.rs`).

use super::{Item, Spanned};

/// The key of a header line, in the order the grammar tries them
/// (`points limit` before `points`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum HeaderKey {
    Army,
    List,
    Allies,
    Ally,
    PointsLimit,
    Points,
    Limit,
    Player,
    Event,
    Version,
    Scenario,
    Side,
    OpponentPoints,
    OptionalRules,
}

impl HeaderKey {
    pub(super) const ALL: [HeaderKey; 14] = [
        HeaderKey::Army,
        HeaderKey::List,
        HeaderKey::Allies,
        HeaderKey::Ally,
        HeaderKey::PointsLimit,
        HeaderKey::Points,
        HeaderKey::Limit,
        HeaderKey::Player,
        HeaderKey::Event,
        HeaderKey::Version,
        HeaderKey::Scenario,
        HeaderKey::Side,
        HeaderKey::OpponentPoints,
        HeaderKey::OptionalRules,
    ];

    pub(super) fn text(self) -> &'static str {
        match self {
            HeaderKey::Army => "army",
            HeaderKey::List => "list",
            HeaderKey::Allies => "allies",
            HeaderKey::Ally => "ally",
            HeaderKey::PointsLimit => "points limit",
            HeaderKey::Points => "points",
            HeaderKey::Limit => "limit",
            HeaderKey::Player => "player",
            HeaderKey::Event => "event",
            HeaderKey::Version => "version",
            HeaderKey::Scenario => "scenario",
            HeaderKey::Side => "side",
            HeaderKey::OpponentPoints => "opponent points",
            HeaderKey::OptionalRules => "optional rules",
        }
    }

    pub(super) fn from_text(text: &str) -> Option<HeaderKey> {
        HeaderKey::ALL
            .into_iter()
            .find(|k| k.text().eq_ignore_ascii_case(text))
    }
}

/// What one native line holds, as both readers give it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Body {
    Header {
        key: HeaderKey,
        value: Spanned<String>,
    },
    CountsAs {
        model: Spanned<String>,
        target: Spanned<String>,
    },
    Entry {
        item: Item,
        upgrades: Vec<Item>,
        cost: Option<Spanned<u32>>,
    },
}

/// One native line read: its indentation (a tab counts four) and its body,
/// if it is not only a comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct NativeLine {
    pub(super) indent: usize,
    pub(super) body: Option<Body>,
}
