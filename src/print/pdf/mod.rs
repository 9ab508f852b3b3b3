//! PDF pages from the views: a small flow layout (paragraphs, headings,
//! ruled tables, unit cards kept on one page) drawn with printpdf, in the
//! DejaVu Sans Condensed font shipped in `assets/fonts/` (free licence,
//! embedded and subset), so `×`, accents and curly quotes print anywhere.
//! A character the font has no glyph for (CJK: a font covering it would
//! weigh more than muster) prints as U+FFFD, and the document ends with a
//! note naming the code points; `Pdf::unprintable` lets the CLI warn too.
//!
//! Black on white with grey shading only, for black-and-white printers.
//! Text is measured with the font's own advance widths, so columns line up
//! and nothing runs off the page. No I/O: the caller writes the bytes.
//!
//! `fonts` parses, measures and subsets the embedded font; `layout` flows
//! blocks onto pages and saves the document; `page` turns what a page
//! draws into printpdf's operations; `compose` turns the views into
//! blocks.

mod compose;
mod fonts;
mod layout;
mod page;

pub use compose::{crib, roster};
pub use layout::unprintable_note;

/// A PDF and the characters of its text the embedded font could not show
/// (printed as U+FFFD, listed in a note at the end of the document).
#[derive(Debug, Clone)]
pub struct Pdf {
    pub bytes: Vec<u8>,
    pub unprintable: Vec<char>,
}
