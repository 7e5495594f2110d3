//! What a received document takes (docs/peppol.md §4): a PATCH of `paid_amount` only,
//! and no send.

use super::{at, body_loc, body_object};
use crate::context::Permissions;
use crate::error::{ApiError, ErrorCode};
use crate::received::ReceivedDocument;
use crate::validate::body::{BODY_KEYS, DERIVED_FIELDS, MAX_PAID};
use crate::validate::fields::{check_keys, number, Errors, NumberRule};
use rust_decimal::Decimal;
use serde_json::{json, Value};

/// Applies a PATCH body to a received document: only `paid_amount` changes
/// (re-deriving the remaining amount; the payment status follows from it). Layered as
/// the edit lock (docs/decisions.md §9): a key sent with the value the document already
/// answers is not a change; each real change of another key gets `received_document`
/// at `["body", KEY]` (`lines` and `allowance_charges` sent are always a change), a
/// changed `type` or `journal_id` `read_only`. `current` is the document's response
/// shape, which the sent values are compared with.
pub fn patch_received(
    permissions: Permissions,
    stored: &ReceivedDocument,
    current: &Value,
    body: Option<&Value>,
) -> Result<ReceivedDocument, ApiError> {
    if !permissions.update {
        return Err(ApiError::permission_denied(
            "updating a document needs the permission the client lacks",
        ));
    }
    let obj = body_object(body)?;
    let mut errors = Errors::default();
    check_keys(obj, &body_loc(), BODY_KEYS, DERIVED_FIELDS, &mut errors);
    let mut paid = None;
    for (key, value) in obj {
        if !BODY_KEYS.contains(&key.as_str()) {
            continue;
        }
        let loc = body_loc().key(key);
        match key.as_str() {
            "paid_amount" => paid = read_paid(stored, value, &mut errors),
            "type" | "journal_id" => {
                if !value.is_null() && current.get(key) != Some(value) {
                    errors.push_input(
                        ErrorCode::ReadOnly,
                        loc,
                        format!("{key} is read-only after creation"),
                        value,
                    );
                }
            }
            _ => {
                let always = matches!(key.as_str(), "lines" | "allowance_charges");
                if always || current.get(key) != Some(value) {
                    errors.push_input(
                        ErrorCode::ReceivedDocument,
                        loc,
                        format!("a received document takes no change of {key}: only paid_amount may change"),
                        value,
                    );
                }
            }
        }
    }
    ApiError::check(errors.0)?;
    let mut next = stored.clone();
    if let Some(paid) = paid {
        next.set_paid_amount(paid);
    }
    Ok(next)
}

/// The paid amount sent: a number from 0 to the limit, with at most the currency's
/// decimals, and not above the total when there is one.
fn read_paid(stored: &ReceivedDocument, value: &Value, errors: &mut Errors) -> Option<Decimal> {
    if value.is_null() {
        errors.push(
            ErrorCode::NullNotAllowed,
            body_loc().key("paid_amount"),
            "paid_amount cannot be null",
        );
        return None;
    }
    let rule = NumberRule {
        ge: Some(Decimal::ZERO),
        le: Some(MAX_PAID),
        max_places: Some(stored.minor_unit()),
        ..NumberRule::default()
    };
    let paid = number(value, &body_loc(), "paid_amount", rule, errors)?;
    if let Some(total) = stored.total_amount {
        if paid > total {
            errors.push_ctx(
                ErrorCode::PaidAmountAboveTotal,
                body_loc().key("paid_amount"),
                format!("paid_amount {paid} is above the total amount {total}"),
                Some(value),
                json!({"total_amount": total.to_string()}),
            );
            return None;
        }
    }
    Some(paid)
}

/// A send of a received document: permissions and the body's shape first, as for any
/// send, then `received_document` at `["path", "id"]` (docs/peppol.md §4).
pub fn send_received(permissions: Permissions, id: &str, body: Option<&Value>) -> ApiError {
    if !permissions.update {
        return ApiError::permission_denied(
            "sending a document needs the permission the client lacks",
        );
    }
    if let Err(e) = super::send::read_peppol(body) {
        return e;
    }
    ApiError::one(
        ErrorCode::ReceivedDocument,
        at(&["path", "id"]),
        format!("the document {id} was received: only the documents the company issues are sent"),
    )
}
