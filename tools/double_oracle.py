#!/usr/bin/env python3
"""Writes tests/fixtures/double/oracle.txt: the IEEE 754 binary64 results the
crate's integer emulation of xs:double (src/en16931/double.rs) must give, computed by
Python's own floats (the crate computes no float; its unit test compares bit patterns
as integers).

Each line: a b add sub mul div mod digits — a and b decimal texts, then each result as
16 hex digits of its bit pattern, `nan`, or `-` where the result lies outside what the
emulation holds (a magnitude from 2^-92 to 2^95, or 0, or an infinity); `mod` is
fmod (the remainder of a division truncated toward zero, XPath's `mod`); digits are
the shortest significant digits of a (repr), `-` when a is not held or 0.

    python3 tools/double_oracle.py [COUNT] [SEED]    # defaults 2000 9
"""
import math
import os
import random
import struct
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(REPO, "tests", "fixtures", "double", "oracle.txt")


def decimal_text(m, s):
    sign = "-" if m < 0 else ""
    digits = str(abs(m)).rjust(s + 1, "0")
    return sign + (digits[:-s] + "." + digits[-s:] if s else digits)


def held(x):
    return x == 0 or math.isinf(x) or 2.0 ** -92 <= abs(x) < 2.0 ** 95


def bits(x):
    if math.isnan(x):
        return "nan"
    if not held(x):
        return "-"
    return "%016x" % struct.unpack("<Q", struct.pack("<d", x))[0]


def digits(x):
    if x == 0 or math.isinf(x) or not held(x):
        return "-"
    r = repr(abs(x)).lower()
    mantissa = r.split("e")[0].replace(".", "")
    return mantissa.strip("0") or "0"


def ops(a, b):
    out = []
    for f in (lambda: a + b, lambda: a - b, lambda: a * b,
              lambda: a / b if b else (math.copysign(math.inf, a) if a else math.nan),
              lambda: math.fmod(a, b) if b and not math.isinf(a) else math.nan):
        out.append(bits(f()))
    return out


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 9)
    pairs = [("0.1", "0.2"), ("0.1", "3"), ("4999.01", "1"), ("5001.01", "1"),
             ("-336555365646228.47", "-130199923107704.727"), ("9007199254740993", "2"),
             ("1", "0"), ("0", "0"), ("7", "-2"), ("-7", "2")]
    while len(pairs) < count:
        m = [rng.randint(-2 ** 63, 2 ** 63 - 1) % 10 ** 18 * rng.choice((1, -1)) for _ in range(2)]
        s = [rng.randint(0, 20) for _ in range(2)]
        pairs.append((decimal_text(m[0], s[0]), decimal_text(m[1], s[1])))
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8") as f:
        for ta, tb in pairs:
            a, b = float(ta), float(tb)
            f.write(" ".join([ta, tb] + ops(a, b) + [digits(a)]) + "\n")
    print(f"wrote {os.path.relpath(OUT, REPO)}: {len(pairs)} pairs")


if __name__ == "__main__":
    main()
