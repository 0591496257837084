//! The syntax tree of a schedule file: a small subset of Python.

use crate::error::Pos;

/// One line: `targets = value` or a bare expression (a method call such as `compute_at`).
#[derive(Clone, Debug)]
pub struct Line {
    pub targets: Vec<(String, Pos)>,
    pub value: Py,
}

/// A Python expression with its position.
#[derive(Clone, Debug)]
pub struct Py {
    pub kind: PyKind,
    pub pos: Pos,
}

/// The expression forms the schedules of the InferBound seed use.
#[derive(Clone, Debug)]
pub enum PyKind {
    Int(i64),
    Float(String),
    Str(String),
    Name(String),
    /// `value.name`
    Attr(Box<Py>, String),
    /// `f(args, key=value)`
    Call {
        func: Box<Py>,
        args: Vec<Py>,
        kwargs: Vec<(String, Py)>,
    },
    /// `value[indices]`
    Index(Box<Py>, Vec<Py>),
    Tuple(Vec<Py>),
    List(Vec<Py>),
    Lambda(Vec<(String, Pos)>, Box<Py>),
    Unary(&'static str, Box<Py>),
    Binary(&'static str, Box<Py>, Box<Py>),
}
