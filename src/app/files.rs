//! The files of documents (docs/files.md): the attachments' bytes, which the store keeps
//! for the caller, and each document's PDF.
//!
//! A document's PDF is the one rendered when its `pdf_available` turned true, with the
//! default branding in force then, and kept: a later `SET` of its paid amount, a send
//! or a new default branding changes no kept PDF. It is owed from that moment
//! ([`Pdf::Owed`]) and rendered when it is first asked for (`GET
//! /documents/{id}/pdf`, its UBL) or just before the document changes, from the state
//! it had then: the bytes are those a render at that moment would have made, and a
//! world of 40 000 documents does not hold 40 000 PDFs nobody asked for.
//! `pdf_available` false forgets the PDF (a PATCH of an unlocked document, a `SET`):
//! the next step of the asynchronous world owes it again.

use super::{Pdf, Store};
use crate::context::{ContextError, Relation};
use crate::document::Document;
use crate::error::{ErrorCode, Loc};
use crate::http::{not_found_id, one, Answer};
use serde_json::json;
use std::sync::Arc;

/// The bytes of a document's files, as a server stores them beside the document.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DocumentFiles {
    /// Its attachments' bytes, in the order attached.
    pub attachments: Vec<Arc<[u8]>>,
    /// Its PDF, when one is rendered (or came with it).
    pub pdf: Option<Arc<[u8]>>,
}

/// The relation of a document, or one that only has its id (a document whose
/// relation the store no longer has is still printed).
fn relation_of(store: &dyn Store, doc: &Document) -> Relation {
    store
        .relation(&doc.relation_id)
        .ok()
        .flatten()
        .unwrap_or_else(|| Relation {
            id: doc.relation_id.clone(),
            kind: doc.relation_type,
            payment_terms: None,
            peppol: false,
            party: crate::party::Party::default(),
        })
}

/// Renders the PDF owed for document `id`, if one is, and keeps it. A render that
/// fails leaves the document without a PDF: GET answers `pdf_not_available`, never a
/// broken file.
pub fn settle_pdf(store: &mut dyn Store, id: &str) -> Result<(), ContextError> {
    let Pdf::Owed(branding) = store.pdf(id)? else {
        return Ok(());
    };
    let Some(doc) = store.issued(id)? else {
        return Ok(());
    };
    let relation = relation_of(store, &doc);
    let location = doc
        .delivery_location_id
        .as_deref()
        .and_then(|l| store.delivery_location(l).ok().flatten());
    let page = match &branding {
        Some(b) => store.branding_page(b)?,
        None => None,
    };
    let rendered = crate::pdf::render_document(
        &doc,
        store.company(),
        &relation,
        location.as_ref(),
        page.as_deref(),
    );
    drop((doc, page));
    let pdf = match rendered {
        Ok(bytes) => Pdf::Kept(Arc::from(bytes)),
        Err(_) => Pdf::Missing,
    };
    store.put_pdf(id, pdf)
}

/// The PDF of document `id`, rendered if it is owed.
pub(crate) fn pdf_of(store: &mut dyn Store, id: &str) -> Result<Option<Arc<[u8]>>, ContextError> {
    settle_pdf(store, id)?;
    Ok(match store.pdf(id)? {
        Pdf::Kept(bytes) => Some(bytes),
        Pdf::Missing | Pdf::Owed(_) => None,
    })
}

/// The files a store keeps for document `id`: its attachments' bytes in order, and
/// its PDF when one is rendered (or came with it).
pub fn files_of(store: &dyn Store, id: &str) -> Result<DocumentFiles, ContextError> {
    Ok(DocumentFiles {
        attachments: store.attachments(id)?,
        pdf: match store.pdf(id)? {
            Pdf::Kept(bytes) => Some(bytes),
            Pdf::Missing | Pdf::Owed(_) => None,
        },
    })
}

/// `GET /documents/{id}/pdf` (docs/files.md §2): the filename, type, size, SHA-256 and
/// bytes (base64) of the document's PDF; `pdf_not_available` when it has none.
pub(crate) fn pdf_answer(store: &mut dyn Store, id: &str) -> Result<Answer, ContextError> {
    let number = if let Some(doc) = store.issued(id)? {
        doc.document_number.clone()
    } else if let Some(inbox) = store.received(id)? {
        inbox.document.document_number.clone().unwrap_or_default()
    } else {
        return Ok(not_found_id("document", id));
    };
    let Some(bytes) = pdf_of(store, id)? else {
        return Ok(one(
            ErrorCode::PdfNotAvailable,
            Loc::root("path").key("id"),
            &format!("the document {id} has no pdf yet (pdf_available is false)"),
        ));
    };
    Ok((
        200,
        json!({
            "filename": crate::attachment::own_pdf_filename(&number, id),
            "content_type": "application/pdf",
            "size": bytes.len(),
            "sha256": crate::attachment::sha256_hex(&bytes),
            "base64": crate::attachment::encode_base64(&bytes),
        }),
    ))
}
