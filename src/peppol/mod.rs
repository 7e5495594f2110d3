//! Peppol outward (docs/peppol.md §1–§3, §6): the UBL 2.1 / Peppol BIS Billing 3.0
//! document of an issued invoice or credit note, and the findings that say why the
//! Peppol network would refuse it.
//!
//! [`ubl`] is a pure function: the stored document, the company, the relation and the
//! delivery location in; the XML text and the findings out. Same input, same bytes.
//! The XML is written with quick-xml (every text and attribute escaped by that crate;
//! the only start tag formatted here is an amount's, `cbc:X currencyID="EUR"`, once
//! per document, its one attribute the crate's own ISO 4217 code, three capitals with
//! nothing to escape), with the conventional `cbc:`/`cac:` prefixes, no
//! whitespace between elements, in the element order of the UBL 2.1 schema.
//!
//! The findings are the fatal rules of the official EN 16931 and Peppol BIS 3.0
//! validation artefacts (release 2026.5) that the written XML breaks, computed in
//! Rust from the same values the XML carries: the goal, checked in CI against the
//! official validator on every bundled scenario and on a generated corpus, is that
//! the set of rules named equals the set the validator reports.
//!
//! ```
//! use invoicing_core::simulator::Simulator;
//! use serde_json::json;
//! let scenario = json!({
//!     "today": "2026-11-21",
//!     "company": {"name": "Acme BV", "vat_number": "BE0123456749", "enterprise_number": "0123456749",
//!                 "peppol_id": "0208:0123456749", "iban": "BE68539007547034",
//!                 "address": {"street": "Kaai", "street_number": "1", "city": "Antwerpen",
//!                             "postal_code": "2000", "country_code": "BE"}},
//!     "clients": [{"client_id": "app", "client_secret": "s", "permissions": ["c", "u"]}],
//!     "relations": [{"id": "rel-1", "kind": "company", "name": "Buyer NV",
//!                    "vat_number": "BE0202239951", "peppol_id": "0208:0202239951",
//!                    "address": {"city": "Gent", "country_code": "BE"}}],
//!     "journals": [{"id": "j", "category": "sales_invoice", "numbering": "yearly", "prefix": "INV", "default": true}],
//!     "requests": []
//! });
//! let mut sim = Simulator::load(scenario.to_string().as_bytes()).unwrap();
//! let body = json!({"type": "sale_invoice", "relation_id": "rel-1", "buyer_reference": "PO-1",
//!                   "lines": [{"quantity": 1, "unit_price": 100, "vat_rate": 21, "item_name": "Work"}]});
//! let (status, doc) = sim.handle(&json!({"client": "app", "method": "POST", "path": "/documents", "body": body}));
//! assert_eq!(status, 201);
//! let doc = sim.document(doc["id"].as_str().unwrap()).unwrap();
//! let world = sim.world();
//! use invoicing_core::context::Context;
//! let relation = world.relation("rel-1").unwrap().unwrap();
//! let files = invoicing_core::peppol::UblFiles::default();
//! let ubl = invoicing_core::peppol::ubl(doc, world.company(), &relation, None, &files).unwrap().unwrap();
//! assert!(ubl.xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Invoice "));
//! assert!(ubl.xml.contains("<cbc:PayableAmount currencyID=\"EUR\">121.00</cbc:PayableAmount>"));
//! assert!(ubl.findings.is_empty(), "{:?}", ubl.findings);
//! ```

mod findings;
mod national;
mod writer;
mod xml;

pub use crate::en16931::Finding;

use crate::context::{Company, Context, DeliveryLocation, Relation};
use crate::document::{Document, DocumentType};
use crate::error::{ApiError, ErrorCode, Loc, ValidationError};
use crate::party::Party;

/// The UBL document of an issued document and its findings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ubl {
    /// The XML text, starting with `<?xml version="1.0" encoding="UTF-8"?>`.
    pub xml: String,
    /// The fatal rules of EN 16931 and Peppol BIS 3.0 it breaks, sorted by rule then
    /// location (docs/peppol.md §3).
    pub findings: Vec<Finding>,
}

/// Which UBL document a type is written as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UblKind {
    /// `sale_invoice`: Invoice 380, billing.
    Invoice,
    /// `sale_credit_note`: CreditNote 381, billing.
    CreditNote,
    /// `purchase_invoice`: Invoice 389, self-billing.
    SelfBillingInvoice,
    /// `purchase_credit_note`: CreditNote 261, self-billing.
    SelfBillingCreditNote,
}

impl UblKind {
    fn of(t: DocumentType) -> Option<UblKind> {
        match t {
            DocumentType::SaleInvoice => Some(Self::Invoice),
            DocumentType::SaleCreditNote => Some(Self::CreditNote),
            DocumentType::PurchaseInvoice => Some(Self::SelfBillingInvoice),
            DocumentType::PurchaseCreditNote => Some(Self::SelfBillingCreditNote),
            DocumentType::ProformaInvoice => None,
        }
    }

    pub(crate) fn is_invoice(self) -> bool {
        matches!(self, Self::Invoice | Self::SelfBillingInvoice)
    }

    pub(crate) fn is_self_billing(self) -> bool {
        matches!(self, Self::SelfBillingInvoice | Self::SelfBillingCreditNote)
    }

    fn type_code(self) -> &'static str {
        match self {
            Self::Invoice => "380",
            Self::CreditNote => "381",
            Self::SelfBillingInvoice => "389",
            Self::SelfBillingCreditNote => "261",
        }
    }

    fn customization(self) -> (&'static str, &'static str) {
        if self.is_self_billing() {
            (
                "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:selfbilling:3.0",
                "urn:fdc:peppol.eu:2017:poacc:selfbilling:01:1.0",
            )
        } else {
            (
                "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0",
                "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0",
            )
        }
    }
}

/// The parties in their roles: the seller is the company, or the relation in
/// self-billing; the buyer is the other. The payee is the seller.
pub(crate) struct Roles<'a> {
    pub(crate) seller: &'a Party,
    pub(crate) buyer: &'a Party,
    /// The key a seller rule points into (`company` or `relation`).
    pub(crate) seller_key: &'static str,
    /// The key a buyer rule points into.
    pub(crate) buyer_key: &'static str,
    /// Whether the seller is the company (only the company's BIC is written).
    pub(crate) seller_is_company: bool,
}

impl<'a> Roles<'a> {
    fn of(kind: UblKind, company: &'a Company, relation: &'a Relation) -> Roles<'a> {
        if kind.is_self_billing() {
            Roles {
                seller: &relation.party,
                buyer: &company.party,
                seller_key: "relation",
                buyer_key: "company",
                seller_is_company: false,
            }
        } else {
            Roles {
                seller: &company.party,
                buyer: &relation.party,
                seller_key: "company",
                buyer_key: "relation",
                seller_is_company: true,
            }
        }
    }
}

/// The bytes of a document's files, handed back to write its UBL (docs/files.md §3): the
/// crate keeps only each attachment's size and SHA-256, the caller keeps the bytes.
#[derive(Debug, Clone, Copy, Default)]
pub struct UblFiles<'a> {
    /// The document's own PDF, as kept when it was rendered: embedded first when the
    /// company embeds it (`embed_pdf_in_ubl`). `None`: no PDF is embedded (the
    /// document has none available).
    pub pdf: Option<&'a [u8]>,
    /// Each attachment's bytes, in the order of `Document::attachments`.
    pub attachments: &'a [&'a [u8]],
}

/// Why a UBL document could not be written.
#[derive(Debug, thiserror::Error)]
pub enum UblError {
    /// The bytes handed back for an attachment are not the ones attached: another
    /// size or SHA-256 (a server answers 500 `internal_error`).
    #[error("attachment {index}: {source}")]
    AttachmentBytes {
        /// The attachment's place in the document's list.
        index: usize,
        /// How they differ.
        source: crate::files::BytesMismatch,
    },
    /// No bytes were handed back for an attachment.
    #[error("attachment {index} ({filename:?}): no bytes handed back")]
    AttachmentMissing {
        /// The attachment's place in the document's list.
        index: usize,
        /// Its filename.
        filename: String,
    },
    /// The writer the document went to failed.
    #[error("the ubl could not be written: {0}")]
    Io(#[from] std::io::Error),
}

/// The description of a document's own PDF in the UBL (docs/files.md §3).
fn pdf_description(kind: UblKind) -> &'static str {
    match kind {
        UblKind::Invoice => "Commercial invoice",
        UblKind::CreditNote => "Credit note",
        UblKind::SelfBillingInvoice => "Self-billing invoice",
        UblKind::SelfBillingCreditNote => "Self-billing credit note",
    }
}

/// The filename of the PDF the UBL embeds, when it embeds one.
fn embedded_pdf_name(doc: &Document, company: &Company, has_pdf: bool) -> Option<String> {
    (company.embed_pdf_in_ubl && has_pdf)
        .then(|| crate::attachment::own_pdf_filename(&doc.document_number, &doc.id))
}

/// Writes the UBL document of an issued document as it stands into `out`, with its
/// files embedded (docs/files.md §3): the document's own PDF first when the company embeds
/// it and `files.pdf` holds it, then every attachment in order, each encoded as it is
/// read. Returns `Ok(false)`, writing nothing, for a proforma, which has no UBL.
/// `location` is the delivery location the document names, when it has one.
///
/// Every attachment's bytes are checked against the size and SHA-256 kept before
/// anything is written: bytes that differ are an error, never a wrong UBL.
pub fn write_ubl<W: std::io::Write + ?Sized>(
    out: &mut W,
    doc: &Document,
    company: &Company,
    relation: &Relation,
    location: Option<&DeliveryLocation>,
    files: &UblFiles<'_>,
) -> Result<bool, UblError> {
    let Some(kind) = UblKind::of(doc.doc_type) else {
        return Ok(false);
    };
    for (index, a) in doc.attachments.iter().enumerate() {
        let Some(bytes) = files.attachments.get(index) else {
            return Err(UblError::AttachmentMissing {
                index,
                filename: a.filename.clone(),
            });
        };
        crate::files::check_bytes(a, bytes)
            .map_err(|source| UblError::AttachmentBytes { index, source })?;
    }
    let own = embedded_pdf_name(doc, company, files.pdf.is_some());
    let pdf = own.as_deref().zip(files.pdf);
    let references = references(doc, kind, pdf, files.attachments);
    let roles = Roles::of(kind, company, relation);
    writer::write(out, doc, kind, &roles, location, &references)?;
    Ok(true)
}

/// The files the UBL embeds, as [`write_ubl`] writes them: the document's own PDF
/// first (its filename and bytes, when it is embedded), then each attachment with
/// its bytes, in order.
fn references<'a>(
    doc: &'a Document,
    kind: UblKind,
    pdf: Option<(&'a str, &'a [u8])>,
    attachments: &[&'a [u8]],
) -> Vec<writer::Reference<'a>> {
    let mut references = Vec::with_capacity(doc.attachments.len() + 1);
    if let Some((filename, bytes)) = pdf {
        references.push(writer::Reference {
            id: &doc.document_number,
            description: Some(pdf_description(kind)),
            mime: crate::attachment::MediaType::Pdf.as_str(),
            filename,
            bytes,
        });
    }
    for (a, bytes) in doc.attachments.iter().zip(attachments) {
        references.push(writer::Reference {
            id: &a.filename,
            description: None,
            mime: a.mimetype.as_str(),
            filename: &a.filename,
            bytes,
        });
    }
    references
}

/// The findings of the UBL document [`write_ubl`] writes (`None` for a proforma):
/// they need only the files' names and types, not their bytes. `pdf_embedded` says
/// whether the document's own PDF is handed in (`UblFiles::pdf` is `Some`).
pub fn findings(
    doc: &Document,
    company: &Company,
    relation: &Relation,
    location: Option<&DeliveryLocation>,
    pdf_embedded: bool,
) -> Option<Vec<Finding>> {
    let kind = UblKind::of(doc.doc_type)?;
    let roles = Roles::of(kind, company, relation);
    let own = embedded_pdf_name(doc, company, pdf_embedded);
    Some(findings::findings(
        doc,
        kind,
        &roles,
        location,
        own.as_deref(),
    ))
}

/// The UBL document of an issued document as it stands (as [`write_ubl`] writes it)
/// and its findings; `None` for a proforma, which has no UBL.
pub fn ubl(
    doc: &Document,
    company: &Company,
    relation: &Relation,
    location: Option<&DeliveryLocation>,
    files: &UblFiles<'_>,
) -> Result<Option<Ubl>, UblError> {
    let mut out = Vec::with_capacity(4096 + doc.lines.len() * 640);
    if !write_ubl(&mut out, doc, company, relation, location, files)? {
        return Ok(None);
    }
    // Everything written is UTF-8 text or base64.
    let xml = String::from_utf8(out)
        .map_err(|e| UblError::Io(std::io::Error::new(std::io::ErrorKind::InvalidData, e)))?;
    let findings =
        findings(doc, company, relation, location, files.pdf.is_some()).unwrap_or_default();
    Ok(Some(Ubl { xml, findings }))
}

/// `company.enforce_peppol_rules` (docs/peppol.md §3): a Peppol send of a document with
/// findings is refused with `send_failed` at `loc`, ctx
/// `{"document_id": ID, "findings": [...]}`. Checked after every other send check,
/// the recipient's reachability included. `Ok` when the company does not enforce the
/// rules, or the document has none.
pub fn enforce_rules(
    ctx: &dyn Context,
    doc: &Document,
    relation: &Relation,
    loc: Loc,
) -> Result<(), ApiError> {
    let company = ctx.company();
    if !company.enforce_peppol_rules {
        return Ok(());
    }
    let location = match doc.delivery_location_id.as_deref() {
        Some(id) => ctx.delivery_location(id)?,
        None => None,
    };
    // The PDF is embedded when the document has one available: the UBL that leaves
    // is the one with the files the document has then.
    let Some(found) = findings(doc, company, relation, location.as_ref(), doc.pdf_available) else {
        return Ok(());
    };
    if found.is_empty() {
        return Ok(());
    }
    let rules: Vec<&str> = found.iter().map(|f| f.rule.as_str()).collect();
    Err(ApiError::from(ValidationError::new(
        ErrorCode::SendFailed,
        loc,
        format!(
            "the document {} breaks rules the peppol network enforces ({}): mend them, then send again",
            doc.id,
            rules.join(", ")
        ),
    )
    .with_ctx(serde_json::json!({
        "document_id": doc.id,
        "findings": serde_json::to_value(&found).unwrap_or_default(),
    }))))
}
