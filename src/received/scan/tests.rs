use super::super::reader::read_facts_slow;
use super::read_facts;
use proptest::prelude::*;

/// The scan, when it reads the text, reads what quick-xml reads (scales included).
fn same(text: &str) -> bool {
    let agrees = super::super::reader::agrees_with_quick_xml(text);
    if agrees == Some(false) {
        assert_eq!(
            format!("{:?}", read_facts(text).map(Ok::<_, String>)),
            format!("{:?}", Some(read_facts_slow(text))),
            "{text}"
        );
    }
    agrees.is_some()
}

fn fixtures() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/peppol");
    let mut out = Vec::new();
    for d in [dir.to_owned(), format!("{dir}/tampered")] {
        for e in std::fs::read_dir(d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "xml") {
                if let Ok(t) = std::fs::read_to_string(&p) {
                    out.push((p.display().to_string(), t));
                }
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_scan_reads_every_example_as_quick_xml_does() {
    let all = fixtures();
    assert!(all.len() > 50, "{}", all.len());
    for (name, text) in &all {
        let body = text.strip_prefix('\u{FEFF}').unwrap_or(text);
        assert!(same(body), "the scan gave up on {name}");
    }
}

#[test]
fn the_scan_gives_up_or_agrees_on_unusual_xml() {
    let ns = r#"xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2""#;
    let reads = [
            format!("<Invoice {ns}/>"),
            format!("<?xml version=\"1.0\"?>\n<!-- c --><Invoice {ns}><cbc:ID>1</cbc:ID></Invoice>\n<?pi x?>\n"),
            format!("<Invoice {ns} ><cbc:ID >A</cbc:ID ><!----><?p?></Invoice>"),
            format!("<Invoice {ns}><cbc:ID/><cbc:IssueDate>2020-01-01</cbc:IssueDate><x:ID xmlns:x='a'>2</x:ID></Invoice>"),
            format!("<Invoice {ns}><cbc:ID>a<x>b</x></cbc:ID><cbc:ID>c</cbc:ID></Invoice>"),
            format!("<Invoice {ns}><cbc:ID>a<cbc:Name>b</cbc:Name>c</cbc:ID></Invoice>"),
            format!("<Invoice {ns}><cbc:ID>a&amp;b</cbc:ID></Invoice>"),
            format!("<Invoice {ns}><cbc:ID>a\r\nb</cbc:ID></Invoice>"),
            format!("<Invoice {ns}><cbc:ID>a<!-- x -->b</cbc:ID></Invoice>"),
            format!("<Invoice {ns}><cbc:ID><![CDATA[x]]></cbc:ID></Invoice>"),
            format!("<Invoice {ns}><cac:TaxTotal><cbc:TaxAmount currencyID=\"EUR\" currencyID=\"USD\">1</cbc:TaxAmount></cac:TaxTotal></Invoice>"),
            format!("<Invoice {ns}><cac:TaxTotal><cbc:TaxAmount a='1' currencyID='E\"R'>1</cbc:TaxAmount></cac:TaxTotal></Invoice>"),
            format!("<Invoice {ns}><cac:TaxTotal><cbc:TaxAmount currencyID = \"EUR\">1</cbc:TaxAmount></cac:TaxTotal></Invoice>"),
            format!("<Invoice {ns}><cbc:ID>1</cbc:ID ></Invoice>"),
            format!("<Invoice {ns}><cbc:ID>1</cbc:Id></Invoice>"),
            format!("<Invoice {ns}><cbc:ID>1</cbc:ID></Invoice><Invoice/>"),
            format!("<Invoice {ns}><cbc:ID>1</cbc:ID></Invoice>x"),
            format!("<Invoice {ns}><cbc:ID>1</cbc:ID><?>"),
            format!("<Invoice {ns}><?></Invoice>"),
            format!("<Invoice {ns}><!--></Invoice>--></Invoice>"),
            format!("<!DOCTYPE Invoice><Invoice {ns}/>"),
            format!("<Invoice {ns}><cbc:ID>1"),
            "<Invoice xmlns:i=\"urn:oasis:names:specification:ubl:schema:xsd:Invoice-2\"/>".to_owned(),
            "<i:Invoice xmlns:i=\"urn:oasis:names:specification:ubl:schema:xsd:Invoice-2\"/>".to_owned(),
            "<i:CreditNote xmlns:i=\"urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2\" xmlns:c=\"urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2\"><c:ID>z</c:ID></i:CreditNote>".to_owned(),
            format!("<Invoice {ns} xmlns:cbc=\"\"><cbc:ID>1</cbc:ID></Invoice>"),
            format!("<Invoice {ns} xmlns:xml=\"http://www.w3.org/XML/1998/namespace\"/>"),
            format!("<Invoice {ns}><cbc:ID>1</cbc:ID></Invoice  >"),
        ];
    let mut read = 0;
    for t in &reads {
        if same(t) {
            read += 1;
        }
    }
    assert!(read >= 8, "{read}");
}

/// Pieces of XML, UBL and mistakes, to put together at random.
const PIECES: [&str; 40] = [
    "<",
    ">",
    "/",
    "/>",
    "</",
    "?",
    "!",
    "-",
    "--",
    "-->",
    "<!--",
    "<?",
    "?>",
    " ",
    "\r\n",
    "\t",
    "=",
    "\"",
    "'",
    "&amp;",
    "&",
    ";",
    ":",
    "x",
    "Invoice",
    "CreditNote",
    "cbc:",
    "cac:",
    "ID",
    "TaxAmount",
    "InvoiceLine",
    "LineExtensionAmount",
    "currencyID",
    "xmlns",
    " xmlns=\"urn:oasis:names:specification:ubl:schema:xsd:Invoice-2\"",
    " xmlns:cbc=\"urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2\"",
    " xmlns:cac=\"urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2\"",
    "12.50",
    "<![CDATA[",
    "]]>",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_pieces_read_alike(picks in proptest::collection::vec(0..PIECES.len(), 0..60)) {
        let text: String = picks.iter().map(|&i| PIECES[i]).collect();
        same(&text);
        let wrapped = format!("<Invoice{}{}{}>{text}</Invoice>", PIECES[34], PIECES[35], PIECES[36]);
        same(&wrapped);
    }

    #[test]
    fn mutated_examples_read_alike(
        which in 0..7_usize,
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0..3_u8), 1..8),
    ) {
        let all = fixtures();
        let (_, text) = &all[which.min(all.len().saturating_sub(1))];
        let mut bytes = text.clone().into_bytes();
        for (at, byte, op) in edits {
            let i = at.index(bytes.len().max(1));
            // printable ASCII and XML markup, where the scan's decisions are
            let byte = b"<>/!?-=\"' \r\n\t&;:xa1."[usize::from(byte) % 20];
            match op {
                0 if i < bytes.len() => bytes[i] = byte,
                1 => bytes.insert(i.min(bytes.len()), byte),
                _ if i < bytes.len() => { bytes.remove(i); }
                _ => {}
            }
        }
        if let Ok(t) = std::str::from_utf8(&bytes) {
            same(t);
        }
    }
}
