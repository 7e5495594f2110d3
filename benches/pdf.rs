//! The PDF of the 500-line document (docs/files.md §2: layout, DejaVu Sans subset, PDF/A-3b,
//! `pdf::render_document`) against the create path of the same document: JSON bytes
//! in → the stored `Document` (`lifecycle::create_bytes`: parse, validate, compute,
//! number), as `benches/create.rs` and `benches/ubl.rs` measure it. Goal (issue 17):
//! PDF / create ≤ 20.
//!
//! Run with `cargo bench --bench pdf`; the ratio is printed at the end, both sides timed
//! by `main` in the same run (fastest of 12 rounds each). The document is the one of
//! `benches/create.rs` (500 lines over 4 VAT groups, line allowances, 5 document
//! allowances/charges), for parties with every key of docs/peppol.md §1, without branding.

#[path = "support/world.rs"]
mod world;

use criterion::{criterion_group, Criterion};
use invoicing_core::context::Permissions;
use invoicing_core::document::Document;
use invoicing_core::lifecycle::create_bytes;
use invoicing_core::pdf::render_document;
use std::hint::black_box;
use std::time::Duration;
use world::{bench_world, body, per_call, ratio, Bench};

/// Bytes in → the stored document, by the server's entry (`create_bytes`: one typed
/// pass over the body).
fn create_path(ctx: &Bench, bytes: &[u8]) -> Option<Document> {
    create_bytes(ctx, Permissions::ALL, None, bytes, "doc-1")
        .ok()
        .map(|c| c.document)
}

/// The stored document → its PDF; answers the file's length.
fn write_pdf(ctx: &Bench, doc: &Document) -> usize {
    render_document(doc, &ctx.company, &ctx.relation, None, None).map_or(0, |pdf| pdf.len())
}

fn benches(c: &mut Criterion) {
    let ctx = bench_world();
    let bytes = body(500);
    let Some(doc) = create_path(&ctx, &bytes) else {
        panic!("the bench body must be valid");
    };
    assert!(write_pdf(&ctx, &doc) > 0, "the document must have a PDF");
    c.bench_function("create_to_document/500", |b| {
        b.iter(|| create_path(&ctx, black_box(&bytes)));
    });
    c.bench_function("pdf/500", |b| {
        b.iter(|| write_pdf(&ctx, black_box(&doc)));
    });
}

fn ratios() {
    let ctx = bench_world();
    let bytes = body(500);
    let Some(doc) = create_path(&ctx, &bytes) else {
        return;
    };
    let size = write_pdf(&ctx, &doc);
    // A PDF takes tens of milliseconds: 12 rounds of 0.5 s each give each round
    // several calls, the create side the same budget.
    let budget = Duration::from_secs(6);
    let create500 = per_call(budget, || {
        black_box(create_path(&ctx, black_box(&bytes)));
    });
    let pdf500 = per_call(budget, || {
        black_box(write_pdf(&ctx, black_box(&doc)));
    });
    println!(
        "500 lines: create (bytes -> stored document) {create500} ns, PDF ({size} bytes) {pdf500} ns"
    );
    println!(
        "ratio PDF / create (500 lines): {} (goal <= 20.00)",
        ratio(pdf500, create500)
    );
}

criterion_group! {
    name = group;
    config = Criterion::default().sample_size(10).measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_secs(1));
    targets = benches
}

fn main() {
    group();
    ratios();
    Criterion::default().configure_from_args().final_summary();
}
