//! The rules of `POST /documents/{id}/attachments` (docs/files.md §1) as pure functions:
//! the parts of a request and the stored document in, the new [`Attachment`] and the
//! bytes to keep out, or every error in one answer.
//!
//! What the caller does around [`accept`]: authentication, the permission `u`, the id
//! (404) and `received_document` come first and are the caller's; the multipart body
//! is read by [`multipart::parse`](super::multipart::parse) (or built from the
//! simulator's `multipart` list) and its result handed in as is, so that
//! `document_deleted` answers before `multipart_invalid`. On success the caller keeps
//! [`Upload::bytes`] (a blob store, the simulator's world) and stores
//! [`Upload::attached_to`], the document with the attachment added last.
//!
//! ## Decisions where docs/files.md is silent
//!
//! - A part whose name is absent or empty is "a part without a name"
//!   (`multipart_invalid`).
//! - A filename sent empty (`filename=""`) is present: it is
//!   `attachment_filename_invalid`, not `missing`. The characters refused are `/`,
//!   `\`, Unicode general categories Cc and Cf (Unicode 15.1 table; every bidi
//!   control is among them), and U+FFFE, U+FFFF (the only other characters a Rust
//!   string can hold that XML 1.0 does not allow).
//! - A `Content-Type` sent empty is present: `attachment_type_not_allowed`.
//! - 0 bytes gives `too_short` and none of `attachment_content_mismatch`,
//!   `attachment_too_large`, `attachment_limit`, `attachments_total_too_large`.
//!   Otherwise the content and the three limits are all checked and all reported;
//!   the content only when the type is one of the six.
//! - `input` carries what the client wrote in a header: the filename as sent (before
//!   trimming) for `attachment_filename_invalid`, the Content-Type as sent for
//!   `attachment_type_not_allowed`. A part's bytes are never echoed; `ctx` is exactly
//!   what docs/files.md gives.
//! - The errors' order in the list: `document_locked`, then the parts' names, the
//!   filename, the type, then the bytes (not part of the contract).

use super::multipart::{MultipartError, Part};
use crate::attachment::sha256_hex;
use crate::attachment::{Attachment, MediaType};
use crate::document::{AccountingStatus, Document};
use crate::error::{ApiError, ErrorCode, Loc, ValidationError};
use serde_json::{json, Value};

/// The largest file: 10 MiB.
pub const MAX_FILE_BYTES: u64 = 10_485_760;
/// The most files a document holds.
pub const MAX_FILES: usize = 20;
/// The most bytes a document's files hold in all: 25 MiB.
pub const MAX_TOTAL_BYTES: u64 = 26_214_400;
/// The longest filename, in characters (code points), after trimming.
pub const MAX_FILENAME_CHARS: usize = 200;
/// The name of the one part an upload carries.
pub const FILE_PART: &str = "file";

/// An accepted upload: the attachment the document keeps, and the bytes the caller
/// keeps (borrowed from the request).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upload<'b> {
    /// The attachment: trimmed filename, media type, size and SHA-256.
    pub attachment: Attachment,
    /// The file's bytes.
    pub bytes: &'b [u8],
}

impl Upload<'_> {
    /// The document with this attachment added last (no status or flag changes,
    /// docs/files.md §1). A sandbox answers it and keeps nothing.
    pub fn attached_to(&self, doc: &Document) -> Document {
        let mut doc = doc.clone();
        doc.attachments.push(self.attachment.clone());
        doc
    }
}

/// The checks of an upload in the order of docs/files.md §1, once the caller has
/// answered the id and `received_document`:
///
/// 1. a deleted document: `document_deleted` at `["path","id"]`, alone;
/// 2. the body's parse error (`multipart_invalid`), or a part without a name:
///    `multipart_invalid` at `["body"]`, alone;
/// 3. every other error, in one answer: `document_locked` at `["body","file"]`, the
///    parts' names, then the first `file` part's filename, type and bytes.
///
/// `parts` is what [`multipart::parse`](super::multipart::parse) returned
/// (`parse(..).as_deref()`).
pub fn accept<'b>(
    doc: &Document,
    parts: Result<&[Part<'b>], &MultipartError>,
) -> Result<Upload<'b>, ApiError> {
    if doc.accounting_status == AccountingStatus::Deleted {
        return Err(ApiError::one(
            ErrorCode::DocumentDeleted,
            Loc::root("path").key("id"),
            format!("the document {} is deleted and takes no change", doc.id),
        ));
    }
    let parts = parts.map_err(|e| ApiError::from(e.to_validation_error()))?;
    if parts
        .iter()
        .any(|p| p.name.as_deref().is_none_or(str::is_empty))
    {
        let nameless = MultipartError {
            reason: "a part has no name",
            header: None,
        };
        return Err(nameless.to_validation_error().into());
    }
    let mut errors = Vec::new();
    if doc.is_locked() {
        errors.push(ValidationError::new(
            ErrorCode::DocumentLocked,
            file_loc(),
            "the document has left or is booked: it takes no new attachment",
        ));
    }
    let file = file_part(parts, &mut errors);
    let attachment = file.and_then(|part| check_file(doc, part, &mut errors));
    ApiError::check(errors)?;
    match (file, attachment) {
        (Some(part), Some(attachment)) => Ok(Upload {
            attachment,
            bytes: part.bytes,
        }),
        // `file_part` and `check_file` record an error whenever they find nothing, so
        // `check` answered above; this is the error of a missing file all the same.
        _ => Err(ValidationError::field_required(file_loc()).into()),
    }
}

/// [`multipart::parse`](super::multipart::parse) then [`accept`]: a server's whole
/// upload rule from the request's `Content-Type` header and body.
pub fn accept_body<'b>(
    doc: &Document,
    content_type_header: Option<&str>,
    body: &'b [u8],
) -> Result<Upload<'b>, ApiError> {
    let parsed = super::multipart::parse(content_type_header, body);
    accept(doc, parsed.as_deref())
}

/// `["body","file"]`.
fn file_loc() -> Loc {
    Loc::root("body").key(FILE_PART)
}

/// The first part named `file`; `missing`, `extra_forbidden` and `too_long` for
/// the names.
fn file_part<'p, 'b>(
    parts: &'p [Part<'b>],
    errors: &mut Vec<ValidationError>,
) -> Option<&'p Part<'b>> {
    let mut first = None;
    let mut files = 0usize;
    for part in parts {
        let name = part.name.as_deref().unwrap_or_default();
        if name == FILE_PART {
            files += 1;
            first = first.or(Some(part));
        } else {
            errors.push(ValidationError::new(
                ErrorCode::ExtraForbidden,
                Loc::root("body").key(name),
                "extra inputs are not permitted",
            ));
        }
    }
    match files {
        0 => errors.push(ValidationError::field_required(file_loc())),
        1 => {}
        _ => errors.push(
            ValidationError::new(
                ErrorCode::TooLong,
                file_loc(),
                "only one part named file is allowed",
            )
            .with_ctx(json!({"max_length": 1})),
        ),
    }
    first
}

/// The checks of the `file` part: its attachment when every check passes.
fn check_file(
    doc: &Document,
    part: &Part<'_>,
    errors: &mut Vec<ValidationError>,
) -> Option<Attachment> {
    let before = errors.len();
    let filename = check_filename(part.filename.as_deref(), errors);
    let mimetype = check_media_type(part.content_type.as_deref(), errors);
    check_bytes_rules(doc, mimetype, part.bytes, errors);
    if errors.len() > before {
        return None;
    }
    Some(Attachment {
        filename: filename?,
        mimetype: mimetype?,
        size: byte_len(part.bytes),
        sha256: sha256_hex(part.bytes),
    })
}

/// The trimmed filename, or `missing` / `attachment_filename_invalid` at
/// `["body","file","filename"]`.
fn check_filename(filename: Option<&str>, errors: &mut Vec<ValidationError>) -> Option<String> {
    let loc = file_loc().key("filename");
    let Some(sent) = filename else {
        errors.push(ValidationError::field_required(loc));
        return None;
    };
    match filename_problem(sent) {
        None => Some(sent.trim().to_owned()),
        Some(problem) => {
            errors.push(
                ValidationError::new(
                    ErrorCode::AttachmentFilenameInvalid,
                    loc,
                    format!("the filename is not valid: {problem}"),
                )
                .with_input(&Value::String(sent.to_owned())),
            );
            None
        }
    }
}

/// What is wrong with a filename as sent, if anything (docs/files.md §1).
pub fn filename_problem(sent: &str) -> Option<&'static str> {
    let name = sent.trim();
    if name.is_empty() {
        return Some("it is empty");
    }
    // Count characters only when the byte length could exceed the limit.
    if name.len() > MAX_FILENAME_CHARS && name.chars().count() > MAX_FILENAME_CHARS {
        return Some("it has more than 200 characters");
    }
    if name == "." || name == ".." {
        return Some("it may not be . or ..");
    }
    if name.contains(['/', '\\']) {
        return Some("it may not hold / or \\");
    }
    if name.chars().any(forbidden_char) {
        return Some("it holds a control, format or bidi character, or one xml does not allow");
    }
    None
}

/// A control (Cc) or format (Cf) character, a bidi control, or a character XML 1.0
/// does not allow.
fn forbidden_char(c: char) -> bool {
    c.is_control() || crate::unicode::is_format(c) || matches!(c, '\u{FFFE}' | '\u{FFFF}')
}

/// The media type, or `missing` / `attachment_type_not_allowed` at
/// `["body","file","content_type"]`.
fn check_media_type(
    content_type: Option<&str>,
    errors: &mut Vec<ValidationError>,
) -> Option<MediaType> {
    let loc = file_loc().key("content_type");
    let Some(sent) = content_type else {
        errors.push(ValidationError::field_required(loc));
        return None;
    };
    let found = MediaType::from_content_type(sent);
    if found.is_none() {
        let allowed: Vec<&str> = MediaType::ALL.iter().map(|m| m.as_str()).collect();
        errors.push(
            ValidationError::new(
                ErrorCode::AttachmentTypeNotAllowed,
                loc,
                format!(
                    "the media type is not allowed: use one of {}",
                    allowed.join(", ")
                ),
            )
            .with_ctx(json!({ "allowed": allowed }))
            .with_input(&Value::String(sent.to_owned())),
        );
    }
    found
}

/// The bytes: `too_short` alone for none; else the content against the type (when
/// it is known) and the three limits, all at `["body","file"]`.
fn check_bytes_rules(
    doc: &Document,
    mimetype: Option<MediaType>,
    bytes: &[u8],
    errors: &mut Vec<ValidationError>,
) {
    if bytes.is_empty() {
        errors.push(
            ValidationError::new(
                ErrorCode::TooShort,
                file_loc(),
                "the file should have at least 1 byte",
            )
            .with_ctx(json!({"min_length": 1})),
        );
        return;
    }
    if let Some(m) = mimetype {
        if !content_matches(m, bytes) {
            errors.push(ValidationError::new(
                ErrorCode::AttachmentContentMismatch,
                file_loc(),
                format!("the bytes are not {}", content_description(m)),
            ));
        }
    }
    let size = byte_len(bytes);
    if size > MAX_FILE_BYTES {
        errors.push(
            ValidationError::new(
                ErrorCode::AttachmentTooLarge,
                file_loc(),
                "the file should have at most 10485760 bytes (10 MiB)",
            )
            .with_ctx(json!({"max_bytes": MAX_FILE_BYTES})),
        );
    }
    check_document_limits(doc, size, errors);
}

/// The document's limits: 20 files, 25 MiB in all.
fn check_document_limits(doc: &Document, size: u64, errors: &mut Vec<ValidationError>) {
    if doc.attachments.len() >= MAX_FILES {
        errors.push(
            ValidationError::new(
                ErrorCode::AttachmentLimit,
                file_loc(),
                "the document already holds 20 attachments",
            )
            .with_ctx(json!({"max_count": MAX_FILES})),
        );
    }
    let total = doc
        .attachments
        .iter()
        .fold(size, |sum, a| sum.saturating_add(a.size));
    if total > MAX_TOTAL_BYTES {
        errors.push(
            ValidationError::new(
                ErrorCode::AttachmentsTotalTooLarge,
                file_loc(),
                "the document's attachments would exceed 26214400 bytes (25 MiB) in all",
            )
            .with_ctx(json!({"max_bytes": MAX_TOTAL_BYTES})),
        );
    }
}

/// Whether the bytes are what the media type says (docs/files.md §1).
pub fn content_matches(mimetype: MediaType, bytes: &[u8]) -> bool {
    match mimetype {
        MediaType::Pdf => bytes.starts_with(b"%PDF-"),
        MediaType::Png => bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
        MediaType::Jpeg => bytes.starts_with(&[0xFF, 0xD8, 0xFF]),
        MediaType::Xlsx | MediaType::Ods => bytes.starts_with(b"PK\x03\x04"),
        // A BOM is valid UTF-8: nothing to strip.
        MediaType::Csv => !bytes.contains(&0) && std::str::from_utf8(bytes).is_ok(),
    }
}

/// What the bytes of a media type start with, for the message.
fn content_description(mimetype: MediaType) -> &'static str {
    match mimetype {
        MediaType::Pdf => "a pdf: they should start with %PDF-",
        MediaType::Png => "a png: they should start with its 8-byte signature",
        MediaType::Jpeg => "a jpeg: they should start with FF D8 FF",
        MediaType::Xlsx | MediaType::Ods => "a spreadsheet: they should start with PK\\x03\\x04",
        MediaType::Csv => "a csv: they should be utf-8 without nul",
    }
}

/// The length of bytes as a `u64`.
fn byte_len(bytes: &[u8]) -> u64 {
    u64::try_from(bytes.len()).unwrap_or(u64::MAX)
}

/// Bytes handed back for an attachment that are not the ones stored (docs/files.md §1):
/// a server answers 500 `internal_error`, never a wrong UBL.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BytesMismatch {
    /// The size differs.
    #[error("the bytes of attachment {filename} have {actual} bytes, not the {expected} stored")]
    Size {
        /// The attachment's filename.
        filename: String,
        /// The stored size.
        expected: u64,
        /// The size handed back.
        actual: u64,
    },
    /// The size is the same, the SHA-256 differs.
    #[error("the bytes of attachment {filename} have SHA-256 {actual}, not the {expected} stored")]
    Sha256 {
        /// The attachment's filename.
        filename: String,
        /// The stored SHA-256.
        expected: String,
        /// The SHA-256 of the bytes handed back.
        actual: String,
    },
}

/// Whether `bytes` are the stored attachment's: same size, then same SHA-256
/// (compared without case, as stored forms may differ in case).
pub fn check_bytes(attachment: &Attachment, bytes: &[u8]) -> Result<(), BytesMismatch> {
    let actual = byte_len(bytes);
    if actual != attachment.size {
        return Err(BytesMismatch::Size {
            filename: attachment.filename.clone(),
            expected: attachment.size,
            actual,
        });
    }
    let hash = sha256_hex(bytes);
    if !hash.eq_ignore_ascii_case(&attachment.sha256) {
        return Err(BytesMismatch::Sha256 {
            filename: attachment.filename.clone(),
            expected: attachment.sha256.clone(),
            actual: hash,
        });
    }
    Ok(())
}
