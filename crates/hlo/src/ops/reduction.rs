//! Ops that combine many input elements into one: `reduce`, `reduce-window` and `dot`.
//! The window arithmetic here is shared with `convolution`.

use xla_indexing_core::{Expr, IndexingMap, Interval, Var};

use super::{OpContext, OperandAccess, OrAnalysisError, Outcome, scalar_read, scalar_write};
use crate::access::Access;
use crate::attrs::{AttrValue, WindowDim};
use crate::error::HloError;
use crate::shape::ArrayShape;

/// The reduce's inputs and inits, the reduced dimensions and the shape of every result.
struct ReduceParts<'a> {
    inputs: Vec<&'a ArrayShape>,
    reduced: Vec<usize>,
    result_dims: Vec<i64>,
}

fn reduce_parts<'a>(cx: &OpContext<'a>) -> Result<ReduceParts<'a>, HloError> {
    let n = cx.instr.operands.len();
    if n == 0 || !n.is_multiple_of(2) {
        return Err(cx.error(format!(
            "reduce takes inputs and as many inits, found {n} operands"
        )));
    }
    let inputs: Vec<&ArrayShape> = (0..n / 2)
        .map(|j| cx.operand_array(j))
        .collect::<Result<_, _>>()?;
    for j in n / 2..n {
        if cx.operand_array(j)?.rank() != 0 {
            return Err(cx.error(format!("init operand {j} must be a scalar")));
        }
    }
    let dims = &inputs[0].dims;
    if let Some(j) = inputs.iter().position(|s| s.dims != *dims) {
        return Err(cx.error(format!(
            "input {j} has dimensions {:?}, input 0 {dims:?}",
            inputs[j].dims
        )));
    }
    let mut reduced = cx.dim_list("dimensions", cx.ints("dimensions")?, dims.len())?;
    reduced.sort_unstable();
    let result_dims: Vec<i64> = (0..dims.len())
        .filter(|d| !reduced.contains(d))
        .map(|d| dims[d])
        .collect();
    let leaves = cx.instr.shape.leaves();
    if leaves.len() != n / 2 || leaves.iter().any(|l| l.dims != result_dims) {
        return Err(cx.error(format!(
            "result {} does not match {} reductions to dimensions {result_dims:?}",
            cx.instr.shape,
            n / 2
        )));
    }
    Ok(ReduceParts {
        inputs,
        reduced,
        result_dims,
    })
}

/// `reduce`, output to input: kept dimensions follow the result, reduced ones become range
/// variables; every result reads every input (variadic reduce) and every init.
pub fn reduce_output_to_input(cx: &OpContext<'_>) -> Result<Vec<(usize, IndexingMap)>, HloError> {
    let p = reduce_parts(cx)?;
    let in_dims = &p.inputs[0].dims;
    let (mut kept, mut range) = (0u32, 0u32);
    let results: Vec<Expr> = (0..in_dims.len())
        .map(|d| {
            if p.reduced.contains(&d) {
                range += 1;
                Expr::sym(range - 1)
            } else {
                kept += 1;
                Expr::dim(kept - 1)
            }
        })
        .collect();
    let range_sizes: Vec<i64> = p.reduced.iter().map(|&d| in_dims[d]).collect();
    let input_map = IndexingMap::from_tensor_sizes(results, &p.result_dims, &range_sizes);
    let n = p.inputs.len();
    Ok((0..2 * n)
        .map(|j| {
            (
                j,
                if j < n {
                    input_map.clone()
                } else {
                    scalar_read(&p.result_dims)
                },
            )
        })
        .collect())
}

/// `reduce`, input to output: operand `operand` feeds every result, an input by dropping the
/// reduced dimensions, an init everywhere. Pairs of (result leaf, map).
pub fn reduce_input_to_output(
    cx: &OpContext<'_>,
    operand: usize,
) -> Result<Vec<(usize, IndexingMap)>, HloError> {
    let p = reduce_parts(cx)?;
    let n = p.inputs.len();
    let map = if operand < n {
        let in_dims = &p.inputs[0].dims;
        let results = (0..in_dims.len())
            .filter(|d| !p.reduced.contains(d))
            .map(|d| Expr::dim(d as u32))
            .collect();
        IndexingMap::from_tensor_sizes(results, in_dims, &[])
    } else {
        scalar_write(&p.result_dims)
    };
    Ok((0..n).map(|leaf| (leaf, map.clone())).collect())
}

/// The input index read along one window dimension: result index `d`, window position `s`.
/// Returns the index expression and the constraints under which it reads a real input element
/// (not padding and not a hole of base dilation).
pub(super) fn window_read(
    cx: &OpContext<'_>,
    d: Expr,
    s: Expr,
    w: &WindowDim,
    input_size: i64,
) -> Result<(Expr, Vec<(Expr, Interval)>), HloError> {
    let position = d
        .checked_scale(w.stride)
        .and_then(|a| {
            s.checked_scale(w.rhs_dilate)
                .and_then(|b| a.checked_add(&b))
        })
        .and_then(|p| p.checked_add_const(-w.pad_low))
        .or_err(cx)?;
    let last = (input_size - 1)
        .checked_mul(w.lhs_dilate)
        .ok_or_else(|| cx.error("dilated size overflows"))?;
    let mut constraints = vec![(position.clone(), Interval::new(0, last))];
    let index = if w.lhs_dilate > 1 {
        constraints.push((
            position.modulo(w.lhs_dilate).or_err(cx)?,
            Interval::point(0),
        ));
        position.floor_div(w.lhs_dilate).or_err(cx)?
    } else {
        position
    };
    Ok((index, constraints))
}

/// Checks a window's fields and that it produces `output_size` positions over `input_size`.
pub(super) fn check_window(
    cx: &OpContext<'_>,
    i: usize,
    w: &WindowDim,
    input_size: i64,
    output_size: i64,
) -> Result<(), HloError> {
    if w.size < 1 || w.stride < 1 || w.lhs_dilate < 1 || w.rhs_dilate < 1 {
        return Err(cx.error(format!(
            "window dimension {i}: size, stride and dilations must be positive"
        )));
    }
    let too_big = || cx.error(format!("window dimension {i} overflows"));
    let padded = (input_size.max(1) - 1)
        .checked_mul(w.lhs_dilate)
        .and_then(|x| x.checked_add(i64::from(input_size > 0)))
        .and_then(|x| x.checked_add(w.pad_low))
        .and_then(|x| x.checked_add(w.pad_high))
        .ok_or_else(too_big)?;
    let extent = (w.size - 1)
        .checked_mul(w.rhs_dilate)
        .and_then(|x| x.checked_add(1))
        .ok_or_else(too_big)?;
    let expected = if padded < extent {
        0
    } else {
        (padded - extent) / w.stride + 1
    };
    if expected != output_size {
        return Err(cx.error(format!(
            "window dimension {i} over {input_size} elements gives {expected} positions, the result has {output_size}"
        )));
    }
    Ok(())
}

/// Builds a map from results to the windowed input; range variables are the window positions,
/// in order, with `extra_range` in front. Constraints that always hold are left out; the map is
/// simplified and keeps only the symbols it uses.
pub(super) fn windowed_map(
    results: Vec<Expr>,
    out_dims: &[i64],
    range_sizes: &[i64],
    constraints: Vec<(Expr, Interval)>,
) -> IndexingMap {
    let mut map = IndexingMap::from_tensor_sizes(results, out_dims, range_sizes);
    for (e, iv) in constraints {
        if !iv.contains_interval(map.range_evaluator(false).range(&e)) {
            map.add_constraint(e, iv);
        }
    }
    map.simplify();
    map.remove_unused_symbols();
    map
}

/// The window of a `reduce-window` or `convolution`, one entry per windowed dimension.
pub(super) fn window(cx: &OpContext<'_>, rank: usize) -> Result<Vec<WindowDim>, HloError> {
    match cx.instr.attr("window") {
        Some(AttrValue::Window(w)) if w.len() == rank => Ok(w.clone()),
        Some(AttrValue::Window(w)) => Err(cx.error(format!(
            "window has {} dimensions, expected {rank}",
            w.len()
        ))),
        _ if rank == 0 => Ok(Vec::new()),
        _ => Err(cx.error("missing attribute window={...}")),
    }
}

/// `reduce-window`, output to input: result `d` reads input
/// `(d * stride + s * rhs_dilate - pad_low) / lhs_dilate` for window position `s`, where that is
/// a real element; every result reads every input and init.
pub fn reduce_window(cx: &OpContext<'_>) -> Result<Outcome<Vec<OperandAccess>>, HloError> {
    let n = cx.instr.operands.len();
    if n == 0 || !n.is_multiple_of(2) {
        return Err(cx.error(format!(
            "reduce-window takes inputs and as many inits, found {n} operands"
        )));
    }
    let input = cx.operand_array(0)?;
    let leaves = cx.instr.shape.leaves();
    let out_dims = &leaves[0].dims;
    if leaves.len() != n / 2
        || leaves.iter().any(|l| l.dims != *out_dims)
        || out_dims.len() != input.rank()
    {
        return Err(cx.error(format!(
            "result {} does not fit {} windowed inputs",
            cx.instr.shape,
            n / 2
        )));
    }
    for j in 0..n / 2 {
        if cx.operand_array(j)?.dims != input.dims {
            return Err(cx.error(format!("input {j} differs in shape from input 0")));
        }
        if cx.operand_array(n / 2 + j)?.rank() != 0 {
            return Err(cx.error(format!("init operand {} must be a scalar", n / 2 + j)));
        }
    }
    let win = window(cx, input.rank())?;
    let mut results = Vec::new();
    let mut constraints = Vec::new();
    for (i, w) in win.iter().enumerate() {
        check_window(cx, i, w, input.dims[i], out_dims[i])?;
        let (e, c) = window_read(
            cx,
            Expr::dim(i as u32),
            Expr::sym(i as u32),
            w,
            input.dims[i],
        )?;
        results.push(e);
        constraints.extend(c);
    }
    let sizes: Vec<i64> = win.iter().map(|w| w.size).collect();
    let map = windowed_map(results, out_dims, &sizes, constraints);
    Ok(Outcome::Defined(
        (0..n)
            .map(|j| OperandAccess {
                operand: j,
                leaf: 0,
                access: Access::plain(if j < n / 2 {
                    map.clone()
                } else {
                    scalar_read(out_dims)
                }),
            })
            .collect(),
    ))
}

/// The dimension numbers of a `dot` (or of a `scaled-dot`, whose scales follow the two
/// operands), checked: batch, contracting and free dimensions of both sides.
struct DotDims {
    lhs_batch: Vec<usize>,
    rhs_batch: Vec<usize>,
    lhs_contracting: Vec<usize>,
    rhs_contracting: Vec<usize>,
    lhs_free: Vec<usize>,
    rhs_free: Vec<usize>,
}

fn dot_dims(cx: &OpContext<'_>, operands: usize) -> Result<DotDims, HloError> {
    cx.expect_operands(operands)?;
    let (lhs, rhs, out) = (
        cx.operand_array(0)?,
        cx.operand_array(1)?,
        cx.result_array()?,
    );
    let list = |key: &str, rank: usize| cx.dim_list(key, cx.instr.ints(key).unwrap_or(&[]), rank);
    let lhs_batch = list("lhs_batch_dims", lhs.rank())?;
    let rhs_batch = list("rhs_batch_dims", rhs.rank())?;
    let lhs_contracting = list("lhs_contracting_dims", lhs.rank())?;
    let rhs_contracting = list("rhs_contracting_dims", rhs.rank())?;
    if lhs_batch.len() != rhs_batch.len() || lhs_contracting.len() != rhs_contracting.len() {
        return Err(
            cx.error("lhs and rhs have different numbers of batch or contracting dimensions")
        );
    }
    for (pairs, what) in [
        (lhs_batch.iter().zip(&rhs_batch), "batch"),
        (lhs_contracting.iter().zip(&rhs_contracting), "contracting"),
    ] {
        for (&l, &r) in pairs {
            if lhs.dims[l] != rhs.dims[r] {
                return Err(cx.error(format!(
                    "{what} dimension {l} of lhs has size {} but dimension {r} of rhs has {}",
                    lhs.dims[l], rhs.dims[r]
                )));
            }
        }
    }
    let free = |rank: usize, a: &[usize], b: &[usize]| -> Result<Vec<usize>, HloError> {
        if a.iter().any(|d| b.contains(d)) {
            return Err(cx.error("a dimension is both batch and contracting"));
        }
        Ok((0..rank)
            .filter(|d| !a.contains(d) && !b.contains(d))
            .collect())
    };
    let lhs_free = free(lhs.rank(), &lhs_batch, &lhs_contracting)?;
    let rhs_free = free(rhs.rank(), &rhs_batch, &rhs_contracting)?;
    let expected: Vec<i64> = lhs_batch
        .iter()
        .map(|&d| lhs.dims[d])
        .chain(lhs_free.iter().map(|&d| lhs.dims[d]))
        .chain(rhs_free.iter().map(|&d| rhs.dims[d]))
        .collect();
    if expected != out.dims {
        return Err(cx.error(format!(
            "result dimensions {:?}, expected {expected:?}",
            out.dims
        )));
    }
    Ok(DotDims {
        lhs_batch,
        rhs_batch,
        lhs_contracting,
        rhs_contracting,
        lhs_free,
        rhs_free,
    })
}

/// One side of a dot, output to input: batch and free dimensions come from the result,
/// contracting ones are range variables shared by both sides.
fn dot_side(
    rank: usize,
    batch: &[usize],
    contracting: &[usize],
    free: &[usize],
    free_at: usize,
) -> Vec<Expr> {
    (0..rank)
        .map(|d| {
            if let Some(k) = batch.iter().position(|&b| b == d) {
                Expr::dim(k as u32)
            } else if let Some(k) = contracting.iter().position(|&c| c == d) {
                Expr::sym(k as u32)
            } else {
                let k = free.iter().position(|&f| f == d).unwrap_or_default();
                Expr::dim((free_at + k) as u32)
            }
        })
        .collect()
}

/// `dot` (with `operands` operands: 2, or 4 for a `scaled-dot`), output to lhs and rhs.
pub fn dot_output_to_input(
    cx: &OpContext<'_>,
    operands: usize,
) -> Result<Vec<(usize, IndexingMap)>, HloError> {
    let dd = dot_dims(cx, operands)?;
    let (lhs, rhs, out) = (
        cx.operand_array(0)?,
        cx.operand_array(1)?,
        cx.result_array()?,
    );
    let nb = dd.lhs_batch.len();
    let contracting: Vec<i64> = dd.lhs_contracting.iter().map(|&d| lhs.dims[d]).collect();
    let lhs_results = dot_side(
        lhs.rank(),
        &dd.lhs_batch,
        &dd.lhs_contracting,
        &dd.lhs_free,
        nb,
    );
    let rhs_results = dot_side(
        rhs.rank(),
        &dd.rhs_batch,
        &dd.rhs_contracting,
        &dd.rhs_free,
        nb + dd.lhs_free.len(),
    );
    Ok(vec![
        (
            0,
            IndexingMap::from_tensor_sizes(lhs_results, &out.dims, &contracting),
        ),
        (
            1,
            IndexingMap::from_tensor_sizes(rhs_results, &out.dims, &contracting),
        ),
    ])
}

/// `dot` (with `operands` operands, as for [`dot_output_to_input`]), lhs or rhs to the output:
/// its batch and free dimensions go to their result positions; the other side's free
/// dimensions become range variables.
pub fn dot_input_to_output(
    cx: &OpContext<'_>,
    operand: usize,
    operands: usize,
) -> Result<IndexingMap, HloError> {
    let dd = dot_dims(cx, operands)?;
    let (lhs, rhs) = (cx.operand_array(0)?, cx.operand_array(1)?);
    let (own, batch, own_free, other_free) = match operand {
        0 => (lhs, &dd.lhs_batch, &dd.lhs_free, (rhs, &dd.rhs_free)),
        1 => (rhs, &dd.rhs_batch, &dd.rhs_free, (lhs, &dd.lhs_free)),
        _ => return Err(cx.error(format!("dot has no operand {operand}"))),
    };
    let dim = |d: &usize| Expr::dim(*d as u32);
    let syms: Vec<Expr> = (0..other_free.1.len() as u32).map(Expr::sym).collect();
    let mut results: Vec<Expr> = batch.iter().map(dim).collect();
    if operand == 0 {
        results.extend(own_free.iter().map(dim));
        results.extend(syms);
    } else {
        results.extend(syms);
        results.extend(own_free.iter().map(dim));
    }
    let range: Vec<i64> = other_free.1.iter().map(|&d| other_free.0.dims[d]).collect();
    Ok(IndexingMap::new(
        results,
        Var::from_sizes(&own.dims),
        Var::from_sizes(&range),
        Vec::new(),
    ))
}
