//! What happens to documents outside a request (docs/scenario.md): the asynchronous
//! world's step for one document ([`tick`]: its files come to exist, a send under way
//! arrives), and the back office overriding state fields ([`set`]). Nothing here is
//! asynchronous code: a server's worker calls [`tick`] for the documents its store
//! lists as waiting, a scenario's `TICK` calls [`tick_all`].

use super::reply::{json_out, Out, Reply};
use super::request::Body;
use super::save::{after_tick, follow_pdf_flag, save, waits};
use super::Store;
use crate::context::ContextError;
use crate::http::{error, not_found_id};
use crate::lifecycle;
use serde_json::{Map, Value};

/// The asynchronous world's step for the issued document `id`: its files exist (a
/// proforma never has a UBL) and a send under way arrives; its PDF is then owed. A
/// document with no step left (or no document) is left as it is. Whether it changed.
pub fn tick(store: &mut dyn Store, id: &str) -> Result<bool, ContextError> {
    store.lock_document(id)?;
    let Some(doc) = store.issued(id)? else {
        return Ok(false);
    };
    if !waits(&doc) {
        return Ok(false);
    }
    let mut doc = doc.into_owned();
    let had_pdf = doc.pdf_available;
    (doc.pdf_available, doc.xml_available, doc.peppol_status) = after_tick(&doc);
    store.put_issued(doc, false)?;
    if !had_pdf {
        follow_pdf_flag(store, id)?;
    }
    Ok(true)
}

/// `TICK`: the step of [`tick`] for every waiting document, in the order of their
/// ids. Answers `{}`.
pub fn tick_all(store: &mut dyn Store) -> Out {
    let ticked = store
        .waiting()
        .and_then(|ids| ids.iter().try_for_each(|id| tick(store, id).map(|_| ())));
    match ticked {
        Ok(()) => (200, Reply::Json(Value::Object(Map::new()))),
        Err(_) => json_out(crate::http::internal_error()),
    }
}

/// `SET /documents/{id}`: the back office overrides state fields (docs/scenario.md).
pub fn set(store: &mut dyn Store, id: &str, body: &Body) -> Out {
    set_state(store, id, body).unwrap_or_else(|_| json_out(crate::http::internal_error()))
}

fn set_state(store: &mut dyn Store, id: &str, body: &Body) -> Result<Out, ContextError> {
    store.lock_document(id)?;
    let Some(stored) = store.issued(id)? else {
        if store.received(id)?.is_some() {
            return Ok(json_out(received_set(id)));
        }
        return Ok(json_out(not_found_id("document", id)));
    };
    let state = match body.required() {
        Ok(v) => v,
        Err(answer) => return Ok(json_out(answer)),
    };
    let applied = lifecycle::apply_state(&stored, state);
    drop(stored);
    Ok(match applied {
        Ok(doc) => {
            save(store, doc)?;
            (200, Reply::Stored(id.to_owned()))
        }
        Err(e) => json_out(error(&e)),
    })
}

/// `SET` on a received document: the back office does not override it.
fn received_set(id: &str) -> crate::http::Answer {
    error(&crate::error::ApiError::one(
        crate::error::ErrorCode::ReceivedDocument,
        crate::error::Loc::root("path").key("id"),
        format!("the document {id} was received: the back office sets no state on it"),
    ))
}
