//! The streaming pass over a received UBL: one walk with quick-xml's namespace-aware
//! reader, keeping only the values the received document and its checks need
//! ([`Facts`]). Memory is the input plus what is kept (linear); no DTD is read, no
//! entity but the five predefined ones and character references is ever resolved.

use super::facts::{
    cac_name, cbc_name, finish, is_text_element, wanted_attribute, Builder, Facts, NotUbl, Root, N,
    NS_CAC, NS_CBC, NS_CREDIT_NOTE, NS_INVOICE,
};
use super::lexical;
use quick_xml::events::{BytesStart, Event};
use quick_xml::name::ResolveResult;
use quick_xml::NsReader;

/// The name of an element, resolved against its namespace.
fn name_of(ns: &ResolveResult<'_>, local: &str, depth: usize) -> Option<N> {
    let ns = match ns {
        ResolveResult::Bound(n) => n.0,
        _ => "",
    };
    Some(match ns {
        NS_CBC => cbc_name(local.as_bytes()),
        NS_CAC => cac_name(local.as_bytes()),
        NS_INVOICE if depth == 0 && local == "Invoice" => N::Root,
        NS_CREDIT_NOTE if depth == 0 && local == "CreditNote" => N::Root,
        _ if depth == 0 => return None,
        _ => N::Other,
    })
}

fn attribute(e: &BytesStart<'_>, key: &str) -> Result<Option<String>, NotUbl> {
    for a in e.attributes() {
        let a = a.map_err(|err| format!("not well-formed XML: {err}"))?;
        if a.key.0 == key {
            let v = a
                .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .map_err(|err| format!("not well-formed XML: {err}"))?;
            return Ok(Some(v.into_owned()));
        }
    }
    Ok(None)
}

/// Whether the text is only XML whitespace.
fn blank(text: &str) -> bool {
    text.chars().all(lexical::is_xml_space)
}

/// Reads the text (UTF-8, BOM removed) of what should be a UBL Invoice or CreditNote.
pub(crate) fn read_facts(text: &str) -> Result<Facts, NotUbl> {
    if let Some(facts) = super::scan::read_facts(text) {
        return Ok(facts);
    }
    read_facts_slow(text)
}

/// Whether the scan, when it reads `text`, reads what quick-xml's reader reads:
/// `None` when the scan gives up (quick-xml then reads it alone), else whether the two
/// readings are equal (`Facts` compared through its `Debug` text, scales included).
/// The differential fuzz target `received_scan` asserts it is never `Some(false)`.
pub(crate) fn agrees_with_quick_xml(text: &str) -> Option<bool> {
    let fast = super::scan::read_facts(text)?;
    Some(format!("{:?}", Ok::<_, String>(fast)) == format!("{:?}", read_facts_slow(text)))
}

/// [`read_facts`] with quick-xml's namespace-aware reader: the reference reading,
/// for the bytes the fast scan leaves to it (anything unusual, and every error).
pub(crate) fn read_facts_slow(text: &str) -> Result<Facts, NotUbl> {
    let mut reader = NsReader::from_str(text);
    let mut w = Walk {
        b: Builder::default(),
        stack: Vec::new(),
        root_seen: false,
        root_open: false,
        text_buf: String::new(),
        capture: None,
        attr: None,
    };
    loop {
        let (ns, event) = reader
            .read_resolved_event()
            .map_err(|e| format!("not well-formed XML: {e}"))?;
        match event {
            Event::Start(ref e) => w.start(&ns, e, false)?,
            Event::Empty(ref e) => w.start(&ns, e, true)?,
            Event::End(_) => w.end()?,
            Event::Text(t) => {
                if !w.root_open {
                    if !blank(&t) {
                        return Err("not well-formed XML: text outside the root element".into());
                    }
                } else if w.capture.is_some() {
                    w.text_buf.push_str(&t.xml10_content());
                }
            }
            Event::CData(t) => {
                if !w.root_open {
                    return Err("not well-formed XML: CDATA outside the root element".into());
                }
                w.text(&t.xml10_content());
            }
            Event::GeneralRef(r) => {
                let c = match r.resolve_char_ref() {
                    Ok(Some(c)) => c.to_string(),
                    Ok(None) => match quick_xml::escape::resolve_predefined_entity(&r) {
                        Some(s) => s.to_owned(),
                        None => {
                            return Err(format!(
                                "the entity &{}; is not one XML predefines (a DTD is never read)",
                                &*r
                            ))
                        }
                    },
                    Err(e) => return Err(format!("not well-formed XML: {e}")),
                };
                if !w.root_open {
                    return Err("not well-formed XML: text outside the root element".into());
                }
                w.text(&c);
            }
            Event::Eof => return w.eof(),
            Event::Decl(_) | Event::PI(_) | Event::Comment(_) | Event::DocType(_) => {}
        }
    }
}

/// The state of [`read_facts_slow`]'s walk over the events.
struct Walk {
    b: Builder,
    /// The path from the root's first child down to the current element.
    stack: Vec<N>,
    root_seen: bool,
    root_open: bool,
    /// Text of the innermost cbc element being read, its depth and its attribute.
    text_buf: String,
    capture: Option<usize>,
    attr: Option<String>,
}

impl Walk {
    /// A start tag (or an empty element).
    fn start(
        &mut self,
        ns: &ResolveResult<'_>,
        e: &BytesStart<'_>,
        empty: bool,
    ) -> Result<(), NotUbl> {
        let local_name = e.local_name();
        let local = local_name.into_inner();
        if !self.root_open {
            return self.root(ns, e, local, empty);
        }
        let n = name_of(ns, local, self.stack.len() + 1).unwrap_or(N::Other);
        self.stack.push(n);
        self.b.open(&self.stack, local.as_bytes());
        if is_text_element(n) {
            self.text_buf.clear();
            self.capture = Some(self.stack.len());
            self.attr = match wanted_attribute(n) {
                Some(key) => attribute(e, key)?,
                None => None,
            };
        }
        if empty {
            self.finish();
        }
        Ok(())
    }

    /// The root element: one, an Invoice or a CreditNote of UBL 2.1.
    fn root(
        &mut self,
        ns: &ResolveResult<'_>,
        e: &BytesStart<'_>,
        local: &str,
        empty: bool,
    ) -> Result<(), NotUbl> {
        if self.root_seen {
            return Err("not well-formed XML: a second root element".into());
        }
        self.root_seen = true;
        match name_of(ns, local, 0) {
            Some(N::Root) => {
                self.b.facts.root = if local == "Invoice" {
                    Root::Invoice
                } else {
                    Root::CreditNote
                };
            }
            _ => {
                return Err(format!(
                    "the root element is {:?}, not a UBL 2.1 Invoice or CreditNote",
                    e.name().into_inner()
                ))
            }
        }
        self.root_open = !empty;
        Ok(())
    }

    /// An end tag.
    fn end(&mut self) -> Result<(), NotUbl> {
        if self.stack.is_empty() {
            if !self.root_open {
                return Err("not well-formed XML: an end tag without a start".into());
            }
            self.root_open = false;
            return Ok(());
        }
        self.finish();
        Ok(())
    }

    /// Text inside the root: kept when an element's text is being read.
    fn text(&mut self, t: &str) {
        if self.capture.is_some() {
            self.text_buf.push_str(t);
        }
    }

    fn finish(&mut self) {
        finish(
            &mut self.b,
            &mut self.stack,
            &mut self.capture,
            &self.text_buf,
            self.attr.as_deref(),
        );
    }

    /// The end of the input: the root seen and closed.
    fn eof(self) -> Result<Facts, NotUbl> {
        if !self.root_seen {
            return Err("not XML: no root element".into());
        }
        if self.root_open || !self.stack.is_empty() {
            return Err("truncated XML: the document ends before its root element".into());
        }
        Ok(self.b.facts)
    }
}
