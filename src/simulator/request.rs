//! A scenario request (`method`, `path`, `client`, `headers`, `body` or `raw_body`),
//! read once into a typed value, and the route its path names.

use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Value;
use std::borrow::Cow;
use std::fmt;

pub(crate) use crate::http::Body;

/// A request's body: read, or the JSON text of a scenario's `body`, read by the
/// endpoint that takes it (the create and PATCH endpoints read it in one typed pass,
/// [`crate::lifecycle::create_bytes`]).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ReqBody<'a> {
    /// A body already read.
    Read(Body),
    /// Valid JSON text (a scenario's `body`, as written there).
    Json(&'a str),
}

impl ReqBody<'_> {
    /// The body as read: [`Body::Json`] of the text, for a JSON text.
    pub(crate) fn read(&self) -> Cow<'_, Body> {
        match self {
            ReqBody::Read(body) => Cow::Borrowed(body),
            // Valid JSON by construction (a raw value of a parsed scenario).
            ReqBody::Json(text) => {
                Cow::Owned(Body::Json(crate::json::from_str(text).unwrap_or_default()))
            }
        }
    }
}

/// One request of a scenario, checked for its shape.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Request<'a> {
    /// The method, read in any case.
    pub(crate) method: Method,
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
    pub(crate) body: ReqBody<'a>,
    /// An upload (docs/files.md §1): a scenario's `multipart` parts, or an HTTP body with
    /// its `Content-Type`; `None` for a scenario request without `multipart`.
    pub(crate) multipart: Option<Upload>,
}

/// A request's method, read in any case (`get` is `GET`): the HTTP methods the
/// routes take, the back office's `TICK` and `SET`, or another (answered 405, or 404
/// for an unknown path), kept in upper case for its error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Method {
    Get,
    Post,
    Patch,
    Tick,
    Set,
    Other(String),
}

impl Method {
    /// The method written `text`, in any case.
    pub(crate) fn parse(text: &str) -> Method {
        let upper = text.to_ascii_uppercase();
        match upper.as_str() {
            "GET" => Method::Get,
            "POST" => Method::Post,
            "PATCH" => Method::Patch,
            "TICK" => Method::Tick,
            "SET" => Method::Set,
            _ => Method::Other(upper),
        }
    }

    /// The method in upper case, as an error writes it.
    pub(crate) fn as_str(&self) -> &str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Patch => "PATCH",
            Method::Tick => "TICK",
            Method::Set => "SET",
            Method::Other(m) => m,
        }
    }
}

/// The body of an upload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Upload {
    /// A scenario's `multipart` list, already split into parts.
    Parts(Vec<FormPart>),
    /// The bytes of an HTTP request and its `Content-Type` header, parsed by the
    /// crate's one multipart reader ([`crate::files::multipart::parse`]).
    Http {
        content_type: Option<String>,
        body: Vec<u8>,
    },
}

/// One part of a scenario's `multipart` list: `{"name", "filename", "content_type",
/// "base64"}`, each key but `base64` optional.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FormPart {
    pub(crate) name: Option<String>,
    pub(crate) filename: Option<String>,
    pub(crate) content_type: Option<String>,
    pub(crate) bytes: Vec<u8>,
}

/// Reads a scenario's `multipart` list: an array of part objects whose keys are
/// strings and whose `base64` decodes; anything else makes the scenario malformed.
fn read_multipart(value: &Value) -> Result<Vec<FormPart>, String> {
    let Value::Array(items) = value else {
        return Err("multipart must be an array of parts".into());
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let Value::Object(part) = item else {
                return Err(format!("multipart[{i}] must be an object"));
            };
            let text = |key: &str| match part.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err(format!("multipart[{i}].{key} must be a string")),
            };
            let bytes = match part.get("base64") {
                Some(Value::String(b64)) => crate::attachment::decode_base64(b64)
                    .ok_or_else(|| format!("multipart[{i}].base64 is not valid base64"))?,
                None | Some(Value::Null) => Vec::new(),
                Some(_) => return Err(format!("multipart[{i}].base64 must be a string")),
            };
            Ok(FormPart {
                name: text("name")?,
                filename: text("filename")?,
                content_type: text("content_type")?,
                bytes,
            })
        })
        .collect()
}

/// The keys of a request object that the simulator reads; a key given twice keeps
/// its last value, as in a `Value`. `body` stays text.
#[derive(Default)]
struct Fields<'a> {
    method: Option<Value>,
    path: Option<Value>,
    client: Option<Value>,
    headers: Option<Value>,
    body: Option<&'a RawValue>,
    raw_body: Option<Value>,
    multipart: Option<Value>,
}

impl<'de> Deserialize<'de> for Fields<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(FieldsVisitor)
    }
}

struct FieldsVisitor;

impl<'de> Visitor<'de> for FieldsVisitor {
    type Value = Fields<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a request object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut fields = Fields::default();
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            match &*key {
                "method" => fields.method = Some(map.next_value()?),
                "path" => fields.path = Some(map.next_value()?),
                "client" => fields.client = Some(map.next_value()?),
                "headers" => fields.headers = Some(map.next_value()?),
                "body" => fields.body = Some(map.next_value()?),
                "raw_body" => fields.raw_body = Some(map.next_value()?),
                "multipart" => fields.multipart = Some(map.next_value()?),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(fields)
    }
}

impl<'a> Request<'a> {
    /// Reads a request object. The error says what is wrong, without saying which
    /// request it is (the caller prefixes `requests[i]: `).
    pub(crate) fn from_json(value: &Value) -> Result<Request<'a>, String> {
        let Value::Object(obj) = value else {
            return Err("a request must be an object".into());
        };
        let body = obj
            .get("body")
            .map(|v| ReqBody::Read(Body::Json(v.clone())));
        Request::from_fields(
            obj.get("method"),
            obj.get("path"),
            obj.get("client"),
            obj.get("headers"),
            body,
            obj.get("raw_body"),
            obj.get("multipart"),
        )
    }

    /// Reads a request from its JSON text (valid JSON: a raw value of a parsed
    /// scenario) as [`Request::from_json`] reads its value, its `body` left as text.
    pub(crate) fn from_text(text: &'a str) -> Result<Request<'a>, String> {
        let fields = match text.trim_start().as_bytes().first() {
            Some(b'{') => serde_json::from_str::<Fields<'a>>(text).map_err(|e| e.to_string())?,
            _ => return Err("a request must be an object".into()),
        };
        Request::from_fields(
            fields.method.as_ref(),
            fields.path.as_ref(),
            fields.client.as_ref(),
            fields.headers.as_ref(),
            fields.body.map(|raw| ReqBody::Json(raw.get())),
            fields.raw_body.as_ref(),
            fields.multipart.as_ref(),
        )
    }

    /// Checks the keys of a request, in the order of its errors.
    fn from_fields(
        method: Option<&Value>,
        path: Option<&Value>,
        client: Option<&Value>,
        headers: Option<&Value>,
        body: Option<ReqBody<'a>>,
        raw_body: Option<&Value>,
        multipart: Option<&Value>,
    ) -> Result<Request<'a>, String> {
        let method = match method {
            None | Some(Value::Null) => return Err("missing method".into()),
            Some(Value::String(m)) if !m.is_empty() => Method::parse(m),
            Some(_) => return Err("method must be a non-empty string".into()),
        };
        let path = match path {
            None | Some(Value::Null) => None,
            Some(Value::String(p)) => Some(p.as_str()),
            Some(_) => return Err("path must be a string".into()),
        };
        if path.is_none() && method != Method::Tick {
            return Err("missing path (only TICK has none)".into());
        }
        let client = match client {
            None | Some(Value::Null) => None,
            Some(Value::String(c)) => Some(c.clone()),
            Some(_) => return Err("client must be a string".into()),
        };
        let authorization = match headers {
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
        let multipart = match multipart {
            None => None,
            Some(_) if body.is_some() || raw_body.is_some() => {
                return Err("multipart excludes body and raw_body".into())
            }
            Some(parts) => Some(Upload::Parts(read_multipart(parts)?)),
        };
        let body = match (body, raw_body) {
            (Some(_), Some(_)) => return Err("body and raw_body exclude each other".into()),
            (Some(body), None) => body,
            // what a server would read: no text is no body, JSON is that JSON, else not JSON
            (None, Some(Value::String(text))) => ReqBody::Read(Body::from_bytes(text.as_bytes())),
            (None, Some(_)) => return Err("raw_body must be a string".into()),
            (None, None) => ReqBody::Read(Body::Absent),
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
            multipart,
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
pub fn parse_query(query: &str) -> Vec<(String, String)> {
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

/// The endpoints of docs/scenario.md's table, by path.
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
    /// `/documents/{id}/pdf`.
    DocumentPdf(String),
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
            ["documents", d, "pdf"] => Route::DocumentPdf(id(d)),
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
    pub(crate) fn allows(&self, method: &Method) -> bool {
        match self {
            Route::Token
            | Route::Documents
            | Route::DocumentSend(_)
            | Route::DocumentAttachments(_) => *method == Method::Post,
            Route::Document(_) => matches!(method, Method::Get | Method::Patch | Method::Set),
            Route::DeliveryLocations
            | Route::DocumentUbl(_)
            | Route::DocumentPdf(_)
            | Route::DeliveryLocation(_)
            | Route::Relation(_)
            | Route::Journal(_) => *method == Method::Get,
            Route::Branding(_) => *method == Method::Patch,
        }
    }
}

#[cfg(test)]
mod tests;
