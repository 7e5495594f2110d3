//! Allocation: split an amount over positive weights in proportion, exact to the
//! minor unit (docs/decisions.md §3 step 6, §9).
//!
//! Amounts and weights are whole numbers of minor units (cents for EUR). Each share is
//! first floored to `amount × weight / Σ weights`; the units left over (fewer than the
//! number of weights) then go one each to the shares with the largest remainders, the
//! earlier weight first on a tie. The shares always sum to the amount, and each lies
//! within one minor unit of its exact proportion.

use thiserror::Error;

/// The largest magnitude an amount or a weight may have, in minor units: 10^19, which
/// covers every amount below the 10^15 bound in a currency of up to 4 decimals, and
/// keeps every intermediate product exact in 128 bits.
pub const MAX_UNITS: i128 = 10_000_000_000_000_000_000;

/// Why an allocation was refused. Nothing is ever lost silently: every input either
/// yields shares that sum to the amount or one of these.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum AllocationError {
    /// There is no weight to spread the amount over.
    #[error("no weights to spread the amount over")]
    NoWeights,
    /// The amount is negative.
    #[error("the amount {0} is negative")]
    NegativeAmount(i128),
    /// A weight is zero or negative.
    #[error("weight {index} is {weight}, not positive")]
    NonPositiveWeight {
        /// Position of the weight, from 0.
        index: usize,
        /// The weight itself.
        weight: i128,
    },
    /// The amount or a weight is above [`MAX_UNITS`].
    #[error("{0} is beyond the 10^19 minor units an allocation takes")]
    OutOfRange(i128),
}

/// Splits `amount` minor units over `weights` in proportion, exact to the unit.
///
/// Floors every share, then hands the units left over to the largest remainders
/// (ties: the earlier weight). The shares sum to `amount`, and each is within one
/// unit of `amount × weight / Σ weights`.
///
/// ```
/// use invoicing_core::allocation::allocate;
/// // 10.00 over bases 33.33 / 33.33 / 33.34: 3.33 / 3.33 / 3.34, no cent lost
/// assert_eq!(allocate(1000, &[3333, 3333, 3334])?, vec![333, 333, 334]);
/// // ties go to the earlier weight
/// assert_eq!(allocate(1, &[1, 1])?, vec![1, 0]);
/// assert!(allocate(-1, &[1]).is_err());
/// assert!(allocate(1, &[1, 0]).is_err());
/// # Ok::<(), invoicing_core::allocation::AllocationError>(())
/// ```
///
/// # Errors
/// [`AllocationError::NoWeights`] for an empty list (`allocate(0, &[])`),
/// [`AllocationError::NegativeAmount`] for `allocate(-1, &[1])`,
/// [`AllocationError::NonPositiveWeight`] for `allocate(5, &[2, 0])`,
/// [`AllocationError::OutOfRange`] for an amount or weight above [`MAX_UNITS`].
pub fn allocate(amount: i128, weights: &[i128]) -> Result<Vec<i128>, AllocationError> {
    if weights.is_empty() {
        return Err(AllocationError::NoWeights);
    }
    if amount < 0 {
        return Err(AllocationError::NegativeAmount(amount));
    }
    if amount > MAX_UNITS {
        return Err(AllocationError::OutOfRange(amount));
    }
    let mut total: i128 = 0;
    for (index, &weight) in weights.iter().enumerate() {
        if weight <= 0 {
            return Err(AllocationError::NonPositiveWeight { index, weight });
        }
        if weight > MAX_UNITS {
            return Err(AllocationError::OutOfRange(weight));
        }
        // Cannot overflow: fewer than 2^64 weights of at most 10^19 each.
        total += weight;
    }
    let mut shares = Vec::with_capacity(weights.len());
    let mut remainders = Vec::with_capacity(weights.len());
    let mut handed: i128 = 0;
    for &weight in weights {
        // amount, weight ≤ 10^19, so the product ≤ 10^38 < i128::MAX (≈ 1.7 × 10^38).
        let product = amount * weight;
        let share = product / total;
        shares.push(share);
        remainders.push(product % total);
        handed += share;
    }
    let left = amount - handed;
    if left > 0 {
        let mut order: Vec<usize> = (0..weights.len()).collect();
        // Largest remainder first; on a tie the earlier weight (stable sort keeps it).
        order.sort_by(|&a, &b| remainders[b].cmp(&remainders[a]));
        // left < number of weights, since every remainder is below total.
        for &i in order
            .iter()
            .take(usize::try_from(left).unwrap_or(usize::MAX))
        {
            shares[i] += 1;
        }
    }
    Ok(shares)
}

#[cfg(test)]
mod tests;
