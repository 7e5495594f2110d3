#!/usr/bin/env python3
"""The official validation artefacts as Rust data (issue 30).

usage: python3 tools/artefacts.py [--check] [--kit DIR]

Reads the three compiled Schematron stylesheets of the Peppol validation kit
(DIR/xslt/CEN-EN16931-UBL.xslt, PEPPOL-EN16931-UBL.xslt, PEPPOL-EN16931-UBL-SB.xslt;
DIR is --kit, else $PEPPOL_KIT, else ../shared/peppol from the repository's root) and
writes, from them alone:

  src/en16931/artefacts.rs  every assert of every layer in the artefacts' order (layer,
                            pattern mode, rule context, priority, test, id, flag, text
                            as the official validator reports it), the global and rule
                            variables the asserts use, and the stylesheets' functions;
  src/en16931/codes.rs      the code lists the crate's writer and findings use, each
                            read from the assert or Peppol variable that holds it, and
                            MESSAGES, the text of each fatal rule, read from the table.

--check writes nothing: it exits 1 when either file differs from what the artefacts
give (CI runs it), 0 when both are current. A missing kit, or an artefact whose shape
the script does not know, exits 2. Python 3.11, standard library only.
"""
import difflib
import os
import re
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARTEFACTS_RS = os.path.join("src", "en16931", "artefacts.rs")
CODES_RS = os.path.join("src", "en16931", "codes.rs")

XSL = "{http://www.w3.org/1999/XSL/Transform}"
SVRL = "{http://purl.oclc.org/dsdl/svrl}"

# The layers, in the order an access point applies them (validate.py), with their
# Rust names.
LAYERS = (
    ("cen", "Cen", "CEN-EN16931-UBL"),
    ("peppol", "Peppol", "PEPPOL-EN16931-UBL"),
    ("peppol_sb", "PeppolSb", "PEPPOL-EN16931-UBL-SB"),
)

# What the Schematron skeleton declares in every stylesheet, used by no assert.
SKELETON = {"archiveDirParameter", "archiveNameParameter", "fileNameParameter",
            "fileDirParameter", "document-uri"}


class ArtefactError(Exception):
    """An artefact this script cannot read as it expects."""


def normalize_space(s):
    """XPath's normalize-space: only space, tab, CR and LF are whitespace (a no-break
    space stays), as validate.py reports `normalize-space(svrl:text)`."""
    return re.sub(r"[ \t\r\n]+", " ", s).strip(" \t\r\n")


# ---------------------------------------------------------------- reading the XSLT

def read_layer(layer, path):
    """One stylesheet: its rules with their asserts, variables and functions."""
    with open(path, encoding="utf-8") as f:
        source = f.read()
    root = ET.fromstring(source.encode("utf-8"))
    top = [t for t in root.findall(XSL + "template") if t.get("match") == "/" and not t.get("mode")]
    if len(top) != 1:
        raise ArtefactError(f"{path}: no single root template")
    order = [a.get("mode") for a in top[0].iter(XSL + "apply-templates") if a.get("mode")]

    rules = []
    for t in root.findall(XSL + "template"):
        mode = t.get("mode") or ""
        if not re.fullmatch(r"M\d+", mode):
            continue
        fired = t.find(SVRL + "fired-rule")
        if fired is None:
            continue  # a pattern's default templates (text(), @*|node())
        context = t.get("match")
        if fired.get("context") != context:
            raise ArtefactError(f"{path}: fired-rule context differs from match {context!r}")
        lets = [(v.get("name"), binding(v, path)) for v in t.findall(XSL + "variable")]
        asserts = []
        for choose in t.findall(XSL + "choose"):
            when = choose.find(XSL + "when")
            failed = choose.find(XSL + "otherwise/" + SVRL + "failed-assert")
            if when is None or failed is None:
                raise ArtefactError(f"{path}: an xsl:choose of {context!r} is not an assert")
            attrs = {a.get("name"): "".join(a.itertext()) for a in failed.findall(XSL + "attribute")}
            text = failed.find(SVRL + "text")
            if text is None or len(text):
                raise ArtefactError(f"{path}: an assert of {context!r} has no plain svrl:text")
            asserts.append({
                # What the processor evaluates (the xsl:when); the SVRL's @test is the
                # same XPath with its whitespace normalised by the Schematron compiler.
                "test": when.get("test"),
                "id": attrs.get("id", ""),
                "flag": attrs.get("flag", "fatal"),
                "text": normalize_space("".join(text.itertext())),
            })
        if not asserts:
            raise ArtefactError(f"{path}: rule {context!r} has no assert")
        if t.findall(".//" + XSL + "if"):
            raise ArtefactError(f"{path}: rule {context!r} has a report (xsl:if)")
        rules.append({"mode": mode, "context": context, "priority": int(t.get("priority")),
                      "lets": lets, "asserts": asserts})
    modes = []
    for r in rules:
        if r["mode"] not in modes:
            modes.append(r["mode"])
    if modes != [m for m in order if m in modes]:
        raise ArtefactError(f"{path}: the patterns are not applied in the order they are written")

    globals_ = [(c.get("name"), "param" if c.tag == XSL + "param" else "variable", binding(c, path))
                for c in root if c.tag in (XSL + "param", XSL + "variable")
                and c.get("name") not in SKELETON]
    functions = [read_function(c, path) for c in root if c.tag == XSL + "function"]
    every_global = {c.get("name") for c in root if c.tag in (XSL + "param", XSL + "variable")}
    for fn in functions:
        free = function_refs(fn) & every_global
        if free:
            # The engine binds only a function's parameters and variables in its body.
            raise ArtefactError(f"{path}: function {fn['name']} reads the global ${min(free)}")
    return {"layer": layer, "rules": rules, "globals": used_globals(globals_, rules),
            "functions": functions}


def binding(el, path):
    """An xsl:variable's or xsl:param's value: its select, else its text."""
    if el.get("select") is not None:
        return el.get("select")
    if len(el):
        raise ArtefactError(f"{path}: variable {el.get('name')!r} is built by instructions")
    return "".join(el.itertext())


# ---------------------------------------------------------------- the functions
#
# Each xsl:function is generated as data, which the engine evaluates as XSLT does
# (src/ubl/xpath/eval.rs): its parameters (name, `as` type), then its body, a list of
# the instructions the stylesheets use in functions: xsl:variable (name, `as`, and the
# XPath of its value), xsl:sequence select, and xsl:choose (each xsl:when's test and
# body, then the xsl:otherwise body; only u:checkSEOrgnr uses it). Every function of
# the kit is so written: none keeps a hand-written version in the engine. Any other
# instruction, or a shape not listed here, is an ArtefactError (the script must then
# learn it, and the engine with it).

def read_function(el, path):
    name = el.get("name")
    where = f"{path}: function {name}"
    unknown = set(el.attrib) - {"name", "as"}
    if unknown:
        raise ArtefactError(f"{where}: attribute {min(unknown)!r} not read")
    params, body_at = [], 0
    for child in el:
        if child.tag != XSL + "param":
            break
        if set(child.attrib) - {"name", "as"} or len(child) or (child.text or "").strip():
            raise ArtefactError(f"{where}: parameter {child.get('name')!r} has a default")
        params.append((child.get("name"), child.get("as")))
        body_at += 1
    if (el.text or "").strip():
        raise ArtefactError(f"{where}: text in the body")
    return {"name": name, "as": el.get("as"), "params": params,
            "body": read_body(list(el)[body_at:], where)}


def read_body(children, where):
    """A sequence constructor: the instructions, in order."""
    body = []
    for c in children:
        if (c.tail or "").strip():
            raise ArtefactError(f"{where}: text in the body")
        if c.tag == XSL + "variable":
            body.append(("variable", c.get("name"), c.get("as"), variable_value(c, where)))
        elif c.tag == XSL + "sequence":
            if set(c.attrib) != {"select"} or len(c) or (c.text or "").strip():
                raise ArtefactError(f"{where}: an xsl:sequence other than select=")
            body.append(("sequence", c.get("select")))
        elif c.tag == XSL + "choose":
            body.append(read_choose(c, where))
        else:
            raise ArtefactError(f"{where}: the instruction {c.tag} is not read")
    return body


def read_choose(el, where):
    whens, otherwise = [], []
    if (el.text or "").strip():
        raise ArtefactError(f"{where}: text in an xsl:choose")
    for i, c in enumerate(el):
        if (c.tail or "").strip():
            raise ArtefactError(f"{where}: text in an xsl:choose")
        if c.tag == XSL + "when" and not otherwise and set(c.attrib) == {"test"}:
            if (c.text or "").strip():
                raise ArtefactError(f"{where}: text in an xsl:when")
            whens.append((c.get("test"), read_body(list(c), where)))
        elif c.tag == XSL + "otherwise" and i == len(el) - 1 and not c.attrib:
            if (c.text or "").strip():
                raise ArtefactError(f"{where}: text in an xsl:otherwise")
            otherwise = read_body(list(c), where)
        else:
            raise ArtefactError(f"{where}: an xsl:choose of another shape")
    if not whens:
        raise ArtefactError(f"{where}: an xsl:choose without xsl:when")
    return ("choose", whens, otherwise)


def variable_value(el, where):
    """The XPath of a function variable's value: its select; a text content (without
    `as`, a text node in a temporary tree, whose string value is the text: the
    functions only read it as a string) as a string literal; the one xsl:sequence of a
    variable with `as` (its value, converted to that type) as its select."""
    name = el.get("name")
    if set(el.attrib) - {"name", "as", "select"}:
        raise ArtefactError(f"{where}: variable {name!r} has an attribute not read")
    if el.get("select") is not None:
        if len(el) or (el.text or "").strip():
            raise ArtefactError(f"{where}: variable {name!r} has a select and a content")
        return el.get("select")
    if not len(el):
        return "'" + (el.text or "").replace("'", "''") + "'"
    only = list(el)
    if (el.get("as") is None or len(only) != 1 or only[0].tag != XSL + "sequence"
            or (el.text or "").strip() or (only[0].tail or "").strip()
            or set(only[0].attrib) != {"select"} or len(only[0])):
        raise ArtefactError(f"{where}: variable {name!r} is built by instructions")
    return only[0].get("select")


def body_expressions(body):
    for ins in body:
        if ins[0] == "variable":
            yield ins[3]
        elif ins[0] == "sequence":
            yield ins[1]
        else:
            for test, inner in ins[1]:
                yield test
                yield from body_expressions(inner)
            yield from body_expressions(ins[2])


def body_names(body):
    for ins in body:
        if ins[0] == "variable":
            yield ins[1]
        elif ins[0] == "choose":
            for _, inner in ins[1]:
                yield from body_names(inner)
            yield from body_names(ins[2])


def function_refs(fn):
    """The variables a function's XPath reads that it does not bind itself (parameter,
    variable, or a for/some/every range variable)."""
    refs, bound = set(), {p for p, _ in fn["params"]} | set(body_names(fn["body"]))
    for text in body_expressions(fn["body"]):
        refs.update(re.findall(r"\$([A-Za-z_][\w.-]*)", text))
        bound.update(re.findall(r"\$([A-Za-z_][\w.-]*)\s+in\b", text))
    return refs - bound


def used_globals(globals_, rules):
    """The global variables and parameters the asserts use, directly or through a rule
    variable or another global, in the stylesheet's order."""
    values = {n: v for n, _, v in globals_}
    refs = re.compile(r"\$([A-Za-z_][\w.-]*)")
    todo = set()
    for r in rules:
        todo.update(refs.findall(r["context"]))
        for _, v in r["lets"]:
            todo.update(refs.findall(v))
        for a in r["asserts"]:
            todo.update(refs.findall(a["test"]))
    used = set()
    while todo:
        n = todo.pop()
        if n in values and n not in used:
            used.add(n)
            todo.update(refs.findall(values[n]))
    return [g for g in globals_ if g[0] in used]


def read_kit(kit):
    xslt = os.path.join(kit, "xslt")
    layers = []
    for layer, _, name in LAYERS:
        path = os.path.join(xslt, name + ".xslt")
        if not os.path.isfile(path):
            raise FileNotFoundError(path)
        layers.append(read_layer(layer, path))
    return layers


def kit_release(kit):
    """The release the kit's README names ("OpenPeppol release 2026.5"), if any."""
    try:
        with open(os.path.join(kit, "README.md"), encoding="utf-8") as f:
            m = re.search(r"OpenPeppol release ([0-9][\w.]*)", f.read())
    except OSError:
        return None
    return m.group(1) if m else None


# ---------------------------------------------------------------- Rust output

def rust_str(s):
    """A Rust string literal: quotes, backslashes and control characters escaped, and
    any space other than U+0020 (a no-break space) written as an escape to be seen."""
    out = []
    for ch in s:
        if ch in "\\\"":
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F or (ch.isspace() and ch != " ") or ch in "\u200b\ufeff":
            out.append("\\u{%x}" % ord(ch))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def rust_key(s):
    """Rust's order of &str (bytes), for lists looked up by binary search."""
    return s.encode("utf-8")


def fill(items, indent="    ", width=99):
    """rustfmt's layout of an array of short items (max_width 100): as many a line as
    fit in `width` columns, the comma after the last included."""
    lines, line = [], ""
    for it in items:
        piece = it + ","
        if line and len(indent) + len(line) + 1 + len(piece) > width:
            lines.append(indent + line)
            line = piece
        else:
            line = piece if not line else line + " " + piece
    if line:
        lines.append(indent + line)
    return lines


ARTEFACTS_HEAD = '''\
//! Every assert of the official validation artefacts (OpenPeppol release {release}), in
//! their order: the CEN EN 16931 UBL rules (`Cen`), the Peppol BIS Billing 3.0 rules
//! (`Peppol`) and the Peppol self-billing rules (`PeppolSb`), each a compiled
//! Schematron stylesheet of the kit `../shared/peppol/xslt`. Also the global and rule
//! variables the asserts use, and the stylesheets' own functions (their parameters and
//! the instructions of their bodies, as data).
//!
//! Generated by `tools/artefacts.py` from the artefacts: do not edit by hand
//! (`python3 tools/artefacts.py` writes it, `--check` tells whether it is current).
//!
//! How the stylesheets apply them: each layer runs its patterns in the order of the
//! table (`pattern`, the XSLT mode); a pattern walks the document, and on each node
//! the one rule of the pattern with the highest `priority` whose `context` (an XSLT
//! match pattern) matches the node fires: all its asserts are tested there, and no
//! other rule of that pattern is tried on that node. An assert whose `test` is false
//! is a failed assert: `flag` tells fatal from warning, `text` is what the validator
//! reports (the `svrl:text`, XPath's `normalize-space` applied).
#![allow(dead_code, reason = "the rule engine of issue 30 reads it as it lands")]

use Flag::{Fatal, Warning};
use Instruction::{Choose, Sequence, Var};
use Layer::{Cen, Peppol, PeppolSb};

/// A stylesheet of the kit: which rules apply to a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layer {
    /// `CEN-EN16931-UBL.xslt`: every document.
    Cen,
    /// `PEPPOL-EN16931-UBL.xslt`: a document whose `cbc:CustomizationID` does not name
    /// selfbilling.
    Peppol,
    /// `PEPPOL-EN16931-UBL-SB.xslt`: a document whose `cbc:CustomizationID` names
    /// selfbilling.
    PeppolSb,
}

/// What a failed assert means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flag {
    /// An error: the document would be refused.
    Fatal,
    /// Informative only.
    Warning,
}

/// One assert, with its rule.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Assert {
    /// The stylesheet that holds it.
    pub(crate) layer: Layer,
    /// Its pattern: the XSLT mode (`M11`, …) the stylesheet compiled it into.
    pub(crate) pattern: &'static str,
    /// Its rule's context: the template's `match`, an XSLT pattern.
    pub(crate) context: &'static str,
    /// Its rule's priority: unique in a pattern; of the rules of a pattern that match
    /// a node, only the highest fires.
    pub(crate) priority: u16,
    /// The XPath 2.0 test, as the stylesheet evaluates it; the assert fails when false.
    pub(crate) test: &'static str,
    /// The rule id (`BR-01`).
    pub(crate) id: &'static str,
    /// Fatal or warning.
    pub(crate) flag: Flag,
    /// The text as the official validator reports it, `[ID]-` prefix included.
    pub(crate) text: &'static str,
}

/// A variable or parameter the asserts read: a global one of a stylesheet (`rule` is
/// `None`), or one its rule binds before testing its asserts (`rule` is the pattern
/// and priority of that rule, and the rule's variables come in their order).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Variable {
    /// The stylesheet that declares it.
    pub(crate) layer: Layer,
    /// The rule that binds it, as (pattern, priority); `None` for a global.
    pub(crate) rule: Option<(&'static str, u16)>,
    /// Its name, without `$`.
    pub(crate) name: &'static str,
    /// Its XPath (the `select`), or its text when it has no `select`.
    pub(crate) value: &'static str,
}

/// An `xsl:function` of a stylesheet, as data: the engine evaluates it as XSLT does
/// (`crate::ubl::xpath::eval`), no hand-written version of it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Function {
    /// The stylesheet that defines it.
    pub(crate) layer: Layer,
    /// Its name (`u:gln`).
    pub(crate) name: &'static str,
    /// The type of its result (its `as`); `None` when not declared (any sequence).
    pub(crate) result: Option<&'static str>,
    /// Its parameters, in order.
    pub(crate) params: &'static [Param],
    /// Its body: the instructions that give its result.
    pub(crate) body: &'static [Instruction],
}

/// A parameter of a [`Function`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Param {
    /// Its name, without `$`.
    pub(crate) name: &'static str,
    /// Its declared type (`xs:string?`); `None` when not declared (any sequence).
    pub(crate) ty: Option<&'static str>,
}

/// An instruction of a function's body.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Instruction {
    /// `xsl:variable`: bound for the instructions after it. Its value is the XPath
    /// `select`: the variable's own `select`, its text content as a string literal, or
    /// the `select` of the one `xsl:sequence` it holds (with `ty`).
    Var {
        /// Its name, without `$`.
        name: &'static str,
        /// Its declared type (`as`), if any.
        ty: Option<&'static str>,
        /// The XPath of its value.
        select: &'static str,
    },
    /// `xsl:sequence select`: adds the value of the XPath to the result.
    Sequence(&'static str),
    /// `xsl:choose`: the body of the first `xsl:when` whose test is true, else the
    /// `xsl:otherwise` body (empty when there is none).
    Choose {
        /// Each `xsl:when`: its test and its body.
        when: &'static [(&'static str, &'static [Instruction])],
        /// The `xsl:otherwise` body.
        otherwise: &'static [Instruction],
    },
}
'''


def rust_option(s):
    return "None" if s is None else f"Some({rust_str(s)})"


def rust_body(body, indent):
    """A function body as a Rust slice of `Instruction`s, one a line."""
    if not body:
        return "&[]"
    inner = indent + "    "
    lines = ["&["]
    for ins in body:
        if ins[0] == "variable":
            _, name, ty, select = ins
            lines.append(f"{inner}Var {{ name: {rust_str(name)}, ty: {rust_option(ty)}, "
                         f"select: {rust_str(select)} }},")
        elif ins[0] == "sequence":
            lines.append(f"{inner}Sequence({rust_str(ins[1])}),")
        else:
            _, whens, otherwise = ins
            lines.append(f"{inner}Choose {{")
            lines.append(f"{inner}    when: &[")
            for test, b in whens:
                lines.append(f"{inner}        ({rust_str(test)}, "
                             + rust_body(b, inner + "        ") + "),")
            lines.append(f"{inner}    ],")
            lines.append(f"{inner}    otherwise: " + rust_body(otherwise, inner + "    ") + ",")
            lines.append(f"{inner}}},")
    lines.append(indent + "]")
    return "\n".join(lines)


def artefacts_rs(layers, release):
    out = [ARTEFACTS_HEAD.replace("{release}", release or "unknown")]
    rust_layer = {l: r for l, r, _ in LAYERS}
    flags = {"fatal": "Fatal", "warning": "Warning"}
    counts = ", ".join(f"{rust_layer[L['layer']]} {sum(len(r['asserts']) for r in L['rules'])}"
                       for L in layers)
    out.append(f"\n/// Every assert of the three layers, in the artefacts' order ({counts}).\n")
    out.append("#[rustfmt::skip]\npub(crate) static ASSERTS: &[Assert] = &[\n")
    for L in layers:
        for r in L["rules"]:
            for a in r["asserts"]:
                if a["flag"] not in flags:
                    raise ArtefactError(f"{a['id']}: flag {a['flag']!r}")
                out.append(
                    f"    Assert {{ layer: {rust_layer[L['layer']]}, pattern: {rust_str(r['mode'])}, "
                    f"context: {rust_str(r['context'])}, priority: {r['priority']}, "
                    f"test: {rust_str(a['test'])}, id: {rust_str(a['id'])}, "
                    f"flag: {flags[a['flag']]}, text: {rust_str(a['text'])} }},\n")
    out.append("];\n")

    out.append("\n/// The global variables and parameters the asserts use, then each rule's own, per\n"
               "/// layer, in the stylesheets' order.\n")
    out.append("#[rustfmt::skip]\npub(crate) static VARIABLES: &[Variable] = &[\n")
    for L in layers:
        for name, _, value in L["globals"]:
            out.append(f"    Variable {{ layer: {rust_layer[L['layer']]}, rule: None, "
                       f"name: {rust_str(name)}, value: {rust_str(value)} }},\n")
        for r in L["rules"]:
            for name, value in r["lets"]:
                out.append(f"    Variable {{ layer: {rust_layer[L['layer']]}, "
                           f"rule: Some(({rust_str(r['mode'])}, {r['priority']})), "
                           f"name: {rust_str(name)}, value: {rust_str(value)} }},\n")
    out.append("];\n")

    out.append("\n/// The functions the stylesheets define, per layer, in their order.\n")
    out.append("#[rustfmt::skip]\npub(crate) static FUNCTIONS: &[Function] = &[\n")
    for L in layers:
        for fn in L["functions"]:
            out.append("    Function {\n")
            out.append(f"        layer: {rust_layer[L['layer']]}, name: {rust_str(fn['name'])}, "
                       f"result: {rust_option(fn['as'])},\n")
            params = ", ".join(f"Param {{ name: {rust_str(n)}, ty: {rust_option(t)} }}"
                               for n, t in fn["params"])
            out.append(f"        params: &[{params}],\n")
            out.append("        body: " + rust_body(fn["body"], "        ") + ",\n")
            out.append("    },\n")
    out.append("];\n")
    return "".join(out)


# The code lists of codes.rs: (name, doc, where the artefacts hold it). A list is read
# from the inline list of an assert's test (layer, rule id, which list of the test) or
# from a Peppol global variable (`tokenize('A B C', '\s')`).
CODE_LISTS = (
    ("COUNTRIES", ("BR-CL-14: ISO 3166-1 alpha-2 country codes as the CEN list has them. BR-CO-09's",
                   "VAT number prefixes are these and `EL`."), ("assert", "cen", "BR-CL-14", 0)),
    ("EAS", ("BR-CL-25: the CEF EAS electronic address schemes.",), ("assert", "cen", "BR-CL-25", 0)),
    ("ICD", ("BR-CL-26: the ISO 6523 ICD schemes.",), ("assert", "cen", "BR-CL-26", 0)),
    ("UNITS", ("BR-CL-23: UN/ECE Recommendation 20 and 21 unit codes.",), ("assert", "cen", "BR-CL-23", 0)),
    ("CEN_CURRENCIES", ("BR-CL-03 and BR-CL-04: ISO 4217 currency codes as the CEN list has them.",),
     ("assert", "cen", "BR-CL-04", 0)),
    ("CEN_CHARGE_CODES", ("BR-CL-20: UNCL 7161 charge reason codes as the CEN list has them.",),
     ("assert", "cen", "BR-CL-20", 0)),
    ("CEN_ALLOWANCE_CODES", ("BR-CL-19: UNCL 5189 allowance reason codes as the CEN list has them.",),
     ("assert", "cen", "BR-CL-19", 0)),
    ("PEPPOL_CURRENCIES", ("PEPPOL-EN16931-CL007: ISO 4217 as the Peppol list has it.",),
     ("variable", "peppol", "ISO4217")),
    ("PEPPOL_ALLOWANCE_CODES", ("PEPPOL-EN16931-CL002: the Peppol subset of UNCL 5189.",),
     ("variable", "peppol", "UNCL5189")),
    ("PEPPOL_CHARGE_CODES", ("PEPPOL-EN16931-CL003: UNCL 7161 as the Peppol list has it.",),
     ("variable", "peppol", "UNCL7161")),
    ("PEPPOL_EAS", ("PEPPOL-EN16931-CL008: the Peppol electronic address schemes.",),
     ("variable", "peppol", "eaid")),
)

# An inline list: contains(' A B C ', concat(' ', normalize-space(...), ' ')), with
# or without spaces around the arguments.
INLINE_LIST = re.compile(r"contains\(\s*'([^']*)'\s*,\s*concat\(\s*' '\s*,")
TOKENIZED = re.compile(r"\s*tokenize\(\s*'([^']*)'\s*,\s*'\\s'\s*\)\s*")


def code_list(layers, source):
    by_layer = {L["layer"]: L for L in layers}
    if source[0] == "assert":
        _, layer, rule, index = source
        tests = [a["test"] for r in by_layer[layer]["rules"] for a in r["asserts"] if a["id"] == rule]
        lists = {tuple(INLINE_LIST.findall(t)[index].split()) for t in tests
                 if len(INLINE_LIST.findall(t)) > index}
        if len(lists) != 1:
            raise ArtefactError(f"{layer} {rule}: {len(lists)} lists where one was expected")
        codes = list(lists.pop())
    else:
        _, layer, name = source
        values = [v for n, _, v in by_layer[layer]["globals"] if n == name]
        m = TOKENIZED.fullmatch(values[0]) if len(values) == 1 else None
        if not m:
            raise ArtefactError(f"{layer} variable {name}: not a tokenize('…', '\\s') list")
        literal = m.group(1)
        if literal != literal.strip() or "  " in literal:
            # tokenize would then give an empty code, which the list would accept.
            raise ArtefactError(f"{layer} variable {name}: a list with an empty code")
        codes = literal.split()
    if len(set(codes)) != len(codes):
        raise ArtefactError(f"{source}: a code twice")
    return sorted(codes, key=rust_key)


CODES_HEAD = '''\
//! The code lists of the official validation artefacts (OpenPeppol release {release}:
//! the CEN EN 16931 rules and the Peppol BIS 3.0 rules), copied word for word from
//! the rules that test them; each list is sorted so that a lookup is a binary search.
//! Generated by `tools/artefacts.py` from the artefacts, `MESSAGES` from its rule
//! table (`artefacts::ASSERTS`): do not edit by hand.

use super::artefacts::ASSERTS as A;
'''


def codes_rs(layers, release):
    out = [CODES_HEAD.replace("{release}", release or "unknown")]
    for name, doc, source in CODE_LISTS:
        out.append("\n")
        out.extend(f"/// {line}\n" for line in doc)
        out.append(f"pub(crate) const {name}: &[&str] = &[\n")
        out.extend(line + "\n" for line in fill([rust_str(c) for c in code_list(layers, source)]))
        out.append("];\n")

    # The text of each fatal rule: its first assert in the artefacts' order (one id,
    # PEPPOL-EN16931-R004, has a second text in the self-billing layer).
    first, index = {}, 0
    for L in layers:
        for r in L["rules"]:
            for a in r["asserts"]:
                if a["flag"] == "fatal" and a["id"] not in first:
                    first[a["id"]] = index
                index += 1
    out.append("\n/// The text of each fatal rule, as the artefacts word it (`[ID]-` prefix included):\n"
               "/// its first assert's, sorted by id.\n")
    out.append("pub(crate) const MESSAGES: &[(&str, &str)] = &[\n")
    for rule in sorted(first, key=rust_key):
        out.append(f"    ({rust_str(rule)}, A[{first[rule]}].text),\n")
    out.append("];\n")
    return "".join(out)


# ---------------------------------------------------------------- main

def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    kit = os.environ.get("PEPPOL_KIT") or os.path.join(ROOT, "..", "shared", "peppol")
    if args[:1] == ["--kit"] and len(args) == 2:
        kit = args[1]
    elif args:
        sys.stderr.write(__doc__)
        return 2
    try:
        layers = read_kit(kit)
    except FileNotFoundError as e:
        sys.stderr.write(f"FAIL: the Peppol validation kit is missing: no {e} "
                         f"(--kit DIR or PEPPOL_KIT=DIR; CI needs shared/ beside the clone)\n")
        return 2
    except (ArtefactError, ET.ParseError) as e:
        sys.stderr.write(f"FAIL: cannot read the artefacts: {e}\n")
        return 2
    release = kit_release(kit)
    try:
        files = {ARTEFACTS_RS: artefacts_rs(layers, release), CODES_RS: codes_rs(layers, release)}
    except ArtefactError as e:
        sys.stderr.write(f"FAIL: cannot read the artefacts: {e}\n")
        return 2

    stale = []
    for rel, text in files.items():
        path = os.path.join(ROOT, rel)
        try:
            with open(path, encoding="utf-8", newline="") as f:
                current = f.read()
        except FileNotFoundError:
            current = None
        if current == text:
            continue
        stale.append(rel)
        if check:
            diff = difflib.unified_diff((current or "").splitlines(), text.splitlines(),
                                        rel + " (now)", rel + " (from the artefacts)", lineterm="")
            for n, line in enumerate(diff):
                if n == 40:
                    sys.stderr.write("…\n")
                    break
                sys.stderr.write(line[:200] + "\n")
        else:
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(text)
    asserts = [(L["layer"], a) for L in layers for r in L["rules"] for a in r["asserts"]]
    summary = (", ".join(f"{L['layer']} {sum(len(r['asserts']) for r in L['rules'])}" for L in layers)
               + f" asserts; {len({a['id'] for _, a in asserts})} rule ids; "
               + f"{sum(a['flag'] == 'fatal' for _, a in asserts)} fatal, "
               + f"{sum(a['flag'] == 'warning' for _, a in asserts)} warning")
    if check:
        if stale:
            sys.stderr.write("FAIL: generated from the artefacts, these differ: " + ", ".join(stale)
                             + f"\n(kit {kit}; run python3 tools/artefacts.py and commit)\n")
            return 1
        print(f"artefacts: {summary}; {ARTEFACTS_RS} and {CODES_RS} current")
        return 0
    print(f"artefacts: {summary}; " + ("wrote " + ", ".join(stale) if stale else "nothing changed"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
