//! The create path from JSON bytes to response JSON bytes, for 50 and 500 lines, beside
//! a floor: `serde_json` parsing the same bytes into a `Value` and writing it back.
//!
//! Run with `cargo bench --bench create`; the ratios are printed at the end, measured
//! in the same run.

use chrono::{DateTime, NaiveDate, Utc};
use criterion::{criterion_group, Criterion};
use invoicing_core::context::{
    Company, Context, ContextError, DeliveryLocation, Journal, Permissions, Relation, RelationKind,
};
use invoicing_core::lifecycle::create_bytes;
use invoicing_core::numbering::{JournalCategory, Numbering, Window};
use serde_json::{json, Value};
use std::hint::black_box;
use std::time::{Duration, Instant};

struct Bench {
    company: Company,
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
        Ok((id == "rel-acme").then(|| Relation {
            id: id.to_owned(),
            kind: RelationKind::Company,
            payment_terms: "30-fm".parse().ok(),
            peppol: true,
            party: invoicing_core::party::Party::default(),
        }))
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

/// A create body of `n` lines over 4 VAT groups with 5 document allowances/charges.
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

fn create_path(ctx: &Bench, bytes: &[u8]) -> Vec<u8> {
    match create_bytes(ctx, Permissions::ALL, None, bytes, "doc-1") {
        Ok(created) => serde_json::to_vec(&created.document).unwrap_or_default(),
        Err(e) => serde_json::to_vec(&e.body()).unwrap_or_default(),
    }
}

fn serde_floor(bytes: &[u8]) -> Vec<u8> {
    let value: Value = serde_json::from_slice(bytes).unwrap_or(Value::Null);
    serde_json::to_vec(&value).unwrap_or_default()
}

fn benches(c: &mut Criterion) {
    let ctx = Bench {
        company: Company::default(),
    };
    for n in [50, 500] {
        let bytes = body(n);
        assert!(
            create_path(&ctx, &bytes).starts_with(b"{\"id\""),
            "the bench body must be valid"
        );
        c.bench_function(&format!("create/{n}"), |b| {
            b.iter(|| create_path(&ctx, black_box(&bytes)));
        });
        c.bench_function(&format!("serde_floor/{n}"), |b| {
            b.iter(|| serde_floor(black_box(&bytes)));
        });
    }
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
    let ctx = Bench {
        company: Company::default(),
    };
    let budget = Duration::from_millis(1500);
    let (b50, b500) = (body(50), body(500));
    let create50 = per_call(budget, || {
        black_box(create_path(&ctx, black_box(&b50)));
    });
    let create500 = per_call(budget, || {
        black_box(create_path(&ctx, black_box(&b500)));
    });
    let floor500 = per_call(budget, || {
        black_box(serde_floor(black_box(&b500)));
    });
    println!("create 50 lines: {create50} ns, 500 lines: {create500} ns, serde floor 500 lines: {floor500} ns");
    println!(
        "ratio create 500/50 lines: {} (goal <= 12)",
        ratio(create500, create50)
    );
    println!(
        "ratio create/serde floor (500 lines): {} (goal <= 2.5)",
        ratio(create500, floor500)
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
