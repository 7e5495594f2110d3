//! The bars of issue 29 that are measurements, run by hand against a release build
//! on a quiet machine (benches/README.md, "Issue 29: the server over the core"). Both
//! need the PostgreSQL of `PG_URL` (tests/pg/start.sh); without it they fail.
//!
//! ```sh
//! eval "$(tests/pg/start.sh)"; export PG_URL PG_DIR
//! cargo build --release -p invoicing-server
//! cargo test --release -p invoicing-server --test measure scale_ -- --ignored --nocapture --test-threads 1
//! cargo test --release -p invoicing-server --test measure load_ -- --ignored --nocapture --test-threads 1
//! tests/pg/stop.sh "$PG_DIR"
//! ```
//!
//! - `scale_…`: one instance on PostgreSQL, its RSS (`VmRSS` of /proc/PID/status) at
//!   start and after 100 000 creates of 5-line documents (8 client threads); a fresh
//!   instance on that database, the time from its spawn to its first 200 of a GET;
//!   the median latency of 500 sequential creates and 500 reads on the 100 000-document
//!   database and on an empty one, interleaved in blocks of 50 in one run. Bars: RSS
//!   within 20 MiB of its start, the first answer within 1 s, create and read at
//!   most 1.2× their time on the empty database.
//! - `load_…`: 8 companies in one database (8 scenarios, clients `app0`…`app7`), 8
//!   clients (one per company) creating 50-line documents round-robin over the
//!   instances for `LOAD_SECONDS` after 2 s of warm-up, then reading them back as
//!   long: creates/s, p50 and p99, reads/s, and the instances' CPU per request, for
//!   1, 2 and 4 instances on PostgreSQL and 1 on SQLite, `LOAD_ROUNDS` rounds
//!   interleaved; with the crate's own cost of that create in process. Bars:
//!   creates/s with 4 instances not below 1 instance's, reads/s growing with
//!   instances.
//!
//! Settings (environment): `SCALE_DOCUMENTS` (100000), `SCALE_SAMPLES` (500),
//! `LOAD_SECONDS` (10), `LOAD_ROUNDS` (2), `LOAD_CLIENTS` (8), `LOAD_PIN` (0; 1 pins
//! instance i to core i mod the cores with `taskset`: on a machine of 2 cores one
//! instance, PostgreSQL and the clients already keep both busy, so instances can
//! only add capacity where one instance cannot use every core). The servers' worker
//! does not run (`--tick-ms` one hour): documents are created and read, not sent.

mod support;

use serde_json::json;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use support::checks::{crate_cost_per_create, create_body, load_scenario, Backend};
use support::{try_http, Server};

fn setting(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// `VmRSS` and `VmHWM` (the peak, as `/usr/bin/time -v` reports it) of a process,
/// in KiB.
fn memory_kib(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc/PID/status");
    let field = |name: &str| -> u64 {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or_else(|| panic!("{name} in /proc/{pid}/status"))
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn mib(kib: u64) -> String {
    format!("{}.{} MiB", kib / 1024, kib % 1024 * 10 / 1024)
}

/// The CPU time (user and system) a process has used, in ms (clock ticks of 10 ms).
fn cpu_ms(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest.split_whitespace().collect())
        .unwrap_or_default();
    // after the command come the state (field 3) …, utime (14) and stime (15)
    let field = |n: usize| fields.get(n - 3).and_then(|v| v.parse::<u64>().ok());
    (field(14).unwrap_or(0) + field(15).unwrap_or(0)) * 10
}

/// CPU time, in ms: the instances, PostgreSQL's processes, this test process (its
/// clients), and the whole machine (every core busy, whoever it works for).
#[derive(Clone, Copy, Default)]
struct Cpu {
    instances: u64,
    postgres: u64,
    clients: u64,
    machine: u64,
}

impl Cpu {
    fn now(servers: &[Server]) -> Cpu {
        let postgres = std::fs::read_dir("/proc")
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
            .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
            .filter(|pid| {
                std::fs::read_to_string(format!("/proc/{pid}/comm"))
                    .is_ok_and(|c| c.trim() == "postgres")
            })
            .map(cpu_ms)
            .sum();
        let stat = std::fs::read_to_string("/proc/stat").unwrap_or_default();
        let ticks: Vec<u64> = stat
            .lines()
            .next()
            .unwrap_or_default()
            .split_whitespace()
            .skip(1)
            .filter_map(|v| v.parse().ok())
            .collect();
        // user nice system idle iowait irq softirq steal: busy is all but idle and iowait
        let busy: u64 = ticks
            .iter()
            .take(8)
            .enumerate()
            .filter(|(i, _)| *i != 3 && *i != 4)
            .map(|(_, t)| t)
            .sum();
        Cpu {
            instances: servers.iter().map(|s| cpu_ms(s.pid())).sum(),
            postgres,
            clients: cpu_ms(std::process::id()),
            machine: busy * 10,
        }
    }

    fn since(self, before: Cpu) -> Cpu {
        Cpu {
            instances: self.instances.saturating_sub(before.instances),
            postgres: self.postgres.saturating_sub(before.postgres),
            clients: self.clients.saturating_sub(before.clients),
            machine: self.machine.saturating_sub(before.machine),
        }
    }
}

fn ms(d: Duration) -> String {
    format!("{}.{:02} ms", d.as_millis(), d.as_micros() % 1000 / 10)
}

/// `a / b` with three decimals.
fn ratio(a: u128, b: u128) -> String {
    let permille = a * 1000 / b.max(1);
    format!("{}.{:03}", permille / 1000, permille % 1000)
}

fn quantile(sorted: &[Duration], permille: usize) -> Duration {
    sorted
        .get(sorted.len() * permille / 1000)
        .or(sorted.last())
        .copied()
        .unwrap_or_default()
}

/// One request with the token; panics unless it answers `want`.
fn timed(addr: &str, method: &str, path: &str, token: &str, body: &[u8], want: u16) -> Duration {
    let headers = [
        ("authorization", token),
        ("content-type", "application/json"),
    ];
    let start = Instant::now();
    let (status, _, bytes) = try_http(addr, method, path, &headers, body)
        .unwrap_or_else(|e| panic!("{method} {path} on {addr}: {e}"));
    let took = start.elapsed();
    assert_eq!(
        status,
        want,
        "{method} {path} on {addr}: {}",
        String::from_utf8_lossy(&bytes)
    );
    took
}

/// A small generator of document numbers to read (xorshift).
struct Rng(u64);

impl Rng {
    /// A number in `1..=n`.
    fn pick(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        let n = u64::try_from(n.max(1)).unwrap_or(1);
        usize::try_from(self.0 % n).unwrap_or(0) + 1
    }
}

// ---------------------------------------------------------------- scale

/// `total` creates of `body` by `threads` clients; prints the RSS of `pid` every
/// tenth of the way. Answers the time taken.
fn fill(addr: &str, token: &str, body: &[u8], total: usize, threads: usize, pid: u32) -> Duration {
    let next = Arc::new(AtomicUsize::new(0));
    let start = Instant::now();
    let handles: Vec<_> = (0..threads)
        .map(|_| {
            let (next, addr, token, body) = (
                next.clone(),
                addr.to_owned(),
                token.to_owned(),
                body.to_vec(),
            );
            std::thread::spawn(move || loop {
                let n = next.fetch_add(1, Ordering::SeqCst);
                if n >= total {
                    return;
                }
                timed(&addr, "POST", "/documents", &token, &body, 201);
                if (n + 1) % (total / 10).max(1) == 0 {
                    let (rss, _) = memory_kib(pid);
                    println!(
                        "  {} created in {} s, RSS {}",
                        n + 1,
                        start.elapsed().as_secs(),
                        mib(rss)
                    );
                }
            })
        })
        .collect();
    for h in handles {
        h.join().expect("a client");
    }
    start.elapsed()
}

/// A fresh instance on `database`: the time from its spawn to its `listening` line
/// and to its first 200 of `GET path`.
fn first_answer(
    scenario: &str,
    database: &str,
    token: &str,
    path: &str,
) -> (Server, Duration, Duration) {
    let headers = [("authorization", token)];
    let spawned = Instant::now();
    let server = Server::launch(scenario, database, &[], false);
    let listening = spawned.elapsed();
    loop {
        match try_http(&server.addr, "GET", path, &headers, b"") {
            Ok((200, _, _)) => return (server, listening, spawned.elapsed()),
            answer if spawned.elapsed() > Duration::from_mins(2) => {
                panic!("no 200 for GET {path} in 2 min: {answer:?}")
            }
            _ => std::thread::sleep(Duration::from_millis(1)),
        }
    }
}

/// A server to time: its token and how many documents it holds (`doc-1`…).
struct Target<'a> {
    label: &'static str,
    server: &'a Server,
    token: String,
    documents: usize,
    creates: Vec<Duration>,
    reads: Vec<Duration>,
}

/// `samples` sequential creates of 5-line documents on each target, then `samples`
/// reads of random documents of each, interleaved in blocks of 50.
fn compare(targets: &mut [Target<'_>], samples: usize) {
    let body = create_body(5);
    for t in targets.iter_mut() {
        for _ in 0..20 {
            timed(&t.server.addr, "POST", "/documents", &t.token, &body, 201);
            t.documents += 1;
        }
    }
    for _ in 0..samples.div_ceil(50) {
        for t in targets.iter_mut() {
            for _ in 0..50 {
                let took = timed(&t.server.addr, "POST", "/documents", &t.token, &body, 201);
                t.creates.push(took);
                t.documents += 1;
            }
        }
    }
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..samples.div_ceil(50) {
        for t in targets.iter_mut() {
            for _ in 0..50 {
                let path = format!("/documents/doc-{}", rng.pick(t.documents));
                t.reads
                    .push(timed(&t.server.addr, "GET", &path, &t.token, b"", 200));
            }
        }
    }
    for t in targets.iter_mut() {
        t.creates.sort_unstable();
        t.reads.sort_unstable();
        println!(
            "  {} ({} documents): create p50 {} p90 {}; read p50 {} p90 {}",
            t.label,
            t.documents,
            ms(quantile(&t.creates, 500)),
            ms(quantile(&t.creates, 900)),
            ms(quantile(&t.reads, 500)),
            ms(quantile(&t.reads, 900)),
        );
    }
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
#[ignore = "a measurement (benches/README.md, issue 29): release build, PG_URL, quiet machine"]
fn scale_postgres_one_instance_a_hundred_thousand_documents() {
    let total = setting("SCALE_DOCUMENTS", 100_000);
    let samples = setting("SCALE_SAMPLES", 500);
    let scenario = load_scenario(env!("CARGO_TARGET_TMPDIR"));
    let scenario = scenario.to_str().expect("a path").to_owned();
    let big = Backend::Postgres.database("scale_big");
    let empty = Backend::Postgres.database("scale_empty");
    println!("scale: load average {}", load_average());
    let a = Server::launch(&scenario, &big, &[], false);
    let (rss_start, _) = memory_kib(a.pid());
    let token = format!("Bearer {}", a.token("app", "s3cret"));
    let body = create_body(5);
    let took = fill(&a.addr, &token, &body, total, 8, a.pid());
    let (rss_end, peak) = memory_kib(a.pid());
    let grown = rss_end.saturating_sub(rss_start);
    println!(
        "scale: {total} creates of 5-line documents by 8 clients in {} s ({}/s); RSS {} at start, {} after (+{}), peak {}; load average {}",
        took.as_secs(),
        u128::try_from(total).unwrap_or(0) * 1000 / took.as_millis().max(1),
        mib(rss_start),
        mib(rss_end),
        mib(grown),
        mib(peak),
        load_average()
    );
    a.stop();
    // a fresh instance on each database: from its spawn to its first answer
    let e = Server::launch(&scenario, &empty, &[], false);
    let empty_token = format!("Bearer {}", e.token("app", "s3cret"));
    e.stop();
    let (e, e_listening, e_first) = first_answer(&scenario, &empty, &empty_token, "/journals/jrn");
    let (b, b_listening, b_first) = first_answer(&scenario, &big, &token, "/documents/doc-1");
    let (b_rss, _) = memory_kib(b.pid());
    println!(
        "scale: a fresh instance, spawn → listening → first 200: empty database {} → {} (GET /journals/jrn); {total} documents {} → {} (GET /documents/doc-1), RSS then {}",
        ms(e_listening),
        ms(e_first),
        ms(b_listening),
        ms(b_first),
        mib(b_rss)
    );
    let target = |label, server, token: &str, documents| Target {
        label,
        server,
        token: token.to_owned(),
        documents,
        creates: Vec::new(),
        reads: Vec::new(),
    };
    let mut targets = [
        target("empty", &e, &empty_token, 0),
        target("100k", &b, &token, total),
    ];
    compare(&mut targets, samples);
    let p50 = |v: &[Duration]| quantile(v, 500).as_micros();
    let [empty_t, big_t] = &targets;
    let creates = (p50(&big_t.creates), p50(&empty_t.creates));
    let reads = (p50(&big_t.reads), p50(&empty_t.reads));
    drop(targets);
    let create = ratio(creates.0, creates.1);
    let read = ratio(reads.0, reads.1);
    println!(
        "scale: median on {total} documents / on an empty database: create {create}×, read {read}×; load average {}",
        load_average()
    );
    e.stop();
    b.stop();
    assert!(
        grown <= 20 * 1024,
        "RSS grew by {} (bar 20 MiB)",
        mib(grown)
    );
    assert!(
        b_first <= Duration::from_secs(1),
        "first answer after {}",
        ms(b_first)
    );
    assert!(
        creates.0 * 10 <= creates.1 * 12,
        "create {create}× (bar 1.2×)"
    );
    assert!(reads.0 * 10 <= reads.1 * 12, "read {read}× (bar 1.2×)");
}

// ---------------------------------------------------------------- load

/// The CPU time this thread has run (/proc/thread-self/schedstat), in ns.
fn thread_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .expect("/proc/thread-self/schedstat")
}

/// The crate's CPU time for one create of `body`, in process (the mean of 200 after
/// 20 of warm-up): what the machine's other work cannot inflate, unlike
/// [`crate_cost_per_create`]'s wall clock.
fn crate_cpu_per_create(scenario: &str, body: &[u8]) -> Duration {
    let text = std::fs::read(scenario).expect("the scenario");
    let mut sim = invoicing_core::simulator::Simulator::load(&text).expect("the scenario loads");
    let mut create = || {
        let (status, _) = sim.handle_http_as(Some("app"), "POST", "/documents", None, body);
        assert_eq!(status, 201);
    };
    for _ in 0..20 {
        create();
    }
    let before = thread_cpu_ns();
    for _ in 0..200 {
        create();
    }
    Duration::from_nanos((thread_cpu_ns() - before) / 200)
}

/// Eight companies' scenarios (clients `app0`…`app7`, each company's relation
/// `rel-acme` and journal `jrn` from 41), in files of their own.
fn companies() -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("companies-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    (0..8)
        .map(|i| {
            let path = dir.join(format!("company{i}.json"));
            let s = json!({
                "today": "2026-11-21",
                "clients": [{"client_id": format!("app{i}"), "client_secret": "s3cret",
                             "permissions": ["c", "u"]}],
                "relations": [{"id": "rel-acme", "kind": "company", "peppol": true}],
                "journals": [{"id": "jrn", "category": "sales_invoice", "numbering": "yearly",
                              "prefix": format!("C{i}-"), "default": true, "next": 41}],
                "requests": []
            });
            std::fs::write(&path, s.to_string()).expect("a scenario");
            path.to_str().expect("a path").to_owned()
        })
        .collect()
}

/// What one phase of a load run measured.
struct Phase {
    /// Requests that started after the warm-up and ended before the deadline.
    latencies: Vec<Duration>,
    seconds: u64,
    /// The CPU time over the whole phase, warm-up included.
    cpu: Cpu,
    /// The whole phase, warm-up included.
    wall: Duration,
    /// Every request of the phase, warm-up included.
    requests: usize,
}

impl Phase {
    fn per_second(&self) -> u128 {
        u128::try_from(self.latencies.len()).unwrap_or(0) / u128::from(self.seconds.max(1))
    }

    fn describe(&self, what: &str) -> String {
        let each =
            |ms: u64| u128::from(ms) * 1000 / u128::try_from(self.requests.max(1)).unwrap_or(1);
        let c = self.cpu;
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let capacity = self.wall.as_millis() * u128::try_from(cores).unwrap_or(1);
        format!(
            "{} {what}/s, p50 {} p99 {}; CPU per request: instances {} µs, PostgreSQL {} µs, clients {} µs, the rest of the machine {} µs; the {cores} cores {} % busy",
            self.per_second(),
            ms(quantile(&self.latencies, 500)),
            ms(quantile(&self.latencies, 990)),
            each(c.instances),
            each(c.postgres),
            each(c.clients),
            each(c.machine.saturating_sub(c.instances + c.postgres + c.clients)),
            u128::from(c.machine) * 100 / capacity.max(1),
        )
    }
}

/// `clients` clients (client `c` of company `c % 8`) over `addrs` round-robin for 2 s
/// of warm-up and `seconds` more: creates of `body` when `documents` is `None`, else
/// reads of random documents of the client's company (`documents[company]` of them).
/// Answers the phase and how many each company created.
fn drive(
    servers: &[Server],
    tokens: &[String],
    clients: usize,
    seconds: u64,
    body: &[u8],
    documents: Option<&[usize]>,
) -> (Phase, Vec<usize>) {
    let addrs: Vec<String> = servers.iter().map(|s| s.addr.clone()).collect();
    let cpu_before = Cpu::now(servers);
    let began = Instant::now();
    let warm = Instant::now() + Duration::from_secs(2);
    let deadline = warm + Duration::from_secs(seconds);
    let handles: Vec<_> = (0..clients)
        .map(|c| {
            let company = c % tokens.len();
            let (addrs, token, body) = (addrs.clone(), tokens[company].clone(), body.to_vec());
            let known = documents.map(|d| d[company]);
            std::thread::spawn(move || {
                let mut rng = Rng(0x2545_F491_4F6C_DD1D ^ (c as u64 + 1));
                let (mut kept, mut all) = (Vec::new(), 0);
                while Instant::now() < deadline {
                    let addr = &addrs[(c + all) % addrs.len()];
                    let started = Instant::now();
                    let took = match known {
                        None => timed(addr, "POST", "/documents", &token, &body, 201),
                        Some(n) => {
                            let path = format!("/documents/doc-{}", rng.pick(n));
                            timed(addr, "GET", &path, &token, b"", 200)
                        }
                    };
                    all += 1;
                    if started >= warm && started + took <= deadline {
                        kept.push(took);
                    }
                }
                (company, kept, all)
            })
        })
        .collect();
    let mut made = vec![0; tokens.len()];
    let mut phase = Phase {
        latencies: Vec::new(),
        seconds,
        cpu: Cpu::default(),
        wall: Duration::ZERO,
        requests: 0,
    };
    for h in handles {
        let (company, kept, all) = h.join().expect("a client");
        made[company] += all;
        phase.requests += all;
        phase.latencies.extend(kept);
    }
    phase.latencies.sort_unstable();
    phase.cpu = Cpu::now(servers).since(cpu_before);
    phase.wall = began.elapsed();
    (phase, made)
}

/// One load run on a new database: creates, then reads of what they made.
fn load_run(
    backend: Backend,
    instances: usize,
    round: usize,
    scenarios: &[String],
) -> (Phase, Phase) {
    let seconds = u64::try_from(setting("LOAD_SECONDS", 10)).unwrap_or(10);
    let clients = setting("LOAD_CLIENTS", 8);
    let database = backend.database(&format!("load29_{instances}_{round}"));
    let mut extra = Vec::new();
    for s in &scenarios[1..] {
        extra.extend(["--scenario", s.as_str()]);
    }
    let servers: Vec<Server> = (0..instances)
        .map(|_| Server::launch(&scenarios[0], &database, &extra, false))
        .collect();
    if setting("LOAD_PIN", 0) == 1 {
        // each instance on one core (instance i on core i mod the cores): a machine
        // where one instance cannot use every core, as on a larger machine
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        for (i, server) in servers.iter().enumerate() {
            let status = std::process::Command::new("taskset")
                .args([
                    "-a",
                    "-p",
                    "-c",
                    &(i % cores).to_string(),
                    &server.pid().to_string(),
                ])
                .stdout(std::process::Stdio::null())
                .status()
                .expect("taskset");
            assert!(status.success(), "taskset: {status}");
        }
    }
    let tokens: Vec<String> = (0..scenarios.len())
        .map(|i| format!("Bearer {}", servers[0].token(&format!("app{i}"), "s3cret")))
        .collect();
    let body = create_body(50);
    let (creates, made) = drive(&servers, &tokens, clients, seconds, &body, None);
    let (reads, _) = drive(&servers, &tokens, clients, seconds, b"", Some(&made));
    for server in servers {
        server.stop();
    }
    (creates, reads)
}

#[test]
#[ignore = "a measurement (benches/README.md, issue 29): release build, PG_URL, quiet machine"]
fn load_eight_companies_one_two_four_instances_and_sqlite() {
    let scenarios = companies();
    let rounds = setting("LOAD_ROUNDS", 2);
    let configs = [
        (Backend::Postgres, 1),
        (Backend::Postgres, 2),
        (Backend::Postgres, 4),
        (Backend::Sqlite, 1),
    ];
    // (creates/s, reads/s) of each configuration, summed over the rounds, and the
    // instances' and PostgreSQL's CPU per create (µs), summed
    let mut sums = [(0u128, 0u128); 4];
    let mut cpu = [0u128; 4];
    for round in 0..rounds {
        for (i, (backend, instances)) in configs.iter().enumerate() {
            let before = load_average();
            let (creates, reads) = load_run(*backend, *instances, round, &scenarios);
            println!(
                "load round {round} {backend:?} instances={instances}: creates {}; reads {}; load average {before} → {}",
                creates.describe("creates"),
                reads.describe("reads"),
                load_average()
            );
            sums[i].0 += creates.per_second();
            sums[i].1 += reads.per_second();
            let each = u128::try_from(creates.requests.max(1)).unwrap_or(1);
            cpu[i] += u128::from(creates.cpu.instances + creates.cpu.postgres) * 1000 / each;
        }
    }
    let scenario = load_scenario(env!("CARGO_TARGET_TMPDIR"));
    let scenario = scenario.to_str().expect("a path");
    let body = create_body(50);
    let crate_alone = crate_cost_per_create(scenario, &body).as_micros();
    let crate_cpu = crate_cpu_per_create(scenario, &body).as_micros();
    println!(
        "load: the crate alone {crate_alone} µs per create of 50 lines (in process, median of 200), {crate_cpu} µs of CPU (mean of 200); load average {}",
        load_average()
    );
    let rounds_n = u128::try_from(rounds.max(1)).unwrap_or(1);
    for (i, (backend, instances)) in configs.iter().enumerate() {
        let rate = sums[i].0 / rounds_n;
        let cpu_each = cpu[i] / rounds_n;
        println!(
            "load mean of {rounds} rounds, {backend:?} instances={instances}: {rate} creates/s, {} reads/s; the crate's share of a create: {} % of 1 / rate (crate alone × rate), {} % of the CPU of a create (crate's CPU / the instances' and PostgreSQL's {cpu_each} µs)",
            sums[i].1 / rounds_n,
            crate_alone * rate / 10_000,
            crate_cpu * 100 / cpu_each.max(1),
        );
    }
    let [pg1, _, pg4, _] = sums;
    assert!(
        pg4.0 >= pg1.0,
        "creates/s with 4 instances ({}) below 1 instance's ({}), summed over {rounds} rounds",
        pg4.0,
        pg1.0
    );
    assert!(
        pg4.1 > pg1.1,
        "reads/s with 4 instances ({}) not above 1 instance's ({}), summed over {rounds} rounds",
        pg4.1,
        pg1.1
    );
}
