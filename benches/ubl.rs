//! Writing the UBL of the 500-line document (docs/peppol.md §2: the XML and its findings)
//! against the create path of the same document: JSON bytes in → the stored
//! `Document` (parse, validate, compute, number). Goal: UBL / create ≤ 1.0.
//! And reading that UBL back as a received document (docs/peppol.md §4: the streaming
//! reader and its checks) against writing it. Goal: read / write ≤ 1.5.
//!
//! Run with `cargo bench --bench ubl`; the ratios are printed at the end, timed in
//! the same run. The document is the one of `benches/create.rs` (500 lines over 4
//! VAT groups, line allowances, 5 document allowances/charges), written for parties
//! with every key of docs/peppol.md §1.

#[path = "support/world.rs"]
mod world;

use criterion::{criterion_group, Criterion};
use invoicing_core::context::Permissions;
use invoicing_core::document::Document;
use invoicing_core::lifecycle::create_bytes;
use invoicing_core::peppol::{ubl, UblFiles};
use invoicing_core::received::read;
use std::hint::black_box;
use std::time::Duration;
use world::{bench_world, body, per_call, ratio, ubl_xml, Bench};

/// Bytes in → the stored document, by the server's entry (`create_bytes`: one typed
/// pass over the body).
fn create_path(ctx: &Bench, bytes: &[u8]) -> Option<Document> {
    create_bytes(ctx, Permissions::ALL, None, bytes, "doc-1")
        .ok()
        .map(|c| c.document)
}

/// The stored document → its UBL (XML and findings); answers the XML's length.
fn write_ubl(ctx: &Bench, doc: &Document) -> usize {
    ubl(doc, &ctx.company, &ctx.relation, None, &UblFiles::default())
        .ok()
        .flatten()
        .map_or(0, |u| u.xml.len() + u.findings.len())
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
    let xml = ubl_xml(&ctx, &doc);
    c.bench_function("read/500", |b| {
        b.iter(|| read(black_box(xml.as_bytes())).lines.len());
    });
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
    let xml = ubl_xml(&ctx, &doc);
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
