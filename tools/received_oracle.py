#!/usr/bin/env python3
"""The received view of real UBL documents, read a second time by an independent reader.

Every UBL Invoice or CreditNote kept in the repository (CEN's examples, the Peppol
fixtures, and each document inside CEN's unit tests: tests/cen/*-unit-UBL) goes to
the simulator as a `received` entry of one scenario, through the simulator contract
(`examples/simulate`), and each answer is compared, field by field, with what this
script reads from the same bytes by docs/peppol.md §4 and §6 ("Reader"): the type and
type code, number, dates, references, currency, the amounts as stated (padded to the
currency's minor unit, never rounded), the payment status, the remittance and whether
it is structured; each line's quantity, unit code, unit price, VAT code and rate, item
name, description and identifiers, total, subtotal, allowances and charges; the
document's allowances and charges and its VAT breakdown; `relation_id` and
`relation_type` against relations the scenario holds for half the suppliers (by Peppol
id in other letter cases, or by VAT number written with dots), and `journal_id` (the
default purchase journal of the type).

Standard library only (xml.etree, decimal: no float). A broken document (CEN's unit
tests break them on purpose) must still be read: an unreadable value is null.

    python3 tools/received_oracle.py [--simulate BIN] [--extra DIR ...]

`--simulate` names a built `examples/simulate` (default: `cargo run --quiet
--example simulate --`); `--extra DIR` adds the UBL documents of a directory (for
example OpenPeppol's `rules/unit-UBL-*` and `rules/snippets`). Exit 1 on any
difference (each printed), 2 when it cannot run.
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from decimal import ROUND_HALF_UP, Decimal as D, InvalidOperation

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UBL = "urn:oasis:names:specification:ubl:schema:xsd:"
CBC = "{" + UBL + "CommonBasicComponents-2}"
CAC = "{" + UBL + "CommonAggregateComponents-2}"
ROOTS = {UBL + "Invoice-2": "Invoice", UBL + "CreditNote-2": "CreditNote"}
# ISO 4217 minor units other than 2 that the documents may use.
MINOR = {"JPY": 0, "KRW": 0, "ISK": 0, "CLP": 0, "VND": 0, "XOF": 0, "XAF": 0,
         "BHD": 3, "KWD": 3, "OMR": 3, "JOD": 3, "TND": 3, "LYD": 3, "IQD": 3}
VAT = {"S": "standard", "Z": "zero_rated", "E": "exempted", "AE": "reverse_charge",
       "K": "intra_community", "G": "export", "O": "not_subject", "L": "canary_islands",
       "M": "ceuta_melilla", "B": "transferred_vat"}
DECIMAL = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)")
# xs:date: a time zone is read and dropped
DATE = re.compile(r"(-?\d{4,})-(\d{2})-(\d{2})(Z|[+-]\d{2}:\d{2})?")


def text(e):
    return None if e is None else " ".join((e.text or "").split())


def dec(s):
    """An xs:decimal as written, or None."""
    if s is None or not DECIMAL.fullmatch(s):
        return None
    try:
        return D(s)
    except InvalidOperation:
        return None


def amount(s, minor):
    """An amount as stated, padded to the minor unit, never rounded."""
    d = dec(s)
    if d is None:
        return None
    if -d.as_tuple().exponent < minor:
        d = d.quantize(D(1).scaleb(-minor))
    return d


def date(s):
    m = DATE.fullmatch(s or "")
    if m is None or len(m.group(1)) != 4:
        return None
    y, m, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
    s = f"{y:04}-{m:02}-{d:02}"
    days = [31, 29 if y % 4 == 0 and (y % 100 or y % 400 == 0) else 28, 31, 30, 31,
            30, 31, 31, 30, 31, 30, 31]
    return s if 1 <= m <= 12 and 1 <= d <= days[m - 1] else None


def structured(s):
    if s is None:
        return False
    m = re.fullmatch(r"\+\+\+(\d{3})/(\d{4})/(\d{5})\+\+\+|\*\*\*(\d{3})/(\d{4})/(\d{5})\*\*\*|(\d{12})", s)
    if not m:
        return False
    digits = "".join(g for g in m.groups() if g)
    check = int(digits[:10]) % 97 or 97
    return check == int(digits[10:])


def view(root):
    """What docs/peppol.md §4 says the received view of `root` is (the fields read)."""
    kind = ROOTS[root.tag[1:].split("}")[0]]
    inv = kind == "Invoice"
    out = {"type": "purchase_invoice" if inv else "purchase_credit_note",
           "type_code": text(root.find(CBC + ("InvoiceTypeCode" if inv else "CreditNoteTypeCode"))),
           "document_number": text(root.find(CBC + "ID")),
           "issue_date": date(text(root.find(CBC + "IssueDate")))}
    due = root.find(CBC + "DueDate")
    if due is None:
        due = root.find(CAC + "PaymentMeans/" + CBC + "PaymentDueDate")
    out["due_date"] = date(text(due))
    for key, path in (("tax_point_date", CBC + "TaxPointDate"),
                      ("delivery_date", CAC + "Delivery/" + CBC + "ActualDeliveryDate"),
                      ("period_start", CAC + "InvoicePeriod/" + CBC + "StartDate"),
                      ("period_end", CAC + "InvoicePeriod/" + CBC + "EndDate")):
        out[key] = date(text(root.find(path)))
    for key, path in (("order_number", CAC + "OrderReference/" + CBC + "ID"),
                      ("despatch_reference", CAC + "DespatchDocumentReference/" + CBC + "ID"),
                      ("buyer_reference", CBC + "BuyerReference")):
        out[key] = first_text(root, path)
    cur = text(root.find(CBC + "DocumentCurrencyCode"))
    out["currency"] = cur
    minor = MINOR.get(cur, 2)
    lm = root.find(CAC + "LegalMonetaryTotal")
    total = (lambda n: text(lm.find(CBC + n))) if lm is not None else (lambda n: None)
    out["tax_exclusive_amount"] = amount(total("TaxExclusiveAmount"), minor)
    tax = None
    if cur is not None:
        for t in root.findall(CAC + "TaxTotal"):
            a = t.find(CBC + "TaxAmount")
            if a is not None and a.get("currencyID") == cur:
                tax = text(a)
                break
    out["tax_amount"] = amount(tax, minor)
    inclusive, rounding = dec(total("TaxInclusiveAmount")), total("PayableRoundingAmount")
    if inclusive is None or (rounding is not None and dec(rounding) is None):
        out["total_amount"] = None
    else:
        out["total_amount"] = amount(str(inclusive + (dec(rounding) or 0)), minor)
    prepaid = total("PrepaidAmount")
    out["paid_amount"] = amount(prepaid if prepaid is not None else "0", minor)
    out["remaining_amount"] = amount(total("PayableAmount"), minor)
    paid, whole = out["paid_amount"], out["total_amount"]
    if whole is None or paid is None or paid < 0 or (whole > 0 and paid > whole):
        out["payment_status"] = "unknown"
    elif paid == 0:
        out["payment_status"] = "unpaid"
    elif paid < whole:
        out["payment_status"] = "partial"
    elif paid == whole:
        out["payment_status"] = "paid"
    remittance = root.find(".//" + CBC + "PaymentID")
    out["payment_remittance"] = None if remittance is None else (remittance.text or "").strip()
    out["is_remittance_structured"] = structured(out["payment_remittance"])
    lines = [e for e in root if e.tag in (CAC + "InvoiceLine", CAC + "CreditNoteLine")]
    out["lines"] = [line(e, minor) for e in lines]
    out["allowance_charges"] = [allowance(e, minor, True) for e in root.findall(CAC + "AllowanceCharge")]
    subtotals = []
    for t in root.findall(CAC + "TaxTotal"):
        subtotals = t.findall(CAC + "TaxSubtotal")
        if subtotals:
            break
    out["vat_breakdown"] = [group(e, minor) for e in subtotals]
    return out


def first_text(at, path):
    """The first text at `path` that is not blank, trimmed (docs/peppol.md §4's
    decisions: a repeated element gives its first non-blank text)."""
    for e in at.findall(path):
        t = "".join(e.itertext()).strip(" \t\r\n")
        if t:
            return t
    return None


def allowance(e, minor, document):
    indicator = text(e.find(CBC + "ChargeIndicator"))
    out = {"code": first_text(e, CBC + "AllowanceChargeReasonCode"),
           "type": {"true": "charge", "1": "charge", "false": "allowance", "0": "allowance"}.get(indicator),
           "amount": amount(text(e.find(CBC + "Amount")), minor),
           "reason": first_text(e, CBC + "AllowanceChargeReason"),
           "rate": dec(text(e.find(CBC + "MultiplierFactorNumeric")))}
    if document:
        out["vat_code"] = VAT.get(text(e.find(CAC + "TaxCategory/" + CBC + "ID")))
    return out


def group(e, minor):
    cat = e.find(CAC + "TaxCategory")
    code = text(cat.find(CBC + "ID")) if cat is not None else None
    return {"vat_code": VAT.get(code),
            "vat_rate": None if code == "O" or cat is None else dec(text(cat.find(CBC + "Percent"))),
            "category": code or None,
            "taxable_amount": amount(text(e.find(CBC + "TaxableAmount")), minor),
            "tax_amount": amount(text(e.find(CBC + "TaxAmount")), minor),
            "exemption_reason": None if cat is None else first_text(cat, CBC + "TaxExemptionReason"),
            "exemption_reason_code": None if cat is None else first_text(cat, CBC + "TaxExemptionReasonCode")}


def line(e, minor):
    qe = e.find(CBC + "InvoicedQuantity")
    if qe is None:
        qe = e.find(CBC + "CreditedQuantity")
    q = text(qe)
    out = {"quantity": dec(q),
           "unit_code": None if qe is None else (qe.get("unitCode") or "").strip() or None,
           "item_name": first_text(e, CAC + "Item/" + CBC + "Name"),
           "item_description": first_text(e, CAC + "Item/" + CBC + "Description"),
           "item_identification": first_text(e, CAC + "Item/" + CAC + "StandardItemIdentification/" + CBC + "ID"),
           "product_code": first_text(e, CAC + "Item/" + CAC + "SellersItemIdentification/" + CBC + "ID")}
    price = dec(text(e.find(CAC + "Price/" + CBC + "PriceAmount")))
    base_text = text(e.find(CAC + "Price/" + CBC + "BaseQuantity"))
    base = dec(base_text)
    if price is None or (base_text is not None and base is None):
        unit = None
    elif base is None or base == 0 or base == 1:
        unit = price  # the stated text (§6: kept when the base quantity is 1)
    else:
        unit = (price / base).quantize(D("0.000001"), rounding=ROUND_HALF_UP)
    out["unit_price"] = unit
    cat = e.find(CAC + "Item/" + CAC + "ClassifiedTaxCategory")
    code = text(cat.find(CBC + "ID")) if cat is not None else None
    out["vat_code"] = VAT.get(code)
    rate = text(cat.find(CBC + "Percent")) if cat is not None else None
    out["vat_rate"] = None if code == "O" else dec(rate)
    out["total"] = amount(text(e.find(CBC + "LineExtensionAmount")), minor)
    if out["quantity"] is not None and unit is not None:
        out["subtotal"] = (out["quantity"] * unit).quantize(D(1).scaleb(-minor), rounding=ROUND_HALF_UP)
    out["tax_amount"] = None
    out["allowance_charges"] = [allowance(a, minor, False) for a in e.findall(CAC + "AllowanceCharge")]
    return out


def same(want, got):
    """Equal values, a decimal compared as a number (quantities, prices and rates echo
    their written scale; `compare` holds amounts to their text too, the padding)."""
    if isinstance(want, D):
        return isinstance(got, D) and want == got
    return want == got


AMOUNTS = {"tax_exclusive_amount", "tax_amount", "total_amount", "paid_amount",
           "remaining_amount", "total", "subtotal", "amount", "taxable_amount"}


def compare(name, want, got, diffs, counted):
    for key, w in want.items():
        if key in ("lines", "allowance_charges", "vat_breakdown"):
            g = got.get(key) or []
            counted[0] += 1
            if len(w) != len(g):
                diffs.append(f"{name}: {len(w)} {key}, the simulator {len(g)}")
                continue
            for i, (wl, gl) in enumerate(zip(w, g)):
                compare(f"{name} {key}[{i}]", wl, gl, diffs, counted)
            continue
        g = got.get(key)
        counted[0] += 1
        ok = same(w, g) and (key not in AMOUNTS or w is None or str(w) == str(g))
        if not ok:
            diffs.append(f"{name}: {key}: {w} by docs/peppol.md §4, the simulator {g}")


def supplier(root):
    """The supplier's EndpointID (scheme, value) and VAT number (the CompanyID of the
    first PartyTaxScheme whose TaxScheme is VAT), trimmed, or None."""
    party = root.find(CAC + "AccountingSupplierParty/" + CAC + "Party")
    if party is None:
        return None, None
    e = party.find(CBC + "EndpointID")
    endpoint = None
    if e is not None and (e.text or "").strip() and (e.get("schemeID") or "").strip():
        endpoint = (e.get("schemeID").strip().lower(), e.text.strip().lower())
    vat = None
    for t in party.findall(CAC + "PartyTaxScheme"):
        if text(t.find(CAC + "TaxScheme/" + CBC + "ID")) == "VAT" and first_text(t, CBC + "CompanyID"):
            vat = first_text(t, CBC + "CompanyID")
            break
    return endpoint, vat


def bare(vat):
    return re.sub(r"[ .\-]", "", vat).lower()


def relations_of(roots):
    """Relations that the documents' suppliers match (§4: by `peppol_id`, scheme and
    value case-insensitive, else by `vat_number` without spaces, dots and dashes): one
    of every other distinct endpoint, written in other cases, and one of every other
    distinct VAT number, written with dots and in lower case; kinds alternate. Returns
    them and, for a document, the relation it must name and its kind."""
    endpoints, vats = [], []
    for root in roots:
        endpoint, vat = supplier(root)
        if endpoint and endpoint not in endpoints:
            endpoints.append(endpoint)
        if vat and bare(vat) not in vats and bare(vat):
            vats.append(bare(vat))
    relations, by_endpoint, by_vat = [], {}, {}
    for i, (scheme, value) in enumerate(endpoints[::2]):
        kind = "company" if i % 2 == 0 else "contact"
        rid = f"rel-p{i}"
        relations.append({"id": rid, "kind": kind, "peppol_id": f"{scheme.upper()}:{value.swapcase()}"})
        by_endpoint[(scheme, value)] = (rid, kind)
    for i, v in enumerate(vats[1::2]):
        kind = "contact" if i % 2 == 0 else "company"
        rid = f"rel-v{i}"
        relations.append({"id": rid, "kind": kind, "vat_number": ".".join([v[:2], v[2:6], v[6:]]).strip(".")})
        by_vat[v] = (rid, kind)

    def expected(root):
        endpoint, vat = supplier(root)
        if endpoint in by_endpoint:
            return by_endpoint[endpoint]
        if vat and bare(vat) in by_vat:
            return by_vat[bare(vat)]
        return None, None

    return relations, expected


def documents(extra):
    """(name, XML text) of every UBL Invoice or CreditNote: the files whose root is
    one, and each one inside a test set."""
    for p, u in (("cac", CAC[1:-1]), ("cbc", CBC[1:-1])):
        ET.register_namespace(p, u)
    paths = sorted(glob.glob(os.path.join(ROOT, "tests/differential/examples/en16931/*.xml")))
    paths += sorted(glob.glob(os.path.join(ROOT, "tests/fixtures/peppol/*.xml")))
    paths += sorted(glob.glob(os.path.join(ROOT, "tests/cen/*-unit-UBL/*.xml")))
    for d in extra:
        paths += sorted(glob.glob(os.path.join(d, "*.xml")))
    for path in paths:
        rel = os.path.relpath(path, ROOT)
        try:
            raw = open(path, "rb").read()
            root = ET.fromstring(raw)
        except (OSError, ET.ParseError):
            continue
        if root.tag[1:].split("}")[0] in ROOTS:
            yield rel, raw.decode("utf-8"), root
            continue
        k = 0
        for e in root.iter():
            if e.tag[1:].split("}")[0] in ROOTS:
                k += 1
                yield f"{rel} #{k}", ET.tostring(e, encoding="unicode"), e


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--simulate")
    ap.add_argument("--extra", action="append", default=[])
    args = ap.parse_args()
    docs = list(documents(args.extra))
    if len(docs) < 100:
        print(f"FAIL: only {len(docs)} UBL documents found", file=sys.stderr)
        return 2
    relations, expected = relations_of([root for _, _, root in docs])
    scenario = {
        "today": "2026-12-01",
        "clients": [{"client_id": "app", "client_secret": "s", "permissions": ["c", "u"]}],
        "relations": relations,
        "journals": [
            {"id": "jrn-pi", "category": "purchases_invoice", "numbering": "yearly", "prefix": "PI", "default": True},
            {"id": "jrn-pc", "category": "purchases_credit", "numbering": "yearly", "prefix": "PC", "default": True},
        ],
        "received": [{"id": f"r{i}", "ubl": t} for i, (_, t, _) in enumerate(docs)],
        "requests": [{"client": "app", "method": "GET", "path": f"/documents/r{i}"}
                     for i in range(len(docs))],
    }
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(scenario, f)
    cmd = [args.simulate] if args.simulate else ["cargo", "run", "--quiet", "--example", "simulate", "--"]
    run = subprocess.run(cmd + [f.name], cwd=ROOT, capture_output=True, text=True)
    os.unlink(f.name)
    if run.returncode != 0:
        print(f"FAIL: the simulator exited {run.returncode}: {run.stderr[-2000:]}", file=sys.stderr)
        return 2
    answers = json.loads(run.stdout, parse_float=D, parse_int=D)["responses"]
    diffs, counted = [], [0]
    for (name, _, root), answer in zip(docs, answers):
        if answer.get("status") != 200:
            diffs.append(f"{name}: status {answer.get('status')}")
            continue
        want = view(root)
        want["relation_id"], want["relation_type"] = expected(root)
        want["journal_id"] = "jrn-pi" if want["type"] == "purchase_invoice" else "jrn-pc"
        compare(name, want, answer["body"], diffs, counted)
    for d in diffs:
        print(d)
    print(f"{len(docs)} documents, {counted[0]} fields compared, {len(diffs)} differences")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
