//! The XPath 2.0 the artefacts' asserts are written in, parsed into [`Expr`]: paths with
//! axes and predicates, unions, comparisons (general and value), arithmetic, `if`,
//! `for`, `some`/`every`, `cast`/`castable`, variables and function calls. A text
//! outside that subset is an error, never a panic.

// A parser names its operands as XPath's grammar does.
#![allow(clippy::many_single_char_names)]

use rust_decimal::Decimal;

/// An axis of a path step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    Child,
    Descendant,
    DescendantOrSelf,
    Itself,
    Parent,
    Ancestor,
    AncestorOrSelf,
    PrecedingSibling,
    FollowingSibling,
    Preceding,
    Following,
    Attribute,
}

/// What a step selects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Test {
    /// A name: its prefix (if any, resolved later) and local name; `*` for any.
    Name(QName),
    /// `prefix:*`.
    AnyIn(String),
    /// `*`.
    Any,
    /// `node()`.
    Node,
    /// `text()`.
    Text,
}

/// The name of a name test, with its number: the same prefix and local name have the
/// same number in the whole process, so that the evaluator resolves a name against a
/// document once (its table is indexed by [`QName::id`]) and then tests an element by
/// two integers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QName {
    /// The prefix, if any (`*` for any namespace).
    pub prefix: Option<String>,
    pub local: String,
    pub id: u32,
}

impl QName {
    /// Found by hashing among the names seen before: a scan of them all, compared as
    /// text, was 12.5 M of the 124 M instructions of compiling the layers (callgrind,
    /// the first check of a process, issue 30).
    fn new(prefix: Option<String>, local: String) -> Self {
        type Names = std::collections::HashMap<(Option<String>, String), u32>;
        static NAMES: std::sync::Mutex<Option<Names>> = std::sync::Mutex::new(None);
        let mut names = NAMES
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let names = names.get_or_insert_with(Names::new);
        let key = (prefix, local);
        let id = if let Some(&id) = names.get(&key) {
            id
        } else {
            let id = u32::try_from(names.len()).unwrap_or(u32::MAX);
            names.insert(key.clone(), id);
            id
        };
        let (prefix, local) = key;
        QName { prefix, local, id }
    }
}

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// An arithmetic operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arith {
    Add,
    Sub,
    Mul,
    Div,
    IDiv,
    Mod,
}

/// A step of a path.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// `axis::test[pred]…`.
    Axis(Axis, Test, Vec<Expr>),
    /// Any other expression used as a step (`xs:decimal(…)`, `normalize-space(…)`).
    Expr(Expr),
}

/// An expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Str(String),
    Num(Decimal),
    Var(String),
    Context,
    /// `/`: the document.
    Root,
    /// `(a, b)`, and `()` for the empty sequence.
    Seq(Vec<Expr>),
    /// A primary with predicates.
    Filter(Box<Expr>, Vec<Expr>),
    /// A path: where it starts, then its steps.
    Path(Box<Expr>, Vec<Step>),
    Call(String, Vec<Expr>),
    Or(Box<Expr>, Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    /// A general (`=`) or value (`eq`) comparison: the bool says general.
    Compare(Cmp, bool, Box<Expr>, Box<Expr>),
    Arith(Arith, Box<Expr>, Box<Expr>),
    Neg(Box<Expr>),
    Union(Box<Expr>, Box<Expr>),
    Range(Box<Expr>, Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `some`/`every` (true: every) `$x in …, … satisfies …`.
    Quantified(bool, Vec<(String, Expr)>, Box<Expr>),
    For(Vec<(String, Expr)>, Box<Expr>),
    /// `castable as T?` (the bool: `?`).
    Castable(Box<Expr>, String, bool),
    Cast(Box<Expr>, String, bool),
    /// A path from the document root that reads no variable: the same value wherever
    /// it is evaluated in one document, so the evaluator keeps it once a document by
    /// its number (`engine` marks the ones several asserts share).
    Shared(u32, Box<Expr>),
}

/// A token.
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Name(String),
    Str(String),
    Num(Decimal),
    Var(String),
    Sym(&'static str),
}

const SYMS: [&str; 23] = [
    "//", "/", "::", "..", "!=", "<=", ">=", "(", ")", "[", "]", ",", "@", "|", "=", "<", ">", "+",
    "-", "*", ".", ":", "?",
];

fn lex(text: &str) -> Result<Vec<Tok>, String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'\'' || c == b'"' {
            let mut s = String::new();
            let mut j = i + 1;
            loop {
                match b.get(j) {
                    None => return Err("an unclosed string".into()),
                    Some(&q) if q == c => {
                        if b.get(j + 1) == Some(&c) {
                            s.push(c as char);
                            j += 2;
                            continue;
                        }
                        break;
                    }
                    Some(_) => {
                        let rest = text.get(j..).unwrap_or("");
                        let ch = rest.chars().next().unwrap_or('\u{fffd}');
                        s.push(ch);
                        j += ch.len_utf8();
                    }
                }
            }
            out.push(Tok::Str(s));
            i = j + 1;
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            let mut j = i;
            while b.get(j).is_some_and(|d| d.is_ascii_digit() || *d == b'.') {
                j += 1;
            }
            let t = text.get(i..j).unwrap_or("");
            let n: Decimal = t.parse().map_err(|e| format!("number {t}: {e}"))?;
            out.push(Tok::Num(n));
            i = j;
            continue;
        }
        if c == b'$' {
            let j = name_end(b, i + 1);
            out.push(Tok::Var(text.get(i + 1..j).unwrap_or("").to_owned()));
            i = j;
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let j = name_end(b, i);
            out.push(Tok::Name(text.get(i..j).unwrap_or("").to_owned()));
            i = j;
            continue;
        }
        let rest = text.get(i..).unwrap_or("");
        match SYMS.iter().find(|s| rest.starts_with(**s)) {
            Some(s) => {
                out.push(Tok::Sym(s));
                i += s.len();
            }
            None => {
                return Err(format!(
                    "unexpected {:?}",
                    rest.chars().next().unwrap_or(' ')
                ))
            }
        }
    }
    Ok(out)
}

/// The end of a name (letters, digits, `_`, `-`, `.`; a `:` joins a prefix to a local
/// name or `*` when no space follows).
fn name_end(b: &[u8], mut j: usize) -> usize {
    let part = |c: &u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.');
    while b.get(j).is_some_and(part) {
        j += 1;
    }
    if b.get(j) == Some(&b':') && b.get(j + 1) != Some(&b':') {
        if b.get(j + 1)
            .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
        {
            j += 1;
            while b.get(j).is_some_and(part) {
                j += 1;
            }
        } else if b.get(j + 1) == Some(&b'*') {
            j += 2;
        }
    }
    j
}

/// Parses an XPath expression.
pub fn parse(text: &str) -> Result<Expr, String> {
    let toks = lex(text)?;
    let mut p = Parser {
        toks,
        at: 0,
        depth: 0,
    };
    let e = p.expr()?;
    if p.at < p.toks.len() {
        return Err(format!("unexpected {:?}", p.toks.get(p.at)));
    }
    Ok(e)
}

struct Parser {
    toks: Vec<Tok>,
    at: usize,
    depth: usize,
}

/// How deep expressions may nest while parsing.
const MAX_NESTING: usize = 200;

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }

    fn peek_at(&self, k: usize) -> Option<&Tok> {
        self.toks.get(self.at + k)
    }

    fn sym(&mut self, s: &str) -> bool {
        if matches!(self.peek(), Some(Tok::Sym(x)) if *x == s) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn word(&mut self, w: &str) -> bool {
        if matches!(self.peek(), Some(Tok::Name(x)) if x == w) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, s: &str) -> Result<(), String> {
        if self.sym(s) {
            Ok(())
        } else {
            Err(format!("expected {s}, found {:?}", self.peek()))
        }
    }

    fn enter(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err("nested too deep".into());
        }
        Ok(())
    }

    fn expr(&mut self) -> Result<Expr, String> {
        self.enter()?;
        let first = self.single()?;
        let mut all = vec![first];
        while self.sym(",") {
            all.push(self.single()?);
        }
        self.depth -= 1;
        Ok(if all.len() == 1 {
            all.pop().unwrap_or(Expr::Seq(Vec::new()))
        } else {
            Expr::Seq(all)
        })
    }

    fn bindings(&mut self, keyword: &str) -> Result<Vec<(String, Expr)>, String> {
        let mut out = Vec::new();
        loop {
            let Some(Tok::Var(v)) = self.peek().cloned() else {
                return Err(format!("expected a variable after {keyword}"));
            };
            self.at += 1;
            if !self.word("in") {
                return Err("expected in".into());
            }
            out.push((v, self.single()?));
            if !self.sym(",") {
                return Ok(out);
            }
        }
    }

    fn single(&mut self) -> Result<Expr, String> {
        let next_is_var = matches!(self.peek_at(1), Some(Tok::Var(_)));
        if next_is_var && (self.word("some") || self.word("every")) {
            let every = matches!(self.toks.get(self.at - 1), Some(Tok::Name(w)) if w == "every");
            let b = self.bindings("some/every")?;
            if !self.word("satisfies") {
                return Err("expected satisfies".into());
            }
            return Ok(quantified(every, b, self.single()?));
        }
        if next_is_var && self.word("for") {
            let b = self.bindings("for")?;
            if !self.word("return") {
                return Err("expected return".into());
            }
            return Ok(Expr::For(b, Box::new(self.single()?)));
        }
        if matches!(self.peek(), Some(Tok::Name(w)) if w == "if")
            && matches!(self.peek_at(1), Some(Tok::Sym("(")))
        {
            self.at += 2;
            let c = self.expr()?;
            self.expect(")")?;
            if !self.word("then") {
                return Err("expected then".into());
            }
            let t = self.single()?;
            if !self.word("else") {
                return Err("expected else".into());
            }
            let e = self.single()?;
            return Ok(Expr::If(Box::new(c), Box::new(t), Box::new(e)));
        }
        self.or()
    }

    fn or(&mut self) -> Result<Expr, String> {
        let mut e = self.and()?;
        while self.word("or") {
            e = Expr::Or(Box::new(e), Box::new(self.and()?));
        }
        Ok(e)
    }

    fn and(&mut self) -> Result<Expr, String> {
        let mut e = self.comparison()?;
        while self.word("and") {
            e = Expr::And(Box::new(e), Box::new(self.comparison()?));
        }
        Ok(e)
    }

    fn comparison(&mut self) -> Result<Expr, String> {
        let left = self.range()?;
        let general = [
            ("=", Cmp::Eq),
            ("!=", Cmp::Ne),
            ("<=", Cmp::Le),
            (">=", Cmp::Ge),
            ("<", Cmp::Lt),
            (">", Cmp::Gt),
        ];
        for (s, op) in general {
            if self.sym(s) {
                return Ok(Expr::Compare(
                    op,
                    true,
                    Box::new(left),
                    Box::new(self.range()?),
                ));
            }
        }
        let value = [
            ("eq", Cmp::Eq),
            ("ne", Cmp::Ne),
            ("lt", Cmp::Lt),
            ("le", Cmp::Le),
            ("gt", Cmp::Gt),
            ("ge", Cmp::Ge),
        ];
        for (w, op) in value {
            if self.word(w) {
                return Ok(Expr::Compare(
                    op,
                    false,
                    Box::new(left),
                    Box::new(self.range()?),
                ));
            }
        }
        Ok(left)
    }

    fn range(&mut self) -> Result<Expr, String> {
        let left = self.additive()?;
        if self.word("to") {
            return Ok(Expr::Range(Box::new(left), Box::new(self.additive()?)));
        }
        Ok(left)
    }

    fn additive(&mut self) -> Result<Expr, String> {
        let mut e = self.multiplicative()?;
        loop {
            let op = if self.sym("+") {
                Arith::Add
            } else if self.sym("-") {
                Arith::Sub
            } else {
                return Ok(e);
            };
            e = Expr::Arith(op, Box::new(e), Box::new(self.multiplicative()?));
        }
    }

    fn multiplicative(&mut self) -> Result<Expr, String> {
        let mut e = self.union()?;
        loop {
            let op = if self.sym("*") {
                Arith::Mul
            } else if self.word("div") {
                Arith::Div
            } else if self.word("idiv") {
                Arith::IDiv
            } else if self.word("mod") {
                Arith::Mod
            } else {
                return Ok(e);
            };
            e = Expr::Arith(op, Box::new(e), Box::new(self.union()?));
        }
    }

    fn union(&mut self) -> Result<Expr, String> {
        let mut e = self.cast()?;
        while self.sym("|") || self.word("union") {
            e = Expr::Union(Box::new(e), Box::new(self.cast()?));
        }
        Ok(e)
    }

    fn cast(&mut self) -> Result<Expr, String> {
        let e = self.unary()?;
        let castable = matches!(self.peek(), Some(Tok::Name(w)) if w == "castable")
            && matches!(self.peek_at(1), Some(Tok::Name(w)) if w == "as");
        let cast = matches!(self.peek(), Some(Tok::Name(w)) if w == "cast")
            && matches!(self.peek_at(1), Some(Tok::Name(w)) if w == "as");
        if castable || cast {
            self.at += 2;
            let Some(Tok::Name(t)) = self.peek().cloned() else {
                return Err("expected a type".into());
            };
            self.at += 1;
            let optional = matches!(self.peek(), Some(Tok::Sym(s)) if *s == "?");
            let e = Box::new(e);
            return Ok(if castable {
                Expr::Castable(e, t, optional)
            } else {
                Expr::Cast(e, t, optional)
            });
        }
        Ok(e)
    }

    fn unary(&mut self) -> Result<Expr, String> {
        if self.sym("-") {
            return Ok(Expr::Neg(Box::new(self.unary()?)));
        }
        if self.sym("+") {
            return self.unary();
        }
        self.path()
    }

    fn path(&mut self) -> Result<Expr, String> {
        if self.sym("//") {
            let mut steps = vec![Step::Axis(Axis::DescendantOrSelf, Test::Node, Vec::new())];
            steps.extend(self.relative()?);
            return Ok(Expr::Path(Box::new(Expr::Root), steps));
        }
        if self.sym("/") {
            if self.starts_step() {
                return Ok(Expr::Path(Box::new(Expr::Root), self.relative()?));
            }
            return Ok(Expr::Root);
        }
        let first = self.step()?;
        if !matches!(self.peek(), Some(Tok::Sym("/" | "//"))) {
            return Ok(match first {
                Step::Expr(e) => e,
                axis @ Step::Axis(..) => Expr::Path(Box::new(Expr::Context), vec![axis]),
            });
        }
        let mut steps = vec![first];
        steps.extend(self.more_steps()?);
        Ok(match steps.first() {
            Some(Step::Expr(_)) => {
                let Step::Expr(start) = steps.remove(0) else {
                    return Err("a path".into());
                };
                Expr::Path(Box::new(start), steps)
            }
            _ => Expr::Path(Box::new(Expr::Context), steps),
        })
    }

    fn starts_step(&self) -> bool {
        matches!(
            self.peek(),
            Some(Tok::Name(_) | Tok::Sym("@" | "*" | "." | ".." | "(") | Tok::Var(_))
        )
    }

    fn relative(&mut self) -> Result<Vec<Step>, String> {
        let mut steps = vec![self.step()?];
        steps.extend(self.more_steps()?);
        Ok(steps)
    }

    fn more_steps(&mut self) -> Result<Vec<Step>, String> {
        let mut steps = Vec::new();
        loop {
            if self.sym("//") {
                steps.push(Step::Axis(Axis::DescendantOrSelf, Test::Node, Vec::new()));
            } else if !self.sym("/") {
                return Ok(steps);
            }
            steps.push(self.step()?);
        }
    }

    fn predicates(&mut self) -> Result<Vec<Expr>, String> {
        let mut preds = Vec::new();
        while self.sym("[") {
            preds.push(self.expr()?);
            self.expect("]")?;
        }
        Ok(preds)
    }

    fn step(&mut self) -> Result<Step, String> {
        if self.sym("..") {
            return Ok(Step::Axis(Axis::Parent, Test::Node, self.predicates()?));
        }
        if self.sym("@") {
            let test = self.node_test()?;
            return Ok(Step::Axis(Axis::Attribute, test, self.predicates()?));
        }
        if let (Some(Tok::Name(a)), Some(Tok::Sym("::"))) = (self.peek(), self.peek_at(1)) {
            let axis = match a.as_str() {
                "child" => Axis::Child,
                "descendant" => Axis::Descendant,
                "descendant-or-self" => Axis::DescendantOrSelf,
                "self" => Axis::Itself,
                "parent" => Axis::Parent,
                "ancestor" => Axis::Ancestor,
                "ancestor-or-self" => Axis::AncestorOrSelf,
                "preceding-sibling" => Axis::PrecedingSibling,
                "following-sibling" => Axis::FollowingSibling,
                "preceding" => Axis::Preceding,
                "following" => Axis::Following,
                "attribute" => Axis::Attribute,
                other => return Err(format!("the axis {other} is not read")),
            };
            self.at += 2;
            let test = self.node_test()?;
            return Ok(Step::Axis(axis, test, self.predicates()?));
        }
        // A function call, a literal, a variable, a parenthesised expression or `.`:
        // a primary (with predicates); a name not followed by `(` is a child step.
        let is_call = matches!(self.peek(), Some(Tok::Name(_)))
            && matches!(self.peek_at(1), Some(Tok::Sym("(")))
            && !matches!(self.peek(), Some(Tok::Name(n)) if n == "node" || n == "text");
        if is_call
            || matches!(
                self.peek(),
                Some(Tok::Str(_) | Tok::Num(_) | Tok::Var(_) | Tok::Sym("(" | "."))
            )
        {
            let primary = self.primary()?;
            let preds = self.predicates()?;
            return Ok(Step::Expr(if preds.is_empty() {
                primary
            } else {
                Expr::Filter(Box::new(primary), preds)
            }));
        }
        let test = self.node_test()?;
        Ok(Step::Axis(Axis::Child, test, self.predicates()?))
    }

    fn node_test(&mut self) -> Result<Test, String> {
        if self.sym("*") {
            if self.sym(":") {
                let Some(Tok::Name(local)) = self.peek().cloned() else {
                    return Err("expected a local name after *:".into());
                };
                self.at += 1;
                return Ok(Test::Name(QName::new(Some("*".into()), local)));
            }
            return Ok(Test::Any);
        }
        let Some(Tok::Name(n)) = self.peek().cloned() else {
            return Err(format!("expected a name, found {:?}", self.peek()));
        };
        self.at += 1;
        if (n == "node" || n == "text") && self.sym("(") {
            self.expect(")")?;
            return Ok(if n == "node" { Test::Node } else { Test::Text });
        }
        Ok(match n.split_once(':') {
            Some((p, "*")) => Test::AnyIn(p.to_owned()),
            Some((p, l)) => Test::Name(QName::new(Some(p.to_owned()), l.to_owned())),
            None => Test::Name(QName::new(None, n)),
        })
    }

    fn primary(&mut self) -> Result<Expr, String> {
        match self.peek().cloned() {
            Some(Tok::Str(s)) => {
                self.at += 1;
                Ok(Expr::Str(s))
            }
            Some(Tok::Num(n)) => {
                self.at += 1;
                Ok(Expr::Num(n))
            }
            Some(Tok::Var(v)) => {
                self.at += 1;
                Ok(Expr::Var(v))
            }
            Some(Tok::Sym(".")) => {
                self.at += 1;
                Ok(Expr::Context)
            }
            Some(Tok::Sym("(")) => {
                self.at += 1;
                if self.sym(")") {
                    return Ok(Expr::Seq(Vec::new()));
                }
                let e = self.expr()?;
                self.expect(")")?;
                Ok(match e {
                    Expr::Seq(v) => Expr::Seq(v),
                    e => Expr::Seq(vec![e]),
                })
            }
            Some(Tok::Name(f)) => {
                self.at += 2;
                let mut args = Vec::new();
                if !self.sym(")") {
                    args.push(self.single()?);
                    while self.sym(",") {
                        args.push(self.single()?);
                    }
                    self.expect(")")?;
                }
                Ok(Expr::Call(f, args))
            }
            other => Err(format!("unexpected {other:?}")),
        }
    }
}

/// `some $x in E satisfies A op $x` (or `$x op A`), `A` not naming `$x`, is the general
/// comparison `A op E`: both hold when some item of `A` and some item of `E` compare so.
/// The artefacts test every code list this way; compared at once, no binding per code.
fn quantified(every: bool, binds: Vec<(String, Expr)>, sat: Expr) -> Expr {
    if let (false, [(name, list)], Expr::Compare(op, true, a, b)) = (every, binds.as_slice(), &sat)
    {
        let is_var = |e: &Expr| matches!(e, Expr::Var(v) if v == name);
        if is_var(b) && !mentions(a, name) {
            return Expr::Compare(*op, true, a.clone(), Box::new(list.clone()));
        }
        if is_var(a) && !mentions(b, name) {
            return Expr::Compare(*op, true, Box::new(list.clone()), b.clone());
        }
    }
    Expr::Quantified(every, binds, Box::new(sat))
}

/// Whether an expression names the variable `$name` anywhere.
fn mentions(e: &Expr, name: &str) -> bool {
    any(e, &mut |x| matches!(x, Expr::Var(v) if v == name))
}

/// Whether `hit` holds for `e` or for an expression anywhere inside it (predicates,
/// steps and bindings included).
pub(crate) fn any(e: &Expr, hit: &mut dyn FnMut(&Expr) -> bool) -> bool {
    search(e, &mut |x| if hit(x) { Seen::Hit } else { Seen::Inside })
}

/// What [`search`] does at an expression.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Seen {
    /// Found: the search stops, true.
    Hit,
    /// Look inside it.
    Inside,
    /// Do not look inside it.
    Skip,
}

/// Whether a function of the artefacts returns a boolean (its call is a test, never
/// nodes nor a number that would select by position).
pub(crate) fn boolean_function(name: &str) -> bool {
    matches!(
        name,
        "not"
            | "exists"
            | "empty"
            | "boolean"
            | "contains"
            | "starts-with"
            | "ends-with"
            | "matches"
            | "true"
            | "false"
    )
}

/// Whether `seen` says [`Seen::Hit`] for `e` or for an expression inside it, not looking
/// inside an expression where it says [`Seen::Skip`]: the one read-only walker of an
/// expression.
pub(crate) fn search(e: &Expr, seen: &mut dyn FnMut(&Expr) -> Seen) -> bool {
    match seen(e) {
        Seen::Hit => return true,
        Seen::Skip => return false,
        Seen::Inside => {}
    }
    match e {
        Expr::Str(_) | Expr::Num(_) | Expr::Var(_) | Expr::Context | Expr::Root => false,
        Expr::Seq(list) | Expr::Call(_, list) => list.iter().any(|x| search(x, seen)),
        Expr::Filter(base, preds) => search(base, seen) || preds.iter().any(|x| search(x, seen)),
        Expr::Path(start, steps) => {
            search(start, seen)
                || steps.iter().any(|s| match s {
                    Step::Axis(_, _, preds) => preds.iter().any(|x| search(x, seen)),
                    Step::Expr(x) => search(x, seen),
                })
        }
        Expr::Or(a, b)
        | Expr::And(a, b)
        | Expr::Compare(_, _, a, b)
        | Expr::Arith(_, a, b)
        | Expr::Union(a, b)
        | Expr::Range(a, b) => search(a, seen) || search(b, seen),
        Expr::Neg(a) | Expr::Castable(a, _, _) | Expr::Cast(a, _, _) | Expr::Shared(_, a) => {
            search(a, seen)
        }
        Expr::If(c, t, f) => search(c, seen) || search(t, seen) || search(f, seen),
        Expr::Quantified(_, b, x) | Expr::For(b, x) => {
            b.iter().any(|(_, y)| search(y, seen)) || search(x, seen)
        }
    }
}

/// The expressions directly inside `e`, to change them.
pub(crate) fn children_mut(e: &mut Expr) -> Vec<&mut Expr> {
    match e {
        Expr::Str(_) | Expr::Num(_) | Expr::Var(_) | Expr::Context | Expr::Root => Vec::new(),
        Expr::Seq(list) | Expr::Call(_, list) => list.iter_mut().collect(),
        Expr::Filter(base, preds) => {
            let mut v: Vec<&mut Expr> = vec![&mut **base];
            v.extend(preds.iter_mut());
            v
        }
        Expr::Path(start, steps) => {
            let mut v: Vec<&mut Expr> = vec![&mut **start];
            for s in steps.iter_mut() {
                match s {
                    Step::Axis(_, _, preds) => v.extend(preds.iter_mut()),
                    Step::Expr(x) => v.push(x),
                }
            }
            v
        }
        Expr::Or(a, b)
        | Expr::And(a, b)
        | Expr::Compare(_, _, a, b)
        | Expr::Arith(_, a, b)
        | Expr::Union(a, b)
        | Expr::Range(a, b) => vec![&mut **a, &mut **b],
        Expr::Neg(a) | Expr::Castable(a, _, _) | Expr::Cast(a, _, _) | Expr::Shared(_, a) => {
            vec![&mut **a]
        }
        Expr::If(c, t, f) => vec![&mut **c, &mut **t, &mut **f],
        Expr::Quantified(_, b, x) | Expr::For(b, x) => {
            let mut v: Vec<&mut Expr> = b.iter_mut().map(|(_, e)| e).collect();
            v.push(&mut **x);
            v
        }
    }
}

/// What an expression reads of its focus element, when that is at most its name and
/// attributes ([`focus_reads`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Reads {
    /// Nothing: its value is the same at every element of the document.
    Nothing,
    /// The name (`name()`, `local-name()`, `namespace-uri()`).
    Name,
    /// The name and attributes (`@a`).
    Attributes,
}

/// The conjuncts of `a and b and c`, left to right (`e` alone when it is not an `and`).
pub(crate) fn conjuncts(e: &Expr) -> Vec<&Expr> {
    fn flatten<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
        if let Expr::And(a, b) = e {
            flatten(a, out);
            flatten(b, out);
        } else {
            out.push(e);
        }
    }
    let mut all = Vec::new();
    flatten(e, &mut all);
    all
}

/// The conjuncts at the start of a predicate (`a and b and c`, left to right) that read
/// of the element at most `reads` ([`focus_reads`]): a node failing them fails the
/// predicate, whatever the others would say (they are evaluated after, left to right,
/// and `and` stops at the first false).
pub(crate) fn leading_conjuncts(e: &Expr, reads: Reads) -> Vec<&Expr> {
    conjuncts(e)
        .into_iter()
        .take_while(|c| focus_reads(c).is_some_and(|r| r <= reads))
        .collect()
}

/// What an expression reads of its focus, when that is only the element's name and
/// attributes (`name()`, `@a`) and nothing else of the document but paths from the
/// root that read no variable (the same wherever they are evaluated in one
/// document); `None` for anything else (the element's text, a step down or up, a
/// filter, a path from a variable, a function of the stylesheet, the position).
/// Variables may be read: their values do not change with the focus. So its value at
/// an element is its value at any element of the same name (and attributes).
pub(crate) fn focus_reads(e: &Expr) -> Option<Reads> {
    // `search` visits a path's start too: every `.` must be the start of an `@a`. A
    // path from the root that reads no variable is the same anywhere, whatever its
    // predicates read of their own focus: it is not looked into.
    let (mut dots, mut attributes, mut name) = (0usize, 0usize, false);
    let hit = |yes: bool| if yes { Seen::Hit } else { Seen::Inside };
    let other = search(e, &mut |x| match x {
        Expr::Path(start, steps) => match **start {
            Expr::Root | Expr::Shared(..) if reads_outside(x) => Seen::Hit,
            Expr::Root | Expr::Shared(..) => Seen::Skip,
            Expr::Context => {
                let attribute = matches!(
                    steps.as_slice(),
                    [Step::Axis(Axis::Attribute, Test::Name(_), p)] if p.is_empty()
                );
                attributes += usize::from(attribute);
                hit(!attribute)
            }
            _ => Seen::Hit,
        },
        Expr::Shared(..) => Seen::Skip,
        Expr::Context => {
            dots += 1;
            Seen::Inside
        }
        Expr::Filter(..) => Seen::Hit,
        Expr::Call(f, args) => {
            let of_focus =
                args.is_empty() && matches!(f.as_str(), "name" | "local-name" | "namespace-uri");
            name |= of_focus;
            // a stylesheet's own function (`u:gln`) may step from a node it is given
            hit((f.contains(':') && !f.starts_with("xs:"))
                || matches!(
                    f.as_str(),
                    "current" | "position" | "last" | "root" | "generate-id"
                )
                || (args.is_empty() && !of_focus && !matches!(f.as_str(), "true" | "false")))
        }
        _ => Seen::Inside,
    });
    (!other && dots == attributes).then_some(if attributes > 0 {
        Reads::Attributes
    } else if name {
        Reads::Name
    } else {
        Reads::Nothing
    })
}

/// Whether `e` reads anything but the document: a variable, or XSLT's `current()`.
pub(crate) fn reads_outside(e: &Expr) -> bool {
    any(e, &mut |x| match x {
        Expr::Var(_) => true,
        Expr::Call(name, _) => name == "current",
        _ => false,
    })
}
