//! Reading JSON text from outside: the one way the crate turns bytes into a `Value`
//! (docs/decisions.md §10).
//!
//! The crate builds serde_json with `arbitrary_precision` (a number keeps its text, so
//! `0.1` stays `0.1`) and `raw_value` (the simulator keeps records and requests as
//! their text). Both features carry a private key: serde_json reads an object whose
//! first key is `$serde_json::private::Number` as a number, and one whose first key
//! is `$serde_json::private::RawValue` as the JSON its string holds. A client cannot
//! know those keys and a proxy reads such a body as an object; so does the crate:
//! `{"$serde_json::private::Number": "1e3"}` is an object wherever it is sent, refused
//! where a number is asked for as `{}` is.
//!
//! How no reader is handed the private key: every JSON text the crate reads from
//! outside (a create or PATCH body, a scenario, a record or request kept as text) is
//! read by [`from_slice`] or [`from_str`], or by one of the faster readings (the typed
//! body pass, the scenario's tree, the raw scenario), and each of those first asks
//! [`names_private_key`] and leaves a text that names one to [`from_slice`]. A text
//! that names no private key reads through serde_json as it is: the only private key
//! such a reading can meet is the one serde_json makes itself for a real number. A
//! text that names one is checked by serde_json (syntax, depth, UTF-8 and escapes,
//! so its error is worded as any other), then read by `Literal`, this module's own
//! reader, which keeps every object an object. It is a second JSON reader with a
//! reason: serde_json hands a visitor a real number and the object
//! `{"$serde_json::private::Number": …}` in the same way, so no visitor can tell them
//! apart; only the text can.

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::fmt;

/// serde_json's private keys: an object whose first key is one of them is not read as
/// an object by serde_json's own `Value`.
pub const PRIVATE_KEYS: [&str; 2] = [crate::money::NUMBER_TOKEN, "$serde_json::private::RawValue"];

/// Reads JSON bytes as a `Value`, every object an object (see the module's doc).
///
/// ```
/// use serde_json::json;
/// let v = invoicing_core::json::from_slice(br#"{"n": 0.1, "o": {"$serde_json::private::Number": "1e3"}}"#).unwrap();
/// assert_eq!(v["n"].to_string(), "0.1");
/// assert_eq!(v["o"], json!({"$serde_json::private::Number": "1e3"}));
/// ```
///
/// # Errors
/// serde_json's error for bytes that are not one JSON value.
pub fn from_slice(bytes: &[u8]) -> Result<Value, serde_json::Error> {
    if !names_private_key(bytes) {
        return serde_json::from_slice(bytes);
    }
    serde_json::from_slice::<Shape>(bytes)?;
    Literal { bytes, pos: 0 }
        .value()
        .ok_or_else(|| serde::de::Error::custom("json text not read"))
}

/// [`from_slice`] of a text.
///
/// # Errors
/// serde_json's error for a text that is not one JSON value.
pub fn from_str(text: &str) -> Result<Value, serde_json::Error> {
    from_slice(text.as_bytes())
}

/// Whether a JSON text holds a string equal, after its escapes, to one of
/// [`PRIVATE_KEYS`]. It looks at every string, key or not; a text with neither a
/// backslash nor a `$` holds none, and is told so by one byte search.
#[must_use]
pub fn names_private_key(bytes: &[u8]) -> bool {
    if memchr::memchr2(b'$', b'\\', bytes).is_none() {
        return false;
    }
    let mut pos = 0;
    while let Some(start) = next_quote(bytes, pos) {
        let Some(end) = string_end(bytes, start) else {
            return false;
        };
        let inner = &bytes[start + 1..end];
        let private = if inner.contains(&b'\\') {
            serde_json::from_slice::<String>(&bytes[start..=end])
                .is_ok_and(|s| PRIVATE_KEYS.contains(&s.as_str()))
        } else {
            PRIVATE_KEYS.iter().any(|k| k.as_bytes() == inner)
        };
        if private {
            return true;
        }
        pos = end + 1;
    }
    false
}

/// The place of the next `"` at or after `from`.
fn next_quote(bytes: &[u8], from: usize) -> Option<usize> {
    bytes
        .get(from..)?
        .iter()
        .position(|b| *b == b'"')
        .map(|i| from + i)
}

/// The place of the `"` that closes the string opened at `start`.
fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    while let Some(b) = bytes.get(i) {
        match b {
            b'"' => return Some(i),
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    None
}

/// A JSON value checked and dropped: serde_json's reading of a text (its syntax, its
/// depth limit, its escapes and UTF-8) without its private keys' meanings.
struct Shape;

impl<'de> Deserialize<'de> for Shape {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Shape, D::Error> {
        d.deserialize_any(ShapeVisitor)
    }
}

struct ShapeVisitor;

impl<'de> Visitor<'de> for ShapeVisitor {
    type Value = Shape;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Shape, E> {
        Ok(Shape)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Shape, E> {
        Ok(Shape)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Shape, E> {
        Ok(Shape)
    }
    fn visit_str<E>(self, _: &str) -> Result<Shape, E> {
        Ok(Shape)
    }
    fn visit_unit<E>(self) -> Result<Shape, E> {
        Ok(Shape)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Shape, A::Error> {
        while seq.next_element::<Shape>()?.is_some() {}
        Ok(Shape)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Shape, A::Error> {
        while map.next_key::<Shape>()?.is_some() {
            map.next_value::<Shape>()?;
        }
        Ok(Shape)
    }
}

/// Reads a text serde_json has checked ([`Shape`]) into a `Value` whose objects are
/// all objects: strings and numbers by serde_json, one at a time, so they read as
/// they always do; a repeated key keeps its first place and takes its last value, as
/// in serde_json's own `Value`. Nesting is bounded by the check (serde_json's depth
/// limit), so the recursion is too.
struct Literal<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Literal<'_> {
    fn value(&mut self) -> Option<Value> {
        self.skip_space();
        match *self.bytes.get(self.pos)? {
            b'{' => self.object(),
            b'[' => self.array(),
            b'"' => self.string().map(Value::String),
            b't' => self.word("true", Value::Bool(true)),
            b'f' => self.word("false", Value::Bool(false)),
            b'n' => self.word("null", Value::Null),
            _ => self.number(),
        }
    }

    fn object(&mut self) -> Option<Value> {
        self.pos += 1;
        let mut map = Map::new();
        if self.closes(b'}') {
            return Some(Value::Object(map));
        }
        loop {
            self.skip_space();
            let key = self.string()?;
            self.skip_space();
            self.eat(b':')?;
            let value = self.value()?;
            map.insert(key, value);
            if self.closes(b'}') {
                return Some(Value::Object(map));
            }
            self.eat(b',')?;
        }
    }

    fn array(&mut self) -> Option<Value> {
        self.pos += 1;
        let mut items = Vec::new();
        if self.closes(b']') {
            return Some(Value::Array(items));
        }
        loop {
            items.push(self.value()?);
            if self.closes(b']') {
                return Some(Value::Array(items));
            }
            self.eat(b',')?;
        }
    }

    fn string(&mut self) -> Option<String> {
        let end = string_end(self.bytes, self.pos)?;
        let text = serde_json::from_slice(self.bytes.get(self.pos..=end)?).ok()?;
        self.pos = end + 1;
        Some(text)
    }

    fn number(&mut self) -> Option<Value> {
        let rest = self.bytes.get(self.pos..)?;
        let len = rest
            .iter()
            .position(|b| !matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
            .unwrap_or(rest.len());
        let number: Number = serde_json::from_slice(rest.get(..len)?).ok()?;
        self.pos += len;
        Some(Value::Number(number))
    }

    fn word(&mut self, word: &str, value: Value) -> Option<Value> {
        let end = self.pos + word.len();
        (self.bytes.get(self.pos..end)? == word.as_bytes()).then(|| {
            self.pos = end;
            value
        })
    }

    /// Skips white space and takes `close` if it comes next.
    fn closes(&mut self, close: u8) -> bool {
        self.skip_space();
        let closed = self.bytes.get(self.pos) == Some(&close);
        if closed {
            self.pos += 1;
        }
        closed
    }

    /// Skips white space and takes `byte`, which must come next.
    fn eat(&mut self, byte: u8) -> Option<()> {
        self.skip_space();
        (self.bytes.get(self.pos) == Some(&byte)).then(|| self.pos += 1)
    }

    fn skip_space(&mut self) {
        while matches!(self.bytes.get(self.pos), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }
}

#[cfg(test)]
mod tests;
