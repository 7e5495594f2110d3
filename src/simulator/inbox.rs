//! Received documents in the simulator (docs/peppol.md §4, §5): the scenario's `received`
//! list read into documents.
//!
//! Decisions taken where the specification is silent:
//! - `base64` is the standard alphabet; padding may be left out, and ASCII whitespace
//!   (the line breaks of a MIME body) is skipped.
//! - A received document is read once, when the scenario is loaded (how it is read,
//!   matched and answered: [`crate::app::receive`]).

use super::record::{id_of, malformed, not_run_id, parse_date_time, Object};
use super::{ScenarioError, Simulator};
use chrono::{DateTime, Utc};
use serde_json::Value;
use std::collections::HashSet;

/// The origins of the interface.
const ORIGINS: [&str; 8] = [
    "<service>",
    "manual",
    "peppol",
    "mail",
    "<external_system_1>",
    "<external_system_2>",
    "api",
    "unknown",
];

/// The types of the interface.
const TYPES: [&str; 6] = [
    "sale_invoice",
    "sale_credit_note",
    "purchase_invoice",
    "purchase_credit_note",
    "other_document",
    "unknown",
];

/// An optional string key of one of the allowed values.
fn one_of(
    rec: &Object,
    at: &str,
    key: &str,
    allowed: &[&str],
) -> Result<Option<String>, ScenarioError> {
    match rec.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if allowed.contains(&s.as_str()) => Ok(Some(s.clone())),
        Some(Value::String(s)) => Err(malformed(format!(
            "{at}: {key} must be one of {}, got {s:?}",
            allowed.join(", ")
        ))),
        Some(_) => Err(malformed(format!("{at}: {key} must be a string"))),
    }
}

/// A received record's id: a string, not of the form the run hands out, unique
/// among documents and received documents (`seen`).
fn received_id(
    rec: &Object,
    at: &str,
    seen: &mut HashSet<String>,
) -> Result<String, ScenarioError> {
    let id = id_of(rec, &at, "id")?.to_owned();
    not_run_id(&at, &id)?;
    if !seen.insert(id.clone()) {
        return Err(malformed(format!(
            "{at}: duplicate id {id:?} (received documents share the id space of documents)"
        )));
    }
    Ok(id)
}

/// A received record's bytes: `ubl` (text) or `base64`, exactly one, not empty.
fn received_bytes(rec: &Object, at: &str) -> Result<Vec<u8>, ScenarioError> {
    let bytes = match (
        rec.get("ubl").filter(|v| !v.is_null()),
        rec.get("base64").filter(|v| !v.is_null()),
    ) {
        (Some(_), Some(_)) => return Err(malformed(format!("{at}: ubl and base64 together"))),
        (None, None) => return Err(malformed(format!("{at}: neither ubl nor base64"))),
        (Some(Value::String(s)), None) => s.as_bytes().to_vec(),
        (None, Some(Value::String(s))) => crate::attachment::decode_base64(s)
            .ok_or_else(|| malformed(format!("{at}: base64 is not valid base64")))?,
        (Some(_), None) => return Err(malformed(format!("{at}: ubl must be a string"))),
        (None, Some(_)) => return Err(malformed(format!("{at}: base64 must be a string"))),
    };
    if bytes.is_empty() {
        return Err(malformed(format!("{at}: the received bytes are empty")));
    }
    Ok(bytes)
}

/// A received record's `received_at` (RFC 3339); `None` when absent or null.
fn received_at(rec: &Object, at: &str) -> Result<Option<DateTime<Utc>>, ScenarioError> {
    match rec.get("received_at") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => parse_date_time(s).map(Some).ok_or_else(|| {
            malformed(format!(
                "{at}: received_at {s:?} is not a valid date-time (rfc 3339)"
            ))
        }),
        Some(_) => Err(malformed(format!(
            "{at}: received_at must be a date-time string"
        ))),
    }
}

/// Reads the scenario's `received` list into the simulator, each through the core's
/// [`crate::app::receive`]. `taken` holds the ids of the preloaded documents: received
/// documents share their id space.
pub(crate) fn read_received(
    items: Vec<&Object>,
    taken: &HashSet<String>,
    sim: &mut Simulator,
) -> Result<(), ScenarioError> {
    let mut seen = taken.clone();
    for (i, rec) in items.into_iter().enumerate() {
        let at = format!("received[{i}]");
        let id = received_id(rec, &at, &mut seen)?;
        let bytes = received_bytes(rec, &at)?;
        let origin = one_of(rec, &at, "origin", &ORIGINS)?.unwrap_or_else(|| "peppol".to_owned());
        let type_override = one_of(rec, &at, "type", &TYPES)?;
        let received_at = received_at(rec, &at)?.unwrap_or(sim.store.world.now);
        let received = crate::app::Received {
            id: &id,
            bytes: &bytes,
            origin: &origin,
            type_override: type_override.as_deref(),
            received_at,
        };
        // The memory store never fails.
        let _ = crate::app::receive(&mut sim.store, &received);
    }
    Ok(())
}

#[cfg(test)]
mod tests;
