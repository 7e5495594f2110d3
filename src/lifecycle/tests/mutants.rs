//! Behaviour a mutant of src/validate changed (cargo mutants).

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
