//! The printer of XLA's single-line form: ` + `, ` - `, ` * `, ` floordiv `, ` ceildiv `, ` mod `,
//! with parentheses exactly where they are needed to read the text back.

use std::fmt::{self, Write};

use crate::expr::{Atom, Expr, VarRef};

/// How variables are named when printed.
pub trait VarNames {
    fn write_var(&self, v: VarRef, f: &mut dyn Write) -> fmt::Result;
}

/// `d<i>` for dimensions and `s<i>` for symbols.
pub struct DefaultNames;

impl VarNames for DefaultNames {
    fn write_var(&self, v: VarRef, f: &mut dyn Write) -> fmt::Result {
        match v {
            VarRef::Dim(i) => write!(f, "d{i}"),
            VarRef::Sym(i) => write!(f, "s{i}"),
        }
    }
}

/// Explicit names, by index.
pub struct Names<'a> {
    pub dims: &'a [String],
    pub syms: &'a [String],
}

impl VarNames for Names<'_> {
    fn write_var(&self, v: VarRef, f: &mut dyn Write) -> fmt::Result {
        let name = match v {
            VarRef::Dim(i) => self.dims.get(i as usize),
            VarRef::Sym(i) => self.syms.get(i as usize),
        };
        match name {
            Some(n) => f.write_str(n),
            None => DefaultNames.write_var(v, f),
        }
    }
}

/// An expression together with the names to print it with.
pub struct DisplayExpr<'a, N: ?Sized> {
    expr: &'a Expr,
    names: &'a N,
}

impl Expr {
    /// Prints with the given variable names.
    pub fn display<'a, N: VarNames + ?Sized>(&'a self, names: &'a N) -> DisplayExpr<'a, N> {
        DisplayExpr { expr: self, names }
    }
}

impl<N: VarNames + ?Sized> fmt::Display for DisplayExpr<'_, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_sum(self.expr, self.names, f)
    }
}

fn write_sum<N: VarNames + ?Sized>(e: &Expr, names: &N, f: &mut dyn Write) -> fmt::Result {
    let terms = e.terms();
    if terms.is_empty() {
        return write!(f, "{}", e.constant_term());
    }
    for (i, (atom, coef)) in terms.iter().enumerate() {
        let (negative, magnitude) = (*coef < 0, coef.unsigned_abs());
        match (i, negative) {
            (0, true) => f.write_char('-')?,
            (0, false) => {}
            (_, true) => f.write_str(" - ")?,
            (_, false) => f.write_str(" + ")?,
        }
        // A leading minus on a lone compound atom needs parentheses: `-(d0 floordiv 2)`.
        let bare = magnitude == 1 && !(i == 0 && negative);
        write_atom(atom, names, f, !bare || matches!(atom, Atom::Var(_)))?;
        if magnitude != 1 {
            write!(f, " * {magnitude}")?;
        }
    }
    match e.constant_term() {
        0 => Ok(()),
        c if c < 0 => write!(f, " - {}", c.unsigned_abs()),
        c => write!(f, " + {c}"),
    }
}

/// Writes an atom; `grouped` asks for parentheses around a compound atom.
fn write_atom<N: VarNames + ?Sized>(
    a: &Atom,
    names: &N,
    f: &mut dyn Write,
    grouped: bool,
) -> fmt::Result {
    let (x, op, k) = match a {
        Atom::Var(v) => return names.write_var(*v, f),
        Atom::FloorDiv(x, k) => (x, "floordiv", k),
        Atom::CeilDiv(x, k) => (x, "ceildiv", k),
        Atom::Mod(x, k) => (x, "mod", k),
    };
    let compound_lhs = x.as_var().is_none();
    let open = |f: &mut dyn Write, on: bool| if on { f.write_char('(') } else { Ok(()) };
    let close = |f: &mut dyn Write, on: bool| if on { f.write_char(')') } else { Ok(()) };
    let grouped = grouped && !matches!(a, Atom::Var(_));
    open(f, grouped)?;
    open(f, compound_lhs)?;
    write_sum(x, names, f)?;
    close(f, compound_lhs)?;
    write!(f, " {op} {k}")?;
    close(f, grouped)
}
