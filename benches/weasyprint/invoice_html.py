#!/usr/bin/env python3
"""Writes the HTML of an invoice from the JSON that `render_pdf --json` writes, for
WeasyPrint to render beside our PDF renderer (issue 17 (c), benches/README.md).

    python3 benches/weasyprint/invoice_html.py invoice.json invoice.html

The page shows what our PDF shows: the parties, number and dates, the lines' table
(its header repeated on each page, a line's allowances and charges under it), the
document's allowances and charges, the VAT breakdown, the totals, the payment details,
the legal notice and a footer with `n / N`. A4, DejaVu Sans (the font our PDF embeds,
from assets/fonts/), a simple CSS. Amounts are written as the JSON has them (their
text is kept: no float formatting).
"""

import html
import json
import sys
from pathlib import Path

FONTS = Path(__file__).resolve().parents[2] / "assets" / "fonts"

CSS = """
@font-face { font-family: "DejaVu Sans"; src: url("%(regular)s"); }
@font-face { font-family: "DejaVu Sans"; font-weight: bold; src: url("%(bold)s"); }
@page {
  size: A4; margin: 18mm 15mm 20mm 15mm;
  @bottom-left { content: "%(footer)s"; font: 7.5pt "DejaVu Sans"; color: #555; }
  @bottom-right { content: counter(page) " / " counter(pages); font: 7.5pt "DejaVu Sans"; }
}
body { font: 8.5pt "DejaVu Sans"; color: #111; }
h1 { text-align: right; font-size: 18pt; margin: 0 0 6mm 0; }
h2 { font-size: 10pt; margin: 6mm 0 2mm 0; }
.parties { display: flex; gap: 10mm; }
.parties div { flex: 1; }
.label { font-size: 7pt; font-weight: bold; color: #555; text-transform: uppercase; }
table { width: 100%%; border-collapse: collapse; }
th { text-align: left; font-size: 7.5pt; border-bottom: 0.6pt solid #333; padding: 1.5mm 1mm; }
td { padding: 1mm; vertical-align: top; }
.num { text-align: right; white-space: nowrap; }
tr.line td { border-top: 0.3pt solid #ccc; }
tr.sub td { color: #555; padding-top: 0; }
tr.sub td:first-child { padding-left: 4mm; }
thead { display: table-header-group; }
tr { page-break-inside: avoid; }
.meta td { width: 25%%; }
.totals { width: 50%%; margin-left: 50%%; }
.totals tr.strong td { font-weight: bold; border-top: 0.6pt solid #333; }
.notice { margin-top: 6mm; }
"""


def text(value):
    """A JSON value as shown: null as empty, everything else as written."""
    return "" if value is None else html.escape(str(value))


def address(p):
    street = " ".join(x for x in (p.get("street"), p.get("street_number")) if x)
    town = " ".join(x for x in (p.get("postal_code"), p.get("city")) if x)
    rows = [p.get("name"), street, town, p.get("country_code")]
    if p.get("vat_number"):
        rows.append("VAT: " + p["vat_number"])
    if p.get("enterprise_number"):
        rows.append("Enterprise no.: " + p["enterprise_number"])
    rows.append(p.get("email"))
    return "<br>".join(text(r) for r in rows if r)


def vat(code, rate):
    if code == "standard":
        return f"{rate} %"
    return code.replace("_", "-").capitalize()


def negate(amount):
    return amount[1:] if amount.startswith("-") else "-" + amount


def ac_label(ac):
    kind = "Discount" if ac["type"] == "allowance" else "Charge"
    if ac.get("reason"):
        kind += ": " + ac["reason"]
    if ac.get("rate") is not None:
        kind += f" ({ac['rate']} %)"
    return kind


def ac_amount(ac):
    return negate(ac["amount"]) if ac["type"] == "allowance" else ac["amount"]


def page(all_):
    doc, company, relation = all_["document"], all_["company"], all_["relation"]
    out = []
    w = out.append
    footer = f"{company.get('name', '')} · {company.get('vat_number', '')}"
    css = CSS % {
        "regular": (FONTS / "DejaVuSans.ttf").as_uri(),
        "bold": (FONTS / "DejaVuSans-Bold.ttf").as_uri(),
        "footer": footer.replace('"', '\\"'),
    }
    w(f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
      f"<title>Invoice {text(doc['document_number'])}</title><style>{css}</style></head><body>")
    w("<h1>Invoice</h1>")
    w("<div class='parties'>"
      f"<div><div class='label'>Supplier</div>{address(company)}</div>"
      f"<div><div class='label'>Customer</div>{address(relation)}</div></div>")
    w("<table class='meta'><tr><th>Number</th><th>Issue date</th><th>Due date</th>"
      "<th>Buyer reference</th></tr><tr>"
      f"<td>{text(doc['document_number'])}</td><td>{text(doc['issue_date'])}</td>"
      f"<td>{text(doc['due_date'])}</td><td>{text(doc['buyer_reference'])}</td></tr></table>")
    w(f"<p class='num'>Amounts in {text(doc['currency'])}</p>")
    w("<table class='lines'><thead><tr><th>Description</th><th class='num'>Quantity</th>"
      "<th>Unit</th><th class='num'>Unit price</th><th class='num'>VAT</th>"
      "<th class='num'>Total excl. VAT</th></tr></thead><tbody>")
    for line in doc["lines"]:
        name = text(line["item_name"])
        if line.get("item_description"):
            name += "<br>" + text(line["item_description"])
        w(f"<tr class='line'><td>{name}</td><td class='num'>{text(line['quantity'])}</td>"
          f"<td>{'pcs' if line.get('unit_code') == 'C62' else text(line.get('unit_code'))}</td>"
          f"<td class='num'>{text(line['unit_price'])}</td>"
          f"<td class='num'>{text(vat(line['vat_code'], line['vat_rate']))}</td>"
          f"<td class='num'>{text(line['total'])}</td></tr>")
        for ac in line.get("allowance_charges") or []:
            w(f"<tr class='sub'><td colspan='5'>{text(ac_label(ac))}</td>"
              f"<td class='num'>{text(ac_amount(ac))}</td></tr>")
    w("</tbody></table>")
    if doc.get("allowance_charges"):
        w("<h2>Allowances and charges</h2><table>")
        for ac in doc["allowance_charges"]:
            w(f"<tr><td>{text(ac_label(ac))}</td><td class='num'>{text(ac_amount(ac))}</td></tr>")
        w("</table>")
    w("<h2>VAT breakdown</h2><table><thead><tr><th>VAT rate</th><th class='num'>Taxable base</th>"
      "<th class='num'>VAT</th></tr></thead>")
    for g in doc["vat_breakdown"]:
        label = text(vat(g["vat_code"], g["vat_rate"]))
        if g.get("exemption_reason"):
            label += "<br>" + text(g["exemption_reason"])
        w(f"<tr><td>{label}</td><td class='num'>{text(g['taxable_amount'])}</td>"
          f"<td class='num'>{text(g['tax_amount'])}</td></tr>")
    w("</table><table class='totals'>")
    for label, key, strong in (
        ("Total excl. VAT", "tax_exclusive_amount", False),
        ("VAT", "tax_amount", False),
        ("Total incl. VAT", "total_amount", True),
        ("Paid", "paid_amount", False),
        ("Amount due", "remaining_amount", True),
    ):
        w(f"<tr{' class=strong' if strong else ''}><td>{label}</td>"
          f"<td class='num'>{text(doc[key])}</td></tr>")
    w("</table><h2>Payment</h2><table>")
    for label, value in (
        ("Structured communication", doc.get("payment_remittance")),
        ("IBAN", company.get("iban")),
        ("BIC", company.get("bic")),
        ("Terms", doc.get("payment_terms")),
    ):
        w(f"<tr><td>{label}</td><td>{text(value)}</td></tr>")
    w("</table>")
    if doc.get("legal_notice"):
        w(f"<p class='notice'>{text(doc['legal_notice'])}</p>")
    w("</body></html>\n")
    return "".join(out)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: invoice_html.py INVOICE.json OUT.html")
    with open(sys.argv[1], encoding="utf-8") as f:
        # Numbers keep their text (1.0 stays 1.0, 0.00 stays 0.00).
        all_ = json.load(f, parse_float=str, parse_int=str)
    Path(sys.argv[2]).write_text(page(all_), encoding="utf-8")


if __name__ == "__main__":
    main()
