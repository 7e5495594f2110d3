//! An assert's test ([`Plan`]), a rule's context ([`Select`]) or a rule's variable
//! that is a decimal ([`Num`]) lowered, where its shape allows, into a typed plan
//! evaluated without sequences: the common tests of the artefacts
//! (`count(cbc:Note) <= 1`, `exists(cbc:LineExtensionAmount)`,
//! `normalize-space(cbc:ID) != ''`, `string-length(substring-after(cbc:Amount,'.'))<=2`,
//! `(cac:Price/cbc:PriceAmount) >= 0`,
//! `exists(//cac:ClassifiedTaxCategory[…]/cbc:ID[normalize-space(.) = 'E'])`,
//! `xs:decimal(cbc:Percent) = 0`) answer from the document's elements and texts in
//! place. Also planned: BR-S-08's `every $rate in xs:decimal(cbc:Percent) satisfies …`
//! ([`Plan::Quantified`]) and `xs:decimal(cbc:TaxableAmount - 1)` (arithmetic in
//! doubles on a node's text, [`Num::CastDouble`]); a call of a stylesheet function
//! whose body is one test of exactly-one decimal parameters, written out by the engine
//! (`u:slack`, [`super::eval::Function::inlined`], [`Num::One`]); and the value of a
//! path several asserts share, found once a document by its own plan
//! ([`Select::value`]) from the longest shorter shared path it starts with.
//!
//! How a plan walks (each measured on the 500-line document, issue 30):
//! - a path of one child step without predicates (`cbc:ID`, `*`, the artefacts' most
//!   frequent) scans the element's children directly (`children_named`), and so do
//!   `exists` and `count` of it, without the walk's dynamic call for each node;
//! - a child step by name walks the children of that name
//!   (`crate::ubl::dom::Dom::children_named`: each child read once for its name and its
//!   next sibling), and the children it reached, of any name, are spent from the
//!   budget at once after the walk (`Env::spend_n`);
//! - `ancestor::name` steps up the parents (`PStep::Ancestor`);
//! - in `//*[p]`, the conjuncts at the start of `p` that read at most the element's
//!   name (the evaluator's choice of them, `parse::leading_conjuncts`) are decided once
//!   for each name of the document's elements, and only the elements of the names
//!   that pass are visited (`PStep::BelowNamed`);
//! - a `sum` met twice in one evaluation at the same focus and in the same scope
//!   (BR-S-08 writes each of its three sums twice, once per bound) is computed once,
//!   kept where the evaluator keeps its own (`Env::known_decimal_sum`);
//! - a chain of child steps whose last name has many elements (`…/cbc:ID`) first
//!   counts each level's elements in the index: a level of none reaches nothing, and
//!   a level of few is walked from, up its parents and down its children
//!   (`chain_from`: UBL-CR's root asserts);
//! - for the whole check, the `Env` keeps what a plan read of an element: the one
//!   element a chain of child names reaches from it (`Env::known_chain_end`), its
//!   one child's normalized text (`Env::known_child_text`), its text cast to
//!   `xs:decimal` (`Env::known_decimal`), each in a direct-mapped table of at most
//!   4 096 slots (a slot taken by another is a miss, never a wrong value: the
//!   document does not change while it is checked);
//! - `//*[not(*) and …]` visits the elements without children only, and
//!   `normalize-space(t) = ''` is whether `t` is blank, with no copy (R008's context);
//! - a written-out function's parameter read twice is bound once ([`Plan::Quantified`]
//!   over its argument: R120's `$val`);
//! - `//name[normalize-space(c) = 'code'][…]` (the VAT category rules, for ten codes)
//!   groups the document's elements of the name by that text once a check
//!   ([`Env::known_groups`]) and visits the code's group alone (`below_grouped`); a
//!   context `a/b/name[normalize-space(c) = 'code'][…]` climbs from that group to a
//!   shared path's nodes or the document (`Nodes::grouped`: ten VAT categories' line
//!   contexts, each a walk of every line before);
//! - `normalize-space(t) = ''` of an element reads the own texts of its subtree, none
//!   joined, and `not(not(x))` is `x` (R008's context at every leaf);
//! - `if (p) then xs:decimal(p) else d` walks `p` once ([`Num::Else`]: R120's
//!   variables at every line).
//! - `matches(t, 'pattern')` with the pattern compiled when the layer is, and the
//!   stylesheets' digit checks `u:gln` and `u:mod97-0208` computed by the crate's own
//!   ([`Plan::Digits`], on ASCII digits only): PEPPOL-COMMON-R040 at a GLN cost
//!   184 000 instructions in the evaluator (7 % of checking the base example), R043 at
//!   a Belgian enterprise number 27 000;
//! - a path's nodes compared with a variable's strings (`@currencyID =
//!   $documentCurrencyCode`, and `some $code in $ISO4217 satisfies @currencyID = $code`,
//!   which the parser writes as `$ISO4217 = @currencyID`) look each node's value up in
//!   the variable's strings ([`Plan::AnyVar`]; an item that is not a string is the
//!   evaluator's), and `text()` as a path's last step is the element's one text node,
//!   there when its own text is not empty, as the evaluator's model has it.
//!
//! **Why a second way to evaluate** (measured, issue 30): the evaluator
//! ([`super::eval`]) builds a sequence of items for each value and decides at every
//! call what an expression is; `count(cbc:Note) <= 1` at an invoice line takes about
//! 1 080 instructions there, `true()` 530. A plan decides what the expression is once,
//! when the layer is compiled, and then walks the element's children by number.
//!
//! **The evaluator stays the reference.** A plan answers only the plain case: a plan
//! step that meets anything else (a function argument of two nodes, a number that is
//! not a short decimal, the parent of the root element, a spent budget) answers
//! `None`, and the assert is then evaluated by the evaluator, errors included. An
//! expression that does not lower is never planned. `engine::check_plans` runs both;
//! `tests/cen.rs` (`plans_answer_as_the_evaluator_on_every_element`: every CEN case,
//! the examples, the fixtures) and the `ubl_validate` fuzz target assert that every
//! answer of a plan is the evaluator's.

// A number not decided here, or decided to be the empty sequence: two different
// nothings.
#![allow(clippy::option_option)]

use super::eval::{
    boolean_of_text, compare_untyped, decimal_arith, double_arith_decimal, ordering_ok,
    parse_number, reads_scope, regex, static_name, untyped_double, Env, Groups, Item, Key,
    SumGroups,
};
use super::parse::{
    any, boolean_function, conjuncts, leading_conjuncts, Arith, Axis, Cmp, Expr, QName, Reads,
    Step, Test,
};
use crate::en16931::double::Double;
use crate::en16931::xpath::{
    find, gln, mod97_0208, normalize_space_of, split_once, trim_xml, upper_case, xml_space,
};
use crate::ubl::dom::NodeId;
use rust_decimal::Decimal;
use std::borrow::Cow;

/// A boolean test, planned.
#[derive(Debug, Clone, PartialEq)]
pub enum Plan {
    Const(bool),
    And(Box<Plan>, Box<Plan>),
    Or(Box<Plan>, Box<Plan>),
    Not(Box<Plan>),
    /// Whether a path reaches a node (`exists(p)`, `p` as a test or a predicate).
    Exists(Nodes),
    /// A string function's value compared with a string literal.
    Str(Text, Cmp, String),
    /// `normalize-space(t) = ''`: whether the text is XML white space only (no copy
    /// of it normalized; `R008`'s context tests it at 15 000 elements).
    Blank(Text),
    /// `contains`, `starts-with`, `ends-with`.
    Has(Has, Text, Text),
    /// `contains(a, concat('pre', t, 'post'))`, the artefacts' test of a code list
    /// (`contains(' AE L M E S Z G O K B ', concat(' ', normalize-space(.), ' '))`):
    /// whether `t` stands in `a` between `pre` and `post`, with no text built
    /// ([`within`]).
    Within(Text, String, Text, String),
    /// A general comparison of the nodes a path reaches with a literal: each node's
    /// string value (or, with a text, that text computed at each node: the path's last
    /// step `…/normalize-space(cbc:ID) = 'VAT'`) against it; true when one holds.
    Any(Nodes, Option<Text>, Cmp, Lit),
    /// A path whose last step is a boolean (`cac:TaxScheme/(… = 'VAT')`): false for no
    /// node, the boolean at the one node (several: not planned at run time).
    One(Nodes, Box<Plan>),
    /// Two decimals compared (false when either is the empty sequence).
    Num(Num, Cmp, Num),
    /// `every $v in n satisfies p` (`some`: false), `n` one decimal or none (true for
    /// every, false for some).
    Quantified(bool, &'static str, Num, Box<Plan>),
    /// `p = $v`, a general `=` of the nodes a path reaches with a variable's strings
    /// (`@currencyID = $documentCurrencyCode`), and `some $c in $list satisfies p =
    /// $c`, the same test (the code lists: `some $code in $ISO4217 satisfies
    /// @currencyID = $code`): true when one node's string value is one of the
    /// strings. A variable holding anything but strings: not planned at run time.
    AnyVar(Nodes, &'static str),
    /// `matches(t, 'pattern')`: the pattern compiled once, when the layer is, by the
    /// evaluator's own compiler (`eval::regex`).
    Matches(Text, Pattern),
    /// A stylesheet function that checks an identifier's digits (`u:gln(t)`,
    /// `u:mod97-0208(t)`), computed by the crate's own check (`en16931::xpath`) where
    /// `t` is ASCII digits (the artefacts test that with `matches` first): the
    /// evaluator runs `u:gln`'s `for` over each digit in about 184 000 instructions,
    /// this in about 100. Elsewhere (another text, a length the check reads
    /// differently) the evaluator answers.
    Digits(Digits, Text),
}

/// A regular expression of a plan, compared by its text.
#[derive(Debug, Clone)]
pub struct Pattern(std::sync::Arc<regex::Regex>);

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.0.as_str() == other.0.as_str()
    }
}

/// Which check of [`Plan::Digits`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Digits {
    /// `u:gln`: the GS1 check digit (PEPPOL-COMMON-R040).
    Gln,
    /// `u:mod97-0208`: the Belgian enterprise number (PEPPOL-COMMON-R043); decided for
    /// ten digits or more (of nine, the stylesheet compares one check digit, not two).
    Mod97,
}

/// A number, planned: `xs:decimal` values only (an untyped value in arithmetic is a
/// double, left to the evaluator). Its value is a decimal or the empty sequence.
#[derive(Debug, Clone, PartialEq)]
pub enum Num {
    Lit(Decimal),
    /// `xs:decimal(p)`: the one node's text cast (no node: the empty sequence).
    CastOf(Nodes),
    /// `xs:decimal(.)`, `xs:decimal(normalize-space(…))`: a string cast.
    CastText(Text),
    Arith(Arith, Box<Num>, Box<Num>),
    Round(Box<Num>),
    Abs(Box<Num>),
    /// `sum(p/xs:decimal(…))`: the sum of a decimal at each node, the argument it was
    /// planned from (the key of the total kept for the rest of the evaluation: BR-S-08
    /// writes each of its sums twice, [`Env::known_decimal_sum`]), and whether that
    /// argument reads a variable or `current()` (then its scope is part of the key;
    /// without, keeping a total costs no copy of the scope).
    Sum(Nodes, Box<Num>, std::sync::Arc<Expr>, bool),
    /// `p/xs:decimal(…)`: the decimal at the one node (none: the empty sequence).
    At(Nodes, Box<Num>),
    If(Box<Plan>, Box<Num>, Box<Num>),
    /// `if (p) then xs:decimal(p) else f`: the one node's text cast, `f` when the path
    /// reaches none (several: not planned at run time).
    Else(Nodes, Box<Num>),
    /// A variable bound to one decimal or to nothing.
    Var(&'static str),
    /// `xs:decimal(a op b)` where an operand is a node's text: an untyped value, so the
    /// arithmetic is in doubles (as XPath 2.0 promotes it), then cast.
    CastDouble(Arith, Box<Operand>, Box<Operand>),
    /// `x cast as xs:decimal` (how [`super::eval::Function::inlined`] writes a
    /// parameter): exactly one decimal (none is an error, not planned at run time).
    One(Box<Num>),
    /// `count(p)`.
    Count(Nodes),
    /// `string-length(t)`.
    Length(Text),
}

/// An operand of arithmetic in doubles ([`Num::CastDouble`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    /// A decimal, promoted to a double.
    Decimal(Num),
    /// The one node's text (none: the empty sequence), untyped: its double, NaN when it
    /// is not a number.
    Untyped(Nodes),
}

/// Which of the string tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Has {
    Contains,
    StartsWith,
    EndsWith,
}

/// A literal compared with.
#[derive(Debug, Clone, PartialEq)]
pub enum Lit {
    Str(String),
    Num(Decimal),
    /// `true()`, `false()`: a node's text cast to a boolean (one that is not a
    /// boolean matches nothing, as the evaluator compares it).
    Bool(bool),
}

/// A string: a literal, the focus's string value, the one node a path reaches (none:
/// the empty string; several: not planned at run time), or a string function of those.
#[derive(Debug, Clone, PartialEq)]
pub enum Text {
    Lit(String),
    Focus,
    /// `name()`, `local-name()` of the focus (as the evaluator reads them: the local
    /// name).
    Name,
    Of(Nodes),
    Normalize(Box<Text>),
    Upper(Box<Text>),
    /// `substring-before(a, b)` (`false`; BR-CL-08's subject code between two `#`),
    /// `substring-after(a, b)` (`true`).
    Split(bool, Box<Text>, Box<Text>),
    Concat(Vec<Text>),
}

/// A path that reaches each node once (not always in document order: no plan needs
/// it): from the focus (up its parents first), from the document, or from a shared
/// path's value; then child steps by name, at most one `//name`, and an attribute
/// last.
#[derive(Debug, Clone, PartialEq)]
pub struct Nodes {
    start: Start,
    steps: Vec<PStep>,
}

#[derive(Debug, Clone, PartialEq)]
enum Start {
    Focus,
    Doc,
    /// An [`Expr::Shared`] path, its value kept once a document: found by its own
    /// plan where it has one ([`Select`]), else by the evaluator.
    Shared(Expr, Option<Box<Select>>),
}

#[derive(Debug, Clone, PartialEq)]
enum PStep {
    Parent,
    Child(QName, Vec<Plan>),
    /// `*`.
    ChildAny(Vec<Plan>),
    /// `(a[p] | b[q] …)`: the children of any of the names, where their predicates
    /// hold (each once).
    ChildIn(Vec<(QName, Vec<Plan>)>),
    /// Child steps by name without predicates (`(cac:InvoiceLine | cac:CreditNoteLine)
    /// /cac:Item/cac:Name`, each level one of its names), at least two: found from the
    /// document's index of the last name, each element's parents then checked (most
    /// such paths of the artefacts reach nothing).
    Chain(Vec<Vec<QName>>),
    /// `//@name`: the attributes of the name on every element from here down.
    BelowAttr(QName),
    /// `//name`: every element of the name below (the document's: any).
    Below(QName, Vec<Plan>),
    /// `//(a[p] | b[q] …)`: every element of any of the names below, where its
    /// predicates hold (BR-CO-10's `//(cac:InvoiceLine|cac:CreditNoteLine)`).
    BelowIn(Vec<(QName, Vec<Plan>)>),
    /// `//*`: every element below.
    BelowAny(Vec<Plan>),
    /// `//*[not(*) and …]`: every element below without children (its subtree itself
    /// alone), where the rest of the predicates hold. 15 000 elements are not each
    /// tested by a plan for a child.
    BelowLeaves(Vec<Plan>),
    /// `//*[t]…` where `t` reads nothing but the element's name (`ends-with(name(),
    /// 'BinaryObject')`): `t` is decided once for each name of the document's elements
    /// (at its first element), then the elements of the names where it holds are
    /// tested with the other predicates. 15 000 elements are not each tested.
    BelowNamed(Box<Plan>, Vec<Plan>),
    /// `ancestor::name`: the parents up to the root element that have the name.
    Ancestor(QName, Vec<Plan>),
    Attr(QName),
    /// `text()`, last: the element's text node, which the evaluator has when its own
    /// text is not empty (`Dom::own_text`: one for the element).
    Text,
}

impl Start {
    /// The start at a shared path, with the plan of its value.
    fn shared(e: &Expr) -> Start {
        let planned = match e {
            Expr::Shared(_, inner) => Select::of(inner).map(Box::new),
            _ => None,
        };
        Start::Shared(e.clone(), planned)
    }
}

/// Where a walk stands.
#[derive(Clone, Copy)]
enum At {
    Doc,
    Node(NodeId),
    Attr(NodeId, u32),
    /// The element's text node ([`PStep::Text`]).
    Text(NodeId),
}

impl At {
    /// The evaluator's item for the same place.
    fn item(self) -> Item {
        match self {
            At::Doc => Item::Doc,
            At::Node(n) => Item::Node(n),
            At::Attr(n, i) => Item::Attr(n, i),
            At::Text(n) => Item::Text(n),
        }
    }
}

impl Plan {
    /// The plan of a test, if its shape is one planned.
    pub fn of(e: &Expr) -> Option<Plan> {
        Some(match e {
            Expr::And(a, b) => Plan::And(Box::new(Plan::of(a)?), Box::new(Plan::of(b)?)),
            Expr::Or(a, b) => Plan::Or(Box::new(Plan::of(a)?), Box::new(Plan::of(b)?)),
            Expr::Seq(list) => match list.as_slice() {
                [one] => Plan::of(one)?,
                _ => return None,
            },
            Expr::Call(name, args) => match (name.as_str(), args.as_slice()) {
                ("true", []) => Plan::Const(true),
                ("false", []) => Plan::Const(false),
                ("not", [x]) => match Plan::of(x)? {
                    // `not(normalize-space())` (R008's context): the test itself
                    Plan::Not(inner) => *inner,
                    p => Plan::Not(Box::new(p)),
                },
                ("boolean", [x]) => Plan::of(x)?,
                ("exists", [x]) => Plan::Exists(Nodes::of(x)?),
                ("empty", [x]) => Plan::Not(Box::new(Plan::Exists(Nodes::of(x)?))),
                ("contains", [a, b]) => match Text::of(b)? {
                    Text::Concat(mut parts) if parts.len() == 3 => {
                        match (parts.pop(), parts.pop(), parts.pop()) {
                            (Some(Text::Lit(post)), Some(t), Some(Text::Lit(pre))) => {
                                Plan::Within(Text::of(a)?, pre, t, post)
                            }
                            (post, t, pre) => {
                                let parts = [pre, t, post].into_iter().flatten().collect();
                                Plan::Has(Has::Contains, Text::of(a)?, Text::Concat(parts))
                            }
                        }
                    }
                    b => Plan::Has(Has::Contains, Text::of(a)?, b),
                },
                ("matches", [t, Expr::Str(pattern)]) => {
                    Plan::Matches(Text::of(t)?, Pattern(regex(pattern).ok()?))
                }
                ("u:gln", [t]) => Plan::Digits(Digits::Gln, Text::of(t)?),
                ("u:mod97-0208", [t]) => Plan::Digits(Digits::Mod97, Text::of(t)?),
                ("starts-with", [a, b]) => Plan::Has(Has::StartsWith, Text::of(a)?, Text::of(b)?),
                ("ends-with", [a, b]) => Plan::Has(Has::EndsWith, Text::of(a)?, Text::of(b)?),
                // a string's value as a test: whether it is not empty
                _ => Plan::str(Text::of_call(e)?, Cmp::Ne, String::new()),
            },
            Expr::Path(..) => match Nodes::then(e) {
                Some((nodes, last)) => Plan::One(nodes?, Box::new(Plan::boolean(last)?)),
                None => Plan::Exists(Nodes::of(e)?),
            },
            Expr::Context | Expr::Shared(..) => Plan::Exists(Nodes::of(e)?),
            Expr::Quantified(every, binds, sat) => match binds.as_slice() {
                [(name, Expr::Var(list))] if !*every && Plan::member(name, sat).is_some() => {
                    Plan::AnyVar(Plan::member(name, sat)?, static_name(list))
                }
                [(name, over)] => Plan::Quantified(
                    *every,
                    static_name(name),
                    Num::of(over)?,
                    Box::new(Plan::of(sat)?),
                ),
                _ => return None,
            },
            Expr::Compare(Cmp::Eq, true, left, right)
                if matches!(&**left, Expr::Var(_)) || matches!(&**right, Expr::Var(_)) =>
            {
                Plan::equal_to_var(left, right)?
            }
            Expr::Compare(op, general, left, right) => match (Num::of(left), Num::of(right)) {
                (Some(x), Some(y)) => Plan::Num(x, *op, y),
                _ if *general => Plan::compare(*op, left, right)?,
                _ => return None,
            },
            _ => return None,
        })
    }

    /// A general `=` with a variable on one side: numbers compared ([`Plan::Num`]),
    /// else a path's nodes against the variable's strings ([`Plan::AnyVar`]).
    fn equal_to_var(left: &Expr, right: &Expr) -> Option<Plan> {
        let ((other, Expr::Var(var)) | (Expr::Var(var), other)) = (left, right) else {
            return None;
        };
        Some(match (Num::of(other), Nodes::of(other)) {
            (Some(number), _) => Plan::Num(number, Cmp::Eq, Num::Var(static_name(var))),
            (None, Some(nodes)) => Plan::AnyVar(nodes, static_name(var)),
            _ => return None,
        })
    }

    /// The path of `p = $name` (or `$name = p`) where `p` does not read `$name`: the
    /// test of [`Plan::AnyVar`] that `some $name in $list satisfies` asks.
    fn member(name: &str, sat: &Expr) -> Option<Nodes> {
        let sat = match sat {
            Expr::Seq(list) => match list.as_slice() {
                [one] => one,
                _ => return None,
            },
            e => e,
        };
        let Expr::Compare(Cmp::Eq, true, a, b) = sat else {
            return None;
        };
        let path = match (&**a, &**b) {
            (p, Expr::Var(v)) | (Expr::Var(v), p) if v == name => p,
            _ => return None,
        };
        if any(path, &mut |e| matches!(e, Expr::Var(v) if v == name)) {
            return None;
        }
        Nodes::of(path)
    }

    /// A text compared with a literal: `normalize-space(t)` equal or not to `''` is
    /// whether `t` is blank.
    fn str(t: Text, op: Cmp, lit: String) -> Plan {
        match (t, op) {
            (Text::Normalize(inner), Cmp::Eq) if lit.is_empty() => Plan::Blank(*inner),
            (Text::Normalize(inner), Cmp::Ne) if lit.is_empty() => {
                Plan::Not(Box::new(Plan::Blank(*inner)))
            }
            (t, op) => Plan::Str(t, op, lit),
        }
    }

    /// The plan of an expression whose value is a boolean (not nodes: a path's
    /// boolean is whether it reaches a node).
    fn boolean(e: &Expr) -> Option<Plan> {
        match e {
            Expr::Seq(list) => match list.as_slice() {
                [one] => Plan::boolean(one),
                _ => None,
            },
            Expr::Compare(..) | Expr::And(..) | Expr::Or(..) => Plan::of(e),
            Expr::Call(name, _) if boolean_function(name) => Plan::of(e),
            _ => None,
        }
    }

    /// A general comparison with a literal on the right.
    fn compare(op: Cmp, a: &Expr, b: &Expr) -> Option<Plan> {
        let lit = match b {
            Expr::Str(s) => Lit::Str(s.clone()),
            Expr::Num(n) => Lit::Num(*n),
            Expr::Call(name, args) if args.is_empty() && (name == "true" || name == "false") => {
                Lit::Bool(name == "true")
            }
            _ => return None,
        };
        Some(match (a, lit) {
            (Expr::Seq(inner), right) => match inner.as_slice() {
                [one] => Plan::compare(op, one, b).or_else(|| {
                    // `(path) >= 0`
                    Some(Plan::Any(Nodes::of(one)?, None, op, right))
                })?,
                _ => return None,
            },
            (Expr::Call(..), Lit::Str(s)) => Plan::str(Text::of_call(a)?, op, s),
            (Expr::Path(..), Lit::Str(s)) => match Nodes::then(a) {
                Some((nodes, last)) => {
                    let nodes = nodes?;
                    if nodes.ends_in_attribute() {
                        return None;
                    }
                    Plan::Any(nodes, Some(Text::of_call(last)?), op, Lit::Str(s))
                }
                None => Plan::Any(Nodes::of(a)?, None, op, Lit::Str(s)),
            },
            // a shared path's value (`//cac:TaxCategory/cbc:ID = 'B'`: BR-B-01, BR-B-02)
            (Expr::Path(..) | Expr::Context | Expr::Shared(..), lit) => {
                Plan::Any(Nodes::of(a)?, None, op, lit)
            }
            _ => return None,
        })
    }

    /// The test's value at an element; `None` when the plan does not decide it there
    /// (the evaluator then does).
    pub fn test(&self, env: &mut Env<'_>, node: NodeId) -> Option<bool> {
        env.begin();
        self.at(env, At::Node(node))
    }

    /// [`Plan::Matches`] and [`Plan::Digits`].
    fn text_test(&self, env: &mut Env<'_>, here: At) -> Option<bool> {
        env.spend().ok()?;
        Some(match self {
            Plan::Matches(t, pattern) => pattern.0.is_match(&t.at(env, here)?),
            Plan::Digits(check, t) => {
                let v = t.at(env, here)?;
                let digits = !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit());
                match check {
                    Digits::Gln if digits => gln(&v),
                    Digits::Mod97 if digits && v.len() >= 10 => mod97_0208(&v),
                    _ => return None,
                }
            }
            _ => return None,
        })
    }

    fn at(&self, env: &mut Env<'_>, here: At) -> Option<bool> {
        Some(match self {
            Plan::Const(b) => *b,
            Plan::And(a, b) => self::and(a.at(env, here)?, || b.at(env, here))?,
            Plan::Or(a, b) => !self::and(!a.at(env, here)?, || b.at(env, here).map(|v| !v))?,
            Plan::Not(a) => !a.at(env, here)?,
            // `*` from an element: whether it has a child element, its subtree more
            // than itself
            Plan::Exists(p) if p.one_child_step() == Some(None) && matches!(here, At::Node(_)) => {
                env.spend().ok()?;
                let At::Node(n) = here else { return None };
                env.dom.subtree(n).len() > 1
            }
            // one child step by name (`exists(cbc:LineExtensionAmount)`, at every line):
            // its children walked without the walk's dynamic call for each node
            Plan::Exists(p) => {
                let mut found = false;
                let mut hit = |_: &mut Env<'_>, _| {
                    found = true;
                    Some(false)
                };
                match (p.one_child_step(), here) {
                    (Some(name), At::Node(n)) => children_named(name, n, env, hit)?,
                    _ => p.walk(env, here, &mut hit)?,
                }
                found
            }
            Plan::Str(t, op, lit) => ordering_ok(*op, t.at(env, here)?.as_ref().cmp(lit.as_str())),
            Plan::Blank(Text::Focus) => blank(env, here)?,
            Plan::Blank(Text::Of(p)) => match one(p, env, here)? {
                Some(at) => blank(env, at)?,
                None => true,
            },
            Plan::Blank(t) => trim_xml(&t.at(env, here)?).is_empty(),
            Plan::Has(kind, a, b) => {
                let a = a.at(env, here)?;
                let b = b.at(env, here)?;
                match kind {
                    Has::Contains => find(&a, &b).is_some(),
                    Has::StartsWith => a.starts_with(b.as_ref()),
                    Has::EndsWith => a.ends_with(b.as_ref()),
                }
            }
            Plan::Within(a, pre, t, post) => {
                let a = a.at(env, here)?;
                within(&a, pre, &t.at(env, here)?, post)
            }
            Plan::Matches(..) | Plan::Digits(..) => self.text_test(env, here)?,
            Plan::AnyVar(p, v) => any_of_var(p, v, env, here)?,
            Plan::Num(a, op, b) => match (a.at(env, here)?, b.at(env, here)?) {
                (Some(x), Some(y)) => ordering_ok(*op, x.cmp(&y)),
                _ => false,
            },
            Plan::Quantified(every, name, over, sat) => match over.at(env, here)? {
                None => *every,
                Some(d) => {
                    let scope = env.vars.len();
                    env.bind(Cow::Borrowed(*name), [Item::Num(Some(d))]);
                    let holds = sat.at(env, here);
                    env.unbind(scope);
                    holds?
                }
            },
            Plan::One(p, test) => match one(p, env, here)? {
                Some(at) => test.at(env, at)?,
                None => false,
            },
            Plan::Any(p, text, op, lit) => any_node(p, text.as_ref(), *op, lit, env, here)?,
        })
    }
}

/// [`Plan::Any`]: whether one node `p` reaches from `here` (or, with `text`, that text
/// computed at one node) compares with `lit` as `op` says; a string compared with a
/// shared path's nodes alone is looked up in their values ([`Nodes::shared_values`]).
fn any_node(
    p: &Nodes,
    text: Option<&Text>,
    op: Cmp,
    lit: &Lit,
    env: &mut Env<'_>,
    here: At,
) -> Option<bool> {
    if let (None, Lit::Str(s)) = (text, lit) {
        if let Some(groups) = p.shared_values(env, here) {
            return Some(match op {
                Cmp::Eq => groups.contains_key(s.as_str()),
                _ => groups
                    .keys()
                    .any(|k| ordering_ok(op, k.as_ref().cmp(s.as_str()))),
            });
        }
    }
    let mut hit = false;
    p.walk(env, here, &mut |env, at| {
        let value = match text {
            Some(t) => t.at(env, at)?,
            None => string_value(env, at)?,
        };
        hit = match lit {
            Lit::Str(s) => ordering_ok(op, value.as_ref().cmp(s.as_str())),
            Lit::Num(n) => {
                compare_untyped(&value, *n).map_or(op == Cmp::Ne, |o| ordering_ok(op, o))
            }
            Lit::Bool(b) => {
                boolean_of_text(trim_xml(&value)).is_some_and(|v| ordering_ok(op, v.cmp(b)))
            }
        };
        Some(!hit)
    })?;
    Some(hit)
}

impl Plan {
    /// Whether the plan reads no variable (nor binds one): its answer at an element is
    /// the same in any scope ([`grouped_sum`]). A plan that might is said to.
    fn reads_no_variable(&self) -> bool {
        match self {
            Plan::Const(_) => true,
            Plan::And(a, b) | Plan::Or(a, b) => a.reads_no_variable() && b.reads_no_variable(),
            Plan::Not(a) => a.reads_no_variable(),
            Plan::Exists(n) => n.reads_no_variable(),
            Plan::Str(t, ..) | Plan::Blank(t) | Plan::Matches(t, _) | Plan::Digits(_, t) => {
                t.reads_no_variable()
            }
            Plan::Has(_, a, b) | Plan::Within(a, _, b, _) => {
                a.reads_no_variable() && b.reads_no_variable()
            }
            Plan::Any(n, t, ..) => {
                n.reads_no_variable() && t.as_ref().is_none_or(Text::reads_no_variable)
            }
            Plan::One(n, p) => n.reads_no_variable() && p.reads_no_variable(),
            Plan::Num(a, _, b) => a.reads_no_variable() && b.reads_no_variable(),
            Plan::Quantified(..) | Plan::AnyVar(..) => false,
        }
    }
}

impl Num {
    /// [`Plan::reads_no_variable`] of a number.
    fn reads_no_variable(&self) -> bool {
        match self {
            Num::Lit(_) => true,
            Num::CastOf(n) | Num::Count(n) => n.reads_no_variable(),
            Num::CastText(t) | Num::Length(t) => t.reads_no_variable(),
            Num::Arith(_, a, b) => a.reads_no_variable() && b.reads_no_variable(),
            Num::Round(a) | Num::Abs(a) | Num::One(a) => a.reads_no_variable(),
            Num::Sum(n, each, _, scoped) => {
                !scoped && n.reads_no_variable() && each.reads_no_variable()
            }
            Num::At(n, each) | Num::Else(n, each) => {
                n.reads_no_variable() && each.reads_no_variable()
            }
            Num::If(c, t, f) => {
                c.reads_no_variable() && t.reads_no_variable() && f.reads_no_variable()
            }
            Num::Var(_) => false,
            Num::CastDouble(_, a, b) => [a, b].iter().all(|o| match &***o {
                Operand::Decimal(n) => n.reads_no_variable(),
                Operand::Untyped(n) => n.reads_no_variable(),
            }),
        }
    }
}

impl Text {
    /// [`Plan::reads_no_variable`] of a text.
    fn reads_no_variable(&self) -> bool {
        match self {
            Text::Lit(_) | Text::Focus | Text::Name => true,
            Text::Of(n) => n.reads_no_variable(),
            Text::Normalize(t) | Text::Upper(t) => t.reads_no_variable(),
            Text::Split(_, a, b) => a.reads_no_variable() && b.reads_no_variable(),
            Text::Concat(list) => list.iter().all(Text::reads_no_variable),
        }
    }
}

impl Nodes {
    /// [`Plan::reads_no_variable`] of a path: its predicates' (a shared path's value is
    /// kept by the evaluator, which may have read one: said to).
    fn reads_no_variable(&self) -> bool {
        let plain = |preds: &[Plan]| preds.iter().all(Plan::reads_no_variable);
        matches!(self.start, Start::Focus | Start::Doc)
            && self.steps.iter().all(|s| match s {
                PStep::Parent
                | PStep::Chain(_)
                | PStep::BelowAttr(_)
                | PStep::Attr(_)
                | PStep::Text => true,
                PStep::Child(_, p)
                | PStep::ChildAny(p)
                | PStep::Below(_, p)
                | PStep::BelowAny(p)
                | PStep::BelowLeaves(p)
                | PStep::Ancestor(_, p) => plain(p),
                PStep::ChildIn(list) | PStep::BelowIn(list) => list.iter().all(|(_, p)| plain(p)),
                PStep::BelowNamed(t, p) => t.reads_no_variable() && plain(p),
            })
    }
}

/// A shared path's value at `focus`, kept once a document: found by its own plan where
/// it has one, else by the evaluator; `None` when it fails.
fn shared_value(
    e: &Expr,
    planned: Option<&Select>,
    env: &mut Env<'_>,
    focus: Item,
) -> Option<std::sync::Arc<Vec<Item>>> {
    match planned {
        Some(select) => env.shared_planned(e, focus, |env| select.value(env)),
        None => env.shared_at(e, focus),
    }
    .ok()
}

/// The value of a variable bound to one decimal (`Some(Some)`) or to nothing
/// (`Some(None)`); `None` for another value or a variable not in scope.
fn var_decimal(env: &Env<'_>, name: &str) -> Option<Option<Decimal>> {
    match env.var(name)?.as_slice() {
        [Item::Num(Some(d))] => Some(Some(*d)),
        [] => Some(None),
        _ => None,
    }
}

/// `sum(../../../q[f…][a = $v]/e)`, the last predicate the one to read a variable
/// (BR-S-08 at each rate of the VAT breakdown: `sum(../../../cac:InvoiceLine[cac:Item/
/// cac:ClassifiedTaxCategory/normalize-space(cbc:ID)='S'][cac:Item/
/// cac:ClassifiedTaxCategory/xs:decimal(cbc:Percent) = $rate]/
/// xs:decimal(cbc:LineExtensionAmount))`, every line walked again for each rate: a
/// tenth of the check's time on the 500-line UBL): the elements `q` where `f…` hold are
/// walked once a check, each `e` added to the total of its `a` (a decimal; an element
/// whose `a` is empty is in no total), and each rate's total is its group's. The
/// walk's answer, element for element: the elements where the other predicates hold,
/// in the walk's order, and a decimal compared as `=` compares them (`21` and
/// `21.00` one group). `None` (the walk answers) for another shape, a predicate or
/// value that reads a variable but the last, a variable that is not one decimal or
/// none, or a walk not decided (a predicate or `a` that is not, a group whose `e` is
/// not or whose total leaves the decimals' range: that rate's walk is not decided
/// either).
fn grouped_sum(
    path: &Nodes,
    each: &Num,
    arg: &std::sync::Arc<Expr>,
    env: &mut Env<'_>,
    here: At,
) -> Option<Decimal> {
    let (Start::Focus, [up @ .., PStep::Child(name, preds)]) = (&path.start, path.steps.as_slice())
    else {
        return None;
    };
    let ([free @ .., Plan::Num(compared, Cmp::Eq, Num::Var(var))], At::Node(focus)) =
        (preds.as_slice(), here)
    else {
        return None;
    };
    if !up.iter().all(|s| matches!(s, PStep::Parent))
        || !free.iter().all(Plan::reads_no_variable)
        || !compared.reads_no_variable()
        || !each.reads_no_variable()
    {
        return None;
    }
    let dom = env.dom;
    let mut top = focus;
    for _ in up {
        top = dom.parent(top)?;
    }
    let groups = if let Some(kept) = env.known_grouped_sum(arg, top) {
        kept?
    } else if !env.room_for_grouped_sum() {
        return None;
    } else {
        let mut groups = SumGroups::new();
        let walked = named_children(name, top, env, |env, element| {
            if !holds(free, env, element)? {
                return Some(true);
            }
            let Some(value) = compared.at(env, At::Node(element))? else {
                return Some(true);
            };
            let total = groups.entry(value).or_insert(Some(Decimal::ZERO));
            *total = match each.at(env, At::Node(element)) {
                Some(Some(amount)) => total.and_then(|t| t.checked_add(amount)),
                Some(None) => *total,
                None => None,
            };
            Some(true)
        });
        let built = walked.map(|_| std::sync::Arc::new(groups));
        env.keep_grouped_sum(arg, top, built.clone());
        built?
    };
    match var_decimal(env, var)? {
        Some(rate) => groups.get(&rate).copied().unwrap_or(Some(Decimal::ZERO)),
        None => Some(Decimal::ZERO),
    }
}

impl Num {
    /// The plan of a number, if its shape is one planned.
    pub fn of(e: &Expr) -> Option<Num> {
        Some(match e {
            Expr::Num(d) => Num::Lit(*d),
            Expr::Seq(list) => match list.as_slice() {
                [one] => Num::of(one)?,
                _ => return None,
            },
            Expr::Var(v) => Num::Var(static_name(v)),
            Expr::Arith(op, a, b) => Num::Arith(*op, Box::new(Num::of(a)?), Box::new(Num::of(b)?)),
            Expr::If(c, t, f) => Num::choice(Plan::of(c)?, Num::of(t)?, Num::of(f)?),
            Expr::Path(..) => {
                let (nodes, last) = Nodes::then(e)?;
                Num::At(nodes?, Box::new(Num::of(last)?))
            }
            Expr::Call(name, args) => match (name.as_str(), args.as_slice()) {
                ("round", [x]) => Num::Round(Box::new(Num::of(x)?)),
                ("count", [x]) => Num::Count(Nodes::of(x)?),
                ("string-length", [x]) => Num::Length(Text::of(x)?),
                ("string-length", []) => Num::Length(Text::Focus),
                ("abs", [x]) => Num::Abs(Box::new(Num::of(x)?)),
                ("sum", [x]) => {
                    let (nodes, last) = Nodes::then(x)?;
                    Num::Sum(
                        nodes?,
                        Box::new(Num::of(last)?),
                        std::sync::Arc::new(x.clone()),
                        reads_scope(x),
                    )
                }
                // a string's cast, a cast of arithmetic in doubles, or as a parameter
                // converts it
                ("xs:decimal", [x]) => match x {
                    Expr::Context => Num::CastText(Text::Focus),
                    Expr::Call(..) if Num::of(x).is_none() => Num::CastText(Text::of_call(x)?),
                    Expr::Arith(op, a, b) if Num::of(x).is_none() => {
                        Num::CastDouble(*op, Box::new(Operand::of(a)?), Box::new(Operand::of(b)?))
                    }
                    _ => Num::cast(x)?,
                },
                _ => return None,
            },
            Expr::Cast(x, ty, false) if ty == "xs:decimal" => Num::One(Box::new(Num::cast(x)?)),
            _ => return None,
        })
    }

    /// `if (c) then t else f`; `if (p) then xs:decimal(p) else f` is [`Num::Else`] (the
    /// path walked once: PEPPOL-EN16931-R120's variables at each line).
    fn choice(test: Plan, then: Num, other: Num) -> Num {
        match (test, then) {
            (Plan::Exists(tested), Num::CastOf(cast)) if tested == cast => {
                Num::Else(tested, Box::new(other))
            }
            (test, then) => Num::If(Box::new(test), Box::new(then), Box::new(other)),
        }
    }

    /// `xs:decimal(x)` where `x` is a decimal (itself: a decimal cast to a decimal), a
    /// path to one node (its text cast; no node: the empty sequence) or a choice of
    /// those; never a string, which a parameter's conversion would refuse.
    fn cast(x: &Expr) -> Option<Num> {
        Some(match (Num::of(x), x) {
            (Some(n), _) => n,
            (None, Expr::If(c, t, f)) => Num::choice(Plan::of(c)?, Num::cast(t)?, Num::cast(f)?),
            (None, _) => Num::CastOf(Nodes::of(x)?),
        })
    }

    /// The number at an element (`Some(None)`: the empty sequence); `None` when the
    /// plan does not decide it there.
    pub fn value(&self, env: &mut Env<'_>, node: NodeId) -> Option<Option<Decimal>> {
        env.begin();
        self.at(env, At::Node(node))
    }

    fn at(&self, env: &mut Env<'_>, here: At) -> Option<Option<Decimal>> {
        Some(match self {
            Num::Lit(d) => Some(*d),
            Num::CastText(Text::Focus) => Some(decimal_at(env, here)?),
            Num::CastText(t) => Some(parse_number(trim_xml(&t.at(env, here)?))?),
            Num::CastOf(p) => match one(p, env, here)? {
                Some(at) => Some(decimal_at(env, at)?),
                None => None,
            },
            Num::Arith(op, a, b) => match (a.at(env, here)?, b.at(env, here)?) {
                (Some(x), Some(y)) => Some(decimal_arith(*op, x, y).ok()?),
                _ => None,
            },
            Num::Round(a) => match a.at(env, here)? {
                Some(x) => Some(crate::en16931::xpath::round(x)?),
                None => None,
            },
            Num::Abs(a) => a.at(env, here)?.map(|x| x.abs()),
            Num::One(a) => Some(a.at(env, here)??),
            Num::CastDouble(op, a, b) => match (a.at(env, here)?, b.at(env, here)?) {
                (Some(x), Some(y)) => Some(double_arith_decimal(*op, x, y)?),
                _ => None,
            },
            Num::Sum(p, each, arg, scoped) => {
                let focus = here.item();
                if let Some(known) = env.known_decimal_sum(arg, &focus) {
                    return Some(Some(known));
                }
                if let Some(total) = grouped_sum(p, each, arg, env, here) {
                    env.keep_decimal_sum(arg, *scoped, &focus, total);
                    return Some(Some(total));
                }
                let mut total = Some(Decimal::ZERO);
                p.walk(env, here, &mut |env, at| {
                    if let Some(x) = each.at(env, at)? {
                        total = total?.checked_add(x);
                    }
                    Some(total.is_some())
                })?;
                let total = total?;
                env.keep_decimal_sum(arg, *scoped, &focus, total);
                Some(total)
            }
            Num::At(p, each) => match one(p, env, here)? {
                Some(at) => each.at(env, at)?,
                None => None,
            },
            Num::Else(p, f) => match one(p, env, here)? {
                Some(at) => Some(decimal_at(env, at)?),
                None => f.at(env, here)?,
            },
            Num::If(c, t, f) => {
                if c.at(env, here)? {
                    t.at(env, here)?
                } else {
                    f.at(env, here)?
                }
            }
            Num::Count(p) => {
                let mut count = 0u64;
                let mut one_more = |_: &mut Env<'_>, _| {
                    count = count.saturating_add(1);
                    Some(true)
                };
                match (p.one_child_step(), here) {
                    // `count(cbc:Note) <= 1`, at every line: as `Plan::Exists`
                    (Some(name), At::Node(n)) => children_named(name, n, env, one_more)?,
                    _ => p.walk(env, here, &mut one_more)?,
                }
                Some(Decimal::from(count))
            }
            Num::Length(t) => Some(Decimal::from(t.at(env, here)?.chars().count())),
            Num::Var(name) => var_decimal(env, name)?,
        })
    }
}

impl Operand {
    fn of(e: &Expr) -> Option<Operand> {
        Some(match Num::of(e) {
            Some(n) => Operand::Decimal(n),
            None => Operand::Untyped(Nodes::of(e)?),
        })
    }

    /// The operand's double (`Some(None)`: the empty sequence).
    fn at(&self, env: &mut Env<'_>, here: At) -> Option<Option<Double>> {
        Some(match self {
            Operand::Decimal(n) => n.at(env, here)?.map(Double::of),
            Operand::Untyped(p) => match one(p, env, here)? {
                Some(at) => Some(untyped_double(&string_value(env, at)?)),
                None => None,
            },
        })
    }
}

/// The one node a path reaches from `here` (`Some(None)`: none); `None` for several.
fn one(p: &Nodes, env: &mut Env<'_>, here: At) -> Option<Option<At>> {
    let mut one: Option<At> = None;
    let mut many = false;
    let mut keep = |at| {
        many = one.is_some();
        one = Some(at);
        Some(!many)
    };
    match (p.one_child_step(), here) {
        // without the walk's dynamic call for each node
        (Some(name), At::Node(n)) => children_named(name, n, env, |_, at| keep(at))?,
        _ => p.walk(env, here, &mut |_, at| keep(at))?,
    }
    if many {
        None
    } else {
        Some(one)
    }
}

/// Visits the children of `n` named `name` (any, for `None`) until `visit` answers
/// `Some(false)`: the path of one child step without predicates
/// ([`Nodes::one_child_step`], `cbc:ID`, `*`), the most frequent of the artefacts,
/// walked without [`step`] and [`each`] (and, from [`one`], without a dynamic call
/// for each node): 3.9 of 73.5 M instructions a check on the 500-line document.
fn children_named(
    name: Option<&QName>,
    n: NodeId,
    env: &mut Env<'_>,
    mut visit: impl FnMut(&mut Env<'_>, At) -> Option<bool>,
) -> Option<()> {
    env.spend().ok()?;
    let Some(q) = name else {
        for c in env.dom.children(n) {
            env.spend().ok()?;
            if !visit(env, At::Node(c))? {
                break;
            }
        }
        return Some(());
    };
    named_children(q, n, env, |env, c| visit(env, At::Node(c))).map(|_| ())
}

/// Visits the children of `n` named `q` ([`crate::ubl::dom::Dom::children_named`])
/// until `visit` answers `Some(false)` (then `Some(false)`); every child reached, of
/// any name, is a step of the budget, spent once the walk is done.
fn named_children(
    q: &QName,
    n: NodeId,
    env: &mut Env<'_>,
    mut visit: impl FnMut(&mut Env<'_>, NodeId) -> Option<bool>,
) -> Option<bool> {
    // no child has a name the document does not have
    let Key::Is(ns, local) = env.key_of(q) else {
        return Some(true);
    };
    let dom = env.dom;
    let mut named = dom.children_named(n, ns, local);
    let mut go_on = true;
    for c in named.by_ref() {
        if !visit(env, c)? {
            go_on = false;
            break;
        }
    }
    env.spend_n(named.visited()).ok()?;
    Some(go_on)
}

/// `normalize-space(q)` at `n`, `p` the path of the one child step `q`: kept once
/// read ([`Env::known_child_text`]) when it is a slice of the document.
fn normalized_child<'a>(
    p: &Nodes,
    q: &QName,
    env: &mut Env<'a>,
    n: NodeId,
) -> Option<Cow<'a, str>> {
    let name = match env.key_of(q) {
        Key::Is(Some(ns), local) => Some((ns, local)),
        _ => None,
    };
    if let Some(text) = name.and_then(|k| env.known_child_text(n, k)) {
        return Some(Cow::Borrowed(text));
    }
    let normalized = normalize_space_of(text_of(p, env, At::Node(n))?);
    if let (Some(k), Cow::Borrowed(text)) = (name, &normalized) {
        env.keep_child_text(n, k, text);
    }
    Some(normalized)
}

/// The string value of the one node a path reaches (none: the empty string; several:
/// not planned, `None`).
fn text_of<'a>(p: &Nodes, env: &mut Env<'a>, here: At) -> Option<Cow<'a, str>> {
    Some(match one(p, env, here)? {
        Some(at) => string_value(env, at)?,
        None => Cow::Borrowed(""),
    })
}

/// `xs:decimal` of where a walk stands: an element's kept once read
/// ([`Env::known_decimal`]); `None` when its text is not a decimal.
fn decimal_at(env: &mut Env<'_>, at: At) -> Option<Decimal> {
    let At::Node(n) = at else {
        return parse_number(trim_xml(&string_value(env, at)?));
    };
    if let Some(known) = env.known_decimal(n) {
        return known;
    }
    let d = parse_number(trim_xml(&env.dom.string_value(n)));
    env.keep_decimal(n, d);
    d
}

/// Whether `text` holds `pre`, then `t`, then `post` ([`Plan::Within`]): in a text of
/// at most 256 bytes, each place `t` starts (found by its first byte) is tested for
/// what stands before and after it.
/// A needle `concat(pre, t, post)` built and searched for by its first byte, a space in
/// a code list of spaces, cost 1 775 instructions at a category's code (BR-CL-18).
/// Bytes match where the UTF-8 texts do.
fn within(text: &str, pre: &str, t: &str, post: &str) -> bool {
    let (hay, mid) = (text.as_bytes(), t.as_bytes());
    let (before, after) = (pre.as_bytes(), post.as_bytes());
    // a long list (the countries, the currencies, the units: past `find`'s 256 bytes)
    // is searched by `memmem` for the whole needle
    let (Some(&first), true) = (mid.first(), hay.len() <= 256) else {
        return find(text, &[pre, t, post].concat()).is_some();
    };
    let mut from = before.len();
    while let Some(i) = hay
        .get(from..)
        .and_then(|r| r.iter().position(|&b| b == first))
    {
        let at = from + i;
        let end = at + mid.len();
        if hay.get(at..end) == Some(mid)
            && hay.get(..at).is_some_and(|b| b.ends_with(before))
            && hay.get(end..).is_some_and(|b| b.starts_with(after))
        {
            return true;
        }
        from = at + 1;
    }
    false
}

/// `a and b` where `b` is evaluated only when `a` holds (as the evaluator does).
fn and(a: bool, b: impl FnOnce() -> Option<bool>) -> Option<bool> {
    if a {
        b()
    } else {
        Some(false)
    }
}

/// Whether the string value of where a walk stands is XML white space only: an
/// element's when the own text of it and of each element below it is (its string value
/// is those texts joined; none is copied). R008's context tests it at each of the
/// document's 9 000 leaves.
fn blank(env: &Env<'_>, at: At) -> Option<bool> {
    let d = env.dom;
    let ws = |s: &str| s.bytes().all(xml_space);
    match at {
        At::Node(n) => Some(d.subtree(n).all(|m| ws(d.own_text(m)))),
        At::Attr(n, i) => Some(ws(d.attribute_at(n, i as usize)?.1)),
        At::Text(n) => Some(ws(d.own_text(n))),
        At::Doc => None,
    }
}

/// The string value of where a walk stands (an element's, an attribute's value).
fn string_value<'a>(env: &Env<'a>, at: At) -> Option<Cow<'a, str>> {
    let d = env.dom;
    match at {
        At::Node(n) => Some(d.string_value(n)),
        At::Attr(n, i) => Some(Cow::Borrowed(d.attribute_at(n, i as usize)?.1)),
        At::Text(n) => Some(Cow::Borrowed(d.own_text(n))),
        At::Doc => None,
    }
}

impl Text {
    /// A function argument (atomized: one string, or none for the empty string).
    fn of(e: &Expr) -> Option<Text> {
        Some(match e {
            Expr::Str(s) => Text::Lit(s.clone()),
            Expr::Context => Text::Focus,
            Expr::Seq(list) => match list.as_slice() {
                [one] => Text::of(one)?,
                _ => return None,
            },
            Expr::Path(..) | Expr::Shared(..) => Text::Of(Nodes::of(e)?),
            Expr::Call(..) => Text::of_call(e)?,
            _ => return None,
        })
    }

    /// A string function's call.
    fn of_call(e: &Expr) -> Option<Text> {
        let Expr::Call(name, args) = e else {
            return None;
        };
        Some(match (name.as_str(), args.as_slice()) {
            ("string", []) => Text::Focus,
            ("name" | "local-name", []) => Text::Name,
            ("string", [x]) => Text::of(x)?,
            ("normalize-space", []) => Text::Normalize(Box::new(Text::Focus)),
            ("normalize-space", [x]) => Text::Normalize(Box::new(Text::of(x)?)),
            ("upper-case", [x]) => Text::Upper(Box::new(Text::of(x)?)),
            ("substring-before" | "substring-after", [a, b]) => Text::Split(
                name == "substring-after",
                Box::new(Text::of(a)?),
                Box::new(Text::of(b)?),
            ),
            ("concat", list) if list.len() >= 2 => {
                Text::Concat(list.iter().map(Text::of).collect::<Option<_>>()?)
            }
            _ => return None,
        })
    }

    fn at<'x, 'a: 'x>(&'x self, env: &mut Env<'a>, here: At) -> Option<Cow<'x, str>> {
        Some(match self {
            Text::Lit(s) => Cow::Borrowed(s.as_str()),
            Text::Focus => string_value(env, here)?,
            Text::Name => match here {
                At::Node(n) => Cow::Borrowed(env.dom.name(n)),
                _ => return None,
            },
            Text::Of(p) => text_of(p, env, here)?,
            Text::Normalize(t) => match (&**t, here) {
                (Text::Of(p), At::Node(n)) => match p.one_child_step() {
                    Some(Some(q)) => normalized_child(p, q, env, n)?,
                    _ => normalize_space_of(t.at(env, here)?),
                },
                _ => normalize_space_of(t.at(env, here)?),
            },
            Text::Upper(t) => upper_case(t.at(env, here)?),
            Text::Split(after, a, b) => {
                let (a, b) = (a.at(env, here)?, b.at(env, here)?);
                match a {
                    Cow::Borrowed(s) => Cow::Borrowed(split_part(s, &b, *after)),
                    Cow::Owned(s) => Cow::Owned(split_part(&s, &b, *after).to_owned()),
                }
            }
            Text::Concat(list) => {
                let mut out = String::new();
                for t in list {
                    out.push_str(&t.at(env, here)?);
                }
                Cow::Owned(out)
            }
        })
    }
}

/// [`Plan::AnyVar`]: whether one node `p` reaches has a string value among the
/// strings variable `v` holds; `None` when it holds another item.
fn any_of_var(p: &Nodes, v: &str, env: &mut Env<'_>, here: At) -> Option<bool> {
    let list = std::sync::Arc::clone(env.var(v)?);
    if !list.iter().all(|i| matches!(i, Item::Str(_))) {
        return None;
    }
    let mut hit = false;
    p.walk(env, here, &mut |env, at| {
        let value = string_value(env, at)?;
        hit = list
            .iter()
            .any(|i| matches!(i, Item::Str(s) if s.as_str() == value.as_ref()));
        Some(!hit)
    })?;
    Some(hit)
}

/// The part of `s` before (or after) the first `b`; the empty string when `s` does not
/// contain `b` (`substring-before`, `substring-after`).
fn split_part<'s>(s: &'s str, b: &str, after: bool) -> &'s str {
    split_once(s, b).map_or("", |(l, r)| if after { r } else { l })
}

impl Nodes {
    /// A path whose last step is a value (`…/xs:decimal(cbc:Amount)`,
    /// `…/normalize-space(cbc:ID)`): the path before it (`None` inside when that is not
    /// planned) and that last step; `None` for any other expression.
    fn then(e: &Expr) -> Option<(Option<Nodes>, &Expr)> {
        let Expr::Path(start, steps) = e else {
            return None;
        };
        let (Step::Expr(last), prefix) = steps.split_last()? else {
            return None;
        };
        Some((Nodes::of(&Expr::Path(start.clone(), prefix.to_vec())), last))
    }

    /// A path that reaches each node once (see [`Nodes`]), if `e` is one.
    fn of(e: &Expr) -> Option<Nodes> {
        let mut out = Vec::new();
        let (start, steps): (Start, &[Step]) = match e {
            Expr::Context => (Start::Focus, &[]),
            Expr::Shared(..) => (Start::shared(e), &[]),
            Expr::Path(start, steps) => match &**start {
                Expr::Context => (Start::Focus, steps),
                Expr::Root => (Start::Doc, steps),
                Expr::Shared(..) => (Start::shared(start), steps),
                // `(cac:InvoiceLine | cac:CreditNoteLine)/…`
                union => {
                    let mut names = Vec::new();
                    child_union(union, &mut names)?;
                    out.push(PStep::ChildIn(names));
                    (Start::Focus, steps)
                }
            },
            _ => return None,
        };
        // one node so far (the focus and its parents, the document): a `//` may follow
        let mut single = !matches!(start, Start::Shared(..)) && out.is_empty();
        let mut i = 0;
        while let Some(step) = steps.get(i) {
            i += 1;
            let Step::Axis(axis, test, preds) = step else {
                return None;
            };
            match (axis, test) {
                (Axis::Parent, Test::Node)
                    if preds.is_empty() && single && out.iter().all(|s| *s == PStep::Parent) =>
                {
                    out.push(PStep::Parent);
                }
                (Axis::Child, Test::Name(q)) => {
                    out.push(PStep::Child(q.clone(), plans(preds)?));
                    single = false;
                }
                (Axis::Child, Test::Any) => {
                    out.push(PStep::ChildAny(plans(preds)?));
                    single = false;
                }
                // from one node, each ancestor is reached once
                (Axis::Ancestor, Test::Name(q)) if single => {
                    out.push(PStep::Ancestor(q.clone(), plans(preds)?));
                    single = false;
                }
                (Axis::DescendantOrSelf, Test::Node) if preds.is_empty() && single => {
                    if let Some(Step::Axis(Axis::Attribute, Test::Name(q), preds)) = steps.get(i) {
                        if !preds.is_empty() || i + 1 != steps.len() || q.prefix.is_some() {
                            return None;
                        }
                        out.push(PStep::BelowAttr(q.clone()));
                        break;
                    }
                    i += 1;
                    out.push(below_step(steps.get(i - 1)?)?);
                    single = false;
                }
                (Axis::Attribute, Test::Name(q))
                    if preds.is_empty() && i == steps.len() && q.prefix.is_none() =>
                {
                    out.push(PStep::Attr(q.clone()));
                }
                (Axis::Child, Test::Text) if preds.is_empty() && i == steps.len() => {
                    out.push(PStep::Text);
                }
                _ => return None,
            }
        }
        Some(Nodes {
            start,
            steps: chained(out),
        })
    }

    /// Whether a step of the path tests a name no element of the document has (a child,
    /// `//`, `ancestor::` step of that name, a union or a chain level of such names
    /// only): the path then reaches nothing, whatever its predicates (the evaluator's
    /// `names_absent`). A context's paths are tested once a check ([`Select::elements`]):
    /// `//cac:InvoiceLine/cac:Item/cac:StandardItemIdentification/cbc:ID` (BR-64) walked
    /// the 500 lines of the benches' document to find no element, 0.29 M instructions.
    fn names_absent(&self, env: &mut Env<'_>) -> bool {
        let mut absent = |q: &QName| env.key_of(q) == Key::Never;
        self.steps.iter().any(|s| match s {
            PStep::Child(q, _) | PStep::Below(q, _) | PStep::Ancestor(q, _) => absent(q),
            PStep::ChildIn(names) | PStep::BelowIn(names) => names.iter().all(|(q, _)| absent(q)),
            PStep::Chain(levels) => levels.iter().any(|level| level.iter().all(&mut absent)),
            PStep::Parent
            | PStep::ChildAny(_)
            | PStep::BelowAttr(_)
            | PStep::BelowAny(_)
            | PStep::BelowLeaves(_)
            | PStep::BelowNamed(..)
            | PStep::Attr(_)
            | PStep::Text => false,
        })
    }

    /// The name (`None`: any) of a path that is one child step without predicates.
    fn one_child_step(&self) -> Option<Option<&QName>> {
        match (&self.start, self.steps.as_slice()) {
            (Start::Focus, [PStep::Child(q, preds)]) if preds.is_empty() => Some(Some(q)),
            (Start::Focus, [PStep::ChildAny(preds)]) if preds.is_empty() => Some(None),
            _ => None,
        }
    }

    fn ends_in_attribute(&self) -> bool {
        matches!(
            self.steps.last(),
            Some(PStep::Attr(_) | PStep::BelowAttr(_) | PStep::Text)
        )
    }

    /// Visits each node the path reaches from `here` until `visit` answers
    /// `Some(false)`; `None` when a step is not decided here.
    fn walk(
        &self,
        env: &mut Env<'_>,
        here: At,
        visit: &mut dyn FnMut(&mut Env<'_>, At) -> Option<bool>,
    ) -> Option<()> {
        if let (Some(name), At::Node(n)) = (self.one_child_step(), here) {
            return children_named(name, n, env, visit);
        }
        if let (Start::Focus, [PStep::Chain(levels)], At::Node(n)) =
            (&self.start, self.steps.as_slice(), here)
        {
            if let Some(key) = chain_key(levels, env) {
                return chain_once(levels, key, env, n, visit);
            }
        }
        match &self.start {
            Start::Focus => {
                step(&self.steps, env, here, visit)?;
            }
            Start::Doc => {
                step(&self.steps, env, At::Doc, visit)?;
            }
            Start::Shared(e, planned) => {
                if let At::Attr(..) | At::Text(_) = here {
                    return None;
                }
                let focus = here.item();
                let value = shared_value(e, planned.as_deref(), env, focus)?;
                for item in value.iter() {
                    let at = match item {
                        Item::Node(n) => At::Node(*n),
                        Item::Doc => At::Doc,
                        _ => return None,
                    };
                    if !step(&self.steps, env, at, visit)? {
                        break;
                    }
                }
            }
        }
        Some(())
    }
}

/// The steps from `at`: `Some(false)` once `visit` asked to stop.
fn step(
    steps: &[PStep],
    env: &mut Env<'_>,
    at: At,
    visit: &mut dyn FnMut(&mut Env<'_>, At) -> Option<bool>,
) -> Option<bool> {
    let Some((first, rest)) = steps.split_first() else {
        return visit(env, at);
    };
    env.spend().ok()?;
    let d = env.dom;
    match (first, at) {
        (PStep::Parent, At::Node(n)) => step(rest, env, At::Node(d.parent(n)?), visit),
        (PStep::Child(q, preds), At::Node(n)) => {
            named_children(q, n, env, |env, c| passed(c, preds, rest, env, visit))
        }
        (PStep::Child(q, preds), At::Doc) => {
            let key = env.key_of(q);
            each(
                std::iter::once(d.root()),
                Some(key),
                preds,
                rest,
                env,
                visit,
            )
        }
        (PStep::ChildAny(preds), At::Node(n)) => each(d.children(n), None, preds, rest, env, visit),
        (PStep::ChildAny(preds), At::Doc) => {
            each(std::iter::once(d.root()), None, preds, rest, env, visit)
        }
        (PStep::ChildIn(names), At::Node(n)) => child_in(names, rest, env, n, visit),
        (PStep::Chain(levels), At::Doc | At::Node(_)) => chain(levels, rest, env, at, visit),
        (PStep::BelowAttr(q), At::Doc | At::Node(_)) => {
            for &(n, i) in env.attributes_named(q, below(at)) {
                env.spend().ok()?;
                if !visit(env, At::Attr(n, i))? {
                    return Some(false);
                }
            }
            Some(true)
        }
        (PStep::Below(q, preds), At::Doc | At::Node(_)) => {
            if let Some(done) = below_grouped(q, preds, rest, env, at, visit) {
                return done;
            }
            let key = env.key_of(q);
            let all = env.elements_named(key, below(at))?;
            each(all.iter().copied(), None, preds, rest, env, visit)
        }
        (PStep::BelowIn(names), At::Doc | At::Node(_)) => below_in(names, rest, env, at, visit),
        (PStep::Ancestor(q, preds), At::Node(n)) => {
            let key = env.key_of(q);
            let up = std::iter::successors(d.parent(n), |&p| d.parent(p));
            each(up, Some(key), preds, rest, env, visit)
        }
        // the document has no ancestor
        (PStep::Ancestor(..), At::Doc) => Some(true),
        (PStep::BelowNamed(test, preds), At::Doc | At::Node(_)) => {
            below_named(test, preds, rest, env, at, visit)
        }
        (PStep::BelowAny(preds), At::Node(n)) => {
            each(d.subtree(n).skip(1), None, preds, rest, env, visit)
        }
        (PStep::BelowAny(preds), At::Doc) => {
            each(d.subtree(d.root()), None, preds, rest, env, visit)
        }
        (PStep::BelowLeaves(preds), At::Doc | At::Node(_)) => {
            below_leaves(preds, rest, env, at, visit)
        }
        (PStep::Text, At::Node(n)) => {
            if d.own_text(n).is_empty() {
                return Some(true);
            }
            visit(env, At::Text(n))
        }
        (PStep::Attr(q), At::Node(n)) => {
            let count = u32::try_from(d.attribute_count(n)).ok()?;
            for i in 0..count {
                if env.attribute_named(q, n, i) && !visit(env, At::Attr(n, i))? {
                    return Some(false);
                }
            }
            Some(true)
        }
        _ => None,
    }
}

/// `normalize-space(c) = 'lit'`, `c` one child step by name: that step's path, the
/// name and the literal ([`below_grouped`]).
fn grouped_test(p: &Plan) -> Option<(&Nodes, &QName, &str)> {
    let Plan::Str(Text::Normalize(t), Cmp::Eq, lit) = p else {
        return None;
    };
    let Text::Of(nodes) = &**t else {
        return None;
    };
    let Some(Some(q)) = nodes.one_child_step() else {
        return None;
    };
    Some((nodes, q, lit))
}

/// [`PStep::Below`] from `at` when its first predicate compares one child's normalized
/// text with a literal ([`grouped_test`]: the VAT category's
/// `//cac:ClassifiedTaxCategory[normalize-space(cbc:ID) = 'E'][…]`, written for ten
/// codes): the elements of the name are grouped by that text once a check
/// ([`Env::known_groups`]), and the group of the literal alone is visited, in document
/// order, with the other predicates, as the walk of every element would visit it.
/// `None` when this does not apply (another first predicate, a name in any namespace,
/// an element of the name with several such children): every element is walked.
fn below_grouped(
    q: &QName,
    preds: &[Plan],
    rest: &[PStep],
    env: &mut Env<'_>,
    at: At,
    visit: &mut dyn FnMut(&mut Env<'_>, At) -> Option<bool>,
) -> Option<Option<bool>> {
    let (first, more) = preds.split_first()?;
    let (nodes, c, lit) = grouped_test(first)?;
    let groups = groups_of(nodes, q, c, env)?;
    let all = groups.get(lit).map_or(&[][..], Vec::as_slice);
    let within = env.dom.below(all, below(at));
    Some(each(within.iter().copied(), None, more, rest, env, visit))
}

/// The document's elements of name `q` grouped by `normalize-space(c)`, built at the
/// first call of a check and kept ([`Env::known_groups`]); `None` when they are not
/// decided ([`group`]) or a name is in any namespace.
fn groups_of<'a>(
    nodes: &Nodes,
    q: &QName,
    c: &QName,
    env: &mut Env<'a>,
) -> Option<std::sync::Arc<Groups<'a>>> {
    let Key::Is(Some(ns), name) = env.key_of(q) else {
        return None;
    };
    let Key::Is(Some(c_ns), c_name) = env.key_of(c) else {
        return None;
    };
    if let Some(kept) = env.known_groups((ns, name), (c_ns, c_name)) {
        return kept;
    }
    let built = group(nodes, c, (ns, name), env).map(std::sync::Arc::new);
    env.keep_groups((ns, name), (c_ns, c_name), built.clone());
    built
}

/// The document's elements of name `of` by `normalize-space(c)` ([`below_grouped`]),
/// each read as the predicate reads it ([`normalized_child`]); `None` when one has
/// several `c` (the predicate is not decided there) or the budget is spent.
fn group<'a>(nodes: &Nodes, c: &QName, of: (u32, u32), env: &mut Env<'a>) -> Option<Groups<'a>> {
    let dom = env.dom;
    let mut groups = Groups::new();
    for &e in dom.named_below(of, None) {
        let text = normalized_child(nodes, c, env, e)?;
        groups.entry(text).or_default().push(e);
    }
    Some(groups)
}

/// [`PStep::BelowNamed`] from `at`.
fn below_named(
    test: &Plan,
    preds: &[Plan],
    rest: &[PStep],
    env: &mut Env<'_>,
    at: At,
    visit: &mut dyn FnMut(&mut Env<'_>, At) -> Option<bool>,
) -> Option<bool> {
    let d = env.dom;
    let under = below(at);
    for key in d.element_keys() {
        let all = d.named_below(key, under);
        let Some(&first) = all.first() else {
            continue;
        };
        env.spend().ok()?;
        if test.at(env, At::Node(first))?
            && !each(all.iter().copied(), None, preds, rest, env, visit)?
        {
            return Some(false);
        }
    }
    Some(true)
}

/// [`PStep::ChildIn`] from an element.
fn child_in(
    names: &[(QName, Vec<Plan>)],
    rest: &[PStep],
    env: &mut Env<'_>,
    n: NodeId,
    visit: &mut dyn FnMut(&mut Env<'_>, At) -> Option<bool>,
) -> Option<bool> {
    for c in env.dom.children(n) {
        env.spend().ok()?;
        let mut hit = false;
        for (q, preds) in names {
            let key = env.key_of(q);
            if env.named(key, c) && holds(preds, env, c)? {
                hit = true;
                break;
            }
        }
        if hit && !step(rest, env, At::Node(c), visit)? {
            return Some(false);
        }
    }
    Some(true)
}

/// [`PStep::Chain`] from `at`: each element of the last level's names below it whose
/// parents up to `at` have the names of the levels above, found from the document's
/// index of the last level's names, or of a rarer level's ([`chain_from`]).
fn chain(
    levels: &[Vec<QName>],
    rest: &[PStep],
    env: &mut Env<'_>,
    at: At,
    visit: &mut dyn FnMut(&mut Env<'_>, At) -> Option<bool>,
) -> Option<bool> {
    let under = below(at);
    let last = levels.len().checked_sub(1)?;
    let key = env.key_of(levels.get(last)?.first()?);
    let mut from = last;
    let mut first = env.elements_named(key, under)?;
    // Many elements of the last name (`…/cbc:ID`), each to be climbed: first, a level
    // of whose names no element stands here reaches nothing, and a level of few
    // elements is walked down from (most UBL-CR asserts at the root:
    // `cac:InvoiceLine/cac:Item/cac:StandardItemIdentification/cbc:ID/@schemeAgencyID`,
    // `cac:AccountingSupplierParty/cac:Party/cac:PartyIdentification/cbc:ID/
    // @schemeAgencyID`).
    if first.len() > CLIMB {
        let counts: Vec<usize> = levels.iter().map(|l| level_count(l, env, under)).collect();
        let (fewest, &rarest) = counts.iter().enumerate().min_by_key(|(_, c)| **c)?;
        if rarest == 0 {
            return Some(true);
        }
        let most = counts.last().copied().unwrap_or_default();
        if fewest < last && rarest.saturating_mul(4) < most {
            from = fewest;
            let key = env.key_of(levels.get(from)?.first()?);
            first = env.elements_named(key, under)?;
        }
    }
    chain_from(levels, from, first, rest, env, under, visit)
}

/// A chain of child names, each level one name of a namespace, as one number: each
/// level's namespace (8 bits) and local name (16) numbers, at most five levels, and
/// their count. `None` for any other chain (never kept).
pub(super) fn chain_key(levels: &[Vec<QName>], env: &mut Env<'_>) -> Option<u128> {
    if levels.len() > 5 {
        return None;
    }
    let mut key = 0u128;
    for level in levels {
        let [q] = level.as_slice() else {
            return None;
        };
        let Key::Is(Some(ns), local) = env.key_of(q) else {
            return None;
        };
        if ns >= 1 << 8 || local >= 1 << 16 {
            return None;
        }
        key = (key << 24) | u128::from((ns << 16) | local);
    }
    Some(key | (levels.len() as u128) << 120)
}

/// A chain walked from an element whose chain number is `key`: the element it reaches
/// kept ([`Env::known_chain_end`]) when it reaches at most one; several are walked
/// each time.
fn chain_once(
    levels: &[Vec<QName>],
    key: u128,
    env: &mut Env<'_>,
    n: NodeId,
    visit: &mut dyn FnMut(&mut Env<'_>, At) -> Option<bool>,
) -> Option<()> {
    let end = if let Some(end) = env.known_chain_end(n, key) {
        env.spend().ok()?;
        end
    } else {
        let (mut first, mut more) = (None, false);
        chain(levels, &[], env, At::Node(n), &mut |_, at| {
            match (at, first) {
                (At::Node(c), None) => first = Some(c),
                _ => more = true,
            }
            Some(!more)
        })?;
        if more {
            chain(levels, &[], env, At::Node(n), visit)?;
            return Some(());
        }
        env.keep_chain_end(n, key, first);
        first
    };
    if let Some(c) = end {
        visit(env, At::Node(c))?;
    }
    Some(())
}

/// How many elements of a chain's last name are climbed before its levels above are
/// first looked up in the index.
const CLIMB: usize = 8;

/// How many elements of a level's names stand below `under` (`usize::MAX` for a name
/// the index does not hold, one of no namespace).
fn level_count(level: &[QName], env: &mut Env<'_>, under: Option<NodeId>) -> usize {
    level.iter().fold(0usize, |n, q| {
        let key = env.key_of(q);
        n.saturating_add(
            env.elements_named(key, under)
                .map_or(usize::MAX, <[NodeId]>::len),
        )
    })
}

/// [`PStep::Chain`] below `under` from the elements of level `from` (the last, or the
/// level of fewest elements there; `first`: those of its first name): each whose parents have the names of the levels
/// above, then down its children by the names of the levels below. Each node is
/// reached once: an element of the last level has one ancestor at the depth of
/// `from`.
fn chain_from<'a>(
    levels: &[Vec<QName>],
    from: usize,
    first: &'a [NodeId],
    rest: &[PStep],
    env: &mut Env<'a>,
    under: Option<NodeId>,
    visit: &mut dyn FnMut(&mut Env<'_>, At) -> Option<bool>,
) -> Option<bool> {
    let (above, level, deeper) = (
        levels.get(..from)?,
        levels.get(from)?,
        levels.get(from + 1..)?,
    );
    for (k, q) in level.iter().enumerate() {
        let all = if k == 0 {
            first
        } else {
            let key = env.key_of(q);
            env.elements_named(key, under)?
        };
        for &e in all {
            env.spend().ok()?;
            if placed(level, k, above, e, under, env) && !down(deeper, rest, env, e, visit)? {
                return Some(false);
            }
        }
    }
    Some(true)
}

/// Whether `e`, an element of the `k`-th name of a chain's level, stands where the
/// chain puts it: no earlier name of its level is its own (an element of two names of
/// a level is reached once, by the first), and its parents up to `under` have the
/// names of the levels `above` (the nearest last).
fn placed(
    level: &[QName],
    k: usize,
    above: &[Vec<QName>],
    e: NodeId,
    under: Option<NodeId>,
    env: &mut Env<'_>,
) -> bool {
    let d = env.dom;
    let mut named = |names: &[QName], n: NodeId| {
        names.iter().any(|q| {
            let key = env.key_of(q);
            env.named(key, n)
        })
    };
    if named(level.get(..k).unwrap_or_default(), e) {
        return false;
    }
    let mut up = e;
    for names in above.iter().rev() {
        match d.parent(up) {
            Some(p) if named(names, p) => up = p,
            _ => return false,
        }
    }
    d.parent(up) == under
}

/// The children of `n` by the names of each level in turn, then the rest of the steps.
fn down(
    levels: &[Vec<QName>],
    rest: &[PStep],
    env: &mut Env<'_>,
    n: NodeId,
    visit: &mut dyn FnMut(&mut Env<'_>, At) -> Option<bool>,
) -> Option<bool> {
    let Some((level, deeper)) = levels.split_first() else {
        return step(rest, env, At::Node(n), visit);
    };
    for c in env.dom.children(n) {
        env.spend().ok()?;
        let hit = level.iter().any(|q| {
            let k = env.key_of(q);
            env.named(k, c)
        });
        if hit && !down(deeper, rest, env, c, visit)? {
            return Some(false);
        }
    }
    Some(true)
}

/// The rest of the steps from each element of `elements` that has the name (any, for
/// `None`) and where the predicates hold: `Some(false)` once `visit` asked to stop.
fn each(
    elements: impl Iterator<Item = NodeId>,
    name: Option<Key>,
    preds: &[Plan],
    rest: &[PStep],
    env: &mut Env<'_>,
    visit: &mut dyn FnMut(&mut Env<'_>, At) -> Option<bool>,
) -> Option<bool> {
    for c in elements {
        env.spend().ok()?;
        if name.is_some_and(|k| !env.named(k, c)) {
            continue;
        }
        if !passed(c, preds, rest, env, visit)? {
            return Some(false);
        }
    }
    Some(true)
}

/// The rest of the steps from `c` when the predicates hold there (`Some(true)` when
/// they do not): `Some(false)` once `visit` asked to stop.
fn passed(
    c: NodeId,
    preds: &[Plan],
    rest: &[PStep],
    env: &mut Env<'_>,
    visit: &mut dyn FnMut(&mut Env<'_>, At) -> Option<bool>,
) -> Option<bool> {
    if !holds(preds, env, c)? {
        return Some(true);
    }
    if rest.is_empty() {
        visit(env, At::Node(c))
    } else {
        step(rest, env, At::Node(c), visit)
    }
}

/// [`PStep::BelowLeaves`] from `at`: the elements without children below it (from the
/// document: the root too) where the predicates hold.
fn below_leaves(
    preds: &[Plan],
    rest: &[PStep],
    env: &mut Env<'_>,
    at: At,
    visit: &mut dyn FnMut(&mut Env<'_>, At) -> Option<bool>,
) -> Option<bool> {
    let d = env.dom;
    let all = match at {
        At::Node(n) => n.saturating_add(1)..d.subtree(n).end,
        _ => d.subtree(d.root()),
    };
    let leaves = all.filter(|&e| d.subtree(e).len() == 1);
    match preds.split_first() {
        // R008's `//*[not(*) and not(normalize-space())]`: a leaf's string value is its
        // own text, tested as it is reached, and only the blank leaves go on (0.82 M
        // instructions to select none of 9 000 leaves, one predicate's plan each; this
        // about 0.2 M)
        Some((Plan::Blank(Text::Focus), others)) => {
            let blank = leaves.filter(|&e| d.own_text(e).bytes().all(xml_space));
            each(blank, None, others, rest, env, visit)
        }
        _ => each(leaves, None, preds, rest, env, visit),
    }
}

/// [`PStep::BelowIn`] from `at`: the elements of each name in turn.
fn below_in(
    names: &[(QName, Vec<Plan>)],
    rest: &[PStep],
    env: &mut Env<'_>,
    at: At,
    visit: &mut dyn FnMut(&mut Env<'_>, At) -> Option<bool>,
) -> Option<bool> {
    for (k, (q, preds)) in names.iter().enumerate() {
        let key = env.key_of(q);
        // two names of one element (two prefixes of a namespace): its elements would
        // be reached twice
        if names.iter().take(k).any(|(e, _)| env.key_of(e) == key) {
            return None;
        }
        let all = env.elements_named(key, below(at))?;
        if !each(all.iter().copied(), None, preds, rest, env, visit)? {
            return Some(false);
        }
    }
    Some(true)
}

/// The step after a `//` (not an attribute): a child step by name or `*`, or a
/// union of child steps by name.
fn below_step(step: &Step) -> Option<PStep> {
    Some(match step {
        Step::Axis(Axis::Child, Test::Name(q), preds) => PStep::Below(q.clone(), plans(preds)?),
        Step::Axis(Axis::Child, Test::Any, preds) => below_any(preds)?,
        Step::Expr(union) => {
            let mut names = Vec::new();
            child_union(union, &mut names)?;
            PStep::BelowIn(names)
        }
        Step::Axis(..) => return None,
    })
}

/// `//*[…]`: [`PStep::BelowNamed`] when the first predicate starts with conjuncts that
/// read of the element at most its name (the evaluator's own choice of them,
/// [`leading_conjuncts`]), else [`PStep::BelowAny`]. The conjuncts keep their order.
fn below_any(preds: &[Expr]) -> Option<PStep> {
    let and = |list: &[&Expr]| {
        let (last, before) = list.split_last()?;
        before.iter().rev().try_fold(Plan::of(last)?, |b, a| {
            Some(Plan::And(Box::new(Plan::of(a)?), Box::new(b)))
        })
    };
    let Some((first, others)) = preds.split_first() else {
        return Some(PStep::BelowAny(Vec::new()));
    };
    let by_name = leading_conjuncts(first, Reads::Name).len();
    if by_name == 0 {
        // `//*[not(*) and …]` (R008's context): the elements without children only
        let all = conjuncts(first);
        if let Some(Plan::Not(has)) = all.first().and_then(|c| Plan::of(c)) {
            if let Plan::Exists(p) = *has {
                if p.one_child_step() == Some(None) {
                    let mut rest: Vec<Plan> = and(all.get(1..)?).into_iter().collect();
                    if all.len() > 1 && rest.is_empty() {
                        return None;
                    }
                    rest.extend(plans(others)?);
                    return Some(PStep::BelowLeaves(rest));
                }
            }
        }
        return Some(PStep::BelowAny(plans(preds)?));
    }
    let all = conjuncts(first);
    let test = and(all.get(..by_name)?)?;
    let mut rest: Vec<Plan> = and(all.get(by_name..)?).into_iter().collect();
    if all.len() > by_name && rest.is_empty() {
        return None;
    }
    rest.extend(plans(others)?);
    Some(PStep::BelowNamed(Box::new(test), rest))
}

/// Runs of at least two child steps by name without predicates made [`PStep::Chain`].
fn chained(steps: Vec<PStep>) -> Vec<PStep> {
    let level = |s: &PStep| match s {
        PStep::Child(q, preds) if preds.is_empty() => Some(vec![q.clone()]),
        PStep::ChildIn(names) if names.iter().all(|(_, p)| p.is_empty()) => {
            Some(names.iter().map(|(q, _)| q.clone()).collect())
        }
        _ => None,
    };
    let mut out: Vec<PStep> = Vec::new();
    let mut run: Vec<(PStep, Vec<QName>)> = Vec::new();
    let flush = |run: &mut Vec<(PStep, Vec<QName>)>, out: &mut Vec<PStep>| {
        if run.len() >= 2 {
            out.push(PStep::Chain(run.drain(..).map(|(_, l)| l).collect()));
        } else {
            out.extend(run.drain(..).map(|(s, _)| s));
        }
    };
    for s in steps {
        if let Some(l) = level(&s) {
            run.push((s, l));
        } else {
            flush(&mut run, &mut out);
            out.push(s);
        }
    }
    flush(&mut run, &mut out);
    out
}

/// The names of a union of child steps (`(a[p] | b)`, in parentheses or not), each
/// with its predicates.
fn child_union(e: &Expr, out: &mut Vec<(QName, Vec<Plan>)>) -> Option<()> {
    match e {
        Expr::Seq(list) => match list.as_slice() {
            [one] => child_union(one, out),
            _ => None,
        },
        Expr::Union(a, b) => {
            child_union(a, out)?;
            child_union(b, out)
        }
        Expr::Path(start, steps) => match (&**start, steps.as_slice()) {
            (Expr::Context, [Step::Axis(Axis::Child, Test::Name(q), preds)]) => {
                out.push((q.clone(), plans(preds)?));
                Some(())
            }
            _ => None,
        },
        _ => None,
    }
}

/// The plans of a step's predicates, if each has one.
fn plans(preds: &[Expr]) -> Option<Vec<Plan>> {
    preds.iter().map(Plan::of).collect()
}

/// Where a `//` from `at` searches below: an element, or the whole document.
fn below(at: At) -> Option<NodeId> {
    match at {
        At::Node(n) => Some(n),
        _ => None,
    }
}

/// Whether every predicate holds at an element.
fn holds(preds: &[Plan], env: &mut Env<'_>, n: NodeId) -> Option<bool> {
    for p in preds {
        if !p.at(env, At::Node(n))? {
            return Some(false);
        }
    }
    Some(true)
}

impl Nodes {
    /// The nodes of a shared path's value alone (no step after it) grouped by their
    /// string value, built once a layer ([`Env::known_shared_groups`]): a general
    /// comparison of them with a string (`//cac:ClassifiedTaxCategory/cbc:ID = 'B'`,
    /// BR-B-01 and BR-B-02, five times over every line's category) is then a lookup,
    /// where the walk compared each node's value (its outcome is whether one holds:
    /// not the order of the nodes). `None` when this does not apply: another path, a
    /// focus that is not an element or the document (the walk's), a value that is not
    /// elements without children.
    fn shared_values<'a>(&self, env: &mut Env<'a>, here: At) -> Option<std::sync::Arc<Groups<'a>>> {
        let (Start::Shared(e @ Expr::Shared(id, _), planned), []) =
            (&self.start, self.steps.as_slice())
        else {
            return None;
        };
        if !matches!(here, At::Node(_) | At::Doc) {
            return None;
        }
        let key = (*id, None);
        if let Some(kept) = env.known_shared_groups(key) {
            return Some(kept);
        }
        let value = shared_value(e, planned.as_deref(), env, here.item())?;
        let dom = env.dom;
        let mut groups = Groups::new();
        for item in value.iter() {
            // elements without children, whose string value is a slice of the document
            // (an element's with children would be a copy of its text, kept)
            let Item::Node(n) = *item else {
                return None;
            };
            if dom.subtree(n).len() != 1 {
                return None;
            }
            groups.entry(dom.string_value(n)).or_default().push(n);
        }
        let groups = std::sync::Arc::new(groups);
        env.keep_shared_groups(key, std::sync::Arc::clone(&groups));
        Some(groups)
    }

    /// `S/c[normalize-space(.) = 'lit']`, `S` a shared path's value (the VAT
    /// categories' rules, ten codes each: `//cac:ClassifiedTaxCategory[cac:TaxScheme/…
    /// = 'VAT']/cbc:ID[normalize-space(.) = 'AE']`): the children `c` of `S`'s nodes
    /// are grouped by their normalized text once a layer ([`Env::known_shared_groups`]),
    /// each text read as the predicate reads it, and the group of the literal is the
    /// path's nodes, in the order the walk visits them. Each code's walk of every line's
    /// category was about 35 µs a check on the 500-line UBL. `None` when this does not
    /// apply (another shape, a name in any namespace, a value of `S` that is not
    /// elements); `Some(None)` when a text is not decided.
    fn shared_by_text(&self, env: &mut Env<'_>, out: &mut Vec<NodeId>) -> Option<Option<()>> {
        let (Start::Shared(e, planned), [PStep::Child(c, preds)]) =
            (&self.start, self.steps.as_slice())
        else {
            return None;
        };
        let (Expr::Shared(id, _), [Plan::Str(Text::Normalize(of), Cmp::Eq, lit)]) =
            (e, preds.as_slice())
        else {
            return None;
        };
        if **of != Text::Focus {
            return None;
        }
        let Key::Is(Some(ns), name) = env.key_of(c) else {
            return None;
        };
        let key = (*id, Some((ns, name)));
        let groups = if let Some(kept) = env.known_shared_groups(key) {
            kept
        } else {
            let value = shared_value(e, planned.as_deref(), env, Item::Doc)?;
            let mut groups = Groups::new();
            for item in value.iter() {
                let Item::Node(top) = *item else {
                    return None;
                };
                let dom = env.dom;
                let mut named = dom.children_named(top, Some(ns), name);
                for child in named.by_ref() {
                    // as `Text::at` reads `normalize-space(.)` at an element
                    let Some(t) = string_value(env, At::Node(child)) else {
                        return Some(None);
                    };
                    groups.entry(normalize_space_of(t)).or_default().push(child);
                }
                if env.spend_n(named.visited()).is_err() {
                    return Some(None);
                }
            }
            let groups = std::sync::Arc::new(groups);
            env.keep_shared_groups(key, std::sync::Arc::clone(&groups));
            groups
        };
        out.extend_from_slice(groups.get(lit.as_str()).map_or(&[][..], Vec::as_slice));
        Some(Some(()))
    }

    /// The elements a context's path selects, when it is child steps by name without
    /// predicates from the document (the first may be `//`) or from a shared path's
    /// nodes, and a last child step whose first predicate compares one child's
    /// normalized text with a literal
    /// (`cac:InvoiceLine/cac:Item/cac:ClassifiedTaxCategory[normalize-space(cbc:ID) =
    /// 'S'][…]`, a VAT category's context, written for ten codes): the literal's group
    /// ([`below_grouped`]'s) is climbed from instead of every line walked down. Pushed
    /// into `out` in document order, not the walk's (a context's elements are a set);
    /// `None` when the path has another shape or the group is not decided.
    fn grouped(&self, env: &mut Env<'_>, out: &mut Vec<NodeId>) -> Option<Option<()>> {
        let [above @ .., PStep::Child(q, preds)] = self.steps.as_slice() else {
            return None;
        };
        let doc = matches!(self.start, Start::Doc);
        let names: Vec<Key> = above
            .iter()
            .enumerate()
            .map(|(i, s)| match s {
                PStep::Child(n, p) if p.is_empty() => Some(env.key_of(n)),
                PStep::Below(n, p) if p.is_empty() && i == 0 && doc => Some(env.key_of(n)),
                _ => None,
            })
            .collect::<Option<_>>()?;
        let (first, more) = preds.split_first()?;
        let (nodes, c, lit) = grouped_test(first)?;
        // from a shared path's value (`//cac:InvoiceLine/cac:Item`, kept once a
        // document): the element the climb ends at must be one of its nodes
        let tops: Option<std::sync::Arc<Vec<Item>>> = match &self.start {
            Start::Doc => None,
            Start::Shared(e, planned) => {
                let value = shared_value(e, planned.as_deref(), env, Item::Doc)?;
                let sorted = value.windows(2).all(|w| match w {
                    [Item::Node(before), Item::Node(after)] => before < after,
                    _ => false,
                }) && value.iter().all(|i| matches!(i, Item::Node(_)));
                if !sorted {
                    return None;
                }
                Some(value)
            }
            Start::Focus => return None,
        };
        let groups = groups_of(nodes, q, c, env)?;
        let from_root = doc && matches!(above.first(), None | Some(PStep::Child(..)));
        let d = env.dom;
        for &x in groups.get(lit).map_or(&[][..], Vec::as_slice) {
            if env.spend().is_err() {
                return Some(None);
            }
            let mut up = x;
            let mut placed = true;
            for &key in names.iter().rev() {
                match d.parent(up) {
                    Some(p) if env.named(key, p) => up = p,
                    _ => {
                        placed = false;
                        break;
                    }
                }
            }
            if !placed || (from_root && d.parent(up).is_some()) {
                continue;
            }
            if let Some(tops) = &tops {
                // the path's first step is a child of one of the shared nodes
                let Some(top) = d.parent(up) else {
                    continue;
                };
                let found = tops.binary_search_by(|i| match i {
                    Item::Node(n) => n.cmp(&top),
                    _ => std::cmp::Ordering::Less,
                });
                if found.is_err() {
                    continue;
                }
            }
            match holds(more, env, x) {
                Some(true) => out.push(x),
                Some(false) => {}
                None => return Some(None),
            }
        }
        Some(Some(()))
    }
}

/// A rule's context, planned: the union of the paths it selects from the document.
#[derive(Debug, Clone, PartialEq)]
pub struct Select(Vec<Nodes>);

impl Select {
    /// The plan of a context, if each path of its union is planned.
    pub fn of(e: &Expr) -> Option<Select> {
        fn gather(e: &Expr, out: &mut Vec<Nodes>) -> Option<()> {
            if let Expr::Union(a, b) = e {
                gather(a, out)?;
                return gather(b, out);
            }
            out.push(Nodes::of(e)?);
            Some(())
        }
        let mut out = Vec::new();
        gather(e, &mut out)?;
        Some(Select(out))
    }

    /// The elements the context selects from the document, each path's in turn (an
    /// element reached by two paths comes twice); `None` when a step is not decided.
    pub fn elements(&self, env: &mut Env<'_>) -> Option<Vec<NodeId>> {
        let mut out = Vec::new();
        for p in &self.0 {
            if p.names_absent(env) {
                continue;
            }
            if let Some(found) = p.shared_by_text(env, &mut out) {
                found?;
                continue;
            }
            if let Some(found) = p.grouped(env, &mut out) {
                found?;
                continue;
            }
            p.walk(env, At::Doc, &mut |_, at| {
                if let At::Node(n) = at {
                    out.push(n);
                }
                Some(true)
            })?;
        }
        Some(out)
    }

    /// The context's value as the evaluator gives it: the elements in document order,
    /// each once; `None` when a step is not decided.
    pub fn value(&self, env: &mut Env<'_>) -> Option<Vec<Item>> {
        let mut nodes = self.elements(env)?;
        nodes.sort_unstable();
        nodes.dedup();
        Some(nodes.into_iter().map(Item::Node).collect())
    }
}

#[cfg(test)]
mod tests;
