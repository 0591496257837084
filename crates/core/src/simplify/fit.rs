//! **affine-fit**: a function of a few unknowns that span a small box is replaced by the affine
//! function `Σ c_i*u_i + b` that agrees with it at *every* point of that box (the coefficients come
//! from unit steps at the box's corner, then every point is checked). It holds exactly when the
//! check passes: the unknowns only take values inside their boxes.
//!
//! Two kinds of unknowns are used. For a whole expression (one with a division, `mod`, `min` or
//! `max`), its variables with their bounds (so correlated sub-expressions are seen together). For
//! one `floordiv`/`ceildiv`/`mod` atom, the summands of its argument with their ranges (so
//! `((x mod 2) * 3 + 6) floordiv 8 = x mod 2`).

use crate::expr::{Atom, Expr};
use crate::interval::{Interval, ceil_div, floor_div, mod_floor, next_point};
use crate::range::RangeEvaluator;

use super::Budget;

/// Largest number of unknowns for which a fit is tried.
const MAX_UNKNOWNS: usize = 4;

/// Why a fit found no affine form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NoFit {
    /// Too many unknowns or points: nothing was evaluated.
    Skipped,
    /// The value at some point is undefined (it leaves 64 bits).
    Undefined,
    /// The values at two points disagree with every affine function.
    NotAffine,
}

/// The affine form of `e` that the fits find: of its atom in the summands of the argument, else
/// of the whole expression in its variables. The second fit is skipped where the first showed
/// the same function not affine on the same box (an atom whose argument is a sum of variables:
/// its summands are its variables, their ranges their bounds).
pub(crate) fn affine_form(e: &Expr, ev: &RangeEvaluator<'_>, budget: &Budget) -> Option<Expr> {
    let of_atom = match e.as_atom() {
        Some(a) => atom_fit(a, ev, budget.atom_fit_points),
        None => Err(NoFit::Skipped),
    };
    let over_variables = || {
        e.as_atom()
            .and_then(|a| a.operands().next())
            .is_some_and(|x| x.terms().iter().all(|(t, _)| matches!(t, Atom::Var(_))))
    };
    match of_atom {
        Ok(f) => Some(f),
        Err(NoFit::NotAffine) if over_variables() => None,
        Err(_) => affine_fit(e, ev, budget.expr_fit_points).ok(),
    }
}

/// The coefficients (one per range, in an array of `MAX_UNKNOWNS`) and the constant of the
/// affine function equal to `f` on the box `ranges`, if there is one, the box has at most
/// `max_points` points and at most `MAX_UNKNOWNS` dimensions.
fn fit_box(
    ranges: &[Interval],
    f: impl Fn(&[i64]) -> Option<i64>,
    max_points: u128,
) -> Result<([i64; MAX_UNKNOWNS], i64), NoFit> {
    if ranges.len() > MAX_UNKNOWNS {
        return Err(NoFit::Skipped);
    }
    let points = ranges
        .iter()
        .try_fold(1u128, |acc, r| {
            (r.count() > 0).then(|| acc.saturating_mul(r.count()))
        })
        .ok_or(NoFit::Skipped)?;
    if points > max_points {
        return Err(NoFit::Skipped);
    }
    let f = |p: &[i64]| f(p).ok_or(NoFit::Undefined);
    let mut corner = [0; MAX_UNKNOWNS];
    for (c, r) in corner.iter_mut().zip(ranges) {
        *c = r.lo;
    }
    let point = &mut corner[..ranges.len()];
    let base = f(point)?;
    let mut coefficients = [0; MAX_UNKNOWNS];
    for (i, r) in ranges.iter().enumerate() {
        if r.lo == r.hi {
            continue;
        }
        point[i] = r.lo + 1;
        coefficients[i] = f(point)?.checked_sub(base).ok_or(NoFit::Undefined)?;
        point[i] = r.lo;
    }
    let mut constant = base;
    for (c, r) in coefficients.iter().zip(ranges) {
        constant = c
            .checked_mul(r.lo)
            .and_then(|t| constant.checked_sub(t))
            .ok_or(NoFit::Undefined)?;
    }
    let affine = |p: &[i64]| {
        p.iter()
            .zip(&coefficients)
            .try_fold(constant, |acc, (x, c)| acc.checked_add(x.checked_mul(*c)?))
            .ok_or(NoFit::Undefined)
    };
    loop {
        if f(point)? != affine(point)? {
            return Err(NoFit::NotAffine);
        }
        if !next_point(point, ranges) {
            return Ok((coefficients, constant));
        }
    }
}

/// `Σ c_i*u_i + b` as an expression.
fn build(
    unknowns: impl Iterator<Item = Atom>,
    coefficients: [i64; MAX_UNKNOWNS],
    constant: i64,
) -> Result<Expr, NoFit> {
    Expr::linear(unknowns.zip(coefficients).collect(), constant).map_err(|_| NoFit::Undefined)
}

/// The affine form of a whole expression over the box of its variables.
fn affine_fit(e: &Expr, ev: &RangeEvaluator<'_>, max_points: u128) -> Result<Expr, NoFit> {
    if e.terms().iter().all(|(a, _)| matches!(a, Atom::Var(_))) {
        return Err(NoFit::Skipped);
    }
    let vars = e.distinct_vars();
    if vars.len() > MAX_UNKNOWNS {
        return Err(NoFit::Skipped);
    }
    let map = ev.map();
    let mut ranges = [Interval::point(0); MAX_UNKNOWNS];
    for (r, v) in ranges.iter_mut().zip(&vars) {
        *r = map.var(*v).ok_or(NoFit::Skipped)?.bounds;
    }
    let f = |p: &[i64]| e.eval_at(&|v| Some(p[vars.binary_search(&v).ok()?]));
    let (coefficients, constant) = fit_box(&ranges[..vars.len()], f, max_points)?;
    build(vars.into_iter().map(Atom::Var), coefficients, constant)
}

/// The affine form of one division or `mod` atom in the summands of its argument.
fn atom_fit(atom: &Atom, ev: &RangeEvaluator<'_>, max_points: u128) -> Result<Expr, NoFit> {
    let (x, k) = match atom {
        Atom::Var(_) | Atom::Min(..) | Atom::Max(..) | Atom::Mul(..) | Atom::DivBy(..) => {
            return Err(NoFit::Skipped);
        }
        Atom::FloorDiv(x, k) | Atom::CeilDiv(x, k) | Atom::Mod(x, k) => (x, *k),
    };
    if x.terms().len() > MAX_UNKNOWNS {
        return Err(NoFit::Skipped);
    }
    let mut ranges = [Interval::point(0); MAX_UNKNOWNS];
    for (r, (t, _)) in ranges.iter_mut().zip(x.terms()) {
        *r = ev.atom_range(t);
    }
    let f = |p: &[i64]| {
        let value = x
            .terms()
            .iter()
            .zip(p)
            .try_fold(x.constant_term(), |acc, ((_, a), v)| {
                acc.checked_add(a.checked_mul(*v)?)
            })?;
        Some(match atom {
            Atom::FloorDiv(..) => floor_div(value, k),
            Atom::CeilDiv(..) => ceil_div(value, k),
            _ => mod_floor(value, k),
        })
    };
    let (coefficients, constant) = fit_box(&ranges[..x.terms().len()], f, max_points)?;
    build(
        x.terms().iter().map(|(t, _)| t.clone()),
        coefficients,
        constant,
    )
}
