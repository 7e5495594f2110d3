//! A thin layer over quick-xml's writer: elements with the conventional prefixes,
//! text escaped by quick-xml, characters XML 1.0 does not allow written as U+FFFD.

use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use quick_xml::Writer;

/// An XML document being written into memory.
pub(crate) struct Xml {
    w: Writer<Vec<u8>>,
}

/// Whether XML 1.0 allows the character (`Char` production).
fn allowed(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// The text with every character XML 1.0 does not allow replaced by U+FFFD.
pub(crate) fn clean(text: &str) -> std::borrow::Cow<'_, str> {
    if text.chars().all(allowed) {
        std::borrow::Cow::Borrowed(text)
    } else {
        std::borrow::Cow::Owned(
            text.chars()
                .map(|c| if allowed(c) { c } else { '\u{FFFD}' })
                .collect(),
        )
    }
}

// Writing into a `Vec<u8>` cannot fail: the `io::Result`s quick-xml returns are
// always `Ok` here, so they are dropped.
impl Xml {
    /// A document that starts with `<?xml version="1.0" encoding="UTF-8"?>`.
    pub(crate) fn new(capacity: usize) -> Xml {
        let mut w = Writer::new(Vec::with_capacity(capacity));
        let _ = w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)));
        Xml { w }
    }

    /// A fragment: elements without the XML declaration (the rest of a document
    /// whose start was written before).
    pub(crate) fn fragment(capacity: usize) -> Xml {
        Xml {
            w: Writer::new(Vec::with_capacity(capacity)),
        }
    }

    /// Writes the bytes written so far into `out`; the writer goes on empty, with
    /// the room it had.
    pub(crate) fn drain_into<W: std::io::Write + ?Sized>(
        &mut self,
        out: &mut W,
    ) -> std::io::Result<()> {
        let buf = self.w.get_mut();
        out.write_all(buf)?;
        buf.clear();
        Ok(())
    }

    /// Opens an element with attributes.
    pub(crate) fn open_with(&mut self, name: &str, attrs: &[(&str, &str)]) {
        let mut start = BytesStart::new(name);
        for (k, v) in attrs {
            start.push_attribute((*k, clean(v).as_ref()));
        }
        // (`BytesStart::new` borrows the name: only an attribute allocates.)
        let _ = self.w.write_event(Event::Start(start));
    }

    /// Opens an element.
    pub(crate) fn open(&mut self, name: &str) {
        self.open_with(name, &[]);
    }

    /// Closes an element.
    pub(crate) fn close(&mut self, name: &str) {
        let _ = self.w.write_event(Event::End(BytesEnd::new(name)));
    }

    /// An element holding text, with attributes.
    pub(crate) fn leaf_with(&mut self, name: &str, attrs: &[(&str, &str)], text: &str) {
        self.open_with(name, attrs);
        let _ = self
            .w
            .write_event(Event::Text(BytesText::new(clean(text).as_ref())));
        self.close(name);
    }

    /// An element holding text.
    pub(crate) fn leaf(&mut self, name: &str, text: &str) {
        self.leaf_with(name, &[], text);
    }

    /// An element holding text, written only when there is text.
    /// `<outer><name>text</name></outer>`.
    pub(crate) fn wrapped(&mut self, outer: &str, name: &str, text: &str) {
        self.open(outer);
        self.leaf(name, text);
        self.close(outer);
    }

    pub(crate) fn opt_leaf(&mut self, name: &str, text: Option<&str>) {
        if let Some(text) = text {
            self.leaf(name, text);
        }
    }

    /// An element holding text whose start tag is `content` (`name attr="value"`)
    /// as given: for attributes whose value needs no escaping, such as the crate's own
    /// ISO 4217 currency codes, so that no buffer is built per element.
    pub(crate) fn leaf_raw_start(&mut self, content: &str, name: &str, text: &str) {
        let start = BytesStart::from_content(content, name.len());
        let _ = self.w.write_event(Event::Start(start));
        let _ = self
            .w
            .write_event(Event::Text(BytesText::new(clean(text).as_ref())));
        self.close(name);
    }
}

#[cfg(test)]
mod tests;
