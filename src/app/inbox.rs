//! Received documents (docs/peppol.md §4, §5): bytes read into a stored received
//! document ([`receive`]), and what such a document answers to PATCH, send, `SET` and
//! `/ubl`.
//!
//! Decisions taken where the specification is silent:
//! - The relation of a received document is looked for among the store's relations
//!   in the order of their ids: the first whose Peppol id matches, else the first
//!   whose VAT number matches. A received document is matched once, when it is
//!   received: a relation saved later is not matched to it.
//! - `SET` (the back office) does not apply to a received document: it answers 422
//!   `received_document` at `["path", "id"]`.

use super::reply::invalid_body_answer;
use super::{Caller, Pdf, Store};
use crate::context::ContextError;
use crate::error::{ErrorCode, Loc};
use crate::http::{error, not_found_id, one, Answer, Body};
use crate::lifecycle;
use crate::received;
use crate::stored::{StoredReceived, StoredRelation};
use chrono::{DateTime, Utc};
use serde_json::json;
use std::sync::Arc;

/// A received document as it arrives: its id, its bytes and what its channel says.
#[derive(Debug, Clone, Copy)]
pub struct Received<'a> {
    /// The id it is stored under.
    pub id: &'a str,
    /// Its bytes: a UBL invoice or credit note, a PDF, or anything else.
    pub bytes: &'a [u8],
    /// The channel it came in through (`peppol`, `mail` …).
    pub origin: &'a str,
    /// The `type` of bytes that are not UBL (`other_document` …), if given.
    pub type_override: Option<&'a str>,
    /// When it was received (its `create_date`).
    pub received_at: DateTime<Utc>,
}

/// Reads received bytes and stores the received document: its PDF (a received PDF,
/// or the first PDF a UBL embeds, is the document's own; any other UBL gets one
/// rendered from what it states, in the company's language, when it is received: a
/// later PATCH of its paid amount changes no kept PDF), the relation it names, and the
/// default journal of its category.
pub fn receive(store: &mut dyn Store, received: &Received) -> Result<(), ContextError> {
    let Received {
        id,
        bytes,
        origin,
        type_override,
        received_at,
    } = *received;
    let doc = received::read(bytes);
    let pdf = match received::own_pdf(bytes) {
        Some(own) => Some(Arc::from(own.as_ref())),
        None if doc.xml_available => {
            crate::pdf::render_received(&doc, store.company().language, received_at.date_naive())
                .ok()
                .map(Arc::from)
        }
        None => None,
    };
    if let Some(pdf) = pdf {
        store.put_pdf(id, Pdf::Kept(pdf))?;
    }
    let relations = store.relations()?;
    let relation = doc
        .pick_relation(relations.iter().map(|r| {
            (
                r,
                r.party.peppol_id.as_deref(),
                r.party.vat_number.as_deref(),
            )
        }))
        .map(|r| StoredRelation {
            id: r.id.clone(),
            kind: r.kind,
        });
    let journal_id = match doc.doc_type.journal_category() {
        Some(category) => store.default_journal(category)?.map(|j| j.id),
        None => None,
    };
    store.put_received(StoredReceived {
        id: id.to_owned(),
        origin: origin.to_owned(),
        type_override: type_override.map(str::to_owned),
        create_date: received_at,
        relation,
        journal_id,
        document: doc,
    })
}

/// PATCH of a received document: `paid_amount` only (docs/peppol.md §4).
pub(crate) fn patch_received(
    store: &mut dyn Store,
    caller: Caller,
    id: &str,
    body: &Body,
) -> Result<Answer, ContextError> {
    let Some(inbox) = store.received(id)? else {
        return Ok(not_found_id("document", id));
    };
    let current = inbox.to_json();
    let attempt =
        lifecycle::patch_received(caller.permissions, &inbox.document, &current, body.json());
    if let Body::Invalid { text, reason } = body {
        return Ok(invalid_body_answer(attempt, text, reason, false));
    }
    Ok(match attempt {
        Ok(doc) => {
            let mut next = inbox.into_owned();
            next.document = doc;
            let answer = (200, next.to_json());
            if !caller.sandbox {
                store.put_received(next)?;
            }
            answer
        }
        Err(e) => error(&e),
    })
}

/// `GET /documents/{id}/ubl` of a received document: the XML it came with.
pub(crate) fn received_ubl(inbox: &StoredReceived, id: &str) -> Answer {
    match (&inbox.document.xml, inbox.document.xml_available) {
        (Some(xml), true) => (200, json!({"xml": xml, "findings": []})),
        _ => one(
            ErrorCode::XmlNotAvailable,
            Loc::root("path").key("id"),
            &format!(
                "the received document {id} is not a UBL invoice or credit note: it has no xml"
            ),
        ),
    }
}
