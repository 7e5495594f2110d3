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
mod tests {
    use super::*;

    proptest::proptest! {
        #[test]
        fn prop_a_number_without_exponent_reads_as_from_its_list_of_digits(
            negative: bool,
            int_digits in "[0-9]{0,28}",
            frac_digits in "[0-9]{0,28}",
        ) {
            // issue 12: the short path of `build` (no exponent, at most 28 digits) gives
            // exactly what the list of digits gives, zeros and scale included
            proptest::prop_assume!(int_digits.len() + frac_digits.len() <= 28);
            // Decimal's `==` compares values: the parts are compared, so a scale counts.
            let parts = |d: Decimal| (d.mantissa(), d.scale(), d.is_sign_negative());
            proptest::prop_assert_eq!(
                build(negative, &int_digits, &frac_digits, 0).map(parts),
                build_from_digits(negative, &int_digits, &frac_digits, 0).map(parts)
            );
        }
    }

    // Equivalent mutants (cargo mutants) in `build`; each only weakens a check that a
    // later one repeats with the same answer:
    // - `scale < 0` → `scale <= 0`: at scale 0 no zero is appended, and a number of
    //   more than 28 digits is TooLarge there as it is at the `int_len > 28` check.
    // - `zeros > 28 || digits.len() + zeros > 28` → `zeros == 28 || …`, `zeros >= 28
    //   || …` or `zeros > 28 && …`: since digits.len() ≥ 1 the first test only guards
    //   the allocation of a huge exponent; what it lets through is TooLarge at the
    //   `int_len > 28` check (int_len = digits.len() + zeros).
    // - `last == 0 && scale > 0` → `scale >= 0`: popping a zero at scale ≤ 0 keeps
    //   int_len = digits.len() − scale, which is already above 28, so TooLarge either way.

    #[test]
    fn numbers_are_read_exactly() {
        // docs/decisions.md §2: 0.1 stays 0.1; 1e2 is read as 100
        assert_eq!(parse_decimal("0.1").unwrap().to_string(), "0.1");
        assert_eq!(parse_decimal("1e2").unwrap().to_string(), "100");
        assert_eq!(parse_decimal("1e+2").unwrap().to_string(), "100");
        assert_eq!(parse_decimal("1E2").unwrap().to_string(), "100");
        assert_eq!(parse_decimal("12.50").unwrap().to_string(), "12.50");
        assert_eq!(parse_decimal("-0.125").unwrap().to_string(), "-0.125");
        assert_eq!(parse_decimal("2.5e-1").unwrap().to_string(), "0.25");
        assert_eq!(parse_decimal("007").unwrap().to_string(), "7");
        assert_eq!(parse_decimal(".5").unwrap().to_string(), "0.5");
        assert_eq!(parse_decimal("5.").unwrap().to_string(), "5");
        assert_eq!(parse_decimal("0.000").unwrap().to_string(), "0.000");
        assert_eq!(parse_decimal("0e5").unwrap().to_string(), "0");
    }

    #[test]
    fn malformed_texts_are_invalid() {
        for t in [
            "", "-", "+", ".", "e5", "1e", "1e+", "1,5", "1.2.3", "NaN", "inf", "0x10", "1 2", "١٢",
        ] {
            assert_eq!(parse_decimal(t), Err(NumberError::Invalid), "{t}");
        }
    }

    #[test]
    fn huge_and_tiny_numbers_are_told_apart() {
        assert_eq!(
            parse_decimal("1e400"),
            Err(NumberError::TooLarge { negative: false })
        );
        assert_eq!(
            parse_decimal("-1e29"),
            Err(NumberError::TooLarge { negative: true })
        );
        assert_eq!(
            parse_decimal("123456789012345678901234567890"),
            Err(NumberError::TooLarge { negative: false })
        );
        assert_eq!(parse_decimal("1e-400"), Err(NumberError::TooPrecise));
        assert_eq!(
            parse_decimal("0.10000000000000000000000000000000"),
            Ok("0.1000000000000000000000000000".parse().unwrap())
        );
        assert_eq!(
            parse_decimal("1e99999999999999999999999"),
            Err(NumberError::TooLarge { negative: false })
        );
        assert_eq!(
            parse_decimal("1e-99999999999999999999999"),
            Err(NumberError::TooPrecise)
        );
        assert_eq!(
            parse_decimal("0e-99999999999999999999999").unwrap(),
            Decimal::ZERO
        );
    }

    #[test]
    fn a_decimal_holds_28_digits_and_scale_28_exactly() {
        // docs/decisions.md §2: numbers are read exactly or refused; a number a decimal can
        // hold (28 significant digits, scale at most 28) is never refused, one beyond
        // is told apart as too large (integer digits) or too precise (decimals)
        let nines = |n: usize| "9".repeat(n);
        assert_eq!(parse_decimal(&nines(28)).unwrap().to_string(), nines(28));
        assert_eq!(
            parse_decimal(&nines(29)),
            Err(NumberError::TooLarge { negative: false })
        );
        assert_eq!(
            parse_decimal(&format!("-{}", nines(29))),
            Err(NumberError::TooLarge { negative: true })
        );
        // an exponent that appends zeros: 28 digits in all fit, 29 do not
        assert_eq!(
            parse_decimal("1e27").unwrap().to_string(),
            format!("1{}", "0".repeat(27))
        );
        assert_eq!(
            parse_decimal("1e28"),
            Err(NumberError::TooLarge { negative: false })
        );
        assert_eq!(
            parse_decimal("12e26").unwrap().to_string(),
            format!("12{}", "0".repeat(26))
        );
        assert_eq!(
            parse_decimal("12e27"),
            Err(NumberError::TooLarge { negative: false })
        );
        assert_eq!(parse_decimal("-1.5e2").unwrap().to_string(), "-150");
    }

    #[test]
    fn a_decimal_holds_scale_28_and_29_digits_are_too_precise() {
        // docs/decisions.md §2: past the 28 digits a decimal holds, a number is refused as
        // too precise, unless the digits beyond are trailing zeros
        let nines = |n: usize| "9".repeat(n);
        // the smallest step a decimal holds is 10^-28
        let tiny = format!("0.{}1", "0".repeat(27));
        assert_eq!(parse_decimal(&tiny).unwrap().to_string(), tiny);
        assert_eq!(parse_decimal("1e-28").unwrap().to_string(), tiny);
        assert_eq!(parse_decimal("1e-29"), Err(NumberError::TooPrecise));
        assert_eq!(
            parse_decimal(&format!("0.{}1", "0".repeat(28))),
            Err(NumberError::TooPrecise)
        );
        // 29 significant digits with a decimal: the integer part fits, the digits not
        assert_eq!(
            parse_decimal(&format!("{}.9", nines(28))),
            Err(NumberError::TooPrecise)
        );
        assert_eq!(
            parse_decimal(&format!("9.{}", nines(28))),
            Err(NumberError::TooPrecise)
        );
        assert_eq!(
            parse_decimal(&format!("9.{}", nines(27)))
                .unwrap()
                .to_string(),
            format!("9.{}", nines(27))
        );
        // trailing zeros beyond the 28 digits carry nothing and are dropped
        assert_eq!(
            parse_decimal(&format!("1.{}", "0".repeat(28)))
                .unwrap()
                .to_string(),
            format!("1.{}", "0".repeat(27))
        );
        assert_eq!(
            parse_decimal(&format!("{}.{}", nines(28), "0".repeat(5)))
                .unwrap()
                .to_string(),
            nines(28)
        );
        assert_eq!(
            parse_decimal(&format!("0.{}", "0".repeat(40)))
                .unwrap()
                .to_string(),
            format!("0.{}", "0".repeat(28))
        );
        // … but only down to what a decimal holds: the written scale stays 28
        assert_eq!(
            parse_decimal(&format!("0.1{}", "0".repeat(31)))
                .unwrap()
                .to_string(),
            format!("0.1{}", "0".repeat(27))
        );
        assert_eq!(
            parse_decimal(&format!("0.1{}", "0".repeat(27)))
                .unwrap()
                .to_string(),
            format!("0.1{}", "0".repeat(27))
        );
        // leading zeros carry nothing
        assert_eq!(
            parse_decimal(&format!("{}{}", "0".repeat(40), nines(28)))
                .unwrap()
                .to_string(),
            nines(28)
        );
    }

    #[test]
    fn signs_and_exponents_are_read_with_their_meaning() {
        // docs/decisions.md §2, §8: [+-]digits[.digits][(e|E)[+-]digits], read exactly
        assert_eq!(parse_decimal("+12.5").unwrap().to_string(), "12.5");
        assert_eq!(parse_decimal("-12.5").unwrap().to_string(), "-12.5");
        assert_eq!(parse_decimal("-7").unwrap().to_string(), "-7");
        assert_eq!(parse_decimal("25e-1").unwrap().to_string(), "2.5");
        assert_eq!(parse_decimal("25E-3").unwrap().to_string(), "0.025");
        assert_eq!(parse_decimal("2.5e+1").unwrap().to_string(), "25");
        assert_eq!(parse_decimal("1.25e1").unwrap().to_string(), "12.5");
        assert_eq!(parse_decimal("123e0").unwrap().to_string(), "123");
        assert_eq!(parse_decimal("1e10").unwrap().to_string(), "10000000000");
        assert_eq!(parse_decimal("12.345e-2").unwrap().to_string(), "0.12345");
        assert_eq!(parse_decimal("0.50").unwrap().to_string(), "0.50");
        assert_eq!(parse_decimal("-0.0").unwrap().to_string(), "0.0");
        assert_eq!(parse_decimal("0.0e1").unwrap().to_string(), "0");
        for t in [
            "--1", "+-1", "1e--2", "1e+-2", "1.2e3.4", "1e2e3", "12a", "1.5 ",
        ] {
            assert_eq!(parse_decimal(t), Err(NumberError::Invalid), "{t}");
        }
    }

    #[test]
    fn json_strings_and_numbers_read_alike() {
        let v: Value =
            serde_json::from_str(r#"[12.50, "12.50", " 12.50 ", "abc", null, [1]]"#).unwrap();
        assert_eq!(decimal_from_json(&v[0]).unwrap().to_string(), "12.50");
        assert_eq!(decimal_from_json(&v[1]).unwrap().to_string(), "12.50");
        assert_eq!(decimal_from_json(&v[2]).unwrap().to_string(), "12.50");
        assert_eq!(decimal_from_json(&v[3]), Err(NumberError::Invalid));
        assert_eq!(decimal_from_json(&v[4]), Err(NumberError::Invalid));
        assert_eq!(decimal_from_json(&v[5]), Err(NumberError::Invalid));
    }
}
