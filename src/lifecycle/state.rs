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
/// re-derived from a paid_amount it sets, unless it sets payment_status too. Every
/// error of the request is answered (in this order of the fields), and then nothing
/// is applied.
pub fn apply_state(stored: &Document, state: &Value) -> Result<Document, ApiError> {
    let Value::Object(obj) = state else {
        return Err(ValidationError::not_object(body_loc(), state).into());
    };
    let loc = body_loc();
    let mut errors = Errors::default();
    let [payment, accounting, peppol, mail, pdf, xml, paid] =
        fields_of(obj, &loc, &STATE_KEYS, &[], &mut errors);
    let paid_rule = NumberRule {
        ge: Some(Decimal::ZERO),
        le: Some(body::MAX_PAID),
        max_places: Some(stored.currency.minor_unit()),
        ..NumberRule::default()
    };
    let e = &mut errors;
    let pdf = flag(pdf, &loc, "pdf_available", e);
    let xml = flag(xml, &loc, "xml_available", e);
    let accounting = state_value(
        accounting,
        &loc,
        "accounting_status",
        AccountingStatus::parse,
        e,
    );
    let peppol = state_value(peppol, &loc, "peppol_status", PeppolStatus::parse, e);
    let mail = state_value(mail, &loc, "mail_status", MailStatus::parse, e);
    let payment = state_value(payment, &loc, "payment_status", PaymentStatus::parse, e);
    let paid = paid.and_then(|v| number(v, &loc, "paid_amount", paid_rule, e));
    ApiError::check(errors.0)?;
    let mut next = stored.clone();
    next.pdf_available = pdf.unwrap_or(next.pdf_available);
    next.xml_available = xml.unwrap_or(next.xml_available);
    next.accounting_status = accounting.unwrap_or(next.accounting_status);
    next.peppol_status = peppol.unwrap_or(next.peppol_status);
    next.mail_status = mail.unwrap_or(next.mail_status);
    if let Some(p) = paid {
        next.paid_amount = p;
        next.payment_status = PaymentStatus::derive(p, next.computation.total_amount);
    }
    next.payment_status = payment.unwrap_or(next.payment_status);
    Ok(next)
}

/// Reads a flag (a boolean, read as the query's booleans are), if sent.
fn flag(value: Option<&Value>, loc: &Loc, key: &str, errors: &mut Errors) -> Option<bool> {
    let v = value?;
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
}
