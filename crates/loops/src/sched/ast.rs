//! The syntax tree of a schedule file: a small subset of Python.

use crate::error::Pos;

/// One line: `targets = value` or a bare expression (a method call such as `compute_at`).
#[derive(Clone, Debug)]
pub struct Line {
    /// The names assigned, with their positions (`xo, xi = ...` has two); empty for a bare call.
    pub targets: Vec<(String, Pos)>,
    /// The right-hand side, or the bare call.
    pub value: Py,
}

/// A Python expression with its position.
#[derive(Clone, Debug)]
pub struct Py {
    /// The expression's form and operands.
    pub kind: PyKind,
    /// Where the expression is reported: its first token, or the operator of a binary expression.
    pub pos: Pos,
}

/// The expression forms the schedules of the InferBound seed use.
#[derive(Clone, Debug)]
pub enum PyKind {
    /// An integer literal.
    Int(i64),
    /// A floating-point literal, as written.
    Float(String),
    /// A string literal, without the quotes.
    Str(String),
    /// A name: a variable of the file, a lambda parameter, `te`, `tvm`, or a builtin such as
    /// `compute`.
    Name(String),
    /// `value.name`
    Attr(Box<Py>, String),
    /// `f(args, key=value)`
    Call {
        /// The called expression (`te.compute`, `s[C].split`).
        func: Box<Py>,
        /// The positional arguments, in order.
        args: Vec<Py>,
        /// The keyword arguments `key=value`, in order.
        kwargs: Vec<(String, Py)>,
    },
    /// `value[indices]`
    Index(Box<Py>, Vec<Py>),
    /// `(a, b, ...)`: a parenthesised list with a comma (a single parenthesised expression is that
    /// expression).
    Tuple(Vec<Py>),
    /// `[a, b, ...]`.
    List(Vec<Py>),
    /// `lambda params: body`, with each parameter's position.
    Lambda(Vec<(String, Pos)>, Box<Py>),
    /// A unary operator (`-`) and its operand.
    Unary(&'static str, Box<Py>),
    /// A binary operator (`+`, `-`, `*`, `/`, `//`, `%`) and its operands.
    Binary(&'static str, Box<Py>, Box<Py>),
}
