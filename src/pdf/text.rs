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

/// A parsed face: its character map and advances.
pub(crate) struct Metrics {
    face: Face<'static>,
}

impl Metrics {
    /// Parses one of the embedded fonts.
    pub(crate) fn parse(data: &'static [u8]) -> Result<Metrics, PdfError> {
        Face::parse(data, 0)
            .map(|face| Metrics { face })
            .map_err(|e| PdfError(format!("the embedded font cannot be read: {e}")))
    }

    /// The font's units per em.
    pub(crate) fn units_per_em(&self) -> u16 {
        self.face.units_per_em()
    }

    /// The glyph of a character, if the font has one (not `.notdef`).
    fn glyph(&self, c: char) -> Option<GlyphId> {
        self.face.glyph_index(c).filter(|g| g.0 != 0)
    }

    /// The text as the font can show it: see the module documentation. Line breaks
    /// (`\n`, `\r`) are not expected here: callers split paragraphs first.
    pub(crate) fn clean(&self, text: &str) -> String {
        text.chars()
            .map(|c| match c {
                '\t' => ' ',
                c if is_refused(c) => REPLACEMENT,
                c if self.glyph(c).is_none() => REPLACEMENT,
                c => c,
            })
            .collect()
    }

    /// The advance of a character already cleaned, in font units.
    pub(crate) fn advance(&self, c: char) -> u32 {
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
        || is_format(u)
        || matches!(u, 0x2028 | 0x2029)
        || matches!(u, 0xE000..=0xF8FF | 0xF_0000..=0x10_FFFF)
        || matches!(u, 0xFDD0..=0xFDEF)
        || (u & 0xFFFE) == 0xFFFE
}

/// Whether a code point is a format character (general category Cf, Unicode 15).
fn is_format(u: u32) -> bool {
    matches!(
        u,
        0x00AD
            | 0x0600..=0x0605
            | 0x061C
            | 0x06DD
            | 0x070F
            | 0x0890..=0x0891
            | 0x08E2
            | 0x180E
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x2064
            | 0x2066..=0x206F
            | 0xFEFF
            | 0xFFF9..=0xFFFB
            | 0x110BD
            | 0x110CD
            | 0x13430..=0x1343F
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0001
            | 0xE0020..=0xE007F
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_become_replacement_characters() {
        // files.md §2: controls, format and non-characters as U+FFFD, TAB as a space
        let m = Metrics::parse(REGULAR).unwrap();
        assert_eq!(
            m.clean("a\u{7}b\u{200B}c\td\u{FFFF}e\u{FDD0}f\u{E000}g"),
            "a\u{FFFD}b\u{FFFD}c d\u{FFFD}e\u{FFFD}f\u{FFFD}g"
        );
        assert_eq!(m.clean("\u{7F}\u{9F}\u{AD}\u{FEFF}"), "\u{FFFD}".repeat(4));
    }

    #[test]
    fn characters_the_font_lacks_become_replacement_characters() {
        // files.md §2: a character the font lacks is U+FFFD, which the font has
        for data in [REGULAR, BOLD] {
            let m = Metrics::parse(data).unwrap();
            assert!(m.glyph(REPLACEMENT).is_some());
            assert_eq!(m.clean("日本한"), "\u{FFFD}".repeat(3));
            assert_eq!(m.clean("Éléonore Straße ĳ €"), "Éléonore Straße ĳ €");
            assert!(m.width("abc") > 0);
        }
    }
}
