//! A request as the core routes it: its method, its path split into segments, its
//! query, the client it names or its `authorization` header, its body, and the route
//! its path names. The simulator reads one from a scenario's request object, a server
//! from an HTTP request ([`Request::http`]).

use std::borrow::Cow;

pub use crate::http::Body;

/// A request's body: read, or valid JSON text read by the endpoint that takes it (the
/// create and PATCH endpoints read it in one typed pass,
/// [`crate::lifecycle::create_bytes`]).
#[derive(Debug, Clone, PartialEq)]
pub enum ReqBody<'a> {
    /// A body already read.
    Read(Body),
    /// Valid JSON text (a scenario's `body`, as written there).
    Json(&'a str),
}

impl ReqBody<'_> {
    /// The body as read: [`Body::Json`] of the text, for a JSON text.
    pub fn read(&self) -> Cow<'_, Body> {
        match self {
            ReqBody::Read(body) => Cow::Borrowed(body),
            // Valid JSON by construction (a raw value of a parsed scenario).
            ReqBody::Json(text) => {
                Cow::Owned(Body::Json(crate::json::from_str(text).unwrap_or_default()))
            }
        }
    }
}

/// One request, checked for its shape.
#[derive(Debug, Clone, PartialEq)]
pub struct Request<'a> {
    /// The method, read in any case.
    pub method: Method,
    /// The path without its query string, split into percent-decoded segments;
    /// `None` when the request has no path or the path does not start with `/`.
    pub segments: Option<Vec<String>>,
    /// The query parameters, percent-decoded, in order.
    pub query: Vec<(String, String)>,
    /// The client named by the request, if any (a scenario's `client`).
    pub client: Option<String>,
    /// The `authorization` header (name in any case), if any.
    pub authorization: Option<String>,
    /// The body.
    pub body: ReqBody<'a>,
    /// An upload (docs/files.md §1): a scenario's `multipart` parts, or an HTTP body with
    /// its `Content-Type`; `None` for a scenario request without `multipart`.
    pub multipart: Option<Upload>,
}

/// A request's method, read in any case (`get` is `GET`): the HTTP methods the
/// routes take, the back office's `TICK` and `SET`, or another (answered 405, or 404
/// for an unknown path), kept in upper case for its error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Method {
    /// `GET`.
    Get,
    /// `POST`.
    Post,
    /// `PATCH`.
    Patch,
    /// The back office's `TICK` (the scenario's; a server's worker).
    Tick,
    /// The back office's `SET` (the scenario's).
    Set,
    /// Another method, in upper case.
    Other(String),
}

impl Method {
    /// The method written `text`, in any case.
    pub fn parse(text: &str) -> Method {
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
    pub fn as_str(&self) -> &str {
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
pub enum Upload {
    /// A scenario's `multipart` list, already split into parts.
    Parts(Vec<FormPart>),
    /// The bytes of an HTTP request and its `Content-Type` header, parsed by the
    /// crate's one multipart reader ([`crate::files::multipart::parse`]).
    Http {
        /// The `Content-Type` header.
        content_type: Option<String>,
        /// The body's bytes.
        body: Vec<u8>,
    },
}

/// One part of a scenario's `multipart` list: `{"name", "filename", "content_type",
/// "base64"}`, each key but `base64` optional.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormPart {
    /// The part's field name.
    pub name: Option<String>,
    /// Its file name.
    pub filename: Option<String>,
    /// Its declared media type.
    pub content_type: Option<String>,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

impl Request<'_> {
    /// An HTTP request: its method, its target (path and query), the client its
    /// caller authenticated (if any), its `authorization` and `content-type` headers
    /// and its body bytes. An upload (`POST /documents/{id}/attachments`) keeps the
    /// body as `multipart/form-data` bytes; any other body is read as JSON.
    pub fn http(
        method: &str,
        target: &str,
        client: Option<&str>,
        authorization: Option<&str>,
        content_type: Option<&str>,
        body: &[u8],
    ) -> Request<'static> {
        let (segments, query) = split_path(target);
        let upload = segments
            .as_deref()
            .and_then(Route::parse)
            .is_some_and(|r| matches!(r, Route::DocumentAttachments(_)));
        let (body, multipart) = if upload {
            let http = Upload::Http {
                content_type: content_type.map(str::to_owned),
                body: body.to_vec(),
            };
            (Body::Absent, Some(http))
        } else {
            (Body::from_bytes(body), None)
        };
        Request {
            method: Method::parse(method),
            segments,
            query,
            client: client.map(str::to_owned),
            authorization: authorization.map(str::to_owned),
            body: ReqBody::Read(body),
            multipart,
        }
    }

    /// The route its path names, if the path is known.
    pub fn route(&self) -> Option<Route> {
        self.segments.as_deref().and_then(Route::parse)
    }

    /// The last value of a query parameter, if given (a later value wins, as a
    /// scalar query parameter does in common web frameworks).
    pub fn query_param(&self, name: &str) -> Option<&str> {
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
pub fn split_path(path: &str) -> (Option<Vec<String>>, Vec<(String, String)>) {
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
pub(crate) fn percent_decode(text: &str, plus_is_space: bool) -> String {
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
pub enum Route {
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
    pub fn parse(segments: &[String]) -> Option<Route> {
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
    pub fn allows(&self, method: &Method) -> bool {
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
