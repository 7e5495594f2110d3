use super::*;

/// The party rules' findings for `p` as the seller (`company`).
fn seller(p: &Party) -> Found {
    let mut f = Found::default();
    party(p, "company", true, &mut f);
    f
}

/// BR-CO-09 as the XSLT tests it: the first two characters found inside the list's
/// text, spaces included.
#[test]
fn br_co_09_prefix_is_looked_up_inside_the_list_text() {
    for vat in ["BE0123456749", "EL123", "E 1", "B", "XI1", " BE1"] {
        let f = seller(&Party {
            vat_number: Some(vat.to_owned()),
            ..Party::default()
        });
        assert!(!f.has("BR-CO-09"), "{vat}");
    }
    for vat in ["be0123456749", "XX1", "0123456749"] {
        let f = seller(&Party {
            vat_number: Some(vat.to_owned()),
            ..Party::default()
        });
        assert!(f.has("BR-CO-09"), "{vat}");
    }
}

/// PEPPOL-COMMON-R050 (found by fuzzing `ubl_writer`: a seller's `peppol_id`
/// `0151:0530504480` wrote an EndpointID the official validator refuses by R050, and
/// the writer's findings did not name it), at `peppol_id`; the other schemes' checks
/// the writer does not decide (R044 to R047, R054, R055, R057) are warnings.
#[test]
fn the_value_checks_of_every_identifier_scheme_are_findings() {
    let found = |peppol_id: &str| {
        seller(&Party {
            peppol_id: Some(peppol_id.to_owned()),
            ..Party::default()
        })
        .finish()
    };
    let at = Loc::root("company").key("peppol_id");
    for (id, rule) in [
        ("0151:0530504480", "PEPPOL-COMMON-R050"),
        ("0151:5300450448", "PEPPOL-COMMON-R050"),
        ("0151:518247535560", "PEPPOL-COMMON-R050"),
        ("0208:0123456700", "PEPPOL-COMMON-R043"),
    ] {
        let f = found(id);
        assert!(
            f.iter().any(|x| x.rule == rule && x.loc == at),
            "{id}: {rule}"
        );
    }
    for id in [
        "0151:51824753556",
        "0151: 51824753556 ",
        "0201:AB-123",
        "0211:IT12345678901",
        "0106:1234567",
        "0190:1234",
        "0208:0123456749",
    ] {
        let rules: Vec<String> = found(id).into_iter().map(|x| x.rule).collect();
        assert!(
            !rules.iter().any(|r| r.starts_with("PEPPOL-COMMON")),
            "{id}: {rules:?}"
        );
    }
}

/// `abn` against the rule engine (the artefact's `u:abn` evaluated as the official
/// validator does) on values of every shape: eleven digits with sums below zero and
/// above, other lengths, spaces, letters.
#[test]
fn the_abn_check_is_the_artefacts() {
    use crate::en16931::{NS_CBC, NS_INVOICE};
    let mut values: Vec<String> = (0u64..400)
        .map(|i| format!("{:011}", i.wrapping_mul(250_000_000_271) % 100_000_000_000))
        .collect();
    values.extend(
        [
            "51824753556",
            "01824753556",
            "00000000000",
            "0000000000",
            "518247535561",
            " 51824753556",
            "5182475355a",
            "",
        ]
        .map(String::from),
    );
    let mut fatal = 0;
    for v in &values {
        let xml = format!(
            r#"<Invoice xmlns="{NS_INVOICE}" xmlns:cbc="{NS_CBC}"><cbc:EndpointID schemeID="0151">{v}</cbc:EndpointID></Invoice>"#
        );
        let report = crate::ubl::validate(xml.as_bytes()).unwrap();
        let engine = report
            .findings
            .iter()
            .any(|x| x.rule == "PEPPOL-COMMON-R050");
        let v = normalize_space(v);
        let ours = !(v.len() == 11 && abn(&v));
        assert_eq!(ours, engine, "{v:?}");
        fatal += usize::from(engine);
    }
    assert!(
        fatal > 10 && fatal < values.len(),
        "{fatal} of {}",
        values.len()
    );
}
