//! The rewrite rules of the simplifier. Each rule states its identity and the condition under
//! which it holds; `x`, `y` are expressions, `k`, `c`, `g`, `m` positive constants, and `R(x)` is
//! the range of `x` over the domain. Rules return candidate forms; the caller keeps the cheapest.

use crate::expr::{Atom, Cost, Expr, Extremum};
use crate::interval::{ceil_div as ceil_q, floor_div as floor_q, gcd, mod_floor};

use super::Simplifier;

/// **div-in-period**: `x floordiv k = q` when `R(x) ⊆ [q*k, q*k + k - 1]`.
fn div_in_period(s: &Simplifier<'_, '_>, x: &Expr, k: i64) -> Option<Expr> {
    let r = s.ev.range(x);
    let q = floor_q(r.lo, k);
    (r.is_feasible() && floor_q(r.hi, k) == q).then(|| Expr::constant(q))
}

/// **ceildiv-in-period**: `x ceildiv k = q` when `R(x) ⊆ [q*k - k + 1, q*k]`.
fn ceil_div_in_period(s: &Simplifier<'_, '_>, x: &Expr, k: i64) -> Option<Expr> {
    let r = s.ev.range(x);
    let q = ceil_q(r.lo, k);
    (r.is_feasible() && ceil_q(r.hi, k) == q).then(|| Expr::constant(q))
}

/// **mod-in-period**: `x mod k = x - q*k` when `R(x) ⊆ [q*k, q*k + k - 1]` (so `x mod k = x` when
/// `0 <= x < k`).
fn mod_in_period(s: &Simplifier<'_, '_>, x: &Expr, k: i64) -> Option<Expr> {
    let r = s.ev.range(x);
    let q = floor_q(r.lo, k);
    if !r.is_feasible() || floor_q(r.hi, k) != q {
        return None;
    }
    x.checked_add_const(q.checked_mul(k)?.checked_neg()?).ok()
}

/// One way to write `x = g*y + b` with `0 <= b < g` on the whole domain.
struct Split {
    g: i64,
    y: Expr,
    b: Expr,
}

/// **bounded-remainder** splits: for each `g > 1` dividing `k` (the divisor itself, and its gcd
/// with each coefficient), the terms of `x` whose coefficient is a multiple of `g` form `g*a`, the
/// rest `b0`; if `R(b0) ⊆ [q*g, q*g + g - 1]` then `x = g*(a + q) + (b0 - q*g)` with the remainder in
/// `[0, g - 1]`. With `k = g*m` this gives
/// `x floordiv k = (a + q) floordiv m` and `x mod k = g*((a + q) mod m) + (b0 - q*g)`.
fn bounded_remainder_splits(s: &Simplifier<'_, '_>, x: &Expr, k: i64) -> Vec<Split> {
    let mut gs: Vec<i64> = x
        .terms()
        .iter()
        .map(|(_, c)| gcd(*c, k))
        .filter(|g| *g > 1)
        .collect();
    gs.push(k);
    gs.sort_unstable();
    gs.dedup();
    let mut out = Vec::new();
    for g in gs {
        if x.terms().iter().all(|(_, c)| c % g != 0) {
            continue;
        }
        let (mult, rest): (Vec<_>, Vec<_>) =
            x.terms().iter().cloned().partition(|(_, c)| c % g == 0);
        let Ok(a) = Expr::linear(mult.into_iter().map(|(t, c)| (t, c / g)).collect(), 0) else {
            continue;
        };
        let Ok(b0) = Expr::linear(rest, x.constant_term()) else {
            continue;
        };
        let r = s.ev.range(&b0);
        let q = floor_q(r.lo, g);
        if !r.is_feasible() || floor_q(r.hi, g) != q {
            continue;
        }
        let (Some(y), Some(b)) = (
            a.checked_add_const(q).ok(),
            q.checked_mul(g)
                .and_then(|qg| b0.checked_add_const(qg.checked_neg()?).ok()),
        ) else {
            continue;
        };
        out.push(Split { g, y, b });
    }
    out
}

/// **div-of-mod**: `(y mod (m*k)) floordiv k = (y floordiv k) mod m`. Always holds; it moves the
/// division inside, where it meets the other rules.
fn div_of_mod(x: &Expr, k: i64) -> Option<Expr> {
    match x.as_atom()? {
        Atom::Mod(y, mk) if mk % k == 0 => y.floor_div(k).ok()?.modulo(mk / k).ok(),
        _ => None,
    }
}

/// **div-of-div-sum**: `(y floordiv a + r) floordiv k = (y + r*a) floordiv (a*k)` for one summand
/// `y floordiv a` with coefficient 1 and any integer-valued rest `r`: `floor(y/a) + r = floor((y +
/// r*a)/a)`, and nested floors merge.
fn div_of_div_sum(x: &Expr, k: i64) -> Option<Expr> {
    let (atom, _) = x
        .terms()
        .iter()
        .find(|(t, c)| *c == 1 && matches!(t, Atom::FloorDiv(..)))?;
    let Atom::FloorDiv(y, a) = atom else {
        return None;
    };
    let rest = x.without_term(atom);
    let ak = a.checked_mul(k)?;
    y.checked_add_scaled(&rest, *a).ok()?.floor_div(ak).ok()
}

/// **div-multiples-out**: `(Σ a_i*x_i + c) floordiv k = Σ q_i*x_i + q + (Σ r_i*x_i + r) floordiv k`
/// whenever `a_i = q_i*k + r_i` and `c = q*k + r` (the moved parts are integers). The dividends
/// tried: `x` itself; `x` with only its constant reduced (to `c mod k` and to `c mod k - k`); and
/// `x` with every coefficient and the constant reduced to their non-negative residues and to
/// their residues of least magnitude. Each comes with the part moved out.
fn div_dividends(x: &Expr, k: i64) -> Vec<(Expr, Expr)> {
    let mut out = vec![(x.clone(), Expr::zero())];
    let mut push = |dividend: Expr, outside: Expr| {
        if !out.iter().any(|(d, _)| *d == dividend) {
            out.push((dividend, outside));
        }
    };
    let c = x.constant_term();
    // `q = 0` keeps `x` itself, and a multiple `c` of `k` gives one `q`: neither is built twice.
    let (floor_c, ceil_c) = (floor_q(c, k), ceil_q(c, k));
    let ceil_c = (ceil_c != floor_c).then_some(ceil_c);
    for q in [Some(floor_c), ceil_c].into_iter().flatten() {
        if q == 0 {
            continue;
        }
        if let Some(minus_qk) = q.checked_mul(k).and_then(i64::checked_neg)
            && let Ok(reduced) = x.checked_add_const(minus_qk)
        {
            push(reduced, Expr::constant(q));
        }
    }
    let mut previous: Option<Vec<i64>> = None;
    for least in [false, true] {
        let quotient = |a: i64| {
            let q = floor_q(a, k);
            if least && mod_floor(a, k) > k / 2 {
                q + 1
            } else {
                q
            }
        };
        // The constant's quotient last; all zero moves nothing, and the same quotients as the
        // non-negative residues give the same dividend: neither is built.
        let quotients: Vec<i64> = x
            .terms()
            .iter()
            .map(|(_, a)| quotient(*a))
            .chain([quotient(c)])
            .collect();
        if quotients.iter().all(|q| *q == 0) || previous.as_ref() == Some(&quotients) {
            continue;
        }
        let moved = x
            .terms()
            .iter()
            .zip(&quotients)
            .map(|((t, _), q)| (t.clone(), *q))
            .collect();
        let quotient_c = quotients[x.terms().len()];
        previous = Some(quotients);
        let Ok(moved) = Expr::linear(moved, quotient_c) else {
            continue;
        };
        if let Ok(reduced) = x.checked_add_scaled(&moved, -k) {
            push(reduced, moved);
        }
    }
    out
}

/// **mod-residues**: `(Σ a_i*x_i + c) mod k = (Σ a'_i*x_i + c') mod k` when `a'_i ≡ a_i` and
/// `c' ≡ c (mod k)`. The arguments tried: `x` itself, the residues of least magnitude (`-k/2 < a'
/// <= k/2`), and the non-negative residues (`0 <= a' < k`), each with the constant reduced likewise.
fn mod_arguments(x: &Expr, k: i64) -> Vec<Expr> {
    let residue = |a: i64, least: bool| {
        let r = mod_floor(a, k);
        if least && r > k / 2 { r - k } else { r }
    };
    let mut out = vec![x.clone()];
    for least in [true, false] {
        // Residues equal to the coefficients and constant of `x` (or of an argument already
        // tried) give nothing new: they are not built.
        let same_as = |e: &Expr| {
            e.constant_term() == residue(x.constant_term(), least)
                && e.terms().len() == x.terms().len()
                && e.terms()
                    .iter()
                    .zip(x.terms())
                    .all(|((t, a), (u, b))| t == u && *a == residue(*b, least))
        };
        if out.iter().any(same_as) {
            continue;
        }
        let terms = x
            .terms()
            .iter()
            .map(|(t, a)| (t.clone(), residue(*a, least)))
            .collect();
        if let Ok(e) = Expr::linear(terms, residue(x.constant_term(), least))
            && !out.contains(&e)
        {
            out.push(e);
        }
    }
    out
}

/// **mod-of-div-in-div**: `(y floordiv a) mod m = (y mod (a*m)) floordiv a`, used where the result
/// sits in a sum under another division: `((y floordiv a) mod m + r) floordiv k` becomes
/// `(y mod (a*m) + r*a) floordiv (a*k)` through **div-of-div-sum**, one division fewer.
fn mod_of_div_in_div(x: &Expr, k: i64) -> Option<Expr> {
    let (atom, _) = x.terms().iter().find(|(t, c)| {
        *c == 1 && matches!(t, Atom::Mod(y, _) if matches!(y.as_atom(), Some(Atom::FloorDiv(..))))
    })?;
    let Atom::Mod(inner, m) = atom else {
        return None;
    };
    let Some(Atom::FloorDiv(y, a)) = inner.as_atom() else {
        return None;
    };
    let rewritten = y.modulo(a.checked_mul(*m)?).ok()?.floor_div(*a).ok()?;
    let rest = x.without_term(atom);
    div_of_div_sum(&rest.checked_add(&rewritten).ok()?, k)
}

/// **ceil-in-div**: `x ceildiv a = (x + a - 1) floordiv a`, used for a `ceildiv` summand of a
/// dividend so that **div-of-div-sum** merges the two divisions:
/// `(y ceildiv a + r) floordiv k = (y + a - 1 + r*a) floordiv (a*k)`.
fn ceil_in_div(x: &Expr, k: i64) -> Option<Expr> {
    let (atom, _) = x
        .terms()
        .iter()
        .find(|(t, c)| *c == 1 && matches!(t, Atom::CeilDiv(..)))?;
    let Atom::CeilDiv(y, a) = atom else {
        return None;
    };
    let as_floor = y.checked_add_const(a - 1).ok()?.floor_div(*a).ok()?;
    let rest = x.without_term(atom);
    div_of_div_sum(&rest.checked_add(&as_floor).ok()?, k)
}

/// `x floordiv k` after its dividend was simplified.
pub(crate) fn floor_div(s: &Simplifier<'_, '_>, x: &Expr, k: i64) -> Expr {
    let fallback = || Expr::atom(Atom::FloorDiv(x.clone(), k));
    if let Some(e) = div_of_mod(x, k) {
        return e;
    }
    let mut candidates = Vec::new();
    for (i, (dividend, outside)) in div_dividends(x, k).into_iter().enumerate() {
        let with_q = |e: Expr| e.checked_add(&outside).ok();
        if let Some(c) = div_in_period(s, &dividend, k) {
            return with_q(c).unwrap_or_else(fallback);
        }
        let splits = bounded_remainder_splits(s, &dividend, k);
        candidates.extend(
            splits
                .into_iter()
                .filter_map(|sp| with_q(sp.y.floor_div(k / sp.g).ok()?)),
        );
        candidates.extend(div_of_div_sum(&dividend, k).and_then(with_q));
        candidates.extend(mod_of_div_in_div(&dividend, k).and_then(with_q));
        candidates.extend(ceil_in_div(&dividend, k).and_then(with_q));
        // The first dividend is `x` itself, whose division is the form as written, added below.
        if i > 0 {
            candidates.extend(dividend.floor_div(k).ok().and_then(with_q));
        }
    }
    // The form as written comes first so that ties keep it.
    candidates.insert(0, x.floor_div(k).unwrap_or_else(|_| fallback()));
    s.cheapest(candidates).unwrap_or_else(fallback)
}

/// `x ceildiv k` after its dividend was simplified. **ceildiv-as-floordiv**:
/// `x ceildiv k = (x + k - 1) floordiv k`, taken when the floordiv form simplifies further.
pub(crate) fn ceil_div(s: &Simplifier<'_, '_>, x: &Expr, k: i64) -> Expr {
    let fallback = || Expr::atom(Atom::CeilDiv(x.clone(), k));
    if let Some(c) = ceil_div_in_period(s, x, k) {
        return c;
    }
    let mut candidates = vec![x.ceil_div(k).unwrap_or_else(|_| fallback())];
    if let Ok(shifted) = x.checked_add_const(k - 1) {
        candidates.push(floor_div(s, &shifted, k));
    }
    s.cheapest(candidates).unwrap_or_else(fallback)
}

/// `x mod k` after its argument was simplified.
pub(crate) fn modulo(s: &Simplifier<'_, '_>, x: &Expr, k: i64) -> Expr {
    let fallback = || Expr::atom(Atom::Mod(x.clone(), k));
    let arguments = mod_arguments(x, k);
    // Rewritten forms first, so that on ties the split form wins over the plain `mod` (it exposes
    // `mod`/`floordiv` pairs to recombination); then the argument as written before its residues.
    let mut candidates = Vec::new();
    for arg in &arguments {
        candidates.extend(mod_in_period(s, arg, k));
        candidates.extend(
            bounded_remainder_splits(s, arg, k)
                .into_iter()
                .filter_map(|sp| {
                    sp.y.modulo(k / sp.g)
                        .ok()?
                        .checked_scale(sp.g)
                        .ok()?
                        .checked_add(&sp.b)
                        .ok()
                }),
        );
    }
    candidates.extend(arguments.iter().filter_map(|arg| arg.modulo(k).ok()));
    s.cheapest(candidates).unwrap_or_else(fallback)
}

/// **extremum-decided**: `min(a, b) = a` and `max(a, b) = b` when `a <= b` at every point of
/// the domain, and `min(a, b) = b`, `max(a, b) = a` when `b <= a` there. `a <= b` is known when
/// `R(a - b) ⊆ (-∞, 0]` (correlated terms cancel in the difference: `min(d0 + d1, d0)` with
/// `d1 >= 0` is `d0`) or when `hi(R(a)) <= lo(R(b))` (where a constraint on `a` or `b` itself
/// narrows its range). Otherwise `min(a, b)` or `max(a, b)` of the simplified operands.
pub(crate) fn extremum(s: &Simplifier<'_, '_>, which: Extremum, a: &Expr, b: &Expr) -> Expr {
    let rebuilt = a.extremum(which, b);
    let Some(a_first) = order_on_domain(s, a, b) else {
        return rebuilt;
    };
    // `a_first`: `a <= b` everywhere, so `min` is `a` and `max` is `b`.
    let decided = match (which, a_first) {
        (Extremum::Min, true) | (Extremum::Max, false) => a,
        (Extremum::Min, false) | (Extremum::Max, true) => b,
    };
    s.cheapest([decided.clone(), rebuilt.clone()])
        .unwrap_or(rebuilt)
}

/// `Some(true)` when `a <= b` at every point of the domain, `Some(false)` when `b <= a` there,
/// `None` when the ranges do not tell (see **extremum-decided**).
fn order_on_domain(s: &Simplifier<'_, '_>, a: &Expr, b: &Expr) -> Option<bool> {
    if let Ok(difference) = a.checked_sub(b) {
        let r = s.ev.range(&difference);
        if r.hi <= 0 {
            return Some(true);
        }
        if 0 <= r.lo {
            return Some(false);
        }
    }
    let (ra, rb) = (s.ev.range(a), s.ev.range(b));
    if ra.hi <= rb.lo {
        return Some(true);
    }
    (rb.hi <= ra.lo).then_some(false)
}

/// Rules over the terms of a sum. Each step is taken only when its result is safe.
pub(crate) fn simplify_sum(s: &Simplifier<'_, '_>, e: &Expr) -> Expr {
    let safe = |next: Option<Expr>| next.filter(|n| s.is_safe(n));
    let mut e = e.clone();
    while let Some(next) = safe(recombine(&e)) {
        e = next;
    }
    if let Some(next) = safe(merge_exact_divisions(s, &e)) {
        e = next;
    }
    if let Some(next) = safe(absorb_constant(&e)) {
        e = next;
    }
    if let Some(next) = safe(div_forms_in_context(&e)) {
        e = next;
    }
    let cost = e.cost();
    for (atom, coef) in e.terms() {
        let Some(alt) = expand_div_mod(&e, atom, *coef) else {
            continue;
        };
        let alt = s.once_without_sum(&alt);
        if alt.cost() < cost && s.is_safe(&alt) {
            return alt;
        }
    }
    e
}

/// **merge-exact-divisions**: `Σ a_i*(x_i floordiv k_i) = (Σ a_i*(L/k_i)*x_i) floordiv L` with
/// `L = lcm(k_i)`, when every `x_i mod k_i = 0` on the whole domain (then every division is exact,
/// and so is the merged one).
fn merge_exact_divisions(s: &Simplifier<'_, '_>, e: &Expr) -> Option<Expr> {
    let exact: Vec<(&Atom, &Expr, i64, i64)> = e
        .terms()
        .iter()
        .filter_map(|(atom, a)| match atom {
            Atom::FloorDiv(x, k)
                if s.ev.atom_range(&Atom::Mod(x.clone(), *k)).as_point() == Some(0) =>
            {
                Some((atom, x, *k, *a))
            }
            _ => None,
        })
        .collect();
    if exact.len() < 2 {
        return None;
    }
    let l = exact
        .iter()
        .try_fold(1i64, |l, (_, _, k, _)| crate::interval::lcm(l, *k))?;
    let mut rest = e.clone();
    let mut dividend = Expr::zero();
    for (atom, x, k, a) in &exact {
        rest = rest.without_term(atom);
        let scale = a.checked_mul(l / k)?;
        dividend = dividend.checked_add_scaled(x, scale).ok()?;
    }
    let merged = rest.checked_add(&dividend.floor_div(l).ok()?).ok()?;
    (merged.cost() < e.cost()).then_some(merged)
}

/// **absorb-constant**: `a*(x floordiv k) + c = a*((x + (c/a)*k) floordiv k)` for `a = ±1` dividing
/// `c` (likewise for `ceildiv`): `floor((x + q*k)/k) = floor(x/k) + q`. Taken when the dividend
/// already has a constant, so the sum loses its constant and the division gains none.
fn absorb_constant(e: &Expr) -> Option<Expr> {
    let c = e.constant_term();
    if c == 0 {
        return None;
    }
    e.terms().iter().find_map(|(atom, a)| {
        let (Atom::FloorDiv(x, k) | Atom::CeilDiv(x, k)) = atom else {
            return None;
        };
        if a.unsigned_abs() != 1 || x.constant_term() == 0 {
            return None;
        }
        let shifted = x
            .checked_add_const(c.checked_mul(*a)?.checked_mul(*k)?)
            .ok()?;
        let rebuilt = match atom {
            Atom::FloorDiv(..) => shifted.floor_div(*k).ok()?,
            _ => shifted.ceil_div(*k).ok()?,
        };
        let rest = e.without_term(atom).without_constant();
        let candidate = rest.checked_add_scaled(&rebuilt, *a).ok()?;
        (candidate.cost() < e.cost()).then_some(candidate)
    })
}

/// The forms of **div-multiples-out** judged in the whole sum rather than alone: the moved
/// multiples may cancel against other summands (`-d0 + (7*d0) floordiv 12 = (-5*d0) floordiv 12`
/// with `k = 12`). Taken when the sum becomes cheaper.
fn div_forms_in_context(e: &Expr) -> Option<Expr> {
    let mut best: Option<(Expr, Cost)> = None;
    let cost = e.cost();
    for (atom, a) in e.terms() {
        let Atom::FloorDiv(x, k) = atom else { continue };
        let dividends = div_dividends(x, *k);
        if dividends.len() < 2 {
            continue;
        }
        let without = e.without_term(atom);
        for (dividend, outside) in dividends.into_iter().skip(1) {
            let Some(candidate) = dividend
                .floor_div(*k)
                .ok()
                .and_then(|d| d.checked_add(&outside).ok())
                .and_then(|t| without.checked_add_scaled(&t, *a).ok())
            else {
                continue;
            };
            let candidate_cost = candidate.cost();
            if candidate_cost < best.as_ref().map_or(cost, |(_, c)| *c) {
                best = Some((candidate, candidate_cost));
            }
        }
    }
    best.map(|(e, _)| e)
}

/// **recombine**: `a*(x mod c) + b*c*(y floordiv c) = b*y + (a - b)*(x mod c)` when `x - y` is a
/// multiple of `c` for every value of the variables (all its coefficients and its constant are),
/// because then `x mod c = y mod c` and `y = c*(y floordiv c) + y mod c`. With `a = b` both terms
/// become `b*y`: `(y mod c) + (y floordiv c)*c = y`.
fn recombine(e: &Expr) -> Option<Expr> {
    for (m_atom, a) in e.terms() {
        let Atom::Mod(x, c) = m_atom else { continue };
        for (d_atom, bc) in e.terms() {
            let Atom::FloorDiv(y, c2) = d_atom else {
                continue;
            };
            if c2 != c || bc % c != 0 {
                continue;
            }
            let Ok(diff) = x.checked_sub(y) else { continue };
            if diff.content() % c != 0 {
                continue;
            }
            let b = bc / c;
            let replaced = (|| {
                let without = e.without_term(m_atom).without_term(d_atom);
                without
                    .checked_add_scaled(y, b)
                    .ok()?
                    .checked_add_scaled(&Expr::atom(m_atom.clone()), a.checked_sub(b)?)
                    .ok()
            })();
            if replaced.is_some() {
                return replaced;
            }
        }
    }
    None
}

/// **div-mod-expansion**: `b*c*(y floordiv c) = b*y - b*(y mod c)` and
/// `a*(y mod c) = a*y - a*c*(y floordiv c)`, from `y = c*(y floordiv c) + y mod c`. Always holds;
/// the caller keeps it only when the sum becomes cheaper (e.g. `x - (x floordiv c)*c = x mod c`).
fn expand_div_mod(e: &Expr, atom: &Atom, coef: i64) -> Option<Expr> {
    let without = e.without_term(atom);
    let replacement = match atom {
        Atom::FloorDiv(y, c) if coef % c == 0 => {
            let b = coef / c;
            y.checked_scale(b)
                .ok()?
                .checked_add_scaled(&y.modulo(*c).ok()?, b.checked_neg()?)
                .ok()?
        }
        Atom::Mod(y, c) => y
            .checked_scale(coef)
            .ok()?
            .checked_add_scaled(&y.floor_div(*c).ok()?, coef.checked_mul(*c)?.checked_neg()?)
            .ok()?,
        _ => return None,
    };
    without.checked_add(&replacement).ok()
}
