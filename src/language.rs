//! The language of a company's documents (docs/files.md §2): the labels of its PDF and the
//! standard wordings of its exemption mentions, in the PDF and in the UBL alike.

use crate::wire::closed_set;

closed_set! {
    /// A language the crate writes documents in: `en` (the default), `nl`, `fr`, `de`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
    pub enum Language("language") {
        /// English (the default).
        #[default]
        En = "en",
        /// Dutch.
        Nl = "nl",
        /// French.
        Fr = "fr",
        /// German.
        De = "de",
    }
}

#[cfg(test)]
mod tests;
