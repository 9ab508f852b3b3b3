//! The embedded font (DejaVu Sans Condensed): parsed once, measured per
//! character, and embedded as a subset of the characters a document draws.

use crate::print::PrintError;
use printpdf::{FontId, Op, ParsedFont, PdfFontHandle, PdfPage, TextItem};
use std::collections::BTreeSet;
use std::sync::OnceLock;

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

/// One weight: the parsed font, and the advance widths of the characters
/// below `TABLE` looked up once, as layout measures every character of
/// every word several times.
pub(super) struct Face {
    pub(super) font: ParsedFont,
    /// Font units per em.
    pub(super) units: f32,
    /// Advance of each character below `TABLE`, `NO_GLYPH` when the font
    /// has none.
    pub(super) advances: Vec<u16>,
    /// What a character without a glyph measures (it prints as U+FFFD).
    pub(super) fallback: f32,
}

/// Characters below this have their advance in `Face::advances`: Latin
/// and Latin-1, every letter the shipped lists use.
pub(super) const TABLE: u32 = 0x250;
pub(super) const NO_GLYPH: u16 = u16::MAX;

impl Face {
    pub(super) fn new(font: ParsedFont) -> Face {
        let units = f32::from(font.units_per_em.max(1));
        let advance = |c: u32| {
            font.lookup_glyph_index(c)
                .filter(|g| *g != 0)
                .map(|g| font.get_glyph_width(g).unwrap_or(0))
        };
        let advances = (0..TABLE)
            .map(|c| advance(c).map_or(NO_GLYPH, |w| w.min(NO_GLYPH - 1)))
            .collect();
        let fallback = advance(u32::from(REPLACEMENT)).map_or(units / 2.0, f32::from);
        Face {
            font,
            units,
            advances,
            fallback,
        }
    }

    /// The advance of `c` in font units.
    pub(super) fn advance(&self, c: char) -> f32 {
        match self.advances.get(c as usize) {
            Some(&NO_GLYPH) => self.fallback,
            Some(&w) => f32::from(w),
            None => self
                .font
                .lookup_glyph_index(u32::from(c))
                .filter(|g| *g != 0)
                .map_or(self.fallback, |g| {
                    f32::from(self.font.get_glyph_width(g).unwrap_or(0))
                }),
        }
    }

    pub(super) fn has(&self, c: char) -> bool {
        match self.advances.get(c as usize) {
            Some(&w) => w != NO_GLYPH,
            None => self.font.lookup_glyph_index(u32::from(c)).is_some_and(|g| g != 0),
        }
    }
}

/// The fonts, parsed once per process.
pub(super) fn fonts() -> Result<&'static Fonts, PrintError> {
    static FONTS: OnceLock<Option<Fonts>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let regular = ParsedFont::from_bytes(REGULAR_TTF, 0, &mut Vec::new())?;
            let bold = ParsedFont::from_bytes(BOLD_TTF, 0, &mut Vec::new())?;
            Some(Fonts {
                regular: Face::new(regular),
                bold: Face::new(bold),
            })
        })
        .as_ref()
        .ok_or(PrintError::Font)
}

/// What a character the font has no glyph for is printed as.
pub(super) const REPLACEMENT: char = '\u{fffd}';

impl Fonts {
    pub(super) fn face(&self, bold: bool) -> &Face {
        if bold { &self.bold } else { &self.regular }
    }

    pub(super) fn width(&self, text: &str, bold: bool, size: f32) -> f32 {
        let face = self.face(bold);
        let advance: f32 = text.chars().map(|c| face.advance(c)).sum();
        advance / face.units * size
    }

    /// Whether the font (either weight) can show `c`.
    pub(super) fn has(&self, c: char, bold: bool) -> bool {
        self.face(bold).has(c)
    }
}

/// The characters the pages draw in each font: regular first, then bold.
pub(super) fn used_chars(pages: &[PdfPage], regular: &FontId) -> [BTreeSet<char>; 2] {
    let mut used: [BTreeSet<char>; 2] = Default::default();
    let mut weight = 0;
    for op in pages.iter().flat_map(|page| &page.ops) {
        match op {
            Op::SetFont {
                font: PdfFontHandle::External(id),
                ..
            } => weight = usize::from(id != regular),
            Op::ShowText { items } => {
                for item in items {
                    if let TextItem::Text(text) = item {
                        used[weight].extend(text.chars());
                    }
                }
            }
            _ => {}
        }
    }
    used
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

/// Deflates a stream not compressed yet, at the fast level, when that
/// makes it smaller (as lopdf's own `compress` does at the best level).
pub(super) fn compress_fast(stream: &mut lopdf::Stream) {
    if !stream.allows_compression || stream.dict.get(b"Filter").is_ok() {
        return;
    }
    if let Some(compressed) = deflate_fast(&stream.content) {
        stream.dict.set("Filter", "FlateDecode");
        stream.set_content(compressed);
    }
}

/// `data` deflated (zlib) at the fast level, when that makes it smaller
/// by more than the `/Filter /FlateDecode` entry costs.
pub(super) fn deflate_fast(data: &[u8]) -> Option<Vec<u8>> {
    use flate2::Compression;
    use flate2::write::ZlibEncoder;
    use std::io::Write;
    let mut encoder = ZlibEncoder::new(Vec::new(), Compression::fast());
    let compressed = encoder.write_all(data).and_then(|()| encoder.finish()).ok()?;
    (compressed.len() + 19 < data.len()).then_some(compressed)
}

/// A subset of one weight for the characters most documents draw, made
/// once per process (subsetting a font is most of a one-page roster's
/// time): printable ASCII, Latin-1 and the signs muster prints itself.
/// A document that draws a character outside it gets a subset of exactly
/// its characters instead.
pub(super) struct CommonSubset {
    pub(super) chars: BTreeSet<char>,
    pub(super) font: ParsedFont,
    /// The font program deflated, as `compress_fast` would.
    pub(super) deflated: Option<Vec<u8>>,
}

/// The signs muster's own text and the shipped lists print beyond
/// Latin-1: the damage boxes, the continuation arrow, ellipsis, dashes and
/// curly quotes.
pub(super) const COMMON_SIGNS: &str = "☐↳…▶‘’“”–—•";

pub(super) fn common_subset(bold: bool) -> Option<&'static CommonSubset> {
    static REGULAR: OnceLock<Option<CommonSubset>> = OnceLock::new();
    static BOLD: OnceLock<Option<CommonSubset>> = OnceLock::new();
    let make = || {
        let face = &fonts().ok()?.face(bold);
        let (ttf, name) = if bold {
            (BOLD_TTF, BOLD_NAME)
        } else {
            (REGULAR_TTF, REGULAR_NAME)
        };
        let chars: BTreeSet<char> = (' '..='~')
            .chain('\u{a0}'..='\u{ff}')
            .chain(COMMON_SIGNS.chars())
            .filter(|&c| face.has(c))
            .collect();
        let font = subset(ttf, &face.font, name, &chars).ok()?;
        let deflated = deflate_fast(&font.original_bytes);
        Some(CommonSubset {
            chars,
            font,
            deflated,
        })
    };
    if bold { &BOLD } else { &REGULAR }.get_or_init(make).as_ref()
}
