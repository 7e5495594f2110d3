//! The whole interface over real HTTP and a real database: axum and tokio, SQLite
//! through rusqlite (bundled: nothing to install).
//!
//! ```text
//! cargo run --release --example server -- --scenario FILE [--db FILE] [--addr HOST:PORT] [--tick-ms MS]
//! ```
//!
//! The scenario seeds an empty database (its `requests` are ignored); a database that
//! exists is opened as it is (the scenario file is then not read for anything but
//! its presence). `--db` defaults to `server.sqlite3`, `--addr` to `127.0.0.1:8080`
//! (`:0` picks a free port), `--tick-ms` to 2000. The first line on stdout is
//! `listening on http://HOST:PORT` with the real port.
//!
//! Paths: those of docs/scenario.md ("Methods and paths"), with `POST /auth/token`
//! taking JSON or a form body, plus the back office: `POST /_simulator/tick` (the
//! simulator's `TICK`, also run every `--tick-ms`) and
//! `POST /_simulator/documents/{id}/state` (the simulator's `SET`).
//!
//! Design: every rule is the crate's. The server maps HTTP to
//! `Simulator::handle_http` (routing, authentication, the lifecycle), keeps the world
//! in memory as a write-through cache, and writes every document a request wrote
//! (stored form, `invoicing_core::stored`) and the journal counters to SQLite in one
//! `BEGIN IMMEDIATE` transaction before it answers. Requests are serialised by one
//! lock, so concurrent creates draw unique, contiguous numbers; a refused request
//! writes nothing. A failed commit answers 500 `internal_error` and reloads the world
//! from the database. Tokens live in memory: after a restart clients fetch new ones.
//! The clock is the scenario's `today` and `now` (a test server, deterministic).

use axum::body::Bytes;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Router;
use invoicing_core::numbering::Window;
use invoicing_core::simulator::Simulator;
use invoicing_core::stored::StoredDocument;
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use serde_json::Value;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

struct Args {
    scenario: String,
    db: String,
    addr: String,
    tick_ms: u64,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        scenario: String::new(),
        db: "server.sqlite3".into(),
        addr: "127.0.0.1:8080".into(),
        tick_ms: 2000,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--scenario" => a.scenario = value()?,
            "--db" => a.db = value()?,
            "--addr" => a.addr = value()?,
            "--tick-ms" => {
                a.tick_ms = value()?
                    .parse()
                    .map_err(|_| "--tick-ms takes milliseconds".to_owned())?;
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if a.scenario.is_empty() {
        return Err(
            "usage: server --scenario FILE [--db FILE] [--addr HOST:PORT] [--tick-ms MS]".into(),
        );
    }
    if a.addr.starts_with(':') {
        a.addr = format!("127.0.0.1{}", a.addr);
    }
    Ok(a)
}

struct State {
    sim: Simulator,
    db: Connection,
}

type Shared = Arc<Mutex<State>>;

fn schema(db: &Connection) -> rusqlite::Result<()> {
    db.execute_batch(
        "PRAGMA journal_mode = WAL;
         PRAGMA synchronous = NORMAL;
         CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);
         CREATE TABLE IF NOT EXISTS documents (id TEXT PRIMARY KEY, stored BLOB NOT NULL);
         CREATE TABLE IF NOT EXISTS counters (journal_id TEXT NOT NULL, window TEXT NOT NULL,
             next TEXT NOT NULL, PRIMARY KEY (journal_id, window));
         CREATE TABLE IF NOT EXISTS attachments (document_id TEXT NOT NULL, position INTEGER NOT NULL,
             bytes BLOB NOT NULL, PRIMARY KEY (document_id, position));
         CREATE TABLE IF NOT EXISTS pdfs (document_id TEXT PRIMARY KEY, bytes BLOB NOT NULL);",
    )
}

/// Writes documents and every counter of the world in one write transaction.
fn persist(db: &mut Connection, sim: &Simulator, ids: &[String]) -> rusqlite::Result<()> {
    let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
    {
        let mut put = tx.prepare_cached(
            "INSERT INTO documents (id, stored) VALUES (?1, ?2)
             ON CONFLICT(id) DO UPDATE SET stored = excluded.stored",
        )?;
        let mut attachment = tx.prepare_cached(
            "INSERT OR IGNORE INTO attachments (document_id, position, bytes) VALUES (?1, ?2, ?3)",
        )?;
        let mut pdf = tx.prepare_cached(
            "INSERT INTO pdfs (document_id, bytes) VALUES (?1, ?2)
             ON CONFLICT(document_id) DO UPDATE SET bytes = excluded.bytes",
        )?;
        let mut no_pdf = tx.prepare_cached("DELETE FROM pdfs WHERE document_id = ?1")?;
        for id in ids {
            if let Some(doc) = sim.stored_document(id) {
                put.execute(params![id, doc.store()])?;
            }
            // Attachments are only ever added: a position once written keeps its bytes.
            let files = sim.files_of(id);
            for (position, bytes) in files.attachments.iter().enumerate() {
                let position = i64::try_from(position).unwrap_or(i64::MAX);
                attachment.execute(params![id, position, bytes.as_ref()])?;
            }
            match files.pdf {
                Some(bytes) => pdf.execute(params![id, bytes.as_ref()])?,
                None => no_pdf.execute(params![id])?,
            };
        }
        let mut counter = tx.prepare_cached(
            "INSERT INTO counters (journal_id, window, next) VALUES (?1, ?2, ?3)
             ON CONFLICT(journal_id, window) DO UPDATE SET next = excluded.next",
        )?;
        for (journal, window, next) in sim.world().counters() {
            counter.execute(params![journal, window.to_string(), next.to_string()])?;
        }
    }
    tx.commit()
}

/// The world as the database holds it.
fn load(db: &Connection) -> Result<Simulator, String> {
    let scenario: Vec<u8> = db
        .query_row("SELECT value FROM meta WHERE key = 'scenario'", [], |r| {
            r.get(0)
        })
        .map_err(|e| e.to_string())?;
    let mut sim = Simulator::load(&scenario).map_err(|e| e.to_string())?;
    let mut stmt = db
        .prepare("SELECT stored FROM documents ORDER BY id")
        .map_err(|e| e.to_string())?;
    let docs = stmt
        .query_map([], |r| r.get::<_, Vec<u8>>(0))
        .map_err(|e| e.to_string())?
        .map(|b| {
            let b = b.map_err(|e| e.to_string())?;
            StoredDocument::load(&b).map_err(|e| e.to_string())
        })
        .collect::<Result<Vec<_>, String>>()?;
    let mut stmt = db
        .prepare("SELECT journal_id, window, next FROM counters")
        .map_err(|e| e.to_string())?;
    let counters = stmt
        .query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
            ))
        })
        .map_err(|e| e.to_string())?
        .map(|row| {
            let (j, w, n) = row.map_err(|e| e.to_string())?;
            let w: Window = w.parse().map_err(|e| format!("{e}"))?;
            let n: u64 = n.parse().map_err(|_| format!("bad counter {n}"))?;
            Ok((j, w, n))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let ids: Vec<String> = docs.iter().map(|d| d.id().to_owned()).collect();
    sim.restore(docs, &counters);
    restore_files(db, &mut sim, &ids).map_err(|e| e.to_string())?;
    Ok(sim)
}

/// Hands the stored attachments and PDFs back to the restored world.
fn restore_files(db: &Connection, sim: &mut Simulator, ids: &[String]) -> rusqlite::Result<()> {
    let mut files =
        db.prepare("SELECT bytes FROM attachments WHERE document_id = ?1 ORDER BY position")?;
    let mut pdf = db.prepare("SELECT bytes FROM pdfs WHERE document_id = ?1")?;
    for id in ids {
        let attachments = files
            .query_map(params![id], |r| r.get::<_, Vec<u8>>(0))?
            .map(|b| b.map(Arc::from))
            .collect::<rusqlite::Result<Vec<Arc<[u8]>>>>()?;
        let kept = pdf
            .query_row(params![id], |r| r.get::<_, Vec<u8>>(0))
            .optional()?
            .map(Arc::from);
        sim.restore_files(
            id,
            invoicing_core::simulator::DocumentFiles {
                attachments,
                pdf: kept,
            },
        );
    }
    Ok(())
}

/// Opens the database, seeding an empty one from the scenario.
fn open(args: &Args) -> Result<State, String> {
    let mut db = Connection::open(&args.db).map_err(|e| e.to_string())?;
    schema(&db).map_err(|e| e.to_string())?;
    let seeded: Option<i64> = db
        .query_row("SELECT 1 FROM meta WHERE key = 'scenario'", [], |r| {
            r.get(0)
        })
        .optional()
        .map_err(|e| e.to_string())?;
    if seeded.is_none() {
        let bytes = std::fs::read(&args.scenario).map_err(|e| format!("{}: {e}", args.scenario))?;
        let mut scenario: Value =
            invoicing_core::json::from_slice(&bytes).map_err(|e| format!("scenario: {e}"))?;
        if let Value::Object(m) = &mut scenario {
            m.insert("requests".into(), Value::Array(Vec::new()));
        }
        let text = serde_json::to_vec(&scenario).map_err(|e| e.to_string())?;
        let sim = Simulator::load(&text).map_err(|e| format!("scenario: {e}"))?;
        let ids: Vec<String> = sim
            .stored_documents()
            .iter()
            .map(|d| d.id().to_owned())
            .collect();
        db.execute(
            "INSERT INTO meta (key, value) VALUES ('scenario', ?1)",
            params![text],
        )
        .map_err(|e| e.to_string())?;
        persist(&mut db, &sim, &ids).map_err(|e| e.to_string())?;
    }
    let sim = load(&db)?;
    Ok(State { sim, db })
}

/// Handles one request under the lock and writes what it wrote.
fn handle(
    state: &Shared,
    method: &str,
    target: &str,
    headers: (Option<&str>, Option<&str>),
    body: &[u8],
) -> (u16, Value) {
    let Ok(mut guard) = state.lock() else {
        return invoicing_core::http::internal_error();
    };
    let st = &mut *guard;
    let (auth, content_type) = headers;
    let (status, body) = st.sim.handle_http(method, target, auth, content_type, body);
    let written = st.sim.take_written();
    if !written.is_empty() {
        if let Err(e) = persist(&mut st.db, &st.sim, &written) {
            eprintln!("storage error: {e}");
            if let Ok(sim) = load(&st.db) {
                st.sim = sim;
            }
            return invoicing_core::http::internal_error();
        }
    }
    (status, body)
}

async fn route(
    axum::extract::State(state): axum::extract::State<Shared>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let target = uri
        .path_and_query()
        .map_or_else(|| uri.path().to_owned(), |p| p.as_str().to_owned());
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let (auth, content_type) = (header("authorization"), header("content-type"));
    let path = uri.path().to_owned();
    let is_get = method == Method::GET;
    let (status, answer) = tokio::task::spawn_blocking(move || {
        let back_office = path.strip_prefix("/_simulator/");
        match (method.as_str(), back_office) {
            ("POST", Some("tick")) => handle(&state, "TICK", "/", (None, None), b""),
            ("POST", Some(rest)) if rest.starts_with("documents/") && rest.ends_with("/state") => {
                let id = &rest["documents/".len()..rest.len() - "/state".len()];
                handle(
                    &state,
                    "SET",
                    &format!("/documents/{id}"),
                    (None, None),
                    &body,
                )
            }
            _ => handle(
                &state,
                method.as_str(),
                &target,
                (auth.as_deref(), content_type.as_deref()),
                &body,
            ),
        }
    })
    .await
    .unwrap_or_else(|_| invoicing_core::http::internal_error());
    // GET /documents/{id}/pdf answers the file itself (docs/files.md §2).
    if status == 200 && is_get && uri.path().ends_with("/pdf") {
        if let Some((filename, bytes)) = invoicing_core::http::pdf_file(&answer) {
            let disposition = invoicing_core::http::content_disposition(&filename);
            return (
                StatusCode::OK,
                [
                    ("content-type", "application/pdf".to_owned()),
                    ("content-disposition", disposition),
                ],
                bytes,
            )
                .into_response();
        }
    }
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let bytes = serde_json::to_vec(&answer).unwrap_or_default();
    (status, [("content-type", "application/json")], bytes).into_response()
}

async fn shutdown() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}

#[tokio::main]
async fn main() {
    let args = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let state: Shared = match open(&args) {
        Ok(s) => Arc::new(Mutex::new(s)),
        Err(e) => {
            eprintln!("cannot open: {e}");
            std::process::exit(1);
        }
    };
    let listener = match tokio::net::TcpListener::bind(&args.addr).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("cannot listen on {}: {e}", args.addr);
            std::process::exit(1);
        }
    };
    let addr = listener
        .local_addr()
        .map_or_else(|_| args.addr.clone(), |a| a.to_string());
    println!("listening on http://{addr}");
    let _ = std::io::stdout().flush();
    let ticker = {
        let state = state.clone();
        let every = Duration::from_millis(args.tick_ms.max(1));
        tokio::spawn(async move {
            let mut interval = tokio::time::interval(every);
            interval.tick().await;
            loop {
                interval.tick().await;
                let state = state.clone();
                let _ = tokio::task::spawn_blocking(move || {
                    handle(&state, "TICK", "/", (None, None), b"")
                })
                .await;
            }
        })
    };
    let app = Router::new().fallback(route).with_state(state.clone());
    if let Err(e) = axum::serve(listener, app)
        .with_graceful_shutdown(shutdown())
        .await
    {
        eprintln!("server: {e}");
    }
    ticker.abort();
    // Everything was committed before each answer; close the database cleanly.
    if let Ok(st) = state.lock() {
        let _ = st.db.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);");
    }
    eprintln!("stopped");
}
