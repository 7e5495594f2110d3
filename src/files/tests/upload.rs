//! The upload rules of docs/files.md §1: one named test per refusal, each asserting the
//! code, the loc and the ctx of every error of the answer.

use crate::attachment::{sha256_hex, Attachment, MediaType};
use crate::context::Permissions;
use crate::document::{AccountingStatus, Document, PeppolStatus};
use crate::error::ApiError;
use crate::files::multipart::{self, MultipartError, Part};
use crate::files::*;
use crate::simulator::Simulator;
use serde_json::{json, Value};

const PDF: &[u8] = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj";
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
const JPEG: &[u8] = b"\xff\xd8\xff\xe0\0\x10JFIF";
const ZIP: &[u8] = b"PK\x03\x04\x14\0\x06\0";
const XLSX: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const ODS: &str = "application/vnd.oasis.opendocument.spreadsheet";

/// A document of the given type created in the world of `strategies::scenario`.
fn created(doc_type: &str) -> Document {
    let sim = Simulator::from_json(&crate::strategies::scenario()).expect("scenario");
    let body = json!({"type": doc_type, "relation_id": "rel-company",
                      "lines": [{"quantity": 1, "unit_price": 100, "vat_rate": 21}]});
    crate::lifecycle::create(sim.world(), Permissions::ALL, None, Some(&body), "doc-1")
        .expect("created")
        .document
}

fn doc() -> Document {
    created("sale_invoice")
}

fn locked() -> Document {
    let mut d = doc();
    d.peppol_status = PeppolStatus::Sent;
    assert!(d.is_locked());
    d
}

fn deleted() -> Document {
    let mut d = doc();
    d.accounting_status = AccountingStatus::Deleted;
    d
}

/// A document that already holds `n` files of `size` bytes each.
fn holding(n: usize, size: u64) -> Document {
    let mut d = doc();
    d.attachments = (0..n)
        .map(|i| Attachment {
            filename: format!("f{i}.pdf"),
            mimetype: MediaType::Pdf,
            size,
            sha256: "0".repeat(64),
        })
        .collect();
    d
}

fn part<'a>(
    name: Option<&str>,
    filename: Option<&str>,
    content_type: Option<&str>,
    bytes: &'a [u8],
) -> Part<'a> {
    Part {
        name: name.map(str::to_owned),
        filename: filename.map(str::to_owned),
        content_type: content_type.map(str::to_owned),
        bytes,
    }
}

/// A `file` part.
fn file<'a>(filename: &str, content_type: &str, bytes: &'a [u8]) -> Part<'a> {
    part(Some("file"), Some(filename), Some(content_type), bytes)
}

fn pdf() -> Part<'static> {
    file("invoice.pdf", "application/pdf", PDF)
}

fn refused(doc: &Document, parts: &[Part<'_>]) -> ApiError {
    match accept(doc, Ok(parts)) {
        Ok(u) => panic!("accepted: {:?}", u.attachment),
        Err(e) => e,
    }
}

fn accepted<'b>(doc: &Document, parts: &[Part<'b>]) -> Upload<'b> {
    accept(doc, Ok(parts)).unwrap_or_else(|e| panic!("refused: {e}"))
}

/// The answer is 422 and its errors are exactly these `(type, loc, ctx)`, in any
/// order.
fn assert_errors(err: &ApiError, expected: &[(&str, Value, Option<Value>)]) {
    assert_eq!(err.status, 422, "{err}");
    let mut got: Vec<(String, String, String)> = err.body()["detail"]
        .as_array()
        .expect("detail")
        .iter()
        .map(|e| {
            (
                e["type"].as_str().unwrap_or_default().to_owned(),
                e["loc"].to_string(),
                e.get("ctx").map(Value::to_string).unwrap_or_default(),
            )
        })
        .collect();
    let mut want: Vec<(String, String, String)> = expected
        .iter()
        .map(|(t, loc, ctx)| {
            (
                (*t).to_owned(),
                loc.to_string(),
                ctx.as_ref().map(Value::to_string).unwrap_or_default(),
            )
        })
        .collect();
    got.sort();
    want.sort();
    assert_eq!(got, want, "{err}");
}

fn assert_only(err: &ApiError, code: &str, loc: Value, ctx: Option<Value>) {
    assert_errors(err, &[(code, loc, ctx)]);
}

fn body_file() -> Value {
    json!(["body", "file"])
}

fn allowed() -> Value {
    json!({"allowed": [
        "application/pdf", "image/png", "image/jpeg", "text/csv", XLSX, ODS
    ]})
}

/// The one error of a file with this filename.
fn filename_refused(filename: &str) {
    let err = refused(&doc(), &[file(filename, "application/pdf", PDF)]);
    assert_only(
        &err,
        "attachment_filename_invalid",
        json!(["body", "file", "filename"]),
        None,
    );
    assert_eq!(err.errors[0].input, Some(json!(filename)), "{filename:?}");
}

// ---------------------------------------------------------------------------------
// Alone: document_deleted, multipart_invalid
// ---------------------------------------------------------------------------------

#[test]
fn deleted_document_answers_alone() {
    let mut d = deleted();
    d.peppol_status = PeppolStatus::Sent;
    let parts = [part(None, None, None, b"")];
    let err = refused(&d, &parts);
    assert_only(&err, "document_deleted", json!(["path", "id"]), None);
    let broken = MultipartError {
        reason: "no closing delimiter",
        header: None,
    };
    let err = accept(&d, Err(&broken)).expect_err("refused");
    assert_only(&err, "document_deleted", json!(["path", "id"]), None);
    assert_only(
        &refused(&d, &[pdf()]),
        "document_deleted",
        json!(["path", "id"]),
        None,
    );
}

#[test]
fn multipart_parse_error_answers_alone() {
    let parsed = multipart::parse(Some("application/json"), b"{}");
    let err = accept(&locked(), parsed.as_deref()).expect_err("refused");
    assert_only(&err, "multipart_invalid", json!(["body"]), None);
    assert_eq!(err.errors[0].input, Some(json!("application/json")));
}

#[test]
fn part_without_name_is_multipart_invalid_alone() {
    for name in [None, Some("")] {
        let parts = [part(name, None, None, b""), file("x/y", "image/gif", b"")];
        let err = refused(&locked(), &parts);
        assert_only(&err, "multipart_invalid", json!(["body"]), None);
    }
}

// ---------------------------------------------------------------------------------
// The parts
// ---------------------------------------------------------------------------------

#[test]
fn locked_document_gets_document_locked_at_body_file() {
    let err = refused(&locked(), &[pdf()]);
    assert_only(&err, "document_locked", body_file(), None);
    let mut booked = doc();
    booked.accounting_status = AccountingStatus::Exported;
    assert_only(
        &refused(&booked, &[pdf()]),
        "document_locked",
        body_file(),
        None,
    );
}

#[test]
fn no_file_part_is_missing_at_body_file() {
    assert_only(&refused(&doc(), &[]), "missing", body_file(), None);
}

#[test]
fn other_part_is_extra_forbidden_at_its_name() {
    let parts = [pdf(), part(Some("note"), None, None, b"hello")];
    assert_only(
        &refused(&doc(), &parts),
        "extra_forbidden",
        json!(["body", "note"]),
        None,
    );
}

#[test]
fn part_names_compare_with_case() {
    let parts = [part(
        Some("File"),
        Some("a.pdf"),
        Some("application/pdf"),
        PDF,
    )];
    assert_errors(
        &refused(&doc(), &parts),
        &[
            ("extra_forbidden", json!(["body", "File"]), None),
            ("missing", body_file(), None),
        ],
    );
}

#[test]
fn second_file_part_is_too_long_with_max_length_1() {
    // only the first is checked further: the second's gif type is not reported
    let parts = [pdf(), file("", "image/gif", b"")];
    assert_only(
        &refused(&doc(), &parts),
        "too_long",
        body_file(),
        Some(json!({"max_length": 1})),
    );
}

// ---------------------------------------------------------------------------------
// The filename
// ---------------------------------------------------------------------------------

#[test]
fn filename_absent_is_missing() {
    let parts = [part(Some("file"), None, Some("application/pdf"), PDF)];
    assert_only(
        &refused(&doc(), &parts),
        "missing",
        json!(["body", "file", "filename"]),
        None,
    );
}

#[test]
fn filename_empty_or_blank_is_invalid() {
    for f in ["", "   ", "\u{3000}\t"] {
        filename_refused(f);
    }
}

#[test]
fn filename_with_slash_is_invalid() {
    filename_refused("a/b.pdf");
    filename_refused("/etc/passwd");
}

#[test]
fn filename_with_backslash_is_invalid() {
    filename_refused("C:\\Users\\a.pdf");
}

#[test]
fn filename_dot_is_invalid() {
    filename_refused(".");
    filename_refused(" . ");
}

#[test]
fn filename_dot_dot_is_invalid() {
    filename_refused("..");
    filename_refused("\u{a0}..\u{a0}");
}

#[test]
fn filename_of_201_chars_is_invalid() {
    filename_refused(&"é".repeat(201));
    filename_refused(&format!("{}.pdf", "a".repeat(197)));
}

#[test]
fn filename_of_200_chars_after_trimming_is_accepted() {
    let name = "€".repeat(200);
    let padded = format!("  {name}\u{2003}");
    let up = accepted(&doc(), &[file(&padded, "application/pdf", PDF)]);
    assert_eq!(up.attachment.filename, name);
}

#[test]
fn control_char_in_filename_is_invalid() {
    for c in ['\0', '\n', '\u{1b}', '\u{7f}', '\u{85}', '\u{9f}'] {
        filename_refused(&format!("a{c}b.pdf"));
    }
}

#[test]
fn format_char_in_filename_is_invalid() {
    for c in ['\u{ad}', '\u{200b}', '\u{2060}', '\u{feff}', '\u{e0041}'] {
        filename_refused(&format!("a{c}b.pdf"));
    }
}

#[test]
fn bidi_control_in_filename_is_invalid() {
    for c in [
        '\u{61c}', '\u{200e}', '\u{200f}', '\u{202a}', '\u{202e}', '\u{2066}', '\u{2069}',
    ] {
        filename_refused(&format!("invoice{c}fdp.exe"));
    }
}

#[test]
fn char_xml_does_not_allow_in_filename_is_invalid() {
    filename_refused("a\u{fffe}.pdf");
    filename_refused("a\u{ffff}.pdf");
}

#[test]
fn filename_is_kept_trimmed() {
    let up = accepted(
        &doc(),
        &[file(" \u{3000}Facture été.pdf\n ", "application/pdf", PDF)],
    );
    assert_eq!(up.attachment.filename, "Facture été.pdf");
    // inner dots, spaces and non-ASCII are fine
    let up = accepted(&doc(), &[file("...a b.c", "application/pdf", PDF)]);
    assert_eq!(up.attachment.filename, "...a b.c");
}

// ---------------------------------------------------------------------------------
// The media type
// ---------------------------------------------------------------------------------

#[test]
fn content_type_absent_is_missing() {
    let parts = [part(Some("file"), Some("a.pdf"), None, PDF)];
    assert_only(
        &refused(&doc(), &parts),
        "missing",
        json!(["body", "file", "content_type"]),
        None,
    );
}

#[test]
fn type_gif_is_not_allowed_with_the_six_listed() {
    let err = refused(&doc(), &[file("a.gif", "image/gif", b"GIF89a")]);
    assert_only(
        &err,
        "attachment_type_not_allowed",
        json!(["body", "file", "content_type"]),
        Some(allowed()),
    );
    assert_eq!(err.errors[0].input, Some(json!("image/gif")));
}

#[test]
fn type_is_compared_without_case_and_parameters() {
    let up = accepted(
        &doc(),
        &[file("a.csv", "TEXT/CSV; charset=ISO-8859-1", b"a;b")],
    );
    assert_eq!(up.attachment.mimetype, MediaType::Csv);
    assert_eq!(up.attachment.mimetype.as_str(), "text/csv");
}

#[test]
fn type_not_allowed_skips_the_content_check() {
    let err = refused(&doc(), &[file("a.txt", "text/plain", b"\0\0")]);
    assert_only(
        &err,
        "attachment_type_not_allowed",
        json!(["body", "file", "content_type"]),
        Some(allowed()),
    );
}

// ---------------------------------------------------------------------------------
// The bytes
// ---------------------------------------------------------------------------------

fn mismatch(content_type: &str, bytes: &[u8]) {
    let err = refused(&doc(), &[file("a", content_type, bytes)]);
    assert_only(&err, "attachment_content_mismatch", body_file(), None);
}

#[test]
fn png_type_with_pdf_bytes_is_a_content_mismatch() {
    mismatch("image/png", PDF);
}

#[test]
fn pdf_type_with_png_bytes_is_a_content_mismatch() {
    mismatch("application/pdf", PNG);
    mismatch("application/pdf", b"%PDF");
    mismatch("application/pdf", b" %PDF-1.7");
}

#[test]
fn jpeg_type_with_png_bytes_is_a_content_mismatch() {
    mismatch("image/jpeg", PNG);
    mismatch("image/jpeg", b"\xff\xd8");
}

#[test]
fn spreadsheet_types_without_the_zip_signature_are_a_content_mismatch() {
    mismatch(XLSX, b"PK\x05\x06");
    mismatch(ODS, PDF);
}

#[test]
fn csv_with_nul_is_a_content_mismatch() {
    mismatch("text/csv", b"a;b\n1;\x002");
}

#[test]
fn csv_not_utf8_is_a_content_mismatch() {
    mismatch("text/csv", b"caf\xe9;1");
}

#[test]
fn csv_with_bom_is_accepted() {
    let up = accepted(
        &doc(),
        &[file("a.csv", "text/csv", b"\xef\xbb\xbfa;b\r\n1;2")],
    );
    assert_eq!(up.attachment.size, 11);
}

#[test]
fn each_type_with_its_signature_is_accepted() {
    for (t, bytes) in [
        ("application/pdf", PDF),
        ("image/png", PNG),
        ("image/jpeg", JPEG),
        ("text/csv", "é;€".as_bytes()),
        (XLSX, ZIP),
        (ODS, ZIP),
    ] {
        let up = accepted(&doc(), &[file("f", t, bytes)]);
        assert_eq!(up.attachment.mimetype.as_str(), t);
        assert_eq!(up.bytes, bytes);
    }
}

#[test]
fn zero_bytes_is_too_short_only() {
    // not a content mismatch, and none of the three limits, even when they are hit
    let full = holding(20, MAX_FILE_BYTES);
    for d in [doc(), full] {
        let err = refused(&d, &[file("a.pdf", "application/pdf", b"")]);
        assert_only(
            &err,
            "too_short",
            body_file(),
            Some(json!({"min_length": 1})),
        );
    }
}

#[test]
fn file_of_10_mib_plus_one_is_too_large() {
    let mut big = vec![0u8; 10_485_761];
    big[..5].copy_from_slice(b"%PDF-");
    let err = refused(&doc(), &[file("big.pdf", "application/pdf", &big)]);
    assert_only(
        &err,
        "attachment_too_large",
        body_file(),
        Some(json!({"max_bytes": 10_485_760})),
    );
    big.pop();
    let up = accepted(&doc(), &[file("big.pdf", "application/pdf", &big)]);
    assert_eq!(up.attachment.size, 10_485_760);
}

#[test]
fn twenty_first_file_hits_the_limit() {
    let err = refused(&holding(20, 1), &[pdf()]);
    assert_only(
        &err,
        "attachment_limit",
        body_file(),
        Some(json!({"max_count": 20})),
    );
    accepted(&holding(19, 1), &[pdf()]);
}

#[test]
fn total_above_25_mib() {
    // 25 MiB = 26 214 400: 2 × 10 MiB + 5 MiB already, one byte more is too much
    let mut d = holding(2, MAX_FILE_BYTES);
    d.attachments[1].size = MAX_FILE_BYTES;
    d.attachments.push(Attachment {
        size: 5_242_880 - u64::try_from(PDF.len()).expect("small") + 1,
        ..d.attachments[0].clone()
    });
    let err = refused(&d, &[pdf()]);
    assert_only(
        &err,
        "attachments_total_too_large",
        body_file(),
        Some(json!({"max_bytes": 26_214_400})),
    );
    d.attachments[2].size -= 1;
    accepted(&d, &[pdf()]);
}

#[test]
fn the_limits_are_reported_together() {
    let mut big = vec![b'a'; 10_485_761];
    big[0] = 0;
    let err = refused(
        &holding(20, MAX_FILE_BYTES),
        &[file("a.csv", "text/csv", &big)],
    );
    assert_errors(
        &err,
        &[
            ("attachment_content_mismatch", body_file(), None),
            (
                "attachment_too_large",
                body_file(),
                Some(json!({"max_bytes": 10_485_760})),
            ),
            (
                "attachment_limit",
                body_file(),
                Some(json!({"max_count": 20})),
            ),
            (
                "attachments_total_too_large",
                body_file(),
                Some(json!({"max_bytes": 26_214_400})),
            ),
        ],
    );
}

// ---------------------------------------------------------------------------------
// One answer, success, bytes handed back
// ---------------------------------------------------------------------------------

#[test]
fn errors_are_collected_in_one_answer() {
    let parts = [
        part(Some("note"), None, None, b"x"),
        file(" .. ", "image/gif", b""),
        pdf(),
    ];
    assert_errors(
        &refused(&locked(), &parts),
        &[
            ("document_locked", body_file(), None),
            ("extra_forbidden", json!(["body", "note"]), None),
            ("too_long", body_file(), Some(json!({"max_length": 1}))),
            (
                "attachment_filename_invalid",
                json!(["body", "file", "filename"]),
                None,
            ),
            (
                "attachment_type_not_allowed",
                json!(["body", "file", "content_type"]),
                Some(allowed()),
            ),
            ("too_short", body_file(), Some(json!({"min_length": 1}))),
        ],
    );
    let parts = [part(Some("file"), None, None, PNG)];
    assert_errors(
        &refused(&doc(), &parts),
        &[
            ("missing", json!(["body", "file", "filename"]), None),
            ("missing", json!(["body", "file", "content_type"]), None),
        ],
    );
}

#[test]
fn accepted_upload_makes_the_attachment() {
    let d = holding(3, 10);
    let up = accepted(&d, &[file(" notes.csv ", "Text/CSV", b"abc")]);
    assert_eq!(
        up.attachment,
        Attachment {
            filename: "notes.csv".into(),
            mimetype: MediaType::Csv,
            size: 3,
            sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad".into(),
        }
    );
    assert_eq!(up.bytes, b"abc");
    let after = up.attached_to(&d);
    assert_eq!(after.attachments.len(), 4);
    assert_eq!(after.attachments[3], up.attachment);
    let mut same = after.clone();
    same.attachments.pop();
    assert_eq!(same, d, "attaching changes nothing else");
    assert_eq!(
        after.to_json()["attachments"][3],
        json!({"filename": "notes.csv", "mimetype": "text/csv"})
    );
}

#[test]
fn the_same_filename_may_come_twice() {
    let d = accepted(&doc(), &[pdf()]).attached_to(&doc());
    let again = accepted(&d, &[pdf()]).attached_to(&d);
    assert_eq!(again.attachments.len(), 2);
    assert_eq!(again.attachments[0], again.attachments[1]);
}

#[test]
fn proformas_take_attachments() {
    accepted(&created("proforma_invoice"), &[pdf()]);
}

#[test]
fn accept_body_reads_a_server_request() {
    let body = b"--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.pdf\"\r\n\
                 Content-Type: application/pdf\r\n\r\n%PDF-1.4 x\r\n--b--\r\n";
    let ct = Some("multipart/form-data; boundary=b");
    let up = accept_body(&doc(), ct, body).expect("accepted");
    assert_eq!(up.bytes, b"%PDF-1.4 x");
    // deleted before a broken body, a broken body before the rest
    let err = accept_body(&deleted(), ct, b"garbage").expect_err("refused");
    assert_only(&err, "document_deleted", json!(["path", "id"]), None);
    let err = accept_body(&locked(), ct, b"garbage").expect_err("refused");
    assert_only(&err, "multipart_invalid", json!(["body"]), None);
}

#[test]
fn bytes_handed_back_are_checked() {
    let up = accepted(&doc(), &[pdf()]);
    assert_eq!(check_bytes(&up.attachment, PDF), Ok(()));
    let mut other = PDF.to_vec();
    other[6] ^= 1;
    assert!(matches!(
        check_bytes(&up.attachment, &other),
        Err(BytesMismatch::Sha256 { .. })
    ));
    let err = check_bytes(&up.attachment, &PDF[1..]).expect_err("refused");
    assert_eq!(
        err,
        BytesMismatch::Size {
            filename: "invoice.pdf".into(),
            expected: u64::try_from(PDF.len()).expect("small"),
            actual: u64::try_from(PDF.len() - 1).expect("small"),
        }
    );
    assert!(err.to_string().contains("invoice.pdf"));
}

#[test]
fn sha256_is_lower_case_hex() {
    assert_eq!(
        sha256_hex(b""),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
}
