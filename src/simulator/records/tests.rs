use super::*;
use crate::app::record_value;
use serde_json::json;

fn locations() -> Locations {
    let mut l = Locations::default();
    for (id, rel) in [
        ("a", "r1"),
        ("b", "r2"),
        ("c", "r1"),
        ("d", "r3"),
        ("e", "r1"),
    ] {
        l.push(
            id,
            rel,
            &json!({ "id": id, "relation_id": rel }).to_string(),
        );
    }
    l
}

#[test]
fn locations_of_a_relation_come_from_the_index_in_scenario_order() {
    // issue 12: GET /delivery-locations?relation_id= reads an index, not a scan;
    // the answer keeps scenario order
    let l = locations();
    let ids = |rel: &str| -> Vec<Value> {
        l.texts_of(rel)
            .map(|t| record_value(t)["id"].clone())
            .collect()
    };
    assert_eq!(ids("r1"), [json!("a"), json!("c"), json!("e")]);
    assert_eq!(ids("r3"), [json!("d")]);
    assert!(ids("r9").is_empty());
}

#[test]
fn relations_are_found_by_id_among_texts_kept_in_one_string() {
    // issue 12: a relation's text is found by its id, each text exactly as pushed,
    // the empty one and the first included
    let mut r = Relations::default();
    r.reserve(3, 20);
    for (id, text) in [
        ("r1", r#"{"id":"r1"}"#),
        ("r2", ""),
        ("r3", r#"{"id":"r3","é":"ü"}"#),
    ] {
        assert!(!r.contains(id));
        r.insert(id, text);
    }
    assert_eq!(r.get("r1"), Some(r#"{"id":"r1"}"#));
    assert_eq!(r.get("r2"), Some(""));
    assert_eq!(r.get("r3"), Some(r#"{"id":"r3","é":"ü"}"#));
    assert_eq!(r.get("r4"), None);
    assert!(r.contains("r3"));
    let mut all: Vec<&str> = r.texts().collect();
    all.sort_unstable();
    assert_eq!(all, ["", r#"{"id":"r1"}"#, r#"{"id":"r3","é":"ü"}"#]);
}

#[test]
fn a_location_is_found_by_its_id() {
    // issue 12: GET /delivery-locations/{id} reads an index
    let l = locations();
    assert_eq!(
        l.get("c").map(record_value),
        Some(json!({"id": "c", "relation_id": "r1"}))
    );
    assert_eq!(l.get("z"), None);
    assert!(l.contains("e") && !l.contains("z"));
}

#[test]
fn designating_a_branding_clears_every_other_default() {
    // docs/scenario.md: one default branding; the designated one becomes true, every
    // other true becomes false, a branding without the key stays without it
    let mut b = Brandings::default();
    b.push(
        ("x".into(), json!({"id": "x", "default": true})),
        crate::pdf::Branding::default(),
    );
    b.push(
        ("y".into(), json!({"id": "y", "default": false})),
        crate::pdf::Branding::default(),
    );
    b.push(
        ("z".into(), json!({"id": "z"})),
        crate::pdf::Branding::default(),
    );
    b.push(
        ("w".into(), json!({"id": "w", "default": true})),
        crate::pdf::Branding::default(),
    );
    assert_eq!(b.position("z"), Some(2));
    assert_eq!(b.position("v"), None);
    b.designate(2);
    assert_eq!(b.get(0), Some(&json!({"id": "x", "default": false})));
    assert_eq!(b.get(1), Some(&json!({"id": "y", "default": false})));
    assert_eq!(b.get(2), Some(&json!({"id": "z", "default": true})));
    assert_eq!(b.get(3), Some(&json!({"id": "w", "default": false})));
    b.designate(1);
    assert_eq!(b.get(1), Some(&json!({"id": "y", "default": true})));
    assert_eq!(b.get(2), Some(&json!({"id": "z", "default": false})));
    assert_eq!(b.defaults, BTreeSet::from([1]));
}
