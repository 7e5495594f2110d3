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

/// BR-S-08 as the writer's findings test it adds 1 to the taxable amount as the
/// official validator does, in doubles: a taxable amount exactly 1.00 below the sum
/// (4999.01 against 5000.01) passes, as Saxon passes it, and one exactly 1.00 above
/// (5001.01) fails, as Saxon fails it (5001.01 − 1 is 5000.0100000000002…).
#[test]
fn br_s_08_bounds_are_doubles_as_the_validator_computes_them() {
    let d = |t: &str| t.parse::<rust_decimal::Decimal>().unwrap_or_default();
    let within = |a: &str, x: &str| super::sums::within_one_double(d(a), d(x));
    assert_eq!(within("4999.01", "5000.01"), Ok(true));
    assert_eq!(within("5001.01", "5000.01"), Ok(false));
    assert_eq!(within("4999.00", "5000.01"), Ok(false));
    assert_eq!(within("5000.00", "5000.01"), Ok(true));
    // 6990.34 + 1 is 6991.34000000000014551915228366851806640625
    assert_eq!(within("6990.34", "6991.34"), Ok(true));
    // an exact binary value has no such margin: 4999.5 + 1 is 5000.5
    assert_eq!(within("4999.5", "5000.5"), Ok(false));
}
