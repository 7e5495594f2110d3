use super::*;
use serde_json::json;

#[test]
fn an_object_with_a_private_key_is_an_object() {
    // docs/decisions.md §10: serde_json alone reads these as a number and a list
    for text in [
        r#"{"$serde_json::private::Number":"1e3"}"#,
        r#"{"$serde_json::private::RawValue":"[1]"}"#,
        r#"{"\u0024serde_json::private::Numbe\u0072":"1e3"}"#,
        r#"{"$serde_json::private::Number":{}}"#,
    ] {
        let v = from_str(text).unwrap();
        assert!(v.is_object(), "{text} → {v}");
        assert!(names_private_key(text.as_bytes()), "{text}");
    }
    let v = from_str(r#"{"a":[{"$serde_json::private::Number":"7","b":-0}],"c":1e400}"#).unwrap();
    assert_eq!(v["a"][0]["$serde_json::private::Number"], json!("7"));
    assert_eq!(v["a"][0]["b"].to_string(), "-0");
    assert_eq!(v["c"].to_string(), "1e+400", "as serde_json writes it");
}

#[test]
fn a_text_without_a_private_key_reads_as_serde_json_reads_it() {
    for text in [
        r#"{"a":0.1,"b":"x\"$","a":[1,2.50,{"c":null}],"d":true}"#,
        r#"["\u00e9", "$serde_json::private::Numbe", 1E+2]"#,
        r#"  "text"  "#,
    ] {
        assert!(!names_private_key(text.as_bytes()), "{text}");
        let ours = from_str(text).unwrap();
        let theirs: Value = serde_json::from_str(text).unwrap();
        assert_eq!(ours.to_string(), theirs.to_string());
    }
}

#[test]
fn the_literal_reader_reads_as_serde_json_reads_an_object_free_text() {
    // repeated keys: first place, last value; numbers and escapes kept
    let text =
        r#" { "a" : 1 , "b" : [ 0.10 , -2e-3 , "\u00e9\n" , true , false , null ] , "a" : {} } "#;
    let ours = Literal {
        bytes: text.as_bytes(),
        pos: 0,
    }
    .value()
    .unwrap();
    let theirs: Value = serde_json::from_str(text).unwrap();
    assert_eq!(ours.to_string(), theirs.to_string());
}

#[test]
fn a_text_naming_a_private_key_is_still_checked_by_serde_json() {
    // the same errors as any text: syntax, lone surrogates, depth, trailing bytes
    for text in [
        r#"{"$serde_json::private::Number":}"#,
        r#"{"$serde_json::private::Number":"\ud800"}"#,
        r#"{"$serde_json::private::Number":1} x"#,
    ] {
        assert!(from_str(text).is_err(), "{text}");
    }
    let deep = format!(
        r#"{}{{"$serde_json::private::Number":1}}{}"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    let ours = from_str(&deep).unwrap_err().to_string();
    let theirs = serde_json::from_str::<Value>(&deep)
        .unwrap_err()
        .to_string();
    assert_eq!(ours, theirs);
}
