//! The crate's integration tests, as one test binary (as the `time` crate does):
//! the worked examples of the spec, and the simulator's own rules (docs/scenario.md),
//! each test named after the rule it checks.

mod auth;
mod contract;
mod examples;
mod expect;
mod files;
mod peppol;
mod peppol_ubl;
mod quickstart;
mod received;
mod roundtrip;
mod routing;
mod scenario;
mod stream;
mod support;
mod world;
