//! Reading a scenario's records: the record a reader sees (an object of a `Value`, or
//! a tree read from its text), its fields with the place of an error
//! (`relations[3].address`), and the records the rules read (relations, delivery
//! locations, parties, dates). Loading them into the world is [`super::scenario`]'s.

use super::stream::compact;
use super::ScenarioError;
use crate::context::{DeliveryLocation, Relation, RelationKind};
use crate::party::{Address, Party};
use crate::terms::PaymentTerms;
use crate::validate::fields::{in_date_range, parse_date};
use chrono::{DateTime, NaiveDateTime, Utc};
use serde_json::{Map, Value};
use std::collections::HashSet;
use std::fmt;

pub(crate) type Object = Map<String, Value>;

pub(crate) fn malformed(message: impl Into<String>) -> ScenarioError {
    ScenarioError(message.into())
}

/// An RFC 3339 date-time (any offset, turned into UTC), or one without an offset,
/// read as UTC; its UTC date must lie in 0001-01-01 … 9999-12-31, or create_date
/// could not be written as ISO 8601.
pub(crate) fn parse_date_time(s: &str) -> Option<DateTime<Utc>> {
    let utc = if let Ok(dt) = DateTime::parse_from_rfc3339(s) {
        dt.with_timezone(&Utc)
    } else {
        parse_date(s.get(..10)?)?;
        NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S%.f")
            .ok()?
            .and_utc()
    };
    in_date_range(utc.date_naive()).then_some(utc)
}

/// The records of a top-level list: absent or null is none.
pub(super) fn list<'a>(top: &'a Object, key: &str) -> Result<Vec<&'a Object>, ScenarioError> {
    match top.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, item)| match item {
                Value::Object(o) => Ok(o),
                _ => Err(malformed(format!("{key}[{i}]: must be an object"))),
            })
            .collect(),
        Some(_) => Err(malformed(format!("{key}: must be an array"))),
    }
}

/// A field of a record, as the readers of a scenario see it: absent (or null), a
/// string, a boolean, an object, or a value of another type.
pub(crate) enum Field<'r> {
    Absent,
    Str(&'r str),
    Bool(bool),
    Object(&'r dyn Record),
    Other,
}

/// A record whose fields the readers of a scenario read: an object of a `Value`, or
/// one read from its text ([`super::tree::Members`]).
pub(crate) trait Record {
    /// The field `key`.
    fn field(&self, key: &str) -> Field<'_>;

    /// The record's compact JSON text as `serde_json` writes its `Value`, written
    /// into `scratch`.
    fn compact<'s>(&self, scratch: &'s mut Vec<u8>) -> &'s str;
}

impl Record for Object {
    fn field(&self, key: &str) -> Field<'_> {
        match self.get(key) {
            None | Some(Value::Null) => Field::Absent,
            Some(Value::String(s)) => Field::Str(s),
            Some(Value::Bool(b)) => Field::Bool(*b),
            Some(Value::Object(o)) => Field::Object(o),
            Some(Value::Number(_) | Value::Array(_)) => Field::Other,
        }
    }

    fn compact<'s>(&self, scratch: &'s mut Vec<u8>) -> &'s str {
        compact(self, scratch)
    }
}

/// Where a record sits in the scenario (`relations[3]`): written only into an error.
pub(super) struct Item<'a>(pub(super) &'a str, pub(super) usize);

impl fmt::Display for Item<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}[{}]", self.0, self.1)
    }
}

/// A key inside a place (`relations[3].address`): written only into an error.
pub(super) struct Nested<'a>(&'a dyn fmt::Display, &'a str);

impl fmt::Display for Nested<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}.{}", self.0, self.1)
    }
}

/// The record's identifier (`id`, or `client_id` for a client): a string.
pub(super) fn id_of<'a>(
    rec: &'a dyn Record,
    at: &dyn fmt::Display,
    key: &str,
) -> Result<&'a str, ScenarioError> {
    match rec.field(key) {
        Field::Absent => Err(malformed(format!("{at}: missing {key}"))),
        Field::Str(s) => Ok(s),
        _ => Err(malformed(format!("{at}: {key} must be a string"))),
    }
}

/// The record's identifier (`id`, or `client_id` for a client), unique among its kind.
pub(super) fn record_id(
    rec: &dyn Record,
    at: &dyn fmt::Display,
    key: &str,
    seen: &mut HashSet<String>,
) -> Result<String, ScenarioError> {
    let id = id_of(rec, at, key)?.to_owned();
    if !seen.insert(id.clone()) {
        return Err(malformed(format!("{at}: duplicate {key} {id:?}")));
    }
    Ok(id)
}

/// An optional string field (absent or null is `None`).
pub(super) fn opt_str<'a>(
    rec: &'a dyn Record,
    at: &dyn fmt::Display,
    key: &str,
) -> Result<Option<&'a str>, ScenarioError> {
    match rec.field(key) {
        Field::Absent => Ok(None),
        Field::Str(s) => Ok(Some(s)),
        _ => Err(malformed(format!("{at}: {key} must be a string"))),
    }
}

/// A required string field.
pub(super) fn req_str<'a>(
    rec: &'a dyn Record,
    at: &dyn fmt::Display,
    key: &str,
) -> Result<&'a str, ScenarioError> {
    opt_str(rec, at, key)?.ok_or_else(|| malformed(format!("{at}: missing {key}")))
}

/// An optional boolean field (absent or null is `None`).
pub(super) fn opt_bool(
    rec: &dyn Record,
    at: &dyn fmt::Display,
    key: &str,
) -> Result<Option<bool>, ScenarioError> {
    match rec.field(key) {
        Field::Absent => Ok(None),
        Field::Bool(b) => Ok(Some(b)),
        _ => Err(malformed(format!("{at}: {key} must be a boolean"))),
    }
}

/// An optional address object: each key a string (absent or null is `None`); any
/// other key inside it is ignored, like any unknown key inside a record.
pub(super) fn opt_address(
    rec: &dyn Record,
    at: &dyn fmt::Display,
    key: &str,
) -> Result<Option<Address>, ScenarioError> {
    let address = match rec.field(key) {
        Field::Absent => return Ok(None),
        Field::Object(a) => a,
        _ => return Err(malformed(format!("{at}: {key} must be an object"))),
    };
    let at = Nested(at, key);
    let text = |k: &str| Ok::<_, ScenarioError>(opt_str(address, &at, k)?.map(str::to_owned));
    Ok(Some(Address {
        street: text("street")?,
        street_number: text("street_number")?,
        street2: text("street2")?,
        postal_code: text("postal_code")?,
        city: text("city")?,
        province: text("province")?,
        country_code: text("country_code")?,
    }))
}

/// The party keys of docs/peppol.md §1 in a company (`with_bic`) or relation record: each
/// a string, `address` an object; a value of another JSON type is malformed, a
/// well-typed value wrong for Peppol is kept (it becomes a finding).
pub(super) fn read_party(
    rec: &dyn Record,
    at: &dyn fmt::Display,
    with_bic: bool,
) -> Result<Party, ScenarioError> {
    let text = |k: &str| Ok::<_, ScenarioError>(opt_str(rec, at, k)?.map(str::to_owned));
    Ok(Party {
        name: text("name")?,
        vat_number: text("vat_number")?,
        enterprise_number: text("enterprise_number")?,
        peppol_id: text("peppol_id")?,
        address: opt_address(rec, at, "address")?,
        iban: text("iban")?,
        bic: if with_bic { text("bic")? } else { None },
        email: text("email")?,
    })
}

/// A relation record as the rules read it; the uniqueness of its id is the caller's
/// to check.
pub(super) fn read_relation(
    rec: &dyn Record,
    at: &dyn fmt::Display,
) -> Result<Relation, ScenarioError> {
    let id = id_of(rec, at, "id")?.to_owned();
    let kind = match req_str(rec, at, "kind")? {
        "company" => RelationKind::Company,
        "contact" => RelationKind::Contact,
        other => {
            return Err(malformed(format!(
                "{at}: kind must be \"company\" or \"contact\", got {other:?}"
            )))
        }
    };
    let payment_terms = match opt_str(rec, at, "payment_terms")? {
        None => None,
        Some(_) if kind == RelationKind::Contact => {
            return Err(malformed(format!(
                "{at}: a contact never has payment_terms"
            )));
        }
        Some(text) => Some(
            text.parse::<PaymentTerms>()
                .map_err(|e| malformed(format!("{at}: {e}")))?,
        ),
    };
    Ok(Relation {
        id,
        kind,
        payment_terms,
        peppol: opt_bool(rec, at, "peppol")?.unwrap_or(false),
        party: read_party(rec, at, false)?,
    })
}

/// A delivery location record as the rules read it; the uniqueness of its id is the
/// caller's to check.
pub(super) fn read_location(
    rec: &dyn Record,
    at: &dyn fmt::Display,
) -> Result<DeliveryLocation, ScenarioError> {
    Ok(DeliveryLocation {
        id: id_of(rec, at, "id")?.to_owned(),
        relation_id: req_str(rec, at, "relation_id")?.to_owned(),
        name: opt_str(rec, at, "name")?.map(str::to_owned),
        address: opt_address(rec, at, "address")?,
        identifier: opt_str(rec, at, "identifier")?.map(str::to_owned),
        identifier_scheme: opt_str(rec, at, "identifier_scheme")?.map(str::to_owned),
    })
}

/// Whether an id has the form of an id the run hands out (`doc-N`, `sbx-N`).
/// Refuses an id of the form the run hands out.
pub(super) fn not_run_id(at: &dyn fmt::Display, id: &str) -> Result<(), ScenarioError> {
    if is_run_id(id) {
        return Err(malformed(format!(
            "{at}: id {id:?} has the form of the ids the run hands out (doc-N, sbx-N)"
        )));
    }
    Ok(())
}

pub(crate) fn is_run_id(id: &str) -> bool {
    ["doc-", "sbx-"].iter().any(|prefix| {
        id.strip_prefix(prefix)
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    })
}
