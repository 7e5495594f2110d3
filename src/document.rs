//! The document: its type, states, lines, the stored record and its JSON response
//! shape (docs/interface.md "Document (response shape)", docs/decisions.md §2, §3).

use crate::compute::{
    AllowanceCharge, AllowanceValue, Computation, LineAmounts, LinePricing, PaymentStatus, VatGroup,
};
use crate::money::Currency;
use crate::numbering::{JournalCategory, Numbering};
use crate::party::RelationKind;
use crate::remittance::StructuredReference;
use crate::terms::PaymentTerms;
use crate::wire::closed_set;
use chrono::{DateTime, NaiveDate, Utc};
use rust_decimal::Decimal;
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value};

closed_set! {
    /// The type of an issued document.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum DocumentType("document type") {
        /// A sales invoice.
        SaleInvoice = "sale_invoice",
        /// A sales credit note.
        SaleCreditNote = "sale_credit_note",
        /// A self-billing purchase invoice.
        PurchaseInvoice = "purchase_invoice",
        /// A self-billing purchase credit note.
        PurchaseCreditNote = "purchase_credit_note",
        /// A proforma invoice (not carried by Peppol).
        ProformaInvoice = "proforma_invoice",
    }
}

impl DocumentType {
    /// The journal category the type is booked in (docs/decisions.md §5).
    pub fn journal_category(self) -> JournalCategory {
        match self {
            Self::SaleInvoice => JournalCategory::SalesInvoice,
            Self::SaleCreditNote => JournalCategory::SalesCredit,
            Self::PurchaseInvoice => JournalCategory::PurchasesInvoice,
            Self::PurchaseCreditNote => JournalCategory::PurchasesCredit,
            Self::ProformaInvoice => JournalCategory::Proforma,
        }
    }

    /// Whether Peppol carries the type (every type but the proforma, docs/decisions.md §7).
    pub fn is_peppol_type(self) -> bool {
        !matches!(self, Self::ProformaInvoice)
    }

    /// Whether the type is a self-billing document (docs/interface.md create rule 4).
    pub fn is_self_billing(self) -> bool {
        matches!(self, Self::PurchaseInvoice | Self::PurchaseCreditNote)
    }
}

closed_set! {
    /// The accounting state of a document.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum AccountingStatus("accounting status") {
        /// Waiting to be booked (every new document).
        Waiting = "waiting",
        /// Accepted.
        Accepted = "accepted",
        /// Transferred to the accountant (locks the document).
        Transfered = "transfered",
        /// Exported (locks the document).
        Exported = "exported",
        /// The export failed.
        ExportError = "export_error",
        /// Imported (locks the document).
        Imported = "imported",
        /// Validated (locks the document).
        Validated = "validated",
        /// Hidden.
        Hidden = "hidden",
        /// Being exported (locks the document).
        Exporting = "exporting",
        /// Being posted (locks the document).
        Posting = "posting",
        /// The posting failed.
        PostingError = "posting_error",
        /// Deleted: takes no change.
        Deleted = "deleted",
        /// Not known.
        Unknown = "unknown",
    }
}

closed_set! {
    /// Where the document stands on the Peppol network.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum PeppolStatus("peppol status") {
        /// Not sent.
        NotSent = "not_sent",
        /// Being sent.
        Sending = "sending",
        /// Delivered to the network.
        Sent = "sent",
        /// Acknowledged by the recipient.
        Accepted = "accepted",
        /// Refused by the recipient.
        Rejected = "rejected",
        /// The send failed.
        Failed = "failed",
        /// Not known.
        Unknown = "unknown",
    }
}

closed_set! {
    /// Where the document stands by mail.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum MailStatus("mail status") {
        /// Not sent.
        NotSent = "not_sent",
        /// Sent.
        Sent = "sent",
        /// The send failed.
        Failed = "failed",
        /// Not known.
        Unknown = "unknown",
    }
}

impl PeppolStatus {
    /// Whether the document has left (or may have): sending, sent, accepted, unknown.
    /// Such a document cannot be sent again and is under the edit lock (docs/decisions.md §6, §7).
    pub fn has_left(self) -> bool {
        matches!(
            self,
            Self::Sending | Self::Sent | Self::Accepted | Self::Unknown
        )
    }
}

impl AccountingStatus {
    /// Whether the accounting state locks the document (docs/decisions.md §6).
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

/// A document line: its pricing and its descriptive fields. Its serde form is the
/// stored form's: the pricing's fields first, then the others, in one object.
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
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exemption {
    /// The company's text, else the standard wording.
    pub reason: String,
    /// The VATEX code, if the code has one (owned: it may come from storage).
    pub code: Option<String>,
}

/// A stored document with every computed field. Its serde form is the stored form of
/// an issued document ([`crate::stored`]): every field, in this order, dates as
/// `YYYY-MM-DD`, decimals as strings, `create_date` in RFC 3339; `attachments` left out
/// when there is none. Its response shape is [`Response`]'s.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Document {
    /// Opaque unique identifier.
    pub id: String,
    /// The type.
    #[serde(rename = "type")]
    pub doc_type: DocumentType,
    /// The channel it came in through (`api` for created documents).
    pub origin: String,
    /// The number drawn from the journal.
    pub document_number: String,
    /// When the counter restarts for the journal the number was drawn in.
    pub numbering: Numbering,
    /// The issue date the number was drawn for: its window binds later issue dates.
    #[serde(with = "crate::wire::text")]
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
    #[serde(with = "crate::wire::text")]
    pub issue_date: NaiveDate,
    /// Due date, derived from the terms and the issue date.
    #[serde(with = "crate::wire::text")]
    pub due_date: NaiveDate,
    /// Payment terms.
    #[serde(with = "crate::wire::text")]
    pub payment_terms: PaymentTerms,
    /// Date the VAT becomes chargeable.
    #[serde(with = "crate::wire::opt_text")]
    pub tax_point_date: Option<NaiveDate>,
    /// Actual delivery date.
    #[serde(with = "crate::wire::opt_text")]
    pub delivery_date: Option<NaiveDate>,
    /// First day of the billed period.
    #[serde(with = "crate::wire::opt_text")]
    pub period_start: Option<NaiveDate>,
    /// Last day of the billed period.
    #[serde(with = "crate::wire::opt_text")]
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
    #[serde(with = "crate::wire::text")]
    pub currency: Currency,
    /// Amount already paid.
    #[serde(with = "crate::wire::text")]
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
    #[serde(with = "crate::wire::text")]
    pub payment_remittance: StructuredReference,
    /// When the document was created.
    #[serde(with = "crate::wire::instant")]
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
    /// The files attached, in the order added (docs/files.md §1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attachments: Vec<crate::attachment::Attachment>,
}

mod serde_line {
    //! The stored form of a line, read strictly: an unknown key or a key given twice is
    //! an error; `quantity`, `unit_price`, `vat_code` and `allowance_charges` are
    //! required.
    use super::Line;
    use crate::compute::LinePricing;
    use crate::wire::once;
    use rust_decimal::Decimal;
    use serde::de::{Error, MapAccess, Visitor};
    use serde::ser::SerializeMap;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::fmt;

    const FIELDS: &[&str] = &[
        "quantity",
        "unit_price",
        "vat_code",
        "vat_rate",
        "allowance_charges",
        "item_name",
        "item_description",
        "unit_code",
        "section_name",
        "item_properties",
        "item_identification",
        "product_code",
    ];

    impl Serialize for Line {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let p = &self.pricing;
            let mut m = s.serialize_map(Some(FIELDS.len()))?;
            m.serialize_entry("quantity", &p.quantity.to_string())?;
            m.serialize_entry("unit_price", &p.unit_price.to_string())?;
            m.serialize_entry("vat_code", &p.vat_code)?;
            m.serialize_entry("vat_rate", &p.vat_rate.map(|r| r.to_string()))?;
            m.serialize_entry("allowance_charges", &p.allowance_charges)?;
            m.serialize_entry("item_name", &self.item_name)?;
            m.serialize_entry("item_description", &self.item_description)?;
            m.serialize_entry("unit_code", &self.unit_code)?;
            m.serialize_entry("section_name", &self.section_name)?;
            m.serialize_entry("item_properties", &self.item_properties)?;
            m.serialize_entry("item_identification", &self.item_identification)?;
            m.serialize_entry("product_code", &self.product_code)?;
            m.end()
        }
    }

    impl<'de> Deserialize<'de> for Line {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_struct("Line", FIELDS, LineVisitor)
        }
    }

    struct LineVisitor;

    /// A decimal string.
    fn decimal<E: Error>(text: &str) -> Result<Decimal, E> {
        text.parse().map_err(E::custom)
    }

    impl<'de> Visitor<'de> for LineVisitor {
        type Value = Line;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("struct Line")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Line, A::Error> {
            let (mut quantity, mut unit_price, mut vat_code, mut vat_rate) =
                (None, None, None, None);
            let mut allowance_charges = None;
            let (mut item_name, mut item_description, mut unit_code) = (None, None, None);
            let (mut section_name, mut item_properties) = (None, None);
            let (mut item_identification, mut product_code) = (None, None);
            while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                match &*key {
                    "quantity" => once(
                        &mut quantity,
                        "quantity",
                        decimal(&map.next_value::<String>()?)?,
                    )?,
                    "unit_price" => {
                        once(
                            &mut unit_price,
                            "unit_price",
                            decimal(&map.next_value::<String>()?)?,
                        )?;
                    }
                    "vat_code" => once(&mut vat_code, "vat_code", map.next_value()?)?,
                    "vat_rate" => {
                        let rate = map.next_value::<Option<String>>()?;
                        once(
                            &mut vat_rate,
                            "vat_rate",
                            rate.map(|r| decimal(&r)).transpose()?,
                        )?;
                    }
                    "allowance_charges" => {
                        once(
                            &mut allowance_charges,
                            "allowance_charges",
                            map.next_value()?,
                        )?;
                    }
                    "item_name" => once(&mut item_name, "item_name", map.next_value()?)?,
                    "item_description" => {
                        once(&mut item_description, "item_description", map.next_value()?)?;
                    }
                    "unit_code" => once(&mut unit_code, "unit_code", map.next_value()?)?,
                    "section_name" => once(&mut section_name, "section_name", map.next_value()?)?,
                    "item_properties" => {
                        once(&mut item_properties, "item_properties", map.next_value()?)?;
                    }
                    "item_identification" => {
                        once(
                            &mut item_identification,
                            "item_identification",
                            map.next_value()?,
                        )?;
                    }
                    "product_code" => once(&mut product_code, "product_code", map.next_value()?)?,
                    other => return Err(A::Error::unknown_field(other, FIELDS)),
                }
            }
            Ok(Line {
                pricing: LinePricing {
                    quantity: quantity.ok_or_else(|| A::Error::missing_field("quantity"))?,
                    unit_price: unit_price.ok_or_else(|| A::Error::missing_field("unit_price"))?,
                    vat_code: vat_code.ok_or_else(|| A::Error::missing_field("vat_code"))?,
                    vat_rate: vat_rate.flatten(),
                    allowance_charges: allowance_charges
                        .ok_or_else(|| A::Error::missing_field("allowance_charges"))?,
                },
                item_name: item_name.flatten(),
                item_description: item_description.flatten(),
                unit_code: unit_code.flatten(),
                section_name: section_name.flatten(),
                item_properties: item_properties.flatten(),
                item_identification: item_identification.flatten(),
                product_code: product_code.flatten(),
            })
        }
    }
}

/// The response shape's fields from `id` to `mail_status` (docs/interface.md "Document
/// (response shape)"), in its order: the one list of them, written for an issued
/// document ([`Response`]) and a received one (`crate::received`) alike. `A` writes an
/// amount (an issued document's exactly to the minor unit, a received one's as stated,
/// or null).
pub(crate) struct Head<'a, A> {
    pub(crate) id: &'a str,
    pub(crate) doc_type: &'a str,
    pub(crate) origin: &'a str,
    pub(crate) document_number: Option<&'a str>,
    pub(crate) order_number: Option<&'a str>,
    pub(crate) despatch_reference: Option<&'a str>,
    pub(crate) buyer_reference: Option<&'a str>,
    /// Issue, due, tax point and delivery dates, period start and end.
    pub(crate) dates: [Option<NaiveDate>; 6],
    pub(crate) payment_remittance: Option<String>,
    pub(crate) is_remittance_structured: bool,
    pub(crate) create_date: Option<DateTime<Utc>>,
    pub(crate) currency: Option<&'a str>,
    /// Tax-exclusive, tax, total, paid and remaining amounts.
    pub(crate) amounts: [A; 5],
    pub(crate) payment_status: &'a str,
    pub(crate) accounting_status: &'a str,
    pub(crate) pdf_available: bool,
    pub(crate) xml_available: bool,
    pub(crate) relation_type: Option<&'a str>,
    pub(crate) relation_id: Option<&'a str>,
    pub(crate) journal_id: Option<&'a str>,
    pub(crate) delivery_location_id: Option<&'a str>,
    pub(crate) payment_terms: Option<String>,
    pub(crate) legal_notice: Option<&'a str>,
    pub(crate) peppol_status: Option<&'a str>,
    pub(crate) mail_status: Option<&'a str>,
}

impl<A: Serialize> Head<'_, A> {
    /// Writes the fields into the response's map.
    pub(crate) fn write<M: SerializeMap>(&self, m: &mut M) -> Result<(), M::Error> {
        m.serialize_entry("id", self.id)?;
        m.serialize_entry("type", self.doc_type)?;
        m.serialize_entry("origin", self.origin)?;
        m.serialize_entry("document_number", &self.document_number)?;
        m.serialize_entry("order_number", &self.order_number)?;
        m.serialize_entry("despatch_reference", &self.despatch_reference)?;
        m.serialize_entry("buyer_reference", &self.buyer_reference)?;
        let dates = [
            "issue_date",
            "due_date",
            "tax_point_date",
            "delivery_date",
            "period_start",
            "period_end",
        ];
        for (key, date) in dates.into_iter().zip(self.dates) {
            m.serialize_entry(key, &date.map(Day))?;
        }
        m.serialize_entry("payment_remittance", &self.payment_remittance)?;
        m.serialize_entry("is_remittance_structured", &self.is_remittance_structured)?;
        let created = self
            .create_date
            .map(|d| d.format("%Y-%m-%dT%H:%M:%SZ").to_string());
        m.serialize_entry("create_date", &created)?;
        m.serialize_entry("currency", &self.currency)?;
        let amounts = [
            "tax_exclusive_amount",
            "tax_amount",
            "total_amount",
            "paid_amount",
            "remaining_amount",
        ];
        for (key, amount) in amounts.into_iter().zip(&self.amounts) {
            m.serialize_entry(key, amount)?;
        }
        m.serialize_entry("payment_status", self.payment_status)?;
        m.serialize_entry("accounting_status", self.accounting_status)?;
        m.serialize_entry("pdf_available", &self.pdf_available)?;
        m.serialize_entry("xml_available", &self.xml_available)?;
        m.serialize_entry("relation_type", &self.relation_type)?;
        m.serialize_entry("relation_id", &self.relation_id)?;
        m.serialize_entry("journal_id", &self.journal_id)?;
        m.serialize_entry("delivery_location_id", &self.delivery_location_id)?;
        m.serialize_entry("payment_terms", &self.payment_terms)?;
        m.serialize_entry("legal_notice", &self.legal_notice)?;
        m.serialize_entry("peppol_status", &self.peppol_status)?;
        m.serialize_entry("mail_status", &self.mail_status)
    }
}

/// An amount written as a JSON number with exactly the currency's minor-unit decimals.
struct Amount(Decimal, Currency);

impl Serialize for Amount {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        crate::money::serialize_decimal(self.1.round(self.0), serializer)
    }
}

/// A decimal echoed as sent: a JSON number keeping its scale.
struct Echo(Decimal);

impl Serialize for Echo {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        crate::money::serialize_decimal(crate::money::unsigned_zero(self.0), serializer)
    }
}

/// A date written `YYYY-MM-DD`.
struct Day(NaiveDate);

impl Serialize for Day {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0.format("%Y-%m-%d"))
    }
}

/// An allowance/charge in its response shape: its computed amount, its rate when it
/// was sent as a rate.
struct AllowanceView<'a> {
    ac: &'a AllowanceCharge,
    amount: Option<Decimal>,
    currency: Currency,
}

impl Serialize for AllowanceView<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let ac = self.ac;
        let (amount, rate) = match ac.value {
            AllowanceValue::Amount(a) => (Some(self.amount.unwrap_or(a)), None),
            AllowanceValue::Rate(r) => (self.amount, Some(Echo(r))),
        };
        let mut m = serializer.serialize_map(Some(5))?;
        m.serialize_entry("code", &ac.code)?;
        m.serialize_entry("type", ac.kind.as_str())?;
        m.serialize_entry("amount", &amount.map(|a| Amount(a, self.currency)))?;
        m.serialize_entry("reason", &ac.reason)?;
        m.serialize_entry("rate", &rate)?;
        m.end()
    }
}

/// The allowances/charges of a line or of the document, with their computed amounts.
struct AllowanceList<'a> {
    list: &'a [AllowanceCharge],
    amounts: &'a dyn Fn(usize) -> Option<Decimal>,
    currency: Currency,
}

impl Serialize for AllowanceList<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.list.iter().enumerate().map(|(j, ac)| AllowanceView {
            ac,
            amount: (self.amounts)(j),
            currency: self.currency,
        }))
    }
}

/// One line in its response shape.
struct LineView<'a> {
    doc: &'a Document,
    index: usize,
    line: &'a Line,
}

impl Serialize for LineView<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let c = self.doc.currency;
        let p = &self.line.pricing;
        let line = self.line;
        let amounts = self.doc.computation.lines.get(self.index);
        let amount = |f: fn(&LineAmounts) -> Decimal| amounts.map(|a| Amount(f(a), c));
        let mut m = serializer.serialize_map(Some(16))?;
        m.serialize_entry("sequence", &(self.index + 1))?;
        m.serialize_entry("quantity", &Echo(p.quantity))?;
        m.serialize_entry("vat_rate", &p.vat_rate.map(Echo))?;
        m.serialize_entry("item_name", &line.item_name)?;
        m.serialize_entry("item_description", &line.item_description)?;
        m.serialize_entry("unit_price", &Echo(p.unit_price))?;
        m.serialize_entry("unit_code", &line.unit_code)?;
        m.serialize_entry("vat_code", p.vat_code.as_str())?;
        m.serialize_entry("subtotal", &amount(|a| a.subtotal))?;
        m.serialize_entry("total", &amount(|a| a.total))?;
        m.serialize_entry("tax_amount", &amount(|a| a.tax_amount))?;
        m.serialize_entry("section_name", &line.section_name)?;
        m.serialize_entry("item_properties", &line.item_properties)?;
        m.serialize_entry("item_identification", &line.item_identification)?;
        m.serialize_entry("product_code", &line.product_code)?;
        let line_amounts = |j: usize| amounts.and_then(|a| a.allowance_charges.get(j).copied());
        m.serialize_entry(
            "allowance_charges",
            &AllowanceList {
                list: &p.allowance_charges,
                amounts: &line_amounts,
                currency: c,
            },
        )?;
        m.end()
    }
}

/// One VAT group in its response shape (the `vat_breakdown` extra property).
struct GroupView<'a> {
    doc: &'a Document,
    index: usize,
    group: &'a VatGroup,
}

impl Serialize for GroupView<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let c = self.doc.currency;
        let g = self.group;
        let ex = self.doc.exemptions.get(self.index).and_then(Option::as_ref);
        let mut m = serializer.serialize_map(Some(7))?;
        m.serialize_entry("vat_code", g.vat_code.as_str())?;
        m.serialize_entry("vat_rate", &g.vat_rate.map(Echo))?;
        m.serialize_entry("category", g.vat_code.category())?;
        m.serialize_entry("taxable_amount", &Amount(g.taxable_amount, c))?;
        m.serialize_entry("tax_amount", &Amount(g.tax_amount, c))?;
        m.serialize_entry("exemption_reason", &ex.map(|x| x.reason.as_str()))?;
        m.serialize_entry("exemption_reason_code", &ex.and_then(|x| x.code.as_deref()))?;
        m.end()
    }
}

/// The response shape of a document (docs/interface.md "Document (response shape)"):
/// fields in the interface's order, amounts with exactly the currency's minor-unit
/// decimals, quantities, prices and rates echoed as sent, plus `vat_breakdown`. Written
/// straight to the output, with no intermediate JSON value, so
/// `serde_json::to_vec(&Response(&document))` is the fast path for a server.
#[derive(Debug, Clone, Copy)]
pub struct Response<'a>(pub &'a Document);

impl Serialize for Response<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let doc = self.0;
        let mut m = serializer.serialize_map(Some(38))?;
        doc.head().write(&mut m)?;
        doc.serialize_lists(&mut m)?;
        m.end()
    }
}

impl Document {
    /// The response's fields from `id` to `mail_status`.
    fn head(&self) -> Head<'_, Amount> {
        let c = self.currency;
        let comp = &self.computation;
        Head {
            id: &self.id,
            doc_type: self.doc_type.as_str(),
            origin: &self.origin,
            document_number: Some(&self.document_number),
            order_number: self.order_number.as_deref(),
            despatch_reference: self.despatch_reference.as_deref(),
            buyer_reference: self.buyer_reference.as_deref(),
            dates: [
                Some(self.issue_date),
                Some(self.due_date),
                self.tax_point_date,
                self.delivery_date,
                self.period_start,
                self.period_end,
            ],
            payment_remittance: Some(self.payment_remittance.to_string()),
            is_remittance_structured: true,
            create_date: Some(self.create_date),
            currency: Some(self.currency.code()),
            amounts: [
                Amount(comp.tax_exclusive_amount, c),
                Amount(comp.tax_amount, c),
                Amount(comp.total_amount, c),
                Amount(self.paid_amount, c),
                Amount(self.remaining_amount(), c),
            ],
            payment_status: self.payment_status.as_str(),
            accounting_status: self.accounting_status.as_str(),
            pdf_available: self.pdf_available,
            xml_available: self.xml_available,
            relation_type: Some(self.relation_type.as_str()),
            relation_id: Some(&self.relation_id),
            journal_id: Some(&self.journal_id),
            delivery_location_id: self.delivery_location_id.as_deref(),
            payment_terms: Some(self.payment_terms.to_string()),
            legal_notice: self.legal_notice.as_deref(),
            peppol_status: Some(self.peppol_status.as_str()),
            mail_status: Some(self.mail_status.as_str()),
        }
    }

    /// The response's lists: attachments, allowances/charges, lines, VAT breakdown.
    fn serialize_lists<M: SerializeMap>(&self, m: &mut M) -> Result<(), M::Error> {
        let comp = &self.computation;
        m.serialize_entry(
            "attachments",
            &SeqOf(self.attachments.iter().map(|a| {
                let mut entry = serde_json::Map::new();
                entry.insert("filename".into(), Value::String(a.filename.clone()));
                entry.insert("mimetype".into(), Value::String(a.mimetype.as_str().into()));
                entry
            })),
        )?;
        let doc_amounts = |j: usize| comp.allowance_charges.get(j).map(|a| a.amount);
        m.serialize_entry(
            "allowance_charges",
            &AllowanceList {
                list: &self.allowance_charges,
                amounts: &doc_amounts,
                currency: self.currency,
            },
        )?;
        m.serialize_entry(
            "lines",
            &SeqOf(self.lines.iter().enumerate().map(|(index, line)| LineView {
                doc: self,
                index,
                line,
            })),
        )?;
        m.serialize_entry(
            "vat_breakdown",
            &SeqOf(
                comp.groups
                    .iter()
                    .enumerate()
                    .map(|(index, group)| GroupView {
                        doc: self,
                        index,
                        group,
                    }),
            ),
        )
    }
}

/// A sequence written from an iterator that can be restarted (cloned) on demand.
struct SeqOf<I>(I);

impl<I> Serialize for SeqOf<I>
where
    I: Iterator + Clone,
    I::Item: Serialize,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.clone())
    }
}

impl Document {
    /// remaining_amount: total_amount − paid_amount.
    pub fn remaining_amount(&self) -> Decimal {
        self.computation.total_amount - self.paid_amount
    }

    /// The exemption mention of VAT group `i` as the UBL and the PDF write it (the
    /// same text in both): its VATEX code and its text, the stored mention or, when
    /// that is blank, the standard wording of the group's code. `None` for a group
    /// whose code carries no mention.
    pub fn exemption_mention(&self, i: usize) -> Option<(Option<&str>, String)> {
        let code = self.computation.groups.get(i)?.vat_code;
        let (wording, standard_code) = code.exemption()?;
        let ex = self.exemptions.get(i).and_then(Option::as_ref);
        let vatex = ex.and_then(|e| e.code.as_deref()).or(standard_code);
        let reason = ex
            .map(|e| e.reason.as_str())
            .filter(|r| !crate::party::is_blank(r))
            .unwrap_or(wording)
            .to_owned();
        Some((vatex, reason))
    }

    /// Whether a change other than paid_amount is refused (docs/decisions.md §6).
    pub fn is_locked(&self) -> bool {
        self.peppol_status.has_left() || self.accounting_status.locks()
    }

    /// The response shape of the document as a JSON value ([`Response`] writes the
    /// same shape straight to bytes).
    ///
    /// Infallible: `serde_json::to_value` fails only on a map key that is not a string
    /// or on an error raised by a `Serialize` implementation, and the document's writes
    /// only string keys, strings, booleans and numbers whose text is a decimal's (a
    /// valid JSON number). The `Null` is the type's fallback, never an answer.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(Response(self)).unwrap_or(Value::Null)
    }
}
