use super::*;
use proptest::prelude::*;

fn d(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
}

fn due(terms: &str, issue: &str) -> String {
    terms
        .parse::<PaymentTerms>()
        .unwrap()
        .due_date(d(issue))
        .unwrap()
        .to_string()
}

#[test]
fn df_counts_from_the_document_date() {
    // docs/decisions.md §4b: 2026-01-31 with 30-df → 2026-03-02
    assert_eq!(due("30-df", "2026-01-31"), "2026-03-02");
    assert_eq!(due("0-df", "2024-01-31"), "2024-01-31");
    assert_eq!(due("29-df", "2024-01-31"), "2024-02-29");
    assert_eq!(due("9999-df", "2024-01-31"), "2051-06-17");
}

#[test]
fn fm_counts_from_the_first_of_the_next_month() {
    // docs/decisions.md §4b: 2026-01-15 with 30-fm → 2026-03-03; 0-fm → 2026-02-01
    assert_eq!(due("30-fm", "2026-01-15"), "2026-03-03");
    assert_eq!(due("0-fm", "2026-01-15"), "2026-02-01");
    assert_eq!(due("30-fm", "2024-01-31"), "2024-03-02");
    assert_eq!(due("0-fm", "2026-12-31"), "2027-01-01");
    assert_eq!(due("30-fm", "2026-11-21"), "2026-12-31");
}

#[test]
fn mf_runs_to_the_end_of_the_month_the_delay_lands_in() {
    // docs/decisions.md §4b: 30-mf from 2026-01-15 → 2026-02-28; 29-mf from 2024-01-31 → 2024-02-29
    assert_eq!(due("30-mf", "2026-01-15"), "2026-02-28");
    assert_eq!(due("29-mf", "2024-01-31"), "2024-02-29");
    assert_eq!(due("0-mf", "2026-01-31"), "2026-01-31");
    assert_eq!(due("30-mf", "2024-01-31"), "2024-03-31");
    assert_eq!(due("1-mf", "2024-01-31"), "2024-02-29");
    assert_eq!(due("0-mf", "2026-12-05"), "2026-12-31");
}

#[test]
fn the_pattern_takes_one_to_four_ascii_digits_and_a_lower_case_basis() {
    // docs/interface.md: ^\d{1,4}-(df|fm|mf)$; docs/decisions.md §4b: ASCII digits only
    for ok in ["0-df", "30-fm", "9999-mf", "0030-df"] {
        assert!(ok.parse::<PaymentTerms>().is_ok(), "{ok}");
    }
    for bad in [
        "",
        "-df",
        "30",
        "30-DF",
        "30-dm",
        "10000-df",
        "30 -df",
        " 30-df",
        "30-df ",
        "-1-df",
        "+3-df",
        "٣٠-df",
        "３０-df",
        "30-df-x",
        "30--df",
    ] {
        assert!(bad.parse::<PaymentTerms>().is_err(), "{bad}");
    }
}

#[test]
fn terms_are_echoed_as_sent() {
    // docs/decisions.md §2: payment terms are echoed as sent
    assert_eq!(
        "30-fm".parse::<PaymentTerms>().unwrap().to_string(),
        "30-fm"
    );
    assert_eq!(
        "007-df".parse::<PaymentTerms>().unwrap().to_string(),
        "007-df"
    );
    assert_eq!("007-df".parse::<PaymentTerms>().unwrap().days(), 7);
    assert_eq!(PaymentTerms::DEFAULT.to_string(), "30-df");
}

proptest! {
    /// Invariant: the due date is never before the issue date.
    #[test]
    fn due_date_never_before_issue_date(days in 0u16..=9999, basis in 0..3, day in 0i64..40_000) {
        let basis = [Basis::DocumentDate, Basis::FollowingMonth, Basis::MonthEnd][usize::try_from(basis).unwrap()];
        let issue = d("1990-01-01") + chrono::Duration::days(day);
        let terms = PaymentTerms::new(days, basis).unwrap();
        prop_assert!(terms.due_date(issue).unwrap() >= issue);
    }

    /// Invariant: parse → print → parse gives the same terms.
    #[test]
    fn parse_print_parse_is_stable(s in "[0-9]{1,4}-(df|fm|mf)") {
        let t: PaymentTerms = s.parse().unwrap();
        prop_assert_eq!(t.to_string().parse::<PaymentTerms>().unwrap(), t);
        prop_assert_eq!(t.to_string(), s);
    }
}
