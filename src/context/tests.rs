use super::*;

fn date_at(instant: &str) -> String {
    let now = DateTime::parse_from_rfc3339(instant).map(|t| t.with_timezone(&Utc));
    belgian_date(now.unwrap_or_default()).to_string()
}

#[test]
fn today_is_the_date_in_brussels() {
    // issue 19: a server's today on the real clock is the Belgian date (UTC+1, UTC+2 in summer)
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
