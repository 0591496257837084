//! Symbolic bounds: quasi-affine expressions (core [`Expr`]s) combined with `min` and `max`.
//!
//! TC range inference and TVM bound inference both produce loop bounds that depend on names the
//! analysis cannot fix: tensor sizes (`I`, `N`) or enclosing loop variables (`ci.cj.fused.outer`).
//! A [`Bound`] is such a value. Arithmetic pushes through `min` and `max` (`max(a, b) + c =
//! max(a + c, b + c)`; scaling by a negative constant swaps them; `floordiv` and `ceildiv` by a
//! positive constant are monotone), so a bound stays a tree of `min`/`max` over plain expressions,
//! and candidates that another candidate provably dominates are dropped.
//!
//! Printed form: an expression prints as XLA map text does (`I floordiv 2 - 1`), except that a
//! positive constant comes first when the first term is negative (`11 - I`) and that the constant
//! inside a division is reduced to `[0, divisor)` (`(I + 1) floordiv 2 - 1`, not
//! `(I - 1) floordiv 2`). `min(a, b)` and `max(a, b)` print as calls.

use std::fmt::{self, Write};

use xla_indexing_core::interval::floor_div;
use xla_indexing_core::print::VarNames;
use xla_indexing_core::{ArithError, Atom, Expr, Interval, VarRef};

/// The most plain expressions a sum of bounds may have (see [`Bound::add`]).
pub const MAX_LEAVES: usize = 256;

/// A value built from expressions with `min` and `max`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// A quasi-affine expression.
    Expr(Expr),
    /// The least of the bounds.
    Min(Vec<Bound>),
    /// The greatest of the bounds.
    Max(Vec<Bound>),
}

/// Decides `a <= b` for every value of the variables (`false` when unknown).
pub type LeOracle<'a> = &'a dyn Fn(&Expr, &Expr) -> bool;

impl Bound {
    /// The constant `c`.
    pub fn constant(c: i64) -> Bound {
        Bound::Expr(Expr::constant(c))
    }

    /// The expression when the bound has no `min` or `max`.
    pub fn as_expr(&self) -> Option<&Expr> {
        match self {
            Bound::Expr(e) => Some(e),
            _ => None,
        }
    }

    /// The constant value when the bound is a constant.
    pub fn as_constant(&self) -> Option<i64> {
        self.as_expr().and_then(Expr::as_constant)
    }

    /// Applies `f` to every leaf expression (which must be monotone non-decreasing).
    pub fn map_leaves(
        &self,
        f: &mut impl FnMut(&Expr) -> Result<Expr, ArithError>,
    ) -> Result<Bound, ArithError> {
        Ok(match self {
            Bound::Expr(e) => Bound::Expr(normalize(&f(e)?)?),
            Bound::Min(xs) => Bound::Min(
                xs.iter()
                    .map(|x| x.map_leaves(f))
                    .collect::<Result<_, _>>()?,
            ),
            Bound::Max(xs) => Bound::Max(
                xs.iter()
                    .map(|x| x.map_leaves(f))
                    .collect::<Result<_, _>>()?,
            ),
        })
    }

    /// `self + e`.
    pub fn add_expr(&self, e: &Expr) -> Result<Bound, ArithError> {
        self.map_leaves(&mut |x| x.checked_add(e))
    }

    /// The number of plain expressions in the bound.
    pub fn leaves(&self) -> usize {
        match self {
            Bound::Expr(_) => 1,
            Bound::Min(xs) | Bound::Max(xs) => xs.iter().map(Bound::leaves).sum(),
        }
    }

    /// `self + other`, distributing over `min` and `max`. Distributing multiplies candidates:
    /// a sum with more than [`MAX_LEAVES`] of them fails (as an overflow), and callers fall back
    /// as they do for arithmetic that overflows.
    pub fn add(&self, other: &Bound) -> Result<Bound, ArithError> {
        if self.leaves().saturating_mul(other.leaves()) > MAX_LEAVES {
            return Err(ArithError::Overflow);
        }
        match other {
            Bound::Expr(e) => self.add_expr(e),
            Bound::Min(ys) => Ok(Bound::Min(
                ys.iter().map(|y| self.add(y)).collect::<Result<_, _>>()?,
            )),
            Bound::Max(ys) => Ok(Bound::Max(
                ys.iter().map(|y| self.add(y)).collect::<Result<_, _>>()?,
            )),
        }
    }

    /// `self * k`; a negative `k` turns `min` into `max` and back.
    pub fn scale(&self, k: i64) -> Result<Bound, ArithError> {
        Ok(match self {
            Bound::Expr(e) => Bound::Expr(normalize(&e.checked_scale(k)?)?),
            Bound::Min(xs) | Bound::Max(xs) => {
                let ys = xs.iter().map(|x| x.scale(k)).collect::<Result<_, _>>()?;
                if (k < 0) == matches!(self, Bound::Min(_)) {
                    Bound::Max(ys)
                } else {
                    Bound::Min(ys)
                }
            }
        })
    }

    /// `floor(self / k)` for `k > 0`.
    pub fn floor_div(&self, k: i64) -> Result<Bound, ArithError> {
        self.map_leaves(&mut |x| x.floor_div(k))
    }

    /// `ceil(self / k)` for `k > 0`.
    pub fn ceil_div(&self, k: i64) -> Result<Bound, ArithError> {
        self.map_leaves(&mut |x| x.ceil_div(k))
    }

    /// `min(items)`, flattened, without duplicates and without candidates that another one is
    /// provably at most.
    pub fn min_of(items: Vec<Bound>, le: LeOracle<'_>) -> Bound {
        Self::combine(items, true, le)
    }

    /// `max(items)`, simplified like [`Bound::min_of`].
    pub fn max_of(items: Vec<Bound>, le: LeOracle<'_>) -> Bound {
        Self::combine(items, false, le)
    }

    fn combine(items: Vec<Bound>, is_min: bool, le: LeOracle<'_>) -> Bound {
        let mut flat: Vec<Bound> = Vec::new();
        for item in items {
            match item {
                Bound::Min(xs) if is_min => flat.extend(xs),
                Bound::Max(xs) if !is_min => flat.extend(xs),
                other => flat.push(other),
            }
        }
        let mut kept: Vec<Bound> = Vec::new();
        for b in flat {
            if kept.contains(&b) {
                continue;
            }
            // `dominates(x, y)`: keeping x makes y redundant.
            let dominates = |x: &Bound, y: &Bound| match (x.as_expr(), y.as_expr()) {
                (Some(x), Some(y)) => {
                    if is_min {
                        le(x, y)
                    } else {
                        le(y, x)
                    }
                }
                _ => false,
            };
            if kept.iter().any(|k| dominates(k, &b)) {
                continue;
            }
            kept.retain(|k| !dominates(&b, k));
            kept.push(b);
        }
        match kept.len() {
            1 => kept.pop().unwrap_or_else(|| Bound::constant(0)),
            _ if is_min => Bound::Min(kept),
            _ => Bound::Max(kept),
        }
    }

    /// Replaces variables (see [`Expr::rewrite_vars`]) and simplifies with `le`.
    pub fn rewrite(
        &self,
        f: &mut impl FnMut(VarRef) -> Option<Expr>,
        le: LeOracle<'_>,
    ) -> Result<Bound, ArithError> {
        Ok(match self {
            Bound::Expr(e) => Bound::Expr(normalize(&e.rewrite_vars(f)?)?),
            Bound::Min(xs) => Bound::min_of(
                xs.iter()
                    .map(|x| x.rewrite(f, le))
                    .collect::<Result<_, _>>()?,
                le,
            ),
            Bound::Max(xs) => Bound::max_of(
                xs.iter()
                    .map(|x| x.rewrite(f, le))
                    .collect::<Result<_, _>>()?,
                le,
            ),
        })
    }

    /// The value at a point, `None` on overflow or an unknown variable.
    pub fn eval(&self, dims: &[i64], syms: &[i64]) -> Option<i64> {
        match self {
            Bound::Expr(e) => e.eval(dims, syms),
            Bound::Min(xs) => xs
                .iter()
                .map(|x| x.eval(dims, syms))
                .try_fold(i64::MAX, |m, v| Some(m.min(v?))),
            Bound::Max(xs) => xs
                .iter()
                .map(|x| x.eval(dims, syms))
                .try_fold(i64::MIN, |m, v| Some(m.max(v?))),
        }
    }

    /// Calls `f` on every variable occurrence.
    pub fn for_each_var(&self, f: &mut impl FnMut(VarRef)) {
        match self {
            Bound::Expr(e) => e.for_each_var(f),
            Bound::Min(xs) | Bound::Max(xs) => xs.iter().for_each(|x| x.for_each_var(f)),
        }
    }

    /// Prints with the given variable names.
    pub fn display<'a, N: VarNames + ?Sized>(&'a self, names: &'a N) -> DisplayBound<'a, N> {
        DisplayBound { bound: self, names }
    }
}

/// Rewrites every `floordiv`/`ceildiv` atom `(x + c) op k` so that `0 <= c < k`, moving the
/// multiple of `k` out: `(I - 1) floordiv 2` becomes `(I + 1) floordiv 2 - 1`.
pub fn normalize(e: &Expr) -> Result<Expr, ArithError> {
    let mut out = Expr::constant(e.constant_term());
    for (atom, coef) in e.terms() {
        let term = match atom {
            Atom::FloorDiv(x, k) | Atom::CeilDiv(x, k) => {
                let x = normalize(x)?;
                let c = x.constant_term();
                let q = floor_div(c, *k);
                let shifted = x.checked_add_const(
                    q.checked_mul(*k)
                        .ok_or(ArithError::Overflow)?
                        .checked_neg()
                        .ok_or(ArithError::Overflow)?,
                )?;
                let div = if matches!(atom, Atom::FloorDiv(..)) {
                    shifted.floor_div(*k)?
                } else {
                    shifted.ceil_div(*k)?
                };
                div.checked_add_const(q)?
            }
            _ => atom.map_operands(normalize)?,
        };
        out = out.checked_add(&term.checked_scale(*coef)?)?;
    }
    Ok(out)
}

/// Whether `a <= b` for all values of the variables in `ranges` (a variable not listed is
/// unbounded). Sound, not complete: interval arithmetic, except that two divisions by the same
/// constant whose dividends differ by a constant are compared as a pair.
pub fn provably_le(a: &Expr, b: &Expr, ranges: &dyn Fn(VarRef) -> Interval) -> bool {
    let Ok(d) = b.checked_sub(a) else {
        return false;
    };
    let mut terms: Vec<(Atom, i64)> = d.terms().to_vec();
    let mut acc = Interval::point(d.constant_term());
    // Pair `c * (x + p) floordiv k` with `-c * (x + q) floordiv k`.
    let mut i = 0;
    while i < terms.len() {
        let partner = match &terms[i].0 {
            Atom::FloorDiv(x, k) => terms.iter().enumerate().position(|(j, (other, c))| {
                j != i
                    && *c == -terms[i].1
                    && matches!(other, Atom::FloorDiv(y, m) if m == k
                        && y.checked_sub(x).is_ok_and(|diff| diff.as_constant().is_some()))
            }),
            _ => None,
        };
        if let Some(j) = partner {
            let (Atom::FloorDiv(x, k), Atom::FloorDiv(y, _)) = (&terms[i].0, &terms[j].0) else {
                unreachable!("both atoms were matched as divisions")
            };
            let delta = x
                .checked_sub(y)
                .ok()
                .and_then(|e| e.as_constant())
                .unwrap_or(0);
            // floor((y + delta) / k) - floor(y / k) lies in [floor(delta / k), ceil(delta / k)].
            let pair = Interval::new(
                floor_div(delta, *k),
                xla_indexing_core::interval::ceil_div(delta, *k),
            );
            acc = acc + pair.scale(terms[i].1);
            let (hi, lo) = (i.max(j), i.min(j));
            terms.remove(hi);
            terms.remove(lo);
            i = 0;
            continue;
        }
        i += 1;
    }
    for (atom, coef) in &terms {
        acc = acc + atom_range(atom, ranges).scale(*coef);
    }
    acc.lo >= 0
}

fn atom_range(atom: &Atom, ranges: &dyn Fn(VarRef) -> Interval) -> Interval {
    let sum = |x: &Expr| {
        x.terms()
            .iter()
            .fold(Interval::point(x.constant_term()), |acc, (a, c)| {
                acc + atom_range(a, ranges).scale(*c)
            })
    };
    match atom {
        Atom::Var(v) => ranges(*v),
        Atom::FloorDiv(x, k) => sum(x).floor_div(*k),
        Atom::CeilDiv(x, k) => sum(x).ceil_div(*k),
        Atom::Mod(x, k) => sum(x).modulo(*k),
        Atom::Min(a, b) => sum(a).pointwise_min(sum(b)),
        Atom::Max(a, b) => sum(a).pointwise_max(sum(b)),
        Atom::Mul(a, b) => sum(a) * sum(b),
        // A division by an expression is not bounded here.
        Atom::DivBy(..) => Interval::FULL,
    }
}

/// A bound with the names to print it with.
pub struct DisplayBound<'a, N: ?Sized> {
    bound: &'a Bound,
    names: &'a N,
}

impl<N: VarNames + ?Sized> fmt::Display for DisplayBound<'_, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.bound {
            Bound::Expr(e) => write_expr(e, self.names, f),
            Bound::Min(xs) | Bound::Max(xs) => {
                f.write_str(if matches!(self.bound, Bound::Min(_)) {
                    "min("
                } else {
                    "max("
                })?;
                for (i, x) in xs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{}", x.display(self.names))?;
                }
                f.write_char(')')
            }
        }
    }
}

/// Writes an expression as map text does, but with a positive constant first when the first
/// term is negative: `11 - I` rather than `-I + 11`.
pub fn write_expr<N: VarNames + ?Sized>(e: &Expr, names: &N, f: &mut dyn Write) -> fmt::Result {
    let c = e.constant_term();
    match e.terms().first() {
        Some((_, first)) if *first < 0 && c > 0 => {
            write!(f, "{c}")?;
            for (atom, coef) in e.terms() {
                f.write_str(if *coef < 0 { " - " } else { " + " })?;
                let magnitude = Expr::linear(vec![(atom.clone(), coef.saturating_abs())], 0)
                    .map_err(|_| fmt::Error)?;
                write!(f, "{}", magnitude.display(names))?;
            }
            Ok(())
        }
        _ => write!(f, "{}", e.display(names)),
    }
}

/// The printed form of an expression (see [`write_expr`]).
pub fn expr_to_string<N: VarNames + ?Sized>(e: &Expr, names: &N) -> String {
    let mut s = String::new();
    let _ = write_expr(e, names, &mut s);
    s
}

/// Whether `a <= b` holds for every value, deciding leaf pairs with `le`. `min`/`max` on the
/// left that must hold for all candidates are split exactly; the others need one witness.
pub fn bound_le(a: &Bound, b: &Bound, le: LeOracle<'_>) -> bool {
    match (a, b) {
        (Bound::Max(xs), _) => xs.iter().all(|x| bound_le(x, b, le)),
        (_, Bound::Min(ys)) => ys.iter().all(|y| bound_le(a, y, le)),
        (Bound::Min(xs), _) => xs.iter().any(|x| bound_le(x, b, le)),
        (_, Bound::Max(ys)) => ys.iter().any(|y| bound_le(a, y, le)),
        (Bound::Expr(x), Bound::Expr(y)) => le(x, y),
    }
}
