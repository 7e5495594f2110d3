#!/usr/bin/env python3
"""The official validator's answers on documents that exercise the stylesheets' own
functions (u:checkCodiceIPA, u:checkCF, u:checkPIVAseIT, u:abn, u:TinVerification,
u:checkSEOrgnr, u:mod11, u:gln, u:mod97-0208), which the engine evaluates from the
artefacts' data (src/ubl/xpath/eval.rs, `Function`).

usage: python3 tests/differential/functions.py [--check]

Each case is tests/fixtures/peppol/base-example.xml with a few exact replacements (an
Italian, Australian, Greek, Swedish, Norwegian, GLN or Belgian identifier, valid or
not; a few as self-billing documents). Writes tests/differential/functions.jsonl, one
case a line: {"id", "edits": [[old, new], ...], "fatal", "warnings"} (rule -> number
of failed asserts), and "crash" (the layer and Saxon's message) when a stylesheet stops
on a dynamic error (then the engine lists the rule as unevaluated). The unit test
`official_answers_on_the_function_documents` (src/ubl/xpath/tests.rs) checks the
engine against it. --check writes nothing and exits 1 when the file would change.

Needs the kit at $PEPPOL_KIT, by default <repo>/../shared/peppol (saxonche, xmlschema).
"""
import collections
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
KIT = os.environ.get("PEPPOL_KIT") or os.path.join(os.path.dirname(REPO), "shared", "peppol")
OUT = os.path.join(HERE, "functions.jsonl")
BASE = os.path.join(REPO, "tests", "fixtures", "peppol", "base-example.xml")

SUP_EP = '<cbc:EndpointID schemeID="0088">9482348239847239874</cbc:EndpointID>'
SUP_ID = '<cbc:ID>99887766</cbc:ID>'
SUP_VAT = '<cbc:CompanyID>GB1232434</cbc:CompanyID>'
SUP_LEGAL = '<cbc:CompanyID>GB983294</cbc:CompanyID>'
SUP_COUNTRY = '<cbc:IdentificationCode>GB</cbc:IdentificationCode>'
CUS_EP = '<cbc:EndpointID schemeID="0002">FR23342</cbc:EndpointID>'
CUS_VAT = '<cbc:CompanyID>SE4598375937</cbc:CompanyID>'
INV_ID = '<cbc:ID>Snippet1</cbc:ID>'
SELF_BILLING = [
    ("urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0",
     "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:selfbilling:3.0"),
    ("urn:fdc:peppol.eu:2017:poacc:billing:01:1.0", "urn:fdc:peppol.eu:2017:poacc:selfbilling:01:1.0"),
    ("<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>", "<cbc:InvoiceTypeCode>389</cbc:InvoiceTypeCode>"),
]


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;")


def ident(old, tag, scheme, value):
    return (old, f'<cbc:{tag} schemeID="{scheme}">{esc(value)}</cbc:{tag}>')


def greek(vat, ep="094014201", inv="094014201|2024-01-01|0|1.1|A|1", customer=None):
    """A Greek supplier: VAT number, endpoint (9933) and invoice number segments."""
    edits = [(SUP_VAT, f"<cbc:CompanyID>{esc(vat)}</cbc:CompanyID>"),
             (SUP_COUNTRY, "<cbc:IdentificationCode>GR</cbc:IdentificationCode>"),
             ident(SUP_EP, "EndpointID", "9933", ep),
             (INV_ID, f"<cbc:ID>{esc(inv)}</cbc:ID>")]
    if customer is not None:
        edits += [(CUS_VAT, f"<cbc:CompanyID>{esc(customer)}</cbc:CompanyID>"),
                  ident(CUS_EP, "EndpointID", "9933", customer[2:])]
    return edits


def cases():
    out = []

    def case(name, *edits):
        out.append((name, list(edits)))

    for v in ["UFXYZ1", "AB-1", "abc12", " UFXYZ1 ", "UFXYZ1Q", "\u00c0BCDE1", "abc123", ""]:
        case(f"IPA endpoint {v!r}", ident(SUP_EP, "EndpointID", "0201", v))
    case("IPA party id", ident(SUP_ID, "ID", "0201", "UF-XY1"))
    case("IPA legal id", ident(SUP_LEGAL, "CompanyID", "0201", "UFXYZ1"))
    for v in ["RSSMRA85T10A562S", "RSSMRA85T10A", "12345678901", "1234567890A", "RSSMRA8XT10A562S",
              "+1234567890", "-1234567890", "rssmra85t10a562s", "RSSMRA85T10A56ZS",
              "RSSMRA85T1\u00e0A562S", "\uff11" * 11, ""]:
        case(f"CF party id {v!r}", ident(SUP_ID, "ID", "0210", v))
    for v in ["RSSMRA85T10A562S", "12345678901", "ABCDEFGHIJKLMNOP", "RSSMRA85T10A"]:
        case(f"CF endpoint 9907 {v!r}", ident(SUP_EP, "EndpointID", "9907", v))
    for v in ["IT01234567897", "IT01234567890", "it12345678903", "IT00802510339", "DE123", "IT",
              "IT0123456789", "IT012345678970", "IT0123456789A", "It01234567890", "IT 1234567897", ""]:
        case(f"PIVA party id {v!r}", ident(SUP_ID, "ID", "0211", v))
    case("PIVA legal id", ident(SUP_LEGAL, "CompanyID", "0211", "IT01234567890"))
    for v in ["51824753556", "51824753557", "5182475355", "518247535561", "A1824753556", "",
              "00000000000"]:
        case(f"ABN party id {v!r}", ident(SUP_ID, "ID", "0151", v))
    case("GR valid", *greek("EL094014201"))
    case("GR VAT check digit", *greek("EL094014202"))
    case("GR VAT short", *greek("EL09401420", ep="09401420", inv="09401420|x"))
    case("GR VAT letter", *greek("EL09401420x", ep="09401420x", inv="09401420x|y"))
    case("GR endpoint check digit", *greek("EL094014201", ep="094014202"))
    case("GR invoice id check digit", *greek("EL094014201", inv="094014202|2024"))
    case("GR customer valid", *greek("EL094014201", customer="EL997645102"))
    case("GR customer check digit", *greek("EL094014201", customer="EL997645103"))
    case("GR VAT long", *greek("EL0940142011234", ep="0940142011234"))
    case("GR VAT prefix GR", *greek("GR094014201"))
    for v in ["5560360793", "5560360794", "556036079A", "55603607931", "\u0665560360793", "0000000000"]:
        case(f"SE legal id {v!r}", (SUP_COUNTRY, "<cbc:IdentificationCode>SE</cbc:IdentificationCode>"),
             (SUP_LEGAL, f"<cbc:CompanyID>{esc(v)}</cbc:CompanyID>"))
        case(f"SE endpoint 0007 {v!r}", ident(SUP_EP, "EndpointID", "0007", v))
    for v in ["974760673", "974760674", "000000000", "97476067"]:
        case(f"NO endpoint 0192 {v!r}", ident(SUP_EP, "EndpointID", "0192", v))
    for v in ["5410000000019", "5410000000018", "0", "1" * 300, "9" * 5000, ""]:
        case(f"GLN party id {v[:16]!r} ({len(v)} digits)", ident(SUP_ID, "ID", "0088", v))
    for v in ["0123456749", "0123456748", "01234567", "abcdefgh49"]:
        case(f"BE party id 0208 {v!r}", ident(SUP_ID, "ID", "0208", v))
    for scheme, values in [("0201", ["UFXYZ1", "AB-1"]), ("0210", ["RSSMRA85T10A562S", "RSSMRA85T10A"]),
                           ("0211", ["IT01234567897", "IT01234567890"]),
                           ("0007", ["5560360793", "5560360794"]),
                           ("0088", ["5410000000019", "5410000000018"])]:
        for v in values:
            case(f"self-billing party id {scheme} {v!r}", *SELF_BILLING, ident(SUP_ID, "ID", scheme, v))
    return out


def apply(base, edits, name):
    for old, new in edits:
        if base.count(old) != 1:
            raise SystemExit(f"{name}: {old!r} is not once in the base document")
        base = base.replace(old, new)
    return base


def main(argv):
    check = argv == ["--check"]
    if argv and not check:
        sys.stderr.write(__doc__)
        return 2
    sys.path.insert(0, os.path.join(REPO, "tests", "cen"))
    sys.path.insert(0, KIT)
    import official  # tests/cen/official.py: the kit's validate, a stopped layer told apart
    from validate import Validator
    v = Validator()
    base = open(BASE, encoding="utf-8").read()
    lines = []
    for name, edits in cases():
        report = official.validate(v, apply(base, edits, name), name)
        line = {"id": name, "edits": edits}
        for key in ("fatal", "warnings"):
            line[key] = dict(sorted(collections.Counter(x["rule"] for x in report[key]).items()))
        if "crash" in report:
            line["crash"] = report["crash"].split("\n")[0][:200]
        lines.append(json.dumps(line, ensure_ascii=False))
    text = "\n".join(lines) + "\n"
    current = open(OUT, encoding="utf-8").read() if os.path.exists(OUT) else None
    if check:
        if current != text:
            sys.stderr.write(f"FAIL: {os.path.relpath(OUT, REPO)} differs from the kit's answers\n")
            return 1
        return 0
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {len(lines)} cases to {os.path.relpath(OUT, REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
