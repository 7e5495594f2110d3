//! Payment terms (`<days>-<basis>`) and the due date they give (docs/decisions.md §4b).

use crate::wire::closed_set;
use chrono::{Datelike, Days, NaiveDate};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

closed_set! {
    /// From which day the days of a payment term count.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum Basis("payment terms basis") {
        /// `df`: from the document (issue) date.
        DocumentDate = "df",
        /// `fm`: from the first day of the month after the issue date.
        FollowingMonth = "fm",
        /// `mf`: to the end of the month in which issue date + days falls.
        MonthEnd = "mf",
    }
}

/// Payment terms such as `30-df`: 0 to 9999 days and a basis.
///
/// Valid by construction: built only by parsing (or [`PaymentTerms::new`]), which
/// accepts 1 to 4 ASCII digits (other Unicode digits are refused), a hyphen and a
/// lower-case basis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PaymentTerms {
    days: u16,
    /// How many digits the days were written with (`007-df`: 3), so that terms are
    /// echoed as sent (docs/decisions.md §2).
    width: u8,
    basis: Basis,
}

/// Why a text is not payment terms.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("payment terms must match ^\\d{{1,4}}-(df|fm|mf)$ with ASCII digits, got {0:?}")]
pub struct TermsError(pub String);

impl PaymentTerms {
    /// `30-df`, the terms when neither the request nor the relation gives any.
    pub const DEFAULT: PaymentTerms = PaymentTerms {
        days: 30,
        width: 2,
        basis: Basis::DocumentDate,
    };

    /// Terms of `days` days (at most 9999) on `basis`.
    pub fn new(days: u16, basis: Basis) -> Option<PaymentTerms> {
        let width = match days {
            0..=9 => 1,
            10..=99 => 2,
            100..=999 => 3,
            1000..=9999 => 4,
            _ => return None,
        };
        Some(PaymentTerms { days, width, basis })
    }

    /// The number of days.
    pub fn days(self) -> u16 {
        self.days
    }

    /// The basis.
    pub fn basis(self) -> Basis {
        self.basis
    }

    /// The due date of a document issued on `issue_date` (docs/decisions.md §4b), or `None`
    /// past the last date the calendar holds.
    ///
    /// ```
    /// use invoicing_core::terms::PaymentTerms;
    /// use chrono::NaiveDate;
    /// let d = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap();
    /// let due = |t: &str, i: &str| t.parse::<PaymentTerms>().unwrap().due_date(d(i)).unwrap().to_string();
    /// assert_eq!(due("30-df", "2026-01-31"), "2026-03-02");
    /// assert_eq!(due("30-fm", "2026-01-15"), "2026-03-03");
    /// assert_eq!(due("0-fm", "2026-01-15"), "2026-02-01");
    /// assert_eq!(due("30-mf", "2026-01-15"), "2026-02-28");
    /// assert_eq!(due("29-mf", "2024-01-31"), "2024-02-29");
    /// assert_eq!(due("0-mf", "2026-01-31"), "2026-01-31");
    /// ```
    pub fn due_date(self, issue_date: NaiveDate) -> Option<NaiveDate> {
        let days = Days::new(u64::from(self.days));
        match self.basis {
            Basis::DocumentDate => issue_date.checked_add_days(days),
            Basis::FollowingMonth => first_of_next_month(issue_date)?.checked_add_days(days),
            Basis::MonthEnd => last_of_month(issue_date.checked_add_days(days)?),
        }
    }
}

/// The first day of the month after `date`.
fn first_of_next_month(date: NaiveDate) -> Option<NaiveDate> {
    let (y, m) = if date.month() == 12 {
        (date.year().checked_add(1)?, 1)
    } else {
        (date.year(), date.month() + 1)
    };
    NaiveDate::from_ymd_opt(y, m, 1)
}

/// The last day of the month of `date`.
fn last_of_month(date: NaiveDate) -> Option<NaiveDate> {
    first_of_next_month(date)?.pred_opt()
}

impl FromStr for PaymentTerms {
    type Err = TermsError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || TermsError(s.to_owned());
        let (days, basis) = s.split_once('-').ok_or_else(err)?;
        if days.is_empty() || days.len() > 4 || !days.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err());
        }
        let width = u8::try_from(days.len()).map_err(|_| err())?;
        let days: u16 = days.parse().map_err(|_| err())?;
        let basis = Basis::parse(basis).ok_or_else(err)?;
        Ok(PaymentTerms { days, width, basis })
    }
}

impl fmt::Display for PaymentTerms {
    /// Writes the terms as they were sent: `007-df` is read as 7 days and written
    /// `007-df` again.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:0w$}-{}",
            self.days,
            self.basis.as_str(),
            w = usize::from(self.width)
        )
    }
}

#[cfg(test)]
mod tests;
