//! Helpers: the world of the worked examples, and running requests through it.

use invoicing_core::simulator::{run, Simulator};
use serde_json::Value;

/// JSON from text, numbers kept exactly as written (`json!` would pass `4.20`
/// through a float).
pub fn j(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("bad test json {text}: {e}"))
}

/// The world of the spec's worked examples, plus a client without permissions and a
/// preloaded-document-free setup; `requests` is empty.
pub fn base() -> Value {
    j(r#"{
      "today": "2026-11-21",
      "company": {"self_billing": false, "legal_notice": "Our general terms of sale apply."},
      "clients": [
        {"client_id": "app", "client_secret": "s3cret", "environment": "live", "permissions": ["c", "u"]},
        {"client_id": "sbx", "client_secret": "sandb0x", "environment": "sandbox", "permissions": ["c", "u"]},
        {"client_id": "creator", "client_secret": "c-only", "environment": "live", "permissions": ["c"]},
        {"client_id": "updater", "client_secret": "u-only", "environment": "live", "permissions": ["u"]},
        {"client_id": "reader", "client_secret": "r-only", "environment": "live", "permissions": []}
      ],
      "relations": [
        {"id": "rel-acme", "kind": "company", "payment_terms": "30-fm", "peppol": true},
        {"id": "rel-beta", "kind": "company", "peppol": false},
        {"id": "rel-jan", "kind": "contact", "peppol": false}
      ],
      "journals": [
        {"id": "jrn-sales", "category": "sales_invoice", "numbering": "yearly", "prefix": "INV", "default": true, "next": 1},
        {"id": "jrn-sales-b", "category": "sales_invoice", "numbering": "never", "prefix": "B", "default": false, "next": 5},
        {"id": "jrn-credit", "category": "sales_credit", "numbering": "yearly", "prefix": "CN", "default": true},
        {"id": "jrn-proforma", "category": "proforma", "numbering": "never", "prefix": "PF", "default": true}
      ],
      "delivery_locations": [
        {"id": "loc-1", "relation_id": "rel-acme", "name": "Warehouse",
         "address": {"street": "Kaai", "street_number": "1", "street2": "", "postal_code": "2000",
                     "city": "Antwerpen", "province": "Antwerpen", "country_code": "BE"},
         "identifier": "5410000000000", "identifier_scheme": "0088"},
        {"id": "loc-2", "relation_id": "rel-acme", "name": "Shop",
         "address": {"street": "Kaai", "street_number": "1", "street2": "", "postal_code": "2800",
                     "city": "Mechelen", "province": "Antwerpen", "country_code": "BE"},
         "identifier": "5410000000000", "identifier_scheme": "0088"},
        {"id": "loc-3", "relation_id": "rel-beta", "name": "Depot",
         "address": {"street": "Kaai", "street_number": "1", "street2": "", "postal_code": "9000",
                     "city": "Gent", "province": "Oost-Vlaanderen", "country_code": "BE"},
         "identifier": "5410000000000", "identifier_scheme": "0088"}
      ],
      "brandings": [{"id": "brd-1", "name": "Main", "default": true}, {"id": "brd-2", "name": "Second", "default": false}],
      "requests": []
    }"#)
}

/// A valid create body: one line of 2 × 9.99 at 21 % to rel-acme.
pub fn invoice() -> Value {
    j(r#"{"type": "sale_invoice", "relation_id": "rel-acme",
          "lines": [{"item_name": "Widget", "quantity": 2, "unit_price": 9.99, "vat_rate": 21}]}"#)
}

/// `POST /documents` (with `query` appended to the path) by `client`.
pub fn create_request(client: &str, query: &str, body: &Value) -> Value {
    serde_json::json!({"client": client, "method": "POST", "path": format!("/documents{query}"), "body": body})
}

/// A request by `client` without a body.
pub fn request(client: &str, method: &str, path: &str) -> Value {
    serde_json::json!({"client": client, "method": method, "path": path})
}

/// A request by `client` with a JSON body.
pub fn request_with(client: &str, method: &str, path: &str, body: &Value) -> Value {
    serde_json::json!({"client": client, "method": method, "path": path, "body": body})
}

/// `scenario` with these requests.
pub fn with_requests(mut scenario: Value, requests: Vec<Value>) -> Value {
    scenario["requests"] = Value::Array(requests);
    scenario
}

/// Runs `scenario` (which must be well formed) and answers its responses.
pub fn responses(scenario: &Value) -> Vec<(u16, Value)> {
    let out = run(scenario.to_string().as_bytes());
    let Some(list) = out.get("responses").and_then(Value::as_array) else {
        panic!("the scenario is malformed: {out}");
    };
    list.iter()
        .map(|r| {
            let status = r["status"]
                .as_u64()
                .and_then(|s| u16::try_from(s).ok())
                .unwrap_or(0);
            (status, r["body"].clone())
        })
        .collect()
}

/// Runs the base world with these requests.
pub fn answers(requests: Vec<Value>) -> Vec<(u16, Value)> {
    responses(&with_requests(base(), requests))
}

/// Loads `scenario` as a simulator (which must be well formed).
pub fn simulator(scenario: &Value) -> Simulator {
    Simulator::from_json(scenario).unwrap_or_else(|e| panic!("the scenario is malformed: {e}"))
}

/// The message of a malformed scenario (panics when it is well formed).
pub fn malformed(scenario: &Value) -> String {
    malformed_bytes(scenario.to_string().as_bytes())
}

/// The message of malformed scenario bytes: `run` answers `{"error": …}` and nothing else.
pub fn malformed_bytes(bytes: &[u8]) -> String {
    let out = run(bytes);
    let Some(obj) = out.as_object() else {
        panic!("run answered a non-object: {out}");
    };
    assert_eq!(
        obj.len(),
        1,
        "a malformed scenario answers only the error: {out}"
    );
    match obj.get("error") {
        Some(Value::String(message)) => message.clone(),
        _ => panic!("the scenario is not malformed: {out}"),
    }
}

/// The `(type, loc)` pairs of an error body.
pub fn error_types(body: &Value) -> Vec<(String, Value)> {
    body["detail"]
        .as_array()
        .unwrap_or_else(|| panic!("not an error body: {body}"))
        .iter()
        .map(|e| {
            (
                e["type"].as_str().unwrap_or_default().to_owned(),
                e["loc"].clone(),
            )
        })
        .collect()
}

/// Asserts an answer is `status` with exactly one error `code` at `loc`.
pub fn assert_error(answer: &(u16, Value), status: u16, code: &str, loc: &Value) {
    assert_eq!(answer.0, status, "status of {}", answer.1);
    assert_eq!(
        error_types(&answer.1),
        vec![(code.to_owned(), loc.clone())],
        "errors of {}",
        answer.1
    );
}

/// The text with the base64 content of every `cbc:EmbeddedDocumentBinaryObject`
/// replaced by its size and SHA-256 (`[38622 bytes, sha256 …]`): a snapshot pins each
/// embedded file byte for byte without holding it.
pub fn redact_files(text: &str) -> String {
    use std::fmt::Write as _;
    const OPEN: &str = "<cbc:EmbeddedDocumentBinaryObject";
    const CLOSE: &str = "</cbc:EmbeddedDocumentBinaryObject>";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(OPEN) {
        let Some(gt) = rest[start..].find('>').map(|i| start + i + 1) else {
            break;
        };
        let Some(end) = rest[gt..].find(CLOSE).map(|i| gt + i) else {
            break;
        };
        let bytes = invoicing_core::attachment::decode_base64(&rest[gt..end])
            .unwrap_or_else(|| panic!("embedded content is not base64"));
        out.push_str(&rest[..gt]);
        let _ = write!(
            out,
            "[{} bytes, sha256 {}]",
            bytes.len(),
            invoicing_core::attachment::sha256_hex(&bytes)
        );
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}
