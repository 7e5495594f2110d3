//! `invoicing_core::ubl::validate` against the Rust peer `en16931-formats` 0.8
//! (issue 30), on the same bytes: the 500-line document of `benches/validate.rs` and
//! `tests/fixtures/peppol/base-example.xml`.
//!
//! Ours interprets every assert of the CEN EN 16931 and Peppol BIS 3.0 Schematron
//! artefacts over a DOM; the peer (`en16931_formats::receive`, default policy) reads
//! the UBL into `en16931`'s model and runs its hand-written rules of the declared
//! profile (Peppol BIS Billing 3.0). Each half is also timed alone: reading (our
//! `Dom::read`, the peer's `read`) and the rules over what was read (our
//! `engine::check`, the peer's `Check::run`).
//!
//! Run with `cargo bench -p invoicing-peer-bench`; the figures, the ratios
//! (ours / peer) and the table of the rule ids each side reports on the Peppol
//! fixtures are printed at the end, in the same run.

use criterion::{criterion_group, Criterion};
use en16931::profiles;
use en16931::validation::Check;
use en16931_formats::Policy;
use invoicing_core::ubl::dom::Dom;
use invoicing_core::ubl::engine;
use invoicing_peer_bench::world::{per_call, ratio};
use invoicing_peer_bench::{
    base_example, fixtures, ours, ours_fatal, peer, peer_count, peer_errors, xml_500,
};
use std::collections::HashMap;
use std::hint::black_box;
use std::time::Duration;

fn documents() -> [(&'static str, Vec<u8>); 2] {
    let xml = xml_500().into_bytes();
    assert!(!xml.is_empty(), "the 500-line document must have a UBL");
    let base = base_example();
    assert!(!base.is_empty(), "tests/fixtures/peppol/base-example.xml");
    [("500", xml), ("base-example", base)]
}

fn benches(c: &mut Criterion) {
    let policy = Policy::default();
    for (name, bytes) in documents() {
        c.bench_function(&format!("peer/{name}/ours"), |b| {
            b.iter(|| ours(black_box(&bytes)));
        });
        c.bench_function(&format!("peer/{name}/en16931-formats"), |b| {
            b.iter(|| peer_count(&peer(black_box(&bytes), &policy)));
        });
    }
}

fn figures() {
    let policy = Policy::default();
    let budget = Duration::from_secs(3);
    let mut lines = Vec::new();
    for (name, bytes) in documents() {
        let ours_ns = per_call(budget, || {
            black_box(ours(black_box(&bytes)));
        });
        let peer_ns = per_call(budget, || {
            black_box(peer_count(&peer(black_box(&bytes), &policy)));
        });
        // Each half alone: reading the bytes (our DOM, the peer's model) and the rules
        // over what was read (our engine over the DOM, the peer's rules of the
        // declared profile over the model, as `receive` runs them).
        let ours_read = per_call(budget, || {
            black_box(Dom::read(black_box(&bytes)).is_ok());
        });
        let peer_read = per_call(budget, || {
            black_box(en16931_formats::read(black_box(&bytes)).is_ok());
        });
        let Ok(dom) = Dom::read(&bytes) else {
            panic!("{name}: not XML");
        };
        let Ok(read) = en16931_formats::read(&bytes) else {
            panic!("{name}: the peer cannot read it");
        };
        let declared = profiles::classify(read.invoice.specification_id.as_deref())
            .profile()
            .unwrap_or(&profiles::EN16931);
        let check = Check::new(declared);
        let ours_rules = per_call(budget, || {
            black_box(engine::check(black_box(&dom)).findings.len());
        });
        let peer_rules = per_call(budget, || {
            black_box(check.run(black_box(&read.invoice)).findings().len());
        });
        let received = peer(&bytes, &policy);
        let semantic = received.report_declared.semantic.report.as_ref();
        lines.push(format!(
            "{name} ({} bytes): ours {ours_ns} ns ({} findings); en16931-formats {peer_ns} ns \
             ({} findings, {} rules checked, profile {}); ratio ours/peer {}\n  \
             reading only: our Dom::read {ours_read} ns, peer read {peer_read} ns, ratio {}\n  \
             rules only: our engine::check {ours_rules} ns, peer Check::run {peer_rules} ns, \
             ratio {}",
            bytes.len(),
            ours(&bytes),
            peer_count(&received),
            semantic.map_or(0, en16931::ValidationReport::rules_checked),
            declared.id,
            ratio(ours_ns, peer_ns),
            ratio(ours_read, peer_read),
            ratio(ours_rules, peer_rules),
        ));
    }
    for line in lines {
        println!("{line}");
    }
}

/// The official validator's fatal rule ids per tampered copy
/// (`tests/fixtures/peppol/tampered/expected.json`, release 2026.5 of the validation
/// kit), each once, keyed `tampered/NAME.xml`; the untampered examples pass it
/// (tests/fixtures/peppol/README.md), so they are not listed.
fn official() -> HashMap<String, Vec<String>> {
    let path =
        invoicing_peer_bench::workspace().join("tests/fixtures/peppol/tampered/expected.json");
    let json: serde_json::Value = std::fs::read(path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
    let mut out = HashMap::new();
    for (name, findings) in json.as_object().into_iter().flatten() {
        let mut rules: Vec<String> = Vec::new();
        for f in findings.as_array().into_iter().flatten() {
            let rule = f["rule"].as_str().unwrap_or_default();
            if f["flag"] == "fatal" && !rules.iter().any(|r| r == rule) {
                rules.push(rule.to_owned());
            }
        }
        out.insert(format!("tampered/{name}"), rules);
    }
    out
}

/// The 500-line document's name in the table.
const FIVE_HUNDRED: &str = "the 500-line document";

/// Whether two lists name the same rule ids, in any order.
fn same_ids(a: &[String], b: &[String]) -> bool {
    a.iter().all(|r| b.contains(r)) && b.iter().all(|r| a.contains(r))
}

/// Per document (the 500-line one, then each fixture), the rule ids each side reports
/// (our fatal findings, the peer's errors) beside the official validator's (none for
/// the untampered examples, which pass it; unknown for the 500-line document), and a
/// summary.
fn agreement() {
    let root = invoicing_peer_bench::workspace().join("tests/fixtures/peppol");
    let official = official();
    let (mut files, mut verdicts, mut same, mut overlap) = (0, 0, 0, 0);
    let (mut only_ours_total, mut only_peer_total, mut both_total) = (0, 0, 0);
    let (mut judged, mut ours_official, mut peer_official) = (0, 0, 0);
    println!(
        "\n| file | official (fatal) | ours (fatal) | en16931-formats (errors) | only ours | only peer |"
    );
    println!("|---|---|---|---|---|---|");
    let named = fixtures().into_iter().filter_map(|path| {
        let bytes = std::fs::read(&path).ok()?;
        let name = path.strip_prefix(&root).unwrap_or(&path).display();
        Some((name.to_string(), bytes))
    });
    for (name, bytes) in
        std::iter::once((FIVE_HUNDRED.to_owned(), xml_500().into_bytes())).chain(named)
    {
        let ours = ours_fatal(&bytes);
        let theirs = peer_errors(&bytes);
        let only_ours: Vec<&str> = ours
            .iter()
            .filter(|r| !theirs.contains(r))
            .map(String::as_str)
            .collect();
        let only_peer: Vec<&str> = theirs
            .iter()
            .filter(|r| !ours.contains(r))
            .map(String::as_str)
            .collect();
        let both = ours.len() - only_ours.len();
        files += 1;
        verdicts += usize::from(ours.is_empty() == theirs.is_empty());
        same += usize::from(only_ours.is_empty() && only_peer.is_empty());
        overlap += usize::from(both > 0);
        both_total += both;
        only_ours_total += only_ours.len();
        only_peer_total += only_peer.len();
        let list = |ids: &[String]| {
            if ids.is_empty() {
                "—".to_owned()
            } else {
                ids.join(", ")
            }
        };
        let expected = if name.starts_with("tampered/") {
            official.get(&name).cloned()
        } else if name == FIVE_HUNDRED {
            None
        } else {
            Some(Vec::new())
        };
        let shown = expected.as_deref().map_or_else(|| "?".to_owned(), list);
        if let Some(e) = &expected {
            judged += 1;
            ours_official += usize::from(same_ids(&ours, e));
            peer_official += usize::from(same_ids(&theirs, e));
        }
        println!(
            "| {name} | {shown} | {} | {} | {} | {} |",
            list(&ours),
            list(&theirs),
            only_ours.join(", "),
            only_peer.join(", ")
        );
    }
    println!(
        "\n{files} documents: same verdict (valid / invalid) on {verdicts}; the same rule ids \
         on {same}; at least one rule id in common on {overlap}; rule ids reported by both \
         {both_total}, by ours only {only_ours_total}, by the peer only {only_peer_total}. \
         Against the official validator ({judged} fixtures): ours names its rule ids on \
         {ours_official}, the peer on {peer_official}"
    );
}

criterion_group! {
    name = group;
    config = Criterion::default().sample_size(10).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    targets = benches
}

fn main() {
    group();
    figures();
    agreement();
    Criterion::default().configure_from_args().final_summary();
}
