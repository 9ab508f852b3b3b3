//! What players and organisers see (issue 34): one typo gives one error
//! and the rules it would trip wait; a broken count says by how much; a
//! name that fits several lists asks which; a roster of another game at an
//! event is told only that. The annotated cases are roster files under
//! `tests/rosters/*/ux/` and `*/events/`; these tests read the words.

use super::common::catalogue;
use muster::check::{Checked, check_text, check_text_for};
use muster::diagnostic::{Diagnostic, Severity};
use muster::event::Event;
use muster::source::SourceFile;

fn check(text: &str) -> Checked<'static> {
    check_text(catalogue(), "roster.txt", text)
}

fn errors<'a>(c: &'a Checked<'_>) -> Vec<&'a Diagnostic> {
    c.diagnostics.iter().filter(|d| d.is_error()).collect()
}

fn event(path: &str) -> Event {
    let full = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(path);
    let text = std::fs::read_to_string(full).unwrap();
    muster::event::load(SourceFile::new(path, text), catalogue()).unwrap()
}

#[test]
fn an_unknown_upgrade_is_one_error_and_the_rules_that_count_it_wait() {
    let checked = check(
        "Army: Biel-Tan Craftworld\nPoints: 3000\n\n\
         Aspect Warrior Warhost: 4 Dire Avenger, 2 Fire Dragoons, 2 Warp Spider, 2 Wave Serpent, 2 Falcon\n",
    );
    let errors = errors(&checked);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!(errors[0].code.as_str(), "unknown-upgrade");
    assert!(
        errors[0].message.contains("Fire Dragoons"),
        "{}",
        errors[0].message
    );
    // Said once, after the error that names the item.
    let notes: Vec<&Diagnostic> = checked
        .diagnostics
        .iter()
        .filter(|d| d.message.contains("could not be read"))
        .collect();
    assert_eq!(notes.len(), 1, "{:#?}", checked.diagnostics);
    assert_eq!(notes[0].severity, Severity::Note);
    assert!(
        notes[0]
            .message
            .starts_with("`Fire Dragoons` could not be read, so ")
            && notes[0]
                .message
                .contains(" rules that could count it are not checked"),
        "{}",
        notes[0].message
    );
    let at = |d: &Diagnostic| checked.diagnostics.iter().position(|x| std::ptr::eq(x, d));
    assert!(at(errors[0]) < at(notes[0]));
}

#[test]
fn a_rule_that_only_counts_formations_still_holds_beside_an_unknown_upgrade() {
    // Two Avatars break `one-avatar`, an army rule that counts the Avatar
    // formation, which no misspelt upgrade could be.
    let checked = check(
        "Army: Biel-Tan Craftworld\nPoints: 3000\n\n\
         Avatar\nAvatar\n\
         Aspect Warrior Warhost: 4 Dire Avenger, 2 Fire Dragoons, 2 Warp Spider, 2 Wave Serpent, 2 Falcon\n",
    );
    let rules: Vec<Option<&str>> = errors(&checked)
        .iter()
        .map(|d| d.rule.as_ref().map(|r| r.id.as_str()))
        .collect();
    assert!(rules.contains(&Some("one-avatar")), "{:#?}", checked.diagnostics);
}

#[test]
fn a_broken_count_says_what_was_found_and_what_is_needed() {
    // A Phantom with one arm weapon: both arms must be armed.
    let titan = check(
        "Army: NetEpic Eldar (revision 8)\nPoints: 3000\n\nGuardian Host\n  \
         Phantom Titan: Flamewind, Wing Lascannon, Distortion Cannon\n",
    );
    let broken = errors(&titan)
        .into_iter()
        .find(|d| d.rule.as_ref().is_some_and(|r| r.id == "titan-required-weapons"))
        .expect("the titan rule is broken");
    assert!(
        broken.message.ends_with("(found 1; at least 2 needed)."),
        "{}",
        broken.message
    );
    // Just enough transports: three Wave Serpents carry six, for four.
    let transport = check(
        "Army: Saim-Hann Craftworld\nPoints: 3000\n\n\
         Wild Rider Clan (6): Wild Riders, 6 Saim-Hann Jetbikes\n\
         Aspect Warrior: 4 Fire Dragons, 2 Swooping Hawks, 3 Wave Serpent\n",
    );
    let broken = errors(&transport)
        .into_iter()
        .find(|d| {
            d.rule
                .as_ref()
                .is_some_and(|r| r.id == "aspect-transport-just-enough")
        })
        .expect("the transport rule is broken");
    assert!(
        broken.message.contains("(found 6; at most 5 allowed)"),
        "{}",
        broken.message
    );
}

#[test]
fn a_name_that_fits_several_lists_asks_which() {
    for (name, lists) in [
        (
            "Eldar",
            &[
                "Biel-Tan Craftworld",
                "Alaitoc",
                "Iyanden",
                "Saim-Hann Craftworld",
                "Dark Eldar",
            ][..],
        ),
        ("Imperial Guard", &["Steel Legion", "Death Korps of Krieg"][..]),
        (
            "Orks",
            &["Ghazghkull Thraka's War Horde", "Snagga-Snagga's Feral Orks"][..],
        ),
    ] {
        let checked = check(&format!("Army: {name}\nPoints: 3000\n"));
        let errors = errors(&checked);
        assert_eq!(errors.len(), 1, "{name}: {errors:#?}");
        let d = errors[0];
        assert_eq!(d.code.as_str(), "unknown-army");
        assert!(
            d.message.starts_with(&format!("`{name}` matches ")),
            "{}",
            d.message
        );
        for list in lists {
            assert!(
                d.message.contains(list) && d.hints.iter().any(|h| h.contains(list)),
                "{name}: {list} missing from {d:#?}"
            );
        }
        assert!(d.fix.is_none(), "{name}: no list is picked for the player");
    }
}

#[test]
fn the_lists_asked_about_are_of_the_rosters_game_when_it_is_known() {
    // The entries are NetEA's: only NetEA lists are offered.
    let checked =
        check("Army: Eldar\nPoints: 3000\n\nAspect Warrior Warhost: 4 Dire Avenger, 2 Wave Serpent\n");
    let d = errors(&checked)[0];
    assert!(
        d.message.starts_with("`Eldar` matches 5 lists: "),
        "{}",
        d.message
    );
    assert!(
        !d.message.contains("Fleet") && !d.message.contains("NetEpic"),
        "{}",
        d.message
    );
    // `Craftworld Eldar` on an Epic roster: the Epic craftworlds, not a
    // Battlefleet Gothic fleet.
    let checked = check(
        "Army: Craftworld Eldar\nPoints: 3000\n\nAspect Warrior Warhost: 4 Dire Avenger, 2 Wave Serpent\n",
    );
    let d = errors(&checked)[0];
    assert!(!d.message.contains("Fleet"), "{}", d.message);
    assert!(d.fix.as_deref().is_none_or(|f| !f.contains("Fleet")), "{d:#?}");
    assert!(d.hints.iter().all(|h| !h.contains("Fleet")), "{d:#?}");
    // At an event, the event's game.
    let night = event("events/fleet-night-1500.yaml");
    let checked = check_text_for(
        catalogue(),
        Some(&night),
        "roster.txt",
        "Army: Eldar\nPoints: 1500\n",
    );
    let d = errors(&checked)[0];
    assert!(
        d.message.contains("Fleet") && !d.message.contains("Alaitoc"),
        "{}",
        d.message
    );
}

#[test]
fn exact_names_and_unique_aliases_still_name_their_list() {
    for (name, id) in [
        ("Biel-Tan Craftworld", "biel-tan"),
        ("Biel-Tan Eldar", "biel-tan"),
        ("Steel Legion", "steel-legion"),
        ("Ork War Horde", "ghazghkull-war-horde"),
        ("Codex Astartes", "codex-astartes"),
        ("Dark Eldar", "dark-eldar"),
        ("NetEpic Eldar", "netepic-eldar"),
    ] {
        let checked = check(&format!("Army: {name}\nPoints: 3000\n"));
        assert_eq!(checked.list.map(|l| l.id.as_str()), Some(id), "{name}");
    }
}

#[test]
fn a_roster_of_another_game_at_an_event_is_told_only_that() {
    let club = event("events/club-3000.yaml");
    for (roster, game) in [
        (
            "Army: Armageddon Sector (2023-08-29)\nPoints: 1500\n\nGothic-class cruiser [180]\n",
            "this is a Battlefleet Gothic fleet",
        ),
        (
            "Army: Eldar Battlefleet (1991)\nPoints: 1000\n\n4x Eldar Shadowhunter [200]\n",
            "this is a Space Fleet fleet",
        ),
    ] {
        let checked = check_text_for(catalogue(), Some(&club), "roster.txt", roster);
        let errors = errors(&checked);
        assert_eq!(errors.len(), 1, "{errors:#?}");
        let d = errors[0];
        assert!(
            d.message.starts_with("Club Night is for Epic Armageddon") && d.message.ends_with(game),
            "{}",
            d.message
        );
        assert!(d.fix.is_none(), "{d:#?}");
        assert!(
            checked
                .diagnostics
                .iter()
                .all(|d| d.fix.as_deref() != Some("Points: 3000")),
            "{:#?}",
            checked.diagnostics
        );
        // The roster's own limit holds, not the event's.
        assert_ne!(checked.limit(), Some(3000));
    }
}
