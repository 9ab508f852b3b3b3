//! The one escaping routine for text that reaches a terminal: control
//! characters and bidirectional overrides in input are shown as escapes,
//! never sent as they are. Every path that echoes input (diagnostics,
//! plain `error:` lines, tables, imports) goes through it.

use std::borrow::Cow;

/// Whether a character must not reach a terminal as it is: C0 and C1
/// controls (escape sequences, carriage returns, bells) and the
/// bidirectional overrides that reorder what is shown.
pub fn hostile_char(c: char) -> bool {
    (c.is_control() && c != '\t')
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Input text as it may be shown on a terminal: hostile characters become
/// `\u{1b}`-style escapes.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(hostile_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if hostile_char(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// [`escape`] for text of several lines (a plain `error:` message and its
/// `hint:`): its line breaks are kept, everything else is escaped alike.
pub fn escape_lines(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c != '\n' && hostile_char(c)) {
        return Cow::Borrowed(text);
    }
    let lines: Vec<Cow<'_, str>> = text.split('\n').map(escape).collect();
    Cow::Owned(lines.join("\n"))
}
