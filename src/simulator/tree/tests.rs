use super::*;

/// The compact text of a record as a `Value` and as a tree.
fn both(text: &str) -> (String, Option<String>) {
    let value = crate::json::from_str(text).unwrap_or_default();
    let tree = Members::read(text).map(|m| serde_json::to_string(&m).unwrap_or_default());
    (serde_json::to_string(&value).unwrap_or_default(), tree)
}

#[test]
fn a_tree_writes_the_compact_text_a_value_writes() {
    // issue 12: a record's kept text is the one serde_json writes for its `Value`,
    // byte for byte, whichever way it was read
    for text in [
        r#"{"id":"a","n":1.50,"e":1E5,"z":-0,"neg":-0.00,"big":123456789012345678901234567890}"#,
        r#"{ "id" : "a" , "t" : [ 1 , "x" , null , true , false , { } , [ ] ] }"#,
        r#"{"id":"é\u00e9\n\t\"\\\/\u0001\ud83d\ude00","k\u0041":"v"}"#,
        r#"{"a":1,"b":2,"a":3}"#,
        r#"{"a":{"x":1,"x":{"y":2,"y":3}},"b":[{"c":1,"c":2}],"a":{"z":0}}"#,
        r#"{"$serde_json::private::Number":"12.5"}"#,
        r#"{"n":{"$serde_json::private::Number":"7"},"m":{"k":1,"$serde_json::private::Number":"7"}}"#,
        "{}",
    ] {
        let (value, tree) = both(text);
        if text.contains("$serde") {
            // left to `crate::json`, which keeps the object an object
            assert_eq!(tree, None, "{text}");
            assert!(value.starts_with('{'), "{text} → {value}");
            continue;
        }
        assert_eq!(tree.as_deref(), Some(value.as_str()), "{text}");
    }
}

#[test]
fn many_repeated_keys_keep_their_first_place_and_last_value() {
    // issue 12: the hashed path of the writer (more than 16 members)
    let mut text = String::from("{");
    for i in 0..40 {
        text += &["\"k", &(i % 25).to_string(), "\":", &i.to_string(), ","].concat();
    }
    text.push_str("\"end\":true}");
    let (value, tree) = both(&text);
    assert_eq!(tree.as_deref(), Some(value.as_str()));
}

#[test]
fn a_text_naming_a_private_key_is_left_to_crate_json() {
    // issue 21: the tree cannot tell serde_json's private keys from its numbers, so
    // such a text is refused and read by `crate::json` as the object it is
    for text in [
        r#"{"a":{"$serde_json::private::RawValue":"1"}}"#,
        r#"{"a":{"$serde_json::private::Number":"x"}}"#,
        r#"{"a":{"$serde_json::private::Numbe\u0072":"1"}}"#,
    ] {
        assert_eq!(Members::read(text), None, "{text}");
        assert!(
            crate::json::from_str(text).unwrap()["a"].is_object(),
            "{text}"
        );
    }
    assert_eq!(Members::read("[1]"), None);
}

#[test]
fn a_field_is_read_as_in_a_value() {
    // issue 12: the last of a repeated key; null is absent; numbers and arrays are
    // of another type
    let m = Members::read(r#"{"a":"x","a":"y","n":null,"b":true,"o":{"c":"d"},"num":1,"arr":[]}"#);
    let m = m.unwrap_or_default();
    assert!(matches!(m.field("a"), Field::Str("y")));
    assert!(matches!(m.field("n"), Field::Absent));
    assert!(matches!(m.field("missing"), Field::Absent));
    assert!(matches!(m.field("b"), Field::Bool(true)));
    assert!(matches!(m.field("num"), Field::Other));
    assert!(matches!(m.field("arr"), Field::Other));
    let Field::Object(o) = m.field("o") else {
        panic!("o is an object");
    };
    assert!(matches!(o.field("c"), Field::Str("d")));
}
