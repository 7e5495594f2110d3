//! Writing the UBL of the 500-line document (peppol.md §2: the XML and its findings)
//! against the create path of the same document: JSON bytes in → the stored
//! `Document` (parse, validate, compute, number). Goal: UBL / create ≤ 1.0.
//! And reading that UBL back as a received document (peppol.md §4: the streaming
//! reader and its checks) against writing it. Goal: read / write ≤ 1.5.
//!
//! Run with `cargo bench --bench ubl`; the ratios are printed at the end, timed in
//! the same run. The document is the one of `benches/create.rs` (500 lines over 4
//! VAT groups, line allowances, 5 document allowances/charges), written for parties
//! with every key of peppol.md §1.

use chrono::{DateTime, NaiveDate, Utc};
use criterion::{criterion_group, Criterion};
use invoicing_core::context::{
    Company, Context, ContextError, DeliveryLocation, Journal, Permissions, Relation, RelationKind,
};
use invoicing_core::document::Document;
use invoicing_core::lifecycle::create_bytes;
use invoicing_core::numbering::{JournalCategory, Numbering, Window};
use invoicing_core::party::{Address, Party};
use invoicing_core::peppol::ubl;
use invoicing_core::received::read;
use serde_json::{json, Value};
use std::hint::black_box;
use std::time::{Duration, Instant};

struct Bench {
    company: Company,
    relation: Relation,
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

fn bench_world() -> Bench {
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
fn body(n: usize) -> Vec<u8> {
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

/// Bytes in → the stored document, by the server's entry (`create_bytes`: one typed
/// pass over the body).
fn create_path(ctx: &Bench, bytes: &[u8]) -> Option<Document> {
    create_bytes(ctx, Permissions::ALL, None, bytes, "doc-1")
        .ok()
        .map(|c| c.document)
}

/// The stored document → its UBL (XML and findings); answers the XML's length.
fn write_ubl(ctx: &Bench, doc: &Document) -> usize {
    ubl(doc, &ctx.company, &ctx.relation, None).map_or(0, |u| u.xml.len() + u.findings.len())
}

fn benches(c: &mut Criterion) {
    let ctx = bench_world();
    let bytes = body(500);
    let Some(doc) = create_path(&ctx, &bytes) else {
        panic!("the bench body must be valid");
    };
    assert!(write_ubl(&ctx, &doc) > 0, "the document must have a UBL");
    c.bench_function("create_to_document/500", |b| {
        b.iter(|| create_path(&ctx, black_box(&bytes)));
    });
    c.bench_function("ubl/500", |b| {
        b.iter(|| write_ubl(&ctx, black_box(&doc)));
    });
    let xml = ubl(&doc, &ctx.company, &ctx.relation, None).map_or_else(String::new, |u| u.xml);
    c.bench_function("read/500", |b| {
        b.iter(|| read(black_box(xml.as_bytes())).lines.len());
    });
}

/// Nanoseconds per call of `f`: the fastest of 12 rounds of at least `budget / 12`
/// each, so that a burst of load from another process on this shared machine does not
/// count.
fn per_call(budget: Duration, mut f: impl FnMut()) -> u128 {
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
fn ratio(a: u128, b: u128) -> String {
    let hundredths = a * 100 / b.max(1);
    format!("{}.{:02}", hundredths / 100, hundredths % 100)
}

fn ratios() {
    let ctx = bench_world();
    let bytes = body(500);
    let Some(doc) = create_path(&ctx, &bytes) else {
        return;
    };
    let budget = Duration::from_millis(1500);
    let create500 = per_call(budget, || {
        black_box(create_path(&ctx, black_box(&bytes)));
    });
    let ubl500 = per_call(budget, || {
        black_box(write_ubl(&ctx, black_box(&doc)));
    });
    let xml = ubl(&doc, &ctx.company, &ctx.relation, None).map_or_else(String::new, |u| u.xml);
    let size = xml.len();
    let read500 = per_call(budget, || {
        black_box(read(black_box(xml.as_bytes())).lines.len());
    });
    println!("500 lines: create (bytes -> stored document) {create500} ns, UBL (xml {size} bytes + findings) {ubl500} ns");
    println!(
        "ratio UBL / create (500 lines): {} (goal <= 1.00)",
        ratio(ubl500, create500)
    );
    println!("500 lines: read the UBL back (received reader and its checks) {read500} ns");
    println!(
        "ratio read / write (500 lines): {} (goal <= 1.50)",
        ratio(read500, ubl500)
    );
}

criterion_group! {
    name = group;
    config = Criterion::default().sample_size(20).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    targets = benches
}

fn main() {
    group();
    ratios();
    Criterion::default().configure_from_args().final_summary();
}
