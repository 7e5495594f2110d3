//! Lines and allowances/charges as sent in a request body (docs/decisions.md §4, §8).

use super::fields::{
    fields_of, missing, number, number_in, object, one_of, one_of_in, string, string_in, Errors,
    JsonIn, NumberRule,
};
use crate::compute::{AllowanceCharge, AllowanceKind, AllowanceValue, LinePricing};
use crate::document::Line;
use crate::error::{ErrorCode, Loc, ValidationError};
use crate::money::Currency;
use crate::vat::VatCode;
use rust_decimal::Decimal;
use serde_json::value::RawValue;
use serde_json::{json, Value};

/// Most lines a request may carry (docs/interface.md Limits).
pub const MAX_LINES: usize = 500;
/// Most allowances/charges on a document or on one line.
pub const MAX_ALLOWANCE_CHARGES: usize = 50;

/// The keys a line may carry.
pub const LINE_KEYS: [&str; 12] = [
    "quantity",
    "unit_price",
    "vat_code",
    "vat_rate",
    "item_name",
    "item_description",
    "unit_code",
    "section_name",
    "item_properties",
    "item_identification",
    "product_code",
    "allowance_charges",
];
const LINE_DERIVED: &[&str] = &["sequence", "subtotal", "total", "tax_amount"];
const AC_KEYS: [&str; 5] = ["type", "amount", "rate", "reason", "code"];

const MAX_QUANTITY: Decimal = Decimal::from_parts(999_999_999, 0, 0, false, 0);
const MIN_QUANTITY: Decimal = Decimal::from_parts(999_999_999, 0, 0, true, 0);

fn rate_rule() -> NumberRule {
    NumberRule {
        gt: Some(Decimal::ZERO),
        le: Some(Decimal::ONE_HUNDRED),
        max_places: Some(4),
        ..NumberRule::default()
    }
}

/// Reads a list and checks its length; the items are read only when the length fits.
pub fn list<'a>(
    value: &'a Value,
    loc: &Loc,
    key: &str,
    min: usize,
    max: usize,
    errors: &mut Errors,
) -> Option<&'a Vec<Value>> {
    let Value::Array(items) = value else {
        errors.push_input(
            ErrorCode::ListType,
            loc.key(key),
            "input should be a valid list",
            value,
        );
        return None;
    };
    check_len(items.len(), loc, key, min, max, errors).then_some(items)
}

/// Checks a list's length: `too_short` below `min`, `too_long` above `max`.
pub fn check_len(
    len: usize,
    loc: &Loc,
    key: &str,
    min: usize,
    max: usize,
    errors: &mut Errors,
) -> bool {
    if len < min {
        errors.push_ctx(
            ErrorCode::TooShort,
            loc.key(key),
            format!(
                "list should have at least {min} item{}",
                if min == 1 { "" } else { "s" }
            ),
            None,
            json!({"min_length": min, "actual_length": len}),
        );
        return false;
    }
    if len > max {
        errors.push_ctx(
            ErrorCode::TooLong,
            loc.key(key),
            format!("list should have at most {max} items"),
            None,
            json!({"max_length": max, "actual_length": len}),
        );
        return false;
    }
    true
}

/// Reads a list of allowances/charges (at most 50). `currency` is the document's when
/// it is valid: fixed amounts are checked against its minor unit only then.
pub fn allowance_charges(
    value: &Value,
    loc: &Loc,
    key: &str,
    currency: Option<Currency>,
    errors: &mut Errors,
) -> Option<Vec<AllowanceCharge>> {
    let items = list(value, loc, key, 0, MAX_ALLOWANCE_CHARGES, errors)?;
    let before = errors.len();
    let list_loc = loc.key(key);
    let mut out = Vec::with_capacity(items.len());
    for (j, item) in items.iter().enumerate() {
        if let Some(ac) = allowance_charge(item, &list_loc, j, currency, errors) {
            out.push(ac);
        }
    }
    (errors.len() == before).then_some(out)
}

fn allowance_charge(
    value: &Value,
    list_loc: &Loc,
    j: usize,
    currency: Option<Currency>,
    errors: &mut Errors,
) -> Option<AllowanceCharge> {
    let obj = object(value, || list_loc.index(j), errors)?;
    let before = errors.len();
    let loc = list_loc.index(j);
    let [kind, amount, rate, reason, code] = fields_of(obj, &loc, &AC_KEYS, &[], errors);
    let kind = match kind {
        None => {
            missing(&loc, "type", errors);
            None
        }
        Some(v) => one_of(
            v,
            &loc,
            "type",
            AllowanceKind::parse,
            "'allowance' or 'charge'",
            errors,
        ),
    };
    let value = match (amount, rate) {
        (Some(a), None) => {
            let rule = NumberRule {
                gt: Some(Decimal::ZERO),
                max_places: currency.map(Currency::minor_unit),
                ..NumberRule::default()
            };
            number(a, &loc, "amount", rule, errors).map(AllowanceValue::Amount)
        }
        (None, Some(r)) => number(r, &loc, "rate", rate_rule(), errors).map(AllowanceValue::Rate),
        _ => {
            errors.push(
                ErrorCode::AmountOrRate,
                loc.clone(),
                "an allowance or charge needs exactly one of amount and rate",
            );
            None
        }
    };
    let reason = reason.and_then(|v| string(v, &loc, "reason", Some(255), errors));
    let code = code.and_then(|v| string(v, &loc, "code", Some(10), errors));
    if errors.len() != before {
        return None;
    }
    Some(AllowanceCharge {
        kind: kind?,
        value: value?,
        reason,
        code,
    })
}

/// Reads the lines of a request (1 to 500).
pub fn lines(
    value: &Value,
    loc: &Loc,
    currency: Option<Currency>,
    errors: &mut Errors,
) -> Option<Vec<Line>> {
    let items = list(value, loc, "lines", 1, MAX_LINES, errors)?;
    let before = errors.len();
    let list_loc = loc.key("lines");
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        if let Some(line) = line(item, &list_loc, i, currency, errors) {
            out.push(line);
        }
    }
    (errors.len() == before).then_some(out)
}

fn line(
    value: &Value,
    list_loc: &Loc,
    i: usize,
    currency: Option<Currency>,
    errors: &mut Errors,
) -> Option<Line> {
    let obj = object(value, || list_loc.index(i), errors)?;
    let before = errors.len();
    let loc = list_loc.index(i);
    let slots = fields_of(obj, &loc, &LINE_KEYS, LINE_DERIVED, errors);
    line_fields(slots, &loc, before, currency, errors)
}

/// Reads the lines of a typed pass: each line's values by [`LINE_KEYS`] (null read as
/// absent), the same rules and errors as [`lines`].
pub fn typed_lines(
    items: &[[Option<&RawValue>; 12]],
    loc: &Loc,
    currency: Option<Currency>,
    errors: &mut Errors,
) -> Option<Vec<Line>> {
    if !check_len(items.len(), loc, "lines", 1, MAX_LINES, errors) {
        return None;
    }
    let before = errors.len();
    let list_loc = loc.key("lines");
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let slots = item.map(|v| v.filter(|v| !JsonIn::is_null(*v)));
        let start = errors.len();
        if let Some(line) = line_fields(slots, &list_loc.index(i), start, currency, errors) {
            out.push(line);
        }
    }
    (errors.len() == before).then_some(out)
}

/// A line's quantity or unit price: required, from `ge` to the largest quantity,
/// at most 6 decimals.
fn required_number<'a, J: JsonIn<'a>>(
    value: Option<J>,
    loc: &Loc,
    key: &str,
    ge: Decimal,
    errors: &mut Errors,
) -> Option<Decimal> {
    let Some(v) = value else {
        missing(loc, key, errors);
        return None;
    };
    let rule = NumberRule {
        ge: Some(ge),
        le: Some(MAX_QUANTITY),
        max_places: Some(6),
        ..NumberRule::default()
    };
    number_in(v, loc, key, rule, errors)
}

/// A line's VAT code (docs/decisions.md §4): standard when absent; the reserved legacy
/// codes are refused.
fn line_vat_code<'a, J: JsonIn<'a>>(
    value: Option<J>,
    loc: &Loc,
    errors: &mut Errors,
) -> Option<VatCode> {
    let Some(v) = value else {
        return Some(VatCode::Standard);
    };
    match one_of_in(
        v,
        loc,
        "vat_code",
        VatCode::parse,
        "'standard', 'exempted', 'zero_rated', 'reverse_charge', 'intra_community', 'export' or 'not_subject'",
        errors,
    ) {
        Some(code) if code.is_reserved() => {
            errors.push_input(
                ErrorCode::VatCodeReserved,
                loc.key("vat_code"),
                format!("the vat code {code} is reserved for legacy documents and cannot be sent"),
                &v.value(),
            );
            None
        }
        other => other,
    }
}

/// A line's item properties: an object whose values are strings (each other value
/// refused at its key); kept as sent.
fn line_item_properties<'a, J: JsonIn<'a>>(
    value: Option<J>,
    loc: &Loc,
    errors: &mut Errors,
) -> Option<serde_json::Map<String, Value>> {
    let value = value.map(JsonIn::value);
    match value.as_deref() {
        None => None,
        Some(Value::Object(props)) => {
            let props_loc = loc.key("item_properties");
            for (k, v) in props {
                if !v.is_string() {
                    errors
                        .0
                        .push(ValidationError::not_string(props_loc.key(k), v));
                }
            }
            Some(props.clone())
        }
        Some(v) => {
            errors
                .0
                .push(ValidationError::not_object(loc.key("item_properties"), v));
            None
        }
    }
}

/// Reads one line from its values by [`LINE_KEYS`]; `before` is the error count
/// before the line's keys were checked (any error since refuses the line).
fn line_fields<'a, J: JsonIn<'a>>(
    slots: [Option<J>; 12],
    loc: &Loc,
    before: usize,
    currency: Option<Currency>,
    errors: &mut Errors,
) -> Option<Line> {
    let [quantity, unit_price, vat_code, vat_rate_value, item_name, item_description, unit_code, section_name, item_properties, item_identification, product_code, acs] =
        slots;
    let quantity = required_number(quantity, loc, "quantity", MIN_QUANTITY, errors);
    let unit_price = required_number(unit_price, loc, "unit_price", Decimal::ZERO, errors);
    let vat_code = line_vat_code(vat_code, loc, errors);
    let vat_rate = vat_rate(vat_rate_value, loc, vat_code, errors);
    let text = |value: Option<J>, key: &str, errors: &mut Errors| {
        value.and_then(|v| string_in(v, loc, key, None, errors))
    };
    let item_name = text(item_name, "item_name", errors);
    let item_description = text(item_description, "item_description", errors);
    let unit_code = text(unit_code, "unit_code", errors);
    let section_name = text(section_name, "section_name", errors);
    let item_identification = text(item_identification, "item_identification", errors);
    let product_code = text(product_code, "product_code", errors);
    let item_properties = line_item_properties(item_properties, loc, errors);
    let acs = match acs {
        None => Some(Vec::new()),
        Some(v) => allowance_charges(&v.value(), loc, "allowance_charges", currency, errors),
    };
    if errors.len() != before {
        return None;
    }
    Some(Line {
        pricing: LinePricing {
            quantity: quantity?,
            unit_price: unit_price?,
            vat_code: vat_code?,
            vat_rate: vat_rate?,
            allowance_charges: acs?,
        },
        item_name,
        item_description,
        unit_code,
        section_name,
        item_properties,
        item_identification,
        product_code,
    })
}

/// The VAT rule of docs/decisions.md §4 and §9: standard needs 0 < rate ≤ 100 with at most
/// 4 decimals; zero_rated and the exempt codes take 0 (absent means 0); not_subject
/// takes no rate at all. Returns `Some(rate)` when valid (`Some(None)` for
/// not_subject), `None` on an error.
#[allow(clippy::option_option)]
fn vat_rate<'a>(
    value: Option<impl JsonIn<'a>>,
    loc: &Loc,
    code: Option<VatCode>,
    errors: &mut Errors,
) -> Option<Option<Decimal>> {
    let value = value.filter(|v| !v.is_null());
    let Some(code) = code else {
        // The code is invalid: check the rate's shape alone.
        if let Some(v) = value {
            number_in(v, loc, "vat_rate", NumberRule::default(), errors);
        }
        return None;
    };
    match (code, value) {
        (VatCode::Standard, None) => {
            errors.push(
                ErrorCode::VatRateRequired,
                loc.key("vat_rate"),
                "a standard line needs a vat_rate above 0",
            );
            None
        }
        (VatCode::Standard, Some(v)) => {
            number_in(v, loc, "vat_rate", rate_rule(), errors).map(Some)
        }
        (VatCode::NotSubject, None) => Some(None),
        (VatCode::NotSubject, Some(v)) => {
            errors.push_input(
                ErrorCode::VatRateNotAllowed,
                loc.key("vat_rate"),
                "a not_subject line takes no vat_rate",
                &v.value(),
            );
            None
        }
        (_, None) => Some(Some(Decimal::ZERO)),
        (code, Some(v)) => {
            let rate = number_in(v, loc, "vat_rate", NumberRule::default(), errors)?;
            if rate.is_zero() {
                Some(Some(rate))
            } else {
                errors.push_input(
                    ErrorCode::VatRateNotAllowed,
                    loc.key("vat_rate"),
                    format!("{code} lines take vat_rate 0"),
                    &v.value(),
                );
                None
            }
        }
    }
}
