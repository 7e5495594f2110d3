//! The reference server (`examples/server/`) over real HTTP on 127.0.0.1, on SQLite:
//! it answers the bundled scenarios exactly as the simulator does (tokens aside), 50
//! concurrent creates draw 50 distinct contiguous numbers, and a restart on the same
//! database serves every document byte-identical. `tests/server_pg.rs` runs the same
//! checks, and those of several instances, on PostgreSQL.
//!
//! The server binary is the one cargo builds for this package's tests
//! (`CARGO_BIN_EXE_server`). The load runs are in `tests/server_pg.rs` (`load_…`).

mod support;

use support::checks::{self, create_body, load_scenario, Backend};
use support::Server;

#[test]
fn the_server_answers_the_bundled_scenarios_as_the_simulator_does_and_restarts_byte_identical() {
    checks::bundled_scenarios_answer_as_the_simulator(Backend::Sqlite);
}

#[test]
fn fifty_concurrent_creates_draw_fifty_distinct_contiguous_numbers_that_survive_a_restart() {
    checks::fifty_concurrent_creates(Backend::Sqlite);
}

#[test]
fn two_instances_on_one_sqlite_file_number_without_gap_through_kills() {
    // issue 19 on the embedded default: two processes on one file, one killed with
    // SIGKILL every 50 creates
    checks::instances_number_without_gap(Backend::Sqlite, "sqlite-killed", 2, 200, Some(50), None);
}

#[test]
fn two_companies_in_one_database_see_only_their_own_and_number_on_their_own() {
    // issue 29: many companies in one database, each request scoped to its company
    checks::companies_are_apart(Backend::Sqlite);
}

#[test]
fn a_token_works_on_every_instance_and_expires() {
    checks::tokens_work_on_every_instance_and_expire(Backend::Sqlite);
}

/// A server on a new SQLite file of the load scenario, and a token of its client.
fn small_server(name: &str, extra: &[&str], back_office: bool) -> (Server, String) {
    let scenario = load_scenario(env!("CARGO_TARGET_TMPDIR"));
    let database = Backend::Sqlite.database(name);
    let server = Server::launch(scenario.to_str().unwrap(), &database, extra, back_office);
    let token = format!("Bearer {}", server.token("app", "s3cret"));
    (server, token)
}

#[test]
fn a_body_above_the_limit_is_413_and_creates_nothing() {
    // issue 19: request bodies above --max-body get 413, in the error shape
    let (server, token) = small_server("max-body", &["--max-body", "2000"], false);
    let (status, v) = server.json("POST", "/documents", Some(&token), &create_body(40));
    assert_eq!(status, 413, "{v}");
    assert_eq!(v["detail"][0]["type"], "body_too_large");
    let (status, v) = server.json("POST", "/documents", Some(&token), &create_body(1));
    assert_eq!((status, v["id"].as_str()), (201, Some("doc-1")), "{v}");
    server.stop();
}

#[test]
fn a_retried_create_with_its_idempotency_key_answers_the_first_document() {
    // issue 19: a client retrying on a timeout gets the first document, not a second
    let (server, token) = small_server("idempotency", &[], false);
    let post = |key: &str| {
        let headers = [("authorization", token.as_str()), ("idempotency-key", key)];
        let (status, _, bytes) = support::try_http(
            &server.addr,
            "POST",
            "/documents",
            &headers,
            &create_body(2),
        )
        .expect("an answer");
        let v = invoicing_core::json::from_slice(&bytes).expect("JSON");
        (status, v["id"].clone(), v["document_number"].clone())
    };
    let first = post("order-77");
    assert_eq!(first.0, 201);
    assert_eq!(
        post("order-77"),
        first,
        "the same answer, no second document"
    );
    let other = post("order-78");
    assert_eq!((other.0, other.1.as_str()), (201, Some("doc-2")));
    server.stop();
}

#[test]
fn the_back_office_answers_only_with_simulator_routes() {
    // issue 19: /_simulator/… exists only with --simulator-routes
    let (server, _) = small_server("no-back-office", &[], false);
    let (status, v) = server.json("POST", "/_simulator/tick", None, b"");
    assert_eq!(status, 404, "{v}");
    server.stop();
    let (server, _) = small_server("back-office", &[], true);
    let (status, v) = server.json("POST", "/_simulator/tick", None, b"");
    assert_eq!(status, 200, "{v}");
    server.stop();
}

#[test]
fn a_refresh_token_gives_a_new_pair_and_is_no_access_token() {
    // issue 19: refresh tokens give new ones; a refresh token is not an access token
    let (server, _) = small_server("refresh", &[], false);
    let body = serde_json::json!({"client_id": "app", "client_secret": "s3cret"}).to_string();
    let (status, pair) = server.json("POST", "/auth/token", None, body.as_bytes());
    assert_eq!(status, 200);
    let refresh = pair["refresh_token"].as_str().unwrap_or_default();
    let grant = serde_json::json!({"grant_type": "refresh_token", "refresh_token": refresh});
    let (status, fresh) = server.json("POST", "/auth/token", None, grant.to_string().as_bytes());
    assert_eq!(status, 200, "{fresh}");
    assert_ne!(fresh["access_token"], pair["access_token"]);
    let bearer = format!(
        "Bearer {}",
        fresh["access_token"].as_str().unwrap_or_default()
    );
    let (status, _) = server.json("POST", "/documents", Some(&bearer), &create_body(1));
    assert_eq!(status, 201);
    let as_access = format!("Bearer {refresh}");
    let (status, v) = server.json("POST", "/documents", Some(&as_access), &create_body(1));
    assert_eq!(status, 401, "{v}");
    let wrong = serde_json::json!({"client_id": "app", "client_secret": "s3cre7"}).to_string();
    let (status, v) = server.json("POST", "/auth/token", None, wrong.as_bytes());
    assert_eq!(
        (status, v["detail"][0]["type"].as_str()),
        (401, Some("invalid_client"))
    );
    server.stop();
}

#[test]
fn sigterm_lets_a_request_in_flight_finish() {
    // issue 19: SIGTERM stops accepting and drains what is in flight
    use std::io::{Read, Write};
    let (server, token) = small_server("drain", &[], false);
    let body = create_body(2);
    let mut stream = std::net::TcpStream::connect(&server.addr).expect("connect");
    let head = format!(
        "POST /documents HTTP/1.1\r\nhost: x\r\nconnection: close\r\ncontent-type: application/json\r\nauthorization: {token}\r\ncontent-length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).expect("head");
    stream.write_all(&body[..10]).expect("part of the body");
    std::thread::sleep(std::time::Duration::from_millis(200));
    server.terminate();
    std::thread::sleep(std::time::Duration::from_millis(300));
    stream.write_all(&body[10..]).expect("the rest");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("an answer");
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    server.wait_exit();
}
