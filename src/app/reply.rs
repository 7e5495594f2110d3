//! What an operation answers: a status and a body, the body written from what it
//! answers when the answer is written (a stored document from its fields, never
//! through a `Value`; the delivery locations from their record texts).

use super::Store;
use crate::context::ContextError;
use crate::document::Document;
use crate::error::{ApiError, ValidationError};
use crate::http::{error, Answer};
use serde_json::Value;

/// A response's body.
#[derive(Debug)]
pub enum Reply {
    /// A JSON body.
    Json(Value),
    /// A document not kept (a sandbox create or change).
    Document(Box<Document>),
    /// The stored issued document with this id, as it stands when the answer is
    /// written.
    Stored(String),
    /// The delivery locations of this relation, written from their records.
    Locations(String),
}

/// A response: status and body.
pub type Out = (u16, Reply);

/// A JSON answer as a response.
pub(crate) fn json_out((status, body): Answer) -> Out {
    (status, Reply::Json(body))
}

/// A record kept as its compact JSON text, read into a value.
pub(crate) fn record_value(text: &str) -> Value {
    // The text of a record its store checked when it was saved: valid JSON.
    crate::json::from_str(text).unwrap_or_default()
}

impl Reply {
    /// The body as a value, read from `store` for a stored document or the
    /// delivery locations.
    pub fn to_value(self, store: &dyn Store) -> Result<Value, ContextError> {
        Ok(match self {
            Reply::Json(body) => body,
            Reply::Document(doc) => doc.to_json(),
            Reply::Stored(id) => store.issued(&id)?.map_or(Value::Null, |d| d.to_json()),
            Reply::Locations(relation_id) => Value::Array(
                store
                    .location_records(&relation_id)?
                    .iter()
                    .map(|text| record_value(text))
                    .collect(),
            ),
        })
    }
}

/// The answer to a body that is not JSON, sent to a lifecycle function called with no
/// body ([`ApiError::body_not_json`], the crate's one body policy).
pub(crate) fn invalid_body_answer<T>(
    attempt: Result<T, ApiError>,
    text: &str,
    reason: &str,
    keep_other_errors: bool,
) -> Answer {
    error(&ApiError::body_not_json(
        attempt,
        ValidationError::json_invalid(text, reason),
        keep_other_errors,
    ))
}
