//! The sheet of a received UBL that came without a PDF of its own (docs/files.md §2): the
//! same layout, from what the UBL states: its parties' names and addresses, its lines,
//! its VAT breakdown and totals, as the received document's JSON writes them.
//!
//! Decisions where the specification is silent: the page is plain (the company's
//! branding is for the documents it issues, not for a supplier's); the labels are in
//! the company's language; a received document has no footer, no payment terms and no
//! legal mention of ours; an amount the UBL does not state is left blank.

use super::labels::{unit_name, Labels};
use super::sheet::{
    decimal_comma, vat_label, Adjustment, LineRow, Meta, PartyBlock, Sheet, TotalRow, VatRow,
};
use crate::compute::AllowanceKind;
use crate::language::Language;
use crate::received::{
    ReceivedAllowanceCharge, ReceivedDocument, ReceivedLine, ReceivedParty, ReceivedType,
};
use chrono::NaiveDate;
use rust_decimal::Decimal;

/// Writes the numbers of a received document as its JSON does: amounts with at least
/// the currency's minor unit, quantities, prices and rates as stated; a decimal comma
/// in nl, fr and de.
#[derive(Clone, Copy)]
struct Stated {
    comma: bool,
    minor: u32,
}

impl Stated {
    fn amount(self, v: Option<Decimal>) -> String {
        let text = |v| crate::received::amount_value(v, self.minor).to_string();
        v.map(|v| decimal_comma(self.comma, text(v)))
            .unwrap_or_default()
    }

    fn echo(self, v: Option<Decimal>) -> String {
        v.map(|v| decimal_comma(self.comma, v.normalize().to_string()))
            .unwrap_or_default()
    }
}

/// A party's block from what the UBL states.
fn party(role: &str, p: &ReceivedParty, labels: &Labels) -> PartyBlock {
    let mut lines = Vec::new();
    if let Some(a) = &p.address {
        let join = |parts: &[&Option<String>]| {
            parts
                .iter()
                .filter_map(|s| s.as_deref().map(str::trim).filter(|s| !s.is_empty()))
                .collect::<Vec<_>>()
                .join(" ")
        };
        for line in [
            join(&[&a.street]),
            join(&[&a.street2]),
            join(&[&a.postal_code, &a.city]),
            join(&[&a.province]),
            join(&[&a.country_code]),
        ] {
            if !line.is_empty() {
                lines.push(line);
            }
        }
    }
    if let Some(v) = p.vat_number.as_deref().filter(|v| !v.trim().is_empty()) {
        lines.push(format!("{}: {v}", labels.vat_number));
    }
    if let Some(v) = p.legal_id.as_deref().filter(|v| !v.trim().is_empty()) {
        lines.push(format!("{}: {v}", labels.enterprise_number));
    }
    PartyBlock {
        role: role.to_owned(),
        name: p.name.clone().unwrap_or_default(),
        lines,
    }
}

/// An allowance's or charge's label and amount.
fn adjustment(ac: &ReceivedAllowanceCharge, labels: &Labels, n: Stated) -> Adjustment {
    let (kind, sign) = match ac.kind {
        Some(AllowanceKind::Charge) => (labels.charge, ""),
        _ => (labels.allowance, "-"),
    };
    let mut label = kind.to_owned();
    if let Some(rate) = ac.rate {
        label.push_str(" (");
        label.push_str(&n.echo(Some(rate)));
        label.push_str(" %)");
    }
    if let Some(reason) = ac.reason.as_deref().filter(|r| !r.trim().is_empty()) {
        label.push_str(": ");
        label.push_str(reason);
    }
    let amount = n.amount(ac.amount);
    Adjustment {
        label,
        amount: if amount.is_empty() {
            amount
        } else {
            format!("{sign}{amount}")
        },
    }
}

/// The facts of a received document's header: number, dates, period, references.
fn received_facts(
    doc: &ReceivedDocument,
    labels: &Labels,
    number: &str,
    issued: NaiveDate,
) -> Vec<(String, String)> {
    let day = |d: NaiveDate| d.format("%Y-%m-%d").to_string();
    let mut facts = vec![
        (labels.number, number.to_owned()),
        (labels.issue_date, day(issued)),
    ];
    let dated = [
        (labels.due_date, doc.due_date),
        (labels.delivery_date, doc.delivery_date),
        (labels.tax_point_date, doc.tax_point_date),
    ];
    facts.extend(
        dated
            .into_iter()
            .filter_map(|(l, d)| d.map(|d| (l, day(d)))),
    );
    if doc.period_start.is_some() || doc.period_end.is_some() {
        let side = |d: Option<NaiveDate>| d.map(day).unwrap_or_default();
        let period = format!("{} – {}", side(doc.period_start), side(doc.period_end));
        facts.push((labels.period, period));
    }
    let references = [
        (labels.order, &doc.order_number),
        (labels.buyer_reference, &doc.buyer_reference),
        (labels.despatch, &doc.despatch_reference),
    ];
    for (label, value) in references {
        if let Some(v) = value.as_deref().filter(|v| !v.trim().is_empty()) {
            facts.push((label, v.to_owned()));
        }
    }
    facts.into_iter().map(|(l, v)| (l.to_owned(), v)).collect()
}

/// The totals of a received document as it states them.
fn total_rows(doc: &ReceivedDocument, labels: &Labels, n: Stated) -> Vec<TotalRow> {
    let row = |label: &str, amount: Option<Decimal>, strong: bool| TotalRow {
        label: label.to_owned(),
        amount: n.amount(amount),
        strong,
    };
    vec![
        row(labels.total_excl, doc.tax_exclusive_amount, false),
        row(labels.vat, doc.tax_amount, false),
        row(labels.total_incl, doc.total_amount, true),
        row(labels.paid, doc.paid_amount, false),
        row(labels.remaining, doc.remaining_amount, true),
    ]
}

/// A received line as the lines' table shows it.
fn line_row(l: &ReceivedLine, labels: &Labels, n: Stated, language: Language) -> LineRow {
    LineRow {
        section: None,
        name: l.item_name.clone().unwrap_or_default(),
        details: l.item_description.clone().into_iter().collect(),
        quantity: n.echo(l.quantity),
        unit: l
            .unit_code
            .as_deref()
            .map(|u| unit_name(u, labels))
            .unwrap_or_default(),
        unit_price: n.echo(l.unit_price),
        vat: vat_label(l.vat_code, l.vat_rate, |r| n.echo(Some(r)), language),
        total: n.amount(l.total),
        adjustments: l
            .allowance_charges
            .iter()
            .map(|ac| adjustment(ac, labels, n))
            .collect(),
    }
}

impl Sheet {
    /// The sheet of a received document, in `language`; `received_on` stands for an
    /// issue date the UBL does not state.
    pub fn of_received(
        doc: &ReceivedDocument,
        language: Language,
        received_on: NaiveDate,
    ) -> Sheet {
        let labels = Labels::of(language);
        let n = Stated {
            comma: language != Language::En,
            minor: doc.minor_unit(),
        };
        let title = match doc.doc_type {
            ReceivedType::PurchaseCreditNote => labels.credit_note,
            ReceivedType::PurchaseInvoice | ReceivedType::Unknown => labels.invoice,
        }
        .to_owned();
        let number = doc.document_number.clone().unwrap_or_default();
        let issued = doc.issue_date.unwrap_or(received_on);
        let facts = received_facts(doc, labels, &number, issued);
        let lines = doc
            .lines
            .iter()
            .map(|l| line_row(l, labels, n, language))
            .collect();
        let vat = doc
            .vat_breakdown
            .iter()
            .map(|g| VatRow {
                label: vat_label(g.vat_code, g.vat_rate, |r| n.echo(Some(r)), language),
                base: n.amount(g.taxable_amount),
                vat: n.amount(g.tax_amount),
                mention: g
                    .exemption_reason
                    .clone()
                    .or_else(|| g.exemption_reason_code.clone()),
            })
            .collect();
        let totals = total_rows(doc, labels, n);
        let payment = doc
            .payment_remittance
            .as_deref()
            .filter(|r| !r.trim().is_empty())
            .map(|r| (labels.communication.to_owned(), r.to_owned()))
            .into_iter()
            .collect();
        Sheet {
            meta: Meta {
                title: format!("{title} {number}"),
                author: doc.supplier.name.clone().unwrap_or_default(),
                language: language.as_str().to_owned(),
                date: issued,
                id: number,
            },
            title,
            notice: None,
            facts,
            supplier: party(labels.supplier, &doc.supplier, labels),
            customer: party(labels.customer, &doc.customer, labels),
            delivery: None,
            currency_note: format!(
                "{} {}",
                labels.amounts_in,
                doc.currency.as_deref().unwrap_or_default()
            ),
            line_headers: labels.line_headers(),
            lines,
            adjustments_heading: labels.allowances_charges.to_owned(),
            adjustments: doc
                .allowance_charges
                .iter()
                .map(|ac| adjustment(ac, labels, n))
                .collect(),
            vat_headers: labels.vat_headers(),
            vat,
            totals,
            payment_heading: labels.payment.to_owned(),
            payment,
            mentions: Vec::new(),
            legal_notice: None,
            footer: Vec::new(),
        }
    }
}

/// The PDF of a received document that came without one: its sheet on a plain page.
pub fn render_received(
    doc: &ReceivedDocument,
    language: Language,
    received_on: NaiveDate,
) -> Result<Vec<u8>, super::PdfError> {
    super::render(&Sheet::of_received(doc, language, received_on), None)
}
