//! A small flow layout: paragraphs, headings, ruled tables and unit
//! cards kept on one page, drawn on PDF pages and saved with the fonts.

use super::Pdf;
use super::fonts::*;
use super::page::Page;
use crate::print::{Paper, PrintError};
use printpdf::{FontId, Mm, PdfDocument, PdfFont, PdfPage, PdfSaveOptions};

/// Sizes in points.
pub(super) const MARGIN: f32 = 36.0;
pub(super) const BOTTOM: f32 = 44.0;
pub(super) const BODY: f32 = 8.5;
pub(super) const SMALL: f32 = 7.0;
/// A crib sheet's glossary, in two columns.
pub(super) const GLOSSARY: f32 = 7.5;
pub(super) const HEADING: f32 = 11.0;
pub(super) const TITLE: f32 = 15.0;
pub(super) const LEADING: f32 = 1.22;
pub(super) const PAD_X: f32 = 2.5;
pub(super) const PAD_Y: f32 = 1.6;
pub(super) const SHADE: f32 = 0.86;

#[derive(Debug, Clone)]
pub(super) struct Run {
    pub(super) text: String,
    pub(super) bold: bool,
}

pub(super) fn plain(text: impl Into<String>) -> Run {
    Run {
        text: text.into(),
        bold: false,
    }
}

pub(super) fn bold(text: impl Into<String>) -> Run {
    Run {
        text: text.into(),
        bold: true,
    }
}

/// A laid-out line: pieces of text at x offsets.
pub(super) type LineOut = Vec<(f32, String, bool)>;

#[derive(Debug, Clone)]
pub(super) struct Table {
    /// Column widths as fractions of the text width.
    pub(super) widths: Vec<f32>,
    pub(super) header: Vec<String>,
    pub(super) rows: Vec<Row>,
    /// Columns aligned right (numbers).
    pub(super) right: Vec<usize>,
    pub(super) borders: bool,
}

#[derive(Debug, Clone)]
pub(super) struct Row {
    pub(super) cells: Vec<Vec<Run>>,
    pub(super) bold: bool,
}

/// A ruled grid whose rows come in groups (a unit and its weapons),
/// each group kept on one page. A cell covers `span` columns from `col`;
/// a column no cell of a row covers is left open, so a unit's name and
/// stats read as one cell down its weapon rows.
#[derive(Debug, Clone)]
pub(super) struct Grid {
    /// Column widths as fractions of the text width.
    pub(super) widths: Vec<f32>,
    pub(super) header: Vec<String>,
    pub(super) groups: Vec<Vec<Vec<GridCell>>>,
    /// Rules between cells (a glossary has none).
    pub(super) ruled: bool,
    /// Text size in points.
    pub(super) size: f32,
}

#[derive(Debug, Clone)]
pub(super) struct GridCell {
    pub(super) col: usize,
    pub(super) span: usize,
    /// Rows of its group it runs down (1: its own row only).
    pub(super) rows: usize,
    pub(super) runs: Vec<Run>,
}

impl Grid {
    /// Space above and below a row's text: less without rules.
    pub(super) fn pad(&self) -> f32 {
        if self.ruled { 1.1 } else { 0.6 }
    }
}

pub(super) fn cell(col: usize, span: usize, runs: Vec<Run>) -> GridCell {
    GridCell {
        col,
        span,
        rows: 1,
        runs,
    }
}

#[derive(Debug, Clone)]
pub(super) enum Block {
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

pub(super) struct Writer<'f> {
    pub(super) fonts: &'f Fonts,
    pub(super) regular_id: FontId,
    pub(super) bold_id: FontId,
    pub(super) page_width: f32,
    pub(super) page_height: f32,
    pub(super) pages: Vec<Page>,
    /// What is drawn on the page being laid out.
    pub(super) page: Page,
    /// Top of the free space, from the bottom of the page.
    pub(super) y: f32,
    /// Characters drawn as [`REPLACEMENT`] because the font lacks them.
    pub(super) unprintable: std::collections::BTreeSet<char>,
}

/// Lines being wrapped: each piece placed is joined to the line's last
/// piece when they are of one weight, with as many spaces as fill the gap
/// between them, so a line draws as few pieces of text as it can.
pub(super) struct Lines<'f> {
    fonts: &'f Fonts,
    size: f32,
    lines: Vec<LineOut>,
    /// The advance of the current line's last piece, in font units (a
    /// whole number, so exact): the piece's width without measuring it
    /// again.
    last_units: f32,
}

impl<'f> Lines<'f> {
    fn new(fonts: &'f Fonts, size: f32) -> Lines<'f> {
        Lines {
            fonts,
            size,
            lines: vec![Vec::new()],
            last_units: 0.0,
        }
    }

    /// Points from font units, as `Fonts::width` computes them.
    fn width(&self, units: f32, bold: bool) -> f32 {
        units / self.fonts.face(bold).units * self.size
    }

    fn line_empty(&self) -> bool {
        self.lines.last().is_none_or(Vec::is_empty)
    }

    fn new_line(&mut self) {
        self.lines.push(Vec::new());
    }

    fn push(&mut self, x: f32, text: &str, bold: bool, units: f32) {
        let last_width = self.width(self.last_units, bold);
        let space_units = self.fonts.face(bold).advance_sum(" ");
        let space = self.width(space_units, bold);
        let Some(line) = self.lines.last_mut() else {
            return;
        };
        match line.last_mut() {
            Some((mx, mtext, mb)) if *mb == bold => {
                let spaces = ((x - (*mx + last_width)) / space).round().max(0.0) as usize;
                mtext.extend(std::iter::repeat_n(' ', spaces));
                mtext.push_str(text);
                self.last_units += spaces as f32 * space_units + units;
            }
            _ => {
                line.push((x, text.to_string(), bold));
                self.last_units = units;
            }
        }
    }
}

impl Writer<'_> {
    pub(super) fn width(&self) -> f32 {
        self.page_width - 2.0 * MARGIN
    }

    pub(super) fn top(&self) -> f32 {
        self.page_height - MARGIN
    }

    pub(super) fn room(&self) -> f32 {
        self.y - BOTTOM
    }

    pub(super) fn new_page(&mut self) {
        let page = std::mem::take(&mut self.page);
        self.pages.push(page);
        self.y = self.top();
    }

    pub(super) fn ensure(&mut self, height: f32) {
        if height > self.room() && self.y < self.top() {
            self.new_page();
        }
    }

    pub(super) fn line_height(size: f32) -> f32 {
        size * LEADING
    }

    /// Greedy word wrap of runs into lines no wider than `width`; a line
    /// break in the text starts a new line.
    pub(super) fn wrap(&self, runs: &[Run], size: f32, width: f32) -> Vec<LineOut> {
        if !runs.iter().any(|run| run.text.contains('\n')) {
            return self.wrap_paragraph(runs, size, width);
        }
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

    /// The words of `runs` placed on lines, neighbouring words of one
    /// weight as one piece of text (see [`Lines`]).
    pub(super) fn wrap_paragraph(&self, runs: &[Run], size: f32, width: f32) -> Vec<LineOut> {
        let mut lines = Lines::new(self.fonts, size);
        let mut x = 0.0f32;
        for run in runs {
            for (i, word) in run.text.split(' ').enumerate() {
                let gap = if i > 0 || run.text.starts_with(' ') {
                    self.fonts.width(" ", run.bold, size)
                } else {
                    0.0
                };
                if word.is_empty() {
                    if i > 0 {
                        x += gap;
                    }
                    continue;
                }
                let units = self.fonts.face(run.bold).advance_sum(word);
                let w = lines.width(units, run.bold);
                let line_empty = lines.line_empty();
                let gap = if line_empty { 0.0 } else { gap };
                if !line_empty && x + gap + w > width {
                    lines.new_line();
                    x = 0.0;
                } else {
                    x += gap;
                }
                self.place_word(&mut lines, &mut x, word, run.bold, (units, w), width);
            }
        }
        lines.lines
    }

    /// Puts a word at `x` (measuring `units` font units, `w` points),
    /// breaking it by characters if it is wider than a whole line.
    fn place_word(
        &self,
        lines: &mut Lines<'_>,
        x: &mut f32,
        word: &str,
        bold: bool,
        (units, w): (f32, f32),
        width: f32,
    ) {
        if w <= width {
            lines.push(*x, word, bold, units);
            *x += w;
            return;
        }
        let size = lines.size;
        let measure = |text: &str| {
            let face = self.fonts.face(bold);
            let units = face.advance_sum(text);
            (units, units / face.units * size)
        };
        // A word breaks after its last hyphen or slash that fits
        // (`Fighter-` `bomber`, `AP5+/AT6+/` `AA5+`) before anywhere else.
        let cut = (word.char_indices())
            .filter(|&(i, c)| (c == '-' || c == '/') && i + 1 < word.len())
            .map(|(i, _)| i + 1)
            .rfind(|&i| *x + self.fonts.width(&word[..i], bold, size) <= width);
        if let Some(cut) = cut {
            lines.push(*x, &word[..cut], bold, measure(&word[..cut]).0);
            lines.new_line();
            *x = 0.0;
            let rest = &word[cut..];
            self.place_word(lines, x, rest, bold, measure(rest), width);
            return;
        }
        let mut piece = String::new();
        for c in word.chars() {
            let mut next = piece.clone();
            next.push(c);
            if !piece.is_empty() && *x + self.fonts.width(&next, bold, size) > width {
                lines.push(*x, &piece, bold, measure(&piece).0);
                piece.clear();
                lines.new_line();
                *x = 0.0;
                next = c.to_string();
            }
            piece = next;
        }
        let (units, w) = measure(&piece);
        lines.push(*x, &piece, bold, units);
        *x += w;
    }

    pub(super) fn text_op(&mut self, x: f32, baseline: f32, text: &str, bold: bool, size: f32) {
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
        self.page.text(x, baseline, text, bold, size);
    }

    /// Draws wrapped lines with their first line's top at `top`.
    pub(super) fn draw_lines(
        &mut self,
        lines: &[LineOut],
        x: f32,
        top: f32,
        size: f32,
        right_edge: Option<f32>,
    ) {
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

    pub(super) fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, fill: Option<f32>, stroke: Option<f32>) {
        self.page.rect(x, y, w, h, fill, stroke);
    }

    pub(super) fn hline(&mut self, x1: f32, x2: f32, y: f32, thickness: f32) {
        if thickness > 0.0 {
            self.page.hline(x1, x2, y, thickness);
        }
    }

    // ------------------------------------------------------------ measuring

    pub(super) fn measure(&self, block: &Block) -> f32 {
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
                        .flat_map(|g| Self::group_heights(grid, g, &self.group_lines(&edges, g, grid.size)))
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

    pub(super) fn column_widths(&self, table: &Table) -> Vec<f32> {
        table.widths.iter().map(|f| f * self.width()).collect()
    }

    pub(super) fn cell_lines(&self, table: &Table, cells: &[Vec<Run>]) -> Vec<Vec<LineOut>> {
        self.column_widths(table)
            .iter()
            .zip(cells)
            .map(|(w, runs)| self.wrap(runs, BODY, w - 2.0 * PAD_X))
            .collect()
    }

    pub(super) fn lines_height_padded(lines: &[Vec<LineOut>], pad: f32) -> f32 {
        lines.iter().map(Vec::len).max().unwrap_or(1).max(1) as f32 * Self::line_height(BODY) + 2.0 * pad
    }

    /// Space above and below a table row's text: less without rules.
    pub(super) fn pad_y(table: &Table) -> f32 {
        if table.borders { PAD_Y } else { PAD_Y / 2.0 }
    }

    pub(super) fn header_cells(table: &Table) -> Vec<Vec<Run>> {
        table.header.iter().map(|h| vec![bold(h.clone())]).collect()
    }

    pub(super) fn header_height(&self, table: &Table) -> f32 {
        Self::lines_height_padded(
            &self.cell_lines(table, &Self::header_cells(table)),
            Self::pad_y(table),
        )
    }

    pub(super) fn row_cells(row: &Row) -> Vec<Vec<Run>> {
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

    pub(super) fn row_height(&self, table: &Table, row: &Row) -> f32 {
        Self::lines_height_padded(&self.cell_lines(table, &Self::row_cells(row)), Self::pad_y(table))
    }

    /// Lines a bar needs (1, or 2 when both sides do not fit on one).
    pub(super) fn bar_lines(&self, left: &[Run], right: &str) -> (usize, f32) {
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

    pub(super) fn block(&mut self, block: &Block) {
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

    pub(super) fn table(&mut self, table: &Table) {
        let widths = self.column_widths(table);
        let header = self.cell_lines(table, &Self::header_cells(table));
        let header_h = if table.header.is_empty() {
            0.0
        } else {
            Self::lines_height_padded(&header, Self::pad_y(table))
        };
        let rows: Vec<Vec<Vec<LineOut>>> = (table.rows.iter())
            .map(|row| self.cell_lines(table, &Self::row_cells(row)))
            .collect();
        let first = rows
            .first()
            .map_or(0.0, |lines| Self::lines_height_padded(lines, Self::pad_y(table)));
        self.ensure(header_h + first);
        if !table.header.is_empty() {
            self.row(table, &widths, &header, true);
        }
        for lines in &rows {
            let h = Self::lines_height_padded(lines, Self::pad_y(table));
            if h > self.room() && self.y < self.top() {
                self.new_page();
                if !table.header.is_empty() {
                    self.row(table, &widths, &header, true);
                }
            }
            self.row(table, &widths, lines, false);
        }
    }

    /// A table row, its cells wrapped into `lines`.
    pub(super) fn row(&mut self, table: &Table, widths: &[f32], lines: &[Vec<LineOut>], header: bool) {
        let pad = Self::pad_y(table);
        let h = Self::lines_height_padded(lines, pad);
        let top = self.y;
        let mut x = MARGIN;
        for (i, (w, cell)) in widths.iter().zip(lines).enumerate() {
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
    pub(super) fn grid_edges(&self, grid: &Grid) -> Vec<f32> {
        let mut edges = vec![MARGIN];
        let mut x = MARGIN;
        for f in &grid.widths {
            x += f * self.width();
            edges.push(x);
        }
        edges
    }

    pub(super) fn grid_cell_lines(&self, edges: &[f32], row: &[GridCell], size: f32) -> Vec<Vec<LineOut>> {
        let last = edges.len().saturating_sub(1);
        row.iter()
            .map(|c| {
                let (from, to) = (c.col.min(last), (c.col + c.span).min(last));
                let w = edges[to] - edges[from];
                self.wrap(&c.runs, size, (w - 2.0 * PAD_X).max(1.0))
            })
            .collect()
    }

    pub(super) fn grid_lines_height(lines: &[Vec<LineOut>], grid: &Grid) -> f32 {
        lines.iter().map(Vec::len).max().unwrap_or(1).max(1) as f32 * Self::line_height(grid.size)
            + 2.0 * grid.pad()
    }

    pub(super) fn grid_row_height(&self, grid: &Grid, row: &[GridCell]) -> f32 {
        Self::grid_lines_height(
            &self.grid_cell_lines(&self.grid_edges(grid), row, grid.size),
            grid,
        )
    }

    /// The lines of each cell of each row of a group.
    pub(super) fn group_lines(
        &self,
        edges: &[f32],
        group: &[Vec<GridCell>],
        size: f32,
    ) -> Vec<Vec<Vec<LineOut>>> {
        group
            .iter()
            .map(|row| self.grid_cell_lines(edges, row, size))
            .collect()
    }

    /// The height of each row of a group (whose cells have `lines`): what
    /// its own cells need, and a cell running down several rows lengthens
    /// the last of them if they are too short for it.
    pub(super) fn group_heights(
        grid: &Grid,
        group: &[Vec<GridCell>],
        lines: &[Vec<Vec<LineOut>>],
    ) -> Vec<f32> {
        let height = |count: usize| count.max(1) as f32 * Self::line_height(grid.size) + 2.0 * grid.pad();
        let mut heights: Vec<f32> = (group.iter().zip(lines))
            .map(|(row, lines)| {
                let single = row.iter().zip(lines).filter(|(c, _)| c.rows <= 1);
                height(single.map(|(_, l)| l.len()).max().unwrap_or(1))
            })
            .collect();
        for (r, (row, lines)) in group.iter().zip(lines).enumerate() {
            for (c, l) in row.iter().zip(lines).filter(|(c, _)| c.rows > 1) {
                let need = height(l.len());
                let end = (r + c.rows).min(group.len());
                let have: f32 = heights[r..end].iter().sum();
                if need > have {
                    heights[end - 1] += need - have;
                }
            }
        }
        heights
    }

    pub(super) fn grid_header(grid: &Grid) -> Vec<GridCell> {
        (grid.header.iter().enumerate())
            .map(|(i, h)| cell(i, 1, vec![bold(h.clone())]))
            .collect()
    }

    pub(super) fn grid_header_height(&self, grid: &Grid) -> f32 {
        if grid.header.is_empty() {
            0.0
        } else {
            self.grid_row_height(grid, &Self::grid_header(grid))
        }
    }

    pub(super) fn grid(&mut self, grid: &Grid) {
        let edges = self.grid_edges(grid);
        let (left, right) = (MARGIN, edges.last().copied().unwrap_or(MARGIN));
        let header = Self::grid_header(grid);
        let header_lines = self.grid_cell_lines(&edges, &header, grid.size);
        let header_h = self.grid_header_height(grid);
        let mut open = false;
        for group in &grid.groups {
            let lines = self.group_lines(&edges, group, grid.size);
            let heights = Self::group_heights(grid, group, &lines);
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
                    self.grid_row(&edges, (&header, &header_lines), header_h, true, grid);
                }
                open = true;
            }
            self.hline(left, right, self.y, rule);
            for (r, (row, &h)) in group.iter().zip(&heights).enumerate() {
                if h > self.room() && self.y < self.top() {
                    self.hline(left, right, self.y, rule);
                    self.new_page();
                    if !grid.header.is_empty() {
                        self.grid_row(&edges, (&header, &header_lines), header_h, true, grid);
                    }
                    // The cells running down from the last page (a unit's
                    // name and characteristics) are printed again.
                    let carried = self.carried_cells(grid, &edges, group, &heights, r);
                    let row: Vec<GridCell> = carried.into_iter().chain(row.iter().cloned()).collect();
                    let row_lines = self.grid_cell_lines(&edges, &row, grid.size);
                    self.grid_row(&edges, (&row, &row_lines), h, false, grid);
                    continue;
                }
                self.grid_row(&edges, (row, &lines[r]), h, false, grid);
            }
        }
        if open && grid.ruled {
            self.hline(left, right, self.y, 0.8);
        }
    }

    /// The cells of rows before `r` of a group that run down into row `r`,
    /// as cells of row `r`, when their text fits in the rows they have left.
    pub(super) fn carried_cells(
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

    /// A grid row (its cells and their lines): its cells' text, a rule
    /// over each cell, and the column rules no cell spans over.
    pub(super) fn grid_row(
        &mut self,
        edges: &[f32],
        (row, lines): (&[GridCell], &[Vec<LineOut>]),
        h: f32,
        header: bool,
        grid: &Grid,
    ) {
        let (ruled, pad, size) = (grid.ruled, grid.pad(), grid.size);
        let top = self.y;
        let last = edges.len().saturating_sub(1);
        let mut rules: Vec<bool> = vec![true; edges.len()];
        for (c, cell_lines) in row.iter().zip(lines) {
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

    pub(super) fn vline(&mut self, x: f32, y1: f32, y2: f32, thickness: f32) {
        self.page.vline(x, y1, y2, thickness);
    }

    pub(super) fn footer(&mut self, index: usize, count: usize, left: &str) {
        let baseline = BOTTOM - 22.0;
        self.hline(MARGIN, self.page_width - MARGIN, baseline + 9.0, 0.4);
        self.text_op(MARGIN, baseline, left, false, SMALL);
        let right = format!("page {} of {count}", index + 1);
        let w = self.fonts.width(&right, false, SMALL);
        self.text_op(self.page_width - MARGIN - w, baseline, &right, false, SMALL);
    }
}

/// Page size in points.
pub(super) fn size(paper: Paper) -> (f32, f32) {
    match paper {
        Paper::A4 => (595.28, 841.89),
        Paper::Letter => (612.0, 792.0),
    }
}

/// Lays out blocks and saves the document.
pub(super) fn render(title: &str, footer: &str, blocks: &[Block], paper: Paper) -> Result<Pdf, PrintError> {
    let fonts = fonts()?;
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
        page: Page::default(),
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
    let mut used: [UsedChars; 2] = Default::default();
    for (i, page) in std::mem::take(&mut writer.pages).into_iter().enumerate() {
        writer.page = page;
        writer.footer(i, count, footer);
        let page = std::mem::take(&mut writer.page);
        page.add_used(&mut used);
        pages.push(PdfPage::new(
            Mm(page_width * 25.4 / 72.0),
            Mm(page_height * 25.4 / 72.0),
            page.into_ops(&writer.regular_id, &writer.bold_id),
        ));
    }
    let mut doc = PdfDocument::new(title);
    let common = add_fonts(
        &mut doc,
        fonts,
        [(writer.regular_id, &used[0]), (writer.bold_id, &used[1])],
    )?;
    // Stream compression left to us: printpdf compresses at the best
    // level, which costs a third of a one-page roster; the fast level
    // makes files a little larger and the same to read.
    let options = PdfSaveOptions {
        optimize: false,
        ..PdfSaveOptions::default()
    };
    let mut document = doc.with_pages(pages).to_lopdf_document(&options, &mut Vec::new());
    prepared_maps(&mut document, &common);
    let mut deflater = Deflater::default();
    for object in document.objects.values_mut() {
        if let lopdf::Object::Stream(stream) = object {
            // printpdf embeds the font program as the subset's bytes.
            match common
                .iter()
                .find(|(c, _)| stream.content == c.font.original_bytes)
            {
                Some((c, _)) => {
                    if let Some(deflated) = &c.deflated {
                        stream.dict.set("Filter", "FlateDecode");
                        stream.set_content(deflated.clone());
                    }
                }
                None => deflater.stream(stream),
            }
        }
    }
    let mut bytes = Vec::new();
    document
        .save_to(&mut bytes)
        .map_err(|e| PrintError::Write(e.to_string()))?;
    Ok(Pdf { bytes, unprintable })
}

/// Adds each weight the pages draw in to the document: its common subset
/// when that has every character the pages draw in it (its font program
/// deflated already; returned, with whether its prepared `ToUnicode` map
/// reads the document's text as printpdf's would), else a subset of
/// exactly those characters.
fn add_fonts(
    doc: &mut PdfDocument,
    fonts: &Fonts,
    weights: [(FontId, &UsedChars); 2],
) -> Result<Vec<(&'static CommonSubset, bool)>, PrintError> {
    let mut common = Vec::new();
    for (bold, (id, chars)) in [false, true].into_iter().zip(weights) {
        if chars.is_empty() {
            continue;
        }
        let font = match common_subset(bold) {
            Some(c) if chars.within(&c.chars) => {
                common.push((c, !c.shared.chars().any(|s| chars.contains(s))));
                c.font.clone()
            }
            _ => {
                let (ttf, name) = if bold {
                    (BOLD_TTF, BOLD_NAME)
                } else {
                    (REGULAR_TTF, REGULAR_NAME)
                };
                let full = fonts.face(bold).font().ok_or(PrintError::Font)?;
                subset(ttf, full, name, &chars.to_set())?
            }
        };
        doc.resources.fonts.map.insert(id, PdfFont::new(font));
    }
    Ok(common)
}

/// Puts the prepared `ToUnicode` map of each common subset (deflated
/// already) in place of the one printpdf made for the document's
/// characters: it maps the glyphs the document draws as printpdf's does.
fn prepared_maps(document: &mut lopdf::Document, common: &[(&CommonSubset, bool)]) {
    use lopdf::Object;
    let mut maps = Vec::new();
    for object in document.objects.values() {
        let Ok(dict) = object.as_dict() else { continue };
        let name = dict.get(b"BaseFont").and_then(Object::as_name);
        let map = dict.get(b"ToUnicode").and_then(Object::as_reference);
        let (Ok(name), Ok(map)) = (name, map) else {
            continue;
        };
        let prepared = (common.iter())
            .find(|(c, usable)| *usable && c.font.font_name.as_deref().map(str::as_bytes) == Some(name))
            .filter(|(c, _)| !c.to_unicode.is_empty());
        if let Some((c, _)) = prepared {
            maps.push((map, c.to_unicode));
        }
    }
    for (id, bytes) in maps {
        if let Ok(Object::Stream(stream)) = document.get_object_mut(id) {
            stream.dict.set("Filter", "FlateDecode");
            stream.set_content(bytes.to_vec());
        }
    }
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
pub(super) fn text_width(paper: Paper) -> f32 {
    size(paper).0 - 2.0 * MARGIN
}
