//! The issued documents the simulator keeps, and the ids of those the asynchronous
//! world still has a step for ([`crate::app::waits`]), so that a `TICK` costs what it
//! delivers, not the number of documents stored.

use crate::document::Document;
use std::collections::{BTreeSet, HashMap};

/// The stored documents by id, and the ids of those still pending. Found by hashing:
/// a lookup costs the same among 40 000 documents as among 40; the rare walks over
/// all of them (a server seeding its database) sort the ids.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Documents {
    by_id: HashMap<String, Document>,
    pub(crate) pending: BTreeSet<String>,
}

impl Documents {
    /// The document `id`.
    pub(crate) fn get(&self, id: &str) -> Option<&Document> {
        self.by_id.get(id)
    }

    /// Every stored document, in the order of their ids.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &Document> {
        let mut ids: Vec<&String> = self.by_id.keys().collect();
        ids.sort_unstable();
        ids.into_iter().filter_map(|id| self.by_id.get(id))
    }

    /// Stores a document under its id (replacing the one of that id), pending while
    /// `waiting`.
    pub(crate) fn insert(&mut self, doc: Document, waiting: bool) {
        if waiting {
            self.pending.insert(doc.id.clone());
        } else {
            self.pending.remove(&doc.id);
        }
        self.by_id.insert(doc.id.clone(), doc);
    }
}

#[cfg(test)]
mod tests;
