//! One HTTP vocabulary: every answer the simulator gives that a server must give
//! identically, as `(status, body)`, and the reading of a request's body bytes. The
//! simulator answers through these functions, so a server built on them answers as
//! the simulator its clients tested against.
//!
//! ```
//! use invoicing_core::http;
//! let (status, body) = http::not_found_id("document", "doc-9");
//! assert_eq!(status, 404);
//! assert_eq!(body["detail"][0]["loc"], serde_json::json!(["path", "id"]));
//! assert_eq!(http::method_not_allowed("DELETE").0, 405);
//! assert_eq!(http::internal_error().0, 500);
//! ```

use crate::error::{ApiError, ErrorCode, Loc, ValidationError};
use serde_json::{json, Value};

/// A response: status and JSON body.
pub type Answer = (u16, Value);

/// The answer of refused request: its status and `{"detail": [...]}`.
pub fn error(err: &ApiError) -> Answer {
    (err.status, err.body())
}

/// An answer made of one error.
pub fn one(code: ErrorCode, loc: Loc, msg: &str) -> Answer {
    error(&ApiError::one(code, loc, msg))
}

/// 401 `not_authenticated`: a request without credentials.
pub fn not_authenticated() -> Answer {
    one(
        ErrorCode::NotAuthenticated,
        Loc::authorization(),
        "no credentials: send authorization: bearer <access token>",
    )
}

/// 401 `invalid_token`: an authorization that is not `Bearer <known access token>`.
pub fn invalid_token() -> Answer {
    error(&invalid_token_error())
}

/// The error of [`invalid_token`].
pub fn invalid_token_error() -> ApiError {
    ApiError::one(
        ErrorCode::InvalidToken,
        Loc::authorization(),
        "the authorization is not bearer with a known access token",
    )
}

/// 401 `invalid_token`: an access token past its lifetime (a server's tokens expire;
/// the simulator's never do).
pub fn expired_token() -> Answer {
    one(
        ErrorCode::InvalidToken,
        Loc::authorization(),
        "the access token expired: get a new one from POST /auth/token (a refresh_token grant)",
    )
}

/// 401 `invalid_token`: a refresh token sent as an access token.
pub fn refresh_token_as_access() -> ApiError {
    ApiError::one(
        ErrorCode::InvalidToken,
        Loc::authorization(),
        "a refresh token is not an access token",
    )
}

/// 401 `invalid_client` at `["body"]`: `POST /auth/token` without a valid pair.
pub fn invalid_client() -> Answer {
    one(
        ErrorCode::InvalidClient,
        Loc::root("body"),
        "client_id and client_secret do not name a client",
    )
}

/// 404 `not_found` at `["path", "id"]`: an unknown id of `what` (`document`,
/// `relation`…).
pub fn not_found_id(what: &str, id: &str) -> Answer {
    let err = ValidationError::new(
        ErrorCode::NotFound,
        Loc::root("path").key("id"),
        format!("no {what} with id {id:?}"),
    )
    .with_input(&Value::String(id.to_owned()));
    error(&err.into())
}

/// 404 `not_found` at `["path"]`: no endpoint at this path.
pub fn unknown_path() -> Answer {
    one(
        ErrorCode::NotFound,
        Loc::root("path"),
        "no endpoint at this path",
    )
}

/// 405 `method_not_allowed` at `["method"]`: a known path with a method it does not
/// take.
pub fn method_not_allowed(method: &str) -> Answer {
    let err = ValidationError::new(
        ErrorCode::MethodNotAllowed,
        Loc::root("method"),
        format!("this path does not take {method}"),
    )
    .with_input(&Value::String(method.to_owned()));
    error(&err.into())
}

/// 422 `json_invalid`: a body that is not JSON ([`ValidationError::json_invalid`]).
pub fn json_invalid(text: &str, reason: &str) -> Answer {
    error(&ValidationError::json_invalid(text, reason).into())
}

/// The filename and bytes of a `GET /documents/{id}/pdf` answer of the simulator
/// (`{"filename", "base64", …}`), which a server sends as the file itself.
pub fn pdf_file(answer: &Value) -> Option<(String, Vec<u8>)> {
    let filename = answer.get("filename")?.as_str()?;
    let bytes = crate::attachment::decode_base64(answer.get("base64")?.as_str()?)?;
    Some((filename.to_owned(), bytes))
}

/// The `Content-Disposition` of a downloaded file (RFC 6266, docs/files.md §2):
/// `attachment; filename="…"; filename*=UTF-8''…`, the plain `filename` with every
/// character outside printable ASCII, and `"` and `\`, as `_`; `filename*` the
/// name percent-encoded in UTF-8.
///
/// ```
/// use invoicing_core::http::content_disposition;
/// assert_eq!(
///     content_disposition("Fäktur \"1\".pdf"),
///     "attachment; filename=\"F_ktur _1_.pdf\"; filename*=UTF-8''F%C3%A4ktur%20%221%22.pdf"
/// );
/// ```
pub fn content_disposition(filename: &str) -> String {
    use std::fmt::Write as _;
    let plain: String = filename
        .chars()
        .map(|c| match c {
            ' '..='~' if c != '"' && c != '\\' => c,
            _ => '_',
        })
        .collect();
    let mut encoded = String::with_capacity(filename.len() * 3);
    for b in filename.bytes() {
        if b.is_ascii_alphanumeric() || b"!#$&+-.^_`|~".contains(&b) {
            encoded.push(char::from(b));
        } else {
            let _ = write!(encoded, "%{b:02X}");
        }
    }
    format!("attachment; filename=\"{plain}\"; filename*=UTF-8''{encoded}")
}

/// 500 `internal_error` at `[]`: a storage failure (see
/// [`crate::context::ContextError`]); the answer carries no detail of it.
pub fn internal_error() -> Answer {
    error(&ApiError::from(crate::context::ContextError(String::new())))
}

/// 200 `{"access_token", "refresh_token", "token_type": "bearer"}`.
pub fn token(access: &str, refresh: &str) -> Answer {
    (
        200,
        json!({"access_token": access, "refresh_token": refresh, "token_type": "bearer"}),
    )
}

/// A request body as a server reads its bytes.
#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    /// No body (no bytes, or only whitespace).
    Absent,
    /// A JSON body (`null` included).
    Json(Value),
    /// Bytes that are not JSON: their text (lossy UTF-8) and why they do not parse.
    Invalid {
        /// The text sent.
        text: String,
        /// The parser's reason, lowercase.
        reason: String,
    },
}

impl Body {
    /// Reads body bytes: no bytes (or whitespace) is no body, valid JSON is that
    /// JSON, anything else (bytes that are not UTF-8 included) is not JSON.
    pub fn from_bytes(bytes: &[u8]) -> Body {
        let text = String::from_utf8_lossy(bytes);
        if text.trim().is_empty() {
            return Body::Absent;
        }
        match crate::json::from_slice(bytes) {
            Ok(v) => Body::Json(v),
            Err(e) => Body::Invalid {
                text: text.into_owned(),
                reason: e.to_string().to_lowercase(),
            },
        }
    }

    /// The JSON body as the lifecycle functions take it: `None` when absent or not
    /// JSON.
    pub fn json(&self) -> Option<&Value> {
        match self {
            Body::Json(v) => Some(v),
            Body::Absent | Body::Invalid { .. } => None,
        }
    }

    /// The JSON of a body that is required: else the answer, `missing` for no body
    /// (or `null`), `json_invalid` for bytes that are not JSON.
    pub fn required(&self) -> Result<&Value, Answer> {
        match self {
            Body::Absent | Body::Json(Value::Null) => Err(one(
                ErrorCode::Missing,
                Loc::root("body"),
                "a body is required",
            )),
            Body::Invalid { text, reason } => Err(json_invalid(text, reason)),
            Body::Json(v) => Ok(v),
        }
    }
}
