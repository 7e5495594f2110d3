//! The multipart/form-data reader: real bodies, the RFCs' corners, refusals.

use crate::error::ErrorCode;
use crate::files::multipart::{parse, MultipartError, Part};
use serde_json::json;

const FORM: &str = "multipart/form-data; boundary=b";

fn ok<'a>(header: &str, body: &'a [u8]) -> Vec<Part<'a>> {
    parse(Some(header), body).unwrap_or_else(|e| panic!("refused: {e}"))
}

fn refused(header: Option<&str>, body: &[u8]) -> MultipartError {
    match parse(header, body) {
        Ok(parts) => panic!("accepted: {parts:?}"),
        Err(e) => e,
    }
}

/// One `file` part's body around these bytes.
fn one_file(bytes: &[u8]) -> Vec<u8> {
    let mut body = b"--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"x.bin\"\r\n\
                     Content-Type: application/octet-stream\r\n\r\n"
        .to_vec();
    body.extend_from_slice(bytes);
    body.extend_from_slice(b"\r\n--b--\r\n");
    body
}

#[test]
fn a_curl_body_parses() {
    // curl -F note=hello -F file=@facture.pdf;type=application/pdf
    let body = b"--------------------------d74496d66958873e\r\n\
        Content-Disposition: form-data; name=\"note\"\r\n\
        \r\n\
        hello\r\n\
        --------------------------d74496d66958873e\r\n\
        Content-Disposition: form-data; name=\"file\"; filename=\"facture.pdf\"\r\n\
        Content-Type: application/pdf\r\n\
        \r\n\
        %PDF-1.7\n...\r\n\
        --------------------------d74496d66958873e--\r\n";
    let parts = ok(
        "multipart/form-data; boundary=------------------------d74496d66958873e",
        body,
    );
    assert_eq!(
        parts,
        vec![
            Part {
                name: Some("note".into()),
                filename: None,
                content_type: None,
                bytes: b"hello",
            },
            Part {
                name: Some("file".into()),
                filename: Some("facture.pdf".into()),
                content_type: Some("application/pdf".into()),
                bytes: b"%PDF-1.7\n...",
            },
        ]
    );
}

#[test]
fn a_quoted_boundary_parses() {
    let body = b"--a b=c\r\nContent-Disposition: form-data; name=file\r\n\r\nx\r\n--a b=c--";
    let parts = ok(
        r#"multipart/form-data; charset=utf-8; boundary="a b=c""#,
        body,
    );
    assert_eq!(parts[0].bytes, b"x");
    assert_eq!(parts[0].name.as_deref(), Some("file"));
}

#[test]
fn lf_only_line_ends_parse() {
    let body = b"--b\nContent-Disposition: form-data; name=\"file\"; filename=\"a.csv\"\n\
                 Content-Type: text/csv\n\na;b\n1;2\n--b--\n";
    let parts = ok(FORM, body);
    assert_eq!(parts[0].bytes, b"a;b\n1;2");
    assert_eq!(parts[0].content_type.as_deref(), Some("text/csv"));
}

#[test]
fn parameters_and_headers_in_any_case() {
    let body = b"--XyZ\r\nCONTENT-DISPOSITION: Form-Data; NAME=\"file\"; FileName=\"A.PDF\"\r\n\
                 content-TYPE: Application/PDF\r\n\r\n%PDF-\r\n--XyZ--";
    let parts = ok("Multipart/Form-Data; BOUNDARY=XyZ", body);
    assert_eq!(parts[0].name.as_deref(), Some("file"));
    assert_eq!(parts[0].filename.as_deref(), Some("A.PDF"));
    assert_eq!(parts[0].content_type.as_deref(), Some("Application/PDF"));
    // the boundary itself compares with case
    let e = refused(Some("multipart/form-data; boundary=xyz"), body);
    assert_eq!(e.reason, "no closing delimiter");
}

#[test]
fn filename_star_is_percent_decoded_and_wins() {
    let body =
        b"--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"EUR rates.pdf\"; \
                 filename*=UTF-8''%E2%82%AC%20rates.pdf\r\n\r\nx\r\n--b--";
    assert_eq!(ok(FORM, body)[0].filename.as_deref(), Some("€ rates.pdf"));
    let body = b"--b\r\nContent-Disposition: form-data; filename*=iso-8859-1'fr'%E9t%E9.csv; name=file\r\n\r\nx\r\n--b--";
    assert_eq!(ok(FORM, body)[0].filename.as_deref(), Some("été.csv"));
}

#[test]
fn filename_star_wins_over_filename() {
    // through the upload rules: the decoded filename* is the attachment's
    let body = b"--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.pdf\"; \
                 filename*=utf-8'en'b%C3%A9.pdf\r\nContent-Type: application/pdf\r\n\r\n%PDF-1\r\n--b--";
    let parts = ok(FORM, body);
    assert_eq!(parts[0].filename.as_deref(), Some("bé.pdf"));
}

#[test]
fn a_broken_filename_star_is_refused() {
    for ext in [
        "UTF-8''%E2%82",
        "UTF-8''%G1",
        "UTF-8''%",
        "utf-16''a",
        "a.pdf",
        "UTF-8'a.pdf",
    ] {
        let body = format!(
            "--b\r\nContent-Disposition: form-data; name=file; filename*={ext}\r\n\r\nx\r\n--b--"
        );
        refused(Some(FORM), body.as_bytes());
    }
}

#[test]
fn quoted_filenames_undo_backslash_escapes() {
    let body = b"--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a \\\"b\\\" \\\\c;d.pdf\"\r\n\r\nx\r\n--b--";
    assert_eq!(
        ok(FORM, body)[0].filename.as_deref(),
        Some("a \"b\" \\c;d.pdf")
    );
    // a browser's %22 is kept as sent; raw UTF-8 is read as UTF-8
    let body =
        "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"%22é\"\r\n\r\nx\r\n--b--";
    assert_eq!(
        ok(FORM, body.as_bytes())[0].filename.as_deref(),
        Some("%22é")
    );
}

#[test]
fn binary_bytes_with_crlf_and_dashes_survive() {
    let bytes: &[u8] =
        b"\x00\xff\r\n--\r\n--b-x\r\n-b\r\n--bb\r\n\r\n--b-\r\n\n\r--\x89PNG\r\n\x1a\n\r";
    let body = one_file(bytes);
    let parts = ok(FORM, &body);
    assert_eq!(parts.len(), 1);
    assert_eq!(parts[0].bytes, bytes);
}

#[test]
fn preamble_and_epilogue_are_ignored() {
    let body = b"This is the preamble.\r\n--b\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n\
                 --b\r\nContent-Disposition: form-data; name=b\r\n\r\n2\r\n--b--\r\nepilogue --b\r\n";
    let parts = ok(FORM, body);
    let got: Vec<(&str, &[u8])> = parts
        .iter()
        .map(|p| (p.name.as_deref().unwrap_or_default(), p.bytes))
        .collect();
    assert_eq!(got, vec![("a", &b"1"[..]), ("b", &b"2"[..])]);
}

#[test]
fn empty_parts_and_no_parts() {
    let body = b"--b\r\nContent-Disposition: form-data; name=file\r\n\r\n\r\n--b--";
    assert_eq!(ok(FORM, body)[0].bytes, b"");
    // headers, then the delimiter at once: no bytes either
    let body = b"--b\r\nContent-Disposition: form-data; name=file\r\n\r\n--b--";
    assert_eq!(ok(FORM, body)[0].bytes, b"");
    assert!(ok(FORM, b"--b--\r\n").is_empty());
}

#[test]
fn padding_after_a_boundary_and_folded_headers() {
    let body = b"--b \t\r\nContent-Disposition: form-data;\r\n name=\"file\"\r\nX-Other: 1\r\n\r\nx\r\n--b--";
    let parts = ok(FORM, body);
    assert_eq!(parts[0].name.as_deref(), Some("file"));
    assert_eq!(parts[0].bytes, b"x");
}

#[test]
fn a_missing_closing_delimiter_is_invalid() {
    let e = refused(
        Some(FORM),
        b"--b\r\nContent-Disposition: form-data; name=file\r\n\r\nx\r\n--b\r\n",
    );
    assert_eq!(e.reason, "a part's headers do not end");
    let e = refused(
        Some(FORM),
        b"--b\r\nContent-Disposition: form-data; name=file\r\n\r\nx",
    );
    assert_eq!(e.reason, "no closing delimiter");
    assert_eq!(refused(Some(FORM), b"").reason, "no closing delimiter");
    assert_eq!(refused(Some(FORM), b"--b").reason, "no closing delimiter");
}

#[test]
fn no_boundary_is_invalid() {
    for h in [
        "multipart/form-data",
        "multipart/form-data; boundary=",
        "multipart/form-data; boundary=\"\"",
        "multipart/form-data; boundary=a; boundary=a",
        "multipart/form-data; boundary",
        "multipart/form-data; boundary=\"abc",
    ] {
        let e = refused(Some(h), b"--a--");
        let v = e.to_validation_error();
        assert_eq!(v.code, ErrorCode::MultipartInvalid);
        assert_eq!(v.to_json()["loc"], json!(["body"]));
        assert_eq!(v.input, Some(json!(h)));
    }
    let seventy = "x".repeat(70);
    let body =
        format!("--{seventy}\r\nContent-Disposition: form-data; name=f\r\n\r\n1\r\n--{seventy}--");
    ok(
        &format!("multipart/form-data; boundary={seventy}"),
        body.as_bytes(),
    );
    refused(
        Some(&format!("multipart/form-data; boundary={seventy}x")),
        b"",
    );
}

#[test]
fn a_body_that_is_not_multipart_is_invalid() {
    assert_eq!(refused(None, b"").reason, "the content type is missing");
    for h in ["application/json", "multipart/mixed; boundary=b", ""] {
        refused(Some(h), b"--b--");
    }
}

#[test]
fn a_part_without_name_is_invalid() {
    for disposition in [
        "form-data",
        "form-data; filename=\"a.pdf\"",
        "form-data; name=\"\"",
        "form-data; name*=UTF-8''file",
    ] {
        let body = format!("--b\r\nContent-Disposition: {disposition}\r\n\r\nx\r\n--b--");
        assert_eq!(
            refused(Some(FORM), body.as_bytes()).reason,
            "a part has no name"
        );
    }
}

#[test]
fn malformed_part_headers_are_invalid() {
    for headers in [
        "",
        "Content-Type: text/csv",
        "Content-Disposition: attachment; name=file",
        "Content-Disposition: form-data; name=a; name=b",
        "Content-Disposition: form-data; name=a\r\nContent-Disposition: form-data; name=a",
        "Content-Disposition: form-data; name=a\r\nContent-Type: a\r\ncontent-type: b",
        "Content-Disposition: form-data; name=a\r\nno colon here",
        "Content-Disposition: form-data; name=\"a",
        "Content-Disposition: form-data; name=a b",
        " folded: first",
    ] {
        let body = format!("--b\r\n{headers}\r\n\r\nx\r\n--b--");
        refused(Some(FORM), body.as_bytes());
    }
    refused(
        Some(FORM),
        b"--b\r\nContent-Disposition: form-data; name=\"\xff\"\r\n\r\nx\r\n--b--",
    );
}

#[test]
fn the_error_is_multipart_invalid_at_body() {
    let v = refused(Some(FORM), b"nothing").to_validation_error();
    assert_eq!(
        v.to_json(),
        json!({"type": "multipart_invalid", "loc": ["body"],
               "msg": "the body is not valid multipart/form-data: no closing delimiter"})
    );
}

#[test]
fn a_long_body_of_near_delimiters_is_read_in_linear_time() {
    // 4 MiB of "\r\n--b-" (a delimiter prefix, never a delimiter): one pass
    let mut bytes = Vec::new();
    while bytes.len() < 4 << 20 {
        bytes.extend_from_slice(b"\r\n--b-\r\n-");
    }
    let body = one_file(&bytes);
    let parts = ok(FORM, &body);
    assert_eq!(parts[0].bytes.len(), bytes.len());
}
