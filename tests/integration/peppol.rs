//! Peppol out (docs/peppol.md §2, §3): every finding rule the crate implements has a
//! document built to break it (`tests/peppol/defects.json`), and gives exactly its
//! findings, at the field to mend. CI checks the same documents against the official
//! validator (`.ci/run`), so these expectations are the validator's.

use serde_json::Value;
use std::sync::OnceLock;

/// The defects scenario's responses and its expectations.
fn run() -> &'static (Value, Value) {
    static RUN: OnceLock<(Value, Value)> = OnceLock::new();
    RUN.get_or_init(|| {
        let scenario = include_bytes!("../peppol/defects.json");
        let expect: Value =
            serde_json::from_str(include_str!("../peppol/defects.expect.json")).expect("json");
        (invoicing_core::simulator::run(scenario), expect)
    })
}

/// The findings (rule, loc) of the document built to break `rule`, and those expected.
fn case(rule: &str) -> Vec<(Value, Value)> {
    let (out, expect) = run();
    let cases = expect["cases"].as_array().expect("cases");
    let mut checked = Vec::new();
    for c in cases.iter().filter(|c| c["rule"] == rule) {
        let index = c["response"].as_u64().expect("index");
        let response = &out["responses"][usize::try_from(index).expect("index")];
        assert_eq!(response["status"], 200, "{rule}: {response}");
        let got: Vec<Value> = response["body"]["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .map(|f| Value::Array(vec![f["rule"].clone(), f["loc"].clone()]))
            .collect();
        assert!(
            got.iter().any(|f| f[0] == rule),
            "{rule} is not among the findings {got:?}"
        );
        for f in response["body"]["findings"].as_array().expect("findings") {
            assert!(f["msg"].as_str().is_some_and(|m| !m.is_empty()), "{f}");
        }
        checked.push((Value::Array(got), c["findings"].clone()));
    }
    assert!(!checked.is_empty(), "no case breaks {rule}");
    checked
}

macro_rules! defect {
    ($($name:ident => $rule:literal,)*) => {$(
        #[test]
        fn $name() {
            for (got, expected) in case($rule) {
                assert_eq!(got, expected, "{}", $rule);
            }
        }
    )*};
}

defect! {
    br_06_seller_name => "BR-06",
    br_07_buyer_name => "BR-07",
    br_08_seller_address => "BR-08",
    br_09_seller_country => "BR-09",
    br_10_buyer_address => "BR-10",
    br_11_buyer_country => "BR-11",
    br_25_item_name => "BR-25",
    br_54_item_property_value => "BR-54",
    br_57_delivery_country => "BR-57",
    br_61_payee_iban => "BR-61",
    br_cl_03_currency_list => "BR-CL-03",
    br_cl_14_country_list => "BR-CL-14",
    br_cl_23_unit_list => "BR-CL-23",
    br_cl_25_endpoint_scheme => "BR-CL-25",
    br_cl_26_location_scheme => "BR-CL-26",
    br_co_09_vat_prefix => "BR-CO-09",
    br_co_17_group_vat_below_half_percent => "BR-CO-17",
    br_co_26_seller_identifier => "BR-CO-26",
    br_s_02_standard_seller_vat => "BR-S-02",
    br_z_02_zero_rated_seller_vat => "BR-Z-02",
    br_e_02_exempt_seller_vat => "BR-E-02",
    br_ae_02_reverse_charge_vat_numbers => "BR-AE-02",
    br_ic_02_intra_community_vat_numbers => "BR-IC-02",
    br_ic_11_intra_community_delivery_date => "BR-IC-11",
    br_ic_12_intra_community_delivery_country => "BR-IC-12",
    br_g_02_export_seller_vat => "BR-G-02",
    br_o_02_not_subject_without_vat_numbers => "BR-O-02",
    br_o_11_not_subject_alone => "BR-O-11",
    br_o_13_not_subject_allowance => "BR-O-13",
    ubl_dt_01_three_decimal_currency => "UBL-DT-01",
    peppol_r003_buyer_reference => "PEPPOL-EN16931-R003",
    peppol_r008_empty_party => "PEPPOL-EN16931-R008",
    peppol_r010_buyer_endpoint => "PEPPOL-EN16931-R010",
    peppol_r020_seller_endpoint => "PEPPOL-EN16931-R020",
    peppol_r040_allowance_rate_zero_decimals => "PEPPOL-EN16931-R040",
    peppol_r120_line_net_zero_decimals => "PEPPOL-EN16931-R120",
    peppol_cl008_peppol_scheme_list => "PEPPOL-EN16931-CL008",
    peppol_common_r040_gln => "PEPPOL-COMMON-R040",
    peppol_common_r043_enterprise_number => "PEPPOL-COMMON-R043",
}

#[test]
fn every_defect_case_is_named_by_a_test() {
    let (_, expect) = run();
    let named = [
        "BR-06",
        "BR-07",
        "BR-08",
        "BR-09",
        "BR-10",
        "BR-11",
        "BR-25",
        "BR-54",
        "BR-57",
        "BR-61",
        "BR-CL-03",
        "BR-CL-14",
        "BR-CL-23",
        "BR-CL-25",
        "BR-CL-26",
        "BR-CO-09",
        "BR-CO-17",
        "BR-CO-26",
        "BR-S-02",
        "BR-Z-02",
        "BR-E-02",
        "BR-AE-02",
        "BR-IC-02",
        "BR-IC-11",
        "BR-IC-12",
        "BR-G-02",
        "BR-O-02",
        "BR-O-11",
        "BR-O-13",
        "UBL-DT-01",
        "PEPPOL-EN16931-R003",
        "PEPPOL-EN16931-R008",
        "PEPPOL-EN16931-R010",
        "PEPPOL-EN16931-R020",
        "PEPPOL-EN16931-R040",
        "PEPPOL-EN16931-R120",
        "PEPPOL-EN16931-CL008",
        "PEPPOL-COMMON-R040",
        "PEPPOL-COMMON-R043",
    ];
    for c in expect["cases"].as_array().expect("cases") {
        let rule = c["rule"].as_str().expect("rule");
        assert!(named.contains(&rule), "{rule} has no test of its own");
    }
}

/// The bundled peppol scenario: three documents without findings, one with, and
/// `enforce_peppol_rules` refusing its send with the findings in ctx.
#[test]
fn bundled_peppol_scenario_findings_and_enforce_peppol_rules() {
    let out =
        invoicing_core::simulator::run(include_bytes!("../../examples/scenarios/peppol.json"));
    let r = &out["responses"];
    for i in 5..8 {
        assert_eq!(r[i]["status"], 200);
        assert_eq!(
            r[i]["body"]["findings"],
            serde_json::json!([]),
            "response {i}"
        );
        let xml = r[i]["body"]["xml"].as_str().expect("xml");
        assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"));
    }
    let rules: Vec<&str> = r[8]["body"]["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter_map(|f| f["rule"].as_str())
        .collect();
    assert_eq!(
        rules,
        ["BR-10", "PEPPOL-COMMON-R043", "PEPPOL-EN16931-R003"]
    );
    assert_eq!(r[9]["status"], 422);
    let err = &r[9]["body"]["detail"][0];
    assert_eq!(err["type"], "send_failed");
    assert_eq!(err["loc"], serde_json::json!(["body", "peppol"]));
    assert_eq!(err["ctx"]["findings"], r[8]["body"]["findings"]);
    assert_eq!(r[10]["status"], 200);
    assert_eq!(r[10]["body"]["peppol_status"], "sending");
}

/// docs/peppol.md §5: 422 `xml_not_available` before the files exist and for a proforma,
/// 404 for an unknown id.
#[test]
fn ubl_path_xml_not_available_and_unknown_id() {
    let scenario = serde_json::json!({
        "today": "2026-11-21",
        "clients": [{"client_id": "app", "client_secret": "s", "permissions": ["c", "u"]}],
        "relations": [{"id": "rel-1", "kind": "company", "peppol": true}],
        "journals": [
            {"id": "j", "category": "sales_invoice", "numbering": "yearly", "prefix": "INV", "default": true},
            {"id": "p", "category": "proforma", "numbering": "never", "prefix": "PF", "default": true}
        ],
        "requests": [
            {"client": "app", "method": "POST", "path": "/documents", "body": {"type": "sale_invoice", "relation_id": "rel-1", "lines": [{"quantity": 1, "unit_price": 1, "vat_rate": 21}]}},
            {"client": "app", "method": "POST", "path": "/documents", "body": {"type": "proforma_invoice", "relation_id": "rel-1", "lines": [{"quantity": 1, "unit_price": 1, "vat_rate": 21}]}},
            {"client": "app", "method": "GET", "path": "/documents/doc-1/ubl"},
            {"method": "TICK"},
            {"client": "app", "method": "GET", "path": "/documents/doc-1/ubl"},
            {"client": "app", "method": "GET", "path": "/documents/doc-2/ubl"},
            {"client": "app", "method": "GET", "path": "/documents/doc-2"},
            {"client": "app", "method": "GET", "path": "/documents/nope/ubl"},
            {"method": "GET", "path": "/documents/doc-1/ubl"},
            {"client": "app", "method": "POST", "path": "/documents/doc-1/ubl"}
        ]
    });
    let out = invoicing_core::simulator::run(scenario.to_string().as_bytes());
    let r = &out["responses"];
    assert_eq!(r[2]["status"], 422);
    assert_eq!(r[2]["body"]["detail"][0]["type"], "xml_not_available");
    assert_eq!(
        r[2]["body"]["detail"][0]["loc"],
        serde_json::json!(["path", "id"])
    );
    assert_eq!(r[4]["status"], 200);
    assert!(r[4]["body"]["findings"]
        .as_array()
        .is_some_and(|f| !f.is_empty()));
    assert_eq!(r[5]["status"], 422, "a proforma has no UBL");
    assert_eq!(
        r[6]["body"]["xml_available"], false,
        "TICK leaves a proforma without XML"
    );
    assert_eq!(r[6]["body"]["pdf_available"], true);
    assert_eq!(r[7]["status"], 404);
    assert_eq!(r[8]["status"], 401);
    assert_eq!(r[9]["status"], 405);
}

/// The findings' rules of a sale invoice (or credit note) between a company and a
/// relation of the given countries, VAT numbers and extra party keys.
// The values are built at each call for this call alone: taking them by value reads best.
#[allow(clippy::needless_pass_by_value)]
fn national(doc_type: &str, seller: Value, buyer: Value, body_extra: Value) -> Vec<String> {
    numbered(None, doc_type, seller, buyer, body_extra)
}

/// [`national`], the invoices' journal numbering `never` with `prefix` when it is
/// given (the document number is the prefix and six digits).
#[allow(clippy::needless_pass_by_value)]
fn numbered(
    prefix: Option<&str>,
    doc_type: &str,
    seller: Value,
    buyer: Value,
    body_extra: Value,
) -> Vec<String> {
    let mut company = serde_json::json!({"name": "Seller", "peppol_id": "0208:0123456749",
        "iban": "BE68539007547034"});
    let mut relation = serde_json::json!({"id": "rel", "kind": "company", "peppol": true,
        "name": "Buyer", "peppol_id": "0208:0403033416"});
    for (target, extra) in [(&mut company, seller), (&mut relation, buyer)] {
        if let (Some(t), Some(e)) = (target.as_object_mut(), extra.as_object()) {
            t.extend(e.clone());
        }
    }
    let mut body = serde_json::json!({"type": doc_type, "relation_id": "rel",
        "lines": [{"item_name": "X", "quantity": 1, "unit_price": 100, "vat_rate": 21}]});
    if let (Some(b), Some(e)) = (body.as_object_mut(), body_extra.as_object()) {
        b.extend(e.clone());
    }
    let scenario = serde_json::json!({
        "today": "2026-11-21", "company": company, "relations": [relation],
        "clients": [{"client_id": "a", "client_secret": "s", "permissions": ["c", "u"]}],
        "journals": [
            match prefix {
                Some(p) => serde_json::json!({"id": "i", "category": "sales_invoice", "numbering": "never", "prefix": p, "default": true}),
                None => serde_json::json!({"id": "i", "category": "sales_invoice", "numbering": "yearly", "prefix": "I", "default": true}),
            },
            {"id": "c", "category": "sales_credit", "numbering": "yearly", "prefix": "C", "default": true}
        ],
        "requests": [
            {"client": "a", "method": "POST", "path": "/documents", "body": body},
            {"method": "TICK"},
            {"client": "a", "method": "GET", "path": "/documents/doc-1/ubl"}
        ]
    });
    let out = invoicing_core::simulator::run(scenario.to_string().as_bytes());
    dump(&out["responses"][2]["body"]);
    let mut rules: Vec<String> = out["responses"][2]["body"]["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter_map(|f| f["rule"].as_str().map(str::to_owned))
        .collect();
    rules.dedup();
    rules
}

/// With `PEPPOL_DUMP=DIR`, writes the XML and the findings of a UBL answer into DIR
/// (`N.xml`, `N.findings.json`), so that CI can check them against the official
/// validator (`tests/peppol/compare.py`).
fn dump(ubl: &Value) {
    static COUNT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let Some(dir) = std::env::var_os("PEPPOL_DUMP") else {
        return;
    };
    let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = std::path::Path::new(&dir);
    let _ = std::fs::create_dir_all(dir);
    let name = format!("national-{}-{n:03}", std::process::id());
    let _ = std::fs::write(
        dir.join(format!("{name}.xml")),
        ubl["xml"].as_str().unwrap_or(""),
    );
    let _ = std::fs::write(
        dir.join(format!("{name}.findings.json")),
        ubl["findings"].to_string(),
    );
}

fn addr(country: &str, full: bool) -> Value {
    if full {
        serde_json::json!({"street": "Main", "street_number": "1", "postal_code": "1000", "city": "City", "country_code": country})
    } else {
        serde_json::json!({"city": "City", "country_code": country})
    }
}

/// NL-R-001..005: a Dutch seller's credit note needs a billing reference (never
/// written), its address street, city and postal code, and a KVK/OIN legal number.
#[test]
fn nl_rules_dutch_seller() {
    let seller = serde_json::json!({"vat_number": "NL123456789B01", "enterprise_number": "0123456749", "address": addr("NL", false)});
    let buyer = serde_json::json!({"vat_number": "NL987654321B01", "enterprise_number": "0403033416", "address": addr("NL", false)});
    assert_eq!(
        national(
            "sale_credit_note",
            seller,
            buyer,
            serde_json::json!({"buyer_reference": "B"})
        ),
        ["NL-R-001", "NL-R-002", "NL-R-003", "NL-R-004", "NL-R-005"]
    );
}

/// DE-R-*: between two German parties, a seller contact (e-mail, but never a name or
/// telephone), city and postal code everywhere, a buyer reference.
#[test]
fn de_rules_german_seller_and_buyer() {
    let seller = serde_json::json!({"vat_number": "DE123456789", "address": addr("DE", false)});
    let buyer = serde_json::json!({"vat_number": "DE987654321", "address": {"street": "Hauptstraße", "country_code": "DE"}});
    assert_eq!(
        national("sale_invoice", seller, buyer, serde_json::json!({})),
        [
            "DE-R-002",
            "DE-R-004",
            "DE-R-008",
            "DE-R-009",
            "DE-R-015",
            "PEPPOL-EN16931-R003"
        ]
    );
    let seller = serde_json::json!({"vat_number": "DE123456789", "email": "a@b.example", "address": addr("DE", true)});
    let buyer = serde_json::json!({"vat_number": "DE987654321", "address": addr("DE", true)});
    assert_eq!(
        national(
            "sale_invoice",
            seller,
            buyer,
            serde_json::json!({"buyer_reference": "B"})
        ),
        ["DE-R-005", "DE-R-006"]
    );
}

/// DK-R-002/005/014/017 and IS-R-002..005: schemes the writer does not use (0184,
/// 0196) and Danish payment means without credit transfer.
#[test]
fn dk_and_is_rules() {
    let dk = |e: bool| {
        let mut p = serde_json::json!({"vat_number": "DK12345678", "address": addr("DK", true)});
        if e {
            p["enterprise_number"] = "0123456749".into();
        }
        p
    };
    assert_eq!(
        national(
            "sale_invoice",
            dk(false),
            dk(true),
            serde_json::json!({"buyer_reference": "B"})
        ),
        ["DK-R-002", "DK-R-005", "DK-R-017"]
    );
    assert_eq!(
        national(
            "sale_credit_note",
            dk(true),
            dk(false),
            serde_json::json!({"buyer_reference": "B"})
        ),
        ["DK-R-014"]
    );
    let is = serde_json::json!({"vat_number": "IS123456", "address": addr("IS", false)});
    assert_eq!(
        national(
            "sale_invoice",
            is.clone(),
            is,
            serde_json::json!({"buyer_reference": "B"})
        ),
        ["IS-R-002", "IS-R-003", "IS-R-004", "IS-R-005"]
    );
}

/// SE-R-*, NO-R-001, IT-R-*: the seller's numbers and address.
#[test]
fn se_no_it_rules() {
    let se = serde_json::json!({"vat_number": "SE55603607930", "enterprise_number": "5560360794", "address": addr("SE", true)});
    assert_eq!(
        national(
            "sale_invoice",
            se,
            serde_json::json!({"address": addr("BE", true)}),
            serde_json::json!({"buyer_reference": "B"})
        ),
        ["PEPPOL-COMMON-R043", "SE-R-001", "SE-R-006", "SE-R-013"]
    );
    let no = serde_json::json!({"vat_number": "NO974760674MVA", "address": addr("NO", true)});
    assert_eq!(
        national(
            "sale_invoice",
            no,
            serde_json::json!({"address": addr("BE", true)}),
            serde_json::json!({"buyer_reference": "B"})
        ),
        ["NO-R-001"]
    );
    let it = serde_json::json!({"vat_number": "IT12345678901", "address": {"country_code": "IT"}});
    assert_eq!(
        national(
            "sale_invoice",
            it,
            serde_json::json!({"address": addr("BE", true)}),
            serde_json::json!({"buyer_reference": "B"})
        ),
        ["IT-R-002", "IT-R-003", "IT-R-004"]
    );
}

/// GR-R-*: a seller Greek by its VAT prefix (`GR` or `EL`, the address aside) needs a
/// document number of six `|`-separated segments (its TIN, the issue date, a count, a
/// Greek document type and two more), a VAT number `EL` and a valid TIN, and a TIN as
/// electronic address (scheme 9933); with a Greek address, a MARK number the crate
/// never writes; to a Greek buyer, the buyer's VAT number and TIN address too.
#[test]
fn gr_rules_greek_seller() {
    let b = || serde_json::json!({"address": addr("BE", true)});
    let gr = serde_json::json!({"vat_number": "GR094019245", "address": addr("BE", true)});
    let reference = serde_json::json!({"buyer_reference": "B"});
    assert_eq!(
        national("sale_invoice", gr, b(), reference.clone()),
        [
            "GR-R-001-1",
            "GR-R-001-2",
            "GR-R-001-3",
            "GR-R-001-4",
            "GR-R-001-5",
            "GR-R-001-6",
            "GR-R-001-7",
            "GR-R-003",
            "GR-R-009"
        ]
    );
    // Every segment right: the TIN of the VAT number, the issue date (2026-11-21), a
    // count, the type 1.1, two more.
    let prefix = Some("094019245|21/11/2026|1|1.1|A|");
    let el = |country: &str| {
        serde_json::json!({"vat_number": "EL094019245", "peppol_id": "9933:094019245",
            "address": addr(country, true)})
    };
    assert_eq!(
        numbered(prefix, "sale_invoice", el("BE"), b(), reference.clone()),
        Vec::<String>::new()
    );
    // One segment wrong at a time.
    for (prefix, rule) in [
        ("094019246|21/11/2026|1|1.1|A|", "GR-R-001-2"),
        ("094019245|22/11/2026|1|1.1|A|", "GR-R-001-3"),
        ("094019245|21/11/2026|x|1.1|A|", "GR-R-001-4"),
        ("094019245|21/11/2026|1|1.2|A|", "GR-R-001-5"),
        ("094019245|21/11/2026|1|1.1||", "GR-R-001-6"),
        ("094019245|21/11/2026|1|1.1|A|B|", "GR-R-001-1"),
    ] {
        assert_eq!(
            numbered(
                Some(prefix),
                "sale_invoice",
                el("BE"),
                b(),
                reference.clone()
            ),
            [rule],
            "{prefix}"
        );
    }
    // A Greek address: the MARK number (never written).
    assert_eq!(
        numbered(prefix, "sale_invoice", el("GR"), b(), reference.clone()),
        ["GR-R-004-1"]
    );
    // To a Greek buyer without a VAT number or a TIN address.
    let greek_buyer = serde_json::json!({"address": addr("GR", true)});
    assert_eq!(
        numbered(prefix, "sale_invoice", el("BE"), greek_buyer, reference),
        ["GR-R-006", "GR-R-010"]
    );
}

/// docs/peppol.md §1: a party key of the wrong JSON type makes the scenario malformed; a
/// well-typed value that is wrong for Peppol is kept (it becomes a finding).
#[test]
fn party_keys_of_the_wrong_json_type_make_the_scenario_malformed() {
    let base = || {
        serde_json::json!({
            "today": "2026-11-21",
            "company": {"name": "A"},
            "relations": [{"id": "r", "kind": "company", "name": "B"}],
            "delivery_locations": [{"id": "l", "relation_id": "r"}],
            "requests": []
        })
    };
    let cases: [(&str, Value); 8] = [
        ("/company/name", serde_json::json!(5)),
        ("/company/address", serde_json::json!("Meir 24")),
        ("/company/enforce_peppol_rules", serde_json::json!("yes")),
        ("/company/iban", serde_json::json!(["BE68"])),
        ("/relations/0/vat_number", serde_json::json!(403_033_416)),
        (
            "/relations/0/address",
            serde_json::json!({"country_code": 32}),
        ),
        (
            "/delivery_locations/0/identifier",
            serde_json::json!(5_410_000_000_019_u64),
        ),
        ("/delivery_locations/0/address", serde_json::json!(true)),
    ];
    for (pointer, value) in cases {
        let mut sc = base();
        let (parent, key) = pointer.rsplit_once('/').expect("pointer");
        sc.pointer_mut(parent).expect("parent")[key] = value;
        let out = invoicing_core::simulator::run(sc.to_string().as_bytes());
        assert!(out["error"].is_string(), "{pointer}: {out}");
    }
    let mut sc = base();
    sc["company"]["vat_number"] = "0123456749".into();
    sc["relations"][0]["peppol_id"] = "9999:x".into();
    let out = invoicing_core::simulator::run(sc.to_string().as_bytes());
    assert!(
        out["responses"].is_array(),
        "wrong for Peppol is not malformed: {out}"
    );
}
