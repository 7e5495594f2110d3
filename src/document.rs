//! The document: its type, states, lines, the stored record and its JSON response
//! shape (interface.md "Document (response shape)", decisions.md §2, §3).

use crate::compute::{AllowanceCharge, AllowanceValue, Computation, LinePricing, PaymentStatus};
use crate::context::RelationKind;
use crate::money::{decimal_value, Currency};
use crate::numbering::{JournalCategory, Numbering};
use crate::remittance::StructuredReference;
use crate::terms::PaymentTerms;
use chrono::{DateTime, NaiveDate, Utc};
use rust_decimal::Decimal;
use serde_json::{Map, Value};

/// The type of an issued document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DocumentType {
    /// A sales invoice.
    SaleInvoice,
    /// A sales credit note.
    SaleCreditNote,
    /// A self-billing purchase invoice.
    PurchaseInvoice,
    /// A self-billing purchase credit note.
    PurchaseCreditNote,
    /// A proforma invoice (not carried by Peppol).
    ProformaInvoice,
}

impl DocumentType {
    /// Every type a document can be created with.
    pub const ALL: [DocumentType; 5] = [
        Self::SaleInvoice,
        Self::SaleCreditNote,
        Self::PurchaseInvoice,
        Self::PurchaseCreditNote,
        Self::ProformaInvoice,
    ];

    /// The type as written.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::SaleInvoice => "sale_invoice",
            Self::SaleCreditNote => "sale_credit_note",
            Self::PurchaseInvoice => "purchase_invoice",
            Self::PurchaseCreditNote => "purchase_credit_note",
            Self::ProformaInvoice => "proforma_invoice",
        }
    }

    /// The type written `s`, if any.
    pub fn parse(s: &str) -> Option<DocumentType> {
        Self::ALL.into_iter().find(|t| t.as_str() == s)
    }

    /// The journal category the type is booked in (decisions.md §5).
    pub fn journal_category(self) -> JournalCategory {
        match self {
            Self::SaleInvoice => JournalCategory::SalesInvoice,
            Self::SaleCreditNote => JournalCategory::SalesCredit,
            Self::PurchaseInvoice => JournalCategory::PurchasesInvoice,
            Self::PurchaseCreditNote => JournalCategory::PurchasesCredit,
            Self::ProformaInvoice => JournalCategory::Proforma,
        }
    }

    /// Whether Peppol carries the type (every type but the proforma, decisions.md §7).
    pub fn is_peppol_type(self) -> bool {
        !matches!(self, Self::ProformaInvoice)
    }

    /// Whether the type is a self-billing document (interface.md create rule 4).
    pub fn is_self_billing(self) -> bool {
        matches!(self, Self::PurchaseInvoice | Self::PurchaseCreditNote)
    }
}

/// The accounting state of a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AccountingStatus {
    /// Waiting to be booked (every new document).
    Waiting,
    /// Accepted.
    Accepted,
    /// Transferred to the accountant (locks the document).
    Transfered,
    /// Exported (locks the document).
    Exported,
    /// The export failed.
    ExportError,
    /// Imported (locks the document).
    Imported,
    /// Validated (locks the document).
    Validated,
    /// Hidden.
    Hidden,
    /// Being exported (locks the document).
    Exporting,
    /// Being posted (locks the document).
    Posting,
    /// The posting failed.
    PostingError,
    /// Deleted: takes no change.
    Deleted,
    /// Not known.
    Unknown,
}

impl AccountingStatus {
    /// Every value.
    pub const ALL: &'static [AccountingStatus] = &[
        Self::Waiting,
        Self::Accepted,
        Self::Transfered,
        Self::Exported,
        Self::ExportError,
        Self::Imported,
        Self::Validated,
        Self::Hidden,
        Self::Exporting,
        Self::Posting,
        Self::PostingError,
        Self::Deleted,
        Self::Unknown,
    ];

    /// The value as written.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Waiting => "waiting",
            Self::Accepted => "accepted",
            Self::Transfered => "transfered",
            Self::Exported => "exported",
            Self::ExportError => "export_error",
            Self::Imported => "imported",
            Self::Validated => "validated",
            Self::Hidden => "hidden",
            Self::Exporting => "exporting",
            Self::Posting => "posting",
            Self::PostingError => "posting_error",
            Self::Deleted => "deleted",
            Self::Unknown => "unknown",
        }
    }

    /// The value written `s`, if any.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.as_str() == s)
    }
}

/// Where the document stands on the Peppol network.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PeppolStatus {
    /// Not sent.
    NotSent,
    /// Being sent.
    Sending,
    /// Delivered to the network.
    Sent,
    /// Acknowledged by the recipient.
    Accepted,
    /// Refused by the recipient.
    Rejected,
    /// The send failed.
    Failed,
    /// Not known.
    Unknown,
}

impl PeppolStatus {
    /// Every value.
    pub const ALL: &'static [PeppolStatus] = &[
        Self::NotSent,
        Self::Sending,
        Self::Sent,
        Self::Accepted,
        Self::Rejected,
        Self::Failed,
        Self::Unknown,
    ];

    /// The value as written.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::NotSent => "not_sent",
            Self::Sending => "sending",
            Self::Sent => "sent",
            Self::Accepted => "accepted",
            Self::Rejected => "rejected",
            Self::Failed => "failed",
            Self::Unknown => "unknown",
        }
    }

    /// The value written `s`, if any.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.as_str() == s)
    }
}

/// Where the document stands by mail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MailStatus {
    /// Not sent.
    NotSent,
    /// Sent.
    Sent,
    /// The send failed.
    Failed,
    /// Not known.
    Unknown,
}

impl MailStatus {
    /// Every value.
    pub const ALL: &'static [MailStatus] =
        &[Self::NotSent, Self::Sent, Self::Failed, Self::Unknown];

    /// The value as written.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::NotSent => "not_sent",
            Self::Sent => "sent",
            Self::Failed => "failed",
            Self::Unknown => "unknown",
        }
    }

    /// The value written `s`, if any.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.as_str() == s)
    }
}

impl PeppolStatus {
    /// Whether the document has left (or may have): sending, sent, accepted, unknown.
    /// Such a document cannot be sent again and is under the edit lock (decisions.md §6, §7).
    pub fn has_left(self) -> bool {
        matches!(
            self,
            Self::Sending | Self::Sent | Self::Accepted | Self::Unknown
        )
    }
}

impl AccountingStatus {
    /// Whether the accounting state locks the document (decisions.md §6).
    pub fn locks(self) -> bool {
        matches!(
            self,
            Self::Transfered
                | Self::Exporting
                | Self::Exported
                | Self::Posting
                | Self::Validated
                | Self::Imported
        )
    }
}

/// A document line: its pricing and its descriptive fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// What the computation reads.
    pub pricing: LinePricing,
    /// Item name.
    pub item_name: Option<String>,
    /// Item description.
    pub item_description: Option<String>,
    /// Unit of measure code, for example `C62`.
    pub unit_code: Option<String>,
    /// Section title.
    pub section_name: Option<String>,
    /// Free key/value pairs, kept as sent.
    pub item_properties: Option<Map<String, Value>>,
    /// Standard item identifier, for example a GTIN.
    pub item_identification: Option<String>,
    /// Seller's own product code.
    pub product_code: Option<String>,
}

/// The exemption mention of one VAT group: the text and the VATEX code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exemption {
    /// The company's text, else the standard wording.
    pub reason: String,
    /// The VATEX code, if the code has one.
    pub code: Option<&'static str>,
}

/// A stored document with every computed field.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    /// Opaque unique identifier.
    pub id: String,
    /// The type.
    pub doc_type: DocumentType,
    /// The channel it came in through (`api` for created documents).
    pub origin: String,
    /// The number drawn from the journal.
    pub document_number: String,
    /// When the counter restarts for the journal the number was drawn in.
    pub numbering: Numbering,
    /// The issue date the number was drawn for: its window binds later issue dates.
    pub numbered_on: NaiveDate,
    /// The journal.
    pub journal_id: String,
    /// The third party.
    pub relation_id: String,
    /// Its kind.
    pub relation_type: RelationKind,
    /// Saved delivery address.
    pub delivery_location_id: Option<String>,
    /// Issue date.
    pub issue_date: NaiveDate,
    /// Due date, derived from the terms and the issue date.
    pub due_date: NaiveDate,
    /// Payment terms.
    pub payment_terms: PaymentTerms,
    /// Date the VAT becomes chargeable.
    pub tax_point_date: Option<NaiveDate>,
    /// Actual delivery date.
    pub delivery_date: Option<NaiveDate>,
    /// First day of the billed period.
    pub period_start: Option<NaiveDate>,
    /// Last day of the billed period.
    pub period_end: Option<NaiveDate>,
    /// Order number referenced.
    pub order_number: Option<String>,
    /// Despatch advice reference.
    pub despatch_reference: Option<String>,
    /// Buyer reference.
    pub buyer_reference: Option<String>,
    /// Legal mention.
    pub legal_notice: Option<String>,
    /// Currency of every amount.
    pub currency: Currency,
    /// Amount already paid.
    pub paid_amount: Decimal,
    /// The lines.
    pub lines: Vec<Line>,
    /// Document-level allowances and charges.
    pub allowance_charges: Vec<AllowanceCharge>,
    /// Every computed amount.
    pub computation: Computation,
    /// The exemption mention of each VAT group (aligned with the groups).
    pub exemptions: Vec<Option<Exemption>>,
    /// The structured communication.
    pub payment_remittance: StructuredReference,
    /// When the document was created.
    pub create_date: DateTime<Utc>,
    /// Payment state.
    pub payment_status: PaymentStatus,
    /// Accounting state.
    pub accounting_status: AccountingStatus,
    /// Peppol state.
    pub peppol_status: PeppolStatus,
    /// Mail state.
    pub mail_status: MailStatus,
    /// Whether a PDF is stored.
    pub pdf_available: bool,
    /// Whether a structured XML is stored.
    pub xml_available: bool,
}

fn opt_str(v: Option<&String>) -> Value {
    v.map_or(Value::Null, |s| Value::String(s.clone()))
}

fn date(d: NaiveDate) -> Value {
    Value::String(d.format("%Y-%m-%d").to_string())
}

fn opt_date(d: Option<NaiveDate>) -> Value {
    d.map_or(Value::Null, date)
}

fn allowance_json(ac: &AllowanceCharge, amount: Option<Decimal>, currency: Currency) -> Value {
    let mut m = Map::new();
    m.insert("code".into(), opt_str(ac.code.as_ref()));
    m.insert("type".into(), Value::String(ac.kind.as_str().into()));
    let amount = amount.or(match ac.value {
        AllowanceValue::Amount(a) => Some(a),
        AllowanceValue::Rate(_) => None,
    });
    m.insert(
        "amount".into(),
        amount.map_or(Value::Null, |a| currency.to_json(a)),
    );
    m.insert("reason".into(), opt_str(ac.reason.as_ref()));
    m.insert(
        "rate".into(),
        match ac.value {
            AllowanceValue::Rate(r) => decimal_value(r),
            AllowanceValue::Amount(_) => Value::Null,
        },
    );
    Value::Object(m)
}

impl Document {
    /// remaining_amount: total_amount − paid_amount.
    pub fn remaining_amount(&self) -> Decimal {
        self.computation.total_amount - self.paid_amount
    }

    /// Whether a change other than paid_amount is refused (decisions.md §6).
    pub fn is_locked(&self) -> bool {
        self.peppol_status.has_left() || self.accounting_status.locks()
    }

    /// The response shape of the document, fields in the interface's order, amounts
    /// with exactly the currency's minor-unit decimals, plus `vat_breakdown`.
    pub fn to_json(&self) -> Value {
        let c = self.currency;
        let comp = &self.computation;
        let mut m = Map::new();
        let mut put = |k: &str, v: Value| {
            m.insert(k.to_owned(), v);
        };
        put("id", Value::String(self.id.clone()));
        put("type", Value::String(self.doc_type.as_str().into()));
        put("origin", Value::String(self.origin.clone()));
        put(
            "document_number",
            Value::String(self.document_number.clone()),
        );
        put("order_number", opt_str(self.order_number.as_ref()));
        put(
            "despatch_reference",
            opt_str(self.despatch_reference.as_ref()),
        );
        put("buyer_reference", opt_str(self.buyer_reference.as_ref()));
        put("issue_date", date(self.issue_date));
        put("due_date", date(self.due_date));
        put("tax_point_date", opt_date(self.tax_point_date));
        put("delivery_date", opt_date(self.delivery_date));
        put("period_start", opt_date(self.period_start));
        put("period_end", opt_date(self.period_end));
        put(
            "payment_remittance",
            Value::String(self.payment_remittance.to_string()),
        );
        put("is_remittance_structured", Value::Bool(true));
        put(
            "create_date",
            Value::String(self.create_date.format("%Y-%m-%dT%H:%M:%SZ").to_string()),
        );
        put("currency", Value::String(c.code().into()));
        put("tax_exclusive_amount", c.to_json(comp.tax_exclusive_amount));
        put("tax_amount", c.to_json(comp.tax_amount));
        put("total_amount", c.to_json(comp.total_amount));
        put("paid_amount", c.to_json(self.paid_amount));
        put("remaining_amount", c.to_json(self.remaining_amount()));
        put(
            "payment_status",
            Value::String(self.payment_status.as_str().into()),
        );
        put(
            "accounting_status",
            Value::String(self.accounting_status.as_str().into()),
        );
        put("pdf_available", Value::Bool(self.pdf_available));
        put("xml_available", Value::Bool(self.xml_available));
        put(
            "relation_type",
            Value::String(self.relation_type.as_str().into()),
        );
        put("relation_id", Value::String(self.relation_id.clone()));
        put("journal_id", Value::String(self.journal_id.clone()));
        put(
            "delivery_location_id",
            opt_str(self.delivery_location_id.as_ref()),
        );
        put(
            "payment_terms",
            Value::String(self.payment_terms.to_string()),
        );
        put("legal_notice", opt_str(self.legal_notice.as_ref()));
        put(
            "peppol_status",
            Value::String(self.peppol_status.as_str().into()),
        );
        put(
            "mail_status",
            Value::String(self.mail_status.as_str().into()),
        );
        put("attachments", Value::Array(Vec::new()));
        put(
            "allowance_charges",
            Value::Array(
                self.allowance_charges
                    .iter()
                    .enumerate()
                    .map(|(j, ac)| {
                        allowance_json(ac, comp.allowance_charges.get(j).map(|a| a.amount), c)
                    })
                    .collect(),
            ),
        );
        put(
            "lines",
            Value::Array(
                self.lines
                    .iter()
                    .enumerate()
                    .map(|(i, line)| self.line_json(i, line))
                    .collect(),
            ),
        );
        put(
            "vat_breakdown",
            Value::Array(
                comp.groups
                    .iter()
                    .enumerate()
                    .map(|(g, group)| {
                        let mut e = Map::new();
                        e.insert(
                            "vat_code".into(),
                            Value::String(group.vat_code.as_str().into()),
                        );
                        e.insert(
                            "vat_rate".into(),
                            group.vat_rate.map_or(Value::Null, decimal_value),
                        );
                        e.insert(
                            "category".into(),
                            Value::String(group.vat_code.category().into()),
                        );
                        e.insert("taxable_amount".into(), c.to_json(group.taxable_amount));
                        e.insert("tax_amount".into(), c.to_json(group.tax_amount));
                        let ex = self.exemptions.get(g).and_then(Option::as_ref);
                        e.insert(
                            "exemption_reason".into(),
                            ex.map_or(Value::Null, |x| Value::String(x.reason.clone())),
                        );
                        e.insert(
                            "exemption_reason_code".into(),
                            ex.and_then(|x| x.code)
                                .map_or(Value::Null, |s| Value::String(s.into())),
                        );
                        Value::Object(e)
                    })
                    .collect(),
            ),
        );
        Value::Object(m)
    }

    fn line_json(&self, i: usize, line: &Line) -> Value {
        let c = self.currency;
        let p = &line.pricing;
        let amounts = self.computation.lines.get(i);
        let amount = |f: fn(&crate::compute::LineAmounts) -> Decimal| {
            amounts.map_or(Value::Null, |a| c.to_json(f(a)))
        };
        let mut m = Map::new();
        m.insert("sequence".into(), Value::from(i + 1));
        m.insert("quantity".into(), decimal_value(p.quantity));
        m.insert(
            "vat_rate".into(),
            p.vat_rate.map_or(Value::Null, decimal_value),
        );
        m.insert("item_name".into(), opt_str(line.item_name.as_ref()));
        m.insert(
            "item_description".into(),
            opt_str(line.item_description.as_ref()),
        );
        m.insert("unit_price".into(), decimal_value(p.unit_price));
        m.insert("unit_code".into(), opt_str(line.unit_code.as_ref()));
        m.insert("vat_code".into(), Value::String(p.vat_code.as_str().into()));
        m.insert("subtotal".into(), amount(|a| a.subtotal));
        m.insert("total".into(), amount(|a| a.total));
        m.insert("tax_amount".into(), amount(|a| a.tax_amount));
        m.insert("section_name".into(), opt_str(line.section_name.as_ref()));
        m.insert(
            "item_properties".into(),
            line.item_properties
                .clone()
                .map_or(Value::Null, Value::Object),
        );
        m.insert(
            "item_identification".into(),
            opt_str(line.item_identification.as_ref()),
        );
        m.insert("product_code".into(), opt_str(line.product_code.as_ref()));
        m.insert(
            "allowance_charges".into(),
            Value::Array(
                p.allowance_charges
                    .iter()
                    .enumerate()
                    .map(|(j, ac)| {
                        allowance_json(
                            ac,
                            amounts.and_then(|a| a.allowance_charges.get(j).copied()),
                            c,
                        )
                    })
                    .collect(),
            ),
        );
        Value::Object(m)
    }
}
