//! VAT codes: which rate each takes, its UNCL 5305 category, and the exemption
//! mention (text and VATEX code) an exempt VAT group carries (decisions.md §4).

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
    /// other code computes a tax of 0 (decisions.md §3 steps 4 and 7).
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
mod tests {
    use super::*;

    #[test]
    fn uncl_5305_categories() {
        // decisions.md §4: standard S, zero_rated Z, exempted E, reverse_charge AE,
        // intra_community K, export G, not_subject O
        let expect = [
            (VatCode::Standard, "S"),
            (VatCode::ZeroRated, "Z"),
            (VatCode::Exempted, "E"),
            (VatCode::ReverseCharge, "AE"),
            (VatCode::IntraCommunity, "K"),
            (VatCode::Export, "G"),
            (VatCode::NotSubject, "O"),
        ];
        for (code, cat) in expect {
            assert_eq!(code.category(), cat, "{code}");
        }
    }

    #[test]
    fn exemption_mentions_and_vatex_codes() {
        // decisions.md §4: standard wording and VATEX code per exempt code
        assert_eq!(
            VatCode::Exempted.exemption(),
            Some(("Exempt from VAT", None))
        );
        assert_eq!(
            VatCode::IntraCommunity.exemption(),
            Some(("Intra-Community supply", Some("VATEX-EU-IC")))
        );
        assert_eq!(
            VatCode::Export.exemption(),
            Some(("Export outside the EU", Some("VATEX-EU-G")))
        );
        assert_eq!(
            VatCode::ReverseCharge.exemption(),
            Some(("Reverse charge", Some("VATEX-EU-AE")))
        );
        assert_eq!(
            VatCode::NotSubject.exemption(),
            Some(("Not subject to VAT", Some("VATEX-EU-O")))
        );
        assert_eq!(VatCode::Standard.exemption(), None);
        assert_eq!(VatCode::ZeroRated.exemption(), None);
    }

    #[test]
    fn exemption_wordings_exist_in_every_language_with_the_legal_terms() {
        // docs/files.md §2: the standard wordings in en, nl, fr, de; English unchanged;
        // reverse charge and the art. 39bis / 39 exemptions in their legal terms
        use crate::language::Language;
        for code in VatCode::ALL {
            for l in Language::ALL {
                assert_eq!(code.exemption_in(l).is_some(), code.exemption().is_some());
            }
            if let Some((en, _)) = code.exemption() {
                assert_eq!(code.exemption_in(Language::En), Some(en));
            }
        }
        let rc = VatCode::ReverseCharge;
        assert_eq!(
            rc.exemption_in(Language::Nl),
            Some("Verlegging van heffing")
        );
        assert_eq!(rc.exemption_in(Language::Fr), Some("Autoliquidation"));
        assert_eq!(
            rc.exemption_in(Language::De),
            Some("Steuerschuldnerschaft des Leistungsempfängers")
        );
        for l in [Language::Nl, Language::Fr, Language::De] {
            let ic = VatCode::IntraCommunity.exemption_in(l).unwrap_or_default();
            assert!(ic.contains("39bis"), "{ic}");
            let g = VatCode::Export.exemption_in(l).unwrap_or_default();
            assert!(
                g.contains("39 ") || g.contains("art. 39") || g.contains("Art. 39"),
                "{g}"
            );
        }
    }

    #[test]
    fn only_standard_is_taxed_and_reserved_codes_are_known() {
        for code in VatCode::ALL {
            assert_eq!(code.is_taxed(), code == VatCode::Standard);
            assert_eq!(VatCode::parse(code.as_str()), Some(code));
        }
        assert!(VatCode::TransferredVat.is_reserved());
        assert!(VatCode::CanaryIslands.is_reserved());
        assert!(VatCode::CeutaMelilla.is_reserved());
        assert!(!VatCode::Standard.is_reserved());
        assert_eq!(VatCode::parse("Standard"), None);
    }

    #[test]
    fn codes_display_as_written_and_only_not_subject_takes_no_rate() {
        // decisions.md §4 and §9: not_subject takes no rate (its lines and group answer
        // vat_rate null); every other code takes one. Codes are written as in JSON.
        for code in VatCode::ALL {
            assert_eq!(code.to_string(), code.as_str());
            assert_eq!(code.takes_no_rate(), code == VatCode::NotSubject, "{code}");
        }
        assert_eq!(VatCode::ReverseCharge.to_string(), "reverse_charge");
    }
}
