use super::CURRENCIES;

/// The minor unit of `code`, found by binary search, as callers will.
fn minor_unit(code: &str) -> Option<u32> {
    CURRENCIES
        .binary_search_by(|(c, _)| (*c).cmp(code))
        .ok()
        .map(|i| CURRENCIES[i].1)
}

/// The table is strictly ascending, so binary search works on it.
#[test]
fn table_is_strictly_sorted() {
    for pair in CURRENCIES.windows(2) {
        assert!(pair[0].0 < pair[1].0, "{} !< {}", pair[0].0, pair[1].0);
    }
}

/// Every code is three ASCII uppercase letters.
#[test]
fn codes_are_three_uppercase_letters() {
    for (code, _) in CURRENCIES {
        assert_eq!(code.len(), 3, "{code}");
        assert!(code.bytes().all(|b| b.is_ascii_uppercase()), "{code}");
    }
}

/// Known minor units.
#[test]
fn known_minor_units() {
    assert_eq!(minor_unit("EUR"), Some(2));
    assert_eq!(minor_unit("JPY"), Some(0));
    assert_eq!(minor_unit("KWD"), Some(3));
    assert_eq!(minor_unit("BHD"), Some(3));
    assert_eq!(minor_unit("CLF"), Some(4));
    assert_eq!(minor_unit("USD"), Some(2));
}

/// Codes without a minor unit are not in the table.
#[test]
fn codes_without_minor_unit_are_absent() {
    for code in ["XAU", "XDR", "XXX"] {
        assert_eq!(minor_unit(code), None, "{code}");
    }
}
