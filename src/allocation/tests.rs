use super::*;
use proptest::prelude::*;

// Equivalent mutant (cargo mutants): `if left > 0` → `if left >= 0` in `allocate`.
// With left = 0 the block sorts the indexes and takes none of them, so no share
// changes; no input can tell the two apart.

#[test]
fn largest_remainder_loses_no_cent() {
    // docs/decisions.md §3.6: 1000 cents over 3333/3333/3334 → 333/333/334
    assert_eq!(
        allocate(1000, &[3333, 3333, 3334]).unwrap(),
        vec![333, 333, 334]
    );
}

#[test]
fn ties_go_to_the_earlier_weight() {
    // docs/decisions.md §3.6: ties → the earlier group
    assert_eq!(allocate(1, &[1, 1, 1]).unwrap(), vec![1, 0, 0]);
    assert_eq!(allocate(2, &[1, 1, 1]).unwrap(), vec![1, 1, 0]);
    assert_eq!(allocate(2, &[1, 2, 1, 2]).unwrap(), vec![0, 1, 0, 1]);
}

#[test]
fn refused_inputs_are_errors() {
    // docs/decisions.md §9: a negative amount or a weight that is not positive is refused
    assert_eq!(allocate(0, &[]), Err(AllocationError::NoWeights));
    assert_eq!(allocate(-1, &[1]), Err(AllocationError::NegativeAmount(-1)));
    assert_eq!(
        allocate(5, &[2, 0]),
        Err(AllocationError::NonPositiveWeight {
            index: 1,
            weight: 0
        })
    );
    assert_eq!(
        allocate(5, &[-3]),
        Err(AllocationError::NonPositiveWeight {
            index: 0,
            weight: -3
        })
    );
    assert_eq!(
        allocate(MAX_UNITS + 1, &[1]),
        Err(AllocationError::OutOfRange(MAX_UNITS + 1))
    );
    assert_eq!(
        allocate(1, &[i128::MAX]),
        Err(AllocationError::OutOfRange(i128::MAX))
    );
}

#[test]
fn zero_amount_gives_zero_shares() {
    assert_eq!(allocate(0, &[5, 7]).unwrap(), vec![0, 0]);
}

#[test]
fn extreme_values_stay_exact() {
    let shares = allocate(MAX_UNITS, &[MAX_UNITS, MAX_UNITS, 1]).unwrap();
    assert_eq!(shares.iter().sum::<i128>(), MAX_UNITS);
}

proptest! {
    /// Invariant: the shares sum to the amount, and each share is within one minor
    /// unit of its exact proportion amount × weight / Σ weights.
    #[test]
    fn shares_sum_to_the_amount_and_stay_within_one_unit(
        amount in 0i128..=MAX_UNITS,
        weights in proptest::collection::vec(1i128..=MAX_UNITS, 1..60),
    ) {
        let shares = allocate(amount, &weights).unwrap();
        prop_assert_eq!(shares.len(), weights.len());
        prop_assert_eq!(shares.iter().sum::<i128>(), amount);
        let total: i128 = weights.iter().sum();
        for (s, w) in shares.iter().zip(&weights) {
            // |s - amount*w/total| < 1  ⇔  |s*total - amount*w| < total
            // (computed on u128-safe ranges: both sides ≤ 6·10^38 would overflow, so
            // compare via floor and ceil instead)
            let floor = amount * w / total;
            prop_assert!(*s == floor || *s == floor + 1);
        }
    }

    /// Invariant: small amounts over small weights match a naive exact reference.
    #[test]
    fn matches_a_reference_on_small_inputs(
        amount in 0i128..10_000,
        weights in proptest::collection::vec(1i128..10_000, 1..12),
    ) {
        let shares = allocate(amount, &weights).unwrap();
        let total: i128 = weights.iter().sum();
        let mut expect: Vec<i128> = weights.iter().map(|w| amount * w / total).collect();
        let mut rem: Vec<(i128, usize)> = weights.iter().enumerate().map(|(i, w)| (-(amount * w % total), i)).collect();
        rem.sort_unstable();
        let left = amount - expect.iter().sum::<i128>();
        for &(_, i) in rem.iter().take(usize::try_from(left).unwrap()) {
            expect[i] += 1;
        }
        prop_assert_eq!(shares, expect);
    }
}
