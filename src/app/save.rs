//! Storing an issued document: its PDF settled or owed as its `pdf_available` says, and
//! whether the asynchronous world still has a step for it.

use super::{files, Pdf, Store};
use crate::context::ContextError;
use crate::document::{Document, PeppolStatus};

/// The files and the Peppol status of a document.
fn state(doc: &Document) -> (bool, bool, PeppolStatus) {
    (doc.pdf_available, doc.xml_available, doc.peppol_status)
}

/// What the asynchronous world makes of them: the files of the document exist (a
/// proforma never has a UBL, docs/peppol.md §5), and a send under way arrives.
pub(crate) fn after_tick(doc: &Document) -> (bool, bool, PeppolStatus) {
    let peppol_status = match doc.peppol_status {
        PeppolStatus::Sending => PeppolStatus::Sent,
        other => other,
    };
    (
        true,
        doc.doc_type.is_peppol_type() || doc.xml_available,
        peppol_status,
    )
}

/// Whether the asynchronous world still has a step for the document.
pub fn waits(doc: &Document) -> bool {
    after_tick(doc) != state(doc)
}

/// Stores an issued document: a PDF still owed is rendered first from the state it
/// was owed in, then the PDF follows `pdf_available`.
pub fn save(store: &mut dyn Store, doc: Document) -> Result<(), ContextError> {
    let id = doc.id.clone();
    if matches!(store.pdf(&id)?, Pdf::Owed(_)) && store.issued(&id)?.is_some_and(|old| *old != doc)
    {
        files::settle_pdf(store, &id)?;
    }
    let waiting = waits(&doc);
    store.put_issued(doc, waiting)?;
    follow_pdf_flag(store, &id)
}

/// After a document's `pdf_available` may have changed: true with no PDF makes one
/// owed (with the default branding in force), false forgets it.
pub(crate) fn follow_pdf_flag(store: &mut dyn Store, id: &str) -> Result<(), ContextError> {
    let available = store.issued(id)?.is_some_and(|d| d.pdf_available);
    let pdf = store.pdf(id)?;
    if !available {
        if pdf != Pdf::Missing {
            store.put_pdf(id, Pdf::Missing)?;
        }
    } else if pdf == Pdf::Missing {
        let branding = store.default_branding()?;
        store.put_pdf(id, Pdf::Owed(branding))?;
    }
    Ok(())
}
