use super::*;
use serde_json::json;

/// Records written from their compact text are the bytes of their values written
/// by the pretty writer, whatever they hold.
#[test]
fn records_are_reindented_as_the_pretty_writer_writes_them() {
    let records = [
        json!({"id": "loc-1", "address": {"street": "Rue \"du\" Parc {1}, [2]: 3", "lines": []},
                   "empty": {}, "list": [1, -2.50, "a\\b", null, true, {"x": [[]]}], "e": "é\u{1}\t"}),
        json!([]),
        json!({}),
        json!("text"),
        json!(12.500),
        json!([{"a": {"b": {"c": [1, [2, [3]]]}}}]),
    ];
    for n in 0..=records.len() {
        let list = &records[..n];
        let by_value = {
            let mut out = Vec::new();
            let mut responses = Responses {
                out: &mut out,
                first: false,
            };
            responses
                .write(200, &Value::Array(list.to_vec()))
                .expect("a Vec");
            out
        };
        let texts: Vec<String> = list
            .iter()
            .map(|v| compact(v, &mut Vec::new()).to_owned())
            .collect();
        let by_text = {
            let mut out = Vec::new();
            let mut responses = Responses {
                out: &mut out,
                first: false,
            };
            responses
                .write_records(200, texts.iter().map(String::as_str))
                .expect("a Vec");
            out
        };
        assert_eq!(
            String::from_utf8_lossy(&by_text),
            String::from_utf8_lossy(&by_value)
        );
    }
}
