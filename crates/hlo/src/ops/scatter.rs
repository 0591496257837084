//! `scatter(operands..., scatter_indices, updates...)`: a copy of the operands into which the
//! updates are combined, each update window at a start read from the indices at runtime.
//!
//! An update element at `(scatter position p, window position w)` lands at operand index
//! `start(p) + batch(p) + window(w)`: `start` puts index-vector component `k` (read from the
//! indices at `p`) on operand dimension `scatter_dims_to_operand_dims[k]`; `batch` puts the
//! scatter position's coordinate of each `scatter_indices_batching_dims` entry on the matching
//! `input_batching_dims` dimension; `window` spreads `w` over the operand dimensions that are
//! neither inserted nor batching. XLA drops an update window that is not entirely inside the
//! operand (it does not clamp it), so component `k`'s runtime variable takes exactly the starts
//! that keep the window inside, `[0, size - window]`, and a value outside means "not written".
//!
//! ```text
//! s = f32[8,4] scatter(f32[8,4] o, s32[3,1] i, f32[3,4] u), update_window_dims={1},
//!       inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1
//! output -> u: (d0, d1)[s0]{rt0} -> (s0, d1), domain: d0 in [0, 7], d1 in [0, 3], s0 in [0, 2],
//!              rt0 in [0, 7], d0 - rt0 in [0, 0]; rt0 read from i at (d0, d1)[s0] -> (s0, 0)
//! output -> i: (d0, d1)[s0, s1] -> (s0, s1), every index vector whose update can land here
//! u -> output: (d0, d1){rt0} -> (rt0, d1); rt0 read from i at (d0, d1) -> (d0, 0)
//! ```
//!
//! A variadic scatter's combiner takes the operands' current values and the updates and gives
//! the new values: output `l` reads operand `j` (at the same index) and update `j` where a chain
//! of at most as many combiner applications as updates can land on one element leads from result
//! `l` to parameter `j` (or `n + j`).

use std::collections::BTreeSet;

use xla_indexing_core::{Expr, IndexingMap, Interval, Var};

use super::{OpContext, OperandAccess, OrAnalysisError, ResultAccess};
use crate::access::{Access, OutOfRange, RuntimeVar};
use crate::error::HloError;

/// The role of one operand (and result) dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OperandDim {
    /// Walked by update window dimension `update_dim`.
    Window { update_dim: usize },
    /// In `inserted_window_dims`: a window of size 1.
    Inserted,
    /// In `input_batching_dims`: the coordinate of update scatter dimension `update_dim`, which
    /// is indices dimension `indices_dim`.
    Batch {
        update_dim: usize,
        indices_dim: usize,
    },
}

/// The role of one update dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum UpdateDim {
    /// In `update_window_dims`: walks operand dimension `operand_dim`.
    Window { operand_dim: usize },
    /// A scatter dimension: indices dimension `indices_dim` (the indices' dimensions but the
    /// index vector's, in order); `batch` is the operand dimension it is the coordinate of.
    Scatter {
        indices_dim: usize,
        batch: Option<usize>,
    },
}

/// A scatter's dimension numbers, checked against its shapes.
struct ScatterDims {
    /// Operands (and updates, and result leaves).
    n: usize,
    operand: Vec<i64>,
    updates: Vec<i64>,
    indices: Vec<i64>,
    /// `index_vector_dim`; the indices' rank when the index vector is implicit.
    ivd: usize,
    /// The index-vector component that starts each operand dimension, if one does.
    start: Vec<Option<usize>>,
    operand_dims: Vec<OperandDim>,
    update_dims: Vec<UpdateDim>,
    /// Per result leaf: the operands and the updates it reads.
    reads_operand: Vec<BTreeSet<usize>>,
    reads_update: Vec<BTreeSet<usize>>,
}

impl ScatterDims {
    /// The window size along operand dimension `o` (1 for inserted and batching dimensions).
    fn window(&self, o: usize) -> i64 {
        match self.operand_dims[o] {
            OperandDim::Window { update_dim } => self.updates[update_dim],
            _ => 1,
        }
    }

    /// The starts of index-vector component `k` that keep the window inside the operand.
    fn start_bounds(&self, k: usize) -> Interval {
        let o = self.start.iter().position(|&c| c == Some(k)).unwrap_or(0);
        Interval::new(0, self.operand[o] - self.window(o))
    }

    fn vector_len(&self) -> usize {
        self.start.iter().flatten().count()
    }

    /// The indices index of component `component` of the index vector at the scatter position
    /// given per indices dimension (the index vector's own entry is skipped).
    fn indices_at(&self, position: &[Expr], component: Expr) -> Vec<Expr> {
        let mut out = position.to_vec();
        if self.ivd < self.indices.len() {
            out.insert(self.ivd, component);
        }
        out
    }

    /// The scatter dimensions of the updates, as (update dimension, indices dimension,
    /// operand batching dimension).
    fn scatter_dims(&self) -> impl Iterator<Item = (usize, usize, Option<usize>)> + '_ {
        self.update_dims
            .iter()
            .enumerate()
            .filter_map(|(u, role)| match *role {
                UpdateDim::Scatter { indices_dim, batch } => Some((u, indices_dim, batch)),
                UpdateDim::Window { .. } => None,
            })
    }

    /// The most updates that can land on one output element: one per scatter position with
    /// the element's batch coordinates (0 when the updates are empty).
    fn max_landing(&self) -> u64 {
        if self.updates.contains(&0) {
            return 0;
        }
        self.scatter_dims()
            .filter(|(_, _, batch)| batch.is_none())
            .map(|(u, _, _)| self.updates[u] as u64)
            .fold(1u64, |acc, s| acc.saturating_mul(s))
    }
}

fn scatter_dims(cx: &OpContext<'_>) -> Result<ScatterDims, HloError> {
    let count = cx.instr.operands.len();
    if count < 3 || count.is_multiple_of(2) {
        return Err(cx.error(format!(
            "scatter takes operands, indices and as many updates, found {count} operands"
        )));
    }
    let n = count / 2;
    let operand = cx.operand_array(0)?.dims.clone();
    let indices = cx.operand_array(n)?.dims.clone();
    let updates = cx.operand_array(n + 1)?.dims.clone();
    for j in 0..n {
        if cx.operand_array(j)?.dims != operand {
            return Err(cx.error(format!("operand {j} differs in shape from operand 0")));
        }
        if cx.operand_array(n + 1 + j)?.dims != updates {
            return Err(cx.error(format!("update {j} differs in shape from update 0")));
        }
    }
    let leaves = cx.instr.shape.leaves();
    if leaves.len() != n || leaves.iter().any(|l| l.dims != operand) {
        return Err(cx.error(format!(
            "result {} does not match {n} operands of dimensions {operand:?}",
            cx.instr.shape
        )));
    }
    let list = |key: &str, rank: usize| cx.dim_list(key, cx.instr.ints(key).unwrap_or(&[]), rank);
    let window_dims = list("update_window_dims", updates.len())?;
    let inserted = list("inserted_window_dims", operand.len())?;
    let batching = list("input_batching_dims", operand.len())?;
    let indices_batching = list("scatter_indices_batching_dims", indices.len())?;
    let to_operand = list("scatter_dims_to_operand_dims", operand.len())?;
    let ivd = cx.index_vector_dim(indices.len())?;
    if !window_dims.is_sorted() || !inserted.is_sorted() {
        return Err(cx.error("update_window_dims and inserted_window_dims must be sorted"));
    }
    let vector_len = if ivd < indices.len() { indices[ivd] } else { 1 };
    if to_operand.len() as i64 != vector_len {
        return Err(cx.error(format!(
            "scatter_dims_to_operand_dims has {} entries for index vectors of length {vector_len}",
            to_operand.len()
        )));
    }
    if batching.len() != indices_batching.len() || indices_batching.contains(&ivd) {
        return Err(cx.error(
            "input_batching_dims and scatter_indices_batching_dims must pair up, without the index vector dimension",
        ));
    }
    if let Some(d) = inserted.iter().find(|d| batching.contains(d)) {
        return Err(cx.error(format!(
            "operand dimension {d} is both inserted and batching"
        )));
    }
    if let Some(d) = to_operand.iter().find(|d| batching.contains(d)) {
        return Err(cx.error(format!(
            "operand dimension {d} is both a batching and a scattered dimension"
        )));
    }
    // Operand dimensions that the window walks, paired in order with the update window dims.
    let walked: Vec<usize> = (0..operand.len())
        .filter(|d| !inserted.contains(d) && !batching.contains(d))
        .collect();
    if walked.len() != window_dims.len() {
        return Err(cx.error(format!(
            "{} update window dimensions for {} operand dimensions that are neither inserted nor batching",
            window_dims.len(),
            walked.len()
        )));
    }
    let indices_scatter: Vec<usize> = (0..indices.len()).filter(|&d| d != ivd).collect();
    let update_scatter: Vec<usize> = (0..updates.len())
        .filter(|d| !window_dims.contains(d))
        .collect();
    if update_scatter.len() != indices_scatter.len() {
        return Err(cx.error(format!(
            "updates have {} scatter dimensions, the indices {}",
            update_scatter.len(),
            indices_scatter.len()
        )));
    }
    let mut update_dims = vec![UpdateDim::Window { operand_dim: 0 }; updates.len()];
    let mut operand_dims = vec![OperandDim::Inserted; operand.len()];
    for (&u, &o) in window_dims.iter().zip(&walked) {
        if updates[u] > operand[o] {
            return Err(cx.error(format!(
                "update window dimension {u} of size {} exceeds operand dimension {o} of size {}",
                updates[u], operand[o]
            )));
        }
        update_dims[u] = UpdateDim::Window { operand_dim: o };
        operand_dims[o] = OperandDim::Window { update_dim: u };
    }
    for (&u, &i) in update_scatter.iter().zip(&indices_scatter) {
        if updates[u] != indices[i] {
            return Err(cx.error(format!(
                "update scatter dimension {u} has size {} but indices dimension {i} has {}",
                updates[u], indices[i]
            )));
        }
        let batch = indices_batching
            .iter()
            .position(|&b| b == i)
            .map(|k| batching[k]);
        if let Some(o) = batch {
            if operand[o] != indices[i] {
                return Err(cx.error(format!(
                    "batching dimension {o} of the operand has size {} but indices dimension {i} has {}",
                    operand[o], indices[i]
                )));
            }
            operand_dims[o] = OperandDim::Batch {
                update_dim: u,
                indices_dim: i,
            };
        }
        update_dims[u] = UpdateDim::Scatter {
            indices_dim: i,
            batch,
        };
    }
    let mut start = vec![None; operand.len()];
    for (k, &o) in to_operand.iter().enumerate() {
        start[o] = Some(k);
    }
    let mut dims = ScatterDims {
        n,
        operand,
        updates,
        indices,
        ivd,
        start,
        operand_dims,
        update_dims,
        reads_operand: Vec::new(),
        reads_update: Vec::new(),
    };
    let (reads_operand, reads_update) = combiner_reads(cx, n, dims.max_landing())?;
    dims.reads_operand = reads_operand;
    dims.reads_update = reads_update;
    Ok(dims)
}

/// Per result leaf, the operands and updates it reads through at most `landing` applications
/// of the combiner (its parameters are the operands' current values, then the updates).
type Reads = (Vec<BTreeSet<usize>>, Vec<BTreeSet<usize>>);

fn combiner_reads(cx: &OpContext<'_>, n: usize, landing: u64) -> Result<Reads, HloError> {
    let (combiner, deps) = cx.applied("combiner", 2 * n, &format!(", expected {}", 2 * n))?;
    if deps.len() != n {
        return Err(cx.error(format!(
            "the combiner {} gives {} values for {n} operands",
            combiner.name,
            deps.len()
        )));
    }
    // reads[m]: the parameters that result m of one application reads.
    let reads: Vec<BTreeSet<usize>> = deps
        .iter()
        .map(|d| d.iter().map(|&(p, _)| p).collect())
        .collect();
    let steps = landing.min(n as u64) as usize;
    let mut operands = Vec::new();
    let mut updates = Vec::new();
    for l in 0..n {
        // The values result `l` depends on after `t` applications, for t = 0..=steps.
        let mut within: BTreeSet<usize> = BTreeSet::from([l]);
        let mut frontier = within.clone();
        let mut upd = BTreeSet::new();
        for _ in 0..steps {
            let mut next = BTreeSet::new();
            for &m in &frontier {
                for &p in &reads[m] {
                    if p < n {
                        next.insert(p);
                    } else {
                        upd.insert(p - n);
                    }
                }
            }
            frontier = next.difference(&within).cloned().collect();
            within.extend(next);
        }
        operands.push(within);
        updates.push(upd);
    }
    Ok((operands, updates))
}

/// The map from the output to update `j`: the scatter positions are range variables (but for
/// batch coordinates, which are the output's), each window coordinate is the output's less the
/// start; component `k` of the index vector is runtime variable `rt_k`, read from the indices at
/// the scatter position. The window coordinate must lie in the window, and an inserted
/// dimension's output coordinate must be its start.
fn output_to_updates(cx: &OpContext<'_>, s: &ScatterDims) -> Result<Access, HloError> {
    let dim = |o: usize| Expr::dim(o as u32);
    let rt = |k: usize| Expr::sym((num_free(s) + k) as u32);
    // The scatter position per indices dimension (vector dimension skipped) and per update dim.
    let mut position = Vec::new();
    let mut results = vec![Expr::zero(); s.updates.len()];
    let mut next_range = 0u32;
    for (u, _, batch) in s.scatter_dims() {
        let e = match batch {
            Some(o) => dim(o),
            None => {
                next_range += 1;
                Expr::sym(next_range - 1)
            }
        };
        results[u] = e.clone();
        position.push(e);
    }
    let mut constraints = Vec::new();
    for (o, role) in s.operand_dims.iter().enumerate() {
        let offset = match s.start[o] {
            Some(k) => dim(o).checked_sub(&rt(k)).or_err(cx)?,
            None => dim(o),
        };
        match *role {
            OperandDim::Window { update_dim } => {
                constraints.push((offset.clone(), Interval::upto(s.updates[update_dim])));
                results[update_dim] = offset;
            }
            OperandDim::Inserted => constraints.push((offset, Interval::point(0))),
            OperandDim::Batch { .. } => {}
        }
    }
    let range: Vec<i64> = s
        .scatter_dims()
        .filter(|(_, _, batch)| batch.is_none())
        .map(|(u, _, _)| s.updates[u])
        .collect();
    let rt_vars = (0..s.vector_len())
        .map(|k| Var::new(s.start_bounds(k)))
        .collect();
    let mut map = IndexingMap::new(
        results,
        Var::from_sizes(&s.operand),
        Var::from_sizes(&range),
        rt_vars,
    );
    for (e, iv) in constraints {
        map.add_constraint(e, iv);
    }
    let runtime = start_runtime_vars(cx, s, &position, &s.operand, &range)?;
    Ok(Access::with_runtime(map, runtime))
}

/// The runtime variables of a map to the updates: component `k` of the index vector at the
/// scatter `position` (over dims and range variables of sizes `dims` and `range`), read from the
/// indices operand. A window that does not fit in the operand is dropped, not clamped.
fn start_runtime_vars(
    cx: &OpContext<'_>,
    s: &ScatterDims,
    position: &[Expr],
    dims: &[i64],
    range: &[i64],
) -> Result<Vec<RuntimeVar>, HloError> {
    let indices_name = &cx.operand(s.n)?.name;
    Ok((0..s.vector_len())
        .map(|k| RuntimeVar {
            instruction: indices_name.clone(),
            map: IndexingMap::from_tensor_sizes(
                s.indices_at(position, Expr::constant(k as i64)),
                dims,
                range,
            ),
            out_of_range: OutOfRange::Dropped,
        })
        .collect())
}

/// The number of range variables of the output-to-updates map: the scatter dimensions that
/// are not batch coordinates.
fn num_free(s: &ScatterDims) -> usize {
    s.scatter_dims().filter(|(_, _, b)| b.is_none()).count()
}

/// The output coordinates that some update can reach, per operand dimension: every coordinate
/// where a start moves the window, the window's first coordinates where no start does, 0 on an
/// inserted dimension without a start.
fn reachable(s: &ScatterDims, o: usize) -> Interval {
    match (s.start[o], s.operand_dims[o]) {
        (None, OperandDim::Inserted) => Interval::point(0),
        (None, OperandDim::Window { update_dim }) => Interval::upto(s.updates[update_dim]),
        _ => Interval::upto(s.operand[o]),
    }
}

/// Output element to the same element of an operand: everywhere for the output's own operand,
/// where some update can land for another operand (the combiner reads it only then).
fn operand_identity(s: &ScatterDims, own: bool) -> IndexingMap {
    let dims = (0..s.operand.len())
        .map(|o| {
            Var::new(if own {
                Interval::upto(s.operand[o])
            } else {
                reachable(s, o)
            })
        })
        .collect();
    let results = (0..s.operand.len() as u32).map(Expr::dim).collect();
    IndexingMap::new(results, dims, Vec::new(), Vec::new())
}

/// The map from the output to the indices: every index vector whose update can land on the
/// output element, i.e. every scatter position with the element's batch coordinates, and every
/// component of its vector, for output elements some update can reach.
fn output_to_indices(s: &ScatterDims) -> IndexingMap {
    let mut position = Vec::new();
    let mut range = Vec::new();
    for (u, _, batch) in s.scatter_dims() {
        position.push(match batch {
            Some(o) => Expr::dim(o as u32),
            None => {
                range.push(s.updates[u]);
                Expr::sym(range.len() as u32 - 1)
            }
        });
    }
    let component = Expr::sym(range.len() as u32);
    if s.ivd < s.indices.len() {
        range.push(s.indices[s.ivd]);
    }
    let dims = (0..s.operand.len())
        .map(|o| Var::new(reachable(s, o)))
        .collect();
    IndexingMap::new(
        s.indices_at(&position, component),
        dims,
        Var::from_sizes(&range),
        Vec::new(),
    )
}

/// `scatter`, output leaf `leaf` to the operands, the indices and the updates.
pub fn output_to_input(cx: &OpContext<'_>, leaf: usize) -> Result<Vec<OperandAccess>, HloError> {
    let s = scatter_dims(cx)?;
    let at = |operand: usize, access: Access| OperandAccess {
        operand,
        leaf: 0,
        access,
    };
    let mut out: Vec<OperandAccess> = s.reads_operand[leaf]
        .iter()
        .map(|&j| at(j, Access::plain(operand_identity(&s, j == leaf))))
        .collect();
    if s.max_landing() == 0 {
        return Ok(out);
    }
    out.push(at(s.n, Access::plain(output_to_indices(&s))));
    if !s.reads_update[leaf].is_empty() {
        let updates = output_to_updates(cx, &s)?;
        for &j in &s.reads_update[leaf] {
            out.push(at(s.n + 1 + j, updates.clone()));
        }
    }
    Ok(out)
}

/// `scatter`, operand `operand` (an operand, the indices or an update) to the result leaves it
/// reaches: an operand to the same index, an update to where its window lands (the start read
/// from the indices at its scatter position), the indices to every output element the updates
/// at their scatter position can reach.
pub fn input_to_output(cx: &OpContext<'_>, operand: usize) -> Result<Vec<ResultAccess>, HloError> {
    let s = scatter_dims(cx)?;
    let leaves = |pick: &dyn Fn(usize) -> bool, access: Access| -> Vec<ResultAccess> {
        (0..s.n)
            .filter(|&l| pick(l))
            .map(|leaf| ResultAccess {
                leaf,
                access: access.clone(),
            })
            .collect()
    };
    if operand < s.n {
        return Ok((0..s.n)
            .filter(|l| s.reads_operand[*l].contains(&operand))
            .map(|leaf| ResultAccess {
                leaf,
                access: Access::plain(operand_identity(&s, leaf == operand)),
            })
            .collect());
    }
    if s.max_landing() == 0 {
        return Ok(Vec::new());
    }
    if operand == s.n {
        return Ok(leaves(&|_| true, Access::plain(indices_to_output(&s))));
    }
    let j = operand - s.n - 1;
    if j >= s.n {
        return Err(cx.error(format!("has no operand {operand}")));
    }
    let access = updates_to_output(cx, &s)?;
    Ok(leaves(&|l| s.reads_update[l].contains(&j), access))
}

/// An update element to the output element it lands on: the start read from the indices at
/// its scatter position (`rt_k` for component `k`, feasible where the window fits), plus its
/// window coordinates and batch coordinates.
fn updates_to_output(cx: &OpContext<'_>, s: &ScatterDims) -> Result<Access, HloError> {
    let position: Vec<Expr> = s
        .scatter_dims()
        .map(|(u, _, _)| Expr::dim(u as u32))
        .collect();
    let rt = |k: usize| Expr::sym(k as u32);
    let mut results = Vec::new();
    for (o, role) in s.operand_dims.iter().enumerate() {
        let start = s.start[o].map(rt);
        results.push(match (*role, start) {
            (OperandDim::Batch { update_dim, .. }, _) => Expr::dim(update_dim as u32),
            (OperandDim::Window { update_dim }, Some(start)) => start
                .checked_add(&Expr::dim(update_dim as u32))
                .or_err(cx)?,
            (OperandDim::Window { update_dim }, None) => Expr::dim(update_dim as u32),
            (OperandDim::Inserted, Some(start)) => start,
            (OperandDim::Inserted, None) => Expr::zero(),
        });
    }
    let rt_vars = (0..s.vector_len())
        .map(|k| Var::new(s.start_bounds(k)))
        .collect();
    let map = IndexingMap::new(results, Var::from_sizes(&s.updates), Vec::new(), rt_vars);
    let runtime = start_runtime_vars(cx, s, &position, &s.updates, &[])?;
    Ok(Access::with_runtime(map, runtime))
}

/// An index element to the output elements the updates at its scatter position can reach:
/// batch coordinates from the position, every reachable coordinate elsewhere.
fn indices_to_output(s: &ScatterDims) -> IndexingMap {
    let mut results = Vec::new();
    let mut range = Vec::new();
    for o in 0..s.operand.len() {
        results.push(match s.operand_dims[o] {
            OperandDim::Batch { indices_dim, .. } => Expr::dim(indices_dim as u32),
            _ => {
                let reach = reachable(s, o);
                range.push(reach);
                Expr::sym(range.len() as u32 - 1)
            }
        });
    }
    IndexingMap::new(
        results,
        Var::from_sizes(&s.indices),
        range.into_iter().map(Var::new).collect(),
        Vec::new(),
    )
}
