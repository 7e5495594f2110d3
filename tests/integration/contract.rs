//! The contract a server relies on: the counter rule at its end (u64::MAX), and a
//! storage error answering 500 `internal_error`, never a 4xx.

use chrono::{DateTime, NaiveDate, Utc};
use invoicing_core::context::{
    Company, Context, ContextError, DeliveryLocation, Journal, Permissions, Relation, RelationKind,
};
use invoicing_core::error::ErrorCode;
use invoicing_core::lifecycle;
use invoicing_core::numbering::{draw, JournalCategory, Numbering, Window};
use invoicing_core::simulator::Simulator;
use serde_json::{json, Value};

fn journal() -> Journal {
    Journal {
        id: "jrn".into(),
        category: JournalCategory::SalesInvoice,
        numbering: Numbering::Never,
        prefix: "N".into(),
    }
}

#[test]
fn counter_rule_draws_the_state_and_moves_past_it() {
    let day = NaiveDate::from_ymd_opt(2026, 11, 21).unwrap();
    let d = draw(&journal(), 41, day).unwrap();
    assert_eq!((d.sequence, d.next, d.window), (41, 42, Window::Always));
    assert_eq!(d.number, "N000041");
    // a state of 0 reads as 1: counters start at 1
    assert_eq!(draw(&journal(), 0, day).unwrap().sequence, 1);
}

#[test]
fn counter_at_u64_max_is_exhausted_never_repeated() {
    let day = NaiveDate::from_ymd_opt(2026, 11, 21).unwrap();
    let last = draw(&journal(), u64::MAX - 1, day).unwrap();
    assert_eq!(last.next, u64::MAX);
    assert_eq!(last.number, format!("N{}", u64::MAX - 1));
    let err = draw(&journal(), u64::MAX, day).unwrap_err();
    assert_eq!(err.window, Window::Always);
}

#[test]
fn create_on_an_exhausted_counter_is_journal_counter_exhausted_at_journal_id() {
    let scenario = json!({
        "today": "2026-11-21",
        "clients": [{"client_id": "app", "client_secret": "s", "permissions": ["c", "u"]}],
        "relations": [{"id": "rel", "kind": "company"}],
        "journals": [{"id": "jrn", "category": "sales_invoice", "numbering": "never",
                      "prefix": "N", "default": true, "next": u64::MAX - 1}],
        "requests": []
    });
    let mut sim = Simulator::from_json(&scenario).unwrap();
    let create = json!({"client": "app", "method": "POST", "path": "/documents",
        "body": {"type": "sale_invoice", "relation_id": "rel",
                 "lines": [{"quantity": 1, "unit_price": 10, "vat_rate": 21}]}});
    let (status, first) = sim.handle(&create);
    assert_eq!(status, 201);
    assert_eq!(first["document_number"], format!("N{}", u64::MAX - 1));
    for _ in 0..2 {
        let (status, body) = sim.handle(&create);
        assert_eq!(status, 422, "{body}");
        assert_eq!(body["detail"][0]["type"], "journal_counter_exhausted");
        assert_eq!(body["detail"][0]["loc"], json!(["body", "journal_id"]));
        assert_eq!(body["detail"][0]["input"], "jrn");
    }
    // nothing was stored by the refused creates
    let (status, _) =
        sim.handle(&json!({"client": "app", "method": "GET", "path": "/documents/doc-2"}));
    assert_eq!(status, 404);
}

/// A context whose storage fails on the lookups named.
struct Failing {
    company: Company,
    fail: &'static [&'static str],
}

impl Failing {
    fn check(&self, what: &str) -> Result<(), ContextError> {
        if self.fail.contains(&what) {
            Err(ContextError(format!("database is locked ({what})")))
        } else {
            Ok(())
        }
    }
}

impl Context for Failing {
    fn today(&self) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, 21).unwrap()
    }
    fn now(&self) -> DateTime<Utc> {
        DateTime::from_timestamp(1_795_219_200, 0).unwrap()
    }
    fn company(&self) -> &Company {
        &self.company
    }
    fn relation(&self, id: &str) -> Result<Option<Relation>, ContextError> {
        self.check("relation")?;
        Ok((id == "rel").then(|| Relation {
            id: id.into(),
            kind: RelationKind::Company,
            payment_terms: None,
            peppol: true,
            party: invoicing_core::party::Party::default(),
        }))
    }
    fn journal(&self, id: &str) -> Result<Option<Journal>, ContextError> {
        self.check("journal")?;
        Ok((id == "jrn").then(journal))
    }
    fn default_journal(&self, _c: JournalCategory) -> Result<Option<Journal>, ContextError> {
        self.check("default_journal")?;
        Ok(Some(journal()))
    }
    fn delivery_location(&self, _id: &str) -> Result<Option<DeliveryLocation>, ContextError> {
        self.check("delivery_location")?;
        Ok(None)
    }
    fn next_sequence(&self, _j: &Journal, _w: Window) -> Result<u64, ContextError> {
        self.check("next_sequence")?;
        Ok(1)
    }
}

fn assert_internal(status: u16, body: &Value) {
    assert_eq!(status, 500, "{body}");
    let detail = body["detail"].as_array().unwrap();
    assert_eq!(detail.len(), 1, "the 500 comes alone: {body}");
    assert_eq!(detail[0]["type"], "internal_error");
    assert!(
        !detail[0]["msg"].as_str().unwrap().contains("locked"),
        "no storage detail leaks"
    );
}

#[test]
fn a_storage_error_answers_500_internal_error_never_a_4xx() {
    let body = json!({"type": "sale_invoice", "relation_id": "rel", "journal_id": "jrn",
        "delivery_location_id": "loc", "lines": [{"quantity": 1, "unit_price": 10, "vat_rate": 21}]});
    for fail in [
        &["relation"][..],
        &["journal"],
        &["delivery_location"],
        &["relation", "journal", "delivery_location"],
    ] {
        let ctx = Failing {
            company: Company::default(),
            fail,
        };
        let err =
            lifecycle::create(&ctx, Permissions::ALL, None, Some(&body), "doc-1").unwrap_err();
        assert_internal(err.status, &err.body());
        assert!(!err.has(ErrorCode::RelationNotFound));
    }
    let mut no_journal = body.clone();
    no_journal.as_object_mut().unwrap().remove("journal_id");
    let ctx = Failing {
        company: Company::default(),
        fail: &["default_journal"],
    };
    let err =
        lifecycle::create(&ctx, Permissions::ALL, None, Some(&no_journal), "doc-1").unwrap_err();
    assert_internal(err.status, &err.body());

    // PATCH and send read the world too
    let mut ok_body = body.clone();
    ok_body
        .as_object_mut()
        .unwrap()
        .remove("delivery_location_id");
    let ok = Failing {
        company: Company::default(),
        fail: &[],
    };
    let doc = lifecycle::create(&ok, Permissions::ALL, None, Some(&ok_body), "doc-1")
        .unwrap()
        .document;
    let ctx = Failing {
        company: Company::default(),
        fail: &["relation", "delivery_location"],
    };
    let err = lifecycle::patch(
        &ctx,
        Permissions::ALL,
        &doc,
        Some(&json!({"relation_id": "rel"})),
    )
    .unwrap_err();
    assert_internal(err.status, &err.body());
    let err = lifecycle::patch(
        &ctx,
        Permissions::ALL,
        &doc,
        Some(&json!({"delivery_location_id": "x"})),
    )
    .unwrap_err();
    assert_internal(err.status, &err.body());
    let err =
        lifecycle::send(&ctx, Permissions::ALL, &doc, Some(&json!({"peppol": true}))).unwrap_err();
    assert_internal(err.status, &err.body());
    // and send_peppol on create
    let err = lifecycle::create(
        &Failing {
            company: Company::default(),
            fail: &["relation"],
        },
        Permissions::ALL,
        Some("true"),
        Some(&ok_body),
        "doc-2",
    )
    .unwrap_err();
    assert_internal(err.status, &err.body());
}
