//! The UBL writer (docs/peppol.md §2, §6): any accepted create body, with arbitrary party
//! and delivery location values, written as UBL.
//!
//! Input: a JSON object `{"body": CREATE BODY, "company": PARTY, "relation": PARTY,
//! "location": LOCATION}`. The body is posted to `/documents` in a fixed world (a
//! self-billing company, one relation `rel-1` with its delivery location `loc-1`);
//! a refused body ends the run. Then the company's, the relation's and the location's
//! keys are replaced by the input's, each a string taken as given (any other JSON
//! type is its JSON text; absent is absent), straight into the typed structs, so that
//! no scenario rule filters them, and `peppol::ubl` writes the document.
//!
//! Invariants:
//! - the writer never panics, and answers a UBL for every type but a proforma;
//! - the XML starts with `<?xml version="1.0" encoding="UTF-8"?>`, holds only
//!   characters XML 1.0 allows, and reads back with quick-xml to the end without an
//!   error (matching end names), with exactly one root element, `Invoice` or
//!   `CreditNote` as the type says;
//! - same input, same bytes and same findings;
//! - the findings are sorted by rule then loc, one per (rule, loc);
//! - the rules they name are the fatal rules the engine finds in the XML
//!   (`invoicing_core::ubl::validate`, every assert of the official artefacts): the
//!   writer's own findings and the engine are held equal.
#![no_main]

use invoicing_core::context::{Context, DeliveryLocation};
use invoicing_core::party::{Address, Party};
use invoicing_core::peppol::{ubl, UblFiles};
use invoicing_core::simulator::Simulator;
use invoicing_core_fuzz::{depth, text, MAX_BODY_DEPTH};
use libfuzzer_sys::fuzz_target;
use quick_xml::events::Event;
use quick_xml::Reader;
use serde_json::{json, Value};
use std::collections::BTreeSet;

fn world() -> Value {
    json!({
        "today": "2026-11-21",
        "now": "2026-11-21T10:30:00Z",
        "company": {"self_billing": true, "legal_notice": "Our general terms of sale apply.",
                    "exemption_mentions": {"intra_community": "Intra-Community supply, art. 39bis"}},
        "clients": [{"client_id": "app", "client_secret": "s", "environment": "live", "permissions": ["c", "u"]}],
        "relations": [{"id": "rel-1", "kind": "company", "payment_terms": "30-fm", "peppol": true}],
        "journals": [
            {"id": "jrn-si", "category": "sales_invoice", "numbering": "yearly", "prefix": "INV", "default": true},
            {"id": "jrn-sc", "category": "sales_credit", "numbering": "yearly", "prefix": "CN", "default": true},
            {"id": "jrn-pi", "category": "purchases_invoice", "numbering": "yearly", "prefix": "SB", "default": true},
            {"id": "jrn-pc", "category": "purchases_credit", "numbering": "yearly", "prefix": "SBC", "default": true},
            {"id": "jrn-pf", "category": "proforma", "numbering": "never", "prefix": "PF", "default": true}
        ],
        "delivery_locations": [
            {"id": "loc-1", "relation_id": "rel-1", "name": "Warehouse",
             "address": {"street": "Kaai", "street_number": "1", "postal_code": "2000",
                         "city": "Antwerpen", "country_code": "BE"},
             "identifier": "5410000000000", "identifier_scheme": "0088"}
        ],
        "requests": []
    })
}

/// A key of an input object as the writer reads it: a string as given, any other
/// JSON value as its text, absent or null as absent.
fn key(obj: &Value, k: &str) -> Option<String> {
    match obj.get(k) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => Some(text(other)),
    }
}

fn address(obj: &Value) -> Option<Address> {
    let a = obj.get("address")?;
    Some(Address {
        street: key(a, "street"),
        street_number: key(a, "street_number"),
        street2: key(a, "street2"),
        postal_code: key(a, "postal_code"),
        city: key(a, "city"),
        province: key(a, "province"),
        country_code: key(a, "country_code"),
    })
}

fn party(obj: &Value) -> Party {
    Party {
        name: key(obj, "name"),
        vat_number: key(obj, "vat_number"),
        enterprise_number: key(obj, "enterprise_number"),
        peppol_id: key(obj, "peppol_id"),
        address: address(obj),
        iban: key(obj, "iban"),
        bic: key(obj, "bic"),
        email: key(obj, "email"),
    }
}

/// Whether a character may appear in an XML 1.0 document.
fn xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// Reads the XML back to the end; answers the root element's name.
fn read_back(xml: &str) -> String {
    let mut reader = Reader::from_str(xml);
    let (mut depth, mut roots, mut root) = (0usize, 0usize, String::new());
    loop {
        match reader.read_event() {
            Ok(Event::Eof) => break,
            Ok(Event::Start(e)) => {
                if depth == 0 {
                    roots += 1;
                    root = <_ as AsRef<str>>::as_ref(&e.name()).to_owned();
                }
                depth += 1;
            }
            Ok(Event::End(_)) => depth -= 1,
            Ok(Event::Empty(e)) => {
                if depth == 0 {
                    roots += 1;
                    root = <_ as AsRef<str>>::as_ref(&e.name()).to_owned();
                }
            }
            Ok(Event::Text(t)) => assert!(depth > 0, "text outside the root element: {t:?}"),
            Ok(Event::GeneralRef(r)) => {
                assert!(depth > 0, "a reference outside the root element");
                let name = <_ as AsRef<str>>::as_ref(&r).to_owned();
                assert!(
                    matches!(name.as_str(), "amp" | "lt" | "gt" | "quot" | "apos")
                        || name.starts_with('#'),
                    "an entity XML does not predefine: &{name};\n{xml}"
                );
            }
            Ok(Event::DocType(_)) => panic!("a DOCTYPE in the UBL"),
            Ok(_) => {}
            Err(e) => panic!(
                "the UBL is not well-formed at {}: {e}\n{xml}",
                reader.error_position()
            ),
        }
    }
    assert_eq!(depth, 0, "unclosed elements\n{xml}");
    assert_eq!(roots, 1, "{roots} root elements\n{xml}");
    root
}

fuzz_target!(|data: &[u8]| {
    let Ok(input) = invoicing_core::json::from_slice(data) else {
        return;
    };
    if depth(&input) > MAX_BODY_DEPTH + 2 {
        return;
    }
    let Some(body) = input.get("body") else {
        return;
    };
    let Ok(mut sim) = Simulator::from_json(&world()) else {
        panic!("the fixed world was refused");
    };
    let (status, created) =
        sim.handle(&json!({"client": "app", "method": "POST", "path": "/documents", "body": body}));
    if status != 201 {
        return;
    }
    let id = created["id"].as_str().unwrap_or_default().to_owned();
    let Some(doc) = sim.document(&id) else {
        panic!("a created document does not resolve: {id}");
    };
    let world = sim.world();
    let mut company = world.company().clone();
    let Some(mut relation) = world.relation("rel-1").ok().flatten() else {
        panic!("the fixed relation is gone");
    };
    let empty = json!({});
    company.party = party(input.get("company").unwrap_or(&empty));
    relation.party = party(input.get("relation").unwrap_or(&empty));
    let location = input.get("location").map(|l| DeliveryLocation {
        id: "loc-1".to_owned(),
        relation_id: "rel-1".to_owned(),
        name: key(l, "name"),
        address: address(l),
        identifier: key(l, "identifier"),
        identifier_scheme: key(l, "identifier_scheme"),
    });
    let doc_type = created["type"].as_str().unwrap_or_default();
    let Some(out) = ubl(
        doc,
        &company,
        &relation,
        location.as_ref(),
        &UblFiles::default(),
    )
    .ok()
    .flatten() else {
        assert_eq!(doc_type, "proforma_invoice", "no UBL for a {doc_type}");
        return;
    };
    assert_ne!(doc_type, "proforma_invoice", "a proforma got a UBL");
    let xml = &out.xml;
    assert!(
        xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"),
        "no XML declaration: {xml}"
    );
    if let Some(c) = xml.chars().find(|&c| !xml_char(c)) {
        panic!("a character XML 1.0 does not allow: {c:?}\n{xml}");
    }
    let root = read_back(xml);
    let expected = if doc_type.ends_with("credit_note") {
        "CreditNote"
    } else {
        "Invoice"
    };
    assert_eq!(root, expected, "the root of a {doc_type}");
    let again = ubl(
        doc,
        &company,
        &relation,
        location.as_ref(),
        &UblFiles::default(),
    )
    .ok()
    .flatten();
    assert_eq!(
        again.as_ref(),
        Some(&out),
        "same input, other bytes or findings"
    );
    let keys: Vec<String> = out
        .findings
        .iter()
        .map(|f| format!("{}\u{0}{}", f.rule, text(&f.loc.to_json())))
        .collect();
    let mut unique = keys.clone();
    unique.dedup();
    assert_eq!(unique.len(), keys.len(), "a (rule, loc) repeated: {keys:?}");
    assert!(
        out.findings.windows(2).all(|w| w[0] <= w[1]),
        "findings not sorted by rule then loc"
    );
    let Ok(report) = invoicing_core::ubl::validate(xml.as_bytes()) else {
        panic!("the engine cannot read the UBL\n{xml}");
    };
    let engine: BTreeSet<&str> = report
        .findings
        .iter()
        .filter(|f| f.fatal)
        .map(|f| f.rule)
        .collect();
    let writer: BTreeSet<&str> = out.findings.iter().map(|f| f.rule.as_str()).collect();
    assert_eq!(writer, engine, "the writer's findings are not the engine's fatal rules\n{xml}");
});
