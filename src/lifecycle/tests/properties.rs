//! Properties over generated bodies: a value of the wrong shape gets its one error,
//! any JSON is answered without a panic.

use super::*;

/// A valid create body that sends every optional field the interface lists.
fn rich_body() -> Value {
    json!({
        "type": "sale_invoice",
        "relation_id": COMPANY,
        "journal_id": J_SALES,
        "delivery_location_id": LOC_COMPANY,
        "issue_date": "2026-11-02",
        "payment_terms": "30-df",
        "tax_point_date": "2026-11-02",
        "delivery_date": "2026-11-01",
        "period_start": "2026-10-01",
        "period_end": "2026-10-31",
        "order_number": "PO-1",
        "despatch_reference": "DESADV-1",
        "buyer_reference": "CC-1",
        "legal_notice": "Terms apply.",
        "currency": "EUR",
        "paid_amount": "10.00",
        "lines": [
            {"item_name": "A", "quantity": 2, "unit_price": "50.00", "vat_rate": 21,
             "allowance_charges": [{"type": "allowance", "rate": 10, "reason": "promo"}]},
            {"item_name": "B", "quantity": 1, "unit_price": 20, "vat_code": "exempted"}
        ],
        "allowance_charges": [{"type": "charge", "amount": "5.00", "reason": "shipping", "code": "FC"}]
    })
}

/// Sets the value at `path` (keys and indexes) inside `v`.
fn set_at(v: &mut Value, path: &[Value], value: Value) {
    let mut slot = v;
    for step in path {
        slot = match step {
            Value::String(k) => &mut slot[k.as_str()],
            Value::Number(n) => &mut slot[n.as_str().parse::<usize>().unwrap_or(0)],
            _ => return,
        };
    }
    *slot = value;
}

/// Values out of their field's range or shape, each with the one error it must get
/// (the path's keys joined by dots, indexes as numbers).
fn out_of_range() -> Vec<(Vec<Value>, Value, ErrorCode)> {
    let path = |p: &str| -> Vec<Value> {
        p.split('.')
            .map(|k| k.parse::<u64>().map_or_else(|_| json!(k), |i| json!(i)))
            .collect()
    };
    [
        ("paid_amount", json!("-0.01"), ErrorCode::GreaterThanEqual),
        ("paid_amount", json!("1000000000"), ErrorCode::LessThanEqual),
        ("paid_amount", json!("0.001"), ErrorCode::DecimalMaxPlaces),
        ("paid_amount", json!("ten"), ErrorCode::DecimalParsing),
        ("lines.0.quantity", json!("1e10"), ErrorCode::LessThanEqual),
        (
            "lines.0.quantity",
            json!("-1e10"),
            ErrorCode::GreaterThanEqual,
        ),
        (
            "lines.0.quantity",
            json!("0.0000001"),
            ErrorCode::DecimalMaxPlaces,
        ),
        (
            "lines.0.unit_price",
            json!("-1"),
            ErrorCode::GreaterThanEqual,
        ),
        ("lines.0.vat_rate", json!("100.5"), ErrorCode::LessThanEqual),
        ("lines.0.vat_rate", json!("0"), ErrorCode::GreaterThan),
        (
            "lines.0.allowance_charges.0.rate",
            json!("101"),
            ErrorCode::LessThanEqual,
        ),
        (
            "allowance_charges.0.amount",
            json!("0"),
            ErrorCode::GreaterThan,
        ),
        (
            "payment_terms",
            json!("30-DF"),
            ErrorCode::StringPatternMismatch,
        ),
        (
            "payment_terms",
            json!("10000-df"),
            ErrorCode::StringPatternMismatch,
        ),
        ("type", json!("invoice"), ErrorCode::Enum),
        ("lines.1.vat_code", json!("vat_free"), ErrorCode::Enum),
        ("lines", json!({}), ErrorCode::ListType),
        ("lines", json!([]), ErrorCode::TooShort),
        ("allowance_charges", json!("none"), ErrorCode::ListType),
        ("lines.0", json!(7), ErrorCode::DictType),
    ]
    .into_iter()
    .map(|(p, v, code)| (path(p), v, code))
    .collect()
}

/// A field of the rich body, a value of the wrong shape for it, and the one error
/// that value must get.
fn wrong_shape() -> impl Strategy<Value = (Vec<Value>, Value, ErrorCode)> {
    let limited = prop_oneof![
        Just(("order_number", 255usize)),
        Just(("despatch_reference", 50)),
        Just(("buyer_reference", 50)),
        Just(("legal_notice", 10_000)),
        Just(("currency", 20)),
    ];
    let too_long = (
        limited,
        1usize..40,
        proptest::sample::select(vec!['x', 'é', '€', '中', '🧾']),
    )
        .prop_map(|((key, max), extra, c)| {
            (
                vec![json!(key)],
                chars(c, max + extra),
                ErrorCode::StringTooLong,
            )
        });
    let not_a_string = (
        proptest::sample::select(vec![
            vec![json!("order_number")],
            vec![json!("relation_id")],
            vec![json!("payment_terms")],
            vec![json!("currency")],
            vec![json!("lines"), json!(0), json!("item_name")],
            vec![json!("allowance_charges"), json!(0), json!("reason")],
            vec![json!("type")],
        ]),
        proptest::sample::select(vec![json!(5), json!(true), json!([1]), json!({"a": 1})]),
    )
        .prop_map(|(path, v)| (path, v, ErrorCode::StringType));
    let not_a_date = (
        proptest::sample::select(vec![
            "issue_date",
            "tax_point_date",
            "delivery_date",
            "period_start",
            "period_end",
        ]),
        proptest::sample::select(vec![
            json!("2026-13-01"),
            json!("2026-02-30"),
            json!("21/11/2026"),
            json!(20_261_101),
            json!("2026-1-1"),
        ]),
    )
        .prop_map(|(key, v)| (vec![json!(key)], v, ErrorCode::DateParsing));
    let out_of_range = proptest::sample::select(out_of_range());
    prop_oneof![too_long, not_a_string, not_a_date, out_of_range]
}

/// Any JSON value, nested a few levels.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        "[-+0-9.eE]{1,12}".prop_map(|s| s
            .parse::<serde_json::Number>()
            .map_or(Value::String(s), Value::Number)),
        ".{0,12}".prop_map(Value::String),
        proptest::sample::select(vec![
            "sale_invoice",
            COMPANY,
            "21",
            "30-df",
            "2026-11-21",
            "allowance",
            "EUR"
        ])
        .prop_map(|s| Value::String(s.to_owned())),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::vec(
                (
                    proptest::sample::select(vec![
                        "type",
                        "relation_id",
                        "lines",
                        "quantity",
                        "unit_price",
                        "vat_rate",
                        "vat_code",
                        "allowance_charges",
                        "amount",
                        "rate",
                        "currency",
                        "paid_amount",
                        "issue_date",
                        "x",
                    ]),
                    inner,
                ),
                0..8,
            )
            .prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Invariant: any JSON value given as a create body gets an answer — a created
    /// document whose totals hold, or an error body with at least one error, each
    /// with a loc under body or query — and never a panic.
    #[test]
    fn prop_any_body_gets_an_answer(body in any_json(), mutate in any::<bool>(), at in any::<usize>()) {
        let ctx = TestContext::new();
        let body = if mutate {
            // Also graft the random value into a valid body, where it goes deeper.
            let mut b = rich_body();
            let keys = ["order_number", "lines", "allowance_charges", "paid_amount", "currency", "issue_date"];
            b[keys[at % keys.len()]] = body;
            b
        } else {
            body
        };
        match create(&ctx, ALL, None, Some(&body), DOC_ID) {
            Ok(c) => {
                let comp = &c.document.computation;
                prop_assert_eq!(comp.total_amount, comp.tax_exclusive_amount + comp.tax_amount);
            }
            Err(e) => {
                prop_assert!(!e.errors.is_empty());
                prop_assert_eq!(e.status, 422);
                for err in &e.errors {
                    let first = err.loc.to_json()[0].clone();
                    prop_assert!(first == json!("body") || first == json!("query"), "{}", err);
                }
            }
        }
    }

    /// Invariant: a valid body with one field given a value of the wrong shape (wrong
    /// type, too long, out of range, off its pattern or set) gets exactly that field's
    /// error, and nothing else.
    #[test]
    fn prop_one_wrong_field_gets_exactly_its_error((path, value, code) in wrong_shape()) {
        let ctx = TestContext::new();
        prop_assert!(try_create(&ctx, &rich_body()).is_ok(), "the rich body is valid");
        let mut body = rich_body();
        set_at(&mut body, &path, value);
        let err = try_create(&ctx, &body).err();
        prop_assert!(err.is_some(), "accepted {}", body);
        let err = err.unwrap_or_else(|| ApiError::one(ErrorCode::NotFound, Loc::default(), ""));
        let mut loc = vec![json!("body")];
        loc.extend(path);
        prop_assert_eq!(found(&err), vec![(code, Value::Array(loc))]);
    }
}
