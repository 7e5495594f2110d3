//! Every assert of the official artefacts over a document, as the compiled Schematron
//! stylesheets apply them (`crate::en16931::artefacts`, generated from the kit): the CEN
//! layer on every document, then the Peppol layer (the self-billing one when
//! `cbc:CustomizationID` names selfbilling). Each layer evaluates its global variables
//! once; each of its patterns walks the elements in document order, and on each the one
//! rule of the pattern with the highest priority whose context matches it fires: its
//! variables are bound, then every assert of the rule is tested there. A failed assert
//! is a finding: the rule id, its flag, the artefact's text, and where the context
//! element stands. The layer's own `xsl:function`s (`u:gln`, `u:checkCF`, …) are
//! compiled with it from the artefacts' data and evaluated as XSLT evaluates them.
//!
//! Most asserts, contexts and rule variables are also lowered, when a layer is
//! compiled, to a typed plan walked in place (child steps by the numbers of their
//! names, strings borrowed from the document, no sequence built): 963 of the CEN
//! layer's 979 asserts. The XPath evaluator answers wherever a plan does not decide
//! (a function argument of two nodes, a number that is not a short decimal) and is the
//! reference: [`check_plans`] runs both on a document and lists every answer that
//! differs (none, on CEN's unit tests, the examples, and under fuzzing).
//!
//! An assert whose evaluation fails (a cast the document's text does not allow, a
//! function not implemented here) is not a finding; it is listed in
//! [`Report::unevaluated`], with the reason. A context is matched as XSLT matches a
//! pattern: an error while matching one element (`normalize-space()` of two
//! `cbc:ID`s) is a non-match of that element alone, and the rule fires at the others.
//!
//! An assert that reads of its element only the name and attributes (and nothing else
//! of the document but paths from the root: `xpath::parse::focus_reads`), in a rule without
//! variables of its own, answers alike at every element without children of the same
//! name and attributes: it is evaluated once per name and attributes in a pattern and
//! its outcome reused (the currency and code-list rules on every amount and quantity:
//! `@currencyID = $documentCurrencyCode`, `some $code in $ISO4217 satisfies …`).

use super::dom::{Dom, NodeId};
use super::xpath::eval::{static_name, Env, Function, Item, Seq};
use super::xpath::parse::{
    any, children_mut, focus_reads, parse, reads_outside, Axis, Expr, Step, Test,
};
use super::xpath::plan::{Num, Plan, Select};
use crate::en16931::artefacts::{Flag, Layer, ASSERTS, FUNCTIONS, VARIABLES};
use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

/// A rule the document breaks, where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The rule id (`BR-CO-15`).
    pub rule: &'static str,
    /// Whether the network would refuse the document (`fatal`) or only warns.
    pub fatal: bool,
    /// The artefact's text.
    pub text: &'static str,
    /// Where the rule's context element stands, as the official validator writes it.
    pub location: String,
}

/// What the rules say of a document.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Every failed assert, layer by layer, in the artefacts' order of patterns and
    /// document order.
    pub findings: Vec<Finding>,
    /// The asserts that could not be evaluated: rule id, location and why.
    pub unevaluated: Vec<(&'static str, String, String)>,
}

/// One rule of a pattern: its context, its variables and its asserts (indexes into
/// `ASSERTS`).
struct Rule {
    context: Result<Expr, String>,
    /// The context's plan, if it has one ([`Select`]).
    select: Option<Select>,
    variables: Vec<(&'static str, Result<Expr, String>)>,
    /// Each variable's plan, if its value is a planned number ([`Num`]).
    numbers: Vec<Option<Num>>,
    asserts: Vec<RuleAssert>,
}

/// An assert of a rule: its index in `ASSERTS`, its test, whether its outcome is kept
/// by what it reads (its element's name and attributes only: [`focus_reads`]), and
/// its test's plan if it has one ([`Plan`]: evaluated first; the evaluator answers
/// where the plan does not).
struct RuleAssert {
    index: usize,
    test: Result<Expr, String>,
    kept: bool,
    plan: Option<Plan>,
}

/// A pattern: its rules, by priority, highest first.
struct Pattern {
    rules: Vec<Rule>,
}

/// A layer, compiled once.
struct Compiled {
    layer: Layer,
    globals: Vec<(&'static str, Result<Expr, String>)>,
    /// The stylesheet's `xsl:function`s, which its asserts call.
    functions: Vec<Function>,
    patterns: Vec<Pattern>,
    /// The paths [`share`] marked, by number, each with its plan where it has one.
    shared: Vec<(Expr, Option<Select>)>,
    /// The values of the globals that read no document (the code lists, tokenized
    /// from the artefacts' text), computed when the layer is compiled ([`fold`]) and
    /// shared by every document.
    constants: Vec<Option<Arc<Seq>>>,
}

/// An XSLT match pattern as an expression that selects the nodes it matches from the
/// document: each branch of a union that is not rooted is searched at any depth.
fn match_expr(context: &str) -> String {
    split_union(context)
        .iter()
        .map(|b| {
            let b = b.trim();
            if b.starts_with('/') || rooted_group(b) {
                b.to_owned()
            } else {
                format!("//{b}")
            }
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

/// Whether a branch is a parenthesized union of rooted paths with predicates after it,
/// `(/a | /b)[p]`: it selects from the root already, so it is not searched at any depth
/// (which would evaluate it once per node of the document).
fn rooted_group(branch: &str) -> bool {
    let Some(inner) = branch.strip_prefix('(') else {
        return false;
    };
    let mut depth = 1i32;
    let mut quote: Option<char> = None;
    for (i, c) in inner.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '\'' | '"') => quote = Some(c),
            (None, '(' | '[') => depth += 1,
            (None, ')' | ']') => {
                depth -= 1;
                if depth == 0 {
                    let rest = inner.get(i + 1..).unwrap_or("").trim_start();
                    let group = inner.get(..i).unwrap_or("");
                    return (rest.is_empty() || rest.starts_with('['))
                        && split_union(group).iter().all(|g| g.trim().starts_with('/'));
                }
            }
            _ => {}
        }
    }
    false
}

/// The branches of a top-level `|` (not inside brackets, parentheses or strings).
fn split_union(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut cur = String::new();
    for c in text.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '\'' | '"') => quote = Some(c),
            (None, '[' | '(') => depth += 1,
            (None, ']' | ')') => depth -= 1,
            (None, '|') if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    out.push(cur);
    out
}

fn compile(layer: Layer) -> Compiled {
    let mut patterns: Vec<(&str, Vec<(u16, Rule)>)> = Vec::new();
    for (i, a) in ASSERTS.iter().enumerate().filter(|(_, a)| a.layer == layer) {
        if patterns.last().is_none_or(|(p, _)| *p != a.pattern) {
            patterns.push((a.pattern, Vec::new()));
        }
        let Some((_, rules)) = patterns.last_mut() else {
            continue;
        };
        if rules.last().is_none_or(|(p, _)| *p != a.priority) {
            let variables = VARIABLES
                .iter()
                .filter(|v| v.layer == layer && v.rule == Some((a.pattern, a.priority)))
                .map(|v| (static_name(v.name), parse(v.value)))
                .collect();
            rules.push((
                a.priority,
                Rule {
                    context: parse(&match_expr(a.context)),
                    select: None,
                    variables,
                    numbers: Vec::new(),
                    asserts: Vec::new(),
                },
            ));
        }
        if let Some((_, rule)) = rules.last_mut() {
            rule.asserts.push(RuleAssert {
                index: i,
                test: parse(a.test),
                kept: false,
                plan: None,
            });
        }
    }
    for (_, rules) in &mut patterns {
        for (_, rule) in rules.iter_mut() {
            let plain = rule.variables.is_empty();
            for RuleAssert { test: e, kept, .. } in &mut rule.asserts {
                // an assert that reads only its element's name and attributes:
                // the code-list and currency rules on every amount
                // (`@currencyID = $documentCurrencyCode`,
                // `some $code in $ISO4217 satisfies …`); without variables of the rule
                // its variables are globals (the same at every element) or its own
                *kept = plain && e.as_ref().is_ok_and(|e| focus_reads(e).is_some());
            }
        }
    }
    let globals = VARIABLES
        .iter()
        .filter(|v| v.layer == layer && v.rule.is_none())
        .map(|v| (static_name(v.name), parse(v.value)))
        .collect();
    let mut compiled = Compiled {
        layer,
        globals,
        constants: Vec::new(),
        shared: Vec::new(),
        functions: FUNCTIONS
            .iter()
            .filter(|f| f.layer == layer)
            .map(Function::compile)
            .collect(),
        patterns: patterns
            .into_iter()
            .map(|(_, mut rules)| {
                rules.sort_by_key(|r| std::cmp::Reverse(r.0));
                Pattern {
                    rules: rules.into_iter().map(|(_, r)| r).collect(),
                }
            })
            .collect(),
    };
    fold(&mut compiled);
    share(&mut compiled);
    // planned once the shared paths are marked: a plan reads their values
    plan(&mut compiled);
    compiled
}

/// The plans of a layer's contexts, rule variables and asserts ([`Select`], [`Num`],
/// [`Plan`]), where they have one.
fn plan(c: &mut Compiled) {
    for rule in c.patterns.iter_mut().flat_map(|p| p.rules.iter_mut()) {
        rule.select = rule.context.as_ref().ok().and_then(Select::of);
        rule.numbers = rule
            .variables
            .iter()
            .map(|(_, e)| e.as_ref().ok().and_then(Num::of))
            .collect();
        for a in &mut rule.asserts {
            a.plan = a
                .test
                .as_ref()
                .ok()
                .and_then(|t| Plan::of(&written_out(t, &c.functions)));
        }
    }
}

/// An assert's test with its calls of the stylesheet's functions written out where
/// [`Function::inlined`] can (`u:slack(…)`), for its plan: the evaluator calls them.
fn written_out(e: &Expr, functions: &[Function]) -> Expr {
    fn inline(e: &mut Expr, functions: &[Function]) {
        if let Expr::Call(name, args) = &*e {
            if let Some(body) = functions.iter().find_map(|f| f.inlined(name, args)) {
                *e = body;
                return;
            }
        }
        for child in children_mut(e) {
            inline(child, functions);
        }
    }
    let mut out = e.clone();
    inline(&mut out, functions);
    out
}

/// Every expression of a layer (globals, contexts, rule variables, asserts).
fn expressions(c: &mut Compiled) -> Vec<&mut Expr> {
    let mut out: Vec<&mut Expr> = c
        .globals
        .iter_mut()
        .filter_map(|(_, e)| e.as_mut().ok())
        .collect();
    for rule in c.patterns.iter_mut().flat_map(|p| p.rules.iter_mut()) {
        out.extend(rule.context.as_mut().ok());
        out.extend(
            rule.variables
                .iter_mut()
                .filter_map(|(_, e)| e.as_mut().ok()),
        );
        out.extend(rule.asserts.iter_mut().filter_map(|a| a.test.as_mut().ok()));
    }
    out
}

/// Marks as [`Expr::Shared`] the longest start of each path from the root that reads
/// no variable and that the layer's expressions read more than once
/// (`//cac:ClassifiedTaxCategory[cac:TaxScheme/…='VAT']` starts the tests of every VAT
/// category): evaluated once a document, its value is then reused. A start is never
/// cut right after `//` (that would keep every element of the document).
fn share(c: &mut Compiled) {
    let mut seen = Starts::default();
    for e in expressions(c) {
        count_root_paths(e, &mut seen);
    }
    let mut shared = Starts::default();
    for (e, n) in seen.list {
        if n > 1 {
            shared.add(e, n);
        }
    }
    if shared.list.is_empty() {
        return;
    }
    let marked = nested(&shared);
    for e in expressions(c) {
        mark_root_paths(e, &shared, &marked);
    }
    c.shared = marked
        .into_iter()
        .map(|e| {
            let planned = Select::of(&e);
            (e, planned)
        })
        .collect();
}

/// Each shared path as [`Expr::Shared`], its value found from the longest shorter
/// shared path it starts with, if any (`//cac:ClassifiedTaxCategory[…='VAT']` is then
/// filtered once a document, not again for each VAT category that follows it).
fn nested(shared: &Starts) -> Vec<Expr> {
    let starts = &shared.list;
    let steps_of = |i: usize| {
        starts
            .get(i)
            .and_then(|(e, _)| root_steps(e))
            .map_or(0, <[Step]>::len)
    };
    let mut order: Vec<usize> = (0..starts.len()).collect();
    order.sort_by_key(|&i| steps_of(i));
    let mut marked: Vec<Option<Expr>> = vec![None; starts.len()];
    for i in order {
        let Some((e, _)) = starts.get(i) else {
            continue;
        };
        let steps = root_steps(e).unwrap_or(&[]);
        let shorter = longest_shared(steps, steps.len().saturating_sub(1), shared)
            .and_then(|(k, id)| Some((k, marked.get(id)?.clone()?)));
        let inner = match shorter {
            Some((k, start)) => Expr::Path(Box::new(start), steps.get(k..).unwrap_or(&[]).to_vec()),
            None => e.clone(),
        };
        let id = u32::try_from(i).unwrap_or(u32::MAX);
        if let Some(slot) = marked.get_mut(i) {
            *slot = Some(Expr::Shared(id, Box::new(inner)));
        }
    }
    marked
        .into_iter()
        .map(|m| m.unwrap_or(Expr::Root))
        .collect()
}

/// What reads nothing but literals, computed once when the layer is compiled, in an
/// evaluation of its own over an empty document:
/// - each call of literals (`tokenize('71 80 …', '\s')`, `concat('a', 'b')`) is
///   replaced by its value written as literals (PEPPOL-EN16931-P0100 split its code
///   list by a pattern at each document); a call whose value has no literal form (a
///   double, a date, NaN) or that fails is kept, and the evaluator computes it (or its
///   error) as before;
/// - each global that reads no document gets its value ([`Compiled::constants`]); one
///   that fails is evaluated with each document, as the others.
fn fold(c: &mut Compiled) {
    let Ok(dom) = Dom::read(b"<folding/>") else {
        return;
    };
    let functions = std::mem::take(&mut c.functions);
    let mut env = Env::new(&dom, namespace, FUEL, &functions);
    for e in expressions(c) {
        fold_calls(e, &mut env);
    }
    c.constants = c
        .globals
        .iter()
        .map(|(_, e)| match e {
            Ok(e) if constant(e) => env.eval_at(e, Item::Doc).ok().map(Arc::new),
            _ => None,
        })
        .collect();
    c.functions = functions;
}

fn fold_calls(e: &mut Expr, env: &mut Env<'_>) {
    if matches!(e, Expr::Call(_, args) if !args.is_empty()) && constant(e) {
        if let Some(literal) = env.eval_at(e, Item::Doc).ok().and_then(|v| literals(&v)) {
            *e = literal;
            return;
        }
    }
    for child in children_mut(e) {
        fold_calls(child, env);
    }
}

/// A value written as literals (one literal, or a sequence of them), if each item has
/// a literal form.
fn literals(value: &Seq) -> Option<Expr> {
    let mut out = Vec::with_capacity(value.len());
    for item in value {
        out.push(match item {
            Item::Str(s) => Expr::Str(s.clone()),
            Item::Num(Some(d)) => Expr::Num(*d),
            Item::Bool(b) => Expr::Call(if *b { "true" } else { "false" }.to_owned(), Vec::new()),
            _ => return None,
        });
    }
    Some(match <[Expr; 1]>::try_from(out) {
        Ok([one]) => one,
        Err(many) => Expr::Seq(many),
    })
}

/// Whether an expression reads nothing but literals: no document, no focus, no
/// variable (its value is the same for every document).
fn constant(e: &Expr) -> bool {
    !any(e, &mut |x| match x {
        Expr::Path(..)
        | Expr::Root
        | Expr::Context
        | Expr::Var(_)
        | Expr::Shared(..)
        | Expr::Filter(..) => true,
        // a function without argument may read the focus (`string()`, `position()`)
        Expr::Call(name, args) if args.is_empty() => !matches!(name.as_str(), "true" | "false"),
        Expr::Call(name, _) => name == "current",
        _ => false,
    })
}

/// The steps of a path from the root that reads nothing else.
fn root_steps(e: &Expr) -> Option<&[Step]> {
    match e {
        Expr::Path(start, steps) if matches!(**start, Expr::Root) && !reads_outside(e) => {
            Some(steps)
        }
        _ => None,
    }
}

/// The lengths at which a path's start may be kept: after a step that is not `//`.
fn cuts(steps: &[Step]) -> impl Iterator<Item = usize> + '_ {
    (1..=steps.len()).filter(|&k| {
        !matches!(
            steps.get(k - 1),
            Some(Step::Axis(Axis::DescendantOrSelf, Test::Node, p)) if p.is_empty()
        )
    })
}

/// Starts of paths from the root (`/`, then steps), each with a count, in the order
/// first met, found by a key of their steps' axes, names and numbers of predicates
/// ([`steps_key`]) and then compared whole among the few of that key. Found by
/// comparing each with them all, they were 37 M of the 124 M instructions of compiling
/// the layers (callgrind, the first check of a process, issue 30).
#[derive(Default)]
struct Starts {
    list: Vec<(Expr, usize)>,
    by_key: std::collections::HashMap<u64, Vec<usize>>,
}

impl Starts {
    /// The index of the start whose steps are `steps`.
    fn find(&self, steps: &[Step]) -> Option<usize> {
        self.by_key.get(&steps_key(steps))?.iter().copied().find(
            |&i| matches!(self.list.get(i), Some((Expr::Path(_, s), _)) if s.as_slice() == steps),
        )
    }

    /// Counts `steps` as a start once more.
    fn count(&mut self, steps: &[Step]) {
        match self.find(steps).and_then(|i| self.list.get_mut(i)) {
            Some((_, n)) => *n += 1,
            None => self.add(Expr::Path(Box::new(Expr::Root), steps.to_vec()), 1),
        }
    }

    /// A start met `n` times: `e` is `/` then its steps.
    fn add(&mut self, e: Expr, n: usize) {
        let key = match &e {
            Expr::Path(_, steps) => steps_key(steps),
            _ => 0,
        };
        self.by_key.entry(key).or_default().push(self.list.len());
        self.list.push((e, n));
    }
}

/// A key of steps: their number, and each one's kind, axis, test (a name by its
/// number) and number of predicates. Equal steps have equal keys.
fn steps_key(steps: &[Step]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    steps.len().hash(&mut h);
    for step in steps {
        match step {
            Step::Axis(axis, test, preds) => {
                std::mem::discriminant(axis).hash(&mut h);
                std::mem::discriminant(test).hash(&mut h);
                if let Test::Name(q) = test {
                    q.id.hash(&mut h);
                }
                preds.len().hash(&mut h);
            }
            Step::Expr(_) => u8::MAX.hash(&mut h),
        }
    }
    h.finish()
}

fn count_root_paths(e: &mut Expr, seen: &mut Starts) {
    if let Some(steps) = root_steps(e) {
        for k in cuts(steps) {
            seen.count(steps.get(..k).unwrap_or(&[]));
        }
        return;
    }
    for child in children_mut(e) {
        count_root_paths(child, seen);
    }
}

/// The longest start of a path from the root, at most `most` steps, that is shared:
/// its length and its number.
fn longest_shared(steps: &[Step], most: usize, shared: &Starts) -> Option<(usize, usize)> {
    cuts(steps)
        .filter(|&k| k <= most)
        .filter_map(|k| shared.find(steps.get(..k)?).map(|id| (k, id)))
        .last()
}

fn mark_root_paths(e: &mut Expr, shared: &Starts, marked: &[Expr]) {
    if let Some(steps) = root_steps(e) {
        let longest = longest_shared(steps, steps.len(), shared);
        let start = longest.and_then(|(k, id)| Some((k, marked.get(id)?.clone())));
        if let (Some((k, shared)), Expr::Path(_, steps)) = (start, &mut *e) {
            let rest = steps.split_off(k);
            *e = if rest.is_empty() {
                shared
            } else {
                Expr::Path(Box::new(shared), rest)
            };
        }
        return;
    }
    for child in children_mut(e) {
        mark_root_paths(child, shared, marked);
    }
}

fn compiled(layer: Layer) -> &'static Compiled {
    static CEN: OnceLock<Compiled> = OnceLock::new();
    static PEPPOL: OnceLock<Compiled> = OnceLock::new();
    static PEPPOL_SB: OnceLock<Compiled> = OnceLock::new();
    let cell = match layer {
        Layer::Cen => &CEN,
        Layer::Peppol => &PEPPOL,
        Layer::PeppolSb => &PEPPOL_SB,
    };
    cell.get_or_init(|| compile(layer))
}

/// The namespaces of the stylesheets' prefixes.
pub(crate) fn namespace(prefix: &str) -> Option<&'static str> {
    Some(match prefix {
        "cac" => "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
        "cbc" => "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
        "cn" | "ubl-creditnote" => "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2",
        "ubl" | "ubl-invoice" => "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2",
        "ext" => "urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2",
        "qdt" => "urn:oasis:names:specification:ubl:schema:xsd:QualifiedDataTypes-2",
        "udt" => "urn:oasis:names:specification:ubl:schema:xsd:UnqualifiedDataTypes-2",
        _ => return None,
    })
}

/// How much evaluation one document may take, in steps (a bound against hostile input;
/// the 500-line document takes far fewer).
const FUEL: u64 = 200_000_000;

/// Every rule of the artefacts over a document.
pub fn check(dom: &Dom) -> Report {
    run(dom, &mut Plans::default())
}

/// The plans (the typed lowering of asserts, contexts and variables the engine walks in
/// place) checked against the evaluator on a document: each assert that
/// a plan decides at an element is evaluated there again by the evaluator.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plans {
    /// Whether to check (off: the plans answer alone, as in [`check`]).
    pub verify: bool,
    /// How many answers of plans were checked.
    pub compared: usize,
    /// Each answer that differs: rule id, location, the plan's and the evaluator's.
    pub differ: Vec<String>,
}

/// [`check`], with each plan's answer checked against the evaluator's (for tests and
/// fuzzing: every assert a plan decides is then evaluated twice).
pub fn check_plans(dom: &Dom) -> (Report, Plans) {
    let mut plans = Plans {
        verify: true,
        ..Plans::default()
    };
    let report = run(dom, &mut plans);
    (report, plans)
}

fn run(dom: &Dom, plans: &mut Plans) -> Report {
    let mut report = Report::default();
    let customization = dom
        .children(dom.root())
        .find(|&c| dom.is(c, namespace("cbc").unwrap_or(""), "CustomizationID"))
        .map(|c| dom.string_value(c).trim().to_owned())
        .unwrap_or_default();
    let peppol = if customization.contains("selfbilling") {
        Layer::PeppolSb
    } else {
        Layer::Peppol
    };
    let mut env = Env::new(dom, namespace, FUEL, &[]);
    for layer in [Layer::Cen, peppol] {
        run_layer(compiled(layer), &mut env, &mut report, plans);
    }
    report
}

/// No rule of the pattern fires at the element (a pattern has far fewer rules).
const NO_RULE: u16 = u16::MAX;

fn run_layer(c: &'static Compiled, env: &mut Env<'_>, report: &mut Report, plans: &mut Plans) {
    env.vars.clear();
    env.forget_shared();
    env.functions = &c.functions;
    for (i, (name, e)) in c.globals.iter().enumerate() {
        let value = match (c.constants.get(i), e) {
            (Some(Some(value)), _) => Arc::clone(value),
            (_, Ok(e)) => Arc::new(env.eval_at(e, Item::Doc).unwrap_or_default()),
            (_, Err(_)) => Arc::new(Vec::new()),
        };
        env.vars.push((Cow::Borrowed(*name), value));
    }
    let _ = c.layer;
    let dom: &Dom = env.dom;
    let nodes = dom.len();
    let mut memo = Memo::default();
    // The rule of each element in the pattern at hand: the first (highest priority)
    // whose context holds it (`NO_RULE`: none; two bytes an element, not the four of an
    // `Option<u16>`), and the elements given one, up to a sixteenth of the document's
    // (a list of them all would add 4 bytes an element at the peak). Only those are
    // visited, then set back to `NO_RULE`: scanning every element for each of the
    // layer's patterns was 0.9 M of 66.7 M instructions a check on the 500-line
    // document. A pattern whose rules hold more elements scans them all, as before.
    let mut rule_of: Vec<u16> = vec![NO_RULE; nodes];
    let room = nodes / 16;
    let mut ruled: Vec<NodeId> = Vec::new();
    let mut outcomes = Vec::new();
    for pattern in &c.patterns {
        ruled.clear();
        let mut all = false;
        for (r, rule) in pattern.rules.iter().enumerate() {
            let Ok(context) = &rule.context else {
                continue;
            };
            let Some(matched) = select(rule, context, env, plans) else {
                continue;
            };
            let r = u16::try_from(r).unwrap_or(NO_RULE);
            for n in matched {
                if let Some(slot) = rule_of.get_mut(n as usize) {
                    if *slot == NO_RULE && r != NO_RULE {
                        *slot = r;
                        if ruled.len() < room {
                            ruled.push(n);
                        } else {
                            all = true;
                        }
                    }
                }
            }
        }
        // in document order, as the stylesheets visit the elements
        let visit: &mut dyn Iterator<Item = NodeId> = if all {
            &mut (0..NodeId::try_from(nodes).unwrap_or(NodeId::MAX))
        } else {
            ruled.sort_unstable();
            &mut ruled.iter().copied()
        };
        for node in visit {
            let Some(slot) = rule_of.get_mut(node as usize) else {
                continue;
            };
            let r = std::mem::replace(slot, NO_RULE);
            let Some(rule) = pattern.rules.get(usize::from(r)) else {
                continue;
            };
            evaluate(rule, node, env, &mut memo, &mut outcomes, plans);
            record(rule, &outcomes, node, dom, report);
        }
    }
    if plans.verify {
        verify_shared(c, env, plans);
    }
}

/// Each shared path's value, as its plan finds it, against the evaluator's: computed
/// afresh, the shared paths it starts with included (this document's kept values may
/// be the plans').
fn verify_shared(c: &Compiled, env: &mut Env<'_>, plans: &mut Plans) {
    for (e, select) in &c.shared {
        let Some(select) = select else {
            continue;
        };
        let Some(planned) = select.value(env) else {
            continue;
        };
        plans.compared += 1;
        let mut fresh = Env::new(env.dom, namespace, FUEL, &c.functions);
        let evaluated = fresh.eval_at(e, Item::Doc);
        if evaluated.as_ref() != Ok(&planned) {
            plans.differ.push(format!(
                "shared {e:?}: planned {} items, evaluated {:?}",
                planned.len(),
                evaluated.map(|v| v.len())
            ));
        }
    }
}

/// The elements a rule's context selects (an element may come twice), by its plan
/// where it decides, else by the evaluator; a context that fails as a whole is matched
/// element by element ([`matched_each`]); `None` when even that cannot be done (its
/// rule then fires nowhere).
fn select(
    rule: &Rule,
    context: &Expr,
    env: &mut Env<'_>,
    plans: &mut Plans,
) -> Option<Vec<NodeId>> {
    let planned = rule.select.as_ref().and_then(|s| s.elements(env));
    if !plans.verify && planned.is_some() {
        return planned;
    }
    let evaluated: Option<Vec<NodeId>> = env
        .eval_at(context, Item::Doc)
        .ok()
        .map(|items| {
            items
                .into_iter()
                .filter_map(|i| match i {
                    Item::Node(n) => Some(n),
                    _ => None,
                })
                .collect()
        })
        .or_else(|| matched_each(context, env));
    if let Some(planned) = planned {
        plans.compared += 1;
        let set = |v: &[NodeId]| {
            let mut v = v.to_vec();
            v.sort_unstable();
            v.dedup();
            v
        };
        if evaluated.as_deref().map(set) != Some(set(&planned)) {
            plans.differ.push(format!(
                "context {context:?}: planned {} elements, evaluated {:?}",
                planned.len(),
                evaluated.as_ref().map(Vec::len)
            ));
        }
        return Some(planned);
    }
    evaluated
}

/// The elements a context matches when evaluating it whole fails, as XSLT matches a
/// pattern: a dynamic error while matching one element is a non-match of that element
/// alone (XSLT 3.0 §5.5.4), the others still match. Seen in the differential corpus
/// (session 26): a `cac:TaxScheme` with two `cbc:ID`s made
/// `cac:PartyTaxScheme[normalize-space(cac:TaxScheme/cbc:ID) = 'VAT']/cbc:CompanyID[…]`
/// fail as a whole, and PEPPOL-COMMON-R056-2 fired nowhere where the official validator
/// found it at another party's VAT number. Each branch of the union is walked step by
/// step from the root, each predicate tested at each element; `None` (the rule fires
/// nowhere, as before) for a branch of another shape or a predicate that reads or
/// selects by position.
#[cold]
#[inline(never)]
fn matched_each(context: &Expr, env: &mut Env<'_>) -> Option<Vec<NodeId>> {
    fn branches<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
        match e {
            Expr::Union(a, b) => {
                branches(a, out);
                branches(b, out);
            }
            e => out.push(e),
        }
    }
    let mut all = Vec::new();
    branches(context, &mut all);
    let mut out = Vec::new();
    for branch in all {
        let Expr::Path(start, steps) = branch else {
            return None;
        };
        if !matches!(**start, Expr::Root) {
            return None;
        }
        let mut here = vec![Item::Doc];
        let mut rest = steps.as_slice();
        while let Some((step, after)) = rest.split_first() {
            let Step::Axis(axis, test, preds) = step else {
                return None;
            };
            if !preds.iter().all(|p| env.plain(p)) {
                return None;
            }
            // `//name` as `descendant::name` (each node reached once)
            let (one, after) = match (axis, test, preds.is_empty(), after.split_first()) {
                (
                    Axis::DescendantOrSelf,
                    Test::Node,
                    true,
                    Some((Step::Axis(Axis::Child, t, p), a)),
                ) => {
                    if !p.iter().all(|x| env.plain(x)) {
                        return None;
                    }
                    (
                        Step::Axis(Axis::Descendant, t.clone(), Vec::new()),
                        (a, p.as_slice()),
                    )
                }
                _ => (
                    Step::Axis(*axis, test.clone(), Vec::new()),
                    (after, preds.as_slice()),
                ),
            };
            let (after, preds) = after;
            let walk = Expr::Path(Box::new(Expr::Context), vec![one]);
            let mut next: Vec<NodeId> = Vec::new();
            for item in here {
                // an element the step cannot be taken from is not matched
                let Ok(reached) = env.eval_at(&walk, item) else {
                    continue;
                };
                for r in reached {
                    // a context's rule fires at elements only
                    let Item::Node(n) = r else {
                        continue;
                    };
                    if preds
                        .iter()
                        .all(|p| env.test_at(p, Item::Node(n)) == Ok(true))
                    {
                        next.push(n);
                    }
                }
            }
            next.sort_unstable();
            next.dedup();
            here = next.into_iter().map(Item::Node).collect();
            rest = after;
        }
        out.extend(here.into_iter().filter_map(|i| match i {
            Item::Node(n) => Some(n),
            _ => None,
        }));
    }
    Some(out)
}

/// An assert's outcome: held, failed, or could not be evaluated (why).
type Outcome = Result<bool, String>;

/// What an assert kept by name and attributes reads of an element without children:
/// its name (namespace and local name numbers, one integer), the numbers of its
/// attributes' names (up to two; an element with more is evaluated each time) and their
/// values. Integers but for the values, compared in place ([`same`]): with the names as
/// text and each text compared by `memcmp`, finding the outcome of a currency rule
/// among the 14 names of the document's amounts cost 385 instructions an amount.
#[derive(Clone, Copy)]
struct Seen<'d> {
    name: u64,
    attrs: u64,
    values: [&'d str; 2],
}

impl<'d> Seen<'d> {
    fn of(dom: &'d Dom, node: NodeId) -> Seen<'d> {
        let (ns, local) = dom.key(node).unwrap_or((u32::MAX, u32::MAX));
        let mut attrs = dom.attribute_ids(node);
        let (a, b) = (attrs.next(), attrs.next());
        let id = |x: Option<(u32, &str)>| x.map_or(u32::MAX, |(n, _)| n);
        Seen {
            name: (u64::from(ns) << 32) | u64::from(local),
            attrs: (u64::from(id(a)) << 32) | u64::from(id(b)),
            values: [a.map_or("", |(_, v)| v), b.map_or("", |(_, v)| v)],
        }
    }

    fn is(&self, other: &Seen<'_>) -> bool {
        self.name == other.name
            && self.attrs == other.attrs
            && same(self.values[0], other.values[0])
            && same(self.values[1], other.values[1])
    }
}

/// Whether two short texts are equal, byte by byte in place (an attribute's value, a
/// code of three bytes: a call of `memcmp` for each cost more than the comparison).
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y)
}

/// The outcomes of the asserts kept by name and attributes, by assert: at most
/// [`MEMO_PER_ASSERT`] names and attributes each, found by comparing them (a few per
/// assert: the amounts' currencies, the quantities' units), without hashing texts of
/// the document.
#[derive(Default)]
struct Memo<'d> {
    by_assert: Vec<Vec<(Seen<'d>, Outcome)>>,
}

/// How many names and attributes [`Memo`] keeps for one assert; past them an element
/// is evaluated each time.
const MEMO_PER_ASSERT: usize = 32;

impl<'d> Memo<'d> {
    fn get(&self, assert: usize, seen: &Seen<'d>) -> Option<&Outcome> {
        let kept = self.by_assert.get(assert)?;
        kept.iter().find(|(s, _)| s.is(seen)).map(|(_, o)| o)
    }

    fn insert(&mut self, assert: usize, seen: Seen<'d>, outcome: Outcome) {
        if self.by_assert.len() <= assert {
            self.by_assert.resize_with(assert + 1, Vec::new);
        }
        if let Some(kept) = self.by_assert.get_mut(assert) {
            if kept.len() < MEMO_PER_ASSERT {
                kept.push((seen, outcome));
            }
        }
    }
}

/// The outcome of each assert of a rule at an element, its variables bound there. An
/// assert kept by name and attributes is evaluated once per name and attributes
/// (`memo`): on the 500-line document, the currency and code-list rules on its 25 000
/// amounts and quantities.
fn evaluate<'d>(
    rule: &Rule,
    node: NodeId,
    env: &mut Env<'d>,
    memo: &mut Memo<'d>,
    out: &mut Vec<Outcome>,
    plans: &mut Plans,
) {
    out.clear();
    let bound = env.vars.len();
    env.current = Item::Node(node);
    for (k, (name, e)) in rule.variables.iter().enumerate() {
        let planned = match rule.numbers.get(k) {
            Some(Some(n)) => n.value(env, node).map(|v| v.map(|d| Item::Num(Some(d)))),
            _ => None,
        };
        let planned = match planned {
            Some(v) if !plans.verify => {
                env.bind(Cow::Borrowed(*name), v);
                continue;
            }
            other => other,
        };
        let value: Vec<Item> = match (planned, e) {
            (Some(v), Ok(e)) if plans.verify => {
                let evaluated = env.eval_at(e, Item::Node(node)).unwrap_or_default();
                let v: Vec<Item> = v.into_iter().collect();
                plans.compared += 1;
                // the decimals' scales too: `{:?}` writes 1.50 and 1.5 apart
                if format!("{evaluated:?}") != format!("{v:?}") {
                    plans.differ.push(format!(
                        "${name} at {}: planned {v:?}, evaluated {evaluated:?}",
                        env.dom.location(node)
                    ));
                }
                v
            }
            (Some(v), _) => v.into_iter().collect(),
            (None, Ok(e)) => env.eval_at(e, Item::Node(node)).unwrap_or_default(),
            (None, Err(_)) => Vec::new(),
        };
        env.vars.push((Cow::Borrowed(*name), Arc::new(value)));
    }
    let dom: &'d Dom = env.dom;
    let leaf = dom.subtree(node).len() == 1 && dom.attribute_count(node) <= 2;
    // read once for the rule's asserts kept by name and attributes
    let mut seen: Option<Seen<'d>> = None;
    for RuleAssert {
        index: i,
        test,
        kept,
        plan,
    } in &rule.asserts
    {
        let key = (*kept && leaf).then(|| *seen.get_or_insert_with(|| Seen::of(dom, node)));
        if let Some(known) = key.as_ref().and_then(|k| memo.get(*i, k)) {
            out.push(known.clone());
            continue;
        }
        let planned = plan.as_ref().and_then(|p| p.test(env, node));
        let outcome = match (planned, test) {
            (Some(v), Ok(t)) if plans.verify => {
                let evaluated = env.test_at(t, Item::Node(node));
                plans.compared += 1;
                if evaluated != Ok(v) {
                    let id = ASSERTS.get(*i).map_or("", |a| a.id);
                    plans.differ.push(format!(
                        "{id} at {}: planned {v}, evaluated {evaluated:?}",
                        dom.location(node)
                    ));
                }
                Ok(v)
            }
            (Some(v), _) => Ok(v),
            (None, Ok(t)) => env.test_at(t, Item::Node(node)),
            (None, Err(e)) => Err(format!("the test does not parse: {e}")),
        };
        if let Some(key) = key {
            memo.insert(*i, key, outcome.clone());
        }
        out.push(outcome);
    }
    env.unbind(bound);
}

/// A rule's failed asserts at an element are findings, and the ones that could not be
/// evaluated are listed.
fn record(rule: &Rule, outcomes: &[Outcome], node: NodeId, dom: &Dom, report: &mut Report) {
    for (ra, outcome) in rule.asserts.iter().zip(outcomes) {
        let Some(a) = ASSERTS.get(ra.index) else {
            continue;
        };
        match outcome {
            Ok(true) => {}
            Ok(false) => report.findings.push(Finding {
                rule: a.id,
                fatal: a.flag == Flag::Fatal,
                text: a.text,
                location: dom.location(node),
            }),
            Err(why) => report
                .unevaluated
                .push((a.id, dom.location(node), why.clone())),
        }
    }
}

#[cfg(test)]
mod tests;
