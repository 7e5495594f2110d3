//! A create body: any JSON value posted to `/documents` in a fixed world.
//!
//! The first byte picks the caller and the query (`b'0' + n` keeps seeds readable):
//! 0: live client with `c`+`u`, `/documents`;
//! 1: live client with `c`+`u`, `/documents?send_peppol=true`;
//! 2: sandbox client with `c`+`u`, `/documents`;
//! 3: live client with only `c`, `/documents?send_peppol=true` (always 403);
//! the rest of the bytes, when valid JSON, is the body.
//!
//! Invariants (docs/decisions.md §2, §3, §5, §7, §8, §9, docs/scenario.md):
//! - the create answers 201 or 422 (403 `permission_denied` alone in variant 3);
//! - 201: the document satisfies the totals identities, every amount written with
//!   exactly the currency's minor-unit decimals, in the state of a new document; its
//!   id is `doc-1` (live) or `sbx-1` (sandbox); a live GET answers it byte for byte,
//!   a sandbox id never resolves;
//! - 422: a non-empty `detail`, every entry with a loc starting with "body" or
//!   "query", a msg and a 422 code; nothing is written (GET doc-1 is 404), but for
//!   `send_failed`, which leaves the document created and numbered.
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
        "now": "2026-11-21T10:30:00Z",
        "company": {
            "self_billing": true,
            "legal_notice": "Our general terms of sale apply.",
            "exemption_mentions": {"intra_community": "Intra-Community supply, art. 39bis"}
        },
        "clients": [
            {"client_id": "app", "client_secret": "s3cret", "environment": "live", "permissions": ["c", "u"]},
            {"client_id": "sbx", "client_secret": "sandb0x", "environment": "sandbox", "permissions": ["c", "u"]},
            {"client_id": "creator", "client_secret": "c-only", "environment": "live", "permissions": ["c"]}
        ],
        "relations": [
            {"id": "rel-acme", "kind": "company", "payment_terms": "30-fm", "peppol": true},
            {"id": "rel-beta", "kind": "company", "peppol": false},
            {"id": "rel-gamma", "kind": "company", "payment_terms": "60-mf", "peppol": true},
            {"id": "rel-jan", "kind": "contact", "peppol": false}
        ],
        "journals": [
            {"id": "jrn-sales", "category": "sales_invoice", "numbering": "yearly", "prefix": "INV", "default": true, "next": 1},
            {"id": "jrn-sales-b", "category": "sales_invoice", "numbering": "never", "prefix": "B", "default": false, "next": 5},
            {"id": "jrn-sales-m", "category": "sales_invoice", "numbering": "monthly", "prefix": "M", "default": false, "next": 9999},
            {"id": "jrn-credit", "category": "sales_credit", "numbering": "yearly", "prefix": "CN", "default": true, "next": 1},
            {"id": "jrn-proforma", "category": "proforma", "numbering": "never", "prefix": "PF", "default": true, "next": 1},
            {"id": "jrn-purch", "category": "purchases_invoice", "numbering": "yearly", "prefix": "SB", "default": true, "next": 1}
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
    let variant = selector % 4;
    let (client, path, sandbox) = match variant {
        0 => ("app", "/documents", false),
        1 => ("app", "/documents?send_peppol=true", false),
        2 => ("sbx", "/documents", true),
        _ => ("creator", "/documents?send_peppol=true", false),
    };
    let mut scenario = world();
    scenario["requests"] = json!([
        {"client": client, "method": "POST", "path": path, "body": body},
        {"client": "app", "method": "GET", "path": "/documents/doc-1"},
        {"client": "app", "method": "GET", "path": "/documents/sbx-1"}
    ]);
    let out = run(text(&scenario).as_bytes());
    let responses = check_run_output(&out)
        .unwrap_or_else(|| panic!("the fixed world was refused: {}", text(&out)));
    invoicing_core_fuzz::debug_responses(responses);
    assert_eq!(responses.len(), 3);
    let (status, created) = check_response(&responses[0]);
    let (get_status, got) = check_response(&responses[1]);
    let (sbx_status, _) = check_response(&responses[2]);
    assert_eq!(sbx_status, 404, "a sandbox id resolved");
    if variant == 3 {
        assert_eq!(
            status,
            403,
            "send_peppol=true without `u` must be refused first: {}",
            text(created)
        );
        assert_eq!(
            error_types(created),
            ["permission_denied"],
            "a 403 carries no other error"
        );
        assert_eq!(get_status, 404, "a refused create wrote a document");
        return;
    }
    match status {
        201 => {
            check_document(created, Origin::Created);
            assert_eq!(
                created.get("create_date").and_then(Value::as_str),
                Some("2026-11-21T10:30:00Z"),
                "create_date is not the scenario's now"
            );
            let id = created.get("id").and_then(Value::as_str);
            if sandbox {
                assert_eq!(id, Some("sbx-1"));
                assert_eq!(get_status, 404, "a sandbox create was kept");
            } else {
                assert_eq!(id, Some("doc-1"));
                assert_eq!(get_status, 200, "a created document does not resolve");
                assert_eq!(
                    text(got),
                    text(created),
                    "GET does not answer the created document"
                );
            }
            let peppol = created.get("peppol_status").and_then(Value::as_str);
            if variant == 1 {
                assert_eq!(
                    peppol,
                    Some("sending"),
                    "send_peppol=true did not start the send"
                );
            } else {
                assert_eq!(peppol, Some("not_sent"));
            }
        }
        422 => {
            check_error_body(422, created, &["body", "query"]);
            let send_failed = error_types(created).contains(&"send_failed");
            if send_failed {
                assert_eq!(variant, 1, "send_failed without send_peppol");
                assert_eq!(
                    error_types(created),
                    ["send_failed"],
                    "send_failed comes with other errors"
                );
                let ctx = created["detail"][0].get("ctx");
                assert_eq!(
                    ctx.and_then(|c| c.get("document_id"))
                        .and_then(Value::as_str),
                    Some("doc-1"),
                    "send_failed does not name the document: {}",
                    text(created)
                );
                assert_eq!(get_status, 200, "send_failed: the document must exist");
                check_document(got, Origin::Created);
                assert_eq!(
                    got.get("peppol_status").and_then(Value::as_str),
                    Some("not_sent")
                );
            } else {
                assert_eq!(
                    get_status,
                    404,
                    "a refused create wrote a document: {}",
                    text(got)
                );
            }
        }
        other => panic!("a create answered {other}: {}", text(created)),
    }
});
