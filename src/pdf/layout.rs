//! Where the sheet's text goes on A4 pages: wrapping, columns, page breaks (the lines'
//! header repeated on each page), the footer and the page numbers `n / N`.
//!
//! The result is a list of pages of drawing operations at absolute positions (points,
//! origin top left), which `draw` hands to the PDF library as they are.

// Layout positions and font sizes are floats: they are points on a page, never money
// (every amount is already text, written from its `Decimal`, before it gets here).
#![allow(clippy::float_arithmetic)]

use super::sheet::{Adjustment, LineRow, PartyBlock, Sheet};
use super::text::Metrics;
use super::PdfError;

/// An sRGB colour.
pub(crate) type Rgb = [u8; 3];

/// A4 width in points.
pub(crate) const PAGE_WIDTH: f32 = 595.28;
/// A4 height in points.
pub(crate) const PAGE_HEIGHT: f32 = 841.89;
const LEFT: f32 = 42.0;
const RIGHT: f32 = PAGE_WIDTH - 42.0;
const WIDTH: f32 = RIGHT - LEFT;
const TOP: f32 = 40.0;
/// The lowest point of the content; the footer lies below.
const BOTTOM: f32 = PAGE_HEIGHT - 80.0;
const BODY: f32 = 8.5;
const SMALL: f32 = 7.5;
const TINY: f32 = 7.0;
const MIN_SIZE: f32 = 5.0;
const LEADING: f32 = 1.3;
const INK: Rgb = [0x22, 0x22, 0x22];
const GREY: Rgb = [0x6B, 0x6B, 0x6B];
const RULE: Rgb = [0xD0, 0xD0, 0xD0];
const WHITE: Rgb = [0xFF, 0xFF, 0xFF];
/// The accent of a page without a branding colour: a plain dark grey.
const PLAIN: Rgb = [0x3A, 0x3A, 0x3A];
/// The lines' table: description, quantity, unit, unit price, VAT, total.
const LINE_COLUMNS: [(f32, f32); 6] = [
    (LEFT, 200.0),
    (LEFT + 200.0, 55.0),
    (LEFT + 255.0, 40.0),
    (LEFT + 295.0, 65.0),
    (LEFT + 360.0, 70.0),
    (LEFT + 430.0, WIDTH - 430.0),
];
const CELL_GAP: f32 = 4.0;

/// One drawing operation, in points from the page's top left corner.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Op {
    /// A text run: `x` its left end, `y` its baseline; `text` cleaned for the font.
    Text {
        x: f32,
        y: f32,
        size: f32,
        bold: bool,
        color: Rgb,
        text: String,
    },
    /// A filled rectangle: `x`, `y` its top left corner, `w` × `h`.
    Rect {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        color: Rgb,
    },
    /// The logo, scaled into its box (`x`, `y` its top left corner, `w` × `h`).
    Logo { x: f32, y: f32, w: f32, h: f32 },
}

/// A page: its operations in drawing order.
pub(crate) type Page = Vec<Op>;

/// How the branding shapes the page: accent colour and logo size in pixels.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Look {
    /// The accent colour, if any.
    pub color: Option<Rgb>,
    /// The logo's width and height in pixels, if any.
    pub logo: Option<(u32, u32)>,
}

/// A line of text in a cell, cleaned and measured.
#[derive(Debug, Clone)]
struct Styled {
    text: String,
    size: f32,
    bold: bool,
    color: Rgb,
    width: f32,
}

impl Styled {
    fn height(&self) -> f32 {
        self.size * LEADING
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Align {
    Left,
    Right,
}

/// A column of lines at `x`, `width` wide.
#[derive(Debug, Clone)]
struct Cell {
    x: f32,
    width: f32,
    align: Align,
    lines: Vec<Styled>,
}

impl Cell {
    fn height(&self) -> f32 {
        self.lines.iter().map(Styled::height).sum()
    }
}

/// A band across the page: cells side by side, an optional background and rule.
#[derive(Debug, Clone, Default)]
struct Row {
    cells: Vec<Cell>,
    fill: Option<Rgb>,
    rule: Option<Rgb>,
    pad: f32,
    min_height: f32,
}

impl Row {
    fn new(cells: Vec<Cell>, pad: f32) -> Row {
        Row {
            cells,
            pad,
            ..Row::default()
        }
    }

    fn height(&self) -> f32 {
        let content = self.cells.iter().map(Cell::height).fold(0.0, f32::max);
        (content + 2.0 * self.pad).max(self.min_height)
    }

    fn is_empty(&self) -> bool {
        self.cells.iter().all(|c| c.lines.is_empty())
    }

    /// The part of the row that fits in `room` points and the rest; at least one line
    /// of each cell goes in the first part when `force` is set.
    fn split(self, room: f32, force: bool) -> (Row, Row) {
        let mut head = Row {
            cells: Vec::new(),
            ..self.clone()
        };
        head.min_height = 0.0;
        let mut rest = Row {
            cells: Vec::new(),
            min_height: 0.0,
            ..self.clone()
        };
        for cell in self.cells {
            let mut used = 0.0;
            let mut taken = 0;
            for line in &cell.lines {
                if used + line.height() > room - 2.0 * self.pad && !(force && taken == 0) {
                    break;
                }
                used += line.height();
                taken += 1;
            }
            let mut lines = cell.lines;
            let tail = lines.split_off(taken.min(lines.len()));
            head.cells.push(Cell { lines, ..cell });
            rest.cells.push(Cell {
                lines: tail,
                x: cell.x,
                width: cell.width,
                align: cell.align,
            });
        }
        (head, rest)
    }
}

/// The two faces and their metrics.
struct Fonts {
    regular: &'static Metrics,
    bold: &'static Metrics,
}

impl Fonts {
    fn metrics(&self, bold: bool) -> &Metrics {
        if bold {
            self.bold
        } else {
            self.regular
        }
    }

    /// Width in points of a cleaned text.
    #[allow(clippy::cast_precision_loss)] // widths of at most a few thousand ems
    fn width(&self, text: &str, size: f32, bold: bool) -> f32 {
        let m = self.metrics(bold);
        m.width(text) as f32 * size / f32::from(m.units_per_em())
    }

    /// The font units that fit in `points` at `size`, less a margin for kerning.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // clamped, positive
    fn units(&self, points: f32, size: f32, bold: bool) -> u64 {
        let em = f32::from(self.metrics(bold).units_per_em());
        (points * em / size * 0.98).clamp(1.0, 1.0e9) as u64
    }

    fn styled(&self, text: String, size: f32, bold: bool, color: Rgb) -> Styled {
        let width = self.width(&text, size, bold);
        Styled {
            text,
            size,
            bold,
            color,
            width,
        }
    }

    /// A text wrapped to `width`: paragraphs at line breaks, lines at spaces, a word
    /// longer than the width at any character.
    fn para(&self, text: &str, width: f32, size: f32, bold: bool, color: Rgb) -> Vec<Styled> {
        let m = self.metrics(bold);
        let max = self.units(width, size, bold);
        let text = text.replace("\r\n", "\n").replace('\r', "\n");
        text.split('\n')
            .flat_map(|p| wrap(m, &m.clean(p), max))
            .map(|l| self.styled(l, size, bold, color))
            .collect()
    }

    /// A value on one line, made smaller to fit (down to a minimum size), wrapped only
    /// if even that is too wide.
    fn value(&self, text: &str, width: f32, size: f32, bold: bool, color: Rgb) -> Vec<Styled> {
        let clean = self.metrics(bold).clean(text);
        let natural = self.width(&clean, size, bold);
        if natural <= width {
            return vec![self.styled(clean, size, bold, color)];
        }
        let smaller = (size * width / natural * 0.98).max(MIN_SIZE);
        if self.width(&clean, smaller, bold) <= width {
            return vec![self.styled(clean, smaller, bold, color)];
        }
        self.para(&clean, width, MIN_SIZE, bold, color)
    }
}

/// Greedy wrapping of a cleaned paragraph to `max` font units.
fn wrap(m: &Metrics, text: &str, max: u64) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let advance = |c: &char| u64::from(m.advance(*c));
    let mut lines = Vec::new();
    let (mut start, mut width, mut space, mut i) = (0, 0_u64, None, 0);
    while let Some(c) = chars.get(i) {
        let a = advance(c);
        if width + a > max && i > start {
            let cut = space.filter(|s| *s > start);
            let end = cut.unwrap_or(i);
            lines.push(chars.get(start..end).unwrap_or_default().iter().collect());
            start = cut.map_or(i, |s| s + 1);
            width = chars
                .get(start..i)
                .unwrap_or_default()
                .iter()
                .map(advance)
                .sum();
            space = None;
            continue;
        }
        if *c == ' ' {
            space = Some(i);
        }
        width += a;
        i += 1;
    }
    lines.push(chars.get(start..).unwrap_or_default().iter().collect());
    lines
}

/// The page flow: rows placed top to bottom, a new page when one is full.
struct Flow<'a> {
    fonts: &'a Fonts,
    pages: Vec<Page>,
    ops: Page,
    y: f32,
    /// Where the body starts on the current page (below a repeated header).
    body_top: f32,
    /// The header repeated at the top of each new page (the lines' table).
    header: Option<Row>,
    /// The running head of pages after the first.
    running: String,
    accent: Rgb,
}

impl Flow<'_> {
    fn new_page(&mut self) {
        self.pages.push(std::mem::take(&mut self.ops));
        let running = self.fonts.value(&self.running, WIDTH, SMALL, false, GREY);
        let mut head = Row::new(vec![cell(LEFT, WIDTH, running)], 0.0);
        head.min_height = 18.0;
        self.y = TOP;
        self.draw(&head);
        if let Some(header) = self.header.clone() {
            self.draw(&header);
        }
        self.body_top = self.y;
    }

    /// Draws a row at the current position and moves below it.
    fn draw(&mut self, row: &Row) {
        let h = row.height();
        if let Some(color) = row.fill {
            self.ops.push(rect(LEFT, self.y, WIDTH, h, color));
        }
        if let Some(color) = row.rule {
            self.ops
                .push(rect(LEFT, self.y + h - 0.5, WIDTH, 0.5, color));
        }
        for cell in &row.cells {
            let mut top = self.y + row.pad;
            for line in &cell.lines {
                let x = match cell.align {
                    Align::Left => cell.x,
                    Align::Right => cell.x + cell.width - line.width,
                };
                if !line.text.is_empty() {
                    self.ops.push(Op::Text {
                        x,
                        y: top + line.size,
                        size: line.size,
                        bold: line.bold,
                        color: line.color,
                        text: line.text.clone(),
                    });
                }
                top += line.height();
            }
        }
        self.y += h;
    }

    /// Places a row, on the next page if it does not fit, split over pages if it is
    /// taller than a page.
    fn place(&mut self, row: Row) {
        let mut row = row;
        loop {
            let h = row.height();
            if self.y + h <= BOTTOM {
                self.draw(&row);
                return;
            }
            let fresh = self.y <= self.body_top;
            if !fresh && h <= BOTTOM - self.body_top {
                self.new_page();
                continue;
            }
            let (head, rest) = row.split(BOTTOM - self.y, fresh);
            if head.is_empty() {
                self.new_page();
                row = rest;
                continue;
            }
            self.draw(&head);
            if rest.is_empty() {
                return;
            }
            self.new_page();
            row = rest;
        }
    }

    /// Starts a new page unless `h` points fit on this one.
    fn keep(&mut self, h: f32) {
        if self.y + h > BOTTOM && self.y > self.body_top {
            self.new_page();
        }
    }

    fn space(&mut self, h: f32) {
        self.y = (self.y + h).min(BOTTOM);
    }
}

fn rect(x: f32, y: f32, w: f32, h: f32, color: Rgb) -> Op {
    Op::Rect { x, y, w, h, color }
}

fn cell(x: f32, width: f32, lines: Vec<Styled>) -> Cell {
    Cell {
        x,
        width,
        align: Align::Left,
        lines,
    }
}

fn right(x: f32, width: f32, lines: Vec<Styled>) -> Cell {
    Cell {
        align: Align::Right,
        ..cell(x, width, lines)
    }
}

/// A colour mixed with white: `part` of 255 of the colour.
fn tint(color: Rgb, part: u16) -> Rgb {
    color.map(|c| {
        let mixed = (u16::from(c) * part + 255 * (255 - part)) / 255;
        u8::try_from(mixed).unwrap_or(u8::MAX)
    })
}

/// White on a dark accent, ink on a light one.
fn on(color: Rgb) -> Rgb {
    let [r, g, b] = color.map(u32::from);
    if r * 299 + g * 587 + b * 114 > 150_000 {
        INK
    } else {
        WHITE
    }
}

/// Lays the sheet out on pages.
pub(crate) fn lay_out(sheet: &Sheet, look: Look) -> Result<Vec<Page>, PdfError> {
    let (regular, bold) = Metrics::embedded()?;
    let fonts = Fonts { regular, bold };
    let mut flow = Flow {
        fonts: &fonts,
        pages: Vec::new(),
        ops: Vec::new(),
        y: TOP,
        body_top: TOP,
        header: None,
        running: sheet.meta.title.clone(),
        accent: look.color.unwrap_or(PLAIN),
    };
    heading(&mut flow, sheet, look);
    parties(&mut flow, sheet);
    facts(&mut flow, sheet);
    lines(&mut flow, sheet);
    adjustments(&mut flow, sheet);
    summary(&mut flow, sheet);
    closing(&mut flow, sheet);
    flow.pages.push(std::mem::take(&mut flow.ops));
    let mut pages = flow.pages;
    footer(&fonts, &mut pages, &sheet.footer);
    Ok(pages)
}

/// The logo (top left) and the title with its notice (top right).
fn heading(flow: &mut Flow<'_>, sheet: &Sheet, look: Look) {
    let f = flow.fonts;
    let mut logo_h: f32 = 0.0;
    if let Some((w, h)) = look.logo.filter(|(w, h)| *w > 0 && *h > 0) {
        #[allow(clippy::cast_precision_loss)] // at most 4096 pixels
        let (w, h) = (w as f32, h as f32);
        let scale = (170.0 / w).min(60.0 / h);
        logo_h = h * scale;
        flow.ops.push(Op::Logo {
            x: LEFT,
            y: TOP,
            w: w * scale,
            h: logo_h,
        });
    }
    let mut title = f.value(&sheet.title, 300.0, 20.0, true, flow.accent);
    if let Some(notice) = &sheet.notice {
        title.extend(f.para(notice, 300.0, 10.0, true, flow.accent));
    }
    let mut row = Row::new(vec![right(RIGHT - 300.0, 300.0, title)], 0.0);
    row.min_height = logo_h;
    flow.place(row);
    flow.space(12.0);
}

/// A party's cell: role, name, lines.
fn party_cell(f: &Fonts, block: &PartyBlock, x: f32, width: f32, accent: Rgb) -> Cell {
    let mut lines = f.value(&block.role.to_uppercase(), width, TINY, true, accent);
    lines.extend(f.para(&block.name, width, 10.0, true, INK));
    for l in &block.lines {
        lines.extend(f.para(l, width, BODY, false, INK));
    }
    cell(x, width, lines)
}

/// Supplier left, customer right, the delivery address under the customer.
fn parties(flow: &mut Flow<'_>, sheet: &Sheet) {
    let f = flow.fonts;
    let half = WIDTH / 2.0 - 12.0;
    let right_x = LEFT + WIDTH / 2.0 + 12.0;
    let row = Row::new(
        vec![
            party_cell(f, &sheet.supplier, LEFT, half, flow.accent),
            party_cell(f, &sheet.customer, right_x, half, flow.accent),
        ],
        0.0,
    );
    flow.place(row);
    if let Some(d) = &sheet.delivery {
        flow.space(8.0);
        let row = Row::new(vec![party_cell(f, d, right_x, half, flow.accent)], 0.0);
        flow.place(row);
    }
    flow.space(12.0);
}

/// Number, dates and references, four to a band.
fn facts(flow: &mut Flow<'_>, sheet: &Sheet) {
    let f = flow.fonts;
    let width = WIDTH / 4.0;
    for chunk in sheet.facts.chunks(4) {
        let mut x = LEFT + 6.0;
        let mut cells = Vec::new();
        for (label, value) in chunk {
            let w = width - 12.0;
            let mut lines = f.value(label, w, TINY, false, GREY);
            lines.extend(f.para(value, w, BODY, true, INK));
            cells.push(cell(x, w, lines));
            x += width;
        }
        let mut row = Row::new(cells, 5.0);
        row.fill = Some(tint(flow.accent, 22));
        flow.place(row);
    }
    flow.space(10.0);
}

/// The lines' table header, repeated on each page.
fn line_header(f: &Fonts, sheet: &Sheet, accent: Rgb) -> Row {
    let ink = on(accent);
    let cells = LINE_COLUMNS
        .iter()
        .zip(&sheet.line_headers)
        .enumerate()
        .map(|(i, ((x, w), label))| {
            let lines = f.para(label, w - CELL_GAP, SMALL, true, ink);
            if i == 0 {
                cell(x + 3.0, w - CELL_GAP, lines)
            } else {
                right(*x, w - 3.0, lines)
            }
        })
        .collect();
    let mut row = Row::new(cells, 4.0);
    row.fill = Some(accent);
    row
}

/// One line's row: name and details on the left, the numbers in their columns.
fn line_row(f: &Fonts, line: &LineRow) -> Row {
    let (dx, dw) = LINE_COLUMNS[0];
    let mut desc = f.para(&line.name, dw - CELL_GAP, BODY, true, INK);
    for d in &line.details {
        desc.extend(f.para(d, dw - CELL_GAP, SMALL, false, GREY));
    }
    let values = [
        &line.quantity,
        &line.unit,
        &line.unit_price,
        &line.vat,
        &line.total,
    ];
    let mut cells = vec![cell(dx + 3.0, dw - CELL_GAP, desc)];
    for ((x, w), v) in LINE_COLUMNS.iter().skip(1).zip(values) {
        cells.push(right(
            *x,
            w - 3.0,
            f.value(v, w - CELL_GAP, BODY, false, INK),
        ));
    }
    let mut row = Row::new(cells, 4.0);
    if line.adjustments.is_empty() {
        row.rule = Some(RULE);
    }
    row
}

/// A line's allowance or charge under it: label and amount.
fn adjustment_row(f: &Fonts, a: &Adjustment, last: bool) -> Row {
    let (dx, dw) = LINE_COLUMNS[0];
    let (tx, tw) = LINE_COLUMNS[5];
    let label = f.para(&a.label, dw + 270.0 - 12.0, SMALL, false, GREY);
    let amount = f.value(&a.amount, tw - CELL_GAP, SMALL, false, GREY);
    let mut row = Row::new(
        vec![
            cell(dx + 12.0, dw + 270.0 - 12.0, label),
            right(tx, tw - 3.0, amount),
        ],
        1.5,
    );
    if last {
        row.rule = Some(RULE);
        row.pad = 2.5;
    }
    row
}

/// The lines' table, its header on every page it runs over.
fn lines(flow: &mut Flow<'_>, sheet: &Sheet) {
    let f = flow.fonts;
    let note = f.value(&sheet.currency_note, WIDTH, TINY, false, GREY);
    let header = line_header(f, sheet, flow.accent);
    flow.keep(header.height() + 40.0);
    flow.place(Row::new(vec![right(LEFT, WIDTH, note)], 1.0));
    flow.place(header.clone());
    flow.header = Some(header);
    for line in &sheet.lines {
        if let Some(section) = &line.section {
            let lines = f.para(section, WIDTH - 6.0, BODY, true, flow.accent);
            flow.keep(40.0);
            flow.place(Row::new(vec![cell(LEFT + 3.0, WIDTH - 6.0, lines)], 4.0));
        }
        flow.place(line_row(f, line));
        let n = line.adjustments.len();
        for (i, a) in line.adjustments.iter().enumerate() {
            flow.place(adjustment_row(f, a, i + 1 == n));
        }
    }
    flow.header = None;
    flow.space(10.0);
}

/// A heading row in the accent colour.
fn section_heading(flow: &mut Flow<'_>, text: &str) {
    let lines = flow.fonts.para(text, WIDTH, 9.5, true, flow.accent);
    flow.keep(50.0);
    let mut row = Row::new(vec![cell(LEFT, WIDTH, lines)], 2.0);
    row.rule = Some(flow.accent);
    flow.place(row);
}

/// A label on the left, an amount on the right.
fn amount_row(f: &Fonts, label: &str, amount: &str, size: f32, bold: bool) -> Row {
    let label = f.para(label, WIDTH - 140.0, size, bold, INK);
    let amount = f.value(amount, 120.0, size, bold, INK);
    let mut row = Row::new(
        vec![
            cell(LEFT + 3.0, WIDTH - 140.0, label),
            right(RIGHT - 123.0, 120.0, amount),
        ],
        3.0,
    );
    row.rule = Some(RULE);
    row
}

/// The document allowances and charges.
fn adjustments(flow: &mut Flow<'_>, sheet: &Sheet) {
    if sheet.adjustments.is_empty() {
        return;
    }
    section_heading(flow, &sheet.adjustments_heading);
    for a in &sheet.adjustments {
        let row = amount_row(flow.fonts, &a.label, &a.amount, BODY, false);
        flow.place(row);
    }
    flow.space(8.0);
}

/// An empty line of a size, to keep the lines of side-by-side cells level.
fn blank(f: &Fonts, size: f32) -> Styled {
    f.styled(String::new(), size, false, INK)
}

/// Pads each cell with empty lines of `size` to the tallest one's line count.
fn level(f: &Fonts, cells: &mut [&mut Vec<Styled>], size: f32) {
    let n = cells.iter().map(|c| c.len()).max().unwrap_or(0);
    for c in cells.iter_mut() {
        while c.len() < n {
            c.push(blank(f, size));
        }
    }
}

/// The VAT breakdown (rate or code, base, VAT, each exempt group's mention) on the
/// left, the totals on the right, the strong ones emphasised.
fn summary(flow: &mut Flow<'_>, sheet: &Sheet) {
    let f = flow.fonts;
    let [heading, rate, base, tax] = &sheet.vat_headers;
    section_heading(flow, heading);
    let (mut c0, mut c1, mut c2) = (
        f.para(rate, 110.0, TINY, false, GREY),
        f.value(base, 78.0, TINY, false, GREY),
        f.value(tax, 62.0, TINY, false, GREY),
    );
    level(f, &mut [&mut c0, &mut c1, &mut c2], TINY);
    for v in &sheet.vat {
        c0.extend(f.para(&v.label, 110.0, BODY, false, INK));
        c1.extend(f.value(&v.base, 78.0, BODY, false, INK));
        c2.extend(f.value(&v.vat, 62.0, BODY, false, INK));
        level(f, &mut [&mut c0, &mut c1, &mut c2], BODY);
        if let Some(m) = &v.mention {
            c0.extend(f.para(m, 250.0, SMALL, false, GREY));
            level(f, &mut [&mut c0, &mut c1, &mut c2], SMALL);
        }
    }
    let (mut labels, mut amounts) = (vec![blank(f, TINY)], vec![blank(f, TINY)]);
    for t in &sheet.totals {
        let size = if t.strong { 10.0 } else { BODY };
        let color = if t.strong { flow.accent } else { INK };
        labels.extend(f.para(&t.label, 110.0, size, t.strong, color));
        amounts.extend(f.value(&t.amount, 100.0, size, t.strong, color));
        level(f, &mut [&mut labels, &mut amounts], size);
    }
    let row = Row::new(
        vec![
            cell(LEFT + 3.0, 110.0, c0),
            right(LEFT + 105.0, 78.0, c1),
            right(LEFT + 180.0, 62.0, c2),
            cell(RIGHT - 215.0, 110.0, labels),
            right(RIGHT - 103.0, 100.0, amounts),
        ],
        3.0,
    );
    flow.keep(row.height().min(200.0));
    flow.place(row);
    flow.space(10.0);
}

/// The payment block, the mentions and the legal notice.
fn closing(flow: &mut Flow<'_>, sheet: &Sheet) {
    let f = flow.fonts;
    section_heading(flow, &sheet.payment_heading);
    for (label, value) in &sheet.payment {
        let l = f.para(label, 140.0, BODY, false, GREY);
        let v = f.para(value, WIDTH - 160.0, BODY, true, INK);
        flow.place(Row::new(
            vec![
                cell(LEFT + 3.0, 140.0, l),
                cell(LEFT + 160.0, WIDTH - 160.0, v),
            ],
            2.0,
        ));
    }
    flow.space(12.0);
    for m in &sheet.mentions {
        let lines = f.para(m, WIDTH, BODY, true, INK);
        flow.place(Row::new(vec![cell(LEFT, WIDTH, lines)], 2.0));
    }
    if let Some(notice) = &sheet.legal_notice {
        flow.space(6.0);
        let lines = f.para(notice, WIDTH, SMALL, false, GREY);
        flow.place(Row::new(vec![cell(LEFT, WIDTH, lines)], 2.0));
    }
}

/// The footer of every page: a rule, the footer lines (at most five) and `n / N`.
fn footer(f: &Fonts, pages: &mut [Page], texts: &[String]) {
    let total = pages.len();
    let number_w = 60.0;
    let mut lines: Vec<Styled> = texts
        .iter()
        .flat_map(|t| f.para(t, WIDTH - number_w - 10.0, TINY, false, GREY))
        .collect();
    if lines.len() > 5 {
        lines.truncate(5);
        if let Some(last) = lines.last_mut() {
            last.text.push('…');
        }
    }
    for (i, page) in pages.iter_mut().enumerate() {
        let top = BOTTOM + 14.0;
        page.push(rect(LEFT, top, WIDTH, 0.5, RULE));
        let mut y = top + 4.0;
        for l in &lines {
            page.push(Op::Text {
                x: LEFT,
                y: y + l.size,
                size: l.size,
                bold: false,
                color: l.color,
                text: l.text.clone(),
            });
            y += l.height();
        }
        let number = format!("{} / {total}", i + 1);
        let w = f.width(&number, SMALL, false);
        page.push(Op::Text {
            x: RIGHT - w,
            y: top + 4.0 + SMALL,
            size: SMALL,
            bold: false,
            color: GREY,
            text: number,
        });
    }
}

/// The texts of a page that share a face, a size and a colour, drawn as one glyph run
/// from the first one's place: each text's glyphs on its own baseline (a glyph's
/// `y_offset`) and at its own left end (the advance of the glyph before it reaches
/// there). One text object for many texts: the PDF library writes the graphics state,
/// the text object and the font once per run instead of once per text, which is what
/// its content streams and their compression spent most of their time on (the 500-line
/// PDF: 16.5 ms before, benches/README.md, issue 17).
/// `x`, `y`: where the first text starts (left end, baseline); `text`: the texts, one
/// after the other; `glyphs`: one per character of `text`.
pub(crate) struct Run {
    pub(crate) x: f32,
    pub(crate) y: f32,
    pub(crate) size: f32,
    pub(crate) bold: bool,
    pub(crate) color: Rgb,
    pub(crate) text: String,
    pub(crate) glyphs: Vec<krilla::text::KrillaGlyph>,
}

/// The runs of a page's texts, in the order their styles first appear; each run's
/// texts in the page's order.
pub(crate) fn runs(page: &[Op], regular: &Metrics, bold_face: &Metrics) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    // The pen of each run: where its last glyph ends.
    let mut pens: Vec<f32> = Vec::new();
    for op in page {
        let Op::Text {
            x,
            y,
            size,
            bold,
            color,
            text,
        } = op
        else {
            continue;
        };
        if text.is_empty() || *size <= 0.0 {
            continue;
        }
        let same =
            |r: &Run| r.bold == *bold && r.color == *color && r.size.to_bits() == size.to_bits();
        let index = if let Some(i) = runs.iter().position(same) {
            i
        } else {
            runs.push(Run {
                x: *x,
                y: *y,
                size: *size,
                bold: *bold,
                color: *color,
                text: String::new(),
                glyphs: Vec::new(),
            });
            pens.push(*x);
            runs.len() - 1
        };
        let (Some(run), Some(pen)) = (runs.get_mut(index), pens.get_mut(index)) else {
            continue;
        };
        if let Some(last) = run.glyphs.last_mut() {
            last.x_advance += (*x - *pen) / run.size;
            *pen = *x;
        }
        let metrics = if *bold { bold_face } else { regular };
        let y_offset = (run.y - *y) / run.size;
        let start = run.text.len();
        run.text.push_str(text);
        for mut g in glyphs(metrics, text) {
            g.text_range = g.text_range.start + start..g.text_range.end + start;
            g.y_offset = y_offset;
            *pen += g.x_advance * run.size;
            run.glyphs.push(g);
        }
    }
    runs
}

/// The glyphs of a cleaned text as the PDF places them: each character's glyph and
/// advance from the font's own tables, one glyph per character (the layout measured
/// the text so, without kerning or ligatures, and a character the font lacks was
/// already replaced). Placing them ourselves spares the PDF library a shaping pass
/// that parses the font again for every text drawn: measured, the 500-line PDF took
/// 60 ms with it and 20 ms without (benches/README.md, issue 17).
pub(crate) fn glyphs(metrics: &Metrics, text: &str) -> Vec<krilla::text::KrillaGlyph> {
    let per_em = f32::from(metrics.units_per_em().max(1));
    text.char_indices()
        .map(|(i, c)| {
            let id = metrics.glyph(c).map_or(0, |g| g.0);
            #[allow(clippy::cast_precision_loss)] // an advance in font units fits f32
            let advance = metrics.advance(c) as f32 / per_em;
            krilla::text::KrillaGlyph {
                glyph_id: krilla::text::GlyphId::new(u32::from(id)),
                text_range: i..i + c.len_utf8(),
                x_advance: advance,
                x_offset: 0.0,
                y_offset: 0.0,
                y_advance: 0.0,
                location: None,
            }
        })
        .collect()
}
