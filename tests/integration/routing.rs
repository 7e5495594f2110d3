//! Routing (docs/scenario.md "Methods and paths"; docs/decisions.md §8, §9): the records
//! answered as given, 404 for an unknown id or path, 405 for a method a path does not
//! take, query parameters, and bodies that are not JSON.

use crate::support::{
    answers, assert_error, base, create_request, error_types, invoice, request, request_with,
    simulator,
};
use serde_json::json;

#[test]
fn relations_and_journals_answer_their_records_as_given() {
    // docs/scenario.md: GET /relations/{id}, GET /journals/{id}: the records as given
    let out = answers(vec![
        request("app", "GET", "/relations/rel-acme"),
        request("app", "GET", "/journals/jrn-sales-b"),
    ]);
    assert_eq!(out[0], (200, base()["relations"][0].clone()));
    assert_eq!(out[1], (200, base()["journals"][1].clone()));
}

#[test]
fn a_delivery_location_answers_its_record_as_given() {
    // docs/interface.md: GET /delivery-locations/{id} → DeliveryLocation
    let out = answers(vec![request("app", "GET", "/delivery-locations/loc-3")]);
    assert_eq!(out[0], (200, base()["delivery_locations"][2].clone()));
}

#[test]
fn the_delivery_locations_of_a_relation_are_listed() {
    // docs/scenario.md: GET /delivery-locations?relation_id= answers a JSON array of
    // locations ([] for a relation without any, or an unknown one)
    let locations = base()["delivery_locations"].clone();
    let out = answers(vec![
        request("app", "GET", "/delivery-locations?relation_id=rel-acme"),
        request("app", "GET", "/delivery-locations?relation_id=rel-beta"),
        request("app", "GET", "/delivery-locations?relation_id=rel-jan"),
        request("app", "GET", "/delivery-locations?relation_id=rel-nobody"),
        request("app", "GET", "/delivery-locations?relation_id="),
    ]);
    assert_eq!(out[0], (200, json!([locations[0], locations[1]])));
    assert_eq!(out[1], (200, json!([locations[2]])));
    assert_eq!(out[2], (200, json!([])));
    assert_eq!(out[3], (200, json!([])));
    assert_eq!(out[4], (200, json!([])));
}

#[test]
fn the_delivery_location_list_needs_its_relation_id() {
    // brief: a missing query parameter is 422 missing at ["query", "relation_id"]
    let out = answers(vec![
        request("app", "GET", "/delivery-locations"),
        request("app", "GET", "/delivery-locations?relation=rel-acme"),
    ]);
    assert_error(&out[0], 422, "missing", &json!(["query", "relation_id"]));
    assert_error(&out[1], 422, "missing", &json!(["query", "relation_id"]));
}

#[test]
fn unknown_query_parameters_are_ignored() {
    // docs/decisions.md §9: unknown query parameters are ignored (send_mail included)
    let out = answers(vec![
        request(
            "app",
            "GET",
            "/delivery-locations?page=2&relation_id=rel-beta&sort=name",
        ),
        request("app", "GET", "/relations/rel-acme?expand=all"),
        create_request("app", "?send_mail=true&utm_source=x", &invoice()),
    ]);
    assert_eq!(out[0].1.as_array().map(Vec::len), Some(1));
    assert_eq!(out[1].0, 200);
    assert_eq!(out[2].0, 201, "{}", out[2].1);
    assert_eq!(out[2].1["mail_status"], json!("not_sent"));
}

#[test]
fn paths_and_queries_are_percent_decoded() {
    let out = answers(vec![
        request("app", "GET", "/relations/rel%2Dacme"),
        request("app", "GET", "/delivery-locations?relation_id=rel%2Dbeta"),
        create_request("app", "?send_peppol=f%61lse", &invoice()),
    ]);
    assert_eq!(out[0].1["id"], json!("rel-acme"));
    assert_eq!(out[1].1.as_array().map(Vec::len), Some(1));
    assert_eq!(out[2].0, 201, "{}", out[2].1);
}

#[test]
fn methods_are_read_in_any_case() {
    let out = answers(vec![request("app", "get", "/relations/rel-acme")]);
    assert_eq!(out[0].0, 200);
}

#[test]
fn an_unknown_id_in_the_path_is_not_found_at_path_id() {
    // docs/decisions.md §9: 404 at ["path", "id"] for an unknown id
    let loc = json!(["path", "id"]);
    let out = answers(vec![
        request("app", "GET", "/documents/doc-1"),
        request_with(
            "app",
            "PATCH",
            "/documents/doc-1",
            &json!({"order_number": "x"}),
        ),
        request_with(
            "app",
            "POST",
            "/documents/doc-1/send",
            &json!({"peppol": true}),
        ),
        request("app", "GET", "/relations/rel-nobody"),
        request("app", "GET", "/journals/jrn-nobody"),
        request("app", "GET", "/delivery-locations/loc-nobody"),
        request_with(
            "app",
            "PATCH",
            "/brandings/brd-nobody",
            &json!({"is_default": true}),
        ),
        json!({"method": "SET", "path": "/documents/doc-1", "body": {"peppol_status": "sent"}}),
    ]);
    for answer in &out {
        assert_error(answer, 404, "not_found", &loc);
    }
}

#[test]
fn an_unknown_path_is_not_found_at_path() {
    // docs/decisions.md §9: 404 at ["path"] for an unknown path
    for path in [
        "/invoices",
        "/documents/doc-1/pdfs",
        "/documents/",
        "documents",
        "/",
        "",
        "/relations",
        "/auth",
    ] {
        let out = answers(vec![request("app", "GET", path)]);
        assert_error(&out[0], 404, "not_found", &json!(["path"]));
    }
    let out = answers(vec![
        json!({"method": "SET", "path": "/nowhere", "body": {}}),
    ]);
    assert_error(&out[0], 404, "not_found", &json!(["path"]));
}

#[test]
fn a_known_path_with_a_method_it_does_not_take_is_method_not_allowed() {
    // docs/decisions.md §9: 405 method_not_allowed at ["method"] for a known path
    let cases = [
        ("DELETE", "/documents/doc-1"),
        ("PUT", "/documents/doc-1"),
        ("GET", "/documents"),
        ("GET", "/documents/doc-1/send"),
        ("GET", "/documents/doc-1/attachments"),
        ("POST", "/relations/rel-acme"),
        ("PATCH", "/journals/jrn-sales"),
        ("POST", "/delivery-locations"),
        ("GET", "/brandings/brd-1"),
        ("FETCH", "/documents/doc-1"),
    ];
    for (method, path) in cases {
        let out = answers(vec![request("app", method, path)]);
        assert_error(&out[0], 405, "method_not_allowed", &json!(["method"]));
    }
    let out = answers(vec![
        json!({"method": "SET", "path": "/documents", "body": {}}),
    ]);
    assert_error(&out[0], 405, "method_not_allowed", &json!(["method"]));
}

#[test]
fn a_raw_body_that_is_not_json_is_json_invalid_at_body() {
    // docs/decisions.md §8: json_invalid at ["body"] when the body is not JSON
    let raw = |method: &str, path: &str| json!({"client": "app", "method": method, "path": path, "raw_body": "{\"type\": "});
    let mut s = base();
    s["documents"] = json!([{"id": "doc-old", "create": invoice()}]);
    s["requests"] = json!([
        raw("POST", "/documents"),
        raw("PATCH", "/documents/doc-old"),
        raw("POST", "/documents/doc-old/send"),
        raw("PATCH", "/brandings/brd-2"),
        {"method": "SET", "path": "/documents/doc-old", "raw_body": "peppol_status=sent"},
    ]);
    let out = crate::support::responses(&s);
    for answer in &out {
        assert_error(answer, 422, "json_invalid", &json!(["body"]));
        assert!(
            answer.1["detail"][0]["input"].is_string(),
            "the text sent is the input: {}",
            answer.1
        );
    }
    assert_eq!(out[0].1["detail"][0]["input"], json!("{\"type\": "));
}

#[test]
fn a_body_that_is_not_json_still_answers_permissions_first() {
    // docs/decisions.md §9: permissions come first: a 403 carries no 422s
    let mut s = base();
    s["documents"] = json!([{"id": "doc-old", "create": invoice()}]);
    s["requests"] = json!([
        {"client": "reader", "method": "POST", "path": "/documents", "raw_body": "{"},
        {"client": "creator", "method": "PATCH", "path": "/documents/doc-old", "raw_body": "{"},
        {"client": "creator", "method": "POST", "path": "/documents/doc-old/send", "raw_body": "{"},
        {"client": "creator", "method": "PATCH", "path": "/brandings/brd-2", "raw_body": "{"},
    ]);
    for answer in crate::support::responses(&s) {
        assert_error(
            &answer,
            403,
            "permission_denied",
            &json!(["header", "authorization"]),
        );
    }
}

#[test]
fn a_body_that_is_not_json_keeps_the_query_errors_of_a_create() {
    // docs/decisions.md §8: every error in one answer
    let out = answers(vec![
        json!({"client": "app", "method": "POST", "path": "/documents?send_peppol=maybe", "raw_body": "{"}),
    ]);
    assert_eq!(out[0].0, 422);
    let errors = error_types(&out[0].1);
    assert!(
        errors.contains(&("json_invalid".to_owned(), json!(["body"]))),
        "{errors:?}"
    );
    assert!(
        errors.contains(&("bool_parsing".to_owned(), json!(["query", "send_peppol"]))),
        "{errors:?}"
    );
}

#[test]
fn a_raw_body_holding_json_is_read_as_that_json() {
    let out = answers(vec![
        json!({"client": "app", "method": "POST", "path": "/documents", "raw_body": invoice().to_string()}),
        json!({"client": "app", "method": "POST", "path": "/documents", "raw_body": "  "}),
    ]);
    assert_eq!(out[0].0, 201, "{}", out[0].1);
    assert_error(&out[1], 422, "missing", &json!(["body"]));
}

#[test]
fn a_malformed_request_handed_to_the_simulator_answers_400() {
    let mut sim = simulator(&base());
    let (status, body) = sim.handle(&json!({"path": "/documents"}));
    assert_eq!(status, 400);
    assert_eq!(body, json!({"error": "request: missing method"}));
}
