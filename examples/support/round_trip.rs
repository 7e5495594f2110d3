//! The round-trip check shared by the corpus generator (`examples/peppol_corpus.rs`)
//! and the tests (`tests/integration/roundtrip.rs`): the UBL the crate writes for an
//! issued document, read back by the received reader (docs/peppol.md §4), states the same
//! type, number, dates, currency, references, amounts, lines and VAT codes, with
//! empty `checks`.

use invoicing_core::received::{read, ResponseInfo};
use serde_json::{json, Value};

const SAME: [&str; 17] = [
    "document_number",
    "order_number",
    "despatch_reference",
    "buyer_reference",
    "issue_date",
    "due_date",
    "tax_point_date",
    "delivery_date",
    "period_start",
    "period_end",
    "payment_remittance",
    "currency",
    "tax_exclusive_amount",
    "tax_amount",
    "total_amount",
    "paid_amount",
    "remaining_amount",
];

const SAME_LINE: [&str; 8] = [
    "quantity",
    "unit_price",
    "vat_code",
    "vat_rate",
    "item_name",
    "subtotal",
    "total",
    "unit_code",
];

/// `Ok` when `xml`, the UBL of the issued document `issued` (its response shape),
/// reads back as issued; else every difference, then the XML. `findings` are the
/// writer's: the reader's fatal `checks` (the official artefacts' rules, run by the
/// engine on the bytes) name exactly the same rules.
pub fn check_round_trip(issued: &Value, xml: &str, findings: &Value) -> Result<(), String> {
    let received = read(xml.as_bytes()).to_json(&ResponseInfo::new("in"));
    let expected_type = match issued["type"].as_str() {
        Some("sale_invoice" | "purchase_invoice") => "purchase_invoice",
        _ => "purchase_credit_note",
    };
    let mut diffs = Vec::new();
    if received["type"] != expected_type {
        diffs.push(format!("type {} for {}", received["type"], issued["type"]));
    }
    let names = |list: &Value, key: &str| -> Vec<String> {
        let mut v: Vec<String> = list
            .as_array()
            .into_iter()
            .flatten()
            .filter(|f| f.get("flag").is_none_or(|flag| flag == "fatal"))
            .filter_map(|f| f[key].as_str().map(str::to_owned))
            .collect();
        v.sort();
        v.dedup();
        v
    };
    if names(&received["checks"], "rule") != names(findings, "rule") {
        diffs.push(format!(
            "checks {} for findings {findings}",
            received["checks"]
        ));
    }
    for key in SAME {
        if received[key] != issued[key] {
            diffs.push(format!(
                "{key}: {} read back as {}",
                issued[key], received[key]
            ));
        }
    }
    let (il, rl) = (issued["lines"].as_array(), received["lines"].as_array());
    if il.map(Vec::len) != rl.map(Vec::len) {
        diffs.push("line count".to_owned());
    }
    for (i, (a, b)) in il
        .into_iter()
        .flatten()
        .zip(rl.into_iter().flatten())
        .enumerate()
    {
        for key in SAME_LINE {
            let expected = if key == "unit_code" && a[key].is_null() {
                json!("C62")
            } else {
                a[key].clone()
            };
            // A quantity or price is compared as a number: the writer writes it as stored.
            let same = match (expected.as_number(), b[key].as_number()) {
                (Some(x), Some(y)) => {
                    x.as_str().parse::<rust_decimal::Decimal>().ok()
                        == y.as_str().parse::<rust_decimal::Decimal>().ok()
                }
                _ => expected == b[key],
            };
            if !same {
                diffs.push(format!(
                    "lines[{i}].{key}: {expected} read back as {}",
                    b[key]
                ));
            }
        }
    }
    if diffs.is_empty() {
        Ok(())
    } else {
        Err(format!("{}\n{xml}", diffs.join("\n")))
    }
}
