//! Tests of the PDF, one per rule of docs/files.md §2. Text is checked on the [`Sheet`]
//! (pure); the file's properties on its bytes (header, PDF/A identification in the
//! XMP, page count).

use super::*;
use crate::context::{Context, ContextError, Journal, Permissions, RelationKind};
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
        ("invoice-en-1", Language::En, "sale_invoice", 1),
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
        let start = std::time::Instant::now();
        let pdf = w.render(&doc, Some(&branding));
        eprintln!("{name}: {} bytes in {:?}", pdf.len(), start.elapsed());
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

/// The texts drawn on each page.
fn page_texts(sheet: &Sheet) -> Vec<Vec<String>> {
    layout::lay_out(sheet, layout::Look::default())
        .unwrap()
        .into_iter()
        .map(|ops| {
            ops.into_iter()
                .filter_map(|op| match op {
                    layout::Op::Text { text, .. } => Some(text),
                    _ => None,
                })
                .collect()
        })
        .collect()
}

#[test]
fn every_page_is_numbered() {
    let w = World::new(Language::En);
    let sheet = w.sheet(&w.create(body("sale_invoice", 120)));
    let pages = page_texts(&sheet);
    let n = pages.len();
    assert!(n > 2);
    for (i, texts) in pages.iter().enumerate() {
        let number = format!("{} / {n}", i + 1);
        assert!(texts.contains(&number), "page {} lacks {number}", i + 1);
    }
}

#[test]
fn the_lines_header_is_repeated_on_each_page_the_lines_run_over() {
    let w = World::new(Language::Fr);
    let sheet = w.sheet(&w.create(body("sale_invoice", 120)));
    let pages = page_texts(&sheet);
    let last_line = "Item 119".to_owned();
    let end = pages.iter().position(|t| t.contains(&last_line)).unwrap();
    for (i, texts) in pages.iter().enumerate().take(end + 1) {
        for header in &sheet.line_headers {
            assert!(texts.contains(header), "page {} lacks {header}", i + 1);
        }
    }
}

#[test]
fn credit_note_carries_the_repayment_mention_in_each_language() {
    let expected = [
        (Language::En, "VAT to be repaid to the State to the extent that it was originally deducted"),
        (Language::Nl, "BTW terug te storten aan de Staat in de mate waarin ze oorspronkelijk in aftrek werd gebracht"),
        (Language::Fr, "TVA à reverser à l'État dans la mesure où elle a été initialement déduite"),
        (Language::De, "Die Mehrwertsteuer ist an den Staat zurückzuzahlen, soweit sie ursprünglich abgezogen wurde"),
    ];
    for (language, mention) in expected {
        let w = World::new(language);
        for t in ["sale_credit_note", "purchase_credit_note"] {
            let sheet = w.sheet(&w.create(body(t, 2)));
            assert_eq!(sheet.mentions, vec![mention.to_owned()], "{language} {t}");
        }
        let invoice = w.sheet(&w.create(body("sale_invoice", 2)));
        assert!(invoice.mentions.is_empty());
    }
}

#[test]
fn self_billing_is_titled_as_such_and_the_relation_is_the_supplier_and_payee() {
    let titles = [
        (Language::En, "Self-billing"),
        (Language::Nl, "Autofacturatie"),
        (Language::Fr, "Autofacturation"),
        (Language::De, "Gutschrift"),
    ];
    for (language, title) in titles {
        let w = World::new(language);
        for t in ["purchase_invoice", "purchase_credit_note"] {
            let sheet = w.sheet(&w.create(body(t, 2)));
            assert!(
                sheet.title.starts_with(title),
                "{language}: {}",
                sheet.title
            );
            assert_eq!(sheet.supplier.name, "Brouwerij De Kaai NV");
            assert_eq!(sheet.customer.name, "Atelier Lumen");
            let payment = sheet_text(&sheet);
            assert!(payment.contains("BE71096123456769"), "the relation's IBAN");
            assert!(!sheet.payment.iter().any(|(l, _)| l == "BIC"), "IBAN only");
        }
        let sale = w.sheet(&w.create(body("sale_invoice", 2)));
        assert_eq!(sale.supplier.name, "Atelier Lumen");
        assert!(sale.payment.iter().any(|(_, v)| v == "BE68539007547034"));
        assert!(sale.payment.iter().any(|(_, v)| v == "GKCCBEBB"));
    }
}

#[test]
fn proforma_is_marked_not_an_invoice() {
    for (language, notice) in [
        (Language::En, "Pro forma, not an invoice"),
        (Language::Nl, "Pro forma, geen factuur"),
        (Language::Fr, "Pro forma, ceci n'est pas une facture"),
        (Language::De, "Pro forma, keine Rechnung"),
    ] {
        let w = World::new(language);
        let sheet = w.sheet(&w.create(body("proforma_invoice", 1)));
        assert_eq!(sheet.notice.as_deref(), Some(notice));
    }
}

#[test]
fn amounts_have_the_json_digits_with_a_decimal_comma_in_nl_fr_de() {
    for language in Language::ALL {
        let w = World::new(language);
        let doc = w.create(body("sale_invoice", 9));
        let json = doc.to_json();
        let sheet = w.sheet(&doc);
        let write = |v: &Value| {
            let t = v.to_string();
            if language == Language::En {
                t
            } else {
                t.replace('.', ",")
            }
        };
        let total = sheet.totals.iter().find(|t| t.strong).unwrap();
        assert_eq!(total.amount, write(&json["total_amount"]));
        for (row, line) in sheet.lines.iter().zip(json["lines"].as_array().unwrap()) {
            assert_eq!(row.total, write(&line["total"]));
            assert_eq!(row.quantity, write(&line["quantity"]));
            assert_eq!(row.unit_price, write(&line["unit_price"]));
        }
        for (row, group) in sheet
            .vat
            .iter()
            .zip(json["vat_breakdown"].as_array().unwrap())
        {
            assert_eq!(row.base, write(&group["taxable_amount"]));
            assert_eq!(row.vat, write(&group["tax_amount"]));
            assert_eq!(row.mention.as_deref(), group["exemption_reason"].as_str());
        }
        assert!(
            !sheet_text(&sheet).contains('\u{a0}'),
            "no thousands separator"
        );
    }
}

#[test]
fn exempt_groups_carry_their_mention_in_the_language() {
    let w = World::new(Language::Nl);
    let sheet = w.sheet(&w.create(body("sale_invoice", 4)));
    let mentions: Vec<_> = sheet.vat.iter().filter_map(|v| v.mention.clone()).collect();
    assert_eq!(
        mentions,
        vec!["Vrijgestelde intracommunautaire levering, art. 39bis W.BTW".to_owned()]
    );
}

#[test]
fn the_footer_carries_legal_form_register_and_branding_text() {
    let w = World::new(Language::En);
    let doc = w.create(body("sale_invoice", 1));
    let sheet = Sheet::of_document(
        &doc,
        Parties {
            company: &w.company,
            relation: &w.relation,
            location: None,
            footer: Some("Thank you"),
        },
    );
    assert_eq!(
        sheet.footer,
        vec![
            "Atelier Lumen · BV · RPR Gent · BE0123456749".to_owned(),
            "Thank you".to_owned()
        ]
    );
    for texts in page_texts(&sheet) {
        assert!(texts.iter().any(|t| t.contains("RPR Gent")));
    }
}

#[test]
fn any_unicode_and_huge_input_render_without_panic() {
    // docs/files.md §2: any Unicode shown (U+FFFD for what the font lacks), long text
    // wrapped, amounts near 10^15, never a panic
    let mut w = World::new(Language::De);
    let long = "Ünïcødé 名前 ✓ \u{7}\u{200B}\u{202E}\t\u{FFFF}\u{10FFFD} مرحبا 😀 ".repeat(400);
    w.company.party.name = Some(long.clone());
    w.relation.party.name = Some("x".repeat(10_000));
    w.company.legal_form = Some(long.clone());
    let mut b = body("sale_invoice", 3);
    b["lines"][0]["item_name"] = json!(long.clone());
    b["lines"][1]["item_description"] = json!("y".repeat(10_000));
    b["lines"][2]["quantity"] = json!("800000");
    b["lines"][2]["unit_price"] = json!("999999999");
    b["legal_notice"] = json!("line\nbreaks\r\nkept ".repeat(500));
    let doc = w.create(b);
    let branding = Branding {
        color: Some([250, 250, 0]),
        logo: Some(Logo::read(&png(3, 2)).unwrap()),
        footer: Some(long.chars().take(500).collect()),
    };
    let pdf = w.render(&doc, Some(&branding));
    assert!(pdf.starts_with(b"%PDF-"));
    assert!(page_count(&pdf) > 1);
}

/// The CRC-32 of PNG chunks.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0_u32;
    for b in bytes {
        crc ^= u32::from(*b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A grey RGB PNG of `w` × `h` pixels (stored, uncompressed zlib).
#[allow(clippy::many_single_char_names, clippy::cast_possible_truncation)] // PNG's names; small test images
fn png(w: u32, h: u32) -> Vec<u8> {
    let chunk = |out: &mut Vec<u8>, kind: &[u8], data: &[u8]| {
        out.extend((data.len() as u32).to_be_bytes());
        let mut c = kind.to_vec();
        c.extend(data);
        out.extend(&c);
        out.extend(crc32(&c).to_be_bytes());
    };
    let mut raw = Vec::new();
    for _ in 0..h {
        raw.push(0);
        raw.extend(std::iter::repeat_n(0x80, (w * 3) as usize));
    }
    let (mut a, mut b) = (1_u32, 0_u32);
    for x in &raw {
        a = (a + u32::from(*x)) % 65521;
        b = (b + a) % 65521;
    }
    let mut z = vec![0x78, 0x01, 1];
    let len = raw.len() as u16;
    z.extend(len.to_le_bytes());
    z.extend((!len).to_le_bytes());
    z.extend(&raw);
    z.extend(((b << 16) | a).to_be_bytes());
    let mut ihdr = w.to_be_bytes().to_vec();
    ihdr.extend(h.to_be_bytes());
    ihdr.extend([8, 2, 0, 0, 0]);
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"IDAT", &z);
    chunk(&mut out, b"IEND", &[]);
    out
}

#[test]
fn logo_refusals() {
    // docs/files.md §2: PNG or JPEG, at most 1 MiB and 4096 × 4096 pixels, not CMYK
    let ok = Logo::read(&png(3, 2)).unwrap();
    assert_eq!((ok.format, ok.width, ok.height), (ImageFormat::Png, 3, 2));
    assert!(Logo::read(b"GIF89a....")
        .unwrap_err()
        .contains("neither PNG nor JPEG"));
    let mut big = png(3, 2);
    big.resize(LOGO_MAX_BYTES + 1, 0);
    assert!(Logo::read(&big).unwrap_err().contains("1 MiB"));
    let wide = png(4097, 1);
    assert!(Logo::read(&wide).unwrap_err().contains("4096"));
    let mut broken = png(3, 2);
    broken.truncate(40);
    assert!(Logo::read(&broken).is_err());
    // a JPEG frame (SOF0) with four components: CMYK
    let cmyk = [
        0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x14, 8, 0, 1, 0, 1, 4, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0,
        4, 0x11, 0,
    ];
    assert!(Logo::read(&cmyk).unwrap_err().contains("CMYK"));
    assert!(Logo::read(&[0xFF, 0xD8, 0xFF, 0xD9]).is_err());
}

#[test]
fn a_branded_page_with_a_logo_is_still_pdf_a() {
    let w = World::new(Language::Nl);
    let branding = Branding {
        color: Some([0x0B, 0x5C, 0x8E]),
        logo: Some(Logo::read(&png(40, 20)).unwrap()),
        footer: Some("Bedankt".into()),
    };
    let doc = w.create(body("sale_invoice", 2));
    let a = w.render(&doc, Some(&branding));
    assert_eq!(a, w.render(&doc, Some(&branding)));
    assert_ne!(a, w.render(&doc, None));
    assert!(String::from_utf8_lossy(&a).contains("<pdfaid:part>3</pdfaid:part>"));
}
