//! The facts of a received UBL read from the one model of the bytes, the [`Dom`] the
//! rule engine judges: one walk over its elements in document order, keeping only the
//! values the received document needs ([`Facts`]). The bytes are read once, by
//! [`Dom::read`] (quick-xml's namespace-aware reader: no DTD is read, no entity but the
//! five predefined ones and character references is ever resolved).
//!
//! The byte scanner that used to read the most common UBL beside quick-xml (3.5×
//! cheaper than quick-xml alone) is gone: every received document is now also judged
//! by every rule of the artefacts over the same `Dom`, which costs two orders of
//! magnitude more than either reading, so a second reader of the same bytes would save
//! nothing measurable.

use super::facts::{
    cac_name, cbc_name, finish, is_text_element, wanted_attribute, Builder, Facts, NotUbl, Root, N,
    NS_CAC, NS_CBC, NS_CREDIT_NOTE, NS_INVOICE,
};
use crate::ubl::dom::{Dom, NodeId};

/// The name of an element below the root, resolved against its namespace.
fn name_of(dom: &Dom, id: NodeId) -> N {
    let local = dom.name(id).as_bytes();
    match dom.namespace_uri(id) {
        NS_CBC => cbc_name(local),
        NS_CAC => cac_name(local),
        _ => N::Other,
    }
}

/// Reads the facts of what should be a UBL Invoice or CreditNote.
pub(crate) fn read_facts(dom: &Dom) -> Result<Facts, NotUbl> {
    let root = dom.root();
    let mut b = Builder::default();
    b.facts.root = match (dom.namespace_uri(root), dom.name(root)) {
        (NS_INVOICE, "Invoice") => Root::Invoice,
        (NS_CREDIT_NOTE, "CreditNote") => Root::CreditNote,
        (ns, local) => {
            return Err(format!(
                "the root element is {local:?} in the namespace {ns:?}, not a UBL 2.1 Invoice or CreditNote"
            ))
        }
    };
    let mut w = Walk {
        dom,
        b,
        stack: Vec::new(),
        ids: Vec::new(),
        capture: None,
        attr: None,
    };
    let all = dom.subtree(root);
    for id in all.start.saturating_add(1)..all.end {
        while w
            .ids
            .last()
            .is_some_and(|&open| !dom.subtree(open).contains(&id))
        {
            w.close();
        }
        w.open(id);
    }
    while !w.ids.is_empty() {
        w.close();
    }
    Ok(w.b.facts)
}

/// The walk's state: the elements open from the root's first child down, as the
/// builder names them and as the `Dom` numbers them, and the text element being read.
struct Walk<'d> {
    dom: &'d Dom,
    b: Builder,
    stack: Vec<N>,
    ids: Vec<NodeId>,
    /// The depth of the innermost text element open with no text element inside it.
    capture: Option<usize>,
    /// Its wanted attribute.
    attr: Option<String>,
}

impl Walk<'_> {
    fn open(&mut self, id: NodeId) {
        let n = name_of(self.dom, id);
        self.stack.push(n);
        self.ids.push(id);
        self.b.open(&self.stack);
        if is_text_element(n) {
            self.capture = Some(self.stack.len());
            self.attr = wanted_attribute(n)
                .and_then(|key| self.dom.attribute(id, key))
                .map(str::to_owned);
        }
    }

    fn close(&mut self) {
        let Some(id) = self.ids.pop() else { return };
        let text = if self.capture == Some(self.stack.len()) {
            self.dom.string_value(id)
        } else {
            std::borrow::Cow::Borrowed("")
        };
        finish(
            &mut self.b,
            &mut self.stack,
            &mut self.capture,
            &text,
            self.attr.as_deref(),
        );
    }
}
