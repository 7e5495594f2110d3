//! The back office's state overrides (`SET`).

use super::*;

// ---------------------------------------------------------------------------------
// State overrides
// ---------------------------------------------------------------------------------

#[test]
fn apply_state_sets_each_status() {
    // interface.md States: the state fields and their values
    let doc = stored();
    let out = apply_state(
        &doc,
        &json!({
            "accounting_status": "exported",
            "peppol_status": "accepted",
            "mail_status": "sent",
            "payment_status": "unknown",
            "pdf_available": true,
            "xml_available": true
        }),
    )
    .expect("applied");
    assert_eq!(out.accounting_status, AccountingStatus::Exported);
    assert_eq!(out.peppol_status, PeppolStatus::Accepted);
    assert_eq!(out.mail_status, MailStatus::Sent);
    assert_eq!(out.payment_status, PaymentStatus::Unknown);
    assert!(out.pdf_available && out.xml_available);
    for a in AccountingStatus::ALL {
        assert_eq!(
            apply_state(&doc, &json!({"accounting_status": a.as_str()}))
                .expect("applied")
                .accounting_status,
            a
        );
    }
    for p in PeppolStatus::ALL {
        assert_eq!(
            apply_state(&doc, &json!({"peppol_status": p.as_str()}))
                .expect("applied")
                .peppol_status,
            p
        );
    }
    for m in MailStatus::ALL {
        assert_eq!(
            apply_state(&doc, &json!({"mail_status": m.as_str()}))
                .expect("applied")
                .mail_status,
            m
        );
    }
    assert_eq!(apply_state(&doc, &json!({})).expect("applied"), doc);
}

#[test]
fn apply_state_booleans_are_lax() {
    // decisions.md §9: booleans in bodies are lax alike
    let doc = stored();
    for (v, b) in [
        (json!("on"), true),
        (json!(1), true),
        (json!("YES"), true),
        (json!("FALSE"), false),
        (json!(0), false),
        (json!("off"), false),
    ] {
        let out = apply_state(
            &doc,
            &json!({"pdf_available": v.clone(), "xml_available": v}),
        )
        .expect("applied");
        assert_eq!((out.pdf_available, out.xml_available), (b, b));
    }
}

#[test]
fn apply_state_paid_amount_rederives_payment_status() {
    // decisions.md §3.10: 0 → unpaid; 0 < paid < total → partial; paid = total → paid
    let doc = stored();
    for (paid, status) in [
        ("0", PaymentStatus::Unpaid),
        ("50", PaymentStatus::Partial),
        ("121.00", PaymentStatus::Paid),
    ] {
        let out = apply_state(&doc, &json!({"paid_amount": paid})).expect("applied");
        assert_eq!(out.payment_status, status, "{paid}");
        assert_eq!(
            field(&out, "paid_amount"),
            Currency::EUR.format(paid.parse().expect("a decimal"))
        );
    }
}

#[test]
fn apply_state_payment_status_set_with_paid_amount_wins() {
    // lifecycle::apply_state: payment_status is re-derived unless it is also set
    let out = apply_state(
        &stored(),
        &json!({"paid_amount": "50", "payment_status": "unknown"}),
    )
    .expect("applied");
    assert_eq!(
        (out.paid_amount.to_string(), out.payment_status),
        ("50".to_owned(), PaymentStatus::Unknown)
    );
    let out = apply_state(&stored(), &json!({"payment_status": "paid"})).expect("applied");
    assert_eq!(
        (out.paid_amount.to_string(), out.payment_status),
        ("0".to_owned(), PaymentStatus::Paid)
    );
}

#[test]
fn apply_state_refuses_bad_values() {
    // decisions.md §8: every malformed input gets an error, nothing is applied
    let doc = stored();
    for (b, code, loc) in [
        (
            json!({"payment_status": "bogus"}),
            ErrorCode::Enum,
            json!(["body", "payment_status"]),
        ),
        (
            json!({"accounting_status": "deleted!"}),
            ErrorCode::Enum,
            json!(["body", "accounting_status"]),
        ),
        (
            json!({"peppol_status": "delivered"}),
            ErrorCode::Enum,
            json!(["body", "peppol_status"]),
        ),
        (
            json!({"mail_status": 1}),
            ErrorCode::StringType,
            json!(["body", "mail_status"]),
        ),
        (
            json!({"pdf_available": "maybe"}),
            ErrorCode::BoolParsing,
            json!(["body", "pdf_available"]),
        ),
        (
            json!({"xml_available": 2}),
            ErrorCode::BoolParsing,
            json!(["body", "xml_available"]),
        ),
        (
            json!({"paid_amount": -1}),
            ErrorCode::GreaterThanEqual,
            json!(["body", "paid_amount"]),
        ),
        (
            json!({"paid_amount": "0.001"}),
            ErrorCode::DecimalMaxPlaces,
            json!(["body", "paid_amount"]),
        ),
        (
            json!({"paid_amount": "x"}),
            ErrorCode::DecimalParsing,
            json!(["body", "paid_amount"]),
        ),
        (
            json!({"total_amount": 1}),
            ErrorCode::ExtraForbidden,
            json!(["body", "total_amount"]),
        ),
        (json!([]), ErrorCode::DictType, json!(["body"])),
    ] {
        let err = apply_state(&doc, &b).expect_err("refused");
        assert_only(&err, 422, code, &loc);
    }
    // one bad value refuses the good ones beside it
    let err = apply_state(
        &doc,
        &json!({"peppol_status": "sent", "pdf_available": "maybe"}),
    )
    .expect_err("refused");
    assert_only(
        &err,
        422,
        ErrorCode::BoolParsing,
        &json!(["body", "pdf_available"]),
    );
}
