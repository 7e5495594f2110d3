//! The PDF renderer (docs/files.md §2): any accepted document, with arbitrary party
//! strings (any Unicode, names of 10 000 characters and more) and arbitrary item
//! texts and amounts (up to the 10^15 bound), rendered as the document's PDF.
//!
//! Input: a JSON object `{"company": PARTY, "relation": PARTY, "lines": [LINE...],
//! "language": "en"|"nl"|"fr"|"de", "type": TYPE, "repeat": N}`. Each PARTY key is a
//! string taken as given (repeated `repeat` times, at most 10 000 characters, to reach
//! long names); the lines are create lines. The document is created through the
//! simulator in a fixed world (a refused body ends the run), a `TICK` makes its PDF,
//! and `GET /documents/doc-1/pdf` answers it.
//!
//! Invariants:
//! - the renderer never panics; an accepted document always has a PDF after the TICK;
//! - the bytes start with `%PDF-` and read back as a PDF with lopdf (an independent
//!   PDF reader), with at least one page;
//! - the answer's size and SHA-256 are those of the bytes;
//! - same input, same bytes.
#![no_main]

use invoicing_core::attachment::{decode_base64, sha256_hex};
use invoicing_core::simulator::Simulator;
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Map, Value};

const PARTY_KEYS: [&str; 6] = [
    "name",
    "vat_number",
    "enterprise_number",
    "iban",
    "bic",
    "email",
];

/// A party record from the input: each key a string, repeated up to 10 000 chars.
fn party(input: &Value, repeat: usize) -> Map<String, Value> {
    let mut m = Map::new();
    for k in PARTY_KEYS {
        if let Some(Value::String(s)) = input.get(k) {
            let long: String = s.repeat(repeat.max(1)).chars().take(10_000).collect();
            m.insert(k.to_owned(), Value::String(long));
        }
    }
    if let Some(Value::Object(a)) = input.get("address") {
        let address: Map<String, Value> = a
            .iter()
            .filter(|(_, v)| v.is_string())
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        m.insert("address".to_owned(), Value::Object(address));
    }
    m
}

fn pdf_of(scenario: &Value) -> Option<Vec<u8>> {
    let mut sim = Simulator::load(scenario.to_string().as_bytes()).ok()?;
    let out = sim.run_requests();
    let responses = out["responses"].as_array()?;
    if responses.first()?["status"] != 201 {
        return None;
    }
    let pdf = &responses.get(2)?;
    assert_eq!(
        pdf["status"], 200,
        "an accepted document has a PDF after the TICK: {pdf}"
    );
    let body = &pdf["body"];
    let bytes = decode_base64(body["base64"].as_str().unwrap_or_default())
        .unwrap_or_else(|| panic!("the PDF answer's base64 decodes"));
    assert_eq!(body["size"].as_u64(), u64::try_from(bytes.len()).ok());
    assert_eq!(body["sha256"].as_str(), Some(sha256_hex(&bytes).as_str()));
    Some(bytes)
}

fuzz_target!(|data: &[u8]| {
    let Ok(input) = invoicing_core::json::from_slice(data) else {
        return;
    };
    if invoicing_core_fuzz::depth(&input) > 16 {
        return;
    }
    let repeat = usize::try_from(input["repeat"].as_u64().unwrap_or(1).min(10_000)).unwrap_or(1);
    let mut company = party(&input["company"], repeat);
    company.insert("self_billing".into(), json!(true));
    if let Some(l) = input["language"]
        .as_str()
        .filter(|l| ["en", "nl", "fr", "de"].contains(l))
    {
        company.insert("language".into(), json!(l));
    }
    let mut relation = party(&input["relation"], repeat);
    relation.insert("id".into(), json!("rel-1"));
    relation.insert("kind".into(), json!("company"));
    let doc_type = input["type"].as_str().unwrap_or("sale_invoice");
    let body = json!({"type": doc_type, "relation_id": "rel-1", "lines": input["lines"].clone(),
                      "buyer_reference": input["buyer_reference"].clone()});
    let scenario = json!({
        "today": "2026-11-21",
        "company": company,
        "clients": [{"client_id": "app", "client_secret": "s", "permissions": ["c", "u"]}],
        "relations": [relation],
        "journals": [
            {"id": "si", "category": "sales_invoice", "numbering": "yearly", "prefix": "INV", "default": true},
            {"id": "sc", "category": "sales_credit", "numbering": "yearly", "prefix": "CN", "default": true},
            {"id": "pi", "category": "purchases_invoice", "numbering": "yearly", "prefix": "SB", "default": true},
            {"id": "pc", "category": "purchases_credit", "numbering": "yearly", "prefix": "SBC", "default": true},
            {"id": "pf", "category": "proforma", "numbering": "never", "prefix": "PF", "default": true}
        ],
        "requests": [
            {"client": "app", "method": "POST", "path": "/documents", "body": body},
            {"method": "TICK"},
            {"client": "app", "method": "GET", "path": "/documents/doc-1/pdf"}
        ]
    });
    let Some(bytes) = pdf_of(&scenario) else {
        return;
    };
    assert!(bytes.starts_with(b"%PDF-"), "a PDF starts with %PDF-");
    let doc = lopdf::Document::load_mem(&bytes)
        .unwrap_or_else(|e| panic!("the PDF reads back with lopdf: {e}"));
    assert!(!doc.get_pages().is_empty(), "the PDF has at least one page");
    assert_eq!(
        pdf_of(&scenario).as_deref(),
        Some(&bytes[..]),
        "same input, same bytes"
    );
});
