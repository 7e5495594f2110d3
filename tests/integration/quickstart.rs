//! The README's first command runs `examples/scenarios/quickstart.json`: its amounts
//! are pinned here against the hand computation (docs/decisions.md §3).
//!
//! Lines: 2 × 145.00 = 290.00, less 10 % (29.00) = 261.00 at 21 % → 54.81;
//! 24 × 38.50 = 924.00 at 12 % → 110.88; 15 × 18.75 = 281.25 at 6 % → 16.875 → 16.88.
//! Document allowance 50.00 = 5000 cents over the bases 261.00 / 924.00 / 281.25
//! (total 1466.25): 890.03 / 3150.90 / 959.08 cents → floors 890 + 3150 + 959 = 4999,
//! the cent left goes to the largest remainder (0.90, the 12 % group): shares
//! 8.90 / 31.51 / 9.59. Taxable 252.10 / 892.49 / 271.66; VAT 52.941 → 52.94,
//! 107.0988 → 107.10, 16.2996 → 16.30. `tax_exclusive_amount` 1416.25, VAT 176.34, total
//! 1592.59. Number INV2026-0128 (yearly journal, next 128); communication base
//! 0020260128, 20260128 mod 97 = 29 → +++002/0260/12829+++. Terms 30-fm from
//! 2026-11-21: 2026-12-01 + 30 days = 2026-12-31.

use crate::expect::check_expectations;
use crate::support::{j, redact_files};
use invoicing_core::simulator::run;

#[test]
fn quickstart_amounts_match_the_hand_computation() {
    let result = run(include_str!("../../examples/scenarios/quickstart.json").as_bytes());
    let document = r#"{
        "id": "doc-1", "document_number": "INV2026-0128", "payment_remittance": "+++002/0260/12829+++",
        "issue_date": "2026-11-21", "due_date": "2026-12-31", "create_date": "2026-11-21T08:30:00Z",
        "currency": "EUR", "journal_id": "jrn-inv", "delivery_location_id": "loc-parc-kitchen",
        "allowance_charges": [{"type": "allowance", "amount": 50.00, "rate": null}],
        "lines": [
            {"subtotal": 290.00, "total": 261.00, "tax_amount": 54.81,
             "allowance_charges": [{"amount": 29.00, "rate": 10}]},
            {"subtotal": 924.00, "total": 924.00, "tax_amount": 110.88},
            {"subtotal": 281.25, "total": 281.25, "tax_amount": 16.88}
        ],
        "vat_breakdown": [
            {"vat_rate": 21, "taxable_amount": 252.10, "tax_amount": 52.94},
            {"vat_rate": 12, "taxable_amount": 892.49, "tax_amount": 107.10},
            {"vat_rate": 6, "taxable_amount": 271.66, "tax_amount": 16.30}
        ],
        "tax_exclusive_amount": 1416.25, "tax_amount": 176.34, "total_amount": 1592.59,
        "paid_amount": 0.00, "remaining_amount": 1592.59, "payment_status": "unpaid"
    }"#;
    let expect = [
        j(&format!(r#"{{"status": 201, "body": {document}}}"#)),
        j(&format!(r#"{{"status": 200, "body": {document}}}"#)),
        j(r#"{"status": 200, "body": {}}"#),
        j(r#"{"status": 200, "body": {"findings": []}}"#),
    ];
    if let Err(e) = check_expectations(&result, &expect) {
        panic!("{e}\n{result}");
    }
}

/// The whole quickstart answer, pinned byte for byte: field order, the minor-unit
/// decimals of every amount, the echo of quantities, prices and rates as sent.
#[test]
fn quickstart_response_snapshot() {
    let result = run(include_str!("../../examples/scenarios/quickstart.json").as_bytes());
    let pretty = serde_json::to_string_pretty(&result).unwrap_or_default();
    insta::assert_snapshot!("quickstart_response", redact_files(&pretty));
}

/// The lifecycle scenario's answers, pinned: create, PATCH, send, TICK, the edit lock,
/// a rejected resend, a sandbox create that does not resolve, a branding designation.
#[test]
fn lifecycle_response_snapshot() {
    let result = run(include_str!("../../examples/scenarios/lifecycle.json").as_bytes());
    let pretty = serde_json::to_string_pretty(&result).unwrap_or_default();
    insta::assert_snapshot!("lifecycle_response", redact_files(&pretty));
}
