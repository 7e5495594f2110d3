#!/usr/bin/env python3
"""Run the official validator on every case of CEN's UBL unit tests.

usage: python3 tests/cen/official.py [--check]

Reads tests/cen/{Invoice,CreditNote}-unit-UBL/*.xml (CEN TC 434's unit tests,
copied unchanged from ConnectingEurope/eInvoicing-EN16931, see README.md), splits
each file into its cases, validates each case's UBL document with the Peppol
validation kit (EN 16931 CEN layer + OpenPeppol layer + UBL 2.1 XSD) in this one
process, and writes tests/cen/official.json and tests/cen/disagreements.md.
--check writes nothing and exits 1 when either file would change.

The kit is imported from $PEPPOL_KIT, by default <repo>/../shared/peppol
(pip install -r $PEPPOL_KIT/requirements.txt: saxonche + xmlschema, no Java).

Test file format (the VEFA validator's "testSet", namespace
http://difi.no/xsd/vefa/validator/1.0), exactly:

    <testSet configuration="tc434-ubl">
      <assert><scope>BR-01</scope> [<description>..</description>]</assert>
      <test [id=".."|number=".."]>
        <assert>
          [<description>..</description>]
          (<error [number="N"]>RULE</error> | <warning>RULE</warning>
           | <success>RULE</success>)+
        </assert>
        <Invoice xmlns="urn:oasis:...:Invoice-2" ...>...</Invoice>   (or CreditNote)
      </test>
      ...
    </testSet>

A case is one rule named by one <test>. Every <test> names one rule but two
(BR-29.xml and BR-30.xml, test 1: <success>BR-29</success><success>BR-30</success>),
which give two records each with the same file and case index. What the VEFA tester checks, which is
how CEN runs these files (run-tests-ubl.sh), for the rules in <scope> only:
  <error number="N">R</error>   R fails with flag "fatal" exactly N times (N=1 by default)
  <warning>R</warning>          R fails with flag "warning" exactly once
  <success>R</success>          R does not fail at all
Every other rule, and the XSD, is out of scope and ignored.

The bar of issue 30 is looser and is what "agree" means here:
  error   -> R fails with flag fatal at least once
  warning -> R fails with flag warning at least once
  success -> R does not fail
"exact" records the stricter VEFA check (firing count equal to N).

official.json: {"source": {repository, commit, paths, licence}, "kit": "...",
"totals": {files, tests, cases, error, warning, success, agree, disagree, exact,
xsd_refused, crashed}, "rules": {RULE: {error, warning, success: case counts,
disagree, in_kit: the kit has a rule with this id}}, "cases": [one object per
line, sorted by file, case, expect, rule]}; each case:
  file      "Invoice-unit-UBL/BR-01.xml" (relative to tests/cen)
  case      1-based index of the <test> in the file (the VEFA tester's "(n)")
  id        the <test>'s id or number attribute, or null
  span      [start, end): byte range of the UBL element in the file; the standalone
            document is '<?xml version="1.0" encoding="UTF-8"?>\\n' + file[start:end]
  rule      the rule id the case names;   expect  "error" | "warning" | "success"
  number    the firing count an error/warning case expects (1 unless number="N"), 0 for success
  in_scope  the rule is the file's <scope> (false only for the second <success> of
            BR-29.xml case 1 and BR-30.xml case 1, which the VEFA tester ignores)
  fired     sorted [rule, flag] pairs of the CEN layer's failed asserts (flag "fatal"
            or "warning"); the layer the tests are written for
  peppol    the same for the OpenPeppol layer (PEPPOL-EN16931-*, PEPPOL-COMMON-*, and the
            national NO-R-*, DK-R-*, SE-R-*, ... rules); no id is in both layers
  counts    {rule: number of failed asserts with that id}, both layers
  xsd       number of UBL 2.1 XSD errors (the engine does not check XSD)
  crash     null, or the layer whose stylesheet stopped on a dynamic error and Saxon's
            message (then that layer's asserts are missing from the record)
  agree     the official answer agrees with the test (issue 30's bar)
  exact     it also agrees with the VEFA count check
"""
import collections
import json
import os
import sys
import xml.etree.ElementTree as ET
import xml.parsers.expat

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
KIT = os.environ.get("PEPPOL_KIT") or os.path.join(os.path.dirname(REPO), "shared", "peppol")
FOLDERS = ("Invoice-unit-UBL", "CreditNote-unit-UBL")
VEFA = "http://difi.no/xsd/vefa/validator/1.0"
UBL_ROOTS = {
    "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2 Invoice",
    "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2 CreditNote",
}
DECL = b'<?xml version="1.0" encoding="UTF-8"?>\n'
# Where the copied files come from (README.md says the same).
SOURCE = {
    "repository": "https://github.com/ConnectingEurope/eInvoicing-EN16931",
    "commit": "b6c9e06a59812fb1a83585da40923b3678a649ad",
    "paths": ["test/Invoice-unit-UBL/*.xml", "test/CreditNote-unit-UBL/*.xml"],
    "licence": "EUPL-1.2 (LICENSE.txt)",
}


def ubl_spans(data):
    """Byte ranges [start, end) of the UBL root element of each <test>, in order.

    Expat reports the byte index where each start tag and end tag begins; the
    element ends at the '>' that closes its end tag (or its start tag if empty)."""
    p = xml.parsers.expat.ParserCreate(namespace_separator=" ")
    spans, stack = [], []

    def start(name, attrs):
        stack.append((name, p.CurrentByteIndex))

    def end(name):
        n, s = stack.pop()
        if n in UBL_ROOTS and len(stack) == 2 and stack[-1][0] == VEFA + " test":
            i = p.CurrentByteIndex
            if data.startswith(b"</", i):
                e = data.index(b">", i) + 1
            else:  # <Invoice .../>: the end event sits on the start tag
                e = data.index(b"/>", s) + 2
            spans.append((s, e))

    p.StartElementHandler, p.EndElementHandler = start, end
    p.Parse(data, True)
    return spans


def same_tree(a, b, root=True):
    return (a.tag == b.tag and a.attrib == b.attrib and (a.text or "") == (b.text or "")
            and (root or (a.tail or "") == (b.tail or "")) and len(a) == len(b)
            and all(same_tree(x, y, False) for x, y in zip(a, b)))


def cases_of(rel):
    """The cases of one test file: dicts with file, case, id, rule, expect, number, span, doc."""
    data = open(os.path.join(HERE, rel), "rb").read()
    root = ET.fromstring(data)
    v = "{%s}" % VEFA
    assert root.tag == v + "testSet", rel
    scope = [s.text.strip() for s in root.findall(f"{v}assert/{v}scope")]
    tests = root.findall(v + "test")
    spans = ubl_spans(data)
    assert len(spans) == len(tests), (rel, len(spans), len(tests))
    out = []
    for i, (test, (s, e)) in enumerate(zip(tests, spans), 1):
        docs = [c for c in test if c.tag != v + "assert"]
        assert len(docs) == 1, (rel, i)
        doc = DECL + data[s:e]
        # The slice must be the very element the test holds, namespaces included.
        assert same_tree(ET.fromstring(doc), docs[0]), (rel, i, "slice differs")
        named = 0
        for a in test.find(v + "assert"):
            kind = a.tag[len(v):]
            if kind == "description":
                continue
            assert kind in ("error", "warning", "success"), (rel, i, kind)
            assert set(a.attrib) <= {"number"}, (rel, i, a.attrib)
            out.append({
                "file": rel, "case": i, "id": test.get("id") or test.get("number"),
                "rule": a.text.strip(), "expect": kind,
                "number": int(a.get("number", 1)) if kind != "success" else 0,
                "in_scope": a.text.strip() in scope,
                "span": [s, e], "doc": doc,
            })
            named += 1
        assert named, (rel, i, "names no rule")
    return out


def rule_texts():
    """Each CEN / Peppol rule id with its layer, flag and message, read from the kit's stylesheets."""
    svrl, xsl = "{http://purl.oclc.org/dsdl/svrl}", "{http://www.w3.org/1999/XSL/Transform}"
    rules, seen = {}, {}
    for layer in ("CEN-EN16931-UBL", "PEPPOL-EN16931-UBL", "PEPPOL-EN16931-UBL-SB"):
        seen[layer] = set()
        tree = ET.parse(os.path.join(KIT, "xslt", layer + ".xslt"))
        for fa in tree.iter(svrl + "failed-assert"):
            attrs = {a.get("name"): "".join(a.itertext()).strip() for a in fa.findall(xsl + "attribute")}
            text = fa.find(svrl + "text")
            msg = " ".join("".join(text.itertext()).split()) if text is not None else ""
            seen[layer].add(attrs["id"])
            rules.setdefault(attrs["id"], (layer, attrs.get("flag", "fatal"), msg))
    # "fired" and "peppol" split the asserts by layer; "counts" may key them by id alone.
    assert not seen["CEN-EN16931-UBL"] & (seen["PEPPOL-EN16931-UBL"] | seen["PEPPOL-EN16931-UBL-SB"])
    return rules


def judge(c, counts, flags):
    hits = sum(v for (r, f), v in flags.items() if r == c["rule"] and
               f == ("fatal" if c["expect"] == "error" else c["expect"]))
    if c["expect"] == "success":
        fired = counts.get(c["rule"], 0)
        return fired == 0, fired == 0
    return hits >= 1, hits == c["number"] and counts.get(c["rule"], 0) == c["number"]


def validate(v, text, name):
    """The kit's report on one document. When a layer's stylesheet stops on a dynamic
    error (Saxon raises, e.g. on a fragment with an empty amount), v.validate gives no
    report at all: then each layer is run alone, the same way v.validate runs it, and
    the report says which layer stopped and why ("crash") and lists no assert for it."""
    import validate as kit
    try:
        return v.validate(text, name)
    except Exception as e:  # noqa: BLE001 - saxonche raises its own PySaxonApiError
        first, crash = e, []
    report = {"file": name, "xsd": [], "fatal": [], "warnings": []}
    schema = v.schemas[kit._root_name(text)]
    report["xsd"] = [kit._xsd_message(e) for e in schema.iter_errors(text)]
    peppol = "PEPPOL-EN16931-UBL-SB" if "selfbilling" in kit._customization(text) else "PEPPOL-EN16931-UBL"
    doc = v.proc.parse_xml(xml_text=text)
    for layer in ("CEN-EN16931-UBL", peppol):
        try:
            svrl = v.layers[layer].transform_to_string(xdm_node=doc)
        except Exception as e:  # noqa: BLE001
            crash.append(f"{layer}: {' '.join(str(e).split())}")
            continue
        for flag, item in kit._failed_asserts(v.proc, svrl):
            entry = dict(item, layer=layer)
            (report["warnings"] if flag == "warning" else report["fatal"]).append(entry)
    assert crash, f"{name}: v.validate raised but no layer does alone: {first}"
    report["crash"] = "; ".join(crash)
    return report


def run():
    sys.path.insert(0, KIT)
    from validate import Validator  # the official kit
    v = Validator()
    cases = []
    for folder in FOLDERS:
        for name in sorted(os.listdir(os.path.join(HERE, folder))):
            if name.endswith(".xml"):
                cases += cases_of(f"{folder}/{name}")
    reports = {}
    for c in cases:
        key = (c["file"], c["case"])
        if key not in reports:
            reports[key] = validate(v, c["doc"].decode("utf-8"), f"{c['file']} ({c['case']})")
        r = reports[key]
        c["crash"] = r.get("crash")
        flags = collections.Counter()
        layers = {"cen": set(), "peppol": set()}
        msgs = {}
        for flag, e in [("fatal", e) for e in r["fatal"]] + [("warning", e) for e in r["warnings"]]:
            flags[(e["rule"], flag)] += 1
            layers["cen" if e["layer"] == "CEN-EN16931-UBL" else "peppol"].add((e["rule"], flag))
            msgs.setdefault(e["rule"], e["text"])
        counts = collections.Counter()
        for (rid, _), n in flags.items():
            counts[rid] += n
        c["fired"] = sorted([list(k) for k in layers["cen"]])
        c["peppol"] = sorted([list(k) for k in layers["peppol"]])
        c["counts"] = dict(sorted(counts.items()))
        c["xsd"] = len(r["xsd"])
        c["message"] = msgs.get(c["rule"])
        c["agree"], c["exact"] = judge(c, counts, flags)
    return cases


def git_commit_of_kit():
    return "OpenPeppol release 2026.5 via phax/phive-rules 432f0e9a (see %s/README.md)" % os.path.relpath(KIT, REPO)


def write_json(cases, rules):
    files = sorted({c["file"] for c in cases})
    tests = sorted({(c["file"], c["case"]) for c in cases})
    tot = {
        "files": len(files),
        "tests": len(tests),
        "cases": len(cases),
        "error": sum(c["expect"] == "error" for c in cases),
        "warning": sum(c["expect"] == "warning" for c in cases),
        "success": sum(c["expect"] == "success" for c in cases),
        "agree": sum(c["agree"] for c in cases),
        "disagree": sum(not c["agree"] for c in cases),
        "exact": sum(c["exact"] for c in cases),
        "xsd_refused": len({(c["file"], c["case"]) for c in cases if c["xsd"]}),
        "crashed": len({(c["file"], c["case"]) for c in cases if c["crash"]}),
    }
    per_rule = collections.defaultdict(lambda: collections.Counter())
    for c in cases:
        pr = per_rule[c["rule"]]
        pr[c["expect"]] += 1
        pr["disagree"] += not c["agree"]
    rules_out = {}
    for rid in sorted(per_rule):
        d = dict(sorted(per_rule[rid].items()))
        d["in_kit"] = rid in rules
        rules_out[rid] = d
    keys = ("file", "case", "id", "rule", "expect", "number", "in_scope", "span", "fired", "peppol", "counts", "xsd", "crash", "agree", "exact")
    lines = ["{", '"source": ' + json.dumps(SOURCE, sort_keys=True) + ",",
             '"kit": ' + json.dumps(git_commit_of_kit()) + ",",
             '"totals": ' + json.dumps(tot) + ",",
             '"rules": {']
    lines += [f"  {json.dumps(r)}: {json.dumps(d, sort_keys=True)}," for r, d in rules_out.items()]
    lines[-1] = lines[-1].rstrip(",")
    lines += ["},", '"cases": [']
    ordered = sorted(cases, key=lambda c: (c["file"], c["case"], c["expect"], c["rule"]))
    lines += ["  " + json.dumps({k: c[k] for k in keys}, ensure_ascii=False) + "," for c in ordered]
    lines[-1] = lines[-1].rstrip(",")
    lines += ["]", "}"]
    return "\n".join(lines) + "\n", tot, rules_out


def write_md(cases, tot, rules_out, rules):
    out = ["# CEN UBL unit tests on which the official artefact differs from the test", "",
           "Written by `official.py` (do not edit by hand). Source: CEN TC 434's unit tests, "
           f"{SOURCE['repository']} at {SOURCE['commit']}; official answer: the Peppol validation kit "
           f"({git_commit_of_kit()}), whose CEN layer is CEN's EN16931-UBL-validation.xslt 1.3.16, the "
           "same release as the tests. A case agrees when the named rule fails (flag fatal) for `error`, "
           "fails with flag warning for `warning`, and does not fail for `success`. Where they differ, "
           "the engine follows the artefact.", "",
           "| files | tests (`<test>`) | cases (rule named) | error | warning | success | agree | disagree |",
           "|---|---|---|---|---|---|---|---|",
           f"| {tot['files']} | {tot['tests']} | {tot['cases']} | {tot['error']} | {tot['warning']} | "
           f"{tot['success']} | {tot['agree']} | {tot['disagree']} |", "",
           f"Also: {tot['exact']} of {tot['cases']} cases agree with the stricter count the VEFA tester "
           "checks (an `error` rule fires exactly `number` times, 1 by default); "
           f"{tot['xsd_refused']} of {tot['tests']} tests hold a UBL document the UBL 2.1 XSD refuses "
           "(the test documents are fragments; CEN's runner ignores the XSD).", ""]
    bad = [c for c in sorted(cases, key=lambda c: (c["file"], c["case"], c["rule"])) if not c["agree"]]
    if not bad:
        out += ["No case disagrees."]
    for c in bad:
        layer, flag, text = rules.get(c["rule"], (None, None, None))
        fired = c["counts"].get(c["rule"], 0)
        flags = sorted({f for r, f in c["fired"] if r == c["rule"]})
        out += [f"## {c['file']} case {c['case']}: {c['rule']}", "",
                f"- test expects: `{c['expect']}`" + (f" (number={c['number']})" if c["number"] > 1 else "")
                + (f", test id {c['id']}" if c["id"] else ""),
                f"- official validator: {c['rule']} " +
                (f"fired {fired} time(s), flag {'/'.join(flags)}: \"{c['message']}\"" if fired
                 else "did not fire" + (f" (the kit's rule, flag {flag}: \"{text}\")" if text
                                        else " (the kit has no rule with this id)")),
                f"- other rules that fired: {', '.join(f'{r}×{n}' for r, n in c['counts'].items() if r != c['rule']) or 'none'}",
                f"- XSD errors: {c['xsd']}", ""]
    return "\n".join(out).rstrip() + "\n"


def main(argv):
    cases = run()
    rules = rule_texts()
    text, tot, rules_out = write_json(cases, rules)
    md = write_md(cases, tot, rules_out, rules)
    outs = {os.path.join(HERE, "official.json"): text, os.path.join(HERE, "disagreements.md"): md}
    if "--check" in argv:
        stale = [p for p, t in outs.items() if not os.path.exists(p) or open(p, encoding="utf-8").read() != t]
        for p in stale:
            print("stale:", os.path.relpath(p, REPO))
        return 1 if stale else 0
    for p, t in outs.items():
        with open(p, "w", encoding="utf-8") as f:
            f.write(t)
    print(json.dumps(tot))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
