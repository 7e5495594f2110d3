#!/usr/bin/env python3
"""The UBL of every bundled scenario against the official validator (issue 9).

usage: scenarios.py [--kit DIR] [SCENARIO.json ...]   (default: examples/scenarios/*.json)

Runs each scenario with `cargo run --quiet --example simulate`, with a TICK and a
`GET /documents/{id}/ubl` of every document it holds added after its own requests
(compare.py --every-document), and, for every response body holding `xml`, checks that the schema reports no error and that the fatal rules
of the validator equal the rules of the body's `findings` (compare.py does the work).
"""
import glob
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402

if __name__ == "__main__":
    args = sys.argv[1:]
    if not any(a.endswith(".json") for a in args):
        repo = os.path.dirname(os.path.dirname(HERE))
        args += sorted(glob.glob(os.path.join(repo, "examples", "scenarios", "*.json")))
    sys.exit(compare.main(["--every-document"] + args))
