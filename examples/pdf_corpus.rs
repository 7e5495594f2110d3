//! Writes the PDFs of documents, each beside what it must show, for the checks of
//! `tests/pdf/check.py` (qpdf, pdffonts, pdfinfo, pdftotext; issue 17):
//!
//! ```sh
//! cargo run --example pdf_corpus -- --out DIR [--count N] [--seed S]
//! python3 tests/pdf/check.py DIR
//! ```
//!
//! For every document it writes `NAME.pdf` (the simulator's `GET /documents/{id}/pdf`)
//! and `NAME.json`: `{"document": <GET /documents/{id}>, "company": <the company's
//! party record>, "relation": <the relation's record>, "language": "en"|"nl"|"fr"|"de"}`.
//! - `bundled-SCENARIO-ID`: every issued document of every scenario in
//!   `examples/scenarios/`, after its own requests and a `TICK`;
//! - `gen-NNNN`: `--count` (default 100) seeded random documents: the four languages,
//!   invoices, credit notes, self-billing documents and proformas, every VAT code usable
//!   on input with their mentions, line and document allowances and charges, party
//!   names and item texts in Latin, Greek and Cyrillic with accents, markup characters
//!   and controls, long texts, and amounts up to 10^12;
//! - `lines-0001`, `lines-0050`, `lines-0500`: one invoice of 1, 50 and 500 lines,
//!   whose page counts must grow (`pages.json` lists them in that order).
//!
//! Same seed, same files.

#[path = "support/rng.rs"]
mod rng;

use invoicing_core::attachment::decode_base64;
use invoicing_core::simulator::run;
use rng::Rng;
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const NAMES: &[&str] = &[
    "Brouwerij De Kaai NV",
    "Café L'Étoile & Fils SRL",
    "Data <Labs> BV",
    "Ωmega Ελληνικά ΙΚΕ",
    "Дом Книги ООО",
    "Müller-Lüdenscheidt GmbH",
    "Åke Ångström AB",
    "Zürcher Straße \"Nord\" AG",
    "Żółć Gęślą Jaźń Sp. z o.o.",
];
const ITEMS: &[&str] = &[
    "Consulting",
    "Espresso machine service",
    "Bière blonde 33 cl",
    "Überstunden (Wochenende)",
    "Ремонт оборудования",
    "Tab\there and a control \u{7}",
    "Markup <b>&amp;</b> \"quotes\"",
    "Bidi \u{202E}reversed\u{202C} text",
];

/// A JSON number with exactly this text.
fn num(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

/// A price of 0.01 to about 10^digits, with 0 to 2 decimals.
fn price(rng: &mut Rng, digits: u32) -> Value {
    let whole = rng.below(10u64.pow(digits));
    match rng.below(3) {
        0 => num(&whole.max(1).to_string()),
        1 => num(&format!("{whole}.{}", rng.below(10))),
        _ => num(&format!("{whole}.{:02}", rng.below(100).max(1))),
    }
}

/// One line: a VAT code and rate that the create rules accept.
fn line(rng: &mut Rng, big: bool) -> Value {
    let mut l = json!({
        "item_name": rng.pick(ITEMS),
        "quantity": num(&(rng.below(20) + 1).to_string()),
        "unit_price": price(rng, if big { 9 } else { 4 }),
    });
    match rng.below(8) {
        0 => l["vat_code"] = json!("exempted"),
        1 => l["vat_code"] = json!("reverse_charge"),
        2 => l["vat_code"] = json!("not_subject"),
        3 => l["vat_code"] = json!("zero_rated"),
        _ => l["vat_rate"] = json!(*rng.pick(&[21, 12, 6])),
    }
    if rng.chance(30) {
        l["item_description"] =
            json!("Beschrijving / description "
                .repeat(usize::try_from(rng.below(12) + 1).unwrap_or(1)));
    }
    if rng.chance(20) {
        l["allowance_charges"] = json!([{"type": "allowance", "rate": 5, "reason": "Korting"}]);
    }
    if rng.chance(30) {
        l["unit_code"] = json!(*rng.pick(&["HUR", "KGM", "C62", "LTR"]));
    }
    l
}

/// The world every generated document lives in, in `language`.
fn world(language: &str, relation_name: &str, self_billing: bool) -> Value {
    json!({
        "today": "2026-11-21",
        "company": {
            "self_billing": self_billing,
            "legal_notice": "Our general terms of sale apply.",
            "name": "Atelier Lumen BV", "vat_number": "BE0123456749",
            "enterprise_number": "0123456749", "peppol_id": "0208:0123456749",
            "address": {"street": "Meir", "street_number": "24", "postal_code": "2000",
                        "city": "Antwerpen", "country_code": "BE"},
            "iban": "BE68539007547034", "bic": "GKCCBEBB",
            "language": language, "legal_form": "BV", "register": "RPR Antwerpen"
        },
        "clients": [{"client_id": "app", "client_secret": "s", "permissions": ["c", "u"]}],
        "relations": [{"id": "rel-1", "kind": "company", "payment_terms": "30-fm", "peppol": true,
                       "name": relation_name, "vat_number": "BE0403033416",
                       "enterprise_number": "0403033416", "iban": "BE71096123456769",
                       "address": {"street": "Kaaiplein", "street_number": "3",
                                   "postal_code": "9000", "city": "Gent", "country_code": "BE"}}],
        "journals": [
            {"id": "j-si", "category": "sales_invoice", "numbering": "yearly", "prefix": "INV", "default": true},
            {"id": "j-sc", "category": "sales_credit", "numbering": "yearly", "prefix": "CN", "default": true},
            {"id": "j-pi", "category": "purchases_invoice", "numbering": "yearly", "prefix": "SB/", "default": true},
            {"id": "j-pc", "category": "purchases_credit", "numbering": "yearly", "prefix": "SBC", "default": true},
            {"id": "j-pf", "category": "proforma", "numbering": "never", "prefix": "PF", "default": true}
        ],
        "requests": []
    })
}

/// A generated create body of `lines` lines.
fn body(rng: &mut Rng, doc_type: &str, lines: usize) -> Value {
    let big = rng.chance(10);
    let mut b = json!({
        "type": doc_type,
        "relation_id": "rel-1",
        "lines": (0..lines).map(|_| line(rng, big)).collect::<Vec<_>>(),
        "buyer_reference": "PO-1",
    });
    if rng.chance(30) {
        b["allowance_charges"] = json!([{"type": "charge", "amount": 7.5, "reason": "Transport"}]);
    }
    if rng.chance(40) {
        b["order_number"] = json!("SO-42");
    }
    if rng.chance(30) {
        b["delivery_date"] = json!("2026-11-18");
    }
    if rng.chance(20) {
        b["paid_amount"] = json!(1);
    }
    b
}

/// Runs `scenario` with a `TICK` and, for each id, a GET of the document and of its
/// PDF appended; answers (document, pdf bytes) per id that has both.
fn documents_and_pdfs(scenario: &Value, ids: &[String]) -> Result<Vec<(Value, Vec<u8>)>, String> {
    let client = scenario["clients"][0]["client_id"]
        .as_str()
        .unwrap_or("app")
        .to_owned();
    let mut s = scenario.clone();
    let mut requests = s["requests"].as_array().cloned().unwrap_or_default();
    let own = requests.len();
    requests.push(json!({"method": "TICK"}));
    for id in ids {
        requests
            .push(json!({"client": client, "method": "GET", "path": format!("/documents/{id}")}));
        requests.push(
            json!({"client": client, "method": "GET", "path": format!("/documents/{id}/pdf")}),
        );
    }
    s["requests"] = Value::Array(requests);
    let out = run(s.to_string().as_bytes());
    let responses = out["responses"]
        .as_array()
        .ok_or_else(|| format!("the scenario is malformed: {out}"))?;
    let mut found = Vec::new();
    for pair in responses[own + 1..].chunks(2) {
        let [doc, pdf] = pair else { continue };
        if doc["status"] != 200 || pdf["status"] != 200 {
            continue;
        }
        let bytes = decode_base64(pdf["body"]["base64"].as_str().unwrap_or_default())
            .ok_or("a pdf answer without base64")?;
        found.push((doc["body"].clone(), bytes));
    }
    Ok(found)
}

/// The ids of the documents a scenario creates (201 with `doc-`), and its preloaded ones.
fn issued_ids(scenario: &Value) -> Vec<String> {
    let mut ids: Vec<String> = scenario["documents"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|d| d["id"].as_str().map(str::to_owned))
        .collect();
    let out = run(scenario.to_string().as_bytes());
    for r in out["responses"].as_array().into_iter().flatten() {
        if let Some(id) = r["body"]["id"].as_str() {
            if r["status"] == 201 && id.starts_with("doc-") && !ids.iter().any(|i| i == id) {
                ids.push(id.to_owned());
            }
        }
    }
    ids
}

/// Writes NAME.pdf and NAME.json.
fn write(out: &Path, name: &str, scenario: &Value, doc: &Value, pdf: &[u8]) -> Result<(), String> {
    let relation = scenario["relations"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|r| r["id"] == doc["relation_id"])
        .cloned()
        .unwrap_or(Value::Null);
    let mut company = scenario["company"].clone();
    if let Value::Object(m) = &mut company {
        m.remove("logo");
    }
    let language = scenario["company"]["language"].as_str().unwrap_or("en");
    let mut m = Map::new();
    m.insert("document".into(), doc.clone());
    m.insert("company".into(), company);
    m.insert("relation".into(), relation);
    m.insert("language".into(), json!(language));
    let text = serde_json::to_string_pretty(&Value::Object(m)).map_err(|e| e.to_string())?;
    std::fs::write(out.join(format!("{name}.json")), text).map_err(|e| e.to_string())?;
    std::fs::write(out.join(format!("{name}.pdf")), pdf).map_err(|e| e.to_string())
}

fn bundled(out: &Path) -> Result<usize, String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/scenarios");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| e.to_string())?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    let mut n = 0;
    for path in paths {
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        let bytes = std::fs::read(&path).map_err(|e| e.to_string())?;
        let scenario: Value = serde_json::from_slice(&bytes).map_err(|e| e.to_string())?;
        let ids = issued_ids(&scenario);
        for (doc, pdf) in documents_and_pdfs(&scenario, &ids)? {
            let id = doc["id"].as_str().unwrap_or_default().to_owned();
            write(out, &format!("bundled-{stem}-{id}"), &scenario, &doc, &pdf)?;
            n += 1;
        }
    }
    Ok(n)
}

fn generated(out: &Path, count: usize, seed: u64) -> Result<(), String> {
    let mut rng = Rng(seed);
    let mut written = 0;
    while written < count {
        let language = *rng.pick(&["en", "nl", "fr", "de"]);
        let doc_type = *rng.pick(&[
            "sale_invoice",
            "sale_invoice",
            "sale_credit_note",
            "purchase_invoice",
            "purchase_credit_note",
            "proforma_invoice",
        ]);
        let name = *rng.pick(NAMES);
        let lines = usize::try_from(rng.below(8) + 1).unwrap_or(1);
        let mut scenario = world(language, name, true);
        let create = body(&mut rng, doc_type, lines);
        scenario["requests"] =
            json!([{"client": "app", "method": "POST", "path": "/documents", "body": create}]);
        let ids = issued_ids(&scenario);
        let Some((doc, pdf)) = documents_and_pdfs(&scenario, &ids)?.into_iter().next() else {
            continue; // a body the rules refuse is drawn again
        };
        write(out, &format!("gen-{written:04}"), &scenario, &doc, &pdf)?;
        written += 1;
    }
    let mut pages = Vec::new();
    for lines in [1usize, 50, 500] {
        let mut scenario = world("en", "Brouwerij De Kaai NV", false);
        let mut create = body(&mut rng, "sale_invoice", lines);
        create["allowance_charges"] = json!([]);
        scenario["requests"] =
            json!([{"client": "app", "method": "POST", "path": "/documents", "body": create}]);
        let ids = issued_ids(&scenario);
        let (doc, pdf) = documents_and_pdfs(&scenario, &ids)?
            .into_iter()
            .next()
            .ok_or_else(|| format!("the {lines}-line invoice was refused"))?;
        let name = format!("lines-{lines:04}");
        write(out, &name, &scenario, &doc, &pdf)?;
        pages.push(name);
    }
    std::fs::write(out.join("pages.json"), json!(pages).to_string()).map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    let mut out = None;
    let (mut count, mut seed) = (100usize, 17u64);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().unwrap_or_default();
        match flag.as_str() {
            "--out" => out = Some(PathBuf::from(value)),
            "--count" => count = value.parse().unwrap_or(count),
            "--seed" => seed = value.parse().unwrap_or(seed),
            other => {
                eprintln!("unknown argument {other}");
                return ExitCode::from(2);
            }
        }
    }
    let Some(out) = out else {
        eprintln!("usage: pdf_corpus --out DIR [--count N] [--seed S]");
        return ExitCode::from(2);
    };
    let result = std::fs::create_dir_all(&out)
        .map_err(|e| e.to_string())
        .and_then(|()| bundled(&out))
        .and_then(|n| generated(&out, count, seed).map(|()| n));
    match result {
        Ok(n) => {
            println!("{n} bundled documents, {count} generated, 3 of 1, 50 and 500 lines");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("pdf_corpus: {e}");
            ExitCode::FAILURE
        }
    }
}
