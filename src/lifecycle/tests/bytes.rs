//! Create and PATCH from bytes (one typed pass) answer as from a parsed value.

use super::*;

// ---------------------------------------------------------------------------------
// create from bytes: one typed pass, the same answers (issue 12)
// ---------------------------------------------------------------------------------

/// create_bytes and create over the parsed `Value` give the same answer.
fn same_from_bytes(ctx: &TestContext, send: Option<&str>, bytes: &[u8]) {
    let by_value = match serde_json::from_slice::<Value>(bytes) {
        Ok(v) => create(ctx, ALL, send, Some(&v), DOC_ID),
        Err(_) => return,
    };
    let by_bytes = crate::lifecycle::create_bytes(ctx, ALL, send, bytes, DOC_ID);
    assert_eq!(by_bytes, by_value, "{}", String::from_utf8_lossy(bytes));
}

#[test]
fn create_from_bytes_answers_as_create_from_a_value() {
    // issue 12: create reads the body bytes in one typed pass, with every error, its
    // location and all errors in one answer as the Value path gives them
    let ctx = TestContext::new();
    let bodies = [
        body(),
        full_body(),
        with(body(), "lines", json!([])),
        with(body(), "lines", json!(null)),
        with(body(), "lines", json!("x")),
        with(body(), "lines", json!([1, {"quantity": 1}])),
        with(body(), "id", json!("x")),
        with(body(), "colour", json!("x")),
        with_line(body(), "sequence", json!(1)),
        with_line(body(), "colour", json!(1)),
        with_line(body(), "quantity", json!(null)),
        with_line(body(), "quantity", json!("1e400")),
        with_line(body(), "vat_code", json!("exempted")),
        with_line(body(), "quantity", json!(" 2.5 ")),
        with_line(body(), "unit_price", json!(1.123_456_7)),
        with_line(body(), "vat_rate", json!("21.00001")),
        with_line(body(), "vat_rate", json!(100.0001)),
        with_line(body(), "item_name", json!("a \"quoted\" name\n")),
        with_line(body(), "unit_code", json!(5)),
        with_line(body(), "item_properties", json!({"a": 1, "b": "x"})),
        with_line(
            body(),
            "allowance_charges",
            json!([{"type": "x", "amount": 1, "rate": 2}]),
        ),
        with(body(), "paid_amount", json!("1000")),
        with(body(), "currency", json!("USD")),
        with(with(body(), "type", json!(null)), "relation_id", json!(5)),
        with(body(), "issue_date", json!("2026-11-22")),
        json!({}),
        json!([]),
        json!(null),
        json!("body"),
    ];
    for b in &bodies {
        let bytes = serde_json::to_vec(b).unwrap();
        same_from_bytes(&ctx, None, &bytes);
        same_from_bytes(&ctx, Some("maybe"), &bytes);
        same_from_bytes(&ctx, Some("true"), &bytes);
    }
    // a repeated key: the Value path keeps the last value, and so does create_bytes
    let repeated = br#"{"type": "sale_invoice", "relation_id": "x", "relation_id": "rel-company",
        "lines": [{"quantity": 1, "quantity": 2, "unit_price": 10, "vat_rate": 21}]}"#;
    same_from_bytes(&ctx, None, repeated);
    assert!(crate::validate::typed::TypedBody::from_slice(repeated).is_none());
    // escapes in a line's strings: read by the Value readers, as the Value path reads them
    let escaped = br#"{"type": "sale_invoice", "relation_id": "rel-company",
        "lines": [{"quantity": "\u0032", "unit_price": 10, "vat_code": "standar\u0064", "vat_rate": " 21 ", "item_name": "a\tb"}]}"#;
    same_from_bytes(&ctx, None, escaped);
    assert!(crate::lifecycle::create_bytes(&ctx, ALL, None, escaped, DOC_ID).is_ok());
    let twice = br#"{"type": "sale_invoice", "relation_id": "rel-company", "lines": [], "lines": [{"quantity": 1, "unit_price": 10, "vat_rate": 21}]}"#;
    same_from_bytes(&ctx, None, twice);
    // the typed pass is taken for a body it can read
    let plain = serde_json::to_vec(&full_body()).unwrap();
    assert!(crate::validate::typed::TypedBody::from_slice(&plain).is_some());
}

#[test]
fn create_from_bytes_that_are_not_json_answers_json_invalid() {
    // simulator.md, decisions.md §8: json_invalid at ["body"] with the text sent; the
    // permissions are checked first, the query's errors kept beside it
    let ctx = TestContext::new();
    let bytes = b"{\"type\": ";
    let err = crate::lifecycle::create_bytes(&ctx, ALL, Some("maybe"), bytes, DOC_ID).unwrap_err();
    assert_set(
        &err,
        422,
        &[
            (ErrorCode::BoolParsing, json!(["query", "send_peppol"])),
            (ErrorCode::JsonInvalid, json!(["body"])),
        ],
    );
    let invalid = err
        .errors
        .iter()
        .find(|e| e.code == ErrorCode::JsonInvalid)
        .unwrap();
    assert_eq!(invalid.input, Some(json!("{\"type\": ")));
    let none = Permissions {
        create: false,
        update: false,
    };
    let err = crate::lifecycle::create_bytes(&ctx, none, None, bytes, DOC_ID).unwrap_err();
    assert_eq!(err.status, 403);
    // empty bytes are no body
    let err = crate::lifecycle::create_bytes(&ctx, ALL, None, b"", DOC_ID).unwrap_err();
    assert_only(&err, 422, ErrorCode::Missing, &json!(["body"]));
}

proptest! {
    /// Invariant: for any body built from the create keys and line keys with values of
    /// any JSON shape, create_bytes answers exactly what create over the Value answers.
    #[test]
    fn create_bytes_equals_create_over_a_value(
        top in proptest::collection::vec((0usize..24, 0usize..24), 0..8),
        line_edits in proptest::collection::vec((0usize..3, 0usize..14, 0usize..24), 0..8),
    ) {
        // line values are read from their text in the typed pass: numbers and strings
        // of every form a reader takes from the text or hands to the Value readers
        let pool = [
            json!(null), json!(1), json!("2"), json!(-3.5), json!("x"), json!(true),
            json!([]), json!({}), json!("2026-11-01"), json!("30-df"), json!("EUR"),
            json!([{"type": "allowance", "amount": "1"}]),
            json!(" 7.50 "), json!("a\"b"), json!("tab\t"), json!(1.123_456_7),
            json!(101), json!(0), json!("standard"), json!("zero_rated"), json!("é"),
            json!("1e2"), json!(12.500_000_0), json!("-0.00"),
        ];
        let top_keys = [
            "type", "relation_id", "lines", "relation_type", "attachments", "journal_id",
            "delivery_location_id", "issue_date", "due_date", "payment_terms",
            "tax_point_date", "delivery_date", "period_start", "period_end", "order_number",
            "despatch_reference", "buyer_reference", "legal_notice", "currency",
            "paid_amount", "allowance_charges", "id", "colour", "total_amount",
        ];
        let line_keys = [
            "quantity", "unit_price", "vat_code", "vat_rate", "item_name",
            "item_description", "unit_code", "section_name", "item_properties",
            "item_identification", "product_code", "allowance_charges", "sequence", "colour",
        ];
        let mut b = json!({"type": "sale_invoice", "relation_id": COMPANY,
            "lines": [line(), line(), line()]});
        for (k, v) in top {
            b[top_keys[k]] = pool[v].clone();
        }
        if b["lines"].is_array() && b["lines"].as_array().is_some_and(|l| l.len() == 3) {
            for (i, k, v) in line_edits {
                if b["lines"][i].is_object() {
                    b["lines"][i][line_keys[k]] = pool[v].clone();
                }
            }
        }
        let bytes = serde_json::to_vec(&b).unwrap();
        let ctx = TestContext::new();
        let by_value = create(&ctx, ALL, None, Some(&b), DOC_ID);
        let by_bytes = crate::lifecycle::create_bytes(&ctx, ALL, None, &bytes, DOC_ID);
        prop_assert_eq!(by_bytes, by_value, "{}", b);
    }
}

#[test]
fn patch_from_bytes_answers_as_patch_from_a_value() {
    // issue 12: PATCH reads the body bytes in one typed pass, with the Value path's
    // errors, locations and all-errors-in-one-answer
    let ctx = TestContext::new();
    let bodies = [
        json!({}),
        json!({"paid_amount": "10"}),
        json!({"type": "sale_invoice", "journal_id": J_SALES}),
        json!({"type": "sale_credit_note", "journal_id": 5}),
        json!({"relation_id": null, "lines": null, "currency": null, "issue_date": null}),
        json!({"lines": [line(), line()], "allowance_charges": null}),
        json!({"lines": [], "order_number": 5}),
        json!({"lines": [{"quantity": 1}], "currency": "USD"}),
        json!({"relation_id": NO_TERMS, "delivery_location_id": LOC_COMPANY}),
        json!({"total_amount": 1, "colour": 2}),
        json!({"issue_date": "2025-01-01", "payment_terms": "9999-df"}),
        json!([]),
        json!(null),
    ];
    for stored in stored_variants() {
        for b in &bodies {
            let bytes = serde_json::to_vec(b).unwrap();
            assert_eq!(
                crate::lifecycle::patch_bytes(&ctx, ALL, &stored, &bytes),
                patch(&ctx, ALL, &stored, Some(b)),
                "{b}"
            );
        }
        let err = crate::lifecycle::patch_bytes(&ctx, ALL, &stored, b"{").unwrap_err();
        assert_only(&err, 422, ErrorCode::JsonInvalid, &json!(["body"]));
        assert_eq!(
            crate::lifecycle::patch_bytes(&ctx, ALL, &stored, b""),
            patch(&ctx, ALL, &stored, None)
        );
    }
    let none = Permissions {
        create: false,
        update: false,
    };
    let err = crate::lifecycle::patch_bytes(&ctx, none, &stored(), b"{").unwrap_err();
    assert_eq!(err.status, 403);
}
