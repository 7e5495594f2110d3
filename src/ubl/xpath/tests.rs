use super::eval::{Env, Item};
use super::parse::parse;
use crate::ubl::dom::Dom;

fn ns(prefix: &str) -> Option<&'static str> {
    match prefix {
        "cbc" => Some("urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"),
        "cac" => Some("urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"),
        "ubl" => Some("urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"),
        _ => None,
    }
}

fn eval(xml: &str, expr: &str) -> String {
    let dom = Dom::read(xml.as_bytes()).unwrap();
    let e = parse(expr).unwrap();
    let mut env = Env {
        dom: &dom,
        ns,
        vars: Vec::new(),
        current: Item::Node(0),
        fuel: 1_000_000,
    };
    format!("{:?}", env.eval_at(&e, Item::Node(0)))
}

const DOC: &str = r#"<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"><cbc:ID> 12 </cbc:ID><cac:Line><cbc:Amount currencyID="EUR">10.50</cbc:Amount></cac:Line><cac:Line><cbc:Amount currencyID="USD">2</cbc:Amount></cac:Line></Invoice>"#;

#[test]
fn paths_functions_and_comparisons_follow_xpath_2() {
    assert_eq!(
        eval(DOC, "normalize-space(cbc:ID) != ''"),
        "Ok([Bool(true)])"
    );
    assert_eq!(eval(DOC, "count(cac:Line)"), "Ok([Num(Some(2))])");
    assert_eq!(
        eval(DOC, "sum(cac:Line/cbc:Amount)"),
        "Ok([Num(Some(12.50))])"
    );
    assert_eq!(eval(DOC, "cac:Line/cbc:Amount = 2"), "Ok([Bool(true)])");
    assert_eq!(
        eval(DOC, "count(//cbc:Amount[@currencyID='EUR'])"),
        "Ok([Num(Some(1))])"
    );
    assert_eq!(
        eval(
            DOC,
            "every $a in cac:Line/cbc:Amount satisfies xs:decimal($a) > 1"
        ),
        "Ok([Bool(true)])"
    );
    assert_eq!(eval(DOC, "exists(/ubl:Invoice/cbc:ID)"), "Ok([Bool(true)])");
    assert_eq!(
        eval(
            DOC,
            "string-length(substring-after(cac:Line[1]/cbc:Amount,'.'))"
        ),
        "Ok([Num(Some(2))])"
    );
    assert_eq!(
        eval(DOC, "if (cbc:ID) then 'y' else 'n'"),
        "Ok([Str(\"y\")])"
    );
    assert_eq!(
        eval(DOC, "(cac:Line/cbc:Amount)[2]/@currencyID = 'USD'"),
        "Ok([Bool(true)])"
    );
    assert_eq!(
        eval(
            DOC,
            "cac:Line[2]/preceding-sibling::cac:Line/cbc:Amount = '10.50'"
        ),
        "Ok([Bool(true)])"
    );
    assert_eq!(eval(DOC, "round(2.5) + round(-2.5)"), "Ok([Num(Some(1))])");
    assert!(eval(DOC, "xs:decimal('x')").starts_with("Err"));
}

#[test]
fn every_assert_context_and_variable_of_the_artefacts_parses() {
    use crate::en16931::artefacts::{ASSERTS, VARIABLES};
    let mut bad = Vec::new();
    for a in ASSERTS {
        for text in [a.test, a.context] {
            if let Err(e) = parse(text) {
                bad.push(format!("{}: {e}: {text}", a.id));
            }
        }
    }
    for v in VARIABLES {
        if let Err(e) = parse(v.value) {
            bad.push(format!("${}: {e}: {}", v.name, v.value));
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}
