//! Comparisons of maps by evaluation: point by point (the same variables), or as relations (the
//! set of `(outer variables, results)` pairs, every other variable taking all its values).
//!
//! A box of at most [`ALL_LIMIT`] points is enumerated; a larger one is checked at its corners
//! and at a deterministic random sample, and the [`Coverage`] says which.

use std::collections::BTreeSet;
use std::fmt;

use xla_indexing_core::{IndexingMap, Interval};
use xla_indexing_testkit::rng::SplitMix64;

use super::reference::RefMap;

/// Boxes of at most this many points are enumerated.
pub const ALL_LIMIT: u128 = 200_000;
/// Random points checked in a box too large to enumerate (the corners come on top).
pub const SAMPLE: usize = 20_000;
/// Evaluations one relation comparison may spend (outer points times inner points).
pub const RELATION_WORK: u128 = 500_000;
/// Largest inner box (the variables a relation quantifies over) that is enumerated.
pub const INNER_LIMIT: u128 = 4_000_000;

/// A map seen through evaluation: flat variables (dims, range vars, runtime vars).
pub trait Graph {
    fn num_dims(&self) -> usize;
    fn num_range(&self) -> usize;
    fn num_rt(&self) -> usize;
    /// Bounds of every variable (empty intervals allowed).
    fn bounds(&self) -> Vec<Interval>;
    /// Whether a point lies in the domain.
    fn holds(&self, p: &[i64]) -> bool;
    /// The results at a point (`None` where undefined).
    fn value(&self, p: &[i64]) -> Option<Vec<i64>>;
    /// Whether the map is `KNOWN EMPTY`.
    fn known_empty(&self) -> bool;
}

impl Graph for IndexingMap {
    fn num_dims(&self) -> usize {
        self.dims().len()
    }
    fn num_range(&self) -> usize {
        self.range_vars().len()
    }
    fn num_rt(&self) -> usize {
        self.rt_vars().len()
    }
    fn bounds(&self) -> Vec<Interval> {
        self.all_vars().map(|v| v.bounds).collect()
    }
    fn holds(&self, p: &[i64]) -> bool {
        let (d, s) = p.split_at(self.dims().len().min(p.len()));
        self.contains(d, s)
    }
    fn value(&self, p: &[i64]) -> Option<Vec<i64>> {
        let (d, s) = p.split_at(self.dims().len().min(p.len()));
        self.evaluate(d, s)
    }
    fn known_empty(&self) -> bool {
        self.is_known_empty()
    }
}

impl Graph for RefMap {
    fn num_dims(&self) -> usize {
        self.num_dims
    }
    fn num_range(&self) -> usize {
        self.num_range
    }
    fn num_rt(&self) -> usize {
        self.num_rt
    }
    fn bounds(&self) -> Vec<Interval> {
        self.bounds.clone()
    }
    fn holds(&self, p: &[i64]) -> bool {
        RefMap::holds(self, p)
    }
    fn value(&self, p: &[i64]) -> Option<Vec<i64>> {
        RefMap::value(self, p)
    }
    fn known_empty(&self) -> bool {
        self.known_empty
    }
}

/// How a comparison covered its box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coverage {
    /// Every point of a box of this many points.
    All(u128),
    /// This many points: the corners and a random sample of a larger box.
    Sample(usize),
}

impl Coverage {
    /// `all` or `sample`, as the cases state it.
    pub fn mode(self) -> &'static str {
        match self {
            Coverage::All(_) => "all",
            Coverage::Sample(_) => "sample",
        }
    }

    /// The weaker of two coverages.
    pub fn min(self, other: Coverage) -> Coverage {
        match (self, other) {
            (Coverage::Sample(a), Coverage::Sample(b)) => Coverage::Sample(a.min(b)),
            (Coverage::Sample(a), _) | (_, Coverage::Sample(a)) => Coverage::Sample(a),
            (Coverage::All(a), Coverage::All(b)) => Coverage::All(a.max(b)),
        }
    }
}

impl fmt::Display for Coverage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Coverage::All(n) => write!(f, "all {n} points"),
            Coverage::Sample(n) => write!(f, "{n} sampled points and corners"),
        }
    }
}

/// Number of points of a box (0 if any interval is empty).
pub fn box_size(bounds: &[Interval]) -> u128 {
    bounds
        .iter()
        .fold(1u128, |acc, b| acc.saturating_mul(b.count()))
}

/// The smallest interval holding both (an empty one holds nothing).
fn hull(a: Interval, b: Interval) -> Interval {
    match (a.is_feasible(), b.is_feasible()) {
        (true, true) => Interval::new(a.lo.min(b.lo), a.hi.max(b.hi)),
        (true, false) => a,
        _ => b,
    }
}

/// Calls `f` at every point of the box if it has at most `limit` points, else at its corners and
/// at `sample` random points (seeded, so every run checks the same points).
pub fn for_points(
    bounds: &[Interval],
    limit: u128,
    sample: usize,
    mut f: impl FnMut(&[i64]) -> Result<(), String>,
) -> Result<Coverage, String> {
    if bounds.iter().any(|b| !b.is_feasible()) {
        return Ok(Coverage::All(0));
    }
    let size = box_size(bounds);
    if size <= limit {
        let mut p: Vec<i64> = bounds.iter().map(|b| b.lo).collect();
        loop {
            f(&p)?;
            if !step(&mut p, bounds) {
                return Ok(Coverage::All(size));
            }
        }
    }
    let mut rng = SplitMix64::new(0x5eed_cafe);
    let corners = bounds.len().min(12);
    for mask in 0u32..(1 << corners) {
        let p: Vec<i64> = bounds
            .iter()
            .enumerate()
            .map(|(i, b)| {
                if i < corners {
                    if mask >> i & 1 == 1 { b.hi } else { b.lo }
                } else {
                    rng.range(b.lo, b.hi)
                }
            })
            .collect();
        f(&p)?;
    }
    for _ in 0..sample {
        let p: Vec<i64> = bounds.iter().map(|b| rng.range(b.lo, b.hi)).collect();
        f(&p)?;
    }
    Ok(Coverage::Sample(sample + (1 << corners)))
}

/// The next point of a box in lexicographic order; `false` after the last.
fn step(p: &mut [i64], bounds: &[Interval]) -> bool {
    for (x, b) in p.iter_mut().zip(bounds).rev() {
        if *x < b.hi {
            *x += 1;
            return true;
        }
        *x = b.lo;
    }
    false
}

/// Shows a point with the names `d0, s0, ...` of its flat variables.
fn show(p: &[i64]) -> String {
    format!("{p:?}")
}

/// Whether two maps with the same variables agree at every point: the same points are in the
/// domain, with the same results there. `right_of[i]` is the variable of `a` that variable `i`
/// of `b` stands for (`None`: the same order). A `KNOWN EMPTY` text map (no variables) agrees
/// with a map whose domain has no point.
pub fn pointwise(
    a: &dyn Graph,
    b: &dyn Graph,
    right_of: Option<&[usize]>,
    labels: (&str, &str),
) -> Result<Coverage, String> {
    let (la, lb) = labels;
    let (ba, bb) = (a.bounds(), b.bounds());
    for (empty, other, name) in [(a, b, lb), (b, a, la)] {
        if empty.known_empty() && empty.bounds().is_empty() {
            return for_points(&other.bounds(), ALL_LIMIT, SAMPLE, |p| {
                if other.holds(p) {
                    return Err(format!(
                        "{name} has the point {} in its domain, the other is empty",
                        show(p)
                    ));
                }
                Ok(())
            });
        }
    }
    if ba.len() != bb.len() {
        return Err(format!(
            "{la} has {} variables, {lb} has {}",
            ba.len(),
            bb.len()
        ));
    }
    let perm: Vec<usize> = right_of.map_or_else(|| (0..bb.len()).collect(), <[usize]>::to_vec);
    let hull_box: Vec<Interval> = (0..ba.len())
        .map(|i| {
            let j = perm.iter().position(|&k| k == i).unwrap_or(i);
            hull(ba[i], bb[j])
        })
        .collect();
    let mut pb = vec![0; bb.len()];
    for_points(&hull_box, ALL_LIMIT, SAMPLE, |p| {
        for (j, slot) in pb.iter_mut().enumerate() {
            *slot = p[perm[j]];
        }
        let (ha, hb) = (a.holds(p), b.holds(&pb));
        if ha != hb {
            let (yes, no) = if ha { (la, lb) } else { (lb, la) };
            return Err(format!(
                "at {} only {yes} has the point in its domain, not {no}",
                show(p)
            ));
        }
        if ha {
            let (va, vb) = (a.value(p), b.value(&pb));
            if va != vb {
                return Err(format!(
                    "at {}: {la} gives {va:?}, {lb} gives {vb:?}",
                    show(p)
                ));
            }
        }
        Ok(())
    })
}

/// One side of a relation comparison: maps, each with the positions (flat) of its outer
/// variables, in the common outer order.
pub struct Side<'a> {
    pub label: &'a str,
    pub maps: Vec<(&'a dyn Graph, Vec<usize>)>,
}

/// The outer variables of a map: its dims, and its runtime vars when `keyed_rt` (runtime vars
/// are then compared value by value, in order; otherwise they are quantified like range vars).
pub fn outer_vars(g: &dyn Graph, keyed_rt: bool) -> Vec<usize> {
    let mut v: Vec<usize> = (0..g.num_dims()).collect();
    if keyed_rt {
        let start = g.num_dims() + g.num_range();
        v.extend(start..start + g.num_rt());
    }
    v
}

/// The results a map reaches at one outer point, over all its inner variables.
fn image(
    g: &dyn Graph,
    outer: &[usize],
    at: &[i64],
    out: &mut BTreeSet<Vec<i64>>,
) -> Result<(), String> {
    let bounds = g.bounds();
    if outer.iter().zip(at).any(|(&i, x)| !bounds[i].contains(*x)) {
        return Ok(());
    }
    let inner: Vec<usize> = (0..bounds.len()).filter(|i| !outer.contains(i)).collect();
    let inner_box: Vec<Interval> = inner.iter().map(|&i| bounds[i]).collect();
    let mut p = vec![0; bounds.len()];
    for (&i, &x) in outer.iter().zip(at) {
        p[i] = x;
    }
    let coverage = for_points(&inner_box, INNER_LIMIT, 0, |q| {
        for (&i, &x) in inner.iter().zip(q) {
            p[i] = x;
        }
        if g.holds(&p) {
            out.insert(
                g.value(&p)
                    .ok_or_else(|| format!("undefined at {}", show(&p)))?,
            );
        }
        Ok(())
    })?;
    match coverage {
        Coverage::All(_) => Ok(()),
        Coverage::Sample(_) => Err(format!(
            "too many inner points ({}) to enumerate",
            box_size(&inner_box)
        )),
    }
}

/// Whether two sets of maps describe the same relation: at every outer point (all of them, or
/// a sample when the work would be too large) the union of the results the maps reach over
/// their inner variables is the same.
pub fn same_relation(a: &Side<'_>, b: &Side<'_>) -> Result<Coverage, String> {
    // A known-empty map reaches nothing: its variables (none, for `KNOWN EMPTY` text) do not
    // count.
    let live = || {
        a.maps
            .iter()
            .chain(&b.maps)
            .filter(|(g, _)| !g.known_empty())
    };
    let arity = live().map(|(_, o)| o.len()).max();
    let Some(arity) = arity else {
        return Ok(Coverage::All(0));
    };
    if let Some((g, o)) = live().find(|(_, o)| o.len() != arity) {
        return Err(format!(
            "outer arity differs: {} against {arity} (a map of {} dims)",
            o.len(),
            g.num_dims()
        ));
    }
    let mut outer_box = vec![Interval::new(0, -1); arity];
    let mut inner_max = 1u128;
    for (g, o) in a.maps.iter().chain(&b.maps) {
        if g.known_empty() {
            continue;
        }
        let bounds = g.bounds();
        for (k, &i) in o.iter().enumerate() {
            outer_box[k] = hull(outer_box[k], bounds[i]);
        }
        let inner: Vec<Interval> = (0..bounds.len())
            .filter(|i| !o.contains(i))
            .map(|i| bounds[i])
            .collect();
        inner_max = inner_max.max(box_size(&inner));
    }
    let inner_total = inner_max * (a.maps.len() + b.maps.len()).max(1) as u128;
    let affordable = (RELATION_WORK / inner_total.max(1)).min(ALL_LIMIT);
    let sample = usize::try_from(affordable).unwrap_or(2000).clamp(64, 2000);
    // A box no larger than the sample would be is enumerated instead.
    let limit = affordable.max(sample as u128 + (1 << arity.min(12)));
    for_points(&outer_box, limit, sample, |at| {
        let mut sets = [BTreeSet::new(), BTreeSet::new()];
        for (side, set) in [a, b].iter().zip(sets.iter_mut()) {
            for (g, o) in &side.maps {
                if !g.known_empty() {
                    image(*g, o, at, set)?;
                }
            }
        }
        if sets[0] != sets[1] {
            let only_a: Vec<_> = sets[0].difference(&sets[1]).take(3).collect();
            let only_b: Vec<_> = sets[1].difference(&sets[0]).take(3).collect();
            return Err(format!(
                "at {}: only {} reaches {only_a:?}, only {} reaches {only_b:?}",
                show(at),
                a.label,
                b.label
            ));
        }
        Ok(())
    })
}
