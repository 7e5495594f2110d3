//! The national rules of the Peppol layer (PEPPOL-EN16931-UBL, release 2026.5) that a
//! document written by this crate can meet when its seller is not Belgian: NL-R, DE-R,
//! DK-R, SE-R, NO-R, IS-R and IT-R, each tested as the artefacts test it. The Greek
//! rules (GR-R) are the engine's own ([`crate::ubl::validate`]) on the document as
//! written ([`greece`]). The self-billing rules have no national rules.

use super::writer::category_percent;
use super::{Roles, UblKind};
use crate::context::DeliveryLocation;
use crate::document::Document;
use crate::en16931::xpath::{mod11, normalize_space, swedish_orgnr};
use crate::en16931::Found;
use crate::party::{filled, Address, Party};
use rust_decimal::Decimal;

/// The written address, when the party has one that is not blank.
fn address(p: &Party) -> Option<&Address> {
    p.address.as_ref().filter(|a| !a.is_blank())
}

/// The country code as written (`None` when not written).
fn country_raw(p: &Party) -> Option<&str> {
    address(p).and_then(|a| filled(&a.country_code))
}

/// `upper-case(normalize-space(country))`.
fn country_norm(p: &Party) -> Option<String> {
    country_raw(p).map(|c| normalize_space(c).to_uppercase())
}

/// `$supplierCountry`: the VAT number's prefix, else the address country, else `XX`.
fn vat_or_address_country(p: &Party) -> String {
    match filled(&p.vat_number) {
        Some(vat) => {
            let prefix: String = vat.chars().take(2).collect();
            normalize_space(&prefix).to_uppercase()
        }
        None => country_norm(p).unwrap_or_else(|| "XX".to_owned()),
    }
}

/// Whether the written address has a street name, a city and a postal code.
fn has(p: &Party, street: bool, city: bool, postal: bool) -> bool {
    address(p).is_some_and(|a| {
        let street_written = filled(&a.street).is_some() || filled(&a.street_number).is_some();
        (!street || street_written)
            && (!city || filled(&a.city).is_some())
            && (!postal || filled(&a.postal_code).is_some())
    })
}

/// Every national rule the document breaks.
pub(crate) fn national_rules(
    doc: &Document,
    kind: UblKind,
    roles: &Roles<'_>,
    location: Option<&DeliveryLocation>,
    own_pdf: Option<&str>,
    f: &mut Found,
) {
    if kind.is_self_billing() {
        // The self-billing rules of the Peppol layer have no national rules.
        return;
    }
    let (seller, buyer) = (roles.seller, roles.buyer);
    let (s, b) = (roles.seller_key, roles.buyer_key);

    // The Netherlands.
    if country_norm(seller).as_deref() == Some("NL") {
        netherlands(kind, roles, f);
    }

    // Germany: both parties German.
    if country_norm(seller).as_deref() == Some("DE") && country_norm(buyer).as_deref() == Some("DE")
    {
        germany(doc, roles, location, f);
        unique_filenames(doc, own_pdf, f);
    }

    // Denmark: the address country as written.
    if country_raw(seller) == Some("DK") {
        denmark(doc, kind, roles, f);
    }

    // Iceland: the address country as written.
    if country_raw(seller) == Some("IS") {
        f.at("IS-R-002", &[s, "enterprise_number"]);
        if !has(seller, true, false, true) {
            f.at("IS-R-003", &[s, "address"]);
        }
        if country_raw(buyer) == Some("IS") {
            f.at("IS-R-004", &[b, "enterprise_number"]);
            if !has(buyer, true, false, true) {
                f.at("IS-R-005", &[b, "address"]);
            }
        }
    }

    // Sweden: the address country as written.
    if country_raw(seller) == Some("SE") {
        sweden(doc, seller, s, f);
    }

    // Norway: by $supplierCountry.
    if vat_or_address_country(seller) == "NO" {
        if let Some(vat) = filled(&seller.vat_number) {
            if vat.starts_with("NO") && !norwegian_vat(vat) {
                f.at("NO-R-001", &[s, "vat_number"]);
            }
        }
    }

    // Greece: by $supplierCountry, GR or EL.
    if matches!(vat_or_address_country(seller).as_str(), "GR" | "EL") {
        greece(doc, kind, roles, location, own_pdf, f);
    }

    // Italy: by $supplierCountry; the address must be complete.
    if vat_or_address_country(seller) == "IT" {
        if !has(seller, true, false, false) {
            f.at("IT-R-002", &[s, "address"]);
        }
        if !has(seller, false, true, false) {
            f.at("IT-R-003", &[s, "address"]);
        }
        if !has(seller, false, false, true) {
            f.at("IT-R-004", &[s, "address"]);
        }
    }
}

/// The Greek rules (GR-R), for a seller Greek by `$supplierCountry`: the fatal GR-R
/// findings of the engine ([`crate::ubl::validate`], the artefact's own asserts) on the
/// document as [`super::write_ubl`] writes it, its files' bytes left empty.
///
/// They are the engine's, not written a second time here: they read the document
/// number in the Greek `|`-separated format (the seller's TIN with its check digit,
/// the issue date, a count, a Greek document type), and no rule is to be written
/// twice. No GR-R rule reads a file's bytes: they read the document number, the
/// parties' names, VAT numbers and electronic addresses, and two references the crate
/// never writes (the MARK number and the invoice URL). The engine's milliseconds are
/// spent for a Greek seller only.
///
/// Each finding is put at the field that mends it: the document number, a party's
/// name, VAT number or electronic address; a reference the crate cannot write (the
/// MARK number, GR-R-004-1) at the document (`[]`).
fn greece(
    doc: &Document,
    kind: UblKind,
    roles: &Roles<'_>,
    location: Option<&DeliveryLocation>,
    own_pdf: Option<&str>,
    f: &mut Found,
) {
    let empty: Vec<&[u8]> = vec![&[]; doc.attachments.len()];
    let references = super::references(doc, kind, own_pdf.map(|name| (name, &[][..])), &empty);
    let mut xml = Vec::with_capacity(4096 + doc.lines.len() * 640);
    if super::writer::write(&mut xml, doc, kind, roles, location, &references).is_err() {
        return;
    }
    let Ok(report) = crate::ubl::validate(&xml) else {
        return;
    };
    let (s, b) = (roles.seller_key, roles.buyer_key);
    for finding in report.findings.iter().filter(|x| x.fatal) {
        let path: &[&str] = match finding.rule {
            r if r.starts_with("GR-R-001-") => &["document_number"],
            "GR-R-002" => &[s, "name"],
            "GR-R-003" => &[s, "vat_number"],
            "GR-R-009" => &[s, "peppol_id"],
            "GR-R-005" => &[b, "name"],
            "GR-R-006" => &[b, "vat_number"],
            "GR-R-010" => &[b, "peppol_id"],
            r if r.starts_with("GR-R-") => &[],
            _ => continue,
        };
        f.at(finding.rule, path);
    }
}

/// The Dutch rules (NL-R), for a Dutch seller.
fn netherlands(kind: UblKind, roles: &Roles<'_>, f: &mut Found) {
    let (seller, buyer) = (roles.seller, roles.buyer);
    let (s, b) = (roles.seller_key, roles.buyer_key);
    let legal = |p: &Party| filled(&p.enterprise_number).is_some();
    if !kind.is_invoice() {
        f.at("NL-R-001", &[]);
    }
    if address(seller).is_some() && !has(seller, true, true, true) {
        f.at("NL-R-002", &[s, "address"]);
    }
    if legal(seller) {
        f.at("NL-R-003", &[s, "enterprise_number"]);
    }
    if country_norm(buyer).as_deref() == Some("NL") {
        if address(buyer).is_some() && !has(buyer, true, true, true) {
            f.at("NL-R-004", &[b, "address"]);
        }
        if legal(buyer) {
            f.at("NL-R-005", &[b, "enterprise_number"]);
        }
    }
}

/// The Danish rules (DK-R), for a seller whose address country is written `DK`.
fn denmark(doc: &Document, kind: UblKind, roles: &Roles<'_>, f: &mut Found) {
    let (seller, buyer) = (roles.seller, roles.buyer);
    let (s, b) = (roles.seller_key, roles.buyer_key);
    let legal = |p: &Party| filled(&p.enterprise_number).is_some();
    let payable = doc.currency.round(doc.remaining_amount());
    if legal(seller) {
        f.at("DK-R-014", &[s, "enterprise_number"]);
    } else {
        f.at("DK-R-002", &[s, "enterprise_number"]);
    }
    let buyer_dk = country_raw(buyer) == Some("DK");
    if !kind.is_invoice() && buyer_dk && payable.is_sign_negative() && !payable.is_zero() {
        f.at("DK-R-016", &[]);
    }
    if buyer_dk {
        if legal(buyer) {
            f.at("DK-R-017", &[b, "enterprise_number"]);
        }
        if kind.is_invoice() {
            // Credit transfer (30) is not among the Danish payment means codes.
            f.at("DK-R-005", &[]);
        }
    }
}

/// `NO` + 9 digits + `MVA`, the 9 digits passing the mod 11 check.
fn norwegian_vat(vat: &str) -> bool {
    let Some(rest) = vat.get(2..) else {
        return false;
    };
    rest.len() == 12
        && rest.ends_with("MVA")
        && rest
            .get(..9)
            .is_some_and(|d| d.bytes().all(|c| c.is_ascii_digit()) && mod11(d))
}

/// DE-R-022: every embedded file's filename differs from those before it, compared
/// with case as the artefact's XPath compares (its text says "non case-sensitive";
/// its test is `=`), the document's own `NUMBER.pdf` included. Found at each
/// attachment whose name an earlier file has.
fn unique_filenames(doc: &Document, own_pdf: Option<&str>, f: &mut Found) {
    let mut seen: std::collections::HashSet<&str> = own_pdf.into_iter().collect();
    for (i, a) in doc.attachments.iter().enumerate() {
        if !seen.insert(a.filename.as_str()) {
            f.add("DE-R-022", crate::error::Loc::root("attachments").index(i));
        }
    }
}

fn germany(doc: &Document, roles: &Roles<'_>, location: Option<&DeliveryLocation>, f: &mut Found) {
    let (seller, buyer) = (roles.seller, roles.buyer);
    let (s, b) = (roles.seller_key, roles.buyer_key);
    let email = filled(&seller.email).is_some();
    if email {
        // A contact is written with its e-mail only: no name, no telephone.
        f.at("DE-R-005", &[s, "email"]);
        f.at("DE-R-006", &[s, "email"]);
    } else {
        f.at("DE-R-002", &[s, "email"]);
    }
    if address(seller).is_some() {
        if !has(seller, false, true, false) {
            f.at("DE-R-003", &[s, "address"]);
        }
        if !has(seller, false, false, true) {
            f.at("DE-R-004", &[s, "address"]);
        }
    }
    if address(buyer).is_some() {
        if !has(buyer, false, true, false) {
            f.at("DE-R-008", &[b, "address"]);
        }
        if !has(buyer, false, false, true) {
            f.at("DE-R-009", &[b, "address"]);
        }
    }
    if let Some(a) = location
        .and_then(|l| l.address.as_ref())
        .filter(|a| !a.is_blank())
    {
        if filled(&a.city).is_none() {
            f.at("DE-R-010", &["delivery_location_id"]);
        }
        if filled(&a.postal_code).is_none() {
            f.at("DE-R-011", &["delivery_location_id"]);
        }
    }
    if filled(&doc.buyer_reference).is_none() {
        f.at("DE-R-015", &["buyer_reference"]);
    }
    if filled(&seller.iban).is_none() {
        f.at("DE-R-023-1", &[s, "iban"]);
    }
    let groups = &doc.computation.groups;
    if groups
        .iter()
        .any(|g| category_percent(g.vat_code, g.vat_rate).is_none())
    {
        f.at("DE-R-014", &[]);
    }
    let taxed_code = groups.iter().any(|g| g.vat_code.category() != "O");
    if taxed_code && filled(&seller.vat_number).is_none() {
        f.at("DE-R-016", &[s, "vat_number"]);
    }
    // DE-R-018 (Skonto lines) tests only the lines of the payment terms that start
    // with `#`: the text written has none, so it holds.
}

fn sweden(doc: &Document, seller: &Party, s: &str, f: &mut Found) {
    let vat = filled(&seller.vat_number);
    let swedish_vat = vat.is_some_and(|v| v.starts_with("SE"));
    if let Some(v) = vat.filter(|_| swedish_vat) {
        if normalize_space(v).chars().count() != 14 {
            f.at("SE-R-001", &[s, "vat_number"]);
        }
        let digits: String = v.chars().skip(2).take(12).collect();
        if !xpath_number(&digits) {
            f.at("SE-R-002", &[s, "vat_number"]);
        }
        let bad_rate = doc
            .computation
            .groups
            .iter()
            .filter(|g| g.vat_code.category() == "S")
            .filter_map(|g| g.vat_rate)
            .chain(
                doc.lines
                    .iter()
                    .filter(|l| l.pricing.vat_code.category() == "S")
                    .filter_map(|l| l.pricing.vat_rate),
            )
            .any(|r| ![25, 12, 6].iter().any(|ok| r == Decimal::from(*ok)));
        if bad_rate {
            f.at("SE-R-006", &["lines"]);
        }
    }
    if let Some(e) = filled(&seller.enterprise_number) {
        if !xpath_number(e) {
            f.at("SE-R-003", &[s, "enterprise_number"]);
        }
        let n = normalize_space(e);
        if n.chars().count() != 10 {
            f.at("SE-R-004", &[s, "enterprise_number"]);
        }
        if !swedish_orgnr(&n) {
            f.at("SE-R-013", &[s, "enterprise_number"]);
        }
    }
}

/// Whether XPath's `number()` reads the text as a number (not NaN).
fn xpath_number(text: &str) -> bool {
    let t = text.trim_matches([' ', '\t', '\r', '\n']);
    let t = t.strip_prefix('-').unwrap_or(t);
    let mut parts = t.splitn(2, '.');
    let int = parts.next().unwrap_or("");
    let frac = parts.next();
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    digits(int) && frac.is_none_or(digits) && !(int.is_empty() && frac.is_none_or(str::is_empty))
}
