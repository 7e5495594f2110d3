//! Proptest strategies for the users' own property suites (feature `proptest`):
//! valid create bodies against the world of [`scenario`], and stored documents
//! created from them in every state.
//!
//! ```
//! use invoicing_core::strategies;
//! use invoicing_core::simulator::Simulator;
//! use proptest::prelude::*;
//!
//! let sim = Simulator::from_json(&strategies::scenario()).unwrap();
//! proptest!(ProptestConfig::with_cases(16), |(body in strategies::create_body())| {
//!     let created = invoicing_core::lifecycle::create(
//!         sim.world(), invoicing_core::context::Permissions::ALL, None, Some(&body), "doc-1");
//!     prop_assert!(created.is_ok());
//! });
//! ```

use crate::context::Permissions;
use crate::document::{AccountingStatus, Document, MailStatus, PeppolStatus};
use crate::simulator::Simulator;
use crate::stored::StoredDocument;
use proptest::prelude::*;
use rust_decimal::Decimal;
use serde_json::{json, Map, Value};

/// The world the bodies of [`create_body`] are valid in: `today` 2026-11-21, the
/// relations `rel-company` (terms `30-fm`, on Peppol) and `rel-contact`, one default
/// journal per category (`jrn-sales` yearly, `jrn-credit` monthly, `jrn-proforma`
/// never, and the self-billing ones), self-billing on, the delivery location `loc-1`
/// of `rel-company`, and the client `app` with `c` and `u`. Its `requests` is empty.
pub fn scenario() -> Value {
    json!({
        "today": "2026-11-21",
        "now": "2026-11-21T09:30:00Z",
        "company": {"self_billing": true, "legal_notice": "Our terms apply.",
                    "exemption_mentions": {"intra_community": "Intra-Community supply, art. 39bis"}},
        "clients": [{"client_id": "app", "client_secret": "s3cret", "permissions": ["c", "u"]}],
        "relations": [
            {"id": "rel-company", "kind": "company", "payment_terms": "30-fm", "peppol": true},
            {"id": "rel-contact", "kind": "contact"}
        ],
        "journals": [
            {"id": "jrn-sales", "category": "sales_invoice", "numbering": "yearly", "prefix": "INV", "default": true, "next": 7},
            {"id": "jrn-credit", "category": "sales_credit", "numbering": "monthly", "prefix": "CN", "default": true},
            {"id": "jrn-proforma", "category": "proforma", "numbering": "never", "prefix": "PF", "default": true},
            {"id": "jrn-purchase", "category": "purchases_invoice", "numbering": "yearly", "prefix": "SB", "default": true},
            {"id": "jrn-purchase-credit", "category": "purchases_credit", "numbering": "yearly", "prefix": "SBC", "default": true}
        ],
        "delivery_locations": [{"id": "loc-1", "relation_id": "rel-company", "name": "Warehouse"}],
        "requests": []
    })
}

/// A decimal of `lo..hi` units with up to `scale` decimals, as a JSON number.
fn number(lo: i64, hi: i64, scale: u32) -> impl Strategy<Value = Value> {
    (lo..hi, 0..=scale).prop_map(|(units, s)| {
        let d = Decimal::new(units, s);
        crate::money::decimal_value(d)
    })
}

/// `(vat_code, vat_rate)` of a line: standard rates, and the exempt codes without one.
fn vat() -> impl Strategy<Value = (Option<&'static str>, Option<Value>)> {
    prop_oneof![
        prop::sample::select(vec![0i64, 6, 12, 21]).prop_map(|r| (None, Some(Value::from(r)))),
        Just((Some("standard"), Some(json!(5.5)))),
        prop::sample::select(vec![
            "exempted",
            "zero_rated",
            "reverse_charge",
            "intra_community",
            "export",
            "not_subject"
        ])
        .prop_map(|c| (Some(c), None)),
    ]
}

/// A line: quantity, price, VAT, and maybe a name, a unit code and a line discount.
fn line() -> impl Strategy<Value = Value> {
    (
        number(1, 100_000, 3),
        number(1, 10_000_000, 4),
        vat(),
        proptest::option::of("[A-Za-z][A-Za-z0-9 ]{0,20}"),
        proptest::option::of(1i64..=50),
    )
        .prop_map(|(quantity, unit_price, (code, rate), name, discount)| {
            let mut m = Map::new();
            m.insert("quantity".into(), quantity);
            m.insert("unit_price".into(), unit_price);
            if let Some(c) = code {
                m.insert("vat_code".into(), Value::from(c));
            }
            if let Some(r) = rate {
                m.insert("vat_rate".into(), r);
            }
            if let Some(n) = name {
                m.insert("item_name".into(), Value::from(n));
                m.insert("unit_code".into(), Value::from("C62"));
            }
            if let Some(pct) = discount {
                m.insert(
                    "allowance_charges".into(),
                    json!([{"type": "allowance", "rate": pct, "reason": "Discount"}]),
                );
            }
            Value::Object(m)
        })
}

/// A valid create body in the world of [`scenario`]: any type, either relation, 1 to
/// 8 lines, and optional references, dates, terms, a document charge or discount and
/// a currency. Every body it gives is created (201) in that world.
pub fn create_body() -> impl Strategy<Value = Value> {
    (
        prop::sample::select(vec![
            "sale_invoice",
            "sale_credit_note",
            "proforma_invoice",
            "purchase_invoice",
            "purchase_credit_note",
        ]),
        prop::sample::select(vec!["rel-company", "rel-contact"]),
        proptest::collection::vec(line(), 1..8),
        proptest::option::of("[A-Z]{2}-[0-9]{1,6}"),
        proptest::option::of(prop::sample::select(vec![
            "2026-11-21",
            "2026-11-01",
            "2026-01-31",
        ])),
        proptest::option::of(prop::sample::select(vec![
            "0-df", "14-df", "30-fm", "60-mf",
        ])),
        proptest::option::of(prop_oneof![
            (1i64..=10).prop_map(|r| json!({"type": "allowance", "rate": r, "reason": "Loyalty"})),
            number(1, 5_000, 2)
                .prop_map(|a| json!({"type": "charge", "amount": a, "reason": "Shipping"})),
        ]),
        proptest::option::of(prop::sample::select(vec!["EUR", "USD", "JPY"])),
    )
        .prop_map(
            |(t, relation, lines, order, issue, terms, doc_ac, currency)| {
                let mut m = Map::new();
                m.insert("type".into(), Value::from(t));
                m.insert("relation_id".into(), Value::from(relation));
                m.insert("lines".into(), Value::Array(lines));
                if let Some(o) = order {
                    m.insert("order_number".into(), Value::from(o));
                }
                if let Some(d) = issue {
                    m.insert("issue_date".into(), Value::from(d));
                }
                if let Some(p) = terms {
                    m.insert("payment_terms".into(), Value::from(p));
                }
                if let Some(ac) = doc_ac {
                    m.insert("allowance_charges".into(), Value::Array(vec![ac]));
                }
                if let Some(c) = currency {
                    m.insert("currency".into(), Value::from(c));
                }
                if relation == "rel-company" && t == "sale_invoice" {
                    m.insert("delivery_location_id".into(), Value::from("loc-1"));
                }
                Value::Object(m)
            },
        )
        // A JPY body whose amounts have decimals is refused: keep the others only.
        .prop_filter("valid in the scenario's world", |body| {
            create(body).is_some()
        })
}

/// The document a body of [`create_body`] creates in the world of [`scenario`].
fn create(body: &Value) -> Option<Document> {
    static SIM: std::sync::OnceLock<Option<Simulator>> = std::sync::OnceLock::new();
    let sim = SIM
        .get_or_init(|| Simulator::from_json(&scenario()).ok())
        .as_ref()?;
    crate::lifecycle::create(sim.world(), Permissions::ALL, None, Some(body), "doc-1")
        .ok()
        .map(|c| c.document)
}

/// An issued document created from a [`create_body`], then put in any state (the
/// statuses and files a back office could set, a partial payment).
pub fn issued_document() -> impl Strategy<Value = Document> {
    (
        create_body(),
        prop::sample::select(AccountingStatus::ALL.to_vec()),
        prop::sample::select(PeppolStatus::ALL.to_vec()),
        prop::sample::select(MailStatus::ALL.to_vec()),
        any::<(bool, bool)>(),
        0u32..=100,
    )
        .prop_filter_map(
            "created",
            |(body, accounting, peppol, mail, (pdf, xml), paid_pct)| {
                let mut doc = create(&body)?;
                doc.accounting_status = accounting;
                doc.peppol_status = peppol;
                doc.mail_status = mail;
                doc.pdf_available = pdf;
                doc.xml_available = xml;
                let total = doc.computation.total_amount;
                let paid = doc
                    .currency
                    .round(total.checked_mul(Decimal::from(paid_pct))? / Decimal::ONE_HUNDRED);
                if paid <= total {
                    doc.paid_amount = paid;
                    doc.payment_status = crate::compute::PaymentStatus::derive(paid, total);
                }
                Some(doc)
            },
        )
}

/// A stored document: an [`issued_document`], or a received one read from one of a
/// few UBL and non-UBL byte strings.
pub fn stored_document() -> impl Strategy<Value = StoredDocument> {
    prop_oneof![
        4 => issued_document().prop_map(StoredDocument::Issued),
        1 => prop::sample::select(vec![0usize, 1, 2]).prop_map(received),
    ]
}

/// A received document from a small set of bytes (a UBL invoice, a PDF, broken XML).
fn received(which: usize) -> StoredDocument {
    let bytes: &[u8] = match which {
        0 => RECEIVED_UBL.as_bytes(),
        1 => b"%PDF-1.7 scanned invoice",
        _ => b"<Invoice><cbc:ID>1",
    };
    StoredDocument::Received(Box::new(crate::stored::StoredReceived {
        id: format!("rcv-{which}"),
        origin: "peppol".into(),
        type_override: None,
        create_date: chrono::DateTime::from_timestamp(1_795_253_400, 123_000_000)
            .unwrap_or_default(),
        relation: None,
        journal_id: Some("jrn-purchase".into()),
        document: crate::received::read(bytes),
    }))
}

const RECEIVED_UBL: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
 xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
 xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
 <cbc:ID>F-311</cbc:ID><cbc:IssueDate>2026-11-02</cbc:IssueDate><cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>
 <cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
 <cac:TaxTotal><cbc:TaxAmount currencyID="EUR">21.00</cbc:TaxAmount>
  <cac:TaxSubtotal><cbc:TaxableAmount currencyID="EUR">100.00</cbc:TaxableAmount><cbc:TaxAmount currencyID="EUR">21.00</cbc:TaxAmount>
   <cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>21</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory></cac:TaxSubtotal></cac:TaxTotal>
 <cac:LegalMonetaryTotal><cbc:LineExtensionAmount currencyID="EUR">100.00</cbc:LineExtensionAmount>
  <cbc:TaxExclusiveAmount currencyID="EUR">100.00</cbc:TaxExclusiveAmount><cbc:TaxInclusiveAmount currencyID="EUR">121.00</cbc:TaxInclusiveAmount>
  <cbc:PayableAmount currencyID="EUR">121.00</cbc:PayableAmount></cac:LegalMonetaryTotal>
 <cac:InvoiceLine><cbc:ID>1</cbc:ID><cbc:InvoicedQuantity unitCode="C62">4</cbc:InvoicedQuantity>
  <cbc:LineExtensionAmount currencyID="EUR">100.00</cbc:LineExtensionAmount>
  <cac:Item><cbc:Name>Beer</cbc:Name><cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>21</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory></cac:Item>
  <cac:Price><cbc:PriceAmount currencyID="EUR">25.00</cbc:PriceAmount></cac:Price></cac:InvoiceLine>
</Invoice>"#;
