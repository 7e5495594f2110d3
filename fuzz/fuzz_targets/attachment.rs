//! Attachments (docs/files.md §1): any bytes as a request's `Content-Type` header and
//! body, read by `files::multipart::parse`, then `files::accept` on a small stored
//! document.
//!
//! Input: the header is the text before the first `\n` (lossy UTF-8), the body the
//! bytes after it; without `\n` there is no header and the whole input is the body.
//! The body's length modulo 4 picks the document: 0 plain, 1 under the edit lock
//! (sent), 2 holding 19 files of 1 MiB, 3 deleted.
//!
//! Invariants:
//! - parsing is deterministic; every part has a non-empty name and bytes borrowed
//!   from the body;
//! - a deleted document answers `document_deleted` at `["path","id"]` alone; else a
//!   parse error answers `multipart_invalid` at `["body"]` alone; every refusal is a
//!   422 with at least one error;
//! - an accepted upload: the document is neither deleted nor locked and held fewer
//!   than 20 files; the filename has 1 to 200 characters, is trimmed and passes the
//!   filename rule again; size == bytes.len(); the SHA-256 is 64 lower-case hex and
//!   that of the bytes (`check_bytes` agrees); the bytes match the media type, which
//!   is the part's Content-Type read again; the bytes are the first `file` part's.
#![no_main]

use invoicing_core::attachment::{Attachment, MediaType};
use invoicing_core::context::Permissions;
use invoicing_core::document::{AccountingStatus, Document, PeppolStatus};
use invoicing_core::error::ErrorCode;
use invoicing_core::files::{self, multipart};
use invoicing_core::simulator::Simulator;
use libfuzzer_sys::fuzz_target;
use serde_json::json;
use std::sync::OnceLock;

fn world() -> serde_json::Value {
    json!({
        "today": "2026-11-21",
        "now": "2026-11-21T10:30:00Z",
        "company": {},
        "clients": [{"client_id": "app", "client_secret": "s", "permissions": ["c", "u"]}],
        "relations": [{"id": "rel-1", "kind": "company"}],
        "journals": [
            {"id": "jrn-si", "category": "sales_invoice", "numbering": "yearly", "prefix": "INV", "default": true}
        ],
        "requests": []
    })
}

/// The four documents of the module documentation.
fn documents() -> &'static [Document; 4] {
    static DOCS: OnceLock<[Document; 4]> = OnceLock::new();
    DOCS.get_or_init(|| {
        let sim = Simulator::from_json(&world()).expect("the world is valid");
        let body = json!({"type": "sale_invoice", "relation_id": "rel-1",
                          "lines": [{"quantity": 1, "unit_price": 100, "vat_rate": 21}]});
        let plain = invoicing_core::lifecycle::create(
            sim.world(),
            Permissions::ALL,
            None,
            Some(&body),
            "doc-1",
        )
        .expect("the body is valid")
        .document;
        let mut locked = plain.clone();
        locked.peppol_status = PeppolStatus::Sent;
        let mut full = plain.clone();
        full.attachments = (0..19)
            .map(|i| Attachment {
                filename: format!("f{i}.pdf"),
                mimetype: MediaType::Pdf,
                size: 1 << 20,
                sha256: "0".repeat(64),
            })
            .collect();
        let mut deleted = plain.clone();
        deleted.accounting_status = AccountingStatus::Deleted;
        [plain, locked, full, deleted]
    })
}

fn only(err: &invoicing_core::error::ApiError, code: ErrorCode, loc: serde_json::Value) {
    assert_eq!(err.errors.len(), 1, "{err}");
    assert_eq!(err.errors[0].code, code, "{err}");
    assert_eq!(err.errors[0].loc.to_json(), loc, "{err}");
}

fuzz_target!(|data: &[u8]| {
    let (header, body) = match data.iter().position(|&b| b == b'\n') {
        Some(i) => (
            Some(String::from_utf8_lossy(&data[..i]).into_owned()),
            &data[i + 1..],
        ),
        None => (None, data),
    };
    let parsed = multipart::parse(header.as_deref(), body);
    assert_eq!(
        parsed,
        multipart::parse(header.as_deref(), body),
        "not deterministic"
    );
    if let Ok(parts) = &parsed {
        let range = body.as_ptr_range();
        for p in parts {
            assert!(p.name.as_deref().is_some_and(|n| !n.is_empty()), "{p:?}");
            let inside = p.bytes.is_empty()
                || (range.contains(&p.bytes.as_ptr()) && p.bytes.as_ptr_range().end <= range.end);
            assert!(inside, "a part's bytes are not the body's");
        }
    }
    let which = body.len() % 4;
    let doc = &documents()[which];
    match files::accept(doc, parsed.as_deref()) {
        Err(err) => {
            assert_eq!(err.status, 422, "{err}");
            assert!(!err.errors.is_empty());
            if which == 3 {
                only(&err, ErrorCode::DocumentDeleted, json!(["path", "id"]));
            } else if parsed.is_err() {
                only(&err, ErrorCode::MultipartInvalid, json!(["body"]));
            }
        }
        Ok(up) => {
            assert!(which == 0 || which == 2, "accepted on document {which}");
            let a = &up.attachment;
            let n = a.filename.chars().count();
            assert!((1..=200).contains(&n), "{a:?}");
            assert_eq!(a.filename.trim(), a.filename);
            assert_eq!(files::filename_problem(&a.filename), None, "{a:?}");
            assert_eq!(a.size, up.bytes.len() as u64);
            assert_eq!(a.sha256.len(), 64);
            assert!(a
                .sha256
                .bytes()
                .all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f')));
            assert_eq!(a.sha256, invoicing_core::attachment::sha256_hex(up.bytes));
            assert_eq!(files::check_bytes(a, up.bytes), Ok(()));
            assert!(files::content_matches(a.mimetype, up.bytes));
            let parts = parsed.as_ref().expect("accepted from parts");
            let first = parts
                .iter()
                .find(|p| p.name.as_deref() == Some("file"))
                .expect("a file part");
            assert_eq!(first.bytes, up.bytes);
            let ct = first.content_type.as_deref().expect("a content type");
            assert_eq!(MediaType::from_content_type(ct), Some(a.mimetype));
            assert_eq!(
                first.filename.as_deref().map(str::trim),
                Some(a.filename.as_str())
            );
            let after = up.attached_to(doc);
            assert_eq!(after.attachments.len(), doc.attachments.len() + 1);
        }
    }
});
