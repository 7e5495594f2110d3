//! Tests of the PDF, one per rule of files.md §2. Text is checked on the [`Sheet`]
//! (pure); the file's properties on its bytes (header, PDF/A identification in the
//! XMP, page count).

use super::*;
use crate::context::{Context, ContextError, Journal, Permissions, RelationKind};
use crate::document::DocumentType;
use crate::language::Language;
use crate::numbering::{JournalCategory, Numbering, Window};
use crate::party::{Address, Party};
use chrono::{DateTime, NaiveDate, Utc};
use serde_json::{json, Value};

/// The world the tests create in: a company (self-billing enabled), a relation, a
/// journal per category and a delivery location.
pub(super) struct World {
    pub company: Company,
    pub relation: Relation,
    pub location: DeliveryLocation,
}

fn party(name: &str, kbo: &str, iban: &str) -> Party {
    Party {
        name: Some(name.to_owned()),
        vat_number: Some(format!("BE{kbo}")),
        enterprise_number: Some(kbo.to_owned()),
        peppol_id: Some(format!("0208:{kbo}")),
        address: Some(Address {
            street: Some("Meir".to_owned()),
            street_number: Some("24".to_owned()),
            postal_code: Some("2000".to_owned()),
            city: Some("Antwerpen".to_owned()),
            country_code: Some("BE".to_owned()),
            ..Address::default()
        }),
        iban: Some(iban.to_owned()),
        bic: Some("GKCCBEBB".to_owned()),
        email: Some("billing@example.be".to_owned()),
    }
}

impl World {
    pub fn new(language: Language) -> World {
        World {
            company: Company {
                self_billing: true,
                legal_notice: Some("Our general terms of sale apply.".to_owned()),
                party: party("Atelier Lumen", "0123456749", "BE68539007547034"),
                language,
                legal_form: Some("BV".to_owned()),
                register: Some("RPR Gent".to_owned()),
                ..Company::default()
            },
            relation: Relation {
                id: "rel-acme".to_owned(),
                kind: RelationKind::Company,
                payment_terms: "30-fm".parse().ok(),
                peppol: true,
                party: party("Brouwerij De Kaai NV", "0403033416", "BE71096123456769"),
            },
            location: DeliveryLocation {
                id: "loc-1".to_owned(),
                relation_id: "rel-acme".to_owned(),
                name: Some("Warehouse Zuid".to_owned()),
                address: Some(Address {
                    street: Some("Kaai".to_owned()),
                    city: Some("Gent".to_owned()),
                    ..Address::default()
                }),
                ..DeliveryLocation::default()
            },
        }
    }

    /// Creates a document from a body (its `relation_id` filled in).
    pub fn create(&self, mut body: Value) -> Document {
        body["relation_id"] = json!("rel-acme");
        match crate::lifecycle::create(self, Permissions::ALL, None, Some(&body), "doc-1") {
            Ok(created) => created.document,
            Err(e) => panic!("create refused: {e:?}"),
        }
    }

    pub fn render(&self, doc: &Document, branding: Option<&Branding>) -> Vec<u8> {
        render_document(
            doc,
            &self.company,
            &self.relation,
            Some(&self.location),
            branding,
        )
        .expect("renders")
    }

    pub fn sheet(&self, doc: &Document) -> Sheet {
        Sheet::of_document(
            doc,
            Parties {
                company: &self.company,
                relation: &self.relation,
                location: Some(&self.location),
                footer: None,
            },
        )
    }
}

impl Context for World {
    fn today(&self) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, 21).unwrap_or_default()
    }
    fn now(&self) -> DateTime<Utc> {
        DateTime::<Utc>::from_timestamp(1_795_219_200, 0).unwrap_or_default()
    }
    fn company(&self) -> &Company {
        &self.company
    }
    fn relation(&self, id: &str) -> Result<Option<Relation>, ContextError> {
        Ok((id == self.relation.id).then(|| self.relation.clone()))
    }
    fn journal(&self, id: &str) -> Result<Option<Journal>, ContextError> {
        let category = match id {
            "j-sales" => JournalCategory::SalesInvoice,
            "j-credit" => JournalCategory::SalesCredit,
            "j-purchase" => JournalCategory::PurchasesInvoice,
            "j-purchase-credit" => JournalCategory::PurchasesCredit,
            "j-proforma" => JournalCategory::Proforma,
            _ => return Ok(None),
        };
        Ok(Some(Journal {
            id: id.to_owned(),
            category,
            numbering: Numbering::Yearly,
            prefix: "INV".to_owned(),
        }))
    }
    fn default_journal(&self, category: JournalCategory) -> Result<Option<Journal>, ContextError> {
        let id = match category {
            JournalCategory::SalesInvoice => "j-sales",
            JournalCategory::SalesCredit => "j-credit",
            JournalCategory::PurchasesInvoice => "j-purchase",
            JournalCategory::PurchasesCredit => "j-purchase-credit",
            JournalCategory::Proforma => "j-proforma",
        };
        self.journal(id)
    }
    fn delivery_location(&self, id: &str) -> Result<Option<DeliveryLocation>, ContextError> {
        Ok((id == self.location.id).then(|| self.location.clone()))
    }
    fn next_sequence(&self, _journal: &Journal, _window: Window) -> Result<u64, ContextError> {
        Ok(7)
    }
}

/// A body of `n` lines over several VAT codes, with line and document allowances.
pub(super) fn body(doc_type: &str, n: usize) -> Value {
    let lines: Vec<Value> = (0..n)
        .map(|i| {
            let mut line = json!({
                "item_name": format!("Item {i}"),
                "item_description": "Hand-made oak frame, 40 × 60 cm, delivered assembled",
                "quantity": format!("{}.{}", 1 + i % 7, i % 10),
                "unit_price": format!("{}.{:02}", 3 + i % 90, i % 100),
                "unit_code": "C62",
            });
            match i % 4 {
                3 => line["vat_code"] = json!("intra_community"),
                2 => line["vat_rate"] = json!("6"),
                _ => line["vat_rate"] = json!("21"),
            }
            if i % 5 == 0 {
                line["allowance_charges"] = json!([{"type": "allowance", "rate": "5"}]);
            }
            line
        })
        .collect();
    json!({
        "type": doc_type,
        "lines": lines,
        "order_number": "PO-2026-118",
        "buyer_reference": "BR-7",
        "delivery_date": "2026-11-18",
        "period_start": "2026-11-01",
        "period_end": "2026-11-30",
        "delivery_location_id": "loc-1",
        "paid_amount": "1.00",
        "allowance_charges": [
            {"type": "allowance", "amount": "1.00", "reason": "Loyalty"},
            {"type": "charge", "amount": "4.95", "reason": "Shipping"},
        ],
    })
}

/// The text of a sheet, for searching.
fn sheet_text(sheet: &Sheet) -> String {
    format!("{sheet:?}")
}

/// The number of pages of a PDF: its page objects.
pub(super) fn page_count(pdf: &[u8]) -> usize {
    let text = String::from_utf8_lossy(pdf);
    text.matches("/Type/Page").count() - text.matches("/Type/Pages").count()
}

#[test]
fn same_input_gives_the_same_bytes() {
    let w = World::new(Language::Nl);
    let doc = w.create(body("sale_invoice", 12));
    let a = w.render(&doc, None);
    let b = w.render(&doc, None);
    assert!(a.starts_with(b"%PDF-"));
    assert_eq!(a, b);
}

#[test]
fn the_file_declares_pdf_a_3b() {
    let w = World::new(Language::En);
    let pdf = w.render(&w.create(body("sale_invoice", 3)), None);
    let text = String::from_utf8_lossy(&pdf);
    assert!(text.contains("<pdfaid:part>3</pdfaid:part>"), "part 3");
    assert!(text.contains("<pdfaid:conformance>B</pdfaid:conformance>"));
    assert!(
        text.contains("2026-11-21"),
        "the XMP dates are the issue date"
    );
}

#[test]
fn pages_grow_with_the_lines() {
    let w = World::new(Language::En);
    let counts: Vec<usize> = [1, 50, 500]
        .iter()
        .map(|n| page_count(&w.render(&w.create(body("sale_invoice", *n)), None)))
        .collect();
    assert_eq!(counts[0], 1);
    assert!(counts[0] < counts[1] && counts[1] < counts[2], "{counts:?}");
}

/// Writes sample PDFs and their JSON (for `tests/pdf/check.py`) into the directory
/// named by `PDF_SAMPLES`: `cargo test --lib pdf::tests::write_samples -- --ignored`.
#[test]
#[ignore = "writes files for the checker script"]
fn write_samples() {
    let dir = std::env::var("PDF_SAMPLES").unwrap_or_else(|_| "target/pdf-samples".into());
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        ("invoice-en", Language::En, "sale_invoice", 8),
        ("invoice-nl-60", Language::Nl, "sale_invoice", 60),
        ("credit-fr", Language::Fr, "sale_credit_note", 4),
        ("selfbilling-de", Language::De, "purchase_invoice", 5),
        ("proforma-en", Language::En, "proforma_invoice", 2),
        ("invoice-en-500", Language::En, "sale_invoice", 500),
    ];
    for (name, language, doc_type, n) in cases {
        let w = World::new(language);
        let doc = w.create(body(doc_type, n));
        let branding = Branding {
            color: Some([0x0B, 0x5C, 0x8E]),
            logo: None,
            footer: Some("Atelier Lumen · Veldstraat 1, 9000 Gent · www.lumen.example".into()),
        };
        let pdf = w.render(&doc, Some(&branding));
        std::fs::write(format!("{dir}/{name}.pdf"), &pdf).unwrap();
        let record = |p: &Party| {
            json!({"name": p.name, "vat_number": p.vat_number,
                   "enterprise_number": p.enterprise_number, "iban": p.iban, "bic": p.bic})
        };
        let sample = json!({
            "document": doc.to_json(),
            "company": record(&w.company.party),
            "relation": record(&w.relation.party),
            "language": language.as_str(),
        });
        std::fs::write(format!("{dir}/{name}.json"), sample.to_string()).unwrap();
    }
}
