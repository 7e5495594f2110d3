//! The files of documents in the simulator (docs/files.md): the attachments' bytes, which
//! the world keeps for the caller, and each document's PDF.
//!
//! A document's PDF is the one rendered when its `pdf_available` turned true, with
//! the default branding in force then, and kept: a later `SET` of its paid amount, a
//! send or a new default branding changes no kept PDF. The simulator renders it when
//! it is first asked for (`GET /documents/{id}/pdf`, its UBL) or just before the
//! document changes, from the state it had then: the bytes are those a render at the
//! `TICK` would have made, and a world of 40 000 documents does not hold 40 000 PDFs
//! nobody asked for. `pdf_available` false forgets the PDF (a PATCH of an unlocked
//! document, a `SET`): the next `TICK` renders it again.

use super::endpoints::{error, json_out, not_found_id, one, Answer, Caller, Out, Reply};
use super::request::{Request, Upload};
use super::Simulator;
use crate::context::Context as _;
use crate::context::Relation;
use crate::document::Document;
use crate::error::{ErrorCode, Loc};
use serde_json::json;
use std::collections::HashMap;
use std::sync::Arc;

/// The bytes of a document's files, as a server stores them beside the document.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DocumentFiles {
    /// Its attachments' bytes, in the order attached.
    pub attachments: Vec<Arc<[u8]>>,
    /// Its PDF, when one is rendered (or came with it).
    pub pdf: Option<Arc<[u8]>>,
}

/// The files the world keeps.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Files {
    /// Each document's attachments' bytes, in the order attached.
    attachments: HashMap<String, Vec<Arc<[u8]>>>,
    /// The PDFs rendered (or received).
    pdfs: HashMap<String, Arc<[u8]>>,
    /// The documents whose PDF exists but is not rendered yet, with the default
    /// branding in force when it came to exist.
    owed: HashMap<String, Option<usize>>,
}

impl Files {
    /// The bytes of the attachments of document `id`.
    pub(crate) fn attachments_of(&self, id: &str) -> &[Arc<[u8]>] {
        self.attachments.get(id).map_or(&[], Vec::as_slice)
    }

    /// Keeps the bytes of a new attachment of document `id`.
    pub(crate) fn attach(&mut self, id: &str, bytes: Arc<[u8]>) {
        self.attachments
            .entry(id.to_owned())
            .or_default()
            .push(bytes);
    }

    /// Keeps a PDF that came with a received document.
    pub(crate) fn keep_pdf(&mut self, id: &str, bytes: Arc<[u8]>) {
        self.pdfs.insert(id.to_owned(), bytes);
    }

    /// Forgets everything (before a restore).
    pub(crate) fn clear(&mut self) {
        self.attachments.clear();
        self.pdfs.clear();
        self.owed.clear();
    }
}

/// The relation of a document, or one that only has its id (a document whose
/// relation the world no longer has is still printed).
fn relation_of(sim: &Simulator, doc: &Document) -> Relation {
    sim.world
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

impl Simulator {
    /// Stores a document: a PDF still owed is rendered first from the state it
    /// was owed in, then the PDF follows `pdf_available`.
    pub(super) fn store(&mut self, id: String, doc: Document) {
        if self.files.owed.contains_key(&id)
            && self.documents.get(&id).is_some_and(|old| *old != doc)
        {
            self.settle_pdf(&id);
        }
        let key = id.clone();
        self.documents.insert(id, doc);
        self.follow_pdf_flag(&key);
    }

    /// After a document's `pdf_available` may have changed: true with no PDF makes
    /// one owed (with today's default branding), false forgets it.
    pub(super) fn follow_pdf_flag(&mut self, id: &str) {
        let available = self.documents.get(id).is_some_and(|d| d.pdf_available);
        let files = &mut self.files;
        if !available {
            files.pdfs.remove(id);
            files.owed.remove(id);
        } else if !files.pdfs.contains_key(id) && !files.owed.contains_key(id) {
            files
                .owed
                .insert(id.to_owned(), self.records.brandings.default_index());
        }
    }

    /// Renders the PDF owed for document `id`, if one is.
    fn settle_pdf(&mut self, id: &str) {
        let Some(branding) = self.files.owed.remove(id) else {
            return;
        };
        let Some(doc) = self.documents.get(id) else {
            return;
        };
        let relation = relation_of(self, doc);
        let location = doc
            .delivery_location_id
            .as_deref()
            .and_then(|l| self.world.delivery_location(l).ok().flatten());
        let page = branding.and_then(|i| self.records.brandings.page(i));
        // A render that fails leaves the document without a PDF: GET answers
        // pdf_not_available, never a broken file.
        if let Ok(bytes) = crate::pdf::render_document(
            doc,
            &self.world.company,
            &relation,
            location.as_ref(),
            page,
        ) {
            self.files.pdfs.insert(id.to_owned(), Arc::from(bytes));
            self.documents.written.insert(id.to_owned());
        }
    }

    /// The files the world keeps for document `id`: its attachments' bytes in order,
    /// and its PDF when one is rendered (or came with it). A server stores them
    /// beside the document ([`Simulator::take_written`] names a document whose PDF
    /// was just rendered) and hands them back with [`Simulator::restore_files`].
    pub fn files_of(&self, id: &str) -> DocumentFiles {
        DocumentFiles {
            attachments: self.files.attachments_of(id).to_vec(),
            pdf: self.files.pdfs.get(id).cloned(),
        }
    }

    /// Hands back the files of a restored or refreshed document (see
    /// [`Simulator::files_of`]): after [`Simulator::restore`] or
    /// [`Simulator::refresh`], so that its UBL embeds them and its PDF is the one kept.
    pub fn restore_files(&mut self, id: &str, files: DocumentFiles) {
        let DocumentFiles { attachments, pdf } = files;
        if attachments.is_empty() {
            self.files.attachments.remove(id);
        } else {
            self.files.attachments.insert(id.to_owned(), attachments);
        }
        match pdf {
            Some(pdf) => {
                self.files.owed.remove(id);
                self.files.pdfs.insert(id.to_owned(), pdf);
            }
            // After `refresh`, a PDF another instance dropped is dropped here too.
            None => {
                self.files.pdfs.remove(id);
            }
        }
    }

    /// The PDF of document `id`, rendered if it is owed.
    pub(super) fn pdf_of(&mut self, id: &str) -> Option<Arc<[u8]>> {
        self.settle_pdf(id);
        self.files.pdfs.get(id).cloned()
    }

    /// `GET /documents/{id}/pdf` (docs/files.md §2): the filename, type, size, SHA-256 and
    /// bytes (base64) of the document's PDF; `pdf_not_available` when it has none.
    pub(super) fn pdf_answer(&mut self, id: &str) -> Answer {
        let number = if let Some(doc) = self.documents.get(id) {
            doc.document_number.clone()
        } else if let Some(inbox) = self.received.get(id) {
            inbox.document.document_number.clone().unwrap_or_default()
        } else {
            return not_found_id("document", id);
        };
        let Some(bytes) = self.pdf_of(id) else {
            return one(
                ErrorCode::PdfNotAvailable,
                Loc::root("path").key("id"),
                &format!("the document {id} has no pdf yet (pdf_available is false)"),
            );
        };
        (
            200,
            json!({
                "filename": crate::attachment::own_pdf_filename(&number, id),
                "content_type": "application/pdf",
                "size": bytes.len(),
                "sha256": crate::attachment::sha256_hex(&bytes),
                "base64": crate::attachment::encode_base64(&bytes),
            }),
        )
    }

    /// `POST /documents/{id}/attachments` (docs/files.md §1): permission `u`, the id, a
    /// received document, then the upload rules of [`crate::files::accept`]. A sandbox
    /// client gets the live answer and nothing is kept.
    pub(super) fn attach(&mut self, caller: Caller, id: &str, req: &Request) -> Out {
        if !caller.permissions.update {
            return json_out(error(&crate::error::ApiError::permission_denied(
                "attaching a file needs the u permission",
            )));
        }
        let Some(doc) = self.documents.get(id) else {
            if self.received.contains_key(id) {
                return json_out(one(
                    ErrorCode::ReceivedDocument,
                    Loc::root("path").key("id"),
                    &format!("the document {id} was received: it takes no attachment"),
                ));
            }
            return json_out(not_found_id("document", id));
        };
        let parsed = match &req.multipart {
            Some(Upload::Parts(parts)) => Ok(parts
                .iter()
                .map(|p| crate::files::Part {
                    name: p.name.clone(),
                    filename: p.filename.clone(),
                    content_type: p.content_type.clone(),
                    bytes: &p.bytes,
                })
                .collect()),
            Some(Upload::Http { content_type, body }) => {
                crate::files::multipart::parse(content_type.as_deref(), body)
            }
            None => Err(crate::files::multipart::MultipartError {
                reason: "the request carries no multipart body",
                header: None,
            }),
        };
        let upload = match crate::files::accept(doc, parsed.as_deref()) {
            Ok(upload) => upload,
            Err(e) => return json_out(error(&e)),
        };
        let next = upload.attached_to(doc);
        if caller.sandbox {
            return (201, Reply::Document(Box::new(next)));
        }
        let bytes: Arc<[u8]> = Arc::from(upload.bytes);
        self.files.attach(id, bytes);
        self.store(id.to_owned(), next);
        (201, Reply::Stored(id.to_owned()))
    }
}
