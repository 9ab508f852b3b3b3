//! The HTML report of a batch (`muster check DIR --report OUT.html`): a
//! sortable table of every roster and, below it, each roster's findings,
//! laid out to read well on paper too. Template: `templates/check-report.html`.
//!
//! Everything a roster contains reaches the page only through HTML
//! escaping (`"`, `'`, `&`, `<`, `>`), in text and in attributes alike:
//! askama's, or [`Escaped`]'s, which escapes the same way (a test proves
//! it against askama's own escaper) and copies a text that needs none
//! without a byte-by-byte pass. The templates mark nothing `safe`. No I/O
//! here.

use super::summary::{Row, Rows, Summary};
use crate::check::Checked;
use crate::diagnostic::Diagnostic;
use askama::Template;

/// The page around the rosters: the table's head and the footer. Each
/// roster's line goes in the table's body, and its section after the `Each
/// roster` heading ([`write`]).
#[derive(Template)]
#[template(path = "check-report.html")]
struct Page<'a> {
    muster: &'static str,
    event: Option<&'a str>,
    totals: String,
}

/// A roster's line in the table.
#[derive(Template)]
#[template(path = "check-report-row.html")]
struct TableRow<'a> {
    r: &'a RowView,
}

/// The start of a roster's section: its name, facts and duplicates.
#[derive(Template)]
#[template(path = "check-report-roster.html")]
struct SectionHead<'a> {
    r: &'a RowView,
}

/// The rest of a roster's section: formations and findings, rendered when
/// the roster is checked.
#[derive(Template)]
#[template(path = "check-report-findings.html")]
struct SectionBody {
    r: Detail,
}

/// A text escaped for HTML as askama escapes it (each of `"&'<>` as its
/// decimal reference), which the templates print as it is: made only by
/// [`Escaped::new`]. A report escapes every text of every roster, and
/// askama reads each byte through a table.
struct Escaped(String);

impl Escaped {
    fn new(text: String) -> Escaped {
        // `"` or `&`, `&` or `'`, `<` or `>`: three masked tests, which the
        // compiler keeps as vector compares (a `matches!` of the five
        // became a bit test it could not).
        let special = |b: u8| ((b & 0xfb) == b'"') | ((b & 0xfe) == b'&') | ((b & 0xfd) == b'<');
        if !super::scan::any_byte(text.as_bytes(), special) {
            return Escaped(text);
        }
        let mut out = String::with_capacity(text.len() + 16);
        let mut start = 0;
        for (at, &b) in text.as_bytes().iter().enumerate() {
            if special(b) {
                // `at` is an ASCII byte, so a character boundary.
                out.push_str(&text[start..at]);
                out.push_str(match b {
                    b'"' => "&#34;",
                    b'&' => "&#38;",
                    b'\'' => "&#39;",
                    b'<' => "&#60;",
                    _ => "&#62;",
                });
                start = at + 1;
            }
        }
        out.push_str(&text[start..]);
        Escaped(out)
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl std::fmt::Display for Escaped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl askama::filters::HtmlSafe for Escaped {}

/// Written as it is, without the formatter.
impl askama::FastWritable for Escaped {
    fn write_into(&self, dest: &mut dyn std::fmt::Write, _: &dyn askama::Values) -> askama::Result<()> {
        Ok(dest.write_str(&self.0)?)
    }
}

struct RowView {
    /// `r1`, `r2`, ...: the anchor of the roster's findings.
    anchor: String,
    file: Escaped,
    player: Escaped,
    army: Escaped,
    version: Escaped,
    points: Escaped,
    /// The points as a number for sorting (empty sorts first).
    points_sort: String,
    /// `legal`, `illegal`, `unreadable`: the CSS class and the sort key.
    status_class: &'static str,
    status: Escaped,
    first_error: Escaped,
    duplicates: Vec<Escaped>,
}

struct DiagnosticView {
    severity: &'static str,
    code: &'static str,
    /// `line 3, column 9`, or empty for findings about the whole file.
    place: String,
    message: Escaped,
    /// The roster line it points at.
    source: Option<Escaped>,
    rule: Option<Escaped>,
    hints: Vec<Escaped>,
    fix: Option<Escaped>,
}

impl DiagnosticView {
    fn new(d: &Diagnostic) -> DiagnosticView {
        let source = d.primary.as_ref().map(|label| {
            let (line, _) = label.file.line_col(label.span.start);
            let span = label.file.line_span(line);
            let text = label.file.text().get(span.start..span.end).unwrap_or_default();
            Escaped::new(excerpt(text, label.span.start.saturating_sub(span.start)))
        });
        DiagnosticView {
            severity: d.severity.as_str(),
            code: d.code.as_str(),
            place: d
                .line_col()
                .map(|(line, column)| place(line, column))
                .unwrap_or_default(),
            message: Escaped::new(crate::diagnostic::quoted(&d.message)),
            source,
            // The report is for organisers and players: provenance in
            // words; the expression stays in the JSON report.
            rule: d.rule.as_ref().map(|r| {
                let mut rule = r.plain_provenance();
                rule.push_str(" [");
                rule.push_str(&r.id);
                rule.push(']');
                Escaped::new(rule)
            }),
            hints: (d.hints.iter())
                .map(|h| Escaped::new(crate::diagnostic::quoted(h)))
                .collect(),
            fix: d.fix.clone().map(Escaped::new),
        }
    }
}

/// `line 3, column 7`, written without the formatter (a report has a
/// place for every finding of every roster).
fn place(line: usize, column: usize) -> String {
    let mut out = String::with_capacity(24);
    out.push_str("line ");
    out.push_str(itoa::Buffer::new().format(line));
    out.push_str(", column ");
    out.push_str(itoa::Buffer::new().format(column));
    out
}

/// What the page shows of one roster beyond its row: its formations and
/// every finding.
struct Detail {
    formations: Vec<(Escaped, i64)>,
    diagnostics: Vec<DiagnosticView>,
}

/// The formations and findings of one roster, as its section ends: made
/// when the roster is checked, so the result need not be kept.
pub fn findings(c: &Checked<'_>) -> Result<String, askama::Error> {
    let r = Detail {
        formations: c
            .army
            .iter()
            .flat_map(|a| {
                a.formations.iter().enumerate().map(|(i, f)| {
                    // A squadron's ships follow it, marked as its members.
                    let name = if f.group.is_some() {
                        format!("↳ {}", f.name)
                    } else {
                        f.name.clone()
                    };
                    (Escaped::new(name), a.points_of(i))
                })
            })
            .collect(),
        diagnostics: c.diagnostics.iter().map(DiagnosticView::new).collect(),
    };
    SectionBody { r }.render()
}

/// The report as one self-contained HTML document, from results kept
/// whole (`results` are the summary's rosters, in order): for a few
/// rosters, as `muster serve` shows them; a batch writes with [`write`].
pub fn render(summary: &Summary, results: &[Checked<'_>]) -> Result<String, askama::Error> {
    let mut page = Vec::new();
    let mut parts =
        (results.iter()).map(|c| findings(c).map(String::into_bytes).map_err(std::io::Error::other));
    write(summary, &mut page, &mut parts).map_err(|e| askama::Error::Custom(Box::new(e)))?;
    Ok(String::from_utf8_lossy(&page).into_owned())
}

/// The report as one self-contained HTML document, written to `out`: a
/// line in the table for each of the rows, then each row's section ending
/// with its [`findings`], given in the same order. The rows are read twice,
/// never kept.
pub fn write<W: std::io::Write + ?Sized>(
    rows: &dyn Rows,
    out: &mut W,
    findings: &mut dyn Iterator<Item = std::io::Result<Vec<u8>>>,
) -> std::io::Result<()> {
    let page = Page {
        muster: env!("CARGO_PKG_VERSION"),
        event: rows.event(),
        totals: rows.totals(),
    }
    .render()
    .map_err(std::io::Error::other)?;
    // Every text of a roster is escaped, so the table's and the heading's
    // markup occur only where the template wrote them.
    let at = |marker: &str, from: usize| {
        page[from..]
            .find(marker)
            .map_or(page.len(), |at| from + at + marker.len())
    };
    let table = at("<tbody>", 0);
    let sections = at("<h2>Each roster</h2>", table);
    out.write_all(&page.as_bytes()[..table])?;
    for (i, r) in rows.read()?.enumerate() {
        let line = TableRow {
            r: &RowView::new(i, &r?),
        }
        .render()
        .map_err(std::io::Error::other)?;
        write!(out, "\n{line}")?;
    }
    out.write_all(&page.as_bytes()[table..sections])?;
    for (i, (r, body)) in rows.read()?.zip(findings).enumerate() {
        let head = SectionHead {
            r: &RowView::new(i, &r?),
        }
        .render()
        .map_err(std::io::Error::other)?;
        write!(out, "\n{head}")?;
        out.write_all(&body?)?;
    }
    out.write_all(&page.as_bytes()[sections..])
}

impl RowView {
    /// The view of the `i`th row (from 0).
    fn new(i: usize, r: &Row) -> RowView {
        RowView {
            anchor: format!("r{}", i + 1),
            file: Escaped::new(r.file.clone()),
            player: Escaped::new(r.who().unwrap_or_default()),
            army: Escaped::new(r.army.clone().unwrap_or_default()),
            version: Escaped::new(r.version.clone().unwrap_or_default()),
            points: Escaped::new(r.points_text()),
            points_sort: r.points.map(|p| p.to_string()).unwrap_or_default(),
            status_class: r.status.as_str(),
            status: Escaped::new(r.status_text()),
            first_error: Escaped::new(
                (r.first_error.as_deref())
                    .map(crate::diagnostic::quoted)
                    .unwrap_or_default(),
            ),
            duplicates: (r.duplicates.iter())
                .map(|d| Escaped::new(d.describe()))
                .collect(),
        }
    }
}

/// At most this many bytes of a roster line are shown beside a finding.
const EXCERPT_BYTES: usize = 240;

/// The part of a line around byte `at`, cut at character boundaries with
/// `…` where it was cut, so that a long line is not copied whole into the
/// report for each finding on it.
fn excerpt(line: &str, at: usize) -> String {
    if line.len() <= EXCERPT_BYTES {
        return line.to_string();
    }
    let mut start = at.min(line.len()).saturating_sub(EXCERPT_BYTES / 4);
    while !line.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (start + EXCERPT_BYTES).min(line.len());
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    out.push_str(&line[start..end]);
    if end < line.len() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    /// `Escaped` writes what askama's own HTML escaping writes, for any
    /// text and for each character it escapes at every place of a block.
    #[test]
    fn escaped_text_is_what_askama_escapes() {
        use askama::filters::Escaper;
        let askama = |text: &str| {
            let mut out = String::new();
            askama::filters::Html.write_escaped_str(&mut out, text).unwrap();
            out
        };
        for len in 0..40 {
            for at in 0..len {
                for special in ['"', '&', '\'', '<', '>', 'é', '\n'] {
                    let text: String = (0..len).map(|i| if i == at { special } else { 'x' }).collect();
                    assert_eq!(super::Escaped::new(text.clone()).0, askama(&text));
                }
            }
        }
        let mixed = "<a href=\"x\">Kor'vattra & ‘Tau’</a>\u{0}\u{7f}";
        assert_eq!(super::Escaped::new(mixed.to_string()).0, askama(mixed));
    }

    proptest::proptest! {
        #[test]
        fn any_text_escapes_as_askama_escapes_it(text in "(?s:.{0,80})", mixed in "[<>&'\"a-z ]{0,40}") {
            use askama::filters::Escaper;
            for text in [text, mixed] {
                let mut theirs = String::new();
                askama::filters::Html.write_escaped_str(&mut theirs, &text).unwrap();
                proptest::prop_assert_eq!(super::Escaped::new(text).0, theirs);
            }
        }
    }
}
