# Builds a JSON list of scenarios (the path given, else national.json): scenarios whose company and relation are of one
# foreign country each (NL, DE, DK, SE, NO, IS, IT, GR), in 16 party variants, with sale
# and self-billing documents: the national rules of the Peppol layer. Run from the
# repository root; check with tests/peppol/check_scenarios.py FILE.
import json, copy, itertools, sys
docs = []
out = []
vat = {"NL": "NL123456789B01", "DE": "DE123456789", "DK": "DK12345678", "SE": "SE556036079301", "NO": "NO974760673MVA", "IS": "IS123456", "IT": "IT12345678901", "GR": "EL094019245", "BE": "BE0123456749"}
ent = {"SE": "5560360793", "DK": "12345678"}
def party(c, variant):
    p = {"name": f"Firm {c}", "vat_number": vat[c], "peppol_id": "0208:0123456749", "iban": "BE68539007547034",
         "address": {"street": "Main", "street_number": "1", "postal_code": "1000", "city": "City", "country_code": c}}
    if variant & 1: p["enterprise_number"] = ent.get(c, "0123456749")
    if variant & 2: p["email"] = "a@b.example"
    if variant & 4: p["address"] = {"city": "City", "country_code": c}
    if variant & 8: p.pop("vat_number")
    return p
scen = []
for c in ["NL", "DE", "DK", "SE", "NO", "IS", "IT", "GR"]:
    for variant in range(16):
        comp = dict(party(c, variant), self_billing=True)
        rel = dict(party(c, variant ^ 3), id="rel", kind="company", peppol=True)
        rel2 = dict(party("BE", 1), id="rel-be", kind="company", peppol=True)
        L = [{"item_name": "X", "quantity": 1, "unit_price": 100, "vat_rate": 21}, {"item_name": "Y", "quantity": 1, "unit_price": 10, "vat_code": "not_subject"} ] if variant % 5 == 0 else [{"item_name": "X", "quantity": 1, "unit_price": 100, "vat_rate": 25 if variant % 2 else 21}]
        bodies = [{"type": t, "relation_id": r, "lines": L, **({"buyer_reference": "B"} if variant % 3 else {})}
                  for t, r in [("sale_invoice", "rel"), ("sale_credit_note", "rel"), ("purchase_invoice", "rel"), ("purchase_credit_note", "rel-be"), ("sale_invoice", "rel-be")]]
        sc = {"today": "2026-11-21", "company": comp,
              "clients": [{"client_id": "a", "client_secret": "s", "permissions": ["c", "u"]}],
              "relations": [rel, rel2],
              "journals": [{"id": j, "category": j, "numbering": "yearly", "prefix": j[:2], "default": True} for j in ["sales_invoice", "sales_credit", "purchases_invoice", "purchases_credit"]],
              "requests": [{"client": "a", "method": "POST", "path": "/documents", "body": b} for b in bodies] + [{"method": "TICK"}] + [{"client": "a", "method": "GET", "path": f"/documents/doc-{i+1}/ubl"} for i in range(len(bodies))]}
        scen.append(sc)
json.dump(scen, open(sys.argv[1] if len(sys.argv) > 1 else "national.json", "w"))
print(len(scen))
