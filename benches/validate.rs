//! Reading a UBL document and judging it by every rule of the official artefacts
//! (`invoicing_core::ubl::validate`, issue 30), reading it as a received document
//! (`received::read`: the same engine, plus the walk to the received view) and writing
//! it (`peppol::ubl`, the writer and its findings), on the 500-line document of
//! `benches/create.rs`, timed in one run.
//! Goal of issue 30: validate ≤ 1 ms on it (≥ 600× the official validator's ~600 ms).
//!
//! Run with `cargo bench --bench validate`; the figures are printed at the end, timed
//! in the same run.

#[path = "support/world.rs"]
mod world;

use criterion::{criterion_group, Criterion};
use invoicing_core::context::Permissions;
use invoicing_core::lifecycle::create_bytes;
use invoicing_core::peppol::{ubl, UblFiles};
use std::hint::black_box;
use std::time::Duration;
use world::{bench_world, body, per_call, ratio, ubl_xml};

/// The UBL of the 500-line document.
fn xml() -> String {
    let ctx = bench_world();
    create_bytes(&ctx, Permissions::ALL, None, &body(500), "doc-1")
        .ok()
        .map_or_else(String::new, |c| ubl_xml(&ctx, &c.document))
}

fn benches(c: &mut Criterion) {
    let xml = xml();
    assert!(!xml.is_empty(), "the document must have a UBL");
    c.bench_function("validate/500", |b| {
        b.iter(|| {
            invoicing_core::ubl::validate(black_box(xml.as_bytes())).map_or(0, |r| r.findings.len())
        });
    });
}

fn figures() {
    let xml = xml();
    let budget = Duration::from_secs(3);
    let validate = per_call(budget, || {
        black_box(
            invoicing_core::ubl::validate(black_box(xml.as_bytes()))
                .map(|r| r.findings.len())
                .ok(),
        );
    });
    let read = per_call(budget, || {
        black_box(
            invoicing_core::received::read(black_box(xml.as_bytes()))
                .lines
                .len(),
        );
    });
    let ctx = bench_world();
    let doc = create_bytes(&ctx, Permissions::ALL, None, &body(500), "doc-1")
        .ok()
        .map(|c| c.document);
    let written = per_call(budget, || {
        black_box(doc.as_ref().and_then(|d| {
            ubl(d, &ctx.company, &ctx.relation, None, &UblFiles::default())
                .ok()
                .flatten()
        }));
    });
    let findings = invoicing_core::ubl::validate(xml.as_bytes()).map_or(0, |r| r.findings.len());
    println!(
        "500 lines ({} bytes): validate, every rule ({findings} findings) {validate} ns; received::read {read} ns (read/validate {}); the writer's UBL + findings {written} ns (validate/write {})",
        xml.len(),
        ratio(read, validate),
        ratio(validate, written)
    );
}

criterion_group! {
    name = group;
    config = Criterion::default().sample_size(10).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    targets = benches
}

fn main() {
    group();
    figures();
    Criterion::default().configure_from_args().final_summary();
}
