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

use super::card::NOT_IN_SOURCES;
use super::netepic::{CardsView, NeGrid, WEAPON_COLUMNS};
use super::ships::{FleetView, ShipCard};
use super::space_fleet::SfShipCard;
use super::view::{ArmyRule, CribGrid, CribSheet, RosterSheet, WeaponRow};
use super::{Paper, PrintError};
use printpdf::{
    Color, FontId, Greyscale, Line, LinePoint, Mm, Op, PaintMode, ParsedFont, PdfDocument, PdfFont,
    PdfFontHandle, PdfPage, PdfSaveOptions, Point, Pt, Rect, TextItem,
};
use std::collections::BTreeSet;
use std::sync::OnceLock;

static REGULAR_TTF: &[u8] = include_bytes!("../../assets/fonts/DejaVuSansCondensed.ttf");
static BOLD_TTF: &[u8] = include_bytes!("../../assets/fonts/DejaVuSansCondensed-Bold.ttf");
/// The fonts' PostScript names (their `name` table's id 6), as the PDF
/// names them after the subset tag.
const REGULAR_NAME: &str = "DejaVuSansCondensed";
const BOLD_NAME: &str = "DejaVuSansCondensed-Bold";

/// Sizes in points.
const MARGIN: f32 = 36.0;
const BOTTOM: f32 = 44.0;
const BODY: f32 = 8.5;
const SMALL: f32 = 7.0;
/// A crib sheet's glossary, in two columns.
const GLOSSARY: f32 = 7.5;
const HEADING: f32 = 11.0;
const TITLE: f32 = 15.0;
const LEADING: f32 = 1.22;
const PAD_X: f32 = 2.5;
const PAD_Y: f32 = 1.6;
const SHADE: f32 = 0.86;

mod prepared;

struct Fonts {
    regular: Face,
    bold: Face,
}

/// One weight: the advance widths of the characters below `TABLE` and of
/// `COMMON_SIGNS`, prepared ahead ([`prepared`]), as layout measures every
/// character of every word several times; the whole font, parsed only
/// when a document draws another character.
struct Face {
    ttf: &'static [u8],
    font: OnceLock<Option<ParsedFont>>,
    /// Font units per em.
    units: f32,
    /// Advance of each character below `TABLE`, `NO_GLYPH` when the font
    /// has none.
    advances: Vec<u16>,
    /// Advance of each of `COMMON_SIGNS`, `NO_GLYPH` when the font has none.
    signs: Vec<(char, u16)>,
    /// What a character without a glyph measures (it prints as U+FFFD).
    fallback: f32,
}

/// Characters below this have their advance in `Face::advances`: Latin
/// and Latin-1, every letter the shipped lists use.
const TABLE: u32 = 0x250;
const NO_GLYPH: u16 = u16::MAX;

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
    fn font(&self) -> Option<&ParsedFont> {
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
    fn advance(&self, c: char) -> f32 {
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

    fn has(&self, c: char) -> bool {
        match self.prepared(c) {
            Some(w) => w != NO_GLYPH,
            None => self
                .font()
                .is_some_and(|font| font.lookup_glyph_index(u32::from(c)).is_some_and(|g| g != 0)),
        }
    }
}

/// The fonts' prepared widths, read once per process.
fn fonts() -> Result<&'static Fonts, PrintError> {
    static FONTS: OnceLock<Fonts> = OnceLock::new();
    Ok(FONTS.get_or_init(|| Fonts {
        regular: Face::new(REGULAR_TTF, &prepared::REGULAR),
        bold: Face::new(BOLD_TTF, &prepared::BOLD),
    }))
}

/// What a character the font has no glyph for is printed as.
const REPLACEMENT: char = '\u{fffd}';

impl Fonts {
    fn face(&self, bold: bool) -> &Face {
        if bold { &self.bold } else { &self.regular }
    }

    fn width(&self, text: &str, bold: bool, size: f32) -> f32 {
        let face = self.face(bold);
        let advance: f32 = text.chars().map(|c| face.advance(c)).sum();
        advance / face.units * size
    }

    /// Whether the font (either weight) can show `c`.
    fn has(&self, c: char, bold: bool) -> bool {
        self.face(bold).has(c)
    }
}

/// A PDF and the characters of its text the embedded font could not show
/// (printed as U+FFFD, listed in a note at the end of the document).
#[derive(Debug, Clone)]
pub struct Pdf {
    pub bytes: Vec<u8>,
    pub unprintable: Vec<char>,
}

/// A stretch of text in one weight.
#[derive(Debug, Clone)]
struct Run {
    text: String,
    bold: bool,
}

fn plain(text: impl Into<String>) -> Run {
    Run {
        text: text.into(),
        bold: false,
    }
}

fn bold(text: impl Into<String>) -> Run {
    Run {
        text: text.into(),
        bold: true,
    }
}

/// A laid-out line: pieces of text at x offsets.
type LineOut = Vec<(f32, String, bool)>;

#[derive(Debug, Clone)]
struct Table {
    /// Column widths as fractions of the text width.
    widths: Vec<f32>,
    header: Vec<String>,
    rows: Vec<Row>,
    /// Columns aligned right (numbers).
    right: Vec<usize>,
    borders: bool,
}

#[derive(Debug, Clone)]
struct Row {
    cells: Vec<Vec<Run>>,
    bold: bool,
}

/// A ruled grid whose rows come in groups (a unit and its weapons),
/// each group kept on one page. A cell covers `span` columns from `col`;
/// a column no cell of a row covers is left open, so a unit's name and
/// stats read as one cell down its weapon rows.
#[derive(Debug, Clone)]
struct Grid {
    /// Column widths as fractions of the text width.
    widths: Vec<f32>,
    header: Vec<String>,
    groups: Vec<Vec<Vec<GridCell>>>,
    /// Rules between cells (a glossary has none).
    ruled: bool,
    /// Text size in points.
    size: f32,
}

#[derive(Debug, Clone)]
struct GridCell {
    col: usize,
    span: usize,
    /// Rows of its group it runs down (1: its own row only).
    rows: usize,
    runs: Vec<Run>,
}

impl Grid {
    /// Space above and below a row's text: less without rules.
    fn pad(&self) -> f32 {
        if self.ruled { 1.1 } else { 0.6 }
    }
}

fn cell(col: usize, span: usize, runs: Vec<Run>) -> GridCell {
    GridCell {
        col,
        span,
        rows: 1,
        runs,
    }
}

#[derive(Debug, Clone)]
enum Block {
    Title(String),
    Text {
        runs: Vec<Run>,
        size: f32,
    },
    Heading(String),
    Table(Table),
    Grid(Grid),
    /// A shaded title bar: runs on the left, text on the right.
    Bar {
        left: Vec<Run>,
        right: String,
    },
    /// A paragraph in a ruled box, under a bar or table.
    Boxed(Vec<Run>),
    /// The verdict: a thick frame, doubled when the roster is not legal.
    Verdict {
        text: String,
        legal: bool,
    },
    /// Blocks kept on one page when they fit on one.
    Keep(Vec<Block>),
    PageBreak,
    Gap(f32),
}

struct Writer<'f> {
    fonts: &'f Fonts,
    regular_id: FontId,
    bold_id: FontId,
    page_width: f32,
    page_height: f32,
    pages: Vec<Vec<Op>>,
    ops: Vec<Op>,
    /// Top of the free space, from the bottom of the page.
    y: f32,
    /// Characters drawn as [`REPLACEMENT`] because the font lacks them.
    unprintable: std::collections::BTreeSet<char>,
}

impl Writer<'_> {
    fn width(&self) -> f32 {
        self.page_width - 2.0 * MARGIN
    }

    fn top(&self) -> f32 {
        self.page_height - MARGIN
    }

    fn room(&self) -> f32 {
        self.y - BOTTOM
    }

    fn new_page(&mut self) {
        let ops = std::mem::take(&mut self.ops);
        self.pages.push(ops);
        self.y = self.top();
    }

    fn ensure(&mut self, height: f32) {
        if height > self.room() && self.y < self.top() {
            self.new_page();
        }
    }

    fn line_height(size: f32) -> f32 {
        size * LEADING
    }

    /// Greedy word wrap of runs into lines no wider than `width`; a line
    /// break in the text starts a new line.
    fn wrap(&self, runs: &[Run], size: f32, width: f32) -> Vec<LineOut> {
        let mut paragraphs: Vec<Vec<Run>> = vec![Vec::new()];
        for run in runs {
            for (i, part) in run.text.split('\n').enumerate() {
                if i > 0 {
                    paragraphs.push(Vec::new());
                }
                if let Some(paragraph) = paragraphs.last_mut() {
                    paragraph.push(Run {
                        text: part.to_string(),
                        bold: run.bold,
                    });
                }
            }
        }
        paragraphs
            .iter()
            .flat_map(|p| self.wrap_paragraph(p, size, width))
            .collect()
    }

    fn wrap_paragraph(&self, runs: &[Run], size: f32, width: f32) -> Vec<LineOut> {
        let space = |bold| self.fonts.width(" ", bold, size);
        let mut lines: Vec<LineOut> = vec![Vec::new()];
        let mut x = 0.0f32;
        for run in runs {
            for (i, word) in run.text.split(' ').enumerate() {
                let gap = if i > 0 || run.text.starts_with(' ') {
                    space(run.bold)
                } else {
                    0.0
                };
                if word.is_empty() {
                    if i > 0 {
                        x += gap;
                    }
                    continue;
                }
                let w = self.fonts.width(word, run.bold, size);
                let line_empty = lines.last().is_none_or(Vec::is_empty);
                let gap = if line_empty { 0.0 } else { gap };
                if !line_empty && x + gap + w > width {
                    lines.push(Vec::new());
                    x = 0.0;
                    self.place_word(&mut lines, &mut x, word, run.bold, size, width);
                } else {
                    x += gap;
                    self.place_word(&mut lines, &mut x, word, run.bold, size, width);
                }
            }
        }
        // Merge neighbouring pieces of one weight into one text run.
        lines
            .into_iter()
            .map(|line| {
                let mut merged: LineOut = Vec::new();
                for (px, text, b) in line {
                    match merged.last_mut() {
                        Some((mx, mtext, mb)) if *mb == b => {
                            let end = *mx + self.fonts.width(mtext, *mb, size);
                            let spaces = ((px - end) / space(b)).round().max(0.0) as usize;
                            mtext.push_str(&" ".repeat(spaces));
                            mtext.push_str(&text);
                        }
                        _ => merged.push((px, text, b)),
                    }
                }
                merged
            })
            .collect()
    }

    /// Puts a word at `x`, breaking it by characters if it is wider than a
    /// whole line.
    fn place_word(
        &self,
        lines: &mut Vec<LineOut>,
        x: &mut f32,
        word: &str,
        bold: bool,
        size: f32,
        width: f32,
    ) {
        let w = self.fonts.width(word, bold, size);
        if w <= width {
            if let Some(line) = lines.last_mut() {
                line.push((*x, word.to_string(), bold));
            }
            *x += w;
            return;
        }
        // A word breaks after its last hyphen or slash that fits
        // (`Fighter-` `bomber`, `AP5+/AT6+/` `AA5+`) before anywhere else.
        let cut = (word.char_indices())
            .filter(|&(i, c)| (c == '-' || c == '/') && i + 1 < word.len())
            .map(|(i, _)| i + 1)
            .rfind(|&i| *x + self.fonts.width(&word[..i], bold, size) <= width);
        if let Some(cut) = cut {
            if let Some(line) = lines.last_mut() {
                line.push((*x, word[..cut].to_string(), bold));
            }
            lines.push(Vec::new());
            *x = 0.0;
            self.place_word(lines, x, &word[cut..], bold, size, width);
            return;
        }
        let mut piece = String::new();
        for c in word.chars() {
            let mut next = piece.clone();
            next.push(c);
            if !piece.is_empty() && *x + self.fonts.width(&next, bold, size) > width {
                if let Some(line) = lines.last_mut() {
                    line.push((*x, std::mem::take(&mut piece), bold));
                }
                lines.push(Vec::new());
                *x = 0.0;
                next = c.to_string();
            }
            piece = next;
        }
        let w = self.fonts.width(&piece, bold, size);
        if let Some(line) = lines.last_mut() {
            line.push((*x, piece, bold));
        }
        *x += w;
    }

    fn text_op(&mut self, x: f32, baseline: f32, text: &str, bold: bool, size: f32) {
        let text: String = text
            .chars()
            .map(|c| {
                if self.fonts.has(c, bold) || c.is_whitespace() {
                    c
                } else {
                    self.unprintable.insert(c);
                    REPLACEMENT
                }
            })
            .collect();
        let font = if bold {
            self.bold_id.clone()
        } else {
            self.regular_id.clone()
        };
        self.ops.extend([
            Op::StartTextSection,
            Op::SetFont {
                font: PdfFontHandle::External(font),
                size: Pt(size),
            },
            Op::SetTextCursor {
                pos: Point {
                    x: Pt(x),
                    y: Pt(baseline),
                },
            },
            Op::ShowText {
                items: vec![TextItem::Text(text)],
            },
            Op::EndTextSection,
        ]);
    }

    /// Draws wrapped lines with their first line's top at `top`.
    fn draw_lines(&mut self, lines: &[LineOut], x: f32, top: f32, size: f32, right_edge: Option<f32>) {
        let lh = Self::line_height(size);
        for (i, line) in lines.iter().enumerate() {
            let baseline = top - lh * i as f32 - size * 0.95;
            let shift = match (right_edge, line.last()) {
                (Some(edge), Some((lx, text, b))) => edge - (x + lx + self.fonts.width(text, *b, size)),
                _ => 0.0,
            };
            for (px, text, b) in line {
                self.text_op(x + px + shift, baseline, text, *b, size);
            }
        }
    }

    fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, fill: Option<f32>, stroke: Option<f32>) {
        if let Some(grey) = fill {
            self.ops.push(Op::SetFillColor {
                col: Color::Greyscale(Greyscale {
                    percent: grey,
                    icc_profile: None,
                }),
            });
            self.ops.push(Op::DrawRectangle {
                rectangle: Rect {
                    mode: Some(PaintMode::Fill),
                    ..Rect::from_xywh(Pt(x), Pt(y), Pt(w), Pt(h))
                },
            });
            self.ops.push(Op::SetFillColor {
                col: Color::Greyscale(Greyscale {
                    percent: 0.0,
                    icc_profile: None,
                }),
            });
        }
        if let Some(thickness) = stroke {
            self.ops.push(Op::SetOutlineThickness { pt: Pt(thickness) });
            self.ops.push(Op::DrawLine {
                line: Rect::from_xywh(Pt(x), Pt(y), Pt(w), Pt(h)).to_line(),
            });
        }
    }

    fn hline(&mut self, x1: f32, x2: f32, y: f32, thickness: f32) {
        if thickness <= 0.0 {
            return;
        }
        let point = |x: f32| LinePoint {
            p: Point { x: Pt(x), y: Pt(y) },
            bezier: false,
        };
        self.ops.push(Op::SetOutlineThickness { pt: Pt(thickness) });
        self.ops.push(Op::DrawLine {
            line: Line {
                points: vec![point(x1), point(x2)],
                is_closed: false,
            },
        });
    }

    // ------------------------------------------------------------ measuring

    fn measure(&self, block: &Block) -> f32 {
        let width = self.width();
        match block {
            Block::Title(text) => {
                self.wrap(&[bold(text.clone())], TITLE, width).len() as f32 * Self::line_height(TITLE) + 3.0
            }
            Block::Text { runs, size } => {
                self.wrap(runs, *size, width).len() as f32 * Self::line_height(*size) + 2.0
            }
            Block::Heading(text) => {
                self.wrap(&[bold(text.clone())], HEADING, width).len() as f32 * Self::line_height(HEADING)
                    + 10.0
            }
            Block::Table(table) => {
                let header = if table.header.is_empty() {
                    0.0
                } else {
                    self.header_height(table)
                };
                header + table.rows.iter().map(|r| self.row_height(table, r)).sum::<f32>()
            }
            Block::Grid(grid) => {
                let edges = self.grid_edges(grid);
                self.grid_header_height(grid)
                    + (grid.groups.iter())
                        .flat_map(|g| self.group_heights(grid, &edges, g))
                        .sum::<f32>()
            }
            Block::Bar { left, right } => {
                self.bar_lines(left, right).0 as f32 * Self::line_height(BODY) + 2.0 * PAD_Y
            }
            Block::Boxed(runs) => {
                self.wrap(runs, BODY, width - 2.0 * PAD_X).len() as f32 * Self::line_height(BODY)
                    + 2.0 * PAD_Y
            }
            Block::Verdict { text, .. } => {
                self.wrap(&[bold(text.clone())], HEADING, width - 16.0).len() as f32
                    * Self::line_height(HEADING)
                    + 18.0
            }
            Block::Keep(blocks) => blocks.iter().map(|b| self.measure(b)).sum(),
            Block::PageBreak => 0.0,
            Block::Gap(h) => *h,
        }
    }

    fn column_widths(&self, table: &Table) -> Vec<f32> {
        table.widths.iter().map(|f| f * self.width()).collect()
    }

    fn cell_lines(&self, table: &Table, cells: &[Vec<Run>]) -> Vec<Vec<LineOut>> {
        self.column_widths(table)
            .iter()
            .zip(cells)
            .map(|(w, runs)| self.wrap(runs, BODY, w - 2.0 * PAD_X))
            .collect()
    }

    fn lines_height_padded(lines: &[Vec<LineOut>], pad: f32) -> f32 {
        lines.iter().map(Vec::len).max().unwrap_or(1).max(1) as f32 * Self::line_height(BODY) + 2.0 * pad
    }

    /// Space above and below a table row's text: less without rules.
    fn pad_y(table: &Table) -> f32 {
        if table.borders { PAD_Y } else { PAD_Y / 2.0 }
    }

    fn header_cells(table: &Table) -> Vec<Vec<Run>> {
        table.header.iter().map(|h| vec![bold(h.clone())]).collect()
    }

    fn header_height(&self, table: &Table) -> f32 {
        Self::lines_height_padded(
            &self.cell_lines(table, &Self::header_cells(table)),
            Self::pad_y(table),
        )
    }

    fn row_cells(row: &Row) -> Vec<Vec<Run>> {
        row.cells
            .iter()
            .map(|runs| {
                runs.iter()
                    .map(|r| Run {
                        text: r.text.clone(),
                        bold: r.bold || row.bold,
                    })
                    .collect()
            })
            .collect()
    }

    fn row_height(&self, table: &Table, row: &Row) -> f32 {
        Self::lines_height_padded(&self.cell_lines(table, &Self::row_cells(row)), Self::pad_y(table))
    }

    /// Lines a bar needs (1, or 2 when both sides do not fit on one).
    fn bar_lines(&self, left: &[Run], right: &str) -> (usize, f32) {
        let width = self.width() - 2.0 * PAD_X;
        let left_width: f32 = left.iter().map(|r| self.fonts.width(&r.text, r.bold, BODY)).sum();
        let right_width = self.fonts.width(right, false, BODY);
        if left_width + right_width + 8.0 <= width {
            (1, left_width)
        } else {
            (2, left_width)
        }
    }

    // -------------------------------------------------------------- drawing

    fn block(&mut self, block: &Block) {
        let width = self.width();
        match block {
            Block::Title(text) => {
                let lines = self.wrap(&[bold(text.clone())], TITLE, width);
                self.ensure(lines.len() as f32 * Self::line_height(TITLE));
                self.draw_lines(&lines, MARGIN, self.y, TITLE, None);
                self.y -= lines.len() as f32 * Self::line_height(TITLE) + 3.0;
            }
            Block::Text { runs, size } => {
                let lh = Self::line_height(*size);
                for line in self.wrap(runs, *size, width) {
                    self.ensure(lh);
                    self.draw_lines(&[line], MARGIN, self.y, *size, None);
                    self.y -= lh;
                }
                self.y -= 2.0;
            }
            Block::Heading(text) => {
                let lines = self.wrap(&[bold(text.clone())], HEADING, width);
                let h = lines.len() as f32 * Self::line_height(HEADING);
                // A heading never ends a page alone.
                self.ensure(h + 10.0 + 3.0 * Self::line_height(BODY));
                self.y -= 6.0;
                self.draw_lines(&lines, MARGIN, self.y, HEADING, None);
                self.y -= h + 1.0;
                self.hline(MARGIN, MARGIN + width, self.y, 0.8);
                self.y -= 3.0;
            }
            Block::Table(table) => self.table(table),
            Block::Grid(grid) => self.grid(grid),
            Block::Bar { left, right } => {
                let h = self.measure(block);
                self.ensure(h);
                let top = self.y;
                self.rect(MARGIN, top - h, width, h, Some(SHADE), Some(0.5));
                let lines = self.wrap(left, BODY, width - 2.0 * PAD_X);
                let (count, _) = self.bar_lines(left, right);
                if let Some(first) = lines.first() {
                    self.draw_lines(
                        std::slice::from_ref(first),
                        MARGIN + PAD_X,
                        top - PAD_Y,
                        BODY,
                        None,
                    );
                }
                let right_top = top - PAD_Y - (count - 1) as f32 * Self::line_height(BODY);
                let right_lines = vec![vec![(0.0, right.clone(), false)]];
                self.draw_lines(
                    &right_lines,
                    MARGIN + PAD_X,
                    right_top,
                    BODY,
                    Some(MARGIN + width - PAD_X),
                );
                self.y -= h;
            }
            Block::Boxed(runs) => {
                let lines = self.wrap(runs, BODY, width - 2.0 * PAD_X);
                let h = lines.len() as f32 * Self::line_height(BODY) + 2.0 * PAD_Y;
                self.ensure(h);
                let top = self.y;
                self.rect(MARGIN, top - h, width, h, None, Some(0.5));
                self.draw_lines(&lines, MARGIN + PAD_X, top - PAD_Y, BODY, None);
                self.y -= h;
            }
            Block::Verdict { text, legal } => {
                let h = self.measure(block);
                self.ensure(h);
                let top = self.y - 4.0;
                let box_h = h - 8.0;
                self.rect(MARGIN, top - box_h, width, box_h, None, Some(2.0));
                if !legal {
                    self.rect(
                        MARGIN + 3.0,
                        top - box_h + 3.0,
                        width - 6.0,
                        box_h - 6.0,
                        None,
                        Some(1.0),
                    );
                }
                let lines = self.wrap(&[bold(text.clone())], HEADING, width - 16.0);
                self.draw_lines(&lines, MARGIN + 8.0, top - 5.0, HEADING, None);
                self.y -= h;
            }
            Block::Keep(blocks) => {
                let h = self.measure(block);
                if h <= self.top() - BOTTOM {
                    self.ensure(h);
                }
                for b in blocks {
                    self.block(b);
                }
            }
            Block::PageBreak => {
                if self.y < self.top() {
                    self.new_page();
                }
            }
            Block::Gap(h) => {
                self.y -= h;
            }
        }
    }

    fn table(&mut self, table: &Table) {
        let widths = self.column_widths(table);
        let header = Self::header_cells(table);
        let header_h = if table.header.is_empty() {
            0.0
        } else {
            self.header_height(table)
        };
        let first = table.rows.first().map_or(0.0, |r| self.row_height(table, r));
        self.ensure(header_h + first);
        if !table.header.is_empty() {
            self.row(table, &widths, &header, true);
        }
        for row in &table.rows {
            let cells = Self::row_cells(row);
            let h = Self::lines_height_padded(&self.cell_lines(table, &cells), Self::pad_y(table));
            if h > self.room() && self.y < self.top() {
                self.new_page();
                if !table.header.is_empty() {
                    self.row(table, &widths, &header, true);
                }
            }
            self.row(table, &widths, &cells, false);
        }
    }

    fn row(&mut self, table: &Table, widths: &[f32], cells: &[Vec<Run>], header: bool) {
        let lines = self.cell_lines(table, cells);
        let pad = Self::pad_y(table);
        let h = Self::lines_height_padded(&lines, pad);
        let top = self.y;
        let mut x = MARGIN;
        for (i, (w, cell)) in widths.iter().zip(&lines).enumerate() {
            if table.borders {
                self.rect(x, top - h, *w, h, header.then_some(SHADE), Some(0.5));
            }
            let right = table.right.contains(&i).then_some(x + w - PAD_X);
            self.draw_lines(cell, x + PAD_X, top - pad, BODY, right);
            x += w;
        }
        self.y -= h;
    }

    /// Left edges of a grid's columns, and the right edge last.
    fn grid_edges(&self, grid: &Grid) -> Vec<f32> {
        let mut edges = vec![MARGIN];
        let mut x = MARGIN;
        for f in &grid.widths {
            x += f * self.width();
            edges.push(x);
        }
        edges
    }

    fn grid_cell_lines(&self, edges: &[f32], row: &[GridCell], size: f32) -> Vec<Vec<LineOut>> {
        let last = edges.len().saturating_sub(1);
        row.iter()
            .map(|c| {
                let (from, to) = (c.col.min(last), (c.col + c.span).min(last));
                let w = edges[to] - edges[from];
                self.wrap(&c.runs, size, (w - 2.0 * PAD_X).max(1.0))
            })
            .collect()
    }

    fn grid_lines_height(lines: &[Vec<LineOut>], grid: &Grid) -> f32 {
        lines.iter().map(Vec::len).max().unwrap_or(1).max(1) as f32 * Self::line_height(grid.size)
            + 2.0 * grid.pad()
    }

    fn grid_row_height(&self, grid: &Grid, row: &[GridCell]) -> f32 {
        Self::grid_lines_height(
            &self.grid_cell_lines(&self.grid_edges(grid), row, grid.size),
            grid,
        )
    }

    /// The height of each row of a group: what its own cells need, and a
    /// cell running down several rows lengthens the last of them if they
    /// are too short for it.
    fn group_heights(&self, grid: &Grid, edges: &[f32], group: &[Vec<GridCell>]) -> Vec<f32> {
        let mut heights: Vec<f32> = group
            .iter()
            .map(|row| {
                let single: Vec<GridCell> = row.iter().filter(|c| c.rows <= 1).cloned().collect();
                Self::grid_lines_height(&self.grid_cell_lines(edges, &single, grid.size), grid)
            })
            .collect();
        for (r, row) in group.iter().enumerate() {
            for c in row.iter().filter(|c| c.rows > 1) {
                let lines = self.grid_cell_lines(edges, std::slice::from_ref(c), grid.size);
                let need = Self::grid_lines_height(&lines, grid);
                let end = (r + c.rows).min(group.len());
                let have: f32 = heights[r..end].iter().sum();
                if need > have {
                    heights[end - 1] += need - have;
                }
            }
        }
        heights
    }

    fn grid_header(grid: &Grid) -> Vec<GridCell> {
        (grid.header.iter().enumerate())
            .map(|(i, h)| cell(i, 1, vec![bold(h.clone())]))
            .collect()
    }

    fn grid_header_height(&self, grid: &Grid) -> f32 {
        if grid.header.is_empty() {
            0.0
        } else {
            self.grid_row_height(grid, &Self::grid_header(grid))
        }
    }

    fn grid(&mut self, grid: &Grid) {
        let edges = self.grid_edges(grid);
        let (left, right) = (MARGIN, edges.last().copied().unwrap_or(MARGIN));
        let header = Self::grid_header(grid);
        let header_h = self.grid_header_height(grid);
        let mut open = false;
        for group in &grid.groups {
            let heights = self.group_heights(grid, &edges, group);
            let total: f32 = heights.iter().sum();
            let needed = total + if open { 0.0 } else { header_h };
            let rule = if grid.ruled { 0.8 } else { 0.0 };
            // A group goes to the next page when it fits on one; a group
            // longer than a page starts where it is and runs on.
            let fits_a_page = total + header_h <= self.top() - BOTTOM;
            if open && fits_a_page && needed > self.room() && self.y < self.top() {
                self.hline(left, right, self.y, rule);
                self.new_page();
                open = false;
            }
            if !open {
                self.ensure(header_h + heights.first().copied().unwrap_or(0.0));
                if !grid.header.is_empty() {
                    self.grid_row(&edges, &header, header_h, true, grid);
                }
                open = true;
            }
            self.hline(left, right, self.y, rule);
            for (r, (row, &h)) in group.iter().zip(&heights).enumerate() {
                if h > self.room() && self.y < self.top() {
                    self.hline(left, right, self.y, rule);
                    self.new_page();
                    if !grid.header.is_empty() {
                        self.grid_row(&edges, &header, header_h, true, grid);
                    }
                    // The cells running down from the last page (a unit's
                    // name and characteristics) are printed again.
                    let carried = self.carried_cells(grid, &edges, group, &heights, r);
                    let row: Vec<GridCell> = carried.into_iter().chain(row.iter().cloned()).collect();
                    self.grid_row(&edges, &row, h, false, grid);
                    continue;
                }
                self.grid_row(&edges, row, h, false, grid);
            }
        }
        if open && grid.ruled {
            self.hline(left, right, self.y, 0.8);
        }
    }

    /// The cells of rows before `r` of a group that run down into row `r`,
    /// as cells of row `r`, when their text fits in the rows they have left.
    fn carried_cells(
        &self,
        grid: &Grid,
        edges: &[f32],
        group: &[Vec<GridCell>],
        heights: &[f32],
        r: usize,
    ) -> Vec<GridCell> {
        let mut carried = Vec::new();
        for (from, row) in group.iter().enumerate().take(r) {
            for c in row.iter().filter(|c| from + c.rows > r) {
                let rows = from + c.rows - r;
                let room: f32 = heights[r..(r + rows).min(heights.len())].iter().sum();
                let lines = self.grid_cell_lines(edges, std::slice::from_ref(c), grid.size);
                if Self::grid_lines_height(&lines, grid) <= room {
                    carried.push(GridCell { rows, ..c.clone() });
                }
            }
        }
        carried
    }

    /// A grid row: its cells' text, a rule over each cell, and the column
    /// rules no cell spans over.
    fn grid_row(&mut self, edges: &[f32], row: &[GridCell], h: f32, header: bool, grid: &Grid) {
        let (ruled, pad, size) = (grid.ruled, grid.pad(), grid.size);
        let top = self.y;
        let lines = self.grid_cell_lines(edges, row, size);
        let last = edges.len().saturating_sub(1);
        let mut rules: Vec<bool> = vec![true; edges.len()];
        for (c, cell_lines) in row.iter().zip(&lines) {
            let (from, to) = (c.col.min(last), (c.col + c.span).min(last));
            rules[from + 1..to].iter_mut().for_each(|r| *r = false);
            if header {
                self.rect(
                    edges[from],
                    top - h,
                    edges[to] - edges[from],
                    h,
                    Some(SHADE),
                    None,
                );
            }
            if ruled {
                self.hline(edges[from], edges[to], top, 0.4);
            }
            self.draw_lines(cell_lines, edges[from] + PAD_X, top - pad, size, None);
        }
        let edges_ruled = edges.iter().zip(&rules).filter(|(_, r)| ruled && **r);
        for (x, _) in edges_ruled {
            self.vline(*x, top - h, top, 0.4);
        }
        if header {
            self.hline(edges[0], edges[last], top - h, 0.4);
        }
        self.y -= h;
    }

    fn vline(&mut self, x: f32, y1: f32, y2: f32, thickness: f32) {
        let point = |y: f32| LinePoint {
            p: Point { x: Pt(x), y: Pt(y) },
            bezier: false,
        };
        self.ops.push(Op::SetOutlineThickness { pt: Pt(thickness) });
        self.ops.push(Op::DrawLine {
            line: Line {
                points: vec![point(y1), point(y2)],
                is_closed: false,
            },
        });
    }

    fn footer(&mut self, index: usize, count: usize, left: &str) {
        let baseline = BOTTOM - 22.0;
        self.hline(MARGIN, self.page_width - MARGIN, baseline + 9.0, 0.4);
        self.text_op(MARGIN, baseline, left, false, SMALL);
        let right = format!("page {} of {count}", index + 1);
        let w = self.fonts.width(&right, false, SMALL);
        self.text_op(self.page_width - MARGIN - w, baseline, &right, false, SMALL);
    }
}

/// Page size in points.
fn size(paper: Paper) -> (f32, f32) {
    match paper {
        Paper::A4 => (595.28, 841.89),
        Paper::Letter => (612.0, 792.0),
    }
}

/// Lays out blocks and saves the document.
fn render(title: &str, footer: &str, blocks: &[Block], paper: Paper) -> Result<Pdf, PrintError> {
    let fonts = fonts()?;
    let mut doc = PdfDocument::new(title);
    // The fonts are added once the pages are laid out, as subsets of the
    // characters the pages draw (see `subset`).
    let regular_id = FontId::new();
    let bold_id = FontId::new();
    let (page_width, page_height) = size(paper);
    let mut writer = Writer {
        fonts,
        regular_id,
        bold_id,
        page_width,
        page_height,
        pages: Vec::new(),
        ops: Vec::new(),
        y: page_height - MARGIN,
        unprintable: Default::default(),
    };
    for block in blocks {
        writer.block(block);
    }
    let unprintable: Vec<char> = writer.unprintable.iter().copied().collect();
    if !unprintable.is_empty() {
        writer.block(&Block::Gap(6.0));
        writer.block(&Block::Boxed(vec![
            bold("Not printed: "),
            plain(unprintable_note(&unprintable)),
        ]));
    }
    writer.new_page();
    let count = writer.pages.len();
    let mut pages = Vec::with_capacity(count);
    for (i, ops) in std::mem::take(&mut writer.pages).into_iter().enumerate() {
        writer.ops = ops;
        writer.footer(i, count, footer);
        let ops = std::mem::take(&mut writer.ops);
        pages.push(PdfPage::new(
            Mm(page_width * 25.4 / 72.0),
            Mm(page_height * 25.4 / 72.0),
            ops,
        ));
    }
    let used = used_chars(&pages, &writer.regular_id);
    // The common subset of a weight when it has every character the pages
    // draw in it (its font program deflated already), else a subset of
    // exactly those characters.
    let mut common: Vec<&CommonSubset> = Vec::new();
    for (id, bold, chars) in [
        (writer.regular_id, false, &used[0]),
        (writer.bold_id, true, &used[1]),
    ] {
        if chars.is_empty() {
            continue;
        }
        let font = match common_subset(bold) {
            Some(c) if chars.is_subset(&c.chars) => {
                common.push(c);
                c.font.clone()
            }
            _ => {
                let (ttf, name) = if bold {
                    (BOLD_TTF, BOLD_NAME)
                } else {
                    (REGULAR_TTF, REGULAR_NAME)
                };
                let full = fonts.face(bold).font().ok_or(PrintError::Font)?;
                subset(ttf, full, name, chars)?
            }
        };
        doc.resources.fonts.map.insert(id, PdfFont::new(font));
    }
    // Stream compression left to us: printpdf compresses at the best
    // level, which costs a third of a one-page roster; the fast level
    // makes files a little larger and the same to read.
    let options = PdfSaveOptions {
        optimize: false,
        ..PdfSaveOptions::default()
    };
    let mut document = doc.with_pages(pages).to_lopdf_document(&options, &mut Vec::new());
    for object in document.objects.values_mut() {
        if let lopdf::Object::Stream(stream) = object {
            // printpdf embeds the font program as the subset's bytes.
            match common.iter().find(|c| stream.content == c.font.original_bytes) {
                Some(c) => {
                    if let Some(deflated) = &c.deflated {
                        stream.dict.set("Filter", "FlateDecode");
                        stream.set_content(deflated.clone());
                    }
                }
                None => compress_fast(stream),
            }
        }
    }
    let mut bytes = Vec::new();
    document
        .save_to(&mut bytes)
        .map_err(|e| PrintError::Write(e.to_string()))?;
    Ok(Pdf { bytes, unprintable })
}

/// The characters the pages draw in each font: regular first, then bold.
fn used_chars(pages: &[PdfPage], regular: &FontId) -> [BTreeSet<char>; 2] {
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
fn subset(
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
fn subset_tag(name: &str, glyphs: &[u16]) -> String {
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
fn compress_fast(stream: &mut lopdf::Stream) {
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
fn deflate_fast(data: &[u8]) -> Option<Vec<u8>> {
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
struct CommonSubset {
    chars: BTreeSet<char>,
    font: ParsedFont,
    /// The font program deflated, as `compress_fast` would.
    deflated: Option<Vec<u8>>,
}

/// The signs muster's own text and the shipped lists print beyond
/// Latin-1: the damage boxes, the continuation arrow, ellipsis, dashes and
/// curly quotes.
const COMMON_SIGNS: &str = "☐↳…▶‘’“”–—•";

/// The characters of the common subsets that a weight has (`has`).
fn common_chars(has: impl Fn(char) -> bool) -> BTreeSet<char> {
    (' '..='~')
        .chain('\u{a0}'..='\u{ff}')
        .chain(COMMON_SIGNS.chars())
        .filter(|&c| has(c))
        .collect()
}

/// A weight's common subset, read from its prepared program.
fn common_subset(bold: bool) -> Option<&'static CommonSubset> {
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
        })
    };
    if bold { &BOLD } else { &REGULAR }.get_or_init(make).as_ref()
}

/// The note a PDF ends with when its font lacked some characters: their
/// code points (the characters themselves cannot be shown), at most 40.
pub fn unprintable_note(chars: &[char]) -> String {
    let mut codes: Vec<String> = chars
        .iter()
        .take(40)
        .map(|c| format!("U+{:04X}", u32::from(*c)))
        .collect();
    if chars.len() > 40 {
        codes.push(format!("and {} more", chars.len() - 40));
    }
    format!(
        "the embedded font has no glyph for {} {} of this document ({}), printed as \u{fffd}; \
         the HTML output shows {}.",
        chars.len(),
        if chars.len() == 1 {
            "character"
        } else {
            "characters"
        },
        codes.join(", "),
        if chars.len() == 1 { "it" } else { "them" },
    )
}

/// The width of the text on a page of `paper`, between the margins.
fn text_width(paper: Paper) -> f32 {
    size(paper).0 - 2.0 * MARGIN
}

fn crib_blocks(sheet: &CribSheet, fonts: &Fonts, text_width: f32, blocks: &mut Vec<Block>) {
    blocks.push(Block::Title(sheet.title.clone()));
    blocks.push(Block::Text {
        runs: vec![plain(sheet.subtitle.clone())],
        size: BODY,
    });
    blocks.push(Block::Gap(4.0));
    army_rule_blocks(&sheet.army_rules, blocks);
    if !sheet.units.is_empty() {
        epic_grid_blocks(&sheet.grid(), blocks);
    }
    for ship in &sheet.ships {
        blocks.push(Block::Keep(ship_card(ship)));
    }
    for unit in &sheet.heresy_units {
        blocks.push(Block::Keep(heresy_card(unit)));
    }
    for ship in &sheet.sf_ships {
        blocks.push(Block::Keep(sf_ship_card(ship)));
    }
    if !sheet.ne_units.is_empty() {
        ne_grid_blocks(&sheet.ne_grid(), fonts, text_width, blocks);
    }
    if sheet.has_missing() {
        blocks.push(Block::Text {
            runs: vec![plain("? marks a value the sources do not give.")],
            size: BODY,
        });
    }
    if !sheet.glossary.is_empty() {
        blocks.push(Block::Heading("Abbreviations and rules used".into()));
        // Two entries a row, each a paragraph: `AP (Anti-personnel): ...`.
        let entry = |g: &super::card::GlossaryLine| {
            let mut runs = vec![bold(g.term.clone())];
            if g.name.is_empty() {
                runs.push(plain(": "));
            } else {
                runs.push(plain(format!(" ({}): ", g.name)));
            }
            runs.push(plain(g.summary.clone()));
            runs
        };
        let groups = sheet
            .glossary
            .chunks(2)
            .map(|pair| {
                vec![
                    pair.iter()
                        .enumerate()
                        .map(|(i, g)| cell(i, 1, entry(g)))
                        .collect(),
                ]
            })
            .collect();
        blocks.push(Block::Grid(Grid {
            widths: vec![0.5, 0.5],
            header: Vec::new(),
            groups,
            ruled: false,
            size: GLOSSARY,
        }));
    }
}

/// Epic units as one grid (see `view::CribGrid`): the shared weapons in
/// two side-by-side columns, then a row group per unit.
fn epic_grid_blocks(grid: &CribGrid<'_>, blocks: &mut Vec<Block>) {
    let weapon_cells = |w: &WeaponRow, col: usize| {
        vec![
            cell(col, 1, refit_name(&w.name, w.refit)),
            cell(col + 1, 1, vec![plain(w.range.clone())]),
            cell(col + 2, 1, vec![plain(w.firepower.clone())]),
            cell(col + 3, 1, vec![plain(w.notes.clone())]),
        ]
    };
    if !grid.shared.is_empty() {
        blocks.push(Block::Heading("Shared weapons".into()));
        // Split in two near the middle, between two weapons rather than
        // between the profiles of one.
        let mut half = grid.shared.len().div_ceil(2);
        while half < grid.shared.len() && half > 0 && grid.shared[half].name == grid.shared[half - 1].name {
            half += 1;
        }
        let (first, second) = grid.shared.split_at(half);
        let rows = first
            .iter()
            .enumerate()
            .map(|(i, w)| {
                let mut row = weapon_cells(w, 0);
                if let Some(w) = second.get(i) {
                    row.extend(weapon_cells(w, 4));
                }
                vec![row]
            })
            .collect();
        blocks.push(Block::Grid(Grid {
            widths: vec![0.2, 0.07, 0.135, 0.095, 0.2, 0.07, 0.135, 0.095],
            header: ["Weapon", "Range", "Firepower", "Notes"]
                .repeat(2)
                .into_iter()
                .map(String::from)
                .collect(),
            groups: rows,
            ruled: true,
            size: BODY,
        }));
    }
    let groups = grid
        .units
        .iter()
        .map(|u| {
            let c = u.card;
            let mut rows: Vec<Vec<GridCell>> = Vec::new();
            rows.extend(u.own.iter().map(|w| weapon_cells(w, 6)));
            if !u.shared.is_empty() {
                rows.push(vec![cell(6, 4, vec![bold("Shared: "), plain(u.shared.clone())])]);
            }
            if rows.is_empty() {
                rows.push(vec![cell(6, 4, Vec::new())]);
            }
            let stats = [
                (0, vec![bold(c.name.clone())]),
                (1, vec![plain(c.unit_type.clone())]),
                (2, vec![plain(c.speed.clone())]),
                (3, vec![plain(c.armour.clone())]),
                (4, vec![plain(c.cc.clone())]),
                (5, vec![plain(c.ff.clone())]),
            ];
            let down = rows.len();
            if let Some(first) = rows.first_mut() {
                let stats = stats.into_iter().map(|(col, runs)| GridCell {
                    rows: down,
                    ..cell(col, 1, runs)
                });
                first.splice(0..0, stats);
            }
            if !u.lines.is_empty() {
                let mut runs = Vec::new();
                for (i, (label, text)) in u.lines.iter().enumerate() {
                    if i > 0 {
                        runs.push(plain(" · "));
                    }
                    if !label.is_empty() {
                        runs.push(bold(*label));
                    }
                    runs.push(plain(text.clone()));
                }
                rows.push(vec![cell(1, 9, runs)]);
            }
            rows
        })
        .collect();
    blocks.push(Block::Grid(Grid {
        widths: vec![0.175, 0.06, 0.08, 0.075, 0.04, 0.04, 0.18, 0.065, 0.135, 0.15],
        header: [
            "Unit",
            "Type",
            "Speed",
            "Armour",
            "CC",
            "FF",
            "Weapon",
            "Range",
            "Firepower",
            "Notes",
        ]
        .map(String::from)
        .to_vec(),
        groups,
        ruled: true,
        size: BODY,
    }));
    blocks.push(Block::Gap(6.0));
}

/// The army's special rules: a heading and a table of names and
/// summaries, as the glossary is laid out.
fn army_rule_blocks(rules: &[ArmyRule], blocks: &mut Vec<Block>) {
    if rules.is_empty() {
        return;
    }
    blocks.push(Block::Heading("Army special rules".into()));
    blocks.push(Block::Table(Table {
        widths: vec![0.25, 0.75],
        header: Vec::new(),
        rows: rules
            .iter()
            .map(|r| Row {
                cells: vec![vec![bold(r.name.clone())], vec![plain(r.summary.clone())]],
                bold: false,
            })
            .collect(),
        right: Vec::new(),
        borders: false,
    }));
    blocks.push(Block::Gap(6.0));
}

/// A weapon's name cell, tagged when a refit the roster bought put or
/// changed the row.
fn refit_name(name: &str, refit: bool) -> Vec<Run> {
    let mut cell = vec![plain(name.to_string())];
    if refit {
        cell.push(bold(" [refit]"));
    }
    cell
}

/// A ship datasheet: a bar with the characteristics, the weapon table,
/// notes and the source's faults, kept on one page.
fn ship_card(ship: &ShipCard) -> Vec<Block> {
    let mut card = vec![Block::Bar {
        left: vec![bold(ship.name.clone()), plain(format!("  {}", ship.hull))],
        right: format!(
            "Speed {} · Turns {} · Shields {} · Armour {} · Turrets {}",
            ship.speed, ship.turns, ship.shields, ship.armour, ship.turrets
        ),
    }];
    if !ship.weapons.is_empty() {
        card.push(Block::Table(Table {
            widths: super::ships::WEAPON_WIDTHS.to_vec(),
            header: ["Weapon", "Range or craft", "Firepower", "Arc"]
                .map(String::from)
                .to_vec(),
            rows: ship
                .weapons
                .iter()
                .map(|w| Row {
                    cells: vec![
                        refit_name(&w.name, w.refit),
                        vec![plain(w.reach().to_string())],
                        vec![plain(w.firepower.clone())],
                        vec![plain(w.arc.clone())],
                    ],
                    bold: false,
                })
                .collect(),
            right: Vec::new(),
            borders: true,
        }));
    } else {
        // Every ship has weapons: none listed means the sources lost them.
        card.push(Block::Boxed(vec![bold("Weapons: "), plain(NOT_IN_SOURCES)]));
    }
    if !ship.notes.is_empty() {
        card.push(Block::Boxed(vec![bold("Notes: "), plain(ship.notes.join(" "))]));
    }
    for fault in &ship.faults {
        card.push(Block::Boxed(vec![
            bold("Source fault: "),
            plain(crate::diagnostic::quoted(fault)),
        ]));
    }
    for f in &ship.fielded {
        card.push(Block::Boxed(vec![bold("As fielded: "), plain(f.clone())]));
    }
    card.push(Block::Gap(6.0));
    card
}

/// A Heresy datasheet: a bar with the stat line, the weapon table, the
/// skills and notes, kept on one page.
fn heresy_card(unit: &super::heresy::HeresyCard) -> Vec<Block> {
    let mut card = vec![Block::Bar {
        left: vec![bold(unit.name.clone()), plain(format!(" {}", unit.propulsion))],
        right: unit.stats_line(),
    }];
    if !unit.weapons.is_empty() {
        card.push(Block::Table(Table {
            widths: super::heresy::WEAPON_WIDTHS.to_vec(),
            header: ["Weapon", "Range", "Penetration", "Firepower", "Type", "Mount"]
                .map(String::from)
                .to_vec(),
            rows: unit
                .weapons
                .iter()
                .map(|w| Row {
                    cells: vec![
                        vec![plain(w.name.clone())],
                        vec![plain(w.range.clone())],
                        vec![plain(w.penetration.clone())],
                        vec![plain(w.firepower.clone())],
                        vec![plain(w.weapon_type.clone())],
                        vec![plain(w.mount.clone())],
                    ],
                    bold: false,
                })
                .collect(),
            right: Vec::new(),
            borders: true,
        }));
    }
    if !unit.skills.is_empty() {
        card.push(Block::Boxed(vec![
            bold("Skills: "),
            plain(unit.skills.join(", ")),
        ]));
    }
    for note in &unit.notes {
        card.push(Block::Boxed(vec![plain(note.clone())]));
    }
    for f in &unit.fielded {
        card.push(Block::Boxed(vec![bold("As fielded: "), plain(f.clone())]));
    }
    card.push(Block::Gap(6.0));
    card
}

/// A Space Fleet datasheet: a bar with the characteristics, the weapon
/// table with a dice column per range band, the critical damage table,
/// notes and the source's faults, kept on one page.
fn sf_ship_card(ship: &SfShipCard) -> Vec<Block> {
    let mut card = vec![Block::Bar {
        left: vec![bold(ship.name.clone())],
        right: ship.stats_line(),
    }];
    if !ship.weapons.is_empty() {
        card.push(Block::Table(Table {
            widths: ship.widths(),
            header: ship.header(),
            rows: ship
                .weapons
                .iter()
                .map(|w| {
                    let mut cells = vec![vec![plain(w.name.clone())], vec![plain(w.arc.clone())]];
                    cells.extend(w.dice.iter().map(|d| vec![plain(d.clone())]));
                    Row { cells, bold: false }
                })
                .collect(),
            right: Vec::new(),
            borders: true,
        }));
    }
    if !ship.critical.is_empty() {
        card.push(Block::Boxed(vec![
            bold("Critical damage: "),
            plain(ship.critical.join("; ")),
        ]));
    }
    if !ship.notes.is_empty() {
        card.push(Block::Boxed(vec![bold("Notes: "), plain(ship.notes.join(" "))]));
    }
    for fault in &ship.faults {
        card.push(Block::Boxed(vec![
            bold("Source fault: "),
            plain(crate::diagnostic::quoted(fault)),
        ]));
    }
    card.push(Block::Gap(6.0));
    card
}

/// NetEpic units as one grid (see `netepic::NeGrid`): a row group per
/// card, its name down all its rows, its characteristics down its weapon
/// rows, its class, pinning class, abilities and the army book's rules on
/// the line under them and each source fault on a row of its own; the column widths measured once for the whole sheet.
fn ne_grid_blocks(grid: &NeGrid<'_>, fonts: &Fonts, text_width: f32, blocks: &mut Vec<Block>) {
    let header: Vec<String> = grid.header().into_iter().map(String::from).collect();
    let columns = header.len();
    let weapons = columns - WEAPON_COLUMNS.len();
    // Half a point more than the padding, so that a word measured to fit
    // still fits after rounding.
    let widths = grid.widths(|t, b| fonts.width(t, b, BODY), text_width, 2.0 * PAD_X + 0.5);
    let groups = grid
        .units
        .iter()
        .map(|u| {
            let c = u.card;
            let mut rows: Vec<Vec<GridCell>> = c
                .weapons
                .iter()
                .map(|w| {
                    [&w.name, &w.range, &w.attacks, &w.to_hit, &w.tsm, &w.notes]
                        .into_iter()
                        .enumerate()
                        .map(|(i, text)| cell(weapons + i, 1, vec![plain(text.clone())]))
                        .collect()
                })
                .collect();
            if rows.is_empty() {
                rows.push(vec![cell(weapons, WEAPON_COLUMNS.len(), Vec::new())]);
            }
            let down = rows.len();
            let stats = (u.stats.iter().enumerate()).map(|(i, v)| GridCell {
                rows: down,
                ..cell(1 + i, 1, vec![plain(v.to_string())])
            });
            let name = GridCell {
                rows: u.rows(),
                ..cell(0, 1, vec![bold(c.name.clone())])
            };
            if let Some(first) = rows.first_mut() {
                first.splice(0..0, std::iter::once(name).chain(stats));
            }
            let mut runs = Vec::new();
            for (i, (label, text)) in u.notes.iter().enumerate() {
                if i > 0 {
                    runs.push(plain(" · "));
                }
                runs.push(bold(*label));
                runs.push(plain(text.clone()));
            }
            rows.push(vec![cell(1, columns - 1, runs)]);
            for fault in &u.faults {
                rows.push(vec![cell(
                    1,
                    columns - 1,
                    vec![bold("Source fault: "), plain(fault.clone())],
                )]);
            }
            rows
        })
        .collect();
    blocks.push(Block::Grid(Grid {
        widths,
        header,
        groups,
        ruled: true,
        size: BODY,
    }));
    blocks.push(Block::Gap(6.0));
}

pub fn crib(sheet: &CribSheet, paper: Paper) -> Result<Pdf, PrintError> {
    let mut blocks = Vec::new();
    crib_blocks(sheet, fonts()?, text_width(paper), &mut blocks);
    render(
        &sheet.title,
        &format!("{} · {}", sheet.title, sheet.stamp),
        &blocks,
        paper,
    )
}

/// Ships with options and points; a squadron in bold, its ships under it.
fn fleet_blocks(fleet: &FleetView, blocks: &mut Vec<Block>) {
    blocks.push(Block::Heading("Fleet".into()));
    if fleet.rows.is_empty() {
        blocks.push(Block::Text {
            runs: vec![plain("No ship could be read.")],
            size: BODY,
        });
        return;
    }
    blocks.push(Block::Table(Table {
        // Name and Leadership are left blank: players name their ships and
        // roll Leadership at the table.
        widths: vec![0.26, 0.14, 0.05, 0.2, 0.27, 0.08],
        header: ["Ship", "Name", "Ld", "Hits", "Options", "Points"]
            .map(String::from)
            .to_vec(),
        rows: fleet
            .rows
            .iter()
            .map(|r| {
                let name = if r.member {
                    format!("↳ {}", r.name)
                } else {
                    r.name.clone()
                };
                Row {
                    cells: vec![
                        vec![plain(name)],
                        Vec::new(),
                        Vec::new(),
                        vec![plain(r.hits.clone())],
                        vec![plain(r.options.clone())],
                        vec![plain(r.points.to_string())],
                    ],
                    bold: r.squadron,
                }
            })
            .collect(),
        right: vec![5],
        borders: true,
    }));
}

/// NetEpic army cards: each Company card as a bar (name and kind; points,
/// break point, victory points) over its units, its Support and Special
/// cards after it the same way, marked ↳; the army's sums at the end.
fn card_blocks(cards: &CardsView, none: &str, blocks: &mut Vec<Block>) {
    blocks.push(Block::Heading("Army cards".into()));
    if cards.cards.is_empty() {
        blocks.push(Block::Text {
            runs: vec![plain(none.to_string())],
            size: BODY,
        });
        return;
    }
    let mut group: Vec<Block> = Vec::new();
    for card in &cards.cards {
        if !card.member && !group.is_empty() {
            blocks.push(Block::Keep(std::mem::take(&mut group)));
        }
        let name = if card.member {
            format!("↳ {}", card.name)
        } else {
            card.name.clone()
        };
        group.push(Block::Bar {
            left: vec![bold(name), plain(format!("  {}", card.kind))],
            right: format!(
                "{} pts · break point {} · victory points {}",
                card.points, card.break_point, card.victory_points
            ),
        });
        let mut runs = vec![
            bold("Units: "),
            plain(if card.units.is_empty() {
                "none listed".to_string()
            } else {
                card.units.clone()
            }),
        ];
        if !card.upgrades.is_empty() {
            runs.push(bold("\nOptions: "));
            runs.push(plain(card.upgrades.clone()));
        }
        group.push(Block::Boxed(runs));
        group.push(Block::Gap(if card.member { 2.0 } else { 3.0 }));
    }
    if !group.is_empty() {
        blocks.push(Block::Keep(group));
    }
    blocks.push(Block::Text {
        runs: vec![
            bold("Army: "),
            plain(format!(
                "break points {} · victory points {}{}",
                cards.break_points,
                cards.victory_points,
                cards
                    .to_win
                    .as_ref()
                    .map(|w| format!(" · victory points to win {w}"))
                    .unwrap_or_default()
            )),
        ],
        size: BODY,
    });
}

pub fn roster(roster: &RosterSheet, paper: Paper) -> Result<Pdf, PrintError> {
    let mut blocks = Vec::new();
    let title = match &roster.army_name {
        Some(name) => format!("{name}: {} roster", roster.army),
        None => format!("{} roster", roster.army),
    };
    blocks.push(Block::Title(title.clone()));
    blocks.push(Block::Text {
        runs: vec![plain(roster.file.clone())],
        size: SMALL,
    });
    blocks.push(Block::Gap(3.0));

    let mut facts: Vec<(&str, String)> = Vec::new();
    if let Some(player) = &roster.player {
        facts.push(("Player", player.clone()));
    }
    if let Some(event) = &roster.event {
        facts.push(("Event", event.clone()));
    }
    if let Some(scenario) = &roster.scenario {
        facts.push(("Scenario", scenario.clone()));
    }
    let mut list = roster.army.clone();
    if let Some(version) = &roster.version {
        list.push_str(&format!(", {version}"));
    }
    if let Some(written) = &roster.version_written {
        list.push_str(&format!(" (the roster names {written})"));
    }
    facts.push(("Army list", list));
    facts.push((
        "Points",
        format!(
            "{} of {}",
            roster.points.as_deref().unwrap_or("?"),
            roster
                .limit
                .map_or("no limit given".to_string(), |l| l.to_string())
        ),
    ));
    if let Some(rating) = roster.strategy_rating {
        facts.push(("Strategy rating", rating.to_string()));
    }
    if let Some(fleet) = &roster.fleet {
        if let Some(rating) = &fleet.attack_rating {
            facts.push(("Attack rating", rating.clone()));
        }
        for (name, value) in &fleet.figures {
            facts.push((name.as_str(), value.clone()));
        }
    }
    blocks.push(Block::Table(Table {
        widths: vec![0.2, 0.8],
        header: Vec::new(),
        rows: facts
            .into_iter()
            .map(|(k, v)| Row {
                cells: vec![vec![bold(k)], vec![plain(v)]],
                bold: false,
            })
            .collect(),
        right: Vec::new(),
        borders: true,
    }));
    blocks.push(Block::Verdict {
        text: roster.verdict.clone(),
        legal: roster.legal,
    });
    blocks.push(Block::Text {
        runs: vec![plain(roster.checked_by.clone())],
        size: BODY,
    });
    if !roster.errors.is_empty() {
        blocks.push(Block::Heading("Errors".into()));
        for (i, e) in roster.errors.iter().enumerate() {
            let mut runs = vec![bold(format!("{}. ", i + 1))];
            if !e.place.is_empty() {
                runs.push(bold(format!("{}: ", e.place)));
            }
            runs.push(plain(format!("{} [{}]", e.message, e.code)));
            if let Some(fix) = &e.fix {
                runs.push(plain(format!(" Fix: {fix}")));
            }
            blocks.push(Block::Text { runs, size: BODY });
        }
    }
    if let Some(fleet) = &roster.fleet {
        fleet_blocks(fleet, &mut blocks);
    } else if let Some(cards) = &roster.cards {
        card_blocks(cards, &roster.no_formations, &mut blocks);
    } else if roster.formations.is_empty() {
        blocks.push(Block::Heading("Formations".into()));
        blocks.push(Block::Text {
            runs: vec![plain(roster.no_formations.clone())],
            size: BODY,
        });
    } else {
        blocks.push(Block::Heading("Formations".into()));
        blocks.push(Block::Table(Table {
            widths: vec![0.04, 0.22, 0.43, 0.18, 0.06, 0.07],
            header: ["#", "Formation", "Units", "Other upgrades", "Init.", "Points"]
                .map(String::from)
                .to_vec(),
            rows: roster
                .formations
                .iter()
                .enumerate()
                .map(|(i, f)| {
                    let mut name = vec![plain(f.name.clone())];
                    if f.break_their_spirit {
                        name.push(bold("\n▶ Break Their Spirit target"));
                    }
                    Row {
                        cells: vec![
                            vec![plain((i + 1).to_string())],
                            name,
                            vec![plain(f.units.clone())],
                            vec![plain(f.upgrades.clone())],
                            vec![plain(f.initiative.clone())],
                            vec![plain(f.points.to_string())],
                        ],
                        bold: f.break_their_spirit,
                    }
                })
                .collect(),
            right: vec![0, 5],
            borders: true,
        }));
    }
    if let Some(bgs) = &roster.battlegroups {
        blocks.push(Block::Heading("Battlegroups".into()));
        if !bgs.rows.is_empty() {
            blocks.push(Block::Table(Table {
                widths: vec![0.46, 0.1, 0.1, 0.12, 0.22],
                header: [
                    "Battlegroup",
                    "Models",
                    "Morale",
                    "Breaks after",
                    "VP broken / destroyed",
                ]
                .map(String::from)
                .to_vec(),
                rows: bgs
                    .rows
                    .iter()
                    .map(|r| Row {
                        cells: vec![
                            vec![plain(r.name.clone())],
                            vec![plain(r.models.clone())],
                            vec![plain(r.morale.clone())],
                            vec![plain(r.break_point.clone())],
                            vec![plain(r.victory_points.clone())],
                        ],
                        bold: false,
                    })
                    .collect(),
                right: vec![1, 2, 3],
                borders: true,
            }));
        }
        for line in &bgs.lines {
            blocks.push(Block::Text {
                runs: vec![plain(line.clone())],
                size: BODY,
            });
        }
    }
    army_rule_blocks(&roster.army_rules, &mut blocks);
    if !roster.counts_as.is_empty() {
        blocks.push(Block::Heading("Counts as".into()));
        blocks.push(Block::Table(Table {
            widths: vec![0.5, 0.5],
            header: ["Model", "Counts as"].map(String::from).to_vec(),
            rows: roster
                .counts_as
                .iter()
                .map(|(model, target)| Row {
                    cells: vec![vec![plain(model.clone())], vec![plain(target.clone())]],
                    bold: false,
                })
                .collect(),
            right: Vec::new(),
            borders: true,
        }));
    }
    if !roster.warnings.is_empty() || !roster.notes.is_empty() {
        blocks.push(Block::Heading("Warnings and notes".into()));
        let findings = roster
            .warnings
            .iter()
            .map(|w| ("Warning", w))
            .chain(roster.notes.iter().map(|n| ("Note", n)));
        for (kind, f) in findings {
            let mut runs = vec![bold(format!("{kind}: "))];
            if !f.place.is_empty() {
                runs.push(plain(format!("{}: ", f.place)));
            }
            runs.push(plain(format!("{} [{}]", f.message, f.code)));
            blocks.push(Block::Text { runs, size: BODY });
            for detail in &f.details {
                blocks.push(Block::Text {
                    runs: vec![plain(format!("    \u{2013} {detail}"))],
                    size: BODY,
                });
            }
        }
    }
    if let Some(sheet) = &roster.sheet {
        blocks.push(Block::PageBreak);
        crib_blocks(sheet, fonts()?, text_width(paper), &mut blocks);
    }
    render(
        &title,
        &format!("{title} · {}", roster.checked_by),
        &blocks,
        paper,
    )
}
