//! Behaviour mutation testing found unchecked, and derived dates at the edge of
//! 0001-01-01 … 9999-12-31.

use super::*;

// ---------------------------------------------------------------------------------
// Mutation testing (cargo mutants on src/validate): behaviour a mutant changed
// ---------------------------------------------------------------------------------
//
// Equivalent mutant: validate/fields.rs `string`, `s.len() > max` → `s.len() >= max`.
// The byte length only guards the character count: a string of exactly `max` bytes
// has at most `max` characters, so the count that follows refuses nothing either way.

#[test]
fn create_date_needs_both_hyphens() {
    // decisions.md §8: dates are YYYY-MM-DD; each hyphen is checked on its own
    for v in ["2026x11-21", "2026-11x21", "2026/11-21", "2026-11/21"] {
        refuse(
            &with(body(), "issue_date", json!(v)),
            ErrorCode::DateParsing,
            &json!(["body", "issue_date"]),
        );
    }
}

#[test]
fn greater_than_errors_name_their_bound() {
    // decisions.md §8 and §9: a standard line with vat_rate 0 gets greater_than, with
    // ctx {"gt": …} and a message that says "greater than"
    let err = refused(&with_line(body(), "vat_rate", json!(0)));
    let loc = json!(["body", "lines", 0, "vat_rate"]);
    assert_only(&err, 422, ErrorCode::GreaterThan, &loc);
    assert_eq!(err.errors[0].ctx, Some(json!({"gt": "0"})));
    assert_eq!(err.errors[0].msg, "input should be greater than 0");
    // the other bounds keep their own words
    let err = refused(&with_line(body(), "unit_price", json!("-1")));
    assert_eq!(err.errors[0].code, ErrorCode::GreaterThanEqual);
    assert_eq!(err.errors[0].ctx, Some(json!({"ge": "0"})));
    assert_eq!(
        err.errors[0].msg,
        "input should be greater than or equal to 0"
    );
    let err = refused(&with_line(body(), "vat_rate", json!(101)));
    assert_eq!(err.errors[0].code, ErrorCode::LessThanEqual);
    assert_eq!(err.errors[0].ctx, Some(json!({"le": "100"})));
    assert_eq!(
        err.errors[0].msg,
        "input should be less than or equal to 100"
    );
}

#[test]
fn a_hugely_negative_number_is_below_a_greater_than_bound() {
    // decisions.md §8: a number too large for a decimal is still a number: below a
    // "greater than" bound it gets greater_than, not decimal_parsing
    refuse(
        &with_line(body(), "vat_rate", num("-1e30")),
        ErrorCode::GreaterThan,
        &json!(["body", "lines", 0, "vat_rate"]),
    );
    refuse(
        &with(
            body(),
            "allowance_charges",
            json!([{"type": "charge", "amount": num("-1e40")}]),
        ),
        ErrorCode::GreaterThan,
        &json!(["body", "allowance_charges", 0, "amount"]),
    );
}

#[test]
fn patch_currency_change_with_the_amounts_sent_again_is_accepted() {
    // decisions.md §2 and §6: after a currency change only the stored amounts the body
    // does not send again must fit the new minor unit; amounts sent with the change
    // replace them and are checked against the new currency
    let doc = created(&with(
        with(
            with_line(
                body(),
                "allowance_charges",
                json!([{"type": "allowance", "amount": "0.75"}]),
            ),
            "allowance_charges",
            json!([charge("1.25")]),
        ),
        "paid_amount",
        json!("10.50"),
    ));
    let line = json!({
        "quantity": 2, "unit_price": 50, "vat_rate": 21,
        "allowance_charges": [{"type": "allowance", "amount": 1}]
    });
    let next = patched(
        &doc,
        &json!({
            "currency": "JPY",
            "paid_amount": 10,
            "lines": [line],
            "allowance_charges": [charge("1")],
        }),
    );
    assert_eq!(next.currency.code(), "JPY");
    assert_eq!(field(&next, "paid_amount"), "10");
    assert_eq!(field(&next, "total_amount"), "121");
}

// ---------------------------------------------------------------------------------
// Derived dates stay in 0001-01-01 … 9999-12-31 (issue 12)
// ---------------------------------------------------------------------------------

/// The test world on another day.
fn ctx_on(today: NaiveDate) -> TestContext {
    let mut ctx = TestContext::new();
    ctx.today = today;
    ctx
}

#[test]
fn create_due_date_after_9999_12_31_is_refused_at_payment_terms() {
    // issue 12: a derived date outside 0001-01-01 … 9999-12-31 is refused at the
    // field that caused it; nothing is created
    let ctx = ctx_on(d("9999-12-20"));
    let err = refused_in(&ctx, &with(body(), "payment_terms", json!("30-df")));
    assert_only(
        &err,
        422,
        ErrorCode::LessThanEqual,
        &json!(["body", "payment_terms"]),
    );
    assert_eq!(
        err.errors[0].ctx,
        Some(json!({"le": "9999-12-31", "field": "due_date"}))
    );
    assert!(err.errors[0].msg.contains("9999-12-20"), "{err}");
    // 0-fm is the first of the next month: 10000-01-01
    let late = ctx_on(d("9999-12-31"));
    refuse_in_ctx(&late, "0-fm", "payment_terms");
}

/// The create body with `terms` on `ctx` is refused: less_than_equal at `key`.
fn refuse_in_ctx(ctx: &TestContext, terms: &str, key: &str) {
    let err = refused_in(ctx, &with(body(), "payment_terms", json!(terms)));
    assert_only(&err, 422, ErrorCode::LessThanEqual, &json!(["body", key]));
}

#[test]
fn create_due_date_after_9999_is_refused_at_issue_date_when_only_it_was_sent() {
    // issue 12: the issue_date sent pushed the due date (the relation's 30-fm) past 9999
    let ctx = ctx_on(d("9999-12-31"));
    let err = refused_in(&ctx, &with(body(), "issue_date", json!("9999-12-31")));
    assert_only(
        &err,
        422,
        ErrorCode::LessThanEqual,
        &json!(["body", "issue_date"]),
    );
    // neither sent: today and the relation's terms; the terms carry the error
    let err = refused_in(&ctx, &body());
    assert_only(
        &err,
        422,
        ErrorCode::LessThanEqual,
        &json!(["body", "payment_terms"]),
    );
}

#[test]
fn create_due_date_on_9999_12_31_is_accepted() {
    // issue 12: the last date the interface writes is itself writable
    let ctx = ctx_on(d("9999-12-31"));
    for terms in ["0-df", "0-mf"] {
        let doc = created_in(&ctx, &with(body(), "payment_terms", json!(terms)));
        assert_eq!(field(&doc, "due_date"), "\"9999-12-31\"");
        assert_eq!(field(&doc, "issue_date"), "\"9999-12-31\"");
    }
    let ctx = ctx_on(d("9999-12-01"));
    let doc = created_in(&ctx, &with(body(), "payment_terms", json!("30-df")));
    assert_eq!(field(&doc, "due_date"), "\"9999-12-31\"");
}

#[test]
fn create_with_today_or_clock_outside_years_1_to_9999_is_refused() {
    // issue 12: the default issue_date (today) and create_date (the clock) are derived
    // dates too: outside 0001-01-01 … 9999-12-31 they are refused, never written as
    // +10000-01-01 or -0001-12-31
    let after = ctx_on(d("9999-12-31").succ_opt().unwrap());
    assert_set(
        &refused_in(&after, &body()),
        422,
        &[
            (ErrorCode::LessThanEqual, json!(["body", "issue_date"])),
            (ErrorCode::LessThanEqual, json!(["body"])),
        ],
    );
    let before = ctx_on(d("0001-01-01").pred_opt().unwrap());
    assert_set(
        &refused_in(&before, &body()),
        422,
        &[
            (ErrorCode::GreaterThanEqual, json!(["body", "issue_date"])),
            (ErrorCode::GreaterThanEqual, json!(["body"])),
        ],
    );
}

#[test]
fn a_date_of_year_0_is_refused_as_date_parsing() {
    // issue 12: dates are read from 0001-01-01 on (year 0 is not a date pydantic reads)
    refuse(
        &with(body(), "issue_date", json!("0000-06-01")),
        ErrorCode::DateParsing,
        &json!(["body", "issue_date"]),
    );
    refuse(
        &with(body(), "tax_point_date", json!("0000-06-01")),
        ErrorCode::DateParsing,
        &json!(["body", "tax_point_date"]),
    );
    let doc = created(&with(body(), "tax_point_date", json!("0001-01-01")));
    assert_eq!(field(&doc, "tax_point_date"), "\"0001-01-01\"");
}

#[test]
fn patch_due_date_after_9999_12_31_is_refused_and_nothing_changes() {
    // issue 12: a PATCH whose re-derived due date falls after 9999-12-31 is refused at
    // the field that caused it; the stored document is unchanged
    let ctx = ctx_on(d("9999-12-01"));
    let doc = created_in(&ctx, &with(body(), "payment_terms", json!("0-df")));
    let err = patch_refused_in(&ctx, &doc, &json!({"payment_terms": "31-df"}));
    assert_only(
        &err,
        422,
        ErrorCode::LessThanEqual,
        &json!(["body", "payment_terms"]),
    );
    let later = ctx_on(d("9999-12-31"));
    let doc = created_in(&later, &with(body(), "payment_terms", json!("0-df")));
    let next = patched_in(&later, &doc, &json!({"issue_date": "9999-12-31"}));
    assert_eq!(field(&next, "due_date"), "\"9999-12-31\"");
    let err = patch_refused_in(
        &later,
        &doc,
        &json!({"issue_date": "9999-12-30", "payment_terms": "2-df"}),
    );
    assert_only(
        &err,
        422,
        ErrorCode::LessThanEqual,
        &json!(["body", "payment_terms"]),
    );
    let monthly = created_in(&later, &with(body(), "payment_terms", json!("0-mf")));
    let err = patch_refused_in(&later, &monthly, &json!({"payment_terms": "0-fm"}));
    assert_has(
        &err,
        ErrorCode::LessThanEqual,
        &json!(["body", "payment_terms"]),
    );
}

#[test]
fn patch_due_date_error_is_at_issue_date_when_only_it_was_sent() {
    // issue 12: only issue_date was sent, so it carries the error
    let ctx = ctx_on(d("9999-12-31"));
    let doc = created_in(
        &ctx,
        &with(
            with(body(), "issue_date", json!("9999-12-01")),
            "payment_terms",
            json!("30-df"),
        ),
    );
    let err = patch_refused_in(&ctx, &doc, &json!({"issue_date": "9999-12-02"}));
    assert_only(
        &err,
        422,
        ErrorCode::LessThanEqual,
        &json!(["body", "issue_date"]),
    );
}
