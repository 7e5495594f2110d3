//! The findings (docs/peppol.md §3, §6): the fatal rules of EN 16931 and Peppol BIS 3.0
//! that the written UBL breaks, each at the field a user must mend.

use super::writer::{accepted_code, category_percent, endpoint, has_kind, item_properties};
use super::{Roles, UblKind};
use crate::compute::{AllowanceKind, AllowanceValue};
use crate::context::DeliveryLocation;
use crate::document::Document;
use crate::en16931::xpath::{
    gln, mod11, mod97_0208, normalize_space, round, round2, swedish_orgnr,
};
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

/// The text BR-CO-09 searches: its codes in the rule's order, each with a space on
/// both sides.
fn vat_prefix_list() -> &'static str {
    static LIST: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    LIST.get_or_init(|| format!(" {} ", codes::VAT_PREFIXES.join(" ")))
}

/// PEPPOL-COMMON-R040 to R053: the value checks of the identifier schemes.
fn scheme_value_rules(scheme: &str, value: &str, path: &[&str], f: &mut Found) {
    let v = normalize_space(value);
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    let ok = match scheme {
        "0088" => !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) && gln(&v),
        "0192" => digits(&v, 9) && mod11(&v),
        "0184" => {
            let raw = value;
            (raw.len() == 10
                && raw.starts_with("DK")
                && raw
                    .get(2..10)
                    .is_some_and(|s| s.bytes().all(|b| b.is_ascii_digit())))
                || (raw.chars().count() == 8 && raw.chars().all(|c| c.is_ascii_digit()))
        }
        "0096" => value.chars().count() == 10 && value.chars().all(|c| c.is_ascii_digit()),
        "0198" => {
            value.len() == 10
                && value.starts_with("DK")
                && value
                    .get(2..10)
                    .is_some_and(|s| s.bytes().all(|b| b.is_ascii_digit()))
        }
        "0208" => digits(&v, 10) && mod97_0208(&v),
        "0007" => v.chars().count() == 10 && swedish_orgnr(&v),
        _ => return,
    };
    if !ok {
        let rule = match scheme {
            "0088" => "PEPPOL-COMMON-R040",
            "0192" => "PEPPOL-COMMON-R041",
            "0184" => "PEPPOL-COMMON-R042",
            "0096" => "PEPPOL-COMMON-R052",
            "0198" => "PEPPOL-COMMON-R053",
            "0007" => "PEPPOL-COMMON-R049",
            _ => "PEPPOL-COMMON-R043",
        };
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
        // PEPPOL-EN16931-R120: the net within 0.02 of quantity × price ± allowances and charges.
        let mut expected = wl.quantity.checked_mul(wl.price);
        for ac in &wl.acs {
            expected = expected.and_then(|e| {
                if ac.charge {
                    e.checked_add(ac.amount)
                } else {
                    e.checked_sub(ac.amount)
                }
            });
        }
        if !expected.is_some_and(|e| slack(wl.net, e)) {
            f.add("PEPPOL-EN16931-R120", at());
        }
    }
}

/// `u:slack(exp, val, 0.02)`.
fn slack(exp: Decimal, val: Decimal) -> bool {
    let s = Decimal::new(2, 2);
    match (exp.checked_add(s), exp.checked_sub(s)) {
        (Some(hi), Some(lo)) => hi >= val && lo <= val,
        _ => false,
    }
}

fn allowance_rules(w: &Written, f: &mut Found) {
    let all = w.acs.iter().chain(w.lines.iter().flat_map(|l| &l.acs));
    for ac in all {
        if let (Some(rate), Some(base)) = (ac.rate, ac.base) {
            let expected = base.checked_mul(rate).map(|x| x / Decimal::ONE_HUNDRED);
            if !expected.is_some_and(|e| slack(e, ac.amount)) {
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

/// The exact sum of amounts, `None` on overflow.
fn total(it: impl Iterator<Item = Decimal>) -> Option<Decimal> {
    let mut it = it;
    it.try_fold(Decimal::ZERO, Decimal::checked_add)
}

/// BR-CO-10 to BR-CO-16: the totals against the sums, the computed side rounded to
/// 2 decimals as the rules round it; and BR-CO-17, each group's VAT amount.
fn sum_rules(w: &Written, f: &mut Found) {
    let cur = ["currency"];
    let nets = total(w.lines.iter().map(|l| l.net));
    if nets.and_then(round2) != Some(w.line_total) {
        f.at("BR-CO-10", &cur);
    }
    let doc_sum = |charge: bool| {
        total(
            w.acs
                .iter()
                .filter(|a| a.charge == charge)
                .map(|a| a.amount),
        )
    };
    if let Some(total) = w.allowance_total {
        if doc_sum(false).and_then(round2) != Some(total) {
            f.at("BR-CO-11", &cur);
        }
    }
    if let Some(total) = w.charge_total {
        if doc_sum(true).and_then(round2) != Some(total) {
            f.at("BR-CO-12", &cur);
        }
    }
    let expected_exclusive = match (w.charge_total, w.allowance_total) {
        (None, None) => Some(w.line_total),
        (c, a) => w
            .line_total
            .checked_add(c.unwrap_or_default())
            .and_then(|x| x.checked_sub(a.unwrap_or_default()))
            .and_then(round2),
    };
    if expected_exclusive != Some(w.tax_exclusive) {
        f.at("BR-CO-13", &cur);
    }
    if total(w.groups.iter().map(|g| g.tax)).and_then(round2) != Some(w.tax_total) {
        f.at("BR-CO-14", &cur);
    }
    if w.tax_exclusive.checked_add(w.tax_total).and_then(round2) != Some(w.tax_inclusive) {
        f.at("BR-CO-15", &cur);
    }
    let expected_payable = match w.prepaid {
        Some(p) => w.tax_inclusive.checked_sub(p).and_then(round2),
        None => Some(w.tax_inclusive),
    };
    if expected_payable != Some(w.payable) {
        f.at("BR-CO-16", &cur);
    }
    for g in &w.groups {
        let ok = match g.percent {
            Some(p) if round(p).is_some_and(|r| r.is_zero()) => {
                round(g.tax).is_some_and(|r| r.is_zero())
            }
            Some(p) => {
                let expected = g
                    .taxable
                    .abs()
                    .checked_mul(p / Decimal::ONE_HUNDRED)
                    .and_then(round2);
                expected.is_some_and(|e| {
                    g.tax.abs() - Decimal::ONE < e && g.tax.abs() + Decimal::ONE > e
                })
            }
            None => round(g.tax).is_some_and(|r| r.is_zero()),
        };
        if !ok {
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

/// BR-x-08 (the group's taxable amount against its lines and shares; per rate and
/// within 1 for S) and BR-x-09 (no VAT outside S).
fn category_sums(w: &Written, f: &mut Found) {
    for g in &w.groups {
        let same = |cat: &str, pct: Option<Decimal>| {
            cat == g.category && (g.category != "S" || pct == g.percent)
        };
        let lines = w
            .lines
            .iter()
            .filter(|l| same(l.category, l.percent))
            .try_fold(Decimal::ZERO, |s, l| s.checked_add(l.net));
        let acs = w
            .acs
            .iter()
            .filter(|a| a.category.is_some_and(|(c, p)| same(c, p)))
            .try_fold(Decimal::ZERO, |s, a| {
                if a.charge {
                    s.checked_add(a.amount)
                } else {
                    s.checked_sub(a.amount)
                }
            });
        let expected = lines.zip(acs).and_then(|(l, a)| l.checked_add(a));
        let prefix = match g.category {
            "S" => "BR-S",
            "Z" => "BR-Z",
            "E" => "BR-E",
            "AE" => "BR-AE",
            "K" => "BR-IC",
            "G" => "BR-G",
            "O" => "BR-O",
            _ => continue,
        };
        let ok = if g.category == "S" {
            expected.is_some_and(|e| g.taxable - Decimal::ONE < e && g.taxable + Decimal::ONE > e)
        } else {
            expected == Some(g.taxable)
        };
        if !ok {
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
