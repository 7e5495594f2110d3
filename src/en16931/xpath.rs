//! The arithmetic of XPath 2 as the artefacts' Schematron uses it (`normalize-space`,
//! `round`) and the artefacts' own functions (`u:gln`, `u:mod11`, `u:mod97-0208`,
//! `u:checkSEOrgnr`).
//!
//! `xs:decimal` arithmetic is exact; a `Decimal` holds 28 digits, so a sum or product
//! past that range has no value here: the checked functions answer `None`, and the
//! caller says what a rule does then (the received checks note the rule as not tested;
//! the writer's amounts stay below 10^15, where nothing overflows).

use rust_decimal::Decimal;

/// Whether a byte is XML white space (space, tab, CR, LF): the one test of it, for
/// the reader, the plans and the received values alike.
pub(crate) fn xml_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// A text without XML's white space (space, tab, CR, LF) around it.
pub(crate) fn trim_xml(s: &str) -> &str {
    // XML's white space is ASCII: cut at bytes, always at a char's boundary (a
    // `trim_matches` by char cost 74 instructions an amount, this about 15)
    let ws = |b: &u8| xml_space(*b);
    let b = s.as_bytes();
    let start = b.iter().position(|c| !ws(c)).unwrap_or(b.len());
    let end = b.iter().rposition(|c| !ws(c)).map_or(start, |i| i + 1);
    s.get(start..end).unwrap_or_default()
}

/// Where a text first holds another, in bytes (XPath's `contains`,
/// `substring-before` and `substring-after`): the needle's first byte is looked for,
/// then the rest compared. On an amount (`substring-after('10.50', '.')`, UBL-DT-01
/// and the BR-DEC rules), the standard library's two-way searcher costs about 220
/// instructions, most of them its set-up; a search by `memchr` about 140 (its
/// dispatch); this loop about 50. Past 256 bytes, `memchr::memmem`. A match is always
/// at a char's boundary: a UTF-8 needle starts with a leading byte.
pub(crate) fn find(haystack: &str, needle: &str) -> Option<usize> {
    let (h, n) = (haystack.as_bytes(), needle.as_bytes());
    let Some((&first, rest)) = n.split_first() else {
        return Some(0);
    };
    if h.len() > 256 {
        return memchr::memmem::find(h, n);
    }
    if rest.is_empty() {
        return h.iter().position(|&b| b == first);
    }
    let mut from = 0;
    while let Some(i) = h.get(from..)?.iter().position(|&b| b == first) {
        let at = from + i;
        if h.get(at + 1..at + n.len()) == Some(rest) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// The text before and after the first `needle` ([`find`]), as `str::split_once`.
pub(crate) fn split_once<'a>(haystack: &'a str, needle: &str) -> Option<(&'a str, &'a str)> {
    let at = find(haystack, needle)?;
    Some((haystack.get(..at)?, haystack.get(at + needle.len()..)?))
}

/// XPath's `normalize-space`: spaces, tabs, CR and LF collapsed and trimmed.
pub(crate) fn normalize_space(s: &str) -> std::borrow::Cow<'_, str> {
    let ws = |c: char| matches!(c, ' ' | '\t' | '\r' | '\n');
    // one pass for a text without a space (codes, amounts, most ids)
    if s.bytes().all(|b| b > b' ')
        || (!s.starts_with(ws)
            && !s.ends_with(ws)
            && !s.contains(['\t', '\r', '\n'])
            && !s.contains("  "))
    {
        return std::borrow::Cow::Borrowed(s);
    }
    std::borrow::Cow::Owned(
        s.split([' ', '\t', '\r', '\n'])
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// [`normalize_space`] of a text that may be owned (borrowed stays borrowed).
pub(crate) fn normalize_space_of(t: std::borrow::Cow<'_, str>) -> std::borrow::Cow<'_, str> {
    match t {
        std::borrow::Cow::Borrowed(s) => normalize_space(s),
        std::borrow::Cow::Owned(s) => std::borrow::Cow::Owned(normalize_space(&s).into_owned()),
    }
}

/// XPath's `upper-case`: a text already in upper case (`VAT`) is not copied.
pub(crate) fn upper_case(t: std::borrow::Cow<'_, str>) -> std::borrow::Cow<'_, str> {
    if t.bytes().all(|b| b.is_ascii() && !b.is_ascii_lowercase()) {
        t
    } else {
        std::borrow::Cow::Owned(t.to_uppercase())
    }
}

/// XPath's `round`: half toward positive infinity, ⌊d + 0.5⌋; `None` past the range.
pub(crate) fn round(d: Decimal) -> Option<Decimal> {
    d.checked_add(Decimal::new(5, 1)).map(|x| x.floor())
}

/// 10^20: below it, × 100 and + 0.5 stay exact in a `Decimal`.
const TEN_POW_20: Decimal = Decimal::from_parts(1_661_992_960, 1_808_227_885, 5, false, 0);

/// `round(x * 10 * 10) div 100`, as the CEN rules round a computed amount; `None`
/// past the range.
pub(crate) fn round2(d: Decimal) -> Option<Decimal> {
    // A value of at most two decimals, far from the range's end, is its own rounding:
    // × 100 is an integer, + 0.5 floors back to it, ÷ 100 gives the value again (the
    // callers compare values, not scales). Most amounts are such; the full path costs
    // a multiplication and a division.
    if d.scale() <= 2 && d.abs() < TEN_POW_20 {
        return Some(d);
    }
    d.checked_mul(Decimal::ONE_HUNDRED)
        .and_then(round)
        .and_then(|x| x.checked_div(Decimal::ONE_HUNDRED))
}

/// The artefacts' `u:slack(exp, val, slack)`: `exp + slack >= val and exp - slack <=
/// val`; `None` past the range.
pub(crate) fn slack(exp: Decimal, val: Decimal, slack: Decimal) -> Option<bool> {
    // Two values of at most 20 digits and 8 decimals: their difference is exact (at
    // most 28 digits) and nothing overflows, so the test is |exp − val| ≤ slack, one
    // subtraction and one comparison instead of two of each (amounts, quantities and
    // prices are such values; comparing decimals of other scales is what costs).
    let small = |d: Decimal| d.scale() <= 8 && d.mantissa().unsigned_abs() < 10_u128.pow(20);
    if small(exp) && small(val) {
        return Some((exp - val).abs() <= slack);
    }
    Some(exp.checked_add(slack)? >= val && exp.checked_sub(slack)? <= val)
}

/// The check digit of an ASCII digit string and the sum, modulo `modulus`, of its
/// other digits weighted by `weight` (counted from the right, 0 next to the check
/// digit); `None` when the string is empty.
fn weighted(v: &str, modulus: u32, weight: impl Fn(usize) -> u32) -> Option<(u32, u32)> {
    let mut digits = v.bytes().rev().map(|b| u32::from(b.wrapping_sub(b'0')));
    let check = digits.next()?;
    let sum = digits
        .enumerate()
        .fold(0, |acc, (i, x)| (acc + x % modulus * weight(i)) % modulus);
    Some((check, sum))
}

/// The GS1 check digit (`u:gln`).
pub(crate) fn gln(v: &str) -> bool {
    weighted(v, 10, |i| if i % 2 == 0 { 3 } else { 1 })
        .is_some_and(|(check, sum)| (10 - sum) % 10 == check)
}

/// The Norwegian organisation number check (`u:mod11`).
pub(crate) fn mod11(v: &str) -> bool {
    let weight = |i: usize| u32::try_from(i % 6).unwrap_or(0) + 2;
    v.bytes().any(|b| b != b'0')
        && weighted(v, 11, weight).is_some_and(|(check, sum)| (11 - sum) % 11 == check)
}

/// The Belgian enterprise number check (`u:mod97-0208`).
pub(crate) fn mod97_0208(v: &str) -> bool {
    let (Some(head), Some(tail)) = (v.get(..8), v.get(8..10)) else {
        return false;
    };
    match (head.parse::<u64>(), tail.parse::<u64>()) {
        (Ok(h), Ok(t)) => 97 - h % 97 == t,
        _ => false,
    }
}

/// The Australian Business Number check (`u:abn`) of eleven ASCII digits: the first
/// digit less one times 10, then each next digit times 1, 3, 5, …, 19, a multiple
/// of 89 (a sum below zero included, as XPath's `mod` keeps the dividend's sign).
pub(crate) fn abn(v: &str) -> bool {
    let b = v.as_bytes();
    if b.len() != 11 || !b.iter().all(u8::is_ascii_digit) {
        return false;
    }
    let weights = [10i64, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
    let sum: i64 = b
        .iter()
        .zip(weights)
        .enumerate()
        .map(|(i, (&d, w))| (i64::from(d - b'0') - i64::from(i == 0)) * w)
        .sum();
    sum % 89 == 0
}

/// `u:checkSEOrgnr`: the Luhn check of a Swedish organisation number.
pub(crate) fn swedish_orgnr(n: &str) -> bool {
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let main: Vec<u32> = n.bytes().take(9).map(|b| u32::from(b - b'0')).collect();
    let sum: u32 = main
        .iter()
        .rev()
        .enumerate()
        .map(|(i, d)| {
            if i % 2 == 0 {
                (d * 2) % 10 + (d * 2) / 10
            } else {
                *d
            }
        })
        .sum();
    let check = n.as_bytes().get(9).map(|b| u32::from(b - b'0'));
    check == Some((10 - sum % 10) % 10)
}

#[cfg(test)]
mod tests;
