//! The rewrite rules for XLA's non-affine atoms: the product of two expressions and the division
//! of an expression by another. Notation as in [`super::rules`]; `y` is a non-constant divisor and
//! `R(y)` its range over the domain. A division by `y` is undefined where `y = 0`, so every rule
//! that takes a division apart asks for `0 ∉ R(y)`: then the input is defined at every point and
//! the rewrite equals it there.

use crate::expr::{Atom, Division, Expr};

use super::Simplifier;

/// `a * b` after its operands were simplified: rebuilt, so that an operand the bounds fixed to
/// a constant scales the other (**product-of-point**: `a * b = c * b` where `R(a) = {c}`).
pub(crate) fn product(a: &Expr, b: &Expr) -> Expr {
    a.checked_mul(b)
        .unwrap_or_else(|_| Expr::atom(Atom::Mul(a.clone(), b.clone())))
}

/// `x floordiv y`, `x ceildiv y` or `x mod y` after both were simplified: the cheapest safe one of
/// the division rebuilt (by a constant where the bounds fixed `y`), **multiples-of-divisor** and
/// **below-divisor**.
pub(crate) fn divide_by(s: &Simplifier<'_, '_>, which: Division, x: &Expr, y: &Expr) -> Expr {
    let fallback = || Expr::atom(Atom::DivBy(which, x.clone(), y.clone()));
    let rebuilt = x.divide_by(which, y).unwrap_or_else(|_| fallback());
    if y.as_constant().is_some() || !never_zero(s, y) {
        return rebuilt;
    }
    let mut candidates = vec![rebuilt];
    candidates.extend(multiples_of_divisor(which, x, y));
    candidates.extend(below_divisor(s, which, x, y));
    s.cheapest(candidates).unwrap_or_else(fallback)
}

/// Whether `0 ∉ R(y)`.
fn never_zero(s: &Simplifier<'_, '_>, y: &Expr) -> bool {
    let r = s.ev.range(y);
    0 < r.lo || r.hi < 0
}

/// **multiples-of-divisor**: with `x = y*q + r`, where `q` gathers the terms of `x` that are
/// products with `y` (`c * (p * z)` where `y = f * p` and `f` divides `c`, giving `(c / f) * z`;
/// `c * p` where `p` is one atom, giving `c / f`):
/// `x floordiv y = q + r floordiv y`, `x ceildiv y = q + r ceildiv y` and `x mod y = r mod y`.
/// Holds where `y != 0` (`(y*q + r) / y = q + r / y` with `q` an integer, under either rounding),
/// so the caller asks for `0 ∉ R(y)`. With `r = 0` it gives `(a * b) floordiv b = a` and
/// `(a * b) mod b = 0`. `None` when no term is such a multiple.
fn multiples_of_divisor(which: Division, x: &Expr, y: &Expr) -> Option<Expr> {
    let (f, p) = y.primitive_part();
    let quotient_of = |atom: &Atom, c: i64| -> Option<Expr> {
        if c % f != 0 {
            return None;
        }
        let q = c / f;
        match atom {
            Atom::Mul(a, b) if *a == p => b.checked_scale(q).ok(),
            Atom::Mul(a, b) if *b == p => a.checked_scale(q).ok(),
            _ if p.as_atom() == Some(atom) => Some(Expr::constant(q)),
            _ => None,
        }
    };
    let (mut quotient, mut rest, mut found) = (Expr::zero(), x.clone(), false);
    for (atom, c) in x.terms() {
        if let Some(q) = quotient_of(atom, *c) {
            quotient = quotient.checked_add(&q).ok()?;
            rest = rest.without_term(atom);
            found = true;
        }
    }
    if !found {
        return None;
    }
    let divided = rest.divide_by(which, y).ok()?;
    match which {
        Division::Mod => Some(divided),
        Division::FloorDiv | Division::CeilDiv => quotient.checked_add(&divided).ok(),
    }
}

/// **below-divisor**: where `0 < y` on the domain, `x floordiv y = 0` and `x mod y = x` when
/// `0 <= x < y` at every point (`R(x) ⊆ [0, ∞)` and `R(y - x) ⊆ [1, ∞)`, correlated terms
/// cancelling in the difference), and `x ceildiv y = 1` when `0 < x <= y` at every point.
fn below_divisor(s: &Simplifier<'_, '_>, which: Division, x: &Expr, y: &Expr) -> Option<Expr> {
    if s.ev.range(y).lo <= 0 {
        return None;
    }
    let (x_lo, gap_lo) = (s.ev.range(x).lo, s.ev.range(&y.checked_sub(x).ok()?).lo);
    match which {
        Division::FloorDiv => (0 <= x_lo && 1 <= gap_lo).then(Expr::zero),
        Division::Mod => (0 <= x_lo && 1 <= gap_lo).then(|| x.clone()),
        Division::CeilDiv => (1 <= x_lo && 0 <= gap_lo).then(|| Expr::constant(1)),
    }
}
