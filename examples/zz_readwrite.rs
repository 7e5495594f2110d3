//! temporary: instruction counts of reading against writing (not committed)
#[path = "../benches/support/world.rs"]
mod world;
use invoicing_core::context::Permissions;
use invoicing_core::lifecycle::create_bytes;
use invoicing_core::peppol::{ubl, UblFiles};
use invoicing_core::received::read;
use std::hint::black_box;
fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let ctx = world::bench_world();
    let bytes = world::body(500);
    let doc = create_bytes(&ctx, Permissions::ALL, None, &bytes, "doc-1")
        .ok()
        .unwrap()
        .document;
    let xml = ubl(
        &doc,
        &ctx.company,
        &ctx.relation,
        None,
        &UblFiles::default(),
    )
    .ok()
    .flatten()
    .unwrap()
    .xml;
    for _ in 0..20 {
        match mode.as_str() {
            "write" => {
                black_box(
                    ubl(
                        &doc,
                        &ctx.company,
                        &ctx.relation,
                        None,
                        &UblFiles::default(),
                    )
                    .ok(),
                );
            }
            "read" => {
                black_box(read(black_box(xml.as_bytes())).lines.len());
            }
            _ => {}
        }
    }
}
