//! Date rules of a create or PATCH: no date in the future where the interface
//! forbids it, a period that does not end before it starts (BR-29), and every
//! derived date (the due date, the default issue date, create_date) within
//! 0001-01-01 … 9999-12-31, the dates the interface writes.

use super::body_loc;
use crate::error::{ErrorCode, Loc};
use crate::terms::PaymentTerms;
use crate::validate::body::BodyFields;
use crate::validate::fields::{in_date_range, Errors, Field};
use chrono::{Datelike, NaiveDate};
use serde_json::{json, Value};

pub(super) fn check_not_future(
    field: &Field<NaiveDate>,
    key: &str,
    today: NaiveDate,
    errors: &mut Errors,
) {
    if let Field::Valid(d) = field {
        if *d > today {
            errors.push_ctx(
                ErrorCode::DateInFuture,
                body_loc().key(key),
                format!("{key} {d} is after today {today}"),
                Some(&Value::String(d.to_string())),
                json!({"today": today.to_string()}),
            );
        }
    }
}

pub(super) fn check_period(start: Option<NaiveDate>, end: Option<NaiveDate>, errors: &mut Errors) {
    // BR-29: the period may not end before it starts
    if let (Some(s), Some(e)) = (start, end) {
        if s > e {
            errors.push(
                ErrorCode::PeriodEndBeforeStart,
                body_loc().key("period_end"),
                format!("period_end {e} is before period_start {s}"),
            );
        }
    }
}

/// The due date of `issue_date` under `terms`, which must lie in 0001-01-01 …
/// 9999-12-31 like every date the interface writes: past it, `less_than_equal` at
/// the field of `sent` that pushed it there (issue_date when only it was sent, else
/// payment_terms), and `None`.
pub(super) fn bounded_due_date(
    terms: PaymentTerms,
    issue_date: NaiveDate,
    sent: &BodyFields,
    errors: &mut Errors,
) -> Option<NaiveDate> {
    let due = terms.due_date(issue_date).filter(|d| in_date_range(*d));
    if due.is_none() {
        let key = if sent.issue_date.valid().is_some() && sent.payment_terms.valid().is_none() {
            "issue_date"
        } else {
            "payment_terms"
        };
        errors.push_ctx(
            ErrorCode::LessThanEqual,
            body_loc().key(key),
            format!(
                "the due date of {issue_date} with payment_terms {terms} falls after {LAST_DATE}, the last date the interface writes"
            ),
            None,
            json!({"le": LAST_DATE, "field": "due_date"}),
        );
    }
    due
}

/// A date the rules derive from today or the clock (the default issue_date, the
/// create_date) must lie in 0001-01-01 … 9999-12-31: `greater_than_equal` or
/// `less_than_equal` at `loc` otherwise.
pub(super) fn check_in_range(date: NaiveDate, what: &str, loc: Loc, errors: &mut Errors) -> bool {
    if in_date_range(date) {
        return true;
    }
    let (code, ctx) = if date.year() < 1 {
        (ErrorCode::GreaterThanEqual, json!({"ge": FIRST_DATE}))
    } else {
        (ErrorCode::LessThanEqual, json!({"le": LAST_DATE}))
    };
    errors.push_ctx(
        code,
        loc,
        format!(
            "{what} would be outside {FIRST_DATE} … {LAST_DATE}, the dates the interface writes"
        ),
        None,
        ctx,
    );
    false
}

/// The first date the interface writes.
const FIRST_DATE: &str = "0001-01-01";
/// The last date the interface writes.
const LAST_DATE: &str = "9999-12-31";
