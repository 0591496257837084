//! Unions within a set of maps. A target read by many maps that differ only in where one
//! variable runs, or in one constant of their results (a loop's iterations each reading one
//! row), is read by one map over all of it; so is one whose rows start where their constant
//! does (a scan's row `r` read from output rows `r` and after: `d0 >= s0`).

use xla_indexing_core::{Expr, IndexingMap, Interval, Var, VarRef};

use crate::access::Access;

/// Replaces, until none is left, every two maps of `accesses` that [`union`] or
/// [`linked_union`] merges, as they are or [`lifted`], by their union. Maps with runtime
/// variables or participants stay as they are (their provenances are maps over the same
/// variables).
pub fn merge_touching(accesses: &mut Vec<Access>) {
    let mut i = 0;
    while i < accesses.len() {
        let partner = (i + 1..accesses.len()).find_map(|j| {
            let plain = |a: &Access| a.runtime.is_empty() && a.participants.is_empty();
            if !plain(&accesses[i]) || !plain(&accesses[j]) {
                return None;
            }
            let (a, b) = (&accesses[i].map, &accesses[j].map);
            union(a, b)
                .or_else(|| linked_union(a, b))
                .or_else(|| {
                    let (a, b) = lifted(a, b)?;
                    union(&a, &b).or_else(|| linked_union(&a, &b))
                })
                .map(|m| (j, m))
        });
        match partner {
            Some((j, merged)) => {
                accesses.remove(j);
                accesses[i].map = merged;
                // The merged map may now merge with one passed before.
                i = 0;
            }
            None => i += 1,
        }
    }
}

/// `{a} ∪ {b} = {a with v ∈ hull(I_a, I_b)}` when `a` and `b` have the same results and
/// constraints and differ only in the bounds `I_a`, `I_b` of one variable `v` (a dimension or a
/// range variable), and those bounds overlap or touch (`I_a ∪ I_b` is an interval): the points
/// of the union are those of the one box, under the same constraints, with the same results.
/// `None` otherwise.
pub fn union(a: &IndexingMap, b: &IndexingMap) -> Option<IndexingMap> {
    let shaped_alike = a.dims().len() == b.dims().len()
        && a.range_vars().len() == b.range_vars().len()
        && a.rt_vars().len() == b.rt_vars().len()
        && a.rt_vars()
            .iter()
            .zip(b.rt_vars())
            .all(|(x, y)| x.bounds == y.bounds && x.name == y.name)
        && a.results() == b.results()
        && a.constraints() == b.constraints()
        && !a.is_known_empty()
        && !b.is_known_empty();
    if !shaped_alike {
        return None;
    }
    let dims = hull_of_one(a.dims(), b.dims())?;
    let range_vars = hull_of_one(a.range_vars(), b.range_vars())?;
    let differing = usize::from(dims.1) + usize::from(range_vars.1);
    if differing > 1 {
        return None;
    }
    Some(a.with_vars(dims.0, range_vars.0))
}

/// `a` and `b` with their one differing result, a constant, written as a new range variable
/// bounded to that constant: `{x -> (.., c, ..)} = {x -> (.., s, ..) : s ∈ [c, c]}`. Where `a`
/// already has that result as its last range variable `s` (lifted before) and `b` one range
/// variable fewer, only `b` is lifted. `None` when the results differ elsewhere, or in other
/// than constants, or a map has runtime variables (whose symbols follow the range variables).
pub fn lifted(a: &IndexingMap, b: &IndexingMap) -> Option<(IndexingMap, IndexingMap)> {
    if a.results().len() != b.results().len() || !a.rt_vars().is_empty() || !b.rt_vars().is_empty()
    {
        return None;
    }
    let mut differing = (0..a.results().len()).filter(|&r| a.results()[r] != b.results()[r]);
    let r = differing.next()?;
    if differing.next().is_some() {
        return None;
    }
    let (na, nb) = (a.range_vars().len(), b.range_vars().len());
    let last_var =
        |m: &IndexingMap, n: usize| m.results()[r].as_var() == Some(VarRef::Sym(n as u32 - 1));
    match (a.results()[r].as_constant(), b.results()[r].as_constant()) {
        (Some(ca), Some(cb)) if na == nb => Some((lift(a, r, ca), lift(b, r, cb))),
        (None, Some(cb)) if na == nb + 1 && last_var(a, na) => Some((a.clone(), lift(b, r, cb))),
        (Some(ca), None) if nb == na + 1 && last_var(b, nb) => Some((lift(a, r, ca), b.clone())),
        _ => None,
    }
}

/// `{s ∈ S_a, s + k <= v <= H} ∪ {s ∈ S_b, s + k <= v <= H} = {s ∈ hull(S_a, S_b), s + k <= v
/// <= H}` for the last range variable `s` and a dimension `v` when `S_a` and `S_b` overlap or
/// touch and the maps agree elsewhere (results, other variables, other constraints); likewise
/// with `L <= v <= s + k`. A map is of that form when `v`'s lower bound is `s`'s plus `k` and it
/// has the constraint `v - s in [k, u]` with `u` at least `H - s_lo` (not binding), or `s` takes
/// one value. `None` otherwise.
pub fn linked_union(a: &IndexingMap, b: &IndexingMap) -> Option<IndexingMap> {
    let n = a.range_vars().len();
    let shaped_alike = n >= 1
        && n == b.range_vars().len()
        && a.dims().len() == b.dims().len()
        && a.rt_vars().is_empty()
        && b.rt_vars().is_empty()
        && a.results() == b.results()
        && !a.is_known_empty()
        && !b.is_known_empty();
    if !shaped_alike {
        return None;
    }
    let s = n - 1;
    let alike = |x: &[Var], y: &[Var], skip: usize| {
        x.iter()
            .zip(y)
            .enumerate()
            .all(|(i, (p, q))| i == skip || (p.bounds == q.bounds && p.name == q.name))
    };
    let (sa, sb) = (a.range_vars()[s].bounds, b.range_vars()[s].bounds);
    let touching = sa.lo <= sb.hi.saturating_add(1) && sb.lo <= sa.hi.saturating_add(1);
    if !touching || !alike(a.range_vars(), b.range_vars(), s) {
        return None;
    }
    let s_hull = Interval::new(sa.lo.min(sb.lo), sa.hi.max(sb.hi));
    (0..a.dims().len()).find_map(|v| {
        let link = Expr::dim(v as u32).checked_sub(&Expr::sym(s as u32)).ok()?;
        let others = |m: &IndexingMap| {
            m.constraints()
                .iter()
                .filter(|(e, _)| **e != link)
                .map(|(e, i)| (e.clone(), *i))
                .collect::<Vec<_>>()
        };
        if !alike(a.dims(), b.dims(), v) || others(a) != others(b) {
            return None;
        }
        let (va, vb) = (a.dims()[v].bounds, b.dims()[v].bounds);
        let bounds = if va.hi == vb.hi
            && let (Some(k), Some(kb)) = (lower_link(a, v, &link), lower_link(b, v, &link))
            && k == kb
        {
            // `v` from `s + k` to `H`; `v - s` at most `H - s_lo`.
            (
                Interval::new(s_hull.lo.checked_add(k)?, va.hi),
                Interval::new(k, va.hi.checked_sub(s_hull.lo)?),
            )
        } else if va.lo == vb.lo
            && let (Some(k), Some(kb)) = (upper_link(a, v, &link), upper_link(b, v, &link))
            && k == kb
        {
            // `v` from `L` to `s + k`; `v - s` at least `L - s_hi`.
            (
                Interval::new(va.lo, s_hull.hi.checked_add(k)?),
                Interval::new(va.lo.checked_sub(s_hull.hi)?, k),
            )
        } else {
            return None;
        };
        let mut dims = a.dims().to_vec();
        dims[v].bounds = bounds.0;
        let mut range_vars = a.range_vars().to_vec();
        range_vars[s].bounds = s_hull;
        let mut map = IndexingMap::new(a.results().to_vec(), dims, range_vars, Vec::new());
        for (e, interval) in others(a) {
            map.add_constraint(e, interval);
        }
        map.add_constraint(link, bounds.1);
        Some(map)
    })
}

/// `k` when `m` is `{s + k <= v}` over its last range variable `s` and dimension `v` (see
/// [`linked_union`]), with `link` the expression `v - s`.
fn lower_link(m: &IndexingMap, v: usize, link: &Expr) -> Option<i64> {
    let s = m.range_vars().last()?.bounds;
    let vb = m.dims()[v].bounds;
    let k = vb.lo.checked_sub(s.lo)?;
    match m.constraints().get(link) {
        Some(i) => (i.lo == k && i.hi >= vb.hi.checked_sub(s.lo)?).then_some(k),
        None => (s.lo == s.hi).then_some(k),
    }
}

/// `k` when `m` is `{v <= s + k}` over its last range variable `s` and dimension `v`.
fn upper_link(m: &IndexingMap, v: usize, link: &Expr) -> Option<i64> {
    let s = m.range_vars().last()?.bounds;
    let vb = m.dims()[v].bounds;
    let k = vb.hi.checked_sub(s.hi)?;
    match m.constraints().get(link) {
        Some(i) => (i.hi == k && i.lo <= vb.lo.checked_sub(s.hi)?).then_some(k),
        None => (s.lo == s.hi).then_some(k),
    }
}

/// `m` with result `r`, the constant `c`, as a new last range variable in `[c, c]`.
fn lift(m: &IndexingMap, r: usize, c: i64) -> IndexingMap {
    let mut results = m.results().to_vec();
    results[r] = Expr::sym(m.range_vars().len() as u32);
    let mut range_vars = m.range_vars().to_vec();
    range_vars.push(Var::new(Interval::new(c, c)));
    m.with_vars(m.dims().to_vec(), range_vars)
        .with_results(results)
}

/// The variables of `a` with the one whose bounds differ from `b`'s widened to the hull of
/// both, and whether one differs; `None` when more than one differs, when the differing
/// bounds neither overlap nor touch, or when names differ.
fn hull_of_one(a: &[Var], b: &[Var]) -> Option<(Vec<Var>, bool)> {
    let mut out = a.to_vec();
    let mut differing = false;
    for (x, (va, vb)) in out.iter_mut().zip(a.iter().zip(b)) {
        if va.name != vb.name {
            return None;
        }
        if va.bounds == vb.bounds {
            continue;
        }
        let (i, j) = (va.bounds, vb.bounds);
        let touching = i.lo <= j.hi.saturating_add(1) && j.lo <= i.hi.saturating_add(1);
        if differing || !touching || !i.is_feasible() || !j.is_feasible() {
            return None;
        }
        differing = true;
        x.bounds = Interval::new(i.lo.min(j.lo), i.hi.max(j.hi));
    }
    Some((out, differing))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;
    use xla_indexing_core::Expr;
    use xla_indexing_testkit::rng::SplitMix64;

    /// Every `(dims, results)` pair the maps relate, by enumeration of their domains.
    fn relation(maps: &[IndexingMap]) -> BTreeSet<(Vec<i64>, Vec<i64>)> {
        let mut out = BTreeSet::new();
        for m in maps {
            let complete = m.for_each_domain_point(1 << 16, |d, s| {
                if let Some(r) = m.evaluate(d, s) {
                    out.insert((d.to_vec(), r));
                }
            });
            assert!(complete, "{m} is too large to enumerate");
        }
        out
    }

    /// A random map over two dimensions and a range variable with a random constraint.
    fn random_map(rng: &mut SplitMix64) -> IndexingMap {
        let var = |rng: &mut SplitMix64| match rng.range(0, 2) {
            0 => Expr::dim(0),
            1 => Expr::dim(1),
            _ => Expr::sym(0),
        };
        let result = |rng: &mut SplitMix64| {
            let (a, b) = (var(rng), var(rng));
            match rng.range(0, 3) {
                0 => a + b * rng.range(-2, 3),
                1 => a.floor_div(rng.range(1, 4)).unwrap(),
                2 => a.modulo(rng.range(1, 4)).unwrap() + b,
                _ => Expr::constant(rng.range(0, 5)),
            }
        };
        let results = vec![result(rng), result(rng)];
        let mut sizes = || Var::new(Interval::new(0, rng.range(0, 5)));
        let (d0, d1, s0) = (sizes(), sizes(), sizes());
        let mut map = IndexingMap::new(results, vec![d0, d1], vec![s0], Vec::new());
        if rng.chance(1, 2) {
            let lo = rng.range(0, 4);
            map.add_constraint(Expr::dim(0) + Expr::sym(0), Interval::new(lo, lo + 3));
        }
        map
    }

    /// `m` cut into pieces along variable `v` (dimensions first, then range variables).
    fn pieces(m: &IndexingMap, v: usize, rng: &mut SplitMix64) -> Vec<IndexingMap> {
        let n_dims = m.dims().len();
        let var = |m: &IndexingMap| {
            if v < n_dims {
                m.dims()[v].clone()
            } else {
                m.range_vars()[v - n_dims].clone()
            }
        };
        let Interval { lo, hi } = var(m).bounds;
        let mut out = Vec::new();
        let mut start = lo;
        while start <= hi {
            let end = rng.range(start, hi);
            let (mut dims, mut range_vars) = (m.dims().to_vec(), m.range_vars().to_vec());
            let bounds = Interval::new(start, end);
            if v < n_dims {
                dims[v].bounds = bounds;
            } else {
                range_vars[v - n_dims].bounds = bounds;
            }
            out.push(m.with_vars(dims, range_vars));
            start = end + 1;
        }
        out
    }

    /// `maps` merged, after asserting that they relate the same points as before.
    fn merged_keeping_every_point(maps: &[IndexingMap]) -> Vec<IndexingMap> {
        let mut accesses: Vec<Access> = maps.iter().cloned().map(Access::plain).collect();
        merge_touching(&mut accesses);
        let merged: Vec<IndexingMap> = accesses.into_iter().map(|a| a.map).collect();
        assert_eq!(relation(&merged), relation(maps), "{maps:?}");
        merged
    }

    /// Merging never changes what a set of maps relates: maps cut along a dimension or a range
    /// variable (some with a piece left out, beside a map of other results) relate the same
    /// points before and after, over every point of their domains.
    #[test]
    fn merging_keeps_every_point() {
        let mut rng = SplitMix64::new(7);
        let mut merged_some = 0;
        for _ in 0..400 {
            let m = random_map(&mut rng);
            let mut maps = pieces(&m, rng.range(0, 2) as usize, &mut rng);
            if maps.len() > 2 && rng.chance(1, 2) {
                // A gap between two pieces.
                maps.remove(rng.range(1, maps.len() as i64 - 2) as usize);
            }
            maps.push(random_map(&mut rng));
            let merged = merged_keeping_every_point(&maps);
            merged_some += usize::from(merged.len() < maps.len());
        }
        assert!(merged_some > 100, "only {merged_some} sets merged");
    }

    /// Maps that differ in one constant result, some constants left out, merge into maps with
    /// a range variable that relate the same points.
    #[test]
    fn constants_become_range_variables() {
        let mut rng = SplitMix64::new(13);
        let mut lifted_some = 0;
        for _ in 0..200 {
            let m = random_map(&mut rng);
            let r = rng.range(0, 1) as usize;
            let mut maps: Vec<IndexingMap> = (0..rng.range(1, 6))
                .filter(|_| rng.chance(3, 4))
                .map(|c| {
                    let mut results = m.results().to_vec();
                    results[r] = Expr::constant(c);
                    m.with_results(results)
                })
                .collect();
            maps.push(random_map(&mut rng));
            let merged = merged_keeping_every_point(&maps);
            lifted_some += usize::from(merged.iter().any(|m| m.range_vars().len() > 1));
        }
        assert!(lifted_some > 50, "only {lifted_some} sets lifted");
    }

    /// Maps whose constant result `c` is where a dimension's rows start (or end), some rows left
    /// out: `{x -> (c, ..) : c + k <= d0}` for each `c` merge into maps with a range variable
    /// and a constraint that relate the same points.
    #[test]
    fn rows_that_start_at_their_constant_merge() {
        let mut rng = SplitMix64::new(17);
        let mut linked_some = 0;
        for _ in 0..300 {
            let m = random_map(&mut rng);
            let (k, h) = (rng.range(-2, 2), rng.range(3, 6));
            let upper = rng.chance(1, 2);
            let mut maps: Vec<IndexingMap> = (0..rng.range(1, 6))
                .filter(|_| rng.chance(4, 5))
                .map(|c| {
                    let mut results = m.results().to_vec();
                    results[0] = Expr::constant(c);
                    let mut dims = m.dims().to_vec();
                    dims[0].bounds = if upper {
                        Interval::new(-h, c + k)
                    } else {
                        Interval::new(c + k, h)
                    };
                    m.with_vars(dims, m.range_vars().to_vec())
                        .with_results(results)
                })
                .collect();
            maps.push(random_map(&mut rng));
            let merged = merged_keeping_every_point(&maps);
            linked_some += usize::from(merged.len() + 1 < maps.len());
        }
        assert!(linked_some > 50, "only {linked_some} sets linked");
    }

    #[test]
    fn pieces_of_one_map_merge_back() {
        let mut rng = SplitMix64::new(11);
        let m = IndexingMap::parse("(d0, d1) -> (d1), domain: d0 in [0, 5], d1 in [0, 3]").unwrap();
        let mut accesses: Vec<Access> = pieces(&m, 0, &mut rng)
            .into_iter()
            .rev()
            .map(Access::plain)
            .collect();
        merge_touching(&mut accesses);
        assert_eq!(accesses, vec![Access::plain(m)]);
    }

    #[test]
    fn gaps_and_two_differences_stay_apart() {
        let a = IndexingMap::parse("(d0) -> (d0), domain: d0 in [0, 1]").unwrap();
        let b = IndexingMap::parse("(d0) -> (d0), domain: d0 in [3, 4]").unwrap();
        assert_eq!(union(&a, &b), None);
        let c = IndexingMap::parse("(d0, d1) -> (d0), domain: d0 in [0, 1], d1 in [0, 0]").unwrap();
        let d = IndexingMap::parse("(d0, d1) -> (d0), domain: d0 in [2, 3], d1 in [1, 1]").unwrap();
        assert_eq!(union(&c, &d), None);
    }
}
