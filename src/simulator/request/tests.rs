use super::*;
use crate::app::request::percent_decode;
use serde_json::json;

#[test]
fn paths_are_split_and_percent_decoded() {
    let (segments, query) = split_path("/documents/doc%2D1?send_peppol=tr%75e&x=a+b#top");
    assert_eq!(
        segments,
        Some(vec!["documents".to_owned(), "doc-1".to_owned()])
    );
    assert_eq!(
        query,
        vec![
            ("send_peppol".to_owned(), "true".to_owned()),
            ("x".to_owned(), "a b".to_owned())
        ]
    );
    assert_eq!(split_path("/documents/").0, None);
    assert_eq!(split_path("documents").0, None);
    assert_eq!(percent_decode("100%", false), "100%");
    assert_eq!(percent_decode("%zz%4", false), "%zz%4");
    assert_eq!(percent_decode("%C3%A9%FF", false), "é\u{fffd}");
}

#[test]
fn a_later_query_value_wins() {
    let r = Request::from_json(&json!({"method": "get", "path": "/x?a=1&a=2&b"})).unwrap();
    assert_eq!(r.method, Method::Get);
    assert_eq!(r.query_param("a"), Some("2"));
    assert_eq!(r.query_param("b"), Some(""));
    assert_eq!(r.query_param("c"), None);
}

#[test]
fn raw_body_is_read_like_a_server_would() {
    let r = |raw: &str| {
        Request::from_json(&json!({"method": "POST", "path": "/", "raw_body": raw}))
            .unwrap()
            .body
            .read()
            .into_owned()
    };
    assert_eq!(r(""), Body::Absent);
    assert_eq!(r("{\"a\": 1}"), Body::Json(json!({"a": 1})));
    assert!(matches!(r("{"), Body::Invalid { .. }));
}

/// What a request holds, its body read.
type View = (
    Method,
    Option<Vec<String>>,
    Vec<(String, String)>,
    Option<String>,
    Option<String>,
    Body,
);

fn view(r: Request<'_>) -> View {
    let body = r.body.read().into_owned();
    (
        r.method,
        r.segments,
        r.query,
        r.client,
        r.authorization,
        body,
    )
}

#[test]
fn a_request_read_from_its_text_is_the_request_read_from_its_value() {
    for text in [
        r#"{"method": "post", "path": "/documents?send_peppol=true", "client": "app", "body": {"a": [1, 2.50]}}"#,
        r#"{"method": "GET", "path": "/x", "headers": {"Authorization": "Bearer t"}, "body": null}"#,
        r#"{"method": "TICK", "body": 1, "body": {"b": 2}, "other": [{}]}"#,
        r#"{"method": "POST", "path": "/", "raw_body": "{"}"#,
        r#"{"m\u0065thod": "GET", "path": "/"}"#,
        r#"{"method": "GET", "path": "/", "body": 1, "raw_body": ""}"#,
        r#"{"method": "", "path": "/"}"#,
        r#"{"method": "GET", "path": 5}"#,
        r#"{"method": "GET"}"#,
        r#"{"method": "GET", "path": "/", "client": 1}"#,
        r#"{"method": "GET", "path": "/", "headers": {"authorization": 1}}"#,
        r#"{"method": "GET", "path": "/", "headers": []}"#,
        r#"{"method": "GET", "path": "/", "raw_body": 1}"#,
        "{}",
        "[1]",
        r#" "x""#,
    ] {
        let value: Value = serde_json::from_str(text).unwrap();
        let from_value = Request::from_json(&value).map(view);
        let from_text = Request::from_text(text).map(view);
        assert_eq!(from_text, from_value, "{text}");
    }
}
