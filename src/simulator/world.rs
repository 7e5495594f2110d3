//! The simulator's world as the rules see it: today and the clock, the company, its
//! relations, journals and delivery locations, and the journals' counters. It
//! implements [`Context`], so the lifecycle functions read it like a server's database.

use super::record::{read_location, read_relation};
use super::records::{Locations, Relations};
use super::tree::read_text;
use crate::context::{Company, Context, ContextError, DeliveryLocation, Journal, Relation};
use crate::lifecycle::DrawnNumber;
use crate::numbering::{JournalCategory, Window};
use chrono::{DateTime, NaiveDate, Utc};
use std::collections::{BTreeMap, HashMap};

/// The in-memory world of a scenario, read by the rules through [`Context`].
///
/// Journal counters are kept per journal and per window: a journal's `next` in the
/// scenario is the next sequence of the window that holds `today`; every other
/// window starts at 1 (docs/scenario.md).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct World {
    pub(crate) today: NaiveDate,
    pub(crate) now: DateTime<Utc>,
    pub(crate) company: Company,
    /// Relations as the scenario gives them, kept as their texts and read when asked for.
    pub(crate) relations: Relations,
    pub(crate) journals: HashMap<String, Journal>,
    pub(crate) defaults: BTreeMap<JournalCategory, String>,
    /// Delivery locations, kept as the relations are.
    pub(crate) locations: Locations,
    pub(crate) counters: BTreeMap<String, BTreeMap<Window, u64>>,
}

impl World {
    /// An empty world on `today`, with the clock at `now`.
    pub(crate) fn new(today: NaiveDate, now: DateTime<Utc>) -> World {
        World {
            today,
            now,
            ..World::default()
        }
    }

    /// Every relation, read from its text, in the order of their ids.
    pub(crate) fn relations_by_id(&self) -> Vec<Relation> {
        let mut relations: Vec<Relation> = self
            .relations
            .texts()
            .filter_map(|text| relation_of(text).ok())
            .collect();
        relations.sort_unstable_by(|a, b| a.id.cmp(&b.id));
        relations
    }

    /// The next sequence of `journal`'s counter in `window` (1 when never drawn in).
    pub fn counters_of(&self, journal: &str, window: Window) -> u64 {
        self.counters
            .get(journal)
            .and_then(|windows| windows.get(&window))
            .copied()
            .unwrap_or(1)
    }

    /// Every counter of the world: journal id, window, next sequence (a server seeds
    /// its database with them).
    pub fn counters(&self) -> impl Iterator<Item = (&str, Window, u64)> {
        self.counters.iter().flat_map(|(journal, windows)| {
            windows
                .iter()
                .map(move |(window, next)| (journal.as_str(), *window, *next))
        })
    }

    /// Commits a drawn number: the counter of its journal and window moves past it.
    /// A counter never moves back.
    pub(crate) fn advance(&mut self, number: &DrawnNumber) {
        // `numbering::draw` never draws u64::MAX, so a drawn sequence has a successor.
        let Some(next) = number.sequence.checked_add(1) else {
            return;
        };
        let counter = self
            .counters
            .entry(number.journal_id.clone())
            .or_default()
            .entry(number.window)
            .or_insert(1);
        if *counter < next {
            *counter = next;
        }
    }
}

impl Context for World {
    fn today(&self) -> NaiveDate {
        self.today
    }

    fn now(&self) -> DateTime<Utc> {
        self.now
    }

    fn company(&self) -> &Company {
        &self.company
    }

    fn relation(&self, id: &str) -> Result<Option<Relation>, ContextError> {
        match self.relations.get(id) {
            None => Ok(None),
            Some(text) => relation_of(text)
                .map(Some)
                .map_err(|e| ContextError(format!("relation {id}: {}", e.message()))),
        }
    }

    fn journal(&self, id: &str) -> Result<Option<Journal>, ContextError> {
        Ok(self.journals.get(id).cloned())
    }

    fn default_journal(&self, category: JournalCategory) -> Result<Option<Journal>, ContextError> {
        Ok(self
            .defaults
            .get(&category)
            .and_then(|id| self.journals.get(id))
            .cloned())
    }

    fn delivery_location(&self, id: &str) -> Result<Option<DeliveryLocation>, ContextError> {
        match self.locations.get(id) {
            None => Ok(None),
            Some(text) => read_text(text, |rec| read_location(rec, &"delivery location"))
                .map(Some)
                .map_err(|e| ContextError(format!("delivery location {id}: {}", e.message()))),
        }
    }

    fn next_sequence(&self, journal: &Journal, window: Window) -> Result<u64, ContextError> {
        Ok(self.counters_of(&journal.id, window))
    }
}

/// A relation read from the text the world keeps.
fn relation_of(text: &str) -> Result<Relation, super::ScenarioError> {
    read_text(text, |rec| read_relation(rec, &"relation"))
}

#[cfg(test)]
mod tests;
