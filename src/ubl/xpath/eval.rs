//! The evaluation of [`Expr`] over a [`Dom`], as XPath 2.0 defines it for what the
//! artefacts use: sequences of nodes and atomic values, document order, general and
//! value comparisons, `xs:decimal` arithmetic (exact: no float touches a value; a
//! number that is not a number is NaN), `xs:double` where XPath 2.0 types a value so
//! (an untyped value in arithmetic or compared with a number, `number()`, `sum` of
//! untyped values: computed as Saxon computes it, with integers only,
//! [`crate::en16931::double`]), effective boolean values and the functions the
//! asserts call: XPath's own, and the stylesheets' `xsl:function`s, evaluated from the
//! artefacts' data ([`Function`]: parameters converted to their types, variables,
//! `xsl:choose`) as XSLT evaluates them. A dynamic error (a cast that fails, an
//! unknown function, calls nested too deep) is an `Err`, never a panic.
//!
//! Most asserts ask whether a node exists, compare one node's text with a literal, or
//! read one child's text. Those are answered by walking the document from the focus
//! node by node (`Env::walk`), with no sequence built: a path whose steps go up first
//! (`..`), then down by child names, child unions (`(cac:InvoiceLine |
//! cac:CreditNoteLine)`), `//` or one attribute, whose predicates are boolean and read
//! no position, and whose last step may be an expression of one value
//! (`…/normalize-space(cbc:ID)`). Name tests are resolved once a document to two
//! integers ([`super::parse::QName::id`]). Any other expression takes the general
//! evaluation, which builds the sequence of each step; both give the same answer (the
//! CEN unit tests and the differential run against the official validator hold for
//! both), and a walk that stops early (`exists`, a comparison that holds) is the only
//! difference: like Saxon, it does not evaluate what cannot change the answer.
//!
//! What a walk skips, for the same reason (XPath lets an evaluator leave out what
//! cannot change a value, errors included):
//! - a path with a step that names what no element or attribute of the document is
//!   named selects nothing, and is not walked (`not((cac:InvoiceLine |
//!   cac:CreditNoteLine)/cbc:UUID)`, 131 asserts of UBL-CR);
//! - in `//*[p]`, the conjuncts at the start of `p` that read only the element's name
//!   (`parse::focus_reads`) are decided once per name;
//! - in `//x[p]`, the conjuncts at the start of `p` that read nothing of the element
//!   (`$supplierCountry = 'SE'`, a path from the root) are decided once, at the first
//!   `x`;
//! - `*` as a boolean is whether the element has a child element; `count` of a walked
//!   path counts as it walks; a comparison with `true()`/`false()` is made node by node.

// An evaluator names its operands as XPath's grammar does: `a`, `b`, `e`, `f` (focus).
#![allow(clippy::many_single_char_names, clippy::similar_names)]
// An argument that is absent, or a number that is NaN: two different nothings.
#![allow(clippy::option_option)]

use super::parse::{
    any, boolean_function, leading_conjuncts, parse, Arith, Axis, Cmp, Expr, QName, Reads, Step,
    Test,
};
use crate::en16931::artefacts::{self, Instruction};
use crate::en16931::double::{self, Double};
use crate::en16931::xpath::{find, split_once, trim_xml};
use crate::ubl::dom::{Dom, NodeId};
use chrono::NaiveDate;
use rust_decimal::Decimal;
use std::borrow::Cow;
use std::cmp::Ordering;

/// An item of a sequence.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// The document node.
    Doc,
    /// An element.
    Node(NodeId),
    /// The element's attribute at an index.
    Attr(NodeId, u32),
    /// The element's own text, as a text node.
    Text(NodeId),
    Str(String),
    /// An `xs:decimal` or `xs:integer`; `None` is NaN.
    Num(Option<Decimal>),
    /// An `xs:double` (`number()`, arithmetic on an untyped value).
    Double(Double),
    Bool(bool),
    Date(NaiveDate),
}

/// A sequence.
pub type Seq = Vec<Item>;

/// An atomic value.
#[derive(Debug, Clone, PartialEq)]
enum Atom {
    Untyped(String),
    Str(String),
    Num(Option<Decimal>),
    Double(Double),
    Bool(bool),
    Date(NaiveDate),
}

/// A number as XPath types it: an `xs:decimal` (or `xs:integer`; `None` is NaN) or an
/// `xs:double`. An operation on two decimals is exact; one with a double (an untyped
/// value is one) is computed in doubles, as XPath 2.0 promotes it ([`Double`]).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Number {
    Dec(Option<Decimal>),
    Dbl(Double),
}

impl Number {
    fn double(self) -> Double {
        match self {
            Self::Dec(Some(d)) => Double::of(d),
            Self::Dec(None) => Double::NaN,
            Self::Dbl(x) => x,
        }
    }

    fn item(self) -> Item {
        match self {
            Self::Dec(n) => Item::Num(n),
            Self::Dbl(x) => Item::Double(x),
        }
    }

    /// The value as a decimal, where a position or a length is read from it: NaN is
    /// `None`, an infinity the largest decimal of its sign.
    fn value(self) -> Option<Decimal> {
        match self {
            Self::Dec(n) => n,
            Self::Dbl(Double::Inf(true)) => Some(Decimal::MIN),
            Self::Dbl(Double::Inf(false)) => Some(Decimal::MAX),
            Self::Dbl(x) => x.decimal(),
        }
    }

    /// A function of the value that keeps its type (`abs`, `round`, …).
    fn map(self, f: impl Fn(Decimal) -> Option<Decimal>) -> Self {
        match self {
            Self::Dec(n) => Self::Dec(n.and_then(f)),
            Self::Dbl(x) => Self::Dbl(x.map(f)),
        }
    }

    /// `a + b`, exact on decimals (an error past their range).
    fn add(self, other: Self) -> Result<Self, Error> {
        Ok(match (self, other) {
            (Self::Dec(Some(a)), Self::Dec(Some(b))) => {
                Self::Dec(Some(a.checked_add(b).ok_or("a sum past the range")?))
            }
            (Self::Dec(_), Self::Dec(_)) => Self::Dec(None),
            (a, b) => Self::Dbl(a.double().add(b.double())),
        })
    }

    /// The order of two numbers (`None`: one is NaN); a decimal compared with a double
    /// is a double, as XPath promotes it. Two decimals of at most 15 digits each are
    /// compared as they are: distinct such decimals are distinct doubles in the same
    /// order (a double holds 15 decimal digits), and that is most comparisons.
    fn compare(self, other: Self) -> Option<Ordering> {
        match (self, other) {
            (Self::Dec(a), Self::Dec(b)) => Some(a?.cmp(&b?)),
            (Self::Dec(Some(a)), Self::Dbl(x)) | (Self::Dbl(x), Self::Dec(Some(a)))
                if short(a) && x.decimal().is_some_and(short) =>
            {
                let b = x.decimal()?;
                Some(if matches!(self, Self::Dec(_)) {
                    a.cmp(&b)
                } else {
                    b.cmp(&a)
                })
            }
            (a, b) => a.double().compare(b.double()),
        }
    }
}

/// Whether a decimal has at most 15 digits: two such compare as their doubles do.
fn short(d: Decimal) -> bool {
    d.mantissa().unsigned_abs() < 1_000_000_000_000_000
}

/// An untyped text compared with a decimal, as XPath compares them (both as doubles);
/// `None` when the text is not a number. The text is first read as a decimal: two of at
/// most 15 digits compare as their doubles do ([`Number::compare`]).
pub(super) fn compare_untyped(text: &str, d: Decimal) -> Option<Ordering> {
    match double::exact(text) {
        Some(t) if short(t) && short(d) => Some(t.cmp(&d)),
        _ => Double::parse(text)?.compare(Double::of(d)),
    }
}

/// How many compiled patterns an evaluation keeps (the artefacts have fewer).
const MAX_PATTERNS: usize = 64;

/// An evaluation error.
pub type Error = String;

/// What an expression is evaluated in: the document, the namespaces of prefixes, the
/// variables in scope, XSLT's `current()`, the stylesheet's functions, and the focus.
pub struct Env<'a> {
    pub dom: &'a Dom,
    pub ns: fn(&str) -> Option<&'static str>,
    /// The variables in scope, innermost last (shared values: a code list is bound
    /// once a process, not copied).
    pub vars: Vec<(Cow<'static, str>, std::sync::Arc<Seq>)>,
    /// Values of variables gone out of scope that nothing else holds, for the next
    /// ones ([`Self::bind`], [`Self::unbind`]).
    spare: Vec<std::sync::Arc<Seq>>,
    pub current: Item,
    /// How many evaluation steps are left (a bound on the work of one assert).
    pub fuel: u64,
    /// The `xsl:function`s of the stylesheet being applied, compiled.
    pub functions: &'a [Function],
    /// How many calls of those functions are under way (bounded by [`MAX_CALLS`]).
    depth: usize,
    /// The values of the [`Expr::Shared`] paths met so far, by number (cleared when
    /// another stylesheet, whose paths are numbered anew, is applied).
    pub shared: Vec<Option<std::sync::Arc<Seq>>>,
    /// The regular expressions compiled for this document, by pattern (the artefacts
    /// use a few dozen, most of them many times).
    regexes: Vec<(String, std::sync::Arc<regex::Regex>)>,
    /// The name tests resolved against this document, by [`QName::id`].
    keys: Vec<Key>,
    /// The namespaces' numbers in this document, by URI ([`Self::namespace_number`]).
    namespaces: Vec<(&'static str, Option<u32>)>,
    /// The walked sums of the expression being evaluated (cleared at each
    /// [`Env::eval_at`] and [`Env::test_at`]).
    sums: Vec<Sum>,
    /// `normalize-space(name)` of elements, as a plan read it ([`Self::known_child_text`]).
    child_texts: Vec<Option<ChildText<'a>>>,
    /// The one element a chain of child steps reaches from an element, or none, as a
    /// plan walked it ([`Self::known_chain_end`]).
    chain_ends: Vec<Option<ChainEnd>>,
    /// Elements' texts cast to `xs:decimal` (`None`: not a decimal), as a plan read
    /// them ([`Self::known_decimal`]).
    decimals: Vec<Option<(NodeId, Option<Decimal>)>>,
    /// The elements of a name grouped by the normalized text of their one child of
    /// another name, as a plan built them ([`Self::known_groups`]).
    groups: Vec<(GroupKey, Option<std::sync::Arc<Groups<'a>>>)>,
    /// A shared path's nodes grouped by their string value, or their children of a
    /// name grouped by their normalized text, as a plan built them
    /// ([`Self::known_shared_groups`]; cleared with [`Self::shared`]).
    shared_groups: Vec<(SharedGroupKey, std::sync::Arc<Groups<'a>>)>,
    /// The totals of a sum whose last predicate reads a variable, by the value it
    /// compares with it, as a plan built them ([`Self::known_grouped_sum`]): by the
    /// sum's argument and the element its last step starts at; `None`: not decided.
    grouped_sums: Vec<GroupedSum>,
}

/// Totals by a decimal ([`Env::known_grouped_sum`]; `None`: not decided).
pub(super) type SumGroups = std::collections::BTreeMap<Decimal, Option<Decimal>>;

/// A sum's argument, the element its walk's last step starts at, and its totals.
type GroupedSum = (
    std::sync::Arc<Expr>,
    NodeId,
    Option<std::sync::Arc<SumGroups>>,
);

/// Which groups of [`Env::shared_groups`]: the shared path's number, and `None` for its
/// nodes by their string value, or the name (by its numbers) of their children grouped
/// by their normalized text.
type SharedGroupKey = (u32, Option<(u32, u32)>);

/// Elements by a normalized text ([`Env::known_groups`]), each list in document order.
pub(super) type Groups<'a> = std::collections::BTreeMap<Cow<'a, str>, Vec<NodeId>>;

/// Which [`Groups`]: the elements' name and the compared child's name, by their
/// numbers.
type GroupKey = ((u32, u32), (u32, u32));

/// An element, a chain of child names ([`super::plan::chain_key`]), and the one
/// element the chain reaches from it (`None`: no element).
type ChainEnd = (NodeId, u128, Option<NodeId>);

/// An element, the name of its one child, and that child's normalized text (empty
/// without the child), when it is a slice of the document.
type ChildText<'a> = (NodeId, (u32, u32), &'a str);

/// How many sequences of unbound variables [`Env::unbind`] keeps.
const SPARE: usize = 16;

/// At most this many of [`Env::child_texts`] (fewer for a document of fewer elements).
const CHILD_TEXTS: usize = 4096;

/// How many walked sums one evaluation keeps ([`Sum`]): the first ones met. A bound,
/// so that a sum in a loop over the document's nodes is not looked up among all the
/// ones before it. 16 keeps as much as no bound on the 500-line document (8 loses
/// 0.3 M instructions a check; BR-S-08 alone needs three).
const MAX_SUMS: usize = 16;

/// How many sums' totals by a variable's value a check keeps ([`Env::known_grouped_sum`],
/// found by comparing them all): BR-S-08 keeps three, for the root; a sum of that shape
/// at every line would keep one a line, and past these it is walked as before.
const MAX_GROUPED_SUMS: usize = 32;

/// A walked `sum` already computed in this evaluation: its argument (held, so that
/// no other expression can take its address), the focus, whether the argument reads
/// the scope, and then `current()` and the variables in scope (their values held
/// likewise), and the total. BR-S-08 writes each of its three sums twice, for its
/// lower and its upper bound.
struct Sum {
    arg: std::sync::Arc<Expr>,
    focus: Option<Item>,
    /// `None` for an argument that reads neither a variable nor `current()`: its
    /// total is the focus's wherever it is met.
    scope: Option<(Item, Vec<std::sync::Arc<Seq>>)>,
    total: Number,
}

impl Sum {
    /// Whether this sum is of `arg` at `focus` in `env`'s present scope. The same
    /// expression is the same argument; another is compared as written.
    fn is(&self, arg: &Expr, focus: Option<&Item>, env: &Env<'_>) -> bool {
        self.focus.as_ref() == focus
            && (std::ptr::eq(std::sync::Arc::as_ptr(&self.arg), arg) || *self.arg == *arg)
            && self.scope.as_ref().is_none_or(|(current, vars)| {
                *current == env.current
                    && vars.len() == env.vars.len()
                    && vars
                        .iter()
                        .zip(&env.vars)
                        .all(|(a, (_, b))| std::sync::Arc::ptr_eq(a, b))
            })
    }
}

/// Whether a `sum`'s argument reads a variable or `current()`: its total then depends
/// on the scope it is met in, not only on its focus ([`Sum`]).
pub(super) fn reads_scope(arg: &Expr) -> bool {
    super::parse::any(arg, &mut |x| {
        matches!(x, Expr::Var(_))
            || matches!(x, Expr::Call(name, args) if name == "current" && args.is_empty())
    })
}

/// A name test resolved against a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Key {
    Unresolved,
    /// No element or attribute of the document has that name.
    Never,
    /// The numbers of the namespace (`None`: any) and of the local name.
    Is(Option<u32>, u32),
}

impl Key {
    /// Whether an element of these numbers has the name.
    fn holds(self, (ns, name): (u32, u32)) -> bool {
        matches!(self, Key::Is(n, l) if l == name && n.is_none_or(|n| n == ns))
    }
}

/// How deep calls of the stylesheets' functions may nest (`u:addPIVA` calls itself once
/// a digit): a bound, so that no input exhausts the stack.
pub(crate) const MAX_CALLS: usize = 64;

/// The focus: the context item (`None` inside a function's body, where it is absent),
/// its position and the size of its sequence.
#[derive(Clone)]
struct Focus {
    item: Option<Item>,
    pos: usize,
    size: usize,
}

impl Focus {
    /// An item as the context of a predicate or a step that reads no position.
    fn at(item: Item) -> Self {
        Focus {
            item: Some(item),
            pos: 1,
            size: 1,
        }
    }

    /// The context item, or the error of XPath when it is absent (XPDY0002).
    fn item(&self) -> Result<&Item, Error> {
        self.item
            .as_ref()
            .ok_or_else(|| "the context item is absent (in a function's body)".into())
    }
}

impl<'a> Env<'a> {
    /// An environment over `dom`: no variable bound, the document as `current()`,
    /// `fuel` steps, and the functions of a stylesheet.
    pub fn new(
        dom: &'a Dom,
        ns: fn(&str) -> Option<&'static str>,
        fuel: u64,
        functions: &'a [Function],
    ) -> Self {
        Env {
            dom,
            ns,
            vars: Vec::new(),
            spare: Vec::new(),
            current: Item::Doc,
            fuel,
            functions,
            depth: 0,
            shared: Vec::new(),
            regexes: Vec::new(),
            keys: Vec::new(),
            namespaces: Vec::new(),
            sums: Vec::new(),
            child_texts: Vec::new(),
            chain_ends: Vec::new(),
            decimals: Vec::new(),
            groups: Vec::new(),
            shared_groups: Vec::new(),
            grouped_sums: Vec::new(),
        }
    }
}

impl Env<'_> {
    /// Evaluates `e` with `item` as the context item.
    pub fn eval_at(&mut self, e: &Expr, item: Item) -> Result<Seq, Error> {
        self.begin();
        self.eval(e, &Focus::at(item))
    }

    /// The effective boolean value of `e` at `item`.
    pub fn test_at(&mut self, e: &Expr, item: Item) -> Result<bool, Error> {
        self.begin();
        self.test(e, &Focus::at(item))
    }

    fn burn(&mut self) -> Result<(), Error> {
        self.fuel = self
            .fuel
            .checked_sub(1)
            .ok_or_else(|| "the evaluation took too long".to_owned())?;
        Ok(())
    }

    fn eval(&mut self, e: &Expr, f: &Focus) -> Result<Seq, Error> {
        self.burn()?;
        Ok(match e {
            Expr::Str(s) => vec![Item::Str(s.clone())],
            Expr::Num(n) => vec![Item::Num(Some(*n))],
            Expr::Var(v) => self.variable(v)?.clone(),
            Expr::Context => vec![f.item()?.clone()],
            Expr::Root => {
                f.item()?;
                vec![Item::Doc]
            }
            Expr::Seq(list) => {
                let mut out = Vec::new();
                for x in list {
                    out.extend(self.eval(x, f)?);
                }
                out
            }
            Expr::Filter(base, preds) => {
                if let (Expr::Var(name), Some((first, rest))) = (base.as_ref(), preds.split_first())
                {
                    if let Some(s) = self.index_variable(name, first, f)? {
                        return self.filter(s, rest);
                    }
                }
                let s = self.eval(base, f)?;
                self.filter(s, preds)?
            }
            Expr::Path(start, steps) => self.path(start, steps, f)?,
            Expr::Call(name, args) => self.call(name, args, f)?,
            Expr::Shared(..) => {
                let v = self.shared_value(e, f)?;
                std::sync::Arc::unwrap_or_clone(v)
            }
            Expr::Or(..) | Expr::And(..) => vec![Item::Bool(self.test(e, f)?)],
            Expr::If(..) | Expr::Quantified(..) | Expr::For(..) => return self.control(e, f),
            _ => return self.operator(e, f),
        })
    }

    /// A path: where it starts, then each step from every item of the last.
    fn path(&mut self, start: &Expr, steps: &[Step], f: &Focus) -> Result<Seq, Error> {
        if let Some(from) = self.walk_start(start, steps, f)? {
            let mut out = Vec::new();
            self.walk_from(&from, start, steps, &mut |_, item| {
                out.push(item.clone());
                Ok(true)
            })?;
            if out.iter().all(is_node) && !out.is_sorted_by_key(order) {
                sort_dedup(&mut out);
            }
            return Ok(out);
        }
        let mut s = self.eval(start, f)?;
        let mut k = 0;
        while let Some(step) = steps.get(k) {
            // `//x[p]` (descendant-or-self::node()/child::x[p]) is
            // descendant::x[p] when no predicate counts positions: one pass;
            // `//@a` the attributes of every element, without listing them.
            if let (
                Step::Axis(Axis::DescendantOrSelf, Test::Node, first),
                Some(Step::Axis(next @ (Axis::Child | Axis::Attribute), test, preds)),
            ) = (step, steps.get(k + 1))
            {
                if first.is_empty() && preds.iter().all(|p| self.plain(p)) {
                    s = if *next == Axis::Child {
                        self.step_axis(&s, Axis::Descendant, test, preds)?
                    } else {
                        let found = self.attributes_below(&s, test);
                        self.filter(found, preds)?
                    };
                    k += 2;
                    continue;
                }
            }
            // `//(a | b)`: descendant::a | descendant::b.
            if let (Step::Axis(Axis::DescendantOrSelf, Test::Node, first), Some(Step::Expr(e))) =
                (step, steps.get(k + 1))
            {
                let mut branches = Vec::new();
                if first.is_empty()
                    && child_union(e, &mut branches)
                    && branches
                        .iter()
                        .all(|(_, preds)| preds.iter().all(|p| self.plain(p)))
                {
                    let mut all = Vec::new();
                    for (test, preds) in branches {
                        all.extend(self.step_axis(&s, Axis::Descendant, test, preds)?);
                    }
                    sort_dedup(&mut all);
                    s = all;
                    k += 2;
                    continue;
                }
            }
            s = self.step(&s, step)?;
            k += 1;
        }
        Ok(s)
    }

    /// `if`, `some`/`every` and `for`.
    fn control(&mut self, e: &Expr, f: &Focus) -> Result<Seq, Error> {
        Ok(match e {
            Expr::If(c, t, e2) => {
                if self.test(c, f)? {
                    self.eval(t, f)?
                } else {
                    self.eval(e2, f)?
                }
            }
            Expr::Quantified(every, binds, sat) => {
                vec![Item::Bool(self.quantified(*every, binds, sat, f)?)]
            }
            Expr::For(binds, ret) => self.for_each(binds, ret, f)?,
            _ => Vec::new(),
        })
    }

    /// The comparisons, arithmetic, unions, ranges and casts.
    fn operator(&mut self, e: &Expr, f: &Focus) -> Result<Seq, Error> {
        Ok(match e {
            Expr::Compare(op, general, a, b) => {
                if *general {
                    if let Some(v) = self.compare_literal(*op, a, b, f)? {
                        return Ok(vec![Item::Bool(v)]);
                    }
                    if let Some(v) = self.compare_with_list(*op, a, b, f)? {
                        return Ok(vec![Item::Bool(v)]);
                    }
                }
                let l = {
                    let tmp = self.eval(a, f)?;
                    self.atoms(&tmp)
                };
                let r = {
                    let tmp = self.eval(b, f)?;
                    self.atoms(&tmp)
                };
                if *general {
                    let any = l.iter().any(|x| r.iter().any(|y| general_cmp(*op, x, y)));
                    vec![Item::Bool(any)]
                } else {
                    match (l.as_slice(), r.as_slice()) {
                        ([x], [y]) => vec![Item::Bool(value_cmp(*op, x, y)?)],
                        ([], _) | (_, []) => Vec::new(),
                        _ => return Err("a value comparison of more than one item".into()),
                    }
                }
            }
            Expr::Arith(op, a, b) => {
                if let Some(x) = self.one_item(a, f)? {
                    if let Some(y) = self.one_item(b, f)? {
                        let (Some(x), Some(y)) = (x, y) else {
                            return Ok(Vec::new());
                        };
                        let (x, y) = (self.atom(&x), self.atom(&y));
                        return Ok(vec![arith(*op, &x, &y)?]);
                    }
                }
                let l = {
                    let tmp = self.eval(a, f)?;
                    self.atoms(&tmp)
                };
                let r = {
                    let tmp = self.eval(b, f)?;
                    self.atoms(&tmp)
                };
                match (l.as_slice(), r.as_slice()) {
                    ([], _) | (_, []) => Vec::new(),
                    ([x], [y]) => vec![arith(*op, x, y)?],
                    _ => return Err("arithmetic on more than one item".into()),
                }
            }
            Expr::Neg(a) => {
                let v = {
                    let tmp = self.eval(a, f)?;
                    self.atoms(&tmp)
                };
                match v.as_slice() {
                    [] => Vec::new(),
                    [x] => vec![match numeric(x)? {
                        Number::Dec(n) => Item::Num(n.map(|d| -d)),
                        Number::Dbl(x) => Item::Double(x.negate()),
                    }],
                    _ => return Err("a negation of more than one item".into()),
                }
            }
            _ => return self.set_operator(e, f),
        })
    }

    /// The compiled regular expression of a pattern, lent. The patterns are the
    /// artefacts' (a few tens), found by comparing their texts, not hashing them; past
    /// [`MAX_PATTERNS`] the last one is replaced. Each is compiled once a process
    /// ([`regex`]: compiling the artefacts' patterns again for each document was 7% of
    /// checking a 9 KB invoice) and kept by this evaluation.
    fn regex(&mut self, pattern: &str) -> Result<&regex::Regex, Error> {
        let at = if let Some(at) = self.regexes.iter().position(|(p, _)| p == pattern) {
            at
        } else {
            let re = regex(pattern)?;
            if self.regexes.len() >= MAX_PATTERNS {
                self.regexes.pop();
            }
            self.regexes.push((pattern.to_owned(), re));
            self.regexes.len() - 1
        };
        self.regexes
            .get(at)
            .map(|(_, re)| &**re)
            .ok_or_else(|| format!("the pattern {pattern:?} is not kept"))
    }

    /// A general `=` or `!=` of strings against a variable bound to a list of strings
    /// (a code list), without copying the list: `None` when it is not that case.
    fn compare_with_list(
        &mut self,
        op: Cmp,
        a: &Expr,
        b: &Expr,
        f: &Focus,
    ) -> Result<Option<bool>, Error> {
        let (other, name) = match (a, b) {
            (x, Expr::Var(v)) | (Expr::Var(v), x) if matches!(op, Cmp::Eq | Cmp::Ne) => (x, v),
            _ => return Ok(None),
        };
        let Some(list) = self.var(name) else {
            return Ok(None);
        };
        if list.len() < 8 || !list.iter().all(|i| matches!(i, Item::Str(_))) {
            return Ok(None);
        }
        let tmp = self.eval(other, f)?;
        let atoms = self.atoms(&tmp);
        let mut texts = Vec::with_capacity(atoms.len());
        for atom in &atoms {
            match atom {
                Atom::Untyped(s) | Atom::Str(s) => texts.push(s.as_str()),
                _ => return Ok(None),
            }
        }
        let list = self.var(name);
        Ok(list.map(|list| {
            texts.iter().any(|t| {
                list.iter().any(|i| match i {
                    Item::Str(s) => (s == t) == (op == Cmp::Eq),
                    _ => false,
                })
            })
        }))
    }

    /// Unions, ranges and casts.
    fn set_operator(&mut self, e: &Expr, f: &Focus) -> Result<Seq, Error> {
        Ok(match e {
            Expr::Union(a, b) => {
                let mut s = self.eval(a, f)?;
                s.extend(self.eval(b, f)?);
                if s.iter().any(|i| !is_node(i)) {
                    return Err("a union of values that are not nodes".into());
                }
                sort_dedup(&mut s);
                s
            }
            Expr::Range(a, b) => {
                let l = {
                    let tmp = self.eval(a, f)?;
                    self.atoms(&tmp)
                };
                let r = {
                    let tmp = self.eval(b, f)?;
                    self.atoms(&tmp)
                };
                let (Some(x), Some(y)) = (l.first(), r.first()) else {
                    return Ok(Vec::new());
                };
                let (x, y) = (integer(x)?, integer(y)?);
                if y.saturating_sub(x) > 100_000 {
                    return Err("a range too long".into());
                }
                (x..=y).map(|n| Item::Num(Some(Decimal::from(n)))).collect()
            }
            Expr::Castable(a, ty, optional) => {
                let v = {
                    let tmp = self.eval(a, f)?;
                    self.atoms(&tmp)
                };
                let ok = match v.as_slice() {
                    [] => *optional,
                    [x] => cast(x, ty).is_ok(),
                    _ => false,
                };
                vec![Item::Bool(ok)]
            }
            Expr::Cast(a, ty, optional) => {
                let v = {
                    let tmp = self.eval(a, f)?;
                    self.atoms(&tmp)
                };
                match v.as_slice() {
                    [] if *optional => Vec::new(),
                    [x] => vec![cast(x, ty)?],
                    _ => return Err(format!("cast as {ty} of {} items", v.len())),
                }
            }
            _ => Vec::new(),
        })
    }

    fn quantified(
        &mut self,
        every: bool,
        binds: &[(String, Expr)],
        sat: &Expr,
        f: &Focus,
    ) -> Result<bool, Error> {
        let Some(((name, e), rest)) = binds.split_first() else {
            return self.test(sat, f);
        };
        let seq = self.eval(e, f)?;
        for item in seq {
            self.vars
                .push((Cow::Owned(name.clone()), std::sync::Arc::new(vec![item])));
            let v = self.quantified(every, rest, sat, f);
            self.vars.pop();
            let v = v?;
            if every && !v {
                return Ok(false);
            }
            if !every && v {
                return Ok(true);
            }
        }
        Ok(every)
    }

    fn for_each(&mut self, binds: &[(String, Expr)], ret: &Expr, f: &Focus) -> Result<Seq, Error> {
        let Some(((name, e), rest)) = binds.split_first() else {
            return self.eval(ret, f);
        };
        let seq = self.eval(e, f)?;
        let mut out = Vec::new();
        for item in seq {
            self.vars
                .push((Cow::Owned(name.clone()), std::sync::Arc::new(vec![item])));
            let v = self.for_each(rest, ret, f);
            self.vars.pop();
            out.extend(v?);
        }
        Ok(out)
    }

    /// Applies predicates to a sequence (positions in its order).
    fn filter(&mut self, mut s: Seq, preds: &[Expr]) -> Result<Seq, Error> {
        for p in preds {
            let size = s.len();
            if size > 0 && focus_free(p) {
                // The same value at every item: evaluated once.
                let focus = Focus {
                    item: s.first().cloned(),
                    pos: 1,
                    size,
                };
                let v = self.eval(p, &focus)?;
                s = match v.as_slice() {
                    [n @ (Item::Num(_) | Item::Double(_))] => position(numeric_value(n))
                        .and_then(|k| s.get(k).cloned())
                        .into_iter()
                        .collect(),
                    _ if ebv(&v)? => s,
                    _ => Vec::new(),
                };
                continue;
            }
            let boolean = self.boolean_valued(p);
            let mut kept = Vec::new();
            for (i, item) in s.into_iter().enumerate() {
                let focus = Focus {
                    item: Some(item.clone()),
                    pos: i + 1,
                    size,
                };
                let keep = if boolean {
                    self.test(p, &focus)?
                } else {
                    let v = self.eval(p, &focus)?;
                    match v.as_slice() {
                        [n @ (Item::Num(_) | Item::Double(_))] => {
                            numeric_value(n) == Some(Decimal::from(i + 1))
                        }
                        _ => ebv(&v)?,
                    }
                };
                if keep {
                    kept.push(item);
                }
            }
            s = kept;
        }
        Ok(s)
    }

    fn step(&mut self, input: &Seq, step: &Step) -> Result<Seq, Error> {
        let Step::Expr(e) = step else {
            if let Step::Axis(axis, test, preds) = step {
                return self.step_axis(input, *axis, test, preds);
            }
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        let size = input.len();
        for (i, item) in input.iter().enumerate() {
            let focus = Focus {
                item: Some(item.clone()),
                pos: i + 1,
                size,
            };
            out.extend(self.eval(e, &focus)?);
        }
        if out.iter().all(is_node) {
            sort_dedup(&mut out);
        }
        Ok(out)
    }

    /// `axis::test[preds]` from every item of `input`, in document order.
    fn step_axis(
        &mut self,
        input: &Seq,
        axis: Axis,
        test: &Test,
        preds: &[Expr],
    ) -> Result<Seq, Error> {
        let mut out = Vec::new();
        for item in input {
            if axis == Axis::Descendant
                && matches!(test, Test::Any | Test::AnyIn(_))
                && !preds.is_empty()
                && preds.iter().all(|p| self.plain(p))
            {
                self.descendants_where(item, test, preds, &mut out)?;
            } else {
                let found = self.axis(item, axis, test);
                out.extend(self.filter(found, preds)?);
            }
        }
        if out.iter().all(is_node) {
            sort_dedup(&mut out);
        }
        Ok(out)
    }

    /// `descendant-or-self::node()/attribute::test` from every item of `input`: the
    /// attributes of each element walked, in document order.
    fn attributes_below(&self, input: &Seq, test: &Test) -> Seq {
        let d = self.dom;
        let mut out = Vec::new();
        for item in input {
            let range = match item {
                Item::Doc => d.subtree(d.root()),
                Item::Node(n) => d.subtree(*n),
                _ => continue,
            };
            for n in range {
                let count = u32::try_from(d.attribute_count(n)).unwrap_or(0);
                out.extend(
                    (0..count)
                        .map(|i| Item::Attr(n, i))
                        .filter(|a| self.passes(a, Axis::Attribute, test)),
                );
            }
        }
        sort_dedup(&mut out);
        out
    }

    /// `descendant::*[p]…` with predicates that do not select by position: each element
    /// below `item` is tested as it is walked, never all of them gathered first (on a
    /// 50 MB document that list alone would be 30 MB).
    fn descendants_where(
        &mut self,
        item: &Item,
        test: &Test,
        preds: &[Expr],
        out: &mut Seq,
    ) -> Result<(), Error> {
        let Some(range) = self.below(item) else {
            return Ok(());
        };
        let size = range
            .clone()
            .filter(|&n| self.passes(&Item::Node(n), Axis::Descendant, test))
            .count();
        let mut pos = 0;
        for n in range {
            let candidate = Item::Node(n);
            if !self.passes(&candidate, Axis::Descendant, test) {
                continue;
            }
            pos += 1;
            let mut keep = true;
            for p in preds {
                let focus = Focus {
                    item: Some(candidate.clone()),
                    pos,
                    size,
                };
                let v = self.eval(p, &focus)?;
                let holds = match v.as_slice() {
                    [k @ (Item::Num(_) | Item::Double(_))] => {
                        numeric_value(k) == Some(Decimal::from(pos))
                    }
                    _ => ebv(&v)?,
                };
                if !holds {
                    keep = false;
                    break;
                }
            }
            if keep {
                out.push(candidate);
            }
        }
        Ok(())
    }

    /// The items of an axis from `item` that pass `test`, in the axis's order.
    fn axis(&mut self, item: &Item, axis: Axis, test: &Test) -> Seq {
        if axis == Axis::Descendant {
            if let Some(named) = self.named_below(item, test) {
                return named.iter().map(|&n| Item::Node(n)).collect();
            }
            // Filtered as it is walked: no list of every element.
            let range = self.below(item).unwrap_or(0..0);
            let mut out: Seq = range
                .map(Item::Node)
                .filter(|i| self.passes(i, axis, test))
                .collect();
            if matches!(test, Test::Text | Test::Node) {
                out = self.vertical(item, axis, test);
                out.retain(|i| self.passes(i, axis, test));
            }
            return out;
        }
        if let (Axis::Child, Item::Node(n), Test::Name(..) | Test::Any | Test::AnyIn(_)) =
            (axis, item, test)
        {
            // Children by name: tested as they are walked, no list of all of them.
            return self
                .dom
                .children(*n)
                .map(Item::Node)
                .filter(|i| self.passes(i, axis, test))
                .collect();
        }
        let nodes = match axis {
            Axis::PrecedingSibling | Axis::FollowingSibling | Axis::Preceding | Axis::Following => {
                self.sideways(item, axis)
            }
            _ => self.vertical(item, axis, test),
        };
        nodes
            .into_iter()
            .filter(|i| self.passes(i, axis, test))
            .collect()
    }

    /// The items of an axis that goes up or down, or stays.
    fn vertical(&self, item: &Item, axis: Axis, test: &Test) -> Seq {
        let d = self.dom;
        match (axis, item) {
            (Axis::Attribute, Item::Node(n)) => {
                let count = u32::try_from(d.attribute_count(*n)).unwrap_or(0);
                (0..count).map(|i| Item::Attr(*n, i)).collect()
            }
            (Axis::Child, Item::Doc) => vec![Item::Node(d.root())],
            (Axis::Child, Item::Node(n)) => {
                let mut v: Seq = d.children(*n).map(Item::Node).collect();
                if matches!(test, Test::Text | Test::Node) && !d.own_text(*n).is_empty() {
                    v.push(Item::Text(*n));
                }
                v
            }
            (Axis::Descendant | Axis::DescendantOrSelf, Item::Doc) => {
                let mut v = Vec::new();
                if axis == Axis::DescendantOrSelf {
                    v.push(Item::Doc);
                }
                v.extend(d.subtree(d.root()).map(Item::Node));
                v
            }
            (Axis::Descendant, Item::Node(n)) => d.subtree(*n).skip(1).map(Item::Node).collect(),
            (Axis::DescendantOrSelf, Item::Node(n)) => d.subtree(*n).map(Item::Node).collect(),
            (Axis::Itself | Axis::DescendantOrSelf, i) => vec![i.clone()],
            (Axis::Parent, Item::Node(n)) => vec![d.parent(*n).map_or(Item::Doc, Item::Node)],
            (Axis::Parent, Item::Attr(n, _) | Item::Text(n)) => vec![Item::Node(*n)],
            (Axis::Ancestor | Axis::AncestorOrSelf, i) => {
                let mut v = Vec::new();
                if axis == Axis::AncestorOrSelf {
                    v.push(i.clone());
                }
                let mut at = match i {
                    Item::Node(n) => d.parent(*n),
                    Item::Attr(n, _) | Item::Text(n) => Some(*n),
                    _ => None,
                };
                let mut reached_doc = matches!(i, Item::Node(_) | Item::Attr(..) | Item::Text(_));
                while let Some(n) = at {
                    v.push(Item::Node(n));
                    at = d.parent(n);
                }
                if reached_doc && !matches!(i, Item::Doc) {
                    v.push(Item::Doc);
                    reached_doc = false;
                }
                let _ = reached_doc;
                v
            }
            _ => Vec::new(),
        }
    }

    /// The items of a sibling, preceding or following axis.
    fn sideways(&self, item: &Item, axis: Axis) -> Seq {
        let d = self.dom;
        match (axis, item) {
            (Axis::PrecedingSibling, Item::Node(n)) => match d.parent(*n) {
                Some(p) => {
                    let mut v: Seq = d
                        .children(p)
                        .take_while(|c| c != n)
                        .map(Item::Node)
                        .collect();
                    v.reverse();
                    v
                }
                None => Vec::new(),
            },
            (Axis::FollowingSibling, Item::Node(n)) => match d.parent(*n) {
                Some(p) => d
                    .children(p)
                    .skip_while(|c| c != n)
                    .skip(1)
                    .map(Item::Node)
                    .collect(),
                None => Vec::new(),
            },
            (Axis::Preceding, Item::Node(n)) => {
                let mut ancestors = Vec::new();
                let mut at = d.parent(*n);
                while let Some(a) = at {
                    ancestors.push(a);
                    at = d.parent(a);
                }
                let mut v: Seq = (0..*n)
                    .filter(|m| !ancestors.contains(m))
                    .map(Item::Node)
                    .collect();
                v.reverse();
                v
            }
            (Axis::Following, Item::Node(n)) => {
                let end = d.subtree(*n).end;
                let total = NodeId::try_from(d.len()).unwrap_or(NodeId::MAX);
                (end..total).map(Item::Node).collect()
            }
            _ => Vec::new(),
        }
    }

    fn passes(&self, item: &Item, axis: Axis, test: &Test) -> bool {
        let d = self.dom;
        match (test, item) {
            (Test::Node, _) | (Test::Text, Item::Text(_)) => true,
            (Test::Any, Item::Node(_)) => axis != Axis::Attribute,
            (Test::Any, Item::Attr(..)) => axis == Axis::Attribute,
            (Test::AnyIn(p), Item::Node(n)) => (self.ns)(p) == Some(d.namespace_uri(*n)),
            (Test::Name(q), Item::Node(n)) => {
                axis != Axis::Attribute
                    && match self.keys.get(q.id as usize) {
                        Some(&k) if k != Key::Unresolved => d.key(*n).is_some_and(|x| k.holds(x)),
                        _ => {
                            d.name(*n) == q.local
                                && match q.prefix.as_deref() {
                                    Some("*") => true,
                                    Some(p) => (self.ns)(p) == Some(d.namespace_uri(*n)),
                                    None => d.namespace_uri(*n).is_empty(),
                                }
                        }
                    }
            }
            (Test::Name(q), Item::Attr(n, i)) => {
                q.prefix.is_none()
                    && match self.keys.get(q.id as usize) {
                        Some(Key::Is(_, name)) => {
                            d.attribute_name_number(*n, *i as usize) == Some(*name)
                        }
                        Some(Key::Never) => false,
                        _ => d
                            .attribute_at(*n, *i as usize)
                            .is_some_and(|(name, _)| name == q.local),
                    }
            }
            _ => false,
        }
    }

    /// The string value of an item.
    fn string(&self, item: &Item) -> String {
        self.text(item).into_owned()
    }

    fn atoms(&self, s: &Seq) -> Vec<Atom> {
        s.iter().map(|i| self.atom(i)).collect()
    }

    /// An item's atomic value (a node's: its text, untyped).
    fn atom(&self, i: &Item) -> Atom {
        match i {
            Item::Str(s) => Atom::Str(s.clone()),
            Item::Num(n) => Atom::Num(*n),
            Item::Double(x) => Atom::Double(*x),
            Item::Bool(b) => Atom::Bool(*b),
            Item::Date(x) => Atom::Date(*x),
            node => Atom::Untyped(self.string(node)),
        }
    }

    fn arg_num(&mut self, args: &[Expr], k: usize, f: &Focus) -> Result<Option<Number>, Error> {
        let Some(e) = args.get(k) else {
            return Err("a missing argument".into());
        };
        let s = self.eval(e, f)?;
        let a = self.atoms(&s);
        match a.as_slice() {
            [] => Ok(None),
            [x] => Ok(Some(numeric(x)?)),
            _ => Err("more than one number".into()),
        }
    }

    fn call(&mut self, name: &str, args: &[Expr], f: &Focus) -> Result<Seq, Error> {
        // A stylesheet's function: a prefixed name that is not a constructor (`xs:`).
        if name.contains(':') && !name.starts_with("xs:") {
            let functions = self.functions;
            if let Some(def) = functions
                .iter()
                .find(|d| d.name == name && d.arity == args.len())
            {
                return self.call_function(def, args, f);
            }
        }
        // a constructor (`xs:decimal(…)`, the most called) goes straight to its group
        if name.starts_with("xs:") {
            if let Some(v) = self.call_cast(name, args, f)? {
                return Ok(v);
            }
        }
        for group in [
            Self::call_sequence,
            Self::call_string,
            Self::call_text_lists,
            Self::call_sequences,
            Self::call_number,
            Self::call_cast,
        ] {
            if let Some(v) = group(self, name, args, f)? {
                return Ok(v);
            }
        }
        Err(format!(
            "the function {name}#{} is not implemented",
            args.len()
        ))
    }

    /// The functions of [`Self::call`] that this group holds, `Ok(None)` for another.
    fn call_sequence(
        &mut self,
        name: &str,
        args: &[Expr],
        f: &Focus,
    ) -> Result<Option<Seq>, Error> {
        let one = |b: bool| -> Result<Seq, Error> { Ok(vec![Item::Bool(b)]) };
        let s = |v: String| -> Result<Seq, Error> { Ok(vec![Item::Str(v)]) };
        let _ = (&one, &s);
        let v: Result<Seq, Error> = match (name, args.len()) {
            ("true", 0) => one(true),
            ("false", 0) => one(false),
            ("not" | "boolean" | "exists" | "empty", 1)
            | ("contains" | "starts-with" | "ends-with", 2) => {
                one(self.boolean_call(name, args, f)?.unwrap_or_default())
            }
            ("count", 1) => {
                let n = match args.first() {
                    Some(Expr::Path(start, steps)) => match self.walk_start(start, steps, f)? {
                        Some(from) => {
                            let mut n = 0usize;
                            self.walk_from(&from, start, steps, &mut |_, _| {
                                n = n.saturating_add(1);
                                Ok(true)
                            })?;
                            n
                        }
                        None => self.eval_arg(args, 0, f)?.len(),
                    },
                    _ => self.eval_arg(args, 0, f)?.len(),
                };
                Ok(vec![Item::Num(Some(Decimal::from(n)))])
            }
            ("position", 0) => {
                f.item()?;
                Ok(vec![Item::Num(Some(Decimal::from(f.pos)))])
            }
            ("last", 0) => {
                f.item()?;
                Ok(vec![Item::Num(Some(Decimal::from(f.size)))])
            }
            // XSLT: within a function's body there is no current item (XTDE1360).
            ("current", 0) if self.depth > 0 => Err("current() in a function's body".into()),
            ("current", 0) => Ok(vec![self.current.clone()]),
            _ => return Ok(None),
        };
        v.map(Some)
    }

    /// The functions of [`Self::call`] that this group holds, `Ok(None)` for another.
    fn call_string(&mut self, name: &str, args: &[Expr], f: &Focus) -> Result<Option<Seq>, Error> {
        let one = |b: bool| -> Result<Seq, Error> { Ok(vec![Item::Bool(b)]) };
        let s = |v: String| -> Result<Seq, Error> { Ok(vec![Item::Str(v)]) };
        let _ = (&one, &s);
        let v: Result<Seq, Error> = match (name, args.len()) {
            ("string", 0 | 1) => s(self.arg_string(args, 0, f)?.into_owned()),
            ("normalize-space", 0 | 1) => s(crate::en16931::xpath::normalize_space(
                &self.arg_string(args, 0, f)?,
            )
            .into_owned()),
            ("string-length", 0 | 1) => {
                let n = self.arg_string(args, 0, f)?.chars().count();
                Ok(vec![Item::Num(Some(Decimal::from(n)))])
            }
            ("upper-case", 1) => s(self.arg_string(args, 0, f)?.to_uppercase()),
            ("lower-case", 1) => s(self.arg_string(args, 0, f)?.to_lowercase()),
            ("concat", _) => {
                let mut out = String::new();
                for k in 0..args.len() {
                    out.push_str(&self.arg_string(args, k, f)?);
                }
                s(out)
            }
            ("substring-after", 2) => {
                let (a, b) = (self.arg_string(args, 0, f)?, self.arg_string(args, 1, f)?);
                s(split_once(&a, &b).map_or(String::new(), |(_, r)| r.to_owned()))
            }
            ("substring-before", 2) => {
                let (a, b) = (self.arg_string(args, 0, f)?, self.arg_string(args, 1, f)?);
                s(split_once(&a, &b).map_or(String::new(), |(l, _)| l.to_owned()))
            }
            ("substring", 2 | 3) => {
                let text = self.arg_string(args, 0, f)?;
                let start = self.arg_num(args, 1, f)?.and_then(Number::value);
                let len = if args.len() == 3 {
                    Some(self.arg_num(args, 2, f)?.and_then(Number::value))
                } else {
                    None
                };
                s(substring(&text, start, len))
            }
            ("translate", 3) => {
                let text = self.arg_string(args, 0, f)?;
                let from: Vec<char> = self.arg_string(args, 1, f)?.chars().collect();
                let to: Vec<char> = self.arg_string(args, 2, f)?.chars().collect();
                s(text
                    .chars()
                    .filter_map(|c| match from.iter().position(|x| *x == c) {
                        Some(i) => to.get(i).copied(),
                        None => Some(c),
                    })
                    .collect())
            }
            _ => return Ok(None),
        };
        v.map(Some)
    }

    /// The functions of [`Self::call`] that this group holds, `Ok(None)` for another.
    fn call_text_lists(
        &mut self,
        name: &str,
        args: &[Expr],
        f: &Focus,
    ) -> Result<Option<Seq>, Error> {
        let one = |b: bool| -> Result<Seq, Error> { Ok(vec![Item::Bool(b)]) };
        let s = |v: String| -> Result<Seq, Error> { Ok(vec![Item::Str(v)]) };
        let _ = (&one, &s);
        let v: Result<Seq, Error> = match (name, args.len()) {
            ("matches", 2) => {
                let text = self.arg_string(args, 0, f)?;
                let pattern = self.arg_string(args, 1, f)?;
                let re = self.regex(&pattern)?;
                one(re.is_match(&text))
            }
            ("replace", 3) => {
                let text = self.arg_string(args, 0, f)?;
                let pattern = self.arg_string(args, 1, f)?;
                let with = self.arg_string(args, 2, f)?;
                let re = self.regex(&pattern)?;
                s(re.replace_all(&text, with.as_ref()).into_owned())
            }
            ("tokenize", 2) => {
                let text = self.arg_string(args, 0, f)?;
                let pattern = self.arg_string(args, 1, f)?;
                let re = self.regex(&pattern)?;
                if text.is_empty() {
                    return Ok(Some(Vec::new()));
                }
                Ok(re.split(&text).map(|t| Item::Str(t.to_owned())).collect())
            }
            _ => return Ok(None),
        };
        v.map(Some)
    }

    /// The functions of [`Self::call`] that this group holds, `Ok(None)` for another.
    fn call_sequences(
        &mut self,
        name: &str,
        args: &[Expr],
        f: &Focus,
    ) -> Result<Option<Seq>, Error> {
        let s = |v: String| -> Result<Seq, Error> { Ok(vec![Item::Str(v)]) };
        let v: Result<Seq, Error> = match (name, args.len()) {
            ("string-join", 2) => {
                let items = self.eval_arg(args, 0, f)?;
                let sep = self.arg_string(args, 1, f)?;
                let parts: Vec<String> = items.iter().map(|i| self.string(i)).collect();
                s(parts.join(&sep))
            }
            ("string-to-codepoints", 1) => Ok(self
                .arg_string(args, 0, f)?
                .chars()
                .map(|c| Item::Num(Some(Decimal::from(u32::from(c)))))
                .collect()),
            ("codepoints-to-string", 1) => {
                let items = self.eval_arg(args, 0, f)?;
                let mut out = String::new();
                for a in self.atoms(&items) {
                    let n = integer(&a)?;
                    let c = u32::try_from(n)
                        .ok()
                        .and_then(char::from_u32)
                        .ok_or("not a code point")?;
                    out.push(c);
                }
                s(out)
            }
            ("reverse", 1) => {
                let mut v = self.eval_arg(args, 0, f)?;
                v.reverse();
                Ok(v)
            }
            ("distinct-values", 1) => {
                let v = self.eval_arg(args, 0, f)?;
                let mut out: Vec<Atom> = Vec::new();
                for a in self.atoms(&v) {
                    if !out.iter().any(|b| general_cmp(Cmp::Eq, &a, b)) {
                        out.push(a);
                    }
                }
                Ok(out.into_iter().map(atom_item).collect())
            }
            ("local-name" | "name", 0 | 1) => {
                let v = match args.first() {
                    Some(_) => self.eval_arg(args, 0, f)?,
                    None => vec![f.item()?.clone()],
                };
                s(match v.first() {
                    Some(Item::Node(n)) => self.dom.name(*n).to_owned(),
                    Some(Item::Attr(n, i)) => self
                        .dom
                        .attribute_at(*n, *i as usize)
                        .map_or(String::new(), |(k, _)| k.to_owned()),
                    _ => String::new(),
                })
            }
            ("namespace-uri", 0 | 1) => {
                let v = match args.first() {
                    Some(_) => self.eval_arg(args, 0, f)?,
                    None => vec![f.item()?.clone()],
                };
                s(match v.first() {
                    Some(Item::Node(n)) => self.dom.namespace_uri(*n).to_owned(),
                    _ => String::new(),
                })
            }
            _ => return Ok(None),
        };
        v.map(Some)
    }

    /// The functions of [`Self::call`] that this group holds, `Ok(None)` for another.
    fn call_number(&mut self, name: &str, args: &[Expr], f: &Focus) -> Result<Option<Seq>, Error> {
        let one = |b: bool| -> Result<Seq, Error> { Ok(vec![Item::Bool(b)]) };
        let s = |v: String| -> Result<Seq, Error> { Ok(vec![Item::Str(v)]) };
        let _ = (&one, &s);
        let v: Result<Seq, Error> = match (name, args.len()) {
            ("sum", 1 | 2) => {
                if let Some(total) = match args.first() {
                    Some(arg) => self.walked_sum(arg, f)?,
                    None => None,
                } {
                    return Ok(Some(vec![total.item()]));
                }
                let v = self.eval_arg(args, 0, f)?;
                let mut total = Number::Dec(Some(Decimal::ZERO));
                for a in self.atoms(&v) {
                    total = total.add(numeric(&a)?)?;
                }
                Ok(vec![total.item()])
            }
            ("number", 0 | 1) => {
                let v = match args.first() {
                    Some(_) => self.eval_arg(args, 0, f)?,
                    None => vec![f.item()?.clone()],
                };
                let a = self.atoms(&v);
                Ok(vec![Item::Double(match a.first() {
                    Some(x) => numeric(x).map_or(Double::NaN, Number::double),
                    None => Double::NaN,
                })])
            }
            ("abs" | "round" | "floor" | "ceiling", 1) => {
                let op: fn(Decimal) -> Option<Decimal> = match name {
                    "abs" => |d| Some(d.abs()),
                    "round" => crate::en16931::xpath::round,
                    "floor" => |d| Some(d.floor()),
                    _ => |d| Some(d.ceil()),
                };
                Ok(self
                    .arg_num(args, 0, f)?
                    .map(|n| vec![n.map(op).item()])
                    .unwrap_or_default())
            }
            ("min" | "max", 1) => {
                let v = self.eval_arg(args, 0, f)?;
                let mut best: Option<Number> = None;
                let mut double = false;
                for a in self.atoms(&v) {
                    let x = numeric(&a)?;
                    double |= matches!(x, Number::Dbl(_));
                    best = Some(match (best, x) {
                        (_, Number::Dec(None) | Number::Dbl(Double::NaN)) | (None, _) => x,
                        (Some(b @ (Number::Dec(None) | Number::Dbl(Double::NaN))), _) => b,
                        (Some(b), _) => match x.compare(b) {
                            Some(o) if (name == "min") == o.is_lt() => x,
                            _ => b,
                        },
                    });
                }
                // a mix of decimals and doubles is a double
                Ok(best
                    .map(|b| {
                        vec![if double {
                            Item::Double(b.double())
                        } else {
                            b.item()
                        }]
                    })
                    .unwrap_or_default())
            }
            _ => return Ok(None),
        };
        v.map(Some)
    }

    /// The constructor functions (`xs:decimal(…)`, …) of [`Self::call`], `Ok(None)`
    /// for another function.
    fn call_cast(&mut self, name: &str, args: &[Expr], f: &Focus) -> Result<Option<Seq>, Error> {
        if !matches!(
            (name, args.len()),
            (
                "xs:decimal" | "xs:integer" | "xs:string" | "xs:date" | "xs:boolean" | "xs:double",
                1
            )
        ) {
            return Ok(None);
        }
        if let Some(one) = match args.first() {
            Some(arg) => self.one_item(arg, f)?,
            None => None,
        } {
            return Ok(Some(match one {
                // a node's text read in place (not copied into an atom first)
                Some(x) if is_node(&x) && matches!(name, "xs:decimal" | "xs:double") => {
                    vec![cast_number(trim_xml(&self.text(&x)), name)?]
                }
                Some(x) => vec![cast(&self.atom(&x), name)?],
                None => Vec::new(),
            }));
        }
        let v = self.eval_arg(args, 0, f)?;
        let a = self.atoms(&v);
        match a.as_slice() {
            [] => Ok(Some(Vec::new())),
            [x] => Ok(Some(vec![cast(x, name)?])),
            _ => Err(format!("{name} of more than one item")),
        }
    }

    fn eval_arg(&mut self, args: &[Expr], k: usize, f: &Focus) -> Result<Seq, Error> {
        match args.get(k) {
            Some(e) => self.eval(e, f),
            None => Err("a missing argument".into()),
        }
    }
}

/// A value a general comparison compares with: a literal's, or a variable's one value.
#[derive(Clone, Copy)]
enum Lit<'x> {
    Str(&'x str),
    Num(Decimal),
    /// `true()` or `false()`.
    Bool(bool),
}

/// The error of a sequence of several items where one string is expected.
const MANY: &str = "a sequence of more than one item where one string is expected";

/// Where a walked path starts: one item, or the nodes of a shared path or a variable.
enum From {
    One(Item),
    /// The children of the item a child union (`(a | b)/…`) selects.
    Below(Item),
    Many(std::sync::Arc<Seq>),
}

/// Whether an expression reads the position or the size of its focus.
fn reads_position(e: &Expr) -> bool {
    any(
        e,
        &mut |x| matches!(x, Expr::Call(n, a) if a.is_empty() && (n == "position" || n == "last")),
    )
}

/// Whether an expression's value is surely atomic (never nodes): a literal, a
/// comparison, arithmetic, a cast, or a call of a function that answers a value.
fn atomic_valued(e: &Expr) -> bool {
    match e {
        Expr::Str(_)
        | Expr::Num(_)
        | Expr::Compare(..)
        | Expr::Arith(..)
        | Expr::Neg(_)
        | Expr::And(..)
        | Expr::Or(..)
        | Expr::Cast(..)
        | Expr::Castable(..) => true,
        Expr::Seq(list) => matches!(list.as_slice(), [one] if atomic_valued(one)),
        Expr::Call(name, _) => {
            name.starts_with("xs:")
                || matches!(
                    name.as_str(),
                    "normalize-space"
                        | "string"
                        | "upper-case"
                        | "lower-case"
                        | "number"
                        | "string-length"
                        | "substring"
                        | "substring-before"
                        | "substring-after"
                        | "concat"
                        | "translate"
                        | "round"
                        | "abs"
                        | "floor"
                        | "ceiling"
                        | "sum"
                        | "count"
                        | "boolean"
                        | "not"
                        | "exists"
                        | "empty"
                        | "contains"
                        | "starts-with"
                        | "ends-with"
                        | "matches"
                        | "name"
                        | "local-name"
                )
        }
        _ => false,
    }
}

/// Whether an expression is at most one atomic value: a call of a function that
/// answers one string, number or boolean (or nothing, for a cast of nothing).
fn one_valued(e: &Expr) -> bool {
    match e {
        Expr::Seq(list) => matches!(list.as_slice(), [one] if one_valued(one)),
        Expr::Call(..) => atomic_valued(e) && !matches!(e, Expr::Call(n, _) if n == "tokenize"),
        _ => false,
    }
}

/// What a visitor of [`Env::walk`] is called with each node: `Ok(false)` stops the walk.
type Visit<'v, 'a> = dyn FnMut(&mut Env<'a>, &Item) -> Result<bool, Error> + 'v;

/// Boolean values, strings and paths without gathering sequences: most asserts test
/// whether a node exists, compare one node's text with a literal, or read one child's
/// text, and each of those is answered by walking the document from the focus, node
/// by node, with nothing allocated (the general evaluation builds a sequence at every
/// step of a path, which was most of the engine's time).
impl<'a> Env<'a> {
    /// The effective boolean value of `e`: `and`, `or`, `not`, `exists`, `empty`,
    /// `boolean`, a path (does a node exist?) and a comparison with a literal are
    /// decided without building sequences; anything else is evaluated.
    fn test(&mut self, e: &Expr, f: &Focus) -> Result<bool, Error> {
        self.burn()?;
        match e {
            Expr::And(a, b) => Ok(self.test(a, f)? && self.test(b, f)?),
            Expr::Or(a, b) => Ok(self.test(a, f)? || self.test(b, f)?),
            // `*`: whether the element has a child element (`//*[not(*) and …]`
            // asks it of every element of the document)
            Expr::Path(start, steps) if any_child(start, steps) => match &f.item {
                Some(Item::Node(n)) => Ok(self.dom.subtree(*n).len() > 1),
                _ => ebv(&self.eval(e, f)?),
            },
            Expr::Path(start, steps) => match self.walk_start(start, steps, f)? {
                // a node first: true; else the one value's (two values: an error)
                Some(from) => {
                    let mut first: Option<Item> = None;
                    let mut many = false;
                    self.walk_from(&from, start, steps, &mut |_, i| {
                        if first.is_some() {
                            many = true;
                            return Ok(false);
                        }
                        first = Some(i.clone());
                        Ok(!is_node(i))
                    })?;
                    match first {
                        Some(i) if is_node(&i) => Ok(true),
                        _ if many => Err("no boolean value of a sequence of several values".into()),
                        Some(i) => ebv(&vec![i]),
                        None => Ok(false),
                    }
                }
                None => ebv(&self.eval(e, f)?),
            },
            Expr::Call(name, args) => match self.boolean_call(name, args, f)? {
                Some(v) => Ok(v),
                // a string's value is whether it is not empty
                None => match self.str_expr(e, f)? {
                    Some(text) => Ok(!text.unwrap_or_default().is_empty()),
                    None => ebv(&self.eval(e, f)?),
                },
            },
            Expr::Compare(op, true, a, b) => match self.compare_literal(*op, a, b, f)? {
                Some(v) => Ok(v),
                None => ebv(&self.eval(e, f)?),
            },
            _ => ebv(&self.eval(e, f)?),
        }
    }

    /// `not`, `boolean`, `exists` and `empty`; `None` for another function.
    fn boolean_call(
        &mut self,
        name: &str,
        args: &[Expr],
        f: &Focus,
    ) -> Result<Option<bool>, Error> {
        if let ("contains" | "starts-with" | "ends-with", [_, _]) = (name, args) {
            let (a, b) = (self.arg_string(args, 0, f)?, self.arg_string(args, 1, f)?);
            return Ok(Some(match name {
                "contains" => find(&a, &b).is_some(),
                "starts-with" => a.starts_with(b.as_ref()),
                _ => a.ends_with(b.as_ref()),
            }));
        }
        let [x] = args else {
            return Ok(None);
        };
        Ok(Some(match name {
            "not" => !self.test(x, f)?,
            "boolean" => self.test(x, f)?,
            "exists" => self.exists(x, f)?,
            "empty" => !self.exists(x, f)?,
            _ => return Ok(None),
        }))
    }

    /// Whether `e` has an item.
    fn exists(&mut self, e: &Expr, f: &Focus) -> Result<bool, Error> {
        if let Expr::Path(start, steps) = e {
            if let Some(from) = self.walk_start(start, steps, f)? {
                return self
                    .walk_from(&from, start, steps, &mut |_, _| Ok(false))
                    .map(|all| !all);
            }
        }
        Ok(!self.eval(e, f)?.is_empty())
    }

    /// A general comparison of `a` with a string or number literal (`… = 'VAT'`,
    /// `… > 0`), or with a variable bound to one string or number (`… = $rate`), each
    /// item of `a` against it as it comes: an untyped or string item compares as a
    /// string with a string; with a number, an item is read as a double (NaN: only
    /// `!=` holds); an item of another type never matches. `None` when `b` is not such
    /// a value.
    fn compare_literal(
        &mut self,
        op: Cmp,
        a: &Expr,
        b: &Expr,
        f: &Focus,
    ) -> Result<Option<bool>, Error> {
        let bound;
        let lit: Lit<'_> = match b {
            Expr::Str(x) => Lit::Str(x),
            Expr::Num(n) => Lit::Num(*n),
            Expr::Call(name, args) if args.is_empty() && (name == "true" || name == "false") => {
                Lit::Bool(name == "true")
            }
            Expr::Var(v) => {
                bound = match self.var(v) {
                    Some(value) => std::sync::Arc::clone(value),
                    None => return Ok(None),
                };
                match bound.as_slice() {
                    [Item::Str(x)] => Lit::Str(x),
                    [Item::Num(Some(n))] => Lit::Num(*n),
                    _ => return Ok(None),
                }
            }
            _ => return Ok(None),
        };
        let hit = |env: &Env<'a>, i: &Item| -> bool {
            match (lit, i) {
                (Lit::Str(lit), Item::Str(x)) => ordering_ok(op, x.as_str().cmp(lit)),
                (Lit::Num(lit), Item::Num(n)) => {
                    n.map_or(op == Cmp::Ne, |n| ordering_ok(op, n.cmp(&lit)))
                }
                (Lit::Num(lit), Item::Double(x)) => Number::Dbl(*x)
                    .compare(Number::Dec(Some(lit)))
                    .map_or(op == Cmp::Ne, |o| ordering_ok(op, o)),
                (Lit::Bool(lit), Item::Bool(b)) => ordering_ok(op, b.cmp(&lit)),
                (
                    _,
                    Item::Str(_) | Item::Num(_) | Item::Double(_) | Item::Bool(_) | Item::Date(_),
                ) => false,
                (Lit::Str(lit), node) => ordering_ok(op, env.text(node).as_ref().cmp(lit)),
                // an untyped value cast to a boolean; one that is not a boolean matches
                // nothing (as `general_cmp`)
                (Lit::Bool(lit), node) => {
                    match cast(&Atom::Untyped(env.text(node).into_owned()), "xs:boolean") {
                        Ok(Item::Bool(b)) => ordering_ok(op, b.cmp(&lit)),
                        _ => false,
                    }
                }
                (Lit::Num(lit), node) => compare_untyped(&env.text(node), lit)
                    .map_or(op == Cmp::Ne, |o| ordering_ok(op, o)),
            }
        };
        if let (Lit::Str(lit), false) = (lit, matches!(a, Expr::Path(..))) {
            if let Some(text) = self.str_expr(a, f)? {
                return Ok(Some(
                    text.is_some_and(|t| ordering_ok(op, t.as_ref().cmp(lit))),
                ));
            }
        }
        if let Expr::Path(start, steps) = a {
            // `…/normalize-space(cbc:ID) = 'S'`: the last step's one value at each node
            // of the others, compared in place
            if let Some((Step::Expr(last), prefix)) = steps.split_last() {
                if one_valued(last) && !reads_position(last) {
                    if let Some(from) = self.walk_start(start, prefix, f)? {
                        let all = self.walk_from(&from, start, prefix, &mut |env, node| {
                            let focus = Focus::at(node.clone());
                            if let Lit::Str(lit) = lit {
                                if let Some(text) = env.str_expr(last, &focus)? {
                                    return Ok(
                                        !text.is_some_and(|t| ordering_ok(op, t.as_ref().cmp(lit)))
                                    );
                                }
                            }
                            let items = env.eval(last, &focus)?;
                            Ok(!items.iter().any(|i| hit(env, i)))
                        })?;
                        return Ok(Some(!all));
                    }
                }
            }
            if let Some(from) = self.walk_start(start, steps, f)? {
                let all = self.walk_from(&from, start, steps, &mut |env, i| Ok(!hit(env, i)))?;
                return Ok(Some(!all));
            }
        }
        let items = self.eval(a, f)?;
        Ok(Some(items.iter().any(|i| hit(self, i))))
    }

    /// `sum` of a walked path: each item's number as it comes (a node's text read as a
    /// double), without building the sequence. `None` when the argument is not walked.
    fn walked_sum(&mut self, arg: &Expr, f: &Focus) -> Result<Option<Number>, Error> {
        let Expr::Path(start, steps) = arg else {
            return Ok(None);
        };
        if let Some(known) = self.known_sum(arg, f.item.as_ref()) {
            return Ok(Some(known));
        }
        let Some(from) = self.walk_start(start, steps, f)? else {
            return Ok(None);
        };
        let mut total = Number::Dec(Some(Decimal::ZERO));
        let mut failed: Option<Error> = None;
        self.walk_from(&from, start, steps, &mut |env, i| {
            let n = match i {
                Item::Num(n) => Number::Dec(*n),
                Item::Double(x) => Number::Dbl(*x),
                Item::Bool(b) => Number::Dec(Some(if *b { Decimal::ONE } else { Decimal::ZERO })),
                Item::Date(_) => {
                    failed = Some("a date is not a number".into());
                    return Ok(false);
                }
                // a node's text is untyped: a double
                other => Number::Dbl(untyped_double(&env.text(other))),
            };
            match total.add(n) {
                Ok(t) => total = t,
                Err(e) => {
                    failed = Some(e);
                    return Ok(false);
                }
            }
            Ok(true)
        })?;
        if let Some(e) = failed {
            return Err(e);
        }
        self.keep_sum(
            &std::sync::Arc::new(arg.clone()),
            true,
            f.item.as_ref(),
            total,
        );
        Ok(Some(total))
    }

    /// The total of `sum(arg)` at `focus` already computed in this evaluation.
    fn known_sum(&self, arg: &Expr, focus: Option<&Item>) -> Option<Number> {
        self.sums
            .iter()
            .find(|s| s.is(arg, focus, self))
            .map(|s| s.total)
    }

    /// Keeps the total of `sum(arg)` at `focus` for the rest of this evaluation (the
    /// first [`MAX_SUMS`] only); `scoped`: the argument may read the scope
    /// ([`reads_scope`]), which is then kept with it.
    fn keep_sum(
        &mut self,
        arg: &std::sync::Arc<Expr>,
        scoped: bool,
        focus: Option<&Item>,
        total: Number,
    ) {
        if self.sums.len() >= MAX_SUMS {
            return;
        }
        let scope = scoped.then(|| {
            (
                self.current.clone(),
                self.vars
                    .iter()
                    .map(|(_, v)| std::sync::Arc::clone(v))
                    .collect(),
            )
        });
        self.sums.push(Sum {
            arg: std::sync::Arc::clone(arg),
            focus: focus.cloned(),
            scope,
            total,
        });
    }

    /// A plan's decimal `sum(arg)` at `focus` already computed in this evaluation
    /// (kept as the evaluator keeps its own, [`Self::keep_decimal_sum`]).
    pub(super) fn known_decimal_sum(&self, arg: &Expr, focus: &Item) -> Option<Decimal> {
        match self.known_sum(arg, Some(focus)) {
            Some(Number::Dec(Some(d))) => Some(d),
            _ => None,
        }
    }

    /// Keeps a plan's decimal `sum(arg)` at `focus` for the rest of this evaluation
    /// (`scoped`: as [`Self::keep_sum`]).
    pub(super) fn keep_decimal_sum(
        &mut self,
        arg: &std::sync::Arc<Expr>,
        scoped: bool,
        focus: &Item,
        total: Decimal,
    ) {
        self.keep_sum(arg, scoped, Some(focus), Number::Dec(Some(total)));
    }

    /// `normalize-space(name)` at element `n` (`name` by its numbers), as kept by
    /// [`Self::keep_child_text`]. A line's `cac:ClassifiedTaxCategory/cbc:ID` is read
    /// 22 times a line (the VAT-category contexts and predicates): 11 000 times on
    /// the 500-line document, each a walk of the children and a normalization. The
    /// document does not change while it is checked, so the text is kept for the
    /// whole check, direct-mapped by element and name (a slot taken by another is a
    /// miss, never a wrong text).
    pub(super) fn known_child_text(&self, n: NodeId, name: (u32, u32)) -> Option<&'a str> {
        match self.child_texts.get(self.child_slot(n, name)) {
            Some(Some((m, k, s))) if *m == n && *k == name => Some(s),
            _ => None,
        }
    }

    /// Keeps `normalize-space(name)` at `n` ([`Self::known_child_text`]).
    pub(super) fn keep_child_text(&mut self, n: NodeId, name: (u32, u32), text: &'a str) {
        if self.child_texts.is_empty() {
            let room = self.dom.len().next_power_of_two().clamp(64, CHILD_TEXTS);
            self.child_texts = vec![None; room];
        }
        let slot = self.child_slot(n, name);
        if let Some(entry) = self.child_texts.get_mut(slot) {
            *entry = Some((n, name, text));
        }
    }

    /// The element a chain of child names reaches from `n` (`Some(None)`: none), as
    /// kept by [`Self::keep_chain_end`]. A line's `cac:Item/cac:ClassifiedTaxCategory`
    /// is walked 7 times a line (BR-S-08's predicates at each rate, the VAT-category
    /// rules), `cac:Price/cbc:PriceAmount` 4 times: each a lookup of the last name in
    /// the document's index and a climb. Kept for the whole check as
    /// [`Self::known_child_text`] keeps texts (a slot taken by another is a miss).
    pub(super) fn known_chain_end(&self, n: NodeId, chain: u128) -> Option<Option<NodeId>> {
        match self.chain_ends.get(self.chain_slot(n, chain)) {
            Some(Some((m, c, end))) if *m == n && *c == chain => Some(*end),
            _ => None,
        }
    }

    /// Keeps the element a chain reaches from `n` ([`Self::known_chain_end`]).
    pub(super) fn keep_chain_end(&mut self, n: NodeId, chain: u128, end: Option<NodeId>) {
        if self.chain_ends.is_empty() {
            let room = self.dom.len().next_power_of_two().clamp(64, CHILD_TEXTS);
            self.chain_ends = vec![None; room];
        }
        let slot = self.chain_slot(n, chain);
        if let Some(entry) = self.chain_ends.get_mut(slot) {
            *entry = Some((n, chain, end));
        }
    }

    /// Binds a variable to the items of `value`, in a sequence left by an earlier one
    /// where there is one: R120's six variables at each of 500 lines were each two
    /// allocations and two frees.
    pub(crate) fn bind(&mut self, name: Cow<'static, str>, value: impl IntoIterator<Item = Item>) {
        let seq = match self.spare.pop() {
            Some(mut kept) => match std::sync::Arc::get_mut(&mut kept) {
                Some(seq) => {
                    seq.clear();
                    seq.extend(value);
                    kept
                }
                None => std::sync::Arc::new(value.into_iter().collect()),
            },
            None => std::sync::Arc::new(value.into_iter().collect()),
        };
        self.vars.push((name, seq));
    }

    /// Unbinds the variables bound after the first `scope`, keeping (a few of) their
    /// sequences for [`Self::bind`].
    pub(crate) fn unbind(&mut self, scope: usize) {
        while self.vars.len() > scope {
            let Some((_, seq)) = self.vars.pop() else {
                break;
            };
            if self.spare.len() < SPARE && std::sync::Arc::strong_count(&seq) == 1 {
                self.spare.push(seq);
            }
        }
    }

    /// An element's text cast to `xs:decimal` (`Some(None)`: not a decimal), as kept
    /// by [`Self::keep_decimal`]. A line's `cbc:LineExtensionAmount` and its category's
    /// `cbc:Percent` are each read by several rules (R120, BR-S-08 at each rate,
    /// BR-CO-10): kept for the whole check, direct-mapped by element (a slot taken by
    /// another is a miss).
    pub(super) fn known_decimal(&self, n: NodeId) -> Option<Option<Decimal>> {
        let slot = (n as usize) & self.decimals.len().wrapping_sub(1);
        match self.decimals.get(slot) {
            Some(Some((m, d))) if *m == n => Some(*d),
            _ => None,
        }
    }

    /// The elements of name `of` grouped by `normalize-space(child)` (`child` a name),
    /// as kept by [`Self::keep_groups`]: `Some(None)` when an element of the name has
    /// several such children (a plan does not decide there). The artefacts test the
    /// VAT category `//cac:ClassifiedTaxCategory[normalize-space(cbc:ID) = 'E']` once
    /// for each of ten codes, in contexts and asserts: grouped once a check, each code
    /// is a lookup, not a walk of every element of the name.
    pub(super) fn known_groups(
        &self,
        of: (u32, u32),
        child: (u32, u32),
    ) -> Option<Option<std::sync::Arc<Groups<'a>>>> {
        self.groups
            .iter()
            .find(|(k, _)| *k == (of, child))
            .map(|(_, g)| g.clone())
    }

    /// The totals [`Self::keep_grouped_sum`] kept for a sum's argument (the same
    /// expression, or one written the same) from element `top`: `Some(None)` when they
    /// were not decided, `None` when none are kept.
    pub(super) fn known_grouped_sum(
        &self,
        arg: &std::sync::Arc<Expr>,
        top: NodeId,
    ) -> Option<Option<std::sync::Arc<SumGroups>>> {
        self.grouped_sums
            .iter()
            .find(|(a, t, _)| *t == top && (std::sync::Arc::ptr_eq(a, arg) || **a == **arg))
            .map(|(_, _, g)| g.clone())
    }

    /// How many sums' totals are kept ([`Self::known_grouped_sum`]).
    #[cfg(test)]
    pub(super) fn grouped_sums_kept(&self) -> usize {
        self.grouped_sums.len()
    }

    /// Whether more totals may be kept ([`MAX_GROUPED_SUMS`]).
    pub(super) fn room_for_grouped_sum(&self) -> bool {
        self.grouped_sums.len() < MAX_GROUPED_SUMS
    }

    /// Keeps the totals of [`Self::known_grouped_sum`] for the rest of the check.
    pub(super) fn keep_grouped_sum(
        &mut self,
        arg: &std::sync::Arc<Expr>,
        top: NodeId,
        groups: Option<std::sync::Arc<SumGroups>>,
    ) {
        self.grouped_sums
            .push((std::sync::Arc::clone(arg), top, groups));
    }

    /// The groups [`Self::keep_shared_groups`] kept for a shared path and a child name.
    pub(super) fn known_shared_groups(
        &self,
        key: SharedGroupKey,
    ) -> Option<std::sync::Arc<Groups<'a>>> {
        self.shared_groups
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, g)| std::sync::Arc::clone(g))
    }

    /// Keeps the groups of [`Self::known_shared_groups`] until the shared paths'
    /// values are forgotten ([`Self::forget_shared`]).
    pub(super) fn keep_shared_groups(
        &mut self,
        key: SharedGroupKey,
        groups: std::sync::Arc<Groups<'a>>,
    ) {
        self.shared_groups.push((key, groups));
    }

    /// Forgets the shared paths' values and what was kept of them: another
    /// stylesheet, whose paths are numbered anew, is applied.
    pub fn forget_shared(&mut self) {
        self.shared.clear();
        self.shared_groups.clear();
    }

    /// Keeps the groups of [`Self::known_groups`] for the rest of the check.
    pub(super) fn keep_groups(
        &mut self,
        of: (u32, u32),
        child: (u32, u32),
        groups: Option<std::sync::Arc<Groups<'a>>>,
    ) {
        self.groups.push(((of, child), groups));
    }

    /// Keeps an element's text cast to `xs:decimal` ([`Self::known_decimal`]).
    pub(super) fn keep_decimal(&mut self, n: NodeId, d: Option<Decimal>) {
        if self.decimals.is_empty() {
            let room = self.dom.len().next_power_of_two().clamp(64, CHILD_TEXTS);
            self.decimals = vec![None; room];
        }
        let slot = (n as usize) & self.decimals.len().wrapping_sub(1);
        if let Some(entry) = self.decimals.get_mut(slot) {
            *entry = Some((n, d));
        }
    }

    /// The slot of an element and a chain in [`Self::chain_ends`].
    fn chain_slot(&self, n: NodeId, chain: u128) -> usize {
        #[allow(clippy::cast_possible_truncation)] // a hash: the low bits are enough
        let folded = (chain as u64) ^ ((chain >> 64) as u64);
        let mixed = u64::from(n)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(folded.wrapping_mul(0xC2B2_AE3D_27D4_EB4F));
        #[allow(clippy::cast_possible_truncation)]
        let slot = (mixed >> 32) as usize;
        slot & self.chain_ends.len().wrapping_sub(1)
    }

    /// The slot of an element and a name in [`Self::child_texts`] (a power of two
    /// long, or empty).
    fn child_slot(&self, n: NodeId, (ns, local): (u32, u32)) -> usize {
        let mixed = n
            .wrapping_mul(0x9E37_79B1)
            .wrapping_add(local.wrapping_mul(0x85EB_CA77))
            .wrapping_add(ns);
        (mixed as usize) & self.child_texts.len().wrapping_sub(1)
    }

    /// Starts a plan's evaluation: nothing kept by an earlier one is reused (as
    /// [`Self::eval_at`] and [`Self::test_at`] start the evaluator's).
    pub(super) fn begin(&mut self) {
        self.sums.clear();
    }

    /// Whether a predicate neither selects by position (its value is a boolean or
    /// nodes) nor reads one: it holds of a node whatever the node's position, so
    /// `//x[p]` is `descendant::x[p]` and a walk may test it node by node.
    pub(crate) fn plain(&self, p: &Expr) -> bool {
        self.boolean_valued(p) && !reads_position(p)
    }

    /// Whether a predicate's value is a boolean or nodes (never a number that would
    /// select by position), so that its effective boolean value is all it says.
    fn boolean_valued(&self, p: &Expr) -> bool {
        match p {
            Expr::Compare(..)
            | Expr::And(..)
            | Expr::Or(..)
            | Expr::Quantified(..)
            | Expr::Castable(..)
            | Expr::Shared(..) => true,
            Expr::Call(name, _) => boolean_function(name),
            Expr::Path(_, steps) => match steps.last() {
                Some(Step::Expr(e)) => self.boolean_valued(e),
                _ => true,
            },
            // a variable bound to a boolean or to nodes
            Expr::Var(v) => self.var(v).is_some_and(|s| {
                matches!(s.as_slice(), [] | [Item::Bool(_)]) || s.iter().all(is_node)
            }),
            Expr::Seq(list) => matches!(list.as_slice(), [one] if self.boolean_valued(one)),
            _ => false,
        }
    }

    /// Where a path can be walked from, when it can: from the focus, the root or
    /// `current()`; `..` and `.` steps first (each gives one node), then child steps,
    /// then at most one attribute or descendant step (or `//x`) last; each predicate
    /// boolean and reading no position. Such a path gives its nodes in document order,
    /// each once, as they are walked.
    fn walk_start(
        &mut self,
        start: &Expr,
        steps: &[Step],
        f: &Focus,
    ) -> Result<Option<From>, Error> {
        if !self.walkable(start, steps) {
            return Ok(None);
        }
        // a shared path followed by a step that names what the document lacks: nothing
        // is reached, and the shared value is not computed (nor its predicates' errors,
        // which XPath lets an evaluation skip when the result is known without them),
        // as the plans find it (`plan::Nodes::names_absent` over the whole path)
        if matches!(start, Expr::Shared(..)) && self.names_absent(steps) {
            return Ok(Some(From::Many(std::sync::Arc::new(Vec::new()))));
        }
        Ok(Some(match start {
            Expr::Context => From::One(f.item()?.clone()),
            Expr::Root => {
                f.item()?;
                From::One(Item::Doc)
            }
            Expr::Call(..) => From::One(self.current.clone()),
            Expr::Seq(_) | Expr::Union(..) => From::Below(f.item()?.clone()),
            Expr::Shared(..) => From::Many(self.shared_value(start, f)?),
            Expr::Var(v) => match self.var(v) {
                Some(value) => From::Many(std::sync::Arc::clone(value)),
                None => return Ok(None),
            },
            _ => return Ok(None),
        })
        .filter(|from| match from {
            From::One(_) | From::Below(_) => true,
            From::Many(items) => items.iter().all(|i| matches!(i, Item::Doc | Item::Node(_))),
        }))
    }

    /// Whether [`Self::walk_start`] may walk a path (its start and steps; a variable's
    /// value is looked at when the walk starts).
    fn walkable(&self, start: &Expr, steps: &[Step]) -> bool {
        let mut down = false;
        let many = match start {
            Expr::Context | Expr::Root => false,
            // `(a | b)/…`: the children of the focus of either name
            _ if self.child_union_plain(start) => {
                down = true;
                false
            }
            Expr::Call(name, args) if name == "current" && args.is_empty() && self.depth == 0 => {
                false
            }
            Expr::Shared(..) | Expr::Var(_) => true,
            _ => return false,
        };
        // from several nodes (a shared path's, a variable's): child and attribute
        // steps only, which never reach a node twice from distinct nodes
        for (i, step) in steps.iter().enumerate() {
            let last = i + 1 == steps.len();
            let step_ok = match step {
                Step::Expr(e) if self.child_union_plain(e) => {
                    down = true;
                    true
                }
                Step::Expr(e) => last && atomic_valued(e) && !reads_position(e),
                Step::Axis(..) => true,
            };
            let Step::Axis(axis, test, preds) = step else {
                if step_ok {
                    continue;
                }
                return false;
            };
            let ok = match axis {
                Axis::Itself => !down,
                Axis::Parent => !down && !many,
                Axis::Attribute | Axis::Descendant if many => last && *axis == Axis::Attribute,
                Axis::Child => {
                    down = true;
                    true
                }
                Axis::Attribute => last,
                // from one item: each node below once (in document order unless one of
                // them holds another, which `path` sorts out)
                Axis::Descendant => {
                    down = true;
                    !many
                }
                Axis::DescendantOrSelf => {
                    down = true;
                    !many
                        && preds.is_empty()
                        && *test == Test::Node
                        && matches!(steps.get(i + 1), Some(Step::Axis(Axis::Child, ..)))
                }
                _ => false,
            };
            if !ok || !preds.iter().all(|p| self.plain(p)) {
                return false;
            }
        }
        true
    }

    /// The value of an [`Expr::Shared`] path, evaluated at its first use in a document.
    fn shared_value(&mut self, e: &Expr, f: &Focus) -> Result<std::sync::Arc<Seq>, Error> {
        let Expr::Shared(id, inner) = e else {
            return Ok(std::sync::Arc::new(self.eval(e, f)?));
        };
        let slot = *id as usize;
        if let Some(Some(value)) = self.shared.get(slot) {
            return Ok(std::sync::Arc::clone(value));
        }
        let value = self.eval(inner, f)?;
        Ok(self.keep_shared(slot, value))
    }

    /// Keeps a shared path's value for the rest of the document.
    fn keep_shared(&mut self, slot: usize, value: Seq) -> std::sync::Arc<Seq> {
        let value = std::sync::Arc::new(value);
        if self.shared.len() <= slot {
            self.shared.resize(slot + 1, None);
        }
        if let Some(cell) = self.shared.get_mut(slot) {
            *cell = Some(std::sync::Arc::clone(&value));
        }
        value
    }

    /// Walks a path from where [`Self::walk_start`] found it starts.
    fn walk_from(
        &mut self,
        from: &From,
        start: &Expr,
        steps: &[Step],
        visit: &mut Visit<'_, 'a>,
    ) -> Result<bool, Error> {
        // a step that names what no element or attribute of the document is named
        // selects nothing, and so does the path: the 131 `not((cac:InvoiceLine |
        // cac:CreditNoteLine)/cbc:UUID)` of UBL-CR each walked every line before
        if self.names_absent(steps) {
            return Ok(true);
        }
        match from {
            From::One(item) => self.walk(item, steps, visit),
            From::Below(item) => self.walk_union(item, start, steps, visit),
            From::Many(items) => {
                for item in items.iter() {
                    if !self.walk(item, steps, visit)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
        }
    }

    /// Whether a step of the path has a name test that no element or attribute of the
    /// document has.
    fn names_absent(&mut self, steps: &[Step]) -> bool {
        steps.iter().any(|s| match s {
            Step::Axis(_, Test::Name(q), _) => self.key(q) == Key::Never,
            _ => false,
        })
    }

    /// Walks a path of [`Self::walk_start`] from `item`, calling `visit` with each node
    /// it selects, in document order; `Ok(false)` when `visit` stopped it.
    fn walk(
        &mut self,
        item: &Item,
        steps: &[Step],
        visit: &mut Visit<'_, 'a>,
    ) -> Result<bool, Error> {
        let Some((step, rest)) = steps.split_first() else {
            return visit(self, item);
        };
        self.burn()?;
        let Step::Axis(axis, test, preds) = step else {
            let Step::Expr(e) = step else {
                return Ok(true);
            };
            if self.child_union_plain(e) {
                return self.walk_union(item, e, rest, visit);
            }
            // the last step, an expression of atomic values, at each node
            for v in self.eval(e, &Focus::at(item.clone()))? {
                if !visit(self, &v)? {
                    return Ok(false);
                }
            }
            return Ok(true);
        };
        let d = self.dom;
        if let Test::Name(q) = test {
            if self.key(q) == Key::Never {
                return Ok(true);
            }
        }
        match (axis, item) {
            (Axis::DescendantOrSelf, _) => match rest.split_first() {
                Some((Step::Axis(Axis::Child, test, preds), after)) => {
                    self.walk_descendants(item, test, preds, after, visit)
                }
                _ => Ok(true),
            },
            (Axis::Descendant, _) => self.walk_descendants(item, test, preds, rest, visit),
            (Axis::Parent, _) => {
                let up = match item {
                    Item::Node(n) => d.parent(*n).map_or(Item::Doc, Item::Node),
                    Item::Attr(n, _) | Item::Text(n) => Item::Node(*n),
                    _ => return Ok(true),
                };
                self.walk_one(&up, *axis, test, preds, rest, visit)
            }
            (Axis::Itself, _) => self.walk_one(item, *axis, test, preds, rest, visit),
            (Axis::Child, Item::Doc) => {
                self.walk_one(&Item::Node(d.root()), *axis, test, preds, rest, visit)
            }
            (Axis::Child, Item::Node(n)) => {
                if matches!(test, Test::Text | Test::Node)
                    && !d.own_text(*n).is_empty()
                    && !self.walk_one(&Item::Text(*n), *axis, test, preds, rest, visit)?
                {
                    return Ok(false);
                }
                // a name: the children of its two numbers (a child is never an
                // attribute), no other tested
                if let Test::Name(q) = test {
                    let Key::Is(ns, local) = self.key(q) else {
                        return Ok(true);
                    };
                    for c in d.children_named(*n, ns, local) {
                        if !self.walk_passed(&Item::Node(c), preds, rest, visit)? {
                            return Ok(false);
                        }
                    }
                    return Ok(true);
                }
                for c in d.children(*n) {
                    if !self.walk_one(&Item::Node(c), *axis, test, preds, rest, visit)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            (Axis::Attribute, Item::Node(n)) => {
                for i in 0..u32::try_from(d.attribute_count(*n)).unwrap_or(0) {
                    if !self.walk_one(&Item::Attr(*n, i), *axis, test, preds, rest, visit)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            _ => Ok(true),
        }
    }

    /// One node an axis reached: when it passes the test and every predicate, the rest
    /// of the path is walked from it.
    #[allow(clippy::too_many_arguments)]
    fn walk_one(
        &mut self,
        node: &Item,
        axis: Axis,
        test: &Test,
        preds: &[Expr],
        rest: &[Step],
        visit: &mut Visit<'_, 'a>,
    ) -> Result<bool, Error> {
        if !self.passes(node, axis, test) {
            return Ok(true);
        }
        self.walk_passed(node, preds, rest, visit)
    }

    /// A node that passed its step's test: when every predicate holds, the rest of
    /// the path is walked from it.
    fn walk_passed(
        &mut self,
        node: &Item,
        preds: &[Expr],
        rest: &[Step],
        visit: &mut Visit<'_, 'a>,
    ) -> Result<bool, Error> {
        if !self.hold_at(node, preds)? {
            return Ok(true);
        }
        self.walk(node, rest, visit)
    }

    /// Whether every (plain) predicate holds at a node.
    fn hold_at(&mut self, node: &Item, preds: &[Expr]) -> Result<bool, Error> {
        if preds.is_empty() {
            return Ok(true);
        }
        let focus = Focus::at(node.clone());
        for p in preds {
            if !self.test(p, &focus)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether `e` is `(a[p] | b[q] …)`, children of the focus by name, whose
    /// predicates are boolean and read no position.
    fn child_union_plain(&self, e: &Expr) -> bool {
        match e {
            Expr::Seq(list) => matches!(list.as_slice(), [one] if self.child_union_plain(one)),
            Expr::Union(a, b) => self.child_union_plain(a) && self.child_union_plain(b),
            Expr::Path(start, steps) => match (&**start, steps.as_slice()) {
                (Expr::Context, [Step::Axis(Axis::Child, Test::Name(_), preds)]) => {
                    preds.iter().all(|p| self.plain(p))
                }
                _ => false,
            },
            _ => false,
        }
    }

    /// Whether a child is selected by a union of [`Self::child_union_plain`].
    fn union_holds(&mut self, e: &Expr, child: &Item) -> Result<bool, Error> {
        Ok(match e {
            Expr::Seq(list) => match list.as_slice() {
                [one] => self.union_holds(one, child)?,
                _ => false,
            },
            Expr::Union(a, b) => self.union_holds(a, child)? || self.union_holds(b, child)?,
            Expr::Path(_, steps) => match steps.as_slice() {
                [Step::Axis(axis, test, preds)] => {
                    self.passes(child, *axis, test) && self.hold_at(child, preds)?
                }
                _ => false,
            },
            _ => false,
        })
    }

    /// The children of `item` that a child union selects, then the `rest` of the path
    /// from each, in document order.
    fn walk_union(
        &mut self,
        item: &Item,
        union: &Expr,
        rest: &[Step],
        visit: &mut Visit<'_, 'a>,
    ) -> Result<bool, Error> {
        self.burn()?;
        let d = self.dom;
        let children: Box<dyn Iterator<Item = NodeId>> = match item {
            Item::Node(n) => Box::new(d.children(*n)),
            Item::Doc => Box::new(std::iter::once(d.root())),
            _ => return Ok(true),
        };
        for c in children {
            let child = Item::Node(c);
            if self.union_holds(union, &child)? && !self.walk(&child, rest, visit)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// `descendant::test[preds]` from `item`, then the `rest` of the path.
    fn walk_descendants(
        &mut self,
        item: &Item,
        test: &Test,
        preds: &[Expr],
        rest: &[Step],
        visit: &mut Visit<'_, 'a>,
    ) -> Result<bool, Error> {
        if let Some(named) = self.named_below(item, test) {
            if let (Some(&n), Some(first)) = (named.first(), preds.first()) {
                if !self.fixed_hold(first, n)? {
                    return Ok(true);
                }
            }
            for &n in named {
                if !self.walk_passed(&Item::Node(n), preds, rest, visit)? {
                    return Ok(false);
                }
            }
            return Ok(true);
        }
        let Some(range) = self.below(item) else {
            return Ok(true);
        };
        // `//*[ends-with(name(), 'Amount') and …]`: the conjuncts at the start of the
        // first predicate that read only the element's name are decided once per
        // name, and an element whose name fails them is not visited (the 500-line
        // document has 25 000 elements and about 200 names)
        let by_name = match (test, preds.first()) {
            (Test::Any, Some(first)) => leading_conjuncts(first, Reads::Name),
            _ => Vec::new(),
        };
        let mut verdicts: Vec<Option<((u32, u32), bool)>> = Vec::new();
        for n in range {
            if !by_name.is_empty() && !self.name_passes(&by_name, n, &mut verdicts)? {
                continue;
            }
            if !self.walk_one(&Item::Node(n), Axis::Descendant, test, preds, rest, visit)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether an element passes conjuncts that read only its name: decided at the
    /// first element of each local name (and its namespace) and kept in `verdicts`, by
    /// local-name number; an element of the same local name in another namespace is
    /// tested each time.
    fn name_passes(
        &mut self,
        conjuncts: &[&Expr],
        n: NodeId,
        verdicts: &mut Vec<Option<((u32, u32), bool)>>,
    ) -> Result<bool, Error> {
        let Some(key) = self.dom.key(n) else {
            return Ok(true);
        };
        let slot = key.1 as usize;
        let known = verdicts.get(slot).copied().flatten();
        if let Some((k, pass)) = known {
            if k == key {
                return Ok(pass);
            }
        }
        let pass = self.all_hold(conjuncts, n)?;
        if known.is_none() {
            if verdicts.len() <= slot {
                verdicts.resize(slot + 1, None);
            }
            if let Some(v) = verdicts.get_mut(slot) {
                *v = Some((key, pass));
            }
        }
        Ok(pass)
    }

    /// Whether the conjuncts at the start of a predicate that read nothing of the focus
    /// (`//cac:TaxCategory[$supplierCountry = 'SE' and …]`) hold: they are evaluated
    /// once, at the first element the step selects, and when they fail the step
    /// selects nothing.
    fn fixed_hold(&mut self, pred: &Expr, first: NodeId) -> Result<bool, Error> {
        self.all_hold(&leading_conjuncts(pred, Reads::Nothing), first)
    }

    /// Whether every conjunct holds at an element, left to right (the first false
    /// stops).
    fn all_hold(&mut self, conjuncts: &[&Expr], n: NodeId) -> Result<bool, Error> {
        let focus = Focus::at(Item::Node(n));
        for c in conjuncts {
            if !self.test(c, &focus)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The elements below an item (the document: every element), as indexes.
    fn below(&self, item: &Item) -> Option<std::ops::Range<NodeId>> {
        let d = self.dom;
        match item {
            Item::Doc => Some(d.subtree(d.root())),
            Item::Node(n) => {
                let r = d.subtree(*n);
                Some(r.start.saturating_add(1)..r.end)
            }
            _ => None,
        }
    }

    /// A name test resolved against this document ([`super::plan`]).
    #[inline]
    pub(super) fn key_of(&mut self, q: &QName) -> Key {
        self.key(q)
    }

    /// Whether an element has a resolved name ([`super::plan`]).
    pub(super) fn named(&self, key: Key, n: NodeId) -> bool {
        self.dom.key(n).is_some_and(|x| key.holds(x))
    }

    /// The elements of a resolved name below an element (anywhere, for `None`), from
    /// the document's index; `None` for a name in any namespace ([`super::plan`]).
    pub(super) fn elements_named(&self, key: Key, below: Option<NodeId>) -> Option<&'a [NodeId]> {
        let dom: &'a Dom = self.dom;
        match key {
            Key::Is(Some(ns), name) => Some(dom.named_below((ns, name), below)),
            Key::Is(None, _) => None,
            Key::Never | Key::Unresolved => Some(&[]),
        }
    }

    /// Whether an element's attribute at an index has an unprefixed name, as
    /// [`Self::passes`] tests it ([`super::plan`]).
    pub(super) fn attribute_named(&mut self, q: &QName, n: NodeId, i: u32) -> bool {
        match self.key(q) {
            Key::Is(_, name) => self.dom.attribute_name_number(n, i as usize) == Some(name),
            Key::Never | Key::Unresolved => false,
        }
    }

    /// The attributes of an unprefixed name on an element and every element below it
    /// (on every element, for `None`), as [`Self::passes`] tests their names
    /// ([`super::plan`]).
    pub(super) fn attributes_named(
        &mut self,
        q: &QName,
        below: Option<NodeId>,
    ) -> &'a [(NodeId, u32)] {
        let dom: &'a Dom = self.dom;
        match self.key(q) {
            Key::Is(_, name) => dom.attributes_named(name, below),
            Key::Never | Key::Unresolved => &[],
        }
    }

    /// One step of the budget ([`super::plan`]).
    pub(super) fn spend(&mut self) -> Result<(), Error> {
        self.burn()
    }

    /// `steps` steps of the budget at once ([`super::plan`]).
    pub(super) fn spend_n(&mut self, steps: usize) -> Result<(), Error> {
        self.fuel = u64::try_from(steps)
            .ok()
            .and_then(|n| self.fuel.checked_sub(n))
            .ok_or_else(|| "the evaluation took too long".to_owned())?;
        Ok(())
    }

    /// The value of an [`Expr::Shared`] path, kept once a document, as `plan` finds it
    /// where it decides (`None`: the evaluator's) ([`super::plan`]; `engine::check_plans`
    /// checks each such value against the evaluator's).
    pub(super) fn shared_planned(
        &mut self,
        e: &Expr,
        focus: Item,
        plan: impl FnOnce(&mut Self) -> Option<Seq>,
    ) -> Result<std::sync::Arc<Seq>, Error> {
        if let Expr::Shared(id, _) = e {
            let slot = *id as usize;
            if let Some(Some(value)) = self.shared.get(slot) {
                return Ok(std::sync::Arc::clone(value));
            }
            if let Some(value) = plan(self) {
                return Ok(self.keep_shared(slot, value));
            }
        }
        self.shared_at(e, focus)
    }

    /// The value of an [`Expr::Shared`] path ([`super::plan`]).
    pub(super) fn shared_at(
        &mut self,
        e: &Expr,
        focus: Item,
    ) -> Result<std::sync::Arc<Seq>, Error> {
        self.shared_value(e, &Focus::at(focus))
    }

    /// The elements of a name in a known namespace (or in none) below an item, from
    /// the document's index; `None` for any other test.
    fn named_below(&mut self, item: &Item, test: &Test) -> Option<&'a [NodeId]> {
        let Test::Name(q) = test else {
            return None;
        };
        let below = match item {
            Item::Doc => None,
            Item::Node(n) => Some(*n),
            _ => return Some(&[]),
        };
        let key = self.key(q);
        self.elements_named(key, below)
    }

    /// A name test's numbers in this document, resolved at its first use.
    #[inline]
    fn key(&mut self, q: &QName) -> Key {
        match self.keys.get(q.id as usize) {
            Some(&Key::Unresolved) | None => self.resolve(q),
            Some(&k) => k,
        }
    }

    /// The number of a namespace in this document, found once by its URI (a
    /// stylesheet's few namespaces: hashing each name test's URI was 4% of checking
    /// a 9 KB invoice).
    fn namespace_number(&mut self, uri: &'static str) -> Option<u32> {
        if let Some((_, n)) = self.namespaces.iter().find(|(u, _)| *u == uri) {
            return *n;
        }
        let n = self.dom.namespace_number(uri);
        self.namespaces.push((uri, n));
        n
    }

    /// [`Self::key`] the first time a name is tested in this document.
    #[inline(never)]
    fn resolve(&mut self, q: &QName) -> Key {
        let at = q.id as usize;
        let k = self.computed_key(q);
        if self.keys.len() <= at {
            self.keys.resize(at + 1, Key::Unresolved);
        }
        if let Some(slot) = self.keys.get_mut(at) {
            *slot = k;
        }
        k
    }

    /// A name test's numbers in this document, from its prefix and local name.
    fn computed_key(&mut self, q: &QName) -> Key {
        let d = self.dom;
        let ns = match q.prefix.as_deref() {
            Some("*") => Some(None),
            Some(p) => (self.ns)(p)
                .and_then(|uri| self.namespace_number(uri))
                .map(Some),
            None => Some(Some(0)),
        };
        match (ns, d.name_number(&q.local)) {
            (Some(ns), Some(name)) => Key::Is(ns, name),
            _ => Key::Never,
        }
    }

    /// The one item of an expression of at most one item, without building a
    /// sequence: a literal, the focus, a variable bound to at most one item, a walked
    /// path that reaches at most one node or value, arithmetic on those, and the same
    /// in parentheses. `Ok(None)` for any other expression (or a path that reaches
    /// several items: the general evaluation then says what is wrong); `Some(None)` for
    /// the empty sequence.
    fn one_item(&mut self, e: &Expr, f: &Focus) -> Result<Option<Option<Item>>, Error> {
        Ok(Some(match e {
            Expr::Num(n) => Some(Item::Num(Some(*n))),
            Expr::Context => Some(f.item()?.clone()),
            Expr::Seq(list) => match list.as_slice() {
                [one] => return self.one_item(one, f),
                _ => return Ok(None),
            },
            Expr::Var(v) => match self.var(v) {
                Some(value) => match value.as_slice() {
                    [] => None,
                    [x] => Some(x.clone()),
                    _ => return Ok(None),
                },
                None => return Ok(None),
            },
            Expr::Path(start, steps) if self.walkable(start, steps) => {
                let Some(from) = self.walk_start(start, steps, f)? else {
                    return Ok(None);
                };
                match self.walk_single(&from, start, steps)? {
                    Some(one) => one,
                    None => return Ok(None),
                }
            }
            // evaluated (once: an error or several items are left to the caller)
            _ => {
                let mut v = self.eval(e, f)?;
                match v.pop() {
                    Some(x) if v.is_empty() => Some(x),
                    None => None,
                    Some(_) => return Ok(None),
                }
            }
        }))
    }

    /// The one item a walked path reaches: `Some(None)` for none, `None` for several
    /// (the walk stops at the second).
    fn walk_single(
        &mut self,
        from: &From,
        start: &Expr,
        steps: &[Step],
    ) -> Result<Option<Option<Item>>, Error> {
        let mut one: Option<Item> = None;
        let mut many = false;
        self.walk_from(from, start, steps, &mut |_, i| {
            if one.is_some() {
                many = true;
                return Ok(false);
            }
            one = Some(i.clone());
            Ok(true)
        })?;
        Ok(if many { None } else { Some(one) })
    }

    /// The string value of an item, borrowed from the document where it stands there.
    fn text(&self, item: &Item) -> Cow<'a, str> {
        let d = self.dom;
        match item {
            Item::Doc => d.string_value(d.root()),
            Item::Node(n) => d.string_value(*n),
            Item::Attr(n, i) => {
                Cow::Borrowed(d.attribute_at(*n, *i as usize).map_or("", |(_, v)| v))
            }
            Item::Text(n) => Cow::Borrowed(d.own_text(*n)),
            Item::Str(s) => Cow::Owned(s.clone()),
            Item::Num(n) => Cow::Owned(num_string(*n)),
            Item::Double(x) => Cow::Owned(x.string()),
            Item::Bool(b) => Cow::Owned(b.to_string()),
            Item::Date(x) => Cow::Owned(x.format("%Y-%m-%d").to_string()),
        }
    }

    /// The one string of an argument (empty for the empty sequence; the focus's when
    /// there is no argument): a literal is borrowed, a walked path's one node read in
    /// place.
    fn arg_string<'x>(
        &mut self,
        args: &'x [Expr],
        k: usize,
        f: &Focus,
    ) -> Result<Cow<'x, str>, Error>
    where
        'a: 'x,
    {
        let Some(e) = args.get(k) else {
            return Ok(self.text(f.item()?));
        };
        if let Some(text) = self.str_expr(e, f)? {
            return Ok(text.unwrap_or_default());
        }
        let mut s = self.eval(e, f)?;
        match s.as_mut_slice() {
            [] => Ok(Cow::Borrowed("")),
            [Item::Str(x)] => Ok(Cow::Owned(std::mem::take(x))),
            [x] => Ok(self.text(x)),
            _ => Err(MANY.into()),
        }
    }

    /// The value of an expression that is one string or nothing, without building a
    /// sequence: a literal (borrowed), a walked path of at most one node (its text read
    /// in place; `None` inside for no node), the focus, and `normalize-space`,
    /// `string`, `upper-case`, `lower-case`, `name()` and `local-name()` of those.
    /// `Ok(None)` for any other expression.
    fn str_expr<'x>(
        &mut self,
        e: &'x Expr,
        f: &Focus,
    ) -> Result<Option<Option<Cow<'x, str>>>, Error>
    where
        'a: 'x,
    {
        Ok(Some(match e {
            Expr::Str(lit) => Some(Cow::Borrowed(lit.as_str())),
            Expr::Context => Some(self.text(f.item()?)),
            Expr::Path(start, steps) => {
                let Some(from) = self.walk_start(start, steps, f)? else {
                    return Ok(None);
                };
                match self.walk_single(&from, start, steps)? {
                    Some(Some(Item::Str(text))) => Some(Cow::Owned(text)),
                    Some(one) => one.map(|i| self.text(&i)),
                    None => return Err(MANY.into()),
                }
            }
            Expr::Call(name, args) => match (name.as_str(), args.as_slice()) {
                ("name" | "local-name", []) => match f.item()? {
                    Item::Node(n) => Some(Cow::Borrowed(self.dom.name(*n))),
                    _ => return Ok(None),
                },
                ("string", [] | [_]) => Some(self.arg_string(args, 0, f)?),
                ("normalize-space", [] | [_]) => Some(crate::en16931::xpath::normalize_space_of(
                    self.arg_string(args, 0, f)?,
                )),
                ("upper-case", [_]) => Some(crate::en16931::xpath::upper_case(
                    self.arg_string(args, 0, f)?,
                )),
                ("lower-case", [_]) => Some(match self.arg_string(args, 0, f)? {
                    t if t.bytes().all(|b| b.is_ascii() && !b.is_ascii_uppercase()) => t,
                    t => Cow::Owned(t.to_lowercase()),
                }),
                _ => return Ok(None),
            },
            _ => return Ok(None),
        }))
    }
}

/// A sequence type of an `as` attribute: an atomic type (`xs:string`) and how many
/// items it allows (`?`: at most one, `*`: any number, `+`: at least one, no sign:
/// exactly one).
#[derive(Debug, Clone, PartialEq, Eq)]
struct SeqType {
    atomic: &'static str,
    at_least_one: bool,
    many: bool,
}

impl SeqType {
    fn read(text: &'static str) -> Result<Self, Error> {
        let t = text.trim();
        let (atomic, at_least_one, many) = match t.char_indices().last() {
            Some((i, '?')) => (t.get(..i), false, false),
            Some((i, '*')) => (t.get(..i), false, true),
            Some((i, '+')) => (t.get(..i), true, true),
            _ => (Some(t), true, false),
        };
        match atomic {
            Some(
                a @ ("xs:string" | "xs:boolean" | "xs:decimal" | "xs:integer" | "xs:double"
                | "xs:date"),
            ) => Ok(SeqType {
                atomic: a,
                at_least_one,
                many,
            }),
            _ => Err(format!("the type {text} is not read")),
        }
    }
}

/// An `xsl:function` of a stylesheet (`artefacts::FUNCTIONS`), compiled once: its
/// parameters, the type of its result and its body, each XPath parsed.
#[derive(Debug)]
pub(crate) struct Function {
    /// Its name (`u:gln`).
    name: &'static str,
    /// How many parameters it takes.
    arity: usize,
    /// Its definition, or why it does not compile (a call of it is then an error).
    def: Result<Definition, Error>,
}

#[derive(Debug)]
struct Definition {
    params: Vec<(&'static str, Option<SeqType>)>,
    result: Option<SeqType>,
    body: Vec<Instr>,
}

/// An instruction of a function's body ([`Instruction`], parsed).
#[derive(Debug)]
enum Instr {
    Var(&'static str, Option<SeqType>, Expr),
    Sequence(Expr),
    Choose(Vec<(Expr, Vec<Instr>)>, Vec<Instr>),
}

impl Function {
    /// Why the function does not compile, if it does not.
    #[cfg(test)]
    pub(crate) fn compile_error(&self) -> Option<&str> {
        self.def.as_ref().err().map(String::as_str)
    }

    /// Parses a function's XPath once; a part that does not parse makes every call of
    /// the function an error.
    pub(crate) fn compile(source: &artefacts::Function) -> Self {
        let ty = |t: Option<&'static str>| t.map(SeqType::read).transpose();
        let def = (|| {
            let mut params = Vec::with_capacity(source.params.len());
            for p in source.params {
                params.push((p.name, ty(p.ty)?));
            }
            Ok(Definition {
                params,
                result: ty(source.result)?,
                body: compile_body(source.body)?,
            })
        })();
        Function {
            name: source.name,
            arity: source.params.len(),
            def,
        }
    }

    /// A call of this function written out, for [`super::plan`] only (the evaluator
    /// calls it): when the body is one boolean expression of its parameters alone, each
    /// of them exactly one `xs:decimal` (`u:slack`), the body with each parameter
    /// replaced by `(argument) cast as xs:decimal`. That cast is what the call's
    /// conversion does to every argument a plan lowers (a decimal stays itself, a
    /// node's text is cast, and no item or several is an error, which a plan leaves to
    /// the evaluator); `None` for any other function or call.
    pub(crate) fn inlined(&self, name: &str, args: &[Expr]) -> Option<Expr> {
        let def = self.def.as_ref().ok()?;
        let decimal = |t: &Option<SeqType>| matches!(t, Some(t) if t.atomic == "xs:decimal" && t.at_least_one && !t.many);
        let boolean =
            matches!(&def.result, Some(t) if t.atomic == "xs:boolean" && t.at_least_one && !t.many);
        let ([Instr::Sequence(body)], true) = (def.body.as_slice(), boolean) else {
            return None;
        };
        if self.name != name
            || self.arity != args.len()
            || !def.params.iter().all(|(_, t)| decimal(t))
        {
            return None;
        }
        let own = |v: &str| def.params.iter().any(|(p, _)| *p == v);
        // the body reads its parameters only: no focus, no other variable
        let reads_more = super::parse::any(body, &mut |x| match x {
            Expr::Var(v) => !own(v),
            Expr::Path(..)
            | Expr::Root
            | Expr::Context
            | Expr::Filter(..)
            | Expr::Shared(..)
            | Expr::Quantified(..)
            | Expr::For(..) => true,
            // `string()` reads the focus, `u:…` is another function of the stylesheet
            Expr::Call(name, args) => {
                (args.is_empty() && name != "true" && name != "false")
                    || name == "current"
                    || (name.contains(':') && !name.starts_with("xs:"))
            }
            _ => false,
        });
        if reads_more {
            return None;
        }
        // A parameter the body reads twice whose argument is more than a literal or a
        // variable is bound once, `every $p in (argument) cast as xs:decimal satisfies
        // …` (exactly one decimal: the body's value, as the call's): R120's `$val` is
        // two variables' quotient and a sum, read twice. Unless an argument reads a
        // variable of a parameter's name, which the binding would hide.
        let cast = |arg: &Expr| Expr::Cast(Box::new(arg.clone()), "xs:decimal".to_owned(), false);
        let uses = |p: &str| {
            let mut n = 0;
            super::parse::any(body, &mut |x| {
                n += usize::from(matches!(x, Expr::Var(v) if v == p));
                false
            });
            n
        };
        let hides = args
            .iter()
            .any(|a| super::parse::any(a, &mut |x| matches!(x, Expr::Var(v) if own(v))));
        let bound: Vec<usize> = (0..def.params.len())
            .filter(|&i| {
                let plain = matches!(
                    args.get(i),
                    Some(Expr::Num(_) | Expr::Str(_) | Expr::Var(_))
                );
                !hides && !plain && def.params.get(i).is_some_and(|(p, _)| uses(p) >= 2)
            })
            .collect();
        let mut out = body.clone();
        substitute(&mut out, &|v| {
            let i = def.params.iter().position(|(p, _)| *p == v)?;
            (!bound.contains(&i)).then(|| args.get(i).map(cast))?
        });
        for &i in bound.iter().rev() {
            let ((p, _), arg) = (def.params.get(i)?, args.get(i)?);
            out = Expr::Quantified(true, vec![((*p).to_owned(), cast(arg))], Box::new(out));
        }
        Some(out)
    }
}

/// Replaces each variable that `with` names by its expression.
fn substitute(e: &mut Expr, with: &dyn Fn(&str) -> Option<Expr>) {
    if let Expr::Var(v) = e {
        if let Some(x) = with(v) {
            *e = x;
        }
        return;
    }
    for child in super::parse::children_mut(e) {
        substitute(child, with);
    }
}

fn compile_body(body: &'static [Instruction]) -> Result<Vec<Instr>, Error> {
    let mut out = Vec::with_capacity(body.len());
    for i in body {
        out.push(match i {
            Instruction::Var { name, ty, select } => {
                Instr::Var(name, ty.map(SeqType::read).transpose()?, parse(select)?)
            }
            Instruction::Sequence(select) => Instr::Sequence(parse(select)?),
            Instruction::Choose { when, otherwise } => {
                let mut branches = Vec::with_capacity(when.len());
                for (test, b) in *when {
                    branches.push((parse(test)?, compile_body(b)?));
                }
                Instr::Choose(branches, compile_body(otherwise)?)
            }
        });
    }
    Ok(out)
}

impl Env<'_> {
    /// A call of a stylesheet's function, as XSLT makes it: each argument evaluated
    /// here and converted to its parameter's type, then the body evaluated with only
    /// the parameters in scope (not the caller's variables) and no context item, and
    /// its value converted to the function's type. Nested calls are bounded.
    fn call_function(&mut self, fun: &Function, args: &[Expr], f: &Focus) -> Result<Seq, Error> {
        let def = fun
            .def
            .as_ref()
            .map_err(|e| format!("the function {} does not compile: {e}", fun.name))?;
        if self.depth >= MAX_CALLS {
            return Err(format!(
                "{}: calls nested deeper than {MAX_CALLS}",
                fun.name
            ));
        }
        self.burn()?;
        let mut bound = Vec::with_capacity(def.params.len());
        for ((name, ty), e) in def.params.iter().zip(args) {
            let v = self.eval(e, f)?;
            let v = self
                .convert(&v, ty.as_ref())
                .map_err(|e| format!("{}, ${name}: {e}", fun.name))?;
            bound.push((Cow::Borrowed(*name), std::sync::Arc::new(v)));
        }
        let caller = std::mem::replace(&mut self.vars, bound);
        self.depth += 1;
        let absent = Focus {
            item: None,
            pos: 0,
            size: 0,
        };
        let out = self.run_body(&def.body, &absent);
        self.depth -= 1;
        self.vars = caller;
        self.convert(&out?, def.result.as_ref())
            .map_err(|e| format!("the result of {}: {e}", fun.name))
    }

    /// The value of a body: its instructions in order, each variable in scope for the
    /// ones after it (and no longer once the body is done).
    fn run_body(&mut self, body: &[Instr], f: &Focus) -> Result<Seq, Error> {
        let scope = self.vars.len();
        let out = self.run_instructions(body, f);
        self.vars.truncate(scope);
        out
    }

    fn run_instructions(&mut self, body: &[Instr], f: &Focus) -> Result<Seq, Error> {
        let mut out = Vec::new();
        for ins in body {
            self.burn()?;
            match ins {
                Instr::Var(name, ty, e) => {
                    let v = self.eval(e, f)?;
                    let v = self
                        .convert(&v, ty.as_ref())
                        .map_err(|e| format!("${name}: {e}"))?;
                    self.vars
                        .push((Cow::Borrowed(*name), std::sync::Arc::new(v)));
                }
                Instr::Sequence(e) => out.extend(self.eval(e, f)?),
                Instr::Choose(when, otherwise) => {
                    let mut chosen = otherwise;
                    for (test, b) in when {
                        if ebv(&self.eval(test, f)?)? {
                            chosen = b;
                            break;
                        }
                    }
                    out.extend(self.run_body(chosen, f)?);
                }
            }
        }
        Ok(out)
    }

    /// XSLT's function conversion rules for a declared type (none: the value as it
    /// is): atomized, an untyped value cast to the type, a value of another type or
    /// a wrong number of items an error (XTTE0790). A number here does not tell an
    /// `xs:double` from an `xs:decimal`: any number but NaN is an `xs:decimal`, any
    /// whole number an `xs:integer`.
    fn convert(&self, v: &Seq, ty: Option<&SeqType>) -> Result<Seq, Error> {
        let Some(ty) = ty else {
            return Ok(v.clone());
        };
        let atoms = self.atoms(v);
        if (atoms.is_empty() && ty.at_least_one) || (atoms.len() > 1 && !ty.many) {
            return Err(format!("{} items where {:?} is required", atoms.len(), ty));
        }
        atoms.iter().map(|a| convert_atom(a, ty.atomic)).collect()
    }

    /// A variable's value.
    fn variable(&self, name: &str) -> Result<&Seq, Error> {
        self.var(name)
            .map(|s| &**s)
            .ok_or_else(|| format!("the variable ${name} is not bound"))
    }

    /// The innermost variable in scope of a name: by [`same_name`], which the names
    /// of the engine's rules and plans ([`static_name`]) pass by their address.
    pub(crate) fn var(&self, name: &str) -> Option<&std::sync::Arc<Seq>> {
        self.vars
            .iter()
            .rev()
            .find(|(n, _)| same_name(n, name))
            .map(|(_, s)| s)
    }

    /// `$v[p]` where `p` does not read the focus and is a number: the item at that
    /// position, without copying the variable's sequence (`$digits[$i + 1]` in a
    /// loop). `Ok(None)` when `p` is not such a predicate.
    fn index_variable(&mut self, name: &str, p: &Expr, f: &Focus) -> Result<Option<Seq>, Error> {
        if !focus_free(p) {
            return Ok(None);
        }
        if self.variable(name)?.is_empty() {
            return Ok(Some(Vec::new()));
        }
        let v = self.eval(p, f)?;
        let [n @ (Item::Num(_) | Item::Double(_))] = v.as_slice() else {
            return Ok(None);
        };
        let item =
            position(numeric_value(n)).and_then(|k| self.variable(name).ok()?.get(k).cloned());
        Ok(Some(item.into_iter().collect()))
    }
}

/// An atom converted to an atomic type as XSLT converts an argument (see
/// [`Env::convert`]).
fn convert_atom(a: &Atom, ty: &str) -> Result<Item, Error> {
    let ok = match (a, ty) {
        (Atom::Untyped(_), _) => return cast(a, ty),
        // a decimal is promoted to a double
        (Atom::Num(n), "xs:double") => return Ok(Item::Double(Number::Dec(*n).double())),
        (Atom::Str(_), "xs:string")
        | (Atom::Bool(_), "xs:boolean")
        | (Atom::Date(_), "xs:date")
        | (Atom::Double(_), "xs:double")
        | (Atom::Num(Some(_)), "xs:decimal") => true,
        (Atom::Num(Some(d)), "xs:integer") => d.fract().is_zero(),
        _ => false,
    };
    if ok {
        Ok(atom_item(a.clone()))
    } else {
        Err(format!("{a:?} is not an {ty}"))
    }
}

/// The index (0-based) a numeric predicate selects: none unless a whole number ≥ 1.
fn position(n: Option<Decimal>) -> Option<usize> {
    let n = n.filter(|d| d.fract().is_zero())?;
    usize::try_from(n).ok()?.checked_sub(1)
}

/// Whether an expression surely does not read the focus (the context item, its
/// position, the size): then it has the same value at every item a predicate filters.
fn focus_free(e: &Expr) -> bool {
    let all = |list: &[Expr]| list.iter().all(focus_free);
    match e {
        // a shared path starts at the root: no focus
        Expr::Str(_) | Expr::Num(_) | Expr::Var(_) | Expr::Shared(..) => true,
        // A function without argument may read the context item (`string()`).
        Expr::Call(name, args) => {
            (!args.is_empty() || matches!(name.as_str(), "true" | "false" | "current")) && all(args)
        }
        Expr::Seq(list) => all(list),
        // A path's steps and a filter's predicates have a focus of their own.
        Expr::Filter(a, _)
        | Expr::Path(a, _)
        | Expr::Neg(a)
        | Expr::Castable(a, _, _)
        | Expr::Cast(a, _, _) => focus_free(a),
        Expr::Or(a, b)
        | Expr::And(a, b)
        | Expr::Compare(_, _, a, b)
        | Expr::Arith(_, a, b)
        | Expr::Union(a, b)
        | Expr::Range(a, b) => focus_free(a) && focus_free(b),
        Expr::If(c, t, e2) => focus_free(c) && focus_free(t) && focus_free(e2),
        Expr::Quantified(_, binds, x) | Expr::For(binds, x) => {
            binds.iter().all(|(_, b)| focus_free(b)) && focus_free(x)
        }
        Expr::Context | Expr::Root => false,
    }
}

/// The branches of `(child::a[p] | child::b[q] …)`, an expression that selects children
/// of the context by name: `false` for any other expression.
fn child_union<'e>(e: &'e Expr, out: &mut Vec<(&'e Test, &'e [Expr])>) -> bool {
    match e {
        Expr::Seq(list) => matches!(list.as_slice(), [one] if child_union(one, out)),
        Expr::Union(a, b) => child_union(a, out) && child_union(b, out),
        Expr::Path(start, steps) => match (&**start, steps.as_slice()) {
            (Expr::Context, [Step::Axis(Axis::Child, test @ Test::Name(..), preds)]) => {
                out.push((test, preds));
                true
            }
            _ => false,
        },
        _ => false,
    }
}

/// Whether a path is `*` (`child::*` from the focus, without predicates).
fn any_child(start: &Expr, steps: &[Step]) -> bool {
    matches!(start, Expr::Context)
        && matches!(steps, [Step::Axis(Axis::Child, Test::Any, p)] if p.is_empty())
}

/// A text (white space trimmed) cast to `xs:decimal` or `xs:double`.
fn cast_number(t: &str, ty: &str) -> Result<Item, Error> {
    if ty == "xs:double" {
        Double::parse(t).map(Item::Double)
    } else {
        parse_number(t).map(|d| Item::Num(Some(d)))
    }
    .ok_or_else(|| format!("cannot convert {t:?} to {ty}"))
}

/// The value of a numeric item (a position or an index), `None` for NaN, an infinity
/// or another item.
fn numeric_value(i: &Item) -> Option<Decimal> {
    match i {
        Item::Num(n) => *n,
        Item::Double(x) => x.decimal(),
        _ => None,
    }
}

fn is_node(i: &Item) -> bool {
    matches!(
        i,
        Item::Doc | Item::Node(_) | Item::Attr(..) | Item::Text(_)
    )
}

/// Document order of nodes.
fn order(i: &Item) -> (i64, i64) {
    match i {
        Item::Doc => (-1, 0),
        Item::Node(n) => (i64::from(*n), 0),
        Item::Text(n) => (i64::from(*n), 1),
        Item::Attr(n, k) => (i64::from(*n), 2 + i64::from(*k)),
        _ => (i64::MAX, 0),
    }
}

fn sort_dedup(s: &mut Seq) {
    s.sort_by_key(order);
    s.dedup();
}

fn atom_item(a: Atom) -> Item {
    match a {
        Atom::Untyped(s) | Atom::Str(s) => Item::Str(s),
        Atom::Num(n) => Item::Num(n),
        Atom::Double(x) => Item::Double(x),
        Atom::Bool(b) => Item::Bool(b),
        Atom::Date(d) => Item::Date(d),
    }
}

/// The effective boolean value of a sequence.
pub fn ebv(s: &Seq) -> Result<bool, Error> {
    Ok(match s.as_slice() {
        [] => false,
        [first, ..] if is_node(first) => true,
        [Item::Bool(b)] => *b,
        [Item::Str(x)] => !x.is_empty(),
        [Item::Num(n)] => n.is_some_and(|d| !d.is_zero()),
        [Item::Double(x)] => x.truthy(),
        [Item::Date(_)] => return Err("no boolean value of a date".into()),
        _ => return Err("no boolean value of a sequence of several values".into()),
    })
}

/// A number as XPath writes it.
fn num_string(n: Option<Decimal>) -> String {
    match n {
        None => "NaN".into(),
        Some(d) => d.normalize().to_string(),
    }
}

/// The number of an atom: an untyped value (or a string) is read as a double.
fn numeric(a: &Atom) -> Result<Number, Error> {
    Ok(match a {
        Atom::Num(n) => Number::Dec(*n),
        Atom::Double(x) => Number::Dbl(*x),
        Atom::Untyped(s) | Atom::Str(s) => Number::Dbl(untyped_double(s)),
        Atom::Bool(b) => Number::Dec(Some(if *b { Decimal::ONE } else { Decimal::ZERO })),
        Atom::Date(_) => return Err("a date is not a number".into()),
    })
}

/// A number's text as `xs:decimal` reads it, trimmed: `xs:double`'s lexical form
/// without an exponent ([`double::exact`]).
pub(super) fn parse_number(s: &str) -> Option<Decimal> {
    double::exact_decimal(s)
}

fn integer(a: &Atom) -> Result<i64, Error> {
    let n = numeric(a)?.value().ok_or("NaN is not an integer")?;
    i64::try_from(n.trunc()).map_err(|e| e.to_string())
}

/// A cast of an atom to a type.
fn cast(a: &Atom, ty: &str) -> Result<Item, Error> {
    let text = match a {
        Atom::Untyped(s) | Atom::Str(s) => Some(trim_xml(s)),
        _ => None,
    };
    match ty {
        "xs:string" => Ok(Item::Str(match a {
            Atom::Untyped(s) | Atom::Str(s) => s.clone(),
            Atom::Num(n) => num_string(*n),
            Atom::Double(x) => x.string(),
            Atom::Bool(b) => b.to_string(),
            Atom::Date(d) => d.format("%Y-%m-%d").to_string(),
        })),
        "xs:decimal" | "xs:double" => match (a, text) {
            (_, Some(t)) => cast_number(t, ty),
            (Atom::Num(_) | Atom::Double(_) | Atom::Bool(_), _) => {
                let n = numeric(a)?;
                if ty == "xs:double" {
                    Ok(Item::Double(n.double()))
                } else {
                    // a double's exact value (Saxon's cast); NaN and the infinities
                    // have none (FOCA0002)
                    match n {
                        Number::Dbl(x) => x
                            .decimal()
                            .map(|d| Item::Num(Some(d)))
                            .ok_or_else(|| format!("cannot convert {} to xs:decimal", x.string())),
                        Number::Dec(d) => Ok(Item::Num(d)),
                    }
                }
            }
            _ => Err(format!("cannot convert to {ty}")),
        },
        "xs:integer" => match (a, text) {
            (Atom::Num(Some(n)), _) => Ok(Item::Num(Some(n.trunc()))),
            (Atom::Double(x), _) => x
                .decimal()
                .map(|d| Item::Num(Some(d.trunc())))
                .ok_or_else(|| format!("cannot convert {} to xs:integer", x.string())),
            (_, Some(t)) if !t.contains('.') => parse_number(t)
                .map(|d| Item::Num(Some(d)))
                .ok_or_else(|| format!("cannot convert {t:?} to xs:integer")),
            _ => Err("cannot convert to xs:integer".into()),
        },
        "xs:date" => match (a, text) {
            (Atom::Date(d), _) => Ok(Item::Date(*d)),
            (_, Some(t)) if t.len() == 10 => NaiveDate::parse_from_str(t, "%Y-%m-%d")
                .map(Item::Date)
                .map_err(|e| e.to_string()),
            _ => Err("cannot convert to xs:date".into()),
        },
        "xs:boolean" => match (a, text.and_then(boolean_of_text)) {
            (Atom::Bool(b), _) => Ok(Item::Bool(*b)),
            (_, Some(b)) => Ok(Item::Bool(b)),
            _ => Err("cannot convert to xs:boolean".into()),
        },
        other => Err(format!("the type {other} is not read")),
    }
}

/// A trimmed text cast to `xs:boolean` (also [`super::plan`]'s); `None` when it is
/// not one.
pub(super) fn boolean_of_text(t: &str) -> Option<bool> {
    match t {
        "true" | "1" => Some(true),
        "false" | "0" => Some(false),
        _ => None,
    }
}

pub(super) fn ordering_ok(op: Cmp, o: Ordering) -> bool {
    match op {
        Cmp::Eq => o == Ordering::Equal,
        Cmp::Ne => o != Ordering::Equal,
        Cmp::Lt => o == Ordering::Less,
        Cmp::Le => o != Ordering::Greater,
        Cmp::Gt => o == Ordering::Greater,
        Cmp::Ge => o != Ordering::Less,
    }
}

/// A general comparison of two atoms (an untyped value takes the other's type); a
/// pair that cannot be compared is false.
fn general_cmp(op: Cmp, x: &Atom, y: &Atom) -> bool {
    match (x, y) {
        // an untyped value is a double (a decimal is then promoted to one)
        (Atom::Num(Some(d)), Atom::Untyped(s)) => {
            compare_untyped(s, *d).map_or(op == Cmp::Ne, |o| ordering_ok(op, o.reverse()))
        }
        (Atom::Untyped(s), Atom::Num(Some(d))) => {
            compare_untyped(s, *d).map_or(op == Cmp::Ne, |o| ordering_ok(op, o))
        }
        (Atom::Num(_) | Atom::Double(_), Atom::Untyped(_) | Atom::Num(_) | Atom::Double(_))
        | (Atom::Untyped(_), Atom::Num(_) | Atom::Double(_)) => {
            let (Ok(a), Ok(b)) = (numeric(x), numeric(y)) else {
                return false;
            };
            a.compare(b).map_or(op == Cmp::Ne, |o| ordering_ok(op, o))
        }
        (Atom::Bool(a), Atom::Untyped(s)) | (Atom::Untyped(s), Atom::Bool(a)) => {
            match cast(&Atom::Untyped(s.clone()), "xs:boolean") {
                Ok(Item::Bool(b)) => ordering_ok(
                    op,
                    if matches!(x, Atom::Bool(_)) {
                        a.cmp(&b)
                    } else {
                        b.cmp(a)
                    },
                ),
                _ => false,
            }
        }
        (Atom::Bool(a), Atom::Bool(b)) => ordering_ok(op, a.cmp(b)),
        (Atom::Date(a), Atom::Date(b)) => ordering_ok(op, a.cmp(b)),
        (Atom::Date(a), Atom::Untyped(s)) | (Atom::Untyped(s), Atom::Date(a)) => {
            match cast(&Atom::Untyped(s.clone()), "xs:date") {
                Ok(Item::Date(b)) => ordering_ok(
                    op,
                    if matches!(x, Atom::Date(_)) {
                        a.cmp(&b)
                    } else {
                        b.cmp(a)
                    },
                ),
                _ => false,
            }
        }
        (Atom::Untyped(a) | Atom::Str(a), Atom::Untyped(b) | Atom::Str(b)) => {
            ordering_ok(op, a.as_str().cmp(b.as_str()))
        }
        _ => false,
    }
}

/// A value comparison: an untyped value is a string.
fn value_cmp(op: Cmp, x: &Atom, y: &Atom) -> Result<bool, Error> {
    let untyped = |a: &Atom| match a {
        Atom::Untyped(s) => Atom::Str(s.clone()),
        other => other.clone(),
    };
    let (x, y) = (untyped(x), untyped(y));
    Ok(match (&x, &y) {
        (Atom::Num(_) | Atom::Double(_), Atom::Num(_) | Atom::Double(_)) => numeric(&x)?
            .compare(numeric(&y)?)
            .map_or(op == Cmp::Ne, |o| ordering_ok(op, o)),
        (Atom::Str(a), Atom::Str(b)) => ordering_ok(op, a.cmp(b)),
        (Atom::Bool(a), Atom::Bool(b)) => ordering_ok(op, a.cmp(b)),
        (Atom::Date(a), Atom::Date(b)) => ordering_ok(op, a.cmp(b)),
        _ => return Err("a value comparison of values of different types".into()),
    })
}

fn arith(op: Arith, x: &Atom, y: &Atom) -> Result<Item, Error> {
    let (a, b) = match (numeric(x)?, numeric(y)?) {
        (Number::Dec(a), Number::Dec(b)) => (a, b),
        (a, b) => return double_arith(op, a.double(), b.double()),
    };
    let (Some(a), Some(b)) = (a, b) else {
        if op == Arith::IDiv {
            return Err("an integer division of NaN (FOAR0002)".into());
        }
        return Ok(Item::Num(None));
    };
    decimal_arith(op, a, b).map(|d| Item::Num(Some(d)))
}

/// A variable's name kept once for the whole process, so that the same name is at the
/// same address: the names of the variables of the layers' rules and of their plans
/// ([`super::plan`]), all written in the artefacts the crate compiles (a bounded set,
/// never a name read from a document). A plan's `$val` (`u:slack` written out, at each
/// line of a document) was bound as a copy of its name, and each lookup of a variable
/// compared names by `memcmp`: about 700 of PEPPOL-EN16931-R120's 2 740 instructions a
/// line (callgrind, issue 30).
pub(crate) fn static_name(name: &str) -> &'static str {
    static NAMES: std::sync::Mutex<Option<std::collections::HashSet<&'static str>>> =
        std::sync::Mutex::new(None);
    let mut names = NAMES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let names = names.get_or_insert_with(std::collections::HashSet::new);
    if let Some(&kept) = names.get(name) {
        return kept;
    }
    let kept: &'static str = Box::leak(name.to_owned().into_boxed_str());
    names.insert(kept);
    kept
}

/// Whether two variables' names are the same: at the same address ([`static_name`]),
/// else compared byte by byte in place (a name is a few bytes: a call of `memcmp` for
/// each cost more than the comparison).
pub(crate) fn same_name(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && (std::ptr::eq(a.as_ptr(), b.as_ptr()) || a.bytes().zip(b.bytes()).all(|(x, y)| x == y))
}

/// Arithmetic on two decimals, as XPath computes it (also [`super::plan`]'s).
pub(super) fn decimal_arith(op: Arith, a: Decimal, b: Decimal) -> Result<Decimal, Error> {
    let v = match op {
        Arith::Add => a.checked_add(b),
        Arith::Sub => a.checked_sub(b),
        Arith::Mul => a.checked_mul(b),
        Arith::Div => {
            if b.is_zero() {
                return Err("a division by zero".into());
            }
            a.checked_div(b)
        }
        Arith::IDiv => {
            if b.is_zero() {
                return Err("a division by zero".into());
            }
            a.checked_div(b).map(|q| q.trunc())
        }
        Arith::Mod => {
            if b.is_zero() {
                return Err("a modulo by zero".into());
            }
            a.checked_rem(b)
        }
    };
    v.ok_or_else(|| "arithmetic past the range of a decimal".into())
}

/// `xs:decimal(a op b)` where an operand is an untyped value, as the evaluator computes
/// it: in doubles ([`double_arith`]), then the double's exact value; `None` for NaN,
/// an infinity or an error ([`super::plan`]).
pub(super) fn double_arith_decimal(op: Arith, a: Double, b: Double) -> Option<Decimal> {
    match double_arith(op, a, b).ok()? {
        Item::Double(x) => x.decimal(),
        Item::Num(d) => d,
        _ => None,
    }
}

/// An untyped value as a number in arithmetic: its double, NaN when it is none.
pub(super) fn untyped_double(text: &str) -> Double {
    Double::parse(text).unwrap_or(Double::NaN)
}

/// Arithmetic where an operand is a double (an untyped value is one): computed in
/// doubles ([`Double`]); `idiv` gives an integer.
fn double_arith(op: Arith, a: Double, b: Double) -> Result<Item, Error> {
    Ok(Item::Double(match op {
        Arith::Add => a.add(b),
        Arith::Sub => a.sub(b),
        Arith::Mul => a.mul(b),
        Arith::Div => a.div(b),
        Arith::Mod => a.rem(b),
        Arith::IDiv => {
            if a.is_nan() || b.is_nan() || matches!(a, Double::Inf(_)) {
                return Err("an integer division of NaN or an infinity (FOAR0002)".into());
            }
            if !b.truthy() {
                return Err("a division by zero".into());
            }
            let q = a
                .div(b)
                .decimal()
                .ok_or("an integer division past the range")?;
            return Ok(Item::Num(Some(q.trunc())));
        }
    }))
}

/// XPath's `substring`: characters from `round(start)` for `round(len)` (1-based).
fn substring(text: &str, start: Option<Decimal>, len: Option<Option<Decimal>>) -> String {
    let Some(start) = start.and_then(crate::en16931::xpath::round) else {
        return String::new();
    };
    let end = match len {
        None => None,
        Some(None) => return String::new(),
        Some(Some(l)) => match crate::en16931::xpath::round(l).and_then(|l| start.checked_add(l)) {
            Some(e) => Some(e),
            None => return String::new(),
        },
    };
    text.chars()
        .enumerate()
        .filter(|(i, _)| {
            let p = Decimal::from(*i + 1);
            p >= start && end.is_none_or(|e| p < e)
        })
        .map(|(_, c)| c)
        .collect()
}

/// An XPath regular expression, compiled once a process: the last [`MAX_PATTERNS`]
/// patterns compiled are kept (a pattern that does not compile is compiled again).
/// A compiled pattern is shared with its matching caches (a clone of a
/// [`regex::Regex`] would build its caches again at its first match).
pub(super) fn regex(pattern: &str) -> Result<std::sync::Arc<regex::Regex>, Error> {
    type Kept = Vec<(String, std::sync::Arc<regex::Regex>)>;
    static KEPT: std::sync::Mutex<Kept> = std::sync::Mutex::new(Vec::new());
    let mut kept = KEPT
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, re)) = kept.iter().find(|(p, _)| p == pattern) {
        return Ok(std::sync::Arc::clone(re));
    }
    let re = regex::RegexBuilder::new(pattern)
        .size_limit(1 << 20)
        .build()
        .map_err(|e| format!("the pattern {pattern:?}: {e}"))?;
    let re = std::sync::Arc::new(re);
    if kept.len() >= MAX_PATTERNS {
        kept.remove(0);
    }
    kept.push((pattern.to_owned(), std::sync::Arc::clone(&re)));
    Ok(re)
}
