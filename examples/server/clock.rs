//! The server's clock: the real one, with "today" the date in Brussels (the
//! companies are Belgian), or pinned with `--today` (and `--now`) for tests.

use chrono::{DateTime, NaiveDate, Utc};
use invoicing_core::context::belgian_date;

/// Where "today" and "now" come from.
#[derive(Debug, Clone, Copy)]
pub enum Clock {
    /// The machine's clock; today in Europe/Brussels.
    Real,
    /// Fixed (`--today`, `--now`; `now` defaults to the start of `today`, UTC, as a
    /// scenario's does).
    Pinned {
        today: NaiveDate,
        now: DateTime<Utc>,
    },
}

impl Clock {
    /// Today and now.
    pub fn read(self) -> (NaiveDate, DateTime<Utc>) {
        match self {
            Clock::Pinned { today, now } => (today, now),
            Clock::Real => {
                let since = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap_or_default();
                let secs = i64::try_from(since.as_secs()).unwrap_or(0);
                let now = DateTime::from_timestamp(secs, since.subsec_nanos()).unwrap_or_default();
                (belgian_date(now), now)
            }
        }
    }
}
