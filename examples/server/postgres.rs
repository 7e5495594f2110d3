//! The PostgreSQL store, for running several instances on one database: a pool of
//! connections (r2d2, the rust-postgres client). The world's write lock is a row lock
//! on the one `world` row (`SELECT … FOR UPDATE`), taken in `READ COMMITTED`, so
//! instances serialise their writes on it and a number is drawn inside the
//! transaction that stores its document. A serialisation failure or a deadlock
//! (SQLSTATE 40001, 40P01) is retried by the caller, bounded.

use super::store::{schema, Result, Store, StoreError, StoredToken, Tx};
use invoicing_core::simulator::DocumentFiles;
use postgres::error::SqlState;
use postgres::NoTls;
use r2d2::{Pool, PooledConnection};
use r2d2_postgres::PostgresConnectionManager;
use std::sync::Arc;

type Manager = PostgresConnectionManager<NoTls>;

pub struct Postgres(Pool<Manager>);

fn err(e: &postgres::Error) -> StoreError {
    let retry = e.code().is_some_and(|c| {
        *c == SqlState::T_R_SERIALIZATION_FAILURE || *c == SqlState::T_R_DEADLOCK_DETECTED
    }) || e.is_closed();
    StoreError {
        message: e.to_string(),
        retry,
    }
}

#[allow(clippy::needless_pass_by_value)] // the shape `map_err` takes
fn pg(e: postgres::Error) -> StoreError {
    err(&e)
}

impl Postgres {
    /// Connects to `url` (`postgres://user@host:port/db`) with a pool of `size`.
    pub fn open(url: &str, size: u32) -> Result<Postgres> {
        let config = url.parse().map_err(pg)?;
        let manager = PostgresConnectionManager::new(config, NoTls);
        let pool = Pool::builder()
            .max_size(size)
            .connection_timeout(std::time::Duration::from_secs(10))
            .build(manager)
            .map_err(StoreError::fatal)?;
        Ok(Postgres(pool))
    }
}

impl Store for Postgres {
    fn migrate(&self) -> Result<()> {
        let mut client = self.0.get().map_err(StoreError::fatal)?;
        // Two instances migrating at once: one waits for the other's lock.
        let mut tx = client.transaction().map_err(pg)?;
        tx.batch_execute("SELECT pg_advisory_xact_lock(191919);")
            .map_err(pg)?;
        tx.batch_execute(&schema("BYTEA", "BIGINT")).map_err(pg)?;
        tx.commit().map_err(pg)
    }

    fn begin(&self) -> Result<Box<dyn Tx + '_>> {
        let client = self.0.get().map_err(|e| StoreError {
            message: e.to_string(),
            retry: true,
        })?;
        Ok(Box::new(PgTx {
            client,
            open: false,
        }))
    }
}

struct PgTx {
    client: PooledConnection<Manager>,
    open: bool,
}

impl Drop for PgTx {
    fn drop(&mut self) {
        if self.open {
            let _ = self.client.batch_execute("ROLLBACK");
        }
    }
}

impl Tx for PgTx {
    fn lock(&mut self) -> Result<i64> {
        self.client.batch_execute("BEGIN").map_err(pg)?;
        self.open = true;
        let row = self
            .client
            .query_one("SELECT version FROM world WHERE id = 1 FOR UPDATE", &[])
            .map_err(pg)?;
        Ok(row.get(0))
    }

    fn set_version(&mut self, version: i64) -> Result<()> {
        self.client
            .execute("UPDATE world SET version = $1 WHERE id = 1", &[&version])
            .map(drop)
            .map_err(pg)
    }

    fn scenario(&mut self) -> Result<Option<Vec<u8>>> {
        let row = self
            .client
            .query_opt("SELECT value FROM meta WHERE key = 'scenario'", &[])
            .map_err(pg)?;
        Ok(row.map(|r| r.get(0)))
    }

    fn put_scenario(&mut self, scenario: &[u8]) -> Result<()> {
        self.client
            .execute(
                "INSERT INTO meta (key, value) VALUES ('scenario', $1)",
                &[&scenario],
            )
            .map(drop)
            .map_err(pg)
    }

    fn documents_since(&mut self, version: i64) -> Result<Vec<Vec<u8>>> {
        let rows = self
            .client
            .query(
                "SELECT stored FROM documents WHERE version > $1 ORDER BY id",
                &[&version],
            )
            .map_err(pg)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    fn put_document(&mut self, id: &str, stored: &[u8], version: i64) -> Result<()> {
        self.client
            .execute(
                "INSERT INTO documents (id, stored, version) VALUES ($1, $2, $3)
                 ON CONFLICT (id) DO UPDATE SET stored = excluded.stored, version = excluded.version",
                &[&id, &stored, &version],
            )
            .map(drop)
            .map_err(pg)
    }

    fn files(&mut self, id: &str) -> Result<DocumentFiles> {
        let rows = self
            .client
            .query(
                "SELECT bytes FROM attachments WHERE document_id = $1 ORDER BY position",
                &[&id],
            )
            .map_err(pg)?;
        let attachments = rows
            .iter()
            .map(|r| Arc::from(r.get::<_, Vec<u8>>(0)))
            .collect();
        let pdf = self
            .client
            .query_opt("SELECT bytes FROM pdfs WHERE document_id = $1", &[&id])
            .map_err(pg)?
            .map(|r| Arc::from(r.get::<_, Vec<u8>>(0)));
        Ok(DocumentFiles { attachments, pdf })
    }

    fn put_files(&mut self, id: &str, files: &DocumentFiles) -> Result<()> {
        for (position, bytes) in files.attachments.iter().enumerate() {
            let position = i64::try_from(position).unwrap_or(i64::MAX);
            self.client
                .execute(
                    "INSERT INTO attachments (document_id, position, bytes) VALUES ($1, $2, $3)
                     ON CONFLICT (document_id, position) DO NOTHING",
                    &[&id, &position, &bytes.as_ref()],
                )
                .map_err(pg)?;
        }
        match &files.pdf {
            Some(bytes) => self.client.execute(
                "INSERT INTO pdfs (document_id, bytes) VALUES ($1, $2)
                 ON CONFLICT (document_id) DO UPDATE SET bytes = excluded.bytes",
                &[&id, &bytes.as_ref()],
            ),
            None => self
                .client
                .execute("DELETE FROM pdfs WHERE document_id = $1", &[&id]),
        }
        .map(drop)
        .map_err(pg)
    }

    fn counters(&mut self) -> Result<Vec<(String, String, String)>> {
        let rows = self
            .client
            .query("SELECT journal_id, num_window, next FROM counters", &[])
            .map_err(pg)?;
        Ok(rows
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2)))
            .collect())
    }

    fn put_counter(&mut self, journal: &str, window: &str, next: &str) -> Result<()> {
        self.client
            .execute(
                "INSERT INTO counters (journal_id, num_window, next) VALUES ($1, $2, $3)
                 ON CONFLICT (journal_id, num_window) DO UPDATE SET next = excluded.next",
                &[&journal, &window, &next],
            )
            .map(drop)
            .map_err(pg)
    }

    fn token(&mut self, hash: &str) -> Result<Option<StoredToken>> {
        let row = self
            .client
            .query_opt(
                "SELECT client_id, refresh, expires_at FROM tokens WHERE hash = $1",
                &[&hash],
            )
            .map_err(pg)?;
        Ok(row.map(|r| StoredToken {
            client_id: r.get(0),
            refresh: r.get::<_, i64>(1) != 0,
            expires_at: r.get(2),
        }))
    }

    fn put_token(&mut self, hash: &str, token: &StoredToken) -> Result<()> {
        self.client
            .execute(
                "INSERT INTO tokens (hash, client_id, refresh, expires_at) VALUES ($1, $2, $3, $4)",
                &[
                    &hash,
                    &token.client_id,
                    &i64::from(token.refresh),
                    &token.expires_at,
                ],
            )
            .map(drop)
            .map_err(pg)
    }

    fn idempotent(&mut self, client_id: &str, key: &str) -> Result<Option<(u16, Vec<u8>)>> {
        let row = self
            .client
            .query_opt(
                "SELECT status, body FROM idempotency WHERE client_id = $1 AND key = $2",
                &[&client_id, &key],
            )
            .map_err(pg)?;
        Ok(row.map(|r| {
            let status: i64 = r.get(0);
            (u16::try_from(status).unwrap_or(500), r.get(1))
        }))
    }

    fn put_idempotent(
        &mut self,
        client_id: &str,
        key: &str,
        status: u16,
        body: &[u8],
    ) -> Result<()> {
        self.client
            .execute(
                "INSERT INTO idempotency (client_id, key, status, body) VALUES ($1, $2, $3, $4)",
                &[&client_id, &key, &i64::from(status), &body],
            )
            .map(drop)
            .map_err(pg)
    }

    fn commit(mut self: Box<Self>) -> Result<()> {
        self.client.batch_execute("COMMIT").map_err(pg)?;
        self.open = false;
        Ok(())
    }
}
