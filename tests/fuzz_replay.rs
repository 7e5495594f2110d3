//! Every input a fuzz target ever failed on (`fuzz/regressions/<target>/`) replayed by
//! plain `cargo test` on stable, through the very checks the target runs
//! (`fuzz/src/lib.rs`, included here), so a regression fails without nightly.

#[path = "../fuzz/src/lib.rs"]
#[allow(dead_code, clippy::many_single_char_names, clippy::too_many_lines)]
// The fuzz crate's checks, written for libFuzzer and included whole: the ones this
// replay does not call are the other targets', and the document check is one long
// list of the identities of docs/decisions.md §3.
mod checks;

use std::path::PathBuf;

/// The regression inputs of a target, sorted; `None` when it has no folder.
fn regressions(target: &str) -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/regressions")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    files.sort();
    files
}

#[test]
fn every_regression_folder_has_a_replay() {
    // a folder of a target this file does not replay would be kept but never run
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    for entry in std::fs::read_dir(root).expect("fuzz/regressions").flatten() {
        if entry.path().is_dir() {
            let name = entry.file_name().to_string_lossy().into_owned();
            assert!(
                ["simulator"].contains(&name.as_str()),
                "fuzz/regressions/{name}: add its target's check to fuzz/src/lib.rs and replay it here"
            );
        }
    }
}

#[test]
fn every_simulator_regression_passes_the_simulator_target() {
    let files = regressions("simulator");
    assert!(files.len() >= 4, "the kept regressions: {files:?}");
    replay(&files);
}

#[test]
fn every_simulator_seed_passes_the_simulator_target() {
    // the campaign seeds the target with these (fuzz/campaign.sh); a seed that fails
    // the target's checks is a finding of the checks or of the crate
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in [
        "examples/scenarios",
        "tests/fixtures/spec_examples",
        "fuzz/seeds/simulator",
    ] {
        let found = std::fs::read_dir(root.join(dir))
            .expect("a seed folder")
            .flatten();
        files.extend(found.map(|e| e.path()).filter(|p| p.is_file()));
    }
    files.sort();
    assert!(files.len() >= 20, "the seeds: {files:?}");
    replay(&files);
}

/// Runs the simulator target's checks on every file; a failure names the file.
fn replay(files: &[PathBuf]) {
    for file in files {
        let data = std::fs::read(file).expect("an input");
        if let Err(panic) = std::panic::catch_unwind(|| checks::simulator(&data)) {
            let why = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default();
            panic!("{}: {why}", file.display());
        }
    }
}
