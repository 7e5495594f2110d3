//! Growth at scale (issue 12): the whole simulator (`simulator::run_to`, scenario
//! bytes to answer bytes) on N creates each followed by a TICK, and on N reads of
//! delivery locations over N locations (N relations with one location each), at
//! N = 4 000 and N = 40 000. Goal: each costs at most 11× at 40 000 what it costs at
//! 4 000 (10× is linear).
//!
//! The answer is written to a buffered writer that drops it (as the example writes to
//! a buffered standard output): what is measured is the simulator, not the growth of
//! a buffer of hundreds of megabytes holding the answer.
//!
//! Run with `cargo bench --bench scale`; the ratios are printed at the end, measured
//! in the same run: the median of 5 runs at each size.

#[path = "support/scenarios.rs"]
mod scenarios;
#[path = "support/world.rs"]
mod world;

use criterion::{criterion_group, BenchmarkId, Criterion};
use invoicing_core::simulator::run_to;
use std::hint::black_box;
use std::io::{self, BufWriter};
use std::time::{Duration, Instant};
use world::ratio;

const SIZES: [usize; 2] = [4_000, 40_000];

fn simulate(bytes: &[u8], out: &mut Vec<u8>) {
    out.clear();
    let ran = run_to(bytes, out);
    assert!(matches!(ran, Ok(Ok(()))), "the bench scenario must run");
}

/// Runs the scenario, its answer written to a buffered writer that drops it.
fn simulate_to_sink(bytes: &[u8]) {
    let mut out = BufWriter::with_capacity(1 << 16, io::sink());
    let ran = run_to(bytes, &mut out);
    assert!(matches!(ran, Ok(Ok(()))), "the bench scenario must run");
}

type Make = fn(usize) -> Vec<u8>;

const CASES: [(&str, Make); 2] = [
    ("creates_and_ticks", scenarios::scenario_creates_and_ticks),
    ("location_reads", scenarios::scenario_location_reads),
];

/// serde_json reading the scenario into a `Value`, then dropping it.
fn parse_value(bytes: &[u8]) {
    let value: serde_json::Value = serde_json::from_slice(bytes).unwrap_or_default();
    black_box(&value);
}

/// Checks that every request of the scenario was answered with a success.
fn check(bytes: &[u8]) {
    let mut out = Vec::new();
    simulate(bytes, &mut out);
    let answer: serde_json::Value = serde_json::from_slice(&out).unwrap_or_default();
    let responses = answer["responses"].as_array().cloned().unwrap_or_default();
    assert!(!responses.is_empty());
    let failed = responses
        .iter()
        .find(|r| r["status"] != 200 && r["status"] != 201);
    assert!(
        failed.is_none(),
        "every request of the bench scenario must succeed: {failed:?}"
    );
}

fn benches(c: &mut Criterion) {
    for (name, make) in CASES {
        let mut group = c.benchmark_group(name);
        group.sample_size(10);
        for n in SIZES {
            let bytes = make(n);
            check(&bytes);
            group.bench_with_input(BenchmarkId::from_parameter(n), &bytes, |b, bytes| {
                b.iter(|| simulate_to_sink(black_box(bytes)));
            });
        }
        group.finish();
    }
}

/// Nanoseconds of one run of `f` on the scenario: the median of 5.
fn median(bytes: &[u8], f: fn(&[u8])) -> u128 {
    let mut times: Vec<u128> = (0..5)
        .map(|_| {
            let start = Instant::now();
            f(black_box(bytes));
            start.elapsed().as_nanos()
        })
        .collect();
    times.sort_unstable();
    times.get(2).copied().unwrap_or(u128::MAX)
}

fn ratios() {
    for (name, make) in CASES {
        let (small, large) = (make(SIZES[0]), make(SIZES[1]));
        let t_small = median(&small, simulate_to_sink);
        let t_large = median(&large, simulate_to_sink);
        // For scale: serde_json reading the same scenario into a `Value`, and dropping it.
        let f_small = median(&small, parse_value);
        let f_large = median(&large, parse_value);
        println!(
            "{name}: N = {} {t_small} ns, N = {} {t_large} ns",
            SIZES[0], SIZES[1]
        );
        println!(
            "ratio {name} 40000/4000: {} (goal <= 11)",
            ratio(t_large, t_small)
        );
        println!(
            "ratio {name} 40000/4000 of serde_json reading the scenario into a Value: {}",
            ratio(f_large, f_small)
        );
    }
}

criterion_group! {
    name = group;
    config = Criterion::default().measurement_time(Duration::from_secs(8)).warm_up_time(Duration::from_secs(1));
    targets = benches
}

fn main() {
    group();
    ratios();
    Criterion::default().configure_from_args().final_summary();
}
