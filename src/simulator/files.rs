//! The files of documents the simulator keeps (docs/files.md): the attachments' bytes
//! and each document's PDF, owed or rendered ([`crate::app::Pdf`]).

use crate::app::Pdf;
use std::collections::HashMap;
use std::sync::Arc;

/// The files the world keeps.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Files {
    /// Each document's attachments' bytes, in the order attached.
    pub(crate) attachments: HashMap<String, Vec<Arc<[u8]>>>,
    /// The PDFs owed or rendered (a document without one has none here).
    pub(crate) pdfs: HashMap<String, Pdf>,
}
