//! The fonts prepared ahead of any run, so that printing parses no whole
//! font (parsing and subsetting the two DejaVu fonts were most of a
//! one-page roster's process): for each weight, the advance widths of the
//! characters below [`TABLE`](super::TABLE) and of the signs muster prints
//! itself, and the common subset (font program, deflated program, name,
//! and the deflated `ToUnicode` map of all its characters).
//! They live in `assets/fonts/prepared/`, made from the fonts by the test
//! below: `MUSTER_BLESS=1 cargo test --lib prepared` rewrites them, and
//! the test fails when they are not what the fonts give. A whole font is
//! parsed only when a document draws a character outside them.

/// One weight's prepared data.
pub(super) struct Prepared {
    /// The common subset's font program.
    pub subset: &'static [u8],
    /// That program deflated as `deflate_fast` does; empty when deflating
    /// does not make it smaller.
    pub deflated: &'static [u8],
    /// The subset's PDF name, its subset tag included.
    pub name: &'static str,
    /// The `ToUnicode` map printpdf writes for a document drawing every
    /// character of the subset, deflated.
    pub to_unicode: &'static [u8],
    /// The subset's characters that share a glyph with a lesser one (the
    /// map reads the glyph as the least).
    pub shared: &'static str,
    /// Little-endian `u16`s: units per em, the fallback advance, the
    /// advances of the characters below `TABLE`, then those of
    /// `COMMON_SIGNS` in order (`NO_GLYPH` for none).
    widths: &'static [u8],
}

macro_rules! prepared {
    ($weight:literal) => {
        Prepared {
            subset: include_bytes!(concat!(
                "../../../../assets/fonts/prepared/",
                $weight,
                ".subset.ttf"
            )),
            deflated: include_bytes!(concat!(
                "../../../../assets/fonts/prepared/",
                $weight,
                ".subset.deflated"
            )),
            name: include_str!(concat!("../../../../assets/fonts/prepared/", $weight, ".name")),
            to_unicode: include_bytes!(concat!(
                "../../../../assets/fonts/prepared/",
                $weight,
                ".tounicode.deflated"
            )),
            shared: include_str!(concat!("../../../../assets/fonts/prepared/", $weight, ".shared")),
            widths: include_bytes!(concat!("../../../../assets/fonts/prepared/", $weight, ".widths")),
        }
    };
}

pub(super) static REGULAR: Prepared = prepared!("regular");
pub(super) static BOLD: Prepared = prepared!("bold");

impl Prepared {
    fn words(&self) -> impl Iterator<Item = u16> + '_ {
        self.widths
            .chunks_exact(2)
            .map(|pair| u16::from_le_bytes([pair[0], pair[1]]))
    }

    pub fn units(&self) -> u16 {
        self.words().next().unwrap_or(1)
    }

    pub fn fallback(&self) -> u16 {
        self.words().nth(1).unwrap_or(0)
    }

    /// The advances of the characters below `TABLE`.
    pub fn advances(&self) -> Vec<u16> {
        self.words().skip(2).take(super::TABLE as usize).collect()
    }

    /// Each of `COMMON_SIGNS` with its advance.
    pub fn signs(&self) -> Vec<(char, u16)> {
        let widths = self.words().skip(2 + super::TABLE as usize);
        super::COMMON_SIGNS.chars().zip(widths).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{
        BOLD_NAME, BOLD_TTF, COMMON_SIGNS, NO_GLYPH, REGULAR_NAME, REGULAR_TTF, REPLACEMENT, TABLE,
        common_chars, deflate_fast, subset,
    };
    use printpdf::ParsedFont;
    use std::collections::BTreeSet;

    /// What the fonts give, as the files hold it: (file suffix, bytes).
    fn made(ttf: &[u8], name: &str) -> Vec<(&'static str, Vec<u8>)> {
        let font = ParsedFont::from_bytes(ttf, 0, &mut Vec::new()).expect("the shipped font parses");
        let advance = |c: u32| {
            font.lookup_glyph_index(c)
                .filter(|g| *g != 0)
                .map(|g| font.get_glyph_width(g).unwrap_or(0))
        };
        let units = font.units_per_em.max(1);
        let fallback = advance(u32::from(REPLACEMENT)).unwrap_or(units / 2);
        let table = (0..TABLE).map(|c| advance(c).map_or(NO_GLYPH, |w| w.min(NO_GLYPH - 1)));
        let signs = COMMON_SIGNS
            .chars()
            .map(|c| advance(u32::from(c)).map_or(NO_GLYPH, |w| w.min(NO_GLYPH - 1)));
        let widths: Vec<u8> = [units, fallback]
            .into_iter()
            .chain(table)
            .chain(signs)
            .flat_map(u16::to_le_bytes)
            .collect();
        let has = |c: char| advance(u32::from(c)).is_some();
        let chars = common_chars(has);
        let sub = subset(ttf, &font, name, &chars).expect("the common subset is made");
        let deflated = deflate_fast(&sub.original_bytes).unwrap_or_default();
        let full_name = sub.font_name.clone().unwrap_or_default();
        let (to_unicode, shared) = to_unicode(&sub, &chars);
        vec![
            ("subset.ttf", sub.original_bytes.clone()),
            ("subset.deflated", deflated),
            ("name", full_name.into_bytes()),
            ("widths", widths),
            ("tounicode.deflated", to_unicode),
            ("shared", shared.into_bytes()),
        ]
    }

    /// The `ToUnicode` map printpdf writes for a page drawing every
    /// character of the subset, deflated, and the characters sharing a
    /// glyph with a lesser one. printpdf maps a glyph to the last
    /// character drawn with it, so the page draws them from the greatest:
    /// the map reads each glyph as its least character (a space, not a
    /// no-break space).
    fn to_unicode(sub: &ParsedFont, chars: &BTreeSet<char>) -> (Vec<u8>, String) {
        use printpdf::{
            FontId, Mm, Op, PdfDocument, PdfFont, PdfFontHandle, PdfPage, PdfSaveOptions, Pt, TextItem,
        };
        let id = FontId("F".into());
        let mut doc = PdfDocument::new("");
        doc.resources
            .fonts
            .map
            .insert(id.clone(), PdfFont::new(sub.clone()));
        let ops = vec![
            Op::StartTextSection,
            Op::SetFont {
                font: PdfFontHandle::External(id),
                size: Pt(10.0),
            },
            Op::ShowText {
                items: vec![TextItem::Text(chars.iter().rev().collect())],
            },
            Op::EndTextSection,
        ];
        let options = PdfSaveOptions {
            optimize: false,
            ..PdfSaveOptions::default()
        };
        let doc = (doc.with_pages(vec![PdfPage::new(Mm(10.0), Mm(10.0), ops)]))
            .to_lopdf_document(&options, &mut Vec::new());
        let map = (doc.objects.values())
            .find_map(|object| {
                let id = object
                    .as_dict()
                    .ok()?
                    .get(b"ToUnicode")
                    .ok()?
                    .as_reference()
                    .ok()?;
                Some(doc.get_object(id).ok()?.as_stream().ok()?.content.clone())
            })
            .expect("printpdf writes a ToUnicode map");
        let glyph = |c: &char| sub.lookup_glyph_index(u32::from(*c));
        let shared = (chars.iter())
            .filter(|c| chars.range(..**c).any(|d| glyph(d) == glyph(c)))
            .collect();
        (deflate_fast(&map).expect("the map deflates"), shared)
    }

    fn inflate(bytes: &[u8]) -> Vec<u8> {
        use std::io::Read;
        let mut out = Vec::new();
        let read = flate2::read::ZlibDecoder::new(bytes).read_to_end(&mut out);
        read.map_or_else(|e| format!("not zlib: {e}").into_bytes(), |_| out)
    }

    #[test]
    fn prepared_fonts_are_what_the_fonts_give() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/fonts/prepared");
        let bless = std::env::var("MUSTER_BLESS").is_ok_and(|v| v == "1");
        let mut stale = Vec::new();
        for (weight, ttf, name) in [
            ("regular", REGULAR_TTF, REGULAR_NAME),
            ("bold", BOLD_TTF, BOLD_NAME),
        ] {
            for (suffix, bytes) in made(ttf, name) {
                let path = dir.join(format!("{weight}.{suffix}"));
                let held = std::fs::read(&path).ok();
                // A deflated file holds what it should when it inflates
                // to it: another deflater's bytes are as good.
                let same = if suffix.ends_with("deflated") && !bytes.is_empty() {
                    held.as_deref().map(inflate) == Some(inflate(&bytes))
                } else {
                    held.as_deref() == Some(bytes.as_slice())
                };
                if !same {
                    if bless {
                        std::fs::write(&path, &bytes).expect("the prepared font file is written");
                    } else {
                        stale.push(path.display().to_string());
                    }
                }
            }
        }
        assert!(
            stale.is_empty(),
            "stale prepared font files (MUSTER_BLESS=1 cargo test --lib prepared rewrites them): {stale:?}"
        );
    }
}
