//! Exact reading of numbers: a JSON number, or a string holding a decimal number
//! (`"12.50"`, as pydantic's lax mode allows), read digit by digit into a
//! [`Decimal`] without ever passing through a float (docs/decisions.md §2, §8).
//!
//! `0.1` stays `0.1`, `12.50` keeps its scale, `1e2` is read as `100` and `1.5e-3` as
//! `0.0015`. A number too large for any field, or with more decimals than a
//! decimal can hold, is not a parsing error: it is told apart so that the field's
//! range or decimal-places rule can answer for it.

use rust_decimal::Decimal;
use serde_json::Value;

/// Why a value could not be read as an exact decimal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumberError {
    /// Not a number: another JSON type, or a text that is not a decimal number.
    Invalid,
    /// A well-formed number whose magnitude is beyond what a decimal holds
    /// (more than 28 integer digits). `negative` tells its sign.
    TooLarge {
        /// Whether the number is negative.
        negative: bool,
    },
    /// A well-formed number with more significant decimals than a decimal holds.
    TooPrecise,
}

/// Reads a decimal number written as `[+-]digits[.digits][(e|E)[+-]digits]`.
///
/// ```
/// use invoicing_core::number::parse_decimal;
/// assert_eq!(parse_decimal("0.1").unwrap().to_string(), "0.1");
/// assert_eq!(parse_decimal("12.50").unwrap().to_string(), "12.50");
/// assert_eq!(parse_decimal("1e2").unwrap().to_string(), "100");
/// assert_eq!(parse_decimal("1.5e-3").unwrap().to_string(), "0.0015");
/// assert!(parse_decimal("1,5").is_err());
/// ```
pub fn parse_decimal(text: &str) -> Result<Decimal, NumberError> {
    let bytes = text.as_bytes();
    let mut pos = 0;
    let negative = match bytes.first() {
        Some(b'-') => {
            pos = 1;
            true
        }
        Some(b'+') => {
            pos = 1;
            false
        }
        _ => false,
    };
    let int_start = pos;
    while pos < bytes.len() && bytes[pos].is_ascii_digit() {
        pos += 1;
    }
    let int_digits = &text[int_start..pos];
    let mut frac_digits = "";
    if pos < bytes.len() && bytes[pos] == b'.' {
        pos += 1;
        let frac_start = pos;
        while pos < bytes.len() && bytes[pos].is_ascii_digit() {
            pos += 1;
        }
        frac_digits = &text[frac_start..pos];
    }
    if int_digits.is_empty() && frac_digits.is_empty() {
        return Err(NumberError::Invalid);
    }
    let mut exponent: i64 = 0;
    if pos < bytes.len() && (bytes[pos] == b'e' || bytes[pos] == b'E') {
        pos += 1;
        let exp_negative = match bytes.get(pos) {
            Some(b'-') => {
                pos += 1;
                true
            }
            Some(b'+') => {
                pos += 1;
                false
            }
            _ => false,
        };
        let exp_start = pos;
        while pos < bytes.len() && bytes[pos].is_ascii_digit() {
            // Saturate: an exponent this large is beyond any decimal anyway.
            exponent = exponent
                .saturating_mul(10)
                .saturating_add(i64::from(bytes[pos] - b'0'));
            pos += 1;
        }
        if pos == exp_start {
            return Err(NumberError::Invalid);
        }
        if exp_negative {
            exponent = -exponent;
        }
    }
    if pos != bytes.len() {
        return Err(NumberError::Invalid);
    }
    build(negative, int_digits, frac_digits, exponent)
}

/// Puts sign, digits and exponent together as a decimal, exactly or not at all.
fn build(
    negative: bool,
    int_digits: &str,
    frac_digits: &str,
    exponent: i64,
) -> Result<Decimal, NumberError> {
    // Most numbers: no exponent and at most 28 digits, below 10^28, which a decimal
    // holds at the scale written: read without a list of digits.
    if exponent == 0 && int_digits.len() + frac_digits.len() <= 28 {
        let mut mantissa: i128 = 0;
        for b in int_digits.bytes().chain(frac_digits.bytes()) {
            mantissa = mantissa * 10 + i128::from(b - b'0');
        }
        if negative {
            mantissa = -mantissa;
        }
        let scale = u32::try_from(frac_digits.len()).map_err(|_| NumberError::TooPrecise)?;
        return Decimal::try_from_i128_with_scale(mantissa, scale)
            .map_err(|_| NumberError::TooLarge { negative });
    }
    build_from_digits(negative, int_digits, frac_digits, exponent)
}

/// [`build`] for any number: from the list of its significant digits.
fn build_from_digits(
    negative: bool,
    int_digits: &str,
    frac_digits: &str,
    exponent: i64,
) -> Result<Decimal, NumberError> {
    // All significant digits, and the scale they are written at.
    let mut digits: Vec<u8> = int_digits
        .bytes()
        .chain(frac_digits.bytes())
        .map(|b| b - b'0')
        .collect();
    let frac_len = i64::try_from(frac_digits.len()).unwrap_or(i64::MAX);
    let mut scale: i64 = frac_len.saturating_sub(exponent);
    // Leading zeros carry nothing.
    let first_nonzero = digits.iter().position(|&d| d != 0);
    let Some(first) = first_nonzero else {
        // Zero: keep the written scale when a decimal can hold it.
        let s = u32::try_from(scale.clamp(0, 28)).unwrap_or(0);
        return Ok(Decimal::new(0, s));
    };
    digits.drain(..first);
    // A negative scale means trailing zeros to append.
    if scale < 0 {
        let zeros = usize::try_from(-scale).unwrap_or(usize::MAX);
        // The integer part has digits.len() + zeros digits.
        if zeros > 28 || digits.len() + zeros > 28 {
            return Err(NumberError::TooLarge { negative });
        }
        digits.extend(std::iter::repeat_n(0, zeros));
        scale = 0;
    }
    // Too many decimals for a decimal: drop trailing zeros, which carry nothing.
    while scale > 28 || digits.len() > 28 {
        if digits.last() == Some(&0) && scale > 0 {
            digits.pop();
            scale -= 1;
        } else {
            break;
        }
    }
    let int_len = i64::try_from(digits.len()).unwrap_or(i64::MAX) - scale;
    if int_len > 28 {
        return Err(NumberError::TooLarge { negative });
    }
    if scale > 28 || digits.len() > 28 {
        return Err(NumberError::TooPrecise);
    }
    let mut mantissa: i128 = 0;
    for d in &digits {
        mantissa = mantissa * 10 + i128::from(*d);
    }
    if negative {
        mantissa = -mantissa;
    }
    let scale = u32::try_from(scale).map_err(|_| NumberError::TooPrecise)?;
    Decimal::try_from_i128_with_scale(mantissa, scale)
        .map_err(|_| NumberError::TooLarge { negative })
}

/// Reads a JSON value as an exact decimal: a JSON number, or a string holding a
/// decimal number (surrounding white space allowed). Booleans, null, lists and
/// objects are [`NumberError::Invalid`].
///
/// ```
/// use invoicing_core::number::decimal_from_json;
/// let v: serde_json::Value = serde_json::from_str(r#"[0.1, "12.50", true]"#).unwrap();
/// assert_eq!(decimal_from_json(&v[0]).unwrap().to_string(), "0.1");
/// assert_eq!(decimal_from_json(&v[1]).unwrap().to_string(), "12.50");
/// assert!(decimal_from_json(&v[2]).is_err());
/// ```
pub fn decimal_from_json(value: &Value) -> Result<Decimal, NumberError> {
    match value {
        Value::Number(n) => parse_decimal(n.as_str()),
        Value::String(s) => parse_decimal(s.trim()),
        _ => Err(NumberError::Invalid),
    }
}

#[cfg(test)]
mod tests;
