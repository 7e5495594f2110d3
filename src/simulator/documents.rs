//! The stored documents and what happens to them outside a request (docs/scenario.md):
//! `TICK` delivers what is under way (the files of every document exist, every send
//! under way arrives); `SET` is the back office overriding state fields. Nothing here
//! is asynchronous code: a scenario's `TICK` stands for the time that passes.
//!
//! The stored documents keep the ids of those a `TICK` would change, so a `TICK`
//! costs what it delivers, not the number of documents stored.

use super::endpoints::{json_out, Out, Reply};
use super::request::Body;
use super::Simulator;
use crate::document::{Document, PeppolStatus};
use crate::http::{error, not_found_id, Answer};
use crate::lifecycle;
use serde_json::{Map, Value};
use std::collections::{BTreeSet, HashMap, HashSet};

/// The stored documents by id, and the ids of those still pending: a `TICK` would
/// change them (a file not yet available, a send under way). Found by hashing: a
/// lookup costs the same among 40 000 documents as among 40; the rare walks over all
/// of them (a server saving its world) sort the ids.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Documents {
    by_id: HashMap<String, Document>,
    pending: BTreeSet<String>,
    /// The ids of the documents written since [`Simulator::take_written`] (issued or
    /// received).
    pub(crate) written: HashSet<String>,
}

impl Documents {
    /// The document `id`.
    pub(crate) fn get(&self, id: &str) -> Option<&Document> {
        self.by_id.get(id)
    }

    /// Forgets every document (before a restore).
    pub(crate) fn clear(&mut self) {
        self.by_id.clear();
        self.pending.clear();
        self.written.clear();
    }

    /// Every stored document, in the order of their ids.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &Document> {
        let mut ids: Vec<&String> = self.by_id.keys().collect();
        ids.sort_unstable();
        ids.into_iter().filter_map(|id| self.by_id.get(id))
    }

    /// Stores a document (replacing the one of that id).
    pub(crate) fn insert(&mut self, id: String, doc: Document) {
        self.written.insert(id.clone());
        if after_tick(&doc) == state(&doc) {
            self.pending.remove(&id);
        } else {
            self.pending.insert(id.clone());
        }
        self.by_id.insert(id, doc);
    }

    /// `TICK` on every pending document; none is pending after. The ids of the
    /// documents whose PDF came to exist.
    fn tick(&mut self) -> Vec<String> {
        let mut pdfs = Vec::new();
        for id in std::mem::take(&mut self.pending) {
            if let Some(doc) = self.by_id.get_mut(&id) {
                let had_pdf = doc.pdf_available;
                (doc.pdf_available, doc.xml_available, doc.peppol_status) = after_tick(doc);
                if !had_pdf {
                    pdfs.push(id.clone());
                }
                self.written.insert(id);
            }
        }
        pdfs
    }
}

/// The files and the Peppol status of a document.
fn state(doc: &Document) -> (bool, bool, PeppolStatus) {
    (doc.pdf_available, doc.xml_available, doc.peppol_status)
}

/// What a `TICK` makes of them: the files of the document exist (a proforma never
/// has a UBL, docs/peppol.md §5), and a send under way arrives.
fn after_tick(doc: &Document) -> (bool, bool, PeppolStatus) {
    let peppol_status = match doc.peppol_status {
        PeppolStatus::Sending => PeppolStatus::Sent,
        other => other,
    };
    (
        true,
        doc.doc_type.is_peppol_type() || doc.xml_available,
        peppol_status,
    )
}

impl Simulator {
    /// `TICK`: the files of every document exist, and every send under way arrives.
    pub(super) fn tick(&mut self) -> Answer {
        for id in self.documents.tick() {
            self.follow_pdf_flag(&id);
        }
        (200, Value::Object(Map::new()))
    }

    /// `SET /documents/{id}`: the back office overrides state fields.
    pub(super) fn set(&mut self, id: &str, body: &Body) -> Out {
        let Some(stored) = self.documents.get(id) else {
            if self.received.contains_key(id) {
                return json_out(Simulator::received_set(id));
            }
            return json_out(not_found_id("document", id));
        };
        let state = match body.required() {
            Ok(v) => v,
            Err(answer) => return json_out(answer),
        };
        match lifecycle::apply_state(stored, state) {
            Ok(doc) => {
                self.store(id.to_owned(), doc);
                (200, Reply::Stored(id.to_owned()))
            }
            Err(e) => json_out(error(&e)),
        }
    }
}

#[cfg(test)]
mod tests;
