//! The first PDF a received UBL embeds (docs/files.md §2): the first
//! `cac:AdditionalDocumentReference/cac:Attachment/cbc:EmbeddedDocumentBinaryObject`
//! of the root whose `mimeCode` is `application/pdf` (without case), whose base64
//! decodes (white space skipped) and whose bytes start with `%PDF-`.
//!
//! Decision where the specification is silent: an object with that mimeCode that
//! does not decode, or is not a PDF, is skipped and the next one counts; a document
//! none of whose objects counts is rendered from what it states.

use super::reader::{find, Step};
use crate::en16931::{NS_CAC as CAC, NS_CBC as CBC};
use crate::ubl::dom::Dom;

/// The path of an embedded object below the root: namespace, local name.
const PATH: [Step; 3] = [
    (CAC, "AdditionalDocumentReference"),
    (CAC, "Attachment"),
    (CBC, "EmbeddedDocumentBinaryObject"),
];

/// The bytes of the first PDF the UBL text embeds, if one counts. Never panics; XML
/// that cannot be read (as [`Dom::read`] reads it) has none.
pub fn first_pdf(text: &str) -> Option<Vec<u8>> {
    let dom = Dom::read(text.as_bytes()).ok()?;
    find(&dom, dom.root(), &PATH, &mut |object| {
        let pdf_object = dom
            .attribute(object, "mimeCode")
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/pdf"));
        if !pdf_object {
            return None;
        }
        crate::attachment::decode_base64(&dom.string_value(object))
            .filter(|bytes| bytes.starts_with(b"%PDF-"))
    })
}

#[cfg(test)]
mod tests;
