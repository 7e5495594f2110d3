//! The document's PDF (files.md §2). SKELETON: filled in by the PDF work.

use crate::context::{Branding, Company, DeliveryLocation, Relation};
use crate::document::Document;
use std::sync::Arc;

/// The format of a logo.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageFormat {
    /// PNG.
    Png,
    /// JPEG.
    Jpeg,
}

/// A branding's logo, checked (files.md §2: PNG or JPEG, at most 1 MiB and 4096 ×
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

impl Logo {
    /// Checks a logo's bytes; the reason it is refused otherwise.
    pub fn read(bytes: &[u8]) -> Result<Logo, String> {
        let _ = bytes;
        Err("logos are not read yet".into())
    }
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
    let _ = (doc, company, relation, location, branding);
    Err(PdfError("not rendered yet".into()))
}
