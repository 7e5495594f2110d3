use super::*;

fn d(s: &str) -> Decimal {
    s.parse().unwrap()
}

// Equivalent mutants (cargo mutants), `Currency::round`: `scale > minor_unit` →
// `scale >= minor_unit` or `scale == minor_unit`. The integer branch is a fast path
// for the same function: at scale == minor unit it divides by 10^0 and returns the
// mantissa unchanged (a zero comes out positive, as the other branch makes it), and
// above the minor unit `round_dp_with_strategy(MidpointAwayFromZero)` rounds half
// away from zero exactly as the integer branch does. No value tells them apart
// (the tests below pin the results of both branches).

#[test]
fn limit_is_ten_to_the_fifteen() {
    // docs/decisions.md §2: the 10^15 bound
    assert_eq!(AMOUNT_LIMIT, d("1000000000000000"));
    assert!(within_limit(d("999999999999999.99")));
    assert!(!within_limit(d("1000000000000000")));
    assert!(!within_limit(d("-1000000000000000")));
}

#[test]
fn rounding_is_half_away_from_zero() {
    // docs/decisions.md §2: half away from zero to the minor unit
    let eur = Currency::EUR;
    assert_eq!(eur.round(d("0.125")).to_string(), "0.13");
    assert_eq!(eur.round(d("-0.125")).to_string(), "-0.13");
    assert_eq!(eur.round(d("0.135")).to_string(), "0.14");
    assert_eq!(eur.round(d("4.1958")).to_string(), "4.20");
    assert_eq!(eur.round(d("0.12499999")).to_string(), "0.12");
    let jpy = Currency::from_code("JPY").unwrap();
    assert_eq!(jpy.round(d("2.5")).to_string(), "3");
    assert_eq!(jpy.round(d("-2.5")).to_string(), "-3");
    let kwd = Currency::from_code("KWD").unwrap();
    assert_eq!(kwd.round(d("1.2345")).to_string(), "1.235");
}

#[test]
fn amounts_are_written_with_the_minor_unit_and_never_negative_zero() {
    // docs/decisions.md §2: 121.00; JPY 1210; KWD 1.250; never -0.00
    assert_eq!(Currency::EUR.format(d("121")), "121.00");
    assert_eq!(
        Currency::from_code("JPY").unwrap().format(d("1210")),
        "1210"
    );
    assert_eq!(
        Currency::from_code("KWD").unwrap().format(d("1.25")),
        "1.250"
    );
    assert_eq!(Currency::EUR.format(d("-0.001")), "0.00");
    assert_eq!(Currency::EUR.format(d("-0.00")), "0.00");
    assert_eq!(Currency::EUR.to_json(d("4.2")).to_string(), "4.20");
}

#[test]
fn decimal_places_are_counted_on_the_value() {
    // docs/decisions.md §2: 10.000 is an amount with 0 decimals
    assert!(Currency::EUR.fits_minor_unit(d("10.000")));
    assert!(Currency::EUR.fits_minor_unit(d("10.010")));
    assert!(!Currency::EUR.fits_minor_unit(d("10.001")));
}

#[test]
fn minor_units_round_trip() {
    let eur = Currency::EUR;
    assert_eq!(eur.to_minor_units(d("12.34")), Some(1234));
    assert_eq!(eur.to_minor_units(d("12.345")), None);
    assert_eq!(eur.to_minor_units(d("-0.5")), Some(-50));
    assert_eq!(eur.from_minor_units(1234).unwrap().to_string(), "12.34");
    assert_eq!(eur.from_minor_units(0).unwrap().to_string(), "0.00");
}

#[test]
fn codes_are_exact_and_upper_case() {
    // docs/decisions.md §2: the code must be sent exactly (upper case)
    assert!(Currency::from_code("EUR").is_some());
    assert!(Currency::from_code("Eur").is_none());
    assert!(Currency::from_code(" EUR").is_none());
    assert!(Currency::from_code("XXX").is_none());
    assert!(Currency::from_code("XDR").is_none());
}

#[test]
fn echoed_decimals_keep_their_scale() {
    assert_eq!(decimal_value(d("12.50")).to_string(), "12.50");
    assert_eq!(decimal_value(d("100")).to_string(), "100");
    assert_eq!(decimal_value(d("-0.0")).to_string(), "0.0");
}

#[test]
fn echoed_negative_values_keep_their_sign() {
    // docs/decisions.md §2 and §4: a negative quantity is allowed and echoed as sent;
    // only a negative zero loses its sign
    assert_eq!(decimal_value(d("-2.50")).to_string(), "-2.50");
    assert_eq!(decimal_value(d("-1")).to_string(), "-1");
    assert_eq!(decimal_value(d("0.00")).to_string(), "0.00");
}

#[test]
fn the_bound_holds_at_every_scale() {
    // docs/decisions.md §2: a magnitude that reaches 10^15 is refused, whatever the scale
    // the value is written at; from scale 14 on, a decimal's 28 digits cannot reach it
    assert!(within_limit(d("0.00000000000001")));
    assert!(within_limit(d("99999999999999.99999999999999")));
    assert!(within_limit(d("0.0000000000000000000000000001")));
    assert!(within_limit(d("-9.9999999999999999999999999999")));
    assert!(!within_limit(d("1000000000000000.0000000000000")));
    assert!(within_limit(d("999999999999999.9999999999999")));
}

#[test]
fn currencies_list_and_print_their_codes() {
    // docs/decisions.md §2: all active ISO 4217 codes with a minor unit are supported
    let all: Vec<Currency> = Currency::all().collect();
    assert!(all.len() > 100, "{}", all.len());
    assert!(all.windows(2).all(|w| w[0].code() < w[1].code()));
    for c in &all {
        assert_eq!(Currency::from_code(c.code()), Some(*c));
        assert_eq!(c.to_string(), c.code());
    }
    assert!(all.contains(&Currency::EUR));
    assert_eq!(Currency::EUR.code(), "EUR");
    assert_eq!(Currency::EUR.to_string(), "EUR");
}

proptest::proptest! {
    /// Invariant: the digit writer writes a decimal exactly as `Decimal`'s
    /// `Display` does, for any mantissa, scale and sign (issue 12: no round trip
    /// through `fmt` per amount).
    #[test]
    fn decimals_are_written_as_display_writes_them(
        hi in proptest::prelude::any::<u32>(), mid in proptest::prelude::any::<u32>(),
        lo in proptest::prelude::any::<u32>(), negative in proptest::prelude::any::<bool>(),
        scale in 0u32..=28, small in 0u32..3,
    ) {
        let (hi, mid) = match small { 0 => (0, 0), 1 => (0, mid), _ => (hi, mid) };
        let value = Decimal::from_parts(lo, mid, hi, negative, scale);
        let mut buf = [0_u8; 48];
        match write_decimal(value, &mut buf) {
            Some(text) => proptest::prop_assert_eq!(text, value.to_string()),
            None => proptest::prop_assert!(value.is_zero() && value.is_sign_negative()),
        }
    }
}

/// A decimal serialized by [`serialize_decimal`] is the `Number` of its text, for
/// `serde_json`'s writer and for its `Value` serializer alike.
#[test]
fn decimals_serialize_as_the_number_of_their_text() {
    struct Written(Decimal);
    impl serde::Serialize for Written {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            serialize_decimal(self.0, s)
        }
    }
    for text in [
        "12.50",
        "-0.05",
        "100",
        "0",
        "79228162514264337593543950335",
        "-1.0000000000000000000000000001",
    ] {
        let value = d(text);
        let number = number_value(&value.to_string());
        assert_eq!(
            serde_json::to_string(&Written(value)).ok(),
            serde_json::to_string(&number).ok()
        );
        assert_eq!(
            serde_json::to_value(Written(value)).ok(),
            Some(number.clone())
        );
        assert_eq!(
            serde_json::to_string(&Written(value)).ok().as_deref(),
            Some(text)
        );
    }
    // a negative zero is written as Display writes it
    let mut negative_zero = Decimal::new(0, 2);
    negative_zero.set_sign_negative(true);
    assert_eq!(
        serde_json::to_value(Written(negative_zero)).ok(),
        Some(decimal_number(negative_zero))
    );
}

#[test]
fn decimals_are_written_with_their_scale() {
    // docs/decisions.md §2: 121.00, 0.05, 100, -12.50 as written
    let w = |s: &str| {
        let mut buf = [0_u8; 48];
        write_decimal(d(s), &mut buf).map(str::to_owned)
    };
    for s in [
        "121.00",
        "0.05",
        "100",
        "-12.50",
        "0",
        "0.000",
        "-0.001",
        "79228162514264337593543950335",
    ] {
        assert_eq!(w(s).as_deref(), Some(s));
    }
}
