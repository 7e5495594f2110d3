//! Create: a valid request, its permissions, the fields missing, their JSON types, unknown and derived keys and closed sets.

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
// Create: missing
// ---------------------------------------------------------------------------------

#[test]
fn create_missing_type() {
    // interface.md create table: type is required; decisions.md §8 missing
    refuse(
        &without(body(), "type"),
        ErrorCode::Missing,
        &json!(["body", "type"]),
    );
    refuse(
        &with(body(), "type", Value::Null),
        ErrorCode::Missing,
        &json!(["body", "type"]),
    );
}

#[test]
fn create_missing_relation_id() {
    // interface.md create table: relation_id is required
    refuse(
        &without(body(), "relation_id"),
        ErrorCode::Missing,
        &json!(["body", "relation_id"]),
    );
    refuse(
        &with(body(), "relation_id", Value::Null),
        ErrorCode::Missing,
        &json!(["body", "relation_id"]),
    );
}

#[test]
fn create_missing_lines() {
    // interface.md create table: lines is required
    refuse(
        &without(body(), "lines"),
        ErrorCode::Missing,
        &json!(["body", "lines"]),
    );
    refuse(
        &with(body(), "lines", Value::Null),
        ErrorCode::Missing,
        &json!(["body", "lines"]),
    );
}

#[test]
fn create_missing_line_fields() {
    // decisions.md §4: quantity and unit_price are required on a line
    refuse(
        &with(body(), "lines", json!([{"unit_price": 1, "vat_rate": 21}])),
        ErrorCode::Missing,
        &json!(["body", "lines", 0, "quantity"]),
    );
    refuse(
        &with(body(), "lines", json!([{"quantity": 1, "vat_rate": 21}])),
        ErrorCode::Missing,
        &json!(["body", "lines", 0, "unit_price"]),
    );
    refuse(
        &with(body(), "allowance_charges", json!([{"amount": 1}])),
        ErrorCode::Missing,
        &json!(["body", "allowance_charges", 0, "type"]),
    );
}

#[test]
fn create_empty_object_misses_every_required_field() {
    // decisions.md §8: every error in one pass
    assert_set(
        &refused(&json!({})),
        422,
        &[
            (ErrorCode::Missing, json!(["body", "type"])),
            (ErrorCode::Missing, json!(["body", "relation_id"])),
            (ErrorCode::Missing, json!(["body", "lines"])),
        ],
    );
}

#[test]
fn create_missing_or_null_body_is_missing_at_body() {
    // decisions.md §9: a missing or null body is missing at ["body"]
    let ctx = TestContext::new();
    for b in [None, Some(&Value::Null)] {
        let err = create(&ctx, ALL, None, b, DOC_ID).expect_err("refused");
        assert_only(&err, 422, ErrorCode::Missing, &json!(["body"]));
    }
}

#[test]
fn create_body_not_an_object_is_dict_type_at_body() {
    // decisions.md §9: a body that is not an object is dict_type at ["body"]
    for b in [
        json!([]),
        json!([body()]),
        json!("sale_invoice"),
        json!(5),
        json!(true),
    ] {
        refuse(&b, ErrorCode::DictType, &json!(["body"]));
    }
}

// ---------------------------------------------------------------------------------
// Create: JSON types
// ---------------------------------------------------------------------------------

#[test]
fn create_string_type() {
    // decisions.md §8: a value of the wrong JSON type
    for key in [
        "relation_id",
        "journal_id",
        "delivery_location_id",
        "order_number",
        "despatch_reference",
        "buyer_reference",
        "legal_notice",
        "currency",
        "payment_terms",
        "type",
    ] {
        refuse(
            &with(body(), key, json!(5)),
            ErrorCode::StringType,
            &json!(["body", key]),
        );
    }
    for key in [
        "item_name",
        "item_description",
        "unit_code",
        "section_name",
        "item_identification",
        "product_code",
        "vat_code",
    ] {
        refuse(
            &with_line(body(), key, json!(true)),
            ErrorCode::StringType,
            &json!(["body", "lines", 0, key]),
        );
    }
    refuse(
        &with_line(
            body(),
            "item_properties",
            json!({"colour": "red", "size": 5}),
        ),
        ErrorCode::StringType,
        &json!(["body", "lines", 0, "item_properties", "size"]),
    );
    refuse(
        &with(
            body(),
            "allowance_charges",
            json!([{"type": "charge", "amount": 1, "reason": 5}]),
        ),
        ErrorCode::StringType,
        &json!(["body", "allowance_charges", 0, "reason"]),
    );
}

#[test]
fn create_list_type() {
    // decisions.md §8: lines and allowance_charges are lists
    for v in [json!("abc"), json!({}), json!(5)] {
        refuse(
            &with(body(), "lines", v.clone()),
            ErrorCode::ListType,
            &json!(["body", "lines"]),
        );
        refuse(
            &with(body(), "allowance_charges", v.clone()),
            ErrorCode::ListType,
            &json!(["body", "allowance_charges"]),
        );
        refuse(
            &with_line(body(), "allowance_charges", v),
            ErrorCode::ListType,
            &json!(["body", "lines", 0, "allowance_charges"]),
        );
    }
}

#[test]
fn create_dict_type_on_a_line() {
    // decisions.md §8: a line, an allowance/charge and item_properties are objects
    for v in [json!(5), json!("line"), json!([line()])] {
        refuse(
            &with(body(), "lines", json!([v.clone()])),
            ErrorCode::DictType,
            &json!(["body", "lines", 0]),
        );
        refuse(
            &with(body(), "allowance_charges", json!([v.clone()])),
            ErrorCode::DictType,
            &json!(["body", "allowance_charges", 0]),
        );
        refuse(
            &with_line(body(), "item_properties", v),
            ErrorCode::DictType,
            &json!(["body", "lines", 0, "item_properties"]),
        );
    }
}

#[test]
fn create_decimal_parsing() {
    // decisions.md §8: a number is a JSON number or a decimal string
    for v in [
        json!("abc"),
        json!("1,5"),
        json!(true),
        json!([1]),
        json!({}),
        json!("NaN"),
        json!(""),
    ] {
        refuse(
            &with_line(body(), "quantity", v.clone()),
            ErrorCode::DecimalParsing,
            &json!(["body", "lines", 0, "quantity"]),
        );
        refuse(
            &with_line(body(), "unit_price", v.clone()),
            ErrorCode::DecimalParsing,
            &json!(["body", "lines", 0, "unit_price"]),
        );
        refuse(
            &with_line(body(), "vat_rate", v.clone()),
            ErrorCode::DecimalParsing,
            &json!(["body", "lines", 0, "vat_rate"]),
        );
        refuse(
            &with(body(), "paid_amount", v.clone()),
            ErrorCode::DecimalParsing,
            &json!(["body", "paid_amount"]),
        );
        refuse(
            &with(
                body(),
                "allowance_charges",
                json!([{"type": "allowance", "amount": v}]),
            ),
            ErrorCode::DecimalParsing,
            &json!(["body", "allowance_charges", 0, "amount"]),
        );
    }
}

#[test]
fn create_date_parsing() {
    // decisions.md §8: dates are YYYY-MM-DD
    for key in [
        "issue_date",
        "tax_point_date",
        "delivery_date",
        "period_start",
        "period_end",
    ] {
        for v in [
            json!("2026-13-01"),
            json!("2026-02-30"),
            json!("21/11/2026"),
            json!("2026-1-5"),
            json!("2026-11-21T00:00:00"),
            json!(20_261_121),
            json!(true),
        ] {
            refuse(
                &with(body(), key, v),
                ErrorCode::DateParsing,
                &json!(["body", key]),
            );
        }
    }
}

#[test]
fn create_bool_parsing_on_send_peppol() {
    // decisions.md §9: query booleans are lax; anything else is bool_parsing at ["query", "send_peppol"]
    let ctx = TestContext::new();
    for text in ["maybe", "", "2", "tru", "y", "null"] {
        let err = create(&ctx, ALL, Some(text), Some(&body()), DOC_ID).expect_err("refused");
        assert_only(
            &err,
            422,
            ErrorCode::BoolParsing,
            &json!(["query", "send_peppol"]),
        );
    }
}

/// How a lax boolean text reads: Some(true), Some(false), or None for `bool_parsing`.
fn query_reads(text: &str) -> Option<bool> {
    match create(&TestContext::new(), ALL, Some(text), Some(&body()), DOC_ID) {
        Ok(c) => Some(c.document.peppol_status == PeppolStatus::Sending),
        Err(e) => {
            assert_only(
                &e,
                422,
                ErrorCode::BoolParsing,
                &json!(["query", "send_peppol"]),
            );
            None
        }
    }
}

fn body_reads(text: &str) -> Option<bool> {
    match try_send(&stored(), Some(&json!({ "peppol": text }))) {
        Ok(doc) => Some(doc.peppol_status == PeppolStatus::Sending),
        Err(e) if e.has(ErrorCode::NoChannel) => Some(false),
        Err(e) => {
            assert_only(&e, 422, ErrorCode::BoolParsing, &json!(["body", "peppol"]));
            None
        }
    }
}

#[test]

fn booleans_in_bodies_and_queries_are_lax_alike() {
    // decisions.md §9: booleans in bodies and queries are lax alike: true/false, 1/0, yes/no,
    // on/off in any case; anything else is bool_parsing
    for text in [
        "true", "FALSE", "1", "0", "Yes", "no", "ON", "off", "maybe", "", " true", "yes ", "\ton",
    ] {
        assert_eq!(query_reads(text), body_reads(text), "{text:?}");
    }
    for text in [" true", "yes ", "\ton", " 0"] {
        assert_eq!(query_reads(text), None, "{text:?}");
    }
}

#[test]
fn create_bool_parsing_is_reported_beside_body_errors() {
    // decisions.md §8: every error in one pass, the query included
    let err = create(&TestContext::new(), ALL, Some("maybe"), None, DOC_ID).expect_err("refused");
    assert_set(
        &err,
        422,
        &[
            (ErrorCode::BoolParsing, json!(["query", "send_peppol"])),
            (ErrorCode::Missing, json!(["body"])),
        ],
    );
}

// ---------------------------------------------------------------------------------
// Create: unknown and derived keys
// ---------------------------------------------------------------------------------

#[test]
fn create_extra_forbidden() {
    // decisions.md §5: any unknown key is extra_forbidden
    for key in [
        "foo",
        "send_mail",
        "send_peppol",
        "Type",
        "number",
        "lines ",
    ] {
        refuse(
            &with(body(), key, json!(1)),
            ErrorCode::ExtraForbidden,
            &json!(["body", key]),
        );
    }
    refuse(
        &with_line(body(), "discount", json!(1)),
        ErrorCode::ExtraForbidden,
        &json!(["body", "lines", 0, "discount"]),
    );
    refuse(
        &with(
            body(),
            "allowance_charges",
            json!([{"type": "charge", "amount": 1, "percent": 2}]),
        ),
        ErrorCode::ExtraForbidden,
        &json!(["body", "allowance_charges", 0, "percent"]),
    );
}

#[test]
fn create_derived_field_on_the_document() {
    // decisions.md §5, interface.md create rule 1: a derived Document field is derived_field
    for key in [
        "id",
        "origin",
        "document_number",
        "payment_remittance",
        "is_remittance_structured",
        "create_date",
        "tax_exclusive_amount",
        "tax_amount",
        "total_amount",
        "remaining_amount",
        "payment_status",
        "accounting_status",
        "peppol_status",
        "mail_status",
        "pdf_available",
        "xml_available",
        "vat_breakdown",
    ] {
        refuse(
            &with(body(), key, json!(1)),
            ErrorCode::DerivedField,
            &json!(["body", key]),
        );
    }
}

#[test]
fn create_derived_field_on_a_line() {
    // decisions.md §4: sequence, subtotal, total and tax_amount of a line are derived
    for key in ["sequence", "subtotal", "total", "tax_amount"] {
        refuse(
            &with_line(body(), key, json!(1)),
            ErrorCode::DerivedField,
            &json!(["body", "lines", 0, key]),
        );
    }
}

#[test]
fn create_a_read_document_posted_back_is_refused_only_for_its_derived_fields() {
    // interface.md create table: attachments, relation_type and due_date are accepted so a
    // read document can be posted back; decisions.md §5: its derived fields are refused
    let read = stored().to_json();
    let mut expected: Vec<(ErrorCode, Value)> = [
        "id",
        "origin",
        "document_number",
        "payment_remittance",
        "is_remittance_structured",
        "create_date",
        "tax_exclusive_amount",
        "tax_amount",
        "total_amount",
        "remaining_amount",
        "payment_status",
        "accounting_status",
        "pdf_available",
        "xml_available",
        "peppol_status",
        "mail_status",
        "vat_breakdown",
    ]
    .iter()
    .map(|k| (ErrorCode::DerivedField, json!(["body", k])))
    .collect();
    for k in ["sequence", "subtotal", "total", "tax_amount"] {
        expected.push((ErrorCode::DerivedField, json!(["body", "lines", 0, k])));
    }
    assert_set(&refused(&read), 422, &expected);
}

// ---------------------------------------------------------------------------------
// Create: closed sets
// ---------------------------------------------------------------------------------

#[test]
fn create_enum_type() {
    // interface.md create table: type is one of five values
    for t in ["invoice", "Sale_Invoice", "other_document", "unknown", ""] {
        refuse(
            &with(body(), "type", json!(t)),
            ErrorCode::Enum,
            &json!(["body", "type"]),
        );
    }
}

#[test]
fn create_enum_vat_code() {
    // decisions.md §4: vat_code is one of seven values
    for c in ["standardd", "Standard", "exempt", ""] {
        refuse(
            &with_line(body(), "vat_code", json!(c)),
            ErrorCode::Enum,
            &json!(["body", "lines", 0, "vat_code"]),
        );
    }
}

#[test]
fn create_enum_allowance_type() {
    // decisions.md §8: an allowance/charge type is allowance or charge
    for t in ["discount", "Allowance", "surcharge"] {
        refuse(
            &with(
                body(),
                "allowance_charges",
                json!([{"type": t, "amount": 1}]),
            ),
            ErrorCode::Enum,
            &json!(["body", "allowance_charges", 0, "type"]),
        );
        refuse(
            &with_line(body(), "allowance_charges", json!([{"type": t, "rate": 1}])),
            ErrorCode::Enum,
            &json!(["body", "lines", 0, "allowance_charges", 0, "type"]),
        );
    }
}
