//! The Belgian structured communication (OGM/VCS, `+++DDD/DDDD/DDDDD+++`) built from a
//! document number (docs/decisions.md §5).

use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// A Belgian structured communication: a 10-digit base and its check digits
/// (base mod 97, where 0 is written 97).
///
/// ```
/// use invoicing_core::remittance::StructuredReference;
/// let r = StructuredReference::from_document_number("INV2026-0001");
/// assert_eq!(r.to_string(), "+++002/0260/00196+++");
/// assert_eq!("+++002/0260/00196+++".parse::<StructuredReference>(), Ok(r));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StructuredReference {
    base: u64,
}

/// Why a text is not a structured communication.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ReferenceError {
    /// The text is not `+++DDD/DDDD/DDDDD+++` with ASCII digits.
    #[error("a structured communication is written +++DDD/DDDD/DDDDD+++, got {0:?}")]
    Format(String),
    /// The check digits do not match the base.
    #[error("check digits {found:02} do not match the base, expected {expected:02}")]
    Check {
        /// The check digits written.
        found: u64,
        /// The check digits of the base.
        expected: u64,
    },
}

impl StructuredReference {
    /// The communication of a document number: the last 10 of the number's digits,
    /// left-padded with 0, as the base.
    pub fn from_document_number(number: &str) -> StructuredReference {
        let digits: Vec<u64> = number
            .bytes()
            .filter(u8::is_ascii_digit)
            .map(|b| u64::from(b - b'0'))
            .collect();
        let start = digits.len().saturating_sub(10);
        let base = digits[start..].iter().fold(0, |acc, d| acc * 10 + d);
        StructuredReference { base }
    }

    /// The communication of a 10-digit base (at most 9 999 999 999).
    pub fn from_base(base: u64) -> Option<StructuredReference> {
        (base <= 9_999_999_999).then_some(StructuredReference { base })
    }

    /// The 10-digit base.
    pub fn base(self) -> u64 {
        self.base
    }

    /// The check digits: base mod 97, with 0 written 97.
    pub fn check(self) -> u64 {
        match self.base % 97 {
            0 => 97,
            c => c,
        }
    }
}

impl fmt::Display for StructuredReference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = format!("{:010}{:02}", self.base, self.check());
        write!(f, "+++{}/{}/{}+++", &s[0..3], &s[3..7], &s[7..12])
    }
}

impl FromStr for StructuredReference {
    type Err = ReferenceError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let format = || ReferenceError::Format(s.to_owned());
        let inner = s
            .strip_prefix("+++")
            .and_then(|r| r.strip_suffix("+++"))
            .ok_or_else(format)?;
        let b = inner.as_bytes();
        if b.len() != 14 || b[3] != b'/' || b[8] != b'/' {
            return Err(format());
        }
        let digits: Vec<u8> = [&b[0..3], &b[4..8], &b[9..14]].concat();
        if !digits.iter().all(u8::is_ascii_digit) {
            return Err(format());
        }
        let value = |ds: &[u8]| {
            ds.iter()
                .fold(0u64, |acc, d| acc * 10 + u64::from(d - b'0'))
        };
        let base = value(&digits[..10]);
        let found = value(&digits[10..]);
        let reference = StructuredReference { base };
        let expected = reference.check();
        if found != expected {
            return Err(ReferenceError::Check { found, expected });
        }
        Ok(reference)
    }
}

#[cfg(test)]
mod tests;
