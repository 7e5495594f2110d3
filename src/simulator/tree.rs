//! A scenario's record read from its JSON text into a tree that borrows the text
//! (issue 12): an object is a list of its members, a string without escapes is a
//! slice of the text. The world is read from it and its compact text is written
//! from it, with none of the maps and owned strings of a `serde_json::Value`.
//!
//! It reads and writes exactly as [`crate::json::from_str`] does: a repeated key keeps
//! its first place and takes its last value, a number keeps its text
//! (`arbitrary_precision`). A text that names one of serde_json's private keys is
//! refused, and the caller reads it with `crate::json` instead; so the private number
//! key `visit_map` meets is always serde_json's own, for a real number.

use super::record::{malformed, Field, Record};
use super::ScenarioError;
use crate::money::NUMBER_TOKEN;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Number;
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

/// A JSON value whose strings borrow the text they were read from.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node<'a> {
    Null,
    Bool(bool),
    Number(Number),
    String(Cow<'a, str>),
    Array(Vec<Node<'a>>),
    Object(Members<'a>),
}

/// An object's members in the text's order, repeated keys included.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Members<'a>(Vec<(Cow<'a, str>, Node<'a>)>);

impl<'a> Members<'a> {
    /// Reads an object from its JSON text; `None` for any other text, or one to read
    /// as a `Value` instead (see the module's doc).
    pub(crate) fn read(text: &'a str) -> Option<Members<'a>> {
        // A text that names serde_json's private keys is read by `crate::json`: then
        // the number key `visit_map` meets is only ever serde_json's own.
        if crate::json::names_private_key(text.as_bytes()) {
            return None;
        }
        match serde_json::from_str(text) {
            Ok(Node::Object(members)) => Some(members),
            _ => None,
        }
    }

    /// The value of `key`: its last one, as in a `Value`.
    fn get(&self, key: &str) -> Option<&Node<'a>> {
        self.0.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Whether two members share a key.
    fn has_repeated_key(&self) -> bool {
        let keys = &self.0;
        if keys.len() <= 16 {
            return keys
                .iter()
                .enumerate()
                .any(|(i, (k, _))| keys.iter().take(i).any(|(earlier, _)| earlier == k));
        }
        let mut seen = std::collections::HashSet::with_capacity(keys.len());
        !keys.iter().all(|(k, _)| seen.insert(&**k))
    }
}

impl Record for Members<'_> {
    fn field(&self, key: &str) -> Field<'_> {
        match self.get(key) {
            None | Some(Node::Null) => Field::Absent,
            Some(Node::String(s)) => Field::Str(s),
            Some(Node::Bool(b)) => Field::Bool(*b),
            Some(Node::Object(members)) => Field::Object(members),
            Some(Node::Number(_) | Node::Array(_)) => Field::Other,
        }
    }

    fn compact<'s>(&self, scratch: &'s mut Vec<u8>) -> &'s str {
        super::stream::compact(self, scratch)
    }
}

impl Serialize for Node<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Node::Null => serializer.serialize_unit(),
            Node::Bool(b) => serializer.serialize_bool(*b),
            Node::Number(n) => n.serialize(serializer),
            Node::String(s) => serializer.serialize_str(s),
            Node::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Node::Object(members) => members.serialize(serializer),
        }
    }
}

impl Serialize for Members<'_> {
    /// Each key once, at its first place, with its last value: as a `Value` holds it.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if !self.has_repeated_key() {
            let mut map = serializer.serialize_map(Some(self.0.len()))?;
            for (key, value) in &self.0 {
                map.serialize_entry(key, value)?;
            }
            return map.end();
        }
        let mut last: HashMap<&str, &Node> = HashMap::with_capacity(self.0.len());
        for (key, value) in &self.0 {
            last.insert(key, value);
        }
        let mut map = serializer.serialize_map(Some(last.len()))?;
        for (key, _) in &self.0 {
            if let Some(value) = last.remove(&**key) {
                map.serialize_entry(key, value)?;
            }
        }
        map.end()
    }
}

/// A string of the text: borrowed when it has no escape.
struct Text<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(TextVisitor)
    }
}

struct TextVisitor;

impl<'de> Visitor<'de> for TextVisitor {
    type Value = Text<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Self::Value, E> {
        Ok(Text(Cow::Borrowed(s)))
    }

    fn visit_str<E>(self, s: &str) -> Result<Self::Value, E> {
        Ok(Text(Cow::Owned(s.to_owned())))
    }

    fn visit_string<E>(self, s: String) -> Result<Self::Value, E> {
        Ok(Text(Cow::Owned(s)))
    }
}

impl<'de> Deserialize<'de> for Node<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Node::Null)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Self::Value, E> {
        Ok(Node::Bool(b))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Self::Value, E> {
        Ok(Node::Number(n.into()))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Self::Value, E> {
        Ok(Node::Number(n.into()))
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Self::Value, E> {
        Ok(Node::String(Cow::Borrowed(s)))
    }

    fn visit_str<E>(self, s: &str) -> Result<Self::Value, E> {
        Ok(Node::String(Cow::Owned(s.to_owned())))
    }

    fn visit_string<E>(self, s: String) -> Result<Self::Value, E> {
        Ok(Node::String(Cow::Owned(s)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Node::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        // Room for a record's usual keys at once (serde_json gives no count).
        let mut members = Vec::with_capacity(8);
        while let Some(Text(key)) = map.next_key()? {
            // serde_json hands a number over as a map of its private number key (the
            // text was checked by `Members::read` to name no private key itself).
            if members.is_empty() && key == NUMBER_TOKEN {
                let Text(text) = map.next_value()?;
                let number = text.parse::<Number>().map_err(de::Error::custom)?;
                return Ok(Node::Number(number));
            }
            let value = map.next_value()?;
            members.push((key, value));
        }
        Ok(Node::Object(Members(members)))
    }
}

// Equivalent mutants (cargo mutants), each changing no answer:
// - `has_repeated_key` → `true`, or its `<= 16` turned: the hashed writer writes an
//   object without repeated keys as the plain one does, and both ways of finding a
//   repeated key agree.
// - `expecting` → empty: a visitor's error only sends the text to the `Value` reading.

/// A record's text read with `read` (as a tree, or as a `Value` when the tree
/// refuses it): what the world reads from a record it keeps as text.
pub(super) fn read_text<T>(
    text: &str,
    read: impl FnOnce(&dyn Record) -> Result<T, ScenarioError>,
) -> Result<T, ScenarioError> {
    if let Some(rec) = Members::read(text) {
        return read(&rec);
    }
    match crate::json::from_str(text) {
        Ok(serde_json::Value::Object(rec)) => read(&rec),
        _ => Err(malformed("a record's text is not a JSON object")),
    }
}

#[cfg(test)]
mod tests;
