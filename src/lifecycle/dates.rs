//! Date rules of a create or PATCH: no date in the future where the interface
//! forbids it, and a period that does not end before it starts (BR-29).

use super::body_loc;
use crate::error::ErrorCode;
use crate::validate::fields::{Errors, Field};
use chrono::NaiveDate;
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
