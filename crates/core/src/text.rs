//! The text form of indexing maps: one parser and one printer.
//!
//! Output is XLA's single-line form, `(d0, d1)[s0]{rt0} -> (d0 floordiv 8, s0), domain: d0 in [0, 9],
//! d1 in [0, 19], s0 in [0, 3], rt0 in [0, 5], d0 mod 2 in [0, 0]`, or `KNOWN EMPTY`, in MLIR's
//! spelling or in XLA's (`/` for `floordiv`, see [`crate::print::Syntax`]). Expressions may hold
//! `min(a, b)` and `max(a, b)`, and, as XLA's `SymbolicExpr`, products of two expressions and
//! divisions or `mod` by an expression (`d0 * s0`, `(d0 + 1) floordiv s0`). A domain entry with an empty interval (`d0 in [10, 0]`) makes the
//! map KNOWN EMPTY, as in XLA. Input also accepts `/` and `%`, the attribute wrappers
//! `#xla.indexing_map<"...">` and `#xla_indexing.map<"...">` (several adjacent string pieces are
//! joined), the older unquoted `#xla_gpu.indexing_map<...>` with `is_simplified`, and the legacy
//! forms of the documentation: domain entries separated by newlines instead of commas, trailing
//! commas, coefficients glued to variables (`100d0`), `floorDiv`, and runtime symbols written as
//! `[s0]` followed by an `hlo: <instruction>` line and that instruction's map.
//!
//! A leading minus belongs to the operand after it, as XLA and MLIR read it: `-x floordiv 11` is
//! `(-x) floordiv 11`.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::{self, Write};

use crate::expr::{ArithError, Division, Expr, Extremum, VarRef};
use crate::interval::Interval;
use crate::map::{IndexingMap, Var};
use crate::print::{Names, Printer, Syntax};

/// A syntax or semantic error in map text, at a 1-based line and column of the input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message} at line {line}, column {column}")]
pub struct ParseError {
    /// 1-based line of the error in the input.
    pub line: usize,
    /// 1-based column of the error in its line, counted in characters.
    pub column: usize,
    /// Byte offset into the input.
    pub offset: usize,
    /// What is wrong, without the position.
    pub message: String,
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Int(i128),
    Punct(&'static str),
    Eof,
}

struct Lexer<'a> {
    src: &'a str,
    pos: usize,
    /// A `*` to emit between a number and a glued identifier (`100d0`).
    pending_star: Option<usize>,
}

impl<'a> Lexer<'a> {
    fn skip_ws(&mut self) {
        let rest = &self.src[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    /// The next token and its byte offset.
    fn next(&mut self) -> Result<(Tok, usize), (usize, String)> {
        if let Some(at) = self.pending_star.take() {
            return Ok((Tok::Punct("*"), at));
        }
        self.skip_ws();
        let start = self.pos;
        let bytes = self.src.as_bytes();
        let Some(&c) = bytes.get(start) else {
            return Ok((Tok::Eof, start));
        };
        if c.is_ascii_digit() {
            let mut end = start;
            while end < bytes.len() && bytes[end].is_ascii_digit() {
                end += 1;
            }
            self.pos = end;
            let value: i128 = self.src[start..end].parse().map_err(|_| {
                (
                    start,
                    format!("number '{}' is out of range", &self.src[start..end]),
                )
            })?;
            if bytes
                .get(end)
                .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
            {
                self.pending_star = Some(end);
            }
            return Ok((Tok::Int(value), start));
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let mut end = start;
            while end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_') {
                end += 1;
            }
            self.pos = end;
            return Ok((Tok::Ident(self.src[start..end].to_string()), start));
        }
        const PUNCT: [&str; 15] = [
            "->", "(", ")", "[", "]", "{", "}", ",", ":", "+", "-", "*", "/", "%", "#",
        ];
        for p in PUNCT {
            if self.src[start..].starts_with(p) {
                self.pos += p.len();
                return Ok((Tok::Punct(p), start));
            }
        }
        let ch = self.src[start..].chars().next().unwrap_or('?');
        Err((start, format!("unexpected character '{ch}'")))
    }

    /// Skips the rest of the current line.
    fn skip_line(&mut self) {
        self.pending_star = None;
        match self.src[self.pos..].find('\n') {
            Some(n) => self.pos += n + 1,
            None => self.pos = self.src.len(),
        }
    }
}

/// Strips an attribute wrapper and joins string pieces, keeping a map from positions in the
/// result back to the input.
fn unwrap(text: &str) -> Result<(String, Vec<usize>), (usize, String)> {
    let lead = text.len() - text.trim_start().len();
    let t = text.trim();
    let wrappers = [
        "#xla_indexing.map<",
        "#xla.indexing_map<",
        "#xla_gpu.indexing_map<",
    ];
    let Some(prefix) = wrappers.iter().find(|w| t.starts_with(**w)) else {
        return Ok((text.to_string(), (0..=text.len()).collect()));
    };
    let Some(body) = t[prefix.len()..].strip_suffix('>') else {
        return Err((lead + t.len(), "expected '>' closing the attribute".into()));
    };
    let base = lead + prefix.len();
    if !body.trim_start().starts_with('"') {
        let offsets = (0..=body.len()).map(|i| base + i).collect();
        return Ok((body.to_string(), offsets));
    }
    let (mut out, mut offsets) = (String::new(), Vec::new());
    let mut chars = body.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => loop {
                match chars.next() {
                    Some((_, '"')) => break,
                    Some((j, '\\')) => {
                        if let Some((k, e)) = chars.next() {
                            out.push(e);
                            offsets.extend(std::iter::repeat_n(base + k, e.len_utf8()));
                        } else {
                            return Err((base + j, "unterminated string".into()));
                        }
                    }
                    Some((j, ch)) => {
                        out.push(ch);
                        offsets.extend(std::iter::repeat_n(base + j, ch.len_utf8()));
                    }
                    None => return Err((base + i, "unterminated string".into())),
                }
            },
            c if c.is_whitespace() => {}
            _ => return Err((base + i, format!("expected a string piece, found '{c}'"))),
        }
    }
    offsets.push(base + body.len());
    Ok((out, offsets))
}

fn locate(text: &str, offset: usize, message: String) -> ParseError {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = text[line_start..offset].chars().count() + 1;
    ParseError {
        line,
        column,
        offset,
        message,
    }
}

/// Which kind of variable a name in scope refers to, by header position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Slot {
    Dim(usize),
    /// A symbol in header order (range symbols first, then `{}` runtime symbols).
    Sym(usize),
}

struct Parser<'a> {
    lex: Lexer<'a>,
    tok: Tok,
    at: usize,
    /// The variables in scope.
    names: Cow<'a, HashMap<String, Slot>>,
    /// Current nesting of parentheses and unary minus, bounded by [`MAX_NESTING`].
    depth: usize,
}

/// Deepest nesting of parentheses and unary minus accepted in an expression.
const MAX_NESTING: usize = 64;

type PResult<T> = Result<T, (usize, String)>;

impl<'a> Parser<'a> {
    fn new(src: &'a str) -> PResult<Self> {
        let mut lex = Lexer {
            src,
            pos: 0,
            pending_star: None,
        };
        let (tok, at) = lex.next()?;
        Ok(Parser {
            lex,
            tok,
            at,
            names: Cow::Owned(HashMap::new()),
            depth: 0,
        })
    }

    fn bump(&mut self) -> PResult<(Tok, usize)> {
        let (tok, at) = self.lex.next()?;
        Ok((
            std::mem::replace(&mut self.tok, tok),
            std::mem::replace(&mut self.at, at),
        ))
    }

    fn is(&self, p: &str) -> bool {
        matches!(&self.tok, Tok::Punct(q) if *q == p)
    }

    fn is_ident(&self, name: &str) -> bool {
        matches!(&self.tok, Tok::Ident(n) if n == name)
    }

    fn eat(&mut self, p: &str) -> PResult<bool> {
        if self.is(p) {
            self.bump()?;
            return Ok(true);
        }
        Ok(false)
    }

    fn describe(&self) -> String {
        match &self.tok {
            Tok::Ident(n) => format!("'{n}'"),
            Tok::Int(v) => format!("'{v}'"),
            Tok::Punct(p) => format!("'{p}'"),
            Tok::Eof => "end of input".into(),
        }
    }

    fn expect(&mut self, p: &str) -> PResult<()> {
        if self.eat(p)? {
            Ok(())
        } else {
            Err((
                self.at,
                format!("expected '{p}', found {}", self.describe()),
            ))
        }
    }

    fn ident(&mut self, what: &str) -> PResult<(String, usize)> {
        match self.bump()? {
            (Tok::Ident(n), at) => Ok((n, at)),
            (_, at) => Err((at, format!("expected {what}"))),
        }
    }

    /// `(a, b, ...)` with `open`/`close` delimiters; an empty list is allowed.
    fn ident_list(&mut self, open: &str, close: &str) -> PResult<Vec<(String, usize)>> {
        self.expect(open)?;
        let mut out = Vec::new();
        if self.eat(close)? {
            return Ok(out);
        }
        loop {
            out.push(self.ident("a variable name")?);
            if self.eat(close)? {
                return Ok(out);
            }
            self.expect(",")?;
        }
    }

    fn signed_int(&mut self) -> PResult<i64> {
        let neg = self.eat("-")?;
        match self.bump()? {
            (Tok::Int(v), at) => narrow_literal(if neg { -v } else { v }, at),
            (_, at) => Err((at, "expected an integer".into())),
        }
    }

    fn arith(at: usize, r: Result<Expr, ArithError>) -> PResult<Expr> {
        r.map_err(|e| (at, e.to_string()))
    }

    /// sum := term (('+' | '-') term)*
    fn expr(&mut self) -> PResult<Expr> {
        let at = self.at;
        let mut terms = vec![self.term(false)?];
        loop {
            let negate = if self.eat("+")? {
                false
            } else if self.eat("-")? {
                true
            } else {
                return Self::arith(at, Expr::sum(&terms));
            };
            terms.push(self.term(negate)?);
        }
    }

    /// Runs `f` one nesting level deeper, refusing input nested beyond [`MAX_NESTING`].
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        if self.depth >= MAX_NESTING {
            return Err((
                self.at,
                format!("expression nested more than {MAX_NESTING} levels deep"),
            ));
        }
        self.depth += 1;
        let result = f(self);
        self.depth -= 1;
        result
    }

    /// term := factor (('*' | 'floordiv' | 'ceildiv' | 'mod' | '/' | '%') factor)*, negated when
    /// `negate` is set (by a binary minus before it). As in MLIR and XLA, a unary minus belongs
    /// to the factor after it: `-d0 mod 2` is `(-d0) mod 2`. Signs go into the constant of the
    /// product, which is exact until the product ends: `-d0 * 9223372036854775808` is
    /// `d0 * i64::MIN`.
    fn term(&mut self, negate: bool) -> PResult<Expr> {
        let at = self.at;
        let mut product = Product::new(self.factor()?, at)?;
        loop {
            let at = self.at;
            let op = match &self.tok {
                Tok::Punct("*") => None,
                Tok::Punct("/") => Some(Division::FloorDiv),
                Tok::Punct("%") => Some(Division::Mod),
                Tok::Ident(n) if n == "floordiv" || n == "floorDiv" => Some(Division::FloorDiv),
                Tok::Ident(n) if n == "ceildiv" || n == "ceilDiv" => Some(Division::CeilDiv),
                Tok::Ident(n) if n == "mod" => Some(Division::Mod),
                _ => return product.finish(negate),
            };
            self.bump()?;
            let rhs = self.factor()?;
            let Some(op) = op else {
                product.multiply(rhs, at)?;
                continue;
            };
            let divisor = match rhs {
                Operand::Literal { value, at } => Expr::constant(narrow_literal(value, at)?),
                Operand::Expr {
                    expr,
                    negated: false,
                } => expr,
                Operand::Expr {
                    expr,
                    negated: true,
                } => Self::arith(at, expr.checked_scale(-1))?,
            };
            let lhs = product.finish(false)?;
            let divided = lhs.divide_by(op, &divisor);
            product = Product::new(Operand::expr(Self::arith(at, divided)?), at)?;
        }
    }

    /// factor := integer | variable | '(' sum ')' | '-' factor
    ///         | ('min' | 'max') '(' sum ',' sum ')'
    fn factor(&mut self) -> PResult<Operand> {
        let at = self.at;
        match self.bump()? {
            (Tok::Int(value), _) => Ok(Operand::Literal { value, at }),
            (Tok::Punct("-"), _) => Ok(match self.nested(Self::factor)? {
                Operand::Literal { value, at } => Operand::Literal { value: -value, at },
                Operand::Expr { expr, negated } => Operand::Expr {
                    expr,
                    negated: !negated,
                },
            }),
            (Tok::Punct("("), _) => {
                let expr = self.nested(Self::expr)?;
                self.expect(")")?;
                Ok(Operand::expr(expr))
            }
            (Tok::Ident(n), _) => {
                // `min` and `max` before `(` are calls; elsewhere they may name variables.
                let call = match n.as_str() {
                    "min" => Some(Extremum::Min),
                    "max" => Some(Extremum::Max),
                    _ => None,
                };
                if let Some(which) = call.filter(|_| self.is("(")) {
                    return self.nested(|p| p.extremum(which)).map(Operand::expr);
                }
                match self.names.get(&n) {
                    Some(Slot::Dim(i)) => Ok(Operand::expr(Expr::dim(*i as u32))),
                    Some(Slot::Sym(i)) => Ok(Operand::expr(Expr::sym(*i as u32))),
                    None => Err((at, format!("unknown variable '{n}'"))),
                }
            }
            (Tok::Eof, _) => Err((at, "expected an expression, found end of input".into())),
            (tok, _) => Err((
                at,
                format!("expected an expression, found {}", describe_tok(&tok)),
            )),
        }
    }
}

impl Parser<'_> {
    /// The operands of `min(a, b)` or `max(a, b)` after the name: `'(' sum ',' sum ')'`.
    fn extremum(&mut self, which: Extremum) -> PResult<Expr> {
        self.expect("(")?;
        let a = self.expr()?;
        self.expect(",")?;
        let b = self.expr()?;
        self.expect(")")?;
        Ok(a.extremum(which, &b))
    }
}

/// A factor of a term: an integer literal stays exact (up to the range of `i128`) until it meets
/// its sign; an expression carries the unary minuses before it, which the product takes into its
/// constant.
enum Operand {
    Literal { value: i128, at: usize },
    Expr { expr: Expr, negated: bool },
}

impl Operand {
    fn expr(expr: Expr) -> Operand {
        Operand::Expr {
            expr,
            negated: false,
        }
    }
}

/// The magnitude of `i64::MIN`: the largest constant a product may hold before its sign is known.
const MAX_MAGNITUDE: u128 = 1 << 63;

/// A product being parsed: the product of its non-constant factors (an [`Expr::checked_mul`] of
/// them), times the product of the constant factors, kept exact in `i128` within
/// [`MAX_MAGNITUDE`] until the term's sign is applied.
struct Product {
    factor: Option<Expr>,
    constant: i128,
    /// Where the constant was last changed, for errors.
    at: usize,
}

impl Product {
    /// The product of one factor, which starts at `at`.
    fn new(first: Operand, at: usize) -> PResult<Product> {
        let (factor, constant) = match first {
            Operand::Literal { value, at } if MAX_MAGNITUDE < value.unsigned_abs() => {
                return Err((at, out_of_range(value)));
            }
            Operand::Literal { value, .. } => (None, value),
            Operand::Expr { expr, negated } => {
                let sign = if negated { -1 } else { 1 };
                match expr.as_constant() {
                    Some(c) => (None, sign * i128::from(c)),
                    None => (Some(expr), sign),
                }
            }
        };
        Ok(Product {
            factor,
            constant,
            at,
        })
    }

    /// Multiplies by `rhs` (the `*` is at `at`).
    fn multiply(&mut self, rhs: Operand, at: usize) -> PResult<()> {
        let k = match rhs {
            Operand::Literal { value, .. } => value,
            Operand::Expr { expr, negated } => {
                let sign = if negated { -1 } else { 1 };
                match (expr.as_constant(), &self.factor) {
                    (Some(k), _) => sign * i128::from(k),
                    (None, Some(factor)) => {
                        self.factor = Some(Parser::arith(at, factor.checked_mul(&expr))?);
                        sign
                    }
                    (None, None) => {
                        self.factor = Some(expr);
                        sign
                    }
                }
            }
        };
        match self.constant.checked_mul(k) {
            Some(c) if c.unsigned_abs() <= MAX_MAGNITUDE => (self.constant, self.at) = (c, at),
            _ => return Err((at, ArithError::Overflow.to_string())),
        }
        Ok(())
    }

    /// The value of the product, negated when `negate` is set.
    fn finish(self, negate: bool) -> PResult<Expr> {
        let c = if negate {
            -self.constant
        } else {
            self.constant
        };
        let c = narrow_literal(c, self.at)?;
        match self.factor {
            Some(e) => Parser::arith(self.at, e.checked_scale(c)),
            None => Ok(Expr::constant(c)),
        }
    }
}

/// `value` as an `i64`, or the error for a number out of range at `at`.
fn narrow_literal(value: i128, at: usize) -> PResult<i64> {
    i64::try_from(value).map_err(|_| (at, out_of_range(value)))
}

fn out_of_range(value: i128) -> String {
    format!("number {value} is out of the range of i64")
}

/// The scope of the given declarations, in order: the first declaration of a name wins.
fn scope(declarations: impl Iterator<Item = (String, Slot)>) -> HashMap<String, Slot> {
    let mut scope = HashMap::new();
    for (name, slot) in declarations {
        scope.entry(name).or_insert(slot);
    }
    scope
}

fn describe_tok(t: &Tok) -> String {
    match t {
        Tok::Ident(n) => format!("'{n}'"),
        Tok::Int(v) => format!("'{v}'"),
        Tok::Punct(p) => format!("'{p}'"),
        Tok::Eof => "end of input".into(),
    }
}

impl IndexingMap {
    /// Parses the text form (see the module documentation).
    pub fn parse(text: &str) -> Result<IndexingMap, ParseError> {
        let (body, offsets) = unwrap(text).map_err(|(at, m)| locate(text, at, m))?;
        parse_body(&body)
            .map_err(|(at, m)| locate(text, offsets.get(at).copied().unwrap_or(text.len()), m))
    }
}

/// Parses an expression over the given variable names, which become dimensions in order.
pub fn parse_expr(text: &str, dim_names: &[&str]) -> Result<Expr, ParseError> {
    parse_expr_in(text, &DimNames::new(dim_names))
}

/// Names of dimension variables for parsing many expressions over the same variables with
/// [`parse_expr_in`]: built once, so that each expression takes time in its own length only.
pub struct DimNames(HashMap<String, Slot>);

impl DimNames {
    /// The names of `d0, d1, ...`, in order (the first of repeated names wins).
    pub fn new(names: &[&str]) -> DimNames {
        DimNames(scope(
            names
                .iter()
                .enumerate()
                .map(|(i, n)| (n.to_string(), Slot::Dim(i))),
        ))
    }
}

/// [`parse_expr`] over names built beforehand.
pub fn parse_expr_in(text: &str, names: &DimNames) -> Result<Expr, ParseError> {
    let run = || -> PResult<Expr> {
        let mut p = Parser::new(text)?;
        p.names = Cow::Borrowed(&names.0);
        let e = p.expr()?;
        if p.tok != Tok::Eof {
            return Err((
                p.at,
                format!("unexpected {} after the expression", p.describe()),
            ));
        }
        Ok(e)
    };
    run().map_err(|(at, m)| locate(text, at, m))
}

fn parse_body(src: &str) -> PResult<IndexingMap> {
    let mut p = Parser::new(src)?;
    if p.is_ident("KNOWN") {
        p.bump()?;
        if !p.is_ident("EMPTY") {
            return Err((p.at, "expected 'EMPTY' after 'KNOWN'".into()));
        }
        p.bump()?;
        if p.tok != Tok::Eof {
            return Err((
                p.at,
                format!("unexpected {} after KNOWN EMPTY", p.describe()),
            ));
        }
        return Ok(IndexingMap::known_empty(0, 0, 0, 0));
    }
    let dims = p.ident_list("(", ")")?;
    let range = if p.is("[") {
        p.ident_list("[", "]")?
    } else {
        Vec::new()
    };
    let rts = if p.is("{") {
        p.ident_list("{", "}")?
    } else {
        Vec::new()
    };
    let mut names: Vec<(String, Slot)> = Vec::new();
    let all = dims
        .iter()
        .map(|d| (d, true))
        .chain(range.iter().chain(&rts).map(|s| (s, false)));
    let (mut nd, mut ns) = (0, 0);
    for ((name, at), is_dim) in all {
        if p.names.contains_key(name.as_str()) {
            return Err((*at, format!("variable '{name}' is declared twice")));
        }
        let slot = if is_dim { Slot::Dim(nd) } else { Slot::Sym(ns) };
        if is_dim {
            nd += 1
        } else {
            ns += 1
        }
        p.names.to_mut().insert(name.clone(), slot);
        names.push((name.clone(), slot));
    }
    p.expect("->")?;
    p.expect("(")?;
    let mut results = Vec::new();
    if !p.eat(")")? {
        loop {
            results.push(p.expr()?);
            if p.eat(")")? {
                break;
            }
            p.expect(",")?;
        }
    }
    let nvars = names.len();
    let mut bounds: Vec<Option<Interval>> = vec![None; nvars];
    let mut runtime_tagged = vec![false; nvars];
    let mut constraints: Vec<(Expr, Interval, usize)> = Vec::new();
    p.eat(",")?;
    if p.is_ident("domain") {
        p.bump()?;
        p.expect(":")?;
        let mut last_var: Option<usize> = None;
        loop {
            p.eat(",")?;
            if p.tok == Tok::Eof || p.is_ident("is_simplified") {
                break;
            }
            if p.is_ident("hlo") {
                let at = p.at;
                p.bump()?;
                if !p.is(":") {
                    return Err((p.at, "expected ':' after 'hlo'".into()));
                }
                let Some(v) = last_var.filter(|&v| matches!(names[v].1, Slot::Sym(_))) else {
                    return Err((
                        at,
                        "an 'hlo:' line must follow the bounds of a symbol".into(),
                    ));
                };
                runtime_tagged[v] = true;
                p.lex.skip_line();
                (p.tok, p.at) = p.lex.next()?;
                skip_provenance_map(&mut p)?;
                continue;
            }
            let at = p.at;
            let e = p.expr()?;
            if !p.is_ident("in") {
                return Err((p.at, format!("expected 'in', found {}", p.describe())));
            }
            p.bump()?;
            p.expect("[")?;
            let lo = p.signed_int()?;
            p.expect(",")?;
            let hi = p.signed_int()?;
            p.expect("]")?;
            // An empty interval (`lo > hi`) is read, as XLA reads it: the map is KNOWN EMPTY.
            let iv = Interval::new(lo, hi);
            last_var = None;
            match e.as_var() {
                Some(v) => {
                    let i = match v {
                        VarRef::Dim(i) => i as usize,
                        VarRef::Sym(i) => nd + i as usize,
                    };
                    if bounds[i].is_some() {
                        return Err((
                            at,
                            format!("the bounds of '{}' are given twice", names[i].0),
                        ));
                    }
                    bounds[i] = Some(iv);
                    last_var = Some(i);
                }
                None => constraints.push((e, iv, at)),
            }
        }
        if p.is_ident("is_simplified") {
            p.bump()?;
            p.expect(":")?;
            if !(p.is_ident("true") || p.is_ident("false")) {
                return Err((p.at, "expected 'true' or 'false'".into()));
            }
            p.bump()?;
        }
    }
    if p.tok != Tok::Eof {
        return Err((p.at, format!("unexpected {} after the map", p.describe())));
    }
    if let Some(i) = bounds.iter().position(Option::is_none) {
        return Err((
            src.len(),
            format!("the domain gives no bounds for '{}'", names[i].0),
        ));
    }
    build_map(
        &names,
        nd,
        range.len(),
        &bounds,
        &runtime_tagged,
        results,
        constraints,
    )
}

/// The `(d...) -> (...)` map that follows an `hlo:` line in the legacy form; it describes where a
/// runtime value comes from and is not part of the map itself.
fn skip_provenance_map(p: &mut Parser<'_>) -> PResult<()> {
    let dims = p.ident_list("(", ")")?;
    let saved = std::mem::replace(
        &mut p.names,
        Cow::Owned(scope(
            dims.iter()
                .enumerate()
                .map(|(i, (n, _))| (n.clone(), Slot::Dim(i))),
        )),
    );
    p.expect("->")?;
    p.expect("(")?;
    if !p.eat(")")? {
        loop {
            p.expr()?;
            if p.eat(")")? {
                break;
            }
            p.expect(",")?;
        }
    }
    p.names = saved;
    Ok(())
}

/// Assembles the map: symbols tagged as runtime by legacy `hlo:` lines move behind the range
/// symbols, and names equal to the defaults are dropped.
fn build_map(
    names: &[(String, Slot)],
    nd: usize,
    num_range: usize,
    bounds: &[Option<Interval>],
    runtime_tagged: &[bool],
    results: Vec<Expr>,
    constraints: Vec<(Expr, Interval, usize)>,
) -> PResult<IndexingMap> {
    let ns = names.len() - nd;
    let is_rt = |s: usize| s >= num_range || runtime_tagged[nd + s];
    let range_syms: Vec<usize> = (0..ns).filter(|&s| !is_rt(s)).collect();
    let rt_syms: Vec<usize> = (0..ns).filter(|&s| is_rt(s)).collect();
    let mut new_index = vec![0u32; ns];
    for (k, &s) in range_syms.iter().chain(&rt_syms).enumerate() {
        new_index[s] = k as u32;
    }
    let identity = new_index.iter().enumerate().all(|(i, &k)| i == k as usize);
    let renumber = |e: Expr| -> Expr {
        if identity {
            return e;
        }
        e.rewrite_vars(&mut |v| match v {
            VarRef::Sym(i) => Some(Expr::sym(new_index[i as usize])),
            VarRef::Dim(_) => None,
        })
        .expect("renumbering symbols cannot overflow")
    };
    let var = |i: usize, default: String| {
        let b = bounds[i].expect("every variable has bounds");
        let name = &names[i].0;
        if *name == default {
            Var::new(b)
        } else {
            Var::named(b, name.clone())
        }
    };
    let dims = (0..nd).map(|i| var(i, format!("d{i}"))).collect();
    let range_vars = range_syms
        .iter()
        .enumerate()
        .map(|(k, &s)| var(nd + s, format!("s{k}")))
        .collect();
    let rt_vars = rt_syms
        .iter()
        .enumerate()
        .map(|(k, &s)| {
            let mut v = var(nd + s, format!("rt{k}"));
            if runtime_tagged[nd + s] && v.name.as_deref() == Some(&format!("s{s}")) {
                v.name = None;
            }
            v
        })
        .collect();
    let mut map = IndexingMap::new(
        results.into_iter().map(renumber).collect(),
        dims,
        range_vars,
        rt_vars,
    );
    for (e, iv, _) in constraints {
        map.add_constraint(renumber(e), iv);
    }
    Ok(map)
}

/// A map printed in one syntax (see [`IndexingMap::display`]).
pub struct DisplayMap<'a> {
    map: &'a IndexingMap,
    syntax: Syntax,
}

impl fmt::Display for DisplayMap<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_map(self.map, self.syntax, f)
    }
}

impl IndexingMap {
    /// The canonical single-line form in `syntax` (`Display` prints it in [`Syntax::Mlir`]).
    pub fn display(&self, syntax: Syntax) -> DisplayMap<'_> {
        DisplayMap { map: self, syntax }
    }
}

/// Writes the canonical single-line form.
pub(crate) fn write_map(map: &IndexingMap, syntax: Syntax, f: &mut dyn Write) -> fmt::Result {
    if map.is_known_empty() {
        return f.write_str("KNOWN EMPTY");
    }
    let (dim_names, sym_names) = map.var_names();
    let printer = Printer {
        names: &Names {
            dims: &dim_names,
            syms: &sym_names,
        },
        syntax,
    };
    let r = map.range_vars().len();
    write!(f, "({})", dim_names.join(", "))?;
    if r > 0 {
        write!(f, "[{}]", sym_names[..r].join(", "))?;
    }
    if !map.rt_vars().is_empty() {
        write!(f, "{{{}}}", sym_names[r..].join(", "))?;
    }
    f.write_str(" -> (")?;
    for (i, e) in map.results().iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        printer.sum(e, f)?;
    }
    f.write_char(')')?;
    let all_names = dim_names.iter().chain(&sym_names);
    let mut first = true;
    for (name, v) in all_names.zip(map.all_vars()) {
        f.write_str(if first { ", domain: " } else { ", " })?;
        first = false;
        write!(f, "{name} in {}", v.bounds)?;
    }
    for (e, iv) in map.constraints() {
        f.write_str(", ")?;
        printer.sum(e, f)?;
        write!(f, " in {iv}")?;
    }
    Ok(())
}

impl IndexingMap {
    /// The names used to print this map's variables: dims, then symbols (range, runtime).
    pub fn var_names(&self) -> (Vec<String>, Vec<String>) {
        let named = |vars: &[Var], prefix: &str| -> Vec<String> {
            vars.iter()
                .enumerate()
                .map(|(i, v)| v.name.clone().unwrap_or_else(|| format!("{prefix}{i}")))
                .collect()
        };
        let mut syms = named(self.range_vars(), "s");
        syms.extend(named(self.rt_vars(), "rt"));
        (named(self.dims(), "d"), syms)
    }
}

/// The canonical single-line form in MLIR's spelling.
impl fmt::Display for IndexingMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_map(self, Syntax::Mlir, f)
    }
}
