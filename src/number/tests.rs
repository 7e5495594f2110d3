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
