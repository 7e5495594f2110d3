#!/usr/bin/env python3
"""Import circles between the files of src/ (issue 18).

Each .rs file of src/ (unit-test files `tests*.rs` or under a `tests/` folder, and
`#[cfg(test)]` blocks, aside)
is a node; a path `crate::a::b::…`, `super::…` or `self::…` named in the file is an
edge to the deepest file module it goes through. A `use` of a parent module's
re-export (`super::X` where the parent only re-exports X from a sibling) counts as an
edge to the parent, so a module must import from the file that defines a thing.
An edge between a file and a module it lies inside (`simulator/endpoints.rs` and
`simulator/mod.rs`) is not counted: a `mod.rs` is its module's front, which declares
and re-exports the files below it, and they implement it (`impl Simulator` in
`endpoints.rs`). Every other edge counts, paths relative to a file's own module
(`scenario::load`) included. Prints every strongly connected component of more than
one file and exits 1 when there is one, or when a unit-test file is named otherwise
than `tests.rs` or a file under a `tests/` folder.
"""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else "src"


def module_of(path):
    rel = os.path.relpath(path, ROOT)[:-3].split(os.sep)
    if rel[-1] in ("mod", "lib"):
        rel = rel[:-1]
    return tuple(rel)


# One token of what is not code: a comment, a (raw, byte) string or a character
# literal, matched left to right so that a `//` inside a string or a `'"'` is read as
# what it is. A lifetime (`'a`) has no closing quote and is left alone.
NOT_CODE = re.compile(
    r"//[^\n]*"
    r"|/\*.*?\*/"
    r"|b?r(#*)\".*?\"\1"
    r"|b?\"(?:\\.|[^\"\\])*\""
    r"|b?'(?:\\.[^']{0,7}|[^'\\\n])'",
    re.S,
)


def strip(text):
    text = NOT_CODE.sub(lambda m: '""' if m.group(0).endswith('"') else " ", text)
    # unit tests inside a file: from `#[cfg(test)]` + `mod` to the end of the file
    m = re.search(r"#\[cfg\(test\)\]\s*(pub\s+)?mod\s+\w+\s*\{", text)
    if m:
        text = text[: m.start()]
    return text


def expand_use(tree):
    """`a::{b, c::{d, e}}` -> ['a::b', 'a::c::d', 'a::c::e']"""
    tree = tree.strip()
    i = tree.find("{")
    if i < 0:
        return [tree.split(" as ")[0].strip()]
    prefix = tree[:i]
    body = tree[i + 1 : tree.rfind("}")]
    parts, depth, cur = [], 0, ""
    for ch in body:
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += ch == "{"
        depth -= ch == "}"
        cur += ch
    parts.append(cur)
    out = []
    for p in parts:
        if p.strip():
            out += [prefix + q for q in expand_use(p)]
    return out


files = {}
for dirpath, _, names in os.walk(ROOT):
    for n in names:
        if n.endswith(".rs") and not n.startswith("tests") and "tests" not in dirpath.split(os.sep):
            p = os.path.join(dirpath, n)
            files[module_of(p)] = p
mods = set(files)


def resolve(me, path):
    segs = [s for s in path.replace(" ", "").split("::") if s]
    if not segs:
        return None
    if segs[0] == "crate":
        base, segs = (), segs[1:]
    elif me + (segs[0],) in mods:
        # a path relative to the file's own module: one of its child modules
        base = me
    elif segs[0] in ("super", "self"):
        base = me
        while segs and segs[0] in ("super", "self"):
            if segs[0] == "super":
                base = base[:-1]
            segs = segs[1:]
    else:
        return None
    best = base if base in mods and base != me else None
    cur = base
    for s in segs:
        cur = cur + (s,)
        if cur in mods:
            best = cur
        else:
            break
    return best


def nested(a, b):
    """Whether one of the two modules lies inside the other."""
    n = min(len(a), len(b))
    return a[:n] == b[:n]


edges = {m: set() for m in mods}
for m, p in files.items():
    text = strip(open(p, encoding="utf-8").read())
    paths = []
    for u in re.finditer(r"\buse\s+([^;]+);", text):
        paths += expand_use(u.group(1))
    paths += re.findall(r"(?<![\w:])(?:crate|super|self|[a-z_][a-z0-9_]*)(?:::\w+)+", text)
    for path in paths:
        t = resolve(m, path)
        if t is not None and t != m and t != () and not nested(m, t):
            edges[m].add(t)

# Tarjan's strongly connected components
index, low, on, stack, sccs, counter = {}, {}, set(), [], [], [0]
sys.setrecursionlimit(10000)


def visit(v):
    index[v] = low[v] = counter[0]
    counter[0] += 1
    stack.append(v)
    on.add(v)
    for w in edges[v]:
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            on.discard(w)
            comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            sccs.append(comp)


for v in sorted(mods):
    if v not in index:
        visit(v)

# Unit-test files are named one way (issue 29): `tests.rs` beside what it tests, or a
# file under a `tests/` folder; no other file of src/ is named like a test, so no test
# file reads as a module of the library.
misnamed = []
for dirpath, _, names in os.walk(ROOT):
    for n in names:
        path = os.path.join(dirpath, n)
        parts = os.path.relpath(path, ROOT).split(os.sep)
        if n.endswith(".rs") and n.startswith("test") and n != "tests.rs" and "tests" not in parts[:-1]:
            misnamed.append(os.path.relpath(path, ROOT))
for m in sorted(misnamed):
    print("test file not named tests.rs nor under tests/:", m)

name = lambda m: "/".join(m) or "lib"
for comp in sccs:
    comp = sorted(comp)
    print("circle:", ", ".join(name(m) for m in comp))
    for a in comp:
        for b in sorted(edges[a]):
            if b in comp:
                print(f"  {name(a)} -> {name(b)}")
print(f"{len(files)} files, {sum(len(e) for e in edges.values())} imports, {len(sccs)} circles")
sys.exit(1 if sccs or misnamed else 0)
