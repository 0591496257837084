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

/// Largest number of unknowns for which a fit is tried.
const MAX_UNKNOWNS: usize = 4;

/// The coefficients and constant of the affine function equal to `f` on the box `ranges`, if
/// there is one and the box has at most `max_points` points.
fn fit_box(
    ranges: &[Interval],
    f: impl Fn(&[i64]) -> Option<i64>,
    max_points: u128,
) -> Option<(Vec<i64>, i64)> {
    if ranges.len() > MAX_UNKNOWNS {
        return None;
    }
    let points = ranges.iter().try_fold(1u128, |acc, r| {
        (r.count() > 0).then(|| acc.saturating_mul(r.count()))
    })?;
    if points > max_points {
        return None;
    }
    let mut point: Vec<i64> = ranges.iter().map(|r| r.lo).collect();
    let base = f(&point)?;
    let mut coefficients = Vec::with_capacity(ranges.len());
    for (i, r) in ranges.iter().enumerate() {
        if r.lo == r.hi {
            coefficients.push(0);
            continue;
        }
        point[i] = r.lo + 1;
        coefficients.push(f(&point)?.checked_sub(base)?);
        point[i] = r.lo;
    }
    let mut constant = base;
    for (c, r) in coefficients.iter().zip(ranges) {
        constant = constant.checked_sub(c.checked_mul(r.lo)?)?;
    }
    let affine = |p: &[i64]| {
        p.iter()
            .zip(&coefficients)
            .try_fold(constant, |acc, (x, c)| acc.checked_add(x.checked_mul(*c)?))
    };
    loop {
        if f(&point)? != affine(&point)? {
            return None;
        }
        if !next_point(&mut point, ranges) {
            return Some((coefficients, constant));
        }
    }
}

/// `Σ c_i*u_i + b` as an expression.
fn build(unknowns: Vec<Atom>, coefficients: Vec<i64>, constant: i64) -> Option<Expr> {
    Expr::linear(unknowns.into_iter().zip(coefficients).collect(), constant).ok()
}

/// The affine form of a whole expression over the box of its variables.
pub(crate) fn affine_fit(e: &Expr, ev: &RangeEvaluator<'_>, max_points: u128) -> Option<Expr> {
    if e.terms().iter().all(|(a, _)| matches!(a, Atom::Var(_))) {
        return None;
    }
    let vars = e.distinct_vars();
    let map = ev.map();
    let ranges: Vec<Interval> = vars
        .iter()
        .map(|v| map.var(*v).map(|x| x.bounds))
        .collect::<Option<_>>()?;
    let f = |p: &[i64]| e.eval_at(&|v| Some(p[vars.binary_search(&v).ok()?]));
    let (coefficients, constant) = fit_box(&ranges, f, max_points)?;
    build(
        vars.into_iter().map(Atom::Var).collect(),
        coefficients,
        constant,
    )
}

/// The affine form of one division or `mod` atom in the summands of its argument.
pub(crate) fn atom_fit(atom: &Atom, ev: &RangeEvaluator<'_>, max_points: u128) -> Option<Expr> {
    let (x, k) = match atom {
        Atom::Var(_) | Atom::Min(..) | Atom::Max(..) => return None,
        Atom::FloorDiv(x, k) | Atom::CeilDiv(x, k) | Atom::Mod(x, k) => (x, *k),
    };
    let unknowns: Vec<Atom> = x.terms().iter().map(|(t, _)| t.clone()).collect();
    let ranges: Vec<Interval> = unknowns.iter().map(|t| ev.atom_range(t)).collect();
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
    let (coefficients, constant) = fit_box(&ranges, f, max_points)?;
    build(unknowns, coefficients, constant)
}
