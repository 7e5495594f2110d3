//! EN 16931 and Peppol BIS 3.0 as the official validation artefacts (release 2026.5)
//! test them: every assert of the artefacts (`artefacts`, generated from them by
//! `tools/artefacts.py`), one table of rules (ids and texts, `codes::MESSAGES`), the
//! code lists (`codes`), the XPath arithmetic and the artefacts' own functions
//! (`xpath`), `xs:double` as the official validator computes it, with integers only
//! (`double`), and the collector of findings, and the sum and category rules written
//! once over stated values (`sums`). The UBL writer's findings (`peppol`) and the
//! received reader's checks (`received`) both read their rules from here.

pub(crate) mod artefacts;
pub(crate) mod codes;
pub(crate) mod double;

/// The UBL 2.1 namespaces the writer writes and the readers read.
pub(crate) const NS_CAC: &str =
    "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2";
/// See [`NS_CAC`].
pub(crate) const NS_CBC: &str =
    "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2";
/// See [`NS_CAC`].
pub(crate) const NS_INVOICE: &str = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";
/// See [`NS_CAC`].
pub(crate) const NS_CREDIT_NOTE: &str = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2";
pub(crate) mod sums;
pub(crate) mod xpath;

use crate::error::{Loc, LocItem};
use serde::ser::{Serialize, SerializeMap, Serializer};
use std::collections::BTreeSet;

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

/// The text of a rule, as the artefacts word it (their `svrl:text`, whitespace
/// normalised, `[ID]-` prefix included); empty for an id that is not a rule.
///
/// ```
/// use invoicing_core::en16931::message;
/// assert!(message("BR-CO-15").starts_with("[BR-CO-15]-Invoice total amount with VAT"));
/// assert_eq!(message("no such rule"), "");
/// ```
pub fn message(rule: &str) -> &'static str {
    codes::MESSAGES
        .binary_search_by(|(r, _)| (*r).cmp(rule))
        .ok()
        .and_then(|i| codes::MESSAGES.get(i))
        .map_or("", |(_, m)| m)
}

/// The findings being collected, one per (rule, loc).
#[derive(Default)]
pub(crate) struct Found(BTreeSet<(String, Loc)>);

impl Found {
    /// Records `rule` broken at `loc`.
    pub(crate) fn add(&mut self, rule: &str, loc: Loc) {
        self.0.insert((rule.to_owned(), loc));
    }

    /// Records `rule` broken at the location `path`.
    pub(crate) fn at(&mut self, rule: &str, path: &[&str]) {
        self.add(rule, Loc(path.iter().map(|k| LocItem::from(*k)).collect()));
    }

    /// Whether `rule` was found anywhere.
    #[cfg(test)]
    pub(crate) fn has(&self, rule: &str) -> bool {
        self.0.iter().any(|(r, _)| r == rule)
    }

    /// The findings, sorted by rule then location, each with its text.
    pub(crate) fn finish(self) -> Vec<Finding> {
        self.0
            .into_iter()
            .map(|(rule, loc)| Finding {
                msg: message(&rule).to_owned(),
                rule,
                loc,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
