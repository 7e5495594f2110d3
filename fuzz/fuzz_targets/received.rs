//! The reader of received documents (docs/peppol.md §4, §6 "Reader"): any bytes.
//!
//! Invariants:
//! - reading never panics and is deterministic (the same bytes, the same document);
//! - `pdf_available` exactly when the bytes are a PDF (`%PDF-`) or a UBL (docs/files.md §2:
//!   its embedded PDF or one rendered from what it states);
//! - not UBL (`xml_available` false): type `unknown`, exactly one check, `not_ubl`,
//!   no XML kept, every amount null, no line, no allowance, no VAT group;
//! - UBL: the XML kept is the input, no `not_ubl` check; the checks are the rule
//!   engine's findings (flag `fatal` or `warning`, located, with the artefact's text),
//!   fatal first, then warnings, then `unreadable` notes;
//!   `total_amount` is the stated BT-112 (+ BT-114), `remaining_amount` BT-115;
//! - the response shape is an object whose amounts carry at least the currency's
//!   minor-unit decimals and whose `checks` are the document's.
#![no_main]

use invoicing_core::received::{read, ReceivedType, ResponseInfo};
use libfuzzer_sys::fuzz_target;
use rust_decimal::Decimal;
use serde_json::Value;

/// The scale of a JSON number's text.
fn scale(v: &Value) -> Option<u32> {
    let Value::Number(n) = v else { return None };
    let d: Decimal = n.as_str().parse().ok()?;
    Some(d.scale())
}

fuzz_target!(|bytes: &[u8]| {
    let doc = read(bytes);
    assert_eq!(read(bytes), doc, "reading is deterministic");
    assert_eq!(
        doc.pdf_available,
        bytes.starts_with(b"%PDF-") || doc.xml_available,
        "pdf_available"
    );
    let j = doc.to_json(&ResponseInfo::new("rcv"));
    let amounts = [
        "tax_exclusive_amount",
        "tax_amount",
        "total_amount",
        "paid_amount",
        "remaining_amount",
    ];
    if !doc.xml_available {
        assert_eq!(doc.doc_type, ReceivedType::Unknown);
        assert_eq!(doc.checks.len(), 1, "{:?}", doc.checks);
        assert_eq!(doc.checks[0].rule, "not_ubl");
        assert!(doc.xml.is_none());
        for k in amounts {
            assert!(j[k].is_null(), "{k} of a not-UBL document");
        }
        assert!(doc.lines.is_empty() && doc.allowance_charges.is_empty());
        assert!(doc.vat_breakdown.is_empty());
        assert_eq!(j["type"], "unknown");
        return;
    }
    assert_ne!(doc.doc_type, ReceivedType::Unknown);
    assert_eq!(
        doc.xml.as_deref().map(str::as_bytes),
        Some(bytes),
        "the XML kept"
    );
    // fatal findings, then warnings, then the notes (`unreadable`), each rule with the
    // artefact's own text
    let rank = |c: &invoicing_core::received::Check| match c.flag.as_deref() {
        Some("fatal") => 0,
        Some(_) => 1,
        None => 2,
    };
    assert!(
        doc.checks.windows(2).all(|w| rank(&w[0]) <= rank(&w[1])),
        "fatal, warnings, notes: {:?}",
        doc.checks
    );
    for c in &doc.checks {
        assert_ne!(c.rule, "not_ubl");
        match c.flag.as_deref() {
            None => assert_eq!(c.rule, "unreadable"),
            Some(flag) => {
                assert!(flag == "fatal" || flag == "warning", "{flag}");
                assert!(c.location.as_deref().is_some_and(|l| l.starts_with('/')));
                assert!(!c.msg.is_empty(), "{}", c.rule);
            }
        }
    }
    let t = doc.totals;
    let expected_total = match (t.tax_inclusive_amount, t.payable_rounding_amount) {
        (Some(a), Some(r)) => a.checked_add(r),
        (Some(a), None) => Some(a),
        _ => None,
    };
    if t.payable_rounding_amount.is_none() || doc.total_amount.is_some() {
        // an unreadable rounding amount leaves the total null
        assert!(doc.total_amount.is_none() || doc.total_amount == expected_total);
    }
    assert_eq!(doc.remaining_amount, t.payable_amount, "remaining = BT-115");
    let minor = doc.minor_unit();
    for k in amounts {
        if let Some(s) = scale(&j[k]) {
            assert!(
                s >= minor,
                "{k} written with {s} decimals, minor unit {minor}"
            );
        }
    }
    for (i, line) in j["lines"].as_array().into_iter().flatten().enumerate() {
        assert_eq!(line["sequence"], i + 1);
        for k in ["subtotal", "total"] {
            if let Some(s) = scale(&line[k]) {
                assert!(s >= minor, "line {k}");
            }
        }
        assert!(line["tax_amount"].is_null());
    }
    assert_eq!(j["checks"].as_array().map(Vec::len), Some(doc.checks.len()));
});
