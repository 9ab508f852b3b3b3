//! One page's drawing, gathered while the layout places it and turned
//! into printpdf's operations when the page is done, in fewer of them
//! than drawing each piece on its own takes: every operation printpdf
//! writes costs its number formatting, which was most of a document's
//! time (issue 33).
//!
//! The page draws its shapes (shaded and framed rectangles) in the order
//! placed, then its rules, then its text, so text is never under a
//! shading and a rule never under a shading either (the layout never
//! lays a shading over a rule or text of its own page, so this is the
//! picture drawing in place gives). Rules of one thickness on one line
//! that meet are drawn as one (the rules of a grid's cells and rows);
//! the line width, the fill grey and the font are set only when they
//! change. Each piece of text keeps its own text object (`BT` .. `ET`,
//! positioned absolutely), so text extraction sees the same pieces.

use super::fonts::UsedChars;
use printpdf::{
    Color, FontId, Greyscale, Line, LinePoint, Op, PaintMode, PdfFontHandle, Point, Pt, Rect, TextItem,
};

/// A shaded or framed rectangle.
#[derive(Debug, Clone, Copy)]
struct Shape {
    x: f32,
    y: f32,
    w: f32,
    h: f32,
    fill: Option<f32>,
    stroke: Option<f32>,
}

/// A straight rule: horizontal at `y = at` from `x = from` to `to`, or
/// vertical at `x = at` from `y = from` to `to`.
#[derive(Debug, Clone, Copy)]
struct Rule {
    thickness: f32,
    vertical: bool,
    at: f32,
    from: f32,
    to: f32,
}

/// A piece of text whose baseline starts at (`x`, `baseline`).
#[derive(Debug, Clone)]
struct Piece {
    x: f32,
    baseline: f32,
    size: f32,
    bold: bool,
    text: String,
}

#[derive(Debug, Default)]
pub(super) struct Page {
    shapes: Vec<Shape>,
    rules: Vec<Rule>,
    text: Vec<Piece>,
}

impl Page {
    pub(super) fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, fill: Option<f32>, stroke: Option<f32>) {
        self.shapes.push(Shape {
            x,
            y,
            w,
            h,
            fill,
            stroke,
        });
    }

    pub(super) fn hline(&mut self, x1: f32, x2: f32, y: f32, thickness: f32) {
        self.rule(false, y, x1, x2, thickness);
    }

    pub(super) fn vline(&mut self, x: f32, y1: f32, y2: f32, thickness: f32) {
        self.rule(true, x, y1, y2, thickness);
    }

    fn rule(&mut self, vertical: bool, at: f32, a: f32, b: f32, thickness: f32) {
        self.rules.push(Rule {
            thickness,
            vertical,
            at,
            from: a.min(b),
            to: a.max(b),
        });
    }

    pub(super) fn text(&mut self, x: f32, baseline: f32, text: String, bold: bool, size: f32) {
        self.text.push(Piece {
            x,
            baseline,
            size,
            bold,
            text,
        });
    }

    /// The characters the page draws in each weight: regular, bold.
    pub(super) fn add_used(&self, used: &mut [UsedChars; 2]) {
        for piece in &self.text {
            used[usize::from(piece.bold)].extend(&piece.text);
        }
    }

    /// The page's operations: shapes, rules, then text.
    pub(super) fn into_ops(self, regular: &FontId, bold: &FontId) -> Vec<Op> {
        let rules = merged(self.rules);
        // At most: grey, width and path per shape; width and path per
        // rule; grey, five operations per piece of text.
        let most = 3 * self.shapes.len() + 2 * rules.len() + 5 * self.text.len() + 1;
        let mut out = Ops {
            ops: Vec::with_capacity(most),
            ..Ops::default()
        };
        for shape in &self.shapes {
            out.shape(shape);
        }
        for rule in rules {
            out.rule(&rule);
        }
        for piece in self.text {
            out.text(piece, regular, bold);
        }
        out.ops
    }
}

/// Rules of one thickness on one line that touch or overlap, joined; in
/// the order thickness, direction, line, start.
fn merged(mut rules: Vec<Rule>) -> Vec<Rule> {
    // Every coordinate is positive, so their bits order as they do.
    let key = |r: &Rule| {
        (
            r.thickness.to_bits(),
            r.vertical,
            r.at.to_bits(),
            r.from.to_bits(),
        )
    };
    rules.sort_unstable_by_key(key);
    let mut out: Vec<Rule> = Vec::with_capacity(rules.len());
    for rule in rules {
        match out.last_mut() {
            Some(last)
                if last.thickness == rule.thickness
                    && last.vertical == rule.vertical
                    && last.at == rule.at
                    && rule.from <= last.to + 0.01 =>
            {
                last.to = last.to.max(rule.to);
            }
            _ => out.push(rule),
        }
    }
    out
}

/// The operations written so far and the graphics state they leave.
struct Ops {
    ops: Vec<Op>,
    fill: f32,
    line_width: Option<f32>,
    font: Option<(bool, f32)>,
}

impl Default for Ops {
    fn default() -> Ops {
        Ops {
            ops: Vec::new(),
            fill: 0.0,
            line_width: None,
            font: None,
        }
    }
}

fn grey(percent: f32) -> Color {
    Color::Greyscale(Greyscale {
        percent,
        icc_profile: None,
    })
}

impl Ops {
    fn set_fill(&mut self, percent: f32) {
        if self.fill != percent {
            self.fill = percent;
            self.ops.push(Op::SetFillColor { col: grey(percent) });
        }
    }

    fn set_line_width(&mut self, pt: f32) {
        if self.line_width != Some(pt) {
            self.line_width = Some(pt);
            self.ops.push(Op::SetOutlineThickness { pt: Pt(pt) });
        }
    }

    fn shape(&mut self, s: &Shape) {
        let mode = match (s.fill, s.stroke) {
            (Some(grey), Some(thickness)) => {
                self.set_fill(grey);
                self.set_line_width(thickness);
                PaintMode::FillStroke
            }
            (Some(grey), None) => {
                self.set_fill(grey);
                PaintMode::Fill
            }
            (None, Some(thickness)) => {
                self.set_line_width(thickness);
                PaintMode::Stroke
            }
            (None, None) => return,
        };
        self.ops.push(Op::DrawRectangle {
            rectangle: Rect {
                mode: Some(mode),
                ..Rect::from_xywh(Pt(s.x), Pt(s.y), Pt(s.w), Pt(s.h))
            },
        });
    }

    fn rule(&mut self, r: &Rule) {
        if r.thickness <= 0.0 {
            return;
        }
        self.set_line_width(r.thickness);
        let point = |along: f32| {
            let (x, y) = if r.vertical { (r.at, along) } else { (along, r.at) };
            LinePoint {
                p: Point { x: Pt(x), y: Pt(y) },
                bezier: false,
            }
        };
        self.ops.push(Op::DrawLine {
            line: Line {
                points: vec![point(r.from), point(r.to)],
                is_closed: false,
            },
        });
    }

    fn text(&mut self, piece: Piece, regular: &FontId, bold: &FontId) {
        self.set_fill(0.0);
        self.ops.push(Op::StartTextSection);
        // The font and size are graphics state: they outlast the text object.
        if self.font != Some((piece.bold, piece.size)) {
            self.font = Some((piece.bold, piece.size));
            let font = if piece.bold { bold } else { regular };
            self.ops.push(Op::SetFont {
                font: PdfFontHandle::External(font.clone()),
                size: Pt(piece.size),
            });
        }
        self.ops.extend([
            Op::SetTextCursor {
                pos: Point {
                    x: Pt(piece.x),
                    y: Pt(piece.baseline),
                },
            },
            Op::ShowText {
                items: vec![TextItem::Text(piece.text)],
            },
            Op::EndTextSection,
        ]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(vertical: bool, at: f32, from: f32, to: f32) -> Rule {
        Rule {
            thickness: 0.4,
            vertical,
            at,
            from,
            to,
        }
    }

    #[test]
    fn rules_that_meet_on_one_line_are_drawn_as_one() {
        let rules = vec![
            rule(false, 100.0, 50.0, 80.0),
            rule(true, 50.0, 90.0, 100.0),
            rule(false, 100.0, 36.0, 50.0),
            rule(true, 50.0, 80.0, 90.0),
            // A gap: drawn apart.
            rule(false, 100.0, 90.0, 120.0),
            // Another thickness on the same line: drawn apart.
            Rule {
                thickness: 0.8,
                ..rule(false, 100.0, 36.0, 120.0)
            },
        ];
        let merged: Vec<(f32, bool, f32, f32, f32)> = merged(rules)
            .into_iter()
            .map(|r| (r.thickness, r.vertical, r.at, r.from, r.to))
            .collect();
        assert_eq!(
            merged,
            vec![
                (0.4, false, 100.0, 36.0, 80.0),
                (0.4, false, 100.0, 90.0, 120.0),
                (0.4, true, 50.0, 80.0, 100.0),
                (0.8, false, 100.0, 36.0, 120.0),
            ]
        );
    }

    #[test]
    fn the_font_and_fill_are_set_only_when_they_change() {
        let (regular, bold) = (FontId("R".into()), FontId("B".into()));
        let mut page = Page::default();
        page.rect(10.0, 10.0, 50.0, 20.0, Some(0.86), None);
        page.text(12.0, 15.0, "a".into(), false, 8.5);
        page.text(30.0, 15.0, "b".into(), false, 8.5);
        page.text(40.0, 15.0, "c".into(), true, 8.5);
        let ops = page.into_ops(&regular, &bold);
        let count = |f: fn(&Op) -> bool| ops.iter().filter(|op| f(op)).count();
        assert_eq!(count(|op| matches!(op, Op::SetFont { .. })), 2);
        assert_eq!(count(|op| matches!(op, Op::StartTextSection)), 3);
        // Shaded, then black for the text.
        assert_eq!(count(|op| matches!(op, Op::SetFillColor { .. })), 2);
    }
}
