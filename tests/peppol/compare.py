#!/usr/bin/env python3
"""Compare the crate's Peppol findings with the official validator (issue 9).

usage: compare.py [--kit DIR] [--show N] [--every-document] PATH [PATH ...]

Each PATH is one of:
  - a directory: every NNNN.xml in it (a corpus of examples/peppol_corpus.rs), each
    with its NNNN.findings.json beside it;
  - an .xml file, with its .findings.json beside it;
  - a .json simulator OUTPUT (`{"responses": [...]}`): every response body holding
    `xml` is checked against that body's `findings`;
  - a .json simulator SCENARIO (`{"requests": [...]}`): it is run with
    `cargo run --quiet --example simulate` and its output checked as above; with
    --every-document, a TICK and a `GET /documents/{id}/ubl` of every document it
    holds (preloaded or created) are added after its own requests first.

For every UBL document: the schema must report no error, and the set of fatal rule
ids the validator reports must equal the set of `rule`s of the crate's findings.
The findings must also be well-formed (`rule`, `msg`, `loc`; sorted by rule then
loc). One validator for the whole run (the stylesheets compile once).

Prints a per-rule table (documents where only the crate, only the validator, or both
name the rule), the first mismatching documents with both sets, and a closing line
`N passed, M failed`. Exit status 0 when every document passes, 1 otherwise, 2 when
the kit cannot run.
"""
import glob
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def load_validator(kit):
    if not os.path.isfile(os.path.join(kit, "validate.py")):
        sys.stderr.write(f"compare.py: the Peppol kit is missing: no {kit}/validate.py\n")
        sys.exit(2)
    sys.path.insert(0, kit)
    try:
        from validate import Validator  # noqa: E402
        return Validator()
    except SystemExit:
        sys.stderr.write("compare.py: the Peppol kit cannot run (missing Python packages?)\n")
        sys.exit(2)
    except Exception as e:  # a broken kit must fail the check, never skip it
        sys.stderr.write(f"compare.py: the Peppol kit cannot run: {e!r}\n")
        sys.exit(2)


def loc_key(loc):
    # The crate's order: an index before a key; indices as numbers.
    return [(0, x, "") if isinstance(x, int) else (1, 0, str(x)) for x in loc]


def findings_problems(findings):
    """What is wrong with the shape of a findings list ([] when nothing)."""
    if not isinstance(findings, list):
        return ["findings is not a list"]
    problems = []
    for f in findings:
        if not (isinstance(f, dict) and isinstance(f.get("rule"), str)
                and isinstance(f.get("msg"), str) and isinstance(f.get("loc"), list)):
            problems.append(f"malformed finding {f!r}")
    if problems:
        return problems
    keys = [(f["rule"], loc_key(f["loc"])) for f in findings]
    if keys != sorted(keys):
        problems.append("findings not sorted by rule then loc")
    if len(set(json.dumps([f["rule"], f["loc"]]) for f in findings)) != len(findings):
        problems.append("a (rule, loc) pair repeated")
    return problems


def docs_of_output(label, output):
    """(name, xml, findings) for every response body of a simulator output with xml."""
    out = []
    for i, r in enumerate(output.get("responses", [])):
        body = r.get("body") if isinstance(r, dict) else None
        if isinstance(body, dict) and isinstance(body.get("xml"), str):
            out.append((f"{label}#responses[{i}]", body["xml"], body.get("findings")))
    return out


def simulate(path, scenario):
    proc = subprocess.run(
        ["cargo", "run", "--quiet", "--example", "simulate", "--", "-"],
        cwd=REPO, input=json.dumps(scenario), capture_output=True, text=True)
    try:
        return json.loads(proc.stdout)
    except json.JSONDecodeError:
        sys.stderr.write(f"compare.py: the simulator gave no JSON for {path}:\n{proc.stderr}\n")
        return {"error": "no output"}


def with_every_ubl(scenario, output):
    """The scenario with, after its own requests, a TICK and a GET of the UBL of every
    document it holds (preloaded or created live), so that none goes unchecked."""
    clients = [c for c in scenario.get("clients", []) if isinstance(c, dict)
               and c.get("environment", "live") == "live" and "client_id" in c]
    if not clients:
        return None
    ids = [d["id"] for d in scenario.get("documents", []) if isinstance(d, dict) and "id" in d]
    for r in output.get("responses", []):
        body = r.get("body") if isinstance(r, dict) else None
        if r.get("status") == 201 and isinstance(body, dict) and str(body.get("id", "")).startswith("doc-"):
            ids.append(body["id"])
    if not ids:
        return None
    extra = [{"method": "TICK"}] + [
        {"client": clients[0]["client_id"], "method": "GET", "path": f"/documents/{i}/ubl"}
        for i in dict.fromkeys(ids)]
    return dict(scenario, requests=list(scenario.get("requests", [])) + extra)


def run_scenario(path, scenario, every_document):
    output = simulate(path, scenario)
    if every_document and isinstance(output, dict) and "error" not in output:
        more = with_every_ubl(scenario, output)
        if more is not None:
            output = simulate(path, more)
    return output


def collect(paths, every_document=False):
    """Every (name, xml, findings) named by the paths; errors as a list of names."""
    docs, errors = [], []

    def xml_file(path):
        stem = path[:-4]
        try:
            with open(path, encoding="utf-8") as f:
                xml = f.read()
            with open(stem + ".findings.json", encoding="utf-8") as f:
                findings = json.load(f)
        except (OSError, json.JSONDecodeError) as e:
            errors.append(f"{path}: {e}")
            return
        docs.append((path, xml, findings))

    for p in paths:
        if os.path.isdir(p):
            for x in sorted(glob.glob(os.path.join(p, "*.xml"))):
                xml_file(x)
        elif p.endswith(".xml"):
            xml_file(p)
        elif p.endswith(".json"):
            try:
                with open(p, encoding="utf-8") as f:
                    value = json.load(f)
            except (OSError, json.JSONDecodeError) as e:
                errors.append(f"{p}: {e}")
                continue
            if isinstance(value, dict) and "requests" in value:
                value = run_scenario(p, value, every_document)
            if not isinstance(value, dict) or "error" in value:
                errors.append(f"{p}: the scenario is malformed: {value.get('error') if isinstance(value, dict) else value}")
                continue
            docs.extend(docs_of_output(p, value))
        else:
            errors.append(f"{p}: not a directory, .xml or .json")
    return docs, errors


def main(argv):
    kit = os.environ.get("PEPPOL_KIT") or os.path.join(os.path.dirname(REPO), "shared", "peppol")
    show = 8
    paths = []
    every_document = False
    args = iter(argv)
    for a in args:
        if a == "--every-document":
            every_document = True
        elif a == "--kit":
            kit = next(args, "")
        elif a == "--show":
            show = int(next(args, "8"))
        else:
            paths.append(a)
    if not paths:
        sys.stderr.write(__doc__)
        return 2

    t0 = time.monotonic()
    validator = load_validator(kit)
    t_compile = time.monotonic() - t0
    docs, errors = collect(paths, every_document)

    table = {}  # rule -> [crate only, validator only, both]
    failures = []
    passed = 0
    t1 = time.monotonic()
    for name, xml, findings in docs:
        report = validator.validate(xml, name)
        problems = [f"schema: {m}" for m in report["xsd"]]
        problems += findings_problems(findings)
        crate = {f["rule"] for f in findings if isinstance(f, dict) and "rule" in f} \
            if isinstance(findings, list) else set()
        official = {f["rule"] for f in report["fatal"]}
        for rule in crate | official:
            row = table.setdefault(rule, [0, 0, 0])
            row[0 if rule not in official else 1 if rule not in crate else 2] += 1
        if crate != official:
            problems.append("rules differ")
        if problems:
            texts = {f["rule"]: f["text"] for f in report["fatal"]}
            failures.append((name, crate, official, problems, texts))
        else:
            passed += 1
    t_validate = time.monotonic() - t1

    if table:
        print(f"{'rule':<28} {'crate-only':>10} {'validator-only':>14} {'both':>6}")
        for rule in sorted(table):
            c, v, b = table[rule]
            flag = "" if c == 0 and v == 0 else "  <-"
            print(f"{rule:<28} {c:>10} {v:>14} {b:>6}{flag}")
        print()
    for name, crate, official, problems, texts in failures[:show]:
        print(f"MISMATCH {name}")
        print(f"  crate:     {sorted(crate)}")
        print(f"  validator: {sorted(official)}")
        for p in problems:
            if p != "rules differ":
                print(f"  {p}")
        for rule in sorted(official - crate):
            print(f"  {rule}: {texts.get(rule, '')[:200]}")
    if len(failures) > show:
        print(f"... and {len(failures) - show} more mismatching documents")
    for e in errors:
        print(f"ERROR {e}")
    sys.stdout.flush()
    print(f"validator: compile {t_compile:.1f} s, {len(docs)} documents in {t_validate:.1f} s",
          file=sys.stderr)
    sys.stderr.flush()
    failed = len(failures) + len(errors)
    print(f"{passed} passed, {failed} failed")
    if not docs and not errors:
        print("no UBL document found in the paths given", file=sys.stderr)
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
