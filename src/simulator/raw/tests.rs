use super::*;

#[test]
fn depth_counts_brackets_outside_strings() {
    assert_eq!(depth(r#"{"a": [1, {"b": "[[{{\"]]"}]}"#), 3);
    assert_eq!(depth("1"), 0);
}

#[test]
fn a_request_nested_near_the_depth_limit_is_read_with_the_whole_scenario() {
    let deep = "[".repeat(126) + &"]".repeat(126);
    let scenario =
        format!(r#"{{"today": "2026-11-21", "requests": [{{"method": "TICK", "body": {deep}}}]}}"#);
    assert!(load(scenario.as_bytes()).is_none());
    let answer = crate::simulator::run(scenario.as_bytes());
    let mut out = Vec::new();
    assert!(crate::simulator::run_to(scenario.as_bytes(), &mut out).is_ok());
    let pretty = serde_json::to_string_pretty(&answer).unwrap_or_default();
    assert_eq!(String::from_utf8_lossy(&out), format!("{pretty}\n"));
}

/// The relations and delivery locations read from their text answer as the
/// scenario read as one value: the world, the GET answers and every load error.
#[test]
fn records_left_as_text_answer_as_records_read_as_values() {
    let requests = r#"[{"client": "app", "method": "GET", "path": "/relations/r1"},
            {"client": "app", "method": "GET", "path": "/delivery-locations?relation_id=r1"},
            {"client": "app", "method": "GET", "path": "/delivery-locations/l2"}]"#;
    let deep = format!("{}{}", "[".repeat(110), "]".repeat(110));
    let cases = [
        r#"[{"id": "r1", "kind": "company", "name": "A \"B\"", "id": "r1"}]"#.to_owned(),
        r#"[{"id": "r1", "kind": "company"}, 5]"#.to_owned(),
        r#"[{"kind": "company"}, 5]"#.to_owned(),
        r#"[{"id": "r1", "kind": "company"}, {"id": "r1", "kind": "contact"}]"#.to_owned(),
        r#"{"id": "r1"}"#.to_owned(),
        format!(r#"[{{"id": "r1", "kind": "company", "x": {deep}}}]"#),
    ];
    let locations = [
        r#"[{"id": "l1", "relation_id": "r1", "name": "Dock"}, {"id": "l2", "relation_id": "r1"}]"#,
        r#"[{"id": "l1", "relation_id": "r1"}, []]"#,
        r#"[{"id": "l1"}]"#,
        "null",
    ];
    for relations in &cases {
        for locs in locations {
            let scenario = format!(
                r#"{{"today": "2026-11-21", "clients": [{{"client_id": "app", "client_secret": "s", "permissions": ["c"]}}],
                    "relations": {relations}, "delivery_locations": {locs}, "requests": {requests}}}"#
            );
            let answer = crate::simulator::run(scenario.as_bytes());
            let mut out = Vec::new();
            assert!(crate::simulator::run_to(scenario.as_bytes(), &mut out).is_ok());
            let pretty = serde_json::to_string_pretty(&answer).unwrap_or_default();
            assert_eq!(
                String::from_utf8_lossy(&out),
                format!("{pretty}\n"),
                "{scenario}"
            );
        }
    }
}

/// A lone surrogate escape passes a skip but not a reading as a value: such a
/// scenario is read as a whole and refused as JSON (fuzz `simulator`).
#[test]
fn a_lone_surrogate_in_a_request_or_a_record_is_read_with_the_whole_scenario() {
    let cases = [
        r#"{"today": "2026-11-21", "relations": [{"id": "r", "kind": "\ud800company"}], "requests": []}"#,
        r#"{"today": "2026-11-21", "delivery_locations": [{"id": "\udc00"}], "requests": []}"#,
        r#"{"today": "2026-11-21", "requests": [{"method": "TICK", "body": "\ud800"}]}"#,
    ];
    for scenario in cases {
        assert!(load(scenario.as_bytes()).is_none(), "{scenario}");
        let answer = crate::simulator::run(scenario.as_bytes());
        assert!(answer.get("error").is_some(), "{scenario}");
        let mut out = Vec::new();
        assert!(crate::simulator::run_to(scenario.as_bytes(), &mut out).is_ok());
        let pretty = serde_json::to_string_pretty(&answer).unwrap_or_default();
        assert_eq!(String::from_utf8_lossy(&out), format!("{pretty}\n"));
    }
}

#[test]
fn only_lone_surrogates_send_a_text_to_the_whole_reading() {
    assert!(!has_lone_surrogate(
        r#"{"a": "Li\u00e8ge \ud83d\ude00 \\ud800 \n"}"#
    ));
    assert!(has_lone_surrogate(r#""\ud800""#));
    assert!(has_lone_surrogate(r#""\ud800\u0041""#));
    assert!(has_lone_surrogate(r#""\udc00""#));
    assert!(has_lone_surrogate(r#""x\ud83d""#));
}

#[test]
fn a_scenario_that_is_not_an_object_is_read_as_a_whole() {
    assert!(load(b" [1]").is_none());
    assert!(load(b"{").is_none());
}

#[test]
fn requests_are_left_as_text_and_the_list_holds_none() {
    let scenario =
        br#"{"today": "2026-11-21", "requests": [{"method": "TICK"}, {"method": "TICK"}]}"#;
    let Some(Ok((sim, raw))) = load(scenario) else {
        panic!("a valid scenario loads");
    };
    assert_eq!(raw.len(), 2);
    assert!(sim.requests().is_empty());
}

#[test]
fn the_first_malformed_request_is_reported_after_the_top_level_checks() {
    let scenario = br#"{"requests": [{"method": "TICK"}, {}, 5]}"#;
    assert_eq!(
        load(scenario)
            .and_then(Result::err)
            .map(|e| e.message().to_owned()),
        Some("missing today".to_owned())
    );
    let scenario = br#"{"today": "2026-11-21", "requests": [{"method": "TICK"}, {}, 5]}"#;
    assert_eq!(
        load(scenario)
            .and_then(Result::err)
            .map(|e| e.message().to_owned()),
        Some("requests[1]: missing method".to_owned())
    );
}
