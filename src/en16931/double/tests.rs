//! The values are Saxon's own (the official validator's XPath engine, `saxonche`),
//! each written beside its expression.

use super::Double;
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

/// The oracle of the property test below: the machine's own IEEE 754 doubles, in this
/// test only (the crate computes no value with a float; this checks that its integer
/// emulation rounds as the hardware does).
#[allow(clippy::float_arithmetic, clippy::cast_possible_truncation)]
mod oracle {
    use super::super::{Binary, Double};
    use proptest::prelude::*;
    use rust_decimal::Decimal;

    /// Our double as the hardware's, `None` for NaN.
    fn bits(x: Double) -> Option<f64> {
        Some(match x {
            Double::NaN => return None,
            Double::Inf(n) => {
                if n {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                }
            }
            Double::Finite(b) if b.significand == 0 => 0.0,
            Double::Finite(Binary {
                negative,
                significand,
                exponent,
            }) => {
                let field = u64::try_from(exponent + 52 + 1023).unwrap_or(0);
                let low = significand - (1 << 52);
                f64::from_bits(u64::from(negative) << 63 | field << 52 | low)
            }
        })
    }

    /// Whether the hardware's value lies where ours is held (2^-93 to 2^96, or 0).
    fn held(x: f64) -> bool {
        x == 0.0 || (x.abs() >= 2f64.powi(-92) && x.abs() < 2f64.powi(95))
    }

    fn decimal() -> impl Strategy<Value = Decimal> {
        (any::<i64>(), 0u32..=20).prop_map(|(m, s)| Decimal::new(m % 1_000_000_000_000_000_000, s))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        #[test]
        fn every_operation_rounds_as_ieee_754_binary64(a in decimal(), b in decimal()) {
            let (x, y) = (Double::of(a), Double::of(b));
            let (fx, fy): (f64, f64) = (a.to_string().parse().unwrap_or(0.0), b.to_string().parse().unwrap_or(0.0));
            prop_assert_eq!(bits(x), Some(fx), "{}", a);
            prop_assert_eq!(bits(Double::parse(&a.to_string()).unwrap_or(Double::NaN)), Some(fx));
            let ops: [(Double, f64); 5] = [
                (x.add(y), fx + fy),
                (x.sub(y), fx - fy),
                (x.mul(y), fx * fy),
                (x.div(y), fx / fy),
                (x.rem(y), fx % fy),
            ];
            for (i, (ours, theirs)) in ops.into_iter().enumerate() {
                if theirs.is_nan() {
                    prop_assert!(ours.is_nan(), "op {} of {} {}", i, a, b);
                } else if theirs.is_infinite() || held(theirs) {
                    prop_assert_eq!(bits(ours), Some(theirs), "op {} of {} {}", i, a, b);
                }
            }
            // the shortest text that reads back, as Rust's own shortest digits
            if held(fx) && fx != 0.0 && fx.abs() >= 1e-6 && fx.abs() < 1e6 {
                let ours: f64 = x.string().parse().unwrap_or(f64::NAN);
                prop_assert_eq!(ours.to_bits(), fx.to_bits());
                prop_assert_eq!(x.string().trim_start_matches('-').len(), format!("{}", fx.abs()).len());
            }
        }
    }
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
