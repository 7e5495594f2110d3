//! The server's clock: the real one, with "today" the date in Brussels (the
//! companies are Belgian), or pinned with `--today` (and `--now`) for tests.

use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc, Weekday};

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
                (brussels_date(now), now)
            }
        }
    }
}

/// The date in Brussels at `now`: UTC+1, and UTC+2 from the last Sunday of March at
/// 01:00 UTC to the last Sunday of October at 01:00 UTC (the EU's summer time).
pub fn brussels_date(now: DateTime<Utc>) -> NaiveDate {
    let year = now.year();
    let switch = |month| {
        last_sunday(year, month)
            .and_hms_opt(1, 0, 0)
            .map(|t| t.and_utc())
    };
    let summer = match (switch(3), switch(10)) {
        (Some(start), Some(end)) => now >= start && now < end,
        _ => false,
    };
    let offset = Duration::hours(if summer { 2 } else { 1 });
    now.checked_add_signed(offset).unwrap_or(now).date_naive()
}

/// The last Sunday of a month.
fn last_sunday(year: i32, month: u32) -> NaiveDate {
    let first_of_next = if month == 12 {
        NaiveDate::from_ymd_opt(year + 1, 1, 1)
    } else {
        NaiveDate::from_ymd_opt(year, month + 1, 1)
    }
    .unwrap_or_default();
    let mut day = first_of_next.pred_opt().unwrap_or_default();
    while day.weekday() != Weekday::Sun {
        day = day.pred_opt().unwrap_or_default();
    }
    day
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date_at(instant: &str) -> String {
        let now = DateTime::parse_from_rfc3339(instant).map(|t| t.with_timezone(&Utc));
        brussels_date(now.unwrap_or_default()).to_string()
    }

    #[test]
    fn today_is_the_date_in_brussels() {
        // issue 19: the real clock's today is Europe/Brussels' (UTC+1, UTC+2 in summer)
        assert_eq!(date_at("2026-11-24T22:59:59Z"), "2026-11-24");
        assert_eq!(date_at("2026-11-24T23:00:00Z"), "2026-11-25");
        assert_eq!(date_at("2026-07-01T21:59:59Z"), "2026-07-01");
        assert_eq!(date_at("2026-07-01T22:00:00Z"), "2026-07-02");
        // summer time from the last Sunday of March (29 March 2026) at 01:00 UTC
        assert_eq!(date_at("2026-03-29T22:30:00Z"), "2026-03-30");
        assert_eq!(date_at("2026-03-28T22:30:00Z"), "2026-03-28");
        // to the last Sunday of October (25 October 2026) at 01:00 UTC
        assert_eq!(date_at("2026-10-24T22:30:00Z"), "2026-10-25");
        assert_eq!(date_at("2026-10-25T22:30:00Z"), "2026-10-25");
        assert_eq!(date_at("2026-12-31T23:00:00Z"), "2027-01-01");
    }
}
