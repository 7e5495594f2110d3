//! The worked examples of the spec (`shared/spec/examples/`, copied to
//! `tests/fixtures/spec_examples/`), each run through the simulator and checked with
//! the examples' comparator.

use crate::expect::check_expectations;
use invoicing_core::simulator::run;
use serde_json::Value;

fn check_fixture(name: &str, text: &str) {
    let fixture: Value =
        serde_json::from_str(text).unwrap_or_else(|e| panic!("{name}: bad fixture: {e}"));
    let scenario =
        serde_json::to_vec(&fixture["scenario"]).unwrap_or_else(|e| panic!("{name}: {e}"));
    let result = run(&scenario);
    let expect = fixture["expect"]
        .as_array()
        .unwrap_or_else(|| panic!("{name}: no expect list"));
    if let Err(e) = check_expectations(&result, expect) {
        let why = fixture["why"].as_str().unwrap_or_default();
        let pretty = serde_json::to_string_pretty(&result).unwrap_or_default();
        panic!("{name}: {e}\nwhy: {why}\nresult: {pretty}");
    }
}

#[test]
fn example_001_single_line_full_document() {
    check_fixture(
        "001_single_line_full_document.json",
        include_str!("../fixtures/spec_examples/001_single_line_full_document.json"),
    );
}

#[test]
fn example_005_doc_allowance_largest_remainder_loses_no_cent() {
    check_fixture(
        "005_doc_allowance_largest_remainder_loses_no_cent.json",
        include_str!(
            "../fixtures/spec_examples/005_doc_allowance_largest_remainder_loses_no_cent.json"
        ),
    );
}

#[test]
fn example_011_half_away_from_zero_negative_quantity() {
    check_fixture(
        "011_half_away_from_zero_negative_quantity.json",
        include_str!("../fixtures/spec_examples/011_half_away_from_zero_negative_quantity.json"),
    );
}

#[test]
fn example_101_due_dates_from_2024_01_31() {
    check_fixture(
        "101_due_dates_from_2024_01_31.json",
        include_str!("../fixtures/spec_examples/101_due_dates_from_2024_01_31.json"),
    );
}

#[test]
fn example_204_remittance_check_zero_becomes_97() {
    check_fixture(
        "204_remittance_check_zero_becomes_97.json",
        include_str!("../fixtures/spec_examples/204_remittance_check_zero_becomes_97.json"),
    );
}

#[test]
fn example_325_several_errors_in_one_answer() {
    check_fixture(
        "325_several_errors_in_one_answer.json",
        include_str!("../fixtures/spec_examples/325_several_errors_in_one_answer.json"),
    );
}
