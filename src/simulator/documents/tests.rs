use crate::document::{Document, PeppolStatus};
use crate::simulator::Simulator;
use serde_json::json;

fn sim() -> Simulator {
    let scenario = json!({
        "today": "2026-11-21",
        "clients": [{"client_id": "app", "client_secret": "s", "permissions": ["c", "u"]}],
        "relations": [{"id": "rel", "kind": "company", "peppol": true}],
        "journals": [{"id": "j", "category": "sales_invoice", "numbering": "yearly", "prefix": "INV", "default": true}],
        "requests": []
    });
    Simulator::load(scenario.to_string().as_bytes()).unwrap()
}

fn create(sim: &mut Simulator, query: &str) {
    let body = json!({"type": "sale_invoice", "relation_id": "rel",
            "lines": [{"item_name": "w", "quantity": 1, "unit_price": 1, "vat_rate": 21}]});
    let (status, _) = sim.handle(&json!({"client": "app", "method": "POST",
            "path": format!("/documents{query}"), "body": body}));
    assert_eq!(status, 201);
}

fn pending(sim: &Simulator) -> Vec<&str> {
    sim.store
        .documents
        .pending
        .iter()
        .map(String::as_str)
        .collect()
}

#[test]
fn tick_visits_only_the_pending_documents() {
    // issue 12: TICK does not walk every document: the store keeps the ids of the
    // documents a TICK would change, and a TICK empties that set
    let mut sim = sim();
    create(&mut sim, "");
    create(&mut sim, "?send_peppol=true");
    assert_eq!(pending(&sim), ["doc-1", "doc-2"]);
    sim.handle(&json!({"method": "TICK"}));
    assert!(pending(&sim).is_empty());
    let doc = sim.document("doc-2").unwrap();
    assert_eq!(state(doc), (true, true, PeppolStatus::Sent));
    create(&mut sim, "");
    assert_eq!(pending(&sim), ["doc-3"]);
}

#[test]
fn set_and_send_make_a_document_pending_again() {
    // docs/scenario.md: TICK delivers what SET or a send leaves undelivered
    let mut sim = sim();
    create(&mut sim, "");
    sim.handle(&json!({"method": "TICK"}));
    let (status, _) = sim.handle(&json!({"method": "SET", "path": "/documents/doc-1",
            "body": {"pdf_available": false}}));
    assert_eq!(status, 200);
    assert_eq!(pending(&sim), ["doc-1"]);
    sim.handle(&json!({"method": "TICK"}));
    assert!(pending(&sim).is_empty());
    let (status, _) = sim.handle(&json!({"client": "app", "method": "POST",
            "path": "/documents/doc-1/send", "body": {"peppol": true}}));
    assert_eq!(status, 200);
    assert_eq!(pending(&sim), ["doc-1"]);
    sim.handle(&json!({"method": "TICK"}));
    assert_eq!(
        state(sim.document("doc-1").unwrap()),
        (true, true, PeppolStatus::Sent)
    );
}

/// The files and the Peppol status of a document.
fn state(doc: &Document) -> (bool, bool, PeppolStatus) {
    (doc.pdf_available, doc.xml_available, doc.peppol_status)
}
