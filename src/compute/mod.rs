//! The computation of a document's amounts, in the order of docs/decisions.md §3: line
//! subtotals, line allowances and charges, line totals and taxes, VAT groups, document
//! allowances and charges spread over the groups, group taxes, and the totals.
//!
//! Rounding (half away from zero, to the currency's minor unit) happens only at the
//! points the decisions list: the subtotal, a rate allowance/charge, the line tax and
//! the group tax. Everything else is exact, and every computed amount is checked
//! against the 10^15 bound.

use crate::allocation;
use crate::error::ErrorCode;
use crate::money::{within_limit, Currency};
use crate::vat::VatCode;
use crate::wire::closed_set;
use rust_decimal::Decimal;

const HUNDRED: Decimal = Decimal::ONE_HUNDRED;

closed_set! {
    /// Whether an allowance/charge takes off or adds.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum AllowanceKind("allowance/charge type") {
        /// A discount: taken off.
        Allowance = "allowance",
        /// A surcharge: added.
        Charge = "charge",
    }
}

/// How an allowance/charge is expressed: exactly one of a fixed amount or a rate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AllowanceValue {
    /// A fixed amount (> 0, at most the minor unit's decimals), taken in full.
    Amount(Decimal),
    /// A percentage (0 < rate ≤ 100, at most 4 decimals) of the line subtotal, or of the
    /// document line total for a document-level one. Rates never compound.
    Rate(Decimal),
}

/// An allowance (discount) or charge (surcharge), on a line or on the document. Its
/// serde form is the stored form's (`crate::stored`): `{"type", "amount", "rate",
/// "reason", "code"}`, the amount or the rate a decimal string, the other null.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AllowanceCharge {
    /// Allowance or charge.
    pub kind: AllowanceKind,
    /// Fixed amount or rate.
    pub value: AllowanceValue,
    /// Free-text reason.
    pub reason: Option<String>,
    /// Reason code.
    pub code: Option<String>,
}

/// What the computation reads of a line: quantity, price, VAT and the line's own
/// allowances and charges.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LinePricing {
    /// Quantity, negative allowed.
    pub quantity: Decimal,
    /// Price of one unit, before tax.
    pub unit_price: Decimal,
    /// VAT code.
    pub vat_code: VatCode,
    /// VAT rate in percent; `None` only for `not_subject` (an exempt line without a
    /// rate is given 0 by validation).
    pub vat_rate: Option<Decimal>,
    /// The line's allowances and charges, in the order sent.
    pub allowance_charges: Vec<AllowanceCharge>,
}

/// The computed amounts of one line. Its serde form (like [`VatGroup`]'s and
/// [`DocumentAllowanceAmounts`]') is the stored form's: decimals as their exact text.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineAmounts {
    /// round(quantity × unit price).
    #[serde(with = "crate::wire::text")]
    pub subtotal: Decimal,
    /// The amount of each of the line's allowances/charges, in order.
    #[serde(with = "crate::wire::vec_text")]
    pub allowance_charges: Vec<Decimal>,
    /// subtotal − allowances + charges.
    #[serde(with = "crate::wire::text")]
    pub total: Decimal,
    /// round(total × rate / 100), 0 unless the code is taxed; informative only.
    #[serde(with = "crate::wire::text")]
    pub tax_amount: Decimal,
}

/// One VAT group: the lines of one (vat_code, vat_rate), in order of first appearance.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VatGroup {
    /// The group's VAT code.
    pub vat_code: VatCode,
    /// The group's rate as first written (`None` for not_subject).
    #[serde(with = "crate::wire::opt_text")]
    pub vat_rate: Option<Decimal>,
    /// Σ line totals of the group.
    #[serde(with = "crate::wire::text")]
    pub base: Decimal,
    /// Σ of the document allowance shares the group carries.
    #[serde(with = "crate::wire::text")]
    pub allowance_total: Decimal,
    /// Σ of the document charge shares the group carries.
    #[serde(with = "crate::wire::text")]
    pub charge_total: Decimal,
    /// base − allowance shares + charge shares.
    #[serde(with = "crate::wire::text")]
    pub taxable_amount: Decimal,
    /// round(taxable × rate / 100), 0 unless the code is taxed.
    #[serde(with = "crate::wire::text")]
    pub tax_amount: Decimal,
}

/// The computed amounts of one document-level allowance/charge.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DocumentAllowanceAmounts {
    /// The amount: the fixed amount, or round(document line total × rate / 100).
    #[serde(with = "crate::wire::text")]
    pub amount: Decimal,
    /// Its share on each VAT group, in the groups' order; they sum to `amount`.
    #[serde(with = "crate::wire::vec_text")]
    pub shares: Vec<Decimal>,
}

/// Every amount of a document. Its serde form is the stored form's: every field but
/// the currency (the document's own, set again when a stored document is read),
/// decimals as strings.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Computation {
    /// The currency everything is rounded to.
    #[serde(skip, default = "Currency::eur")]
    pub currency: Currency,
    /// Per line, in order.
    pub lines: Vec<LineAmounts>,
    /// The VAT groups, in order of first appearance.
    pub groups: Vec<VatGroup>,
    /// Per document allowance/charge, in order.
    pub allowance_charges: Vec<DocumentAllowanceAmounts>,
    /// Σ line totals (= Σ group bases).
    #[serde(with = "crate::wire::text")]
    pub line_total: Decimal,
    /// Σ document allowances.
    #[serde(with = "crate::wire::text")]
    pub allowance_total: Decimal,
    /// Σ document charges.
    #[serde(with = "crate::wire::text")]
    pub charge_total: Decimal,
    /// Σ group taxable amounts.
    #[serde(with = "crate::wire::text")]
    pub tax_exclusive_amount: Decimal,
    /// Σ group taxes.
    #[serde(with = "crate::wire::text")]
    pub tax_amount: Decimal,
    /// tax_exclusive_amount + tax_amount.
    #[serde(with = "crate::wire::text")]
    pub total_amount: Decimal,
}

/// Where a computation error is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Position {
    /// Line `i` (from 0).
    Line(usize),
    /// Allowance/charge `j` of line `i`.
    LineAllowanceCharge(usize, usize),
    /// Document allowance/charge `j`.
    AllowanceCharge(usize),
    /// The document allowances/charges as a whole.
    AllowanceCharges,
    /// The document as a whole (a group, a share, a total).
    Document,
}

/// Why a document's amounts could not be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code} at {position:?}: {message}")]
pub struct ComputeError {
    /// `amount_out_of_range`, `vat_group_not_positive` or `negative_total`.
    pub code: ErrorCode,
    /// Where.
    pub position: Position,
    /// What, in words.
    pub message: String,
    /// For `vat_group_not_positive`: the group.
    pub group: Option<(VatCode, Option<Decimal>, Decimal)>,
}

impl ComputeError {
    fn out_of_range(position: Position, what: &str, value: Option<Decimal>) -> Self {
        let message = match value {
            Some(v) => format!("{what} {v} reaches the 10^15 bound"),
            None => format!("{what} reaches the 10^15 bound"),
        };
        Self {
            code: ErrorCode::AmountOutOfRange,
            position,
            message,
            group: None,
        }
    }
}

/// Checks a computed amount against the bound.
fn bounded(
    value: Option<Decimal>,
    position: Position,
    what: &str,
) -> Result<Decimal, ComputeError> {
    match value {
        Some(v) if within_limit(v) => Ok(v),
        other => Err(ComputeError::out_of_range(position, what, other)),
    }
}

/// `base × rate / 100`, exact (rounded by the caller).
fn percent(base: Decimal, rate: Decimal) -> Option<Decimal> {
    let mut p = base.checked_mul(rate)?;
    // / 100 is exact as a scale shift while the scale stays <= 28
    if p.scale() <= 26 {
        p.set_scale(p.scale() + 2).ok()?;
        Some(p)
    } else {
        p.checked_div(HUNDRED)
    }
}

/// The powers of ten a `u64` holds.
const POW10: [u64; 20] = {
    let mut t = [1_u64; 20];
    let mut i = 1;
    while i < 20 {
        t[i] = t[i - 1] * 10;
        i += 1;
    }
    t
};

/// The magnitude of a decimal's mantissa, if it fits a `u64`.
fn small_mantissa(d: Decimal) -> Option<u64> {
    u64::try_from(d.mantissa().unsigned_abs()).ok()
}

/// `round(a × b / 10^shift)` to `minor` decimals, half away from zero, on 64-bit
/// integers: the fast path of [`product_rounded`], taken when both mantissas and their
/// product fit a `u64` and the exact product's scale stays ≤ 28 (so the general path
/// would compute the same exact product before rounding it). `None` otherwise.
fn product_fast(a: Decimal, b: Decimal, shift: u32, minor: u32) -> Option<Decimal> {
    let scale = a.scale() + b.scale() + shift;
    if scale > 28 {
        return None;
    }
    let product = small_mantissa(a)?.checked_mul(small_mantissa(b)?)?;
    let units = if scale >= minor {
        let divisor = *POW10.get(usize::try_from(scale - minor).ok()?)?;
        let (quotient, rest) = (product / divisor, product % divisor);
        // half away from zero on the magnitude: 2 × rest ≥ divisor
        if rest >= divisor - rest {
            quotient.checked_add(1)?
        } else {
            quotient
        }
    } else {
        product.checked_mul(*POW10.get(usize::try_from(minor - scale).ok()?)?)?
    };
    // a zero result is a positive zero, as Currency::round gives it
    let negative = units != 0 && a.is_sign_negative() != b.is_sign_negative();
    let lo = u32::try_from(units & 0xFFFF_FFFF).ok()?;
    let mid = u32::try_from(units >> 32).ok()?;
    Some(Decimal::from_parts(lo, mid, 0, negative, minor))
}

/// `round(a × b)` (`percent` false) or `round(a × b / 100)` (`percent` true) to the
/// currency's minor unit: exact, then rounded once, half away from zero.
fn product_rounded(currency: Currency, a: Decimal, b: Decimal, percent: bool) -> Option<Decimal> {
    let shift = if percent { 2 } else { 0 };
    product_fast(a, b, shift, currency.minor_unit()).or_else(|| {
        let exact = if percent {
            self::percent(a, b)
        } else {
            a.checked_mul(b)
        };
        exact.map(|v| currency.round(v))
    })
}

/// Computes the amount of one allowance/charge on `base` (docs/decisions.md §3 steps 2, 6).
fn allowance_amount(
    currency: Currency,
    ac: &AllowanceCharge,
    base: Decimal,
    position: Position,
) -> Result<Decimal, ComputeError> {
    let amount = match ac.value {
        AllowanceValue::Amount(a) => Some(currency.round(a)),
        AllowanceValue::Rate(r) => product_rounded(currency, base, r, true),
    };
    bounded(amount, position, "allowance/charge amount")
}

/// Computes one line (docs/decisions.md §3 steps 1-4).
fn compute_line(
    currency: Currency,
    i: usize,
    line: &LinePricing,
) -> Result<LineAmounts, Vec<ComputeError>> {
    let at = Position::Line(i);
    let subtotal = bounded(
        product_rounded(currency, line.quantity, line.unit_price, false),
        at,
        "line subtotal",
    )
    .map_err(|e| vec![e])?;
    let mut errors = Vec::new();
    let mut amounts = Vec::with_capacity(line.allowance_charges.len());
    let mut total = Some(subtotal);
    for (j, ac) in line.allowance_charges.iter().enumerate() {
        match allowance_amount(currency, ac, subtotal, Position::LineAllowanceCharge(i, j)) {
            Ok(a) => {
                amounts.push(a);
                total = total.and_then(|t| match ac.kind {
                    AllowanceKind::Allowance => t.checked_sub(a),
                    AllowanceKind::Charge => t.checked_add(a),
                });
            }
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let total = bounded(total, at, "line total").map_err(|e| vec![e])?;
    let tax_amount = if line.vat_code.is_taxed() {
        let rate = line.vat_rate.unwrap_or_default();
        bounded(product_rounded(currency, total, rate, true), at, "line tax")
            .map_err(|e| vec![e])?
    } else {
        Decimal::new(0, currency.minor_unit())
    };
    Ok(LineAmounts {
        subtotal,
        allowance_charges: amounts,
        total,
        tax_amount,
    })
}

/// The VAT groups' keys (docs/decisions.md §3.5: group by (vat_code, vat_rate), rates
/// compared as numbers, so 21 and 21.00 are one group).
#[derive(Default)]
struct GroupKeys {
    /// Per group: the code and the rate as its first line wrote it (bit for bit).
    written: Vec<(VatCode, Option<[u8; 16]>)>,
    /// Per group: the code and the normalized rate (scale, mantissa).
    normalized: Vec<(VatCode, Option<(u32, i128)>)>,
}

impl GroupKeys {
    /// The group of a line's code and rate; `new_group` is called when it opens one.
    /// A rate written as the group's first line wrote it is found without normalizing.
    fn group_of(
        &mut self,
        code: VatCode,
        rate: Option<Decimal>,
        new_group: impl FnOnce(),
    ) -> usize {
        let written = (code, rate.map(|r| r.serialize()));
        if let Some(g) = self.written.iter().position(|k| *k == written) {
            return g;
        }
        let key = (
            code,
            rate.map(|r| {
                let n = r.normalize();
                (n.scale(), n.mantissa())
            }),
        );
        if let Some(g) = self.normalized.iter().position(|k| *k == key) {
            return g;
        }
        new_group();
        self.written.push(written);
        self.normalized.push(key);
        self.normalized.len() - 1
    }
}

/// The sums of the line totals of each VAT group, added as the lines are computed.
/// Line totals carry the minor unit's scale, so they are summed as integers; a total
/// of another scale takes the decimal path.
struct GroupSums {
    minor: u32,
    /// Per group: Σ totals in minor units (`None` past an `i128`).
    units: Vec<Option<i128>>,
    /// Per group: Σ totals of another scale, if any.
    other: Vec<Option<Decimal>>,
}

impl GroupSums {
    fn new(currency: Currency) -> GroupSums {
        GroupSums {
            minor: currency.minor_unit(),
            units: Vec::new(),
            other: Vec::new(),
        }
    }

    /// Adds a line total into group `g`.
    fn add(&mut self, g: usize, total: Decimal) {
        if self.units.len() <= g {
            self.units.resize(g + 1, Some(0));
            self.other.resize(g + 1, None);
        }
        if total.scale() == self.minor {
            if let Some(u) = self.units.get_mut(g) {
                *u = u.and_then(|u| u.checked_add(total.mantissa()));
            }
        } else if let Some(o) = self.other.get_mut(g) {
            let sum = o.unwrap_or(Decimal::new(0, self.minor));
            *o = Some(sum.checked_add(total).unwrap_or(Decimal::MAX));
        }
    }

    /// Sets each group's base (`Decimal::MAX` past a decimal's range, which the bound
    /// refuses) and returns the document line total (`None` past a decimal's range).
    fn finish(self, groups: &mut [VatGroup]) -> Option<Decimal> {
        let minor = self.minor;
        let mut line_total = Some(Decimal::new(0, minor));
        for ((group, u), o) in groups.iter_mut().zip(self.units).zip(self.other) {
            let mut base = u.and_then(|u| Decimal::try_from_i128_with_scale(u, minor).ok());
            if let Some(o) = o {
                base = base.and_then(|b| b.checked_add(o));
            }
            group.base = base.unwrap_or(Decimal::MAX);
            line_total = line_total.and_then(|t| t.checked_add(group.base));
        }
        line_total
    }
}

/// Computes every amount of a document (docs/decisions.md §3), or every error found.
///
/// Line errors are all reported; the document stage runs only when every line could
/// be computed. The typed core has no limit on the number of lines or allowances
/// (docs/decisions.md §9): list limits belong to request validation.
///
/// ```
/// use invoicing_core::compute::{compute, LinePricing};
/// use invoicing_core::money::Currency;
/// use invoicing_core::vat::VatCode;
/// use rust_decimal::Decimal;
/// let line = LinePricing {
///     quantity: Decimal::new(2, 0),
///     unit_price: Decimal::new(999, 2),
///     vat_code: VatCode::Standard,
///     vat_rate: Some(Decimal::new(21, 0)),
///     allowance_charges: vec![],
/// };
/// let c = compute(Currency::EUR, &[line], &[]).unwrap();
/// assert_eq!(c.lines[0].subtotal.to_string(), "19.98");
/// assert_eq!(c.tax_amount.to_string(), "4.20");
/// assert_eq!(c.total_amount.to_string(), "24.18");
/// ```
pub fn compute(
    currency: Currency,
    lines: &[LinePricing],
    allowance_charges: &[AllowanceCharge],
) -> Result<Computation, Vec<ComputeError>> {
    compute_iter(currency, lines.iter(), allowance_charges)
}

/// Step 1 of [`compute`] (docs/decisions.md §3 steps 1-5): every line's amounts, the VAT
/// groups in order of first appearance with their bases, and the document's line
/// total; every error of every line, or of the bounds, in one answer.
fn lines_and_groups<'a, I>(
    currency: Currency,
    lines: I,
) -> Result<(Vec<LineAmounts>, Vec<VatGroup>, Decimal), Vec<ComputeError>>
where
    I: IntoIterator<Item = &'a LinePricing>,
{
    let zero = Decimal::new(0, currency.minor_unit());
    let mut errors = Vec::new();
    let lines = lines.into_iter();
    let mut line_amounts = Vec::with_capacity(lines.size_hint().0);
    let mut groups: Vec<VatGroup> = Vec::new();
    let mut keys = GroupKeys::default();
    let mut sums = GroupSums::new(currency);
    for (i, line) in lines.enumerate() {
        match compute_line(currency, i, line) {
            Ok(amounts) => {
                if errors.is_empty() {
                    let g = keys.group_of(line.vat_code, line.vat_rate, || {
                        groups.push(VatGroup {
                            vat_code: line.vat_code,
                            vat_rate: line.vat_rate,
                            base: zero,
                            allowance_total: zero,
                            charge_total: zero,
                            taxable_amount: zero,
                            tax_amount: zero,
                        });
                    });
                    sums.add(g, amounts.total);
                    line_amounts.push(amounts);
                }
            }
            Err(mut e) => errors.append(&mut e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let line_total = sums.finish(&mut groups);
    for group in &groups {
        if !within_limit(group.base) {
            errors.push(ComputeError::out_of_range(
                Position::Document,
                "vat group base",
                Some(group.base),
            ));
        }
    }
    let line_total = match bounded(line_total, Position::Document, "document line total") {
        Ok(t) => t,
        Err(e) => {
            errors.push(e);
            zero
        }
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok((line_amounts, groups, line_total))
}

/// Step 2 (docs/decisions.md §3.6): the document's allowances and charges, each spread
/// over the groups in proportion to their bases (every base must be positive), the
/// shares added to the groups' totals.
fn spread_allowance_charges(
    currency: Currency,
    groups: &mut [VatGroup],
    allowance_charges: &[AllowanceCharge],
    line_total: Decimal,
) -> Result<Vec<DocumentAllowanceAmounts>, Vec<ComputeError>> {
    let mut errors = Vec::new();
    let mut doc_amounts = Vec::with_capacity(allowance_charges.len());
    if !allowance_charges.is_empty() {
        for g in groups.iter() {
            if g.base <= Decimal::ZERO {
                let rate = g
                    .vat_rate
                    .map_or_else(|| "none".to_owned(), |r| r.to_string());
                errors.push(ComputeError {
                    code: ErrorCode::VatGroupNotPositive,
                    position: Position::AllowanceCharges,
                    message: format!(
                        "the vat group {} at rate {rate} totals {}, not a positive amount: put the discount or charge on the lines",
                        g.vat_code, g.base
                    ),
                    group: Some((g.vat_code, g.vat_rate, g.base)),
                });
            }
        }
        let mut amounts = Vec::with_capacity(allowance_charges.len());
        for (j, ac) in allowance_charges.iter().enumerate() {
            match allowance_amount(currency, ac, line_total, Position::AllowanceCharge(j)) {
                Ok(a) => amounts.push(a),
                Err(e) => errors.push(e),
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let weights: Vec<i128> = groups
            .iter()
            .map(|g| currency.to_minor_units(g.base).unwrap_or(0))
            .collect();
        for (ac, amount) in allowance_charges.iter().zip(amounts) {
            let shares = currency
                .to_minor_units(amount)
                .and_then(|units| allocation::allocate(units, &weights).ok())
                .and_then(|s| {
                    s.into_iter()
                        .map(|u| currency.from_minor_units(u))
                        .collect::<Option<Vec<_>>>()
                })
                .ok_or_else(|| {
                    vec![ComputeError::out_of_range(
                        Position::Document,
                        "allowance/charge share",
                        None,
                    )]
                })?;
            for (group, share) in groups.iter_mut().zip(&shares) {
                let slot = match ac.kind {
                    AllowanceKind::Allowance => &mut group.allowance_total,
                    AllowanceKind::Charge => &mut group.charge_total,
                };
                *slot = slot.checked_add(*share).unwrap_or(Decimal::MAX);
            }
            doc_amounts.push(DocumentAllowanceAmounts { amount, shares });
        }
    }
    Ok(doc_amounts)
}

/// Step 3 (docs/decisions.md §3.7-8): each group's taxable amount and tax; the sums of
/// both (`None` past the decimal range).
fn group_taxes(
    currency: Currency,
    groups: &mut [VatGroup],
) -> Result<(Option<Decimal>, Option<Decimal>), Vec<ComputeError>> {
    let zero = Decimal::new(0, currency.minor_unit());
    let mut tax_exclusive = Some(zero);
    let mut tax_total = Some(zero);
    for group in groups.iter_mut() {
        let taxable = group
            .base
            .checked_sub(group.allowance_total)
            .and_then(|v| v.checked_add(group.charge_total));
        let taxable = bounded(taxable, Position::Document, "vat group taxable amount")
            .map_err(|e| vec![e])?;
        let tax = if group.vat_code.is_taxed() {
            let rate = group.vat_rate.unwrap_or_default();
            bounded(
                product_rounded(currency, taxable, rate, true),
                Position::Document,
                "vat group tax",
            )
            .map_err(|e| vec![e])?
        } else {
            zero
        };
        group.taxable_amount = taxable;
        group.tax_amount = tax;
        tax_exclusive = tax_exclusive.and_then(|t| t.checked_add(taxable));
        tax_total = tax_total.and_then(|t| t.checked_add(tax));
    }
    Ok((tax_exclusive, tax_total))
}

/// [`compute`] over any sequence of line pricings, so that callers holding richer line
/// records need not copy them.
pub fn compute_iter<'a, I>(
    currency: Currency,
    lines: I,
    allowance_charges: &[AllowanceCharge],
) -> Result<Computation, Vec<ComputeError>>
where
    I: IntoIterator<Item = &'a LinePricing>,
{
    let zero = Decimal::new(0, currency.minor_unit());
    let (line_amounts, mut groups, line_total) = lines_and_groups(currency, lines)?;
    let doc_amounts =
        spread_allowance_charges(currency, &mut groups, allowance_charges, line_total)?;
    let (tax_exclusive, tax_total) = group_taxes(currency, &mut groups)?;
    let tax_exclusive_amount =
        bounded(tax_exclusive, Position::Document, "tax exclusive amount").map_err(|e| vec![e])?;
    let tax_amount = bounded(tax_total, Position::Document, "tax amount").map_err(|e| vec![e])?;
    let total_amount = bounded(
        tax_exclusive_amount.checked_add(tax_amount),
        Position::Document,
        "total amount",
    )
    .map_err(|e| vec![e])?;
    // docs/decisions.md §3.9: a negative total is refused
    if total_amount < Decimal::ZERO {
        return Err(vec![ComputeError {
            code: ErrorCode::NegativeTotal,
            position: Position::Document,
            message: format!(
                "the total amount {total_amount} is negative: issue a credit note instead"
            ),
            group: None,
        }]);
    }
    let sum = |kind: AllowanceKind| {
        allowance_charges
            .iter()
            .zip(&doc_amounts)
            .filter(|(ac, _)| ac.kind == kind)
            .try_fold(zero, |acc, (_, a)| acc.checked_add(a.amount))
    };
    let allowance_total = bounded(
        sum(AllowanceKind::Allowance),
        Position::Document,
        "allowance total",
    )
    .map_err(|e| vec![e])?;
    let charge_total = bounded(
        sum(AllowanceKind::Charge),
        Position::Document,
        "charge total",
    )
    .map_err(|e| vec![e])?;
    Ok(Computation {
        currency,
        lines: line_amounts,
        allowance_total,
        charge_total,
        groups,
        allowance_charges: doc_amounts,
        line_total,
        tax_exclusive_amount,
        tax_amount,
        total_amount,
    })
}

closed_set! {
    /// The payment status of a document (docs/decisions.md §3.10): nothing paid is `unpaid`,
    /// less than the total `partial`, the whole (positive) total `paid`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum PaymentStatus("payment status") {
        /// Nothing paid.
        Unpaid = "unpaid",
        /// Part paid.
        Partial = "partial",
        /// All paid.
        Paid = "paid",
        /// Not known.
        Unknown = "unknown",
    }
}

impl PaymentStatus {
    /// The status of `paid` against `total`: 0 → unpaid; 0 < paid < total → partial;
    /// paid ≥ total > 0 → paid. (A paid amount above the total is refused on create and
    /// PATCH; a back-office `SET` may still store one, which reads as paid.)
    pub fn derive(paid: Decimal, total: Decimal) -> PaymentStatus {
        if paid <= Decimal::ZERO {
            Self::Unpaid
        } else if paid < total {
            Self::Partial
        } else {
            Self::Paid
        }
    }
}

mod serde_ac {
    //! The stored form of an allowance/charge, read strictly: an unknown key, a key given
    //! twice, no `type`, or not exactly one of `amount` and `rate` is an error.
    use super::{AllowanceCharge, AllowanceKind, AllowanceValue};
    use crate::wire::once;
    use rust_decimal::Decimal;
    use serde::de::{Error, MapAccess, Visitor};
    use serde::ser::SerializeStruct;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::fmt;

    const FIELDS: &[&str] = &["type", "amount", "rate", "reason", "code"];

    impl Serialize for AllowanceCharge {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let (amount, rate) = match self.value {
                AllowanceValue::Amount(a) => (Some(a), None),
                AllowanceValue::Rate(r) => (None, Some(r)),
            };
            let mut m = s.serialize_struct("AllowanceCharge", FIELDS.len())?;
            m.serialize_field("type", &self.kind)?;
            m.serialize_field("amount", &amount.map(|a| a.to_string()))?;
            m.serialize_field("rate", &rate.map(|r| r.to_string()))?;
            m.serialize_field("reason", &self.reason)?;
            m.serialize_field("code", &self.code)?;
            m.end()
        }
    }

    impl<'de> Deserialize<'de> for AllowanceCharge {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_struct("AllowanceCharge", FIELDS, AcVisitor)
        }
    }

    struct AcVisitor;

    /// A decimal string, or null.
    fn decimal<E: Error>(text: Option<String>) -> Result<Option<Decimal>, E> {
        text.map(|t| t.parse().map_err(E::custom)).transpose()
    }

    impl<'de> Visitor<'de> for AcVisitor {
        type Value = AllowanceCharge;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("struct AllowanceCharge")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<AllowanceCharge, A::Error> {
            let mut kind: Option<AllowanceKind> = None;
            let (mut amount, mut rate, mut reason, mut code) = (None, None, None, None);
            while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                match &*key {
                    "type" => once(&mut kind, "type", map.next_value()?)?,
                    "amount" => once(&mut amount, "amount", decimal(map.next_value()?)?)?,
                    "rate" => once(&mut rate, "rate", decimal(map.next_value()?)?)?,
                    "reason" => once(&mut reason, "reason", map.next_value::<Option<String>>()?)?,
                    "code" => once(&mut code, "code", map.next_value::<Option<String>>()?)?,
                    other => return Err(A::Error::unknown_field(other, FIELDS)),
                }
            }
            let kind = kind.ok_or_else(|| A::Error::missing_field("type"))?;
            let value = match (amount.flatten(), rate.flatten()) {
                (Some(a), None) => AllowanceValue::Amount(a),
                (None, Some(r)) => AllowanceValue::Rate(r),
                _ => {
                    return Err(A::Error::custom(
                        "an allowance/charge needs exactly one of amount and rate",
                    ))
                }
            };
            Ok(AllowanceCharge {
                kind,
                value,
                reason: reason.flatten(),
                code: code.flatten(),
            })
        }
    }
}

#[cfg(test)]
mod tests;
