//! The records the GET endpoints answer, kept in scenario order and found through
//! indexes: a location by its id or by its relation, a branding by its id, without
//! a scan per request.

use serde_json::Value;
use std::collections::{BTreeSet, HashMap};

/// Records kept as their compact JSON texts, one after another in one string: a
/// world of 40 000 records is a few allocations, not hundreds of thousands, and is
/// dropped at once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Texts {
    all: String,
    /// Where each record's text ends in `all`.
    ends: Vec<usize>,
}

impl Texts {
    /// Makes room for `records` more records of `bytes` bytes in all.
    fn reserve(&mut self, records: usize, bytes: usize) {
        self.all.reserve(bytes);
        self.ends.reserve(records);
    }

    /// Adds a record's text after the others; its index.
    fn push(&mut self, text: &str) -> usize {
        self.all.push_str(text);
        self.ends.push(self.all.len());
        self.ends.len() - 1
    }

    /// The text of the record at `index`.
    fn get(&self, index: usize) -> Option<&str> {
        let end = *self.ends.get(index)?;
        let start = match index.checked_sub(1) {
            Some(before) => *self.ends.get(before)?,
            None => 0,
        };
        self.all.get(start..end)
    }
}

/// Relations as their texts, found by id.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Relations {
    texts: Texts,
    by_id: HashMap<String, usize>,
}

impl Relations {
    /// Makes room for `n` more relations of `bytes` bytes of text in all.
    pub(crate) fn reserve(&mut self, n: usize, bytes: usize) {
        self.texts.reserve(n, bytes);
        self.by_id.reserve(n);
    }

    /// Whether a relation has the id.
    pub(crate) fn contains(&self, id: &str) -> bool {
        self.by_id.contains_key(id)
    }

    /// Adds the relation `id` (an id not yet held) with its text.
    pub(crate) fn insert(&mut self, id: &str, text: &str) {
        let index = self.texts.push(text);
        self.by_id.entry(id.to_owned()).or_insert(index);
    }

    /// The text of the relation `id`.
    pub(crate) fn get(&self, id: &str) -> Option<&str> {
        self.texts.get(*self.by_id.get(id)?)
    }

    /// The text of every relation, in no order.
    pub(crate) fn texts(&self) -> impl Iterator<Item = &str> {
        self.by_id.values().filter_map(|&i| self.texts.get(i))
    }
}

/// No next location of the same relation.
const LAST: usize = usize::MAX;

/// Delivery locations as their texts in scenario order, found by id and by relation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Locations {
    texts: Texts,
    /// The first location of each id.
    by_id: HashMap<String, usize>,
    /// The first and the last location of each relation.
    by_relation: HashMap<String, (usize, usize)>,
    /// For each location, the next one of its relation in scenario order ([`LAST`]).
    next: Vec<usize>,
}

impl Locations {
    /// Makes room for `n` more locations of `bytes` bytes of text in all.
    pub(crate) fn reserve(&mut self, n: usize, bytes: usize) {
        self.texts.reserve(n, bytes);
        self.by_id.reserve(n);
        self.by_relation.reserve(n);
        self.next.reserve(n);
    }

    /// Whether a location has the id.
    pub(crate) fn contains(&self, id: &str) -> bool {
        self.by_id.contains_key(id)
    }

    /// Adds a location after the others.
    pub(crate) fn push(&mut self, id: &str, relation_id: &str, text: &str) {
        let index = self.texts.push(text);
        self.next.push(LAST);
        if !self.by_id.contains_key(id) {
            self.by_id.insert(id.to_owned(), index);
        }
        match self.by_relation.get_mut(relation_id) {
            Some((_, last)) => {
                if let Some(next) = self.next.get_mut(*last) {
                    *next = index;
                }
                *last = index;
            }
            None => {
                self.by_relation
                    .insert(relation_id.to_owned(), (index, index));
            }
        }
    }

    /// The text of the location `id`.
    pub(crate) fn get(&self, id: &str) -> Option<&str> {
        self.texts.get(*self.by_id.get(id)?)
    }

    /// The compact JSON texts of the relation's locations, in scenario order.
    pub(crate) fn texts_of<'a>(&'a self, relation_id: &str) -> impl Iterator<Item = &'a str> + 'a {
        let first = self.by_relation.get(relation_id).map_or(LAST, |&(f, _)| f);
        std::iter::successors((first != LAST).then_some(first), |&i| {
            self.next.get(i).copied().filter(|&n| n != LAST)
        })
        .filter_map(|i| self.texts.get(i))
    }
}

/// Brandings in scenario order (id, record), indexed by id, with the brandings whose
/// record says `"default": true`.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Brandings {
    list: Vec<(String, Value)>,
    /// What each branding's record says of the PDF's page, in the same order.
    pages: Vec<crate::pdf::Branding>,
    /// The first branding of each id.
    by_id: HashMap<String, usize>,
    /// The brandings whose `default` is true.
    defaults: BTreeSet<usize>,
}

impl Brandings {
    /// Adds a branding after the others.
    pub(crate) fn push(&mut self, (id, record): (String, Value), page: crate::pdf::Branding) {
        let index = self.list.len();
        self.pages.push(page);
        self.by_id.entry(id.clone()).or_insert(index);
        if is_default(&record) {
            self.defaults.insert(index);
        }
        self.list.push((id, record));
    }

    /// The index of the default branding (the first whose record says
    /// `"default": true`), which shapes every PDF rendered (docs/files.md §2); `None`: a
    /// plain page.
    pub(crate) fn default_index(&self) -> Option<usize> {
        self.defaults.first().copied()
    }

    /// What the branding at `index` says of the PDF's page.
    pub(crate) fn page(&self, index: usize) -> Option<&crate::pdf::Branding> {
        self.pages.get(index)
    }

    /// The index of the branding `id`.
    pub(crate) fn position(&self, id: &str) -> Option<usize> {
        self.by_id.get(id).copied()
    }

    /// The id of the branding at `index`.
    pub(crate) fn id(&self, index: usize) -> Option<&str> {
        self.list.get(index).map(|(id, _)| id.as_str())
    }

    /// The record at `index`.
    pub(crate) fn get(&self, index: usize) -> Option<&Value> {
        self.list.get(index).map(|(_, record)| record)
    }

    /// Makes the branding at `index` the default ([`crate::app::designate`]).
    pub(crate) fn designate(&mut self, index: usize) {
        crate::app::designate(&mut self.list, index);
        self.defaults = (0..self.list.len())
            .filter(|&i| self.list.get(i).is_some_and(|(_, r)| is_default(r)))
            .collect();
    }

    /// Every branding: id and record, in scenario order.
    pub(crate) fn all(&self) -> &[(String, Value)] {
        &self.list
    }
}

/// Whether a branding record says `"default": true`.
fn is_default(record: &Value) -> bool {
    record.get("default") == Some(&Value::Bool(true))
}

// Equivalent mutants (cargo mutants): `Texts::reserve`, `Relations::reserve` and
// `Locations::reserve` → `()` (and `scenario::count`'s figures) only make room ahead:
// every answer is the same without.

#[cfg(test)]
mod tests;
