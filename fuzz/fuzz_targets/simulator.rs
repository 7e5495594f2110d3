//! The whole simulator: any bytes as a scenario.
//!
//! Invariants (docs/scenario.md, docs/decisions.md §1, §2, §3, §8):
//! - `run` never panics and answers an object with exactly one of `responses` /
//!   `error`; bytes that are not a JSON object with a `requests` array are an `error`;
//! - one response per request, each `{status, body}` with a status in
//!   {200, 201, 401, 403, 404, 405, 422, 501};
//! - every error body is `{"detail": [...]}` with loc, msg and a type of the code
//!   table whose status is the response's;
//! - every document answered (201 from a create, 200 from GET, PATCH, send, SET)
//!   satisfies the totals identities with every amount written with exactly the
//!   currency's minor-unit decimals; a 201 document is in the state of a new one;
//! - created ids are doc-1, doc-2, … (sbx-1, … for a sandbox client) in order, and a
//!   journal never hands out one document number twice to live creates;
//! - the same bytes give the same answer, byte for byte;
//! - the streaming run (`run_to`: requests, relations and delivery locations read
//!   from their text, create and PATCH bodies in the typed pass, documents and
//!   location lists written without a `Value`) writes exactly the bytes of `run`'s
//!   answer written pretty.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| invoicing_core_fuzz::simulator(data));
