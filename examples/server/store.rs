//! The storage trait: what the server keeps in its database, behind one small
//! interface that SQLite (`sqlite.rs`) and PostgreSQL (`postgres.rs`) implement.
//!
//! Every request runs in one transaction ([`Store::begin`]). Its first step,
//! [`Tx::lock`], takes the world's write lock (SQLite: `BEGIN IMMEDIATE`; PostgreSQL:
//! `SELECT … FOR UPDATE` on the one `world` row) and answers the world's version: a
//! number every committed write raises by one. What changed since the version an
//! instance last saw is read back into its in-memory copy before the crate decides
//! (`world.rs`), and what the request wrote (documents, their files, the journal
//! counters, tokens, idempotency keys) is written in the same transaction before the
//! answer goes out. A crash before the commit rolls all of it back: a number is never
//! drawn without its document, nor stored twice.

use invoicing_core::simulator::DocumentFiles;

/// A storage failure, as the driver words it.
#[derive(Debug)]
pub struct StoreError {
    /// The driver's message.
    pub message: String,
    /// Whether retrying the whole transaction may succeed (a serialisation failure,
    /// a deadlock, a busy database).
    pub retry: bool,
}

impl StoreError {
    pub fn fatal(e: impl std::fmt::Display) -> StoreError {
        StoreError {
            message: e.to_string(),
            retry: false,
        }
    }
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// A token as stored: the client it was issued to, its kind and when it expires
/// (seconds since the Unix epoch).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredToken {
    pub client_id: String,
    pub refresh: bool,
    pub expires_at: i64,
}

/// A database the server keeps its world in.
pub trait Store: Send + Sync {
    /// Creates the tables on an empty database (a no-op on one that has them).
    fn migrate(&self) -> Result<()>;
    /// Opens a transaction.
    fn begin(&self) -> Result<Box<dyn Tx + '_>>;
}

/// One transaction. Dropped without [`Tx::commit`], it rolls back.
pub trait Tx {
    /// Takes the world's write lock; answers the world's version.
    fn lock(&mut self) -> Result<i64>;
    /// Sets the world's version (after a write).
    fn set_version(&mut self, version: i64) -> Result<()>;
    /// The seed scenario, once stored.
    fn scenario(&mut self) -> Result<Option<Vec<u8>>>;
    /// Stores the seed scenario.
    fn put_scenario(&mut self, scenario: &[u8]) -> Result<()>;
    /// The stored forms of the documents written after `version`.
    fn documents_since(&mut self, version: i64) -> Result<Vec<Vec<u8>>>;
    /// Stores a document's stored form at `version`.
    fn put_document(&mut self, id: &str, stored: &[u8], version: i64) -> Result<()>;
    /// A document's files.
    fn files(&mut self, id: &str) -> Result<DocumentFiles>;
    /// Stores a document's files (attachments are only ever added).
    fn put_files(&mut self, id: &str, files: &DocumentFiles) -> Result<()>;
    /// Every journal counter: journal id, window, next number (as text).
    fn counters(&mut self) -> Result<Vec<(String, String, String)>>;
    /// Stores a journal counter.
    fn put_counter(&mut self, journal: &str, window: &str, next: &str) -> Result<()>;
    /// A token by the SHA-256 of its text.
    fn token(&mut self, hash: &str) -> Result<Option<StoredToken>>;
    /// Stores a token by the SHA-256 of its text.
    fn put_token(&mut self, hash: &str, token: &StoredToken) -> Result<()>;
    /// The answer a create with this idempotency key already got.
    fn idempotent(&mut self, client_id: &str, key: &str) -> Result<Option<(u16, Vec<u8>)>>;
    /// Keeps a create's answer under its idempotency key.
    fn put_idempotent(
        &mut self,
        client_id: &str,
        key: &str,
        status: u16,
        body: &[u8],
    ) -> Result<()>;
    /// Commits.
    fn commit(self: Box<Self>) -> Result<()>;
}

/// The tables, in the SQL both databases read (types named as each names them:
/// `BLOB` / `BYTEA`, `INTEGER` / `BIGINT`).
pub fn schema(blob: &str, int: &str) -> String {
    format!(
        "CREATE TABLE IF NOT EXISTS world (id INTEGER PRIMARY KEY, version {int} NOT NULL);
         INSERT INTO world (id, version) VALUES (1, 0) ON CONFLICT (id) DO NOTHING;
         CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value {blob} NOT NULL);
         CREATE TABLE IF NOT EXISTS documents (id TEXT PRIMARY KEY, stored {blob} NOT NULL,
             version {int} NOT NULL);
         CREATE INDEX IF NOT EXISTS documents_version ON documents (version);
         CREATE TABLE IF NOT EXISTS counters (journal_id TEXT NOT NULL, num_window TEXT NOT NULL,
             next TEXT NOT NULL, PRIMARY KEY (journal_id, num_window));
         CREATE TABLE IF NOT EXISTS attachments (document_id TEXT NOT NULL, position {int} NOT NULL,
             bytes {blob} NOT NULL, PRIMARY KEY (document_id, position));
         CREATE TABLE IF NOT EXISTS pdfs (document_id TEXT PRIMARY KEY, bytes {blob} NOT NULL);
         CREATE TABLE IF NOT EXISTS tokens (hash TEXT PRIMARY KEY, client_id TEXT NOT NULL,
             refresh {int} NOT NULL, expires_at {int} NOT NULL);
         CREATE TABLE IF NOT EXISTS idempotency (client_id TEXT NOT NULL, key TEXT NOT NULL,
             status {int} NOT NULL, body {blob} NOT NULL, PRIMARY KEY (client_id, key));"
    )
}
