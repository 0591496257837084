//! The syntax tree of a Tensor Comprehensions program.

use std::collections::BTreeSet;
use std::fmt;

use crate::error::Pos;

/// A file: one or more `def`s.
#[derive(Clone, Debug)]
pub struct Program {
    pub defs: Vec<Def>,
}

impl Program {
    /// The size names the parameters' types use (`M`, `K` of `float(M, K) A`), sorted.
    pub fn size_names(&self) -> BTreeSet<&str> {
        self.defs
            .iter()
            .flat_map(|d| d.inputs.iter().chain(&d.outputs))
            .flat_map(|p| p.dims.iter().flatten())
            .filter_map(|d| match d {
                Dim::Size(name) => Some(name.as_str()),
                Dim::Const(_) => None,
            })
            .collect()
    }
}

/// `def name(inputs) -> (outputs) { statements }`.
#[derive(Clone, Debug)]
pub struct Def {
    pub name: String,
    pub pos: Pos,
    pub inputs: Vec<Param>,
    pub outputs: Vec<Param>,
    pub stmts: Vec<Stmt>,
}

/// A parameter: `float(M, 3) A`, a scalar `float c`, or an output named without a type.
#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub pos: Pos,
    /// The sizes: empty for a scalar, `None` for an output whose sizes are inferred.
    pub dims: Option<Vec<Dim>>,
}

/// One dimension of a parameter's type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dim {
    Size(String),
    Const(i64),
}

/// `A(i, j) op rhs where ...`.
#[derive(Clone, Debug)]
pub struct Stmt {
    pub pos: Pos,
    pub lhs: String,
    pub indices: Vec<(String, Pos)>,
    /// `=`, `+=`, `+=!`, `*=`, `min=!`, ...
    pub op: String,
    pub rhs: Ex,
    pub wheres: Vec<Where>,
}

/// A `where` clause.
#[derive(Clone, Debug)]
pub enum Where {
    /// `k in lo:hi`, upper bound exclusive.
    Range {
        var: String,
        pos: Pos,
        lo: Ex,
        hi: Ex,
    },
    /// `exists A(i)`: an access that takes part in range inference only.
    Exists(Ex),
}

/// An expression, on either side of an index.
#[derive(Clone, Debug)]
pub enum Ex {
    Int(i64),
    Float(String),
    Name(String, Pos),
    /// A tensor access or a function call, told apart when names are resolved.
    Call {
        name: String,
        pos: Pos,
        args: Vec<Ex>,
    },
    Unary(&'static str, Box<Ex>),
    Binary(&'static str, Box<Ex>, Box<Ex>),
    Ternary(Box<Ex>, Box<Ex>, Box<Ex>),
}

impl Ex {
    /// Operator precedence for printing (higher binds tighter).
    fn precedence(&self) -> u8 {
        match self {
            Ex::Ternary(..) => 1,
            Ex::Binary(op, ..) => match *op {
                "||" => 2,
                "&&" => 3,
                "==" | "!=" | "<" | "<=" | ">" | ">=" => 4,
                "+" | "-" => 5,
                _ => 6,
            },
            Ex::Unary(..) => 7,
            _ => 8,
        }
    }
}

impl fmt::Display for Ex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let child = |f: &mut fmt::Formatter<'_>, e: &Ex, min: u8| {
            if e.precedence() < min {
                write!(f, "({e})")
            } else {
                write!(f, "{e}")
            }
        };
        match self {
            Ex::Int(v) => write!(f, "{v}"),
            Ex::Float(s) => f.write_str(s),
            Ex::Name(n, _) => f.write_str(n),
            Ex::Call { name, args, .. } => {
                write!(f, "{name}(")?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{a}")?;
                }
                f.write_str(")")
            }
            Ex::Unary(op, e) => {
                f.write_str(op)?;
                child(f, e, 7)
            }
            Ex::Binary(op, a, b) => {
                let p = self.precedence();
                child(f, a, p)?;
                if *op == "*" || *op == "/" {
                    write!(f, "{op}")?;
                } else {
                    write!(f, " {op} ")?;
                }
                child(f, b, p + 1)
            }
            Ex::Ternary(c, a, b) => {
                child(f, c, 2)?;
                f.write_str(" ? ")?;
                child(f, a, 2)?;
                f.write_str(" : ")?;
                child(f, b, 1)
            }
        }
    }
}
