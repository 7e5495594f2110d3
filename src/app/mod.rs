//! The application core: every operation of the interface over a [`Store`] the caller
//! implements. The simulator is this core over memory ([`crate::simulator`]); a
//! server is this core over its database (the example server in `examples/server/`
//! runs it over PostgreSQL and SQLite).
//!
//! The core is pure like the rest of the crate: no clock, file, network or randomness
//! of its own. What it reads and writes goes through the store: the company and its
//! records ([`crate::context::Context`], which [`Store`] extends), the documents and
//! their files, the journal counters and the documents that wait for the
//! asynchronous world. One call of an operation is one unit of work: a server opens a
//! transaction, hands the core a store over it, and commits once the core answers
//! (nothing of a refused request is written: every operation decides before it writes).
//!
//! - [`dispatch`] routes an authenticated request (method, path, query, body) to its
//!   operation and answers its status and body; authentication and `/auth/token`
//!   belong to the caller (the simulator's tokens, or a server's own).
//! - [`tick`] moves one waiting document one step through the asynchronous world (its
//!   files come to exist, a send under way arrives); [`tick_all`] does so for every
//!   waiting document (the scenario's `TICK`).
//! - [`set`] is the back office overriding state fields (the scenario's `SET`).
//! - [`receive`] reads received bytes into a stored received document.
//!
//! Decisions taken where the specification is silent:
//! - A document's id is drawn only once its create succeeded: a refused create uses no
//!   id (ids `doc-1`, `doc-2` … follow the successful creates, as the simulator has
//!   always answered). The core asks the store for the id it expects
//!   ([`Store::document_id`] with `take` false), creates with it, then takes one; a
//!   store whose ids can move in between (a database sequence shared by several
//!   instances) gets the create run again with the id it handed out.
//! - A document's PDF is owed from the moment its `pdf_available` turns true, with the
//!   default branding in force then, and rendered when it is first read or just before
//!   the document changes, from the state it had when it was owed ([`Pdf`]): the bytes
//!   are those a render at that moment would have made.

mod endpoints;
mod files;
mod inbox;
mod reply;
pub mod request;
mod save;
mod world;

pub use endpoints::{designate, dispatch};
pub use files::{files_of, settle_pdf, DocumentFiles};
pub use inbox::{receive, Received};
#[cfg(test)]
pub(crate) use reply::record_value;
pub use reply::{Out, Reply};
pub use request::{parse_query, Body, Method, ReqBody, Request, Route, Upload};
pub use save::{save as save_document, waits};
pub use world::{set, tick, tick_all};

use crate::context::{Context, ContextError, Permissions};
use crate::document::Document;
use crate::lifecycle::DrawnNumber;
use crate::stored::StoredReceived;
use serde_json::Value;
use std::borrow::Cow;
use std::sync::Arc;

/// The client a request acts for, as its caller authenticated it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caller {
    /// A sandbox client: every operation answers as for a live one, nothing is kept.
    pub sandbox: bool,
    /// What the client may do.
    pub permissions: Permissions,
}

/// The PDF of a document, as a store keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pdf {
    /// None (`pdf_available` is false).
    Missing,
    /// Owed: `pdf_available` turned true while this branding (by id, `None` for no
    /// branding) was the default; rendered when first read or before the document
    /// changes.
    Owed(Option<String>),
    /// Rendered (or received): the bytes.
    Kept(Arc<[u8]>),
}

/// A lookup's answer: `Ok(None)` for a record that does not exist, `Err` for a
/// storage failure (answered 500 `internal_error`).
pub type Found<T> = Result<Option<T>, ContextError>;

/// What the core reads and writes, implemented by the caller over its storage. Every
/// call of one operation belongs to one unit of work (a server's transaction): the
/// writes of a refused request are never made, and a storage error (`Err`) answers
/// 500 `internal_error` and must roll the unit of work back.
///
/// The [`Context`] half is what the rules read; [`Context::next_sequence`] is read
/// inside the unit of work that stores the created document and commits its number
/// ([`Store::commit_number`]): a database locks that journal's counter row there.
pub trait Store: Context {
    /// The relation `id` as the record the caller keeps (`GET /relations/{id}`), as
    /// its JSON text.
    fn relation_record(&self, id: &str) -> Found<Cow<'_, str>>;
    /// Every relation, in the order of their ids (a received document is matched to
    /// the first whose Peppol id, else VAT number, it names).
    fn relations(&self) -> Result<Cow<'_, [crate::context::Relation]>, ContextError>;
    /// The delivery location `id` as its JSON record text.
    fn location_record(&self, id: &str) -> Found<Cow<'_, str>>;
    /// The delivery locations of relation `relation_id`, as their JSON record texts,
    /// in the order they were saved.
    fn location_records(&self, relation_id: &str) -> Result<Vec<Cow<'_, str>>, ContextError>;
    /// The journal `id` as its record (`GET /journals/{id}`).
    fn journal_record(&self, id: &str) -> Found<Value>;
    /// The branding `id` as its record, its `default` up to date.
    fn branding_record(&self, id: &str) -> Found<Value>;
    /// The id of the default branding, if any.
    fn default_branding(&self) -> Found<String>;
    /// What the PDF of a document draws of the branding `id`.
    fn branding_page(&self, id: &str) -> Found<Cow<'_, crate::pdf::Branding>>;
    /// Makes the branding `id` the default (and no other).
    fn designate_branding(&mut self, id: &str) -> Result<(), ContextError>;

    /// The issued document `id`.
    fn issued(&self, id: &str) -> Found<Cow<'_, Document>>;
    /// The received document `id`.
    fn received(&self, id: &str) -> Found<Cow<'_, StoredReceived>>;
    /// Called before an operation reads the document `id` to change it: a database
    /// locks its row until the unit of work ends. The default does nothing.
    fn lock_document(&mut self, id: &str) -> Result<(), ContextError> {
        let _ = id;
        Ok(())
    }
    /// Stores an issued document under its id (replacing the one of that id).
    /// `waiting` says whether the asynchronous world still has a step for it
    /// ([`tick`]): the store lists it in [`Store::waiting`] while it is true.
    fn put_issued(&mut self, doc: Document, waiting: bool) -> Result<(), ContextError>;
    /// Stores a received document under its id.
    fn put_received(&mut self, doc: StoredReceived) -> Result<(), ContextError>;
    /// The id of the next created document: `doc-N` for a live client, `sbx-N` for a
    /// sandbox one, N counting the successful creates of that kind from 1. With
    /// `take` false, the id the next create is expected to get (nothing changes);
    /// with `take` true, the id it gets (the count moves on).
    fn document_id(&mut self, sandbox: bool, take: bool) -> Result<String, ContextError>;
    /// Commits a drawn number: the counter of its journal and window moves past it
    /// (never back).
    fn commit_number(&mut self, number: &DrawnNumber) -> Result<(), ContextError>;
    /// The ids of the issued documents the asynchronous world still has a step for,
    /// in the order of their ids.
    fn waiting(&self) -> Result<Vec<String>, ContextError>;

    /// The bytes of the attachments of document `id`, in the order attached.
    fn attachments(&self, id: &str) -> Result<Vec<Arc<[u8]>>, ContextError>;
    /// Keeps the bytes of a new attachment of document `id` (after the others).
    fn add_attachment(&mut self, id: &str, bytes: Arc<[u8]>) -> Result<(), ContextError>;
    /// The PDF of document `id`.
    fn pdf(&self, id: &str) -> Result<Pdf, ContextError>;
    /// Keeps the PDF of document `id`.
    fn put_pdf(&mut self, id: &str, pdf: Pdf) -> Result<(), ContextError>;
}
