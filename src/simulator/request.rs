//! A scenario request (`method`, `path`, `client`, `headers`, `body` or `raw_body`),
//! read once into a typed value, and the route its path names.

use serde_json::Value;

pub(crate) use crate::http::Body;

/// One request of a scenario, checked for its shape.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Request {
    /// The method, in upper case (`GET`, `POST`, `TICK`, `SET`, …).
    pub(crate) method: String,
    /// The path without its query string, split into percent-decoded segments;
    /// `None` when the request has no path or the path does not start with `/`.
    pub(crate) segments: Option<Vec<String>>,
    /// The query parameters, percent-decoded, in order.
    pub(crate) query: Vec<(String, String)>,
    /// The client named by the request, if any.
    pub(crate) client: Option<String>,
    /// The `authorization` header (name in any case), if any.
    pub(crate) authorization: Option<String>,
    /// The body.
    pub(crate) body: Body,
}

impl Request {
    /// Reads a request object. The error says what is wrong, without saying which
    /// request it is (the caller prefixes `requests[i]: `).
    pub(crate) fn from_json(value: &Value) -> Result<Request, String> {
        let Value::Object(obj) = value else {
            return Err("a request must be an object".into());
        };
        let method = match obj.get("method") {
            None | Some(Value::Null) => return Err("missing method".into()),
            Some(Value::String(m)) if !m.is_empty() => m.to_ascii_uppercase(),
            Some(_) => return Err("method must be a non-empty string".into()),
        };
        let path = match obj.get("path") {
            None | Some(Value::Null) => None,
            Some(Value::String(p)) => Some(p.as_str()),
            Some(_) => return Err("path must be a string".into()),
        };
        if path.is_none() && method != "TICK" {
            return Err("missing path (only TICK has none)".into());
        }
        let client = match obj.get("client") {
            None | Some(Value::Null) => None,
            Some(Value::String(c)) => Some(c.clone()),
            Some(_) => return Err("client must be a string".into()),
        };
        let authorization = match obj.get("headers") {
            None | Some(Value::Null) => None,
            Some(Value::Object(headers)) => {
                match headers
                    .iter()
                    .find(|(name, _)| name.eq_ignore_ascii_case("authorization"))
                {
                    None => None,
                    Some((_, Value::String(v))) => Some(v.clone()),
                    Some((name, _)) => return Err(format!("header {name} must be a string")),
                }
            }
            Some(_) => return Err("headers must be an object".into()),
        };
        let body = match (obj.get("body"), obj.get("raw_body")) {
            (Some(_), Some(_)) => return Err("body and raw_body exclude each other".into()),
            (Some(v), None) => Body::Json(v.clone()),
            (None, Some(Value::String(text))) => read_raw_body(text),
            (None, Some(_)) => return Err("raw_body must be a string".into()),
            (None, None) => Body::Absent,
        };
        let (segments, query) = match path {
            Some(p) => split_path(p),
            None => (None, Vec::new()),
        };
        Ok(Request {
            method,
            segments,
            query,
            client,
            authorization,
            body,
        })
    }

    /// The last value of a query parameter, if given (a later value wins, as a
    /// scalar query parameter does in common web frameworks).
    pub(crate) fn query_param(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A `raw_body` is what a server would read: empty text is no body, valid JSON is
/// that JSON, anything else is a body that is not JSON.
fn read_raw_body(text: &str) -> Body {
    Body::from_bytes(text.as_bytes())
}

/// Splits `/a/b?x=1#frag` into percent-decoded segments and query pairs. A path
/// that does not start with `/` or has an empty segment (`/documents/`) names no
/// route: its segments are `None`.
pub(crate) fn split_path(path: &str) -> (Option<Vec<String>>, Vec<(String, String)>) {
    let path = path.split_once('#').map_or(path, |(p, _)| p);
    let (path, query) = path.split_once('?').unwrap_or((path, ""));
    let query = parse_query(query);
    let segments = path.strip_prefix('/').and_then(|rest| {
        let segments: Vec<String> = rest.split('/').map(|s| percent_decode(s, false)).collect();
        (!segments.iter().any(String::is_empty)).then_some(segments)
    });
    (segments, query)
}

/// Reads `a=1&b=2` (form encoding: `+` is a space, `%XX` a byte). A key without `=`
/// has the empty value; empty pairs are skipped.
pub(crate) fn parse_query(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (percent_decode(k, true), percent_decode(v, true))
        })
        .collect()
}

/// Decodes `%XX` escapes (and `+` as a space when `plus_is_space`); a `%` not
/// followed by two hex digits stays as written; invalid UTF-8 is replaced.
fn percent_decode(text: &str, plus_is_space: bool) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'%' => {
                let hi = bytes.get(i + 1).and_then(|h| hex_value(*h));
                let lo = bytes.get(i + 2).and_then(|l| hex_value(*l));
                if let (Some(hi), Some(lo)) = (hi, lo) {
                    out.push(hi * 16 + lo);
                    i += 3;
                    continue;
                }
                out.push(b);
            }
            b'+' if plus_is_space => out.push(b' '),
            _ => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// The endpoints of simulator.md's table, by path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Route {
    /// `/auth/token`.
    Token,
    /// `/documents`.
    Documents,
    /// `/documents/{id}`.
    Document(String),
    /// `/documents/{id}/send`.
    DocumentSend(String),
    /// `/documents/{id}/attachments`.
    DocumentAttachments(String),
    /// `/documents/{id}/ubl`.
    DocumentUbl(String),
    /// `/delivery-locations`.
    DeliveryLocations,
    /// `/delivery-locations/{id}`.
    DeliveryLocation(String),
    /// `/relations/{id}`.
    Relation(String),
    /// `/journals/{id}`.
    Journal(String),
    /// `/brandings/{id}`.
    Branding(String),
}

impl Route {
    /// The route of a path's segments, if the path is known.
    pub(crate) fn parse(segments: &[String]) -> Option<Route> {
        let s: Vec<&str> = segments.iter().map(String::as_str).collect();
        let id = |i: &str| i.to_owned();
        Some(match s.as_slice() {
            ["auth", "token"] => Route::Token,
            ["documents"] => Route::Documents,
            ["documents", d] => Route::Document(id(d)),
            ["documents", d, "send"] => Route::DocumentSend(id(d)),
            ["documents", d, "attachments"] => Route::DocumentAttachments(id(d)),
            ["documents", d, "ubl"] => Route::DocumentUbl(id(d)),
            ["delivery-locations"] => Route::DeliveryLocations,
            ["delivery-locations", d] => Route::DeliveryLocation(id(d)),
            ["relations", d] => Route::Relation(id(d)),
            ["journals", d] => Route::Journal(id(d)),
            ["brandings", d] => Route::Branding(id(d)),
            _ => return None,
        })
    }

    /// Whether the path takes this method (`SET` is the back-office override of a
    /// document).
    pub(crate) fn allows(&self, method: &str) -> bool {
        match self {
            Route::Token
            | Route::Documents
            | Route::DocumentSend(_)
            | Route::DocumentAttachments(_) => method == "POST",
            Route::Document(_) => matches!(method, "GET" | "PATCH" | "SET"),
            Route::DeliveryLocations
            | Route::DocumentUbl(_)
            | Route::DeliveryLocation(_)
            | Route::Relation(_)
            | Route::Journal(_) => method == "GET",
            Route::Branding(_) => method == "PATCH",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
        assert_eq!(r.method, "GET");
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
        };
        assert_eq!(r(""), Body::Absent);
        assert_eq!(r("{\"a\": 1}"), Body::Json(json!({"a": 1})));
        assert!(matches!(r("{"), Body::Invalid { .. }));
    }
}
