//! The findings (docs/peppol.md §3, §6): the fatal rules of EN 16931 and Peppol BIS 3.0
//! that the written UBL breaks, each at the field a user must mend.

use super::writer::{accepted_code, category_percent, endpoint, has_kind, item_properties};
use super::{Roles, UblKind};
use crate::compute::{AllowanceKind, AllowanceValue};
use crate::context::DeliveryLocation;
use crate::document::Document;
use crate::en16931::sums::{self, Group, Index, Num, R120Line, Totals};
use crate::en16931::xpath::{abn, gln, mod11, mod97_0208, normalize_space, slack, swedish_orgnr};
use crate::en16931::{codes, Finding, Found};
use crate::error::Loc;
use crate::money::Currency;
use crate::party::{filled, Address, Party};
use crate::vat::VatCode;
use rust_decimal::Decimal;

/// Whether `code` (compared as the rule compares it) is in a sorted list.
fn listed(list: &[&str], code: &str) -> bool {
    list.binary_search(&code).is_ok()
}

/// An allowance or charge as written: its place, kind, amount, rate and base, and
/// its VAT category (document level only).
struct WrittenAc {
    place: Place,
    charge: bool,
    amount: Decimal,
    rate: Option<Decimal>,
    base: Option<Decimal>,
    category: Option<(&'static str, Option<Decimal>)>,
    code: Option<String>,
}

/// Where an allowance or charge is: document allowance `j`, or allowance `j` of
/// line `i`.
#[derive(Clone, Copy)]
enum Place {
    Document(usize),
    Line(usize, usize),
}

impl Place {
    fn loc(self) -> Loc {
        match self {
            Place::Document(j) => Loc::root("allowance_charges").index(j),
            Place::Line(i, j) => Loc::root("lines")
                .index(i)
                .key("allowance_charges")
                .index(j),
        }
    }
}

/// A line as written.
struct WrittenLine {
    category: &'static str,
    percent: Option<Decimal>,
    net: Decimal,
    quantity: Decimal,
    price: Decimal,
    acs: Vec<WrittenAc>,
}

/// A VAT breakdown group as written.
struct WrittenGroup {
    category: &'static str,
    percent: Option<Decimal>,
    taxable: Decimal,
    tax: Decimal,
}

/// Every value the rules read, as the writer writes it.
struct Written {
    currency: Currency,
    lines: Vec<WrittenLine>,
    acs: Vec<WrittenAc>,
    groups: Vec<WrittenGroup>,
    line_total: Decimal,
    tax_exclusive: Decimal,
    tax_inclusive: Decimal,
    allowance_total: Option<Decimal>,
    charge_total: Option<Decimal>,
    prepaid: Option<Decimal>,
    payable: Decimal,
    tax_total: Decimal,
}

fn written_ac(
    ac: &crate::compute::AllowanceCharge,
    place: Place,
    amount: Decimal,
    base: Decimal,
    category: Option<(VatCode, Option<Decimal>)>,
    c: Currency,
) -> WrittenAc {
    let rate = match ac.value {
        AllowanceValue::Rate(r) => Some(r),
        AllowanceValue::Amount(_) => None,
    };
    WrittenAc {
        place,
        charge: ac.kind == AllowanceKind::Charge,
        amount: c.round(amount),
        rate,
        base: rate.map(|_| c.round(base)),
        category: category.map(|(code, rate)| (code.category(), category_percent(code, rate))),
        code: accepted_code(ac).map(str::to_owned),
    }
}

fn written(doc: &Document) -> Written {
    let c = doc.currency;
    let comp = &doc.computation;
    let lines = doc
        .lines
        .iter()
        .zip(&comp.lines)
        .enumerate()
        .map(|(i, (line, amounts))| {
            let p = &line.pricing;
            let acs = p
                .allowance_charges
                .iter()
                .enumerate()
                .map(|(j, ac)| {
                    let amount = amounts
                        .allowance_charges
                        .get(j)
                        .copied()
                        .unwrap_or_default();
                    written_ac(ac, Place::Line(i, j), amount, amounts.subtotal, None, c)
                })
                .collect();
            WrittenLine {
                category: p.vat_code.category(),
                percent: category_percent(p.vat_code, p.vat_rate),
                net: c.round(amounts.total),
                quantity: p.quantity,
                price: p.unit_price,
                acs,
            }
        })
        .collect();
    let mut acs = Vec::new();
    for (j, ac) in doc.allowance_charges.iter().enumerate() {
        let Some(amounts) = comp.allowance_charges.get(j) else {
            continue;
        };
        for (g, share) in comp.groups.iter().zip(&amounts.shares) {
            if !share.is_zero() {
                acs.push(written_ac(
                    ac,
                    Place::Document(j),
                    *share,
                    g.base,
                    Some((g.vat_code, g.vat_rate)),
                    c,
                ));
            }
        }
    }
    let groups = comp
        .groups
        .iter()
        .map(|g| WrittenGroup {
            category: g.vat_code.category(),
            percent: category_percent(g.vat_code, g.vat_rate),
            taxable: c.round(g.taxable_amount),
            tax: c.round(g.tax_amount),
        })
        .collect();
    Written {
        currency: c,
        lines,
        acs,
        groups,
        line_total: c.round(comp.line_total),
        tax_exclusive: c.round(comp.tax_exclusive_amount),
        tax_inclusive: c.round(comp.total_amount),
        allowance_total: has_kind(doc, AllowanceKind::Allowance)
            .then(|| c.round(comp.allowance_total)),
        charge_total: has_kind(doc, AllowanceKind::Charge).then(|| c.round(comp.charge_total)),
        prepaid: (!doc.paid_amount.is_zero()).then(|| c.round(doc.paid_amount)),
        payable: c.round(doc.remaining_amount()),
        tax_total: c.round(comp.tax_amount),
    }
}

/// Every finding of the document, sorted by rule then location, one per (rule, loc).
pub(crate) fn findings(
    doc: &Document,
    kind: UblKind,
    roles: &Roles<'_>,
    location: Option<&DeliveryLocation>,
    own_pdf: Option<&str>,
) -> Vec<Finding> {
    let w = written(doc);
    let mut f = Found::default();
    document_rules(doc, &mut f);
    party_rules(roles, &mut f);
    delivery_rules(location, &w, doc, &mut f);
    line_rules(doc, &w, &mut f);
    allowance_rules(&w, &mut f);
    currency_rules(&w, &mut f);
    sum_rules(&w, &mut f);
    category_rules(&w, roles, &mut f);
    super::national::national_rules(doc, kind, roles, location, own_pdf, &mut f);
    f.finish()
}

fn document_rules(doc: &Document, f: &mut Found) {
    if filled(&doc.buyer_reference).is_none() && filled(&doc.order_number).is_none() {
        f.at("PEPPOL-EN16931-R003", &["buyer_reference"]);
    }
}

/// The rules on one party: name, address, electronic address, VAT and legal
/// registration numbers.
fn party(p: &Party, key: &str, seller: bool, f: &mut Found) {
    let [name_rule, address_rule, country_rule, endpoint_rule] = if seller {
        ["BR-06", "BR-08", "BR-09", "PEPPOL-EN16931-R020"]
    } else {
        ["BR-07", "BR-10", "BR-11", "PEPPOL-EN16931-R010"]
    };
    if filled(&p.name).is_none() {
        f.at(name_rule, &[key, "name"]);
    }
    match p.address.as_ref().filter(|a| !a.is_blank()) {
        None => f.at(address_rule, &[key, "address"]),
        Some(a) => {
            if filled(&a.country_code).is_none() {
                f.at(country_rule, &[key, "address"]);
            }
            country_code_rules(a, &[key, "address"], f);
        }
    }
    match endpoint(p) {
        None => f.at(endpoint_rule, &[key, "peppol_id"]),
        Some((scheme, value)) => {
            if !listed(codes::EAS, &normalize_space(scheme)) {
                f.at("BR-CL-25", &[key, "peppol_id"]);
            }
            if !listed(codes::PEPPOL_EAS, scheme) {
                f.at("PEPPOL-EN16931-CL008", &[key, "peppol_id"]);
            }
            scheme_value_rules(scheme, value, &[key, "peppol_id"], f);
        }
    }
    if let Some(e) = filled(&p.enterprise_number) {
        scheme_value_rules("0208", e, &[key, "enterprise_number"], f);
    }
    if let Some(vat) = filled(&p.vat_number) {
        // BR-CO-09 looks the first two characters up *inside* the list's text
        // (`contains(' 1A AD … ZW ', substring(CompanyID, 1, 2))`), without the spaces
        // around them: `E ` or a lone `B` pass, as they do in the XSLT.
        let prefix: String = vat.chars().take(2).collect();
        if !vat_prefix_list().contains(prefix.as_str()) {
            f.at("BR-CO-09", &[key, "vat_number"]);
        }
    }
}

fn country_code_rules(a: &Address, path: &[&str], f: &mut Found) {
    if let Some(cc) = filled(&a.country_code) {
        if !listed(codes::COUNTRIES, &normalize_space(cc)) {
            f.at("BR-CL-14", path);
        }
    }
}

/// The text BR-CO-09 searches: its codes (the countries and `EL`), each with a space
/// on both sides. Their order cannot change what a search of one or two characters
/// finds: each such text lies inside a code or touches one of its spaces.
fn vat_prefix_list() -> &'static str {
    static LIST: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    LIST.get_or_init(|| format!(" {} EL ", codes::COUNTRIES.join(" ")))
}

/// PEPPOL-COMMON-R040 to R053: the value checks of the identifier schemes (the fatal
/// ones).
fn scheme_value_rules(scheme: &str, value: &str, path: &[&str], f: &mut Found) {
    let v = normalize_space(value);
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let digits = |s: &str, n: usize| s.len() == n && all_digits(s);
    let dk = |s: &str| s.len() == 10 && s.starts_with("DK") && s.get(2..).is_some_and(all_digits);
    let (ok, rule) = match scheme {
        "0088" => (
            !v.is_empty() && all_digits(&v) && gln(&v),
            "PEPPOL-COMMON-R040",
        ),
        "0192" => (digits(&v, 9) && mod11(&v), "PEPPOL-COMMON-R041"),
        "0184" => (dk(value) || digits(value, 8), "PEPPOL-COMMON-R042"),
        "0208" => (digits(&v, 10) && mod97_0208(&v), "PEPPOL-COMMON-R043"),
        "0007" => (
            v.chars().count() == 10 && swedish_orgnr(&v),
            "PEPPOL-COMMON-R049",
        ),
        "0096" => (digits(value, 10), "PEPPOL-COMMON-R052"),
        "0198" => (dk(value), "PEPPOL-COMMON-R053"),
        // found by fuzzing `ubl_writer`: the only other fatal one (R044 to R047, R054,
        // R055 and R057 are warnings)
        "0151" => (digits(&v, 11) && abn(&v), "PEPPOL-COMMON-R050"),
        _ => return,
    };
    if !ok {
        f.at(rule, path);
    }
}

fn party_rules(roles: &Roles<'_>, f: &mut Found) {
    party(roles.seller, roles.seller_key, true, f);
    party(roles.buyer, roles.buyer_key, false, f);
    let seller = roles.seller;
    if filled(&seller.vat_number).is_none() && filled(&seller.enterprise_number).is_none() {
        f.at("BR-CO-26", &[roles.seller_key, "vat_number"]);
    }
    if filled(&seller.iban).is_none() {
        f.at("BR-61", &[roles.seller_key, "iban"]);
    }
    for (p, key) in [(seller, roles.seller_key), (roles.buyer, roles.buyer_key)] {
        if is_empty_party(p) {
            f.at("PEPPOL-EN16931-R008", &[key]);
        }
    }
}

/// Whether nothing of the party is written (an empty `cac:Party`).
fn is_empty_party(p: &Party) -> bool {
    endpoint(p).is_none()
        && filled(&p.name).is_none()
        && p.address.as_ref().is_none_or(Address::is_blank)
        && filled(&p.vat_number).is_none()
        && filled(&p.enterprise_number).is_none()
        && filled(&p.email).is_none()
}

fn delivery_rules(location: Option<&DeliveryLocation>, w: &Written, doc: &Document, f: &mut Found) {
    let loc = ["delivery_location_id"];
    let address = location
        .and_then(|l| l.address.as_ref())
        .filter(|a| !a.is_blank());
    if let Some(l) = location {
        if filled(&l.identifier).is_some() {
            if let Some(scheme) = filled(&l.identifier_scheme) {
                if !listed(codes::ICD, &normalize_space(scheme)) {
                    f.at("BR-CL-26", &loc);
                }
            }
        }
    }
    if let Some(a) = address {
        if filled(&a.country_code).is_none() {
            f.at("BR-57", &loc);
        }
        country_code_rules(a, &loc, f);
    }
    if w.groups.iter().any(|g| g.category == "K") {
        let has_period = doc.period_start.is_some() || doc.period_end.is_some();
        if doc.delivery_date.is_none() && !has_period {
            f.at("BR-IC-11", &["delivery_date"]);
        }
        let country_len = address
            .and_then(|a| filled(&a.country_code))
            .map_or(0, |c| c.chars().count());
        if country_len <= 1 {
            f.at("BR-IC-12", &loc);
        }
    }
}

fn line_rules(doc: &Document, w: &Written, f: &mut Found) {
    for (i, (line, wl)) in doc.lines.iter().zip(&w.lines).enumerate() {
        let at = || Loc::root("lines").index(i);
        if filled(&line.item_name).is_none() {
            f.add("BR-25", at().key("item_name"));
        }
        let unit = filled(&line.unit_code).unwrap_or("C62");
        if !listed(codes::UNITS, &normalize_space(unit)) {
            f.add("BR-CL-23", at().key("unit_code"));
        }
        if line.item_properties.is_some() && item_properties(line).iter().any(|(_, v)| v.is_none())
        {
            f.add("BR-54", at().key("item_properties"));
        }
        if wl.price.is_sign_negative() && !wl.price.is_zero() {
            f.add("BR-27", at().key("unit_price"));
        }
        let r120 = R120Line {
            net: Num::Val(wl.net),
            quantity: Num::Val(wl.quantity),
            price: Num::Val(wl.price),
            // no cbc:BaseQuantity is written
            base_quantity: Num::Absent,
        };
        let acs = wl.acs.iter().map(|a| (Some(a.charge), Num::Val(a.amount)));
        if sums::r120(r120, acs) != Ok(true) {
            f.add("PEPPOL-EN16931-R120", at());
        }
    }
}

fn allowance_rules(w: &Written, f: &mut Found) {
    let all = w.acs.iter().chain(w.lines.iter().flat_map(|l| &l.acs));
    for ac in all {
        if let (Some(rate), Some(base)) = (ac.rate, ac.base) {
            let expected = base.checked_mul(rate).map(|x| x / Decimal::ONE_HUNDRED);
            if expected.and_then(|e| slack(e, ac.amount, sums::SLACK)) != Some(true) {
                f.add("PEPPOL-EN16931-R040", ac.place.loc());
            }
        }
        if let Some(code) = &ac.code {
            let (list, rule) = if ac.charge {
                (codes::PEPPOL_CHARGE_CODES, "PEPPOL-EN16931-CL003")
            } else {
                (codes::PEPPOL_ALLOWANCE_CODES, "PEPPOL-EN16931-CL002")
            };
            if !listed(list, code) {
                f.add(rule, ac.place.loc());
            }
        }
    }
}

/// The decimals rules of an allowance or charge written on the document: (charge
/// amount, charge base), (allowance amount, allowance base).
const DOCUMENT_DEC: [(&str, &str); 2] = [("BR-DEC-05", "BR-DEC-06"), ("BR-DEC-01", "BR-DEC-02")];

/// The same on a line.
const LINE_DEC: [(&str, &str); 2] = [("BR-DEC-27", "BR-DEC-28"), ("BR-DEC-24", "BR-DEC-25")];

/// The rules a currency breaks: more than 2 decimals (UBL-DT-01 and the BR-DEC rule
/// of each amount written), or a code the lists lack.
fn currency_rules(w: &Written, f: &mut Found) {
    let code = w.currency.code();
    if !listed(codes::CEN_CURRENCIES, code) {
        f.at("BR-CL-03", &["currency"]);
        f.at("BR-CL-04", &["currency"]);
    }
    if !listed(codes::PEPPOL_CURRENCIES, code) {
        f.at("PEPPOL-EN16931-CL007", &["currency"]);
    }
    if w.currency.minor_unit() <= 2 {
        return;
    }
    // BR-DEC-13 is not among them: its test reads the currency relative to the tax
    // amount (`TaxAmount[@currencyID = cbc:DocumentCurrencyCode]`), so it never fires.
    let mut rules = vec![
        "UBL-DT-01",
        "BR-DEC-09",
        "BR-DEC-12",
        "BR-DEC-14",
        "BR-DEC-18",
        "BR-DEC-23",
    ];
    if !w.groups.is_empty() {
        rules.extend(["BR-DEC-19", "BR-DEC-20"]);
    }
    if w.allowance_total.is_some() {
        rules.push("BR-DEC-10");
    }
    if w.charge_total.is_some() {
        rules.push("BR-DEC-11");
    }
    if w.prepaid.is_some() {
        rules.push("BR-DEC-16");
    }
    let acs = (w.acs.iter().map(|ac| (ac, DOCUMENT_DEC)))
        .chain(w.lines.iter().flat_map(|l| &l.acs).map(|ac| (ac, LINE_DEC)));
    for (ac, [charge, allowance]) in acs {
        let (amount, base) = if ac.charge { charge } else { allowance };
        rules.push(amount);
        if ac.base.is_some() {
            rules.push(base);
        }
    }
    for rule in rules {
        f.at(rule, &["currency"]);
    }
}

/// The totals as written (no BT-114 rounding amount is ever written).
fn totals(w: &Written) -> Totals {
    Totals {
        line_extension: Num::Val(w.line_total),
        tax_exclusive: Num::Val(w.tax_exclusive),
        tax_inclusive: Num::Val(w.tax_inclusive),
        allowance_total: Num::of(w.allowance_total),
        charge_total: Num::of(w.charge_total),
        prepaid: Num::of(w.prepaid),
        rounding: Num::Absent,
        payable: Num::Val(w.payable),
    }
}

/// A written breakdown group as the rules read it (every written category is VAT).
fn group(g: &WrittenGroup) -> Group {
    Group {
        taxable: Num::Val(g.taxable),
        tax: Num::Val(g.tax),
        vat_percent: Some(Num::of(g.percent)),
    }
}

/// BR-CO-10 to BR-CO-16 (`en16931::sums`) over the written totals, and BR-CO-17 over
/// each group. A rule the sums cannot test (past the decimal range, which the
/// writer's amounts below 10^15 never reach) is a finding.
fn sum_rules(w: &Written, f: &mut Found) {
    let t = totals(w);
    let doc_acs = |charge: bool| {
        w.acs
            .iter()
            .filter(move |a| a.charge == charge)
            .map(|a| Num::Val(a.amount))
    };
    let taxes = w.groups.iter().map(|g| Num::Val(g.tax));
    let co_14 = if w.groups.is_empty() {
        Ok(true)
    } else {
        sums::br_co_14(Num::Val(w.tax_total), taxes)
    };
    for (rule, outcome) in [
        (
            "BR-CO-10",
            sums::br_co_10(&t, w.lines.iter().map(|l| Num::Val(l.net))),
        ),
        ("BR-CO-11", sums::br_co_11_12(&t, false, doc_acs(false))),
        ("BR-CO-12", sums::br_co_11_12(&t, true, doc_acs(true))),
        ("BR-CO-13", sums::br_co_13(&t)),
        ("BR-CO-14", co_14),
        ("BR-CO-15", sums::br_co_15(&t, Num::Val(w.tax_total))),
        ("BR-CO-16", sums::br_co_16(&t)),
    ] {
        if outcome != Ok(true) {
            f.at(rule, &["currency"]);
        }
    }
    for g in &w.groups {
        if sums::br_co_17(group(g)) != Ok(true) {
            f.at("BR-CO-17", &[]);
        }
    }
}

/// The rules of each VAT category (BR-S/Z/E/AE/IC/G/O): one breakdown group per
/// category, the VAT numbers a category needs (or forbids), the sums of each group.
fn category_rules(w: &Written, roles: &Roles<'_>, f: &mut Found) {
    let seller_vat = filled(&roles.seller.vat_number).is_some();
    let buyer_vat = filled(&roles.buyer.vat_number).is_some();
    let buyer_legal = filled(&roles.buyer.enterprise_number).is_some();
    let seller_vat_loc = [roles.seller_key, "vat_number"];
    let buyer_vat_loc = [roles.buyer_key, "vat_number"];
    let in_lines = |cat: &str| w.lines.iter().any(|l| l.category == cat);
    let in_acs = |cat: &str, charge: bool| {
        w.acs
            .iter()
            .any(|a| a.charge == charge && a.category.is_some_and(|(c, _)| c == cat))
    };
    let groups_of = |cat: &str| w.groups.iter().filter(|g| g.category == cat).count();
    for (cat, prefix) in [
        ("S", "BR-S"),
        ("Z", "BR-Z"),
        ("E", "BR-E"),
        ("AE", "BR-AE"),
        ("K", "BR-IC"),
        ("G", "BR-G"),
        ("O", "BR-O"),
    ] {
        let present =
            in_lines(cat) || in_acs(cat, true) || in_acs(cat, false) || groups_of(cat) > 0;
        if cat != "S" && present && groups_of(cat) != 1 {
            f.at(&format!("{prefix}-01"), &[]);
        }
        for (n, used) in [
            ("02", in_lines(cat)),
            ("03", in_acs(cat, false)),
            ("04", in_acs(cat, true)),
        ] {
            if !used {
                continue;
            }
            let rule = format!("{prefix}-{n}");
            match cat {
                "O" => {
                    if seller_vat {
                        f.at(&rule, &seller_vat_loc);
                    }
                    if buyer_vat {
                        f.at(&rule, &buyer_vat_loc);
                    }
                }
                "AE" => {
                    if !seller_vat {
                        f.at(&rule, &seller_vat_loc);
                    }
                    if !buyer_vat && !buyer_legal {
                        f.at(&rule, &buyer_vat_loc);
                    }
                }
                "K" => {
                    if !seller_vat {
                        f.at(&rule, &seller_vat_loc);
                    }
                    if !buyer_vat {
                        f.at(&rule, &buyer_vat_loc);
                    }
                }
                _ => {
                    if !seller_vat {
                        f.at(&rule, &seller_vat_loc);
                    }
                }
            }
        }
    }
    category_sums(w, f);
    not_subject_rules(w, f);
}

/// BR-x-08 (`en16931::sums`: the group's taxable amount against its lines and
/// document allowance shares; per rate and within 1 for S) and BR-x-09 (no VAT
/// outside S). The lines count as invoice lines whatever the document: the rules read
/// invoice and credit note lines alike.
fn category_sums(w: &Written, f: &mut Found) {
    let mut idx = Index::new(!w.lines.is_empty(), false);
    for l in &w.lines {
        idx.line(l.category, Num::of(l.percent), false, Num::Val(l.net));
    }
    for a in &w.acs {
        if let Some((category, percent)) = a.category {
            idx.document_ac(
                category,
                Num::of(percent),
                Some(a.charge),
                Num::Val(a.amount),
            );
        }
    }
    for g in &w.groups {
        let (prefix, outcome) = match g.category {
            "S" => ("BR-S", idx.br_s_08(group(g))),
            "Z" => ("BR-Z", idx.br_x_08("Z", Num::Val(g.taxable))),
            "E" => ("BR-E", idx.br_x_08("E", Num::Val(g.taxable))),
            "AE" => ("BR-AE", idx.br_x_08("AE", Num::Val(g.taxable))),
            "K" => ("BR-IC", idx.br_x_08("K", Num::Val(g.taxable))),
            "G" => ("BR-G", idx.br_x_08("G", Num::Val(g.taxable))),
            "O" => ("BR-O", idx.br_x_08("O", Num::Val(g.taxable))),
            _ => continue,
        };
        if outcome != Ok(true) {
            f.at(&format!("{prefix}-08"), &[]);
        }
        if g.category != "S" && !g.tax.is_zero() {
            f.at(&format!("{prefix}-09"), &[]);
        }
    }
}

/// BR-O-11 to BR-O-14: a not-subject document has no other category.
fn not_subject_rules(w: &Written, f: &mut Found) {
    if !w.groups.iter().any(|g| g.category == "O") {
        return;
    }
    if w.groups.iter().any(|g| g.category != "O") {
        f.at("BR-O-11", &[]);
    }
    if w.lines.iter().any(|l| l.category != "O") {
        f.at("BR-O-12", &[]);
    }
    let other = |charge: bool| {
        w.acs
            .iter()
            .any(|a| a.charge == charge && a.category.is_some_and(|(c, _)| c != "O"))
    };
    if other(false) {
        f.at("BR-O-13", &[]);
    }
    if other(true) {
        f.at("BR-O-14", &[]);
    }
}

#[cfg(test)]
mod tests;
