//! VAT codes: which rate each takes, its UNCL 5305 category, and the exemption
//! mention (text and VATEX code) an exempt VAT group carries (docs/decisions.md §4).

use crate::wire::closed_set;

closed_set! {
    /// The VAT treatment of a line.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum VatCode("vat code") {
        /// Taxed at a positive rate.
        Standard = "standard",
        /// Zero-rated: taxed at 0 %.
        ZeroRated = "zero_rated",
        /// Exempt from VAT.
        Exempted = "exempted",
        /// VAT reverse charge: the buyer accounts for it.
        ReverseCharge = "reverse_charge",
        /// Intra-Community supply of goods or services.
        IntraCommunity = "intra_community",
        /// Export outside the EU.
        Export = "export",
        /// Outside the scope of VAT.
        NotSubject = "not_subject",
        /// Reserved legacy code: transferred VAT (refused on input).
        TransferredVat = "transferred_vat",
        /// Reserved legacy code: Canary Islands (refused on input).
        CanaryIslands = "canary_islands",
        /// Reserved legacy code: Ceuta and Melilla (refused on input).
        CeutaMelilla = "ceuta_melilla",
    }
}

impl VatCode {
    /// Whether the code is one of the reserved legacy values, refused on input.
    pub fn is_reserved(self) -> bool {
        matches!(
            self,
            Self::TransferredVat | Self::CanaryIslands | Self::CeutaMelilla
        )
    }

    /// Whether lines of this code are taxed at their rate. Only `standard` is: every
    /// other code computes a tax of 0 (docs/decisions.md §3 steps 4 and 7).
    pub fn is_taxed(self) -> bool {
        matches!(self, Self::Standard)
    }

    /// The UNCL 5305 duty or tax category code.
    pub fn category(self) -> &'static str {
        match self {
            Self::Standard => "S",
            Self::ZeroRated => "Z",
            Self::Exempted => "E",
            Self::ReverseCharge | Self::TransferredVat => "AE",
            Self::IntraCommunity => "K",
            Self::Export => "G",
            Self::NotSubject => "O",
            Self::CanaryIslands => "L",
            Self::CeutaMelilla => "M",
        }
    }

    /// The standard exemption mention of an exempt code: its wording and its VATEX
    /// code. `None` for standard and zero_rated, which carry no mention.
    ///
    /// ```
    /// use invoicing_core::vat::VatCode;
    /// assert_eq!(VatCode::IntraCommunity.exemption(), Some(("Intra-Community supply", Some("VATEX-EU-IC"))));
    /// assert_eq!(VatCode::Exempted.exemption(), Some(("Exempt from VAT", None)));
    /// assert_eq!(VatCode::ZeroRated.exemption(), None);
    /// ```
    pub fn exemption(self) -> Option<(&'static str, Option<&'static str>)> {
        match self {
            Self::Exempted => Some(("Exempt from VAT", None)),
            Self::IntraCommunity => Some(("Intra-Community supply", Some("VATEX-EU-IC"))),
            Self::Export => Some(("Export outside the EU", Some("VATEX-EU-G"))),
            Self::ReverseCharge => Some(("Reverse charge", Some("VATEX-EU-AE"))),
            Self::NotSubject => Some(("Not subject to VAT", Some("VATEX-EU-O"))),
            _ => None,
        }
    }

    /// The standard exemption wording of an exempt code in a language (docs/files.md §2):
    /// the English wordings are [`VatCode::exemption`]'s; the Dutch, French and German
    /// ones use the legal terms of the Belgian VAT Code (reverse charge, and the
    /// exemptions of art. 39bis and art. 39). `None` for a code without a mention.
    ///
    /// ```
    /// use invoicing_core::language::Language;
    /// use invoicing_core::vat::VatCode;
    /// assert_eq!(VatCode::ReverseCharge.exemption_in(Language::Fr), Some("Autoliquidation"));
    /// assert_eq!(VatCode::Exempted.exemption_in(Language::En), Some("Exempt from VAT"));
    /// ```
    pub fn exemption_in(self, language: crate::language::Language) -> Option<&'static str> {
        use crate::language::Language::{De, En, Fr, Nl};
        let (en, _) = self.exemption()?;
        Some(match (self, language) {
            (_, En) => en,
            (Self::Exempted, Nl) => "Vrijgesteld van btw",
            (Self::Exempted, Fr) => "Exonéré de TVA",
            (Self::Exempted, De) => "Von der Mehrwertsteuer befreit",
            (Self::IntraCommunity, Nl) => {
                "Vrijgestelde intracommunautaire levering, art. 39bis W.BTW"
            }
            (Self::IntraCommunity, Fr) => "Livraison intracommunautaire exonérée, art. 39bis C.TVA",
            (Self::IntraCommunity, De) => {
                "Steuerfreie innergemeinschaftliche Lieferung, Art. 39bis MwStGB"
            }
            (Self::Export, Nl) => "Vrijgestelde uitvoer, art. 39 W.BTW",
            (Self::Export, Fr) => "Exportation exonérée, art. 39 C.TVA",
            (Self::Export, De) => "Steuerfreie Ausfuhr, Art. 39 MwStGB",
            (Self::ReverseCharge, Nl) => "Verlegging van heffing",
            (Self::ReverseCharge, Fr) => "Autoliquidation",
            (Self::ReverseCharge, De) => "Steuerschuldnerschaft des Leistungsempfängers",
            (_, Nl) => "Niet onderworpen aan btw",
            (_, Fr) => "Non soumis à la TVA",
            (_, De) => "Nicht der Mehrwertsteuer unterworfen",
        })
    }

    /// Whether the code takes no rate at all (`not_subject`): its lines and group
    /// answer `vat_rate` null.
    pub fn takes_no_rate(self) -> bool {
        matches!(self, Self::NotSubject)
    }
}

#[cfg(test)]
mod tests;
