use super::super::record::is_run_id;
use super::*;

#[test]
fn dates_are_strict() {
    assert!(parse_date("2026-11-21").is_some());
    assert!(parse_date("2024-02-29").is_some());
    for bad in [
        "2026-1-05",
        "2026-02-30",
        "26-11-21",
        "2026/11/21",
        "2026-11-21T00:00:00Z",
        "",
        "２０２６-11-21",
    ] {
        assert!(parse_date(bad).is_none(), "{bad}");
    }
}

#[test]
fn date_times_are_read_in_utc() {
    let t = |s: &str| parse_date_time(s).map(|d| d.format("%Y-%m-%dT%H:%M:%SZ").to_string());
    assert_eq!(
        t("2026-11-21T10:00:00+01:00").as_deref(),
        Some("2026-11-21T09:00:00Z")
    );
    assert_eq!(
        t("2026-11-21T10:00:00Z").as_deref(),
        Some("2026-11-21T10:00:00Z")
    );
    assert_eq!(
        t("2026-11-21T10:00:00.5").as_deref(),
        Some("2026-11-21T10:00:00Z")
    );
    assert_eq!(t("2026-11-21"), None);
    assert_eq!(t("yesterday"), None);
    assert_eq!(t("2026-11-21T25:00:00Z"), None);
}

#[test]
fn now_and_today_outside_years_1_to_9999_are_malformed() {
    // issue 12: create_date is written YYYY-MM-DDTHH:MM:SSZ, so now's UTC date
    // must lie in 0001-01-01 … 9999-12-31; an offset may not push it out
    let t = |s: &str| parse_date_time(s).map(|d| d.format("%Y-%m-%dT%H:%M:%SZ").to_string());
    assert_eq!(t("9999-12-31T23:00:00-05:00"), None);
    assert_eq!(t("0001-01-01T00:00:00+01:00"), None);
    assert_eq!(t("0000-06-01T00:00:00Z"), None);
    assert_eq!(t("0000-06-01T00:00:00"), None);
    assert_eq!(
        t("9999-12-31T23:59:59Z").as_deref(),
        Some("9999-12-31T23:59:59Z")
    );
    assert_eq!(
        t("0001-01-01T00:00:00Z").as_deref(),
        Some("0001-01-01T00:00:00Z")
    );
    assert_eq!(parse_date("0000-01-01"), None);
    assert!(parse_date("0001-01-01").is_some());
    assert!(parse_date("9999-12-31").is_some());
    let out = crate::simulator::run(
        br#"{"today": "9999-12-31", "now": "9999-12-31T22:00:00-03:00", "requests": []}"#,
    );
    assert_eq!(
        out,
        serde_json::json!({"error": "now: \"9999-12-31T22:00:00-03:00\" is not a valid date-time (rfc 3339)"})
    );
}

#[test]
fn run_ids_are_doc_or_sbx_and_digits() {
    assert!(is_run_id("doc-1"));
    assert!(is_run_id("sbx-042"));
    assert!(!is_run_id("doc-old"));
    assert!(!is_run_id("doc-"));
    assert!(!is_run_id("doc-1a"));
    assert!(!is_run_id("DOC-1"));
}
