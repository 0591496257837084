//! `broadcast`: operand dimension `k` is result dimension `dimensions[k]`; the other result
//! dimensions repeat the operand.

use xla_indexing_core::{Expr, IndexingMap};

use super::OpContext;
use crate::error::HloError;

/// The result dimension of each operand dimension, checked against the shapes.
fn mapping(cx: &OpContext<'_>) -> Result<Vec<usize>, HloError> {
    cx.expect_operands(1)?;
    let out = cx.result_array()?;
    let op = cx.operand_array(0)?;
    let dims = cx.dim_list("dimensions", cx.ints("dimensions")?, out.rank())?;
    if dims.len() != op.rank() {
        return Err(cx.error(format!(
            "dimensions has {} entries for an operand of rank {}",
            dims.len(),
            op.rank()
        )));
    }
    for (k, &d) in dims.iter().enumerate() {
        if out.dims[d] != op.dims[k] {
            return Err(cx.error(format!(
                "operand dimension {k} has size {} but result dimension {d} has size {}",
                op.dims[k], out.dims[d]
            )));
        }
    }
    Ok(dims)
}

/// `(d...) -> (d_dimensions[0], ...)`.
pub fn output_to_input(cx: &OpContext<'_>) -> Result<IndexingMap, HloError> {
    let dims = mapping(cx)?;
    let results = dims.iter().map(|&d| Expr::dim(d as u32)).collect();
    Ok(IndexingMap::from_tensor_sizes(
        results,
        &cx.result_array()?.dims,
        &[],
    ))
}

/// Operand dimensions stay; every other result dimension becomes a range variable.
pub fn input_to_output(cx: &OpContext<'_>) -> Result<IndexingMap, HloError> {
    let dims = mapping(cx)?;
    let out = cx.result_array()?;
    let mut range = Vec::new();
    let results = (0..out.rank())
        .map(|i| match dims.iter().position(|&d| d == i) {
            Some(k) => Expr::dim(k as u32),
            None => {
                range.push(out.dims[i]);
                Expr::sym(range.len() as u32 - 1)
            }
        })
        .collect();
    Ok(IndexingMap::from_tensor_sizes(
        results,
        &cx.operand_array(0)?.dims,
        &range,
    ))
}
