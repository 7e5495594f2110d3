//! ISO 4217 active currency codes with their minor units (one table of ours).
//! Verified against ISO 4217 "list one" as published 2024-06-25 (a vendored
//! copy of SIX's list-one.xml), with amendments 178–180 applied, and
//! cross-checked against the code set of list one as published 2025-05-12 and
//! the OpenJDK CurrencyData.properties at dataVersion=180 (amendment 180). No
//! later amendment was found. Recent changes: ZWG (2, amd. 177) replaces ZWL,
//! withdrawn 2024-09; SLE (2) replaces SLL; VED (2) and VES (2) are both
//! listed; XCG (2, amd. 176) replaces ANG as of 2025-03-31; XAD (2, amd. 179,
//! fund code) added 2025-05-12; CUC moved to list three (amd. 178); BGN moved
//! to list three on 2026-01-01 (amd. 180). All of these withdrawn codes are
//! left out, as are the codes with minor unit "N.A." (XAG, XAU, XBA–XBD, XDR,
//! XPD, XPT, XSU, XTS, XUA, XXX).

/// Active ISO 4217 codes with a minor unit, sorted by code, with the number of
/// decimals of their minor unit.
pub(crate) const CURRENCIES: &[(&str, u32)] = &[
    ("AED", 2),
    ("AFN", 2),
    ("ALL", 2),
    ("AMD", 2),
    ("AOA", 2),
    ("ARS", 2),
    ("AUD", 2),
    ("AWG", 2),
    ("AZN", 2),
    ("BAM", 2),
    ("BBD", 2),
    ("BDT", 2),
    ("BHD", 3),
    ("BIF", 0),
    ("BMD", 2),
    ("BND", 2),
    ("BOB", 2),
    ("BOV", 2),
    ("BRL", 2),
    ("BSD", 2),
    ("BTN", 2),
    ("BWP", 2),
    ("BYN", 2),
    ("BZD", 2),
    ("CAD", 2),
    ("CDF", 2),
    ("CHE", 2),
    ("CHF", 2),
    ("CHW", 2),
    ("CLF", 4),
    ("CLP", 0),
    ("CNY", 2),
    ("COP", 2),
    ("COU", 2),
    ("CRC", 2),
    ("CUP", 2),
    ("CVE", 2),
    ("CZK", 2),
    ("DJF", 0),
    ("DKK", 2),
    ("DOP", 2),
    ("DZD", 2),
    ("EGP", 2),
    ("ERN", 2),
    ("ETB", 2),
    ("EUR", 2),
    ("FJD", 2),
    ("FKP", 2),
    ("GBP", 2),
    ("GEL", 2),
    ("GHS", 2),
    ("GIP", 2),
    ("GMD", 2),
    ("GNF", 0),
    ("GTQ", 2),
    ("GYD", 2),
    ("HKD", 2),
    ("HNL", 2),
    ("HTG", 2),
    ("HUF", 2),
    ("IDR", 2),
    ("ILS", 2),
    ("INR", 2),
    ("IQD", 3),
    ("IRR", 2),
    ("ISK", 0),
    ("JMD", 2),
    ("JOD", 3),
    ("JPY", 0),
    ("KES", 2),
    ("KGS", 2),
    ("KHR", 2),
    ("KMF", 0),
    ("KPW", 2),
    ("KRW", 0),
    ("KWD", 3),
    ("KYD", 2),
    ("KZT", 2),
    ("LAK", 2),
    ("LBP", 2),
    ("LKR", 2),
    ("LRD", 2),
    ("LSL", 2),
    ("LYD", 3),
    ("MAD", 2),
    ("MDL", 2),
    ("MGA", 2),
    ("MKD", 2),
    ("MMK", 2),
    ("MNT", 2),
    ("MOP", 2),
    ("MRU", 2),
    ("MUR", 2),
    ("MVR", 2),
    ("MWK", 2),
    ("MXN", 2),
    ("MXV", 2),
    ("MYR", 2),
    ("MZN", 2),
    ("NAD", 2),
    ("NGN", 2),
    ("NIO", 2),
    ("NOK", 2),
    ("NPR", 2),
    ("NZD", 2),
    ("OMR", 3),
    ("PAB", 2),
    ("PEN", 2),
    ("PGK", 2),
    ("PHP", 2),
    ("PKR", 2),
    ("PLN", 2),
    ("PYG", 0),
    ("QAR", 2),
    ("RON", 2),
    ("RSD", 2),
    ("RUB", 2),
    ("RWF", 0),
    ("SAR", 2),
    ("SBD", 2),
    ("SCR", 2),
    ("SDG", 2),
    ("SEK", 2),
    ("SGD", 2),
    ("SHP", 2),
    ("SLE", 2),
    ("SOS", 2),
    ("SRD", 2),
    ("SSP", 2),
    ("STN", 2),
    ("SVC", 2),
    ("SYP", 2),
    ("SZL", 2),
    ("THB", 2),
    ("TJS", 2),
    ("TMT", 2),
    ("TND", 3),
    ("TOP", 2),
    ("TRY", 2),
    ("TTD", 2),
    ("TWD", 2),
    ("TZS", 2),
    ("UAH", 2),
    ("UGX", 0),
    ("USD", 2),
    ("USN", 2),
    ("UYI", 0),
    ("UYU", 2),
    ("UYW", 4),
    ("UZS", 2),
    ("VED", 2),
    ("VES", 2),
    ("VND", 0),
    ("VUV", 0),
    ("WST", 2),
    ("XAD", 2),
    ("XAF", 0),
    ("XCD", 2),
    ("XCG", 2),
    ("XOF", 0),
    ("XPF", 0),
    ("YER", 2),
    ("ZAR", 2),
    ("ZMW", 2),
    ("ZWG", 2),
];

/// Tests of the ISO 4217 table.
#[cfg(test)]
mod tests {
    use super::CURRENCIES;

    /// The minor unit of `code`, found by binary search, as callers will.
    fn minor_unit(code: &str) -> Option<u32> {
        CURRENCIES
            .binary_search_by(|(c, _)| (*c).cmp(code))
            .ok()
            .map(|i| CURRENCIES[i].1)
    }

    /// The table is strictly ascending, so binary search works on it.
    #[test]
    fn table_is_strictly_sorted() {
        for pair in CURRENCIES.windows(2) {
            assert!(pair[0].0 < pair[1].0, "{} !< {}", pair[0].0, pair[1].0);
        }
    }

    /// Every code is three ASCII uppercase letters.
    #[test]
    fn codes_are_three_uppercase_letters() {
        for (code, _) in CURRENCIES {
            assert_eq!(code.len(), 3, "{code}");
            assert!(code.bytes().all(|b| b.is_ascii_uppercase()), "{code}");
        }
    }

    /// Known minor units.
    #[test]
    fn known_minor_units() {
        assert_eq!(minor_unit("EUR"), Some(2));
        assert_eq!(minor_unit("JPY"), Some(0));
        assert_eq!(minor_unit("KWD"), Some(3));
        assert_eq!(minor_unit("BHD"), Some(3));
        assert_eq!(minor_unit("CLF"), Some(4));
        assert_eq!(minor_unit("USD"), Some(2));
    }

    /// Codes without a minor unit are not in the table.
    #[test]
    fn codes_without_minor_unit_are_absent() {
        for code in ["XAU", "XDR", "XXX"] {
            assert_eq!(minor_unit(code), None, "{code}");
        }
    }
}
