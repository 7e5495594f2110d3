//! Invariant checks shared by the fuzz targets.
//!
//! Every check panics with a message naming the invariant and the value that broke
//! it, so that a libFuzzer crash report says what went wrong, not only where.
//!
//! The checks re-derive what they can from the response alone, independently of the
//! crate's own computation: the amounts are read from the JSON number text with
//! `rust_decimal` (serde_json's `arbitrary_precision` keeps that text), and the
//! totals identities, the roundings of docs/decisions.md §3 and the grouping of §3.5 are
//! recomputed here.

use invoicing_core::money::Currency;
use invoicing_core::remittance::StructuredReference;
use invoicing_core::terms::PaymentTerms;
use rust_decimal::{Decimal, RoundingStrategy};
use serde_json::{Map, Value};

/// The statuses a simulator response may carry (docs/scenario.md, docs/decisions.md §8).
pub const STATUSES: [u64; 8] = [200, 201, 401, 403, 404, 405, 422, 501];

/// Every error code of docs/decisions.md §8 with its status.
pub const CODES: &[(&str, u64)] = &[
    ("json_invalid", 422),
    ("dict_type", 422),
    ("list_type", 422),
    ("string_type", 422),
    ("bool_type", 422),
    ("decimal_parsing", 422),
    ("bool_parsing", 422),
    ("date_parsing", 422),
    ("missing", 422),
    ("extra_forbidden", 422),
    ("derived_field", 422),
    ("null_not_allowed", 422),
    ("read_only", 422),
    ("literal_error", 422),
    ("enum", 422),
    ("string_too_long", 422),
    ("too_short", 422),
    ("too_long", 422),
    ("string_pattern_mismatch", 422),
    ("greater_than", 422),
    ("greater_than_equal", 422),
    ("less_than_equal", 422),
    ("decimal_max_places", 422),
    ("date_in_future", 422),
    ("period_end_before_start", 422),
    ("currency_not_supported", 422),
    ("vat_rate_required", 422),
    ("vat_rate_not_allowed", 422),
    ("vat_code_reserved", 422),
    ("amount_or_rate", 422),
    ("relation_not_found", 422),
    ("journal_not_found", 422),
    ("delivery_location_not_found", 422),
    ("no_default_journal", 422),
    ("journal_category_mismatch", 422),
    ("delivery_location_relation_mismatch", 422),
    ("self_billing_disabled", 422),
    ("amount_out_of_range", 422),
    ("negative_total", 422),
    ("vat_group_not_positive", 422),
    ("paid_amount_above_total", 422),
    ("issue_date_outside_number_window", 422),
    ("document_locked", 422),
    ("document_deleted", 422),
    ("no_channel", 422),
    ("not_peppol_type", 422),
    ("already_sent", 422),
    ("send_failed", 422),
    ("not_authenticated", 401),
    ("invalid_token", 401),
    ("invalid_client", 401),
    ("permission_denied", 403),
    ("not_found", 404),
    ("method_not_allowed", 405),
    ("not_implemented", 501),
    ("journal_counter_exhausted", 422),
    ("xml_not_available", 422),
    ("received_document", 422),
    ("multipart_invalid", 422),
    ("attachment_filename_invalid", 422),
    ("attachment_type_not_allowed", 422),
    ("attachment_content_mismatch", 422),
    ("attachment_too_large", 422),
    ("attachment_limit", 422),
    ("attachments_total_too_large", 422),
    ("pdf_not_available", 422),
];

/// The bound every computed amount stays below (docs/decisions.md §2).
fn amount_limit() -> Decimal {
    Decimal::from(1_000_000_000_000_000_i64)
}

/// Depth of a JSON value (a scalar is 1). Fuzzed bodies deeper than serde_json's
/// recursion limit allows once wrapped in a scenario are skipped by the targets.
pub fn depth(v: &Value) -> usize {
    match v {
        Value::Array(a) => 1 + a.iter().map(depth).max().unwrap_or(0),
        Value::Object(m) => 1 + m.values().map(depth).max().unwrap_or(0),
        _ => 1,
    }
}

/// The deepest fuzzed body a target wraps in a scenario (serde_json stops at 128).
pub const MAX_BODY_DEPTH: usize = 100;

/// Serializes a value the way a client sees it (field order kept).
pub fn text(v: &Value) -> String {
    serde_json::to_string(v).expect("a Value always serializes")
}

/// Checks the top level of a `run` answer: an object with exactly one key,
/// `responses` (an array) or `error` (a non-empty string). Returns the responses, or
/// `None` for a malformed scenario.
pub fn check_run_output(out: &Value) -> Option<&Vec<Value>> {
    let obj = out
        .as_object()
        .unwrap_or_else(|| panic!("run answered a non-object: {}", text(out)));
    assert_eq!(
        obj.len(),
        1,
        "run must answer exactly one of responses/error: {}",
        text(out)
    );
    if let Some(e) = obj.get("error") {
        let msg = e
            .as_str()
            .unwrap_or_else(|| panic!("error is not a string: {}", text(out)));
        assert!(!msg.is_empty(), "error message is empty");
        return None;
    }
    let responses = obj
        .get("responses")
        .unwrap_or_else(|| panic!("run answered neither responses nor error: {}", text(out)));
    Some(
        responses
            .as_array()
            .unwrap_or_else(|| panic!("responses is not an array: {}", text(out))),
    )
}

/// Checks one response: an object `{status, body}` with an allowed status; an error
/// status carries a well-formed error body. Returns the status and the body.
pub fn check_response(resp: &Value) -> (u64, &Value) {
    let obj = resp
        .as_object()
        .unwrap_or_else(|| panic!("a response is not an object: {}", text(resp)));
    let status = obj
        .get("status")
        .and_then(Value::as_u64)
        .unwrap_or_else(|| panic!("a response has no integer status: {}", text(resp)));
    assert!(
        STATUSES.contains(&status),
        "status {status} is not one the simulator may answer: {}",
        text(resp)
    );
    let body = obj
        .get("body")
        .unwrap_or_else(|| panic!("a response has no body: {}", text(resp)));
    assert_eq!(
        obj.len(),
        2,
        "a response has keys other than status and body: {}",
        text(resp)
    );
    if status >= 400 {
        check_error_body(status, body, &["body", "query", "path", "header", "method"]);
    }
    (status, body)
}

/// Checks an error body (docs/decisions.md §8): `{"detail": [...]}`, non-empty, each entry
/// with a loc (an array starting with one of `roots`, then keys and indexes), a
/// non-empty msg and a type that is a code of the table with this status.
pub fn check_error_body(status: u64, body: &Value, roots: &[&str]) {
    let obj = body
        .as_object()
        .unwrap_or_else(|| panic!("{status} error body is not an object: {}", text(body)));
    let detail = obj
        .get("detail")
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("{status} error body has no detail array: {}", text(body)));
    assert!(
        !detail.is_empty(),
        "{status} error body has an empty detail: {}",
        text(body)
    );
    for e in detail {
        let e = e
            .as_object()
            .unwrap_or_else(|| panic!("a detail entry is not an object: {}", text(body)));
        let loc = e
            .get("loc")
            .and_then(Value::as_array)
            .unwrap_or_else(|| panic!("a detail entry has no loc array: {}", text(body)));
        let root = loc
            .first()
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("a loc does not start with a string: {}", text(body)));
        assert!(
            roots.contains(&root),
            "loc root {root:?} is not one of {roots:?}: {}",
            text(body)
        );
        for item in &loc[1..] {
            assert!(
                item.is_string() || item.as_u64().is_some(),
                "a loc item is neither a key nor an index: {}",
                text(body)
            );
        }
        let msg = e
            .get("msg")
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("a detail entry has no msg string: {}", text(body)));
        assert!(
            !msg.is_empty(),
            "a detail entry has an empty msg: {}",
            text(body)
        );
        let ty = e
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("a detail entry has no type string: {}", text(body)));
        let code_status = CODES.iter().find(|(c, _)| *c == ty).map_or_else(
            || {
                panic!(
                    "error type {ty:?} is not a code of docs/decisions.md §8: {}",
                    text(body)
                )
            },
            |(_, s)| *s,
        );
        assert_eq!(
            code_status,
            status,
            "error type {ty:?} answered with status {status}: {}",
            text(body)
        );
    }
}

/// The types of the entries of an error body.
pub fn error_types(body: &Value) -> Vec<&str> {
    body.get("detail")
        .and_then(Value::as_array)
        .map(|d| {
            d.iter()
                .filter_map(|e| e.get("type").and_then(Value::as_str))
                .collect()
        })
        .unwrap_or_default()
}

/// Whether a body looks like a document (as opposed to a relation, a token…).
pub fn is_document(body: &Value) -> bool {
    body.get("vat_breakdown").is_some() && body.get("document_number").is_some()
}

/// Reads an amount: a JSON number written `-?digits[.digits]` with exactly `minor`
/// decimals, no exponent, no superfluous leading zero, never negative zero.
fn amount(v: Option<&Value>, minor: u32, what: &str, doc: &Value) -> Decimal {
    let n = match v {
        Some(Value::Number(n)) => n,
        other => panic!("{what} is not a number: {other:?} in {}", text(doc)),
    };
    let s = n.as_str();
    let unsigned = s.strip_prefix('-').unwrap_or(s);
    let (int, frac) = match unsigned.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (unsigned, None),
    };
    let ok_int = !int.is_empty()
        && int.bytes().all(|b| b.is_ascii_digit())
        && (int == "0" || !int.starts_with('0'));
    let ok_frac = match (minor, frac) {
        (0, None) => true,
        (m, Some(f)) => f.len() == m as usize && f.bytes().all(|b| b.is_ascii_digit()),
        _ => false,
    };
    assert!(
        ok_int && ok_frac,
        "{what} = {s} is not written with exactly {minor} decimals: {}",
        text(doc)
    );
    let d: Decimal = s
        .parse()
        .unwrap_or_else(|e| panic!("{what} = {s} does not parse as a decimal: {e}"));
    assert!(
        !(d.is_zero() && s.starts_with('-')),
        "{what} is written as negative zero ({s}): {}",
        text(doc)
    );
    d
}

/// Reads a number echoed as sent (quantity, price, rate): any exact decimal.
fn echoed(v: &Value, what: &str, doc: &Value) -> Decimal {
    let n = v
        .as_number()
        .unwrap_or_else(|| panic!("{what} is not a number: {} in {}", text(v), text(doc)));
    let s = n.as_str();
    if let Ok(d) = s.parse::<Decimal>() {
        return d;
    }
    Decimal::from_scientific(s).unwrap_or_else(|e| panic!("{what} = {s} is not a decimal: {e}"))
}

fn round(value: Decimal, minor: u32) -> Decimal {
    value.round_dp_with_strategy(minor, RoundingStrategy::MidpointAwayFromZero)
}

/// round_m(a × b / 100), or `None` when the product does not fit a decimal.
fn percent(a: Decimal, rate: Decimal, minor: u32) -> Option<Decimal> {
    Some(round(
        a.checked_mul(rate)?.checked_div(Decimal::ONE_HUNDRED)?,
        minor,
    ))
}

fn within_limit(d: Decimal, what: &str, doc: &Value) {
    assert!(
        d.abs() < amount_limit(),
        "{what} = {d} reaches 10^15: {}",
        text(doc)
    );
}

fn field<'a>(obj: &'a Map<String, Value>, key: &str, doc: &Value) -> &'a Value {
    obj.get(key)
        .unwrap_or_else(|| panic!("document lacks {key}: {}", text(doc)))
}

fn string<'a>(obj: &'a Map<String, Value>, key: &str, doc: &Value) -> &'a str {
    field(obj, key, doc)
        .as_str()
        .unwrap_or_else(|| panic!("document {key} is not a string: {}", text(doc)))
}

/// The category, VATEX code and whether a group of this code is taxed
/// (docs/decisions.md §4).
fn vat_code_facts(code: &str) -> Option<(&'static str, Option<&'static str>, bool)> {
    Some(match code {
        "standard" => ("S", None, true),
        "zero_rated" => ("Z", None, false),
        "exempted" => ("E", None, false),
        "reverse_charge" => ("AE", Some("VATEX-EU-AE"), false),
        "intra_community" => ("K", Some("VATEX-EU-IC"), false),
        "export" => ("G", Some("VATEX-EU-G"), false),
        "not_subject" => ("O", Some("VATEX-EU-O"), false),
        _ => return None,
    })
}

/// Sums the amounts of a list of allowance/charge objects: (allowances, charges).
/// Checks each amount's decimals, and a rate's amount against `rate_base`.
fn allowance_charges(
    list: &Value,
    minor: u32,
    rate_base: Decimal,
    what: &str,
    doc: &Value,
) -> (Decimal, Decimal) {
    let list = list
        .as_array()
        .unwrap_or_else(|| panic!("{what} allowance_charges is not an array: {}", text(doc)));
    let (mut allowances, mut charges) = (Decimal::ZERO, Decimal::ZERO);
    for (j, ac) in list.iter().enumerate() {
        let what = format!("{what} allowance_charges[{j}]");
        let amt = amount(ac.get("amount"), minor, &format!("{what}.amount"), doc);
        let is_rate = ac.get("rate").is_some_and(|r| !r.is_null());
        assert!(
            amt >= Decimal::ZERO,
            "{what}: a negative amount: {}",
            text(doc)
        );
        assert!(
            is_rate || amt > Decimal::ZERO,
            "{what}: a fixed amount is not positive: {}",
            text(doc)
        );
        within_limit(amt, &what, doc);
        if let Some(rate) = ac.get("rate").filter(|r| !r.is_null()) {
            let rate = echoed(rate, &format!("{what}.rate"), doc);
            assert!(
                rate > Decimal::ZERO && rate <= Decimal::ONE_HUNDRED,
                "{what}: rate {rate} outside (0, 100]: {}",
                text(doc)
            );
            if let Some(expect) = percent(rate_base, rate, minor) {
                assert_eq!(
                    amt,
                    expect,
                    "{what}: a rate amount is not round(base {rate_base} × {rate} / 100): {}",
                    text(doc)
                );
            }
        }
        match ac.get("type").and_then(Value::as_str) {
            Some("allowance") => allowances += amt,
            Some("charge") => charges += amt,
            other => panic!(
                "{what}: type {other:?} is neither allowance nor charge: {}",
                text(doc)
            ),
        }
    }
    (allowances, charges)
}

/// What a document check may assume about how the document came to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Answered by a create (201): the state of a new document.
    Created,
    /// Read, patched, sent or overridden: states may be anything.
    Any,
}

/// Checks a document body: the totals identities, every amount written with exactly
/// the currency's minor-unit decimals, the roundings of docs/decisions.md §3 recomputed
/// from the echoed quantities, prices and rates, the VAT grouping, the remittance and
/// the due date.
pub fn check_document(doc: &Value, origin: Origin) {
    let obj = doc
        .as_object()
        .unwrap_or_else(|| panic!("a document is not an object: {}", text(doc)));
    let code = string(obj, "currency", doc);
    let currency = Currency::from_code(code)
        .unwrap_or_else(|| panic!("currency {code:?} is not supported: {}", text(doc)));
    let m = currency.minor_unit();
    let amt = |key: &str| amount(obj.get(key), m, key, doc);

    let tax_exclusive = amt("tax_exclusive_amount");
    let tax = amt("tax_amount");
    let total = amt("total_amount");
    let paid = amt("paid_amount");
    let remaining = amt("remaining_amount");
    for (what, d) in [
        ("tax_exclusive_amount", tax_exclusive),
        ("tax_amount", tax),
        ("total_amount", total),
    ] {
        within_limit(d, what, doc);
    }

    // §3 step 8 and §3 step 9.
    assert_eq!(
        total,
        tax_exclusive + tax,
        "total_amount ≠ tax_exclusive_amount + tax_amount: {}",
        text(doc)
    );
    assert_eq!(
        remaining,
        total - paid,
        "remaining_amount ≠ total_amount − paid_amount: {}",
        text(doc)
    );
    assert!(
        total >= Decimal::ZERO,
        "a stored document has a negative total: {}",
        text(doc)
    );
    assert!(
        paid >= Decimal::ZERO,
        "paid_amount is negative: {}",
        text(doc)
    );

    // Lines: §3 steps 1-4.
    let lines = field(obj, "lines", doc)
        .as_array()
        .unwrap_or_else(|| panic!("lines is not an array: {}", text(doc)));
    assert!(!lines.is_empty(), "a document without lines: {}", text(doc));
    let mut line_total_sum = Decimal::ZERO;
    // (vat_code, rate as a number, rate as first written, Σ line totals)
    let mut groups: Vec<(String, Option<Decimal>, Value, Decimal)> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let what = format!("lines[{i}]");
        let l = line
            .as_object()
            .unwrap_or_else(|| panic!("{what} is not an object: {}", text(doc)));
        assert_eq!(
            l.get("sequence").and_then(Value::as_u64),
            Some(i as u64 + 1),
            "{what}.sequence is not {}: {}",
            i + 1,
            text(doc)
        );
        let subtotal = amount(l.get("subtotal"), m, &format!("{what}.subtotal"), doc);
        let line_total = amount(l.get("total"), m, &format!("{what}.total"), doc);
        let line_tax = amount(l.get("tax_amount"), m, &format!("{what}.tax_amount"), doc);
        for (k, d) in [
            ("subtotal", subtotal),
            ("total", line_total),
            ("tax_amount", line_tax),
        ] {
            within_limit(d, &format!("{what}.{k}"), doc);
        }
        let q = echoed(field(l, "quantity", doc), &format!("{what}.quantity"), doc);
        let p = echoed(
            field(l, "unit_price", doc),
            &format!("{what}.unit_price"),
            doc,
        );
        if let Some(product) = q.checked_mul(p) {
            assert_eq!(
                subtotal,
                round(product, m),
                "{what}.subtotal ≠ round(quantity × unit_price): {}",
                text(doc)
            );
        }
        let (allowances, charges) =
            allowance_charges(field(l, "allowance_charges", doc), m, subtotal, &what, doc);
        assert_eq!(
            line_total,
            subtotal - allowances + charges,
            "{what}.total ≠ subtotal − allowances + charges: {}",
            text(doc)
        );
        let vat_code = l
            .get("vat_code")
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("{what}.vat_code is not a string: {}", text(doc)));
        let (_, _, taxed) = vat_code_facts(vat_code)
            .unwrap_or_else(|| panic!("{what}.vat_code {vat_code:?} is unknown: {}", text(doc)));
        let rate_value = field(l, "vat_rate", doc);
        let rate = if vat_code == "not_subject" {
            assert!(
                rate_value.is_null(),
                "{what}: a not_subject line answers a vat_rate: {}",
                text(doc)
            );
            None
        } else {
            Some(echoed(rate_value, &format!("{what}.vat_rate"), doc))
        };
        if taxed {
            let r = rate.unwrap_or_default();
            assert!(
                r > Decimal::ZERO && r <= Decimal::ONE_HUNDRED,
                "{what}: standard rate {r} outside (0, 100]: {}",
                text(doc)
            );
            if let Some(expect) = percent(line_total, r, m) {
                assert_eq!(
                    line_tax,
                    expect,
                    "{what}.tax_amount ≠ round(total × rate / 100): {}",
                    text(doc)
                );
            }
        } else {
            assert!(
                line_tax.is_zero(),
                "{what}: an untaxed line has tax {line_tax}: {}",
                text(doc)
            );
            if let Some(r) = rate {
                assert!(
                    r.is_zero(),
                    "{what}: an exempt line answers rate {r}: {}",
                    text(doc)
                );
            }
        }
        line_total_sum += line_total;
        match groups.iter_mut().find(|g| g.0 == vat_code && g.1 == rate) {
            Some(g) => g.3 += line_total,
            None => groups.push((vat_code.to_owned(), rate, rate_value.clone(), line_total)),
        }
    }

    // Document allowances and charges: §3 step 6.
    let (allowances, charges) = allowance_charges(
        field(obj, "allowance_charges", doc),
        m,
        line_total_sum,
        "document",
        doc,
    );
    let has_doc_ac = !field(obj, "allowance_charges", doc)
        .as_array()
        .is_some_and(Vec::is_empty);
    assert_eq!(
        tax_exclusive,
        line_total_sum - allowances + charges,
        "tax_exclusive_amount ≠ Σ line totals − document allowances + charges: {}",
        text(doc)
    );

    // VAT breakdown: §3 steps 5, 7, 8; §4.
    let breakdown = field(obj, "vat_breakdown", doc)
        .as_array()
        .unwrap_or_else(|| panic!("vat_breakdown is not an array: {}", text(doc)));
    assert_eq!(
        breakdown.len(),
        groups.len(),
        "vat_breakdown does not have one group per (vat_code, rate) of the lines: {}",
        text(doc)
    );
    let (mut taxable_sum, mut tax_sum) = (Decimal::ZERO, Decimal::ZERO);
    for (g, (entry, (code, rate, first_rate, base))) in breakdown.iter().zip(&groups).enumerate() {
        let what = format!("vat_breakdown[{g}]");
        assert_eq!(
            entry.get("vat_code").and_then(Value::as_str),
            Some(code.as_str()),
            "{what}: groups not in order of first appearance: {}",
            text(doc)
        );
        let written = field(
            entry.as_object().expect("a group is an object"),
            "vat_rate",
            doc,
        );
        assert_eq!(
            text(written),
            text(first_rate),
            "{what}.vat_rate is not the rate as first written: {}",
            text(doc)
        );
        let (category, vatex, taxed) = vat_code_facts(code).expect("checked on the lines");
        assert_eq!(
            entry.get("category").and_then(Value::as_str),
            Some(category),
            "{what}.category: {}",
            text(doc)
        );
        let taxable = amount(
            entry.get("taxable_amount"),
            m,
            &format!("{what}.taxable_amount"),
            doc,
        );
        let group_tax = amount(
            entry.get("tax_amount"),
            m,
            &format!("{what}.tax_amount"),
            doc,
        );
        within_limit(taxable, &what, doc);
        within_limit(group_tax, &what, doc);
        if taxed {
            if let Some(expect) = percent(taxable, rate.unwrap_or_default(), m) {
                assert_eq!(
                    group_tax,
                    expect,
                    "{what}.tax_amount ≠ round(taxable × rate / 100): {}",
                    text(doc)
                );
            }
        } else {
            assert!(
                group_tax.is_zero(),
                "{what}: an untaxed group has tax: {}",
                text(doc)
            );
        }
        let reason = entry.get("exemption_reason");
        let reason_code = entry.get("exemption_reason_code");
        if code == "standard" || code == "zero_rated" {
            assert!(
                reason.is_some_and(Value::is_null) && reason_code.is_some_and(Value::is_null),
                "{what}: a mention on a {code} group: {}",
                text(doc)
            );
        } else {
            assert!(
                reason.is_some_and(Value::is_string),
                "{what}: an exempt group without its mention: {}",
                text(doc)
            );
            assert_eq!(
                reason_code.and_then(Value::as_str),
                vatex,
                "{what}.exemption_reason_code: {}",
                text(doc)
            );
        }
        if has_doc_ac {
            assert!(
                *base > Decimal::ZERO,
                "{what}: a document allowance/charge spread on a base {base} ≤ 0: {}",
                text(doc)
            );
        } else {
            assert_eq!(
                taxable,
                *base,
                "{what}.taxable_amount ≠ Σ its line totals (no document allowance): {}",
                text(doc)
            );
        }
        taxable_sum += taxable;
        tax_sum += group_tax;
    }
    assert_eq!(
        tax_exclusive,
        taxable_sum,
        "tax_exclusive_amount ≠ Σ vat_breakdown taxable_amount: {}",
        text(doc)
    );
    assert_eq!(
        tax,
        tax_sum,
        "tax_amount ≠ Σ vat_breakdown tax_amount: {}",
        text(doc)
    );

    // Remittance from the number (§5) and due date from the terms (§4b).
    let number = string(obj, "document_number", doc);
    let remittance = string(obj, "payment_remittance", doc);
    let parsed: StructuredReference = remittance
        .parse()
        .unwrap_or_else(|e| panic!("payment_remittance {remittance:?} does not parse: {e}"));
    assert_eq!(
        parsed,
        StructuredReference::from_document_number(number),
        "payment_remittance is not built from {number:?}: {}",
        text(doc)
    );
    assert_eq!(
        obj.get("is_remittance_structured"),
        Some(&Value::Bool(true)),
        "is_remittance_structured: {}",
        text(doc)
    );
    let terms_text = string(obj, "payment_terms", doc);
    let terms: PaymentTerms = terms_text
        .parse()
        .unwrap_or_else(|e| panic!("payment_terms {terms_text:?} does not parse: {e}"));
    assert_eq!(
        terms.to_string(),
        terms_text,
        "payment_terms not echoed as sent"
    );
    let date = |key: &str| {
        let s = string(obj, key, doc);
        chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d")
            .unwrap_or_else(|e| panic!("{key} {s:?} is not a date: {e}"))
    };
    let issue = date("issue_date");
    let due = date("due_date");
    assert_eq!(
        Some(due),
        terms.due_date(issue),
        "due_date is not {terms_text} from {issue}: {}",
        text(doc)
    );
    assert!(due >= issue, "due_date before issue_date: {}", text(doc));

    if origin == Origin::Created {
        assert!(
            paid <= total,
            "a created document has paid_amount above total: {}",
            text(doc)
        );
        let expect = if paid.is_zero() {
            "unpaid"
        } else if paid < total {
            "partial"
        } else {
            "paid"
        };
        assert_eq!(
            string(obj, "payment_status", doc),
            expect,
            "payment_status of a new document: {}",
            text(doc)
        );
        assert_eq!(
            string(obj, "accounting_status", doc),
            "waiting",
            "accounting_status of a new document"
        );
        assert_eq!(
            string(obj, "origin", doc),
            "api",
            "origin of a new document"
        );
        assert_eq!(
            string(obj, "mail_status", doc),
            "not_sent",
            "mail_status of a new document"
        );
        let peppol = string(obj, "peppol_status", doc);
        assert!(
            peppol == "not_sent" || peppol == "sending",
            "peppol_status of a new document: {peppol}"
        );
        assert_eq!(
            obj.get("pdf_available"),
            Some(&Value::Bool(false)),
            "pdf_available of a new document"
        );
        assert_eq!(
            obj.get("xml_available"),
            Some(&Value::Bool(false)),
            "xml_available of a new document"
        );
    }
}

/// The text of a serde_json number as kept by `arbitrary_precision`.
pub fn number_text(v: &Value) -> Option<&str> {
    v.as_number().map(serde_json::Number::as_str)
}

/// With `FUZZ_DEBUG` set in the environment, prints a one-line summary of each
/// response (status, then the error types or the start of the body) to stderr: run a
/// target on one input (`cargo +nightly fuzz run T FILE`) to see what it did.
pub fn debug_responses(responses: &[Value]) {
    if std::env::var_os("FUZZ_DEBUG").is_none() {
        return;
    }
    for r in responses {
        let body = &r["body"];
        let summary = match body.get("detail").and_then(Value::as_array) {
            Some(d) => d
                .iter()
                .map(|e| format!("{}@{}", e["type"].as_str().unwrap_or("?"), e["loc"]))
                .collect::<Vec<_>>()
                .join(" "),
            None => text(body).chars().take(160).collect(),
        };
        eprintln!("{} {}", r["status"], summary);
    }
}

/// The `simulator` target: any bytes as a scenario, every invariant of
/// `fuzz_targets/simulator.rs` checked (a panic names the one that broke). Plain
/// `cargo test` replays `fuzz/regressions/simulator/` through it
/// (`tests/fuzz_replay.rs`).
pub fn simulator(data: &[u8]) {
    use invoicing_core::simulator::{run, run_to};
    let out = run(data);
    let mut streamed = Vec::new();
    assert!(
        run_to(data, &mut streamed).is_ok(),
        "a Vec takes every byte"
    );
    let pretty = serde_json::to_string_pretty(&out).unwrap_or_default() + "\n";
    assert!(
        streamed == pretty.as_bytes(),
        "run_to wrote other bytes than run:\n{}\n---\n{pretty}",
        String::from_utf8_lossy(&streamed)
    );
    let responses = check_run_output(&out);
    let input: Option<Value> = invoicing_core::json::from_slice(data).ok();
    let requests = input
        .as_ref()
        .and_then(|v| v.get("requests"))
        .and_then(Value::as_array);
    match responses {
        None => {}
        Some(responses) => {
            debug_responses(responses);
            let requests = requests.unwrap_or_else(|| {
                panic!(
                    "responses for an input that is not a scenario with a requests array: {}",
                    text(&out)
                )
            });
            assert_eq!(
                responses.len(),
                requests.len(),
                "not one response per request"
            );
            // Live creates: ids doc-1, doc-2, … in creation order; sandbox: sbx-1, …
            let (mut last_live, mut last_sandbox) = (0u64, 0u64);
            let mut numbers: Vec<(String, String)> = Vec::new();
            for (resp, req) in responses.iter().zip(requests) {
                let (status, body) = check_response(resp);
                // A create is a POST to /documents; an upload's 201 answers the document
                // it attached a file to.
                let method = req
                    .get("method")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let path = req.get("path").and_then(Value::as_str).unwrap_or_default();
                let create = method.eq_ignore_ascii_case("POST")
                    && path.split('?').next() == Some("/documents");
                match status {
                    201 if !create => check_document(body, Origin::Any),
                    201 => {
                        check_document(body, Origin::Created);
                        let id = body.get("id").and_then(Value::as_str).unwrap_or_default();
                        let (prefix, n) = id.split_at(id.find('-').map_or(0, |i| i + 1));
                        let n: u64 = n.parse().unwrap_or_else(|_| {
                            panic!("a created id {id:?} is not doc-N or sbx-N")
                        });
                        match prefix {
                            "doc-" => {
                                assert!(
                                    n > last_live,
                                    "created ids out of order: {id} after doc-{last_live}"
                                );
                                last_live = n;
                                // A journal never hands out one number twice.
                                let key = (
                                    body["journal_id"].as_str().unwrap_or_default().to_owned(),
                                    body["document_number"]
                                        .as_str()
                                        .unwrap_or_default()
                                        .to_owned(),
                                );
                                assert!(
                                    !numbers.contains(&key),
                                    "journal {} handed out {} twice ({id})",
                                    key.0,
                                    key.1
                                );
                                numbers.push(key);
                            }
                            "sbx-" => {
                                assert!(
                                    n > last_sandbox,
                                    "sandbox ids out of order: {id} after sbx-{last_sandbox}"
                                );
                                last_sandbox = n;
                            }
                            _ => panic!("a created id {id:?} is not doc-N or sbx-N"),
                        }
                    }
                    // A received document states its amounts (docs/peppol.md §4): its
                    // `checks` say which sums fail; the computation checks are not its.
                    200 if is_document(body) && body.get("checks").is_none() => {
                        check_document(body, Origin::Any);
                    }
                    _ => {}
                }
            }
        }
    }
    // Decisions §1: same inputs, same outputs, byte for byte.
    let again = run(data);
    assert_eq!(text(&out), text(&again), "run is not deterministic");
}
