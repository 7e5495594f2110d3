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

use invoicing_core::simulator::{run, run_to};
use invoicing_core_fuzz::{check_document, check_response, check_run_output, text, Origin};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let out = run(data);
    let mut streamed = Vec::new();
    if run_to(data, &mut streamed).is_err() {
        panic!("a Vec takes every byte");
    }
    let pretty = serde_json::to_string_pretty(&out).unwrap_or_default() + "\n";
    if streamed != pretty.as_bytes() {
        panic!(
            "run_to wrote other bytes than run:\n{}\n---\n{pretty}",
            String::from_utf8_lossy(&streamed)
        );
    }
    let responses = check_run_output(&out);
    let input: Option<Value> = serde_json::from_slice(data).ok();
    let requests = input
        .as_ref()
        .and_then(|v| v.get("requests"))
        .and_then(Value::as_array);
    match responses {
        None => {}
        Some(responses) => {
            invoicing_core_fuzz::debug_responses(responses);
            let requests = requests.unwrap_or_else(|| {
                panic!(
                    "responses for an input that is not a scenario with a requests array: {}",
                    text(&out)
                )
            });
            assert_eq!(
                responses.len(),
                requests.len(),
                "not one response per request"
            );
            // Live creates: ids doc-1, doc-2, … in creation order; sandbox: sbx-1, …
            let (mut last_live, mut last_sandbox) = (0u64, 0u64);
            let mut numbers: Vec<(String, String)> = Vec::new();
            for resp in responses {
                let (status, body) = check_response(resp);
                match status {
                    201 => {
                        check_document(body, Origin::Created);
                        let id = body.get("id").and_then(Value::as_str).unwrap_or_default();
                        let (prefix, n) = id.split_at(id.find('-').map_or(0, |i| i + 1));
                        let n: u64 = n.parse().unwrap_or_else(|_| {
                            panic!("a created id {id:?} is not doc-N or sbx-N")
                        });
                        match prefix {
                            "doc-" => {
                                assert!(
                                    n > last_live,
                                    "created ids out of order: {id} after doc-{last_live}"
                                );
                                last_live = n;
                                // A journal never hands out one number twice.
                                let key = (
                                    body["journal_id"].as_str().unwrap_or_default().to_owned(),
                                    body["document_number"]
                                        .as_str()
                                        .unwrap_or_default()
                                        .to_owned(),
                                );
                                assert!(
                                    !numbers.contains(&key),
                                    "journal {} handed out {} twice ({id})",
                                    key.0,
                                    key.1
                                );
                                numbers.push(key);
                            }
                            "sbx-" => {
                                assert!(
                                    n > last_sandbox,
                                    "sandbox ids out of order: {id} after sbx-{last_sandbox}"
                                );
                                last_sandbox = n;
                            }
                            _ => panic!("a created id {id:?} is not doc-N or sbx-N"),
                        }
                    }
                    200 if invoicing_core_fuzz::is_document(body) => {
                        check_document(body, Origin::Any)
                    }
                    _ => {}
                }
            }
        }
    }
    // Decisions §1: same inputs, same outputs, byte for byte.
    let again = run(data);
    assert_eq!(text(&out), text(&again), "run is not deterministic");
});
