//! Hostile JSON (issue 21): one named test per row, each run through the simulator
//! (`run` and `run_to`, or `Simulator::handle_http` for bytes a scenario cannot hold)
//! and over real HTTP against the reference server (`examples/server.rs`).
//!
//! The rules the rows hold (docs/decisions.md §10):
//! - a number field (create and PATCH: quantity, unit_price, vat_rate, paid_amount, a
//!   line's or the document's allowance amount and rate) sent as an object is
//!   `decimal_parsing` at its loc, whatever the object's keys: serde_json's private
//!   number key is an object like any other; a list or a boolean is
//!   `decimal_parsing`; a string holding a number, `-0` and an exponent read as the
//!   number they write (`"12.5"` as 12.5, `-0` as 0, `1e1` as 10); null as the key
//!   absent (on create; on PATCH lines are sent whole, and a null paid_amount is
//!   `null_not_allowed`); `1e400` and a number of 400 digits are beyond the field's
//!   range (`less_than_equal` at its loc);
//! - a free-text field keeps what it is sent, NUL and control characters, U+FFFE and
//!   U+202E included (the UBL and the PDF replace what they cannot carry); 10 000
//!   characters are `string_too_long` where the field's limit is lower; an escaped
//!   lone surrogate is not JSON (`json_invalid` at `["body"]`);
//! - a repeated key: the last one wins; a UTF-8 byte order mark, nesting 10 000 deep
//!   and bytes that are not UTF-8 are not JSON (`json_invalid` at `["body"]`).
//!
//! Every row also holds: never a panic, valid JSON out, `run` and `run_to` write the
//! same bytes, the server answers what the simulator answers, and a refused request
//! stores and numbers nothing (the next create is answered exactly as the first
//! create of a fresh world; a refused PATCH leaves the document as it was).

#[path = "../support/mod.rs"]
mod support;
mod table;

use invoicing_core::json;
use invoicing_core::simulator::{self, Simulator};
use serde_json::Value;
use support::{temp_db, Server};

/// The bundled scenario whose world the rows run in (its requests are replaced).
const SCENARIO: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/examples/scenarios/quickstart.json"
);
/// The client the rows send as.
const CLIENT: (&str, &str) = ("webshop", "webshop-secret");
/// A relation of the scenario.
const RELATION: &str = "rel-brasserie-du-parc";

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
type Req = (&'static str, &'static str, Vec<u8>);

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
fn requests(op: Op, body: &[u8]) -> Vec<Req> {
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

fn op_index(op: Op) -> usize {
    match op {
        Op::Create => 0,
        Op::Patch => 2,
    }
}

/// The answers of the requests through the simulator: a scenario run by `run` and
/// `run_to` (which must write the same bytes), or `handle_http` when a body is not
/// UTF-8 and no scenario can hold it.
fn through_simulator(reqs: &[Req]) -> Vec<(u16, Value)> {
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

/// The answers of the reference server over HTTP, on a fresh database.
fn over_http(name: &str, reqs: &[Req]) -> Vec<(u16, Value)> {
    let db = temp_db(&format!("hostile-{name}"));
    let server = Server::start(SCENARIO, &db);
    let bearer = format!("Bearer {}", server.token(CLIENT.0, CLIENT.1));
    let answers = reqs
        .iter()
        .map(|(method, path, body)| {
            let (status, bytes) = server.request(method, path, Some(&bearer), body);
            let value = json::from_slice(&bytes)
                .unwrap_or_else(|e| panic!("{method} {path}: the server's answer is JSON: {e}"));
            (status, value)
        })
        .collect();
    server.stop();
    answers
}

/// An answer with the errors' `input` left out (a twin sends other bytes).
fn without_input(answer: &(u16, Value)) -> (u16, Value) {
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

/// Runs a row every way and checks every rule of the module's doc.
pub(crate) fn check(name: &str, row: &Row) {
    let reqs = requests(row.op, &row.body);
    let sim = through_simulator(&reqs);
    let at = op_index(row.op);
    let answer = &sim[at];
    match &row.expect {
        Expect::Refused(loc, code) => {
            assert_eq!(answer.0, 422, "{name}: {}", answer.1);
            let detail = answer.1["detail"].as_array().cloned().unwrap_or_default();
            assert!(
                detail
                    .iter()
                    .any(|e| &e["loc"] == loc && e["type"] == *code),
                "{name}: {code} at {loc} in {}",
                answer.1
            );
        }
        Expect::Twin(twin) => {
            let twin_answers = through_simulator(&requests(row.op, twin));
            assert_eq!(
                without_input(answer),
                without_input(&twin_answers[at]),
                "{name}: the twin's answer"
            );
        }
        Expect::Echoed(pointer, text) => {
            assert!(answer.0 == 200 || answer.0 == 201, "{name}: {}", answer.1);
            assert_eq!(
                answer.1.pointer(pointer).and_then(Value::as_str),
                Some(text.as_str()),
                "{name}: {pointer} kept as sent"
            );
        }
    }
    if answer.0 >= 400 {
        nothing_stored(name, row.op, &sim);
    }
    let http = over_http(name, &reqs);
    assert_eq!(http, sim, "{name}: the server answers as the simulator");
}

/// A refused create leaves the next create answered as a fresh world's first one; a
/// refused PATCH leaves the document as it was read before.
fn nothing_stored(name: &str, op: Op, answers: &[(u16, Value)]) {
    match op {
        Op::Create => {
            let base = base_create().to_string().into_bytes();
            let fresh = through_simulator(&[("POST", "/documents", base)]);
            assert_eq!(answers[1], fresh[0], "{name}: nothing created or numbered");
            assert_eq!(answers[2].0, 404, "{name}: one document only");
        }
        Op::Patch => assert_eq!(answers[3], answers[1], "{name}: the document unchanged"),
    }
}

#[test]
fn issue_21_a_private_number_key_as_unit_price_is_refused_at_its_loc() {
    // the create body of issue 21: 422 at ["body","lines",0,"unit_price"], as `{}` is
    let mut body = base_create();
    body["lines"][0]["unit_price"] = serde_json::json!("@@");
    let text = body
        .to_string()
        .replace(r#""@@""#, r#"{"$serde_json::private::Number": "1e3"}"#);
    let reqs = requests(Op::Create, text.as_bytes());
    for (way, answers) in [
        ("simulator", through_simulator(&reqs)),
        ("http", over_http("issue-21", &reqs)),
    ] {
        let (status, answer) = &answers[0];
        assert_eq!(*status, 422, "{way}: {answer}");
        let detail = answer["detail"].as_array().cloned().unwrap_or_default();
        assert_eq!(detail.len(), 1, "{way}: {answer}");
        assert_eq!(
            detail[0]["loc"],
            serde_json::json!(["body", "lines", 0, "unit_price"])
        );
        assert_eq!(detail[0]["type"], "decimal_parsing", "{way}: {answer}");
        assert!(
            detail[0]["input"].is_object(),
            "{way}: the object echoed as sent"
        );
    }
}

#[test]
fn issue_21_run_and_run_to_answer_a_private_number_key_as_any_unknown_key() {
    // the fuzz finding of issue 21 (fuzz/regressions/simulator/)
    let data = br#"{"$serde_json::private::Number":{}}"#;
    let mut streamed = Vec::new();
    assert!(simulator::run_to(data, &mut streamed).is_ok());
    let pretty = serde_json::to_string_pretty(&simulator::run(data)).unwrap_or_default() + "\n";
    assert_eq!(String::from_utf8_lossy(&streamed), pretty);
    assert_eq!(
        simulator::run(data)["error"],
        r#"unknown top-level key "$serde_json::private::Number""#
    );
}

/// The bundled lifecycle scenario with `from` replaced by `to` (once).
fn lifecycle_with(from: &str, to: &str) -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/scenarios/lifecycle.json"
    );
    let text = std::fs::read_to_string(path).expect("the bundled scenario");
    assert!(text.contains(from), "{from}");
    let text = text.replacen(from, to, 1);
    let mut streamed = Vec::new();
    assert!(simulator::run_to(text.as_bytes(), &mut streamed).is_ok());
    let out = simulator::run(text.as_bytes());
    let pretty = serde_json::to_string_pretty(&out).unwrap_or_default() + "\n";
    assert_eq!(String::from_utf8_lossy(&streamed), pretty, "run = run_to");
    out
}

#[test]
fn a_scenario_record_reads_a_private_number_key_as_an_object() {
    // docs/decisions.md §10: a journal's `next` sent as the private number object is
    // refused as any object is
    let next = r#""default": true, "next": 42}"#;
    let token = lifecycle_with(
        next,
        r#""default": true, "next": {"$serde_json::private::Number": "5"}}"#,
    );
    let other = lifecycle_with(next, r#""default": true, "next": {"x": "5"}}"#);
    assert_eq!(token["error"], "journals[0]: next must be a number");
    assert_eq!(token, other);
}

#[test]
fn a_set_body_reads_a_private_number_key_as_an_object() {
    // the back office's SET paid_amount: the private number object is `{}`'s error
    let set = r#"{"peppol_status": "rejected"}"#;
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/scenarios/lifecycle.json"
    );
    let scenario = json::from_slice(&std::fs::read(path).expect("the bundled scenario"));
    let requests = scenario.expect("JSON")["requests"].clone();
    let at = requests
        .as_array()
        .and_then(|list| list.iter().position(|r| r["method"] == "SET"))
        .expect("the scenario's SET");
    let answer = |paid: &str| {
        let out = lifecycle_with(set, &format!(r#"{{"paid_amount": {paid}}}"#));
        let response = &out["responses"][at];
        let status = response["status"]
            .as_u64()
            .and_then(|s| u16::try_from(s).ok());
        without_input(&(status.unwrap_or_default(), response["body"].clone()))
    };
    let token = answer(r#"{"$serde_json::private::Number": "1"}"#);
    assert_eq!(token.0, 422, "the SET is refused: {}", token.1);
    assert_eq!(
        token.1["detail"][0]["loc"],
        serde_json::json!(["body", "paid_amount"])
    );
    assert_eq!(token, answer("{}"));
}
