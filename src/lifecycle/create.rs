//! Create: a document from a request body (docs/decisions.md §5, §7, §8, §9).
//!
//! In named steps: the permissions and the `send_peppol` query, the body's fields,
//! the rules that read the context, then the document with its defaults and number,
//! and the send asked for on creation.

use super::amounts::{check_paid, compute_amounts, exemptions};
use super::dates::{bounded_due_date, check_in_range, check_not_future, check_period};
use super::{
    at, body_loc, body_object, json_invalid, location_not_found, looked_up, resolve_relation,
};
use crate::compute::{Computation, PaymentStatus};
use crate::context::{
    Company, Context, DeliveryLocation, Journal, Permissions, Relation, RelationKind,
};
use crate::document::{AccountingStatus, Document, DocumentType, Line, MailStatus, PeppolStatus};
use crate::error::{ApiError, ErrorCode, ValidationError};
use crate::money::Currency;
use crate::numbering::{draw, Draw, Window};
use crate::remittance::StructuredReference;
use crate::terms::PaymentTerms;
use crate::validate::body::{self, BodyFields, Source, BODY_KEYS, DERIVED_FIELDS};
use crate::validate::fields::{check_keys, missing, one_of, Errors, Field};
use crate::validate::lax_bool_text;
use crate::validate::typed::TypedBody;
use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde_json::{json, Value};

/// The number a create drew: the caller advances the journal's counter past it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrawnNumber {
    /// The journal.
    pub journal_id: String,
    /// The counter's window.
    pub window: Window,
    /// The sequence drawn.
    pub sequence: u64,
    /// The counter's next state, to store in the same transaction as the document.
    pub next: u64,
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

/// Creates a document from a request body (docs/decisions.md §5, §7, §8, §9).
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
    create_with(ctx, permissions, send_peppol, id, |company, errors| {
        let obj = body_object(body)?;
        check_keys(obj, &body_loc(), BODY_KEYS, DERIVED_FIELDS, errors);
        Ok(read_request(company, obj, errors))
    })
}

/// [`create`] from the body's bytes, read in one typed pass ([`TypedBody`]); a body
/// that pass does not take (an unknown or repeated key, a value of another shape,
/// bytes that are not JSON) is read as a `Value` and answers as [`create`] does. Bytes
/// that are not JSON answer `json_invalid` at `["body"]` with the text sent, after the
/// permissions and beside the query's errors; empty bytes are no body.
pub fn create_bytes(
    ctx: &dyn Context,
    permissions: Permissions,
    send_peppol: Option<&str>,
    body: &[u8],
    id: &str,
) -> Result<Created, ApiError> {
    if body.is_empty() {
        return create(ctx, permissions, send_peppol, None, id);
    }
    if let Some(typed) = TypedBody::from_slice(body) {
        return create_with(ctx, permissions, send_peppol, id, |company, errors| {
            Ok(read_request(company, &typed, errors))
        });
    }
    match crate::json::from_slice(body) {
        Ok(value) => create(ctx, permissions, send_peppol, Some(&value), id),
        Err(e) => Err(ApiError::body_not_json(
            create(ctx, permissions, send_peppol, None, id),
            json_invalid(body, &e),
            true,
        )),
    }
}

/// The steps of a create, the body read by `read` (its shape errors recorded, or the
/// error of a body that is not an object).
fn create_with(
    ctx: &dyn Context,
    permissions: Permissions,
    send_peppol: Option<&str>,
    id: &str,
    read: impl FnOnce(&Company, &mut Errors) -> Result<Request, ApiError>,
) -> Result<Created, ApiError> {
    let send = send_asked(permissions, send_peppol)?;
    let mut errors = Errors::default();
    if let (None, Some(text)) = (send, send_peppol) {
        errors.push_input(
            ErrorCode::BoolParsing,
            at(&["query", "send_peppol"]),
            "input should be a valid boolean",
            &Value::String(text.to_owned()),
        );
    }
    let request = match read(ctx.company(), &mut errors) {
        Ok(request) => request,
        Err(e) => return Err(e.after(errors.0)),
    };
    let checked = check_rules(ctx, request, send, &mut errors);
    ApiError::check(errors.0)?;
    let Some(checked) = checked else {
        // Every None above recorded an error; this is unreachable in practice.
        return Err(ApiError::one(
            ErrorCode::Missing,
            body_loc(),
            "the body is incomplete",
        ));
    };
    build(ctx, checked, send == Some(true), id)
}

/// The `send_peppol` query read as a boolean (`None` if it is not one), after the
/// permissions: c is required, and u too for send_peppol; checked first
/// (docs/decisions.md §7).
fn send_asked(
    permissions: Permissions,
    send_peppol: Option<&str>,
) -> Result<Option<bool>, ApiError> {
    if !permissions.create {
        return Err(ApiError::permission_denied(
            "creating a document needs the permission the client lacks",
        ));
    }
    let send = match send_peppol {
        None => Some(false),
        Some(text) => lax_bool_text(text),
    };
    if send == Some(true) && !permissions.update {
        return Err(ApiError::permission_denied(
            "sending a document on creation needs the permission the client lacks",
        ));
    }
    Ok(send)
}

/// The fields of a create body, each read for its shape.
struct Request {
    doc_type: Option<DocumentType>,
    journal_id: Field<String>,
    /// The currency of a body that sends none: EUR, if the company accepts it.
    fallback: Option<Currency>,
    fields: BodyFields,
}

/// Reads the body's fields for their shape (the first layer of docs/decisions.md §9); its
/// keys were checked before.
fn read_request(company: &Company, obj: &impl Source, errors: &mut Errors) -> Request {
    let loc = body_loc();
    let doc_type = match obj.slot("type").value() {
        None => {
            missing(&loc, "type", errors);
            None
        }
        Some(v) => one_of(
            v,
            &loc,
            "type",
            DocumentType::parse,
            "'sale_invoice', 'sale_credit_note', 'purchase_invoice', 'purchase_credit_note' or 'proforma_invoice'",
            errors,
        ),
    };
    let journal_id = Field::read(obj.slot("journal_id"), |v| {
        crate::validate::fields::string(v, &loc, "journal_id", None, errors)
    });
    let fallback = company.accepts_currency("EUR").then_some(Currency::EUR);
    let fields = body::read(obj, &loc, company, fallback, errors);
    Request {
        doc_type,
        journal_id,
        fallback,
        fields,
    }
}

/// What a create needs once every rule passed.
struct Checked {
    doc_type: DocumentType,
    relation: Relation,
    journal: Journal,
    dates: Dates,
    currency: Currency,
    computation: Computation,
    paid: Decimal,
    lines: Vec<Line>,
    /// The other fields (`lines` taken out).
    fields: BodyFields,
}

/// The rules that read other fields or the context, each only when the fields it
/// reads are valid (the second layer of docs/decisions.md §9).
fn check_rules(
    ctx: &dyn Context,
    request: Request,
    send: Option<bool>,
    errors: &mut Errors,
) -> Option<Checked> {
    let Request {
        doc_type,
        journal_id,
        fallback,
        mut fields,
    } = request;
    let f = &fields;
    if matches!(f.relation_id, Field::Absent | Field::Null) {
        missing(&body_loc(), "relation_id", errors);
    }
    let relation = resolve_relation(ctx, &f.relation_id, errors);
    let journal = resolve_create_journal(ctx, doc_type, &journal_id, errors);
    if let Some(lid) = f.delivery_location_id.valid() {
        let found = looked_up(ctx.delivery_location(lid), errors);
        check_delivery_location(found, lid, relation.as_ref(), errors);
    }
    if let Some(t) = doc_type {
        check_type(ctx.company(), t, send, errors);
    }
    let today = ctx.today();
    check_not_future(&f.issue_date, "issue_date", today, errors);
    check_not_future(&f.delivery_date, "delivery_date", today, errors);
    check_period(
        f.period_start.valid().copied(),
        f.period_end.valid().copied(),
        errors,
    );
    let dates = derive_dates(ctx, f, relation.as_ref(), errors);
    check_in_range(
        ctx.now().date_naive(),
        "create_date (the clock's date)",
        body_loc(),
        errors,
    );
    let currency = currency_or_fallback(&f.currency, fallback, errors);
    let (computation, paid) = check_amounts(currency, f, errors);
    let Field::Valid(lines) = std::mem::replace(&mut fields.lines, Field::Absent) else {
        return None;
    };
    Some(Checked {
        doc_type: doc_type?,
        relation: relation?,
        journal: journal?,
        dates: dates?,
        currency: currency?,
        computation: computation?,
        paid: paid?,
        lines,
        fields,
    })
}

/// The dates a create derives.
struct Dates {
    /// The issue date sent, else today.
    issue_date: NaiveDate,
    /// The terms sent, else the company relation's, else the default.
    payment_terms: PaymentTerms,
    /// Derived from both (docs/decisions.md §4b).
    due_date: NaiveDate,
}

/// The issue date, payment terms and due date, when the fields they read are valid;
/// a due date past 9999-12-31 is refused at the field that pushed it there: the
/// issue_date when only it was sent, else payment_terms.
fn derive_dates(
    ctx: &dyn Context,
    f: &BodyFields,
    relation: Option<&Relation>,
    errors: &mut Errors,
) -> Option<Dates> {
    if f.issue_date.is_invalid() || f.payment_terms.is_invalid() {
        return None;
    }
    let issue_date = if let Some(d) = f.issue_date.valid() {
        *d
    } else {
        let today = ctx.today();
        let what = format!("the default issue_date (today, {today})");
        if !check_in_range(today, &what, body_loc().key("issue_date"), errors) {
            return None;
        }
        today
    };
    let payment_terms = match f.payment_terms.valid() {
        Some(t) => *t,
        None => match relation?.kind {
            RelationKind::Company => relation?.payment_terms,
            RelationKind::Contact => None,
        }
        .unwrap_or(PaymentTerms::DEFAULT),
    };
    let due_date = bounded_due_date(payment_terms, issue_date, f, errors)?;
    Some(Dates {
        issue_date,
        payment_terms,
        due_date,
    })
}

/// A delivery location must exist and belong to the document's relation.
fn check_delivery_location(
    found: Option<DeliveryLocation>,
    lid: &str,
    relation: Option<&Relation>,
    errors: &mut Errors,
) {
    let loc = body_loc().key("delivery_location_id");
    let Some(location) = found else {
        return location_not_found(lid, errors);
    };
    if let Some(rel) = relation {
        if location.relation_id != rel.id {
            errors.push_ctx(
                ErrorCode::DeliveryLocationRelationMismatch,
                loc,
                format!("the delivery location {lid:?} belongs to another relation"),
                Some(&Value::String(lid.to_owned())),
                json!({"relation_id": location.relation_id}),
            );
        }
    }
}

/// The rules of the type: self-billing types need self-billing (docs/interface.md create
/// rule 4), and send_peppol needs a type Peppol carries (docs/decisions.md §7).
fn check_type(company: &Company, t: DocumentType, send: Option<bool>, errors: &mut Errors) {
    if t.is_self_billing() && !company.self_billing {
        errors.push(
            ErrorCode::SelfBillingDisabled,
            body_loc().key("type"),
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

/// The currency sent, else EUR when the company accepts it (docs/decisions.md §2).
fn currency_or_fallback(
    currency: &Field<Currency>,
    fallback: Option<Currency>,
    errors: &mut Errors,
) -> Option<Currency> {
    match currency {
        Field::Valid(c) => Some(*c),
        Field::Invalid => None,
        Field::Absent | Field::Null => {
            if fallback.is_none() {
                errors.push(
                    ErrorCode::CurrencyNotSupported,
                    body_loc().key("currency"),
                    "the company does not accept the default currency EUR: send a currency",
                );
            }
            fallback
        }
    }
}

/// The lines are required; the amounts are computed when lines, allowances and
/// currency are valid, and paid_amount (0 by default) may not exceed the total.
fn check_amounts(
    currency: Option<Currency>,
    f: &BodyFields,
    errors: &mut Errors,
) -> (Option<Computation>, Option<Decimal>) {
    if matches!(f.lines, Field::Absent | Field::Null) {
        missing(&body_loc(), "lines", errors);
    }
    let acs = match &f.allowance_charges {
        Field::Valid(v) => Some(v.as_slice()),
        Field::Absent | Field::Null => Some(&[][..]),
        Field::Invalid => None,
    };
    let computation = match (currency, f.lines.valid(), acs) {
        (Some(c), Some(lines), Some(acs)) => compute_amounts(c, lines, acs, errors),
        _ => None,
    };
    let paid = match &f.paid_amount {
        Field::Valid(p) => Some(*p),
        Field::Absent | Field::Null => Some(Decimal::ZERO),
        Field::Invalid => None,
    };
    if let (Some(c), Some(p)) = (&computation, paid) {
        check_paid(p, c, errors);
    }
    (computation, paid)
}

/// The journal's next number for `issue_date` ([`draw`] on the counter state the
/// context reads): an exhausted counter is `journal_counter_exhausted` at
/// `["body", "journal_id"]`, never a repeated number.
fn draw_number(
    ctx: &dyn Context,
    journal: &Journal,
    issue_date: NaiveDate,
) -> Result<Draw, ApiError> {
    let state = ctx.next_sequence(journal, journal.numbering.window(issue_date))?;
    draw(journal, state, issue_date).map_err(|e| {
        ApiError::from(
            ValidationError::new(
                ErrorCode::JournalCounterExhausted,
                body_loc().key("journal_id"),
                format!("{e}: it has drawn its last number, and a number is never drawn twice"),
            )
            .with_input(&Value::String(e.journal_id.clone()))
            .with_ctx(json!({"window": e.window.to_string()})),
        )
    })
}

/// The created document: defaults, number, communication and statuses
/// (docs/decisions.md §5), and the send asked for on creation. The number is drawn last,
/// by [`draw`]: an exhausted counter is `journal_counter_exhausted` at
/// `["body", "journal_id"]`, never a repeated number.
fn build(ctx: &dyn Context, checked: Checked, send: bool, id: &str) -> Result<Created, ApiError> {
    let Checked {
        doc_type,
        relation,
        journal,
        dates,
        currency,
        computation,
        paid,
        lines,
        fields: f,
    } = checked;
    let company = ctx.company();
    let Dates {
        issue_date,
        payment_terms,
        due_date,
    } = dates;
    let Draw {
        window,
        sequence,
        number: document_number,
        next,
    } = draw_number(ctx, &journal, issue_date)?;
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
        due_date,
        payment_terms,
        tax_point_date: f.tax_point_date.into_valid(),
        delivery_date: f.delivery_date.into_valid(),
        period_start: f.period_start.into_valid(),
        period_end: f.period_end.into_valid(),
        order_number: f.order_number.into_valid(),
        despatch_reference: f.despatch_reference.into_valid(),
        buyer_reference: f.buyer_reference.into_valid(),
        legal_notice: match f.legal_notice {
            Field::Valid(s) => Some(s),
            _ if doc_type == DocumentType::SaleInvoice => company.legal_notice.clone(),
            _ => None,
        },
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
        attachments: Vec::new(),
    };
    let send_error = if send {
        start_send(ctx, &mut document, &relation)?
    } else {
        None
    };
    Ok(Created {
        document,
        number: DrawnNumber {
            journal_id: journal.id,
            window,
            sequence,
            next,
        },
        send_error,
    })
}

/// A send asked for on creation: the document is sending, or, for a recipient not on
/// Peppol, `send_failed` naming the created document (docs/decisions.md §7); then, for a
/// company that enforces the Peppol rules, `send_failed` with the document's findings
/// (docs/peppol.md §3).
/// A storage error is the `Err` (500): the document is then not created at all.
fn start_send(
    ctx: &dyn Context,
    document: &mut Document,
    relation: &Relation,
) -> Result<Option<ApiError>, ApiError> {
    if relation.peppol {
        let loc = at(&["query", "send_peppol"]);
        if let Err(e) = crate::peppol::enforce_rules(ctx, document, relation, loc) {
            if e.status == 500 {
                return Err(e);
            }
            return Ok(Some(e));
        }
        document.peppol_status = PeppolStatus::Sending;
        return Ok(None);
    }
    let id = &document.id;
    Ok(Some(ApiError::from(ValidationError::new(
        ErrorCode::SendFailed,
        at(&["query", "send_peppol"]),
        format!(
            "the document {id} was created and numbered {}, but its recipient cannot receive on peppol: retry with POST /documents/{id}/send",
            document.document_number
        ),
    )
    .with_ctx(json!({"document_id": id})))))
}

/// The journal of a create: the one given, which must fit the type, else the default
/// journal of the type's category (docs/decisions.md §5).
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
            let Some(journal) = looked_up(ctx.journal(jid), errors) else {
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
            let found = looked_up(ctx.default_journal(t.journal_category()), errors);
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
