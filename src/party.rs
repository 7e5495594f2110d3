//! The parties of a UBL document (peppol.md §1): what the company and a relation
//! carry besides the keys the rules of create, PATCH and send read.
//!
//! Every key is optional and is a plain string: a value that is well-typed but wrong
//! for Peppol (a VAT number without a country prefix, a Peppol id with an unknown
//! scheme) is kept as given and becomes a finding of the UBL writer
//! ([`crate::peppol`]), never a refusal. An empty or blank value (empty once spaces,
//! tabs, CR and LF are removed) is the same as an absent one: see [`filled`].

use crate::wire::closed_set;

/// A postal address, with the keys of a delivery location's address.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Address {
    /// Street name.
    pub street: Option<String>,
    /// House number (joined to the street by a space in UBL).
    pub street_number: Option<String>,
    /// Second address line.
    pub street2: Option<String>,
    /// Postal code.
    pub postal_code: Option<String>,
    /// City.
    pub city: Option<String>,
    /// Province or region.
    pub province: Option<String>,
    /// ISO 3166-1 alpha-2 country code.
    pub country_code: Option<String>,
}

/// The party keys of the company or of a relation (peppol.md §1).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Party {
    /// Legal name (also the trading name written).
    pub name: Option<String>,
    /// VAT number with its country prefix, `BE0123456749`.
    pub vat_number: Option<String>,
    /// Belgian enterprise number (KBO/BCE), `0123456749`, Peppol scheme 0208.
    pub enterprise_number: Option<String>,
    /// Peppol participant id, `SCHEME:VALUE` such as `0208:0123456749`.
    pub peppol_id: Option<String>,
    /// Postal address.
    pub address: Option<Address>,
    /// Bank account (IBAN) payments go to.
    pub iban: Option<String>,
    /// Bank identifier (the company's only; a relation's is not read).
    pub bic: Option<String>,
    /// Contact e-mail.
    pub email: Option<String>,
}

/// The value of an optional text field as the writer reads it: `None` when absent or
/// blank (empty once spaces, tabs, CR and LF are removed), else the text as given.
///
/// ```
/// use invoicing_core::party::filled;
/// assert_eq!(filled(&Some(" \t\r\n".to_owned())), None);
/// assert_eq!(filled(&Some(" x ".to_owned())), Some(" x "));
/// assert_eq!(filled(&None), None);
/// ```
pub fn filled(value: &Option<String>) -> Option<&str> {
    value.as_deref().filter(|s| !is_blank(s))
}

/// Whether a text is blank as the writer reads it: empty once spaces, tabs, CR and
/// LF are removed (the test of [`filled`], for a text that is not an option).
///
/// ```
/// use invoicing_core::party::is_blank;
/// assert!(is_blank(" \t\r\n"));
/// assert!(!is_blank(" x "));
/// ```
pub fn is_blank(text: &str) -> bool {
    text.chars().all(|c| matches!(c, ' ' | '\t' | '\r' | '\n'))
}

impl Address {
    /// Whether every key is absent or blank.
    pub fn is_blank(&self) -> bool {
        [
            &self.street,
            &self.street_number,
            &self.street2,
            &self.postal_code,
            &self.city,
            &self.province,
            &self.country_code,
        ]
        .into_iter()
        .all(|v| filled(v).is_none())
    }
}

closed_set! {
    /// Whether a third party is a registered business or an individual.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum RelationKind("relation kind") {
        /// A registered business relation.
        Company = "company",
        /// An individual contact (never has payment terms).
        Contact = "contact",
    }
}
