//! Send: `POST /documents/{id}/send`.

use super::*;

// ---------------------------------------------------------------------------------
// Send
// ---------------------------------------------------------------------------------

fn send_refused(doc: &Document, b: &Value) -> ApiError {
    try_send(doc, Some(b)).expect_err("refused")
}

fn peppol_true() -> Value {
    json!({"peppol": true})
}

/// A document to [`NO_TERMS`], which is not on Peppol.
fn unreachable_doc() -> Document {
    created(&with(body(), "relation_id", json!(NO_TERMS)))
}

fn proforma() -> Document {
    created(&with(body(), "type", json!("proforma_invoice")))
}

#[test]
fn send_needs_the_u_permission() {
    // decisions.md §7: send needs u, checked before anything else
    let ctx = TestContext::new();
    let mut deleted = stored();
    deleted.accounting_status = AccountingStatus::Deleted;
    for doc in [stored(), deleted, proforma()] {
        for b in [Some(&peppol_true()), Some(&json!({"foo": 1})), None] {
            let err = send(&ctx, C_ONLY, &doc, b).expect_err("refused");
            assert_only(
                &err,
                403,
                ErrorCode::PermissionDenied,
                &json!(["header", "authorization"]),
            );
        }
    }
}

#[test]
fn send_success_sets_sending() {
    // decisions.md §7: a started send sets peppol_status sending
    let doc = stored();
    let out = try_send(&doc, Some(&peppol_true())).expect("sent");
    assert_eq!(out.peppol_status, PeppolStatus::Sending);
    let mut expect = doc.clone();
    expect.peppol_status = PeppolStatus::Sending;
    assert_eq!(out, expect);
}

#[test]
fn send_body_booleans_are_lax() {
    // decisions.md §9: booleans in bodies are lax alike
    for v in [
        json!(true),
        json!("true"),
        json!("yes"),
        json!("ON"),
        json!(1),
        json!("1"),
    ] {
        assert_eq!(
            try_send(&stored(), Some(&json!({"peppol": v})))
                .expect("sent")
                .peppol_status,
            PeppolStatus::Sending
        );
    }
    for v in [
        json!(false),
        json!("false"),
        json!("no"),
        json!("OFF"),
        json!(0),
        json!("0"),
    ] {
        assert_only(
            &send_refused(&stored(), &json!({"peppol": v})),
            422,
            ErrorCode::NoChannel,
            &json!(["body", "peppol"]),
        );
    }
}

#[test]
fn send_missing_body_is_an_empty_object() {
    // decisions.md §9: a missing body is {}; no channel is on by default
    for b in [None, Some(&Value::Null), Some(&json!({}))] {
        let err = try_send(&stored(), b).expect_err("refused");
        assert_only(&err, 422, ErrorCode::NoChannel, &json!(["body", "peppol"]));
    }
}

#[test]
fn send_extra_key_is_extra_forbidden_alone() {
    // decisions.md §9: errors in the body's shape answer alone
    let mut deleted = stored();
    deleted.accounting_status = AccountingStatus::Deleted;
    for doc in [stored(), deleted, proforma()] {
        assert_only(
            &send_refused(&doc, &json!({"peppol": true, "mail": true})),
            422,
            ErrorCode::ExtraForbidden,
            &json!(["body", "mail"]),
        );
        assert_only(
            &send_refused(&doc, &json!({"send_mail": true})),
            422,
            ErrorCode::ExtraForbidden,
            &json!(["body", "send_mail"]),
        );
    }
}

#[test]
fn send_bad_boolean_is_bool_parsing_alone() {
    // decisions.md §9: a bad boolean is bool_parsing, answered alone
    let mut deleted = stored();
    deleted.accounting_status = AccountingStatus::Deleted;
    for doc in [stored(), deleted] {
        for v in [json!("maybe"), json!(2), json!([]), json!({}), json!("")] {
            assert_only(
                &send_refused(&doc, &json!({"peppol": v})),
                422,
                ErrorCode::BoolParsing,
                &json!(["body", "peppol"]),
            );
        }
    }
    let err = send_refused(&stored(), &json!({"peppol": "maybe", "x": 1}));
    assert_set(
        &err,
        422,
        &[
            (ErrorCode::BoolParsing, json!(["body", "peppol"])),
            (ErrorCode::ExtraForbidden, json!(["body", "x"])),
        ],
    );
}

#[test]
fn send_document_deleted_comes_first() {
    // decisions.md §9: document_deleted (at ["path", "id"]) is the first check after the shape
    let mut doc = proforma();
    doc.accounting_status = AccountingStatus::Deleted;
    doc.peppol_status = PeppolStatus::Sent;
    for b in [json!({}), peppol_true()] {
        assert_only(
            &send_refused(&doc, &b),
            422,
            ErrorCode::DocumentDeleted,
            &json!(["path", "id"]),
        );
    }
}

#[test]
fn send_no_channel() {
    // decisions.md §7: peppol false or absent is no_channel, before the type and status checks
    let mut doc = proforma();
    doc.peppol_status = PeppolStatus::Sent;
    for b in [json!({}), json!({"peppol": false}), json!({"peppol": null})] {
        assert_only(
            &send_refused(&doc, &b),
            422,
            ErrorCode::NoChannel,
            &json!(["body", "peppol"]),
        );
    }
}

#[test]
fn send_not_peppol_type() {
    // interface.md Errors §4: a send of a proforma; decisions.md §9: before already_sent
    assert_only(
        &send_refused(&proforma(), &peppol_true()),
        422,
        ErrorCode::NotPeppolType,
        &json!(["body", "peppol"]),
    );
    let mut doc = created(&with(
        with(body(), "type", json!("proforma_invoice")),
        "relation_id",
        json!(NO_TERMS),
    ));
    doc.peppol_status = PeppolStatus::Sent;
    assert_only(
        &send_refused(&doc, &peppol_true()),
        422,
        ErrorCode::NotPeppolType,
        &json!(["body", "peppol"]),
    );
}

#[test]
fn send_peppol_carries_the_four_other_types() {
    // decisions.md §7: Peppol carries sale_invoice, sale_credit_note, purchase_invoice, purchase_credit_note
    let mut ctx = TestContext::new();
    ctx.company.self_billing = true;
    for t in [
        "sale_invoice",
        "sale_credit_note",
        "purchase_invoice",
        "purchase_credit_note",
    ] {
        let doc = created_in(&ctx, &with(body(), "type", json!(t)));
        assert_eq!(
            send(&ctx, ALL, &doc, Some(&peppol_true()))
                .expect("sent")
                .peppol_status,
            PeppolStatus::Sending,
            "{t}"
        );
    }
}

#[test]
fn send_already_sent() {
    // interface.md Errors §4: a send of a document that has already left; decisions.md §9:
    // already_sent comes before send_failed
    for p in [
        PeppolStatus::Sending,
        PeppolStatus::Sent,
        PeppolStatus::Accepted,
        PeppolStatus::Unknown,
    ] {
        for mut doc in [stored(), unreachable_doc()] {
            doc.peppol_status = p;
            assert_only(
                &send_refused(&doc, &peppol_true()),
                422,
                ErrorCode::AlreadySent,
                &json!(["body", "peppol"]),
            );
        }
    }
}

#[test]
fn send_failed_names_the_document() {
    // decisions.md §7: a recipient not reachable on Peppol is send_failed, ctx {"document_id": ID}
    let err = send_refused(&unreachable_doc(), &peppol_true());
    assert_only(&err, 422, ErrorCode::SendFailed, &json!(["body", "peppol"]));
    assert_eq!(err.errors[0].ctx, Some(json!({"document_id": DOC_ID})));
    // a relation that no longer resolves cannot receive either
    let mut doc = stored();
    doc.relation_id = "rel-gone".to_owned();
    let err = send_refused(&doc, &peppol_true());
    assert_only(&err, 422, ErrorCode::SendFailed, &json!(["body", "peppol"]));
    assert_eq!(err.errors[0].ctx, Some(json!({"document_id": DOC_ID})));
}

#[test]
fn send_resend_allowed_after_rejected_and_failed() {
    // interface.md States: rejected or failed, send with peppol true → sent again
    for p in [
        PeppolStatus::Rejected,
        PeppolStatus::Failed,
        PeppolStatus::NotSent,
    ] {
        let mut doc = stored();
        doc.peppol_status = p;
        assert_eq!(
            try_send(&doc, Some(&peppol_true()))
                .expect("sent")
                .peppol_status,
            PeppolStatus::Sending
        );
    }
    let mut doc = unreachable_doc();
    doc.peppol_status = PeppolStatus::Failed;
    assert_only(
        &send_refused(&doc, &peppol_true()),
        422,
        ErrorCode::SendFailed,
        &json!(["body", "peppol"]),
    );
}

#[test]
fn send_body_not_an_object_is_dict_type() {
    // decisions.md §8: a value of the wrong JSON type
    for b in [json!([]), json!(true), json!("peppol")] {
        assert_only(
            &send_refused(&stored(), &b),
            422,
            ErrorCode::DictType,
            &json!(["body"]),
        );
    }
}

#[test]
fn send_accepted_on_a_locked_accounting_status() {
    // decisions.md §7: the send checks do not include the accounting lock
    let mut doc = stored();
    doc.accounting_status = AccountingStatus::Exported;
    assert_eq!(
        try_send(&doc, Some(&peppol_true()))
            .expect("sent")
            .peppol_status,
        PeppolStatus::Sending
    );
}
