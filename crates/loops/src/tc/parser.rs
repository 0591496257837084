//! The parser of the Tensor Comprehensions language as the range-inference seed writes it.
//!
//! ```text
//! program := def*
//! def     := "def" NAME "(" [param ("," param)*] ")" "->" ( "(" outputs ")" | outputs ) "{" stmt* "}"
//! param   := TYPE ["(" dim ("," dim)* ")"] NAME        dim := NAME | INT
//! outputs := output ("," output)*                      output := NAME | param
//! stmt    := NAME ["(" [NAME ("," NAME)*] ")"] op expr ["where" clause ("," clause)*] [";"]
//! op      := "=" | "+=" | "*=" | "min=" | "max=" , each optionally followed by "!"
//! clause  := NAME "in" expr ":" expr | "exists" expr
//! expr    := C-like: ?:, ||, &&, comparisons, + -, * / %, unary - !, calls, names, numbers
//! ```
//! `#` starts a comment to the end of the line.

use crate::error::LoopsError;
use crate::lex::{Cursor, Tok, tokenize};
use crate::tc::ast::{Def, Dim, Ex, Param, Program, Stmt, Where};

const PUNCTS: &[&str] = &[
    "+=!", "*=!", "->", "+=", "*=", "==", "!=", "<=", ">=", "&&", "||", "(", ")", "{", "}", ",",
    ":", ";", "=", "+", "-", "*", "/", "%", "<", ">", "!", "?",
];

/// Parses a TC file.
pub fn parse(text: &str) -> Result<Program, LoopsError> {
    let mut p = Parser {
        c: Cursor::new(tokenize(text, PUNCTS, false)?),
    };
    let mut defs = Vec::new();
    while *p.c.peek() != Tok::Eof {
        defs.push(p.def()?);
    }
    if defs.is_empty() {
        return Err(p.c.error("expected `def`: the file holds no definition"));
    }
    Ok(Program { defs })
}

struct Parser {
    c: Cursor,
}

impl Parser {
    fn def(&mut self) -> Result<Def, LoopsError> {
        if !self.c.at_word("def") {
            return Err(self.c.expected("`def`"));
        }
        let pos = self.c.pos();
        self.c.bump();
        let (name, _) = self.c.ident("the definition's name")?;
        self.c.expect("(")?;
        let mut inputs = Vec::new();
        if !self.c.at_punct(")") {
            loop {
                inputs.push(self.param(false)?);
                if !self.c.eat(",") {
                    break;
                }
            }
        }
        self.c.expect(")")?;
        self.c.expect("->")?;
        let parenthesized = self.c.eat("(");
        let mut outputs = Vec::new();
        loop {
            outputs.push(self.param(true)?);
            if !self.c.eat(",") {
                break;
            }
        }
        if parenthesized {
            self.c.expect(")")?;
        }
        self.c.expect("{")?;
        let mut stmts = Vec::new();
        while !self.c.eat("}") {
            stmts.push(self.stmt()?);
        }
        Ok(Def {
            name,
            pos,
            inputs,
            outputs,
            stmts,
        })
    }

    /// `TYPE [(dims)] NAME`, or for an output also a bare `NAME`.
    fn param(&mut self, output: bool) -> Result<Param, LoopsError> {
        let (first, first_pos) = self.c.ident(if output {
            "an output name"
        } else {
            "a parameter type"
        })?;
        if output && !matches!(self.c.peek(), Tok::Ident(_) | Tok::Punct("(")) {
            return Ok(Param {
                name: first,
                pos: first_pos,
                dims: None,
            });
        }
        let mut dims = None;
        if self.c.eat("(") {
            let mut list = Vec::new();
            loop {
                let pos = self.c.pos();
                match self.c.bump() {
                    Tok::Ident(s) => list.push(Dim::Size(s)),
                    Tok::Int(v) if v >= 0 => list.push(Dim::Const(v)),
                    t => {
                        return Err(LoopsError::parse(
                            format!("expected a size name or number, found {}", t.describe()),
                            pos.line,
                            pos.column,
                        ));
                    }
                }
                if !self.c.eat(",") {
                    break;
                }
            }
            self.c.expect(")")?;
            dims = Some(list);
        }
        let (name, pos) = self.c.ident("a parameter name")?;
        Ok(Param {
            name,
            pos,
            dims: Some(dims.unwrap_or_default()),
        })
    }

    fn stmt(&mut self) -> Result<Stmt, LoopsError> {
        let (lhs, pos) = self.c.ident("a statement (an output tensor)")?;
        let mut indices = Vec::new();
        if self.c.eat("(") {
            if !self.c.at_punct(")") {
                loop {
                    indices.push(self.c.ident("an index variable")?);
                    if !self.c.eat(",") {
                        break;
                    }
                }
            }
            self.c.expect(")")?;
        }
        let op = self.assign_op()?;
        let rhs = self.expr()?;
        let mut wheres = Vec::new();
        if self.c.at_word("where") {
            self.c.bump();
            loop {
                wheres.push(self.clause()?);
                if !self.c.eat(",") {
                    break;
                }
            }
        }
        self.c.eat(";");
        Ok(Stmt {
            pos,
            lhs,
            indices,
            op,
            rhs,
            wheres,
        })
    }

    fn assign_op(&mut self) -> Result<String, LoopsError> {
        let op = match self.c.peek().clone() {
            Tok::Punct(p @ ("=" | "+=" | "*=" | "+=!" | "*=!")) => {
                self.c.bump();
                p.to_string()
            }
            Tok::Ident(w)
                if (w == "min" || w == "max") && matches!(self.c.peek2(), Tok::Punct("=")) =>
            {
                self.c.bump();
                self.c.bump();
                format!("{w}=")
            }
            _ => return Err(self.c.expected("`=`, `+=`, `+=!` or another reduction")),
        };
        let reduction = matches!(op.as_str(), "+=" | "*=" | "min=" | "max=");
        if reduction && self.c.eat("!") {
            return Ok(format!("{op}!"));
        }
        Ok(op)
    }

    fn clause(&mut self) -> Result<Where, LoopsError> {
        if self.c.at_word("exists") {
            self.c.bump();
            return Ok(Where::Exists(self.expr()?));
        }
        let (var, pos) = self.c.ident("`exists` or an index variable")?;
        if !self.c.at_word("in") {
            return Err(self.c.expected("`in`"));
        }
        self.c.bump();
        let lo = self.additive()?;
        self.c.expect(":")?;
        let hi = self.additive()?;
        Ok(Where::Range { var, pos, lo, hi })
    }

    fn expr(&mut self) -> Result<Ex, LoopsError> {
        self.c.nest()?;
        let cond = self.binary(0)?;
        let e = if self.c.eat("?") {
            let a = self.expr()?;
            self.c.expect(":")?;
            let b = self.expr()?;
            Ex::Ternary(Box::new(cond), Box::new(a), Box::new(b))
        } else {
            cond
        };
        self.c.unnest(1);
        Ok(e)
    }

    fn additive(&mut self) -> Result<Ex, LoopsError> {
        self.binary(3)
    }

    /// Binary operators from precedence level `level` up.
    fn binary(&mut self, level: usize) -> Result<Ex, LoopsError> {
        const LEVELS: &[&[&str]] = &[
            &["||"],
            &["&&"],
            &["==", "!=", "<", "<=", ">", ">="],
            &["+", "-"],
            &["*", "/", "%"],
        ];
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
            self.c.bump();
            let rhs = self.binary(level + 1)?;
            lhs = Ex::Binary(op, Box::new(lhs), Box::new(rhs));
        }
        self.c.unnest(chained);
        Ok(lhs)
    }

    fn unary(&mut self) -> Result<Ex, LoopsError> {
        for op in ["-", "!"] {
            if self.c.eat(op) {
                self.c.nest()?;
                let e = Ex::Unary(op, Box::new(self.unary()?));
                self.c.unnest(1);
                return Ok(e);
            }
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Ex, LoopsError> {
        let pos = self.c.pos();
        match self.c.peek().clone() {
            Tok::Int(v) => {
                self.c.bump();
                Ok(Ex::Int(v))
            }
            Tok::Float(s) => {
                self.c.bump();
                Ok(Ex::Float(s))
            }
            Tok::Ident(name) if name != "where" => {
                self.c.bump();
                if !self.c.eat("(") {
                    return Ok(Ex::Name(name, pos));
                }
                let mut args = Vec::new();
                if !self.c.at_punct(")") {
                    loop {
                        args.push(self.expr()?);
                        if !self.c.eat(",") {
                            break;
                        }
                    }
                }
                self.c.expect(")")?;
                Ok(Ex::Call { name, pos, args })
            }
            Tok::Punct("(") => {
                self.c.bump();
                let e = self.expr()?;
                self.c.expect(")")?;
                Ok(e)
            }
            _ => Err(self.c.expected("an expression")),
        }
    }
}
