//! The parser of schedule files: the lines of the InferBound seed's Python, as written.
//!
//! ```text
//! file   := line+            (`import ...` and `from ... import ...` lines are skipped)
//! line   := NAME ("," NAME)* "=" expr NEWLINE | call NEWLINE     (call: a postfix ending in "(" args ")")
//! expr   := "lambda" NAME ("," NAME)* ":" expr | sum
//! sum    := term (("+" | "-") term)*        term := unary (("*" | "/" | "//" | "%") unary)*
//! unary  := "-" unary | postfix             postfix := atom ("." NAME | "(" args ")" | "[" exprs "]")*
//! atom   := NAME | INT | FLOAT | STRING | "(" [exprs] ")" | "[" [exprs] "]"
//! args   := (expr | NAME "=" expr) ("," ...)*
//! ```
//! Line breaks inside brackets are ignored; `#` starts a comment. A file without a line, and a
//! line that neither assigns nor calls (a bare name or number: text that is not a schedule),
//! are syntax errors.

use crate::error::LoopsError;
use crate::lex::{Cursor, Tok, tokenize};
use crate::sched::ast::{Line, Py, PyKind};

const PUNCTS: &[&str] = &[
    "//", "(", ")", "[", "]", ",", ".", "=", ":", "+", "-", "*", "/", "%",
];

/// Parses a schedule file into lines.
pub fn parse_lines(text: &str) -> Result<Vec<Line>, LoopsError> {
    let mut depth = 0usize;
    let mut toks = Vec::new();
    for (tok, pos) in tokenize(text, PUNCTS, true)? {
        match tok {
            Tok::Punct("(" | "[") => depth += 1,
            Tok::Punct(")" | "]") => depth = depth.saturating_sub(1),
            Tok::Punct("\n") if depth > 0 => continue,
            _ => {}
        }
        toks.push((tok, pos));
    }
    let mut p = Parser {
        c: Cursor::new(toks),
    };
    let mut lines = Vec::new();
    loop {
        while p.c.eat("\n") {}
        if *p.c.peek() == Tok::Eof {
            if lines.is_empty() {
                return Err(p
                    .c
                    .error("expected a statement: the file holds no schedule"));
            }
            return Ok(lines);
        }
        if p.c.at_word("import") || p.c.at_word("from") {
            while !matches!(p.c.peek(), Tok::Punct("\n") | Tok::Eof) {
                p.c.bump();
            }
            continue;
        }
        lines.push(p.line()?);
    }
}

/// Positional and keyword arguments of a call.
type CallArgs = (Vec<Py>, Vec<(String, Py)>);

struct Parser {
    c: Cursor,
}

impl Parser {
    fn line(&mut self) -> Result<Line, LoopsError> {
        let mut targets = Vec::new();
        if matches!(self.c.peek(), Tok::Ident(_)) && matches!(self.c.peek2(), Tok::Punct("," | "="))
        {
            loop {
                targets.push(self.c.ident("a name")?);
                if !self.c.eat(",") {
                    break;
                }
            }
            self.c.expect("=")?;
        }
        let start = self.c.pos();
        let value = self.expr()?;
        if targets.is_empty() && !matches!(value.kind, PyKind::Call { .. }) {
            return Err(LoopsError::parse(
                "expected an assignment `NAME = ...` or a call such as `s[B].compute_at(...)`",
                start.line,
                start.column,
            ));
        }
        if !matches!(self.c.peek(), Tok::Eof) {
            self.c.expect("\n")?;
        }
        Ok(Line { targets, value })
    }

    fn expr(&mut self) -> Result<Py, LoopsError> {
        self.c.nest()?;
        let e = self.lambda_or_binary();
        self.c.unnest(1);
        e
    }

    fn lambda_or_binary(&mut self) -> Result<Py, LoopsError> {
        if self.c.at_word("lambda") {
            let pos = self.c.pos();
            self.c.bump();
            let mut params = Vec::new();
            loop {
                params.push(self.c.ident("a lambda parameter")?);
                if !self.c.eat(",") {
                    break;
                }
            }
            self.c.expect(":")?;
            let body = self.expr()?;
            return Ok(Py {
                kind: PyKind::Lambda(params, Box::new(body)),
                pos,
            });
        }
        self.binary(0)
    }

    fn binary(&mut self, level: usize) -> Result<Py, LoopsError> {
        const LEVELS: &[&[&str]] = &[&["+", "-"], &["*", "/", "//", "%"]];
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut lhs = self.binary(level + 1)?;
        let mut chained = 0;
        while let Tok::Punct(p) = self.c.peek() {
            let Some(op) = LEVELS[level].iter().find(|o| *o == p) else {
                break;
            };
            self.c.nest()?;
            chained += 1;
            let pos = self.c.pos();
            self.c.bump();
            let rhs = self.binary(level + 1)?;
            lhs = Py {
                kind: PyKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                pos,
            };
        }
        self.c.unnest(chained);
        Ok(lhs)
    }

    fn unary(&mut self) -> Result<Py, LoopsError> {
        let pos = self.c.pos();
        if self.c.eat("-") {
            self.c.nest()?;
            let e = self.unary()?;
            self.c.unnest(1);
            return Ok(Py {
                kind: PyKind::Unary("-", Box::new(e)),
                pos,
            });
        }
        let mut e = self.atom()?;
        let mut chained = 0;
        loop {
            self.c.nest()?;
            chained += 1;
            let pos = self.c.pos();
            if self.c.eat(".") {
                let (name, _) = self.c.ident("an attribute name")?;
                e = Py {
                    kind: PyKind::Attr(Box::new(e), name),
                    pos,
                };
            } else if self.c.eat("(") {
                let (args, kwargs) = self.args()?;
                let pos = e.pos;
                e = Py {
                    kind: PyKind::Call {
                        func: Box::new(e),
                        args,
                        kwargs,
                    },
                    pos,
                };
            } else if self.c.eat("[") {
                let items = self.list("]")?;
                e = Py {
                    kind: PyKind::Index(Box::new(e), items),
                    pos,
                };
            } else {
                self.c.unnest(chained);
                return Ok(e);
            }
        }
    }

    /// Call arguments up to the closing parenthesis.
    fn args(&mut self) -> Result<CallArgs, LoopsError> {
        let (mut args, mut kwargs) = (Vec::new(), Vec::new());
        while !self.c.eat(")") {
            if let (Tok::Ident(k), Tok::Punct("=")) = (self.c.peek().clone(), self.c.peek2()) {
                self.c.bump();
                self.c.bump();
                kwargs.push((k, self.expr()?));
            } else if kwargs.is_empty() {
                args.push(self.expr()?);
            } else {
                return Err(self
                    .c
                    .error("a positional argument follows a keyword argument"));
            }
            if !self.c.eat(",") {
                self.c.expect(")")?;
                break;
            }
        }
        Ok((args, kwargs))
    }

    /// Comma-separated expressions up to `close` (a trailing comma is allowed).
    fn list(&mut self, close: &str) -> Result<Vec<Py>, LoopsError> {
        let mut items = Vec::new();
        while !self.c.eat(close) {
            items.push(self.expr()?);
            if !self.c.eat(",") {
                self.c.expect(close)?;
                break;
            }
        }
        Ok(items)
    }

    fn atom(&mut self) -> Result<Py, LoopsError> {
        let pos = self.c.pos();
        let kind = match self.c.peek().clone() {
            Tok::Int(v) => {
                self.c.bump();
                PyKind::Int(v)
            }
            Tok::Float(s) => {
                self.c.bump();
                PyKind::Float(s)
            }
            Tok::Str(s) => {
                self.c.bump();
                PyKind::Str(s)
            }
            Tok::Ident(n) if n != "lambda" => {
                self.c.bump();
                PyKind::Name(n)
            }
            Tok::Punct("(") => {
                self.c.bump();
                let first_pos = self.c.pos();
                let mut items = Vec::new();
                let mut tuple = false;
                while !self.c.eat(")") {
                    items.push(self.expr()?);
                    if self.c.eat(",") {
                        tuple = true;
                    } else {
                        self.c.expect(")")?;
                        break;
                    }
                }
                if items.len() == 1 && !tuple {
                    let mut inner = items.pop().expect("one item");
                    inner.pos = first_pos;
                    return Ok(inner);
                }
                PyKind::Tuple(items)
            }
            Tok::Punct("[") => {
                self.c.bump();
                PyKind::List(self.list("]")?)
            }
            _ => return Err(self.c.expected("an expression")),
        };
        Ok(Py { kind, pos })
    }
}
