//! Received documents (docs/peppol.md §4 and §6 "Reader"): any bytes in, a
//! [`ReceivedDocument`] out. A Peppol UBL Invoice or CreditNote (BIS Billing 3.0, or
//! any EN 16931 UBL) is read into the unified view of the interface, with its amounts
//! as stated and never recomputed, and every EN 16931 and Peppol rule it breaks listed
//! in [`ReceivedDocument::checks`]; anything else (not XML, truncated XML, another root, a
//! PDF) is a document of type `unknown` with the reason as its one check. Reading
//! never fails and never panics.
//!
//! ```
//! use invoicing_core::received::{read, ReceivedType, ResponseInfo};
//!
//! let doc = read(b"%PDF-1.7 ...");
//! assert_eq!(doc.doc_type, ReceivedType::Unknown);
//! assert!(doc.pdf_available && !doc.xml_available);
//! assert_eq!(doc.checks[0].rule, "not_ubl");
//! let json = doc.to_json(&ResponseInfo::new("rcv-1"));
//! assert_eq!(json["type"], "unknown");
//! assert_eq!(json["origin"], "peppol");
//! assert!(json["total_amount"].is_null());
//! ```
//!
//! ## How the bytes are read
//!
//! The bytes are read once, into the document model the rule engine judges
//! ([`crate::ubl::dom::Dom`], by its own XML reader: memory and time linear in the
//! input).
//! Each value of the received view is found in that model by its path below the root
//! and read from the element itself (there is no second model of what a UBL states),
//! and `checks` are the engine's findings over the same model. The PDF a UBL embeds
//! ([`own_pdf`]) is found in the same model. Elements are recognised by
//! namespace and local name, whatever the prefixes. No DTD is read and no entity is
//! expanded: a reference to any entity but the five XML predefines (and character
//! references) makes the bytes `not_ubl`, and so do elements nested deeper than
//! [`crate::ubl::dom::MAX_DEPTH`] (256; a UBL nests about 10 deep).
//!
//! ## Decisions taken where the specification is silent
//!
//! - The bytes must be UTF-8 (a UTF-8 byte order mark is allowed); other encodings
//!   are `not_ubl`. A PDF is recognised by its first five bytes, `%PDF-`.
//! - UBL means the root `Invoice` in `urn:oasis:names:specification:ubl:schema:xsd:Invoice-2`
//!   or `CreditNote` in `…:CreditNote-2`; the same local name in another namespace is
//!   another root (`not_ubl`).
//! - Text values are trimmed of surrounding XML whitespace; an empty one is null.
//!   Where an element occurs more than once where EN 16931 has one value, the first
//!   one is read (the first `cac:LegalMonetaryTotal`, the first `cac:TaxCategory` of a
//!   subtotal, the first `cac:ClassifiedTaxCategory` of an item, …): for a text, the
//!   first that is not blank; for a number or a date, the first element. An
//!   identifier's scheme (`schemeID`) is that of the element whose text is read, and
//!   absent with it. A party's VAT number is the `cbc:CompanyID` of the first
//!   `cac:PartyTaxScheme` whose first `cac:TaxScheme/cbc:ID` is `VAT` and that states
//!   one.
//! - Numbers are read as `xs:decimal` (no exponent, no thousands separator) and must
//!   fit a `Decimal` (28 digits); dates as `xs:date`, a time zone read and dropped.
//!   Anything else is null with an `unreadable` check naming the BT and quoting the
//!   text (at most 40 characters). Only the values the received view holds are read
//!   (every root `cac:TaxTotal`'s amount and subtotals among them), so only those can
//!   be unreadable.
//! - `total_amount` = BT-112 + BT-114 (absent BT-114 is 0); an overflow of that sum, or
//!   of quantity × unit price for a line subtotal, makes the value null with an
//!   `unreadable` check. `paid_amount` is 0 when BT-113 is absent.
//! - `tax_amount` is the first root `cac:TaxTotal` whose `cbc:TaxAmount` has the
//!   document currency as `currencyID` (both trimmed). `vat_breakdown` lists the
//!   subtotals of the first root `cac:TaxTotal` that has any; a not_subject group, like
//!   a not_subject line, answers `vat_rate` null.
//! - A line's `quantity` and `unit_code` come from `cbc:InvoicedQuantity` in an Invoice
//!   and `cbc:CreditedQuantity` in a CreditNote, the other one when that is absent.
//!   `item_properties` is an object of the `cac:AdditionalItemProperty` names and
//!   values in document order (a repeated name keeps its first place and its last
//!   value; a property without value has the value `""`), null when there is none.
//!   `subtotal` is rounded half away from zero to the currency's minor unit, 2 for a
//!   code the crate does not know; amounts are padded to the same.
//! - An allowance or charge whose `cbc:ChargeIndicator` is neither `true`/`1` nor
//!   `false`/`0` answers `type` null. Its `rate` is `cbc:MultiplierFactorNumeric`.
//! - `payment_status`: `unknown` when the total or the paid amount is null, the paid
//!   amount is negative, or it exceeds a positive total; otherwise the rule of
//!   docs/decisions.md §3.10 ([`PaymentStatus::derive`]).
//! - `checks` lists every rule of the official artefacts the document breaks
//!   (docs/peppol.md §4): the [`crate::ubl`] engine's findings, CEN EN 16931 and
//!   OpenPeppol BIS Billing 3.0 (self-billing in place of billing when
//!   `cbc:CustomizationID` names selfbilling), each `{"rule", "flag", "msg",
//!   "location"}`, fatal entries first, then warnings, each group in the engine's
//!   order (layer, pattern, document order: the same bytes give the same list); then
//!   the `unreadable` notes of the reader in document order, and one for each assert
//!   the document's values do not let the artefact evaluate (a cast the text does not
//!   allow: the official validator stops there with an error).

mod embedded;
mod lexical;
mod reader;

use crate::compute::{AllowanceKind, PaymentStatus};
use crate::context::RelationKind;
use crate::document::{AccountingStatus, Head};
use crate::money::{decimal_value, Currency};
use crate::numbering::JournalCategory;
use crate::remittance::StructuredReference;
use crate::vat::VatCode;
use crate::wire::closed_set;
use chrono::{DateTime, NaiveDate, Utc};
use rust_decimal::Decimal;
use serde_json::{json, Map, Value};

closed_set! {
    /// What a received document is.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
    pub enum ReceivedType("received document type") {
        /// A UBL `Invoice`, whatever its type code.
        PurchaseInvoice = "purchase_invoice",
        /// A UBL `CreditNote`, whatever its type code.
        PurchaseCreditNote = "purchase_credit_note",
        /// Bytes that are not a UBL Invoice or CreditNote (the default).
        #[default]
        Unknown = "unknown",
    }
}

impl ReceivedType {
    /// The journal category a received document of this type is booked in
    /// (`purchases_invoice`, `purchases_credit`); none for `unknown`.
    pub fn journal_category(self) -> Option<JournalCategory> {
        match self {
            Self::PurchaseInvoice => Some(JournalCategory::PurchasesInvoice),
            Self::PurchaseCreditNote => Some(JournalCategory::PurchasesCredit),
            Self::Unknown => None,
        }
    }
}

/// One entry of `checks`: a rule the document breaks (with its flag and where), or an
/// `unreadable` or `not_ubl` note (rule and message only).
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Check {
    /// The rule: an id of the official artefacts (`BR-CO-10`, `PEPPOL-EN16931-R120`,
    /// `UBL-CR-135`…), `unreadable` or `not_ubl`.
    pub rule: String,
    /// `fatal` or `warning` as the artefact flags the assert; `None` for a note.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flag: Option<String>,
    /// The rule's text as the artefact words it, or what could not be read.
    pub msg: String,
    /// Where the rule's context stands, the XPath the official validator reports;
    /// `None` for a note.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
}

impl Check {
    /// An `unreadable` check.
    pub(crate) fn unreadable(msg: String) -> Check {
        Check {
            rule: "unreadable".into(),
            flag: None,
            msg,
            location: None,
        }
    }

    /// The checks of a UBL text: every finding of the official artefacts' rules
    /// ([`crate::ubl::engine::check`]), the fatal ones first, then the warnings, each group
    /// in the engine's order (layer, pattern, document order); then an `unreadable`
    /// note for each assert the document's values do not let the rule evaluate (the
    /// official validator stops there with an error).
    fn of_rules(dom: &crate::ubl::dom::Dom) -> Vec<Check> {
        let report = crate::ubl::engine::check(dom);
        let (fatal, warnings): (Vec<_>, Vec<_>) =
            report.findings.into_iter().partition(|f| f.fatal);
        let mut checks: Vec<Check> = fatal
            .into_iter()
            .chain(warnings)
            .map(|f| Check {
                rule: f.rule.to_owned(),
                flag: Some(if f.fatal { "fatal" } else { "warning" }.to_owned()),
                msg: f.text.to_owned(),
                location: Some(f.location),
            })
            .collect();
        for (rule, location, why) in report.unevaluated {
            let msg = format!("{rule} cannot be tested at {location}: {why}");
            if !checks.iter().any(|c| c.msg == msg) {
                checks.push(Check::unreadable(msg));
            }
        }
        checks
    }
}

/// The totals of `cac:LegalMonetaryTotal` as stated (null when absent or unreadable).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatedTotals {
    /// BT-106 `cbc:LineExtensionAmount`.
    #[serde(with = "crate::wire::opt_text")]
    pub line_extension_amount: Option<Decimal>,
    /// BT-107 `cbc:AllowanceTotalAmount`.
    #[serde(with = "crate::wire::opt_text")]
    pub allowance_total_amount: Option<Decimal>,
    /// BT-108 `cbc:ChargeTotalAmount`.
    #[serde(with = "crate::wire::opt_text")]
    pub charge_total_amount: Option<Decimal>,
    /// BT-109 `cbc:TaxExclusiveAmount`.
    #[serde(with = "crate::wire::opt_text")]
    pub tax_exclusive_amount: Option<Decimal>,
    /// BT-112 `cbc:TaxInclusiveAmount`.
    #[serde(with = "crate::wire::opt_text")]
    pub tax_inclusive_amount: Option<Decimal>,
    /// BT-113 `cbc:PrepaidAmount`.
    #[serde(with = "crate::wire::opt_text")]
    pub prepaid_amount: Option<Decimal>,
    /// BT-114 `cbc:PayableRoundingAmount`.
    #[serde(with = "crate::wire::opt_text")]
    pub payable_rounding_amount: Option<Decimal>,
    /// BT-115 `cbc:PayableAmount`.
    #[serde(with = "crate::wire::opt_text")]
    pub payable_amount: Option<Decimal>,
}

/// A party of the document, as far as relation matching and a reader need it.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReceivedParty {
    /// `cac:PartyName/cbc:Name`, else `cac:PartyLegalEntity/cbc:RegistrationName`.
    pub name: Option<String>,
    /// The `schemeID` of `cbc:EndpointID` (`0208`).
    pub endpoint_scheme: Option<String>,
    /// `cbc:EndpointID` (`0123456749`).
    pub endpoint_id: Option<String>,
    /// `cac:PartyTaxScheme/cbc:CompanyID` of the `VAT` tax scheme.
    pub vat_number: Option<String>,
    /// `cac:PartyLegalEntity/cbc:CompanyID`.
    pub legal_id: Option<String>,
    /// Its `schemeID`.
    pub legal_id_scheme: Option<String>,
    /// `cac:PostalAddress` as stated (what a rendered PDF shows; absent from the
    /// stored form when the document states none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<ReceivedAddress>,
}

/// A party's postal address as stated: the first of each element.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReceivedAddress {
    /// `cbc:StreetName`.
    pub street: Option<String>,
    /// `cbc:AdditionalStreetName`.
    pub street2: Option<String>,
    /// `cbc:CityName`.
    pub city: Option<String>,
    /// `cbc:PostalZone`.
    pub postal_code: Option<String>,
    /// `cbc:CountrySubentity`.
    pub province: Option<String>,
    /// `cac:Country/cbc:IdentificationCode`.
    pub country_code: Option<String>,
}

/// An allowance or charge as stated (document or line level).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReceivedAllowanceCharge {
    /// Allowance or charge (`cbc:ChargeIndicator`); `None` when it says neither.
    #[serde(with = "crate::wire::opt_text")]
    pub kind: Option<AllowanceKind>,
    /// `cbc:Amount`.
    #[serde(with = "crate::wire::opt_text")]
    pub amount: Option<Decimal>,
    /// `cbc:MultiplierFactorNumeric` (percent).
    #[serde(with = "crate::wire::opt_text")]
    pub rate: Option<Decimal>,
    /// `cbc:AllowanceChargeReason`.
    pub reason: Option<String>,
    /// `cbc:AllowanceChargeReasonCode`.
    pub code: Option<String>,
    /// `cac:TaxCategory/cbc:ID` (UNCL 5305), as stated.
    pub vat_category: Option<String>,
    /// That category as a VAT code.
    #[serde(with = "crate::wire::opt_text")]
    pub vat_code: Option<VatCode>,
    /// `cac:TaxCategory/cbc:Percent`.
    #[serde(with = "crate::wire::opt_text")]
    pub vat_rate: Option<Decimal>,
}

/// A top-level line as stated.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReceivedLine {
    /// BT-129 `cbc:InvoicedQuantity` / `cbc:CreditedQuantity`.
    #[serde(with = "crate::wire::opt_text")]
    pub quantity: Option<Decimal>,
    /// Its `unitCode`.
    pub unit_code: Option<String>,
    /// BT-146 `cac:Price/cbc:PriceAmount` (the net price).
    #[serde(with = "crate::wire::opt_text")]
    pub price_amount: Option<Decimal>,
    /// BT-149 `cac:Price/cbc:BaseQuantity`.
    #[serde(with = "crate::wire::opt_text")]
    pub base_quantity: Option<Decimal>,
    /// The net price per one unit (docs/peppol.md §6).
    #[serde(with = "crate::wire::opt_text")]
    pub unit_price: Option<Decimal>,
    /// BT-151 `cac:ClassifiedTaxCategory/cbc:ID`, as stated.
    pub vat_category: Option<String>,
    /// That category as a VAT code (L, M and B to the reserved legacy codes).
    #[serde(with = "crate::wire::opt_text")]
    pub vat_code: Option<VatCode>,
    /// BT-152, null on a not_subject line.
    #[serde(with = "crate::wire::opt_text")]
    pub vat_rate: Option<Decimal>,
    /// `cac:Item/cbc:Name`.
    pub item_name: Option<String>,
    /// `cac:Item/cbc:Description`.
    pub item_description: Option<String>,
    /// `cac:Item/cac:StandardItemIdentification/cbc:ID`.
    pub item_identification: Option<String>,
    /// `cac:Item/cac:SellersItemIdentification/cbc:ID`.
    pub product_code: Option<String>,
    /// `cac:Item/cac:AdditionalItemProperty` names and values, in document order.
    pub item_properties: Vec<(String, String)>,
    /// quantity × unit_price at the minor unit.
    #[serde(with = "crate::wire::opt_text")]
    pub subtotal: Option<Decimal>,
    /// BT-131 `cbc:LineExtensionAmount`.
    #[serde(with = "crate::wire::opt_text")]
    pub total: Option<Decimal>,
    /// The line's allowances and charges.
    pub allowance_charges: Vec<ReceivedAllowanceCharge>,
}

/// A `cac:TaxSubtotal` as stated.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReceivedVatGroup {
    /// The category as a VAT code.
    #[serde(with = "crate::wire::opt_text")]
    pub vat_code: Option<VatCode>,
    /// BT-119 `cbc:Percent` (null for not_subject).
    #[serde(with = "crate::wire::opt_text")]
    pub vat_rate: Option<Decimal>,
    /// BT-118 `cbc:ID`, as stated.
    pub category: Option<String>,
    /// BT-116.
    #[serde(with = "crate::wire::opt_text")]
    pub taxable_amount: Option<Decimal>,
    /// BT-117.
    #[serde(with = "crate::wire::opt_text")]
    pub tax_amount: Option<Decimal>,
    /// BT-120 `cbc:TaxExemptionReason`.
    pub exemption_reason: Option<String>,
    /// BT-121 `cbc:TaxExemptionReasonCode`.
    pub exemption_reason_code: Option<String>,
}

/// A document a company received: what it states, what it breaks, and its bytes. The
/// default states nothing: type unknown, no check, neither XML nor PDF.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReceivedDocument {
    /// Invoice, credit note, or unknown (not UBL).
    pub doc_type: ReceivedType,
    /// `cbc:InvoiceTypeCode` / `cbc:CreditNoteTypeCode` (`380`, `381`, `389`, …).
    pub type_code: Option<String>,
    /// BT-1 `cbc:ID`.
    pub document_number: Option<String>,
    /// BT-13 `cac:OrderReference/cbc:ID`.
    pub order_number: Option<String>,
    /// BT-16 `cac:DespatchDocumentReference/cbc:ID`.
    pub despatch_reference: Option<String>,
    /// BT-10 `cbc:BuyerReference`.
    pub buyer_reference: Option<String>,
    /// BT-2 `cbc:IssueDate`.
    #[serde(with = "crate::wire::opt_text")]
    pub issue_date: Option<NaiveDate>,
    /// BT-9 `cbc:DueDate`, else the first `cac:PaymentMeans/cbc:PaymentDueDate`.
    #[serde(with = "crate::wire::opt_text")]
    pub due_date: Option<NaiveDate>,
    /// BT-7 `cbc:TaxPointDate`.
    #[serde(with = "crate::wire::opt_text")]
    pub tax_point_date: Option<NaiveDate>,
    /// BT-72 `cac:Delivery/cbc:ActualDeliveryDate`.
    #[serde(with = "crate::wire::opt_text")]
    pub delivery_date: Option<NaiveDate>,
    /// BT-73 `cac:InvoicePeriod/cbc:StartDate`.
    #[serde(with = "crate::wire::opt_text")]
    pub period_start: Option<NaiveDate>,
    /// BT-74 `cac:InvoicePeriod/cbc:EndDate`.
    #[serde(with = "crate::wire::opt_text")]
    pub period_end: Option<NaiveDate>,
    /// BT-83 the first `cbc:PaymentID`.
    pub payment_remittance: Option<String>,
    /// Whether it is a valid Belgian structured communication.
    pub is_remittance_structured: bool,
    /// BT-5 `cbc:DocumentCurrencyCode`, as stated.
    pub currency: Option<String>,
    /// The stated totals.
    pub totals: StatedTotals,
    /// BT-109.
    #[serde(with = "crate::wire::opt_text")]
    pub tax_exclusive_amount: Option<Decimal>,
    /// BT-110: the `cbc:TaxAmount` in the document currency.
    #[serde(with = "crate::wire::opt_text")]
    pub tax_amount: Option<Decimal>,
    /// BT-112 + BT-114.
    #[serde(with = "crate::wire::opt_text")]
    pub total_amount: Option<Decimal>,
    /// BT-113, 0 when absent (or as a PATCH set it, [`Self::set_paid_amount`]).
    #[serde(with = "crate::wire::opt_text")]
    pub paid_amount: Option<Decimal>,
    /// BT-115 (or total − paid after a PATCH).
    #[serde(with = "crate::wire::opt_text")]
    pub remaining_amount: Option<Decimal>,
    /// The top-level lines.
    pub lines: Vec<ReceivedLine>,
    /// The document-level allowances and charges.
    pub allowance_charges: Vec<ReceivedAllowanceCharge>,
    /// The VAT breakdown as stated.
    pub vat_breakdown: Vec<ReceivedVatGroup>,
    /// The seller (`cac:AccountingSupplierParty`).
    pub supplier: ReceivedParty,
    /// The buyer (`cac:AccountingCustomerParty`).
    pub customer: ReceivedParty,
    /// The sums the stated amounts break, what could not be read, or why the bytes
    /// are not UBL.
    pub checks: Vec<Check>,
    /// The XML text as received, when it is UBL (`GET /ubl` answers it).
    pub xml: Option<String>,
    /// Whether the bytes are a UBL Invoice or CreditNote.
    pub xml_available: bool,
    /// Whether the bytes are a PDF.
    pub pdf_available: bool,
}

/// How a relation matches the supplier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum RelationMatch {
    /// Its `peppol_id` is the supplier's `cbc:EndpointID` (scheme and value).
    PeppolId,
    /// Its `vat_number` is the supplier's VAT number.
    VatNumber,
}

/// What only the caller knows about a received document, for its response shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResponseInfo<'a> {
    /// Opaque identifier.
    pub id: &'a str,
    /// The channel it came in through (`peppol` by default).
    pub origin: &'a str,
    /// The type to answer for bytes that are not UBL (`other_document`); ignored for
    /// UBL.
    pub type_override: Option<&'a str>,
    /// When it was received.
    pub create_date: Option<DateTime<Utc>>,
    /// The matched relation and its kind.
    pub relation: Option<(&'a str, RelationKind)>,
    /// The company's default journal of the type's category.
    pub journal_id: Option<&'a str>,
    /// Accounting state (`waiting` for a new document).
    pub accounting_status: AccountingStatus,
}

impl<'a> ResponseInfo<'a> {
    /// The defaults: origin `peppol`, no type override, no create date, relation or
    /// journal, accounting status `waiting`.
    pub fn new(id: &'a str) -> ResponseInfo<'a> {
        ResponseInfo {
            id,
            origin: "peppol",
            type_override: None,
            create_date: None,
            relation: None,
            journal_id: None,
            accounting_status: AccountingStatus::Waiting,
        }
    }
}

/// Reads received bytes into a document. Never fails, never panics.
pub fn read(bytes: &[u8]) -> ReceivedDocument {
    if bytes.starts_with(b"%PDF-") {
        let mut d = ReceivedDocument::not_ubl("a PDF document, not a UBL Invoice or CreditNote");
        d.pdf_available = true;
        return d;
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        return ReceivedDocument::not_ubl("not XML: the bytes are not UTF-8 text");
    };
    let body = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let dom = match crate::ubl::dom::Dom::read(body.as_bytes()) {
        Ok(dom) => dom,
        Err(e) => return ReceivedDocument::not_ubl(&e.0),
    };
    reader::read(&dom, text).unwrap_or_else(|msg| ReceivedDocument::not_ubl(&msg))
}

/// The PDF that came with received bytes (docs/files.md §2): the bytes themselves when
/// they are a PDF (`%PDF-`), else the first PDF a UBL embeds (see
/// `embedded::first_pdf`); `None` otherwise (a UBL without one is rendered from what
/// it states).
pub fn own_pdf(bytes: &[u8]) -> Option<std::borrow::Cow<'_, [u8]>> {
    if bytes.starts_with(b"%PDF-") {
        return Some(std::borrow::Cow::Borrowed(bytes));
    }
    let text = std::str::from_utf8(bytes).ok()?;
    embedded::first_pdf(text.strip_prefix('\u{FEFF}').unwrap_or(text)).map(std::borrow::Cow::Owned)
}

/// The UNCL 5305 category as a VAT code (docs/peppol.md §4).
pub fn vat_code_of_category(category: &str) -> Option<VatCode> {
    Some(match category {
        "S" => VatCode::Standard,
        "Z" => VatCode::ZeroRated,
        "E" => VatCode::Exempted,
        "AE" => VatCode::ReverseCharge,
        "K" => VatCode::IntraCommunity,
        "G" => VatCode::Export,
        "O" => VatCode::NotSubject,
        "L" => VatCode::CanaryIslands,
        "M" => VatCode::CeutaMelilla,
        "B" => VatCode::TransferredVat,
        _ => return None,
    })
}

/// Whether the text is a valid Belgian structured communication:
/// `+++DDD/DDDD/DDDDD+++`, `***DDD/DDDD/DDDDD***` or the 12 digits alone, whose last
/// two digits are the first ten mod 97 (0 written 97).
///
/// ```
/// use invoicing_core::received::is_structured_communication;
/// assert!(is_structured_communication("+++002/0260/00196+++"));
/// assert!(is_structured_communication("***002/0260/00196***"));
/// assert!(is_structured_communication("002026000196"));
/// assert!(!is_structured_communication("002026000195"));
/// assert!(!is_structured_communication("Snippet1"));
/// ```
pub fn is_structured_communication(text: &str) -> bool {
    if let Some(inner) = text.strip_prefix("***").and_then(|r| r.strip_suffix("***")) {
        return format!("+++{inner}+++")
            .parse::<StructuredReference>()
            .is_ok();
    }
    if text.starts_with("+++") {
        return text.parse::<StructuredReference>().is_ok();
    }
    let b = text.as_bytes();
    if b.len() != 12 || !b.iter().all(u8::is_ascii_digit) {
        return false;
    }
    let value = |ds: &[u8]| {
        ds.iter()
            .fold(0_u64, |acc, d| acc * 10 + u64::from(d - b'0'))
    };
    StructuredReference::from_base(value(&b[..10])).is_some_and(|r| r.check() == value(&b[10..]))
}

/// The text with spaces, tabs, CR and LF removed is empty: the key is absent.
fn present(s: Option<&str>) -> Option<&str> {
    s.filter(|v| v.chars().any(|c| !lexical::is_xml_space(c)))
}

/// A VAT number for comparison: spaces, dots and dashes removed, upper case.
fn vat_key(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace() && *c != '.' && *c != '-')
        .flat_map(char::to_uppercase)
        .collect()
}

/// An amount as a JSON number with at least `minor` decimals: padded, never rounded.
pub(crate) fn amount_value(v: Decimal, minor: u32) -> Value {
    let mut x = v;
    if x.scale() < minor {
        x.rescale(minor);
        if x != v {
            x = v;
        }
    }
    decimal_value(x)
}

impl ReceivedDocument {
    /// A document of bytes that are not UBL: type unknown, every amount null, no
    /// lines, the reason as its one check.
    fn not_ubl(msg: &str) -> ReceivedDocument {
        ReceivedDocument {
            checks: vec![Check {
                rule: "not_ubl".into(),
                flag: None,
                msg: msg.to_owned(),
                location: None,
            }],
            ..ReceivedDocument::default()
        }
    }

    /// The minor unit amounts are padded to: the currency's, 2 for an unknown code.
    pub fn minor_unit(&self) -> u32 {
        self.currency
            .as_deref()
            .and_then(Currency::from_code)
            .map_or(2, Currency::minor_unit)
    }

    /// The payment status (docs/decisions.md §3.10, docs/peppol.md §6): `unknown` when the total
    /// or the paid amount is null, the paid amount is negative, or it exceeds a
    /// positive total.
    pub fn payment_status(&self) -> PaymentStatus {
        match (self.total_amount, self.paid_amount) {
            (Some(total), Some(paid)) if paid >= Decimal::ZERO => {
                if total > Decimal::ZERO && paid > total {
                    PaymentStatus::Unknown
                } else {
                    PaymentStatus::derive(paid, total)
                }
            }
            _ => PaymentStatus::Unknown,
        }
    }

    /// A PATCH of `paid_amount`: the paid amount set, the remaining amount re-derived
    /// as total − paid (null without a total, or on overflow).
    pub fn set_paid_amount(&mut self, paid: Decimal) {
        self.paid_amount = Some(paid);
        self.remaining_amount = self.total_amount.and_then(|t| t.checked_sub(paid));
    }

    /// How a relation with these keys matches the supplier, if it does: by Peppol id
    /// (`SCHEME:VALUE` against `cbc:EndpointID` and its `schemeID`, case-insensitive),
    /// else by VAT number (spaces, dots and dashes removed, case-insensitive). Blank
    /// keys are absent. A scheme may itself hold a colon (the legacy `NO:ORGNR`): the
    /// Peppol id matches when it splits at any of its colons into the scheme and the
    /// value.
    pub fn relation_match(
        &self,
        peppol_id: Option<&str>,
        vat_number: Option<&str>,
    ) -> Option<RelationMatch> {
        let s = &self.supplier;
        if let (Some(pid), Some(scheme), Some(value)) = (
            present(peppol_id),
            s.endpoint_scheme.as_deref(),
            s.endpoint_id.as_deref(),
        ) {
            let (scheme, value) = (scheme.to_lowercase(), value.to_lowercase());
            for (at, _) in pid.match_indices(':') {
                let (ps, pv) = (pid.get(..at).unwrap_or(""), pid.get(at + 1..).unwrap_or(""));
                if ps.trim().to_lowercase() == scheme && pv.trim().to_lowercase() == value {
                    return Some(RelationMatch::PeppolId);
                }
            }
        }
        if let (Some(v), Some(supplier_vat)) = (present(vat_number), s.vat_number.as_deref()) {
            let key = vat_key(v);
            if !key.is_empty() && key == vat_key(supplier_vat) {
                return Some(RelationMatch::VatNumber);
            }
        }
        None
    }

    /// Whether a relation with these keys is the supplier (docs/peppol.md §4), by Peppol id
    /// or by VAT number.
    pub fn matches_relation(&self, peppol_id: Option<&str>, vat_number: Option<&str>) -> bool {
        self.relation_match(peppol_id, vat_number).is_some()
    }

    /// The relation of the document among candidates `(relation, peppol_id,
    /// vat_number)`: the first whose Peppol id matches, else the first whose VAT number
    /// matches, else none. Not-UBL documents match none.
    pub fn pick_relation<'k, T>(
        &self,
        candidates: impl IntoIterator<Item = (T, Option<&'k str>, Option<&'k str>)>,
    ) -> Option<T> {
        if self.doc_type == ReceivedType::Unknown {
            return None;
        }
        let mut by_vat = None;
        for (rel, pid, vat) in candidates {
            match self.relation_match(pid, vat) {
                Some(RelationMatch::PeppolId) => return Some(rel),
                Some(RelationMatch::VatNumber) if by_vat.is_none() => by_vat = Some(rel),
                _ => {}
            }
        }
        by_vat
    }

    /// The response shape (docs/interface.md "Document (response shape)"): the fields in
    /// the interface's order (`document::Head`, as an issued document writes
    /// them), amounts nullable and written with at least the currency's minor-unit
    /// decimals, quantities, prices and rates as stated, then the extra properties
    /// `vat_breakdown`, `type_code` and `checks`.
    pub fn to_json(&self, info: &ResponseInfo<'_>) -> Value {
        serde_json::to_value(Response { doc: self, info }).unwrap_or(Value::Null)
    }

    /// The response's fields from `id` to `mail_status`.
    fn head<'a>(&'a self, info: &'a ResponseInfo<'a>, j: Json) -> Head<'a, Value> {
        let type_str = match (self.doc_type, info.type_override) {
            (ReceivedType::Unknown, Some(t)) => t,
            (t, _) => t.as_str(),
        };
        Head {
            id: info.id,
            doc_type: type_str,
            origin: info.origin,
            document_number: self.document_number.as_deref(),
            order_number: self.order_number.as_deref(),
            despatch_reference: self.despatch_reference.as_deref(),
            buyer_reference: self.buyer_reference.as_deref(),
            dates: [
                self.issue_date,
                self.due_date,
                self.tax_point_date,
                self.delivery_date,
                self.period_start,
                self.period_end,
            ],
            payment_remittance: self.payment_remittance.clone(),
            is_remittance_structured: self.is_remittance_structured,
            create_date: info.create_date,
            currency: self.currency.as_deref(),
            amounts: [
                j.amount(self.tax_exclusive_amount),
                j.amount(self.tax_amount),
                j.amount(self.total_amount),
                j.amount(self.paid_amount),
                j.amount(self.remaining_amount),
            ],
            payment_status: self.payment_status().as_str(),
            accounting_status: info.accounting_status.as_str(),
            pdf_available: self.pdf_available,
            xml_available: self.xml_available,
            relation_type: info.relation.map(|(_, k)| k.as_str()),
            relation_id: info.relation.map(|(id, _)| id),
            journal_id: info.journal_id,
            delivery_location_id: None,
            payment_terms: None,
            legal_notice: None,
            peppol_status: None,
            mail_status: None,
        }
    }
}

/// A received document's response shape.
struct Response<'a> {
    doc: &'a ReceivedDocument,
    info: &'a ResponseInfo<'a>,
}

impl serde::Serialize for Response<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let doc = self.doc;
        let j = Json {
            minor: doc.minor_unit(),
        };
        let mut m = serializer.serialize_map(None)?;
        doc.head(self.info, j).write(&mut m)?;
        m.serialize_entry("attachments", &Vec::<Value>::new())?;
        let acs: Vec<Value> = doc
            .allowance_charges
            .iter()
            .map(|ac| j.allowance_charge(ac, true))
            .collect();
        m.serialize_entry("allowance_charges", &acs)?;
        let lines: Vec<Value> = doc
            .lines
            .iter()
            .enumerate()
            .map(|(i, l)| j.line(i, l))
            .collect();
        m.serialize_entry("lines", &lines)?;
        let groups: Vec<Value> = doc.vat_breakdown.iter().map(|g| j.group(g)).collect();
        m.serialize_entry("vat_breakdown", &groups)?;
        m.serialize_entry("type_code", &doc.type_code)?;
        let checks: Vec<Value> = doc
            .checks
            .iter()
            .map(|c| match (&c.flag, &c.location) {
                (Some(flag), Some(location)) => {
                    json!({"rule": c.rule, "flag": flag, "msg": c.msg, "location": location})
                }
                _ => json!({"rule": c.rule, "msg": c.msg}),
            })
            .collect();
        m.serialize_entry("checks", &checks)?;
        m.end()
    }
}

/// The members of a `json!` object literal.
fn object(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// How a received document's values are written: amounts with the currency's
/// minor-unit decimals, quantities, prices and rates echoed as stated.
#[derive(Clone, Copy)]
struct Json {
    minor: u32,
}

impl Json {
    fn amount(self, v: Option<Decimal>) -> Value {
        v.map_or(Value::Null, |v| amount_value(v, self.minor))
    }

    fn echo(v: Option<Decimal>) -> Value {
        v.map_or(Value::Null, decimal_value)
    }

    fn allowance_charge(self, ac: &ReceivedAllowanceCharge, document_level: bool) -> Value {
        let mut a = object(json!({
            "code": ac.code,
            "type": ac.kind.map(AllowanceKind::as_str),
            "amount": self.amount(ac.amount),
            "reason": ac.reason,
            "rate": Self::echo(ac.rate),
        }));
        if document_level {
            a.insert("vat_code".into(), json!(ac.vat_code.map(VatCode::as_str)));
        }
        Value::Object(a)
    }

    fn line(self, i: usize, l: &ReceivedLine) -> Value {
        let properties = (!l.item_properties.is_empty()).then(|| {
            l.item_properties
                .iter()
                .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                .collect::<Map<String, Value>>()
        });
        json!({
            "sequence": i + 1,
            "quantity": Self::echo(l.quantity),
            "vat_rate": Self::echo(l.vat_rate),
            "item_name": l.item_name,
            "item_description": l.item_description,
            "unit_price": Self::echo(l.unit_price),
            "unit_code": l.unit_code,
            "vat_code": l.vat_code.map(VatCode::as_str),
            "subtotal": self.amount(l.subtotal),
            "total": self.amount(l.total),
            "tax_amount": null,
            "section_name": null,
            "item_properties": properties,
            "item_identification": l.item_identification,
            "product_code": l.product_code,
            "allowance_charges": l.allowance_charges.iter().map(|ac| self.allowance_charge(ac, false)).collect::<Vec<_>>(),
        })
    }

    fn group(self, g: &ReceivedVatGroup) -> Value {
        json!({
            "vat_code": g.vat_code.map(VatCode::as_str),
            "vat_rate": Self::echo(g.vat_rate),
            "category": g.category,
            "taxable_amount": self.amount(g.taxable_amount),
            "tax_amount": self.amount(g.tax_amount),
            "exemption_reason": g.exemption_reason,
            "exemption_reason_code": g.exemption_reason_code,
        })
    }
}
