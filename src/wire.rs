//! The closed sets of the interface (document types, statuses, VAT codes, journal
//! categories, languages…), each declared once with [`closed_set!`](crate::wire): its
//! variants and their texts on the wire, from which come `ALL`, `as_str`, `parse`,
//! `Display`, `FromStr` (refusing any other text with an [`UnknownValue`]) and serde. The
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

/// Serde helper: a value written as its `Display` text and read with `FromStr`.
pub(crate) mod text {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};
    use std::fmt::Display;
    use std::str::FromStr;

    pub(crate) fn serialize<T: Display, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(v)
    }

    pub(crate) fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        let s = String::deserialize(d)?;
        s.parse().map_err(D::Error::custom)
    }
}

/// Serde helper: an optional value as its text, or null.
pub(crate) mod opt_text {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};
    use std::fmt::Display;
    use std::str::FromStr;

    #[allow(clippy::ref_option)]
    pub(crate) fn serialize<T: Display, S: Serializer>(
        v: &Option<T>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => s.collect_str(v),
            None => s.serialize_none(),
        }
    }

    pub(crate) fn deserialize<'de, T, D>(d: D) -> Result<Option<T>, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        match Option::<String>::deserialize(d)? {
            Some(s) => s.parse().map(Some).map_err(D::Error::custom),
            None => Ok(None),
        }
    }
}

/// Serde helper: a list of values as their texts.
pub(crate) mod vec_text {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};
    use std::fmt::Display;
    use std::str::FromStr;

    pub(crate) fn serialize<T: Display, S: Serializer>(v: &[T], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(ToString::to_string))
    }

    pub(crate) fn deserialize<'de, T, D>(d: D) -> Result<Vec<T>, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        Vec::<String>::deserialize(d)?
            .iter()
            .map(|s| s.parse().map_err(D::Error::custom))
            .collect()
    }
}

/// Serde helper: an instant as RFC 3339 in UTC (`Z`), fraction digits as needed.
pub(crate) mod instant {
    use chrono::{DateTime, SecondsFormat, Utc};
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(v: &DateTime<Utc>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.to_rfc3339_opts(SecondsFormat::AutoSi, true))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<DateTime<Utc>, D::Error> {
        let s = String::deserialize(d)?;
        DateTime::parse_from_rfc3339(&s)
            .map(|t| t.with_timezone(&Utc))
            .map_err(D::Error::custom)
    }
}

/// Serde helper: sets a key of a strictly read object, refusing a key given twice (the
/// hand-written readers of the stored form's lines and allowances/charges).
pub(crate) fn once<T, E: serde::de::Error>(
    slot: &mut Option<T>,
    key: &'static str,
    value: T,
) -> Result<(), E> {
    if slot.is_some() {
        return Err(E::duplicate_field(key));
    }
    *slot = Some(value);
    Ok(())
}
