//! The rule engine (`invoicing_core::ubl::validate`) against the official validator,
//! document by document (issue 30): on every document of the committed sample
//! (tests/differential/sample.jsonl, written by `python3 tools/differential.py sample`
//! from a full run), the engine's failed fatal asserts, rule by rule and as many times,
//! are the official validator's, and so are its warnings.
//!
//! The sample: the Peppol BIS 3.0 examples of the kit (as tests/fixtures/peppol holds
//! them), CEN's EN 16931 UBL examples (tests/differential/examples/en16931), the
//! tampered examples of tests/fixtures/peppol/tampered, documents of the crate's
//! generator (examples/peppol_corpus.rs) and mutated copies of those documents (one
//! element, attribute or value broken or deleted). Each line holds the official
//! validator's answer (`fatal`, `warnings`: rule → number of failed asserts) and the
//! document: a `path` in the repository, the `xml` itself, or a `base` document of the
//! sample and a `splice` [start, end, text] (bytes start..end of the base replaced by
//! text).
//!
//! A (document, rule) on which the engine is known to differ is listed in
//! tests/differential/known.json, with both answers and the cause; the test fails on
//! any other difference, and on a listed one that no longer differs (remove it).

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};

type Counts = BTreeMap<String, u64>;

fn counts(v: &Value) -> Counts {
    v.as_object()
        .into_iter()
        .flatten()
        .map(|(k, n)| (k.clone(), n.as_u64().unwrap_or(0)))
        .collect()
}

/// The bytes of a sample line's document.
fn document(line: &Value, docs: &HashMap<String, Vec<u8>>) -> Vec<u8> {
    if let Some(path) = line["path"].as_str() {
        return std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    }
    if let Some(xml) = line["xml"].as_str() {
        return xml.as_bytes().to_vec();
    }
    let base = line["base"].as_str().expect("path, xml or base");
    let base = docs
        .get(base)
        .unwrap_or_else(|| panic!("base {base} is not an earlier document of the sample"));
    let splice = line["splice"].as_array().expect("splice");
    let at = |i: usize| usize::try_from(splice[i].as_u64().expect("offset")).expect("offset");
    let (start, end) = (at(0), at(1));
    let mut doc = base[..start].to_vec();
    doc.extend_from_slice(splice[2].as_str().expect("text").as_bytes());
    doc.extend_from_slice(&base[end..]);
    doc
}

/// Known differences: (document id, rule) → (engine, official) as [fatal, warnings].
fn known() -> BTreeMap<(String, String), ([u64; 2], [u64; 2])> {
    let text = std::fs::read_to_string("tests/differential/known.json")
        .expect("tests/differential/known.json");
    let v: Value = serde_json::from_str(&text).expect("known.json is JSON");
    let pair = |v: &Value| [v[0].as_u64().unwrap_or(0), v[1].as_u64().unwrap_or(0)];
    v["differences"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| {
            (
                (
                    d["id"].as_str().unwrap_or("").to_owned(),
                    d["rule"].as_str().unwrap_or("").to_owned(),
                ),
                (pair(&d["engine"]), pair(&d["official"])),
            )
        })
        .collect()
}

/// The rules a document fails, and how many times: (fatal, warnings).
fn judge(doc: &[u8], id: &str) -> (Counts, Counts) {
    let report =
        invoicing_core::ubl::validate(doc).unwrap_or_else(|e| panic!("{id}: not read: {e}"));
    let (mut fatal, mut warnings) = (Counts::new(), Counts::new());
    for f in &report.findings {
        *(if f.fatal { &mut fatal } else { &mut warnings })
            .entry(f.rule.to_owned())
            .or_default() += 1;
    }
    (fatal, warnings)
}

/// Every line of the sample with its document.
fn sample() -> Vec<(Value, Vec<u8>)> {
    let text = std::fs::read_to_string("tests/differential/sample.jsonl")
        .expect("tests/differential/sample.jsonl");
    let mut lines = Vec::new();
    let mut docs: HashMap<String, Vec<u8>> = HashMap::new();
    for raw in text.lines() {
        let line: Value = serde_json::from_str(raw).expect("a JSON line");
        let doc = document(&line, &docs);
        docs.insert(line["id"].as_str().expect("id").to_owned(), doc.clone());
        lines.push((line, doc));
    }
    lines
}

/// The engine on every document, on every core (the debug build is slow).
fn judge_all(lines: &[(Value, Vec<u8>)]) -> Vec<(Counts, Counts)> {
    let workers = std::thread::available_parallelism().map_or(2, usize::from);
    let chunk = lines.len().div_ceil(workers).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = lines
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|(line, doc)| judge(doc, line["id"].as_str().unwrap_or("?")))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a worker"))
            .collect()
    })
}

#[test]
fn every_sample_document_fails_the_asserts_the_official_validator_fails_as_many_times() {
    let known = known();
    let lines = sample();
    let judged = judge_all(&lines);
    let mut per_source: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut unexpected = Vec::new();
    let mut still_known = BTreeSet::new();
    for ((line, _), (fatal, warnings)) in lines.iter().zip(&judged) {
        let id = line["id"].as_str().unwrap_or("?");
        let (official_fatal, official_warnings) =
            (counts(&line["fatal"]), counts(&line["warnings"]));
        let rules: BTreeSet<&String> = fatal
            .keys()
            .chain(warnings.keys())
            .chain(official_fatal.keys())
            .chain(official_warnings.keys())
            .collect();
        let n = |c: &Counts, r: &String| c.get(r).copied().unwrap_or(0);
        let mut agrees = true;
        for rule in rules {
            let engine = [n(fatal, rule), n(warnings, rule)];
            let official = [n(&official_fatal, rule), n(&official_warnings, rule)];
            if engine == official {
                continue;
            }
            agrees = false;
            let key = (id.to_owned(), rule.clone());
            if known.get(&key) == Some(&(engine, official)) {
                still_known.insert(key);
            } else {
                unexpected.push(format!(
                    "{id}: {rule}: engine [fatal, warnings] {engine:?}, official {official:?}"
                ));
            }
        }
        let entry = per_source
            .entry(line["source"].as_str().unwrap_or("?").to_owned())
            .or_default();
        entry.0 += 1;
        entry.1 += usize::from(agrees);
    }
    for (source, (n, agree)) in &per_source {
        println!("{source}: {agree} of {n} documents agree with the official validator");
    }
    let fixed: Vec<&(String, String)> =
        known.keys().filter(|k| !still_known.contains(*k)).collect();
    for u in &unexpected {
        println!("  differs: {u}");
    }
    for (id, rule) in &fixed {
        println!("  listed in known.json but no longer differs (remove it): {id} {rule}");
    }
    assert!(
        unexpected.is_empty(),
        "{} (document, rule) pairs differ from the official validator",
        unexpected.len()
    );
    assert!(
        fixed.is_empty(),
        "{} entries of known.json are stale",
        fixed.len()
    );
}
