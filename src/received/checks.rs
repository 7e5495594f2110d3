//! The EN 16931 sums a received document's stated amounts must satisfy, tested as the
//! official XSLT of the validation kit (release 2026.5) tests them: the closed list of
//! docs/peppol.md §4.
//!
//! XPath semantics emulated: `xs:decimal` arithmetic is exact; `round` goes half
//! toward +∞ (`floor(x + 0.5)`); a comparison with a missing value is false; `sum` of
//! nothing is 0; `every` over nothing is true. A rule whose inputs include a value that
//! cannot be read is not tested (the `unreadable` check already says why); neither is
//! one whose sums overflow the 28 digits of a `Decimal` (an `unreadable` check says so).

use super::facts::{Ac, Facts, LineFacts, Num, Root, Subtotal};
use super::lexical::Indicator;
use super::Check;
use crate::en16931::xpath;
use rust_decimal::{Decimal, RoundingStrategy};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Every rule of the closed list; their texts, as the kit words them, are the one
/// table of rules (`en16931::message`).
pub const RULES: [&str; 17] = [
    "BR-CO-10",
    "BR-CO-11",
    "BR-CO-12",
    "BR-CO-13",
    "BR-CO-14",
    "BR-CO-15",
    "BR-CO-16",
    "BR-CO-17",
    "BR-S-08",
    "BR-S-09",
    "BR-Z-08",
    "BR-E-08",
    "BR-AE-08",
    "BR-IC-08",
    "BR-G-08",
    "BR-O-08",
    "PEPPOL-EN16931-R120",
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
#[inline]
fn val(n: Num) -> R<Option<Decimal>> {
    match n {
        Num::Absent => Ok(None),
        Num::Bad => Err(Skip::Unreadable),
        Num::Val(v) => Ok(Some(v)),
    }
}

#[inline]
fn add(a: Decimal, b: Decimal) -> R<Decimal> {
    a.checked_add(b).ok_or(Skip::Overflow)
}

#[inline]
fn sub(a: Decimal, b: Decimal) -> R<Decimal> {
    a.checked_sub(b).ok_or(Skip::Overflow)
}

#[inline]
fn mul(a: Decimal, b: Decimal) -> R<Decimal> {
    a.checked_mul(b).ok_or(Skip::Overflow)
}

/// XPath `round`: half toward +∞ ([`xpath::round`]).
fn xround(x: Decimal) -> R<Decimal> {
    xpath::round(x).ok_or(Skip::Overflow)
}

/// `round(x * 10 * 10) div 100` ([`xpath::round2`]).
fn r2(x: Decimal) -> R<Decimal> {
    xpath::round2(x).ok_or(Skip::Overflow)
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
    let by_currency = tax_amounts_by_currency(f);
    let mut tested = std::collections::HashSet::new();
    for currency in &f.currencies {
        if tested.insert(currency.as_str()) {
            record("BR-CO-15", br_co_15(f, &by_currency, currency));
        }
    }
    let all_subtotals = f
        .tax_totals
        .iter()
        .flat_map(|t| t.subtotals.iter())
        .chain(f.nested_subtotals.iter());
    for s in all_subtotals {
        record("BR-CO-17", br_co_17(s));
    }
    let idx = Index::new(f);
    for s in f.tax_totals.iter().flat_map(|t| t.subtotals.iter()) {
        let c = &s.category;
        if !c.seen || !c.is_vat() {
            continue;
        }
        let Some(id) = c.id.as_deref() else { continue };
        if id == "S" {
            record("BR-S-08", br_s_08(&idx, s));
            record("BR-S-09", br_s_09(s));
        } else if let Some((_, rule)) = EQUAL_08.iter().find(|(cat, _)| *cat == id) {
            record(rule, br_x_08(&idx, s, id));
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

/// The root `cac:TaxTotal/cbc:TaxAmount`s by `currencyID`: how many, and the first.
fn tax_amounts_by_currency(f: &Facts) -> HashMap<&str, (usize, Num)> {
    let mut map: HashMap<&str, (usize, Num)> = HashMap::new();
    for t in f.tax_totals.iter().filter(|t| t.amount.exists()) {
        if let Some(c) = t.currency.as_deref() {
            let e = map.entry(c).or_insert((0, t.amount));
            e.0 += 1;
        }
    }
    map
}

fn br_co_15(f: &Facts, by_currency: &HashMap<&str, (usize, Num)>, currency: &str) -> R<bool> {
    let Some(&(1, amount)) = by_currency.get(currency) else {
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

/// Sums of one VAT category (and rate, for S): built once for the whole document, so
/// each breakdown entry is tested in constant time, whatever the number of lines.
#[derive(Debug, Clone, Copy)]
struct Agg {
    /// A root `cac:InvoiceLine` of the key exists.
    invoice_line: bool,
    /// A root `cac:CreditNoteLine` of the key exists.
    credit_line: bool,
    /// An allowance or charge (document or line level) of the key exists.
    any_ac: bool,
    /// Σ invoice line nets + Σ document charges − Σ document allowances of the key.
    invoice_sum: R<Decimal>,
    /// The same with the credit note lines.
    credit_sum: R<Decimal>,
}

impl Default for Agg {
    fn default() -> Agg {
        Agg {
            invoice_line: false,
            credit_line: false,
            any_ac: false,
            invoice_sum: Ok(Decimal::ZERO),
            credit_sum: Ok(Decimal::ZERO),
        }
    }
}

/// Adds (or subtracts) a stated value to a running sum; an unreadable value wins
/// over an overflow (the XSLT would stop on it).
fn acc(sum: &mut R<Decimal>, n: Num, negative: bool) {
    match (val(n), *sum) {
        (Err(e), _) => {
            if *sum != Err(Skip::Unreadable) {
                *sum = Err(e);
            }
        }
        (Ok(None), _) | (Ok(Some(_)), Err(_)) => {}
        (Ok(Some(v)), Ok(total)) => {
            *sum = if negative {
                sub(total, v)
            } else {
                add(total, v)
            };
        }
    }
}

/// The per-category and per-S-rate sums of the "-08" rules.
struct Index<'f> {
    by_category: BTreeMap<&'f str, Agg>,
    by_s_rate: BTreeMap<Decimal, Agg>,
    /// An S category of a line or an allowance states a rate that cannot be read:
    /// BR-S-08 compares every one with each rate.
    s_rate_unreadable: bool,
    any_invoice_line: bool,
    any_credit_line: bool,
}

impl<'f> Index<'f> {
    fn new(f: &'f Facts) -> Index<'f> {
        let mut idx = Index {
            by_category: BTreeMap::new(),
            by_s_rate: BTreeMap::new(),
            s_rate_unreadable: false,
            any_invoice_line: f.lines.iter().any(|l| !l.credit),
            any_credit_line: f.lines.iter().any(|l| l.credit),
        };
        for l in &f.lines {
            let Some(id) = l.category.id.as_deref().filter(|_| l.category.seen) else {
                continue;
            };
            let update = |agg: &mut Agg| {
                if l.credit {
                    agg.credit_line = true;
                    acc(&mut agg.credit_sum, l.net, false);
                } else {
                    agg.invoice_line = true;
                    acc(&mut agg.invoice_sum, l.net, false);
                }
            };
            update(idx.by_category.entry(id).or_default());
            if let Some(agg) = idx.s_rate_entry(id, l.category.percent) {
                update(agg);
            }
        }
        for ac in &f.allowance_charges {
            let Some(id) = ac.category.id.as_deref().filter(|_| ac.category.seen) else {
                continue;
            };
            let update = |agg: &mut Agg| {
                agg.any_ac = true;
                if let Some(charge) = ac.is_charge() {
                    acc(&mut agg.invoice_sum, ac.amount, !charge);
                    acc(&mut agg.credit_sum, ac.amount, !charge);
                }
            };
            update(idx.by_category.entry(id).or_default());
            if let Some(agg) = idx.s_rate_entry(id, ac.category.percent) {
                update(agg);
            }
        }
        for ac in f.lines.iter().flat_map(|l| l.allowance_charges.iter()) {
            let Some(id) = ac.category.id.as_deref().filter(|_| ac.category.seen) else {
                continue;
            };
            if let Some(agg) = idx.s_rate_entry(id, ac.category.percent) {
                agg.any_ac = true;
            }
        }
        idx
    }

    /// The sums of S at this stated rate (none for another category or no rate).
    fn s_rate_entry(&mut self, id: &str, percent: Num) -> Option<&mut Agg> {
        if id != "S" {
            return None;
        }
        match percent {
            // a `Decimal` orders by value whatever its scale: 21 and 21.00 are one key
            Num::Val(r) => Some(self.by_s_rate.entry(r).or_default()),
            Num::Bad => {
                self.s_rate_unreadable = true;
                None
            }
            Num::Absent => None,
        }
    }
}

fn br_s_08(idx: &Index<'_>, s: &Subtotal) -> R<bool> {
    // every $rate in xs:decimal(cbc:Percent): no Percent, nothing to test.
    let Some(rate) = val(s.category.percent)? else {
        return Ok(true);
    };
    if idx.s_rate_unreadable {
        return Err(Skip::Unreadable);
    }
    let Some(taxable) = val(s.taxable)? else {
        return Ok(false);
    };
    let agg = idx.by_s_rate.get(&rate).copied().unwrap_or_default();
    let on_invoice_lines =
        (agg.invoice_line || agg.any_ac) && within_one(taxable, agg.invoice_sum?)?;
    let on_credit_lines = (agg.credit_line || agg.any_ac) && within_one(taxable, agg.credit_sum?)?;
    Ok(on_invoice_lines || on_credit_lines)
}

fn br_x_08(idx: &Index<'_>, s: &Subtotal, id: &str) -> R<bool> {
    let Some(taxable) = val(s.taxable)? else {
        return Ok(false);
    };
    let agg = idx.by_category.get(id).copied().unwrap_or_default();
    let on_invoice_lines = idx.any_invoice_line && taxable == agg.invoice_sum?;
    let on_credit_lines = idx.any_credit_line && taxable == agg.credit_sum?;
    Ok(on_invoice_lines || on_credit_lines)
}

/// R120's tolerance, 0.02.
const SLACK: Decimal = Decimal::from_parts(2, 0, 0, false, 2);

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
    let side = |indicator: Indicator| -> R<Decimal> {
        let mut acs = line
            .allowance_charges
            .iter()
            .filter(|ac| ac.indicator == Some(indicator))
            .peekable();
        if acs.peek().is_none() {
            return Ok(Decimal::ZERO);
        }
        r2(sum(acs.map(|ac| ac.amount))?)
    };
    let (allowances, charges) = if line.allowance_charges.is_empty() {
        (Decimal::ZERO, Decimal::ZERO)
    } else {
        (side(Indicator::False)?, side(Indicator::True)?)
    };
    let quotient = if base == Decimal::ONE {
        // price div 1 is the price, which truncating to its own scale or more keeps
        price
    } else {
        let scale = price.scale().max(base.scale()).max(18);
        price
            .checked_div(base)
            .ok_or(Skip::Overflow)?
            .round_dp_with_strategy(scale, RoundingStrategy::ToZero)
    };
    let mut expected = mul(quantity, quotient)?;
    // adding or taking 0 changes no value (and cannot overflow)
    if !charges.is_zero() {
        expected = add(expected, charges)?;
    }
    if !allowances.is_zero() {
        expected = sub(expected, allowances)?;
    }
    Ok(add(net, SLACK)? >= expected && sub(net, SLACK)? <= expected)
}
