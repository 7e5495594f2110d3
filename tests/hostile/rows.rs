//! What the hostile rows share with the server's run of them
//! (`examples/server/tests/hostile.rs`, which includes this file and `table.rs`): the
//! rows' types, the requests of a row and the simulator's answers to them. The
//! including crate names the bundled scenario the rows run in (`SCENARIO`).

use super::SCENARIO;
use invoicing_core::json;
use invoicing_core::simulator::{self, Simulator};
use serde_json::Value;

/// The client the rows send as.
pub(crate) const CLIENT: (&str, &str) = ("webshop", "webshop-secret");
/// A relation of the scenario.
pub(crate) const RELATION: &str = "rel-brasserie-du-parc";

/// The operation a row sends its body to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Op {
    /// `POST /documents`.
    Create,
    /// `PATCH /documents/doc-1` of a document created first.
    Patch,
}

/// What a row's answer must be.
#[derive(Clone, Debug)]
pub(crate) enum Expect {
    /// 422 with an error of this type at this loc.
    Refused(Value, &'static str),
    /// The same answer as the same operation with this other body (the errors'
    /// `input` aside).
    Twin(Vec<u8>),
    /// Accepted, and the answered document holds `text` at this JSON pointer.
    Echoed(String, String),
}

/// One row: the operation, the body's bytes, the expectation.
#[derive(Clone, Debug)]
pub(crate) struct Row {
    /// The operation.
    pub(crate) op: Op,
    /// The body, byte for byte.
    pub(crate) body: Vec<u8>,
    /// The expectation.
    pub(crate) expect: Expect,
}

/// One request: method, path, body bytes.
pub(crate) type Req = (&'static str, &'static str, Vec<u8>);

/// A body that is created without error.
pub(crate) fn base_create() -> Value {
    serde_json::json!({
        "type": "sale_invoice",
        "relation_id": RELATION,
        "lines": [{"quantity": 2, "unit_price": 10.00, "vat_code": "standard",
                   "vat_rate": 21, "item_name": "Lamp"}]
    })
}

/// The requests of a row: the operation with `body`, and around it what shows that a
/// refusal stored nothing. The answer of the operation is at [`op_index`].
pub(crate) fn requests(op: Op, body: &[u8]) -> Vec<Req> {
    let base = base_create().to_string().into_bytes();
    match op {
        Op::Create => vec![
            ("POST", "/documents", body.to_vec()),
            ("POST", "/documents", base),
            ("GET", "/documents/doc-2", Vec::new()),
        ],
        Op::Patch => vec![
            ("POST", "/documents", base),
            ("GET", "/documents/doc-1", Vec::new()),
            ("PATCH", "/documents/doc-1", body.to_vec()),
            ("GET", "/documents/doc-1", Vec::new()),
        ],
    }
}

pub(crate) fn op_index(op: Op) -> usize {
    match op {
        Op::Create => 0,
        Op::Patch => 2,
    }
}

/// The answers of the requests through the simulator: a scenario run by `run` and
/// `run_to` (which must write the same bytes), or `handle_http` when a body is not
/// UTF-8 and no scenario can hold it.
pub(crate) fn through_simulator(reqs: &[Req]) -> Vec<(u16, Value)> {
    let world = std::fs::read(SCENARIO).expect("the bundled scenario");
    let mut scenario = json::from_slice(&world).expect("the bundled scenario is JSON");
    if reqs.iter().any(|(_, _, b)| std::str::from_utf8(b).is_err()) {
        return through_handle_http(&scenario, reqs);
    }
    let mut texts = Vec::new();
    for (method, path, body) in reqs {
        let text = std::str::from_utf8(body).unwrap_or_default();
        let body = if body.is_empty() {
            String::new()
        } else if json::from_slice(body).is_ok() {
            format!(r#", "body": {text}"#)
        } else {
            format!(
                r#", "raw_body": {}"#,
                serde_json::to_string(text).unwrap_or_default()
            )
        };
        let client = CLIENT.0;
        texts.push(format!(
            r#"{{"client": "{client}", "method": "{method}", "path": "{path}"{body}}}"#
        ));
    }
    if let Some(top) = scenario.as_object_mut() {
        top.remove("requests");
    }
    let world = serde_json::to_string(&scenario).expect("a value writes");
    let open = world.strip_suffix('}').expect("an object");
    let bytes = format!(r#"{open}, "requests": [{}]}}"#, texts.join(",\n"));
    let out = simulator::run(bytes.as_bytes());
    let mut streamed = Vec::new();
    let written = simulator::run_to(bytes.as_bytes(), &mut streamed);
    assert!(written.is_ok(), "a Vec takes every byte");
    let pretty = serde_json::to_string_pretty(&out).expect("a value writes") + "\n";
    assert_eq!(
        String::from_utf8_lossy(&streamed),
        pretty,
        "run_to writes the bytes of run"
    );
    let again = json::from_slice(&streamed).expect("run_to writes JSON");
    let responses = again["responses"]
        .as_array()
        .unwrap_or_else(|| panic!("responses: {again}"));
    responses
        .iter()
        .map(|r| {
            let status = r["status"].as_u64().and_then(|s| u16::try_from(s).ok());
            (status.expect("a status"), r["body"].clone())
        })
        .collect()
}

/// The answers of `Simulator::handle_http`, the entry the server uses.
fn through_handle_http(scenario: &Value, reqs: &[Req]) -> Vec<(u16, Value)> {
    let mut sim = Simulator::from_json(scenario).expect("the world loads");
    let auth = serde_json::json!({"client_id": CLIENT.0, "client_secret": CLIENT.1});
    let (status, token) = sim.handle_http(
        "POST",
        "/auth/token",
        None,
        Some("application/json"),
        auth.to_string().as_bytes(),
    );
    assert_eq!(status, 200, "{token}");
    let bearer = format!(
        "Bearer {}",
        token["access_token"].as_str().unwrap_or_default()
    );
    reqs.iter()
        .map(|(method, path, body)| {
            sim.handle_http(method, path, Some(&bearer), Some("application/json"), body)
        })
        .collect()
}

/// An answer with the errors' `input` left out (a twin sends other bytes).
pub(crate) fn without_input(answer: &(u16, Value)) -> (u16, Value) {
    let mut body = answer.1.clone();
    if let Some(detail) = body.get_mut("detail").and_then(Value::as_array_mut) {
        for error in detail {
            if let Some(e) = error.as_object_mut() {
                e.remove("input");
            }
        }
    }
    (answer.0, body)
}
