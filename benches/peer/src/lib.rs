//! What the peer bench and its one-call binary share: the documents (the 500-line UBL
//! of the root crate's benches, the Peppol fixtures) and one call of each validator,
//! with the rule ids each side reports.
//!
//! Ours: `invoicing_core::ubl::validate`, every assert of the CEN EN 16931 and Peppol
//! BIS 3.0 Schematron artefacts over a DOM of the bytes. The peer: `en16931-formats`'
//! `receive` with the default policy, which reads the UBL into `en16931`'s model and
//! runs the rules of the profile the document declares (Peppol BIS Billing 3.0 for
//! every document here: the EN 16931 core rules and Peppol's).

#[path = "../../support/world.rs"]
pub mod world;

use en16931_formats::{Policy, Received};
use invoicing_core::context::Permissions;
use invoicing_core::lifecycle::create_bytes;
use invoicing_core::peppol::{ubl, UblFiles};
use std::path::{Path, PathBuf};

/// The root of the workspace (where `tests/fixtures/` is).
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The UBL of the 500-line document of `benches/validate.rs` (empty if it cannot be
/// made).
pub fn xml_500() -> String {
    let ctx = world::bench_world();
    let doc = create_bytes(&ctx, Permissions::ALL, None, &world::body(500), "doc-1")
        .ok()
        .map(|c| c.document);
    doc.and_then(|d| {
        ubl(&d, &ctx.company, &ctx.relation, None, &UblFiles::default())
            .ok()
            .flatten()
    })
    .map_or_else(String::new, |u| u.xml)
}

/// `tests/fixtures/peppol/base-example.xml`, the small real document.
pub fn base_example() -> Vec<u8> {
    std::fs::read(workspace().join("tests/fixtures/peppol/base-example.xml")).unwrap_or_default()
}

/// The fixtures of the agreement table: `tests/fixtures/peppol/*.xml`, then
/// `tests/fixtures/peppol/tampered/*.xml`, each sorted by name.
pub fn fixtures() -> Vec<PathBuf> {
    let mut all = Vec::new();
    for dir in ["tests/fixtures/peppol", "tests/fixtures/peppol/tampered"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(workspace().join(dir))
            .map(|entries| {
                entries
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "xml"))
                    .collect()
            })
            .unwrap_or_default();
        files.sort();
        all.extend(files);
    }
    all
}

/// Ours: one validation; the number of findings (`usize::MAX` when not XML).
pub fn ours(bytes: &[u8]) -> usize {
    invoicing_core::ubl::validate(bytes).map_or(usize::MAX, |r| r.findings.len())
}

/// The floor of any reader built on quick-xml (issue 30): every event of the bytes
/// read, each start tag's local name and attributes walked and each text's line ends
/// normalized, as `Dom::read` must, and nothing kept. The number of events; `None`
/// when the bytes are not XML.
pub fn events(bytes: &[u8]) -> Option<usize> {
    use quick_xml::events::Event;
    let text = std::str::from_utf8(bytes).ok()?;
    let mut reader = quick_xml::Reader::from_str(text);
    let mut n = 0usize;
    loop {
        match reader.read_event().ok()? {
            Event::Start(e) | Event::Empty(e) => {
                std::hint::black_box(e.local_name());
                for a in e.attributes() {
                    std::hint::black_box(a.ok()?);
                }
            }
            Event::Text(t) => {
                std::hint::black_box(t.xml10_content());
            }
            Event::Eof => return Some(n),
            other => {
                std::hint::black_box(other);
            }
        }
        n += 1;
    }
}

/// The peer: one read and validation under the declared profile, as its
/// `receive` does it with the default policy.
pub fn peer(bytes: &[u8], policy: &Policy) -> Received {
    en16931_formats::receive(bytes, policy)
}

/// The peer's number of findings of every level (rules and reading entries).
pub fn peer_count(received: &Received) -> usize {
    let r = &received.report_declared;
    r.semantic.report.as_ref().map_or(0, |v| v.findings().len())
        + r.syntax.entries.len()
        + r.schema.entries.len()
        + r.container.entries.len()
}

/// The rule ids of our fatal findings, each once, in the order first reported
/// (`["not XML"]` when the bytes are not XML).
pub fn ours_fatal(bytes: &[u8]) -> Vec<String> {
    match invoicing_core::ubl::validate(bytes) {
        Ok(report) => once(
            report
                .findings
                .iter()
                .filter(|f| f.fatal)
                .map(|f| f.rule.to_owned()),
        ),
        Err(_) => vec!["not XML".to_owned()],
    }
}

/// The peer's errors, each once: the rule ids of its fatal findings under the declared
/// profile, then its reading layers' fatal entries (the artefact rule they cite, else
/// `kind:path`).
pub fn peer_errors(bytes: &[u8]) -> Vec<String> {
    let received = peer(bytes, &Policy::default());
    let r = &received.report_declared;
    let rules = r
        .semantic
        .report
        .iter()
        .flat_map(en16931::ValidationReport::fatal)
        .map(|f| f.rule.clone());
    let entries = [&r.container, &r.syntax, &r.schema]
        .into_iter()
        .flat_map(|layer| layer.entries.iter())
        .filter(|e| e.level() == en16931::Severity::Fatal)
        .map(|e| {
            e.rule
                .clone()
                .unwrap_or_else(|| format!("{}:{}", e.kind.as_str(), e.path))
        });
    once(rules.chain(entries))
}

/// Each id once, in the order first seen.
fn once(ids: impl Iterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for id in ids {
        if !out.contains(&id) {
            out.push(id);
        }
    }
    out
}
