//! The first PDF a received UBL embeds (docs/files.md §2): the first
//! `cac:AdditionalDocumentReference/cac:Attachment/cbc:EmbeddedDocumentBinaryObject`
//! of the root whose `mimeCode` is `application/pdf` (without case), whose base64
//! decodes (white space skipped) and whose bytes start with `%PDF-`.
//!
//! Decision where the specification is silent: an object with that mimeCode that
//! does not decode, or is not a PDF, is skipped and the next one counts; a document
//! none of whose objects counts is rendered from what it states.

use quick_xml::events::Event;
use quick_xml::name::ResolveResult;
use quick_xml::NsReader;

use crate::en16931::{NS_CAC as CAC, NS_CBC as CBC};

/// The path of an embedded object below the root: namespace, local name.
const PATH: [(&str, &str); 3] = [
    (CAC, "AdditionalDocumentReference"),
    (CAC, "Attachment"),
    (CBC, "EmbeddedDocumentBinaryObject"),
];

/// The bytes of the first PDF the UBL text embeds, if one counts. Never panics; XML
/// that cannot be read has none.
pub fn first_pdf(text: &str) -> Option<Vec<u8>> {
    let mut reader = NsReader::from_str(text);
    // Depth below the root, and how many levels of PATH the open elements match.
    let mut depth = 0usize;
    let mut matched = 0usize;
    let mut pdf_object = false;
    let mut content = String::new();
    loop {
        let (ns, event) = reader.read_resolved_event().ok()?;
        match event {
            Event::Start(e) => {
                depth += 1;
                let on_path = depth >= 2
                    && matched == depth - 2
                    && PATH.get(matched).is_some_and(|(want_ns, want)| {
                        matches!(ns, ResolveResult::Bound(n) if n.into_inner() == *want_ns)
                            && e.local_name().into_inner() == *want
                    });
                if on_path {
                    matched += 1;
                    if matched == PATH.len() {
                        pdf_object = e.attributes().flatten().any(|a| {
                            a.key.local_name().into_inner() == "mimeCode"
                                && a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                                    .is_ok_and(|v| v.trim().eq_ignore_ascii_case("application/pdf"))
                        });
                        content.clear();
                    }
                }
            }
            Event::Text(t) if pdf_object => content.push_str(&t.xml10_content()),
            Event::CData(t) if pdf_object => content.push_str(&t.xml10_content()),
            Event::End(_) => {
                if pdf_object && matched == PATH.len() && depth == PATH.len() + 1 {
                    pdf_object = false;
                    if let Some(bytes) = crate::attachment::decode_base64(&content) {
                        if bytes.starts_with(b"%PDF-") {
                            return Some(bytes);
                        }
                    }
                }
                if depth >= 2 && matched == depth - 1 {
                    matched -= 1;
                }
                depth = depth.saturating_sub(1);
            }
            Event::Eof => return None,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;
