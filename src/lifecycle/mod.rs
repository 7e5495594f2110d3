//! Create, PATCH and send as pure functions over a [`Context`], the client's
//! [`Permissions`] and, for PATCH and send, the stored [`Document`]
//! (decisions.md §5, §6, §7). Nothing is written here: the caller stores what
//! these functions return, and advances the journal counter a create drew.
//!
//! Checks run in two layers (decisions.md §9): the shape of every field, then the
//! rules that read other fields or the context, each only when the fields it reads
//! are valid. Every error of both layers is answered at once. Permissions come
//! first: a 403 carries no 422s.
//!
//! # Example: a server's create
//!
//! A server implements [`Context`] over its storage, calls [`create`] with the
//! request's body, then stores the document and commits the drawn number.
//!
//! ```
//! use chrono::{DateTime, NaiveDate, Utc};
//! use invoicing_core::context::{Company, Context, DeliveryLocation, Journal, Permissions, Relation, RelationKind};
//! use invoicing_core::lifecycle::create;
//! use invoicing_core::numbering::{JournalCategory, Numbering, Window};
//! use serde_json::json;
//!
//! struct Db { company: Company }
//!
//! impl Context for Db {
//!     fn today(&self) -> NaiveDate { NaiveDate::from_ymd_opt(2026, 11, 21).unwrap() }
//!     fn now(&self) -> DateTime<Utc> { DateTime::from_timestamp(1_795_219_200, 0).unwrap() }
//!     fn company(&self) -> &Company { &self.company }
//!     fn relation(&self, id: &str) -> Option<Relation> {
//!         (id == "rel-acme").then(|| Relation {
//!             id: id.into(), kind: RelationKind::Company, payment_terms: "30-fm".parse().ok(), peppol: true,
//!             party: Default::default(),
//!         })
//!     }
//!     fn journal(&self, id: &str) -> Option<Journal> {
//!         (id == "jrn-sales").then(|| Journal {
//!             id: id.into(), category: JournalCategory::SalesInvoice, numbering: Numbering::Yearly, prefix: "INV".into(),
//!         })
//!     }
//!     fn default_journal(&self, c: JournalCategory) -> Option<Journal> {
//!         if c == JournalCategory::SalesInvoice { self.journal("jrn-sales") } else { None }
//!     }
//!     fn delivery_location(&self, _id: &str) -> Option<DeliveryLocation> { None }
//!     fn next_sequence(&self, _journal: &Journal, _window: Window) -> u64 { 1 }
//! }
//!
//! let db = Db { company: Company::default() };
//! let body = json!({
//!     "type": "sale_invoice",
//!     "relation_id": "rel-acme",
//!     "lines": [{"item_name": "Widget", "quantity": 2, "unit_price": 9.99, "vat_rate": 21}]
//! });
//! let created = create(&db, Permissions::ALL, None, Some(&body), "doc-1")?;
//! assert_eq!(created.document.document_number, "INV2026-0001");
//! assert_eq!(created.document.to_json()["total_amount"].to_string(), "24.18");
//! assert_eq!(created.number.sequence, 1); // the server advances its counter past it
//!
//! // A refused request answers every error at once, with its location.
//! let bad = json!({"type": "sale_invoice", "relation_id": "rel-x", "lines": [], "order_number": 5});
//! let err = create(&db, Permissions::ALL, None, Some(&bad), "doc-2").unwrap_err();
//! assert_eq!(err.status, 422);
//! let mut codes: Vec<&str> = err.errors.iter().map(|e| e.code.as_str()).collect();
//! codes.sort_unstable(); // the order of the list is not part of the contract
//! assert_eq!(codes, ["relation_not_found", "string_type", "too_short"]);
//! # Ok::<(), invoicing_core::error::ApiError>(())
//! ```

use crate::compute::{self, AllowanceCharge, Computation, ComputeError, PaymentStatus, Position};
use crate::context::{Company, Context, Journal, Permissions, Relation, RelationKind};
use crate::document::{
    AccountingStatus, Document, DocumentType, Exemption, Line, MailStatus, PeppolStatus,
};
use crate::error::{ApiError, ErrorCode, Loc, ValidationError};
use crate::money::Currency;
use crate::numbering::Window;
use crate::remittance::StructuredReference;
use crate::terms::PaymentTerms;
use crate::validate::body::{self, BodyFields, BODY_KEYS, DERIVED_FIELDS};
use crate::validate::fields::{
    check_keys, fields_of, missing, number, one_of, Errors, Field, NumberRule, Slot,
};
use crate::validate::{lax_bool, lax_bool_text};
use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde_json::{json, Map, Value};

/// The number a create drew: the caller advances the journal's counter past it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrawnNumber {
    /// The journal.
    pub journal_id: String,
    /// The counter's window.
    pub window: Window,
    /// The sequence drawn.
    pub sequence: u64,
}

/// A created document.
#[derive(Debug, Clone, PartialEq)]
pub struct Created {
    /// The document, to store.
    pub document: Document,
    /// The number drawn, to commit.
    pub number: DrawnNumber,
    /// Set when `send_peppol` was asked for and the send could not be started: the
    /// document exists all the same (store it), and this is the answer (`send_failed`).
    pub send_error: Option<ApiError>,
}

fn permission_denied(what: &str) -> ApiError {
    ApiError::one(
        ErrorCode::PermissionDenied,
        Loc(vec!["header".into(), "authorization".into()]),
        format!("{what} needs the permission the client lacks"),
    )
}

fn body_loc() -> Loc {
    Loc::root("body")
}

fn at(keys: &[&str]) -> Loc {
    Loc(keys.iter().map(|k| (*k).into()).collect())
}

/// The body as an object, or the error for a missing body or another JSON type.
fn body_object(body: Option<&Value>) -> Result<&Map<String, Value>, ApiError> {
    match body {
        None | Some(Value::Null) => Err(ApiError::one(
            ErrorCode::Missing,
            body_loc(),
            "a json object body is required",
        )),
        Some(Value::Object(obj)) => Ok(obj),
        Some(other) => Err(ValidationError::new(
            ErrorCode::DictType,
            body_loc(),
            "input should be a valid object",
        )
        .with_input(other)
        .into()),
    }
}

/// The location of a computation error in a request body (decisions.md §9).
fn compute_error(e: ComputeError) -> ValidationError {
    let loc = match e.position {
        Position::Line(i) => body_loc().key("lines").index(i),
        Position::LineAllowanceCharge(i, j) => body_loc()
            .key("lines")
            .index(i)
            .key("allowance_charges")
            .index(j),
        Position::AllowanceCharge(j) => body_loc().key("allowance_charges").index(j),
        Position::AllowanceCharges => body_loc().key("allowance_charges"),
        Position::Document => body_loc(),
    };
    let mut v = ValidationError::new(e.code, loc, e.message);
    if let Some((code, rate, base)) = e.group {
        v = v.with_ctx(json!({
            "vat_code": code.as_str(),
            "vat_rate": rate.map(|r| r.to_string()),
            "base": base.to_string(),
        }));
    }
    v
}

/// Computes the amounts of lines and allowances, recording the errors.
fn compute_amounts(
    currency: Currency,
    lines: &[Line],
    acs: &[AllowanceCharge],
    errors: &mut Errors,
) -> Option<Computation> {
    match compute::compute_iter(currency, lines.iter().map(|l| &l.pricing), acs) {
        Ok(c) => Some(c),
        Err(list) => {
            errors.0.extend(list.into_iter().map(compute_error));
            None
        }
    }
}

/// The exemption mention of each VAT group: the company's text for its code, else the
/// standard wording; the VATEX code stays (decisions.md §4).
pub fn exemptions(company: &Company, computation: &Computation) -> Vec<Option<Exemption>> {
    computation
        .groups
        .iter()
        .map(|g| {
            g.vat_code.exemption().map(|(wording, code)| Exemption {
                reason: company
                    .exemption_mentions
                    .get(&g.vat_code)
                    .cloned()
                    .unwrap_or_else(|| wording.to_owned()),
                code,
            })
        })
        .collect()
}

fn check_paid(paid: Decimal, computation: &Computation, errors: &mut Errors) {
    // decisions.md §3.8, interface.md Errors: paid_amount may not exceed the total
    if paid > computation.total_amount {
        errors.push_ctx(
            ErrorCode::PaidAmountAboveTotal,
            body_loc().key("paid_amount"),
            format!(
                "paid_amount {paid} is above the total amount {}",
                computation.currency.format(computation.total_amount)
            ),
            None,
            json!({"total_amount": computation.currency.format(computation.total_amount)}),
        );
    }
}

fn check_not_future(field: &Field<NaiveDate>, key: &str, today: NaiveDate, errors: &mut Errors) {
    if let Field::Valid(d) = field {
        if *d > today {
            errors.push_ctx(
                ErrorCode::DateInFuture,
                body_loc().key(key),
                format!("{key} {d} is after today {today}"),
                Some(&Value::String(d.to_string())),
                json!({"today": today.to_string()}),
            );
        }
    }
}

fn check_period(start: Option<NaiveDate>, end: Option<NaiveDate>, errors: &mut Errors) {
    // BR-29: the period may not end before it starts
    if let (Some(s), Some(e)) = (start, end) {
        if s > e {
            errors.push(
                ErrorCode::PeriodEndBeforeStart,
                body_loc().key("period_end"),
                format!("period_end {e} is before period_start {s}"),
            );
        }
    }
}

fn resolve_relation(
    ctx: &dyn Context,
    field: &Field<String>,
    errors: &mut Errors,
) -> Option<Relation> {
    let id = field.valid()?;
    let found = ctx.relation(id);
    if found.is_none() {
        errors.push_input(
            ErrorCode::RelationNotFound,
            body_loc().key("relation_id"),
            format!("no relation has the id {id:?}"),
            &Value::String(id.clone()),
        );
    }
    found
}

/// Creates a document from a request body (decisions.md §5, §7, §8, §9).
///
/// `send_peppol` is the raw text of the query parameter, if given. `id` is the id the
/// caller gives the document if it is created.
pub fn create(
    ctx: &dyn Context,
    permissions: Permissions,
    send_peppol: Option<&str>,
    body: Option<&Value>,
    id: &str,
) -> Result<Created, ApiError> {
    // decisions.md §7: c is required, and u too for send_peppol; checked first
    if !permissions.create {
        return Err(permission_denied("creating a document"));
    }
    let send = match send_peppol {
        None => Some(false),
        Some(text) => lax_bool_text(text),
    };
    if send == Some(true) && !permissions.update {
        return Err(permission_denied("sending a document on creation"));
    }
    let mut errors = Errors::default();
    if let (None, Some(text)) = (send, send_peppol) {
        errors.push_input(
            ErrorCode::BoolParsing,
            at(&["query", "send_peppol"]),
            "input should be a valid boolean",
            &Value::String(text.to_owned()),
        );
    }
    let obj = match body_object(body) {
        Ok(obj) => obj,
        Err(e) => {
            errors.0.extend(e.errors);
            return Err(ApiError::new(errors.0));
        }
    };
    let loc = body_loc();
    check_keys(obj, &loc, BODY_KEYS, DERIVED_FIELDS, &mut errors);
    let doc_type = match Slot::of(obj, "type").value() {
        None => {
            missing(&loc, "type", &mut errors);
            None
        }
        Some(v) => one_of(
            v,
            &loc,
            "type",
            DocumentType::parse,
            "'sale_invoice', 'sale_credit_note', 'purchase_invoice', 'purchase_credit_note' or 'proforma_invoice'",
            &mut errors,
        ),
    };
    let journal_id = Field::read(Slot::of(obj, "journal_id"), |v| {
        crate::validate::fields::string(v, &loc, "journal_id", None, &mut errors)
    });
    let company = ctx.company();
    let fallback = company.accepts_currency("EUR").then_some(Currency::EUR);
    let f: BodyFields = body::read(obj, &loc, company, fallback, &mut errors);
    let today = ctx.today();

    // Context rules, each only when what it reads is valid.
    if matches!(f.relation_id, Field::Absent | Field::Null) {
        missing(&loc, "relation_id", &mut errors);
    }
    let relation = resolve_relation(ctx, &f.relation_id, &mut errors);
    let journal = resolve_create_journal(ctx, doc_type, &journal_id, &mut errors);
    if let Some(lid) = f.delivery_location_id.valid() {
        match ctx.delivery_location(lid) {
            None => errors.push_input(
                ErrorCode::DeliveryLocationNotFound,
                loc.key("delivery_location_id"),
                format!("no delivery location has the id {lid:?}"),
                &Value::String(lid.clone()),
            ),
            Some(location) => {
                if let Some(rel) = &relation {
                    if location.relation_id != rel.id {
                        errors.push_ctx(
                            ErrorCode::DeliveryLocationRelationMismatch,
                            loc.key("delivery_location_id"),
                            format!("the delivery location {lid:?} belongs to another relation"),
                            Some(&Value::String(lid.clone())),
                            json!({"relation_id": location.relation_id}),
                        );
                    }
                }
            }
        }
    }
    if let Some(t) = doc_type {
        // interface.md create rule 4: self-billing types need self-billing
        if t.is_self_billing() && !company.self_billing {
            errors.push(
                ErrorCode::SelfBillingDisabled,
                loc.key("type"),
                format!(
                    "{} is a self-billing document and self-billing is not enabled on the company",
                    t.as_str()
                ),
            );
        }
        if send == Some(true) && !t.is_peppol_type() {
            errors.push(
                ErrorCode::NotPeppolType,
                at(&["query", "send_peppol"]),
                format!("peppol does not carry a {}", t.as_str()),
            );
        }
    }
    check_not_future(&f.issue_date, "issue_date", today, &mut errors);
    check_not_future(&f.delivery_date, "delivery_date", today, &mut errors);
    check_period(
        f.period_start.valid().copied(),
        f.period_end.valid().copied(),
        &mut errors,
    );
    let currency = match &f.currency {
        Field::Valid(c) => Some(*c),
        Field::Invalid => None,
        Field::Absent | Field::Null => {
            if fallback.is_none() {
                errors.push(
                    ErrorCode::CurrencyNotSupported,
                    loc.key("currency"),
                    "the company does not accept the default currency EUR: send a currency",
                );
            }
            fallback
        }
    };
    if matches!(f.lines, Field::Absent | Field::Null) {
        missing(&loc, "lines", &mut errors);
    }
    let acs = match &f.allowance_charges {
        Field::Valid(v) => Some(v.as_slice()),
        Field::Absent | Field::Null => Some(&[][..]),
        Field::Invalid => None,
    };
    let computation = match (currency, f.lines.valid(), acs) {
        (Some(c), Some(lines), Some(acs)) => compute_amounts(c, lines, acs, &mut errors),
        _ => None,
    };
    let paid = match &f.paid_amount {
        Field::Valid(p) => Some(*p),
        Field::Absent | Field::Null => Some(Decimal::ZERO),
        Field::Invalid => None,
    };
    if let (Some(c), Some(p)) = (&computation, paid) {
        check_paid(p, c, &mut errors);
    }
    if !errors.is_empty() {
        return Err(ApiError::new(errors.0));
    }
    let (
        Some(doc_type),
        Some(relation),
        Some(journal),
        Some(currency),
        Some(computation),
        Some(paid),
        Field::Valid(lines),
    ) = (
        doc_type,
        relation,
        journal,
        currency,
        computation,
        paid,
        f.lines,
    )
    else {
        // Every None above recorded an error; this is unreachable in practice.
        return Err(ApiError::one(
            ErrorCode::Missing,
            body_loc(),
            "the body is incomplete",
        ));
    };

    // decisions.md §5: defaults, number, communication, statuses
    let issue_date = f.issue_date.valid().copied().unwrap_or(today);
    let payment_terms = f
        .payment_terms
        .valid()
        .copied()
        .or(match relation.kind {
            RelationKind::Company => relation.payment_terms,
            RelationKind::Contact => None,
        })
        .unwrap_or(PaymentTerms::DEFAULT);
    let window = journal.numbering.window(issue_date);
    let sequence = ctx.next_sequence(&journal, window);
    let document_number = journal
        .numbering
        .number(&journal.prefix, issue_date, sequence);
    let legal_notice = match f.legal_notice {
        Field::Valid(s) => Some(s),
        _ if doc_type == DocumentType::SaleInvoice => company.legal_notice.clone(),
        _ => None,
    };
    let mut document = Document {
        id: id.to_owned(),
        doc_type,
        origin: "api".to_owned(),
        payment_remittance: StructuredReference::from_document_number(&document_number),
        document_number,
        numbering: journal.numbering,
        numbered_on: issue_date,
        journal_id: journal.id.clone(),
        relation_id: relation.id.clone(),
        relation_type: relation.kind,
        delivery_location_id: f.delivery_location_id.into_valid(),
        issue_date,
        due_date: payment_terms.due_date(issue_date).unwrap_or(issue_date),
        payment_terms,
        tax_point_date: f.tax_point_date.into_valid(),
        delivery_date: f.delivery_date.into_valid(),
        period_start: f.period_start.into_valid(),
        period_end: f.period_end.into_valid(),
        order_number: f.order_number.into_valid(),
        despatch_reference: f.despatch_reference.into_valid(),
        buyer_reference: f.buyer_reference.into_valid(),
        legal_notice,
        currency,
        paid_amount: paid,
        lines,
        allowance_charges: f.allowance_charges.into_valid().unwrap_or_default(),
        exemptions: exemptions(company, &computation),
        payment_status: PaymentStatus::derive(paid, computation.total_amount),
        computation,
        create_date: ctx.now(),
        accounting_status: AccountingStatus::Waiting,
        peppol_status: PeppolStatus::NotSent,
        mail_status: MailStatus::NotSent,
        pdf_available: false,
        xml_available: false,
    };
    let mut send_error = None;
    if send == Some(true) {
        // decisions.md §7: a recipient not on Peppol gets send_failed naming the document
        if relation.peppol {
            match crate::peppol::enforce_rules(
                ctx,
                &document,
                &relation,
                at(&["query", "send_peppol"]),
            ) {
                Ok(()) => document.peppol_status = PeppolStatus::Sending,
                Err(e) => send_error = Some(e),
            }
        } else {
            send_error = Some(ApiError::new(vec![ValidationError::new(
                ErrorCode::SendFailed,
                at(&["query", "send_peppol"]),
                format!(
                    "the document {id} was created and numbered {}, but its recipient cannot receive on peppol: retry with POST /documents/{id}/send",
                    document.document_number
                ),
            )
            .with_ctx(json!({"document_id": id}))]));
        }
    }
    Ok(Created {
        document,
        number: DrawnNumber {
            journal_id: journal.id,
            window,
            sequence,
        },
        send_error,
    })
}

/// The journal of a create: the one given, which must fit the type, else the default
/// journal of the type's category (decisions.md §5).
fn resolve_create_journal(
    ctx: &dyn Context,
    doc_type: Option<DocumentType>,
    journal_id: &Field<String>,
    errors: &mut Errors,
) -> Option<Journal> {
    let loc = body_loc().key("journal_id");
    match journal_id {
        Field::Invalid => None,
        Field::Valid(jid) => {
            let Some(journal) = ctx.journal(jid) else {
                errors.push_input(
                    ErrorCode::JournalNotFound,
                    loc,
                    format!("no journal has the id {jid:?}"),
                    &Value::String(jid.clone()),
                );
                return None;
            };
            let t = doc_type?;
            if journal.category == t.journal_category() {
                Some(journal)
            } else {
                errors.push_ctx(
                    ErrorCode::JournalCategoryMismatch,
                    loc,
                    format!(
                        "the journal {jid:?} takes {} documents, a {} needs a {} journal",
                        journal.category,
                        t.as_str(),
                        t.journal_category()
                    ),
                    Some(&Value::String(jid.clone())),
                    json!({"category": journal.category.as_str(), "expected": t.journal_category().as_str()}),
                );
                None
            }
        }
        Field::Absent | Field::Null => {
            let t = doc_type?;
            let found = ctx.default_journal(t.journal_category());
            if found.is_none() {
                errors.push(
                    ErrorCode::NoDefaultJournal,
                    loc,
                    format!(
                        "no journal given and the company has no default {} journal",
                        t.journal_category()
                    ),
                );
            }
            found
        }
    }
}

fn locked_change(locked: bool, key: &str, errors: &mut Errors) {
    if locked {
        errors.push(
            ErrorCode::DocumentLocked,
            body_loc().key(key),
            format!("the document has left or is booked: {key} can no longer change, only paid_amount may"),
        );
    }
}

/// Applies a PATCH body to a stored document (decisions.md §6). Returns the updated
/// document to store; a refused PATCH changes nothing.
pub fn patch(
    ctx: &dyn Context,
    permissions: Permissions,
    stored: &Document,
    body: Option<&Value>,
) -> Result<Document, ApiError> {
    if !permissions.update {
        return Err(permission_denied("updating a document"));
    }
    // decisions.md §6, §9: a deleted document takes no change, even {}
    if stored.accounting_status == AccountingStatus::Deleted {
        return Err(ApiError::one(
            ErrorCode::DocumentDeleted,
            at(&["path", "id"]),
            format!("the document {} is deleted and takes no change", stored.id),
        ));
    }
    let obj = body_object(body)?;
    let loc = body_loc();
    let mut errors = Errors::default();
    check_keys(obj, &loc, BODY_KEYS, DERIVED_FIELDS, &mut errors);
    // decisions.md §6: type and journal_id are read-only (absent, null or the same value pass)
    for (key, current) in [
        ("type", stored.doc_type.as_str()),
        ("journal_id", stored.journal_id.as_str()),
    ] {
        match obj.get(key) {
            None | Some(Value::Null) => {}
            Some(Value::String(s)) if s == current => {}
            Some(v) => errors.push_input(
                ErrorCode::ReadOnly,
                loc.key(key),
                format!("{key} is read-only after creation"),
                v,
            ),
        }
    }
    // decisions.md §6: null on these fields is refused
    for key in [
        "relation_id",
        "issue_date",
        "payment_terms",
        "currency",
        "lines",
        "paid_amount",
    ] {
        if obj.get(key) == Some(&Value::Null) {
            errors.push(
                ErrorCode::NullNotAllowed,
                loc.key(key),
                format!("{key} cannot be null"),
            );
        }
    }
    let company = ctx.company();
    let f = body::read(obj, &loc, company, Some(stored.currency), &mut errors);
    let today = ctx.today();
    let locked = stored.is_locked();
    let mut next = stored.clone();

    // relation: a change keeps the payment terms (decisions.md §6)
    let mut relation_ok = !f.relation_id.is_invalid();
    if f.relation_id.valid().is_some() {
        match resolve_relation(ctx, &f.relation_id, &mut errors) {
            Some(rel) => {
                if rel.id != stored.relation_id {
                    locked_change(locked, "relation_id", &mut errors);
                }
                next.relation_id = rel.id;
                next.relation_type = rel.kind;
            }
            None => relation_ok = false,
        }
    }
    let mut location_ok = !f.delivery_location_id.is_invalid();
    match &f.delivery_location_id {
        Field::Valid(lid) => {
            if ctx.delivery_location(lid).is_none() {
                errors.push_input(
                    ErrorCode::DeliveryLocationNotFound,
                    loc.key("delivery_location_id"),
                    format!("no delivery location has the id {lid:?}"),
                    &Value::String(lid.clone()),
                );
                location_ok = false;
            } else if stored.delivery_location_id.as_deref() != Some(lid.as_str()) {
                locked_change(locked, "delivery_location_id", &mut errors);
            }
            next.delivery_location_id = Some(lid.clone());
        }
        Field::Null => {
            if stored.delivery_location_id.is_some() {
                locked_change(locked, "delivery_location_id", &mut errors);
            }
            next.delivery_location_id = None;
        }
        _ => {}
    }
    // A location left attached must belong to the (new) relation.
    if relation_ok && location_ok {
        if let Some(location) = next
            .delivery_location_id
            .as_deref()
            .and_then(|l| ctx.delivery_location(l))
        {
            if location.relation_id != next.relation_id {
                errors.push_ctx(
                    ErrorCode::DeliveryLocationRelationMismatch,
                    loc.key("delivery_location_id"),
                    format!(
                        "the delivery location {:?} belongs to another relation",
                        location.id
                    ),
                    None,
                    json!({"relation_id": location.relation_id}),
                );
            }
        }
    }
    if let Field::Valid(d) = f.issue_date {
        check_not_future(&f.issue_date, "issue_date", today, &mut errors);
        // decisions.md §6: issue_date stays in the window its number was drawn in
        if !stored.numbering.keeps_window(stored.numbered_on, d) {
            errors.push_ctx(
                ErrorCode::IssueDateOutsideNumberWindow,
                loc.key("issue_date"),
                format!(
                    "the number {} was drawn in a {} window that does not hold {d}",
                    stored.document_number, stored.numbering
                ),
                Some(&Value::String(d.to_string())),
                json!({"numbering": stored.numbering.as_str(), "numbered_on": stored.numbered_on.to_string()}),
            );
        }
        if d != stored.issue_date {
            locked_change(locked, "issue_date", &mut errors);
        }
        next.issue_date = d;
    }
    if let Field::Valid(t) = f.payment_terms {
        if t != stored.payment_terms {
            locked_change(locked, "payment_terms", &mut errors);
        }
        next.payment_terms = t;
    }
    check_not_future(&f.delivery_date, "delivery_date", today, &mut errors);
    let date_fields: [(&str, &Field<NaiveDate>, &mut Option<NaiveDate>); 4] = [
        (
            "tax_point_date",
            &f.tax_point_date,
            &mut next.tax_point_date,
        ),
        ("delivery_date", &f.delivery_date, &mut next.delivery_date),
        ("period_start", &f.period_start, &mut next.period_start),
        ("period_end", &f.period_end, &mut next.period_end),
    ];
    for (key, field, slot) in date_fields {
        let new = match field {
            Field::Valid(d) => Some(*d),
            Field::Null => None,
            _ => continue,
        };
        if new != *slot {
            locked_change(locked, key, &mut errors);
        }
        *slot = new;
    }
    if !f.period_start.is_invalid() && !f.period_end.is_invalid() {
        check_period(next.period_start, next.period_end, &mut errors);
    }
    let text_fields: [(&str, &Field<String>, &mut Option<String>); 4] = [
        ("order_number", &f.order_number, &mut next.order_number),
        (
            "despatch_reference",
            &f.despatch_reference,
            &mut next.despatch_reference,
        ),
        (
            "buyer_reference",
            &f.buyer_reference,
            &mut next.buyer_reference,
        ),
        ("legal_notice", &f.legal_notice, &mut next.legal_notice),
    ];
    for (key, field, slot) in text_fields {
        let new = match field {
            Field::Valid(s) => Some(s.clone()),
            Field::Null => None,
            _ => continue,
        };
        if new != *slot {
            locked_change(locked, key, &mut errors);
        }
        *slot = new;
    }
    let currency_changed = matches!(f.currency, Field::Valid(c) if c != stored.currency);
    if let Field::Valid(c) = f.currency {
        if c != stored.currency {
            locked_change(locked, "currency", &mut errors);
        }
        next.currency = c;
    }
    // decisions.md §2: a new currency does not silently round the stored amounts
    if currency_changed {
        stored_amounts_fit(&next, &f, &mut errors);
    }
    let paid_invalid = f.paid_amount.is_invalid();
    let paid_sent = matches!(f.paid_amount, Field::Valid(_));
    if let Field::Valid(p) = f.paid_amount {
        next.paid_amount = p;
    }
    let inputs_valid =
        !f.currency.is_invalid() && !f.lines.is_invalid() && !f.allowance_charges.is_invalid();
    // decisions.md §6: lines and allowance_charges sent are always a change
    if let Field::Valid(lines) = f.lines {
        locked_change(locked, "lines", &mut errors);
        next.lines = lines;
    }
    match f.allowance_charges {
        Field::Valid(acs) => {
            locked_change(locked, "allowance_charges", &mut errors);
            next.allowance_charges = acs;
        }
        Field::Null => {
            locked_change(locked, "allowance_charges", &mut errors);
            next.allowance_charges = Vec::new();
        }
        _ => {}
    }
    // Everything is recomputed; paid_amount is checked against the new total.
    if inputs_valid {
        if let Some(c) = compute_amounts(
            next.currency,
            &next.lines,
            &next.allowance_charges,
            &mut errors,
        ) {
            if !paid_invalid {
                check_paid(next.paid_amount, &c, &mut errors);
            }
            next.exemptions = exemptions(company, &c);
            next.computation = c;
        }
    }
    if !errors.is_empty() {
        return Err(ApiError::new(errors.0));
    }
    next.due_date = next
        .payment_terms
        .due_date(next.issue_date)
        .unwrap_or(next.issue_date);
    // The payment status follows a new paid amount or a new total; otherwise a status a
    // back-office override set is kept.
    if paid_sent || next.computation.total_amount != stored.computation.total_amount {
        next.payment_status =
            PaymentStatus::derive(next.paid_amount, next.computation.total_amount);
    }
    Ok(next)
}

/// After a currency change, the stored amounts the body did not resend must fit the
/// new currency's minor unit: they are refused (`decimal_max_places` at their place),
/// never rounded (decisions.md §2).
fn stored_amounts_fit(next: &Document, f: &BodyFields, errors: &mut Errors) {
    let c = next.currency;
    let refuse = |errors: &mut Errors, loc: Loc, value: Decimal| {
        errors.push_ctx(
            ErrorCode::DecimalMaxPlaces,
            loc,
            format!("the stored amount {value} has more decimals than {c} allows: send it again"),
            None,
            json!({"decimal_places": c.minor_unit()}),
        );
    };
    let fixed = |ac: &AllowanceCharge| match ac.value {
        compute::AllowanceValue::Amount(a) if !c.fits_minor_unit(a) => Some(a),
        _ => None,
    };
    if !f.paid_amount.is_sent() && !c.fits_minor_unit(next.paid_amount) {
        refuse(errors, body_loc().key("paid_amount"), next.paid_amount);
    }
    if !f.allowance_charges.is_sent() {
        for (j, ac) in next.allowance_charges.iter().enumerate() {
            if let Some(a) = fixed(ac) {
                refuse(
                    errors,
                    body_loc().key("allowance_charges").index(j).key("amount"),
                    a,
                );
            }
        }
    }
    if !f.lines.is_sent() {
        for (i, line) in next.lines.iter().enumerate() {
            for (j, ac) in line.pricing.allowance_charges.iter().enumerate() {
                if let Some(a) = fixed(ac) {
                    let loc = body_loc()
                        .key("lines")
                        .index(i)
                        .key("allowance_charges")
                        .index(j)
                        .key("amount");
                    refuse(errors, loc, a);
                }
            }
        }
    }
}

/// Starts a send of a stored document (decisions.md §7, §9). Returns the updated
/// document to store.
///
/// A missing body is `{}`. Errors in the body's shape answer alone; then the first of
/// `document_deleted`, `no_channel`, `not_peppol_type`, `already_sent`, `send_failed`.
pub fn send(
    ctx: &dyn Context,
    permissions: Permissions,
    stored: &Document,
    body: Option<&Value>,
) -> Result<Document, ApiError> {
    if !permissions.update {
        return Err(permission_denied("sending a document"));
    }
    let empty = Map::new();
    let obj = match body {
        None | Some(Value::Null) => &empty,
        Some(Value::Object(obj)) => obj,
        Some(other) => {
            return Err(ValidationError::new(
                ErrorCode::DictType,
                body_loc(),
                "input should be a valid object",
            )
            .with_input(other)
            .into())
        }
    };
    let mut errors = Errors::default();
    check_keys(obj, &body_loc(), &["peppol"], &[], &mut errors);
    let peppol = match Slot::of(obj, "peppol").value() {
        None => false,
        Some(v) => lax_bool(v).unwrap_or_else(|| {
            errors.push_input(
                ErrorCode::BoolParsing,
                at(&["body", "peppol"]),
                "input should be a valid boolean",
                v,
            );
            false
        }),
    };
    if !errors.is_empty() {
        return Err(ApiError::new(errors.0));
    }
    let peppol_loc = at(&["body", "peppol"]);
    if stored.accounting_status == AccountingStatus::Deleted {
        return Err(ApiError::one(
            ErrorCode::DocumentDeleted,
            at(&["path", "id"]),
            format!("the document {} is deleted", stored.id),
        ));
    }
    if !peppol {
        return Err(ApiError::one(
            ErrorCode::NoChannel,
            peppol_loc,
            "no channel asked for: send {\"peppol\": true}",
        ));
    }
    if !stored.doc_type.is_peppol_type() {
        return Err(ApiError::one(
            ErrorCode::NotPeppolType,
            peppol_loc,
            format!("peppol does not carry a {}", stored.doc_type.as_str()),
        ));
    }
    if stored.peppol_status.has_left() {
        return Err(ApiError::one(
            ErrorCode::AlreadySent,
            peppol_loc,
            format!(
                "the document has already left (peppol_status {})",
                stored.peppol_status.as_str()
            ),
        ));
    }
    if !ctx.relation(&stored.relation_id).is_some_and(|r| r.peppol) {
        return Err(ValidationError::new(
            ErrorCode::SendFailed,
            peppol_loc,
            format!(
                "the recipient {} cannot receive on peppol",
                stored.relation_id
            ),
        )
        .with_ctx(json!({"document_id": stored.id}))
        .into());
    }
    if let Some(relation) = ctx.relation(&stored.relation_id) {
        crate::peppol::enforce_rules(ctx, stored, &relation, peppol_loc)?;
    }
    let mut next = stored.clone();
    next.peppol_status = PeppolStatus::Sending;
    Ok(next)
}

/// Reads one state field of a back-office override, if sent.
fn state_value<T>(
    value: Option<&Value>,
    loc: &Loc,
    key: &str,
    parse: fn(&str) -> Option<T>,
    errors: &mut Errors,
) -> Option<T> {
    value.and_then(|v| one_of(v, loc, key, parse, "one of its documented values", errors))
}

const STATE_KEYS: [&str; 7] = [
    "payment_status",
    "accounting_status",
    "peppol_status",
    "mail_status",
    "pdf_available",
    "xml_available",
    "paid_amount",
];

/// Applies a back-office state override (`SET`, and `state` of preloaded documents):
/// an object with any of payment_status, accounting_status, peppol_status,
/// mail_status, pdf_available, xml_available, paid_amount. payment_status is
/// re-derived from a paid_amount it sets, unless it sets payment_status too.
pub fn apply_state(stored: &Document, state: &Value) -> Result<Document, ApiError> {
    let Value::Object(obj) = state else {
        return Err(ValidationError::new(
            ErrorCode::DictType,
            body_loc(),
            "input should be a valid object",
        )
        .with_input(state)
        .into());
    };
    let loc = body_loc();
    let mut errors = Errors::default();
    let [payment_status, accounting_status, peppol_status, mail_status, pdf, xml, paid] =
        fields_of(obj, &loc, &STATE_KEYS, &[], &mut errors);
    let mut next = stored.clone();
    let flag = |value: Option<&Value>, key: &str, errors: &mut Errors| {
        value.and_then(|v| {
            let b = lax_bool(v);
            if b.is_none() {
                errors.push_input(
                    ErrorCode::BoolParsing,
                    loc.key(key),
                    "input should be a valid boolean",
                    v,
                );
            }
            b
        })
    };
    if let Some(b) = flag(pdf, "pdf_available", &mut errors) {
        next.pdf_available = b;
    }
    if let Some(b) = flag(xml, "xml_available", &mut errors) {
        next.xml_available = b;
    }
    if let Some(s) = state_value(
        accounting_status,
        &loc,
        "accounting_status",
        AccountingStatus::parse,
        &mut errors,
    ) {
        next.accounting_status = s;
    }
    if let Some(s) = state_value(
        peppol_status,
        &loc,
        "peppol_status",
        PeppolStatus::parse,
        &mut errors,
    ) {
        next.peppol_status = s;
    }
    if let Some(s) = state_value(
        mail_status,
        &loc,
        "mail_status",
        MailStatus::parse,
        &mut errors,
    ) {
        next.mail_status = s;
    }
    let status = state_value(
        payment_status,
        &loc,
        "payment_status",
        PaymentStatus::parse,
        &mut errors,
    );
    let paid = paid.and_then(|v| {
        let rule = NumberRule {
            ge: Some(Decimal::ZERO),
            le: Some(body::MAX_PAID),
            max_places: Some(stored.currency.minor_unit()),
            ..NumberRule::default()
        };
        number(v, &loc, "paid_amount", rule, &mut errors)
    });
    if !errors.is_empty() {
        return Err(ApiError::new(errors.0));
    }
    if let Some(p) = paid {
        next.paid_amount = p;
        next.payment_status = PaymentStatus::derive(p, next.computation.total_amount);
    }
    if let Some(s) = status {
        next.payment_status = s;
    }
    Ok(next)
}

#[cfg(test)]
mod tests;
