//! **affine-fit**: an expression whose variables span a small box is replaced by the affine
//! function `Σ c_i*v_i + b` that agrees with it at *every* point of that box (the coefficients come
//! from unit steps at the box's corner, then every point is checked). Holds exactly when the check
//! passes; the box contains the domain, so the values on the domain are unchanged.

use crate::expr::{Atom, Expr, VarRef};
use crate::interval::Interval;
use crate::range::RangeEvaluator;

/// Largest number of distinct variables and of box points for which a fit is tried.
pub(crate) const MAX_VARS: usize = 4;

/// The affine form of `e` over the box of its variables, if it has one and the box has at most
/// `max_points` points.
pub(crate) fn affine_fit(e: &Expr, ev: &RangeEvaluator<'_>, max_points: u128) -> Option<Expr> {
    if !e.terms().iter().any(|(a, _)| a.is_div_or_mod()) {
        return None;
    }
    let mut vars: Vec<VarRef> = Vec::new();
    e.for_each_var(&mut |v| {
        if !vars.contains(&v) {
            vars.push(v);
        }
    });
    if vars.len() > MAX_VARS {
        return None;
    }
    let map = ev.map();
    let bounds: Vec<Interval> = vars
        .iter()
        .map(|v| map.var(*v).map(|x| x.bounds))
        .collect::<Option<_>>()?;
    let points = bounds.iter().try_fold(1u128, |acc, b| {
        let n = b.count();
        (n > 0).then(|| acc.saturating_mul(n))
    })?;
    if points > max_points {
        return None;
    }
    let mut dims = vec![0i64; map.dims().len()];
    let mut syms = vec![0i64; map.num_symbols()];
    let set = |v: VarRef, x: i64, dims: &mut Vec<i64>, syms: &mut Vec<i64>| match v {
        VarRef::Dim(i) => dims[i as usize] = x,
        VarRef::Sym(i) => syms[i as usize] = x,
    };
    for (v, b) in vars.iter().zip(&bounds) {
        set(*v, b.lo, &mut dims, &mut syms);
    }
    let base = e.eval(&dims, &syms)?;
    let mut coefficients = Vec::with_capacity(vars.len());
    for (v, b) in vars.iter().zip(&bounds) {
        if b.lo == b.hi {
            coefficients.push(0);
            continue;
        }
        set(*v, b.lo + 1, &mut dims, &mut syms);
        coefficients.push(e.eval(&dims, &syms)?.checked_sub(base)?);
        set(*v, b.lo, &mut dims, &mut syms);
    }
    let mut constant = base;
    for (c, b) in coefficients.iter().zip(&bounds) {
        constant = constant.checked_sub(c.checked_mul(b.lo)?)?;
    }
    let terms = vars
        .iter()
        .zip(&coefficients)
        .map(|(v, c)| (Atom::Var(*v), *c))
        .collect();
    let fitted = Expr::linear(terms, constant).ok()?;
    // Check every point of the box, odometer order.
    let mut point: Vec<i64> = bounds.iter().map(|b| b.lo).collect();
    loop {
        for (v, x) in vars.iter().zip(&point) {
            set(*v, *x, &mut dims, &mut syms);
        }
        if e.eval(&dims, &syms)? != fitted.eval(&dims, &syms)? {
            return None;
        }
        let mut i = 0;
        loop {
            if i == point.len() {
                return Some(fitted);
            }
            if point[i] < bounds[i].hi {
                point[i] += 1;
                break;
            }
            point[i] = bounds[i].lo;
            i += 1;
        }
    }
}
