//! Payment terms: any text parsed as `<days>-<basis>`.
//!
//! Invariants (docs/decisions.md §2, §4b):
//! - the text parses exactly when it matches `^[0-9]{1,4}-(df|fm|mf)$` with ASCII
//!   digits (an oracle written here, independent of the parser);
//! - parsed: printing gives the text back (echoed as sent), and print → parse gives
//!   the same value;
//! - from fixed issue dates, the due date exists and is never before the issue date;
//!   `df` is exactly issue + days, `fm` is the first of the next month + days, `mf`
//!   is the last day of the month of issue + days.
#![no_main]

use chrono::{Datelike, Days, NaiveDate};
use invoicing_core::terms::{Basis, PaymentTerms};
use libfuzzer_sys::fuzz_target;

fn matches_pattern(s: &str) -> bool {
    let Some((days, basis)) = s.split_once('-') else {
        return false;
    };
    (1..=4).contains(&days.len())
        && days.bytes().all(|b| b.is_ascii_digit())
        && matches!(basis, "df" | "fm" | "mf")
}

fn first_of_next_month(d: NaiveDate) -> NaiveDate {
    let (y, m) = if d.month() == 12 {
        (d.year() + 1, 1)
    } else {
        (d.year(), d.month() + 1)
    };
    NaiveDate::from_ymd_opt(y, m, 1).expect("a first of month")
}

const ISSUE_DATES: &[(i32, u32, u32)] = &[
    (2026, 11, 21),
    (2024, 1, 31),
    (2024, 2, 29),
    (2026, 12, 31),
    (1999, 12, 1),
];

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = s.parse::<PaymentTerms>();
    assert_eq!(
        parsed.is_ok(),
        matches_pattern(s),
        "parse disagrees with the pattern on {s:?}: {parsed:?}"
    );
    let Ok(terms) = parsed else { return };
    let printed = terms.to_string();
    assert_eq!(printed, s, "terms are not echoed as sent");
    assert_eq!(
        printed.parse::<PaymentTerms>(),
        Ok(terms),
        "print → parse is not stable"
    );
    let days: u16 = s
        .split_once('-')
        .expect("matched")
        .0
        .parse()
        .expect("ascii digits");
    assert_eq!(terms.days(), days);
    for &(y, m, d) in ISSUE_DATES {
        let issue = NaiveDate::from_ymd_opt(y, m, d).expect("a fixed date");
        let due = terms
            .due_date(issue)
            .unwrap_or_else(|| panic!("{s} from {issue}: no due date"));
        assert!(
            due >= issue,
            "{s} from {issue}: due {due} before the issue date"
        );
        let plus = |from: NaiveDate| {
            from.checked_add_days(Days::new(u64::from(days)))
                .expect("in range")
        };
        let expect = match terms.basis() {
            Basis::DocumentDate => plus(issue),
            Basis::FollowingMonth => plus(first_of_next_month(issue)),
            Basis::MonthEnd => first_of_next_month(plus(issue))
                .pred_opt()
                .expect("in range"),
        };
        assert_eq!(due, expect, "{s} from {issue}");
    }
});
