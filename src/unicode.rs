//! Unicode classes the crate refuses or replaces in text it keeps or prints: one table
//! for the upload rules (a filename), the PDF (a character it cannot show) and the
//! filename of a document's own PDF.

/// Unicode general category Cf (format), Unicode 15.1: soft hyphen, zero-width and
/// joiner characters, every bidi control (U+061C, U+200E, U+200F, U+202A to U+202E,
/// U+2066 to U+2069), the byte order mark, tags.
const FORMAT: [(u32, u32); 21] = [
    (0x00AD, 0x00AD),
    (0x0600, 0x0605),
    (0x061C, 0x061C),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x180E, 0x180E),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x2064),
    (0x2066, 0x206F),
    (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
];

/// Whether `c` is of general category Cf (format), bidi controls included.
///
/// ```
/// use invoicing_core::unicode::is_format;
/// assert!(is_format('\u{202E}') && is_format('\u{FEFF}') && is_format('\u{AD}'));
/// assert!(!is_format('a') && !is_format('\u{7}'));
/// ```
pub fn is_format(c: char) -> bool {
    let c = u32::from(c);
    FORMAT.iter().any(|&(lo, hi)| (lo..=hi).contains(&c))
}

#[cfg(test)]
mod tests;
