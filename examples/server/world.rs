//! One request, one transaction: the world's lock taken, the instance's in-memory copy
//! brought up to the database's version, the crate deciding (`Simulator`: every rule
//! is the crate's), what the request wrote stored, the transaction committed, and
//! only then the answer sent.
//!
//! The in-memory copy is a cache of the database, never the truth: the seed scenario
//! (company, clients, relations, journals, locations, brandings: what no request
//! changes) is read from the database, and documents, their files and the journal
//! counters written by any instance are read back from the version this instance
//! last saw. A failed transaction marks the copy stale; the next request rebuilds it
//! from the database.
//!
//! Decision: one lock for the world, not a lock per row. Every transaction that may
//! write takes it, so an instance's copy and the database cannot disagree while it
//! decides, and a number is drawn, stored and committed before any other instance
//! reads the counter. The worker's step (`TICK`: PDFs, UBL, `sending` → `sent`) runs
//! under the same lock, so two instances never move one document twice; claiming
//! pending documents with `FOR UPDATE SKIP LOCKED` would let instances tick
//! different documents at once, which pays only with many pending documents, and
//! creates in one journal serialise on its counter either way. The price is that
//! instances add availability, not throughput (benches/README.md "Issue 19").

use super::auth;
use super::store::{Result, Store, StoreError, Tx};
use invoicing_core::numbering::Window;
use invoicing_core::simulator::Simulator;
use invoicing_core::stored::StoredDocument;
use serde_json::{json, Value};
use std::sync::Mutex;
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

/// The instance's copy of the world and the database version it reflects (`-1`:
/// stale, rebuild it).
struct Local {
    sim: Simulator,
    version: i64,
}

/// What every request shares.
pub struct World {
    store: Box<dyn Store>,
    scenario: Vec<u8>,
    local: Mutex<Local>,
    pub tokens: auth::Lifetimes,
    /// Whether `/_simulator/…` answers (`--simulator-routes`).
    pub back_office: bool,
    clock: super::clock::Clock,
}

/// How many times a transaction is tried before the answer is 503.
const ATTEMPTS: u32 = 5;

impl World {
    /// Opens the database: creates the tables, seeds an empty database from the
    /// scenario file (its requests ignored), and reads the seed scenario back.
    pub fn open(
        store: Box<dyn Store>,
        scenario_path: &str,
        tokens: auth::Lifetimes,
        back_office: bool,
        clock: super::clock::Clock,
    ) -> Result<World> {
        store.migrate()?;
        let mut tx = store.begin()?;
        let version = tx.lock()?;
        let scenario = if let Some(s) = tx.scenario()? {
            s
        } else {
            let bytes = std::fs::read(scenario_path)
                .map_err(|e| StoreError::fatal(format!("{scenario_path}: {e}")))?;
            let seeded = seed(&mut *tx, &bytes, version)?;
            tx.set_version(version + 1)?;
            seeded
        };
        tx.commit()?;
        let sim = Simulator::load(&scenario).map_err(|e| StoreError::fatal(e.message()))?;
        Ok(World {
            store,
            scenario,
            local: Mutex::new(Local { sim, version: -1 }),
            tokens,
            back_office,
            clock,
        })
    }

    /// Answers one request (see the module's doc).
    pub fn handle(&self, req: &Incoming) -> (u16, Value) {
        self.run(|sim, tx| self.decide(sim, tx, req))
    }

    /// The worker's step: the crate's `TICK` (PDFs and UBL rendered, `sending` moved
    /// to `sent`), in its own transaction under the world's lock, so that two
    /// instances never move one document twice.
    pub fn tick(&self) {
        let (status, answer) = self.run(|sim, _| Ok(sim.handle_http("TICK", "/", None, None, b"")));
        if status >= 500 {
            eprintln!("tick: {answer}");
        }
    }

    /// Runs `decide` in a transaction, retried while the database says a retry may
    /// succeed, then 503.
    fn run(
        &self,
        decide: impl Fn(&mut Simulator, &mut dyn Tx) -> Result<(u16, Value)>,
    ) -> (u16, Value) {
        for attempt in 0..ATTEMPTS {
            match self.attempt(&decide) {
                Ok(answer) => return answer,
                Err(e) if e.retry && attempt + 1 < ATTEMPTS => {
                    std::thread::sleep(Duration::from_millis(5 << attempt));
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

    fn attempt(
        &self,
        decide: &impl Fn(&mut Simulator, &mut dyn Tx) -> Result<(u16, Value)>,
    ) -> Result<(u16, Value)> {
        let mut local = self
            .local
            .lock()
            .map_err(|_| StoreError::fatal("the world's lock is poisoned"))?;
        let mut tx = self.store.begin()?;
        let version = tx.lock()?;
        let seen = std::mem::replace(&mut local.version, -1);
        self.sync(&mut local.sim, &mut *tx, seen, version)?;
        let (today, now) = self.clock.read();
        local.sim.set_clock(today, now);
        let answer = decide(&mut local.sim, &mut *tx)?;
        let written = persist(&mut local.sim, &mut *tx, version)?;
        tx.commit()?;
        local.version = written;
        Ok(answer)
    }

    /// Brings the copy from version `seen` to `version`.
    fn sync(&self, sim: &mut Simulator, tx: &mut dyn Tx, seen: i64, version: i64) -> Result<()> {
        if seen == version {
            return Ok(());
        }
        let since = if seen < 0 {
            *sim = Simulator::load(&self.scenario).map_err(|e| StoreError::fatal(e.message()))?;
            let _ = sim.take_written();
            0
        } else {
            seen
        };
        let docs = tx
            .documents_since(since)?
            .iter()
            .map(|b| StoredDocument::load(b).map_err(StoreError::fatal))
            .collect::<Result<Vec<_>>>()?;
        let ids: Vec<String> = docs.iter().map(|d| d.id().to_owned()).collect();
        let counters = tx
            .counters()?
            .into_iter()
            .map(|(j, w, n)| {
                let w: Window = w.parse().map_err(|e| StoreError::fatal(format!("{e}")))?;
                let n: u64 = n.parse().map_err(StoreError::fatal)?;
                Ok((j, w, n))
            })
            .collect::<Result<Vec<_>>>()?;
        sim.refresh(docs, &counters);
        for id in ids {
            let files = tx.files(&id)?;
            sim.restore_files(&id, files);
        }
        Ok(())
    }

    /// What the crate answers, with the server's own tokens and idempotency keys.
    fn decide(&self, sim: &mut Simulator, tx: &mut dyn Tx, req: &Incoming) -> Result<(u16, Value)> {
        let path = req.target.split('?').next().unwrap_or_default();
        let method = req.method.as_str();
        if path == "/auth/token" && method == "POST" {
            return auth::token(sim, tx, &req.body, &self.tokens);
        }
        if let Some(rest) = path.strip_prefix("/_simulator/") {
            return Ok(self.back_office(sim, method, rest, &req.body));
        }
        let client = match auth::caller(tx, req.authorization.as_deref())? {
            auth::Caller::Client(id) => Some(id),
            auth::Caller::Anonymous => None,
            auth::Caller::Refused(answer) => return Ok(answer),
            auth::Caller::Unknown(header) => {
                // A token this server never issued: the crate's own answer to it.
                let ct = req.content_type.as_deref();
                return Ok(sim.handle_http(method, &req.target, Some(&header), ct, &req.body));
            }
        };
        let idempotent = match (&client, &req.idempotency_key) {
            (Some(c), Some(k)) if method == "POST" && path == "/documents" => Some((c, k)),
            _ => None,
        };
        if let Some((c, k)) = idempotent {
            if let Some((status, body)) = tx.idempotent(c, k)? {
                let value = invoicing_core::json::from_slice(&body).map_err(StoreError::fatal)?;
                return Ok((status, value));
            }
        }
        let ct = req.content_type.as_deref();
        let (status, answer) =
            sim.handle_http_as(client.as_deref(), method, &req.target, ct, &req.body);
        if let Some((c, k)) = idempotent {
            if status == 201 {
                let bytes = serde_json::to_vec(&answer).map_err(StoreError::fatal)?;
                tx.put_idempotent(c, k, status, &bytes)?;
            }
        }
        Ok((status, answer))
    }

    /// `POST /_simulator/tick` and `POST /_simulator/documents/{id}/state`, with
    /// `--simulator-routes` only.
    fn back_office(
        &self,
        sim: &mut Simulator,
        method: &str,
        rest: &str,
        body: &[u8],
    ) -> (u16, Value) {
        if !self.back_office {
            return invoicing_core::http::unknown_path();
        }
        match (method, rest) {
            ("POST", "tick") => sim.handle_http("TICK", "/", None, None, b""),
            ("POST", r) if r.starts_with("documents/") && r.ends_with("/state") => {
                let id = &r["documents/".len()..r.len() - "/state".len()];
                sim.handle_http("SET", &format!("/documents/{id}"), None, None, body)
            }
            _ => invoicing_core::http::unknown_path(),
        }
    }
}

/// Seeds an empty database: the scenario without its requests, its preloaded
/// documents, their files and the counters, at `version + 1`.
fn seed(tx: &mut dyn Tx, bytes: &[u8], version: i64) -> Result<Vec<u8>> {
    let mut scenario = invoicing_core::json::from_slice(bytes)
        .map_err(|e| StoreError::fatal(format!("scenario: {e}")))?;
    if let Value::Object(m) = &mut scenario {
        m.insert("requests".into(), Value::Array(Vec::new()));
    }
    let text = serde_json::to_vec(&scenario).map_err(StoreError::fatal)?;
    let mut sim = Simulator::load(&text).map_err(|e| StoreError::fatal(e.message()))?;
    tx.put_scenario(&text)?;
    for doc in sim.stored_documents() {
        let id = doc.id().to_owned();
        tx.put_document(&id, &doc.store(), version + 1)?;
        tx.put_files(&id, &sim.files_of(&id))?;
    }
    let _ = sim.take_written();
    for (journal, window, next) in sim.world().counters() {
        tx.put_counter(journal, &window.to_string(), &next.to_string())?;
    }
    Ok(text)
}

/// Writes what the request wrote at `version + 1`; answers the version now.
fn persist(sim: &mut Simulator, tx: &mut dyn Tx, version: i64) -> Result<i64> {
    let written = sim.take_written();
    if written.is_empty() {
        return Ok(version);
    }
    let next = version + 1;
    for id in &written {
        if let Some(doc) = sim.stored_document(id) {
            tx.put_document(id, &doc.store(), next)?;
        }
        tx.put_files(id, &sim.files_of(id))?;
    }
    for (journal, window, n) in sim.world().counters() {
        tx.put_counter(journal, &window.to_string(), &n.to_string())?;
    }
    tx.set_version(next)?;
    Ok(next)
}

/// 503: the database stayed busy through every attempt.
fn unavailable() -> (u16, Value) {
    (
        503,
        json!({"detail": [{"loc": [], "msg": "the database is busy: retry the request", "type": "service_unavailable"}]}),
    )
}
