//! The UBL 2.1 document of an issued invoice or credit note (docs/peppol.md §2): every
//! field the document has, in the element order the UBL 2.1 schema demands.

use super::xml::Xml;
use super::{Roles, UblKind};
use crate::compute::{AllowanceCharge, AllowanceKind, AllowanceValue};
use crate::context::DeliveryLocation;
use crate::document::{Document, Line};
use crate::en16931::codes;
use crate::language::Language;
use crate::money::Currency;
use crate::party::{filled, is_blank, Address, Party};
use crate::pdf::labels::terms_in_words;
use crate::vat::VatCode;
use chrono::NaiveDate;
use rust_decimal::Decimal;

use crate::en16931::{NS_CAC, NS_CBC, NS_CREDIT_NOTE, NS_INVOICE};

/// Whether a reason code is, exactly, in the CEN code list of its kind (BR-CL-19,
/// BR-CL-20): only such a code is written as `cbc:AllowanceChargeReasonCode`.
pub(crate) fn code_accepted(kind: AllowanceKind, code: &str) -> bool {
    let list = match kind {
        AllowanceKind::Allowance => codes::CEN_ALLOWANCE_CODES,
        AllowanceKind::Charge => codes::CEN_CHARGE_CODES,
    };
    list.binary_search(&code).is_ok()
}

/// A date as UBL writes it.
fn day(d: NaiveDate) -> String {
    d.format("%Y-%m-%d").to_string()
}

/// The reason code written for an allowance or charge: its code, when it is exactly
/// in the CEN code list of its kind.
pub(crate) fn accepted_code(ac: &AllowanceCharge) -> Option<&str> {
    filled(&ac.code).filter(|c| code_accepted(ac.kind, c))
}

/// The reason code and reason text written for an allowance or charge.
pub(crate) fn reason_and_code(ac: &AllowanceCharge) -> (Option<&str>, String) {
    let code = filled(&ac.code);
    let reason = filled(&ac.reason);
    let accepted = accepted_code(ac);
    let text = match (reason, code, accepted) {
        (Some(r), _, _) => r.to_owned(),
        (None, Some(c), None) => c.to_owned(),
        (None, _, _) => match ac.kind {
            AllowanceKind::Allowance => "Discount".to_owned(),
            AllowanceKind::Charge => "Charge".to_owned(),
        },
    };
    (accepted, text)
}

/// The Percent written for a VAT category: the rate for S (and the legacy codes),
/// 0 for Z, E, AE, K and G, none for O.
pub(crate) fn category_percent(code: VatCode, rate: Option<Decimal>) -> Option<Decimal> {
    match code {
        VatCode::NotSubject => None,
        VatCode::ZeroRated
        | VatCode::Exempted
        | VatCode::ReverseCharge
        | VatCode::TransferredVat
        | VatCode::IntraCommunity
        | VatCode::Export => Some(Decimal::ZERO),
        VatCode::Standard | VatCode::CanaryIslands | VatCode::CeutaMelilla => {
            Some(rate.unwrap_or(Decimal::ZERO))
        }
    }
}

/// A decimal in plain notation, as stored (`Decimal`'s `Display`, written on the
/// stack).
fn plain(d: Decimal, buf: &mut [u8; 48]) -> std::borrow::Cow<'_, str> {
    match crate::money::write_decimal(d, buf) {
        Some(s) => std::borrow::Cow::Borrowed(s),
        None => std::borrow::Cow::Owned(d.to_string()),
    }
}

/// The amount elements, each with the start tag `NAME currencyID="CUR"` built once
/// per document (the currency is one of the crate's ISO 4217 codes: three capital
/// letters, nothing to escape).
const AMOUNT_TAGS: [&str; 12] = [
    "cbc:Amount",
    "cbc:BaseAmount",
    "cbc:PriceAmount",
    "cbc:TaxAmount",
    "cbc:TaxableAmount",
    "cbc:LineExtensionAmount",
    "cbc:TaxExclusiveAmount",
    "cbc:TaxInclusiveAmount",
    "cbc:AllowanceTotalAmount",
    "cbc:ChargeTotalAmount",
    "cbc:PrepaidAmount",
    "cbc:PayableAmount",
];

struct W<'a> {
    x: Xml,
    doc: &'a Document,
    currency: Currency,
    cur: &'static str,
    /// The start tag of each of [`AMOUNT_TAGS`], with its currency.
    amount_starts: Vec<String>,
    buf: [u8; 48],
}

impl W<'_> {
    /// An amount rounded to the currency's minor unit, with its currency.
    // Inlined at each call with `amount_exact`, so that the lookup of the literal name
    // in AMOUNT_TAGS folds away: without it the 500-line UBL costs 0.6 % more
    // instructions (callgrind, 5.609 M against 5.573 M).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn amount(&mut self, name: &str, value: Decimal) {
        self.amount_exact(name, self.currency.round(value));
    }

    /// A VAT category: its code, its percent, the exemption of a VAT group (code and
    /// reason), the VAT scheme.
    fn tax_category(
        &mut self,
        name: &str,
        code: VatCode,
        rate: Option<Decimal>,
        exemption: Option<(Option<&str>, String)>,
    ) {
        self.x.open(name);
        self.x.leaf("cbc:ID", code.category());
        if let Some(p) = category_percent(code, rate) {
            let text = plain(p, &mut self.buf);
            self.x.leaf("cbc:Percent", &text);
        }
        if let Some((code, reason)) = exemption {
            self.x.opt_leaf("cbc:TaxExemptionReasonCode", code);
            self.x.leaf("cbc:TaxExemptionReason", &reason);
        }
        self.x.wrapped("cac:TaxScheme", "cbc:ID", "VAT");
        self.x.close(name);
    }

    fn address(&mut self, name: &str, a: &Address) {
        if a.is_blank() {
            return;
        }
        self.x.open(name);
        let street: Vec<&str> = [filled(&a.street), filled(&a.street_number)]
            .into_iter()
            .flatten()
            .collect();
        if !street.is_empty() {
            self.x.leaf("cbc:StreetName", &street.join(" "));
        }
        self.x
            .opt_leaf("cbc:AdditionalStreetName", filled(&a.street2));
        self.x.opt_leaf("cbc:CityName", filled(&a.city));
        self.x.opt_leaf("cbc:PostalZone", filled(&a.postal_code));
        self.x.opt_leaf("cbc:CountrySubentity", filled(&a.province));
        if let Some(cc) = filled(&a.country_code) {
            self.x.wrapped("cac:Country", "cbc:IdentificationCode", cc);
        }
        self.x.close(name);
    }

    fn party(&mut self, role: &str, p: &Party) {
        self.x.open(role);
        self.x.open("cac:Party");
        if let Some((scheme, value)) = endpoint(p) {
            self.x
                .leaf_with("cbc:EndpointID", &[("schemeID", scheme)], value);
        }
        let name = filled(&p.name);
        if let Some(name) = name {
            self.x.wrapped("cac:PartyName", "cbc:Name", name);
        }
        if let Some(a) = &p.address {
            self.address("cac:PostalAddress", a);
        }
        if let Some(vat) = filled(&p.vat_number) {
            self.x.open("cac:PartyTaxScheme");
            self.x.leaf("cbc:CompanyID", vat);
            self.x.wrapped("cac:TaxScheme", "cbc:ID", "VAT");
            self.x.close("cac:PartyTaxScheme");
        }
        let enterprise = filled(&p.enterprise_number);
        if name.is_some() || enterprise.is_some() {
            self.x.open("cac:PartyLegalEntity");
            self.x.opt_leaf("cbc:RegistrationName", name);
            if let Some(e) = enterprise {
                self.x
                    .leaf_with("cbc:CompanyID", &[("schemeID", "0208")], e);
            }
            self.x.close("cac:PartyLegalEntity");
        }
        if let Some(email) = filled(&p.email) {
            self.x.wrapped("cac:Contact", "cbc:ElectronicMail", email);
        }
        self.x.close("cac:Party");
        self.x.close(role);
    }

    fn delivery(&mut self, location: Option<&DeliveryLocation>) {
        let doc = self.doc;
        if doc.delivery_date.is_none() && location.is_none() {
            return;
        }
        let id = location.and_then(|l| filled(&l.identifier));
        let address = location
            .and_then(|l| l.address.as_ref())
            .filter(|a| !a.is_blank());
        let name = location.and_then(|l| filled(&l.name));
        if doc.delivery_date.is_none() && id.is_none() && address.is_none() && name.is_none() {
            return;
        }
        self.x.open("cac:Delivery");
        if let Some(d) = doc.delivery_date {
            self.x.leaf("cbc:ActualDeliveryDate", &day(d));
        }
        if id.is_some() || address.is_some() {
            self.x.open("cac:DeliveryLocation");
            if let Some(id) = id {
                match location.and_then(|l| filled(&l.identifier_scheme)) {
                    Some(scheme) => self.x.leaf_with("cbc:ID", &[("schemeID", scheme)], id),
                    None => self.x.leaf("cbc:ID", id),
                }
            }
            if let Some(a) = address {
                self.address("cac:Address", a);
            }
            self.x.close("cac:DeliveryLocation");
        }
        if let Some(name) = name {
            self.x.open("cac:DeliveryParty");
            self.x.wrapped("cac:PartyName", "cbc:Name", name);
            self.x.close("cac:DeliveryParty");
        }
        self.x.close("cac:Delivery");
    }

    fn payment_means(&mut self, kind: UblKind, payee: &Party, payee_bic: bool) {
        let doc = self.doc;
        self.x.open("cac:PaymentMeans");
        self.x.leaf("cbc:PaymentMeansCode", "30");
        if !kind.is_invoice() {
            self.x.leaf("cbc:PaymentDueDate", &day(doc.due_date));
        }
        self.x
            .leaf("cbc:PaymentID", &doc.payment_remittance.to_string());
        if let Some(iban) = filled(&payee.iban) {
            self.x.open("cac:PayeeFinancialAccount");
            self.x.leaf("cbc:ID", iban);
            if let Some(bic) = filled(&payee.bic).filter(|_| payee_bic) {
                self.x
                    .wrapped("cac:FinancialInstitutionBranch", "cbc:ID", bic);
            }
            self.x.close("cac:PayeeFinancialAccount");
        }
        self.x.close("cac:PaymentMeans");
    }

    /// One allowance or charge: reason, code, rate and base, amount, VAT category.
    fn allowance(
        &mut self,
        ac: &AllowanceCharge,
        amount: Decimal,
        base: Decimal,
        category: Option<(VatCode, Option<Decimal>)>,
    ) {
        self.x.open("cac:AllowanceCharge");
        self.x.leaf(
            "cbc:ChargeIndicator",
            if ac.kind == AllowanceKind::Charge {
                "true"
            } else {
                "false"
            },
        );
        let (code, reason) = reason_and_code(ac);
        self.x.opt_leaf("cbc:AllowanceChargeReasonCode", code);
        self.x.leaf("cbc:AllowanceChargeReason", &reason);
        let rate = match ac.value {
            AllowanceValue::Rate(r) => Some(r),
            AllowanceValue::Amount(_) => None,
        };
        if let Some(r) = rate {
            let text = plain(r, &mut self.buf);
            self.x.leaf("cbc:MultiplierFactorNumeric", &text);
        }
        self.amount("cbc:Amount", amount);
        if rate.is_some() {
            self.amount("cbc:BaseAmount", base);
        }
        if let Some((code, rate)) = category {
            self.tax_category("cac:TaxCategory", code, rate, None);
        }
        self.x.close("cac:AllowanceCharge");
    }

    fn document_allowances(&mut self) {
        let doc = self.doc;
        let comp = &doc.computation;
        for (j, ac) in doc.allowance_charges.iter().enumerate() {
            let Some(amounts) = comp.allowance_charges.get(j) else {
                continue;
            };
            for (g, share) in comp.groups.iter().zip(&amounts.shares) {
                if share.is_zero() {
                    continue;
                }
                self.allowance(ac, *share, g.base, Some((g.vat_code, g.vat_rate)));
            }
        }
    }

    fn tax_total(&mut self) {
        let doc = self.doc;
        let comp = &doc.computation;
        self.x.open("cac:TaxTotal");
        self.amount("cbc:TaxAmount", comp.tax_amount);
        for (i, g) in comp.groups.iter().enumerate() {
            self.x.open("cac:TaxSubtotal");
            self.amount("cbc:TaxableAmount", g.taxable_amount);
            self.amount("cbc:TaxAmount", g.tax_amount);
            let exemption = doc.exemption_mention(i);
            self.tax_category("cac:TaxCategory", g.vat_code, g.vat_rate, exemption);
            self.x.close("cac:TaxSubtotal");
        }
        self.x.close("cac:TaxTotal");
    }

    fn totals(&mut self) {
        let doc = self.doc;
        let comp = &doc.computation;
        self.x.open("cac:LegalMonetaryTotal");
        self.amount("cbc:LineExtensionAmount", comp.line_total);
        self.amount("cbc:TaxExclusiveAmount", comp.tax_exclusive_amount);
        self.amount("cbc:TaxInclusiveAmount", comp.total_amount);
        if has_kind(doc, AllowanceKind::Allowance) {
            self.amount("cbc:AllowanceTotalAmount", comp.allowance_total);
        }
        if has_kind(doc, AllowanceKind::Charge) {
            self.amount("cbc:ChargeTotalAmount", comp.charge_total);
        }
        if !doc.paid_amount.is_zero() {
            self.amount("cbc:PrepaidAmount", doc.paid_amount);
        }
        self.amount("cbc:PayableAmount", doc.remaining_amount());
        self.x.close("cac:LegalMonetaryTotal");
    }

    fn line(&mut self, kind: UblKind, index: usize, line: &Line) {
        let doc = self.doc;
        let Some(amounts) = doc.computation.lines.get(index) else {
            return;
        };
        let p = &line.pricing;
        let (tag, qty) = if kind.is_invoice() {
            ("cac:InvoiceLine", "cbc:InvoicedQuantity")
        } else {
            ("cac:CreditNoteLine", "cbc:CreditedQuantity")
        };
        self.x.open(tag);
        let id = plain(Decimal::from(index + 1), &mut self.buf);
        self.x.leaf("cbc:ID", &id);
        let unit = filled(&line.unit_code).unwrap_or("C62");
        let quantity = plain(p.quantity, &mut self.buf);
        self.x.leaf_with(qty, &[("unitCode", unit)], &quantity);
        self.amount("cbc:LineExtensionAmount", amounts.total);
        for (j, ac) in p.allowance_charges.iter().enumerate() {
            let amount = amounts
                .allowance_charges
                .get(j)
                .copied()
                .unwrap_or_default();
            self.allowance(ac, amount, amounts.subtotal, None);
        }
        self.x.open("cac:Item");
        self.x
            .opt_leaf("cbc:Description", filled(&line.item_description));
        self.x.opt_leaf("cbc:Name", filled(&line.item_name));
        if let Some(code) = filled(&line.product_code) {
            self.x
                .wrapped("cac:SellersItemIdentification", "cbc:ID", code);
        }
        if let Some(id) = filled(&line.item_identification) {
            self.x.open("cac:StandardItemIdentification");
            self.x.leaf_with("cbc:ID", &[("schemeID", "0160")], id);
            self.x.close("cac:StandardItemIdentification");
        }
        self.tax_category("cac:ClassifiedTaxCategory", p.vat_code, p.vat_rate, None);
        for (name, value) in item_properties(line) {
            self.x.open("cac:AdditionalItemProperty");
            self.x.leaf("cbc:Name", name);
            self.x.opt_leaf("cbc:Value", value.as_deref());
            self.x.close("cac:AdditionalItemProperty");
        }
        self.x.close("cac:Item");
        self.x.open("cac:Price");
        self.amount_exact("cbc:PriceAmount", p.unit_price);
        self.x.close("cac:Price");
        self.x.close(tag);
    }

    /// An amount written exactly as stored (a price), with its currency.
    #[allow(clippy::inline_always)] // see `amount`
    #[inline(always)]
    fn amount_exact(&mut self, name: &str, value: Decimal) {
        let text = plain(value, &mut self.buf);
        match AMOUNT_TAGS.iter().position(|t| *t == name) {
            Some(i) => {
                let start = self.amount_starts.get(i).map_or("", String::as_str);
                self.x.leaf_raw_start(start, name, &text);
            }
            None => self.x.leaf_with(name, &[("currencyID", self.cur)], &text),
        }
    }
}

/// The item properties written: name and value (none when blank), in the order
/// sent; a property whose name is blank is not written.
pub(crate) fn item_properties(line: &Line) -> Vec<(&str, Option<String>)> {
    let Some(props) = &line.item_properties else {
        return Vec::new();
    };
    props
        .iter()
        .filter(|(k, _)| !is_blank(k))
        .map(|(k, v)| {
            let text = match v {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Null => String::new(),
                other => other.to_string(),
            };
            let value = Some(text).filter(|t| !is_blank(t));
            (k.as_str(), value)
        })
        .collect()
}

/// The electronic address written for a party: `peppol_id` `S:V` split at its first
/// `:`, when V is not blank.
pub(crate) fn endpoint(p: &Party) -> Option<(&str, &str)> {
    filled(&p.peppol_id)?
        .split_once(':')
        .filter(|(_, v)| !is_blank(v))
}

/// Whether the document has a document-level allowance (or charge).
pub(crate) fn has_kind(doc: &Document, kind: AllowanceKind) -> bool {
    doc.allowance_charges.iter().any(|a| a.kind == kind)
}

/// A file embedded as a `cac:AdditionalDocumentReference` (docs/files.md §3): its ID,
/// description, media type, filename and bytes.
pub(crate) struct Reference<'a> {
    pub(crate) id: &'a str,
    pub(crate) description: Option<&'a str>,
    pub(crate) mime: &'a str,
    pub(crate) filename: &'a str,
    pub(crate) bytes: &'a [u8],
}

/// Writes the references where the UBL 2.1 schema puts them (just before
/// `cac:AccountingSupplierParty`, a place valid in the Invoice and the CreditNote
/// order alike): each file's bytes are encoded into `out` as they are read, never
/// held twice.
fn write_references<W: std::io::Write + ?Sized>(
    out: &mut W,
    references: &[Reference<'_>],
) -> std::io::Result<()> {
    use base64::engine::general_purpose::STANDARD;
    use std::io::Write as _;
    let mut x = Xml::fragment(512);
    for r in references {
        x.open("cac:AdditionalDocumentReference");
        x.leaf("cbc:ID", r.id);
        x.opt_leaf("cbc:DocumentDescription", r.description);
        x.open("cac:Attachment");
        x.open_with(
            "cbc:EmbeddedDocumentBinaryObject",
            &[("mimeCode", r.mime), ("filename", r.filename)],
        );
        x.drain_into(out)?;
        let mut encoder = base64::write::EncoderWriter::new(&mut *out, &STANDARD);
        encoder.write_all(r.bytes)?;
        encoder.finish()?;
        drop(encoder);
        x.close("cbc:EmbeddedDocumentBinaryObject");
        x.close("cac:Attachment");
        x.close("cac:AdditionalDocumentReference");
    }
    x.drain_into(out)
}

/// Writes the UBL document into `out`: the head, the embedded files streamed, then
/// the rest.
pub(crate) fn write<O: std::io::Write + ?Sized>(
    out: &mut O,
    doc: &Document,
    kind: UblKind,
    roles: &Roles<'_>,
    location: Option<&DeliveryLocation>,
    references: &[Reference<'_>],
) -> std::io::Result<()> {
    let cur = doc.currency.code();
    let mut w = W {
        x: Xml::new(4096 + doc.lines.len() * 640),
        doc,
        currency: doc.currency,
        cur,
        amount_starts: AMOUNT_TAGS
            .iter()
            .map(|t| format!("{t} currencyID=\"{cur}\""))
            .collect(),
        buf: [0; 48],
    };
    let root = if kind.is_invoice() {
        "Invoice"
    } else {
        "CreditNote"
    };
    let ns = if kind.is_invoice() {
        NS_INVOICE
    } else {
        NS_CREDIT_NOTE
    };
    w.x.open_with(
        root,
        &[("xmlns", ns), ("xmlns:cac", NS_CAC), ("xmlns:cbc", NS_CBC)],
    );
    let (customization, profile) = kind.customization();
    w.x.leaf("cbc:CustomizationID", customization);
    w.x.leaf("cbc:ProfileID", profile);
    w.x.leaf("cbc:ID", &doc.document_number);
    w.x.leaf("cbc:IssueDate", &day(doc.issue_date));
    let tax_point = doc.tax_point_date.map(day);
    if kind.is_invoice() {
        w.x.leaf("cbc:DueDate", &day(doc.due_date));
        w.x.leaf("cbc:InvoiceTypeCode", kind.type_code());
    } else {
        w.x.opt_leaf("cbc:TaxPointDate", tax_point.as_deref());
        w.x.leaf("cbc:CreditNoteTypeCode", kind.type_code());
    }
    w.x.opt_leaf("cbc:Note", filled(&doc.legal_notice));
    if kind.is_invoice() {
        w.x.opt_leaf("cbc:TaxPointDate", tax_point.as_deref());
    }
    w.x.leaf("cbc:DocumentCurrencyCode", w.cur);
    w.x.opt_leaf("cbc:BuyerReference", filled(&doc.buyer_reference));
    if doc.period_start.is_some() || doc.period_end.is_some() {
        w.x.open("cac:InvoicePeriod");
        w.x.opt_leaf("cbc:StartDate", doc.period_start.map(day).as_deref());
        w.x.opt_leaf("cbc:EndDate", doc.period_end.map(day).as_deref());
        w.x.close("cac:InvoicePeriod");
    }
    if let Some(order) = filled(&doc.order_number) {
        w.x.wrapped("cac:OrderReference", "cbc:ID", order);
    }
    if let Some(despatch) = filled(&doc.despatch_reference) {
        w.x.wrapped("cac:DespatchDocumentReference", "cbc:ID", despatch);
    }
    w.x.drain_into(out)?;
    write_references(out, references)?;
    w.party("cac:AccountingSupplierParty", roles.seller);
    w.party("cac:AccountingCustomerParty", roles.buyer);
    w.delivery(location);
    w.payment_means(kind, roles.seller, roles.seller_is_company);
    let terms = terms_in_words(doc.payment_terms, Language::En);
    w.x.wrapped("cac:PaymentTerms", "cbc:Note", &terms);
    w.document_allowances();
    w.tax_total();
    w.totals();
    for (i, line) in doc.lines.iter().enumerate() {
        w.line(kind, i, line);
    }
    w.x.close(root);
    w.x.drain_into(out)
}
