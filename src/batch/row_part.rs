//! A report row as its part of the batch's temporary file: each field in
//! turn, a text after its length (so any byte may be in it), a number
//! ended by `;`, a missing value as `-` and a present one after `+`.
//! Reading it back parses no JSON: a folder's report read its rows back
//! as JSON, a tenth of its time.

use crate::report::summary::{Row, Status};

/// The part of `row` (without its duplicates, found later).
pub fn write(row: &Row) -> String {
    let mut out = String::with_capacity(128 + row.file.len());
    let status = match row.status {
        Status::Legal => 0u8,
        Status::Illegal => 1,
        Status::Unreadable => 2,
        Status::NotARoster => 3,
    };
    text(&mut out, &row.file);
    number(&mut out, status);
    for field in [&row.player, &row.title, &row.army, &row.army_id, &row.version] {
        maybe(&mut out, field.as_deref(), text);
    }
    maybe(&mut out, row.points, number);
    maybe(&mut out, row.limit, number);
    number(&mut out, row.errors);
    number(&mut out, row.warnings);
    maybe(&mut out, row.first_error.as_deref(), text);
    out
}

/// The row a part says; `None` when it is not one [`write`] wrote.
pub fn read(part: &[u8]) -> Option<Row> {
    let part = std::str::from_utf8(part).ok()?;
    let mut r = Reader { rest: part };
    let file = r.text()?.to_string();
    let status = match r.number::<u8>()? {
        0 => Status::Legal,
        1 => Status::Illegal,
        2 => Status::Unreadable,
        3 => Status::NotARoster,
        _ => return None,
    };
    let mut texts = [const { None }; 5];
    for field in &mut texts {
        *field = r.maybe(|r| r.text().map(str::to_string))?;
    }
    let [player, title, army, army_id, version] = texts;
    let row = Row {
        file,
        status,
        player,
        title,
        army,
        army_id,
        version,
        points: r.maybe(Reader::number)?,
        limit: r.maybe(Reader::number)?,
        errors: r.number()?,
        warnings: r.number()?,
        first_error: r.maybe(|r| r.text().map(str::to_string))?,
        duplicates: Vec::new(),
    };
    r.rest.is_empty().then_some(row)
}

fn text(out: &mut String, text: &str) {
    out.push_str(itoa::Buffer::new().format(text.len()));
    out.push(':');
    out.push_str(text);
}

fn number<N: itoa::Integer>(out: &mut String, n: N) {
    out.push_str(itoa::Buffer::new().format(n));
    out.push(';');
}

fn maybe<T>(out: &mut String, value: Option<T>, put: fn(&mut String, T)) {
    match value {
        Some(value) => {
            out.push('+');
            put(out, value);
        }
        None => out.push('-'),
    }
}

/// What is left of a part being read.
struct Reader<'a> {
    rest: &'a str,
}

impl<'a> Reader<'a> {
    fn text(&mut self) -> Option<&'a str> {
        let (length, rest) = self.rest.split_once(':')?;
        let length: usize = length.parse().ok()?;
        let text = rest.get(..length)?;
        self.rest = &rest[length..];
        Some(text)
    }

    fn number<N: std::str::FromStr>(&mut self) -> Option<N> {
        let (n, rest) = self.rest.split_once(';')?;
        self.rest = rest;
        n.parse().ok()
    }

    /// A value that may be missing: `Some(None)` when it is.
    fn maybe<T>(&mut self, get: impl FnOnce(&mut Self) -> Option<T>) -> Option<Option<T>> {
        let (mark, rest) = self.rest.split_at_checked(1)?;
        self.rest = rest;
        match mark {
            "-" => Some(None),
            "+" => get(self).map(Some),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{read, write};
    use crate::report::summary::{Row, Status};
    use proptest::prelude::*;

    fn any_row() -> impl Strategy<Value = Row> {
        let text = || proptest::option::of(any::<String>());
        (
            (any::<String>(), 0..4u8, text(), text(), text(), text(), text()),
            (
                proptest::option::of(any::<i64>()),
                proptest::option::of(any::<u32>()),
                any::<usize>(),
                any::<usize>(),
                text(),
            ),
        )
            .prop_map(
                |(
                    (file, status, player, title, army, army_id, version),
                    (points, limit, errors, warnings, first_error),
                )| Row {
                    file,
                    status: [
                        Status::Legal,
                        Status::Illegal,
                        Status::Unreadable,
                        Status::NotARoster,
                    ][status as usize],
                    player,
                    title,
                    army,
                    army_id,
                    version,
                    points,
                    limit,
                    errors,
                    warnings,
                    first_error,
                    duplicates: Vec::new(),
                },
            )
    }

    proptest! {
        /// Any row comes back as it went in, and a part cut short or
        /// with a byte more is no row.
        #[test]
        fn rows_come_back_as_they_went_in(row in any_row(), cut in any::<prop::sample::Index>()) {
            let part = write(&row);
            let back = read(part.as_bytes());
            prop_assert_eq!(format!("{back:?}"), format!("{:?}", Some(&row)));
            let short = cut.index(part.len());
            prop_assert!(read(&part.as_bytes()[..short]).is_none());
            let longer = format!("{part};");
            prop_assert!(read(longer.as_bytes()).is_none());
        }
    }
}
