use super::*;

/// PEPPOL-COMMON-R040 (GLN) and R041 (mod 11): the check digit of any length.
#[test]
fn check_digits_of_gln_and_mod11() {
    assert!(gln("5410000000019"));
    assert!(!gln("5410000000018"));
    assert!(gln("0"));
    assert!(mod11("974760673"));
    assert!(!mod11("974760674"));
    assert!(!mod11("000000000"));
    assert!(mod97_0208("0123456749"));
    assert!(!mod97_0208("0123456748"));
    let long = "9".repeat(100_000);
    let _ = gln(&long);
    let _ = mod11(&long);
}

/// XPath's `normalize-space`: trimmed, inner runs of spaces, tabs, CR and LF as one
/// space.
#[test]
fn normalize_space_trims_and_collapses_xml_whitespace() {
    assert_eq!(normalize_space("  a \n b  "), "a b");
    assert_eq!(normalize_space(" ab "), "ab");
    assert_eq!(normalize_space("a\t\r\nb"), "a b");
    assert_eq!(normalize_space("a\u{a0}b"), "a\u{a0}b");
}

/// XML's white space trimmed at both ends, and nothing else (a no-break space, a
/// vertical tab stay), whatever the text.
#[test]
fn trim_xml_cuts_xml_whitespace_only() {
    assert_eq!(trim_xml(" \t\r\n12.50\n "), "12.50");
    assert_eq!(trim_xml("\u{a0}1 2\u{b}"), "\u{a0}1 2\u{b}");
    assert_eq!(trim_xml(" \n "), "");
    assert_eq!(trim_xml(""), "");
    assert_eq!(trim_xml("é "), "é");
    proptest::proptest!(|(s in "[ \t\r\n\u{b}\u{a0}aé1.]{0,12}")| {
        let by_char = s.trim_matches(|c: char| matches!(c, ' ' | '\t' | '\r' | '\n'));
        proptest::prop_assert_eq!(trim_xml(&s), by_char);
    });
}

/// XPath's `round`: half toward positive infinity.
#[test]
fn xpath_round_is_half_toward_positive_infinity() {
    let d = |s: &str| s.parse::<Decimal>().unwrap_or_default();
    assert_eq!(round(d("0.5")), Some(d("1")));
    assert_eq!(round(d("-0.5")), Some(d("0")));
    assert_eq!(round(d("-1.5")), Some(d("-1")));
    assert_eq!(round2(d("1.005")), Some(d("1.01")));
    assert_eq!(round2(d("-1.005")), Some(d("-1")));
}

/// The short way of `round2` (at most two decimals, below 10^20) answers the value
/// the long way (× 100, round, ÷ 100) answers, on both sides of its bound.
#[test]
fn xpath_round2_of_two_decimals_is_the_value() {
    let long = |d: Decimal| {
        d.checked_mul(Decimal::ONE_HUNDRED)
            .and_then(round)
            .and_then(|x| x.checked_div(Decimal::ONE_HUNDRED))
    };
    assert_eq!(TEN_POW_20, Decimal::from(10u128.pow(20)));
    let values = "0 -0 1 0.5 -0.5 1.99 -1.99 0.01 -0.01 12345.6 1.005 7.000 -0.125 \
            99999999999999999999.99 -99999999999999999999.99 100000000000000000000 \
            -100000000000000000000.01";
    for text in values.split_whitespace() {
        let d = text.parse::<Decimal>().unwrap_or_default();
        assert_eq!(round2(d), long(d), "{text}");
    }
}

/// Past the 28 digits of a `Decimal` there is no value: `None`, never a wrapped or
/// clamped number (the caller decides what its rule does).
#[test]
fn xpath_arithmetic_past_the_decimal_range_has_no_value() {
    assert_eq!(round(Decimal::MAX), None);
    assert_eq!(round2(Decimal::MAX), None);
    assert_eq!(
        round2(Decimal::MAX / Decimal::ONE_HUNDRED * Decimal::TEN),
        None
    );
}

/// `u:slack` the short way (values of at most 20 digits and 8 decimals) answers what
/// the long way (exp ± slack against val) answers, on both sides of its bounds.
#[test]
fn xpath_slack_the_short_way_is_the_long_way() {
    let long =
        |e: Decimal, v: Decimal, s: Decimal| Some(e.checked_add(s)? >= v && e.checked_sub(s)? <= v);
    let d = |t: &str| t.parse::<Decimal>().unwrap_or_default();
    let values = "0 1 -1 0.02 -0.02 0.021 0.019 12.345 12.325 12.365 12.3651 \
        99999999999999999999 -99999999999999999999 100000000000000000000 \
        0.00000001 0.000000001 1.12345678 1.123456789 -7.5 7.52 7.48";
    for e in values.split_whitespace() {
        for v in values.split_whitespace() {
            for s in ["0.02", "0", "1"] {
                assert_eq!(
                    slack(d(e), d(v), d(s)),
                    long(d(e), d(v), d(s)),
                    "{e} {v} {s}"
                );
            }
        }
    }
    for (e, v) in [(Decimal::MAX, Decimal::ZERO), (Decimal::MIN, Decimal::MAX)] {
        assert_eq!(slack(e, v, d("0.02")), long(e, v, d("0.02")));
    }
}

/// XPath's `contains`, `substring-before` and `substring-after` find a text where the
/// standard library finds it: the first match, the empty needle at 0, in short and
/// long texts (past 256 bytes, `memmem`), with characters of several bytes.
#[test]
fn xpath_find_is_where_str_find_finds() {
    proptest::proptest!(|(h in "[a.éb€ ]{0,300}", n in "[a.éb€ ]{0,3}")| {
        proptest::prop_assert_eq!(find(&h, &n), h.find(n.as_str()));
        proptest::prop_assert_eq!(split_once(&h, &n), h.split_once(n.as_str()));
    });
    let long = format!("{}.5", "1".repeat(400));
    assert_eq!(find(&long, ".5"), Some(400));
    assert_eq!(split_once("10.50", "."), Some(("10", "50")));
    assert_eq!(split_once("1050", "."), None);
    assert_eq!(find("aab", "ab"), Some(1));
}
