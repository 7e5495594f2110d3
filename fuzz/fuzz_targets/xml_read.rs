//! The XML reader below `Dom::read` (issue 30) against quick-xml's reader, the one it
//! replaced, as an oracle: any bytes, and through its seeds (`ubl_validate`'s, the
//! Peppol fixtures) mutated documents.
//!
//! Invariants:
//! - reading never panics;
//! - what both read, they read alike: every element's namespace, local name, own text
//!   (as `Dom` keeps it) and attributes, in document order;
//! - nothing quick-xml refuses is read;
//! - what only quick-xml reads is refused for one of the reasons XML 1.0 and its
//!   namespaces give and quick-xml does not check (`STRICTER`); any other refusal is a
//!   finding.
#![no_main]

use invoicing_core::ubl::dom::{Dom, NodeId};
use libfuzzer_sys::fuzz_target;
use quick_xml::events::Event;
use quick_xml::Reader;

/// Why the reader may refuse what quick-xml reads: each is a rule of XML 1.0 or of
/// its namespaces that quick-xml does not check.
const STRICTER: &[&str] = &[
    "is not one XML allows",
    "is not a character XML allows",
    "`--` inside a comment",
    "an `&` that starts no reference",
    "`]]>` in text",
    "a `<` in the value of",
    "white space was expected before an attribute",
    "an XML declaration after the start",
    "a name was expected",
    "is not a qualified name",
    "undeclares a prefix",
    "is not bound",
    "text outside the root element",
    "a CDATA section outside the root element",
    "a DOCTYPE after the start",
    "is not followed by white space",
    "`<!` starts no comment",
    "is not closed",
    // a name that stops at a character a name may not have (`xm&apos;lns`)
    "was expected after",
    "is not quoted",
];

/// An element as the oracle reads it: namespace, local name, own text, attributes.
type Element = (String, String, String, Vec<(String, String)>);

const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";
const XMLNS_NS: &str = "http://www.w3.org/2000/xmlns/";

/// Text read inside the innermost open element, kept as `Dom` keeps it.
fn keep(
    kept: &mut usize,
    stack: &[usize],
    out: &mut [Element],
    ranges: &mut [(usize, usize)],
    s: &str,
) -> Result<(), String> {
    let Some(&id) = stack.last() else {
        return if s.chars().all(|c| matches!(c, ' ' | '\t' | '\r' | '\n')) {
            Ok(())
        } else {
            Err("text outside the root element".to_owned())
        };
    };
    let fresh = (*kept, *kept + s.len());
    *kept += s.len();
    let (Some(r), Some(e)) = (ranges.get_mut(id), out.get_mut(id)) else {
        return Ok(());
    };
    if r.0 == r.1 {
        *r = fresh;
        e.2 = s.to_owned();
    } else if r.1 == fresh.0 {
        r.1 = fresh.1;
        e.2.push_str(s);
    }
    Ok(())
}

/// The elements as quick-xml reads them, each element's own text kept as `Dom` keeps
/// it (its first run of text, and what follows it with nothing kept between).
fn oracle(bytes: &[u8]) -> Result<Vec<Element>, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| e.to_string())?;
    let mut reader = Reader::from_str(text);
    let mut out: Vec<Element> = Vec::new();
    // each element's text range in an imagined string of everything kept
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    let mut kept = 0usize;
    let mut stack: Vec<usize> = Vec::new();
    let mut scopes: Vec<Vec<(String, String)>> = Vec::new();
    let mut root_done = false;
    loop {
        let event = reader.read_event().map_err(|e| e.to_string())?;
        match event {
            Event::Start(ref e) | Event::Empty(ref e) => {
                let empty = matches!(event, Event::Empty(_));
                if root_done {
                    return Err("a second root".into());
                }
                if stack.len() >= invoicing_core::ubl::dom::MAX_DEPTH {
                    return Err("too deep".into());
                }
                let mut scope = Vec::new();
                let mut attrs = Vec::new();
                for a in e.attributes() {
                    let a = a.map_err(|e| e.to_string())?;
                    let value = a
                        .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                        .map_err(|e| e.to_string())?
                        .into_owned();
                    if let Some(declared) = a.key.as_namespace_binding() {
                        let prefix = match declared {
                            quick_xml::name::PrefixDeclaration::Default => String::new(),
                            quick_xml::name::PrefixDeclaration::Named(p) => p.to_owned(),
                        };
                        if prefix == "xml" && value == XML_NS {
                            continue;
                        }
                        if prefix == "xml"
                            || prefix == "xmlns"
                            || value == XML_NS
                            || value == XMLNS_NS
                        {
                            return Err("reserved".into());
                        }
                        if !prefix.is_empty() && value.is_empty() {
                            return Err("undeclares a prefix".into());
                        }
                        scope.push((prefix, value));
                        continue;
                    }
                    if a.key.prefix().is_some() {
                        continue;
                    }
                    let local = a.key.local_name().into_inner().to_owned();
                    kept += value.len();
                    attrs.push((local, value));
                }
                scopes.push(scope);
                let name = e.name();
                let prefix = name
                    .prefix()
                    .map_or(String::new(), |p| p.into_inner().to_owned());
                // `xml` is bound to its namespace without a declaration
                let ns = scopes
                    .iter()
                    .rev()
                    .flat_map(|s| s.iter().rev())
                    .find(|(p, _)| *p == prefix)
                    .map_or_else(
                        || {
                            if prefix == "xml" {
                                XML_NS.to_owned()
                            } else {
                                String::new()
                            }
                        },
                        |(_, u)| u.clone(),
                    );
                let local = name.local_name().into_inner().to_owned();
                let id = out.len();
                out.push((ns, local, String::new(), attrs));
                ranges.push((kept, kept));
                if empty {
                    scopes.pop();
                    root_done = stack.is_empty();
                } else {
                    stack.push(id);
                }
            }
            Event::End(_) => {
                stack.pop();
                scopes.pop();
                root_done = stack.is_empty();
            }
            Event::Text(t) => keep(&mut kept, &stack, &mut out, &mut ranges, &t.xml10_content())?,
            Event::CData(t) => keep(&mut kept, &stack, &mut out, &mut ranges, &t.xml10_content())?,
            Event::GeneralRef(r) => {
                let c = match r.resolve_char_ref().map_err(|e| e.to_string())? {
                    Some(c) => c.to_string(),
                    None => quick_xml::escape::resolve_predefined_entity(&r)
                        .ok_or("the entity is not one XML predefines")?
                        .to_owned(),
                };
                keep(&mut kept, &stack, &mut out, &mut ranges, &c)?;
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if out.is_empty() || !stack.is_empty() {
        return Err("no root, or not closed".into());
    }
    Ok(out)
}

/// The elements as `Dom` reads them.
fn ours(dom: &Dom) -> Vec<Element> {
    (0..dom.len())
        .filter_map(|i| NodeId::try_from(i).ok())
        .map(|id| {
            let attrs = dom
                .attributes(id)
                .map(|(n, v)| (n.to_owned(), v.to_owned()))
                .collect();
            (
                dom.namespace_uri(id).to_owned(),
                dom.name(id).to_owned(),
                dom.own_text(id).to_owned(),
                attrs,
            )
        })
        .collect()
}

fuzz_target!(|bytes: &[u8]| {
    let read = Dom::read(bytes);
    let expected = oracle(bytes);
    match (read, expected) {
        (Ok(dom), Ok(expected)) => assert_eq!(ours(&dom), expected, "read alike"),
        (Ok(_), Err(why)) => panic!("read what quick-xml refuses ({why})"),
        (Err(e), Ok(_)) => assert!(
            STRICTER.iter().any(|s| e.0.contains(s)),
            "refused what quick-xml reads, for a reason XML does not give: {e}"
        ),
        (Err(_), Err(_)) => {}
    }
});
