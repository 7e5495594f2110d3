//! The routes of the interface after authentication: 404 for an unknown path, 405 for
//! a method the path does not take, then the operation, which hands the rules to
//! [`crate::lifecycle`] and keeps what a live client writes.

use super::reply::{invalid_body_answer, json_out, record_value, Out, Reply};
use super::request::{Body, Method, ReqBody, Request, Route, Upload};
use super::{files, inbox, save, Caller, Store};
use crate::context::ContextError;
use crate::document::Document;
use crate::error::{ApiError, ErrorCode, Loc, ValidationError};
use crate::http::{error, method_not_allowed, not_found_id, one, unknown_path, Answer};
use crate::lifecycle;
use crate::validate::lax_bool;
use serde_json::{json, Value};
use std::sync::Arc;

/// Answers a request its caller authenticated (`caller`): the route its path names
/// (404 when none, 405 when the path does not take the method), then the operation.
/// `/auth/token` is the caller's own: it answers 405 here for any method but the
/// caller's. A storage error answers 500 `internal_error` at `[]`, alone; the caller
/// rolls its unit of work back on any answer of 500.
pub fn dispatch(store: &mut dyn Store, caller: Caller, req: &Request) -> Out {
    let Some(route) = req.route() else {
        return json_out(unknown_path());
    };
    if !route.allows(&req.method) || req.method == Method::Set {
        return json_out(method_not_allowed(req.method.as_str()));
    }
    match operation(store, caller, req, route) {
        Ok(out) => out,
        Err(ContextError(_)) => json_out(crate::http::internal_error()),
    }
}

/// The operation of a route the method is allowed on.
fn operation(
    store: &mut dyn Store,
    caller: Caller,
    req: &Request,
    route: Route,
) -> Result<Out, ContextError> {
    let answer = match route {
        Route::Documents => return create(store, caller, req),
        Route::Document(id) if req.method == Method::Get => {
            if store.issued(&id)?.is_some() {
                return Ok((200, Reply::Stored(id)));
            }
            match store.received(&id)? {
                Some(r) => (200, r.to_json()),
                None => not_found_id("document", &id),
            }
        }
        Route::Document(id) => return patch(store, caller, &id, &req.body),
        Route::DocumentSend(id) => return send(store, caller, &id, &req.body.read()),
        Route::DocumentAttachments(id) => return attach(store, caller, &id, req),
        Route::DocumentUbl(id) => ubl_of(store, &id)?,
        Route::DocumentPdf(id) => files::pdf_answer(store, &id)?,
        Route::DeliveryLocations => return Ok(locations_of(req)),
        Route::DeliveryLocation(id) => store.location_record(&id)?.map_or_else(
            || not_found_id("delivery location", &id),
            |text| (200, record_value(&text)),
        ),
        Route::Relation(id) => store.relation_record(&id)?.map_or_else(
            || not_found_id("relation", &id),
            |text| (200, record_value(&text)),
        ),
        Route::Journal(id) => store
            .journal_record(&id)?
            .map_or_else(|| not_found_id("journal", &id), |rec| (200, rec)),
        Route::Branding(id) => designate_branding(store, caller, &id, &req.body.read())?,
        Route::Token => method_not_allowed(req.method.as_str()),
    };
    Ok(json_out(answer))
}

/// `GET /delivery-locations?relation_id=ID`: the relation's saved locations.
fn locations_of(req: &Request) -> Out {
    match req.query_param("relation_id") {
        Some(relation_id) => (200, Reply::Locations(relation_id.to_owned())),
        None => json_out(one(
            ErrorCode::Missing,
            Loc::root("query").key("relation_id"),
            "the relation_id query parameter is required",
        )),
    }
}

/// A create with the id `id`.
fn create_as(
    store: &dyn Store,
    caller: Caller,
    req: &Request,
    id: &str,
) -> Result<lifecycle::Created, ApiError> {
    let send_peppol = req.query_param("send_peppol");
    let perms = caller.permissions;
    match &req.body {
        ReqBody::Json(text) => {
            lifecycle::create_bytes(store, perms, send_peppol, text.as_bytes(), id)
        }
        ReqBody::Read(body) => lifecycle::create(store, perms, send_peppol, body.json(), id),
    }
}

/// `POST /documents[?send_peppol=…]`: the document is created with the id the store
/// expects, and created again in the rare case the id it then takes differs (see the
/// module's decisions).
fn create(store: &mut dyn Store, caller: Caller, req: &Request) -> Result<Out, ContextError> {
    let expected = store.document_id(caller.sandbox, false)?;
    let attempt = create_as(store, caller, req, &expected);
    if let ReqBody::Read(Body::Invalid { text, reason }) = &req.body {
        return Ok(json_out(invalid_body_answer(attempt, text, reason, true)));
    }
    let mut created = match attempt {
        Ok(created) => created,
        Err(e) => return Ok(json_out(error(&e))),
    };
    let id = store.document_id(caller.sandbox, true)?;
    if id != expected {
        created = match create_as(store, caller, req, &id) {
            Ok(created) => created,
            Err(e) => return Ok(json_out(error(&e))),
        };
    }
    if caller.sandbox {
        return Ok(match &created.send_error {
            Some(e) => json_out(error(e)),
            None => (201, Reply::Document(Box::new(created.document))),
        });
    }
    store.commit_number(&created.number)?;
    let answer = match &created.send_error {
        Some(e) => json_out(error(e)),
        None => (201, Reply::Stored(id)),
    };
    save::save(store, created.document)?;
    Ok(answer)
}

/// `PATCH /documents/{id}`.
fn patch(
    store: &mut dyn Store,
    caller: Caller,
    id: &str,
    body: &ReqBody,
) -> Result<Out, ContextError> {
    store.lock_document(id)?;
    let Some(stored) = store.issued(id)? else {
        return inbox::patch_received(store, caller, id, &body.read()).map(json_out);
    };
    let perms = caller.permissions;
    let attempt = match body {
        ReqBody::Json(text) => lifecycle::patch_bytes(store, perms, &stored, text.as_bytes()),
        ReqBody::Read(body) => lifecycle::patch(store, perms, &stored, body.json()),
    };
    drop(stored);
    let invalid = match body {
        ReqBody::Read(Body::Invalid { text, reason }) => Some((text.as_str(), reason.as_str())),
        ReqBody::Read(_) | ReqBody::Json(_) => None,
    };
    keep(store, caller, id, attempt, invalid)
}

/// `POST /documents/{id}/send`.
fn send(store: &mut dyn Store, caller: Caller, id: &str, body: &Body) -> Result<Out, ContextError> {
    store.lock_document(id)?;
    let Some(stored) = store.issued(id)? else {
        if store.received(id)?.is_some() {
            let e = lifecycle::send_received(caller.permissions, id, body.json());
            return Ok(json_out(match body {
                Body::Invalid { text, reason } => {
                    invalid_body_answer::<()>(Err(e), text, reason, false)
                }
                _ => error(&e),
            }));
        }
        return Ok(json_out(not_found_id("document", id)));
    };
    let attempt = lifecycle::send(store, caller.permissions, &stored, body.json());
    drop(stored);
    let invalid = match body {
        Body::Invalid { text, reason } => Some((text.as_str(), reason.as_str())),
        Body::Absent | Body::Json(_) => None,
    };
    keep(store, caller, id, attempt, invalid)
}

/// Answers an updated document, stored when the caller is live.
fn keep(
    store: &mut dyn Store,
    caller: Caller,
    id: &str,
    attempt: Result<Document, ApiError>,
    invalid: Option<(&str, &str)>,
) -> Result<Out, ContextError> {
    if let Some((text, reason)) = invalid {
        return Ok(json_out(invalid_body_answer(attempt, text, reason, false)));
    }
    Ok(match attempt {
        Ok(doc) if caller.sandbox => (200, Reply::Document(Box::new(doc))),
        Ok(doc) => {
            save::save(store, doc)?;
            (200, Reply::Stored(id.to_owned()))
        }
        Err(e) => json_out(error(&e)),
    })
}

/// `PATCH /brandings/{id}`: designates the default branding (`is_default`, which
/// must mean true); any other key is read-only.
fn designate_branding(
    store: &mut dyn Store,
    caller: Caller,
    id: &str,
    body: &Body,
) -> Result<Answer, ContextError> {
    let Some(record) = store.branding_record(id)? else {
        return Ok(not_found_id("branding", id));
    };
    if !caller.permissions.update {
        return Ok(error(&ApiError::permission_denied(
            "changing a branding needs the u permission",
        )));
    }
    let fields = match body.required() {
        Err(answer) => return Ok(answer),
        Ok(Value::Object(m)) => m,
        Ok(other) => {
            let err = ValidationError::new(
                ErrorCode::DictType,
                Loc::root("body"),
                "the body must be an object",
            )
            .with_input(other);
            return Ok(error(&err.into()));
        }
    };
    let mut errors = Vec::new();
    let mut designate = false;
    for (key, value) in fields {
        let loc = Loc::root("body").key(key);
        if key != "is_default" {
            errors.push(
                ValidationError::new(
                    ErrorCode::ReadOnly,
                    loc,
                    "only is_default can be changed on a branding",
                )
                .with_input(value),
            );
            continue;
        }
        match lax_bool(value) {
            Some(true) => designate = true,
            Some(false) => errors.push(
                ValidationError::new(
                    ErrorCode::LiteralError,
                    loc,
                    "is_default can only be true: designate another branding instead",
                )
                .with_input(value)
                .with_ctx(json!({"expected": "true"})),
            ),
            None => errors.push(
                ValidationError::new(ErrorCode::BoolParsing, loc, "is_default must be a boolean")
                    .with_input(value),
            ),
        }
    }
    if let Err(e) = ApiError::check(errors) {
        return Ok(error(&e));
    }
    if !designate {
        return Ok((200, record));
    }
    if caller.sandbox {
        let mut record = record;
        if let Value::Object(m) = &mut record {
            m.insert("default".into(), Value::Bool(true));
        }
        return Ok((200, record));
    }
    store.designate_branding(id)?;
    Ok((200, store.branding_record(id)?.unwrap_or(Value::Null)))
}

/// `GET /documents/{id}/ubl` (docs/peppol.md §5): the UBL of the document as it stands
/// and its findings, once its XML is available.
fn ubl_of(store: &mut dyn Store, id: &str) -> Result<Answer, ContextError> {
    let available = match store.issued(id)? {
        Some(doc) => doc.xml_available,
        None => {
            return Ok(match store.received(id)? {
                Some(inbox) => inbox::received_ubl(&inbox, id),
                None => not_found_id("document", id),
            })
        }
    };
    let pdf_wanted = available
        && store.company().embed_pdf_in_ubl
        && store.issued(id)?.is_some_and(|d| d.pdf_available);
    let pdf = if pdf_wanted {
        files::pdf_of(store, id)?
    } else {
        None
    };
    let Some(doc) = store.issued(id)? else {
        return Ok(not_found_id("document", id));
    };
    let relation = store.relation(&doc.relation_id).ok().flatten();
    let location = doc
        .delivery_location_id
        .as_deref()
        .and_then(|l| store.delivery_location(l).ok().flatten());
    let kept = store.attachments(id)?;
    let bytes: Vec<&[u8]> = kept.iter().map(AsRef::as_ref).collect();
    let files = crate::peppol::UblFiles {
        pdf: pdf.as_deref(),
        attachments: &bytes,
    };
    let ubl = match relation.filter(|_| available) {
        Some(r) => crate::peppol::ubl(&doc, store.company(), &r, location.as_ref(), &files),
        None => Ok(None),
    };
    Ok(match ubl {
        Ok(Some(ubl)) => (
            200,
            json!({"xml": ubl.xml, "findings": serde_json::to_value(&ubl.findings).unwrap_or_default()}),
        ),
        Ok(None) => one(
            ErrorCode::XmlNotAvailable,
            Loc::root("path").key("id"),
            &format!(
                "the document {id} has no xml yet: a proforma never has one, another document once its files exist (xml_available)"
            ),
        ),
        Err(e) => error(&ApiError::one(
            ErrorCode::InternalError,
            Loc::default(),
            e.to_string(),
        )),
    })
}

/// Makes the branding at `index` of `records` (id, record) the default: its `default`
/// becomes true, and every other `"default": true` becomes false; the other records
/// are left as they are. The default branding is the first whose record says
/// `"default": true`.
pub fn designate(records: &mut [(String, Value)], index: usize) {
    for (i, (_, record)) in records.iter_mut().enumerate() {
        let was_default = record.get("default") == Some(&Value::Bool(true));
        if i == index || was_default {
            if let Value::Object(m) = record {
                m.insert("default".into(), Value::Bool(i == index));
            }
        }
    }
}

/// `POST /documents/{id}/attachments` (docs/files.md §1): permission `u`, the id, a
/// received document, then the upload rules of [`crate::files::accept`]. A sandbox
/// client gets the live answer and nothing is kept.
fn attach(
    store: &mut dyn Store,
    caller: Caller,
    id: &str,
    req: &Request,
) -> Result<Out, ContextError> {
    if !caller.permissions.update {
        return Ok(json_out(error(&ApiError::permission_denied(
            "attaching a file needs the u permission",
        ))));
    }
    store.lock_document(id)?;
    let Some(doc) = store.issued(id)? else {
        if store.received(id)?.is_some() {
            return Ok(json_out(one(
                ErrorCode::ReceivedDocument,
                Loc::root("path").key("id"),
                &format!("the document {id} was received: it takes no attachment"),
            )));
        }
        return Ok(json_out(not_found_id("document", id)));
    };
    let parsed = match &req.multipart {
        Some(Upload::Parts(parts)) => Ok(parts
            .iter()
            .map(|p| crate::files::Part {
                name: p.name.clone(),
                filename: p.filename.clone(),
                content_type: p.content_type.clone(),
                bytes: &p.bytes,
            })
            .collect()),
        Some(Upload::Http { content_type, body }) => {
            crate::files::multipart::parse(content_type.as_deref(), body)
        }
        None => Err(crate::files::multipart::MultipartError {
            reason: "the request carries no multipart body",
            header: None,
        }),
    };
    let upload = match crate::files::accept(&doc, parsed.as_deref()) {
        Ok(upload) => upload,
        Err(e) => return Ok(json_out(error(&e))),
    };
    let next = upload.attached_to(&doc);
    drop(doc);
    if caller.sandbox {
        return Ok((201, Reply::Document(Box::new(next))));
    }
    store.add_attachment(id, Arc::from(upload.bytes))?;
    save::save(store, next)?;
    Ok((201, Reply::Stored(id.to_owned())))
}
