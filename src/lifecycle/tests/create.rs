//! Create: a valid request, permissions, sending on creation, the fine points of
//! the reading rules, several errors in one answer.

use super::*;

// ---------------------------------------------------------------------------------
// Create: a valid request
// ---------------------------------------------------------------------------------

#[test]
fn create_computes_numbers_dates_and_statuses() {
    // decisions.md §5: number in the journal's window, communication, statuses, origin api;
    // interface.md States: accounting_status waiting, payment_status from paid_amount 0
    let c = try_create(&TestContext::new(), &body()).expect("accepted");
    let doc = &c.document;
    assert_eq!(doc.id, DOC_ID);
    assert_eq!(doc.doc_type, DocumentType::SaleInvoice);
    assert_eq!(doc.origin, "api");
    assert_eq!(doc.document_number, "INV2026-0007");
    assert_eq!(
        c.number,
        DrawnNumber {
            journal_id: J_SALES.to_owned(),
            window: Window::Year(2026),
            sequence: SEQUENCE,
            next: SEQUENCE + 1
        }
    );
    assert_eq!(doc.journal_id, J_SALES);
    assert_eq!(doc.relation_type, RelationKind::Company);
    assert_eq!(doc.issue_date, d("2026-11-21"));
    // 30-fm from the relation: 2026-12-01 + 30
    assert_eq!(doc.payment_terms.to_string(), "30-fm");
    assert_eq!(doc.due_date, d("2026-12-31"));
    assert_eq!(doc.accounting_status, AccountingStatus::Waiting);
    assert_eq!(doc.peppol_status, PeppolStatus::NotSent);
    assert_eq!(doc.mail_status, MailStatus::NotSent);
    assert_eq!(doc.payment_status, PaymentStatus::Unpaid);
    assert!(!doc.pdf_available && !doc.xml_available);
    assert_eq!(doc.currency, Currency::EUR);
    assert_eq!(doc.legal_notice.as_deref(), Some(LEGAL));
    let out = doc.to_json();
    assert_eq!(out["is_remittance_structured"], json!(true));
    let remittance = out["payment_remittance"]
        .as_str()
        .expect("a string")
        .to_owned();
    assert!(
        remittance.starts_with("+++") && remittance.ends_with("+++") && remittance.len() == 20,
        "{remittance}"
    );
    assert_eq!(field(doc, "tax_exclusive_amount"), "100.00");
    assert_eq!(field(doc, "tax_amount"), "21.00");
    assert_eq!(field(doc, "total_amount"), "121.00");
    assert_eq!(field(doc, "paid_amount"), "0.00");
    assert_eq!(field(doc, "remaining_amount"), "121.00");
    assert_eq!(line_field(doc, 0, "sequence"), "1");
    assert_eq!(line_field(doc, 0, "unit_price"), "50.00");
    assert_eq!(line_field(doc, 0, "subtotal"), "100.00");
}

#[test]
fn create_is_deterministic() {
    // decisions.md §1: same inputs, same outputs, byte for byte
    let a = created(&body());
    let b = created(&body());
    assert_eq!(a, b);
    assert_eq!(a.to_json().to_string(), b.to_json().to_string());
}

#[test]
fn create_numbers_follow_the_journal_window() {
    // decisions.md §5: never → {prefix}{seq:06}, yearly → {prefix}{YYYY}-{seq:04},
    // monthly → {prefix}{YYYY}{MM}-{seq:04}, in the window of the issue date
    let b = with(body(), "issue_date", json!("2025-03-09"));
    assert_eq!(
        created(&with(b.clone(), "journal_id", json!(J_SALES_NEVER))).document_number,
        "S000007"
    );
    assert_eq!(
        created(&with(b.clone(), "journal_id", json!(J_SALES))).document_number,
        "INV2025-0007"
    );
    assert_eq!(
        created(&with(b.clone(), "journal_id", json!(J_SALES_MONTHLY))).document_number,
        "M202503-0007"
    );
    // the caller is told which counter and window to advance
    let ctx = TestContext::new();
    for (j, window) in [
        (J_SALES_NEVER, Window::Always),
        (J_SALES, Window::Year(2025)),
        (J_SALES_MONTHLY, Window::Month(2025, 3)),
    ] {
        let c = try_create(&ctx, &with(b.clone(), "journal_id", json!(j))).expect("created");
        assert_eq!(
            c.number,
            DrawnNumber {
                journal_id: j.to_owned(),
                window,
                sequence: SEQUENCE,
                next: SEQUENCE + 1
            }
        );
        assert_eq!(c.document.numbered_on, d("2025-03-09"));
    }
}

#[test]
fn create_journal_defaults_follow_the_type_category() {
    // decisions.md §5: sale_invoice → sales_invoice, sale_credit_note → sales_credit,
    // purchase_invoice → purchases_invoice, purchase_credit_note → purchases_credit,
    // proforma_invoice → proforma
    let mut ctx = TestContext::new();
    ctx.company.self_billing = true;
    for (t, j) in [
        ("sale_invoice", J_SALES),
        ("sale_credit_note", J_CREDIT),
        ("purchase_invoice", J_PURCHASE),
        ("purchase_credit_note", J_PURCHASE_CREDIT),
        ("proforma_invoice", J_PROFORMA),
    ] {
        let doc = created_in(&ctx, &with(body(), "type", json!(t)));
        assert_eq!(doc.journal_id, j, "{t}");
        // decisions.md §5: a proforma answers type proforma_invoice
        assert_eq!(doc.to_json()["type"], json!(t));
    }
}

#[test]
fn create_accepts_numbers_as_strings_and_echoes_their_scale() {
    // decisions.md §2, §8: "12.50" and 12.50 both read exactly and echo 12.50; 1e2 is 100
    let doc = created(&with(
        body(),
        "lines",
        json!([
            {"quantity": "1.50", "unit_price": num("12.50"), "vat_rate": "21.00"},
            {"quantity": num("1e2"), "unit_price": "0.1", "vat_rate": 6}
        ]),
    ));
    assert_eq!(line_field(&doc, 0, "quantity"), "1.50");
    assert_eq!(line_field(&doc, 0, "unit_price"), "12.50");
    assert_eq!(line_field(&doc, 0, "vat_rate"), "21.00");
    assert_eq!(line_field(&doc, 1, "quantity"), "100");
    assert_eq!(line_field(&doc, 1, "subtotal"), "10.00");
}

// ---------------------------------------------------------------------------------
// Create: permissions
// ---------------------------------------------------------------------------------

#[test]
fn create_needs_the_c_permission() {
    // decisions.md §7: create needs c (403 permission_denied)
    let ctx = TestContext::new();
    for perms in [U_ONLY, Permissions::default()] {
        let err = create(&ctx, perms, None, Some(&body()), DOC_ID).expect_err("refused");
        assert_only(
            &err,
            403,
            ErrorCode::PermissionDenied,
            &json!(["header", "authorization"]),
        );
    }
}

#[test]
fn create_403_carries_no_422_even_with_a_broken_body() {
    // decisions.md §9: permissions come first, a 403 carries no 422s
    let ctx = TestContext::new();
    let broken = json!({"type": 5, "lines": [], "foo": 1});
    for b in [Some(&broken), None, Some(&json!([1]))] {
        let err = create(&ctx, U_ONLY, Some("maybe"), b, DOC_ID).expect_err("refused");
        assert_only(
            &err,
            403,
            ErrorCode::PermissionDenied,
            &json!(["header", "authorization"]),
        );
        let err = create(&ctx, C_ONLY, Some("true"), b, DOC_ID).expect_err("refused");
        assert_only(
            &err,
            403,
            ErrorCode::PermissionDenied,
            &json!(["header", "authorization"]),
        );
    }
}

#[test]
fn create_send_peppol_needs_the_u_permission() {
    // interface.md Errors §4: send_peppol without the u permission; decisions.md §7
    let ctx = TestContext::new();
    for text in ["true", "YES", "on", "1"] {
        let err = create(&ctx, C_ONLY, Some(text), Some(&body()), DOC_ID).expect_err("refused");
        assert_only(
            &err,
            403,
            ErrorCode::PermissionDenied,
            &json!(["header", "authorization"]),
        );
    }
}

#[test]
fn create_without_send_needs_only_c() {
    // decisions.md §7: u is needed only for send_peppol
    let ctx = TestContext::new();
    for text in [None, Some("false"), Some("0"), Some("No")] {
        let c = create(&ctx, C_ONLY, text, Some(&body()), DOC_ID).expect("accepted");
        assert_eq!(c.document.peppol_status, PeppolStatus::NotSent);
        assert!(c.send_error.is_none());
    }
}

// ---------------------------------------------------------------------------------
// Create: sending on creation
// ---------------------------------------------------------------------------------

#[test]
fn create_not_peppol_type_with_send_peppol() {
    // decisions.md §7, §9: a proforma with send_peppol is not_peppol_type at ["query", "send_peppol"]
    let err = create(
        &TestContext::new(),
        ALL,
        Some("true"),
        Some(&with(body(), "type", json!("proforma_invoice"))),
        DOC_ID,
    )
    .expect_err("refused");
    assert_only(
        &err,
        422,
        ErrorCode::NotPeppolType,
        &json!(["query", "send_peppol"]),
    );
    // without the send the proforma is created
    created(&with(body(), "type", json!("proforma_invoice")));
}

#[test]
fn create_send_failed_creates_the_document() {
    // interface.md create 422 send_failed, decisions.md §7: the document exists and is
    // numbered, the error's ctx is {"document_id": ID}, peppol_status stays not_sent
    let ctx = TestContext::new();
    for rel in [NO_TERMS, CONTACT] {
        let c = create(
            &ctx,
            ALL,
            Some("true"),
            Some(&with(body(), "relation_id", json!(rel))),
            DOC_ID,
        )
        .expect("created");
        let err = c.send_error.expect("send_failed");
        assert_only(
            &err,
            422,
            ErrorCode::SendFailed,
            &json!(["query", "send_peppol"]),
        );
        assert_eq!(err.errors[0].ctx, Some(json!({"document_id": DOC_ID})));
        assert_eq!(c.document.id, DOC_ID);
        assert_eq!(c.document.document_number, "INV2026-0007");
        assert_eq!(c.number.sequence, SEQUENCE);
        assert_eq!(c.document.peppol_status, PeppolStatus::NotSent);
    }
}

#[test]
fn create_send_peppol_sets_sending() {
    // decisions.md §7: a started send sets peppol_status sending
    let c = create(
        &TestContext::new(),
        ALL,
        Some("true"),
        Some(&body()),
        DOC_ID,
    )
    .expect("created");
    assert!(c.send_error.is_none());
    assert_eq!(c.document.peppol_status, PeppolStatus::Sending);
    assert_eq!(c.document.to_json()["peppol_status"], json!("sending"));
}

#[test]
fn create_send_peppol_query_booleans_are_lax() {
    // decisions.md §8, §9: true/false/1/0/yes/no/on/off in any case
    let ctx = TestContext::new();
    for (text, status) in [
        ("yes", PeppolStatus::Sending),
        ("No", PeppolStatus::NotSent),
        ("ON", PeppolStatus::Sending),
        ("0", PeppolStatus::NotSent),
        ("1", PeppolStatus::Sending),
        ("TRUE", PeppolStatus::Sending),
        ("False", PeppolStatus::NotSent),
        ("oFF", PeppolStatus::NotSent),
    ] {
        let c = create(&ctx, ALL, Some(text), Some(&body()), DOC_ID).expect("created");
        assert_eq!(c.document.peppol_status, status, "{text}");
    }
}

// ---------------------------------------------------------------------------------
// Create: decisions.md §9 fine points
// ---------------------------------------------------------------------------------

#[test]
fn create_unresolved_relation_is_reported_beside_a_too_long_order_number() {
    // decisions.md §9: both layers are reported
    let b = with(
        with(body(), "relation_id", json!("rel-nope")),
        "order_number",
        chars('o', 256),
    );
    assert_set(
        &refused(&b),
        422,
        &[
            (ErrorCode::RelationNotFound, json!(["body", "relation_id"])),
            (ErrorCode::StringTooLong, json!(["body", "order_number"])),
        ],
    );
}

#[test]
fn create_location_of_another_relation_checked_only_when_both_resolve() {
    // decisions.md §9: a location of another relation is checked only when both ids resolve
    let b = with(
        with(body(), "relation_id", json!("rel-nope")),
        "delivery_location_id",
        json!(LOC_NO_TERMS),
    );
    refuse(
        &b,
        ErrorCode::RelationNotFound,
        &json!(["body", "relation_id"]),
    );
    let b = with(
        with(body(), "relation_id", json!(5)),
        "delivery_location_id",
        json!(LOC_NO_TERMS),
    );
    refuse(&b, ErrorCode::StringType, &json!(["body", "relation_id"]));
    refuse(
        &with(body(), "delivery_location_id", json!("loc-nope")),
        ErrorCode::DeliveryLocationNotFound,
        &json!(["body", "delivery_location_id"]),
    );
}

#[test]
fn create_paid_amount_checked_only_when_amounts_could_be_computed() {
    // decisions.md §9: paid_amount is checked against the total only when the amounts could be computed
    let b = with(
        with_line(body(), "quantity", json!("x")),
        "paid_amount",
        json!("1000"),
    );
    refuse(
        &b,
        ErrorCode::DecimalParsing,
        &json!(["body", "lines", 0, "quantity"]),
    );
    let b = with(
        with(body(), "currency", json!("ZZZ")),
        "paid_amount",
        json!("1000"),
    );
    refuse(
        &b,
        ErrorCode::CurrencyNotSupported,
        &json!(["body", "currency"]),
    );
    let big = json!({"quantity": "999999999", "unit_price": "999999999", "vat_rate": 21});
    let b = with(
        with(body(), "lines", json!([big])),
        "paid_amount",
        json!("1000"),
    );
    refuse(
        &b,
        ErrorCode::AmountOutOfRange,
        &json!(["body", "lines", 0]),
    );
    let b = with(
        with(body(), "allowance_charges", json!([{"type": "charge"}])),
        "paid_amount",
        json!("1000"),
    );
    refuse(
        &b,
        ErrorCode::AmountOrRate,
        &json!(["body", "allowance_charges", 0]),
    );
}

#[test]
fn create_null_on_an_optional_field_means_absent() {
    // decisions.md §9: on create, null on an optional field means absent (journal_id null → default)
    let mut b = body();
    for key in [
        "journal_id",
        "delivery_location_id",
        "issue_date",
        "payment_terms",
        "tax_point_date",
        "delivery_date",
        "period_start",
        "period_end",
        "order_number",
        "despatch_reference",
        "buyer_reference",
        "legal_notice",
        "currency",
        "paid_amount",
        "allowance_charges",
    ] {
        b = with(b, key, Value::Null);
    }
    assert_eq!(created(&b), stored());
}

#[test]
fn create_ignores_relation_type_attachments_and_due_date() {
    // interface.md create table, decisions.md §9: ignored whatever their value
    for v in [
        json!("contact"),
        json!(5),
        json!({"x": 1}),
        json!(null),
        json!("not a date"),
        json!([{"filename": "a.pdf"}]),
    ] {
        let b = with(
            with(
                with(body(), "relation_type", v.clone()),
                "attachments",
                v.clone(),
            ),
            "due_date",
            v,
        );
        let doc = created(&b);
        assert_eq!(doc, stored());
        assert_eq!(doc.to_json()["relation_type"], json!("company"));
        assert_eq!(doc.to_json()["attachments"], json!([]));
    }
    // the relation's real kind is answered
    let doc = created(&with(
        with(body(), "relation_id", json!(CONTACT)),
        "relation_type",
        json!("company"),
    ));
    assert_eq!(doc.relation_type, RelationKind::Contact);
    // a due date sent is not used
    let doc = created(&with(body(), "due_date", json!("2026-11-21")));
    assert_eq!(doc.due_date, d("2026-12-31"));
}

#[test]
fn create_legal_notice_defaults_on_a_sale_invoice_only() {
    // decisions.md §5: absent or null on a sale_invoice takes the company's text; "" stays ""
    assert_eq!(created(&body()).legal_notice.as_deref(), Some(LEGAL));
    assert_eq!(
        created(&with(body(), "legal_notice", Value::Null))
            .legal_notice
            .as_deref(),
        Some(LEGAL)
    );
    let doc = created(&with(body(), "legal_notice", json!("")));
    assert_eq!(doc.legal_notice.as_deref(), Some(""));
    assert_eq!(doc.to_json()["legal_notice"], json!(""));
    assert_eq!(
        created(&with(body(), "legal_notice", json!("Own text")))
            .legal_notice
            .as_deref(),
        Some("Own text")
    );
    // interface.md create table: the default is for a sale invoice; none on a credit note or proforma
    for t in ["sale_credit_note", "proforma_invoice"] {
        let doc = created(&with(body(), "type", json!(t)));
        assert_eq!(doc.legal_notice, None, "{t}");
        assert_eq!(doc.to_json()["legal_notice"], Value::Null);
    }
    let mut ctx = TestContext::new();
    ctx.company.self_billing = true;
    assert_eq!(
        created_in(&ctx, &with(body(), "type", json!("purchase_invoice"))).legal_notice,
        None
    );
    // a company without a text gives none
    ctx.company.legal_notice = None;
    assert_eq!(created_in(&ctx, &body()).legal_notice, None);
}

#[test]
fn create_payment_terms_default_from_the_relation_else_30_df() {
    // interface.md create table: defaults to the terms of the third party, else 30-df;
    // a contact never has terms
    assert_eq!(created(&body()).payment_terms.to_string(), "30-fm");
    let doc = created(&with(body(), "relation_id", json!(NO_TERMS)));
    assert_eq!(
        (doc.payment_terms.to_string(), doc.due_date),
        ("30-df".to_owned(), d("2026-12-21"))
    );
    let doc = created(&with(body(), "relation_id", json!(CONTACT)));
    assert_eq!(doc.payment_terms.to_string(), "30-df");
    // a contact record that carries terms all the same does not give them
    let mut ctx = TestContext::new();
    ctx.relations.push(relation(
        "rel-contact-terms",
        RelationKind::Contact,
        Some("60-mf"),
        false,
    ));
    let doc = created_in(
        &ctx,
        &with(body(), "relation_id", json!("rel-contact-terms")),
    );
    assert_eq!(doc.payment_terms.to_string(), "30-df");
    // terms sent win over the relation's
    let doc = created(&with(body(), "payment_terms", json!("15-df")));
    assert_eq!(
        (doc.payment_terms.to_string(), doc.due_date),
        ("15-df".to_owned(), d("2026-12-06"))
    );
}

// ---------------------------------------------------------------------------------
// Create: several errors in one answer
// ---------------------------------------------------------------------------------

/// A body with errors at many locations, both layers.
fn broken_body() -> Value {
    json!({
        "type": "sale_invoice",
        "relation_id": "rel-nope",
        "despatch_reference": "D".repeat(51),
        "payment_terms": "30-DF",
        "issue_date": "2026-11-22",
        "currency": "eur",
        "total_amount": 10,
        "foo": 1,
        "lines": [
            {"quantity": "abc", "unit_price": 1, "vat_rate": 21},
            {"quantity": 1, "unit_price": -1, "vat_code": "exempted", "vat_rate": 6, "subtotal": 1}
        ],
        "allowance_charges": [{"type": "discount", "amount": 1, "rate": 2}]
    })
}

/// The error body with its entries sorted by loc then code: the order of the list is
/// not part of the contract (decisions.md §8), every entry is.
fn sorted_body(err: &ApiError) -> Value {
    let mut detail = err.errors.clone();
    detail.sort_by_key(|e| (e.loc.to_json().to_string(), e.code));
    ApiError::check(detail).map_or_else(|e| e.body(), |()| Value::Null)
}

#[test]
fn create_reports_every_error_in_one_answer() {
    // decisions.md §8: validation collects every error it can find in one pass, each
    // with its full loc; §9: both layers
    let err = refused(&broken_body());
    assert_set(
        &err,
        422,
        &[
            (ErrorCode::RelationNotFound, json!(["body", "relation_id"])),
            (
                ErrorCode::StringTooLong,
                json!(["body", "despatch_reference"]),
            ),
            (
                ErrorCode::StringPatternMismatch,
                json!(["body", "payment_terms"]),
            ),
            (ErrorCode::DateInFuture, json!(["body", "issue_date"])),
            (ErrorCode::CurrencyNotSupported, json!(["body", "currency"])),
            (ErrorCode::DerivedField, json!(["body", "total_amount"])),
            (ErrorCode::ExtraForbidden, json!(["body", "foo"])),
            (
                ErrorCode::DecimalParsing,
                json!(["body", "lines", 0, "quantity"]),
            ),
            (
                ErrorCode::GreaterThanEqual,
                json!(["body", "lines", 1, "unit_price"]),
            ),
            (
                ErrorCode::VatRateNotAllowed,
                json!(["body", "lines", 1, "vat_rate"]),
            ),
            (
                ErrorCode::DerivedField,
                json!(["body", "lines", 1, "subtotal"]),
            ),
            (
                ErrorCode::Enum,
                json!(["body", "allowance_charges", 0, "type"]),
            ),
            (
                ErrorCode::AmountOrRate,
                json!(["body", "allowance_charges", 0]),
            ),
        ],
    );
    // serde_json's own printer: insta's JSON serializer does not know arbitrary-precision numbers
    let pretty = serde_json::to_string_pretty(&sorted_body(&err)).expect("printable");
    insta::assert_snapshot!("create_error_body", pretty);
}

#[test]
fn create_five_hundred_broken_lines_give_five_hundred_errors() {
    // decisions.md §8: every error in one pass
    let err = refused(&with(
        body(),
        "lines",
        many(
            500,
            &json!({"quantity": "x", "unit_price": 1, "vat_rate": 21}),
        ),
    ));
    assert_eq!(err.status, 422);
    assert_eq!(err.errors.len(), 500);
    for (i, (code, loc)) in found(&err).into_iter().enumerate() {
        assert_eq!(
            (code, loc),
            (
                ErrorCode::DecimalParsing,
                json!(["body", "lines", i, "quantity"])
            )
        );
    }
}

#[test]
fn create_error_body_is_a_detail_list() {
    // decisions.md §8: every error is {"detail": [...]}, whatever its status
    let err = refused(&json!({}));
    let body = err.body();
    assert_eq!(body["detail"].as_array().map(Vec::len), Some(3));
    for e in body["detail"].as_array().into_iter().flatten() {
        assert_eq!(e["type"], json!("missing"));
        assert!(e["msg"].is_string());
    }
}
