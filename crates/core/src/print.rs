//! The printer of XLA's single-line form: ` + `, ` - `, ` * `, ` floordiv ` (or ` / `),
//! ` ceildiv `, ` mod `, `min(a, b)`, `max(a, b)`, with parentheses where they are needed to read
//! the text back (around every operand of an infix operator that is not a variable, `min` or
//! `max`: `(d0 + 1) * d1`, `d0 floordiv (d1 * 2)`).
//!
//! Two spellings are written (both are read, see [`crate::text`]): [`Syntax::Mlir`], MLIR's affine
//! spelling and the default, and [`Syntax::Xla`], XLA's 2026 spelling with `/` for `floordiv`. An
//! expression or map is printed in the syntax it is asked for ([`DisplayExpr::in_syntax`],
//! [`IndexingMap::display`](crate::IndexingMap::display)); plain `Display` writes MLIR's. They
//! differ in the floor division's operator and in its divisor's sign: XLA writes `(-y) / k` as
//! `y / -k`, while MLIR's affine dialect lowers no division by a negative constant, so MLIR's
//! spelling keeps divisors positive. Printed text converts to XLA's operator with
//! [`Syntax::respell`].

use std::fmt::{self, Write};

use crate::expr::{Atom, Division, Expr, Extremum, VarRef};

/// How operators are spelled in map text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Syntax {
    /// MLIR's affine spelling: `floordiv`, `ceildiv`, `mod`.
    #[default]
    Mlir,
    /// XLA's spelling since 2026: `/` for `floordiv`; `ceildiv` and `mod` as in MLIR.
    Xla,
}

impl Syntax {
    /// The spelling of floor division.
    pub fn floor_div(self) -> &'static str {
        match self {
            Syntax::Mlir => "floordiv",
            Syntax::Xla => "/",
        }
    }

    /// The spelling of a division by an expression.
    pub fn division(self, which: Division) -> &'static str {
        match which {
            Division::FloorDiv => self.floor_div(),
            Division::CeilDiv | Division::Mod => which.name(),
        }
    }

    /// `text` with every map and expression that `Display` wrote in it (in MLIR's spelling) in
    /// this syntax: ` floordiv ` becomes ` / `. The printer writes floor division, and only it,
    /// as ` floordiv ` (names never hold spaces), so the result reads back as the same maps.
    /// It keeps MLIR's positive divisors: XLA's own printer writes `(-y) / k` as `y / -k`
    /// ([`IndexingMap::display`](crate::IndexingMap::display) in [`Syntax::Xla`] does too).
    pub fn respell(self, text: &str) -> String {
        match self {
            Syntax::Mlir => text.to_string(),
            Syntax::Xla => text.replace(" floordiv ", " / "),
        }
    }
}

/// How variables are named when printed.
pub trait VarNames {
    /// Writes the name of `v` to `f`.
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
    /// Names of the dimensions, by index; a dimension past the end prints as `d<i>`.
    pub dims: &'a [String],
    /// Names of the symbols (range variables, then runtime variables), by index; a symbol past the
    /// end prints as `s<i>`.
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

/// An expression together with the names and the syntax to print it with.
pub struct DisplayExpr<'a, N: ?Sized> {
    expr: &'a Expr,
    names: &'a N,
    syntax: Syntax,
}

impl<'a, N: ?Sized> DisplayExpr<'a, N> {
    /// Prints in `syntax` (MLIR's by default).
    pub fn in_syntax(self, syntax: Syntax) -> Self {
        DisplayExpr { syntax, ..self }
    }
}

impl Expr {
    /// Prints with the given variable names.
    pub fn display<'a, N: VarNames + ?Sized>(&'a self, names: &'a N) -> DisplayExpr<'a, N> {
        DisplayExpr {
            expr: self,
            names,
            syntax: Syntax::Mlir,
        }
    }
}

impl<N: VarNames + ?Sized> fmt::Display for DisplayExpr<'_, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let printer = Printer {
            names: self.names,
            syntax: self.syntax,
        };
        printer.sum(self.expr, f)
    }
}

/// Writes expressions with one naming and one syntax.
pub(crate) struct Printer<'a, N: ?Sized> {
    pub(crate) names: &'a N,
    pub(crate) syntax: Syntax,
}

impl<N: VarNames + ?Sized> Printer<'_, N> {
    /// Writes a whole expression, terms in order, the constant last.
    pub(crate) fn sum(&self, e: &Expr, f: &mut dyn Write) -> fmt::Result {
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
            // A leading minus on a lone infix atom needs parentheses: `-(d0 floordiv 2)`.
            let bare = magnitude == 1 && !(i == 0 && negative);
            self.atom(atom, f, !bare)?;
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

    /// Writes an atom; `grouped` asks for parentheses around an infix one (a division, `mod` or
    /// product: variables, `min` and `max` never need them).
    fn atom(&self, a: &Atom, f: &mut dyn Write, grouped: bool) -> fmt::Result {
        let (x, op, k) = match a {
            Atom::Var(v) => return self.names.write_var(*v, f),
            Atom::Min(x, y) => return self.extremum(Extremum::Min, x, y, f),
            Atom::Max(x, y) => return self.extremum(Extremum::Max, x, y, f),
            Atom::Mul(x, y) => return self.infix(x, "*", &|f| self.operand(y, f), f, grouped),
            Atom::DivBy(which, x, y) => {
                let op = self.syntax.division(*which);
                return self.infix(x, op, &|f| self.operand(y, f), f, grouped);
            }
            Atom::FloorDiv(x, k) => (x, self.syntax.floor_div(), *k),
            Atom::CeilDiv(x, k) => (x, "ceildiv", *k),
            Atom::Mod(x, k) => (x, "mod", *k),
        };
        // XLA writes `(-y) / k` as `y / -k`. MLIR's affine dialect lowers no division by a
        // negative constant (`lower-affine` rejects it), so its spelling keeps divisors positive.
        let negated = match self.syntax {
            Syntax::Xla => a.with_negative_divisor(),
            Syntax::Mlir => None,
        };
        let (x, k) = match &negated {
            Some((y, negative_k)) => (y, *negative_k),
            None => (x, k),
        };
        self.infix(x, op, &|f| write!(f, "{k}"), f, grouped)
    }

    /// Writes `lhs op rhs`, in parentheses when `grouped`; the left operand as [`Printer::operand`].
    fn infix(
        &self,
        lhs: &Expr,
        op: &str,
        rhs: &dyn Fn(&mut dyn Write) -> fmt::Result,
        f: &mut dyn Write,
        grouped: bool,
    ) -> fmt::Result {
        if grouped {
            f.write_char('(')?;
        }
        self.operand(lhs, f)?;
        write!(f, " {op} ")?;
        rhs(f)?;
        if grouped {
            f.write_char(')')?;
        }
        Ok(())
    }

    /// Writes an operand of an infix operator, in parentheses unless it reads as one
    /// ([`is_primary`]).
    fn operand(&self, x: &Expr, f: &mut dyn Write) -> fmt::Result {
        if is_primary(x) {
            return self.sum(x, f);
        }
        f.write_char('(')?;
        self.sum(x, f)?;
        f.write_char(')')
    }

    /// Writes `min(a, b)` or `max(a, b)`.
    fn extremum(&self, which: Extremum, a: &Expr, b: &Expr, f: &mut dyn Write) -> fmt::Result {
        write!(f, "{}(", which.name())?;
        self.sum(a, f)?;
        f.write_str(", ")?;
        self.sum(b, f)?;
        f.write_char(')')
    }
}

/// Whether `x` reads as one operand without parentheses: a constant (a leading minus belongs to
/// it), a variable, `min(..)` or `max(..)`.
fn is_primary(x: &Expr) -> bool {
    x.as_constant().is_some()
        || matches!(
            x.as_atom(),
            Some(Atom::Var(_) | Atom::Min(..) | Atom::Max(..))
        )
}

/// Expressions debug-print as their text, with `d<i>` and `s<i>` names.
impl fmt::Debug for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.display(&DefaultNames))
    }
}
