//! The embedded font (DejaVu Sans Condensed): parsed once, measured per
//! character, and embedded as a subset of the characters a document draws.

use crate::print::PrintError;
use printpdf::ParsedFont;
use std::collections::BTreeSet;
use std::sync::OnceLock;

mod prepared;

pub(super) static REGULAR_TTF: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSansCondensed.ttf");
pub(super) static BOLD_TTF: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSansCondensed-Bold.ttf");
/// The fonts' PostScript names (their `name` table's id 6), as the PDF
/// names them after the subset tag.
pub(super) const REGULAR_NAME: &str = "DejaVuSansCondensed";
pub(super) const BOLD_NAME: &str = "DejaVuSansCondensed-Bold";

pub(super) struct Fonts {
    pub(super) regular: Face,
    pub(super) bold: Face,
}

/// One weight: the advance widths of the characters below `TABLE` and of
/// `COMMON_SIGNS`, prepared ahead ([`prepared`]), as layout measures every
/// character of every word several times; the whole font, parsed only
/// when a document draws another character.
pub(super) struct Face {
    ttf: &'static [u8],
    font: OnceLock<Option<ParsedFont>>,
    /// Font units per em.
    pub(super) units: f32,
    /// Advance of each character below `TABLE`, `NO_GLYPH` when the font
    /// has none.
    pub(super) advances: Vec<u16>,
    /// Advance of each of `COMMON_SIGNS`, `NO_GLYPH` when the font has none.
    signs: Vec<(char, u16)>,
    /// What a character without a glyph measures (it prints as U+FFFD).
    pub(super) fallback: f32,
}

/// Characters below this have their advance in `Face::advances`: Latin
/// and Latin-1, every letter the shipped lists use.
pub(super) const TABLE: u32 = 0x250;
pub(super) const NO_GLYPH: u16 = u16::MAX;

impl Face {
    fn new(ttf: &'static [u8], prepared: &prepared::Prepared) -> Face {
        Face {
            ttf,
            font: OnceLock::new(),
            units: f32::from(prepared.units().max(1)),
            advances: prepared.advances(),
            signs: prepared.signs(),
            fallback: f32::from(prepared.fallback()),
        }
    }

    /// The whole font, parsed on first use.
    pub(super) fn font(&self) -> Option<&ParsedFont> {
        self.font
            .get_or_init(|| ParsedFont::from_bytes(self.ttf, 0, &mut Vec::new()))
            .as_ref()
    }

    /// The prepared advance of `c`, if it has one.
    fn prepared(&self, c: char) -> Option<u16> {
        match self.advances.get(c as usize) {
            Some(&w) => Some(w),
            None => self.signs.iter().find(|(s, _)| *s == c).map(|(_, w)| *w),
        }
    }

    /// The advance of `c` in font units.
    pub(super) fn advance(&self, c: char) -> f32 {
        match self.prepared(c) {
            Some(NO_GLYPH) => self.fallback,
            Some(w) => f32::from(w),
            None => self
                .font()
                .and_then(|font| {
                    let g = font.lookup_glyph_index(u32::from(c)).filter(|g| *g != 0)?;
                    Some(f32::from(font.get_glyph_width(g).unwrap_or(0)))
                })
                .unwrap_or(self.fallback),
        }
    }

    /// The advances of `text` summed, in font units. Every advance is a
    /// whole number, so the sum is exact whatever the order (below 2^24);
    /// ASCII, most of what is measured, is read from the table by byte.
    pub(super) fn advance_sum(&self, text: &str) -> f32 {
        if text.is_ascii() {
            let mut units: u32 = 0;
            let mut missing: u32 = 0;
            for &b in text.as_bytes() {
                match self.advances.get(usize::from(b)) {
                    Some(&w) if w != NO_GLYPH => units += u32::from(w),
                    _ => missing += 1,
                }
            }
            return units as f32 + missing as f32 * self.fallback;
        }
        text.chars().map(|c| self.advance(c)).sum()
    }

    pub(super) fn has(&self, c: char) -> bool {
        match self.prepared(c) {
            Some(w) => w != NO_GLYPH,
            None => self
                .font()
                .is_some_and(|font| font.lookup_glyph_index(u32::from(c)).is_some_and(|g| g != 0)),
        }
    }
}

/// The fonts' prepared widths, read once per process.
pub(super) fn fonts() -> Result<&'static Fonts, PrintError> {
    static FONTS: OnceLock<Fonts> = OnceLock::new();
    Ok(FONTS.get_or_init(|| Fonts {
        regular: Face::new(REGULAR_TTF, &prepared::REGULAR),
        bold: Face::new(BOLD_TTF, &prepared::BOLD),
    }))
}

/// What a character the font has no glyph for is printed as.
pub(super) const REPLACEMENT: char = '\u{fffd}';

impl Fonts {
    pub(super) fn face(&self, bold: bool) -> &Face {
        if bold { &self.bold } else { &self.regular }
    }

    pub(super) fn width(&self, text: &str, bold: bool, size: f32) -> f32 {
        let face = self.face(bold);
        face.advance_sum(text) / face.units * size
    }

    /// Whether the font (either weight) can show `c`.
    pub(super) fn has(&self, c: char, bold: bool) -> bool {
        self.face(bold).has(c)
    }
}

/// The characters a document draws in one weight: those below
/// [`TABLE`] as bits (most of them, and the set a common subset has),
/// the others in a set.
#[derive(Debug, Default)]
pub(super) struct UsedChars {
    low: [u64; LOW_WORDS],
    other: BTreeSet<char>,
}

const LOW_WORDS: usize = (TABLE as usize).div_ceil(64);

impl UsedChars {
    pub(super) fn extend(&mut self, text: &str) {
        if text.is_ascii() {
            for &b in text.as_bytes() {
                self.low[usize::from(b >> 6)] |= 1 << (b & 63);
            }
            return;
        }
        for c in text.chars() {
            let i = c as usize;
            if i < TABLE as usize {
                self.low[i / 64] |= 1 << (i % 64);
            } else {
                self.other.insert(c);
            }
        }
    }

    pub(super) fn contains(&self, c: char) -> bool {
        let i = c as usize;
        if i < TABLE as usize {
            self.low[i / 64] & (1 << (i % 64)) != 0
        } else {
            self.other.contains(&c)
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.other.is_empty() && self.low.iter().all(|w| *w == 0)
    }

    fn low_chars(&self) -> impl Iterator<Item = char> + '_ {
        (0..TABLE)
            .filter(|&i| self.low[i as usize / 64] & (1 << (i % 64)) != 0)
            .filter_map(char::from_u32)
    }

    /// Whether every character drawn is one of `set`.
    pub(super) fn within(&self, set: &BTreeSet<char>) -> bool {
        self.low_chars()
            .chain(self.other.iter().copied())
            .all(|c| set.contains(&c))
    }

    pub(super) fn to_set(&self) -> BTreeSet<char> {
        self.low_chars().chain(self.other.iter().copied()).collect()
    }
}

/// The font program reduced to the glyphs of `chars` (and `.notdef`), as
/// printpdf's own subsetting did with its `text_layout` feature, which
/// brings a whole layout engine along (issue 20). The subset keeps a
/// Unicode cmap, so printpdf maps characters to the subset's glyph ids; it
/// writes the widths and the `ToUnicode` map (text extraction) from them.
/// The name carries a subset tag (`ABCDEF+`), as PDF asks of a subset font.
pub(super) fn subset(
    ttf: &[u8],
    full: &ParsedFont,
    name: &str,
    chars: &BTreeSet<char>,
) -> Result<ParsedFont, PrintError> {
    use allsorts::binary::read::ReadScope;
    use allsorts::font_data::FontData;
    use allsorts::subset::{CmapTarget, SubsetProfile};
    // Glyph 0 first, then the others ascending and once each, as allsorts
    // asks.
    let glyphs: BTreeSet<u16> = std::iter::once(0)
        .chain(
            chars
                .iter()
                .filter_map(|c| full.lookup_glyph_index(u32::from(*c))),
        )
        .collect();
    let glyphs: Vec<u16> = glyphs.into_iter().collect();
    let data = ReadScope::new(ttf)
        .read::<FontData<'_>>()
        .map_err(|_| PrintError::Font)?;
    let provider = data.table_provider(0).map_err(|_| PrintError::Font)?;
    let bytes = allsorts::subset::subset(&provider, &glyphs, &SubsetProfile::Pdf, CmapTarget::Unicode)
        .map_err(|_| PrintError::Font)?;
    let mut font = ParsedFont::from_bytes(&bytes, 0, &mut Vec::new()).ok_or(PrintError::Font)?;
    font.font_name = Some(format!("{}+{name}", subset_tag(name, &glyphs)));
    Ok(font)
}

/// Six capital letters that name a subset: a hash of the font's name and
/// its glyphs (FNV-1a), so the same text gives the same PDF.
pub(super) fn subset_tag(name: &str, glyphs: &[u16]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let bytes = name.bytes().chain(glyphs.iter().flat_map(|g| g.to_le_bytes()));
    for byte in bytes {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    (0..6)
        .map(|i| char::from(b'A' + ((hash >> (i * 8)) % 26) as u8))
        .collect()
}

/// Deflates (zlib, at the fast level) the streams of one document with
/// one compressor: making one allocates and clears its tables (about a
/// third of a million instructions), so it is made once, reset between
/// streams, and only when a stream needs it.
#[derive(Default)]
pub(super) struct Deflater(Option<flate2::Compress>);

impl Deflater {
    /// Deflates a stream not compressed yet, when that makes it smaller
    /// (as lopdf's own `compress` does at the best level).
    pub(super) fn stream(&mut self, stream: &mut lopdf::Stream) {
        if !stream.allows_compression || stream.dict.get(b"Filter").is_ok() {
            return;
        }
        if let Some(compressed) = self.deflate(&stream.content) {
            stream.dict.set("Filter", "FlateDecode");
            stream.set_content(compressed);
        }
    }

    /// `data` deflated, when that makes it smaller by more than the
    /// `/Filter /FlateDecode` entry costs.
    pub(super) fn deflate(&mut self, data: &[u8]) -> Option<Vec<u8>> {
        use flate2::{Compress, Compression, FlushCompress, Status};
        let compress = match &mut self.0 {
            Some(compress) => {
                compress.reset();
                compress
            }
            None => self.0.insert(Compress::new(Compression::fast(), true)),
        };
        let mut out = Vec::with_capacity(data.len() / 3 + 64);
        loop {
            let read = usize::try_from(compress.total_in()).ok()?;
            let rest = data.get(read..)?;
            match compress
                .compress_vec(rest, &mut out, FlushCompress::Finish)
                .ok()?
            {
                Status::StreamEnd => break,
                Status::Ok | Status::BufError => out.reserve(out.capacity().max(64)),
            }
        }
        (out.len() + 19 < data.len()).then_some(out)
    }
}

/// `data` deflated (zlib) at the fast level, when that makes it smaller
/// by more than the `/Filter /FlateDecode` entry costs.
#[cfg(test)]
pub(super) fn deflate_fast(data: &[u8]) -> Option<Vec<u8>> {
    Deflater::default().deflate(data)
}

/// A subset of one weight for the characters most documents draw, made
/// once per process (subsetting a font is most of a one-page roster's
/// time): printable ASCII, Latin-1 and the signs muster prints itself.
/// A document that draws a character outside it gets a subset of exactly
/// its characters instead.
pub(super) struct CommonSubset {
    pub(super) chars: BTreeSet<char>,
    pub(super) font: ParsedFont,
    /// The font program deflated, as `Deflater` would.
    pub(super) deflated: Option<Vec<u8>>,
    /// The `ToUnicode` map of all its characters, deflated: what printpdf
    /// writes for the characters a document draws, less its cost.
    pub(super) to_unicode: &'static [u8],
    /// Characters that share a glyph with a lesser one, which the
    /// prepared map reads as that one: a document drawing one of them
    /// keeps printpdf's own map.
    pub(super) shared: &'static str,
}

/// The signs muster's own text and the shipped lists print beyond
/// Latin-1: the damage boxes, the continuation arrow, ellipsis, dashes and
/// curly quotes.
pub(super) const COMMON_SIGNS: &str = "☐↳…▶‘’“”–—•";

/// The characters of the common subsets that a weight has (`has`).
fn common_chars(has: impl Fn(char) -> bool) -> BTreeSet<char> {
    (' '..='~')
        .chain('\u{a0}'..='\u{ff}')
        .chain(COMMON_SIGNS.chars())
        .filter(|&c| has(c))
        .collect()
}

/// A weight's common subset, read from its prepared program.
pub(super) fn common_subset(bold: bool) -> Option<&'static CommonSubset> {
    static REGULAR: OnceLock<Option<CommonSubset>> = OnceLock::new();
    static BOLD: OnceLock<Option<CommonSubset>> = OnceLock::new();
    let make = || {
        let face = fonts().ok()?.face(bold);
        let prepared = if bold { &prepared::BOLD } else { &prepared::REGULAR };
        let chars = common_chars(|c| face.has(c));
        let mut font = ParsedFont::from_bytes(prepared.subset, 0, &mut Vec::new())?;
        font.font_name = Some(prepared.name.to_string());
        let deflated = (!prepared.deflated.is_empty()).then(|| prepared.deflated.to_vec());
        Some(CommonSubset {
            chars,
            font,
            deflated,
            to_unicode: prepared.to_unicode,
            shared: prepared.shared,
        })
    };
    if bold { &BOLD } else { &REGULAR }.get_or_init(make).as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_deflater_deflates_each_stream_whole() {
        use std::io::Read;
        let mut deflater = Deflater::default();
        let first = b"BT /F1 8.5 Tf 36 800 Td <0041> Tj ET\n".repeat(40);
        let second = b"0.4 w 36 700 m 559 700 l S\n".repeat(300);
        for data in [&first, &second, &first] {
            let deflated = deflater.deflate(data).expect("repeated text deflates smaller");
            let mut inflated = Vec::new();
            flate2::read::ZlibDecoder::new(deflated.as_slice())
                .read_to_end(&mut inflated)
                .expect("a whole zlib stream");
            assert_eq!(&inflated, data);
        }
        assert_eq!(deflater.deflate(b"short"), None, "not worth a filter");
    }

    #[test]
    fn used_characters_are_kept_by_weight_and_range() {
        let mut used = UsedChars::default();
        assert!(used.is_empty());
        used.extend("Tac ×2");
        used.extend("☐ Ω");
        assert!(used.contains('×') && used.contains('☐') && !used.contains('x'));
        let set = used.to_set();
        assert_eq!(set.iter().collect::<String>(), " 2Tac×Ω☐");
        assert!(used.within(&set));
        let without_box: BTreeSet<char> = set.iter().copied().filter(|c| *c != '☐').collect();
        assert!(!used.within(&without_box));
    }
}
