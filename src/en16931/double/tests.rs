//! The values are Saxon's own (the official validator's XPath engine, `saxonche`),
//! each written beside its expression.

use super::{Binary, Double};
use rust_decimal::Decimal;

fn d(text: &str) -> Decimal {
    text.parse()
        .unwrap_or_else(|_| panic!("{text} is a decimal"))
}

fn num(text: &str) -> Double {
    Double::parse(text).unwrap_or_else(|| panic!("{text} is a double"))
}

#[test]
fn an_untyped_value_plus_one_is_the_exact_value_of_a_double_not_a_decimal() {
    // xs:decimal(number('4999.01') + 1) = 5000.010000000000218278728425502777099609375:
    // BR-S-08's `xs:decimal(cbc:TaxableAmount + 1)` is above a sum of exactly 5000.01
    let v = num("4999.01").add(Double::of(Decimal::ONE));
    assert_eq!(v.decimal(), Some(d("5000.0100000000002182787284255")));
    assert!(v.decimal() > Some(d("5000.01")));
    assert_eq!(v.string(), "5000.01");
    // xs:decimal(number('0.1')) = 0.1000000000000000055511151231257827021181583404541015625
    assert_eq!(
        num("0.1").decimal(),
        Some(d("0.1000000000000000055511151231"))
    );
}

#[test]
fn a_decimal_rounds_to_the_nearest_double_ties_to_even() {
    let nearest = |text: &str| Double::of(d(text)).decimal();
    // 2^53 + 1 and 2^53 + 3 are halfway between doubles
    assert_eq!(nearest("9007199254740993"), Some(d("9007199254740992")));
    assert_eq!(nearest("9007199254740995"), Some(d("9007199254740996")));
    assert_eq!(
        nearest("9007199254740993.0001"),
        Some(d("9007199254740994"))
    );
    // exact binary fractions are their own
    assert_eq!(nearest("0.5"), Some(d("0.5")));
    assert_eq!(nearest("-1234.125"), Some(d("-1234.125")));
    assert_eq!(Double::of(Decimal::MAX), Double::Inf(false));
    assert_eq!(Double::of(Decimal::MIN), Double::Inf(true));
}

#[test]
fn a_double_is_written_as_xpath_writes_it() {
    let cases = [
        ("0.1", "0.1"),
        ("12.50", "12.5"),
        ("123456.7", "123456.7"),
        ("1234567", "1.234567E6"),
        ("1e-7", "1.0E-7"),
        ("0.000001", "0.000001"),
        ("1e20", "1.0E20"),
        ("-2.5e-8", "-2.5E-8"),
        (" 12 ", "12"),
        ("5.", "5"),
        (".5", "0.5"),
        ("+1.5", "1.5"),
    ];
    for (text, written) in cases {
        assert_eq!(num(text).string(), written, "{text}");
    }
    // string(number('0.1') + number('0.2')), string(number('0.1') * 3)
    assert_eq!(num("0.1").add(num("0.2")).string(), "0.30000000000000004");
    assert_eq!(
        num("0.1").mul(Double::of(d("3"))).string(),
        "0.30000000000000004"
    );
    assert_eq!(num("1e5").mul(Double::of(d("3"))).string(), "300000");
}

#[test]
fn infinities_and_nan_are_read_and_kept_as_xpath_keeps_them() {
    for (text, v) in [
        ("INF", Double::Inf(false)),
        ("+INF", Double::Inf(false)),
        ("-INF", Double::Inf(true)),
        ("1e400", Double::Inf(false)),
        ("-1e400", Double::Inf(true)),
    ] {
        assert_eq!(num(text), v, "{text}");
    }
    assert!(num("NaN").is_nan());
    assert_eq!(num("1e-400"), Double::of(Decimal::ZERO));
    for bad in ["", "abc", "1.2.3", "1e", "e5", "--1", "1 2", "inf"] {
        assert_eq!(Double::parse(bad), None, "{bad}");
    }
    let one = Double::of(Decimal::ONE);
    let zero = Double::of(Decimal::ZERO);
    assert_eq!(one.div(zero), Double::Inf(false));
    assert_eq!(one.negate().div(zero), Double::Inf(true));
    assert!(zero.div(zero).is_nan());
    assert!(Double::Inf(false).add(Double::Inf(true)).is_nan());
    assert!(Double::Inf(false).mul(zero).is_nan());
    assert_eq!(one.div(Double::Inf(false)), zero);
    assert_eq!(Double::Inf(true).string(), "-INF");
    assert!(!Double::NaN.truthy() && !zero.truthy() && Double::Inf(true).truthy());
    assert_eq!(Double::NaN.compare(one), None);
    assert!(Double::Inf(true)
        .compare(one)
        .is_some_and(std::cmp::Ordering::is_lt));
}

#[test]
fn mod_keeps_the_sign_of_the_dividend_and_round_is_exact() {
    // string(number('7') mod number('-2')) = 1
    assert_eq!(num("7").rem(num("-2")).string(), "1");
    assert_eq!(num("-7").rem(num("2")).string(), "-1");
    assert!(num("7").rem(num("0")).is_nan());
    // round(number('0.49999999999999994')) = 0, round(number('2.5')) = 3
    let round = |x: Double| x.map(crate::en16931::xpath::round);
    assert_eq!(round(num("0.49999999999999994")).string(), "0");
    assert_eq!(round(num("2.5")).string(), "3");
}

/// A double's IEEE 754 bit pattern, computed with integers.
fn bits(x: Double) -> u64 {
    match x {
        Double::NaN => 0x7ff8_0000_0000_0000,
        Double::Inf(negative) => u64::from(negative) << 63 | 0x7ff0_0000_0000_0000,
        Double::Finite(b) if b.significand == 0 => 0,
        Double::Finite(Binary {
            negative,
            significand,
            exponent,
        }) => {
            let field = u64::try_from(exponent + 52 + 1023).unwrap_or(0);
            u64::from(negative) << 63 | field << 52 | (significand - (1 << 52))
        }
    }
}

/// Every operation rounds as IEEE 754 binary64 does, checked bit for bit against
/// 2 000 pairs of decimals whose results the machine's own doubles gave
/// (`tests/fixtures/double/oracle.txt`, written by `tools/double_oracle.py` with
/// Python's floats: the crate computes no float, here either). Among them 0.1 + 0.2,
/// 0.1 × 3 and sums that lie exactly halfway between two doubles; the check fails when
/// ties round away from zero.
#[test]
fn every_operation_rounds_as_ieee_754_binary64() {
    let oracle = include_str!("../../../tests/fixtures/double/oracle.txt");
    let mut checked = 0;
    for line in oracle.lines() {
        let fields: Vec<&str> = line.split(' ').collect();
        let [a, b, add, sub, mul, div, rem, digits] = fields.as_slice() else {
            panic!("a line of 8 fields: {line}");
        };
        let (x, y) = (num(a), num(b));
        let results = [x.add(y), x.sub(y), x.mul(y), x.div(y), x.rem(y)];
        for (name, (ours, theirs)) in ["+", "-", "*", "div", "mod"]
            .iter()
            .zip(results.into_iter().zip([add, sub, mul, div, rem]))
        {
            match *theirs {
                "-" => {}
                "nan" => assert!(ours.is_nan(), "{a} {name} {b}: {ours:?}"),
                hex => {
                    let theirs = u64::from_str_radix(hex, 16).unwrap_or_default();
                    assert_eq!(bits(ours), theirs, "{a} {name} {b}: {ours:?}");
                    checked += 1;
                }
            }
        }
        // the shortest digits that read back
        if *digits != "-" {
            let ours: String = x
                .string()
                .split('E')
                .next()
                .unwrap_or("")
                .chars()
                .filter(char::is_ascii_digit)
                .collect();
            let ours = ours.trim_matches('0');
            assert_eq!(ours, *digits, "the digits of {a}: {}", x.string());
            assert_eq!(Double::parse(&x.string()), Some(x), "{a} reads back");
        }
    }
    assert!(checked > 8_000, "{checked} results checked");
}

/// Any text is read without a panic, however long its digits or large its exponent;
/// a magnitude past a `Decimal` is an infinity (1 or more) or zero.
#[test]
fn any_text_is_read_or_refused_without_a_panic() {
    for (text, v) in [
        ("1e999999", Some(Double::Inf(false))),
        ("-1e9999999999999999999999", Some(Double::Inf(true))),
        ("1e-999999", Some(Double::of(Decimal::ZERO))),
        ("0.000e999999", Some(Double::of(Decimal::ZERO))),
        (
            "99999999999999999999999999999999e-5",
            Some(num("999999999999999999999999999.99999")),
        ),
        (
            "123456789012345678901234567890123456789",
            Some(Double::Inf(false)),
        ),
        (
            "0.00000000000000000000000000000000001",
            Some(Double::of(Decimal::ZERO)),
        ),
        // read to 28 places after the point, as a `Decimal` holds it
        (
            "0.00000000000000000000000001234567890123456789e0",
            Some(num("0.0000000000000000000000000123")),
        ),
        (
            "79228162514264337593543950336000e-3",
            Some(Double::Inf(false)),
        ),
        ("1e+3", Some(num("1000"))),
        ("1E-2", Some(num("0.01"))),
        ("-", None),
        (".", None),
        ("+-1", None),
        ("1e+-3", None),
        ("１", None),
    ] {
        assert_eq!(Double::parse(text), v, "{text}");
    }
    proptest::proptest!(|(text in "[-+0-9.eE INFa]{0,40}")| {
        let _ = Double::parse(&text).map(Double::string);
    });
}

/// The usual text's reading (`plain`) is the general one's, value and scale, on every
/// text it reads: signs, points first and last, leading and trailing zeros, 18 digits.
#[test]
fn a_plain_number_is_read_as_the_general_reading_reads_it() {
    for text in [
        "0",
        "-0",
        "+0",
        "-0.00",
        "3.00",
        "1250.5",
        ".5",
        "-.5",
        "5.",
        "+5.",
        "007.10",
        "123456789012345678",
        "0.00000000000000001",
        "-999999999999999999",
    ] {
        let fast = super::plain(text);
        assert!(fast.is_some(), "{text}");
        let slow = super::general(text);
        assert_eq!(format!("{fast:?}"), format!("{slow:?}"), "{text}");
    }
    for text in [
        "",
        "-",
        ".",
        "1.2.3",
        "1e3",
        "1234567890123456789",
        " 1",
        "1-",
        "--1",
    ] {
        assert_eq!(super::plain(text), None, "{text}");
    }
    proptest::proptest!(|(text in "[-+]?[0-9]{0,20}[.]?[0-9]{0,20}")| {
        if let Some(fast) = super::plain(&text) {
            let slow = super::general(&text);
            proptest::prop_assert_eq!(format!("{:?}", Some(fast)), format!("{slow:?}"));
        }
    });
}

/// `xs:decimal`'s reading: a double's exact reading of a text without an exponent,
/// nothing for one with (`1e3`, `1E3`), the text trimmed of XML's white space first.
#[test]
fn a_decimals_text_is_read_as_a_doubles_without_an_exponent() {
    assert_eq!(super::exact_decimal(" 12.50\n"), super::exact("12.50"));
    assert_eq!(super::exact_decimal("1e3"), None);
    assert_eq!(super::exact_decimal(" -1E3 "), None);
    assert_eq!(super::exact_decimal("INF"), None);
    assert!(super::exact("1e3").is_some());
    proptest::proptest!(|(text in "[ \n]?[-+]?[0-9]{0,22}[.]?[0-9]{0,8}([eE][-+]?[0-9]{1,2})?[ \t]?")| {
        let expected = if text.contains(['e', 'E']) { None } else { super::exact(&text) };
        let read = super::exact_decimal(&text);
        proptest::prop_assert_eq!(format!("{read:?}"), format!("{expected:?}"));
    });
}
