use super::*;

#[test]
fn decimals_read_as_xs_decimal() {
    let d = |s: &str| decimal(s).map(|v| v.to_string());
    assert_eq!(d("12.50"), Some("12.50".into()));
    assert_eq!(d(" \n 1300 "), Some("1300".into()));
    assert_eq!(d("+.5"), Some("0.5".into()));
    assert_eq!(d("5."), Some("5".into()));
    assert_eq!(d("-0.00"), Some("0.00".into()));
    assert_eq!(d("-1500"), Some("-1500".into()));
    assert_eq!(d("1e2"), None);
    assert_eq!(d("1,00"), None);
    assert_eq!(d(""), None);
    assert_eq!(d("."), None);
    assert_eq!(d("-"), None);
    assert_eq!(d("1 000"), None);
    assert_eq!(d("١٢"), None);
    assert_eq!(d(&"9".repeat(40)), None);
    assert_eq!(
        d(&format!("1.{}", "0".repeat(60))),
        Some("1.000000000000000000000000000".into())
    );
    assert_eq!(
        d("79228162514264337593543950335"),
        Some("79228162514264337593543950335".into())
    );
    assert_eq!(d("79228162514264337593543950336"), None);
}

proptest::proptest! {
    #[test]
    fn short_decimals_read_as_long_ones(t in "[-+]?[0-9]{0,12}[.]?[0-9]{0,8}|[-+.0-9 a]{0,19}") {
        let t = trim(&t);
        if t.len() <= 19 {
            let short = short_decimal(t.as_bytes());
            let long = long_decimal(t);
            proptest::prop_assert_eq!(short.map(|v| (v, v.scale(), v.is_sign_negative())), long.map(|v| (v, v.scale(), v.is_sign_negative())));
        }
    }
}

#[test]
fn dates_read_as_xs_date() {
    let ymd = |y, m, d| NaiveDate::from_ymd_opt(y, m, d);
    assert_eq!(date("2017-11-13"), ymd(2017, 11, 13));
    assert_eq!(date(" 2017-11-13Z "), ymd(2017, 11, 13));
    assert_eq!(date("2017-11-13+01:00"), ymd(2017, 11, 13));
    assert_eq!(date("2017-02-30"), None);
    assert_eq!(date("2017-1-13"), None);
    assert_eq!(date("13.11.2017"), None);
    assert_eq!(date("2017-11-13T10:00:00"), None);
    assert_eq!(date("2017-11-13+15:00"), None);
}

/// An `xs:boolean` as XPath casts an untyped value: the oracle of `Indicator::boolean`.
fn boolean(text: &str) -> Option<bool> {
    match trim(text) {
        "true" | "1" => Some(true),
        "false" | "0" => Some(false),
        _ => None,
    }
}

#[test]
fn booleans_and_spaces() {
    assert_eq!(boolean(" true "), Some(true));
    assert_eq!(boolean("0"), Some(false));
    assert_eq!(boolean("False"), None);
    for t in ["true", " 1", "false\n", "0", " tru e", "True", ""] {
        assert_eq!(Indicator::of(t).boolean(), boolean(t), "{t:?}");
    }
    assert!(is_vat_scheme(" vAt\n"));
    assert!(!is_vat_scheme("V AT"));
    assert!(!is_vat_scheme("VATé"));
    assert_eq!(trim("\t x \r\n"), "x");
}
