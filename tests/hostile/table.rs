//! The rows: every number field and every free-text field of create and PATCH, each
//! with every hostile value, and the bodies that are hostile as a whole.

use super::{base_create, check, Expect, Op, Row};
use serde_json::{json, Value};

/// Where a field lives in a body.
#[derive(Clone, Copy)]
pub(crate) enum Place {
    /// A top-level key.
    Top(&'static str),
    /// A key of the first line.
    Line(&'static str),
    /// A key of the first line's first allowance.
    LineAc(&'static str),
    /// A key of the document's first allowance.
    DocAc(&'static str),
    /// A property of the first line's `item_properties`.
    Property(&'static str),
}
use Place::{DocAc, Line, LineAc, Property, Top};

/// The stand-in a value's raw text replaces.
const HOLE: &str = "\"@@hole@@\"";

impl Place {
    /// The loc of the field.
    fn loc(self) -> Value {
        match self {
            Top(k) => json!(["body", k]),
            Line(k) => json!(["body", "lines", 0, k]),
            LineAc(k) => json!(["body", "lines", 0, "allowance_charges", 0, k]),
            DocAc(k) => json!(["body", "allowance_charges", 0, k]),
            Property(k) => json!(["body", "lines", 0, "item_properties", k]),
        }
    }

    /// The JSON pointer of the field in the answered document.
    fn pointer(self) -> String {
        match self {
            Top(k) => format!("/{k}"),
            Line(k) => format!("/lines/0/{k}"),
            LineAc(k) => format!("/lines/0/allowance_charges/0/{k}"),
            DocAc(k) => format!("/allowance_charges/0/{k}"),
            Property(k) => format!("/lines/0/item_properties/{k}"),
        }
    }

    /// An allowance whose `key` holds the hole (an amount beside a text key).
    fn allowance(key: &str) -> Value {
        let mut ac = json!({"type": "allowance", "reason": "Loyalty", "code": "95"});
        if key != "rate" {
            ac["amount"] = json!(1);
        }
        ac[key] = Value::String("@@hole@@".into());
        ac
    }

    /// The body of `op` with the field's raw JSON text `raw`, or without the key.
    fn body(self, op: Op, raw: Option<&str>) -> Vec<u8> {
        let mut body = match op {
            Op::Create => base_create(),
            Op::Patch => json!({}),
        };
        let mut line = base_create()["lines"][0].clone();
        match self {
            Top(k) => body[k] = Value::String("@@hole@@".into()),
            Line(k) => {
                line[k] = Value::String("@@hole@@".into());
                body["lines"] = json!([line]);
            }
            LineAc(k) => {
                line["allowance_charges"] = json!([Place::allowance(k)]);
                body["lines"] = json!([line]);
            }
            DocAc(k) => body["allowance_charges"] = json!([Place::allowance(k)]),
            Property(k) => {
                line["item_properties"] = json!({ k: "@@hole@@" });
                body["lines"] = json!([line]);
            }
        }
        let text = body.to_string();
        let Some(raw) = raw else {
            let (Top(key) | Line(key) | LineAc(key) | DocAc(key) | Property(key)) = self;
            return text
                .replace(&format!("\"{key}\":{HOLE},"), "")
                .replace(&format!(",\"{key}\":{HOLE}"), "")
                .replace(&format!("\"{key}\":{HOLE}"), "")
                .into_bytes();
        };
        text.replace(HOLE, raw).into_bytes()
    }
}

/// A hostile value for a number field.
#[derive(Clone, Copy)]
pub(crate) enum Number {
    Object,
    PrivateNumberKey,
    Array,
    String,
    Boolean,
    Null,
    Huge,
    MinusZero,
    Digits400,
    Exponent,
}

/// The code of a number beyond what a decimal holds: the range rule of a field with a
/// maximum; `decimal_parsing` ("too large for a decimal number") for an allowance's
/// amount, which has none of its own (the computed amounts' bound answers 1e20).
fn beyond(place: Place) -> &'static str {
    match place {
        LineAc("amount") | DocAc("amount") => "decimal_parsing",
        _ => "less_than_equal",
    }
}

/// A number field holding a hostile value.
pub(crate) fn number(op: Op, place: Place, value: Number) -> Row {
    let twin = |raw: Option<&str>| Expect::Twin(place.body(op, raw));
    let (raw, expect) = match value {
        Number::Object => (
            "{}".to_owned(),
            Expect::Refused(place.loc(), "decimal_parsing"),
        ),
        // the error any other object gets there
        Number::PrivateNumberKey => (
            r#"{"$serde_json::private::Number": "1e3"}"#.to_owned(),
            twin(Some(r#"{"not_a_number": "1e3"}"#)),
        ),
        Number::Array => (
            "[1]".to_owned(),
            Expect::Refused(place.loc(), "decimal_parsing"),
        ),
        Number::String => (r#""12.5""#.to_owned(), twin(Some("12.5"))),
        Number::Boolean => (
            "true".to_owned(),
            Expect::Refused(place.loc(), "decimal_parsing"),
        ),
        Number::Null if matches!((op, place), (Op::Patch, Top(_))) => (
            "null".to_owned(),
            Expect::Refused(place.loc(), "null_not_allowed"),
        ),
        Number::Null => ("null".to_owned(), twin(None)),
        Number::Huge => (
            "1e400".to_owned(),
            Expect::Refused(place.loc(), beyond(place)),
        ),
        Number::MinusZero => ("-0".to_owned(), twin(Some("0"))),
        Number::Digits400 => ("7".repeat(400), Expect::Refused(place.loc(), beyond(place))),
        Number::Exponent => ("1e1".to_owned(), twin(Some("10"))),
    };
    Row {
        op,
        body: place.body(op, Some(&raw)),
        expect,
    }
}

/// A hostile value for a free-text field.
#[derive(Clone, Copy)]
pub(crate) enum Text {
    /// A plain text (for a hostile key).
    Plain,
    Nul,
    Controls,
    LoneSurrogate,
    Fffe,
    RightToLeftOverride,
    TenThousand,
}

/// The length limit of a free-text field, in characters (docs/interface.md Limits).
fn limit(place: Place) -> Option<usize> {
    match place {
        Top("order_number") | DocAc("reason") => Some(255),
        Top("despatch_reference" | "buyer_reference") => Some(50),
        Top("legal_notice") => Some(10_000),
        DocAc("code") => Some(10),
        _ => None,
    }
}

/// A free-text field holding a hostile value.
pub(crate) fn text(op: Op, place: Place, value: Text) -> Row {
    let echoed = |s: &str| Expect::Echoed(place.pointer(), s.to_owned());
    let (raw, expect) = match value {
        Text::Plain => (r#""7""#.to_owned(), echoed("7")),
        Text::Nul => (r#""a\u0000b""#.to_owned(), echoed("a\0b")),
        Text::Controls => (
            "\"\\u0001\\u001f\u{7f}\\t\\n\\r\"".to_owned(),
            echoed("\u{1}\u{1f}\u{7f}\t\n\r"),
        ),
        Text::LoneSurrogate => (
            r#""a\ud800b""#.to_owned(),
            Expect::Refused(json!(["body"]), "json_invalid"),
        ),
        Text::Fffe => ("\"\u{FFFE}\"".to_owned(), echoed("\u{FFFE}")),
        Text::RightToLeftOverride => ("\"a\u{202E}b\"".to_owned(), echoed("a\u{202E}b")),
        Text::TenThousand => {
            let long = "é".repeat(10_000);
            let expect = match limit(place) {
                Some(max) if max < 10_000 => Expect::Refused(place.loc(), "string_too_long"),
                _ => echoed(&long),
            };
            (format!("\"{long}\""), expect)
        }
    };
    Row {
        op,
        body: place.body(op, Some(&raw)),
        expect,
    }
}

/// A body hostile as a whole.
#[derive(Clone, Copy)]
pub(crate) enum Body {
    RepeatedKey,
    ByteOrderMark,
    Deep,
    NotUtf8,
}

/// A body hostile as a whole, to `op`.
pub(crate) fn body(op: Op, kind: Body) -> Row {
    let not_json = Expect::Refused(json!(["body"]), "json_invalid");
    let plain = Top("order_number").body(op, Some(r#""PO-1""#));
    let (bytes, expect) = match kind {
        Body::RepeatedKey => {
            let text = String::from_utf8(plain).unwrap_or_default();
            let twice = text.replacen('{', r#"{"order_number": "first", "#, 1);
            let twice = twice.replace(r#""order_number":"PO-1""#, r#""order_number":"last""#);
            (
                twice.into_bytes(),
                Expect::Echoed("/order_number".into(), "last".into()),
            )
        }
        Body::ByteOrderMark => ([b"\xEF\xBB\xBF".as_slice(), &plain].concat(), not_json),
        Body::Deep => {
            let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
            (Top("order_number").body(op, Some(&deep)), not_json)
        }
        Body::NotUtf8 => {
            let text = String::from_utf8(plain).unwrap_or_default();
            let [before, after] = [0, 1].map(|i| text.split("PO-1").nth(i).unwrap_or_default());
            (
                [before.as_bytes(), b"PO-\xFF", after.as_bytes()].concat(),
                not_json,
            )
        }
    };
    Row {
        op,
        body: bytes,
        expect,
    }
}

/// One named test per row.
macro_rules! rows {
    ($($name:ident => $row:expr;)*) => {$(
        #[test]
        fn $name() {
            check(stringify!($name), &$row);
        }
    )*};
}

rows! {
    create_quantity_object => number(Op::Create, Line("quantity"), Number::Object);
    create_quantity_private_number_key => number(Op::Create, Line("quantity"), Number::PrivateNumberKey);
    create_quantity_array => number(Op::Create, Line("quantity"), Number::Array);
    create_quantity_string => number(Op::Create, Line("quantity"), Number::String);
    create_quantity_boolean => number(Op::Create, Line("quantity"), Number::Boolean);
    create_quantity_null => number(Op::Create, Line("quantity"), Number::Null);
    create_quantity_e400 => number(Op::Create, Line("quantity"), Number::Huge);
    create_quantity_minus_zero => number(Op::Create, Line("quantity"), Number::MinusZero);
    create_quantity_digits_400 => number(Op::Create, Line("quantity"), Number::Digits400);
    create_quantity_exponent => number(Op::Create, Line("quantity"), Number::Exponent);
    create_unit_price_object => number(Op::Create, Line("unit_price"), Number::Object);
    create_unit_price_private_number_key => number(Op::Create, Line("unit_price"), Number::PrivateNumberKey);
    create_unit_price_array => number(Op::Create, Line("unit_price"), Number::Array);
    create_unit_price_string => number(Op::Create, Line("unit_price"), Number::String);
    create_unit_price_boolean => number(Op::Create, Line("unit_price"), Number::Boolean);
    create_unit_price_null => number(Op::Create, Line("unit_price"), Number::Null);
    create_unit_price_e400 => number(Op::Create, Line("unit_price"), Number::Huge);
    create_unit_price_minus_zero => number(Op::Create, Line("unit_price"), Number::MinusZero);
    create_unit_price_digits_400 => number(Op::Create, Line("unit_price"), Number::Digits400);
    create_unit_price_exponent => number(Op::Create, Line("unit_price"), Number::Exponent);
    create_vat_rate_object => number(Op::Create, Line("vat_rate"), Number::Object);
    create_vat_rate_private_number_key => number(Op::Create, Line("vat_rate"), Number::PrivateNumberKey);
    create_vat_rate_array => number(Op::Create, Line("vat_rate"), Number::Array);
    create_vat_rate_string => number(Op::Create, Line("vat_rate"), Number::String);
    create_vat_rate_boolean => number(Op::Create, Line("vat_rate"), Number::Boolean);
    create_vat_rate_null => number(Op::Create, Line("vat_rate"), Number::Null);
    create_vat_rate_e400 => number(Op::Create, Line("vat_rate"), Number::Huge);
    create_vat_rate_minus_zero => number(Op::Create, Line("vat_rate"), Number::MinusZero);
    create_vat_rate_digits_400 => number(Op::Create, Line("vat_rate"), Number::Digits400);
    create_vat_rate_exponent => number(Op::Create, Line("vat_rate"), Number::Exponent);
    create_paid_amount_object => number(Op::Create, Top("paid_amount"), Number::Object);
    create_paid_amount_private_number_key => number(Op::Create, Top("paid_amount"), Number::PrivateNumberKey);
    create_paid_amount_array => number(Op::Create, Top("paid_amount"), Number::Array);
    create_paid_amount_string => number(Op::Create, Top("paid_amount"), Number::String);
    create_paid_amount_boolean => number(Op::Create, Top("paid_amount"), Number::Boolean);
    create_paid_amount_null => number(Op::Create, Top("paid_amount"), Number::Null);
    create_paid_amount_e400 => number(Op::Create, Top("paid_amount"), Number::Huge);
    create_paid_amount_minus_zero => number(Op::Create, Top("paid_amount"), Number::MinusZero);
    create_paid_amount_digits_400 => number(Op::Create, Top("paid_amount"), Number::Digits400);
    create_paid_amount_exponent => number(Op::Create, Top("paid_amount"), Number::Exponent);
    create_line_allowance_amount_object => number(Op::Create, LineAc("amount"), Number::Object);
    create_line_allowance_amount_private_number_key => number(Op::Create, LineAc("amount"), Number::PrivateNumberKey);
    create_line_allowance_amount_array => number(Op::Create, LineAc("amount"), Number::Array);
    create_line_allowance_amount_string => number(Op::Create, LineAc("amount"), Number::String);
    create_line_allowance_amount_boolean => number(Op::Create, LineAc("amount"), Number::Boolean);
    create_line_allowance_amount_null => number(Op::Create, LineAc("amount"), Number::Null);
    create_line_allowance_amount_e400 => number(Op::Create, LineAc("amount"), Number::Huge);
    create_line_allowance_amount_minus_zero => number(Op::Create, LineAc("amount"), Number::MinusZero);
    create_line_allowance_amount_digits_400 => number(Op::Create, LineAc("amount"), Number::Digits400);
    create_line_allowance_amount_exponent => number(Op::Create, LineAc("amount"), Number::Exponent);
    create_line_allowance_rate_object => number(Op::Create, LineAc("rate"), Number::Object);
    create_line_allowance_rate_private_number_key => number(Op::Create, LineAc("rate"), Number::PrivateNumberKey);
    create_line_allowance_rate_array => number(Op::Create, LineAc("rate"), Number::Array);
    create_line_allowance_rate_string => number(Op::Create, LineAc("rate"), Number::String);
    create_line_allowance_rate_boolean => number(Op::Create, LineAc("rate"), Number::Boolean);
    create_line_allowance_rate_null => number(Op::Create, LineAc("rate"), Number::Null);
    create_line_allowance_rate_e400 => number(Op::Create, LineAc("rate"), Number::Huge);
    create_line_allowance_rate_minus_zero => number(Op::Create, LineAc("rate"), Number::MinusZero);
    create_line_allowance_rate_digits_400 => number(Op::Create, LineAc("rate"), Number::Digits400);
    create_line_allowance_rate_exponent => number(Op::Create, LineAc("rate"), Number::Exponent);
    create_allowance_amount_object => number(Op::Create, DocAc("amount"), Number::Object);
    create_allowance_amount_private_number_key => number(Op::Create, DocAc("amount"), Number::PrivateNumberKey);
    create_allowance_amount_array => number(Op::Create, DocAc("amount"), Number::Array);
    create_allowance_amount_string => number(Op::Create, DocAc("amount"), Number::String);
    create_allowance_amount_boolean => number(Op::Create, DocAc("amount"), Number::Boolean);
    create_allowance_amount_null => number(Op::Create, DocAc("amount"), Number::Null);
    create_allowance_amount_e400 => number(Op::Create, DocAc("amount"), Number::Huge);
    create_allowance_amount_minus_zero => number(Op::Create, DocAc("amount"), Number::MinusZero);
    create_allowance_amount_digits_400 => number(Op::Create, DocAc("amount"), Number::Digits400);
    create_allowance_amount_exponent => number(Op::Create, DocAc("amount"), Number::Exponent);
    create_allowance_rate_object => number(Op::Create, DocAc("rate"), Number::Object);
    create_allowance_rate_private_number_key => number(Op::Create, DocAc("rate"), Number::PrivateNumberKey);
    create_allowance_rate_array => number(Op::Create, DocAc("rate"), Number::Array);
    create_allowance_rate_string => number(Op::Create, DocAc("rate"), Number::String);
    create_allowance_rate_boolean => number(Op::Create, DocAc("rate"), Number::Boolean);
    create_allowance_rate_null => number(Op::Create, DocAc("rate"), Number::Null);
    create_allowance_rate_e400 => number(Op::Create, DocAc("rate"), Number::Huge);
    create_allowance_rate_minus_zero => number(Op::Create, DocAc("rate"), Number::MinusZero);
    create_allowance_rate_digits_400 => number(Op::Create, DocAc("rate"), Number::Digits400);
    create_allowance_rate_exponent => number(Op::Create, DocAc("rate"), Number::Exponent);
    create_order_number_nul => text(Op::Create, Top("order_number"), Text::Nul);
    create_order_number_control_characters => text(Op::Create, Top("order_number"), Text::Controls);
    create_order_number_lone_surrogate => text(Op::Create, Top("order_number"), Text::LoneSurrogate);
    create_order_number_u_fffe => text(Op::Create, Top("order_number"), Text::Fffe);
    create_order_number_u_202e => text(Op::Create, Top("order_number"), Text::RightToLeftOverride);
    create_order_number_ten_thousand_characters => text(Op::Create, Top("order_number"), Text::TenThousand);
    create_despatch_reference_nul => text(Op::Create, Top("despatch_reference"), Text::Nul);
    create_despatch_reference_control_characters => text(Op::Create, Top("despatch_reference"), Text::Controls);
    create_despatch_reference_lone_surrogate => text(Op::Create, Top("despatch_reference"), Text::LoneSurrogate);
    create_despatch_reference_u_fffe => text(Op::Create, Top("despatch_reference"), Text::Fffe);
    create_despatch_reference_u_202e => text(Op::Create, Top("despatch_reference"), Text::RightToLeftOverride);
    create_despatch_reference_ten_thousand_characters => text(Op::Create, Top("despatch_reference"), Text::TenThousand);
    create_buyer_reference_nul => text(Op::Create, Top("buyer_reference"), Text::Nul);
    create_buyer_reference_control_characters => text(Op::Create, Top("buyer_reference"), Text::Controls);
    create_buyer_reference_lone_surrogate => text(Op::Create, Top("buyer_reference"), Text::LoneSurrogate);
    create_buyer_reference_u_fffe => text(Op::Create, Top("buyer_reference"), Text::Fffe);
    create_buyer_reference_u_202e => text(Op::Create, Top("buyer_reference"), Text::RightToLeftOverride);
    create_buyer_reference_ten_thousand_characters => text(Op::Create, Top("buyer_reference"), Text::TenThousand);
    create_legal_notice_nul => text(Op::Create, Top("legal_notice"), Text::Nul);
    create_legal_notice_control_characters => text(Op::Create, Top("legal_notice"), Text::Controls);
    create_legal_notice_lone_surrogate => text(Op::Create, Top("legal_notice"), Text::LoneSurrogate);
    create_legal_notice_u_fffe => text(Op::Create, Top("legal_notice"), Text::Fffe);
    create_legal_notice_u_202e => text(Op::Create, Top("legal_notice"), Text::RightToLeftOverride);
    create_legal_notice_ten_thousand_characters => text(Op::Create, Top("legal_notice"), Text::TenThousand);
    create_item_name_nul => text(Op::Create, Line("item_name"), Text::Nul);
    create_item_name_control_characters => text(Op::Create, Line("item_name"), Text::Controls);
    create_item_name_lone_surrogate => text(Op::Create, Line("item_name"), Text::LoneSurrogate);
    create_item_name_u_fffe => text(Op::Create, Line("item_name"), Text::Fffe);
    create_item_name_u_202e => text(Op::Create, Line("item_name"), Text::RightToLeftOverride);
    create_item_name_ten_thousand_characters => text(Op::Create, Line("item_name"), Text::TenThousand);
    create_item_description_nul => text(Op::Create, Line("item_description"), Text::Nul);
    create_item_description_control_characters => text(Op::Create, Line("item_description"), Text::Controls);
    create_item_description_lone_surrogate => text(Op::Create, Line("item_description"), Text::LoneSurrogate);
    create_item_description_u_fffe => text(Op::Create, Line("item_description"), Text::Fffe);
    create_item_description_u_202e => text(Op::Create, Line("item_description"), Text::RightToLeftOverride);
    create_item_description_ten_thousand_characters => text(Op::Create, Line("item_description"), Text::TenThousand);
    create_unit_code_nul => text(Op::Create, Line("unit_code"), Text::Nul);
    create_unit_code_control_characters => text(Op::Create, Line("unit_code"), Text::Controls);
    create_unit_code_lone_surrogate => text(Op::Create, Line("unit_code"), Text::LoneSurrogate);
    create_unit_code_u_fffe => text(Op::Create, Line("unit_code"), Text::Fffe);
    create_unit_code_u_202e => text(Op::Create, Line("unit_code"), Text::RightToLeftOverride);
    create_unit_code_ten_thousand_characters => text(Op::Create, Line("unit_code"), Text::TenThousand);
    create_section_name_nul => text(Op::Create, Line("section_name"), Text::Nul);
    create_section_name_control_characters => text(Op::Create, Line("section_name"), Text::Controls);
    create_section_name_lone_surrogate => text(Op::Create, Line("section_name"), Text::LoneSurrogate);
    create_section_name_u_fffe => text(Op::Create, Line("section_name"), Text::Fffe);
    create_section_name_u_202e => text(Op::Create, Line("section_name"), Text::RightToLeftOverride);
    create_section_name_ten_thousand_characters => text(Op::Create, Line("section_name"), Text::TenThousand);
    create_item_identification_nul => text(Op::Create, Line("item_identification"), Text::Nul);
    create_item_identification_control_characters => text(Op::Create, Line("item_identification"), Text::Controls);
    create_item_identification_lone_surrogate => text(Op::Create, Line("item_identification"), Text::LoneSurrogate);
    create_item_identification_u_fffe => text(Op::Create, Line("item_identification"), Text::Fffe);
    create_item_identification_u_202e => text(Op::Create, Line("item_identification"), Text::RightToLeftOverride);
    create_item_identification_ten_thousand_characters => text(Op::Create, Line("item_identification"), Text::TenThousand);
    create_product_code_nul => text(Op::Create, Line("product_code"), Text::Nul);
    create_product_code_control_characters => text(Op::Create, Line("product_code"), Text::Controls);
    create_product_code_lone_surrogate => text(Op::Create, Line("product_code"), Text::LoneSurrogate);
    create_product_code_u_fffe => text(Op::Create, Line("product_code"), Text::Fffe);
    create_product_code_u_202e => text(Op::Create, Line("product_code"), Text::RightToLeftOverride);
    create_product_code_ten_thousand_characters => text(Op::Create, Line("product_code"), Text::TenThousand);
    create_allowance_reason_nul => text(Op::Create, DocAc("reason"), Text::Nul);
    create_allowance_reason_control_characters => text(Op::Create, DocAc("reason"), Text::Controls);
    create_allowance_reason_lone_surrogate => text(Op::Create, DocAc("reason"), Text::LoneSurrogate);
    create_allowance_reason_u_fffe => text(Op::Create, DocAc("reason"), Text::Fffe);
    create_allowance_reason_u_202e => text(Op::Create, DocAc("reason"), Text::RightToLeftOverride);
    create_allowance_reason_ten_thousand_characters => text(Op::Create, DocAc("reason"), Text::TenThousand);
    create_allowance_code_nul => text(Op::Create, DocAc("code"), Text::Nul);
    create_allowance_code_control_characters => text(Op::Create, DocAc("code"), Text::Controls);
    create_allowance_code_lone_surrogate => text(Op::Create, DocAc("code"), Text::LoneSurrogate);
    create_allowance_code_u_fffe => text(Op::Create, DocAc("code"), Text::Fffe);
    create_allowance_code_u_202e => text(Op::Create, DocAc("code"), Text::RightToLeftOverride);
    create_allowance_code_ten_thousand_characters => text(Op::Create, DocAc("code"), Text::TenThousand);
    create_body_repeated_key_last_wins => body(Op::Create, Body::RepeatedKey);
    create_body_byte_order_mark => body(Op::Create, Body::ByteOrderMark);
    create_body_nesting_10000_deep => body(Op::Create, Body::Deep);
    create_body_not_utf8 => body(Op::Create, Body::NotUtf8);
    patch_quantity_object => number(Op::Patch, Line("quantity"), Number::Object);
    patch_quantity_private_number_key => number(Op::Patch, Line("quantity"), Number::PrivateNumberKey);
    patch_quantity_array => number(Op::Patch, Line("quantity"), Number::Array);
    patch_quantity_string => number(Op::Patch, Line("quantity"), Number::String);
    patch_quantity_boolean => number(Op::Patch, Line("quantity"), Number::Boolean);
    patch_quantity_null => number(Op::Patch, Line("quantity"), Number::Null);
    patch_quantity_e400 => number(Op::Patch, Line("quantity"), Number::Huge);
    patch_quantity_minus_zero => number(Op::Patch, Line("quantity"), Number::MinusZero);
    patch_quantity_digits_400 => number(Op::Patch, Line("quantity"), Number::Digits400);
    patch_quantity_exponent => number(Op::Patch, Line("quantity"), Number::Exponent);
    patch_unit_price_object => number(Op::Patch, Line("unit_price"), Number::Object);
    patch_unit_price_private_number_key => number(Op::Patch, Line("unit_price"), Number::PrivateNumberKey);
    patch_unit_price_array => number(Op::Patch, Line("unit_price"), Number::Array);
    patch_unit_price_string => number(Op::Patch, Line("unit_price"), Number::String);
    patch_unit_price_boolean => number(Op::Patch, Line("unit_price"), Number::Boolean);
    patch_unit_price_null => number(Op::Patch, Line("unit_price"), Number::Null);
    patch_unit_price_e400 => number(Op::Patch, Line("unit_price"), Number::Huge);
    patch_unit_price_minus_zero => number(Op::Patch, Line("unit_price"), Number::MinusZero);
    patch_unit_price_digits_400 => number(Op::Patch, Line("unit_price"), Number::Digits400);
    patch_unit_price_exponent => number(Op::Patch, Line("unit_price"), Number::Exponent);
    patch_vat_rate_object => number(Op::Patch, Line("vat_rate"), Number::Object);
    patch_vat_rate_private_number_key => number(Op::Patch, Line("vat_rate"), Number::PrivateNumberKey);
    patch_vat_rate_array => number(Op::Patch, Line("vat_rate"), Number::Array);
    patch_vat_rate_string => number(Op::Patch, Line("vat_rate"), Number::String);
    patch_vat_rate_boolean => number(Op::Patch, Line("vat_rate"), Number::Boolean);
    patch_vat_rate_null => number(Op::Patch, Line("vat_rate"), Number::Null);
    patch_vat_rate_e400 => number(Op::Patch, Line("vat_rate"), Number::Huge);
    patch_vat_rate_minus_zero => number(Op::Patch, Line("vat_rate"), Number::MinusZero);
    patch_vat_rate_digits_400 => number(Op::Patch, Line("vat_rate"), Number::Digits400);
    patch_vat_rate_exponent => number(Op::Patch, Line("vat_rate"), Number::Exponent);
    patch_paid_amount_object => number(Op::Patch, Top("paid_amount"), Number::Object);
    patch_paid_amount_private_number_key => number(Op::Patch, Top("paid_amount"), Number::PrivateNumberKey);
    patch_paid_amount_array => number(Op::Patch, Top("paid_amount"), Number::Array);
    patch_paid_amount_string => number(Op::Patch, Top("paid_amount"), Number::String);
    patch_paid_amount_boolean => number(Op::Patch, Top("paid_amount"), Number::Boolean);
    patch_paid_amount_null => number(Op::Patch, Top("paid_amount"), Number::Null);
    patch_paid_amount_e400 => number(Op::Patch, Top("paid_amount"), Number::Huge);
    patch_paid_amount_minus_zero => number(Op::Patch, Top("paid_amount"), Number::MinusZero);
    patch_paid_amount_digits_400 => number(Op::Patch, Top("paid_amount"), Number::Digits400);
    patch_paid_amount_exponent => number(Op::Patch, Top("paid_amount"), Number::Exponent);
    patch_line_allowance_amount_object => number(Op::Patch, LineAc("amount"), Number::Object);
    patch_line_allowance_amount_private_number_key => number(Op::Patch, LineAc("amount"), Number::PrivateNumberKey);
    patch_line_allowance_amount_array => number(Op::Patch, LineAc("amount"), Number::Array);
    patch_line_allowance_amount_string => number(Op::Patch, LineAc("amount"), Number::String);
    patch_line_allowance_amount_boolean => number(Op::Patch, LineAc("amount"), Number::Boolean);
    patch_line_allowance_amount_null => number(Op::Patch, LineAc("amount"), Number::Null);
    patch_line_allowance_amount_e400 => number(Op::Patch, LineAc("amount"), Number::Huge);
    patch_line_allowance_amount_minus_zero => number(Op::Patch, LineAc("amount"), Number::MinusZero);
    patch_line_allowance_amount_digits_400 => number(Op::Patch, LineAc("amount"), Number::Digits400);
    patch_line_allowance_amount_exponent => number(Op::Patch, LineAc("amount"), Number::Exponent);
    patch_line_allowance_rate_object => number(Op::Patch, LineAc("rate"), Number::Object);
    patch_line_allowance_rate_private_number_key => number(Op::Patch, LineAc("rate"), Number::PrivateNumberKey);
    patch_line_allowance_rate_array => number(Op::Patch, LineAc("rate"), Number::Array);
    patch_line_allowance_rate_string => number(Op::Patch, LineAc("rate"), Number::String);
    patch_line_allowance_rate_boolean => number(Op::Patch, LineAc("rate"), Number::Boolean);
    patch_line_allowance_rate_null => number(Op::Patch, LineAc("rate"), Number::Null);
    patch_line_allowance_rate_e400 => number(Op::Patch, LineAc("rate"), Number::Huge);
    patch_line_allowance_rate_minus_zero => number(Op::Patch, LineAc("rate"), Number::MinusZero);
    patch_line_allowance_rate_digits_400 => number(Op::Patch, LineAc("rate"), Number::Digits400);
    patch_line_allowance_rate_exponent => number(Op::Patch, LineAc("rate"), Number::Exponent);
    patch_allowance_amount_object => number(Op::Patch, DocAc("amount"), Number::Object);
    patch_allowance_amount_private_number_key => number(Op::Patch, DocAc("amount"), Number::PrivateNumberKey);
    patch_allowance_amount_array => number(Op::Patch, DocAc("amount"), Number::Array);
    patch_allowance_amount_string => number(Op::Patch, DocAc("amount"), Number::String);
    patch_allowance_amount_boolean => number(Op::Patch, DocAc("amount"), Number::Boolean);
    patch_allowance_amount_null => number(Op::Patch, DocAc("amount"), Number::Null);
    patch_allowance_amount_e400 => number(Op::Patch, DocAc("amount"), Number::Huge);
    patch_allowance_amount_minus_zero => number(Op::Patch, DocAc("amount"), Number::MinusZero);
    patch_allowance_amount_digits_400 => number(Op::Patch, DocAc("amount"), Number::Digits400);
    patch_allowance_amount_exponent => number(Op::Patch, DocAc("amount"), Number::Exponent);
    patch_allowance_rate_object => number(Op::Patch, DocAc("rate"), Number::Object);
    patch_allowance_rate_private_number_key => number(Op::Patch, DocAc("rate"), Number::PrivateNumberKey);
    patch_allowance_rate_array => number(Op::Patch, DocAc("rate"), Number::Array);
    patch_allowance_rate_string => number(Op::Patch, DocAc("rate"), Number::String);
    patch_allowance_rate_boolean => number(Op::Patch, DocAc("rate"), Number::Boolean);
    patch_allowance_rate_null => number(Op::Patch, DocAc("rate"), Number::Null);
    patch_allowance_rate_e400 => number(Op::Patch, DocAc("rate"), Number::Huge);
    patch_allowance_rate_minus_zero => number(Op::Patch, DocAc("rate"), Number::MinusZero);
    patch_allowance_rate_digits_400 => number(Op::Patch, DocAc("rate"), Number::Digits400);
    patch_allowance_rate_exponent => number(Op::Patch, DocAc("rate"), Number::Exponent);
    patch_order_number_nul => text(Op::Patch, Top("order_number"), Text::Nul);
    patch_order_number_control_characters => text(Op::Patch, Top("order_number"), Text::Controls);
    patch_order_number_lone_surrogate => text(Op::Patch, Top("order_number"), Text::LoneSurrogate);
    patch_order_number_u_fffe => text(Op::Patch, Top("order_number"), Text::Fffe);
    patch_order_number_u_202e => text(Op::Patch, Top("order_number"), Text::RightToLeftOverride);
    patch_order_number_ten_thousand_characters => text(Op::Patch, Top("order_number"), Text::TenThousand);
    patch_despatch_reference_nul => text(Op::Patch, Top("despatch_reference"), Text::Nul);
    patch_despatch_reference_control_characters => text(Op::Patch, Top("despatch_reference"), Text::Controls);
    patch_despatch_reference_lone_surrogate => text(Op::Patch, Top("despatch_reference"), Text::LoneSurrogate);
    patch_despatch_reference_u_fffe => text(Op::Patch, Top("despatch_reference"), Text::Fffe);
    patch_despatch_reference_u_202e => text(Op::Patch, Top("despatch_reference"), Text::RightToLeftOverride);
    patch_despatch_reference_ten_thousand_characters => text(Op::Patch, Top("despatch_reference"), Text::TenThousand);
    patch_buyer_reference_nul => text(Op::Patch, Top("buyer_reference"), Text::Nul);
    patch_buyer_reference_control_characters => text(Op::Patch, Top("buyer_reference"), Text::Controls);
    patch_buyer_reference_lone_surrogate => text(Op::Patch, Top("buyer_reference"), Text::LoneSurrogate);
    patch_buyer_reference_u_fffe => text(Op::Patch, Top("buyer_reference"), Text::Fffe);
    patch_buyer_reference_u_202e => text(Op::Patch, Top("buyer_reference"), Text::RightToLeftOverride);
    patch_buyer_reference_ten_thousand_characters => text(Op::Patch, Top("buyer_reference"), Text::TenThousand);
    patch_legal_notice_nul => text(Op::Patch, Top("legal_notice"), Text::Nul);
    patch_legal_notice_control_characters => text(Op::Patch, Top("legal_notice"), Text::Controls);
    patch_legal_notice_lone_surrogate => text(Op::Patch, Top("legal_notice"), Text::LoneSurrogate);
    patch_legal_notice_u_fffe => text(Op::Patch, Top("legal_notice"), Text::Fffe);
    patch_legal_notice_u_202e => text(Op::Patch, Top("legal_notice"), Text::RightToLeftOverride);
    patch_legal_notice_ten_thousand_characters => text(Op::Patch, Top("legal_notice"), Text::TenThousand);
    patch_item_name_nul => text(Op::Patch, Line("item_name"), Text::Nul);
    patch_item_name_control_characters => text(Op::Patch, Line("item_name"), Text::Controls);
    patch_item_name_lone_surrogate => text(Op::Patch, Line("item_name"), Text::LoneSurrogate);
    patch_item_name_u_fffe => text(Op::Patch, Line("item_name"), Text::Fffe);
    patch_item_name_u_202e => text(Op::Patch, Line("item_name"), Text::RightToLeftOverride);
    patch_item_name_ten_thousand_characters => text(Op::Patch, Line("item_name"), Text::TenThousand);
    patch_item_description_nul => text(Op::Patch, Line("item_description"), Text::Nul);
    patch_item_description_control_characters => text(Op::Patch, Line("item_description"), Text::Controls);
    patch_item_description_lone_surrogate => text(Op::Patch, Line("item_description"), Text::LoneSurrogate);
    patch_item_description_u_fffe => text(Op::Patch, Line("item_description"), Text::Fffe);
    patch_item_description_u_202e => text(Op::Patch, Line("item_description"), Text::RightToLeftOverride);
    patch_item_description_ten_thousand_characters => text(Op::Patch, Line("item_description"), Text::TenThousand);
    patch_unit_code_nul => text(Op::Patch, Line("unit_code"), Text::Nul);
    patch_unit_code_control_characters => text(Op::Patch, Line("unit_code"), Text::Controls);
    patch_unit_code_lone_surrogate => text(Op::Patch, Line("unit_code"), Text::LoneSurrogate);
    patch_unit_code_u_fffe => text(Op::Patch, Line("unit_code"), Text::Fffe);
    patch_unit_code_u_202e => text(Op::Patch, Line("unit_code"), Text::RightToLeftOverride);
    patch_unit_code_ten_thousand_characters => text(Op::Patch, Line("unit_code"), Text::TenThousand);
    patch_section_name_nul => text(Op::Patch, Line("section_name"), Text::Nul);
    patch_section_name_control_characters => text(Op::Patch, Line("section_name"), Text::Controls);
    patch_section_name_lone_surrogate => text(Op::Patch, Line("section_name"), Text::LoneSurrogate);
    patch_section_name_u_fffe => text(Op::Patch, Line("section_name"), Text::Fffe);
    patch_section_name_u_202e => text(Op::Patch, Line("section_name"), Text::RightToLeftOverride);
    patch_section_name_ten_thousand_characters => text(Op::Patch, Line("section_name"), Text::TenThousand);
    patch_item_identification_nul => text(Op::Patch, Line("item_identification"), Text::Nul);
    patch_item_identification_control_characters => text(Op::Patch, Line("item_identification"), Text::Controls);
    patch_item_identification_lone_surrogate => text(Op::Patch, Line("item_identification"), Text::LoneSurrogate);
    patch_item_identification_u_fffe => text(Op::Patch, Line("item_identification"), Text::Fffe);
    patch_item_identification_u_202e => text(Op::Patch, Line("item_identification"), Text::RightToLeftOverride);
    patch_item_identification_ten_thousand_characters => text(Op::Patch, Line("item_identification"), Text::TenThousand);
    patch_product_code_nul => text(Op::Patch, Line("product_code"), Text::Nul);
    patch_product_code_control_characters => text(Op::Patch, Line("product_code"), Text::Controls);
    patch_product_code_lone_surrogate => text(Op::Patch, Line("product_code"), Text::LoneSurrogate);
    patch_product_code_u_fffe => text(Op::Patch, Line("product_code"), Text::Fffe);
    patch_product_code_u_202e => text(Op::Patch, Line("product_code"), Text::RightToLeftOverride);
    patch_product_code_ten_thousand_characters => text(Op::Patch, Line("product_code"), Text::TenThousand);
    patch_allowance_reason_nul => text(Op::Patch, DocAc("reason"), Text::Nul);
    patch_allowance_reason_control_characters => text(Op::Patch, DocAc("reason"), Text::Controls);
    patch_allowance_reason_lone_surrogate => text(Op::Patch, DocAc("reason"), Text::LoneSurrogate);
    patch_allowance_reason_u_fffe => text(Op::Patch, DocAc("reason"), Text::Fffe);
    patch_allowance_reason_u_202e => text(Op::Patch, DocAc("reason"), Text::RightToLeftOverride);
    patch_allowance_reason_ten_thousand_characters => text(Op::Patch, DocAc("reason"), Text::TenThousand);
    patch_allowance_code_nul => text(Op::Patch, DocAc("code"), Text::Nul);
    patch_allowance_code_control_characters => text(Op::Patch, DocAc("code"), Text::Controls);
    patch_allowance_code_lone_surrogate => text(Op::Patch, DocAc("code"), Text::LoneSurrogate);
    patch_allowance_code_u_fffe => text(Op::Patch, DocAc("code"), Text::Fffe);
    patch_allowance_code_u_202e => text(Op::Patch, DocAc("code"), Text::RightToLeftOverride);
    patch_allowance_code_ten_thousand_characters => text(Op::Patch, DocAc("code"), Text::TenThousand);
    patch_body_repeated_key_last_wins => body(Op::Patch, Body::RepeatedKey);
    patch_body_byte_order_mark => body(Op::Patch, Body::ByteOrderMark);
    patch_body_nesting_10000_deep => body(Op::Patch, Body::Deep);
    patch_body_not_utf8 => body(Op::Patch, Body::NotUtf8);
    create_item_property_nul => text(Op::Create, Property("Colour"), Text::Nul);
    create_item_property_control_characters => text(Op::Create, Property("Colour"), Text::Controls);
    create_item_property_lone_surrogate => text(Op::Create, Property("Colour"), Text::LoneSurrogate);
    create_item_property_u_fffe => text(Op::Create, Property("Colour"), Text::Fffe);
    create_item_property_u_202e => text(Op::Create, Property("Colour"), Text::RightToLeftOverride);
    create_item_property_ten_thousand_characters => text(Op::Create, Property("Colour"), Text::TenThousand);
    create_item_property_named_by_the_private_number_key => text(Op::Create, Property("$serde_json::private::Number"), Text::Plain);
    patch_item_property_nul => text(Op::Patch, Property("Colour"), Text::Nul);
    patch_item_property_control_characters => text(Op::Patch, Property("Colour"), Text::Controls);
    patch_item_property_lone_surrogate => text(Op::Patch, Property("Colour"), Text::LoneSurrogate);
    patch_item_property_u_fffe => text(Op::Patch, Property("Colour"), Text::Fffe);
    patch_item_property_u_202e => text(Op::Patch, Property("Colour"), Text::RightToLeftOverride);
    patch_item_property_ten_thousand_characters => text(Op::Patch, Property("Colour"), Text::TenThousand);
    patch_item_property_named_by_the_private_number_key => text(Op::Patch, Property("$serde_json::private::Number"), Text::Plain);
}
