//! The records the GET endpoints answer, kept in scenario order and found through
//! indexes: a location by its id or by its relation, a branding by its id, without
//! a scan per request.

use serde_json::Value;
use std::collections::{BTreeSet, HashMap};

/// A record as given in the scenario, kept as its compact JSON text as `serde_json`
/// writes it (one allocation, where a `Value` takes one per key and string): written
/// by re-indenting that text, or read into a value where one is needed.
pub(crate) fn record_value(text: &str) -> Value {
    // The text of a record the scenario's reading took: valid JSON.
    serde_json::from_str(text).unwrap_or_default()
}

/// Delivery locations in scenario order (id, `relation_id`, record text), indexed by
/// id and by relation.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Locations {
    list: Vec<(String, String, Box<str>)>,
    /// The first location of each id.
    by_id: HashMap<String, usize>,
    /// The locations of each relation, in scenario order.
    by_relation: HashMap<String, Vec<usize>>,
}

impl Locations {
    /// Makes room for `n` more locations.
    pub(crate) fn reserve(&mut self, n: usize) {
        self.list.reserve(n);
        self.by_id.reserve(n);
        self.by_relation.reserve(n);
    }

    /// Adds a location after the others.
    pub(crate) fn push(&mut self, (id, relation_id, record): (String, String, Box<str>)) {
        let index = self.list.len();
        self.by_id.entry(id.clone()).or_insert(index);
        self.by_relation
            .entry(relation_id.clone())
            .or_default()
            .push(index);
        self.list.push((id, relation_id, record));
    }

    /// The record of the location `id`.
    pub(crate) fn get(&self, id: &str) -> Option<Value> {
        let index = *self.by_id.get(id)?;
        self.list
            .get(index)
            .map(|(_, _, record)| record_value(record))
    }

    /// The records of the relation's locations, in scenario order.
    pub(crate) fn of_relation<'a>(&'a self, relation_id: &str) -> impl Iterator<Item = Value> + 'a {
        self.texts_of(relation_id).map(record_value)
    }

    /// The compact JSON texts of the relation's locations, in scenario order.
    pub(crate) fn texts_of<'a>(&'a self, relation_id: &str) -> impl Iterator<Item = &'a str> + 'a {
        self.by_relation
            .get(relation_id)
            .into_iter()
            .flatten()
            .filter_map(|&i| self.list.get(i).map(|(_, _, record)| &**record))
    }
}

/// Brandings in scenario order (id, record), indexed by id, with the brandings whose
/// record says `"default": true`.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Brandings {
    list: Vec<(String, Value)>,
    /// The first branding of each id.
    by_id: HashMap<String, usize>,
    /// The brandings whose `default` is true.
    defaults: BTreeSet<usize>,
}

impl Brandings {
    /// Adds a branding after the others.
    pub(crate) fn push(&mut self, (id, record): (String, Value)) {
        let index = self.list.len();
        self.by_id.entry(id.clone()).or_insert(index);
        if is_default(&record) {
            self.defaults.insert(index);
        }
        self.list.push((id, record));
    }

    /// The index of the branding `id`.
    pub(crate) fn position(&self, id: &str) -> Option<usize> {
        self.by_id.get(id).copied()
    }

    /// The record at `index`.
    pub(crate) fn get(&self, index: usize) -> Option<&Value> {
        self.list.get(index).map(|(_, record)| record)
    }

    /// Makes the branding at `index` the default: its `default` becomes true, and
    /// every other `default: true` becomes false.
    pub(crate) fn designate(&mut self, index: usize) {
        let previous = std::mem::take(&mut self.defaults);
        for i in previous.into_iter().chain([index]) {
            if let Some((_, Value::Object(m))) = self.list.get_mut(i) {
                m.insert("default".into(), Value::Bool(i == index));
            }
        }
        if self.list.get(index).is_some_and(|(_, r)| is_default(r)) {
            self.defaults.insert(index);
        }
    }
}

/// Whether a branding record says `"default": true`.
fn is_default(record: &Value) -> bool {
    record.get("default") == Some(&Value::Bool(true))
}

#[cfg(test)]
mod tests {
    use super::*;
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
            l.push((
                id.into(),
                rel.into(),
                json!({ "id": id, "relation_id": rel }).to_string().into(),
            ));
        }
        l
    }

    #[test]
    fn locations_of_a_relation_come_from_the_index_in_scenario_order() {
        // issue 12: GET /delivery-locations?relation_id= reads an index, not a scan;
        // the answer keeps scenario order
        let l = locations();
        let ids =
            |rel: &str| -> Vec<Value> { l.of_relation(rel).map(|r| r["id"].clone()).collect() };
        assert_eq!(ids("r1"), [json!("a"), json!("c"), json!("e")]);
        assert_eq!(ids("r3"), [json!("d")]);
        assert!(ids("r9").is_empty());
    }

    #[test]
    fn a_location_is_found_by_its_id() {
        // issue 12: GET /delivery-locations/{id} reads an index
        let l = locations();
        assert_eq!(l.get("c"), Some(json!({"id": "c", "relation_id": "r1"})));
        assert_eq!(l.get("z"), None);
    }

    #[test]
    fn designating_a_branding_clears_every_other_default() {
        // simulator.md: one default branding; the designated one becomes true, every
        // other true becomes false, a branding without the key stays without it
        let mut b = Brandings::default();
        b.push(("x".into(), json!({"id": "x", "default": true})));
        b.push(("y".into(), json!({"id": "y", "default": false})));
        b.push(("z".into(), json!({"id": "z"})));
        b.push(("w".into(), json!({"id": "w", "default": true})));
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
}
