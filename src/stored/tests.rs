use super::*;
use crate::compute::PaymentStatus;
use crate::context::Permissions;
use crate::document::{AccountingStatus, DocumentType, MailStatus, PeppolStatus};
use crate::money::Currency;
use crate::numbering::Numbering;
use crate::numbering::{JournalCategory, Window};
use crate::simulator::Simulator;
use crate::strategies;
use crate::terms::Basis;
use crate::vat::VatCode;
use proptest::prelude::*;
use serde_json::json;

fn sim() -> Simulator {
    Simulator::from_json(&strategies::scenario()).unwrap()
}

fn round_trip(doc: &StoredDocument) -> StoredDocument {
    let bytes = doc.store();
    let loaded = StoredDocument::load(&bytes).unwrap();
    assert_eq!(
        loaded.store(),
        bytes,
        "store → load → store is byte-identical"
    );
    loaded
}

#[test]
fn stored_form_is_versioned_and_tagged() {
    let sim = sim();
    let body: Value = serde_json::from_str(
        r#"{"type": "sale_invoice", "relation_id": "rel-company",
            "lines": [{"quantity": 2, "unit_price": 9.990, "vat_rate": 21}]}"#,
    )
    .unwrap();
    let doc = crate::lifecycle::create(sim.world(), Permissions::ALL, None, Some(&body), "doc-1")
        .unwrap()
        .document;
    let bytes = StoredDocument::Issued(doc.clone()).store();
    let v: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(v["version"], 1);
    assert_eq!(v["kind"], "issued");
    assert_eq!(v["document"]["numbering"], "yearly");
    assert_eq!(v["document"]["numbered_on"], "2026-11-21");
    assert_eq!(v["document"]["lines"][0]["unit_price"], "9.990");
    assert_eq!(v["document"]["computation"]["total_amount"], "24.18");
    let loaded = round_trip(&StoredDocument::Issued(doc.clone()));
    assert_eq!(loaded, StoredDocument::Issued(doc));
}

#[test]
fn stored_form_refuses_unknown_versions_kinds_and_keys() {
    let sim = sim();
    let body = json!({"type": "sale_invoice", "relation_id": "rel-company",
        "lines": [{"quantity": 1, "unit_price": 1, "vat_rate": 21}]});
    let doc = crate::lifecycle::create(sim.world(), Permissions::ALL, None, Some(&body), "doc-1")
        .unwrap()
        .document;
    let v: Value = serde_json::from_slice(&StoredDocument::Issued(doc).store()).unwrap();
    let mut wrong_version = v.clone();
    wrong_version["version"] = json!(2);
    let mut wrong_kind = v.clone();
    wrong_kind["kind"] = json!("draft");
    let mut extra = v.clone();
    extra["document"]["colour"] = json!("red");
    let mut unaligned = v.clone();
    unaligned["document"]["exemptions"] = json!([null, null]);
    let mut both = v;
    both["document"]["lines"][0]["allowance_charges"] =
        json!([{"type": "allowance", "amount": "1", "rate": "2", "reason": null, "code": null}]);
    for bad in [wrong_version, wrong_kind, extra, unaligned, both] {
        assert!(
            StoredDocument::load(bad.to_string().as_bytes()).is_err(),
            "{bad}"
        );
    }
    assert!(StoredDocument::load(b"not json").is_err());
    assert!(StoredDocument::load(b"").is_err());
}

#[test]
fn stored_received_documents_round_trip_with_what_the_world_keeps() {
    let scenario = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/scenarios/inbox.json"
    ))
    .unwrap();
    let sim = Simulator::load(&scenario).unwrap();
    let docs = sim.stored_documents();
    assert!(docs
        .iter()
        .any(|d| matches!(d, StoredDocument::Received(_))));
    for doc in &docs {
        let loaded = round_trip(doc);
        assert_eq!(&loaded, doc);
        assert_eq!(loaded.to_json(), doc.to_json());
        let mut request = json!({"client": "app", "method": "GET", "path": ""});
        request["path"] = json!(format!("/documents/{}", doc.id()));
        let mut s = sim.clone();
        let (status, body) = s.handle(&request);
        if status == 200 {
            assert_eq!(
                body,
                loaded.to_json(),
                "GET answers the stored form's response"
            );
        }
    }
}

#[test]
fn closed_sets_parse_what_they_display() {
    for t in DocumentType::ALL {
        assert_eq!(t.to_string().parse::<DocumentType>(), Ok(t));
    }
    for s in AccountingStatus::ALL {
        assert_eq!(s.to_string().parse::<AccountingStatus>(), Ok(s));
    }
    for s in PeppolStatus::ALL {
        assert_eq!(s.to_string().parse::<PeppolStatus>(), Ok(s));
    }
    for s in MailStatus::ALL {
        assert_eq!(s.to_string().parse::<MailStatus>(), Ok(s));
    }
    for c in VatCode::ALL {
        assert_eq!(c.to_string().parse::<VatCode>(), Ok(c));
    }
    for c in JournalCategory::ALL {
        assert_eq!(c.to_string().parse::<JournalCategory>(), Ok(c));
    }
    for n in [Numbering::Never, Numbering::Monthly, Numbering::Yearly] {
        assert_eq!(n.to_string().parse::<Numbering>(), Ok(n));
    }
    for k in [RelationKind::Company, RelationKind::Contact] {
        assert_eq!(k.to_string().parse::<RelationKind>(), Ok(k));
    }
    for p in ["unpaid", "partial", "paid", "unknown"] {
        assert_eq!(p.parse::<PaymentStatus>().unwrap().to_string(), p);
    }
    for w in [Window::Always, Window::Year(2026), Window::Month(2026, 3)] {
        assert_eq!(w.to_string().parse::<Window>(), Ok(w));
    }
    assert_eq!(Window::Month(2026, 3).to_string(), "2026-03");
    for bad in ["", "2026-13", "26", "2026-3", "always "] {
        assert!(bad.parse::<Window>().is_err(), "{bad}");
    }
    let err = "draft".parse::<DocumentType>().unwrap_err();
    assert_eq!(err.to_string(), "\"draft\" is not a valid document type");
    assert_eq!("EUR".parse::<Currency>().map(Currency::code), Ok("EUR"));
    assert_eq!("mf".parse::<Basis>().map(Basis::as_str), Ok("mf"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn stored_form_round_trip_is_byte_identical(doc in strategies::stored_document()) {
        let bytes = doc.store();
        let loaded = StoredDocument::load(&bytes).unwrap();
        prop_assert_eq!(loaded.store(), bytes);
        prop_assert_eq!(loaded.to_json(), doc.to_json());
        prop_assert_eq!(loaded, doc);
    }

    #[test]
    fn patch_on_a_loaded_document_answers_as_on_the_original(
        doc in strategies::issued_document(),
        patch in strategies::create_body(),
        paid in 0u32..=120,
    ) {
        let sim = sim();
        let loaded = match StoredDocument::load(&StoredDocument::Issued(doc.clone()).store()).unwrap() {
            StoredDocument::Issued(d) => d,
            StoredDocument::Received(_) => unreachable!(),
        };
        let mut bodies = vec![json!({"paid_amount": paid}), json!({"issue_date": "2026-01-02"})];
        if let Value::Object(mut m) = patch {
            m.remove("type");
            bodies.push(Value::Object(m));
        }
        for body in bodies {
            let a = crate::lifecycle::patch(sim.world(), Permissions::ALL, &doc, Some(&body));
            let b = crate::lifecycle::patch(sim.world(), Permissions::ALL, &loaded, Some(&body));
            prop_assert_eq!(a, b);
        }
        let send = json!({"peppol": true});
        prop_assert_eq!(
            crate::lifecycle::send(sim.world(), Permissions::ALL, &doc, Some(&send)),
            crate::lifecycle::send(sim.world(), Permissions::ALL, &loaded, Some(&send))
        );
    }
}
