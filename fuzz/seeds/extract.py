#!/usr/bin/env python3
"""Rebuilds the simulator-derived seeds from the shared worked examples and the
crate's example scenarios. Run from anywhere: python3 fuzz/seeds/extract.py

- seeds/simulator/: the "scenario" member of every /work/shared/spec/examples/*.json
  (override with SPEC_EXAMPLES=dir) and every examples/scenarios/*.json, compact JSON;
- seeds/create_body/: every POST /documents body of those scenarios, prefixed with
  the variant byte '0' (live client, no send);
- seeds/patch_body/: every PATCH /documents/{id} body of those scenarios, prefixed
  with '0' (live, unlocked EUR invoice).
Hand-written seeds (names starting with "hand-") are left alone.
"""
import glob, hashlib, json, os

here = os.path.dirname(os.path.abspath(__file__))
crate = os.path.dirname(os.path.dirname(here))
spec = os.environ.get("SPEC_EXAMPLES", "/work/shared/spec/examples")

def write(target, name, data):
    d = os.path.join(here, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)

def compact(v):
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False).encode()

scenarios = []
for path in sorted(glob.glob(os.path.join(spec, "*.json"))):
    scenarios.append((os.path.basename(path)[:-5], json.load(open(path))["scenario"]))
for path in sorted(glob.glob(os.path.join(crate, "examples", "scenarios", "*.json"))):
    scenarios.append(("example-" + os.path.basename(path)[:-5], json.load(open(path))))

for name, sc in scenarios:
    write("simulator", name + ".json", compact(sc))
    for req in sc.get("requests", []):
        method = str(req.get("method", "")).upper()
        path = str(req.get("path", ""))
        if "body" not in req:
            continue
        body = compact(req["body"])
        digest = hashlib.sha1(body).hexdigest()[:10]
        if method == "POST" and path.split("?")[0] == "/documents":
            write("create_body", "ex-" + digest, b"0" + body)
        elif method == "PATCH" and path.startswith("/documents/"):
            write("patch_body", "ex-" + digest, b"0" + body)
