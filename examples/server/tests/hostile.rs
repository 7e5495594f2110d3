//! Hostile JSON (issue 21) over real HTTP: every row of the library's
//! `tests/hostile/` (its `table.rs`, included here with the `rows.rs` it reads) sent
//! to the server on a fresh SQLite file, answered exactly as the simulator answers
//! it. What each row must answer (docs/decisions.md §10) is checked on the simulator
//! by the library's own run of the rows.

#[allow(dead_code)] // the rows' expectations are the library's run's to check
#[path = "../../../tests/hostile/rows.rs"]
mod rows;
mod support;
#[path = "../../../tests/hostile/table.rs"]
mod table;

pub(crate) use rows::{base_create, Expect, Op, Row};
use rows::{requests, through_simulator, Req, CLIENT};
use serde_json::Value;
use support::{temp_db, Server};

/// The bundled scenario whose world the rows run in (its requests are replaced).
const SCENARIO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../scenarios/quickstart.json");

/// The answers of the server over HTTP, on a fresh database.
fn over_http(name: &str, reqs: &[Req]) -> Vec<(u16, Value)> {
    let db = temp_db(&format!("hostile-{name}"));
    let server = Server::start(SCENARIO, &db);
    let bearer = format!("Bearer {}", server.token(CLIENT.0, CLIENT.1));
    let answers = reqs
        .iter()
        .map(|(method, path, body)| {
            let (status, bytes) = server.request(method, path, Some(&bearer), body);
            let value = invoicing_core::json::from_slice(&bytes)
                .unwrap_or_else(|e| panic!("{method} {path}: the server's answer is JSON: {e}"));
            (status, value)
        })
        .collect();
    server.stop();
    answers
}

/// A row's requests over HTTP answer as through the simulator.
pub(crate) fn check(name: &str, row: &Row) {
    let reqs = requests(row.op, &row.body);
    let http = over_http(name, &reqs);
    assert_eq!(
        http,
        through_simulator(&reqs),
        "{name}: the server answers as the simulator"
    );
}
