//! The EN 16931 sum and category rules (BR-CO-10 to BR-CO-17, BR-S-08, BR-S-09, the
//! "-08" rule of every other category) and PEPPOL-EN16931-R120, each written once, over
//! stated values ([`Num`]): the UBL writer's findings feed them the amounts it writes
//! (`peppol::findings`), and answer what the official XSLT of the validation kit
//! (release 2026.5) answers (docs/peppol.md §3; a received document's checks are the
//! rule engine's, `crate::ubl::engine`, and the fuzz target `ubl_writer` holds the
//! writer's findings equal to the engine's fatal rules on what it writes). [`Num`]
//! and [`Totals`] are also the received reader's stated values.
//!
//! XPath semantics emulated: `xs:decimal` arithmetic is exact; `round` goes half
//! toward +∞ (`floor(x + 0.5)`); a comparison with a missing value is false; `sum` of
//! nothing is 0; `every` over nothing is true. A rule is `Err` when it cannot be
//! tested: a value it reads is present but unreadable ([`Skip::Unreadable`]), or its
//! arithmetic leaves the 28 digits of a `Decimal` ([`Skip::Overflow`]); the caller says
//! what that means for it (the writer's amounts stay below 10^15, where neither
//! happens).

use super::double::Double;
use super::xpath;
use rust_decimal::{Decimal, RoundingStrategy};
use std::collections::BTreeMap;

/// A stated number: absent, present but not an `xs:decimal` (or too large), or read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Num {
    /// No such element.
    #[default]
    Absent,
    /// The element is there but its text is not a number the crate can hold.
    Bad,
    /// The value.
    Val(Decimal),
}

impl Num {
    /// The value, if read.
    pub(crate) fn value(self) -> Option<Decimal> {
        match self {
            Num::Val(v) => Some(v),
            _ => None,
        }
    }

    /// Whether the element exists (read or not).
    pub(crate) fn exists(self) -> bool {
        !matches!(self, Num::Absent)
    }

    /// An optional value as stated: written when it is `Some`.
    pub(crate) fn of(v: Option<Decimal>) -> Num {
        v.map_or(Num::Absent, Num::Val)
    }
}

/// The stated totals (`cac:LegalMonetaryTotal`, the first one).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Totals {
    pub(crate) line_extension: Num,
    pub(crate) tax_exclusive: Num,
    pub(crate) tax_inclusive: Num,
    pub(crate) allowance_total: Num,
    pub(crate) charge_total: Num,
    pub(crate) prepaid: Num,
    pub(crate) rounding: Num,
    pub(crate) payable: Num,
}

/// Why a rule was not tested.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Skip {
    /// A value it reads is present but unreadable.
    Unreadable,
    /// Its arithmetic leaves the range of a `Decimal`.
    Overflow,
}

/// A rule's outcome: whether it holds, or why it was not tested.
pub(crate) type R<T> = Result<T, Skip>;

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

/// `xs:decimal(a - 1) < x and xs:decimal(a + 1) > x` with `a` untyped (BR-S-08's
/// taxable amount): `a ± 1` is a double, whose exact value is compared
/// (`super::double`; 4999.01 + 1 is 5000.0100000000002…, above 5000.01).
pub(super) fn within_one_double(a: Decimal, x: Decimal) -> R<bool> {
    let one = Double::of(Decimal::ONE);
    let bound = |v: Double| v.decimal().ok_or(Skip::Overflow);
    let a = Double::of(a);
    Ok(bound(a.sub(one))? < x && bound(a.add(one))? > x)
}

/// `round(abs(taxable) * (rate div 100) * 10 * 10) div 100`.
fn tax_of(taxable: Decimal, rate: Decimal) -> R<Decimal> {
    let per_cent = rate
        .checked_div(Decimal::ONE_HUNDRED)
        .ok_or(Skip::Overflow)?;
    r2(mul(taxable.abs(), per_cent)?)
}

/// BR-CO-10: the sum of the line nets (BT-131) is the lines' total (BT-106).
pub(crate) fn br_co_10(t: &Totals, nets: impl Iterator<Item = Num>) -> R<bool> {
    let stated = val(t.line_extension)?;
    let computed = r2(sum(nets)?)?;
    Ok(stated == Some(computed))
}

/// BR-CO-11 (`charge` false: the document allowances' amounts against BT-107) and
/// BR-CO-12 (`charge` true: the charges' against BT-108); no total and no such
/// allowance or charge holds too.
pub(crate) fn br_co_11_12(
    t: &Totals,
    charge: bool,
    mut amounts: impl Iterator<Item = Num> + Clone,
) -> R<bool> {
    let stated = if charge {
        t.charge_total
    } else {
        t.allowance_total
    };
    let computed = r2(sum(amounts.clone())?)?;
    let equal = val(stated)? == Some(computed);
    Ok(equal || (!stated.exists() && amounts.next().is_none()))
}

/// BR-CO-13: BT-109 = BT-106 − BT-107 + BT-108 (the totals that are stated).
pub(crate) fn br_co_13(t: &Totals) -> R<bool> {
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

/// BR-CO-14: a `cac:TaxTotal`'s amount (BT-110) is the sum of its subtotals' (BT-117).
pub(crate) fn br_co_14(amount: Num, subtotal_taxes: impl Iterator<Item = Num>) -> R<bool> {
    let stated = val(amount)?;
    let computed = r2(sum(subtotal_taxes)?)?;
    Ok(stated == Some(computed))
}

/// BR-CO-15: BT-112 = BT-109 + BT-110, with `tax_amount` the one `cac:TaxTotal`
/// amount in the document currency (absent when there is none, or more than one).
pub(crate) fn br_co_15(t: &Totals, tax_amount: Num) -> R<bool> {
    let tia = val(t.tax_inclusive)?;
    let tea = val(t.tax_exclusive)?;
    let amount = val(tax_amount)?;
    let (Some(tia), Some(tea), Some(amount)) = (tia, tea, amount) else {
        return Ok(false);
    };
    Ok(tia == r2(add(tea, amount)?)?)
}

/// BR-CO-16: BT-115 = BT-112 − BT-113 + BT-114 (the totals that are stated).
pub(crate) fn br_co_16(t: &Totals) -> R<bool> {
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

/// A VAT breakdown entry as the rules read it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Group {
    /// BT-116.
    pub(crate) taxable: Num,
    /// BT-117.
    pub(crate) tax: Num,
    /// BT-119 of a category whose scheme is VAT (`None`: no such category).
    pub(crate) vat_percent: Option<Num>,
}

/// BR-CO-17: the group's VAT is its taxable amount × its rate, within 1 (0 at a rate
/// of 0 or without one).
pub(crate) fn br_co_17(g: Group) -> R<bool> {
    let percent = match g.vat_percent {
        Some(p) => val(p)?,
        None => None,
    };
    let Some(tax) = val(g.tax)? else {
        return Ok(false);
    };
    match percent {
        None => Ok(xround(tax)?.is_zero()),
        Some(p) if xround(p)?.is_zero() => Ok(xround(tax)?.is_zero()),
        Some(p) => match val(g.taxable)? {
            Some(taxable) => within_one(tax.abs(), tax_of(taxable, p)?),
            None => Ok(false),
        },
    }
}

/// Sums of one VAT category (and rate, for S).
#[derive(Debug, Clone, Copy)]
struct Agg {
    /// An invoice line of the key exists.
    invoice_line: bool,
    /// A credit note line of the key exists.
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

/// The per-category and per-S-rate sums the "-08" rules compare each breakdown entry
/// with, built once for the whole document from its lines and allowances, so each
/// entry is tested in constant time whatever the number of lines.
pub(crate) struct Index<'f> {
    by_category: BTreeMap<&'f str, Agg>,
    by_s_rate: BTreeMap<Decimal, Agg>,
    /// An S category of a line or an allowance states a rate that cannot be read:
    /// BR-S-08 compares every one with each rate.
    s_rate_unreadable: bool,
    any_invoice_line: bool,
    any_credit_line: bool,
}

impl<'f> Index<'f> {
    /// An empty index of a document that has invoice lines, credit note lines.
    pub(crate) fn new(any_invoice_line: bool, any_credit_line: bool) -> Index<'f> {
        Index {
            by_category: BTreeMap::new(),
            by_s_rate: BTreeMap::new(),
            s_rate_unreadable: false,
            any_invoice_line,
            any_credit_line,
        }
    }

    /// A line of category `id` (stated rate `percent`) and net amount `net`.
    pub(crate) fn line(&mut self, id: &'f str, percent: Num, credit: bool, net: Num) {
        let update = |agg: &mut Agg| {
            if credit {
                agg.credit_line = true;
                acc(&mut agg.credit_sum, net, false);
            } else {
                agg.invoice_line = true;
                acc(&mut agg.invoice_sum, net, false);
            }
        };
        update(self.by_category.entry(id).or_default());
        if let Some(agg) = self.s_rate_entry(id, percent) {
            update(agg);
        }
    }

    /// A document-level allowance (`charge` `Some(false)`) or charge (`Some(true)`;
    /// `None`: an indicator that is no boolean) of category `id`.
    pub(crate) fn document_ac(
        &mut self,
        id: &'f str,
        percent: Num,
        charge: Option<bool>,
        amount: Num,
    ) {
        let update = |agg: &mut Agg| {
            agg.any_ac = true;
            if let Some(charge) = charge {
                acc(&mut agg.invoice_sum, amount, !charge);
                acc(&mut agg.credit_sum, amount, !charge);
            }
        };
        update(self.by_category.entry(id).or_default());
        if let Some(agg) = self.s_rate_entry(id, percent) {
            update(agg);
        }
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

    /// BR-S-08: a standard-rated group's taxable amount is, within 1, the sum of the
    /// lines and document allowances and charges at its rate.
    pub(crate) fn br_s_08(&self, g: Group) -> R<bool> {
        // every $rate in xs:decimal(cbc:Percent): no Percent, nothing to test.
        let Some(rate) = val(g.vat_percent.unwrap_or_default())? else {
            return Ok(true);
        };
        if self.s_rate_unreadable {
            return Err(Skip::Unreadable);
        }
        let Some(taxable) = val(g.taxable)? else {
            return Ok(false);
        };
        let agg = self.by_s_rate.get(&rate).copied().unwrap_or_default();
        let on_invoice_lines =
            (agg.invoice_line || agg.any_ac) && within_one_double(taxable, agg.invoice_sum?)?;
        let on_credit_lines =
            (agg.credit_line || agg.any_ac) && within_one_double(taxable, agg.credit_sum?)?;
        Ok(on_invoice_lines || on_credit_lines)
    }

    /// BR-Z/E/AE/IC/G/O-08: the group's taxable amount is the sum of the lines and
    /// document allowances and charges of its category `id`.
    pub(crate) fn br_x_08(&self, id: &str, taxable: Num) -> R<bool> {
        let Some(taxable) = val(taxable)? else {
            return Ok(false);
        };
        let agg = self.by_category.get(id).copied().unwrap_or_default();
        let on_invoice_lines = self.any_invoice_line && taxable == agg.invoice_sum?;
        let on_credit_lines = self.any_credit_line && taxable == agg.credit_sum?;
        Ok(on_invoice_lines || on_credit_lines)
    }
}

/// The tolerance of R040 and R120, 0.02.
pub(crate) const SLACK: Decimal = Decimal::from_parts(2, 0, 0, false, 2);

/// A line as PEPPOL-EN16931-R120 reads it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct R120Line {
    /// BT-131.
    pub(crate) net: Num,
    /// BT-129 (`cbc:InvoicedQuantity` or `cbc:CreditedQuantity` as the root says).
    pub(crate) quantity: Num,
    /// BT-146.
    pub(crate) price: Num,
    /// BT-149.
    pub(crate) base_quantity: Num,
}

/// PEPPOL-EN16931-R120: `u:slack(net, quantity * (price div base) + charges -
/// allowances, 0.02)`, with the variables of the Peppol rule: a missing net or price
/// is 0, a missing quantity 1, a missing or zero base quantity 1; the line's
/// allowances and charges are those whose `normalize-space(cbc:ChargeIndicator)` is
/// `false` / `true` (`acs`: that word as `Some(false)` / `Some(true)`, `None` for any
/// other text, with the amount), their sum rounded to 2 decimals. The quotient is
/// truncated to 18 decimals, as Saxon divides decimals.
pub(crate) fn r120(line: R120Line, acs: impl Iterator<Item = (Option<bool>, Num)>) -> R<bool> {
    let net = val(line.net)?.unwrap_or(Decimal::ZERO);
    let quantity = val(line.quantity)?.unwrap_or(Decimal::ONE);
    let price = val(line.price)?.unwrap_or(Decimal::ZERO);
    let base = match val(line.base_quantity)? {
        Some(b) if !b.is_zero() => b,
        _ => Decimal::ONE,
    };
    // the two sums in one pass, each as `sum` adds (its first unreadable value or
    // overflow ends it), the allowances' outcome first as the rule reads them first
    let (mut allowances, mut charges) = (None::<R<Decimal>>, None::<R<Decimal>>);
    for (word, amount) in acs {
        let side = match word {
            Some(false) => &mut allowances,
            Some(true) => &mut charges,
            None => continue,
        };
        let total = side.get_or_insert(Ok(Decimal::ZERO));
        if let Ok(t) = *total {
            *total = match val(amount) {
                Ok(Some(v)) => add(t, v),
                Ok(None) => Ok(t),
                Err(e) => Err(e),
            };
        }
    }
    let allowances = allowances.map_or(Ok(Decimal::ZERO), |a| r2(a?))?;
    let charges = charges.map_or(Ok(Decimal::ZERO), |c| r2(c?))?;
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
    xpath::slack(net, expected, SLACK).ok_or(Skip::Overflow)
}
