//! The document's PDF (docs/files.md §2): a pure function of the document, its parties,
//! the company's language and the default branding. Same input, same bytes: no clock
//! (the PDF's dates are the document's issue date) and no random identifier.
//!
//! The file is A4 portrait, PDF/A-3b, with DejaVu Sans embedded and subset (the font
//! files and their licence are in `assets/fonts/`), so a reader's copy-paste and
//! `pdftotext` give the amounts as the document JSON writes them (a decimal comma in
//! `nl`, `fr` and `de`, no thousands separator). Every page is numbered `n / N`; the
//! lines' header is repeated on each page; long text wraps; any Unicode text is shown,
//! a character the font lacks (and any control, format or non-character) as U+FFFD.
//!
//! Rendering goes in two steps: [`Sheet::of_document`] writes the content as plain
//! text (a document received as UBL will get a sheet of its own), then [`render`] lays
//! it out and writes the file.
//!
//! Limit: a document in another currency than the euro does not show its VAT in EUR
//! (the interface carries no exchange rate).

mod draw;
pub mod labels;
mod layout;
mod received;
pub mod sheet;
mod text;

#[cfg(test)]
mod tests;

use crate::context::{Company, DeliveryLocation, Relation};
use crate::document::Document;
pub use received::render_received;
pub use sheet::{Parties, Sheet};
use std::sync::Arc;

/// The default branding's settings that shape the PDF's page (docs/files.md §2). No
/// default branding: a plain page (`Branding::default()`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Branding {
    /// The accent colour, red, green and blue.
    pub color: Option<[u8; 3]>,
    /// The logo, a PNG or JPEG.
    pub logo: Option<Logo>,
    /// A text printed at the bottom of every page (at most 500 characters).
    pub footer: Option<String>,
}

/// The format of a logo.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageFormat {
    /// PNG.
    Png,
    /// JPEG.
    Jpeg,
}

/// A branding's logo, checked (docs/files.md §2: PNG or JPEG, at most 1 MiB and 4096 ×
/// 4096 pixels, not CMYK).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Logo {
    /// The image bytes, as given.
    pub bytes: Arc<[u8]>,
    /// PNG or JPEG.
    pub format: ImageFormat,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

/// The largest logo, in bytes (1 MiB).
pub const LOGO_MAX_BYTES: usize = 1_048_576;
/// The largest logo side, in pixels.
pub const LOGO_MAX_PIXELS: u32 = 4096;

impl Logo {
    /// Checks a logo's bytes; the reason it is refused otherwise: not PNG or JPEG (by
    /// signature), over 1 MiB, over 4096 pixels wide or high, a CMYK JPEG, or bytes
    /// the PDF library cannot decode into a PDF/A-3b page.
    pub fn read(bytes: &[u8]) -> Result<Logo, String> {
        if bytes.len() > LOGO_MAX_BYTES {
            return Err("the logo is larger than 1 MiB".into());
        }
        let format = if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            ImageFormat::Png
        } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            if jpeg_is_cmyk(bytes) {
                return Err("the logo is a CMYK JPEG".into());
            }
            ImageFormat::Jpeg
        } else {
            return Err("the logo is neither PNG nor JPEG".into());
        };
        let mut logo = Logo {
            bytes: Arc::from(bytes),
            format,
            width: 0,
            height: 0,
        };
        let image = draw::image(&logo).map_err(|e| format!("the logo cannot be read: {e}"))?;
        (logo.width, logo.height) = image.size();
        if logo.width > LOGO_MAX_PIXELS || logo.height > LOGO_MAX_PIXELS {
            return Err("the logo is larger than 4096 × 4096 pixels".into());
        }
        if logo.width == 0 || logo.height == 0 {
            return Err("the logo has no pixels".into());
        }
        draw::logo_renders(&logo)?;
        Ok(logo)
    }
}

/// Whether a JPEG's frame has four components (CMYK or YCCK), or its Adobe marker
/// (APP14) states the YCCK transform.
fn jpeg_is_cmyk(bytes: &[u8]) -> bool {
    let mut at = 2;
    while let (Some(&0xFF), Some(&marker)) = (bytes.get(at), bytes.get(at + 1)) {
        if marker == 0xFF {
            at += 1;
            continue;
        }
        let len = match (bytes.get(at + 2), bytes.get(at + 3)) {
            (Some(&h), Some(&l)) => usize::from(h) << 8 | usize::from(l),
            _ => return false,
        };
        let body = bytes.get(at + 4..at + 2 + len).unwrap_or_default();
        let is_frame = matches!(marker, 0xC0..=0xCF) && !matches!(marker, 0xC4 | 0xC8 | 0xCC);
        if is_frame {
            return body.get(5) == Some(&4);
        }
        if marker == 0xEE && body.starts_with(b"Adobe") && body.get(11) == Some(&2) {
            return true;
        }
        if marker == 0xDA || len < 2 {
            return false;
        }
        at += 2 + len;
    }
    false
}

/// Why a PDF could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the pdf could not be rendered: {0}")]
pub struct PdfError(pub String);

/// The PDF of an issued document (or proforma).
pub fn render_document(
    doc: &Document,
    company: &Company,
    relation: &Relation,
    location: Option<&DeliveryLocation>,
    branding: Option<&Branding>,
) -> Result<Vec<u8>, PdfError> {
    let parties = Parties {
        company,
        relation,
        location,
        footer: branding.and_then(|b| b.footer.as_deref()),
    };
    render(&Sheet::of_document(doc, parties), branding)
}

/// The PDF of a sheet: its layout on A4 pages, the branding's accent colour and logo.
pub fn render(sheet: &Sheet, branding: Option<&Branding>) -> Result<Vec<u8>, PdfError> {
    let logo = branding.and_then(|b| b.logo.as_ref());
    let look = layout::Look {
        color: branding.and_then(|b| b.color),
        logo: logo.map(|l| (l.width, l.height)),
    };
    let pages = layout::lay_out(sheet, look)?;
    draw::write(&pages, &sheet.meta, logo)
}
