//! The checks the server's tests run on each backend (SQLite: `tests/server.rs`;
//! PostgreSQL: `tests/server_pg.rs`; both in examples/server/).

use super::{http, http_with, Server};
use invoicing_core::attachment::{decode_base64, encode_base64, sha256_hex};
use invoicing_core::simulator;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Where a server keeps its world.
#[derive(Clone, Copy, Debug)]
pub enum Backend {
    /// A new SQLite file.
    Sqlite,
    /// A new database on the PostgreSQL of `PG_URL` (tests/pg/start.sh).
    Postgres,
}

impl Backend {
    /// The `--database` of a new, empty database for a test named `name`.
    pub fn database(self, name: &str) -> String {
        match self {
            Backend::Sqlite => format!("sqlite:{}", super::temp_db(name).display()),
            Backend::Postgres => super::fresh_postgres(name),
        }
    }
}

/// A scenario's `multipart` parts as a `multipart/form-data` body and its content type
/// (a part's missing name, filename or type is left out of its headers).
pub fn multipart_body(parts: &[Value]) -> (String, Vec<u8>) {
    let boundary = "----invoicing-core-test-boundary-7MA4YWxkTrZu0gW";
    let mut body = Vec::new();
    for p in parts {
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data").as_bytes(),
        );
        if let Some(name) = p["name"].as_str() {
            body.extend_from_slice(format!("; name=\"{name}\"").as_bytes());
        }
        if let Some(filename) = p["filename"].as_str() {
            body.extend_from_slice(format!("; filename=\"{filename}\"").as_bytes());
        }
        body.extend_from_slice(b"\r\n");
        if let Some(ct) = p["content_type"].as_str() {
            body.extend_from_slice(format!("Content-Type: {ct}\r\n").as_bytes());
        }
        body.extend_from_slice(b"\r\n");
        let bytes = decode_base64(p["base64"].as_str().unwrap_or_default()).expect("base64");
        body.extend_from_slice(&bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

pub fn scenarios() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scenarios");
    let mut list: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("scenarios")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    list.sort();
    list
}

/// `GET /documents/{id}/pdf` over HTTP: the server answers the file itself
/// (docs/files.md §2), read back as the simulator's answer.
pub fn get_pdf(server: &Server, path: &str, auth: Option<&str>) -> (u16, Value) {
    // docs/files.md §2: the server answers the file itself; read back as the
    // simulator's answer
    let (status, head, bytes) = http_with(&server.addr, "GET", path, auth, None, b"");
    if status == 200 {
        let lower = head.to_ascii_lowercase();
        assert!(lower.contains("content-type: application/pdf"), "{head}");
        assert!(
            lower.contains("content-disposition: attachment; filename="),
            "{head}"
        );
        let name = path
            .trim_start_matches("/documents/")
            .trim_end_matches("/pdf");
        let sim_name = head
            .split("filename=\"")
            .nth(1)
            .and_then(|t| t.split('"').next())
            .unwrap_or(name)
            .to_owned();
        (
            status,
            json!({"filename": sim_name, "content_type": "application/pdf",
                   "size": bytes.len(), "sha256": sha256_hex(&bytes),
                   "base64": encode_base64(&bytes)}),
        )
    } else {
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }
}

/// Plays a scenario's requests over HTTP; returns the answers and the ids seen.
pub fn play(server: &Server, scenario: &Value) -> Vec<(u16, Value)> {
    let mut tokens = BTreeMap::new();
    for c in scenario["clients"].as_array().into_iter().flatten() {
        let id = c["client_id"].as_str().unwrap_or_default();
        let secret = c["client_secret"].as_str().unwrap_or_default();
        tokens.insert(id.to_owned(), server.token(id, secret));
    }
    let mut out = Vec::new();
    for r in scenario["requests"].as_array().into_iter().flatten() {
        let method = r["method"]
            .as_str()
            .unwrap_or_default()
            .to_ascii_uppercase();
        let path = r["path"].as_str().unwrap_or("/");
        let body: Vec<u8> = match (&r.get("body"), &r.get("raw_body")) {
            (Some(b), _) => b.to_string().into_bytes(),
            (None, Some(Value::String(t))) => t.clone().into_bytes(),
            _ => Vec::new(),
        };
        let auth = match (r["client"].as_str(), r["headers"]["authorization"].as_str()) {
            (Some(c), _) => tokens.get(c).map(|t| format!("Bearer {t}")),
            (None, Some(h)) => Some(h.to_owned()),
            _ => None,
        };
        let answer = match method.as_str() {
            _ if r.get("multipart").is_some() => {
                let parts = r["multipart"].as_array().cloned().unwrap_or_default();
                let (ct, body) = multipart_body(&parts);
                let (status, _, bytes) = http_with(
                    &server.addr,
                    &method,
                    path,
                    auth.as_deref(),
                    Some(&ct),
                    &body,
                );
                (
                    status,
                    serde_json::from_slice(&bytes).unwrap_or(Value::Null),
                )
            }
            "GET" if path.ends_with("/pdf") => get_pdf(server, path, auth.as_deref()),
            "TICK" => server.json("POST", "/_simulator/tick", None, b""),
            "SET" => {
                let id = path.trim_start_matches("/documents/");
                server.json(
                    "POST",
                    &format!("/_simulator/documents/{id}/state"),
                    None,
                    &body,
                )
            }
            m => server.json(m, path, auth.as_deref(), &body),
        };
        out.push(answer);
    }
    out
}

/// Every bundled scenario over HTTP answers as the simulator does (tokens aside),
/// and every document reads back byte-identical after a restart on the same database.
pub fn bundled_scenarios_answer_as_the_simulator(backend: Backend) {
    for path in scenarios() {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let bytes = std::fs::read(&path).unwrap();
        let scenario: Value = serde_json::from_slice(&bytes).unwrap();
        let expected = simulator::run(&bytes);
        let expected = expected["responses"].as_array().expect("responses").clone();
        let database = backend.database(&name);
        let server = Server::start_on(path.to_str().unwrap(), &database, &[]);
        let got = play(&server, &scenario);
        assert_eq!(got.len(), expected.len());
        for (i, ((status, body), want)) in got.iter().zip(&expected).enumerate() {
            let request = &scenario["requests"][i];
            assert_eq!(
                u64::from(*status),
                want["status"],
                "{name} request {i}: {request} → {body}"
            );
            if request["path"] == "/auth/token" && *status == 200 {
                // tokens aside: the simulator's keys, and the lifetime of the server's
                // tokens (they expire; the simulator's do not)
                let keys = |v: &Value| v.as_object().map(|m| m.keys().cloned().collect::<Vec<_>>());
                let mut want_keys = keys(&want["body"]).unwrap_or_default();
                want_keys.push("expires_in".into());
                assert_eq!(keys(body), Some(want_keys), "{name} request {i}");
                assert!(body["expires_in"].as_u64().is_some_and(|s| s > 0), "{body}");
            } else {
                assert_eq!(body, &want["body"], "{name} request {i}: {request}");
            }
        }
        // every document, before and after a restart on the same file
        let sim = simulator::Simulator::load(&bytes).unwrap();
        let mut ids: Vec<String> = sim
            .stored_documents()
            .iter()
            .map(|d| d.id().to_owned())
            .collect();
        ids.extend((1..=20).map(|n| format!("doc-{n}")));
        let client = &scenario["clients"][0];
        let (cid, secret) = (
            client["client_id"].as_str().unwrap(),
            client["client_secret"].as_str().unwrap(),
        );
        let token = format!("Bearer {}", server.token(cid, secret));
        let before: Vec<(u16, Vec<u8>)> = ids
            .iter()
            .map(|id| server.request("GET", &format!("/documents/{id}"), Some(&token), b""))
            .collect();
        server.stop();
        let server = Server::start_on(path.to_str().unwrap(), &database, &[]);
        let token = format!("Bearer {}", server.token(cid, secret));
        for (id, before) in ids.iter().zip(&before) {
            let after = server.request("GET", &format!("/documents/{id}"), Some(&token), b"");
            assert_eq!(
                &after, before,
                "{name}: {id} reads back byte-identical after a restart"
            );
        }
        server.stop();
    }
}

pub fn create_body(lines: usize) -> Vec<u8> {
    let line = json!({"item_name": "Widget", "quantity": 3, "unit_price": 19.99, "vat_rate": 21,
                      "allowance_charges": [{"type": "allowance", "rate": 5}]});
    json!({"type": "sale_invoice", "relation_id": "rel-acme",
           "lines": vec![line; lines]})
    .to_string()
    .into_bytes()
}

/// A small scenario (one client, one relation, one journal from 41), in a file of
/// its own: tests run in parallel, and none may read another's half-written file.
pub fn load_scenario(dir: &str) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let path = PathBuf::from(dir).join(format!("load-{}-{n}.json", std::process::id()));
    let s = json!({
        "today": "2026-11-21",
        "clients": [{"client_id": "app", "client_secret": "s3cret", "permissions": ["c", "u"]}],
        "relations": [{"id": "rel-acme", "kind": "company", "peppol": true}],
        "journals": [{"id": "jrn", "category": "sales_invoice", "numbering": "yearly",
                      "prefix": "INV", "default": true, "next": 41}],
        "requests": []
    });
    std::fs::write(&path, s.to_string()).unwrap();
    path
}

pub fn sequence(number: &str) -> u64 {
    number
        .rsplit('-')
        .next()
        .and_then(|s| s.parse().ok())
        .expect("sequence")
}

/// 50 concurrent creates draw 50 distinct contiguous numbers, which go on after a
/// restart.
pub fn fifty_concurrent_creates(backend: Backend) {
    let scenario = load_scenario(env!("CARGO_TARGET_TMPDIR"));
    let database = backend.database("concurrent");
    let server = Server::start_on(scenario.to_str().unwrap(), &database, &[]);
    let token = format!("Bearer {}", server.token("app", "s3cret"));
    let addr = server.addr.clone();
    let body = create_body(3);
    let handles: Vec<_> = (0..50)
        .map(|_| {
            let (addr, token, body) = (addr.clone(), token.clone(), body.clone());
            std::thread::spawn(move || {
                let (status, bytes) = http(&addr, "POST", "/documents", Some(&token), &body);
                assert_eq!(status, 201);
                let v: Value = serde_json::from_slice(&bytes).unwrap();
                (
                    v["id"].as_str().unwrap().to_owned(),
                    v["document_number"].as_str().unwrap().to_owned(),
                )
            })
        })
        .collect();
    let created: Vec<(String, String)> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    let mut seqs: Vec<u64> = created.iter().map(|(_, n)| sequence(n)).collect();
    seqs.sort_unstable();
    assert_eq!(
        seqs,
        (41..91).collect::<Vec<u64>>(),
        "50 distinct, contiguous numbers"
    );
    // a bad body writes nothing and draws nothing
    let (status, _) = server.request("POST", "/documents", Some(&token), b"{\"type\": ");
    assert_eq!(status, 422);
    server.stop();
    let server = Server::start_on(scenario.to_str().unwrap(), &database, &[]);
    let token = format!("Bearer {}", server.token("app", "s3cret"));
    let (status, v) = server.json("POST", "/documents", Some(&token), &body);
    assert_eq!(status, 201);
    assert_eq!(
        v["document_number"], "INV2026-0091",
        "numbering goes on after a restart"
    );
    assert_eq!(v["id"], "doc-51");
    server.stop();
}

/// `instances` servers on one database, 20 clients spread over them, `total` creates
/// in one journal, each with its own `Idempotency-Key`, retried on another instance
/// when a connection breaks or the answer is 5xx; with `kill_every`, one instance is
/// killed with SIGKILL every that many creates and restarted on the same database;
/// with `crash_database_at` (PostgreSQL: needs `PG_DIR`), PostgreSQL itself is
/// stopped with `pg_ctl -m immediate` once that many creates are done, left down for
/// [`DATABASE_DOWN`], and started again on the same port and data directory.
/// Then: every create that got a 201 is stored and readable from every instance;
/// the numbers stored form one contiguous run from the journal's `next`, none
/// repeated; each key made exactly one document, and sent again to every instance
/// answers that document.
pub fn instances_number_without_gap(
    backend: Backend,
    name: &str,
    instances: usize,
    total: usize,
    kill_every: Option<usize>,
    crash_database_at: Option<usize>,
) {
    // Fails at once, before any server starts, when the data directory is unknown.
    let cluster = crash_database_at.map(|_| super::PgCluster::from_env());
    let scenario = load_scenario(env!("CARGO_TARGET_TMPDIR"));
    let scenario = scenario.to_str().expect("a path").to_owned();
    let database = backend.database(name);
    // The instances' stderr, kept: what they said while the database was away.
    let log = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{name}-{}-servers.log", std::process::id()));
    let log_file = std::fs::File::create(&log).expect("the servers' log");
    let start = || {
        let stderr = log_file.try_clone().expect("the servers' log");
        Server::launch_with(&scenario, &database, &[], true, stderr.into())
    };
    let mut servers: Vec<Server> = (0..instances).map(|_| start()).collect();
    let run = Run {
        addrs: Arc::new(RwLock::new(
            servers.iter().map(|s| s.addr.clone()).collect(),
        )),
        token: format!("Bearer {}", servers[0].token("app", "s3cret")),
        next: Arc::new(AtomicUsize::new(0)),
        done: Arc::new(AtomicUsize::new(0)),
        created: Arc::new(Mutex::new(BTreeMap::new())),
        seen: Arc::new(Mutex::new(Seen::default())),
        total,
    };
    let clients: Vec<_> = (0..20).map(|c| run.spawn_client(c)).collect();
    let mut next_kill = kill_every;
    let mut crash_at = crash_database_at;
    let mut victim = 0;
    while (next_kill.is_some() || crash_at.is_some()) && run.done.load(Ordering::SeqCst) < total {
        let done = run.done.load(Ordering::SeqCst);
        if let (Some(at), Some(cluster)) = (crash_at, &cluster) {
            if done >= at {
                let down = Instant::now();
                cluster.crash();
                std::thread::sleep(DATABASE_DOWN);
                cluster.start();
                println!(
                    "{name}: PostgreSQL stopped (-m immediate) after {done} creates, up again {} ms later",
                    down.elapsed().as_millis()
                );
                crash_at = None;
            }
        }
        if let (Some(at), Some(every)) = (next_kill, kill_every) {
            if done >= at {
                let fresh = start();
                run.addrs.write().expect("addresses")[victim].clone_from(&fresh.addr);
                std::mem::replace(&mut servers[victim], fresh).kill();
                victim = (victim + 1) % instances;
                next_kill = Some(at + every);
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    for c in clients {
        c.join().expect("a client");
    }
    let seen = run.seen.lock().expect("outcomes").clone();
    let said = std::fs::read_to_string(&log).unwrap_or_default();
    let lines = |what: &str| said.lines().filter(|l| l.starts_with(what)).count();
    println!(
        "{name}: {total} creates, {} attempts: {:?}; slowest attempt {} ms; the instances logged {} \"storage busy\" (503) and {} \"storage error\" (500)",
        seen.attempts,
        seen.outcomes,
        seen.slowest.as_millis(),
        lines("storage busy"),
        lines("storage error"),
    );
    run.check_stored(&servers);
    run.check_keys_again(&servers);
    if let Backend::Postgres = backend {
        count_stored(&database, total);
    }
    for server in servers {
        server.stop();
    }
}

/// How long PostgreSQL stays down in [`instances_number_without_gap`]: longer than
/// the server's retries of one unit of work (about 3 s), so that some requests
/// outlast them.
pub const DATABASE_DOWN: Duration = Duration::from_secs(4);

/// PostgreSQL holds exactly `total` documents, whatever was killed or retried.
fn count_stored(database: &str, total: usize) {
    let mut client = postgres::Client::connect(database, postgres::NoTls).expect("PostgreSQL");
    let row = client
        .query_one("SELECT COUNT(*) FROM documents", &[])
        .expect("a count");
    let count: i64 = row.get(0);
    assert_eq!(
        usize::try_from(count).ok(),
        Some(total),
        "the database holds {count} documents for {total} creates"
    );
}

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};

/// What the clients of [`instances_number_without_gap`] met.
#[derive(Clone, Debug, Default)]
struct Seen {
    attempts: usize,
    /// Each answer's status, or "broken" for a connection refused or cut.
    outcomes: BTreeMap<String, usize>,
    /// The longest single attempt (connect to answer).
    slowest: Duration,
}

/// The shared state of [`instances_number_without_gap`]'s clients.
#[derive(Clone)]
struct Run {
    addrs: Arc<RwLock<Vec<String>>>,
    token: String,
    next: Arc<AtomicUsize>,
    done: Arc<AtomicUsize>,
    /// Idempotency key → (id, document number) of its 201.
    created: Arc<Mutex<BTreeMap<String, (String, String)>>>,
    seen: Arc<Mutex<Seen>>,
    total: usize,
}

impl Run {
    /// A client: takes create numbers until `total`, each retried under its key until
    /// one instance answers 201.
    fn spawn_client(&self, c: usize) -> std::thread::JoinHandle<()> {
        let run = self.clone();
        std::thread::spawn(move || {
            let body = create_body(3);
            loop {
                let n = run.next.fetch_add(1, Ordering::SeqCst);
                if n >= run.total {
                    return;
                }
                let key = format!("client-{c}-create-{n}");
                let answer = run.create(n, &key, &body);
                let v = invoicing_core::json::from_slice(&answer).expect("JSON");
                let text = |k: &str| v[k].as_str().unwrap_or_default().to_owned();
                let doc = (text("id"), text("document_number"));
                run.created.lock().expect("results").insert(key, doc);
                run.done.fetch_add(1, Ordering::SeqCst);
            }
        })
    }

    /// One create, retried on the next instance while none answers it.
    fn create(&self, n: usize, key: &str, body: &[u8]) -> Vec<u8> {
        let headers = [
            ("authorization", self.token.as_str()),
            ("content-type", "application/json"),
            ("idempotency-key", key),
        ];
        for attempt in 0..400 {
            let addr = {
                let list = self.addrs.read().expect("addresses");
                list[(n + attempt) % list.len()].clone()
            };
            let started = Instant::now();
            let answer = super::try_http(&addr, "POST", "/documents", &headers, body);
            {
                let mut seen = self.seen.lock().expect("outcomes");
                seen.attempts += 1;
                seen.slowest = seen.slowest.max(started.elapsed());
                let outcome = answer
                    .as_ref()
                    .map_or_else(|_| "broken".to_owned(), |(s, _, _)| s.to_string());
                *seen.outcomes.entry(outcome).or_default() += 1;
            }
            match answer {
                Ok((201, _, bytes)) => return bytes,
                Ok((status, _, bytes)) if status < 500 => {
                    panic!("{key}: {status} {}", String::from_utf8_lossy(&bytes))
                }
                _ => std::thread::sleep(Duration::from_millis(20)),
            }
        }
        panic!("{key}: no instance answered")
    }

    /// Every key made one document, the numbers are one contiguous run, and every
    /// document reads back from every instance.
    fn check_stored(&self, servers: &[Server]) {
        let total = self.total;
        let created = self.created.lock().expect("results").clone();
        assert_eq!(created.len(), total, "every key got its 201");
        let mut ids: Vec<&String> = created.values().map(|(id, _)| id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(
            ids.len(),
            total,
            "one document per key, whatever the retries"
        );
        let mut seqs: Vec<u64> = created.values().map(|(_, n)| sequence(n)).collect();
        seqs.sort_unstable();
        let first = 41;
        let run: Vec<u64> = (first..first + total as u64).collect();
        assert_eq!(seqs, run, "one contiguous run, none repeated");
        let token = Some(self.token.as_str());
        for server in servers {
            for (id, number) in created.values() {
                let (status, v) = server.json("GET", &format!("/documents/{id}"), token, b"");
                assert_eq!(status, 200, "{id} readable from {}", server.addr);
                assert_eq!(
                    v["document_number"],
                    number.as_str(),
                    "{id} on {}",
                    server.addr
                );
            }
        }
        // No document but those created: an id is opaque and, on PostgreSQL, drawn
        // from a sequence that a killed instance may have moved on without storing
        // (ids may skip, numbers never do): every id up to the highest one and one
        // past it is either a created document or none.
        let ours: std::collections::HashSet<&String> = created.values().map(|(id, _)| id).collect();
        let highest = ours
            .iter()
            .filter_map(|id| id.strip_prefix("doc-")?.parse::<u64>().ok())
            .max()
            .unwrap_or(0);
        for n in 1..=highest + 1 {
            let id = format!("doc-{n}");
            let (status, _) = servers[0].json("GET", &format!("/documents/{id}"), token, b"");
            let want = if ours.contains(&id) { 200 } else { 404 };
            assert_eq!(status, want, "{id}: no document beyond the {total} created");
        }
    }

    /// Every tenth key sent again, to every instance, answers its one document and
    /// makes no other.
    fn check_keys_again(&self, servers: &[Server]) {
        let created = self.created.lock().expect("results").clone();
        let body = create_body(3);
        for (key, (id, number)) in created.iter().step_by(10) {
            for server in servers {
                let headers = [
                    ("authorization", self.token.as_str()),
                    ("content-type", "application/json"),
                    ("idempotency-key", key.as_str()),
                ];
                let (status, _, bytes) =
                    super::try_http(&server.addr, "POST", "/documents", &headers, &body)
                        .expect("an answer");
                let v: Value = serde_json::from_slice(&bytes).expect("JSON");
                assert_eq!(
                    (status, v["id"].as_str(), v["document_number"].as_str()),
                    (201, Some(id.as_str()), Some(number.as_str())),
                    "{key} sent again to {}",
                    server.addr
                );
            }
        }
    }
}

/// A token issued by one instance works on another; one past its lifetime is 401.
pub fn tokens_work_on_every_instance_and_expire(backend: Backend) {
    let scenario = load_scenario(env!("CARGO_TARGET_TMPDIR"));
    let scenario = scenario.to_str().expect("a path");
    let database = backend.database("tokens");
    let a = Server::start_on(scenario, &database, &["--token-ttl", "2"]);
    let b = Server::start_on(scenario, &database, &["--token-ttl", "2"]);
    let token = format!("Bearer {}", a.token("app", "s3cret"));
    let body = create_body(1);
    let (status, v) = b.json("POST", "/documents", Some(&token), &body);
    assert_eq!(status, 201, "a token of one instance on another: {v}");
    let (status, v) = a.json("GET", "/documents/doc-1", Some(&token), b"");
    assert_eq!(status, 200, "{v}");
    std::thread::sleep(std::time::Duration::from_millis(2100));
    for server in [&a, &b] {
        let (status, v) = server.json("GET", "/documents/doc-1", Some(&token), b"");
        assert_eq!(status, 401, "an expired token: {v}");
        assert_eq!(v["detail"][0]["type"], "invalid_token", "{v}");
    }
    a.stop();
    b.stop();
}

/// A load run (issue 19): `instances` servers on one new database, `clients` clients
/// creating 50-line documents round-robin over them for `seconds`; prints creates/s,
/// p50 and p99 latency, and the crate's own cost per create (the same create in
/// process, through `Simulator::handle_http_as`), whose difference to the latency is
/// the database's and HTTP's share. A measurement, not a check: run it against a
/// release build on a quiet machine.
pub fn load(backend: Backend, instances: usize, clients: usize, seconds: u64) {
    let scenario = load_scenario(env!("CARGO_TARGET_TMPDIR"));
    let scenario = scenario.to_str().expect("a path").to_owned();
    let database = backend.database(&format!("load{instances}"));
    let servers: Vec<Server> = (0..instances)
        .map(|_| Server::launch(&scenario, &database, &[], false))
        .collect();
    let token = format!("Bearer {}", servers[0].token("app", "s3cret"));
    let body = create_body(50);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
    let addrs: Vec<String> = servers.iter().map(|s| s.addr.clone()).collect();
    let handles: Vec<_> = (0..clients)
        .map(|c| {
            let (addrs, token, body) = (addrs.clone(), token.clone(), body.clone());
            std::thread::spawn(move || {
                let mut latencies = Vec::new();
                let mut i = c;
                while std::time::Instant::now() < deadline {
                    let start = std::time::Instant::now();
                    let (status, _) = http(
                        &addrs[i % addrs.len()],
                        "POST",
                        "/documents",
                        Some(&token),
                        &body,
                    );
                    assert_eq!(status, 201);
                    latencies.push(start.elapsed());
                    i += 1;
                }
                latencies
            })
        })
        .collect();
    let mut all: Vec<std::time::Duration> = handles
        .into_iter()
        .flat_map(|h| h.join().expect("a client"))
        .collect();
    all.sort_unstable();
    let pick = |q: usize| all.get(all.len() * q / 100).copied().unwrap_or_default();
    let micros = |d: std::time::Duration| d.as_micros();
    let per_sec = all.len() as u128 * 1000 / u128::from(seconds * 1000).max(1);
    let crate_cost = crate_cost_per_create(&scenario, &body);
    println!(
        "load {backend:?} instances={instances} clients={clients} seconds={seconds}: {} creates, {per_sec} creates/s, p50 {} µs, p99 {} µs; the crate alone {} µs per create",
        all.len(),
        micros(pick(50)),
        micros(pick(99)),
        micros(crate_cost)
    );
    for server in servers {
        server.stop();
    }
}

/// The crate's cost of one create of `body`, in process (median of 200).
pub fn crate_cost_per_create(scenario: &str, body: &[u8]) -> std::time::Duration {
    let text = std::fs::read(scenario).expect("the scenario");
    let mut sim = simulator::Simulator::load(&text).expect("the scenario loads");
    let mut times: Vec<std::time::Duration> = (0..200)
        .map(|_| {
            let start = std::time::Instant::now();
            let (status, _) = sim.handle_http_as(Some("app"), "POST", "/documents", None, body);
            assert_eq!(status, 201);
            start.elapsed()
        })
        .collect();
    times.sort_unstable();
    times[times.len() / 2]
}

/// A second company's scenario (client `other`, relation `rel-other`, a journal `jrn`
/// numbering from 1, and a second invoice journal `jrn2`), in a file of its own.
fn other_company(dir: &str) -> PathBuf {
    let path = PathBuf::from(dir).join(format!("other-{}.json", std::process::id()));
    let s = json!({
        "today": "2026-11-21",
        "clients": [{"client_id": "other", "client_secret": "0ther", "permissions": ["c", "u"]}],
        "relations": [{"id": "rel-other", "kind": "company", "peppol": true}],
        "journals": [
            {"id": "jrn", "category": "sales_invoice", "numbering": "yearly", "prefix": "OTH", "default": true},
            {"id": "jrn2", "category": "sales_invoice", "numbering": "yearly", "prefix": "TWO"}
        ],
        "requests": []
    });
    std::fs::write(&path, s.to_string()).unwrap();
    path
}

/// Two companies in one database: each client sees only its company's documents,
/// relations, journals and files (404 for another's), and each company's journals
/// number on their own, the same journal id included.
pub fn companies_are_apart(backend: Backend) {
    let dir = env!("CARGO_TARGET_TMPDIR");
    let first = load_scenario(dir);
    let second = other_company(dir);
    let database = backend.database("companies");
    let second_arg = second.to_str().unwrap();
    let server = Server::start_on(
        first.to_str().unwrap(),
        &database,
        &["--scenario", second_arg],
    );
    let a = format!("Bearer {}", server.token("app", "s3cret"));
    let b = format!("Bearer {}", server.token("other", "0ther"));
    let other_body = String::from_utf8(create_body(1))
        .unwrap()
        .replace("rel-acme", "rel-other");
    for _ in 0..2 {
        let (status, v) = server.json("POST", "/documents", Some(&a), &create_body(1));
        assert_eq!(status, 201, "{v}");
    }
    let (status, mine) = server.json("POST", "/documents", Some(&b), other_body.as_bytes());
    assert_eq!(
        (status, mine["id"].as_str()),
        (201, Some("doc-1")),
        "{mine}"
    );
    assert_eq!(
        sequence(mine["document_number"].as_str().unwrap()),
        1,
        "{mine}"
    );
    let (_, theirs) = server.json("GET", "/documents/doc-1", Some(&a), b"");
    assert_eq!(
        sequence(theirs["document_number"].as_str().unwrap()),
        41,
        "{theirs}"
    );
    let (status, v) = server.json("GET", "/documents/doc-1", Some(&b), b"");
    assert_eq!(
        (status, &v["relation_id"]),
        (200, &json!("rel-other")),
        "{v}"
    );
    for (path, method) in [
        ("/documents/doc-2", "GET"),
        ("/documents/doc-2/pdf", "GET"),
        ("/documents/doc-2/ubl", "GET"),
        ("/documents/doc-2/send", "POST"),
        ("/relations/rel-acme", "GET"),
    ] {
        let (status, v) = server.json(method, path, Some(&b), b"");
        assert_eq!(status, 404, "{method} {path} of another company: {v}");
    }
    let (status, v) = server.json("GET", "/relations/rel-other", Some(&a), b"");
    assert_eq!(status, 404, "{v}");
    let (status, v) = server.json("PATCH", "/documents/doc-2", Some(&b), b"{}");
    assert_eq!(status, 404, "{v}");
    let (_, journal) = server.json("GET", "/journals/jrn", Some(&b), b"");
    assert_eq!(journal["prefix"], "OTH", "{journal}");
    server.stop();
}

/// PostgreSQL: a create in one journal, and any read, complete while another
/// journal's counter row is held locked by an open transaction.
pub fn creates_in_other_journals_do_not_wait() {
    let dir = env!("CARGO_TARGET_TMPDIR");
    let scenario = other_company(dir);
    let database = Backend::Postgres.database("journals");
    let server = Server::start_on(scenario.to_str().unwrap(), &database, &[]);
    let b = format!("Bearer {}", server.token("other", "0ther"));
    let body = String::from_utf8(create_body(1))
        .unwrap()
        .replace("rel-acme", "rel-other");
    let (status, v) = server.json("POST", "/documents", Some(&b), body.as_bytes());
    assert_eq!(status, 201, "{v}");
    let mut holder = postgres::Client::connect(&database, postgres::NoTls).expect("PostgreSQL");
    let mut tx = holder.transaction().expect("a transaction");
    let locked = tx
        .query(
            "SELECT next FROM counters WHERE journal_id = 'jrn' FOR UPDATE",
            &[],
        )
        .expect("the counter row");
    assert_eq!(locked.len(), 1, "jrn's counter row exists and is held");
    let other_journal = body.replace("\"rel-other\"", "\"rel-other\", \"journal_id\": \"jrn2\"");
    let started = Instant::now();
    let (status, v) = server.json("POST", "/documents", Some(&b), other_journal.as_bytes());
    assert_eq!(status, 201, "{v}");
    assert!(
        v["document_number"].as_str().unwrap().starts_with("TWO"),
        "{v}"
    );
    let (status, _) = server.json("GET", "/documents/doc-1", Some(&b), b"");
    assert_eq!(status, 200);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "a create in jrn2 and a read waited for jrn's lock"
    );
    tx.rollback().expect("released");
    server.stop();
}
