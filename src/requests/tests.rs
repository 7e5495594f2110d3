use super::*;
use crate::simulator::Simulator;
use serde_json::json;

#[test]
fn create_request_json_is_the_interface_body_and_creates_as_json_does() {
    let sim = Simulator::from_json(&crate::strategies::scenario()).unwrap();
    let mut line = LineRequest::new("3".parse().unwrap(), "19.999".parse().unwrap());
    line.vat_code = Some(VatCode::IntraCommunity);
    line.allowance_charges.push(AllowanceChargeRequest {
        kind: AllowanceKind::Allowance,
        amount: None,
        rate: Some("5".parse().unwrap()),
        reason: Some("Promo".into()),
        code: None,
    });
    let mut req = CreateRequest::new(DocumentType::SaleInvoice, "rel-company");
    req.lines.push(line);
    req.issue_date = NaiveDate::from_ymd_opt(2026, 11, 2);
    req.paid_amount = Some("1.50".parse().unwrap());
    let bytes = req.to_bytes();
    let value: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(
        value,
        json!({"type": "sale_invoice", "relation_id": "rel-company",
                   "lines": [{"quantity": 3, "unit_price": crate::money::number_value("19.999"),
                              "vat_code": "intra_community",
                              "allowance_charges": [{"type": "allowance", "rate": 5, "reason": "Promo"}]}],
                   "issue_date": "2026-11-02", "paid_amount": crate::money::number_value("1.50")})
    );
    let back: CreateRequest = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(back, req);
    let a = crate::lifecycle::create_bytes(sim.world(), Permissions::ALL, None, &bytes, "doc-1")
        .unwrap();
    let b = lifecycle::create(sim.world(), Permissions::ALL, None, Some(&value), "doc-1").unwrap();
    assert_eq!(a, b);
}

#[test]
fn bytes_that_are_not_json_answer_json_invalid_as_the_simulator_does() {
    let sim = Simulator::from_json(&crate::strategies::scenario()).unwrap();
    let err =
        crate::lifecycle::create_bytes(sim.world(), Permissions::ALL, Some("maybe"), b"{", "d")
            .unwrap_err();
    let codes: Vec<&str> = err.errors.iter().map(|e| e.code.as_str()).collect();
    assert_eq!(codes, ["bool_parsing", "json_invalid"]);
    let err = crate::lifecycle::create_bytes(sim.world(), Permissions::default(), None, b"{", "d")
        .unwrap_err();
    assert_eq!(err.status, 403);
    let err =
        crate::lifecycle::create_bytes(sim.world(), Permissions::ALL, None, b"", "d").unwrap_err();
    assert_eq!(err.errors[0].code.as_str(), "missing");
}

#[test]
fn patch_request_leaves_out_absent_fields_and_writes_null() {
    let mut p = PatchRequest::paid("12.30".parse().unwrap());
    p.legal_notice = Patch::Null;
    assert_eq!(
        String::from_utf8(p.to_bytes()).unwrap(),
        r#"{"paid_amount":12.30,"legal_notice":null}"#
    );
    let back: PatchRequest = serde_json::from_slice(&p.to_bytes()).unwrap();
    assert_eq!(back, p);
}
