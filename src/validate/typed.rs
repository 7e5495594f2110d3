//! A create or PATCH body read from its bytes in one typed pass: the top-level keys
//! of the body by their place in [`BODY_KEYS`], each line's keys by their place in
//! [`LINE_KEYS`], with no `serde_json::Map` built for the body or its lines.
//!
//! The pass takes only what it can read exactly as the `Value` path reads it: an
//! object whose keys are all allowed and none repeated, with `lines` a list of such
//! objects. Anything else (an unknown or derived key, a repeated key, `lines` null or
//! not a list of objects, bytes that are not JSON) makes [`TypedBody::from_slice`]
//! answer `None`, and the caller reads the bytes as a `Value` instead: the second
//! pass is taken only on that path, and it gives every error with its location.

use super::body::{Source, BODY_KEYS};
use super::fields::{Errors, Field, Slot};
use super::lines::{typed_lines, LINE_KEYS};
use crate::document::Line;
use crate::error::Loc;
use crate::money::Currency;
use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Value;
use std::fmt;

/// The values of one line by [`LINE_KEYS`], as their JSON text in the body's bytes:
/// nothing is allocated for a line until its rules read it.
type LineSlots<'de> = [Option<&'de RawValue>; 12];

/// A body read in one typed pass.
#[derive(Debug, Clone)]
pub struct TypedBody<'de> {
    /// The values by [`BODY_KEYS`] (the `lines` slot stays empty).
    top: Vec<Option<Value>>,
    /// The lines, if sent.
    lines: Option<Vec<LineSlots<'de>>>,
}

impl<'de> TypedBody<'de> {
    /// The body of these bytes, or `None` when they must be read as a `Value`: bytes
    /// that name one of serde_json's private keys among them, so that an object is
    /// never read as a number ([`crate::json`]).
    pub fn from_slice(bytes: &'de [u8]) -> Option<TypedBody<'de>> {
        if crate::json::names_private_key(bytes) {
            return None;
        }
        serde_json::from_slice(bytes).ok()
    }
}

impl Source for TypedBody<'_> {
    fn slot(&self, key: &str) -> Slot<'_> {
        let value = BODY_KEYS
            .iter()
            .position(|k| *k == key)
            .and_then(|i| self.top.get(i))
            .and_then(Option::as_ref);
        match value {
            None => Slot::Absent,
            Some(Value::Null) => Slot::Null,
            Some(v) => Slot::Value(v),
        }
    }

    fn lines(
        &self,
        loc: &Loc,
        currency: Option<Currency>,
        errors: &mut Errors,
    ) -> Field<Vec<Line>> {
        match &self.lines {
            None => Field::Absent,
            Some(items) => {
                typed_lines(items, loc, currency, errors).map_or(Field::Invalid, Field::Valid)
            }
        }
    }
}

/// Reads a key as its place among `keys`, without copying it; a key outside them is
/// an error that sends the body to the `Value` path.
#[derive(Clone, Copy)]
struct KeyIn<'k>(&'k [&'k str]);

impl<'de> DeserializeSeed<'de> for KeyIn<'_> {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for KeyIn<'_> {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a known key")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<usize, E> {
        self.0
            .iter()
            .position(|k| *k == key)
            .ok_or_else(|| E::custom("a key the typed pass does not take"))
    }
}

impl<'de> Deserialize<'de> for TypedBody<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<TypedBody<'de>, D::Error> {
        d.deserialize_map(BodyVisitor)
    }
}

struct BodyVisitor;

impl<'de> Visitor<'de> for BodyVisitor {
    type Value = TypedBody<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a body object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TypedBody<'de>, A::Error> {
        let mut top: Vec<Option<Value>> = vec![None; BODY_KEYS.len()];
        let mut lines = None;
        while let Some(i) = map.next_key_seed(KeyIn(BODY_KEYS))? {
            if BODY_KEYS.get(i) == Some(&"lines") {
                if lines.is_some() {
                    return Err(de::Error::custom("a repeated key"));
                }
                lines = Some(map.next_value::<Lines>()?.0);
                continue;
            }
            let slot = top.get_mut(i).ok_or_else(|| de::Error::custom("no slot"))?;
            if slot.is_some() {
                return Err(de::Error::custom("a repeated key"));
            }
            *slot = Some(map.next_value()?);
        }
        Ok(TypedBody { top, lines })
    }
}

/// `lines`: a list of line objects.
struct Lines<'de>(Vec<LineSlots<'de>>);

impl<'de> Deserialize<'de> for Lines<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Lines<'de>, D::Error> {
        d.deserialize_seq(LinesVisitor)
    }
}

struct LinesVisitor;

impl<'de> Visitor<'de> for LinesVisitor {
    type Value = Lines<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of lines")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Lines<'de>, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(64).min(1024));
        while let Some(LineObject(slots)) = seq.next_element()? {
            out.push(slots);
        }
        Ok(Lines(out))
    }
}

/// One line object.
struct LineObject<'de>(LineSlots<'de>);

impl<'de> Deserialize<'de> for LineObject<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<LineObject<'de>, D::Error> {
        d.deserialize_map(LineVisitor)
    }
}

struct LineVisitor;

impl<'de> Visitor<'de> for LineVisitor {
    type Value = LineObject<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a line object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<LineObject<'de>, A::Error> {
        let mut slots: LineSlots = Default::default();
        while let Some(i) = map.next_key_seed(KeyIn(&LINE_KEYS))? {
            let slot = slots
                .get_mut(i)
                .ok_or_else(|| de::Error::custom("no slot"))?;
            if slot.is_some() {
                return Err(de::Error::custom("a repeated key"));
            }
            *slot = Some(map.next_value()?);
        }
        Ok(LineObject(slots))
    }
}
