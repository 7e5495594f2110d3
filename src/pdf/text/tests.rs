use super::*;

#[test]
fn control_characters_become_replacement_characters() {
    // docs/files.md §2: controls, format and non-characters as U+FFFD, TAB as a space
    let m = Metrics::parse(REGULAR).unwrap();
    assert_eq!(
        m.clean("a\u{7}b\u{200B}c\td\u{FFFF}e\u{FDD0}f\u{E000}g"),
        "a\u{FFFD}b\u{FFFD}c d\u{FFFD}e\u{FFFD}f\u{FFFD}g"
    );
    assert_eq!(m.clean("\u{7F}\u{9F}\u{AD}\u{FEFF}"), "\u{FFFD}".repeat(4));
    // a line break in a one-line value is a space
    assert_eq!(m.clean("a\r\nb\nc\rd"), "a  b c d");
}

#[test]
fn characters_the_font_lacks_become_replacement_characters() {
    // docs/files.md §2: a character the font lacks is U+FFFD, which the font has
    for data in [REGULAR, BOLD] {
        let m = Metrics::parse(data).unwrap();
        assert!(m.glyph(REPLACEMENT).is_some());
        assert_eq!(m.clean("日本한"), "\u{FFFD}".repeat(3));
        assert_eq!(m.clean("Éléonore Straße ĳ €"), "Éléonore Straße ĳ €");
        assert!(m.width("abc") > 0);
    }
}
