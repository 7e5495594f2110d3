//! Closed sets as written: one declaration per enum ([`closed_set!`]) gives its
//! variants, the text each is written as, `ALL`, `as_str`, `parse`, `Display`,
//! `FromStr` and serde, so that a set's wire texts are written once, beside its type.

/// A text outside a closed set (the error of every `FromStr` of the crate's enums).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{value:?} is not a valid {what}")]
pub struct UnknownValue {
    /// What was read (`document type`, `vat code`…).
    pub what: &'static str,
    /// The text.
    pub value: String,
}

/// Declares an enum whose variants are each written as one text:
///
/// ```text
/// closed_set! {
///     /// Doc.
///     #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
///     pub enum Kind("kind") {
///         /// Doc.
///         Allowance = "allowance",
///     }
/// }
/// ```
///
/// The string after the name says what the set is in an [`UnknownValue`]. `ALL` lists
/// the variants in declaration order; `parse` reads a text exactly as written.
macro_rules! closed_set {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident($what:literal) {
            $($(#[$vmeta:meta])* $variant:ident = $text:literal,)+
        }
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $($(#[$vmeta])* $variant,)+
        }

        impl $name {
            /// Every value, in the order declared.
            pub const ALL: [Self; [$($text),+].len()] = [$(Self::$variant),+];

            /// The value as written.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Self::$variant => $text,)+
                }
            }

            /// The value written exactly `s`, if any.
            pub fn parse(s: &str) -> Option<Self> {
                match s {
                    $($text => Some(Self::$variant),)+
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

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = <String as serde::Deserialize>::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

pub(crate) use closed_set;
