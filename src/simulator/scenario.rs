//! Loading a scenario (docs/scenario.md "Scenario (input)"): every key read into the
//! world, the clients, the raw records the GET endpoints answer, the preloaded
//! documents and the requests, each malformed condition reported as a
//! [`ScenarioError`] that says what and where.

use super::auth::{Client, Tokens};
use super::memory::Memory;
use super::record::{
    id_of, list, malformed, not_run_id, opt_bool, opt_str, parse_date_time, read_location,
    read_party, read_relation, record_id, req_str, Item, Object, Record,
};
use super::tree::read_text;
use super::world::World;
use super::{ScenarioError, Simulator};
use crate::app::Request;
use crate::context::{Journal, Permissions};
use crate::error::ApiError;
use crate::lifecycle;
use crate::numbering::{JournalCategory, Numbering};
use crate::pdf::Branding;
use crate::validate::fields::parse_date;
use crate::vat::VatCode;
use chrono::NaiveTime;
use serde_json::value::RawValue;
use serde_json::Value;
use std::borrow::Cow;
use std::collections::{BTreeMap, HashSet};

/// The top-level keys of a scenario; any other is malformed.
const TOP_LEVEL_KEYS: [&str; 11] = [
    "today",
    "now",
    "company",
    "clients",
    "relations",
    "journals",
    "delivery_locations",
    "brandings",
    "documents",
    "received",
    "requests",
];

/// Reads a scenario's bytes.
pub(crate) fn load_bytes(bytes: &[u8]) -> Result<Simulator, ScenarioError> {
    let value = crate::json::from_slice(bytes).map_err(|e| {
        malformed(format!(
            "scenario is not valid json: {}",
            e.to_string().to_lowercase()
        ))
    })?;
    load_owned(value)
}

/// Reads a scenario it owns: its requests are moved into the simulator, not copied,
/// and the rest of the scenario is dropped once the world is built.
fn load_owned(mut value: Value) -> Result<Simulator, ScenarioError> {
    let taken = match &mut value {
        Value::Object(top) => match top.get_mut("requests") {
            Some(Value::Array(list)) => Some(std::mem::take(list)),
            _ => None,
        },
        _ => None,
    };
    load_with(
        Cow::Owned(value),
        taken.map_or(Taken::No, Taken::Values),
        &RawLists::default(),
    )
}

/// Reads a scenario already parsed as JSON.
pub(crate) fn load(value: &Value) -> Result<Simulator, ScenarioError> {
    load_with(Cow::Borrowed(value), Taken::No, &RawLists::default())
}

/// The requests of a scenario when the caller has already read them.
pub(super) enum Taken {
    /// Not read: the scenario's list is copied.
    No,
    /// Moved out of the scenario, which holds `[]` in their place.
    Values(Vec<Value>),
    /// Left as text and checked by the caller (the scenario holds `[]` in their
    /// place): the error of the first malformed one, if any. The simulator's own
    /// list stays empty.
    Checked(Option<ScenarioError>),
}

/// The lists of a scenario left as text by its reading ([`super::raw`]): each record's
/// JSON text, read into a value only while the world is built from it, then kept as
/// compact text for the GET endpoints. A list not given here is read from the scenario value.
#[derive(Debug, Default)]
pub(super) struct RawLists<'a> {
    /// `relations`, when it is an array.
    pub(super) relations: Option<Vec<&'a RawValue>>,
    /// `delivery_locations`, when it is an array.
    pub(super) locations: Option<Vec<&'a RawValue>>,
}

/// Calls `read` on each record of the list `key` (the scenario's, or its text in
/// `raw`) with the record's compact JSON text as `serde_json` writes it, in order. A
/// list that is not an array, or an item that is not an object, is refused before
/// any record is read. A record's text is read by [`read_text`].
fn each_record(
    top: &Object,
    raw: Option<&[&RawValue]>,
    key: &str,
    mut read: impl FnMut(usize, &dyn Record, &str) -> Result<(), ScenarioError>,
) -> Result<(), ScenarioError> {
    // The compact text of the record being read, written into the same buffer each time.
    let mut scratch = Vec::new();
    let Some(raw) = raw else {
        for (i, rec) in list(top, key)?.into_iter().enumerate() {
            read(i, rec, rec.compact(&mut scratch))?;
        }
        return Ok(());
    };
    // Valid JSON texts: an object's starts with `{`.
    if let Some(i) = raw.iter().position(|r| !r.get().starts_with('{')) {
        return Err(malformed(format!("{key}[{i}]: must be an object")));
    }
    for (i, text) in raw.iter().enumerate() {
        read_text(text.get(), |rec| read(i, rec, rec.compact(&mut scratch)))?;
    }
    Ok(())
}

/// How many records the list `key` holds (its text's, or the scenario's), and how
/// many bytes of text (about), to reserve room for them once.
fn count(top: &Object, raw: Option<&[&RawValue]>, key: &str) -> (usize, usize) {
    match (raw, top.get(key)) {
        (Some(raw), _) => (raw.len(), raw.iter().map(|r| r.get().len()).sum()),
        (None, Some(Value::Array(items))) => (items.len(), 0),
        _ => (0, 0),
    }
}

/// Reads a scenario whose requests may already have been read (`taken`), and whose
/// big lists may be left as text (`raw`).
pub(super) fn load_with(
    value: Cow<'_, Value>,
    taken: Taken,
    raw: &RawLists<'_>,
) -> Result<Simulator, ScenarioError> {
    let Value::Object(top) = &*value else {
        return Err(malformed("scenario must be a json object"));
    };
    if let Some(key) = top.keys().find(|k| !TOP_LEVEL_KEYS.contains(&k.as_str())) {
        return Err(malformed(format!("unknown top-level key {key:?}")));
    }
    let today = match top.get("today") {
        None | Some(Value::Null) => return Err(malformed("missing today")),
        Some(Value::String(s)) => parse_date(s)
            .ok_or_else(|| malformed(format!("today: {s:?} is not a valid date (yyyy-mm-dd)")))?,
        Some(_) => return Err(malformed("today: must be a date string (yyyy-mm-dd)")),
    };
    let now = match top.get("now") {
        None | Some(Value::Null) => today.and_time(NaiveTime::MIN).and_utc(),
        Some(Value::String(s)) => parse_date_time(s)
            .ok_or_else(|| malformed(format!("now: {s:?} is not a valid date-time (rfc 3339)")))?,
        Some(_) => return Err(malformed("now: must be a date-time string (rfc 3339)")),
    };
    let requests = match top.get("requests") {
        None | Some(Value::Null) => return Err(malformed("missing requests")),
        Some(Value::Array(list)) => match taken {
            Taken::No => list.clone(),
            Taken::Values(values) => values,
            Taken::Checked(None) => Vec::new(),
            Taken::Checked(Some(e)) => return Err(e),
        },
        Some(_) => return Err(malformed("requests: must be an array")),
    };
    for (i, request) in requests.iter().enumerate() {
        Request::from_json(request).map_err(|e| malformed(format!("requests[{i}]: {e}")))?;
    }

    let mut world = World::new(today, now);
    if let Some(company) = top.get("company").filter(|v| !v.is_null()) {
        world.company = read_company(company)?;
    }
    let clients = read_clients(top)?;
    read_relations(top, raw.relations.as_deref(), &mut world)?;
    let journals = read_journals(top, &mut world)?;
    read_locations(top, raw.locations.as_deref(), &mut world)?;
    let brandings = read_brandings(top)?;

    let mut simulator = Simulator {
        store: Memory::new(world),
        clients: clients.into(),
        tokens: Tokens::default(),
        requests,
    };
    let preloaded = preload_documents(top, &mut simulator)?;
    super::inbox::read_received(list(top, "received")?, &preloaded, &mut simulator)?;
    // The records, read and checked above, are kept as given: moved out of a scenario
    // this reading owns, copied from one it borrows.
    let mut lists = match value {
        Cow::Owned(Value::Object(mut top)) => {
            let mut take = |key: &str| match top.get_mut(key) {
                Some(Value::Array(items)) => std::mem::take(items),
                _ => Vec::new(),
            };
            [take("journals"), take("brandings")]
        }
        value => {
            let copy = |key: &str| match value.get(key) {
                Some(Value::Array(items)) => items.clone(),
                _ => Vec::new(),
            };
            [copy("journals"), copy("brandings")]
        }
    }
    .map(Vec::into_iter);
    let records = &mut simulator.store.records;
    for (id, rec) in journals.into_iter().zip(&mut lists[0]) {
        records.journals.insert(id, rec);
    }
    for ((id, branding), rec) in brandings.into_iter().zip(&mut lists[1]) {
        records.brandings.push((id, rec), branding);
    }
    Ok(simulator)
}

fn read_company(value: &Value) -> Result<crate::context::Company, ScenarioError> {
    let at = "company";
    let Value::Object(rec) = value else {
        return Err(malformed("company: must be an object"));
    };
    let mut company = crate::context::Company {
        self_billing: opt_bool(rec, &at, "self_billing")?.unwrap_or(false),
        legal_notice: opt_str(rec, &at, "legal_notice")?.map(str::to_owned),
        party: read_party(rec, &at, true)?,
        enforce_peppol_rules: opt_bool(rec, &at, "enforce_peppol_rules")?.unwrap_or(false),
        // docs/files.md §2, §3: the documents' language, the PDF in the UBL, the footer
        language: match opt_str(rec, &at, "language")? {
            None => crate::language::Language::En,
            Some(code) => crate::language::Language::parse(code).ok_or_else(|| {
                malformed(format!(
                    "company: language must be one of en, nl, fr, de, not {code:?}"
                ))
            })?,
        },
        embed_pdf_in_ubl: opt_bool(rec, &at, "embed_pdf_in_ubl")?.unwrap_or(true),
        legal_form: opt_str(rec, &at, "legal_form")?.map(str::to_owned),
        register: opt_str(rec, &at, "register")?.map(str::to_owned),
        ..crate::context::Company::default()
    };
    match rec.get("exemption_mentions") {
        None | Some(Value::Null) => {}
        Some(Value::Object(mentions)) => {
            for (code, text) in mentions {
                let vat = VatCode::parse(code).ok_or_else(|| {
                    malformed(format!(
                        "company.exemption_mentions: unknown vat code {code:?}"
                    ))
                })?;
                let Value::String(text) = text else {
                    return Err(malformed(format!(
                        "company.exemption_mentions.{code}: must be a string"
                    )));
                };
                company.exemption_mentions.insert(vat, text.clone());
            }
        }
        Some(_) => return Err(malformed("company.exemption_mentions: must be an object")),
    }
    match rec.get("currencies") {
        None | Some(Value::Null) => {}
        Some(Value::Array(codes)) => {
            let codes = codes
                .iter()
                .enumerate()
                .map(|(i, c)| match c {
                    Value::String(s) => Ok(s.clone()),
                    _ => Err(malformed(format!(
                        "company.currencies[{i}]: must be a string"
                    ))),
                })
                .collect::<Result<Vec<_>, _>>()?;
            company.currencies = Some(codes);
        }
        Some(_) => return Err(malformed("company.currencies: must be an array")),
    }
    Ok(company)
}

fn read_clients(top: &Object) -> Result<Vec<Client>, ScenarioError> {
    let mut seen = HashSet::new();
    let mut clients = Vec::new();
    for (i, rec) in list(top, "clients")?.into_iter().enumerate() {
        let at = format!("clients[{i}]");
        let id = record_id(rec, &at, "client_id", &mut seen)?;
        let secret = req_str(rec, &at, "client_secret")?.to_owned();
        let sandbox = match opt_str(rec, &at, "environment")? {
            None | Some("live") => false,
            Some("sandbox") => true,
            Some(other) => {
                return Err(malformed(format!(
                    "{at}: environment must be \"live\" or \"sandbox\", got {other:?}"
                )))
            }
        };
        let mut permissions = Permissions::default();
        match rec.get("permissions") {
            None | Some(Value::Null) => {}
            Some(Value::Array(perms)) => {
                for p in perms {
                    match p.as_str() {
                        Some("c") => permissions.create = true,
                        Some("u") => permissions.update = true,
                        _ => {
                            return Err(malformed(format!(
                                "{at}: unknown permission {p}, expected \"c\" or \"u\""
                            )))
                        }
                    }
                }
            }
            Some(_) => return Err(malformed(format!("{at}: permissions must be an array"))),
        }
        clients.push(Client {
            id,
            secret,
            sandbox,
            permissions,
        });
    }
    Ok(clients)
}

/// Reads the relations into the world, each kept as its text.
fn read_relations(
    top: &Object,
    raw: Option<&[&RawValue]>,
    world: &mut World,
) -> Result<(), ScenarioError> {
    let (n, bytes) = count(top, raw, "relations");
    world.relations.reserve(n, bytes);
    each_record(top, raw, "relations", |i, rec, text| {
        let at = Item("relations", i);
        let id = id_of(rec, &at, "id")?;
        if world.relations.contains(id) {
            return Err(malformed(format!("{at}: duplicate id {id:?}")));
        }
        read_relation(rec, &at)?;
        world.relations.insert(id, text);
        Ok(())
    })
}

/// Reads the journals into the world; their ids, in order.
fn read_journals(top: &Object, world: &mut World) -> Result<Vec<String>, ScenarioError> {
    let mut seen = HashSet::new();
    let mut ids = Vec::new();
    let mut default_at: BTreeMap<JournalCategory, usize> = BTreeMap::new();
    for (i, rec) in list(top, "journals")?.into_iter().enumerate() {
        let at = format!("journals[{i}]");
        let id = record_id(rec, &at, "id", &mut seen)?;
        let category_text = req_str(rec, &at, "category")?;
        let category = JournalCategory::parse(category_text)
            .ok_or_else(|| malformed(format!("{at}: unknown category {category_text:?}")))?;
        let numbering_text = req_str(rec, &at, "numbering")?;
        let numbering = Numbering::parse(numbering_text).ok_or_else(|| {
            malformed(format!(
                "{at}: numbering must be \"never\", \"monthly\" or \"yearly\", got {numbering_text:?}"
            ))
        })?;
        let prefix = opt_str(rec, &at, "prefix")?.unwrap_or("").to_owned();
        let next = match rec.get("next") {
            None | Some(Value::Null) => 1,
            // A counter must be able to move past the number it hands out, so that no
            // number is drawn twice: u64::MAX is refused.
            Some(Value::Number(n)) => {
                n.as_u64()
                    .filter(|n| *n >= 1 && *n < u64::MAX)
                    .ok_or_else(|| {
                        malformed(format!(
                            "{at}: next must be a whole number from 1 to {}, got {n}",
                            u64::MAX - 1
                        ))
                    })?
            }
            Some(_) => return Err(malformed(format!("{at}: next must be a number"))),
        };
        if opt_bool(rec, &at, "default")?.unwrap_or(false) {
            if let Some(first) = default_at.insert(category, i) {
                return Err(malformed(format!(
                    "{at}: a second default journal for category {category} (journals[{first}] is one)"
                )));
            }
            world.defaults.insert(category, id.clone());
        }
        let window = numbering.window(world.today);
        world
            .counters
            .entry(id.clone())
            .or_default()
            .insert(window, next);
        world.journals.insert(
            id.clone(),
            Journal {
                id: id.clone(),
                category,
                numbering,
                prefix,
            },
        );
        ids.push(id);
    }
    Ok(ids)
}

/// Reads the delivery locations into the world, each kept as its text.
fn read_locations(
    top: &Object,
    raw: Option<&[&RawValue]>,
    world: &mut World,
) -> Result<(), ScenarioError> {
    let (n, bytes) = count(top, raw, "delivery_locations");
    world.locations.reserve(n, bytes);
    each_record(top, raw, "delivery_locations", |i, rec, text| {
        let at = Item("delivery_locations", i);
        let id = id_of(rec, &at, "id")?;
        if world.locations.contains(id) {
            return Err(malformed(format!("{at}: duplicate id {id:?}")));
        }
        let location = read_location(rec, &at)?;
        world.locations.push(id, &location.relation_id, text);
        Ok(())
    })
}

/// Checks the brandings; their ids and what shapes the PDF's page, in order.
fn read_brandings(top: &Object) -> Result<Vec<(String, Branding)>, ScenarioError> {
    let mut seen = HashSet::new();
    let mut brandings = Vec::new();
    for (i, rec) in list(top, "brandings")?.into_iter().enumerate() {
        let at = format!("brandings[{i}]");
        let id = record_id(rec, &at, "id", &mut seen)?;
        opt_bool(rec, &at, "default")?;
        brandings.push((id, read_branding(rec, &at)?));
    }
    Ok(brandings)
}

/// A branding's `color` (`#RRGGBB`), `logo` (`{"base64": PNG or JPEG}`) and `footer`
/// (at most 500 characters) (docs/files.md §2): a wrong type or an invalid value makes the
/// scenario malformed.
fn read_branding(rec: &Object, at: &str) -> Result<Branding, ScenarioError> {
    let color = match opt_str(rec, &at, "color")? {
        None => None,
        Some(text) => Some(
            parse_color(text)
                .ok_or_else(|| malformed(format!("{at}: color must be #RRGGBB, not {text:?}")))?,
        ),
    };
    let footer = opt_str(rec, &at, "footer")?.map(str::to_owned);
    if footer.as_ref().is_some_and(|f| f.chars().count() > 500) {
        return Err(malformed(format!(
            "{at}: footer must have at most 500 characters"
        )));
    }
    let logo = match rec.get("logo") {
        None | Some(Value::Null) => None,
        Some(Value::Object(logo)) => {
            let Some(Value::String(b64)) = logo.get("base64") else {
                return Err(malformed(format!("{at}: logo.base64 must be a string")));
            };
            let bytes = crate::attachment::decode_base64(b64)
                .ok_or_else(|| malformed(format!("{at}: logo.base64 is not base64")))?;
            Some(
                crate::pdf::Logo::read(&bytes)
                    .map_err(|reason| malformed(format!("{at}: logo: {reason}")))?,
            )
        }
        Some(_) => return Err(malformed(format!("{at}: logo must be an object"))),
    };
    Ok(Branding {
        color,
        logo,
        footer,
    })
}

/// `#RRGGBB` (hex digits in any case) as red, green, blue.
fn parse_color(text: &str) -> Option<[u8; 3]> {
    let hex = text
        .strip_prefix('#')
        .filter(|h| h.len() == 6 && h.bytes().all(|b| b.is_ascii_hexdigit()))?;
    let byte = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}

/// The errors of a refusal, in one line: `type at loc: msg; …`.
fn describe(err: &ApiError) -> String {
    err.errors
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// Creates the preloaded documents in order, through the normal create rules, each
/// drawing its number like any create; then overwrites their state fields. Answers
/// their ids.
fn preload_documents(top: &Object, sim: &mut Simulator) -> Result<HashSet<String>, ScenarioError> {
    let mut seen = HashSet::new();
    for (i, rec) in list(top, "documents")?.into_iter().enumerate() {
        let at = format!("documents[{i}]");
        let id = record_id(rec, &at, "id", &mut seen)?;
        not_run_id(&at, &id)?;
        let create = match rec.get("create") {
            None | Some(Value::Null) => return Err(malformed(format!("{at}: missing create"))),
            Some(body) => body,
        };
        let created = lifecycle::create(&sim.store, Permissions::ALL, None, Some(create), &id)
            .map_err(|e| malformed(format!("{at}: create refused: {}", describe(&e))))?;
        sim.store.world.advance(&created.number);
        let mut document = created.document;
        if let Some(state) = rec.get("state").filter(|v| !v.is_null()) {
            document = lifecycle::apply_state(&document, state)
                .map_err(|e| malformed(format!("{at}: state refused: {}", describe(&e))))?;
        }
        // The memory store never fails.
        let _ = crate::app::save_document(&mut sim.store, document);
    }
    Ok(seen)
}

#[cfg(test)]
mod tests;
