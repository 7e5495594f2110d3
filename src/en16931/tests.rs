/// One table of rules: sorted (a lookup is a binary search), each id once, each
/// text starting with its id as the artefacts write it.
#[test]
fn one_text_per_rule_id() {
    let ids: Vec<&str> = super::codes::MESSAGES.iter().map(|(r, _)| *r).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "sorted, no id twice");
    for (rule, text) in super::codes::MESSAGES {
        assert!(text.starts_with(&format!("[{rule}]-")), "{rule}");
        assert_eq!(super::message(rule), *text);
    }
}
