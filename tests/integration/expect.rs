//! The comparator of the worked examples (`shared/spec/examples/README.md`):
//!
//! - `status`: the HTTP status;
//! - `body`: a subset of the response body: every key given must be present and equal
//!   (objects recursively, arrays element by element with the same length); numbers
//!   compare as decimals (`2` equals `2.00`), and every amount of a document must also
//!   be written with exactly its currency's minor-unit decimals;
//! - `errors`: each `{type, loc}` must match an entry of `detail`; with
//!   `errors_exact: true` the body holds no other error.

use invoicing_core::money::Currency;
use rust_decimal::Decimal;
use serde_json::Value;

/// The amount fields of a document, at the top level.
const DOCUMENT_AMOUNTS: [&str; 5] = [
    "tax_exclusive_amount",
    "tax_amount",
    "total_amount",
    "paid_amount",
    "remaining_amount",
];

/// The amount fields of a line.
const LINE_AMOUNTS: [&str; 3] = ["subtotal", "total", "tax_amount"];

/// The amount fields of a VAT breakdown entry.
const GROUP_AMOUNTS: [&str; 2] = ["taxable_amount", "tax_amount"];

/// Checks a simulator result against the `expect` list of an example.
pub fn check_expectations(result: &Value, expect: &[Value]) -> Result<(), String> {
    let Some(responses) = result.get("responses").and_then(Value::as_array) else {
        return Err(format!("the scenario gave no responses: {result}"));
    };
    if responses.len() != expect.len() {
        return Err(format!(
            "{} responses for {} expectations",
            responses.len(),
            expect.len()
        ));
    }
    for (i, (actual, exp)) in responses.iter().zip(expect).enumerate() {
        check_response(actual, exp).map_err(|e| format!("response {i}: {e}"))?;
    }
    Ok(())
}

/// Checks one response `{status, body}` against one expectation.
pub fn check_response(actual: &Value, exp: &Value) -> Result<(), String> {
    let body = actual.get("body").unwrap_or(&Value::Null);
    if let Some(status) = exp.get("status") {
        let got = actual.get("status").unwrap_or(&Value::Null);
        if !same_scalar(status, got) {
            return Err(format!("status {got}, expected {status}; body {body}"));
        }
    }
    if let Some(expected_body) = exp.get("body") {
        match_subset(expected_body, body, "body")?;
        check_document_amounts(body)?;
    }
    if let Some(errors) = exp.get("errors") {
        let errors = errors.as_array().ok_or("expect.errors must be an array")?;
        let exact = exp.get("errors_exact") == Some(&Value::Bool(true));
        check_errors(errors, body, exact)?;
    }
    Ok(())
}

/// `expected` is a subset of `actual` at `path`.
pub fn match_subset(expected: &Value, actual: &Value, path: &str) -> Result<(), String> {
    match (expected, actual) {
        (Value::Object(exp), Value::Object(act)) => {
            for (key, e) in exp {
                let at = format!("{path}.{key}");
                let a = act.get(key).ok_or_else(|| format!("{at}: missing"))?;
                match_subset(e, a, &at)?;
            }
            Ok(())
        }
        (Value::Array(exp), Value::Array(act)) => {
            if exp.len() != act.len() {
                return Err(format!(
                    "{path}: {} elements, expected {}",
                    act.len(),
                    exp.len()
                ));
            }
            for (i, (e, a)) in exp.iter().zip(act).enumerate() {
                match_subset(e, a, &format!("{path}[{i}]"))?;
            }
            Ok(())
        }
        (e, a) if same_scalar(e, a) => Ok(()),
        (e, a) => Err(format!("{path}: {a}, expected {e}")),
    }
}

/// Scalars are equal, numbers compared as decimals.
fn same_scalar(expected: &Value, actual: &Value) -> bool {
    match (expected, actual) {
        (Value::Number(e), Value::Number(a)) => match (decimal(e.as_str()), decimal(a.as_str())) {
            (Some(e), Some(a)) => e == a,
            _ => e.as_str() == a.as_str(),
        },
        (Value::Object(_) | Value::Array(_), _) => false,
        (e, a) => e == a,
    }
}

/// A JSON number's text as an exact decimal (`1e2` included).
pub fn decimal(text: &str) -> Option<Decimal> {
    if text.contains(['e', 'E']) {
        Decimal::from_scientific(text).ok()
    } else {
        Decimal::from_str_exact(text).ok()
    }
}

/// Every amount of a document body is written with exactly its currency's minor-unit
/// decimals, plainly (no exponent) and never as a negative zero. A body that is not a
/// document (no `currency`) has nothing to check.
pub fn check_document_amounts(body: &Value) -> Result<(), String> {
    let Some(code) = body.get("currency").and_then(Value::as_str) else {
        return Ok(());
    };
    let minor = Currency::from_code(code)
        .ok_or_else(|| format!("body.currency: unknown currency {code}"))?
        .minor_unit();
    let mut checks: Vec<(String, &Value)> = Vec::new();
    for key in DOCUMENT_AMOUNTS {
        if let Some(v) = body.get(key) {
            checks.push((format!("body.{key}"), v));
        }
    }
    let doc_acs = body.get("allowance_charges").and_then(Value::as_array);
    for (i, ac) in doc_acs.into_iter().flatten().enumerate() {
        if let Some(v) = ac.get("amount") {
            checks.push((format!("body.allowance_charges[{i}].amount"), v));
        }
    }
    let lines = body.get("lines").and_then(Value::as_array);
    for (i, line) in lines.into_iter().flatten().enumerate() {
        for key in LINE_AMOUNTS {
            if let Some(v) = line.get(key) {
                checks.push((format!("body.lines[{i}].{key}"), v));
            }
        }
        let acs = line.get("allowance_charges").and_then(Value::as_array);
        for (j, ac) in acs.into_iter().flatten().enumerate() {
            if let Some(v) = ac.get("amount") {
                checks.push((format!("body.lines[{i}].allowance_charges[{j}].amount"), v));
            }
        }
    }
    let groups = body.get("vat_breakdown").and_then(Value::as_array);
    for (g, group) in groups.into_iter().flatten().enumerate() {
        for key in GROUP_AMOUNTS {
            if let Some(v) = group.get(key) {
                checks.push((format!("body.vat_breakdown[{g}].{key}"), v));
            }
        }
    }
    for (at, value) in checks {
        check_amount_text(value, minor).map_err(|e| format!("{at}: {e}"))?;
    }
    Ok(())
}

/// One amount: null, or a plain number with exactly `minor` decimals, never `-0`.
fn check_amount_text(value: &Value, minor: u32) -> Result<(), String> {
    let text = match value {
        Value::Null => return Ok(()),
        Value::Number(n) => n.as_str(),
        other => return Err(format!("{other} is not a number")),
    };
    if text.contains(['e', 'E']) {
        return Err(format!("{text} is written with an exponent"));
    }
    let decimals = text.split_once('.').map_or(0, |(_, frac)| frac.len());
    if u32::try_from(decimals).ok() != Some(minor) {
        return Err(format!(
            "{text} has {decimals} decimals, the currency has {minor}"
        ));
    }
    if text.starts_with('-') && decimal(text).is_some_and(|d| d.is_zero()) {
        return Err(format!("{text} is a negative zero"));
    }
    Ok(())
}

/// Each expected `{type, loc}` is in `detail`; with `exact`, nothing else is.
fn check_errors(expected: &[Value], body: &Value, exact: bool) -> Result<(), String> {
    let detail = body
        .get("detail")
        .and_then(Value::as_array)
        .ok_or_else(|| format!("body has no detail list: {body}"))?;
    let matches = |e: &Value, d: &Value| {
        ["type", "loc"].iter().all(|k| match (e.get(k), d.get(k)) {
            (Some(ev), Some(dv)) => match_subset(ev, dv, "").is_ok(),
            _ => false,
        })
    };
    for e in expected {
        if !detail.iter().any(|d| matches(e, d)) {
            return Err(format!(
                "error {e} not found in detail {}",
                Value::Array(detail.clone())
            ));
        }
    }
    if exact {
        if let Some(extra) = detail
            .iter()
            .find(|d| !expected.iter().any(|e| matches(e, d)))
        {
            return Err(format!("unexpected error {extra} (errors_exact)"));
        }
    }
    Ok(())
}

/// The comparator's own rules, so that an example test fails for the right reason.
mod rules {
    use super::*;
    use crate::support::j;

    #[test]
    fn comparator_numbers_compare_as_decimals() {
        assert!(match_subset(&j("2"), &j("2.00"), "x").is_ok());
        assert!(match_subset(&j("1e2"), &j("100"), "x").is_ok());
        assert!(match_subset(&j("0.1"), &j("0.10"), "x").is_ok());
        assert!(match_subset(&j("4.2"), &j("4.21"), "x").is_err());
        assert!(match_subset(&j("1"), &j("\"1\""), "x").is_err());
    }

    #[test]
    fn comparator_body_is_a_subset_with_arrays_of_the_same_length() {
        let actual = j(r#"{"a": 1, "b": [{"x": 1, "y": 2}, {"x": 3}], "c": null}"#);
        assert!(match_subset(&j(r#"{"b": [{"x": 1}, {}]}"#), &actual, "body").is_ok());
        assert!(match_subset(&j(r#"{"c": null}"#), &actual, "body").is_ok());
        assert!(match_subset(&j(r#"{"b": [{"x": 1}]}"#), &actual, "body").is_err());
        assert!(match_subset(&j(r#"{"d": null}"#), &actual, "body").is_err());
        assert!(match_subset(&j(r#"{"a": {}}"#), &actual, "body").is_err());
    }

    #[test]
    fn comparator_amounts_carry_exactly_the_minor_unit_decimals() {
        let doc = |amount: &str| {
            j(&format!(
                r#"{{"currency": "EUR", "total_amount": {amount}, "lines": [{{"subtotal": 1.00, "allowance_charges": [{{"amount": 1.00, "rate": 5}}]}}]}}"#
            ))
        };
        assert!(check_document_amounts(&doc("4.20")).is_ok());
        assert!(check_document_amounts(&doc("0.00")).is_ok());
        assert!(check_document_amounts(&doc("null")).is_ok());
        assert!(check_document_amounts(&doc("4.2")).is_err());
        assert!(check_document_amounts(&doc("4")).is_err());
        assert!(check_document_amounts(&doc("4.200")).is_err());
        assert!(check_document_amounts(&doc("-0.00")).is_err());
        assert!(check_document_amounts(&doc("4.20e0")).is_err());
        let jpy = j(
            r#"{"currency": "JPY", "tax_amount": 1210, "vat_breakdown": [{"taxable_amount": 5.0}]}"#,
        );
        assert!(check_document_amounts(&jpy)
            .unwrap_err()
            .contains("vat_breakdown[0].taxable_amount"));
        let line_ac =
            j(r#"{"currency": "KWD", "lines": [{"allowance_charges": [{"amount": 1.25}]}]}"#);
        assert!(check_document_amounts(&line_ac).is_err());
    }

    #[test]
    fn comparator_errors_are_found_by_type_and_loc() {
        let body = j(
            r#"{"detail": [{"type": "missing", "loc": ["body", "lines", 0, "quantity"], "msg": "m"},
                            {"type": "extra_forbidden", "loc": ["body", "x"], "msg": "m"}]}"#,
        );
        let response = j(&format!(r#"{{"status": 422, "body": {body}}}"#));
        let one = j(
            r#"{"status": 422, "errors": [{"type": "missing", "loc": ["body", "lines", 0, "quantity"]}]}"#,
        );
        assert!(check_response(&response, &one).is_ok());
        let exact = j(
            r#"{"status": 422, "errors": [{"type": "missing", "loc": ["body", "lines", 0, "quantity"]}], "errors_exact": true}"#,
        );
        assert!(check_response(&response, &exact)
            .unwrap_err()
            .contains("extra_forbidden"));
        let wrong_loc = j(
            r#"{"status": 422, "errors": [{"type": "missing", "loc": ["body", "lines", 1, "quantity"]}]}"#,
        );
        assert!(check_response(&response, &wrong_loc).is_err());
        let short_loc =
            j(r#"{"status": 422, "errors": [{"type": "missing", "loc": ["body", "lines"]}]}"#);
        assert!(check_response(&response, &short_loc).is_err());
        let wrong_status = j(r#"{"status": 400}"#);
        assert!(check_response(&response, &wrong_status).is_err());
    }

    #[test]
    fn comparator_needs_one_response_per_expectation() {
        let result = j(r#"{"responses": [{"status": 200, "body": {}}]}"#);
        assert!(check_expectations(&result, &[j(r#"{"status": 200}"#)]).is_ok());
        assert!(check_expectations(&result, &[]).is_err());
        assert!(check_expectations(&j(r#"{"error": "missing today"}"#), &[]).is_err());
    }
}
