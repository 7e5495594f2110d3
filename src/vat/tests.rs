use super::*;

#[test]
fn uncl_5305_categories() {
    // docs/decisions.md §4: standard S, zero_rated Z, exempted E, reverse_charge AE,
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
    // docs/decisions.md §4: standard wording and VATEX code per exempt code
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
    // docs/decisions.md §4 and §9: not_subject takes no rate (its lines and group answer
    // vat_rate null); every other code takes one. Codes are written as in JSON.
    for code in VatCode::ALL {
        assert_eq!(code.to_string(), code.as_str());
        assert_eq!(code.takes_no_rate(), code == VatCode::NotSubject, "{code}");
    }
    assert_eq!(VatCode::ReverseCharge.to_string(), "reverse_charge");
}
