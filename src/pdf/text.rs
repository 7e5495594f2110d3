//! The embedded font (DejaVu Sans, `assets/fonts/`, with its licence) and what the
//! layout needs of it: which characters it can show and how wide a text is, in font
//! units (integers; the layout scales them to points).
//!
//! A character the font lacks, and any control, format, private-use or
//! non-character, is shown as U+FFFD (PDF/A refuses the `.notdef` glyph); a TAB is a
//! space. Line breaks are kept by the callers that wrap paragraphs.

use super::PdfError;
use ttf_parser::{Face, GlyphId};

/// DejaVu Sans.
pub(crate) static REGULAR: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
/// DejaVu Sans Bold.
pub(crate) static BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

/// The replacement character.
pub(crate) const REPLACEMENT: char = '\u{FFFD}';

/// A parsed face: its character map and advances, with the glyph and advance of
/// every character below U+0800 looked up once (the texts of an invoice are mostly
/// there; each character is looked up several times: cleaning, measuring, placing).
pub(crate) struct Metrics {
    face: Face<'static>,
    /// Glyph id (0: none) and advance of the characters below [`TABLE`].
    table: Vec<(u16, u16)>,
}

/// The characters whose glyph and advance [`Metrics`] keeps in a table.
const TABLE: u32 = 0x800;

impl Metrics {
    /// Parses one of the embedded fonts.
    pub(crate) fn parse(data: &'static [u8]) -> Result<Metrics, PdfError> {
        let face = Face::parse(data, 0)
            .map_err(|e| PdfError(format!("the embedded font cannot be read: {e}")))?;
        let table = (0..TABLE)
            .map(|u| {
                let glyph = char::from_u32(u)
                    .and_then(|c| face.glyph_index(c))
                    .filter(|g| g.0 != 0);
                let advance = glyph.and_then(|g| face.glyph_hor_advance(g)).unwrap_or(0);
                (glyph.map_or(0, |g| g.0), advance)
            })
            .collect();
        Ok(Metrics { face, table })
    }

    /// The two embedded faces, parsed once for the process (the font bytes are part
    /// of the program: parsing them again gives the same tables).
    pub(crate) fn embedded() -> Result<&'static (Metrics, Metrics), PdfError> {
        static FACES: std::sync::OnceLock<Result<(Metrics, Metrics), PdfError>> =
            std::sync::OnceLock::new();
        FACES
            .get_or_init(|| Ok((Metrics::parse(REGULAR)?, Metrics::parse(BOLD)?)))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The font's units per em.
    pub(crate) fn units_per_em(&self) -> u16 {
        self.face.units_per_em()
    }

    /// The glyph of a character, if the font has one (not `.notdef`).
    pub(crate) fn glyph(&self, c: char) -> Option<GlyphId> {
        if let Some(&(g, _)) = self
            .table
            .get(usize::try_from(u32::from(c)).unwrap_or(usize::MAX))
        {
            return (g != 0).then_some(GlyphId(g));
        }
        self.face.glyph_index(c).filter(|g| g.0 != 0)
    }

    /// The text as the font can show it: see the module documentation. A tab or a
    /// line break (`\n`, `\r`) is a space: a one-line value shows its line breaks as
    /// spaces, and a paragraph is split at its line breaks before it is cleaned.
    pub(crate) fn clean(&self, text: &str) -> String {
        text.chars()
            .map(|c| match c {
                '\t' | '\r' | '\n' => ' ',
                c if is_refused(c) => REPLACEMENT,
                c if self.glyph(c).is_none() => REPLACEMENT,
                c => c,
            })
            .collect()
    }

    /// The advance of a character already cleaned, in font units.
    pub(crate) fn advance(&self, c: char) -> u32 {
        if let Some(&(_, a)) = self
            .table
            .get(usize::try_from(u32::from(c)).unwrap_or(usize::MAX))
        {
            return u32::from(a);
        }
        self.glyph(c)
            .and_then(|g| self.face.glyph_hor_advance(g))
            .map_or(0, u32::from)
    }

    /// The width of a cleaned text, in font units (kerning aside: the layout keeps a
    /// margin for it).
    pub(crate) fn width(&self, text: &str) -> u64 {
        text.chars().map(|c| u64::from(self.advance(c))).sum()
    }
}

/// Whether a character is never drawn as itself: controls (Cc), format characters
/// (Cf), line and paragraph separators, private use and non-characters.
pub(crate) fn is_refused(c: char) -> bool {
    let u = u32::from(c);
    c.is_control()
        || crate::unicode::is_format(c)
        || matches!(u, 0x2028 | 0x2029)
        || matches!(u, 0xE000..=0xF8FF | 0xF_0000..=0x10_FFFF)
        || matches!(u, 0xFDD0..=0xFDEF)
        || (u & 0xFFFE) == 0xFFFE
}

#[cfg(test)]
mod tests;
