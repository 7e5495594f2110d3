//! The stored form of a document: one versioned JSON form a server keeps in a column,
//! for an issued document ([`Document`]) and a received one ([`StoredReceived`]).
//!
//! ```text
//! {"version": 1, "kind": "issued", "document": {...}}
//! {"version": 1, "kind": "received", "id": "...", "origin": "peppol", ..., "document": {...}}
//! ```
//!
//! [`StoredDocument::store`] writes it, [`StoredDocument::load`] reads it back; a round
//! trip (store → load → store) is byte-identical, and a loaded document answers every
//! PATCH and send as the original does: everything the rules read is kept, the
//! numbering state (`numbering`, `numbered_on`) included.
//!
//! Decisions taken where the specification is silent:
//! - Amounts, quantities, prices and rates are decimal **strings** holding the exact
//!   value with its scale (`"9.990"` stays `"9.990"`): no float ever reads them.
//! - The computed amounts are stored, not recomputed on load: a document answers the
//!   amounts it was issued with even if a later version of the crate computed
//!   differently (a legal document's amounts never change on a software update).
//! - Dates are `YYYY-MM-DD`, `create_date` is RFC 3339 in UTC with `Z` and as many
//!   fraction digits as it has. Closed sets are written as the interface writes them.
//! - Loading is strict: an unknown key, an unknown version or kind, a value outside
//!   its set, or lists that do not line up (lines and their amounts, VAT groups and
//!   their exemptions) is a [`StoredError`], never a panic.
//! - The form is versioned by `version`; this crate writes and reads version 1.

use crate::attachment::{Attachment, MediaType};
use crate::compute::{
    AllowanceCharge, AllowanceKind, AllowanceValue, Computation, DocumentAllowanceAmounts,
    LineAmounts, LinePricing, PaymentStatus, VatGroup,
};
use crate::document::{
    AccountingStatus, Document, DocumentType, Exemption, Line, MailStatus, PeppolStatus,
};
use crate::money::Currency;
use crate::numbering::Numbering;
use crate::party::RelationKind;
use crate::received::{ReceivedDocument, ResponseInfo};
use crate::remittance::StructuredReference;
use crate::terms::PaymentTerms;
use crate::vat::VatCode;
use chrono::{DateTime, NaiveDate, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The version of the stored form this crate writes and reads.
pub const VERSION: u32 = 1;

use crate::wire::{opt_text, text};

/// Serde helper: an instant as RFC 3339 in UTC (`Z`), fraction digits as needed.
pub(crate) mod instant {
    use chrono::{DateTime, SecondsFormat, Utc};
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(v: &DateTime<Utc>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.to_rfc3339_opts(SecondsFormat::AutoSi, true))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<DateTime<Utc>, D::Error> {
        let s = String::deserialize(d)?;
        DateTime::parse_from_rfc3339(&s)
            .map(|t| t.with_timezone(&Utc))
            .map_err(D::Error::custom)
    }
}

/// Why a stored form cannot be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("stored document: {0}")]
pub struct StoredError(pub String);

/// A received document with what the world keeps beside it: its id, the channel it
/// came in through, the type given to bytes that are not UBL, when it was received,
/// the relation and journal it was matched to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredReceived {
    /// Opaque unique identifier.
    pub id: String,
    /// The channel (`peppol` by default).
    pub origin: String,
    /// The `type` of bytes that are not UBL (`other_document`…), if given.
    pub type_override: Option<String>,
    /// When it was received (its `create_date`).
    #[serde(with = "instant")]
    pub create_date: DateTime<Utc>,
    /// The relation matched, with its kind.
    pub relation: Option<StoredRelation>,
    /// The journal it is booked in.
    pub journal_id: Option<String>,
    /// The document as read (and as PATCHed since).
    pub document: ReceivedDocument,
}

/// The relation a received document was matched to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredRelation {
    /// The relation's id.
    pub id: String,
    /// Its kind.
    pub kind: RelationKind,
}

impl StoredReceived {
    /// The response shape of the document (as `GET /documents/{id}` answers it).
    pub fn to_json(&self) -> Value {
        let info = ResponseInfo {
            origin: &self.origin,
            type_override: self.type_override.as_deref(),
            create_date: Some(self.create_date),
            relation: self.relation.as_ref().map(|r| (r.id.as_str(), r.kind)),
            journal_id: self.journal_id.as_deref(),
            ..ResponseInfo::new(&self.id)
        };
        self.document.to_json(&info)
    }
}

/// A document as a server keeps it: issued or received.
// Both variants are large; a server holds few at a time and moves them whole.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum StoredDocument {
    /// A document the company issued (created through the API).
    Issued(Document),
    /// A document the company received.
    Received(Box<StoredReceived>),
}

impl StoredDocument {
    /// Its id.
    pub fn id(&self) -> &str {
        match self {
            Self::Issued(d) => &d.id,
            Self::Received(r) => &r.id,
        }
    }

    /// The response shape of the document (as `GET /documents/{id}` answers it).
    pub fn to_json(&self) -> Value {
        match self {
            Self::Issued(d) => d.to_json(),
            Self::Received(r) => r.to_json(),
        }
    }

    /// The stored form: `{"version": 1, "kind": "issued"|"received", ...}`.
    ///
    /// ```
    /// # use invoicing_core::simulator::Simulator;
    /// use invoicing_core::stored::StoredDocument;
    /// # let scenario = r#"{"today": "2026-11-21", "relations": [{"id": "r", "kind": "company"}],
    /// #   "journals": [{"id": "j", "category": "sales_invoice", "numbering": "yearly", "prefix": "F", "default": true}],
    /// #   "documents": [{"id": "d", "create": {"type": "sale_invoice", "relation_id": "r",
    /// #     "lines": [{"quantity": 2, "unit_price": 9.990, "vat_rate": 21}]}}], "requests": []}"#;
    /// # let sim = Simulator::load(scenario.as_bytes()).unwrap();
    /// # let document = sim.document("d").unwrap().clone();
    /// let stored = StoredDocument::Issued(document).store();
    /// let loaded = StoredDocument::load(&stored)?;
    /// assert_eq!(loaded.store(), stored); // byte-identical
    /// # Ok::<(), invoicing_core::stored::StoredError>(())
    /// ```
    pub fn store(&self) -> Vec<u8> {
        let form = match self {
            Self::Issued(d) => Form::Issued {
                version: VERSION,
                document: Box::new(IssuedForm::of(d)),
            },
            Self::Received(r) => Form::Received {
                version: VERSION,
                received: r.clone(),
            },
        };
        // Writing owned data with string keys to a Vec cannot fail.
        serde_json::to_vec(&form).unwrap_or_default()
    }

    /// Reads a stored form back.
    pub fn load(bytes: &[u8]) -> Result<StoredDocument, StoredError> {
        let form: Form = serde_json::from_slice(bytes).map_err(|e| StoredError(e.to_string()))?;
        match form {
            Form::Issued { version, document } => {
                check_version(version)?;
                document.into_document().map(Self::Issued)
            }
            Form::Received { version, received } => {
                check_version(version)?;
                Ok(Self::Received(received))
            }
        }
    }
}

fn check_version(version: u32) -> Result<(), StoredError> {
    if version == VERSION {
        Ok(())
    } else {
        Err(StoredError(format!(
            "version {version} is not known (this crate reads version {VERSION})"
        )))
    }
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
enum Form {
    Issued {
        version: u32,
        document: Box<IssuedForm>,
    },
    Received {
        version: u32,
        #[serde(flatten)]
        received: Box<StoredReceived>,
    },
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct IssuedForm {
    id: String,
    #[serde(rename = "type")]
    doc_type: DocumentType,
    origin: String,
    document_number: String,
    numbering: Numbering,
    #[serde(with = "text")]
    numbered_on: NaiveDate,
    journal_id: String,
    relation_id: String,
    relation_type: RelationKind,
    delivery_location_id: Option<String>,
    #[serde(with = "text")]
    issue_date: NaiveDate,
    #[serde(with = "text")]
    due_date: NaiveDate,
    #[serde(with = "text")]
    payment_terms: PaymentTerms,
    #[serde(with = "opt_text")]
    tax_point_date: Option<NaiveDate>,
    #[serde(with = "opt_text")]
    delivery_date: Option<NaiveDate>,
    #[serde(with = "opt_text")]
    period_start: Option<NaiveDate>,
    #[serde(with = "opt_text")]
    period_end: Option<NaiveDate>,
    order_number: Option<String>,
    despatch_reference: Option<String>,
    buyer_reference: Option<String>,
    legal_notice: Option<String>,
    #[serde(with = "text")]
    currency: Currency,
    #[serde(with = "text")]
    paid_amount: Decimal,
    lines: Vec<LineForm>,
    allowance_charges: Vec<AcForm>,
    computation: ComputationForm,
    exemptions: Vec<Option<ExemptionForm>>,
    #[serde(with = "text")]
    payment_remittance: StructuredReference,
    #[serde(with = "instant")]
    create_date: DateTime<Utc>,
    payment_status: PaymentStatus,
    accounting_status: AccountingStatus,
    peppol_status: PeppolStatus,
    mail_status: MailStatus,
    pdf_available: bool,
    xml_available: bool,
    /// Absent when the document has none: the form of a document without files is
    /// the form written before files existed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    attachments: Vec<AttachmentForm>,
}

/// An attachment as stored: filename, media type, size and SHA-256 (docs/files.md §1).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct AttachmentForm {
    filename: String,
    mimetype: MediaType,
    size: u64,
    sha256: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct LineForm {
    #[serde(with = "text")]
    quantity: Decimal,
    #[serde(with = "text")]
    unit_price: Decimal,
    vat_code: VatCode,
    #[serde(with = "opt_text")]
    vat_rate: Option<Decimal>,
    allowance_charges: Vec<AcForm>,
    item_name: Option<String>,
    item_description: Option<String>,
    unit_code: Option<String>,
    section_name: Option<String>,
    item_properties: Option<Map<String, Value>>,
    item_identification: Option<String>,
    product_code: Option<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct AcForm {
    #[serde(rename = "type")]
    kind: AllowanceKind,
    #[serde(with = "opt_text")]
    amount: Option<Decimal>,
    #[serde(with = "opt_text")]
    rate: Option<Decimal>,
    reason: Option<String>,
    code: Option<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExemptionForm {
    reason: String,
    code: Option<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ComputationForm {
    lines: Vec<LineAmounts>,
    groups: Vec<VatGroup>,
    allowance_charges: Vec<DocumentAllowanceAmounts>,
    #[serde(with = "text")]
    line_total: Decimal,
    #[serde(with = "text")]
    allowance_total: Decimal,
    #[serde(with = "text")]
    charge_total: Decimal,
    #[serde(with = "text")]
    tax_exclusive_amount: Decimal,
    #[serde(with = "text")]
    tax_amount: Decimal,
    #[serde(with = "text")]
    total_amount: Decimal,
}

impl AcForm {
    fn of(ac: &AllowanceCharge) -> AcForm {
        let (amount, rate) = match ac.value {
            AllowanceValue::Amount(a) => (Some(a), None),
            AllowanceValue::Rate(r) => (None, Some(r)),
        };
        AcForm {
            kind: ac.kind,
            amount,
            rate,
            reason: ac.reason.clone(),
            code: ac.code.clone(),
        }
    }

    fn into_ac(self) -> Result<AllowanceCharge, StoredError> {
        let value = match (self.amount, self.rate) {
            (Some(a), None) => AllowanceValue::Amount(a),
            (None, Some(r)) => AllowanceValue::Rate(r),
            _ => {
                return Err(StoredError(
                    "an allowance/charge needs exactly one of amount and rate".into(),
                ))
            }
        };
        Ok(AllowanceCharge {
            kind: self.kind,
            value,
            reason: self.reason,
            code: self.code,
        })
    }
}

fn acs(list: Vec<AcForm>) -> Result<Vec<AllowanceCharge>, StoredError> {
    list.into_iter().map(AcForm::into_ac).collect()
}

impl LineForm {
    fn of(l: &Line) -> LineForm {
        LineForm {
            quantity: l.pricing.quantity,
            unit_price: l.pricing.unit_price,
            vat_code: l.pricing.vat_code,
            vat_rate: l.pricing.vat_rate,
            allowance_charges: l.pricing.allowance_charges.iter().map(AcForm::of).collect(),
            item_name: l.item_name.clone(),
            item_description: l.item_description.clone(),
            unit_code: l.unit_code.clone(),
            section_name: l.section_name.clone(),
            item_properties: l.item_properties.clone(),
            item_identification: l.item_identification.clone(),
            product_code: l.product_code.clone(),
        }
    }

    fn into_line(self) -> Result<Line, StoredError> {
        let l = self;
        Ok(Line {
            pricing: LinePricing {
                quantity: l.quantity,
                unit_price: l.unit_price,
                vat_code: l.vat_code,
                vat_rate: l.vat_rate,
                allowance_charges: acs(l.allowance_charges)?,
            },
            item_name: l.item_name,
            item_description: l.item_description,
            unit_code: l.unit_code,
            section_name: l.section_name,
            item_properties: l.item_properties,
            item_identification: l.item_identification,
            product_code: l.product_code,
        })
    }
}

impl ComputationForm {
    fn of(c: &Computation) -> ComputationForm {
        ComputationForm {
            lines: c.lines.clone(),
            groups: c.groups.clone(),
            allowance_charges: c.allowance_charges.clone(),
            line_total: c.line_total,
            allowance_total: c.allowance_total,
            charge_total: c.charge_total,
            tax_exclusive_amount: c.tax_exclusive_amount,
            tax_amount: c.tax_amount,
            total_amount: c.total_amount,
        }
    }

    fn into_computation(self, currency: Currency) -> Computation {
        let c = self;
        Computation {
            currency,
            lines: c.lines,
            groups: c.groups,
            allowance_charges: c.allowance_charges,
            line_total: c.line_total,
            allowance_total: c.allowance_total,
            charge_total: c.charge_total,
            tax_exclusive_amount: c.tax_exclusive_amount,
            tax_amount: c.tax_amount,
            total_amount: c.total_amount,
        }
    }
}

impl AttachmentForm {
    fn of(a: &Attachment) -> AttachmentForm {
        AttachmentForm {
            filename: a.filename.clone(),
            mimetype: a.mimetype,
            size: a.size,
            sha256: a.sha256.clone(),
        }
    }

    fn into_attachment(self) -> Result<Attachment, StoredError> {
        let a = self;
        let hex = a.sha256.len() == 64
            && a.sha256
                .bytes()
                .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        if !hex || a.size == 0 {
            return Err(StoredError(format!(
                "attachment {:?}: size must be at least 1 and sha256 64 lower-case hex digits",
                a.filename
            )));
        }
        Ok(Attachment {
            filename: a.filename,
            mimetype: a.mimetype,
            size: a.size,
            sha256: a.sha256,
        })
    }
}

impl IssuedForm {
    /// The computed amounts line up with the lines, the document's allowances and
    /// charges, and the VAT groups (a stored form edited by hand may not).
    fn check_shapes(&self) -> Result<(), StoredError> {
        let c = &self.computation;
        let lines_ok = c.lines.len() == self.lines.len()
            && c.lines
                .iter()
                .zip(&self.lines)
                .all(|(a, l)| a.allowance_charges.len() == l.allowance_charges.len());
        if !lines_ok {
            return Err(StoredError(
                "the computed line amounts do not line up with the lines".into(),
            ));
        }
        if c.allowance_charges.len() != self.allowance_charges.len()
            || c.allowance_charges
                .iter()
                .any(|a| a.shares.len() != c.groups.len())
        {
            return Err(StoredError(
                "the computed allowance/charge amounts do not line up with the document's".into(),
            ));
        }
        if self.exemptions.len() != c.groups.len() {
            return Err(StoredError(
                "the exemptions do not line up with the vat groups".into(),
            ));
        }
        Ok(())
    }

    fn of(d: &Document) -> IssuedForm {
        IssuedForm {
            id: d.id.clone(),
            doc_type: d.doc_type,
            origin: d.origin.clone(),
            document_number: d.document_number.clone(),
            numbering: d.numbering,
            numbered_on: d.numbered_on,
            journal_id: d.journal_id.clone(),
            relation_id: d.relation_id.clone(),
            relation_type: d.relation_type,
            delivery_location_id: d.delivery_location_id.clone(),
            issue_date: d.issue_date,
            due_date: d.due_date,
            payment_terms: d.payment_terms,
            tax_point_date: d.tax_point_date,
            delivery_date: d.delivery_date,
            period_start: d.period_start,
            period_end: d.period_end,
            order_number: d.order_number.clone(),
            despatch_reference: d.despatch_reference.clone(),
            buyer_reference: d.buyer_reference.clone(),
            legal_notice: d.legal_notice.clone(),
            currency: d.currency,
            paid_amount: d.paid_amount,
            lines: d.lines.iter().map(LineForm::of).collect(),
            allowance_charges: d.allowance_charges.iter().map(AcForm::of).collect(),
            computation: ComputationForm::of(&d.computation),
            exemptions: d
                .exemptions
                .iter()
                .map(|e| {
                    e.as_ref().map(|e| ExemptionForm {
                        reason: e.reason.clone(),
                        code: e.code.clone(),
                    })
                })
                .collect(),
            payment_remittance: d.payment_remittance,
            create_date: d.create_date,
            payment_status: d.payment_status,
            accounting_status: d.accounting_status,
            peppol_status: d.peppol_status,
            mail_status: d.mail_status,
            pdf_available: d.pdf_available,
            xml_available: d.xml_available,
            attachments: d.attachments.iter().map(AttachmentForm::of).collect(),
        }
    }

    fn into_document(self) -> Result<Document, StoredError> {
        self.check_shapes()?;
        let lines = self
            .lines
            .into_iter()
            .map(LineForm::into_line)
            .collect::<Result<Vec<Line>, StoredError>>()?;
        let computation = self.computation.into_computation(self.currency);
        Ok(Document {
            id: self.id,
            doc_type: self.doc_type,
            origin: self.origin,
            document_number: self.document_number,
            numbering: self.numbering,
            numbered_on: self.numbered_on,
            journal_id: self.journal_id,
            relation_id: self.relation_id,
            relation_type: self.relation_type,
            delivery_location_id: self.delivery_location_id,
            issue_date: self.issue_date,
            due_date: self.due_date,
            payment_terms: self.payment_terms,
            tax_point_date: self.tax_point_date,
            delivery_date: self.delivery_date,
            period_start: self.period_start,
            period_end: self.period_end,
            order_number: self.order_number,
            despatch_reference: self.despatch_reference,
            buyer_reference: self.buyer_reference,
            legal_notice: self.legal_notice,
            currency: self.currency,
            paid_amount: self.paid_amount,
            lines,
            allowance_charges: acs(self.allowance_charges)?,
            computation,
            exemptions: self
                .exemptions
                .into_iter()
                .map(|e| {
                    e.map(|e| Exemption {
                        reason: e.reason,
                        code: e.code,
                    })
                })
                .collect(),
            payment_remittance: self.payment_remittance,
            create_date: self.create_date,
            payment_status: self.payment_status,
            accounting_status: self.accounting_status,
            peppol_status: self.peppol_status,
            mail_status: self.mail_status,
            pdf_available: self.pdf_available,
            xml_available: self.xml_available,
            attachments: self
                .attachments
                .into_iter()
                .map(AttachmentForm::into_attachment)
                .collect::<Result<_, _>>()?,
        })
    }
}

#[cfg(test)]
mod tests;
