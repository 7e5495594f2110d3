//! Writer → reader (docs/peppol.md §2, §4): the UBL the crate writes for an issued document
//! reads back, as a received document, to the same type, number, dates, currency,
//! references, amounts, lines and VAT codes, with empty `checks`.

#[path = "../../examples/support/round_trip.rs"]
mod round_trip;

use proptest::prelude::*;
use round_trip::check_round_trip;
use serde_json::{json, Value};

/// The scenario: complete Belgian parties, every journal, self-billing on.
fn scenario(body: &Value) -> Value {
    let party = |name: &str, kbo: &str| {
        json!({"name": name, "vat_number": format!("BE{kbo}"), "enterprise_number": kbo,
               "peppol_id": format!("0208:{kbo}"), "iban": "BE68539007547034",
               "address": {"street": "Meir", "street_number": "24", "postal_code": "2000",
                           "city": "Antwerpen", "country_code": "BE"}})
    };
    let mut company = party("Atelier Lumen BV", "0123456749");
    company["self_billing"] = true.into();
    let mut relation = party("Brouwerij De Kaai NV", "0403033416");
    relation["id"] = "rel".into();
    relation["kind"] = "company".into();
    relation["peppol"] = true.into();
    let journals: Vec<Value> = [
        "sales_invoice",
        "sales_credit",
        "purchases_invoice",
        "purchases_credit",
    ]
    .iter()
    .map(|c| json!({"id": c, "category": c, "numbering": "yearly", "prefix": "N", "default": true}))
    .collect();
    json!({
        "today": "2026-11-21", "company": company, "relations": [relation], "journals": journals,
        "clients": [{"client_id": "a", "client_secret": "s", "permissions": ["c", "u"]}],
        "delivery_locations": [{"id": "loc", "relation_id": "rel", "identifier": "5410000000019",
            "identifier_scheme": "0088", "address": {"city": "Gent", "country_code": "BE"}}],
        "requests": [
            {"client": "a", "method": "POST", "path": "/documents", "body": body},
            {"method": "TICK"},
            {"client": "a", "method": "GET", "path": "/documents/doc-1"},
            {"client": "a", "method": "GET", "path": "/documents/doc-1/ubl"}
        ]
    })
}

/// The issued document and its UBL, or `None` when the create was refused.
fn issue(body: &Value) -> Option<(Value, String, Value)> {
    let out = invoicing_core::simulator::run(scenario(body).to_string().as_bytes());
    let r = &out["responses"];
    if r[0]["status"] != 201 {
        return None;
    }
    Some((
        r[2]["body"].clone(),
        r[3]["body"]["xml"].as_str()?.to_owned(),
        r[3]["body"]["findings"].clone(),
    ))
}

fn line() -> impl Strategy<Value = Value> {
    (
        1u32..500,
        0u32..3,
        1u64..2_000_000,
        0usize..11,
        prop::option::of((any::<bool>(), 1u32..50, any::<bool>())),
    )
        .prop_map(|(q, q_scale, price_cents, code, ac)| {
            let (vat_code, rate): (&str, Option<&str>) = [
                ("standard", Some("21")),
                ("standard", Some("6")),
                ("standard", Some("12")),
                ("zero_rated", None),
                ("exempted", None),
                ("standard", Some("5.5")),
                ("standard", Some("21")),
                ("intra_community", None),
                ("reverse_charge", None),
                ("export", None),
                ("not_subject", None),
            ][code];
            let mut l = json!({"item_name": "Item", "quantity": format!("{}", rust_decimal::Decimal::new(i64::from(q), q_scale)),
                               "unit_price": format!("{}", rust_decimal::Decimal::new(i64::try_from(price_cents).unwrap_or(1), 2)),
                               "vat_code": vat_code});
            if let Some(r) = rate {
                l["vat_rate"] = r.into();
            }
            if let Some((charge, n, as_rate)) = ac {
                let kind = if charge { "charge" } else { "allowance" };
                l["allowance_charges"] = if as_rate {
                    json!([{"type": kind, "rate": n, "reason": "R"}])
                } else {
                    json!([{"type": kind, "amount": format!("0.{n:02}"), "reason": "R"}])
                };
            }
            l
        })
}

fn body() -> impl Strategy<Value = Value> {
    (
        prop::collection::vec(line(), 1..6),
        0usize..4,
        0usize..3,
        prop::option::of((any::<bool>(), 1u32..20)),
        any::<bool>(),
        0u32..3,
    )
        .prop_map(|(lines, ty, cur, doc_ac, with_location, paid)| {
            let doc_type = ["sale_invoice", "sale_credit_note", "purchase_invoice", "purchase_credit_note"][ty];
            let currency = ["EUR", "USD", "KWD"][cur];
            let mut b = json!({"type": doc_type, "relation_id": "rel", "currency": currency,
                               "buyer_reference": "PO-1", "order_number": "O-9", "lines": lines,
                               "delivery_date": "2026-11-20", "period_start": "2026-11-01",
                               "period_end": "2026-11-30", "tax_point_date": "2026-11-19"});
            if let Some((charge, n)) = doc_ac {
                b["allowance_charges"] = json!([{"type": if charge { "charge" } else { "allowance" }, "rate": n, "reason": "Doc"}]);
            }
            if with_location {
                b["delivery_location_id"] = "loc".into();
            }
            if paid > 0 {
                b["paid_amount"] = format!("{paid}.00").into();
            }
            b
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// docs/peppol.md §2 and §4: what the writer writes reads back as it was issued.
    #[test]
    fn written_ubl_reads_back_as_issued(body in body()) {
        // Every body of the strategy is accepted: a refused create would fail here.
        let issued = issue(&body);
        prop_assert!(issued.is_some(), "refused {}", body);
        if let Some((issued, xml, findings)) = issued {
            let checked = check_round_trip(&issued, &xml, &findings);
            prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
        }
    }
}

/// The bundled Peppol scenario's documents read back as issued.
#[test]
fn bundled_peppol_documents_read_back_as_issued() {
    let out =
        invoicing_core::simulator::run(include_bytes!("../../examples/scenarios/peppol.json"));
    let r = out["responses"].as_array().expect("responses");
    for (doc, ubl) in [(0, 5), (1, 6), (2, 7), (3, 8)] {
        let xml = r[ubl]["body"]["xml"].as_str().expect("xml");
        if let Err(e) = check_round_trip(&r[doc]["body"], xml, &r[ubl]["body"]["findings"]) {
            panic!("document {doc}: {e}");
        }
    }
}
