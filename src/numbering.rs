//! Numbering: journal categories and the category each document type is booked in,
//! the window a journal's counter restarts in, the document number drawn in it, and
//! the issue-date window of a numbered document (docs/decisions.md §5, §6).

use crate::wire::{closed_set, UnknownValue};
use chrono::{Datelike, NaiveDate};
use std::fmt;
use std::str::FromStr;

closed_set! {
    /// The category of a journal; each document type is booked in one category.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum JournalCategory("journal category") {
        /// Sales invoices.
        SalesInvoice = "sales_invoice",
        /// Sales credit notes.
        SalesCredit = "sales_credit",
        /// Purchase (self-billing) invoices.
        PurchasesInvoice = "purchases_invoice",
        /// Purchase (self-billing) credit notes.
        PurchasesCredit = "purchases_credit",
        /// Proforma invoices.
        Proforma = "proforma",
    }
}

closed_set! {
    /// When a journal's numbering counter restarts.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum Numbering("numbering") {
        /// Never: one sequence for all time, numbers `{prefix}{seq:06}`.
        Never = "never",
        /// Every month: numbers `{prefix}{YYYY}{MM}-{seq:04}`.
        Monthly = "monthly",
        /// Every year: numbers `{prefix}{YYYY}-{seq:04}`.
        Yearly = "yearly",
    }
}

impl Numbering {
    /// The window of the counter that holds `date`.
    pub fn window(self, date: NaiveDate) -> Window {
        match self {
            Self::Never => Window::Always,
            Self::Yearly => Window::Year(date.year()),
            Self::Monthly => Window::Month(date.year(), date.month()),
        }
    }

    /// The number drawn as sequence `seq` in the window of `date`.
    ///
    /// ```
    /// use invoicing_core::numbering::Numbering;
    /// use chrono::NaiveDate;
    /// let d = NaiveDate::from_ymd_opt(2026, 3, 9).unwrap();
    /// assert_eq!(Numbering::Never.number("P", d, 96), "P000096");
    /// assert_eq!(Numbering::Yearly.number("INV", d, 1), "INV2026-0001");
    /// assert_eq!(Numbering::Monthly.number("M", d, 12), "M202603-0012");
    /// ```
    pub fn number(self, prefix: &str, date: NaiveDate, seq: u64) -> String {
        match self {
            Self::Never => format!("{prefix}{seq:06}"),
            Self::Yearly => format!("{prefix}{:04}-{seq:04}", date.year()),
            Self::Monthly => format!("{prefix}{:04}{:02}-{seq:04}", date.year(), date.month()),
        }
    }

    /// Whether a document numbered in the window of `numbered_on` may carry
    /// `issue_date`: any date when the counter never restarts, else a date of the
    /// same year (yearly) or the same month (monthly) (docs/decisions.md §6).
    pub fn keeps_window(self, numbered_on: NaiveDate, issue_date: NaiveDate) -> bool {
        self.window(numbered_on) == self.window(issue_date)
    }
}

/// A journal documents are booked and numbered in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Journal {
    /// Opaque identifier.
    pub id: String,
    /// The category of documents it takes.
    pub category: JournalCategory,
    /// When its counter restarts.
    pub numbering: Numbering,
    /// The prefix of its numbers.
    pub prefix: String,
}

/// A number drawn from a journal's counter by [`draw`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draw {
    /// The window of the counter the number was drawn in.
    pub window: Window,
    /// The sequence drawn.
    pub sequence: u64,
    /// The document number: [`Numbering::number`] of the sequence.
    pub number: String,
    /// The counter's next state (the next sequence of the window): `sequence + 1`.
    pub next: u64,
}

/// A journal's counter has drawn its last number in a window: its next sequence is
/// `u64::MAX`, which has no successor to move the counter to.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the counter of journal {journal_id:?} is exhausted in window {window}")]
pub struct CounterExhausted {
    /// The journal.
    pub journal_id: String,
    /// The window.
    pub window: Window,
}

/// The counter rule: journal, counter state (the next sequence of the window that
/// holds `issue_date`, as the [`crate::context::Context`] reads it) and issue date →
/// the number and the counter's next state.
///
/// A state of 0 is read as 1 (counters start at 1). The state `u64::MAX` is
/// exhausted: it is refused, never drawn, so no number is ever drawn twice (a
/// saturating counter would repeat its last number, which Belgian law forbids).
///
/// ```
/// use invoicing_core::numbering::{draw, Journal, JournalCategory, Numbering, Window};
/// use chrono::NaiveDate;
/// let journal = Journal { id: "j".into(), category: JournalCategory::SalesInvoice,
///     numbering: Numbering::Yearly, prefix: "INV".into() };
/// let day = NaiveDate::from_ymd_opt(2026, 11, 21).unwrap();
/// let d = draw(&journal, 7, day)?;
/// assert_eq!((d.number.as_str(), d.window, d.next), ("INV2026-0007", Window::Year(2026), 8));
/// assert!(draw(&journal, u64::MAX, day).is_err());
/// # Ok::<(), invoicing_core::numbering::CounterExhausted>(())
/// ```
pub fn draw(
    journal: &Journal,
    state: u64,
    issue_date: NaiveDate,
) -> Result<Draw, CounterExhausted> {
    let window = journal.numbering.window(issue_date);
    let sequence = state.max(1);
    let next = sequence.checked_add(1).ok_or_else(|| CounterExhausted {
        journal_id: journal.id.clone(),
        window,
    })?;
    Ok(Draw {
        window,
        sequence,
        number: journal
            .numbering
            .number(&journal.prefix, issue_date, sequence),
        next,
    })
}

/// The stretch of time one run of a journal's counter covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Window {
    /// The counter never restarts.
    Always,
    /// One calendar year.
    Year(i32),
    /// One calendar month (year, month 1-12).
    Month(i32, u32),
}

/// A window is written `always`, `YYYY` (a year) or `YYYY-MM` (a month): the key a
/// server stores a journal's counter under.
impl fmt::Display for Window {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Window::Always => f.write_str("always"),
            Window::Year(y) => write!(f, "{y:04}"),
            Window::Month(y, m) => write!(f, "{y:04}-{m:02}"),
        }
    }
}

impl FromStr for Window {
    type Err = UnknownValue;
    fn from_str(s: &str) -> Result<Self, UnknownValue> {
        window(s).ok_or_else(|| UnknownValue {
            what: "numbering window",
            value: s.to_owned(),
        })
    }
}

/// The window written `s` (`always`, `YYYY`, `YYYY-MM`), if any.
fn window(s: &str) -> Option<Window> {
    if s == "always" {
        return Some(Window::Always);
    }
    let year = |t: &str| {
        (t.len() >= 4 && t.bytes().all(|b| b.is_ascii_digit()))
            .then(|| t.parse::<i32>().ok())
            .flatten()
    };
    match s.split_once('-') {
        None => year(s).map(Window::Year),
        Some((y, m)) => {
            let month = (m.len() == 2 && m.bytes().all(|b| b.is_ascii_digit()))
                .then(|| m.parse::<u32>().ok())
                .flatten()
                .filter(|m| (1..=12).contains(m))?;
            Some(Window::Month(year(y)?, month))
        }
    }
}

#[cfg(test)]
mod tests;
