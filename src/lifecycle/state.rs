//! Back-office state overrides (`SET`, and `state` of preloaded documents).

use super::body_loc;
use crate::compute::PaymentStatus;
use crate::document::{AccountingStatus, Document, MailStatus, PeppolStatus};
use crate::error::{ApiError, ErrorCode, Loc, ValidationError};
use crate::validate::body;
use crate::validate::fields::{fields_of, number, one_of, Errors, NumberRule};
use crate::validate::lax_bool;
use rust_decimal::Decimal;
use serde_json::Value;

/// Reads one state field of a back-office override, if sent.
fn state_value<T>(
    value: Option<&Value>,
    loc: &Loc,
    key: &str,
    parse: fn(&str) -> Option<T>,
    errors: &mut Errors,
) -> Option<T> {
    value.and_then(|v| one_of(v, loc, key, parse, "one of its documented values", errors))
}

const STATE_KEYS: [&str; 7] = [
    "payment_status",
    "accounting_status",
    "peppol_status",
    "mail_status",
    "pdf_available",
    "xml_available",
    "paid_amount",
];

/// Applies a back-office state override (`SET`, and `state` of preloaded documents):
/// an object with any of payment_status, accounting_status, peppol_status,
/// mail_status, pdf_available, xml_available, paid_amount. payment_status is
/// re-derived from a paid_amount it sets, unless it sets payment_status too.
pub fn apply_state(stored: &Document, state: &Value) -> Result<Document, ApiError> {
    let Value::Object(obj) = state else {
        return Err(ValidationError::new(
            ErrorCode::DictType,
            body_loc(),
            "input should be a valid object",
        )
        .with_input(state)
        .into());
    };
    let loc = body_loc();
    let mut errors = Errors::default();
    let [payment_status, accounting_status, peppol_status, mail_status, pdf, xml, paid] =
        fields_of(obj, &loc, &STATE_KEYS, &[], &mut errors);
    let mut next = stored.clone();
    let flag = |value: Option<&Value>, key: &str, errors: &mut Errors| {
        value.and_then(|v| {
            let b = lax_bool(v);
            if b.is_none() {
                errors.push_input(
                    ErrorCode::BoolParsing,
                    loc.key(key),
                    "input should be a valid boolean",
                    v,
                );
            }
            b
        })
    };
    if let Some(b) = flag(pdf, "pdf_available", &mut errors) {
        next.pdf_available = b;
    }
    if let Some(b) = flag(xml, "xml_available", &mut errors) {
        next.xml_available = b;
    }
    if let Some(s) = state_value(
        accounting_status,
        &loc,
        "accounting_status",
        AccountingStatus::parse,
        &mut errors,
    ) {
        next.accounting_status = s;
    }
    if let Some(s) = state_value(
        peppol_status,
        &loc,
        "peppol_status",
        PeppolStatus::parse,
        &mut errors,
    ) {
        next.peppol_status = s;
    }
    if let Some(s) = state_value(
        mail_status,
        &loc,
        "mail_status",
        MailStatus::parse,
        &mut errors,
    ) {
        next.mail_status = s;
    }
    let status = state_value(
        payment_status,
        &loc,
        "payment_status",
        PaymentStatus::parse,
        &mut errors,
    );
    let paid = paid.and_then(|v| {
        let rule = NumberRule {
            ge: Some(Decimal::ZERO),
            le: Some(body::MAX_PAID),
            max_places: Some(stored.currency.minor_unit()),
            ..NumberRule::default()
        };
        number(v, &loc, "paid_amount", rule, &mut errors)
    });
    if !errors.is_empty() {
        return Err(ApiError::new(errors.0));
    }
    if let Some(p) = paid {
        next.paid_amount = p;
        next.payment_status = PaymentStatus::derive(p, next.computation.total_amount);
    }
    if let Some(s) = status {
        next.payment_status = s;
    }
    Ok(next)
}
