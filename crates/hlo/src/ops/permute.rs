//! `transpose` and `reverse`: permutations of indices.

use xla_indexing_core::{Expr, IndexingMap};

use super::{OpContext, OrAnalysisError};
use crate::direction::Direction;
use crate::error::HloError;

/// `transpose`: result dimension `i` is operand dimension `dimensions[i]`.
pub fn transpose(cx: &OpContext<'_>, dir: Direction) -> Result<IndexingMap, HloError> {
    cx.expect_operands(1)?;
    let out = cx.result_array()?;
    let op = cx.operand_array(0)?;
    let perm = cx.dim_list("dimensions", cx.ints("dimensions")?, op.rank())?;
    if perm.len() != op.rank() || out.rank() != op.rank() {
        return Err(cx.error(format!(
            "dimensions={:?} is not a permutation of {} dimensions",
            cx.ints("dimensions")?,
            op.rank()
        )));
    }
    for (i, &p) in perm.iter().enumerate() {
        if out.dims[i] != op.dims[p] {
            return Err(cx.error(format!(
                "result dimension {i} has size {} but operand dimension {p} has size {}",
                out.dims[i], op.dims[p]
            )));
        }
    }
    Ok(match dir {
        Direction::OutputToInput => {
            let mut results = vec![Expr::zero(); perm.len()];
            for (i, &p) in perm.iter().enumerate() {
                results[p] = Expr::dim(i as u32);
            }
            IndexingMap::from_tensor_sizes(results, &out.dims, &[])
        }
        Direction::InputToOutput => {
            let results = perm.iter().map(|&p| Expr::dim(p as u32)).collect();
            IndexingMap::from_tensor_sizes(results, &op.dims, &[])
        }
    })
}

/// `reverse`: `size - 1 - d` on the listed dimensions; its own inverse.
pub fn reverse(cx: &OpContext<'_>) -> Result<IndexingMap, HloError> {
    cx.expect_operands(1)?;
    let out = cx.result_array()?;
    let op = cx.operand_array(0)?;
    if out.dims != op.dims {
        return Err(cx.error(format!(
            "result dimensions {:?} differ from operand dimensions {:?}",
            out.dims, op.dims
        )));
    }
    let reversed = cx.dim_list("dimensions", cx.ints("dimensions")?, op.rank())?;
    let results = (0..op.rank())
        .map(|i| {
            let d = Expr::dim(i as u32);
            if reversed.contains(&i) {
                d.checked_scale(-1)
                    .and_then(|e| e.checked_add_const(op.dims[i] - 1))
                    .or_err(cx)
            } else {
                Ok(d)
            }
        })
        .collect::<Result<_, _>>()?;
    Ok(IndexingMap::from_tensor_sizes(results, &op.dims, &[]))
}
