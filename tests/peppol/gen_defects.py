# Builds tests/peppol/defects.json: one document per finding rule (run from the repository root).
# The expectations (tests/peppol/defects.expect.json) are the findings checked against
# the official validator.
import json, copy
base = json.load(open('examples/scenarios/peppol.json'))
good = {"kind": "company", "peppol": True, "name": "Brouwerij De Kaai NV", "vat_number": "BE0403033416",
        "enterprise_number": "0403033416", "peppol_id": "0208:0403033416", "iban": "BE71096123456769",
        "address": {"street": "Kaaiplein", "street_number": "3", "postal_code": "9000", "city": "Gent", "country_code": "BE"}}
def rel(rid, **kw):
    r = copy.deepcopy(good); r["id"] = rid
    for k, v in kw.items():
        if v is None: r.pop(k, None)
        else: r[k] = v
    return r
line = {"item_name": "Lamp", "quantity": 2, "unit_price": 50, "vat_rate": 21}
cases = []  # (rule, relation or None, body overrides, location or None)
def case(rule, relation=None, body=None, location=None, doc_type="sale_invoice"):
    cases.append((rule, relation, body or {}, location, doc_type))
# buyer-side party rules: sale invoice to a defective relation
case("BR-07", rel("r-noname", name=None))
case("BR-10", rel("r-noaddr", address=None))
case("BR-11", rel("r-nocountry", address={"street": "Kaaiplein", "city": "Gent"}))
case("PEPPOL-EN16931-R010", rel("r-noendpoint", peppol_id=None))
case("PEPPOL-EN16931-R010", rel("r-endpoint-nocolon", peppol_id="0403033416"))
case("BR-CL-25", rel("r-badscheme", peppol_id="9999:0403033416"))
case("PEPPOL-EN16931-CL008", rel("r-cenonly-scheme", peppol_id="0037:0403033416"))
case("PEPPOL-COMMON-R043", rel("r-badkbo", enterprise_number="0403033417"))
case("PEPPOL-COMMON-R040", rel("r-badgln", peppol_id="0088:5410000000018"))
case("BR-CO-09", rel("r-badprefix", vat_number="XX0403033416"))
case("BR-CL-14", rel("r-lowercountry", address={"street": "Kaaiplein", "city": "Gent", "country_code": "be"}))
case("PEPPOL-EN16931-R008", {"id": "r-empty", "kind": "company", "peppol": True})
# seller-side party rules: self-billing purchase invoice from a defective relation
case("BR-06", rel("s-noname", name=None), doc_type="purchase_invoice")
case("BR-08", rel("s-noaddr", address=None), doc_type="purchase_invoice")
case("BR-09", rel("s-nocountry", address={"city": "Gent"}), doc_type="purchase_invoice")
case("PEPPOL-EN16931-R020", rel("s-noendpoint", peppol_id=None), doc_type="purchase_invoice")
case("BR-61", rel("s-noiban", iban=None), doc_type="purchase_invoice")
case("BR-S-02", rel("s-novat", vat_number=None), doc_type="purchase_invoice")
case("BR-CO-26", rel("s-noids", vat_number=None, enterprise_number=None), doc_type="purchase_invoice")
# document rules
case("PEPPOL-EN16931-R003", None, {"buyer_reference": None})
case("BR-25", None, {"lines": [{"quantity": 1, "unit_price": 10, "vat_rate": 21}]})
case("BR-CL-23", None, {"lines": [dict(line, unit_code="QQQ")]})
case("BR-54", None, {"lines": [dict(line, item_properties={"Colour": ""})]})
# VAT categories
ic = {"lines": [{"item_name": "Lamp", "quantity": 1, "unit_price": 100, "vat_code": "intra_community"}],
      "delivery_date": "2026-11-18", "delivery_location_id": "loc-kaai-depot"}
case("BR-IC-11", None, dict(ic, delivery_date=None))
case("BR-IC-12", None, dict(ic, delivery_location_id=None))
case("BR-IC-02", rel("r-ic-novat", vat_number=None), ic)
case("BR-AE-02", rel("r-ae-noids", vat_number=None, enterprise_number=None),
     {"lines": [{"item_name": "Works", "quantity": 1, "unit_price": 100, "vat_code": "reverse_charge"}]})
case("BR-E-02", rel("s-e-novat", vat_number=None),
     {"lines": [{"item_name": "Course", "quantity": 1, "unit_price": 100, "vat_code": "exempted"}]}, doc_type="purchase_invoice")
case("BR-Z-02", rel("s-z-novat", vat_number=None),
     {"lines": [{"item_name": "Paper", "quantity": 1, "unit_price": 100, "vat_code": "zero_rated"}]}, doc_type="purchase_invoice")
case("BR-G-02", rel("s-g-novat", vat_number=None),
     {"lines": [{"item_name": "Crate", "quantity": 1, "unit_price": 100, "vat_code": "export"}]}, doc_type="purchase_invoice")
case("BR-O-02", None, {"lines": [{"item_name": "Fee", "quantity": 1, "unit_price": 100, "vat_code": "not_subject"}]})
case("BR-O-11", None, {"lines": [{"item_name": "Fee", "quantity": 1, "unit_price": 100, "vat_code": "not_subject"}, line]})
case("BR-O-13", None, {"lines": [{"item_name": "Fee", "quantity": 1, "unit_price": 100, "vat_code": "not_subject"}, line],
                       "allowance_charges": [{"type": "allowance", "amount": 10, "reason": "Discount"}]})
case("BR-CO-17", None, {"lines": [{"item_name": "Lamp", "quantity": 10, "unit_price": 100, "vat_rate": 0.4}]})
# currencies
case("UBL-DT-01", None, {"currency": "KWD", "lines": [{"item_name": "Lamp", "quantity": 1, "unit_price": "10.125", "vat_rate": 21}]})
case("PEPPOL-EN16931-R120", None, {"currency": "JPY", "lines": [{"item_name": "Lamp", "quantity": 1.5, "unit_price": 3, "vat_rate": 10}]})
case("PEPPOL-EN16931-R040", None, {"currency": "JPY", "lines": [{"item_name": "Lamp", "quantity": 1, "unit_price": 1001, "vat_rate": 10,
     "allowance_charges": [{"type": "allowance", "rate": 10, "reason": "Discount"}]}]})
case("BR-CL-03", None, {"currency": "STN", "lines": [line]})
# delivery location
case("BR-CL-26", None, {"delivery_location_id": "loc-badscheme"})
case("BR-57", None, {"delivery_location_id": "loc-nocountry"})

sc = copy.deepcopy(base)
sc["company"]["enforce_peppol_rules"] = False
sc["company"]["currencies"] = None
sc["journals"].append({"id": "jrn-sbc", "category": "purchases_credit", "numbering": "yearly", "prefix": "SBC", "default": True})
sc["delivery_locations"] += [
    {"id": "loc-badscheme", "relation_id": "rel-kaai", "identifier": "5410000000019", "identifier_scheme": "9999",
     "address": {"city": "Gent", "country_code": "BE"}},
    {"id": "loc-nocountry", "relation_id": "rel-kaai", "identifier": "5410000000019", "identifier_scheme": "0088",
     "address": {"street": "Dokweg", "city": "Gent"}}]
reqs = []; expect = []
seen = set()
for rule, relation, body, location, doc_type in cases:
    rid = "rel-kaai"
    if relation is not None:
        if relation["id"] not in seen:
            sc["relations"].append(relation); seen.add(relation["id"])
        rid = relation["id"]
    b = {"type": doc_type, "relation_id": rid, "buyer_reference": "PO-1", "lines": [line]}
    for k, v in body.items():
        if v is None: b.pop(k, None)
        else: b[k] = v
    if b.get("delivery_location_id") and rid != "rel-kaai":
        # a location must belong to the relation
        loc = {"id": "loc-" + rid, "relation_id": rid, "identifier": "5410000000019", "identifier_scheme": "0088",
               "address": {"city": "Gent", "country_code": "BE"}}
        if loc["id"] not in seen:
            sc["delivery_locations"].append(loc); seen.add(loc["id"])
        b["delivery_location_id"] = loc["id"]
    reqs.append({"client": "erp", "method": "POST", "path": "/documents", "body": b})
    expect.append(rule)
n = len(reqs)
reqs.append({"method": "TICK"})
for i in range(n):
    reqs.append({"client": "erp", "method": "GET", "path": f"/documents/doc-{i+1}/ubl"})
sc["requests"] = reqs
sc["company"] = {k: v for k, v in sc["company"].items() if v is not None}
json.dump(sc, open('tests/peppol/defects.json', 'w'), indent=1, ensure_ascii=False)
# Every finding of each case, as the crate answers it (CI checks them against the
# official validator: tests/peppol/compare.py).
import subprocess
out = json.loads(subprocess.run(["cargo", "run", "--quiet", "--example", "simulate", "--", "tests/peppol/defects.json"],
                                capture_output=True, text=True, check=True).stdout)
cases = []
for i, rule in enumerate(expect):
    body = out["responses"][n + 1 + i]["body"]
    assert rule in [f["rule"] for f in body["findings"]], (rule, body["findings"])
    cases.append({"response": n + 1 + i, "rule": rule, "findings": [[f["rule"], f["loc"]] for f in body["findings"]]})
json.dump({"about": "tests/peppol/defects.json: one document per finding rule. For each GET /ubl response: the rule it is built to break, and every finding it gives (rule, loc), checked against the official validator in CI (.ci/run).",
           "cases": cases}, open("tests/peppol/defects.expect.json", "w"), indent=1)
print(n, "cases")
