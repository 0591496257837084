//! The syntax tree of a Tensor Comprehensions program.

use std::collections::BTreeSet;
use std::fmt;

use crate::error::Pos;

/// A file: one or more `def`s.
#[derive(Clone, Debug)]
pub struct Program {
    /// The definitions, in file order.
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
    /// The definition's name.
    pub name: String,
    /// Where the `def` keyword is.
    pub pos: Pos,
    /// The input parameters, in order.
    pub inputs: Vec<Param>,
    /// The output parameters, in order.
    pub outputs: Vec<Param>,
    /// The statements of the body, in order.
    pub stmts: Vec<Stmt>,
}

/// A parameter: `float(M, 3) A`, a scalar `float c`, or an output named without a type.
#[derive(Clone, Debug)]
pub struct Param {
    /// The tensor's (or scalar's) name.
    pub name: String,
    /// Where the name is.
    pub pos: Pos,
    /// The sizes: empty for a scalar, `None` for an output whose sizes are inferred.
    pub dims: Option<Vec<Dim>>,
}

/// One dimension of a parameter's type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dim {
    /// A size name (`M`), whose value is given or inferred.
    Size(String),
    /// A constant size.
    Const(i64),
}

/// `A(i, j) op rhs where ...`.
#[derive(Clone, Debug)]
pub struct Stmt {
    /// Where the written tensor's name is.
    pub pos: Pos,
    /// The tensor written.
    pub lhs: String,
    /// The index variables of the written element (`i, j` of `A(i, j)`), with their positions.
    pub indices: Vec<(String, Pos)>,
    /// `=`, `+=`, `+=!`, `*=`, `min=!`, ...
    pub op: String,
    /// The value assigned or reduced.
    pub rhs: Ex,
    /// The `where` clauses, in order.
    pub wheres: Vec<Where>,
}

/// A `where` clause.
#[derive(Clone, Debug)]
pub enum Where {
    /// `k in lo:hi`, upper bound exclusive.
    Range {
        /// The index variable bounded.
        var: String,
        /// Where the variable is.
        pos: Pos,
        /// The least value (inclusive).
        lo: Ex,
        /// The upper bound (exclusive).
        hi: Ex,
    },
    /// `exists A(i)`: an access that takes part in range inference only.
    Exists(Ex),
}

/// An expression, on either side of an index.
#[derive(Clone, Debug)]
pub enum Ex {
    /// An integer literal.
    Int(i64),
    /// A floating-point literal, as written.
    Float(String),
    /// An index variable, a size name or a scalar, with its position.
    Name(String, Pos),
    /// A tensor access or a function call, told apart when names are resolved.
    Call {
        /// The tensor's or function's name.
        name: String,
        /// Where the name is.
        pos: Pos,
        /// The indices or arguments, in order.
        args: Vec<Ex>,
    },
    /// A unary operator (`-` or `!`) and its operand.
    Unary(&'static str, Box<Ex>),
    /// A binary operator (arithmetic, comparison, `&&`, `||`) and its operands.
    Binary(&'static str, Box<Ex>, Box<Ex>),
    /// `cond ? a : b`.
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
