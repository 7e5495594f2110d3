use super::*;
use crate::ubl::xpath::parse::Reads;

fn base_example() -> String {
    String::from_utf8(
        std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/peppol/base-example.xml"
        ))
        .unwrap(),
    )
    .unwrap()
}

/// The n-th (from 0) `currencyID="EUR"` of the text made `currencyID="ZZZ"`.
fn with_bad_currency(xml: &str, nth: &[usize]) -> String {
    let mut out = String::new();
    for (i, part) in xml.split("currencyID=\"EUR\"").enumerate() {
        if i > 0 {
            let code = if nth.contains(&(i - 1)) { "ZZZ" } else { "EUR" };
            out.push_str("currencyID=\"");
            out.push_str(code);
            out.push('"');
        }
        out.push_str(part);
    }
    out
}

#[test]
fn asserts_kept_by_name_and_attributes_answer_at_each_element_as_evaluated() {
    let good = base_example();
    let amounts = good.matches("currencyID=\"EUR\"").count();
    assert!(amounts >= 5, "the example has amounts");
    let clean = check(&Dom::read(good.as_bytes()).unwrap());
    for bad in [vec![1], vec![0, 3], vec![amounts - 1]] {
        let xml = with_bad_currency(&good, &bad);
        let dom = Dom::read(xml.as_bytes()).unwrap();
        let report = check(&dom);
        for rule in ["BR-CL-03", "PEPPOL-EN16931-CL007", "PEPPOL-EN16931-R051"] {
            let at: Vec<&str> = report
                .findings
                .iter()
                .filter(|f| f.rule == rule)
                .map(|f| f.location.as_str())
                .collect();
            assert_eq!(
                at.len(),
                bad.len(),
                "{rule} once per bad currency {bad:?}: {at:?}"
            );
            // each at an element whose currency is the bad one
            for location in at {
                let element = (0..dom.len())
                    .filter_map(|n| NodeId::try_from(n).ok())
                    .find(|&n| dom.location(n) == location)
                    .unwrap();
                assert_eq!(dom.attribute(element, "currencyID"), Some("ZZZ"), "{rule}");
            }
        }
        assert!(clean.findings.iter().all(|f| f.rule != "BR-CL-03"));
    }
}

#[test]
fn only_asserts_reading_the_name_and_attributes_are_kept_by_them() {
    let kept = |t: &str| focus_reads(&parse(t).unwrap()).is_some();
    for yes in [
        "@currencyID = $documentCurrencyCode",
        "some $code in $ISO4217 satisfies @currencyID = $code",
        "contains(' EUR USD ', concat(' ', normalize-space(@currencyID), ' '))",
        "ends-with(name(), 'Amount') or exists(/*/cbc:ID)",
    ] {
        assert!(kept(yes), "{yes}");
    }
    let reads = |t: &str| focus_reads(&parse(t).unwrap());
    assert_eq!(
        reads("ends-with(name(), 'Amount') and local-name() != $x"),
        Some(Reads::Name)
    );
    assert_eq!(reads("@currencyID = 'EUR'"), Some(Reads::Attributes));
    // a path from the root reads its own focus in its predicates, not the element's
    assert_eq!(
        reads("exists(//cac:Party[cbc:ID = 'SE']) and $country = 'SE'"),
        Some(Reads::Nothing)
    );
    for no in [
        ". = 'EUR'",
        "string-length(substring-after(., '.')) <= 2",
        "normalize-space() != ''",
        "cbc:ID",
        "../@currencyID",
        "text() = 'x'",
        "@a[. = 'x']",
        "u:gln(@schemeID)",
        "position() = 1",
        "current()/@a = 'x'",
        "//cac:InvoiceLine[cbc:ID = $x]",
    ] {
        assert!(!kept(no), "{no}");
    }
}

/// An element numbered `(1, name)` with one attribute, name 5, of value `code`.
fn seen_as(name: u64, code: &str) -> Seen<'_> {
    Seen {
        name: (1 << 32) | name,
        attrs: (5 << 32) | u64::from(u32::MAX),
        values: [code, ""],
    }
}

fn seen(code: &str) -> Seen<'_> {
    seen_as(2, code)
}

/// The outcomes kept by name and attributes are bounded per assert: past
/// `MEMO_PER_ASSERT` an element is evaluated each time (nothing is found), and each
/// assert keeps its own.
#[test]
fn kept_outcomes_are_bounded_per_assert_and_found_by_name_and_attributes() {
    let codes: Vec<String> = (0..MEMO_PER_ASSERT + 8)
        .map(|i| format!("Q{i:02}"))
        .collect();
    let mut memo = Memo::default();
    for (i, code) in codes.iter().enumerate() {
        memo.insert(7, seen(code), Ok(i % 2 == 0));
    }
    for (i, code) in codes.iter().enumerate() {
        let found = memo.get(7, &seen(code));
        if i < MEMO_PER_ASSERT {
            assert_eq!(found, Some(&Ok(i % 2 == 0)), "{code}");
        } else {
            assert_eq!(found, None, "{code} is past the bound");
        }
        assert_eq!(memo.get(8, &seen(code)), None, "another assert");
    }
    // another name, or another attribute's name, with the same value
    assert_eq!(memo.get(7, &seen_as(3, "Q00")), None);
    let other_attribute = Seen {
        attrs: (6 << 32) | u64::from(u32::MAX),
        ..seen("Q00")
    };
    assert_eq!(memo.get(7, &other_attribute), None);
    // a value that differs in its last byte, or is longer
    assert_eq!(memo.get(7, &seen("Q01")), Some(&Ok(false)));
    assert_eq!(memo.get(7, &seen("Q0")), None);
    assert_eq!(memo.get(7, &seen("Q000")), None);
}

#[test]
fn a_call_of_literals_is_folded_into_its_value_when_the_layer_is_compiled() {
    // PEPPOL-EN16931-P0100 splits a code list written in the artefact: no document
    // reads it, so no document splits it again
    let c = compiled(Layer::Peppol);
    let calls_of_literals = |e: &Expr| {
        any(e, &mut |x| {
            matches!(x, Expr::Call(name, args) if name == "tokenize" && !args.is_empty())
                && constant(x)
        })
    };
    let asserts: Vec<&Expr> = c
        .patterns
        .iter()
        .flat_map(|p| p.rules.iter())
        .flat_map(|r| r.asserts.iter())
        .filter_map(|a| a.test.as_ref().ok())
        .collect();
    assert!(!asserts.is_empty());
    assert!(!asserts.iter().any(|e| calls_of_literals(e)));
    // a value with literal forms, and one without (a double)
    let dom = Dom::read(b"<a/>").unwrap();
    let mut env = Env::new(&dom, namespace, FUEL, &[]);
    let mut e =
        parse("tokenize('71 80', '\\s') = 'x' or string-length('abc') = 3 or number('1') = 1")
            .unwrap();
    fold_calls(&mut e, &mut env);
    let expected = parse("('71', '80') = 'x' or 3 = 3 or number('1') = 1").unwrap();
    assert_eq!(e, expected);
    assert_eq!(
        literals(&vec![Item::Bool(true)]),
        Some(parse("true()").unwrap())
    );
}

#[test]
fn a_patterns_findings_come_in_document_order_whatever_the_order_of_its_rules() {
    // CEN's model pattern tests `cac:LegalMonetaryTotal` (BR-12) in a rule before the
    // root's (BR-02), the root first in the document: the official validator reports
    // the root's finding first. Both paths a pattern visits its elements by: the few
    // it lists (sorted), and every element, when they are more than a sixteenth.
    let doc = r#"<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"><cbc:CustomizationID>urn:cen.eu:en16931:2017</cbc:CustomizationID><cac:LegalMonetaryTotal><cbc:PayableAmount currencyID="EUR">1</cbc:PayableAmount></cac:LegalMonetaryTotal></Invoice>"#;
    // 4 elements: every element is visited; 100 more that no rule of the pattern
    // tests: only the two it lists
    let padded = doc.replace(
        "</Invoice>",
        &("<cbc:Padding>x</cbc:Padding>".repeat(100) + "</Invoice>"),
    );
    for xml in [doc.to_owned(), padded] {
        let report = check(&Dom::read(xml.as_bytes()).unwrap());
        let at = |rule: &str| report.findings.iter().position(|f| f.rule == rule);
        let (root, total) = (at("BR-02"), at("BR-12"));
        assert!(root.is_some() && total.is_some(), "{:?}", report.findings);
        assert!(root < total, "{:?}", report.findings);
    }
}

/// The findings of a rule in a report, as locations.
fn found<'r>(report: &'r Report, rule: &str) -> Vec<&'r str> {
    report
        .findings
        .iter()
        .filter(|f| f.rule == rule)
        .map(|f| f.location.as_str())
        .collect()
}

#[test]
fn br_b_01_br_b_02_and_br_cl_08_are_planned_and_answer_as_the_evaluator() {
    // a general comparison of a shared path's nodes with a literal
    // (`//cac:TaxCategory/cbc:ID = 'B'`) and `substring-before` lower into plans
    let c = compiled(Layer::Cen);
    for id in ["BR-B-01", "BR-B-02", "BR-CL-08"] {
        let asserts: Vec<&RuleAssert> = c
            .patterns
            .iter()
            .flat_map(|p| &p.rules)
            .flat_map(|r| &r.asserts)
            .filter(|a| ASSERTS[a.index].id == id)
            .collect();
        assert!(!asserts.is_empty(), "{id} is an assert of the CEN layer");
        assert!(asserts.iter().all(|a| a.plan.is_some()), "{id} has a plan");
    }
    let notes = "<cbc:Note>#AAI#a subject code of the list</cbc:Note>\
                 <cbc:Note>#ZZ9#not of the list</cbc:Note>\
                 <cbc:Note>#AB#two letters</cbc:Note>\
                 <cbc:Note>no subject code</cbc:Note>";
    let base = base_example().replacen(
        "<cbc:DocumentCurrencyCode>",
        &format!("{notes}<cbc:DocumentCurrencyCode>"),
        1,
    );
    // the document allowance in category B (split payment), beside lines in S, with a
    // seller not in Italy
    let split = base.replacen("<cbc:ID>S</cbc:ID>", "<cbc:ID>B</cbc:ID>", 1);
    for (xml, b01, b02) in [(&base, false, false), (&split, true, true)] {
        let dom = Dom::read(xml.as_bytes()).unwrap();
        let (report, plans) = check_plans(&dom);
        assert!(plans.differ.is_empty(), "{:?}", plans.differ);
        // the note with a code not in the list fails; two letters or none pass
        let cl08 = found(&report, "BR-CL-08");
        assert_eq!(cl08.len(), 1, "BR-CL-08: {cl08:?}");
        assert!(
            cl08[0].contains("*:Note[") && cl08[0].ends_with("[2]"),
            "{cl08:?}"
        );
        assert_eq!(!found(&report, "BR-B-01").is_empty(), b01, "BR-B-01");
        assert_eq!(!found(&report, "BR-B-02").is_empty(), b02, "BR-B-02");
    }
}

#[test]
fn br_s_05_fires_at_the_line_category_its_context_finds_from_the_grouped_codes() {
    // the VAT category contexts (`cac:InvoiceLine/cac:Item/cac:ClassifiedTaxCategory
    // [normalize-space(cbc:ID) = 'S'][…]`) start at the shared `//cac:InvoiceLine/
    // cac:Item` and climb from the elements grouped by code: the second line's S at
    // 0 % breaks BR-S-05 there and nowhere else; the first line made E instead leaves
    // BR-S-05 to the second (and BR-E-05 holds at 0 %)
    let xml = base_example();
    let lines: Vec<&str> = xml.split("<cac:InvoiceLine>").collect();
    let [head, first, second] = lines.as_slice() else {
        panic!("base-example has two lines");
    };
    let zero = "<cbc:Percent>0</cbc:Percent>";
    let second = second.replacen("<cbc:Percent>25.0</cbc:Percent>", zero, 1);
    let second_at_zero = [*head, first, &second].join("<cac:InvoiceLine>");
    let dom = Dom::read(second_at_zero.as_bytes()).unwrap();
    let (report, plans) = check_plans(&dom);
    assert!(plans.differ.is_empty(), "{:?}", plans.differ);
    let at: Vec<&str> = report
        .findings
        .iter()
        .filter(|f| f.rule == "BR-S-05")
        .map(|f| f.location.as_str())
        .collect();
    assert_eq!(
        at,
        ["/*:Invoice[namespace-uri()='urn:oasis:names:specification:ubl:schema:xsd:Invoice-2'][1]/*:InvoiceLine[namespace-uri()='urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2'][2]/*:Item[namespace-uri()='urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2'][1]/*:ClassifiedTaxCategory[namespace-uri()='urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2'][1]"]
    );
    let first = first
        .replacen("<cbc:ID>S</cbc:ID>", "<cbc:ID>E</cbc:ID>", 1)
        .replacen("<cbc:Percent>25.0</cbc:Percent>", zero, 1);
    let first_exempt = [*head, &first, &second].join("<cac:InvoiceLine>");
    assert_ne!(first_exempt, second_at_zero);
    let dom = Dom::read(first_exempt.as_bytes()).unwrap();
    let (report, plans) = check_plans(&dom);
    assert!(plans.differ.is_empty(), "{:?}", plans.differ);
    let count = |rule: &str| report.findings.iter().filter(|f| f.rule == rule).count();
    assert_eq!((count("BR-S-05"), count("BR-E-05")), (1, 0));
}

/// XSLT matches a pattern element by element: a dynamic error while matching one (here
/// `normalize-space()` of two `cbc:ID`s) is a non-match of that element alone, and the
/// rule still fires where the pattern matches (the official validator's answer on the
/// differential corpus's `en16931.ubl-tc434-example5.0972`, session 26).
#[test]
fn a_context_that_fails_at_one_element_still_matches_the_others() {
    let xml = base_example()
        .replacen(
            "<cbc:CompanyID>GB1232434</cbc:CompanyID>",
            "<cbc:CompanyID>NL16356706</cbc:CompanyID>",
            1,
        )
        .replacen(
            "<cbc:CompanyID>SE4598375937</cbc:CompanyID>\n                <cac:TaxScheme>\n                    <cbc:ID>VAT</cbc:ID>",
            "<cbc:CompanyID>NL16356707</cbc:CompanyID>\n                <cac:TaxScheme>\n                    <cbc:ID>VAT</cbc:ID><cbc:ID>VAT</cbc:ID>",
            1,
        );
    assert!(xml.contains("NL16356707") && xml.contains("<cbc:ID>VAT</cbc:ID><cbc:ID>VAT</cbc:ID>"));
    let dom = Dom::read(xml.as_bytes()).unwrap();
    let report = check(&dom);
    // the seller's VAT number, not the buyer's, whose tax scheme has two ids
    let at = found(&report, "PEPPOL-COMMON-R056-2");
    assert_eq!(at.len(), 1, "{at:?}");
    assert!(at[0].contains("AccountingSupplierParty"), "{at:?}");
    assert!(report
        .findings
        .iter()
        .any(|f| f.rule == "PEPPOL-COMMON-R056-2" && !f.fatal));
    // the whole context fails in the evaluator: the element-by-element match answers
    let c = compiled(Layer::Peppol);
    let rule = c
        .patterns
        .iter()
        .flat_map(|p| p.rules.iter())
        .find(|r| {
            r.asserts
                .first()
                .and_then(|a| ASSERTS.get(a.index))
                .is_some_and(|a| a.id == "PEPPOL-COMMON-R056-2")
        })
        .unwrap();
    let context = rule.context.as_ref().unwrap();
    let mut env = Env::new(&dom, namespace, FUEL, &c.functions);
    assert!(env.eval_at(context, Item::Doc).is_err());
    let matched = matched_each(context, &mut env).unwrap();
    assert_eq!(matched.len(), 1);
}

/// A shared path's value is not computed when the steps after it name what the
/// document lacks: `…/cac:PartyTaxScheme[cac:TaxScheme/(… = 'VAT')]/cbc:CompanyID` with
/// no `cbc:` element reaches nothing, whatever the predicate (here an error: a
/// `cac:PartyTaxScheme` with two `cac:TaxScheme`s gives two booleans), in the plan and
/// in the evaluator alike (found by the `ubl_validate` fuzz target, session 28).
#[test]
fn a_shared_path_followed_by_an_absent_name_reaches_nothing_in_plan_and_evaluator() {
    let xml = r#"<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:example:not-cbc"><cac:AccountingSupplierParty><cac:Party><cac:PartyTaxScheme><cbc:CompanyID>BE0123456749</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme><cac:TaxScheme><cbc:ID>TAX</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme></cac:Party></cac:AccountingSupplierParty></Invoice>"#;
    let dom = Dom::read(xml.as_bytes()).unwrap();
    let (report, plans) = check_plans(&dom);
    assert!(plans.compared > 0);
    assert_eq!(plans.differ, Vec::<String>::new());
    assert_eq!(report, check(&dom));
}

#[test]
fn a_start_of_paths_from_the_root_is_counted_once_for_each_path_met_and_found_whole() {
    // `Starts` finds a start by a key of its steps, then compares the steps whole:
    // two starts of one key (same axes, names and numbers of predicates, other
    // predicates) stay two
    let steps = |text: &str| match parse(text).unwrap() {
        Expr::Path(_, steps) => steps,
        other => panic!("not a path: {other:?}"),
    };
    let a = steps("/ubl:Invoice/cac:TaxTotal[cbc:TaxAmount]");
    let b = steps("/ubl:Invoice/cac:TaxTotal[cbc:RoundingAmount]");
    assert_eq!(steps_key(&a), steps_key(&b));
    let mut seen = Starts::default();
    seen.count(&a);
    seen.count(&b);
    seen.count(&a);
    seen.count(a.get(..1).unwrap());
    let counts: Vec<usize> = seen.list.iter().map(|(_, n)| *n).collect();
    assert_eq!(counts, [2, 1, 1]);
    assert_eq!(seen.find(&b), Some(1));
    assert_eq!(seen.find(a.get(..1).unwrap()), Some(2));
    assert_eq!(seen.find(&steps("/ubl:Invoice/cac:TaxTotal")), None);
    // every layer shares the paths it did when they were found by comparing each with
    // them all: the VAT categories' lines (`//cac:InvoiceLine`, then on)
    let c = compiled(Layer::Cen);
    assert!(c.shared.len() > 1);
    for (i, (e, _)) in c.shared.iter().enumerate() {
        assert!(
            matches!(e, Expr::Shared(id, _) if *id as usize == i),
            "shared path {i}: {e:?}"
        );
    }
}
