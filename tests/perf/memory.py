#!/usr/bin/env python3
"""Peak memory of the simulator (issue 12): the release `simulate` example on
generated scenarios, measured with GNU time (`/usr/bin/time -v`, "Maximum resident
set size"). Each figure is printed with its bar; the script exits 1 when any is
above its bar, or when it cannot measure.

    python3 tests/perf/memory.py            # builds the example, then measures
    python3 tests/perf/memory.py --no-build # uses target/release/examples/simulate

The cases (the bars of issue 12):
- 50 creates of a 500-line document: at most 60 MiB;
- 2000 delivery locations of one relation, and 2000 requests
  `GET /delivery-locations?relation_id=…` (each answers all 2000): at most 100 MiB;
- 200 creates of a 500-line document: at most 150 MiB.
The output (about 1 GB for the locations) goes to /dev/null: the simulator writes
each response as it is answered, so memory is the world's, not the output's.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# `--debug` measures the debug build (the one `cargo run --example simulate` builds):
# CI uses it, to spare a release build of every dependency; allocations are the same,
# only slower. Without it, the release build, which the figures in the README are of.
PROFILE = "debug" if "--debug" in sys.argv[1:] else "release"
EXAMPLE = os.path.join(ROOT, "target", PROFILE, "examples", "simulate")
GNU_TIME = "/usr/bin/time"
MIB = 1024 * 1024


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def ensure_gnu_time():
    """GNU time, installed with apt-get when missing and run as root."""
    if os.access(GNU_TIME, os.X_OK):
        return
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        print("== installing GNU time (apt-get install -y time)")
        subprocess.run(["apt-get", "update", "-qq"], check=False, stdout=subprocess.DEVNULL)
        subprocess.run(["apt-get", "install", "-y", "-qq", "time"], check=False,
                       stdout=subprocess.DEVNULL)
    if not os.access(GNU_TIME, os.X_OK):
        fail(f"GNU time is missing ({GNU_TIME}): install the package `time` "
             "(apt-get install -y time) to measure peak memory")


def base_scenario():
    return {
        "today": "2026-11-21",
        "now": "2026-11-21T08:30:00Z",
        "company": {
            "name": "Atelier Lumen BV", "vat_number": "BE0123456749",
            "enterprise_number": "0123456749", "peppol_id": "0208:0123456749",
            "iban": "BE68539007547034", "bic": "GKCCBEBB",
            "email": "billing@atelier-lumen.example", "currencies": ["EUR"],
            "address": {"street": "Meir", "street_number": "24", "postal_code": "2000",
                        "city": "Antwerpen", "country_code": "BE"},
        },
        "clients": [{"client_id": "app", "client_secret": "s3cret",
                     "permissions": ["c", "u"]}],
        "relations": [{
            "id": "rel-acme", "kind": "company", "peppol": True, "payment_terms": "30-df",
            "name": "Acme NV", "vat_number": "BE0412345614",
            "enterprise_number": "0412345614", "peppol_id": "0208:0412345614",
            "address": {"street": "Rue du Parc", "street_number": "14",
                        "postal_code": "4000", "city": "Liège", "country_code": "BE"},
        }],
        "journals": [{"id": "jrn-inv", "category": "sales_invoice", "numbering": "yearly",
                      "prefix": "INV", "default": True, "next": 1}],
        "requests": [],
    }


def create_body(n):
    """The 500-line document of the benches (benches/create.rs): 4 VAT groups, a
    line allowance every 5 lines, 5 document allowances/charges."""
    rates = [21, 12, 6, 0]
    lines = []
    for i in range(n):
        line = {
            "item_name": f"Item {i}",
            "quantity": f"{1 + i % 7}.{i % 10}",
            "unit_price": f"{3 + i % 90}.{i % 100:02d}",
            "unit_code": "C62",
        }
        if i % 4 == 3:
            line["vat_code"] = "intra_community"
        else:
            line["vat_rate"] = rates[i % 4]
        if i % 5 == 0:
            line["allowance_charges"] = [{"type": "allowance", "rate": "5"}]
        lines.append(line)
    return {
        "type": "sale_invoice",
        "relation_id": "rel-acme",
        "lines": lines,
        "allowance_charges": [
            {"type": "allowance", "amount": "10.00", "reason": "Loyalty"},
            {"type": "allowance", "rate": "2"},
            {"type": "charge", "amount": "4.95", "reason": "Shipping"},
            {"type": "charge", "rate": "1.5"},
            {"type": "allowance", "amount": "0.99"},
        ],
    }


def creates(count, lines):
    scenario = base_scenario()
    body = create_body(lines)
    scenario["requests"] = [
        {"client": "app", "method": "POST", "path": "/documents", "body": body}
        for _ in range(count)
    ]
    return scenario


def locations(count, reads):
    scenario = base_scenario()
    scenario["delivery_locations"] = [
        {"id": f"loc-{i}", "relation_id": "rel-acme", "name": f"Dock {i}",
         "address": {"street": "Rue du Parc", "street_number": str(i),
                     "postal_code": "4000", "city": "Liège", "country_code": "BE"},
         "identifier": f"54100000{i:05d}", "identifier_scheme": "0088"}
        for i in range(count)
    ]
    scenario["requests"] = [
        {"client": "app", "method": "GET", "path": "/delivery-locations?relation_id=rel-acme"}
        for _ in range(reads)
    ]
    return scenario


CASES = [
    ("50 creates of a 500-line document", lambda: creates(50, 500), 60),
    ("2000 locations, 2000 list requests", lambda: locations(2000, 2000), 100),
    ("200 creates of a 500-line document", lambda: creates(200, 500), 150),
]


def peak_rss_kib(path):
    """Runs the example on the scenario at `path`; its peak RSS in KiB."""
    with open(os.devnull, "wb") as devnull:
        proc = subprocess.run([GNU_TIME, "-v", EXAMPLE, path], stdout=devnull,
                              stderr=subprocess.PIPE, check=False)
    report = proc.stderr.decode("utf-8", "replace")
    if proc.returncode != 0:
        fail(f"the simulator failed on {path} (exit {proc.returncode}):\n{report[-2000:]}")
    found = re.search(r"Maximum resident set size \(kbytes\): (\d+)", report)
    if not found:
        fail(f"no peak memory in GNU time's report:\n{report[-2000:]}")
    return int(found.group(1))


def main():
    ensure_gnu_time()
    if "--no-build" not in sys.argv[1:]:
        flags = ["--release"] if PROFILE == "release" else []
        print(f"== cargo build {' '.join(flags)} --example simulate")
        subprocess.run(["cargo", "build", "--quiet", *flags, "--example", "simulate"],
                       cwd=ROOT, check=True)
    if not os.access(EXAMPLE, os.X_OK):
        fail(f"{EXAMPLE} is missing: cargo build --release --example simulate")
    above = []
    with tempfile.TemporaryDirectory() as work:
        for i, (name, make, bar_mib) in enumerate(CASES):
            path = os.path.join(work, f"case{i}.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(make(), f)
            kib = peak_rss_kib(path)
            os.remove(path)
            # Integer fixed point: MiB with one decimal.
            tenths = (kib * 10 + 512) // 1024
            verdict = "ok" if kib <= bar_mib * 1024 else "ABOVE THE BAR"
            print(f"{name}: peak RSS {tenths // 10}.{tenths % 10} MiB "
                  f"(bar {bar_mib} MiB) {verdict}")
            if kib > bar_mib * 1024:
                above.append(name)
    if above:
        fail("peak memory above the bar: " + "; ".join(above))


if __name__ == "__main__":
    main()
