//! What a received UBL states, as the reader keeps it ([`Facts`]): the values the
//! received document needs, the names of the elements read ([`N`]), and the
//! [`Builder`] the walk of `reader` over the document model feeds, element by element.

use super::lexical;
use super::Check;
use crate::en16931::xpath::normalize_space;

pub(super) use crate::en16931::{NS_CAC, NS_CBC, NS_CREDIT_NOTE, NS_INVOICE};

pub(crate) use crate::en16931::sums::{Num, Totals};

/// A stated date: absent, unreadable, or read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Day {
    #[default]
    Absent,
    Bad,
    Val(chrono::NaiveDate),
}

impl Day {
    pub(crate) fn value(self) -> Option<chrono::NaiveDate> {
        match self {
            Day::Val(v) => Some(v),
            _ => None,
        }
    }
}

/// Which root the document has.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Root {
    #[default]
    Invoice,
    CreditNote,
}

/// A VAT category as stated (`cac:TaxCategory` or `cac:ClassifiedTaxCategory`).
#[derive(Debug, Clone, Default)]
pub(crate) struct Category {
    /// `normalize-space(cbc:ID)`.
    pub(crate) id: Option<String>,
    pub(crate) percent: Num,
    /// Whether `normalize-space(upper-case(cac:TaxScheme/cbc:ID))` is `VAT` (none
    /// without a tax scheme).
    pub(crate) scheme: Option<bool>,
    pub(crate) exemption_reason: Option<String>,
    pub(crate) exemption_reason_code: Option<String>,
    /// Whether an element of this category was seen (the first one is kept).
    pub(crate) seen: bool,
}

/// An allowance or charge (document or line level).
#[derive(Debug, Clone, Default)]
pub(crate) struct Ac {
    /// `normalize-space(cbc:ChargeIndicator)`.
    pub(crate) indicator: Option<lexical::Indicator>,
    pub(crate) code: Option<String>,
    pub(crate) reason: Option<String>,
    pub(crate) rate: Num,
    pub(crate) amount: Num,
    pub(crate) category: Category,
}

impl Ac {
    /// `cbc:ChargeIndicator` cast to a boolean, as `cbc:ChargeIndicator = true()` does.
    pub(crate) fn is_charge(&self) -> Option<bool> {
        self.indicator.and_then(lexical::Indicator::boolean)
    }
}

/// A VAT breakdown entry.
#[derive(Debug, Clone, Default)]
pub(crate) struct Subtotal {
    pub(crate) taxable: Num,
    pub(crate) tax: Num,
    pub(crate) category: Category,
}

/// A `cac:TaxTotal` child of the root.
#[derive(Debug, Clone, Default)]
pub(crate) struct TaxTotal {
    pub(crate) amount: Num,
    /// The `currencyID` of its `cbc:TaxAmount`, as written.
    pub(crate) currency: Option<String>,
    pub(crate) subtotals: Vec<Subtotal>,
}

/// A party: what relation matching and the response need.
#[derive(Debug, Clone, Default)]
pub(crate) struct PartyFacts {
    pub(crate) endpoint_scheme: Option<String>,
    pub(crate) endpoint_id: Option<String>,
    pub(crate) trading_name: Option<String>,
    pub(crate) registration_name: Option<String>,
    pub(crate) legal_id: Option<String>,
    pub(crate) legal_id_scheme: Option<String>,
    pub(crate) vat_number: Option<String>,
    /// `cac:PostalAddress`: street, additional street, city, postal zone, country
    /// subentity, country code (the first of each).
    pub(crate) address: [Option<String>; 6],
    /// The `cbc:CompanyID` of the `cac:PartyTaxScheme` being read, and its scheme.
    pending_tax_id: Option<String>,
    pending_scheme: Option<String>,
}

/// A top-level line.
#[derive(Debug, Clone, Default)]
pub(crate) struct LineFacts {
    pub(crate) invoiced_quantity: Num,
    pub(crate) invoiced_unit: Option<String>,
    pub(crate) credited_quantity: Num,
    pub(crate) credited_unit: Option<String>,
    pub(crate) net: Num,
    pub(crate) price: Num,
    pub(crate) base_quantity: Num,
    pub(crate) allowance_charges: Vec<Ac>,
    pub(crate) item_name: Option<String>,
    pub(crate) item_description: Option<String>,
    pub(crate) sellers_id: Option<String>,
    pub(crate) standard_id: Option<String>,
    pub(crate) properties: Vec<(String, Option<String>)>,
    pub(crate) category: Category,
}

/// Everything read from a UBL Invoice or CreditNote.
#[derive(Debug, Clone, Default)]
pub(crate) struct Facts {
    pub(crate) root: Root,
    pub(crate) type_code: Option<String>,
    pub(crate) id: Option<String>,
    pub(crate) issue_date: Day,
    pub(crate) due_date: Day,
    pub(crate) payment_due_date: Day,
    pub(crate) tax_point_date: Day,
    pub(crate) delivery_date: Day,
    pub(crate) period_start: Day,
    pub(crate) period_end: Day,
    /// Every `cbc:DocumentCurrencyCode`, as written (BR-CO-15 tests each).
    pub(crate) currencies: Vec<String>,
    pub(crate) buyer_reference: Option<String>,
    pub(crate) order_number: Option<String>,
    pub(crate) despatch_reference: Option<String>,
    pub(crate) payment_id: Option<String>,
    pub(crate) supplier: PartyFacts,
    pub(crate) customer: PartyFacts,
    pub(crate) totals: Option<Totals>,
    pub(crate) tax_totals: Vec<TaxTotal>,
    /// `cac:TaxTotal/cac:TaxSubtotal` found below the root's children (BR-CO-17
    /// tests them too).
    pub(crate) nested_subtotals: Vec<Subtotal>,
    pub(crate) allowance_charges: Vec<Ac>,
    pub(crate) lines: Vec<LineFacts>,
    /// `unreadable` checks, in document order.
    pub(crate) unreadable: Vec<Check>,
}

/// Why the bytes are not read as a UBL document: the `not_ubl` message.
pub(crate) type NotUbl = String;

/// Element names the reader looks at; everything else is `Other`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum N {
    Other,
    // cbc
    StreetName,
    AdditionalStreetName,
    CityName,
    PostalZone,
    CountrySubentity,
    IdentificationCode,
    Id,
    IssueDate,
    DueDate,
    TypeCode,
    TaxPointDate,
    DocumentCurrencyCode,
    BuyerReference,
    StartDate,
    EndDate,
    ActualDeliveryDate,
    PaymentDueDate,
    PaymentId,
    EndpointId,
    CompanyId,
    Name,
    RegistrationName,
    ChargeIndicator,
    ReasonCode,
    Reason,
    Multiplier,
    Amount,
    Percent,
    TaxAmount,
    TaxableAmount,
    ExemptionReason,
    ExemptionReasonCode,
    LineExtensionAmount,
    TaxExclusiveAmount,
    TaxInclusiveAmount,
    AllowanceTotalAmount,
    ChargeTotalAmount,
    PrepaidAmount,
    PayableRoundingAmount,
    PayableAmount,
    InvoicedQuantity,
    CreditedQuantity,
    Description,
    PriceAmount,
    BaseQuantity,
    Value,
    // cac
    PostalAddress,
    Country,
    SupplierParty,
    CustomerParty,
    Party,
    PartyName,
    PartyTaxScheme,
    TaxScheme,
    PartyLegalEntity,
    InvoicePeriod,
    OrderReference,
    DespatchReference,
    Delivery,
    PaymentMeans,
    AllowanceCharge,
    TaxCategory,
    ClassifiedTaxCategory,
    TaxTotal,
    TaxSubtotal,
    MonetaryTotal,
    Line,
    Item,
    SellersItemId,
    StandardItemId,
    ItemProperty,
    Price,
}

pub(super) fn cbc_name(local: &[u8]) -> N {
    match local {
        b"ID" => N::Id,
        b"StreetName" => N::StreetName,
        b"AdditionalStreetName" => N::AdditionalStreetName,
        b"CityName" => N::CityName,
        b"PostalZone" => N::PostalZone,
        b"CountrySubentity" => N::CountrySubentity,
        b"IdentificationCode" => N::IdentificationCode,
        b"IssueDate" => N::IssueDate,
        b"DueDate" => N::DueDate,
        b"InvoiceTypeCode" | b"CreditNoteTypeCode" => N::TypeCode,
        b"TaxPointDate" => N::TaxPointDate,
        b"DocumentCurrencyCode" => N::DocumentCurrencyCode,
        b"BuyerReference" => N::BuyerReference,
        b"StartDate" => N::StartDate,
        b"EndDate" => N::EndDate,
        b"ActualDeliveryDate" => N::ActualDeliveryDate,
        b"PaymentDueDate" => N::PaymentDueDate,
        b"PaymentID" => N::PaymentId,
        b"EndpointID" => N::EndpointId,
        b"CompanyID" => N::CompanyId,
        b"Name" => N::Name,
        b"RegistrationName" => N::RegistrationName,
        b"ChargeIndicator" => N::ChargeIndicator,
        b"AllowanceChargeReasonCode" => N::ReasonCode,
        b"AllowanceChargeReason" => N::Reason,
        b"MultiplierFactorNumeric" => N::Multiplier,
        b"Amount" => N::Amount,
        b"Percent" => N::Percent,
        b"TaxAmount" => N::TaxAmount,
        b"TaxableAmount" => N::TaxableAmount,
        b"TaxExemptionReason" => N::ExemptionReason,
        b"TaxExemptionReasonCode" => N::ExemptionReasonCode,
        b"LineExtensionAmount" => N::LineExtensionAmount,
        b"TaxExclusiveAmount" => N::TaxExclusiveAmount,
        b"TaxInclusiveAmount" => N::TaxInclusiveAmount,
        b"AllowanceTotalAmount" => N::AllowanceTotalAmount,
        b"ChargeTotalAmount" => N::ChargeTotalAmount,
        b"PrepaidAmount" => N::PrepaidAmount,
        b"PayableRoundingAmount" => N::PayableRoundingAmount,
        b"PayableAmount" => N::PayableAmount,
        b"InvoicedQuantity" => N::InvoicedQuantity,
        b"CreditedQuantity" => N::CreditedQuantity,
        b"Description" => N::Description,
        b"PriceAmount" => N::PriceAmount,
        b"BaseQuantity" => N::BaseQuantity,
        b"Value" => N::Value,
        _ => N::Other,
    }
}

pub(super) fn cac_name(local: &[u8]) -> N {
    match local {
        b"PostalAddress" => N::PostalAddress,
        b"Country" => N::Country,
        b"AccountingSupplierParty" => N::SupplierParty,
        b"AccountingCustomerParty" => N::CustomerParty,
        b"Party" => N::Party,
        b"PartyName" => N::PartyName,
        b"PartyTaxScheme" => N::PartyTaxScheme,
        b"TaxScheme" => N::TaxScheme,
        b"PartyLegalEntity" => N::PartyLegalEntity,
        b"InvoicePeriod" => N::InvoicePeriod,
        b"OrderReference" => N::OrderReference,
        b"DespatchDocumentReference" => N::DespatchReference,
        b"Delivery" => N::Delivery,
        b"PaymentMeans" => N::PaymentMeans,
        b"AllowanceCharge" => N::AllowanceCharge,
        b"TaxCategory" => N::TaxCategory,
        b"ClassifiedTaxCategory" => N::ClassifiedTaxCategory,
        b"TaxTotal" => N::TaxTotal,
        b"TaxSubtotal" => N::TaxSubtotal,
        b"LegalMonetaryTotal" => N::MonetaryTotal,
        b"InvoiceLine" | b"CreditNoteLine" => N::Line,
        b"Item" => N::Item,
        b"SellersItemIdentification" => N::SellersItemId,
        b"StandardItemIdentification" => N::StandardItemId,
        b"AdditionalItemProperty" => N::ItemProperty,
        b"Price" => N::Price,
        _ => N::Other,
    }
}

/// The longest stated text quoted in an `unreadable` message.
const QUOTE_MAX: usize = 40;

/// The text quoted in a message: at most [`QUOTE_MAX`] characters.
fn quote(text: &str) -> String {
    let t = lexical::trim(text);
    if t.chars().count() > QUOTE_MAX {
        let cut: String = t.chars().take(QUOTE_MAX).collect();
        format!("{cut:?}…")
    } else {
        format!("{t:?}")
    }
}

/// A text field: trimmed; empty is absent.
fn text_field(text: &str) -> Option<String> {
    let t = lexical::trim(text);
    (!t.is_empty()).then(|| t.to_owned())
}

/// Sets a text slot the first time only.
fn first(slot: &mut Option<String>, text: &str) {
    if slot.is_none() {
        *slot = text_field(text);
    }
}

/// What has been read so far (the default: nothing).
#[derive(Default)]
pub(super) struct Builder {
    pub(super) facts: Facts,
    /// Whether the root's first `cac:LegalMonetaryTotal` is done.
    totals_done: bool,
    /// The category being read (in a subtotal, a line, an allowance) was the first.
    category_first: bool,
}

/// Where an unreadable value sits, for its message: nothing for the document level,
/// ` (line N)` for a line.
#[derive(Debug, Clone, Copy)]
struct Place(Option<usize>);

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(i) => write!(f, " (line {})", i + 1),
            None => Ok(()),
        }
    }
}

/// What a value is, for an `unreadable` message: a label and its place, written only
/// when the message is.
#[derive(Debug, Clone, Copy)]
struct What<'a>(&'a str, Place);

impl What<'static> {
    /// A document-level value.
    fn doc(label: &'static str) -> What<'static> {
        What(label, Place(None))
    }
}

impl std::fmt::Display for What<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.0, self.1)
    }
}

impl Builder {
    fn num(&mut self, slot_is_set: bool, text: &str, what: What<'_>) -> Option<Num> {
        if slot_is_set {
            return None;
        }
        if let Some(v) = lexical::decimal(text) {
            return Some(Num::Val(v));
        }
        self.facts.unreadable.push(Check::unreadable(format!(
            "{what} is not a decimal number the crate can read: {}",
            quote(text)
        )));
        Some(Num::Bad)
    }

    /// Reads a number into the slot `get` finds, the first time only; whether it did.
    fn num_into(
        &mut self,
        get: impl Fn(&mut Facts) -> Option<&mut Num>,
        text: &str,
        what: What<'_>,
    ) -> bool {
        let set = get(&mut self.facts).is_none_or(|n| n.exists());
        let Some(n) = self.num(set, text, what) else {
            return false;
        };
        get(&mut self.facts).map(|slot| *slot = n).is_some()
    }

    fn set_day(&mut self, get: impl Fn(&mut Facts) -> &mut Day, text: &str, what: &str) {
        if *get(&mut self.facts) != Day::Absent {
            return;
        }
        let d = lexical::date(text).map_or(Day::Bad, Day::Val);
        if d == Day::Bad {
            self.facts.unreadable.push(Check::unreadable(format!(
                "{what} is not a date (YYYY-MM-DD): {}",
                quote(text)
            )));
        }
        *get(&mut self.facts) = d;
    }

    /// A `cac:TaxCategory`-like child value: `tail` is the path inside the category.
    fn category_value(
        &mut self,
        get: impl Fn(&mut Facts) -> Option<&mut Category>,
        tail: &[N],
        text: &str,
        what: What<'_>,
    ) {
        if !self.category_first {
            return;
        }
        if tail == [N::Percent] {
            self.num_into(|f| get(f).map(|c| &mut c.percent), text, what);
            return;
        }
        let Some(c) = get(&mut self.facts) else {
            return;
        };
        match tail {
            [N::Id] if c.id.is_none() => c.id = Some(normalize_space(text).into_owned()),
            [N::ExemptionReason] => first(&mut c.exemption_reason, text),
            [N::ExemptionReasonCode] => first(&mut c.exemption_reason_code, text),
            [N::TaxScheme, N::Id] if c.scheme.is_none() => {
                c.scheme = Some(lexical::is_vat_scheme(text));
            }
            _ => {}
        }
    }

    /// A value of an allowance or charge: `tail` is the path inside it.
    fn ac_value(
        &mut self,
        get: impl Fn(&mut Facts) -> Option<&mut Ac>,
        tail: &[N],
        text: &str,
        place: Place,
    ) {
        let Some(ac) = get(&mut self.facts) else {
            return;
        };
        match tail {
            [N::ChargeIndicator] if ac.indicator.is_none() => {
                ac.indicator = Some(lexical::Indicator::of(text));
            }
            [N::ReasonCode] => first(&mut ac.code, text),
            [N::Reason] => first(&mut ac.reason, text),
            [N::Amount] => {
                let what = What("the allowance or charge amount", place);
                self.num_into(|f| get(f).map(|ac| &mut ac.amount), text, what);
            }
            [N::Multiplier] => {
                let what = What("the allowance or charge percentage", place);
                self.num_into(|f| get(f).map(|ac| &mut ac.rate), text, what);
            }
            [N::TaxCategory, rest @ ..] => {
                let what = What("the allowance or charge VAT rate", place);
                self.category_value(|f| get(f).map(|ac| &mut ac.category), rest, text, what);
            }
            _ => {}
        }
    }

    fn party_value(&mut self, supplier: bool, tail: &[N], text: &str, attr: Option<&str>) {
        let p = if supplier {
            &mut self.facts.supplier
        } else {
            &mut self.facts.customer
        };
        match tail {
            [N::EndpointId] if p.endpoint_id.is_none() => {
                p.endpoint_id = text_field(text);
                p.endpoint_scheme = attr.and_then(text_field);
            }
            [N::PartyName, N::Name] => first(&mut p.trading_name, text),
            [N::PostalAddress, rest @ ..] => {
                let slot = match rest {
                    [N::StreetName] => 0,
                    [N::AdditionalStreetName] => 1,
                    [N::CityName] => 2,
                    [N::PostalZone] => 3,
                    [N::CountrySubentity] => 4,
                    [N::Country, N::IdentificationCode] => 5,
                    _ => return,
                };
                if let Some(field) = p.address.get_mut(slot) {
                    first(field, text);
                }
            }
            [N::PartyLegalEntity, N::RegistrationName] => first(&mut p.registration_name, text),
            [N::PartyLegalEntity, N::CompanyId] if p.legal_id.is_none() => {
                p.legal_id = text_field(text);
                p.legal_id_scheme = attr.and_then(text_field);
            }
            [N::PartyTaxScheme, N::CompanyId] => first(&mut p.pending_tax_id, text),
            [N::PartyTaxScheme, N::TaxScheme, N::Id] if p.pending_scheme.is_none() => {
                p.pending_scheme = Some(normalize_space(&text.to_uppercase()).into_owned());
            }
            _ => {}
        }
    }

    /// The end of a text element at `path` (the root excluded).
    fn leaf(&mut self, path: &[N], text: &str, attr: Option<&str>) {
        let lines = self.facts.lines.len();
        match path {
            [N::Id] => first(&mut self.facts.id, text),
            [N::TypeCode] => first(&mut self.facts.type_code, text),
            [N::IssueDate] => self.set_day(|f| &mut f.issue_date, text, "BT-2 Invoice issue date"),
            [N::DueDate] => self.set_day(|f| &mut f.due_date, text, "BT-9 Payment due date"),
            [N::PaymentMeans, N::PaymentDueDate] => {
                self.set_day(|f| &mut f.payment_due_date, text, "BT-9 Payment due date");
            }
            [N::TaxPointDate] => {
                self.set_day(
                    |f| &mut f.tax_point_date,
                    text,
                    "BT-7 Value added tax point date",
                );
            }
            [N::Delivery, N::ActualDeliveryDate] => {
                self.set_day(|f| &mut f.delivery_date, text, "BT-72 Actual delivery date");
            }
            [N::InvoicePeriod, N::StartDate] => {
                self.set_day(
                    |f| &mut f.period_start,
                    text,
                    "BT-73 Invoicing period start date",
                );
            }
            [N::InvoicePeriod, N::EndDate] => {
                self.set_day(
                    |f| &mut f.period_end,
                    text,
                    "BT-74 Invoicing period end date",
                );
            }
            [N::DocumentCurrencyCode] => self.facts.currencies.push(text.to_owned()),
            [N::BuyerReference] => first(&mut self.facts.buyer_reference, text),
            [N::OrderReference, N::Id] => first(&mut self.facts.order_number, text),
            [N::DespatchReference, N::Id] => first(&mut self.facts.despatch_reference, text),
            [N::PaymentMeans, N::PaymentId] => first(&mut self.facts.payment_id, text),
            [N::SupplierParty, N::Party, tail @ ..] => self.party_value(true, tail, text, attr),
            [N::CustomerParty, N::Party, tail @ ..] => self.party_value(false, tail, text, attr),
            [N::MonetaryTotal, field] if !self.totals_done => self.total_value(*field, text),
            [N::TaxTotal, N::TaxAmount] => self.tax_total_value(text, attr),
            [N::TaxTotal, N::TaxSubtotal, tail @ ..] => self.subtotal_value(true, tail, text),
            [N::AllowanceCharge, tail @ ..] => {
                self.ac_value(|f| f.allowance_charges.last_mut(), tail, text, Place(None));
            }
            [N::Line, tail @ ..] => self.line_value(lines, tail, text, attr),
            _ => {
                if let Some(tail) = nested_subtotal_tail(path) {
                    self.subtotal_value(false, tail, text);
                }
            }
        }
    }

    /// A total of the root's first `cac:LegalMonetaryTotal` (BT-106 … BT-115).
    fn total_value(&mut self, field: N, text: &str) {
        let (get, what): (fn(&mut Facts) -> &mut Num, &str) = match field {
            N::LineExtensionAmount => (
                |f| &mut totals(f).line_extension,
                "BT-106 Sum of Invoice line net amount",
            ),
            N::TaxExclusiveAmount => (
                |f| &mut totals(f).tax_exclusive,
                "BT-109 Invoice total amount without VAT",
            ),
            N::TaxInclusiveAmount => (
                |f| &mut totals(f).tax_inclusive,
                "BT-112 Invoice total amount with VAT",
            ),
            N::AllowanceTotalAmount => (
                |f| &mut totals(f).allowance_total,
                "BT-107 Sum of allowances on document level",
            ),
            N::ChargeTotalAmount => (
                |f| &mut totals(f).charge_total,
                "BT-108 Sum of charges on document level",
            ),
            N::PrepaidAmount => (|f| &mut totals(f).prepaid, "BT-113 Paid amount"),
            N::PayableRoundingAmount => (|f| &mut totals(f).rounding, "BT-114 Rounding amount"),
            N::PayableAmount => (|f| &mut totals(f).payable, "BT-115 Amount due for payment"),
            _ => return,
        };
        self.num_into(|f| Some(get(f)), text, What::doc(what));
    }

    /// The root's `cac:TaxTotal/cbc:TaxAmount` (BT-110) and its currency.
    fn tax_total_value(&mut self, text: &str, attr: Option<&str>) {
        let what = What::doc("BT-110 Invoice total VAT amount");
        if self.num_into(
            |f| f.tax_totals.last_mut().map(|t| &mut t.amount),
            text,
            what,
        ) {
            if let Some(t) = self.facts.tax_totals.last_mut() {
                t.currency = attr.map(str::to_owned);
            }
        }
    }

    /// A value of line `index`'s `cac:Item`.
    fn item_value(&mut self, index: usize, rest: &[N], text: &str) {
        let Some(l) = line(&mut self.facts, index) else {
            return;
        };
        match rest {
            [N::Name] => first(&mut l.item_name, text),
            [N::Description] => first(&mut l.item_description, text),
            [N::SellersItemId, N::Id] => first(&mut l.sellers_id, text),
            [N::StandardItemId, N::Id] => first(&mut l.standard_id, text),
            [N::ItemProperty, N::Name] => {
                if let Some(p) = l.properties.last_mut().filter(|p| p.0.is_empty()) {
                    lexical::trim(text).clone_into(&mut p.0);
                }
            }
            [N::ItemProperty, N::Value] => {
                if let Some(p) = l.properties.last_mut().filter(|p| p.1.is_none()) {
                    p.1 = Some(lexical::trim(text).to_owned());
                }
            }
            [N::ClassifiedTaxCategory, cat @ ..] => {
                let what = What("BT-152 Invoiced item VAT rate", Place(Some(index)));
                self.category_value(|f| line(f, index).map(|l| &mut l.category), cat, text, what);
            }
            _ => {}
        }
    }

    fn subtotal_value(&mut self, root_level: bool, tail: &[N], text: &str) {
        fn sub(f: &mut Facts, root_level: bool) -> Option<&mut Subtotal> {
            if root_level {
                f.tax_totals.last_mut().and_then(|t| t.subtotals.last_mut())
            } else {
                f.nested_subtotals.last_mut()
            }
        }
        match tail {
            [N::TaxableAmount] => {
                let what = What::doc("BT-116 VAT category taxable amount");
                self.num_into(|f| sub(f, root_level).map(|s| &mut s.taxable), text, what);
            }
            [N::TaxAmount] => {
                let what = What::doc("BT-117 VAT category tax amount");
                self.num_into(|f| sub(f, root_level).map(|s| &mut s.tax), text, what);
            }
            [N::TaxCategory, rest @ ..] => self.category_value(
                |f| sub(f, root_level).map(|s| &mut s.category),
                rest,
                text,
                What::doc("BT-119 VAT category rate"),
            ),
            _ => {}
        }
    }

    fn line_value(&mut self, lines: usize, tail: &[N], text: &str, attr: Option<&str>) {
        let Some(index) = lines.checked_sub(1) else {
            return;
        };
        let place = Place(Some(index));
        match tail {
            [N::InvoicedQuantity | N::CreditedQuantity] => {
                let invoiced = tail == [N::InvoicedQuantity];
                let set = line(&mut self.facts, index).is_none_or(|l| {
                    if invoiced {
                        l.invoiced_quantity.exists()
                    } else {
                        l.credited_quantity.exists()
                    }
                });
                let what = What("BT-129 Invoiced quantity", place);
                if let Some(n) = self.num(set, text, what) {
                    if let Some(l) = line(&mut self.facts, index) {
                        if invoiced {
                            l.invoiced_quantity = n;
                            l.invoiced_unit = attr.and_then(text_field);
                        } else {
                            l.credited_quantity = n;
                            l.credited_unit = attr.and_then(text_field);
                        }
                    }
                }
            }
            [N::LineExtensionAmount] => {
                let set = line(&mut self.facts, index).is_none_or(|l| l.net.exists());
                let what = What("BT-131 Invoice line net amount", place);
                if let Some(n) = self.num(set, text, what) {
                    if let Some(l) = line(&mut self.facts, index) {
                        l.net = n;
                    }
                }
            }
            [N::Price, N::PriceAmount | N::BaseQuantity] => {
                let price = tail[1] == N::PriceAmount;
                let set = line(&mut self.facts, index).is_none_or(|l| {
                    if price {
                        l.price.exists()
                    } else {
                        l.base_quantity.exists()
                    }
                });
                let what = if price {
                    What("BT-146 Item net price", place)
                } else {
                    What("BT-149 Item price base quantity", place)
                };
                if let Some(n) = self.num(set, text, what) {
                    if let Some(l) = line(&mut self.facts, index) {
                        if price {
                            l.price = n;
                        } else {
                            l.base_quantity = n;
                        }
                    }
                }
            }
            [N::AllowanceCharge, rest @ ..] => self.ac_value(
                |f| {
                    f.lines
                        .get_mut(index)
                        .and_then(|l| l.allowance_charges.last_mut())
                },
                rest,
                text,
                place,
            ),
            [N::Item, rest @ ..] => self.item_value(index, rest, text),
            _ => {}
        }
    }

    /// The start of a structural element at `path` (the root excluded).
    pub(super) fn open(&mut self, path: &[N]) {
        // Every element starts here; only these names start what the facts keep (the
        // last name of each arm below), so the others return before the slice patterns.
        if !matches!(
            path.last(),
            Some(
                N::Line
                    | N::AllowanceCharge
                    | N::ItemProperty
                    | N::TaxTotal
                    | N::TaxSubtotal
                    | N::MonetaryTotal
                    | N::TaxCategory
                    | N::ClassifiedTaxCategory
            )
        ) {
            return;
        }
        match path {
            [N::Line] => self.facts.lines.push(LineFacts::default()),
            [N::Line, N::AllowanceCharge] => {
                if let Some(l) = self.facts.lines.last_mut() {
                    l.allowance_charges.push(Ac::default());
                }
            }
            [N::Line, N::Item, N::ItemProperty] => {
                if let Some(l) = self.facts.lines.last_mut() {
                    l.properties.push((String::new(), None));
                }
            }
            [N::AllowanceCharge] => self.facts.allowance_charges.push(Ac::default()),
            [N::TaxTotal] => self.facts.tax_totals.push(TaxTotal::default()),
            [N::TaxTotal, N::TaxSubtotal] => {
                if let Some(t) = self.facts.tax_totals.last_mut() {
                    t.subtotals.push(Subtotal::default());
                }
            }
            [.., N::TaxTotal, N::TaxSubtotal] => {
                self.facts.nested_subtotals.push(Subtotal::default());
            }
            [N::MonetaryTotal] if !self.totals_done && self.facts.totals.is_none() => {
                self.facts.totals = Some(Totals::default());
            }
            [N::TaxTotal, N::TaxSubtotal, N::TaxCategory] => {
                let s = self
                    .facts
                    .tax_totals
                    .last_mut()
                    .and_then(|t| t.subtotals.last_mut());
                self.category_first =
                    s.is_some_and(|s| !std::mem::replace(&mut s.category.seen, true));
            }
            [.., N::TaxTotal, N::TaxSubtotal, N::TaxCategory] => {
                let s = self.facts.nested_subtotals.last_mut();
                self.category_first =
                    s.is_some_and(|s| !std::mem::replace(&mut s.category.seen, true));
            }
            [N::AllowanceCharge, N::TaxCategory] => {
                let ac = self.facts.allowance_charges.last_mut();
                self.category_first =
                    ac.is_some_and(|ac| !std::mem::replace(&mut ac.category.seen, true));
            }
            [N::Line, N::AllowanceCharge, N::TaxCategory] => {
                let ac = self
                    .facts
                    .lines
                    .last_mut()
                    .and_then(|l| l.allowance_charges.last_mut());
                self.category_first =
                    ac.is_some_and(|ac| !std::mem::replace(&mut ac.category.seen, true));
            }
            [N::Line, N::Item, N::ClassifiedTaxCategory] => {
                let l = self.facts.lines.last_mut();
                self.category_first =
                    l.is_some_and(|l| !std::mem::replace(&mut l.category.seen, true));
            }
            _ => {}
        }
    }

    /// The end of a structural element at `path` (the root excluded).
    fn close(&mut self, path: &[N]) {
        match path {
            [N::MonetaryTotal] => self.totals_done = true,
            [N::SupplierParty | N::CustomerParty, N::Party, N::PartyTaxScheme] => {
                let p = if path[0] == N::SupplierParty {
                    &mut self.facts.supplier
                } else {
                    &mut self.facts.customer
                };
                let id = p.pending_tax_id.take();
                let scheme = p.pending_scheme.take();
                if p.vat_number.is_none() && scheme.as_deref() == Some("VAT") {
                    p.vat_number = id;
                }
            }
            _ => {}
        }
    }
}

/// The path inside a `cac:TaxTotal/cac:TaxSubtotal` that is not a child of the root
/// (a line's, say), if the path is inside one.
/// Only the last few names are looked at (a value sits at most three levels below
/// its subtotal), so the time per element does not grow with the depth.
fn nested_subtotal_tail(path: &[N]) -> Option<&[N]> {
    (0..=3).find_map(|k| {
        let end = path.len().checked_sub(k)?;
        let start = end.checked_sub(2)?;
        (start > 0 && path[start..end] == [N::TaxTotal, N::TaxSubtotal]).then(|| &path[end..])
    })
}

/// The line at `i`.
fn line(f: &mut Facts, i: usize) -> Option<&mut LineFacts> {
    f.lines.get_mut(i)
}

/// The totals being read (created on the `cac:LegalMonetaryTotal` start).
fn totals(f: &mut Facts) -> &mut Totals {
    f.totals.get_or_insert_with(Totals::default)
}

/// The attribute a text element of this name carries that the reader keeps.
pub(super) fn wanted_attribute(n: N) -> Option<&'static str> {
    match n {
        N::EndpointId | N::CompanyId => Some("schemeID"),
        N::TaxAmount => Some("currencyID"),
        N::InvoicedQuantity | N::CreditedQuantity => Some("unitCode"),
        _ => None,
    }
}

/// Whether the reader keeps the text of an element of this name.
pub(super) fn is_text_element(n: N) -> bool {
    !matches!(
        n,
        N::Other
            | N::PostalAddress
            | N::Country
            | N::SupplierParty
            | N::CustomerParty
            | N::Party
            | N::PartyName
            | N::PartyTaxScheme
            | N::TaxScheme
            | N::PartyLegalEntity
            | N::InvoicePeriod
            | N::OrderReference
            | N::DespatchReference
            | N::Delivery
            | N::PaymentMeans
            | N::AllowanceCharge
            | N::TaxCategory
            | N::ClassifiedTaxCategory
            | N::TaxTotal
            | N::TaxSubtotal
            | N::MonetaryTotal
            | N::Line
            | N::Item
            | N::SellersItemId
            | N::StandardItemId
            | N::ItemProperty
            | N::Price
    )
}

/// The end of the element on top of the stack: its text if it was being read, then
/// its structural end; pops it.
pub(super) fn finish(
    b: &mut Builder,
    stack: &mut Vec<N>,
    capture: &mut Option<usize>,
    text: &str,
    attr: Option<&str>,
) {
    if *capture == Some(stack.len()) {
        b.leaf(stack, text, attr);
        *capture = None;
    }
    b.close(stack);
    stack.pop();
}
