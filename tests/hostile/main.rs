//! Hostile JSON (issue 21): one named test per row, each run through the simulator
//! (`run` and `run_to`, or `Simulator::handle_http` for bytes a scenario cannot hold).
//! The example server runs the same rows over real HTTP, each answered as the
//! simulator answers it (`examples/server/tests/hostile.rs`, which includes `rows.rs`
//! and `table.rs`).
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
//! same bytes, and a refused request
//! stores and numbers nothing (the next create is answered exactly as the first
//! create of a fresh world; a refused PATCH leaves the document as it was).

mod rows;
mod table;

use invoicing_core::json;
use invoicing_core::simulator;
pub(crate) use rows::{base_create, Expect, Row};
use rows::{op_index, requests, through_simulator, without_input, Op};
use serde_json::Value;

/// The bundled scenario whose world the rows run in (its requests are replaced).
const SCENARIO: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/examples/scenarios/quickstart.json"
);

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
    // over HTTP: the row create_unit_price_private_number_key of the server's run
    let reqs = requests(Op::Create, text.as_bytes());
    let (status, answer) = &through_simulator(&reqs)[0];
    assert_eq!(*status, 422, "{answer}");
    let detail = answer["detail"].as_array().cloned().unwrap_or_default();
    assert_eq!(detail.len(), 1, "{answer}");
    assert_eq!(
        detail[0]["loc"],
        serde_json::json!(["body", "lines", 0, "unit_price"])
    );
    assert_eq!(detail[0]["type"], "decimal_parsing", "{answer}");
    assert!(detail[0]["input"].is_object(), "the object echoed as sent");
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
