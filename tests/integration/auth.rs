//! Authentication (docs/scenario.md; docs/interface.md "Authentication"; docs/decisions.md §8):
//! clients named by a request, tokens from `POST /auth/token`, the 401 answers, and
//! the client's permissions handed to the rules.

use crate::support::{answers, assert_error, base, create_request, invoice, request, simulator};
use serde_json::{json, Value};

fn header_loc() -> Value {
    json!(["header", "authorization"])
}

fn token_request(client_id: &str, secret: &str) -> Value {
    json!({"method": "POST", "path": "/auth/token", "body": {"client_id": client_id, "client_secret": secret}})
}

fn with_header(name: &str, value: &str, method: &str, path: &str) -> Value {
    json!({"method": method, "path": path, "headers": {name: value}})
}

#[test]
fn a_request_without_credentials_is_not_authenticated() {
    // docs/scenario.md: a request with neither client nor authorization gets 401 not_authenticated
    let out = answers(vec![
        json!({"method": "GET", "path": "/relations/rel-acme"}),
        json!({"method": "GET", "path": "/relations/rel-acme", "headers": {"accept": "application/json"}}),
    ]);
    assert_error(&out[0], 401, "not_authenticated", &header_loc());
    assert_error(&out[1], 401, "not_authenticated", &header_loc());
}

#[test]
fn an_unknown_client_name_is_invalid_client() {
    // docs/scenario.md: an unknown client name gets 401 invalid_client
    let out = answers(vec![request("nobody", "GET", "/relations/rel-acme")]);
    assert_error(&out[0], 401, "invalid_client", &header_loc());
}

#[test]
fn an_authorization_that_is_not_bearer_with_a_known_token_is_invalid_token() {
    // docs/scenario.md: an authorization that is not Bearer <known token> gets 401 invalid_token
    for value in [
        "Bearer nope",
        "Bearer",
        "",
        "Basic YXBwOnMzY3JldA==",
        "s3cret",
        "Bearer  ",
    ] {
        let out = answers(vec![with_header(
            "authorization",
            value,
            "GET",
            "/relations/rel-acme",
        )]);
        assert_error(&out[0], 401, "invalid_token", &header_loc());
    }
}

#[test]
fn the_token_endpoint_answers_a_bearer_pair() {
    // docs/scenario.md: POST /auth/token → 200 {access_token, refresh_token, token_type: "bearer"}
    let out = answers(vec![
        token_request("app", "s3cret"),
        token_request("app", "s3cret"),
    ]);
    assert_eq!(out[0].0, 200);
    let body = &out[0].1;
    assert_eq!(body["token_type"], json!("bearer"));
    let access = body["access_token"].as_str().unwrap_or_default();
    let refresh = body["refresh_token"].as_str().unwrap_or_default();
    assert!(!access.is_empty() && !refresh.is_empty() && access != refresh);
    assert!(
        !access.contains("app") && !access.contains("s3cret"),
        "tokens are opaque: {access}"
    );
    assert_ne!(
        out[1].1["access_token"], body["access_token"],
        "each call issues a new pair"
    );
}

#[test]
fn an_access_token_authenticates_with_the_header_name_and_scheme_in_any_case() {
    // docs/scenario.md: header name and scheme in any case
    let mut sim = simulator(&base());
    let (_, pair) = sim.handle(&token_request("app", "s3cret"));
    let access = pair["access_token"].as_str().unwrap_or_default().to_owned();
    for (name, scheme) in [
        ("authorization", "Bearer"),
        ("Authorization", "bearer"),
        ("AUTHORIZATION", "BEARER"),
    ] {
        let (status, body) = sim.handle(&with_header(
            name,
            &format!("{scheme} {access}"),
            "GET",
            "/relations/rel-acme",
        ));
        assert_eq!(status, 200, "{name}: {scheme}: {body}");
        assert_eq!(body["id"], json!("rel-acme"));
    }
}

#[test]
fn a_refresh_token_is_not_an_access_token() {
    // docs/scenario.md: a refresh token is not an access token (invalid_token)
    let mut sim = simulator(&base());
    let (_, pair) = sim.handle(&token_request("app", "s3cret"));
    let refresh = pair["refresh_token"].as_str().unwrap_or_default();
    let answer = sim.handle(&with_header(
        "authorization",
        &format!("Bearer {refresh}"),
        "GET",
        "/relations/rel-acme",
    ));
    assert_error(&answer, 401, "invalid_token", &header_loc());
}

#[test]
fn a_token_acts_for_its_client_and_environment() {
    // docs/scenario.md: a sandbox client's documents get sbx-N ids
    let mut sim = simulator(&base());
    let (_, pair) = sim.handle(&token_request("sbx", "sandb0x"));
    let bearer = format!(
        "Bearer {}",
        pair["access_token"].as_str().unwrap_or_default()
    );
    let mut create = create_request("ignored", "", &invoice());
    if let Some(m) = create.as_object_mut() {
        m.remove("client");
        m.insert("headers".into(), json!({"Authorization": bearer}));
    }
    let (status, body) = sim.handle(&create);
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["id"], json!("sbx-1"));
}

#[test]
fn a_named_client_ignores_the_headers() {
    // docs/scenario.md: a request names its client (then any header is ignored)
    let mut r = request("app", "GET", "/relations/rel-acme");
    r["headers"] = json!({"authorization": "Bearer garbage"});
    let out = answers(vec![r]);
    assert_eq!(out[0].0, 200, "{}", out[0].1);
}

#[test]
fn the_token_endpoint_refuses_anything_but_a_valid_pair_with_invalid_client_at_body() {
    // docs/scenario.md: POST /auth/token without a valid pair (a key missing included)
    // answers 401 invalid_client at ["body"]
    let bodies = [
        json!({"client_id": "app", "client_secret": "wrong"}),
        json!({"client_id": "app", "client_secret": "sandb0x"}),
        json!({"client_id": "nobody", "client_secret": "s3cret"}),
        json!({"client_id": "app"}),
        json!({"client_secret": "s3cret"}),
        json!({"client_id": "app", "client_secret": null}),
        json!({"client_id": "app", "client_secret": 1}),
        json!({}),
        json!([]),
        json!(null),
    ];
    for body in bodies {
        let out = answers(vec![
            json!({"method": "POST", "path": "/auth/token", "body": body}),
        ]);
        assert_error(&out[0], 401, "invalid_client", &json!(["body"]));
    }
    let out = answers(vec![
        json!({"method": "POST", "path": "/auth/token"}),
        json!({"method": "POST", "path": "/auth/token", "raw_body": "{client_id"}),
    ]);
    assert_error(&out[0], 401, "invalid_client", &json!(["body"]));
    assert_error(&out[1], 401, "invalid_client", &json!(["body"]));
}

#[test]
fn the_token_endpoint_takes_a_form_encoded_body() {
    // decision (simulator docs): OAuth 2.0 clients send the pair form-encoded
    let out = answers(vec![json!({
        "method": "POST", "path": "/auth/token",
        "raw_body": "grant_type=client_credentials&client_id=app&client_secret=s3cret"
    })]);
    assert_eq!(out[0].0, 200, "{}", out[0].1);
    assert_eq!(out[0].1["token_type"], json!("bearer"));
}

#[test]
fn the_token_endpoint_needs_no_credentials_and_takes_only_post() {
    let out = answers(vec![json!({"method": "GET", "path": "/auth/token"})]);
    assert_error(&out[0], 405, "method_not_allowed", &json!(["method"]));
}

#[test]
fn authentication_comes_before_routing() {
    // brief: authentication first, then routing (404/405)
    let out = answers(vec![
        json!({"method": "GET", "path": "/nowhere"}),
        json!({"method": "DELETE", "path": "/documents/doc-1"}),
        json!({"method": "GET", "path": "/documents/doc-404"}),
        request("nobody", "GET", "/nowhere"),
    ]);
    assert_error(&out[0], 401, "not_authenticated", &header_loc());
    assert_error(&out[1], 401, "not_authenticated", &header_loc());
    assert_error(&out[2], 401, "not_authenticated", &header_loc());
    assert_error(&out[3], 401, "invalid_client", &header_loc());
}

#[test]
fn reads_need_no_permission() {
    // simulator brief: for GET endpoints no permission is needed
    let out = answers(vec![
        request("reader", "GET", "/relations/rel-acme"),
        request("reader", "GET", "/journals/jrn-sales"),
        request("reader", "GET", "/delivery-locations/loc-1"),
        request("reader", "GET", "/delivery-locations?relation_id=rel-acme"),
    ]);
    for (status, body) in &out {
        assert_eq!(*status, 200, "{body}");
    }
}

#[test]
fn permissions_come_from_the_client_record() {
    // docs/decisions.md §7: create needs c; send_peppol on create needs u (403 permission_denied)
    let out = answers(vec![
        create_request("reader", "", &invoice()),
        create_request("updater", "", &invoice()),
        create_request("creator", "?send_peppol=true", &invoice()),
        create_request("creator", "", &invoice()),
    ]);
    assert_error(&out[0], 403, "permission_denied", &header_loc());
    assert_error(&out[1], 403, "permission_denied", &header_loc());
    assert_error(&out[2], 403, "permission_denied", &header_loc());
    assert_eq!(out[3].0, 201, "{}", out[3].1);
    assert_eq!(
        out[3].1["id"],
        json!("doc-1"),
        "refused creates use up no id"
    );
}

#[test]
fn an_error_body_has_the_documented_shape() {
    // docs/decisions.md §8: every error is {"detail": [{loc, msg, type, …}]}
    let out = answers(vec![request("nobody", "GET", "/relations/rel-acme")]);
    let text = serde_json::to_string_pretty(&out[0].1).unwrap_or_default();
    insta::assert_snapshot!(text, @r#"
    {
      "detail": [
        {
          "type": "invalid_client",
          "loc": [
            "header",
            "authorization"
          ],
          "msg": "no client named \"nobody\""
        }
      ]
    }
    "#);
}
