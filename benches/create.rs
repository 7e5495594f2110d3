//! The create path for 50 and 500 lines, from JSON bytes to the stored document (issue
//! 12: ≤ 1.0× the floor) and on to the response's JSON bytes, beside a floor:
//! `serde_json` parsing the same bytes into a `Value` and writing it back.
//!
//! Run with `cargo bench --bench create`; the ratios are printed at the end, measured
//! in the same run.

#[path = "support/world.rs"]
mod world;

use criterion::{criterion_group, Criterion};
use invoicing_core::context::Permissions;
use invoicing_core::document::Document;
use invoicing_core::lifecycle::create_bytes;
use serde_json::Value;
use std::hint::black_box;
use std::time::Duration;
use world::{bench_world, body, per_call, ratio, Bench};

/// Bytes to the stored document: parse, validate, compute, number.
fn create_stored(ctx: &Bench, bytes: &[u8]) -> Option<Document> {
    create_bytes(ctx, Permissions::ALL, None, bytes, "doc-1")
        .ok()
        .map(|created| created.document)
}

/// Bytes to the response's bytes.
fn create_path(ctx: &Bench, bytes: &[u8]) -> Vec<u8> {
    match create_bytes(ctx, Permissions::ALL, None, bytes, "doc-1") {
        Ok(created) => serde_json::to_vec(&invoicing_core::document::Response(&created.document))
            .unwrap_or_default(),
        Err(e) => serde_json::to_vec(&e.body()).unwrap_or_default(),
    }
}

fn serde_floor(bytes: &[u8]) -> Vec<u8> {
    let value: Value = serde_json::from_slice(bytes).unwrap_or(Value::Null);
    serde_json::to_vec(&value).unwrap_or_default()
}

fn benches(c: &mut Criterion) {
    let ctx = bench_world();
    for n in [50, 500] {
        let bytes = body(n);
        assert!(
            create_path(&ctx, &bytes).starts_with(b"{\"id\""),
            "the bench body must be valid"
        );
        assert!(create_stored(&ctx, &bytes).is_some());
        c.bench_function(&format!("create_stored/{n}"), |b| {
            b.iter(|| create_stored(&ctx, black_box(&bytes)));
        });
        c.bench_function(&format!("create/{n}"), |b| {
            b.iter(|| create_path(&ctx, black_box(&bytes)));
        });
        c.bench_function(&format!("serde_floor/{n}"), |b| {
            b.iter(|| serde_floor(black_box(&bytes)));
        });
    }
}

fn ratios() {
    let ctx = bench_world();
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
    let stored500 = per_call(budget, || {
        black_box(create_stored(&ctx, black_box(&b500)));
    });
    println!("create 50 lines: {create50} ns, 500 lines: {create500} ns (to the stored document: {stored500} ns), serde floor 500 lines: {floor500} ns");
    println!(
        "ratio create to the stored document/serde floor (500 lines): {} (goal <= 1.0)",
        ratio(stored500, floor500)
    );
    println!(
        "ratio create 500/50 lines: {} (goal <= 12)",
        ratio(create500, create50)
    );
    println!(
        "ratio create to the response's bytes/serde floor (500 lines): {} (goal <= 2.5)",
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
