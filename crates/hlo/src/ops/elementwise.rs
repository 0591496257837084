//! Elementwise ops (unary, binary, ternary, `map`, `copy`, `convert`) and `bitcast-convert`.
//!
//! An operand with the result's dimensions is read at the same index; a rank-0 operand of a
//! non-scalar op (the scalar predicate of `select`, the bounds of `clamp`) is read once per
//! element.

use xla_indexing_core::{Expr, IndexingMap};

use super::{OpContext, scalar_read, scalar_write};
use crate::direction::Direction;
use crate::error::HloError;

/// How operand `j` relates to the result: `true` when it has the same dimensions, `false` when it
/// is a scalar broadcast implicitly.
fn same_dims(cx: &OpContext<'_>, j: usize) -> Result<bool, HloError> {
    let out = cx.result_array()?;
    let op = cx.operand_array(j)?;
    if op.dims == out.dims {
        Ok(true)
    } else if op.rank() == 0 {
        Ok(false)
    } else {
        Err(cx.error(format!(
            "operand {j} has dimensions {:?}, the result {:?}",
            op.dims, out.dims
        )))
    }
}

/// Output to every operand.
pub fn output_to_input(cx: &OpContext<'_>) -> Result<Vec<(usize, IndexingMap)>, HloError> {
    let out = cx.result_array()?;
    if cx.instr.operands.is_empty() {
        return Err(cx.error(format!("{} needs operands", cx.instr.opcode)));
    }
    (0..cx.instr.operands.len())
        .map(|j| {
            let map = if same_dims(cx, j)? {
                IndexingMap::identity(&out.dims)
            } else {
                scalar_read(&out.dims)
            };
            Ok((j, map))
        })
        .collect()
}

/// Operand `j` to the output.
pub fn input_to_output(cx: &OpContext<'_>, j: usize) -> Result<IndexingMap, HloError> {
    let out = cx.result_array()?;
    Ok(if same_dims(cx, j)? {
        IndexingMap::identity(&out.dims)
    } else {
        scalar_write(&out.dims)
    })
}

/// `bitcast-convert`: the same dimensions when the element widths agree; otherwise the narrower
/// side has one extra minor dimension that splits an element of the wider side.
pub fn bitcast_convert(cx: &OpContext<'_>, dir: Direction) -> Result<IndexingMap, HloError> {
    cx.expect_operands(1)?;
    let out = cx.result_array()?;
    let op = cx.operand_array(0)?;
    let (from, to) = match dir {
        Direction::OutputToInput => (&out.dims, &op.dims),
        Direction::InputToOutput => (&op.dims, &out.dims),
    };
    let dims = |n: usize| (0..n as u32).map(Expr::dim).collect::<Vec<_>>();
    if from == to {
        return Ok(IndexingMap::identity(from));
    }
    if from.len() == to.len() + 1 && from[..to.len()] == to[..] {
        // A narrower element is part of a wider one: drop the minor dimension.
        return Ok(IndexingMap::from_tensor_sizes(dims(to.len()), from, &[]));
    }
    if to.len() == from.len() + 1 && to[..from.len()] == from[..] {
        // A wider element spans the narrower ones along the extra minor dimension.
        let mut results = dims(from.len());
        results.push(Expr::sym(0));
        return Ok(IndexingMap::from_tensor_sizes(
            results,
            from,
            &to[from.len()..],
        ));
    }
    Err(cx.error(format!(
        "bitcast-convert from {:?} to {:?}: dimensions must agree up to one minor dimension",
        op.dims, out.dims
    )))
}
