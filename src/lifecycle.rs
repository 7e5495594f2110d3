//! Create, PATCH and send as pure functions over a [`Context`], the client's
//! [`Permissions`] and, for PATCH and send, the stored [`Document`]
//! (decisions.md §5, §6, §7). Nothing is written here: the caller stores what
//! these functions return, and advances the journal counter a create drew.

use crate::context::{Context, Permissions};
use crate::document::Document;
use crate::error::{ApiError, ErrorCode, Loc};
use crate::numbering::Window;
use serde_json::Value;

/// The number a create drew: the caller advances the journal's counter past it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrawnNumber {
    /// The journal.
    pub journal_id: String,
    /// The counter's window.
    pub window: Window,
    /// The sequence drawn.
    pub sequence: u64,
}

/// A created document.
#[derive(Debug, Clone, PartialEq)]
pub struct Created {
    /// The document, to store.
    pub document: Document,
    /// The number drawn, to commit.
    pub number: DrawnNumber,
    /// Set when `send_peppol` was asked for and the send could not be started: the
    /// document exists all the same (store it), and this is the answer (`send_failed`).
    pub send_error: Option<ApiError>,
}

/// Creates a document from a request body (decisions.md §5, §7, §8, §9).
///
/// `send_peppol` is the raw text of the query parameter, if given. `id` is the id the
/// caller gives the document if it is created.
pub fn create(
    ctx: &dyn Context,
    permissions: Permissions,
    send_peppol: Option<&str>,
    body: Option<&Value>,
    id: &str,
) -> Result<Created, ApiError> {
    let _ = (ctx, permissions, send_peppol, body, id);
    Err(ApiError::one(ErrorCode::NotImplemented, Loc::root("body"), "not implemented yet"))
}

/// Applies a PATCH body to a stored document (decisions.md §6). Returns the updated
/// document to store; a refused PATCH changes nothing.
pub fn patch(ctx: &dyn Context, permissions: Permissions, stored: &Document, body: Option<&Value>) -> Result<Document, ApiError> {
    let _ = (ctx, permissions, stored, body);
    Err(ApiError::one(ErrorCode::NotImplemented, Loc::root("body"), "not implemented yet"))
}

/// Starts a send of a stored document (decisions.md §7, §9). Returns the updated
/// document to store.
pub fn send(ctx: &dyn Context, permissions: Permissions, stored: &Document, body: Option<&Value>) -> Result<Document, ApiError> {
    let _ = (ctx, permissions, stored, body);
    Err(ApiError::one(ErrorCode::NotImplemented, Loc::root("body"), "not implemented yet"))
}

/// Applies a back-office state override (`SET`, and `state` of preloaded documents):
/// an object with any of payment_status, accounting_status, peppol_status,
/// mail_status, pdf_available, xml_available, paid_amount. payment_status is
/// re-derived from a paid_amount it sets, unless it sets payment_status too.
pub fn apply_state(stored: &Document, state: &Value) -> Result<Document, ApiError> {
    let _ = (stored, state);
    Err(ApiError::one(ErrorCode::NotImplemented, Loc::root("body"), "not implemented yet"))
}
