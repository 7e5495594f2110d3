//! Received documents in the simulator (docs/peppol.md §4, §5): the `received` list, reads,
//! the PATCH of paid_amount only, no send, the XML they came with, and the malformed
//! entries.

use invoicing_core::simulator::run;
use serde_json::{json, Value};

fn inbox() -> Value {
    serde_json::from_str(include_str!("../../examples/scenarios/inbox.json")).expect("json")
}

fn with_requests(requests: Value) -> Value {
    let mut sc = inbox();
    sc["requests"] = requests;
    sc
}

fn answers(sc: &Value) -> Vec<(u64, Value)> {
    let out = run(sc.to_string().as_bytes());
    out["responses"]
        .as_array()
        .unwrap_or_else(|| panic!("{out}"))
        .iter()
        .map(|r| (r["status"].as_u64().unwrap_or(0), r["body"].clone()))
        .collect()
}

fn get(id: &str) -> Value {
    json!({"client": "erp", "method": "GET", "path": format!("/documents/{id}")})
}

#[test]
fn received_invoice_reads_as_stated_with_its_relation_and_purchases_journal() {
    let a = answers(&with_requests(json!([get("in-kaai-311")])));
    let (status, doc) = &a[0];
    assert_eq!(*status, 200);
    assert_eq!(doc["type"], "purchase_invoice");
    assert_eq!(doc["type_code"], "380");
    assert_eq!(doc["origin"], "peppol");
    assert_eq!(doc["relation_id"], "rel-kaai", "matched by its peppol id");
    assert_eq!(doc["relation_type"], "company");
    assert_eq!(doc["journal_id"], "jrn-purchases");
    assert_eq!(doc["checks"], json!([]));
    assert_eq!(doc["accounting_status"], "waiting");
    assert_eq!(doc["xml_available"], true);
    assert_eq!(
        doc["pdf_available"], true,
        "docs/files.md §2: rendered from what it states"
    );
    assert_eq!(doc["payment_terms"], Value::Null);
    assert_eq!(doc["create_date"], "2026-11-19T07:12:00Z");
    assert_eq!(doc["total_amount"].to_string(), "494.35");
}

#[test]
fn received_total_off_by_a_cent_names_the_rule() {
    let a = answers(&with_requests(json!([get("in-kaai-313-off")])));
    let rules: Vec<&str> = a[0].1["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .filter_map(|c| c["rule"].as_str())
        .collect();
    assert_eq!(rules, ["BR-CO-15"]);
}

#[test]
fn received_pdf_is_a_document_without_amounts() {
    let a = answers(&with_requests(json!([
        get("in-mail-scan"),
        {"client": "erp", "method": "GET", "path": "/documents/in-mail-scan/ubl"},
        {"method": "TICK"},
        get("in-mail-scan"),
    ])));
    let doc = &a[0].1;
    assert_eq!(
        doc["type"], "other_document",
        "the entry's type for bytes that are not UBL"
    );
    assert_eq!(doc["origin"], "mail");
    assert_eq!(doc["total_amount"], Value::Null);
    assert_eq!(doc["lines"], json!([]));
    assert_eq!(doc["pdf_available"], true);
    assert_eq!(doc["xml_available"], false);
    assert_eq!(doc["checks"][0]["rule"], "not_ubl");
    assert_eq!(a[1].0, 422);
    assert_eq!(a[1].1["detail"][0]["type"], "xml_not_available");
    assert_eq!(a[3].1, a[0].1, "TICK leaves received documents alone");
}

#[test]
fn received_ubl_answers_the_xml_it_came_with() {
    let sc = inbox();
    let a = answers(&with_requests(json!([
        {"client": "erp", "method": "GET", "path": "/documents/in-kaai-311/ubl"}
    ])));
    assert_eq!(a[0].0, 200);
    assert_eq!(a[0].1["xml"], sc["received"][0]["ubl"]);
    assert_eq!(a[0].1["findings"], json!([]));
}

#[test]
fn received_patch_paid_amount_only() {
    let patch = |body: Value| json!({"client": "erp", "method": "PATCH", "path": "/documents/in-kaai-311", "body": body});
    let a = answers(&with_requests(json!([
        patch(json!({"paid_amount": 494.35})),
        patch(json!({"paid_amount": 500})),
        patch(json!({"buyer_reference": "LUMEN-2026-88", "relation_id": "rel-kaai"})),
        patch(json!({"buyer_reference": "OTHER", "type": "sale_invoice", "lines": []})),
        patch(json!({"paid_amount": "1.234"})),
        get("in-kaai-311"),
    ])));
    assert_eq!(a[0].0, 200);
    assert_eq!(a[0].1["payment_status"], "paid");
    assert_eq!(a[0].1["remaining_amount"].to_string(), "0.00");
    assert_eq!(a[1].0, 422);
    assert_eq!(a[1].1["detail"][0]["type"], "paid_amount_above_total");
    assert_eq!(
        a[2].0, 200,
        "values the document already has are not changes"
    );
    assert_eq!(a[3].0, 422);
    let mut got: Vec<(String, String)> = a[3].1["detail"]
        .as_array()
        .expect("detail")
        .iter()
        .map(|e| {
            (
                e["type"].as_str().unwrap_or("").to_owned(),
                e["loc"][1].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    got.sort();
    assert_eq!(
        got,
        [
            ("read_only".to_owned(), "type".to_owned()),
            ("received_document".to_owned(), "buyer_reference".to_owned()),
            ("received_document".to_owned(), "lines".to_owned()),
        ]
    );
    assert_eq!(a[4].1["detail"][0]["type"], "decimal_max_places");
    assert_eq!(
        a[5].1["paid_amount"].to_string(),
        "494.35",
        "refused PATCHes change nothing"
    );
}

#[test]
fn received_document_is_never_sent_and_takes_no_back_office_state() {
    let a = answers(&with_requests(json!([
        {"client": "erp", "method": "POST", "path": "/documents/in-kaai-311/send", "body": {"peppol": true}},
        {"client": "erp", "method": "POST", "path": "/documents/in-kaai-311/send", "body": {"peppol": "maybe"}},
        {"method": "SET", "path": "/documents/in-kaai-311", "body": {"peppol_status": "sent"}},
    ])));
    assert_eq!(a[0].0, 422);
    assert_eq!(a[0].1["detail"][0]["type"], "received_document");
    assert_eq!(a[0].1["detail"][0]["loc"], json!(["path", "id"]));
    assert_eq!(
        a[1].1["detail"][0]["type"], "bool_parsing",
        "the body's shape answers first"
    );
    assert_eq!(a[2].0, 422);
    assert_eq!(a[2].1["detail"][0]["type"], "received_document");
}

#[test]
fn received_sandbox_patch_is_answered_not_applied() {
    let mut sc = with_requests(json!([
        {"client": "demo", "method": "PATCH", "path": "/documents/in-kaai-311", "body": {"paid_amount": 10}},
        get("in-kaai-311"),
    ]));
    sc["clients"]
        .as_array_mut()
        .expect("clients")
        .push(json!({"client_id": "demo", "client_secret": "d", "environment": "sandbox", "permissions": ["c", "u"]}));
    let a = answers(&sc);
    assert_eq!(a[0].1["paid_amount"].to_string(), "10.00");
    assert_eq!(a[1].1["paid_amount"].to_string(), "0.00");
}

#[test]
fn received_malformed_entries() {
    let cases = [
        (json!({"id": "x"}), "neither ubl nor base64"),
        (
            json!({"id": "x", "ubl": "<a/>", "base64": "AA=="}),
            "ubl and base64 together",
        ),
        (json!({"id": "x", "base64": "***"}), "not valid base64"),
        (json!({"id": "x", "ubl": ""}), "empty"),
        (
            json!({"id": "x", "ubl": "<a/>", "type": "invoice"}),
            "type must be one of",
        ),
        (
            json!({"id": "x", "ubl": "<a/>", "origin": "fax"}),
            "origin must be one of",
        ),
        (json!({"id": "doc-1", "ubl": "<a/>"}), "doc-N, sbx-N"),
        (json!({"id": "in-kaai-311", "ubl": "<a/>"}), "duplicate id"),
        (json!({"ubl": "<a/>"}), "missing id"),
        (
            json!({"id": "x", "ubl": "<a/>", "received_at": "yesterday"}),
            "received_at",
        ),
    ];
    for (entry, expected) in cases {
        let mut sc = with_requests(json!([]));
        sc["received"]
            .as_array_mut()
            .expect("received")
            .push(entry.clone());
        let out = run(sc.to_string().as_bytes());
        let msg = out["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{entry} was accepted"));
        assert!(msg.contains(expected), "{entry}: {msg}");
    }
    let mut sc = with_requests(json!([]));
    sc["documents"] = json!([{"id": "in-kaai-311", "create": {"type": "sale_invoice", "relation_id": "rel-kaai",
        "lines": [{"quantity": 1, "unit_price": 1, "vat_rate": 21}]}}]);
    let out = run(sc.to_string().as_bytes());
    assert!(
        out["error"]
            .as_str()
            .is_some_and(|m| m.contains("duplicate id")),
        "{out}"
    );
}
