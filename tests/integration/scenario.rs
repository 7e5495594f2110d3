//! Loading a scenario (docs/scenario.md "Scenario (input)"): each malformed condition
//! answers `{"error": "…"}` saying what and where, and no input panics.

use crate::support::{
    base, invoice, j, malformed, malformed_bytes, responses, simulator, with_requests,
};
use invoicing_core::simulator::{run, Simulator};
use proptest::prelude::*;
use serde_json::{json, Value};

/// The base world with one record appended to a top-level list.
fn with_record(list: &str, record: Value) -> Value {
    let mut s = base();
    match s[list].as_array_mut() {
        Some(items) => items.push(record),
        None => s[list] = json!([record]),
    }
    s
}

#[test]
fn a_scenario_that_is_not_json_is_malformed() {
    // docs/scenario.md: malformed when it is not JSON
    let message = malformed_bytes(b"{\"today\": \"2026-11-21\",");
    assert!(
        message.starts_with("scenario is not valid json: "),
        "{message}"
    );
    assert!(malformed_bytes(b"").starts_with("scenario is not valid json"));
    assert!(malformed_bytes(&[0xff, 0xfe]).starts_with("scenario is not valid json"));
}

#[test]
fn a_scenario_that_is_not_an_object_is_malformed() {
    assert_eq!(malformed(&json!([])), "scenario must be a json object");
    assert_eq!(malformed(&json!("today")), "scenario must be a json object");
}

#[test]
fn a_scenario_without_today_is_malformed() {
    // docs/scenario.md: malformed when today is missing
    let mut s = base();
    s.as_object_mut().map(|m| m.remove("today"));
    assert_eq!(malformed(&s), "missing today");
    s["today"] = Value::Null;
    assert_eq!(malformed(&s), "missing today");
}

#[test]
fn a_scenario_without_requests_is_malformed() {
    // docs/scenario.md: malformed when requests is missing
    let mut s = base();
    s.as_object_mut().map(|m| m.remove("requests"));
    assert_eq!(malformed(&s), "missing requests");
    s["requests"] = json!({});
    assert_eq!(malformed(&s), "requests: must be an array");
}

#[test]
fn only_today_and_requests_are_required() {
    // docs/scenario.md: every top-level key but today and requests is optional
    let out = run(br#"{"today": "2026-11-21", "requests": []}"#);
    assert_eq!(out, json!({"responses": []}));
}

#[test]
fn today_that_is_not_a_date_is_malformed() {
    // docs/scenario.md: malformed when today is not a valid date
    for bad in [
        "2026-02-30",
        "21/11/2026",
        "2026-11-21T00:00:00Z",
        "2026-1-5",
        "",
    ] {
        let mut s = base();
        s["today"] = json!(bad);
        assert_eq!(
            malformed(&s),
            format!("today: {bad:?} is not a valid date (yyyy-mm-dd)")
        );
    }
    let mut s = base();
    s["today"] = json!(20_261_121);
    assert_eq!(malformed(&s), "today: must be a date string (yyyy-mm-dd)");
}

#[test]
fn now_that_is_not_a_date_time_is_malformed() {
    // docs/scenario.md: malformed when now is not a valid date-time
    for bad in [
        "2026-11-21",
        "noon",
        "2026-11-21T25:00:00Z",
        "2026-11-21T10:00:00+25:00",
    ] {
        let mut s = base();
        s["now"] = json!(bad);
        assert_eq!(
            malformed(&s),
            format!("now: {bad:?} is not a valid date-time (rfc 3339)")
        );
    }
    let mut s = base();
    s["now"] = json!(true);
    assert_eq!(malformed(&s), "now: must be a date-time string (rfc 3339)");
}

#[test]
fn now_is_written_back_in_utc_with_z() {
    // docs/scenario.md: now is the clock for create_date, written back in UTC with Z
    let mut s = base();
    s["now"] = json!("2026-11-21T10:15:30+01:00");
    let out = responses(&with_requests(
        s,
        vec![crate::support::create_request("app", "", &invoice())],
    ));
    assert_eq!(out[0].0, 201, "{}", out[0].1);
    assert_eq!(out[0].1["create_date"], json!("2026-11-21T09:15:30Z"));
}

#[test]
fn now_defaults_to_today_at_midnight_utc() {
    // docs/scenario.md: now defaults to today at 00:00:00Z
    let out = responses(&with_requests(
        base(),
        vec![crate::support::create_request("app", "", &invoice())],
    ));
    assert_eq!(out[0].1["create_date"], json!("2026-11-21T00:00:00Z"));
}

#[test]
fn a_record_without_its_id_is_malformed() {
    // docs/scenario.md: malformed when a record lacks its id
    let cases = [
        (
            "relations",
            json!({"kind": "company"}),
            "relations[3]: missing id",
        ),
        (
            "journals",
            json!({"category": "sales_credit", "numbering": "never"}),
            "journals[4]: missing id",
        ),
        (
            "delivery_locations",
            json!({"relation_id": "rel-acme"}),
            "delivery_locations[3]: missing id",
        ),
        (
            "brandings",
            json!({"name": "Third"}),
            "brandings[2]: missing id",
        ),
        (
            "clients",
            json!({"client_secret": "x"}),
            "clients[5]: missing client_id",
        ),
        (
            "documents",
            json!({"create": invoice()}),
            "documents[0]: missing id",
        ),
    ];
    for (list, record, message) in cases {
        assert_eq!(malformed(&with_record(list, record)), message, "{list}");
    }
    assert_eq!(
        malformed(&with_record(
            "relations",
            json!({"id": null, "kind": "company"})
        )),
        "relations[3]: missing id"
    );
    assert_eq!(
        malformed(&with_record(
            "relations",
            json!({"id": 7, "kind": "company"})
        )),
        "relations[3]: id must be a string"
    );
}

#[test]
fn an_unknown_top_level_key_is_malformed() {
    // docs/scenario.md: malformed when a top-level key is unknown
    let mut s = base();
    s["why"] = json!("a comment");
    assert_eq!(malformed(&s), "unknown top-level key \"why\"");
}

#[test]
fn two_records_of_one_kind_sharing_an_id_are_malformed() {
    // docs/scenario.md: malformed when two records of one kind share an id
    let cases = [
        (
            "relations",
            json!({"id": "rel-acme", "kind": "contact"}),
            "relations[3]: duplicate id \"rel-acme\"",
        ),
        (
            "journals",
            json!({"id": "jrn-sales", "category": "sales_credit", "numbering": "never"}),
            "journals[4]: duplicate id \"jrn-sales\"",
        ),
        (
            "delivery_locations",
            json!({"id": "loc-1", "relation_id": "rel-beta"}),
            "delivery_locations[3]: duplicate id \"loc-1\"",
        ),
        (
            "brandings",
            json!({"id": "brd-1"}),
            "brandings[2]: duplicate id \"brd-1\"",
        ),
        (
            "clients",
            json!({"client_id": "app", "client_secret": "other"}),
            "clients[5]: duplicate client_id \"app\"",
        ),
    ];
    for (list, record, message) in cases {
        assert_eq!(malformed(&with_record(list, record)), message, "{list}");
    }
    let mut s = base();
    s["documents"] = json!([{"id": "d", "create": invoice()}, {"id": "d", "create": invoice()}]);
    assert_eq!(malformed(&s), "documents[1]: duplicate id \"d\"");
}

#[test]
fn records_of_different_kinds_may_share_an_id() {
    let s = with_record(
        "journals",
        json!({"id": "rel-acme", "category": "sales_credit", "numbering": "never"}),
    );
    simulator(&s);
}

#[test]
fn a_preloaded_document_id_of_the_form_doc_n_or_sbx_n_is_malformed() {
    // docs/scenario.md: malformed when a preloaded document's id has the form doc-N or sbx-N
    for id in ["doc-1", "doc-007", "sbx-3"] {
        let mut s = base();
        s["documents"] = json!([{"id": id, "create": invoice()}]);
        assert_eq!(
            malformed(&s),
            format!(
                "documents[0]: id {id:?} has the form of the ids the run hands out (doc-N, sbx-N)"
            )
        );
    }
    for id in ["doc-old", "doc-", "sbx-1a", "DOC-1"] {
        let mut s = base();
        s["documents"] = json!([{"id": id, "create": invoice()}]);
        simulator(&s);
    }
}

#[test]
fn a_preloaded_create_refused_by_the_rules_is_malformed_with_its_errors() {
    // docs/scenario.md: malformed when a preloaded document's create is refused (the
    // message carries the errors)
    let mut s = base();
    let mut body = invoice();
    body["payment_terms"] = json!("30-DF");
    body["relation_id"] = json!("rel-nobody");
    s["documents"] = json!([{"id": "doc-old", "create": body}]);
    let message = malformed(&s);
    assert!(
        message.starts_with("documents[0]: create refused: "),
        "{message}"
    );
    assert!(
        message.contains("string_pattern_mismatch at body.payment_terms"),
        "{message}"
    );
    assert!(
        message.contains("relation_not_found at body.relation_id"),
        "{message}"
    );
    s["documents"] = json!([{"id": "doc-old"}]);
    assert_eq!(malformed(&s), "documents[0]: missing create");
}

#[test]
fn a_preloaded_state_refused_is_malformed_with_its_errors() {
    let mut s = base();
    s["documents"] =
        json!([{"id": "doc-old", "create": invoice(), "state": {"peppol_status": "lost"}}]);
    let message = malformed(&s);
    assert!(
        message.starts_with("documents[0]: state refused: "),
        "{message}"
    );
    assert!(message.contains("peppol_status"), "{message}");
}

#[test]
fn two_default_journals_in_one_category_are_malformed() {
    // docs/scenario.md: malformed when a category has two default journals
    let s = with_record(
        "journals",
        json!({"id": "jrn-x", "category": "sales_invoice", "numbering": "never", "default": true}),
    );
    assert_eq!(
        malformed(&s),
        "journals[4]: a second default journal for category sales_invoice (journals[0] is one)"
    );
}

#[test]
fn a_contact_with_payment_terms_is_malformed() {
    // docs/scenario.md: a contact never has terms
    let s = with_record(
        "relations",
        json!({"id": "rel-piet", "kind": "contact", "payment_terms": "30-df"}),
    );
    assert_eq!(
        malformed(&s),
        "relations[3]: a contact never has payment_terms"
    );
    let s = with_record(
        "relations",
        json!({"id": "rel-piet", "kind": "contact", "payment_terms": null}),
    );
    simulator(&s);
}

/// Each scenario (`today`, no requests, plus the keys of `patch`) is malformed with
/// exactly this message.
fn assert_malformed(cases: Vec<(Value, &str)>) {
    for (patch, message) in cases {
        let mut s = json!({"today": "2026-11-21", "requests": []});
        if let (Some(target), Some(extra)) = (s.as_object_mut(), patch.as_object()) {
            target.extend(extra.clone());
        }
        assert_eq!(malformed(&s), message, "{patch}");
    }
}

#[test]
fn wrongly_typed_company_and_relation_keys_are_malformed() {
    let cases: Vec<(Value, &str)> = vec![
        (json!({"relations": {}}), "relations: must be an array"),
        (json!({"relations": [1]}), "relations[0]: must be an object"),
        (json!({"company": []}), "company: must be an object"),
        (
            json!({"company": {"self_billing": "yes"}}),
            "company: self_billing must be a boolean",
        ),
        (
            json!({"company": {"legal_notice": 3}}),
            "company: legal_notice must be a string",
        ),
        (
            json!({"company": {"exemption_mentions": {"tax_free": "x"}}}),
            "company.exemption_mentions: unknown vat code \"tax_free\"",
        ),
        (
            json!({"company": {"exemption_mentions": {"export": 1}}}),
            "company.exemption_mentions.export: must be a string",
        ),
        (
            json!({"company": {"currencies": "EUR"}}),
            "company.currencies: must be an array",
        ),
        (
            json!({"company": {"currencies": ["EUR", 978]}}),
            "company.currencies[1]: must be a string",
        ),
        (
            json!({"relations": [{"id": "r", "kind": "person"}]}),
            "relations[0]: kind must be \"company\" or \"contact\", got \"person\"",
        ),
        (
            json!({"relations": [{"id": "r"}]}),
            "relations[0]: missing kind",
        ),
        (
            json!({"relations": [{"id": "r", "kind": "company", "peppol": "yes"}]}),
            "relations[0]: peppol must be a boolean",
        ),
    ];
    assert_malformed(cases);
}

#[test]
fn wrongly_typed_journal_location_branding_client_and_document_keys_are_malformed() {
    let cases: Vec<(Value, &str)> = vec![
        (
            json!({"journals": [{"id": "j", "category": "sales", "numbering": "never"}]}),
            "journals[0]: unknown category \"sales\"",
        ),
        (
            json!({"journals": [{"id": "j", "category": "proforma", "numbering": "weekly"}]}),
            "journals[0]: numbering must be \"never\", \"monthly\" or \"yearly\", got \"weekly\"",
        ),
        (
            json!({"journals": [{"id": "j", "category": "proforma", "numbering": "never", "next": 0}]}),
            "journals[0]: next must be a whole number from 1 to 18446744073709551614, got 0",
        ),
        (
            json!({"journals": [{"id": "j", "category": "proforma", "numbering": "never", "next": "5"}]}),
            "journals[0]: next must be a number",
        ),
        (
            json!({"delivery_locations": [{"id": "l"}]}),
            "delivery_locations[0]: missing relation_id",
        ),
        (
            json!({"relations": [{"id": "r", "kind": "company", "address": {"city": 4000}}]}),
            "relations[0].address: city must be a string",
        ),
        (
            json!({"relations": [{"id": "r", "kind": "company", "address": "Gent"}]}),
            "relations[0]: address must be an object",
        ),
        (
            json!({"delivery_locations": [{"id": "l", "relation_id": "r", "address": {"street": []}}]}),
            "delivery_locations[0].address: street must be a string",
        ),
        (
            json!({"company": {"address": {"country_code": false}}}),
            "company.address: country_code must be a string",
        ),
        (
            json!({"brandings": [{"id": "b", "default": "true"}]}),
            "brandings[0]: default must be a boolean",
        ),
        (
            json!({"clients": [{"client_id": "c", "client_secret": "s", "environment": "test"}]}),
            "clients[0]: environment must be \"live\" or \"sandbox\", got \"test\"",
        ),
        (
            json!({"clients": [{"client_id": "c", "client_secret": "s", "permissions": ["c", "d"]}]}),
            "clients[0]: unknown permission \"d\", expected \"c\" or \"u\"",
        ),
        (
            json!({"clients": [{"client_id": "c"}]}),
            "clients[0]: missing client_secret",
        ),
        (
            json!({"documents": [{"id": "x", "create": invoice()}, 3]}),
            "documents[1]: must be an object",
        ),
    ];
    assert_malformed(cases);
}

#[test]
fn malformed_requests_make_the_scenario_malformed() {
    let cases = [
        (json!(3), "requests[0]: a request must be an object"),
        (json!({"path": "/documents"}), "requests[0]: missing method"),
        (
            json!({"method": "", "path": "/documents"}),
            "requests[0]: method must be a non-empty string",
        ),
        (
            json!({"method": "GET"}),
            "requests[0]: missing path (only TICK has none)",
        ),
        (
            json!({"method": "GET", "path": 1}),
            "requests[0]: path must be a string",
        ),
        (
            json!({"method": "GET", "path": "/x", "client": 1}),
            "requests[0]: client must be a string",
        ),
        (
            json!({"method": "GET", "path": "/x", "headers": []}),
            "requests[0]: headers must be an object",
        ),
        (
            json!({"method": "GET", "path": "/x", "headers": {"Authorization": 1}}),
            "requests[0]: header Authorization must be a string",
        ),
        (
            json!({"method": "POST", "path": "/x", "body": {}, "raw_body": "{}"}),
            "requests[0]: body and raw_body exclude each other",
        ),
        (
            json!({"method": "POST", "path": "/x", "raw_body": {}}),
            "requests[0]: raw_body must be a string",
        ),
    ];
    for (request, message) in cases {
        assert_eq!(
            malformed(&with_requests(base(), vec![request.clone()])),
            message,
            "{request}"
        );
    }
}

#[test]
fn unknown_keys_inside_records_and_requests_are_ignored() {
    let mut s = base();
    s["company"]["vat_number"] = json!("BE0123456789");
    s["relations"][0]["name"] = json!("Acme NV");
    s["journals"][0]["label"] = json!("Sales");
    s["clients"][0]["note"] = json!("main app");
    let s = with_requests(
        s,
        vec![
            json!({"client": "app", "method": "GET", "path": "/relations/rel-acme", "comment": "x"}),
        ],
    );
    let out = responses(&s);
    assert_eq!(out[0].0, 200);
    assert_eq!(out[0].1["name"], json!("Acme NV"));
}

#[test]
fn the_same_scenario_gives_the_same_bytes() {
    // docs/decisions.md §1: same inputs, same outputs, byte for byte (tokens included)
    let s = with_requests(
        base(),
        vec![
            json!({"method": "POST", "path": "/auth/token", "body": {"client_id": "app", "client_secret": "s3cret"}}),
            crate::support::create_request("app", "", &invoice()),
            json!({"method": "TICK"}),
        ],
    );
    let bytes = s.to_string();
    assert_eq!(
        run(bytes.as_bytes()).to_string(),
        run(bytes.as_bytes()).to_string()
    );
}

/// Every key of the base scenario (and of its first record of each list, and of a
/// request) replaced by values of every JSON type: the scenario loads or is
/// malformed, never a panic.
#[test]
fn no_scenario_value_of_any_type_panics() {
    let junk = [
        json!(null),
        json!(true),
        json!(0),
        json!(-1),
        json!(1.5),
        json!(""),
        json!("x"),
        json!([]),
        json!([null]),
        json!({}),
        j("1e400"),
    ];
    let mut s = base();
    s["documents"] =
        json!([{"id": "doc-old", "create": invoice(), "state": {"peppol_status": "sent"}}]);
    s["requests"] = json!([
        {"client": "app", "method": "POST", "path": "/documents", "body": invoice()},
        {"headers": {"authorization": "Bearer x"}, "method": "PATCH", "path": "/brandings/brd-2", "body": {"is_default": true}}
    ]);
    let mut paths: Vec<Vec<Value>> = Vec::new();
    if let Some(top) = s.as_object() {
        for (key, value) in top {
            paths.push(vec![json!(key)]);
            let first = match value {
                Value::Array(items) => items.first().map(|v| (Some(0), v)),
                Value::Object(_) => Some((None, value)),
                _ => None,
            };
            if let Some((index, Value::Object(record))) = first {
                for field in record.keys() {
                    let mut p = vec![json!(key)];
                    if let Some(i) = index {
                        p.push(json!(i));
                    }
                    p.push(json!(field));
                    paths.push(p);
                }
            }
        }
    }
    for path in &paths {
        for value in &junk {
            let mut mutated = s.clone();
            let mut target = &mut mutated;
            for step in path {
                target = match step {
                    Value::String(k) => &mut target[k.as_str()],
                    _ => &mut target[usize::try_from(step.as_u64().unwrap_or(0)).unwrap_or(0)],
                };
            }
            *target = value.clone();
            let out = run(mutated.to_string().as_bytes());
            assert!(
                out.get("responses").is_some() || out.get("error").is_some(),
                "{path:?} = {value}: {out}"
            );
        }
    }
}

proptest! {
    /// Invariant: whatever the bytes, `run` answers responses or an error, never a panic.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let out = run(&bytes);
        prop_assert!(out.get("responses").is_some() || out.get("error").is_some());
    }

    /// Invariant: arbitrary requests against the base world answer a status and a
    /// body, never a panic.
    #[test]
    fn arbitrary_requests_never_panic(
        method in "(GET|POST|PATCH|SET|TICK|DELETE|get)",
        path in "(/[a-z0-9%?=&.+-]{0,12}){0,4}",
        client in proptest::option::of("(app|sbx|reader|nobody)"),
        raw_body in proptest::option::of(".{0,40}"),
    ) {
        let mut sim: Simulator = simulator(&base());
        let mut request = json!({"method": method, "path": path});
        if let Some(c) = client {
            request["client"] = json!(c);
        }
        if let Some(raw) = raw_body {
            request["raw_body"] = json!(raw);
        }
        let (status, body) = sim.handle(&request);
        prop_assert!((200..600).contains(&status));
        prop_assert!(body.is_object() || body.is_array());
    }
}

#[test]
fn fuzz_regression_a_journal_next_that_cannot_advance_is_malformed() {
    // fuzz finding: next = u64::MAX drew the same number twice; a counter must move past
    // every number it hands out
    let out = invoicing_core::simulator::run(include_bytes!(
        "../../fuzz/regressions/simulator/journal-next-u64-max-number-drawn-twice.json"
    ));
    assert!(out.get("error").is_some(), "{out}");
}

#[test]
fn fuzz_regression_set_paid_amount_keeps_to_the_limits() {
    // fuzz finding: SET paid_amount 1e27 was stored and written without its minor unit;
    // paid_amount keeps to 0..999999999 in SET too (docs/interface.md Limits)
    let out = invoicing_core::simulator::run(include_bytes!(
        "../../fuzz/regressions/simulator/set-paid-amount-1e27-loses-minor-unit.json"
    ));
    let text = out.to_string();
    assert!(!text.contains("1000000000000000000000000000"), "{text}");
    assert!(
        text.contains("less_than_equal") || out.get("error").is_some(),
        "{text}"
    );
}
