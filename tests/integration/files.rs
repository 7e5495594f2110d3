//! Files in the simulator (docs/files.md): `POST /documents/{id}/attachments` with a
//! scenario's `multipart` parts, the order of its checks, the sandbox, the
//! attachments in the document and in its UBL, and `GET /documents/{id}/pdf`.

use crate::support::{
    answers, assert_error, base, create_request, error_types, invoice, malformed, request,
    request_with, responses, with_requests,
};
use invoicing_core::attachment::{decode_base64, encode_base64};
use serde_json::{json, Value};

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";

fn part(filename: &str, content_type: &str, bytes: &[u8]) -> Value {
    json!({"name": "file", "filename": filename, "content_type": content_type,
           "base64": encode_base64(bytes)})
}

fn upload(client: &str, id: &str, parts: &Value) -> Value {
    json!({"client": client, "method": "POST", "path": format!("/documents/{id}/attachments"),
           "multipart": parts})
}

#[test]
fn an_attachment_is_listed_in_the_order_added_and_changes_no_flag() {
    // docs/files.md §1: 201 with the document; attachments lists {filename, mimetype} in
    // the order added; the same filename may come twice; no status or flag changes
    let out = answers(vec![
        create_request("app", "", &invoice()),
        upload(
            "app",
            "doc-1",
            &json!([part(" a.csv ", "text/csv; charset=utf-8", b"a;b\n")]),
        ),
        upload("app", "doc-1", &json!([part("logo.png", "IMAGE/PNG", PNG)])),
        upload("app", "doc-1", &json!([part("a.csv", "text/csv", b"x")])),
        request("app", "GET", "/documents/doc-1"),
    ]);
    assert_eq!(out[1].0, 201, "{}", out[1].1);
    assert_eq!(out[3].0, 201, "{}", out[3].1);
    assert_eq!(
        out[4].1["attachments"],
        json!([{"filename": "a.csv", "mimetype": "text/csv"},
               {"filename": "logo.png", "mimetype": "image/png"},
               {"filename": "a.csv", "mimetype": "text/csv"}])
    );
    for key in [
        "pdf_available",
        "xml_available",
        "peppol_status",
        "accounting_status",
    ] {
        assert_eq!(out[4].1[key], out[0].1[key], "{key}");
    }
}

#[test]
fn attaching_needs_the_u_permission_before_the_id_is_looked_up() {
    // docs/files.md §1: authentication (401), permission u (403), then the id (404)
    let out = answers(vec![
        upload(
            "creator",
            "doc-404",
            &json!([part("a.csv", "text/csv", b"x")]),
        ),
        upload("app", "doc-404", &json!([part("a.csv", "text/csv", b"x")])),
        json!({"method": "POST", "path": "/documents/doc-404/attachments", "multipart": []}),
    ]);
    assert_error(
        &out[0],
        403,
        "permission_denied",
        &json!(["header", "authorization"]),
    );
    assert_error(&out[1], 404, "not_found", &json!(["path", "id"]));
    assert_eq!(out[2].0, 401);
}

#[test]
fn an_empty_multipart_list_is_missing_at_body_file() {
    // docs/files.md §1: "multipart": [] is missing at ["body","file"]
    let out = answers(vec![
        create_request("app", "", &invoice()),
        upload("app", "doc-1", &json!([])),
    ]);
    assert_error(&out[1], 422, "missing", &json!(["body", "file"]));
}

#[test]
fn a_request_without_multipart_is_multipart_invalid() {
    // docs/files.md §1: a body that is not multipart is multipart_invalid at ["body"]
    let out = answers(vec![
        create_request("app", "", &invoice()),
        request_with(
            "app",
            "POST",
            "/documents/doc-1/attachments",
            &json!({"file": "x"}),
        ),
    ]);
    assert_error(&out[1], 422, "multipart_invalid", &json!(["body"]));
}

#[test]
fn a_part_without_a_name_is_multipart_invalid_alone() {
    // docs/files.md §1: a part without a name: multipart_invalid at ["body"], answered alone
    let out = answers(vec![
        create_request("app", "", &invoice()),
        upload(
            "app",
            "doc-1",
            &json!([{"filename": "a.csv", "content_type": "text/csv", "base64": "eA=="},
                                      {"name": "other", "base64": ""}]),
        ),
    ]);
    assert_error(&out[1], 422, "multipart_invalid", &json!(["body"]));
}

#[test]
fn every_other_refusal_is_collected_in_one_answer() {
    // docs/files.md §1: every other error in one answer, each at its loc; a locked
    // document gets document_locked at ["body","file"]
    let mut s = base();
    s["documents"] = json!([{"id": "doc-old", "create": invoice(),
                             "state": {"peppol_status": "sent"}}]);
    let out = responses(&with_requests(
        s,
        vec![upload(
            "app",
            "doc-old",
            &json!([{"name": "file", "filename": "../x", "content_type": "image/gif", "base64": "eA=="},
                   {"name": "extra", "base64": "eA=="}]),
        )],
    ));
    let errors = error_types(&out[0].1);
    assert_eq!(out[0].0, 422);
    for expected in [
        ("document_locked", json!(["body", "file"])),
        ("extra_forbidden", json!(["body", "extra"])),
        (
            "attachment_filename_invalid",
            json!(["body", "file", "filename"]),
        ),
        (
            "attachment_type_not_allowed",
            json!(["body", "file", "content_type"]),
        ),
    ] {
        assert!(
            errors.contains(&(expected.0.to_owned(), expected.1.clone())),
            "{expected:?} in {errors:?}"
        );
    }
}

#[test]
fn a_deleted_or_received_document_is_answered_alone() {
    // docs/files.md §1: document_deleted, then received_document, each at ["path","id"]
    let mut s = base();
    s["documents"] = json!([{"id": "doc-old", "create": invoice(),
                             "state": {"accounting_status": "deleted"}}]);
    s["received"] = json!([{"id": "in-1", "base64": encode_base64(b"%PDF-1.4 x")}]);
    let out = responses(&with_requests(
        s,
        vec![
            upload("app", "doc-old", &json!([])),
            upload("app", "in-1", &json!([part("a.csv", "text/csv", b"x")])),
        ],
    ));
    assert_error(&out[0], 422, "document_deleted", &json!(["path", "id"]));
    assert_error(&out[1], 422, "received_document", &json!(["path", "id"]));
}

#[test]
fn a_sandbox_upload_is_answered_live_and_not_kept() {
    // docs/files.md §1: a sandbox client gets the live answer and nothing is kept
    let out = answers(vec![
        create_request("app", "", &invoice()),
        upload("sbx", "doc-1", &json!([part("a.csv", "text/csv", b"x")])),
        request("app", "GET", "/documents/doc-1"),
    ]);
    assert_eq!(out[1].0, 201);
    assert_eq!(
        out[1].1["attachments"],
        json!([{"filename": "a.csv", "mimetype": "text/csv"}])
    );
    assert_eq!(out[2].1["attachments"], json!([]));
}

#[test]
fn multipart_beside_body_or_undecodable_base64_is_malformed() {
    // docs/files.md §1: multipart beside body, or base64 that does not decode, makes the
    // scenario malformed
    let beside = with_requests(
        base(),
        vec![
            json!({"client": "app", "method": "POST", "path": "/documents/x/attachments",
                    "body": {}, "multipart": []}),
        ],
    );
    assert!(malformed(&beside).contains("multipart"));
    let bad = with_requests(
        base(),
        vec![upload(
            "app",
            "x",
            &json!([{"name": "file", "base64": "*not base64*"}]),
        )],
    );
    assert!(malformed(&bad).contains("base64"));
}

#[test]
fn the_ubl_embeds_each_attachment_in_order() {
    // docs/files.md §3: each attachment one cac:AdditionalDocumentReference, in order,
    // cbc:ID its filename, the bytes in base64 with mimeCode and filename
    let out = answers(vec![
        create_request("app", "", &invoice()),
        upload(
            "app",
            "doc-1",
            &json!([part("a.csv", "text/csv", b"a;b\n")]),
        ),
        upload("app", "doc-1", &json!([part("logo.png", "image/png", PNG)])),
        json!({"method": "TICK"}),
        request("app", "GET", "/documents/doc-1/ubl"),
    ]);
    let xml = out[4].1["xml"].as_str().unwrap_or_default().to_owned();
    let csv = format!(
        "<cac:AdditionalDocumentReference><cbc:ID>a.csv</cbc:ID><cac:Attachment><cbc:EmbeddedDocumentBinaryObject mimeCode=\"text/csv\" filename=\"a.csv\">{}</cbc:EmbeddedDocumentBinaryObject></cac:Attachment></cac:AdditionalDocumentReference>",
        encode_base64(b"a;b\n")
    );
    let at_csv = xml.find(&csv).unwrap_or_else(|| panic!("{xml}"));
    let at_png = xml.find("<cbc:ID>logo.png</cbc:ID>").unwrap_or(0);
    let at_supplier = xml.find("<cac:AccountingSupplierParty>").unwrap_or(0);
    assert!(at_csv < at_png && at_png < at_supplier, "{xml}");
}

#[test]
fn the_pdf_is_not_available_before_the_tick() {
    // docs/files.md §2: pdf_available false answers pdf_not_available at ["path","id"]
    let out = answers(vec![
        create_request("app", "", &invoice()),
        request("app", "GET", "/documents/doc-1/pdf"),
        request("reader", "GET", "/documents/doc-404/pdf"),
    ]);
    assert_error(&out[1], 422, "pdf_not_available", &json!(["path", "id"]));
    assert_error(&out[2], 404, "not_found", &json!(["path", "id"]));
}

#[test]
fn a_received_pdf_is_its_own_pdf() {
    // docs/files.md §2: a received PDF is its own PDF
    let mut s = base();
    s["received"] = json!([{"id": "in-1", "base64": encode_base64(b"%PDF-1.4 mail")}]);
    let out = responses(&with_requests(
        s,
        vec![request("reader", "GET", "/documents/in-1/pdf")],
    ));
    assert_eq!(out[0].0, 200, "{}", out[0].1);
    let bytes = decode_base64(out[0].1["base64"].as_str().unwrap_or_default());
    assert_eq!(bytes.as_deref(), Some(&b"%PDF-1.4 mail"[..]));
    assert_eq!(out[0].1["content_type"], "application/pdf");
    assert_eq!(out[0].1["size"], 13);
    assert_eq!(out[0].1["filename"], "in-1.pdf");
}

#[test]
fn a_received_ubl_without_a_pdf_gets_one_rendered_from_what_it_states() {
    // docs/files.md §2: any other UBL is rendered from its unified view; pdf_available is
    // true from the start
    let ubl = include_str!("../fixtures/peppol/base-example.xml");
    let mut s = base();
    s["received"] = json!([{"id": "in-1", "ubl": ubl}]);
    let out = responses(&with_requests(
        s,
        vec![
            request("reader", "GET", "/documents/in-1"),
            request("reader", "GET", "/documents/in-1/pdf"),
            request("reader", "GET", "/documents/in-1/pdf"),
        ],
    ));
    assert_eq!(out[0].1["pdf_available"], true);
    assert_eq!(out[1].0, 200, "{}", out[1].1);
    let bytes = decode_base64(out[1].1["base64"].as_str().unwrap_or_default()).unwrap_or_default();
    assert!(bytes.starts_with(b"%PDF-"));
    assert_eq!(out[1].1, out[2].1, "the kept PDF, the same bytes");
    let number = out[0].1["document_number"].as_str().unwrap_or_default();
    assert_eq!(out[1].1["filename"], format!("{number}.pdf"));
}

#[test]
fn a_received_ubl_that_embeds_a_pdf_has_those_bytes_as_its_pdf() {
    // docs/files.md §2: the first EmbeddedDocumentBinaryObject with mimeCode
    // application/pdf is the received document's PDF
    let ubl = include_str!("../fixtures/peppol/base-example.xml");
    let embedded = format!(
        "<cac:AdditionalDocumentReference><cbc:ID>x</cbc:ID><cac:Attachment><cbc:EmbeddedDocumentBinaryObject mimeCode=\"application/pdf\" filename=\"x.pdf\">{}</cbc:EmbeddedDocumentBinaryObject></cac:Attachment></cac:AdditionalDocumentReference><cac:AccountingSupplierParty>",
        encode_base64(b"%PDF-1.4 the supplier's own")
    );
    let ubl = ubl.replacen("<cac:AccountingSupplierParty>", &embedded, 1);
    let mut s = base();
    s["received"] = json!([{"id": "in-1", "ubl": ubl}]);
    let out = responses(&with_requests(
        s,
        vec![request("reader", "GET", "/documents/in-1/pdf")],
    ));
    let bytes = decode_base64(out[0].1["base64"].as_str().unwrap_or_default());
    assert_eq!(bytes.as_deref(), Some(&b"%PDF-1.4 the supplier's own"[..]));
}

/// The `base64` of a PDF answer, decoded.
fn pdf_bytes(answer: &(u16, Value)) -> Vec<u8> {
    assert_eq!(answer.0, 200, "{}", answer.1);
    decode_base64(answer.1["base64"].as_str().unwrap_or_default()).unwrap_or_default()
}

#[test]
fn a_patch_of_an_unlocked_document_makes_its_pdf_stale_until_the_next_tick() {
    // docs/files.md §2: a PATCH that changes a document not under the edit lock sets
    // pdf_available false until the next TICK renders it again
    let out = answers(vec![
        create_request("app", "", &invoice()),
        json!({"method": "TICK"}),
        request("app", "GET", "/documents/doc-1/pdf"),
        request_with(
            "app",
            "PATCH",
            "/documents/doc-1",
            &json!({"buyer_reference": "PO-9"}),
        ),
        request("app", "GET", "/documents/doc-1/pdf"),
        json!({"method": "TICK"}),
        request("app", "GET", "/documents/doc-1/pdf"),
        request_with("app", "PATCH", "/documents/doc-1", &json!({})),
        request("app", "GET", "/documents/doc-1"),
    ]);
    let before = pdf_bytes(&out[2]);
    assert_eq!(out[3].1["pdf_available"], false);
    assert_error(&out[4], 422, "pdf_not_available", &json!(["path", "id"]));
    let after = pdf_bytes(&out[6]);
    assert_ne!(
        before, after,
        "rendered again, with the new buyer reference"
    );
    assert_eq!(
        out[8].1["pdf_available"], true,
        "a PATCH that changes nothing keeps it"
    );
}

#[test]
fn a_locked_document_keeps_its_pdf_through_a_payment() {
    // docs/files.md §2: a document under the edit lock never gets a new PDF
    let mut s = base();
    s["documents"] = json!([{"id": "doc-old", "create": invoice(),
                             "state": {"peppol_status": "sent", "pdf_available": true}}]);
    let out = responses(&with_requests(
        s,
        vec![
            request("app", "GET", "/documents/doc-old/pdf"),
            request_with(
                "app",
                "PATCH",
                "/documents/doc-old",
                &json!({"paid_amount": 5}),
            ),
            request("app", "GET", "/documents/doc-old/pdf"),
        ],
    ));
    assert_eq!(out[1].0, 200, "{}", out[1].1);
    assert_eq!(out[1].1["pdf_available"], true);
    assert_eq!(pdf_bytes(&out[0]), pdf_bytes(&out[2]));
}

#[test]
fn the_kept_pdf_is_the_one_rendered_at_the_tick() {
    // docs/files.md §2: the PDF is rendered when pdf_available turns true and then kept: a
    // later SET of the paid amount or a new default branding changes no kept PDF
    let asked_at_once = answers(vec![
        create_request("app", "", &invoice()),
        json!({"method": "TICK"}),
        request("app", "GET", "/documents/doc-1/pdf"),
    ]);
    let asked_later = answers(vec![
        create_request("app", "", &invoice()),
        json!({"method": "TICK"}),
        json!({"method": "SET", "path": "/documents/doc-1", "body": {"paid_amount": 3}}),
        request_with(
            "app",
            "PATCH",
            "/brandings/brd-2",
            &json!({"is_default": true}),
        ),
        request("app", "GET", "/documents/doc-1/pdf"),
    ]);
    assert_eq!(asked_later[2].0, 200, "{}", asked_later[2].1);
    assert_eq!(pdf_bytes(&asked_at_once[2]), pdf_bytes(&asked_later[4]));
}

#[test]
fn every_bundled_documents_pdf_is_pinned_by_its_hash() {
    // docs/files.md §2: same input, same bytes: the size and SHA-256 of the PDF of every
    // document of every bundled scenario (issued after a TICK, and received)
    let mut pinned = String::new();
    for name in ["quickstart", "lifecycle", "peppol", "inbox", "files"] {
        let path = format!(
            "{}/examples/scenarios/{name}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let mut scenario: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        let first = invoicing_core::simulator::run(text.as_bytes());
        let mut ids: Vec<String> = ["documents", "received"]
            .iter()
            .flat_map(|k| scenario[*k].as_array().cloned().unwrap_or_default())
            .filter_map(|d| d["id"].as_str().map(str::to_owned))
            .collect();
        for r in first["responses"].as_array().into_iter().flatten() {
            if let (201, Some(id)) = (r["status"].as_u64().unwrap_or(0), r["body"]["id"].as_str()) {
                if id.starts_with("doc-") && !ids.iter().any(|i| i == id) {
                    ids.push(id.to_owned());
                }
            }
        }
        let client = scenario["clients"][0]["client_id"].clone();
        let mut requests = scenario["requests"].as_array().cloned().unwrap_or_default();
        let own = requests.len();
        requests.push(json!({"method": "TICK"}));
        for id in &ids {
            requests.push(
                json!({"client": client, "method": "GET", "path": format!("/documents/{id}/pdf")}),
            );
        }
        scenario["requests"] = Value::Array(requests);
        let out = responses(&scenario);
        for (id, answer) in ids.iter().zip(&out[own + 1..]) {
            let line = match answer.0 {
                200 => format!(
                    "{name} {id}: {} {} bytes, sha256 {}\n",
                    answer.1["filename"].as_str().unwrap_or_default(),
                    answer.1["size"],
                    answer.1["sha256"].as_str().unwrap_or_default()
                ),
                status => format!("{name} {id}: {status} {}\n", error_types(&answer.1)[0].0),
            };
            pinned.push_str(&line);
        }
    }
    insta::assert_snapshot!("bundled_pdf_hashes", pinned);
}

#[test]
fn the_pdf_and_the_ubl_carry_the_same_exemption_mention() {
    // interface create rule 5, docs/files.md §2: each exempt group's mention, the same text
    // on the PDF and in the UBL, a blank company text falling back to the wording
    use invoicing_core::context::Context as _;
    let mut s = base();
    s["company"]["exemption_mentions"] = json!({"exempted": "  ", "export": "Uitvoer, art. 39"});
    s["company"]["language"] = json!("nl");
    let mut sim = crate::support::simulator(&s);
    let body = json!({"type": "sale_invoice", "relation_id": "rel-acme", "lines": [
        {"item_name": "a", "quantity": 1, "unit_price": 10, "vat_code": "exempted"},
        {"item_name": "b", "quantity": 1, "unit_price": 10, "vat_code": "export"}]});
    let (status, _) = sim.handle(&create_request("app", "", &body));
    assert_eq!(status, 201);
    sim.handle(&json!({"method": "TICK"}));
    let (_, ubl) = sim.handle(&request("app", "GET", "/documents/doc-1/ubl"));
    let xml = ubl["xml"].as_str().unwrap_or_default();
    let doc = sim.document("doc-1").expect("stored");
    let world = sim.world();
    let relation = world.relation("rel-acme").ok().flatten().expect("relation");
    let parties = invoicing_core::pdf::Parties {
        company: world.company(),
        relation: &relation,
        location: None,
        footer: None,
    };
    let sheet = invoicing_core::pdf::Sheet::of_document(doc, parties);
    let mentions: Vec<String> = sheet.vat.iter().filter_map(|r| r.mention.clone()).collect();
    assert_eq!(mentions, ["Exempt from VAT", "Uitvoer, art. 39"]);
    for m in &mentions {
        assert!(
            xml.contains(&format!(
                "<cbc:TaxExemptionReason>{m}</cbc:TaxExemptionReason>"
            )),
            "{m} in the UBL"
        );
    }
}
