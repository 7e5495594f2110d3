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

/// A back-office state override as read: each field it sets.
#[derive(Debug, Default)]
struct StateOverride {
    payment_status: Option<PaymentStatus>,
    accounting_status: Option<AccountingStatus>,
    peppol_status: Option<PeppolStatus>,
    mail_status: Option<MailStatus>,
    pdf_available: Option<bool>,
    xml_available: Option<bool>,
    paid_amount: Option<Decimal>,
}

/// Applies a back-office state override (`SET`, and `state` of preloaded documents):
/// an object with any of payment_status, accounting_status, peppol_status,
/// mail_status, pdf_available, xml_available, paid_amount. payment_status is
/// re-derived from a paid_amount it sets, unless it sets payment_status too.
pub fn apply_state(stored: &Document, state: &Value) -> Result<Document, ApiError> {
    let Value::Object(obj) = state else {
        return Err(ValidationError::not_object(body_loc(), state).into());
    };
    let over = read_state(obj, stored)?;
    Ok(over.apply(stored))
}

/// Reads the fields of an override, with every error of the request.
fn read_state(
    obj: &serde_json::Map<String, Value>,
    stored: &Document,
) -> Result<StateOverride, ApiError> {
    let loc = body_loc();
    let mut errors = Errors::default();
    let [payment_status, accounting_status, peppol_status, mail_status, pdf, xml, paid] =
        fields_of(obj, &loc, &STATE_KEYS, &[], &mut errors);
    let paid_rule = NumberRule {
        ge: Some(Decimal::ZERO),
        le: Some(body::MAX_PAID),
        max_places: Some(stored.currency.minor_unit()),
        ..NumberRule::default()
    };
    let over = StateOverride {
        pdf_available: flag(pdf, &loc, "pdf_available", &mut errors),
        xml_available: flag(xml, &loc, "xml_available", &mut errors),
        accounting_status: state_value(
            accounting_status,
            &loc,
            "accounting_status",
            AccountingStatus::parse,
            &mut errors,
        ),
        peppol_status: state_value(
            peppol_status,
            &loc,
            "peppol_status",
            PeppolStatus::parse,
            &mut errors,
        ),
        mail_status: state_value(
            mail_status,
            &loc,
            "mail_status",
            MailStatus::parse,
            &mut errors,
        ),
        payment_status: state_value(
            payment_status,
            &loc,
            "payment_status",
            PaymentStatus::parse,
            &mut errors,
        ),
        paid_amount: paid.and_then(|v| number(v, &loc, "paid_amount", paid_rule, &mut errors)),
    };
    ApiError::check(errors.0).map(|()| over)
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

impl StateOverride {
    /// The document with the override applied.
    fn apply(self, stored: &Document) -> Document {
        let mut next = stored.clone();
        next.pdf_available = self.pdf_available.unwrap_or(next.pdf_available);
        next.xml_available = self.xml_available.unwrap_or(next.xml_available);
        next.accounting_status = self.accounting_status.unwrap_or(next.accounting_status);
        next.peppol_status = self.peppol_status.unwrap_or(next.peppol_status);
        next.mail_status = self.mail_status.unwrap_or(next.mail_status);
        if let Some(p) = self.paid_amount {
            next.paid_amount = p;
            next.payment_status = PaymentStatus::derive(p, next.computation.total_amount);
        }
        if let Some(s) = self.payment_status {
            next.payment_status = s;
        }
        next
    }
}
