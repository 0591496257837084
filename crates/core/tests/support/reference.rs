//! A reference reader and evaluator of map text, written from the text format alone and sharing
//! no code with `IndexingMap::parse`: what XLA's text means, point by point.
//!
//! Expressions: integers, variables, `+`, `-`, `*` (of any two expressions), `floordiv` and `/`
//! (floor), `ceildiv`, `mod` and `%` (the remainder with the sign of the divisor, so that
//! `a = b * (a floordiv b) + a mod b`), `min(a, b)`, `max(a, b)` and parentheses. A unary minus
//! belongs to the factor after it (`-d0 mod 2` is `(-d0) mod 2`), as MLIR and XLA read it.
//! Values are computed exactly; a division by zero or a value outside `i64` is undefined.

use xla_indexing_core::Interval;

/// A binary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Add,
    Sub,
    Mul,
    FloorDiv,
    CeilDiv,
    Mod,
    Min,
    Max,
}

/// An expression tree, as written.
#[derive(Clone, Debug)]
pub enum Node {
    Num(i128),
    Var(usize),
    Neg(Box<Node>),
    Bin(Op, Box<Node>, Box<Node>),
}

impl Node {
    /// The value at `vals` (indexed like the names the expression was read with).
    pub fn eval(&self, vals: &[i64]) -> Option<i64> {
        i64::try_from(self.eval_wide(vals)?).ok()
    }

    fn eval_wide(&self, vals: &[i64]) -> Option<i128> {
        Some(match self {
            Node::Num(n) => *n,
            Node::Var(i) => i128::from(*vals.get(*i)?),
            Node::Neg(x) => x.eval_wide(vals)?.checked_neg()?,
            Node::Bin(op, a, b) => {
                let (a, b) = (a.eval_wide(vals)?, b.eval_wide(vals)?);
                match op {
                    Op::Add => a.checked_add(b)?,
                    Op::Sub => a.checked_sub(b)?,
                    Op::Mul => a.checked_mul(b)?,
                    Op::FloorDiv => floor_div(a, b)?,
                    Op::CeilDiv => floor_div(a, b)? + i128::from(a.checked_rem(b)? != 0),
                    Op::Mod => a.checked_sub(b.checked_mul(floor_div(a, b)?)?)?,
                    Op::Min => a.min(b),
                    Op::Max => a.max(b),
                }
            }
        })
    }

    /// Whether the expression uses `min` or `max`.
    pub fn uses_min_max(&self) -> bool {
        match self {
            Node::Num(_) | Node::Var(_) => false,
            Node::Neg(x) => x.uses_min_max(),
            Node::Bin(op, a, b) => {
                matches!(op, Op::Min | Op::Max) || a.uses_min_max() || b.uses_min_max()
            }
        }
    }
}

/// `floor(a / b)`, `None` for `b = 0`.
fn floor_div(a: i128, b: i128) -> Option<i128> {
    let (q, r) = (a.checked_div(b)?, a.checked_rem(b)?);
    Some(if r != 0 && ((r < 0) != (b < 0)) {
        q - 1
    } else {
        q
    })
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Num(i128),
    Ident(String),
    Punct(char),
}

fn tokenize(text: &str) -> Result<Vec<Tok>, String> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let s: String = chars[start..i].iter().collect();
            out.push(Tok::Num(s.parse().map_err(|_| format!("bad number {s}"))?));
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Tok::Ident(chars[start..i].iter().collect()));
        } else if "+-*/%(),".contains(c) {
            out.push(Tok::Punct(c));
            i += 1;
        } else {
            return Err(format!("unexpected character `{c}` in `{text}`"));
        }
    }
    Ok(out)
}

struct ExprParser<'a> {
    toks: Vec<Tok>,
    pos: usize,
    names: &'a [String],
}

impl ExprParser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(&Tok::Punct(c)) {
            self.pos += 1;
            return true;
        }
        false
    }

    fn sum(&mut self) -> Result<Node, String> {
        let mut acc = self.term()?;
        loop {
            if self.eat('+') {
                acc = Node::Bin(Op::Add, Box::new(acc), Box::new(self.term()?));
            } else if self.eat('-') {
                acc = Node::Bin(Op::Sub, Box::new(acc), Box::new(self.term()?));
            } else {
                return Ok(acc);
            }
        }
    }

    fn term(&mut self) -> Result<Node, String> {
        let mut acc = self.unary()?;
        loop {
            let op = match self.peek() {
                Some(Tok::Punct('*')) => Op::Mul,
                Some(Tok::Punct('/')) => Op::FloorDiv,
                Some(Tok::Punct('%')) => Op::Mod,
                Some(Tok::Ident(w)) if w == "floordiv" || w == "floorDiv" => Op::FloorDiv,
                Some(Tok::Ident(w)) if w == "ceildiv" || w == "ceilDiv" => Op::CeilDiv,
                Some(Tok::Ident(w)) if w == "mod" => Op::Mod,
                _ => return Ok(acc),
            };
            self.pos += 1;
            acc = Node::Bin(op, Box::new(acc), Box::new(self.unary()?));
        }
    }

    fn unary(&mut self) -> Result<Node, String> {
        if self.eat('-') {
            return Ok(Node::Neg(Box::new(self.unary()?)));
        }
        match self.toks.get(self.pos).cloned() {
            Some(Tok::Num(n)) => {
                self.pos += 1;
                Ok(Node::Num(n))
            }
            Some(Tok::Punct('(')) => {
                self.pos += 1;
                let e = self.sum()?;
                if !self.eat(')') {
                    return Err("expected `)`".into());
                }
                Ok(e)
            }
            Some(Tok::Ident(w)) if (w == "min" || w == "max") => {
                self.pos += 1;
                let op = if w == "min" { Op::Min } else { Op::Max };
                if !self.eat('(') {
                    return Err(format!("expected `(` after `{w}`"));
                }
                let a = self.sum()?;
                if !self.eat(',') {
                    return Err(format!("expected `,` in `{w}`"));
                }
                let b = self.sum()?;
                if !self.eat(')') {
                    return Err(format!("expected `)` closing `{w}`"));
                }
                Ok(Node::Bin(op, Box::new(a), Box::new(b)))
            }
            Some(Tok::Ident(w)) => {
                self.pos += 1;
                let i = self
                    .names
                    .iter()
                    .position(|n| *n == w)
                    .ok_or_else(|| format!("unknown variable `{w}`"))?;
                Ok(Node::Var(i))
            }
            other => Err(format!("expected an expression, found {other:?}")),
        }
    }
}

/// Reads an expression over the given variable names.
pub fn parse_expr(text: &str, names: &[String]) -> Result<Node, String> {
    let mut p = ExprParser {
        toks: tokenize(text)?,
        pos: 0,
        names,
    };
    let e = p.sum()?;
    if p.pos != p.toks.len() {
        return Err(format!("unexpected {:?} in `{text}`", p.toks[p.pos]));
    }
    Ok(e)
}

/// A map as written: variables (dims, then range vars, then runtime vars), results, the bounds of
/// every variable and the constraints. `KNOWN EMPTY` reads as a map without variables that is
/// empty.
#[derive(Clone, Debug)]
pub struct RefMap {
    /// The text read.
    pub text: String,
    pub names: Vec<String>,
    pub num_dims: usize,
    pub num_range: usize,
    pub num_rt: usize,
    pub results: Vec<Node>,
    pub bounds: Vec<Interval>,
    pub constraints: Vec<(Node, Interval)>,
    pub known_empty: bool,
}

impl RefMap {
    /// Whether a point (all variables, flat) lies in the domain.
    pub fn holds(&self, p: &[i64]) -> bool {
        !self.known_empty
            && p.len() == self.bounds.len()
            && self.bounds.iter().zip(p).all(|(b, x)| b.contains(*x))
            && self
                .constraints
                .iter()
                .all(|(e, iv)| e.eval(p).is_some_and(|v| iv.contains(v)))
    }

    /// The results at a point.
    pub fn value(&self, p: &[i64]) -> Option<Vec<i64>> {
        self.results.iter().map(|e| e.eval(p)).collect()
    }

    /// Whether any result or constraint uses `min` or `max`.
    pub fn uses_min_max(&self) -> bool {
        self.results
            .iter()
            .chain(self.constraints.iter().map(|(e, _)| e))
            .any(Node::uses_min_max)
    }
}

/// Splits `text` at the commas that are not inside parentheses or brackets.
fn split_top(text: &str) -> Vec<&str> {
    let (mut depth, mut start, mut out) = (0i32, 0, Vec::new());
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

/// The names in `(a, b)` / `[a, b]` / `{a, b}` at the start of `text`, and the rest.
fn names_group(text: &str, open: char, close: char) -> Result<(Vec<String>, &str), String> {
    let text = text.trim_start();
    if !text.starts_with(open) {
        return Ok((Vec::new(), text));
    }
    let end = text
        .find(close)
        .ok_or_else(|| format!("unclosed `{open}`"))?;
    let names = text[1..end]
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(String::from)
        .collect();
    Ok((names, &text[end + 1..]))
}

/// Reads `[lo, hi]`.
fn interval(text: &str) -> Result<Interval, String> {
    let inner = text
        .trim()
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .ok_or_else(|| format!("expected `[lo, hi]`, found `{text}`"))?;
    let (lo, hi) = inner
        .split_once(',')
        .ok_or_else(|| format!("expected `[lo, hi]`, found `{text}`"))?;
    let num = |s: &str| {
        s.trim()
            .parse::<i64>()
            .map_err(|_| format!("bad bound `{s}`"))
    };
    Ok(Interval::new(num(lo)?, num(hi)?))
}

/// Reads map text: `(dims)[range vars]{runtime vars} -> (results), domain: v in [lo, hi], ...,
/// expr in [lo, hi], ...` (whitespace and line breaks anywhere), or `KNOWN EMPTY`.
pub fn parse_map(text: &str) -> Result<RefMap, String> {
    let text = text.trim();
    if text == "KNOWN EMPTY" {
        return Ok(RefMap {
            text: text.to_string(),
            names: Vec::new(),
            num_dims: 0,
            num_range: 0,
            num_rt: 0,
            results: Vec::new(),
            bounds: Vec::new(),
            constraints: Vec::new(),
            known_empty: true,
        });
    }
    let (dims, rest) = names_group(text, '(', ')')?;
    let (range, rest) = names_group(rest, '[', ']')?;
    let (rts, rest) = names_group(rest, '{', '}')?;
    let rest = rest
        .trim_start()
        .strip_prefix("->")
        .ok_or("expected `->`")?
        .trim_start();
    let rest = rest
        .strip_prefix('(')
        .ok_or("expected `(` before the results")?;
    let mut depth = 1;
    let close = rest
        .char_indices()
        .find(|&(_, c)| {
            depth += match c {
                '(' => 1,
                ')' => -1,
                _ => 0,
            };
            depth == 0
        })
        .map(|(i, _)| i)
        .ok_or("unclosed results")?;
    let names: Vec<String> = dims.iter().chain(&range).chain(&rts).cloned().collect();
    let results = if rest[..close].trim().is_empty() {
        Vec::new()
    } else {
        split_top(&rest[..close])
            .into_iter()
            .map(|r| parse_expr(r, &names))
            .collect::<Result<_, _>>()?
    };
    let tail = rest[close + 1..].trim().trim_start_matches(',').trim();
    let mut bounds: Vec<Option<Interval>> = vec![None; names.len()];
    let mut constraints = Vec::new();
    if let Some(domain) = tail.strip_prefix("domain") {
        let domain = domain
            .trim_start()
            .strip_prefix(':')
            .ok_or("expected `:`")?;
        for entry in split_top(domain) {
            let entry = entry.trim();
            if entry.is_empty() {
                continue;
            }
            let at = entry
                .rfind(" in ")
                .or_else(|| entry.rfind("in ["))
                .ok_or_else(|| format!("expected `in` in `{entry}`"))?;
            let (lhs, rhs) = entry.split_at(at);
            let rhs = rhs.trim_start().strip_prefix("in").unwrap_or(rhs);
            let iv = interval(rhs)?;
            let lhs = lhs.trim();
            match names.iter().position(|n| n == lhs) {
                Some(i) if bounds[i].is_none() => bounds[i] = Some(iv),
                _ => constraints.push((parse_expr(lhs, &names)?, iv)),
            }
        }
    } else if !tail.is_empty() {
        return Err(format!("unexpected `{tail}` after the results"));
    }
    let bounds = bounds
        .into_iter()
        .zip(&names)
        .map(|(b, n)| b.ok_or_else(|| format!("no bounds for `{n}`")))
        .collect::<Result<_, _>>()?;
    Ok(RefMap {
        text: text.to_string(),
        num_dims: dims.len(),
        num_range: range.len(),
        num_rt: rts.len(),
        names,
        results,
        bounds,
        constraints,
        known_empty: false,
    })
}
