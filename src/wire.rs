//! The closed sets of the interface (document types, statuses, VAT codes, journal
//! categories, languages…), each declared once with [`closed_set!`](crate::wire): its
//! variants and their texts on the wire, from which come `ALL`, `as_str`, `parse`,
//! `Display` and `FromStr` (refusing any other text with an [`UnknownValue`]). The
//! stored form and the responses write these texts; requests and scenarios read them,
//! exactly as written (no other case, no trimming).

/// A text outside a closed set (the error of every `FromStr` of the crate's enums).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{value:?} is not a valid {what}")]
pub struct UnknownValue {
    /// What was read (`document type`, `vat code`…).
    pub what: &'static str,
    /// The text.
    pub value: String,
}

/// Declares a closed set: `closed_set! { #[derive(…)] pub enum Name("what it is") {
/// /// doc
/// Variant = "text", … } }`.
macro_rules! closed_set {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident($what:literal) {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal, )+
        }
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $name {
            /// Every value, in the order of the declaration.
            pub const ALL: [$name; [$($text),+].len()] = [$(Self::$variant),+];

            /// The value as written on the wire.
            pub fn as_str(self) -> &'static str {
                match self {
                    $( Self::$variant => $text, )+
                }
            }

            /// The value written `s` (exactly), if any.
            pub fn parse(s: &str) -> Option<$name> {
                match s {
                    $( $text => Some(Self::$variant), )+
                    _ => None,
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::wire::UnknownValue;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Self::parse(s).ok_or_else(|| $crate::wire::UnknownValue {
                    what: $what,
                    value: s.to_owned(),
                })
            }
        }
    };
}
pub(crate) use closed_set;
