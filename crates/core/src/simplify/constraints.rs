//! Simplification of a map's constraints: each constraint is simplified and normalised, those that
//! always hold are dropped, those that cannot hold make the map known empty, bounds of variables
//! are tightened, and `mod` constraints on one expression are merged.

use std::collections::BTreeMap;

use crate::expr::{ArithError, Atom, Expr, VarRef};
use crate::interval::{Interval, ceil_div, floor_div, mod_floor};
use crate::map::IndexingMap;
use crate::range::{ceil_div_wide, floor_div_wide};

use super::{Budget, Memo, hull::satisfying_hull, simplify_expr_in};

/// Simplifies the constraints of `map` to a fixed point (bounded by the budget's rounds).
/// Returns whether the domain changed (bounds, constraints or emptiness); a map without
/// constraints is left as it is.
pub(crate) fn simplify_constraints(map: &mut IndexingMap, budget: Budget) -> bool {
    if map.known_empty || map.constraints.is_empty() {
        return false;
    }
    let before = (
        map.constraints.clone(),
        map.all_vars().map(|v| v.bounds).collect::<Vec<_>>(),
    );
    simplify_to_fixpoint(map, budget);
    map.known_empty || map.constraints != before.0 || !map.all_vars().map(|v| v.bounds).eq(before.1)
}

/// [`simplify_constraints`] without the report.
fn simplify_to_fixpoint(map: &mut IndexingMap, budget: Budget) {
    let mut memo = BoundsMemo::default();
    // Enumeration may fix variables to points, which lets the rules go further: one more round.
    let mut hull_exact = false;
    for _ in 0..2 {
        simplify_constraints_to_fixpoint(map, budget, &mut memo);
        if map.known_empty || map.constraints.is_empty() {
            return;
        }
        if hull_exact {
            // The bounds are the domain's hull already, and the rules keep the domain: a
            // second enumeration would find the same hull, so only the constraints it would
            // drop go.
            drop_constraints_that_always_hold(map);
            return;
        }
        // Enumerating the whole box finds the exact hull of the domain, which every
        // constraint's own hull contains: the constraints alone are enumerated only where the
        // whole box is too large (their hulls may shrink it enough).
        let each =
            map.box_size() > budget.enumeration_limit && tighten_by_each_constraint(map, budget);
        let whole = if map.known_empty {
            None
        } else {
            tighten_by_enumeration(map, budget.enumeration_limit)
        };
        hull_exact = whole.is_some();
        if !each && whole != Some(true) {
            return;
        }
    }
}

/// The simplifier's [`Memo`] over a map's variable bounds alone (constraints are simplified
/// without using constraints), kept while the bounds stay.
#[derive(Default)]
struct BoundsMemo {
    bounds: Vec<Interval>,
    memo: Memo,
}

impl BoundsMemo {
    /// The memo for the current bounds of `map` (a fresh one if they changed).
    fn over(&mut self, map: &IndexingMap) -> &Memo {
        if !map
            .all_vars()
            .map(|v| v.bounds)
            .eq(self.bounds.iter().copied())
        {
            self.bounds = map.all_vars().map(|v| v.bounds).collect();
            self.memo = Memo::default();
        }
        &self.memo
    }
}

fn simplify_constraints_to_fixpoint(map: &mut IndexingMap, budget: Budget, memo: &mut BoundsMemo) {
    for _ in 0..budget.rounds.max(1) {
        if map.known_empty {
            return;
        }
        let before = (
            map.constraints.clone(),
            map.all_vars().map(|v| v.bounds).collect::<Vec<_>>(),
        );
        let constraints = std::mem::take(&mut map.constraints);
        for (e, iv) in constraints {
            // Constraints are simplified over the variable bounds alone: a constraint must not be
            // used to justify rewriting itself.
            let memo = memo.over(map);
            let ev = map.range_evaluator(false);
            let simplified = simplify_expr_in(&e, &ev, budget, memo);
            let (e, iv) = match normalize(map, simplified.clone(), iv) {
                // A point of the domain evaluates the constraint: a form that could overflow
                // there would lose it.
                (normal, niv) if normal == simplified || ev.never_overflows(&normal) => {
                    (normal, niv)
                }
                _ => (simplified, iv),
            };
            let range = ev.range(&e);
            // A constraint holds where it cannot overflow and its range lies inside.
            if iv.contains_interval(range) && e.as_var().is_none() && ev.never_overflows(&e) {
                continue;
            }
            if !range.intersect(iv).is_feasible() {
                map.mark_empty();
                return;
            }
            map.add_constraint(e, iv);
        }
        merge_mod_constraints(map);
        propagate_linear_bounds(map);
        let after = (
            map.constraints.clone(),
            map.all_vars().map(|v| v.bounds).collect::<Vec<_>>(),
        );
        if after == before {
            return;
        }
    }
}

/// Normalises `e in iv` step by step:
/// - **constant**: `e + c in [lo, hi]` ⟺ `e in [lo - c, hi - c]`;
/// - **content**: `g*e in [lo, hi]` ⟺ `e in [ceil(lo/g), floor(hi/g)]` (g > 0), and a negative
///   leading coefficient is flipped: `-e in [lo, hi]` ⟺ `e in [-hi, -lo]`;
/// - **floordiv**: `e floordiv k in [lo, hi]` ⟺ `e in [lo*k, hi*k + k - 1]`;
/// - **mod residue**: `(e + c) mod k in [r, r]` ⟺ `e mod k in [(r - c) mod k, (r - c) mod k]` for
///   `0 <= r < k`;
/// - **irrelevant remainder**: `g*a + b in [lo, hi]` ⟺ `a in [L, H]` when
///   `L = ceil((lo - b)/g)` and `H = floor((hi - b)/g)` are the same for every value of `b`.
fn normalize(map: &IndexingMap, mut e: Expr, mut iv: Interval) -> (Expr, Interval) {
    for _ in 0..8 {
        let Some((ne, niv)) = normalize_step(map, &e, iv) else {
            break;
        };
        if !niv.is_feasible() {
            return (ne, niv);
        }
        (e, iv) = (ne, niv);
    }
    (e, iv)
}

fn normalize_step(map: &IndexingMap, e: &Expr, iv: Interval) -> Option<(Expr, Interval)> {
    let c = e.constant_term();
    if c != 0 && !e.terms().is_empty() {
        let shifted = Interval::new(iv.lo.checked_sub(c)?, iv.hi.checked_sub(c)?);
        return Some((e.without_constant(), shifted));
    }
    let (first, lead) = e.terms().first()?;
    if *lead < 0 {
        return Some((
            e.checked_scale(-1).ok()?,
            Interval::new(iv.hi.checked_neg()?, iv.lo.checked_neg()?),
        ));
    }
    let g = e.content();
    if g > 1 {
        let divided = Expr::linear(
            e.terms().iter().map(|(a, k)| (a.clone(), k / g)).collect(),
            0,
        )
        .ok()?;
        return Some((
            divided,
            Interval::new(ceil_div(iv.lo, g), floor_div(iv.hi, g)),
        ));
    }
    if e.terms().len() == 1 && *lead == 1 {
        match first {
            Atom::FloorDiv(x, k) => {
                let lo = iv.lo.checked_mul(*k)?;
                let hi = iv.hi.checked_mul(*k)?.checked_add(k - 1)?;
                return Some((x.clone(), Interval::new(lo, hi)));
            }
            Atom::Mod(x, k) if x.constant_term() != 0 => {
                let r = iv.as_point().filter(|r| (0..*k).contains(r))?;
                let residue = mod_floor(r.checked_sub(x.constant_term())?, *k);
                let inner = x.without_constant().modulo(*k).ok()?;
                return Some((inner, Interval::point(residue)));
            }
            _ => {}
        }
    }
    irrelevant_remainder(map, e, iv)
}

fn irrelevant_remainder(map: &IndexingMap, e: &Expr, iv: Interval) -> Option<(Expr, Interval)> {
    if e.terms().len() < 2 {
        return None;
    }
    let ev = map.range_evaluator(false);
    let mut gs: Vec<i64> = e
        .terms()
        .iter()
        .filter_map(|(_, c)| c.checked_abs())
        .filter(|c| *c > 1)
        .collect();
    gs.sort_unstable_by(|a, b| b.cmp(a));
    gs.dedup();
    for g in gs {
        let (mult, rest): (Vec<_>, Vec<_>) =
            e.terms().iter().cloned().partition(|(_, c)| c % g == 0);
        if rest.is_empty() {
            continue;
        }
        let a = Expr::linear(mult.into_iter().map(|(t, c)| (t, c / g)).collect(), 0).ok()?;
        let b = Expr::linear(rest, 0).ok()?;
        let rb = ev.range(&b);
        if rb == Interval::FULL {
            continue;
        }
        // `ceil((v - b) / g)` and `floor((v - b) / g)`, exact in `i128`, for `g > 1`.
        let (g_wide, wide) = (i128::from(g), |v: i64| i128::from(v));
        let ceil = |v: i64, b: i64| -(wide(b) - wide(v)).div_euclid(g_wide);
        let floor = |v: i64, b: i64| (wide(v) - wide(b)).div_euclid(g_wide);
        let (lo, hi) = (ceil(iv.lo, rb.hi), floor(iv.hi, rb.hi));
        if lo == ceil(iv.lo, rb.lo)
            && hi == floor(iv.hi, rb.lo)
            && let (Ok(lo), Ok(hi)) = (i64::try_from(lo), i64::try_from(hi))
        {
            return Some((a, Interval::new(lo, hi)));
        }
    }
    None
}

/// **merge-mod**: `x mod c1 in [r1, r1]` and `x mod c2 in [r2, r2]` together hold exactly when
/// `x mod lcm(c1, c2) in [r, r]` for the `r` of the Chinese remainder theorem, and never when
/// `r1 != r2 (mod gcd(c1, c2))`. A bare variable with `x mod c in [r, r]` gets its bounds moved to
/// the nearest values congruent to `r`.
pub(crate) fn merge_mod_constraints(map: &mut IndexingMap) {
    let mods: Vec<(Expr, Expr, i64, i64)> = map
        .constraints
        .iter()
        .filter_map(|(e, iv)| match e.as_atom()? {
            Atom::Mod(x, c) => Some((e.clone(), x.clone(), *c, iv.as_point()?)),
            _ => None,
        })
        .collect();
    // Per argument `x`: the modulus and residue of everything known about `x` so far.
    let mut merged: BTreeMap<Expr, (i64, i64)> = BTreeMap::new();
    let mut consumed = Vec::new();
    for (key, x, c, r) in mods {
        if !(0..c).contains(&r) {
            continue;
        }
        match merged.get_mut(&x) {
            None => {
                merged.insert(x, (c, r));
            }
            Some(slot) => match crt(slot.1, slot.0, r, c) {
                Ok(Some((r, m))) => *slot = (m, r),
                Ok(None) => {
                    map.mark_empty();
                    return;
                }
                // The merged modulus would leave i64: this constraint stays as it is.
                Err(_) => continue,
            },
        }
        consumed.push(key);
    }
    for key in &consumed {
        map.constraints.remove(key);
    }
    for (x, (m, r)) in merged {
        if let Some(v @ (VarRef::Dim(_) | VarRef::Sym(_))) = x.as_var() {
            let b = map.var(v).map(|v| v.bounds).unwrap_or(Interval::FULL);
            // The nearest values congruent to `r` inside the bounds, exact in `i128` (`m > 0`).
            let (b_lo, b_hi, r, m) = (
                i128::from(b.lo),
                i128::from(b.hi),
                i128::from(r),
                i128::from(m),
            );
            let lo = b_lo + (r - b_lo).rem_euclid(m);
            let hi = b_hi - (b_hi - r).rem_euclid(m);
            if let (Ok(lo), Ok(hi)) = (i64::try_from(lo), i64::try_from(hi)) {
                map.add_constraint(x.clone(), Interval::new(lo, hi));
            }
        }
        match x.modulo(m) {
            Ok(key) if key.as_constant().is_none() => map.add_constraint(key, Interval::point(r)),
            Ok(key) => {
                if key.as_constant() != Some(r) {
                    map.mark_empty();
                }
            }
            Err(_) => {}
        }
        if map.known_empty {
            return;
        }
    }
}

/// Solves `x ≡ r1 (mod m1)`, `x ≡ r2 (mod m2)` for `0 <= r1 < m1` and `0 <= r2 < m2`:
/// `Ok(Some((r, l)))` with `l = lcm(m1, m2)` and `0 <= r < l`, `Ok(None)` when no `x` solves both, an
/// overflow error when `l` leaves i64. With `g = gcd(m1, m2)` a solution exists exactly when `g`
/// divides `r2 - r1`; then `x = r1 + m1*t` with `t ≡ ((r2 - r1)/g) * (m1/g)^-1 (mod m2/g)`.
fn crt(r1: i64, m1: i64, r2: i64, m2: i64) -> Result<Option<(i64, i64)>, ArithError> {
    let (r1, m1, r2, m2) = (
        i128::from(r1),
        i128::from(m1),
        i128::from(r2),
        i128::from(m2),
    );
    let (g, inverse) = gcd_and_inverse(m1, m2);
    if (r2 - r1) % g != 0 {
        return Ok(None);
    }
    let step = m2 / g;
    let l = m1 * step;
    let t = ((r2 - r1) / g % step * inverse).rem_euclid(step);
    let r = (r1 + m1 * t).rem_euclid(l);
    match (i64::try_from(r), i64::try_from(l)) {
        (Ok(r), Ok(l)) => Ok(Some((r, l))),
        _ => Err(ArithError::Overflow),
    }
}

/// `(g, u)` with `g = gcd(a, b)` and `u*a ≡ g (mod b)`, for `0 < a, b < 2^63` (extended Euclid;
/// every value stays below `2^64` in magnitude).
fn gcd_and_inverse(a: i128, b: i128) -> (i128, i128) {
    let (mut old_r, mut r) = (a, b);
    let (mut old_u, mut u) = (1i128, 0i128);
    while r != 0 {
        let q = old_r / r;
        (old_r, r) = (r, old_r - q * r);
        (old_u, u) = (u, old_u - q * u);
    }
    (old_r, old_u)
}

/// **linear-bounds**: a constraint `sum(a_i * x_i) + c in [lo, hi]` over variables bounds each
/// of them by the others: `a_j * x_j in [lo - c - max(rest), hi - c - min(rest)]`, where `rest`
/// is the sum of the other terms over their bounds (then divided by `a_j`, rounding inwards).
/// Sound because every point of the domain satisfies the constraint and the bounds. An end at
/// `i64::MIN` or `i64::MAX` (of a bound or of the constraint) says nothing: the side it would
/// give is skipped, so a variable without bounds is bounded by one that has them (`s0 - d0 in
/// [1, ...]` with `d0 in [0, 9]` gives `s0 >= 1`). No bound in the domain makes the map known
/// empty.
fn propagate_linear_bounds(map: &mut IndexingMap) {
    for (e, iv) in owned_constraints(map) {
        let Some(terms) = e
            .terms()
            .iter()
            .map(|(atom, a)| match atom {
                Atom::Var(v) => Some((*v, i128::from(*a))),
                _ => None,
            })
            .collect::<Option<Vec<(VarRef, i128)>>>()
        else {
            continue;
        };
        if terms.len() < 2 {
            continue;
        }
        let c = i128::from(e.constant_term());
        let known = |end: i64| (end != i64::MIN && end != i64::MAX).then_some(i128::from(end));
        let (lo, hi) = (known(iv.lo).map(|l| l - c), known(iv.hi).map(|h| h - c));
        for j in 0..terms.len() {
            // The least and greatest sum of the other terms, where their bounds say.
            let (mut rest_lo, mut rest_hi) = (Some(0i128), Some(0i128));
            for (i, (v, a)) in terms.iter().enumerate() {
                if i == j {
                    continue;
                }
                let Some(b) = map.var(*v).map(|x| x.bounds) else {
                    return;
                };
                let (x_lo, x_hi) = (known(b.lo), known(b.hi));
                let (low, high) = if *a > 0 { (x_lo, x_hi) } else { (x_hi, x_lo) };
                rest_lo = rest_lo.zip(low).map(|(r, x)| r + a * x);
                rest_hi = rest_hi.zip(high).map(|(r, x)| r + a * x);
            }
            let (v, a) = terms[j];
            // `a * x` lies in [below, above].
            let below = lo.zip(rest_hi).map(|(l, r)| l - r);
            let above = hi.zip(rest_lo).map(|(h, r)| h - r);
            let (x_lo, x_hi) = if a > 0 {
                (
                    below.and_then(|b| ceil_div_wide(b, a)),
                    above.and_then(|b| floor_div_wide(b, a)),
                )
            } else {
                (
                    above.and_then(|b| ceil_div_wide(b, a)),
                    below.and_then(|b| floor_div_wide(b, a)),
                )
            };
            let clamp = |x: i128| x.clamp(i64::MIN.into(), i64::MAX.into()) as i64;
            let bound = Interval::new(x_lo.map_or(i64::MIN, clamp), x_hi.map_or(i64::MAX, clamp));
            let Some(current) = map.var(v).map(|x| x.bounds) else {
                return;
            };
            if current.intersect(bound) != current {
                map.add_constraint(Expr::var(v), bound);
                if map.known_empty {
                    return;
                }
            }
        }
    }
}

/// The constraints of `map`, copied (so that a rule may change the map while it goes through
/// them).
fn owned_constraints(map: &IndexingMap) -> Vec<(Expr, Interval)> {
    map.constraints
        .iter()
        .map(|(e, iv)| (e.clone(), *iv))
        .collect()
}

/// **constraint-hull**: for each constraint alone, searches the box of the variables it mentions
/// (when small) and shrinks each of them to the values that satisfy it (the hull of its points,
/// [`satisfying_hull`]); no value at all makes the map known empty. Sound because every point
/// of the domain satisfies every constraint. Boxes of more than `enumeration_limit` points are
/// skipped, and so is every constraint after `enumeration_total` points of boxes in all.
/// Returns whether anything changed.
fn tighten_by_each_constraint(map: &mut IndexingMap, budget: Budget) -> bool {
    let mut changed = false;
    let mut points_left = budget.enumeration_total;
    for (e, iv) in owned_constraints(map) {
        let vars = e.distinct_vars();
        let Some(bounds) = vars
            .iter()
            .map(|v| map.var(*v).map(|x| x.bounds))
            .collect::<Option<Vec<_>>>()
        else {
            continue;
        };
        let size = bounds
            .iter()
            .fold(1u128, |acc, b| acc.saturating_mul(b.count()));
        if budget.enumeration_limit < size || size == 0 {
            continue;
        }
        let Some(left) = points_left.checked_sub(size) else {
            break;
        };
        points_left = left;
        let holds = |point: &[i64]| {
            e.eval_at(&|v| Some(point[vars.binary_search(&v).ok()?]))
                .is_some_and(|x| iv.contains(x))
        };
        let Some(hull) = satisfying_hull(&bounds, holds) else {
            map.mark_empty();
            return true;
        };
        for ((v, h), b) in vars.iter().zip(hull).zip(&bounds) {
            if h != *b {
                map.add_constraint(Expr::var(*v), h);
                changed = true;
            }
        }
    }
    changed
}

/// For small domains: searches the box to decide emptiness exactly and shrinks every variable's
/// bounds to the values that feasible points take (their hull, [`satisfying_hull`]).
/// Constraints that then always hold go away. Returns whether anything changed, or `None` when
/// the box has more than `limit` points.
fn tighten_by_enumeration(map: &mut IndexingMap, limit: u128) -> Option<bool> {
    if map.known_empty {
        return Some(false);
    }
    if map.box_size() > limit {
        return None;
    }
    let bounds: Vec<Interval> = map.all_vars().map(|v| v.bounds).collect();
    let nd = map.dims.len();
    let hull = bounds
        .iter()
        .all(|b| b.is_feasible())
        .then(|| {
            satisfying_hull(&bounds, |point| {
                let (d, s) = point.split_at(nd);
                map.constraints_hold(d, s)
            })
        })
        .flatten();
    let Some(hull) = hull else {
        map.mark_empty();
        return Some(true);
    };
    let mut changed = false;
    for (i, h) in hull.into_iter().enumerate() {
        let v = if i < nd {
            VarRef::Dim(i as u32)
        } else {
            VarRef::Sym((i - nd) as u32)
        };
        if let Some(var) = map.var_mut(v) {
            changed |= h != var.bounds;
            var.bounds = h;
        }
    }
    Some(drop_constraints_that_always_hold(map) || changed)
}

/// Drops the constraints whose range over the bounds lies inside their interval; returns
/// whether there were any.
fn drop_constraints_that_always_hold(map: &mut IndexingMap) -> bool {
    let always: Vec<Expr> = {
        let ev = map.range_evaluator(false);
        map.constraints
            .iter()
            .filter(|(e, iv)| iv.contains_interval(ev.range(e)))
            .map(|(e, _)| e.clone())
            .collect()
    };
    for e in &always {
        map.constraints.remove(e);
    }
    !always.is_empty()
}

impl IndexingMap {
    /// XLA's `RescaleSymbols`: first merges the `mod` constraints of each expression (as
    /// [`IndexingMap::simplify`] does: `s mod 2 in [0, 0]` and `s mod 3 in [0, 0]` become
    /// `s mod 6 in [0, 0]`), then, for every constraint `s mod c in [r, r]` on a bare symbol `s`
    /// (c > 0), substitutes `s := c * s + r` everywhere, rescales the bounds of `s` and drops
    /// the constraint. Returns whether anything changed. Like XLA's, [`IndexingMap::simplify`]
    /// does not call it: callers chain the two where they want symbols rescaled.
    pub fn rescale_symbols(&mut self) -> bool {
        let before = self.clone();
        merge_mod_constraints(self);
        let mut changed = *self != before;
        if self.known_empty {
            return changed;
        }
        loop {
            let found = self.constraints.iter().find_map(|(e, iv)| {
                let (Atom::Mod(x, c), 1) = e.terms().first().cloned()? else {
                    return None;
                };
                let r = iv.as_point().filter(|r| (0..c).contains(r))?;
                (e.terms().len() == 1 && e.constant_term() == 0)
                    .then_some(())
                    .and_then(|_| Some((e.clone(), x.as_var()?, c, r)))
            });
            let Some((key, VarRef::Sym(s), c, r)) = found else {
                return changed;
            };
            let sym = VarRef::Sym(s);
            let bounds = self.var(sym).map(|v| v.bounds).unwrap_or(Interval::FULL);
            // `s = c * s' + r` within the bounds: `ceil((lo - r) / c) <= s' <= floor((hi - r) / c)`,
            // exact in `i128`.
            let (c_wide, r_wide) = (i128::from(c), i128::from(r));
            let (Ok(lo), Ok(hi)) = (
                i64::try_from(-(r_wide - i128::from(bounds.lo)).div_euclid(c_wide)),
                i64::try_from((i128::from(bounds.hi) - r_wide).div_euclid(c_wide)),
            ) else {
                return changed;
            };
            let Ok(replacement) = Expr::sym(s)
                .checked_scale(c)
                .and_then(|e| e.checked_add_const(r))
            else {
                return changed;
            };
            let subst = |e: &Expr| e.rewrite_vars(&mut |v| (v == sym).then(|| replacement.clone()));
            let Ok(results) = self
                .results
                .iter()
                .map(subst)
                .collect::<Result<Vec<_>, _>>()
            else {
                return changed;
            };
            let Ok(constraints) = self
                .constraints
                .iter()
                .filter(|(e, _)| **e != key)
                .map(|(e, iv)| Ok((e, subst(e)?, *iv)))
                .collect::<Result<Vec<_>, ArithError>>()
            else {
                return changed;
            };
            let mut rescaled = self.with_results(results);
            rescaled.constraints.clear();
            if let Some(v) = rescaled.var_mut(sym) {
                v.bounds = Interval::new(lo, hi);
            }
            if lo > hi {
                self.mark_empty();
                return true;
            }
            for (_, e, iv) in &constraints {
                rescaled.add_constraint(e.clone(), *iv);
            }
            // Every point keeps a value: the substitution is skipped if a result or constraint
            // that evaluates without overflow everywhere could overflow afterwards.
            let (old, new) = (self.range_evaluator(false), rescaled.range_evaluator(false));
            let pairs = self.results.iter().zip(&rescaled.results);
            let constraint_pairs = constraints.iter().map(|(old, new, _)| (*old, new));
            if pairs
                .chain(constraint_pairs)
                .any(|(before, after)| old.never_overflows(before) && !new.never_overflows(after))
            {
                return changed;
            }
            *self = rescaled;
            changed = true;
        }
    }
}
