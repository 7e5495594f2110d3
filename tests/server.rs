//! The reference server (`examples/server/`) over real HTTP on 127.0.0.1, on SQLite:
//! it answers the bundled scenarios exactly as the simulator does (tokens aside), 50
//! concurrent creates draw 50 distinct contiguous numbers, and a restart on the same
//! database serves every document byte-identical. `tests/server_pg.rs` runs the same
//! checks, and those of several instances, on PostgreSQL.
//!
//! The server binary is the example cargo builds for the tests
//! (`target/<profile>/examples/server`); `SERVER_BIN` overrides it (the load test
//! runs against a release build: `cargo build --release --example server`, then
//! `SERVER_BIN=target/release/examples/server cargo test --test server -- --ignored --nocapture`).

mod support;

use std::time::Instant;
use support::checks::{self, create_body, load_scenario, Backend};
use support::{http, temp_db, Server};

#[test]
fn the_server_answers_the_bundled_scenarios_as_the_simulator_does_and_restarts_byte_identical() {
    checks::bundled_scenarios_answer_as_the_simulator(Backend::Sqlite);
}

#[test]
fn fifty_concurrent_creates_draw_fifty_distinct_contiguous_numbers_that_survive_a_restart() {
    checks::fifty_concurrent_creates(Backend::Sqlite);
}

#[test]
#[ignore = "a measurement: run against a release build (see the module docs)"]
fn load_creates_per_second_of_50_line_documents_with_8_clients() {
    let scenario = load_scenario(env!("CARGO_TARGET_TMPDIR"));
    let db = temp_db("load");
    let server = Server::start(scenario.to_str().unwrap(), &db);
    let token = format!("Bearer {}", server.token("app", "s3cret"));
    let body = create_body(50);
    let per_client = 250;
    let start = Instant::now();
    let handles: Vec<_> = (0..8)
        .map(|_| {
            let (addr, token, body) = (server.addr.clone(), token.clone(), body.clone());
            std::thread::spawn(move || {
                for _ in 0..per_client {
                    let (status, _) = http(&addr, "POST", "/documents", Some(&token), &body);
                    assert_eq!(status, 201);
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    let millis = start.elapsed().as_millis().max(1);
    let total: u128 = 8 * per_client;
    println!(
        "{total} creates of 50-line documents, 8 clients: {} creates/s",
        total * 1000 / millis
    );
    server.stop();
}

#[test]
fn two_instances_on_one_sqlite_file_number_without_gap_through_kills() {
    // issue 19 on the embedded default: two processes on one file, one killed with
    // SIGKILL every 50 creates
    checks::instances_number_without_gap(Backend::Sqlite, "sqlite-killed", 2, 200, Some(50));
}

#[test]
fn a_token_works_on_every_instance_and_expires() {
    checks::tokens_work_on_every_instance_and_expire(Backend::Sqlite);
}
