//! The rule engine (`ubl::validate`, issue 30): any bytes, and through its seeds (the
//! official Peppol examples and a sample of CEN's UBL unit tests, EUPL-1.2) mutated
//! valid documents: each mutation breaks or deletes an element, an attribute or a
//! value somewhere, as libFuzzer's byte mutations do.
//!
//! Invariants:
//! - validating never panics and is deterministic (the same bytes, the same report);
//! - every answer of a plan (`ubl::xpath::plan`: an assert's test or a rule's context
//!   walked in place) is the evaluator's on the same element (`engine::check_plans`);
//! - every finding is located (`/*:Invoice[…][1]/…`, an XPath from the root) and has
//!   its artefact's text; every assert left unevaluated says why;
//! - a UBL the received reader reads has as its `checks` exactly the engine's
//!   findings, fatal first, then warnings, each marked with its flag and location.
#![no_main]

use invoicing_core::received::read;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let Ok(report) = invoicing_core::ubl::validate(bytes) else {
        return;
    };
    // the same bytes once more, each plan's answer checked against the evaluator's
    let Ok(dom) = invoicing_core::ubl::dom::Dom::read(bytes) else {
        panic!("read once, not twice");
    };
    let (again, plans) = invoicing_core::ubl::engine::check_plans(&dom);
    assert_eq!(again, report, "validating is deterministic");
    assert!(plans.differ.is_empty(), "plans differ: {:?}", plans.differ);
    for f in &report.findings {
        // an element in no namespace is written `/name[1]`, one in a namespace `/*:name[…][1]`
        assert!(f.location.starts_with('/'), "{}: {}", f.rule, f.location);
        assert!(!f.text.is_empty(), "{}", f.rule);
    }
    for (rule, location, why) in &report.unevaluated {
        assert!(location.starts_with('/') && !why.is_empty(), "{rule}");
    }
    let doc = read(bytes);
    if !doc.xml_available {
        return;
    }
    let (fatal, warnings): (Vec<_>, Vec<_>) = report.findings.iter().partition(|f| f.fatal);
    let expected: Vec<(&str, &str, &str)> = fatal
        .iter()
        .chain(warnings.iter())
        .map(|f| {
            let flag = if f.fatal { "fatal" } else { "warning" };
            (f.rule, flag, f.location.as_str())
        })
        .collect();
    let got: Vec<(&str, &str, &str)> = doc
        .checks
        .iter()
        .filter(|c| c.flag.is_some())
        .map(|c| {
            (
                c.rule.as_str(),
                c.flag.as_deref().unwrap_or(""),
                c.location.as_deref().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(got, expected, "the received checks are the engine's findings");
});
