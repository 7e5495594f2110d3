use super::*;
use proptest::prelude::*;

#[test]
fn built_from_the_number_digits() {
    // docs/decisions.md §5: the last 10 digits of the number, left-padded; check = base mod 97
    assert_eq!(
        StructuredReference::from_document_number("INV2026-0001").to_string(),
        "+++002/0260/00196+++"
    );
    assert_eq!(
        StructuredReference::from_document_number("P000096").to_string(),
        "+++000/0000/09696+++"
    );
    assert_eq!(
        StructuredReference::from_document_number("INV202611-123456").base(),
        2_611_123_456
    );
    assert_eq!(
        StructuredReference::from_document_number("NODIGITS").to_string(),
        "+++000/0000/00097+++"
    );
}

#[test]
fn check_zero_is_written_97() {
    // docs/decisions.md §5: check = base mod 97 (0 → 97)
    assert_eq!(
        StructuredReference::from_document_number("P000097").to_string(),
        "+++000/0000/09797+++"
    );
    assert_eq!(StructuredReference::from_base(0).unwrap().check(), 97);
}

#[test]
fn parse_refuses_bad_texts() {
    for bad in [
        "",
        "+++002/0260/00196++",
        "002/0260/00196",
        "+++002/0260/00197+++",
        "+++0020/260/00196+++",
        "+++00a/0260/00196+++",
        "***002/0260/00196***",
        "+++٠02/0260/00196+++",
    ] {
        assert!(bad.parse::<StructuredReference>().is_err(), "{bad}");
    }
    assert_eq!(
        "+++002/0260/00197+++".parse::<StructuredReference>(),
        Err(ReferenceError::Check {
            found: 97,
            expected: 96
        })
    );
}

#[test]
fn the_base_holds_ten_digits_at_most() {
    // docs/decisions.md §5: the base is the last 10 digits, so 9 999 999 999 is the
    // largest base and one more is not a base
    let top = StructuredReference::from_base(9_999_999_999).unwrap();
    assert_eq!(top.base(), 9_999_999_999);
    assert_eq!(top.to_string(), "+++999/9999/99948+++");
    assert_eq!(StructuredReference::from_base(10_000_000_000), None);
}

#[test]
fn parse_needs_the_slashes_at_their_places_and_fourteen_characters() {
    // docs/decisions.md §5: written +++DDD/DDDD/DDDDD+++ — the checks on the length
    // and on each slash each refuse a text on their own (the digits around them
    // are valid, with a matching check)
    for bad in [
        "+++002/0260/001966+++",
        "+++00200260/00196+++",
        "+++002/026000196+++",
        "+++002/0260000196+++",
    ] {
        assert_eq!(
            bad.parse::<StructuredReference>(),
            Err(ReferenceError::Format(bad.to_owned())),
            "{bad}"
        );
    }
}

proptest! {
    /// Invariant: print → parse → print is stable for every base.
    #[test]
    fn print_parse_round_trip(base in 0u64..=9_999_999_999) {
        let r = StructuredReference::from_base(base).unwrap();
        let text = r.to_string();
        prop_assert_eq!(text.parse::<StructuredReference>().unwrap(), r);
        prop_assert_eq!(text.len(), 20);
    }
}
