//! The files a document carries (docs/files.md §1): an attachment as the document keeps
//! it (filename, media type, size, SHA-256), and the six media types a file may have.
//!
//! The bytes are not part of the document: they are the caller's to keep (a server's
//! blob store, the simulator's world) and are handed back when the UBL is written,
//! checked against the size and SHA-256 kept here.

use crate::wire::closed_set;

closed_set! {
    /// The media types an attachment may have: the list the EN 16931 rule BR-CL-24 allows,
    /// in the order docs/files.md §1 lists them (the order of the `allowed` list of
    /// `attachment_type_not_allowed`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum MediaType("media type") {
        /// `application/pdf`
        Pdf = "application/pdf",
        /// `image/png`
        Png = "image/png",
        /// `image/jpeg`
        Jpeg = "image/jpeg",
        /// `text/csv`
        Csv = "text/csv",
        /// `application/vnd.openxmlformats-officedocument.spreadsheetml.sheet`
        Xlsx = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        /// `application/vnd.oasis.opendocument.spreadsheet`
        Ods = "application/vnd.oasis.opendocument.spreadsheet",
    }
}

impl MediaType {
    /// The media type of a Content-Type value: parameters dropped, white space
    /// trimmed, compared without case. `None` for any other type.
    pub fn from_content_type(content_type: &str) -> Option<MediaType> {
        let essence = content_type.split(';').next().unwrap_or("").trim();
        Self::ALL
            .into_iter()
            .find(|m| m.as_str().eq_ignore_ascii_case(essence))
    }
}

/// One file attached to a document, as the document keeps it (its serde form is the
/// stored form's; `crate::stored` checks its size and SHA-256 when it is read).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attachment {
    /// The filename, trimmed of Unicode white space.
    pub filename: String,
    /// The media type.
    pub mimetype: MediaType,
    /// The size in bytes (at least 1).
    pub size: u64,
    /// The SHA-256 of the bytes, 64 lower-case hex digits.
    pub sha256: String,
}

/// The filename of a document's own PDF: `NUMBER.pdf`, or `ID.pdf` for a document
/// without a number (docs/files.md §2, §3). Sanitised: a number prefix may hold `/`, so
/// `/`, `\`, `:`, `*`, `?`, `"`, `<`, `>`, `|` and every control or format character
/// become `_`.
///
/// ```
/// use invoicing_core::attachment::own_pdf_filename;
/// assert_eq!(own_pdf_filename("INV/2026/0001", "doc-1"), "INV_2026_0001.pdf");
/// assert_eq!(own_pdf_filename("", "doc-1"), "doc-1.pdf");
/// ```
pub fn own_pdf_filename(number: &str, id: &str) -> String {
    let base = if number.trim().is_empty() { id } else { number };
    let mut name: String = base
        .trim()
        .chars()
        .map(|c| {
            if matches!(c, '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|')
                || c.is_control()
                || crate::unicode::is_format(c)
            {
                '_'
            } else {
                c
            }
        })
        .collect();
    name.push_str(".pdf");
    name
}

/// Base64 (RFC 4648, standard alphabet; padding may be left out) with ASCII white
/// space skipped (the line breaks of a MIME body), as a scenario's `base64` values
/// and a UBL's embedded objects are read; `None` when it does not decode.
pub fn decode_base64(text: &str) -> Option<Vec<u8>> {
    use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
    use base64::Engine as _;
    let engine = GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
    );
    if text.bytes().any(|b| b.is_ascii_whitespace()) {
        let compact: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
        engine.decode(compact).ok()
    } else {
        engine.decode(text).ok()
    }
}

/// Base64 (RFC 4648, standard alphabet, padded, no line breaks) of bytes.
pub fn encode_base64(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// The SHA-256 of bytes as 64 lower-case hex digits.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    use std::fmt::Write as _;
    let digest = sha2::Sha256::digest(bytes);
    let mut hex = String::with_capacity(64);
    for b in digest {
        let _ = write!(hex, "{b:02x}");
    }
    hex
}

#[cfg(test)]
mod tests;
