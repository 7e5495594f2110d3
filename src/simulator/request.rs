//! A scenario request (`method`, `path`, `client`, `headers`, `body` or `raw_body`,
//! `multipart`), read once into the core's [`Request`].

use crate::app::request::{split_path, Body, FormPart, Method, ReqBody, Request, Upload};
use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Value;
use std::borrow::Cow;
use std::fmt;

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
}

#[cfg(test)]
mod tests;
