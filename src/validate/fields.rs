//! Field readers: each reads one JSON value into a typed value or records the error
//! at its location. Locations are built only when an error is recorded, so a valid
//! request allocates none.

use crate::error::{ErrorCode, Loc, ValidationError};
use crate::number::{decimal_from_json, parse_decimal, NumberError};
use chrono::{Datelike, NaiveDate};
use rust_decimal::Decimal;
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};
use std::borrow::Cow;

/// A JSON value as the line readers take it: a `Value`, or the JSON text of one (a
/// line's values in the typed pass, [`super::typed::TypedBody`]). The readers take a
/// valid number or string straight from the text; anything else (another shape, an
/// escaped string, a value a rule refuses) is read as a `Value` and answered by the
/// `Value` readers, so both give the same answer and the same errors.
pub trait JsonIn<'a>: Copy {
    /// The value.
    fn value(self) -> Cow<'a, Value>;
    /// Whether the value is null.
    fn is_null(self) -> bool;
    /// The text of a JSON number.
    fn number_text(self) -> Option<&'a str>;
    /// A string's content, when it can be read without decoding (any string of a
    /// `Value`; a string with no escape in a JSON text).
    fn plain_str(self) -> Option<&'a str>;
}

impl<'a> JsonIn<'a> for &'a Value {
    fn value(self) -> Cow<'a, Value> {
        Cow::Borrowed(self)
    }
    fn is_null(self) -> bool {
        Value::is_null(self)
    }
    fn number_text(self) -> Option<&'a str> {
        match self {
            Value::Number(n) => Some(n.as_str()),
            _ => None,
        }
    }
    fn plain_str(self) -> Option<&'a str> {
        self.as_str()
    }
}

/// The text of a raw value the parser took has no whitespace around it.
impl<'a> JsonIn<'a> for &'a RawValue {
    fn value(self) -> Cow<'a, Value> {
        // Valid JSON by construction: the text of a value the parser took.
        Cow::Owned(serde_json::from_str(self.get()).unwrap_or_default())
    }
    fn is_null(self) -> bool {
        self.get() == "null"
    }
    fn number_text(self) -> Option<&'a str> {
        let text = self.get();
        matches!(text.as_bytes().first(), Some(b'-' | b'0'..=b'9')).then_some(text)
    }
    fn plain_str(self) -> Option<&'a str> {
        let inner = self.get().strip_prefix('"')?.strip_suffix('"')?;
        (!inner.contains('\\')).then_some(inner)
    }
}

/// Errors collected while reading one request.
#[derive(Debug, Default)]
pub struct Errors(pub Vec<ValidationError>);

/// The object `value` is, else a `dict_type` error at the place `at` builds (only
/// then: a place costs an allocation, and valid input builds none).
pub fn object<'a>(
    value: &'a Value,
    at: impl FnOnce() -> Loc,
    errors: &mut Errors,
) -> Option<&'a Map<String, Value>> {
    if let Value::Object(obj) = value {
        return Some(obj);
    }
    errors.0.push(ValidationError::not_object(at(), value));
    None
}

/// The string `value` is, else a `string_type` error at the place `at` builds.
pub fn text<'a>(
    value: &'a Value,
    at: impl FnOnce() -> Loc,
    errors: &mut Errors,
) -> Option<&'a str> {
    if let Value::String(s) = value {
        return Some(s);
    }
    errors.0.push(ValidationError::not_string(at(), value));
    None
}

impl Errors {
    /// Records an error.
    pub fn push(&mut self, code: ErrorCode, loc: Loc, msg: impl Into<String>) {
        self.0.push(ValidationError::new(code, loc, msg));
    }

    /// Records an error with the refused input.
    pub fn push_input(&mut self, code: ErrorCode, loc: Loc, msg: impl Into<String>, input: &Value) {
        self.0
            .push(ValidationError::new(code, loc, msg).with_input(input));
    }

    /// Records an error with the refused input and a context object.
    pub fn push_ctx(
        &mut self,
        code: ErrorCode,
        loc: Loc,
        msg: impl Into<String>,
        input: Option<&Value>,
        ctx: Value,
    ) {
        let mut e = ValidationError::new(code, loc, msg).with_ctx(ctx);
        if let Some(i) = input {
            e = e.with_input(i);
        }
        self.0.push(e);
    }

    /// How many errors so far.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no error was recorded.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// What an object holds under a key: nothing, null, or a value.
#[derive(Debug, Clone, Copy)]
pub enum Slot<'a> {
    /// The key is absent.
    Absent,
    /// The key holds null.
    Null,
    /// The key holds a value.
    Value(&'a Value),
}

impl<'a> Slot<'a> {
    /// What `obj` holds under `key`.
    pub fn of(obj: &'a Map<String, Value>, key: &str) -> Slot<'a> {
        match obj.get(key) {
            None => Slot::Absent,
            Some(Value::Null) => Slot::Null,
            Some(v) => Slot::Value(v),
        }
    }

    /// The value, with null read as absent (create's rule for optional fields).
    pub fn value(self) -> Option<&'a Value> {
        match self {
            Slot::Value(v) => Some(v),
            _ => None,
        }
    }
}

/// Checks the keys of an object: a derived key is `derived_field`, any key outside
/// `allowed` is `extra_forbidden`.
pub fn check_keys(
    obj: &Map<String, Value>,
    loc: &Loc,
    allowed: &[&str],
    derived: &[&str],
    errors: &mut Errors,
) {
    for (key, value) in obj {
        if !allowed.contains(&key.as_str()) {
            refuse_key(key, value, loc, derived, errors);
        }
    }
}

/// Records a key an object may not carry: `derived_field` for a derived one,
/// `extra_forbidden` for any other.
fn refuse_key(key: &str, value: &Value, loc: &Loc, derived: &[&str], errors: &mut Errors) {
    if derived.contains(&key) {
        errors.push_input(
            ErrorCode::DerivedField,
            loc.key(key),
            format!("{key} is derived by the service and cannot be sent"),
            value,
        );
    } else {
        errors.push_input(
            ErrorCode::ExtraForbidden,
            loc.key(key),
            "extra inputs are not permitted",
            value,
        );
    }
}

/// Records `missing` for a required field.
pub fn missing(loc: &Loc, key: &str, errors: &mut Errors) {
    errors.0.push(ValidationError::field_required(loc.key(key)));
}

/// Reads a string of at most `max` characters (counted as characters, not bytes).
pub fn string(
    value: &Value,
    loc: &Loc,
    key: &str,
    max: Option<usize>,
    errors: &mut Errors,
) -> Option<String> {
    let s = text(value, || loc.key(key), errors)?;
    if let Some(max) = max {
        // Count characters only when the byte length could exceed the limit.
        if s.len() > max && s.chars().count() > max {
            errors.push_ctx(
                ErrorCode::StringTooLong,
                loc.key(key),
                format!("string should have at most {max} characters"),
                Some(value),
                json!({"max_length": max}),
            );
            return None;
        }
    }
    Some(s.to_owned())
}

/// [`string`] of a value or of its text.
pub fn string_in<'a>(
    value: impl JsonIn<'a>,
    loc: &Loc,
    key: &str,
    max: Option<usize>,
    errors: &mut Errors,
) -> Option<String> {
    match value.plain_str() {
        Some(s) if max.is_none_or(|max| s.len() <= max) => Some(s.to_owned()),
        _ => string(&value.value(), loc, key, max, errors),
    }
}

/// Reads a `YYYY-MM-DD` date.
pub fn date(value: &Value, loc: &Loc, key: &str, errors: &mut Errors) -> Option<NaiveDate> {
    let parsed = match value {
        Value::String(s) => parse_date(s),
        _ => None,
    };
    if parsed.is_none() {
        errors.push_input(
            ErrorCode::DateParsing,
            loc.key(key),
            "input should be a valid date in the format YYYY-MM-DD",
            value,
        );
    }
    parsed
}

/// Reads a strict `YYYY-MM-DD` text as a calendar date from 0001-01-01 on.
pub fn parse_date(s: &str) -> Option<NaiveDate> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        b[r].iter().try_fold(0u32, |acc, &c| {
            c.is_ascii_digit().then(|| acc * 10 + u32::from(c - b'0'))
        })
    };
    let year = i32::try_from(num(0..4)?).ok()?;
    NaiveDate::from_ymd_opt(year, num(5..7)?, num(8..10)?).filter(|d| in_date_range(*d))
}

/// Whether a date lies in 0001-01-01 … 9999-12-31, the dates the interface writes
/// (ISO 8601 with a four-digit year). Year 0 is refused as pydantic refuses it.
pub fn in_date_range(date: NaiveDate) -> bool {
    (1..=9999).contains(&date.year())
}

/// The bounds and decimal places a number field takes.
#[derive(Debug, Clone, Copy, Default)]
pub struct NumberRule {
    /// Strictly greater than.
    pub gt: Option<Decimal>,
    /// Greater than or equal.
    pub ge: Option<Decimal>,
    /// Less than or equal.
    pub le: Option<Decimal>,
    /// At most so many decimals, trailing zeros aside.
    pub max_places: Option<u32>,
}

impl NumberRule {
    /// Whether the rule takes `d`: what [`number`] checks once `d` is read.
    fn accepts(&self, d: Decimal) -> bool {
        self.gt.is_none_or(|b| d > b)
            && self.ge.is_none_or(|b| d >= b)
            && self.le.is_none_or(|b| d <= b)
            && self.max_places.is_none_or(|p| within_places(d, p))
    }
}

/// The bound of `rule` that `d` breaks, range first: `gt`, `ge`, then `le`.
fn broken_bound(rule: NumberRule, d: Decimal) -> Option<(ErrorCode, Decimal)> {
    match (rule.gt, rule.ge, rule.le) {
        (Some(b), _, _) if d <= b => Some((ErrorCode::GreaterThan, b)),
        (_, Some(b), _) if d < b => Some((ErrorCode::GreaterThanEqual, b)),
        (_, _, Some(b)) if d > b => Some((ErrorCode::LessThanEqual, b)),
        _ => None,
    }
}

/// The error of a number outside its range (`code` is `greater_than`,
/// `greater_than_equal` or `less_than_equal`).
fn range_error(errors: &mut Errors, at: Loc, value: &Value, code: ErrorCode, bound: Decimal) {
    let (msg, ctx) = match code {
        ErrorCode::GreaterThan => (
            format!("input should be greater than {bound}"),
            json!({"gt": bound.to_string()}),
        ),
        ErrorCode::GreaterThanEqual => (
            format!("input should be greater than or equal to {bound}"),
            json!({"ge": bound.to_string()}),
        ),
        _ => (
            format!("input should be less than or equal to {bound}"),
            json!({"le": bound.to_string()}),
        ),
    };
    errors.push_ctx(code, at, msg, Some(value), ctx);
}

/// The error of a number with more decimals than allowed.
fn places_error(errors: &mut Errors, at: Loc, value: &Value, places: u32) {
    errors.push_ctx(
        ErrorCode::DecimalMaxPlaces,
        at,
        format!("decimal input should have no more than {places} decimal places"),
        Some(value),
        json!({"decimal_places": places}),
    );
}

/// Reads a number (JSON number or decimal string) and checks it against `rule`: one
/// error at most, range before decimal places.
pub fn number(
    value: &Value,
    loc: &Loc,
    key: &str,
    rule: NumberRule,
    errors: &mut Errors,
) -> Option<Decimal> {
    let d = match decimal_from_json(value) {
        Ok(d) => d,
        Err(NumberError::Invalid) => {
            errors.push_input(
                ErrorCode::DecimalParsing,
                loc.key(key),
                "input should be a valid decimal number",
                value,
            );
            return None;
        }
        Err(NumberError::TooLarge { negative }) => {
            let bound = match (negative, rule.gt, rule.ge, rule.le) {
                (true, Some(b), _, _) => Some((ErrorCode::GreaterThan, b)),
                (true, None, Some(b), _) => Some((ErrorCode::GreaterThanEqual, b)),
                (false, _, _, Some(b)) => Some((ErrorCode::LessThanEqual, b)),
                _ => None,
            };
            match bound {
                Some((code, b)) => range_error(errors, loc.key(key), value, code, b),
                None => errors.push_input(
                    ErrorCode::DecimalParsing,
                    loc.key(key),
                    "input is too large for a decimal number",
                    value,
                ),
            }
            return None;
        }
        Err(NumberError::TooPrecise) => {
            places_error(errors, loc.key(key), value, rule.max_places.unwrap_or(28));
            return None;
        }
    };
    if let Some((code, b)) = broken_bound(rule, d) {
        range_error(errors, loc.key(key), value, code, b);
        return None;
    }
    if let Some(places) = rule.max_places {
        if !within_places(d, places) {
            places_error(errors, loc.key(key), value, places);
            return None;
        }
    }
    Some(d)
}

/// Whether `d` has at most `places` decimals, trailing zeros aside.
fn within_places(d: Decimal, places: u32) -> bool {
    d.scale() <= places || d.normalize().scale() <= places
}

/// [`number`] of a value or of its text.
pub fn number_in<'a>(
    value: impl JsonIn<'a>,
    loc: &Loc,
    key: &str,
    rule: NumberRule,
    errors: &mut Errors,
) -> Option<Decimal> {
    // decimal_from_json's reading: a number's text, or a string's trimmed content
    let text = value
        .number_text()
        .or_else(|| value.plain_str().map(str::trim));
    match text.and_then(|t| parse_decimal(t).ok()) {
        Some(d) if rule.accepts(d) => Some(d),
        _ => number(&value.value(), loc, key, rule, errors),
    }
}

/// [`one_of`] of a value or of its text.
pub fn one_of_in<'a, T>(
    value: impl JsonIn<'a>,
    loc: &Loc,
    key: &str,
    parse: impl Fn(&str) -> Option<T>,
    expected: &str,
    errors: &mut Errors,
) -> Option<T> {
    match value.plain_str().and_then(&parse) {
        Some(parsed) => Some(parsed),
        None => one_of(&value.value(), loc, key, parse, expected, errors),
    }
}

/// Reads one value of a closed set of strings.
pub fn one_of<T>(
    value: &Value,
    loc: &Loc,
    key: &str,
    parse: impl Fn(&str) -> Option<T>,
    expected: &str,
    errors: &mut Errors,
) -> Option<T> {
    let s = text(value, || loc.key(key), errors)?;
    let parsed = parse(s);
    if parsed.is_none() {
        errors.push_ctx(
            ErrorCode::Enum,
            loc.key(key),
            format!("input should be {expected}"),
            Some(value),
            json!({"expected": expected}),
        );
    }
    parsed
}

/// A field of a request body once read: absent, null, sent but invalid (its error is
/// recorded), or valid.
#[derive(Debug, Clone, PartialEq)]
pub enum Field<T> {
    /// Not sent.
    Absent,
    /// Sent as null.
    Null,
    /// Sent, and refused.
    Invalid,
    /// Sent and valid.
    Valid(T),
}

impl<T> Field<T> {
    /// Reads the field in `slot` with `read`.
    pub fn read(slot: Slot<'_>, read: impl FnOnce(&Value) -> Option<T>) -> Field<T> {
        match slot {
            Slot::Absent => Field::Absent,
            Slot::Null => Field::Null,
            Slot::Value(v) => read(v).map_or(Field::Invalid, Field::Valid),
        }
    }

    /// The value if valid.
    pub fn valid(&self) -> Option<&T> {
        match self {
            Field::Valid(v) => Some(v),
            _ => None,
        }
    }

    /// The value if valid, by value.
    pub fn into_valid(self) -> Option<T> {
        match self {
            Field::Valid(v) => Some(v),
            _ => None,
        }
    }

    /// Whether the field was sent and refused.
    pub fn is_invalid(&self) -> bool {
        matches!(self, Field::Invalid)
    }

    /// Whether the field was sent (null included).
    pub fn is_sent(&self) -> bool {
        !matches!(self, Field::Absent)
    }
}

/// Reads the keys of an object in one pass: the non-null value of each `allowed` key
/// lands in its slot (null reads as absent), a `derived` key is `derived_field`, any
/// other key `extra_forbidden`. One walk over the object instead of a look-up per key
/// keeps wide bodies of many lines cheap.
pub fn fields_of<'a, const N: usize>(
    obj: &'a Map<String, Value>,
    loc: &Loc,
    allowed: &[&str; N],
    derived: &[&str],
    errors: &mut Errors,
) -> [Option<&'a Value>; N] {
    let mut slots = [None; N];
    for (key, value) in obj {
        if let Some(i) = allowed.iter().position(|k| *k == key.as_str()) {
            if !value.is_null() {
                slots[i] = Some(value);
            }
        } else {
            refuse_key(key, value, loc, derived, errors);
        }
    }
    slots
}
