//! The core's store over the database ([`invoicing_core::app::Store`]): one unit of work
//! of one company. What no request changes but the default branding (the company,
//! its relations, journals, delivery locations and the brandings' pages) is read from
//! the scenario the company was seeded with, loaded once per instance
//! ([`Company::seed`]); documents, their files, the journal counters, the ids handed
//! out and the brandings' records are read from and written to the database, in the
//! unit of work, and never kept past it.
//!
//! Locks (PostgreSQL): a create locks only the counter row of its journal and window
//! (`SELECT … FOR UPDATE` in [`Context::next_sequence`]), drawn and stored in one
//! transaction; its id comes from a sequence of the company, which never waits. A
//! PATCH, a send, an upload and the worker's step lock only their document's row
//! ([`Store::lock_document`]); a read takes no lock.

use super::sql::{Result, Sql, StoreError, Val};
use chrono::{DateTime, NaiveDate, Utc};
use invoicing_core::app::{Found, Pdf, Store};
use invoicing_core::context::{
    Company as Settings, Context, ContextError, DeliveryLocation, Journal, Relation,
};
use invoicing_core::document::Document;
use invoicing_core::lifecycle::DrawnNumber;
use invoicing_core::numbering::{JournalCategory, Window};
use invoicing_core::simulator::{Memory, Simulator};
use invoicing_core::stored::{StoredDocument, StoredReceived};
use serde_json::Value;
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

/// A company of the database: its key, and the scenario it was seeded with, loaded
/// (its records; its documents are the database's).
pub struct Company {
    pub key: i64,
    pub seed: Simulator,
}

/// One unit of work of one company over the database.
pub struct DbStore<'a> {
    sql: RefCell<&'a mut dyn Sql>,
    company: &'a Company,
    today: NaiveDate,
    now: DateTime<Utc>,
    /// The documents read or written in this unit of work, by id (`None`: none).
    cache: HashMap<String, Option<StoredDocument>>,
    /// The first storage failure, kept so that the caller retries or answers 500.
    failure: RefCell<Option<StoreError>>,
}

impl<'a> DbStore<'a> {
    pub fn new(
        sql: &'a mut dyn Sql,
        company: &'a Company,
        today: NaiveDate,
        now: DateTime<Utc>,
    ) -> DbStore<'a> {
        DbStore {
            sql: RefCell::new(sql),
            company,
            today,
            now,
            cache: HashMap::new(),
            failure: RefCell::new(None),
        }
    }

    /// The first storage failure of the unit of work, if any.
    pub fn failure(&self) -> Option<StoreError> {
        self.failure.borrow_mut().take()
    }

    fn seed(&self) -> &Memory {
        self.company.seed.store()
    }

    fn key(&self) -> Val {
        Val::Int(self.company.key)
    }

    /// Keeps a failure and answers it as the core's storage error.
    fn fail(&self, e: StoreError) -> ContextError {
        let message = e.message.clone();
        let mut kept = self.failure.borrow_mut();
        if kept.is_none() {
            *kept = Some(e);
        }
        ContextError(message)
    }

    fn exec(&self, sql: &str, params: &[Val]) -> std::result::Result<u64, ContextError> {
        let done = self.sql.borrow_mut().exec(sql, params);
        done.map_err(|e| self.fail(e))
    }

    fn rows(&self, sql: &str, params: &[Val]) -> std::result::Result<Vec<Vec<Val>>, ContextError> {
        let done = self.sql.borrow_mut().rows(sql, params);
        done.map_err(|e| self.fail(e))
    }

    fn row(
        &self,
        sql: &str,
        params: &[Val],
    ) -> std::result::Result<Option<Vec<Val>>, ContextError> {
        Ok(self.rows(sql, params)?.into_iter().next())
    }

    fn pg(&self) -> bool {
        self.sql.borrow().pg()
    }

    /// Reads the document `id` into the unit of work (locking its row when `lock`).
    pub fn load(&mut self, id: &str, lock: bool) -> std::result::Result<(), ContextError> {
        let sql = if lock {
            "SELECT stored FROM documents WHERE company = $1 AND id = $2 FOR UPDATE"
        } else {
            "SELECT stored FROM documents WHERE company = $1 AND id = $2"
        };
        let row = self.row(sql, &[self.key(), id.into()])?;
        let doc = match row.and_then(|mut r| r.pop()).and_then(Val::bytes) {
            Some(bytes) => Some(
                StoredDocument::load(&bytes)
                    .map_err(|e| self.fail(StoreError::fatal(format!("{id}: {e}"))))?,
            ),
            None => None,
        };
        self.cache.insert(id.to_owned(), doc);
        Ok(())
    }

    /// The document `id`, from the unit of work or the database.
    fn document(&self, id: &str) -> Found<Cow<'_, StoredDocument>> {
        if let Some(doc) = self.cache.get(id) {
            return Ok(doc.as_ref().map(Cow::Borrowed));
        }
        let row = self.row(
            "SELECT stored FROM documents WHERE company = $1 AND id = $2",
            &[self.key(), id.into()],
        )?;
        match row.and_then(|mut r| r.pop()).and_then(Val::bytes) {
            Some(bytes) => StoredDocument::load(&bytes)
                .map(|d| Some(Cow::Owned(d)))
                .map_err(|e| self.fail(StoreError::fatal(format!("{id}: {e}")))),
            None => Ok(None),
        }
    }

    fn put(&mut self, doc: StoredDocument, waiting: bool) -> std::result::Result<(), ContextError> {
        let id = doc.id().to_owned();
        self.exec(
            "INSERT INTO documents (company, id, stored, waiting) VALUES ($1, $2, $3, $4)
             ON CONFLICT (company, id) DO UPDATE SET stored = excluded.stored, waiting = excluded.waiting",
            &[self.key(), id.as_str().into(), Val::Bytes(doc.store()), waiting.into()],
        )?;
        self.cache.insert(id, Some(doc));
        Ok(())
    }

    /// The brandings of the company: id and record, in scenario order.
    fn brandings(&self, lock: bool) -> std::result::Result<Vec<(String, Value)>, ContextError> {
        let sql = if lock {
            "SELECT id, record FROM brandings WHERE company = $1 ORDER BY position FOR UPDATE"
        } else {
            "SELECT id, record FROM brandings WHERE company = $1 ORDER BY position"
        };
        Ok(self
            .rows(sql, &[self.key()])?
            .into_iter()
            .filter_map(|r| {
                let mut r = r.into_iter();
                let id = r.next()?.text()?;
                let record = invoicing_core::json::from_str(&r.next()?.text()?).ok()?;
                Some((id, record))
            })
            .collect())
    }

    /// The sequence of the company's ids of a kind (PostgreSQL).
    fn sequence(&self, sandbox: bool) -> String {
        let kind = if sandbox { "sbx" } else { "doc" };
        format!("{kind}_ids_{}", self.company.key)
    }
}

impl Context for DbStore<'_> {
    fn today(&self) -> NaiveDate {
        self.today
    }

    fn now(&self) -> DateTime<Utc> {
        self.now
    }

    fn company(&self) -> &Settings {
        self.seed().company()
    }

    fn relation(&self, id: &str) -> std::result::Result<Option<Relation>, ContextError> {
        self.seed().relation(id)
    }

    fn journal(&self, id: &str) -> std::result::Result<Option<Journal>, ContextError> {
        self.seed().journal(id)
    }

    fn default_journal(
        &self,
        category: JournalCategory,
    ) -> std::result::Result<Option<Journal>, ContextError> {
        self.seed().default_journal(category)
    }

    fn delivery_location(
        &self,
        id: &str,
    ) -> std::result::Result<Option<DeliveryLocation>, ContextError> {
        self.seed().delivery_location(id)
    }

    fn next_sequence(
        &self,
        journal: &Journal,
        window: Window,
    ) -> std::result::Result<u64, ContextError> {
        let params = [
            self.key(),
            journal.id.as_str().into(),
            window.to_string().into(),
        ];
        self.exec(
            "INSERT INTO counters (company, journal_id, num_window, next) VALUES ($1, $2, $3, '1')
             ON CONFLICT (company, journal_id, num_window) DO NOTHING",
            &params,
        )?;
        let row = self.row(
            "SELECT next FROM counters WHERE company = $1 AND journal_id = $2 AND num_window = $3 FOR UPDATE",
            &params,
        )?;
        row.and_then(|mut r| r.pop())
            .and_then(Val::text)
            .and_then(|t| t.parse().ok())
            .ok_or_else(|| self.fail(StoreError::fatal("a counter is not a number")))
    }
}

impl Store for DbStore<'_> {
    fn relation_record(&self, id: &str) -> Found<Cow<'_, str>> {
        self.seed().relation_record(id)
    }

    fn relations(&self) -> std::result::Result<Cow<'_, [Relation]>, ContextError> {
        self.seed().relations()
    }

    fn location_record(&self, id: &str) -> Found<Cow<'_, str>> {
        self.seed().location_record(id)
    }

    fn location_records(
        &self,
        relation_id: &str,
    ) -> std::result::Result<Vec<Cow<'_, str>>, ContextError> {
        self.seed().location_records(relation_id)
    }

    fn journal_record(&self, id: &str) -> Found<Value> {
        self.seed().journal_record(id)
    }

    fn branding_record(&self, id: &str) -> Found<Value> {
        let row = self.row(
            "SELECT record FROM brandings WHERE company = $1 AND id = $2",
            &[self.key(), id.into()],
        )?;
        Ok(row
            .and_then(|mut r| r.pop())
            .and_then(Val::text)
            .and_then(|t| invoicing_core::json::from_str(&t).ok()))
    }

    fn default_branding(&self) -> Found<String> {
        Ok(self
            .brandings(false)?
            .into_iter()
            .find(|(_, r)| r.get("default") == Some(&Value::Bool(true)))
            .map(|(id, _)| id))
    }

    fn branding_page(&self, id: &str) -> Found<Cow<'_, invoicing_core::pdf::Branding>> {
        self.seed().branding_page(id)
    }

    fn designate_branding(&mut self, id: &str) -> std::result::Result<(), ContextError> {
        let mut all = self.brandings(true)?;
        let before = all.clone();
        let Some(index) = all.iter().position(|(b, _)| b == id) else {
            return Ok(());
        };
        invoicing_core::app::designate(&mut all, index);
        for ((id, record), (_, old)) in all.iter().zip(&before) {
            if record != old {
                self.exec(
                    "UPDATE brandings SET record = $3 WHERE company = $1 AND id = $2",
                    &[self.key(), id.as_str().into(), record.to_string().into()],
                )?;
            }
        }
        Ok(())
    }

    fn issued(&self, id: &str) -> Found<Cow<'_, Document>> {
        Ok(match self.document(id)? {
            Some(Cow::Borrowed(StoredDocument::Issued(d))) => Some(Cow::Borrowed(d)),
            Some(Cow::Owned(StoredDocument::Issued(d))) => Some(Cow::Owned(d)),
            _ => None,
        })
    }

    fn received(&self, id: &str) -> Found<Cow<'_, StoredReceived>> {
        Ok(match self.document(id)? {
            Some(Cow::Borrowed(StoredDocument::Received(r))) => Some(Cow::Borrowed(&**r)),
            Some(Cow::Owned(StoredDocument::Received(r))) => Some(Cow::Owned(*r)),
            _ => None,
        })
    }

    fn lock_document(&mut self, id: &str) -> std::result::Result<(), ContextError> {
        self.load(id, true)
    }

    fn put_issued(
        &mut self,
        doc: Document,
        waiting: bool,
    ) -> std::result::Result<(), ContextError> {
        self.put(StoredDocument::Issued(doc), waiting)
    }

    fn put_received(&mut self, doc: StoredReceived) -> std::result::Result<(), ContextError> {
        self.put(StoredDocument::Received(Box::new(doc)), false)
    }

    fn document_id(
        &mut self,
        sandbox: bool,
        take: bool,
    ) -> std::result::Result<String, ContextError> {
        let prefix = if sandbox { "sbx" } else { "doc" };
        let n = if self.pg() {
            let seq = self.sequence(sandbox);
            if take {
                let row = self.row(&format!("SELECT nextval('{seq}')"), &[])?;
                row.and_then(|r| r.first().and_then(Val::int))
            } else {
                let row = self.row(&format!("SELECT last_value, is_called FROM {seq}"), &[])?;
                row.and_then(|r| {
                    let last = r.first().and_then(Val::int)?;
                    let called = r.get(1).and_then(Val::int).is_some_and(|c| c != 0);
                    Some(if called { last + 1 } else { last })
                })
            }
        } else {
            let column = if sandbox { "sandbox" } else { "live" };
            if take {
                self.exec(
                    &format!("UPDATE companies SET {column} = {column} + 1 WHERE id = $1"),
                    &[self.key()],
                )?;
            }
            let row = self.row(
                &format!("SELECT {column} FROM companies WHERE id = $1"),
                &[self.key()],
            )?;
            row.and_then(|r| r.first().and_then(Val::int))
                .map(|n| if take { n } else { n + 1 })
        };
        let n = n.ok_or_else(|| self.fail(StoreError::fatal("the company has no id counter")))?;
        Ok(format!("{prefix}-{n}"))
    }

    fn commit_number(&mut self, number: &DrawnNumber) -> std::result::Result<(), ContextError> {
        let next = number.sequence.saturating_add(1).to_string();
        self.exec(
            "INSERT INTO counters (company, journal_id, num_window, next) VALUES ($1, $2, $3, $4)
             ON CONFLICT (company, journal_id, num_window) DO UPDATE SET next = excluded.next",
            &[
                self.key(),
                number.journal_id.as_str().into(),
                number.window.to_string().into(),
                next.into(),
            ],
        )
        .map(drop)
    }

    fn waiting(&self) -> std::result::Result<Vec<String>, ContextError> {
        Ok(self
            .rows(
                "SELECT id FROM documents WHERE company = $1 AND waiting = 1 ORDER BY id COLLATE \"C\"",
                &[self.key()],
            )?
            .into_iter()
            .filter_map(|r| r.into_iter().next().and_then(Val::text))
            .collect())
    }

    fn attachments(&self, id: &str) -> std::result::Result<Vec<Arc<[u8]>>, ContextError> {
        Ok(self
            .rows(
                "SELECT bytes FROM attachments WHERE company = $1 AND document_id = $2 ORDER BY position",
                &[self.key(), id.into()],
            )?
            .into_iter()
            .filter_map(|r| r.into_iter().next().and_then(Val::bytes).map(Arc::from))
            .collect())
    }

    fn add_attachment(
        &mut self,
        id: &str,
        bytes: Arc<[u8]>,
    ) -> std::result::Result<(), ContextError> {
        let count = self
            .row(
                "SELECT COUNT(*) FROM attachments WHERE company = $1 AND document_id = $2",
                &[self.key(), id.into()],
            )?
            .and_then(|r| r.first().and_then(Val::int))
            .unwrap_or(0);
        self.exec(
            "INSERT INTO attachments (company, document_id, position, bytes) VALUES ($1, $2, $3, $4)",
            &[self.key(), id.into(), count.into(), Val::Bytes(bytes.to_vec())],
        )
        .map(drop)
    }

    fn pdf(&self, id: &str) -> std::result::Result<Pdf, ContextError> {
        let row = self.row(
            "SELECT owed, branding, bytes FROM pdfs WHERE company = $1 AND document_id = $2",
            &[self.key(), id.into()],
        )?;
        let Some(mut row) = row else {
            return Ok(Pdf::Missing);
        };
        let bytes = row.pop().and_then(Val::bytes);
        let branding = row.pop().and_then(Val::text);
        let owed = row.pop().and_then(|v| v.int()).is_some_and(|o| o != 0);
        Ok(match (owed, bytes) {
            (true, _) => Pdf::Owed(branding),
            (false, Some(bytes)) => Pdf::Kept(Arc::from(bytes)),
            (false, None) => Pdf::Missing,
        })
    }

    fn put_pdf(&mut self, id: &str, pdf: Pdf) -> std::result::Result<(), ContextError> {
        let (owed, branding, bytes) = match pdf {
            Pdf::Missing => {
                return self
                    .exec(
                        "DELETE FROM pdfs WHERE company = $1 AND document_id = $2",
                        &[self.key(), id.into()],
                    )
                    .map(drop)
            }
            Pdf::Owed(branding) => (true, Val::from(branding), Val::Null),
            Pdf::Kept(bytes) => (false, Val::Null, Val::Bytes(bytes.to_vec())),
        };
        self.exec(
            "INSERT INTO pdfs (company, document_id, owed, branding, bytes) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (company, document_id) DO UPDATE SET owed = excluded.owed,
                 branding = excluded.branding, bytes = excluded.bytes",
            &[self.key(), id.into(), owed.into(), branding, bytes],
        )
        .map(drop)
    }
}

/// Seeds a new company from its scenario (its `requests` ignored): the company, its
/// brandings, its preloaded and received documents with their files, its counters and
/// its id counters. Answers the scenario as stored.
pub fn seed(sql: &mut dyn Sql, key: i64, name: &str, scenario: &[u8]) -> Result<Vec<u8>> {
    let mut value = invoicing_core::json::from_slice(scenario)
        .map_err(|e| StoreError::fatal(format!("{name}: {e}")))?;
    if let Value::Object(m) = &mut value {
        m.insert("requests".into(), Value::Array(Vec::new()));
    }
    let text = serde_json::to_vec(&value).map_err(StoreError::fatal)?;
    let sim = Simulator::load(&text)
        .map_err(|e| StoreError::fatal(format!("{name}: {}", e.message())))?;
    let (live, sandbox) = sim.created();
    let as_int = |n: u64| i64::try_from(n).map_err(StoreError::fatal);
    sql.exec(
        "INSERT INTO companies (id, name, scenario, live, sandbox) VALUES ($1, $2, $3, $4, $5)",
        &[
            key.into(),
            name.into(),
            Val::Bytes(text.clone()),
            as_int(live)?.into(),
            as_int(sandbox)?.into(),
        ],
    )?;
    if sql.pg() {
        for (kind, count) in [("doc", live), ("sbx", sandbox)] {
            sql.exec(
                &format!("CREATE SEQUENCE IF NOT EXISTS {kind}_ids_{key} START 1"),
                &[],
            )?;
            if count > 0 {
                sql.rows(&format!("SELECT setval('{kind}_ids_{key}', {count})"), &[])?;
            }
        }
    }
    for (position, (id, record)) in sim.brandings().into_iter().enumerate() {
        sql.exec(
            "INSERT INTO brandings (company, id, position, record) VALUES ($1, $2, $3, $4)",
            &[
                key.into(),
                id.into(),
                as_int(position as u64)?.into(),
                record.to_string().into(),
            ],
        )?;
    }
    seed_documents(sql, key, &sim)?;
    for (id, branding) in sim.owed_pdfs() {
        sql.exec(
            "INSERT INTO pdfs (company, document_id, owed, branding, bytes) VALUES ($1, $2, 1, $3, NULL)",
            &[key.into(), id.into(), branding.into()],
        )?;
    }
    for (journal, window, next) in sim.world().counters() {
        sql.exec(
            "INSERT INTO counters (company, journal_id, num_window, next) VALUES ($1, $2, $3, $4)",
            &[
                key.into(),
                journal.into(),
                window.to_string().into(),
                next.to_string().into(),
            ],
        )?;
    }
    Ok(text)
}

/// Seeds a company's documents and their files.
fn seed_documents(sql: &mut dyn Sql, key: i64, sim: &Simulator) -> Result<()> {
    let as_int = |n: u64| i64::try_from(n).map_err(StoreError::fatal);
    for doc in sim.stored_documents() {
        let id = doc.id().to_owned();
        let waiting = match &doc {
            StoredDocument::Issued(d) => invoicing_core::app::waits(d),
            StoredDocument::Received(_) => false,
        };
        sql.exec(
            "INSERT INTO documents (company, id, stored, waiting) VALUES ($1, $2, $3, $4)",
            &[
                key.into(),
                id.as_str().into(),
                Val::Bytes(doc.store()),
                waiting.into(),
            ],
        )?;
        let files = sim.files_of(&id);
        for (position, bytes) in files.attachments.iter().enumerate() {
            sql.exec(
                "INSERT INTO attachments (company, document_id, position, bytes) VALUES ($1, $2, $3, $4)",
                &[key.into(), id.as_str().into(), as_int(position as u64)?.into(), Val::Bytes(bytes.to_vec())],
            )?;
        }
        if let Some(pdf) = files.pdf {
            sql.exec(
                "INSERT INTO pdfs (company, document_id, owed, branding, bytes) VALUES ($1, $2, 0, NULL, $3)",
                &[key.into(), id.as_str().into(), Val::Bytes(pdf.to_vec())],
            )?;
        }
    }
    Ok(())
}
