use super::is_format;

#[test]
fn every_bidi_control_is_a_format_character() {
    for c in [
        '\u{61C}', '\u{200E}', '\u{200F}', '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}',
        '\u{202E}', '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}',
    ] {
        assert!(is_format(c), "{c:?}");
    }
    assert!(!is_format(' ') && !is_format('\u{FFFD}') && !is_format('é'));
}
