//! The fields that create and PATCH bodies share, read in one pass (docs/decisions.md §5, §6).

use super::fields::{date, number, string, Errors, Field, NumberRule, Slot};
use super::lines;
use crate::compute::AllowanceCharge;
use crate::context::Company;
use crate::document::Line;
use crate::error::{ErrorCode, Loc};
use crate::money::Currency;
use crate::terms::PaymentTerms;
use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde_json::{json, Map, Value};

/// The pattern payment terms must match, as the interface writes it.
pub const TERMS_PATTERN: &str = r"^\d{1,4}-(df|fm|mf)$";

/// Document fields that are derived and refused if sent (docs/decisions.md §5).
pub const DERIVED_FIELDS: &[&str] = &[
    "id",
    "origin",
    "document_number",
    "payment_remittance",
    "is_remittance_structured",
    "create_date",
    "tax_exclusive_amount",
    "tax_amount",
    "total_amount",
    "remaining_amount",
    "payment_status",
    "accounting_status",
    "peppol_status",
    "mail_status",
    "pdf_available",
    "xml_available",
    "vat_breakdown",
];

/// The body keys that create and PATCH both allow.
pub const BODY_KEYS: &[&str] = &[
    "type",
    "relation_id",
    "lines",
    "relation_type",
    "attachments",
    "journal_id",
    "delivery_location_id",
    "issue_date",
    "due_date",
    "payment_terms",
    "tax_point_date",
    "delivery_date",
    "period_start",
    "period_end",
    "order_number",
    "despatch_reference",
    "buyer_reference",
    "legal_notice",
    "currency",
    "paid_amount",
    "allowance_charges",
];

/// The largest paid_amount (docs/interface.md Limits).
pub const MAX_PAID: Decimal = Decimal::from_parts(999_999_999, 0, 0, false, 0);

/// The shared fields of a body, each absent, null, invalid or valid.
#[derive(Debug, Clone, PartialEq)]
pub struct BodyFields {
    /// relation_id.
    pub relation_id: Field<String>,
    /// delivery_location_id.
    pub delivery_location_id: Field<String>,
    /// issue_date.
    pub issue_date: Field<NaiveDate>,
    /// payment_terms.
    pub payment_terms: Field<PaymentTerms>,
    /// tax_point_date.
    pub tax_point_date: Field<NaiveDate>,
    /// delivery_date.
    pub delivery_date: Field<NaiveDate>,
    /// period_start.
    pub period_start: Field<NaiveDate>,
    /// period_end.
    pub period_end: Field<NaiveDate>,
    /// order_number (at most 255 characters).
    pub order_number: Field<String>,
    /// despatch_reference (at most 50).
    pub despatch_reference: Field<String>,
    /// buyer_reference (at most 50).
    pub buyer_reference: Field<String>,
    /// legal_notice (at most 10000).
    pub legal_notice: Field<String>,
    /// currency: valid means an active ISO 4217 code the company accepts.
    pub currency: Field<Currency>,
    /// paid_amount.
    pub paid_amount: Field<Decimal>,
    /// lines.
    pub lines: Field<Vec<Line>>,
    /// allowance_charges.
    pub allowance_charges: Field<Vec<AllowanceCharge>>,
}

/// Where a body's fields are read from: a parsed JSON object, or the values of a typed
/// pass over the bytes ([`super::typed::TypedBody`]).
pub trait Source {
    /// What the body holds under `key` (any key but `lines`).
    fn slot(&self, key: &str) -> Slot<'_>;
    /// The body's lines, read by [`lines::lines`]'s rules.
    fn lines(&self, loc: &Loc, currency: Option<Currency>, errors: &mut Errors)
        -> Field<Vec<Line>>;
}

impl Source for Map<String, Value> {
    fn slot(&self, key: &str) -> Slot<'_> {
        Slot::of(self, key)
    }

    fn lines(
        &self,
        loc: &Loc,
        currency: Option<Currency>,
        errors: &mut Errors,
    ) -> Field<Vec<Line>> {
        Field::read(Slot::of(self, "lines"), |v| {
            lines::lines(v, loc, currency, errors)
        })
    }
}

/// Reads the shared fields of `obj`. `fallback` is the currency amounts are checked
/// against when the body sends none (EUR on create, the document's on PATCH).
pub fn read(
    obj: &(impl Source + ?Sized),
    loc: &Loc,
    company: &Company,
    fallback: Option<Currency>,
    errors: &mut Errors,
) -> BodyFields {
    let text = |key: &str, max: Option<usize>, errors: &mut Errors| {
        Field::read(obj.slot(key), |v| string(v, loc, key, max, errors))
    };
    let day =
        |key: &str, errors: &mut Errors| Field::read(obj.slot(key), |v| date(v, loc, key, errors));
    // docs/decisions.md §2, §9: the code must be an active ISO 4217 code the company accepts;
    // a string over 20 characters gets string_too_long alone.
    let currency = Field::read(obj.slot("currency"), |v| {
        let code = string(v, loc, "currency", Some(20), errors)?;
        match Currency::from_code(&code) {
            Some(c) if company.accepts_currency(c.code()) => Some(c),
            _ => {
                errors.push_input(
                    ErrorCode::CurrencyNotSupported,
                    loc.key("currency"),
                    format!("the currency {code:?} is not supported"),
                    v,
                );
                None
            }
        }
    });
    let minor = match &currency {
        Field::Valid(c) => Some(*c),
        Field::Absent | Field::Null => fallback,
        Field::Invalid => None,
    };
    let payment_terms = Field::read(obj.slot("payment_terms"), |v| {
        let s = string(v, loc, "payment_terms", None, errors)?;
        let parsed = s.parse::<PaymentTerms>().ok();
        if parsed.is_none() {
            errors.push_ctx(
                ErrorCode::StringPatternMismatch,
                loc.key("payment_terms"),
                format!("string should match pattern '{TERMS_PATTERN}'"),
                Some(v),
                json!({"pattern": TERMS_PATTERN}),
            );
        }
        parsed
    });
    let paid_amount = Field::read(obj.slot("paid_amount"), |v| {
        number(
            v,
            loc,
            "paid_amount",
            NumberRule {
                ge: Some(Decimal::ZERO),
                le: Some(MAX_PAID),
                max_places: minor.map(Currency::minor_unit),
                ..NumberRule::default()
            },
            errors,
        )
    });
    BodyFields {
        relation_id: text("relation_id", None, errors),
        delivery_location_id: text("delivery_location_id", None, errors),
        issue_date: day("issue_date", errors),
        payment_terms,
        tax_point_date: day("tax_point_date", errors),
        delivery_date: day("delivery_date", errors),
        period_start: day("period_start", errors),
        period_end: day("period_end", errors),
        order_number: text("order_number", Some(255), errors),
        despatch_reference: text("despatch_reference", Some(50), errors),
        buyer_reference: text("buyer_reference", Some(50), errors),
        legal_notice: text("legal_notice", Some(10_000), errors),
        currency,
        paid_amount,
        lines: obj.lines(loc, minor, errors),
        allowance_charges: Field::read(obj.slot("allowance_charges"), |v| {
            lines::allowance_charges(v, loc, "allowance_charges", minor, errors)
        }),
    }
}
