//! Renders the PDF of the benches' invoice (issue 17 (c): a whole process to time
//! against WeasyPrint on the same invoice):
//!
//! ```sh
//! cargo build --release --example render_pdf
//! target/release/examples/render_pdf --out invoice.pdf [--lines 500] [--json invoice.json]
//! ```
//!
//! The invoice is the one of `benches/create.rs`, `benches/ubl.rs` and `benches/pdf.rs`
//! (`benches/support/world.rs`: 500 lines over 4 VAT groups, line allowances, 5
//! document allowances/charges, parties with every key). The process builds it from its
//! create body (`lifecycle::create_bytes`, about a millisecond), renders its PDF
//! (`pdf::render_document`, no branding) and writes it to `--out`.
//!
//! `--json FILE` also writes `{"document": <the stored document as the API answers
//! it>, "company": <the seller's party>, "relation": <the buyer's party>}`, the input of
//! `benches/weasyprint/invoice_html.py`, which writes the same invoice as HTML.

#[path = "../benches/support/world.rs"]
mod world;

use invoicing_core::context::Permissions;
use invoicing_core::lifecycle::create_bytes;
use invoicing_core::party::Party;
use invoicing_core::pdf::render_document;
use serde_json::{json, Value};
use std::process::ExitCode;

/// The command line: `--out FILE`, `--lines N`, `--json FILE`.
struct Args {
    out: String,
    lines: usize,
    json: Option<String>,
}

fn args() -> Result<Args, String> {
    let mut args = Args {
        out: String::new(),
        lines: 500,
        json: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--out" => args.out = value,
            "--lines" => args.lines = value.parse().map_err(|_| "--lines N")?,
            "--json" => args.json = Some(value),
            _ => return Err(format!("unknown argument {flag}")),
        }
    }
    if args.out.is_empty() {
        return Err("usage: render_pdf --out FILE.pdf [--lines N] [--json FILE.json]".into());
    }
    Ok(args)
}

/// A party as the HTML script reads it.
fn party(p: &Party) -> Value {
    let a = p.address.clone().unwrap_or_default();
    json!({
        "name": p.name, "vat_number": p.vat_number, "enterprise_number": p.enterprise_number,
        "iban": p.iban, "bic": p.bic, "email": p.email,
        "street": a.street, "street_number": a.street_number, "postal_code": a.postal_code,
        "city": a.city, "country_code": a.country_code,
    })
}

fn run(args: &Args) -> Result<usize, String> {
    let ctx = world::bench_world();
    let body = world::body(args.lines);
    let doc = create_bytes(&ctx, Permissions::ALL, None, &body, "doc-1")
        .map_err(|e| format!("the create was refused: {}", e.body()))?
        .document;
    let pdf = render_document(&doc, &ctx.company, &ctx.relation, None, None)
        .map_err(|e| e.to_string())?;
    std::fs::write(&args.out, &pdf).map_err(|e| format!("cannot write {}: {e}", args.out))?;
    if let Some(path) = &args.json {
        let all = json!({
            "document": doc,
            "company": party(&ctx.company.party),
            "relation": party(&ctx.relation.party),
        });
        let text = serde_json::to_vec_pretty(&all).map_err(|e| e.to_string())?;
        std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}"))?;
    }
    Ok(pdf.len())
}

fn main() -> ExitCode {
    match args().and_then(|a| run(&a)) {
        Ok(_) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("render_pdf: {message}");
            ExitCode::FAILURE
        }
    }
}
