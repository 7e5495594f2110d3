//! Issue 12: the simulator streams. `run_to` writes, response by response, exactly
//! the bytes the `simulate` example printed when it built the whole answer first:
//! `serde_json::to_string_pretty(&run(..))` and a newline.

use invoicing_core::simulator::{run, run_to, Simulator};
use std::io::{self, Write};

/// The answer as the example printed it before it streamed.
fn printed(scenario: &[u8]) -> String {
    let pretty = serde_json::to_string_pretty(&run(scenario)).expect("a value always writes");
    format!("{pretty}\n")
}

fn streamed(scenario: &[u8]) -> String {
    let mut out = Vec::new();
    let ran = run_to(scenario, &mut out).expect("a Vec takes every byte");
    let text = String::from_utf8(out).expect("json is utf-8");
    assert_eq!(ran.is_ok(), !text.starts_with("{\n  \"error\": "), "{text}");
    text
}

fn assert_same(name: &str, scenario: &[u8]) {
    let (want, got) = (printed(scenario), streamed(scenario));
    assert!(
        want == got,
        "{name}: the streamed answer differs:\n{got}\nwanted:\n{want}"
    );
}

#[test]
fn streamed_answer_is_the_pretty_answer_for_every_bundled_scenario() {
    let bundled: [(&str, &[u8]); 5] = [
        (
            "quickstart",
            include_bytes!("../../examples/scenarios/quickstart.json"),
        ),
        (
            "lifecycle",
            include_bytes!("../../examples/scenarios/lifecycle.json"),
        ),
        (
            "inbox",
            include_bytes!("../../examples/scenarios/inbox.json"),
        ),
        (
            "peppol",
            include_bytes!("../../examples/scenarios/peppol.json"),
        ),
        ("defects", include_bytes!("../peppol/defects.json")),
    ];
    for (name, scenario) in bundled {
        assert_same(name, scenario);
    }
}

#[test]
fn streamed_answer_of_a_malformed_scenario_is_the_pretty_error() {
    for scenario in [
        &b"{"[..],
        b"{}",
        b"[]",
        br#"{"today": "2026-11-21", "requests": [{}]}"#,
    ] {
        assert_same("malformed", scenario);
        assert!(streamed(scenario).starts_with("{\n  \"error\": "));
    }
}

/// The requests are kept as text until answered; every scenario that reading might
/// see otherwise is answered as the whole value answers it.
#[test]
fn streamed_answer_agrees_on_repeated_keys_depth_and_json_errors() {
    let deep = |n: usize| {
        format!(
            r#"{{"today": "2026-11-21", "requests": [{{"method": "TICK", "body": {}{}}}]}}"#,
            "[".repeat(n),
            "]".repeat(n)
        )
    };
    let cases: Vec<Vec<u8>> = vec![
        br#"{"today": "2026-11-21", "requests": [{"method": "TICK"}], "requests": 5}"#.to_vec(),
        br#"{"today": "2026-11-21", "requests": 5, "requests": [{"method": "TICK"}]}"#.to_vec(),
        br#"{"requests": [{"path": 3}], "today": "2026-11-21"}"#.to_vec(),
        br#"{"zzz": 1, "requests": [{"path": 3}]}"#.to_vec(),
        br#"{"today": "2026-11-21", "requests": null}"#.to_vec(),
        br#"{"today": "2026-11-21", "requests": [{"method": "TICK", "body": "\x"}]}"#.to_vec(),
        b"{\"today\": \"2026-11-21\", \"requests\": [{\"method\": \"TICK\", \"body\": \"\xff\"}]}"
            .to_vec(),
        br#"{"today": "2026-11-21", "requests": [{"method": "TICK"}]} x"#.to_vec(),
        br#"{"today": "2026-11-21", "requests": [{"method": "TICK""#.to_vec(),
        deep(123).into_bytes(),
        deep(124).into_bytes(),
        deep(125).into_bytes(),
    ];
    for scenario in &cases {
        assert_same(&String::from_utf8_lossy(scenario), scenario);
    }
}

#[test]
fn streamed_answer_of_no_requests_is_an_empty_list() {
    let scenario = br#"{"today": "2026-11-21", "requests": []}"#;
    assert_same("empty", scenario);
    assert_eq!(streamed(scenario), "{\n  \"responses\": []\n}\n");
}

#[test]
fn streamed_answer_nests_bodies_at_the_depth_of_the_list() {
    let scenario = br#"{"today": "2026-11-21",
        "clients": [{"client_id": "app", "client_secret": "s", "permissions": ["c", "u"]}],
        "relations": [{"id": "rel-1", "kind": "company", "peppol": true, "tags": [[], [1, {"a": []}]]}],
        "requests": [{"method": "TICK"},
                     {"client": "app", "method": "GET", "path": "/relations/rel-1"},
                     {"method": "GET", "path": "/relations/rel-1"}]}"#;
    assert_same("nested", scenario);
}

/// Answers each request before the next is read: the first response is written
/// before the second request is answered.
#[test]
fn streamed_responses_are_written_as_they_are_answered() {
    struct Counting(Vec<usize>);
    impl Write for Counting {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.push(buf.len());
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let scenario =
        br#"{"today": "2026-11-21", "requests": [{"method": "TICK"}, {"method": "TICK"}]}"#;
    let mut sim = Simulator::load(scenario).expect("a valid scenario");
    let mut out = Counting(Vec::new());
    sim.run_requests_to(&mut out)
        .expect("counting takes every byte");
    assert!(out.0.len() > 3, "written in pieces, not as one string");
    assert!(sim.requests().is_empty(), "the requests are consumed");
}

/// A writer that fails is an error, never a panic.
#[test]
fn streamed_answer_reports_a_failing_writer() {
    struct Failing;
    impl Write for Failing {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::other("disk full"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let ok = include_bytes!("../../examples/scenarios/quickstart.json");
    assert!(run_to(ok, &mut Failing).is_err());
    assert!(run_to(b"{", &mut Failing).is_err());
}
