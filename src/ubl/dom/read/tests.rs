use super::super::{Dom, NodeId};
use super::*;
use proptest::prelude::*;

fn tokens(text: &str) -> Result<Vec<String>, NotXml> {
    let mut lexer = Lexer::new(text);
    let mut out = Vec::new();
    while let Some(t) = lexer.next_token()? {
        out.push(match t {
            Token::Start { name, empty } => {
                let attrs: Vec<String> = lexer
                    .attributes()
                    .iter()
                    .map(|(n, v)| format!(" {}|{}|{}={v}", n.full, n.prefix, n.local))
                    .collect();
                format!(
                    "<{}{}{}>",
                    name.full,
                    attrs.concat(),
                    if empty { "/" } else { "" }
                )
            }
            Token::End { name } => format!("</{name}>"),
            Token::Text(t) => format!("text {t:?}"),
            Token::CData(t) => format!("cdata {t:?}"),
        });
    }
    Ok(out)
}

#[test]
fn markup_is_read_as_xml_says_and_comments_instructions_and_the_doctype_are_skipped() {
    let xml = "\u{FEFF}<?xml version=\"1.0\"?>\n<!DOCTYPE a [<!ENTITY e \"]>\">]>\n<!-- c - d -->\
        <p:a xmlns:p='urn:p' b = \"1\"\tc='&lt;'><?pi x?><é:ü-1.x/>t&amp;<![CDATA[<&>]]></p:a >\n";
    assert_eq!(
        tokens(xml).unwrap(),
        [
            "text \"\\n\"",
            "text \"\\n\"",
            "<p:a xmlns:p|xmlns|p=urn:p b||b=1 c||c=&lt;>",
            "<é:ü-1.x/>",
            "text \"t&amp;\"",
            "cdata \"<&>\"",
            "</p:a>",
            "text \"\\n\"",
        ]
    );
}

/// Each thing XML 1.0 and its namespaces forbid, refused with why and where.
#[test]
fn what_xml_forbids_is_refused_with_its_line_and_column() {
    for (xml, why) in [
        ("<a>\u{1}</a>", "U+0001"),
        ("<a>\u{FFFE}</a>", "U+FFFE"),
        ("<a><!-- a -- b --></a>", "`--` inside a comment"),
        ("<a><!-- a ---></a>", "`--` inside a comment"),
        ("<a>x & y</a>", "an `&` that starts no reference"),
        ("<a>x ]]> y</a>", "`]]>` in text"),
        ("<a b='<'/>", "a `<` in the value of b"),
        (
            "<a b='1'c='2'/>",
            "white space was expected before an attribute",
        ),
        ("<a b='1' b=\"2\"/>", "the attribute b is written twice"),
        ("<a b=1/>", "the value of b is not quoted"),
        ("<a b/>", "`=` was expected after b"),
        (
            "<a><?xml version='1.0'?></a>",
            "an XML declaration after the start",
        ),
        ("<a><1b/></a>", "a name was expected"),
        ("<a:b:c/>", "`a:b:` is not a qualified name"),
        ("<a:/>", "a name was expected"),
        ("<a></b>", "</b> closes <a>"),
        ("<a></ab>", "</ab> closes <a>"),
        ("<a:b xmlns:a='urn:a'></a>", "</a> closes <a:b>"),
        ("<a/></a>", "</a> closes no element"),
        ("<a><![CDATA[x</a>", "a CDATA section is not closed"),
        ("<a><!x></a>", "`<!` starts no comment"),
        ("<a/><!DOCTYPE a>", "a DOCTYPE after the start"),
        ("<a>&#0;</a>", "&#0; is not a character XML allows"),
        ("<a>&#xD800;</a>", "&#xD800; is not a character XML allows"),
        ("<a>&#x1;</a>", "&#x1; is not a character XML allows"),
        ("<a>&#12a;</a>", "&#12a; is not a character XML allows"),
        ("<a>&e;</a>", "the entity &e; is not one XML predefines"),
        ("<a xmlns:p=''/>", "undeclares a prefix"),
        ("<a/>&amp;", "text outside the root element"),
        (
            "<![CDATA[x]]><a/>",
            "a CDATA section outside the root element",
        ),
        ("<a", "<a is not closed"),
        ("<a b='1", "the value of b is not closed"),
        ("<a></a", "an end tag is not closed by `>`"),
        ("<a><?pi", "<?pi is not closed by `?>`"),
        ("<a><?pi|?></a>", "<?pi is not followed by white space"),
    ] {
        let err = Dom::read(xml.as_bytes()).map(|_| ()).unwrap_err().0;
        assert!(err.contains(why), "{xml:?}: {err}");
        assert!(err.contains("line 1, column"), "{xml:?}: {err}");
    }
    let err = Dom::read(b"<a>\n  <b c='1' c='2'/></a>")
        .map(|_| ())
        .unwrap_err()
        .0;
    assert!(err.ends_with("(line 2, column 3)"), "{err}");
}

#[test]
fn references_and_line_ends_resolve_as_xml_says() {
    let resolved = |raw: &str, kind| {
        let mut out = String::new();
        resolve(raw, kind, &mut out).map(|()| out)
    };
    let text = "a&amp;b&lt;&gt;&apos;&quot;&#x41;&#66;&#x1D11E;\r\nc\rd\te>";
    assert_eq!(
        resolved(text, Kind::Text).unwrap(),
        "a&b<>'\"AB\u{1D11E}\nc\nd\te>"
    );
    assert_eq!(
        resolved("\t a\r\nb\nc\rd&#10;&#13;&#9;", Kind::Attribute).unwrap(),
        "  a b c d\n\r\t",
        "white space written as such is a space in a value; by reference, itself"
    );
    assert_eq!(
        resolved("x\r\ny\r&amp;]]", Kind::CData).unwrap(),
        "x\ny\n&amp;]]"
    );
    assert_eq!(resolved("plain", Kind::Text).unwrap(), "plain");
    for bad in [
        "&",
        "a&b",
        "&amp",
        "&#;",
        "&#x;",
        "&#-1;",
        "&#+1;",
        "&#x110000;",
        "&#xFFFF;",
    ] {
        assert!(resolved(bad, Kind::Text).is_err(), "{bad}");
    }
    assert_eq!(resolved("x]]>", Kind::Text).unwrap_err().0, 3);
}

/// An element of a generated document, as the document says it.
#[derive(Debug, Clone)]
struct Element {
    prefix: usize,
    local: String,
    attributes: Vec<(String, String)>,
    content: Content,
}

#[derive(Debug, Clone)]
enum Content {
    Text(String),
    Children(Vec<Element>),
}

const PREFIXES: [(&str, &str); 3] = [("", "urn:d"), ("p", "urn:p"), ("q", "urn:q")];

fn value() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![
            "a", "é", "€", "𝄞", " ", "\n", "\r", "\t", "<", ">", "&", "'", "\"", "]", "]]>",
        ]),
        0..8,
    )
    .prop_map(|v| v.concat())
}

fn local() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["a", "B", "_x", "é", "x-1.y", "ü2", "ID"]).prop_map(str::to_owned)
}

fn element() -> impl Strategy<Value = Element> {
    let leaf = (
        0..3usize,
        local(),
        prop::collection::vec(value(), 0..3),
        value(),
    )
        .prop_map(|(prefix, local, values, text)| Element {
            prefix,
            local,
            attributes: attributes(values),
            content: Content::Text(text),
        });
    leaf.prop_recursive(4, 40, 5, |inner| {
        (
            0..3usize,
            local(),
            prop::collection::vec(value(), 0..3),
            prop::collection::vec(inner, 0..5),
        )
            .prop_map(|(prefix, local, values, children)| Element {
                prefix,
                local,
                attributes: attributes(values),
                content: Content::Children(children),
            })
    })
}

/// Attributes of distinct names (`v0`, `v1`…).
fn attributes(values: Vec<String>) -> Vec<(String, String)> {
    values
        .into_iter()
        .enumerate()
        .map(|(i, v)| (format!("v{i}"), v))
        .collect()
}

/// A choice of how to write, drawn from the generator's bytes.
struct Writer<'c> {
    choices: &'c [u8],
    at: usize,
    out: String,
}

impl Writer<'_> {
    fn pick(&mut self, n: u8) -> u8 {
        let c = self
            .choices
            .get(self.at % self.choices.len().max(1))
            .copied()
            .unwrap_or(0);
        self.at += 1;
        c % n
    }

    fn space(&mut self) {
        let i = usize::from(self.pick(3));
        self.out.push_str([" ", "\n\t", "\r\n "][i]);
    }

    /// A character of text or of a value (`quote`) as a document may write it.
    fn char(&mut self, c: char, quote: Option<char>) {
        let by_number = |w: &mut Self| {
            let s = if w.pick(2) == 0 {
                format!("&#{};", u32::from(c))
            } else {
                format!("&#x{:X};", u32::from(c))
            };
            w.out.push_str(&s);
        };
        match c {
            '<' => self.out.push_str("&lt;"),
            '&' => {
                let i = usize::from(self.pick(2));
                self.out.push_str(["&amp;", "&#38;"][i]);
            }
            '>' if self.out.ends_with(']') => self.out.push_str("&gt;"),
            '\r' | '\t' => by_number(self),
            '\n' if quote.is_some() => by_number(self),
            '\n' => {
                let i = usize::from(self.pick(3));
                self.out.push_str(["\n", "\r\n", "&#10;"][i]);
            }
            c if Some(c) == quote => self
                .out
                .push_str(if c == '"' { "&quot;" } else { "&apos;" }),
            c => {
                if self.pick(4) == 0 {
                    by_number(self);
                } else {
                    self.out.push(c);
                }
            }
        }
    }

    fn chars(&mut self, s: &str, quote: Option<char>) {
        for c in s.chars() {
            self.char(c, quote);
        }
    }

    fn element(&mut self, e: &Element, root: bool) {
        let (prefix, _) = PREFIXES[e.prefix];
        let name = if prefix.is_empty() {
            e.local.clone()
        } else {
            format!("{prefix}:{}", e.local)
        };
        self.out.push('<');
        self.out.push_str(&name);
        if root {
            for (p, uri) in PREFIXES {
                self.space();
                let decl = if p.is_empty() {
                    format!("xmlns='{uri}'")
                } else {
                    format!("xmlns:{p}=\"{uri}\"")
                };
                self.out.push_str(&decl);
            }
        }
        for (n, v) in &e.attributes {
            self.space();
            let quote = if self.pick(2) == 0 { '"' } else { '\'' };
            self.out.push_str(n);
            let i = usize::from(self.pick(2));
            self.out.push_str(["=", " = "][i]);
            self.out.push(quote);
            self.chars(v, Some(quote));
            self.out.push(quote);
        }
        if self.pick(3) == 0 {
            self.space();
            self.out.push_str("p:z='not kept'");
        }
        let empty = match &e.content {
            Content::Text(t) => t.is_empty(),
            Content::Children(c) => c.is_empty(),
        };
        if empty && self.pick(2) == 0 {
            self.out.push_str("/>");
            return;
        }
        self.out.push('>');
        match &e.content {
            Content::Text(t) => {
                // Text in pieces: written out, or a CDATA section where it may be.
                let mut rest = t.as_str();
                while !rest.is_empty() {
                    let n = 1 + usize::from(self.pick(4));
                    let cut = rest.char_indices().nth(n).map_or(rest.len(), |(i, _)| i);
                    let (piece, after) = rest.split_at(cut);
                    let plain = !piece.contains(['\r', ']']);
                    if plain && self.pick(3) == 0 {
                        self.out.push_str("<![CDATA[");
                        self.out.push_str(&piece.replace('\n', "\r\n"));
                        self.out.push_str("]]>");
                    } else {
                        self.chars(piece, None);
                    }
                    if self.pick(5) == 0 {
                        self.out.push_str("<!-- - -->");
                    }
                    rest = after;
                }
            }
            Content::Children(children) => {
                for c in children {
                    if self.pick(4) == 0 {
                        self.out.push_str("<?pi x?>");
                    }
                    self.element(c, false);
                }
            }
        }
        self.out.push_str("</");
        self.out.push_str(&name);
        if self.pick(3) == 0 {
            self.space();
        }
        self.out.push('>');
    }
}

/// The elements in document order.
fn flatten<'e>(e: &'e Element, out: &mut Vec<&'e Element>) {
    out.push(e);
    if let Content::Children(c) = &e.content {
        for child in c {
            flatten(child, out);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// A document written any way XML allows (references, line ends, CDATA, quotes,
    /// white space in tags, comments, instructions, a byte order mark) is read as what
    /// it says: every element's namespace, local name, text and attributes.
    #[test]
    fn a_document_is_read_as_what_it_says_however_it_is_written(
        root in element(),
        choices in prop::collection::vec(any::<u8>(), 1..64),
        prolog in 0..3u8,
    ) {
        let mut w = Writer { choices: &choices, at: 0, out: String::new() };
        match prolog {
            0 => {}
            1 => w.out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"),
            _ => w.out.push_str("\u{FEFF}<?xml version='1.0'?><!-- x --><!DOCTYPE a>\r\n"),
        }
        w.element(&root, true);
        w.out.push_str("\n<!-- end -->");
        let dom = Dom::read(w.out.as_bytes()).map_err(|e| TestCaseError::fail(format!("{e}: {}", w.out)))?;
        let mut expected = Vec::new();
        flatten(&root, &mut expected);
        prop_assert_eq!(dom.len(), expected.len());
        for (id, e) in expected.iter().enumerate() {
            let id = NodeId::try_from(id).unwrap_or(NodeId::MAX);
            prop_assert_eq!(dom.name(id), e.local.as_str(), "{}", w.out);
            prop_assert_eq!(dom.namespace_uri(id), PREFIXES[e.prefix].1);
            let text = match &e.content {
                Content::Text(t) => t.as_str(),
                Content::Children(_) => "",
            };
            prop_assert_eq!(dom.own_text(id), text, "{}", w.out);
            let attributes: Vec<(&str, &str)> = dom.attributes(id).collect();
            let written: Vec<(&str, &str)> =
                e.attributes.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
            prop_assert_eq!(attributes, written, "{}", w.out);
        }
    }
}
