//! Files (docs/files.md §1): the `multipart/form-data` reader of an upload, and the
//! rules of `POST /documents/{id}/attachments`.
//!
//! ```
//! use invoicing_core::files::{self, multipart};
//! # fn run(doc: &invoicing_core::document::Document) -> Result<(), invoicing_core::error::ApiError> {
//! let body = b"--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.pdf\"\r\n\
//!              Content-Type: application/pdf\r\n\r\n%PDF-1.7 ...\r\n--b--\r\n";
//! let parsed = multipart::parse(Some("multipart/form-data; boundary=b"), body);
//! let upload = files::accept(doc, parsed.as_deref())?;
//! assert_eq!(upload.attachment.filename, "a.pdf");
//! let stored = upload.attached_to(doc); // the caller keeps upload.bytes
//! # let _ = stored; Ok(()) }
//! ```

pub mod multipart;
mod upload;

pub use multipart::{MultipartError, Part};
pub use upload::{
    accept, accept_body, check_bytes, content_matches, filename_problem, BytesMismatch, Upload,
    FILE_PART, MAX_FILENAME_CHARS, MAX_FILES, MAX_FILE_BYTES, MAX_TOTAL_BYTES,
};

#[cfg(test)]
mod tests;
