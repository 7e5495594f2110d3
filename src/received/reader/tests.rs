use super::super::{read, Check, ReceivedDocument};

/// A UBL Invoice with `body` below its root.
fn invoice(body: &str) -> ReceivedDocument {
    read(
        format!(
            "<Invoice xmlns=\"urn:oasis:names:specification:ubl:schema:xsd:Invoice-2\" \
             xmlns:cac=\"urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2\" \
             xmlns:cbc=\"urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2\">\
             {body}</Invoice>"
        )
        .as_bytes(),
    )
}

/// The reader's `unreadable` notes, in order (not the engine's asserts it could not
/// evaluate).
fn notes(doc: &ReceivedDocument) -> Vec<&str> {
    doc.checks
        .iter()
        .filter(|c| c.rule == "unreadable" && !c.msg.contains(" cannot be tested at "))
        .map(|c: &Check| c.msg.as_str())
        .collect()
}

#[test]
fn where_a_text_repeats_the_first_that_is_not_blank_is_read() {
    let doc = invoice(
        "<cbc:ID> </cbc:ID><cbc:ID> INV-2 </cbc:ID><cbc:ID>INV-3</cbc:ID>\
         <cbc:DocumentCurrencyCode> </cbc:DocumentCurrencyCode>\
         <cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>\
         <cac:OrderReference><cbc:ID/></cac:OrderReference>\
         <cac:OrderReference><cbc:ID>PO-9</cbc:ID></cac:OrderReference>",
    );
    assert_eq!(doc.document_number.as_deref(), Some("INV-2"));
    assert_eq!(doc.order_number.as_deref(), Some("PO-9"));
    // the currency is the first cbc:DocumentCurrencyCode, blank or not
    assert_eq!(doc.currency, None);
}

#[test]
fn where_a_number_or_date_repeats_the_first_element_is_read() {
    let doc = invoice(
        "<cbc:IssueDate>2026-13-01</cbc:IssueDate><cbc:IssueDate>2026-01-02</cbc:IssueDate>\
         <cac:LegalMonetaryTotal><cbc:PayableAmount>1O</cbc:PayableAmount>\
         <cbc:PayableAmount>10</cbc:PayableAmount></cac:LegalMonetaryTotal>\
         <cac:LegalMonetaryTotal><cbc:TaxInclusiveAmount>5</cbc:TaxInclusiveAmount>\
         </cac:LegalMonetaryTotal>",
    );
    assert_eq!(doc.issue_date, None);
    assert_eq!(doc.remaining_amount, None);
    // only the first cac:LegalMonetaryTotal is read
    assert_eq!(doc.total_amount, None);
    assert_eq!(
        notes(&doc),
        [
            "BT-2 Invoice issue date is not a date (YYYY-MM-DD): \"2026-13-01\"",
            "BT-115 Amount due for payment is not a decimal number the crate can read: \"1O\"",
        ]
    );
}

#[test]
fn unreadable_notes_follow_document_order_then_what_is_computed() {
    let big = "79228162514264337593543950335";
    let doc = invoice(&format!(
        "<cbc:DueDate>soon</cbc:DueDate>\
         <cac:PaymentMeans><cbc:PaymentDueDate>later</cbc:PaymentDueDate></cac:PaymentMeans>\
         <cac:LegalMonetaryTotal><cbc:TaxExclusiveAmount>n/a</cbc:TaxExclusiveAmount>\
         <cbc:TaxInclusiveAmount>{big}</cbc:TaxInclusiveAmount>\
         <cbc:PayableRoundingAmount>1</cbc:PayableRoundingAmount></cac:LegalMonetaryTotal>\
         <cac:InvoiceLine><cbc:InvoicedQuantity unitCode=\"C62\">{big}</cbc:InvoicedQuantity>\
         <cac:Price><cbc:PriceAmount>2</cbc:PriceAmount></cac:Price></cac:InvoiceLine>\
         <cac:InvoiceLine><cbc:InvoicedQuantity>x</cbc:InvoicedQuantity></cac:InvoiceLine>"
    ));
    assert_eq!(
        notes(&doc),
        [
            "BT-9 Payment due date is not a date (YYYY-MM-DD): \"soon\"",
            "BT-9 Payment due date is not a date (YYYY-MM-DD): \"later\"",
            "BT-109 Invoice total amount without VAT is not a decimal number the crate can read: \"n/a\"",
            "BT-129 Invoiced quantity (line 2) is not a decimal number the crate can read: \"x\"",
            "BT-112 + BT-114 (total_amount) is too large to add up",
            "the subtotal of line 1 (quantity × unit price) is too large to compute",
        ]
    );
    assert_eq!(doc.lines[0].unit_code.as_deref(), Some("C62"));
}

#[test]
fn an_identifiers_scheme_is_that_of_the_element_whose_text_is_read() {
    let doc = invoice(
        "<cac:AccountingSupplierParty><cac:Party>\
         <cbc:EndpointID schemeID=\"0002\"> </cbc:EndpointID>\
         <cbc:EndpointID schemeID=\"0208\">0123456749</cbc:EndpointID>\
         <cac:PartyLegalEntity><cbc:CompanyID schemeID=\"0208\"/></cac:PartyLegalEntity>\
         </cac:Party></cac:AccountingSupplierParty>",
    );
    let s = &doc.supplier;
    assert_eq!(s.endpoint_id.as_deref(), Some("0123456749"));
    assert_eq!(s.endpoint_scheme.as_deref(), Some("0208"));
    // an identifier that is blank is absent, and so is its scheme
    assert_eq!(
        (s.legal_id.as_deref(), s.legal_id_scheme.as_deref()),
        (None, None)
    );
}

#[test]
fn the_vat_number_is_that_of_the_first_vat_tax_scheme_that_states_one() {
    let doc = invoice(
        "<cac:AccountingCustomerParty><cac:Party>\
         <cac:PartyTaxScheme><cbc:CompanyID>BE0000000097</cbc:CompanyID>\
         <cac:TaxScheme><cbc:ID>FISCAL</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>\
         <cac:PartyTaxScheme><cbc:CompanyID/>\
         <cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>\
         <cac:PartyTaxScheme><cbc:CompanyID>BE0123456749</cbc:CompanyID>\
         <cac:TaxScheme><cbc:ID> vat </cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>\
         </cac:Party></cac:AccountingCustomerParty>",
    );
    assert_eq!(doc.customer.vat_number.as_deref(), Some("BE0123456749"));
}

#[test]
fn values_are_found_by_namespace_and_local_name_whatever_the_prefix() {
    let doc = read(
        b"<i:Invoice xmlns:i=\"urn:oasis:names:specification:ubl:schema:xsd:Invoice-2\" \
          xmlns:b=\"urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2\" \
          xmlns:x=\"urn:example:other\">\
          <x:ID>not this</x:ID><b:ID>INV-1</b:ID></i:Invoice>",
    );
    assert_eq!(doc.document_number.as_deref(), Some("INV-1"));
}
