use super::first_pdf;
use crate::attachment::encode_base64;

fn ubl(refs: &str) -> String {
    format!(
            "<Invoice xmlns=\"urn:oasis:names:specification:ubl:schema:xsd:Invoice-2\" \
             xmlns:cac=\"urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2\" \
             xmlns:cbc=\"urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2\">\
             <cbc:ID>1</cbc:ID>{refs}<cac:AccountingSupplierParty/></Invoice>"
        )
}

fn reference(mime: &str, content: &str) -> String {
    format!(
            "<cac:AdditionalDocumentReference><cbc:ID>x</cbc:ID><cac:Attachment>\
             <cbc:EmbeddedDocumentBinaryObject mimeCode=\"{mime}\" filename=\"x\">{content}\
             </cbc:EmbeddedDocumentBinaryObject></cac:Attachment></cac:AdditionalDocumentReference>"
        )
}

#[test]
fn the_first_embedded_pdf_is_the_documents_pdf() {
    // docs/files.md §2: the first EmbeddedDocumentBinaryObject with mimeCode
    // application/pdf (without case), base64 with white space skipped, %PDF-
    let pdf = encode_base64(b"%PDF-1.7 first");
    let wrapped = format!("{}\n  {}", &pdf[..8], &pdf[8..]);
    let text = ubl(&format!(
        "{}{}{}",
        reference("text/csv", &encode_base64(b"%PDF-no")),
        reference("Application/PDF", &wrapped),
        reference("application/pdf", &encode_base64(b"%PDF-1.7 second")),
    ));
    assert_eq!(first_pdf(&text).as_deref(), Some(&b"%PDF-1.7 first"[..]));
}

#[test]
fn an_embedded_object_that_is_not_a_pdf_does_not_count() {
    // docs/files.md §2: it counts when its base64 decodes and it starts with %PDF-
    let text = ubl(&format!(
        "{}{}",
        reference("application/pdf", "*** not base64 ***"),
        reference("application/pdf", &encode_base64(b"GIF89a")),
    ));
    assert_eq!(first_pdf(&text), None);
    let later = ubl(&format!(
        "{}{}",
        reference("application/pdf", "***"),
        reference("application/pdf", &encode_base64(b"%PDF-ok")),
    ));
    assert_eq!(first_pdf(&later).as_deref(), Some(&b"%PDF-ok"[..]));
}

#[test]
fn an_object_outside_the_reference_path_does_not_count() {
    let nested = format!(
        "<cac:InvoiceLine>{}</cac:InvoiceLine>",
        reference("application/pdf", &encode_base64(b"%PDF-line"))
    );
    assert_eq!(first_pdf(&ubl(&nested)), None);
    assert_eq!(first_pdf("not xml <"), None);
    assert_eq!(first_pdf(""), None);
}
