//! Allocation: an amount spread over weights (docs/decisions.md §3 step 6, §9).
//!
//! The input is an arbitrary (amount, weights, mode); the mode maps the raw values
//! into ranges where refusals are rare (valid ranges, small numbers, the MAX_UNITS
//! boundary) so that the fuzzer spends time on the arithmetic, not only on refusals.
//!
//! Invariants:
//! - refused inputs (no weight, a negative amount, a weight ≤ 0, an amount or a
//!   weight above MAX_UNITS) are an `Err` naming a real fault, never a panic;
//! - accepted inputs give one share per weight, summing to the amount, each the floor
//!   of amount × w / Σw or one more, and exactly the largest-remainder allocation of
//!   §3.6 (floor, then one unit to each of the largest remainders, ties to the
//!   earlier weight).
#![no_main]

use invoicing_core::allocation::{allocate, AllocationError, MAX_UNITS};
use libfuzzer_sys::fuzz_target;

fn shape(mode: u8, v: i128, small: bool) -> i128 {
    match mode % 5 {
        // raw: mostly refused
        0 => v,
        // anywhere in the accepted range, with some refusals at the edges
        1 => v.rem_euclid(MAX_UNITS + 2) - i128::from(small),
        // small numbers, where remainders tie often
        2 => v.rem_euclid(if small { 1000 } else { 20 }),
        // around MAX_UNITS
        3 => MAX_UNITS - v.rem_euclid(4) + 1,
        // mixed magnitudes
        _ => v.rem_euclid(10_i128.pow(u32::try_from(v.rem_euclid(20)).expect("small"))) + 1,
    }
}

fuzz_target!(|input: (u8, i128, Vec<i128>)| {
    let (mode, raw_amount, raw_weights) = input;
    let amount = shape(mode, raw_amount, true);
    let weights: Vec<i128> = raw_weights
        .iter()
        .map(|&w| shape(mode >> 3, w, false))
        .collect();

    let refused = weights.is_empty()
        || !(0..=MAX_UNITS).contains(&amount)
        || weights.iter().any(|w| !(1..=MAX_UNITS).contains(w));
    let result = allocate(amount, &weights);
    match result {
        Err(e) => {
            assert!(
                refused,
                "allocate({amount}, {weights:?}) refused a valid input: {e}"
            );
            match e {
                AllocationError::NoWeights => assert!(weights.is_empty()),
                AllocationError::NegativeAmount(a) => assert!(a == amount && a < 0),
                AllocationError::NonPositiveWeight { index, weight } => {
                    assert_eq!(weights.get(index), Some(&weight));
                    assert!(weight <= 0);
                }
                AllocationError::OutOfRange(v) => {
                    assert!(
                        v > MAX_UNITS && (v == amount || weights.contains(&v)),
                        "OutOfRange({v}) names no input"
                    );
                }
            }
        }
        Ok(shares) => {
            assert!(
                !refused,
                "allocate({amount}, {weights:?}) accepted a refused input: {shares:?}"
            );
            assert_eq!(shares.len(), weights.len(), "not one share per weight");
            assert_eq!(
                shares.iter().sum::<i128>(),
                amount,
                "shares do not sum to the amount"
            );
            let total: i128 = weights.iter().sum();
            // amount, w ≤ 10^19: amount × w ≤ 10^38 < i128::MAX.
            let floors: Vec<i128> = weights.iter().map(|w| amount * w / total).collect();
            for (i, (s, f)) in shares.iter().zip(&floors).enumerate() {
                assert!(
                    *s == *f || *s == *f + 1,
                    "share {i} = {s} is not floor {f} or floor + 1"
                );
            }
            // The largest-remainder reference: stable sort on the remainder, descending.
            let mut order: Vec<usize> = (0..weights.len()).collect();
            order.sort_by_key(|&i| std::cmp::Reverse(amount * weights[i] % total));
            let left = usize::try_from(amount - floors.iter().sum::<i128>())
                .expect("fewer units left than weights");
            let mut expect = floors;
            for &i in &order[..left] {
                expect[i] += 1;
            }
            assert_eq!(
                shares, expect,
                "not the largest-remainder allocation (ties to the earlier weight)"
            );
        }
    }
});
