//! What the tests over real HTTP share: the server (this package's binary, which cargo
//! builds for its tests) started on a free port of 127.0.0.1 and a tiny HTTP/1.1
//! client.
#![allow(dead_code)] // each test crate uses its own part of it

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub mod checks;

/// The `--database` URL of a new, empty database on the PostgreSQL that `PG_URL`
/// names (tests/pg/start.sh prints it; `.ci/run` starts one). Without `PG_URL` the
/// test fails: it never skips.
pub fn fresh_postgres(name: &str) -> String {
    let url = std::env::var("PG_URL")
        .expect("PG_URL names a running PostgreSQL: eval \"$(tests/pg/start.sh)\" first");
    let db: String = format!("t_{name}_{}", std::process::id())
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    let mut client = postgres::Client::connect(&url, postgres::NoTls).expect("PostgreSQL answers");
    for statement in [
        format!("DROP DATABASE IF EXISTS {db}"),
        format!("CREATE DATABASE {db}"),
    ] {
        client.batch_execute(&statement).expect("a new database");
    }
    let base = url.rsplit_once('/').map_or(url.as_str(), |(b, _)| b);
    format!("{base}/{db}")
}

/// The PostgreSQL of `PG_URL`, started by tests/pg/start.sh in the directory it
/// printed as `PG_DIR` (its data in `$PG_DIR/data`, its log `$PG_DIR/server.log`).
/// Without `PG_DIR` the test fails: it never skips.
pub struct PgCluster {
    dir: PathBuf,
    port: String,
    bin: PathBuf,
    /// `runuser -u OWNER --` when run as root (start.sh runs PostgreSQL as `postgres`).
    as_user: Vec<String>,
}

impl PgCluster {
    /// The cluster of `PG_URL` and `PG_DIR`.
    pub fn from_env() -> PgCluster {
        let dir = std::env::var("PG_DIR").expect(
            "PG_DIR names the PostgreSQL data directory of PG_URL: \
             eval \"$(tests/pg/start.sh)\"; export PG_URL PG_DIR",
        );
        let dir = PathBuf::from(dir);
        assert!(
            dir.join("data/PG_VERSION").is_file(),
            "PG_DIR={} holds no PostgreSQL data directory (data/PG_VERSION)",
            dir.display()
        );
        let url = std::env::var("PG_URL").expect("PG_URL names a running PostgreSQL");
        let port = url
            .rsplit_once('/')
            .and_then(|(base, _)| base.rsplit_once(':'))
            .map_or_else(
                || panic!("no port in PG_URL={url}"),
                |(_, port)| port.to_owned(),
            );
        let mut bins: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
            .map(|e| e.path().join("bin"))
            .filter(|b| b.join("pg_ctl").is_file())
            .collect();
        bins.sort();
        let bin = bins.pop().unwrap_or_else(|| {
            let out = Command::new("sh")
                .args(["-c", "command -v pg_ctl"])
                .output()
                .expect("sh");
            let path = String::from_utf8_lossy(&out.stdout).trim().to_owned();
            assert!(!path.is_empty(), "no pg_ctl on this machine");
            PathBuf::from(path)
                .parent()
                .expect("a directory")
                .to_owned()
        });
        let text = |cmd: &mut Command| {
            let out = cmd.output().expect("a command");
            String::from_utf8_lossy(&out.stdout).trim().to_owned()
        };
        let uid = text(Command::new("id").arg("-u"));
        let owner = text(
            Command::new("stat")
                .args(["-c", "%U"])
                .arg(dir.join("data")),
        );
        let as_user = if uid == "0" && owner != "root" {
            vec!["runuser".into(), "-u".into(), owner, "--".into()]
        } else {
            Vec::new()
        };
        PgCluster {
            dir,
            port,
            bin,
            as_user,
        }
    }

    fn pg_ctl(&self, options: &[&str]) {
        let data = self.dir.join("data");
        let mut command: Vec<String> = self.as_user.clone();
        command.push(self.bin.join("pg_ctl").display().to_string());
        command.extend(["-D".into(), data.display().to_string()]);
        command.extend(options.iter().map(|a| (*a).to_owned()));
        let status = Command::new(&command[0])
            .args(&command[1..])
            .stdout(Stdio::null())
            .status()
            .expect("pg_ctl runs");
        assert!(status.success(), "{command:?}: {status}");
    }

    /// `pg_ctl -m immediate stop`: every backend killed at once, no checkpoint, as in
    /// a crash; the next start replays the WAL.
    pub fn crash(&self) {
        self.pg_ctl(&["-m", "immediate", "-w", "stop"]);
    }

    /// Starts it again on the same port and data directory, with the options of
    /// tests/pg/start.sh; waits (bounded) until it accepts connections.
    pub fn start(&self) {
        let dir = self.dir.display().to_string();
        let log = self.dir.join("server.log").display().to_string();
        let options = format!(
            "-p {} -k {dir} -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=on",
            self.port
        );
        self.pg_ctl(&["-l", &log, "-w", "-t", "60", "-o", &options, "start"]);
    }
}

/// The server binary, built by cargo for this package's tests (in the tests'
/// profile: `cargo test --release` runs a release build).
pub fn server_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_server"))
}

pub fn temp_db(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(format!("{name}-{}.sqlite3", std::process::id()));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
    path
}

pub struct Server {
    child: Child,
    /// The address it listens on (`127.0.0.1:PORT`).
    pub addr: String,
}

impl Drop for Server {
    /// A server left running by a failed test is killed with it.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    pub fn start(scenario: &str, db: &std::path::Path) -> Server {
        Server::start_on(scenario, &format!("sqlite:{}", db.display()), &[])
    }

    /// Starts a server on `--database DATABASE` with the back office and a worker
    /// that never runs by itself, plus `extra` arguments.
    /// The clock is pinned to the scenario's `today` and `now`, so that the answers
    /// are the simulator's.
    pub fn start_on(scenario: &str, database: &str, extra: &[&str]) -> Server {
        Server::launch(scenario, database, extra, true)
    }

    /// [`Server::start_on`], with or without the back office (`--simulator-routes`).
    pub fn launch(scenario: &str, database: &str, extra: &[&str], back_office: bool) -> Server {
        Server::launch_with(scenario, database, extra, back_office, Stdio::null())
    }

    /// [`Server::launch`], its stderr sent to `stderr`.
    pub fn launch_with(
        scenario: &str,
        database: &str,
        extra: &[&str],
        back_office: bool,
        stderr: Stdio,
    ) -> Server {
        let text = std::fs::read(scenario).expect("the scenario");
        let world = invoicing_core::json::from_slice(&text).expect("the scenario is JSON");
        let mut clock = Vec::new();
        for key in ["today", "now"] {
            if let Some(value) = world[key].as_str() {
                clock.push(format!("--{key}"));
                clock.push(value.to_owned());
            }
        }
        let mut child = Command::new(server_bin())
            .args(["--scenario", scenario, "--database", database])
            .args(clock)
            .args(["--addr", "127.0.0.1:0", "--tick-ms", "3600000"])
            .args(back_office.then_some("--simulator-routes"))
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("the server binary is built (cargo builds it for its package's tests)");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("first line");
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .unwrap_or_else(|| panic!("first line: {line:?}"))
            .to_owned();
        Server { child, addr }
    }

    /// The server's process id (its memory: /proc/PID/status).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGKILL: the process dies mid-whatever, as in a crash.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// SIGTERM, then wait (bounded) for a clean exit.
    pub fn stop(self) {
        self.terminate();
        self.wait_exit();
    }

    /// Sends SIGTERM, without waiting.
    pub fn terminate(&self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
    }

    /// Waits (bounded) for a clean exit.
    pub fn wait_exit(mut self) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                assert!(status.success(), "clean exit on SIGTERM: {status}");
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        panic!("the server did not stop on SIGTERM");
    }

    pub fn request(
        &self,
        method: &str,
        path: &str,
        auth: Option<&str>,
        body: &[u8],
    ) -> (u16, Vec<u8>) {
        let (status, _, bytes) = http_with(&self.addr, method, path, auth, None, body);
        (status, bytes)
    }

    pub fn json(&self, method: &str, path: &str, auth: Option<&str>, body: &[u8]) -> (u16, Value) {
        let (status, bytes) = self.request(method, path, auth, body);
        let value = serde_json::from_slice(&bytes)
            .unwrap_or_else(|e| panic!("{method} {path}: not json ({e}): {bytes:?}"));
        (status, value)
    }

    pub fn token(&self, client_id: &str, secret: &str) -> String {
        let body = json!({"client_id": client_id, "client_secret": secret}).to_string();
        let (status, v) = self.json("POST", "/auth/token", None, body.as_bytes());
        assert_eq!(status, 200, "{v}");
        v["access_token"].as_str().expect("token").to_owned()
    }
}

/// A tiny HTTP/1.1 client: one request per connection, bounded by timeouts.
pub fn http(
    addr: &str,
    method: &str,
    path: &str,
    auth: Option<&str>,
    body: &[u8],
) -> (u16, Vec<u8>) {
    let (status, _, bytes) = http_with(addr, method, path, auth, None, body);
    (status, bytes)
}

/// [`http`] with a content type (JSON when `None` and the body is not empty); answers
/// the status, the response's head and its body.
pub fn http_with(
    addr: &str,
    method: &str,
    path: &str,
    auth: Option<&str>,
    content_type: Option<&str>,
    body: &[u8],
) -> (u16, String, Vec<u8>) {
    let mut headers = Vec::new();
    match content_type {
        Some(ct) => headers.push(("content-type", ct)),
        None if !body.is_empty() => headers.push(("content-type", "application/json")),
        None => {}
    }
    if let Some(a) = auth {
        headers.push(("authorization", a));
    }
    try_http(addr, method, path, &headers, body)
        .unwrap_or_else(|e| panic!("{method} {path} on {addr}: {e}"))
}

/// One request with these headers; an error when the connection fails or breaks (a
/// server killed mid-request), never a panic.
pub fn try_http(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> std::io::Result<(u16, String, Vec<u8>)> {
    let broken = |what: &str| std::io::Error::other(what.to_owned());
    let mut stream = TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    stream.set_write_timeout(Some(Duration::from_secs(30)))?;
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\ncontent-length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        for part in [name, ": ", value, "\r\n"] {
            head.push_str(part);
        }
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw)?;
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| broken("no end of headers"))?;
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| broken("no status"))?;
    let mut body = raw[split + 4..].to_vec();
    if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        body = dechunk(&body);
    }
    Ok((status, head, body))
}

pub fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(end) = data.windows(2).position(|w| w == b"\r\n") {
        let size =
            usize::from_str_radix(String::from_utf8_lossy(&data[..end]).trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        out.extend_from_slice(&data[end + 2..end + 2 + size]);
        data = &data[end + 2 + size + 2..];
    }
    out
}
