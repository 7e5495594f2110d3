//! The server's command line as the README writes it (issue 29): `--addr :PORT`
//! (127.0.0.1, loopback), `--help` and `-h`, and `--scenario` needed only to seed an
//! empty database.

mod support;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Output, Stdio};
use support::checks::{create_body, load_scenario, Backend};

/// The server binary with these arguments, run to its end.
fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_server"))
        .args(args)
        .output()
        .expect("the server binary runs")
}

/// The server binary started with these arguments: the process and the address of
/// its first line (`listening on http://ADDR`).
fn start(args: &[&str]) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_server"))
        .args(args)
        .args(["--tick-ms", "3600000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server binary runs");
    let mut line = String::new();
    let stdout = child.stdout.take().expect("stdout");
    BufReader::new(stdout).read_line(&mut line).expect("a line");
    let addr = line
        .trim()
        .strip_prefix("listening on http://")
        .unwrap_or_else(|| panic!("first line: {line:?}"))
        .to_owned();
    (child, addr)
}

/// A token of the load scenario's client at `addr`.
fn bearer(addr: &str) -> String {
    let body = br#"{"client_id": "app", "client_secret": "s3cret"}"#;
    let (status, bytes) = support::http(addr, "POST", "/auth/token", None, body);
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&bytes));
    let v: serde_json::Value = serde_json::from_slice(&bytes).expect("JSON");
    format!("Bearer {}", v["access_token"].as_str().unwrap_or_default())
}

/// SIGTERM, then the exit.
fn stop(mut child: Child) {
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let _ = child.wait();
}

#[test]
fn addr_colon_port_listens_on_127_0_0_1() {
    let scenario = load_scenario(env!("CARGO_TARGET_TMPDIR"));
    let database = Backend::Sqlite.database("colon-port");
    let scenario = scenario.to_str().expect("a path");
    let (child, addr) = start(&[
        "--scenario",
        scenario,
        "--database",
        &database,
        "--addr",
        ":0",
    ]);
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");
    let (status, _) = support::http(
        &addr,
        "POST",
        "/documents",
        Some(&bearer(&addr)),
        &create_body(1),
    );
    assert_eq!(status, 201);
    stop(child);
}

#[test]
fn help_and_h_print_the_usage_and_exit_0() {
    for flag in ["--help", "-h"] {
        let out = run(&[flag]);
        assert!(out.status.success(), "{flag}: {:?}", out.status);
        let usage = String::from_utf8_lossy(&out.stdout);
        assert!(usage.starts_with("usage: server"), "{flag}: {usage}");
        for option in [
            "--scenario",
            "--database",
            "--addr",
            ":PORT",
            "127.0.0.1:PORT",
        ] {
            assert!(usage.contains(option), "{flag}: {option} in {usage}");
        }
        assert!(
            out.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn a_seeded_database_starts_without_scenario() {
    let scenario = load_scenario(env!("CARGO_TARGET_TMPDIR"));
    let database = Backend::Sqlite.database("seeded");
    let scenario = scenario.to_str().expect("a path");
    let (child, addr) = start(&[
        "--scenario",
        scenario,
        "--database",
        &database,
        "--addr",
        ":0",
    ]);
    let (status, created) = support::http(
        &addr,
        "POST",
        "/documents",
        Some(&bearer(&addr)),
        &create_body(2),
    );
    assert_eq!(status, 201);
    stop(child);
    let (child, addr) = start(&["--database", &database, "--addr", ":0"]);
    let (status, read) = support::http(&addr, "GET", "/documents/doc-1", Some(&bearer(&addr)), b"");
    assert_eq!(
        (status, read),
        (200, created),
        "the seeded database, as it is"
    );
    stop(child);
}

#[test]
fn an_empty_database_without_scenario_is_refused_saying_scenario_seeds_it() {
    let database = Backend::Sqlite.database("empty-no-scenario");
    let out = run(&["--database", &database, "--addr", ":0"]);
    assert!(!out.status.success(), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("empty") && err.contains("--scenario FILE"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "it never listens: {out:?}");
}
