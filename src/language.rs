//! The language of a company's documents (docs/files.md §2): the labels of its PDF and the
//! standard wordings of its exemption mentions, in the PDF and in the UBL alike.

use std::fmt;

/// A language the crate writes documents in: `en` (the default), `nl`, `fr`, `de`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub enum Language {
    /// English (the default).
    #[default]
    En,
    /// Dutch.
    Nl,
    /// French.
    Fr,
    /// German.
    De,
}

impl Language {
    /// Every language, in the order above.
    pub const ALL: [Language; 4] = [Self::En, Self::Nl, Self::Fr, Self::De];

    /// The code as a scenario writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::En => "en",
            Self::Nl => "nl",
            Self::Fr => "fr",
            Self::De => "de",
        }
    }

    /// The language of a code, exactly as written (`"nl"`, not `"NL"`).
    pub fn parse(s: &str) -> Option<Language> {
        Self::ALL.into_iter().find(|l| l.as_str() == s)
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn language_codes_read_back_and_only_exactly() {
        // docs/files.md §2: en (default), nl, fr, de; another value is refused
        for l in Language::ALL {
            assert_eq!(Language::parse(l.as_str()), Some(l));
        }
        assert_eq!(Language::default(), Language::En);
        assert_eq!(Language::parse("NL"), None);
        assert_eq!(Language::parse("es"), None);
    }
}
