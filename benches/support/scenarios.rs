//! Scenarios (docs/scenario.md) of the whole-simulator benches: the bench world as a
//! scenario's keys, and scenarios of creates or delivery locations.

// Each bench uses part of the support files.
#![allow(dead_code)]

use crate::world::body;
use serde_json::{json, Value};

/// The world of a scenario (docs/scenario.md) like the bench world: the company and
/// `rel-acme` with their party keys, a client `app` allowed to create and update, a
/// yearly sales journal; no requests.
pub fn scenario_world() -> Value {
    let address = |street: &str, number: &str, postal: &str, city: &str| {
        json!({"street": street, "street_number": number, "postal_code": postal,
               "city": city, "country_code": "BE"})
    };
    json!({
        "today": "2026-11-21",
        "now": "2026-11-21T08:30:00Z",
        "company": {
            "name": "Atelier Lumen BV", "vat_number": "BE0123456749",
            "enterprise_number": "0123456749", "peppol_id": "0208:0123456749",
            "iban": "BE68539007547034", "bic": "GKCCBEBB",
            "email": "billing@atelier-lumen.example", "currencies": ["EUR"],
            "address": address("Meir", "24", "2000", "Antwerpen"),
        },
        "clients": [{"client_id": "app", "client_secret": "s3cret", "permissions": ["c", "u"]}],
        "relations": [{
            "id": "rel-acme", "kind": "company", "peppol": true, "payment_terms": "30-df",
            "name": "Acme NV", "vat_number": "BE0412345614",
            "enterprise_number": "0412345614", "peppol_id": "0208:0412345614",
            "address": address("Rue du Parc", "14", "4000", "Liège"),
        }],
        "journals": [{"id": "jrn-inv", "category": "sales_invoice", "numbering": "yearly",
                      "prefix": "INV", "default": true, "next": 1}],
        "requests": [],
    })
}

/// A scenario of `count` creates of the `lines`-line body of [`body`].
pub fn scenario_creates(count: usize, lines: usize) -> Vec<u8> {
    let mut scenario = scenario_world();
    let body: Value = serde_json::from_slice(&body(lines)).unwrap_or(Value::Null);
    scenario["requests"] = (0..count)
        .map(|_| json!({"client": "app", "method": "POST", "path": "/documents", "body": body}))
        .collect();
    serde_json::to_vec(&scenario).unwrap_or_default()
}

/// A scenario of `n` creates of a 10-line document, each followed by a TICK.
pub fn scenario_creates_and_ticks(n: usize) -> Vec<u8> {
    let mut scenario = scenario_world();
    let body: Value = serde_json::from_slice(&body(10)).unwrap_or(Value::Null);
    let create = json!({"client": "app", "method": "POST", "path": "/documents", "body": body});
    let tick = json!({"method": "TICK"});
    scenario["requests"] = (0..n)
        .flat_map(|_| [create.clone(), tick.clone()])
        .collect();
    serde_json::to_vec(&scenario).unwrap_or_default()
}

/// A scenario of `n` relations with one delivery location each, and `n` reads
/// `GET /delivery-locations?relation_id=…`, one per relation.
pub fn scenario_location_reads(n: usize) -> Vec<u8> {
    let mut scenario = scenario_world();
    let relation = scenario["relations"][0].clone();
    scenario["relations"] = (0..n)
        .map(|i| {
            let mut r = relation.clone();
            r["id"] = json!(format!("rel-{i}"));
            r
        })
        .collect();
    scenario["delivery_locations"] = (0..n)
        .map(|i| {
            json!({"id": format!("loc-{i}"), "relation_id": format!("rel-{i}"),
                   "name": format!("Dock {i}"), "identifier": format!("54100000{:05}", i % 100_000),
                   "identifier_scheme": "0088",
                   "address": {"street": "Rue du Parc", "street_number": i.to_string(),
                               "postal_code": "4000", "city": "Liège", "country_code": "BE"}})
        })
        .collect();
    scenario["requests"] = (0..n)
        .map(|i| json!({"client": "app", "method": "GET", "path": format!("/delivery-locations?relation_id=rel-{i}")}))
        .collect();
    serde_json::to_vec(&scenario).unwrap_or_default()
}
