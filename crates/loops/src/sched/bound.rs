//! Bound inference: TVM's InferBound, made exact.
//!
//! Stages are visited consumers first (reverse definition order, a reverse topological order of
//! the read graph). For each stage the ranges of its root variables are inferred (TVM's
//! InferRootBound), then passed down through its splits and fuses (PassDownDomain).
//!
//! InferRootBound, exactly: the loops enclosing the stage (its attach path) stay symbolic; every
//! other loop of a consumer, and every loop enclosing the consumer but not the stage, is relaxed
//! over its range. For each read of the stage by a consumer, the read indices, with the
//! consumer's root variables written through its splits and fuses in terms of its loops, form an
//! indexing map from the attach path (dims) to the elements needed, with the consumer's range
//! variables and loop guards (range vars and constraints). Enumerating those maps gives the exact
//! needed set at every point of the attach path; the realized region is the smallest box around
//! it, written as expressions over the attach path fitted to the enumeration (and checked at every
//! point), and the maps are reported as `exact` when the box holds more than is needed. Where TVM
//! loses precision (PassUpDomain through a fuse, GatherBound's per-dimension union), this does
//! not.
//!
//! PassDownDomain: `split` by `f` of a variable of extent `e` gives `outer` extent `ceil(e / f)`
//! and `inner` extent `f`, tightened to `min(f, e - outer * f)` when `f` does not divide `e`;
//! `fuse` multiplies the extents. Every loop variable runs from 0; a root variable's value is its
//! range's minimum plus its position, `parent = outer * f + inner`, `outer = fused floordiv
//! extent(inner)`, `inner = fused mod extent(inner)`.

use std::collections::{BTreeMap, BTreeSet};

use xla_indexing_core::interval::ceil_div;
use xla_indexing_core::{ArithError, Expr, IndexingMap, Interval, Var, VarRef};

use crate::error::{LoopsError, Pos};
use crate::sched::graph::{IvId, Relation, Schedule, StageId};
use crate::symbolic::{Bound, normalize};

/// Most points enumerated for one stage's needed set (each needed element is kept: about 250
/// bytes a point, so at most a few hundred MB).
const ENUMERATION_LIMIT: u128 = 1 << 20;

/// Most points enumerated for all stages together, so that a long chain of large stages takes
/// bounded time.
const ENUMERATION_BUDGET: u128 = 1 << 22;

/// The inferred bounds of one compute stage. Expressions use `d<id>` for the loop variable of
/// iteration variable `id`.
#[derive(Clone, Debug)]
pub struct StageBounds {
    /// The loops enclosing the stage, outermost first.
    pub attach_path: Vec<IvId>,
    /// Per iteration variable: minimum (over enclosing loops) and extent.
    pub ranges: BTreeMap<IvId, (Expr, Bound)>,
    /// Per iteration variable: the largest extent over all enclosing iterations (loops run over
    /// `[0, max_extent)`, guards cut them where the extent is smaller).
    pub max_extent: BTreeMap<IvId, i64>,
    /// Per root variable: its value in terms of the loops.
    pub root_value: BTreeMap<IvId, Expr>,
    /// Constraints on the loops of this stage and of the loops enclosing it.
    pub guards: Vec<(Expr, Interval)>,
    /// Per read map when the realized box holds elements no consumer reads: the exact maps from
    /// the attach path to the needed elements.
    pub exact: Vec<IndexingMap>,
}

impl StageBounds {
    /// The realized region: per axis, its root variable's range.
    pub fn realize<'a>(
        &'a self,
        sched: &'a Schedule,
        s: StageId,
    ) -> impl Iterator<Item = &'a (Expr, Bound)> + 'a {
        sched.stages[s].axis.iter().map(|a| &self.ranges[a])
    }
}

/// Bounds of every stage (`None` for placeholders).
#[derive(Clone, Debug)]
pub struct Bounds {
    /// Per stage, by [`StageId`]: its bounds, `None` for a placeholder.
    pub stages: Vec<Option<StageBounds>>,
}

/// Runs bound inference.
pub fn infer(sched: &Schedule) -> Result<Bounds, LoopsError> {
    infer_within(sched, ENUMERATION_BUDGET)
}

/// Runs bound inference enumerating at most `budget` points over all stages.
fn infer_within(sched: &Schedule, mut budget: u128) -> Result<Bounds, LoopsError> {
    let mut bounds: Vec<Option<StageBounds>> = vec![None; sched.stages.len()];
    let all_consumers = sched.consumers();
    let mut is_output = vec![false; sched.stages.len()];
    for &s in &sched.outputs {
        is_output[s] = true;
    }
    for s in (0..sched.stages.len()).rev() {
        let stage = &sched.stages[s];
        if stage.body.is_none() {
            continue;
        }
        let path = sched.attach_path(s);
        let consumers = &all_consumers[s];
        if stage.attach.is_some() && consumers.is_empty() {
            return Err(stage.pos.error(format!(
                "`{}` is computed at a loop, but no stage reads it",
                stage.name
            )));
        }
        let (axis_ranges, exact) = if consumers.is_empty() || is_output[s] {
            let full = stage.axis.iter().map(|a| dom_range(sched, *a)).collect();
            (full, Vec::new())
        } else {
            needed(sched, &bounds, s, &path, consumers, &mut budget)?
        };
        let mut roots: Vec<RootRange> = axis_ranges;
        roots.extend(stage.reduce_axis.iter().map(|k| dom_range(sched, *k)));
        let mut b = pass_down(sched, s, &roots)?;
        b.attach_path = path;
        b.exact = exact;
        if let Some((x, _)) = stage.attach {
            let outer = bounds[x]
                .as_ref()
                .map(|o| o.guards.clone())
                .unwrap_or_default();
            b.guards.extend(outer);
        }
        bounds[s] = Some(b);
    }
    Ok(Bounds { stages: bounds })
}

fn dom_range(sched: &Schedule, iv: IvId) -> RootRange {
    let (min, extent) = sched.itervars[iv].dom.unwrap_or((0, 1));
    (Expr::constant(min), Bound::constant(extent), extent)
}

/// PassDownDomain: ranges, loop extents, root values and guards from the root ranges.
fn pass_down(sched: &Schedule, s: StageId, roots: &[RootRange]) -> Result<StageBounds, LoopsError> {
    let stage = &sched.stages[s];
    let pos = stage.pos;
    let mut ranges = BTreeMap::new();
    let mut max_extent = BTreeMap::new();
    for (r, (lo, ext, e)) in stage.roots().zip(roots) {
        ranges.insert(r, (lo.clone(), ext.clone()));
        max_extent.insert(r, *e);
    }
    let zero = Expr::zero();
    for rel in &stage.relations {
        match *rel {
            Relation::Split {
                parent,
                outer,
                inner,
                factor,
            } => {
                let (e, ext) = (max_extent[&parent], ranges[&parent].1.clone());
                max_extent.insert(outer, ceil_div(e, factor));
                max_extent.insert(inner, e.min(factor));
                let (ext_outer, ext_inner) = match ext.as_constant() {
                    Some(c) if c % factor == 0 || c <= factor => (
                        Bound::constant(ceil_div(c, factor)),
                        Bound::constant(c.min(factor)),
                    ),
                    Some(c) => (
                        Bound::constant(ceil_div(c, factor)),
                        tightened(&ext, outer, factor, pos)?,
                    ),
                    None => (
                        ext.ceil_div(factor).map_err(|e| pos.error(e.to_string()))?,
                        tightened(&ext, outer, factor, pos)?,
                    ),
                };
                ranges.insert(outer, (zero.clone(), ext_outer));
                ranges.insert(inner, (zero.clone(), ext_inner));
            }
            Relation::Fuse {
                outer,
                inner,
                fused,
            } => {
                if ranges[&outer].1.as_constant().is_none()
                    || ranges[&inner].1.as_constant().is_none()
                {
                    let n = |v: IvId| &sched.itervars[v].name;
                    return Err(pos.error(format!(
                        "cannot fuse `{}` and `{}`: their extents vary from one enclosing iteration to the next",
                        n(outer),
                        n(inner)
                    )));
                }
                let e = max_extent[&outer]
                    .checked_mul(max_extent[&inner])
                    .ok_or_else(|| pos.error("the fused extent overflows a 64-bit integer"))?;
                max_extent.insert(fused, e);
                ranges.insert(fused, (zero.clone(), Bound::constant(e)));
            }
        }
    }
    // Positions of every variable in terms of the leaf loops.
    let mut rho: BTreeMap<IvId, Expr> = stage
        .leaves
        .iter()
        .map(|l| (*l, Expr::dim(*l as u32)))
        .collect();
    let overflow = |_| pos.error("integer overflow in loop positions");
    for rel in stage.relations.iter().rev() {
        match *rel {
            Relation::Split {
                parent,
                outer,
                inner,
                factor,
            } => {
                let v = rho[&outer]
                    .checked_scale(factor)
                    .and_then(|o| o.checked_add(&rho[&inner]))
                    .map_err(overflow)?;
                rho.insert(parent, v);
            }
            Relation::Fuse {
                outer,
                inner,
                fused,
            } => {
                let e = max_extent[&inner];
                rho.insert(outer, rho[&fused].floor_div(e).map_err(overflow)?);
                rho.insert(inner, rho[&fused].modulo(e).map_err(overflow)?);
            }
        }
    }
    let largest = |e: &Expr| largest_value(e, &max_extent).map_err(overflow);
    let mut guards = Vec::new();
    for (v, position) in &rho {
        if stage.leaves.contains(v) {
            continue;
        }
        let natural = largest(position)?;
        let candidates: Vec<Expr> = match &ranges[v].1 {
            Bound::Expr(e) => vec![e.clone()],
            Bound::Min(xs) => xs.iter().filter_map(|x| x.as_expr().cloned()).collect(),
            Bound::Max(_) => vec![Expr::constant(max_extent[v])],
        };
        for c in candidates {
            match c.as_constant() {
                Some(c) if natural < c => {}
                Some(c) => guards.push((position.clone(), Interval::new(0, c - 1))),
                None => {
                    // position <= c - 1, as `c - 1 - position` in [0, its largest value].
                    let slack = c
                        .checked_add_const(-1)
                        .and_then(|c| c.checked_sub(position))
                        .map_err(overflow)?;
                    let top = largest(&slack)?.max(0);
                    guards.push((slack, Interval::new(0, top)));
                }
            }
        }
    }
    let root_value = stage
        .roots()
        .map(|r| Ok((r, ranges[&r].0.checked_add(&rho[&r]).map_err(overflow)?)))
        .collect::<Result<_, LoopsError>>()?;
    Ok(StageBounds {
        attach_path: Vec::new(),
        ranges,
        max_extent,
        root_value,
        guards,
        exact: Vec::new(),
    })
}

/// The largest value of `e` with every variable `d<v>` in `[0, max_extent[v])` (in `[0, 0]`
/// where `max_extent` has no entry). The map holds only the variables of `e`, renumbered in
/// order, so that the cost does not grow with the number of variables of the schedule.
fn largest_value(e: &Expr, max_extent: &BTreeMap<IvId, i64>) -> Result<i64, ArithError> {
    let mut vars = BTreeSet::new();
    e.for_each_var(&mut |v| {
        if let VarRef::Dim(d) = v {
            vars.insert(d);
        }
    });
    let vars: Vec<u32> = vars.into_iter().collect();
    let local = e.rewrite_vars(&mut |v| match v {
        VarRef::Dim(d) => vars.binary_search(&d).ok().map(|k| Expr::dim(k as u32)),
        VarRef::Sym(_) => None,
    })?;
    let dims = vars
        .iter()
        .map(|d| {
            let extent = max_extent.get(&(*d as usize)).copied().unwrap_or(1);
            Var::new(Interval::upto(extent))
        })
        .collect();
    let map = IndexingMap::new(Vec::new(), dims, Vec::new(), Vec::new());
    Ok(map.expr_range(&local).hi)
}

/// `min(factor, extent - outer * factor)`.
fn tightened(ext: &Bound, outer: IvId, factor: i64, pos: Pos) -> Result<Bound, LoopsError> {
    let shift = Expr::dim(outer as u32)
        .checked_scale(-factor)
        .map_err(|e| pos.error(e.to_string()))?;
    let rest = ext.add_expr(&shift).map_err(|e| pos.error(e.to_string()))?;
    Ok(Bound::min_of(
        vec![Bound::constant(factor), rest],
        &|_, _| false,
    ))
}

/// The maps by which the consumers read stage `s`, from its attach path to its elements.
fn read_maps(
    sched: &Schedule,
    bounds: &[Option<StageBounds>],
    s: StageId,
    path: &[IvId],
    consumers: &[StageId],
) -> Result<Vec<IndexingMap>, LoopsError> {
    let stage = &sched.stages[s];
    let mut maps = Vec::new();
    for &c in consumers {
        let cb = bounds[c].as_ref().expect("consumers are visited first");
        let cstage = &sched.stages[c];
        let enclosing: BTreeSet<IvId> = cstage
            .leaves
            .iter()
            .chain(&cb.attach_path)
            .copied()
            .collect();
        if let Some(v) = path.iter().find(|v| !enclosing.contains(v)) {
            return Err(stage.pos.error(format!(
                "`{}` is computed inside loop `{}`, but its consumer `{}` runs outside that loop",
                stage.name, sched.itervars[*v].name, cstage.name
            )));
        }
        for idx in sched.reads(c, s) {
            let overflow = |_| cstage.pos.error("integer overflow in read indices");
            let results: Vec<Expr> = idx
                .iter()
                .map(|e| {
                    e.rewrite_vars(&mut |v| match v {
                        VarRef::Dim(r) => cb.root_value.get(&(r as usize)).cloned(),
                        VarRef::Sym(_) => None,
                    })
                })
                .collect::<Result<_, _>>()
                .map_err(overflow)?;
            let mut others: Vec<IvId> = Vec::new();
            let mut note = |e: &Expr| {
                e.for_each_var(&mut |v| {
                    if let VarRef::Dim(i) = v
                        && !path.contains(&(i as usize))
                        && !others.contains(&(i as usize))
                    {
                        others.push(i as usize);
                    }
                })
            };
            results.iter().for_each(&mut note);
            cb.guards.iter().for_each(|(g, _)| note(g));
            let extent_of = |v: IvId| {
                let owner = sched.itervars[v].stage;
                bounds[owner]
                    .as_ref()
                    .and_then(|b| b.max_extent.get(&v))
                    .copied()
                    .unwrap_or(1)
            };
            // Default names (`d0`, `s0`): itervar names hold dots, which map text cannot.
            let var = |v: IvId| Var::new(Interval::upto(extent_of(v)));
            let renumber = |e: &Expr| {
                e.rewrite_vars(&mut |v| match v {
                    VarRef::Dim(i) => Some(match path.iter().position(|p| *p == i as usize) {
                        Some(d) => Expr::dim(d as u32),
                        None => Expr::sym(
                            others.iter().position(|o| *o == i as usize).unwrap_or(0) as u32,
                        ),
                    }),
                    VarRef::Sym(_) => None,
                })
            };
            let mut map = IndexingMap::new(
                results
                    .iter()
                    .map(renumber)
                    .collect::<Result<_, _>>()
                    .map_err(overflow)?,
                path.iter().map(|v| var(*v)).collect(),
                others.iter().map(|v| var(*v)).collect(),
                Vec::new(),
            );
            for (g, iv) in &cb.guards {
                map.add_constraint(renumber(g).map_err(overflow)?, *iv);
            }
            map.simplify();
            map.remove_unused_symbols();
            maps.push(map);
        }
    }
    Ok(maps)
}

/// The elements needed at each point of the attach path.
type Needed = BTreeMap<Vec<i64>, BTreeSet<Vec<i64>>>;

/// A root variable's range: minimum, extent, and the largest extent over enclosing iterations.
type RootRange = (Expr, Bound, i64);

/// InferRootBound for a stage with consumers: per axis its range, and the exact maps when the
/// box is larger than what is read. The points enumerated are taken from `budget`.
fn needed(
    sched: &Schedule,
    bounds: &[Option<StageBounds>],
    s: StageId,
    path: &[IvId],
    consumers: &[StageId],
    budget: &mut u128,
) -> Result<(Vec<RootRange>, Vec<IndexingMap>), LoopsError> {
    let stage = &sched.stages[s];
    let maps = read_maps(sched, bounds, s, path, consumers)?;
    let mut need: Needed = BTreeMap::new();
    for map in &maps {
        let size = map.box_size();
        if size <= ENUMERATION_LIMIT && size > *budget {
            return Err(stage.pos.error(format!(
                "`{}`: the schedule has too many loop iterations to infer its bounds exactly (more than {ENUMERATION_BUDGET} over all stages)",
                stage.name
            )));
        }
        *budget = budget.saturating_sub(size);
        let mut overflow = false;
        let enumerated =
            map.for_each_domain_point(ENUMERATION_LIMIT, |d, sy| match map.evaluate(d, sy) {
                Some(element) => {
                    need.entry(d.to_vec()).or_default().insert(element);
                }
                None => overflow = true,
            });
        if !enumerated {
            return Err(stage.pos.error(format!("`{}`: too many loop iterations to infer its bounds exactly (more than {ENUMERATION_LIMIT})", stage.name)));
        }
        if overflow {
            return Err(stage.pos.error("integer overflow in read indices"));
        }
    }
    let mut local = Vec::new();
    for (j, &a) in stage.axis.iter().enumerate() {
        if need.is_empty() {
            local.push(None);
            continue;
        }
        let truth = |pick: fn(i64, i64) -> i64| -> Vec<(Vec<i64>, i64)> {
            need.iter()
                .map(|(p, els)| {
                    (
                        p.clone(),
                        els.iter().map(|e| e[j]).reduce(pick).unwrap_or(0),
                    )
                })
                .collect()
        };
        let (lo_true, hi_true) = (truth(i64::min), truth(i64::max));
        let cands = candidates(&maps, j, path.len());
        let lo = fit_single(&cands, &lo_true)
            .unwrap_or_else(|| Expr::constant(lo_true.iter().map(|x| x.1).min().unwrap_or(0)));
        let hi = fit_single(&cands, &hi_true)
            .map(Bound::Expr)
            .or_else(|| fit_pair(&cands, &hi_true))
            .unwrap_or_else(|| Bound::constant(hi_true.iter().map(|x| x.1).max().unwrap_or(0)));
        let overflow = |_| stage.pos.error("integer overflow in region bounds");
        let extent = hi
            .add_expr(
                &lo.checked_scale(-1)
                    .and_then(|l| l.checked_add_const(1))
                    .map_err(overflow)?,
            )
            .map_err(overflow)?;
        // Constants first: `min(3, 8 - o * 3)`.
        let extent = match extent {
            Bound::Min(mut xs) => {
                xs.sort_by_key(|x| x.as_constant().is_none());
                Bound::Min(xs)
            }
            other => other,
        };
        local.push(Some((a, lo, extent)));
    }
    let exact_box = need.iter().all(|(p, els)| {
        let volume = local
            .iter()
            .flatten()
            .try_fold(1i64, |acc, (_, _, ext)| acc.checked_mul(ext.eval(p, &[])?));
        volume == Some(els.len() as i64)
    });
    let overflow = |_| stage.pos.error("integer overflow in region bounds");
    let to_global = |e: &Expr| {
        e.rewrite_vars(&mut |v| match v {
            VarRef::Dim(d) => Some(Expr::dim(path[d as usize] as u32)),
            VarRef::Sym(_) => None,
        })
    };
    let mut axes = Vec::new();
    for (entry, &a) in local.into_iter().zip(&stage.axis) {
        let Some((_, lo, extent)) = entry else {
            axes.push(dom_range(sched, a));
            continue;
        };
        let largest = need
            .keys()
            .filter_map(|p| extent.eval(p, &[]))
            .max()
            .unwrap_or(1)
            .max(1);
        let lo_g = normalize(&to_global(&lo).map_err(overflow)?).map_err(overflow)?;
        let ext_g = extent.map_leaves(&mut |e| to_global(e)).map_err(overflow)?;
        axes.push((lo_g, ext_g, largest));
    }
    Ok((axes, if exact_box { Vec::new() } else { maps }))
}

/// Candidate expressions (over the attach path) for the bounds of result `j`: the result with
/// every range variable at an end of its range or at a value a constraint pins it to.
fn candidates(maps: &[IndexingMap], j: usize, ndims: usize) -> Vec<Expr> {
    let mut out: Vec<Expr> = Vec::new();
    for map in maps {
        let mut stack: Vec<(Expr, usize)> = vec![(map.results()[j].clone(), 0)];
        while let Some((e, depth)) = stack.pop() {
            if out.len() > 256 {
                break;
            }
            let mut first = None;
            e.for_each_var(&mut |v| {
                if first.is_none() && matches!(v, VarRef::Sym(_)) {
                    first = Some(v);
                }
            });
            let Some(t) = first else {
                let dims =
                    IndexingMap::new(vec![e.clone()], map.dims().to_vec(), Vec::new(), Vec::new());
                let mut simple = dims.clone();
                simple.simplify();
                let c = normalize(&simple.results()[0]).unwrap_or(e);
                if !out.contains(&c) {
                    out.push(c);
                }
                continue;
            };
            let bounds = map.var(t).map_or(Interval::point(0), |v| v.bounds);
            let mut values = vec![Expr::constant(bounds.lo), Expr::constant(bounds.hi)];
            if depth < 2 * (ndims + map.range_vars().len()) {
                for (g, iv) in map.constraints() {
                    for (atom, coef) in g.terms() {
                        if atom == &xla_indexing_core::Atom::Var(t) && coef.abs() == 1 {
                            let rest = g.checked_sub(
                                &Expr::var(t)
                                    .checked_scale(*coef)
                                    .unwrap_or_else(|_| Expr::zero()),
                            );
                            for end in [iv.lo, iv.hi] {
                                if end == i64::MAX || end == i64::MIN {
                                    continue;
                                }
                                // coef * t + rest = end
                                if let Ok(v) = rest.as_ref().map(|r| {
                                    Expr::constant(end)
                                        .checked_sub(r)
                                        .and_then(|x| x.checked_scale(*coef))
                                }) {
                                    values.extend(v.ok());
                                }
                            }
                        }
                    }
                }
            }
            for v in values {
                if let Ok(next) = e.rewrite_vars(&mut |w| (w == t).then(|| v.clone())) {
                    stack.push((next, depth + 1));
                }
            }
        }
    }
    out.sort_by_key(Expr::cost);
    out
}

fn fit_single(cands: &[Expr], truth: &[(Vec<i64>, i64)]) -> Option<Expr> {
    cands
        .iter()
        .find(|c| truth.iter().all(|(p, v)| c.eval(p, &[]) == Some(*v)))
        .cloned()
}

fn fit_pair(cands: &[Expr], truth: &[(Vec<i64>, i64)]) -> Option<Bound> {
    for (i, a) in cands.iter().enumerate() {
        for b in &cands[i + 1..] {
            for is_min in [true, false] {
                let ok = truth
                    .iter()
                    .all(|(p, v)| match (a.eval(p, &[]), b.eval(p, &[])) {
                        (Some(x), Some(y)) => (if is_min { x.min(y) } else { x.max(y) }) == *v,
                        _ => false,
                    });
                if ok {
                    // Constants first: `min(3, 8 - o * 3)`.
                    let (a, b) = if b.as_constant().is_some() {
                        (b, a)
                    } else {
                        (a, b)
                    };
                    let pair = vec![Bound::Expr(a.clone()), Bound::Expr(b.clone())];
                    return Some(if is_min {
                        Bound::Min(pair)
                    } else {
                        Bound::Max(pair)
                    });
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chain `A -> B -> C` of 4 x 4 stages: B and C enumerate 16 points each.
    const CHAIN: &str = "A = placeholder((4, 4))\n\
                         B = compute((4, 4), lambda i, j: A[i, j] + 1)\n\
                         C = compute((4, 4), lambda i, j: B[i, j] * 2)\n\
                         D = compute((4, 4), lambda i, j: C[i, j] * 2)\n\
                         s = create_schedule(D)\n";

    #[test]
    fn enumeration_budget_spans_stages() {
        let sched = crate::sched::parse(CHAIN).expect("parses");
        assert!(infer_within(&sched, 32).is_ok());
        let e = infer_within(&sched, 31).expect_err("B's 16 points exceed the 15 left");
        assert!(
            e.message
                .starts_with("`B`: the schedule has too many loop iterations"),
            "{}",
            e.message
        );
        assert!(
            e.message.contains(&ENUMERATION_BUDGET.to_string()),
            "{}",
            e.message
        );
    }
}
