//! Received documents (docs/peppol.md §4, §6 "Reader"): the official Peppol examples read
//! to exactly what they state, tampered copies give exactly the sum rules the
//! official validator reports for them, and anything else is `unknown` + `not_ubl`.

use invoicing_core::context::RelationKind;
use invoicing_core::en16931::message;
use invoicing_core::received::{read, ReceivedDocument, ReceivedType, ResponseInfo};
use proptest::prelude::*;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/peppol");

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(FIXTURES).join(name)).expect("fixture")
}

fn json(doc: &ReceivedDocument) -> Value {
    doc.to_json(&ResponseInfo::new("rcv-1"))
}

/// Each `(JSON pointer, expected JSON text)` holds in the response.
fn expect(j: &Value, fields: &[(&str, &str)]) {
    for (pointer, text) in fields {
        let got = j.pointer(pointer).map(Value::to_string);
        assert_eq!(got.as_deref(), Some(*text), "{pointer}");
    }
}

/// The lines as `quantity unit_code unit_price vat_code vat_rate subtotal total name`.
fn lines(j: &Value) -> Vec<String> {
    j["lines"]
        .as_array()
        .expect("lines")
        .iter()
        .map(|l| {
            [
                "quantity",
                "unit_code",
                "unit_price",
                "vat_code",
                "vat_rate",
                "subtotal",
                "total",
                "item_name",
            ]
            .iter()
            .map(|k| l[*k].to_string())
            .collect::<Vec<_>>()
            .join(" ")
        })
        .collect()
}

/// The VAT breakdown as `vat_code vat_rate category taxable tax reason code`.
fn groups(j: &Value) -> Vec<String> {
    j["vat_breakdown"]
        .as_array()
        .expect("vat_breakdown")
        .iter()
        .map(|g| {
            [
                "vat_code",
                "vat_rate",
                "category",
                "taxable_amount",
                "tax_amount",
                "exemption_reason",
                "exemption_reason_code",
            ]
            .iter()
            .map(|k| g[*k].to_string())
            .collect::<Vec<_>>()
            .join(" ")
        })
        .collect()
}

fn party(p: &invoicing_core::received::ReceivedParty) -> String {
    format!(
        "{:?} {:?}:{:?} vat {:?}",
        p.name, p.endpoint_scheme, p.endpoint_id, p.vat_number
    )
}

/// The fields every example states the same way.
fn read_clean(name: &str) -> (ReceivedDocument, Value) {
    let doc = read(&fixture(name));
    assert!(doc.checks.is_empty(), "{name}: {:?}", doc.checks);
    // docs/files.md §2: a UBL has a PDF from the start (embedded or rendered)
    assert!(doc.xml_available && doc.pdf_available);
    assert_eq!(
        doc.xml.as_deref().map(str::as_bytes),
        Some(&fixture(name)[..])
    );
    let j = json(&doc);
    expect(
        &j,
        &[
            ("/origin", "\"peppol\""),
            ("/checks", "[]"),
            ("/accounting_status", "\"waiting\""),
            ("/payment_terms", "null"),
            ("/legal_notice", "null"),
            ("/peppol_status", "null"),
            ("/mail_status", "null"),
            ("/attachments", "[]"),
            ("/xml_available", "true"),
            ("/pdf_available", "true"),
        ],
    );
    (doc, j)
}

#[test]
fn base_example() {
    let (doc, j) = read_clean("base-example.xml");
    expect(
        &j,
        &[
            ("/type", "\"purchase_invoice\""),
            ("/type_code", "\"380\""),
            ("/document_number", "\"Snippet1\""),
            ("/issue_date", "\"2017-11-13\""),
            ("/due_date", "\"2017-12-01\""),
            ("/delivery_date", "\"2017-11-01\""),
            ("/tax_point_date", "null"),
            ("/period_start", "null"),
            ("/buyer_reference", "\"0150abc\""),
            ("/order_number", "null"),
            ("/payment_remittance", "\"Snippet1\""),
            ("/is_remittance_structured", "false"),
            ("/currency", "\"EUR\""),
            ("/tax_exclusive_amount", "1325.00"),
            ("/tax_amount", "331.25"),
            ("/total_amount", "1656.25"),
            ("/paid_amount", "0.00"),
            ("/remaining_amount", "1656.25"),
            ("/payment_status", "\"unpaid\""),
            ("/allowance_charges/0/type", "\"charge\""),
            ("/allowance_charges/0/amount", "25.00"),
            ("/allowance_charges/0/reason", "\"Insurance\""),
            ("/allowance_charges/0/vat_code", "\"standard\""),
        ],
    );
    assert_eq!(
        lines(&j),
        [
            "7 \"DAY\" 400 \"standard\" 25.0 2800.00 2800.00 \"item name\"",
            "-3 \"DAY\" 500 \"standard\" 25.0 -1500.00 -1500.00 \"item name 2\"",
        ]
    );
    assert_eq!(
        groups(&j),
        ["\"standard\" 25.0 \"S\" 1325.00 331.25 null null"]
    );
    assert_eq!(
        party(&doc.supplier),
        "Some(\"SupplierTradingName Ltd.\") Some(\"0088\"):Some(\"9482348239847239874\") vat Some(\"GB1232434\")"
    );
    assert_eq!(
        party(&doc.customer),
        "Some(\"BuyerTradingName AS\") Some(\"0002\"):Some(\"FR23342\") vat Some(\"SE4598375937\")"
    );
    expect(
        &j,
        &[
            ("/lines/0/item_identification", "\"21382183120983\""),
            ("/lines/0/item_description", "\"Description of item\""),
            ("/lines/0/tax_amount", "null"),
            ("/lines/0/sequence", "1"),
            ("/lines/1/sequence", "2"),
        ],
    );
}

#[test]
fn base_creditnote_correction() {
    let (doc, j) = read_clean("base-creditnote-correction.xml");
    assert_eq!(doc.doc_type, ReceivedType::PurchaseCreditNote);
    expect(
        &j,
        &[
            ("/type", "\"purchase_credit_note\""),
            ("/type_code", "\"381\""),
            ("/document_number", "\"Snippet1\""),
            ("/issue_date", "\"2017-11-13\""),
            ("/due_date", "null"),
            ("/delivery_date", "\"2017-11-01\""),
            ("/currency", "\"EUR\""),
            ("/tax_exclusive_amount", "1325.00"),
            ("/tax_amount", "331.25"),
            ("/total_amount", "1656.25"),
            ("/paid_amount", "0.00"),
            ("/remaining_amount", "1656.25"),
            ("/payment_status", "\"unpaid\""),
        ],
    );
    assert_eq!(
        lines(&j),
        [
            "7 \"DAY\" 400 \"standard\" 25.0 2800.00 2800.00 \"item name\"",
            "-3 \"DAY\" 500 \"standard\" 25.0 -1500.00 -1500.00 \"item name 2\"",
        ]
    );
    assert_eq!(
        groups(&j),
        ["\"standard\" 25.0 \"S\" 1325.00 331.25 null null"]
    );
    assert_eq!(
        doc.supplier.endpoint_id.as_deref(),
        Some("9482348239847239874")
    );
    assert_eq!(doc.supplier.vat_number.as_deref(), Some("GB1232434"));
}

#[test]
fn allowance_example() {
    let (doc, j) = read_clean("Allowance-example.xml");
    expect(
        &j,
        &[
            ("/type", "\"purchase_invoice\""),
            ("/issue_date", "\"2017-11-13\""),
            ("/due_date", "\"2017-12-01\""),
            ("/tax_point_date", "\"2017-12-01\""),
            ("/period_start", "\"2017-12-01\""),
            ("/period_end", "\"2017-12-31\""),
            ("/delivery_date", "\"2017-11-01\""),
            ("/currency", "\"EUR\""),
            ("/tax_exclusive_amount", "5900.00"),
            // the TaxTotal in EUR, not the one in SEK
            ("/tax_amount", "1225.00"),
            ("/total_amount", "7125.00"),
            ("/paid_amount", "1000.00"),
            ("/remaining_amount", "6125.00"),
            ("/payment_status", "\"partial\""),
            ("/allowance_charges/0/code", "\"CG\""),
            ("/allowance_charges/0/type", "\"charge\""),
            ("/allowance_charges/0/amount", "200.00"),
            ("/allowance_charges/0/reason", "\"Cleaning\""),
            ("/allowance_charges/0/rate", "20"),
            ("/allowance_charges/0/vat_code", "\"standard\""),
            ("/allowance_charges/1/code", "\"95\""),
            ("/allowance_charges/1/type", "\"allowance\""),
            ("/allowance_charges/1/amount", "200.00"),
            ("/allowance_charges/1/rate", "null"),
            ("/lines/0/allowance_charges/0/type", "\"charge\""),
            ("/lines/0/allowance_charges/0/amount", "1.00"),
            ("/lines/0/allowance_charges/0/rate", "1"),
            ("/lines/0/allowance_charges/1/type", "\"allowance\""),
            ("/lines/0/allowance_charges/1/amount", "101.00"),
            ("/lines/0/product_code", "\"97iugug876\""),
            (
                "/lines/1/item_properties",
                "{\"AdditionalItemName\":\"AdditionalItemValue\"}",
            ),
        ],
    );
    // line 1: the price allowance is not a line allowance, the net price is 410;
    // line 2: 200 per base quantity 2 is 100 per unit
    assert_eq!(
        lines(&j),
        [
            "10 \"C62\" 410 \"standard\" 25.0 4100.00 4000.00 \"item name\"",
            "10 \"C62\" 100 \"exempted\" 0.0 1000.00 1000.00 \"item name\"",
            "10 \"C62\" 100 \"standard\" 25.0 1000.00 900.00 \"item name\"",
        ]
    );
    assert_eq!(
        groups(&j),
        [
            "\"standard\" 25 \"S\" 4900.00 1225.00 null null",
            "\"exempted\" 0 \"E\" 1000.00 0.00 \"Reason for tax exempt\" null",
        ]
    );
    assert_eq!(doc.supplier.endpoint_id.as_deref(), Some("7300010000001"));
    assert_eq!(doc.customer.endpoint_id.as_deref(), Some("4598375937"));
    assert_eq!(doc.totals.prepaid_amount, Some("1000".parse().unwrap()));
}

#[test]
fn vat_category_s() {
    let (doc, j) = read_clean("Vat-category-S.xml");
    expect(
        &j,
        &[
            ("/type", "\"purchase_invoice\""),
            ("/issue_date", "\"2017-11-13\""),
            ("/due_date", "\"2017-12-01\""),
            ("/currency", "\"EUR\""),
            ("/tax_exclusive_amount", "7000.00"),
            ("/tax_amount", "1550.00"),
            ("/total_amount", "8550.00"),
            ("/paid_amount", "0.00"),
            ("/remaining_amount", "8550.00"),
        ],
    );
    assert_eq!(
        lines(&j),
        [
            "10 \"C62\" 400 \"standard\" 25.0 4000.00 4000.00 \"item name\"",
            "10 \"C62\" 200 \"standard\" 15.0 2000.00 2000.00 \"item name\"",
            "10 \"C62\" 90 \"standard\" 25.0 900.00 900.00 \"item name\"",
        ]
    );
    assert_eq!(
        groups(&j),
        [
            "\"standard\" 25 \"S\" 5000.00 1250.00 null null",
            "\"standard\" 15 \"S\" 2000.00 300.00 null null",
        ]
    );
    assert_eq!(doc.allowance_charges.len(), 2);
    assert_eq!(doc.supplier.vat_number.as_deref(), Some("GB1232434"));
}

#[test]
fn vat_category_e() {
    let (doc, j) = read_clean("vat-category-E.xml");
    expect(
        &j,
        &[
            ("/document_number", "\"Vat-Z\""),
            ("/issue_date", "\"2018-08-30\""),
            ("/due_date", "null"),
            ("/buyer_reference", "\"test reference\""),
            ("/currency", "\"GBP\""),
            ("/tax_exclusive_amount", "1200.00"),
            ("/tax_amount", "0.00"),
            ("/total_amount", "1200.00"),
            ("/remaining_amount", "1200.00"),
        ],
    );
    assert_eq!(
        lines(&j),
        ["10 \"EA\" 120.00 \"exempted\" 0 1200.00 1200.00 \"Test item, category Z\""]
    );
    assert_eq!(
        groups(&j),
        ["\"exempted\" 0 \"E\" 1200.00 0.00 null \"VATEX-EU-F\""]
    );
    assert_eq!(doc.supplier.vat_number.as_deref(), Some("GB928741974"));
    assert_eq!(
        doc.supplier.name.as_deref(),
        Some("The Sellercompany Incorporated")
    );
    assert_eq!(doc.customer.endpoint_scheme.as_deref(), Some("0184"));
}

#[test]
fn vat_category_o() {
    let (doc, j) = read_clean("vat-category-O.xml");
    expect(
        &j,
        &[
            ("/document_number", "\"Vat-O\""),
            ("/currency", "\"SEK\""),
            ("/tax_exclusive_amount", "3200.00"),
            ("/tax_amount", "0.00"),
            ("/total_amount", "3200.00"),
            ("/remaining_amount", "3200.00"),
            ("/lines/0/product_code", "\"RT3000\""),
        ],
    );
    // not_subject answers vat_rate null
    assert_eq!(
        lines(&j),
        ["1 \"EA\" 3200.00 \"not_subject\" null 3200.00 3200.00 \"Road tax\""]
    );
    assert_eq!(
        groups(&j),
        ["\"not_subject\" null \"O\" 3200.00 0.00 \"Not subject to VAT\" null"]
    );
    assert_eq!(doc.supplier.vat_number, None);
    assert_eq!(doc.supplier.endpoint_id.as_deref(), Some("7300010000001"));
}

#[test]
fn vat_category_z() {
    let (_, j) = read_clean("vat-category-Z.xml");
    expect(
        &j,
        &[
            ("/document_number", "\"Vat-Z\""),
            ("/issue_date", "\"2018-08-30\""),
            ("/currency", "\"GBP\""),
            ("/tax_exclusive_amount", "1200.00"),
            ("/tax_amount", "0.00"),
            ("/total_amount", "1200.00"),
        ],
    );
    assert_eq!(
        lines(&j),
        ["10 \"EA\" 120.00 \"zero_rated\" 0 1200.00 1200.00 \"Test item, category Z\""]
    );
    assert_eq!(
        groups(&j),
        ["\"zero_rated\" 0 \"Z\" 1200.00 0.00 null null"]
    );
}

#[test]
fn the_response_has_the_interface_fields_in_order_then_the_extras() {
    let j = json(&read(&fixture("base-example.xml")));
    let keys: Vec<&str> = j.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "id",
            "type",
            "origin",
            "document_number",
            "order_number",
            "despatch_reference",
            "buyer_reference",
            "issue_date",
            "due_date",
            "tax_point_date",
            "delivery_date",
            "period_start",
            "period_end",
            "payment_remittance",
            "is_remittance_structured",
            "create_date",
            "currency",
            "tax_exclusive_amount",
            "tax_amount",
            "total_amount",
            "paid_amount",
            "remaining_amount",
            "payment_status",
            "accounting_status",
            "pdf_available",
            "xml_available",
            "relation_type",
            "relation_id",
            "journal_id",
            "delivery_location_id",
            "payment_terms",
            "legal_notice",
            "peppol_status",
            "mail_status",
            "attachments",
            "allowance_charges",
            "lines",
            "vat_breakdown",
            "type_code",
            "checks",
        ]
    );
    let line_keys: Vec<&str> = j["lines"][0]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        line_keys,
        [
            "sequence",
            "quantity",
            "vat_rate",
            "item_name",
            "item_description",
            "unit_price",
            "unit_code",
            "vat_code",
            "subtotal",
            "total",
            "tax_amount",
            "section_name",
            "item_properties",
            "item_identification",
            "product_code",
            "allowance_charges",
        ]
    );
}

#[test]
fn what_only_the_caller_knows_goes_into_the_response() {
    let doc = read(&fixture("base-example.xml"));
    let mut info = ResponseInfo::new("rcv-9");
    info.origin = "mail";
    info.type_override = Some("other_document");
    info.create_date = Some(chrono::DateTime::from_timestamp(1_767_225_600, 0).unwrap());
    info.relation = Some(("rel-1", RelationKind::Company));
    info.journal_id = Some("jnl-p");
    let j = doc.to_json(&info);
    expect(
        &j,
        &[
            ("/id", "\"rcv-9\""),
            ("/origin", "\"mail\""),
            // a type given for bytes that are UBL is ignored
            ("/type", "\"purchase_invoice\""),
            ("/create_date", "\"2026-01-01T00:00:00Z\""),
            ("/relation_type", "\"company\""),
            ("/relation_id", "\"rel-1\""),
            ("/journal_id", "\"jnl-p\""),
        ],
    );
    let pdf = read(b"%PDF-1.4\n...");
    assert_eq!(pdf.to_json(&info)["type"], "other_document");
}

#[test]
fn relations_match_by_peppol_id_then_by_vat_number() {
    let doc = read(&fixture("Vat-category-S.xml"));
    // EndpointID 0088:7300010000001, VAT GB1232434
    assert!(doc.matches_relation(Some("0088:7300010000001"), None));
    assert!(doc.matches_relation(Some(" 0088 : 7300010000001 "), None));
    assert!(!doc.matches_relation(Some("0208:7300010000001"), None));
    assert!(!doc.matches_relation(Some("7300010000001"), None));
    assert!(doc.matches_relation(None, Some("gb 123.24-34")));
    assert!(!doc.matches_relation(None, Some("GB1232435")));
    assert!(!doc.matches_relation(Some("  "), Some(" \t")));
    let candidates = [
        ("by-vat", None, Some("GB1232434")),
        ("other", Some("0088:1"), Some("BE0123456749")),
        ("by-peppol", Some("0088:7300010000001"), None),
    ];
    assert_eq!(doc.pick_relation(candidates), Some("by-peppol"));
    assert_eq!(doc.pick_relation(candidates[..2].to_vec()), Some("by-vat"));
    assert_eq!(doc.pick_relation(candidates[1..2].to_vec()), None);
    let mut upper = String::from_utf8(fixture("Vat-category-S.xml")).unwrap();
    upper = upper.replace(
        "schemeID=\"0088\">7300010000001<",
        "schemeID=\"0088\">ABCdef<",
    );
    assert!(read(upper.as_bytes()).matches_relation(Some("0088:abcDEF"), None));
    // a scheme with a colon of its own (EHF's legacy `NO:ORGNR`, in CEN's unit test
    // BR-62): the Peppol id splits at whichever colon makes the scheme and the value
    let legacy = String::from_utf8(fixture("Vat-category-S.xml"))
        .unwrap()
        .replace(
            "schemeID=\"0088\">7300010000001<",
            "schemeID=\"NO:ORGNR\">123456785<",
        );
    let legacy = read(legacy.as_bytes());
    assert!(legacy.matches_relation(Some("no:orgnr:123456785"), None));
    assert!(!legacy.matches_relation(Some("NO:123456785"), None));
    assert!(!legacy.matches_relation(Some("NO:ORGNR"), None));
}

#[test]
fn payment_status_and_a_patch_of_the_paid_amount() {
    let mut doc = read(&fixture("base-example.xml"));
    assert_eq!(doc.payment_status().as_str(), "unpaid");
    doc.set_paid_amount("656.25".parse().unwrap());
    assert_eq!(doc.payment_status().as_str(), "partial");
    assert_eq!(json(&doc)["remaining_amount"].to_string(), "1000.00");
    doc.set_paid_amount("1656.25".parse().unwrap());
    assert_eq!(doc.payment_status().as_str(), "paid");
    doc.set_paid_amount("1656.26".parse().unwrap());
    assert_eq!(doc.payment_status().as_str(), "unknown");
    doc.set_paid_amount("-1".parse().unwrap());
    assert_eq!(doc.payment_status().as_str(), "unknown");
    let mut unknown = read(b"not xml");
    unknown.set_paid_amount("1".parse().unwrap());
    assert_eq!(unknown.payment_status().as_str(), "unknown");
    assert_eq!(unknown.remaining_amount, None);
}

/// The tampered copies of the examples (one amount changed by a minor unit, an
/// element removed, a category changed, …) give in `checks` exactly the asserts the
/// official validator fails on them, with their flag and location, fatal first, then
/// warnings, in the validator's order (`expected.json`, written by `validate.py`;
/// `tests/fixtures/peppol/README.md` says how to re-run it).
#[test]
fn tampered_copies_give_exactly_the_rules_the_validator_reports() {
    let dir = Path::new(FIXTURES).join("tampered");
    let expected: BTreeMap<String, Vec<BTreeMap<String, String>>> =
        serde_json::from_slice(&std::fs::read(dir.join("expected.json")).unwrap()).unwrap();
    assert!(expected.len() >= 50, "{}", expected.len());
    let mut covered = std::collections::BTreeSet::new();
    for (file, failed) in &expected {
        let doc = read(&std::fs::read(dir.join(file)).unwrap());
        let got: Vec<(&str, &str, &str)> = doc
            .checks
            .iter()
            .filter(|c| c.rule != "unreadable")
            .map(|c| {
                (
                    c.rule.as_str(),
                    c.flag.as_deref().unwrap_or(""),
                    c.location.as_deref().unwrap_or(""),
                )
            })
            .collect();
        let want: Vec<(&str, &str, &str)> = failed
            .iter()
            .map(|e| {
                (
                    e["rule"].as_str(),
                    e["flag"].as_str(),
                    e["location"].as_str(),
                )
            })
            .collect();
        assert_eq!(got, want, "{file}");
        for c in doc.checks.iter().filter(|c| c.rule != "unreadable") {
            assert_eq!(c.msg, message(&c.rule), "{file}");
        }
        covered.extend(want.iter().map(|w| w.0.to_owned()));
    }
    assert!(covered.len() >= 30, "{covered:?}");
}

#[test]
fn a_total_changed_by_one_cent_is_named_with_the_kit_text() {
    let text = String::from_utf8(fixture("base-example.xml")).unwrap();
    let tampered = text.replace(
        "<cbc:TaxInclusiveAmount currencyID=\"EUR\">1656.25<",
        "<cbc:TaxInclusiveAmount currencyID=\"EUR\">1656.26<",
    );
    let j = json(&read(tampered.as_bytes()));
    let root =
        "/*:Invoice[namespace-uri()='urn:oasis:names:specification:ubl:schema:xsd:Invoice-2'][1]";
    let totals = format!("{root}/*:LegalMonetaryTotal[namespace-uri()='urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2'][1]");
    assert_eq!(
        j["checks"],
        serde_json::json!([
            {"rule": "BR-CO-15", "flag": "fatal", "msg": "[BR-CO-15]-Invoice total amount with VAT (BT-112) = Invoice total amount without VAT (BT-109) + Invoice total VAT amount (BT-110).", "location": root},
            {"rule": "BR-CO-16", "flag": "fatal", "msg": "[BR-CO-16]-Amount due for payment (BT-115) = Invoice total amount with VAT (BT-112) -Paid amount (BT-113) +Rounding amount (BT-114).", "location": totals},
        ])
    );
    // the entry's keys in the order of docs/peppol.md §4
    assert!(j["checks"]
        .to_string()
        .starts_with(r#"[{"rule":"BR-CO-15","flag":"fatal","msg":"#));
    // stated, never recomputed
    assert_eq!(j["total_amount"].to_string(), "1656.26");
}

#[test]
fn an_unreadable_amount_or_date_is_null_with_its_reason() {
    let text = String::from_utf8(fixture("base-example.xml")).unwrap();
    let broken = text
        .replace(
            "<cbc:TaxInclusiveAmount currencyID=\"EUR\">1656.25<",
            "<cbc:TaxInclusiveAmount currencyID=\"EUR\">1.656,25<",
        )
        .replace("<cbc:IssueDate>2017-11-13<", "<cbc:IssueDate>13/11/2017<");
    let doc = read(broken.as_bytes());
    let j = json(&doc);
    expect(
        &j,
        &[
            ("/issue_date", "null"),
            ("/total_amount", "null"),
            ("/payment_status", "\"unknown\""),
            ("/tax_exclusive_amount", "1325.00"),
        ],
    );
    let checks: Vec<(&str, &str)> = doc
        .checks
        .iter()
        .map(|c| (c.rule.as_str(), c.msg.as_str()))
        .collect();
    // the reader's notes come after the rules; the rules that read the unreadable
    // total cannot be evaluated (the official validator stops on the cast): a note each
    let notes: Vec<&str> = checks
        .iter()
        .filter(|c| c.0 == "unreadable")
        .map(|c| c.1)
        .collect();
    assert!(
        notes.contains(&"BT-2 Invoice issue date is not a date (YYYY-MM-DD): \"13/11/2017\""),
        "{notes:?}"
    );
    assert!(notes.contains(&"BT-112 Invoice total amount with VAT is not a decimal number the crate can read: \"1.656,25\""), "{notes:?}");
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("BR-CO-15 cannot be tested at ")),
        "{notes:?}"
    );
    let rules: Vec<&str> = checks
        .iter()
        .map(|c| c.0)
        .filter(|r| *r != "unreadable")
        .collect();
    // what the rules say of the values as written
    for rule in ["BR-DEC-14", "UBL-DT-01", "PEPPOL-EN16931-F001"] {
        assert!(rules.contains(&rule), "{rule}: {rules:?}");
    }
    assert!(!rules.contains(&"BR-CO-15"), "{rules:?}");
    let first_note = checks.iter().position(|c| c.0 == "unreadable").unwrap();
    assert!(checks[first_note..].iter().all(|c| c.0 == "unreadable"));
}

#[test]
fn amounts_are_padded_never_rounded() {
    let text = String::from_utf8(fixture("base-example.xml")).unwrap();
    let kwd = text.replace(
        "<cbc:PayableAmount currencyID=\"EUR\">1656.25<",
        "<cbc:PayableAmount currencyID=\"EUR\">1656.250<",
    );
    assert_eq!(
        json(&read(kwd.as_bytes()))["remaining_amount"].to_string(),
        "1656.250"
    );
    let sub_cent = text.replace(
        "<cbc:PayableAmount currencyID=\"EUR\">1656.25<",
        "<cbc:PayableAmount currencyID=\"EUR\">12.345<",
    );
    assert_eq!(
        json(&read(sub_cent.as_bytes()))["remaining_amount"].to_string(),
        "12.345"
    );
    let jpy = text.replace(">EUR<", ">JPY<").replace("\"EUR\"", "\"JPY\"");
    let j = json(&read(jpy.as_bytes()));
    assert_eq!(j["total_amount"].to_string(), "1656.25");
    assert_eq!(j["tax_exclusive_amount"].to_string(), "1325");
    assert!(read(jpy.as_bytes()).checks.is_empty());
}

#[test]
fn vat_codes_and_unit_prices_follow_the_reader_rules() {
    let text = String::from_utf8(fixture("vat-category-Z.xml")).unwrap();
    for (cat, code) in [
        ("L", "canary_islands"),
        ("M", "ceuta_melilla"),
        ("B", "transferred_vat"),
        ("AE", "reverse_charge"),
        ("K", "intra_community"),
        ("G", "export"),
        ("XX", "null"),
    ] {
        let t = text.replace("<cbc:ID>Z</cbc:ID>", &format!("<cbc:ID>{cat}</cbc:ID>"));
        let j = json(&read(t.as_bytes()));
        let want = if code == "null" {
            "null".to_owned()
        } else {
            format!("\"{code}\"")
        };
        assert_eq!(j["lines"][0]["vat_code"].to_string(), want, "{cat}");
        assert_eq!(j["vat_breakdown"][0]["vat_code"].to_string(), want, "{cat}");
    }
    // 10 at 100.00 per 3: 33.333333 per unit, subtotal 333.33
    let t = text.replace(
        "<cbc:PriceAmount currencyID=\"GBP\">120.00</cbc:PriceAmount>",
        "<cbc:PriceAmount currencyID=\"GBP\">100.00</cbc:PriceAmount><cbc:BaseQuantity>3</cbc:BaseQuantity>",
    );
    let j = json(&read(t.as_bytes()));
    expect(
        &j,
        &[
            ("/lines/0/unit_price", "33.333333"),
            ("/lines/0/subtotal", "333.33"),
        ],
    );
    // base quantity 0 is 1; 1.000 keeps the stated price
    for base in ["0", "1.000"] {
        let t = text.replace(
            "<cbc:PriceAmount currencyID=\"GBP\">120.00</cbc:PriceAmount>",
            &format!("<cbc:PriceAmount currencyID=\"GBP\">120.00</cbc:PriceAmount><cbc:BaseQuantity>{base}</cbc:BaseQuantity>"),
        );
        assert_eq!(
            json(&read(t.as_bytes()))["lines"][0]["unit_price"].to_string(),
            "120.00"
        );
    }
}

#[test]
fn structured_communications_are_recognised() {
    let text = String::from_utf8(fixture("base-example.xml")).unwrap();
    for (id, structured) in [
        ("+++002/0260/00196+++", true),
        ("***002/0260/00196***", true),
        ("002026000196", true),
        ("+++002/0260/00195+++", false),
        ("Snippet1", false),
    ] {
        let t = text.replace("<cbc:PaymentID>Snippet1<", &format!("<cbc:PaymentID>{id}<"));
        let doc = read(t.as_bytes());
        assert_eq!(doc.payment_remittance.as_deref(), Some(id));
        assert_eq!(doc.is_remittance_structured, structured, "{id}");
    }
}

fn assert_not_ubl(bytes: &[u8], pdf: bool) -> ReceivedDocument {
    let doc = read(bytes);
    assert_eq!(doc.doc_type, ReceivedType::Unknown);
    assert_eq!(doc.checks.len(), 1, "{:?}", doc.checks);
    assert_eq!(doc.checks[0].rule, "not_ubl");
    assert!(!doc.xml_available);
    assert_eq!(doc.pdf_available, pdf);
    assert_eq!(doc.xml, None);
    let j = json(&doc);
    for k in [
        "tax_exclusive_amount",
        "tax_amount",
        "total_amount",
        "paid_amount",
        "remaining_amount",
        "currency",
        "document_number",
    ] {
        assert!(j[k].is_null(), "{k}");
    }
    expect(
        &j,
        &[
            ("/type", "\"unknown\""),
            ("/lines", "[]"),
            ("/allowance_charges", "[]"),
            ("/vat_breakdown", "[]"),
            ("/payment_status", "\"unknown\""),
        ],
    );
    doc
}

#[test]
fn bytes_that_are_not_ubl_are_an_unknown_document() {
    let base = fixture("base-example.xml");
    let d = assert_not_ubl(b"Dear supplier, please find attached...", false);
    assert!(d.checks[0].msg.contains("not"), "{}", d.checks[0].msg);
    assert_not_ubl(b"", false);
    assert_not_ubl(b"\xff\xfe<\x00I\x00", false);
    // truncated: every prefix of the example is not UBL
    for cut in [10, 200, base.len() / 2, base.len() - 3] {
        assert_not_ubl(&base[..cut], false);
    }
    let d = assert_not_ubl(b"<?xml version=\"1.0\"?><Order xmlns=\"urn:oasis:names:specification:ubl:schema:xsd:Order-2\"/>", false);
    assert!(d.checks[0].msg.contains("Order"), "{}", d.checks[0].msg);
    // the right local name in no namespace is another root
    assert_not_ubl(b"<Invoice><cbc:ID>1</cbc:ID></Invoice>", false);
    assert_not_ubl(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", true);
    // two roots, text after the root
    let mut two = base.clone();
    two.extend_from_slice(b"<Invoice/>");
    assert_not_ubl(&two, false);
    let mut tail = base.clone();
    tail.extend_from_slice(b"trailing");
    assert_not_ubl(&tail, false);
}

#[test]
fn no_dtd_entity_is_ever_expanded() {
    let xxe = b"<?xml version=\"1.0\"?><!DOCTYPE Invoice [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\
<Invoice xmlns=\"urn:oasis:names:specification:ubl:schema:xsd:Invoice-2\" xmlns:cbc=\"urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2\"><cbc:ID>&xxe;</cbc:ID></Invoice>";
    let d = assert_not_ubl(xxe, false);
    assert!(d.checks[0].msg.contains("xxe"), "{}", d.checks[0].msg);
    // predefined entities and character references are read
    let ok = b"<Invoice xmlns=\"urn:oasis:names:specification:ubl:schema:xsd:Invoice-2\" xmlns:b=\"urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2\"><b:ID>A&amp;B&#x20;&#67;</b:ID></Invoice>";
    let doc = read(ok);
    assert_eq!(doc.doc_type, ReceivedType::PurchaseInvoice);
    assert_eq!(doc.document_number.as_deref(), Some("A&B C"));
    // a UBL without totals: null amounts, paid 0; the rules say what is missing
    assert!(
        doc.checks.iter().all(|c| c.rule != "unreadable"),
        "{:?}",
        doc.checks
    );
    assert!(
        doc.checks.iter().any(|c| c.rule == "BR-03"),
        "{:?}",
        doc.checks
    );
    assert_eq!(doc.total_amount, None);
}

/// A UBL invoice of about `target` bytes: the base example with its line repeated.
fn big_invoice(target: usize) -> Vec<u8> {
    let text = String::from_utf8(fixture("base-example.xml")).unwrap();
    let start = text.find("<cac:InvoiceLine>").unwrap();
    let end = text.rfind("</Invoice>").unwrap();
    let line = &text[start..end];
    let mut out = String::with_capacity(target + text.len());
    out.push_str(&text[..end]);
    while out.len() < target {
        out.push_str(line);
    }
    out.push_str("</Invoice>");
    out.into_bytes()
}

#[test]
fn a_ten_megabyte_document_is_read_whole() {
    // (its time and memory are measured in benches/validate.rs, not here)
    let big = big_invoice(10_000_000);
    let doc = read(&big);
    assert_eq!(doc.doc_type, ReceivedType::PurchaseInvoice);
    assert!(doc.lines.len() > 5_000, "{}", doc.lines.len());
    // the repeated lines break BR-CO-10 and the others, which is fine here
    assert!(doc.checks.iter().any(|c| c.rule == "BR-CO-10"));
    // deep nesting: elements deeper than the model's bound (256) are not a UBL a
    // network carries (one nests about 10 deep); the bytes are `not_ubl`, with why
    let mut deep = String::from("<Invoice xmlns=\"urn:oasis:names:specification:ubl:schema:xsd:Invoice-2\" xmlns:cac=\"urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2\" xmlns:cbc=\"urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2\">");
    let depth = 30_000;
    for _ in 0..depth {
        deep.push_str("<cac:TaxTotal><cac:TaxSubtotal>");
    }
    for _ in 0..depth {
        deep.push_str("<cbc:TaxAmount>1</cbc:TaxAmount></cac:TaxSubtotal></cac:TaxTotal>");
    }
    deep.push_str("</Invoice>");
    let d = assert_not_ubl(deep.as_bytes(), false);
    assert!(
        d.checks[0].msg.contains("deeper than 256"),
        "{}",
        d.checks[0].msg
    );
}

#[test]
fn many_vat_groups_and_lines_are_judged_by_rate() {
    // 300 lines and 300 S groups of distinct rates: BR-S-08 sums each group's lines
    // (the artefact's XPath walks every line for every group: the engine's work
    // bound, `FUEL`, keeps a hostile document of many groups finite)
    let n = 300;
    let mut x = String::from("<Invoice xmlns=\"urn:oasis:names:specification:ubl:schema:xsd:Invoice-2\" xmlns:cac=\"urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2\" xmlns:cbc=\"urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2\"><cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>");
    x.push_str("<cac:TaxTotal><cbc:TaxAmount currencyID=\"EUR\">0</cbc:TaxAmount>");
    for i in 0..n {
        let _ = write!(x, "<cac:TaxSubtotal><cbc:TaxableAmount currencyID=\"EUR\">1</cbc:TaxableAmount><cbc:TaxAmount currencyID=\"EUR\">0</cbc:TaxAmount><cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>0.{i:05}</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory></cac:TaxSubtotal>");
    }
    x.push_str("</cac:TaxTotal>");
    for i in 0..n {
        let _ = write!(x, "<cac:InvoiceLine><cbc:ID>{i}</cbc:ID><cbc:InvoicedQuantity>1</cbc:InvoicedQuantity><cbc:LineExtensionAmount currencyID=\"EUR\">1</cbc:LineExtensionAmount><cac:Item><cbc:Name>x</cbc:Name><cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>0.{i:05}</cbc:Percent></cac:ClassifiedTaxCategory></cac:Item><cac:Price><cbc:PriceAmount currencyID=\"EUR\">1</cbc:PriceAmount></cac:Price></cac:InvoiceLine>");
    }
    x.push_str("</Invoice>");
    let doc = read(x.as_bytes());
    assert_eq!(doc.lines.len(), n);
    assert_eq!(doc.vat_breakdown.len(), n);
    let rules: Vec<&str> = doc.checks.iter().map(|c| c.rule.as_str()).collect();
    // every group's taxable is its line's net: BR-S-08 holds; BR-CO-15 fails (no
    // LegalMonetaryTotal) and BR-CO-14 holds (0 = Σ 0); nothing is left unevaluated
    assert!(rules.contains(&"BR-CO-15"), "{rules:?}");
    for holds in ["BR-S-08", "BR-CO-14", "unreadable"] {
        assert!(
            !rules.contains(&holds),
            "{holds}: {:?}",
            doc.checks
                .iter()
                .filter(|c| c.rule == holds)
                .take(3)
                .collect::<Vec<_>>()
        );
    }
}

#[test]
fn br_s_08_groups_lines_by_the_rate_s_value_not_its_writing() {
    // the line states 21.00, its group 21: one rate (xs:decimal compares values), so
    // the group's taxable amount is the line's net and BR-S-08 holds; a group of 6
    // with no line at that rate breaks it
    let doc = |group_rate: &str| {
        let x = format!("<Invoice xmlns=\"urn:oasis:names:specification:ubl:schema:xsd:Invoice-2\" xmlns:cac=\"urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2\" xmlns:cbc=\"urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2\"><cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode><cac:TaxTotal><cbc:TaxAmount currencyID=\"EUR\">21</cbc:TaxAmount><cac:TaxSubtotal><cbc:TaxableAmount currencyID=\"EUR\">100</cbc:TaxableAmount><cbc:TaxAmount currencyID=\"EUR\">21</cbc:TaxAmount><cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>{group_rate}</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory></cac:TaxSubtotal></cac:TaxTotal><cac:InvoiceLine><cbc:ID>1</cbc:ID><cbc:InvoicedQuantity>1</cbc:InvoicedQuantity><cbc:LineExtensionAmount currencyID=\"EUR\">100</cbc:LineExtensionAmount><cac:Item><cbc:Name>x</cbc:Name><cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>21.00</cbc:Percent></cac:ClassifiedTaxCategory></cac:Item><cac:Price><cbc:PriceAmount currencyID=\"EUR\">100</cbc:PriceAmount></cac:Price></cac:InvoiceLine></Invoice>");
        read(x.as_bytes())
    };
    let rules = |group_rate: &str| -> Vec<String> {
        doc(group_rate)
            .checks
            .iter()
            .map(|c| c.rule.clone())
            .collect()
    };
    assert!(
        !rules("21").contains(&"BR-S-08".to_owned()),
        "{:?}",
        rules("21")
    );
    assert!(!rules("21.0000").contains(&"BR-S-08".to_owned()));
    assert!(
        rules("6").contains(&"BR-S-08".to_owned()),
        "{:?}",
        rules("6")
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let doc = read(&bytes);
        let _ = json(&doc);
        prop_assert!(doc.doc_type == ReceivedType::Unknown || doc.xml_available);
    }

    #[test]
    fn mutated_examples_never_panic(
        which in 0..7_usize,
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0..3_u8), 1..8),
    ) {
        let names = [
            "Allowance-example.xml", "Vat-category-S.xml", "base-creditnote-correction.xml",
            "base-example.xml", "vat-category-E.xml", "vat-category-O.xml", "vat-category-Z.xml",
        ];
        let mut bytes = fixture(names[which]);
        for (at, byte, op) in edits {
            let i = at.index(bytes.len().max(1));
            match op {
                0 if i < bytes.len() => bytes[i] = byte,
                1 => bytes.insert(i.min(bytes.len()), byte),
                _ if i < bytes.len() => { bytes.remove(i); }
                _ => {}
            }
        }
        let doc = read(&bytes);
        let j = json(&doc);
        prop_assert!(j.is_object());
        // a document is either UBL with its text kept, or unknown with one reason
        if doc.xml_available {
            prop_assert!(doc.checks.iter().all(|c| c.rule != "not_ubl"));
        } else {
            prop_assert_eq!(doc.checks.len(), 1);
        }
    }
}
