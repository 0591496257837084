//! Ops with runtime offsets: `dynamic-slice`, `dynamic-update-slice` and `gather`.
//!
//! Each offset becomes a runtime variable whose feasible values keep the slice inside the
//! operand (XLA clamps offsets that way), and which records the instruction and element it is read
//! from.

use xla_indexing_core::{Expr, IndexingMap, Interval, Var};

use super::{OpContext, OperandAccess, OrAnalysisError, Outcome, scalar_read};
use crate::access::{Access, OutOfRange, RuntimeVar};
use crate::error::HloError;

type Accesses = Result<Outcome<Vec<OperandAccess>>, HloError>;

fn operand_access(operand: usize, access: Access) -> OperandAccess {
    OperandAccess {
        operand,
        leaf: 0,
        access,
    }
}

/// Checks that operands `first..` are `rank` scalars; `Ok(false)` for the old form with one
/// vector of offsets.
fn scalar_offsets(cx: &OpContext<'_>, first: usize, rank: usize) -> Result<bool, HloError> {
    let n = cx.instr.operands.len();
    if n == first + 1 && rank != 1 && cx.operand_array(first)?.rank() == 1 {
        return Ok(false);
    }
    if n != first + rank {
        return Err(cx.error(format!(
            "expected {rank} offset operands, found {}",
            n.saturating_sub(first)
        )));
    }
    for j in first..n {
        if cx.operand_array(j)?.rank() != 0 {
            return Err(cx.error(format!("offset operand {j} must be a scalar")));
        }
    }
    Ok(true)
}

/// The runtime variable of offset operand `j`, read once per element of `dims`.
fn offset_var(cx: &OpContext<'_>, j: usize, dims: &[i64]) -> Result<RuntimeVar, HloError> {
    Ok(RuntimeVar {
        instruction: cx.operand(j)?.name.clone(),
        map: scalar_read(dims),
        out_of_range: OutOfRange::Clamped,
    })
}

/// `dynamic-slice`: result `d` reads operand `d + rt`, `rt` in `[0, operand - size]`.
pub fn dynamic_slice(cx: &OpContext<'_>) -> Accesses {
    let out = cx.result_array()?;
    let op = cx.operand_array(0)?;
    if !scalar_offsets(cx, 1, op.rank())? {
        return Ok(Outcome::NotDefined(
            "dynamic-slice with a vector of offsets".into(),
        ));
    }
    let sizes = cx.ints("dynamic_slice_sizes")?;
    if sizes != out.dims.as_slice() || out.rank() != op.rank() {
        return Err(cx.error(format!(
            "dynamic_slice_sizes={sizes:?} must equal the result dimensions {:?}",
            out.dims
        )));
    }
    let mut results = Vec::new();
    let mut rt_vars = Vec::new();
    let mut runtime = Vec::new();
    for (i, (&size, &n)) in sizes.iter().zip(&op.dims).enumerate() {
        if size > n {
            return Err(cx.error(format!(
                "slice size {size} exceeds operand dimension {i} of size {n}"
            )));
        }
        results.push(Expr::dim(i as u32) + Expr::sym(i as u32));
        rt_vars.push(Var::new(Interval::new(0, n - size)));
        runtime.push(offset_var(cx, i + 1, &out.dims)?);
    }
    let map = IndexingMap::new(results, Var::from_sizes(&out.dims), Vec::new(), rt_vars);
    let mut accesses = vec![operand_access(0, Access::with_runtime(map, runtime))];
    for j in 1..cx.instr.operands.len() {
        accesses.push(operand_access(j, Access::plain(scalar_read(&out.dims))));
    }
    Ok(Outcome::Defined(accesses))
}

/// `dynamic-update-slice`: every result element reads the operand at the same index, and the
/// update at `d - rt`, `rt` in `[0, result - update]` (the read is meaningful where that lies
/// inside the update).
pub fn dynamic_update_slice(cx: &OpContext<'_>) -> Accesses {
    let out = cx.result_array()?;
    let op = cx.operand_array(0)?;
    let upd = cx.operand_array(1)?;
    if !scalar_offsets(cx, 2, op.rank())? {
        return Ok(Outcome::NotDefined(
            "dynamic-update-slice with a vector of offsets".into(),
        ));
    }
    if op.dims != out.dims || upd.rank() != out.rank() {
        return Err(cx.error(format!(
            "operand {:?}, update {:?} and result {:?} do not fit",
            op.dims, upd.dims, out.dims
        )));
    }
    let mut results = Vec::new();
    let mut rt_vars = Vec::new();
    let mut runtime = Vec::new();
    for i in 0..out.rank() {
        if upd.dims[i] > out.dims[i] {
            return Err(cx.error(format!(
                "update dimension {i} of size {} exceeds the result's {}",
                upd.dims[i], out.dims[i]
            )));
        }
        results.push(Expr::dim(i as u32) - Expr::sym(i as u32));
        rt_vars.push(Var::new(Interval::new(0, out.dims[i] - upd.dims[i])));
        runtime.push(offset_var(cx, i + 2, &out.dims)?);
    }
    let map = IndexingMap::new(results, Var::from_sizes(&out.dims), Vec::new(), rt_vars);
    let mut accesses = vec![
        operand_access(0, Access::plain(IndexingMap::identity(&out.dims))),
        operand_access(1, Access::with_runtime(map, runtime)),
    ];
    for j in 2..cx.instr.operands.len() {
        accesses.push(operand_access(j, Access::plain(scalar_read(&out.dims))));
    }
    Ok(Outcome::Defined(accesses))
}

/// `gather`: the result's batch dimensions pick a start vector from `indices`; its offset
/// dimensions walk the slice. Operand dimension `start_index_map[k]` starts at runtime variable
/// `rt_k`, read from `indices` at (batch indices, `k`).
pub fn gather(cx: &OpContext<'_>) -> Accesses {
    cx.expect_operands(2)?;
    let out = cx.result_array()?;
    let op = cx.operand_array(0)?;
    let idx = cx.operand_array(1)?;
    for key in ["operand_batching_dims", "start_indices_batching_dims"] {
        if cx.instr.ints(key).is_some_and(|v| !v.is_empty()) {
            return Ok(Outcome::NotDefined(format!("gather with {key}")));
        }
    }
    let slice_sizes = cx.ints("slice_sizes")?;
    let offset_dims = cx.dim_list("offset_dims", cx.ints("offset_dims")?, out.rank())?;
    let collapsed = cx.dim_list(
        "collapsed_slice_dims",
        cx.instr.ints("collapsed_slice_dims").unwrap_or(&[]),
        op.rank(),
    )?;
    let start_map = cx.dim_list("start_index_map", cx.ints("start_index_map")?, op.rank())?;
    let ivd = cx.index_vector_dim(idx.rank())?;
    let vector_len = if ivd < idx.rank() { idx.dims[ivd] } else { 1 };
    if start_map.len() as i64 != vector_len {
        return Err(cx.error(format!(
            "start_index_map has {} entries for index vectors of length {vector_len}",
            start_map.len()
        )));
    }
    if slice_sizes.len() != op.rank() {
        return Err(cx.error("slice_sizes must have one entry per operand dimension"));
    }
    for (d, (&s, &n)) in slice_sizes.iter().zip(&op.dims).enumerate() {
        if s < 0 || s > n || (collapsed.contains(&d) && s > 1) {
            return Err(cx.error(format!(
                "slice size {s} does not fit operand dimension {d} of size {n}"
            )));
        }
    }
    let kept: Vec<usize> = (0..op.rank()).filter(|d| !collapsed.contains(d)).collect();
    let batch_out: Vec<usize> = (0..out.rank())
        .filter(|d| !offset_dims.contains(d))
        .collect();
    let batch_idx: Vec<usize> = (0..idx.rank()).filter(|&d| d != ivd).collect();
    if kept.len() != offset_dims.len() || batch_out.len() != batch_idx.len() {
        return Err(cx.error(format!(
            "result of rank {} does not match {} offset and {} batch dimensions",
            out.rank(),
            kept.len(),
            batch_idx.len()
        )));
    }
    for (j, &d) in kept.iter().enumerate() {
        if out.dims[offset_dims[j]] != slice_sizes[d] {
            return Err(cx.error(format!(
                "result dimension {} has size {} but the slice has {}",
                offset_dims[j], out.dims[offset_dims[j]], slice_sizes[d]
            )));
        }
    }
    for (&o, &i) in batch_out.iter().zip(&batch_idx) {
        if out.dims[o] != idx.dims[i] {
            return Err(cx.error(format!(
                "result batch dimension {o} has size {} but indices dimension {i} has {}",
                out.dims[o], idx.dims[i]
            )));
        }
    }
    // The index into `indices` for batch position and vector component `component`.
    let indices_at = |component: Expr| -> Vec<Expr> {
        let mut batch = batch_out.iter().map(|&o| Expr::dim(o as u32));
        (0..idx.rank())
            .map(|d| {
                if d == ivd {
                    component.clone()
                } else {
                    batch.next().unwrap_or_else(Expr::zero)
                }
            })
            .collect()
    };
    let mut results = Vec::new();
    for d in 0..op.rank() {
        let mut e = match kept.iter().position(|&k| k == d) {
            Some(j) => Expr::dim(offset_dims[j] as u32),
            None => Expr::zero(),
        };
        if let Some(k) = start_map.iter().position(|&s| s == d) {
            e = e.checked_add(&Expr::sym(k as u32)).or_err(cx)?;
        }
        results.push(e);
    }
    let rt_vars = start_map
        .iter()
        .map(|&d| Var::new(Interval::new(0, op.dims[d] - slice_sizes[d])))
        .collect();
    let indices_name = &cx.operand(1)?.name;
    let runtime = (0..start_map.len())
        .map(|k| RuntimeVar {
            instruction: indices_name.clone(),
            map: IndexingMap::from_tensor_sizes(
                indices_at(Expr::constant(k as i64)),
                &out.dims,
                &[],
            ),
            out_of_range: OutOfRange::Clamped,
        })
        .collect();
    let operand_map = IndexingMap::new(results, Var::from_sizes(&out.dims), Vec::new(), rt_vars);
    let vector_range: &[i64] = if ivd < idx.rank() { &[vector_len] } else { &[] };
    let indices_map =
        IndexingMap::from_tensor_sizes(indices_at(Expr::sym(0)), &out.dims, vector_range);
    Ok(Outcome::Defined(vec![
        operand_access(0, Access::with_runtime(operand_map, runtime)),
        operand_access(1, Access::plain(indices_map)),
    ]))
}
