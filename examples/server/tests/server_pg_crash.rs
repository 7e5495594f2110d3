//! The reference server through a crash of PostgreSQL itself (issue 29): three
//! instances on one database, 20 clients, 1 000 creates in one journal, an instance
//! killed by SIGKILL every 200 creates, and PostgreSQL stopped with
//! `pg_ctl -m immediate stop` after 500 and started again on the same port and data
//! directory. Every 201 is stored and readable from every instance, the stored
//! numbers form one contiguous run with no repeat, and a retry with the same
//! `Idempotency-Key` never makes a second document.
//!
//! A test binary of its own: it stops the PostgreSQL every other test of the package
//! uses, and cargo runs one test binary at a time. It needs `PG_URL` and `PG_DIR`
//! (tests/pg/start.sh prints both; `.ci/run` exports them): without them it fails,
//! never skips.
//!
//! ```sh
//! eval "$(tests/pg/start.sh)" && export PG_URL PG_DIR
//! cargo test -p invoicing-server --test server_pg_crash -- --include-ignored --nocapture
//! tests/pg/stop.sh "$PG_DIR"
//! ```

mod support;

use support::checks::{self, Backend};

#[test]
#[ignore = "needs PostgreSQL: PG_URL and PG_DIR (tests/pg/start.sh; .ci/run runs it)"]
fn postgres_instances_killed_every_200_and_postgres_crashed_once_lose_and_repeat_no_number() {
    checks::instances_number_without_gap(
        Backend::Postgres,
        "crashed",
        3,
        1000,
        Some(200),
        Some(500),
    );
}
