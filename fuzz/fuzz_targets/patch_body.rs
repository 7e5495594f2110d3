//! A PATCH body: any JSON value sent to `PATCH /documents/doc-1` on a created
//! document, read back before and after.
//!
//! The first byte picks the document and the caller (`b'0' + n` keeps seeds
//! readable):
//! 0: an EUR invoice (three VAT groups, line and document allowances/charges, partly
//!    paid), live client;
//! 1: the same, already sent on Peppol (edit lock: only paid_amount may change);
//! 2: a KWD invoice (3 decimals) on a never-restarting journal, live client;
//! 3: the EUR invoice, patched by a sandbox client (answered, never applied);
//! 4: the EUR invoice, deleted (every PATCH is `document_deleted`);
//! 5: a JPY invoice (0 decimals) on a monthly journal with a delivery location.
//! The rest of the bytes, when valid JSON, is the body.
//!
//! Invariants (docs/decisions.md §6, §8, docs/scenario.md):
//! - the PATCH answers 200 or 422;
//! - refused: a well-formed 422 (loc at "body" or "path") and the GET after equals
//!   the GET before, byte for byte: nothing is written;
//! - accepted: the document satisfies the totals identities with every amount written
//!   with exactly the currency's minor-unit decimals; paid_amount is not above the
//!   total; id, number, type, journal, remittance, create_date, origin and the
//!   statuses other than payment_status are unchanged; the GET after answers the
//!   PATCH's body (live) or the document before (sandbox);
//! - under the edit lock, an accepted PATCH changes nothing but paid_amount,
//!   remaining_amount and payment_status.
#![no_main]

use invoicing_core::simulator::run;
use invoicing_core_fuzz::{
    check_document, check_error_body, check_response, check_run_output, depth, error_types, text,
    Origin, MAX_BODY_DEPTH,
};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};

fn world() -> Value {
    json!({
        "today": "2026-11-21",
        "company": {
            "self_billing": false,
            "legal_notice": "Our general terms of sale apply.",
            "exemption_mentions": {"exempted": "Exempt, art. 44"}
        },
        "clients": [
            {"client_id": "app", "client_secret": "s3cret", "environment": "live", "permissions": ["c", "u"]},
            {"client_id": "sbx", "client_secret": "sandb0x", "environment": "sandbox", "permissions": ["c", "u"]}
        ],
        "relations": [
            {"id": "rel-acme", "kind": "company", "payment_terms": "30-fm", "peppol": true},
            {"id": "rel-beta", "kind": "company", "peppol": false},
            {"id": "rel-jan", "kind": "contact", "peppol": false}
        ],
        "journals": [
            {"id": "jrn-sales", "category": "sales_invoice", "numbering": "yearly", "prefix": "INV", "default": true, "next": 7},
            {"id": "jrn-sales-b", "category": "sales_invoice", "numbering": "never", "prefix": "B", "default": false, "next": 5},
            {"id": "jrn-sales-m", "category": "sales_invoice", "numbering": "monthly", "prefix": "M", "default": false, "next": 1},
            {"id": "jrn-credit", "category": "sales_credit", "numbering": "yearly", "prefix": "CN", "default": true, "next": 1}
        ],
        "delivery_locations": [
            {"id": "loc-1", "relation_id": "rel-acme", "name": "Warehouse",
             "address": {"street": "Kaai", "street_number": "1", "street2": "", "postal_code": "2000",
                         "city": "Antwerpen", "province": "Antwerpen", "country_code": "BE"},
             "identifier": "5410000000000", "identifier_scheme": "0088"},
            {"id": "loc-3", "relation_id": "rel-beta", "name": "Depot",
             "address": {"street": "Kaai", "street_number": "1", "street2": "", "postal_code": "9000",
                         "city": "Gent", "province": "Oost-Vlaanderen", "country_code": "BE"},
             "identifier": "5410000000000", "identifier_scheme": "0088"}
        ],
        "requests": []
    })
}

fn eur_invoice() -> Value {
    json!({
        "type": "sale_invoice", "relation_id": "rel-acme", "issue_date": "2026-11-10",
        "order_number": "PO-17", "paid_amount": 10,
        "lines": [
            {"item_name": "Widget", "quantity": 2, "unit_price": 9.99, "vat_rate": 21},
            {"item_name": "Service", "quantity": "1.5", "unit_price": "40.00", "vat_rate": 6,
             "allowance_charges": [{"type": "allowance", "rate": 10, "reason": "Volume"}]},
            {"item_name": "Parts", "quantity": 1, "unit_price": 12, "vat_code": "exempted"}
        ],
        "allowance_charges": [
            {"type": "allowance", "amount": 5, "reason": "Loyalty"},
            {"type": "charge", "rate": 2.5, "reason": "Freight"}
        ]
    })
}

fn kwd_invoice() -> Value {
    json!({
        "type": "sale_invoice", "relation_id": "rel-beta", "journal_id": "jrn-sales-b",
        "issue_date": "2025-03-01", "currency": "KWD", "payment_terms": "0-mf",
        "lines": [
            {"quantity": 3, "unit_price": "1.2345", "vat_rate": 21},
            {"quantity": -1, "unit_price": "0.5", "vat_rate": 21.00},
            {"quantity": 1, "unit_price": 7, "vat_code": "zero_rated"}
        ]
    })
}

fn jpy_invoice() -> Value {
    json!({
        "type": "sale_invoice", "relation_id": "rel-acme", "journal_id": "jrn-sales-m",
        "issue_date": "2026-11-03", "currency": "JPY", "delivery_location_id": "loc-1",
        "lines": [
            {"quantity": 3, "unit_price": 333, "vat_rate": 10,
             "allowance_charges": [{"type": "charge", "amount": 1}]},
            {"quantity": 1, "unit_price": 1000, "vat_code": "not_subject"}
        ],
        "allowance_charges": [{"type": "allowance", "amount": 7}]
    })
}

/// The keys an accepted PATCH never changes.
const FIXED: &[&str] = &[
    "id",
    "type",
    "origin",
    "document_number",
    "payment_remittance",
    "is_remittance_structured",
    "create_date",
    "journal_id",
    "accounting_status",
    "peppol_status",
    "mail_status",
    "pdf_available",
    "xml_available",
];

/// The keys an accepted PATCH may change under the edit lock.
const PAYMENT: &[&str] = &["paid_amount", "remaining_amount", "payment_status"];

fn without(doc: &Value, keys: &[&str]) -> Value {
    let mut doc = doc.clone();
    if let Some(m) = doc.as_object_mut() {
        for k in keys {
            m.shift_remove(*k);
        }
    }
    doc
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let Ok(body) = invoicing_core::json::from_slice(rest) else {
        return;
    };
    if depth(&body) > MAX_BODY_DEPTH {
        return;
    }
    let variant = selector % 6;
    let create = match variant {
        2 => kwd_invoice(),
        5 => jpy_invoice(),
        _ => eur_invoice(),
    };
    let set = match variant {
        1 => Some(json!({"peppol_status": "sent", "pdf_available": true, "xml_available": true})),
        4 => Some(json!({"accounting_status": "deleted"})),
        _ => None,
    };
    let (locked, deleted, sandbox) = (variant == 1, variant == 4, variant == 3);
    let patcher = if sandbox { "sbx" } else { "app" };
    let mut requests =
        vec![json!({"client": "app", "method": "POST", "path": "/documents", "body": create})];
    if let Some(state) = set {
        requests.push(json!({"method": "SET", "path": "/documents/doc-1", "body": state}));
    }
    requests.push(json!({"client": "app", "method": "GET", "path": "/documents/doc-1"}));
    requests.push(
        json!({"client": patcher, "method": "PATCH", "path": "/documents/doc-1", "body": body}),
    );
    requests.push(json!({"client": "app", "method": "GET", "path": "/documents/doc-1"}));
    let mut scenario = world();
    scenario["requests"] = Value::Array(requests);

    let out = run(text(&scenario).as_bytes());
    let responses = check_run_output(&out)
        .unwrap_or_else(|| panic!("the fixed world was refused: {}", text(&out)));
    invoicing_core_fuzz::debug_responses(responses);
    let n = responses.len();
    let checked: Vec<(u64, &Value)> = responses.iter().map(check_response).collect();
    assert_eq!(
        checked[0].0,
        201,
        "harness: the document to patch was not created: {}",
        text(checked[0].1)
    );
    let (before_status, before) = checked[n - 3];
    let (status, patched) = checked[n - 2];
    let (after_status, after) = checked[n - 1];
    assert_eq!(
        (before_status, after_status),
        (200, 200),
        "the document does not resolve"
    );
    check_document(before, Origin::Any);
    check_document(after, Origin::Any);

    match status {
        200 => {
            assert!(
                !deleted,
                "a deleted document took a PATCH: {}",
                text(patched)
            );
            check_document(patched, Origin::Any);
            for key in FIXED {
                assert_eq!(
                    patched.get(*key),
                    before.get(*key),
                    "an accepted PATCH changed {key}: {}",
                    text(patched)
                );
            }
            let amount = |d: &Value, k: &str| -> rust_decimal::Decimal {
                invoicing_core_fuzz::number_text(&d[k])
                    .and_then(|s| s.parse().ok())
                    .expect("checked amount")
            };
            assert!(
                amount(patched, "paid_amount") <= amount(patched, "total_amount"),
                "an accepted PATCH left paid_amount above the total: {}",
                text(patched)
            );
            if locked {
                assert_eq!(
                    text(&without(patched, PAYMENT)),
                    text(&without(before, PAYMENT)),
                    "the edit lock let a PATCH change more than paid_amount"
                );
            }
            if sandbox {
                assert_eq!(text(after), text(before), "a sandbox PATCH was applied");
            } else {
                assert_eq!(
                    text(after),
                    text(patched),
                    "GET after an accepted PATCH is not the PATCH's answer"
                );
            }
        }
        422 => {
            check_error_body(422, patched, &["body", "path"]);
            if deleted {
                assert_eq!(
                    error_types(patched),
                    ["document_deleted"],
                    "a deleted document answered other errors"
                );
            }
            assert_eq!(
                text(after),
                text(before),
                "a refused PATCH changed the document"
            );
        }
        other => panic!("a PATCH answered {other}: {}", text(patched)),
    }
});
