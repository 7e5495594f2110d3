//! The Belgian structured communication `+++DDD/DDDD/DDDDD+++`.
//!
//! Invariants (docs/decisions.md §5):
//! - any text: it parses exactly when it is `+++DDD/DDDD/DDDDD+++` with ASCII digits
//!   whose last two are the first ten mod 97 (0 written 97), an oracle written here;
//!   parsed, printing gives the text back and print → parse gives the same value;
//! - any u64 from the first 8 bytes: `from_base` accepts exactly the bases up to
//!   9 999 999 999; for an accepted base, print → parse round trips, the text is 20
//!   characters and carries the check;
//! - the text as a document number: its reference is built from the last ten of its
//!   ASCII digits and round trips through print → parse.
#![no_main]

use invoicing_core::remittance::StructuredReference;
use libfuzzer_sys::fuzz_target;

fn check_of(base: u64) -> u64 {
    match base % 97 {
        0 => 97,
        c => c,
    }
}

/// The oracle: the base of a well-formed, correctly checked text.
fn oracle(s: &str) -> Option<u64> {
    let inner = s.strip_prefix("+++")?.strip_suffix("+++")?;
    let b = inner.as_bytes();
    if b.len() != 14 || b[3] != b'/' || b[8] != b'/' {
        return None;
    }
    let digits: Vec<u8> = b.iter().copied().filter(|c| *c != b'/').collect();
    if digits.len() != 12 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let value = |ds: &[u8]| {
        ds.iter()
            .fold(0u64, |acc, d| acc * 10 + u64::from(d - b'0'))
    };
    let base = value(&digits[..10]);
    (value(&digits[10..]) == check_of(base)).then_some(base)
}

fn round_trip(r: StructuredReference) {
    let printed = r.to_string();
    assert_eq!(printed.len(), 20, "{printed:?} is not 20 characters");
    assert_eq!(
        printed.parse::<StructuredReference>(),
        Ok(r),
        "print → parse of {printed:?}"
    );
    assert_eq!(
        oracle(&printed),
        Some(r.base()),
        "{printed:?} does not carry base {} and its check",
        r.base()
    );
    assert_eq!(r.check(), check_of(r.base()));
}

fuzz_target!(|data: &[u8]| {
    if let Some(bytes) = data.get(..8) {
        let raw = u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
        for base in [raw, raw % 10_000_000_000] {
            match StructuredReference::from_base(base) {
                Some(r) => {
                    assert!(base <= 9_999_999_999, "from_base accepted {base}");
                    assert_eq!(r.base(), base);
                    round_trip(r);
                }
                None => assert!(base > 9_999_999_999, "from_base refused {base}"),
            }
        }
    }
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = s.parse::<StructuredReference>();
    assert_eq!(
        parsed.as_ref().ok().map(|r| r.base()),
        oracle(s),
        "parse disagrees with the oracle on {s:?}: {parsed:?}"
    );
    if let Ok(r) = parsed {
        assert_eq!(
            r.to_string(),
            s,
            "a parsed reference is not printed as sent"
        );
        round_trip(r);
    }
    let from_number = StructuredReference::from_document_number(s);
    let digits: Vec<u64> = s
        .bytes()
        .filter(u8::is_ascii_digit)
        .map(|b| u64::from(b - b'0'))
        .collect();
    let last_ten = digits[digits.len().saturating_sub(10)..]
        .iter()
        .fold(0, |acc, d| acc * 10 + d);
    assert_eq!(
        from_number.base(),
        last_ten,
        "the reference of {s:?} is not built from its last ten digits"
    );
    round_trip(from_number);
});
