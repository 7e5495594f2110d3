"""Runs scenarios through the simulator and checks every UBL answer against the
official validator: schema errors 0, and the crate's finding rules equal to the
validator's fatal rules.

usage: python3 tests/peppol/check_scenarios.py SCENARIO.json ...
A file holds one scenario, or a JSON list of scenarios. Needs the example built
(cargo build --example simulate) and the validation kit (../shared/peppol).
Prints one line per mismatch and closes with `N passed, M failed`; exit 1 on any.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
KIT = os.environ.get("PEPPOL_KIT", os.path.join(ROOT, "..", "shared", "peppol"))
sys.path.insert(0, KIT)
from validate import Validator  # noqa: E402

SIMULATE = os.environ.get("SIMULATE", os.path.join(ROOT, "target", "debug", "examples", "simulate"))


def main(paths):
    v = Validator()
    passed = failed = 0
    for path in paths:
        data = json.load(open(path, encoding="utf-8"))
        scenarios = data if isinstance(data, list) else [data]
        for k, sc in enumerate(scenarios):
            run = subprocess.run([SIMULATE, "-"], input=json.dumps(sc), capture_output=True, text=True)
            out = json.loads(run.stdout)
            if "error" in out:
                print(f"{path}[{k}]: malformed scenario: {out['error']}")
                failed += 1
                continue
            for i, r in enumerate(out["responses"]):
                body = r["body"]
                if not (isinstance(body, dict) and "xml" in body):
                    continue
                rep = v.validate(body["xml"])
                val = {e["rule"] for e in rep["fatal"]}
                mine = {f["rule"] for f in body["findings"]}
                if rep["xsd"] or val != mine:
                    failed += 1
                    print(f"{path}[{k}] response {i}: xsd {rep['xsd'][:2]} validator-only {sorted(val - mine)} crate-only {sorted(mine - val)}")
                else:
                    passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
