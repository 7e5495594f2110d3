//! Create: each field's rules (missing, JSON types, unknown and derived keys, closed
//! sets, lengths, ranges, patterns, VAT, allowances, ids, dates, currency, amounts).

use super::*;

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

// ---------------------------------------------------------------------------------
// Create: string lengths, in characters
// ---------------------------------------------------------------------------------

#[test]
fn create_string_too_long_order_number() {
    // interface.md Limits: order_number at most 255 characters
    assert_eq!(
        created(&with(body(), "order_number", chars('a', 255)))
            .order_number
            .map(|s| s.len()),
        Some(255)
    );
    refuse(
        &with(body(), "order_number", chars('a', 256)),
        ErrorCode::StringTooLong,
        &json!(["body", "order_number"]),
    );
}

#[test]
fn create_string_too_long_despatch_reference() {
    // interface.md Limits: despatch_reference at most 50 characters
    created(&with(body(), "despatch_reference", chars('d', 50)));
    refuse(
        &with(body(), "despatch_reference", chars('d', 51)),
        ErrorCode::StringTooLong,
        &json!(["body", "despatch_reference"]),
    );
}

#[test]
fn create_string_too_long_buyer_reference() {
    // interface.md Limits: buyer_reference at most 50 characters
    created(&with(body(), "buyer_reference", chars('b', 50)));
    refuse(
        &with(body(), "buyer_reference", chars('b', 51)),
        ErrorCode::StringTooLong,
        &json!(["body", "buyer_reference"]),
    );
}

#[test]
fn create_string_too_long_legal_notice() {
    // interface.md Limits: legal_notice at most 10000 characters
    created(&with(body(), "legal_notice", chars('l', 10_000)));
    refuse(
        &with(body(), "legal_notice", chars('l', 10_001)),
        ErrorCode::StringTooLong,
        &json!(["body", "legal_notice"]),
    );
}

#[test]
fn create_string_too_long_currency_alone() {
    // decisions.md §9: a currency over 20 characters gets string_too_long alone
    for n in [21, 24] {
        refuse(
            &with(body(), "currency", chars('E', n)),
            ErrorCode::StringTooLong,
            &json!(["body", "currency"]),
        );
    }
    // 20 characters is within the length: the code itself is not supported
    refuse(
        &with(body(), "currency", chars('E', 20)),
        ErrorCode::CurrencyNotSupported,
        &json!(["body", "currency"]),
    );
}

#[test]
fn create_string_too_long_allowance_reason_and_code() {
    // decisions.md §8: reason at most 255 characters, code at most 10
    let ac = |reason: Value, code: Value| json!([{"type": "charge", "amount": 1, "reason": reason, "code": code}]);
    created(&with(
        body(),
        "allowance_charges",
        ac(chars('r', 255), chars('c', 10)),
    ));
    created(&with_line(
        body(),
        "allowance_charges",
        ac(chars('r', 255), chars('c', 10)),
    ));
    refuse(
        &with(
            body(),
            "allowance_charges",
            ac(chars('r', 256), chars('c', 10)),
        ),
        ErrorCode::StringTooLong,
        &json!(["body", "allowance_charges", 0, "reason"]),
    );
    refuse(
        &with(
            body(),
            "allowance_charges",
            ac(chars('r', 255), chars('c', 11)),
        ),
        ErrorCode::StringTooLong,
        &json!(["body", "allowance_charges", 0, "code"]),
    );
    refuse(
        &with_line(
            body(),
            "allowance_charges",
            ac(chars('r', 256), chars('c', 10)),
        ),
        ErrorCode::StringTooLong,
        &json!(["body", "lines", 0, "allowance_charges", 0, "reason"]),
    );
    refuse(
        &with_line(
            body(),
            "allowance_charges",
            ac(chars('r', 255), chars('c', 11)),
        ),
        ErrorCode::StringTooLong,
        &json!(["body", "lines", 0, "allowance_charges", 0, "code"]),
    );
}

#[test]
fn create_string_length_counts_characters_not_bytes() {
    // decisions.md §8: string length in characters
    for c in ['é', '🧾', '€', '中'] {
        let doc = created(&with(body(), "order_number", chars(c, 255)));
        assert_eq!(doc.order_number.map(|s| s.chars().count()), Some(255));
        refuse(
            &with(body(), "order_number", chars(c, 256)),
            ErrorCode::StringTooLong,
            &json!(["body", "order_number"]),
        );
        created(&with(body(), "buyer_reference", chars(c, 50)));
        refuse(
            &with(body(), "buyer_reference", chars(c, 51)),
            ErrorCode::StringTooLong,
            &json!(["body", "buyer_reference"]),
        );
        created(&with(
            body(),
            "allowance_charges",
            json!([{"type": "charge", "amount": 1, "code": chars(c, 10)}]),
        ));
        refuse(
            &with(
                body(),
                "allowance_charges",
                json!([{"type": "charge", "amount": 1, "code": chars(c, 11)}]),
            ),
            ErrorCode::StringTooLong,
            &json!(["body", "allowance_charges", 0, "code"]),
        );
    }
}

// ---------------------------------------------------------------------------------
// Create: list lengths
// ---------------------------------------------------------------------------------

#[test]
fn create_lines_too_short() {
    // interface.md Errors §4: a lines list with fewer than 1 element
    refuse(
        &with(body(), "lines", json!([])),
        ErrorCode::TooShort,
        &json!(["body", "lines"]),
    );
}

#[test]
fn create_lines_one_and_five_hundred_pass() {
    // interface.md Limits: lines 1 to 500
    assert_eq!(
        created(&with(body(), "lines", many(1, &line())))
            .lines
            .len(),
        1
    );
    let doc = created(&with(body(), "lines", many(500, &line())));
    assert_eq!(doc.lines.len(), 500);
    assert_eq!(line_field(&doc, 499, "sequence"), "500");
    assert_eq!(field(&doc, "total_amount"), "60500.00");
}

#[test]
fn create_lines_too_long() {
    // interface.md Errors §4: a lines list with more than 500 elements
    refuse(
        &with(body(), "lines", many(501, &line())),
        ErrorCode::TooLong,
        &json!(["body", "lines"]),
    );
}

#[test]
fn create_allowance_charges_fifty_pass_fifty_one_too_long() {
    // interface.md Errors §4: an allowance_charges list with more than 50 elements, on the
    // document and (decisions.md §4) on a line
    let doc = created(&with(
        body(),
        "allowance_charges",
        many(50, &charge("0.01")),
    ));
    assert_eq!(doc.allowance_charges.len(), 50);
    assert_eq!(field(&doc, "tax_exclusive_amount"), "100.50");
    refuse(
        &with(body(), "allowance_charges", many(51, &charge("0.01"))),
        ErrorCode::TooLong,
        &json!(["body", "allowance_charges"]),
    );
    let doc = created(&with_line(
        body(),
        "allowance_charges",
        many(50, &charge("0.01")),
    ));
    assert_eq!(line_field(&doc, 0, "total"), "100.50");
    refuse(
        &with_line(body(), "allowance_charges", many(51, &charge("0.01"))),
        ErrorCode::TooLong,
        &json!(["body", "lines", 0, "allowance_charges"]),
    );
    // an empty list is valid
    assert!(created(&with(body(), "allowance_charges", json!([])))
        .allowance_charges
        .is_empty());
}

// ---------------------------------------------------------------------------------
// Create: number ranges and decimal places
// ---------------------------------------------------------------------------------

#[test]
fn create_quantity_range() {
    // decisions.md §4: |quantity| ≤ 999999999, negative allowed
    let loc = json!(["body", "lines", 0, "quantity"]);
    let two = |q: Value| {
        with(
            body(),
            "lines",
            json!([{"quantity": q, "unit_price": 1, "vat_rate": 21}, {"quantity": "999999999", "unit_price": 2, "vat_rate": 21}]),
        )
    };
    created(&two(json!("999999999")));
    created(&two(json!("-999999999")));
    created(&two(num("-999999999")));
    for q in [
        json!("1000000000"),
        num("999999999.000001"),
        num("1e30"),
        num("1e9"),
    ] {
        refuse(&two(q), ErrorCode::LessThanEqual, &loc);
    }
    for q in [json!("-1000000000"), num("-999999999.000001"), num("-1e30")] {
        refuse(&two(q), ErrorCode::GreaterThanEqual, &loc);
    }
}

#[test]
fn create_unit_price_range() {
    // decisions.md §4: 0 ≤ unit_price ≤ 999999999 (BR-27: not negative)
    let loc = json!(["body", "lines", 0, "unit_price"]);
    created(&with_line(body(), "unit_price", json!(0)));
    created(&with_line(
        with_line(body(), "unit_price", json!("999999999")),
        "quantity",
        json!(1),
    ));
    for p in [json!("-0.01"), json!(-1), num("-1e30")] {
        refuse(
            &with_line(body(), "unit_price", p),
            ErrorCode::GreaterThanEqual,
            &loc,
        );
    }
    refuse(
        &with_line(body(), "unit_price", json!("1000000000")),
        ErrorCode::LessThanEqual,
        &loc,
    );
}

#[test]
fn create_quantity_and_price_decimal_places() {
    // decisions.md §4: at most 6 decimals; §2: counted trailing zeros aside
    for key in ["quantity", "unit_price"] {
        created(&with_line(body(), key, json!("1.000001")));
        created(&with_line(body(), key, num("10.0000000")));
        created(&with_line(body(), key, json!("10.000000000000")));
        refuse(
            &with_line(body(), key, json!("1.0000001")),
            ErrorCode::DecimalMaxPlaces,
            &json!(["body", "lines", 0, key]),
        );
        refuse(
            &with_line(body(), key, num("0.00000001")),
            ErrorCode::DecimalMaxPlaces,
            &json!(["body", "lines", 0, key]),
        );
    }
    // "10.0000000" counts as 0 decimals and is echoed as sent
    let doc = created(&with_line(body(), "quantity", num("10.0000000")));
    assert_eq!(line_field(&doc, 0, "quantity"), "10.0000000");
    assert_eq!(line_field(&doc, 0, "subtotal"), "500.00");
}

#[test]
fn create_paid_amount_range() {
    // interface.md Limits: paid_amount 0 to 999999999
    let loc = json!(["body", "paid_amount"]);
    created(&with(body(), "paid_amount", json!(0)));
    refuse(
        &with(body(), "paid_amount", json!("-0.01")),
        ErrorCode::GreaterThanEqual,
        &loc,
    );
    refuse(
        &with(body(), "paid_amount", json!("1000000000")),
        ErrorCode::LessThanEqual,
        &loc,
    );
    refuse(
        &with(body(), "paid_amount", num("1e30")),
        ErrorCode::LessThanEqual,
        &loc,
    );
    // 999999999 is within the range; it is only above this document's total
    refuse(
        &with(body(), "paid_amount", json!("999999999")),
        ErrorCode::PaidAmountAboveTotal,
        &loc,
    );
}

#[test]
fn create_paid_amount_minor_unit_decimals() {
    // decisions.md §2: an input amount with more decimals than the minor unit is refused
    let loc = json!(["body", "paid_amount"]);
    refuse(
        &with(body(), "paid_amount", json!("0.001")),
        ErrorCode::DecimalMaxPlaces,
        &loc,
    );
    // trailing zeros aside
    assert_eq!(
        field(
            &created(&with(body(), "paid_amount", json!("0.010"))),
            "paid_amount"
        ),
        "0.01"
    );
    let jpy = with(body(), "currency", json!("JPY"));
    refuse(
        &with(jpy.clone(), "paid_amount", json!("0.5")),
        ErrorCode::DecimalMaxPlaces,
        &loc,
    );
    assert_eq!(
        field(
            &created(&with(jpy, "paid_amount", json!("1.000"))),
            "paid_amount"
        ),
        "1"
    );
    let kwd = with(body(), "currency", json!("KWD"));
    assert_eq!(
        field(
            &created(&with(kwd.clone(), "paid_amount", json!("0.001"))),
            "paid_amount"
        ),
        "0.001"
    );
    refuse(
        &with(kwd, "paid_amount", json!("0.0001")),
        ErrorCode::DecimalMaxPlaces,
        &loc,
    );
}

#[test]
fn create_allowance_amount_and_rate_ranges() {
    // decisions.md §3.2: amount > 0 with at most m decimals; 0 < rate ≤ 100, at most 4 decimals
    let at = |ac: Value| with(body(), "allowance_charges", json!([ac]));
    let loc = |k: &str| json!(["body", "allowance_charges", 0, k]);
    created(&at(json!({"type": "allowance", "rate": 100})));
    created(&at(json!({"type": "allowance", "rate": "0.0001"})));
    created(&at(json!({"type": "allowance", "amount": "0.01"})));
    refuse(
        &at(json!({"type": "allowance", "amount": 0})),
        ErrorCode::GreaterThan,
        &loc("amount"),
    );
    refuse(
        &at(json!({"type": "allowance", "amount": -1})),
        ErrorCode::GreaterThan,
        &loc("amount"),
    );
    refuse(
        &at(json!({"type": "allowance", "amount": "0.001"})),
        ErrorCode::DecimalMaxPlaces,
        &loc("amount"),
    );
    refuse(
        &at(json!({"type": "allowance", "rate": 0})),
        ErrorCode::GreaterThan,
        &loc("rate"),
    );
    refuse(
        &at(json!({"type": "allowance", "rate": "100.0001"})),
        ErrorCode::LessThanEqual,
        &loc("rate"),
    );
    refuse(
        &at(json!({"type": "allowance", "rate": "1.00001"})),
        ErrorCode::DecimalMaxPlaces,
        &loc("rate"),
    );
    let jpy = with(
        with(body(), "currency", json!("JPY")),
        "allowance_charges",
        json!([{"type": "charge", "amount": "0.5"}]),
    );
    refuse(&jpy, ErrorCode::DecimalMaxPlaces, &loc("amount"));
}

// ---------------------------------------------------------------------------------
// Create: payment terms pattern
// ---------------------------------------------------------------------------------

#[test]
fn create_string_pattern_mismatch_payment_terms() {
    // interface.md: ^\d{1,4}-(df|fm|mf)$; decisions.md §4b: ASCII digits, lower-case basis
    for t in [
        "30-DF",
        "10000-df",
        "٣٠-df",
        "３０-df",
        " 30-df",
        "30-df ",
        "30",
        "-df",
        "30-dm",
        "-1-df",
        "+3-df",
        "30_df",
        "",
    ] {
        refuse(
            &with(body(), "payment_terms", json!(t)),
            ErrorCode::StringPatternMismatch,
            &json!(["body", "payment_terms"]),
        );
    }
}

#[test]
fn create_payment_terms_in_pattern_pass_and_echo() {
    // interface.md: days 0 or more, 1 to 4 digits; decisions.md §2: echoed as sent
    for (t, due) in [
        ("0-df", "2026-11-21"),
        ("9999-df", "2054-04-07"),
        ("007-fm", "2026-12-08"),
        ("0-mf", "2026-11-30"),
    ] {
        let doc = created(&with(body(), "payment_terms", json!(t)));
        assert_eq!(doc.to_json()["payment_terms"], json!(t));
        assert_eq!(doc.due_date.to_string(), due, "{t}");
    }
}

// ---------------------------------------------------------------------------------
// Create: VAT codes and rates
// ---------------------------------------------------------------------------------

#[test]
fn create_vat_rate_required_on_standard() {
    // decisions.md §4: standard needs a rate (absent or null)
    let loc = json!(["body", "lines", 0, "vat_rate"]);
    refuse(
        &json!({"type": "sale_invoice", "relation_id": COMPANY, "lines": [{"quantity": 1, "unit_price": 1}]}),
        ErrorCode::VatRateRequired,
        &loc,
    );
    refuse(
        &with_line(body(), "vat_rate", Value::Null),
        ErrorCode::VatRateRequired,
        &loc,
    );
    refuse(
        &with_line(
            with_line(body(), "vat_code", json!("standard")),
            "vat_rate",
            Value::Null,
        ),
        ErrorCode::VatRateRequired,
        &loc,
    );
}

#[test]
fn create_standard_vat_rate_range() {
    // decisions.md §4: 0 < rate ≤ 100, at most 4 decimals; §9: standard 0 is greater_than
    let loc = json!(["body", "lines", 0, "vat_rate"]);
    refuse(
        &with_line(body(), "vat_rate", json!(0)),
        ErrorCode::GreaterThan,
        &loc,
    );
    refuse(
        &with_line(body(), "vat_rate", json!("0.00")),
        ErrorCode::GreaterThan,
        &loc,
    );
    refuse(
        &with_line(body(), "vat_rate", json!(-6)),
        ErrorCode::GreaterThan,
        &loc,
    );
    created(&with_line(body(), "vat_rate", json!(100)));
    created(&with_line(body(), "vat_rate", json!("5.5555")));
    refuse(
        &with_line(body(), "vat_rate", json!("100.0001")),
        ErrorCode::LessThanEqual,
        &loc,
    );
    refuse(
        &with_line(body(), "vat_rate", json!("21.00001")),
        ErrorCode::DecimalMaxPlaces,
        &loc,
    );
}

#[test]
fn create_vat_rate_not_allowed() {
    // decisions.md §4: exempt codes take rate 0; §9: not_subject takes no rate, 0 included
    let loc = json!(["body", "lines", 0, "vat_rate"]);
    for code in [
        "exempted",
        "zero_rated",
        "reverse_charge",
        "intra_community",
        "export",
    ] {
        refuse(
            &with_line(
                with_line(body(), "vat_code", json!(code)),
                "vat_rate",
                json!(6),
            ),
            ErrorCode::VatRateNotAllowed,
            &loc,
        );
        created(&with_line(
            with_line(body(), "vat_code", json!(code)),
            "vat_rate",
            json!(0),
        ));
    }
    for rate in [json!(0), json!("0.00"), json!(21)] {
        refuse(
            &with_line(
                with_line(body(), "vat_code", json!("not_subject")),
                "vat_rate",
                rate,
            ),
            ErrorCode::VatRateNotAllowed,
            &loc,
        );
    }
}

#[test]
fn create_vat_code_reserved() {
    // decisions.md §4: the reserved legacy codes are refused on input
    for code in ["transferred_vat", "canary_islands", "ceuta_melilla"] {
        refuse(
            &with_line(body(), "vat_code", json!(code)),
            ErrorCode::VatCodeReserved,
            &json!(["body", "lines", 0, "vat_code"]),
        );
    }
}

#[test]
fn create_exempt_line_without_rate_answers_zero_and_not_subject_null() {
    // decisions.md §9: a zero_rated or exempt line without a rate answers vat_rate 0;
    // a not_subject line and its group answer null
    for code in [
        "zero_rated",
        "exempted",
        "reverse_charge",
        "intra_community",
        "export",
    ] {
        let doc = created(&with(
            body(),
            "lines",
            json!([{"quantity": 1, "unit_price": 10, "vat_code": code}]),
        ));
        assert_eq!(line_field(&doc, 0, "vat_rate"), "0", "{code}");
        assert_eq!(
            doc.to_json()["vat_breakdown"][0]["vat_rate"].to_string(),
            "0",
            "{code}"
        );
        assert_eq!(field(&doc, "tax_amount"), "0.00");
    }
    let doc = created(&with(
        body(),
        "lines",
        json!([{"quantity": 1, "unit_price": 10, "vat_code": "not_subject"}]),
    ));
    assert_eq!(doc.to_json()["lines"][0]["vat_rate"], Value::Null);
    assert_eq!(doc.to_json()["vat_breakdown"][0]["vat_rate"], Value::Null);
    let doc = created(&with(
        body(),
        "lines",
        json!([{"quantity": 1, "unit_price": 10, "vat_code": "not_subject", "vat_rate": null}]),
    ));
    assert_eq!(doc.to_json()["lines"][0]["vat_rate"], Value::Null);
}

// ---------------------------------------------------------------------------------
// Create: allowance/charge shape
// ---------------------------------------------------------------------------------

#[test]
fn create_amount_or_rate_at_the_allowance_itself() {
    // decisions.md §3.2, §9: exactly one of amount and rate, at the allowance/charge's loc
    for ac in [
        json!({"type": "allowance"}),
        json!({"type": "allowance", "amount": 1, "rate": 2}),
        json!({"type": "charge", "amount": null, "rate": null}),
    ] {
        refuse(
            &with(
                body(),
                "allowance_charges",
                json!([charge("1"), ac.clone()]),
            ),
            ErrorCode::AmountOrRate,
            &json!(["body", "allowance_charges", 1]),
        );
        refuse(
            &with_line(body(), "allowance_charges", json!([ac])),
            ErrorCode::AmountOrRate,
            &json!(["body", "lines", 0, "allowance_charges", 0]),
        );
    }
}

// ---------------------------------------------------------------------------------
// Create: ids that must resolve, journals, delivery locations, self-billing
// ---------------------------------------------------------------------------------

#[test]
fn create_relation_not_found() {
    // decisions.md §8: an id in the body that does not resolve
    refuse(
        &with(body(), "relation_id", json!("rel-nope")),
        ErrorCode::RelationNotFound,
        &json!(["body", "relation_id"]),
    );
}

#[test]
fn create_journal_not_found() {
    // decisions.md §8: an id in the body that does not resolve
    refuse(
        &with(body(), "journal_id", json!("j-nope")),
        ErrorCode::JournalNotFound,
        &json!(["body", "journal_id"]),
    );
}

#[test]
fn create_delivery_location_not_found() {
    // decisions.md §8: an id in the body that does not resolve
    refuse(
        &with(body(), "delivery_location_id", json!("loc-nope")),
        ErrorCode::DeliveryLocationNotFound,
        &json!(["body", "delivery_location_id"]),
    );
}

#[test]
fn create_no_default_journal() {
    // decisions.md §8, §9: no journal given and no default for the category, at ["body", "journal_id"]
    let mut ctx = TestContext::new();
    ctx.defaults.remove(&JournalCategory::SalesInvoice);
    assert_only(
        &refused_in(&ctx, &body()),
        422,
        ErrorCode::NoDefaultJournal,
        &json!(["body", "journal_id"]),
    );
    // a journal given still works
    assert_eq!(
        created_in(&ctx, &with(body(), "journal_id", json!(J_SALES_NEVER))).journal_id,
        J_SALES_NEVER
    );
}

#[test]
fn create_journal_category_mismatch() {
    // interface.md Errors §4: a journal that does not match the type
    let mut ctx = TestContext::new();
    ctx.company.self_billing = true;
    for (t, j) in [
        ("sale_invoice", J_CREDIT),
        ("sale_credit_note", J_SALES),
        ("purchase_invoice", J_PURCHASE_CREDIT),
        ("purchase_credit_note", J_PURCHASE),
        ("proforma_invoice", J_SALES_NEVER),
        ("sale_invoice", J_PROFORMA),
    ] {
        let err = refused_in(
            &ctx,
            &with(with(body(), "type", json!(t)), "journal_id", json!(j)),
        );
        assert_only(
            &err,
            422,
            ErrorCode::JournalCategoryMismatch,
            &json!(["body", "journal_id"]),
        );
    }
    // a journal of the right category other than the default passes
    assert_eq!(
        created(&with(body(), "journal_id", json!(J_SALES_MONTHLY))).journal_id,
        J_SALES_MONTHLY
    );
}

#[test]
fn create_delivery_location_relation_mismatch() {
    // interface.md Errors §4: a delivery_location_id of another third party
    refuse(
        &with(body(), "delivery_location_id", json!(LOC_NO_TERMS)),
        ErrorCode::DeliveryLocationRelationMismatch,
        &json!(["body", "delivery_location_id"]),
    );
    let doc = created(&with(body(), "delivery_location_id", json!(LOC_COMPANY)));
    assert_eq!(doc.delivery_location_id.as_deref(), Some(LOC_COMPANY));
}

#[test]
fn create_self_billing_disabled() {
    // interface.md create rule 4, Errors §4: self-billing types without self-billing enabled
    for t in ["purchase_invoice", "purchase_credit_note"] {
        refuse(
            &with(body(), "type", json!(t)),
            ErrorCode::SelfBillingDisabled,
            &json!(["body", "type"]),
        );
    }
}

#[test]
fn create_self_billing_types_pass_with_self_billing() {
    // interface.md create rule 4
    let mut ctx = TestContext::new();
    ctx.company.self_billing = true;
    for t in ["purchase_invoice", "purchase_credit_note"] {
        assert_eq!(
            created_in(&ctx, &with(body(), "type", json!(t)))
                .doc_type
                .as_str(),
            t
        );
    }
}

// ---------------------------------------------------------------------------------
// Create: dates
// ---------------------------------------------------------------------------------

#[test]
fn create_date_in_future() {
    // interface.md Errors §4: a future issue_date or delivery_date
    for key in ["issue_date", "delivery_date"] {
        refuse(
            &with(body(), key, json!("2026-11-22")),
            ErrorCode::DateInFuture,
            &json!(["body", key]),
        );
        refuse(
            &with(body(), key, json!("2030-01-01")),
            ErrorCode::DateInFuture,
            &json!(["body", key]),
        );
    }
}

#[test]
fn create_today_is_not_in_the_future() {
    // interface.md Limits: issue_date not in the future, delivery_date today or earlier
    let doc = created(&with(
        with(body(), "issue_date", json!("2026-11-21")),
        "delivery_date",
        json!("2026-11-21"),
    ));
    assert_eq!(doc.issue_date, d("2026-11-21"));
    assert_eq!(doc.delivery_date, Some(d("2026-11-21")));
    // the other dates may be in the future
    let doc = created(&with(
        with(
            with(body(), "tax_point_date", json!("2027-01-01")),
            "period_start",
            json!("2027-01-01"),
        ),
        "period_end",
        json!("2027-01-31"),
    ));
    assert_eq!(doc.tax_point_date, Some(d("2027-01-01")));
}

#[test]
fn create_period_end_before_start() {
    // BR-29, decisions.md §5: at ["body", "period_end"]
    let b = with(
        with(body(), "period_start", json!("2026-11-02")),
        "period_end",
        json!("2026-11-01"),
    );
    refuse(
        &b,
        ErrorCode::PeriodEndBeforeStart,
        &json!(["body", "period_end"]),
    );
    // equal dates, and either bound alone, pass
    let doc = created(&with(
        with(body(), "period_start", json!("2026-11-01")),
        "period_end",
        json!("2026-11-01"),
    ));
    assert_eq!(
        (doc.period_start, doc.period_end),
        (Some(d("2026-11-01")), Some(d("2026-11-01")))
    );
    created(&with(body(), "period_start", json!("2026-11-02")));
    created(&with(body(), "period_end", json!("2026-11-01")));
}

// ---------------------------------------------------------------------------------
// Create: currency
// ---------------------------------------------------------------------------------

#[test]
fn create_currency_not_supported() {
    // decisions.md §2: active ISO 4217 codes, sent exactly; §9: codes without a minor unit are not supported
    for c in ["ZZZ", "eur", "Eur", "XAU", "XDR", "XXX", "EU", "", " EUR"] {
        refuse(
            &with(body(), "currency", json!(c)),
            ErrorCode::CurrencyNotSupported,
            &json!(["body", "currency"]),
        );
    }
    for c in ["EUR", "USD", "JPY", "KWD"] {
        assert_eq!(
            created(&with(body(), "currency", json!(c))).currency.code(),
            c
        );
    }
}

#[test]
fn create_currency_not_in_the_company_list() {
    // decisions.md §2: supported currencies are narrowed by the company's list
    let mut ctx = TestContext::new();
    ctx.company.currencies = Some(vec!["EUR".to_owned(), "USD".to_owned()]);
    assert_only(
        &refused_in(&ctx, &with(body(), "currency", json!("GBP"))),
        422,
        ErrorCode::CurrencyNotSupported,
        &json!(["body", "currency"]),
    );
    created_in(&ctx, &with(body(), "currency", json!("USD")));
    created_in(&ctx, &body());
}

#[test]
fn create_company_without_eur_must_send_a_currency() {
    // decisions.md §9: the company's list applies to the default too, at ["body", "currency"]
    let mut ctx = TestContext::new();
    ctx.company.currencies = Some(vec!["USD".to_owned()]);
    assert_only(
        &refused_in(&ctx, &body()),
        422,
        ErrorCode::CurrencyNotSupported,
        &json!(["body", "currency"]),
    );
    assert_only(
        &refused_in(&ctx, &with(body(), "currency", Value::Null)),
        422,
        ErrorCode::CurrencyNotSupported,
        &json!(["body", "currency"]),
    );
    assert_only(
        &refused_in(&ctx, &with(body(), "currency", json!("EUR"))),
        422,
        ErrorCode::CurrencyNotSupported,
        &json!(["body", "currency"]),
    );
    assert_eq!(
        created_in(&ctx, &with(body(), "currency", json!("USD")))
            .currency
            .code(),
        "USD"
    );
}

// ---------------------------------------------------------------------------------
// Create: amounts
// ---------------------------------------------------------------------------------

#[test]
fn create_paid_amount_above_total() {
    // interface.md Errors §4: paid_amount above the total
    refuse(
        &with(body(), "paid_amount", json!("121.01")),
        ErrorCode::PaidAmountAboveTotal,
        &json!(["body", "paid_amount"]),
    );
    // decisions.md §3.10: paid = total → paid; 0 < paid < total → partial
    assert_eq!(
        created(&with(body(), "paid_amount", json!("121.00"))).payment_status,
        PaymentStatus::Paid
    );
    assert_eq!(
        created(&with(body(), "paid_amount", json!("0.01"))).payment_status,
        PaymentStatus::Partial
    );
    let doc = created(&with(body(), "paid_amount", json!("21")));
    assert_eq!(field(&doc, "remaining_amount"), "100.00");
}

#[test]
fn create_negative_total() {
    // decisions.md §3.9, §9: a negative total is refused at ["body"]
    refuse(
        &with_line(body(), "quantity", json!(-1)),
        ErrorCode::NegativeTotal,
        &json!(["body"]),
    );
    // a credit note is no exception: its amounts are positive too
    refuse(
        &with(
            with_line(body(), "quantity", json!(-1)),
            "type",
            json!("sale_credit_note"),
        ),
        ErrorCode::NegativeTotal,
        &json!(["body"]),
    );
    // a negative line within a positive total passes
    created(&with(
        body(),
        "lines",
        json!([line(), {"quantity": -1, "unit_price": 10, "vat_rate": 21}]),
    ));
}

#[test]
fn create_vat_group_not_positive() {
    // decisions.md §3.6, §9: with a document allowance/charge every group base must be > 0,
    // at ["body", "allowance_charges"]
    let lines = json!([line(), {"quantity": -1, "unit_price": 10, "vat_rate": 6}]);
    let b = with(
        with(body(), "lines", lines.clone()),
        "allowance_charges",
        json!([charge("1")]),
    );
    refuse(
        &b,
        ErrorCode::VatGroupNotPositive,
        &json!(["body", "allowance_charges"]),
    );
    // without one, the same lines pass
    created(&with(body(), "lines", lines));
    // a zero group is not positive either
    let b = with(
        with(
            body(),
            "lines",
            json!([line(), {"quantity": 0, "unit_price": 10, "vat_rate": 6}]),
        ),
        "allowance_charges",
        json!([{"type": "allowance", "rate": 10}]),
    );
    refuse(
        &b,
        ErrorCode::VatGroupNotPositive,
        &json!(["body", "allowance_charges"]),
    );
}

#[test]
fn create_amount_out_of_range() {
    // decisions.md §2, §9: a computed amount reaching 10^15 is refused at the line,
    // the allowance/charge, or ["body"]
    let big = json!({"quantity": "999999999", "unit_price": "999999999", "vat_rate": 21});
    refuse(
        &with(body(), "lines", json!([big])),
        ErrorCode::AmountOutOfRange,
        &json!(["body", "lines", 0]),
    );
    refuse(
        &with(
            body(),
            "allowance_charges",
            json!([charge("1000000000000000")]),
        ),
        ErrorCode::AmountOutOfRange,
        &json!(["body", "allowance_charges", 0]),
    );
    refuse(
        &with_line(
            body(),
            "allowance_charges",
            json!([charge("1000000000000000")]),
        ),
        ErrorCode::AmountOutOfRange,
        &json!(["body", "lines", 0, "allowance_charges", 0]),
    );
    // two lines just under the bound sum over it: the document total is out of range
    let half = json!({"quantity": "999999999", "unit_price": "999999", "vat_rate": 21});
    let err = refused(&with(body(), "lines", json!([half.clone(), half])));
    assert_eq!(err.status, 422);
    assert!(!err.errors.is_empty());
    for (code, loc) in found(&err) {
        assert_eq!(
            (code, loc),
            (ErrorCode::AmountOutOfRange, json!(["body"])),
            "{err}"
        );
    }
}
