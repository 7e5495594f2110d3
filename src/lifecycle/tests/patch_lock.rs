//! PATCH: the edit lock and properties.

use super::*;

// ---------------------------------------------------------------------------------
// PATCH: the edit lock
// ---------------------------------------------------------------------------------

/// The document the lock tests start from: every optional field set, no location.
fn lock_base() -> Document {
    created(&without(
        without(full_body(), "delivery_location_id"),
        "allowance_charges",
    ))
}

/// The statuses that lock a document (decisions.md §6), each applied to `base`.
fn locked_variants(base: &Document) -> Vec<Document> {
    let mut out = Vec::new();
    for p in [
        PeppolStatus::Sending,
        PeppolStatus::Sent,
        PeppolStatus::Accepted,
        PeppolStatus::Unknown,
    ] {
        let mut doc = base.clone();
        doc.peppol_status = p;
        out.push(doc);
    }
    for a in [
        AccountingStatus::Transfered,
        AccountingStatus::Exporting,
        AccountingStatus::Exported,
        AccountingStatus::Posting,
        AccountingStatus::Validated,
        AccountingStatus::Imported,
    ] {
        let mut doc = base.clone();
        doc.accounting_status = a;
        out.push(doc);
    }
    out
}

/// One real change per field of [`lock_base`]'s document, each valid on its own.
fn real_changes() -> Vec<(&'static str, Value)> {
    vec![
        ("relation_id", json!(NO_TERMS)),
        ("delivery_location_id", json!(LOC_COMPANY)),
        ("issue_date", json!("2026-11-11")),
        ("payment_terms", json!("15-df")),
        ("tax_point_date", json!("2026-11-11")),
        ("delivery_date", json!("2026-11-10")),
        ("period_start", json!("2026-10-02")),
        ("period_end", json!("2026-10-30")),
        ("order_number", json!("PO-2")),
        ("despatch_reference", json!("D-2")),
        ("buyer_reference", json!("B-2")),
        ("legal_notice", json!("L2")),
        ("currency", json!("USD")),
        ("lines", json!([line()])),
        ("allowance_charges", json!([])),
    ]
}

/// A null that is a real change on [`lock_base`]'s document (the field holds a value).
fn null_changes() -> Vec<&'static str> {
    vec![
        "tax_point_date",
        "delivery_date",
        "period_start",
        "period_end",
        "order_number",
        "despatch_reference",
        "buyer_reference",
        "legal_notice",
        "allowance_charges",
    ]
}

#[test]
fn patch_real_changes_pass_on_an_editable_document() {
    // decisions.md §6: the lock applies only to the locking statuses
    let base = lock_base();
    for (key, v) in real_changes() {
        patched(&base, &json!({key: v}));
    }
    for p in [
        PeppolStatus::NotSent,
        PeppolStatus::Rejected,
        PeppolStatus::Failed,
    ] {
        let mut doc = base.clone();
        doc.peppol_status = p;
        assert_eq!(
            patched(&doc, &json!({"order_number": "PO-9"}))
                .order_number
                .as_deref(),
            Some("PO-9")
        );
    }
    for a in [
        AccountingStatus::Waiting,
        AccountingStatus::Accepted,
        AccountingStatus::ExportError,
        AccountingStatus::Hidden,
        AccountingStatus::PostingError,
        AccountingStatus::Unknown,
    ] {
        let mut doc = base.clone();
        doc.accounting_status = a;
        assert_eq!(
            patched(&doc, &json!({"order_number": "PO-9"}))
                .order_number
                .as_deref(),
            Some("PO-9")
        );
    }
}

#[test]
fn patch_edit_lock_refuses_each_real_change() {
    // decisions.md §6, §9: under the lock each real change other than paid_amount gets its own
    // document_locked at ["body", FIELD]
    for doc in locked_variants(&lock_base()) {
        let state = format!(
            "{} / {}",
            doc.peppol_status.as_str(),
            doc.accounting_status.as_str()
        );
        for (key, v) in real_changes() {
            let err = patch_refused(&doc, &json!({key: v}));
            assert_eq!(
                found(&err),
                vec![(ErrorCode::DocumentLocked, json!(["body", key]))],
                "{state}: {err}"
            );
            assert_eq!(err.status, 422);
        }
        for key in null_changes() {
            refuse_patch(
                &doc,
                &json!({key: null}),
                ErrorCode::DocumentLocked,
                &json!(["body", key]),
            );
        }
    }
}

#[test]
fn patch_edit_lock_reports_every_changed_field() {
    // decisions.md §9: each real change gets its own document_locked; paid_amount may still change
    for doc in locked_variants(&lock_base()) {
        let mut b = json!({"paid_amount": "5"});
        let mut expected = Vec::new();
        for (key, v) in real_changes() {
            let v = if key == "delivery_location_id" {
                json!(LOC_NO_TERMS)
            } else {
                v
            };
            b = with(b, key, v);
            expected.push((ErrorCode::DocumentLocked, json!(["body", key])));
        }
        assert_set(&patch_refused(&doc, &b), 422, &expected);
    }
}

#[test]
fn patch_edit_lock_allows_paid_amount() {
    // decisions.md §6: once locked only paid_amount may change
    for doc in locked_variants(&lock_base()) {
        let out = patched(&doc, &json!({"paid_amount": "21"}));
        assert_eq!(
            (out.paid_amount.to_string(), out.payment_status),
            ("21".to_owned(), PaymentStatus::Partial)
        );
        assert_eq!(out.peppol_status, doc.peppol_status);
        assert_eq!(out.accounting_status, doc.accounting_status);
        refuse_patch(
            &doc,
            &json!({"paid_amount": "121.01"}),
            ErrorCode::PaidAmountAboveTotal,
            &json!(["body", "paid_amount"]),
        );
    }
}

#[test]
fn patch_edit_lock_a_field_sent_with_its_current_value_is_not_a_change() {
    // decisions.md §9: a field sent with the value it already has, and ignored fields, are not changes
    let same = json!({
        "type": "sale_invoice",
        "journal_id": J_SALES,
        "relation_id": COMPANY,
        "delivery_location_id": null,
        "issue_date": "2026-11-10",
        "payment_terms": "30-fm",
        "tax_point_date": "2026-11-10",
        "delivery_date": "2026-11-09",
        "period_start": "2026-10-01",
        "period_end": "2026-10-31",
        "order_number": "PO-1",
        "despatch_reference": "D-1",
        "buyer_reference": "B-1",
        "legal_notice": "L1",
        "currency": "EUR",
        "relation_type": "contact",
        "attachments": [{"filename": "a.pdf"}],
        "due_date": "2000-01-01",
        "paid_amount": "121.00"
    });
    for doc in locked_variants(&lock_base()) {
        let out = patched(&doc, &same);
        assert_eq!(out.payment_status, PaymentStatus::Paid);
        let mut expect = doc.clone();
        expect.paid_amount = out.paid_amount;
        expect.payment_status = PaymentStatus::Paid;
        assert_eq!(out, expect);
    }
    // a location left as it is, and a null on a field already empty, are no change either
    let mut doc = created(&with(full_body(), "allowance_charges", Value::Null));
    doc.peppol_status = PeppolStatus::Sent;
    patched(&doc, &json!({"delivery_location_id": LOC_COMPANY}));
    let mut empty = stored();
    empty.accounting_status = AccountingStatus::Exported;
    patched(
        &empty,
        &json!({"order_number": null, "delivery_location_id": null, "period_start": null, "legal_notice": LEGAL}),
    );
}

#[test]
fn patch_edit_lock_lines_and_allowances_sent_are_always_a_change() {
    // decisions.md §9: lines and allowance_charges sent are always a change
    let doc = created(&full_body());
    for locked in locked_variants(&doc) {
        refuse_patch(
            &locked,
            &json!({"lines": [line()]}),
            ErrorCode::DocumentLocked,
            &json!(["body", "lines"]),
        );
        refuse_patch(
            &locked,
            &json!({"allowance_charges": [{"type": "allowance", "rate": 10}]}),
            ErrorCode::DocumentLocked,
            &json!(["body", "allowance_charges"]),
        );
    }
    let mut bare = stored();
    bare.peppol_status = PeppolStatus::Accepted;
    refuse_patch(
        &bare,
        &json!({"allowance_charges": []}),
        ErrorCode::DocumentLocked,
        &json!(["body", "allowance_charges"]),
    );
    refuse_patch(
        &bare,
        &json!({"allowance_charges": null}),
        ErrorCode::DocumentLocked,
        &json!(["body", "allowance_charges"]),
    );
}

#[test]
fn patch_edit_lock_type_and_journal_are_read_only_not_locked() {
    // decisions.md §9: a changed type or journal_id is read_only, locked or not
    for doc in locked_variants(&lock_base()) {
        refuse_patch(
            &doc,
            &json!({"type": "sale_credit_note"}),
            ErrorCode::ReadOnly,
            &json!(["body", "type"]),
        );
        refuse_patch(
            &doc,
            &json!({"journal_id": J_SALES_NEVER}),
            ErrorCode::ReadOnly,
            &json!(["body", "journal_id"]),
        );
        assert_eq!(
            patched(&doc, &json!({"type": null, "journal_id": J_SALES})),
            doc
        );
    }
}

#[test]
fn patch_edit_lock_an_invalid_value_is_reported_alone() {
    // decisions.md §9: a rule runs only when the fields it reads are valid; a value refused
    // by its own checks is reported, not as a locked change
    for doc in locked_variants(&lock_base()) {
        refuse_patch(
            &doc,
            &json!({"relation_id": "rel-nope"}),
            ErrorCode::RelationNotFound,
            &json!(["body", "relation_id"]),
        );
        refuse_patch(
            &doc,
            &json!({"currency": "XAU"}),
            ErrorCode::CurrencyNotSupported,
            &json!(["body", "currency"]),
        );
        refuse_patch(
            &doc,
            &json!({"order_number": "o".repeat(256)}),
            ErrorCode::StringTooLong,
            &json!(["body", "order_number"]),
        );
        refuse_patch(
            &doc,
            &json!({"lines": []}),
            ErrorCode::TooShort,
            &json!(["body", "lines"]),
        );
    }
}

#[test]

fn patch_edit_lock_an_unresolved_location_is_reported_alone() {
    // decisions.md §9: a rule runs only when the fields it reads are valid, context included
    // (as for a relation_id that does not resolve, which gets relation_not_found alone)
    for doc in locked_variants(&lock_base()) {
        refuse_patch(
            &doc,
            &json!({"delivery_location_id": "loc-nope"}),
            ErrorCode::DeliveryLocationNotFound,
            &json!(["body", "delivery_location_id"]),
        );
    }
}

#[test]
fn patch_deleted_wins_over_the_lock() {
    // decisions.md §6: a deleted document takes no change
    let mut doc = stored();
    doc.accounting_status = AccountingStatus::Deleted;
    doc.peppol_status = PeppolStatus::Sent;
    refuse_patch(
        &doc,
        &json!({"paid_amount": 1}),
        ErrorCode::DocumentDeleted,
        &json!(["path", "id"]),
    );
}

#[test]

fn patch_currency_change_revalidates_stored_amounts_against_the_new_minor_unit() {
    // decisions.md §2: amounts have the currency's minor-unit decimals, no computed amount is
    // silently rounded, and remaining_amount = total_amount − paid_amount (§3.8). A stored
    // paid_amount of 0.50 EUR cannot stay 0.50 in JPY: the PATCH must be refused (or the
    // response would show paid 1, remaining total − 0.5 rounded, breaking the identity).
    let doc = patched(&stored(), &json!({"paid_amount": "0.50"}));
    let err = patch_refused(&doc, &json!({"currency": "JPY"}));
    assert_has(
        &err,
        ErrorCode::DecimalMaxPlaces,
        &json!(["body", "paid_amount"]),
    );
}

#[test]

fn patch_currency_change_does_not_round_stored_fixed_allowances() {
    // decisions.md §2: a fixed allowance/charge with more decimals than the minor unit is
    // refused, and amounts are never silently rounded; a stored 0.50 EUR charge sent again
    // as JPY would be refused, so a currency change that keeps it must be refused too
    let doc = created(&with(body(), "allowance_charges", json!([charge("0.50")])));
    let err = patch_refused(&doc, &json!({"currency": "JPY"}));
    assert_has(
        &err,
        ErrorCode::DecimalMaxPlaces,
        &json!(["body", "allowance_charges", 0, "amount"]),
    );
}

// ---------------------------------------------------------------------------------
// PATCH: properties
// ---------------------------------------------------------------------------------

/// Candidate PATCH entries, valid and invalid, for the property tests.
fn patch_entries() -> Vec<(&'static str, Value)> {
    vec![
        ("order_number", json!("PO-7")),
        ("order_number", json!(null)),
        ("order_number", json!("o".repeat(256))),
        ("buyer_reference", json!(5)),
        ("legal_notice", json!(null)),
        ("relation_id", json!(NO_TERMS)),
        ("relation_id", json!("rel-nope")),
        ("relation_id", json!(null)),
        ("delivery_location_id", json!(LOC_COMPANY)),
        ("delivery_location_id", json!(LOC_NO_TERMS)),
        ("delivery_location_id", json!(null)),
        ("issue_date", json!("2026-11-01")),
        ("issue_date", json!("2025-11-01")),
        ("issue_date", json!("2026-11-22")),
        ("payment_terms", json!("0-mf")),
        ("payment_terms", json!("30-DF")),
        ("period_start", json!("2026-12-01")),
        ("period_end", json!("2026-10-15")),
        ("currency", json!("USD")),
        ("currency", json!("eur")),
        ("currency", json!(null)),
        ("paid_amount", json!("50")),
        ("paid_amount", json!("500")),
        ("paid_amount", json!("0.001")),
        ("paid_amount", json!(null)),
        (
            "lines",
            json!([{"quantity": 1, "unit_price": 10, "vat_rate": 6}]),
        ),
        ("lines", json!([])),
        (
            "lines",
            json!([{"quantity": -50, "unit_price": 10, "vat_rate": 6}]),
        ),
        (
            "allowance_charges",
            json!([{"type": "allowance", "rate": 50}]),
        ),
        ("allowance_charges", json!(null)),
        ("type", json!("sale_credit_note")),
        ("journal_id", json!(J_SALES)),
        ("total_amount", json!(1)),
        ("foo", json!(1)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    // A PATCH that is refused leaves the stored document as it was: equal, and
    // byte-identical in its response shape (decisions.md §8: nothing is written).
    // A PATCH is deterministic (decisions.md §1): the same inputs give the same answer.
    #[test]
    fn prop_refused_patch_leaves_the_document_unchanged(
        entries in proptest::sample::subsequence(patch_entries(), 0..=6),
        which in 0usize..5,
        update in any::<bool>(),
    ) {
        let ctx = TestContext::new();
        let stored = stored_variants().swap_remove(which);
        let before = stored.clone();
        let text = stored.to_json().to_string();
        let mut b = json!({});
        for (k, v) in entries {
            b = with(b, k, v);
        }
        let perms = Permissions { create: false, update };
        let first = patch(&ctx, perms, &stored, Some(&b));
        let second = patch(&ctx, perms, &stored, Some(&b));
        prop_assert_eq!(&first, &second);
        if let Err(e) = &first {
            prop_assert!(!e.errors.is_empty());
            prop_assert_eq!(&stored, &before);
            prop_assert_eq!(stored.to_json().to_string(), text.clone());
        }
        if !update {
            prop_assert_eq!(first.as_ref().map_err(|e| e.status), Err(403));
        }
    }

    // PATCH {} (or only ignored fields) on an editable document returns it unchanged, and a
    // PATCH with the lines it was created with returns the same amounts.
    #[test]
    fn prop_noop_patch_returns_the_document(
        quantities in proptest::collection::vec(1i64..1000, 1..5),
        cents in proptest::collection::vec(0i64..100_000, 1..5),
        rate in prop::sample::select(vec!["6", "12", "21", "21.00"]),
    ) {
        let lines: Vec<Value> = quantities
            .iter()
            .zip(cents.iter().cycle())
            .map(|(q, c)| json!({"quantity": q, "unit_price": Decimal::new(*c, 2).to_string(), "vat_rate": rate}))
            .collect();
        let doc = created(&with(body(), "lines", Value::Array(lines.clone())));
        let ctx = TestContext::new();
        let same = patch(&ctx, ALL, &doc, Some(&json!({}))).expect("accepted");
        prop_assert_eq!(&same, &doc);
        let again = patch(&ctx, ALL, &doc, Some(&json!({"lines": lines}))).expect("accepted");
        prop_assert_eq!(&again.computation, &doc.computation);
        prop_assert_eq!(again.to_json().to_string(), doc.to_json().to_string());
    }
}
