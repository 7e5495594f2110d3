use super::*;

#[test]
fn characters_xml_forbids_become_replacement_characters() {
    assert_eq!(clean("a\u{1}b\u{FFFE}c\td"), "a\u{FFFD}b\u{FFFD}c\td");
    assert!(matches!(clean("plain"), std::borrow::Cow::Borrowed(_)));
}

#[test]
fn text_and_attributes_are_escaped() {
    let mut x = Xml::new(0);
    x.leaf_with("cbc:ID", &[("schemeID", "a\"<")], "R&D <x>");
    let mut s = Vec::new();
    x.drain_into(&mut s).unwrap();
    assert_eq!(
            String::from_utf8(s).unwrap(),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><cbc:ID schemeID=\"a&quot;&lt;\">R&amp;D &lt;x&gt;</cbc:ID>"
        );
}
