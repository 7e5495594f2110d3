//! The two databases behind one small SQL interface: a unit of work runs statements
//! written once, in PostgreSQL's form (`$1` parameters, `BIGINT`, `BYTEA`), which the
//! SQLite side adapts (`?1`, `INTEGER`, `BLOB`, no row locks: SQLite serialises its
//! writers with `BEGIN IMMEDIATE`). Values cross as [`Val`]: integers, texts, bytes.
//!
//! PostgreSQL: a pool of connections (r2d2, the rust-postgres client), transactions
//! in `READ COMMITTED`; a serialisation failure, a deadlock or a lost connection is
//! retried by the caller, bounded. SQLite: a few connections on one file in WAL mode
//! (readers never wait for the writer), a busy database waited for 5 s, then retried.

use postgres::error::SqlState;
use postgres::types::{IsNull, ToSql, Type};
use postgres::NoTls;
use r2d2::{Pool, PooledConnection};
use r2d2_postgres::PostgresConnectionManager;
use std::sync::{Mutex, MutexGuard};

/// A storage failure, as the driver words it.
#[derive(Debug)]
pub struct StoreError {
    /// The driver's message.
    pub message: String,
    /// Whether retrying the whole unit of work may succeed (a serialisation failure,
    /// a deadlock, a busy database, a lost connection).
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

/// A value of a column or a parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Val {
    Null,
    Int(i64),
    Text(String),
    Bytes(Vec<u8>),
}

impl Val {
    pub fn int(&self) -> Option<i64> {
        match self {
            Val::Int(i) => Some(*i),
            _ => None,
        }
    }

    pub fn text(self) -> Option<String> {
        match self {
            Val::Text(t) => Some(t),
            _ => None,
        }
    }

    pub fn bytes(self) -> Option<Vec<u8>> {
        match self {
            Val::Bytes(b) => Some(b),
            Val::Text(t) => Some(t.into_bytes()),
            _ => None,
        }
    }
}

impl From<&str> for Val {
    fn from(s: &str) -> Val {
        Val::Text(s.to_owned())
    }
}

impl From<String> for Val {
    fn from(s: String) -> Val {
        Val::Text(s)
    }
}

impl From<i64> for Val {
    fn from(i: i64) -> Val {
        Val::Int(i)
    }
}

impl From<bool> for Val {
    fn from(b: bool) -> Val {
        Val::Int(i64::from(b))
    }
}

impl From<&[u8]> for Val {
    fn from(b: &[u8]) -> Val {
        Val::Bytes(b.to_vec())
    }
}

impl<T: Into<Val>> From<Option<T>> for Val {
    fn from(v: Option<T>) -> Val {
        v.map_or(Val::Null, Into::into)
    }
}

/// One unit of work. Dropped without [`Sql::commit`], it rolls back.
pub trait Sql {
    /// Whether this is PostgreSQL (row locks, sequences).
    fn pg(&self) -> bool;
    /// Runs a statement; answers the rows it changed.
    fn exec(&mut self, sql: &str, params: &[Val]) -> Result<u64>;
    /// Runs a query; answers its rows.
    fn rows(&mut self, sql: &str, params: &[Val]) -> Result<Vec<Vec<Val>>>;
    /// Commits.
    fn commit(self: Box<Self>) -> Result<()>;

    /// The first row of a query, if any.
    fn row(&mut self, sql: &str, params: &[Val]) -> Result<Option<Vec<Val>>> {
        Ok(self.rows(sql, params)?.into_iter().next())
    }
}

/// A database: its tables, and units of work over it.
pub trait Database: Send + Sync {
    /// Creates the tables on an empty database (a no-op on one that has them).
    fn migrate(&self) -> Result<()>;
    /// Opens a unit of work; `write` says it will write (SQLite takes its writer's
    /// lock at once: `BEGIN IMMEDIATE`).
    fn begin(&self, write: bool) -> Result<Box<dyn Sql + '_>>;
}

/// The tables, in PostgreSQL's words (SQLite reads them with its own types). Every
/// row of a company's data names the company: many companies share one database.
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS companies (id BIGINT PRIMARY KEY, name TEXT NOT NULL UNIQUE,
    scenario BYTEA NOT NULL, live BIGINT NOT NULL, sandbox BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS brandings (company BIGINT NOT NULL, id TEXT NOT NULL,
    position BIGINT NOT NULL, record TEXT NOT NULL, PRIMARY KEY (company, id));
CREATE TABLE IF NOT EXISTS documents (company BIGINT NOT NULL, id TEXT NOT NULL,
    stored BYTEA NOT NULL, waiting BIGINT NOT NULL, PRIMARY KEY (company, id));
CREATE INDEX IF NOT EXISTS documents_waiting ON documents (company, id) WHERE waiting = 1;
CREATE TABLE IF NOT EXISTS counters (company BIGINT NOT NULL, journal_id TEXT NOT NULL,
    num_window TEXT NOT NULL, next TEXT NOT NULL, PRIMARY KEY (company, journal_id, num_window));
CREATE TABLE IF NOT EXISTS attachments (company BIGINT NOT NULL, document_id TEXT NOT NULL,
    position BIGINT NOT NULL, bytes BYTEA NOT NULL, PRIMARY KEY (company, document_id, position));
CREATE TABLE IF NOT EXISTS pdfs (company BIGINT NOT NULL, document_id TEXT NOT NULL,
    owed BIGINT NOT NULL, branding TEXT, bytes BYTEA, PRIMARY KEY (company, document_id));
CREATE TABLE IF NOT EXISTS tokens (hash TEXT PRIMARY KEY, client_id TEXT NOT NULL,
    refresh BIGINT NOT NULL, expires_at BIGINT NOT NULL, used BIGINT NOT NULL DEFAULT 0,
    pair TEXT, revoked BIGINT NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS idempotency (client_id TEXT NOT NULL, key TEXT NOT NULL,
    status BIGINT NOT NULL, body BYTEA NOT NULL, PRIMARY KEY (client_id, key));
";

// ---------------------------------------------------------------- PostgreSQL

type Manager = PostgresConnectionManager<NoTls>;

/// PostgreSQL, through a pool of connections.
pub struct Postgres(Pool<Manager>);

fn pg_err(e: &postgres::Error) -> StoreError {
    let retry = e.code().is_some_and(|c| {
        *c == SqlState::T_R_SERIALIZATION_FAILURE
            || *c == SqlState::T_R_DEADLOCK_DETECTED
            || *c == SqlState::ADMIN_SHUTDOWN
            || *c == SqlState::CRASH_SHUTDOWN
            || *c == SqlState::CANNOT_CONNECT_NOW
    }) || e.is_closed()
        || e.code().is_none();
    StoreError {
        message: e.to_string(),
        retry,
    }
}

#[allow(clippy::needless_pass_by_value)] // the shape `map_err` takes
fn pg(e: postgres::Error) -> StoreError {
    pg_err(&e)
}

impl Postgres {
    /// Connects to `url` (`postgres://user@host:port/db`) with a pool of `size`.
    pub fn open(url: &str, size: u32) -> Result<Postgres> {
        let config = url.parse().map_err(pg)?;
        let manager = PostgresConnectionManager::new(config, NoTls);
        let pool = Pool::builder()
            .max_size(size)
            .connection_timeout(std::time::Duration::from_secs(10))
            .test_on_check_out(true)
            .build(manager)
            .map_err(StoreError::fatal)?;
        Ok(Postgres(pool))
    }
}

impl Database for Postgres {
    fn migrate(&self) -> Result<()> {
        let mut client = self.0.get().map_err(StoreError::fatal)?;
        // Two instances migrating at once: one waits for the other's lock.
        let mut tx = client.transaction().map_err(pg)?;
        tx.batch_execute("SELECT pg_advisory_xact_lock(191919);")
            .map_err(pg)?;
        tx.batch_execute(SCHEMA).map_err(pg)?;
        tx.commit().map_err(pg)
    }

    fn begin(&self, _write: bool) -> Result<Box<dyn Sql + '_>> {
        let mut client = self.0.get().map_err(|e| StoreError {
            message: e.to_string(),
            retry: true,
        })?;
        client.batch_execute("BEGIN").map_err(pg)?;
        Ok(Box::new(PgTx { client, open: true }))
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

impl ToSql for Val {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut postgres::types::private::BytesMut,
    ) -> std::result::Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self {
            Val::Null => Ok(IsNull::Yes),
            Val::Int(i) => i.to_sql(ty, out),
            Val::Text(t) => t.to_sql(ty, out),
            Val::Bytes(b) => b.to_sql(ty, out),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    postgres::types::to_sql_checked!();
}

fn pg_params(params: &[Val]) -> Vec<&(dyn ToSql + Sync)> {
    params.iter().map(|p| p as &(dyn ToSql + Sync)).collect()
}

/// A row's values; a column of another type (`void`…) reads as NULL.
fn pg_row(row: &postgres::Row) -> Vec<Val> {
    (0..row.len())
        .map(|i| {
            let ty = row.columns().get(i).map(postgres::Column::type_);
            let get = |f: fn(&postgres::Row, usize) -> Option<Val>| f(row, i).unwrap_or(Val::Null);
            match ty {
                Some(t) if *t == Type::INT8 => {
                    get(|r, i| r.try_get::<_, Option<i64>>(i).ok().flatten().map(Val::Int))
                }
                Some(t) if *t == Type::INT4 => get(|r, i| {
                    r.try_get::<_, Option<i32>>(i)
                        .ok()
                        .flatten()
                        .map(|v| Val::Int(v.into()))
                }),
                Some(t) if *t == Type::BOOL => get(|r, i| {
                    r.try_get::<_, Option<bool>>(i)
                        .ok()
                        .flatten()
                        .map(Val::from)
                }),
                Some(t) if *t == Type::BYTEA => get(|r, i| {
                    r.try_get::<_, Option<Vec<u8>>>(i)
                        .ok()
                        .flatten()
                        .map(Val::Bytes)
                }),
                _ => get(|r, i| {
                    r.try_get::<_, Option<String>>(i)
                        .ok()
                        .flatten()
                        .map(Val::Text)
                }),
            }
        })
        .collect()
}

impl Sql for PgTx {
    fn pg(&self) -> bool {
        true
    }

    fn exec(&mut self, sql: &str, params: &[Val]) -> Result<u64> {
        self.client.execute(sql, &pg_params(params)).map_err(pg)
    }

    fn rows(&mut self, sql: &str, params: &[Val]) -> Result<Vec<Vec<Val>>> {
        let rows = self.client.query(sql, &pg_params(params)).map_err(pg)?;
        Ok(rows.iter().map(pg_row).collect())
    }

    fn commit(mut self: Box<Self>) -> Result<()> {
        self.open = false;
        self.client.batch_execute("COMMIT").map_err(pg)
    }
}

// ---------------------------------------------------------------- SQLite

/// SQLite: a few connections on one file.
pub struct Sqlite(Vec<Mutex<rusqlite::Connection>>);

#[allow(clippy::needless_pass_by_value)] // the shape `map_err` takes
fn lite(e: rusqlite::Error) -> StoreError {
    let retry = matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
    );
    StoreError {
        message: e.to_string(),
        retry,
    }
}

/// A statement in PostgreSQL's words, as SQLite reads it.
fn lite_sql(sql: &str) -> String {
    sql.replace('$', "?")
        .replace(" FOR UPDATE SKIP LOCKED", "")
        .replace(" FOR UPDATE", "")
        .replace("BYTEA", "BLOB")
        .replace("BIGINT", "INTEGER")
        .replace(" COLLATE \"C\"", "")
}

impl Sqlite {
    /// Opens (or creates) the file at `path` with `connections` connections.
    pub fn open(path: &str, connections: usize) -> Result<Sqlite> {
        let mut all = Vec::new();
        for _ in 0..connections.max(1) {
            let db = rusqlite::Connection::open(path).map_err(lite)?;
            db.busy_timeout(std::time::Duration::from_secs(5))
                .map_err(lite)?;
            db.execute_batch("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")
                .map_err(lite)?;
            all.push(Mutex::new(db));
        }
        Ok(Sqlite(all))
    }

    /// A free connection (the first one waited for when all are busy).
    fn conn(&self) -> Result<MutexGuard<'_, rusqlite::Connection>> {
        for c in &self.0 {
            if let Ok(guard) = c.try_lock() {
                return Ok(guard);
            }
        }
        self.0
            .first()
            .ok_or_else(|| StoreError::fatal("no connection"))?
            .lock()
            .map_err(|_| StoreError::fatal("a connection's lock is poisoned"))
    }
}

impl Drop for Sqlite {
    fn drop(&mut self) {
        if let Some(Ok(db)) = self.0.first().map(Mutex::lock) {
            let _ = db.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);");
        }
    }
}

impl Database for Sqlite {
    fn migrate(&self) -> Result<()> {
        let db = self.conn()?;
        db.execute_batch(&lite_sql(SCHEMA)).map_err(lite)
    }

    fn begin(&self, write: bool) -> Result<Box<dyn Sql + '_>> {
        let db = self.conn()?;
        db.execute_batch(if write { "BEGIN IMMEDIATE" } else { "BEGIN" })
            .map_err(lite)?;
        Ok(Box::new(LiteTx { db, open: true }))
    }
}

struct LiteTx<'a> {
    db: MutexGuard<'a, rusqlite::Connection>,
    open: bool,
}

impl Drop for LiteTx<'_> {
    fn drop(&mut self) {
        if self.open {
            let _ = self.db.execute_batch("ROLLBACK");
        }
    }
}

impl rusqlite::ToSql for Val {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(match self {
            Val::Null => ToSqlOutput::Borrowed(ValueRef::Null),
            Val::Int(i) => ToSqlOutput::Borrowed(ValueRef::Integer(*i)),
            Val::Text(t) => ToSqlOutput::Borrowed(ValueRef::Text(t.as_bytes())),
            Val::Bytes(b) => ToSqlOutput::Borrowed(ValueRef::Blob(b)),
        })
    }
}

impl Sql for LiteTx<'_> {
    fn pg(&self) -> bool {
        false
    }

    fn exec(&mut self, sql: &str, params: &[Val]) -> Result<u64> {
        let mut stmt = self.db.prepare_cached(&lite_sql(sql)).map_err(lite)?;
        let n = stmt
            .execute(rusqlite::params_from_iter(params.iter()))
            .map_err(lite)?;
        Ok(u64::try_from(n).unwrap_or(u64::MAX))
    }

    fn rows(&mut self, sql: &str, params: &[Val]) -> Result<Vec<Vec<Val>>> {
        use rusqlite::types::ValueRef;
        let mut stmt = self.db.prepare_cached(&lite_sql(sql)).map_err(lite)?;
        let width = stmt.column_count();
        let mut rows = stmt
            .query(rusqlite::params_from_iter(params.iter()))
            .map_err(lite)?;
        let mut out = Vec::new();
        while let Some(row) = rows.next().map_err(lite)? {
            let mut values = Vec::with_capacity(width);
            for i in 0..width {
                values.push(match row.get_ref(i).map_err(lite)? {
                    ValueRef::Null | ValueRef::Real(_) => Val::Null,
                    ValueRef::Integer(n) => Val::Int(n),
                    ValueRef::Text(t) => Val::Text(String::from_utf8_lossy(t).into_owned()),
                    ValueRef::Blob(b) => Val::Bytes(b.to_vec()),
                });
            }
            out.push(values);
        }
        Ok(out)
    }

    fn commit(mut self: Box<Self>) -> Result<()> {
        self.open = false;
        self.db.execute_batch("COMMIT").map_err(lite)
    }
}
