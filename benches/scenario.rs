//! The whole simulator on a scenario (issue 12): 50 creates of the 500-line document
//! of `benches/create.rs`, from the scenario's bytes to the answer's bytes
//! (`simulator::run_to`), beside a floor: `serde_json` parsing the same scenario into a
//! `Value` and writing the same answer (read into a `Value` before timing) pretty.
//!
//! Run with `cargo bench --bench scenario`; the ratio is printed at the end, measured
//! in the same run. Goal: ≤ 1.3.

#[path = "support/scenarios.rs"]
mod scenarios;
#[path = "support/world.rs"]
mod world;

use criterion::{criterion_group, Criterion};
use invoicing_core::simulator::run_to;
use scenarios::scenario_creates;
use serde_json::Value;
use std::hint::black_box;
use std::time::Duration;
use world::{per_call, ratio};

fn simulate(bytes: &[u8], out: &mut Vec<u8>) {
    out.clear();
    let ran = run_to(bytes, out);
    assert!(matches!(ran, Ok(Ok(()))), "the bench scenario must run");
}

fn serde_floor(bytes: &[u8], answer: &Value, out: &mut Vec<u8>) {
    out.clear();
    let scenario: Value = serde_json::from_slice(bytes).unwrap_or(Value::Null);
    black_box(&scenario);
    let written = serde_json::to_writer_pretty(&mut *out, answer);
    assert!(written.is_ok());
    out.push(b'\n');
}

/// The scenario, the simulator's answer as a `Value`, and the answer's size.
fn setup() -> (Vec<u8>, Value, usize) {
    let bytes = scenario_creates(50, 500);
    let mut out = Vec::new();
    simulate(&bytes, &mut out);
    let answer: Value = serde_json::from_slice(&out).unwrap_or(Value::Null);
    let created = answer["responses"]
        .as_array()
        .map_or(0, |r| r.iter().filter(|r| r["status"] == 201).count());
    assert_eq!(
        created, 50,
        "every create of the bench scenario must succeed"
    );
    let mut floor = Vec::new();
    serde_floor(&bytes, &answer, &mut floor);
    assert_eq!(floor, out, "the floor writes the very bytes of the answer");
    (bytes, answer, out.len())
}

fn benches(c: &mut Criterion) {
    let (bytes, answer, size) = setup();
    let mut out = Vec::with_capacity(size);
    c.bench_function("scenario/50x500", |b| {
        b.iter(|| simulate(black_box(&bytes), &mut out));
    });
    c.bench_function("scenario_floor/50x500", |b| {
        b.iter(|| serde_floor(black_box(&bytes), &answer, &mut out));
    });
}

fn ratios() {
    let (bytes, answer, size) = setup();
    let mut out = Vec::with_capacity(size);
    let budget = Duration::from_secs(6);
    let sim = per_call(budget, || simulate(black_box(&bytes), &mut out));
    let floor = per_call(budget, || serde_floor(black_box(&bytes), &answer, &mut out));
    println!(
        "scenario of 50 creates of 500 lines ({} kB in, {} kB out): simulator {sim} ns, serde floor {floor} ns",
        bytes.len() / 1000,
        size / 1000
    );
    println!(
        "ratio scenario/serde floor: {} (goal <= 1.3)",
        ratio(sim, floor)
    );
}

criterion_group! {
    name = group;
    config = Criterion::default().sample_size(10).measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_secs(1));
    targets = benches
}

fn main() {
    group();
    ratios();
    Criterion::default().configure_from_args().final_summary();
}
