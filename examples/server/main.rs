//! The whole interface over real HTTP: the crate's application core
//! ([`invoicing_core::app`]) over a database, SQLite by default (one file, nothing to
//! install) or PostgreSQL (several instances on one database). axum and tokio serve;
//! every rule is the crate's. No document is kept in memory and no lock of the
//! server's own is taken: each request is one transaction of the database. A package
//! of its own (`invoicing-server`, binary `server`), so that the library and its
//! simulator build without axum, tokio and the database clients.
//!
//! ```text
//! cargo run --release -p invoicing-server -- [--scenario FILE]... [--db FILE | --database URL]
//!     [--addr HOST:PORT | --addr :PORT] [--tick-ms MS] [--simulator-routes]
//!     [--token-ttl SECONDS] [--max-body BYTES] [--pool N] [--today DATE [--now RFC3339]]
//! ```
//!
//! Each `--scenario` is a company (named by its file name without `.json`): a company
//! the database does not have yet is seeded from it (its `requests` ignored); one it
//! has is used as it is. Several companies share one database, each request scoped to
//! its client's company; client ids are unique in a database. A database already
//! seeded needs no `--scenario`. `--db` is the SQLite file (default `server.sqlite3`);
//! `--database` takes `postgres://user@host:port/db` or `sqlite:FILE`. `--addr`
//! defaults to `127.0.0.1:8080`; `:PORT` is `127.0.0.1:PORT` (`:0` picks a free port;
//! the first line on stdout is `listening on http://HOST:PORT`). `--tick-ms` (default
//! 2000) is the worker's period: it claims waiting documents in small batches (their
//! files come to exist, a send under way arrives, the PDF is rendered). `--token-ttl`
//! defaults to 3600, `--max-body` to 41943040 (a larger body is 413), `--pool` to 8
//! connections. The clock is the real one, today the date in Brussels; `--today DATE`
//! (and `--now RFC3339`, default the start of that day, UTC) pins it for tests.
//! `/_simulator/tick` and `/_simulator/documents/{id}/state` (the scenario's `TICK` and
//! `SET`) answer only with `--simulator-routes`.
//!
//! Layers, one file each: `main.rs` (HTTP: arguments, routing, the worker, shutdown),
//! `serve.rs` (one request, one unit of work), `auth.rs` (the server's tokens),
//! `db.rs` (the core's store over the database, and seeding), `sql.rs` (PostgreSQL and
//! SQLite behind one SQL interface), `clock.rs`. SIGTERM stops accepting, lets
//! in-flight requests finish, then exits.

mod auth;
mod clock;
mod db;
mod serve;
mod sql;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use serve::{Incoming, Server};
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

const USAGE: &str = "usage: server [--scenario FILE]... [--db FILE | --database URL]
    [--addr HOST:PORT | --addr :PORT] [--tick-ms MS] [--simulator-routes]
    [--token-ttl SECONDS] [--max-body BYTES] [--pool N] [--today DATE [--now RFC3339]]

  --scenario FILE    a company, seeded from FILE when the database lacks it (repeatable;
                     not needed on a database already seeded)
  --db FILE          the SQLite file (default server.sqlite3)
  --database URL     postgres://user@host:port/db or sqlite:FILE
  --addr ADDR        HOST:PORT, or :PORT for 127.0.0.1:PORT (default 127.0.0.1:8080; :0 a free port)
  --tick-ms MS       the worker's period (default 2000)
  --simulator-routes answer /_simulator/tick and /_simulator/documents/{id}/state
  --token-ttl S      the access token's lifetime (default 3600)
  --max-body BYTES   the largest request body (default 41943040)
  --pool N           database connections (default 8)
  --today DATE       pin today (and --now RFC3339, the instant) for tests";

struct Args {
    scenarios: Vec<String>,
    database: String,
    addr: String,
    tick_ms: u64,
    back_office: bool,
    token_ttl: i64,
    max_body: usize,
    pool: u32,
    today: Option<chrono::NaiveDate>,
    now: Option<chrono::DateTime<chrono::Utc>>,
}

/// The arguments, `Ok(None)` for `--help`.
fn args() -> Result<Option<Args>, String> {
    let mut a = Args {
        scenarios: Vec::new(),
        database: "sqlite:server.sqlite3".into(),
        addr: "127.0.0.1:8080".into(),
        tick_ms: 2000,
        back_office: false,
        token_ttl: 3600,
        max_body: 40 << 20,
        pool: 8,
        today: None,
        now: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--help" | "-h" => return Ok(None),
            "--simulator-routes" => {
                a.back_office = true;
                continue;
            }
            _ => {}
        }
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = |v: &str| v.parse::<u64>().map_err(|e| format!("{flag}: {e}"));
        match flag.as_str() {
            "--scenario" => a.scenarios.push(value),
            "--today" => a.today = Some(value.parse().map_err(|e| format!("--today: {e}"))?),
            "--now" => {
                let now = chrono::DateTime::parse_from_rfc3339(&value)
                    .map_err(|e| format!("--now: {e}"))?;
                a.now = Some(now.with_timezone(&chrono::Utc));
            }
            "--db" => a.database = format!("sqlite:{value}"),
            "--database" => a.database = value,
            "--addr" => {
                a.addr = match value.strip_prefix(':') {
                    Some(port) => format!("127.0.0.1:{port}"),
                    None => value,
                };
            }
            "--tick-ms" => a.tick_ms = number(&value)?,
            "--token-ttl" => {
                a.token_ttl = i64::try_from(number(&value)?).map_err(|e| e.to_string())?;
            }
            "--max-body" => {
                a.max_body = usize::try_from(number(&value)?).map_err(|e| e.to_string())?;
            }
            "--pool" => a.pool = u32::try_from(number(&value)?).map_err(|e| e.to_string())?,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if a.now.is_some() && a.today.is_none() {
        return Err("--now pins the clock with --today only".into());
    }
    Ok(Some(a))
}

/// The clock: pinned by `--today` (and `--now`), or the real one.
fn clock(args: &Args) -> clock::Clock {
    match args.today {
        Some(today) => clock::Clock::Pinned {
            today,
            now: args
                .now
                .unwrap_or_else(|| today.and_hms_opt(0, 0, 0).unwrap_or_default().and_utc()),
        },
        None => clock::Clock::Real,
    }
}

/// The database `--database` names.
fn database(args: &Args) -> Result<Box<dyn sql::Database>, String> {
    if args.database.starts_with("postgres://") || args.database.starts_with("postgresql://") {
        let pg = sql::Postgres::open(&args.database, args.pool).map_err(|e| e.message)?;
        return Ok(Box::new(pg));
    }
    let path = args
        .database
        .strip_prefix("sqlite:")
        .unwrap_or(&args.database);
    let connections = usize::try_from(args.pool.clamp(1, 4)).unwrap_or(1);
    Ok(Box::new(
        sql::Sqlite::open(path, connections).map_err(|e| e.message)?,
    ))
}

async fn route(
    axum::extract::State(state): axum::extract::State<Shared>,
    request: Request,
) -> Response {
    let (parts, body) = request.into_parts();
    let Ok(body) = axum::body::to_bytes(body, state.1).await else {
        let msg = format!("the body is larger than {} bytes", state.1);
        let answer = serde_json::json!({"detail": [{"loc": ["body"], "msg": msg, "type": "body_too_large"}]});
        return reply(StatusCode::PAYLOAD_TOO_LARGE.as_u16(), &answer);
    };
    let header =
        |h: &HeaderMap, name: &str| h.get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let incoming = Incoming {
        method: parts.method.as_str().to_owned(),
        target: parts
            .uri
            .path_and_query()
            .map_or_else(|| parts.uri.path().to_owned(), |p| p.as_str().to_owned()),
        authorization: header(&parts.headers, "authorization"),
        content_type: header(&parts.headers, "content-type"),
        idempotency_key: header(&parts.headers, "idempotency-key"),
        body: body.to_vec(),
    };
    let server = state.0.clone();
    let (status, answer) = tokio::task::spawn_blocking(move || server.handle(&incoming))
        .await
        .unwrap_or_else(|_| invoicing_core::http::internal_error());
    // GET /documents/{id}/pdf answers the file itself (docs/files.md §2).
    if status == 200 && parts.method == Method::GET && parts.uri.path().ends_with("/pdf") {
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
    reply(status, &answer)
}

fn reply(status: u16, answer: &serde_json::Value) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let bytes = serde_json::to_vec(answer).unwrap_or_default();
    (
        status,
        [("content-type", "application/json")],
        Body::from(bytes),
    )
        .into_response()
}

/// The server and the body limit.
type Shared = Arc<(Arc<Server>, usize)>;

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

fn main() {
    let args = match args() {
        Ok(Some(a)) => a,
        Ok(None) => {
            println!("{USAGE}");
            return;
        }
        Err(e) => {
            eprintln!("{e}\n\n{USAGE}");
            std::process::exit(2);
        }
    };
    let lifetimes = auth::Lifetimes {
        access: args.token_ttl,
        refresh: args.token_ttl.saturating_mul(24 * 30),
    };
    // The databases' clients are blocking: opened here, outside the async runtime, and
    // used on its blocking threads only.
    let opened = database(&args).and_then(|db| {
        Server::open(
            db,
            &args.scenarios,
            lifetimes,
            args.back_office,
            clock(&args),
        )
        .map_err(|e| e.message)
    });
    let server = match opened {
        Ok(s) => Arc::new(s),
        Err(e) => {
            eprintln!("cannot open the database: {e}");
            std::process::exit(1);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("cannot start the runtime: {e}");
            std::process::exit(1);
        }
    };
    runtime.block_on(serve(&args, server.clone()));
    drop(runtime);
    // The last handle on the server (and its connections) is dropped here, outside
    // the runtime.
    drop(server);
    eprintln!("stopped");
}

async fn serve(args: &Args, server: Arc<Server>) {
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
    let worker = {
        let server = server.clone();
        let every = Duration::from_millis(args.tick_ms.max(1));
        tokio::spawn(async move {
            let mut interval = tokio::time::interval(every);
            interval.tick().await;
            loop {
                interval.tick().await;
                // A full batch claimed: more are waiting, claim again at once (bounded).
                for _ in 0..64 {
                    let server = server.clone();
                    let moved = tokio::task::spawn_blocking(move || server.tick()).await;
                    if moved.map_or(true, |n| n < 16) {
                        break;
                    }
                }
            }
        })
    };
    let state: Shared = Arc::new((server, args.max_body));
    let app = Router::new().fallback(route).with_state(state);
    if let Err(e) = axum::serve(listener, app)
        .with_graceful_shutdown(shutdown())
        .await
    {
        eprintln!("server: {e}");
    }
    worker.abort();
}
