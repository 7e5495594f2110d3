//! Byte-for-byte outputs (issue 18): every bundled scenario, spec example, test
//! fixture and fuzz seed or regression is run through the crate's public entries (the
//! simulator's `run_to`, the received reader), and the SHA-256 of each output is
//! compared with `tests/golden/outputs.sha256`, recorded before the code was
//! reorganised. A refactoring must leave every line of that file true.
//!
//! `GOLDEN_UPDATE=1 cargo test --test golden` rewrites the file (only for a change of
//! behaviour that is meant); on a mismatch the output is written to
//! `target/golden/` for a `cmp` or `diff` with the previous binary's.

use invoicing_core::received::{own_pdf, read, ResponseInfo};
use invoicing_core::simulator;
use sha2::{Digest, Sha256};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const SCENARIO_DIRS: &[&str] = &[
    "examples/scenarios",
    "tests/fixtures/spec_examples",
    "fuzz/seeds/simulator",
    "fuzz/regressions/simulator",
];
const SCENARIO_FILES: &[&str] = &["tests/peppol/defects.json"];
const RECEIVED_DIRS: &[&str] = &[
    "tests/fixtures/peppol",
    "tests/fixtures/peppol/tampered",
    "fuzz/seeds/received",
];

fn files_in(dir: &str, keep: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut out: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.is_file() && keep(p))
        .collect();
    out.sort();
    out
}

fn relative(path: &Path) -> String {
    path.strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .expect("inside the crate")
        .to_string_lossy()
        .replace('\\', "/")
}

fn scenario_output(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let ran = simulator::run_to(bytes, &mut out).expect("writing to a Vec");
    out.extend_from_slice(if ran.is_ok() { b"\nran" } else { b"\nerror" });
    out
}

fn received_output(bytes: &[u8]) -> Vec<u8> {
    let doc = read(bytes);
    let mut out = serde_json::to_vec_pretty(&doc.to_json(&ResponseInfo::new("golden")))
        .expect("JSON of a received document");
    if let Some(pdf) = own_pdf(bytes) {
        out.extend_from_slice(b"\nown pdf ");
        out.extend_from_slice(hex(&Sha256::digest(&pdf)).as_bytes());
    }
    out
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

fn outputs() -> Vec<(String, Vec<u8>)> {
    let mut all = Vec::new();
    let is_json = |p: &Path| p.extension().is_some_and(|e| e == "json");
    for dir in SCENARIO_DIRS {
        for path in files_in(dir, |p| !p.ends_with("README.md")) {
            let bytes = std::fs::read(&path).expect("readable input");
            all.push((relative(&path), scenario_output(&bytes)));
        }
    }
    for file in SCENARIO_FILES {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let bytes = std::fs::read(&path).expect("readable input");
        all.push((relative(&path), scenario_output(&bytes)));
    }
    for dir in RECEIVED_DIRS {
        for path in files_in(dir, |p| {
            !is_json(p) && !p.ends_with("README.md") && p.extension().is_none_or(|e| e != "py")
        }) {
            let bytes = std::fs::read(&path).expect("readable input");
            all.push((relative(&path), received_output(&bytes)));
        }
    }
    all
}

#[test]
fn every_output_is_byte_for_byte_the_recorded_one() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let record = manifest.join("tests/golden/outputs.sha256");
    let outputs = outputs();
    let lines = outputs.iter().fold(String::new(), |mut s, (name, out)| {
        let _ = writeln!(s, "{}  {name}", hex(&Sha256::digest(out)));
        s
    });
    if std::env::var_os("GOLDEN_UPDATE").is_some() {
        std::fs::write(&record, &lines).expect("write the record");
        return;
    }
    let recorded = std::fs::read_to_string(&record).expect("tests/golden/outputs.sha256");
    let dump = manifest.join("target/golden");
    let mut differ = Vec::new();
    for ((name, out), (line, want)) in outputs.iter().zip(lines.lines().zip(recorded.lines())) {
        if line != want {
            let file = dump.join(name.replace('/', "__"));
            std::fs::create_dir_all(&dump).expect("target/golden");
            std::fs::write(&file, out).expect("dump the output");
            differ.push(format!("{name} (output in {})", file.display()));
        }
    }
    assert_eq!(
        lines.lines().count(),
        recorded.lines().count(),
        "the inputs changed: {} now, {} recorded",
        lines.lines().count(),
        recorded.lines().count()
    );
    assert!(
        differ.is_empty(),
        "outputs differ from the record:\n{}",
        differ.join("\n")
    );
}
