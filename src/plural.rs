//! Counts and nouns: `1 Rhino`, `2 Rhinos`, whichever form a list writes
//! a name in (upgrades are often named in the plural, `Rhinos`; datasheets
//! in the singular, `Wave Serpent`).
//!
//! English plurals of unit and ship names, by the shape of the name's last
//! word before any bracket or `of` (`Guardian Warhost (Wave Serpents)`
//! counts warhosts): `-y` after a consonant takes `-ies`, a hissing end (`-s`,
//! `-x`, `-z`, `-sh`, `-ch`) takes `-es`, `-man` becomes `-men`; mass nouns
//! (`Infantry`) and Ork plurals in `-z` (`Boyz`) stay as they are.

/// `count` of `name`, the noun agreeing with the count: `1 Rhino`,
/// `3 Rhinos`, from `Rhino` or `Rhinos` alike.
pub fn count(count: i64, name: &str) -> String {
    if count == 1 || count == -1 {
        format!("{count} {}", singular(name))
    } else {
        format!("{count} {}", plural(name))
    }
}

/// The name with its head noun in the plural; a plural name is returned
/// as it is.
pub fn plural(name: &str) -> String {
    on_head(name, |word| {
        if is_plural(word) || is_invariant(word) {
            return word.to_string();
        }
        let lower = word.to_ascii_lowercase();
        if let Some(stem) = word.strip_suffix("man") {
            return format!("{stem}men");
        }
        if lower.ends_with('y') && !ends_with_vowel_y(&lower) {
            return format!("{}ies", &word[..word.len() - 1]);
        }
        if hisses(&lower) {
            return format!("{word}es");
        }
        format!("{word}s")
    })
}

/// The name with its head noun in the singular; a singular name is
/// returned as it is.
pub fn singular(name: &str) -> String {
    on_head(name, |word| {
        if !is_plural(word) {
            return word.to_string();
        }
        let lower = word.to_ascii_lowercase();
        if let Some(stem) = word.strip_suffix("men") {
            return format!("{stem}man");
        }
        if let Some(stem) = word.strip_suffix("ies") {
            return format!("{stem}y");
        }
        if let Some(stem) = lower.strip_suffix("es")
            && hisses(stem)
            && !stem.ends_with('s')
        {
            return word[..stem.len()].to_string();
        }
        if lower.ends_with("sses") {
            return word[..word.len() - 2].to_string();
        }
        word[..word.len() - 1].to_string()
    })
}

/// Applies `change` to the head noun: the last word before a bracket or
/// an `of` (`Lords of Change`).
fn on_head(name: &str, change: impl Fn(&str) -> String) -> String {
    let (head, tail) = match name.find(" (").into_iter().chain(name.find(" of ")).min() {
        Some(at) => name.split_at(at),
        None => (name, ""),
    };
    let start = head.rfind(' ').map_or(0, |i| i + 1);
    let word = &head[start..];
    if word.is_empty() || !word.chars().all(|c| c.is_alphabetic() || c == '-' || c == '\'') {
        return name.to_string();
    }
    format!("{}{}{tail}", &head[..start], change(word))
}

/// Whether a word reads as a plural: `-men`, or an `-s` that is not part
/// of the word itself (`Leman Russ`, `Colossus`, `Nemesis`, `Chaos`).
fn is_plural(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    if lower.ends_with("men") && lower.len() > 3 {
        return true;
    }
    lower.ends_with('s')
        && !lower.ends_with("ss")
        && !lower.ends_with("us")
        && !lower.ends_with("is")
        && !lower.ends_with("aos")
}

/// Words the same in both numbers: mass nouns, and Ork plurals in `-z`.
fn is_invariant(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    matches!(
        lower.as_str(),
        "infantry" | "cavalry" | "artillery" | "wraithguard" | "chaos" | "kin" | "spawn"
    ) || lower.ends_with('z')
}

fn ends_with_vowel_y(lower: &str) -> bool {
    let mut rev = lower.chars().rev();
    rev.next();
    matches!(rev.next(), Some('a' | 'e' | 'i' | 'o' | 'u'))
}

/// A word whose plural takes `-es`: `-s`, `-x`, `-sh`, and `-ch` where it
/// is not said `k` (`Exarch`, `Monarch`).
fn hisses(lower: &str) -> bool {
    lower.ends_with('s')
        || lower.ends_with('x')
        || lower.ends_with("sh")
        || (lower.ends_with("ch") && !lower.ends_with("arch"))
}

#[cfg(test)]
mod tests {
    use super::{count, plural, singular};

    #[test]
    fn counts_agree_with_their_nouns() {
        assert_eq!(count(1, "Rhinos"), "1 Rhino");
        assert_eq!(count(2, "Rhino"), "2 Rhinos");
        assert_eq!(count(4, "Wave Serpent"), "4 Wave Serpents");
        assert_eq!(count(1, "Wave Serpent"), "1 Wave Serpent");
        assert_eq!(count(0, "Land Raiders"), "0 Land Raiders");
        assert_eq!(count(2, "Battery"), "2 Batteries");
        assert_eq!(count(1, "Batteries"), "1 Battery");
        assert_eq!(count(3, "Leman Russ"), "3 Leman Russes");
        assert_eq!(count(1, "Leman Russes"), "1 Leman Russ");
        assert_eq!(count(2, "Exarch"), "2 Exarchs");
        assert_eq!(count(2, "Boyz"), "2 Boyz");
        assert_eq!(count(5, "Colossus"), "5 Colossuses");
        assert_eq!(count(2, "Heavy Weapon Platform"), "2 Heavy Weapon Platforms");
    }

    #[test]
    fn the_head_noun_is_before_a_bracket() {
        assert_eq!(
            plural("Venerable battle barge (Apocalypse)"),
            "Venerable battle barges (Apocalypse)"
        );
        assert_eq!(
            singular("Guardian Warhosts (Wave Serpents)"),
            "Guardian Warhost (Wave Serpents)"
        );
        assert_eq!(plural("Lord of Change"), "Lords of Change");
        assert_eq!(plural("Infantry"), "Infantry");
        assert_eq!(plural("Gunman"), "Gunmen");
        assert_eq!(singular("Gunmen"), "Gunman");
        assert_eq!(plural("Ork Boyz"), "Ork Boyz");
        assert_eq!(plural("Daemon Engine"), "Daemon Engines");
        assert_eq!(plural("Sky Ray"), "Sky Rays");
        assert_eq!(plural("T-72"), "T-72");
    }
}
