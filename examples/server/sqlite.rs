//! The SQLite store: one file, nothing to install (rusqlite, bundled). Processes on
//! one file serialise their writes with `BEGIN IMMEDIATE`; a busy database is waited
//! for (5 s), then the transaction is retried.

use super::store::{schema, Result, Store, StoreError, StoredToken, Tx};
use invoicing_core::simulator::DocumentFiles;
use rusqlite::{params, Connection, ErrorCode, OptionalExtension};
use std::sync::{Arc, Mutex, MutexGuard};

pub struct Sqlite(Mutex<Connection>);

#[allow(clippy::needless_pass_by_value)] // the shape `map_err` takes
fn err(e: rusqlite::Error) -> StoreError {
    let retry = matches!(
        e.sqlite_error_code(),
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
    );
    StoreError {
        message: e.to_string(),
        retry,
    }
}

impl Sqlite {
    pub fn open(path: &str) -> Result<Sqlite> {
        let db = Connection::open(path).map_err(err)?;
        db.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(err)?;
        db.execute_batch("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")
            .map_err(err)?;
        Ok(Sqlite(Mutex::new(db)))
    }

    fn conn(&self) -> Result<MutexGuard<'_, Connection>> {
        self.0
            .lock()
            .map_err(|_| StoreError::fatal("the connection's lock is poisoned"))
    }
}

impl Drop for Sqlite {
    fn drop(&mut self) {
        if let Ok(db) = self.0.lock() {
            let _ = db.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);");
        }
    }
}

impl Store for Sqlite {
    fn migrate(&self) -> Result<()> {
        self.conn()?
            .execute_batch(&schema("BLOB", "INTEGER"))
            .map_err(err)
    }

    fn begin(&self) -> Result<Box<dyn Tx + '_>> {
        Ok(Box::new(SqliteTx {
            db: self.conn()?,
            open: false,
        }))
    }
}

struct SqliteTx<'a> {
    db: MutexGuard<'a, Connection>,
    open: bool,
}

impl Drop for SqliteTx<'_> {
    fn drop(&mut self) {
        if self.open {
            let _ = self.db.execute_batch("ROLLBACK");
        }
    }
}

impl Tx for SqliteTx<'_> {
    fn lock(&mut self) -> Result<i64> {
        self.db.execute_batch("BEGIN IMMEDIATE").map_err(err)?;
        self.open = true;
        self.db
            .query_row("SELECT version FROM world WHERE id = 1", [], |r| r.get(0))
            .map_err(err)
    }

    fn set_version(&mut self, version: i64) -> Result<()> {
        self.db
            .execute(
                "UPDATE world SET version = ?1 WHERE id = 1",
                params![version],
            )
            .map(drop)
            .map_err(err)
    }

    fn scenario(&mut self) -> Result<Option<Vec<u8>>> {
        self.db
            .query_row("SELECT value FROM meta WHERE key = 'scenario'", [], |r| {
                r.get(0)
            })
            .optional()
            .map_err(err)
    }

    fn put_scenario(&mut self, scenario: &[u8]) -> Result<()> {
        self.db
            .execute(
                "INSERT INTO meta (key, value) VALUES ('scenario', ?1)",
                params![scenario],
            )
            .map(drop)
            .map_err(err)
    }

    fn documents_since(&mut self, version: i64) -> Result<Vec<Vec<u8>>> {
        let mut stmt = self
            .db
            .prepare_cached("SELECT stored FROM documents WHERE version > ?1 ORDER BY id")
            .map_err(err)?;
        let rows = stmt
            .query_map(params![version], |r| r.get::<_, Vec<u8>>(0))
            .map_err(err)?;
        rows.collect::<rusqlite::Result<Vec<_>>>().map_err(err)
    }

    fn put_document(&mut self, id: &str, stored: &[u8], version: i64) -> Result<()> {
        self.db
            .prepare_cached(
                "INSERT INTO documents (id, stored, version) VALUES (?1, ?2, ?3)
                 ON CONFLICT(id) DO UPDATE SET stored = excluded.stored, version = excluded.version",
            )
            .and_then(|mut s| s.execute(params![id, stored, version]))
            .map(drop)
            .map_err(err)
    }

    fn files(&mut self, id: &str) -> Result<DocumentFiles> {
        let mut stmt = self
            .db
            .prepare_cached(
                "SELECT bytes FROM attachments WHERE document_id = ?1 ORDER BY position",
            )
            .map_err(err)?;
        let attachments = stmt
            .query_map(params![id], |r| r.get::<_, Vec<u8>>(0))
            .map_err(err)?
            .map(|b| b.map(Arc::from))
            .collect::<rusqlite::Result<Vec<Arc<[u8]>>>>()
            .map_err(err)?;
        let pdf = self
            .db
            .query_row(
                "SELECT bytes FROM pdfs WHERE document_id = ?1",
                params![id],
                |r| r.get::<_, Vec<u8>>(0),
            )
            .optional()
            .map_err(err)?
            .map(Arc::from);
        Ok(DocumentFiles { attachments, pdf })
    }

    fn put_files(&mut self, id: &str, files: &DocumentFiles) -> Result<()> {
        for (position, bytes) in files.attachments.iter().enumerate() {
            let position = i64::try_from(position).unwrap_or(i64::MAX);
            self.db
                .prepare_cached(
                    "INSERT OR IGNORE INTO attachments (document_id, position, bytes)
                     VALUES (?1, ?2, ?3)",
                )
                .and_then(|mut s| s.execute(params![id, position, bytes.as_ref()]))
                .map_err(err)?;
        }
        match &files.pdf {
            Some(bytes) => self.db.execute(
                "INSERT INTO pdfs (document_id, bytes) VALUES (?1, ?2)
                 ON CONFLICT(document_id) DO UPDATE SET bytes = excluded.bytes",
                params![id, bytes.as_ref()],
            ),
            None => self
                .db
                .execute("DELETE FROM pdfs WHERE document_id = ?1", params![id]),
        }
        .map(drop)
        .map_err(err)
    }

    fn counters(&mut self) -> Result<Vec<(String, String, String)>> {
        let mut stmt = self
            .db
            .prepare_cached("SELECT journal_id, num_window, next FROM counters")
            .map_err(err)?;
        let rows = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .map_err(err)?;
        rows.collect::<rusqlite::Result<Vec<_>>>().map_err(err)
    }

    fn put_counter(&mut self, journal: &str, window: &str, next: &str) -> Result<()> {
        self.db
            .prepare_cached(
                "INSERT INTO counters (journal_id, num_window, next) VALUES (?1, ?2, ?3)
                 ON CONFLICT(journal_id, num_window) DO UPDATE SET next = excluded.next",
            )
            .and_then(|mut s| s.execute(params![journal, window, next]))
            .map(drop)
            .map_err(err)
    }

    fn token(&mut self, hash: &str) -> Result<Option<StoredToken>> {
        self.db
            .query_row(
                "SELECT client_id, refresh, expires_at FROM tokens WHERE hash = ?1",
                params![hash],
                |r| {
                    Ok(StoredToken {
                        client_id: r.get(0)?,
                        refresh: r.get::<_, i64>(1)? != 0,
                        expires_at: r.get(2)?,
                    })
                },
            )
            .optional()
            .map_err(err)
    }

    fn put_token(&mut self, hash: &str, token: &StoredToken) -> Result<()> {
        self.db
            .execute(
                "INSERT INTO tokens (hash, client_id, refresh, expires_at) VALUES (?1, ?2, ?3, ?4)",
                params![
                    hash,
                    token.client_id,
                    i64::from(token.refresh),
                    token.expires_at
                ],
            )
            .map(drop)
            .map_err(err)
    }

    fn idempotent(&mut self, client_id: &str, key: &str) -> Result<Option<(u16, Vec<u8>)>> {
        self.db
            .query_row(
                "SELECT status, body FROM idempotency WHERE client_id = ?1 AND key = ?2",
                params![client_id, key],
                |r| Ok((r.get::<_, u16>(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(err)
    }

    fn put_idempotent(
        &mut self,
        client_id: &str,
        key: &str,
        status: u16,
        body: &[u8],
    ) -> Result<()> {
        self.db
            .execute(
                "INSERT INTO idempotency (client_id, key, status, body) VALUES (?1, ?2, ?3, ?4)",
                params![client_id, key, status, body],
            )
            .map(drop)
            .map_err(err)
    }

    fn commit(mut self: Box<Self>) -> Result<()> {
        self.db.execute_batch("COMMIT").map_err(err)?;
        self.open = false;
        Ok(())
    }
}
