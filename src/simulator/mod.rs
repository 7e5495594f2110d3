//! The simulator: the whole interface over an in-memory world (docs/scenario.md).
//!
//! A scenario goes in, the responses come out: [`run`] is one pure, deterministic
//! function from the scenario's bytes to `{"responses": [...]}` (or `{"error": "…"}`
//! for a malformed scenario). [`Simulator`] offers the same step by step: load a
//! scenario, then [`Simulator::handle`] one request at a time.
//!
//! The simulator only routes and keeps state; every rule of the interface lives in
//! [`crate::lifecycle`] and [`crate::validate`], which read the world through
//! [`crate::context::Context`] (implemented by [`World`]). Its own rules are those of
//! docs/scenario.md: authentication and tokens, routing (404, 405, 501), the sandbox,
//! the ids it hands out, `TICK`, `SET` and the brandings.
//!
//! Decisions taken where docs/scenario.md is silent:
//! - A request's `method` is read in any case (`get` is `GET`); a `TICK` ignores its
//!   path. A request without `method`, or without `path` (other than `TICK`), is
//!   malformed.
//! - `raw_body` is read as a server reads bytes: an empty text is no body, a text that
//!   is valid JSON is that JSON. `body` and `raw_body` together are malformed.
//! - Path segments and query parameters are percent-decoded (`+` is a space in the
//!   query); a repeated query parameter takes its last value; a path with an empty
//!   segment (`/documents/`) is an unknown path.
//! - A known path answers 405 for a method it does not take before looking its id up;
//!   an unknown id answers 404 before permissions are checked.
//! - `POST /auth/token` also takes a form-encoded `raw_body`
//!   (`client_id=…&client_secret=…`), as OAuth 2.0 clients send it.
//! - A scenario's clients must name their permissions among `c` and `u`; a company's
//!   `exemption_mentions` keys must be VAT codes; any other unknown key inside a
//!   record is ignored.
//! - A relation or delivery location is checked in full at load, then kept as its
//!   compact JSON text (as `serde_json` writes the record: a repeated key once, at its
//!   first place, with its last value) and read into the rules' type when the rules
//!   ask for it. `GET /relations/{id}` and `/delivery-locations` answer that record,
//!   unknown keys included. A world of any size is thus a few strings and indexes.
//!
//! How a scenario's JSON is read, and why each way exists (figures in
//! benches/README.md, issue 12): the scenario's top level and the small records
//! (company, journals, brandings, clients) as a `serde_json::Value`; the requests
//! (`raw`, `request`) and the big lists (relations, delivery locations) left as
//! their text and read one at a time, a record into a tree that borrows its text
//! (`tree`: one allocation a record instead of about 35 as a `Value`; 40 000
//! relations and locations peak at 279 MB instead of 583 MB); a create or PATCH body
//! read from its text in one typed pass ([`crate::lifecycle::create_bytes`]:
//! 7.05 M → 5.60 M instructions for a 500-line create). Each falls back to the `Value`
//! reading for what it does not take, so the answers are those of the `Value` path.

mod auth;
mod documents;
mod files;
pub use crate::app::parse_query;
pub use crate::app::DocumentFiles;
mod inbox;
mod memory;
mod raw;
mod record;
mod records;
mod request;
mod scenario;
mod stream;
mod tree;
mod world;

pub use world::World;

use crate::app::{Caller, Method, Out, Reply, Request, Route};
use crate::document::Document;
use crate::error::{ApiError, ErrorCode, Loc};
use crate::http::{error, method_not_allowed, unknown_path, Body};
use auth::{Clients, Tokens};
pub use memory::Memory;
use serde_json::{json, Value};
use std::collections::HashMap;

/// Why a scenario is malformed: a lowercase message that says what and where, such
/// as `relations[1]: missing id`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ScenarioError(String);

impl ScenarioError {
    /// The message.
    pub fn message(&self) -> &str {
        &self.0
    }

    /// The answer of a malformed scenario: `{"error": "…"}`.
    pub fn to_json(&self) -> Value {
        json!({ "error": self.0 })
    }

    /// Writes the answer of a malformed scenario as [`run_to`] does: `{"error": "…"}`
    /// pretty, then a newline.
    pub fn write_to<W: std::io::Write + ?Sized>(&self, out: &mut W) -> std::io::Result<()> {
        stream::write_pretty_line(out, &self.to_json())
    }
}

/// The records of the scenario as given, answered by the GET endpoints.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Records {
    /// Journals by id.
    pub(crate) journals: HashMap<String, Value>,
    /// Brandings in scenario order: id, record (its `default` kept up to date).
    pub(crate) brandings: records::Brandings,
}

/// A loaded scenario: the core ([`crate::app`]) over an in-memory store, the clients
/// and the tokens issued, and the scenario's requests.
///
/// ```
/// use invoicing_core::simulator::Simulator;
/// use serde_json::json;
/// let scenario = json!({
///     "today": "2026-11-21",
///     "clients": [{"client_id": "app", "client_secret": "s3cret", "permissions": ["c", "u"]}],
///     "relations": [{"id": "rel-acme", "kind": "company", "peppol": true}],
///     "requests": []
/// });
/// let mut sim = Simulator::load(scenario.to_string().as_bytes())?;
/// let (status, body) = sim.handle(&json!({"client": "app", "method": "GET", "path": "/relations/rel-acme"}));
/// assert_eq!(status, 200);
/// assert_eq!(body, json!({"id": "rel-acme", "kind": "company", "peppol": true}));
/// let (status, _) = sim.handle(&json!({"method": "GET", "path": "/relations/rel-acme"}));
/// assert_eq!(status, 401);
/// # Ok::<(), invoicing_core::simulator::ScenarioError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Simulator {
    store: Memory,
    clients: Clients,
    tokens: Tokens,
    requests: Vec<Value>,
}

impl Simulator {
    /// Loads a scenario from its JSON bytes: the world is built and the preloaded
    /// `documents[]` are created; the requests are checked but not run.
    ///
    /// # Errors
    /// Every malformed condition of docs/scenario.md: not JSON, `today` or `requests`
    /// missing, `today`/`now` not a date/date-time, a record without its id, an
    /// unknown top-level key, two records of one kind sharing an id, a preloaded
    /// document id of the form `doc-N`/`sbx-N`, a preloaded create refused, two
    /// default journals in one category, a contact with `payment_terms`; and records or
    /// requests whose keys have the wrong JSON type.
    pub fn load(scenario: &[u8]) -> Result<Simulator, ScenarioError> {
        scenario::load_bytes(scenario)
    }

    /// Loads a scenario already parsed as JSON (see [`Simulator::load`]).
    pub fn from_json(scenario: &Value) -> Result<Simulator, ScenarioError> {
        scenario::load(scenario)
    }

    /// The world as the rules read it (today, company, journals and their counters…).
    pub fn world(&self) -> &World {
        &self.store.world
    }

    /// The store the core answers over: the world of the scenario, its documents and
    /// their files.
    pub fn store(&self) -> &Memory {
        &self.store
    }

    /// The scenario's requests, as given.
    pub fn requests(&self) -> &[Value] {
        &self.requests
    }

    /// The stored document with this id, if any (sandbox documents never are).
    pub fn document(&self, id: &str) -> Option<&Document> {
        self.store.documents.get(id)
    }

    /// Every document the world keeps, in its stored form ([`crate::stored`]): the
    /// issued ones in the order of their ids, then the received ones in the order of
    /// theirs. A server seeds its database with them.
    pub fn stored_documents(&self) -> Vec<crate::stored::StoredDocument> {
        use crate::stored::StoredDocument;
        let issued = self
            .store
            .documents
            .iter()
            .cloned()
            .map(StoredDocument::Issued);
        let received = self
            .store
            .received
            .values()
            .map(|r| StoredDocument::Received(Box::new(r.clone())));
        issued.chain(received).collect()
    }

    /// The files the world keeps for document `id`: its attachments' bytes in order,
    /// and its PDF when one is rendered (or came with it).
    pub fn files_of(&self, id: &str) -> DocumentFiles {
        crate::app::files_of(&self.store, id).unwrap_or_default()
    }

    /// Every branding of the scenario: id and record (its `default` up to date), in
    /// scenario order (a server seeding its database keeps them).
    pub fn brandings(&self) -> Vec<(String, Value)> {
        self.store.records.brandings.all().to_vec()
    }

    /// The ids handed out so far: the successful creates of live clients (`doc-N`)
    /// and of sandbox ones (`sbx-N`). A server seeding its database goes on after them.
    pub fn created(&self) -> (u64, u64) {
        (self.store.created_live, self.store.created_sandbox)
    }

    /// The id of each branding that owes a document's PDF its page, for a server
    /// seeding its database: the documents whose PDF is owed, with the branding
    /// (`None`: a plain page).
    pub fn owed_pdfs(&self) -> Vec<(String, Option<String>)> {
        let mut owed: Vec<(String, Option<String>)> = self
            .store
            .files
            .pdfs
            .iter()
            .filter_map(|(id, pdf)| match pdf {
                crate::app::Pdf::Owed(b) => Some((id.clone(), b.clone())),
                _ => None,
            })
            .collect();
        owed.sort_unstable();
        owed
    }

    /// Handles one HTTP request: its method, its target (path and query), its
    /// `authorization` and `content-type` headers and its body bytes; `TICK` and `SET`
    /// are the methods of the back office (docs/scenario.md). The answer is the one
    /// [`Simulator::handle`] gives for the same request in a scenario. An upload
    /// (`POST /documents/{id}/attachments`) reads the body as `multipart/form-data`.
    pub fn handle_http(
        &mut self,
        method: &str,
        target: &str,
        authorization: Option<&str>,
        content_type: Option<&str>,
        body: &[u8],
    ) -> (u16, Value) {
        let req = Request::http(method, target, None, authorization, content_type, body);
        let (status, reply) = self.dispatch(&req);
        (status, self.reply_value(reply))
    }

    /// [`Simulator::handle_http`] for a caller the server has authenticated itself
    /// (its own tokens): the request is the named client's, as a scenario request
    /// with `client` is; `None` answers as a request without credentials.
    pub fn handle_http_as(
        &mut self,
        client: Option<&str>,
        method: &str,
        target: &str,
        content_type: Option<&str>,
        body: &[u8],
    ) -> (u16, Value) {
        let req = Request::http(method, target, client, None, content_type, body);
        let (status, reply) = self.dispatch(&req);
        (status, self.reply_value(reply))
    }

    /// Sets the clock: "today" and the current instant the rules read (a scenario's
    /// are its `today` and `now`).
    pub fn set_clock(&mut self, today: chrono::NaiveDate, now: chrono::DateTime<chrono::Utc>) {
        self.store.world.today = today;
        self.store.world.now = now;
    }

    /// Every client of the scenario: id, secret, whether it is a sandbox client, and
    /// its permissions (a server seeding its database keeps them).
    pub fn clients(&self) -> Vec<(String, String, Caller)> {
        (0..)
            .map_while(|i| self.clients.get(i))
            .map(|c| {
                let caller = Caller {
                    sandbox: c.sandbox,
                    permissions: c.permissions,
                };
                (c.id.clone(), c.secret.clone(), caller)
            })
            .collect()
    }

    /// Runs the scenario's own requests in order and answers
    /// `{"responses": [{"status", "body"}, …]}`: what [`Simulator::run_requests_to`]
    /// writes, read back (one pipeline); the requests are kept.
    pub fn run_requests(&mut self) -> Value {
        let requests = self.requests.clone();
        let mut out = Vec::new();
        let written = self.run_requests_to(&mut out);
        self.requests = requests;
        match (written, crate::json::from_slice(&out)) {
            (Ok(()), Ok(answer)) => answer,
            (Err(e), _) => json!({ "error": format!("cannot write the answer: {e}") }),
            (Ok(()), Err(e)) => json!({ "error": format!("the answer is not JSON: {e}") }),
        }
    }

    /// Runs the scenario's own requests in order and writes each response to `out` as
    /// soon as it is answered: the bytes of `serde_json::to_string_pretty` of
    /// [`Simulator::run_requests`]'s answer, then a newline. Only the world is held:
    /// each request is dropped once answered, each response once written, so the
    /// requests are consumed ([`Simulator::requests`] is empty afterwards). `out` gets
    /// many small writes: give it a buffered writer.
    ///
    /// ```
    /// use invoicing_core::simulator::Simulator;
    /// let mut sim = Simulator::load(br#"{"today": "2026-11-21", "requests": [{"method": "TICK"}]}"#)?;
    /// let mut out = Vec::new();
    /// sim.run_requests_to(&mut out).expect("a Vec takes every byte");
    /// let text = "{\n  \"responses\": [\n    {\n      \"status\": 200,\n      \"body\": {}\n    }\n  ]\n}\n";
    /// assert_eq!(String::from_utf8_lossy(&out), text);
    /// # Ok::<(), invoicing_core::simulator::ScenarioError>(())
    /// ```
    pub fn run_requests_to<W: std::io::Write + ?Sized>(
        &mut self,
        out: &mut W,
    ) -> std::io::Result<()> {
        let requests = std::mem::take(&mut self.requests);
        stream::write_responses(out, requests, |request, responses| {
            self.write_answer(Request::from_json(&request), responses)
        })
    }

    /// Handles one request (an object as in a scenario's `requests[]`) and answers its
    /// status and body. A request object that is itself malformed (no method, a
    /// non-string path…) answers 400 `{"error": "…"}`; [`Simulator::load`] refuses
    /// such requests in a scenario, so [`run`] never answers 400.
    pub fn handle(&mut self, request: &Value) -> (u16, Value) {
        let (status, reply) = self.answer(Request::from_json(request));
        (status, self.reply_value(reply))
    }

    /// The answer to a request as read: 400 for a request object that is malformed.
    fn answer(&mut self, request: Result<Request, String>) -> Out {
        match request {
            Ok(req) => self.dispatch(&req),
            Err(e) => (
                400,
                Reply::Json(json!({ "error": format!("request: {e}") })),
            ),
        }
    }

    /// Answers one request: the back office (`TICK`, `SET`) and `/auth/token` first,
    /// then the client is authenticated, then the core answers.
    fn dispatch(&mut self, req: &Request) -> Out {
        let json = |(status, body): (u16, Value)| (status, Reply::Json(body));
        if req.method == Method::Tick {
            return crate::app::tick_all(&mut self.store);
        }
        let route = req.route();
        if req.method == Method::Set {
            return match route {
                Some(Route::Document(id)) => {
                    crate::app::set(&mut self.store, &id, &req.body.read())
                }
                Some(_) => json(method_not_allowed(req.method.as_str())),
                None => json(unknown_path()),
            };
        }
        if route == Some(Route::Token) {
            return json(if req.method == Method::Post {
                self.token(&req.body.read())
            } else {
                method_not_allowed(req.method.as_str())
            });
        }
        match self.authenticate(req) {
            Ok(caller) => crate::app::dispatch(&mut self.store, caller, req),
            Err(e) => json(error(&e)),
        }
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
    fn token(&mut self, body: &Body) -> crate::http::Answer {
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

    /// Answers a request as read, and writes the response.
    fn write_answer<W: std::io::Write + ?Sized>(
        &mut self,
        request: Result<Request, String>,
        responses: &mut stream::Responses<'_, W>,
    ) -> std::io::Result<()> {
        let (status, reply) = self.answer(request);
        match &reply {
            Reply::Json(body) => responses.write(status, body),
            Reply::Document(doc) => responses.write(status, &crate::document::Response(doc)),
            Reply::Stored(id) => match self.store.documents.get(id) {
                Some(doc) => responses.write(status, &crate::document::Response(doc)),
                None => responses.write(status, &Value::Null),
            },
            Reply::Locations(relation_id) => {
                responses.write_records(status, self.store.world.locations.texts_of(relation_id))
            }
        }
    }

    /// A response's body as a value.
    fn reply_value(&self, reply: Reply) -> Value {
        // The memory store never fails.
        reply.to_value(&self.store).unwrap_or(Value::Null)
    }
}

/// Runs a scenario (docs/scenario.md): `{"responses": [{"status", "body"}, …]}`, one
/// response per request in order, or `{"error": "…"}` when the scenario is
/// malformed. Never panics, whatever the bytes.
///
/// ```
/// use invoicing_core::simulator::run;
/// use serde_json::json;
/// let out = run(br#"{"today": "2026-11-21", "requests": [{"method": "TICK"}]}"#);
/// assert_eq!(out, json!({"responses": [{"status": 200, "body": {}}]}));
/// assert_eq!(run(b"{}"), json!({"error": "missing today"}));
/// ```
pub fn run(scenario: &[u8]) -> Value {
    // One pipeline: the answer is what `run_to` writes, read back. Writing into a
    // `Vec` cannot fail, and `run_to` writes JSON (its own tests and the fuzz target
    // `simulator` hold it to that); the error is the type's fallback, never an answer.
    let mut out = Vec::new();
    let written = run_to(scenario, &mut out);
    match (written, crate::json::from_slice(&out)) {
        (Ok(_), Ok(answer)) => answer,
        (Err(e), _) => serde_json::json!({ "error": format!("cannot write the answer: {e}") }),
        (Ok(_), Err(e)) => serde_json::json!({ "error": format!("the answer is not JSON: {e}") }),
    }
}

/// Runs a scenario as [`run`] does and writes its answer to `out` response by
/// response, as each is answered: exactly the bytes of
/// `serde_json::to_string_pretty(&run(scenario))` followed by a newline. Only the
/// world and the scenario's bytes are held: each request is read from its text when
/// it is answered (a create or PATCH body straight from its text, in one typed pass,
/// [`crate::lifecycle::create_bytes`]), and each response is written from what it
/// answers (a document from its fields, never through a `Value`), then dropped.
/// Never panics, whatever the
/// bytes. `Ok(Err(e))` when the scenario is malformed (its answer `{"error": "…"}` is
/// written); `Err` only for an error of `out`. `out` gets many small writes: give it
/// a buffered writer.
///
/// ```
/// use invoicing_core::simulator::{run, run_to};
/// let scenario = br#"{"today": "2026-11-21", "requests": [{"method": "TICK"}]}"#;
/// let mut out = Vec::new();
/// run_to(scenario, &mut out).expect("a Vec takes every byte").expect("a valid scenario");
/// let pretty = serde_json::to_string_pretty(&run(scenario)).expect("json");
/// assert_eq!(out, format!("{pretty}\n").into_bytes());
/// ```
pub fn run_to<W: std::io::Write + ?Sized>(
    scenario: &[u8],
    out: &mut W,
) -> std::io::Result<Result<(), ScenarioError>> {
    let loaded = match raw::load(scenario) {
        Some(Ok((mut sim, requests))) => {
            stream::write_responses(out, requests, |request, responses| {
                sim.write_answer(Request::from_text(request.get()), responses)
            })?;
            return Ok(Ok(()));
        }
        Some(Err(e)) => Err(e),
        None => Simulator::load(scenario),
    };
    match loaded {
        Ok(mut sim) => sim.run_requests_to(out).map(Ok),
        Err(e) => e.write_to(out).map(|()| Err(e)),
    }
}
