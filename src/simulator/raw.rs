//! Reading a scenario with its requests left as text (issue 12): the world is read
//! as JSON values, each request stays the slice of the scenario's bytes that holds
//! it, and is read into a value only when it is answered. The simulator then holds
//! the world and the scenario's bytes, never every request as a value.
//!
//! The answer is the one of [`super::scenario::load_bytes`] for the same bytes: each
//! request is read and checked at load, in order, and any scenario this reading
//! might see otherwise (not an object at the top, a JSON error anywhere, a request
//! nested deep enough to meet serde_json's depth limit inside the whole scenario)
//! is left to the reading of the whole scenario as one value.

use super::record::malformed;
use super::scenario::{load_with, RawLists, Taken};
use super::{ScenarioError, Simulator};
use crate::app::Request;
use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::fmt;

/// How deep a request or a record may nest (its own object counting 1) to be read on
/// its own:
/// well below serde_json's limit of 127 levels minus the 2 of the scenario's object
/// and `requests` array, so that a request read alone fails exactly when it would
/// inside the scenario.
const MAX_REQUEST_DEPTH: usize = 100;

/// A scenario whose requests, relations and delivery locations are left as text.
struct RawScenario<'a> {
    /// Every top-level key in order; `requests`, `relations` and
    /// `delivery_locations`, when they are arrays, hold `[]`.
    top: Map<String, Value>,
    /// The requests' texts, when `requests` is an array.
    requests: Option<Vec<&'a RawValue>>,
    /// The relations' and the delivery locations' texts, when they are arrays.
    lists: RawLists<'a>,
}

impl<'de> Deserialize<'de> for RawScenario<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(RawScenarioVisitor)
    }
}

struct RawScenarioVisitor;

impl<'de> Visitor<'de> for RawScenarioVisitor {
    type Value = RawScenario<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a scenario object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut top = Map::new();
        let mut requests = None;
        let mut lists = RawLists::default();
        while let Some(key) = map.next_key::<String>()? {
            let slot = match key.as_str() {
                "requests" => &mut requests,
                "relations" => &mut lists.relations,
                "delivery_locations" => &mut lists.locations,
                _ => {
                    let value: Value = map.next_value()?;
                    top.insert(key, value);
                    continue;
                }
            };
            // A repeated key keeps its place and takes its last value, as in a
            // `Value`.
            let raw: &'de RawValue = map.next_value()?;
            if let Ok(list) = serde_json::from_str::<Vec<&'de RawValue>>(raw.get()) {
                *slot = Some(list);
                top.insert(key, Value::Array(Vec::new()));
            } else {
                *slot = None;
                let value = serde_json::from_str(raw.get()).map_err(de::Error::custom)?;
                top.insert(key, value);
            }
        }
        Ok(RawScenario {
            top,
            requests,
            lists,
        })
    }
}

/// Loads a scenario with its requests left as text: the simulator (whose own list of
/// requests is empty) and the requests' texts, or the scenario's error. `None` when
/// the scenario is one to read as a whole value ([`super::scenario::load_bytes`]).
pub(super) fn load(bytes: &[u8]) -> Option<Result<(Simulator, Vec<&RawValue>), ScenarioError>> {
    // A scenario that names serde_json's private keys is read as a whole value, by
    // `crate::json`, which keeps every object an object.
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{')
        || crate::json::names_private_key(bytes)
    {
        return None;
    }
    let scenario: RawScenario = serde_json::from_slice(bytes).ok()?;
    let requests = scenario.requests.unwrap_or_default();
    let mut first_error = None;
    for (i, raw) in requests.iter().enumerate() {
        if !readable_alone(raw) {
            return None;
        }
        if first_error.is_none() {
            if let Err(e) = Request::from_text(raw.get()) {
                first_error = Some(malformed(format!("requests[{i}]: {e}")));
            }
        }
    }
    let lists = scenario.lists;
    let records = lists.relations.iter().chain(&lists.locations).flatten();
    if !records.into_iter().all(|raw| readable_alone(raw)) {
        return None;
    }
    let top = Value::Object(scenario.top);
    let loaded = load_with(Cow::Owned(top), Taken::Checked(first_error), &lists);
    Some(loaded.map(|sim| (sim, requests)))
}

/// Whether a request's or a record's text reads alone exactly as it reads inside the
/// whole scenario: nested well below the depth limit, and without a lone surrogate
/// escape (`\uD800` without its pair: skipping a text lets it pass, reading it as a
/// value refuses it). Any other scenario is read as a whole.
fn readable_alone(raw: &RawValue) -> bool {
    let text = raw.get();
    !has_lone_surrogate(text) && depth(text) <= MAX_REQUEST_DEPTH
}

/// Whether a JSON text (escapes already checked by a skip) has a `\u` escape of a
/// surrogate that is not a high one followed by a low one.
fn has_lone_surrogate(text: &str) -> bool {
    let bytes = text.as_bytes();
    let unit = |at: usize| {
        let hex = bytes.get(at..at + 4)?;
        u16::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()
    };
    let mut i = 0;
    // from backslash to backslash (most texts have none: one vector search)
    while let Some(k) = bytes.get(i..).and_then(|rest| memchr::memchr(b'\\', rest)) {
        i += k;
        if bytes.get(i + 1) != Some(&b'u') {
            i += 2; // any other escape: the backslash and the escaped byte
            continue;
        }
        match unit(i + 2) {
            Some(0xD800..=0xDBFF) => {
                let low = (bytes.get(i + 6..i + 8) == Some(b"\\u".as_slice()))
                    .then(|| unit(i + 8))
                    .flatten();
                if !matches!(low, Some(0xDC00..=0xDFFF)) {
                    return true;
                }
                i += 12;
            }
            Some(0xDC00..=0xDFFF) | None => return true,
            Some(_) => i += 6,
        }
    }
    false
}

/// The deepest nesting of arrays and objects in a JSON text (strings skipped).
fn depth(text: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    for (_, b) in super::stream::structure(text) {
        match b {
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

#[cfg(test)]
mod tests;
