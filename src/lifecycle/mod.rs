//! Create, PATCH and send as pure functions over a [`Context`], the client's
//! [`Permissions`](crate::context::Permissions) and, for PATCH and send, the stored [`Document`](crate::document::Document)
//! (docs/decisions.md §5, §6, §7). Nothing is written here: the caller stores what
//! these functions return, and advances the journal counter a create drew.
//!
//! One file per operation: [`create()`] in `create.rs`, [`patch()`] in `patch.rs`,
//! [`send()`] in `send.rs`, the back office's [`apply_state`] in `state.rs`; the
//! rules create and PATCH share are in `amounts.rs` and `dates.rs`.
//!
//! Checks run in two layers (docs/decisions.md §9): the shape of every field, then the
//! rules that read other fields or the context, each only when the fields it reads
//! are valid. Every error of both layers is answered at once. Permissions come
//! first: a 403 carries no 422s.
//!
//! # Example: a server's create
//!
//! A server implements [`Context`] over its storage, calls [`create`] with the
//! request's body, then stores the document and commits the drawn number.
//!
//! ```
//! use chrono::{DateTime, NaiveDate, Utc};
//! use invoicing_core::context::{Company, Context, ContextError, DeliveryLocation, Journal, Permissions, Relation, RelationKind};
//! use invoicing_core::lifecycle::create;
//! use invoicing_core::numbering::{JournalCategory, Numbering, Window};
//! use serde_json::json;
//!
//! struct Db { company: Company }
//!
//! impl Context for Db {
//!     fn today(&self) -> NaiveDate { NaiveDate::from_ymd_opt(2026, 11, 21).unwrap() }
//!     fn now(&self) -> DateTime<Utc> { DateTime::from_timestamp(1_795_219_200, 0).unwrap() }
//!     fn company(&self) -> &Company { &self.company }
//!     fn relation(&self, id: &str) -> Result<Option<Relation>, ContextError> {
//!         Ok((id == "rel-acme").then(|| Relation {
//!             id: id.into(), kind: RelationKind::Company, payment_terms: "30-fm".parse().ok(), peppol: true,
//!             party: Default::default(),
//!         }))
//!     }
//!     fn journal(&self, id: &str) -> Result<Option<Journal>, ContextError> {
//!         Ok((id == "jrn-sales").then(|| Journal {
//!             id: id.into(), category: JournalCategory::SalesInvoice, numbering: Numbering::Yearly, prefix: "INV".into(),
//!         }))
//!     }
//!     fn default_journal(&self, c: JournalCategory) -> Result<Option<Journal>, ContextError> {
//!         if c == JournalCategory::SalesInvoice { self.journal("jrn-sales") } else { Ok(None) }
//!     }
//!     fn delivery_location(&self, _id: &str) -> Result<Option<DeliveryLocation>, ContextError> { Ok(None) }
//!     fn next_sequence(&self, _journal: &Journal, _window: Window) -> Result<u64, ContextError> { Ok(1) }
//! }
//!
//! let db = Db { company: Company::default() };
//! let body = json!({
//!     "type": "sale_invoice",
//!     "relation_id": "rel-acme",
//!     "lines": [{"item_name": "Widget", "quantity": 2, "unit_price": 9.99, "vat_rate": 21}]
//! });
//! let created = create(&db, Permissions::ALL, None, Some(&body), "doc-1")?;
//! assert_eq!(created.document.document_number, "INV2026-0001");
//! assert_eq!(created.document.to_json()["total_amount"].to_string(), "24.18");
//! assert_eq!(created.number.sequence, 1); // the server advances its counter past it
//!
//! // A refused request answers every error at once, with its location.
//! let bad = json!({"type": "sale_invoice", "relation_id": "rel-x", "lines": [], "order_number": 5});
//! let err = create(&db, Permissions::ALL, None, Some(&bad), "doc-2").unwrap_err();
//! assert_eq!(err.status, 422);
//! let mut codes: Vec<&str> = err.errors.iter().map(|e| e.code.as_str()).collect();
//! codes.sort_unstable(); // the order of the list is not part of the contract
//! assert_eq!(codes, ["relation_not_found", "string_type", "too_short"]);
//! # Ok::<(), invoicing_core::error::ApiError>(())
//! ```

mod amounts;
mod create;
mod dates;
mod patch;
mod received;
mod send;
mod state;

pub use amounts::exemptions;
pub use create::{create, create_bytes, Created, DrawnNumber};
pub use patch::{patch, patch_bytes};
pub use received::{patch_received, send_received};
pub use send::send;
pub use state::apply_state;

use crate::context::{Context, ContextError, Relation};
use crate::error::{ApiError, ErrorCode, Loc, ValidationError};
use crate::validate::fields::{Errors, Field};
use serde_json::{Map, Value};

fn body_loc() -> Loc {
    Loc::root("body")
}

fn at(keys: &[&str]) -> Loc {
    Loc(keys.iter().map(|k| (*k).into()).collect())
}

/// The body as an object, or the error for a missing body or another JSON type.
fn body_object(body: Option<&Value>) -> Result<&Map<String, Value>, ApiError> {
    match body {
        None | Some(Value::Null) => Err(ApiError::one(
            ErrorCode::Missing,
            body_loc(),
            "a json object body is required",
        )),
        Some(Value::Object(obj)) => Ok(obj),
        Some(other) => Err(ValidationError::not_object(body_loc(), other).into()),
    }
}

/// The record a lookup found; a storage error is recorded as `internal_error`, which
/// answers 500 alone ([`ApiError::new`]).
fn looked_up<T>(found: Result<Option<T>, ContextError>, errors: &mut Errors) -> Option<T> {
    found.unwrap_or_else(|e| {
        errors.0.extend(ApiError::from(e).errors);
        None
    })
}

/// `json_invalid` for bytes that are not JSON: their text (lossy), the parser's
/// reason in lower case.
/// `delivery_location_not_found`: no delivery location has the id `lid`.
fn location_not_found(lid: &str, errors: &mut Errors) {
    errors.push_input(
        ErrorCode::DeliveryLocationNotFound,
        body_loc().key("delivery_location_id"),
        format!("no delivery location has the id {lid:?}"),
        &Value::String(lid.to_owned()),
    );
}

fn json_invalid(body: &[u8], e: &serde_json::Error) -> ValidationError {
    ValidationError::json_invalid(
        &String::from_utf8_lossy(body),
        &e.to_string().to_lowercase(),
    )
}

/// The relation `relation_id` names, or `relation_not_found` at it.
fn resolve_relation(
    ctx: &dyn Context,
    field: &Field<String>,
    errors: &mut Errors,
) -> Option<Relation> {
    let id = field.valid()?;
    let found = looked_up(ctx.relation(id), errors);
    if found.is_none() {
        errors.push_input(
            ErrorCode::RelationNotFound,
            body_loc().key("relation_id"),
            format!("no relation has the id {id:?}"),
            &Value::String(id.clone()),
        );
    }
    found
}

#[cfg(test)]
mod tests;
