//! One request, one unit of work: the caller authenticated by the server's own tokens,
//! a transaction opened, the core answering over the company's [`DbStore`], the
//! answer read from what the unit of work wrote, the transaction committed, and only
//! then the answer sent. No world in memory and no lock of the server's own: what an
//! instance keeps is the companies' seed scenarios (their records), read once.
//!
//! A storage failure the database says may pass (a serialisation failure, a
//! deadlock, a busy SQLite file, a lost connection: PostgreSQL restarting) rolls the
//! unit of work back and runs it again: 10 attempts with a growing pause (5 ms to
//! 0.5 s), each waiting up to the pool's 10 s for a connection, then 503; any other
//! answers 500. A request thus waits out a short PostgreSQL restart (benches/README.md
//! "Issue 29": 0 answers of 503 through a crash and restart of several seconds).

use super::auth;
use super::db::{self, Company, DbStore};
use super::sql::{Database, Result, Sql, StoreError, Val};
use invoicing_core::app::{self, Caller, Request};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::time::Duration;

/// A request as the HTTP layer hands it over.
pub struct Incoming {
    pub method: String,
    /// The path and query.
    pub target: String,
    pub authorization: Option<String>,
    pub content_type: Option<String>,
    pub idempotency_key: Option<String>,
    pub body: Vec<u8>,
}

/// What every request shares.
pub struct Server {
    db: Box<dyn Database>,
    companies: Vec<Company>,
    /// Each client: its company (an index of `companies`), its secret, what it may do.
    clients: HashMap<String, (usize, String, Caller)>,
    pub tokens: auth::Lifetimes,
    /// Whether `/_simulator/…` answers (`--simulator-routes`).
    pub back_office: bool,
    clock: super::clock::Clock,
}

/// An authenticated client: its company (an index), its id, what it may do.
type Client = (usize, String, Caller);

/// How many times a unit of work is tried before the answer is 503.
const ATTEMPTS: u32 = 10;

impl Server {
    /// Opens the database: creates the tables, seeds each scenario whose company the
    /// database does not have yet (a company is named by its scenario's file name
    /// without `.json`), and loads every company's seed.
    pub fn open(
        db: Box<dyn Database>,
        scenarios: &[String],
        tokens: auth::Lifetimes,
        back_office: bool,
        clock: super::clock::Clock,
    ) -> Result<Server> {
        db.migrate()?;
        for path in scenarios {
            let name = std::path::Path::new(path)
                .file_stem()
                .map_or_else(|| path.clone(), |s| s.to_string_lossy().into_owned());
            let bytes =
                std::fs::read(path).map_err(|e| StoreError::fatal(format!("{path}: {e}")))?;
            let mut sql = db.begin(true)?;
            if sql.pg() {
                sql.rows("SELECT pg_advisory_xact_lock(191920)", &[])?;
            }
            let known = sql.row(
                "SELECT id FROM companies WHERE name = $1",
                &[name.as_str().into()],
            )?;
            if known.is_none() {
                let key = sql
                    .row("SELECT COALESCE(MAX(id), 0) + 1 FROM companies", &[])?
                    .and_then(|r| r.first().and_then(Val::int))
                    .unwrap_or(1);
                db::seed(&mut *sql, key, &name, &bytes)?;
            }
            sql.commit()?;
        }
        let mut sql = db.begin(false)?;
        let rows = sql.rows("SELECT id, name, scenario FROM companies ORDER BY id", &[])?;
        drop(sql);
        if rows.is_empty() {
            return Err(StoreError::fatal(
                "the database is empty: give --scenario FILE to seed it",
            ));
        }
        let mut companies = Vec::new();
        let mut clients = HashMap::new();
        for row in rows {
            let mut row = row.into_iter();
            let key = row.next().and_then(|v| v.int()).unwrap_or_default();
            let name = row.next().and_then(Val::text).unwrap_or_default();
            let scenario = row.next().and_then(Val::bytes).unwrap_or_default();
            let seed = invoicing_core::simulator::Simulator::load(&scenario)
                .map_err(|e| StoreError::fatal(format!("company {name}: {}", e.message())))?;
            for (id, secret, caller) in seed.clients() {
                if clients.contains_key(&id) {
                    return Err(StoreError::fatal(format!(
                        "the client {id} belongs to two companies: client ids are unique in a database"
                    )));
                }
                clients.insert(id, (companies.len(), secret, caller));
            }
            companies.push(Company { key, seed });
        }
        Ok(Server {
            db,
            companies,
            clients,
            tokens,
            back_office,
            clock,
        })
    }

    /// A client's secret.
    pub fn client_secret(&self, client_id: &str) -> Option<&str> {
        self.clients.get(client_id).map(|(_, s, _)| s.as_str())
    }

    /// Answers one request (see the module's doc).
    pub fn handle(&self, req: &Incoming) -> (u16, Value) {
        let path = req.target.split('?').next().unwrap_or_default();
        let method = req.method.as_str();
        if path == "/auth/token" && method.eq_ignore_ascii_case("POST") {
            return self.run(true, |sql| auth::token(self, sql, &req.body, &self.tokens));
        }
        if let Some(rest) = path.strip_prefix("/_simulator/") {
            return self.back_office(method, rest, req);
        }
        let write = !method.eq_ignore_ascii_case("GET");
        self.run(write, |sql| self.decide(sql, req))
    }

    /// The client of a request, by its token: its company and what it may do, or the
    /// answer that refuses it.
    fn caller(
        &self,
        sql: &mut dyn Sql,
        req: &Incoming,
    ) -> Result<std::result::Result<Client, (u16, Value)>> {
        let Some(header) = req.authorization.as_deref() else {
            return Ok(Err(invoicing_core::http::not_authenticated()));
        };
        Ok(match auth::caller(sql, header)? {
            Ok(client) => match self.clients.get(&client) {
                Some((company, _, caller)) => Ok((*company, client, *caller)),
                None => Err(invoicing_core::http::invalid_token()),
            },
            Err(answer) => Err(answer),
        })
    }

    /// What the core answers, with the server's own tokens and idempotency keys.
    fn decide(&self, sql: &mut dyn Sql, req: &Incoming) -> Result<(u16, Value)> {
        let (company, client, caller) = match self.caller(sql, req)? {
            Ok(c) => c,
            Err(answer) => return Ok(answer),
        };
        let path = req.target.split('?').next().unwrap_or_default();
        let idempotent = req
            .idempotency_key
            .as_ref()
            .filter(|_| req.method.eq_ignore_ascii_case("POST") && path == "/documents");
        if let Some(key) = idempotent {
            let row = sql.row(
                "SELECT status, body FROM idempotency WHERE client_id = $1 AND key = $2",
                &[client.as_str().into(), key.as_str().into()],
            )?;
            if let Some(row) = row {
                let mut row = row.into_iter();
                let status = row.next().and_then(|v| v.int()).unwrap_or(500);
                let body = row.next().and_then(Val::bytes).unwrap_or_default();
                let value = invoicing_core::json::from_slice(&body).map_err(StoreError::fatal)?;
                return Ok((u16::try_from(status).unwrap_or(500), value));
            }
        }
        let request = Request::http(
            &req.method,
            &req.target,
            None,
            None,
            req.content_type.as_deref(),
            &req.body,
        );
        let (status, answer) = self.core(sql, company, |store| {
            if let Some(
                app::Route::Document(id)
                | app::Route::DocumentPdf(id)
                | app::Route::DocumentUbl(id),
            ) = request.route()
            {
                if request.method == app::Method::Get {
                    store.load(&id, false)?;
                }
            }
            let (status, reply) = app::dispatch(store, caller, &request);
            Ok((status, reply.to_value(store)?))
        })?;
        if let Some(key) = idempotent {
            if status == 201 {
                let bytes = serde_json::to_vec(&answer).map_err(StoreError::fatal)?;
                sql.exec(
                    "INSERT INTO idempotency (client_id, key, status, body) VALUES ($1, $2, $3, $4)",
                    &[client.as_str().into(), key.as_str().into(), i64::from(status).into(), Val::Bytes(bytes)],
                )?;
            }
        }
        Ok((status, answer))
    }

    /// Runs the core over the company's store in this unit of work; a storage failure
    /// of the store is the unit of work's.
    fn core<T>(
        &self,
        sql: &mut dyn Sql,
        company: usize,
        work: impl FnOnce(
            &mut DbStore<'_>,
        ) -> std::result::Result<T, invoicing_core::context::ContextError>,
    ) -> Result<T> {
        let company = self
            .companies
            .get(company)
            .ok_or_else(|| StoreError::fatal("no such company"))?;
        let (today, now) = self.clock.read();
        let mut store = DbStore::new(sql, company, today, now);
        let done = work(&mut store);
        if let Some(e) = store.failure() {
            return Err(e);
        }
        done.map_err(|e| StoreError::fatal(e.0))
    }

    /// Runs `work` in a unit of work, retried while the database says a retry may
    /// succeed, then 503.
    fn run(
        &self,
        write: bool,
        work: impl Fn(&mut dyn Sql) -> Result<(u16, Value)>,
    ) -> (u16, Value) {
        for attempt in 0..ATTEMPTS {
            let tried = self.db.begin(write).and_then(|mut sql| {
                let answer = work(&mut *sql)?;
                sql.commit()?;
                Ok(answer)
            });
            match tried {
                Ok(answer) => return answer,
                Err(e) if e.retry && attempt + 1 < ATTEMPTS => {
                    std::thread::sleep(Duration::from_millis((5u64 << attempt).min(500)));
                }
                Err(e) if e.retry => {
                    eprintln!("storage busy: {}", e.message);
                    return unavailable();
                }
                Err(e) => {
                    eprintln!("storage error: {}", e.message);
                    return invoicing_core::http::internal_error();
                }
            }
        }
        unavailable()
    }

    /// The worker's step: a few waiting documents claimed (`FOR UPDATE SKIP LOCKED`
    /// on PostgreSQL: instances claim different ones), each moved one step by the
    /// core and its PDF rendered, then committed. Answers how many were moved.
    pub fn tick(&self) -> usize {
        let (status, moved) = self.run(true, |sql| {
            let rows = sql.rows(
                "SELECT company, id FROM documents WHERE waiting = 1
                 ORDER BY company, id COLLATE \"C\" LIMIT 16 FOR UPDATE SKIP LOCKED",
                &[],
            )?;
            let mut moved = 0u64;
            for row in rows {
                let mut row = row.into_iter();
                let key = row.next().and_then(|v| v.int()).unwrap_or_default();
                let id = row.next().and_then(Val::text).unwrap_or_default();
                let Some(index) = self.companies.iter().position(|c| c.key == key) else {
                    continue;
                };
                self.core(sql, index, |store| {
                    app::tick(store, &id)?;
                    app::settle_pdf(store, &id)
                })?;
                moved += 1;
            }
            Ok((200, json!(moved)))
        });
        if status >= 500 {
            eprintln!("tick: {moved}");
        }
        moved
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .unwrap_or(0)
    }

    /// `POST /_simulator/tick` and `POST /_simulator/documents/{id}/state`, with
    /// `--simulator-routes` only: the scenario's `TICK` (every waiting document of
    /// every company) and `SET` (of the caller's company when a token is given, else of
    /// the only company).
    fn back_office(&self, method: &str, rest: &str, req: &Incoming) -> (u16, Value) {
        if !self.back_office || !method.eq_ignore_ascii_case("POST") {
            return invoicing_core::http::unknown_path();
        }
        if rest == "tick" {
            return self.run(true, |sql| {
                for index in 0..self.companies.len() {
                    self.core(sql, index, |store| {
                        app::tick_all(store);
                        Ok(())
                    })?;
                }
                Ok((200, json!({})))
            });
        }
        let Some(id) = rest
            .strip_prefix("documents/")
            .and_then(|r| r.strip_suffix("/state"))
        else {
            return invoicing_core::http::unknown_path();
        };
        self.run(true, |sql| {
            let company = if req.authorization.is_some() {
                match self.caller(sql, req)? {
                    Ok((company, _, _)) => company,
                    Err(answer) => return Ok(answer),
                }
            } else if self.companies.len() == 1 {
                0
            } else {
                return Ok(invoicing_core::http::not_authenticated());
            };
            let body = invoicing_core::http::Body::from_bytes(&req.body);
            self.core(sql, company, |store| {
                let (status, reply) = app::set(store, id, &body);
                Ok((status, reply.to_value(store)?))
            })
        })
    }
}

/// 503: the database stayed busy through every attempt.
fn unavailable() -> (u16, Value) {
    (
        503,
        json!({"detail": [{"loc": [], "msg": "the database is busy: retry the request", "type": "service_unavailable"}]}),
    )
}
