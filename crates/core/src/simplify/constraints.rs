//! Simplification of a map's constraints: each constraint is simplified and normalised, those that
//! always hold are dropped, those that cannot hold make the map known empty, bounds of variables
//! are tightened, and `mod` constraints on one expression are merged.

use crate::expr::{Atom, Expr, VarRef};
use crate::interval::{Interval, ceil_div, floor_div, gcd, mod_floor};
use crate::map::IndexingMap;

use super::{Budget, simplify_expr_with};

/// Simplifies the constraints of `map` to a fixed point (bounded by the budget's rounds).
pub(crate) fn simplify_constraints(map: &mut IndexingMap, budget: Budget) {
    // Enumeration may fix variables to points, which lets the rules go further: one more round.
    for _ in 0..2 {
        simplify_constraints_to_fixpoint(map, budget);
        if map.known_empty || map.constraints.is_empty() {
            return;
        }
        let each = tighten_by_each_constraint(map, budget.enumeration_limit);
        let whole = !map.known_empty && tighten_by_enumeration(map, budget.enumeration_limit);
        if !each && !whole {
            return;
        }
    }
}

fn simplify_constraints_to_fixpoint(map: &mut IndexingMap, budget: Budget) {
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
            let e = {
                // Constraints are simplified over the variable bounds alone: a constraint must
                // not be used to justify rewriting itself.
                let ev = map.range_evaluator(false);
                simplify_expr_with(&e, &ev, budget)
            };
            let (e, iv) = normalize(map, e, iv);
            let range = map.range_evaluator(false).range(&e);
            if iv.contains_interval(range) && e.as_var().is_none() {
                continue;
            }
            if !range.intersect(iv).is_feasible() {
                map.mark_empty();
                return;
            }
            map.add_constraint(e, iv);
        }
        merge_mod_constraints(map);
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
        return Some((e.checked_add_const(-c).ok()?, shifted));
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
                let c = x.constant_term();
                let residue = mod_floor(r.checked_sub(c)?, *k);
                let inner = x.checked_add_const(-c).ok()?.modulo(*k).ok()?;
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
        .map(|(_, c)| c.abs())
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
        let lo_a = ceil_div(iv.lo.saturating_sub(rb.hi), g);
        let lo_b = ceil_div(iv.lo.saturating_sub(rb.lo), g);
        let hi_a = floor_div(iv.hi.saturating_sub(rb.hi), g);
        let hi_b = floor_div(iv.hi.saturating_sub(rb.lo), g);
        let saturated = [iv.lo, iv.hi, rb.lo, rb.hi]
            .iter()
            .any(|v| *v == i64::MIN || *v == i64::MAX);
        if lo_a == lo_b && hi_a == hi_b && !saturated {
            return Some((a, Interval::new(lo_a, hi_a)));
        }
    }
    None
}

/// **merge-mod**: `x mod c1 in [r1, r1]` and `x mod c2 in [r2, r2]` together hold exactly when
/// `x mod lcm(c1, c2) in [r, r]` for the `r` of the Chinese remainder theorem, and never when
/// `r1 != r2 (mod gcd(c1, c2))`. A bare variable with `x mod c in [r, r]` gets its bounds moved to
/// the nearest values congruent to `r`.
fn merge_mod_constraints(map: &mut IndexingMap) {
    let mods: Vec<(Expr, Expr, i64, i64)> = map
        .constraints
        .iter()
        .filter_map(|(e, iv)| match e.as_atom()? {
            Atom::Mod(x, c) => Some((e.clone(), x.clone(), *c, iv.as_point()?)),
            _ => None,
        })
        .collect();
    let mut merged: Vec<(Expr, i64, i64)> = Vec::new();
    let mut consumed = Vec::new();
    for (key, x, c, r) in mods {
        if !(0..c).contains(&r) {
            continue;
        }
        consumed.push(key);
        match merged.iter_mut().find(|(y, _, _)| *y == x) {
            Some(slot) => match crt(slot.2, slot.1, r, c) {
                Some((r, m)) => (slot.1, slot.2) = (m, r),
                None => {
                    map.mark_empty();
                    return;
                }
            },
            None => merged.push((x, c, r)),
        }
    }
    for key in &consumed {
        map.constraints.remove(key);
    }
    for (x, m, r) in merged {
        if let Some(v @ (VarRef::Dim(_) | VarRef::Sym(_))) = x.as_var() {
            let b = map.var(v).map(|v| v.bounds).unwrap_or(Interval::FULL);
            let lo = b.lo.checked_add(mod_floor(r.wrapping_sub(b.lo), m));
            let hi = b.hi.checked_sub(mod_floor(b.hi.wrapping_sub(r), m));
            if let (Some(lo), Some(hi)) = (lo, hi) {
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

/// Solves `x ≡ r1 (mod m1)`, `x ≡ r2 (mod m2)`: `Some((r, lcm))` or `None` when incompatible
/// (also on overflow, which callers treat as "cannot merge": see the caller).
fn crt(r1: i64, m1: i64, r2: i64, m2: i64) -> Option<(i64, i64)> {
    let g = gcd(m1, m2);
    if (r2 - r1) % g != 0 {
        return None;
    }
    let l = (m1 / g).checked_mul(m2)?;
    // Step through r1 + k*m1 until it matches r2 modulo m2 (at most m2/g steps).
    let mut x = r1;
    for _ in 0..(m2 / g) {
        if mod_floor(x - r2, m2) == 0 {
            return Some((mod_floor(x, l), l));
        }
        x = x.checked_add(m1)?;
    }
    None
}

/// **constraint-hull**: for each constraint alone, enumerates the box of the variables it mentions
/// (when small) and shrinks each of them to the values that satisfy it; no value at all makes the
/// map known empty. Sound because every point of the domain satisfies every constraint.
/// Returns whether anything changed.
fn tighten_by_each_constraint(map: &mut IndexingMap, limit: u128) -> bool {
    let mut changed = false;
    let constraints: Vec<(Expr, Interval)> = map
        .constraints
        .iter()
        .map(|(e, iv)| (e.clone(), *iv))
        .collect();
    let (nd, ns) = (map.dims.len(), map.num_symbols());
    for (e, iv) in constraints {
        let mut vars: Vec<VarRef> = Vec::new();
        e.for_each_var(&mut |v| {
            if !vars.contains(&v) {
                vars.push(v);
            }
        });
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
        if size > limit || size == 0 {
            continue;
        }
        let mut hull = vec![Interval::new(i64::MAX, i64::MIN); vars.len()];
        let mut point: Vec<i64> = bounds.iter().map(|b| b.lo).collect();
        let (mut dims, mut syms) = (vec![0i64; nd], vec![0i64; ns]);
        'points: loop {
            for (v, x) in vars.iter().zip(&point) {
                match v {
                    VarRef::Dim(i) => dims[*i as usize] = *x,
                    VarRef::Sym(i) => syms[*i as usize] = *x,
                }
            }
            if e.eval(&dims, &syms).is_some_and(|x| iv.contains(x)) {
                for (h, x) in hull.iter_mut().zip(&point) {
                    *h = Interval::new(h.lo.min(*x), h.hi.max(*x));
                }
            }
            let mut i = 0;
            loop {
                if i == point.len() {
                    break 'points;
                }
                if point[i] < bounds[i].hi {
                    point[i] += 1;
                    break;
                }
                point[i] = bounds[i].lo;
                i += 1;
            }
        }
        for ((v, h), b) in vars.iter().zip(hull).zip(&bounds) {
            if !h.is_feasible() {
                map.mark_empty();
                return true;
            }
            if h != *b {
                map.add_constraint(Expr::var(*v), h);
                changed = true;
            }
        }
    }
    changed
}

/// For small domains: enumerates the box to decide emptiness exactly and shrinks every variable's
/// bounds to the values that feasible points take. Constraints that then always hold go away.
/// Returns whether anything changed.
fn tighten_by_enumeration(map: &mut IndexingMap, limit: u128) -> bool {
    let Some(points) = map.domain_points(limit) else {
        return false;
    };
    if points.is_empty() {
        map.mark_empty();
        return true;
    }
    let before = map.clone();
    let nd = map.dims.len();
    let n = nd + map.num_symbols();
    let mut hull = vec![Interval::new(i64::MAX, i64::MIN); n];
    for (d, s) in &points {
        for (i, v) in d.iter().chain(s).enumerate() {
            hull[i] = Interval::new(hull[i].lo.min(*v), hull[i].hi.max(*v));
        }
    }
    for (i, h) in hull.into_iter().enumerate() {
        let v = if i < nd {
            VarRef::Dim(i as u32)
        } else {
            VarRef::Sym((i - nd) as u32)
        };
        if let Some(var) = map.var_mut(v) {
            var.bounds = var.bounds.intersect(h);
        }
    }
    let ev_map = map.clone();
    let ev = ev_map.range_evaluator(false);
    map.constraints
        .retain(|e, iv| !iv.contains_interval(ev.range(e)));
    *map != before
}
