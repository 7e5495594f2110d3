//! Validation: from JSON to typed, validated values, every error collected with its
//! location (docs/decisions.md §8, §9). Shape checks live here; the rules that read the
//! context or several fields live in [`crate::lifecycle`].

pub mod body;
pub mod fields;
pub mod lines;
pub mod typed;

use serde_json::Value;

/// Reads a lax boolean (docs/decisions.md §9): `true`/`false`, `1`/`0`, and the strings
/// `"true"`/`"false"`, `"1"`/`"0"`, `"yes"`/`"no"`, `"on"`/`"off"` in any case.
///
/// ```
/// use invoicing_core::validate::lax_bool;
/// use serde_json::json;
/// assert_eq!(lax_bool(&json!("Yes")), Some(true));
/// assert_eq!(lax_bool(&json!(0)), Some(false));
/// assert_eq!(lax_bool(&json!("maybe")), None);
/// ```
pub fn lax_bool(value: &Value) -> Option<bool> {
    match value {
        Value::Bool(b) => Some(*b),
        Value::Number(n) => match n.as_str() {
            "1" => Some(true),
            "0" => Some(false),
            _ => None,
        },
        Value::String(s) => lax_bool_text(s),
        _ => None,
    }
}

/// Reads a lax boolean from text, as a query parameter is (docs/decisions.md §8).
pub fn lax_bool_text(text: &str) -> Option<bool> {
    match text.to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Some(true),
        "false" | "0" | "no" | "off" => Some(false),
        _ => None,
    }
}
