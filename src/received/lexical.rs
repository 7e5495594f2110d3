//! The lexical forms a received UBL states its values in: `xs:decimal`, `xs:date`,
//! `xs:boolean`, and the whitespace rules of XPath's `normalize-space`.

use chrono::NaiveDate;
use rust_decimal::Decimal;

/// Whether the character is XML whitespace (space, tab, CR, LF).
pub(crate) fn is_xml_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

/// The text without its leading and trailing XML whitespace: the rules' own trim
/// (one for the engine and the received values).
pub(crate) use crate::en16931::xpath::trim_xml as trim;

/// An `xs:decimal` (surrounding whitespace allowed; optional sign; digits with at most
/// one point; no exponent), exactly, if it fits a `Decimal` (28 digits; trailing zeros
/// of the fraction beyond that are dropped, as they do not change the value). Negative
/// zero reads as zero at the same scale.
#[inline]
pub(crate) fn decimal(text: &str) -> Option<Decimal> {
    let t = trim(text);
    if t.len() <= 19 {
        short_decimal(t.as_bytes())
    } else {
        long_decimal(t)
    }
}

/// [`decimal`] of a trimmed text, digit by digit in 128 bits.
fn long_decimal(t: &str) -> Option<Decimal> {
    let (negative, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let (int, frac) = match body.split_once('.') {
        Some((i, f)) => (i, f),
        None => (body, ""),
    };
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    if !int.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let int = int.trim_start_matches('0');
    let mut frac = frac;
    // Drop trailing zeros of the fraction only when the value would not fit otherwise.
    while (frac.len() > 28 || int.len() + frac.len() > 28) && frac.ends_with('0') {
        frac = &frac[..frac.len() - 1];
    }
    let scale = u32::try_from(frac.len()).ok()?;
    if scale > 28 {
        return None;
    }
    let mut mantissa: i128 = 0;
    for b in int.bytes().chain(frac.bytes()) {
        mantissa = mantissa
            .checked_mul(10)?
            .checked_add(i128::from(b - b'0'))?;
        // A decimal's mantissa has 96 bits: stop early on a digit string too long.
        if mantissa > (1_i128 << 96) {
            return None;
        }
    }
    if negative {
        mantissa = -mantissa;
    }
    let mut value = Decimal::try_from_i128_with_scale(mantissa, scale).ok()?;
    if value.is_zero() {
        value.set_sign_positive(true);
    }
    Some(value)
}

/// [`decimal`] of a trimmed text of at most 19 bytes (its digits fit a `u64`), in
/// one pass.
fn short_decimal(t: &[u8]) -> Option<Decimal> {
    let (negative, body) = match t.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, t),
    };
    let mut mantissa: u64 = 0;
    let mut digits = 0_usize;
    let mut point = false;
    let mut scale = 0_u32;
    for &c in body {
        if c.is_ascii_digit() {
            mantissa = mantissa * 10 + u64::from(c - b'0');
            digits += 1;
            scale += u32::from(point);
        } else if c == b'.' && !point {
            point = true;
        } else {
            return None;
        }
    }
    if digits == 0 {
        return None;
    }
    let mut m = i128::from(mantissa);
    if negative {
        m = -m;
    }
    let mut value = Decimal::try_from_i128_with_scale(m, scale).ok()?;
    if value.is_zero() {
        value.set_sign_positive(true);
    }
    Some(value)
}

/// An `xs:date` `YYYY-MM-DD`, with an optional time zone (`Z`, `+hh:mm`, `-hh:mm`)
/// that is read and dropped; surrounding whitespace allowed.
pub(crate) fn date(text: &str) -> Option<NaiveDate> {
    let b = trim(text).as_bytes();
    if b.len() < 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let num = |s: &[u8]| -> Option<u32> {
        s.iter().try_fold(0_u32, |acc, &d| {
            d.is_ascii_digit().then(|| acc * 10 + u32::from(d - b'0'))
        })
    };
    let year = i32::try_from(num(&b[0..4])?).ok()?;
    let month = num(&b[5..7])?;
    let day = num(&b[8..10])?;
    let zone = &b[10..];
    let zone_ok = match zone {
        [] | [b'Z'] => true,
        [sign, h1, h2, b':', m1, m2] if *sign == b'+' || *sign == b'-' => {
            let hours = num(&[*h1, *h2]);
            let minutes = num(&[*m1, *m2]);
            matches!((hours, minutes), (Some(h), Some(m)) if (h < 14 && m < 60) || (h == 14 && m == 0))
        }
        _ => false,
    };
    if !zone_ok {
        return None;
    }
    NaiveDate::from_ymd_opt(year, month, day)
}

/// `normalize-space(cbc:ChargeIndicator)` as far as the reader looks at it: one of
/// the four `xs:boolean` forms, or another text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Indicator {
    /// `true`.
    True,
    /// `1`.
    One,
    /// `false`.
    False,
    /// `0`.
    Zero,
    /// Anything else.
    Other,
}

impl Indicator {
    /// The indicator a text states (`normalize-space` is one of the four forms
    /// exactly when the trimmed text is).
    pub(crate) fn of(text: &str) -> Indicator {
        match trim(text) {
            "true" => Indicator::True,
            "1" => Indicator::One,
            "false" => Indicator::False,
            "0" => Indicator::Zero,
            _ => Indicator::Other,
        }
    }

    /// Cast to a boolean, as XPath casts an untyped `xs:boolean` (`true`, `1`, `false`,
    /// `0`, surrounding whitespace allowed; anything else is neither).
    pub(crate) fn boolean(self) -> Option<bool> {
        match self {
            Indicator::True | Indicator::One => Some(true),
            Indicator::False | Indicator::Zero => Some(false),
            Indicator::Other => None,
        }
    }
}

/// Whether `normalize-space(upper-case(text))` is `VAT`.
pub(crate) fn is_vat_scheme(text: &str) -> bool {
    if text == "VAT" {
        // as nearly every document writes it: no trimming or case to look at
        true
    } else if text.is_ascii() {
        // ASCII: upper-casing is per byte, and `VAT` is one word
        trim(text).eq_ignore_ascii_case("VAT")
    } else {
        crate::en16931::xpath::normalize_space(&text.to_uppercase()) == "VAT"
    }
}

#[cfg(test)]
mod tests;
