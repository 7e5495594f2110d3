//! PATCH: permissions, body shape, absent/null/value, lines and amounts, dates, the
//! relation and location, the edit lock, and its properties.

use super::*;

// ---------------------------------------------------------------------------------
// PATCH: permissions, deleted documents, body shape
// ---------------------------------------------------------------------------------

#[test]
fn patch_needs_the_u_permission() {
    // decisions.md §7: PATCH needs u, checked before anything else
    let ctx = TestContext::new();
    let doc = stored();
    let mut deleted = doc.clone();
    deleted.accounting_status = AccountingStatus::Deleted;
    for target in [&doc, &deleted] {
        for b in [Some(&json!({"order_number": "x"})), Some(&json!(5)), None] {
            let err = patch(&ctx, C_ONLY, target, b).expect_err("refused");
            assert_only(
                &err,
                403,
                ErrorCode::PermissionDenied,
                &json!(["header", "authorization"]),
            );
        }
    }
    assert!(patch(&ctx, U_ONLY, &doc, Some(&json!({}))).is_ok());
}

#[test]
fn patch_of_a_deleted_document_is_document_deleted_even_for_empty_body() {
    // decisions.md §6, §9: any PATCH of a deleted document, even {}, at ["path", "id"]
    let mut doc = stored();
    doc.accounting_status = AccountingStatus::Deleted;
    let ctx = TestContext::new();
    for b in [
        json!({}),
        json!({"paid_amount": 1}),
        json!({"order_number": 5, "foo": 1}),
        json!([1]),
    ] {
        assert_only(
            &patch_refused(&doc, &b),
            422,
            ErrorCode::DocumentDeleted,
            &json!(["path", "id"]),
        );
    }
    let err = patch(&ctx, ALL, &doc, None).expect_err("refused");
    assert_only(
        &err,
        422,
        ErrorCode::DocumentDeleted,
        &json!(["path", "id"]),
    );
}

#[test]
fn patch_missing_or_non_object_body() {
    // decisions.md §9: a missing or null body is missing at ["body"]; not an object is dict_type
    let ctx = TestContext::new();
    let doc = stored();
    for b in [None, Some(&Value::Null)] {
        assert_only(
            &patch(&ctx, ALL, &doc, b).expect_err("refused"),
            422,
            ErrorCode::Missing,
            &json!(["body"]),
        );
    }
    for b in [json!([]), json!("x"), json!(1)] {
        refuse_patch(&doc, &b, ErrorCode::DictType, &json!(["body"]));
    }
}

#[test]
fn patch_empty_body_returns_the_document_unchanged() {
    // interface.md PATCH: only the fields present are applied
    let doc = stored();
    let out = patched(&doc, &json!({}));
    assert_eq!(out, doc);
    assert_eq!(out.to_json().to_string(), doc.to_json().to_string());
}

#[test]
fn patch_extra_forbidden_and_derived_field() {
    // decisions.md §6: derived Document fields are derived_field, other keys extra_forbidden
    let doc = stored();
    for key in [
        "total_amount",
        "document_number",
        "payment_status",
        "peppol_status",
        "id",
        "vat_breakdown",
    ] {
        refuse_patch(
            &doc,
            &json!({key: 1}),
            ErrorCode::DerivedField,
            &json!(["body", key]),
        );
    }
    for key in ["foo", "send_peppol", "status"] {
        refuse_patch(
            &doc,
            &json!({key: 1}),
            ErrorCode::ExtraForbidden,
            &json!(["body", key]),
        );
    }
    let lines = json!([{"quantity": 1, "unit_price": 1, "vat_rate": 21, "subtotal": 1}]);
    refuse_patch(
        &doc,
        &json!({"lines": lines}),
        ErrorCode::DerivedField,
        &json!(["body", "lines", 0, "subtotal"]),
    );
}

#[test]
fn patch_ignores_relation_type_attachments_and_due_date() {
    // interface.md PATCH table, decisions.md §9: ignored whatever their value
    let doc = stored();
    for v in [
        json!("contact"),
        json!(null),
        json!(5),
        json!([{"filename": "a.pdf"}]),
        json!("2000-01-01"),
    ] {
        let out = patched(
            &doc,
            &json!({"relation_type": v.clone(), "attachments": v.clone(), "due_date": v}),
        );
        assert_eq!(out, doc);
    }
}

// ---------------------------------------------------------------------------------
// PATCH: absent, null and a value
// ---------------------------------------------------------------------------------

#[test]
fn patch_absent_null_and_value_are_different() {
    // decisions.md §6: absent = unchanged, null clears, a value sets
    let doc = created(&full_body());
    assert_eq!(
        patched(&doc, &json!({"buyer_reference": "B-1"}))
            .order_number
            .as_deref(),
        Some("PO-1")
    );
    assert_eq!(
        patched(&doc, &json!({"order_number": null})).order_number,
        None
    );
    assert_eq!(
        patched(&doc, &json!({"order_number": "PO-2"}))
            .order_number
            .as_deref(),
        Some("PO-2")
    );
    assert_eq!(
        patched(&doc, &json!({"order_number": ""}))
            .order_number
            .as_deref(),
        Some("")
    );
}

#[test]
fn patch_null_not_allowed() {
    // decisions.md §6: null on relation_id, issue_date, payment_terms, currency, lines or paid_amount
    let doc = stored();
    for key in [
        "relation_id",
        "issue_date",
        "payment_terms",
        "currency",
        "lines",
        "paid_amount",
    ] {
        refuse_patch(
            &doc,
            &json!({key: null}),
            ErrorCode::NullNotAllowed,
            &json!(["body", key]),
        );
    }
}

#[test]
fn patch_null_clears_optional_fields() {
    // decisions.md §6: null clears delivery_location_id, the optional dates, the references and legal_notice
    let doc = created(&full_body());
    let keys = [
        "delivery_location_id",
        "tax_point_date",
        "delivery_date",
        "period_start",
        "period_end",
        "order_number",
        "despatch_reference",
        "buyer_reference",
        "legal_notice",
    ];
    let mut b = json!({});
    for key in keys {
        assert_ne!(doc.to_json()[key], Value::Null, "{key}");
        b = with(b, key, Value::Null);
    }
    let out = patched(&doc, &b);
    for key in keys {
        assert_eq!(out.to_json()[key], Value::Null, "{key}");
    }
    // decisions.md §6: null clears legal_notice; no default comes back on PATCH
    assert_eq!(
        patched(&stored(), &json!({"legal_notice": null})).legal_notice,
        None
    );
}

#[test]
fn patch_allowance_charges_null_or_empty_removes_them() {
    // decisions.md §6: allowance_charges null or [] removes them
    let doc = created(&full_body());
    assert_eq!(field(&doc, "tax_exclusive_amount"), "90.00");
    for v in [Value::Null, json!([])] {
        let out = patched(&doc, &json!({"allowance_charges": v}));
        assert!(out.allowance_charges.is_empty());
        assert_eq!(field(&out, "tax_exclusive_amount"), "100.00");
        assert_eq!(field(&out, "total_amount"), "121.00");
    }
}

#[test]
fn patch_type_and_journal_id_are_read_only() {
    // decisions.md §6: type and journal_id: absent, null or the current value pass; another is read_only
    let doc = stored();
    for b in [
        json!({"type": "sale_invoice"}),
        json!({"type": null}),
        json!({"journal_id": J_SALES}),
        json!({"journal_id": null}),
    ] {
        assert_eq!(patched(&doc, &b), doc);
    }
    for (key, v) in [
        ("type", json!("sale_credit_note")),
        ("type", json!("nonsense")),
        ("journal_id", json!(J_SALES_NEVER)),
        ("journal_id", json!("j-nope")),
    ] {
        refuse_patch(
            &doc,
            &json!({key: v}),
            ErrorCode::ReadOnly,
            &json!(["body", key]),
        );
    }
}

// ---------------------------------------------------------------------------------
// PATCH: lines, amounts, paid_amount
// ---------------------------------------------------------------------------------

#[test]
fn patch_lines_replace_all_and_sequences_restart() {
    // interface.md PATCH: lines replaces all lines; Line: sequence is reassigned on every write
    let doc = created(&with(body(), "lines", many(3, &line())));
    assert_eq!(field(&doc, "total_amount"), "363.00");
    let out = patched(
        &doc,
        &json!({"lines": [{"quantity": 1, "unit_price": 10, "vat_rate": 6}, line()]}),
    );
    assert_eq!(out.lines.len(), 2);
    assert_eq!(line_field(&out, 0, "sequence"), "1");
    assert_eq!(line_field(&out, 1, "sequence"), "2");
    // decisions.md §6: everything is recomputed
    assert_eq!(field(&out, "tax_exclusive_amount"), "110.00");
    assert_eq!(field(&out, "tax_amount"), "21.60");
    assert_eq!(field(&out, "total_amount"), "131.60");
    assert_eq!(
        out.to_json()["vat_breakdown"].as_array().map(Vec::len),
        Some(2)
    );
}

#[test]
fn patch_lines_and_allowance_list_limits() {
    // interface.md Limits: lines 1 to 500 on PATCH too; allowance_charges at most 50
    let doc = stored();
    refuse_patch(
        &doc,
        &json!({"lines": []}),
        ErrorCode::TooShort,
        &json!(["body", "lines"]),
    );
    refuse_patch(
        &doc,
        &json!({"lines": many(501, &line())}),
        ErrorCode::TooLong,
        &json!(["body", "lines"]),
    );
    assert_eq!(
        patched(&doc, &json!({"lines": many(500, &line())}))
            .lines
            .len(),
        500
    );
    refuse_patch(
        &doc,
        &json!({"allowance_charges": many(51, &charge("1"))}),
        ErrorCode::TooLong,
        &json!(["body", "allowance_charges"]),
    );
    assert_eq!(
        patched(&doc, &json!({"allowance_charges": many(50, &charge("1"))}))
            .allowance_charges
            .len(),
        50
    );
}

#[test]
fn patch_with_the_creation_lines_returns_the_same_amounts() {
    // decisions.md §3: a computed document recomputes to itself
    let b = full_body();
    let doc = created(&b);
    let out = patched(
        &doc,
        &json!({"lines": b["lines"].clone(), "allowance_charges": b["allowance_charges"].clone()}),
    );
    assert_eq!(out.computation, doc.computation);
    assert_eq!(out, doc);
    assert_eq!(out.to_json().to_string(), doc.to_json().to_string());
}

#[test]
fn patch_paid_amount_drives_payment_status() {
    // interface.md States: PATCH with paid_amount re-derives payment_status; decisions.md §3.10
    let doc = stored();
    let out = patched(&doc, &json!({"paid_amount": "21.00"}));
    assert_eq!(
        (out.payment_status, field(&out, "remaining_amount")),
        (PaymentStatus::Partial, "100.00".to_owned())
    );
    assert_eq!(
        patched(&doc, &json!({"paid_amount": 121})).payment_status,
        PaymentStatus::Paid
    );
    assert_eq!(
        patched(&out, &json!({"paid_amount": 0})).payment_status,
        PaymentStatus::Unpaid
    );
}

#[test]
fn patch_paid_amount_range_and_decimals() {
    // interface.md PATCH: paid_amount 0 to 999999999; decisions.md §2: minor-unit decimals
    let doc = stored();
    let loc = json!(["body", "paid_amount"]);
    refuse_patch(
        &doc,
        &json!({"paid_amount": -1}),
        ErrorCode::GreaterThanEqual,
        &loc,
    );
    refuse_patch(
        &doc,
        &json!({"paid_amount": "1000000000"}),
        ErrorCode::LessThanEqual,
        &loc,
    );
    refuse_patch(
        &doc,
        &json!({"paid_amount": "0.001"}),
        ErrorCode::DecimalMaxPlaces,
        &loc,
    );
    refuse_patch(
        &doc,
        &json!({"paid_amount": "x"}),
        ErrorCode::DecimalParsing,
        &loc,
    );
    // the decimals follow the currency sent with it
    refuse_patch(
        &doc,
        &json!({"currency": "JPY", "paid_amount": "0.5"}),
        ErrorCode::DecimalMaxPlaces,
        &loc,
    );
    assert_eq!(
        field(
            &patched(&doc, &json!({"currency": "JPY", "paid_amount": "5"})),
            "paid_amount"
        ),
        "5"
    );
}

#[test]
fn patch_paid_amount_above_total() {
    // interface.md PATCH: paid_amount may not exceed the document total
    let doc = stored();
    refuse_patch(
        &doc,
        &json!({"paid_amount": "121.01"}),
        ErrorCode::PaidAmountAboveTotal,
        &json!(["body", "paid_amount"]),
    );
}

#[test]
fn patch_paid_amount_checked_against_the_new_total() {
    // decisions.md §6: everything is recomputed; paid_amount is checked against the new total
    let doc = patched(&stored(), &json!({"paid_amount": "100"}));
    let cheaper = json!({"lines": [{"quantity": 1, "unit_price": 50, "vat_rate": 21}]});
    refuse_patch(
        &doc,
        &cheaper,
        ErrorCode::PaidAmountAboveTotal,
        &json!(["body", "paid_amount"]),
    );
    refuse_patch(
        &doc,
        &json!({"allowance_charges": [{"type": "allowance", "rate": 50}]}),
        ErrorCode::PaidAmountAboveTotal,
        &json!(["body", "paid_amount"]),
    );
    // paid_amount lowered in the same PATCH passes, and the status follows
    let out = patched(&doc, &with(cheaper, "paid_amount", json!("60.50")));
    assert_eq!(
        (field(&out, "total_amount"), out.payment_status),
        ("60.50".to_owned(), PaymentStatus::Paid)
    );
}

#[test]
fn patch_lines_validation_errors() {
    // decisions.md §4, §8: lines on PATCH are read as on create
    let doc = stored();
    let b = json!({"lines": [line(), {"quantity": 1, "unit_price": 1, "vat_code": "not_subject", "vat_rate": 0}]});
    refuse_patch(
        &doc,
        &b,
        ErrorCode::VatRateNotAllowed,
        &json!(["body", "lines", 1, "vat_rate"]),
    );
    refuse_patch(
        &doc,
        &json!({"lines": [{"quantity": -2, "unit_price": 1, "vat_rate": 21}]}),
        ErrorCode::NegativeTotal,
        &json!(["body"]),
    );
}

#[test]
fn patch_field_validation_errors() {
    // interface.md PATCH table: the same limits as on create
    let doc = stored();
    refuse_patch(
        &doc,
        &json!({"order_number": "o".repeat(256)}),
        ErrorCode::StringTooLong,
        &json!(["body", "order_number"]),
    );
    refuse_patch(
        &doc,
        &json!({"despatch_reference": "é".repeat(51)}),
        ErrorCode::StringTooLong,
        &json!(["body", "despatch_reference"]),
    );
    refuse_patch(
        &doc,
        &json!({"buyer_reference": "b".repeat(51)}),
        ErrorCode::StringTooLong,
        &json!(["body", "buyer_reference"]),
    );
    refuse_patch(
        &doc,
        &json!({"legal_notice": "l".repeat(10_001)}),
        ErrorCode::StringTooLong,
        &json!(["body", "legal_notice"]),
    );
    refuse_patch(
        &doc,
        &json!({"currency": "E".repeat(21)}),
        ErrorCode::StringTooLong,
        &json!(["body", "currency"]),
    );
    refuse_patch(
        &doc,
        &json!({"currency": "XAU"}),
        ErrorCode::CurrencyNotSupported,
        &json!(["body", "currency"]),
    );
    refuse_patch(
        &doc,
        &json!({"payment_terms": "30-DF"}),
        ErrorCode::StringPatternMismatch,
        &json!(["body", "payment_terms"]),
    );
    refuse_patch(
        &doc,
        &json!({"issue_date": "2026-02-30"}),
        ErrorCode::DateParsing,
        &json!(["body", "issue_date"]),
    );
    refuse_patch(
        &doc,
        &json!({"delivery_date": "2026-11-22"}),
        ErrorCode::DateInFuture,
        &json!(["body", "delivery_date"]),
    );
    refuse_patch(
        &doc,
        &json!({"relation_id": 5}),
        ErrorCode::StringType,
        &json!(["body", "relation_id"]),
    );
    let mut ctx = TestContext::new();
    ctx.company.currencies = Some(vec!["EUR".to_owned()]);
    assert_only(
        &patch_refused_in(&ctx, &doc, &json!({"currency": "USD"})),
        422,
        ErrorCode::CurrencyNotSupported,
        &json!(["body", "currency"]),
    );
}

#[test]
fn patch_unresolved_relation_is_reported_beside_a_too_long_order_number() {
    // decisions.md §9: both layers are reported, on PATCH too
    let err = patch_refused(
        &stored(),
        &json!({"relation_id": "rel-nope", "order_number": "o".repeat(256)}),
    );
    assert_set(
        &err,
        422,
        &[
            (ErrorCode::RelationNotFound, json!(["body", "relation_id"])),
            (ErrorCode::StringTooLong, json!(["body", "order_number"])),
        ],
    );
}

#[test]
fn patch_paid_amount_checked_only_when_amounts_could_be_computed() {
    // decisions.md §9: paid_amount is checked against the total only when the amounts could be computed
    let doc = stored();
    let bad_line = json!([{"quantity": "x", "unit_price": 1, "vat_rate": 21}]);
    refuse_patch(
        &doc,
        &json!({"lines": bad_line, "paid_amount": "500"}),
        ErrorCode::DecimalParsing,
        &json!(["body", "lines", 0, "quantity"]),
    );
    refuse_patch(
        &doc,
        &json!({"currency": "ZZZ", "paid_amount": "500"}),
        ErrorCode::CurrencyNotSupported,
        &json!(["body", "currency"]),
    );
    refuse_patch(
        &doc,
        &json!({"allowance_charges": [{"type": "charge"}], "paid_amount": "500"}),
        ErrorCode::AmountOrRate,
        &json!(["body", "allowance_charges", 0]),
    );
}

#[test]
fn patch_period_end_before_start_against_the_stored_bound() {
    // BR-29: the period after the patch may not end before it starts
    let doc = created(&full_body());
    refuse_patch(
        &doc,
        &json!({"period_start": "2026-11-01"}),
        ErrorCode::PeriodEndBeforeStart,
        &json!(["body", "period_end"]),
    );
    refuse_patch(
        &doc,
        &json!({"period_end": "2026-09-30"}),
        ErrorCode::PeriodEndBeforeStart,
        &json!(["body", "period_end"]),
    );
    let out = patched(&doc, &json!({"period_start": "2026-10-31"}));
    assert_eq!(out.period_start, Some(d("2026-10-31")));
    let out = patched(
        &doc,
        &json!({"period_start": "2026-12-01", "period_end": null}),
    );
    assert_eq!(
        (out.period_start, out.period_end),
        (Some(d("2026-12-01")), None)
    );
}

// ---------------------------------------------------------------------------------
// PATCH: due date and issue_date window
// ---------------------------------------------------------------------------------

#[test]
fn patch_due_date_rederived_on_issue_date_or_payment_terms_change() {
    // decisions.md §6: a change of issue_date or payment_terms re-derives due_date
    let doc = created(&with(body(), "relation_id", json!(NO_TERMS)));
    assert_eq!(doc.due_date, d("2026-12-21"));
    assert_eq!(
        patched(&doc, &json!({"issue_date": "2026-11-01"})).due_date,
        d("2026-12-01")
    );
    assert_eq!(
        patched(&doc, &json!({"payment_terms": "0-fm"})).due_date,
        d("2026-12-01")
    );
    assert_eq!(
        patched(&doc, &json!({"payment_terms": "10-mf"})).due_date,
        d("2026-12-31")
    );
    let out = patched(
        &doc,
        &json!({"issue_date": "2026-01-31", "payment_terms": "29-mf"}),
    );
    assert_eq!(out.due_date, d("2026-03-31"));
    assert_eq!(out.to_json()["due_date"], json!("2026-03-31"));
}

/// A document numbered on `issue_date` in `journal`.
fn numbered(journal_id: &str, issue_date: &str) -> Document {
    created(&with(
        with(body(), "journal_id", json!(journal_id)),
        "issue_date",
        json!(issue_date),
    ))
}

/// Asserts which issue dates a PATCH accepts for `doc`.
fn assert_window(doc: &Document, inside: &[&str], outside: &[&str]) {
    for day in inside {
        assert_eq!(patched(doc, &json!({"issue_date": day})).issue_date, d(day));
    }
    for day in outside {
        refuse_patch(
            doc,
            &json!({"issue_date": day}),
            ErrorCode::IssueDateOutsideNumberWindow,
            &json!(["body", "issue_date"]),
        );
    }
}

#[test]
fn patch_issue_date_window_never() {
    // decisions.md §6, interface.md PATCH: freely in the past when the counter never restarts
    let doc = numbered(J_SALES_NEVER, "2026-11-21");
    assert_window(
        &doc,
        &[
            "1999-12-31",
            "2024-02-29",
            "2025-12-31",
            "2026-01-01",
            "2026-11-21",
        ],
        &[],
    );
    // but never in the future
    refuse_patch(
        &doc,
        &json!({"issue_date": "2026-11-22"}),
        ErrorCode::DateInFuture,
        &json!(["body", "issue_date"]),
    );
}

#[test]
fn patch_issue_date_window_yearly() {
    // decisions.md §6: the same year
    let doc = numbered(J_SALES, "2026-03-15");
    assert_window(
        &doc,
        &["2026-01-01", "2026-11-21"],
        &["2025-12-31", "2024-03-15"],
    );
    let doc = numbered(J_SALES, "2024-02-29");
    assert_window(
        &doc,
        &["2024-01-01", "2024-12-31", "2024-02-28"],
        &["2023-12-31", "2025-01-01", "2025-02-28"],
    );
    let doc = numbered(J_SALES, "2025-12-31");
    assert_window(&doc, &["2025-01-01"], &["2026-01-01", "2024-12-31"]);
}

#[test]
fn patch_issue_date_window_monthly() {
    // decisions.md §6: the same month
    let doc = numbered(J_SALES_MONTHLY, "2026-02-15");
    assert_window(
        &doc,
        &["2026-02-01", "2026-02-28"],
        &["2026-01-31", "2026-03-01", "2025-02-15"],
    );
    let doc = numbered(J_SALES_MONTHLY, "2024-02-10");
    assert_window(
        &doc,
        &["2024-02-29", "2024-02-01"],
        &["2024-03-01", "2024-01-31"],
    );
    let doc = numbered(J_SALES_MONTHLY, "2025-12-31");
    assert_window(
        &doc,
        &["2025-12-01"],
        &["2026-01-01", "2025-11-30", "2024-12-31"],
    );
}

#[test]
fn patch_issue_date_window_binds_the_numbering_date_not_the_last_issue_date() {
    // decisions.md §6: issue_date stays in the window the number was drawn in
    let doc = numbered(J_SALES_MONTHLY, "2026-02-15");
    let moved = patched(&doc, &json!({"issue_date": "2026-02-01"}));
    assert_window(&moved, &["2026-02-28"], &["2026-01-31"]);
}

#[test]
fn patch_issue_date_in_future_and_outside_window() {
    // decisions.md §9: every error of both layers
    let doc = numbered(J_SALES, "2025-06-01");
    let err = patch_refused(&doc, &json!({"issue_date": "2026-11-22"}));
    assert_set(
        &err,
        422,
        &[
            (ErrorCode::DateInFuture, json!(["body", "issue_date"])),
            (
                ErrorCode::IssueDateOutsideNumberWindow,
                json!(["body", "issue_date"]),
            ),
        ],
    );
}

// ---------------------------------------------------------------------------------
// PATCH: relation and delivery location
// ---------------------------------------------------------------------------------

#[test]
fn patch_relation_change_keeps_payment_terms_and_updates_relation_type() {
    // decisions.md §6: a relation change keeps the document's payment_terms
    let doc = stored();
    assert_eq!(doc.payment_terms.to_string(), "30-fm");
    let out = patched(&doc, &json!({"relation_id": CONTACT}));
    assert_eq!(out.relation_id, CONTACT);
    assert_eq!(out.relation_type, RelationKind::Contact);
    assert_eq!(out.to_json()["relation_type"], json!("contact"));
    assert_eq!(out.payment_terms.to_string(), "30-fm");
    assert_eq!(out.due_date, doc.due_date);
    let back = patched(&out, &json!({"relation_id": NO_TERMS}));
    assert_eq!(
        (back.relation_type, back.payment_terms.to_string()),
        (RelationKind::Company, "30-fm".to_owned())
    );
}

#[test]
fn patch_relation_not_found() {
    // decisions.md §8: an id in the body that does not resolve
    refuse_patch(
        &stored(),
        &json!({"relation_id": "rel-nope"}),
        ErrorCode::RelationNotFound,
        &json!(["body", "relation_id"]),
    );
}

#[test]
fn patch_location_left_attached_must_belong_to_the_new_relation() {
    // decisions.md §6: a delivery location left attached must belong to the new relation
    let doc = created(&with(body(), "delivery_location_id", json!(LOC_COMPANY)));
    refuse_patch(
        &doc,
        &json!({"relation_id": NO_TERMS}),
        ErrorCode::DeliveryLocationRelationMismatch,
        &json!(["body", "delivery_location_id"]),
    );
    let out = patched(
        &doc,
        &json!({"relation_id": NO_TERMS, "delivery_location_id": LOC_NO_TERMS}),
    );
    assert_eq!(out.delivery_location_id.as_deref(), Some(LOC_NO_TERMS));
    let out = patched(
        &doc,
        &json!({"relation_id": NO_TERMS, "delivery_location_id": null}),
    );
    assert_eq!(out.delivery_location_id, None);
    // the relation not resolving: only that is reported
    refuse_patch(
        &doc,
        &json!({"relation_id": "rel-nope"}),
        ErrorCode::RelationNotFound,
        &json!(["body", "relation_id"]),
    );
}

#[test]
fn patch_delivery_location_of_another_relation() {
    // interface.md PATCH: one of the third party's saved addresses
    let doc = stored();
    refuse_patch(
        &doc,
        &json!({"delivery_location_id": LOC_NO_TERMS}),
        ErrorCode::DeliveryLocationRelationMismatch,
        &json!(["body", "delivery_location_id"]),
    );
    refuse_patch(
        &doc,
        &json!({"delivery_location_id": "loc-nope"}),
        ErrorCode::DeliveryLocationNotFound,
        &json!(["body", "delivery_location_id"]),
    );
    assert_eq!(
        patched(&doc, &json!({"delivery_location_id": LOC_COMPANY}))
            .delivery_location_id
            .as_deref(),
        Some(LOC_COMPANY)
    );
    // decisions.md §9: a location of another relation is checked only when both resolve
    refuse_patch(
        &doc,
        &json!({"relation_id": "rel-nope", "delivery_location_id": LOC_NO_TERMS}),
        ErrorCode::RelationNotFound,
        &json!(["body", "relation_id"]),
    );
}

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
