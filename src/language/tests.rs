use super::*;

#[test]
fn language_codes_read_back_and_only_exactly() {
    // docs/files.md §2: en (default), nl, fr, de; another value is refused
    for l in Language::ALL {
        assert_eq!(Language::parse(l.as_str()), Some(l));
    }
    assert_eq!(Language::default(), Language::En);
    assert_eq!(Language::parse("NL"), None);
    assert_eq!(Language::parse("es"), None);
}
