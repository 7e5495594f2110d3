//! The endpoints of docs/scenario.md's table: authentication first, then routing (404,
//! 405), then the endpoint, which hands the rules to [`crate::lifecycle`] and keeps
//! what a live client writes.

use super::request::{parse_query, Body, Method, ReqBody, Request, Route};
use super::Simulator;
use crate::context::Context as _;
use crate::context::Permissions;
use crate::document::Document;
use crate::error::{ApiError, ErrorCode, Loc, ValidationError};
use crate::lifecycle;
use crate::validate::lax_bool;
use serde_json::{json, Value};

pub(super) use crate::http::{error, not_found_id, one, Answer};
use crate::http::{method_not_allowed, unknown_path};

/// A response's body: JSON, or a document, written from its fields when the answer
/// is written (a document is never turned into a `Value` on its way out).
#[derive(Debug)]
pub(super) enum Reply {
    /// A JSON body.
    Json(Value),
    /// A document not kept (a sandbox create or change).
    Document(Box<Document>),
    /// The stored document with this id, as it stands when the answer is written.
    Stored(String),
    /// The delivery locations of this relation, written from their records.
    Locations(String),
}

/// A response: status and body.
pub(super) type Out = (u16, Reply);

/// A JSON answer as a response.
pub(super) fn json_out((status, body): Answer) -> Out {
    (status, Reply::Json(body))
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

/// The client a request acts for.
#[derive(Debug, Clone, Copy)]
pub(super) struct Caller {
    pub(super) sandbox: bool,
    pub(super) permissions: Permissions,
}

/// The answer to a body that is not JSON, sent to a lifecycle function called with no
/// body ([`ApiError::body_not_json`], the crate's one body policy).
fn invalid_body_answer<T>(
    attempt: Result<T, ApiError>,
    text: &str,
    reason: &str,
    keep_other_errors: bool,
) -> Answer {
    error(&ApiError::body_not_json(
        attempt,
        ValidationError::json_invalid(text, reason),
        keep_other_errors,
    ))
}

impl Simulator {
    /// Answers one request.
    pub(super) fn dispatch(&mut self, req: &Request) -> Out {
        if req.method == Method::Tick {
            return json_out(self.tick());
        }
        let route = req.segments.as_deref().and_then(Route::parse);
        if req.method == Method::Set {
            // Back office: no client.
            return match route {
                Some(Route::Document(id)) => self.set(&id, &req.body.read()),
                Some(_) => json_out(method_not_allowed(req.method.as_str())),
                None => json_out(unknown_path()),
            };
        }
        if route == Some(Route::Token) {
            return json_out(if req.method == Method::Post {
                self.token(&req.body.read())
            } else {
                method_not_allowed(req.method.as_str())
            });
        }
        let caller = match self.authenticate(req) {
            Ok(caller) => caller,
            Err(e) => return json_out(error(&e)),
        };
        let Some(route) = route else {
            return json_out(unknown_path());
        };
        if !route.allows(&req.method) {
            return json_out(method_not_allowed(req.method.as_str()));
        }
        let answer = match route {
            Route::Documents => return self.create(caller, req),
            Route::Document(id) if req.method == Method::Get => {
                if self.documents.get(&id).is_some() {
                    return (200, Reply::Stored(id));
                }
                match self.received.get(&id) {
                    Some(r) => (200, r.to_json()),
                    None => not_found_id("document", &id),
                }
            }
            Route::Document(id) => return self.patch(caller, &id, &req.body),
            Route::DocumentSend(id) => return self.send(caller, &id, &req.body.read()),
            Route::DocumentAttachments(id) => return self.attach(caller, &id, req),
            Route::DocumentUbl(id) => self.ubl_of(&id),
            Route::DocumentPdf(id) => self.pdf_answer(&id),
            Route::DeliveryLocations => return locations_of(req),
            Route::DeliveryLocation(id) => self.world.locations.get(&id).map_or_else(
                || not_found_id("delivery location", &id),
                |text| (200, super::records::record_value(text)),
            ),
            Route::Relation(id) => self.world.relations.get(&id).map_or_else(
                || not_found_id("relation", &id),
                |text| (200, super::records::record_value(text)),
            ),
            Route::Journal(id) => self
                .records
                .journals
                .get(&id)
                .map_or_else(|| not_found_id("journal", &id), |rec| (200, rec.clone())),
            Route::Branding(id) => self.designate_branding(caller, &id, &req.body.read()),
            Route::Token => method_not_allowed(req.method.as_str()),
        };
        json_out(answer)
    }

    /// The client of a request: named by `client` (headers then ignored), or
    /// authenticated by `Authorization: Bearer <access token>`.
    fn authenticate(&self, req: &Request) -> Result<Caller, ApiError> {
        let index = if let Some(name) = &req.client {
            self.clients.position(name).ok_or_else(|| {
                ApiError::one(
                    ErrorCode::InvalidClient,
                    Loc::authorization(),
                    format!("no client named {name:?}"),
                )
            })?
        } else if let Some(authorization) = &req.authorization {
            self.tokens.authenticate(authorization)?
        } else {
            return Err(ApiError::one(
                ErrorCode::NotAuthenticated,
                Loc::authorization(),
                "no credentials: send authorization: bearer <access token>",
            ));
        };
        let client = self.clients.get(index).ok_or_else(|| {
            ApiError::one(
                ErrorCode::InvalidToken,
                Loc::authorization(),
                "the token's client is gone",
            )
        })?;
        Ok(Caller {
            sandbox: client.sandbox,
            permissions: client.permissions,
        })
    }

    /// `POST /auth/token`: a client pair in, an access and a refresh token out.
    fn token(&mut self, body: &Body) -> Answer {
        let refused = crate::http::invalid_client;
        let pair = match body {
            Body::Json(Value::Object(m)) => match (m.get("client_id"), m.get("client_secret")) {
                (Some(Value::String(id)), Some(Value::String(secret))) => {
                    Some((id.clone(), secret.clone()))
                }
                _ => None,
            },
            Body::Invalid { text, .. } => {
                let form = parse_query(text);
                let get = |k: &str| {
                    form.iter()
                        .rev()
                        .find(|(key, _)| key == k)
                        .map(|(_, v)| v.clone())
                };
                get("client_id").zip(get("client_secret"))
            }
            Body::Json(_) | Body::Absent => None,
        };
        let Some((id, secret)) = pair else {
            return refused();
        };
        let Some(index) = self
            .clients
            .position(&id)
            .filter(|&i| self.clients.get(i).is_some_and(|c| c.secret == secret))
        else {
            return refused();
        };
        let (access, refresh) = self.tokens.issue(index, &id);
        crate::http::token(&access, &refresh)
    }

    /// `POST /documents[?send_peppol=…]`.
    fn create(&mut self, caller: Caller, req: &Request) -> Out {
        let id = if caller.sandbox {
            format!("sbx-{}", self.created_sandbox.saturating_add(1))
        } else {
            format!("doc-{}", self.created_live.saturating_add(1))
        };
        let send_peppol = req.query_param("send_peppol");
        let (perms, world) = (caller.permissions, &self.world);
        let attempt = match &req.body {
            ReqBody::Json(text) => {
                lifecycle::create_bytes(world, perms, send_peppol, text.as_bytes(), &id)
            }
            ReqBody::Read(body) => lifecycle::create(world, perms, send_peppol, body.json(), &id),
        };
        if let ReqBody::Read(Body::Invalid { text, reason }) = &req.body {
            return json_out(invalid_body_answer(attempt, text, reason, true));
        }
        let created = match attempt {
            Ok(created) => created,
            Err(e) => return json_out(error(&e)),
        };
        if caller.sandbox {
            self.created_sandbox = self.created_sandbox.saturating_add(1);
            return match &created.send_error {
                Some(e) => json_out(error(e)),
                None => (201, Reply::Document(Box::new(created.document))),
            };
        }
        self.created_live = self.created_live.saturating_add(1);
        self.world.advance(&created.number);
        let answer = match &created.send_error {
            Some(e) => json_out(error(e)),
            None => (201, Reply::Stored(id.clone())),
        };
        self.store(id, created.document);
        answer
    }

    /// `PATCH /documents/{id}`.
    fn patch(&mut self, caller: Caller, id: &str, body: &ReqBody) -> Out {
        let Some(stored) = self.documents.get(id) else {
            return json_out(self.patch_received(caller, id, &body.read()));
        };
        let (perms, world) = (caller.permissions, &self.world);
        let attempt = match body {
            ReqBody::Json(text) => lifecycle::patch_bytes(world, perms, stored, text.as_bytes()),
            ReqBody::Read(body) => lifecycle::patch(world, perms, stored, body.json()),
        };
        let invalid = match body {
            ReqBody::Read(Body::Invalid { text, reason }) => Some((text.as_str(), reason.as_str())),
            ReqBody::Read(_) | ReqBody::Json(_) => None,
        };
        self.keep(caller, id, attempt, invalid)
    }

    /// PATCH of a received document: `paid_amount` only (docs/peppol.md §4).
    fn patch_received(&mut self, caller: Caller, id: &str, body: &Body) -> Answer {
        let Some(inbox) = self.received.get(id) else {
            return not_found_id("document", id);
        };
        let current = inbox.to_json();
        let attempt =
            lifecycle::patch_received(caller.permissions, &inbox.document, &current, body.json());
        if let Body::Invalid { text, reason } = body {
            return invalid_body_answer(attempt, text, reason, false);
        }
        match attempt {
            Ok(doc) => {
                let mut next = inbox.clone();
                next.document = doc;
                let answer = (200, next.to_json());
                if !caller.sandbox {
                    self.received.insert(id.to_owned(), next);
                    self.documents.written.insert(id.to_owned());
                }
                answer
            }
            Err(e) => error(&e),
        }
    }

    /// `POST /documents/{id}/send`.
    fn send(&mut self, caller: Caller, id: &str, body: &Body) -> Out {
        let Some(stored) = self.documents.get(id) else {
            if self.received.contains_key(id) {
                let e = lifecycle::send_received(caller.permissions, id, body.json());
                return json_out(match body {
                    Body::Invalid { text, reason } => {
                        invalid_body_answer::<()>(Err(e), text, reason, false)
                    }
                    _ => error(&e),
                });
            }
            return json_out(not_found_id("document", id));
        };
        let attempt = lifecycle::send(&self.world, caller.permissions, stored, body.json());
        let invalid = match body {
            Body::Invalid { text, reason } => Some((text.as_str(), reason.as_str())),
            Body::Absent | Body::Json(_) => None,
        };
        self.keep(caller, id, attempt, invalid)
    }

    /// Answers an updated document, stored when the caller is live.
    fn keep(
        &mut self,
        caller: Caller,
        id: &str,
        attempt: Result<Document, ApiError>,
        invalid: Option<(&str, &str)>,
    ) -> Out {
        if let Some((text, reason)) = invalid {
            return json_out(invalid_body_answer(attempt, text, reason, false));
        }
        match attempt {
            Ok(doc) if caller.sandbox => (200, Reply::Document(Box::new(doc))),
            Ok(doc) => {
                self.store(id.to_owned(), doc);
                (200, Reply::Stored(id.to_owned()))
            }
            Err(e) => json_out(error(&e)),
        }
    }

    /// `PATCH /brandings/{id}`: designates the default branding (`is_default`, which
    /// must mean true); any other key is read-only.
    fn designate_branding(&mut self, caller: Caller, id: &str, body: &Body) -> Answer {
        let Some(index) = self.records.brandings.position(id) else {
            return not_found_id("branding", id);
        };
        if !caller.permissions.update {
            return error(&ApiError::permission_denied(
                "changing a branding needs the u permission",
            ));
        }
        let fields = match body.required() {
            Err(answer) => return answer,
            Ok(Value::Object(m)) => m,
            Ok(other) => {
                let err = ValidationError::new(
                    ErrorCode::DictType,
                    Loc::root("body"),
                    "the body must be an object",
                )
                .with_input(other);
                return error(&err.into());
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
                    ValidationError::new(
                        ErrorCode::BoolParsing,
                        loc,
                        "is_default must be a boolean",
                    )
                    .with_input(value),
                ),
            }
        }
        if let Err(e) = ApiError::check(errors) {
            return error(&e);
        }
        if !designate {
            return (200, self.branding(index));
        }
        if caller.sandbox {
            let mut record = self.branding(index);
            if let Value::Object(m) = &mut record {
                m.insert("default".into(), Value::Bool(true));
            }
            return (200, record);
        }
        self.records.brandings.designate(index);
        (200, self.branding(index))
    }

    /// The record of the branding at `index`.
    fn branding(&self, index: usize) -> Value {
        self.records
            .brandings
            .get(index)
            .map_or(Value::Null, Clone::clone)
    }

    /// `GET /documents/{id}/ubl` (docs/peppol.md §5): the UBL of the document as it stands
    /// and its findings, once its XML is available.
    fn ubl_of(&mut self, id: &str) -> Answer {
        let Some(doc) = self.documents.get(id) else {
            return match self.received.get(id) {
                Some(inbox) => Simulator::received_ubl(inbox, id),
                None => not_found_id("document", id),
            };
        };
        let available = doc.xml_available;
        let pdf = if available && doc.pdf_available && self.world.company.embed_pdf_in_ubl {
            self.pdf_of(id)
        } else {
            None
        };
        let Some(doc) = self.documents.get(id) else {
            return not_found_id("document", id);
        };
        let relation = self.world.relation(&doc.relation_id).ok().flatten();
        let location = doc
            .delivery_location_id
            .as_deref()
            .and_then(|l| self.world.delivery_location(l).ok().flatten());
        let kept = self.files.attachments_of(id);
        let bytes: Vec<&[u8]> = kept.iter().map(AsRef::as_ref).collect();
        let files = crate::peppol::UblFiles {
            pdf: pdf.as_deref(),
            attachments: &bytes,
        };
        let ubl = match relation.filter(|_| available) {
            Some(r) => crate::peppol::ubl(doc, &self.world.company, &r, location.as_ref(), &files),
            None => Ok(None),
        };
        match ubl {
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
            Err(e) => error(&crate::error::ApiError::one(
                ErrorCode::InternalError,
                Loc::default(),
                e.to_string(),
            )),
        }
    }
}
