#!/usr/bin/env python3
"""Checks rendered PDFs against their documents (docs/files.md §2).

Usage: check.py DIR

For every DIR/X.pdf there is DIR/X.json:
    {"document": <the document JSON as the API answers it>,
     "company": <the company's party record: name, vat_number, ...>,
     "relation": <the relation's party record>,
     "language": "en" | "nl" | "fr" | "de"}

Each PDF must pass `qpdf --check`, have every font embedded and subset
(`pdffonts`), be read by `pdfinfo`, declare PDF/A-3B in its XMP metadata
(`pdfinfo -meta`), and its text (`pdftotext`, compared with all white space
removed) must contain the document number, the issue and due dates, each party's
name and VAT number (the supplier before the customer: in self-billing the
relation is the supplier), every line's total, every VAT group's taxable and tax
amounts, every exemption mention, the totals (excluding VAT, VAT, including VAT)
and the structured communication; amounts with a decimal comma in nl, fr and de.
A credit note must carry the VAT repayment mention of its language.

Prints one line per failure and a summary `N passed, M failed`; exits non-zero on
any failure. A missing tool is a failure, never a skip. Python 3 standard library
only.
"""

import json
import os
import re
import shutil
import subprocess
import sys

TOOLS = ("qpdf", "pdftotext", "pdffonts", "pdfinfo")

CREDIT_NOTE_MENTION = {
    "en": "VAT to be repaid to the State to the extent that it was originally deducted",
    "nl": "BTW terug te storten aan de Staat in de mate waarin ze oorspronkelijk in "
    "aftrek werd gebracht",
    "fr": "TVA à reverser à l'État dans la mesure où elle a été initialement déduite",
    "de": "Die Mehrwertsteuer ist an den Staat zurückzuzahlen, soweit sie "
    "ursprünglich abgezogen wurde",
}


def squeeze(text):
    """The text without any white space."""
    return re.sub(r"\s+", "", text)


def run(args):
    """Runs a tool: (exit code, stdout, stderr)."""
    done = subprocess.run(args, capture_output=True, check=False)
    return (
        done.returncode,
        done.stdout.decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
    )


def amount(value, language):
    """An amount as the PDF writes it: the JSON's digits, a comma in nl/fr/de."""
    text = str(value)
    return text.replace(".", ",") if language in ("nl", "fr", "de") else text


def check_file(pdf, failures):
    """Checks the file itself: qpdf, fonts, pdfinfo, PDF/A identification."""
    code, out, err = run(["qpdf", "--check", pdf])
    if code != 0:
        failures.append(f"qpdf --check failed ({code}): {(out + err).strip()[:300]}")
    code, out, err = run(["pdffonts", pdf])
    if code != 0:
        failures.append(f"pdffonts failed ({code}): {err.strip()[:300]}")
    else:
        rows = out.splitlines()[2:]
        if not rows:
            failures.append("pdffonts lists no font")
        for row in rows:
            # name type... encoding emb sub uni object ID: read from the right
            cols = row.split()
            if len(cols) < 7 or cols[-5] != "yes" or cols[-4] != "yes":
                failures.append(f"font not embedded and subset: {row.strip()}")
    code, out, err = run(["pdfinfo", pdf])
    if code != 0:
        failures.append(f"pdfinfo failed ({code}): {err.strip()[:300]}")
    code, out, err = run(["pdfinfo", "-meta", pdf])
    part = re.search(r"pdfaid:part(?:>|=\")\s*3\s*(?:<|\")", out)
    conformance = re.search(r"pdfaid:conformance(?:>|=\")\s*B\s*(?:<|\")", out)
    if code != 0 or not part or not conformance:
        failures.append("the XMP metadata does not declare PDF/A-3B")


def expected(sample):
    """What the text must contain: (what, text) pairs, in no particular order."""
    doc = sample["document"]
    lang = sample.get("language", "en")
    want = [
        ("document_number", doc.get("document_number")),
        ("issue_date", doc.get("issue_date")),
        ("due_date", doc.get("due_date")),
        ("payment_remittance", doc.get("payment_remittance")),
    ]
    for key in ("total_amount", "tax_amount", "tax_exclusive_amount"):
        want.append((key, amount(doc.get(key), lang)))
    for i, line in enumerate(doc.get("lines") or []):
        want.append((f"lines[{i}].total", amount(line.get("total"), lang)))
    for i, group in enumerate(doc.get("vat_breakdown") or []):
        for key in ("taxable_amount", "tax_amount"):
            want.append((f"vat_breakdown[{i}].{key}", amount(group.get(key), lang)))
        if group.get("exemption_reason"):
            want.append((f"vat_breakdown[{i}].exemption_reason", group["exemption_reason"]))
    for role in ("company", "relation"):
        for key in ("name", "vat_number"):
            value = (sample.get(role) or {}).get(key)
            if value:
                want.append((f"{role}.{key}", value))
    if str(doc.get("type", "")).endswith("credit_note"):
        want.append(("credit note mention", CREDIT_NOTE_MENTION.get(lang, "")))
    return [(what, str(text)) for what, text in want if text not in (None, "")]


def check_text(pdf, sample, failures):
    """Checks the text pdftotext reads back."""
    code, out, err = run(["pdftotext", "-enc", "UTF-8", pdf, "-"])
    if code != 0:
        failures.append(f"pdftotext failed ({code}): {err.strip()[:300]}")
        return
    text = squeeze(out)
    for what, value in expected(sample):
        if squeeze(value) not in text:
            failures.append(f"text lacks {what} {value!r}")
    doc = sample["document"]
    self_billing = str(doc.get("type", "")).startswith("purchase_")
    supplier, customer = ("relation", "company") if self_billing else ("company", "relation")
    s_name = squeeze(str((sample.get(supplier) or {}).get("name") or ""))
    c_name = squeeze(str((sample.get(customer) or {}).get("name") or ""))
    if s_name and c_name and s_name in text and c_name in text:
        if text.index(s_name) > text.index(c_name):
            failures.append(f"the supplier ({supplier}) does not come before the customer")


def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print("usage: check.py DIR", file=sys.stderr)
        return 2
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        print(f"FAIL: missing tools: {', '.join(missing)} (install poppler-utils and qpdf)")
        print("0 passed, 1 failed")
        return 1
    directory = argv[1]
    pdfs = sorted(f for f in os.listdir(directory) if f.endswith(".pdf"))
    passed = failed = 0
    if not pdfs:
        print(f"FAIL: no PDF in {directory}")
        failed += 1
    for name in pdfs:
        pdf = os.path.join(directory, name)
        failures = []
        try:
            with open(pdf[: -len(".pdf")] + ".json", encoding="utf-8") as f:
                # numbers kept as their text: 2.50 stays 2.50
                sample = json.load(f, parse_float=str, parse_int=str)
            check_file(pdf, failures)
            check_text(pdf, sample, failures)
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
            failures.append(f"cannot check: {e}")
        for failure in failures:
            print(f"FAIL {name}: {failure}")
        if failures:
            failed += 1
        else:
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
