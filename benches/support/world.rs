//! What the benches share: the world they create in (a company and a relation with
//! every party key of docs/peppol.md §1, one yearly sales journal) and the 500-line body of
//! the create, the UBL and the memory figures, and the timer of their ratios.

// Each bench uses part of the support files.
#![allow(dead_code)]

use chrono::{DateTime, NaiveDate, Utc};
use invoicing_core::context::{
    Company, Context, ContextError, DeliveryLocation, Journal, Relation, RelationKind,
};
use invoicing_core::numbering::{JournalCategory, Numbering, Window};
use invoicing_core::party::{Address, Party};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// The world of the benches.
pub struct Bench {
    /// The company (the seller), with every party key.
    pub company: Company,
    /// `rel-acme`, a company on Peppol with 30-fm terms and every party key.
    pub relation: Relation,
}

impl Context for Bench {
    fn today(&self) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, 21).unwrap_or_default()
    }
    fn now(&self) -> DateTime<Utc> {
        DateTime::<Utc>::from_timestamp(1_795_219_200, 0).unwrap_or_default()
    }
    fn company(&self) -> &Company {
        &self.company
    }
    fn relation(&self, id: &str) -> Result<Option<Relation>, ContextError> {
        Ok((id == self.relation.id).then(|| self.relation.clone()))
    }
    fn journal(&self, id: &str) -> Result<Option<Journal>, ContextError> {
        Ok((id == "jrn-sales").then(|| Journal {
            id: id.to_owned(),
            category: JournalCategory::SalesInvoice,
            numbering: Numbering::Yearly,
            prefix: "INV".to_owned(),
        }))
    }
    fn default_journal(&self, category: JournalCategory) -> Result<Option<Journal>, ContextError> {
        if category == JournalCategory::SalesInvoice {
            self.journal("jrn-sales")
        } else {
            Ok(None)
        }
    }
    fn delivery_location(&self, _id: &str) -> Result<Option<DeliveryLocation>, ContextError> {
        Ok(None)
    }
    fn next_sequence(&self, _journal: &Journal, _window: Window) -> Result<u64, ContextError> {
        Ok(1)
    }
}

fn party(name: &str, kbo: &str, iban: &str) -> Party {
    Party {
        name: Some(name.to_owned()),
        vat_number: Some(format!("BE{kbo}")),
        enterprise_number: Some(kbo.to_owned()),
        peppol_id: Some(format!("0208:{kbo}")),
        address: Some(Address {
            street: Some("Meir".to_owned()),
            street_number: Some("24".to_owned()),
            postal_code: Some("2000".to_owned()),
            city: Some("Antwerpen".to_owned()),
            country_code: Some("BE".to_owned()),
            ..Address::default()
        }),
        iban: Some(iban.to_owned()),
        bic: Some("GKCCBEBB".to_owned()),
        email: Some("billing@example.be".to_owned()),
    }
}

/// The world of the benches.
pub fn bench_world() -> Bench {
    Bench {
        company: Company {
            legal_notice: Some("Our general terms of sale apply.".to_owned()),
            party: party("Atelier Lumen BV", "0123456749", "BE68539007547034"),
            ..Company::default()
        },
        relation: Relation {
            id: "rel-acme".to_owned(),
            kind: RelationKind::Company,
            payment_terms: "30-fm".parse().ok(),
            peppol: true,
            party: party("Brouwerij De Kaai NV", "0403033416", "BE71096123456769"),
        },
    }
}

/// The create body of `benches/create.rs`: `n` lines over 4 VAT groups with 5
/// document allowances/charges.
pub fn body(n: usize) -> Vec<u8> {
    let rates = ["21", "12", "6", "0"];
    let lines: Vec<Value> = (0..n)
        .map(|i| {
            let mut line = json!({
                "item_name": format!("Item {i}"),
                "quantity": format!("{}.{}", 1 + i % 7, i % 10),
                "unit_price": format!("{}.{:02}", 3 + i % 90, i % 100),
                "unit_code": "C62",
            });
            if i % 4 == 3 {
                line["vat_code"] = json!("intra_community");
            } else {
                line["vat_rate"] = serde_json::from_str(rates[i % 4]).unwrap_or(Value::Null);
            }
            if i % 5 == 0 {
                line["allowance_charges"] = json!([{"type": "allowance", "rate": "5"}]);
            }
            line
        })
        .collect();
    let doc = json!({
        "type": "sale_invoice",
        "relation_id": "rel-acme",
        "buyer_reference": "PO-1",
        "lines": lines,
        "allowance_charges": [
            {"type": "allowance", "amount": "10.00", "reason": "Loyalty"},
            {"type": "allowance", "rate": "2"},
            {"type": "charge", "amount": "4.95", "reason": "Shipping"},
            {"type": "charge", "rate": "1.5"},
            {"type": "allowance", "amount": "0.99"},
        ],
    });
    serde_json::to_vec(&doc).unwrap_or_default()
}

/// Nanoseconds per call of `f`: the fastest of 12 rounds of at least `budget / 12`
/// each, so that a burst of load from another process on this shared machine does not
/// count.
pub fn per_call(budget: Duration, mut f: impl FnMut()) -> u128 {
    let round = budget / 12;
    let mut best = u128::MAX;
    for _ in 0..12 {
        let mut calls: u128 = 0;
        let start = Instant::now();
        while start.elapsed() < round {
            f();
            calls += 1;
        }
        best = best.min(start.elapsed().as_nanos() / calls.max(1));
    }
    best
}

/// `a / b` written with two decimals, in integers.
pub fn ratio(a: u128, b: u128) -> String {
    let hundredths = a * 100 / b.max(1);
    format!("{}.{:02}", hundredths / 100, hundredths % 100)
}

/// The UBL text the writer makes of `doc` in the bench world (empty when it makes none).
pub fn ubl_xml(ctx: &Bench, doc: &invoicing_core::document::Document) -> String {
    invoicing_core::peppol::ubl(
        doc,
        &ctx.company,
        &ctx.relation,
        None,
        &invoicing_core::peppol::UblFiles::default(),
    )
    .ok()
    .flatten()
    .map_or_else(String::new, |u| u.xml)
}
