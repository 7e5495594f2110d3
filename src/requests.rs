//! Entries for servers and Rust clients: send from a request's body bytes (create and
//! PATCH from bytes are [`lifecycle::create_bytes`] and [`lifecycle::patch_bytes`]:
//! a server parses each body once, there), and the typed, serialisable
//! [`CreateRequest`] / [`PatchRequest`] whose JSON is exactly the interface's body.
//!
//! The byte entries answer exactly as the simulator does: bytes that are not JSON get
//! `json_invalid` at `["body"]` (after the permissions, and beside the query's own
//! errors on create), no bytes at all is a missing body.
//!
//! ```
//! use invoicing_core::requests::{CreateRequest, LineRequest};
//! use invoicing_core::document::DocumentType;
//! let request = CreateRequest {
//!     lines: vec![LineRequest {
//!         vat_rate: Some("21".parse().unwrap()),
//!         ..LineRequest::new("2".parse().unwrap(), "9.990".parse().unwrap())
//!     }],
//!     ..CreateRequest::new(DocumentType::SaleInvoice, "rel-acme")
//! };
//! assert_eq!(
//!     serde_json::to_string(&request).unwrap(),
//!     r#"{"type":"sale_invoice","relation_id":"rel-acme","lines":[{"quantity":2,"unit_price":9.990,"vat_rate":21}]}"#
//! );
//! ```

use crate::compute::AllowanceKind;
use crate::context::{Context, Permissions};
use crate::document::{Document, DocumentType};
use crate::error::{ApiError, ValidationError};
use crate::http::Body;
use crate::lifecycle;
use crate::vat::VatCode;
use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

/// [`lifecycle::send`] of `stored` from the body's bytes.
pub fn send_from_bytes(
    ctx: &dyn Context,
    permissions: Permissions,
    stored: &Document,
    body: &[u8],
) -> Result<Document, ApiError> {
    let body = Body::from_bytes(body);
    let attempt = lifecycle::send(ctx, permissions, stored, body.json());
    match &body {
        Body::Invalid { text, reason } => Err(ApiError::body_not_json(
            attempt,
            ValidationError::json_invalid(text, reason),
            false,
        )),
        _ => attempt,
    }
}

/// Serde helpers: a decimal as an exact JSON number (serde_json's
/// arbitrary_precision keeps its digits and scale), read from a number or a string.
/// These read the crate's own output (`to_bytes`): serde_json hands them its private
/// number key as a number, so a body from outside is read by `lifecycle::create_bytes`
/// or `patch_bytes` instead (docs/decisions.md §10).
mod num {
    use super::{Decimal, Deserialize, Deserializer, Serialize, Serializer, Value};

    pub(super) fn serialize<S: Serializer>(d: &Decimal, s: S) -> Result<S::Ok, S::Error> {
        crate::money::decimal_value(*d).serialize(s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Decimal, D::Error> {
        let v = Value::deserialize(d)?;
        crate::number::decimal_from_json(&v).map_err(|e| serde::de::Error::custom(format!("{e:?}")))
    }

    pub(super) mod opt {
        use super::{Decimal, Deserialize, Deserializer, Serializer, Value};

        #[allow(clippy::ref_option)]
        pub(in super::super) fn serialize<S: Serializer>(
            d: &Option<Decimal>,
            s: S,
        ) -> Result<S::Ok, S::Error> {
            match d {
                Some(d) => super::serialize(d, s),
                None => s.serialize_none(),
            }
        }

        pub(in super::super) fn deserialize<'de, D: Deserializer<'de>>(
            d: D,
        ) -> Result<Option<Decimal>, D::Error> {
            match Option::<Value>::deserialize(d)? {
                None | Some(Value::Null) => Ok(None),
                Some(v) => crate::number::decimal_from_json(&v)
                    .map(Some)
                    .map_err(|e| serde::de::Error::custom(format!("{e:?}"))),
            }
        }
    }
}

/// An allowance or charge as sent (exactly one of `amount` and `rate`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AllowanceChargeRequest {
    /// `allowance` or `charge`.
    #[serde(rename = "type")]
    pub kind: AllowanceKind,
    /// A fixed amount.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub amount: Option<Decimal>,
    /// A percentage.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub rate: Option<Decimal>,
    /// Free-text reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Reason code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
}

/// A line as sent (the default: 0 × 0, nothing else).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineRequest {
    /// Quantity.
    #[serde(with = "num")]
    pub quantity: Decimal,
    /// Price of one unit, before tax.
    #[serde(with = "num")]
    pub unit_price: Decimal,
    /// VAT rate in percent (none for the exempt codes).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub vat_rate: Option<Decimal>,
    /// VAT code (`standard` when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vat_code: Option<VatCode>,
    /// Item name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item_name: Option<String>,
    /// Item description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item_description: Option<String>,
    /// Unit code, such as `C62`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit_code: Option<String>,
    /// Section title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section_name: Option<String>,
    /// Free key/value pairs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item_properties: Option<Map<String, Value>>,
    /// Standard item identifier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item_identification: Option<String>,
    /// Seller's product code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub product_code: Option<String>,
    /// The line's allowances and charges.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowance_charges: Vec<AllowanceChargeRequest>,
}

impl LineRequest {
    /// A line of `quantity` × `unit_price` and nothing else.
    pub fn new(quantity: Decimal, unit_price: Decimal) -> LineRequest {
        LineRequest {
            quantity,
            unit_price,
            ..LineRequest::default()
        }
    }
}

/// The body of a create (docs/interface.md "Create document"), for Rust clients. Its JSON
/// is exactly the interface's body: absent fields are left out, amounts are exact
/// JSON numbers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreateRequest {
    /// The type.
    #[serde(rename = "type")]
    pub doc_type: DocumentType,
    /// The third party.
    pub relation_id: String,
    /// 1 to 500 lines.
    pub lines: Vec<LineRequest>,
    /// The journal (else the default of the type's category).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub journal_id: Option<String>,
    /// A saved delivery address of the relation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delivery_location_id: Option<String>,
    /// Issue date (else today).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::wire::opt_text"
    )]
    pub issue_date: Option<NaiveDate>,
    /// Payment terms, `<days>-<df|fm|mf>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payment_terms: Option<String>,
    /// Tax point date.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::wire::opt_text"
    )]
    pub tax_point_date: Option<NaiveDate>,
    /// Delivery date.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::wire::opt_text"
    )]
    pub delivery_date: Option<NaiveDate>,
    /// First day of the billed period.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::wire::opt_text"
    )]
    pub period_start: Option<NaiveDate>,
    /// Last day of the billed period.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::wire::opt_text"
    )]
    pub period_end: Option<NaiveDate>,
    /// Order number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order_number: Option<String>,
    /// Despatch advice reference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub despatch_reference: Option<String>,
    /// Buyer reference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buyer_reference: Option<String>,
    /// Legal notice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legal_notice: Option<String>,
    /// ISO 4217 currency (else EUR).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
    /// Amount already paid, tax included.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    pub paid_amount: Option<Decimal>,
    /// Document-level allowances and charges.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowance_charges: Vec<AllowanceChargeRequest>,
}

impl CreateRequest {
    /// A create of `doc_type` for `relation_id` with no line yet.
    pub fn new(doc_type: DocumentType, relation_id: &str) -> CreateRequest {
        CreateRequest {
            doc_type,
            relation_id: relation_id.to_owned(),
            lines: Vec::new(),
            journal_id: None,
            delivery_location_id: None,
            issue_date: None,
            payment_terms: None,
            tax_point_date: None,
            delivery_date: None,
            period_start: None,
            period_end: None,
            order_number: None,
            despatch_reference: None,
            buyer_reference: None,
            legal_notice: None,
            currency: None,
            paid_amount: None,
            allowance_charges: Vec::new(),
        }
    }

    /// The body as JSON bytes (what [`lifecycle::create_bytes`] reads).
    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }
}

/// A field of a PATCH: left out, sent as `null` (clears it), or sent with a value.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Patch<T> {
    /// Not sent: unchanged.
    #[default]
    Absent,
    /// Sent as `null`.
    Null,
    /// Sent with this value.
    Set(T),
}

impl<T> Patch<T> {
    /// Whether the field is left out.
    pub fn is_absent(&self) -> bool {
        matches!(self, Patch::Absent)
    }
}

impl<T: Serialize> Serialize for Patch<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Patch::Set(v) => v.serialize(s),
            Patch::Absent | Patch::Null => s.serialize_none(),
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Patch<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match Option::<T>::deserialize(d)? {
            Some(v) => Patch::Set(v),
            None => Patch::Null,
        })
    }
}

/// The body of a PATCH (docs/interface.md "PATCH /documents/{document_uuid}"), for Rust
/// clients: every field optional, only the fields present are applied. Dates,
/// amounts and terms are written as the interface reads them (`YYYY-MM-DD` strings,
/// exact JSON numbers).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PatchRequest {
    /// Amount already paid, tax included (as an exact number).
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub paid_amount: Patch<Value>,
    /// The third party.
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub relation_id: Patch<String>,
    /// Issue date, `YYYY-MM-DD`.
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub issue_date: Patch<String>,
    /// Payment terms.
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub payment_terms: Patch<String>,
    /// Delivery location (null detaches it).
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub delivery_location_id: Patch<String>,
    /// Tax point date.
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub tax_point_date: Patch<String>,
    /// Delivery date.
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub delivery_date: Patch<String>,
    /// First day of the billed period.
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub period_start: Patch<String>,
    /// Last day of the billed period.
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub period_end: Patch<String>,
    /// Order number.
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub order_number: Patch<String>,
    /// Despatch reference.
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub despatch_reference: Patch<String>,
    /// Buyer reference.
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub buyer_reference: Patch<String>,
    /// Legal notice (null clears it).
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub legal_notice: Patch<String>,
    /// Currency.
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub currency: Patch<String>,
    /// Replaces every line.
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub lines: Patch<Vec<LineRequest>>,
    /// Replaces the document-level allowances and charges.
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    pub allowance_charges: Patch<Vec<AllowanceChargeRequest>>,
}

impl PatchRequest {
    /// The body as JSON bytes (what [`lifecycle::patch_bytes`] reads).
    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// A PATCH of `paid_amount` only.
    pub fn paid(amount: Decimal) -> PatchRequest {
        PatchRequest {
            paid_amount: Patch::Set(crate::money::decimal_value(amount)),
            ..PatchRequest::default()
        }
    }
}

#[cfg(test)]
mod tests;
