//! Send: starts a Peppol send of a stored document (docs/decisions.md §7, §9).

use super::{at, body_loc};
use crate::context::{Context, Permissions};
use crate::document::{AccountingStatus, Document, PeppolStatus};
use crate::error::{ApiError, ErrorCode, ValidationError};
use crate::validate::fields::{check_keys, Errors, Slot};
use crate::validate::lax_bool;
use serde_json::{json, Map, Value};

/// Starts a send of a stored document (docs/decisions.md §7, §9). Returns the updated
/// document to store.
///
/// A missing body is `{}`. Errors in the body's shape answer alone; then the first of
/// `document_deleted`, `no_channel`, `not_peppol_type`, `already_sent`, `send_failed`.
pub fn send(
    ctx: &dyn Context,
    permissions: Permissions,
    stored: &Document,
    body: Option<&Value>,
) -> Result<Document, ApiError> {
    if !permissions.update {
        return Err(ApiError::permission_denied(
            "sending a document needs the permission the client lacks",
        ));
    }
    let peppol = read_peppol(body)?;
    refuse_send(ctx, stored, peppol)?;
    let mut next = stored.clone();
    next.peppol_status = PeppolStatus::Sending;
    Ok(next)
}

/// The body's `peppol` flag (a missing body is `{}`); errors in the body's shape
/// answer alone.
pub(super) fn read_peppol(body: Option<&Value>) -> Result<bool, ApiError> {
    let empty = Map::new();
    let obj = match body {
        None | Some(Value::Null) => &empty,
        Some(Value::Object(obj)) => obj,
        Some(other) => return Err(ValidationError::not_object(body_loc(), other).into()),
    };
    let mut errors = Errors::default();
    check_keys(obj, &body_loc(), &["peppol"], &[], &mut errors);
    let peppol = match Slot::of(obj, "peppol").value() {
        None => false,
        Some(v) => lax_bool(v).unwrap_or_else(|| {
            errors.push_input(
                ErrorCode::BoolParsing,
                at(&["body", "peppol"]),
                "input should be a valid boolean",
                v,
            );
            false
        }),
    };
    ApiError::check(errors.0)?;
    Ok(peppol)
}

/// The first reason the send cannot start: `document_deleted`, `no_channel`,
/// `not_peppol_type`, `already_sent`, `send_failed` (docs/decisions.md §7).
fn refuse_send(ctx: &dyn Context, stored: &Document, peppol: bool) -> Result<(), ApiError> {
    let peppol_loc = at(&["body", "peppol"]);
    if stored.accounting_status == AccountingStatus::Deleted {
        return Err(ApiError::one(
            ErrorCode::DocumentDeleted,
            at(&["path", "id"]),
            format!("the document {} is deleted", stored.id),
        ));
    }
    if !peppol {
        return Err(ApiError::one(
            ErrorCode::NoChannel,
            peppol_loc,
            "no channel asked for: send {\"peppol\": true}",
        ));
    }
    if !stored.doc_type.is_peppol_type() {
        return Err(ApiError::one(
            ErrorCode::NotPeppolType,
            peppol_loc,
            format!("peppol does not carry a {}", stored.doc_type.as_str()),
        ));
    }
    if stored.peppol_status.has_left() {
        return Err(ApiError::one(
            ErrorCode::AlreadySent,
            peppol_loc,
            format!(
                "the document has already left (peppol_status {})",
                stored.peppol_status.as_str()
            ),
        ));
    }
    let relation = ctx.relation(&stored.relation_id)?;
    if !relation.as_ref().is_some_and(|r| r.peppol) {
        return Err(ValidationError::new(
            ErrorCode::SendFailed,
            peppol_loc,
            format!(
                "the recipient {} cannot receive on peppol",
                stored.relation_id
            ),
        )
        .with_ctx(json!({"document_id": stored.id}))
        .into());
    }
    if let Some(relation) = relation {
        crate::peppol::enforce_rules(ctx, stored, &relation, peppol_loc)?;
    }
    Ok(())
}
