//! PATCH: a body applied to a stored document (docs/decisions.md §6, §9).
//!
//! In named steps on a [`Patching`]: the read-only and non-nullable keys, then the
//! relation and delivery location, the dates, the texts, the amounts; every change to
//! a locked document is refused (`document_locked`) but paid_amount.

use super::amounts::{check_paid, compute_amounts, exemptions};
use super::dates::{bounded_due_date, check_not_future, check_period};
use super::{
    at, body_loc, body_object, json_invalid, location_not_found, looked_up, resolve_relation,
};
use crate::compute::{self, AllowanceCharge, PaymentStatus};
use crate::context::{Company, Context, Permissions};
use crate::document::{AccountingStatus, Document};
use crate::error::{ApiError, ErrorCode, Loc};
use crate::validate::body::{self, BodyFields, Source, BODY_KEYS, DERIVED_FIELDS};
use crate::validate::fields::{check_keys, Errors, Field, Slot};
use crate::validate::typed::TypedBody;
use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde_json::{json, Value};

/// Applies a PATCH body to a stored document (docs/decisions.md §6). Returns the updated
/// document to store; a refused PATCH changes nothing.
pub fn patch(
    ctx: &dyn Context,
    permissions: Permissions,
    stored: &Document,
    body: Option<&Value>,
) -> Result<Document, ApiError> {
    check_patchable(permissions, stored)?;
    let obj = body_object(body)?;
    let mut errors = Errors::default();
    check_keys(obj, &body_loc(), BODY_KEYS, DERIVED_FIELDS, &mut errors);
    patch_fields(ctx, stored, obj, errors)
}

/// [`patch`] from the body's bytes, read in one typed pass ([`TypedBody`]); a body
/// that pass does not take is read as a `Value` and answers as [`patch`] does. Bytes
/// that are not JSON answer `json_invalid` at `["body"]` alone, after the permissions;
/// empty bytes are no body.
pub fn patch_bytes(
    ctx: &dyn Context,
    permissions: Permissions,
    stored: &Document,
    body: &[u8],
) -> Result<Document, ApiError> {
    if body.is_empty() {
        return patch(ctx, permissions, stored, None);
    }
    if let Some(typed) = TypedBody::from_slice(body) {
        check_patchable(permissions, stored)?;
        return patch_fields(ctx, stored, &typed, Errors::default());
    }
    match crate::json::from_slice(body) {
        Ok(value) => patch(ctx, permissions, stored, Some(&value)),
        Err(e) => Err(ApiError::body_not_json(
            patch(ctx, permissions, stored, None),
            json_invalid(body, &e),
            false,
        )),
    }
}

/// The permission, and a deleted document takes no change, even {}
/// (docs/decisions.md §6, §7, §9).
fn check_patchable(permissions: Permissions, stored: &Document) -> Result<(), ApiError> {
    if !permissions.update {
        return Err(ApiError::permission_denied(
            "updating a document needs the permission the client lacks",
        ));
    }
    if stored.accounting_status == AccountingStatus::Deleted {
        return Err(ApiError::one(
            ErrorCode::DocumentDeleted,
            at(&["path", "id"]),
            format!("the document {} is deleted and takes no change", stored.id),
        ));
    }
    Ok(())
}

/// The steps of a PATCH once its keys were checked.
fn patch_fields(
    ctx: &dyn Context,
    stored: &Document,
    obj: &impl Source,
    mut errors: Errors,
) -> Result<Document, ApiError> {
    check_fixed_keys(obj, stored, &mut errors);
    let company = ctx.company();
    let f = body::read(
        obj,
        &body_loc(),
        company,
        Some(stored.currency),
        &mut errors,
    );
    let mut p = Patching {
        stored,
        next: stored.clone(),
        locked: stored.is_locked(),
        errors,
    };
    p.relation_and_location(ctx, &f);
    p.dates(ctx.today(), &f);
    p.due_date(&f);
    p.texts(&f);
    let paid_sent = matches!(f.paid_amount, Field::Valid(_));
    p.amounts(company, f);
    ApiError::check(std::mem::take(&mut p.errors.0))?;
    Ok(p.derive(paid_sent))
}

/// The keys a PATCH may not change: type and journal_id are read-only (absent, null
/// or the same value pass), and null is refused where a value is required
/// (docs/decisions.md §6).
fn check_fixed_keys(obj: &impl Source, stored: &Document, errors: &mut Errors) {
    let loc = body_loc();
    for (key, current) in [
        ("type", stored.doc_type.as_str()),
        ("journal_id", stored.journal_id.as_str()),
    ] {
        match obj.slot(key) {
            Slot::Absent | Slot::Null => {}
            Slot::Value(Value::String(s)) if s == current => {}
            Slot::Value(v) => errors.push_input(
                ErrorCode::ReadOnly,
                loc.key(key),
                format!("{key} is read-only after creation"),
                v,
            ),
        }
    }
    for key in [
        "relation_id",
        "issue_date",
        "payment_terms",
        "currency",
        "lines",
        "paid_amount",
    ] {
        if matches!(obj.slot(key), Slot::Null) {
            errors.push(
                ErrorCode::NullNotAllowed,
                loc.key(key),
                format!("{key} cannot be null"),
            );
        }
    }
}

/// A PATCH under way: the stored document, the next one, and the errors so far.
struct Patching<'a> {
    stored: &'a Document,
    next: Document,
    /// Whether the document has left or is booked (docs/decisions.md §6).
    locked: bool,
    errors: Errors,
}

impl Patching<'_> {
    /// A change of `key` on a locked document is refused.
    fn changed(&mut self, key: &str) {
        if self.locked {
            self.errors.push(
                ErrorCode::DocumentLocked,
                body_loc().key(key),
                format!("the document has left or is booked: {key} can no longer change, only paid_amount may"),
            );
        }
    }

    /// The relation (a change keeps the payment terms, docs/decisions.md §6) and the
    /// delivery location, which must exist and belong to the (new) relation.
    fn relation_and_location(&mut self, ctx: &dyn Context, f: &BodyFields) {
        let mut relation_ok = !f.relation_id.is_invalid();
        if f.relation_id.valid().is_some() {
            match resolve_relation(ctx, &f.relation_id, &mut self.errors) {
                Some(rel) => {
                    if rel.id != self.stored.relation_id {
                        self.changed("relation_id");
                    }
                    self.next.relation_id = rel.id;
                    self.next.relation_type = rel.kind;
                }
                None => relation_ok = false,
            }
        }
        let location_ok = self.location(ctx, &f.delivery_location_id);
        if relation_ok && location_ok {
            self.location_fits_relation(ctx);
        }
    }

    /// The delivery location sent, if any; false when it names no location.
    fn location(&mut self, ctx: &dyn Context, field: &Field<String>) -> bool {
        match field {
            Field::Valid(lid) => {
                let mut ok = true;
                if looked_up(ctx.delivery_location(lid), &mut self.errors).is_none() {
                    location_not_found(lid, &mut self.errors);
                    ok = false;
                } else if self.stored.delivery_location_id.as_deref() != Some(lid.as_str()) {
                    self.changed("delivery_location_id");
                }
                self.next.delivery_location_id = Some(lid.clone());
                ok
            }
            Field::Null => {
                if self.stored.delivery_location_id.is_some() {
                    self.changed("delivery_location_id");
                }
                self.next.delivery_location_id = None;
                true
            }
            Field::Invalid => false,
            Field::Absent => true,
        }
    }

    /// A location left attached must belong to the (new) relation.
    fn location_fits_relation(&mut self, ctx: &dyn Context) {
        let Some(lid) = self.next.delivery_location_id.clone() else {
            return;
        };
        let Some(location) = looked_up(ctx.delivery_location(&lid), &mut self.errors) else {
            return;
        };
        if location.relation_id != self.next.relation_id {
            self.errors.push_ctx(
                ErrorCode::DeliveryLocationRelationMismatch,
                body_loc().key("delivery_location_id"),
                format!(
                    "the delivery location {:?} belongs to another relation",
                    location.id
                ),
                None,
                json!({"relation_id": location.relation_id}),
            );
        }
    }

    /// issue_date (not in the future, in its number's window), payment_terms, the
    /// optional dates and the period.
    fn dates(&mut self, today: NaiveDate, f: &BodyFields) {
        if let Field::Valid(d) = f.issue_date {
            check_not_future(&f.issue_date, "issue_date", today, &mut self.errors);
            self.issue_date_in_window(d);
            if d != self.stored.issue_date {
                self.changed("issue_date");
            }
            self.next.issue_date = d;
        }
        if let Field::Valid(t) = f.payment_terms {
            if t != self.stored.payment_terms {
                self.changed("payment_terms");
            }
            self.next.payment_terms = t;
        }
        check_not_future(&f.delivery_date, "delivery_date", today, &mut self.errors);
        self.set("tax_point_date", &f.tax_point_date, |d| {
            &mut d.tax_point_date
        });
        self.set("delivery_date", &f.delivery_date, |d| &mut d.delivery_date);
        self.set("period_start", &f.period_start, |d| &mut d.period_start);
        self.set("period_end", &f.period_end, |d| &mut d.period_end);
        if !f.period_start.is_invalid() && !f.period_end.is_invalid() {
            check_period(
                self.next.period_start,
                self.next.period_end,
                &mut self.errors,
            );
        }
    }

    /// docs/decisions.md §6: a change of issue_date or payment_terms re-derives due_date,
    /// which must not fall after 9999-12-31: refused at the field that pushed it
    /// there (issue_date when only it was sent, else payment_terms).
    fn due_date(&mut self, f: &BodyFields) {
        if f.issue_date.is_invalid() || f.payment_terms.is_invalid() {
            return;
        }
        let next = &mut self.next;
        if let Some(d) = bounded_due_date(next.payment_terms, next.issue_date, f, &mut self.errors)
        {
            next.due_date = d;
        }
    }

    /// docs/decisions.md §6: issue_date stays in the window its number was drawn in.
    fn issue_date_in_window(&mut self, d: NaiveDate) {
        let stored = self.stored;
        if !stored.numbering.keeps_window(stored.numbered_on, d) {
            self.errors.push_ctx(
                ErrorCode::IssueDateOutsideNumberWindow,
                body_loc().key("issue_date"),
                format!(
                    "the number {} was drawn in a {} window that does not hold {d}",
                    stored.document_number, stored.numbering
                ),
                Some(&Value::String(d.to_string())),
                json!({"numbering": stored.numbering.as_str(), "numbered_on": stored.numbered_on.to_string()}),
            );
        }
    }

    /// The optional texts: order_number, despatch_reference, buyer_reference,
    /// legal_notice.
    fn texts(&mut self, f: &BodyFields) {
        self.set("order_number", &f.order_number, |d| &mut d.order_number);
        self.set("despatch_reference", &f.despatch_reference, |d| {
            &mut d.despatch_reference
        });
        self.set("buyer_reference", &f.buyer_reference, |d| {
            &mut d.buyer_reference
        });
        self.set("legal_notice", &f.legal_notice, |d| &mut d.legal_notice);
    }

    /// An optional field sent (`null` clears it) written into the slot `at` picks;
    /// `key` is noted as changed when the value differs.
    fn set<T: Clone + PartialEq>(
        &mut self,
        key: &str,
        field: &Field<T>,
        at: fn(&mut Document) -> &mut Option<T>,
    ) {
        let new = match field {
            Field::Valid(v) => Some(v.clone()),
            Field::Null => None,
            Field::Absent | Field::Invalid => return,
        };
        let slot = at(&mut self.next);
        let changed = new != *slot;
        *slot = new;
        if changed {
            self.changed(key);
        }
    }

    /// currency, paid_amount, lines and allowance_charges, then everything is
    /// recomputed and paid_amount checked against the new total.
    fn amounts(&mut self, company: &Company, f: BodyFields) {
        let currency_changed = matches!(f.currency, Field::Valid(c) if c != self.stored.currency);
        if let Field::Valid(c) = f.currency {
            if c != self.stored.currency {
                self.changed("currency");
            }
            self.next.currency = c;
        }
        // docs/decisions.md §2: a new currency does not silently round the stored amounts
        if currency_changed {
            stored_amounts_fit(&self.next, &f, &mut self.errors);
        }
        let paid_invalid = f.paid_amount.is_invalid();
        if let Field::Valid(p) = f.paid_amount {
            self.next.paid_amount = p;
        }
        let inputs_valid =
            !f.currency.is_invalid() && !f.lines.is_invalid() && !f.allowance_charges.is_invalid();
        // docs/decisions.md §6: lines and allowance_charges sent are always a change
        if let Field::Valid(lines) = f.lines {
            self.changed("lines");
            self.next.lines = lines;
        }
        match f.allowance_charges {
            Field::Valid(acs) => {
                self.changed("allowance_charges");
                self.next.allowance_charges = acs;
            }
            Field::Null => {
                self.changed("allowance_charges");
                self.next.allowance_charges = Vec::new();
            }
            _ => {}
        }
        if inputs_valid {
            self.recompute(company, paid_invalid);
        }
    }

    /// The amounts of the next document, and paid_amount against its total.
    fn recompute(&mut self, company: &Company, paid_invalid: bool) {
        let next = &mut self.next;
        if let Some(c) = compute_amounts(
            next.currency,
            &next.lines,
            &next.allowance_charges,
            &mut self.errors,
        ) {
            if !paid_invalid {
                check_paid(next.paid_amount, &c, &mut self.errors);
            }
            next.exemptions = exemptions(company, &c);
            next.computation = c;
        }
    }

    /// The derived field of an accepted PATCH: the payment status, which follows a new paid amount or a new total; otherwise a status a
    /// back-office override set is kept.
    ///
    /// A PATCH that changes a document not under the edit lock makes its PDF stale:
    /// `pdf_available` turns false until the asynchronous world renders it again
    /// (docs/files.md §2). A document under the edit lock never gets a new PDF.
    fn derive(self, paid_sent: bool) -> Document {
        let mut next = self.next;
        if paid_sent || next.computation.total_amount != self.stored.computation.total_amount {
            next.payment_status =
                PaymentStatus::derive(next.paid_amount, next.computation.total_amount);
        }
        if !self.stored.is_locked() && next != *self.stored {
            next.pdf_available = false;
        }
        next
    }
}

/// After a currency change, the stored amounts the body did not resend must fit the
/// new currency's minor unit: they are refused (`decimal_max_places` at their place),
/// never rounded (docs/decisions.md §2).
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
