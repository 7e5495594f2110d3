//! The EN 16931 sums a received document's stated amounts must satisfy, tested as the
//! official XSLT of the validation kit (release 2026.5) tests them: the closed list of
//! peppol.md §4.
//!
//! XPath semantics emulated: `xs:decimal` arithmetic is exact; `round` goes half
//! toward +∞ (`floor(x + 0.5)`); a comparison with a missing value is false; `sum` of
//! nothing is 0; `every` over nothing is true. A rule whose inputs include a value that
//! cannot be read is not tested (the `unreadable` check already says why); neither is
//! one whose sums overflow the 28 digits of a `Decimal` (an `unreadable` check says so).

use super::reader::{Ac, Facts, LineFacts, Num, Root, Subtotal};
use super::Check;
use rust_decimal::{Decimal, RoundingStrategy};
use std::collections::BTreeSet;

/// Every rule of the closed list with its text as the kit words it (the validator's
/// `svrl:text`, whitespace normalised).
pub const RULES: [(&str, &str); 17] = [
    ("BR-CO-10", "[BR-CO-10]-Sum of Invoice line net amount (BT-106) = Σ Invoice line net amount (BT-131)."),
    ("BR-CO-11", "[BR-CO-11]-Sum of allowances on document level (BT-107) = Σ Document level allowance amount (BT-92)."),
    ("BR-CO-12", "[BR-CO-12]-Sum of charges on document level (BT-108) = Σ Document level charge amount (BT-99)."),
    ("BR-CO-13", "[BR-CO-13]-Invoice total amount without VAT (BT-109) = Σ Invoice line net amount (BT-131) - Sum of allowances on document level (BT-107) + Sum of charges on document level (BT-108)."),
    ("BR-CO-14", "[BR-CO-14]-Invoice total VAT amount (BT-110) = Σ VAT category tax amount (BT-117)."),
    ("BR-CO-15", "[BR-CO-15]-Invoice total amount with VAT (BT-112) = Invoice total amount without VAT (BT-109) + Invoice total VAT amount (BT-110)."),
    ("BR-CO-16", "[BR-CO-16]-Amount due for payment (BT-115) = Invoice total amount with VAT (BT-112) -Paid amount (BT-113) +Rounding amount (BT-114)."),
    ("BR-CO-17", "[BR-CO-17]-VAT category tax amount (BT-117) = VAT category taxable amount (BT-116) x (VAT category rate (BT-119) / 100), rounded to two decimals."),
    ("BR-S-08", "[BR-S-08]-For each different value of VAT category rate (BT-119) where the VAT category code (BT-118) is \"Standard rated\", the VAT category taxable amount (BT-116) in a VAT breakdown (BG-23) shall equal the sum of Invoice line net amounts (BT-131) plus the sum of document level charge amounts (BT-99) minus the sum of document level allowance amounts (BT-92) where the VAT category code (BT-151, BT-102, BT-95) is \"Standard rated\" and the VAT rate (BT-152, BT-103, BT-96) equals the VAT category rate (BT-119)."),
    ("BR-S-09", "[BR-S-09]-The VAT category tax amount (BT-117) in a VAT breakdown (BG-23) where VAT category code (BT-118) is \"Standard rated\" shall equal the VAT category taxable amount (BT-116) multiplied by the VAT category rate (BT-119)."),
    ("BR-Z-08", "[BR-Z-08]-In a VAT breakdown (BG-23) where VAT category code (BT-118) is \"Zero rated\" the VAT category taxable amount (BT-116) shall equal the sum of Invoice line net amount (BT-131) minus the sum of Document level allowance amounts (BT-92) plus the sum of Document level charge amounts (BT-99) where the VAT category codes (BT-151, BT-95, BT-102) are \"Zero rated\"."),
    ("BR-E-08", "[BR-E-08]-In a VAT breakdown (BG-23) where the VAT category code (BT-118) is \"Exempt from VAT\" the VAT category taxable amount (BT-116) shall equal the sum of Invoice line net amounts (BT-131) minus the sum of Document level allowance amounts (BT-92) plus the sum of Document level charge amounts (BT-99) where the VAT category codes (BT-151, BT-95, BT-102) are \"Exempt from VAT\"."),
    ("BR-AE-08", "[BR-AE-08]-In a VAT breakdown (BG-23) where the VAT category code (BT-118) is \"Reverse charge\" the VAT category taxable amount (BT-116) shall equal the sum of Invoice line net amounts (BT-131) minus the sum of Document level allowance amounts (BT-92) plus the sum of Document level charge amounts (BT-99) where the VAT category codes (BT-151, BT-95, BT-102) are \"Reverse charge\"."),
    ("BR-IC-08", "[BR-IC-08]-In a VAT breakdown (BG-23) where the VAT category code (BT-118) is \"Intra-community supply\" the VAT category taxable amount (BT-116) shall equal the sum of Invoice line net amounts (BT-131) minus the sum of Document level allowance amounts (BT-92) plus the sum of Document level charge amounts (BT-99) where the VAT category codes (BT-151, BT-95, BT-102) are \"Intra-community supply\"."),
    ("BR-G-08", "[BR-G-08]-In a VAT breakdown (BG-23) where the VAT category code (BT-118) is \"Export outside the EU\" the VAT category taxable amount (BT-116) shall equal the sum of Invoice line net amounts (BT-131) minus the sum of Document level allowance amounts (BT-92) plus the sum of Document level charge amounts (BT-99) where the VAT category codes (BT-151, BT-95, BT-102) are \"Export outside the EU\"."),
    ("BR-O-08", "[BR-O-08]-In a VAT breakdown (BG-23) where the VAT category code (BT-118) is \" Not subject to VAT\" the VAT category taxable amount (BT-116) shall equal the sum of Invoice line net amounts (BT-131) minus the sum of Document level allowance amounts (BT-92) plus the sum of Document level charge amounts (BT-99) where the VAT category codes (BT-151, BT-95, BT-102) are \"Not subject to VAT\"."),
    ("PEPPOL-EN16931-R120", "[PEPPOL-EN16931-R120]-Invoice line net amount MUST equal (Invoiced quantity * (Item net price/item price base quantity) + Sum of invoice line charge amount - sum of invoice line allowance amount"),
];

/// The categories of the "-08" rules that compare for equality, with their rule.
const EQUAL_08: [(&str, &str); 6] = [
    ("Z", "BR-Z-08"),
    ("E", "BR-E-08"),
    ("AE", "BR-AE-08"),
    ("K", "BR-IC-08"),
    ("G", "BR-G-08"),
    ("O", "BR-O-08"),
];

/// Why a rule was not tested.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Skip {
    /// A value it reads is present but unreadable.
    Unreadable,
    /// Its arithmetic leaves the range of a `Decimal`.
    Overflow,
}

type R<T> = Result<T, Skip>;

/// A stated value: `None` when absent; an unreadable one skips the rule.
fn val(n: Num) -> R<Option<Decimal>> {
    match n {
        Num::Absent => Ok(None),
        Num::Bad => Err(Skip::Unreadable),
        Num::Val(v) => Ok(Some(v)),
    }
}

fn add(a: Decimal, b: Decimal) -> R<Decimal> {
    a.checked_add(b).ok_or(Skip::Overflow)
}

fn sub(a: Decimal, b: Decimal) -> R<Decimal> {
    a.checked_sub(b).ok_or(Skip::Overflow)
}

fn mul(a: Decimal, b: Decimal) -> R<Decimal> {
    a.checked_mul(b).ok_or(Skip::Overflow)
}

/// XPath `round`: half toward +∞.
fn xround(x: Decimal) -> R<Decimal> {
    Ok(add(x, Decimal::new(5, 1))?.floor())
}

/// `round(x * 10 * 10) div 100`.
fn r2(x: Decimal) -> R<Decimal> {
    let hundred = Decimal::ONE_HUNDRED;
    xround(mul(x, hundred)?)?
        .checked_div(hundred)
        .ok_or(Skip::Overflow)
}

/// XPath `sum` of the stated values (absent ones add nothing).
fn sum(values: impl Iterator<Item = Num>) -> R<Decimal> {
    let mut total = Decimal::ZERO;
    for n in values {
        if let Some(v) = val(n)? {
            total = add(total, v)?;
        }
    }
    Ok(total)
}

/// `abs(a) - 1 < x and abs(a) + 1 > x` (BR-S-08 with `a` the taxable amount, and
/// BR-CO-17 and BR-S-09 with `a` the tax amount after `abs`).
fn within_one(a: Decimal, x: Decimal) -> R<bool> {
    Ok(sub(a, Decimal::ONE)? < x && add(a, Decimal::ONE)? > x)
}

/// `round(abs(taxable) * (rate div 100) * 10 * 10) div 100`.
fn tax_of(taxable: Decimal, rate: Decimal) -> R<Decimal> {
    let per_cent = rate
        .checked_div(Decimal::ONE_HUNDRED)
        .ok_or(Skip::Overflow)?;
    r2(mul(taxable.abs(), per_cent)?)
}

/// The rules of the closed list the document breaks, with the notes of the rules that
/// could not be tested for overflow.
pub(crate) fn run(f: &Facts) -> (BTreeSet<&'static str>, Vec<Check>) {
    let mut failed = BTreeSet::new();
    let mut notes = Vec::new();
    let mut record = |rule: &'static str, outcome: R<bool>| match outcome {
        Ok(true) | Err(Skip::Unreadable) => {}
        Ok(false) => {
            failed.insert(rule);
        }
        Err(Skip::Overflow) => {
            let msg = format!("{rule} cannot be tested: its amounts are too large to add up");
            if !notes.iter().any(|c: &Check| c.msg == msg) {
                notes.push(Check::unreadable(msg));
            }
        }
    };
    if f.totals.is_some() {
        record("BR-CO-10", br_co_10(f));
        record("BR-CO-11", br_co_11_12(f, false));
        record("BR-CO-12", br_co_11_12(f, true));
        record("BR-CO-13", br_co_13(f));
        record("BR-CO-16", br_co_16(f));
    }
    for t in f.tax_totals.iter().filter(|t| !t.subtotals.is_empty()) {
        let outcome = (|| {
            let stated = val(t.amount)?;
            let computed = r2(sum(t.subtotals.iter().map(|s| s.tax))?)?;
            Ok(stated == Some(computed))
        })();
        record("BR-CO-14", outcome);
    }
    for currency in &f.currencies {
        record("BR-CO-15", br_co_15(f, currency));
    }
    let all_subtotals = f
        .tax_totals
        .iter()
        .flat_map(|t| t.subtotals.iter())
        .chain(f.nested_subtotals.iter());
    for s in all_subtotals {
        record("BR-CO-17", br_co_17(s));
    }
    for s in f.tax_totals.iter().flat_map(|t| t.subtotals.iter()) {
        let c = &s.category;
        if !c.seen || !c.is_vat() {
            continue;
        }
        let Some(id) = c.id.as_deref() else { continue };
        if id == "S" {
            record("BR-S-08", br_s_08(f, s));
            record("BR-S-09", br_s_09(s));
        } else if let Some((_, rule)) = EQUAL_08.iter().find(|(cat, _)| *cat == id) {
            record(rule, br_x_08(f, s, id));
        }
    }
    for line in &f.lines {
        record("PEPPOL-EN16931-R120", r120(f.root, line));
    }
    (failed, notes)
}

fn br_co_10(f: &Facts) -> R<bool> {
    let Some(t) = f.totals else { return Ok(true) };
    let stated = val(t.line_extension)?;
    let computed = r2(sum(f.lines.iter().map(|l| l.net))?)?;
    Ok(stated == Some(computed))
}

/// The document-level allowances (`charge` false) or charges (`charge` true).
fn doc_acs(f: &Facts, charge: bool) -> impl Iterator<Item = &Ac> {
    f.allowance_charges
        .iter()
        .filter(move |ac| ac.is_charge() == Some(charge))
}

fn br_co_11_12(f: &Facts, charge: bool) -> R<bool> {
    let Some(t) = f.totals else { return Ok(true) };
    let stated = if charge {
        t.charge_total
    } else {
        t.allowance_total
    };
    let computed = r2(sum(doc_acs(f, charge).map(|ac| ac.amount))?)?;
    let equal = val(stated)? == Some(computed);
    Ok(equal || (!stated.exists() && doc_acs(f, charge).next().is_none()))
}

fn br_co_13(f: &Facts) -> R<bool> {
    let Some(t) = f.totals else { return Ok(true) };
    let tea = val(t.tax_exclusive)?;
    let lea = val(t.line_extension)?;
    let ata = val(t.allowance_total)?;
    let cta = val(t.charge_total)?;
    let (Some(tea), Some(lea)) = (tea, lea) else {
        return Ok(false);
    };
    Ok(
        match (t.charge_total.exists(), t.allowance_total.exists()) {
            (true, true) => match (cta, ata) {
                (Some(c), Some(a)) => tea == r2(sub(add(lea, c)?, a)?)?,
                _ => false,
            },
            (false, true) => match ata {
                Some(a) => tea == r2(sub(lea, a)?)?,
                None => false,
            },
            (true, false) => match cta {
                Some(c) => tea == r2(add(lea, c)?)?,
                None => false,
            },
            (false, false) => tea == lea,
        },
    )
}

fn br_co_15(f: &Facts, currency: &str) -> R<bool> {
    let matching: Vec<Num> = f
        .tax_totals
        .iter()
        .filter(|t| t.amount.exists() && t.currency.as_deref() == Some(currency))
        .map(|t| t.amount)
        .collect();
    let [amount] = matching[..] else {
        return Ok(false);
    };
    let Some(t) = f.totals else { return Ok(false) };
    let tia = val(t.tax_inclusive)?;
    let tea = val(t.tax_exclusive)?;
    let amount = val(amount)?;
    let (Some(tia), Some(tea), Some(amount)) = (tia, tea, amount) else {
        return Ok(false);
    };
    Ok(tia == r2(add(tea, amount)?)?)
}

fn br_co_16(f: &Facts) -> R<bool> {
    let Some(t) = f.totals else { return Ok(true) };
    let payable = val(t.payable)?;
    let tia = val(t.tax_inclusive)?;
    let prepaid = val(t.prepaid)?;
    let rounding = val(t.rounding)?;
    let (Some(payable), Some(tia)) = (payable, tia) else {
        return Ok(false);
    };
    Ok(match (prepaid, rounding) {
        (Some(p), None) if !t.rounding.exists() => payable == r2(sub(tia, p)?)?,
        (None, None) if !t.prepaid.exists() && !t.rounding.exists() => payable == tia,
        (Some(p), Some(r)) => r2(sub(payable, r)?)? == r2(sub(tia, p)?)?,
        (None, Some(r)) if !t.prepaid.exists() => r2(sub(payable, r)?)? == tia,
        _ => false,
    })
}

fn br_co_17(s: &Subtotal) -> R<bool> {
    // cac:TaxCategory[cac:TaxScheme/normalize-space(upper-case(cbc:ID))='VAT']/cbc:Percent
    let percent = if s.category.seen && s.category.is_vat() {
        val(s.category.percent)?
    } else {
        None
    };
    let tax = val(s.tax)?;
    let Some(tax) = tax else { return Ok(false) };
    match percent {
        None => Ok(xround(tax)?.is_zero()),
        Some(p) if xround(p)?.is_zero() => Ok(xround(tax)?.is_zero()),
        Some(p) => match val(s.taxable)? {
            Some(taxable) => within_one(tax.abs(), tax_of(taxable, p)?),
            None => Ok(false),
        },
    }
}

fn br_s_09(s: &Subtotal) -> R<bool> {
    let p = val(s.category.percent)?;
    let tax = val(s.tax)?;
    let taxable = val(s.taxable)?;
    let (Some(p), Some(tax), Some(taxable)) = (p, tax, taxable) else {
        return Ok(false);
    };
    within_one(tax.abs(), tax_of(taxable, p)?)
}

/// Whether a stated category is `id` (and, given a rate, states that rate). An
/// unreadable rate compared with the rate skips the rule.
fn category_is(c: &super::reader::Category, id: &str, rate: Option<Decimal>) -> R<bool> {
    if !c.seen || c.id.as_deref() != Some(id) {
        return Ok(false);
    }
    match rate {
        None => Ok(true),
        Some(r) => Ok(val(c.percent)? == Some(r)),
    }
}

/// Σ line net amounts of the root's lines of one kind + Σ charges − Σ allowances of
/// the category (and rate).
fn category_sum(f: &Facts, credit: bool, id: &str, rate: Option<Decimal>) -> R<Decimal> {
    let mut total = Decimal::ZERO;
    for l in f.lines.iter().filter(|l| l.credit == credit) {
        if category_is(&l.category, id, rate)? {
            if let Some(v) = val(l.net)? {
                total = add(total, v)?;
            }
        }
    }
    for ac in &f.allowance_charges {
        if !category_is(&ac.category, id, rate)? {
            continue;
        }
        let Some(v) = val(ac.amount)? else { continue };
        match ac.is_charge() {
            Some(true) => total = add(total, v)?,
            Some(false) => total = sub(total, v)?,
            None => {}
        }
    }
    Ok(total)
}

fn br_s_08(f: &Facts, s: &Subtotal) -> R<bool> {
    // every $rate in xs:decimal(cbc:Percent): no Percent, nothing to test.
    let Some(rate) = val(s.category.percent)? else {
        return Ok(true);
    };
    let mut exists_invoice_line = false;
    let mut exists_credit_line = false;
    for l in &f.lines {
        if category_is(&l.category, "S", Some(rate))? {
            if l.credit {
                exists_credit_line = true;
            } else {
                exists_invoice_line = true;
            }
        }
    }
    let mut exists_ac = false;
    for ac in f
        .allowance_charges
        .iter()
        .chain(f.lines.iter().flat_map(|l| l.allowance_charges.iter()))
    {
        if category_is(&ac.category, "S", Some(rate))? {
            exists_ac = true;
        }
    }
    let Some(taxable) = val(s.taxable)? else {
        return Ok(false);
    };
    let on_invoice_lines = (exists_invoice_line || exists_ac)
        && within_one(taxable, category_sum(f, false, "S", Some(rate))?)?;
    let on_credit_lines = (exists_credit_line || exists_ac)
        && within_one(taxable, category_sum(f, true, "S", Some(rate))?)?;
    Ok(on_invoice_lines || on_credit_lines)
}

fn br_x_08(f: &Facts, s: &Subtotal, id: &str) -> R<bool> {
    let Some(taxable) = val(s.taxable)? else {
        return Ok(false);
    };
    let any_invoice_line = f.lines.iter().any(|l| !l.credit);
    let any_credit_line = f.lines.iter().any(|l| l.credit);
    let on_invoice_lines = any_invoice_line && taxable == category_sum(f, false, id, None)?;
    let on_credit_lines = any_credit_line && taxable == category_sum(f, true, id, None)?;
    Ok(on_invoice_lines || on_credit_lines)
}

/// `u:slack(net, quantity * (price div base) + charges - allowances, 0.02)`, with the
/// variables of the Peppol rule: a missing net or price is 0, a missing quantity 1, a
/// missing or zero base quantity 1; line allowances and charges are those whose
/// `normalize-space(cbc:ChargeIndicator)` is `false` / `true`, their sum rounded to 2
/// decimals. The quotient is truncated to 18 decimals, as Saxon divides decimals.
fn r120(root: Root, line: &LineFacts) -> R<bool> {
    let net = val(line.net)?.unwrap_or(Decimal::ZERO);
    let quantity = match root {
        Root::Invoice => line.invoiced_quantity,
        Root::CreditNote => line.credited_quantity,
    };
    let quantity = val(quantity)?.unwrap_or(Decimal::ONE);
    let price = val(line.price)?.unwrap_or(Decimal::ZERO);
    let base = match val(line.base_quantity)? {
        Some(b) if !b.is_zero() => b,
        _ => Decimal::ONE,
    };
    let side = |indicator: &str| -> R<Decimal> {
        let mut acs = line
            .allowance_charges
            .iter()
            .filter(|ac| ac.indicator.as_deref() == Some(indicator))
            .peekable();
        if acs.peek().is_none() {
            return Ok(Decimal::ZERO);
        }
        r2(sum(acs.map(|ac| ac.amount))?)
    };
    let allowances = side("false")?;
    let charges = side("true")?;
    let scale = price.scale().max(base.scale()).max(18);
    let quotient = price
        .checked_div(base)
        .ok_or(Skip::Overflow)?
        .round_dp_with_strategy(scale, RoundingStrategy::ToZero);
    let expected = sub(add(mul(quantity, quotient)?, charges)?, allowances)?;
    let slack = Decimal::new(2, 2);
    Ok(add(net, slack)? >= expected && sub(net, slack)? <= expected)
}

/// The text of a rule of the closed list.
pub(crate) fn text(rule: &str) -> &'static str {
    RULES
        .iter()
        .find(|(r, _)| *r == rule)
        .map_or("", |(_, t)| t)
}
