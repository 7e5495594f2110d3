//! The PDF's content as plain text, before any layout: a [`Sheet`] holds only strings,
//! so that a document the company issues and a document it receives (read from a
//! UBL) are printed by the same renderer.
//!
//! Amounts keep the digits the document JSON writes (the currency's minor unit,
//! half away from zero), with a decimal comma in Dutch, French and German and no
//! thousands separator; quantities, prices and rates are echoed as sent; dates are
//! ISO `YYYY-MM-DD`.

use super::labels::{terms_in_words, unit_name, vat_code_label, Labels};
use crate::compute::{AllowanceCharge, AllowanceKind, AllowanceValue};
use crate::context::{Company, DeliveryLocation, Relation};
use crate::document::{Document, DocumentType};
use crate::language::Language;
use crate::money::{unsigned_zero, Currency};
use crate::party::{filled, Address, Party};
use chrono::NaiveDate;
use rust_decimal::Decimal;

/// A party as printed: its role, its name and the lines under it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PartyBlock {
    /// The role: "Supplier", "Customer", "Delivery address".
    pub role: String,
    /// The name (may be empty).
    pub name: String,
    /// Address lines, then the VAT and enterprise numbers.
    pub lines: Vec<String>,
}

/// An allowance or charge as printed: its label and its amount.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Adjustment {
    /// "Discount 5 %: reason".
    pub label: String,
    /// The amount, negative for an allowance.
    pub amount: String,
}

/// One line of the document.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LineRow {
    /// The section title, when the line opens a new section.
    pub section: Option<String>,
    /// Item name.
    pub name: String,
    /// Item description and identifiers, each its own paragraph.
    pub details: Vec<String>,
    /// Quantity as sent.
    pub quantity: String,
    /// Unit of measure.
    pub unit: String,
    /// Unit price excluding VAT, as sent.
    pub unit_price: String,
    /// VAT rate (`21 %`) or the exempt code's label.
    pub vat: String,
    /// Line total excluding VAT.
    pub total: String,
    /// The line's allowances and charges.
    pub adjustments: Vec<Adjustment>,
}

/// One VAT group of the breakdown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VatRow {
    /// The rate (`21 %`) or the exempt code's label.
    pub label: String,
    /// The taxable amount.
    pub base: String,
    /// The VAT.
    pub vat: String,
    /// The exemption mention of an exempt group.
    pub mention: Option<String>,
}

/// One total: a label and an amount; `strong` ones are emphasised.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TotalRow {
    /// The label.
    pub label: String,
    /// The amount.
    pub amount: String,
    /// Whether the row is emphasised (total incl. VAT, amount due).
    pub strong: bool,
}

/// The whole content of a document's PDF, as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sheet {
    /// The title by type.
    pub title: String,
    /// A notice under the title (a proforma is not an invoice).
    pub notice: Option<String>,
    /// Number, dates, period and references: label and value.
    pub facts: Vec<(String, String)>,
    /// The supplier (the relation in self-billing).
    pub supplier: PartyBlock,
    /// The customer (the company in self-billing).
    pub customer: PartyBlock,
    /// The delivery location, if any.
    pub delivery: Option<PartyBlock>,
    /// "Amounts in EUR".
    pub currency_note: String,
    /// The column headers of the lines' table: description, quantity, unit, unit
    /// price, VAT, total.
    pub line_headers: [String; 6],
    /// The lines.
    pub lines: Vec<LineRow>,
    /// Heading of the document allowances and charges.
    pub adjustments_heading: String,
    /// The document allowances and charges.
    pub adjustments: Vec<Adjustment>,
    /// Heading and column headers of the VAT breakdown: rate, base, VAT.
    pub vat_headers: [String; 4],
    /// The VAT breakdown.
    pub vat: Vec<VatRow>,
    /// The totals.
    pub totals: Vec<TotalRow>,
    /// Heading of the payment block.
    pub payment_heading: String,
    /// Communication, IBAN, BIC, terms: label and value.
    pub payment: Vec<(String, String)>,
    /// Mentions the law asks for (the credit note's), each a paragraph.
    pub mentions: Vec<String>,
    /// The document's legal notice.
    pub legal_notice: Option<String>,
    /// The footer's lines: the company's identity (name, legal form, register), the
    /// branding's text.
    pub footer: Vec<String>,
    /// The PDF's metadata: title, author, language code, issue date.
    pub meta: Meta,
}

/// What the PDF's metadata states.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Meta {
    /// The document title (title and number).
    pub title: String,
    /// The issuer's name.
    pub author: String,
    /// The language code (`nl`).
    pub language: String,
    /// The issue date: the PDF's creation and modification dates.
    pub date: NaiveDate,
    /// A stable identifier of the document (its id).
    pub id: String,
}

/// The parties and settings a document is printed with.
#[derive(Debug, Clone, Copy)]
pub struct Parties<'a> {
    /// The company.
    pub company: &'a Company,
    /// The relation.
    pub relation: &'a Relation,
    /// The delivery location.
    pub location: Option<&'a DeliveryLocation>,
    /// The branding's footer text.
    pub footer: Option<&'a str>,
}

/// Writes numbers and amounts as the PDF shows them in a language.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Numbers {
    comma: bool,
    currency: Currency,
}

impl Numbers {
    /// The writer for a language and a currency.
    pub(crate) fn new(language: Language, currency: Currency) -> Numbers {
        Numbers {
            comma: language != Language::En,
            currency,
        }
    }

    /// Decimal comma for nl, fr and de.
    fn point(self, text: String) -> String {
        decimal_comma(self.comma, text)
    }

    /// An amount with the currency's minor-unit decimals, as the JSON writes it.
    pub(crate) fn amount(self, value: Decimal) -> String {
        self.point(self.currency.format(value))
    }

    /// A quantity, price or rate echoed as sent.
    pub(crate) fn echo(self, value: Decimal) -> String {
        self.point(unsigned_zero(value).to_string())
    }
}

/// The text with a decimal comma when `comma`.
#[inline]
pub(crate) fn decimal_comma(comma: bool, text: String) -> String {
    if comma {
        text.replace('.', ",")
    } else {
        text
    }
}

/// A date as the JSON writes it.
fn day(date: NaiveDate) -> String {
    date.format("%Y-%m-%d").to_string()
}

impl Sheet {
    /// The sheet of an issued document (or a proforma), in the company's language.
    pub fn of_document(doc: &Document, parties: Parties<'_>) -> Sheet {
        let language = parties.company.language;
        let labels = Labels::of(language);
        let n = Numbers::new(language, doc.currency);
        let (supplier, customer) = if doc.doc_type.is_self_billing() {
            (&parties.relation.party, &parties.company.party)
        } else {
            (&parties.company.party, &parties.relation.party)
        };
        let title = title(doc.doc_type, labels).to_owned();
        Sheet {
            meta: Meta {
                title: format!("{title} {}", doc.document_number),
                author: filled(&supplier.name).unwrap_or_default().to_owned(),
                language: language.as_str().to_owned(),
                date: doc.issue_date,
                id: doc.id.clone(),
            },
            title,
            notice: (doc.doc_type == DocumentType::ProformaInvoice)
                .then(|| labels.proforma_notice.to_owned()),
            facts: facts(doc, labels),
            supplier: party_block(labels.supplier, supplier, labels),
            customer: party_block(labels.customer, customer, labels),
            delivery: parties.location.map(|l| delivery_block(l, labels)),
            currency_note: format!("{} {}", labels.amounts_in, doc.currency.code()),
            line_headers: labels.line_headers(),
            lines: line_rows(doc, labels, n, language),
            adjustments_heading: labels.allowances_charges.to_owned(),
            adjustments: document_adjustments(doc, labels, n),
            vat_headers: labels.vat_headers(),
            vat: vat_rows(doc, n, language),
            totals: totals(doc, labels, n),
            payment_heading: labels.payment.to_owned(),
            payment: payment(doc, parties, labels),
            mentions: mentions(doc, labels),
            legal_notice: filled(&doc.legal_notice).map(str::to_owned),
            footer: footer(parties),
        }
    }
}

/// The title of a type.
fn title(doc_type: DocumentType, labels: &Labels) -> &'static str {
    match doc_type {
        DocumentType::SaleInvoice => labels.invoice,
        DocumentType::SaleCreditNote => labels.credit_note,
        DocumentType::PurchaseInvoice => labels.self_billing_invoice,
        DocumentType::PurchaseCreditNote => labels.self_billing_credit_note,
        DocumentType::ProformaInvoice => labels.proforma,
    }
}

/// Number, dates, period and references.
fn facts(doc: &Document, labels: &Labels) -> Vec<(String, String)> {
    let mut out = vec![
        (labels.number, doc.document_number.clone()),
        (labels.issue_date, day(doc.issue_date)),
        (labels.due_date, day(doc.due_date)),
    ];
    if let Some(d) = doc.delivery_date {
        out.push((labels.delivery_date, day(d)));
    }
    if let Some(d) = doc.tax_point_date {
        out.push((labels.tax_point_date, day(d)));
    }
    match (doc.period_start, doc.period_end) {
        (None, None) => {}
        (start, end) => {
            let side = |d: Option<NaiveDate>| d.map(day).unwrap_or_default();
            out.push((labels.period, format!("{} – {}", side(start), side(end))));
        }
    }
    let references = [
        (labels.order, &doc.order_number),
        (labels.buyer_reference, &doc.buyer_reference),
        (labels.despatch, &doc.despatch_reference),
    ];
    for (label, value) in references {
        if let Some(v) = filled(value) {
            out.push((label, v.to_owned()));
        }
    }
    out.into_iter().map(|(l, v)| (l.to_owned(), v)).collect()
}

/// An address's lines: street and number, second line, postal code and city,
/// province, country.
fn address_lines(address: &Address) -> Vec<String> {
    let join = |parts: &[&Option<String>]| {
        parts
            .iter()
            .filter_map(|p| filled(p))
            .collect::<Vec<_>>()
            .join(" ")
    };
    [
        join(&[&address.street, &address.street_number]),
        join(&[&address.street2]),
        join(&[&address.postal_code, &address.city]),
        join(&[&address.province]),
        join(&[&address.country_code]),
    ]
    .into_iter()
    .filter(|l| !l.is_empty())
    .collect()
}

/// A party's block: name, address, VAT and enterprise numbers.
fn party_block(role: &str, party: &Party, labels: &Labels) -> PartyBlock {
    let mut lines = party
        .address
        .as_ref()
        .map(address_lines)
        .unwrap_or_default();
    if let Some(v) = filled(&party.vat_number) {
        lines.push(format!("{}: {v}", labels.vat_number));
    }
    if let Some(v) = filled(&party.enterprise_number) {
        lines.push(format!("{}: {v}", labels.enterprise_number));
    }
    if let Some(v) = filled(&party.email) {
        lines.push(v.to_owned());
    }
    PartyBlock {
        role: role.to_owned(),
        name: filled(&party.name).unwrap_or_default().to_owned(),
        lines,
    }
}

/// The delivery location's block.
fn delivery_block(location: &DeliveryLocation, labels: &Labels) -> PartyBlock {
    let mut lines = location
        .address
        .as_ref()
        .map(address_lines)
        .unwrap_or_default();
    if let Some(v) = filled(&location.identifier) {
        lines.push(v.to_owned());
    }
    PartyBlock {
        role: labels.delivery_address.to_owned(),
        name: filled(&location.name).unwrap_or_default().to_owned(),
        lines,
    }
}

/// The label of an allowance or charge: its kind or reason, and its rate.
fn adjustment_label(ac: &AllowanceCharge, labels: &Labels, n: Numbers) -> String {
    let kind = match ac.kind {
        AllowanceKind::Allowance => labels.allowance,
        AllowanceKind::Charge => labels.charge,
    };
    let reason = filled(&ac.reason).or_else(|| filled(&ac.code));
    let mut label = match reason {
        Some(r) => format!("{kind}: {r}"),
        None => kind.to_owned(),
    };
    if let AllowanceValue::Rate(r) = ac.value {
        label = format!("{label} ({} %)", n.echo(r));
    }
    label
}

/// The amount of an allowance or charge, negative for an allowance.
fn adjustment_amount(kind: AllowanceKind, amount: Decimal, n: Numbers) -> String {
    let text = n.amount(amount);
    match kind {
        AllowanceKind::Allowance if !amount.is_zero() && !text.starts_with('-') => {
            format!("-{text}")
        }
        _ => text,
    }
}

/// The VAT column of a line or the label of a group: the rate, or the exempt code's
/// label. `echo` writes the rate (issued and received documents write it their own
/// way) and is called only when the rate is shown.
pub(crate) fn vat_label(
    code: Option<crate::vat::VatCode>,
    rate: Option<Decimal>,
    echo: impl FnOnce(Decimal) -> String,
    language: Language,
) -> String {
    match (code.and_then(|c| vat_code_label(c, language)), rate) {
        (Some(label), _) => label.to_owned(),
        (None, Some(r)) => format!("{} %", echo(r)),
        (None, None) => String::new(),
    }
}

/// The lines' rows.
fn line_rows(doc: &Document, labels: &Labels, n: Numbers, language: Language) -> Vec<LineRow> {
    let mut section: Option<&str> = None;
    let mut rows = Vec::with_capacity(doc.lines.len());
    for (i, line) in doc.lines.iter().enumerate() {
        let amounts = doc.computation.lines.get(i);
        let p = &line.pricing;
        let this_section = filled(&line.section_name);
        let opens = this_section.filter(|s| section != Some(*s));
        section = this_section.or(section);
        let mut details: Vec<String> = filled(&line.item_description)
            .map(str::to_owned)
            .into_iter()
            .collect();
        let ids = [&line.product_code, &line.item_identification];
        let ids: Vec<&str> = ids.into_iter().filter_map(filled).collect();
        if !ids.is_empty() {
            details.push(ids.join(" · "));
        }
        let adjustments = p
            .allowance_charges
            .iter()
            .enumerate()
            .map(|(j, ac)| {
                let amount = amounts
                    .and_then(|a| a.allowance_charges.get(j).copied())
                    .unwrap_or_default();
                Adjustment {
                    label: adjustment_label(ac, labels, n),
                    amount: adjustment_amount(ac.kind, amount, n),
                }
            })
            .collect();
        rows.push(LineRow {
            section: opens.map(str::to_owned),
            name: filled(&line.item_name).unwrap_or_default().to_owned(),
            details,
            quantity: n.echo(p.quantity),
            unit: filled(&line.unit_code)
                .map(|u| unit_name(u, labels))
                .unwrap_or_default(),
            unit_price: n.echo(p.unit_price),
            vat: vat_label(Some(p.vat_code), p.vat_rate, |r| n.echo(r), language),
            total: amounts.map(|a| n.amount(a.total)).unwrap_or_default(),
            adjustments,
        });
    }
    rows
}

/// The document allowances and charges.
fn document_adjustments(doc: &Document, labels: &Labels, n: Numbers) -> Vec<Adjustment> {
    doc.allowance_charges
        .iter()
        .enumerate()
        .map(|(j, ac)| {
            let amount = match (doc.computation.allowance_charges.get(j), ac.value) {
                (Some(a), _) => a.amount,
                (None, AllowanceValue::Amount(a)) => a,
                (None, AllowanceValue::Rate(_)) => Decimal::ZERO,
            };
            Adjustment {
                label: adjustment_label(ac, labels, n),
                amount: adjustment_amount(ac.kind, amount, n),
            }
        })
        .collect()
}

/// The VAT breakdown, with each exempt group's mention.
fn vat_rows(doc: &Document, n: Numbers, language: Language) -> Vec<VatRow> {
    doc.computation
        .groups
        .iter()
        .enumerate()
        .map(|(i, g)| VatRow {
            label: vat_label(Some(g.vat_code), g.vat_rate, |r| n.echo(r), language),
            base: n.amount(g.taxable_amount),
            vat: n.amount(g.tax_amount),
            mention: doc.exemption_mention(i).map(|(_, reason)| reason),
        })
        .collect()
}

/// The totals: lines, allowances and charges when there are any, excluding VAT,
/// VAT, including VAT, paid, remaining.
fn totals(doc: &Document, labels: &Labels, n: Numbers) -> Vec<TotalRow> {
    let c = &doc.computation;
    let row = |label: &str, amount: Decimal, strong: bool| TotalRow {
        label: label.to_owned(),
        amount: n.amount(amount),
        strong,
    };
    let mut out = Vec::new();
    if !doc.allowance_charges.is_empty() {
        out.push(row(labels.lines_total, c.line_total, false));
        if !c.allowance_total.is_zero() {
            out.push(row(labels.allowances_total, c.allowance_total, false));
        }
        if !c.charge_total.is_zero() {
            out.push(row(labels.charges_total, c.charge_total, false));
        }
    }
    out.push(row(labels.total_excl, c.tax_exclusive_amount, false));
    out.push(row(labels.vat, c.tax_amount, false));
    out.push(row(labels.total_incl, c.total_amount, true));
    out.push(row(labels.paid, doc.paid_amount, false));
    out.push(row(labels.remaining, doc.remaining_amount(), true));
    out
}

/// The payment block: communication, payee's IBAN and BIC (in self-billing the
/// relation, IBAN only), terms in words.
fn payment(doc: &Document, parties: Parties<'_>, labels: &Labels) -> Vec<(String, String)> {
    let self_billing = doc.doc_type.is_self_billing();
    let payee = if self_billing {
        &parties.relation.party
    } else {
        &parties.company.party
    };
    let mut out = vec![(labels.communication, doc.payment_remittance.to_string())];
    if let Some(iban) = filled(&payee.iban) {
        out.push(("IBAN", iban.to_owned()));
    }
    if !self_billing {
        if let Some(bic) = filled(&payee.bic) {
            out.push(("BIC", bic.to_owned()));
        }
    }
    out.push((
        labels.terms,
        terms_in_words(doc.payment_terms, parties.company.language),
    ));
    out.into_iter().map(|(l, v)| (l.to_owned(), v)).collect()
}

/// The mentions the law asks for: on a credit note, the VAT to be repaid.
fn mentions(doc: &Document, labels: &Labels) -> Vec<String> {
    match doc.doc_type {
        DocumentType::SaleCreditNote | DocumentType::PurchaseCreditNote => {
            vec![labels.credit_note_mention.to_owned()]
        }
        _ => Vec::new(),
    }
}

/// The footer: the company's name, legal form, register, VAT number; the branding's
/// text.
fn footer(parties: Parties<'_>) -> Vec<String> {
    let c = parties.company;
    let identity: Vec<&str> = [
        &c.party.name,
        &c.legal_form,
        &c.register,
        &c.party.vat_number,
    ]
    .into_iter()
    .filter_map(filled)
    .collect();
    let mut out = Vec::new();
    if !identity.is_empty() {
        out.push(identity.join(" · "));
    }
    if let Some(text) = parties.footer.filter(|t| !t.trim().is_empty()) {
        out.push(text.to_owned());
    }
    out
}
