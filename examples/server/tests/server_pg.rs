//! The reference server on PostgreSQL (issue 19): the checks of `tests/server.rs`,
//! and those of several instances on one database. They need a running PostgreSQL
//! named by `PG_URL` (tests/pg/start.sh starts a throw-away one); `.ci/run` starts
//! it and runs them with `--include-ignored`. Without `PG_URL` they fail, never skip.
//!
//! ```sh
//! eval "$(tests/pg/start.sh)" && export PG_URL
//! cargo test -p invoicing-server --test server_pg -- --include-ignored --skip load_
//! tests/pg/stop.sh "$PG_DIR"
//! ```

mod support;

use support::checks::{self, Backend};

#[test]
#[ignore = "needs PostgreSQL: PG_URL (tests/pg/start.sh; .ci/run runs it)"]
fn postgres_the_server_answers_the_bundled_scenarios_as_the_simulator_does() {
    checks::bundled_scenarios_answer_as_the_simulator(Backend::Postgres);
}

#[test]
#[ignore = "needs PostgreSQL: PG_URL (tests/pg/start.sh; .ci/run runs it)"]
fn postgres_fifty_concurrent_creates_draw_fifty_contiguous_numbers() {
    checks::fifty_concurrent_creates(Backend::Postgres);
}

#[test]
#[ignore = "needs PostgreSQL: PG_URL (tests/pg/start.sh; .ci/run runs it)"]
fn postgres_three_instances_twenty_clients_a_thousand_creates_one_contiguous_run() {
    checks::instances_number_without_gap(Backend::Postgres, "three", 3, 1000, None, None);
}

#[test]
#[ignore = "needs PostgreSQL: PG_URL (tests/pg/start.sh; .ci/run runs it)"]
fn postgres_an_instance_killed_every_200_creates_loses_and_repeats_no_number() {
    checks::instances_number_without_gap(Backend::Postgres, "killed", 3, 1000, Some(200), None);
}

#[test]
#[ignore = "needs PostgreSQL: PG_URL (tests/pg/start.sh; .ci/run runs it)"]
fn postgres_a_token_works_on_every_instance_and_expires() {
    checks::tokens_work_on_every_instance_and_expire(Backend::Postgres);
}

#[test]
#[ignore = "needs PostgreSQL: PG_URL (tests/pg/start.sh; .ci/run runs it)"]
fn postgres_two_companies_in_one_database_see_only_their_own() {
    checks::companies_are_apart(Backend::Postgres);
}

#[test]
#[ignore = "needs PostgreSQL: PG_URL (tests/pg/start.sh; .ci/run runs it)"]
fn postgres_a_create_in_another_journal_and_a_read_do_not_wait_for_a_locked_counter() {
    // issue 29: a create locks only its journal's counter row
    checks::creates_in_other_journals_do_not_wait();
}

// Load (issue 19): a measurement, run by hand against a release build on a quiet
// machine (benches/README.md "Issue 19"):
// `--release` builds the server in release:
//   cargo test --release -p invoicing-server --test server_pg load_ -- --ignored --nocapture --test-threads 1

#[test]
#[ignore = "a measurement (benches/README.md): release build, quiet machine"]
fn load_postgres_one_instance() {
    checks::load(Backend::Postgres, 1, 8, 10);
}

#[test]
#[ignore = "a measurement (benches/README.md): release build, quiet machine"]
fn load_postgres_two_instances() {
    checks::load(Backend::Postgres, 2, 8, 10);
}

#[test]
#[ignore = "a measurement (benches/README.md): release build, quiet machine"]
fn load_postgres_three_instances() {
    checks::load(Backend::Postgres, 3, 8, 10);
}

#[test]
#[ignore = "a measurement (benches/README.md): release build, quiet machine"]
fn load_sqlite_one_instance() {
    checks::load(Backend::Sqlite, 1, 8, 10);
}
