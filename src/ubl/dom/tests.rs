use super::*;

const INV: &str = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";
const CBC: &str = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2";

fn doc() -> Dom {
    let xml = format!(
        r#"<?xml version="1.0"?><Invoice xmlns="{INV}" xmlns:cbc="{CBC}"><cbc:ID> A&amp;B </cbc:ID><cbc:Note>x</cbc:Note><cbc:Note a="1" cbc:b="2">y<![CDATA[<z>]]></cbc:Note></Invoice>"#
    );
    Dom::read(xml.as_bytes()).unwrap()
}

#[test]
fn elements_keep_their_namespace_name_text_and_attributes() {
    let d = doc();
    assert_eq!(d.len(), 4);
    assert!(d.is(0, INV, "Invoice"));
    let kids: Vec<NodeId> = d.children(0).collect();
    assert_eq!(kids, [1, 2, 3]);
    assert_eq!(d.own_text(1), " A&B ");
    assert_eq!(d.own_text(3), "y<z>");
    assert_eq!(d.attribute(3, "a"), Some("1"));
    assert_eq!(
        d.attribute(3, "b"),
        None,
        "a namespaced attribute is not kept"
    );
    assert_eq!(d.parent(3), Some(0));
    assert_eq!(d.subtree(0), 0..4);
    assert_eq!(d.string_value(0), " A&B xy<z>");
}

#[test]
fn locations_are_written_as_the_official_validator_writes_them() {
    let d = doc();
    assert_eq!(
        d.location(3),
        format!("/*:Invoice[namespace-uri()='{INV}'][1]/*:Note[namespace-uri()='{CBC}'][2]")
    );
}

#[test]
fn bytes_that_are_not_a_document_are_refused() {
    for bad in [
        &b""[..],
        b"<a>",
        b"<a></b>",
        b"<a/><b/>",
        b"text",
        b"<a>&ext;</a>",
        b"\xff\xfe",
    ] {
        assert!(Dom::read(bad).is_err(), "{}", String::from_utf8_lossy(bad));
    }
    let deep = "<a>".repeat(MAX_DEPTH + 1) + &"</a>".repeat(MAX_DEPTH + 1);
    assert!(Dom::read(deep.as_bytes()).is_err());
}

#[test]
fn namespaces_are_resolved_in_the_scope_of_their_declarations() {
    let xml = format!(
        r#"<a xmlns="{INV}" xmlns:p="{CBC}"><p:b xmlns:p="{INV}"><p:c/></p:b><p:d/><e xmlns=""><f/></e><g/><q:h q:i="1" xmlns:q="urn:q"/><xml:j xml:lang="en"/></a>"#
    );
    let d = Dom::read(xml.as_bytes()).unwrap();
    let names: Vec<(&str, &str)> = (0..d.len())
        .filter_map(|n| NodeId::try_from(n).ok())
        .map(|n| (d.name(n), d.namespace_uri(n)))
        .collect();
    assert_eq!(
        names,
        [
            ("a", INV),
            ("b", INV),
            ("c", INV),
            ("d", CBC),
            ("e", ""),
            ("f", ""),
            ("g", INV),
            ("h", "urn:q"),
            ("j", "http://www.w3.org/XML/1998/namespace"),
        ]
    );
    for unbound in [
        "<q:a/>",
        r#"<a><q:b xmlns:q="urn:q"/><q:c/></a>"#,
        r#"<a q:b="1"/>"#,
        r#"<a xmlns:p="urn:p"><b q:c="1"/></a>"#,
    ] {
        let err = Dom::read(unbound.as_bytes()).map(|_| ()).unwrap_err().0;
        assert!(
            err.contains("the prefix q is not bound"),
            "{unbound}: {err}"
        );
    }
    for reserved in [
        r#"<a xmlns:xmlns="urn:x"/>"#,
        r#"<a xmlns:xml="urn:x"/>"#,
        r#"<a xmlns:p="http://www.w3.org/XML/1998/namespace"/>"#,
        r#"<a xmlns:p="http://www.w3.org/2000/xmlns/"/>"#,
    ] {
        assert!(Dom::read(reserved.as_bytes()).is_err(), "{reserved}");
    }
    assert!(Dom::read(br#"<a xmlns:xml="http://www.w3.org/XML/1998/namespace"/>"#).is_ok());
    let many = |n: usize| {
        let open: Vec<String> = (0..n)
            .map(|i| format!(r#"<e xmlns:p{i}="urn:{i}">"#))
            .collect();
        let open = open.concat();
        open + &"</e>".repeat(n)
    };
    assert!(Dom::read(many(MAX_BINDINGS).as_bytes()).is_ok());
    assert!(
        Dom::read(many(MAX_BINDINGS + 1).as_bytes()).is_err(),
        "declarations in scope are bounded"
    );
}

#[test]
fn each_namespace_uri_has_one_number_however_many_are_declared() {
    // sibling declarations are not in scope together: no bound is met, and each URI,
    // declared or used, is numbered once
    let many: Vec<String> = (0..2_000)
        .map(|i| format!(r#"<p:e xmlns:p="urn:{}"/>"#, i % 1_000))
        .collect();
    let many = many.concat();
    let d = Dom::read(format!("<a>{many}</a>").as_bytes()).unwrap();
    assert_eq!(d.len(), 2_001);
    assert_eq!(d.namespace_uri(1), "urn:0");
    assert_eq!(d.namespace_uri(1_001), "urn:0");
    assert_eq!(d.key(1), d.key(1_001));
    assert_ne!(d.key(1), d.key(2));
    assert_eq!(d.namespace_number(""), Some(0));
    assert!(d.namespace_number("urn:999").is_some());
    assert_eq!(d.namespace_number("urn:1000"), None);
}

#[test]
fn each_element_has_its_own_attributes_and_no_other() {
    // the attributes are kept from each element's start to the next element's: the
    // root's, an element's with none between two with some, the last element's
    let xml = format!(
        r#"<Invoice xmlns="{INV}" xmlns:cbc="{CBC}" r="0"><cbc:A a="1" b="2"><cbc:B/></cbc:A><cbc:C xmlns:x="urn:x" x:y="9"/><cbc:D d="4" e="5" f="6"/></Invoice>"#
    );
    let d = Dom::read(xml.as_bytes()).unwrap();
    let all: Vec<Vec<(&str, &str)>> = (0..d.len())
        .map(|n| d.attributes(NodeId::try_from(n).unwrap()).collect())
        .collect();
    assert_eq!(
        all,
        [
            vec![("r", "0")],
            vec![("a", "1"), ("b", "2")],
            vec![],
            vec![],
            vec![("d", "4"), ("e", "5"), ("f", "6")],
        ]
    );
    let counts: Vec<usize> = (0..5).map(|n| d.attribute_count(n)).collect();
    assert_eq!(counts, [1, 2, 0, 0, 3]);
    assert_eq!(d.attribute_at(4, 2), Some(("f", "6")));
    assert_eq!(d.attribute_at(1, 2), None, "not the next element's");
    let f = d.name_number("f").unwrap();
    assert_eq!(d.attribute_name_number(4, 2), Some(f));
    assert_eq!(d.attribute_name_number(3, 0), None);
    assert_eq!(d.attributes_named(f, None), [(4, 2)]);
    let a = d.name_number("a").unwrap();
    assert_eq!(d.attributes_named(a, Some(0)), [(1, 0)]);
}

#[test]
fn an_element_of_more_than_65_535_attributes_is_refused() {
    let attrs = |n: usize| {
        (0..n).fold(String::new(), |mut s, i| {
            s.push_str(" a");
            s.push_str(&i.to_string());
            s.push_str("=\"\"");
            s
        })
    };
    let at_most = format!("<R{}/>", attrs(65_535));
    assert_eq!(
        Dom::read(at_most.as_bytes()).map(|d| d.attribute_count(0)),
        Ok(65_535)
    );
    let over = format!("<R{}/>", attrs(65_536));
    let refused = Dom::read(over.as_bytes()).map(|_| ()).unwrap_err();
    assert!(refused.0.contains("65 535 attributes"), "{refused}");
}

/// An element's children of a name are its children that have the name (in the
/// namespace, or in any for `None`), in document order: never a grandchild of that
/// name, never a child of that name in another namespace; and every child reached is
/// counted, of any name.
#[test]
fn an_elements_children_of_a_name_are_its_children_with_that_name_at_every_element() {
    let xml = format!(
        r#"<Invoice xmlns="{INV}" xmlns:cbc="{CBC}"><cbc:ID>1</cbc:ID><ID>2</ID><cbc:Note><cbc:ID>3</cbc:ID><cbc:Note/></cbc:Note><cbc:ID><cbc:ID>4</cbc:ID></cbc:ID><X><cbc:ID/><cbc:ID/></X><cbc:Note/></Invoice>"#
    );
    let d = Dom::read(xml.as_bytes()).unwrap();
    let inv = d.namespace_number(INV);
    let cbc = d.namespace_number(CBC);
    let mut tried = 0;
    for n in 0..NodeId::try_from(d.len()).unwrap() {
        for local in ["ID", "Note", "X", "Invoice"] {
            let name = d.name_number(local).unwrap();
            for ns in [None, inv, cbc] {
                let expected: Vec<NodeId> = d
                    .children(n)
                    .filter(|&c| {
                        d.key(c)
                            .is_some_and(|(s, l)| l == name && ns.is_none_or(|x| x == s))
                    })
                    .collect();
                let mut named = d.children_named(n, ns, name);
                let got: Vec<NodeId> = named.by_ref().collect();
                assert_eq!(got, expected, "{local} in {ns:?} at {n}");
                assert_eq!(named.visited(), d.children(n).count(), "{local} at {n}");
                tried += usize::from(!expected.is_empty());
            }
        }
    }
    assert!(tried > 8, "the names are found somewhere: {tried}");
}
