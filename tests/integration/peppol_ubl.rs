//! The UBL of every document of the bundled scenarios, pinned (issue 9): each
//! scenario is run with, after its own requests, a `TICK` and a
//! `GET /documents/{id}/ubl` of every document it holds, and the XML of each answer
//! is snapshotted, indented for review (one element per line) after checking that
//! the bytes themselves are the compact form docs/peppol.md §6 fixes: the XML declaration,
//! then elements with no whitespace between them.

use invoicing_core::simulator::run;
use quick_xml::events::Event;
use quick_xml::{Reader, Writer};
use serde_json::{json, Value};

/// The scenario with a TICK and a GET of the UBL of every document it holds (preloaded
/// or created live) appended, and the ids in the order of those GETs.
fn with_every_ubl(scenario: &Value) -> (Value, Vec<String>) {
    let first = run(scenario.to_string().as_bytes());
    let mut ids: Vec<String> = scenario["documents"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|d| d["id"].as_str().map(str::to_owned))
        .collect();
    for r in first["responses"].as_array().into_iter().flatten() {
        if let Some(id) = r["body"]["id"].as_str() {
            if r["status"] == 201 && id.starts_with("doc-") && !ids.iter().any(|i| i == id) {
                ids.push(id.to_owned());
            }
        }
    }
    let client = scenario["clients"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|c| c["environment"].as_str().unwrap_or("live") == "live")
        .and_then(|c| c["client_id"].as_str())
        .unwrap_or_default()
        .to_owned();
    let mut requests = scenario["requests"].as_array().cloned().unwrap_or_default();
    requests.push(json!({"method": "TICK"}));
    for id in &ids {
        requests.push(
            json!({"client": client, "method": "GET", "path": format!("/documents/{id}/ubl")}),
        );
    }
    let mut augmented = scenario.clone();
    augmented["requests"] = Value::Array(requests);
    (augmented, ids)
}

/// The XML indented by quick-xml, one element per line (the bytes are checked apart).
fn indented(xml: &str) -> String {
    let mut reader = Reader::from_str(xml);
    let mut writer = Writer::new_with_indent(Vec::new(), b' ', 2);
    loop {
        match reader.read_event() {
            Ok(Event::Eof) => break,
            Ok(event) => {
                if let Err(e) = writer.write_event(event) {
                    panic!("cannot rewrite the xml: {e}");
                }
            }
            Err(e) => panic!("not well-formed at {}: {e}\n{xml}", reader.error_position()),
        }
    }
    String::from_utf8(writer.into_inner()).unwrap_or_default()
}

/// Snapshots the UBL of every document of a bundled scenario; answers how many
/// documents had one.
fn snapshot_every_ubl(name: &str, text: &str) -> usize {
    let scenario: Value = serde_json::from_str(text).unwrap_or(Value::Null);
    let (augmented, ids) = with_every_ubl(&scenario);
    let out = run(augmented.to_string().as_bytes());
    let responses = out["responses"].as_array().cloned().unwrap_or_default();
    let answers = &responses[responses.len() - ids.len()..];
    let mut written = 0;
    for (id, answer) in ids.iter().zip(answers) {
        let Some(xml) = answer["body"]["xml"].as_str() else {
            // A proforma (or a document whose files do not exist) has no UBL.
            assert_eq!(answer["status"], 422, "{id}: {answer}");
            continue;
        };
        assert_eq!(answer["status"], 200, "{id}: {answer}");
        assert!(
            xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?><"),
            "{id}: {xml}"
        );
        assert!(
            !xml.contains(">\n") && !xml.contains("> <"),
            "{id}: whitespace between elements"
        );
        insta::assert_snapshot!(
            format!("ubl_{name}_{id}"),
            crate::support::redact_files(&indented(xml))
        );
        written += 1;
    }
    written
}

#[test]
fn peppol_scenario_ubl_snapshots() {
    let n = snapshot_every_ubl(
        "peppol",
        include_str!("../../examples/scenarios/peppol.json"),
    );
    assert_eq!(
        n, 4,
        "an invoice, a credit note, a self-billing invoice, one with findings"
    );
}

#[test]
fn quickstart_scenario_ubl_snapshots() {
    let n = snapshot_every_ubl(
        "quickstart",
        include_str!("../../examples/scenarios/quickstart.json"),
    );
    assert!(n >= 1);
}

#[test]
fn files_scenario_ubl_snapshots() {
    let n = snapshot_every_ubl("files", include_str!("../../examples/scenarios/files.json"));
    assert_eq!(n, 2, "the invoice with its files, and the one sent before");
}

#[test]
fn lifecycle_scenario_ubl_snapshots() {
    let n = snapshot_every_ubl(
        "lifecycle",
        include_str!("../../examples/scenarios/lifecycle.json"),
    );
    assert!(n >= 1);
}
