//! Tile propagation: from a tile of a fusion's output to the tile of each operand it reads.
//!
//! An output tile of sizes `T` splits output dimension `i` into `ceil(D_i / T_i)` tiles; tile
//! `t` covers `t_i × T_i + e_i` for `e_i` in `[0, T_i - 1]` (sizes larger than a dimension are
//! clamped to it). Composing that with an output-to-operand map gives, per operand dimension, an
//! expression in the tile ids `t`, the in-tile positions `e`, the operand's range variables and
//! runtime variables. A dimension has a tile when that expression is `offset(t, rt) + delta(e,
//! s)`: its offset is the smallest value, its stride the gcd of the steps of `delta`, its size
//! the span over the stride. The tile is *exact* when every dimension's values fill their
//! progression and dimensions that share a variable fill their product; otherwise it
//! over-approximates, and says why. It cannot be expressed when the shape of the read depends
//! on the tile id or on a runtime value. The last tile along a dimension that the size does not
//! divide is partial; its propagated tile is that of a full tile, an over-approximation, so
//! exactness is claimed for full tiles only.

use std::collections::HashSet;

use xla_indexing_core::interval::gcd;
use xla_indexing_core::print::Names;
use xla_indexing_core::{Expr, IndexingMap, Interval, Var, VarRef};

/// The most points enumerated to find one dimension's values or to check a joint image.
pub const ENUMERATION_LIMIT: u128 = 1 << 20;

/// A tiling of an output.
#[derive(Clone, Debug, PartialEq)]
pub struct OutputTile {
    /// The output's dimension sizes.
    pub dims: Vec<i64>,
    /// Tile sizes, clamped to the dimensions.
    pub sizes: Vec<i64>,
    /// Tiles per dimension.
    pub counts: Vec<i64>,
    /// `(t.., e..) -> (t_i * T_i + e_i, ..)`, tile ids then in-tile positions, no tail
    /// constraint (the last tile is treated as full).
    pub map: IndexingMap,
}

/// The tile of one operand read by one output tile.
#[derive(Clone, Debug, PartialEq)]
pub struct OperandTile {
    /// `(t..){rt..} -> (offsets..)`: the tile's first element per operand dimension.
    pub offsets: IndexingMap,
    /// Positions of the tile per operand dimension.
    pub sizes: Vec<i64>,
    /// Step between neighbouring positions per operand dimension (0 where the size is 1).
    pub strides: Vec<i64>,
    /// Whether the tile is exactly the set of elements read (under `exact_when`).
    pub exact: bool,
    /// Conditions on tile ids and runtime values under which `exact` holds, over the
    /// variables of `offsets`.
    pub exact_when: Vec<(Expr, Interval)>,
    /// Why the tile over-approximates, when it does.
    pub over: Vec<String>,
}

/// Why a tile cannot be built or expressed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct TileError(pub String);

impl From<String> for TileError {
    fn from(why: String) -> TileError {
        TileError(why)
    }
}

impl From<&str> for TileError {
    fn from(why: &str) -> TileError {
        TileError(why.to_string())
    }
}

/// The tiling of an output of dimensions `dims` by `sizes` (one per dimension, each at least 1).
pub fn output_tile(dims: &[i64], sizes: &[i64]) -> Result<OutputTile, TileError> {
    if dims.len() != sizes.len() {
        return Err(TileError(format!(
            "the tile has {} sizes but the output has rank {}",
            sizes.len(),
            dims.len()
        )));
    }
    if let Some(s) = sizes.iter().find(|&&s| s < 1) {
        return Err(TileError(format!("tile size {s} is not positive")));
    }
    let r = dims.len();
    let sizes: Vec<i64> = sizes
        .iter()
        .zip(dims)
        .map(|(&s, &d)| s.min(d.max(1)))
        .collect();
    let counts: Vec<i64> = dims
        .iter()
        .zip(&sizes)
        .map(|(&d, &s)| xla_indexing_core::interval::ceil_div(d.max(1), s))
        .collect();
    let mut results = Vec::with_capacity(r);
    let mut vars: Vec<Var> = Vec::with_capacity(2 * r);
    for i in 0..r {
        let e = Expr::dim(i as u32)
            .checked_scale(sizes[i])
            .and_then(|x| x.checked_add(&Expr::dim((r + i) as u32)))
            .map_err(|e| TileError(e.to_string()))?;
        results.push(e);
        vars.push(Var::named(Interval::upto(counts[i]), format!("t{i}")));
    }
    for (i, &s) in sizes.iter().enumerate() {
        vars.push(Var::named(Interval::upto(s), format!("e{i}")));
    }
    Ok(OutputTile {
        dims: dims.to_vec(),
        map: IndexingMap::new(results, vars, Vec::new(), Vec::new()),
        sizes,
        counts,
    })
}

impl OutputTile {
    /// Tiles per dimension that are full.
    pub fn full_counts(&self) -> Vec<i64> {
        self.dims
            .iter()
            .zip(&self.sizes)
            .map(|(d, s)| d / s)
            .collect()
    }

    /// The output elements tile `t` covers (clipped to the output).
    pub fn elements(&self, t: &[i64]) -> Vec<Vec<i64>> {
        let ranges: Vec<Interval> = (0..self.dims.len())
            .map(|i| {
                Interval::new(
                    t[i] * self.sizes[i],
                    ((t[i] + 1) * self.sizes[i]).min(self.dims[i]) - 1,
                )
            })
            .collect();
        let mut out = Vec::new();
        let mut p: Vec<i64> = ranges.iter().map(|r| r.lo).collect();
        if ranges.iter().any(|r| !r.is_feasible()) {
            return out;
        }
        loop {
            out.push(p.clone());
            let mut i = p.len();
            loop {
                if i == 0 {
                    return out;
                }
                i -= 1;
                if p[i] < ranges[i].hi {
                    p[i] += 1;
                    break;
                }
                p[i] = ranges[i].lo;
            }
        }
    }
}

impl OperandTile {
    /// The elements of the tile for tile ids `t` and runtime values `rt`.
    pub fn elements(&self, t: &[i64], rt: &[i64]) -> Option<Vec<Vec<i64>>> {
        let base = self.offsets.evaluate(t, rt)?;
        let mut out = Vec::new();
        let mut k = vec![0i64; base.len()];
        loop {
            out.push(
                base.iter()
                    .zip(&k)
                    .zip(&self.strides)
                    .map(|((b, k), s)| b + k * s)
                    .collect(),
            );
            let mut i = k.len();
            loop {
                if i == 0 {
                    return Some(out);
                }
                i -= 1;
                if k[i] + 1 < self.sizes[i] {
                    k[i] += 1;
                    break;
                }
                k[i] = 0;
            }
        }
    }

    /// A condition of `exact_when`, printed with the offsets' variable names.
    pub fn condition_text(&self, i: usize) -> String {
        let (dims, syms) = self.offsets.var_names();
        let names = Names {
            dims: &dims,
            syms: &syms,
        };
        let (e, iv) = &self.exact_when[i];
        format!("{} in {iv}", e.display(&names))
    }
}

/// Propagates `tile` through `operand_map` (output element to operand element).
pub fn propagate(tile: &OutputTile, operand_map: &IndexingMap) -> Result<OperandTile, TileError> {
    let r = tile.dims.len();
    let err = |e: &dyn std::fmt::Display| TileError(e.to_string());
    let mut c = tile.map.compose(operand_map).map_err(|e| err(&e))?;
    for e in tile.map.results() {
        c.erase_constraint(e);
    }
    c.simplify();
    if c.is_known_empty() {
        return Err(TileError("the operand is not read".into()));
    }
    let nr = c.range_vars().len();
    let is_tile_id = |v: VarRef| matches!(v, VarRef::Dim(i) if (i as usize) < r);
    let is_runtime = |v: VarRef| matches!(v, VarRef::Sym(i) if i as usize >= nr);
    // Offsets: every e at 0 and every range variable at its lower bound.
    let zero_e: Vec<Expr> = (0..2 * r)
        .map(|i| {
            if i < r {
                Expr::dim(i as u32)
            } else {
                Expr::zero()
            }
        })
        .collect();
    let low_s: Vec<Expr> = (0..c.num_symbols())
        .map(|i| match c.range_vars().get(i) {
            Some(v) => Expr::constant(v.bounds.lo),
            None => Expr::sym(i as u32),
        })
        .collect();
    let mut box_map = c.clone();
    box_map.clear_constraints();
    let mut offsets = Vec::new();
    let (mut sizes, mut strides) = (Vec::new(), Vec::new());
    let mut deltas = Vec::new();
    for (j, rj) in c.results().iter().enumerate() {
        let base = rj.substitute(&zero_e, &low_s).map_err(|e| err(&e))?;
        let delta = rj.checked_sub(&base).map_err(|e| err(&e))?;
        let delta = simplified(&box_map, delta);
        let mut varies = false;
        delta.for_each_var(&mut |v| varies |= is_tile_id(v) || is_runtime(v));
        if varies {
            return Err(TileError(format!(
                "operand dimension {j}: the shape of the read depends on the tile id or a runtime value ({})",
                delta.display(&Names {
                    dims: &c.var_names().0,
                    syms: &c.var_names().1
                })
            )));
        }
        let values = values_of(&box_map, &delta).ok_or_else(|| {
            TileError(format!(
                "operand dimension {j}: too many positions to enumerate"
            ))
        })?;
        let lo = values[0];
        let step = values.iter().fold(0i64, |g, v| gcd(g, v - lo));
        let size = if step == 0 {
            1
        } else {
            (values[values.len() - 1] - lo) / step + 1
        };
        offsets.push(base.checked_add_const(lo).map_err(|e| err(&e))?);
        sizes.push(size);
        strides.push(step);
        deltas.push((delta, values.len() as i64 == size));
    }
    let mut over = Vec::new();
    for (j, (_, fills)) in deltas.iter().enumerate() {
        if !fills {
            over.push(format!(
                "operand dimension {j}: the read skips elements of its progression"
            ));
        }
    }
    over.extend(joint_gaps(&box_map, &deltas, &sizes));
    let mut exact_when = Vec::new();
    for (e, iv) in c.constraints() {
        let mut inner = false;
        e.for_each_var(&mut |v| inner |= !(is_tile_id(v) || is_runtime(v)));
        if inner {
            let names = c.var_names();
            over.push(format!(
                "the read is limited by {} in {iv}",
                e.display(&Names {
                    dims: &names.0,
                    syms: &names.1
                })
            ));
        } else {
            exact_when.push((to_offset_vars(e, r, nr).map_err(|e| err(&e))?, *iv));
        }
    }
    for (i, (&full, &count)) in tile.full_counts().iter().zip(&tile.counts).enumerate() {
        if full < count {
            exact_when.push((Expr::dim(i as u32), Interval::upto(full)));
        }
    }
    let offsets = offsets
        .iter()
        .map(|o| to_offset_vars(o, r, nr))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| err(&e))?;
    let mut offset_map = IndexingMap::new(
        offsets,
        tile.map.dims()[..r].to_vec(),
        Vec::new(),
        c.rt_vars().to_vec(),
    );
    offset_map.simplify();
    Ok(OperandTile {
        offsets: offset_map,
        sizes,
        strides,
        exact: over.is_empty(),
        exact_when,
        over,
    })
}

/// Renumbers an expression over `(t.., e..)[range.., rt..]` with no `e` and no range variable
/// into one over `(t..){rt..}`.
fn to_offset_vars(e: &Expr, r: usize, nr: usize) -> Result<Expr, xla_indexing_core::ArithError> {
    e.rewrite_vars(&mut |v| match v {
        VarRef::Sym(i) if i as usize >= nr => Some(Expr::sym(i - nr as u32)),
        VarRef::Dim(i) if (i as usize) < r => None,
        _ => Some(Expr::zero()),
    })
}

/// The distinct values of `e` over the box of the variables it uses, sorted; `None` when the
/// box is too large.
fn values_of(map: &IndexingMap, e: &Expr) -> Option<Vec<i64>> {
    let mut out: Vec<i64> = enumerate(map, std::slice::from_ref(e))?
        .into_iter()
        .map(|v| v[0])
        .collect();
    out.sort_unstable();
    out.dedup();
    if out.is_empty() {
        out.push(0);
    }
    Some(out)
}

/// The distinct tuples of `exprs` over the box of the variables they use; `None` past
/// [`ENUMERATION_LIMIT`] points or where an expression is undefined.
pub(crate) fn enumerate(map: &IndexingMap, exprs: &[Expr]) -> Option<HashSet<Vec<i64>>> {
    let mut used: Vec<VarRef> = Vec::new();
    for e in exprs {
        e.for_each_var(&mut |v| {
            if !used.contains(&v) {
                used.push(v)
            }
        });
    }
    let bounds: Vec<Interval> = used
        .iter()
        .map(|&v| map.var(v).map(|x| x.bounds))
        .collect::<Option<_>>()?;
    if bounds
        .iter()
        .fold(1u128, |a, b| a.saturating_mul(b.count()))
        > ENUMERATION_LIMIT
    {
        return None;
    }
    let mut dims = vec![0i64; map.dims().len()];
    let mut syms = vec![0i64; map.num_symbols()];
    let mut out = HashSet::new();
    if bounds.iter().any(|b| !b.is_feasible()) {
        return Some(out);
    }
    let mut p: Vec<i64> = bounds.iter().map(|b| b.lo).collect();
    loop {
        for (v, x) in used.iter().zip(&p) {
            match v {
                VarRef::Dim(i) => dims[*i as usize] = *x,
                VarRef::Sym(i) => syms[*i as usize] = *x,
            }
        }
        out.insert(
            exprs
                .iter()
                .map(|e| e.eval(&dims, &syms))
                .collect::<Option<Vec<_>>>()?,
        );
        let mut i = p.len();
        loop {
            if i == 0 {
                return Some(out);
            }
            i -= 1;
            if p[i] < bounds[i].hi {
                p[i] += 1;
                break;
            }
            p[i] = bounds[i].lo;
        }
    }
}

/// For dimensions that share a variable, whether their joint values fill the product of their
/// sizes; a message per group that does not (or cannot be checked).
fn joint_gaps(map: &IndexingMap, deltas: &[(Expr, bool)], sizes: &[i64]) -> Vec<String> {
    let vars = |e: &Expr| {
        let mut v = Vec::new();
        e.for_each_var(&mut |x| v.push(x));
        v
    };
    let mut group: Vec<usize> = (0..deltas.len()).collect();
    for a in 0..deltas.len() {
        for b in a + 1..deltas.len() {
            let (va, vb) = (vars(&deltas[a].0), vars(&deltas[b].0));
            if va.iter().any(|v| vb.contains(v)) {
                let (ga, gb) = (group[a], group[b]);
                group.iter_mut().filter(|g| **g == gb).for_each(|g| *g = ga);
            }
        }
    }
    let mut out = Vec::new();
    let mut roots: Vec<usize> = group.clone();
    roots.sort_unstable();
    roots.dedup();
    for root in roots {
        let members: Vec<usize> = (0..deltas.len()).filter(|&j| group[j] == root).collect();
        if members.len() < 2 {
            continue;
        }
        let exprs: Vec<Expr> = members.iter().map(|&j| deltas[j].0.clone()).collect();
        let product = members
            .iter()
            .fold(1i128, |a, &j| a.saturating_mul(i128::from(sizes[j])));
        match enumerate(map, &exprs) {
            Some(points) if points.len() as i128 == product => {}
            Some(points) => out.push(format!(
                "operand dimensions {members:?} move together: the read is {} of the {product} elements of their box",
                points.len()
            )),
            None => out.push(format!(
                "operand dimensions {members:?} move together and are too large to check"
            )),
        }
    }
    out
}

/// `e` simplified over the domain of `map`.
fn simplified(map: &IndexingMap, e: Expr) -> Expr {
    let mut m = map.with_results(vec![e]);
    m.simplify();
    m.results()[0].clone()
}
