//! The simulator's store: the core ([`crate::app`]) over memory. The world of a
//! scenario (company, relations, journals, locations, brandings, counters), the issued
//! and received documents, their files, and the counts of the ids handed out.

use super::documents::Documents;
use super::files::Files;
use super::world::World;
use super::Records;
use crate::app::{Found, Pdf, Store};
use crate::context::{Company, Context, ContextError, DeliveryLocation, Journal, Relation};
use crate::document::Document;
use crate::lifecycle::DrawnNumber;
use crate::numbering::{JournalCategory, Window};
use crate::stored::StoredReceived;
use chrono::{DateTime, NaiveDate, Utc};
use serde_json::Value;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::OnceLock;

/// Everything a scenario's world keeps, in memory: the core's [`Store`] of the
/// simulator. It never fails. A server reads the records of a scenario it was seeded
/// with (company, relations, journals, locations, brandings: what no request changes
/// but the default branding) through it, and keeps everything else in its database.
#[derive(Debug, Clone, Default)]
pub struct Memory {
    pub(crate) world: World,
    pub(crate) records: Records,
    pub(crate) documents: Documents,
    pub(crate) received: BTreeMap<String, StoredReceived>,
    pub(crate) files: Files,
    /// The successful creates of live and of sandbox clients.
    pub(crate) created_live: u64,
    pub(crate) created_sandbox: u64,
    /// The relations read from their texts in the order of their ids, once asked for
    /// (no request changes a relation).
    relations_by_id: OnceLock<Vec<Relation>>,
}

impl Memory {
    /// A store over `world`, with no document yet.
    pub(crate) fn new(world: World) -> Memory {
        Memory {
            world,
            ..Memory::default()
        }
    }
}

impl Context for Memory {
    fn today(&self) -> NaiveDate {
        self.world.today()
    }

    fn now(&self) -> DateTime<Utc> {
        self.world.now()
    }

    fn company(&self) -> &Company {
        self.world.company()
    }

    fn relation(&self, id: &str) -> Result<Option<Relation>, ContextError> {
        self.world.relation(id)
    }

    fn journal(&self, id: &str) -> Result<Option<Journal>, ContextError> {
        self.world.journal(id)
    }

    fn default_journal(&self, category: JournalCategory) -> Result<Option<Journal>, ContextError> {
        self.world.default_journal(category)
    }

    fn delivery_location(&self, id: &str) -> Result<Option<DeliveryLocation>, ContextError> {
        self.world.delivery_location(id)
    }

    fn next_sequence(&self, journal: &Journal, window: Window) -> Result<u64, ContextError> {
        self.world.next_sequence(journal, window)
    }
}

impl Store for Memory {
    fn relation_record(&self, id: &str) -> Found<Cow<'_, str>> {
        Ok(self.world.relations.get(id).map(Cow::Borrowed))
    }

    fn relations(&self) -> Result<Cow<'_, [Relation]>, ContextError> {
        let list = self
            .relations_by_id
            .get_or_init(|| self.world.relations_by_id());
        Ok(Cow::Borrowed(list.as_slice()))
    }

    fn location_record(&self, id: &str) -> Found<Cow<'_, str>> {
        Ok(self.world.locations.get(id).map(Cow::Borrowed))
    }

    fn location_records(&self, relation_id: &str) -> Result<Vec<Cow<'_, str>>, ContextError> {
        Ok(self
            .world
            .locations
            .texts_of(relation_id)
            .map(Cow::Borrowed)
            .collect())
    }

    fn journal_record(&self, id: &str) -> Found<Value> {
        Ok(self.records.journals.get(id).cloned())
    }

    fn branding_record(&self, id: &str) -> Found<Value> {
        let brandings = &self.records.brandings;
        Ok(brandings
            .position(id)
            .and_then(|i| brandings.get(i))
            .cloned())
    }

    fn default_branding(&self) -> Found<String> {
        let brandings = &self.records.brandings;
        Ok(brandings
            .default_index()
            .and_then(|i| brandings.id(i))
            .map(str::to_owned))
    }

    fn branding_page(&self, id: &str) -> Found<Cow<'_, crate::pdf::Branding>> {
        let brandings = &self.records.brandings;
        Ok(brandings
            .position(id)
            .and_then(|i| brandings.page(i))
            .map(Cow::Borrowed))
    }

    fn designate_branding(&mut self, id: &str) -> Result<(), ContextError> {
        if let Some(index) = self.records.brandings.position(id) {
            self.records.brandings.designate(index);
        }
        Ok(())
    }

    fn issued(&self, id: &str) -> Found<Cow<'_, Document>> {
        Ok(self.documents.get(id).map(Cow::Borrowed))
    }

    fn received(&self, id: &str) -> Found<Cow<'_, StoredReceived>> {
        Ok(self.received.get(id).map(Cow::Borrowed))
    }

    fn put_issued(&mut self, doc: Document, waiting: bool) -> Result<(), ContextError> {
        self.documents.insert(doc, waiting);
        Ok(())
    }

    fn put_received(&mut self, doc: StoredReceived) -> Result<(), ContextError> {
        self.received.insert(doc.id.clone(), doc);
        Ok(())
    }

    fn document_id(&mut self, sandbox: bool, take: bool) -> Result<String, ContextError> {
        let (count, prefix) = if sandbox {
            (&mut self.created_sandbox, "sbx")
        } else {
            (&mut self.created_live, "doc")
        };
        let next = count.saturating_add(1);
        if take {
            *count = next;
        }
        Ok(format!("{prefix}-{next}"))
    }

    fn commit_number(&mut self, number: &DrawnNumber) -> Result<(), ContextError> {
        self.world.advance(number);
        Ok(())
    }

    fn waiting(&self) -> Result<Vec<String>, ContextError> {
        Ok(self.documents.pending.iter().cloned().collect())
    }

    fn attachments(&self, id: &str) -> Result<Vec<Arc<[u8]>>, ContextError> {
        Ok(self
            .files
            .attachments
            .get(id)
            .map_or_else(Vec::new, Clone::clone))
    }

    fn add_attachment(&mut self, id: &str, bytes: Arc<[u8]>) -> Result<(), ContextError> {
        self.files
            .attachments
            .entry(id.to_owned())
            .or_default()
            .push(bytes);
        Ok(())
    }

    fn pdf(&self, id: &str) -> Result<Pdf, ContextError> {
        Ok(self.files.pdfs.get(id).cloned().unwrap_or(Pdf::Missing))
    }

    fn put_pdf(&mut self, id: &str, pdf: Pdf) -> Result<(), ContextError> {
        match pdf {
            Pdf::Missing => {
                self.files.pdfs.remove(id);
            }
            pdf => {
                self.files.pdfs.insert(id.to_owned(), pdf);
            }
        }
        Ok(())
    }
}
