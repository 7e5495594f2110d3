//! The stored form of a document: one versioned JSON form a server keeps in a column,
//! for an issued document ([`Document`]) and a received one ([`StoredReceived`]).
//!
//! ```text
//! {"version": 1, "kind": "issued", "document": {...}}
//! {"version": 1, "kind": "received", "id": "...", "origin": "peppol", ..., "document": {...}}
//! ```
//!
//! [`StoredDocument::store`] writes it, [`StoredDocument::load`] reads it back; a round
//! trip (store → load → store) is byte-identical, and a loaded document answers every
//! PATCH and send as the original does: everything the rules read is kept, the
//! numbering state (`numbering`, `numbered_on`) included.
//!
//! Decisions taken where the specification is silent:
//! - Amounts, quantities, prices and rates are decimal **strings** holding the exact
//!   value with its scale (`"9.990"` stays `"9.990"`): no float ever reads them.
//! - The computed amounts are stored, not recomputed on load: a document answers the
//!   amounts it was issued with even if a later version of the crate computed
//!   differently (a legal document's amounts never change on a software update).
//! - Dates are `YYYY-MM-DD`, `create_date` is RFC 3339 in UTC with `Z` and as many
//!   fraction digits as it has. Closed sets are written as the interface writes them.
//! - Loading is strict: an unknown key, an unknown version or kind, a value outside
//!   its set, or lists that do not line up (lines and their amounts, VAT groups and
//!   their exemptions) is a [`StoredError`], never a panic.
//! - The form is versioned by `version`; this crate writes and reads version 1.

use crate::document::Document;
use crate::party::RelationKind;
use crate::received::{ReceivedDocument, ResponseInfo};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::borrow::Cow;

/// The version of the stored form this crate writes and reads.
pub const VERSION: u32 = 1;

use crate::wire::instant;

/// Why a stored form cannot be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("stored document: {0}")]
pub struct StoredError(pub String);

/// A received document with what the world keeps beside it: its id, the channel it
/// came in through, the type given to bytes that are not UBL, when it was received,
/// the relation and journal it was matched to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredReceived {
    /// Opaque unique identifier.
    pub id: String,
    /// The channel (`peppol` by default).
    pub origin: String,
    /// The `type` of bytes that are not UBL (`other_document`…), if given.
    pub type_override: Option<String>,
    /// When it was received (its `create_date`).
    #[serde(with = "instant")]
    pub create_date: DateTime<Utc>,
    /// The relation matched, with its kind.
    pub relation: Option<StoredRelation>,
    /// The journal it is booked in.
    pub journal_id: Option<String>,
    /// The document as read (and as PATCHed since).
    pub document: ReceivedDocument,
}

/// The relation a received document was matched to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredRelation {
    /// The relation's id.
    pub id: String,
    /// Its kind.
    pub kind: RelationKind,
}

impl StoredReceived {
    /// The response shape of the document (as `GET /documents/{id}` answers it).
    pub fn to_json(&self) -> Value {
        let info = ResponseInfo {
            origin: &self.origin,
            type_override: self.type_override.as_deref(),
            create_date: Some(self.create_date),
            relation: self.relation.as_ref().map(|r| (r.id.as_str(), r.kind)),
            journal_id: self.journal_id.as_deref(),
            ..ResponseInfo::new(&self.id)
        };
        self.document.to_json(&info)
    }
}

/// A document as a server keeps it: issued or received.
// Both variants are large; a server holds few at a time and moves them whole.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum StoredDocument {
    /// A document the company issued (created through the API).
    Issued(Document),
    /// A document the company received.
    Received(Box<StoredReceived>),
}

impl StoredDocument {
    /// Its id.
    pub fn id(&self) -> &str {
        match self {
            Self::Issued(d) => &d.id,
            Self::Received(r) => &r.id,
        }
    }

    /// The response shape of the document (as `GET /documents/{id}` answers it).
    pub fn to_json(&self) -> Value {
        match self {
            Self::Issued(d) => d.to_json(),
            Self::Received(r) => r.to_json(),
        }
    }

    /// The stored form: `{"version": 1, "kind": "issued"|"received", ...}`.
    ///
    /// ```
    /// # use invoicing_core::simulator::Simulator;
    /// use invoicing_core::stored::StoredDocument;
    /// # let scenario = r#"{"today": "2026-11-21", "relations": [{"id": "r", "kind": "company"}],
    /// #   "journals": [{"id": "j", "category": "sales_invoice", "numbering": "yearly", "prefix": "F", "default": true}],
    /// #   "documents": [{"id": "d", "create": {"type": "sale_invoice", "relation_id": "r",
    /// #     "lines": [{"quantity": 2, "unit_price": 9.990, "vat_rate": 21}]}}], "requests": []}"#;
    /// # let sim = Simulator::load(scenario.as_bytes()).unwrap();
    /// # let document = sim.document("d").unwrap().clone();
    /// let stored = StoredDocument::Issued(document).store();
    /// let loaded = StoredDocument::load(&stored)?;
    /// assert_eq!(loaded.store(), stored); // byte-identical
    /// # Ok::<(), invoicing_core::stored::StoredError>(())
    /// ```
    pub fn store(&self) -> Vec<u8> {
        let form = match self {
            Self::Issued(d) => Form::Issued {
                version: VERSION,
                document: Cow::Borrowed(d),
            },
            Self::Received(r) => Form::Received {
                version: VERSION,
                received: Cow::Borrowed(&**r),
            },
        };
        // Writing owned data with string keys to a Vec cannot fail.
        serde_json::to_vec(&form).unwrap_or_default()
    }

    /// Reads a stored form back.
    pub fn load(bytes: &[u8]) -> Result<StoredDocument, StoredError> {
        let form: Form = serde_json::from_slice(bytes).map_err(|e| StoredError(e.to_string()))?;
        match form {
            Form::Issued { version, document } => {
                check_version(version)?;
                checked(document.into_owned()).map(Self::Issued)
            }
            Form::Received { version, received } => {
                check_version(version)?;
                Ok(Self::Received(Box::new(received.into_owned())))
            }
        }
    }
}

fn check_version(version: u32) -> Result<(), StoredError> {
    if version == VERSION {
        Ok(())
    } else {
        Err(StoredError(format!(
            "version {version} is not known (this crate reads version {VERSION})"
        )))
    }
}

// One form at a time, read or written whole: its size does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
enum Form<'a> {
    Issued {
        version: u32,
        document: Cow<'a, Document>,
    },
    Received {
        version: u32,
        #[serde(flatten)]
        received: Cow<'a, StoredReceived>,
    },
}

/// The checks of a stored form that its serde reading does not make: the computed
/// amounts line up with the lines, the document's allowances and charges and the VAT
/// groups, and every attachment has a size and a SHA-256 (a stored form edited by
/// hand may not). The computation takes the document's currency.
fn checked(mut doc: Document) -> Result<Document, StoredError> {
    let c = &doc.computation;
    let lines_ok = c.lines.len() == doc.lines.len()
        && c.lines
            .iter()
            .zip(&doc.lines)
            .all(|(a, l)| a.allowance_charges.len() == l.pricing.allowance_charges.len());
    if !lines_ok {
        return Err(StoredError(
            "the computed line amounts do not line up with the lines".into(),
        ));
    }
    if c.allowance_charges.len() != doc.allowance_charges.len()
        || c.allowance_charges
            .iter()
            .any(|a| a.shares.len() != c.groups.len())
    {
        return Err(StoredError(
            "the computed allowance/charge amounts do not line up with the document's".into(),
        ));
    }
    if doc.exemptions.len() != c.groups.len() {
        return Err(StoredError(
            "the exemptions do not line up with the vat groups".into(),
        ));
    }
    for a in &doc.attachments {
        let hex = a.sha256.len() == 64
            && a.sha256
                .bytes()
                .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        if !hex || a.size == 0 {
            return Err(StoredError(format!(
                "attachment {:?}: size must be at least 1 and sha256 64 lower-case hex digits",
                a.filename
            )));
        }
    }
    doc.computation.currency = doc.currency;
    Ok(doc)
}

#[cfg(test)]
mod tests;
