//! Ops whose outputs read whole rows: `sort` and top-k (`topk`, the `TopK` custom call).
//!
//! Where a sorted element comes from depends on the values of its row, so an output element
//! reads every element of its row along the sort dimension: a range variable walks the row.
//! A `sort` output reads its own operand and every operand whose parameters the comparator reads
//! (parameters `2k` and `2k + 1` belong to operand `k`); a top-k output, values or indices, reads
//! the last-dimension row of the operand.
//!
//! ```text
//! s = (f32[4,8], s32[4,8]) sort(keys, iota), dimensions={1}, to_apply=less_by_key
//! output 1 -> operand 0: (d0, d1)[s0] -> (d0, s0), domain: d0 in [0, 3], d1 in [0, 7], s0 in [0, 7]
//! output 1 -> operand 1: the same map (the iota moves with the keys)
//! output 0 -> operand 1: none (the comparator reads parameters 0 and 1 only)
//! ```

use xla_indexing_core::{Expr, IndexingMap};

use super::{OpContext, OperandAccess, ResultAccess};
use crate::access::Access;
use crate::error::HloError;
use crate::shape::ArrayShape;

/// `(d0, ..., dn)[s0] -> (d0, ..., s0, ..., dn)` over `dims`, with `s0` in place of dimension
/// `axis` walking `[0, row - 1]`: every element of the row along `axis`.
fn row_map(dims: &[i64], axis: usize, row: i64) -> IndexingMap {
    let results = (0..dims.len())
        .map(|d| {
            if d == axis {
                Expr::sym(0)
            } else {
                Expr::dim(d as u32)
            }
        })
        .collect();
    IndexingMap::from_tensor_sizes(results, dims, &[row])
}

/// A sort's operands (checked to be arrays of one shape, like every result leaf), its sort
/// dimension, and per operand whether the comparator reads it.
struct SortParts<'a> {
    shape: &'a ArrayShape,
    axis: usize,
    compared: Vec<bool>,
}

fn sort_parts<'a>(cx: &OpContext<'a>) -> Result<SortParts<'a>, HloError> {
    let n = cx.instr.operands.len();
    if n == 0 {
        return Err(cx.error("sort needs at least one operand"));
    }
    let shape = cx.operand_array(0)?;
    for j in 1..n {
        if cx.operand_array(j)?.dims != shape.dims {
            return Err(cx.error(format!(
                "operand {j} has dimensions {:?}, operand 0 {:?}",
                cx.operand_array(j)?.dims,
                shape.dims
            )));
        }
    }
    let leaves = cx.instr.shape.leaves();
    if leaves.len() != n || leaves.iter().any(|l| l.dims != shape.dims) {
        return Err(cx.error(format!(
            "result {} does not match {n} operands of dimensions {:?}",
            cx.instr.shape, shape.dims
        )));
    }
    let axis = match cx.dim_list("dimensions", cx.ints("dimensions")?, shape.rank())?[..] {
        [axis] => axis,
        _ => return Err(cx.error("sort needs exactly one dimension in dimensions={...}")),
    };
    let (_, deps) = cx.applied(
        "comparator",
        2 * n,
        &format!(", expected 2 per operand ({})", 2 * n),
    )?;
    let mut compared = vec![false; n];
    for &(p, _) in deps.iter().flatten() {
        if let Some(flag) = compared.get_mut(p / 2) {
            *flag = true;
        }
    }
    Ok(SortParts {
        shape,
        axis,
        compared,
    })
}

/// `sort`, output leaf `leaf` to the operands: its own operand and every compared operand, each
/// along the whole row of the sort dimension.
pub fn sort_output_to_input(
    cx: &OpContext<'_>,
    leaf: usize,
) -> Result<Vec<OperandAccess>, HloError> {
    let p = sort_parts(cx)?;
    let map = row_map(&p.shape.dims, p.axis, p.shape.dims[p.axis]);
    Ok((0..p.compared.len())
        .filter(|&j| j == leaf || p.compared[j])
        .map(|operand| OperandAccess {
            operand,
            leaf: 0,
            access: Access::plain(map.clone()),
        })
        .collect())
}

/// `sort`, operand `operand` to the results: its own result leaf and, when the comparator
/// reads it, every result leaf, each along the whole row.
pub fn sort_input_to_output(
    cx: &OpContext<'_>,
    operand: usize,
) -> Result<Vec<ResultAccess>, HloError> {
    let p = sort_parts(cx)?;
    if operand >= p.compared.len() {
        return Err(cx.error(format!("has no operand {operand}")));
    }
    let map = row_map(&p.shape.dims, p.axis, p.shape.dims[p.axis]);
    Ok((0..p.compared.len())
        .filter(|&leaf| leaf == operand || p.compared[operand])
        .map(|leaf| ResultAccess {
            leaf,
            access: Access::plain(map.clone()),
        })
        .collect())
}

/// A top-k's operand and its result leaves (values and indices), checked: one operand of rank
/// at least 1, two result leaves of the operand's dimensions but for the last, which is at most
/// the operand's.
fn top_k_shapes<'a>(cx: &OpContext<'a>) -> Result<(&'a ArrayShape, Vec<i64>), HloError> {
    cx.expect_operands(1)?;
    let input = cx.operand_array(0)?;
    let leaves = cx.instr.shape.leaves();
    let rank = input.rank();
    let fits = |l: &&ArrayShape| {
        l.rank() == rank
            && rank > 0
            && l.dims[..rank - 1] == input.dims[..rank - 1]
            && l.dims[rank - 1] <= input.dims[rank - 1]
    };
    if leaves.len() != 2 || !leaves.iter().all(fits) || leaves[0].dims != leaves[1].dims {
        return Err(cx.error(format!(
            "result {} is not (values, indices) of the top elements of {:?}'s last dimension",
            cx.instr.shape, input.dims
        )));
    }
    if let Some(k) = cx.instr.int("k")
        && k != leaves[0].dims[rank - 1]
    {
        return Err(cx.error(format!(
            "k={k} differs from the result's last dimension {}",
            leaves[0].dims[rank - 1]
        )));
    }
    Ok((input, leaves[0].dims.clone()))
}

/// Top-k, either output leaf to the operand: the whole last-dimension row.
pub fn top_k_output_to_input(cx: &OpContext<'_>) -> Result<Vec<OperandAccess>, HloError> {
    let (input, out) = top_k_shapes(cx)?;
    let last = out.len() - 1;
    Ok(vec![OperandAccess {
        operand: 0,
        leaf: 0,
        access: Access::plain(row_map(&out, last, input.dims[last])),
    }])
}

/// Top-k, the operand to both result leaves: every position of the output row.
pub fn top_k_input_to_output(cx: &OpContext<'_>) -> Result<Vec<ResultAccess>, HloError> {
    let (input, out) = top_k_shapes(cx)?;
    let last = out.len() - 1;
    let map = row_map(&input.dims, last, out[last]);
    Ok((0..2)
        .map(|leaf| ResultAccess {
            leaf,
            access: Access::plain(map.clone()),
        })
        .collect())
}
